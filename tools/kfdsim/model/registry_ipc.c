/* SPDX-License-Identifier: MIT */
/*
 * IPC handles of the rocm kernel flavour (amdgpu-dkms kfd_ipc.c): a random
 * 128-bit handle names an exported KFD BO on the whole machine, so any
 * process may import it knowing only the 16 bytes. The kernel keeps the
 * object while a kgd_mem references it (the exporter's, each import's);
 * here every process counts its own references in a holder entry, and a
 * holder whose process died (without cleaning up) no longer counts, as
 * process exit drops references in the kernel.
 *
 * The BO's bytes live in the exporter's memfd. An importer in another
 * process opens the same memfd through /proc/<pid>/fd/<fd> of a live
 * holder (checking it is the same inode), so both map one piece of memory.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "ksim_priv.h"
#include "registry_priv.h"

/* get_random_bytes(); a clock mix where getrandom is not allowed. */
static void
random_handle(uint32_t h[4])
{
	static uint64_t counter;
	struct timespec ts;
	uint64_t x;

	if (syscall(SYS_getrandom, h, 16, 0) == 16)
		return;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	x = (uint64_t)ts.tv_nsec ^ ((uint64_t)ts.tv_sec << 30) ^
	    ((uint64_t)ksim_self_pid() << 40) ^ ++counter;
	for (int i = 0; i < 4; i++) {
		/* splitmix64 */
		uint64_t z = (x += 0x9e3779b97f4a7c15ULL);

		z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
		z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
		h[i] = (uint32_t)(z ^ (z >> 31));
	}
}

/* Open the memory a holder names; -1 when it cannot be the same inode. */
static int
holder_open(const struct reg_ipc *e, const struct reg_ipc_holder *h)
{
	char path[64];
	uint64_t sdev, ino;
	int fd;

	if (h->fd < 0)
		return -1;
	snprintf(path, sizeof(path), "/proc/%d/fd/%d", (int)h->pid, (int)h->fd);
	fd = (int)syscall(SYS_openat, AT_FDCWD, path, O_RDWR | O_CLOEXEC);
	if (fd < 0)
		return -1;
	if (ksim_sys_identity(fd, &sdev, &ino) || sdev != e->b.st_dev ||
	    ino != e->b.st_ino) {
		ksim_sys_close(fd);
		return -1;
	}
	return fd;
}

/*
 * Whether a holder still holds the memory: its process lives and, when
 * @deep, its fd still names the BO (a process that exec'd keeps its pid
 * but lost the model's fds).
 */
static int
holder_live(const struct reg_ipc *e, const struct reg_ipc_holder *h, int deep)
{
	int fd;

	if (!h->pid || !ksim_sys_pid_alive(h->pid))
		return 0;
	if (!deep || h->pid == ksim_self_pid() || h->fd < 0)
		return 1;
	fd = holder_open(e, h);
	if (fd < 0)
		return 0;
	ksim_sys_close(fd);
	return 1;
}

/* Drop dead holders; free the entry when none is left (ipc_obj_release). */
static int
entry_prune(struct reg_ipc *e, int deep)
{
	int live = 0;

	for (unsigned int i = 0; i < REG_IPC_HOLDERS; i++) {
		struct reg_ipc_holder *h = &e->holders[i];

		if (!h->pid)
			continue;
		if (holder_live(e, h, deep))
			live++;
		else
			memset(h, 0, sizeof(*h));
	}
	if (!live)
		memset(e, 0, sizeof(*e));
	return live;
}

static struct reg_ipc_holder *
holder_of(struct reg_ipc *e, pid_t pid)
{
	for (unsigned int i = 0; i < REG_IPC_HOLDERS; i++)
		if (e->holders[i].pid == pid)
			return &e->holders[i];
	return NULL;
}

static struct reg_ipc_holder *
holder_new(struct reg_ipc *e, pid_t pid, int fd)
{
	for (unsigned int i = 0; i < REG_IPC_HOLDERS; i++) {
		struct reg_ipc_holder *h = &e->holders[i];

		if (!h->pid) {
			h->pid = pid;
			h->fd = fd;
			h->refs = 1;
			return h;
		}
	}
	return NULL;
}

static struct reg_ipc *
entry_get(struct reg_shared *sh, unsigned int slot, uint64_t gen)
{
	struct reg_ipc *e;

	if (slot >= REG_IPC)
		return NULL;
	e = &sh->ipc[slot];
	return e->in_use && e->gen == gen ? e : NULL;
}

static int
free_slot(struct reg_shared *sh)
{
	for (int pass = 0; pass < 3; pass++) {
		for (int i = 0; i < REG_IPC; i++) {
			/* pass 1 reaps dead processes' entries, pass 2 also
			 * entries whose holders no longer have the memory */
			if (pass && sh->ipc[i].in_use)
				entry_prune(&sh->ipc[i], pass == 2);
			if (!sh->ipc[i].in_use)
				return i;
		}
	}
	return -1;
}

int
ksim_reg_ipc_export(struct ksim_device *dev, struct ksim_bo *bo, uint32_t flags,
		    uint32_t handle[4], unsigned int *slot, uint64_t *gen)
{
	struct ksim_registry *reg = dev->reg;
	struct reg_shared *sh = reg->sh;
	struct reg_ipc *e;
	int i, unique;

	if (ksim_reg_lock(reg))
		return -EIO;
	i = free_slot(sh);
	if (i < 0) {
		ksim_reg_unlock(reg);
		return -ENOMEM;
	}
	e = &sh->ipc[i];
	memset(e, 0, sizeof(*e));
	do {
		random_handle(e->handle);
		unique = 1;
		for (int j = 0; j < REG_IPC; j++)
			if (j != i && sh->ipc[j].in_use &&
			    !memcmp(sh->ipc[j].handle, e->handle, sizeof(e->handle)))
				unique = 0;
	} while (!unique);
	e->in_use = 1;
	e->gen = ++sh->ipc_gen;
	e->flags = flags;
	ksim_reg_buf_fill(&e->b, bo);
	holder_new(e, ksim_self_pid(), bo->memfd);
	memcpy(handle, e->handle, sizeof(e->handle));
	*slot = (unsigned int)i;
	*gen = e->gen;
	ksim_reg_unlock(reg);
	return 0;
}

int
ksim_reg_ipc_handle(struct ksim_device *dev, unsigned int slot, uint64_t gen,
		    uint32_t handle[4])
{
	struct reg_ipc *e;
	int r = -EINVAL;

	if (ksim_reg_lock(dev->reg))
		return -EIO;
	e = entry_get(dev->reg->sh, slot, gen);
	if (e) {
		memcpy(handle, e->handle, sizeof(e->handle));
		r = 0;
	}
	ksim_reg_unlock(dev->reg);
	return r;
}

int
ksim_reg_ipc_import(struct ksim_device *dev, const uint32_t handle[4],
		    struct ksim_reg_ipc *out)
{
	struct ksim_registry *reg = dev->reg;
	struct reg_shared *sh = reg->sh;
	struct reg_ipc *e = NULL;
	struct reg_ipc_holder *self;
	pid_t pid = ksim_self_pid();
	int fd = -1;

	if (ksim_reg_lock(reg))
		return -EIO;
	for (int i = 0; i < REG_IPC && !e; i++) {
		/* all 128 bits must match: no guessing from a prefix */
		if (sh->ipc[i].in_use &&
		    !memcmp(sh->ipc[i].handle, handle, sizeof(sh->ipc[i].handle)) &&
		    entry_prune(&sh->ipc[i], 0)) {
			e = &sh->ipc[i];
			out->slot = (unsigned int)i;
		}
	}
	if (!e) {
		ksim_reg_unlock(reg);
		return -EINVAL;
	}
	self = holder_of(e, pid);
	if (!self) {
		for (unsigned int i = 0; i < REG_IPC_HOLDERS && fd < 0; i++)
			if (e->holders[i].pid)
				fd = holder_open(e, &e->holders[i]);
		/* Every holder lost the memory: the object is gone. */
		if (fd < 0) {
			entry_prune(e, 1);
			ksim_reg_unlock(reg);
			return -EINVAL;
		}
		self = holder_new(e, pid, -1);
		if (!self) {
			ksim_sys_close(fd);
			ksim_reg_unlock(reg);
			return -ENOMEM;
		}
	} else {
		self->refs++;
	}
	out->gen = e->gen;
	out->flags = e->flags;
	out->b = e->b;
	out->fd = fd;
	ksim_reg_unlock(reg);
	return 0;
}

void
ksim_reg_ipc_set_fd(struct ksim_device *dev, unsigned int slot, uint64_t gen,
		    int memfd)
{
	struct reg_ipc *e;
	struct reg_ipc_holder *h;

	if (ksim_reg_lock(dev->reg))
		return;
	e = entry_get(dev->reg->sh, slot, gen);
	h = e ? holder_of(e, ksim_self_pid()) : NULL;
	if (h && h->fd < 0)
		h->fd = memfd;
	ksim_reg_unlock(dev->reg);
}

void
ksim_reg_ipc_put(struct ksim_device *dev, unsigned int slot, uint64_t gen)
{
	struct reg_ipc *e;
	struct reg_ipc_holder *h;

	if (ksim_reg_lock(dev->reg))
		return;
	e = entry_get(dev->reg->sh, slot, gen);
	/* A fork child's copies of its parent's handles hold nothing here. */
	h = e ? holder_of(e, ksim_self_pid()) : NULL;
	if (h && --h->refs == 0) {
		memset(h, 0, sizeof(*h));
		entry_prune(e, 0);
	}
	ksim_reg_unlock(dev->reg);
}

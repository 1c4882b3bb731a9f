/* SPDX-License-Identifier: MIT */
/*
 * What sysfs shows of the machine registry (ksim_sysfs.h): each process's
 * KFD identity (pasid), its queues and VRAM use, which amdgpu and KFD
 * publish under /sys/class/drm/card<n>/device/mem_info_* and
 * /sys/class/kfd/kfd/proc/<pid>/ (kfd_process.c: kfd_procfs_add_queue,
 * kfd_procfs_add_sysfs_files). The process that owns a registry slot
 * fills it as it creates and destroys queues; any process of the machine
 * reads it.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "ksim_priv.h"
#include "ksim_sysfs.h"
#include "registry_priv.h"

_Static_assert(KSIM_SYSFS_GPUS >= KSIM_MAX_GPUS, "ksim_sysfs_proc.vram too small");
_Static_assert(KSIM_SYSFS_QUEUES == REG_PROC_QUEUES, "queue list sizes differ");

/* The slot of the calling process, if @slot is its own (not a fork parent's). */
static struct reg_proc *
own_slot(struct ksim_registry *reg, int slot)
{
	struct reg_proc *rp;

	if (slot < 0 || slot >= REG_PROCS)
		return NULL;
	rp = &reg->sh->procs[slot];
	return rp->in_use && rp->pid == ksim_self_pid() ? rp : NULL;
}

void
ksim_reg_proc_set_pasid(struct ksim_registry *reg, int slot, uint32_t pasid)
{
	struct reg_proc *rp;

	if (ksim_reg_lock(reg))
		return;
	rp = own_slot(reg, slot);
	/* A secondary context shares the slot: the primary's pasid stays. */
	if (rp && !rp->pasid)
		rp->pasid = pasid;
	ksim_reg_unlock(reg);
}

/*
 * KFD_IOC_QUEUE_TYPE_* -> the kernel's enum kfd_queue_type (kfd_priv.h):
 * COMPUTE, SDMA, HIQ, DIQ, SDMA_XGMI, SDMA_BY_ENG_ID, as kernels that still
 * have DIQ number them (a 2025 patch series removes DIQ, which moves the
 * last two down by one).
 */
static uint32_t
kernel_queue_type(uint32_t user_type)
{
	switch (user_type) {
	case KFD_ABI_QUEUE_TYPE_SDMA:
		return 1;
	case KFD_ABI_QUEUE_TYPE_SDMA_XGMI:
		return 4;
	case KFD_ABI_QUEUE_TYPE_SDMA_BY_ENG_ID:
		return 5;
	default:
		return 0;	/* compute, PM4 or AQL */
	}
}

struct ksim_qdbg *
ksim_reg_queue_add(struct ksim_registry *reg, int slot, uint32_t id, int gpu,
		   uint32_t user_type, uint64_t size)
{
	struct reg_proc *rp;
	struct reg_queue *q = NULL;

	if (ksim_reg_lock(reg))
		return NULL;
	rp = own_slot(reg, slot);
	for (unsigned int i = 0; rp && i < REG_PROC_QUEUES && !q; i++)
		if (!rp->queues[i].in_use)
			q = &rp->queues[i];
	if (q) {
		q->in_use = 1;
		q->id = id;
		q->gpu = (uint32_t)gpu;
		q->type = kernel_queue_type(user_type);
		q->size = size;
	}
	ksim_reg_unlock(reg);
	return q ? &q->dbg : NULL;
}

static struct reg_queue *
queue_find(struct reg_proc *rp, uint32_t id)
{
	for (unsigned int i = 0; i < REG_PROC_QUEUES; i++)
		if (rp->queues[i].in_use && rp->queues[i].id == id)
			return &rp->queues[i];
	return NULL;
}

void
ksim_reg_queue_resize(struct ksim_registry *reg, int slot, uint32_t id, uint64_t size)
{
	struct reg_proc *rp;
	struct reg_queue *q;

	if (ksim_reg_lock(reg))
		return;
	rp = own_slot(reg, slot);
	q = rp ? queue_find(rp, id) : NULL;
	if (q)
		q->size = size;
	ksim_reg_unlock(reg);
}

void
ksim_reg_queue_del(struct ksim_registry *reg, int slot, uint32_t id)
{
	struct reg_proc *rp;
	struct reg_queue *q;

	if (ksim_reg_lock(reg))
		return;
	rp = own_slot(reg, slot);
	q = rp ? queue_find(rp, id) : NULL;
	if (q)
		memset(q, 0, sizeof(*q));
	ksim_reg_unlock(reg);
}

int
ksim_sysfs_mem_usage(struct ksim_device *dev, unsigned int gpu,
		     struct ksim_sysfs_mem *out)
{
	uint64_t vram = 0, gtt = 0;

	if (!dev || !out || gpu >= dev->n_gpus)
		return -EINVAL;
	ksim_reg_usage(dev, (int)gpu, NULL, NULL, &vram, &gtt);
	out->vram_used = vram;
	out->gtt_used = gtt;
	return 0;
}

/*
 * Whether @pid has exited: gone, or a zombie. The kernel drops a KFD
 * process when its mm goes away, before the parent reaps the task, so a
 * zombie has no proc/<pid>/ directory any more.
 */
static int
pid_exited(pid_t pid)
{
	char path[32], buf[512], *rparen;
	long n;
	int fd;

	if (!ksim_sys_pid_alive(pid))
		return 1;
	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	fd = (int)syscall(SYS_openat, AT_FDCWD, path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 0;	/* another pid namespace: trust kill() */
	n = syscall(SYS_read, fd, buf, sizeof(buf) - 1);
	syscall(SYS_close, fd);
	if (n <= 0)
		return 0;
	buf[n] = '\0';
	/* "pid (comm) S ...": comm may hold anything, the state follows the last ')' */
	rparen = strrchr(buf, ')');
	return rparen && rparen[1] == ' ' && (rparen[2] == 'Z' || rparen[2] == 'X');
}

/* A slot sysfs shows: a live process whose KFD process exists. */
static int
proc_listed(const struct ksim_registry *reg, const struct reg_proc *rp)
{
	if (!rp->in_use || !rp->pasid)
		return 0;
	return !reg->shared || rp->pid == ksim_self_pid() || !pid_exited(rp->pid);
}

int
ksim_sysfs_procs(struct ksim_device *dev, pid_t *pids, unsigned int max)
{
	struct ksim_registry *reg;
	pid_t found[REG_PROCS];
	unsigned int n = 0;

	if (!dev)
		return 0;
	reg = dev->reg;
	if (ksim_reg_lock(reg))
		return 0;
	for (unsigned int i = 0; i < REG_PROCS; i++) {
		const struct reg_proc *rp = &reg->sh->procs[i];
		unsigned int j;

		if (!proc_listed(reg, rp))
			continue;
		/* insertion in ascending order; a pid has one slot */
		for (j = n; j > 0 && found[j - 1] > rp->pid; j--)
			found[j] = found[j - 1];
		found[j] = rp->pid;
		n++;
	}
	ksim_reg_unlock(reg);
	for (unsigned int i = 0; pids && i < n && i < max; i++)
		pids[i] = found[i];
	return (int)n;
}

int
ksim_sysfs_proc(struct ksim_device *dev, pid_t pid, struct ksim_sysfs_proc *out)
{
	struct ksim_registry *reg;
	int r = -ENOENT;

	if (!dev || !out || pid <= 0)
		return -ENOENT;
	reg = dev->reg;
	memset(out, 0, sizeof(*out));
	if (ksim_reg_lock(reg))
		return -ENOENT;
	for (unsigned int i = 0; i < REG_PROCS; i++) {
		const struct reg_proc *rp = &reg->sh->procs[i];
		uint32_t last = 0;

		if (rp->pid != pid || !proc_listed(reg, rp))
			continue;
		out->pid = pid;
		out->pasid = rp->pasid;
		out->n_gpus = dev->n_gpus;
		for (unsigned int g = 0; g < dev->n_gpus; g++) {
			out->vram[g] = rp->vram[g];
			if (rp->pm_vm & (1u << g))
				out->evicted_ms[g] = (reg->sh->pm_evicted_ns -
						      rp->pm_base_ns[g]) / 1000000ULL;
		}
		/* ascending queue id */
		for (;;) {
			const struct reg_queue *best = NULL;

			for (unsigned int q = 0; q < REG_PROC_QUEUES; q++) {
				const struct reg_queue *c = &rp->queues[q];

				if (c->in_use && (out->n_queues == 0 || c->id > last) &&
				    (!best || c->id < best->id))
					best = c;
			}
			if (!best)
				break;
			out->queues[out->n_queues].id = best->id;
			out->queues[out->n_queues].gpu = best->gpu;
			out->queues[out->n_queues].type = best->type;
			out->queues[out->n_queues].size = best->size;
			out->n_queues++;
			last = best->id;
		}
		r = 0;
		break;
	}
	ksim_reg_unlock(reg);
	return r;
}

/* SPDX-License-Identifier: MIT */
/*
 * The machine registry: state that crosses processes. On real hardware the
 * kernel holds one device for every process; here each process has its own
 * model, so what must be common lives in a small shared-memory file,
 * /dev/shm/kfdsim-<machine>, guarded by a lock whose every wait is
 * bounded (registry_lock.c):
 *   - memory accounting (KFD VRAM/system limits, TTM usage) per GPU,
 *     with a per-process breakdown so the charges of a process that died
 *     without cleaning up are reclaimed;
 *   - exported dmabufs, keyed by the inode of their memfd, with the BO's
 *     size, placement and GEM metadata, so an import in another process
 *     (fd passed over a socket) finds them;
 *   - PASIDs;
 *   - the SDMA queue slots of each GPU (the kernel's DQM bitmaps);
 *   - IPC handles of the rocm kernel flavour (registry_ipc.c).
 * Without a machine name the same structure lives in private memory.
 * The registry never stores pointers. The file's lifetime (making it,
 * checking a file found there, reclaiming stale ones) is machine.c's.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/mman.h>
#include <linux/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "ksim_priv.h"
#include "registry_priv.h"

void
ksim_reg_init(struct reg_shared *sh, int32_t owner_pid, uint64_t owner_start,
	      uint32_t flags)
{
	sh->h.version = REG_VERSION;
	sh->h.size = sizeof(*sh);
	sh->h.owner_pid = owner_pid;
	sh->h.owner_start = owner_start;
	sh->h.flags = flags;
	sh->next_pasid = 0x8001;
	__atomic_store_n(&sh->h.magic, REG_MAGIC, __ATOMIC_RELEASE);
}

/* "0x1234, 0x5678" */
static void
gpu_list(char *buf, size_t len, unsigned int n, const uint32_t *ids, size_t stride)
{
	size_t off = 0;

	buf[0] = '\0';
	for (unsigned int i = 0; i < n && off < len; i++) {
		int w = snprintf(buf + off, len - off, "%s0x%x", i ? ", " : "",
				 *(const uint32_t *)((const char *)ids + i * stride));

		if (w < 0)
			break;
		off += (size_t)w;
	}
}

/*
 * One machine, one set of GPUs: the first device binds the machine to its
 * profile's GPUs, every later one must have the same (registry lock held).
 */
static int
bind_gpus(struct reg_shared *sh, const struct ksim_device *dev, const char *path)
{
	char have[160], want[160];
	int same = sh->n_gpus == dev->n_gpus;

	if (!sh->bound) {
		sh->n_gpus = dev->n_gpus;
		for (unsigned int i = 0; i < dev->n_gpus; i++)
			sh->gpu_ids[i] = dev->gpus[i].gpu_id;
		sh->bound = 1;
		return 0;
	}
	for (unsigned int i = 0; same && i < dev->n_gpus; i++)
		same = sh->gpu_ids[i] == dev->gpus[i].gpu_id;
	if (same)
		return 0;
	gpu_list(have, sizeof(have), sh->n_gpus < KSIM_MAX_GPUS ? sh->n_gpus : KSIM_MAX_GPUS,
		 sh->gpu_ids, sizeof(sh->gpu_ids[0]));
	gpu_list(want, sizeof(want), dev->n_gpus, &dev->gpus[0].gpu_id, sizeof(dev->gpus[0]));
	ksim_machine_log(path, "the machine has another profile's GPUs (gpu_id %s; "
			 "profile %s has %s): refusing it", have,
			 dev->prof->name, want);
	return -EINVAL;
}

static int
open_shared(struct ksim_registry *reg, const struct ksim_device *dev,
	    const char *machine)
{
	const char *path = reg->path;
	void *map;
	int fd, r;

	fd = ksim_machine_attach(machine, 0, reg->path, sizeof(reg->path));
	if (fd < 0)
		return fd;
	map = (void *)syscall(SYS_mmap, NULL, sizeof(struct reg_shared),
			      PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (map == MAP_FAILED) {
		r = -errno;
		ksim_machine_log(path, "cannot map it: %s", strerror(-r));
		ksim_sys_close(fd);
		return r;
	}
	reg->sh = map;
	r = ksim_reg_lock(reg);
	if (!r) {
		r = bind_gpus(reg->sh, dev, path);
		ksim_reg_unlock(reg);
	}
	if (r) {
		syscall(SYS_munmap, map, sizeof(struct reg_shared));
		reg->sh = NULL;
		ksim_sys_close(fd);
		return r;
	}
	/* The lock stays while the fd is open: it tells others that a live
	 * process uses the machine (machine.c). */
	reg->fd = ksim_internal_fd(fd);
	return 0;
}

int
ksim_reg_open(struct ksim_device *dev, const char *machine,
	      struct ksim_registry **out)
{
	struct ksim_registry *reg = calloc(1, sizeof(*reg));
	int r;

	if (!reg)
		return -ENOMEM;
	reg->fd = -1;
	if (machine && *machine) {
		if (ksim_machine_name_check(machine)) {
			free(reg);
			return -EINVAL;
		}
		r = open_shared(reg, dev, machine);
		if (r) {
			free(reg);
			return r;
		}
		reg->shared = 1;
	} else {
		reg->sh = calloc(1, sizeof(*reg->sh));
		if (!reg->sh) {
			free(reg);
			return -ENOMEM;
		}
		/* Private: nobody else can hold or overwrite the lock. */
		ksim_reg_init(reg->sh, 0, 0, 0);
		if (!ksim_reg_lock(reg)) {
			bind_gpus(reg->sh, dev, "");
			ksim_reg_unlock(reg);
		}
	}
	*out = reg;
	return 0;
}

void
ksim_reg_close(struct ksim_registry *reg)
{
	if (!reg)
		return;
	if (reg->shared) {
		syscall(SYS_munmap, reg->sh, sizeof(struct reg_shared));
		ksim_sys_close(reg->fd);
	} else if (reg->sh) {
		free(reg->sh);
	}
	free(reg);
}

#define SUB_SAT(a, b) ((a) = (a) > (b) ? (a) - (b) : 0)

/* Give a dead process's charges back (registry lock held). A count the
 * program overwrote (the file is mapped into it) must not wrap. */
static void
proc_drop(struct reg_shared *sh, struct reg_proc *rp)
{
	for (unsigned int g = 0; g < KSIM_MAX_GPUS; g++) {
		SUB_SAT(sh->vram_used[g], rp->vram[g]);
		SUB_SAT(sh->vram_aligned[g], rp->vram_aligned[g]);
		SUB_SAT(sh->vram_ttm[g], rp->vram_ttm[g]);
	}
	SUB_SAT(sh->sys_used, rp->sys);
	SUB_SAT(sh->ttm_used, rp->ttm);
	memset(rp, 0, sizeof(*rp));
}

static int
reap_dead(struct ksim_registry *reg)
{
	int n = 0;

	if (!reg->shared)
		return 0;
	for (unsigned int i = 0; i < REG_PROCS; i++) {
		struct reg_proc *rp = &reg->sh->procs[i];

		if (rp->in_use && !ksim_sys_pid_alive(rp->pid)) {
			proc_drop(reg->sh, rp);
			n++;
		}
	}
	return n;
}

/* The start time of this process (@pid: ours), read once per pid. */
static uint64_t
self_start(pid_t pid)
{
	static pid_t seen;
	static uint64_t start;

	if (__atomic_load_n(&seen, __ATOMIC_ACQUIRE) != pid) {
		__atomic_store_n(&start, ksim_proc_start_time(pid), __ATOMIC_RELAXED);
		__atomic_store_n(&seen, pid, __ATOMIC_RELEASE);
	}
	return __atomic_load_n(&start, __ATOMIC_RELAXED);
}

int
reg_proc_slot_locked(struct ksim_registry *reg, pid_t pid, uint64_t start)
{
	struct reg_shared *sh = reg->sh;
	int slot = -1;

	for (int pass = 0; pass < 2 && slot < 0; pass++) {
		for (unsigned int i = 0; i < REG_PROCS; i++) {
			struct reg_proc *rp = &sh->procs[i];

			if (!rp->in_use || rp->pid != pid)
				continue;
			/* An ended process that had this pid: its charges go
			 * back, the slot is this one's afresh. */
			if (rp->start != start)
				proc_drop(sh, rp);
			else
				slot = (int)i;
			break;
		}
		for (unsigned int i = 0; slot < 0 && i < REG_PROCS; i++) {
			struct reg_proc *rp = &sh->procs[i];

			if (!rp->in_use) {
				memset(rp, 0, sizeof(*rp));
				rp->in_use = 1;
				rp->pid = pid;
				rp->start = start;
				slot = (int)i;
			}
		}
		if (slot < 0)
			reap_dead(reg);
	}
	return slot;
}

int
ksim_reg_proc_slot(struct ksim_registry *reg, pid_t pid, const char *what)
{
	int slot;

	if (ksim_reg_lock(reg))
		return -EIO;
	slot = reg_proc_slot_locked(reg, pid, self_start(pid));
	ksim_reg_unlock(reg);
	if (slot >= 0)
		return slot;
	ksim_machine_log(ksim_reg_name(reg), "the machine tracks %d processes, its most: "
			 "refusing process %d's %s (ENOMEM)", REG_PROCS, (int)pid, what);
	return -ENOMEM;
}

struct ksim_pdbg *
ksim_reg_proc_dbg(struct ksim_registry *reg, int slot)
{
	if (slot < 0 || slot >= REG_PROCS)
		return NULL;
	return &reg->sh->procs[slot].dbg;
}

void
ksim_reg_proc_release(struct ksim_registry *reg, int slot)
{
	struct reg_proc *rp;

	if (slot < 0 || slot >= REG_PROCS || ksim_reg_lock(reg))
		return;
	/* The slot and what it has charged stay the pid's until it ends:
	 * a render-node BO can outlive the KFD process, and its charge must
	 * be given back once, by its free or by the pid's end. */
	rp = &reg->sh->procs[slot];
	if (rp->in_use && rp->pid == ksim_self_pid()) {
		rp->pasid = 0;
		rp->xmem_fd = 0;
		memset(rp->queues, 0, sizeof(rp->queues));
		/* A debug session holds the KFD process (kfd_dbg_trap_enable
		 * takes a reference): only one with none ends here. */
		if (!rp->dbg.enabled)
			memset(&rp->dbg, 0, sizeof(rp->dbg));
	}
	ksim_reg_unlock(reg);
}

uint32_t
ksim_reg_pasid(struct ksim_registry *reg)
{
	uint32_t p;

	if (ksim_reg_lock(reg))
		return 0;
	p = reg->sh->next_pasid++;
	if (reg->sh->next_pasid >= 0x10000)
		reg->sh->next_pasid = 0x8001;
	ksim_reg_unlock(reg);
	return p;
}

static int
over_limit(struct ksim_device *dev, const struct ksim_charge *c, int kfd)
{
	struct reg_shared *sh = dev->reg->sh;

	if (c->gpu >= 0) {
		const struct ksim_gpu *g = dev->gpus[c->gpu].g;
		uint64_t kfd_cap = g->vram_size > g->vram_reserved ?
				   g->vram_size - g->vram_reserved : 0;

		if (kfd && c->vram &&
		    sh->vram_used[c->gpu] + c->vram > kfd_cap)
			return 1;
		if (c->vram_ttm && sh->vram_ttm[c->gpu] + c->vram_ttm > g->vram_size)
			return 1;
	}
	if (kfd && c->sys && sh->sys_used + c->sys > dev->sys_limit)
		return 1;
	if (c->ttm && sh->ttm_used + c->ttm > dev->ttm_limit)
		return 1;
	return 0;
}

int
ksim_reg_charge(struct ksim_device *dev, int slot, const struct ksim_charge *c,
		int kfd_limits)
{
	struct ksim_registry *reg = dev->reg;
	struct reg_shared *sh = reg->sh;
	uint64_t aligned = KSIM_ALIGN(c->vram, KSIM_VRAM_ALIGN);

	if (ksim_reg_lock(reg))
		return -EIO;
	if (over_limit(dev, c, kfd_limits) &&
	    (!reap_dead(reg) || over_limit(dev, c, kfd_limits))) {
		ksim_reg_unlock(reg);
		return -ENOMEM;
	}
	if (c->gpu >= 0) {
		sh->vram_used[c->gpu] += c->vram;
		sh->vram_aligned[c->gpu] += aligned;
		sh->vram_ttm[c->gpu] += c->vram_ttm;
	}
	sh->sys_used += c->sys;
	sh->ttm_used += c->ttm;
	if (slot >= 0 && slot < REG_PROCS) {
		struct reg_proc *rp = &sh->procs[slot];

		if (c->gpu >= 0) {
			rp->vram[c->gpu] += c->vram;
			rp->vram_aligned[c->gpu] += aligned;
			rp->vram_ttm[c->gpu] += c->vram_ttm;
		}
		rp->sys += c->sys;
		rp->ttm += c->ttm;
	}
	ksim_reg_unlock(reg);
	return 0;
}

void
ksim_reg_uncharge(struct ksim_device *dev, int slot, const struct ksim_charge *c)
{
	struct ksim_registry *reg = dev->reg;
	struct reg_shared *sh = reg->sh;
	uint64_t aligned = KSIM_ALIGN(c->vram, KSIM_VRAM_ALIGN);

	if (ksim_reg_lock(reg))
		return;
	if (c->gpu >= 0) {
		SUB_SAT(sh->vram_used[c->gpu], c->vram);
		SUB_SAT(sh->vram_aligned[c->gpu], aligned);
		SUB_SAT(sh->vram_ttm[c->gpu], c->vram_ttm);
	}
	SUB_SAT(sh->sys_used, c->sys);
	SUB_SAT(sh->ttm_used, c->ttm);
	if (slot >= 0 && slot < REG_PROCS && sh->procs[slot].in_use) {
		struct reg_proc *rp = &sh->procs[slot];

		if (c->gpu >= 0) {
			SUB_SAT(rp->vram[c->gpu], c->vram);
			SUB_SAT(rp->vram_aligned[c->gpu], aligned);
			SUB_SAT(rp->vram_ttm[c->gpu], c->vram_ttm);
		}
		SUB_SAT(rp->sys, c->sys);
		SUB_SAT(rp->ttm, c->ttm);
	}
	ksim_reg_unlock(reg);
}

void
ksim_reg_usage(struct ksim_device *dev, int gpu, uint64_t *vram_kfd,
	       uint64_t *vram_kfd_aligned, uint64_t *vram_ttm, uint64_t *gtt)
{
	struct ksim_registry *reg = dev->reg;

	if (ksim_reg_lock(reg))
		return;
	/* A process that died without cleaning up gives its memory back, as
	 * process exit does in the kernel. */
	reap_dead(reg);
	if (gpu >= 0 && gpu < KSIM_MAX_GPUS) {
		if (vram_kfd)
			*vram_kfd = reg->sh->vram_used[gpu];
		if (vram_kfd_aligned)
			*vram_kfd_aligned = reg->sh->vram_aligned[gpu];
		if (vram_ttm)
			*vram_ttm = reg->sh->vram_ttm[gpu];
	}
	if (gtt)
		*gtt = reg->sh->ttm_used;
	ksim_reg_unlock(reg);
}

void
ksim_reg_buf_fill(struct ksim_reg_buf *b, const struct ksim_bo *bo)
{
	b->st_dev = bo->st_dev;
	b->st_ino = bo->st_ino;
	b->size = bo->size;
	b->gpu = (uint32_t)bo->gpu;
	b->domain = bo->domain;
	b->gem_flags = bo->gem_flags;
	b->kfd_flags = bo->kfd_flags;
	b->tiling_flags = bo->tiling_flags;
	b->metadata_flags = bo->metadata_flags;
	b->metadata_size = bo->metadata_size;
	memcpy(b->metadata, bo->metadata, sizeof(b->metadata));
}

static int
slot_matches(const struct reg_bufslot *s, uint64_t dev, uint64_t ino)
{
	return s->in_use && s->b.st_dev == dev && s->b.st_ino == ino;
}

int
ksim_reg_buf_publish(struct ksim_device *dev, struct ksim_bo *bo)
{
	struct ksim_registry *reg = dev->reg;
	struct reg_shared *sh = reg->sh;
	int slot = -1;
	uint64_t oldest = UINT64_MAX;
	int victim = 0;

	if (ksim_reg_lock(reg))
		return -1;
	if (bo->reg_slot >= 0 &&
	    slot_matches(&sh->bufs[bo->reg_slot], bo->st_dev, bo->st_ino))
		slot = bo->reg_slot;
	for (int i = 0; slot < 0 && i < REG_BUFS; i++)
		if (slot_matches(&sh->bufs[i], bo->st_dev, bo->st_ino))
			slot = i;
	for (int i = 0; slot < 0 && i < REG_BUFS; i++) {
		if (!sh->bufs[i].in_use)
			slot = i;
		else if (sh->bufs[i].gen < oldest) {
			oldest = sh->bufs[i].gen;
			victim = i;
		}
	}
	/* Full: the least recently published entry makes room. */
	if (slot < 0)
		slot = victim;
	sh->bufs[slot].in_use = 1;
	sh->bufs[slot].gen = ++sh->buf_gen;
	ksim_reg_buf_fill(&sh->bufs[slot].b, bo);
	bo->reg_slot = slot;
	ksim_reg_unlock(reg);
	return slot;
}

int
ksim_reg_buf_find(struct ksim_device *dev, uint64_t st_dev, uint64_t st_ino,
		  struct ksim_reg_buf *out)
{
	struct ksim_registry *reg = dev->reg;
	int slot = -1;

	if (ksim_reg_lock(reg))
		return -1;
	for (int i = 0; i < REG_BUFS; i++) {
		if (slot_matches(&reg->sh->bufs[i], st_dev, st_ino)) {
			slot = i;
			if (out)
				*out = reg->sh->bufs[i].b;
			break;
		}
	}
	ksim_reg_unlock(reg);
	return slot;
}

void
ksim_reg_buf_sync_metadata(struct ksim_device *dev, struct ksim_bo *bo)
{
	struct ksim_registry *reg = dev->reg;
	struct reg_bufslot *s;

	if (bo->reg_slot < 0 || ksim_reg_lock(reg))
		return;
	s = &reg->sh->bufs[bo->reg_slot];
	if (slot_matches(s, bo->st_dev, bo->st_ino)) {
		s->b.tiling_flags = bo->tiling_flags;
		s->b.metadata_flags = bo->metadata_flags;
		s->b.metadata_size = bo->metadata_size;
		memcpy(s->b.metadata, bo->metadata, sizeof(s->b.metadata));
	}
	ksim_reg_unlock(reg);
}

void
ksim_reg_buf_load_metadata(struct ksim_device *dev, struct ksim_bo *bo)
{
	struct ksim_registry *reg = dev->reg;
	struct reg_bufslot *s;

	if (bo->reg_slot < 0 || ksim_reg_lock(reg))
		return;
	s = &reg->sh->bufs[bo->reg_slot];
	if (slot_matches(s, bo->st_dev, bo->st_ino)) {
		bo->tiling_flags = s->b.tiling_flags;
		bo->metadata_flags = s->b.metadata_flags;
		bo->metadata_size = s->b.metadata_size;
		memcpy(bo->metadata, s->b.metadata, sizeof(bo->metadata));
	}
	ksim_reg_unlock(reg);
}

/*
 * One free SDMA slot of @gpu (allocate_sdma_queue): the lowest id below
 * @total, on engine @want (id % @engines) unless @want < 0. Slots of
 * processes that died holding them are free again, as queue teardown at
 * process exit frees them in the kernel.
 */
int
ksim_reg_sdma_alloc(struct ksim_device *dev, int gpu, int xgmi, uint32_t total,
		    uint32_t engines, int want, uint32_t *id)
{
	struct ksim_registry *reg = dev->reg;
	int32_t *owner = reg->sh->sdma_owner[gpu][!!xgmi];
	pid_t self = ksim_self_pid();
	int r = -ENOMEM;

	if (total > 64)
		total = 64;
	if (ksim_reg_lock(reg))
		return -EIO;
	for (int pass = 0; pass < 2 && r; pass++) {
		for (uint32_t i = 0; i < total && r; i++) {
			if (want >= 0 && i % engines != (uint32_t)want)
				continue;
			if (pass && owner[i] && owner[i] != self &&
			    !ksim_sys_pid_alive(owner[i]))
				owner[i] = 0;
			if (!owner[i]) {
				owner[i] = self;
				*id = i;
				r = 0;
			}
		}
	}
	ksim_reg_unlock(reg);
	return r;
}

void
ksim_reg_sdma_free(struct ksim_device *dev, int gpu, int xgmi, uint32_t id)
{
	struct ksim_registry *reg = dev->reg;

	if (id >= 64 || ksim_reg_lock(reg))
		return;
	/* A fork child's copies of its parent's queues own nothing. */
	if (reg->sh->sdma_owner[gpu][!!xgmi][id] == ksim_self_pid())
		reg->sh->sdma_owner[gpu][!!xgmi][id] = 0;
	ksim_reg_unlock(reg);
}

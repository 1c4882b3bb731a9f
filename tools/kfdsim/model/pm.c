/* SPDX-License-Identifier: MIT */
/*
 * A system suspend of the simulated machine. On a real machine amdgpu's
 * suspend path calls kgd2kfd_suspend(): every KFD process's queues are
 * evicted (unmapped, their state saved, a compute dispatch's waves through
 * CWSR) and kgd2kfd_resume() maps them back; the processes keep their
 * events, memory and doorbells. A doorbell written meanwhile only moves a
 * write pointer, which the CP reads once the queue is mapped again.
 *
 * Here every process has its own engine thread (cp.c), so the suspend is
 * a word in the machine registry that the engines look at before each
 * pass, and a count of the engines in a pass in each process's slot. The
 * engine raises its count, then reads the word; the command sets the word,
 * then waits for every count to drop (both with full barriers): either the
 * engine sees the suspend, or the command sees it running and waits for
 * its pass to end. A pass ends at a packet boundary, so once the command
 * returns no engine of the machine runs a packet until the resume. The
 * word is a futex: a suspended engine with work announced sleeps on it,
 * and the resume wakes it; an idle engine blocks as it always does.
 */
#include <errno.h>
#include <limits.h>
#include <linux/futex.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "ksim_priv.h"
#include "registry_priv.h"

int
ksim_pm_pass_begin(struct ksim_process *p)
{
	struct reg_shared *sh = p->dev->reg->sh;
	uint32_t *busy;

	if (p->reg_slot < 0 || p->reg_slot >= REG_PROCS)
		return 0;
	busy = &sh->procs[p->reg_slot].cp_busy;
	__atomic_add_fetch(busy, 1, __ATOMIC_SEQ_CST);
	if (!__atomic_load_n(&sh->pm_suspended, __ATOMIC_SEQ_CST))
		return 0;
	__atomic_sub_fetch(busy, 1, __ATOMIC_SEQ_CST);
	return 1;
}

void
ksim_pm_pass_end(struct ksim_process *p)
{
	struct reg_shared *sh = p->dev->reg->sh;

	if (p->reg_slot < 0 || p->reg_slot >= REG_PROCS)
		return;
	__atomic_sub_fetch(&sh->procs[p->reg_slot].cp_busy, 1, __ATOMIC_SEQ_CST);
}

void
ksim_pm_wait(struct ksim_process *p, uint64_t ns)
{
	uint32_t *w = &p->dev->reg->sh->pm_suspended;
	struct timespec ts = {
		.tv_sec = (time_t)(ns / 1000000000ULL),
		.tv_nsec = (long)(ns % 1000000000ULL),
	};

	/* Not FUTEX_PRIVATE: the resume comes from another process. */
	if (__atomic_load_n(w, __ATOMIC_ACQUIRE))
		(void)syscall(SYS_futex, w, FUTEX_WAIT, 1, &ts, NULL, 0);
}

void
ksim_pm_vm_acquired(struct ksim_process *p, int gpu)
{
	struct ksim_registry *reg = p->dev->reg;
	struct reg_proc *rp;

	if (p->reg_slot < 0 || p->reg_slot >= REG_PROCS || gpu < 0 ||
	    gpu >= KSIM_MAX_GPUS || ksim_reg_lock(reg))
		return;
	rp = &reg->sh->procs[p->reg_slot];
	rp->pm_base_ns[gpu] = reg->sh->pm_evicted_ns;
	rp->pm_vm |= 1u << gpu;
	ksim_reg_unlock(reg);
}

static uint64_t
mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

/* Machine @id's registry, mapped, in @reg. */
static int
pm_open(const char *id, struct ksim_registry *reg)
{
	void *map;
	int fd;

	memset(reg, 0, sizeof(*reg));
	if (!id || ksim_machine_name_check(id))
		return -EINVAL;
	fd = ksim_machine_open(id, reg->path, sizeof(reg->path));
	if (fd < 0)
		return fd;
	map = (void *)syscall(SYS_mmap, NULL, sizeof(struct reg_shared),
			      PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (map == MAP_FAILED) {
		int r = -errno;

		ksim_sys_close(fd);
		return r;
	}
	reg->sh = map;
	reg->fd = fd;
	reg->shared = 1;
	return 0;
}

static void
pm_close(struct ksim_registry *reg)
{
	syscall(SYS_munmap, reg->sh, sizeof(struct reg_shared));
	ksim_sys_close(reg->fd);
}

/* Whether every engine of a live process has left its pass. */
static int
engines_stopped(const struct reg_shared *sh)
{
	for (unsigned int i = 0; i < REG_PROCS; i++) {
		const struct reg_proc *rp = &sh->procs[i];

		if (!__atomic_load_n(&rp->in_use, __ATOMIC_ACQUIRE) ||
		    !__atomic_load_n(&rp->cp_busy, __ATOMIC_SEQ_CST))
			continue;
		/* A process killed in a pass left its count behind. */
		if (ksim_proc_start_time(rp->pid) == rp->start)
			return 0;
	}
	return 1;
}

int
ksim_machine_suspend(const char *id, unsigned int wait_ms, unsigned int *procs)
{
	const struct timespec tick = { 0, 100000 };	/* 100 us */
	struct ksim_registry reg;
	struct timespec t0, t;
	unsigned int n = 0;
	int r;

	r = pm_open(id, &reg);
	if (r)
		return r;
	r = ksim_reg_lock(&reg);
	if (r) {
		pm_close(&reg);
		return r;
	}
	if (reg.sh->pm_suspended) {
		r = -EALREADY;
	} else {
		__atomic_store_n(&reg.sh->pm_suspended, 1, __ATOMIC_SEQ_CST);
		reg.sh->pm_count++;
		reg.sh->pm_since_ns = mono_ns();
	}
	for (unsigned int i = 0; i < REG_PROCS; i++)
		n += reg.sh->procs[i].in_use && reg.sh->procs[i].pid > 0;
	ksim_reg_unlock(&reg);
	if (procs)
		*procs = n;
	/* A pass ends within a dispatch's turn: short, but on a loaded host
	 * the engine may wait for a core. */
	clock_gettime(CLOCK_MONOTONIC, &t0);
	while (!r && !engines_stopped(reg.sh)) {
		clock_gettime(CLOCK_MONOTONIC, &t);
		if ((uint64_t)(t.tv_sec - t0.tv_sec) * 1000ULL +
		    (uint64_t)((t.tv_nsec - t0.tv_nsec) / 1000000L) >= wait_ms) {
			r = -ETIMEDOUT;
			break;
		}
		nanosleep(&tick, NULL);
	}
	pm_close(&reg);
	return r;
}

int
ksim_machine_resume(const char *id)
{
	struct ksim_registry reg;
	int r;

	r = pm_open(id, &reg);
	if (r)
		return r;
	r = ksim_reg_lock(&reg);
	if (r) {
		pm_close(&reg);
		return r;
	}
	if (!reg.sh->pm_suspended) {
		r = -EALREADY;
	} else {
		/* restore_process_queues adds the eviction's time to each
		 * acquired VM's evict_duration_counter */
		reg.sh->pm_evicted_ns += mono_ns() - reg.sh->pm_since_ns;
		__atomic_store_n(&reg.sh->pm_suspended, 0, __ATOMIC_SEQ_CST);
	}
	ksim_reg_unlock(&reg);
	if (!r)
		(void)syscall(SYS_futex, &reg.sh->pm_suspended, FUTEX_WAKE, INT_MAX,
			      NULL, NULL, 0);
	pm_close(&reg);
	return r;
}

/* SPDX-License-Identifier: MIT */
/*
 * RUNTIME_ENABLE and the 1.13 debugger (kfd_debug.c, kfd_chardev.c
 * kfd_ioctl_set_debug_trap). A process debugs itself or, as a debugger
 * does, a process of the machine whose ptrace parent it is. The target's
 * debugger state lives in its registry slot (struct ksim_pdbg), so the
 * debugger's ops reach it from another process; the events the debugger
 * polls for are written to its dbg_fd. Waves never run: the exceptions
 * are the queues' (new, errors) and the runtime's.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "debug_priv.h"
#include "registry_priv.h"

#define MAX_WATCH_ADDRESSES	KSIM_MAX_WATCH
#define TRAP_MASK_SUPPORTED	(0x1ffu | KFD_ABI_DBG_TRAP_MASK_TRAP_ON_WAVE_START | \
				 KFD_ABI_DBG_TRAP_MASK_TRAP_ON_WAVE_END)
/* How often a runtime blocked for its debugger looks again. */
#define RUNTIME_WAIT_NS		10000000L

/* A KFD process's state afresh (a slot's: under the registry lock). */
static void
pdbg_reset(struct ksim_pdbg *d)
{
	memset(d, 0, sizeof(*d));
	d->kfd = 1;
	d->ev_fd = -1;
	d->runtime_state = KFD_ABI_DEBUG_RUNTIME_STATE_DISABLED;
}

void
ksim_dbg_process_init(struct ksim_process *p)
{
	struct ksim_registry *reg = p->dev->reg;
	struct ksim_pdbg *d = ksim_reg_proc_dbg(reg, p->reg_slot);

	pdbg_reset(&p->dbg_own);
	p->dbg = &p->dbg_own;
	if (!d || ksim_reg_lock(reg))
		return;
	/* A debugger's ENABLE may have made the KFD process first
	 * (kfd_create_process on its ptrace child): its state stays. */
	if (!d->kfd)
		pdbg_reset(d);
	p->dbg = d;
	ksim_reg_unlock(reg);
}

struct ksim_qdbg *
dbg_queue(const struct dbg_target *t, uint32_t qid, int *gpu)
{
	if (t->self) {
		struct ksim_queue *q = qid < KSIM_MAX_QUEUES ? t->self->queues[qid] : NULL;

		if (!q)
			return NULL;
		*gpu = q->gpu;
		return q->dbg;
	}
	for (unsigned int i = 0; i < REG_PROC_QUEUES; i++) {
		struct reg_queue *rq = &t->rp->queues[i];

		if (rq->in_use && rq->id == qid && rq->gpu < t->dev->n_gpus) {
			*gpu = (int)rq->gpu;
			return &rq->dbg;
		}
	}
	return NULL;
}

/*
 * The kernel writes one byte to the file it took at ENABLE. The model
 * holds its number in the caller's table: in another process, it is
 * reopened through /proc/<pid>/fd/<n> (a pipe or FIFO), else taken with
 * pidfd_getfd() (a socket, which cannot be reopened; the host's ptrace
 * rules decide). A file neither way reaches is not written. Like the
 * kernel's, the one-byte write does nothing to an event fd.
 */
static int
debugger_file(const struct ksim_pdbg *d)
{
	char path[48];
	int fd, pidfd;

	snprintf(path, sizeof(path), "/proc/%d/fd/%d", (int)d->ev_pid, (int)d->ev_fd);
	fd = (int)syscall(SYS_openat, AT_FDCWD, path, O_WRONLY | O_NONBLOCK | O_CLOEXEC);
	if (fd >= 0)
		return fd;
	pidfd = (int)syscall(SYS_pidfd_open, d->ev_pid, 0);
	if (pidfd < 0)
		return -1;
	fd = (int)syscall(SYS_pidfd_getfd, pidfd, d->ev_fd, 0);
	ksim_sys_close(pidfd);
	return fd;
}

void
dbg_notify(struct ksim_pdbg *d)
{
	int fd;

	if (d->ev_fd < 0)
		return;
	if (d->ev_pid == ksim_self_pid()) {
		syscall(SYS_write, d->ev_fd, ".", 1);
		return;
	}
	fd = debugger_file(d);
	if (fd < 0)
		return;
	/* A full pipe already holds the news: nothing more to say. */
	syscall(SYS_write, fd, ".", 1);
	ksim_sys_close(fd);
}

/* Raise @mask on the process, a GPU (@gpu >= 0) or a queue (@q). */
static void
ev_raise(struct ksim_pdbg *d, struct ksim_qdbg *q, int gpu, uint64_t mask)
{
	if (!d->enabled)
		return;
	if (q)
		q->exception_status |= mask;
	else if (gpu >= 0)
		d->dev_status[gpu] |= mask;
	else
		d->exception_status |= mask;
	if (d->exception_mask & mask)
		dbg_notify(d);
}

/* A debugger that is not the target itself and has ended (kfd_process
 * release of the debugger disables its targets). */
static int
debugger_gone(const struct ksim_pdbg *d)
{
	return d->enabled && d->debugger &&
	       ksim_proc_start_time(d->debugger) != d->debugger_start;
}

/* kfd_dbg_trap_deactivate(): watch points, launch mode and precise
 * memory ops cleared, every queue resumed. */
static void
dbg_deactivate(const struct dbg_target *t)
{
	struct ksim_pdbg *d = t->d;

	memset(d->watch_ids, 0, sizeof(d->watch_ids));
	d->launch_mode = 0;
	d->flags = 0;
	for (uint32_t qid = 0; qid < KSIM_MAX_QUEUES; qid++) {
		int gpu;
		struct ksim_qdbg *q = dbg_queue(t, qid, &gpu);

		if (q)
			__atomic_store_n(&q->suspended, 0, __ATOMIC_RELEASE);
	}
}

void
dbg_trap_disable(const struct dbg_target *t)
{
	struct ksim_pdbg *d = t->d;

	if (d->runtime_state == KFD_ABI_DEBUG_RUNTIME_STATE_ENABLED)
		dbg_deactivate(t);
	else if (d->runtime_state != KFD_ABI_DEBUG_RUNTIME_STATE_DISABLED)
		d->runtime_state = KFD_ABI_DEBUG_RUNTIME_STATE_ENABLED;
	d->ev_fd = -1;
	d->ev_pid = 0;
	d->debugger = 0;
	d->debugger_start = 0;
	d->enabled = 0;
	/* kfd_dbg_clean_exception_status() */
	memset(d->dev_status, 0, sizeof(d->dev_status));
	d->exception_status = 0;
	for (uint32_t qid = 0; qid < KSIM_MAX_QUEUES; qid++) {
		int gpu;
		struct ksim_qdbg *q = dbg_queue(t, qid, &gpu);

		if (q)
			q->exception_status = 0;
	}
}

/* The target view of the caller's own process. */
static void
self_target(struct dbg_target *t, struct ksim_process *p)
{
	memset(t, 0, sizeof(*t));
	t->dev = p->dev;
	t->d = p->dbg;
	t->self = p;
}

/* The registry lock, when the process's state is its slot's. */
static int
dbg_lock(struct ksim_process *p)
{
	return p->dbg == &p->dbg_own ? 0 : ksim_reg_lock(p->dev->reg);
}

static void
dbg_unlock(struct ksim_process *p)
{
	if (p->dbg != &p->dbg_own)
		ksim_reg_unlock(p->dev->reg);
}

/* A debugger gone: its session ends as the kernel ends it at its exit. */
static void
reap_debugger(struct ksim_process *p)
{
	struct dbg_target t;

	self_target(&t, p);
	if (debugger_gone(p->dbg))
		dbg_trap_disable(&t);
}

void
ksim_dbg_reap_debugger(struct ksim_process *p)
{
	if (p->dbg == &p->dbg_own || dbg_lock(p))
		return;
	reap_debugger(p);
	dbg_unlock(p);
}

void
ksim_dbg_process_end(struct ksim_process *p)
{
	struct ksim_registry *reg = p->dev->reg;
	struct dbg_target t;

	if (p->dbg == &p->dbg_own || dbg_lock(p))
		return;
	/* Its own session ends with it, and so do those it debugs
	 * (kfd_process_notifier_release_internal). */
	self_target(&t, p);
	if (p->dbg->enabled && !p->dbg->debugger)
		dbg_trap_disable(&t);
	for (unsigned int i = 0; i < REG_PROCS; i++) {
		struct reg_proc *rp = &reg->sh->procs[i];

		if (!rp->in_use || !rp->dbg.enabled || rp->dbg.debugger != p->pid ||
		    rp->pid == p->pid)
			continue;
		memset(&t, 0, sizeof(t));
		t.dev = p->dev;
		t.d = &rp->dbg;
		t.rp = rp;
		dbg_trap_disable(&t);
	}
	dbg_unlock(p);
}

void
ksim_dbg_queue_new(struct ksim_process *p, struct ksim_queue *q)
{
	if (!q->dbg)
		q->dbg = &q->dbg_own;
	if (dbg_lock(p))
		return;
	q->dbg->exception_status = 0;
	q->dbg->suspended = 0;
	q->dbg->ring = q->ring;
	q->dbg->rptr = q->rptr;
	q->dbg->wptr = q->wptr;
	q->dbg->ctx = q->ctx;
	q->dbg->ctx_size = q->ctx_size;
	q->dbg->ring_size = q->ring_size;
	q->dbg->user_type = q->user_type;
	/* pqm_create_queue() tells a debugger of the new queue. */
	reap_debugger(p);
	ev_raise(p->dbg, q->dbg, -1, KFD_ABI_EC_MASK(KFD_ABI_EC_QUEUE_NEW));
	dbg_unlock(p);
}

void
ksim_dbg_queue_update(struct ksim_process *p, struct ksim_queue *q)
{
	if (dbg_lock(p))
		return;
	q->dbg->ring = q->ring;
	q->dbg->ring_size = q->ring_size;
	dbg_unlock(p);
}

int
ksim_dbg_queue_raise(struct ksim_process *p, struct ksim_queue *q, uint64_t mask)
{
	struct ksim_pdbg *d = p->dbg;
	int to_runtime;

	if (dbg_lock(p))
		return 0;
	/* The status is kept with no debugger too: the queue's error stays
	 * readable once one attaches. */
	if (!d->enabled)
		q->dbg->exception_status |= mask;
	ev_raise(d, q->dbg, -1, mask);
	/* kfd_set_dbg_ev_from_interrupt(): what no debugger takes goes to
	 * an enabled runtime (kfd_send_exception_to_runtime). */
	to_runtime = !(d->enabled && (d->exception_mask & mask)) &&
		     d->runtime_state == KFD_ABI_DEBUG_RUNTIME_STATE_ENABLED;
	dbg_unlock(p);
	return to_runtime;
}

int
ksim_dbg_vm_fault(struct ksim_process *p, int gpu,
		  const struct kfd_abi_hsa_memory_exception_data *data)
{
	uint64_t bit = KFD_ABI_EC_MASK(KFD_ABI_EC_DEVICE_MEMORY_VIOLATION);
	struct ksim_pdbg *d = p->dbg;
	int taken = 0;

	if (dbg_lock(p))
		return 0;
	reap_debugger(p);
	if (d->enabled) {
		if (!(d->vm_fault_saved & (1u << gpu))) {
			d->vm_fault[gpu] = *data;
			d->vm_fault_saved |= 1u << gpu;
		}
		taken = !!(d->exception_mask & bit);
		ev_raise(d, NULL, gpu, bit);
	}
	dbg_unlock(p);
	return taken;
}

int
ksim_dbg_queue_suspended(const struct ksim_queue *q)
{
	return __atomic_load_n(&q->dbg->suspended, __ATOMIC_ACQUIRE) != 0;
}

/*
 * kfd_dbg_runtime_enable/disable(): with a debugger attached, the process
 * raises EC_PROCESS_RUNTIME and waits until the debugger answers with
 * SEND_RUNTIME_EVENT, its device lock dropped meanwhile. A debugger that
 * detaches or ends lets it go.
 */
static int
runtime_wait(struct ksim_process *p)
{
	struct ksim_pdbg *d = p->dbg;

	for (;;) {
		struct timespec dl;
		int go = 0;

		if (dbg_lock(p))
			return -EIO;
		reap_debugger(p);
		if (!d->enabled) {
			go = 1;
		} else if (d->runtime_sema) {
			d->runtime_sema--;
			go = 1;
		}
		dbg_unlock(p);
		if (go)
			return 0;
		clock_gettime(CLOCK_MONOTONIC, &dl);
		dl.tv_nsec += RUNTIME_WAIT_NS;
		if (dl.tv_nsec >= 1000000000L) {
			dl.tv_sec++;
			dl.tv_nsec -= 1000000000L;
		}
		pthread_cond_timedwait(&p->event_cond, &p->dev->lock, &dl);
	}
}

int
ksim_ioc_runtime_enable(struct ksim_file *f, struct ksim_process *p,
			void *data, unsigned int usize)
{
	struct kfd_abi_runtime_enable_args *args = data;
	struct ksim_pdbg *d = p->dbg;
	int r = 0, wait = 0;

	if (dbg_lock(p))
		return -EIO;
	reap_debugger(p);
	if (!(args->mode_mask & KFD_ABI_RUNTIME_ENABLE_MODE_ENABLE_MASK)) {
		int was = d->runtime_state == KFD_ABI_DEBUG_RUNTIME_STATE_ENABLED;
		struct dbg_target t;

		d->runtime_state = KFD_ABI_DEBUG_RUNTIME_STATE_DISABLED;
		d->r_debug = 0;
		if (d->enabled) {
			if (was) {
				self_target(&t, p);
				dbg_deactivate(&t);
			}
			ev_raise(d, NULL, -1, KFD_ABI_EC_MASK(KFD_ABI_EC_PROCESS_RUNTIME));
			wait = 1;
		}
		d->ttmp_setup = 0;
	} else if (d->runtime_state != KFD_ABI_DEBUG_RUNTIME_STATE_DISABLED) {
		r = -EBUSY;
	} else if (ksim_queue_count(p)) {
		r = -EEXIST;
	} else {
		d->runtime_state = KFD_ABI_DEBUG_RUNTIME_STATE_ENABLED;
		d->r_debug = args->r_debug;
		d->ttmp_setup = (args->mode_mask &
				 KFD_ABI_RUNTIME_ENABLE_MODE_TTMP_SAVE_MASK) != 0;
		if (d->enabled) {
			ev_raise(d, NULL, -1, KFD_ABI_EC_MASK(KFD_ABI_EC_PROCESS_RUNTIME));
			wait = 1;
		}
	}
	dbg_unlock(p);
	/* No machine, no other process: no debugger to answer. */
	return wait && d != &p->dbg_own ? runtime_wait(p) : r;
}

static int
needs_runtime(uint32_t op)
{
	switch (op) {
	case KFD_ABI_DBG_TRAP_SET_WAVE_LAUNCH_OVERRIDE:
	case KFD_ABI_DBG_TRAP_SET_WAVE_LAUNCH_MODE:
	case KFD_ABI_DBG_TRAP_SUSPEND_QUEUES:
	case KFD_ABI_DBG_TRAP_RESUME_QUEUES:
	case KFD_ABI_DBG_TRAP_SET_NODE_ADDRESS_WATCH:
	case KFD_ABI_DBG_TRAP_CLEAR_NODE_ADDRESS_WATCH:
	case KFD_ABI_DBG_TRAP_SET_FLAGS:
		return 1;
	}
	return 0;
}

/* TracerPid of /proc/<pid>/status: its ptrace parent's thread id, or 0. */
static pid_t
tracer_of(pid_t pid)
{
	char buf[2048], *s;

	if (ksim_sys_read_proc(pid, "status", buf, sizeof(buf)) < 0)
		return 0;
	s = strstr(buf, "\nTracerPid:");
	return s ? (pid_t)strtol(s + 11, NULL, 10) : 0;
}

/*
 * Find the KFD process of @pid, another process (registry lock held).
 * ENABLE by its ptrace parent makes one (kfd_create_process), which the
 * process finds when it opens /dev/kfd. Return: 0 or -ESRCH, -EPERM,
 * -ENOMEM, in the kernel's order.
 */
static int
other_target(struct dbg_target *t, struct ksim_file *f, pid_t pid, uint32_t op)
{
	struct ksim_registry *reg = f->dev->reg;
	uint64_t start = ksim_proc_start_time(pid);
	pid_t tracer = tracer_of(pid), me = (pid_t)syscall(SYS_gettid);
	struct reg_proc *rp = NULL;

	if (!start)
		return -ESRCH;
	for (unsigned int i = 0; i < REG_PROCS; i++) {
		struct reg_proc *r = &reg->sh->procs[i];

		if (r->in_use && r->pid == pid && r->start == start && r->dbg.kfd)
			rp = r;
	}
	if (!rp && op == KFD_ABI_DBG_TRAP_ENABLE && tracer == me) {
		int slot = reg_proc_slot_locked(reg, pid, start);

		if (slot < 0)
			return -ENOMEM;
		rp = &reg->sh->procs[slot];
		pdbg_reset(&rp->dbg);
	}
	if (!rp)
		return -ESRCH;
	if (op != KFD_ABI_DBG_TRAP_DISABLE && tracer != me)
		return -EPERM;
	memset(t, 0, sizeof(*t));
	t->dev = f->dev;
	t->d = &rp->dbg;
	t->rp = rp;
	return 0;
}

static int
trap_enable(const struct dbg_target *t, struct ksim_process *p,
	    struct kfd_abi_dbg_trap_enable_args *a)
{
	struct ksim_pdbg *d = t->d;
	struct kfd_abi_runtime_info ri;
	uint32_t n;

	if (d->enabled)
		return -EINVAL;
	for (unsigned int i = 0; i < t->dev->n_gpus; i++)
		if (!t->dev->gpus[i].g->soc15)
			return -ENODEV;
	n = a->rinfo_size < sizeof(ri) ? a->rinfo_size : (uint32_t)sizeof(ri);
	/* fget(): the fd is the caller's. */
	if (syscall(SYS_fcntl, (int)a->dbg_fd, F_GETFD) < 0)
		return -EBADF;
	d->ev_fd = (int32_t)a->dbg_fd;
	d->ev_pid = p->pid;
	d->enabled = 1;
	if (!t->self) {
		d->debugger = p->pid;
		d->debugger_start = ksim_proc_start_time(p->pid);
	}
	memset(&ri, 0, sizeof(ri));
	ri.r_debug = d->r_debug;
	ri.runtime_state = d->runtime_state;
	ri.ttmp_setup = d->ttmp_setup;
	a->rinfo_size = sizeof(ri);
	/* A failed copy deactivates; the session stays, as in the kernel. */
	if (ksim_copy_to_user(a->rinfo_ptr, &ri, n)) {
		dbg_deactivate(t);
		return -EFAULT;
	}
	d->exception_mask = a->exception_mask;
	return 0;
}

static int
send_runtime_event(const struct dbg_target *t,
		   struct kfd_abi_dbg_trap_send_runtime_event_args *a)
{
	uint64_t mask = a->exception_mask;
	int gpu;

	if (mask & KFD_ABI_EC_MASK(KFD_ABI_EC_DEVICE_MEMORY_VIOLATION)) {
		if (ksim_gpu_index(t->dev, a->gpu_id) < 0)
			return -ENODEV;
		mask &= ~KFD_ABI_EC_MASK(KFD_ABI_EC_DEVICE_MEMORY_VIOLATION);
	}
	if (mask & KFD_ABI_EC_MASK(KFD_ABI_EC_PROCESS_RUNTIME)) {
		/* up(&runtime_enable_sema): the runtime waiting goes on. */
		t->d->runtime_sema++;
		mask &= ~KFD_ABI_EC_MASK(KFD_ABI_EC_PROCESS_RUNTIME);
	}
	if (!mask)
		return 0;
	if (ksim_gpu_index(t->dev, a->gpu_id) < 0)
		return -ENODEV;
	if (!dbg_queue(t, a->queue_id, &gpu) ||
	    t->dev->gpus[gpu].gpu_id != a->gpu_id)
		return -EINVAL;
	return 0;
}

static int
trap_op(const struct dbg_target *t, struct ksim_process *p,
	struct kfd_abi_dbg_trap_args *args, int gpu)
{
	struct ksim_pdbg *d = t->d;

	switch (args->op) {
	case KFD_ABI_DBG_TRAP_ENABLE:
		return trap_enable(t, p, &args->enable);
	case KFD_ABI_DBG_TRAP_DISABLE:
		dbg_trap_disable(t);
		return 0;
	case KFD_ABI_DBG_TRAP_SEND_RUNTIME_EVENT:
		return send_runtime_event(t, &args->send_runtime_event);
	case KFD_ABI_DBG_TRAP_SET_EXCEPTIONS_ENABLED:
		dbg_set_exceptions_enabled(t, args->set_exceptions_enabled.exception_mask);
		return 0;
	case KFD_ABI_DBG_TRAP_SET_WAVE_LAUNCH_OVERRIDE: {
		struct kfd_abi_dbg_trap_set_wave_launch_override_args *a = &args->launch_override;
		uint32_t prev = d->launch_enable_mask;

		if (a->override_mode > KFD_ABI_DBG_TRAP_OVERRIDE_REPLACE)
			return -EINVAL;
		if (a->support_request_mask & ~TRAP_MASK_SUPPORTED) {
			a->support_request_mask = TRAP_MASK_SUPPORTED;
			return -EACCES;
		}
		d->launch_override_mode = a->override_mode;
		if (a->override_mode == KFD_ABI_DBG_TRAP_OVERRIDE_OR)
			d->launch_enable_mask |= a->enable_mask & a->support_request_mask;
		else
			d->launch_enable_mask = (d->launch_enable_mask &
						 ~a->support_request_mask) |
						(a->enable_mask & a->support_request_mask);
		a->enable_mask = prev;
		a->support_request_mask = TRAP_MASK_SUPPORTED;
		return 0;
	}
	case KFD_ABI_DBG_TRAP_SET_WAVE_LAUNCH_MODE:
		if (args->launch_mode.launch_mode != KFD_ABI_DBG_TRAP_WAVE_LAUNCH_MODE_NORMAL &&
		    args->launch_mode.launch_mode != KFD_ABI_DBG_TRAP_WAVE_LAUNCH_MODE_HALT &&
		    args->launch_mode.launch_mode != KFD_ABI_DBG_TRAP_WAVE_LAUNCH_MODE_DEBUG)
			return -EINVAL;
		d->launch_mode = args->launch_mode.launch_mode;
		return 0;
	case KFD_ABI_DBG_TRAP_SUSPEND_QUEUES:
		return dbg_queues_op(t, args->suspend_queues.queue_array_ptr,
				     args->suspend_queues.num_queues,
				     args->suspend_queues.exception_mask, 1);
	case KFD_ABI_DBG_TRAP_RESUME_QUEUES:
		return dbg_queues_op(t, args->resume_queues.queue_array_ptr,
				     args->resume_queues.num_queues, 0, 0);
	case KFD_ABI_DBG_TRAP_SET_NODE_ADDRESS_WATCH: {
		uint32_t id;

		if (args->set_node_address_watch.mode > KFD_ABI_DBG_TRAP_ADDRESS_WATCH_MODE_ALL)
			return -EINVAL;
		for (id = 0; id < MAX_WATCH_ADDRESSES; id++)
			if (!(d->watch_ids[gpu] & (1u << id)))
				break;
		if (id == MAX_WATCH_ADDRESSES)
			return -ENOMEM;
		d->watch_ids[gpu] |= 1u << id;
		d->watch[gpu][id].addr = args->set_node_address_watch.address;
		d->watch[gpu][id].mask = args->set_node_address_watch.mask;
		d->watch[gpu][id].mode = args->set_node_address_watch.mode;
		args->set_node_address_watch.id = id;
		return 0;
	}
	case KFD_ABI_DBG_TRAP_CLEAR_NODE_ADDRESS_WATCH: {
		uint32_t id = args->clear_node_address_watch.id;

		if (id >= MAX_WATCH_ADDRESSES || !(d->watch_ids[gpu] & (1u << id)))
			return -EINVAL;
		d->watch_ids[gpu] &= ~(1u << id);
		return 0;
	}
	case KFD_ABI_DBG_TRAP_SET_FLAGS:
		return dbg_set_flags(t, &args->set_flags.flags);
	case KFD_ABI_DBG_TRAP_QUERY_DEBUG_EVENT:
		return dbg_query_debug_event(t, &args->query_debug_event);
	case KFD_ABI_DBG_TRAP_QUERY_EXCEPTION_INFO:
		return dbg_query_exception_info(t, &args->query_exception_info);
	case KFD_ABI_DBG_TRAP_GET_QUEUE_SNAPSHOT:
		return dbg_queue_snapshot(t, &args->queue_snapshot);
	case KFD_ABI_DBG_TRAP_GET_DEVICE_SNAPSHOT:
		return dbg_device_snapshot(t, &args->device_snapshot);
	default:
		return -EINVAL;
	}
}

int
ksim_ioc_dbg_trap(struct ksim_file *f, struct ksim_process *p, void *data,
		  unsigned int usize)
{
	struct kfd_abi_dbg_trap_args *args = data;
	struct ksim_device *dev = f->dev;
	struct dbg_target t;
	pid_t pid = (pid_t)args->pid;
	int r, gpu = -1;

	for (unsigned int i = 0; i < dev->n_gpus; i++)
		if (dev->gpus[i].g->sched_policy == 2)
			return -EINVAL;
	if (pid <= 0 || !ksim_sys_pid_alive(pid))
		return -ESRCH;
	if (dbg_lock(p))
		return -EIO;
	if (pid == p->pid) {
		self_target(&t, p);
		r = 0;
	} else if (p->dbg == &p->dbg_own) {
		r = -ESRCH;		/* no machine: no other process */
	} else {
		r = other_target(&t, f, pid, args->op);
	}
	if (r)
		goto out;
	if (debugger_gone(t.d))
		dbg_trap_disable(&t);
	r = -EINVAL;
	if (args->op != KFD_ABI_DBG_TRAP_ENABLE && !t.d->enabled)
		goto out;
	r = -EPERM;
	if (t.d->runtime_state != KFD_ABI_DEBUG_RUNTIME_STATE_ENABLED &&
	    needs_runtime(args->op))
		goto out;
	if (args->op == KFD_ABI_DBG_TRAP_SET_NODE_ADDRESS_WATCH ||
	    args->op == KFD_ABI_DBG_TRAP_CLEAR_NODE_ADDRESS_WATCH) {
		gpu = ksim_gpu_index(dev, args->op == KFD_ABI_DBG_TRAP_SET_NODE_ADDRESS_WATCH ?
				    args->set_node_address_watch.gpu_id :
				    args->clear_node_address_watch.gpu_id);
		r = -ENODEV;
		if (gpu < 0)
			goto out;
	}
	r = trap_op(&t, p, args, gpu);
out:
	dbg_unlock(p);
	return r;
}

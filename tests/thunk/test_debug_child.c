/* SPDX-License-Identifier: MIT */
/*
 * A debugger and its ptrace child on one simulated machine, as rocgdb and
 * kfdtest's debugger tests drive amdkfd: the parent forks a child that
 * asks to be traced, enables debugging on the child's pid through its own
 * /dev/kfd before the child has a KFD process, answers the child's
 * runtime enable, sees the child's new queue and its queue error on the
 * event pipe, snapshots, suspends and resumes the queue, and detaches.
 * Callers the kernel refuses: a process not traced by the caller (EPERM),
 * one with no KFD process or a dead one (ESRCH). A GPU memory fault of
 * the child, which the debugger takes: EC_DEVICE_MEMORY_VIOLATION and its
 * memory exception data.
 *
 * The parent's ops go through our thunk (hsaKmtDebugTrapIoctl); a few go
 * by raw ioctl on a /dev/kfd of its own. The debugged children enable
 * their runtime through our thunk too (hsaKmtRuntimeEnable, which blocks
 * until the parent answers). Run under `kfdtrace sim` (or
 * record), which puts both processes on one machine.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/ptrace.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "hsakmt/hsakmt.h"

#include <kfdtrace/kfd_abi.h>

#define EVENT_WAIT_MS	20000
#define R_DEBUG		0x5eed0000ull
#define AQL_PACKET	64
#define BAD_VA		0x12345678ull	/* below every aperture: unmapped */

/* What the child tells the parent about its queue. */
struct child_queue {
	uint32_t qid;
	uint32_t pad;
	uint64_t ring;
	uint64_t ring_size;
};

static int to_child[2], from_child[2], ev[2];
/* Off for a run that is replayed: the trace has no packets to fail. */
static bool queue_error = true;

static void
put(int fd, const void *p, size_t n)
{
	if (write(fd, p, n) != (ssize_t)n)
		_exit(90);
}

static int
get(int fd, void *p, size_t n)
{
	size_t got = 0;

	while (got < n) {
		ssize_t r = read(fd, (char *)p + got, n - got);

		if (r <= 0)
			return -1;
		got += (size_t)r;
	}
	return 0;
}

/* The child's exit code names the step that failed. */
static void
child_check(bool ok, int code)
{
	if (!ok)
		_exit(code);
}

/* A dispatch with no kernel object: the CP stops the queue with an error. */
static void
child_bad_dispatch(uint8_t *ring, uint64_t *wptr, HSAuint64 doorbell)
{
	uint8_t pkt[AQL_PACKET];
	uint16_t header = 2;	/* HSA_PACKET_TYPE_KERNEL_DISPATCH */
	uint16_t setup = 1;	/* one dimension */

	memset(pkt, 0, sizeof(pkt));
	memcpy(pkt + 2, &setup, 2);
	pkt[4] = 1;		/* workgroup_size_x */
	pkt[12] = 1;		/* grid_size_x */
	memcpy(ring + 2, pkt + 2, AQL_PACKET - 2);
	__atomic_store_n((uint16_t *)ring, header, __ATOMIC_RELEASE);
	__atomic_store_n(wptr, 1, __ATOMIC_RELEASE);
	__atomic_store_n((uint64_t *)(uintptr_t)doorbell, 0, __ATOMIC_RELEASE);
}

/* The child's AQL queue on the first GPU, through the thunk. */
static void
child_queue(void **ring, HSAuint64 **ptrs, HsaQueueResource *res)
{
	HsaMemFlags flags = { 0 };
	HsaSystemProperties sp;
	HsaNodeProperties np;
	HSAuint32 node = 0;
	HSAuint64 va;
	HSAKMT_STATUS st = hsaKmtOpenKFD();

	/* child_begin() may have opened it already. */
	child_check(st == HSAKMT_STATUS_SUCCESS || st == HSAKMT_STATUS_KERNEL_ALREADY_OPENED, 14);
	child_check(hsaKmtAcquireSystemProperties(&sp) == HSAKMT_STATUS_SUCCESS, 15);
	for (HSAuint32 i = 0; i < sp.NumNodes && !node; i++)
		if (hsaKmtGetNodeProperties(i, &np) == HSAKMT_STATUS_SUCCESS &&
		    np.NumFComputeCores)
			node = i;
	child_check(node != 0, 16);
	flags.ui32.NonPaged = 1;
	flags.ui32.HostAccess = 1;
	flags.ui32.ExecuteAccess = 1;
	child_check(hsaKmtAllocMemory(0, 4096, flags, ring) == HSAKMT_STATUS_SUCCESS &&
		    hsaKmtMapMemoryToGPUNodes(*ring, 4096, &va, (HsaMemMapFlags){ 0 }, 1,
					      &node) == HSAKMT_STATUS_SUCCESS, 17);
	child_check(hsaKmtAllocMemory(0, 4096, flags, (void **)ptrs) == HSAKMT_STATUS_SUCCESS &&
		    hsaKmtMapMemoryToGPUNodes(*ptrs, 4096, &va, (HsaMemMapFlags){ 0 }, 1,
					      &node) == HSAKMT_STATUS_SUCCESS, 18);
	memset(*ring, 0, 4096);
	memset(*ptrs, 0, 4096);
	memset(res, 0, sizeof(*res));
	res->QueueRptrValue = (uintptr_t)&(*ptrs)[0];
	res->QueueWptrValue = (uintptr_t)&(*ptrs)[1];
	child_check(hsaKmtCreateQueue(node, HSA_QUEUE_COMPUTE_AQL, 100, HSA_QUEUE_PRIORITY_NORMAL,
				      *ring, 4096, NULL, res) == HSAKMT_STATUS_SUCCESS, 19);
}

/* A barrier-AND packet with nothing to wait for: it retires at once. */
static void
child_barrier(uint8_t *ring, uint64_t *wptr, HSAuint64 doorbell)
{
	memset(ring + 2, 0, AQL_PACKET - 2);
	__atomic_store_n((uint16_t *)ring, 3, __ATOMIC_RELEASE);
	__atomic_store_n(wptr, 1, __ATOMIC_RELEASE);
	__atomic_store_n((uint64_t *)(uintptr_t)doorbell, 0, __ATOMIC_RELEASE);
}

/* A barrier-AND waiting on a signal at an unmapped address: a VM fault. */
static void
child_fault(uint8_t *ring, uint64_t *wptr, HSAuint64 doorbell)
{
	uint64_t dep = BAD_VA;

	memset(ring + 2, 0, AQL_PACKET - 2);
	memcpy(ring + 8, &dep, 8);
	__atomic_store_n((uint16_t *)ring, 3, __ATOMIC_RELEASE);
	__atomic_store_n(wptr, 1, __ATOMIC_RELEASE);
	__atomic_store_n((uint64_t *)(uintptr_t)doorbell, 0, __ATOMIC_RELEASE);
}

/*
 * The start of a debugged child: PTRACE_TRACEME, the debugger told and
 * waited for (it attaches), then the thunk's hsaKmtOpenKFD and
 * hsaKmtRuntimeEnable (RUNTIME_ENABLE), which waits for the debugger's
 * answer. Exit codes @code to @code + 3 name the step that failed.
 */
static void
child_begin(int code)
{
	char c;

	close(to_child[1]);
	close(from_child[0]);
	close(ev[0]);
	close(ev[1]);
	child_check(ptrace(PTRACE_TRACEME, 0, NULL, NULL) == 0, code);
	put(from_child[1], "t", 1);
	child_check(get(to_child[0], &c, 1) == 0, code + 1);
	child_check(hsaKmtOpenKFD() == HSAKMT_STATUS_SUCCESS, code + 2);
	child_check(hsaKmtRuntimeEnable((void *)(uintptr_t)R_DEBUG, false) ==
		    HSAKMT_STATUS_SUCCESS, code + 3);
}

/*
 * The traced child of test_memory_violation(): a queue, then on 'f' a
 * packet that faults; a MEMORY event, which the debugger's taking the
 * fault leaves unset; on 'x' it ends.
 */
static void
child_fault_main(void)
{
	HsaEventDescriptor ed = { 0 };
	HsaEvent *mem_ev = NULL;
	HsaQueueResource res;
	struct child_queue cq;
	HSAuint64 *ptrs = NULL;
	void *ring = NULL;
	char c;

	child_begin(50);
	child_queue(&ring, &ptrs, &res);
	ed.EventType = HSA_EVENTTYPE_MEMORY;
	child_check(hsaKmtCreateEvent(&ed, true, false, &mem_ev) == HSAKMT_STATUS_SUCCESS, 54);
	child_check(hsaKmtGetKernelQueueId(res.QueueId, &cq.qid) == HSAKMT_STATUS_SUCCESS, 55);
	cq.ring = (uintptr_t)ring;
	cq.ring_size = 4096;
	put(from_child[1], &cq, sizeof(cq));
	child_check(get(to_child[0], &c, 1) == 0 && c == 'f', 56);
	child_fault(ring, &ptrs[1], res.QueueDoorBell);
	child_check(get(to_child[0], &c, 1) == 0, 57);
	/* The debugger took the fault: no MEMORY event. */
	child_check(hsaKmtWaitOnEvent(mem_ev, 0) == HSAKMT_STATUS_WAIT_TIMEOUT, 58);
	hsaKmtDestroyEvent(mem_ev);
	hsaKmtCloseKFD();
	_exit(0);
}

static void
child_main(void)
{
	HsaQueueResource res;
	struct child_queue cq;
	HSAuint64 *ptrs = NULL;
	void *ring = NULL;
	char c;

	child_begin(10);

	child_queue(&ring, &ptrs, &res);
	child_check(hsaKmtGetKernelQueueId(res.QueueId, &cq.qid) == HSAKMT_STATUS_SUCCESS, 20);
	cq.ring = (uintptr_t)ring;
	cq.ring_size = 4096;
	put(from_child[1], &cq, sizeof(cq));

	/* Once the debugger has looked at the new queue: an error on it. */
	child_check(get(to_child[0], &c, 1) == 0, 21);
	if (c == 'e')
		child_bad_dispatch(ring, &ptrs[1], res.QueueDoorBell);

	/* Until the debugger has detached. */
	child_check(get(to_child[0], &c, 1) == 0, 22);
	child_check(hsaKmtDestroyQueue(res.QueueId) == HSAKMT_STATUS_SUCCESS, 23);
	hsaKmtCloseKFD();
	_exit(0);
}

/* DBG_TRAP @op on @pid through the thunk: the result, or -errno. */
static int64_t
trap(pid_t pid, uint32_t op, struct kfd_abi_dbg_trap_args *a)
{
	HSAuint64 ret = 0;
	HSAKMT_STATUS st;

	a->pid = (uint32_t)pid;
	a->op = op;
	errno = 0;
	st = hsaKmtDebugTrapIoctl((struct kfd_ioctl_dbg_trap_args *)a, NULL, &ret);
	if (st != HSAKMT_STATUS_SUCCESS)
		return errno ? -errno : -1;
	return (int64_t)ret;
}

/* The same by raw ioctl on @kfd. */
static int64_t
trap_raw(int kfd, pid_t pid, uint32_t op, struct kfd_abi_dbg_trap_args *a)
{
	int r;

	a->pid = (uint32_t)pid;
	a->op = op;
	r = ioctl(kfd, KFD_ABI_IOC_DBG_TRAP, a);
	return r < 0 ? -errno : r;
}

/* Wait for the debugger's event pipe; drain it. */
static void
wait_event(void)
{
	struct pollfd pfd = { .fd = ev[0], .events = POLLIN };
	char buf[64];

	assert_int_equal(poll(&pfd, 1, EVENT_WAIT_MS), 1);
	while (read(ev[0], buf, sizeof(buf)) > 0)
		;
}

/* A process of the machine that is not our tracee: its KFD process exists. */
static pid_t
spawn_untraced(int *ready, int *release)
{
	int up[2], down[2];
	pid_t pid;

	assert_int_equal(pipe(up), 0);
	assert_int_equal(pipe(down), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		int kfd = open("/dev/kfd", O_RDWR | O_CLOEXEC);
		char c;

		/* The parent's end ends with it: no wait for good. */
		close(down[1]);
		put(up[1], kfd >= 0 ? "k" : "x", 1);
		(void)!read(down[0], &c, 1);
		_exit(0);
	}
	close(up[1]);
	close(down[0]);
	*ready = up[0];
	*release = down[1];
	return pid;
}

/* The CP's error on the child's queue, announced and queried. */
static void
check_queue_error(pid_t child, uint32_t qid)
{
	struct kfd_abi_dbg_trap_args a;

	wait_event();
	memset(&a, 0, sizeof(a));
	assert_int_equal(trap(child, KFD_ABI_DBG_TRAP_QUERY_DEBUG_EVENT, &a), 0);
	assert_int_equal(a.query_debug_event.queue_id, qid);
	assert_true(a.query_debug_event.exception_mask &
		    KFD_ABI_EC_MASK(KFD_ABI_EC_QUEUE_PACKET_DISPATCH_CODE_INVALID));
	/* Still pending: enabling it again announces it at once. */
	memset(&a, 0, sizeof(a));
	a.set_exceptions_enabled.exception_mask =
		KFD_ABI_EC_MASK(KFD_ABI_EC_QUEUE_PACKET_DISPATCH_CODE_INVALID);
	assert_int_equal(trap(child, KFD_ABI_DBG_TRAP_SET_EXCEPTIONS_ENABLED, &a), 0);
	wait_event();
	memset(&a, 0, sizeof(a));
	a.query_debug_event.exception_mask = ~0ull;
	assert_int_equal(trap(child, KFD_ABI_DBG_TRAP_QUERY_DEBUG_EVENT, &a), 0);
	memset(&a, 0, sizeof(a));
	assert_int_equal(trap(child, KFD_ABI_DBG_TRAP_QUERY_DEBUG_EVENT, &a), -EAGAIN);
}

/*
 * The pipes to and from a debugged child, the child forked to run @main_fn,
 * and its first word: it has called PTRACE_TRACEME. Return: its pid.
 */
static pid_t
fork_debugged(void (*main_fn)(void))
{
	pid_t child;
	char c;

	assert_int_equal(pipe(to_child), 0);
	assert_int_equal(pipe(from_child), 0);
	assert_int_equal(pipe2(ev, O_NONBLOCK | O_CLOEXEC), 0);
	child = fork();
	assert_true(child >= 0);
	if (child == 0)
		main_fn();
	close(to_child[0]);
	close(from_child[1]);
	assert_int_equal(get(from_child[0], &c, 1), 0);
	return child;
}

static void
test_debug_child(void **state)
{
	struct kfd_abi_dbg_trap_args a;
	struct kfd_abi_runtime_info ri;
	struct kfd_abi_queue_snapshot_entry qs[2];
	struct kfd_abi_dbg_device_info_entry ds[16];
	struct child_queue cq;
	uint32_t ids[1], gpu_id;
	int status, kfd, ready, release;
	pid_t child, other;
	char c;

	child = fork_debugged(child_main);

	assert_int_equal(hsaKmtOpenKFD(), HSAKMT_STATUS_SUCCESS);
	kfd = open("/dev/kfd", O_RDWR | O_CLOEXEC);
	assert_true(kfd >= 0);

	/* No KFD process yet: only ENABLE (by the tracer) makes one. */
	memset(&a, 0, sizeof(a));
	assert_int_equal(trap(child, KFD_ABI_DBG_TRAP_SET_EXCEPTIONS_ENABLED, &a), -ESRCH);
	/* ENABLE on our tracee makes its KFD process; the runtime is off. */
	memset(&a, 0, sizeof(a));
	memset(&ri, 0xff, sizeof(ri));
	a.enable.exception_mask = KFD_ABI_EC_MASK(KFD_ABI_EC_QUEUE_NEW) |
				  KFD_ABI_EC_MASK(KFD_ABI_EC_PROCESS_RUNTIME) |
				  KFD_ABI_EC_MASK(KFD_ABI_EC_QUEUE_PACKET_DISPATCH_CODE_INVALID);
	a.enable.rinfo_ptr = (uintptr_t)&ri;
	a.enable.rinfo_size = sizeof(ri);
	a.enable.dbg_fd = (uint32_t)ev[1];
	assert_int_equal(trap(child, KFD_ABI_DBG_TRAP_ENABLE, &a), 0);
	assert_int_equal(a.enable.rinfo_size, sizeof(ri));
	assert_int_equal(ri.runtime_state, KFD_ABI_DEBUG_RUNTIME_STATE_DISABLED);
	assert_int_equal(ri.r_debug, 0);
	/* The devices the child's process has: every GPU of the machine. */
	memset(&a, 0, sizeof(a));
	a.device_snapshot.snapshot_buf_ptr = (uintptr_t)ds;
	a.device_snapshot.num_devices = 16;
	a.device_snapshot.entry_size = sizeof(ds[0]);
	assert_int_equal(trap(child, KFD_ABI_DBG_TRAP_GET_DEVICE_SNAPSHOT, &a), 0);
	assert_int_equal(a.device_snapshot.num_devices, 1);
	assert_true(ds[0].gpu_id != 0);
	gpu_id = ds[0].gpu_id;
	/* Enabled already: EINVAL. */
	assert_int_equal(trap(child, KFD_ABI_DBG_TRAP_ENABLE, &a), -EINVAL);
	/* Hardware ops need the target's runtime. */
	memset(&a, 0, sizeof(a));
	a.launch_mode.launch_mode = KFD_ABI_DBG_TRAP_WAVE_LAUNCH_MODE_HALT;
	assert_int_equal(trap(child, KFD_ABI_DBG_TRAP_SET_WAVE_LAUNCH_MODE, &a), -EPERM);

	/* The child enables its runtime and waits for us. */
	put(to_child[1], "g", 1);
	wait_event();
	memset(&a, 0, sizeof(a));
	assert_int_equal(trap_raw(kfd, child, KFD_ABI_DBG_TRAP_QUERY_DEBUG_EVENT, &a), 0);
	assert_int_equal(a.query_debug_event.exception_mask,
			 KFD_ABI_EC_MASK(KFD_ABI_EC_PROCESS_RUNTIME));
	assert_int_equal(a.query_debug_event.queue_id, 0);
	assert_int_equal(a.query_debug_event.gpu_id, 0);
	/* Its info is the runtime's; asked to, the query clears it. */
	memset(&a, 0, sizeof(a));
	memset(&ri, 0, sizeof(ri));
	a.query_exception_info.info_ptr = (uintptr_t)&ri;
	a.query_exception_info.info_size = sizeof(ri);
	a.query_exception_info.exception_code = KFD_ABI_EC_PROCESS_RUNTIME;
	a.query_exception_info.clear_exception = 1;
	assert_int_equal(trap(child, KFD_ABI_DBG_TRAP_QUERY_EXCEPTION_INFO, &a), 0);
	assert_int_equal(a.query_exception_info.info_size, sizeof(ri));
	assert_int_equal(ri.r_debug, R_DEBUG);
	assert_int_equal(ri.runtime_state, KFD_ABI_DEBUG_RUNTIME_STATE_ENABLED);
	assert_int_equal(trap(child, KFD_ABI_DBG_TRAP_QUERY_EXCEPTION_INFO, &a), -ENODATA);
	memset(&a, 0, sizeof(a));
	assert_int_equal(trap_raw(kfd, child, KFD_ABI_DBG_TRAP_QUERY_DEBUG_EVENT, &a), -EAGAIN);
	/* The runtime goes on when we answer. */
	memset(&a, 0, sizeof(a));
	a.send_runtime_event.exception_mask = KFD_ABI_EC_MASK(KFD_ABI_EC_PROCESS_RUNTIME);
	assert_int_equal(trap(child, KFD_ABI_DBG_TRAP_SEND_RUNTIME_EVENT, &a), 0);

	/* Its new queue is announced. */
	assert_int_equal(get(from_child[0], &cq, sizeof(cq)), 0);
	wait_event();
	memset(&a, 0, sizeof(a));
	assert_int_equal(trap(child, KFD_ABI_DBG_TRAP_QUERY_DEBUG_EVENT, &a), 0);
	assert_int_equal(a.query_debug_event.queue_id, cq.qid);
	assert_int_equal(a.query_debug_event.gpu_id, gpu_id);
	assert_true(a.query_debug_event.exception_mask & KFD_ABI_EC_MASK(KFD_ABI_EC_QUEUE_NEW));
	/* A new queue is not suspended until its news are cleared. */
	memset(&a, 0, sizeof(a));
	ids[0] = cq.qid;
	a.suspend_queues.queue_array_ptr = (uintptr_t)ids;
	a.suspend_queues.num_queues = 1;
	assert_int_equal(trap(child, KFD_ABI_DBG_TRAP_SUSPEND_QUEUES, &a), 0);
	assert_int_equal(ids[0], cq.qid | KFD_ABI_DBG_QUEUE_INVALID_MASK);

	/* Snapshots: the caller's stride, the kernel's entry size. */
	memset(&a, 0, sizeof(a));
	memset(qs, 0, sizeof(qs));
	a.queue_snapshot.exception_mask = KFD_ABI_EC_MASK(KFD_ABI_EC_QUEUE_NEW);
	a.queue_snapshot.snapshot_buf_ptr = (uintptr_t)qs;
	a.queue_snapshot.num_queues = 2;
	a.queue_snapshot.entry_size = sizeof(qs[0]);
	assert_int_equal(trap_raw(kfd, child, KFD_ABI_DBG_TRAP_GET_QUEUE_SNAPSHOT, &a), 0);
	assert_int_equal(a.queue_snapshot.num_queues, 1);
	assert_int_equal(a.queue_snapshot.entry_size, sizeof(qs[0]));
	assert_int_equal(qs[0].queue_id, cq.qid);
	assert_int_equal(qs[0].gpu_id, gpu_id);
	assert_int_equal(qs[0].ring_base_address, cq.ring);
	assert_int_equal(qs[0].ring_size, cq.ring_size);
	assert_int_equal(qs[0].queue_type, KFD_ABI_QUEUE_TYPE_COMPUTE_AQL);
	assert_true(qs[0].exception_status & KFD_ABI_EC_MASK(KFD_ABI_EC_QUEUE_NEW));
	/* Suspend and resume; one already in the state counts. */
	memset(&a, 0, sizeof(a));
	ids[0] = cq.qid;
	a.suspend_queues.queue_array_ptr = (uintptr_t)ids;
	a.suspend_queues.num_queues = 1;
	assert_int_equal(trap(child, KFD_ABI_DBG_TRAP_SUSPEND_QUEUES, &a), 1);
	assert_int_equal(ids[0], cq.qid);
	assert_int_equal(trap(child, KFD_ABI_DBG_TRAP_SUSPEND_QUEUES, &a), 1);
	memset(&a, 0, sizeof(a));
	ids[0] = cq.qid + 1;
	a.resume_queues.queue_array_ptr = (uintptr_t)ids;
	a.resume_queues.num_queues = 1;
	assert_int_equal(trap(child, KFD_ABI_DBG_TRAP_RESUME_QUEUES, &a), 0);
	assert_int_equal(ids[0], (cq.qid + 1) | KFD_ABI_DBG_QUEUE_INVALID_MASK);
	ids[0] = cq.qid;
	assert_int_equal(trap(child, KFD_ABI_DBG_TRAP_RESUME_QUEUES, &a), 1);

	/* The child's bad dispatch: the CP's error reaches us. */
	put(to_child[1], queue_error ? "e" : "n", 1);
	if (queue_error)
		check_queue_error(child, cq.qid);

	/* Refused callers. */
	other = spawn_untraced(&ready, &release);
	assert_int_equal(get(ready, &c, 1), 0);
	assert_int_equal(c, 'k');
	memset(&a, 0, sizeof(a));
	a.enable.dbg_fd = (uint32_t)ev[1];
	assert_int_equal(trap(other, KFD_ABI_DBG_TRAP_ENABLE, &a), -EPERM);
	/* DISABLE skips the ptrace check: not enabled, EINVAL. */
	assert_int_equal(trap(other, KFD_ABI_DBG_TRAP_DISABLE, &a), -EINVAL);
	put(release, "q", 1);
	assert_int_equal(waitpid(other, &status, 0), other);
	assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	assert_int_equal(trap(other, KFD_ABI_DBG_TRAP_ENABLE, &a), -ESRCH);
	close(ready);
	close(release);

	/* Detach: the session ends. */
	memset(&a, 0, sizeof(a));
	assert_int_equal(trap(child, KFD_ABI_DBG_TRAP_DISABLE, &a), 0);
	assert_int_equal(trap_raw(kfd, child, KFD_ABI_DBG_TRAP_QUERY_DEBUG_EVENT, &a), -EINVAL);
	put(to_child[1], "x", 1);
	assert_int_equal(waitpid(child, &status, 0), child);
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), 0);
	/* A dead pid: ESRCH. */
	assert_int_equal(trap_raw(kfd, child, KFD_ABI_DBG_TRAP_ENABLE, &a), -ESRCH);
	close(kfd);
	assert_int_equal(hsaKmtCloseKFD(), HSAKMT_STATUS_SUCCESS);
}

/*
 * A memory fault of the debugged child (kfd_set_dbg_ev_from_interrupt):
 * the debugger, which enabled EC_DEVICE_MEMORY_VIOLATION, is told; the
 * GPU's status has it; QUERY_EXCEPTION_INFO copies the fault's
 * kfd_hsa_memory_exception_data (what fits of it, the full size in
 * info_size) until a query clears it.
 */
static void
test_memory_violation(void **state)
{
	const uint64_t mv = KFD_ABI_EC_MASK(KFD_ABI_EC_DEVICE_MEMORY_VIOLATION);
	struct kfd_abi_hsa_memory_exception_data data;
	struct kfd_abi_dbg_trap_args a;
	struct kfd_abi_dbg_device_info_entry ds[16];
	struct child_queue cq;
	uint32_t gpu_id;
	uint64_t head;
	int status;
	pid_t child;

	(void)state;
	/* Its packets fault: a replay, which has none, cannot. */
	if (!queue_error)
		skip();
	child = fork_debugged(child_fault_main);
	assert_int_equal(hsaKmtOpenKFD(), HSAKMT_STATUS_SUCCESS);

	memset(&a, 0, sizeof(a));
	a.enable.exception_mask = KFD_ABI_EC_MASK(KFD_ABI_EC_PROCESS_RUNTIME) | mv;
	a.enable.dbg_fd = (uint32_t)ev[1];
	assert_int_equal(trap(child, KFD_ABI_DBG_TRAP_ENABLE, &a), 0);
	memset(&a, 0, sizeof(a));
	a.device_snapshot.snapshot_buf_ptr = (uintptr_t)ds;
	a.device_snapshot.num_devices = 16;
	a.device_snapshot.entry_size = sizeof(ds[0]);
	assert_int_equal(trap(child, KFD_ABI_DBG_TRAP_GET_DEVICE_SNAPSHOT, &a), 0);
	gpu_id = ds[0].gpu_id;
	/* Its runtime enable, answered. */
	put(to_child[1], "g", 1);
	wait_event();
	memset(&a, 0, sizeof(a));
	a.query_debug_event.exception_mask = KFD_ABI_EC_MASK(KFD_ABI_EC_PROCESS_RUNTIME);
	assert_int_equal(trap(child, KFD_ABI_DBG_TRAP_QUERY_DEBUG_EVENT, &a), 0);
	memset(&a, 0, sizeof(a));
	a.send_runtime_event.exception_mask = KFD_ABI_EC_MASK(KFD_ABI_EC_PROCESS_RUNTIME);
	assert_int_equal(trap(child, KFD_ABI_DBG_TRAP_SEND_RUNTIME_EVENT, &a), 0);
	assert_int_equal(get(from_child[0], &cq, sizeof(cq)), 0);

	/* No fault yet: the GPU has no such exception. */
	memset(&a, 0, sizeof(a));
	a.query_exception_info.info_ptr = (uintptr_t)&data;
	a.query_exception_info.info_size = sizeof(data);
	a.query_exception_info.source_id = gpu_id;
	a.query_exception_info.exception_code = KFD_ABI_EC_DEVICE_MEMORY_VIOLATION;
	assert_int_equal(trap(child, KFD_ABI_DBG_TRAP_QUERY_EXCEPTION_INFO, &a), -ENODATA);

	put(to_child[1], "f", 1);
	wait_event();
	/* The queue's exceptions come first; the GPU's report the fault. */
	for (int i = 0; i < 4; i++) {
		memset(&a, 0, sizeof(a));
		if (trap(child, KFD_ABI_DBG_TRAP_QUERY_DEBUG_EVENT, &a) ||
		    a.query_debug_event.gpu_id == gpu_id)
			break;
	}
	assert_int_equal(a.query_debug_event.gpu_id, gpu_id);
	assert_true(a.query_debug_event.exception_mask & mv);
	/* What fits of the data; info_size says its size. */
	memset(&a, 0, sizeof(a));
	head = 0;
	a.query_exception_info.info_ptr = (uintptr_t)&head;
	a.query_exception_info.info_size = sizeof(head);
	a.query_exception_info.source_id = gpu_id;
	a.query_exception_info.exception_code = KFD_ABI_EC_DEVICE_MEMORY_VIOLATION;
	assert_int_equal(trap(child, KFD_ABI_DBG_TRAP_QUERY_EXCEPTION_INFO, &a), 0);
	assert_int_equal(a.query_exception_info.info_size, sizeof(data));
	/* All of it, cleared by the query. */
	memset(&data, 0xee, sizeof(data));
	a.query_exception_info.info_ptr = (uintptr_t)&data;
	a.query_exception_info.info_size = sizeof(data);
	a.query_exception_info.clear_exception = 1;
	assert_int_equal(trap(child, KFD_ABI_DBG_TRAP_QUERY_EXCEPTION_INFO, &a), 0);
	assert_int_equal(a.query_exception_info.info_size, sizeof(data));
	assert_memory_equal(&head, &data, sizeof(head));
	assert_int_equal(data.va, BAD_VA & ~0xfffull);
	assert_int_equal(data.gpu_id, gpu_id);
	assert_int_equal(data.failure.NotPresent, 1);
	assert_int_equal(data.failure.ReadOnly, 0);
	assert_int_equal(data.failure.imprecise, 0);
	assert_int_equal(trap(child, KFD_ABI_DBG_TRAP_QUERY_EXCEPTION_INFO, &a), -ENODATA);

	memset(&a, 0, sizeof(a));
	assert_int_equal(trap(child, KFD_ABI_DBG_TRAP_DISABLE, &a), 0);
	put(to_child[1], "x", 1);
	assert_int_equal(waitpid(child, &status, 0), child);
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), 0);
	assert_int_equal(hsaKmtCloseKFD(), HSAKMT_STATUS_SUCCESS);
	close(to_child[1]);
	close(from_child[0]);
	close(ev[0]);
	close(ev[1]);
}

/*
 * The target of a debugger that ends: its queue, suspended by the
 * debugger, holds a packet; once the debugger has ended, the packet runs.
 */
static void __attribute__((noreturn))
target_main(int up[2], int down[2], int release, int resumed)
{
	struct kfd_abi_runtime_enable_args re = { .mode_mask = 1 };
	struct timespec nap = { 0, 1000000 };
	HsaQueueResource res;
	HSAuint64 *ptrs = NULL;
	void *ring = NULL;
	uint32_t qid;
	char c;
	int kfd, ms;

	close(up[0]);
	close(down[1]);
	child_check(ptrace(PTRACE_TRACEME, 0, NULL, NULL) == 0, 42);
	kfd = open("/dev/kfd", O_RDWR | O_CLOEXEC);
	child_check(kfd >= 0 && ioctl(kfd, KFD_ABI_IOC_RUNTIME_ENABLE, &re) == 0, 43);
	child_queue(&ring, &ptrs, &res);
	child_check(hsaKmtGetKernelQueueId(res.QueueId, &qid) == HSAKMT_STATUS_SUCCESS, 50);
	put(up[1], &qid, sizeof(qid));
	/* Suspended: the packet waits. */
	child_check(get(down[0], &c, 1) == 0, 51);
	child_barrier(ring, &ptrs[1], res.QueueDoorBell);
	for (ms = 0; ms < 200; ms++)
		nanosleep(&nap, NULL);
	child_check(__atomic_load_n(&ptrs[0], __ATOMIC_ACQUIRE) == 0, 52);
	put(up[1], "w", 1);
	/* Its debugger ends: the queue is resumed and the packet retires. */
	for (ms = 0; ms < EVENT_WAIT_MS && !__atomic_load_n(&ptrs[0], __ATOMIC_ACQUIRE); ms++)
		nanosleep(&nap, NULL);
	child_check(__atomic_load_n(&ptrs[0], __ATOMIC_ACQUIRE) == 1, 53);
	put(resumed, "r", 1);
	child_check(get(release, &c, 1) == 0, 44);
	hsaKmtDestroyQueue(res.QueueId);
	hsaKmtCloseKFD();
	_exit(0);
}

/*
 * The debugger ends without DISABLE: the session ends with it. The queue
 * it suspended runs again (target_main() checks), and a new tracer of the
 * target may ENABLE; while it lived, another process was refused.
 */
static void
test_debugger_ends(void **state)
{
	struct kfd_abi_dbg_trap_args a;
	int report[2], rel_dbg[2], rel_target[2], resumed[2], status;
	pid_t dbg, target;
	char c;

	assert_int_equal(pipe(report), 0);
	assert_int_equal(pipe(rel_dbg), 0);
	assert_int_equal(pipe(rel_target), 0);
	assert_int_equal(pipe(resumed), 0);
	assert_int_equal(pipe2(ev, O_NONBLOCK | O_CLOEXEC), 0);
	dbg = fork();
	assert_true(dbg >= 0);
	if (dbg == 0) {
		int up[2], down[2], kfd = open("/dev/kfd", O_RDWR | O_CLOEXEC);
		uint32_t qid;

		/* Ends the parent's alone: a parent that fails lets us go. */
		close(rel_dbg[1]);
		close(rel_target[1]);
		close(resumed[0]);
		child_check(kfd >= 0 && pipe(up) == 0 && pipe(down) == 0, 40);
		target = fork();
		child_check(target >= 0, 41);
		if (target == 0)
			target_main(up, down, rel_target[0], resumed[1]);
		close(up[1]);
		close(down[0]);
		child_check(get(up[0], &qid, sizeof(qid)) == 0, 45);
		memset(&a, 0, sizeof(a));
		a.enable.dbg_fd = (uint32_t)ev[1];
		child_check(trap_raw(kfd, target, KFD_ABI_DBG_TRAP_ENABLE, &a) == 0, 46);
		memset(&a, 0, sizeof(a));
		a.suspend_queues.queue_array_ptr = (uintptr_t)&qid;
		a.suspend_queues.num_queues = 1;
		child_check(trap_raw(kfd, target, KFD_ABI_DBG_TRAP_SUSPEND_QUEUES, &a) == 1, 48);
		put(down[1], "s", 1);
		child_check(get(up[0], &c, 1) == 0 && c == 'w', 49);
		put(report[1], &target, sizeof(target));
		/* Waits for the parent's refused ENABLE, then ends as is. */
		child_check(get(rel_dbg[0], &c, 1) == 0, 47);
		_exit(0);
	}
	assert_int_equal(get(report[0], &target, sizeof(target)), 0);
	assert_int_equal(hsaKmtOpenKFD(), HSAKMT_STATUS_SUCCESS);
	/* Traced by another: refused. */
	memset(&a, 0, sizeof(a));
	a.enable.dbg_fd = (uint32_t)ev[1];
	assert_int_equal(trap(target, KFD_ABI_DBG_TRAP_ENABLE, &a), -EPERM);
	put(rel_dbg[1], "d", 1);
	assert_int_equal(waitpid(dbg, &status, 0), dbg);
	assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);

	/* The queue runs again before anyone else looks at the target. */
	close(resumed[1]);
	assert_int_equal(get(resumed[0], &c, 1), 0);
	close(resumed[0]);
	/* Its debugger gone, the target is ours to trace and debug. */
	assert_int_equal(ptrace(PTRACE_SEIZE, target, NULL, NULL), 0);
	memset(&a, 0, sizeof(a));
	a.enable.dbg_fd = (uint32_t)ev[1];
	assert_int_equal(trap(target, KFD_ABI_DBG_TRAP_ENABLE, &a), 0);
	memset(&a, 0, sizeof(a));
	assert_int_equal(trap(target, KFD_ABI_DBG_TRAP_DISABLE, &a), 0);
	put(rel_target[1], "t", 1);
	assert_int_equal(waitpid(target, &status, __WALL), target);
	assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	assert_int_equal(hsaKmtCloseKFD(), HSAKMT_STATUS_SUCCESS);
	close(ev[0]);
	close(ev[1]);
	close(report[0]);
	close(report[1]);
	close(rel_dbg[0]);
	close(rel_dbg[1]);
	close(rel_target[0]);
	close(rel_target[1]);
}

int
main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_debug_child),
		cmocka_unit_test(test_debugger_ends),
		cmocka_unit_test(test_memory_violation),
	};

	if (argc > 1 && !strcmp(argv[1], "--no-queue-error"))
		queue_error = false;
	return cmocka_run_group_tests(tests, NULL, NULL);
}

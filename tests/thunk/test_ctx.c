/* SPDX-License-Identifier: MIT */
/*
 * KFD contexts on the simulated device. Linked with the library's static
 * archive so a dispatch hook sees every ioctl it issues: a secondary
 * context must issue CREATE_PROCESS on a /dev/kfd file of its own,
 * acquire its VMs through render-node files of its own, never back paged
 * memory with user pointers, refuse debugger calls, and share no memory
 * object with the primary context or another secondary.
 */
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include <kfdtrace/dispatch.h>
#include <kfdtrace/kfd_abi.h>

#include "hsakmt/hsakmt.h"
#include "hsakmt/hsakmtctx.h"
#include "core/core.h"
#include "events/events_priv.h"
#include "perf/perf_priv.h"
#include "queues/queues_priv.h"

/* What the hook saw. */
static pthread_mutex_t seen_lock = PTHREAD_MUTEX_INITIALIZER;
static int create_process_fd = -1;
static int acquire_fds[8], acquire_kfd_fds[8], n_acquire;
static uint32_t alloc_flags[64];
static int alloc_fds[64], n_alloc;
/* The dGPU events page: the BO offered to CREATE_EVENT and what was done to it. */
static uint64_t events_page_handle;
static int n_free_failed, n_events_page_unmap, n_events_page_free;

static void
hook_after(void *ctx, const struct kfd_dispatch_call *call, void *cookie)
{
	(void)ctx;
	(void)cookie;
	if (call->kind != KFD_FILE_KFD)
		return;
	pthread_mutex_lock(&seen_lock);
	/* Before-images: the handles the library sent. */
	if (call->request == KFD_ABI_IOC_CREATE_EVENT && !call->ret && call->arg_before) {
		const struct kfd_abi_create_event_args *a = call->arg_before;

		if (a->event_page_offset)
			events_page_handle = a->event_page_offset;
	} else if (call->request == KFD_ABI_IOC_FREE_MEMORY_OF_GPU && call->arg_before) {
		const struct kfd_abi_free_memory_of_gpu_args *a = call->arg_before;

		n_free_failed += call->ret != 0;
		n_events_page_free += events_page_handle && a->handle == events_page_handle;
	} else if (call->request == KFD_ABI_IOC_UNMAP_MEMORY_FROM_GPU && call->arg_before) {
		const struct kfd_abi_unmap_memory_from_gpu_args *a = call->arg_before;

		n_events_page_unmap += events_page_handle && a->handle == events_page_handle;
	}
	if (call->ret) {
		pthread_mutex_unlock(&seen_lock);
		return;
	}
	if (KFD_ABI_IOC_NR(call->request) == 0x27) {
		create_process_fd = call->fd;
	} else if (call->request == KFD_ABI_IOC_ACQUIRE_VM && n_acquire < 8) {
		const struct kfd_abi_acquire_vm_args *a = call->arg;

		acquire_fds[n_acquire] = (int)a->drm_fd;
		acquire_kfd_fds[n_acquire++] = call->fd;
	} else if (call->request == KFD_ABI_IOC_ALLOC_MEMORY_OF_GPU && n_alloc < 64) {
		const struct kfd_abi_alloc_memory_of_gpu_args *a = call->arg;

		alloc_flags[n_alloc] = a->flags;
		alloc_fds[n_alloc++] = call->fd;
	}
	pthread_mutex_unlock(&seen_lock);
}

static const struct kfd_dispatch_hooks hooks = {
	.name = "test_ctx",
	.after = hook_after,
};

static HSAuint32
first_gpu(HsaKFDContext *ctx)
{
	HsaSystemProperties sp;
	HsaNodeProperties np;
	HSAuint32 n;

	assert_int_equal(hsaKmtAcquireSystemPropertiesCtx(ctx, &sp), HSAKMT_STATUS_SUCCESS);
	for (n = 0; n < sp.NumNodes; n++) {
		assert_int_equal(hsaKmtGetNodePropertiesCtx(ctx, n, &np), HSAKMT_STATUS_SUCCESS);
		if (np.NumFComputeCores)
			return n;
	}
	fail_msg("no GPU");
	return 0;
}

static void
test_bad_arguments(void **state)
{
	HsaKFDContext *primary = NULL;
	HsaVersionInfo v;

	(void)state;
	assert_int_equal(hsaKmtOpenSecondaryKFDCtx(NULL), HSAKMT_STATUS_INVALID_PARAMETER);
	assert_int_equal(hsaKmtCloseSecondaryKFDCtx(NULL), HSAKMT_STATUS_INVALID_PARAMETER);
	assert_int_equal(hsaKmtGetVersionCtx(NULL, &v), HSAKMT_STATUS_INVALID_PARAMETER);
	assert_int_equal(hsaKmtOpenKFDCtx(&primary), HSAKMT_STATUS_SUCCESS);
	assert_non_null(primary);
	/* The primary context is not closed this way. */
	assert_int_equal(hsaKmtCloseSecondaryKFDCtx(primary), HSAKMT_STATUS_INVALID_PARAMETER);
	assert_int_equal(hsaKmtGetVersionCtx(primary, &v), HSAKMT_STATUS_SUCCESS);
	assert_int_equal(hsaKmtCloseKFDCtx(), HSAKMT_STATUS_SUCCESS);
	assert_int_equal(hsaKmtGetVersionCtx(primary, &v),
			 HSAKMT_STATUS_KERNEL_IO_CHANNEL_NOT_OPENED);
}

static void
test_secondary_is_separate(void **state)
{
	HsaKFDContext *primary = NULL, *a = NULL, *b = NULL;
	HsaMemFlags vram = {0}, paged = {0};
	HsaPointerInfo pi;
	void *pa = NULL, *pp = NULL, *ph = NULL;
	HSAuint32 gpu;
	int i, primary_kfd_fd;

	(void)state;
	assert_int_equal(kfd_dispatch_hook_add(&hooks, NULL), 0);
	n_acquire = n_alloc = 0;
	assert_int_equal(hsaKmtOpenKFDCtx(&primary), HSAKMT_STATUS_SUCCESS);
	primary_kfd_fd = acquire_kfd_fds[0];
	assert_true(n_acquire >= 1);
	gpu = first_gpu(primary);

	/* A secondary: its own file, turned into its own process. */
	assert_int_equal(hsaKmtOpenSecondaryKFDCtx(&a), HSAKMT_STATUS_SUCCESS);
	assert_non_null(a);
	assert_ptr_not_equal(a, primary);
	assert_true(create_process_fd >= 0);
	assert_int_not_equal(create_process_fd, primary_kfd_fd);
	/* Its VMs come from render-node files of its own. */
	for (i = 0; i < n_acquire; i++) {
		if (acquire_kfd_fds[i] != create_process_fd)
			continue;
		assert_int_not_equal(acquire_fds[i], acquire_fds[0]);
	}
	assert_int_equal(gpu, first_gpu(a));

	vram.ui32.NonPaged = 1;
	vram.ui32.HostAccess = 1;
	assert_int_equal(hsaKmtAllocMemoryCtx(a, gpu, 1 << 20, vram, &pa), HSAKMT_STATUS_SUCCESS);
	assert_int_equal(hsaKmtQueryPointerInfoCtx(a, pa, &pi), HSAKMT_STATUS_SUCCESS);
	assert_int_equal(pi.Type, HSA_POINTER_ALLOCATED);
	/* The primary does not know the secondary's memory, nor the reverse. */
	assert_int_equal(hsaKmtQueryPointerInfoCtx(primary, pa, &pi), HSAKMT_STATUS_ERROR);
	assert_int_equal(hsaKmtAllocMemoryCtx(primary, gpu, 1 << 20, vram, &pp),
			 HSAKMT_STATUS_SUCCESS);
	assert_int_equal(hsaKmtQueryPointerInfoCtx(a, pp, &pi), HSAKMT_STATUS_ERROR);
	assert_int_equal(hsaKmtFreeMemoryCtx(a, pp, 1 << 20), HSAKMT_STATUS_MEMORY_NOT_REGISTERED);

	/* Paged memory: a userptr BO on the primary, never on a secondary. */
	paged.ui32.HostAccess = 1;
	n_alloc = 0;
	assert_int_equal(hsaKmtAllocMemoryCtx(a, 0, 4096, paged, &ph), HSAKMT_STATUS_SUCCESS);
	assert_int_equal(n_alloc, 1);
	assert_int_equal(alloc_flags[0] & KFD_ABI_ALLOC_MEM_FLAGS_USERPTR, 0);
	assert_int_equal(alloc_fds[0], create_process_fd);
	assert_int_equal(hsaKmtFreeMemoryCtx(a, ph, 4096), HSAKMT_STATUS_SUCCESS);
	n_alloc = 0;
	assert_int_equal(hsaKmtAllocMemoryCtx(primary, 0, 4096, paged, &ph), HSAKMT_STATUS_SUCCESS);
	assert_int_equal(n_alloc, 1);
	assert_int_not_equal(alloc_flags[0] & KFD_ABI_ALLOC_MEM_FLAGS_USERPTR, 0);
	assert_int_equal(hsaKmtFreeMemoryCtx(primary, ph, 4096), HSAKMT_STATUS_SUCCESS);

	/* Debugger calls are the primary's only. */
	assert_int_equal(hsaKmtRuntimeEnableCtx(a, NULL, false), HSAKMT_STATUS_NOT_SUPPORTED);

	/* A second secondary is separate from the first too. */
	assert_int_equal(hsaKmtOpenSecondaryKFDCtx(&b), HSAKMT_STATUS_SUCCESS);
	assert_int_equal(hsaKmtQueryPointerInfoCtx(b, pa, &pi), HSAKMT_STATUS_ERROR);
	assert_int_equal(hsaKmtCloseSecondaryKFDCtx(b), HSAKMT_STATUS_SUCCESS);

	/* Closing frees what is left; the primary carries on. */
	assert_int_equal(hsaKmtCloseSecondaryKFDCtx(a), HSAKMT_STATUS_SUCCESS);
	assert_int_equal(hsaKmtQueryPointerInfoCtx(primary, pp, &pi), HSAKMT_STATUS_SUCCESS);
	assert_int_equal(hsaKmtFreeMemoryCtx(primary, pp, 1 << 20), HSAKMT_STATUS_SUCCESS);
	assert_int_equal(hsaKmtCloseKFDCtx(), HSAKMT_STATUS_SUCCESS);
	assert_int_equal(kfd_dispatch_hook_remove(&hooks, NULL), 0);
}

/* Legacy calls are the primary context's Ctx calls. */
static void
test_legacy_is_primary(void **state)
{
	HsaKFDContext *primary = NULL;
	HsaMemFlags f = {0};
	HsaPointerInfo pi;
	void *p = NULL;

	(void)state;
	assert_int_equal(hsaKmtOpenKFD(), HSAKMT_STATUS_SUCCESS);
	assert_int_equal(hsaKmtOpenKFDCtx(&primary), HSAKMT_STATUS_KERNEL_ALREADY_OPENED);
	f.ui32.HostAccess = 1;
	assert_int_equal(hsaKmtAllocMemory(0, 4096, f, &p), HSAKMT_STATUS_SUCCESS);
	assert_int_equal(hsaKmtQueryPointerInfoCtx(primary, p, &pi), HSAKMT_STATUS_SUCCESS);
	assert_int_equal(hsaKmtFreeMemoryCtx(primary, p, 4096), HSAKMT_STATUS_SUCCESS);
	assert_int_equal(hsaKmtCloseKFDCtx(), HSAKMT_STATUS_SUCCESS);
	assert_int_equal(hsaKmtCloseKFD(), HSAKMT_STATUS_SUCCESS);
}

/*
 * A child that escaped the atfork handler (raw clone(), or the handler's
 * mark undone) still uses the parent's KFD file: the kernel answers EBADF
 * and the library must take the context as inherited from then on.
 */
static int
child_without_atfork(void)
{
	HsaKFDContext *ctx = kmt_primary_ctx();
	HSAuint64 avail;
	HsaVersionInfo v;

	ctx->forked = false;
	ctx->pid = getpid();
	if (hsaKmtGetVersion(&v) != HSAKMT_STATUS_SUCCESS)
		return 1;	/* no ioctl: nothing to notice yet */
	if (hsaKmtAvailableMemory(1, &avail) == HSAKMT_STATUS_SUCCESS)
		return 2;	/* the kernel must refuse the parent's file */
	if (hsaKmtGetVersion(&v) != HSAKMT_STATUS_KERNEL_IO_CHANNEL_NOT_OPENED)
		return 3;
	if (hsaKmtOpenKFD() != HSAKMT_STATUS_SUCCESS)
		return 4;
	if (hsaKmtAvailableMemory(1, &avail) != HSAKMT_STATUS_SUCCESS)
		return 5;
	return hsaKmtCloseKFD() == HSAKMT_STATUS_SUCCESS ? 0 : 6;
}

static void
test_ebadf_marks_forked(void **state)
{
	HsaSystemProperties sp;
	int status;
	pid_t pid;

	(void)state;
	assert_int_equal(hsaKmtOpenKFD(), HSAKMT_STATUS_SUCCESS);
	assert_int_equal(hsaKmtAcquireSystemProperties(&sp), HSAKMT_STATUS_SUCCESS);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0)
		_exit(child_without_atfork());
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), 0);
	assert_int_equal(hsaKmtCloseKFD(), HSAKMT_STATUS_SUCCESS);
}

/*
 * On a dGPU the library hands its own signal page to the first
 * CREATE_EVENT; the kernel keeps it and answers FREE with EPERM. Closing
 * must forget the page: neither UNMAP nor FREE of that BO, and no FREE
 * that fails.
 */
static void
test_events_page_forgotten_at_close(void **state)
{
	HsaEventDescriptor desc = { .EventType = HSA_EVENTTYPE_SIGNAL };
	HsaMemFlags f = {0};
	HsaEvent *ev = NULL;
	void *p = NULL;

	(void)state;
	assert_int_equal(kfd_dispatch_hook_add(&hooks, NULL), 0);
	events_page_handle = 0;
	n_free_failed = n_events_page_unmap = n_events_page_free = 0;
	assert_int_equal(hsaKmtOpenKFD(), HSAKMT_STATUS_SUCCESS);
	assert_true(kmt_primary_ctx()->is_dgpu);
	assert_int_equal(hsaKmtCreateEvent(&desc, false, false, &ev), HSAKMT_STATUS_SUCCESS);
	assert_int_not_equal(events_page_handle, 0);
	/* Ordinary memory next to it is still freed at close. */
	f.ui32.HostAccess = 1;
	f.ui32.NonPaged = 1;
	assert_int_equal(hsaKmtAllocMemory(0, 4096, f, &p), HSAKMT_STATUS_SUCCESS);
	assert_int_equal(hsaKmtCloseKFD(), HSAKMT_STATUS_SUCCESS);
	assert_int_equal(n_events_page_unmap, 0);
	assert_int_equal(n_events_page_free, 0);
	assert_int_equal(n_free_failed, 0);
	assert_int_equal(kfd_dispatch_hook_remove(&hooks, NULL), 0);
	/* A reopen keeps working with the kernel's page. */
	assert_int_equal(hsaKmtOpenKFD(), HSAKMT_STATUS_SUCCESS);
	assert_int_equal(hsaKmtCreateEvent(&desc, false, true, &ev), HSAKMT_STATUS_SUCCESS);
	assert_int_equal(hsaKmtWaitOnEvent(ev, 0), HSAKMT_STATUS_SUCCESS);
	assert_int_equal(hsaKmtDestroyEvent(ev), HSAKMT_STATUS_SUCCESS);
	assert_int_equal(hsaKmtCloseKFD(), HSAKMT_STATUS_SUCCESS);
}

/*
 * A thread of the parent may hold an area's lock when another forks; the
 * lock is then held forever in the child. The child's cleanup (run by its
 * reopen) must not take it: here the parent holds the event, queue and
 * counter locks across fork(), and a child that took one would hang until
 * the alarm kills it.
 */
static void
test_fork_cleanup_skips_area_locks(void **state)
{
	HsaEventDescriptor desc = { .EventType = HSA_EVENTTYPE_SIGNAL };
	HsaKFDContext *ctx = kmt_primary_ctx();
	struct kmt_event_ctx *ec;
	struct kmt_queue_ctx *qc;
	struct kmt_perf_ctx *pc;
	HsaEvent *ev = NULL;
	int status;
	pid_t pid;

	(void)state;
	assert_int_equal(hsaKmtOpenKFD(), HSAKMT_STATUS_SUCCESS);
	assert_int_equal(hsaKmtCreateEvent(&desc, false, false, &ev), HSAKMT_STATUS_SUCCESS);
	ec = kmt_event_ctx_get(ctx);
	qc = kmt_queue_ctx_get(ctx);
	pc = kmt_perf_ctx_get(ctx);
	assert_non_null(ec);
	assert_non_null(qc);
	assert_non_null(pc);
	pthread_mutex_lock(&ec->lock);
	pthread_mutex_lock(&qc->lock);
	pthread_mutex_lock(&pc->lock);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		alarm(10);
		if (hsaKmtOpenKFD() != HSAKMT_STATUS_SUCCESS)
			_exit(1);
		_exit(hsaKmtCloseKFD() == HSAKMT_STATUS_SUCCESS ? 0 : 2);
	}
	pthread_mutex_unlock(&pc->lock);
	pthread_mutex_unlock(&qc->lock);
	pthread_mutex_unlock(&ec->lock);
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_false(WIFSIGNALED(status));
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), 0);
	assert_int_equal(hsaKmtDestroyEvent(ev), HSAKMT_STATUS_SUCCESS);
	assert_int_equal(hsaKmtCloseKFD(), HSAKMT_STATUS_SUCCESS);
}

/*
 * A child made by a raw clone() (no atfork handler runs) must still see
 * its own pid through the library's cached one, and so find the parent's
 * context unusable before any ioctl.
 */
static void
test_raw_clone_child_sees_own_pid(void **state)
{
	HsaVersionInfo v;
	int status;
	pid_t pid;

	(void)state;
	assert_int_equal(hsaKmtOpenKFD(), HSAKMT_STATUS_SUCCESS);
	assert_int_equal(kmt_getpid(), getpid());
	assert_int_equal(hsaKmtGetVersion(&v), HSAKMT_STATUS_SUCCESS);
	pid = (pid_t)syscall(SYS_clone, SIGCHLD, NULL, NULL, NULL, NULL);
	assert_true(pid >= 0);
	if (pid == 0) {
		pid_t self = (pid_t)syscall(SYS_getpid);

		if (kmt_getpid() != self)
			_exit(1);
		if (hsaKmtGetVersion(&v) != HSAKMT_STATUS_KERNEL_IO_CHANNEL_NOT_OPENED)
			_exit(2);
		_exit(0);
	}
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), 0);
	/* The parent is unaffected. */
	assert_int_equal(kmt_getpid(), getpid());
	assert_int_equal(hsaKmtGetVersion(&v), HSAKMT_STATUS_SUCCESS);
	assert_int_equal(hsaKmtCloseKFD(), HSAKMT_STATUS_SUCCESS);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_bad_arguments),
		cmocka_unit_test(test_secondary_is_separate),
		cmocka_unit_test(test_legacy_is_primary),
		cmocka_unit_test(test_ebadf_marks_forked),
		cmocka_unit_test(test_events_page_forgotten_at_close),
		cmocka_unit_test(test_fork_cleanup_skips_area_locks),
		cmocka_unit_test(test_raw_clone_child_sees_own_pid),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

/* SPDX-License-Identifier: MIT */
/* kfd_ioctl() dispatch: nr ranges, ABI gating, the caller's size, copy-in
 * and copy-out, wild pointers, the wrong-process check, threads. */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ktest.h"

#define REQ(dir, nr, size) _IOC(dir, 'K', nr, size)

static void
test_unknown_nr(void **state)
{
	struct kt *t = *state;
	uint64_t buf[8] = { 0 };
	static const unsigned int nrs[] = { 0x00, 0x29, 0x3f, 0x50, 0x7f,
					    0x88, 0xff };

	for (unsigned int i = 0; i < sizeof(nrs) / sizeof(nrs[0]); i++)
		assert_int_equal(ksim_ioctl(t->kfd, REQ(_IOC_READ | _IOC_WRITE,
							nrs[i], 8), buf), -ENOTTY);
	/* The ROCm DKMS range answers EINVAL on upstream kernels, including
	 * the old DBG_TRAP 0x82 libhsakmt 5.2.3 uses for RuntimeEnable. */
	for (unsigned int nr = 0x80; nr <= 0x87; nr++)
		assert_int_equal(ksim_ioctl(t->kfd, REQ(_IOC_READ | _IOC_WRITE,
							nr, 40), buf), -EINVAL);
	assert_int_equal(ksim_ioctl(t->kfd, KFD_ABI_IOC_DBG_TRAP_OLD, buf), -EINVAL);
	assert_int_equal(ksim_ioctl(t->kfd, KFD_ABI_IOC_IPC_EXPORT_HANDLE, buf), -EINVAL);
}

static void
test_get_version_sizes(void **state)
{
	struct kt *t = *state;
	struct kfd_abi_get_version_args v;
	uint32_t words[4];

	memset(&v, 0xee, sizeof(v));
	assert_int_equal(ksim_ioctl(t->kfd, KFD_ABI_IOC_GET_VERSION, &v), 0);
	assert_int_equal(v.major_version, 1);
	assert_int_equal(v.minor_version, KSIM_ABI_MINOR_DEFAULT);
	/* the type byte is not checked */
	memset(&v, 0, sizeof(v));
	assert_int_equal(ksim_ioctl(t->kfd, _IOC(_IOC_READ, 'Z', 1, 8), &v), 0);
	assert_int_equal(v.major_version, 1);
	/* a short struct: only usize bytes come back */
	memset(words, 0xee, sizeof(words));
	assert_int_equal(ksim_ioctl(t->kfd, REQ(_IOC_READ, 1, 4), words), 0);
	assert_int_equal(words[0], 1);
	assert_int_equal(words[1], 0xeeeeeeee);
	/* a long one: the tail past the kernel struct is zero-filled */
	memset(words, 0xee, sizeof(words));
	assert_int_equal(ksim_ioctl(t->kfd, REQ(_IOC_READ, 1, 16), words), 0);
	assert_int_equal(words[0], 1);
	assert_int_equal(words[2], 0);
	assert_int_equal(words[3], 0);
	/* size 0: nothing is copied, nothing faults */
	assert_int_equal(ksim_ioctl(t->kfd, REQ(_IOC_READ, 1, 0), NULL), 0);
}

static void
test_wild_pointers(void **state)
{
	struct kt *t = *state;
	long pg = sysconf(_SC_PAGESIZE);
	char *ro, *gone;
	struct kfd_abi_set_event_args se = { 0 };

	assert_int_equal(ksim_ioctl(t->kfd, KFD_ABI_IOC_GET_VERSION, NULL), -EFAULT);
	assert_int_equal(ksim_ioctl(t->kfd, KFD_ABI_IOC_GET_VERSION, (void *)1), -EFAULT);
	assert_int_equal(ksim_ioctl(t->kfd, KFD_ABI_IOC_GET_VERSION,
				    (void *)0xffff800000000000ULL), -EFAULT);
	gone = mmap(NULL, (size_t)pg, PROT_READ | PROT_WRITE,
		    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	assert_true(gone != MAP_FAILED);
	munmap(gone, (size_t)pg);
	assert_int_equal(ksim_ioctl(t->kfd, KFD_ABI_IOC_CREATE_EVENT, gone), -EFAULT);
	/* read-only memory: an IOW ioctl may read it, an IOR may not write */
	ro = mmap(NULL, 2 * (size_t)pg, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	assert_true(ro != MAP_FAILED);
	/* a guard page after it */
	assert_int_equal(mprotect(ro + pg, (size_t)pg, PROT_NONE), 0);
	assert_int_equal(ksim_ioctl(t->kfd, KFD_ABI_IOC_GET_VERSION, ro), -EFAULT);
	assert_int_equal(ksim_ioctl(t->kfd, KFD_ABI_IOC_SET_EVENT, ro), -EINVAL);
	/* straddling the end of a mapping */
	assert_int_equal(ksim_ioctl(t->kfd, KFD_ABI_IOC_SET_EVENT,
				    ro + pg - 4), -EFAULT);
	munmap(ro, 2 * (size_t)pg);
	/* indirect buffers fault cleanly too */
	{
		struct kfd_abi_get_process_apertures_new_args a = {
			.kfd_process_device_apertures_ptr = 8, .num_of_nodes = 1,
		};

		assert_int_equal(ksim_ioctl(t->kfd,
			KFD_ABI_IOC_GET_PROCESS_APERTURES_NEW, &a), -EFAULT);
	}
	(void)se;
}

/* CREATE_QUEUE writes the clamped ring size back even when it fails. */
static void
test_out_args_on_failure(void **state)
{
	struct kt *t = *state;
	struct kfd_abi_create_queue_args q;

	memset(&q, 0, sizeof(q));
	q.gpu_id = t->gpu_id[0];
	q.ring_size = 0;
	q.queue_type = KFD_ABI_QUEUE_TYPE_COMPUTE_AQL;
	q.queue_percentage = 100;
	/* no VM acquired in this fixture: ESRCH */
	assert_int_equal(ksim_ioctl(t->kfd, KFD_ABI_IOC_CREATE_QUEUE, &q), -ESRCH);
	assert_int_equal(q.ring_size, KFD_ABI_MIN_QUEUE_RING_SIZE);
}

static void
test_abi_gating(void **state)
{
	struct kt t;
	struct kfd_abi_get_version_args v;
	uint64_t buf[8] = { 0 };

	(void)state;
	assert_int_equal(kt_open(&t, "mi210", 11), 0);
	assert_int_equal(ksim_ioctl(t.kfd, KFD_ABI_IOC_GET_VERSION, &v), 0);
	assert_int_equal(v.minor_version, 11);
	assert_int_equal(ksim_ioctl(t.kfd, KFD_ABI_IOC_EXPORT_DMABUF, buf), -ENOTTY);
	assert_int_equal(ksim_ioctl(t.kfd, KFD_ABI_IOC_RUNTIME_ENABLE, buf), -ENOTTY);
	assert_int_equal(ksim_ioctl(t.kfd, KFD_ABI_IOC_DBG_TRAP, buf), -ENOTTY);
	assert_int_equal(ksim_ioctl(t.kfd, KFD_ABI_IOC_CREATE_PROCESS, NULL), -ENOTTY);
	/* 1.9's AVAILABLE_MEMORY is there */
	{
		struct kfd_abi_get_available_memory_args a = { .gpu_id = t.gpu_id[0] };

		assert_int_equal(ksim_ioctl(t.kfd, KFD_ABI_IOC_AVAILABLE_MEMORY, &a), 0);
		assert_true(a.available > 0);
	}
	kt_close(&t);

	assert_int_equal(kt_open(&t, "mi210", 4), 0);
	assert_int_equal(ksim_ioctl(t.kfd, KFD_ABI_IOC_SVM_NATTR(0), buf), -ENOTTY);
	assert_int_equal(ksim_ioctl(t.kfd, KFD_ABI_IOC_SET_XNACK_MODE, buf), -ENOTTY);
	assert_int_equal(ksim_ioctl(t.kfd, KFD_ABI_IOC_SMI_EVENTS, buf), -EINVAL);
	kt_close(&t);

	assert_int_equal(kt_open(&t, "mi210", 18), 0);
	assert_int_equal(ksim_ioctl(t.kfd, KFD_ABI_IOC_CREATE_PROCESS, NULL), -ENOTTY);
	assert_int_equal(ksim_ioctl(t.kfd, KFD_ABI_IOC_RUNTIME_ENABLE, buf), 0);
	kt_close(&t);

	/* 0x28 PROFILER is 1.23's: a 1.22 kernel has no such nr. */
	assert_int_equal(kt_open(&t, "mi210", 22), 0);
	assert_int_equal(ksim_ioctl(t.kfd, KFD_ABI_IOC_PROFILER, buf), -ENOTTY);
	kt_close(&t);
	assert_int_equal(kt_open(&t, "mi210", 23), 0);
	buf[0] = KFD_ABI_PROFILER_VERSION;
	assert_int_equal(ksim_ioctl(t.kfd, KFD_ABI_IOC_PROFILER, buf), 0);
	kt_close(&t);

	assert_int_equal(kt_open(&t, "mi210", KSIM_ABI_MINOR_MAX + 1), -EINVAL);
	kt_close(&t);
}

static void
test_deprecated_debugger(void **state)
{
	struct kt *t = *state;
	uint64_t buf[2] = { 0 };

	assert_int_equal(ksim_ioctl(t->kfd, KFD_ABI_IOC_DBG_REGISTER, buf), -EPERM);
	assert_int_equal(ksim_ioctl(t->kfd, KFD_ABI_IOC_DBG_UNREGISTER, buf), -EPERM);
	assert_int_equal(ksim_ioctl(t->kfd, KFD_ABI_IOC_DBG_ADDRESS_WATCH, buf), -EPERM);
	assert_int_equal(ksim_ioctl(t->kfd, KFD_ABI_IOC_DBG_WAVE_CONTROL, buf), -EPERM);
}

static void
test_fd_identity(void **state)
{
	struct kt *t = *state;
	int fd = ksim_file_fd(t->kfd), d = dup(fd);

	assert_ptr_equal(ksim_file_from_fd(t->dev, fd), t->kfd);
	assert_ptr_equal(ksim_file_from_fd(t->dev, d), t->kfd);
	assert_ptr_equal(ksim_file_from_fd(t->dev, ksim_file_fd(t->rnd[0])), t->rnd[0]);
	assert_null(ksim_file_from_fd(t->dev, 0));
	assert_null(ksim_file_from_fd(t->dev, -1));
	assert_int_equal(ksim_file_kind(t->kfd), KFD_FILE_KFD);
	assert_int_equal(ksim_file_kind(t->rnd[0]), KFD_FILE_RENDER);
	assert_int_equal(ksim_file_render_minor(t->rnd[0]), 128);
	assert_int_equal(ksim_file_owner(t->kfd), getpid());
	close(d);
}

/* fork: the child's use of the parent's fd is "the wrong process". */
static void
test_fork_ebadf(void **state)
{
	struct kt *t = *state;
	pid_t pid;
	int status;

	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		struct kfd_abi_get_version_args v;
		struct ksim_file *mine;
		struct ksim_proc_info *info = malloc(sizeof(*info));
		int err = 0, code = 0;

		if (ksim_ioctl(t->kfd, KFD_ABI_IOC_GET_VERSION, &v) != -EBADF)
			code |= 1;
		mine = ksim_open_kfd(t->dev, O_CLOEXEC, &err);
		if (!mine || ksim_ioctl(mine, KFD_ABI_IOC_GET_VERSION, &v) != 0)
			code |= 2;
		/* the parent's fd still refuses, the new one is fresh state */
		if (ksim_ioctl(t->kfd, KFD_ABI_IOC_GET_VERSION, &v) != -EBADF)
			code |= 4;
		if (!info || ksim_proc_query(t->dev, info) || info->pid != getpid() ||
		    info->gpus[0].vm_acquired)
			code |= 8;
		_exit(code);
	}
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), 0);
	/* the parent is unaffected */
	{
		struct kfd_abi_get_version_args v;

		assert_int_equal(ksim_ioctl(t->kfd, KFD_ABI_IOC_GET_VERSION, &v), 0);
	}
}

/* kfd_release only drops a reference: reopening finds the same process. */
static void
test_reopen_keeps_state(void **state)
{
	struct kt *t = *state;
	struct ksim_file *again;
	uint64_t h;
	int err;

	assert_int_equal(kt_acquire(t, 0), 0);
	assert_int_equal(kt_alloc(t, 0, 0, 4096, KFD_ABI_ALLOC_MEM_FLAGS_GTT, &h, NULL), 0);
	close(ksim_file_fd(t->kfd));
	ksim_release(t->kfd);
	t->kfd = NULL;
	again = ksim_open_kfd(t->dev, O_CLOEXEC, &err);
	assert_non_null(again);
	t->kfd = again;
	/* the VM is still acquired and idr 0 still taken */
	assert_int_equal(kt_alloc(t, 0, 0, 4096, KFD_ABI_ALLOC_MEM_FLAGS_GTT, &h, NULL), 0);
	assert_int_equal(h & 0xffffffff, 1);
}

struct hammer {
	struct kt *t;
	int failures;
};

static void *
hammer_thread(void *arg)
{
	struct hammer *h = arg;

	for (int i = 0; i < 300; i++) {
		struct kfd_abi_get_version_args v;
		uint64_t handle;

		if (ksim_ioctl(h->t->kfd, KFD_ABI_IOC_GET_VERSION, &v))
			h->failures++;
		if (kt_alloc(h->t, 0, 0, 4096, KFD_ABI_ALLOC_MEM_FLAGS_GTT, &handle, NULL) ||
		    kt_free(h->t, handle))
			h->failures++;
	}
	return NULL;
}

static void
test_threads(void **state)
{
	struct kt *t = *state;
	pthread_t th[4];
	struct hammer h[4];

	assert_int_equal(kt_acquire_all(t), 0);
	for (int i = 0; i < 4; i++) {
		h[i].t = t;
		h[i].failures = 0;
		assert_int_equal(pthread_create(&th[i], NULL, hammer_thread, &h[i]), 0);
	}
	for (int i = 0; i < 4; i++) {
		pthread_join(th[i], NULL);
		assert_int_equal(h[i].failures, 0);
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_unknown_nr, kt_setup_mi210_novm, kt_teardown),
		cmocka_unit_test_setup_teardown(test_get_version_sizes, kt_setup_mi210_novm, kt_teardown),
		cmocka_unit_test_setup_teardown(test_wild_pointers, kt_setup_mi210_novm, kt_teardown),
		cmocka_unit_test_setup_teardown(test_out_args_on_failure, kt_setup_mi210_novm, kt_teardown),
		cmocka_unit_test(test_abi_gating),
		cmocka_unit_test_setup_teardown(test_deprecated_debugger, kt_setup_mi210_novm, kt_teardown),
		cmocka_unit_test_setup_teardown(test_fd_identity, kt_setup_mi210_novm, kt_teardown),
		cmocka_unit_test_setup_teardown(test_fork_ebadf, kt_setup_mi210, kt_teardown),
		cmocka_unit_test_setup_teardown(test_reopen_keeps_state, kt_setup_mi210_novm, kt_teardown),
		cmocka_unit_test_setup_teardown(test_threads, kt_setup_mi210_novm, kt_teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

/* SPDX-License-Identifier: MIT */
/*
 * The recorder, in process, over a kernel stand-in: argument images,
 * indirect buffers (readable, unreadable, clamped, omitted), the topology
 * snapshot, file creation rules, crash and SIGKILL behaviour, threads.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include <kfdtrace/dispatch.h>
#include <kfdtrace/faults.h>
#include <kfdtrace/kfd_abi.h>
#include <kfdtrace/recorder.h>

#include "tc_scratch.h"
#include "tt_trace.h"

/* ---- the kernel stand-in ---- */

#define FAKE_HANDLE 0x0000aaaa00000007ull

static int
fake_kernel(int fd, unsigned long req, void *arg)
{
	switch (KFD_ABI_IOC_NR(req)) {
	case 0x01: {		/* GET_VERSION */
		struct kfd_abi_get_version_args v = { 1, 19 };

		/* Like copy_to_user: a bad pointer is EFAULT, not a crash. */
		if ((uintptr_t)arg < 4096) {
			errno = EFAULT;
			return -1;
		}
		memcpy(arg, &v, sizeof(v));
		return 0;
	}
	case 0x14: {		/* GET_PROCESS_APERTURES_NEW: two GPUs */
		struct kfd_abi_get_process_apertures_new_args *a = arg;
		struct kfd_abi_process_device_apertures *ap =
			(void *)(uintptr_t)a->kfd_process_device_apertures_ptr;

		for (uint32_t i = 0; i < 2 && i < a->num_of_nodes; i++) {
			memset(&ap[i], 0, sizeof(ap[i]));
			ap[i].gpu_id = 0x1000 + i;
			ap[i].gpuvm_base = 0x1000000ull << i;
			ap[i].gpuvm_limit = 0xffffffffffull;
		}
		a->num_of_nodes = 2;
		return 0;
	}
	case 0x16: {		/* ALLOC_MEMORY_OF_GPU */
		struct kfd_abi_alloc_memory_of_gpu_args *a = arg;

		a->handle = FAKE_HANDLE;
		a->mmap_offset = 0x5000;
		return 0;
	}
	case 0x18: {		/* MAP_MEMORY_TO_GPU */
		struct kfd_abi_map_memory_to_gpu_args *a = arg;
		uint32_t ids[8];

		struct iovec l = { ids, 0 }, rem = { NULL, 0 };

		if (a->n_devices > 8) {
			errno = EINVAL;
			return -1;
		}
		/* Read the ids the way the kernel would (copy_from_user). */
		l.iov_len = rem.iov_len = a->n_devices * 4u;
		rem.iov_base = (void *)(uintptr_t)a->device_ids_array_ptr;
		if (process_vm_readv(getpid(), &l, 1, &rem, 1, 0) !=
		    (ssize_t)l.iov_len) {
			errno = EFAULT;
			return -1;
		}
		a->n_success = a->n_devices;
		return 0;
	}
	case 0x1C: {		/* GET_DMABUF_INFO: 5 bytes of metadata */
		struct kfd_abi_get_dmabuf_info_args *a = arg;

		if (a->metadata_size >= 5)
			memcpy((void *)(uintptr_t)a->metadata_ptr, "META!", 5);
		a->metadata_size = 5;
		a->size = 4096;
		return 0;
	}
	default:
		errno = ENOTTY;
		return -1;
	}
}

static int
fake_ioctl(unsigned long req, void *arg)
{
	return kfd_dispatch_via(fake_kernel, 7, KFD_FILE_KFD, req, arg);
}

/* ---- fixtures ---- */

struct fx {
	char *dir;
	char *topo;
	char *trace;
};

static void
write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static int
setup(void **state)
{
	struct fx *fx = calloc(1, sizeof(*fx));
	char *p;

	fx->dir = tt_tmpdir();
	assert_non_null(fx->dir);
	fx->topo = tt_path(fx->dir, "topology");
	assert_int_equal(mkdir(fx->topo, 0755), 0);
	p = tt_path(fx->topo, "nodes");
	assert_int_equal(mkdir(p, 0755), 0);
	free(p);
	p = tt_path(fx->topo, "nodes/1");
	assert_int_equal(mkdir(p, 0755), 0);
	free(p);
	p = tt_path(fx->topo, "nodes/1/gpu_id");
	write_file(p, "4096\n");
	free(p);
	p = tt_path(fx->topo, "nodes/1/properties");
	write_file(p, "cpu_cores_count 0\nsimd_count 416\n");
	free(p);
	p = tt_path(fx->topo, "generation_id");
	write_file(p, "1\n");
	free(p);
	fx->trace = tt_path(fx->dir, "t.kfdtrace");
	*state = fx;
	return 0;
}

static int
teardown(void **state)
{
	struct fx *fx = *state;

	tc_scratch_remove(fx->dir, NULL);
	free(fx->dir);
	free(fx->topo);
	free(fx->trace);
	free(fx);
	return 0;
}

static struct kfd_recorder *
open_rec(struct fx *fx, unsigned int flags, size_t cap)
{
	struct kfd_recorder_opts o = {
		.producer = "tracer-test",
		.flags = flags,
		.buf_cap = cap,
		.topology_root = fx->topo,
	};
	struct kfd_recorder *r = NULL;

	assert_int_equal(kfd_recorder_open(fx->trace, &o, &r), 0);
	assert_int_equal(kfd_recorder_attach(r), 0);
	return r;
}

/* A page nobody can read. */
static void *
bad_page(void)
{
	void *p = mmap(NULL, 4096, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	assert_true(p != MAP_FAILED);
	return p;
}

/* ---- records of ioctls ---- */

static void
issue_basic_ioctls(void *unreadable)
{
	struct kfd_abi_get_version_args v = { 0 };
	struct kfd_abi_process_device_apertures ap[4];
	struct kfd_abi_get_process_apertures_new_args gpa = {
		.kfd_process_device_apertures_ptr = (uintptr_t)ap,
		.num_of_nodes = 4,
	};
	uint32_t ids[2] = { 0x1000, 0x1001 };
	struct kfd_abi_map_memory_to_gpu_args map = {
		.handle = FAKE_HANDLE,
		.device_ids_array_ptr = (uintptr_t)ids,
		.n_devices = 2,
	};
	uint64_t raw = 0x1122334455667788ull;

	assert_int_equal(fake_ioctl(KFD_ABI_IOC_GET_VERSION, &v), 0);
	assert_int_equal(fake_ioctl(KFD_ABI_IOC_GET_PROCESS_APERTURES_NEW, &gpa), 0);
	assert_int_equal(gpa.num_of_nodes, 2);
	assert_int_equal(fake_ioctl(KFD_ABI_IOC_MAP_MEMORY_TO_GPU, &map), 0);
	/* The device id list is unreadable: the kernel says EFAULT, the
	 * recorder says unreadable, and nobody crashes. */
	map.device_ids_array_ptr = (uintptr_t)unreadable;
	map.n_success = 0;
	assert_int_equal(fake_ioctl(KFD_ABI_IOC_MAP_MEMORY_TO_GPU, &map), -1);
	assert_int_equal(errno, EFAULT);
	/* So is the argument struct itself. */
	assert_int_equal(fake_ioctl(KFD_ABI_IOC_GET_VERSION, (void *)16), -1);
	assert_int_equal(errno, EFAULT);
	/* An unknown request is recorded raw. */
	assert_int_equal(fake_ioctl(_IOWR('K', 0x7d, uint64_t), &raw), -1);
	assert_int_equal(errno, ENOTTY);
}

static void
check_basic_trace(struct fx *fx, void *unreadable)
{
	struct tt_trace t;
	const struct tt_rec *r;
	struct stat st;
	char comm[17] = "";
	size_t i;

	assert_int_equal(stat(fx->trace, &st), 0);
	assert_int_equal(st.st_mode & 0777, 0600);
	assert_int_equal(tt_trace_load(fx->trace, &t), 0);
	assert_int_equal(t.end_ret, 0);
	assert_int_equal(t.st.integrity, KT_INTEGRITY_OK);
	assert_string_equal(t.hdr.producer, "tracer-test");
	assert_int_equal(t.hdr.pid, getpid());

	/* The topology comes first: sorted, with contents. */
	assert_true(t.n > 2);
	r = &t.recs[0];
	assert_int_equal(r->r.type, KT_REC_TOPOLOGY);
	assert_int_equal(r->topo_files, 3);
	assert_true(strstr(r->topo_paths[0], "/generation_id") != NULL);
	assert_true(strstr(r->topo_paths[1], "/nodes/1/gpu_id") != NULL);
	assert_true(strstr(r->topo_paths[2], "/nodes/1/properties") != NULL);
	assert_int_equal(r->topo_len[1], 5);
	assert_memory_equal(r->topo_data[1], "4096\n", 5);

	/* Then this thread's name. */
	prctl(PR_GET_NAME, comm, 0, 0, 0);
	r = &t.recs[1];
	assert_int_equal(r->r.type, KT_REC_THREAD_NAME);
	assert_string_equal(r->str, comm);
	assert_int_equal(r->r.tid, (uint32_t)gettid());

	/* Sequence numbers without gaps, in file order here (one thread). */
	for (i = 1; i < t.n; i++)
		if (t.recs[i].r.type != KT_REC_END)
			assert_int_equal(t.recs[i].r.seq, t.recs[i - 1].r.seq + 1);

	assert_int_equal(tt_count(&t, KT_REC_IOCTL), 6);

	r = tt_find_ioctl(&t, "GET_VERSION", 0);
	assert_non_null(r);
	assert_int_equal(r->r.u.ioctl.arg_size, 8);
	assert_int_equal(((uint32_t *)r->arg_before)[1], 0);
	assert_int_equal(((uint32_t *)r->arg_after)[0], 1);
	assert_int_equal(((uint32_t *)r->arg_after)[1], 19);
	assert_int_equal(r->r.u.ioctl.ret, 0);
	assert_true(r->r.u.ioctl.t_exit >= r->r.ts);

	/* Apertures: an OUT buffer sized by the filled count. */
	r = tt_find_ioctl(&t, "GET_PROCESS_APERTURES_NEW", 0);
	assert_non_null(r);
	assert_int_equal(r->r.u.ioctl.nbufs, 1);
	assert_true(r->bufs[0].flags & KT_BUF_AFTER);
	assert_false(r->bufs[0].flags & KT_BUF_BEFORE);
	assert_int_equal(r->bufs[0].len_before,
			 4 * sizeof(struct kfd_abi_process_device_apertures));
	assert_int_equal(r->bufs[0].len_after,
			 2 * sizeof(struct kfd_abi_process_device_apertures));
	assert_int_equal(((struct kfd_abi_process_device_apertures *)
			  r->bufs[0].after)[1].gpu_id, 0x1001);

	/* Map: an IN buffer, before-image only. */
	r = tt_find_ioctl(&t, "MAP_MEMORY_TO_GPU", 0);
	assert_non_null(r);
	assert_int_equal(r->r.u.ioctl.nbufs, 1);
	assert_true(r->bufs[0].flags & KT_BUF_BEFORE);
	assert_int_equal(r->bufs[0].len_before, 8);
	assert_int_equal(((uint32_t *)r->bufs[0].before)[1], 0x1001);
	assert_int_equal(((struct kfd_abi_map_memory_to_gpu_args *)
			  r->arg_after)->n_success, 2);

	r = tt_find_ioctl(&t, "MAP_MEMORY_TO_GPU", 1);
	assert_non_null(r);
	assert_int_equal(r->r.u.ioctl.ret, -1);
	assert_int_equal(r->r.u.ioctl.err, EFAULT);
	assert_int_equal(r->bufs[0].addr, (uintptr_t)unreadable);
	assert_true(r->bufs[0].flags & KT_BUF_UNREADABLE);
	assert_false(r->bufs[0].flags & KT_BUF_BEFORE);
	assert_int_equal(r->bufs[0].len_before, 8);

	/* The unreadable argument struct: no argument bytes. */
	r = tt_find_ioctl(&t, "GET_VERSION", 1);
	assert_non_null(r);
	assert_int_equal(r->r.u.ioctl.arg_size, 0);
	assert_int_equal(r->r.u.ioctl.err, EFAULT);

	/* The raw one. */
	for (i = 0, r = NULL; i < t.n; i++)
		if (t.recs[i].r.type == KT_REC_IOCTL &&
		    t.recs[i].r.u.ioctl.request == _IOWR('K', 0x7d, uint64_t))
			r = &t.recs[i];
	assert_non_null(r);
	assert_int_equal(r->r.u.ioctl.arg_size, 8);
	assert_int_equal(*(uint64_t *)r->arg_before, 0x1122334455667788ull);
	assert_int_equal(r->r.u.ioctl.err, ENOTTY);

	assert_int_equal(t.recs[t.n - 1].r.type, KT_REC_END);
	tt_trace_free(&t);
}

static void
test_records_ioctls_syscall_copy(void **state)
{
	struct fx *fx = *state;
	void *bad = bad_page();
	struct kfd_recorder *r = open_rec(fx, 0, 0);

	issue_basic_ioctls(bad);
	assert_int_equal(kfd_recorder_close(r), 0);
	assert_int_equal(kfd_dispatch_hook_count(), 0);
	check_basic_trace(fx, bad);
	munmap(bad, 4096);
}

/* Same, with the fatal-signal handlers in place: copies are guarded
 * memcpy()s, and a fault in one must be recovered, not fatal. */
static void
test_records_ioctls_guarded_copy(void **state)
{
	struct fx *fx = *state;
	void *bad = bad_page();
	struct kfd_recorder *r = open_rec(fx, KFD_REC_CRASH_HANDLERS, 0);

	issue_basic_ioctls(bad);
	/* Several faults in a row on the same thread. */
	for (int i = 0; i < 3; i++)
		issue_basic_ioctls(bad);
	assert_int_equal(kfd_recorder_close(r), 0);
	{
		struct tt_trace t;

		assert_int_equal(tt_trace_load(fx->trace, &t), 0);
		assert_int_equal(tt_count(&t, KT_REC_IOCTL), 24);
		tt_trace_free(&t);
	}
	unlink(fx->trace);
	r = open_rec(fx, KFD_REC_CRASH_HANDLERS, 0);
	issue_basic_ioctls(bad);
	assert_int_equal(kfd_recorder_close(r), 0);
	check_basic_trace(fx, bad);
	munmap(bad, 4096);
}

static void
test_clamp_and_no_buffers(void **state)
{
	struct fx *fx = *state;
	struct kfd_abi_process_device_apertures ap[4];
	struct kfd_abi_get_process_apertures_new_args gpa = {
		.kfd_process_device_apertures_ptr = (uintptr_t)ap,
		.num_of_nodes = 4,
	};
	char meta[16];
	struct kfd_abi_get_dmabuf_info_args info = {
		.metadata_ptr = (uintptr_t)meta,
		.metadata_size = sizeof(meta),
	};
	uint32_t ids[1] = { 0x1000 };
	struct kfd_abi_map_memory_to_gpu_args map = {
		.handle = 1, .device_ids_array_ptr = (uintptr_t)ids, .n_devices = 1,
	};
	struct kfd_recorder *r;
	struct tt_trace t;
	const struct tt_rec *rec;

	/* A 16-byte cap clamps the 112 bytes of apertures. */
	r = open_rec(fx, KFD_REC_NO_TOPOLOGY, 16);
	assert_int_equal(fake_ioctl(KFD_ABI_IOC_GET_PROCESS_APERTURES_NEW, &gpa), 0);
	assert_int_equal(kfd_recorder_close(r), 0);
	assert_int_equal(tt_trace_load(fx->trace, &t), 0);
	assert_int_equal(tt_count(&t, KT_REC_TOPOLOGY), 0);
	rec = tt_find_ioctl(&t, "GET_PROCESS_APERTURES_NEW", 0);
	assert_non_null(rec);
	assert_true(rec->bufs[0].flags & KT_BUF_CLAMPED);
	assert_int_equal(rec->bufs[0].len_after, 16);
	tt_trace_free(&t);
	unlink(fx->trace);

	/* --no-buffers: the metadata blob is left out, the id list stays. */
	r = open_rec(fx, KFD_REC_NO_BUFFERS | KFD_REC_NO_TOPOLOGY, 0);
	assert_int_equal(fake_ioctl(KFD_ABI_IOC_GET_DMABUF_INFO, &info), 0);
	assert_int_equal(fake_ioctl(KFD_ABI_IOC_MAP_MEMORY_TO_GPU, &map), 0);
	assert_int_equal(kfd_recorder_close(r), 0);
	assert_int_equal(tt_trace_load(fx->trace, &t), 0);
	assert_true(t.hdr.flags & KT_HDR_NO_BUFFERS);
	rec = tt_find_ioctl(&t, "GET_DMABUF_INFO", 0);
	assert_non_null(rec);
	assert_true(rec->bufs[0].flags & KT_BUF_OMITTED);
	assert_null(rec->bufs[0].after);
	assert_int_equal(rec->bufs[0].len_after, 5);
	rec = tt_find_ioctl(&t, "MAP_MEMORY_TO_GPU", 0);
	assert_true(rec->bufs[0].flags & KT_BUF_BEFORE);
	assert_int_equal(*(uint32_t *)rec->bufs[0].before, 0x1000);
	tt_trace_free(&t);
	unlink(fx->trace);

	/* Without it, the metadata is there. */
	r = open_rec(fx, KFD_REC_NO_TOPOLOGY, 0);
	assert_int_equal(fake_ioctl(KFD_ABI_IOC_GET_DMABUF_INFO, &info), 0);
	assert_int_equal(kfd_recorder_close(r), 0);
	assert_int_equal(tt_trace_load(fx->trace, &t), 0);
	assert_false(t.hdr.flags & KT_HDR_NO_BUFFERS);
	rec = tt_find_ioctl(&t, "GET_DMABUF_INFO", 0);
	assert_true(rec->bufs[0].flags & KT_BUF_AFTER);
	assert_memory_equal(rec->bufs[0].after, "META!", 5);
	tt_trace_free(&t);
}

static void
test_injected_fault_is_recorded(void **state)
{
	struct fx *fx = *state;
	struct kfd_abi_alloc_memory_of_gpu_args a = { .size = 4096 };
	struct kfd_faults *f = kfd_faults_new();
	struct kfd_recorder *r = open_rec(fx, KFD_REC_NO_TOPOLOGY, 0);
	struct tt_trace t;

	/* Recorder first, injector second: the recorder sees the failure. */
	assert_int_equal(kfd_faults_parse(f, "ALLOC_MEMORY_OF_GPU:2:ENOMEM"), 0);
	assert_int_equal(kfd_faults_attach(f), 0);
	for (int i = 0; i < 3; i++)
		fake_ioctl(KFD_ABI_IOC_ALLOC_MEMORY_OF_GPU, &a);
	kfd_faults_free(f);
	assert_int_equal(kfd_recorder_close(r), 0);
	assert_int_equal(tt_trace_load(fx->trace, &t), 0);
	assert_int_equal(tt_count_ioctl(&t, "ALLOC_MEMORY_OF_GPU"), 3);
	assert_int_equal(tt_find_ioctl(&t, "ALLOC_MEMORY_OF_GPU", 0)->r.u.ioctl.ret, 0);
	assert_int_equal(tt_find_ioctl(&t, "ALLOC_MEMORY_OF_GPU", 1)->r.u.ioctl.err, ENOMEM);
	assert_int_equal(tt_find_ioctl(&t, "ALLOC_MEMORY_OF_GPU", 2)->r.u.ioctl.ret, 0);
	tt_trace_free(&t);
}

static void
test_file_creation_rules(void **state)
{
	struct fx *fx = *state;
	struct kfd_recorder *r = NULL;
	char *link = tt_path(fx->dir, "link");
	char *target = tt_path(fx->dir, "target");
	struct stat st;
	mode_t old = umask(0);

	/* Never over an existing file, never through a symlink. */
	write_file(fx->trace, "precious");
	assert_int_equal(kfd_recorder_open(fx->trace, NULL, &r), -EEXIST);
	assert_int_equal(symlink(target, link), 0);
	assert_int_equal(kfd_recorder_open(link, NULL, &r), -EEXIST);
	assert_int_equal(lstat(target, &st), -1);
	unlink(fx->trace);
	/* 0600 whatever the umask. */
	assert_int_equal(kfd_recorder_open(fx->trace, NULL, &r), 0);
	assert_int_equal(stat(fx->trace, &st), 0);
	assert_int_equal(st.st_mode & 0777, 0600);
	assert_int_equal(kfd_recorder_close(r), 0);
	umask(old);
	free(link);
	free(target);
}

/* ---- crashes ---- */

/*
 * In a forked child. cmocka catches SIGSEGV and SIGABRT itself (to report
 * a crashing test); the child starts from the defaults a program has.
 */
static void
child_defaults(void)
{
	signal(SIGSEGV, SIG_DFL);
	signal(SIGABRT, SIG_DFL);
	signal(SIGBUS, SIG_DFL);
	signal(SIGILL, SIG_DFL);
	signal(SIGFPE, SIG_DFL);
}

static void
child_record_alloc(struct fx *fx)
{
	struct kfd_abi_alloc_memory_of_gpu_args a = { .size = 8192 };

	open_rec(fx, KFD_REC_CRASH_HANDLERS, 0);
	if (fake_ioctl(KFD_ABI_IOC_ALLOC_MEMORY_OF_GPU, &a))
		_exit(99);
}

static void
check_alloc_survived(struct fx *fx)
{
	struct tt_trace t;
	const struct tt_rec *r;

	assert_int_equal(tt_trace_load(fx->trace, &t), 0);
	r = tt_find_ioctl(&t, "ALLOC_MEMORY_OF_GPU", 0);
	assert_non_null(r);
	assert_int_equal(((struct kfd_abi_alloc_memory_of_gpu_args *)
			  r->arg_after)->handle, FAKE_HANDLE);
	/* No END record: the process died. */
	assert_int_equal(tt_count(&t, KT_REC_END), 0);
	assert_int_not_equal(t.st.integrity, KT_INTEGRITY_OK);
	assert_int_not_equal(t.st.integrity, KT_INTEGRITY_CORRUPT);
	tt_trace_free(&t);
}

static void
test_sigsegv_keeps_last_ioctl(void **state)
{
	struct fx *fx = *state;
	int status;
	pid_t pid = fork();

	if (pid == 0) {
		child_defaults();
		child_record_alloc(fx);
		{
			int *volatile bad = (int *)8;

			*bad = 1;
		}
		_exit(98);
	}
	assert_true(pid > 0);
	assert_int_equal(waitpid(pid, &status, 0), pid);
	/* The default action still happened. */
	assert_true(WIFSIGNALED(status));
	assert_int_equal(WTERMSIG(status), SIGSEGV);
	check_alloc_survived(fx);
}

static void
test_abort_keeps_last_ioctl(void **state)
{
	struct fx *fx = *state;
	int status;
	pid_t pid = fork();

	if (pid == 0) {
		child_defaults();
		child_record_alloc(fx);
		abort();
	}
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFSIGNALED(status));
	assert_int_equal(WTERMSIG(status), SIGABRT);
	check_alloc_survived(fx);
}

static void
app_segv_handler(int sig)
{
	/* The application's own handler must still run, after ours. */
	_exit(42);
}

static void
test_crash_chains_to_app_handler(void **state)
{
	struct fx *fx = *state;
	int status;
	pid_t pid = fork();

	if (pid == 0) {
		child_defaults();
		signal(SIGSEGV, app_segv_handler);
		child_record_alloc(fx);
		{
			int *volatile bad = (int *)8;

			*bad = 1;
		}
		_exit(98);
	}
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), 42);
	check_alloc_survived(fx);
}

static void
test_sigkill_keeps_flushed(void **state)
{
	struct fx *fx = *state;
	struct tt_trace t;
	int status;
	pid_t pid = fork();

	if (pid == 0) {
		struct kfd_abi_get_version_args v = { 0 };

		child_defaults();
		open_rec(fx, KFD_REC_CRASH_HANDLERS, 0);
		for (int i = 0; i < 1000; i++)
			fake_ioctl(KFD_ABI_IOC_GET_VERSION, &v);
		/* Ten times the writer's 100 ms age flush: margin for a
		 * loaded machine. */
		usleep(1000 * 1000);
		raise(SIGKILL);
		_exit(98);
	}
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFSIGNALED(status));
	assert_int_equal(WTERMSIG(status), SIGKILL);
	assert_int_equal(tt_trace_load(fx->trace, &t), 0);
	assert_true(t.st.integrity == KT_INTEGRITY_NO_END ||
		    t.st.integrity == KT_INTEGRITY_TRUNCATED);
	assert_int_equal(tt_count_ioctl(&t, "GET_VERSION"), 1000);
	assert_int_equal(tt_count(&t, KT_REC_END), 0);
	tt_trace_free(&t);
}

/* ---- threads ---- */

#define MT_THREADS 8
#define MT_CALLS 20000

static int
quick_kernel(int fd, unsigned long req, void *arg)
{
	struct kfd_abi_get_version_args *v = arg;

	v->major_version = 1;
	return 0;
}

static void *
mt_thread(void *p)
{
	for (int i = 0; i < MT_CALLS; i++) {
		/* The iteration rides in the argument bytes, so the reader
		 * can check each thread's order. */
		struct kfd_abi_get_version_args v = { 0, (uint32_t)i };

		kfd_dispatch_via(quick_kernel, 7, KFD_FILE_KFD,
				 KFD_ABI_IOC_GET_VERSION, &v);
	}
	return NULL;
}

static int
cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static void
test_threads_every_record_once(void **state)
{
	struct fx *fx = *state;
	struct kfd_recorder *r = open_rec(fx, KFD_REC_NO_TOPOLOGY, 0);
	pthread_t th[MT_THREADS];
	struct tt_trace t;
	uint64_t *seqs;
	uint32_t tids[MT_THREADS] = { 0 };
	uint32_t next[MT_THREADS] = { 0 };
	size_t n = 0;

	for (int i = 0; i < MT_THREADS; i++)
		assert_int_equal(pthread_create(&th[i], NULL, mt_thread, NULL), 0);
	for (int i = 0; i < MT_THREADS; i++)
		pthread_join(th[i], NULL);
	assert_int_equal(kfd_recorder_close(r), 0);

	assert_int_equal(tt_trace_load(fx->trace, &t), 0);
	assert_int_equal(t.st.integrity, KT_INTEGRITY_OK);
	seqs = calloc(t.n, sizeof(*seqs));
	for (size_t i = 0; i < t.n; i++) {
		const struct tt_rec *rec = &t.recs[i];
		int slot;

		if (rec->r.type == KT_REC_END)
			continue;
		seqs[n++] = rec->r.seq;
		if (rec->r.type != KT_REC_IOCTL)
			continue;
		for (slot = 0; slot < MT_THREADS; slot++)
			if (!tids[slot] || tids[slot] == rec->r.tid)
				break;
		assert_true(slot < MT_THREADS);
		tids[slot] = rec->r.tid;
		/* Per-thread order kept: iterations come 0, 1, 2, ... */
		assert_int_equal(((uint32_t *)rec->arg_before)[1], next[slot]);
		next[slot]++;
	}
	for (int i = 0; i < MT_THREADS; i++)
		assert_int_equal(next[i], MT_CALLS);
	/* Every sequence number exactly once, no gaps. */
	qsort(seqs, n, sizeof(*seqs), cmp_u64);
	for (size_t i = 1; i < n; i++)
		assert_int_equal(seqs[i], seqs[i - 1] + 1);
	assert_int_equal(tt_count(&t, KT_REC_IOCTL), MT_THREADS * MT_CALLS);
	assert_int_equal(tt_count(&t, KT_REC_THREAD_NAME), MT_THREADS);
	free(seqs);
	tt_trace_free(&t);
}

static int
slow_kernel(int fd, unsigned long req, void *arg)
{
	usleep(1500 * 1000);
	return 0;
}

static void *
slow_thread(void *p)
{
	struct kfd_abi_get_version_args v = { 0 };

	kfd_dispatch_via(slow_kernel, 7, KFD_FILE_KFD, KFD_ABI_IOC_GET_VERSION, &v);
	return NULL;
}

/* A thread blocked in the kernel must not hold up closing (exit). */
static void
test_close_while_blocked(void **state)
{
	struct fx *fx = *state;
	struct kfd_recorder *r = open_rec(fx, KFD_REC_NO_TOPOLOGY, 0);
	pthread_t th;
	uint64_t t0;

	assert_int_equal(pthread_create(&th, NULL, slow_thread, NULL), 0);
	usleep(50 * 1000);
	t0 = kfd_dispatch_now();
	assert_int_equal(kfd_recorder_close(r), 0);
	assert_true(kfd_dispatch_now() - t0 < 1000 * 1000000ull);
	pthread_join(th, NULL);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_records_ioctls_syscall_copy, setup, teardown),
		cmocka_unit_test_setup_teardown(test_records_ioctls_guarded_copy, setup, teardown),
		cmocka_unit_test_setup_teardown(test_clamp_and_no_buffers, setup, teardown),
		cmocka_unit_test_setup_teardown(test_injected_fault_is_recorded, setup, teardown),
		cmocka_unit_test_setup_teardown(test_file_creation_rules, setup, teardown),
		cmocka_unit_test_setup_teardown(test_sigsegv_keeps_last_ioctl, setup, teardown),
		cmocka_unit_test_setup_teardown(test_abort_keeps_last_ioctl, setup, teardown),
		cmocka_unit_test_setup_teardown(test_crash_chains_to_app_handler, setup, teardown),
		cmocka_unit_test_setup_teardown(test_sigkill_keeps_flushed, setup, teardown),
		cmocka_unit_test_setup_teardown(test_threads_every_record_once, setup, teardown),
		cmocka_unit_test_setup_teardown(test_close_while_blocked, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

/* SPDX-License-Identifier: MIT */
/*
 * The capture library end to end: `kfdtrace record --sim` runs our small
 * KFD application (kt_workload) and rocminfo on kfdsim, and the traces are
 * read back and compared with what the programs did. Forks and execs are
 * test_capture_exec.c (test capture-exec), the tracer under hostile
 * program behaviour test_torture.c; the fixture is tt_capture.h.
 *
 * Paths come from the environment (tests/tracer/meson.build): KT_KFDTRACE,
 * KT_WORKLOAD, KFDTRACE_CAPTURE_LIB, KFDTRACE_SIM_LIB and KT_ROCMINFO
 * (Debian's rocminfo, "" without one). Without a kfdtrace binary or
 * kfdsim library every test here is skipped.
 */
#include <dirent.h>
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include <kfdtrace/kfd_abi.h>
#include <kfdtrace/schema.h>
#include <kfdtrace/trace.h>

#include "tc_scratch.h"
#include "tc_text.h"
#include "tt_capture.h"

static void
test_basic(void **state)
{
	struct tt_cx *cx = *state;
	const char *args[] = { getenv("KT_WORKLOAD"), "basic", NULL };
	struct tt_trace t;
	const struct tt_rec *r, *kfd_open = NULL, *drm_open = NULL;
	int status;
	size_t i;

	tt_need_tools();
	status = tt_record(cx, NULL, NULL, args);
	if (!tt_exited(status, 0))
		tt_show_log(cx);
	assert_true(tt_exited(status, 0));
	assert_int_equal(tt_trace_load(cx->out, &t), 0);
	assert_int_equal(t.st.integrity, KT_INTEGRITY_OK);
	assert_true(t.hdr.flags & KT_HDR_SIMULATED);
	assert_false(t.hdr.flags & KT_HDR_NO_BUFFERS);
	assert_string_equal(t.hdr.producer, "kfdtrace-capture");
	tt_check_counts(cx, &t, t.hdr.pid);
	assert_true(tt_count_ioctl(&t, "GET_VERSION") >= 2);

	/* The topology heads the trace, as the simulator served it. */
	r = &t.recs[0];
	assert_int_equal(r->r.type, KT_REC_TOPOLOGY);
	assert_true(r->topo_files > 3);
	for (i = 0; i < r->topo_files; i++)
		if (strstr(r->topo_paths[i], "/topology/nodes/1/gpu_id"))
			break;
	assert_true(i < r->topo_files);

	for (i = 0; i < t.n; i++) {
		r = &t.recs[i];
		if (r->r.type != KT_REC_OPEN)
			continue;
		if (r->r.u.open.file_kind == KFD_FILE_KFD && !kfd_open)
			kfd_open = r;
		if (r->r.u.open.file_kind == KFD_FILE_RENDER && !drm_open)
			drm_open = r;
	}
	assert_non_null(kfd_open);
	assert_string_equal(kfd_open->str, "/dev/kfd");
	assert_true(kfd_open->r.u.open.ret >= 0);
	assert_non_null(drm_open);
	assert_true(strncmp(drm_open->str, "/dev/dri/renderD", 16) == 0);

	/* ACQUIRE_VM names the render fd the trace saw opened. */
	r = tt_find_ioctl(&t, "ACQUIRE_VM", 0);
	assert_non_null(r);
	assert_int_equal(((struct kfd_abi_acquire_vm_args *)r->arg_before)->drm_fd,
			 drm_open->r.u.open.ret);
	assert_int_equal(r->r.u.ioctl.fd, kfd_open->r.u.open.ret);

	/* ALLOC's handle comes back out, and FREE hands it in. */
	r = tt_find_ioctl(&t, "ALLOC_MEMORY_OF_GPU", 0);
	assert_non_null(r);
	uint64_t handle = ((struct kfd_abi_alloc_memory_of_gpu_args *)
			   r->arg_after)->handle;
	assert_true(handle != 0);
	r = tt_find_ioctl(&t, "FREE_MEMORY_OF_GPU", 0);
	assert_int_equal(((struct kfd_abi_free_memory_of_gpu_args *)
			  r->arg_before)->handle, handle);

	/* MAP's device list, read through its pointer. */
	r = tt_find_ioctl(&t, "MAP_MEMORY_TO_GPU", 0);
	assert_int_equal(r->r.u.ioctl.nbufs, 1);
	assert_true(r->bufs[0].flags & KT_BUF_BEFORE);
	assert_int_equal(r->bufs[0].len_before, 4);
	assert_int_equal(*(uint32_t *)r->bufs[0].before, (uint32_t)(handle >> 32));

	/* The mapping through the render node, and its unmap. */
	r = tt_find_type(&t, KT_REC_MMAP, 0);
	assert_non_null(r);
	assert_int_equal(r->r.u.mmap.fd, drm_open->r.u.open.ret);
	assert_int_equal(r->r.u.mmap.file_kind, KFD_FILE_RENDER);
	assert_int_equal(r->r.u.mmap.len, 64 << 10);
	r = tt_find_type(&t, KT_REC_MUNMAP, 0);
	assert_non_null(r);
	assert_int_equal(r->r.u.munmap.len, 64 << 10);

	/* dup, and closes of device fds only. */
	r = tt_find_type(&t, KT_REC_DUP, 0);
	assert_non_null(r);
	assert_int_equal(r->r.u.dup.oldfd, kfd_open->r.u.open.ret);
	assert_int_equal(tt_count(&t, KT_REC_CLOSE), 3);

	/* The raw request on the kfd fd. */
	for (i = 0, r = NULL; i < t.n; i++)
		if (t.recs[i].r.type == KT_REC_IOCTL &&
		    KFD_ABI_IOC_NR(t.recs[i].r.u.ioctl.request) == 0x7f)
			r = &t.recs[i];
	assert_non_null(r);
	assert_int_equal(r->r.u.ioctl.ret, -1);
	assert_int_equal(r->r.u.ioctl.arg_size, 8);
	tt_trace_free(&t);

	/* kfdtrace dump reads it, names and all. */
	{
		const char *dump[] = { getenv("KT_KFDTRACE"), "dump", cx->out, NULL };
		char *dlog = tt_path(cx->dir, "dump.txt");
		char buf[1 << 16];
		ssize_t n;
		int fd;

		status = tt_run((char *const *)dump, NULL, dlog);
		if (WIFEXITED(status) && WEXITSTATUS(status) == 0) {
			fd = open(dlog, O_RDONLY);
			assert_true(fd >= 0);
			n = read(fd, buf, sizeof(buf) - 1);
			close(fd);
			assert_true(n > 0);
			buf[n] = '\0';
			assert_non_null(strcasestr(buf, "alloc_memory_of_gpu"));
			assert_non_null(strcasestr(buf, "acquire_vm"));
		} else {
			print_message("kfdtrace dump is not available yet\n");
		}
		free(dlog);
	}
}

static void
test_no_buffers(void **state)
{
	struct tt_cx *cx = *state;
	const char *args[] = { getenv("KT_WORKLOAD"), "basic", NULL };
	const char *extra[] = { "--no-buffers", NULL };
	struct tt_trace t;

	tt_need_tools();
	assert_true(tt_exited(tt_record(cx, extra, NULL, args), 0));
	assert_int_equal(tt_trace_load(cx->out, &t), 0);
	assert_true(t.hdr.flags & KT_HDR_NO_BUFFERS);
	/* Structured buffers stay. */
	assert_true(tt_find_ioctl(&t, "MAP_MEMORY_TO_GPU", 0)->bufs[0].flags &
		    KT_BUF_BEFORE);
	tt_trace_free(&t);
}

/*
 * 16 threads x 50,000 ioctls: streamed through the reader (a copy of
 * 800,000 records would be needlessly large).
 */
#define TH_N 16
#define TH_CALLS 50000

static void
test_threads(void **state)
{
	struct tt_cx *cx = *state;
	const char *args[] = { getenv("KT_WORKLOAD"), "threads", "16", "50000", NULL };
	struct kt_reader *rd;
	struct kt_record rec;
	struct {
		uint32_t tid;
		unsigned long n;
		int named;
		uint64_t last_ts;
	} th[TH_N + 4];
	uint8_t *seen;
	uint64_t maxseq = 0, records = 0;
	unsigned int nth = 0;
	int ret;

	tt_need_tools();
	memset(th, 0, sizeof(th));
	assert_true(tt_exited(tt_record(cx, NULL, NULL, args), 0));
	/* Sequence numbers are dense: a bitmap of twice the records. */
	seen = calloc(4 * TH_N * TH_CALLS, 1);
	assert_int_equal(kt_reader_open(cx->out, &rd), 0);
	while ((ret = kt_reader_next(rd, &rec)) == 1) {
		unsigned int s;

		if (rec.type == KT_REC_END)
			continue;
		records++;
		assert_true(rec.seq < 4ull * TH_N * TH_CALLS);
		assert_int_equal(seen[rec.seq], 0);	/* exactly once */
		seen[rec.seq] = 1;
		if (rec.seq > maxseq)
			maxseq = rec.seq;
		if (rec.type != KT_REC_IOCTL && rec.type != KT_REC_THREAD_NAME)
			continue;
		for (s = 0; s < nth; s++)
			if (th[s].tid == rec.tid)
				break;
		if (s == nth) {
			if (rec.type == KT_REC_IOCTL &&
			    KFD_ABI_IOC_NR(rec.u.ioctl.request) == 0x01 &&
			    nth == 0) {
				/* not a worker: fine, tracked like one */
			}
			assert_true(nth < TH_N + 4);
			th[nth++].tid = rec.tid;
		}
		if (rec.type == KT_REC_THREAD_NAME) {
			if (!strncmp(rec.u.thread_name.name, "kt-w", 4))
				th[s].named = 1;
			continue;
		}
		/* Per thread: GET_VERSION, GET_CLOCK_COUNTERS, ... in order. */
		assert_int_equal(KFD_ABI_IOC_NR(rec.u.ioctl.request),
				 (th[s].n & 1) ? 0x05 : 0x01);
		assert_true(rec.ts >= th[s].last_ts);
		th[s].last_ts = rec.ts;
		th[s].n++;
	}
	assert_int_equal(ret, 0);
	kt_reader_close(rd);
	/* No gaps below the highest sequence number. */
	for (uint64_t i = 0; i <= maxseq; i++)
		if (!seen[i] && i > 0)
			fail_msg("sequence number %llu missing", (unsigned long long)i);
	{
		unsigned int workers = 0;

		for (unsigned int s = 0; s < nth; s++) {
			if (th[s].n == TH_CALLS) {
				workers++;
				assert_true(th[s].named);
			}
		}
		assert_int_equal(workers, TH_N);
	}
	assert_int_equal(tt_counted(cx, 0, "GET_VERSION"), TH_N * TH_CALLS / 2);
	assert_true(records > TH_N * TH_CALLS);
	free(seen);
}


static void
test_rocminfo(void **state)
{
	struct tt_cx *cx = *state;
	const char *args[] = { getenv("KT_ROCMINFO"), NULL };
	static const char *const expect[] = {
		"GET_VERSION", "GET_PROCESS_APERTURES_NEW", "ACQUIRE_VM",
		"ALLOC_MEMORY_OF_GPU", "MAP_MEMORY_TO_GPU", "GET_CLOCK_COUNTERS",
	};
	/* No heap here: the sanitizer stage lets this test fail midway. */
	char count[PATH_MAX], var[PATH_MAX + 32], *env[2] = { var, NULL };
	uint64_t answered;
	struct tt_trace t;
	size_t unknown = 0;
	int status;

	tt_need_tools();
	if (!args[0] || !*args[0] || access(args[0], X_OK)) {
		print_message("rocminfo is not installed\n");
		skip();
	}
	snprintf(count, sizeof(count), "%s/count", cx->dir);
	snprintf(var, sizeof(var), "KFDSIM_IOCTL_COUNT=%s", count);
	status = tt_record(cx, NULL, env, args);
	answered = tt_device_count(count);
	if (!tt_exited(status, 0))
		tt_show_log(cx);
	assert_true(tt_exited(status, 0));
	assert_int_equal(tt_trace_load(cx->out, &t), 0);
	assert_int_equal(t.st.integrity, KT_INTEGRITY_OK);
	/* Every ioctl the device answered, to rocminfo's very end. */
	assert_int_equal(tt_count(&t, KT_REC_IOCTL), answered);
	for (size_t i = 0; i < sizeof(expect) / sizeof(expect[0]); i++)
		if (!tt_count_ioctl(&t, expect[i]))
			fail_msg("rocminfo's trace has no %s", expect[i]);
	/* Every KFD ioctl it made decodes by the schema. */
	for (size_t i = 0; i < t.n; i++)
		if (t.recs[i].r.type == KT_REC_IOCTL &&
		    t.recs[i].r.u.ioctl.file_kind == KFD_FILE_KFD &&
		    !strcmp(tt_ioctl_name(&t.recs[i]), "?"))
			unknown++;
	assert_int_equal(unknown, 0);
	tt_trace_free(&t);
}

/* kfdtrace record itself: exit statuses, no clobbering, no empty traces. */
static void
test_record_cli(void **state)
{
	struct tt_cx *cx = *state;
	const char *t[] = { "/bin/true", NULL };
	const char *f[] = { "/bin/false", NULL };
	const char *sh[] = { "/bin/sh", "-c", "exit 7", NULL };
	char buf[16] = "";
	int fd;

	tt_need_tools();
	/* A program that never opens a device leaves no trace. */
	assert_true(tt_exited(tt_record(cx, NULL, NULL, t), 0));
	assert_int_equal(access(cx->out, F_OK), -1);
	assert_true(tt_exited(tt_record(cx, NULL, NULL, f), 1));
	assert_true(tt_exited(tt_record(cx, NULL, NULL, sh), 7));
	/* An existing output is never overwritten. */
	fd = open(cx->out, O_WRONLY | O_CREAT | O_EXCL, 0644);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, "mine", 4), 4);
	close(fd);
	assert_true(tt_exited(tt_record(cx, NULL, NULL, t), 1));
	fd = open(cx->out, O_RDONLY);
	assert_int_equal(read(fd, buf, sizeof(buf)), 4);
	close(fd);
	assert_string_equal(buf, "mine");
	/* -f replaces it: here with no trace, as /bin/true opens no device. */
	{
		const char *force[] = { "-f", NULL };

		assert_true(tt_exited(tt_record(cx, force, NULL, t), 0));
		assert_int_equal(access(cx->out, F_OK), -1);
	}
	/* A command that does not exist: 127, as from a shell. */
	{
		const char *none[] = { "/nonexistent/program", NULL };

		assert_true(tt_exited(tt_record(cx, NULL, NULL, none), 127));
	}
	/*
	 * An output that cannot be created, or a profile that does not
	 * exist, is refused before the program runs (it would make
	 * "ran" in the scratch directory).
	 */
	{
		char *ran = tt_path(cx->dir, "ran");
		char *touch;
		const char *bad_out[] = { getenv("KT_KFDTRACE"), "record", "--sim",
					  "-o", "/nonexistent-dir/x.kfdtrace",
					  "--", "/bin/sh", "-c", NULL, NULL };
		const char *bad_sim[] = { getenv("KT_KFDTRACE"), "record",
					  "--sim=no-such-profile", "-o", cx->out,
					  "--", "/bin/sh", "-c", NULL, NULL };
		char *log;
		size_t len;

		assert_true(asprintf(&touch, "touch %s", ran) > 0);
		bad_out[8] = touch;
		bad_sim[8] = touch;
		unlink(cx->log);
		assert_true(tt_exited(tt_run((char *const *)bad_out, NULL, cx->log), 1));
		log = tc_read_file(cx->log, &len);
		assert_non_null(log);
		assert_non_null(strstr(log, "cannot create the trace "
				       "/nonexistent-dir/x.kfdtrace"));
		assert_null(strstr(log, "opened no KFD"));
		free(log);
		unlink(cx->log);
		assert_true(tt_exited(tt_run((char *const *)bad_sim, NULL, cx->log), 1));
		log = tc_read_file(cx->log, &len);
		assert_non_null(strstr(log, "--sim=no-such-profile"));
		free(log);
		assert_int_equal(access(ran, F_OK), -1);
		free(touch);
		free(ran);
	}
}

/* ---- the library exports only what it interposes ---- */

static const char *const allowed_exports[] = {
	"open", "open64", "openat", "openat64", "__open_2", "__open64_2",
	"__openat_2", "__openat64_2", "close", "close_range", "closefrom", "dup", "dup2",
	"dup3", "fcntl", "fcntl64", "ioctl", "mmap", "mmap64", "munmap",
	"fork", "vfork", "clone", "execve", "execv", "execvp", "execvpe", "execl",
	"execlp", "execle", "fexecve", "_exit", "_Exit", "pthread_setname_np",
	"sigaction", "signal", "sendmsg", "recvmsg", "sendmmsg", "recvmmsg",
};

static void
test_exports(void **state)
{
	const char *lib = tt_env_path("KFDTRACE_CAPTURE_LIB");
	const Elf64_Ehdr *eh;
	const Elf64_Shdr *sh;
	struct stat st;
	unsigned int defined = 0;
	uint8_t *map;
	int fd;

	if (!lib)
		skip();
	fd = open(lib, O_RDONLY);
	assert_true(fd >= 0);
	assert_int_equal(fstat(fd, &st), 0);
	map = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	assert_true(map != MAP_FAILED);
	close(fd);
	eh = (const Elf64_Ehdr *)map;
	assert_memory_equal(eh->e_ident, ELFMAG, SELFMAG);
	sh = (const Elf64_Shdr *)(map + eh->e_shoff);
	for (unsigned int i = 0; i < eh->e_shnum; i++) {
		const Elf64_Sym *sym;
		const char *strtab;

		if (sh[i].sh_type != SHT_DYNSYM)
			continue;
		sym = (const Elf64_Sym *)(map + sh[i].sh_offset);
		strtab = (const char *)(map + sh[sh[i].sh_link].sh_offset);
		for (size_t j = 0; j < sh[i].sh_size / sizeof(*sym); j++) {
			const char *name = strtab + sym[j].st_name;
			size_t k;

			if (sym[j].st_shndx == SHN_UNDEF || !*name ||
			    ELF64_ST_TYPE(sym[j].st_info) == STT_SECTION)
				continue;
			/* The API-span wrappers (tracer/api): tested there. */
			if (!strncmp(name, "hsaKmt", 6))
				continue;
			for (k = 0; k < sizeof(allowed_exports) / sizeof(allowed_exports[0]); k++)
				if (!strcmp(name, allowed_exports[k]))
					break;
			if (k == sizeof(allowed_exports) / sizeof(allowed_exports[0]))
				fail_msg("libkfdtrace-capture.so exports %s", name);
			defined++;
		}
	}
	assert_int_equal(defined, sizeof(allowed_exports) / sizeof(allowed_exports[0]));
	munmap(map, (size_t)st.st_size);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_exports),
		cmocka_unit_test_setup_teardown(test_basic, tt_cx_setup, tt_cx_teardown),
		cmocka_unit_test_setup_teardown(test_no_buffers, tt_cx_setup, tt_cx_teardown),
		cmocka_unit_test_setup_teardown(test_threads, tt_cx_setup, tt_cx_teardown),
		cmocka_unit_test_setup_teardown(test_rocminfo, tt_cx_setup, tt_cx_teardown),
		cmocka_unit_test_setup_teardown(test_record_cli, tt_cx_setup, tt_cx_teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

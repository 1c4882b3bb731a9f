/* SPDX-License-Identifier: MIT */
/*
 * The kfd lttng-ust provider, end to end.
 *
 *   test_lttng provider	the library alone: its ABI, one tracepoint per
 *				schema row, a bad KFDTRACE_LTTNG_LIB
 *   test_lttng session		with a session daemon (started here when none
 *				runs, stopped at the end): a workload on kfdsim
 *				under the capture library, read back with
 *				babeltrace2 and held against what the workload
 *				itself saw; edge cases fed to the hooks
 *				directly; kfdtrace record --lttng across a fork
 *
 * Environment (set by meson): KFDTRACE_LTTNG_LIB, KFDTRACE_CAPTURE_LIB,
 * KFDTRACE_SIM_LIB, LT_WORKLOAD, and KT_KFDTRACE when the CLI is built.
 * The session group exits 77 (skipped) when lttng-sessiond, lttng or
 * babeltrace2 are not installed.
 */
#include <dlfcn.h>
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include <kfdtrace/decode.h>
#include <kfdtrace/kfd_abi.h>
#include <kfdtrace/lttng.h>
#include <kfdtrace/schema.h>

#include "lt_session.h"

static struct lt_env env;
static unsigned int session_seq;

static const char *
need_env(const char *name)
{
	const char *v = getenv(name);

	if (!v || !*v) {
		print_message("%s is not set\n", name);
		fail();
	}
	return v;
}

/* ---- the workload's report ---- */

struct report {
	char text[4096];
};

static int
run_workload(const char *mode, char *const *extra_env, const char *out,
	     const char *err, struct report *r)
{
	char preload[1024];
	char *envv[16];
	char *argv[] = { (char *)need_env("LT_WORKLOAD"), (char *)mode, NULL };
	int n = 0, ret;
	FILE *f;

	snprintf(preload, sizeof(preload), "LD_PRELOAD=%s:%s",
		 need_env("KFDTRACE_CAPTURE_LIB"), need_env("KFDTRACE_SIM_LIB"));
	envv[n++] = preload;
	for (int i = 0; extra_env && extra_env[i] && n < 15; i++)
		envv[n++] = extra_env[i];
	envv[n] = NULL;
	ret = lt_run(argv, envv, out, err);
	memset(r, 0, sizeof(*r));
	f = fopen(out, "r");
	if (f) {
		size_t len = fread(r->text, 1, sizeof(r->text) - 1, f);

		r->text[len] = '\0';
		fclose(f);
	}
	return ret;
}

/* The value of "key=value" in a report, or "" (never NULL). */
static const char *
rep(const struct report *r, const char *key, char *buf, size_t size)
{
	size_t kl = strlen(key);
	const char *p = r->text;

	buf[0] = '\0';
	while (p && *p) {
		if (!strncmp(p, key, kl) && p[kl] == '=') {
			snprintf(buf, size, "%.*s", (int)strcspn(p + kl + 1, "\n"),
				 p + kl + 1);
			break;
		}
		p = strchr(p, '\n');
		if (p)
			p++;
	}
	return buf;
}

/*
 * The err field as babeltrace2 prints it: an enumeration of errno names
 * (the decoder's, "OK" for 0), the value of report key @key.
 */
static const char *
rep_errno(const struct report *r, const char *key, char *buf, size_t size)
{
	const char *name;
	int e;

	rep(r, key, buf, size);
	e = atoi(buf);
	name = e ? kfd_errno_name(e) : "OK";
	snprintf(buf, size, "%s", name ? name : "unnamed");
	return buf;
}

/* A gpu_id as babeltrace2 prints it: hex, as the schema's role wants. */
static const char *
rep_hex(const struct report *r, const char *key, char *buf, size_t size)
{
	rep(r, key, buf, size);
	snprintf(buf, size, "0x%llX", strtoull(buf, NULL, 0));
	return buf;
}

static void
show_file(const char *path)
{
	FILE *f = fopen(path, "r");
	char line[1024];

	if (!f)
		return;
	while (fgets(line, sizeof(line), f))
		print_message("| %s", line);
	fclose(f);
}

/* ---- trace helpers ---- */

struct trace {
	char **lines;
	size_t n;
};

static const char *
find_event(const struct trace *t, const char *event, unsigned int nth)
{
	for (size_t i = 0; i < t->n; i++)
		if (lt_is_event(t->lines[i], event) && nth-- == 0)
			return t->lines[i];
	return NULL;
}

static unsigned int
count_events(const struct trace *t, const char *event)
{
	unsigned int n = 0;

	for (size_t i = 0; i < t->n; i++)
		n += lt_is_event(t->lines[i], event);
	return n;
}

static void
dump_trace(const struct trace *t)
{
	for (size_t i = 0; i < t->n; i++)
		print_message("trace: %s\n", t->lines[i]);
}

/* Assert that @line has field @name equal to @want. */
static void
expect_field(const struct trace *t, const char *line, const char *name,
	     const char *want)
{
	char buf[256];

	if (!line) {
		dump_trace(t);
		fail_msg("event missing (wanted %s = %s)", name, want);
	}
	if (!lt_field(line, name, buf, sizeof(buf)) || strcmp(buf, want)) {
		print_message("line: %s\n", line);
		fail_msg("%s: got %s, want %s", name,
			 lt_field(line, name, buf, sizeof(buf)) ? buf : "(none)",
			 want);
	}
}

static void
new_session(char *name, size_t nsize, char *out, size_t osize)
{
	snprintf(name, nsize, "kfdlt-%d-%u", (int)getpid(), session_seq);
	snprintf(out, osize, "%s/trace-%u", env.dir, session_seq);
	session_seq++;
	if (lt_session_begin(&env, name, out, NULL, 0)) {
		lt_show_log(&env);
		fail_msg("cannot start an lttng session");
	}
}

static void
end_session(const char *name, const char *out, struct trace *t)
{
	if (lt_session_end(&env, name)) {
		lt_show_log(&env);
		fail_msg("cannot stop the lttng session");
	}
	t->lines = lt_read_trace(&env, out, &t->n);
	if (!t->lines) {
		lt_show_log(&env);
		fail_msg("babeltrace2 could not read %s", out);
	}
}

/* ---- provider group ---- */

static void *
open_provider(void)
{
	void *h = dlopen(need_env("KFDTRACE_LTTNG_LIB"), RTLD_NOW | RTLD_LOCAL);

	if (!h)
		fail_msg("dlopen: %s", dlerror());
	return h;
}

static void
test_provider_abi(void **state)
{
	void *h = open_provider();
	kfd_lttng_provider_fn get;
	const struct kfd_lttng_provider *p;

	*(void **)&get = dlsym(h, KFD_LTTNG_PROVIDER_SYMBOL);
	assert_non_null(get);
	p = get(KFD_LTTNG_ABI);
	assert_non_null(p);
	assert_int_equal(p->abi, KFD_LTTNG_ABI);
	assert_non_null(p->hooks);
	assert_non_null(p->hooks->before);
	assert_non_null(p->hooks->after);
	assert_non_null(p->mmap);
	assert_non_null(p->munmap);
	assert_non_null(p->submit);
	/* A loader from another build is turned away. */
	assert_null(get(KFD_LTTNG_ABI + 1));
	assert_null(get(0));
}

/* Every schema row (and the fixed events) has its tracepoint. */
static void
test_every_row_has_an_event(void **state)
{
	static const char *const fixed[] = {
		"ioctl_enter", "ioctl_exit", "mmap", "munmap", "submit",
	};
	void *h = open_provider();
	const struct kfd_ioctl_desc *rows;
	unsigned int n;
	char sym[256];

	rows = kfd_schema_rows(&n);
	assert_true(n > 40);
	for (unsigned int i = 0; i < n; i++) {
		snprintf(sym, sizeof(sym), "lttng_ust_tracepoint_kfd___%s",
			 rows[i].event_name);
		if (!dlsym(h, sym))
			fail_msg("no tracepoint kfd:%s for %s", rows[i].event_name,
				 rows[i].name);
	}
	for (size_t i = 0; i < sizeof(fixed) / sizeof(fixed[0]); i++) {
		snprintf(sym, sizeof(sym), "lttng_ust_tracepoint_kfd___%s", fixed[i]);
		assert_non_null(dlsym(h, sym));
	}
}

/* A provider that cannot be loaded is reported; the program runs on. */
static void
test_bad_provider_path(void **state)
{
	char dir[] = "/tmp/kfdtrace-lt-bad-XXXXXX";
	char out[128], err[128], trace[128], kenv[160], buf[64], line[512];
	char *extra[] = { "KFDTRACE_LTTNG=1",
			  "KFDTRACE_LTTNG_LIB=/nonexistent/libkfdtrace-lttng.so",
			  kenv, NULL };
	struct report r;
	struct stat st;
	FILE *f;
	int said = 0;

	assert_non_null(mkdtemp(dir));
	snprintf(out, sizeof(out), "%s/out", dir);
	snprintf(err, sizeof(err), "%s/err", dir);
	snprintf(trace, sizeof(trace), "%s/w.kfdtrace", dir);
	snprintf(kenv, sizeof(kenv), "KFDTRACE_OUTPUT=%s", trace);
	if (run_workload("basic", extra, out, err, &r) != 0) {
		show_file(err);
		fail_msg("the workload failed");
	}
	assert_string_equal(rep(&r, "lttng_ust", buf, sizeof(buf)), "0");
	f = fopen(err, "r");
	assert_non_null(f);
	while (fgets(line, sizeof(line), f))
		said += strstr(line, "lttng provider cannot be loaded") != NULL;
	fclose(f);
	assert_int_equal(said, 1);
	/* The trace file is still written. */
	assert_int_equal(stat(trace, &st), 0);
	assert_true(st.st_size > 0);
	unlink(out);
	unlink(err);
	unlink(trace);
	rmdir(dir);
}

/*
 * The provider is loaded at the first device event: a process that never
 * opens a KFD or render node does not get liblttng-ust, even with
 * KFDTRACE_LTTNG=1, and leaves no trace file.
 */
static void
test_not_loaded_before_device(void **state)
{
	char dir[] = "/tmp/kfdtrace-lt-idle-XXXXXX";
	char out[128], err[128], trace[128], kenv[160], buf[64];
	char *extra[] = { "KFDTRACE_LTTNG=1", kenv, NULL };
	struct report r;

	assert_non_null(mkdtemp(dir));
	snprintf(out, sizeof(out), "%s/out", dir);
	snprintf(err, sizeof(err), "%s/err", dir);
	snprintf(trace, sizeof(trace), "%s/w.kfdtrace", dir);
	snprintf(kenv, sizeof(kenv), "KFDTRACE_OUTPUT=%s", trace);
	if (run_workload("idle", extra, out, err, &r) != 0) {
		show_file(err);
		fail_msg("the workload failed");
	}
	assert_string_equal(rep(&r, "lttng_ust", buf, sizeof(buf)), "0");
	assert_int_equal(access(trace, F_OK), -1);
	unlink(out);
	unlink(err);
	rmdir(dir);
}

/* ---- session group ---- */

/*
 * A workload on kfdsim under the capture library: one event per ioctl,
 * with the values the workload itself saw.
 */
static void
test_capture_decodes_calls(void **state)
{
	char name[64], out[300], rout[300], rerr[300], kenv[340], buf[128];
	char want[128], gpu[32], handle[64], drm[16], kfd[16];
	char *extra[] = { "KFDTRACE_LTTNG=1", kenv, NULL };
	const char *l;
	struct report r;
	struct trace t;
	struct stat st;
	unsigned int ioctl_events = 0;

	new_session(name, sizeof(name), out, sizeof(out));
	snprintf(rout, sizeof(rout), "%s/basic.out", env.dir);
	snprintf(rerr, sizeof(rerr), "%s/basic.err", env.dir);
	snprintf(kenv, sizeof(kenv), "KFDTRACE_OUTPUT=%s/basic.kfdtrace", env.dir);
	if (run_workload("basic", extra, rout, rerr, &r) != 0) {
		show_file(rerr);
		fail_msg("the workload failed");
	}
	end_session(name, out, &t);

	assert_string_equal(rep(&r, "lttng_ust", buf, sizeof(buf)), "1");
	rep_hex(&r, "gpu_id", gpu, sizeof(gpu));
	rep(&r, "handle", handle, sizeof(handle));
	rep(&r, "drm_fd", drm, sizeof(drm));
	rep(&r, "kfd_fd", kfd, sizeof(kfd));
	assert_true(strlen(gpu) > 0 && strcmp(gpu, "0x0"));
	assert_true(strlen(handle) > 2 && strcmp(handle, "0x0"));

	l = find_event(&t, "kfd:get_version", 0);
	expect_field(&t, l, "fd", kfd);
	expect_field(&t, l, "major_version", "1");
	expect_field(&t, l, "minor_version", rep(&r, "minor", buf, sizeof(buf)));
	expect_field(&t, l, "ret", "0");

	l = find_event(&t, "kfd:acquire_vm", 0);
	expect_field(&t, l, "drm_fd", drm);
	expect_field(&t, l, "gpu_id", gpu);

	/* In-fields from the before-image, out-fields from the after-image. */
	l = find_event(&t, "kfd:alloc_memory_of_gpu", 0);
	expect_field(&t, l, "fd", kfd);
	expect_field(&t, l, "size", "4096");
	expect_field(&t, l, "gpu_id", gpu);
	expect_field(&t, l, "va_addr", rep(&r, "va", buf, sizeof(buf)));
	snprintf(want, sizeof(want), "0x%X", KFD_ABI_ALLOC_MEM_FLAGS_VRAM |
		 KFD_ABI_ALLOC_MEM_FLAGS_WRITABLE);
	expect_field(&t, l, "flags", want);
	expect_field(&t, l, "handle", handle);
	expect_field(&t, l, "ret", "0");
	expect_field(&t, l, "err", "OK");

	l = find_event(&t, "kfd:map_memory_to_gpu", 0);
	expect_field(&t, l, "handle", handle);
	expect_field(&t, l, "n_devices", "1");
	expect_field(&t, l, "n_success", rep(&r, "n_success", buf, sizeof(buf)));
	l = find_event(&t, "kfd:unmap_memory_from_gpu", 0);
	expect_field(&t, l, "handle", handle);
	l = find_event(&t, "kfd:free_memory_of_gpu", 0);
	expect_field(&t, l, "handle", handle);
	expect_field(&t, l, "ret", "0");

	/* The GTT buffer's mapping through the render node. */
	l = find_event(&t, "kfd:alloc_memory_of_gpu", 1);
	expect_field(&t, l, "mmap_offset", rep(&r, "map_offset", buf, sizeof(buf)));
	l = find_event(&t, "kfd:mmap", 0);
	expect_field(&t, l, "fd", drm);
	expect_field(&t, l, "kind", "render");
	expect_field(&t, l, "len", "4096");
	expect_field(&t, l, "offset", rep(&r, "map_offset", buf, sizeof(buf)));
	expect_field(&t, l, "result", rep(&r, "map_addr", buf, sizeof(buf)));
	l = find_event(&t, "kfd:munmap", 0);
	expect_field(&t, l, "addr", rep(&r, "map_addr", buf, sizeof(buf)));
	expect_field(&t, l, "ret", "0");

	/* A failed call carries its errno. */
	l = find_event(&t, "kfd:free_memory_of_gpu", 2);
	expect_field(&t, l, "handle", "0x777700000000");
	expect_field(&t, l, "ret", "-1");
	expect_field(&t, l, "err", rep_errno(&r, "bad_free_errno", buf, sizeof(buf)));

	/* A request the schema does not know: enter and exit. */
	l = find_event(&t, "kfd:ioctl_enter", 0);
	expect_field(&t, l, "request", rep(&r, "unknown_request", buf, sizeof(buf)));
	expect_field(&t, l, "kind", "kfd");
	expect_field(&t, l, "size", "8");
	l = find_event(&t, "kfd:ioctl_exit", 0);
	expect_field(&t, l, "request", rep(&r, "unknown_request", buf, sizeof(buf)));
	expect_field(&t, l, "ret", "-1");
	expect_field(&t, l, "err", rep_errno(&r, "unknown_errno", buf, sizeof(buf)));

	/* Enums print their names. */
	l = find_event(&t, "kfd:create_event", 0);
	expect_field(&t, l, "event_type", "SIGNAL");
	expect_field(&t, l, "event_id", rep(&r, "event_id", buf, sizeof(buf)));

	/* One event per ioctl: the unknown one is the enter/exit pair. */
	for (size_t i = 0; i < t.n; i++)
		ioctl_events += strstr(t.lines[i], " kfd:") &&
				!lt_is_event(t.lines[i], "kfd:mmap") &&
				!lt_is_event(t.lines[i], "kfd:munmap") &&
				!lt_is_event(t.lines[i], "kfd:ioctl_enter");
	snprintf(buf, sizeof(buf), "%u", ioctl_events);
	if (strcmp(buf, rep(&r, "ioctls", want, sizeof(want)))) {
		dump_trace(&t);
		fail_msg("%s ioctl events, the workload issued %s", buf, want);
	}
	assert_int_equal(count_events(&t, "kfd:mmap"), 1);
	assert_int_equal(count_events(&t, "kfd:munmap"), 1);

	/* The trace file was written as well. */
	snprintf(rout, sizeof(rout), "%s/basic.kfdtrace", env.dir);
	assert_int_equal(stat(rout, &st), 0);
	assert_true(st.st_size > 0);
	lt_free_lines(t.lines);
}

static const struct kfd_lttng_provider *
provider_here(void)
{
	void *h = open_provider();
	kfd_lttng_provider_fn get;
	const struct kfd_lttng_provider *p;

	*(void **)&get = dlsym(h, KFD_LTTNG_PROVIDER_SYMBOL);
	assert_non_null(get);
	p = get(KFD_LTTNG_ABI);
	assert_non_null(p);
	return p;
}

/*
 * Without KFDTRACE_LTTNG, liblttng-ust is not even loaded and the session
 * gets nothing from the workload; a marker this process emits shows that
 * the session itself was recording.
 */
static void
test_no_lttng_without_env(void **state)
{
	char name[64], out[300], rout[300], rerr[300], kenv[340], buf[16];
	char me[16];
	char *extra[] = { kenv, NULL };
	const struct kfd_lttng_provider *p = provider_here();
	struct report r;
	struct trace t;

	new_session(name, sizeof(name), out, sizeof(out));
	snprintf(rout, sizeof(rout), "%s/quiet.out", env.dir);
	snprintf(rerr, sizeof(rerr), "%s/quiet.err", env.dir);
	snprintf(kenv, sizeof(kenv), "KFDTRACE_OUTPUT=%s/quiet.kfdtrace", env.dir);
	if (run_workload("basic", extra, rout, rerr, &r) != 0) {
		show_file(rerr);
		fail_msg("the workload failed");
	}
	p->munmap(0x1234000, 4096, 0, 0);
	p->submit(3, 0xab12, 1, 7, 7, (const uint8_t[64]){ 2 }, 64);
	end_session(name, out, &t);
	assert_string_equal(rep(&r, "lttng_ust", buf, sizeof(buf)), "0");
	snprintf(me, sizeof(me), "%d", (int)getpid());
	assert_int_equal(count_events(&t, "kfd:munmap"), 1);
	assert_int_equal(count_events(&t, "kfd:submit"), 1);
	for (size_t i = 0; i < t.n; i++) {
		if (!strstr(t.lines[i], " kfd:"))
			continue;
		if (!lt_field(t.lines[i], "vpid", buf, sizeof(buf)) ||
		    strcmp(buf, me))
			fail_msg("an event without KFDTRACE_LTTNG: %s", t.lines[i]);
	}
	lt_free_lines(t.lines);
}

/*
 * The hooks fed directly (this process registers with the daemon): a
 * request shorter than the row's struct, unreadable arguments, a union
 * row, an injected result, and the mmap/munmap entry points.
 */
static void
test_hooks_edge_cases(void **state)
{
	const struct kfd_lttng_provider *p = provider_here();
	struct kfd_dispatch_call c;
	unsigned char before[96], after[96];
	char name[64], out[300];
	const char *l;
	struct trace t;
	uint32_t v32;
	uint64_t v64;

	new_session(name, sizeof(name), out, sizeof(out));

	/* CREATE_QUEUE as an ABI < 1.17 caller issues it: 88 bytes. The
	 * bytes past them are not the call's and must not show. */
	memset(&c, 0, sizeof(c));
	memset(before, 0xee, sizeof(before));
	memset(after, 0xee, sizeof(after));
	v32 = 0x1234;
	memcpy(before + 36, &v32, 4);		/* gpu_id */
	memcpy(after + 36, &v32, 4);
	v32 = 77;
	memcpy(after + 52, &v32, 4);		/* queue_id, out */
	c.fd = 5;
	c.kind = KFD_FILE_KFD;
	c.desc = kfd_schema_by_name("CREATE_QUEUE");
	assert_non_null(c.desc);
	c.request = c.desc->request;
	c.arg_size = 88;
	c.arg = after;
	c.arg_before = before;
	c.t_enter = 1000;
	c.t_exit = 1500;
	p->hooks->before(NULL, &c, NULL);
	p->hooks->after(NULL, &c, NULL);

	/* ALLOC with unreadable arguments: reported as kfd:ioctl_exit. */
	memset(&c, 0, sizeof(c));
	c.fd = 6;
	c.kind = KFD_FILE_KFD;
	c.desc = kfd_schema_by_name("ALLOC_MEMORY_OF_GPU");
	assert_non_null(c.desc);
	c.request = c.desc->request;
	c.arg_size = 40;
	c.flags = KFD_CALL_ARG_UNREADABLE;
	c.ret = -1;
	c.err = EFAULT;
	p->hooks->before(NULL, &c, NULL);
	p->hooks->after(NULL, &c, NULL);

	/* DBG_TRAP: the op names the union arm; the bytes come raw. */
	memset(&c, 0, sizeof(c));
	memset(before, 0, sizeof(before));
	v32 = 4242;
	memcpy(before, &v32, 4);		/* pid */
	v64 = 0xabcdef;
	memcpy(before + 8, &v64, 8);
	c.fd = 7;
	c.kind = KFD_FILE_KFD;
	c.desc = kfd_schema_by_name("DBG_TRAP");
	assert_non_null(c.desc);
	c.request = c.desc->request;
	c.arg_size = c.desc->args->size;
	c.arg = before;
	c.arg_before = before;
	c.ret = 0;
	c.flags = KFD_CALL_INJECTED;
	p->hooks->after(NULL, &c, NULL);

	p->mmap(0, 8192, 3, 1, 9, KFD_FILE_KFD, 0xdead0000, 0x7f0000001000, 0);
	p->munmap(0x7f0000001000, 8192, -1, EINVAL);

	end_session(name, out, &t);

	l = find_event(&t, "kfd:create_queue", 0);
	expect_field(&t, l, "fd", "5");
	expect_field(&t, l, "gpu_id", "0x1234");
	expect_field(&t, l, "queue_id", "77");
	expect_field(&t, l, "sdma_engine_id", "0");
	expect_field(&t, l, "dur_ns", "500");
	assert_int_equal(count_events(&t, "kfd:ioctl_enter"), 0);

	l = find_event(&t, "kfd:ioctl_exit", 0);
	expect_field(&t, l, "fd", "6");
	expect_field(&t, l, "ret", "-1");
	expect_field(&t, l, "err", "EFAULT");
	assert_int_equal(count_events(&t, "kfd:alloc_memory_of_gpu"), 0);

	l = find_event(&t, "kfd:dbg_trap", 0);
	expect_field(&t, l, "pid", "4242");
	expect_field(&t, l, "op", "ENABLE");
	expect_field(&t, l, "_args_length", "32");

	l = find_event(&t, "kfd:mmap", 0);
	expect_field(&t, l, "fd", "9");
	expect_field(&t, l, "len", "8192");
	expect_field(&t, l, "offset", "0xDEAD0000");
	expect_field(&t, l, "result", "0x7F0000001000");
	l = find_event(&t, "kfd:munmap", 0);
	expect_field(&t, l, "ret", "-1");
	expect_field(&t, l, "err", "EINVAL");
	lt_free_lines(t.lines);
}

/*
 * kfdtrace record --lttng: events from both sides of a fork, each with its
 * own vpid (liblttng-ust-fork.so is preloaded), and the trace files.
 */
static void
test_record_lttng_follows_fork(void **state)
{
	char name[64], out[300], rout[300], rerr[300], tfile[300], buf[32];
	char ppid[16], cpid[16], vpid[16];
	char *argv[] = { NULL, "record", "--sim", "--lttng", "-o", tfile,
			 "--", NULL, "fork", NULL };
	unsigned int parent = 0, child = 0;
	struct trace t;
	struct report r;
	struct stat st;
	FILE *f;
	size_t len;

	argv[0] = getenv("KT_KFDTRACE");
	if (!argv[0] || !*argv[0]) {
		print_message("kfdtrace is not built\n");
		skip();
	}
	argv[7] = (char *)need_env("LT_WORKLOAD");
	snprintf(tfile, sizeof(tfile), "%s/rec.kfdtrace", env.dir);
	snprintf(rout, sizeof(rout), "%s/fork.out", env.dir);
	snprintf(rerr, sizeof(rerr), "%s/fork.err", env.dir);
	new_session(name, sizeof(name), out, sizeof(out));
	if (lt_run(argv, NULL, rout, rerr) != 0) {
		show_file(rerr);
		fail_msg("kfdtrace record --lttng failed");
	}
	end_session(name, out, &t);

	f = fopen(rout, "r");
	assert_non_null(f);
	len = fread(r.text, 1, sizeof(r.text) - 1, f);
	r.text[len] = '\0';
	fclose(f);
	rep(&r, "parent_pid", ppid, sizeof(ppid));
	rep(&r, "child_pid", cpid, sizeof(cpid));
	assert_string_equal(rep(&r, "lttng_ust", buf, sizeof(buf)), "1");
	assert_true(strlen(ppid) > 0 && strlen(cpid) > 0);
	for (size_t i = 0; i < t.n; i++) {
		if (!lt_is_event(t.lines[i], "kfd:get_version"))
			continue;
		assert_non_null(lt_field(t.lines[i], "vpid", vpid, sizeof(vpid)));
		parent += !strcmp(vpid, ppid);
		child += !strcmp(vpid, cpid);
	}
	if (parent != 1 || child != 1) {
		dump_trace(&t);
		fail_msg("GET_VERSION events: %u from the parent %s, %u from the child %s",
			 parent, ppid, child, cpid);
	}
	/* Both processes' trace files too. */
	assert_int_equal(stat(tfile, &st), 0);
	/* The child's: STEM.<pid>.kfdtrace. */
	snprintf(tfile, sizeof(tfile), "%s/rec.%s.kfdtrace", env.dir, cpid);
	assert_int_equal(stat(tfile, &st), 0);
	lt_free_lines(t.lines);
}

static int
session_setup(void **state)
{
	return lt_env_up(&env, "test") ? -1 : 0;
}

static int
session_teardown(void **state)
{
	lt_env_down(&env);
	return 0;
}

int
main(int argc, char **argv)
{
	const struct CMUnitTest provider[] = {
		cmocka_unit_test(test_provider_abi),
		cmocka_unit_test(test_every_row_has_an_event),
		cmocka_unit_test(test_bad_provider_path),
		cmocka_unit_test(test_not_loaded_before_device),
	};
	const struct CMUnitTest session[] = {
		cmocka_unit_test(test_capture_decodes_calls),
		cmocka_unit_test(test_no_lttng_without_env),
		cmocka_unit_test(test_hooks_edge_cases),
		cmocka_unit_test(test_record_lttng_follows_fork),
	};
	int ret;

	if (argc == 2 && !strcmp(argv[1], "provider"))
		return cmocka_run_group_tests_name("lttng-provider", provider,
						   NULL, NULL);
	if (argc != 2 || strcmp(argv[1], "session")) {
		fprintf(stderr, "usage: test_lttng provider|session\n");
		return 2;
	}
	if (!lt_tools_present()) {
		printf("lttng-sessiond, lttng or babeltrace2 is not installed\n");
		return 77;
	}
	ret = cmocka_run_group_tests_name("lttng-session", session,
					  session_setup, session_teardown);
	/* Whatever happened, the daemon we started is gone. */
	lt_env_down(&env);
	return ret;
}

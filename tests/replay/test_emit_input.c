/* SPDX-License-Identifier: MIT */
/*
 * kfdtrace emit-c on traces written to attack it (the real writer, no
 * capture):
 *  - hostile text in every string a trace carries (header fields, the
 *    trace's own file name, open paths, exec path and argv, thread names,
 *    annotations): comment ends, newlines, ESC, quotes, backslashes,
 *    "??/", invalid UTF-8, and a constructor that would create a marker
 *    file (alone in the exe, where the program would build, and among
 *    the rest). The program builds under gcc -Wall -Wextra -Werror, holds
 *    no raw control byte and no "??", and building and running it
 *    creates no marker;
 *  - an element array of 320 bytes: copied from data, its gpu ids
 *    translated one by one;
 *  - a large buffer (the same 4 MiB twice) among 400 exec records with
 *    1 MiB of argv each: emit-c's peak memory stays under a bound set by
 *    its window, not by the trace; the program is at most 4 bytes per
 *    buffer byte (the buffer stored once) and gcc compiles it;
 *  - waits on one event, with sets numbered around them as the capture
 *    appends records at return: without ages, a second set that entered
 *    while a wait was being woken, and a set numbered after a wait that
 *    found the event signalled already; with ages, two sets that entered
 *    while a wait was being woken. Each gives the next wait its signal or
 *    age, so the program stands in for no GPU interrupt, and it runs on
 *    kfdsim with every result as captured.
 * Needs gcc (EMIT_GCC); without it the test skips, or fails under CI=true.
 */
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "kfdtrace/kfd_abi.h"
#include "kfdtrace/schema.h"
#include "kfdtrace/trace.h"
#include "rp_test.h"
#include "tc_rec.h"

static const char *kfdtrace, *gcc;

/* The buffer of the large trace, and how many exec records with how much argv. */
#define BIG_BUF		(4u << 20)
#define NEXEC		400
#define ARGV_BYTES	(1u << 20)
/*
 * emit-c's peak memory on the large trace, which has over 400 MiB of
 * records: it holds what ordering needs of each record, the records a
 * move passes (none here), one record and its block's text (a few times
 * the largest record) and the reader's window.
 */
#define PEAK_MAX_KIB	(24L * BIG_BUF / 1024)

static void
put(struct kt_writer *w, struct kt_record *r, uint64_t *seq, uint64_t *ts)
{
	r->seq = (*seq)++;
	r->ts = *ts;
	if (r->type == KT_REC_IOCTL)
		r->u.ioctl.t_exit = *ts + 500;
	*ts += 1000;
	if (!r->tid)
		r->tid = 100;
	assert_int_equal(kt_writer_append(w, r), 0);
}

/* A record of @type with only its text set (@s, or @argv of @n bytes). */
static void
put_text(struct kt_writer *w, int type, const char *s, const char *argv,
	 uint32_t n, uint64_t *seq, uint64_t *ts)
{
	struct kt_record r;

	memset(&r, 0, sizeof(r));
	r.type = (uint8_t)type;
	switch (type) {
	case KT_REC_EXEC:
		r.u.exec.path = s;
		r.u.exec.argv = argv;
		r.u.exec.argv_len = n;
		break;
	case KT_REC_THREAD_NAME:
		r.u.thread_name.name = s;
		break;
	case KT_REC_ANNOTATION:
		r.u.annotation.text = s;
		break;
	}
	put(w, &r, seq, ts);
}

/* A trace opening /dev/kfd as fd 3 with header @hdr; its writer. */
static struct kt_writer *
start(const char *path, const struct kt_header *hdr, uint64_t *seq, uint64_t *ts)
{
	struct kt_writer *w;
	struct kt_record r = tc_rec_open("/dev/kfd", KFD_FILE_KFD, 3);

	assert_int_equal(kt_writer_open(path, hdr, NULL, &w), 0);
	*ts = hdr->start_monotonic + 1000;
	put(w, &r, seq, ts);
	return w;
}

/* GET_VERSION on fd 3, answered as kfdsim answers it. */
static void
put_version(struct kt_writer *w, uint64_t *seq, uint64_t *ts)
{
	struct kfd_abi_get_version_args v = { .major_version = 1,
					      .minor_version = 14 };
	struct kt_record r = tc_rec_ioctl(3, KFD_FILE_KFD, KFD_ABI_IOC_GET_VERSION,
					  &(struct kfd_abi_get_version_args){ 0 },
					  &v, sizeof(v), 0, 0);

	put(w, &r, seq, ts);
}

/* Every byte of @path is printable ASCII, a tab or a newline; no "??". */
static void
check_plain(const char *path)
{
	FILE *f = fopen(path, "rb");
	long off = 0;
	int c, prev = 0;

	assert_non_null(f);
	while ((c = fgetc(f)) != EOF) {
		if (!(c == '\n' || c == '\t' || (c >= 0x20 && c < 0x7f)))
			fail_msg("%s: raw byte 0x%02x at offset %ld", path, c, off);
		if (c == '?' && prev == '?')
			fail_msg("%s: \"??\" at offset %ld", path, off - 1);
		prev = c;
		off++;
	}
	fclose(f);
}

/*
 * Into @buf: a string that, were it written raw into a comment, would end
 * it and define a constructor creating the marker file (its path into
 * @mark). Return: its length.
 */
static size_t
make_ctor(char *buf, size_t len, char *mark, size_t mlen)
{
	size_t n;

	snprintf(mark, mlen, "%s", tmp("marker"));
	n = (size_t)snprintf(buf, len, "*/ int open(const char *, int, ...); "
			     "__attribute__((constructor)) static void kt_p(void) "
			     "{ open(\"%s\", 0101, 0644); } /*", mark);
	assert_true(n < len);
	return n;
}

/*
 * emit-c of @trace into NAME.c: only printable text; gcc -Wall -Wextra
 * -Werror builds it; it runs on kfdsim (exit 0, or 1 at a difference);
 * the marker exists at no point.
 */
static void
build_and_run(const char *trace, const char *name, const char *mark)
{
	char c[4200], bin[4200];
	int st;

	snprintf(c, sizeof(c), "%s/%s.c", dir, name);
	snprintf(bin, sizeof(bin), "%s/%s", dir, name);
	expect_ok(RUN(kfdtrace, "emit-c", trace, "-o", c));
	expect_out("wrote ");
	expect_ok(RUN(gcc, "-pthread", "-Wall", "-Wextra", "-Werror", "-o", bin, c));
	assert_int_not_equal(access(mark, F_OK), 0);
	st = RUN(kfdtrace, "sim", "--", bin);
	if (st != 0 && st != 1) {
		fputs(out, stderr);
		fail_msg("%s exited %d", bin, st);
	}
	assert_int_not_equal(access(mark, F_OK), 0);
	check_plain(c);
}

/* Only the exe is hostile: the program builds either way. */
static void
test_constructor(void **state)
{
	char mark[4200], trace[4200];
	struct kt_header hdr;
	struct kt_writer *w;
	uint64_t seq = 0, ts;
	size_t n;

	(void)state;
	kt_header_init(&hdr, "kfdtrace-test");
	hdr.kfd_major = 1;
	hdr.kfd_minor = 14;
	hdr.flags = KT_HDR_SIMULATED;
	n = make_ctor(hdr.exe, sizeof(hdr.exe), mark, sizeof(mark));
	assert_true(n < sizeof(hdr.exe));
	snprintf(trace, sizeof(trace), "%s", tmp("ctor.kft"));
	w = start(trace, &hdr, &seq, &ts);
	put_version(w, &seq, &ts);
	assert_int_equal(kt_writer_close(w), 0);
	build_and_run(trace, "ctor", mark);
	unlink(mark);
}

static void
test_hostile_strings(void **state)
{
	char ctor[256], trace[4200], mark[4200], argv[512];
	const char *bad = "*/\n\x1b[31m\"\\?\?/\xff\xfe\xc3(/*?\?=\x01";
	struct kt_header hdr;
	struct kt_writer *w;
	struct kt_record r;
	uint64_t seq = 0, ts;
	size_t n;

	(void)state;
	n = make_ctor(ctor, sizeof(ctor), mark, sizeof(mark));
	kt_header_init(&hdr, "kfdtrace-test");
	hdr.kfd_major = 1;
	hdr.kfd_minor = 14;
	hdr.flags = KT_HDR_SIMULATED;
	memcpy(hdr.exe, ctor, n + 1);
	snprintf(hdr.host, sizeof(hdr.host), "h%s", bad);
	snprintf(hdr.kernel_release, sizeof(hdr.kernel_release), "k%s", bad);
	n = (size_t)snprintf(hdr.cmdline, sizeof(hdr.cmdline), "%s%c%s", ctor, 0, bad);
	hdr.cmdline_len = (uint32_t)n + 1;
	/* The trace's own name is written into the program too. */
	snprintf(trace, sizeof(trace), "%s/t*", dir);
	assert_int_equal(mkdir(trace, 0700), 0);
	snprintf(trace, sizeof(trace), "%s/t*/\n\x1b?\?)\xff.kft", dir);
	w = start(trace, &hdr, &seq, &ts);
	put_version(w, &seq, &ts);
	/* A render node path is a string of the program; another, a comment. */
	r = tc_rec_open("/dev/dri/renderD128 */\"\\?\?/\x1b\n\xff", KFD_FILE_RENDER, 4);
	put(w, &r, &seq, &ts);
	r = tc_rec_open(bad, KFD_FILE_UNKNOWN, 5);
	put(w, &r, &seq, &ts);
	n = (size_t)snprintf(argv, sizeof(argv), "%s%c%s%c", ctor, 0, bad, 0);
	put_text(w, KT_REC_EXEC, bad, argv, (uint32_t)n, &seq, &ts);
	put_text(w, KT_REC_THREAD_NAME, bad, NULL, 0, &seq, &ts);
	put_text(w, KT_REC_ANNOTATION, ctor, NULL, 0, &seq, &ts);
	put_version(w, &seq, &ts);
	assert_int_equal(kt_writer_close(w), 0);

	build_and_run(trace, "hostile", mark);
}

/* The large trace at @trace: the same buffer twice among NEXEC big execs. */
static void
write_large(const char *trace)
{
	struct kfd_abi_dbg_wave_control_args a = { .content_ptr = 0x7f0000100000ull,
						   .buf_size_in_bytes = BIG_BUF };
	struct kt_buf_image img = { .index = 0, .addr = a.content_ptr,
				    .flags = KT_BUF_BEFORE, .len_before = BIG_BUF };
	struct kt_header hdr;
	struct kt_writer *w;
	struct kt_record r;
	uint64_t seq = 0, ts, x = 0x9e3779b97f4a7c15ull;
	uint8_t *buf = malloc(BIG_BUF);
	char *argv = malloc(ARGV_BYTES);
	unsigned int i;

	assert_non_null(buf);
	assert_non_null(argv);
	for (i = 0; i < BIG_BUF; i++) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		buf[i] = (uint8_t)x;
	}
	/* Arguments of 4 KiB each. */
	memset(argv, 'a', ARGV_BYTES);
	for (i = 4095; i < ARGV_BYTES; i += 4096)
		argv[i] = '\0';
	img.before = buf;
	kt_header_init(&hdr, "kfdtrace-test");
	hdr.kfd_major = 1;
	hdr.kfd_minor = 14;
	w = start(trace, &hdr, &seq, &ts);
	put_version(w, &seq, &ts);
	for (i = 0; i < 2; i++) {
		r = tc_rec_ioctl(3, KFD_FILE_KFD, KFD_ABI_IOC_DBG_WAVE_CONTROL, &a, &a,
				 sizeof(a), -1, 22);
		r.u.ioctl.bufs = &img;
		r.u.ioctl.nbufs = 1;
		put(w, &r, &seq, &ts);
	}
	for (i = 0; i < NEXEC; i++)
		put_text(w, KT_REC_EXEC, "/bin/sh", argv, ARGV_BYTES, &seq, &ts);
	put_version(w, &seq, &ts);
	assert_int_equal(kt_writer_close(w), 0);
	free(buf);
	free(argv);
}

static void
test_large(void **state)
{
	char trace[4200], c[4200], obj[4200];
	struct tc_timing t;
	struct stat sb;
	pid_t pid;
	int st;

	(void)state;
	snprintf(trace, sizeof(trace), "%s", tmp("large.kft"));
	/*
	 * Written by a child: a child's peak memory counts its parent's
	 * pages at the fork, which the writer's would inflate.
	 */
	pid = fork();
	assert_true(pid >= 0);
	if (!pid) {
		write_large(trace);
		_exit(0);
	}
	assert_int_equal(waitpid(pid, &st, 0), pid);
	assert_int_equal(st, 0);

	snprintf(c, sizeof(c), "%s", tmp("large.c"));
	snprintf(obj, sizeof(obj), "%s", tmp("large.o"));
	assert_int_equal(tc_run_timed((char *const[]){ (char *)kfdtrace, "emit-c",
						       trace, "-o", c, NULL },
				      "/dev/null", &t), 0);
	print_message("emit-c: peak %ld KiB\n", t.max_rss_kib);
	if (t.max_rss_kib > PEAK_MAX_KIB)
		fail_msg("emit-c's peak memory %ld KiB exceeds %ld KiB", t.max_rss_kib,
			 PEAK_MAX_KIB);
	assert_int_equal(stat(c, &sb), 0);
	print_message("program: %lld bytes for a %u-byte buffer\n",
		      (long long)sb.st_size, BIG_BUF);
	assert_true(sb.st_size <= 4LL * BIG_BUF + (1LL << 20));
	check_plain(c);
	expect_ok(RUN(gcc, "-pthread", "-Wall", "-Wextra", "-Werror", "-c", "-o", obj, c));
}

/* Whether file @path holds @needle. */
static int
has(const char *path, const char *needle)
{
	FILE *f = fopen(path, "rb");
	char *text;
	long n;
	int found;

	assert_non_null(f);
	assert_int_equal(fseek(f, 0, SEEK_END), 0);
	n = ftell(f);
	rewind(f);
	text = malloc((size_t)n + 1);
	assert_non_null(text);
	assert_int_equal(fread(text, 1, (size_t)n, f), (size_t)n);
	fclose(f);
	text[n] = '\0';
	found = strstr(text, needle) != NULL;
	free(text);
	return found;
}

/*
 * An element array of 256 bytes or more (80 gpu ids): data copied in,
 * then each gpu id translated by the runtime; gcc builds it.
 */
static void
test_element_data(void **state)
{
	struct kfd_abi_map_memory_to_gpu_args m = { .handle = 0xab1200000001ull,
						    .device_ids_array_ptr = 0x7ffd00002000ull,
						    .n_devices = 80, .n_success = 0 };
	uint32_t ids[80];
	struct kt_buf_image img = { .flags = KT_BUF_BEFORE, .addr = m.device_ids_array_ptr,
				    .len_before = sizeof(ids), .before = (const uint8_t *)ids };
	char trace[4200], c[4200], obj[4200];
	struct kt_header hdr;
	struct kt_writer *w;
	struct kt_record r;
	uint64_t seq = 0, ts;
	unsigned int i;

	(void)state;
	for (i = 0; i < 80; i++)
		ids[i] = 0xab12 + i;
	kt_header_init(&hdr, "kfdtrace-test");
	hdr.kfd_major = 1;
	hdr.kfd_minor = 14;
	snprintf(trace, sizeof(trace), "%s", tmp("elems.kft"));
	w = start(trace, &hdr, &seq, &ts);
	r = tc_rec_ioctl(3, KFD_FILE_KFD, KFD_ABI_IOC_MAP_MEMORY_TO_GPU, &m, &m,
			 sizeof(m), -1, 22);
	r.u.ioctl.bufs = &img;
	r.u.ioctl.nbufs = 1;
	put(w, &r, &seq, &ts);
	assert_int_equal(kt_writer_close(w), 0);
	snprintf(c, sizeof(c), "%s", tmp("elems.c"));
	snprintf(obj, sizeof(obj), "%s", tmp("elems.o"));
	expect_ok(RUN(kfdtrace, "emit-c", trace, "-o", c));
	assert_true(has(c, "memcpy(b0, d0, 320);"));
	assert_true(has(c, "b0[79]."));
	assert_true(has(c, "rr_gpu(0xab61)"));
	check_plain(c);
	expect_ok(RUN(gcc, "-pthread", "-Wall", "-Wextra", "-Werror", "-c", "-o", obj, c));
}

/* A call of thread @tid entered at @t0 and returned at @t1, numbered @seq. */
static void
put_at(struct kt_writer *w, struct kt_record *r, uint32_t tid, uint64_t seq,
       uint64_t t0, uint64_t t1)
{
	r->seq = seq;
	r->ts = t0;
	r->tid = tid;
	r->u.ioctl.t_exit = t1;
	assert_int_equal(kt_writer_append(w, r), 0);
}

static void
put_set(struct kt_writer *w, uint64_t seq, uint64_t t0, uint64_t t1)
{
	struct kfd_abi_set_event_args a = { .event_id = 1 };
	struct kt_record r = tc_rec_ioctl(3, KFD_FILE_KFD, KFD_ABI_IOC_SET_EVENT,
					  &a, &a, sizeof(a), 0, 0);

	put_at(w, &r, 100, seq, t0, t1);
}

/*
 * A wait of thread 101 for event 1 that completed: without ages when
 * @age_in is 0, else passing @age_in and getting @age_out back (KFD 1.14).
 */
static void
put_wait(struct kt_writer *w, uint64_t seq, uint64_t t0, uint64_t t1,
	 uint64_t age_in, uint64_t age_out)
{
	struct kfd_abi_event_data ev = { .event_id = 1 }, ev_out = ev;
	struct kfd_abi_wait_events_args a = {
		.events_ptr = 0x10000, .num_events = 1, .wait_for_all = 1,
		.timeout = 1000,
	};
	struct kt_buf_image img = {
		.flags = KT_BUF_BEFORE | KT_BUF_AFTER, .addr = 0x10000, .len_before = sizeof(ev),
		.len_after = sizeof(ev), .before = (const uint8_t *)&ev,
		.after = (const uint8_t *)&ev_out,
	};
	struct kt_record r;

	ev.signal_event_data.last_event_age = age_in;
	ev_out.signal_event_data.last_event_age = age_out;
	r = tc_rec_ioctl(3, KFD_FILE_KFD, KFD_ABI_IOC_WAIT_EVENTS, &a, &a, sizeof(a),
			 0, 0);

	r.u.ioctl.bufs = &img;
	r.u.ioctl.nbufs = 1;
	put_at(w, &r, 101, seq, t0, t1);
}

/*
 * Event 1 created, sets and waits as @order gives them (per call: 'S' or
 * 'W'; in @t its entry and exit in microseconds and, for a wait, the age
 * it passed and got back, 0 without ages; numbered in this order), the
 * event destroyed; emit-c stands in for nothing and its program runs on
 * kfdsim with every result as captured.
 */
static void
check_waits(const char *name, const char *order, const uint64_t (*t)[4])
{
	struct kfd_abi_create_event_args ce = { .event_type = KFD_ABI_EVENT_SIGNAL,
						.auto_reset = 1 }, ce_out;
	struct kfd_abi_destroy_event_args de = { .event_id = 1 };
	char trace[4200], c[4200], bin[4200];
	struct kt_header hdr;
	struct kt_writer *w;
	struct kt_record r;
	uint64_t seq = 0, ts, base;
	unsigned int i;

	kt_header_init(&hdr, "kfdtrace-test");
	hdr.kfd_major = 1;
	hdr.kfd_minor = 14;
	hdr.flags = KT_HDR_SIMULATED;
	snprintf(trace, sizeof(trace), "%s/%s.kft", dir, name);
	snprintf(c, sizeof(c), "%s/%s.c", dir, name);
	snprintf(bin, sizeof(bin), "%s/%s", dir, name);
	w = start(trace, &hdr, &seq, &ts);
	ce_out = ce;
	ce_out.event_id = 1;
	ce_out.event_slot_index = 1;
	ce_out.event_trigger_data = 1;
	ce_out.event_page_offset = 0x8000000000000000ull;	/* KFD_MMAP_TYPE_EVENTS */
	r = tc_rec_ioctl(3, KFD_FILE_KFD, KFD_ABI_IOC_CREATE_EVENT, &ce, &ce_out,
			 sizeof(ce), 0, 0);
	put(w, &r, &seq, &ts);
	base = ts;
	for (i = 0; order[i]; i++) {
		if (order[i] == 'S')
			put_set(w, seq++, base + t[i][0] * 1000, base + t[i][1] * 1000);
		else
			put_wait(w, seq++, base + t[i][0] * 1000, base + t[i][1] * 1000,
				 t[i][2], t[i][3]);
	}
	ts = base + 100000;
	r = tc_rec_ioctl(3, KFD_FILE_KFD, KFD_ABI_IOC_DESTROY_EVENT, &de, &de,
			 sizeof(de), 0, 0);
	put(w, &r, &seq, &ts);
	assert_int_equal(kt_writer_close(w), 0);
	expect_ok(RUN(kfdtrace, "emit-c", trace, "-o", c));
	if (strstr(out, "standing in")) {
		fputs(out, stderr);
		fail_msg("%s: emit-c stood in for the GPU", name);
	}
	expect_ok(RUN(gcc, "-pthread", "-Wall", "-Wextra", "-Werror", "-o", bin, c));
	expect_ok(RUN(kfdtrace, "sim", "--", bin));
	expect_out("every result as captured");
}

static void
test_waits_one_signal(void **state)
{
	/* The second set entered while the first wait was being woken. */
	static const uint64_t late[][4] = { { 100, 110 }, { 300, 310 },
					    { 0, 500 }, { 1000, 1010 } };
	/* The first wait found the event set; the set numbered after it
	 * entered meanwhile and released the second. */
	static const uint64_t pending[][4] = { { 0, 10 }, { 100, 500 },
					       { 200, 600 }, { 1000, 1010 } };
	/*
	 * With ages: the first set woke the wait (age 2); two more entered
	 * while it was being woken and were numbered before it. The wait goes
	 * before both, as its age says; the second wait sees age 4.
	 */
	static const uint64_t aged[][4] = { { 100, 110 }, { 300, 310 },
					    { 400, 410 }, { 0, 500, 1, 2 },
					    { 1000, 1010, 2, 4 } };

	(void)state;
	check_waits("late-set", "SSWW", late);
	check_waits("pending-set", "SWSW", pending);
	check_waits("aged-late-sets", "SSSWW", aged);
}

static int
setup(void **state)
{
	const char *ci = getenv("CI");

	(void)state;
	kfdtrace = getenv("KFDTRACE");
	gcc = getenv("EMIT_GCC");
	if (!kfdtrace) {
		fprintf(stderr, "KFDTRACE must be set\n");
		return -1;
	}
	if (!gcc || !*gcc) {
		fprintf(stderr, "gcc is not installed (scripts/setup.sh installs it)\n");
		exit(ci && !strcmp(ci, "true") ? 1 : 77);
	}
	return rp_make_dir("emit-input");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_constructor),
		cmocka_unit_test(test_hostile_strings),
		cmocka_unit_test(test_element_data),
		cmocka_unit_test(test_large),
		cmocka_unit_test(test_waits_one_signal),
	};

	return cmocka_run_group_tests(tests, setup, rp_teardown);
}

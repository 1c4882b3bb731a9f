/* SPDX-License-Identifier: MIT */
/*
 * kfdtrace emit-c on a synthetic capture of 100,000 ioctls (rp_gen on
 * kfdsim): its time (best of 3) against the target (within 5 s),
 * and as a ratio of one `kfdtrace dump` of the same trace; then the
 * program of a 10,000-ioctl capture, built with gcc -O0 (its build time),
 * and its run on kfdsim as a ratio of `kfdtrace replay` of that capture.
 * Then a trace with one 15 MiB buffer: emit-c's time, the program's
 * characters per buffer byte, and gcc -O0 -c's time on it. The host's
 * system call and rdtsc cost are printed beside them. Exit 1 when the
 * target is missed or a program does not exit 0.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "kfdtrace/kfd_abi.h"
#include "kfdtrace/schema.h"
#include "kfdtrace/trace.h"
#include "tc_host.h"
#include "tc_rec.h"
#include "tc_run.h"

static const char *kfdtrace, *gen, *gcc;
static char dir[] = "/tmp/kfdtrace-bench-emit-XXXXXX";

/* Run @argv; its seconds, or -1 when it did not exit 0. */
static double
timed(char *const argv[], int quiet)
{
	struct tc_run res;
	double t0 = tc_host_now(), t;
	int bad;

	bad = tc_run(argv, &res) || res.status;
	t = tc_host_now() - t0;
	if (bad && !quiet)
		fprintf(stderr, "bench_emit: %s failed:\n%s%s", argv[0], res.out,
			res.err);
	tc_run_free(&res);
	return bad ? -1 : t;
}

static int
capture(const char *path, const char *n)
{
	return timed((char *const[]){ (char *)kfdtrace, "sim", "--", (char *)gen,
				      (char *)path, (char *)n, NULL }, 0) < 0;
}

#define BIG_BUF (15u << 20)

/* A trace at @path: /dev/kfd, then one ioctl with a random 15 MiB buffer. */
static int
write_big_buffer(const char *path)
{
	struct kfd_abi_dbg_wave_control_args a = { .content_ptr = 0x7f0000100000ull,
						   .buf_size_in_bytes = BIG_BUF };
	struct kt_buf_image img = { .flags = KT_BUF_BEFORE, .addr = a.content_ptr,
				    .len_before = BIG_BUF };
	struct kt_record r = tc_rec_open("/dev/kfd", KFD_FILE_KFD, 3);
	uint8_t *buf = malloc(BIG_BUF);
	uint64_t x = 0x9e3779b97f4a7c15ull;
	struct kt_header hdr;
	struct kt_writer *w;
	uint32_t i;
	int bad;

	if (!buf)
		return -1;
	for (i = 0; i < BIG_BUF; i++) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		buf[i] = (uint8_t)x;
	}
	img.before = buf;
	kt_header_init(&hdr, "kfdtrace-bench");
	hdr.kfd_major = 1;
	hdr.kfd_minor = 14;
	if (kt_writer_open(path, &hdr, NULL, &w)) {
		free(buf);
		return -1;
	}
	r.seq = 0;
	bad = kt_writer_append(w, &r);
	r = tc_rec_ioctl(3, KFD_FILE_KFD, KFD_ABI_IOC_DBG_WAVE_CONTROL, &a, &a,
			 sizeof(a), -1, 22);
	r.seq = 1;
	r.u.ioctl.bufs = &img;
	r.u.ioctl.nbufs = 1;
	bad |= kt_writer_append(w, &r);
	bad |= kt_writer_close(w);
	free(buf);
	return bad ? -1 : 0;
}

/* emit-c of a 15 MiB buffer: its time, the program's size, gcc's time. */
static int
bench_big_buffer(void)
{
	char trace[96], c[96], obj[96];
	struct stat sb;
	double emit, build;

	snprintf(trace, sizeof(trace), "%s/buf.kft", dir);
	snprintf(c, sizeof(c), "%s/buf.c", dir);
	snprintf(obj, sizeof(obj), "%s/buf.o", dir);
	if (write_big_buffer(trace))
		return 1;
	emit = timed((char *const[]){ (char *)kfdtrace, "emit-c", trace, "-o", c,
				      NULL }, 0);
	if (emit < 0 || stat(c, &sb))
		return 1;
	build = timed((char *const[]){ (char *)gcc, "-O0", "-c", "-o", obj, c,
				       NULL }, 0);
	if (build < 0)
		return 1;
	printf("buffer_15m_emit_s: %.2f\n", emit);
	printf("buffer_15m_program_chars_per_byte: %.2f\n",
	       (double)sb.st_size / BIG_BUF);
	printf("buffer_15m_gcc_O0_s: %.2f\n", build);
	unlink(trace);
	unlink(c);
	unlink(obj);
	return 0;
}

int
main(void)
{
	char big[96], small[96], bigc[96], smallc[96], bin[96];
	double best = 0, t, dump, build, run, replay;
	int i, ret = 0;

	kfdtrace = getenv("KFDTRACE");
	gen = getenv("RP_GEN");
	gcc = getenv("EMIT_GCC");
	if (!kfdtrace || !gen || !gcc || !*gcc || !mkdtemp(dir)) {
		fprintf(stderr, "bench_emit: KFDTRACE, RP_GEN and EMIT_GCC must be set\n");
		return 1;
	}
	snprintf(big, sizeof(big), "%s/big.kft", dir);
	snprintf(bigc, sizeof(bigc), "%s/big.c", dir);
	snprintf(small, sizeof(small), "%s/small.kft", dir);
	snprintf(smallc, sizeof(smallc), "%s/small.c", dir);
	snprintf(bin, sizeof(bin), "%s/small", dir);
	tc_host_costs();
	if (capture(big, "100000") || capture(small, "10000"))
		return 1;
	for (i = 0; i < 3; i++) {
		t = timed((char *const[]){ (char *)kfdtrace, "emit-c", "-f", big, "-o",
					   bigc, NULL }, 0);
		if (t < 0)
			return 1;
		if (!i || t < best)
			best = t;
	}
	dump = timed((char *const[]){ (char *)kfdtrace, "dump", big, NULL }, 1);
	printf("emit_100k_s: %.3f\n", best);
	if (dump > 0)
		printf("ratio_emit_vs_dump: %.1f\n", best / dump);
	if (best > 5)
		ret = 1;
	printf("target: emit-c of 100k ioctls within 5 s (%s)\n",
	       ret ? "not met" : "met");

	if (timed((char *const[]){ (char *)kfdtrace, "emit-c", small, "-o", smallc,
				   NULL }, 0) < 0)
		return 1;
	build = timed((char *const[]){ (char *)gcc, "-pthread", "-O0", "-o", bin,
				       smallc, NULL }, 0);
	run = timed((char *const[]){ (char *)kfdtrace, "sim", "--", bin, NULL }, 0);
	replay = timed((char *const[]){ (char *)kfdtrace, "replay", "--sim", small,
					NULL }, 0);
	if (build < 0 || run < 0 || replay < 0)
		return 1;
	printf("build_10k_gcc_O0_s: %.2f\n", build);
	printf("program_10k_s: %.3f\n", run);
	printf("replay_10k_s: %.3f\n", replay);
	printf("ratio_program_vs_replay: %.2f\n", run / replay);
	if (bench_big_buffer())
		return 1;
	unlink(big);
	unlink(bigc);
	unlink(small);
	unlink(smallc);
	unlink(bin);
	rmdir(dir);
	return ret;
}

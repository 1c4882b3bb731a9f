/* SPDX-License-Identifier: MIT */
/*
 * libFuzzer target: kfdtrace emit-c (kfd_emit_c()) on a trace whose
 * header strings, file name and records come from the input (records as
 * fuzz_record.h builds them, so exec argv, open paths, thread names and
 * annotations are hostile bytes; seeds carry argv bombs: many exec
 * records of up to 64 KiB of argv each). The program must pass
 * c_text_check() (no raw byte, no trigraph, no comment or literal broken
 * open), and its code outside comments and literals must not change when
 * the header strings and file name are replaced by plain ones: trace text
 * stays inside the comments and literals it was escaped into.
 *
 * Input: u8 header choices (bit 0: simulated), the exe, host and kernel
 * release strings and the trace's file name ('/' becomes '_'), each
 * NUL-terminated, u8 record count, then that many records in
 * fuzz_record.h's layout, numbered in order.
 *
 * Run e.g.: ./emit_c_fuzz -max_len=300000 new_corpus/ tests/fuzz/corpus/emit_c/
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "kfdtrace/emit_c.h"
#include "kfdtrace/trace.h"

#include "c_text_check.h"
#include "fuzz_record.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define MAX_RECORDS	64

static char dir[64];

static void
drop(const char *name)
{
	char p[512];

	snprintf(p, sizeof(p), "%s/%s", dir, name);
	unlink(p);
}

static void __attribute__((destructor))
drop_dir(void)
{
	if (dir[0]) {
		drop("plain.kft");
		drop("a.c");
		drop("b.c");
		rmdir(dir);
	}
}

/* The header strings, as the input gives them or plain. */
struct head {
	uint8_t flags;
	const char *exe, *host, *kernel;
};

/* Write @path with @h and the records of @data (from its record count on). */
static int
write_trace(const char *path, const struct head *h, const uint8_t *data,
	    size_t size)
{
	struct kt_writer_opts wo = { .frame_raw_size = 4096 };
	struct kt_writer *w;
	struct kt_header hdr;
	struct fz f;
	unsigned int n;
	uint64_t seq = 0;

	kt_header_init(&hdr, "kfdtrace-capture");
	hdr.kfd_major = 1;
	hdr.kfd_minor = 14;
	hdr.pid = 1000;
	hdr.flags = h->flags & 1 ? KT_HDR_SIMULATED : 0;
	snprintf(hdr.exe, sizeof(hdr.exe), "%s", h->exe);
	snprintf(hdr.host, sizeof(hdr.host), "%s", h->host);
	snprintf(hdr.kernel_release, sizeof(hdr.kernel_release), "%s", h->kernel);
	unlink(path);
	if (kt_writer_open(path, &hdr, &wo, &w))
		return -1;
	fz_init(&f, data, size);
	n = fz_u8(&f) % (MAX_RECORDS + 1);
	for (unsigned int i = 0; i < n && fz_left(&f); i++) {
		struct kt_record rec;

		fz_record(&f, &rec);
		rec.seq = seq++;
		kt_writer_append(w, &rec);
		fz_free(&f);
	}
	fz_free(&f);
	/* A failed close still leaves a readable (maybe truncated) trace. */
	kt_writer_close(w);
	return 0;
}

/* emit-c of @trace into @out: the program's text (malloc'd), or NULL. */
static char *
emit(const char *trace, const char *out, size_t *len)
{
	char err[512], *text;
	struct stat sb;
	FILE *f;

	if (kfd_emit_c(trace, out, NULL, err, sizeof(err)) < 0)
		return NULL;
	f = fopen(out, "rb");
	if (!f)
		return NULL;
	if (fstat(fileno(f), &sb) || !(text = malloc((size_t)sb.st_size + 1))) {
		fclose(f);
		return NULL;
	}
	*len = fread(text, 1, (size_t)sb.st_size, f);
	text[*len] = '\0';
	fclose(f);
	return text;
}

/* The program of @trace checked; its skeleton (malloc'd), or NULL. */
static char *
checked(const char *trace, const char *out)
{
	const char *bad;
	char *text, *skel = NULL;
	size_t len = 0, at;

	text = emit(trace, out, &len);
	if (!text)
		return NULL;
	bad = c_text_check(text, len, &skel, &at);
	if (bad) {
		fprintf(stderr, "emit_c_fuzz: %s at offset %zu of %s:\n%.200s\n", bad,
			at, out, text + (at > 100 ? at - 100 : 0));
		abort();
	}
	free(text);
	return skel;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct head h, plain = { 0, "exe", "host", "kernel" };
	char path[512], plain_path[512], a[512], b[512], *name, *ka, *kb;
	struct fz f;

	if (!dir[0]) {
		snprintf(dir, sizeof(dir), "/tmp/kt-emit-fuzz-XXXXXX");
		if (!mkdtemp(dir)) {
			dir[0] = '\0';
			return 0;
		}
	}
	fz_init(&f, data, size);
	h.flags = plain.flags = fz_u8(&f);
	h.exe = fz_str(&f, 255);
	h.host = fz_str(&f, 63);
	h.kernel = fz_str(&f, 63);
	name = fz_str(&f, 64);
	if (!h.exe || !h.host || !h.kernel || !name) {
		fz_free(&f);
		return 0;
	}
	for (char *p = name; *p; p++)
		if (*p == '/')
			*p = '_';
	snprintf(path, sizeof(path), "%s/t%s", dir, name);
	snprintf(plain_path, sizeof(plain_path), "%s/plain.kft", dir);
	snprintf(a, sizeof(a), "%s/a.c", dir);
	snprintf(b, sizeof(b), "%s/b.c", dir);
	if (write_trace(path, &h, f.p, f.left) == 0 &&
	    write_trace(plain_path, &plain, f.p, f.left) == 0) {
		ka = checked(path, a);
		kb = checked(plain_path, b);
		/* Both fail alike (a damaged trace), or neither. */
		if (!ka != !kb || (ka && strcmp(ka, kb))) {
			fprintf(stderr, "emit_c_fuzz: the program's code changed with "
				"the header strings\n");
			abort();
		}
		free(ka);
		free(kb);
	}
	unlink(path);
	fz_free(&f);
	return 0;
}

/* SPDX-License-Identifier: MIT */
/*
 * Memory blobs (kfdtrace/blob.h, docs/trace-format.md 5.4.15): the hash
 * against the FIPS 180-4 examples, the word delta, the run's blob store
 * (a blob stored once, a missing or damaged one named), and memory
 * records through the writer and the reader: DELTA and STORE records give
 * back the bytes written, and a reader skips the fields past those it
 * knows.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "kfdtrace/blob.h"
#include "kt_test_util.h"
#include "trace_internal.h"

static void
check_hash(const void *data, size_t len, const char *want)
{
	uint8_t out[KT_MEM_HASH_LEN];
	char hex[KT_BLOB_HEX_LEN];

	kt_blob_hash(data, len, out);
	assert_string_equal(kt_blob_hex(out, hex), want);
}

static void
test_hash(void **state)
{
	static uint8_t a[1000];

	(void)state;
	check_hash(NULL, 0, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
	check_hash("abc", 3, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
	check_hash("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq", 56,
		   "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
	memset(a, 'a', sizeof(a));
	check_hash(a, 1000, "41edece42d63e8d9bf515a9ba6932e1c20cbc9f5a5d134645adb5db1b9737ea3");
}

static void
fill(uint8_t *p, size_t len, unsigned int seed)
{
	for (size_t i = 0; i < len; i++)
		p[i] = (uint8_t)((i + seed) * 2654435761u >> 13);
}

/* A delta turns the base into the new bytes, for whole and cut words. */
static void
test_delta(void **state)
{
	static const size_t lens[] = { 1, 8, 60, 64, 65, 512 };
	uint8_t base[KT_MEM_DELTA_MAX], cur[KT_MEM_DELTA_MAX], buf[KT_MEM_DELTA_MAX];
	uint8_t d[KT_MEM_DELTA_ENC_MAX];
	size_t n;

	(void)state;
	for (size_t k = 0; k < sizeof(lens) / sizeof(lens[0]); k++) {
		size_t len = lens[k];

		fill(base, len, 1);
		memcpy(cur, base, len);
		/* Unchanged: the mask alone. */
		n = kt_mem_delta_encode(base, cur, len, d);
		assert_int_equal(n, 1);
		assert_int_equal(d[0], 0);
		/* The first and the last byte changed. */
		cur[0] ^= 0x5a;
		cur[len - 1] ^= 0xa5;
		n = kt_mem_delta_encode(base, cur, len, d);
		assert_true(n > 0 && n <= KT_MEM_DELTA_ENC_MAX);
		assert_true(n <= 10 + (len < 16 ? len : 16));
		memcpy(buf, base, len);
		assert_int_equal(kt_mem_delta_apply(buf, len, d, n), 0);
		assert_memory_equal(buf, cur, len);
		/* Cut short, or one byte too many: malformed. */
		memcpy(buf, base, len);
		assert_int_equal(kt_mem_delta_apply(buf, len, d, n - 1), -KT_ECORRUPT);
		d[n] = 0;
		assert_int_equal(kt_mem_delta_apply(buf, len, d, n + 1), -KT_ECORRUPT);
	}
	/* A word past the bytes, and an endless mask. */
	d[0] = 0x02;
	memset(d + 1, 0, 8);
	assert_int_equal(kt_mem_delta_apply(buf, 8, d, 9), -KT_ECORRUPT);
	memset(d, 0xff, 11);
	assert_int_equal(kt_mem_delta_apply(buf, 512, d, 11), -KT_ECORRUPT);
	/* Too long for a delta. */
	assert_int_equal(kt_mem_delta_encode(base, cur, KT_MEM_DELTA_MAX + 1, d), 0);
}

/* The run's store: once per blob; a missing or damaged one is named. */
static void
test_store(void **state)
{
	char dir[PATH_MAX], path[PATH_MAX + KT_BLOB_HEX_LEN], hex[KT_BLOB_HEX_LEN];
	uint8_t bytes[3000], hash[KT_MEM_HASH_LEN], other[KT_MEM_HASH_LEN];
	uint8_t *got;
	size_t len;
	int fd;

	(void)state;
	fill(bytes, sizeof(bytes), 7);
	kt_blob_hash(bytes, sizeof(bytes), hash);
	assert_int_equal(kt_blob_store_of(dir, sizeof(dir),
					  kt_test_path("store.kfdtrace")), 0);
	assert_non_null(strstr(dir, "/" KT_BLOB_DIR));
	assert_int_equal(kt_blob_put(dir, hash, bytes, sizeof(bytes)), 1);
	assert_int_equal(kt_blob_put(dir, hash, bytes, sizeof(bytes)), 0);
	assert_int_equal(kt_blob_get(dir, hash, KT_MAX_SUBMIT, &got, &len), 0);
	assert_int_equal(len, sizeof(bytes));
	assert_memory_equal(got, bytes, len);
	free(got);
	/* Over the caller's bound: not read. */
	assert_int_equal(kt_blob_get(dir, hash, 100, &got, &len), -KT_ECORRUPT);

	memcpy(other, hash, sizeof(other));
	other[0] ^= 1;
	assert_int_equal(kt_blob_get(dir, other, KT_MAX_SUBMIT, &got, &len), -ENOENT);
	assert_null(got);

	/* Another blob's frame under this name: its hash differs. */
	snprintf(path, sizeof(path), "%s/%s", dir, kt_blob_hex(hash, hex));
	assert_int_equal(kt_blob_put(dir, other, bytes, 100), 1);
	snprintf(path + strlen(dir) + 1, sizeof(path) - strlen(dir) - 1, "%s",
		 kt_blob_hex(other, hex));
	{
		char real[PATH_MAX + KT_BLOB_HEX_LEN];

		snprintf(real, sizeof(real), "%s/%s", dir, kt_blob_hex(hash, hex));
		assert_int_equal(rename(path, real), 0);
	}
	assert_int_equal(kt_blob_get(dir, hash, KT_MAX_SUBMIT, &got, &len),
			 -KT_ECORRUPT);
	/* Not a zstd frame at all. */
	snprintf(path, sizeof(path), "%s/%s", dir, kt_blob_hex(hash, hex));
	fd = open(path, O_WRONLY | O_TRUNC);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, "garbage", 7), 7);
	close(fd);
	assert_int_equal(kt_blob_get(dir, hash, KT_MAX_SUBMIT, &got, &len),
			 -KT_ECORRUPT);
	unlink(path);
	/* No temporary file is left behind. */
	{
		char cmd[PATH_MAX + 64];

		snprintf(cmd, sizeof(cmd), "test -z \"$(ls -A '%s' | grep '^\\.')\"", dir);
		assert_int_equal(system(cmd), 0);
	}
}

/*
 * Processes that store the same blob at once: one of them stores it, the
 * others find it there, and the store holds it whole with no temporary
 * file left.
 */
static void
test_store_race(void **state)
{
	static uint8_t bytes[1 << 20];
	uint8_t hash[KT_MEM_HASH_LEN], *got;
	char dir[PATH_MAX];
	int stored = 0, status;
	size_t len;
	pid_t pid[8];

	(void)state;
	fill(bytes, sizeof(bytes), 21);
	kt_blob_hash(bytes, sizeof(bytes), hash);
	assert_int_equal(kt_blob_store_of(dir, sizeof(dir),
					  kt_test_path("race.kfdtrace")), 0);
	for (int i = 0; i < 8; i++) {
		pid[i] = fork();
		assert_true(pid[i] >= 0);
		if (pid[i] == 0)
			_exit(kt_blob_put(dir, hash, bytes, sizeof(bytes)) + 10);
	}
	for (int i = 0; i < 8; i++) {
		assert_int_equal(waitpid(pid[i], &status, 0), pid[i]);
		assert_true(WIFEXITED(status));
		/* 11: stored it; 10: found it stored. */
		assert_true(WEXITSTATUS(status) == 10 || WEXITSTATUS(status) == 11);
		stored += WEXITSTATUS(status) == 11;
	}
	assert_int_equal(stored, 1);
	assert_int_equal(kt_blob_get(dir, hash, KT_MAX_SUBMIT, &got, &len), 0);
	assert_int_equal(len, sizeof(bytes));
	assert_memory_equal(got, bytes, len);
	free(got);
	{
		char cmd[PATH_MAX + 64];

		snprintf(cmd, sizeof(cmd), "test -z \"$(ls -A '%s' | grep '^\\.')\"", dir);
		assert_int_equal(system(cmd), 0);
	}
}

static void
memory_rec(struct kt_record *rec, uint64_t addr, uint32_t len)
{
	memset(rec, 0, sizeof(*rec));
	rec->type = KT_REC_MEMORY;
	rec->u.memory.kind = KT_MEM_SIGNAL;
	rec->u.memory.addr = addr;
	rec->u.memory.full_len = len;
}

/*
 * Writer to reader: a signal stored, then changed twice (DELTA), then
 * unchanged; a blob of the run's store (STORE); and the records a reader
 * cannot resolve, each saying why.
 */
static char delta_path[PATH_MAX];

static void
test_records(void **state)
{
	const char *path = strcpy(delta_path, kt_test_path("delta.kfdtrace"));
	uint8_t v[4][64], d[KT_MEM_DELTA_ENC_MAX], big[1000];
	uint8_t dhash[KT_MEM_HASH_LEN], missing[KT_MEM_HASH_LEN];
	char dir[PATH_MAX];
	struct kt_record rec;
	struct kt_header hdr;
	struct kt_reader *r;
	struct kt_writer *w;
	size_t n;

	(void)state;
	fill(v[0], 64, 3);
	memcpy(v[1], v[0], 64);
	v[1][8] = 0;				/* the value */
	memcpy(v[2], v[1], 64);
	memset(v[2] + 32, 0x77, 16);		/* the timestamps */
	memcpy(v[3], v[2], 64);
	fill(big, sizeof(big), 11);
	kt_blob_hash(big, sizeof(big), dhash);
	memset(missing, 0x3c, sizeof(missing));
	assert_int_equal(kt_blob_store_of(dir, sizeof(dir), path), 0);
	assert_true(kt_blob_put(dir, dhash, big, sizeof(big)) >= 0);

	kt_test_header_init(&hdr, "test");
	assert_int_equal(kt_writer_open(path, &hdr, NULL, &w), 0);
	memory_rec(&rec, 0x1000, 64);
	rec.u.memory.data = v[0];
	rec.u.memory.len = 64;
	kt_blob_hash(v[0], 64, rec.u.memory.hash);
	rec.u.memory.hash_len = KT_MEM_HASH_LEN;
	assert_int_equal(kt_writer_append(w, &rec), 0);
	for (int k = 1; k < 4; k++) {
		memory_rec(&rec, 0x1000, 64);
		n = kt_mem_delta_encode(v[k - 1], v[k], 64, d);
		rec.u.memory.flags = KT_MEM_DELTA;
		rec.u.memory.delta = d;
		rec.u.memory.delta_len = (uint32_t)n;
		assert_int_equal(kt_writer_append(w, &rec), 0);
	}
	/* A delta at an address with no record before it. */
	memory_rec(&rec, 0x2000, 64);
	rec.u.memory.flags = KT_MEM_DELTA;
	rec.u.memory.delta = d;
	rec.u.memory.delta_len = 1;
	d[0] = 0;
	assert_int_equal(kt_writer_append(w, &rec), 0);
	/* In the run's store, twice; and a blob the store does not have. */
	for (int k = 0; k < 3; k++) {
		memory_rec(&rec, 0x3000, sizeof(big));
		rec.u.memory.kind = KT_MEM_CODE;
		rec.u.memory.flags = KT_MEM_STORE;
		memcpy(rec.u.memory.hash, k < 2 ? dhash : missing, KT_MEM_HASH_LEN);
		rec.u.memory.hash_len = KT_MEM_HASH_LEN;
		assert_int_equal(kt_writer_append(w, &rec), 0);
	}
	assert_int_equal(kt_writer_close(w), 0);

	assert_int_equal(kt_reader_open(path, &r), 0);
	assert_true(kt_reader_header(r)->format_minor >= 7);
	for (int k = 0; k < 4; k++) {
		assert_int_equal(kt_reader_next(r, &rec), 1);
		assert_int_equal(rec.type, KT_REC_MEMORY);
		assert_int_equal(rec.u.memory.missing, KT_MEM_HAVE);
		assert_int_equal(rec.u.memory.len, 64);
		assert_memory_equal(rec.u.memory.data, v[k], 64);
		assert_int_equal(!!(rec.u.memory.flags & KT_MEM_DELTA), k > 0);
	}
	assert_int_equal(kt_reader_next(r, &rec), 1);
	assert_int_equal(rec.u.memory.len, 0);
	assert_int_equal(rec.u.memory.missing, KT_MEM_NO_BASE);
	for (int k = 0; k < 3; k++) {
		assert_int_equal(kt_reader_next(r, &rec), 1);
		assert_int_equal(rec.u.memory.addr, 0x3000);
		if (k == 2) {
			assert_int_equal(rec.u.memory.len, 0);
			assert_int_equal(rec.u.memory.missing, KT_MEM_NOT_IN_STORE);
			continue;
		}
		assert_int_equal(rec.u.memory.missing, KT_MEM_HAVE);
		assert_int_equal(rec.u.memory.len, sizeof(big));
		assert_memory_equal(rec.u.memory.data, big, sizeof(big));
	}
	assert_int_equal(kt_reader_next(r, &rec), 1);
	assert_int_equal(rec.type, KT_REC_END);
	assert_int_equal(kt_reader_next(r, &rec), 0);
	kt_reader_close(r);

	/* The same file from memory: it has no run, so no store. */
	{
		uint8_t *img;
		size_t len;
		FILE *f = fopen(path, "rb");

		assert_non_null(f);
		fseek(f, 0, SEEK_END);
		len = (size_t)ftell(f);
		rewind(f);
		img = malloc(len);
		assert_int_equal(fread(img, 1, len, f), len);
		fclose(f);
		assert_int_equal(kt_reader_open_mem(img, len, &r), 0);
		for (int k = 0; k < 6; k++)
			assert_int_equal(kt_reader_next(r, &rec), 1);
		assert_int_equal(kt_reader_next(r, &rec), 1);
		assert_int_equal(rec.u.memory.missing, KT_MEM_NOT_IN_STORE);
		kt_reader_close(r);
		free(img);
	}
}

/*
 * A reference ahead of the record that holds its bytes (another thread's
 * buffer reached the file first), and one after a seek past that record:
 * the reader finds the bytes in the file all the same.
 */
static void
test_ref_ahead(void **state)
{
	const char *path = kt_test_path("ahead.kfdtrace");
	uint8_t bytes[200], hash[KT_MEM_HASH_LEN];
	struct kt_record rec;
	struct kt_header hdr;
	struct kt_reader *r;
	struct kt_writer *w;

	(void)state;
	fill(bytes, sizeof(bytes), 9);
	kt_blob_hash(bytes, sizeof(bytes), hash);
	kt_test_header_init(&hdr, "test");
	assert_int_equal(kt_writer_open(path, &hdr, NULL, &w), 0);
	for (int k = 0; k < 3; k++) {
		memory_rec(&rec, 0x5000, sizeof(bytes));
		rec.seq = (uint64_t)k + 1;
		rec.tid = k == 1 ? 11 : 12;
		rec.ts = 1000 + (uint64_t)k;
		memcpy(rec.u.memory.hash, hash, KT_MEM_HASH_LEN);
		rec.u.memory.hash_len = KT_MEM_HASH_LEN;
		if (k == 1) {
			rec.u.memory.data = bytes;
			rec.u.memory.len = sizeof(bytes);
		} else {
			rec.u.memory.flags = KT_MEM_REF;
		}
		assert_int_equal(kt_writer_append(w, &rec), 0);
	}
	assert_int_equal(kt_writer_close(w), 0);
	assert_int_equal(kt_reader_open(path, &r), 0);
	assert_int_equal(kt_reader_next(r, &rec), 1);
	assert_int_equal(rec.u.memory.flags, KT_MEM_REF);
	assert_int_equal(rec.u.memory.missing, KT_MEM_HAVE);
	assert_int_equal(rec.u.memory.len, sizeof(bytes));
	assert_memory_equal(rec.u.memory.data, bytes, sizeof(bytes));
	kt_reader_close(r);

	assert_int_equal(kt_reader_open(path, &r), 0);
	assert_int_equal(kt_reader_seek_seq(r, 3), 0);
	assert_int_equal(kt_reader_next(r, &rec), 1);
	assert_int_equal(rec.seq, 3);
	assert_int_equal(rec.u.memory.len, sizeof(bytes));
	assert_memory_equal(rec.u.memory.data, bytes, sizeof(bytes));
	kt_reader_close(r);
}

/*
 * A tool that writes resolved records again (reduce's candidates) writes
 * their bytes: the new file may lack the base or the store.
 */
static void
test_rewrite(void **state)
{
	const char *src = delta_path;
	char dst[PATH_MAX];
	struct kt_record rec, *c[16];
	struct kt_header hdr;
	struct kt_reader *r;
	struct kt_writer *w;
	size_t n = 0;

	(void)state;
	/* test_records wrote it: 4 signals, a delta without base, 3 STORE. */
	assert_int_equal(kt_reader_open(src, &r), 0);
	while (n < 16 && kt_reader_next(r, &rec) == 1)
		if (rec.type == KT_REC_MEMORY)
			assert_non_null(c[n++] = kt_record_clone(&rec));
	kt_reader_close(r);
	assert_int_equal(n, 8);
	snprintf(dst, sizeof(dst), "%s", kt_test_path("rewrite.kfdtrace"));
	kt_test_header_init(&hdr, "test");
	/* Only the records with bytes: no base or store is needed. */
	assert_int_equal(kt_writer_open(dst, &hdr, NULL, &w), 0);
	for (size_t i = 2; i < n; i++)
		if (c[i]->u.memory.len)
			assert_int_equal(kt_writer_append(w, c[i]), 0);
	assert_int_equal(kt_writer_close(w), 0);
	assert_int_equal(kt_reader_open(dst, &r), 0);
	for (size_t i = 2; i < n; i++) {
		if (!c[i]->u.memory.len)
			continue;
		assert_int_equal(kt_reader_next(r, &rec), 1);
		assert_int_equal(rec.u.memory.flags & (KT_MEM_DELTA | KT_MEM_STORE), 0);
		assert_int_equal(rec.u.memory.missing, KT_MEM_HAVE);
		assert_int_equal(rec.u.memory.len, c[i]->u.memory.len);
		assert_memory_equal(rec.u.memory.data, c[i]->u.memory.data,
				    rec.u.memory.len);
	}
	kt_reader_close(r);
	for (size_t i = 0; i < n; i++)
		free(c[i]);
}

/*
 * A reader skips what a later minor appends to a memory record, and a
 * DELTA record's bytes are not in the fields a 1.4 reader reads: that one
 * sees a record without bytes.
 */
static void
test_skip_later_fields(void **state)
{
	struct kt_delta enc = { .valid = false };
	struct kt_dec dec = { .delta = { .valid = false } };
	uint8_t d[KT_MEM_DELTA_ENC_MAX], buf[1024], out[1024];
	uint8_t v0[64], v1[64];
	struct kt_record rec, got;
	const uint8_t *q;
	size_t bound, n, hl, len, shift;
	uint64_t body = 0;
	const char *why;
	bool known;
	long m;

	(void)state;
	fill(v0, 64, 5);
	memcpy(v1, v0, 64);
	v1[63] ^= 1;
	memory_rec(&rec, 0x4000, 64);
	rec.seq = 1;
	rec.ts = 1000;
	rec.tid = 7;
	rec.u.memory.flags = KT_MEM_DELTA;
	rec.u.memory.delta = d;
	rec.u.memory.delta_len = (uint32_t)kt_mem_delta_encode(v0, v1, 64, d);
	assert_int_equal(kt_rec_bound(&rec, &bound), 0);
	assert_true(bound <= sizeof(buf));
	n = kt_rec_encode(buf, &rec, &enc, bound);

	/* Rewrite it with three bytes of a later minor's field appended. */
	q = buf + 1;
	for (shift = 0;; shift += 7) {
		body |= (uint64_t)(*q & 0x7f) << shift;
		if (!(*q++ & 0x80))
			break;
	}
	hl = (size_t)(q - buf);
	assert_int_equal(hl + body, n);
	out[0] = buf[0];
	len = body + 3;
	for (shift = 1; len >= 0x80; len >>= 7)
		out[shift++] = (uint8_t)(len | 0x80);
	out[shift++] = (uint8_t)len;
	memcpy(out + shift, q, body);
	memcpy(out + shift + body, "\x02\xab\xcd", 3);
	m = kt_rec_decode(out, shift + body + 3, &dec, &got, &known, &why);
	assert_int_equal(m, (long)(shift + body + 3));
	assert_true(known);
	assert_int_equal(got.u.memory.flags, KT_MEM_DELTA);
	assert_int_equal(got.u.memory.delta_len, rec.u.memory.delta_len);
	assert_memory_equal(got.u.memory.delta, d, rec.u.memory.delta_len);
	/* The 1.4 fields: no bytes, no hash. */
	assert_int_equal(got.u.memory.len, 0);
	assert_int_equal(got.u.memory.hash_len, 0);
	free(dec.files);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_hash),
		cmocka_unit_test(test_delta),
		cmocka_unit_test(test_store),
		cmocka_unit_test(test_store_race),
		cmocka_unit_test(test_records),
		cmocka_unit_test(test_rewrite),
		cmocka_unit_test(test_ref_ahead),
		cmocka_unit_test(test_skip_later_fields),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

/* SPDX-License-Identifier: MIT */
/*
 * The common u64 map (kfdtrace/common/u64map.h): insert, overwrite,
 * delete, growth, create/destroy cycles without tombstones, sorted order,
 * iteration, tag separation, values of any size, and running out of memory
 * (calloc and malloc are wrapped by the link: -Wl,--wrap).
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include <kfdtrace/common/u64map.h>

/* ---- allocation failure on demand ---- */

void *__real_calloc(size_t n, size_t size);
void *__real_malloc(size_t size);
void *__wrap_calloc(size_t n, size_t size);
void *__wrap_malloc(size_t size);

static int fail_allocs;

void *
__wrap_calloc(size_t n, size_t size)
{
	return fail_allocs ? NULL : __real_calloc(n, size);
}

void *
__wrap_malloc(size_t size)
{
	return fail_allocs ? NULL : __real_malloc(size);
}

/* A value of the size the CLI's object tracker uses. */
struct obj {
	uint64_t seq, size;
	uint32_t gpu_id, kind;
};

static void
test_put_get_overwrite(void **state)
{
	struct kc_u64map m;
	struct obj v = { 7, 4096, 0xab12, 2 }, *p, out;

	(void)state;
	kc_u64map_init(&m, sizeof(struct obj));
	assert_null(kc_u64map_get(&m, 0, 1));
	assert_int_equal(kc_u64map_del(&m, 0, 1, &out), 0);
	assert_int_equal(kc_u64map_put(&m, 0, 0xab1200000000ull, &v), 0);
	assert_int_equal(m.n, 1);
	p = kc_u64map_get(&m, 0, 0xab1200000000ull);
	assert_non_null(p);
	assert_memory_equal(p, &v, sizeof(v));
	/* In place: the caller may change the value. */
	p->size = 8192;
	assert_int_equal(((struct obj *)kc_u64map_get(&m, 0, 0xab1200000000ull))->size,
			 8192);
	/* Overwrite keeps one entry. */
	v.seq = 9;
	assert_int_equal(kc_u64map_put(&m, 0, 0xab1200000000ull, &v), 0);
	assert_int_equal(m.n, 1);
	assert_int_equal(((struct obj *)kc_u64map_get(&m, 0, 0xab1200000000ull))->seq, 9);
	/* Key 0 and UINT64_MAX are ordinary keys. */
	assert_int_equal(kc_u64map_put(&m, 0, 0, NULL), 0);
	assert_int_equal(kc_u64map_put(&m, 0, UINT64_MAX, &v), 0);
	p = kc_u64map_get(&m, 0, 0);
	assert_non_null(p);
	assert_int_equal(p->seq, 0);	/* NULL value: zeros */
	assert_non_null(kc_u64map_get(&m, 0, UINT64_MAX));
	assert_int_equal(kc_u64map_del(&m, 0, 0xab1200000000ull, &out), 1);
	assert_int_equal(out.seq, 9);
	assert_int_equal(out.size, 4096);
	assert_null(kc_u64map_get(&m, 0, 0xab1200000000ull));
	assert_int_equal(kc_u64map_del(&m, 0, 0xab1200000000ull, NULL), 0);
	assert_int_equal(m.n, 2);
	kc_u64map_free(&m);
	assert_int_equal(m.n, 0);
	assert_null(kc_u64map_get(&m, 0, 0));
	/* Reusable after free. */
	assert_int_equal(kc_u64map_put(&m, 0, 5, &v), 0);
	assert_non_null(kc_u64map_get(&m, 0, 5));
	kc_u64map_free(&m);
}

/* A zeroed map is a map of uint64_t values. */
static void
test_zeroed_u64(void **state)
{
	struct kc_u64map m = { 0 };
	uint64_t v = 0;

	(void)state;
	assert_int_equal(kc_u64map_get64(&m, 3, 5, &v), 0);
	assert_int_equal(kc_u64map_put64(&m, 3, 5, 0x1122334455667788ull), 0);
	assert_int_equal(kc_u64map_get64(&m, 3, 5, &v), 1);
	assert_true(v == 0x1122334455667788ull);
	assert_int_equal(kc_u64map_get64(&m, 3, 5, NULL), 1);
	assert_int_equal(m.vsize, 8);
	assert_int_equal(kc_u64map_put64(&m, 3, 5, 1), 0);
	assert_int_equal(kc_u64map_get64(&m, 3, 5, &v), 1);
	assert_true(v == 1);
	assert_int_equal(m.n, 1);
	kc_u64map_free(&m);
}

/* A set: values of 0 bytes. */
static void
test_set(void **state)
{
	struct kc_u64map m;

	(void)state;
	kc_u64map_init(&m, 0);
	assert_int_equal(m.stride, 16);
	assert_int_equal(kc_u64map_put(&m, 0, 42, NULL), 0);
	assert_non_null(kc_u64map_get(&m, 0, 42));
	assert_null(kc_u64map_get(&m, 0, 43));
	assert_int_equal(kc_u64map_del(&m, 0, 42, NULL), 1);
	assert_null(kc_u64map_get(&m, 0, 42));
	kc_u64map_free(&m);
}

/* Odd value sizes round the slot to 8 bytes and copy exactly vsize. */
static void
test_odd_value_size(void **state)
{
	struct kc_u64map m;
	unsigned char v[13], out[13];
	unsigned int i;

	(void)state;
	kc_u64map_init(&m, sizeof(v));
	assert_int_equal(m.stride, 32);
	for (i = 0; i < 1000; i++) {
		memset(v, (int)(i & 0xff), sizeof(v));
		assert_int_equal(kc_u64map_put(&m, 0, i, v), 0);
	}
	for (i = 0; i < 1000; i++) {
		memset(v, (int)(i & 0xff), sizeof(v));
		assert_int_equal(kc_u64map_del(&m, 0, i, out), 1);
		assert_memory_equal(out, v, sizeof(v));
	}
	assert_int_equal(m.n, 0);
	kc_u64map_free(&m);
}

/*
 * Insert, overwrite and delete in rounds against a shadow array (the
 * replayer's old rp_map test: same keys, same values, same expectations).
 */
static void
test_rounds(void **state)
{
	struct kc_u64map m = { 0 };
	uint64_t *shadow, v;
	unsigned int i, round;

	(void)state;
	shadow = calloc(4096, sizeof(*shadow));
	assert_non_null(shadow);
	for (round = 0; round < 20; round++) {
		for (i = 0; i < 4096; i++) {
			uint64_t key = (uint64_t)i << 32 | 0xab12;

			if ((i + round) % 3 == 0) {
				kc_u64map_del(&m, 1, key, NULL);
				shadow[i] = 0;
			} else {
				assert_int_equal(kc_u64map_put64(&m, 1, key,
							i * 7 + round + 1), 0);
				shadow[i] = i * 7 + round + 1;
			}
		}
		for (i = 0; i < 4096; i++) {
			uint64_t key = (uint64_t)i << 32 | 0xab12;
			int got = kc_u64map_get64(&m, 1, key, &v);

			assert_int_equal(got, shadow[i] != 0);
			if (got)
				assert_true(v == shadow[i]);
		}
	}
	kc_u64map_free(&m);
	free(shadow);
}

/* The table doubles as it fills and keeps every entry. */
static void
test_grow(void **state)
{
	struct kc_u64map m;
	size_t last_cap = 0, grew = 0;
	uint64_t i, v;

	(void)state;
	kc_u64map_init(&m, sizeof(uint64_t));
	for (i = 0; i < 100000; i++) {
		assert_int_equal(kc_u64map_put64(&m, 0, i * 0x1000, ~i), 0);
		assert_true(m.n * 2 <= m.cap);
		if (m.cap != last_cap) {
			assert_true(!last_cap || m.cap == last_cap * 2);
			last_cap = m.cap;
			grew++;
		}
	}
	assert_int_equal(m.n, 100000);
	assert_true(grew >= 10);
	for (i = 0; i < 100000; i++) {
		assert_int_equal(kc_u64map_get64(&m, 0, i * 0x1000, &v), 1);
		assert_true(v == ~i);
	}
	assert_int_equal(kc_u64map_get64(&m, 0, 0x1001, &v), 0);
	kc_u64map_free(&m);
}

/*
 * A million create/destroy pairs over a few live objects: without
 * tombstones the table never grows past what the live ones need, and a
 * miss still ends at an empty slot (the walk would not end otherwise).
 */
static void
test_create_destroy_cycles(void **state)
{
	struct kc_u64map m;
	uint64_t i, v;
	size_t cap;

	(void)state;
	kc_u64map_init(&m, sizeof(uint64_t));
	for (i = 0; i < 16; i++)
		assert_int_equal(kc_u64map_put64(&m, 1, 0xffff0000ull + i, i), 0);
	cap = m.cap;
	for (i = 0; i < 1000000; i++) {
		uint64_t h = (i + 1) << 12 | 0xab12;

		assert_int_equal(kc_u64map_put64(&m, 1, h, i), 0);
		assert_int_equal(kc_u64map_get64(&m, 1, h, &v), 1);
		assert_true(v == i);
		assert_int_equal(kc_u64map_del(&m, 1, h, NULL), 1);
	}
	assert_int_equal(m.n, 16);
	assert_int_equal(m.cap, cap);
	for (i = 0; i < 16; i++) {
		assert_int_equal(kc_u64map_get64(&m, 1, 0xffff0000ull + i, &v), 1);
		assert_true(v == i);
	}
	assert_int_equal(kc_u64map_get64(&m, 1, 0x5000 | 0xab12, &v), 0);
	kc_u64map_free(&m);
}

/*
 * Deleting from the middle of probe runs, including runs that wrap past
 * the table's end: everything else stays findable.
 */
static void
test_delete_in_runs(void **state)
{
	struct kc_u64map m;
	uint64_t i, j, v;

	(void)state;
	kc_u64map_init(&m, sizeof(uint64_t));
	/* 31 entries in 64 slots: long runs, some wrapping. */
	for (i = 0; i < 31; i++)
		assert_int_equal(kc_u64map_put64(&m, 0, i, i + 100), 0);
	assert_int_equal(m.cap, 64);
	for (i = 0; i < 31; i += 2) {
		assert_int_equal(kc_u64map_del(&m, 0, i, NULL), 1);
		for (j = 0; j < 31; j++) {
			int want = j > i || (j & 1);

			assert_int_equal(kc_u64map_get64(&m, 0, j, &v), want);
			if (want)
				assert_true(v == j + 100);
		}
	}
	kc_u64map_free(&m);
}

/* The same key under two tags is two entries. */
static void
test_tags(void **state)
{
	struct kc_u64map m = { 0 };
	uint64_t v;

	(void)state;
	/* The replayer's test: kinds and scopes as separate namespaces. */
	assert_int_equal(kc_u64map_put64(&m, 2u << 24 | 1, 5, 50), 0);
	assert_int_equal(kc_u64map_put64(&m, 2u << 24 | 2, 5, 60), 0);
	assert_int_equal(kc_u64map_get64(&m, 3u << 24 | 1, 5, &v), 0);
	assert_int_equal(kc_u64map_get64(&m, 2u << 24 | 2, 5, &v), 1);
	assert_true(v == 60);
	assert_int_equal(kc_u64map_get64(&m, 2u << 24 | 1, 5, &v), 1);
	assert_true(v == 50);
	assert_int_equal(kc_u64map_put64(&m, 0, 5, 70), 0);
	assert_int_equal(m.n, 3);
	assert_int_equal(kc_u64map_del(&m, 2u << 24 | 1, 5, NULL), 1);
	assert_int_equal(kc_u64map_get64(&m, 2u << 24 | 1, 5, &v), 0);
	assert_int_equal(kc_u64map_get64(&m, 2u << 24 | 2, 5, &v), 1);
	assert_true(v == 60);
	assert_int_equal(kc_u64map_get64(&m, 0, 5, &v), 1);
	assert_true(v == 70);
	kc_u64map_free(&m);
}

/* Sorted by key, then tag; iteration sees every entry once. */
static void
test_sorted_and_next(void **state)
{
	static const uint64_t keys[] = { 900, 3, UINT64_MAX, 0, 77, 3 << 20 };
	struct kc_u64map m;
	struct kc_u64map_slot **v, *s;
	size_t i, pos = 0, seen = 0;
	uint64_t sum = 0;

	(void)state;
	kc_u64map_init(&m, sizeof(uint64_t));
	assert_null(kc_u64map_sorted(&m));
	assert_null(kc_u64map_next(&m, &pos));
	for (i = 0; i < 6; i++)
		assert_int_equal(kc_u64map_put64(&m, 0, keys[i], i), 0);
	assert_int_equal(kc_u64map_put64(&m, 9, 77, 100), 0);
	assert_int_equal(kc_u64map_put64(&m, 1, 77, 101), 0);
	v = kc_u64map_sorted(&m);
	assert_non_null(v);
	assert_true(v[0]->key == 0);
	assert_true(v[1]->key == 3);
	assert_true(v[2]->key == 77 && v[2]->tag == 0);
	assert_true(v[3]->key == 77 && v[3]->tag == 1);
	assert_true(v[4]->key == 77 && v[4]->tag == 9);
	assert_true(v[5]->key == 900);
	assert_true(v[6]->key == 3 << 20);
	assert_true(v[7]->key == UINT64_MAX);
	assert_true(*(uint64_t *)v[7]->val == 2);
	free(v);
	while ((s = kc_u64map_next(&m, &pos))) {
		seen++;
		sum += *(uint64_t *)s->val;
	}
	assert_int_equal(seen, 8);
	assert_int_equal(sum, 0 + 1 + 2 + 3 + 4 + 5 + 100 + 101);
	kc_u64map_free(&m);
}

/* Out of memory: the put fails with -ENOMEM and the map is unchanged. */
static void
test_out_of_memory(void **state)
{
	struct kc_u64map m;
	uint64_t i, v;

	(void)state;
	kc_u64map_init(&m, sizeof(uint64_t));
	fail_allocs = 1;
	assert_int_equal(kc_u64map_put64(&m, 0, 1, 1), -ENOMEM);
	assert_int_equal(kc_u64map_put(&m, 0, 1, &i), -ENOMEM);
	fail_allocs = 0;
	assert_int_equal(m.n, 0);
	assert_int_equal(kc_u64map_get64(&m, 0, 1, &v), 0);
	/* Fill to the point of growing, then fail the growth. */
	for (i = 0; i < 32; i++)
		assert_int_equal(kc_u64map_put64(&m, 0, i, i), 0);
	assert_int_equal(m.cap, 64);
	fail_allocs = 1;
	assert_int_equal(kc_u64map_put64(&m, 0, 32, 32), -ENOMEM);
	/* An overwrite needs no memory. */
	assert_int_equal(kc_u64map_put64(&m, 0, 5, 55), 0);
	assert_null(kc_u64map_sorted(&m));
	fail_allocs = 0;
	assert_int_equal(m.n, 32);
	assert_int_equal(m.cap, 64);
	assert_int_equal(kc_u64map_get64(&m, 0, 32, &v), 0);
	for (i = 0; i < 32; i++) {
		assert_int_equal(kc_u64map_get64(&m, 0, i, &v), 1);
		assert_true(v == (i == 5 ? 55 : i));
	}
	assert_int_equal(kc_u64map_put64(&m, 0, 32, 32), 0);
	assert_int_equal(m.cap, 128);
	kc_u64map_free(&m);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_put_get_overwrite),
		cmocka_unit_test(test_zeroed_u64),
		cmocka_unit_test(test_set),
		cmocka_unit_test(test_odd_value_size),
		cmocka_unit_test(test_rounds),
		cmocka_unit_test(test_grow),
		cmocka_unit_test(test_create_destroy_cycles),
		cmocka_unit_test(test_delete_in_runs),
		cmocka_unit_test(test_tags),
		cmocka_unit_test(test_sorted_and_next),
		cmocka_unit_test(test_out_of_memory),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

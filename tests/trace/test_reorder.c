/* SPDX-License-Identifier: MIT */
/*
 * kt_heap (kfdtrace/reorder.h), the ordering buffer of the three
 * reorderers: key then tie-break order over random input, top, empty
 * pops, fini's drop; and equal keys without a tie-break come out in the
 * order the CLI's own heap gave them (dump --order time's ties).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "kfdtrace/reorder.h"

#define N 5000

struct item {
	uint64_t key, ord;
	size_t id;
};

static uint64_t rnd_state = 88172645463325252ull;

static uint64_t
rnd(void)
{
	rnd_state ^= rnd_state << 13;
	rnd_state ^= rnd_state >> 7;
	rnd_state ^= rnd_state << 17;
	return rnd_state;
}

static int tie_calls;

/* The bt2 source's tie-break: file order. */
static int
by_ord(const void *a, const void *b)
{
	tie_calls++;
	return ((const struct item *)a)->ord < ((const struct item *)b)->ord;
}

static void
test_order(void **state)
{
	static struct item it[N];
	struct kt_heap h;
	uint64_t pk = 0, po = 0;

	(void)state;
	kt_heap_init(&h, by_ord);
	assert_null(kt_heap_top(&h));
	assert_null(kt_heap_pop(&h));
	tie_calls = 0;
	for (size_t i = 0; i < N; i++) {
		it[i].key = rnd() % 300;	/* many equal keys */
		it[i].ord = rnd();		/* not the push order */
		it[i].id = i;
		assert_int_equal(kt_heap_push(&h, it[i].key, &it[i]), 0);
	}
	assert_int_equal(h.n, N);
	for (size_t i = 0; i < N; i++) {
		const struct kt_heap_ent *top = kt_heap_top(&h);
		struct item *x;
		void *expect;

		assert_non_null(top);
		expect = top->p;
		assert_true(top->key == ((struct item *)expect)->key);
		x = kt_heap_pop(&h);
		assert_ptr_equal(x, expect);
		if (i)
			assert_true(x->key > pk || (x->key == pk && x->ord > po));
		pk = x->key;
		po = x->ord;
	}
	assert_int_equal(h.n, 0);
	assert_true(tie_calls > 0);
	assert_null(kt_heap_pop(&h));
	kt_heap_fini(&h, NULL);
}

static int drops;

static void
drop(void *p)
{
	(void)p;
	drops++;
}

static void
test_fini(void **state)
{
	struct kt_heap h;
	int x[3];

	(void)state;
	kt_heap_init(&h, NULL);
	for (int i = 0; i < 3; i++)
		assert_int_equal(kt_heap_push(&h, (uint64_t)(3 - i), &x[i]), 0);
	assert_ptr_equal(kt_heap_top(&h)->p, &x[2]);
	assert_true(kt_heap_top(&h)->key == 1);
	drops = 0;
	kt_heap_fini(&h, drop);
	assert_int_equal(drops, 3);
	assert_int_equal(h.n, 0);
	assert_null(h.v);
}

/*
 * The CLI's heap before it used kt_heap (tools/kfdtrace/core/reorder.c):
 * swaps up while the parent is greater; down to the smaller child, the
 * left one on a tie, while it is smaller.
 */
struct ref {
	struct item *v[N];
	size_t n;
};

static void
ref_push(struct ref *r, struct item *x)
{
	size_t i = r->n++;

	r->v[i] = x;
	while (i > 0) {
		size_t p = (i - 1) / 2;
		struct item *t;

		if (r->v[p]->key <= r->v[i]->key)
			break;
		t = r->v[p];
		r->v[p] = r->v[i];
		r->v[i] = t;
		i = p;
	}
}

static struct item *
ref_pop(struct ref *r)
{
	struct item *top = r->v[0];
	size_t i = 0;

	r->v[0] = r->v[--r->n];
	for (;;) {
		size_t l = 2 * i + 1, rr = l + 1, m = i;
		struct item *t;

		if (l < r->n && r->v[l]->key < r->v[m]->key)
			m = l;
		if (rr < r->n && r->v[rr]->key < r->v[m]->key)
			m = rr;
		if (m == i)
			break;
		t = r->v[m];
		r->v[m] = r->v[i];
		r->v[i] = t;
		i = m;
	}
	return top;
}

static void
test_ties_as_before(void **state)
{
	static struct item it[N];
	static struct ref ref;
	struct kt_heap h;

	(void)state;
	kt_heap_init(&h, NULL);
	ref.n = 0;
	/* Interleaved pushes and pops, keys from a small set. */
	for (size_t i = 0; i < N; i++) {
		it[i].key = rnd() % 8;
		it[i].id = i;
		ref_push(&ref, &it[i]);
		assert_int_equal(kt_heap_push(&h, it[i].key, &it[i]), 0);
		if (rnd() % 3 == 0) {
			assert_ptr_equal(kt_heap_pop(&h), ref_pop(&ref));
		}
	}
	while (ref.n)
		assert_ptr_equal(kt_heap_pop(&h), ref_pop(&ref));
	assert_int_equal(h.n, 0);
	kt_heap_fini(&h, NULL);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_order),
		cmocka_unit_test(test_fini),
		cmocka_unit_test(test_ties_as_before),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

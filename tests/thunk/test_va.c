/* SPDX-License-Identifier: MIT */
/*
 * The VA allocator (thunk/memory/va.c) and the red-black tree under it, against
 * a page bitmap that is obviously right: every allocation must be free
 * in the bitmap and aligned, must succeed whenever the bitmap has room,
 * must be the lowest fit when no alignment slack is involved, and
 * releases must merge back so the whole range is one extent again.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "memory/rbtree.h"
#include "memory/va.h"

#define PAGE		4096ULL
#define NPAGES		4096
#define BASE		0x100000ULL
#define LIMIT		(BASE + NPAGES * PAGE - 1)

struct model {
	unsigned char used[NPAGES];
};

static bool
model_free(const struct model *m, uint64_t addr, uint64_t size)
{
	uint64_t p;

	for (p = (addr - BASE) / PAGE; p < (addr - BASE + size) / PAGE; p++)
		if (m->used[p])
			return false;
	return true;
}

static void
model_set(struct model *m, uint64_t addr, uint64_t size, unsigned char v)
{
	memset(&m->used[(addr - BASE) / PAGE], v, size / PAGE);
}

/* The lowest aligned address the bitmap allows, or 0. */
static uint64_t
model_first_fit(const struct model *m, uint64_t size, uint64_t align)
{
	uint64_t a;

	for (a = (BASE + align - 1) & ~(align - 1); a + size - 1 <= LIMIT; a += align)
		if (model_free(m, a, size))
			return a;
	return 0;
}

/* Red-black invariants; returns the black height. */
static int
check_rb(const struct kmt_rb_node *n, const struct kmt_rb_node *parent)
{
	int lh, rh;

	if (!n)
		return 1;
	assert_ptr_equal(n->parent, parent);
	if (n->red) {
		assert_false(n->left && n->left->red);
		assert_false(n->right && n->right->red);
	}
	lh = check_rb(n->left, n);
	rh = check_rb(n->right, n);
	assert_int_equal(lh, rh);
	return lh + !n->red;
}

static void
test_alloc_release_matches_model(void **state)
{
	struct kmt_va va;
	struct model m = {0};
	uint64_t addrs[512], sizes[512];
	unsigned int n = 0, i, step;

	(void)state;
	srand(1234);
	assert_int_equal(kmt_va_init(&va, BASE, LIMIT), 0);
	for (step = 0; step < 3000; step++) {
		if (n < 512 && (rand() % 3 || !n)) {
			uint64_t size = (uint64_t)(rand() % 16 + 1) * PAGE;
			uint64_t align = PAGE << (rand() % 4);
			uint64_t want = model_first_fit(&m, size, align), got = 0;
			int r = kmt_va_alloc(&va, size, align, 0, &got);

			if (!want) {
				/* Only fragmentation can make us miss; the model agrees. */
				assert_int_equal(r, -ENOMEM);
				continue;
			}
			assert_int_equal(r, 0);
			/* Aligned and free; without alignment it is also the
			 * lowest fit (with alignment the O(log n) search may
			 * take a later extent that surely fits). */
			assert_int_equal(got & (align - 1), 0);
			assert_true(model_free(&m, got, size));
			if (align == PAGE)
				assert_int_equal(got, want);
			model_set(&m, got, size, 1);
			addrs[n] = got;
			sizes[n++] = size;
		} else {
			i = (unsigned int)rand() % n;
			assert_int_equal(kmt_va_release(&va, addrs[i], sizes[i]), 0);
			model_set(&m, addrs[i], sizes[i], 0);
			addrs[i] = addrs[--n];
			sizes[i] = sizes[n];
		}
		check_rb(va.free.root, NULL);
	}
	while (n--)
		assert_int_equal(kmt_va_release(&va, addrs[n], sizes[n]), 0);
	/* Everything merged back into one extent covering the range. */
	assert_int_equal(va.free_bytes, LIMIT - BASE + 1);
	assert_non_null(va.free.root);
	assert_null(va.free.root->left);
	assert_null(va.free.root->right);
	kmt_va_fini(&va);
}

static void
test_phase_aligns_end(void **state)
{
	struct kmt_va va;
	uint64_t a;

	(void)state;
	assert_int_equal(kmt_va_init(&va, BASE, LIMIT), 0);
	/* 3 pages, 16 KiB aligned end: start % 16K == -3 pages % 16K. */
	assert_int_equal(kmt_va_alloc(&va, 3 * PAGE, 4 * PAGE, (0 - 3 * PAGE) & (4 * PAGE - 1), &a), 0);
	assert_int_equal((a + 3 * PAGE) & (4 * PAGE - 1), 0);
	kmt_va_fini(&va);
}

static void
test_reserve_and_errors(void **state)
{
	struct kmt_va va;
	uint64_t a;

	(void)state;
	assert_int_equal(kmt_va_init(&va, BASE, LIMIT), 0);
	assert_int_equal(kmt_va_reserve(&va, BASE + 10 * PAGE, 4 * PAGE), 0);
	/* Overlapping reservations and double releases are refused. */
	assert_int_equal(kmt_va_reserve(&va, BASE + 12 * PAGE, 4 * PAGE), -EBUSY);
	assert_int_equal(kmt_va_release(&va, BASE + 8 * PAGE, 4 * PAGE), -EINVAL);
	assert_int_equal(kmt_va_release(&va, BASE + 10 * PAGE, 4 * PAGE), 0);
	assert_int_equal(kmt_va_release(&va, BASE + 10 * PAGE, 4 * PAGE), -EINVAL);
	/* Outside the range, zero sizes, bad alignment. */
	assert_int_equal(kmt_va_reserve(&va, LIMIT, 2 * PAGE), -EBUSY);
	assert_int_equal(kmt_va_release(&va, LIMIT + 1, PAGE), -EINVAL);
	assert_int_equal(kmt_va_alloc(&va, 0, PAGE, 0, &a), -EINVAL);
	assert_int_equal(kmt_va_alloc(&va, PAGE, 3 * PAGE, 0, &a), -EINVAL);
	/* Too big for the whole range. */
	assert_int_equal(kmt_va_alloc(&va, (NPAGES + 1) * PAGE, PAGE, 0, &a), -ENOMEM);
	/* Fill it exactly, then nothing is left. */
	assert_int_equal(kmt_va_alloc(&va, NPAGES * PAGE, PAGE, 0, &a), 0);
	assert_int_equal(a, BASE);
	assert_int_equal(kmt_va_alloc(&va, PAGE, PAGE, 0, &a), -ENOMEM);
	assert_int_equal(kmt_va_init(&va, LIMIT, BASE), -EINVAL);
	kmt_va_fini(&va);
}

/* A slack-needing request still finds an aligned fit in a small hole. */
static void
test_alignment_in_exact_hole(void **state)
{
	struct kmt_va va;
	uint64_t a;

	(void)state;
	assert_int_equal(kmt_va_init(&va, BASE, LIMIT), 0);
	/* Leave exactly one free 8-page hole aligned to 8 pages. */
	assert_int_equal(kmt_va_reserve(&va, BASE, 8 * PAGE), 0);
	assert_int_equal(kmt_va_reserve(&va, BASE + 16 * PAGE, (NPAGES - 16) * PAGE), 0);
	assert_int_equal(kmt_va_alloc(&va, 8 * PAGE, 8 * PAGE, 0, &a), 0);
	assert_int_equal(a, BASE + 8 * PAGE);
	kmt_va_fini(&va);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_alloc_release_matches_model),
		cmocka_unit_test(test_phase_aligns_end),
		cmocka_unit_test(test_reserve_and_errors),
		cmocka_unit_test(test_alignment_in_exact_hole),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

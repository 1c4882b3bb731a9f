/* SPDX-License-Identifier: MIT */
/*
 * Free extents [start, end) in an address-ordered red-black tree whose
 * nodes carry the largest extent length of their subtree ("max_len").
 * Finding the lowest extent of at least n bytes follows max_len down one
 * path. An allocation first tries the lowest extent of at least size
 * bytes (if the alignment fits there, no lower address can work); then
 * the lowest with size + align - 1 bytes, where any alignment fits; only
 * if neither works are the remaining extents tried in address order,
 * still skipping every subtree whose max_len is below size.
 */
#include <errno.h>
#include <stdlib.h>

#include "memory/va.h"

struct kmt_va_extent {
	struct kmt_rb_node node;
	uint64_t start;
	uint64_t end;		/* exclusive */
	uint64_t max_len;	/* largest end - start in this subtree */
};

#define to_ext(n) kmt_rb_entry(n, struct kmt_va_extent, node)

static uint64_t
ext_max(const struct kmt_rb_node *n)
{
	return n ? to_ext(n)->max_len : 0;
}

static void
ext_update(struct kmt_rb_node *n)
{
	struct kmt_va_extent *e = to_ext(n);
	uint64_t m = e->end - e->start;

	if (ext_max(n->left) > m)
		m = ext_max(n->left);
	if (ext_max(n->right) > m)
		m = ext_max(n->right);
	e->max_len = m;
}

static int
ext_insert(struct kmt_va *va, uint64_t start, uint64_t end)
{
	struct kmt_va_extent *e = malloc(sizeof(*e));
	struct kmt_rb_node *parent = NULL, *cur = va->free.root;
	bool left = false;

	if (!e)
		return -ENOMEM;
	e->start = start;
	e->end = end;
	e->max_len = end - start;
	while (cur) {
		parent = cur;
		left = start < to_ext(cur)->start;
		cur = left ? cur->left : cur->right;
	}
	kmt_rb_insert(&va->free, &e->node, parent, left);
	return 0;
}

static void
ext_remove(struct kmt_va *va, struct kmt_va_extent *e)
{
	kmt_rb_erase(&va->free, &e->node);
	free(e);
}

/* The last extent starting at or below @addr (NULL if none). */
static struct kmt_va_extent *
ext_floor(const struct kmt_va *va, uint64_t addr)
{
	struct kmt_rb_node *cur = va->free.root;
	struct kmt_va_extent *best = NULL;

	while (cur) {
		if (to_ext(cur)->start <= addr) {
			best = to_ext(cur);
			cur = cur->right;
		} else {
			cur = cur->left;
		}
	}
	return best;
}

/* The lowest extent of at least @need bytes, in O(log n). */
static struct kmt_va_extent *
ext_first_fit(const struct kmt_va *va, uint64_t need)
{
	struct kmt_rb_node *cur = va->free.root;

	if (ext_max(cur) < need)
		return NULL;
	while (cur) {
		if (ext_max(cur->left) >= need)
			cur = cur->left;
		else if (to_ext(cur)->end - to_ext(cur)->start >= need)
			return to_ext(cur);
		else
			cur = cur->right;
	}
	return NULL;
}

/* Where an aligned block of @size starts inside @e, or false. */
static bool
ext_fit(const struct kmt_va_extent *e, uint64_t size, uint64_t align, uint64_t phase,
	uint64_t *addr)
{
	uint64_t a = e->start;

	if (align > 1) {
		uint64_t rem = (phase - a) & (align - 1);

		if (a + rem < a)
			return false;
		a += rem;
	}
	if (a < e->start || a > e->end || e->end - a < size)
		return false;
	*addr = a;
	return true;
}

/* Smaller extents in address order, pruning subtrees that cannot fit. */
static struct kmt_va_extent *
ext_scan(struct kmt_rb_node *n, uint64_t size, uint64_t align, uint64_t phase,
	 uint64_t *addr)
{
	struct kmt_va_extent *hit;

	if (!n || ext_max(n) < size)
		return NULL;
	hit = ext_scan(n->left, size, align, phase, addr);
	if (hit)
		return hit;
	if (ext_fit(to_ext(n), size, align, phase, addr))
		return to_ext(n);
	return ext_scan(n->right, size, align, phase, addr);
}

/* Cut [a, a + size) out of extent @e. */
static int
ext_carve(struct kmt_va *va, struct kmt_va_extent *e, uint64_t a, uint64_t size)
{
	uint64_t end = a + size;

	if (a == e->start && end == e->end) {
		ext_remove(va, e);
	} else if (a == e->start) {
		e->start = end;
		kmt_rb_update_path(&va->free, &e->node);
	} else if (end == e->end) {
		e->end = a;
		kmt_rb_update_path(&va->free, &e->node);
	} else {
		uint64_t old_end = e->end;

		/* Insert the tail first: on failure nothing has changed. */
		if (ext_insert(va, end, old_end))
			return -ENOMEM;
		e->end = a;
		kmt_rb_update_path(&va->free, &e->node);
	}
	va->free_bytes -= size;
	return 0;
}

int
kmt_va_init(struct kmt_va *va, uint64_t base, uint64_t limit)
{
	va->free.root = NULL;
	va->free.update = ext_update;
	va->base = base;
	va->limit = limit;
	va->free_bytes = 0;
	if (limit < base || limit == UINT64_MAX)
		return -EINVAL;
	va->free_bytes = limit - base + 1;
	return ext_insert(va, base, limit + 1);
}

void
kmt_va_fini(struct kmt_va *va)
{
	struct kmt_rb_node *n;

	while ((n = va->free.root))
		ext_remove(va, to_ext(n));
	va->free_bytes = 0;
}

int
kmt_va_alloc(struct kmt_va *va, uint64_t size, uint64_t align, uint64_t phase, uint64_t *addr)
{
	struct kmt_va_extent *e;
	uint64_t a;

	if (!size || (align & (align - 1)))
		return -EINVAL;
	if (align <= 1)
		align = 1;
	/* The lowest extent that is big enough: if it fits, nothing lower can. */
	e = ext_first_fit(va, size);
	if (e && ext_fit(e, size, align, phase, &a)) {
		*addr = a;
		return ext_carve(va, e, a, size);
	}
	/* The lowest extent with room for any alignment surely fits. */
	if (align > 1 && size + (align - 1) > size) {
		e = ext_first_fit(va, size + (align - 1));
		if (e && ext_fit(e, size, align, phase, &a)) {
			*addr = a;
			return ext_carve(va, e, a, size);
		}
	}
	e = ext_scan(va->free.root, size, align, phase, &a);
	if (!e)
		return -ENOMEM;
	*addr = a;
	return ext_carve(va, e, a, size);
}

int
kmt_va_reserve(struct kmt_va *va, uint64_t addr, uint64_t size)
{
	struct kmt_va_extent *e;

	if (!size || addr + size < addr)
		return -EINVAL;
	e = ext_floor(va, addr);
	if (!e || e->end < addr + size || e->end <= addr)
		return -EBUSY;
	return ext_carve(va, e, addr, size);
}

int
kmt_va_release(struct kmt_va *va, uint64_t addr, uint64_t size)
{
	struct kmt_va_extent *prev, *next = NULL;
	struct kmt_rb_node *n;
	uint64_t end = addr + size;

	if (!size || end < addr || addr < va->base || end - 1 > va->limit)
		return -EINVAL;
	prev = ext_floor(va, addr);
	if (prev) {
		if (prev->end > addr)
			return -EINVAL;	/* overlaps free space: double release */
		n = kmt_rb_next(&prev->node);
		next = n ? to_ext(n) : NULL;
	} else {
		n = kmt_rb_first(&va->free);
		next = n ? to_ext(n) : NULL;
	}
	if (next && next->start < end)
		return -EINVAL;

	if (prev && prev->end == addr && next && next->start == end) {
		prev->end = next->end;
		ext_remove(va, next);
		kmt_rb_update_path(&va->free, &prev->node);
	} else if (prev && prev->end == addr) {
		prev->end = end;
		kmt_rb_update_path(&va->free, &prev->node);
	} else if (next && next->start == end) {
		next->start = addr;
		kmt_rb_update_path(&va->free, &next->node);
	} else if (ext_insert(va, addr, end)) {
		return -ENOMEM;
	}
	va->free_bytes += size;
	return 0;
}

/* SPDX-License-Identifier: MIT */
/*
 * A virtual address range allocator: the free parts of [base, limit] in a
 * red-black tree of extents ordered by address, each subtree knowing its
 * largest extent. Allocation is lowest-address first fit with alignment,
 * in O(log n); reservation of a fixed range and release (merging with
 * the neighbours) are O(log n) too. Guard pages are the caller's business
 * (allocate size + guard, release the same).
 */
#ifndef KMT_VA_H
#define KMT_VA_H

#include <stdint.h>

#include "memory/rbtree.h"

struct kmt_va {
	struct kmt_rb_tree free;	/* struct kmt_va_extent by start */
	uint64_t base;
	uint64_t limit;			/* inclusive */
	uint64_t free_bytes;
};

/* kmt_va_init() - all of [@base, @limit] free. Return: 0 or -ENOMEM/-EINVAL. */
int kmt_va_init(struct kmt_va *va, uint64_t base, uint64_t limit);

/* kmt_va_fini() - forget every extent. */
void kmt_va_fini(struct kmt_va *va);

/*
 * kmt_va_alloc() - the lowest address A with A % @align == @phase % @align
 * such that [A, A + @size) is free; mark it used.
 * @align: a power of two (0 or 1: any).
 * Return: 0 and *@addr, -ENOMEM when nothing fits, -EINVAL for bad input.
 */
int kmt_va_alloc(struct kmt_va *va, uint64_t size, uint64_t align, uint64_t phase,
		 uint64_t *addr);

/* kmt_va_reserve() - mark [@addr, @addr + @size) used. Return: 0, -EBUSY if not all free. */
int kmt_va_reserve(struct kmt_va *va, uint64_t addr, uint64_t size);

/*
 * kmt_va_release() - mark [@addr, @addr + @size) free again.
 * Return: 0; -EINVAL if part of it was already free or outside the range.
 */
int kmt_va_release(struct kmt_va *va, uint64_t addr, uint64_t size);

#endif /* KMT_VA_H */

/* SPDX-License-Identifier: MIT */
/* One fact of a header: a type's size/alignment, a member's offset/size, a constant. */
#ifndef KMT_TEST_ABI_PROBE_H
#define KMT_TEST_ABI_PROBE_H

struct abi_row {
	const char *type;
	const char *member;
	int kind;			/* 0 type, 1 member, 2 constant */
	unsigned long long a;		/* size, offset or value */
	unsigned long long b;		/* alignment or member size */
};

extern const struct abi_row abi_ours[];
extern const struct abi_row abi_debian[];

#endif

/* SPDX-License-Identifier: MIT */
/*
 * Layout facts of one hsakmttypes.h. Compiled twice: with KMT_ABI_HEADER
 * naming our header and KMT_ABI_TABLE abi_ours, and with the
 * distribution's header and abi_debian.
 */
#include <stddef.h>
#include <stdint.h>

#include KMT_ABI_HEADER

#include "abi_probe.h"

#define member_size(type, m)	sizeof(((type *)0)->m)

const struct abi_row KMT_ABI_TABLE[] = {
#define ABI_TYPE(t)		{ #t, "", 0, sizeof(t), _Alignof(t) },
#define ABI_FIELD(t, m)		{ #t, #m, 1, offsetof(t, m), member_size(t, m) },
#define ABI_CONST(c)		{ #c, "=", 2, (unsigned long long)(c), 0 },
#include "abi_list.h"
#undef ABI_TYPE
#undef ABI_FIELD
#undef ABI_CONST
	{ NULL, NULL, 0, 0, 0 },
};

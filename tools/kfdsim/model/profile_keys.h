/* SPDX-License-Identifier: MIT */
/*
 * Key tables of the profile text format: one row per `key value` line a
 * section accepts, with where the value lives in the C structs. The parser,
 * the writer and the comparison all walk these tables, so a key added here
 * is parsed, saved and compared without further code.
 */
#ifndef KSIM_PROFILE_KEYS_H
#define KSIM_PROFILE_KEYS_H

#include <stddef.h>
#include <stdint.h>

#include "ksim_profile.h"

enum ksim_key_kind {
	KSIM_KEY_U32,
	KSIM_KEY_U64,
	KSIM_KEY_STR,		/* char[size] */
	KSIM_KEY_U32_LIST,	/* uint32_t[size], comma separated */
};

struct ksim_key {
	const char *name;
	uint8_t kind;
	uint16_t offset;
	uint16_t size;		/* STR: buffer size; U32_LIST: element count */
};

struct ksim_key_table {
	const struct ksim_key *keys;
	unsigned int count;
};

extern const struct ksim_key_table ksim_keys_machine;
extern const struct ksim_key_table ksim_keys_mem_bank;
extern const struct ksim_key_table ksim_keys_cache;	/* sans sibling_map */
extern const struct ksim_key_table ksim_keys_io_link;	/* sans the sdma mask */
extern const struct ksim_key_table ksim_keys_gpu;
extern const struct ksim_key_table ksim_keys_drm;
extern const struct ksim_key_table ksim_keys_cpu;		/* [cpu] */
extern const struct ksim_key_table ksim_keys_cpu_cache;	/* [cpu cache C] */

const struct ksim_key *ksim_key_find(const struct ksim_key_table *t,
				     const char *name);

/* ksim_node_prop_find() - index of a node property key, or -1. */
int ksim_node_prop_find(const char *name);

/* Bit of props_present for an optional node property. */
#define KSIM_NP_BIT(p)		(1ULL << (p))

#endif /* KSIM_PROFILE_KEYS_H */

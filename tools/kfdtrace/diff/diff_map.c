/* SPDX-License-Identifier: MIT */
/*
 * Value correspondence between two traces (see diff_map.h).
 */
#include <string.h>

#include "diff/diff_map.h"

int
dmap_rule_of(enum kfd_role role)
{
	enum kfd_space space = kfd_role_space(role);
	unsigned int fl = kfd_role_flags(role);

	if (space != KFD_SPACE_NONE)
		return (int)space - 1;
	/* A replay bounds every wait (--wait-timeout), and its strict
	 * verification ignores timeouts too: so does diff. */
	if (fl & KFD_RC_VOLATILE)
		return DMAP_IGNORE;
	if (fl & KFD_RC_POINTER)
		return DMAP_NULLNESS;
	return DMAP_EXACT;
}

const char *
dmap_space_name(enum dmap_space s)
{
	static const char *const names[DMAP_SPACES] = {
		[DMAP_HANDLE] = "handles",
		[DMAP_GPU] = "gpu_ids",
		[DMAP_QUEUE] = "queue ids",
		[DMAP_EVENT] = "event ids",
		[DMAP_SLOT] = "event slots",
		[DMAP_FD] = "fds",
		[DMAP_OFFSET] = "mmap offsets",
		[DMAP_ADDR] = "addresses",
		[DMAP_GEM] = "GEM handles",
		[DMAP_PID] = "pids",
	};

	return s < DMAP_SPACES ? names[s] : "values";
}

/*
 * Whether 0 means "none" in a space (NULL, no handle, no offset) rather
 * than a value the kernel hands out (queue 0, slot 0, fd 0).
 */
static int
zero_is_none(enum dmap_space s)
{
	return s != DMAP_QUEUE && s != DMAP_EVENT && s != DMAP_SLOT &&
	       s != DMAP_FD;
}

void
dmap_init(struct dmap *m)
{
	unsigned int i;

	memset(m, 0, sizeof(*m));
	for (i = 0; i < DMAP_SPACES; i++) {
		kc_u64map_init(&m->ab[i], sizeof(struct obj_val));
		kc_u64map_init(&m->ba[i], sizeof(struct obj_val));
	}
}

void
dmap_release_all(struct dmap *m)
{
	unsigned int i;

	for (i = 0; i < DMAP_SPACES; i++) {
		kc_u64map_free(&m->ab[i]);
		kc_u64map_free(&m->ba[i]);
	}
}

int
dmap_match(struct dmap *m, enum dmap_space space, uint64_t a, uint64_t b,
	   uint64_t seq, uint64_t *expect, int *expect_is_a)
{
	struct obj_val *pa, *pb, v;

	*expect_is_a = -1;
	*expect = 0;
	if ((a == 0 || b == 0) && zero_is_none(space))
		return a == b;
	pa = kc_u64map_get(&m->ab[space], 0, a);
	pb = kc_u64map_get(&m->ba[space], 0, b);
	if (pa || pb) {
		if (pa && pa->size == b)
			return 1;
		if (pa) {
			*expect = pa->size;
			*expect_is_a = 0;
		} else {
			*expect = pb->size;
			*expect_is_a = 1;
		}
		return 0;
	}
	memset(&v, 0, sizeof(v));
	v.seq = seq;
	v.size = b;
	if (kc_u64map_put(&m->ab[space], 0, a, &v))
		m->oom = 1;
	v.size = a;
	if (kc_u64map_put(&m->ba[space], 0, b, &v))
		m->oom = 1;
	m->bound[space]++;
	return 1;
}

void
dmap_unbind_a(struct dmap *m, enum dmap_space space, uint64_t a)
{
	struct obj_val v;

	if (kc_u64map_del(&m->ab[space], 0, a, &v))
		kc_u64map_del(&m->ba[space], 0, v.size, NULL);
}

void
dmap_unbind_b(struct dmap *m, enum dmap_space space, uint64_t b)
{
	struct obj_val v;

	if (kc_u64map_del(&m->ba[space], 0, b, &v))
		kc_u64map_del(&m->ab[space], 0, v.size, NULL);
}

/* SPDX-License-Identifier: MIT */
/*
 * The CPU address space of the replay.
 *
 * The kernel keeps some CPU addresses (userptr ranges, SVM ranges) and the
 * captured process placed device mappings at addresses of its choosing.
 * Before replaying, every such range of the model is reserved PROT_NONE at
 * its captured address (MAP_FIXED_NOREPLACE), so that nothing the replayer
 * allocates later lands there. A range already taken in the replayer is
 * reserved elsewhere and becomes a relocation: captured addresses inside it
 * are translated, and the fields that carry them are rewritten.
 *
 * Inside our reservations we map with MAP_FIXED (the memory is ours); an
 * unmap puts the reservation back instead of leaving a hole. Outside them
 * we never replace or unmap memory we did not map ourselves.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "replay_as.h"

#define RES_FLAGS (MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE)

/* ------------------------------------------------------------------ */
/* Sorted interval sets                                                 */

static struct rp_as_range *
ranges(const struct rp_as *as)
{
	return (struct rp_as_range *)as->ranges.data;
}

static struct rp_as_map *
maps(const struct rp_as *as)
{
	return (struct rp_as_map *)as->maps.data;
}

/*
 * The first mapping that ends after @a. Mappings do not overlap, so their
 * ends are sorted like their starts.
 */
static size_t
map_after(const struct rp_as *as, uint64_t a)
{
	size_t lo = 0, hi = as->maps.n;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (maps(as)[mid].end <= a)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* The first reservation that starts after @a. */
static size_t
range_after(const struct rp_as *as, uint64_t a)
{
	size_t lo = 0, hi = as->ranges.n;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (ranges(as)[mid].start <= a)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* Remove [s, e) from the set of live mappings (trimming and splitting). */
static void
maps_remove(struct rp_as *as, uint64_t s, uint64_t e)
{
	size_t i = map_after(as, s), j;

	if (i < as->maps.n && maps(as)[i].start < s && maps(as)[i].end > e) {
		struct rp_as_map tail = { e, maps(as)[i].end };

		maps(as)[i].end = s;
		if (!rp_vec_push(&as->maps))
			return;
		memmove(&maps(as)[i + 2], &maps(as)[i + 1],
			(as->maps.n - i - 2) * sizeof(tail));
		maps(as)[i + 1] = tail;
		return;
	}
	if (i < as->maps.n && maps(as)[i].start < s && maps(as)[i].end > s) {
		maps(as)[i].end = s;
		i++;
	}
	/* [i, j) lie wholly inside [s, e); j may start inside and go on. */
	for (j = i; j < as->maps.n && maps(as)[j].end <= e; j++)
		;
	if (j < as->maps.n && maps(as)[j].start < e)
		maps(as)[j].start = e;
	if (j > i) {
		memmove(&maps(as)[i], &maps(as)[j],
			(as->maps.n - j) * sizeof(struct rp_as_map));
		as->maps.n -= j - i;
	}
}

static void
maps_add(struct rp_as *as, uint64_t s, uint64_t e)
{
	size_t i;

	maps_remove(as, s, e);
	i = map_after(as, s);
	if (!rp_vec_push(&as->maps))
		return;
	memmove(&maps(as)[i + 1], &maps(as)[i],
		(as->maps.n - 1 - i) * sizeof(struct rp_as_map));
	maps(as)[i].start = s;
	maps(as)[i].end = e;
}

/* The reservation holding captured address @a, or NULL. */
static struct rp_as_range *
range_of(const struct rp_as *as, uint64_t a)
{
	size_t lo = 0, hi = as->ranges.n;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		struct rp_as_range *r = &ranges(as)[mid];

		if (a < r->start)
			hi = mid;
		else if (a >= r->end)
			lo = mid + 1;
		else
			return r;
	}
	return NULL;
}

/*
 * The end of the gap between reservations that starts at @a (not inside
 * one): the start of the next reservation, or @e when none starts before.
 */
static uint64_t
gap_end(const struct rp_as *as, uint64_t a, uint64_t e)
{
	size_t i = range_after(as, a);

	if (i < as->ranges.n && ranges(as)[i].start < e)
		e = ranges(as)[i].start;
	return e;
}

static void
range_insert(struct rp_as *as, uint64_t start, uint64_t end, uint64_t live,
	     int reserved)
{
	size_t i = range_after(as, start);
	struct rp_as_range *r;

	if (!rp_vec_push(&as->ranges))
		return;
	r = &ranges(as)[i];
	memmove(r + 1, r, (as->ranges.n - 1 - i) * sizeof(*r));
	r->start = start;
	r->end = end;
	r->live = live;
	r->reserved = (uint8_t)reserved;
}

/* ------------------------------------------------------------------ */

int
rp_as_init(struct rp_as *as)
{
	memset(as, 0, sizeof(*as));
	rp_vec_init(&as->ranges, sizeof(struct rp_as_range));
	rp_vec_init(&as->maps, sizeof(struct rp_as_map));
	as->guard = mmap(NULL, RP_PAGE, PROT_NONE, RES_FLAGS, -1, 0);
	if (as->guard == MAP_FAILED) {
		as->guard = NULL;
		return -errno;
	}
	return 0;
}

static int
cmp_u64_pair(const void *a, const void *b)
{
	const uint64_t *x = a, *y = b;

	return x[0] < y[0] ? -1 : x[0] > y[0];
}

/*
 * Whether live [s, e) lies inside one of the reservations in @res (pairs
 * of live start and end, sorted, not overlapping).
 */
static int
in_reserved(const uint64_t *res, size_t n, uint64_t s, uint64_t e)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (res[2 * mid] <= s)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo > 0 && res[2 * (lo - 1) + 1] >= e;
}

void
rp_as_release(struct rp_as *as)
{
	uint64_t *res = malloc((as->ranges.n + 1) * 2 * sizeof(*res));
	size_t i, nres = 0;

	for (i = 0; i < as->ranges.n; i++) {
		struct rp_as_range *r = &ranges(as)[i];

		if (!r->reserved)
			continue;
		munmap((void *)(uintptr_t)r->live, r->end - r->start);
		if (res) {
			res[2 * nres] = r->live;
			res[2 * nres + 1] = r->live + (r->end - r->start);
			nres++;
		}
	}
	if (res)
		qsort(res, nres, 2 * sizeof(*res), cmp_u64_pair);
	/* Our mappings outside reservations (without the table: none known). */
	for (i = 0; res && i < as->maps.n; i++) {
		struct rp_as_map *m = &maps(as)[i];

		if (!in_reserved(res, nres, m->start, m->end))
			munmap((void *)(uintptr_t)m->start, m->end - m->start);
	}
	free(res);
	as->ranges.n = 0;
	as->maps.n = 0;
}

void
rp_as_free(struct rp_as *as)
{
	rp_as_release(as);
	if (as->guard)
		munmap(as->guard, RP_PAGE);
	rp_vec_free(&as->ranges);
	rp_vec_free(&as->maps);
	as->guard = NULL;
}

static int
cmp_range(const void *a, const void *b)
{
	const struct rp_m_range *x = a, *y = b;

	return x->start < y->start ? -1 : x->start > y->start;
}

/*
 * Captured [s, e) is taken in the replayer: place it anywhere with @prot
 * and record the relocation. Return: the live start, or MAP_FAILED.
 */
static void *
relocate(struct rp_as *as, uint64_t s, uint64_t e, int prot, FILE *out)
{
	void *p = mmap(NULL, e - s, prot, RES_FLAGS, -1, 0);

	if (p == MAP_FAILED)
		return p;
	range_insert(as, s, e, (uint64_t)(uintptr_t)p, 1);
	as->reserved_bytes += e - s;
	as->relocations++;
	if (out)
		fprintf(out, "relocated: CPU range 0x%" PRIx64 "-0x%" PRIx64
			" is taken in the replayer; it lives at 0x%" PRIx64
			" and addresses in it are rewritten\n", s, e,
			(uint64_t)(uintptr_t)p);
	return p;
}

/* Reserve [s, e) PROT_NONE at s, or elsewhere (a relocation). */
static void
reserve(struct rp_as *as, uint64_t s, uint64_t e, FILE *out)
{
	void *p = mmap((void *)(uintptr_t)s, e - s, PROT_NONE,
		       RES_FLAGS | MAP_FIXED_NOREPLACE, -1, 0);

	if (p != MAP_FAILED && (uint64_t)(uintptr_t)p != s) {
		/* A kernel without MAP_FIXED_NOREPLACE treats it as a hint. */
		munmap(p, e - s);
		p = MAP_FAILED;
		errno = EEXIST;
	}
	if (p != MAP_FAILED) {
		range_insert(as, s, e, s, 1);
		as->reserved_bytes += e - s;
		return;
	}
	if (errno == EEXIST)
		relocate(as, s, e, PROT_NONE, out);
}

void
rp_as_plan(struct rp_as *as, const struct rp_model *m, FILE *out)
{
	struct rp_m_range *rs;
	size_t n = m->ranges.n, i, k = 0;

	if (!n)
		return;
	rs = malloc(n * sizeof(*rs));
	if (!rs)
		return;
	memcpy(rs, m->ranges.data, n * sizeof(*rs));
	qsort(rs, n, sizeof(*rs), cmp_range);
	/* Merge overlapping and touching ranges. */
	for (i = 1; i < n; i++) {
		if (rs[i].start <= rs[k].end) {
			if (rs[i].end > rs[k].end)
				rs[k].end = rs[i].end;
		} else {
			rs[++k] = rs[i];
		}
	}
	n = k + 1;
	for (i = 0; i < n && i < RP_MAX_RESERVATIONS; i++)
		reserve(as, rs[i].start, rs[i].end, out);
	free(rs);
}

uint64_t
rp_as_xlate(const struct rp_as *as, uint64_t addr)
{
	const struct rp_as_range *r = range_of(as, addr);

	return r ? r->live + (addr - r->start) : addr;
}

int
rp_as_relocated(const struct rp_as *as, uint64_t addr)
{
	const struct rp_as_range *r = range_of(as, addr);

	return r && r->live != r->start;
}

/* Whether live [s, e) lies inside one of our reservations. */
static int
owned(const struct rp_as *as, uint64_t cap, uint64_t len)
{
	const struct rp_as_range *r = range_of(as, cap);

	return r && r->reserved && cap + len <= r->end;
}

void *
rp_as_mmap(struct rp_as *as, uint64_t cap_addr, uint64_t len, int prot,
	   int flags, int fd, uint64_t offset, FILE *out)
{
	int base = flags & ~(MAP_FIXED | MAP_FIXED_NOREPLACE);
	uint64_t target;
	void *p;

	if (!len)
		return mmap((void *)(uintptr_t)cap_addr, 0, prot, flags, fd,
			    (off_t)offset);
	if (!cap_addr)
		return mmap(NULL, len, prot, base, fd, (off_t)offset);
	target = rp_as_xlate(as, cap_addr);
	if (owned(as, cap_addr, len)) {
		p = mmap((void *)(uintptr_t)target, len, prot, base | MAP_FIXED, fd,
			 (off_t)offset);
	} else {
		p = mmap((void *)(uintptr_t)target, len, prot,
			 base | MAP_FIXED_NOREPLACE, fd, (off_t)offset);
		if (p == MAP_FAILED && errno == EEXIST) {
			/* Taken by the replayer itself: map elsewhere. */
			p = mmap(NULL, len, prot, base, fd, (off_t)offset);
			if (p != MAP_FAILED) {
				range_insert(as, cap_addr,
					     RP_PAGE_ALIGN_UP(cap_addr + len),
					     (uint64_t)(uintptr_t)p, 0);
				as->relocations++;
				if (out)
					fprintf(out, "relocated: mapping at 0x%" PRIx64
						" lives at %p (the address is taken "
						"in the replayer)\n", cap_addr, p);
			}
		}
	}
	if (p != MAP_FAILED)
		maps_add(as, (uint64_t)(uintptr_t)p,
			 (uint64_t)(uintptr_t)p + RP_PAGE_ALIGN_UP(len));
	return p;
}

int
rp_as_munmap(struct rp_as *as, uint64_t cap_addr, uint64_t len)
{
	uint64_t a = RP_PAGE_ALIGN_DOWN(cap_addr);
	uint64_t e = RP_PAGE_ALIGN_UP(cap_addr + len);

	if (e <= a)
		return 0;
	while (a < e) {
		const struct rp_as_range *r = range_of(as, a);
		uint64_t seg_end = e, live;
		size_t i;

		if (!r) {
			/* Not a reservation: up to the next one, if any. */
			seg_end = gap_end(as, a, e);
			/* Only what we mapped ourselves is unmapped. */
			for (i = map_after(as, a);
			     i < as->maps.n && maps(as)[i].start < seg_end; i++) {
				struct rp_as_map *m = &maps(as)[i];
				uint64_t s = m->start > a ? m->start : a;
				uint64_t t = m->end < seg_end ? m->end : seg_end;

				if (s < t)
					munmap((void *)(uintptr_t)s, t - s);
			}
			maps_remove(as, a, seg_end);
			a = seg_end;
			continue;
		}
		if (r->end < seg_end)
			seg_end = r->end;
		live = r->live + (a - r->start);
		if (r->reserved)
			mmap((void *)(uintptr_t)live, seg_end - a, PROT_NONE,
			     RES_FLAGS | MAP_FIXED, -1, 0);
		else
			munmap((void *)(uintptr_t)live, seg_end - a);
		maps_remove(as, live, live + (seg_end - a));
		a = seg_end;
	}
	return 0;
}

/*
 * Map anonymous memory over the parts of live [s, e) we have not mapped:
 * MAP_FIXED inside our reservations (@fixed), else MAP_FIXED_NOREPLACE.
 * Outside reservations (@undo set) a part that is taken means memory
 * that is not ours: stop with -EEXIST; the parts mapped are in @undo.
 */
static int
back_gaps(struct rp_as *as, uint64_t s, uint64_t e, int fixed,
	  struct rp_vec *undo)
{
	uint64_t cur = s;
	int ret = 0;

	while (cur < e) {
		size_t i = map_after(as, cur);
		uint64_t gend = e;
		void *p;

		if (i < as->maps.n) {
			const struct rp_as_map *m = &maps(as)[i];

			if (m->start <= cur) {
				cur = m->end;
				continue;
			}
			if (m->start < e)
				gend = m->start;
		}
		p = mmap((void *)(uintptr_t)cur, gend - cur,
			 PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS |
			 (fixed ? MAP_FIXED : MAP_FIXED_NOREPLACE), -1, 0);
		if (p != MAP_FAILED && (uint64_t)(uintptr_t)p != cur) {
			/* A kernel without MAP_FIXED_NOREPLACE: a hint. */
			munmap(p, gend - cur);
			p = MAP_FAILED;
			errno = EEXIST;
		}
		if (p == MAP_FAILED) {
			if (undo && errno == EEXIST)
				return -EEXIST;
			ret = -errno;
		} else {
			struct rp_as_map *u = undo ? rp_vec_push(undo) : NULL;

			maps_add(as, cur, gend);
			if (u) {
				u->start = cur;
				u->end = gend;
			} else if (undo) {
				/* Cannot remember it: keep it, as ours. */
				ret = -ENOMEM;
			}
		}
		cur = gend;
	}
	return ret;
}

/* Whether any of captured [s, e) lies in a reservation or our mappings. */
static int
touches_ours(const struct rp_as *as, uint64_t s, uint64_t e)
{
	size_t i;

	for (i = 0; i < as->ranges.n; i++)
		if (ranges(as)[i].start < e && ranges(as)[i].end > s)
			return 1;
	for (i = 0; i < as->maps.n; i++)
		if (maps(as)[i].start < e && maps(as)[i].end > s)
			return 1;
	return 0;
}

/*
 * User memory at [a, e) that the plan did not reserve (past the bound on
 * reservations, or a range the model did not see) overlaps the replayer's
 * own memory: back it elsewhere and relocate it when none of it is ours
 * yet, else refuse. Never map over it.
 */
static int
back_foreign(struct rp_as *as, uint64_t a, uint64_t e, FILE *out)
{
	void *p;

	if (touches_ours(as, a, e)) {
		if (out)
			fprintf(out, "refused: CPU range 0x%" PRIx64 "-0x%" PRIx64
				" overlaps the replayer's own memory and memory the "
				"replay already placed there; it cannot be "
				"relocated\n", a, e);
		return -EEXIST;
	}
	p = relocate(as, a, e, PROT_READ | PROT_WRITE, out);
	if (p == MAP_FAILED)
		return -errno;
	maps_add(as, (uint64_t)(uintptr_t)p, (uint64_t)(uintptr_t)p + (e - a));
	return 0;
}

/* Undo what back_gaps() mapped outside reservations. */
static void
undo_gaps(struct rp_as *as, struct rp_vec *undo)
{
	size_t i;

	for (i = 0; i < undo->n; i++) {
		const struct rp_as_map *u = RP_AT(undo, struct rp_as_map, i);

		munmap((void *)(uintptr_t)u->start, u->end - u->start);
		maps_remove(as, u->start, u->end);
	}
	undo->n = 0;
}

int
rp_as_back(struct rp_as *as, uint64_t cap_addr, uint64_t len, FILE *out)
{
	uint64_t a = RP_PAGE_ALIGN_DOWN(cap_addr);
	uint64_t e = RP_PAGE_ALIGN_UP(cap_addr + len), cur;
	const struct rp_as_range *r;
	struct rp_vec undo;
	int ret = 0, pass;

	if (!len || e <= a || a < RP_USER_MIN || e > RP_USER_MAX)
		return -EINVAL;
	/*
	 * Pass 0 maps the parts outside reservations, where nothing of the
	 * replayer's may be: a part that is taken is not ours, so everything
	 * mapped so far is undone and the whole range is placed elsewhere
	 * (or refused). In the common case the plan reserved the whole range
	 * and pass 0 does nothing. Pass 1 backs the reserved parts.
	 */
	rp_vec_init(&undo, sizeof(struct rp_as_map));
	for (pass = 0; pass < 2; pass++) {
		for (cur = a; cur < e;) {
			uint64_t seg_end = e;
			int rr = 0;

			r = range_of(as, cur);
			if (!r) {
				seg_end = gap_end(as, cur, e);
				if (pass == 0)
					rr = back_gaps(as, cur, seg_end, 0, &undo);
			} else {
				uint64_t live = r->live + (cur - r->start);

				if (r->end < seg_end)
					seg_end = r->end;
				if (pass == 1)
					rr = back_gaps(as, live,
						       live + (seg_end - cur),
						       r->reserved, NULL);
			}
			if (rr == -EEXIST && pass == 0) {
				undo_gaps(as, &undo);
				rp_vec_free(&undo);
				return back_foreign(as, a, e, out);
			}
			if (rr < 0)
				ret = rr;
			cur = seg_end;
		}
	}
	rp_vec_free(&undo);
	return ret;
}

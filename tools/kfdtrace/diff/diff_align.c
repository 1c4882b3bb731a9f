/* SPDX-License-Identifier: MIT */
/*
 * kfdtrace diff's engine: align two traces call by call and report where
 * they diverge (diff.h; cmd_diff.c pairs a run's processes).
 *
 * Typical pairs: a capture and its replay, AMD's thunk and ours running
 * the same program, a program before and after a driver change. The
 * traces are aligned per thread (threads paired in order of their first
 * record) by ioctl sequence; values with an identity role (handles,
 * gpu_ids, queue and event ids, fds, offsets, addresses) are compared
 * through a consistent correspondence (diff_map.h), so different values
 * that pair up consistently are equal. When the calls themselves differ,
 * a bounded look-ahead finds the shortest run of extra calls on either
 * side that brings the sequences back into step.
 *
 * Both traces are held in memory (ioctl, open, close, dup, mmap and munmap
 * records only), read by diff_load.c.
 */
#include <getopt.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "core/cli.h"
#include "core/cli_opt.h"
#include "diff/diff.h"
#include "diff/diff_cmp.h"
#include "diff/diff_load.h"
#include "diff/diff_map.h"
#include "kfdtrace/decode.h"
#include "kfdtrace/reorder.h"
#include "kfdtrace/schema.h"

/* How far ahead a resynchronisation looks, and how much must agree. */
#define DIFF_LOOKAHEAD 64
#define DIFF_RESYNC_RUN 3
/* Extra calls listed in full for one divergence. */
#define DIFF_MAX_LISTED 8

/* The alignment state of one pair of threads. */
struct dpair {
	struct dthread *ta, *tb;	/* either may be NULL */
	size_t ia, ib;			/* next ioctl index */
	size_t ra, rb;			/* next record not yet seen */
};

struct ddiff {
	struct dtrace a, b;
	struct dmap map;
	enum diff_verify verify;
	unsigned int context;
	uint64_t max_print;		/* 0: all */
	int quiet;
	int silent;			/* not even the summary (--json) */
	uint64_t compared;
	uint64_t divergences;
	uint64_t first_a, first_b;	/* seqs of the first divergence */
	char first_what[128];
	struct kt_strbuf line;
	int oom;
};

/* Print one record as "<mark> <label> #seq [tid] +t ...". */
static void
print_rec(struct ddiff *d, const struct dtrace *t, const char *mark,
	  const struct kt_record *rec)
{
	struct kfd_decode_opts o = { .start_ns = t->start_ns,
				     .flags = KFD_DECODE_SEQ };

	kt_strbuf_clear(&d->line);
	if (kfd_decode_text(&d->line, rec, &o))
		d->oom = 1;
	printf("  %s %c %s\n", mark, t->label,
	       d->line.data ? d->line.data : "");
}

static const struct kt_record *
ioctl_at(const struct dthread *th, size_t i)
{
	return th->recs[th->io[i]];
}

/*
 * Whether A's ioctl @ia and B's @ib are the same call (diff_same_call()),
 * with the rows looked up once at load: resynchronisation asks often.
 */
static int
same_call(const struct dpair *p, size_t ia, size_t ib)
{
	if (p->ta->row[ia] || p->tb->row[ib])
		return p->ta->row[ia] == p->tb->row[ib];
	return diff_same_call(ioctl_at(p->ta, ia), ioctl_at(p->tb, ib));
}

/*
 * Start a divergence; the context comes from A's thread, or from B's when
 * @from_b (calls only B made). Return: whether it is printed in full.
 */
static int
divergence(struct ddiff *d, const struct dpair *p, const char *what,
	   int from_b)
{
	const struct kt_record *ra = p->ta && p->ia < p->ta->nio ?
				     ioctl_at(p->ta, p->ia) : NULL;
	const struct kt_record *rb = p->tb && p->ib < p->tb->nio ?
				     ioctl_at(p->tb, p->ib) : NULL;
	size_t i, from, at;

	d->divergences++;
	if (d->divergences == 1) {
		d->first_a = ra ? ra->seq : UINT64_MAX;
		d->first_b = rb ? rb->seq : UINT64_MAX;
		snprintf(d->first_what, sizeof(d->first_what), "%s", what);
	}
	if (d->quiet || (d->max_print && d->divergences > d->max_print))
		return 0;
	printf("@@ divergence %llu at ", (unsigned long long)d->divergences);
	if (ra)
		printf("A #%llu", (unsigned long long)ra->seq);
	else
		printf("A (end of thread)");
	if (rb)
		printf(", B #%llu", (unsigned long long)rb->seq);
	else
		printf(", B (end of thread)");
	printf(": %s (thread tid %lld / %lld)\n", what,
	       p->ta ? (long long)p->ta->tid : -1LL,
	       p->tb ? (long long)p->tb->tid : -1LL);
	/* Context: the records of the thread just before. */
	if (!from_b && p->ta && p->ta->n) {
		at = p->ia < p->ta->nio ? p->ta->io[p->ia] : p->ta->n;
		from = at > d->context ? at - d->context : 0;
		for (i = from; i < at; i++)
			print_rec(d, &d->a, " ", p->ta->recs[i]);
	} else if (p->tb && p->tb->n) {
		at = p->ib < p->tb->nio ? p->tb->io[p->ib] : p->tb->n;
		from = at > d->context ? at - d->context : 0;
		for (i = from; i < at; i++)
			print_rec(d, &d->b, " ", p->tb->recs[i]);
	}
	return 1;
}

static void
print_field(const struct diff_field *f)
{
	char a[40], b[40], e[40];
	const char *na, *nb;

	printf("      %s: ", f->name);
	if (f->bytes) {
		printf("contents differ\n");
		return;
	}
	if (!strcmp(f->name, "errno")) {
		na = kfd_errno_name((int)f->a);
		nb = kfd_errno_name((int)f->b);
		printf("A %s, B %s\n", f->a ? (na ? na : "?") : "0",
		       f->b ? (nb ? nb : "?") : "0");
		return;
	}
	diff_format_value(a, sizeof(a), (enum kfd_role)f->role, f->a);
	diff_format_value(b, sizeof(b), (enum kfd_role)f->role, f->b);
	printf("A %s, B %s", a, b);
	if (f->has_expect) {
		diff_format_value(e, sizeof(e), (enum kfd_role)f->role,
				  f->expect);
		if (f->expect_is_a)
			printf(" (B's %s already stands for A's %s)", b, e);
		else
			printf(" (A's %s already stands for B's %s)", a, e);
	}
	printf("\n");
}

/* Close records between ioctls release fds on their own side. */
static void
side_records(struct ddiff *d, struct dthread *th, size_t *r, size_t upto,
	     int is_b)
{
	for (; th && *r < upto && *r < th->n; (*r)++) {
		const struct kt_record *rec = th->recs[*r];

		if (rec->type != KT_REC_CLOSE || rec->u.close.ret != 0)
			continue;
		if (is_b)
			dmap_unbind_b(&d->map, DMAP_FD,
				      (uint32_t)rec->u.close.fd);
		else
			dmap_unbind_a(&d->map, DMAP_FD,
				      (uint32_t)rec->u.close.fd);
	}
}

static const char *
call_name(const struct kt_record *r, char *buf, size_t size)
{
	const struct kfd_ioctl_desc *desc;

	desc = kt_ioctl_row(&r->u.ioctl);
	if (desc)
		return desc->name;
	snprintf(buf, size, "ioctl 0x%08x", r->u.ioctl.request);
	return buf;
}

static void
compare_pair(struct ddiff *d, struct dpair *p)
{
	const struct kt_record *ra = ioctl_at(p->ta, p->ia);
	const struct kt_record *rb = ioctl_at(p->tb, p->ib);
	struct diff_result res;
	char what[128], nb[32];
	unsigned int i;

	d->compared++;
	if (diff_compare(&d->map, d->verify, ra, rb, &res)) {
		snprintf(what, sizeof(what), "%s %s%s",
			 call_name(ra, nb, sizeof(nb)), res.f[0].name,
			 res.total > 1 ? " and more" : "");
		if (divergence(d, p, what, 0)) {
			print_rec(d, &d->a, "-", ra);
			print_rec(d, &d->b, "+", rb);
			for (i = 0; i < res.n; i++)
				print_field(&res.f[i]);
			if (res.total > res.n)
				printf("      (%u more differences)\n",
				       res.total - res.n);
		}
	} else if (d->verify == DIFF_VERIFY_STRICT) {
		diff_released(&d->map, ra);
	}
	if (d->map.oom)
		d->oom = 1;
}

/* Whether A[ia] and B[ib] start a run of matching calls. */
static int
in_step(const struct dpair *p, size_t ia, size_t ib)
{
	unsigned int k;

	for (k = 0; k < DIFF_RESYNC_RUN; k++) {
		if (ia + k >= p->ta->nio || ib + k >= p->tb->nio)
			return k > 0 || (ia >= p->ta->nio && ib >= p->tb->nio);
		if (!same_call(p, ia + k, ib + k))
			return 0;
	}
	return 1;
}

/* List the calls one side has and the other lacks. */
static void
list_extra(struct ddiff *d, const struct dtrace *t, const struct dthread *th,
	   size_t from, size_t n, const char *mark)
{
	size_t i;

	for (i = 0; i < n && i < DIFF_MAX_LISTED; i++)
		print_rec(d, t, mark, ioctl_at(th, from + i));
	if (n > DIFF_MAX_LISTED)
		printf("      (%zu more)\n", n - DIFF_MAX_LISTED);
}

/* The calls differ: find the shortest skip that gets back in step. */
static void
resync(struct ddiff *d, struct dpair *p)
{
	char what[128], na[32], nb[32];
	size_t s, da, db;

	for (s = 1; s <= 2 * DIFF_LOOKAHEAD; s++) {
		for (da = 0; da <= s; da++) {
			db = s - da;
			if (da > DIFF_LOOKAHEAD || db > DIFF_LOOKAHEAD)
				continue;
			if (p->ia + da > p->ta->nio || p->ib + db > p->tb->nio)
				continue;
			if (in_step(p, p->ia + da, p->ib + db))
				goto found;
		}
	}
	/* No way back into step nearby: one different call, then go on. */
	snprintf(what, sizeof(what), "different calls: %s vs %s",
		 call_name(ioctl_at(p->ta, p->ia), na, sizeof(na)),
		 call_name(ioctl_at(p->tb, p->ib), nb, sizeof(nb)));
	if (divergence(d, p, what, 0)) {
		print_rec(d, &d->a, "-", ioctl_at(p->ta, p->ia));
		print_rec(d, &d->b, "+", ioctl_at(p->tb, p->ib));
	}
	p->ia++;
	p->ib++;
	return;
found:
	if (da && db)
		snprintf(what, sizeof(what), "%zu call%s only in A, %zu only in B",
			 da, da == 1 ? "" : "s", db);
	else if (da)
		snprintf(what, sizeof(what), "%zu call%s only in A", da,
			 da == 1 ? "" : "s");
	else
		snprintf(what, sizeof(what), "%zu call%s only in B", db,
			 db == 1 ? "" : "s");
	if (divergence(d, p, what, da == 0)) {
		list_extra(d, &d->a, p->ta, p->ia, da, "-");
		list_extra(d, &d->b, p->tb, p->ib, db, "+");
	}
	p->ia += da;
	p->ib += db;
}

/* One step of a pair: compare, resynchronise, or report a tail. */
static void
step(struct ddiff *d, struct dpair *p)
{
	size_t na = p->ta ? p->ta->nio : 0, nb = p->tb ? p->tb->nio : 0;
	char what[64];

	if (p->ia < na && p->ib < nb) {
		side_records(d, p->ta, &p->ra, p->ta->io[p->ia], 0);
		side_records(d, p->tb, &p->rb, p->tb->io[p->ib], 1);
		if (same_call(p, p->ia, p->ib)) {
			compare_pair(d, p);
			p->ia++;
			p->ib++;
		} else {
			resync(d, p);
		}
		return;
	}
	if (p->ia < na) {
		snprintf(what, sizeof(what), "%zu more call%s only in A",
			 na - p->ia, na - p->ia == 1 ? "" : "s");
		if (divergence(d, p, what, 0))
			list_extra(d, &d->a, p->ta, p->ia, na - p->ia, "-");
		p->ia = na;
	} else if (p->ib < nb) {
		snprintf(what, sizeof(what), "%zu more call%s only in B",
			 nb - p->ib, nb - p->ib == 1 ? "" : "s");
		if (divergence(d, p, what, 1))
			list_extra(d, &d->b, p->tb, p->ib, nb - p->ib, "+");
		p->ib = nb;
	}
}

/*
 * The seq a pair goes on at: its next A ioctl, or its next B ioctl when A
 * is done. Return: 0 when the pair is done.
 */
static int
pair_next_seq(const struct dpair *p, uint64_t *s)
{
	if (p->ta && p->ia < p->ta->nio)
		*s = ioctl_at(p->ta, p->ia)->seq;
	else if (p->tb && p->ib < p->tb->nio)
		*s = ioctl_at(p->tb, p->ib)->seq;
	else
		return 0;
	return 1;
}

/* Pairs at the same seq go in pairing order (the array's). */
static int
pair_first(const void *a, const void *b)
{
	return (const struct dpair *)a < (const struct dpair *)b;
}

/*
 * Walk all thread pairs in A's sequence order, so that ids bound or
 * released by one thread are seen by the others in the order they
 * happened. The pairs wait in a heap by the seq they go on at: a step
 * costs log(threads), not a scan of every thread.
 */
static void
align(struct ddiff *d)
{
	size_t np = d->a.nth > d->b.nth ? d->a.nth : d->b.nth, i;
	struct dpair *pairs = calloc(np ? np : 1, sizeof(*pairs));
	struct kt_heap heap;
	uint64_t s;

	kt_heap_init(&heap, pair_first);
	if (!pairs) {
		d->oom = 1;
		return;
	}
	for (i = 0; i < np; i++) {
		pairs[i].ta = i < d->a.nth ? &d->a.th[i] : NULL;
		pairs[i].tb = i < d->b.nth ? &d->b.th[i] : NULL;
		if (pair_next_seq(&pairs[i], &s) &&
		    kt_heap_push(&heap, s, &pairs[i]))
			d->oom = 1;
	}
	while (heap.n && !d->oom) {
		struct dpair *next = kt_heap_pop(&heap);

		step(d, next);
		if (pair_next_seq(next, &s) && kt_heap_push(&heap, s, next))
			d->oom = 1;
	}
	kt_heap_fini(&heap, NULL);
	free(pairs);
}

static void
summary(struct ddiff *d)
{
	unsigned int s;
	int n = 0;

	if (!d->divergences) {
		printf("equal: %llu ioctls in %zu thread%s match under %s "
		       "verification",
		       (unsigned long long)d->compared, d->a.nth,
		       d->a.nth == 1 ? "" : "s",
		       d->verify == DIFF_VERIFY_STRICT ? "strict" : "results");
		for (s = 0; d->verify == DIFF_VERIFY_STRICT && s < DMAP_SPACES;
		     s++) {
			if (!d->map.bound[s])
				continue;
			printf("%s%llu %s", n++ ? ", " : " (paired: ",
			       (unsigned long long)d->map.bound[s],
			       dmap_space_name(s));
		}
		printf("%s\n", n ? ")" : "");
		return;
	}
	printf("different: %llu divergence%s in %llu ioctls of A and %llu of B; "
	       "first at ", (unsigned long long)d->divergences,
	       d->divergences == 1 ? "" : "s", (unsigned long long)d->a.ioctls,
	       (unsigned long long)d->b.ioctls);
	if (d->first_a != UINT64_MAX)
		printf("A #%llu", (unsigned long long)d->first_a);
	else
		printf("the end of A");
	if (d->first_b != UINT64_MAX)
		printf(" / B #%llu", (unsigned long long)d->first_b);
	else
		printf(" / the end of B");
	printf(": %s\n", d->first_what);
	if (d->max_print && d->divergences > d->max_print && !d->quiet)
		printf("(%llu divergences not printed; see --max)\n",
		       (unsigned long long)(d->divergences - d->max_print));
}

int
diff_traces(const struct diff_opts *o, const char *a, const char *b,
	    struct diff_outcome *res)
{
	struct ddiff d;
	int status = DIFF_EXIT_TROUBLE, ra, rb, merge = o->merge;

	memset(&d, 0, sizeof(d));
	memset(res, 0, sizeof(*res));
	d.verify = o->verify;
	d.context = o->context;
	d.max_print = o->max_print;
	d.quiet = o->quiet || o->silent;
	d.silent = o->silent;
	d.a.path = a;
	d.a.label = 'A';
	d.b.path = b;
	d.b.label = 'B';
	d.first_a = d.first_b = UINT64_MAX;
	dmap_init(&d.map);
	kt_strbuf_init(&d.line);

	ra = diff_load(&d.a);
	rb = ra ? 0 : diff_load(&d.b);
	if (ra == -2 || rb == -2) {
		cli_err("out of memory");
		goto out;
	}
	if (ra || rb)
		goto out;
	/*
	 * Threads are paired in order of appearance; with different thread
	 * counts (a capture and its serial replay, which issues every call on
	 * one thread) no pairing is right, and the whole traces are aligned
	 * in sequence order instead.
	 */
	if (!merge && d.a.nth != d.b.nth) {
		merge = 1;
		res->merged = 1;
		if (!d.quiet)
			printf("threads: A has %zu, B has %zu: both compared as one "
			       "stream in sequence order\n", d.a.nth, d.b.nth);
	}
	if (merge && (diff_merge_threads(&d.a) || diff_merge_threads(&d.b))) {
		cli_err("out of memory");
		goto out;
	}
	if (!d.quiet)
		printf("--- A %s: %llu ioctls, %zu thread%s\n"
		       "+++ B %s: %llu ioctls, %zu thread%s\n", cli_name(d.a.path),
		       (unsigned long long)d.a.ioctls, d.a.nth,
		       d.a.nth == 1 ? "" : "s", cli_name(d.b.path),
		       (unsigned long long)d.b.ioctls, d.b.nth,
		       d.b.nth == 1 ? "" : "s");
	align(&d);
	if (d.oom) {
		cli_err("out of memory");
		goto out;
	}
	if (!d.silent)
		summary(&d);
	res->compared = d.compared;
	res->divergences = d.divergences;
	res->first_a = d.first_a;
	res->first_b = d.first_b;
	memcpy(res->first_what, d.first_what, sizeof(res->first_what));
	res->ioctls_a = d.a.ioctls;
	res->ioctls_b = d.b.ioctls;
	res->threads_a = d.a.nth;
	res->threads_b = d.b.nth;
	/* A damaged trace is compared as far as it goes, but is trouble. */
	if (cli_finish(d.a.path, d.a.r, d.a.read_rc) |
	    cli_finish(d.b.path, d.b.r, d.b.read_rc))
		goto out;
	status = d.divergences ? DIFF_EXIT_DIFFERENT : DIFF_EXIT_EQUAL;
out:
	res->status = status;
	kt_strbuf_release(&d.line);
	dmap_release_all(&d.map);
	diff_unload(&d.a);
	diff_unload(&d.b);
	return status;
}

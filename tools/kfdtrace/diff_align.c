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
 * records only).
 */
#include <getopt.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "commands.h"
#include "diff.h"
#include "diff_cmp.h"
#include "diff_map.h"
#include "kfdtrace/decode.h"
#include "kfdtrace/replay.h"
#include "kfdtrace/schema.h"

/* How far ahead a resynchronisation looks, and how much must agree. */
#define DIFF_LOOKAHEAD 64
#define DIFF_RESYNC_RUN 3
/* Extra calls listed in full for one divergence. */
#define DIFF_MAX_LISTED 8

/*
 * A replay's try of a wait it held (KFD_REPLAY_TRY_NOTE): the slot in
 * recs the try keeps, which the issue that ends the hold takes.
 */
struct dtry {
	size_t slot;
	uint64_t of;			/* the captured record it tries */
	int v1;				/* of unknown: KFD_REPLAY_TRY_NOTE_V1 */
};

struct dthread {
	uint32_t tid;
	uint64_t first_seq;
	struct kt_record **recs;	/* kept records in thread order */
	size_t n, cap;
	size_t *io;			/* indices of the ioctls in recs */
	const struct kfd_ioctl_desc **row;	/* each ioctl's schema row */
	size_t nio, capio;
	struct dtry *tries;		/* a replay's waits held, any number */
	size_t ntries, captries;
	size_t nv1;			/* tries among them of unknown record */
	size_t last_replaced;		/* 1 + the slot the last record took */
};

struct dtrace {
	const char *path;
	char label;			/* 'A' or 'B' */
	struct kt_reader *r;
	uint64_t start_ns;
	struct dthread *th;
	size_t nth;
	uint64_t ioctls;
	int read_rc;
};

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

static struct dthread *
thread_for(struct dtrace *t, uint32_t tid, uint64_t seq)
{
	struct dthread *p;
	size_t i;

	for (i = t->nth; i-- > 0;)
		if (t->th[i].tid == tid)
			return &t->th[i];
	p = realloc(t->th, (t->nth + 1) * sizeof(*p));
	if (!p)
		return NULL;
	t->th = p;
	p = &p[t->nth++];
	memset(p, 0, sizeof(*p));
	p->tid = tid;
	p->first_seq = seq;
	return p;
}

/* The events a WAIT_EVENTS names (its first buffer, as issued). */
static int
same_wait(const struct kt_record *a, const struct kt_record *b)
{
	const struct kt_ioctl_rec *x = &a->u.ioctl, *y = &b->u.ioctl;

	if (x->request != y->request || !x->nbufs || !y->nbufs ||
	    x->bufs[0].len_before != y->bufs[0].len_before ||
	    !x->bufs[0].before || !y->bufs[0].before)
		return 0;
	return !memcmp(x->bufs[0].before, y->bufs[0].before, x->bufs[0].len_before);
}

/* Whether @th's last kept record is an ioctl of row @name. */
static int
last_is(const struct dthread *th, const char *name)
{
	return th->nio && th->io[th->nio - 1] == th->n - 1 &&
	       th->row[th->nio - 1] && !strcmp(th->row[th->nio - 1]->name, name);
}

/*
 * Whether @text is the note @fmt, a format with one "%" PRIu64 (the
 * captured record's number, into @seq).
 */
static int
note_is(const char *text, const char *fmt, uint64_t *seq)
{
	const char *conv = strchr(fmt, '%');
	size_t pre = (size_t)(conv - fmt);
	char *end;

	if (strncmp(text, fmt, pre) || text[pre] < '0' || text[pre] > '9')
		return 0;
	*seq = strtoull(text + pre, &end, 10);
	return !strcmp(end, conv + strlen("%" PRIu64));
}

/* What a replay's annotation says of the call before it. */
enum dmark { DM_NONE, DM_GPU, DM_TRY, DM_DONE, DM_TRY_V1 };

static enum dmark
mark_of(const struct kt_record *rec, uint64_t *of)
{
	const char *text = rec->u.annotation.text;

	*of = 0;
	if (!text)
		return DM_NONE;
	if (!strcmp(text, KFD_REPLAY_GPU_NOTE))
		return DM_GPU;
	if (note_is(text, KFD_REPLAY_TRY_NOTE, of))
		return DM_TRY;
	if (note_is(text, KFD_REPLAY_DONE_NOTE, of))
		return DM_DONE;
	if (!strcmp(text, KFD_REPLAY_TRY_NOTE_V1))
		return DM_TRY_V1;
	return DM_NONE;
}

/* The held try of captured record @of, or (@v1) the one at @slot. */
static struct dtry *
find_try(struct dthread *th, int v1, uint64_t of, size_t slot)
{
	for (size_t k = 0; k < th->ntries; k++)
		if (th->tries[k].v1 == v1 &&
		    (v1 ? th->tries[k].slot == slot : th->tries[k].of == of))
			return &th->tries[k];
	return NULL;
}

static int
add_try(struct dthread *th, int v1, uint64_t of, size_t slot)
{
	if (th->ntries == th->captries) {
		/* A serial replay holds up to 256 waits at once. */
		size_t cap = th->captries ? 2 * th->captries : 16;
		struct dtry *v = realloc(th->tries, cap * sizeof(*v));

		if (!v)
			return -1;
		th->tries = v;
		th->captries = cap;
	}
	th->tries[th->ntries].slot = slot;
	th->tries[th->ntries].of = of;
	th->tries[th->ntries++].v1 = v1;
	th->nv1 += !!v1;
	return 0;
}

static void
drop_try(struct dthread *th, struct dtry *t)
{
	th->nv1 -= !!t->v1;
	*t = th->tries[--th->ntries];
}

/* The wait kept last in @th goes into slot @at, its try's place. */
static void
take_place(struct dthread *th, struct dtrace *t, size_t at)
{
	struct kt_record *c = th->recs[th->n - 1];

	c->seq = th->recs[at]->seq;	/* where the capture had it */
	free(th->recs[at]);
	th->recs[at] = c;
	th->n--;
	th->nio--;
	t->ioctls--;
}

/* The call kept last in @th is left out. */
static void
drop_last(struct dthread *th, struct dtrace *t)
{
	free(th->recs[--th->n]);
	th->nio--;
	t->ioctls--;
}

/*
 * A replay's mark @m on the call before it: a set in the GPU's stead is
 * left out; a wait's try keeps its place, where the capture had the wait
 * (a try of a wait already held is the same wait again, and goes); the
 * issue that ends the hold, marked with the same captured record, takes
 * that place. A replay before the numbers (KFD_REPLAY_TRY_NOTE_V1) marked
 * no end of a hold: the next wait on the same events takes the place
 * (replace_try()), which is right while one such wait is held at a time.
 */
static int
replay_mark(struct dthread *th, struct dtrace *t, enum dmark m, uint64_t of)
{
	size_t slot, replaced = th->last_replaced;
	struct dtry *held;

	th->last_replaced = 0;
	switch (m) {
	case DM_GPU:
		if (last_is(th, "SET_EVENT"))
			drop_last(th, t);
		return 0;
	case DM_TRY:
		if (!last_is(th, "WAIT_EVENTS"))
			return 0;
		if (find_try(th, 0, of, 0)) {
			drop_last(th, t);
			return 0;
		}
		return add_try(th, 0, of, th->n - 1);
	case DM_DONE:
		if (!last_is(th, "WAIT_EVENTS") ||
		    !(held = find_try(th, 0, of, 0)))
			return 0;
		slot = held->slot;
		drop_try(th, held);
		take_place(th, t, slot);
		return 0;
	case DM_TRY_V1:
		if (replaced)
			slot = replaced - 1;	/* a try again, in a try's place */
		else if (last_is(th, "WAIT_EVENTS"))
			slot = th->n - 1;
		else
			return 0;
		if (find_try(th, 1, 0, slot))
			return 0;
		return add_try(th, 1, 0, slot);
	default:
		return 0;
	}
}

/*
 * @c, a WAIT_EVENTS just kept at the end of @th: if a try of the same
 * wait is held with KFD_REPLAY_TRY_NOTE_V1, it goes into the try's place.
 */
static void
replace_try(struct dthread *th, struct dtrace *t)
{
	struct kt_record *c = th->recs[th->n - 1];

	for (size_t k = 0; k < th->ntries; k++) {
		size_t at = th->tries[k].slot;

		if (!th->tries[k].v1 || !same_wait(th->recs[at], c))
			continue;
		take_place(th, t, at);
		/* held again if a try note follows (it names slot 'at') */
		drop_try(th, &th->tries[k]);
		th->last_replaced = at + 1;
		return;
	}
}

static int
keep(struct dtrace *t, const struct kt_record *rec)
{
	struct dthread *th;
	struct kt_record *c;
	enum dmark m = DM_NONE;
	uint64_t of = 0;

	if (rec->type == KT_REC_ANNOTATION &&
	    (m = mark_of(rec, &of)) == DM_NONE)
		return 0;
	th = thread_for(t, rec->tid, rec->seq);
	if (!th)
		return -1;
	if (rec->type == KT_REC_ANNOTATION)
		return replay_mark(th, t, m, of);
	th->last_replaced = 0;
	if (th->n == th->cap) {
		size_t cap = th->cap ? th->cap * 2 : 64;
		struct kt_record **v = realloc(th->recs, cap * sizeof(*v));

		if (!v)
			return -1;
		th->recs = v;
		th->cap = cap;
	}
	if (rec->type == KT_REC_IOCTL && th->nio == th->capio) {
		size_t cap = th->capio ? th->capio * 2 : 64;
		size_t *v = realloc(th->io, cap * sizeof(*v));
		const struct kfd_ioctl_desc **r;

		if (!v)
			return -1;
		th->io = v;
		r = realloc(th->row, cap * sizeof(*r));
		if (!r)
			return -1;
		th->row = r;
		th->capio = cap;
	}
	c = kt_record_clone(rec);
	if (!c)
		return -1;
	if (rec->type == KT_REC_IOCTL) {
		th->row[th->nio] = kfd_schema_lookup(
			(enum kfd_file_kind)rec->u.ioctl.file_kind,
			rec->u.ioctl.request);
		th->io[th->nio++] = th->n;
		t->ioctls++;
	}
	th->recs[th->n++] = c;
	if (th->nv1 && last_is(th, "WAIT_EVENTS"))
		replace_try(th, t);
	return 0;
}

static int
cmp_thread(const void *x, const void *y)
{
	const struct dthread *a = x, *b = y;

	return a->first_seq < b->first_seq ? -1 : a->first_seq > b->first_seq;
}

/* Read a whole trace. Return: 0, -1 unreadable, -2 out of memory. */
static int
load(struct dtrace *t)
{
	struct kt_record rec;
	int rc;

	if (cli_open(t->path, &t->r))
		return -1;
	t->start_ns = kt_reader_header(t->r)->start_monotonic;
	while ((rc = kt_reader_next(t->r, &rec)) == 1) {
		switch (rec.type) {
		case KT_REC_IOCTL:
		case KT_REC_OPEN:
		case KT_REC_CLOSE:
		case KT_REC_DUP:
		case KT_REC_MMAP:
		case KT_REC_MUNMAP:
		case KT_REC_ANNOTATION:	/* only a replay's marks count */
			if (keep(t, &rec))
				return -2;
			break;
		default:
			break;
		}
	}
	t->read_rc = rc;
	if (t->nth > 1)
		qsort(t->th, t->nth, sizeof(*t->th), cmp_thread);
	return 0;
}

static int
cmp_rec_seq(const void *x, const void *y)
{
	const struct kt_record *a = *(struct kt_record *const *)x;
	const struct kt_record *b = *(struct kt_record *const *)y;

	return a->seq < b->seq ? -1 : a->seq > b->seq;
}

/*
 * All of a trace's threads as one, in sequence order: what a serial
 * replay issues on one thread is the capture's calls in that order, so
 * with the threads merged a capture and its replay align call by call.
 * Return: 0, or -1 out of memory.
 */
static int
merge_threads(struct dtrace *t)
{
	struct dthread one = { .tid = t->nth ? t->th[0].tid : 0 };
	size_t n = 0;

	if (t->nth < 2)
		return 0;
	for (size_t i = 0; i < t->nth; i++)
		n += t->th[i].n;
	one.recs = malloc(n * sizeof(*one.recs));
	one.io = malloc(n * sizeof(*one.io));
	one.row = malloc(n * sizeof(*one.row));
	if (!one.recs || !one.io || !one.row) {
		free(one.recs);
		free(one.io);
		free(one.row);
		return -1;
	}
	for (size_t i = 0; i < t->nth; i++) {
		memcpy(one.recs + one.n, t->th[i].recs,
		       t->th[i].n * sizeof(*one.recs));
		one.n += t->th[i].n;
		free(t->th[i].recs);
		free(t->th[i].io);
		free(t->th[i].row);
		free(t->th[i].tries);	/* done with at load */
	}
	qsort(one.recs, one.n, sizeof(*one.recs), cmp_rec_seq);
	one.cap = one.capio = n;
	one.first_seq = one.n ? one.recs[0]->seq : 0;
	for (size_t i = 0; i < one.n; i++) {
		const struct kt_record *r = one.recs[i];

		if (r->type != KT_REC_IOCTL)
			continue;
		one.row[one.nio] = kfd_schema_lookup(
			(enum kfd_file_kind)r->u.ioctl.file_kind,
			r->u.ioctl.request);
		one.io[one.nio++] = i;
	}
	t->th[0] = one;
	t->nth = 1;
	return 0;
}

static void
unload(struct dtrace *t)
{
	size_t i, j;

	for (i = 0; i < t->nth; i++) {
		for (j = 0; j < t->th[i].n; j++)
			free(t->th[i].recs[j]);
		free(t->th[i].recs);
		free(t->th[i].io);
		free(t->th[i].row);
		free(t->th[i].tries);
	}
	free(t->th);
	if (t->r)
		kt_reader_close(t->r);
}

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

	desc = kfd_schema_lookup((enum kfd_file_kind)r->u.ioctl.file_kind,
				 r->u.ioctl.request);
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
 * Walk all thread pairs in A's sequence order, so that ids bound or
 * released by one thread are seen by the others in the order they
 * happened.
 */
static void
align(struct ddiff *d)
{
	size_t np = d->a.nth > d->b.nth ? d->a.nth : d->b.nth, i;
	struct dpair *pairs = calloc(np ? np : 1, sizeof(*pairs));

	if (!pairs) {
		d->oom = 1;
		return;
	}
	for (i = 0; i < np; i++) {
		pairs[i].ta = i < d->a.nth ? &d->a.th[i] : NULL;
		pairs[i].tb = i < d->b.nth ? &d->b.th[i] : NULL;
	}
	for (;;) {
		struct dpair *next = NULL;
		uint64_t best = UINT64_MAX;

		for (i = 0; i < np; i++) {
			struct dpair *p = &pairs[i];
			uint64_t s;

			if (p->ta && p->ia < p->ta->nio)
				s = ioctl_at(p->ta, p->ia)->seq;
			else if (p->tb && p->ib < p->tb->nio)
				s = ioctl_at(p->tb, p->ib)->seq;
			else
				continue;
			if (!next || s < best) {
				next = p;
				best = s;
			}
		}
		if (!next || d->oom)
			break;
		step(d, next);
	}
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

	ra = load(&d.a);
	rb = ra ? 0 : load(&d.b);
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
	if (merge && (merge_threads(&d.a) || merge_threads(&d.b))) {
		cli_err("out of memory");
		goto out;
	}
	if (!d.quiet)
		printf("--- A %s: %llu ioctls, %zu thread%s\n"
		       "+++ B %s: %llu ioctls, %zu thread%s\n", d.a.path,
		       (unsigned long long)d.a.ioctls, d.a.nth,
		       d.a.nth == 1 ? "" : "s", d.b.path,
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
	unload(&d.a);
	unload(&d.b);
	return status;
}

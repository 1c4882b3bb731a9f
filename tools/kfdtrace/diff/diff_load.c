/* SPDX-License-Identifier: MIT */
/*
 * kfdtrace diff, reading: a trace's ioctl, open, close, dup, mmap and
 * munmap records kept per thread (threads in order of their first
 * record), with a replay's marks applied: a SET_EVENT it issued in the
 * GPU's stead is left out, and a held wait stands once, in the place the
 * capture had it, for all its tries.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "core/cli.h"
#include "diff/diff_load.h"
#include "kfdtrace/decode.h"
#include "kfdtrace/replay.h"
#include "kfdtrace/schema.h"

/*
 * The thread of @tid, made at its first record: a map from tid to index
 * and an array that doubles, so a trace of a million threads loads in
 * time linear in its records.
 */
static struct dthread *
thread_for(struct dtrace *t, uint32_t tid, uint64_t seq)
{
	struct dthread *p;
	size_t i;
	int rc = cli_index_for(&t->th_of, 0, tid, (void **)&t->th, &t->nth,
			       &t->capth, sizeof(*t->th), &i);

	if (rc < 0)
		return NULL;
	p = &t->th[i];
	if (!rc) {
		p->tid = tid;
		p->first_seq = seq;
	}
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

/*
 * A try's key in th->try_of: the captured record it tries, or (v1) its
 * slot. A map, since a hostile trace may hold any number of waits.
 */
static uint64_t
try_key(const struct dtry *t)
{
	return t->v1 ? t->slot : t->of;
}

/* The held try of captured record @of, or (@v1) the one at @slot. */
static struct dtry *
find_try(struct dthread *th, int v1, uint64_t of, size_t slot)
{
	uint64_t k;

	if (!kc_u64map_get64(&th->try_of, (uint32_t)v1, v1 ? slot : of, &k))
		return NULL;
	return &th->tries[k];
}

static int
add_try(struct dthread *th, int v1, uint64_t of, size_t slot)
{
	struct dtry *t;

	if (th->ntries == th->captries) {
		/* A serial replay holds up to 256 waits at once. */
		size_t cap = th->captries ? 2 * th->captries : 16;
		struct dtry *v = realloc(th->tries, cap * sizeof(*v));

		if (!v)
			return -1;
		th->tries = v;
		th->captries = cap;
	}
	t = &th->tries[th->ntries];
	t->slot = slot;
	t->of = of;
	t->v1 = v1;
	if (kc_u64map_put64(&th->try_of, (uint32_t)v1, try_key(t), th->ntries))
		return -1;
	th->ntries++;
	th->nv1 += !!v1;
	return 0;
}

/* Drop try @t; the last try takes its place in the array and the map. */
static void
drop_try(struct dthread *th, struct dtry *t)
{
	size_t at = (size_t)(t - th->tries);
	uint64_t *moved;

	th->nv1 -= !!t->v1;
	kc_u64map_del(&th->try_of, (uint32_t)t->v1, try_key(t), NULL);
	*t = th->tries[--th->ntries];
	if (at == th->ntries)
		return;
	moved = kc_u64map_get(&th->try_of, (uint32_t)t->v1, try_key(t));
	if (moved)
		*moved = at;
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
	/* Small first arrays: a trace may have a million short threads. */
	if (th->n == th->cap) {
		size_t cap = th->cap ? th->cap * 2 : 4;
		struct kt_record **v = realloc(th->recs, cap * sizeof(*v));

		if (!v)
			return -1;
		th->recs = v;
		th->cap = cap;
	}
	if (rec->type == KT_REC_IOCTL && th->nio == th->capio) {
		size_t cap = th->capio ? th->capio * 2 : 4;
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
		th->row[th->nio] = kt_ioctl_row(&rec->u.ioctl);
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
int
diff_load(struct dtrace *t)
{
	struct kt_record rec;
	int rc;

	kc_u64map_init(&t->th_of, sizeof(uint64_t));
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
	/* The order below is the pairing's; the map's indices go stale. */
	kc_u64map_free(&t->th_of);
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
int
diff_merge_threads(struct dtrace *t)
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
		kc_u64map_free(&t->th[i].try_of);
	}
	qsort(one.recs, one.n, sizeof(*one.recs), cmp_rec_seq);
	one.cap = one.capio = n;
	one.first_seq = one.n ? one.recs[0]->seq : 0;
	for (size_t i = 0; i < one.n; i++) {
		const struct kt_record *r = one.recs[i];

		if (r->type != KT_REC_IOCTL)
			continue;
		one.row[one.nio] = kt_ioctl_row(&r->u.ioctl);
		one.io[one.nio++] = i;
	}
	t->th[0] = one;
	t->nth = 1;
	return 0;
}

void
diff_unload(struct dtrace *t)
{
	size_t i, j;

	for (i = 0; i < t->nth; i++) {
		for (j = 0; j < t->th[i].n; j++)
			free(t->th[i].recs[j]);
		free(t->th[i].recs);
		free(t->th[i].io);
		free(t->th[i].row);
		free(t->th[i].tries);
		kc_u64map_free(&t->th[i].try_of);
	}
	free(t->th);
	kc_u64map_free(&t->th_of);
	if (t->r)
		kt_reader_close(t->r);
}

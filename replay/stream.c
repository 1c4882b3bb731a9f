/* SPDX-License-Identifier: MIT */
/*
 * Records in replay order.
 *
 * Sequence numbers are taken when a record is appended, so seq order is the
 * order in which calls completed. The reader returns records in file order,
 * which is per-thread order: a record of another thread may come early.
 * Early records wait in a min-heap (kfdtrace/reorder.h's, the ordering
 * buffer the CLI's and the babeltrace2 source's reorderers use with their
 * own policies; bounded by RP_REORDER_WINDOW records
 * and RP_REORDER_BYTES of copies, as a record may be 16 MiB; past either
 * the smallest goes out and the gap counts as lost records). Records that
 * arrive in order are returned without a copy. The expected number starts
 * at the trace's first one (0 for a capture), not at that of the first
 * record in the file: a worker's buffer may reach the file before the
 * main thread's first records.
 *
 * Completed waits stay in sequence order, even when the SET_EVENT that
 * released them was numbered after them: the replay issues them without
 * blocking and again after each set (wait.c). Holding them back behind
 * every call that entered before they returned would put the next set of
 * their event before them when they took a signal an earlier set left,
 * and the two sets would make one (auto-reset events do not count).
 *
 * Last, the swaps of the model (order.c): a creation that got an id back
 * from the kernel before the end of its previous life was numbered is
 * held until that end has been returned, and comes right after it, with
 * the records its thread made meanwhile (which may use the new life:
 * the end can be numbered well after them when it was slow to return).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "replay_model.h"
#include "replay_stream.h"

int
rp_stream_open(struct rp_stream *s, const char *path, uint64_t first)
{
	int r;

	memset(s, 0, sizeof(*s));
	r = kt_reader_open(path, &s->reader);
	if (r < 0)
		return r;
	s->next = first;
	return 0;
}

void
rp_stream_close(struct rp_stream *s)
{
	size_t i;

	kt_heap_fini(&s->heap, free);
	free(s->owned);
	for (i = 0; i < s->nholds; i++) {
		for (size_t k = 0; k < s->holds[i].n; k++)
			free(s->holds[i].recs[k]);
		free(s->holds[i].recs);
	}
	for (i = s->outhead; i < s->outn; i++)
		free(s->outq[i]);
	free(s->outq);
	free(s->swap_owned);
	if (s->reader)
		kt_reader_close(s->reader);
	memset(s, 0, sizeof(*s));
}

/* What a copy of @r takes, about: its images, buffers and strings. */
static size_t
rec_bytes(const struct kt_record *r)
{
	size_t n = sizeof(*r);
	unsigned int i;

	switch (r->type) {
	case KT_REC_IOCTL:
		n += 2 * (size_t)r->u.ioctl.arg_size;
		for (i = 0; r->u.ioctl.bufs && i < r->u.ioctl.nbufs; i++)
			n += sizeof(r->u.ioctl.bufs[i]) +
			     r->u.ioctl.bufs[i].len_before +
			     r->u.ioctl.bufs[i].len_after;
		break;
	case KT_REC_TOPOLOGY:
		for (i = 0; r->u.topology.files && i < r->u.topology.nfiles; i++)
			n += sizeof(r->u.topology.files[i]) +
			     r->u.topology.files[i].len +
			     (r->u.topology.files[i].path ?
			      strlen(r->u.topology.files[i].path) : 0);
		break;
	case KT_REC_EXEC:
		n += r->u.exec.argv_len +
		     (r->u.exec.path ? strlen(r->u.exec.path) : 0);
		break;
	case KT_REC_OPEN:
		n += r->u.open.path ? strlen(r->u.open.path) : 0;
		break;
	case KT_REC_ANNOTATION:
		n += r->u.annotation.text ? strlen(r->u.annotation.text) : 0;
		break;
	case KT_REC_API_CALL:
		n += (r->u.api.name ? strlen(r->u.api.name) : 0) +
		     (r->u.api.args ? strlen(r->u.api.args) : 0);
		break;
	default:
		break;
	}
	return n;
}

/*
 * The next record in seq order: from the heap when
 * it holds the expected seq, else from the reader (early ones go to the
 * heap). *owned is set when the record is a copy the caller must free.
 */
static int
next_in_order(struct rp_stream *s, struct kt_record **out, int *owned)
{
	const struct kt_heap_ent *min;
	int r;

	for (;;) {
		min = kt_heap_top(&s->heap);
		if (min && (s->eof || min->key <= s->next ||
			    s->heap.n > RP_REORDER_WINDOW ||
			    s->heap_bytes > RP_REORDER_BYTES)) {
			struct kt_record *top = kt_heap_pop(&s->heap);

			s->heap_bytes -= rec_bytes(top);
			if (!s->eof && top->seq > s->next &&
			    s->heap.n < RP_REORDER_WINDOW && !s->early++)
				s->early_seq = top->seq;
			if (top->seq >= s->next)
				s->next = top->seq + 1;
			*out = top;
			*owned = 1;
			return 1;
		}
		if (s->eof)
			return 0;
		r = kt_reader_next(s->reader, &s->rec);
		if (r <= 0) {
			/* A damaged tail ends the stream; the model says so. */
			s->eof = 1;
			if (r < 0)
				s->error = r;
			continue;
		}
		if (s->rec.seq <= s->next && !(min && min->key < s->rec.seq)) {
			if (s->rec.seq == s->next)
				s->next++;
			*out = &s->rec;
			*owned = 0;
			return 1;
		}
		{
			struct kt_record *c = kt_record_clone(&s->rec);

			if (!c || kt_heap_push(&s->heap, c->seq, c) < 0) {
				free(c);
				s->error = -ENOMEM;
				s->eof = 1;
				return -ENOMEM;
			}
			s->heap_bytes += rec_bytes(c);
		}
	}
}

static int
stream_next(struct rp_stream *s, const struct kt_record **rec)
{
	struct kt_record *cand;
	int owned, r;

	free(s->owned);
	s->owned = NULL;
	r = next_in_order(s, &cand, &owned);
	if (r <= 0)
		return r;
	if (owned)
		s->owned = cand;
	*rec = cand;
	return 1;
}

void
rp_stream_swaps(struct rp_stream *s, const struct rp_swap *v, size_t n)
{
	s->swaps = v;
	s->nswaps = n;
}

uint64_t
rp_stream_held_exit(const struct rp_stream *s)
{
	uint64_t min = UINT64_MAX;
	size_t i, k;

	for (i = 0; i < s->nholds; i++)
		for (k = 0; k < s->holds[i].n; k++)
			if (rp_rec_exit(s->holds[i].recs[k]) < min)
				min = rp_rec_exit(s->holds[i].recs[k]);
	for (i = s->outhead; i < s->outn; i++)
		if (rp_rec_exit(s->outq[i]) < min)
			min = rp_rec_exit(s->outq[i]);
	return min;
}

/* The swap whose creation is @seq, or NULL. */
static const struct rp_swap *
swap_of(const struct rp_stream *s, uint64_t seq)
{
	size_t lo = 0, hi = s->nswaps;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (s->swaps[mid].c < seq)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < s->nswaps && s->swaps[lo].c == seq ? &s->swaps[lo] : NULL;
}

/* Append @rec (owned) to a list of records. Return: 0, or -ENOMEM. */
static int
recs_push(struct kt_record ***v, size_t *n, size_t *cap, struct kt_record *rec)
{
	if (*n == *cap) {
		size_t c = *cap ? *cap * 2 : 8;
		struct kt_record **nv = realloc(*v, c * sizeof(*nv));

		if (!nv)
			return -ENOMEM;
		*v = nv;
		*cap = c;
	}
	(*v)[(*n)++] = rec;
	return 0;
}

/*
 * Put hold @i's records back in front of the input, in order, and drop
 * the hold: they are looked at again as if they came from the trace, so
 * that one of them can start a hold of its own or be the end another
 * waits for.
 */
static int
hold_release(struct rp_stream *s, size_t i)
{
	struct rp_swap_hold *h = &s->holds[i];
	size_t left = s->outn - s->outhead, k;

	if (s->outcap < left + h->n) {
		size_t cap = (left + h->n) * 2;
		struct kt_record **nq = malloc(cap * sizeof(*nq));

		if (!nq)
			return -ENOMEM;
		/* outq is NULL before the first record waits in it. */
		if (left)
			memcpy(nq + h->n, s->outq + s->outhead,
			       left * sizeof(*nq));
		free(s->outq);
		s->outq = nq;
		s->outcap = cap;
	} else if (left) {
		memmove(s->outq + h->n, s->outq + s->outhead,
			left * sizeof(*s->outq));
	}
	for (k = 0; k < h->n; k++)
		s->outq[k] = h->recs[k];
	/* Its creation goes now: not to be held again when looked at. */
	if (s->nreleased < RP_MAX_SWAP_HELD)
		s->released[s->nreleased++] = h->recs[0]->seq;
	s->outhead = 0;
	s->outn = left + h->n;
	free(h->recs);
	memmove(h, h + 1, (s->nholds - i - 1) * sizeof(*h));
	s->nholds--;
	return 0;
}

/* The next record to look at: one put back, owned (*@own set), else the
 * trace's. Return: as stream_next(). */
static int
input_next(struct rp_stream *s, const struct kt_record **r,
	   struct kt_record **own)
{
	*own = NULL;
	if (s->outhead < s->outn) {
		*r = *own = s->outq[s->outhead++];
		if (s->outhead == s->outn)
			s->outhead = s->outn = 0;
		return 1;
	}
	return stream_next(s, r);
}

/* Whether @seq is a creation a hold let go (and forget it). */
static int
was_released(struct rp_stream *s, uint64_t seq)
{
	for (size_t i = 0; i < s->nreleased; i++)
		if (s->released[i] == seq) {
			s->released[i] = s->released[--s->nreleased];
			return 1;
		}
	return 0;
}

/* Hold @r (@own: already a copy) in @h. Return: 0, or -ENOMEM. */
static int
hold_add(struct rp_swap_hold *h, const struct kt_record *r,
	 struct kt_record *own)
{
	struct kt_record *c = own ? own : kt_record_clone(r);

	if (!c || recs_push(&h->recs, &h->n, &h->cap, c)) {
		free(c);
		return -ENOMEM;
	}
	return 0;
}

int
rp_stream_next(struct rp_stream *s, const struct kt_record **rec)
{
	const struct kt_record *r;
	const struct rp_swap *sw;
	struct kt_record *own;
	size_t i;
	int ret;

	free(s->swap_owned);
	s->swap_owned = NULL;
	for (;;) {
		ret = input_next(s, &r, &own);
		if (ret <= 0) {
			/* Ends that never came: the creations go as they are. */
			if (ret == 0 && s->nholds) {
				if (hold_release(s, 0))
					return -ENOMEM;
				continue;
			}
			return ret;
		}
		/* A record of a held creation's thread waits behind it. */
		for (i = 0; i < s->nholds; i++)
			if (s->holds[i].tid == r->tid &&
			    s->holds[i].after != r->seq)
				break;
		if (i < s->nholds) {
			if (hold_add(&s->holds[i], r, own))
				return -ENOMEM;
			continue;
		}
		if (own && was_released(s, r->seq))
			sw = NULL;
		else if (s->nswaps && s->nholds < RP_MAX_SWAP_HELD)
			sw = swap_of(s, r->seq);
		else
			sw = NULL;
		/* Its end went already (it was held behind another). */
		if (sw && sw->e < s->out_max)
			sw = NULL;
		if (sw) {
			struct rp_swap_hold *h = &s->holds[s->nholds];

			memset(h, 0, sizeof(*h));
			if (!hold_add(h, r, own)) {
				h->after = sw->e;
				h->tid = r->tid;
				s->nholds++;
				continue;
			}
			return -ENOMEM;
		}
		/* The end a hold waits for: then the held records. */
		for (i = 0; i < s->nholds; i++)
			if (s->holds[i].after == r->seq) {
				if (hold_release(s, i))
					return -ENOMEM;
				break;
			}
		s->swap_owned = own;
		if (r->seq >= s->out_max)
			s->out_max = r->seq + 1;
		*rec = r;
		return 1;
	}
}

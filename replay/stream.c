/* SPDX-License-Identifier: MIT */
/*
 * Records in replay order.
 *
 * Sequence numbers are taken when a record is appended, so seq order is the
 * order in which calls completed. The reader returns records in file order,
 * which is per-thread order: a record of another thread may come early.
 * Early records wait in a min-heap (bounded by RP_REORDER_WINDOW records
 * and RP_REORDER_BYTES of copies, as a record may be 16 MiB; past either
 * the smallest goes out and the gap counts as lost records). Records that
 * arrive in order are returned without a copy. The expected number starts
 * at the trace's first one (0 for a capture), not at that of the first
 * record in the file: a worker's buffer may reach the file before the
 * main thread's first records.
 *
 * A WAIT_EVENTS that completed is held back until a record that started
 * after the wait returned: the call that released it (a SET_EVENT, or a
 * DESTROY_EVENT on another thread) entered before that, so it is replayed
 * first and the replayed wait does not block.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <kfdtrace/kfd_abi.h>

#include "replay_priv.h"

int
rp_stream_open(struct rp_stream *s, const char *path, uint64_t first)
{
	int r;

	memset(s, 0, sizeof(*s));
	r = kt_reader_open(path, &s->reader);
	if (r < 0)
		return r;
	s->wait_desc = rp_rows()->wait_events;
	s->next = first;
	return 0;
}

void
rp_stream_close(struct rp_stream *s)
{
	size_t i;

	for (i = 0; i < s->nheap; i++)
		free(s->heap[i]);
	for (i = 0; i < s->ndefer; i++)
		free(s->defer[i]);
	free(s->heap);
	free(s->defer);
	if (s->held_owned)
		free(s->held);
	free(s->owned);
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

/* Binary heap of records on a key (seq or t_exit). */
static uint64_t
key_seq(const struct kt_record *r)
{
	return r->seq;
}

static uint64_t
key_exit(const struct kt_record *r)
{
	return r->u.ioctl.t_exit;
}

static int
heap_push(struct kt_record ***h, size_t *n, size_t *cap, struct kt_record *r,
	  uint64_t (*key)(const struct kt_record *))
{
	size_t i;

	if (*n == *cap) {
		size_t ncap = *cap ? *cap * 2 : 64;
		struct kt_record **nh = realloc(*h, ncap * sizeof(*nh));

		if (!nh)
			return -ENOMEM;
		*h = nh;
		*cap = ncap;
	}
	i = (*n)++;
	(*h)[i] = r;
	while (i > 0) {
		size_t p = (i - 1) / 2;
		struct kt_record *t;

		if (key((*h)[p]) <= key((*h)[i]))
			break;
		t = (*h)[p];
		(*h)[p] = (*h)[i];
		(*h)[i] = t;
		i = p;
	}
	return 0;
}

static struct kt_record *
heap_pop(struct kt_record **h, size_t *n,
	 uint64_t (*key)(const struct kt_record *))
{
	struct kt_record *top = h[0];
	size_t i = 0;

	h[0] = h[--(*n)];
	for (;;) {
		size_t l = 2 * i + 1, r = l + 1, m = i;
		struct kt_record *t;

		if (l < *n && key(h[l]) < key(h[m]))
			m = l;
		if (r < *n && key(h[r]) < key(h[m]))
			m = r;
		if (m == i)
			break;
		t = h[m];
		h[m] = h[i];
		h[i] = t;
		i = m;
	}
	return top;
}

/* A completed blocking wait: hold it until its releaser has gone. */
static int
deferrable(const struct rp_stream *s, const struct kt_record *r)
{
	const struct rp_rows *rows;
	const struct kt_ioctl_rec *io;

	if (r->type != KT_REC_IOCTL || !s->wait_desc)
		return 0;
	io = &r->u.ioctl;
	/* Cheap test first: only KFD's nr 0x0C can be a wait. */
	if (io->file_kind != KFD_FILE_KFD || KFD_ABI_IOC_NR(io->request) != 0x0c)
		return 0;
	if (io->ret != 0 || !io->arg_before || !io->arg_after ||
	    kfd_schema_lookup(io->file_kind, io->request) != s->wait_desc)
		return 0;
	rows = rp_rows();
	if (!rp_fhas(rows->we_result, io->arg_size))
		return 0;
	return rp_fget(rows->we_timeout, io->arg_before, io->arg_size) != 0 &&
	       rp_fget(rows->we_result, io->arg_after, io->arg_size) ==
		       KFD_ABI_WAIT_RESULT_COMPLETE &&
	       io->t_exit >= r->ts;
}

/*
 * The next record in seq order, before wait deferral: from the heap when
 * it holds the expected seq, else from the reader (early ones go to the
 * heap). *owned is set when the record is a copy the caller must free.
 */
static int
next_in_order(struct rp_stream *s, struct kt_record **out, int *owned)
{
	int r;

	for (;;) {
		if (s->nheap && (s->eof || s->heap[0]->seq <= s->next ||
				 s->nheap > RP_REORDER_WINDOW ||
				 s->heap_bytes > RP_REORDER_BYTES)) {
			struct kt_record *top = heap_pop(s->heap, &s->nheap, key_seq);

			s->heap_bytes -= rec_bytes(top);
			if (!s->eof && top->seq > s->next &&
			    s->nheap < RP_REORDER_WINDOW && !s->early++)
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
		if (s->rec.seq <= s->next && !(s->nheap && s->heap[0]->seq < s->rec.seq)) {
			if (s->rec.seq == s->next)
				s->next++;
			*out = &s->rec;
			*owned = 0;
			return 1;
		}
		{
			struct kt_record *c = kt_record_clone(&s->rec);

			if (!c || heap_push(&s->heap, &s->nheap, &s->capheap, c,
					    key_seq) < 0) {
				free(c);
				s->error = -ENOMEM;
				s->eof = 1;
				return -ENOMEM;
			}
			s->heap_bytes += rec_bytes(c);
		}
	}
}

int
rp_stream_next(struct rp_stream *s, const struct kt_record **rec)
{
	struct kt_record *cand;
	int owned, r;

	free(s->owned);
	s->owned = NULL;
	for (;;) {
		if (s->held) {
			cand = s->held;
			owned = s->held_owned;
			s->held = NULL;
			s->held_owned = 0;
		} else {
			r = next_in_order(s, &cand, &owned);
			if (r < 0)
				return r;
			if (r == 0) {
				if (!s->ndefer)
					return 0;
				s->owned = heap_pop(s->defer, &s->ndefer, key_exit);
				s->defer_bytes -= rec_bytes(s->owned);
				*rec = s->owned;
				return 1;
			}
		}
		/*
		 * A held wait that returned before this record started goes
		 * first; so does the oldest when too many are held (a forged
		 * exit time would hold them all to the end).
		 */
		if (s->ndefer && (s->defer[0]->u.ioctl.t_exit < cand->ts ||
				  s->ndefer > RP_DEFER_MAX ||
				  s->defer_bytes > RP_REORDER_BYTES)) {
			/*
			 * The reader does not move until the held record is
			 * taken back, so its own record needs no copy.
			 */
			s->held = cand;
			s->held_owned = owned;
			s->owned = heap_pop(s->defer, &s->ndefer, key_exit);
			s->defer_bytes -= rec_bytes(s->owned);
			*rec = s->owned;
			return 1;
		}
		if (deferrable(s, cand)) {
			struct kt_record *c = owned ? cand : kt_record_clone(cand);

			if (!c || heap_push(&s->defer, &s->ndefer, &s->capdefer, c,
					    key_exit) < 0) {
				free(c);
				return -ENOMEM;
			}
			s->defer_bytes += rec_bytes(c);
			continue;
		}
		if (owned)
			s->owned = cand;
		*rec = cand;
		return 1;
	}
}

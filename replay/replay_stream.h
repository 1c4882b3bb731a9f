/* SPDX-License-Identifier: MIT */
/*
 * A trace's records in replay order (private to replay/, the model
 * part; stream.c).
 */
#ifndef RP_STREAM_H
#define RP_STREAM_H

#include "replay_base.h"

struct rp_swap;

/* ------------------------------------------------------------------ */
/* Records in replay order                                              */

/*
 * Records come from the reader in per-thread file order; the replay wants
 * sequence order (the order calls completed), with the model's swaps
 * (struct rp_swap) put right.
 */
struct rp_stream {
	struct kt_reader *reader;
	struct kt_record rec;		/* the reader's current record */
	struct kt_heap heap;		/* early records (copies), by seq */
	size_t heap_bytes;		/* their size (rec_bytes()) */
	uint64_t early;			/* released early for the byte bound */
	uint64_t early_seq;		/* the first of them */
	struct kt_record *owned;	/* returned last; freed on next call */
	uint64_t next;			/* the seq expected next */
	int eof;
	int error;			/* the reader's negative error, or 0 */
	/* Swaps: creations held until the end of the previous life. */
	const struct rp_swap *swaps;
	size_t nswaps;
	/*
	 * Creations held until the end they wait for (@after), with the
	 * records of their thread that came after them (copies, in order).
	 */
	struct rp_swap_hold {
		uint64_t after;
		uint32_t tid;
		struct kt_record **recs;	/* [0]: the creation */
		size_t n, cap;
	} holds[RP_MAX_SWAP_HELD];
	size_t nholds;
	struct kt_record **outq;	/* looked at before reading on (owned) */
	size_t outhead, outn, outcap;
	uint64_t released[RP_MAX_SWAP_HELD];	/* creations let go */
	size_t nreleased;
	struct kt_record *swap_owned;	/* returned last; freed next call */
	uint64_t out_max;		/* the highest seq returned, + 1 */
};

/*
 * @first: the lowest seq of the trace (0 for a capture, which numbers
 * from 0; the model's first_seq once it is known). The first record in
 * the file need not be it: another thread's buffer may have come first.
 */
int rp_stream_open(struct rp_stream *s, const char *path, uint64_t first);
/* Return: 1 with *rec set (valid until the next call), 0 at the end, <0. */
int rp_stream_next(struct rp_stream *s, const struct kt_record **rec);
/* Reuses to put right (the model's swaps, sorted by c; kept, not copied). */
void rp_stream_swaps(struct rp_stream *s, const struct rp_swap *v, size_t n);
/*
 * rp_stream_held_exit() - the earliest capture exit time among the records
 * a swap holds back (UINT64_MAX: none): they are still to come, so a tree
 * replay's published frontier must not pass them.
 */
uint64_t rp_stream_held_exit(const struct rp_stream *s);
void rp_stream_close(struct rp_stream *s);

#endif /* RP_STREAM_H */

/* SPDX-License-Identifier: MIT */
/*
 * Private to iter.c and seek.c: the state of one message iterator (one
 * input), which a seek resets.
 */
#ifndef KBT_ITER_PRIV_H
#define KBT_ITER_PRIV_H

#include <kfdtrace/common/u64map.h>

#include "kbt.h"

struct kbt_stream {
	uint32_t tid;
	bt_stream *stream;
	bt_packet *packet;
	uint32_t pkt_events;
	int begun;		/* its beginning message was sent (since the
				 * last seek) */
};

enum iter_state {
	ST_READING,
	ST_DRAINING,	/* end of input: emit what the heap holds */
	ST_ENDING,	/* close packets and streams */
	ST_FAILING,	/* streams closed; report the error */
	ST_DONE,
};

struct kbt_iter {
	struct kbt_src *src;
	struct kbt_input *in;
	bt_self_message_iterator *self;
	struct kt_reader *reader;
	enum iter_state state;

	struct kbt_heap heap;
	uint64_t ord;		/* records read */
	uint64_t newest;	/* newest event time read */
	uint64_t last_ts;	/* time of the last message emitted */
	uint64_t from_ts;	/* records stamped before it are dropped: the
				 * time sought (seek.c); 0 */

	struct kbt_bo_map *bos;

	/* Streams by tid: an array and a common u64 map into it. */
	struct kbt_stream *streams;
	size_t nstreams, cap_streams;
	struct kc_u64map by_tid;	/* tid -> index in streams (zeroed: u64) */
	int32_t shared;		/* the shared stream's index, or -1 */

	/* Messages made but not yet returned. */
	bt_message **q;
	size_t qhead, qlen, qcap;

	/* What happened, for the final report. */
	int read_rc;		/* last kt_reader_next() result */
	uint64_t clamped, clamp_max;
	uint64_t begin_late, begin_late_max;	/* entries stamped late */
	uint64_t skipped;	/* records of types this plugin does not know */
	struct kbt_cuts cuts;	/* fields cut to their bounds */
	uint64_t events;
};

/* kbt_q_push() - queue @m (a new reference) to be returned. 0, or -1. */
int kbt_q_push(struct kbt_iter *it, bt_message *m);

#endif /* KBT_ITER_PRIV_H */

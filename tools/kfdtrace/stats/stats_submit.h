/* SPDX-License-Identifier: MIT */
/*
 * kfdtrace stats: the submissions section (submit records, per queue):
 * doorbells, packets and the packets of each kind of the packet schema.
 */
#ifndef KFDTRACE_STATS_SUBMIT_H
#define KFDTRACE_STATS_SUBMIT_H

#include <stdint.h>
#include <stdio.h>

#include <kfdtrace/common/u64map.h>
#include <kfdtrace/decode.h>
#include <kfdtrace/trace.h>

#define SUB_STATS_KINDS 32	/* packet schema rows, then "unknown" */

struct sub_queue_stats {
	uint32_t queue_id, gpu_id;
	uint8_t engine;
	uint64_t doorbells, packets, bytes;
	uint64_t kinds[SUB_STATS_KINDS + 1];
	uint64_t *ts;		/* each doorbell's time (keep_times) */
	size_t nts, capts;
};

struct sub_stats {
	struct sub_queue_stats *q;
	size_t n, cap;
	struct kc_u64map index;	/* (gpu_id, queue_id) -> index in q */
	int keep_times;		/* the report draws each doorbell */
};

/* Count one submit record (at @ts). Return: 0, or -1 when memory ran out. */
int sub_stats_add(struct sub_stats *ss, const struct kt_submit_rec *s,
		  uint64_t ts);
/* kind_name() of the stats: the name of packet kind @k. */
const char *sub_stats_kind(unsigned int k);
/* The text section (nothing when the trace has no submissions). */
void sub_stats_text(const struct sub_stats *ss, FILE *out);
/* "submissions": [...] as one JSON member (with its key). */
void sub_stats_json(const struct sub_stats *ss, struct kt_strbuf *sb);
void sub_stats_free(struct sub_stats *ss);

#endif

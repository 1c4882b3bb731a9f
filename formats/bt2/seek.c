/* SPDX-License-Identifier: MIT */
/*
 * Seeking the message iterator: its beginning, and a time in ns from the
 * clock's origin, which is what `babeltrace2 --begin` and
 * flt.utils.trimmer ask of their upstream.
 *
 * A seek starts a new message sequence: queued messages are dropped, held
 * records are freed, and every stream begins again (with a new packet) at
 * its first event after the point sought, so the messages stay well formed.
 *
 * A time seek positions the reader with the file's index
 * (kt_reader_seek_time()) at the first record whose *entry* time is at
 * least the reorder slack before the time sought, and the iterator drops
 * every record stamped before that time. Two margins make this match
 * reading from the beginning: threads' records interleave in the file
 * within the slack (the iterator's ordering already relies on it, iter.c),
 * and spans (ioctls, API calls) are stamped with their end, so one that
 * started before the time sought but ended after it must be read too. A
 * span longer than the slack that ended inside the window is therefore
 * lost; reorder-slack-ms raises both margins (docs/analysis.md).
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "kbt.h"
#include "iter_priv.h"

#define NS_PER_S 1000000000LL

/* Forget everything since the last seek; records before @from_ts drop. */
static int
rewind_state(struct kbt_iter *it, uint64_t from_ts)
{
	size_t i;

	for (i = 0; i < it->qlen; i++)
		bt_message_put_ref(it->q[it->qhead + i]);
	it->qhead = 0;
	it->qlen = 0;
	for (i = 0; i < it->nstreams; i++) {
		bt_packet_put_ref(it->streams[i].packet);
		it->streams[i].packet = NULL;
		it->streams[i].pkt_events = 0;
		it->streams[i].begun = 0;
	}
	kbt_heap_free(&it->heap);
	/* The buffers allocated before the point sought are not known. */
	kbt_bo_map_free(it->bos);
	it->bos = kbt_bo_map_new();
	if (!it->bos)
		return -1;
	it->ord = 0;
	it->newest = 0;
	it->last_ts = 0;
	it->from_ts = from_ts;
	it->read_rc = 0;
	it->clamped = 0;
	it->clamp_max = 0;
	it->begin_late = 0;
	it->begin_late_max = 0;
	it->skipped = 0;
	memset(&it->cuts, 0, sizeof(it->cuts));
	it->events = 0;
	it->state = ST_READING;
	return 0;
}

/*
 * The clock's offset from its origin in ns (trace_ir.c make_clock()):
 * start_realtime - start_monotonic, or 0 without a wall-clock reading.
 */
static int64_t
clock_offset_ns(const struct kbt_input *in)
{
	int64_t sec;
	uint64_t cyc;

	bt_clock_class_get_offset(in->cc, &sec, &cyc);
	return sec * NS_PER_S + (int64_t)cyc;
}

/* @ns from the origin as a CLOCK_MONOTONIC time of the trace; 0 before. */
static uint64_t
mono_of_ns(const struct kbt_input *in, int64_t ns)
{
	int64_t mono;

	if (__builtin_sub_overflow(ns, clock_offset_ns(in), &mono))
		return ns < 0 ? 0 : UINT64_MAX;
	return mono > 0 ? (uint64_t)mono : 0;
}

static int
reader_fail(struct kbt_iter *it, int rc, const char *what)
{
	BT_CURRENT_THREAD_ERROR_APPEND_CAUSE_FROM_MESSAGE_ITERATOR(it->self,
		"%s: cannot seek %s: %s", it->in->path, what, kt_strerror(rc));
	return -1;
}

bt_message_iterator_class_seek_beginning_method_status
kbt_iter_seek_beginning(bt_self_message_iterator *self)
{
	struct kbt_iter *it = bt_self_message_iterator_get_data(self);
	int rc;

	rc = kt_reader_seek_seq(it->reader, 0);
	if (rc) {
		reader_fail(it, rc, "the beginning");
		return BT_MESSAGE_ITERATOR_CLASS_SEEK_BEGINNING_METHOD_STATUS_ERROR;
	}
	if (rewind_state(it, 0))
		return BT_MESSAGE_ITERATOR_CLASS_SEEK_BEGINNING_METHOD_STATUS_MEMORY_ERROR;
	return BT_MESSAGE_ITERATOR_CLASS_SEEK_BEGINNING_METHOD_STATUS_OK;
}

bt_message_iterator_class_can_seek_beginning_method_status
kbt_iter_can_seek_beginning(bt_self_message_iterator *self, bt_bool *can)
{
	(void)self;
	*can = BT_TRUE;
	return BT_MESSAGE_ITERATOR_CLASS_CAN_SEEK_BEGINNING_METHOD_STATUS_OK;
}

bt_message_iterator_class_seek_ns_from_origin_method_status
kbt_iter_seek_ns_from_origin(bt_self_message_iterator *self,
			     int64_t ns_from_origin)
{
	struct kbt_iter *it = bt_self_message_iterator_get_data(self);
	uint64_t ts = mono_of_ns(it->in, ns_from_origin);
	uint64_t slack = it->src->slack_ns;
	int rc;

	rc = kt_reader_seek_time(it->reader, ts > slack ? ts - slack : 0);
	if (rc) {
		char what[64];

		snprintf(what, sizeof(what), "to %" PRId64 " ns", ns_from_origin);
		reader_fail(it, rc, what);
		return BT_MESSAGE_ITERATOR_CLASS_SEEK_NS_FROM_ORIGIN_METHOD_STATUS_ERROR;
	}
	if (rewind_state(it, ts))
		return BT_MESSAGE_ITERATOR_CLASS_SEEK_NS_FROM_ORIGIN_METHOD_STATUS_MEMORY_ERROR;
	return BT_MESSAGE_ITERATOR_CLASS_SEEK_NS_FROM_ORIGIN_METHOD_STATUS_OK;
}

bt_message_iterator_class_can_seek_ns_from_origin_method_status
kbt_iter_can_seek_ns_from_origin(bt_self_message_iterator *self,
				 int64_t ns_from_origin, bt_bool *can)
{
	(void)self;
	(void)ns_from_origin;
	/* Any time: before the trace is its beginning, after it its end. */
	*can = BT_TRUE;
	return BT_MESSAGE_ITERATOR_CLASS_CAN_SEEK_NS_FROM_ORIGIN_METHOD_STATUS_OK;
}

/* SPDX-License-Identifier: MIT */
/*
 * The message iterator of one input: reads the trace, puts its records in
 * time order and turns each into an event of its thread's stream.
 *
 * Ordering. Messages of one iterator must never go back in time. A trace
 * file is in per-thread order, but its threads' records interleave in
 * bursts (each thread's buffer waits up to flush_ms before it is written,
 * docs/trace-format.md 4.1). Records are therefore held in a heap and
 * emitted oldest first once the newest record read is more than the slack
 * (2 s of trace time by default, 20 times the writer's flush interval)
 * ahead of them, or when the held records exceed the memory window. A
 * record that arrives after younger ones were emitted anyway is stamped
 * with the last emitted time, and the count of such records is reported.
 *
 * Entries (begin-events). A call's kfd:call_begin is held under its entry
 * time (rec->ts), its record under its exit. The entry is known only once
 * the record is read, at the call's end, so it may be older than the
 * newest time read by the call's duration plus the writer's lag; the slack
 * covers both when the call is shorter than the slack less that lag (the
 * slack is 20 flush intervals: calls up to about 1.9 s by default). A
 * thread appends its record at exit and enters its next call after that,
 * so one thread's entries and exits alternate in time order (the FIFO
 * keeps them) and an entry never precedes its own thread's earlier calls;
 * only other threads' events, and the ioctls an API call made (their
 * records come before the API call's), lie between an entry and the
 * reading of its record. An entry read too late is stamped with the last
 * emitted time (counted and reported apart); its begin_ns field still
 * holds the true entry.
 *
 * Damage. A truncated file (writer killed) yields every complete record
 * and a warning; the iterator ends normally unless the component was told
 * to treat truncation as an error (kfdtrace export does). A corrupt file
 * yields the records before the bad bytes, ends every stream, then fails
 * with a message naming the file offset.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "kbt.h"
#include "iter_priv.h"

/* ---- message queue ---- */

int
kbt_q_push(struct kbt_iter *it, bt_message *m)
{
	if (!m)
		return -1;
	if (it->qhead + it->qlen == it->qcap) {
		if (it->qhead) {
			memmove(it->q, it->q + it->qhead,
				it->qlen * sizeof(*it->q));
			it->qhead = 0;
		} else {
			size_t cap = it->qcap ? it->qcap * 2 : 64;
			bt_message **n = realloc(it->q, cap * sizeof(*n));

			if (!n) {
				bt_message_put_ref(m);
				return -1;
			}
			it->q = n;
			it->qcap = cap;
		}
	}
	it->q[it->qhead + it->qlen++] = m;
	return 0;
}

/* ---- streams ---- */

/* A new stream named @name, with its beginning message. */
static struct kbt_stream *
new_stream(struct kbt_iter *it, uint32_t tid, const char *name)
{
	struct kbt_stream *s;

	if (it->nstreams == it->cap_streams) {
		size_t cap = it->cap_streams ? it->cap_streams * 2 : 8;
		struct kbt_stream *n = realloc(it->streams, cap * sizeof(*n));

		if (!n)
			return NULL;
		it->streams = n;
		it->cap_streams = cap;
	}
	s = &it->streams[it->nstreams];
	memset(s, 0, sizeof(*s));
	s->tid = tid;
	s->begun = 1;
	s->stream = bt_stream_create(it->in->sc, it->in->trace);
	if (!s->stream)
		return NULL;
	/* sink.ctf.fs names each data file after its stream. */
	bt_stream_set_name(s->stream, name);
	it->nstreams++;
	if (kc_u64map_put64(&it->by_tid, 0, tid, it->nstreams - 1))
		return NULL;
	if (kbt_q_push(it, bt_message_stream_beginning_create(it->self, s->stream)))
		return NULL;
	return s;
}

/*
 * @s again after a seek (kbt_iter_rewind()): a new message sequence, in
 * which the stream begins again at its first event.
 */
static struct kbt_stream *
stream_begin(struct kbt_iter *it, struct kbt_stream *s)
{
	if (s->begun)
		return s;
	if (kbt_q_push(it, bt_message_stream_beginning_create(it->self,
							       s->stream)))
		return NULL;
	s->begun = 1;
	return s;
}

/*
 * The stream of thread @tid, made (with its beginning message) if new.
 * Past the component's max-streams, threads share one last stream
 * ("threads-shared"; every event's context names its tid): sink.ctf.fs
 * keeps one file open per stream, and a process may have more threads
 * than the fd limit allows files.
 */
static struct kbt_stream *
get_stream(struct kbt_iter *it, uint32_t tid)
{
	uint64_t max = it->src->max_streams, j;
	char name[32];

	if (kc_u64map_get64(&it->by_tid, 0, tid, &j) &&
	    j != (uint64_t)(int64_t)it->shared)
		return stream_begin(it, &it->streams[j]);
	if (max && it->nstreams + 1 >= max) {
		if (it->shared < 0) {
			kbt_log(it->src, BT_LOGGING_LEVEL_WARNING,
				"warning: %s: more than %" PRIu64 " threads: "
				"thread %u and those after it share the stream "
				"`threads-shared` (the tid is in each event's "
				"context)", it->in->path, max - 1, tid);
			if (!new_stream(it, tid, "threads-shared"))
				return NULL;
			it->shared = (int32_t)(it->nstreams - 1);
		}
		return stream_begin(it, &it->streams[it->shared]);
	}
	snprintf(name, sizeof(name), "thread-%u", tid);
	return new_stream(it, tid, name);
}

/* ---- events ---- */

/*
 * The event class of @rec: a schema row's (*row set), a fixed one (*which
 * set), kfd:unknown_ioctl, or NULL for a record type this plugin does not
 * know.
 */
static bt_event_class *
class_of(struct kbt_iter *it, const struct kt_record *rec, int *row,
	 int *which)
{
	static const int8_t fixed[KT_REC_TYPE_MAX] = {
		[KT_REC_OPEN] = KBT_EC_OPEN,
		[KT_REC_CLOSE] = KBT_EC_CLOSE,
		[KT_REC_DUP] = KBT_EC_DUP,
		[KT_REC_MMAP] = KBT_EC_MMAP,
		[KT_REC_MUNMAP] = KBT_EC_MUNMAP,
		[KT_REC_FORK] = KBT_EC_FORK,
		[KT_REC_EXEC] = KBT_EC_EXEC,
		[KT_REC_THREAD_NAME] = KBT_EC_THREAD_NAME,
		[KT_REC_TOPOLOGY] = KBT_EC_TOPOLOGY,
		[KT_REC_ANNOTATION] = KBT_EC_ANNOTATION,
		[KT_REC_API_CALL] = KBT_EC_API_CALL,
		[KT_REC_END] = KBT_EC_END,
		[KT_REC_SUBMIT] = KBT_EC_SUBMIT,
		[KT_REC_MEMORY] = KBT_EC_MEMORY,
	};
	const struct kfd_ioctl_desc *d;
	bt_event_class *ec;

	*row = -1;
	*which = -1;
	if (rec->type == KT_REC_IOCTL) {
		d = kt_ioctl_row(&rec->u.ioctl);
		if (d && d >= it->in->rows && d < it->in->rows + it->in->nrows) {
			ec = kbt_ioctl_ec(it->in, (unsigned int)(d - it->in->rows));
			if (ec) {
				*row = (int)(d - it->in->rows);
				return ec;
			}
		}
		return it->in->fixed[KBT_EC_UNKNOWN_IOCTL];
	}
	if (rec->type == 0 || rec->type >= KT_REC_TYPE_MAX)
		return NULL;
	/* A type without an entry (fd_transfer has no event class yet)
	 * reads as 0, which is open's: it is skipped like an unknown one. */
	if (rec->type != KT_REC_OPEN && fixed[rec->type] == KBT_EC_OPEN)
		return NULL;
	*which = fixed[rec->type];
	return it->in->fixed[*which];
}

/*
 * The clock class's offset from its origin in ns (trace_ir.c make_clock()):
 * what turns a record's time into an event timestamp's time base.
 */
static int64_t
clock_offset(const struct kbt_input *in)
{
	if (!in->hdr.start_realtime)
		return 0;
	return (int64_t)(in->hdr.start_realtime - in->hdr.start_monotonic);
}

static int
emit_record(struct kbt_iter *it, struct kbt_held *h)
{
	const struct kt_record *rec = &h->rec;
	struct kbt_stream *s;
	bt_event_class *ec;
	bt_message *m;
	bt_event *ev;
	bt_field *ctx, *pl;
	uint64_t ts = h->ts;
	const char *name = NULL;
	int row, which, rc;

	ec = class_of(it, rec, &row, &which);
	if (!ec) {
		/* Unknown types have no entry: counted once, at the record. */
		if (!h->begin)
			it->skipped++;
		return 0;
	}
	if (h->begin) {
		/* The call's name: its event's, or the API function's. */
		name = rec->type == KT_REC_API_CALL ? rec->u.api.name :
		       bt_event_class_get_name(ec);
		ec = it->in->fixed[KBT_EC_CALL_BEGIN];
	}
	if (it->events && ts < it->last_ts) {
		if (h->begin) {
			it->begin_late++;
			if (it->last_ts - ts > it->begin_late_max)
				it->begin_late_max = it->last_ts - ts;
		} else {
			it->clamped++;
			if (it->last_ts - ts > it->clamp_max)
				it->clamp_max = it->last_ts - ts;
		}
		ts = it->last_ts;
	}
	s = get_stream(it, rec->tid);
	if (!s)
		return -1;
	if (s->packet && s->pkt_events >= KBT_PACKET_EVENTS) {
		rc = kbt_q_push(it, bt_message_packet_end_create_with_default_clock_snapshot(
				it->self, s->packet, ts));
		bt_packet_put_ref(s->packet);
		s->packet = NULL;
		if (rc)
			return -1;
	}
	if (!s->packet) {
		s->packet = bt_packet_create(s->stream);
		s->pkt_events = 0;
		if (!s->packet ||
		    kbt_q_push(it, bt_message_packet_beginning_create_with_default_clock_snapshot(
				it->self, s->packet, ts)))
			return -1;
	}
	m = bt_message_event_create_with_packet_and_default_clock_snapshot(
		it->self, ec, s->packet, ts);
	if (!m)
		return -1;
	ev = bt_message_event_borrow_event(m);
	ctx = bt_event_borrow_common_context_field(ev);
	bt_field_integer_unsigned_set_value(
		bt_field_structure_borrow_member_field_by_index(ctx, 0), rec->seq);
	bt_field_integer_unsigned_set_value(
		bt_field_structure_borrow_member_field_by_index(ctx, 1), rec->tid);
	bt_field_integer_signed_set_value(
		bt_field_structure_borrow_member_field_by_index(ctx, 2),
		it->in->hdr.pid);
	pl = bt_event_borrow_payload_field(ev);
	if (h->begin)
		rc = kbt_fill_call_begin(pl, rec, name ? name : "",
					 clock_offset(it->in));
	else if (row >= 0)
		rc = kbt_ioctl_fill(&it->in->ioctl[row], pl, rec, it->bos,
				    &it->cuts);
	else if (which >= 0)
		rc = kbt_fill_fixed((enum kbt_fixed_ec)which, pl, rec,
				    &it->cuts);
	else
		rc = kbt_fill_unknown_ioctl(pl, rec);
	if (rc) {
		bt_message_put_ref(m);
		return -1;
	}
	s->pkt_events++;
	it->events++;
	it->last_ts = ts;
	return kbt_q_push(it, m);
}

/* ---- the end ---- */

static void
report(struct kbt_iter *it)
{
	struct kbt_src *src = it->src;
	struct kt_reader_status st;
	enum kt_integrity v;

	kt_reader_get_status(it->reader, &st);
	v = kt_reader_verdict(it->reader, it->read_rc);
	/* With damage-is-error, the error says it instead. */
	if (v == KT_INTEGRITY_TRUNCATED && !src->damage_is_error)
		kbt_log(src, BT_LOGGING_LEVEL_WARNING,
			"warning: %s: trace truncated (the writer was killed, "
			"or the copy is incomplete): converted the %" PRIu64
			" records of its complete frames; the rest is lost (%s)",
			it->in->path, st.records, st.message);
	else if (kt_integrity_damage(v) && !src->damage_is_error &&
		 it->read_rc == 0)
		kbt_log(src, BT_LOGGING_LEVEL_WARNING,
			"warning: %s: %s: %s", it->in->path,
			kt_integrity_name(v), st.message);
	else if (it->read_rc == 0 && v == KT_INTEGRITY_NO_END)
		kbt_log(src, BT_LOGGING_LEVEL_WARNING,
			"warning: %s: no END record: the writer did not close "
			"the trace (every complete frame was converted)",
			it->in->path);
	if (it->clamped)
		kbt_log(src, BT_LOGGING_LEVEL_WARNING,
			"warning: %s: %" PRIu64 " events were read after younger "
			"ones had been emitted (reorder window exceeded); their "
			"timestamps were raised by up to %" PRIu64 " ns",
			it->in->path, it->clamped, it->clamp_max);
	if (it->begin_late)
		kbt_log(src, BT_LOGGING_LEVEL_WARNING,
			"warning: %s: %" PRIu64 " kfd:call_begin events were "
			"read after younger events had been emitted (calls longer "
			"than the reorder slack); they are stamped up to %" PRIu64
			" ns after their call's entry (their begin_ns field holds "
			"it)", it->in->path, it->begin_late, it->begin_late_max);
	if (it->cuts.fields)
		kbt_log(src, BT_LOGGING_LEVEL_WARNING,
			"warning: %s: %" PRIu64 " event fields were cut to their "
			"bounds (%u exec arguments or %u KiB of them, %u buffer "
			"elements), the first in record #%" PRIu64 "; the "
			"largest held %" PRIu64 " bytes",
			it->in->path, it->cuts.fields, KBT_MAX_ARGS,
			KBT_MAX_ARGV_BYTES >> 10, KBT_MAX_BUF_ELEMS,
			it->cuts.first_seq, it->cuts.max_len);
	if (it->skipped)
		kbt_log(src, BT_LOGGING_LEVEL_INFO,
			"%s: skipped %" PRIu64 " records of unknown types",
			it->in->path, it->skipped);
}

static int
close_streams(struct kbt_iter *it)
{
	size_t i;

	for (i = 0; i < it->nstreams; i++) {
		struct kbt_stream *s = &it->streams[i];

		if (!s->begun)
			continue;
		if (s->packet) {
			if (kbt_q_push(it, bt_message_packet_end_create_with_default_clock_snapshot(
					it->self, s->packet, it->last_ts)))
				return -1;
			bt_packet_put_ref(s->packet);
			s->packet = NULL;
		}
		if (kbt_q_push(it, bt_message_stream_end_create(it->self, s->stream)))
			return -1;
	}
	return 0;
}

static void
fail_cause(struct kbt_iter *it)
{
	struct kt_reader_status st;
	char where[64] = "";

	kt_reader_get_status(it->reader, &st);
	if (it->read_rc == -KT_ETRUNC) {
		BT_CURRENT_THREAD_ERROR_APPEND_CAUSE_FROM_MESSAGE_ITERATOR(it->self,
			"%s: trace truncated after %" PRIu64 " records: %s",
			it->in->path, st.records, st.message);
		return;
	}
	if (it->read_rc == 0) {
		BT_CURRENT_THREAD_ERROR_APPEND_CAUSE_FROM_MESSAGE_ITERATOR(it->self,
			"%s: damaged trace (%s): %s (its %" PRIu64 " records "
			"were converted)", it->in->path,
			kt_integrity_name(kt_reader_verdict(it->reader, 0)),
			st.message, st.records);
		return;
	}
	if (st.corrupt_raw_offset != UINT64_MAX)
		snprintf(where, sizeof(where), ", record at byte %" PRIu64
			 " of the frame", st.corrupt_raw_offset);
	BT_CURRENT_THREAD_ERROR_APPEND_CAUSE_FROM_MESSAGE_ITERATOR(it->self,
		"%s: corrupt trace at file offset %" PRIu64 "%s: %s "
		"(%" PRIu64 " records before it were converted)",
		it->in->path, st.corrupt_offset, where,
		st.message[0] ? st.message : kt_strerror(it->read_rc),
		st.records);
}

/* ---- producing ---- */

static int
releasable(const struct kbt_iter *it)
{
	const struct kbt_held *h = kbt_heap_min(&it->heap);

	if (!h)
		return 0;
	return it->heap.bytes > it->src->window_bytes ||
	       (it->newest > h->ts && it->newest - h->ts > it->src->slack_ns);
}

/*
 * With begin-events, hold the entry of the call @rec (an ioctl or an API
 * call) under its entry time, before the record itself: at equal times
 * the entry comes first. Return: 0, or -1.
 */
static int
push_begin(struct kbt_iter *it, const struct kt_record *rec)
{
	struct kbt_held *b;

	if (!it->src->begin_events ||
	    (rec->type != KT_REC_IOCTL && rec->type != KT_REC_API_CALL))
		return 0;
	b = kbt_begin_clone(rec);
	if (!b)
		return -1;
	b->ord = it->ord++;
	if (b->ts < it->from_ts) {
		/* Before the time sought (seek.c). */
		free(b);
		return 0;
	}
	if (kbt_heap_push(&it->heap, b)) {
		free(b);
		return -1;
	}
	return 0;
}

/* Advance: make some messages, or change state. Return: 0, or -1. */
static int
produce(struct kbt_iter *it)
{
	struct kt_record rec;
	struct kbt_held *h;
	int rc;

	switch (it->state) {
	case ST_READING:
		if (releasable(it)) {
			h = kbt_heap_pop(&it->heap);
			rc = emit_record(it, h);
			free(h);
			return rc;
		}
		rc = kt_reader_next(it->reader, &rec);
		if (rc == 1) {
			if (push_begin(it, &rec))
				return -1;
			h = kbt_record_clone(&rec);
			if (!h)
				return -1;
			h->ord = it->ord++;
			if (h->ts > it->newest)
				it->newest = h->ts;
			if (h->ts < it->from_ts) {
				/* Before the time sought (seek.c). */
				free(h);
				return 0;
			}
			if (kbt_heap_push(&it->heap, h)) {
				free(h);
				return -1;
			}
			return 0;
		}
		it->read_rc = rc;
		it->state = ST_DRAINING;
		return 0;
	case ST_DRAINING:
		h = kbt_heap_pop(&it->heap);
		if (!h) {
			it->state = ST_ENDING;
			return 0;
		}
		rc = emit_record(it, h);
		free(h);
		return rc;
	case ST_ENDING:
		report(it);
		if (close_streams(it))
			return -1;
		/* Damage fails the graph (babeltrace2 exits 1) as it fails
		 * every kfdtrace command, after every record read. */
		if ((it->read_rc < 0 && it->read_rc != -KT_ETRUNC) ||
		    (it->src->damage_is_error &&
		     kt_integrity_damage(kt_reader_verdict(it->reader,
							   it->read_rc))))
			it->state = ST_FAILING;
		else
			it->state = ST_DONE;
		return 0;
	default:
		return 0;
	}
}

bt_message_iterator_class_next_method_status
kbt_iter_next(bt_self_message_iterator *self, bt_message_array_const msgs,
	      uint64_t capacity, uint64_t *count)
{
	struct kbt_iter *it = bt_self_message_iterator_get_data(self);
	uint64_t n = 0;

	while (n < capacity) {
		if (it->qlen) {
			msgs[n++] = it->q[it->qhead++];
			if (--it->qlen == 0)
				it->qhead = 0;
			continue;
		}
		if (it->state == ST_DONE || it->state == ST_FAILING)
			break;
		if (produce(it)) {
			BT_CURRENT_THREAD_ERROR_APPEND_CAUSE_FROM_MESSAGE_ITERATOR(
				self, "%s: out of memory making messages",
				it->in->path);
			/* Messages already handed over stay valid. */
			if (n) {
				*count = n;
				it->state = ST_DONE;
				return BT_MESSAGE_ITERATOR_CLASS_NEXT_METHOD_STATUS_OK;
			}
			return BT_MESSAGE_ITERATOR_CLASS_NEXT_METHOD_STATUS_MEMORY_ERROR;
		}
	}
	if (n) {
		*count = n;
		return BT_MESSAGE_ITERATOR_CLASS_NEXT_METHOD_STATUS_OK;
	}
	if (it->state == ST_FAILING) {
		fail_cause(it);
		it->state = ST_DONE;
		return BT_MESSAGE_ITERATOR_CLASS_NEXT_METHOD_STATUS_ERROR;
	}
	return BT_MESSAGE_ITERATOR_CLASS_NEXT_METHOD_STATUS_END;
}

bt_message_iterator_class_initialize_method_status
kbt_iter_init(bt_self_message_iterator *self,
	      bt_self_message_iterator_configuration *cfg,
	      bt_self_component_port_output *port)
{
	bt_self_component *comp = bt_self_message_iterator_borrow_component(self);
	struct kbt_iter *it = calloc(1, sizeof(*it));
	int rc;

	if (!it)
		return BT_MESSAGE_ITERATOR_CLASS_INITIALIZE_METHOD_STATUS_MEMORY_ERROR;
	it->self = self;
	it->shared = -1;
	it->src = bt_self_component_get_data(comp);
	it->in = bt_self_component_port_get_data(
		bt_self_component_port_output_as_self_component_port(port));
	it->bos = kbt_bo_map_new();
	rc = kt_reader_open(it->in->path, &it->reader);
	if (rc || !it->bos) {
		BT_CURRENT_THREAD_ERROR_APPEND_CAUSE_FROM_MESSAGE_ITERATOR(self,
			"%s: %s", it->in->path,
			rc ? kt_strerror(rc) : "out of memory");
		kbt_bo_map_free(it->bos);
		free(it);
		return BT_MESSAGE_ITERATOR_CLASS_INITIALIZE_METHOD_STATUS_ERROR;
	}
	bt_self_message_iterator_set_data(self, it);
	/*
	 * Every message has a time, and times never go back, so babeltrace2
	 * may reach a time by reading forward (what flt.utils.muxer needs of
	 * its inputs to seek by time; seek.c seeks directly).
	 */
	bt_self_message_iterator_configuration_set_can_seek_forward(cfg,
								    BT_TRUE);
	return BT_MESSAGE_ITERATOR_CLASS_INITIALIZE_METHOD_STATUS_OK;
}

void
kbt_iter_finalize(bt_self_message_iterator *self)
{
	struct kbt_iter *it = bt_self_message_iterator_get_data(self);
	size_t i;

	if (!it)
		return;
	for (i = 0; i < it->qlen; i++)
		bt_message_put_ref(it->q[it->qhead + i]);
	free(it->q);
	for (i = 0; i < it->nstreams; i++) {
		bt_packet_put_ref(it->streams[i].packet);
		bt_stream_put_ref(it->streams[i].stream);
	}
	free(it->streams);
	kc_u64map_free(&it->by_tid);
	kbt_heap_free(&it->heap);
	kbt_bo_map_free(it->bos);
	kt_reader_close(it->reader);
	free(it);
}

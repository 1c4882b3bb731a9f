/* SPDX-License-Identifier: MIT */
/*
 * What a doorbell value publishes (submission capture, submit.c): the
 * packets of each engine's ring between what was recorded and the new
 * value, read from the program's memory and appended as KT_REC_SUBMIT
 * records. AQL counts 64-byte packets and stops before a header still
 * INVALID; SDMA counts bytes; PM4 counts dwords modulo the ring. A
 * record holds at most KT_MAX_SUBMIT bytes (CLAMPED past that). Every
 * function here runs with submit.c's lock (S.lock) held.
 */
#include "capture.h"

#include <stdlib.h>
#include <string.h>

#include <kfdtrace/packet_abi.h>
#include <kfdtrace/packets.h>

/* Packets up to this many bytes are read onto the stack, not the heap. */
#define SUB_STACK_BYTES	2048u

/* Read @bytes of @q's ring from byte @start on, wrapping. */
static int
read_ring(const struct sub_queue *q, uint8_t *buf, uint64_t start, uint64_t bytes)
{
	if (start + bytes <= q->ring_size)
		return kcap_read_mem(buf, q->ring + start, bytes);
	if (kcap_read_mem(buf, q->ring + start, q->ring_size - start) < 0)
		return -1;
	return kcap_read_mem(buf + (q->ring_size - start), q->ring,
			     bytes - (q->ring_size - start));
}

/* Append a submit record of @q (S.lock held). */
static void
emit(const struct sub_queue *q, uint64_t first, uint64_t last, uint8_t flags,
     const uint8_t *data, uint64_t len)
{
	struct kt_record rec;

	if (kcap_submit_stopped())
		return;
	memset(&rec, 0, sizeof(rec));
	rec.type = KT_REC_SUBMIT;
	rec.u.submit.queue_id = q->queue_id;
	rec.u.submit.fd = q->fd;
	rec.u.submit.gpu_id = q->gpu_id;
	rec.u.submit.engine = q->engine;
	rec.u.submit.flags = flags;
	rec.u.submit.first = first;
	rec.u.submit.last = last;
	rec.u.submit.ring = q->ring;
	rec.u.submit.ring_size = q->ring_size;
	rec.u.submit.len = (flags & KT_SUBMIT_UNREADABLE) ? 0 : (uint32_t)len;
	rec.u.submit.data = rec.u.submit.len ? data : NULL;
	/* What they reference goes first (--submissions=full). */
	kcap_submit_mem_packets(q->engine, rec.u.submit.data, rec.u.submit.len);
	kcap_session_append(&rec, 0);
}

/*
 * AQL: record the packets from the one after the last recorded up to the
 * highest index rung, stopping before a header still INVALID (a slot
 * another producer reserved but has not published: it rings for it
 * later). Return the value for the real doorbell. S.lock held.
 */
static uint64_t
publish_aql(struct sub_queue *q, uint64_t v, uint8_t flags)
{
	uint64_t slots = q->ring_size / KFD_AQL_PACKET_SIZE, first, n, k, bytes;
	uint8_t stackbuf[SUB_STACK_BYTES], *buf;

	if (q->top == SUB_NONE || v > q->top)
		q->top = v;
	first = q->last == SUB_NONE ? 0 : q->last + 1;
	if (q->top < first || !slots || !q->ring) {
		/* Nothing new: a value at or below what was recorded. */
		if (flags & KT_SUBMIT_BACKWARDS)
			emit(q, first, v, flags, NULL, 0);
		return (flags & KT_SUBMIT_BACKWARDS) ? v : q->last;
	}
	n = q->top - first + 1;
	if (n > slots || n * KFD_AQL_PACKET_SIZE > KT_MAX_SUBMIT) {
		uint64_t keep = slots < KT_MAX_SUBMIT / KFD_AQL_PACKET_SIZE ?
				slots : KT_MAX_SUBMIT / KFD_AQL_PACKET_SIZE;

		first = q->top + 1 - keep;
		n = keep;
		flags |= KT_SUBMIT_CLAMPED;
	}
	bytes = n * KFD_AQL_PACKET_SIZE;
	buf = bytes <= sizeof(stackbuf) ? stackbuf : malloc(bytes);
	if (!buf)
		return q->last;
	if (read_ring(q, buf, (first % slots) * KFD_AQL_PACKET_SIZE, bytes) < 0) {
		flags |= KT_SUBMIT_UNREADABLE;
		k = n;
	} else {
		for (k = 0; k < n; k++)
			if ((buf[k * KFD_AQL_PACKET_SIZE] & 0xff) == KFD_AQL_TYPE_INVALID)
				break;
		if (k < n)
			flags |= KT_SUBMIT_HELD;
	}
	if (k || (flags & KT_SUBMIT_BACKWARDS))
		emit(q, first, k ? first + k - 1 : v, flags, buf, k * KFD_AQL_PACKET_SIZE);
	if (k)
		q->last = first + k - 1;
	if (buf != stackbuf)
		free(buf);
	return (flags & KT_SUBMIT_BACKWARDS) && !k ? v : q->last;
}

/* SDMA: the bytes between the last write pointer and @v. S.lock held. */
static uint64_t
publish_sdma(struct sub_queue *q, uint64_t v, uint8_t flags)
{
	uint8_t stackbuf[SUB_STACK_BYTES], *buf;
	uint64_t first = q->last == SUB_NONE ? 0 : q->last, bytes;

	if (v < first)
		flags |= KT_SUBMIT_BACKWARDS;
	if (v <= first || !q->ring_size || !q->ring) {
		if (flags & KT_SUBMIT_BACKWARDS)
			emit(q, first, v, flags, NULL, 0);
		q->last = v;
		return v;
	}
	bytes = v - first;
	if (bytes > q->ring_size || bytes > KT_MAX_SUBMIT) {
		bytes = q->ring_size < KT_MAX_SUBMIT ? q->ring_size : KT_MAX_SUBMIT;
		first = v - bytes;
		flags |= KT_SUBMIT_CLAMPED;
	}
	buf = bytes <= sizeof(stackbuf) ? stackbuf : malloc(bytes);
	if (buf) {
		if (read_ring(q, buf, first % q->ring_size, bytes) < 0)
			flags |= KT_SUBMIT_UNREADABLE;
		emit(q, first, v, flags, buf, bytes);
		if (buf != stackbuf)
			free(buf);
	}
	q->last = v;
	return v;
}

/*
 * PM4: the write pointer is in dwords, and the CP takes it modulo the
 * ring (a producer may keep it monotonic or wrapped): the dwords between
 * the last one and @v, at most a ring. S.lock held.
 */
static uint64_t
publish_pm4(struct sub_queue *q, uint64_t v, uint8_t flags)
{
	uint64_t ring_dw = q->ring_size / 4, first, n;
	uint8_t stackbuf[SUB_STACK_BYTES], *buf;

	first = q->last == SUB_NONE ? 0 : q->last;
	if (v == first || !ring_dw || (ring_dw & (ring_dw - 1)) || !q->ring) {
		q->last = v;
		return v;
	}
	if (v > first && v - first > ring_dw) {
		first = v - ring_dw;
		flags |= KT_SUBMIT_CLAMPED;
	}
	n = (v - first) & (ring_dw - 1);
	if (!n)
		n = ring_dw;
	if (n * 4 > KT_MAX_SUBMIT) {
		n = KT_MAX_SUBMIT / 4;
		first = v - n;
		flags |= KT_SUBMIT_CLAMPED;
	}
	buf = n * 4 <= sizeof(stackbuf) ? stackbuf : malloc(n * 4);
	if (buf) {
		if (read_ring(q, buf, (first & (ring_dw - 1)) * 4, n * 4) < 0)
			flags |= KT_SUBMIT_UNREADABLE;
		emit(q, first, v, flags, buf, n * 4);
		if (buf != stackbuf)
			free(buf);
	}
	q->last = v;
	return v;
}

/*
 * The program stored @v into @q's doorbell: record what it published,
 * then let the engine see it. @flags: LATE when found after the fact.
 * S.lock held.
 */
void
kcap_submit_publish(struct sub_queue *q, uint64_t v, uint8_t flags)
{
	uint64_t fwd;

	/* A PM4 write pointer may wrap with the ring: not backwards. */
	if (q->rung != SUB_NONE && v < q->rung && q->engine != KFD_ENGINE_PM4)
		flags |= KT_SUBMIT_BACKWARDS;
	q->rung = v;
	if (!q->ring_size || !q->ring) {
		fwd = v;
	} else if (q->engine == KFD_ENGINE_AQL) {
		fwd = publish_aql(q, v, flags);
	} else if (q->engine == KFD_ENGINE_PM4) {
		fwd = publish_pm4(q, v, flags);
	} else {
		fwd = publish_sdma(q, v, flags);
	}
	/* Nothing recorded yet: the engine has nothing to look at. */
	if (fwd != SUB_NONE)
		__atomic_store_n(q->real, fwd, __ATOMIC_RELEASE);
}

/*
 * AQL: the engine's read index past what was recorded means packets were
 * published where no trap saw it (the GPU rang, or a queue without
 * doorbells): record what the ring holds of them. S.lock held.
 */
void
kcap_submit_check_unseen(struct sub_queue *q)
{
	uint64_t rd, slots = q->ring_size / KFD_AQL_PACKET_SIZE, first, n;
	uint8_t *buf;
	uint8_t flags = KT_SUBMIT_UNSEEN | KT_SUBMIT_LATE;

	if (q->engine != KFD_ENGINE_AQL || !q->rptr || !slots || !q->ring ||
	    kcap_read_mem(&rd, q->rptr, sizeof(rd)) < 0)
		return;
	first = q->last == SUB_NONE ? 0 : q->last + 1;
	if (rd <= first || (q->last == SUB_NONE && q->rung == SUB_NONE))
		return;
	n = rd - first;
	if (n > slots || n * KFD_AQL_PACKET_SIZE > KT_MAX_SUBMIT) {
		n = slots < KT_MAX_SUBMIT / KFD_AQL_PACKET_SIZE ?
		    slots : KT_MAX_SUBMIT / KFD_AQL_PACKET_SIZE;
		first = rd - n;
		flags |= KT_SUBMIT_CLAMPED;
	}
	buf = malloc(n * KFD_AQL_PACKET_SIZE);
	if (!buf)
		return;
	if (read_ring(q, buf, (first % slots) * KFD_AQL_PACKET_SIZE,
		      n * KFD_AQL_PACKET_SIZE) < 0)
		flags |= KT_SUBMIT_UNREADABLE;
	emit(q, first, rd - 1, flags, buf, n * KFD_AQL_PACKET_SIZE);
	free(buf);
	q->last = rd - 1;
	if (q->top == SUB_NONE || q->top < q->last)
		q->top = q->last;
}

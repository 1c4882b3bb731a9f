/* SPDX-License-Identifier: MIT */
/*
 * Resubmission: a submit record (packets a doorbell published in the
 * capture, docs/submissions.md) is published again on the replayed queue.
 *
 * With --submissions=full the memory records before a submit record hold
 * what its packets referenced: they are written back first (signals but
 * their values, with their mailbox and event id translated), and each SDMA copy whose source
 * was captured is checked once the engine retired it: its destination
 * must hold the captured bytes. A copy source in VRAM is what the GPU
 * computed: it is compared, not written back (compare.c).
 *
 * The queue's ring, write pointer (CREATE_QUEUE's write_pointer_address:
 * amd_queue_t's write_dispatch_id for AQL, the byte write pointer for
 * SDMA, the dword write pointer for PM4) and doorbell are where the capture had them (the replay re-creates the buffers at their GPU VAs and maps them
 * at their captured CPU addresses, or their relocations): the packets are
 * written into the ring, each AQL packet body first and its header last,
 * CPU addresses in them (signals) relocated by the packet schema's roles;
 * then the write pointer and the doorbell get the captured value, and the
 * engine (kfdsim's command processor, or the GPU) runs them. The capture
 * holds no memory contents; what the runtime wrote before publishing is
 * done again where the packets say: each completion signal is armed to 1
 * (AQL packets' completion_signal, the signal an SDMA ATOMIC decrements),
 * so completions take them to 0 and barriers depending on them run in the
 * capture's order. The replay's --record trace gets a submit record of what it
 * published, under the live queue id.
 *
 * All writes into the ring and signals go through process_vm_writev() on
 * ourselves: an address the replay did not map gives an error, not a
 * crash. The doorbell is a plain store: the kernel refuses
 * process_vm_writev() into a doorbell page (VM_IO | VM_PFNMAP), and the
 * replay mapped that page itself.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>
#include <unistd.h>

#include <kfdtrace/blob.h>
#include <kfdtrace/dispatch.h>
#include <kfdtrace/packet_abi.h>
#include <kfdtrace/packets.h>
#include <kfdtrace/recorder.h>
#include <kfdtrace/trace.h>

#include "replay_run.h"

/* amd_signal_t: its value at 8. */
#define SIG_VALUE	8u

/* How long the engine may take to retire what one doorbell published. */
#define RS_RETIRE_NS	(200ull * 1000000)

static int
put_mem(uint64_t addr, const void *src, size_t len)
{
	struct iovec l = { (void *)src, len }, r = { (void *)(uintptr_t)addr, len };

	return process_vm_writev(getpid(), &l, 1, &r, 1, 0) == (ssize_t)len ? 0 : -1;
}

/*
 * The model's queue @qid at @seq, of KFD process @proc: queue ids are per
 * process. @proc -1 (an older trace): the first queue of that id.
 */
static const struct rp_m_queue *
find_queue(const struct rp_model *m, int32_t proc, uint32_t qid, uint64_t seq)
{
	size_t i;

	for (i = 0; i < m->queues.n; i++) {
		const struct rp_m_queue *q = RP_AT(&m->queues, struct rp_m_queue, i);

		if (q->qid == qid && (proc < 0 || q->proc == proc) &&
		    q->create_seq < seq && seq < q->destroy_seq)
			return q;
	}
	return NULL;
}

/*
 * The live address of @q's doorbell slot, or 0 (no doorbell mapping).
 * Doorbell offsets are per KFD process too: with @fd known (not -1), only
 * a mapping of that file.
 */
static uint64_t
doorbell(const struct rp_run *st, const struct rp_m_queue *q, int32_t fd,
	 uint64_t seq)
{
	const struct rp_model *m = &st->r->model;
	size_t i;

	for (i = 0; i < m->mmaps.n; i++) {
		const struct rp_m_mmap *mm = RP_AT(&m->mmaps, struct rp_m_mmap, i);

		if (mm->what != RP_MAP_DOORBELL || !mm->ok || mm->seq > seq ||
		    (fd >= 0 && mm->fd != fd) ||
		    mm->unmap_seq < seq || q->doorbell_offset < mm->offset ||
		    q->doorbell_offset + 8 > mm->offset + mm->len)
			continue;
		return rp_as_xlate(&st->as, mm->addr + (q->doorbell_offset - mm->offset));
	}
	return 0;
}

/* Relocate the CPU addresses of one packet, by its layout's roles. */
static void
relocate(const struct rp_run *st, const struct kfd_struct_desc *sd, uint8_t *p,
	 size_t len)
{
	unsigned int i;

	for (i = 0; sd && i < sd->nfields; i++) {
		const struct kfd_field *f = &sd->fields[i];
		uint64_t v;

		if (f->role != KFD_ROLE_CPU_ADDR ||
		    kfd_field_load(f, p, len, &v) < 0 || !v)
			continue;
		kfd_field_set(f, p, len, rp_as_xlate(&st->as, v));
	}
}

/*
 * Re-arm a completion signal as the runtime had it when it published the
 * packet: value 1, which the packet's completion takes to 0 (and so
 * satisfies the barriers that depend on it, in their order).
 */
static void
arm(uint64_t signal)
{
	static const int64_t one = 1;

	if (signal)
		put_mem(signal + SIG_VALUE, &one, sizeof(one));
}

/* The completion signal of an AQL packet of layout @sd, or 0. */
static uint64_t
completion(const struct kfd_struct_desc *sd, const uint8_t *p, size_t len)
{
	unsigned int i;
	uint64_t v = 0;

	for (i = 0; sd && i < sd->nfields; i++)
		if (!strcmp(sd->fields[i].name, "completion_signal") &&
		    kfd_field_load(&sd->fields[i], p, len, &v) == 0)
			return v;
	return 0;
}

/*
 * An AQL PM4_IB packet @p whose indirect buffer the capture does not hold
 * (no --submissions=full): the replay has no packets there, so the jump
 * is made invalid, which the CP skips. ROCr's IBs only invalidate caches.
 */
static void
pm4_ib_uncaptured(struct rp_run *st, uint8_t *p)
{
	struct kfd_aql_pm4_ib v;
	uint64_t base;
	size_t i;

	memcpy(&v, p, sizeof(v));
	base = ((uint64_t)v.ib_jump_cmd[1] | (uint64_t)v.ib_jump_cmd[2] << 32) &
	       0xfffffffffffcull;
	for (i = 0; i < st->npending_mem; i++) {
		const struct kt_memory_rec *m = &st->pending_mem[i]->u.memory;

		if (m->kind == KT_MEM_INDIRECT && m->addr == base && m->len &&
		    !(m->flags & KT_MEM_OMITTED))
			return;
	}
	v.ib_jump_cmd[3] &= ~KFD_PM4_IB_VALID;
	memcpy(p, &v, sizeof(v));
	st->sum.ib_skipped++;
}

/* Write the AQL packets of @s (relocated in @buf) into the ring. */
static int
publish_aql(struct rp_run *st, const struct kt_submit_rec *s, uint8_t *buf,
	    uint64_t ring, uint32_t ring_size)
{
	uint64_t slots = ring_size / KFD_AQL_PACKET_SIZE, i, n;

	n = s->len / KFD_AQL_PACKET_SIZE;
	if (!slots || n > slots)
		return -1;
	for (i = 0; i < n; i++) {
		uint8_t *p = buf + i * KFD_AQL_PACKET_SIZE;
		const struct kfd_packet_desc *r = kfd_aql_packet(p);
		uint64_t at = ring + ((s->first + i) % slots) * KFD_AQL_PACKET_SIZE;

		if (r && r->match == KFD_AQL_TYPE_VENDOR &&
		    r->sub == KFD_AQL_VENDOR_PM4_IB)
			pm4_ib_uncaptured(st, p);
		if (r) {
			uint64_t sig;

			relocate(st, r->layout, p, KFD_AQL_PACKET_SIZE);
			sig = completion(r->layout, p, KFD_AQL_PACKET_SIZE);
			arm(sig);
		}
		/* The body, then the header: the engine takes a valid header
		 * as a published packet. */
		if (put_mem(at + 2, p + 2, KFD_AQL_PACKET_SIZE - 2) < 0)
			return -1;
		__atomic_thread_fence(__ATOMIC_RELEASE);
		if (put_mem(at, p, 2) < 0)
			return -1;
	}
	return 0;
}

/* Write the SDMA bytes of @s into the ring (it wraps at its size). */
static int
publish_sdma(struct rp_run *st, const struct kt_submit_rec *s, uint8_t *buf,
	     uint64_t ring, uint32_t ring_size)
{
	size_t off, size, start;

	for (off = 0; off + 4 <= s->len; off += size) {
		const struct kfd_packet_desc *r =
			kfd_sdma_packet(buf + off, s->len - off, &size);

		if (!r || off + size > s->len)
			continue;
		relocate(st, r->layout, buf + off, r->layout->size);
		/* ADD64 of -1 on a signal's value: the copy's completion. */
		if (r->match == KFD_SDMA_OP_ATOMIC) {
			struct kfd_sdma_atomic a;

			memcpy(&a, buf + off, sizeof(a));
			if (a.src == UINT64_MAX && a.addr >= SIG_VALUE)
				arm(a.addr - SIG_VALUE);
		}
	}
	if (!ring_size || s->len > ring_size)
		return -1;
	start = s->first % ring_size;
	if (start + s->len <= ring_size)
		return put_mem(ring + start, buf, s->len);
	return put_mem(ring + start, buf, ring_size - start) < 0 ||
	       put_mem(ring, buf + (ring_size - start), s->len - (ring_size - start)) < 0 ?
	       -1 : 0;
}

/*
 * Write the PM4 dwords of @s into the ring: the ring's dword offset is
 * the write pointer modulo its size, as the CP reads it. PM4 packets
 * carry GPU VAs only, which the replay keeps: nothing to relocate.
 */
static int
publish_pm4(const struct kt_submit_rec *s, const uint8_t *buf, uint64_t ring,
	    uint32_t ring_size)
{
	uint64_t ring_dw = ring_size / 4, start;

	if (!ring_dw || (ring_dw & (ring_dw - 1)) || s->len > ring_size || s->len % 4)
		return -1;
	start = (s->first & (ring_dw - 1)) * 4;
	if (start + s->len <= ring_size)
		return put_mem(ring + start, buf, s->len);
	return put_mem(ring + start, buf, ring_size - start) < 0 ||
	       put_mem(ring, buf + (ring_size - start), s->len - (ring_size - start)) < 0 ?
	       -1 : 0;
}

/*
 * Wait (a little) for the engine to retire what was published: its read
 * pointer (read_dispatch_id, the SDMA byte read pointer, or the PM4 dword
 * offset inside the ring) past it. A queue that stops short (a queue
 * error, a packet that waits forever) is counted and named once per
 * queue.
 */
static int
retired(struct rp_run *st, const struct kt_submit_rec *s, uint64_t rptr,
	uint64_t ring_size)
{
	uint64_t want = s->engine == KFD_ENGINE_AQL ? s->last + 1 : s->last;
	uint64_t t0 = kfd_dispatch_now(), v = 0;
	uint32_t v32;

	for (;;) {
		if (s->engine == KFD_ENGINE_PM4) {
			/* 32 bits, wrapped: the CP's report. */
			if (rp_mem_get(&v32, rptr, sizeof(v32)) < 0)
				return 0;
			v = v32;
			if (ring_size >= 4 && v == (s->last & (ring_size / 4 - 1)))
				return 1;
		} else {
			if (rp_mem_get(&v, rptr, sizeof(v)) < 0)
				return 0;
			if (v >= want)
				return 1;
		}
		if (kfd_dispatch_now() - t0 > RS_RETIRE_NS)
			break;
		rp_sleep_ns(20000);
	}
	if (!st->sum.unretired++)
		rp_note(st, "queue %u: the engine stopped at %s %" PRIu64
			" of %" PRIu64 "..%" PRIu64 " (a queue error, or a packet "
			"waiting on what the replay does not have)", s->queue_id,
			s->engine == KFD_ENGINE_AQL ? "packet" :
			s->engine == KFD_ENGINE_PM4 ? "dword" : "byte", v,
			s->first, s->last);
	return 0;
}

void
rp_resubmit_memory(struct rp_run *st, const struct kt_record *rec)
{
	struct kt_record *c;

	st->cur_name = "memory";
	if (st->o->no_resubmit)
		return;
	/* Bytes the reader could not get (a blob of the run's store that is
	 * missing or damaged): the replay runs without them, and says so. */
	if (rec->u.memory.missing) {
		char hex[KT_BLOB_HEX_LEN] = "";
		uint8_t why = rec->u.memory.missing;

		if (rec->u.memory.hash_len)
			kt_blob_hex(rec->u.memory.hash, hex);
		rp_note(st, "memory at 0x%" PRIx64 " not restored: %s%s%s",
			rec->u.memory.addr,
			why == KT_MEM_NO_BASE ? "the record it changes was not read" :
			"blob ", hex,
			why == KT_MEM_NOT_IN_STORE ? " is not in the run's blob store" :
			why == KT_MEM_BAD_IN_STORE ? " in the run's blob store is damaged" :
			why == KT_MEM_NOT_READ ? " is not in the trace" : "");
	}
	if (st->npending_mem == RP_MAX_PENDING_MEM ||
	    !(c = kt_record_clone(rec))) {
		st->sum.not_replayed++;
		return;
	}
	st->pending_mem[st->npending_mem++] = c;
}

/*
 * A captured signal as the replayed one: its mailbox pointer where the
 * replay mapped the events page, its event id the live one.
 */
static void
signal_xlate(const struct rp_run *st, uint8_t *p, size_t len)
{
	struct kfd_amd_signal s;
	uint64_t id;

	if (len < sizeof(s))
		return;
	memcpy(&s, p, sizeof(s));
	if (s.event_mailbox_ptr)
		s.event_mailbox_ptr = rp_as_xlate(&st->as, s.event_mailbox_ptr);
	if (rp_map_get(&st->fwd, RP_K_EVENT, 0, s.event_id, &id))
		s.event_id = (uint32_t)id;
	memcpy(p, &s, sizeof(s));
}

/*
 * Put the memory the packets referenced back, as it was when the capture
 * saw the doorbell (--submissions=full).
 */
static void
restore_memory(struct rp_run *st, const uint8_t *compared)
{
	size_t i;

	for (i = 0; i < st->npending_mem; i++) {
		const struct kt_memory_rec *m = &st->pending_mem[i]->u.memory;
		uint8_t *b;

		if (!m->data || !m->len || (m->flags & KT_MEM_OMITTED) ||
		    compared[i])
			continue;
		b = malloc(m->len);
		if (!b)
			continue;
		memcpy(b, m->data, m->len);
		if (m->kind == KT_MEM_SIGNAL && m->len >= sizeof(struct kfd_amd_signal)) {
			uint64_t a = rp_as_xlate(&st->as, m->addr);

			/*
			 * All but the value: another queue's packet may have
			 * moved it since (armed when its own packet is
			 * published, see arm()).
			 */
			signal_xlate(st, b, m->len);
			if (put_mem(a, b, SIG_VALUE) == 0 &&
			    put_mem(a + 2 * SIG_VALUE, b + 2 * SIG_VALUE,
				    m->len - 2 * SIG_VALUE) == 0)
				st->sum.memory_restored++;
		} else if (put_mem(rp_cpu_of(st, m->addr), b, m->len) == 0) {
			st->sum.memory_restored++;
		}
		free(b);
	}
}

/*
 * After the engine retired a submit: each SDMA copy whose source was
 * captured must have put those bytes at its destination.
 */
static void
check_copies(struct rp_run *st, const struct kt_submit_rec *s, const uint8_t *buf)
{
	size_t off, size, i;

	for (off = 0; off + 4 <= s->len; off += size) {
		const struct kfd_packet_desc *r =
			kfd_sdma_packet(buf + off, s->len - off, &size);
		struct kfd_sdma_copy_linear c;
		uint8_t *live;
		uint64_t n;

		if (!r || r->match != KFD_SDMA_OP_COPY ||
		    r->sub != KFD_SDMA_SUBOP_COPY_LINEAR || off + sizeof(c) > s->len)
			continue;
		memcpy(&c, buf + off, sizeof(c));
		n = (uint64_t)(c.count & KFD_SDMA_COPY_COUNT_MASK) + 1;
		for (i = 0; i < st->npending_mem; i++) {
			const struct kt_memory_rec *m = &st->pending_mem[i]->u.memory;

			/* GPU VAs, which the replay keeps (no relocation). */
			if (m->kind != KT_MEM_COPY_SOURCE || !m->len ||
			    m->addr != c.src || m->len != n)
				continue;
			/*
			 * The capture's bytes are stale: read at the doorbell,
			 * before the packets the copy waits for or an earlier
			 * packet of its submit that writes the source ran.
			 */
			if (st->compared[i] == RP_CMP_KEPT ||
			    rp_copy_settled(buf, s->len, c.src, n) == 0)
				break;
			live = malloc(n);
			if (!live)
				break;
			if (rp_mem_get(live, rp_cpu_of(st, c.dst), n) < 0 ||
			    memcmp(live, m->data, n))
				rp_diverge(st, "copy destination", c.dst, c.dst, 0, 0,
					   "the engine did not put the %" PRIu64
					   " captured bytes of 0x%" PRIx64 " there", n,
					   m->addr);
			else
				st->sum.copies_checked++;
			free(live);
			break;
		}
	}
}

void
rp_resubmit_clear(struct rp_run *st)
{
	while (st->npending_mem)
		free(st->pending_mem[--st->npending_mem]);
}

void
rp_resubmit(struct rp_run *st, const struct kt_record *rec)
{
	const struct kt_submit_rec *s = &rec->u.submit;
	const struct rp_m_queue *q;
	uint64_t live_qid = s->queue_id, db, ring, wptr, v;
	const struct rp_fdent *e;
	int scope = 0;
	uint8_t *buf;
	int r;

	st->cur_name = "submit";
	if (st->o->no_resubmit)
		return;
	q = find_queue(&st->r->model, rp_model_submit_proc(&st->r->model, rec->seq),
		       s->queue_id, rec->seq);
	/*
	 * A doorbell that published nothing (its value went backwards, or
	 * named slots not published yet) has nothing to publish again.
	 */
	if (q && !s->len && !(s->flags & KT_SUBMIT_UNREADABLE)) {
		rp_resubmit_clear(st);
		return;
	}
	if (!q || !s->data || (s->flags & KT_SUBMIT_UNSEEN))
		rp_resubmit_clear(st);
	if (q && s->data && (s->flags & KT_SUBMIT_UNSEEN)) {
		/* What the ring held after the engine ran it: not the packets. */
		st->sum.not_replayed++;
		rp_note(st, "not resubmitted: the engine ran the packets before the "
			"capture saw them");
		return;
	}
	if (!q || !s->data || (s->flags & (KT_SUBMIT_CLAMPED | KT_SUBMIT_UNREADABLE)) ||
	    (s->engine != KFD_ENGINE_AQL && s->engine != KFD_ENGINE_SDMA &&
	     s->engine != KFD_ENGINE_PM4)) {
		st->sum.not_replayed++;
		rp_note(st, "not resubmitted: %s", !q ? "its queue is not in the trace" :
			s->data && !(s->flags & KT_SUBMIT_UNREADABLE) ?
			"the packets were cut at the capture's bound" :
			"the capture could not read the packets");
		return;
	}
	db = doorbell(st, q, s->fd, rec->seq);
	if (!db) {
		st->sum.not_replayed++;
		rp_note(st, "not resubmitted: the queue's doorbell page is not mapped");
		return;
	}
	buf = malloc(s->len);
	if (!buf) {
		st->sum.not_replayed++;
		return;
	}
	memcpy(buf, s->data, s->len);
	/* What the replayed GPU left in the copies' sources is compared,
	 * and kept (compare.c); the rest is written back. */
	memset(st->compared, 0, st->npending_mem);
	rp_compare_sources(st, s, st->compared);
	rp_compare_follow(st, s);
	restore_memory(st, st->compared);
	ring = rp_as_xlate(&st->as, q->ring);
	if (s->engine == KFD_ENGINE_AQL)
		r = publish_aql(st, s, buf, ring, (uint32_t)q->ring_size);
	else if (s->engine == KFD_ENGINE_PM4)
		r = publish_pm4(s, buf, ring, (uint32_t)q->ring_size);
	else
		r = publish_sdma(st, s, buf, ring, (uint32_t)q->ring_size);
	if (r < 0) {
		rp_diverge(st, "ring", q->ring, ring, ring != q->ring, 0,
			   "the replayed queue's ring cannot take the packets");
		free(buf);
		return;
	}
	/*
	 * The write pointer, then the doorbell. AQL counts packets (the
	 * doorbell names the last, write_dispatch_id is one past it); SDMA
	 * counts bytes, PM4 dwords.
	 */
	v = s->engine == KFD_ENGINE_AQL ? s->last + 1 : s->last;
	wptr = rp_as_xlate(&st->as, q->wptr);
	__atomic_thread_fence(__ATOMIC_RELEASE);
	put_mem(wptr, &v, sizeof(v));
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	__atomic_store_n((uint64_t *)(uintptr_t)db, s->last, __ATOMIC_RELEASE);
	st->sum.resubmitted++;
	if (retired(st, s, rp_as_xlate(&st->as, q->rptr), q->ring_size) &&
	    s->engine == KFD_ENGINE_SDMA)
		check_copies(st, s, buf);
	st->have_live = 1;
	st->live_ret = 0;
	e = rp_fd_get(st, s->fd);
	if (e && e->ofd >= 0 && RP_AT(&st->ofds, struct rp_ofd, e->ofd)->proc > 0)
		scope = RP_AT(&st->ofds, struct rp_ofd, e->ofd)->proc;
	rp_map_get(&st->fwd, RP_K_QUEUE, scope, s->queue_id, &live_qid);
	if (st->recorder) {
		struct kt_record out = *rec;

		out.seq = 0;
		out.ts = 0;
		out.u.submit.queue_id = (uint32_t)live_qid;
		out.u.submit.fd = e ? e->live : -1;
		out.u.submit.data = buf;
		kfd_recorder_append(st->recorder, &out);
	}
	free(buf);
	rp_resubmit_clear(st);
}

/* SPDX-License-Identifier: MIT */
/*
 * What the replayed engines computed, against what the capture recorded
 * (--submissions=full, docs/replay.md "Comparing what the GPU computed").
 *
 * An SDMA copy's source is captured when its doorbell rings. Where the
 * GPU produced those bytes (a kernel's output that hipMemcpy reads back),
 * writing them back would hide what the replayed kernels computed. So a
 * copy source in device-local memory (a VRAM buffer of the model) is
 * compared with what the replay holds there, and not written back. Host
 * memory (staging buffers, user pointers) is what the CPU wrote, which the
 * capture does not see otherwise: it is still written back.
 *
 * A captured source is the state at the doorbell, not at the copy. Where
 * the two can differ, the range is written back, not compared: the
 * submit polls memory before the copy (it waits for another engine), or
 * an earlier packet of the submit writes into the source.
 *
 * Before comparing, the replay waits for its queues to drain: the bytes
 * are then what every packet published so far left.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>
#include <unistd.h>

#include <kfdtrace/dispatch.h>
#include <kfdtrace/kfd_abi.h>
#include <kfdtrace/packet_abi.h>
#include <kfdtrace/packets.h>

#include "replay_run.h"

/* How long the queues may take to drain before a comparison. */
#define CMP_DRAIN_NS	(2000ull * 1000000)

/* SDMA POLL_REGMEM's header: bit 31, the poll reads memory. */
#define CMP_POLL_MEM	(1u << 31)

int
rp_mem_get(void *dst, uint64_t addr, size_t len)
{
	struct iovec l = { dst, len }, r = { (void *)(uintptr_t)addr, len };

	return process_vm_readv(getpid(), &l, 1, &r, 1, 0) == (ssize_t)len ? 0 : -1;
}

/* The VRAM buffer of the model that holds [@addr, +@len) at @seq, or NULL. */
static const struct rp_m_bo *
vram_bo(const struct rp_model *m, uint64_t addr, uint64_t len, uint64_t seq)
{
	size_t i;

	for (i = 0; i < m->bos.n; i++) {
		const struct rp_m_bo *b = RP_AT(&m->bos, struct rp_m_bo, i);

		if ((b->flags & KFD_ABI_ALLOC_MEM_FLAGS_VRAM) &&
		    b->alloc_seq < seq && seq < b->free_seq &&
		    addr >= b->va && addr - b->va <= b->size &&
		    len <= b->size - (addr - b->va))
			return b;
	}
	return NULL;
}

static int
overlaps(uint64_t a, uint64_t alen, uint64_t b, uint64_t blen)
{
	return a < b + blen && b < a + alen;
}

/*
 * Whether the copy of @len bytes from @src in the SDMA packets @p (@n
 * bytes) reads what the capture saw at the doorbell: it is there, and no
 * packet before it polls memory or writes into its source.
 */
static int
source_settled(const uint8_t *p, size_t n, uint64_t src, uint64_t len)
{
	size_t off, size;

	for (off = 0; off + 4 <= n; off += size) {
		const struct kfd_packet_desc *r = kfd_sdma_packet(p + off, n - off, &size);
		struct kfd_sdma_copy_linear c;
		struct kfd_sdma_const_fill f;
		uint32_t h;

		if (!size)
			return 0;
		if (!r || off + size > n)
			continue;
		if (r->match == KFD_SDMA_OP_POLL_REGMEM) {
			memcpy(&h, p + off, sizeof(h));
			if (h & CMP_POLL_MEM)
				return 0;
		} else if (r->match == KFD_SDMA_OP_COPY &&
			   r->sub == KFD_SDMA_SUBOP_COPY_LINEAR &&
			   off + sizeof(c) <= n) {
			memcpy(&c, p + off, sizeof(c));
			if (c.src == src &&
			    (uint64_t)(c.count & KFD_SDMA_COPY_COUNT_MASK) + 1 == len)
				return 1;
			if (overlaps(c.dst, (uint64_t)(c.count & KFD_SDMA_COPY_COUNT_MASK) + 1,
				     src, len))
				return 0;
		} else if (r->match == KFD_SDMA_OP_CONST_FILL && off + sizeof(f) <= n) {
			memcpy(&f, p + off, sizeof(f));
			if (overlaps(f.dst, (uint64_t)(f.count & 0x3fffff) + 1, src, len))
				return 0;
		}
	}
	return 0;
}

/*
 * Wait (a while) until every AQL and SDMA queue of the model alive at
 * @seq has run what the replay published on it: its read pointer at its
 * write pointer. Return: 1, or 0 (one is still busy).
 */
static int
drained(struct rp_run *st, uint64_t seq)
{
	const struct rp_model *m = &st->r->model;
	uint64_t t0 = kfd_dispatch_now();
	size_t i;

	for (i = 0; i < m->queues.n; i++) {
		const struct rp_m_queue *q = RP_AT(&m->queues, struct rp_m_queue, i);
		uint64_t rp, wp;

		if (q->create_seq > seq || seq > q->destroy_seq ||
		    q->type == KFD_ABI_QUEUE_TYPE_COMPUTE || !q->rptr || !q->wptr)
			continue;
		for (;;) {
			if (rp_mem_get(&rp, rp_as_xlate(&st->as, q->rptr), sizeof(rp)) < 0 ||
			    rp_mem_get(&wp, rp_as_xlate(&st->as, q->wptr), sizeof(wp)) < 0 ||
			    rp >= wp)
				break;
			if (kfd_dispatch_now() - t0 > CMP_DRAIN_NS)
				return 0;
			rp_sleep_ns(20000);
		}
	}
	return 1;
}

static size_t
first_diff(const uint8_t *a, const uint8_t *b, size_t n)
{
	size_t i;

	for (i = 0; i < n && a[i] == b[i]; i++)
		;
	return i;
}

/* Compare one captured source @mr with the replay's bytes there. */
static void
compare_one(struct rp_run *st, const struct kt_record *mr, const struct rp_m_bo *b,
	    uint8_t *keep)
{
	const struct kt_memory_rec *m = &mr->u.memory;
	uint8_t *live = malloc(m->len);
	size_t at;

	if (!live)
		return;
	if (rp_mem_get(live, rp_as_xlate(&st->as, m->addr), m->len) < 0) {
		free(live);
		return;
	}
	st->sum.compared++;
	st->sum.compared_bytes += m->len;
	at = first_diff(m->data, live, m->len);
	if (at == m->len) {
		*keep = 1;
	} else {
		/* The captured bytes go back: later copies compare what the
		 * replay computes from the capture's state, each difference
		 * once. */
		st->sum.compared_differ++;
		rp_diverge(st, "copy source", m->data[at], m->data[at], 0, live[at],
			   "bytes differ at +%zu of the %" PRIu32 " bytes at 0x%"
			   PRIx64 " (memory record #%" PRIu64 "), at +%" PRIu64
			   " in VRAM buffer 0x%" PRIx64 " (%" PRIu64 " bytes): "
			   "the replayed GPU left other bytes there than the "
			   "capture recorded", at, m->len, m->addr, mr->seq,
			   m->addr - b->va + at, b->va, b->size);
	}
	free(live);
}

void
rp_compare_sources(struct rp_run *st, const struct kt_submit_rec *s,
		   uint8_t *keep)
{
	const struct rp_model *m = &st->r->model;
	int settled = -1;	/* the queues drained: not asked yet */
	size_t i;

	if (s->engine != KFD_ENGINE_SDMA || !s->data)
		return;
	for (i = 0; i < st->npending_mem; i++) {
		const struct kt_record *mr = st->pending_mem[i];
		const struct kt_memory_rec *mm = &mr->u.memory;
		const struct rp_m_bo *b;

		if (mm->kind != KT_MEM_COPY_SOURCE || !mm->data || !mm->len ||
		    (mm->flags & (KT_MEM_OMITTED | KT_MEM_CUT | KT_MEM_UNREADABLE)))
			continue;
		b = vram_bo(m, mm->addr, mm->len, st->cur_seq);
		if (!b || !source_settled(s->data, s->len, mm->addr, mm->len))
			continue;
		if (settled < 0)
			settled = drained(st, st->cur_seq);
		if (!settled) {
			/* Bytes still moving: written back, as in the capture. */
			if (!st->sum.compare_busy++)
				rp_note(st, "copy source 0x%" PRIx64 " not compared: "
					"the queues did not drain", mm->addr);
			continue;
		}
		compare_one(st, mr, b, &keep[i]);
	}
}

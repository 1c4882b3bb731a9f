/* SPDX-License-Identifier: MIT */
/*
 * What the replayed engines computed, against what the capture recorded
 * (--submissions=full, docs/replay.md "What the GPU computed").
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
 * the two can differ, the range is neither compared nor written back: the
 * submit polls memory before the copy (it waits for another engine), or
 * an earlier packet of the submit writes into the source. The replay's
 * bytes are what those packets left; the capture's may predate them.
 *
 * Before comparing, the replay waits for its queues to drain: the bytes
 * are then what every packet published so far left. It waits as long as
 * for a blocking wait (--wait-timeout); after a queue stayed busy that
 * long, it only looks.
 *
 * A difference is a divergence only where the replay had every input the
 * capture's GPU had. A kernel reads what its arguments point to; the
 * capture holds host memory only where a packet names it. So a dispatch
 * whose arguments point into host memory that no memory record of its
 * submit holds (a fill pattern, a pinned buffer), or into a VRAM buffer
 * already marked, marks the VRAM buffers its arguments point to: its
 * inputs were not captured. An SDMA copy from such a source, or from host
 * memory the capture could not read, marks its destination. A difference
 * in a marked buffer is counted and noted, not a divergence.
 *
 * HIP's blit kernels, named from the code objects the capture recorded,
 * say what they read and write (kfd_blit_args()): a copy writes its
 * destination only, from its source; a fill from its pattern, which the
 * capture records. Their destinations are then compared as any kernel's,
 * where a later copy's source in the capture holds them; a copy into
 * host memory marks nothing.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>
#include <unistd.h>

#include <kfdtrace/decode.h>
#include <kfdtrace/dispatch.h>
#include <kfdtrace/kfd_abi.h>
#include <kfdtrace/packet_abi.h>
#include <kfdtrace/packets.h>

#include "replay_run.h"

/* SDMA POLL_REGMEM's header: bit 31, the poll reads memory. */
#define CMP_POLL_MEM	(1u << 31)

int
rp_mem_get(void *dst, uint64_t addr, size_t len)
{
	struct iovec l = { dst, len }, r = { (void *)(uintptr_t)addr, len };

	return process_vm_readv(getpid(), &l, 1, &r, 1, 0) == (ssize_t)len ? 0 : -1;
}

/* The buffer of the model that holds @addr at @seq: its index, or -1. */
static int32_t
bo_at(const struct rp_model *m, uint64_t addr, uint64_t seq)
{
	size_t i;

	for (i = 0; addr && i < m->bos.n; i++) {
		const struct rp_m_bo *b = RP_AT(&m->bos, struct rp_m_bo, i);

		if (b->alloc_seq < seq && seq < b->free_seq &&
		    addr >= b->va && addr - b->va < b->size)
			return (int32_t)i;
	}
	return -1;
}

static int
is_vram(const struct rp_model *m, int32_t bo)
{
	return bo >= 0 &&
	       (RP_AT(&m->bos, struct rp_m_bo, bo)->flags & KFD_ABI_ALLOC_MEM_FLAGS_VRAM);
}

/* The state the replay keeps of VRAM buffer @bo, or NULL (none yet). */
static struct rp_cmp_bo *
cmp_bo(struct rp_run *st, int32_t bo)
{
	unsigned int i;

	for (i = 0; i < st->ncmp_bos; i++)
		if (st->cmp_bos[i].bo == bo)
			return &st->cmp_bos[i];
	return NULL;
}

/*
 * Whether [@lo, @hi) of VRAM buffer @bo holds what a replayed packet may
 * have written since the replay last wrote the capture's bytes there, or
 * compared them.
 */
static int
fresh(struct rp_run *st, int32_t bo, uint64_t lo, uint64_t hi)
{
	const struct rp_cmp_bo *c = cmp_bo(st, bo);
	unsigned int i;

	if (!c)
		return 0;
	for (i = 0; i < c->nsync; i++)
		if (lo < c->sync[i][1] && c->sync[i][0] < hi)
			return 0;
	return 1;
}

/*
 * [@lo, @hi) of @bo holds the capture's bytes now. A change the capture
 * shows there before a packet writes the buffer again is the CPU's.
 */
static void
synced(struct rp_run *st, int32_t bo, uint64_t lo, uint64_t hi)
{
	struct rp_cmp_bo *c = cmp_bo(st, bo);

	if (!c)
		return;
	if (c->nsync == RP_CMP_SYNC) {
		/* The oldest goes: at worst a range is compared again. */
		memmove(c->sync[0], c->sync[1], sizeof(c->sync[0]) * (RP_CMP_SYNC - 1));
		c->nsync--;
	}
	c->sync[c->nsync][0] = lo;
	c->sync[c->nsync][1] = hi;
	c->nsync++;
}

/* Whether @bo may hold what the GPU computed from inputs not captured. */
static int
marked(struct rp_run *st, int32_t bo)
{
	const struct rp_cmp_bo *c = cmp_bo(st, bo);

	return st->unfed_all || (c && c->unfed);
}

/*
 * A replayed packet may write VRAM buffer @bo; @unfed: from inputs the
 * capture does not hold.
 */
static void
wrote(struct rp_run *st, int32_t bo, int unfed)
{
	struct rp_cmp_bo *c = cmp_bo(st, bo);

	if (bo < 0)
		return;
	if (!c && st->ncmp_bos == RP_MAX_CMP_BOS) {
		st->unfed_all = 1;	/* no room: every buffer */
		return;
	}
	if (!c) {
		c = &st->cmp_bos[st->ncmp_bos++];
		c->bo = bo;
		c->unfed = 0;
	}
	c->unfed |= !!unfed;
	c->nsync = 0;
}

/*
 * Whether a held memory record with its bytes covers @addr (and, with
 * @kind not 0, is of that kind): the replay writes it back, or compared
 * it.
 */
static const struct kt_memory_rec *
held(const struct rp_run *st, uint64_t addr, uint8_t kind)
{
	size_t i;

	for (i = 0; i < st->npending_mem; i++) {
		const struct kt_memory_rec *m = &st->pending_mem[i]->u.memory;

		if (m->data && m->len && !(m->flags & KT_MEM_OMITTED) &&
		    (!kind || m->kind == kind) && addr >= m->addr &&
		    addr - m->addr < m->len)
			return m;
	}
	return NULL;
}

/*
 * Whether the replay holds the bytes at @addr that a packet reads: a
 * VRAM buffer not marked, or host memory a record of the submit holds.
 */
static int
fed(struct rp_run *st, uint64_t addr)
{
	int32_t b = bo_at(&st->r->model, addr, st->cur_seq);

	return is_vram(&st->r->model, b) ? !marked(st, b) : !!held(st, addr, 0);
}

/* A blit kernel's dispatch: its destination, from its source or pattern. */
static void
follow_blit(struct rp_run *st, const struct kfd_blit *b)
{
	const struct rp_model *m = &st->r->model;
	int32_t db = bo_at(m, b->dst, st->cur_seq);

	if (is_vram(m, db) && b->len)
		wrote(st, db, !fed(st, b->kind == KFD_BLIT_FILL ? b->pattern : b->src));
}

/*
 * A kernel dispatch: the buffers its arguments point to (each 8-byte
 * word that falls in one). Inputs the capture lacks mark the VRAM ones.
 */
static void
follow_dispatch(struct rp_run *st, const struct kfd_aql_dispatch *d)
{
	const struct rp_model *m = &st->r->model;
	const struct kt_memory_rec *ka = held(st, d->kernarg_address, KT_MEM_KERNARG);
	int32_t out[64];
	unsigned int nout = 0, i;
	int unfed = 0;
	struct kfd_blit blit;
	uint64_t w;
	size_t off;

	if (!ka || ka->addr != d->kernarg_address) {
		/* Arguments unknown: so are the buffers it writes. */
		st->unfed_all = 1;
		return;
	}
	if (st->kernels &&
	    !kfd_blit_args(kfd_kernels_name(st->kernels, d->kernel_object), ka->data,
			   ka->len, &blit)) {
		follow_blit(st, &blit);
		return;
	}
	for (off = 0; off + 8 <= ka->len; off += 8) {
		int32_t b;

		memcpy(&w, ka->data + off, 8);
		b = bo_at(m, w, st->cur_seq);
		if (b < 0)
			continue;
		if (!is_vram(m, b)) {
			unfed |= !held(st, w, 0);
			continue;
		}
		unfed |= marked(st, b);
		if (nout < sizeof(out) / sizeof(out[0])) {
			out[nout++] = b;
		} else {
			/* More buffers than followed: all of them. */
			unfed = 1;
			st->unfed_all = 1;
		}
	}
	for (i = 0; i < nout; i++)
		wrote(st, out[i], unfed);
}

/*
 * An SDMA copy into VRAM. A captured source is written back or compared
 * equal, so the copy moves the captured bytes; without one (the capture
 * could not read it, or left it out) the destination lacks them. A fill
 * writes what its packet says.
 */
static void
follow_copy(struct rp_run *st, const struct kfd_sdma_copy_linear *c)
{
	const struct rp_model *m = &st->r->model;
	int32_t db = bo_at(m, c->dst, st->cur_seq);

	if (is_vram(m, db))
		wrote(st, db, !held(st, c->src, KT_MEM_COPY_SOURCE));
}

static void
follow_fill(struct rp_run *st, uint64_t dst)
{
	int32_t db = bo_at(&st->r->model, dst, st->cur_seq);

	if (is_vram(&st->r->model, db))
		wrote(st, db, 0);
}

/* The kernels of the code objects among the submit's memory records. */
static void
learn_kernels(struct rp_run *st)
{
	size_t i;

	for (i = 0; i < st->npending_mem; i++) {
		const struct kt_memory_rec *m = &st->pending_mem[i]->u.memory;

		if (m->kind != KT_MEM_CODE || !m->data || !m->len)
			continue;
		if (!st->kernels && !(st->kernels = kfd_kernels_new()))
			return;
		/* Out of memory: its dispatches are followed as any kernel's. */
		(void)kfd_kernels_add(st->kernels, m->addr, m->data, m->len);
	}
}

void
rp_compare_follow(struct rp_run *st, const struct kt_submit_rec *s)
{
	size_t off, size;

	if (!s->data)
		return;
	learn_kernels(st);
	if (s->engine == KFD_ENGINE_AQL) {
		for (off = 0; off + KFD_AQL_PACKET_SIZE <= s->len; off += KFD_AQL_PACKET_SIZE) {
			const struct kfd_packet_desc *r = kfd_aql_packet(s->data + off);
			struct kfd_aql_dispatch d;

			if (!r || r->match != KFD_AQL_TYPE_KERNEL_DISPATCH)
				continue;
			memcpy(&d, s->data + off, sizeof(d));
			follow_dispatch(st, &d);
		}
	} else if (s->engine == KFD_ENGINE_SDMA) {
		for (off = 0; off + 4 <= s->len; off += size) {
			const struct kfd_packet_desc *r =
				kfd_sdma_packet(s->data + off, s->len - off, &size);
			struct kfd_sdma_copy_linear c;
			struct kfd_sdma_const_fill f;

			if (!size)
				break;
			if (r && r->match == KFD_SDMA_OP_CONST_FILL &&
			    off + sizeof(f) <= s->len) {
				memcpy(&f, s->data + off, sizeof(f));
				follow_fill(st, f.dst);
			}
			if (!r || r->match != KFD_SDMA_OP_COPY ||
			    r->sub != KFD_SDMA_SUBOP_COPY_LINEAR || off + sizeof(c) > s->len)
				continue;
			memcpy(&c, s->data + off, sizeof(c));
			follow_copy(st, &c);
		}
	}
}

uint64_t
rp_cpu_of(const struct rp_run *st, uint64_t va)
{
	const struct rp_model *m = &st->r->model;
	int32_t i = bo_at(m, va, st->cur_seq);
	const struct rp_m_bo *b = i >= 0 ? RP_AT(&m->bos, struct rp_m_bo, i) : NULL;

	/* A userptr's pages are the CPU's at its own address. */
	if (b && (b->flags & KFD_ABI_ALLOC_MEM_FLAGS_USERPTR) && b->cpu_addr)
		va = b->cpu_addr + (va - b->va);
	return rp_as_xlate(&st->as, va);
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

int
rp_copy_settled(const uint8_t *p, size_t n, uint64_t src, uint64_t len)
{
	size_t off, size;

	for (off = 0; off + 4 <= n; off += size) {
		const struct kfd_packet_desc *r = kfd_sdma_packet(p + off, n - off, &size);
		struct kfd_sdma_copy_linear c;
		struct kfd_sdma_const_fill f;
		uint32_t h;

		if (!size)
			return -1;
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
	return -1;
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
	uint64_t t0 = kfd_dispatch_now(), cap;
	size_t i;

	cap = st->cmp_stuck ? 0 :
	      (uint64_t)(st->o->wait_cap_ms ? st->o->wait_cap_ms : 5000) * 1000000;
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
			if (kfd_dispatch_now() - t0 >= cap) {
				st->cmp_stuck = 1;
				return 0;
			}
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
	    int unfed, uint8_t *keep)
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
		*keep = RP_CMP_EQUAL;
	} else if (unfed) {
		/* Written back: the replay lacked what the GPU computed it from. */
		if (!st->sum.compared_unfed++)
			rp_note(st, "copy source 0x%" PRIx64 " (memory record #%"
				PRIu64 ") differs at +%zu, in VRAM buffer 0x%" PRIx64
				" that a kernel or copy wrote from inputs the capture "
				"does not hold: not a divergence", m->addr, mr->seq,
				at, b->va);
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

	if (s->engine != KFD_ENGINE_SDMA || !s->data || st->o->no_compare)
		return;
	for (i = 0; i < st->npending_mem; i++) {
		const struct kt_record *mr = st->pending_mem[i];
		const struct kt_memory_rec *mm = &mr->u.memory;
		const struct rp_m_bo *b;
		int32_t bo;
		int f, ok;

		if (mm->kind != KT_MEM_COPY_SOURCE || !mm->data || !mm->len ||
		    (mm->flags & (KT_MEM_OMITTED | KT_MEM_CUT | KT_MEM_UNREADABLE)))
			continue;
		b = vram_bo(m, mm->addr, mm->len, st->cur_seq);
		if (!b)
			continue;
		bo = (int32_t)(b - RP_AT(&m->bos, struct rp_m_bo, 0));
		/*
		 * Only what a replayed packet may have written since the
		 * range last held the capture's bytes: the CPU's stores into
		 * VRAM are not in the trace.
		 */
		f = fresh(st, bo, mm->addr, mm->addr + mm->len);
		synced(st, bo, mm->addr, mm->addr + mm->len);
		ok = rp_copy_settled(s->data, s->len, mm->addr, mm->len);
		if (!f || ok < 0)
			continue;
		if (!ok) {
			/*
			 * Captured before the packets it waits for ran: the
			 * replay's bytes, which they left, are kept.
			 */
			keep[i] = RP_CMP_KEPT;
			st->sum.compare_waited++;
			continue;
		}
		if (settled < 0)
			settled = drained(st, st->cur_seq);
		if (!settled) {
			/* Bytes still moving: written back, as in the capture. */
			if (!st->sum.compare_busy++)
				rp_note(st, "copy source 0x%" PRIx64 " not compared: "
					"the queues did not drain", mm->addr);
			continue;
		}
		compare_one(st, mr, b, marked(st, bo), &keep[i]);
	}
}

/* SPDX-License-Identifier: MIT */
/*
 * SDMA packet processing: one SDMA queue's byte ring, from its read
 * pointer to the write pointer its doorbell announced, as the SDMA v4
 * (gfx9) and v5 (gfx10) engines execute what ROCr's BlitSdma and the
 * kernel emit: copies and fills move the bytes of the simulated memory
 * (any mapping of the queue's VM, VRAM the CPU never mapped and peer VRAM
 * included), fences and atomics store, TRAP raises the event interrupt,
 * POLL_REGMEM holds the queue (and only it) until memory matches.
 *
 * Pointers are monotonic byte offsets: the ring position is the offset
 * modulo the ring size, and the read pointer is written back unwrapped
 * after every packet (ROCr computes its free space from it). A packet the
 * engine does not know stops the queue: real hardware raises an
 * illegal-instruction interrupt the runtime never sees on the queue, and
 * waiters time out. An access the VM refuses (an address nothing maps, a
 * store to a read-only page) raises the VM-fault interrupt, which the
 * kernel turns into the process's MEMORY events and the eviction of its
 * queues on the GPU (cp_vm_fault()). Either way the engine says on
 * stderr, once per queue, what stopped it. Device lock held.
 */
#include <string.h>

#include <kfdtrace/packet_abi.h>

#include "cp_priv.h"

#define OP_NOP			0
#define OP_COPY			1
#define OP_WRITE		2
#define OP_FENCE		5
#define OP_TRAP			6
#define OP_POLL_REGMEM		8
#define OP_ATOMIC		10
#define OP_CONST_FILL		11
#define OP_TIMESTAMP		13
#define OP_GCR			17

#define SUB_COPY_LINEAR		0
#define SUB_TS_GET_GLOBAL	2
#define SUB_GCR_REQ		1

#define ATOMIC_ADD64		47	/* TC_OP_ATOMIC_ADD_RTN_64 */

#define DW_OP(d)		((d) & 0xffu)
#define DW_SUB(d)		(((d) >> 8) & 0xffu)

/* The largest packet read at once (COPY_LINEAR_RECT is 13 dwords). */
#define PKT_MAX_DW		16u

enum step { STEP_DONE, STEP_WAIT, STEP_ERROR };

static uint64_t
qw(const uint32_t *d, unsigned int lo)
{
	return (uint64_t)d[lo] | (uint64_t)d[lo + 1] << 32;
}

static void
sdma_error(struct ksim_cp *cp, struct ksim_cpq *cq, const char *what,
	   uint64_t detail)
{
	cq->error = 1;
	cq->pending = 0;
	cp_warn(cp, "queue %u: SDMA error at byte %llu: %s (0x%llx); queue "
	       "stopped", cq->qid, (unsigned long long)cq->rd, what,
	       (unsigned long long)detail);
}

/*
 * A VM fault of the packet at cq->rd, accessing [va, va+len) (@write: a
 * store): the queue stops where it is, and the fault is raised.
 */
static void
sdma_fault(struct ksim_cp *cp, struct ksim_cpq *cq, const char *what,
	   uint64_t va, uint64_t len, int write)
{
	uint64_t at;
	int n;

	cq->error = 1;
	cq->pending = 0;
	ksim_dbg_queue_raise(cp->p, cq->q, KFD_ABI_EC_MASK(KFD_ABI_EC_DEVICE_MEMORY_VIOLATION));
	n = cp_vm_fault(cp, cq, va, len, write, &at);
	cp_warn(cp, "queue %u: SDMA VM fault at byte %llu: %s (0x%llx, page "
		"0x%llx); the GPU's queues evicted, %d MEMORY event%s set",
		cq->qid, (unsigned long long)cq->rd, what, (unsigned long long)va,
		(unsigned long long)(at & ~(KSIM_PAGE_SIZE - 1)), n, n == 1 ? "" : "s");
}

/* dwords [0, n) of the packet at cq->rd (the ring wraps). */
static void
ring_read(const uint32_t *ring, uint32_t ring_dw, uint64_t rd, uint32_t *d,
	  unsigned int n)
{
	for (unsigned int i = 0; i < n; i++)
		d[i] = __atomic_load_n(&ring[(rd / 4 + i) % ring_dw],
				       __ATOMIC_RELAXED);
}

/*
 * Copy @len bytes from @src to @dst of the VM through a bounce buffer,
 * with checked accesses only: a BO through its backing memory, the
 * program's own pages (userptrs, SVM) with checked copies. Never through
 * the program's CPU view of a BO, which it may unmap while the engine
 * copies (ROCr unmaps its whole VA reservation at teardown).
 */
static int
copy_linear(struct ksim_cp *cp, struct ksim_cpq *cq, uint64_t dst,
	    uint64_t src, uint64_t len)
{
	return cp_mem_copy(cp, cq, dst, src, len, cp->bounce, sizeof(cp->bounce));
}

/*
 * COPY_LINEAR: the count is as wide as this GPU's engine reads it
 * (kfd_sdma_copy_count_mask()); a count in the bits the engine reserves
 * is a malformed packet. A failed copy names the side that is not mapped.
 */
static enum step
copy_step(struct ksim_cp *cp, struct ksim_cpq *cq, const uint32_t *d)
{
	const uint64_t *props = cp->dev->gpus[cq->gpu].n->props;
	uint32_t mask = kfd_sdma_copy_count_mask((uint32_t)props[KSIM_NP_GFX_TARGET_VERSION]);
	uint64_t src = qw(d, 3), dst = qw(d, 5), len;

	if (d[1] & KFD_SDMA_COPY_COUNT_MASK & ~mask) {
		sdma_error(cp, cq, "copy count past the engine's 22-bit field", d[1]);
		return STEP_ERROR;
	}
	len = (uint64_t)(d[1] & mask) + 1;
	if (!copy_linear(cp, cq, dst, src, len))
		return STEP_DONE;
	if (!cp_mem_reaches(cp, cq, src, len))
		sdma_fault(cp, cq, "copy source", src, len, 0);
	else
		sdma_fault(cp, cq, "copy destination", dst, len, 1);
	return STEP_ERROR;
}

static int
const_fill(struct ksim_cp *cp, struct ksim_cpq *cq, uint64_t dst,
	   uint32_t value, uint64_t len)
{
	uint32_t *b = (uint32_t *)cp->bounce;

	if (!value)
		return cp_mem_zero(cp, cq, dst, len);
	for (size_t i = 0; i < sizeof(cp->bounce) / 4; i++)
		b[i] = value;
	while (len) {
		uint64_t n = len < sizeof(cp->bounce) ? len : sizeof(cp->bounce);

		if (cp_mem_rw(cp, cq, dst, cp->bounce, n, 1))
			return -1;
		dst += n;
		len -= n;
	}
	return 0;
}

/*
 * Execute the packet whose dwords are @d (@avail of them announced);
 * *@size gets its size in dwords (0: not all announced yet).
 */
static enum step
sdma_packet(struct ksim_cp *cp, struct ksim_cpq *cq, const uint32_t *d,
	    unsigned int avail, unsigned int *size)
{
	uint32_t op = DW_OP(d[0]), sub = DW_SUB(d[0]);
	int gfx10 = cp->dev->gpus[cq->gpu].n->props[KSIM_NP_GFX_TARGET_VERSION] >= 100000;
	unsigned int n;
	uint64_t a;
	void *p;

	switch (op) {
	case OP_NOP:
		n = 1 + ((d[0] >> 16) & 0x3fffu);
		break;
	case OP_COPY:
		n = 7;
		break;
	case OP_WRITE:
		n = avail >= 4 ? 5 + (d[3] & 0xfffffu) : 4;
		break;
	case OP_FENCE:
		n = 4;
		break;
	case OP_TRAP:
		n = 2;
		break;
	case OP_POLL_REGMEM:
		n = 6;
		break;
	case OP_ATOMIC:
		n = 8;
		break;
	case OP_CONST_FILL:
		n = 5;
		break;
	case OP_TIMESTAMP:
		n = 3;
		break;
	case OP_GCR:
		n = 5;
		break;
	default:
		sdma_error(cp, cq, "unknown opcode", d[0]);
		return STEP_ERROR;
	}
	*size = n;
	if (n > avail)
		return STEP_WAIT;	/* the rest is not announced yet */

	switch (op) {
	case OP_NOP:
		return STEP_DONE;
	case OP_COPY:
		if (sub != SUB_COPY_LINEAR)
			break;
		return copy_step(cp, cq, d);
	case OP_WRITE:
		if (sub != 0 || n > PKT_MAX_DW)
			break;
		if (cp_mem_rw(cp, cq, qw(d, 1), (void *)(uintptr_t)(d + 4),
			      (uint64_t)(n - 4) * 4, 1)) {
			sdma_fault(cp, cq, "write", qw(d, 1),
				   (uint64_t)(n - 4) * 4, 1);
			return STEP_ERROR;
		}
		return STEP_DONE;
	case OP_FENCE:
		/* A CPU view when there is one (the CPU may be polling it),
		 * else the memory behind it (VRAM, an events page BO). */
		p = cp_mem_w(cp, cq, qw(d, 1), 4);
		if (p)
			__atomic_store_n((uint32_t *)p, d[3], __ATOMIC_RELEASE);
		else if (cp_mem_rw(cp, cq, qw(d, 1), (void *)(uintptr_t)&d[3], 4, 1)) {
			sdma_fault(cp, cq, "fence", qw(d, 1), 4, 1);
			return STEP_ERROR;
		}
		return STEP_DONE;
	case OP_TRAP:
		/* SDMA_TRAP: 28 bits of context, the event id. */
		if (ksim_event_interrupt(cp->p, d[1] & 0xfffffffu))
			cp_log(cp, "queue %u: TRAP for event %u: nothing "
			       "signaled", cq->qid, d[1] & 0xfffffffu);
		return STEP_DONE;
	case OP_POLL_REGMEM: {
		uint32_t v;
		int ok;

		if (!(d[0] >> 31))
			return STEP_DONE;	/* a register (HDP flush): done */
		p = cp_mem(cp, cq, qw(d, 1), 4);
		if (p) {
			v = __atomic_load_n((uint32_t *)p, __ATOMIC_ACQUIRE);
		} else if (cp_mem_rw(cp, cq, qw(d, 1), &v, 4, 0)) {
			sdma_fault(cp, cq, "poll", qw(d, 1), 4, 0);
			return STEP_ERROR;
		}
		ok = cp_compare((d[0] >> 28) & 7u, v & d[4], d[3]);
		if (ok < 0) {
			sdma_error(cp, cq, "poll function", d[0]);
			return STEP_ERROR;
		}
		return ok ? STEP_DONE : STEP_WAIT;
	}
	case OP_ATOMIC:
		if ((d[0] >> 25) != ATOMIC_ADD64)
			break;
		if (qw(d, 1) & 7) {
			sdma_error(cp, cq, "atomic address not 8-byte aligned",
				   qw(d, 1));
			return STEP_ERROR;
		}
		p = cp_mem_w(cp, cq, qw(d, 1), 8);
		if (!p) {
			sdma_fault(cp, cq, "atomic", qw(d, 1), 8, 1);
			return STEP_ERROR;
		}
		__atomic_fetch_add((uint64_t *)p, qw(d, 3), __ATOMIC_ACQ_REL);
		return STEP_DONE;
	case OP_CONST_FILL:
		/* Dword fills only (fillsize 2), as ROCr and the kernel use;
		 * the count is bytes - 1, whole dwords written. */
		if ((d[0] >> 30) != 2)
			break;
		if (const_fill(cp, cq, qw(d, 1), d[3],
			       (uint64_t)(d[4] & 0x3ffffcu) + 4)) {
			sdma_fault(cp, cq, "fill", qw(d, 1),
				   (uint64_t)(d[4] & 0x3ffffcu) + 4, 1);
			return STEP_ERROR;
		}
		return STEP_DONE;
	case OP_TIMESTAMP: {
		uint64_t t = cp_gpu_clock(cp->dev, cq->gpu);

		if (sub != SUB_TS_GET_GLOBAL)
			break;
		a = qw(d, 1);
		if (cp_mem_rw(cp, cq, a, &t, 8, 1)) {
			sdma_fault(cp, cq, "timestamp", a, 8, 1);
			return STEP_ERROR;
		}
		return STEP_DONE;
	}
	case OP_GCR:
		/* Cache control (SDMA v5): nothing to do, no caches here. */
		if (!gfx10 || sub != SUB_GCR_REQ)
			break;
		return STEP_DONE;
	}
	sdma_error(cp, cq, "packet format", d[0]);
	return STEP_ERROR;
}

unsigned int
cp_sdma_run(struct ksim_cp *cp, struct ksim_cpq *cq)
{
	struct ksim_queue *q = cq->q;
	uint32_t ring_dw = q->ring_size / 4, d[PKT_MAX_DW];
	uint64_t *rptr = cp_mem(cp, cq, q->rptr, 8);
	const uint32_t *ring;
	unsigned int done = 0, size;

	cq->pending = 0;
	if (!rptr || !ring_dw || (ring_dw & (ring_dw - 1))) {
		sdma_error(cp, cq, rptr ? "ring size" : "read pointer outside "
			   "the VM", rptr ? q->ring_size : q->rptr);
		return 0;
	}
	ring = cp_mem(cp, cq, q->ring, q->ring_size);
	if (!ring) {
		sdma_error(cp, cq, "ring outside the VM", q->ring);
		return 0;
	}
	if (!cq->started) {
		cq->rd = __atomic_load_n(rptr, __ATOMIC_ACQUIRE);
		cq->started = 1;
	}
	/* The doorbell carries the write pointer; it never moves back. */
	if (cq->last_db != UINT64_MAX && cq->last_db < cq->rd) {
		sdma_error(cp, cq, "write pointer went backwards", cq->last_db);
		return 0;
	}
	if (cq->wbound > cq->rd && cq->wbound - cq->rd > q->ring_size) {
		sdma_error(cp, cq, "write pointer more than a ring ahead",
			   cq->wbound);
		return 0;
	}
	while (cq->rd < cq->wbound) {
		uint64_t avail = (cq->wbound - cq->rd) / 4;
		enum step st;

		ring_read(ring, ring_dw, cq->rd, d,
			  avail < PKT_MAX_DW ? (unsigned int)avail : PKT_MAX_DW);
		size = 0;
		st = sdma_packet(cp, cq, d, (unsigned int)avail, &size);
		if (st == STEP_ERROR)
			break;
		if (st == STEP_WAIT) {
			cq->pending = 1;
			break;
		}
		cq->rd += (uint64_t)size * 4;
		/* Unwrapped, in bytes, after each packet. */
		__atomic_store_n(rptr, cq->rd, __ATOMIC_RELEASE);
		done++;
		cp->retired++;
	}
	return done;
}

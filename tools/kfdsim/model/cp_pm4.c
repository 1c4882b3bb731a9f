/* SPDX-License-Identifier: MIT */
/*
 * PM4 packet processing (the compute micro engine's): one PM4 compute
 * queue's dword ring, from its read pointer to the write pointer its
 * doorbell carries, executing the type-3 packets kfdtest and the kernel
 * emit: WRITE_DATA stores, RELEASE_MEM stores its data (or a clock) and
 * raises the end-of-pipe interrupt that sets events, WAIT_REG_MEM holds
 * the queue (and only it) until memory matches, INDIRECT_BUFFER runs a
 * buffer of packets (nested one level, or chained), SET_SH_REG keeps the
 * compute registers, DISPATCH_DIRECT runs the shader they name on the
 * interpreter (shader_pm4.c) where the GPU's family has one, before the
 * next packet (elsewhere it completes without running), and the other
 * state and cache packets (SET_UCONFIG_REG, ACQUIRE_MEM, EVENT_WRITE,
 * NOP) are accepted.
 *
 * Pointers are the hardware's: the doorbell holds the write pointer in
 * dwords, which the CP takes modulo the ring's size (a producer may keep
 * it monotonic, as kfdtest does on SOC15, or wrapped); the read pointer
 * is written back as the CP reports it, a 32-bit dword offset inside the
 * ring, once the CP stops fetching (the ring drained, a packet waiting,
 * the queue stopped). A queue starts at offset 0, as its MQD,
 * and reports it with the first doorbell.
 *
 * An unknown opcode or a malformed packet raises what the CP's
 * CP_BAD_OPCODE interrupt gives (kfd_signal_hw_exception_event: the
 * process's HW_EXCEPTION events; the queue's EC_QUEUE_PACKET_UNSUPPORTED
 * exception), and stops the queue, and only it. An access the VM refuses
 * (an address nothing maps, a store to a read-only page) is a VM fault
 * (cp_vm_fault(): the process's queues on the GPU evicted, its MEMORY
 * events set with the faulting page; EC_DEVICE_MEMORY_VIOLATION). Either
 * says one line on stderr. Device lock held.
 */
#include <string.h>

#include <kfdtrace/packet_abi.h>

#include "cp_priv.h"
#include "shader_priv.h"

/* The most dwords of one packet read at once (WRITE_DATA's data aside). */
#define PKT_MAX_DW		16u
/* IBs one ring packet may enter (chains included) before the queue is
 * stopped: a chain that loops would otherwise hold the engine for good. */
#define IB_HOPS_MAX		64u

enum step { STEP_DONE, STEP_WAIT, STEP_ERROR };

static uint64_t
qw(const uint32_t *d, unsigned int lo)
{
	return (uint64_t)d[lo] | (uint64_t)d[lo + 1] << 32;
}

/*
 * The CP's read pointer report, a dword offset inside the ring: made once
 * the CP stops fetching (the ring drained, a packet waits, the queue
 * stopped), after the stores of the packets it passed, so that it stays
 * off their way to the CPU polling them.
 */
static void
pm4_report(struct ksim_cpq *cq, uint32_t *rptr, uint32_t ring_dw)
{
	__atomic_store_n(rptr, (uint32_t)(cq->rd & (ring_dw - 1)),
			 __ATOMIC_RELEASE);
}

/*
 * Stop the queue: the error is the CP's, reported as the kernel does. A
 * fault is the access to [va, va+len) (@write: a store) the VM refused.
 */
static void
pm4_stop(struct ksim_cp *cp, struct ksim_cpq *cq, int fault, const char *what,
	 uint64_t detail, uint64_t len, int write)
{
	struct ksim_queue *q = cq->q;
	uint64_t at = detail;
	int n;

	cq->error = 1;
	cq->pending = 0;
	/* The packets before this one are reported read before the error. */
	if (cq->kind == CP_PM4 && cq->started && q->ring_size >= 4 &&
	    !(q->ring_size & (q->ring_size - 1))) {
		uint32_t *rptr = cp_mem(cp, cq, q->rptr, 4);

		if (rptr)
			pm4_report(cq, rptr, q->ring_size / 4);
	}
	if (fault) {
		ksim_dbg_queue_raise(cp->p, q, KFD_ABI_EC_MASK(KFD_ABI_EC_DEVICE_MEMORY_VIOLATION));
		n = cp_vm_fault(cp, cq, detail, len, write, &at);
	} else {
		ksim_dbg_queue_raise(cp->p, q, KFD_ABI_EC_MASK(KFD_ABI_EC_QUEUE_PACKET_UNSUPPORTED));
		n = ksim_event_hw_exception(cp->p);
	}
	cp_warn(cp, "queue %u: PM4 %s at %s %llu%s: %s (0x%llx); %s, %d %s "
		"event%s set", cq->qid, fault ? "VM fault" : "error",
		cq->kind == CP_AQL ? "AQL packet" : "dword", (unsigned long long)cq->rd,
		cq->ib_depth ? " (in an indirect buffer)" : "", what,
		(unsigned long long)(fault ? at : detail),
		fault ? "the GPU's queues evicted" : "queue stopped", n,
		fault ? "MEMORY" : "HW_EXCEPTION", n == 1 ? "" : "s");
}

/* A packet the CP cannot execute (@fault 0), or a read it faulted on. */
static void
pm4_error(struct ksim_cp *cp, struct ksim_cpq *cq, int fault, const char *what,
	  uint64_t detail)
{
	pm4_stop(cp, cq, fault, what, detail, 4, 0);
}

/*
 * Dwords [off, off+n) of the stream at @level: the ring (level 0, @ring
 * wraps) or an indirect buffer, read as the GPU reads memory.
 */
static inline int
stream_read(struct ksim_cp *cp, struct ksim_cpq *cq, const uint32_t *ring,
	    uint32_t ring_dw, uint64_t off, uint32_t *d, unsigned int n)
{
	if (!cq->ib_depth) {
		for (unsigned int i = 0; i < n; i++)
			d[i] = __atomic_load_n(&ring[(off + i) & (ring_dw - 1)],
					       __ATOMIC_RELAXED);
		return 0;
	}
	return cp_mem_rw(cp, cq, cq->ib[cq->ib_depth - 1].va + off * 4, d,
			 (uint64_t)n * 4, 0);
}

/* A 32- or 64-bit store where the CPU may be polling it (@x: the
 * translation the packet's kind keeps). */
static int
store(struct ksim_cp *cp, struct ksim_cpq *cq, struct cp_xlate *x, uint64_t va,
      const void *v, unsigned int len)
{
	void *p = cp_mem_x(cp, cq, x, va, len, 1);

	if (!p)
		return cp_mem_rw(cp, cq, va, (void *)(uintptr_t)v, len, 1);
	if (len == 8)
		__atomic_store_n((uint64_t *)p, *(const uint64_t *)v, __ATOMIC_RELEASE);
	else
		__atomic_store_n((uint32_t *)p, *(const uint32_t *)v, __ATOMIC_RELEASE);
	return 0;
}

/* WRITE_DATA: count - 2 dwords of data, from the stream. */
static enum step
write_data(struct ksim_cp *cp, struct ksim_cpq *cq, const uint32_t *ring,
	   uint32_t ring_dw, uint64_t at, const uint32_t *d, unsigned int size)
{
	uint32_t sel = KFD_PM4_WRITE_DST_SEL(d[1]), n = size - 4;
	uint64_t dst = qw(d, 2) & ~3ULL;
	const uint32_t *data = d + 4;

	switch (sel) {
	case KFD_PM4_DST_REG:
		return STEP_DONE;	/* no registers are modelled */
	case KFD_PM4_DST_MEM_SYNC:
	case KFD_PM4_DST_TC_L2:
	case KFD_PM4_DST_MEM:
		break;
	default:
		pm4_error(cp, cq, 0, "WRITE_DATA destination", sel);
		return STEP_ERROR;
	}
	/* A short packet's data came with it; a long one's is read now. */
	if (size > PKT_MAX_DW) {
		if (stream_read(cp, cq, ring, ring_dw, at + 4,
				(uint32_t *)cp->bounce, n)) {
			pm4_error(cp, cq, 1, "indirect buffer",
				  cq->ib[cq->ib_depth - 1].va);
			return STEP_ERROR;
		}
		data = (const uint32_t *)cp->bounce;
	}
	if (d[1] & KFD_PM4_WRITE_ONE_ADDR) {
		/* Every dword to the same address: the last one stays. */
		if (store(cp, cq, &cq->x_write, dst, &data[n - 1], 4))
			goto fault;
		return STEP_DONE;
	}
	if (n == 1 ? store(cp, cq, &cq->x_write, dst, data, 4) :
	    cp_mem_rw(cp, cq, dst, (void *)(uintptr_t)data, (uint64_t)n * 4, 1))
		goto fault;
	return STEP_DONE;
fault:
	pm4_stop(cp, cq, 1, "WRITE_DATA", dst,
		 d[1] & KFD_PM4_WRITE_ONE_ADDR ? 4 : (uint64_t)n * 4, 1);
	return STEP_ERROR;
}

static enum step
release_mem(struct ksim_cp *cp, struct ksim_cpq *cq, const uint32_t *d)
{
	uint32_t ctl = d[2], data_sel = KFD_PM4_REL_DATA_SEL(ctl);
	uint32_t int_sel = KFD_PM4_REL_INT_SEL(ctl);
	uint64_t addr = qw(d, 3), v;
	int r = 0;

	if (KFD_PM4_REL_DST_SEL(ctl) > 1 || int_sel > KFD_PM4_INT_CTXID) {
		pm4_error(cp, cq, 0, "RELEASE_MEM control", ctl);
		return STEP_ERROR;
	}
	switch (data_sel) {
	case KFD_PM4_DATA_NONE:
		break;
	case KFD_PM4_DATA_32:
		r = store(cp, cq, &cq->x_release, addr & ~3ULL, &d[5], 4);
		break;
	case KFD_PM4_DATA_64:
		v = qw(d, 5);
		r = store(cp, cq, &cq->x_release, addr & ~7ULL, &v, 8);
		break;
	case KFD_PM4_DATA_GPU_CLOCK:
	case KFD_PM4_DATA_SYS_CLOCK:
		/* One simulated clock serves both counters. */
		v = cp_gpu_clock(cp->dev, cq->gpu);
		r = store(cp, cq, &cq->x_release, addr & ~7ULL, &v, 8);
		break;
	default:
		pm4_error(cp, cq, 0, "RELEASE_MEM data_sel", data_sel);
		return STEP_ERROR;
	}
	if (r) {
		pm4_stop(cp, cq, 1, "RELEASE_MEM", addr,
			 data_sel == KFD_PM4_DATA_32 ? 4 : 8, 1);
		return STEP_ERROR;
	}
	if (int_sel == KFD_PM4_INT_ONLY || int_sel == KFD_PM4_INT_AFTER_WRITE ||
	    int_sel == KFD_PM4_INT_CTXID) {
		if (!ksim_event_eop_interrupt(cp->p, d[7]))
			cp_log(cp, "queue %u: end-of-pipe interrupt (context "
			       "%u): nothing signaled", cq->qid, d[7]);
	}
	return STEP_DONE;
}

static enum step
wait_reg_mem(struct ksim_cp *cp, struct ksim_cpq *cq, const uint32_t *d)
{
	uint64_t addr = qw(d, 2) & ~3ULL;
	uint32_t v, *p;
	int ok;

	if (!(d[1] & KFD_PM4_WAIT_MEM))
		return STEP_DONE;	/* a register: none are modelled */
	p = cp_mem_x(cp, cq, &cq->x_wait, addr, 4, 0);
	if (p) {
		v = __atomic_load_n(p, __ATOMIC_ACQUIRE);
	} else if (cp_mem_rw(cp, cq, addr, &v, 4, 0)) {
		pm4_error(cp, cq, 1, "WAIT_REG_MEM", addr);
		return STEP_ERROR;
	}
	ok = cp_compare(KFD_PM4_WAIT_FUNC(d[1]), v & d[5], d[4]);
	if (ok < 0) {
		pm4_error(cp, cq, 0, "WAIT_REG_MEM function", d[1]);
		return STEP_ERROR;
	}
	return ok ? STEP_DONE : STEP_WAIT;
}

/* INDIRECT_BUFFER: enter it (nested or, chained, instead of this IB). */
static enum step
indirect_buffer(struct ksim_cp *cp, struct ksim_cpq *cq, const uint32_t *d,
		unsigned int size, int *entered)
{
	uint64_t va = qw(d, 1) & 0xfffffffffffcULL;
	uint32_t n = KFD_PM4_IB_SIZE(d[3]);
	int chain = !!(d[3] & KFD_PM4_IB_CHAIN);
	unsigned int level;

	if (!(d[3] & KFD_PM4_IB_VALID) || !n)
		return STEP_DONE;	/* nothing to fetch */
	if (++cq->ib_hops > IB_HOPS_MAX) {
		pm4_error(cp, cq, 0, "more than 64 indirect buffers for one "
			  "ring packet", cq->ib_hops);
		return STEP_ERROR;
	}
	if (!cp_mem_reaches(cp, cq, va, (uint64_t)n * 4)) {
		pm4_error(cp, cq, 1, "indirect buffer", va);
		return STEP_ERROR;
	}
	if (chain && cq->ib_depth) {
		level = cq->ib_depth - 1;	/* replaces the current IB */
	} else {
		if (cq->ib_depth == CP_PM4_IB_LEVELS) {
			pm4_error(cp, cq, 0, "indirect buffers nested deeper "
				  "than 2", cq->ib_depth);
			return STEP_ERROR;
		}
		/* The caller's position moves past this packet first; the
		 * ring's when the IBs it entered end. */
		if (cq->ib_depth)
			cq->ib[cq->ib_depth - 1].pos += size;
		else
			cq->ib_ring_size = size;
		level = cq->ib_depth++;
	}
	cq->ib[level].va = va;
	cq->ib[level].size = n;
	cq->ib[level].pos = 0;
	*entered = 1;
	return STEP_DONE;
}

/*
 * SET_SH_REG: count dwords from reg_offset (bits 0-15). The compute
 * registers are kept for DISPATCH_DIRECT; the others are not modelled.
 */
static enum step
set_sh_reg(struct ksim_cp *cp, struct ksim_cpq *cq, const uint32_t *ring,
	   uint32_t ring_dw, uint64_t at, const uint32_t *d, unsigned int size)
{
	uint32_t off = d[1] & 0xffffu, n = size - 2;
	uint32_t lo = KFD_PM4_SH_COMPUTE_FIRST;
	uint32_t hi = KFD_PM4_SH_COMPUTE_FIRST + KFD_PM4_SH_COMPUTE_COUNT;
	uint32_t first = off > lo ? off : lo;
	uint32_t last = off + n < hi ? off + n : hi;

	if (first >= last)
		return STEP_DONE;
	if (stream_read(cp, cq, ring, ring_dw, at + 2 + (first - off),
			&cq->sh_regs[first - lo], last - first)) {
		pm4_error(cp, cq, 1, "indirect buffer",
			  cq->ib[cq->ib_depth - 1].va);
		return STEP_ERROR;
	}
	return STEP_DONE;
}

/*
 * DISPATCH_DIRECT: the waves run to their end before the next packet.
 * A wave's fault or illegal instruction stops the queue as an AQL
 * dispatch's does (cp_queue_stop()).
 */
static enum step
dispatch_direct(struct ksim_cp *cp, struct ksim_cpq *cq, const uint32_t *d)
{
	struct kfd_pm4_dispatch_direct pkt;
	struct sh_result res;

	/* A CU mask without CUs leaves the waves nowhere to run, as for AQL
	 * dispatches. */
	if (!ksim_queue_cus(cp->dev, cq->q))
		return STEP_WAIT;
	/* A family without an interpreter: the dispatch is complete. */
	if (!sh_family_runs(cp, cq))
		return STEP_DONE;
	memcpy(&pkt, d, sizeof(pkt));
	switch (sh_dispatch_pm4(cp, cq, &pkt, &res)) {
	case 1:
		/* waves wait for the host: the packet runs on at the next pass */
		return STEP_WAIT;
	case 0:
		cp_log(cp, "queue %u: DISPATCH_DIRECT at dword %llu ran %llu wave "
		       "instructions", cq->qid, (unsigned long long)cq->rd,
		       (unsigned long long)res.executed);
		return STEP_DONE;
	}
	cp_warn(cp, "queue %u: DISPATCH_DIRECT at dword %llu%s: %s (0x%llx); "
		"queue stopped", cq->qid, (unsigned long long)cq->rd,
		cq->ib_depth ? " (in an indirect buffer)" : "", res.why,
		(unsigned long long)res.detail);
	cp_queue_stop(cp, cq, res.code, res.ec, res.detail, res.write);
	return STEP_ERROR;
}

/* Which opcodes are known, and their least count (dwords after DW0 - 1). */
static int
min_count(uint32_t op, int gfx10)
{
	switch (op) {
	case KFD_PM4_OP_NOP:
		return 0;
	case KFD_PM4_OP_DISPATCH_DIRECT:
		return 3;
	case KFD_PM4_OP_WRITE_DATA:
		return 3;
	case KFD_PM4_OP_WAIT_REG_MEM:
		return 5;
	case KFD_PM4_OP_INDIRECT_BUFFER:
		return 2;
	case KFD_PM4_OP_EVENT_WRITE:
		return 0;
	case KFD_PM4_OP_RELEASE_MEM:
		return 6;
	case KFD_PM4_OP_ACQUIRE_MEM:
		return gfx10 ? 6 : 5;
	case KFD_PM4_OP_SET_SH_REG:
	case KFD_PM4_OP_SET_UCONFIG_REG:
		return 1;
	default:
		return -1;
	}
}

/*
 * Execute the packet at @at of the current stream, @avail dwords of it
 * announced; *@size gets its size in dwords (0: not all announced yet).
 * *@entered says the packet entered an IB (the position is then the IB's).
 */
static enum step
pm4_packet(struct ksim_cp *cp, struct ksim_cpq *cq, const uint32_t *ring,
	   uint32_t ring_dw, uint64_t at, uint64_t avail, unsigned int *size,
	   int *entered)
{
	uint32_t d[PKT_MAX_DW], op, count;
	/* From the ring, the announced dwords a packet may have are read
	 * together, their loads not waiting for the header's; from an IB
	 * (read as the GPU reads memory), the header first. */
	unsigned int have = cq->ib_depth ? 1 :
			    avail < PKT_MAX_DW ? avail : PKT_MAX_DW;
	int least, gfx10 = 0;

	*size = 0;
	if (stream_read(cp, cq, ring, ring_dw, at, d, have)) {
		pm4_error(cp, cq, 1, "indirect buffer",
			  cq->ib[cq->ib_depth - 1].va + at * 4);
		return STEP_ERROR;
	}
	if (KFD_PM4_IS_FILLER(d[0])) {
		*size = 1;
		return STEP_DONE;
	}
	if (KFD_PM4_TYPE(d[0]) != 3) {
		pm4_error(cp, cq, 0, "not a type-3 packet", d[0]);
		return STEP_ERROR;
	}
	op = KFD_PM4_OPCODE(d[0]);
	count = KFD_PM4_COUNT(d[0]);
	if (op == KFD_PM4_OP_ACQUIRE_MEM)
		gfx10 = cp->dev->gpus[cq->gpu].n->props[KSIM_NP_GFX_TARGET_VERSION] >=
			100000;
	least = min_count(op, gfx10);
	if (least < 0) {
		pm4_error(cp, cq, 0, "unknown opcode", d[0]);
		return STEP_ERROR;
	}
	if ((int)count < least ||
	    (op == KFD_PM4_OP_WRITE_DATA && count + 2 - 4 > sizeof(cp->bounce) / 4)) {
		pm4_error(cp, cq, 0, "packet too short", d[0]);
		return STEP_ERROR;
	}
	if (count + 2 > avail) {
		if (cq->ib_depth) {
			pm4_error(cp, cq, 0, "packet past the end of its "
				  "indirect buffer", d[0]);
			return STEP_ERROR;
		}
		return STEP_WAIT;	/* the rest is not announced yet */
	}
	*size = count + 2;
	/* The rest of the packet's first PKT_MAX_DW dwords, each once. */
	if (*size > have &&
	    stream_read(cp, cq, ring, ring_dw, at + have, d + have,
			(*size < PKT_MAX_DW ? *size : PKT_MAX_DW) - have)) {
		pm4_error(cp, cq, 1, "indirect buffer",
			  cq->ib[cq->ib_depth - 1].va + at * 4);
		return STEP_ERROR;
	}
	switch (op) {
	case KFD_PM4_OP_WRITE_DATA:
		return write_data(cp, cq, ring, ring_dw, at, d, *size);
	case KFD_PM4_OP_RELEASE_MEM:
		return release_mem(cp, cq, d);
	case KFD_PM4_OP_WAIT_REG_MEM:
		return wait_reg_mem(cp, cq, d);
	case KFD_PM4_OP_INDIRECT_BUFFER:
		return indirect_buffer(cp, cq, d, *size, entered);
	case KFD_PM4_OP_DISPATCH_DIRECT:
		return dispatch_direct(cp, cq, d);
	case KFD_PM4_OP_SET_SH_REG:
		return set_sh_reg(cp, cq, ring, ring_dw, at, d, *size);
	default:
		return STEP_DONE;	/* state and cache packets */
	}
}

unsigned int
cp_pm4_run(struct ksim_cp *cp, struct ksim_cpq *cq)
{
	struct ksim_queue *q = cq->q;
	uint32_t ring_dw = q->ring_size / 4, *rptr;
	const uint32_t *ring;
	unsigned int done = 0;

	cq->pending = 0;
	if (!ring_dw || (ring_dw & (ring_dw - 1))) {
		pm4_error(cp, cq, 0, "ring size", q->ring_size);
		return 0;
	}
	ring = cp_mem_x(cp, cq, &cq->x_ring, q->ring, q->ring_size, 0);
	rptr = cp_mem_x(cp, cq, &cq->x_rptr, q->rptr, 4, 0);
	if (!ring || !rptr) {
		pm4_error(cp, cq, 1, ring ? "read pointer outside the VM" :
			  "ring outside the VM", ring ? q->rptr : q->ring);
		return 0;
	}
	if (cq->wbound == UINT64_MAX)
		return 0;	/* no doorbell rung yet */
	/* The CP reports the MQD's read pointer, 0, when it loads the
	 * queue: the memory may hold a destroyed queue's. */
	if (!cq->started) {
		__atomic_store_n(rptr, 0, __ATOMIC_RELEASE);
		cq->started = 1;
	}
	/* The doorbell scan requested the ring's lines already, unless the
	 * ring moved (or there is no doorbell to look at). */
	if (ring != cq->ring_seen || ring_dw != cq->ring_seen_dw ||
	    !cq->doorbell) {
		cq->ring_seen = ring;
		cq->ring_seen_dw = ring_dw;
		cp_pm4_prefetch(cq, cq->wbound);
	}
	for (;;) {
		uint64_t at, avail;
		unsigned int size;
		int entered = 0;
		enum step st;

		if (cq->ib_depth) {
			typeof(cq->ib[0]) *ib = &cq->ib[cq->ib_depth - 1];

			if (ib->pos >= ib->size) {
				/* An IB ends: back to its caller; the ring
				 * packet retires when the last one ends. */
				if (--cq->ib_depth)
					continue;
				cq->rd += cq->ib_ring_size;
				cq->ib_hops = 0;
				done++;
				cp->retired++;
				continue;
			}
			at = ib->pos;
			avail = ib->size - ib->pos;
		} else {
			at = cq->rd & (ring_dw - 1);
			avail = (cq->wbound - at) & (ring_dw - 1);
			if (!avail)
				break;
		}
		st = pm4_packet(cp, cq, ring, ring_dw, at, avail, &size, &entered);
		if (st == STEP_ERROR)
			break;
		if (st == STEP_WAIT) {
			cq->pending = 1;
			break;
		}
		if (entered)
			continue;	/* positions moved by indirect_buffer() */
		if (cq->ib_depth) {
			cq->ib[cq->ib_depth - 1].pos += size;
			continue;
		}
		cq->rd += size;
		cq->ib_hops = 0;
		done++;
		cp->retired++;
	}
	if (done && !cq->error)
		pm4_report(cq, rptr, ring_dw);
	return done;
}

int
cp_pm4_aql_ib(struct ksim_cp *cp, struct ksim_cpq *cq, const uint32_t *jump)
{
	if (!cq->ib_depth) {
		int entered = 0;

		if (jump[0] != KFD_PM4_HDR(KFD_PM4_OP_INDIRECT_BUFFER, 2) &&
		    (KFD_PM4_TYPE(jump[0]) != 3 ||
		     KFD_PM4_OPCODE(jump[0]) != KFD_PM4_OP_INDIRECT_BUFFER ||
		     KFD_PM4_COUNT(jump[0]) != 2)) {
			pm4_error(cp, cq, 0, "PM4_IB: not an INDIRECT_BUFFER", jump[0]);
			return -1;
		}
		cq->ib_hops = 0;
		cp_log(cp, "queue %u: PM4_IB at packet %llu: %u dwords at 0x%llx",
		       cq->qid, (unsigned long long)cq->rd, KFD_PM4_IB_SIZE(jump[3]),
		       (unsigned long long)(qw(jump, 1) & 0xfffffffffffcULL));
		if (indirect_buffer(cp, cq, jump, 4, &entered) == STEP_ERROR)
			return -1;
		if (!entered)
			return 0;
	}
	/* The IB's packets, and those of the IBs it enters, up to its end. */
	while (cq->ib_depth) {
		typeof(cq->ib[0]) *ib = &cq->ib[cq->ib_depth - 1];
		unsigned int size;
		int entered = 0;
		enum step st;

		if (ib->pos >= ib->size) {
			cq->ib_depth--;
			continue;
		}
		st = pm4_packet(cp, cq, NULL, 0, ib->pos, ib->size - ib->pos,
				&size, &entered);
		if (st == STEP_ERROR) {
			cq->ib_depth = 0;
			return -1;
		}
		if (st == STEP_WAIT)
			return 1;
		if (!entered)
			ib->pos += size;
	}
	return 0;
}

/* SPDX-License-Identifier: MIT */
/*
 * AQL packet processing (the CP's HSA packet processor): one queue's ring,
 * in order from read_dispatch_id. Kernel dispatches run their shader on
 * the interpreter (shader.c) where the GPU's family has one, and complete
 * without running it elsewhere; barriers wait on their signals without holding up
 * other queues; vendor packets are executed (AMD barrier-value waits,
 * a PM4 indirect buffer runs on the PM4 engine, cp_pm4.c). Each retired packet gets its completion signal decremented
 * (with the mailbox write and event an interrupt would give), INVALID back
 * in its header, and read_dispatch_id moved past it.
 *
 * Every address the engine dereferences is a GPU VA: it must lie in a
 * mapping of the queue's GPU VM (a BO or userptr), whose CPU view is the
 * same VA (KFD BOs, as ROCr maps them) or the userptr's. Anything else,
 * or a packet the CP would reject, puts the queue in error the way the
 * kernel in effect reports it (no debugger runtime: the queue-inactive
 * signal of amd_queue_t) and stops only that queue. Device lock held.
 */
#include <string.h>

#include "cp_priv.h"
#include "shader_priv.h"

#define PKT_SIZE		64u
#define PKT_VENDOR		0
#define PKT_INVALID		1
#define PKT_DISPATCH		2
#define PKT_BARRIER_AND		3
#define PKT_AGENT		4
#define PKT_BARRIER_OR		5
#define HDR_TYPE(h)		((h) & 0xffu)
#define HDR_RESERVED		0xe000u

/* amd_queue_t, from read_dispatch_id (its field at 128). */
#define AQ_FROM_RPTR		128u
#define AQ_SIZE			256u
#define AQ_WRITE_ID		56u
#define AQ_PROPERTIES		180u
#define AQ_INACTIVE_SIGNAL	192u
#define AQ_PROP_PROFILING	(1u << 3)

/* amd_signal_t */
#define SIG_SIZE		64u
#define SIG_VALUE		8u
#define SIG_MAILBOX		16u
#define SIG_EVENT_ID		24u
#define SIG_START_TS		32u
#define SIG_END_TS		40u

/* Vendor formats (word at offset 2 / byte at offset 2). */
#define VENDOR_PM4_IB		1u
#define VENDOR_BARRIER_VALUE	2u

enum step { STEP_DONE, STEP_WAIT, STEP_ERROR };

/* The interrupt a completion raises: mailbox, then the KFD event. */
static void
signal_event(struct ksim_cp *cp, struct ksim_cpq *cq, uint8_t *sig)
{
	uint64_t mbox = __atomic_load_n((uint64_t *)(sig + SIG_MAILBOX), __ATOMIC_RELAXED);
	uint32_t id = __atomic_load_n((uint32_t *)(sig + SIG_EVENT_ID), __ATOMIC_RELAXED);
	struct kfd_abi_set_event_args a = { .event_id = id };
	uint64_t *slot;

	if (!mbox)
		return;
	slot = cp_mem(cp, cq, mbox, 8);
	if (!slot) {
		cp_log(cp, "queue %u: event mailbox 0x%llx is outside the VM; "
		       "no interrupt for event %u", cq->qid,
		       (unsigned long long)mbox, id);
		return;
	}
	__atomic_store_n(slot, (uint64_t)id, __ATOMIC_RELEASE);
	/* kfd_signal_event_interrupt: a signaled slot is acknowledged
	 * (rewritten unsignaled) and its event set, as SET_EVENT sets it. */
	if (__atomic_load_n(slot, __ATOMIC_ACQUIRE) != KFD_ABI_UNSIGNALED_EVENT_SLOT)
		__atomic_store_n(slot, KFD_ABI_UNSIGNALED_EVENT_SLOT, __ATOMIC_RELEASE);
	if (ksim_ioc_set_event(NULL, cp->p, &a, sizeof(a)))
		cp_log(cp, "queue %u: completion names event %u, which is not a "
		       "signal event of the process", cq->qid, id);
}

/*
 * Report a queue error: the queue goes inactive, ROCr's queue-inactive
 * signal gets the error bits (its handler suspends the queue and calls the
 * queue's callback), the debugger ABI sees the exception code. @write: a
 * wave's failed store (a read-only page is a fault too).
 */
static void
queue_fail(struct ksim_cp *cp, struct ksim_cpq *cq, uint32_t code, int ec,
	   const char *what, uint64_t detail, int write)
{
	struct ksim_queue *q = cq->q;
	uint8_t *aq, *sig = NULL;
	uint64_t h = 0;

	aq = cp_mem(cp, cq, q->rptr - AQ_FROM_RPTR, AQ_SIZE);
	if (aq) {
		h = __atomic_load_n((uint64_t *)(aq + AQ_INACTIVE_SIGNAL), __ATOMIC_ACQUIRE);
		if (h)
			sig = cp_mem(cp, cq, h, SIG_SIZE);
	}
	cp_warn(cp, "queue %u: error at packet %llu: %s (0x%llx); queue inactive, "
	       "error 0x%x %s", cq->qid, (unsigned long long)cq->rd, what,
	       (unsigned long long)detail, code,
	       sig ? "reported in the queue-inactive signal" :
	       "not reported (no usable queue-inactive signal)");
	cp_queue_stop(cp, cq, code, ec, detail, write);
	if (!sig)
		return;
	__atomic_fetch_or((int64_t *)(sig + SIG_VALUE), (int64_t)code, __ATOMIC_ACQ_REL);
	signal_event(cp, cq, sig);
}

int
cp_aql_scratch_request(struct ksim_cp *cp, struct ksim_cpq *cq, int ask)
{
	uint8_t *aq = cp_mem(cp, cq, cq->q->rptr - AQ_FROM_RPTR, AQ_SIZE), *sig = NULL;
	uint64_t h = 0;

	if (aq)
		h = __atomic_load_n((uint64_t *)(aq + AQ_INACTIVE_SIGNAL), __ATOMIC_ACQUIRE);
	if (h)
		sig = cp_mem(cp, cq, h, SIG_SIZE);
	if (!sig)
		return -1;
	if (ask) {
		cp_log(cp, "queue %u: packet %llu needs more scratch: asked the runtime",
		       cq->qid, (unsigned long long)cq->rd);
		__atomic_fetch_or((int64_t *)(sig + SIG_VALUE), (int64_t)CP_ERR_SCRATCH,
				  __ATOMIC_ACQ_REL);
		signal_event(cp, cq, sig);
		return 1;
	}
	return __atomic_load_n((int64_t *)(sig + SIG_VALUE), __ATOMIC_ACQUIRE) != 0;
}

/* A packet's error (queue_fail()). */
static void
queue_error(struct ksim_cp *cp, struct ksim_cpq *cq, uint32_t code, int ec,
	    const char *what, uint64_t detail)
{
	queue_fail(cp, cq, code, ec, what, detail, 0);
}

/* Value of the signal @h (0 is "satisfied" to the caller). */
static int
signal_value(struct ksim_cp *cp, struct ksim_cpq *cq, uint64_t h, int64_t *v)
{
	int64_t *p = cp_mem(cp, cq, h + SIG_VALUE, 8);

	if (!p)
		return -1;
	*v = __atomic_load_n(p, __ATOMIC_ACQUIRE);
	return 0;
}

static enum step
barrier(struct ksim_cp *cp, struct ksim_cpq *cq, const uint8_t *pkt, int is_or)
{
	int any = 0;

	for (unsigned int i = 0; i < 5; i++) {
		uint64_t h;
		int64_t v;

		memcpy(&h, pkt + 8 + 8 * i, 8);
		if (!h)
			continue;	/* AND: satisfied; OR: not */
		if (signal_value(cp, cq, h, &v)) {
			queue_error(cp, cq, CP_ERR_MEMORY, KFD_ABI_EC_QUEUE_PACKET_RESERVED,
				    "barrier dependency signal outside the VM", h);
			return STEP_ERROR;
		}
		if (!is_or && v != 0)
			return STEP_WAIT;
		if (is_or && v == 0)
			any = 1;
	}
	return !is_or || any ? STEP_DONE : STEP_WAIT;
}

static enum step
barrier_value(struct ksim_cp *cp, struct ksim_cpq *cq, const uint8_t *pkt)
{
	uint64_t h;
	int64_t v, value, mask;
	uint32_t cond;
	int ok;

	memcpy(&h, pkt + 8, 8);
	memcpy(&value, pkt + 16, 8);
	memcpy(&mask, pkt + 24, 8);
	memcpy(&cond, pkt + 32, 4);
	if (cond > 3) {
		queue_error(cp, cq, CP_ERR_FORMAT, KFD_ABI_EC_QUEUE_PACKET_UNSUPPORTED,
			    "barrier-value condition", cond);
		return STEP_ERROR;
	}
	if (!h)
		return STEP_DONE;
	if (signal_value(cp, cq, h, &v)) {
		queue_error(cp, cq, CP_ERR_MEMORY, KFD_ABI_EC_QUEUE_PACKET_RESERVED,
			    "barrier-value signal outside the VM", h);
		return STEP_ERROR;
	}
	v &= mask;
	switch (cond) {
	case 0: ok = v == value; break;		/* EQ */
	case 1: ok = v != value; break;		/* NE */
	case 2: ok = v < value; break;		/* LT */
	default: ok = v >= value; break;	/* GTE */
	}
	return ok ? STEP_DONE : STEP_WAIT;
}

static enum step
vendor(struct ksim_cp *cp, struct ksim_cpq *cq, const uint8_t *pkt)
{
	uint16_t fmt16;

	memcpy(&fmt16, pkt + 2, 2);
	if (fmt16 == VENDOR_PM4_IB) {
		uint32_t jump[4];

		/* The PM4 engine runs the IB (ROCr's: one ACQUIRE_MEM). */
		memcpy(jump, pkt + 4, sizeof(jump));
		switch (cp_pm4_aql_ib(cp, cq, jump)) {
		case 0:
			return STEP_DONE;
		case 1:
			return STEP_WAIT;
		default:
			return STEP_ERROR;
		}
	}
	if (pkt[2] == VENDOR_BARRIER_VALUE)
		return barrier_value(cp, cq, pkt);
	queue_error(cp, cq, CP_ERR_VENDOR, KFD_ABI_EC_QUEUE_PACKET_VENDOR_UNSUPPORTED,
		    "unsupported vendor packet format", fmt16);
	return STEP_ERROR;
}

/* Run the kernel on the interpreter (shader.c), on this thread. */
static enum step
run_shader(struct ksim_cp *cp, struct ksim_cpq *cq, const uint8_t *pkt)
{
	struct ksim_queue *q = cq->q;
	uint64_t npkts = q->ring_size / PKT_SIZE;
	uint64_t va = q->ring + (cq->rd & (npkts - 1)) * PKT_SIZE;
	struct sh_result res;

	switch (sh_dispatch(cp, cq, pkt, va, q->rptr - AQ_FROM_RPTR, cq->rd, &res)) {
	case 0:
		cp_log(cp, "queue %u: dispatch %llu ran %llu wave instructions",
		       cq->qid, (unsigned long long)cq->rd,
		       (unsigned long long)res.executed);
		return STEP_DONE;
	case 1:
		/* waves wait for the host, or for scratch */
		return STEP_WAIT;
	}
	queue_fail(cp, cq, res.code, res.ec, res.why, res.detail, res.write);
	return STEP_ERROR;
}

static enum step
dispatch(struct ksim_cp *cp, struct ksim_cpq *cq, const uint8_t *pkt)
{
	uint16_t setup, wg[3];
	uint64_t kobj;

	memcpy(&setup, pkt + 2, 2);
	memcpy(wg, pkt + 4, 6);
	memcpy(&kobj, pkt + 32, 8);
	if ((setup & 3) == 0) {
		queue_error(cp, cq, CP_ERR_DIM, KFD_ABI_EC_QUEUE_PACKET_DISPATCH_DIM_INVALID,
			    "dispatch with 0 dimensions", setup);
		return STEP_ERROR;
	}
	if ((uint64_t)wg[0] * wg[1] * wg[2] > 1024) {
		queue_error(cp, cq, CP_ERR_WG_SIZE,
			    KFD_ABI_EC_QUEUE_PACKET_DISPATCH_WORK_GROUP_SIZE_INVALID,
			    "work-group larger than 1024", (uint64_t)wg[0] * wg[1] * wg[2]);
		return STEP_ERROR;
	}
	if (!kobj) {
		queue_error(cp, cq, CP_ERR_CODE, KFD_ABI_EC_QUEUE_PACKET_DISPATCH_CODE_INVALID,
			    "dispatch with a null kernel object", 0);
		return STEP_ERROR;
	}
	/*
	 * A CU mask that enables none of the GPU's CUs leaves the waves
	 * nowhere to run: the dispatch waits for a SET_CU_MASK.
	 */
	if (!ksim_queue_cus(cp->dev, cq->q))
		return STEP_WAIT;
	/* A family without an interpreter: the dispatch is complete. */
	if (!sh_family_runs(cp, cq))
		return STEP_DONE;
	return run_shader(cp, cq, pkt);
}

static enum step
run_packet(struct ksim_cp *cp, struct ksim_cpq *cq, const uint8_t *pkt, uint16_t hdr)
{
	if (hdr & HDR_RESERVED) {
		queue_error(cp, cq, CP_ERR_FORMAT, KFD_ABI_EC_QUEUE_PACKET_RESERVED,
			    "reserved header bits set", hdr);
		return STEP_ERROR;
	}
	switch (HDR_TYPE(hdr)) {
	case PKT_DISPATCH:
		return dispatch(cp, cq, pkt);
	case PKT_BARRIER_AND:
		return barrier(cp, cq, pkt, 0);
	case PKT_BARRIER_OR:
		return barrier(cp, cq, pkt, 1);
	case PKT_AGENT:
		return STEP_DONE;
	case PKT_VENDOR:
		return vendor(cp, cq, pkt);
	default:
		queue_error(cp, cq, CP_ERR_FORMAT, KFD_ABI_EC_QUEUE_PACKET_UNSUPPORTED,
			    "unknown packet type", HDR_TYPE(hdr));
		return STEP_ERROR;
	}
}

/* Completion: timestamps, value - 1, then the interrupt if it has one. */
static int
complete(struct ksim_cp *cp, struct ksim_cpq *cq, uint64_t h, int profiling,
	 uint64_t start)
{
	uint8_t *sig = cp_mem(cp, cq, h, SIG_SIZE);

	if (!sig) {
		queue_error(cp, cq, CP_ERR_MEMORY, KFD_ABI_EC_QUEUE_PACKET_RESERVED,
			    "completion signal outside the VM", h);
		return -1;
	}
	if (profiling) {
		__atomic_store_n((uint64_t *)(sig + SIG_START_TS), start, __ATOMIC_RELAXED);
		__atomic_store_n((uint64_t *)(sig + SIG_END_TS),
				 cp_gpu_clock(cp->dev, cq->gpu), __ATOMIC_RELAXED);
	}
	__atomic_fetch_sub((int64_t *)(sig + SIG_VALUE), 1, __ATOMIC_ACQ_REL);
	signal_event(cp, cq, sig);
	return 0;
}

unsigned int
cp_aql_run(struct ksim_cp *cp, struct ksim_cpq *cq)
{
	struct ksim_queue *q = cq->q;
	uint64_t npkts = q->ring_size / PKT_SIZE;
	uint8_t *ring, *aq;
	uint64_t *rptr, wid, bound;
	unsigned int done = 0;
	int profiling;

	cq->pending = 0;
	if (!npkts || (npkts & (npkts - 1))) {
		queue_error(cp, cq, CP_ERR_FORMAT, 0, "ring size", q->ring_size);
		return 0;
	}
	ring = cp_mem(cp, cq, q->ring, q->ring_size);
	rptr = cp_mem(cp, cq, q->rptr, 8);
	aq = cp_mem(cp, cq, q->rptr - AQ_FROM_RPTR, AQ_SIZE);
	if (!ring || !rptr) {
		queue_error(cp, cq, CP_ERR_MEMORY, 0,
			    ring ? "read pointer outside the VM" : "ring outside the VM",
			    ring ? q->rptr : q->ring);
		return 0;
	}
	if (!cq->started) {
		cq->rd = __atomic_load_n(rptr, __ATOMIC_ACQUIRE);
		cq->started = 1;
	}
	/* The doorbell may name a packet the producer never reserved (a
	 * stale or wild value): never look past write_dispatch_id. */
	bound = cq->wbound;
	if (aq || !cq->doorbell) {
		uint64_t *wp = aq ? (uint64_t *)(aq + AQ_WRITE_ID) : cp_mem(cp, cq, q->wptr, 8);

		if (!wp) {
			queue_error(cp, cq, CP_ERR_MEMORY, 0,
				    "write pointer outside the VM", q->wptr);
			return 0;
		}
		wid = __atomic_load_n(wp, __ATOMIC_ACQUIRE);
		if (!cq->doorbell) {
			bound = wid;
		} else if (bound > wid) {
			cp_log(cp, "queue %u: doorbell %llu is past the write index "
			       "%llu; ignored beyond it", cq->qid,
			       (unsigned long long)(bound - 1), (unsigned long long)wid);
			bound = wid;
		}
	}
	profiling = aq && (__atomic_load_n((uint32_t *)(aq + AQ_PROPERTIES),
					   __ATOMIC_RELAXED) & AQ_PROP_PROFILING);
	while (cq->rd < bound && !cq->error) {
		uint8_t *pkt = ring + (cq->rd & (npkts - 1)) * PKT_SIZE;
		uint16_t hdr = __atomic_load_n((uint16_t *)pkt, __ATOMIC_ACQUIRE);
		uint64_t start = profiling ? cp_gpu_clock(cp->dev, cq->gpu) : 0;
		uint64_t sig;
		enum step s;

		if (HDR_TYPE(hdr) == PKT_INVALID) {
			/* Reserved but not yet published: look again. */
			cq->pending = 1;
			break;
		}
		/* In-order completion makes the barrier bit hold already;
		 * acquire and release fences are this thread's fences. */
		__atomic_thread_fence(__ATOMIC_SEQ_CST);
		s = run_packet(cp, cq, pkt, hdr);
		if (s == STEP_WAIT) {
			cq->pending = 1;
			break;
		}
		if (s == STEP_ERROR)
			break;
		__atomic_thread_fence(__ATOMIC_SEQ_CST);
		memcpy(&sig, pkt + 56, 8);
		if (sig && complete(cp, cq, sig, profiling, start))
			break;
		__atomic_store_n((uint16_t *)pkt, (uint16_t)PKT_INVALID, __ATOMIC_RELEASE);
		cq->rd++;
		__atomic_store_n(rptr, cq->rd, __ATOMIC_RELEASE);
		done++;
	}
	cp->retired += done;
	return done;
}

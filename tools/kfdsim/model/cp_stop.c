/* SPDX-License-Identifier: MIT */
/*
 * A queue stopped on an error, whichever engine found it: the AQL packet
 * processor (cp_aql.c, which also reports it in ROCr's queue-inactive
 * signal) or the PM4 engine (cp_pm4.c), for their packets and for the
 * waves a dispatch started. What the process sees is the kernel's: the
 * exception code for the debugger ABI, the HW_EXCEPTION events of
 * CP_BAD_OPCODE, the VM fault's MEMORY events. Device lock held.
 */
#include "cp_priv.h"

/*
 * kfd_send_exception_to_runtime(): the runtime named, in the queue's save
 * area header, where its error reason goes and which event to set; the
 * reason is the exception mask.
 */
static void
runtime_exception(struct ksim_cp *cp, struct ksim_cpq *cq, uint64_t mask)
{
	struct kfd_abi_context_save_area_header h;
	struct kfd_abi_set_event_args a = { 0 };
	uint64_t *payload = NULL;

	/* the save area is often VRAM the CPU does not map (ROCm 6.4's):
	 * read and write it through the GPU's view */
	if (!cq->q->ctx || cp_mem_rw(cp, cq, cq->q->ctx, &h, sizeof(h), 0))
		return;
	if (h.err_payload_addr)
		payload = cp_mem_w(cp, cq, h.err_payload_addr, 8);
	if (payload)
		__atomic_store_n(payload, mask, __ATOMIC_RELEASE);
	else if (h.err_payload_addr &&
		 cp_mem_rw(cp, cq, h.err_payload_addr, &mask, 8, 1))
		cp_log(cp, "queue %u: the runtime's error payload at 0x%llx is not "
		       "mapped", cq->qid, (unsigned long long)h.err_payload_addr);
	a.event_id = h.err_event_id;
	if (a.event_id && ksim_ioc_set_event(NULL, cp->p, &a, sizeof(a)))
		cp_log(cp, "queue %u: error event %u is not a signal event of the "
		       "process", cq->qid, a.event_id);
}

void
cp_wave_exception(struct ksim_cp *cp, struct ksim_queue *q, uint64_t mask)
{
	if (ksim_dbg_queue_raise(cp->p, q, mask)) {
		for (unsigned int k = 0; k < cp->n; k++)
			if (cp->qs[k] && cp->qs[k]->q == q) {
				runtime_exception(cp, cp->qs[k], mask);
				return;
			}
	}
}

void
cp_queue_stop(struct ksim_cp *cp, struct ksim_cpq *cq, uint32_t code, int ec,
	      uint64_t detail, int write)
{
	cq->error = 1;
	cq->pending = 0;
	/* a debugger takes the exception; else an enabled runtime does */
	if (ec && ksim_dbg_queue_raise(cp->p, cq->q, KFD_ABI_EC_MASK(ec)))
		runtime_exception(cp, cq, KFD_ABI_EC_MASK(ec));
	/*
	 * A packet the CP cannot decode also raises CP_BAD_OPCODE, which the
	 * kernel turns into the process's HW_EXCEPTION events; memory the
	 * VM refuses raises the VM-fault interrupt (cp_vm_fault()), whose
	 * eviction stops the other queues on the GPU too.
	 */
	if ((code & (CP_ERR_FORMAT | CP_ERR_VENDOR)) &&
	    ksim_event_hw_exception(cp->p))
		cp_log(cp, "queue %u: HW_EXCEPTION events set", cq->qid);
	/* (Memory the GPU reaches but the engine cannot view, VRAM nobody
	 * mapped, is the model's limit, not a fault; a store that failed
	 * where memory reads met a read-only page.) */
	if ((code & CP_ERR_MEMORY) && (write || !cp_mem_reaches(cp, cq, detail, 8))) {
		uint64_t at;
		int n = cp_vm_fault(cp, cq, detail, write ? 4 : 8, write, &at);

		cp_warn(cp, "queue %u: VM fault at page 0x%llx: the GPU's queues "
			"evicted, %d MEMORY event%s set", cq->qid,
			(unsigned long long)(at & ~(KSIM_PAGE_SIZE - 1)), n,
			n == 1 ? "" : "s");
	}
}

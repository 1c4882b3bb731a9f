/* SPDX-License-Identifier: MIT */
/*
 * Waiting on events, and what a completed wait reports: for signal events
 * the new event age (KFD 1.14), for memory events the faulting address
 * and why, for hardware exceptions the reset that happened.
 *
 * The wait itself runs without any library lock held, so other threads
 * can set, create and destroy events meanwhile.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "events/events_priv.h"
#include "memory/memory.h"
#include "topology/topology.h"

/* Say what the faulting address was, as far as the library knows. */
static void
event_log_memory_fault(HsaKFDContext *ctx, const struct kfd_abi_hsa_memory_exception_data *m,
		       uint32_t node)
{
	struct kmt_mem_desc desc;
	const char *why = m->failure.NotPresent ? "page not present" :
			  m->failure.ReadOnly ? "write to a read-only page" :
			  m->failure.NoExecute ? "execute of a non-executable page" :
			  "unknown reason";

	kmt_err("memory exception on node %u at 0x%llx: %s\n", node,
		(unsigned long long)m->va, why);
	if (kmt_mem_describe(ctx, (const void *)(uintptr_t)m->va, &desc) == HSAKMT_STATUS_SUCCESS)
		kmt_err("  inside an object at 0x%llx of 0x%llx bytes on node %u\n",
			(unsigned long long)desc.gpu_va, (unsigned long long)desc.size,
			desc.node);
	else
		kmt_err("  the address belongs to no known buffer\n");
}

/*
 * Copy what the kernel reported for one event into the application's
 * HsaEvent. Return: INVALID_NODE_UNIT if the kernel named an unknown GPU.
 */
static HSAKMT_STATUS
event_report(HsaKFDContext *ctx, HsaEvent *ev, const struct kfd_abi_event_data *d)
{
	HsaEventData *ed = &ev->EventData;
	uint32_t node;

	if (ed->EventType == HSA_EVENTTYPE_MEMORY && d->memory_exception_data.gpu_id) {
		const struct kfd_abi_hsa_memory_exception_data *m = &d->memory_exception_data;
		HsaMemoryAccessFault *f = &ed->EventData.MemoryAccessFault;

		if (kmt_topo_node_of_gpu(ctx, m->gpu_id, &node) != HSAKMT_STATUS_SUCCESS)
			return HSAKMT_STATUS_INVALID_NODE_UNIT;
		f->NodeId = node;
		f->VirtualAddress = m->va;
		f->Failure.NotPresent = m->failure.NotPresent;
		f->Failure.ReadOnly = m->failure.ReadOnly;
		f->Failure.NoExecute = m->failure.NoExecute;
		f->Failure.Imprecise = m->failure.imprecise;
		f->Failure.ErrorType = m->ErrorType;
		/* SRAM ECC and consumed poison both count as ECC errors. */
		f->Failure.ECC = m->ErrorType == KFD_ABI_MEM_ERR_SRAM_ECC ||
				 m->ErrorType == KFD_ABI_MEM_ERR_POISON_CONSUMED;
		f->Flags = HSA_EVENTID_MEMORY_FATAL_PROCESS;
		event_log_memory_fault(ctx, m, node);
	} else if (ed->EventType == HSA_EVENTTYPE_HW_EXCEPTION && d->hw_exception_data.gpu_id) {
		const struct kfd_abi_hsa_hw_exception_data *h = &d->hw_exception_data;
		HsaHwException *x = &ed->EventData.HwException;

		if (kmt_topo_node_of_gpu(ctx, h->gpu_id, &node) != HSAKMT_STATUS_SUCCESS)
			return HSAKMT_STATUS_INVALID_NODE_UNIT;
		x->NodeId = node;
		x->ResetType = h->reset_type;
		x->MemoryLost = h->memory_lost;
		x->ResetCause = (HSA_EVENTID_HW_EXCEPTION_CAUSE)h->reset_cause;
	}
	return HSAKMT_STATUS_SUCCESS;
}

KMT_API HSAKMT_STATUS
hsaKmtWaitOnMultipleEvents_ExtCtx(HsaKFDContext *ctx, HsaEvent *Events[], HSAuint32 NumEvents,
				  bool WaitOnAll, HSAuint32 Milliseconds, uint64_t *event_age)
{
	struct kfd_abi_wait_events_args args = {0};
	struct kfd_abi_event_data *data;
	struct kmt_event_ctx *ec;
	HSAKMT_STATUS st;
	uint32_t i;
	int ret;

	st = kmt_ctx_check(ctx);
	if (st != HSAKMT_STATUS_SUCCESS)
		return st;
	if (!Events)
		return HSAKMT_STATUS_INVALID_HANDLE;
	ec = kmt_event_ctx_get(ctx);
	data = calloc(NumEvents ? NumEvents : 1, sizeof(*data));
	if (!ec || !data) {
		free(data);
		return HSAKMT_STATUS_NO_MEMORY;
	}

	pthread_mutex_lock(&ec->lock);
	for (i = 0; i < NumEvents; i++) {
		if (!kmt_event_find(ec, Events[i])) {
			pthread_mutex_unlock(&ec->lock);
			free(data);
			return HSAKMT_STATUS_INVALID_HANDLE;
		}
		data[i].event_id = Events[i]->EventId;
		if (event_age && Events[i]->EventData.EventType == HSA_EVENTTYPE_SIGNAL)
			data[i].signal_event_data.last_event_age = event_age[i];
	}
	pthread_mutex_unlock(&ec->lock);

	args.events_ptr = (uintptr_t)data;
	args.num_events = NumEvents;
	args.wait_for_all = WaitOnAll;
	args.timeout = Milliseconds;
	ret = kmt_ioctl(ctx, KFD_ABI_IOC_WAIT_EVENTS, &args);

	if (ret == -1) {
		kmt_debug("WAIT_EVENTS: %s\n", strerror(errno));
		st = HSAKMT_STATUS_ERROR;
	} else if (args.wait_result == KFD_ABI_WAIT_RESULT_TIMEOUT) {
		st = HSAKMT_STATUS_WAIT_TIMEOUT;
	} else {
		st = HSAKMT_STATUS_SUCCESS;
		/* The events may have been destroyed while we slept. */
		pthread_mutex_lock(&ec->lock);
		for (i = 0; i < NumEvents && st == HSAKMT_STATUS_SUCCESS; i++)
			if (kmt_event_find(ec, Events[i]))
				st = event_report(ctx, Events[i], &data[i]);
		pthread_mutex_unlock(&ec->lock);
	}

	/* Ages go back whatever happened, so a caller can retry with them. */
	if (event_age) {
		pthread_mutex_lock(&ec->lock);
		for (i = 0; i < NumEvents; i++)
			if (kmt_event_find(ec, Events[i]) &&
			    Events[i]->EventData.EventType == HSA_EVENTTYPE_SIGNAL)
				event_age[i] = data[i].signal_event_data.last_event_age;
		pthread_mutex_unlock(&ec->lock);
	}
	free(data);
	return st;
}

KMT_API HSAKMT_STATUS
hsaKmtWaitOnMultipleEvents_Ext(HsaEvent *Events[], HSAuint32 NumEvents, bool WaitOnAll,
			       HSAuint32 Milliseconds, uint64_t *event_age)
{
	return hsaKmtWaitOnMultipleEvents_ExtCtx(kmt_primary_ctx(), Events, NumEvents, WaitOnAll,
						 Milliseconds, event_age);
}

KMT_API HSAKMT_STATUS
hsaKmtWaitOnMultipleEventsCtx(HsaKFDContext *ctx, HsaEvent *Events[], HSAuint32 NumEvents,
			      bool WaitOnAll, HSAuint32 Milliseconds)
{
	return hsaKmtWaitOnMultipleEvents_ExtCtx(ctx, Events, NumEvents, WaitOnAll, Milliseconds,
						 NULL);
}

KMT_API HSAKMT_STATUS
hsaKmtWaitOnMultipleEvents(HsaEvent *Events[], HSAuint32 NumEvents, bool WaitOnAll,
			   HSAuint32 Milliseconds)
{
	return hsaKmtWaitOnMultipleEventsCtx(kmt_primary_ctx(), Events, NumEvents, WaitOnAll,
					     Milliseconds);
}

KMT_API HSAKMT_STATUS
hsaKmtWaitOnEvent_ExtCtx(HsaKFDContext *ctx, HsaEvent *Event, HSAuint32 Milliseconds,
			 uint64_t *event_age)
{
	if (!Event)
		return HSAKMT_STATUS_INVALID_HANDLE;
	return hsaKmtWaitOnMultipleEvents_ExtCtx(ctx, &Event, 1, true, Milliseconds, event_age);
}

KMT_API HSAKMT_STATUS
hsaKmtWaitOnEvent_Ext(HsaEvent *Event, HSAuint32 Milliseconds, uint64_t *event_age)
{
	return hsaKmtWaitOnEvent_ExtCtx(kmt_primary_ctx(), Event, Milliseconds, event_age);
}

KMT_API HSAKMT_STATUS
hsaKmtWaitOnEventCtx(HsaKFDContext *ctx, HsaEvent *Event, HSAuint32 Milliseconds)
{
	return hsaKmtWaitOnEvent_ExtCtx(ctx, Event, Milliseconds, NULL);
}

KMT_API HSAKMT_STATUS
hsaKmtWaitOnEvent(HsaEvent *Event, HSAuint32 Milliseconds)
{
	return hsaKmtWaitOnEventCtx(kmt_primary_ctx(), Event, Milliseconds);
}

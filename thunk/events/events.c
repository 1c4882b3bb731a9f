/* SPDX-License-Identifier: MIT */
/*
 * KFD events: creation (and the signal page behind signal events),
 * destruction, set and reset. Waiting is in events_wait.c.
 *
 * The signal page holds one 64-bit slot per signal event; the GPU writes
 * an event's slot (HsaEvent.EventData.HWData2) before raising the
 * interrupt that wakes its waiters. On an APU the kernel allocates the
 * page and the library maps it from /dev/kfd; on a dGPU the library
 * allocates 32 KiB of GPU-mapped system memory itself and hands the BO to
 * the kernel with the first CREATE_EVENT. The kernel keeps that page for
 * the life of the KFD process and never lets it be freed.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "events/events_priv.h"
#include "memory/memory.h"
#include "topology/topology.h"

/* Old kernels map only one page: 256 events. */
#define OLD_KERNEL_EVENT_LIMIT	256

/*
 * The primary context's KFD process outlives a close (the kernel tears it
 * down with the mm), and with it the signal page the library handed over.
 * Remember that, so a reopen in the same process does not offer a second
 * page, which the kernel would refuse.
 */
static pthread_mutex_t kmt_kernel_page_lock = PTHREAD_MUTEX_INITIALIZER;
static pid_t kmt_kernel_page_pid;

static uint32_t
event_bucket(const void *p)
{
	return (uint32_t)(((uintptr_t)p >> 4) & (KMT_EVENT_BUCKETS - 1));
}

struct kmt_event *
kmt_event_find(struct kmt_event_ctx *ec, const HsaEvent *ev)
{
	struct kmt_event *e;

	if (!ev)
		return NULL;
	for (e = ec->buckets[event_bucket(ev)]; e; e = e->hnext)
		if (&e->ev == ev)
			return e;
	return NULL;
}

static void
event_insert(struct kmt_event_ctx *ec, struct kmt_event *e)
{
	uint32_t b = event_bucket(&e->ev);

	e->hnext = ec->buckets[b];
	ec->buckets[b] = e;
	ec->count++;
}

static void
event_remove(struct kmt_event_ctx *ec, struct kmt_event *e)
{
	struct kmt_event **pp;

	for (pp = &ec->buckets[event_bucket(&e->ev)]; *pp; pp = &(*pp)->hnext) {
		if (*pp == e) {
			*pp = e->hnext;
			ec->count--;
			return;
		}
	}
}

static void
event_ctx_fini(HsaKFDContext *ctx, bool forked)
{
	struct kmt_event_ctx *ec = ctx->events;
	struct kmt_event *e, *next;
	uint32_t b;

	if (!ec)
		return;
	/*
	 * In a forked child another thread of the parent may have held
	 * ec->lock at fork time: never take it there (core/core.h). In the
	 * parent, ctx->lock keeps new callers out of the event area, but a
	 * waiter may still be inside it.
	 */
	if (!forked)
		pthread_mutex_lock(&ec->lock);
	for (b = 0; b < KMT_EVENT_BUCKETS; b++) {
		for (e = ec->buckets[b]; e; e = next) {
			struct kfd_abi_destroy_event_args args = { .event_id = e->ev.EventId };

			next = e->hnext;
			if (!forked && kmt_ioctl(ctx, KFD_ABI_IOC_DESTROY_EVENT, &args) == -1)
				kmt_debug("closing: event %u: %s\n", e->ev.EventId,
					  strerror(errno));
			free(e);
		}
		ec->buckets[b] = NULL;
	}
	/*
	 * In a forked child the page is the parent's: memory teardown
	 * forgets it with everything else. Otherwise unmap the kernel's
	 * page; free ours if the kernel never took it, and forget it if it
	 * did: the kernel answers FREE with EPERM and keeps writing the page
	 * through its GPU mapping, so neither UNMAP nor FREE is sent and its
	 * range stays taken.
	 */
	if (!forked && ec->page) {
		if (ec->page_map_size)
			munmap(ec->page, ec->page_map_size);
		else if (ec->page_alloc && ec->page_handed)
			kmt_mem_forget(ctx, ec->page);
		else if (ec->page_alloc && kmt_mem_free(ctx, ec->page) != HSAKMT_STATUS_SUCCESS)
			/* A failed CREATE_EVENT may have left the kernel holding it. */
			kmt_mem_forget(ctx, ec->page);
	}
	if (!forked) {
		pthread_mutex_unlock(&ec->lock);
		pthread_mutex_destroy(&ec->lock);
	}
	free(ec);
	ctx->events = NULL;
}

struct kmt_event_ctx *
kmt_event_ctx_get(HsaKFDContext *ctx)
{
	struct kmt_event_ctx *ec;

	pthread_mutex_lock(&ctx->lock);
	ec = ctx->events;
	if (!ec) {
		ec = calloc(1, sizeof(*ec));
		if (ec) {
			pthread_mutex_init(&ec->lock, NULL);
			pthread_mutex_lock(&kmt_kernel_page_lock);
			if (ctx->primary && kmt_kernel_page_pid == kmt_getpid())
				ec->page_handed = true;
			pthread_mutex_unlock(&kmt_kernel_page_lock);
			ctx->events = ec;
			ctx->events_fini = event_ctx_fini;
		}
	}
	pthread_mutex_unlock(&ctx->lock);
	return ec;
}

/* The first GPU node: the owner of the dGPU signal page's BO. */
static HSAKMT_STATUS
first_gpu_node(HsaKFDContext *ctx, uint32_t *node)
{
	uint32_t gpu_id;

	if (kmt_topo_gpu_ids(ctx, &gpu_id, 1) == 0)
		return HSAKMT_STATUS_ERROR;
	return kmt_topo_node_of_gpu(ctx, gpu_id, node);
}

/*
 * dGPU: allocate the signal page (once) and return the BO handle the
 * next CREATE_EVENT offers the kernel. Called with ec->lock held.
 */
static HSAKMT_STATUS
event_page_prepare(HsaKFDContext *ctx, struct kmt_event_ctx *ec, uint64_t *handle)
{
	struct kmt_mem_desc desc;
	uint32_t node;
	void *page;

	if (!ec->page) {
		if (first_gpu_node(ctx, &node) != HSAKMT_STATUS_SUCCESS ||
		    kmt_mem_alloc(ctx, node, KFD_ABI_EVENTS_PAGE_SIZE, 0,
				  KMT_MEM_HOST_ACCESS | KMT_MEM_UNCACHED |
				  KMT_MEM_EXECUTABLE | KMT_MEM_MAP_ALL_GPUS,
				  &page) != HSAKMT_STATUS_SUCCESS) {
			kmt_err("cannot allocate the events page\n");
			return HSAKMT_STATUS_ERROR;
		}
		ec->page = page;
		ec->page_slots = KFD_ABI_SIGNAL_EVENT_LIMIT;
		ec->page_alloc = true;
	}
	if (kmt_mem_describe(ctx, ec->page, &desc) != HSAKMT_STATUS_SUCCESS || !desc.handle) {
		kmt_err("events page has no BO handle\n");
		return HSAKMT_STATUS_ERROR;
	}
	*handle = desc.handle;
	return HSAKMT_STATUS_SUCCESS;
}

/* APU: map the kernel's page at the first signal event. Called with ec->lock held. */
static HSAKMT_STATUS
event_page_map(HsaKFDContext *ctx, struct kmt_event_ctx *ec, uint64_t offset)
{
	size_t len = KFD_ABI_EVENTS_PAGE_SIZE;
	void *p;

	p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, ctx->fd, (off_t)offset);
	if (p == MAP_FAILED) {
		len = kmt_page_size();
		p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, ctx->fd, (off_t)offset);
		if (p == MAP_FAILED) {
			kmt_err("cannot map the events page: %s\n", strerror(errno));
			return HSAKMT_STATUS_ERROR;
		}
		ec->page_slots = OLD_KERNEL_EVENT_LIMIT;
	} else {
		ec->page_slots = KFD_ABI_SIGNAL_EVENT_LIMIT;
	}
	ec->page = p;
	ec->page_map_size = len;
	return HSAKMT_STATUS_SUCCESS;
}

static void
event_destroy_kernel(HsaKFDContext *ctx, uint32_t id)
{
	struct kfd_abi_destroy_event_args args = { .event_id = id };

	kmt_ioctl(ctx, KFD_ABI_IOC_DESTROY_EVENT, &args);
}

KMT_API HSAKMT_STATUS
hsaKmtCreateEventCtx(HsaKFDContext *ctx, HsaEventDescriptor *EventDesc, bool ManualReset,
		     bool IsSignaled, HsaEvent **Event)
{
	struct kfd_abi_create_event_args args = {0};
	struct kmt_event_ctx *ec;
	struct kmt_event *e;
	bool offered = false;
	HSAKMT_STATUS st;

	st = kmt_ctx_check(ctx);
	if (st != HSAKMT_STATUS_SUCCESS)
		return st;
	if (!EventDesc || !Event || (unsigned int)EventDesc->EventType >= HSA_EVENTTYPE_MAXID)
		return HSAKMT_STATUS_INVALID_PARAMETER;
	ec = kmt_event_ctx_get(ctx);
	e = calloc(1, sizeof(*e));
	if (!ec || !e) {
		free(e);
		return HSAKMT_STATUS_ERROR;
	}

	args.event_type = EventDesc->EventType;
	args.node_id = EventDesc->NodeId;
	args.auto_reset = !ManualReset;

	pthread_mutex_lock(&ec->lock);
	if (ctx->is_dgpu && !ec->page_handed) {
		st = event_page_prepare(ctx, ec, &args.event_page_offset);
		if (st != HSAKMT_STATUS_SUCCESS)
			goto fail;
		offered = true;
	}
	if (kmt_ioctl(ctx, KFD_ABI_IOC_CREATE_EVENT, &args) == -1) {
		kmt_debug("CREATE_EVENT type %u: %s\n", EventDesc->EventType, strerror(errno));
		st = HSAKMT_STATUS_ERROR;
		goto fail;
	}
	if (offered) {
		ec->page_handed = true;
		if (ctx->primary) {
			pthread_mutex_lock(&kmt_kernel_page_lock);
			kmt_kernel_page_pid = kmt_getpid();
			pthread_mutex_unlock(&kmt_kernel_page_lock);
		}
	}
	if (!ec->page && !ctx->is_dgpu && args.event_page_offset) {
		st = event_page_map(ctx, ec, args.event_page_offset);
		if (st != HSAKMT_STATUS_SUCCESS) {
			event_destroy_kernel(ctx, args.event_id);
			goto fail;
		}
	}

	e->ev.EventId = args.event_id;
	e->ev.EventData.EventType = EventDesc->EventType;
	e->ev.EventData.HWData1 = args.event_id;
	e->ev.EventData.HWData3 = args.event_trigger_data;
	if (args.event_page_offset && ec->page && args.event_slot_index < ec->page_slots)
		e->ev.EventData.HWData2 = (uintptr_t)&ec->page[args.event_slot_index];
	e->ev.EventData.EventData.SyncVar.SyncVar.UserData =
		EventDesc->SyncVar.SyncVar.UserData;
	e->ev.EventData.EventData.SyncVar.SyncVarSize = EventDesc->SyncVar.SyncVarSize;

	if (IsSignaled && kmt_event_is_signal_type(EventDesc->EventType)) {
		struct kfd_abi_set_event_args set = { .event_id = args.event_id };

		if (kmt_ioctl(ctx, KFD_ABI_IOC_SET_EVENT, &set) == -1) {
			event_destroy_kernel(ctx, args.event_id);
			st = HSAKMT_STATUS_ERROR;
			goto fail;
		}
	}
	event_insert(ec, e);
	pthread_mutex_unlock(&ec->lock);
	*Event = &e->ev;
	return HSAKMT_STATUS_SUCCESS;

fail:
	pthread_mutex_unlock(&ec->lock);
	free(e);
	*Event = NULL;
	return st;
}

KMT_API HSAKMT_STATUS
hsaKmtCreateEvent(HsaEventDescriptor *EventDesc, bool ManualReset, bool IsSignaled,
		  HsaEvent **Event)
{
	return hsaKmtCreateEventCtx(kmt_primary_ctx(), EventDesc, ManualReset, IsSignaled, Event);
}

/* Find @ev; on success ec->lock is held. */
static HSAKMT_STATUS
event_lock(HsaKFDContext *ctx, HsaEvent *ev, struct kmt_event_ctx **ecp, struct kmt_event **ep)
{
	struct kmt_event_ctx *ec;
	HSAKMT_STATUS st;

	st = kmt_ctx_check(ctx);
	if (st != HSAKMT_STATUS_SUCCESS)
		return st;
	if (!ev)
		return HSAKMT_STATUS_INVALID_HANDLE;
	ec = kmt_event_ctx_get(ctx);
	if (!ec)
		return HSAKMT_STATUS_NO_MEMORY;
	pthread_mutex_lock(&ec->lock);
	*ep = kmt_event_find(ec, ev);
	if (!*ep) {
		pthread_mutex_unlock(&ec->lock);
		return HSAKMT_STATUS_INVALID_HANDLE;
	}
	*ecp = ec;
	return HSAKMT_STATUS_SUCCESS;
}

KMT_API HSAKMT_STATUS
hsaKmtDestroyEventCtx(HsaKFDContext *ctx, HsaEvent *Event)
{
	struct kfd_abi_destroy_event_args args = {0};
	struct kmt_event_ctx *ec;
	struct kmt_event *e;
	HSAKMT_STATUS st;

	st = event_lock(ctx, Event, &ec, &e);
	if (st != HSAKMT_STATUS_SUCCESS)
		return st;
	args.event_id = e->ev.EventId;
	if (kmt_ioctl(ctx, KFD_ABI_IOC_DESTROY_EVENT, &args) == -1) {
		pthread_mutex_unlock(&ec->lock);
		return HSAKMT_STATUS_ERROR;
	}
	event_remove(ec, e);
	pthread_mutex_unlock(&ec->lock);
	free(e);
	return HSAKMT_STATUS_SUCCESS;
}

KMT_API HSAKMT_STATUS
hsaKmtDestroyEvent(HsaEvent *Event)
{
	return hsaKmtDestroyEventCtx(kmt_primary_ctx(), Event);
}

/* SET_EVENT or RESET_EVENT; only signal-like events may be driven by the user. */
static HSAKMT_STATUS
event_set_reset(HsaKFDContext *ctx, HsaEvent *ev, unsigned long request)
{
	struct kfd_abi_set_event_args args = {0};	/* same layout as reset */
	struct kmt_event_ctx *ec;
	struct kmt_event *e;
	HSAKMT_STATUS st;
	int ret;

	st = event_lock(ctx, ev, &ec, &e);
	if (st != HSAKMT_STATUS_SUCCESS)
		return st;
	if (!kmt_event_is_signal_type(e->ev.EventData.EventType)) {
		pthread_mutex_unlock(&ec->lock);
		return HSAKMT_STATUS_ERROR;
	}
	args.event_id = e->ev.EventId;
	pthread_mutex_unlock(&ec->lock);
	ret = kmt_ioctl(ctx, request, &args);
	return ret == -1 ? HSAKMT_STATUS_ERROR : HSAKMT_STATUS_SUCCESS;
}

KMT_API HSAKMT_STATUS
hsaKmtSetEventCtx(HsaKFDContext *ctx, HsaEvent *Event)
{
	return event_set_reset(ctx, Event, KFD_ABI_IOC_SET_EVENT);
}

KMT_API HSAKMT_STATUS
hsaKmtSetEvent(HsaEvent *Event)
{
	return hsaKmtSetEventCtx(kmt_primary_ctx(), Event);
}

KMT_API HSAKMT_STATUS
hsaKmtResetEventCtx(HsaKFDContext *ctx, HsaEvent *Event)
{
	return event_set_reset(ctx, Event, KFD_ABI_IOC_RESET_EVENT);
}

KMT_API HSAKMT_STATUS
hsaKmtResetEvent(HsaEvent *Event)
{
	return hsaKmtResetEventCtx(kmt_primary_ctx(), Event);
}

/* The KFD has no query; AMD's library answers SUCCESS for any event. */
KMT_API HSAKMT_STATUS
hsaKmtQueryEventStateCtx(HsaKFDContext *ctx, HsaEvent *Event)
{
	struct kmt_event_ctx *ec;
	struct kmt_event *e;
	HSAKMT_STATUS st;

	st = event_lock(ctx, Event, &ec, &e);
	if (st != HSAKMT_STATUS_SUCCESS)
		return st;
	pthread_mutex_unlock(&ec->lock);
	return HSAKMT_STATUS_SUCCESS;
}

KMT_API HSAKMT_STATUS
hsaKmtQueryEventState(HsaEvent *Event)
{
	return hsaKmtQueryEventStateCtx(kmt_primary_ctx(), Event);
}

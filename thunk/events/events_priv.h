/* SPDX-License-Identifier: MIT */
/*
 * events/events_priv.h - what the event files (events*.c) share; private
 * to events/.
 *
 * An HsaEvent handed to the application is the first member of a struct
 * kmt_event the library allocated. Every call first finds the pointer in
 * its context's table, so a destroyed, foreign or made-up event is
 * refused rather than followed.
 */
#ifndef KMT_EVENTS_PRIV_H
#define KMT_EVENTS_PRIV_H

#include "core/core.h"

/* Buckets of the event table (a power of two). */
#define KMT_EVENT_BUCKETS	256

struct kmt_event {
	HsaEvent ev;			/* what the application sees */
	struct kmt_event *hnext;	/* bucket chain */
};

/* The event area of a context (HsaKFDContext.events). */
struct kmt_event_ctx {
	pthread_mutex_t lock;		/* guards everything below */
	struct kmt_event *buckets[KMT_EVENT_BUCKETS];
	uint32_t count;
	/* The signal page: one 64-bit slot per signal event. */
	uint64_t *page;
	uint32_t page_slots;		/* slots the CPU mapping covers */
	size_t page_map_size;		/* bytes of a /dev/kfd mapping, 0 if ours */
	bool page_alloc;		/* page is our BO (dGPU) */
	bool page_handed;		/* the kernel accepted the BO */
};

/* kmt_event_ctx_get() - @ctx's event area, created on first use (NULL: no memory). */
struct kmt_event_ctx *kmt_event_ctx_get(HsaKFDContext *ctx);

/* kmt_event_find() - the event behind @ev, or NULL. Called with ec->lock held. */
struct kmt_event *kmt_event_find(struct kmt_event_ctx *ec, const HsaEvent *ev);

/* Signal and debug events live in the signal page; the others are the kernel's. */
static inline bool
kmt_event_is_signal_type(HSA_EVENTTYPE type)
{
	return type == HSA_EVENTTYPE_SIGNAL || type == HSA_EVENTTYPE_DEBUG_EVENT;
}

#endif /* KMT_EVENTS_PRIV_H */

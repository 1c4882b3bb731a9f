/* SPDX-License-Identifier: MIT */
/*
 * Queue priority (CREATE_QUEUE's and UPDATE_QUEUE's queue_priority,
 * 0..15): the CP's queue arbitration serves the higher priority first.
 * The engine visits its queues in that order on each pass, so of two
 * queues with dispatches waiting, the higher one's takes the waves
 * first; equal priorities keep their creation order. A dispatch that
 * already holds the waves keeps them to its end (nothing is preempted
 * mid-dispatch). Device lock held.
 */
#include "cp_priv.h"

#define CP_PRIO_LEVELS	16

/* The bucket of @cq: 0 for the highest priority. */
static unsigned int
level(const struct ksim_cpq *cq)
{
	uint32_t pr = cq->q->priority;

	return CP_PRIO_LEVELS - 1 - (pr < CP_PRIO_LEVELS ? pr : CP_PRIO_LEVELS - 1);
}

void
cp_prio_order(struct ksim_cp *cp)
{
	unsigned int first[CP_PRIO_LEVELS] = { 0 };
	unsigned int i, k, at;

	for (i = 0; i < cp->n; i++)
		first[level(cp->qs[i])]++;
	/* counts to each bucket's first slot */
	for (k = 0, at = 0; k < CP_PRIO_LEVELS; k++) {
		unsigned int n = first[k];

		first[k] = at;
		at += n;
	}
	for (i = 0; i < cp->n; i++)
		cp->order[first[level(cp->qs[i])]++] = (uint16_t)i;
}

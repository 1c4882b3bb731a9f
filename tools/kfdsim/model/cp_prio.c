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

void
cp_prio_order(struct ksim_cp *cp)
{
	unsigned int count[CP_PRIO_LEVELS + 1] = { 0 };
	unsigned int i, k;

	for (i = 0; i < cp->n; i++) {
		uint32_t pr = cp->qs[i]->q->priority;

		count[CP_PRIO_LEVELS - 1 - (pr < CP_PRIO_LEVELS ? pr : CP_PRIO_LEVELS - 1)]++;
	}
	/* each level's first slot, highest level first */
	for (k = 0, i = 0; k < CP_PRIO_LEVELS; k++) {
		unsigned int n = count[k];

		count[k] = i;
		i += n;
	}
	for (i = 0; i < cp->n; i++) {
		uint32_t pr = cp->qs[i]->q->priority;

		k = CP_PRIO_LEVELS - 1 - (pr < CP_PRIO_LEVELS ? pr : CP_PRIO_LEVELS - 1);
		cp->order[count[k]++] = (uint16_t)i;
	}
}

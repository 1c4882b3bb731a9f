/* SPDX-License-Identifier: MIT */
/*
 * queues/queues.h - what queues/ offers the other groups: the debugger
 * (debug/) names queues to the kernel by their ids.
 */
#ifndef KMT_QUEUES_H
#define KMT_QUEUES_H

#include "core/core.h"

/*
 * kmt_queue_ids() - the kernel ids of @n queue handles.
 * Return: a malloc'd array, or NULL if a handle is unknown (or no memory).
 */
uint32_t *kmt_queue_ids(HsaKFDContext *ctx, const HSA_QUEUEID *ids, uint32_t n);

#endif /* KMT_QUEUES_H */

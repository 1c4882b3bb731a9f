/* SPDX-License-Identifier: MIT */
/* sim_nodes - the nodes an API test works on, found through the library. */
#ifndef THUNK_TEST_SIM_NODES_H
#define THUNK_TEST_SIM_NODES_H

#include <stdbool.h>

#include "hsakmt/hsakmt.h"

/* What sim_nodes_find() reports. */
struct sim_nodes {
	HSAuint32 n_nodes;
	HSAuint32 gpu;		/* the first GPU node */
	HSAuint32 cpu;		/* the first CPU node */
	bool large_bar;		/* that GPU's VRAM is all CPU-visible */
};

/*
 * sim_nodes_find() - open the library, take the topology snapshot and
 * find the first GPU and CPU nodes.
 * Return: 0, or -1 when a call fails or a kind of node is missing.
 */
int sim_nodes_find(struct sim_nodes *out);

/*
 * sim_vram_flags() - flags for coarse-grained VRAM of the GPU, CPU-visible
 * where the BAR allows.
 */
HsaMemFlags sim_vram_flags(const struct sim_nodes *sn);

#endif /* THUNK_TEST_SIM_NODES_H */

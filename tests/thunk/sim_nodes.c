/* SPDX-License-Identifier: MIT */
/* sim_nodes: see sim_nodes.h. */
#include "sim_nodes.h"

int
sim_nodes_find(struct sim_nodes *out)
{
	HsaSystemProperties sp;

	out->gpu = out->cpu = ~0u;
	out->large_bar = false;
	if (hsaKmtOpenKFD() != HSAKMT_STATUS_SUCCESS ||
	    hsaKmtAcquireSystemProperties(&sp) != HSAKMT_STATUS_SUCCESS)
		return -1;
	out->n_nodes = sp.NumNodes;
	for (HSAuint32 n = 0; n < sp.NumNodes; n++) {
		HsaNodeProperties np;
		HsaMemoryProperties mp[32];

		if (hsaKmtGetNodeProperties(n, &np) != HSAKMT_STATUS_SUCCESS)
			return -1;
		if (!np.NumFComputeCores) {
			if (out->cpu == ~0u)
				out->cpu = n;
			continue;
		}
		if (out->gpu != ~0u)
			continue;
		out->gpu = n;
		if (np.NumMemoryBanks > 32 ||
		    hsaKmtGetNodeMemoryProperties(n, np.NumMemoryBanks, mp) != HSAKMT_STATUS_SUCCESS)
			return -1;
		for (HSAuint32 b = 0; b < np.NumMemoryBanks; b++)
			out->large_bar |= mp[b].HeapType == HSA_HEAPTYPE_FRAME_BUFFER_PUBLIC;
	}
	return out->gpu == ~0u || out->cpu == ~0u ? -1 : 0;
}

HsaMemFlags
sim_vram_flags(const struct sim_nodes *sn)
{
	HsaMemFlags f = {0};

	f.ui32.NonPaged = 1;
	f.ui32.HostAccess = sn->large_bar;
	f.ui32.CoarseGrain = 1;
	return f;
}

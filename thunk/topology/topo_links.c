/* SPDX-License-Identifier: MIT */
/*
 * Links the kernel does not report. A kernel that knows p2p links (it
 * writes a p2p_links_count key, even 0) reports every path itself. Older
 * kernels only report direct links; then GPUs reach each other, and
 * distant CPUs, through the CPU they hang off, and the weight of such an
 * indirect link is the sum of the hops. A hop through two CPU sockets on
 * QPI (weight above 20) is not usable by GPUs, and a GPU destination needs
 * host-visible VRAM (a large BAR) for the CPU to route to it.
 */
#include "topology/topo.h"

/* The CPU a GPU hangs off: its first PCIe link of weight <= 20. */
static int64_t
direct_cpu_of(const struct kmt_topology *t, uint32_t gpu)
{
	const struct kmt_topo_node *n = &t->nodes[gpu];
	uint32_t i;

	if (!n->gpu_id)
		return -1;
	for (i = 0; i < n->props.NumIOLinks; i++)
		if (n->links[i].IoLinkType == HSA_IOLINKTYPE_PCIEXPRESS &&
		    n->links[i].Weight <= 20)
			return n->links[i].NodeTo;
	return -1;
}

/* A direct link from->to: its weight and type. */
static bool
direct_link(const struct kmt_topology *t, uint32_t from, uint32_t to, uint32_t *weight,
	    HSA_IOLINKTYPE *type)
{
	const struct kmt_topo_node *n = &t->nodes[from];
	uint32_t i;

	for (i = 0; i < n->props.NumIOLinks; i++) {
		if (n->links[i].NodeTo != to)
			continue;
		*weight = n->links[i].Weight;
		if (type)
			*type = n->links[i].IoLinkType;
		return true;
	}
	return false;
}

static bool
has_public_vram(const struct kmt_topo_node *n)
{
	uint32_t i;

	for (i = 0; i < n->props.NumMemoryBanks; i++)
		if (n->banks[i].HeapType == HSA_HEAPTYPE_FRAME_BUFFER_PUBLIC)
			return true;
	return false;
}

/* Weight (0: none) and type of the indirect path from @a to @b. */
static uint32_t
indirect_link(const struct kmt_topology *t, uint32_t a, uint32_t b, HSA_IOLINKTYPE *type)
{
	const struct kmt_topo_node *na = &t->nodes[a], *nb = &t->nodes[b];
	uint32_t w1 = 0, w2 = 0, w3 = 0;
	int64_t cpu_a = -1, cpu_b = -1;

	*type = HSA_IOLINKTYPE_UNDEFINED;
	if (a == b || (!na->gpu_id && !nb->gpu_id))
		return 0;
	/* GPUs of one XGMI hive have direct links. */
	if (na->props.HiveID && na->props.HiveID == nb->props.HiveID)
		return 0;
	if (na->gpu_id)
		cpu_a = direct_cpu_of(t, a);
	if (nb->gpu_id)
		cpu_b = direct_cpu_of(t, b);
	if (cpu_a < 0 && cpu_b < 0)
		return 0;
	if (nb->gpu_id && !has_public_vram(nb))
		return 0;

	if (cpu_a >= 0 && cpu_b >= 0 && cpu_a == cpu_b) {
		/* GPU -> CPU -> GPU */
		if (!direct_link(t, a, (uint32_t)cpu_a, &w1, NULL) ||
		    !direct_link(t, (uint32_t)cpu_a, b, &w2, type))
			return 0;
	} else if (cpu_a >= 0 && cpu_b >= 0) {
		/* GPU -> CPU -> CPU -> GPU */
		if (!direct_link(t, a, (uint32_t)cpu_a, &w1, NULL) ||
		    !direct_link(t, (uint32_t)cpu_a, (uint32_t)cpu_b, &w2, type))
			return 0;
		if (*type == HSA_IOLINK_TYPE_QPI_1_1 && w2 > 20)
			return 0;
		if (!direct_link(t, (uint32_t)cpu_b, b, &w3, NULL))
			return 0;
	} else if (cpu_a >= 0) {
		/* GPU -> CPU -> CPU */
		if (!direct_link(t, a, (uint32_t)cpu_a, &w1, NULL) ||
		    !direct_link(t, (uint32_t)cpu_a, b, &w2, type))
			return 0;
	} else {
		/* CPU -> CPU -> GPU */
		if (!direct_link(t, a, (uint32_t)cpu_b, &w2, type) ||
		    !direct_link(t, (uint32_t)cpu_b, b, &w3, NULL))
			return 0;
	}
	return w1 + w2 + w3;
}

static void
add_link(struct kmt_topology *t, uint32_t from, uint32_t to, uint32_t weight,
	 HSA_IOLINKTYPE type)
{
	struct kmt_topo_node *n = &t->nodes[from];
	HsaIoLinkProperties *l;

	if (n->props.NumIOLinks >= n->links_cap) {
		kmt_warn("no room for IO link %u->%u\n", from, to);
		return;
	}
	l = &n->links[n->props.NumIOLinks++];
	*l = (HsaIoLinkProperties){
		.IoLinkType = type,
		.NodeFrom = from,
		.NodeTo = to,
		.Weight = weight,
	};
}

void
kmt_topo_add_indirect_links(struct kmt_topology *t)
{
	HSA_IOLINKTYPE type;
	uint32_t i, j, w;

	for (i = 0; i + 1 < t->n_nodes; i++) {
		for (j = i + 1; j < t->n_nodes; j++) {
			w = indirect_link(t, i, j, &type);
			if (w)
				add_link(t, i, j, w, type);
			w = indirect_link(t, j, i, &type);
			if (w)
				add_link(t, j, i, w, type);
		}
	}
}

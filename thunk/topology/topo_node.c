/* SPDX-License-Identifier: MIT */
/*
 * One sysfs node: gpu_id, properties, memory banks, caches and links,
 * mapped onto the API's structs field by field.
 */
#include <stdio.h>
#include <string.h>

#include "topology/topo.h"

static void
node_prop(void *arg, const char *name, unsigned long long v)
{
	struct kmt_topo_node *node = arg;
	HsaNodeProperties *p = &node->props;

	if (!strcmp(name, "cpu_cores_count"))
		p->NumCPUCores = (uint32_t)v;
	else if (!strcmp(name, "simd_count"))
		p->NumFComputeCores = (uint32_t)v;
	else if (!strcmp(name, "mem_banks_count"))
		p->NumMemoryBanks = (uint32_t)v;
	else if (!strcmp(name, "caches_count"))
		p->NumCaches = (uint32_t)v;
	else if (!strcmp(name, "io_links_count"))
		node->n_io_links = (uint32_t)v;
	else if (!strcmp(name, "p2p_links_count")) {
		node->n_p2p_links = (uint32_t)v;
		node->has_p2p_key = true;
	} else if (!strcmp(name, "cpu_core_id_base"))
		p->CComputeIdLo = (uint32_t)v;
	else if (!strcmp(name, "simd_id_base"))
		p->FComputeIdLo = (uint32_t)v;
	else if (!strcmp(name, "capability"))
		p->Capability.Value = (uint32_t)v;
	else if (!strcmp(name, "capability2"))
		node->capability2 = v;
	else if (!strcmp(name, "debug_prop"))
		p->DebugProperties.Value = v;
	else if (!strcmp(name, "max_waves_per_simd"))
		p->MaxWavesPerSIMD = (uint32_t)v;
	else if (!strcmp(name, "lds_size_in_kb"))
		p->LDSSizeInKB = (uint32_t)v;
	else if (!strcmp(name, "gds_size_in_kb"))
		p->GDSSizeInKB = (uint32_t)v;
	else if (!strcmp(name, "wave_front_size"))
		p->WaveFrontSize = (uint32_t)v;
	else if (!strcmp(name, "array_count"))
		p->NumShaderBanks = (uint32_t)v;
	else if (!strcmp(name, "simd_arrays_per_engine"))
		p->NumArrays = (uint32_t)v;
	else if (!strcmp(name, "cu_per_simd_array"))
		p->NumCUPerArray = (uint32_t)v;
	else if (!strcmp(name, "simd_per_cu"))
		p->NumSIMDPerCU = (uint32_t)v;
	else if (!strcmp(name, "max_slots_scratch_cu"))
		p->MaxSlotsScratchCU = (uint32_t)v;
	else if (!strcmp(name, "fw_version"))
		/* Only the low 10 bits are the MEC version (uCode field). */
		p->EngineId.Value = (uint32_t)v & 0x3ff;
	else if (!strcmp(name, "vendor_id"))
		p->VendorId = (uint16_t)v;
	else if (!strcmp(name, "device_id"))
		p->DeviceId = (uint16_t)v;
	else if (!strcmp(name, "location_id"))
		p->LocationId = (uint32_t)v;
	else if (!strcmp(name, "domain"))
		p->Domain = (uint32_t)v;
	else if (!strcmp(name, "max_engine_clk_fcompute"))
		p->MaxEngineClockMhzFCompute = (uint32_t)v;
	else if (!strcmp(name, "max_engine_clk_ccompute"))
		p->MaxEngineClockMhzCCompute = (uint32_t)v;
	else if (!strcmp(name, "local_mem_size"))
		p->LocalMemSize = v;
	else if (!strcmp(name, "drm_render_minor"))
		p->DrmRenderMinor = (int32_t)v;
	else if (!strcmp(name, "sdma_fw_version"))
		p->uCodeEngineVersions.Value = (uint32_t)v & 0x3ff;
	else if (!strcmp(name, "hive_id"))
		p->HiveID = v;
	else if (!strcmp(name, "unique_id"))
		p->UniqueID = v;
	else if (!strcmp(name, "num_sdma_engines"))
		p->NumSdmaEngines = (uint32_t)v;
	else if (!strcmp(name, "num_sdma_xgmi_engines"))
		p->NumSdmaXgmiEngines = (uint32_t)v;
	else if (!strcmp(name, "num_gws"))
		p->NumGws = (uint8_t)v;
	else if (!strcmp(name, "num_sdma_queues_per_engine"))
		p->NumSdmaQueuesPerEngine = (uint8_t)v;
	else if (!strcmp(name, "num_cp_queues"))
		p->NumCpQueues = (uint8_t)v;
	else if (!strcmp(name, "gfx_target_version"))
		node->gfx_target_version = (uint32_t)v;
	else if (!strcmp(name, "num_xcc"))
		node->num_xcc = (uint32_t)v;
	else if (!strcmp(name, "cwsr_size"))
		node->cwsr_size = (uint32_t)v;
	else if (!strcmp(name, "ctl_stack_size"))
		node->ctl_stack_size = (uint32_t)v;
	else if (!strcmp(name, "eop_buffer_size"))
		node->eop_buffer_size = (uint32_t)v;
}

/*
 * Counts come from sysfs and size our allocations: refuse absurd values
 * from a corrupt or hostile tree instead of trying to allocate them.
 */
#define KMT_TOPO_MAX_COUNT	65536

HSAKMT_STATUS
kmt_topo_read_node(const char *root, uint32_t sysfs_id, struct kmt_topo_node *node)
{
	char path[512];
	HSAKMT_STATUS st;

	memset(node, 0, sizeof(*node));
	node->sysfs_id = sysfs_id;
	node->num_xcc = 1;

	snprintf(path, sizeof(path), "%s/nodes/%u/gpu_id", root, sysfs_id);
	st = kmt_sysfs_read_u32(path, &node->gpu_id);
	if (st != HSAKMT_STATUS_SUCCESS)
		return st;

	snprintf(path, sizeof(path), "%s/nodes/%u/properties", root, sysfs_id);
	st = kmt_sysfs_read_props(path, node_prop, node);
	if (st != HSAKMT_STATUS_SUCCESS)
		return st;

	if (node->props.NumMemoryBanks > KMT_TOPO_MAX_COUNT ||
	    node->props.NumCaches > KMT_TOPO_MAX_COUNT ||
	    node->n_io_links > KMT_TOPO_MAX_COUNT ||
	    node->n_p2p_links > KMT_TOPO_MAX_COUNT) {
		kmt_err("node %u: implausible counts in %s\n", sysfs_id, path);
		return HSAKMT_STATUS_ERROR;
	}
	if (!node->num_xcc)
		node->num_xcc = 1;
	node->props.NumIOLinks = node->n_io_links + node->n_p2p_links;
	return HSAKMT_STATUS_SUCCESS;
}

static void
bank_prop(void *arg, const char *name, unsigned long long v)
{
	HsaMemoryProperties *b = arg;

	if (!strcmp(name, "heap_type"))
		b->HeapType = (HSA_HEAPTYPE)(uint32_t)v;
	else if (!strcmp(name, "size_in_bytes"))
		b->SizeInBytes = v;
	else if (!strcmp(name, "flags"))
		b->Flags.MemoryProperty = (uint32_t)v;
	else if (!strcmp(name, "width"))
		b->Width = (uint32_t)v;
	else if (!strcmp(name, "mem_clk_max"))
		b->MemoryClockMax = (uint32_t)v;
}

HSAKMT_STATUS
kmt_topo_read_bank(const char *root, uint32_t sysfs_id, uint32_t id, HsaMemoryProperties *bank)
{
	char path[512];

	memset(bank, 0, sizeof(*bank));
	snprintf(path, sizeof(path), "%s/nodes/%u/mem_banks/%u/properties", root, sysfs_id, id);
	return kmt_sysfs_read_props(path, bank_prop, bank);
}

static void
cache_prop(void *arg, const char *name, unsigned long long v)
{
	HsaCacheProperties *c = arg;

	if (!strcmp(name, "processor_id_low"))
		c->ProcessorIdLow = (uint32_t)v;
	else if (!strcmp(name, "level"))
		c->CacheLevel = (uint32_t)v;
	else if (!strcmp(name, "size"))
		c->CacheSize = (uint32_t)v;
	else if (!strcmp(name, "cache_line_size"))
		c->CacheLineSize = (uint32_t)v;
	else if (!strcmp(name, "cache_lines_per_tag"))
		c->CacheLinesPerTag = (uint32_t)v;
	else if (!strcmp(name, "association"))
		c->CacheAssociativity = (uint32_t)v;
	else if (!strcmp(name, "latency"))
		c->CacheLatency = (uint32_t)v;
	else if (!strcmp(name, "type"))
		c->CacheType.Value = (uint32_t)v;
}

/* "sibling_map 1,0,1,..." ends a cache file; values go to SiblingMap[]. */
static void
parse_sibling_map(const char *p, HsaCacheProperties *c)
{
	unsigned int i = 0;

	while (*p == ' ' || *p == '\n')
		p++;
	if (strncmp(p, "sibling_map", 11))
		return;
	p += 11;
	while (i < HSA_CPU_SIBLINGS) {
		unsigned int v = 0;
		bool digits = false;

		while (*p == ' ' || *p == '\t')
			p++;
		while (*p >= '0' && *p <= '9' && v < 1000000) {
			v = v * 10 + (unsigned int)(*p++ - '0');
			digits = true;
		}
		if (!digits)
			break;
		c->SiblingMap[i++] = v;
		if (*p != ',')
			break;
		p++;
	}
}

HSAKMT_STATUS
kmt_topo_read_cache(const char *root, uint32_t sysfs_id, uint32_t id, HsaCacheProperties *cache)
{
	char buf[KMT_TOPO_MAX_FILE + 1];
	char path[512];
	const char *rest;
	long len;

	memset(cache, 0, sizeof(*cache));
	snprintf(path, sizeof(path), "%s/nodes/%u/caches/%u/properties", root, sysfs_id, id);
	len = kmt_sysfs_read_file(path, buf, sizeof(buf));
	if (len <= 0) {
		kmt_err("cannot read %s\n", path);
		return HSAKMT_STATUS_ERROR;
	}
	if (kmt_sysfs_parse_props(buf, cache_prop, cache, &rest) == 0) {
		kmt_err("%s: no properties\n", path);
		return HSAKMT_STATUS_ERROR;
	}
	parse_sibling_map(rest, cache);
	return HSAKMT_STATUS_SUCCESS;
}

static void
link_prop(void *arg, const char *name, unsigned long long v)
{
	HsaIoLinkProperties *l = arg;

	if (!strcmp(name, "type"))
		l->IoLinkType = (HSA_IOLINKTYPE)(uint32_t)v;
	else if (!strcmp(name, "version_major"))
		l->VersionMajor = (uint32_t)v;
	else if (!strcmp(name, "version_minor"))
		l->VersionMinor = (uint32_t)v;
	else if (!strcmp(name, "node_from"))
		l->NodeFrom = (uint32_t)v;
	else if (!strcmp(name, "node_to"))
		l->NodeTo = (uint32_t)v;
	else if (!strcmp(name, "weight"))
		l->Weight = (uint32_t)v;
	else if (!strcmp(name, "min_latency"))
		l->MinimumLatency = (uint32_t)v;
	else if (!strcmp(name, "max_latency"))
		l->MaximumLatency = (uint32_t)v;
	else if (!strcmp(name, "min_bandwidth"))
		l->MinimumBandwidth = (uint32_t)v;
	else if (!strcmp(name, "max_bandwidth"))
		l->MaximumBandwidth = (uint32_t)v;
	else if (!strcmp(name, "recommended_transfer_size"))
		l->RecTransferSize = (uint32_t)v;
	else if (!strcmp(name, "flags"))
		l->Flags.LinkProperty = (uint32_t)v;
}

HSAKMT_STATUS
kmt_topo_read_link(const char *root, uint32_t sysfs_id, uint32_t id, bool p2p,
		   HsaIoLinkProperties *link)
{
	char path[512];

	memset(link, 0, sizeof(*link));
	snprintf(path, sizeof(path), "%s/nodes/%u/%s/%u/properties", root, sysfs_id,
		 p2p ? "p2p_links" : "io_links", id);
	return kmt_sysfs_read_props(path, link_prop, link);
}

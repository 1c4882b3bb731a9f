/* SPDX-License-Identifier: MIT */
/* Key tables of the profile text format (see profile_keys.h). */
#include <string.h>

#include "profile_keys.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

static const struct ksim_node_prop_desc node_props[KSIM_NP_COUNT] = {
	[KSIM_NP_CPU_CORES_COUNT] = { "cpu_cores_count", 0 },
	[KSIM_NP_SIMD_COUNT] = { "simd_count", 0 },
	[KSIM_NP_MEM_BANKS_COUNT] = { "mem_banks_count", 0 },
	[KSIM_NP_CACHES_COUNT] = { "caches_count", 0 },
	[KSIM_NP_IO_LINKS_COUNT] = { "io_links_count", 0 },
	[KSIM_NP_P2P_LINKS_COUNT] = { "p2p_links_count", 0 },
	[KSIM_NP_CPU_CORE_ID_BASE] = { "cpu_core_id_base", 0 },
	[KSIM_NP_SIMD_ID_BASE] = { "simd_id_base", 0 },
	[KSIM_NP_MAX_WAVES_PER_SIMD] = { "max_waves_per_simd", 0 },
	[KSIM_NP_LDS_SIZE_IN_KB] = { "lds_size_in_kb", 0 },
	[KSIM_NP_GDS_SIZE_IN_KB] = { "gds_size_in_kb", 0 },
	[KSIM_NP_NUM_GWS] = { "num_gws", 0 },
	[KSIM_NP_WAVE_FRONT_SIZE] = { "wave_front_size", 0 },
	[KSIM_NP_ARRAY_COUNT] = { "array_count", 0 },
	[KSIM_NP_SIMD_ARRAYS_PER_ENGINE] = { "simd_arrays_per_engine", 0 },
	[KSIM_NP_CU_PER_SIMD_ARRAY] = { "cu_per_simd_array", 0 },
	[KSIM_NP_SIMD_PER_CU] = { "simd_per_cu", 0 },
	[KSIM_NP_MAX_SLOTS_SCRATCH_CU] = { "max_slots_scratch_cu", 0 },
	[KSIM_NP_GFX_TARGET_VERSION] = { "gfx_target_version", 0 },
	[KSIM_NP_VENDOR_ID] = { "vendor_id", 0 },
	[KSIM_NP_DEVICE_ID] = { "device_id", 0 },
	[KSIM_NP_LOCATION_ID] = { "location_id", 0 },
	[KSIM_NP_DOMAIN] = { "domain", 0 },
	[KSIM_NP_DRM_RENDER_MINOR] = { "drm_render_minor", 0 },
	[KSIM_NP_HIVE_ID] = { "hive_id", 0 },
	[KSIM_NP_NUM_SDMA_ENGINES] = { "num_sdma_engines", 0 },
	[KSIM_NP_NUM_SDMA_XGMI_ENGINES] = { "num_sdma_xgmi_engines", 0 },
	[KSIM_NP_NUM_SDMA_QUEUES_PER_ENGINE] = { "num_sdma_queues_per_engine", 0 },
	[KSIM_NP_NUM_CP_QUEUES] = { "num_cp_queues", 0 },
	[KSIM_NP_CWSR_SIZE] = { "cwsr_size", KSIM_NPF_OPTIONAL },
	[KSIM_NP_CTL_STACK_SIZE] = { "ctl_stack_size", KSIM_NPF_OPTIONAL },
	[KSIM_NP_MAX_ENGINE_CLK_FCOMPUTE] = { "max_engine_clk_fcompute", KSIM_NPF_GPU_ONLY },
	[KSIM_NP_LOCAL_MEM_SIZE] = { "local_mem_size", KSIM_NPF_GPU_ONLY },
	[KSIM_NP_FW_VERSION] = { "fw_version", KSIM_NPF_GPU_ONLY },
	[KSIM_NP_CAPABILITY] = { "capability", KSIM_NPF_GPU_ONLY },
	[KSIM_NP_CAPABILITY2] = { "capability2", KSIM_NPF_GPU_ONLY | KSIM_NPF_OPTIONAL },
	[KSIM_NP_DEBUG_PROP] = { "debug_prop", KSIM_NPF_GPU_ONLY },
	[KSIM_NP_SDMA_FW_VERSION] = { "sdma_fw_version", KSIM_NPF_GPU_ONLY },
	[KSIM_NP_UNIQUE_ID] = { "unique_id", KSIM_NPF_GPU_ONLY },
	[KSIM_NP_NUM_XCC] = { "num_xcc", KSIM_NPF_GPU_ONLY },
	[KSIM_NP_MAX_ENGINE_CLK_CCOMPUTE] = { "max_engine_clk_ccompute", 0 },
};

const struct ksim_node_prop_desc *
ksim_node_prop_table(void)
{
	return node_props;
}

int
ksim_node_prop_find(const char *name)
{
	for (int i = 0; i < KSIM_NP_COUNT; i++)
		if (!strcmp(node_props[i].name, name))
			return i;
	return -1;
}

#define K32(s, f) { #f, KSIM_KEY_U32, offsetof(struct s, f), 4 }
#define K64(s, f) { #f, KSIM_KEY_U64, offsetof(struct s, f), 8 }
#define KAP(f) { #f, KSIM_KEY_U64, offsetof(struct ksim_gpu, apertures.f), 8 }
#define KSTR(s, f) { #f, KSIM_KEY_STR, offsetof(struct s, f), sizeof(((struct s *)0)->f) }
#define KLIST(s, f) { #f, KSIM_KEY_U32_LIST, offsetof(struct s, f), \
		      ARRAY_SIZE(((struct s *)0)->f) }
#define TABLE(name, arr) \
	const struct ksim_key_table name = { arr, ARRAY_SIZE(arr) }

static const struct ksim_key machine_keys[] = {
	KSTR(ksim_profile, name),
	KSTR(ksim_profile, description),
	K64(ksim_profile, platform_oem),
	K64(ksim_profile, platform_id),
	K64(ksim_profile, platform_rev),
	K32(ksim_profile, generation_id),
	K64(ksim_profile, system_mem_limit),
	KSTR(ksim_profile, kernel),
};
TABLE(ksim_keys_machine, machine_keys);

static const struct ksim_key mem_bank_keys[] = {
	K32(ksim_mem_bank, heap_type),
	K64(ksim_mem_bank, size_in_bytes),
	K32(ksim_mem_bank, flags),
	K32(ksim_mem_bank, width),
	K32(ksim_mem_bank, mem_clk_max),
};
TABLE(ksim_keys_mem_bank, mem_bank_keys);

static const struct ksim_key cache_keys[] = {
	K32(ksim_cache, processor_id_low),
	K32(ksim_cache, level),
	K32(ksim_cache, size),
	K32(ksim_cache, cache_line_size),
	K32(ksim_cache, cache_lines_per_tag),
	K32(ksim_cache, association),
	K32(ksim_cache, latency),
	K32(ksim_cache, type),
};
TABLE(ksim_keys_cache, cache_keys);

static const struct ksim_key io_link_keys[] = {
	K32(ksim_io_link, type),
	K32(ksim_io_link, version_major),
	K32(ksim_io_link, version_minor),
	K32(ksim_io_link, node_from),
	K32(ksim_io_link, node_to),
	K32(ksim_io_link, weight),
	K32(ksim_io_link, min_latency),
	K32(ksim_io_link, max_latency),
	K32(ksim_io_link, min_bandwidth),
	K32(ksim_io_link, max_bandwidth),
	K32(ksim_io_link, recommended_transfer_size),
	K32(ksim_io_link, flags),
};
TABLE(ksim_keys_io_link, io_link_keys);

static const struct ksim_key gpu_keys[] = {
	KAP(lds_base),
	KAP(lds_limit),
	KAP(scratch_base),
	KAP(scratch_limit),
	KAP(gpuvm_base),
	KAP(gpuvm_limit),
	K32(ksim_gpu, doorbell_size),
	K32(ksim_gpu, doorbell_slice),
	K32(ksim_gpu, soc15),
	K32(ksim_gpu, eop_buffer_size),
	K32(ksim_gpu, ctl_stack_size),
	K32(ksim_gpu, cwsr_size),
	K32(ksim_gpu, debug_memory_size),
	K32(ksim_gpu, large_bar),
	K32(ksim_gpu, is_apu),
	K32(ksim_gpu, xnack_capable),
	K32(ksim_gpu, xnack_default),
	K32(ksim_gpu, sched_policy),
	K32(ksim_gpu, max_queues),
	K32(ksim_gpu, num_gws),
	K64(ksim_gpu, gpu_clock_hz),
	K64(ksim_gpu, vram_size),
	K64(ksim_gpu, vram_reserved),
	K32(ksim_gpu, gb_addr_config),
	K32(ksim_gpu, num_banks),
	K32(ksim_gpu, num_ranks),
	K32(ksim_gpu, num_tile_configs),
	K32(ksim_gpu, num_macro_tile_configs),
};
TABLE(ksim_keys_gpu, gpu_keys);

static const struct ksim_key drm_keys[] = {
	K32(ksim_drm, render_minor),
	K32(ksim_drm, card_minor),
	K32(ksim_drm, version_major),
	K32(ksim_drm, version_minor),
	K32(ksim_drm, version_patch),
	K32(ksim_drm, pci_domain),
	K32(ksim_drm, pci_bus),
	K32(ksim_drm, pci_dev),
	K32(ksim_drm, pci_func),
	K32(ksim_drm, subsystem_vendor),
	K32(ksim_drm, subsystem_device),
	K32(ksim_drm, device_id),
	K32(ksim_drm, chip_rev),
	K32(ksim_drm, external_rev),
	K32(ksim_drm, pci_rev),
	K32(ksim_drm, family),
	K32(ksim_drm, num_shader_engines),
	K32(ksim_drm, num_shader_arrays_per_engine),
	K32(ksim_drm, gpu_counter_freq),
	K64(ksim_drm, max_engine_clock),
	K64(ksim_drm, max_memory_clock),
	K32(ksim_drm, min_engine_clock),
	K32(ksim_drm, min_memory_clock),
	K32(ksim_drm, cu_active_number),
	K32(ksim_drm, cu_ao_mask),
	KLIST(ksim_drm, cu_bitmap),
	K32(ksim_drm, enabled_rb_pipes_mask),
	K32(ksim_drm, num_rb_pipes),
	K32(ksim_drm, num_hw_gfx_contexts),
	K64(ksim_drm, ids_flags),
	K64(ksim_drm, virtual_address_offset),
	K64(ksim_drm, virtual_address_max),
	K32(ksim_drm, virtual_address_alignment),
	K32(ksim_drm, pte_fragment_size),
	K32(ksim_drm, gart_page_size),
	K32(ksim_drm, vram_type),
	K32(ksim_drm, vram_bit_width),
	K32(ksim_drm, wave_front_size),
	K32(ksim_drm, num_shader_visible_vgprs),
	K32(ksim_drm, num_cu_per_sh),
	K32(ksim_drm, num_tcc_blocks),
	K64(ksim_drm, high_va_offset),
	K64(ksim_drm, high_va_max),
	K64(ksim_drm, vram_size),
	K64(ksim_drm, visible_vram_size),
	K64(ksim_drm, gtt_size),
	KSTR(ksim_drm, product_name),
	KSTR(ksim_drm, product_number),
	KSTR(ksim_drm, serial_number),
	KSTR(ksim_drm, vbios_version),
	KSTR(ksim_drm, vram_vendor),
	K32(ksim_drm, pcie_gen),
	K32(ksim_drm, pcie_width),
	K32(ksim_drm, power_average),
	K32(ksim_drm, power_cap),
	K32(ksim_drm, power_cap_max),
	K32(ksim_drm, temp_edge),
	K32(ksim_drm, temp_junction),
	K32(ksim_drm, temp_mem),
	K32(ksim_drm, temp_edge_crit),
	K32(ksim_drm, temp_junction_crit),
	K32(ksim_drm, temp_mem_crit),
	K32(ksim_drm, fan_rpm),
	K32(ksim_drm, fan_max_rpm),
	K32(ksim_drm, vddgfx),
	K32(ksim_drm, ras_features),
};
TABLE(ksim_keys_drm, drm_keys);

static const struct ksim_key cpu_keys[] = {
	KSTR(ksim_cpu, vendor_id),
	K32(ksim_cpu, family),
	K32(ksim_cpu, model),
	K32(ksim_cpu, stepping),
	KSTR(ksim_cpu, model_name),
	K32(ksim_cpu, mhz),
	K32(ksim_cpu, microcode),
	K32(ksim_cpu, cpuid_level),
	K32(ksim_cpu, sockets),
	K32(ksim_cpu, cores_per_socket),
	K32(ksim_cpu, threads_per_core),
	K32(ksim_cpu, numa_per_socket),
	KSTR(ksim_cpu, flags),
};
TABLE(ksim_keys_cpu, cpu_keys);

static const struct ksim_key cpu_cache_keys[] = {
	K32(ksim_cpu_cache, level),
	KSTR(ksim_cpu_cache, type),
	K32(ksim_cpu_cache, size),
	K32(ksim_cpu_cache, ways),
	K32(ksim_cpu_cache, line_size),
	K32(ksim_cpu_cache, partitions),
	K32(ksim_cpu_cache, cores),
};
TABLE(ksim_keys_cpu_cache, cpu_cache_keys);

const struct ksim_key *
ksim_key_find(const struct ksim_key_table *t, const char *name)
{
	for (unsigned int i = 0; i < t->count; i++)
		if (!strcmp(t->keys[i].name, name))
			return &t->keys[i];
	return NULL;
}

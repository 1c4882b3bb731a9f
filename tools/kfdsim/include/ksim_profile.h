/* SPDX-License-Identifier: MIT */
/*
 * kfdsim device profiles: the machine a simulated /dev/kfd describes.
 *
 * A profile is everything the kernel would show about a machine: per
 * topology node every key of sysfs `properties` (in the kernel's print
 * order), the node name and gpu_id, memory banks, caches, io_links and
 * p2p_links; per GPU the facts KFD ioctls answer with (apertures, doorbell
 * slice, CWSR sizes, VRAM accounting) and the DRM device info the amdgpu
 * render node reports (AMDGPU_INFO DEV_INFO / VRAM_GTT / MEMORY).
 *
 * The model (ksim.h) answers ioctls from it; the shim renders sysfs from it
 * (the ksim_profile_format_*() helpers print the exact kernel text).
 *
 * Text format (what ksim_profile_load() reads and ksim_profile_save()
 * writes). Line oriented; '#' starts a comment; blank lines are ignored.
 * A section header is one of
 *
 *	[machine]
 *	[node N]			N = 0.. in order, CPU nodes first
 *	[node N mem_bank M]
 *	[node N cache C]		may expand to several caches, see below
 *	[node N io_link L]
 *	[node N p2p_link L]
 *	[node N gpu]			GPU nodes only: KFD-side facts
 *	[node N drm]			GPU nodes only: amdgpu DRM facts
 *
 * and every other line is `key value`. Values are unsigned decimal or 0x
 * hex; string values (machine name/description, node name) take the rest
 * of the line and may be double-quoted (`name ""` is the CPU node's empty
 * name). Lists (cache sibling_map, drm cu_bitmap) are comma separated.
 * Indices of sub-sections must count up from 0 without gaps. In a cache
 * section, `repeat R` makes R identical caches whose processor_id_low
 * advances by `processor_id_step` (default 1): a GPU's per-CU caches take
 * one section. The counts in [node N] (mem_banks_count, caches_count,
 * io_links_count, p2p_links_count) may be omitted; they are derived from the
 * sections and, when given, must agree. Keys left out default to 0, except
 * that a node's optional keys (cwsr_size, ctl_stack_size, capability2, and
 * an io_link's recommended_sdma_engine_id_mask) are printed in sysfs only
 * when the profile names them — as on the kernel versions that have them.
 *
 * The [machine] section's `kernel` key names the kernel flavour the machine
 * runs ("upstream", the default, or "rocm": AMD's DKMS driver, see ksim.h);
 * the KFDSIM_KERNEL environment variable overrides it.
 *
 * The CPU side of the machine (what /proc/cpuinfo, /sys/devices/system/cpu
 * and /sys/devices/system/node show, and what get_nprocs() and
 * sysconf(_SC_NPROCESSORS_*) answer) is described by two more sections:
 *
 *	[cpu]				one per profile, optional
 *	[cpu cache C]			C = 0.., in sysfs index order
 *
 * [cpu] keys (struct ksim_cpu): vendor_id, family, model, stepping,
 * model_name, mhz, microcode, cpuid_level (what /proc/cpuinfo prints;
 * cpuid_level defaults to 16), sockets, cores_per_socket, threads_per_core
 * and numa_per_socket (the shape; sockets, threads and NUMA nodes per
 * socket default to 1), flags (the cpuinfo flags; "" or absent: an x86-64
 * baseline, see docs/kfdsim.md). [cpu cache C] keys (struct
 * ksim_cpu_cache): level, type (Data, Instruction or Unified), size (KiB),
 * ways, line_size, partitions (physical_line_partition, default 1) and
 * cores (how many cores share one instance, their SMT threads with them;
 * default 1).
 *
 * Logical CPUs are numbered as Linux numbers them on AMD servers: first
 * thread 0 of every core (socket by socket), then thread 1, ... Each socket
 * splits into numa_per_socket NUMA nodes of consecutive cores; NUMA node i
 * is KFD CPU node i. APIC IDs are packed: socket * cores_per_socket *
 * threads_per_core + core * threads_per_core + thread. The profile is
 * refused when the KFD CPU nodes disagree: their number must be sockets *
 * numa_per_socket, each one's cpu_cores_count the logical CPUs of its NUMA
 * node and its cpu_core_id_base the APIC ID of that node's first CPU.
 * Without a [cpu] section the CPU side is derived from the KFD CPU nodes
 * (one socket per CPU node, node 0's cpu_cores_count cores each, no SMT)
 * and is not written back by ksim_profile_save().
 *
 * Errors are reported as "origin:line: message"; a malformed file never
 * crashes the parser.
 */
#ifndef KSIM_PROFILE_H
#define KSIM_PROFILE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

/*
 * Node `properties` keys, in the order the kernel prints them
 * (kfd_topology.c node_show). Index into struct ksim_node.props[].
 */
enum ksim_node_prop {
	KSIM_NP_CPU_CORES_COUNT,
	KSIM_NP_SIMD_COUNT,
	KSIM_NP_MEM_BANKS_COUNT,
	KSIM_NP_CACHES_COUNT,
	KSIM_NP_IO_LINKS_COUNT,
	KSIM_NP_P2P_LINKS_COUNT,
	KSIM_NP_CPU_CORE_ID_BASE,
	KSIM_NP_SIMD_ID_BASE,
	KSIM_NP_MAX_WAVES_PER_SIMD,
	KSIM_NP_LDS_SIZE_IN_KB,
	KSIM_NP_GDS_SIZE_IN_KB,
	KSIM_NP_NUM_GWS,
	KSIM_NP_WAVE_FRONT_SIZE,
	KSIM_NP_ARRAY_COUNT,
	KSIM_NP_SIMD_ARRAYS_PER_ENGINE,
	KSIM_NP_CU_PER_SIMD_ARRAY,
	KSIM_NP_SIMD_PER_CU,
	KSIM_NP_MAX_SLOTS_SCRATCH_CU,
	KSIM_NP_GFX_TARGET_VERSION,
	KSIM_NP_VENDOR_ID,
	KSIM_NP_DEVICE_ID,
	KSIM_NP_LOCATION_ID,
	KSIM_NP_DOMAIN,
	KSIM_NP_DRM_RENDER_MINOR,
	KSIM_NP_HIVE_ID,
	KSIM_NP_NUM_SDMA_ENGINES,
	KSIM_NP_NUM_SDMA_XGMI_ENGINES,
	KSIM_NP_NUM_SDMA_QUEUES_PER_ENGINE,
	KSIM_NP_NUM_CP_QUEUES,
	KSIM_NP_CWSR_SIZE,		/* optional (newest kernels) */
	KSIM_NP_CTL_STACK_SIZE,		/* optional (newest kernels) */
	KSIM_NP_MAX_ENGINE_CLK_FCOMPUTE,	/* GPU only from here ... */
	KSIM_NP_LOCAL_MEM_SIZE,
	KSIM_NP_FW_VERSION,
	KSIM_NP_CAPABILITY,
	KSIM_NP_CAPABILITY2,		/* optional (≈6.15+) */
	KSIM_NP_DEBUG_PROP,
	KSIM_NP_SDMA_FW_VERSION,
	KSIM_NP_UNIQUE_ID,
	KSIM_NP_NUM_XCC,		/* ... to here */
	KSIM_NP_MAX_ENGINE_CLK_CCOMPUTE,
	KSIM_NP_COUNT
};

/* Where a node property is printed. */
#define KSIM_NPF_GPU_ONLY	0x1	/* not printed for CPU nodes */
#define KSIM_NPF_OPTIONAL	0x2	/* printed only if the profile names it */

/* One row of the node property table. */
struct ksim_node_prop_desc {
	const char *name;	/* sysfs key */
	unsigned int flags;	/* KSIM_NPF_* */
};

/* ksim_node_prop_table() - the KSIM_NP_COUNT rows, in print order. */
const struct ksim_node_prop_desc *ksim_node_prop_table(void);

/* Memory bank heap types (mem_banks/M/properties heap_type). */
#define KSIM_HEAP_SYSTEM	0
#define KSIM_HEAP_FB_PUBLIC	1
#define KSIM_HEAP_FB_PRIVATE	2

struct ksim_mem_bank {
	uint32_t heap_type;
	uint64_t size_in_bytes;
	uint32_t flags;
	uint32_t width;
	uint32_t mem_clk_max;
};

/* Cache type bits. */
#define KSIM_CACHE_DATA		0x1
#define KSIM_CACHE_INSTRUCTION	0x2
#define KSIM_CACHE_CPU		0x4
#define KSIM_CACHE_HSACU	0x8

/* The kernel prints 32 bytes of sibling bits at most. */
#define KSIM_SIBLING_MAX	256

struct ksim_cache {
	uint32_t processor_id_low;
	uint32_t level;
	uint32_t size;			/* KiB */
	uint32_t cache_line_size;
	uint32_t cache_lines_per_tag;
	uint32_t association;
	uint32_t latency;
	uint32_t type;			/* KSIM_CACHE_* */
	uint16_t sibling_count;		/* entries printed in sibling_map */
	uint8_t sibling_map[KSIM_SIBLING_MAX];	/* 0 or 1 each */
};

/* io_link types and flags. */
#define KSIM_IOLINK_HT		1
#define KSIM_IOLINK_PCIE	2
#define KSIM_IOLINK_QPI		5
#define KSIM_IOLINK_XGMI	11
#define KSIM_IOLINK_F_ENABLED		0x01
#define KSIM_IOLINK_F_NON_COHERENT	0x02
#define KSIM_IOLINK_F_NO_ATOMICS_32	0x04
#define KSIM_IOLINK_F_NO_ATOMICS_64	0x08
#define KSIM_IOLINK_F_NO_P2P_DMA	0x10

struct ksim_io_link {
	uint32_t type;
	uint32_t version_major;
	uint32_t version_minor;
	uint32_t node_from;
	uint32_t node_to;
	uint32_t weight;
	uint32_t min_latency;
	uint32_t max_latency;
	uint32_t min_bandwidth;
	uint32_t max_bandwidth;
	uint32_t recommended_transfer_size;
	uint32_t recommended_sdma_engine_id_mask;
	uint8_t has_sdma_engine_id_mask;	/* print that key (1.17+) */
	uint32_t flags;
};

/*
 * Per-process apertures of a GPU (GET_PROCESS_APERTURES(_NEW)), as
 * kfd_init_apertures_v9 computes them.
 */
struct ksim_apertures {
	uint64_t lds_base;
	uint64_t lds_limit;
	uint64_t scratch_base;
	uint64_t scratch_limit;
	uint64_t gpuvm_base;
	uint64_t gpuvm_limit;
};

/* KFD-side facts of a GPU that sysfs does not show. Section [node N gpu]. */
struct ksim_gpu {
	struct ksim_apertures apertures;
	uint32_t doorbell_size;		/* bytes per doorbell: 8 SOC15, 4 gfx8 */
	uint32_t doorbell_slice;	/* process doorbell page: 8 KiB SOC15 */
	uint32_t soc15;			/* doorbell offsets carry the in-page offset */
	uint32_t eop_buffer_size;	/* required CREATE_QUEUE eop size */
	uint32_t ctl_stack_size;	/* required CREATE_QUEUE ctl_stack_size */
	uint32_t cwsr_size;		/* required ctx_save_restore_size */
	uint32_t debug_memory_size;	/* per-XCC debugger area after CWSR */
	uint32_t large_bar;		/* PUBLIC VRAM allowed */
	uint32_t is_apu;		/* VRAM allocations come from GTT */
	uint32_t xnack_capable;		/* per-process XNACK may be enabled */
	uint32_t xnack_default;		/* XNACK mode of a new process */
	uint32_t sched_policy;		/* 0 HWS, 1 HWS no oversubscr., 2 NO_HWS */
	uint32_t max_queues;		/* user queues per process per GPU */
	uint32_t num_gws;		/* 0: ALLOC_QUEUE_GWS -> ENODEV */
	uint64_t gpu_clock_hz;		/* GET_CLOCK_COUNTERS gpu counter rate */
	uint64_t vram_size;		/* KFD-allocatable VRAM (real_vram_size) */
	uint64_t vram_reserved;		/* page-table + RAS reserve */
	uint32_t gb_addr_config;	/* GET_TILE_CONFIG, READ_MMR_REG 0x263e */
	uint32_t num_banks;
	uint32_t num_ranks;
	uint32_t num_tile_configs;	/* tile config entries (zeros on gfx9+) */
	uint32_t num_macro_tile_configs;
};

/*
 * DRM facts of a GPU (the render node). Section [node N drm]. The fields
 * mirror struct drm_amdgpu_info_device where the names match.
 */
struct ksim_drm {
	uint32_t render_minor;		/* 128.. (== drm_render_minor) */
	uint32_t card_minor;		/* 0.. (/dev/dri/cardN) */
	uint32_t version_major;		/* DRM_IOCTL_VERSION: 3 for amdgpu */
	uint32_t version_minor;
	uint32_t version_patch;
	uint32_t pci_domain;
	uint32_t pci_bus;
	uint32_t pci_dev;
	uint32_t pci_func;
	uint32_t subsystem_vendor;
	uint32_t subsystem_device;
	uint32_t device_id;
	uint32_t chip_rev;
	uint32_t external_rev;
	uint32_t pci_rev;		/* amdgpu.ids marketing name key */
	uint32_t family;		/* AMDGPU_FAMILY_*: AI 141, NV 143, GC_11 145 */
	uint32_t num_shader_engines;
	uint32_t num_shader_arrays_per_engine;
	uint32_t gpu_counter_freq;	/* kHz */
	uint64_t max_engine_clock;	/* kHz */
	uint64_t max_memory_clock;	/* kHz */
	uint32_t min_engine_clock;	/* kHz */
	uint32_t min_memory_clock;	/* kHz */
	uint32_t cu_active_number;
	uint32_t cu_ao_mask;
	uint32_t cu_bitmap[16];		/* [4][4], row-major */
	uint32_t enabled_rb_pipes_mask;
	uint32_t num_rb_pipes;
	uint32_t num_hw_gfx_contexts;
	uint64_t ids_flags;
	uint64_t virtual_address_offset;
	uint64_t virtual_address_max;
	uint32_t virtual_address_alignment;
	uint32_t pte_fragment_size;
	uint32_t gart_page_size;
	uint32_t vram_type;
	uint32_t vram_bit_width;
	uint32_t wave_front_size;
	uint32_t num_shader_visible_vgprs;
	uint32_t num_cu_per_sh;
	uint32_t num_tcc_blocks;
	uint64_t high_va_offset;
	uint64_t high_va_max;
	uint64_t vram_size;		/* AMDGPU_INFO_VRAM_GTT / MEMORY */
	uint64_t visible_vram_size;
	uint64_t gtt_size;
	/*
	 * What monitoring tools (rocm-smi) read from the PCI function's
	 * sysfs directory and its hwmon. A string left empty, or a number
	 * left 0, hides the file, as amdgpu hides what a board lacks.
	 */
	char product_name[64];		/* product_name (board FRU EEPROM) */
	char product_number[32];	/* product_number */
	char serial_number[32];		/* serial_number */
	char vbios_version[32];		/* vbios_version, e.g. 113-D67301-063 */
	char vram_vendor[16];		/* mem_info_vram_vendor: samsung, hynix, ... */
	uint32_t pcie_gen;		/* {current,max}_link_speed: PCIe 1..6 */
	uint32_t pcie_width;		/* {current,max}_link_width: lanes */
	uint32_t power_average;		/* hwmon power1_average, W */
	uint32_t power_cap;		/* hwmon power1_cap (and _default), W */
	uint32_t power_cap_max;		/* hwmon power1_cap_max, W */
	uint32_t temp_edge;		/* hwmon temp1_input, degrees C */
	uint32_t temp_junction;		/* hwmon temp2_input, degrees C */
	uint32_t temp_mem;		/* hwmon temp3_input, degrees C */
	uint32_t temp_edge_crit;	/* hwmon temp1_crit, degrees C */
	uint32_t temp_junction_crit;	/* hwmon temp2_crit, degrees C */
	uint32_t temp_mem_crit;		/* hwmon temp3_crit, degrees C */
	uint32_t fan_rpm;		/* hwmon fan1_input; 0: no fan (passive board) */
	uint32_t fan_max_rpm;		/* hwmon fan1_max */
	uint32_t vddgfx;		/* hwmon in0_input, mV */
	/*
	 * RAS: amdgpu's feature mask of the blocks with error handling
	 * (bit n: ras_block_string[n], umc 0, sdma 1, gfx 2, ...); 0: the
	 * GPU has no RAS (consumer boards), so no ras/ directory and
	 * AMDGPU_INFO_RAS_ENABLED_FEATURES fails.
	 */
	uint32_t ras_features;
};

struct ksim_node {
	uint32_t gpu_id;		/* 0 for CPU nodes */
	char name[64];			/* sysfs name; "" for CPU nodes */
	uint64_t props[KSIM_NP_COUNT];	/* enum ksim_node_prop */
	uint64_t props_present;		/* bit per optional prop the profile names */
	unsigned int n_mem_banks;
	struct ksim_mem_bank *mem_banks;
	unsigned int n_caches;
	struct ksim_cache *caches;
	unsigned int n_io_links;
	struct ksim_io_link *io_links;
	unsigned int n_p2p_links;
	struct ksim_io_link *p2p_links;
	/* GPU nodes only (gpu_id != 0), else NULL */
	struct ksim_gpu *gpu;
	struct ksim_drm *drm;
};

/* One cache of every core (or group of cores). Section [cpu cache C]. */
struct ksim_cpu_cache {
	uint32_t level;			/* 1.. */
	char type[16];			/* "Data", "Instruction" or "Unified" */
	uint32_t size;			/* KiB */
	uint32_t ways;			/* ways_of_associativity */
	uint32_t line_size;		/* coherency_line_size, bytes */
	uint32_t partitions;		/* physical_line_partition */
	uint32_t cores;			/* cores sharing one instance */
};

#define KSIM_CPU_MAX_CACHES	8
#define KSIM_CPU_MAX		4096	/* logical CPUs of a machine */
#define KSIM_CPU_FLAGS_MAX	1024

/* The CPUs of the machine. Section [cpu]. */
struct ksim_cpu {
	char vendor_id[16];		/* AuthenticAMD, GenuineIntel */
	uint32_t family;		/* cpu family */
	uint32_t model;
	uint32_t stepping;
	char model_name[64];
	uint32_t mhz;			/* cpu MHz */
	uint32_t microcode;		/* 0: no microcode line */
	uint32_t cpuid_level;
	uint32_t sockets;
	uint32_t cores_per_socket;
	uint32_t threads_per_core;
	uint32_t numa_per_socket;
	char flags[KSIM_CPU_FLAGS_MAX];	/* "": the x86-64 baseline */
	unsigned int n_caches;
	struct ksim_cpu_cache caches[KSIM_CPU_MAX_CACHES];
	uint8_t derived;		/* no [cpu] section: derived, not saved */
};

struct ksim_profile {
	char name[64];
	char description[128];
	uint64_t platform_oem;		/* system_properties */
	uint64_t platform_id;
	uint64_t platform_rev;
	uint32_t generation_id;		/* topology/generation_id */
	uint64_t system_mem_limit;	/* KFD system-memory (GTT+userptr) limit; 0: derived */
	char kernel[16];		/* kernel flavour: "", "upstream" or "rocm" */
	unsigned int n_nodes;
	struct ksim_node *nodes;
	struct ksim_cpu cpu;		/* the CPU side (derived when absent) */
};

/* ksim_node_is_gpu() - whether a node is a GPU node. */
static inline int
ksim_node_is_gpu(const struct ksim_node *n)
{
	return n->gpu_id != 0;
}

/*
 * ksim_profile_builtin_names() - names of the compiled-in profiles
 * ("mi210" first: the default, "mi100", "rx6900xt", "mi300x", "mi210x2").
 * @count:	set to the number of names
 *
 * Return: a static array of static strings.
 */
const char *const *ksim_profile_builtin_names(unsigned int *count);

/*
 * ksim_profile_builtin_text() - the text of a compiled-in profile, so a user
 * can copy and edit it (`kfdtrace sim --dump-profile`).
 *
 * Return: a static NUL-terminated string, or NULL for an unknown name.
 */
const char *ksim_profile_builtin_text(const char *name);

/*
 * ksim_profile_builtin() - parse a compiled-in profile. NULL or "" selects
 * the default (mi210).
 *
 * Return: a new profile (free with ksim_profile_free), or NULL when the
 * name is unknown or memory is short.
 */
struct ksim_profile *ksim_profile_builtin(const char *name);

/*
 * ksim_profile_parse() - parse profile text.
 * @text:	the text (need not be NUL-terminated)
 * @len:	its length in bytes
 * @origin:	name used in error messages (a path, "<builtin mi210>")
 * @err:	on failure set to a malloc'd "origin:line: message" (may be NULL)
 *
 * Return: a new profile, or NULL on error.
 */
struct ksim_profile *ksim_profile_parse(const char *text, size_t len,
					const char *origin, char **err);

/*
 * ksim_profile_load() - read and parse a profile file. A path naming no file
 * but equal to a builtin name loads that builtin. The file must be a
 * regular one of at most 16 MiB (kc_read_regular()): a FIFO, device or
 * directory is refused at once ("PATH: a FIFO, not a regular file"),
 * never waited on.
 * @path:	file path or builtin name
 * @err:	on failure set to a malloc'd message (free() it); may be NULL
 *
 * Return: a new profile, or NULL on error.
 */
struct ksim_profile *ksim_profile_load(const char *path, char **err);

/*
 * ksim_profile_save() - write a profile in the text format. Runs of caches
 * that differ only by an evenly stepped processor_id_low are written as one
 * section with `repeat`, so builtins round-trip to compact files.
 *
 * Return: 0, or -errno on a write error.
 */
int ksim_profile_save(const struct ksim_profile *prof, FILE *out);

/*
 * ksim_profile_validate() - check a profile built in memory (the parser runs
 * it too): nodes CPU-first, unique non-zero 16-bit gpu_ids, counts matching
 * the arrays, GPU nodes with gpu/drm facts and a render minor in 128..255,
 * link endpoints inside the machine.
 * @err:	on failure set to a malloc'd message; may be NULL
 *
 * Return: 0 if valid, -EINVAL otherwise.
 */
int ksim_profile_validate(const struct ksim_profile *prof, char **err);

/* ksim_profile_dup() - deep copy. Return: the copy, or NULL (ENOMEM). */
struct ksim_profile *ksim_profile_dup(const struct ksim_profile *prof);

/*
 * ksim_profile_equal() - deep comparison (the round-trip test's oracle).
 *
 * Return: 1 if equal, 0 otherwise.
 */
int ksim_profile_equal(const struct ksim_profile *a,
		       const struct ksim_profile *b);

/* ksim_profile_free() - free a profile; NULL is allowed. */
void ksim_profile_free(struct ksim_profile *prof);

/*
 * ksim_profile_ram() - the machine's RAM: the system-heap memory banks of
 * its CPU nodes, in bytes (0 if the profile gives none).
 */
uint64_t ksim_profile_ram(const struct ksim_profile *prof);

/*
 * ksim_profile_gpu_node() - the node index of a gpu_id.
 *
 * Return: the index, or -1 if no GPU node has that id (0 never matches).
 */
int ksim_profile_gpu_node(const struct ksim_profile *prof, uint32_t gpu_id);

/*
 * ksim_profile_render_node() - the node index of a render minor.
 *
 * Return: the index, or -1.
 */
int ksim_profile_render_node(const struct ksim_profile *prof,
			     unsigned int render_minor);

/* Where one logical CPU sits (ksim_cpu_locate()). */
struct ksim_cpu_pos {
	unsigned int socket;
	unsigned int core;		/* within the socket */
	unsigned int thread;		/* within the core */
	unsigned int numa;		/* NUMA node == KFD CPU node */
	unsigned int apicid;
};

/* ksim_cpu_count() - the logical CPUs of the machine (0 for a bad shape). */
unsigned int ksim_cpu_count(const struct ksim_cpu *cpu);

/* ksim_cpu_numa_count() - the NUMA nodes (sockets * numa_per_socket). */
unsigned int ksim_cpu_numa_count(const struct ksim_cpu *cpu);

/*
 * ksim_cpu_locate() - socket, core, thread, NUMA node and APIC ID of
 * logical CPU @n (< ksim_cpu_count()).
 */
void ksim_cpu_locate(const struct ksim_cpu *cpu, unsigned int n,
		     struct ksim_cpu_pos *pos);

/*
 * ksim_cpu_index() - the logical CPU number of (socket, core, thread);
 * the inverse of ksim_cpu_locate().
 */
unsigned int ksim_cpu_index(const struct ksim_cpu *cpu, unsigned int socket,
			    unsigned int core, unsigned int thread);

/*
 * ksim_cpu_cache_instance() - which instance of cache @c CPU @n uses
 * (numbered across the machine: the sysfs `id`), and through @first_core
 * the socket's first core sharing it.
 */
unsigned int ksim_cpu_cache_instance(const struct ksim_cpu *cpu,
				     unsigned int c, unsigned int n,
				     unsigned int *first_core);

/*
 * ksim_cpu_flags() - the cpuinfo flags: the profile's, or the x86-64
 * baseline (with "ht" when a package has more than one logical CPU).
 */
const char *ksim_cpu_flags(const struct ksim_cpu *cpu);

/*
 * ksim_cpu_derive() - fill prof->cpu from the KFD CPU nodes (one socket
 * per CPU node with node 0's cpu_cores_count cores, one thread each, caches
 * of an EPYC 7003) and mark it derived.
 */
void ksim_cpu_derive(struct ksim_profile *prof);

/*
 * ksim_cpu_validate() - check prof->cpu and that the KFD CPU nodes agree
 * with it (see the format comment above).
 * @bad_node:	set to the KFD node at fault, or -1 for the [cpu] sections
 * @bad_key:	set to the key at fault (a [node N] or [cpu] key), or NULL
 * @bad_cache:	set to the [cpu cache C] at fault, or -1
 * @err:	on failure set to a malloc'd message; may be NULL
 *
 * Return: 0 if consistent, -EINVAL otherwise.
 */
int ksim_cpu_validate(const struct ksim_profile *prof, int *bad_node,
		      const char **bad_key, int *bad_cache, char **err);

/*
 * sysfs renderers. Each writes the exact text the kernel's file holds (lines
 * "key value\n") into @buf like snprintf: at most @len bytes including the
 * NUL, and returns the length the full text needs, or -EINVAL for a bad
 * index. @abi_minor gates keys by ABI (recommended_sdma_engine_id_mask
 * needs 17+); pass 0 for "newest".
 */

/* topology/system_properties */
int ksim_format_system_properties(const struct ksim_profile *prof,
				  char *buf, size_t len);
/* topology/nodes/N/properties */
int ksim_format_node_properties(const struct ksim_profile *prof,
				unsigned int node, unsigned int abi_minor,
				char *buf, size_t len);
/* topology/nodes/N/mem_banks/M/properties */
int ksim_format_mem_bank(const struct ksim_profile *prof, unsigned int node,
			 unsigned int bank, char *buf, size_t len);
/* topology/nodes/N/caches/C/properties */
int ksim_format_cache(const struct ksim_profile *prof, unsigned int node,
		      unsigned int cache, char *buf, size_t len);
/* topology/nodes/N/io_links/L/properties (@p2p: p2p_links/L) */
int ksim_format_io_link(const struct ksim_profile *prof, unsigned int node,
			unsigned int link, int p2p, unsigned int abi_minor,
			char *buf, size_t len);

#ifdef __cplusplus
}
#endif

#endif /* KSIM_PROFILE_H */

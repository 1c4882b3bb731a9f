/* SPDX-License-Identifier: MIT */
/*
 * The /dev/kfd ioctl ABI, written for kfdtrace from the published layouts.
 *
 * This header does not include <linux/kfd_ioctl.h>: the distribution copy is
 * ABI 1.11 (Linux 6.1) and lacks the ioctls a ROCm process uses today
 * (EXPORT_DMABUF, RUNTIME_ENABLE, DBG_TRAP, CREATE_PROCESS and the ROCm DKMS
 * range 0x80..0x87). Every struct here is checked against the 1.11 kernel
 * header at build time where that header has it (formats/schema/abi_check.c).
 * Two families have a part of their own, included where they stand:
 * the 1.13 debugger (kfd_abi_debug.h) and the ROCm DKMS range
 * (kfd_abi_rocm.h); the request codes of every family stay here.
 *
 * Conventions:
 *   struct kfd_abi_<name>_args	  an ioctl argument struct
 *   struct kfd_abi_<name>	  an element of an indirect buffer
 *   KFD_ABI_IOC_<NAME>		  the request code
 *   KFD_ABI_*			  every other constant
 *
 * Layouts are those of x86-64 and every other 64-bit Linux target: all u64
 * members are naturally aligned, so no packing attributes are needed.
 */
#ifndef KFDTRACE_KFD_ABI_H
#define KFDTRACE_KFD_ABI_H

#include <stdint.h>
#include <linux/ioctl.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ABI version this header describes (plus the ROCm-only range). */
#define KFD_ABI_MAJOR_VERSION		1
#define KFD_ABI_MINOR_VERSION		23

/* The ioctl type byte. Console ioctls share it, so never decode by it alone. */
#define KFD_ABI_IOCTL_BASE		'K'

/* Dispatcher ranges: [START, END) upstream; [START_2, END_2] in ROCm DKMS. */
#define KFD_ABI_COMMAND_START		0x01
#define KFD_ABI_COMMAND_END		0x29	/* 0x28 from 1.23 */
#define KFD_ABI_COMMAND_START_2		0x80
#define KFD_ABI_COMMAND_END_2		0x87

/* Request code helpers (the generic Linux _IOC layout). */
#define KFD_ABI_IOC_NR(req)		(((req) >> _IOC_NRSHIFT) & _IOC_NRMASK)
#define KFD_ABI_IOC_TYPE(req)		(((req) >> _IOC_TYPESHIFT) & _IOC_TYPEMASK)
#define KFD_ABI_IOC_SIZE(req)		(((req) >> _IOC_SIZESHIFT) & _IOC_SIZEMASK)
#define KFD_ABI_IOC_DIR(req)		(((req) >> _IOC_DIRSHIFT) & _IOC_DIRMASK)
/* Replace the size bits of a request (SVM carries nattr * 8 extra bytes). */
#define KFD_ABI_IOC_WITH_SIZE(req, size)				\
	(((req) & ~((unsigned long)_IOC_SIZEMASK << _IOC_SIZESHIFT)) |	\
	 (((unsigned long)(size) & _IOC_SIZEMASK) << _IOC_SIZESHIFT))

/* ------------------------------------------------------------------ */
/* Memory handles and mmap offsets                                     */
/* ------------------------------------------------------------------ */

/* A BO handle is the owning gpu_id in the high word and an IDR id below. */
#define KFD_ABI_MAKE_HANDLE(gpu_id, idr)				\
	(((uint64_t)(uint32_t)(gpu_id) << 32) | (uint32_t)(idr))
#define KFD_ABI_HANDLE_GPU_ID(handle)	((uint32_t)((uint64_t)(handle) >> 32))
#define KFD_ABI_HANDLE_IDR(handle)	((uint32_t)((uint64_t)(handle) & 0xffffffffu))

/*
 * Byte offsets for mmap() on /dev/kfd: bits 63:62 select the kind of mapping,
 * bits 61:46 carry a 16-bit gpu_id, the low 46 bits are free for a value
 * (the doorbell offset inside the process's doorbell page on SOC15).
 */
#define KFD_ABI_MMAP_TYPE_SHIFT		62
#define KFD_ABI_MMAP_TYPE_MASK		(3ULL << KFD_ABI_MMAP_TYPE_SHIFT)
#define KFD_ABI_MMAP_TYPE_DOORBELL	(3ULL << KFD_ABI_MMAP_TYPE_SHIFT)
#define KFD_ABI_MMAP_TYPE_EVENTS	(2ULL << KFD_ABI_MMAP_TYPE_SHIFT)
#define KFD_ABI_MMAP_TYPE_RESERVED_MEM	(1ULL << KFD_ABI_MMAP_TYPE_SHIFT)
#define KFD_ABI_MMAP_TYPE_MMIO		(0ULL << KFD_ABI_MMAP_TYPE_SHIFT)
#define KFD_ABI_MMAP_GPU_ID_SHIFT	46
#define KFD_ABI_MMAP_GPU_ID_WIDTH	16
#define KFD_ABI_MMAP_GPU_ID_MASK					\
	(((1ULL << KFD_ABI_MMAP_GPU_ID_WIDTH) - 1) << KFD_ABI_MMAP_GPU_ID_SHIFT)
#define KFD_ABI_MMAP_VALUE_MASK		((1ULL << KFD_ABI_MMAP_GPU_ID_SHIFT) - 1)
#define KFD_ABI_MMAP_GPU_ID(gpu_id)					\
	(((uint64_t)(gpu_id) << KFD_ABI_MMAP_GPU_ID_SHIFT) & KFD_ABI_MMAP_GPU_ID_MASK)
#define KFD_ABI_MMAP_GET_GPU_ID(off)					\
	((uint32_t)(((uint64_t)(off) & KFD_ABI_MMAP_GPU_ID_MASK) >>	\
		    KFD_ABI_MMAP_GPU_ID_SHIFT))
#define KFD_ABI_MMAP_GET_TYPE(off)	((uint64_t)(off) & KFD_ABI_MMAP_TYPE_MASK)
#define KFD_ABI_MMAP_OFFSET(type, gpu_id, value)			\
	((type) | KFD_ABI_MMAP_GPU_ID(gpu_id) |				\
	 ((uint64_t)(value) & KFD_ABI_MMAP_VALUE_MASK))

/* The events page: 4096 slots of 8 bytes; slots start all-ones. */
#define KFD_ABI_SIGNAL_EVENT_LIMIT	4096
#define KFD_ABI_EVENTS_PAGE_SIZE	(KFD_ABI_SIGNAL_EVENT_LIMIT * 8)
#define KFD_ABI_UNSIGNALED_EVENT_SLOT	0xffffffffffffffffULL
/* Non-signal events get ids from here up. */
#define KFD_ABI_FIRST_NONSIGNAL_EVENT_ID 0x40000000u

#define KFD_ABI_INVALID_FD		0xffffffffu
#define KFD_ABI_INVALID_GPUID		0xffffffffu
#define KFD_ABI_INVALID_QUEUEID		0xffffffffu

/* Register offsets inside the MMIO remap page. */
#define KFD_ABI_MMIO_REMAP_HDP_MEM_FLUSH_CNTL	0
#define KFD_ABI_MMIO_REMAP_HDP_REG_FLUSH_CNTL	4

/* ------------------------------------------------------------------ */
/* 0x01 GET_VERSION                                                    */
/* ------------------------------------------------------------------ */

struct kfd_abi_get_version_args {
	uint32_t major_version;		/* out */
	uint32_t minor_version;		/* out */
};

/* ------------------------------------------------------------------ */
/* Queues: 0x02 CREATE, 0x03 DESTROY, 0x07 UPDATE, 0x1A CU mask,       */
/* 0x1B wave state, 0x1E GWS                                           */
/* ------------------------------------------------------------------ */

#define KFD_ABI_QUEUE_TYPE_COMPUTE		0
#define KFD_ABI_QUEUE_TYPE_SDMA			1
#define KFD_ABI_QUEUE_TYPE_COMPUTE_AQL		2
#define KFD_ABI_QUEUE_TYPE_SDMA_XGMI		3
#define KFD_ABI_QUEUE_TYPE_SDMA_BY_ENG_ID	4	/* 1.17 */

#define KFD_ABI_MAX_QUEUE_PERCENTAGE	100
#define KFD_ABI_MAX_QUEUE_PRIORITY	15
#define KFD_ABI_MIN_QUEUE_RING_SIZE	1024

struct kfd_abi_create_queue_args {
	uint64_t ring_base_address;		/* in */
	uint64_t write_pointer_address;		/* in, despite old comments */
	uint64_t read_pointer_address;		/* in */
	uint64_t doorbell_offset;		/* out: mmap offset | in-page offset */
	uint32_t ring_size;			/* in (clamped up to 1024, written back) */
	uint32_t gpu_id;			/* in */
	uint32_t queue_type;			/* in: KFD_ABI_QUEUE_TYPE_* */
	uint32_t queue_percentage;		/* in: low byte percent, bits 8..15 xcc */
	uint32_t queue_priority;		/* in: 0..15 */
	uint32_t queue_id;			/* out */
	uint64_t eop_buffer_address;		/* in */
	uint64_t eop_buffer_size;		/* in */
	uint64_t ctx_save_restore_address;	/* in */
	uint32_t ctx_save_restore_size;		/* in */
	uint32_t ctl_stack_size;		/* in */
	/* Added in 1.17; callers built against <= 1.16 pass 88 bytes. */
	uint32_t sdma_engine_id;		/* in (SDMA_BY_ENG_ID) */
	/*
	 * "pad" before 1.22. Bytes of the AQL metadata ring that follows the
	 * queue's ring in the same mapping: 0 or a power of two (else
	 * -EINVAL); read for COMPUTE_AQL queues only. "pad" is its name
	 * before 1.22, kept for code written against that.
	 */
	union {
		uint32_t metadata_ring_size;	/* in */
		uint32_t pad;
	};
};
/* The pre-1.17 size: the struct ends after ctl_stack_size. */
#define KFD_ABI_CREATE_QUEUE_ARGS_SIZE_1_16	88

struct kfd_abi_destroy_queue_args {
	uint32_t queue_id;		/* in */
	uint32_t pad;
};

struct kfd_abi_update_queue_args {
	uint64_t ring_base_address;	/* in; 0 deactivates */
	uint32_t queue_id;		/* in */
	uint32_t ring_size;		/* in */
	uint32_t queue_percentage;	/* in */
	uint32_t queue_priority;	/* in */
};

struct kfd_abi_set_cu_mask_args {
	uint32_t queue_id;		/* in */
	uint32_t num_cu_mask;		/* in: a number of BITS, multiple of 32 */
	uint64_t cu_mask_ptr;		/* in: u32[num_cu_mask / 32] */
};

struct kfd_abi_get_queue_wave_state_args {
	uint64_t ctl_stack_address;	/* in: control stack copied here */
	uint32_t ctl_stack_used_size;	/* out */
	uint32_t save_area_used_size;	/* out */
	uint32_t queue_id;		/* in */
	uint32_t pad;
};

struct kfd_abi_alloc_queue_gws_args {
	uint32_t queue_id;		/* in */
	uint32_t num_gws;		/* in; 0 releases */
	uint32_t first_gws;		/* out */
	uint32_t pad;
};

/* ------------------------------------------------------------------ */
/* Per-device settings: 0x04 policy, 0x05 clocks, 0x06/0x14 apertures, */
/* 0x11 scratch, 0x12 tiles, 0x13 trap handler, 0x23 available memory  */
/* ------------------------------------------------------------------ */

#define KFD_ABI_CACHE_POLICY_COHERENT	0
#define KFD_ABI_CACHE_POLICY_NONCOHERENT 1

/* set_memory_policy misc_process_flag bits (1.18) */
#define KFD_ABI_PROC_FLAG_MFMA_HIGH_PRECISION	(1u << 0)

struct kfd_abi_set_memory_policy_args {
	uint64_t alternate_aperture_base;	/* in */
	uint64_t alternate_aperture_size;	/* in */
	uint32_t gpu_id;			/* in */
	uint32_t default_policy;		/* in */
	uint32_t alternate_policy;		/* in */
	uint32_t misc_process_flag;		/* in; "pad" before 1.18 */
};

struct kfd_abi_get_clock_counters_args {
	uint64_t gpu_clock_counter;	/* out */
	uint64_t cpu_clock_counter;	/* out: CLOCK_MONOTONIC_RAW ns */
	uint64_t system_clock_counter;	/* out: CLOCK_BOOTTIME ns */
	uint64_t system_clock_freq;	/* out: 1e9 */
	uint32_t gpu_id;		/* in */
	uint32_t pad;
};

struct kfd_abi_process_device_apertures {
	uint64_t lds_base;
	uint64_t lds_limit;
	uint64_t scratch_base;
	uint64_t scratch_limit;
	uint64_t gpuvm_base;
	uint64_t gpuvm_limit;
	uint32_t gpu_id;
	uint32_t pad;
};

/* The legacy aperture ioctl has room for this many GPUs. */
#define KFD_ABI_NUM_OF_SUPPORTED_GPUS	7

struct kfd_abi_get_process_apertures_args {
	struct kfd_abi_process_device_apertures
		process_apertures[KFD_ABI_NUM_OF_SUPPORTED_GPUS];	/* out */
	uint32_t num_of_nodes;		/* out */
	uint32_t pad;
};

struct kfd_abi_get_process_apertures_new_args {
	uint64_t kfd_process_device_apertures_ptr;	/* in: apertures[] */
	uint32_t num_of_nodes;		/* in: capacity; out: filled */
	uint32_t pad;
};

struct kfd_abi_set_scratch_backing_va_args {
	uint64_t va_addr;		/* in */
	uint32_t gpu_id;		/* in */
	uint32_t pad;
};

struct kfd_abi_get_tile_config_args {
	uint64_t tile_config_ptr;		/* in: u32[num_tile_configs] */
	uint64_t macro_tile_config_ptr;		/* in: u32[num_macro_tile_configs] */
	uint32_t num_tile_configs;		/* in: capacity; out: filled */
	uint32_t num_macro_tile_configs;	/* in: capacity; out: filled */
	uint32_t gpu_id;			/* in */
	uint32_t gb_addr_config;		/* out */
	uint32_t num_banks;			/* out */
	uint32_t num_ranks;			/* out */
};

struct kfd_abi_set_trap_handler_args {
	uint64_t tba_addr;		/* in */
	uint64_t tma_addr;		/* in */
	uint32_t gpu_id;		/* in */
	uint32_t pad;
};

struct kfd_abi_get_available_memory_args {
	uint64_t available;		/* out */
	uint32_t gpu_id;		/* in */
	uint32_t pad;
};

/* ------------------------------------------------------------------ */
/* 0x0D..0x10 the pre-1.13 debugger (deprecated, answers EPERM)        */
/* ------------------------------------------------------------------ */

#define KFD_ABI_MAX_ALLOWED_NUM_POINTS		100
#define KFD_ABI_MAX_ALLOWED_AW_BUFF_SIZE	4096
#define KFD_ABI_MAX_ALLOWED_WAC_BUFF_SIZE	128

struct kfd_abi_dbg_register_args {
	uint32_t gpu_id;
	uint32_t pad;
};

struct kfd_abi_dbg_unregister_args {
	uint32_t gpu_id;
	uint32_t pad;
};

struct kfd_abi_dbg_address_watch_args {
	uint64_t content_ptr;		/* packed blob of buf_size_in_bytes */
	uint32_t gpu_id;
	uint32_t buf_size_in_bytes;
};

struct kfd_abi_dbg_wave_control_args {
	uint64_t content_ptr;
	uint32_t gpu_id;
	uint32_t buf_size_in_bytes;
};

/* ------------------------------------------------------------------ */
/* Events: 0x08 CREATE, 0x09 DESTROY, 0x0A SET, 0x0B RESET, 0x0C WAIT  */
/* ------------------------------------------------------------------ */

/* Event types (they match HSA_EVENTTYPE). */
#define KFD_ABI_EVENT_SIGNAL			0
#define KFD_ABI_EVENT_NODECHANGE		1
#define KFD_ABI_EVENT_DEVICESTATECHANGE		2
#define KFD_ABI_EVENT_HW_EXCEPTION		3
#define KFD_ABI_EVENT_SYSTEM_EVENT		4
#define KFD_ABI_EVENT_DEBUG_EVENT		5
#define KFD_ABI_EVENT_PROFILE_EVENT		6
#define KFD_ABI_EVENT_QUEUE_EVENT		7
#define KFD_ABI_EVENT_MEMORY			8

#define KFD_ABI_WAIT_RESULT_COMPLETE		0
#define KFD_ABI_WAIT_RESULT_TIMEOUT		1
#define KFD_ABI_WAIT_RESULT_FAIL		2

#define KFD_ABI_HW_EXCEPTION_WHOLE_GPU_RESET	0
#define KFD_ABI_HW_EXCEPTION_PER_ENGINE_RESET	1
#define KFD_ABI_HW_EXCEPTION_GPU_HANG		0
#define KFD_ABI_HW_EXCEPTION_ECC		1

#define KFD_ABI_MEM_ERR_NO_RAS			0
#define KFD_ABI_MEM_ERR_SRAM_ECC		1
#define KFD_ABI_MEM_ERR_POISON_CONSUMED		2
#define KFD_ABI_MEM_ERR_GPU_HANG		3

struct kfd_abi_create_event_args {
	uint64_t event_page_offset;	/* out (APU: mmap offset); in on dGPU: page BO handle */
	uint32_t event_trigger_data;	/* out (signal events) */
	uint32_t event_type;		/* in: KFD_ABI_EVENT_* */
	uint32_t auto_reset;		/* in */
	uint32_t node_id;		/* in (some event types) */
	uint32_t event_id;		/* out */
	uint32_t event_slot_index;	/* out */
};

struct kfd_abi_destroy_event_args {
	uint32_t event_id;		/* in */
	uint32_t pad;
};

struct kfd_abi_set_event_args {
	uint32_t event_id;		/* in */
	uint32_t pad;
};

struct kfd_abi_reset_event_args {
	uint32_t event_id;		/* in */
	uint32_t pad;
};

struct kfd_abi_memory_exception_failure {
	uint32_t NotPresent;
	uint32_t ReadOnly;
	uint32_t NoExecute;
	uint32_t imprecise;
};

struct kfd_abi_hsa_memory_exception_data {
	struct kfd_abi_memory_exception_failure failure;
	uint64_t va;
	uint32_t gpu_id;
	uint32_t ErrorType;		/* KFD_ABI_MEM_ERR_* */
};

struct kfd_abi_hsa_hw_exception_data {
	uint32_t reset_type;
	uint32_t reset_cause;
	uint32_t memory_lost;
	uint32_t gpu_id;
};

/* 1.14: a signal wait passes the age it last saw and gets the new one. */
struct kfd_abi_hsa_signal_event_data {
	uint64_t last_event_age;
};

/* One element of WAIT_EVENTS' events array (48 bytes). */
struct kfd_abi_event_data {
	union {
		struct kfd_abi_hsa_memory_exception_data memory_exception_data;
		struct kfd_abi_hsa_hw_exception_data hw_exception_data;
		struct kfd_abi_hsa_signal_event_data signal_event_data;
	};
	uint64_t kfd_event_data_ext;	/* pointer, always NULL in practice */
	uint32_t event_id;		/* in */
	uint32_t pad;
};

struct kfd_abi_wait_events_args {
	uint64_t events_ptr;		/* in: kfd_abi_event_data[num_events] */
	uint32_t num_events;		/* in */
	uint32_t wait_for_all;		/* in */
	uint32_t timeout;		/* in: ms */
	uint32_t wait_result;		/* out: KFD_ABI_WAIT_RESULT_* */
};

/* ------------------------------------------------------------------ */
/* Memory: 0x15 ACQUIRE_VM .. 0x19 UNMAP, 0x1C/0x1D/0x24 dmabuf        */
/* ------------------------------------------------------------------ */

struct kfd_abi_acquire_vm_args {
	uint32_t drm_fd;		/* in: render node fd */
	uint32_t gpu_id;		/* in */
};

/* Allocation flags: where the memory lives ... */
#define KFD_ABI_ALLOC_MEM_FLAGS_VRAM		(1u << 0)
#define KFD_ABI_ALLOC_MEM_FLAGS_GTT		(1u << 1)
#define KFD_ABI_ALLOC_MEM_FLAGS_USERPTR		(1u << 2)
#define KFD_ABI_ALLOC_MEM_FLAGS_DOORBELL	(1u << 3)
#define KFD_ABI_ALLOC_MEM_FLAGS_MMIO_REMAP	(1u << 4)
/* ... and how it is accessed. */
#define KFD_ABI_ALLOC_MEM_FLAGS_USERPTR_BATCH	(1u << 22)	/* proposed only */
#define KFD_ABI_ALLOC_MEM_FLAGS_CONTIGUOUS	(1u << 23)	/* 1.16 */
#define KFD_ABI_ALLOC_MEM_FLAGS_EXT_COHERENT	(1u << 24)
#define KFD_ABI_ALLOC_MEM_FLAGS_UNCACHED	(1u << 25)
#define KFD_ABI_ALLOC_MEM_FLAGS_COHERENT	(1u << 26)
#define KFD_ABI_ALLOC_MEM_FLAGS_AQL_QUEUE_MEM	(1u << 27)
#define KFD_ABI_ALLOC_MEM_FLAGS_NO_SUBSTITUTE	(1u << 28)
#define KFD_ABI_ALLOC_MEM_FLAGS_PUBLIC		(1u << 29)
#define KFD_ABI_ALLOC_MEM_FLAGS_EXECUTABLE	(1u << 30)
#define KFD_ABI_ALLOC_MEM_FLAGS_WRITABLE	(1u << 31)

struct kfd_abi_alloc_memory_of_gpu_args {
	uint64_t va_addr;		/* in */
	uint64_t size;			/* in */
	uint64_t handle;		/* out */
	uint64_t mmap_offset;		/* in: USERPTR CPU address; out: render-node offset */
	uint32_t gpu_id;		/* in */
	uint32_t flags;			/* in: KFD_ABI_ALLOC_MEM_FLAGS_* */
};

struct kfd_abi_free_memory_of_gpu_args {
	uint64_t handle;		/* in */
};

struct kfd_abi_map_memory_to_gpu_args {
	uint64_t handle;		/* in */
	uint64_t device_ids_array_ptr;	/* in: u32 gpu_id[n_devices] */
	uint32_t n_devices;		/* in */
	uint32_t n_success;		/* in/out: devices done so far */
};

struct kfd_abi_unmap_memory_from_gpu_args {
	uint64_t handle;
	uint64_t device_ids_array_ptr;
	uint32_t n_devices;
	uint32_t n_success;
};

struct kfd_abi_get_dmabuf_info_args {
	uint64_t size;			/* out */
	uint64_t metadata_ptr;		/* in: metadata_size bytes */
	uint32_t metadata_size;		/* in: capacity; out: actual */
	uint32_t gpu_id;		/* out */
	uint32_t flags;			/* out: KFD_ABI_ALLOC_MEM_FLAGS_* */
	uint32_t dmabuf_fd;		/* in */
};

struct kfd_abi_import_dmabuf_args {
	uint64_t va_addr;		/* in */
	uint64_t handle;		/* out */
	uint32_t gpu_id;		/* in */
	uint32_t dmabuf_fd;		/* in */
};

struct kfd_abi_export_dmabuf_args {
	uint64_t handle;		/* in */
	uint32_t flags;			/* in: O_CLOEXEC etc. */
	uint32_t dmabuf_fd;		/* out */
};

/* ------------------------------------------------------------------ */
/* 0x1F SMI_EVENTS                                                     */
/* ------------------------------------------------------------------ */

#define KFD_ABI_SMI_EVENT_NONE			0
#define KFD_ABI_SMI_EVENT_VMFAULT		1
#define KFD_ABI_SMI_EVENT_THERMAL_THROTTLE	2
#define KFD_ABI_SMI_EVENT_GPU_PRE_RESET		3
#define KFD_ABI_SMI_EVENT_GPU_POST_RESET	4
#define KFD_ABI_SMI_EVENT_MIGRATE_START		5
#define KFD_ABI_SMI_EVENT_MIGRATE_END		6
#define KFD_ABI_SMI_EVENT_PAGE_FAULT_START	7
#define KFD_ABI_SMI_EVENT_PAGE_FAULT_END	8
#define KFD_ABI_SMI_EVENT_QUEUE_EVICTION	9
#define KFD_ABI_SMI_EVENT_QUEUE_RESTORE		10
#define KFD_ABI_SMI_EVENT_UNMAP_FROM_GPU	11
#define KFD_ABI_SMI_EVENT_PROCESS_START		12
#define KFD_ABI_SMI_EVENT_PROCESS_END		13
/* Privileged: receive events of every process. */
#define KFD_ABI_SMI_EVENT_ALL_PROCESS		64
#define KFD_ABI_SMI_EVENT_MASK_FROM_INDEX(i)	(1ULL << ((i) - 1))
#define KFD_ABI_SMI_EVENT_MSG_SIZE		96

#define KFD_ABI_MIGRATE_TRIGGER_PREFETCH		0
#define KFD_ABI_MIGRATE_TRIGGER_PAGEFAULT_GPU		1
#define KFD_ABI_MIGRATE_TRIGGER_PAGEFAULT_CPU		2
#define KFD_ABI_MIGRATE_TRIGGER_TTM_EVICTION		3

#define KFD_ABI_QUEUE_EVICTION_TRIGGER_SVM		0
#define KFD_ABI_QUEUE_EVICTION_TRIGGER_USERPTR		1
#define KFD_ABI_QUEUE_EVICTION_TRIGGER_TTM		2
#define KFD_ABI_QUEUE_EVICTION_TRIGGER_SUSPEND		3
#define KFD_ABI_QUEUE_EVICTION_CRIU_CHECKPOINT		4
#define KFD_ABI_QUEUE_EVICTION_CRIU_RESTORE		5

#define KFD_ABI_SVM_UNMAP_TRIGGER_MMU_NOTIFY		0
#define KFD_ABI_SVM_UNMAP_TRIGGER_MMU_NOTIFY_MIGRATE	1
#define KFD_ABI_SVM_UNMAP_TRIGGER_UNMAP_FROM_CPU	2

struct kfd_abi_smi_events_args {
	uint32_t gpuid;			/* in */
	uint32_t anon_fd;		/* out */
};

/* ------------------------------------------------------------------ */
/* 0x20 SVM, 0x21 SET_XNACK_MODE                                       */
/* ------------------------------------------------------------------ */

#define KFD_ABI_SVM_FLAG_HOST_ACCESS		0x00000001u
#define KFD_ABI_SVM_FLAG_COHERENT		0x00000002u
#define KFD_ABI_SVM_FLAG_HIVE_LOCAL		0x00000004u
#define KFD_ABI_SVM_FLAG_GPU_RO			0x00000008u
#define KFD_ABI_SVM_FLAG_GPU_EXEC		0x00000010u
#define KFD_ABI_SVM_FLAG_GPU_READ_MOSTLY	0x00000020u
#define KFD_ABI_SVM_FLAG_GPU_ALWAYS_MAPPED	0x00000040u
#define KFD_ABI_SVM_FLAG_EXT_COHERENT		0x00000080u

#define KFD_ABI_SVM_OP_SET_ATTR			0
#define KFD_ABI_SVM_OP_GET_ATTR			1

#define KFD_ABI_SVM_LOCATION_SYSMEM		0u
#define KFD_ABI_SVM_LOCATION_UNDEFINED		0xffffffffu

#define KFD_ABI_SVM_ATTR_PREFERRED_LOC		0
#define KFD_ABI_SVM_ATTR_PREFETCH_LOC		1
#define KFD_ABI_SVM_ATTR_ACCESS			2
#define KFD_ABI_SVM_ATTR_ACCESS_IN_PLACE	3
#define KFD_ABI_SVM_ATTR_NO_ACCESS		4
#define KFD_ABI_SVM_ATTR_SET_FLAGS		5
#define KFD_ABI_SVM_ATTR_CLR_FLAGS		6
#define KFD_ABI_SVM_ATTR_GRANULARITY		7

struct kfd_abi_svm_attribute {
	uint32_t type;			/* KFD_ABI_SVM_ATTR_* */
	uint32_t value;
};

/*
 * The fixed part is 24 bytes; nattr attributes follow inline and the caller
 * adds nattr * 8 to the request's size bits.
 */
struct kfd_abi_svm_args {
	uint64_t start_addr;
	uint64_t size;
	uint32_t op;			/* KFD_ABI_SVM_OP_* */
	uint32_t nattr;
	struct kfd_abi_svm_attribute attrs[];
};

struct kfd_abi_set_xnack_mode_args {
	int32_t xnack_enabled;		/* in: <0 queries; out: current mode */
};

/* ------------------------------------------------------------------ */
/* 0x22 CRIU_OP                                                        */
/* ------------------------------------------------------------------ */

#define KFD_ABI_CRIU_OP_PROCESS_INFO	0
#define KFD_ABI_CRIU_OP_CHECKPOINT	1
#define KFD_ABI_CRIU_OP_UNPAUSE		2
#define KFD_ABI_CRIU_OP_RESTORE		3
#define KFD_ABI_CRIU_OP_RESUME		4

struct kfd_abi_criu_args {
	uint64_t devices;		/* kfd_abi_criu_device_bucket[num_devices] */
	uint64_t bos;			/* kfd_abi_criu_bo_bucket[num_bos] */
	uint64_t priv_data;		/* priv_data_size bytes */
	uint64_t priv_data_size;
	uint32_t num_devices;
	uint32_t num_bos;
	uint32_t num_objects;
	uint32_t pid;
	uint32_t op;			/* KFD_ABI_CRIU_OP_* */
	uint32_t pad;			/* implicit in the kernel's struct */
};

struct kfd_abi_criu_device_bucket {
	uint32_t user_gpu_id;
	uint32_t actual_gpu_id;
	uint32_t drm_fd;
	uint32_t pad;
};

struct kfd_abi_criu_bo_bucket {
	uint64_t addr;
	uint64_t size;
	uint64_t offset;
	uint64_t restored_offset;
	uint32_t gpu_id;
	uint32_t alloc_flags;
	uint32_t dmabuf_fd;
	uint32_t pad;
};

/* Debugger (1.13): 0x25 RUNTIME_ENABLE, 0x26 DBG_TRAP */
#include "kfd_abi_debug.h"

/* ------------------------------------------------------------------ */
/* 0x27 CREATE_PROCESS (1.19)                                          */
/* ------------------------------------------------------------------ */

/*
 * Upstream issues it as _IO (no payload). Some ROCm trees pass an 8-byte
 * flags struct with _IOWR; the kernel copies whatever size the caller gives.
 */
struct kfd_abi_create_process_args {
	uint32_t flags;
	uint32_t pad;
};

/* ------------------------------------------------------------------ */
/* 0x28 PROFILER (1.23)                                                */
/* ------------------------------------------------------------------ */

/* Ops of both profiler ioctls (0x28 and the DKMS 0x86). */
#define KFD_ABI_PROFILER_VERSION_NUM	1
#define KFD_ABI_PROFILER_PMC		0
#define KFD_ABI_PROFILER_PC_SAMPLE	1	/* 0x86 only */
#define KFD_ABI_PROFILER_VERSION	2
#define KFD_ABI_PROFILER_PTL_CONTROL	3

struct kfd_abi_pmc_settings {
	uint32_t gpu_id;
	uint32_t lock;			/* 1 takes the GPU's profiler lock, 0 drops it */
	uint32_t perfcount_enable;	/* force perf counters on for its queues */
};

struct kfd_abi_ptl_control {
	uint32_t gpu_id;
	uint32_t enable;		/* 0 asks for PTL off, else drops the request */
};

/* Upstream's form: the union follows op directly (16 bytes). */
struct kfd_abi_profiler_1_23_args {
	uint32_t op;			/* KFD_ABI_PROFILER_* */
	union {
		struct kfd_abi_pmc_settings pmc;
		struct kfd_abi_ptl_control ptl;
		uint32_t version;	/* out */
	};
};

/*
 * A 40-byte 0x28 form (op, pad, a 32-byte union) exists only in an
 * out-of-tree dispatch-log design whose ops and layout differ between its
 * versions; it is decoded as op plus raw bytes.
 */
#define KFD_ABI_PROFILER_DLOG_ARGS_SIZE	40

struct kfd_abi_profiler_dlog_args {
	uint32_t op;
	uint32_t pad;
	uint8_t data[32];		/* layout not settled upstream */
};

/* ROCm DKMS only: 0x80..0x87 */
#include "kfd_abi_rocm.h"

/* ------------------------------------------------------------------ */
/* Request codes                                                       */
/* ------------------------------------------------------------------ */

#define KFD_ABI_IO(nr)			_IO(KFD_ABI_IOCTL_BASE, nr)
#define KFD_ABI_IOR(nr, type)		_IOR(KFD_ABI_IOCTL_BASE, nr, type)
#define KFD_ABI_IOW(nr, type)		_IOW(KFD_ABI_IOCTL_BASE, nr, type)
#define KFD_ABI_IOWR(nr, type)		_IOWR(KFD_ABI_IOCTL_BASE, nr, type)

#define KFD_ABI_IOC_GET_VERSION		KFD_ABI_IOR(0x01, struct kfd_abi_get_version_args)
#define KFD_ABI_IOC_CREATE_QUEUE	KFD_ABI_IOWR(0x02, struct kfd_abi_create_queue_args)
/* CREATE_QUEUE as built against <= 1.16 headers (88 bytes). */
#define KFD_ABI_IOC_CREATE_QUEUE_1_16					\
	_IOC(_IOC_READ | _IOC_WRITE, KFD_ABI_IOCTL_BASE, 0x02,		\
	     KFD_ABI_CREATE_QUEUE_ARGS_SIZE_1_16)
#define KFD_ABI_IOC_DESTROY_QUEUE	KFD_ABI_IOWR(0x03, struct kfd_abi_destroy_queue_args)
#define KFD_ABI_IOC_SET_MEMORY_POLICY	KFD_ABI_IOW(0x04, struct kfd_abi_set_memory_policy_args)
#define KFD_ABI_IOC_GET_CLOCK_COUNTERS	KFD_ABI_IOWR(0x05, struct kfd_abi_get_clock_counters_args)
#define KFD_ABI_IOC_GET_PROCESS_APERTURES KFD_ABI_IOR(0x06, struct kfd_abi_get_process_apertures_args)
#define KFD_ABI_IOC_UPDATE_QUEUE	KFD_ABI_IOW(0x07, struct kfd_abi_update_queue_args)
#define KFD_ABI_IOC_CREATE_EVENT	KFD_ABI_IOWR(0x08, struct kfd_abi_create_event_args)
#define KFD_ABI_IOC_DESTROY_EVENT	KFD_ABI_IOW(0x09, struct kfd_abi_destroy_event_args)
#define KFD_ABI_IOC_SET_EVENT		KFD_ABI_IOW(0x0A, struct kfd_abi_set_event_args)
#define KFD_ABI_IOC_RESET_EVENT		KFD_ABI_IOW(0x0B, struct kfd_abi_reset_event_args)
#define KFD_ABI_IOC_WAIT_EVENTS		KFD_ABI_IOWR(0x0C, struct kfd_abi_wait_events_args)
#define KFD_ABI_IOC_DBG_REGISTER	KFD_ABI_IOW(0x0D, struct kfd_abi_dbg_register_args)
#define KFD_ABI_IOC_DBG_UNREGISTER	KFD_ABI_IOW(0x0E, struct kfd_abi_dbg_unregister_args)
#define KFD_ABI_IOC_DBG_ADDRESS_WATCH	KFD_ABI_IOW(0x0F, struct kfd_abi_dbg_address_watch_args)
#define KFD_ABI_IOC_DBG_WAVE_CONTROL	KFD_ABI_IOW(0x10, struct kfd_abi_dbg_wave_control_args)
#define KFD_ABI_IOC_SET_SCRATCH_BACKING_VA KFD_ABI_IOWR(0x11, struct kfd_abi_set_scratch_backing_va_args)
#define KFD_ABI_IOC_GET_TILE_CONFIG	KFD_ABI_IOWR(0x12, struct kfd_abi_get_tile_config_args)
#define KFD_ABI_IOC_SET_TRAP_HANDLER	KFD_ABI_IOW(0x13, struct kfd_abi_set_trap_handler_args)
#define KFD_ABI_IOC_GET_PROCESS_APERTURES_NEW				\
	KFD_ABI_IOWR(0x14, struct kfd_abi_get_process_apertures_new_args)
#define KFD_ABI_IOC_ACQUIRE_VM		KFD_ABI_IOW(0x15, struct kfd_abi_acquire_vm_args)
#define KFD_ABI_IOC_ALLOC_MEMORY_OF_GPU	KFD_ABI_IOWR(0x16, struct kfd_abi_alloc_memory_of_gpu_args)
#define KFD_ABI_IOC_FREE_MEMORY_OF_GPU	KFD_ABI_IOW(0x17, struct kfd_abi_free_memory_of_gpu_args)
#define KFD_ABI_IOC_MAP_MEMORY_TO_GPU	KFD_ABI_IOWR(0x18, struct kfd_abi_map_memory_to_gpu_args)
#define KFD_ABI_IOC_UNMAP_MEMORY_FROM_GPU KFD_ABI_IOWR(0x19, struct kfd_abi_unmap_memory_from_gpu_args)
#define KFD_ABI_IOC_SET_CU_MASK		KFD_ABI_IOW(0x1A, struct kfd_abi_set_cu_mask_args)
#define KFD_ABI_IOC_GET_QUEUE_WAVE_STATE KFD_ABI_IOWR(0x1B, struct kfd_abi_get_queue_wave_state_args)
#define KFD_ABI_IOC_GET_DMABUF_INFO	KFD_ABI_IOWR(0x1C, struct kfd_abi_get_dmabuf_info_args)
#define KFD_ABI_IOC_IMPORT_DMABUF	KFD_ABI_IOWR(0x1D, struct kfd_abi_import_dmabuf_args)
#define KFD_ABI_IOC_ALLOC_QUEUE_GWS	KFD_ABI_IOWR(0x1E, struct kfd_abi_alloc_queue_gws_args)
#define KFD_ABI_IOC_SMI_EVENTS		KFD_ABI_IOWR(0x1F, struct kfd_abi_smi_events_args)
#define KFD_ABI_IOC_SVM			KFD_ABI_IOWR(0x20, struct kfd_abi_svm_args)
/* SVM with nattr attributes: the size bits carry the attributes too. */
#define KFD_ABI_IOC_SVM_NATTR(nattr)					\
	KFD_ABI_IOC_WITH_SIZE(KFD_ABI_IOC_SVM,				\
		sizeof(struct kfd_abi_svm_args) +			\
		(nattr) * sizeof(struct kfd_abi_svm_attribute))
#define KFD_ABI_IOC_SET_XNACK_MODE	KFD_ABI_IOWR(0x21, struct kfd_abi_set_xnack_mode_args)
#define KFD_ABI_IOC_CRIU_OP		KFD_ABI_IOWR(0x22, struct kfd_abi_criu_args)
#define KFD_ABI_IOC_AVAILABLE_MEMORY	KFD_ABI_IOWR(0x23, struct kfd_abi_get_available_memory_args)
#define KFD_ABI_IOC_EXPORT_DMABUF	KFD_ABI_IOWR(0x24, struct kfd_abi_export_dmabuf_args)
#define KFD_ABI_IOC_RUNTIME_ENABLE	KFD_ABI_IOWR(0x25, struct kfd_abi_runtime_enable_args)
#define KFD_ABI_IOC_DBG_TRAP		KFD_ABI_IOWR(0x26, struct kfd_abi_dbg_trap_args)
#define KFD_ABI_IOC_CREATE_PROCESS	KFD_ABI_IO(0x27)
#define KFD_ABI_IOC_CREATE_PROCESS_FLAGS KFD_ABI_IOWR(0x27, struct kfd_abi_create_process_args)
#define KFD_ABI_IOC_PROFILER		KFD_ABI_IOWR(0x28, struct kfd_abi_profiler_1_23_args)
#define KFD_ABI_IOC_PROFILER_DLOG	KFD_ABI_IOWR(0x28, struct kfd_abi_profiler_dlog_args)

#define KFD_ABI_IOC_IPC_IMPORT_HANDLE	KFD_ABI_IOWR(0x80, struct kfd_abi_ipc_import_handle_args)
#define KFD_ABI_IOC_IPC_EXPORT_HANDLE	KFD_ABI_IOWR(0x81, struct kfd_abi_ipc_export_handle_args)
#define KFD_ABI_IOC_DBG_TRAP_OLD	KFD_ABI_IOWR(0x82, struct kfd_abi_dbg_trap_old_args)
#define KFD_ABI_IOC_CROSS_MEMORY_COPY	KFD_ABI_IOWR(0x83, struct kfd_abi_cross_memory_copy_args)
#define KFD_ABI_IOC_RLC_SPM		KFD_ABI_IOWR(0x84, struct kfd_abi_spm_args)
#define KFD_ABI_IOC_PC_SAMPLE		KFD_ABI_IOWR(0x85, struct kfd_abi_pc_sample_args)
#define KFD_ABI_IOC_PC_SAMPLE_V1					\
	_IOC(_IOC_READ | _IOC_WRITE, KFD_ABI_IOCTL_BASE, 0x85,		\
	     KFD_ABI_PC_SAMPLE_ARGS_SIZE_V1)
#define KFD_ABI_IOC_PROFILER_DKMS	KFD_ABI_IOWR(0x86, struct kfd_abi_profiler_args)
#define KFD_ABI_IOC_AIS_OP		KFD_ABI_IOWR(0x87, struct kfd_abi_ais_args)

#ifdef __cplusplus
}
#endif

#endif /* KFDTRACE_KFD_ABI_H */

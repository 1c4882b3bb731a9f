/* SPDX-License-Identifier: MIT */
/*
 * The /dev/kfd ioctl ABI, written for kfdtrace from the published layouts.
 *
 * This header does not include <linux/kfd_ioctl.h>: the distribution copy is
 * ABI 1.11 (Linux 6.1) and lacks the ioctls a ROCm process uses today
 * (EXPORT_DMABUF, RUNTIME_ENABLE, DBG_TRAP, CREATE_PROCESS and the ROCm DKMS
 * range 0x80..0x87). Every struct here is checked against the 1.11 kernel
 * header at build time where that header has it (formats/schema/abi_check.c).
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
#define KFD_ABI_MINOR_VERSION		19

/* The ioctl type byte. Console ioctls share it, so never decode by it alone. */
#define KFD_ABI_IOCTL_BASE		'K'

/* Dispatcher ranges: [START, END) upstream; [START_2, END_2] in ROCm DKMS. */
#define KFD_ABI_COMMAND_START		0x01
#define KFD_ABI_COMMAND_END		0x28
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
	uint32_t pad;				/* 1.22: metadata_ring_size */
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
/* 1.22 grows UPDATE_QUEUE to 40 bytes (dispatch-record buffer); not decoded. */
#define KFD_ABI_UPDATE_QUEUE_ARGS_SIZE_1_22	40

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

/* ------------------------------------------------------------------ */
/* Debugger (1.13): 0x25 RUNTIME_ENABLE, 0x26 DBG_TRAP                 */
/* ------------------------------------------------------------------ */

#define KFD_ABI_DBG_TRAP_OVERRIDE_OR		0
#define KFD_ABI_DBG_TRAP_OVERRIDE_REPLACE	1

#define KFD_ABI_DBG_TRAP_MASK_FP_INVALID		(1u << 0)
#define KFD_ABI_DBG_TRAP_MASK_FP_INPUT_DENORMAL		(1u << 1)
#define KFD_ABI_DBG_TRAP_MASK_FP_DIVIDE_BY_ZERO		(1u << 2)
#define KFD_ABI_DBG_TRAP_MASK_FP_OVERFLOW		(1u << 3)
#define KFD_ABI_DBG_TRAP_MASK_FP_UNDERFLOW		(1u << 4)
#define KFD_ABI_DBG_TRAP_MASK_FP_INEXACT		(1u << 5)
#define KFD_ABI_DBG_TRAP_MASK_INT_DIVIDE_BY_ZERO	(1u << 6)
#define KFD_ABI_DBG_TRAP_MASK_DBG_ADDRESS_WATCH		(1u << 7)
#define KFD_ABI_DBG_TRAP_MASK_DBG_MEMORY_VIOLATION	(1u << 8)
#define KFD_ABI_DBG_TRAP_MASK_TRAP_ON_WAVE_START	(1u << 30)
#define KFD_ABI_DBG_TRAP_MASK_TRAP_ON_WAVE_END		(1u << 31)

#define KFD_ABI_DBG_TRAP_WAVE_LAUNCH_MODE_NORMAL	0
#define KFD_ABI_DBG_TRAP_WAVE_LAUNCH_MODE_HALT		1
#define KFD_ABI_DBG_TRAP_WAVE_LAUNCH_MODE_DEBUG		3

#define KFD_ABI_DBG_TRAP_ADDRESS_WATCH_MODE_READ	0
#define KFD_ABI_DBG_TRAP_ADDRESS_WATCH_MODE_NONREAD	1
#define KFD_ABI_DBG_TRAP_ADDRESS_WATCH_MODE_ATOMIC	2
#define KFD_ABI_DBG_TRAP_ADDRESS_WATCH_MODE_ALL		3

#define KFD_ABI_DBG_TRAP_FLAG_SINGLE_MEM_OP		(1u << 0)
#define KFD_ABI_DBG_TRAP_FLAG_SINGLE_ALU_OP		(1u << 1)
#define KFD_ABI_DBG_TRAP_FLAG_LDS_OUT_OF_ADDR_RANGE	(1u << 2)	/* 1.21 */

/* Exception codes; KFD_ABI_EC_MASK(ec) is the bit in an exception mask. */
#define KFD_ABI_EC_NONE						0
#define KFD_ABI_EC_QUEUE_WAVE_ABORT				1
#define KFD_ABI_EC_QUEUE_WAVE_TRAP				2
#define KFD_ABI_EC_QUEUE_WAVE_MATH_ERROR			3
#define KFD_ABI_EC_QUEUE_WAVE_ILLEGAL_INSTRUCTION		4
#define KFD_ABI_EC_QUEUE_WAVE_MEMORY_VIOLATION			5
#define KFD_ABI_EC_QUEUE_WAVE_APERTURE_VIOLATION		6
#define KFD_ABI_EC_QUEUE_PACKET_DISPATCH_DIM_INVALID		16
#define KFD_ABI_EC_QUEUE_PACKET_DISPATCH_GROUP_SEGMENT_SIZE_INVALID 17
#define KFD_ABI_EC_QUEUE_PACKET_DISPATCH_CODE_INVALID		18
#define KFD_ABI_EC_QUEUE_PACKET_RESERVED			19
#define KFD_ABI_EC_QUEUE_PACKET_UNSUPPORTED			20
#define KFD_ABI_EC_QUEUE_PACKET_DISPATCH_WORK_GROUP_SIZE_INVALID 21
#define KFD_ABI_EC_QUEUE_PACKET_DISPATCH_REGISTER_INVALID	22
#define KFD_ABI_EC_QUEUE_PACKET_VENDOR_UNSUPPORTED		23
#define KFD_ABI_EC_QUEUE_PREEMPTION_ERROR			30
#define KFD_ABI_EC_QUEUE_NEW					31
#define KFD_ABI_EC_DEVICE_QUEUE_DELETE				32
#define KFD_ABI_EC_DEVICE_MEMORY_VIOLATION			33
#define KFD_ABI_EC_DEVICE_RAS_ERROR				34
#define KFD_ABI_EC_DEVICE_FATAL_HALT				35
#define KFD_ABI_EC_DEVICE_NEW					36
#define KFD_ABI_EC_PROCESS_RUNTIME				48
#define KFD_ABI_EC_PROCESS_DEVICE_REMOVE			49
#define KFD_ABI_EC_MAX						50
#define KFD_ABI_EC_MASK(ec)		(1ULL << ((ec) - 1))

#define KFD_ABI_DEBUG_RUNTIME_STATE_DISABLED		0
#define KFD_ABI_DEBUG_RUNTIME_STATE_ENABLED		1
#define KFD_ABI_DEBUG_RUNTIME_STATE_ENABLED_BUSY	2
#define KFD_ABI_DEBUG_RUNTIME_STATE_ENABLED_ERROR	3

/* RUNTIME_ENABLE mode_mask bits */
#define KFD_ABI_RUNTIME_ENABLE_MODE_ENABLE_MASK		(1u << 0)
#define KFD_ABI_RUNTIME_ENABLE_MODE_TTMP_SAVE_MASK	(1u << 1)
/* RUNTIME_ENABLE capabilities_mask bits (out) */
#define KFD_ABI_RUNTIME_ENABLE_CAPS_SUPPORTS_CORE_DUMP_MASK (1u << 31)

/* Per-queue status bits written back by SUSPEND/RESUME_QUEUES. */
#define KFD_ABI_DBG_QUEUE_ERROR_BIT	30
#define KFD_ABI_DBG_QUEUE_INVALID_BIT	31
#define KFD_ABI_DBG_QUEUE_ERROR_MASK	(1u << KFD_ABI_DBG_QUEUE_ERROR_BIT)
#define KFD_ABI_DBG_QUEUE_INVALID_MASK	(1u << KFD_ABI_DBG_QUEUE_INVALID_BIT)

struct kfd_abi_runtime_info {
	uint64_t r_debug;
	uint32_t runtime_state;		/* KFD_ABI_DEBUG_RUNTIME_STATE_* */
	uint32_t ttmp_setup;
};

struct kfd_abi_runtime_enable_args {
	uint64_t r_debug;		/* in: ROCr's r_debug address, kept */
	uint32_t mode_mask;		/* in */
	uint32_t capabilities_mask;	/* out */
};

/* Element of GET_QUEUE_SNAPSHOT (64 bytes). */
struct kfd_abi_queue_snapshot_entry {
	uint64_t exception_status;
	uint64_t ring_base_address;
	uint64_t write_pointer_address;
	uint64_t read_pointer_address;
	uint64_t ctx_save_restore_address;
	uint32_t queue_id;
	uint32_t gpu_id;
	uint32_t ring_size;
	uint32_t queue_type;
	uint32_t ctx_save_restore_area_size;
	uint32_t reserved;
};

/* Element of GET_DEVICE_SNAPSHOT (120 bytes). */
struct kfd_abi_dbg_device_info_entry {
	uint64_t exception_status;
	uint64_t lds_base;
	uint64_t lds_limit;
	uint64_t scratch_base;
	uint64_t scratch_limit;
	uint64_t gpuvm_base;
	uint64_t gpuvm_limit;
	uint32_t gpu_id;
	uint32_t location_id;
	uint32_t vendor_id;
	uint32_t device_id;
	uint32_t revision_id;
	uint32_t subsystem_vendor_id;
	uint32_t subsystem_device_id;
	uint32_t fw_version;
	uint32_t gfx_target_version;
	uint32_t simd_count;
	uint32_t max_waves_per_simd;
	uint32_t array_count;
	uint32_t simd_arrays_per_engine;
	uint32_t num_xcc;
	uint32_t capability;
	uint32_t debug_prop;
};

/* Header the kernel writes at the start of a queue's context save area. */
struct kfd_abi_context_save_area_header {
	struct {
		uint32_t control_stack_offset;
		uint32_t control_stack_size;
		uint32_t wave_state_offset;
		uint32_t wave_state_size;
	} wave_state;
	uint32_t debug_offset;
	uint32_t debug_size;
	uint64_t err_payload_addr;
	uint32_t err_event_id;
	uint32_t reserved1;
};

#define KFD_ABI_DBG_TRAP_ENABLE				0
#define KFD_ABI_DBG_TRAP_DISABLE			1
#define KFD_ABI_DBG_TRAP_SEND_RUNTIME_EVENT		2
#define KFD_ABI_DBG_TRAP_SET_EXCEPTIONS_ENABLED		3
#define KFD_ABI_DBG_TRAP_SET_WAVE_LAUNCH_OVERRIDE	4
#define KFD_ABI_DBG_TRAP_SET_WAVE_LAUNCH_MODE		5
#define KFD_ABI_DBG_TRAP_SUSPEND_QUEUES			6
#define KFD_ABI_DBG_TRAP_RESUME_QUEUES			7
#define KFD_ABI_DBG_TRAP_SET_NODE_ADDRESS_WATCH		8
#define KFD_ABI_DBG_TRAP_CLEAR_NODE_ADDRESS_WATCH	9
#define KFD_ABI_DBG_TRAP_SET_FLAGS			10
#define KFD_ABI_DBG_TRAP_QUERY_DEBUG_EVENT		11
#define KFD_ABI_DBG_TRAP_QUERY_EXCEPTION_INFO		12
#define KFD_ABI_DBG_TRAP_GET_QUEUE_SNAPSHOT		13
#define KFD_ABI_DBG_TRAP_GET_DEVICE_SNAPSHOT		14

struct kfd_abi_dbg_trap_enable_args {
	uint64_t exception_mask;	/* in */
	uint64_t rinfo_ptr;		/* in: runtime info copied out here */
	uint32_t rinfo_size;		/* in/out */
	uint32_t dbg_fd;		/* in: eventfd-like notifier */
};

struct kfd_abi_dbg_trap_send_runtime_event_args {
	uint64_t exception_mask;
	uint32_t gpu_id;
	uint32_t queue_id;
};

struct kfd_abi_dbg_trap_set_exceptions_enabled_args {
	uint64_t exception_mask;
};

struct kfd_abi_dbg_trap_set_wave_launch_override_args {
	uint32_t override_mode;
	uint32_t enable_mask;		/* in/out */
	uint32_t support_request_mask;	/* in/out */
	uint32_t pad;
};

struct kfd_abi_dbg_trap_set_wave_launch_mode_args {
	uint32_t launch_mode;
	uint32_t pad;
};

struct kfd_abi_dbg_trap_suspend_queues_args {
	uint64_t exception_mask;
	uint64_t queue_array_ptr;	/* in/out: u32 queue ids[num_queues] */
	uint32_t num_queues;
	uint32_t grace_period;
};

struct kfd_abi_dbg_trap_resume_queues_args {
	uint64_t queue_array_ptr;	/* in/out: u32 queue ids[num_queues] */
	uint32_t num_queues;
	uint32_t pad;
};

struct kfd_abi_dbg_trap_set_node_address_watch_args {
	uint64_t address;
	uint32_t mode;
	uint32_t mask;
	uint32_t gpu_id;
	uint32_t id;			/* out */
};

struct kfd_abi_dbg_trap_clear_node_address_watch_args {
	uint32_t gpu_id;
	uint32_t id;
};

struct kfd_abi_dbg_trap_set_flags_args {
	uint32_t flags;			/* in; out: previous flags */
	uint32_t pad;
};

struct kfd_abi_dbg_trap_query_debug_event_args {
	uint64_t exception_mask;	/* in: to clear; out: raised */
	uint32_t gpu_id;		/* out */
	uint32_t queue_id;		/* out */
};

struct kfd_abi_dbg_trap_query_exception_info_args {
	uint64_t info_ptr;		/* in: info_size bytes copied out */
	uint32_t info_size;		/* in/out */
	uint32_t source_id;
	uint32_t exception_code;
	uint32_t clear_exception;
};

struct kfd_abi_dbg_trap_queue_snapshot_args {
	uint64_t exception_mask;
	uint64_t snapshot_buf_ptr;	/* num_queues entries of entry_size bytes */
	uint32_t num_queues;		/* in: capacity; out: queues that exist */
	uint32_t entry_size;		/* in/out */
};

struct kfd_abi_dbg_trap_device_snapshot_args {
	uint64_t exception_mask;
	uint64_t snapshot_buf_ptr;
	uint32_t num_devices;
	uint32_t entry_size;
};

/* DBG_TRAP 0x26: the op selects one arm of the union (32 bytes total). */
struct kfd_abi_dbg_trap_args {
	uint32_t pid;
	uint32_t op;			/* KFD_ABI_DBG_TRAP_* */
	union {
		struct kfd_abi_dbg_trap_enable_args enable;
		struct kfd_abi_dbg_trap_send_runtime_event_args send_runtime_event;
		struct kfd_abi_dbg_trap_set_exceptions_enabled_args set_exceptions_enabled;
		struct kfd_abi_dbg_trap_set_wave_launch_override_args launch_override;
		struct kfd_abi_dbg_trap_set_wave_launch_mode_args launch_mode;
		struct kfd_abi_dbg_trap_suspend_queues_args suspend_queues;
		struct kfd_abi_dbg_trap_resume_queues_args resume_queues;
		struct kfd_abi_dbg_trap_set_node_address_watch_args set_node_address_watch;
		struct kfd_abi_dbg_trap_clear_node_address_watch_args clear_node_address_watch;
		struct kfd_abi_dbg_trap_set_flags_args set_flags;
		struct kfd_abi_dbg_trap_query_debug_event_args query_debug_event;
		struct kfd_abi_dbg_trap_query_exception_info_args query_exception_info;
		struct kfd_abi_dbg_trap_queue_snapshot_args queue_snapshot;
		struct kfd_abi_dbg_trap_device_snapshot_args device_snapshot;
	};
};

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
/* ROCm DKMS only: 0x80..0x87                                          */
/* ------------------------------------------------------------------ */

struct kfd_abi_ipc_import_handle_args {
	uint64_t handle;		/* out */
	uint64_t va_addr;		/* in */
	uint64_t mmap_offset;		/* out */
	uint32_t share_handle[4];	/* in */
	uint32_t gpu_id;		/* in */
	uint32_t flags;			/* out */
};

struct kfd_abi_ipc_export_handle_args {
	uint64_t handle;		/* in */
	uint32_t share_handle[4];	/* out */
	uint32_t gpu_id;		/* in */
	uint32_t flags;			/* in */
};

/*
 * DBG_TRAP as ROCm 5.x (and Debian's libhsakmt 5.2.3) issue it on 0x82:
 * a generic op with a pointer and four data words (40 bytes).
 */
#define KFD_ABI_DBG_TRAP_OLD_ENABLE			0
#define KFD_ABI_DBG_TRAP_OLD_SET_WAVE_LAUNCH_OVERRIDE	1
#define KFD_ABI_DBG_TRAP_OLD_SET_WAVE_LAUNCH_MODE	2
#define KFD_ABI_DBG_TRAP_OLD_NODE_SUSPEND		3
#define KFD_ABI_DBG_TRAP_OLD_NODE_RESUME		4
#define KFD_ABI_DBG_TRAP_OLD_QUERY_DEBUG_EVENT		5
#define KFD_ABI_DBG_TRAP_OLD_GET_QUEUE_SNAPSHOT		6
#define KFD_ABI_DBG_TRAP_OLD_GET_VERSION		7
#define KFD_ABI_DBG_TRAP_OLD_CLEAR_ADDRESS_WATCH	8
#define KFD_ABI_DBG_TRAP_OLD_SET_ADDRESS_WATCH		9
#define KFD_ABI_DBG_TRAP_OLD_SET_PRECISE_MEM_OPS	10
#define KFD_ABI_DBG_TRAP_OLD_QUERY_EXCEPTION_INFO	11
#define KFD_ABI_DBG_TRAP_OLD_DEVICE_SNAPSHOT		12
#define KFD_ABI_DBG_TRAP_OLD_RUNTIME_ENABLE		13
#define KFD_ABI_DBG_TRAP_OLD_SEND_RUNTIME_EVENT		14
#define KFD_ABI_DBG_TRAP_OLD_SET_EXCEPTIONS_ENABLED	15

struct kfd_abi_dbg_trap_old_args {
	uint64_t exception_mask;
	uint64_t ptr;			/* op-specific user pointer (r_debug for 13) */
	uint32_t pid;
	uint32_t op;			/* KFD_ABI_DBG_TRAP_OLD_* */
	uint32_t data1;
	uint32_t data2;
	uint32_t data3;
	uint32_t data4;
};

/*
 * Element sizes of the old snapshot ops (GET_QUEUE_SNAPSHOT: five u64, four
 * u32 and 18 reserved u32; DEVICE_SNAPSHOT: seven u64, gpu_id and a pad).
 */
#define KFD_ABI_DBG_TRAP_OLD_QUEUE_SNAPSHOT_ENTRY_SIZE	128
#define KFD_ABI_DBG_TRAP_OLD_DEVICE_SNAPSHOT_ENTRY_SIZE	64

/* CROSS_MEMORY_COPY flags: bit 0 set = write to the remote process. */
#define KFD_ABI_CROSS_MEMORY_RW_BIT	(1u << 0)

struct kfd_abi_memory_range {
	uint64_t va_addr;
	uint64_t size;
};

struct kfd_abi_cross_memory_copy_args {
	uint32_t pid;			/* in: remote process */
	uint32_t flags;			/* in */
	uint64_t src_mem_range_array;	/* in: kfd_abi_memory_range[src_mem_array_size] */
	uint64_t src_mem_array_size;
	uint64_t dst_mem_range_array;	/* in: kfd_abi_memory_range[dst_mem_array_size] */
	uint64_t dst_mem_array_size;
	uint64_t bytes_copied;		/* out */
};

#define KFD_ABI_SPM_OP_ACQUIRE		0
#define KFD_ABI_SPM_OP_RELEASE		1
#define KFD_ABI_SPM_OP_SET_DEST_BUF	2

struct kfd_abi_spm_args {
	uint64_t dest_buf;		/* in: filled asynchronously */
	uint32_t buf_size;		/* in */
	uint32_t op;			/* in: KFD_ABI_SPM_OP_* */
	uint32_t timeout;		/* in/out: ms */
	uint32_t gpu_id;		/* in */
	uint32_t bytes_copied;		/* out: valid bytes of the previous buffer */
	uint32_t has_data_loss;		/* out */
};

#define KFD_ABI_PCS_OP_QUERY_CAPABILITIES	0
#define KFD_ABI_PCS_OP_CREATE			1
#define KFD_ABI_PCS_OP_DESTROY			2
#define KFD_ABI_PCS_OP_START			3
#define KFD_ABI_PCS_OP_STOP			4

#define KFD_ABI_PCS_METHOD_HOSTTRAP		1
#define KFD_ABI_PCS_METHOD_STOCHASTIC		2

#define KFD_ABI_PCS_TYPE_TIME_US		0
#define KFD_ABI_PCS_TYPE_CLOCK_CYCLES		1
#define KFD_ABI_PCS_TYPE_INSTRUCTIONS		2

/* PC_SAMPLE flags: query every supported configuration, not the current. */
#define KFD_ABI_PCS_QUERY_TYPE_FULL		(1u << 0)

/* Element of PC_SAMPLE's sample_info array (40 bytes). */
struct kfd_abi_pc_sample_info {
	uint64_t interval;		/* in */
	uint64_t interval_min;		/* out */
	uint64_t interval_max;		/* out */
	uint64_t flags;			/* out */
	uint32_t method;		/* in/out: KFD_ABI_PCS_METHOD_* */
	uint32_t type;			/* in/out: KFD_ABI_PCS_TYPE_* */
};

struct kfd_abi_pc_sample_args {
	uint64_t sample_info_ptr;	/* kfd_abi_pc_sample_info[num_sample_info] */
	uint32_t num_sample_info;	/* in: capacity; out: count */
	uint32_t op;			/* KFD_ABI_PCS_OP_* */
	uint32_t gpu_id;
	uint32_t trace_id;		/* out on CREATE, in after */
	uint32_t flags;			/* KFD_ABI_PCS_QUERY_TYPE_FULL */
	uint32_t reserved;
};
/* Early ROCm kernels ended the struct after trace_id. */
#define KFD_ABI_PC_SAMPLE_ARGS_SIZE_V1	24

#define KFD_ABI_PROFILER_VERSION_NUM	1
#define KFD_ABI_PROFILER_PMC		0
#define KFD_ABI_PROFILER_PC_SAMPLE	1
#define KFD_ABI_PROFILER_VERSION	2
#define KFD_ABI_PROFILER_PTL_CONTROL	3

struct kfd_abi_pmc_settings {
	uint32_t gpu_id;
	uint32_t lock;			/* lock the GPU for profiling */
	uint32_t perfcount_enable;	/* force perf counters on for its queues */
};

struct kfd_abi_ptl_control {
	uint32_t gpu_id;
	uint32_t enable;
};

struct kfd_abi_profiler_args {
	uint32_t op;			/* KFD_ABI_PROFILER_* */
	uint32_t pad;			/* the union is 8-aligned */
	union {
		struct kfd_abi_pc_sample_args pc_sample;
		struct kfd_abi_pmc_settings pmc;
		struct kfd_abi_ptl_control ptl;
		uint32_t version;
	};
};

#define KFD_ABI_AIS_READ	1	/* file -> VRAM */
#define KFD_ABI_AIS_WRITE	2	/* VRAM -> file */

struct kfd_abi_ais_in_args {
	uint64_t handle;		/* BO handle */
	uint64_t handle_offset;		/* byte offset inside the BO */
	uint64_t file_offset;
	uint64_t size;
	uint32_t op;			/* KFD_ABI_AIS_READ/WRITE */
	int32_t fd;			/* file to read or write */
};

struct kfd_abi_ais_out_args {
	uint64_t size_copied;
	int32_t status;
	uint32_t pad;
};

struct kfd_abi_ais_args {
	union {
		struct kfd_abi_ais_in_args in;
		struct kfd_abi_ais_out_args out;
	};
};

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
#define KFD_ABI_IOC_UPDATE_QUEUE_1_22					\
	_IOC(_IOC_WRITE, KFD_ABI_IOCTL_BASE, 0x07,			\
	     KFD_ABI_UPDATE_QUEUE_ARGS_SIZE_1_22)
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

#define KFD_ABI_IOC_IPC_IMPORT_HANDLE	KFD_ABI_IOWR(0x80, struct kfd_abi_ipc_import_handle_args)
#define KFD_ABI_IOC_IPC_EXPORT_HANDLE	KFD_ABI_IOWR(0x81, struct kfd_abi_ipc_export_handle_args)
#define KFD_ABI_IOC_DBG_TRAP_OLD	KFD_ABI_IOWR(0x82, struct kfd_abi_dbg_trap_old_args)
#define KFD_ABI_IOC_CROSS_MEMORY_COPY	KFD_ABI_IOWR(0x83, struct kfd_abi_cross_memory_copy_args)
#define KFD_ABI_IOC_RLC_SPM		KFD_ABI_IOWR(0x84, struct kfd_abi_spm_args)
#define KFD_ABI_IOC_PC_SAMPLE		KFD_ABI_IOWR(0x85, struct kfd_abi_pc_sample_args)
#define KFD_ABI_IOC_PC_SAMPLE_V1					\
	_IOC(_IOC_READ | _IOC_WRITE, KFD_ABI_IOCTL_BASE, 0x85,		\
	     KFD_ABI_PC_SAMPLE_ARGS_SIZE_V1)
#define KFD_ABI_IOC_PROFILER		KFD_ABI_IOWR(0x86, struct kfd_abi_profiler_args)
#define KFD_ABI_IOC_AIS_OP		KFD_ABI_IOWR(0x87, struct kfd_abi_ais_args)

#ifdef __cplusplus
}
#endif

#endif /* KFDTRACE_KFD_ABI_H */

/* SPDX-License-Identifier: MIT */
/*
 * Compile-time cross-check of our ABI headers against the system's.
 *
 * kfd_abi.h and drm_abi.h are written by hand, so a typo in a layout would
 * silently corrupt every decode and replay. This file is built only where
 * Debian's <linux/kfd_ioctl.h> (ABI 1.11) and libdrm's <amdgpu_drm.h> exist,
 * and fails the build if any struct both sides know differs in size, any
 * field in offset or width, or any request code in value.
 */
#include <stddef.h>
#include <linux/kfd_ioctl.h>
#include <drm.h>
#include <amdgpu_drm.h>

#include "kfdtrace/kfd_abi.h"
#include "kfdtrace/drm_abi.h"

#define MEMBER_SIZE(type, m)	sizeof(((type *)0)->m)

#define SAME_SIZE(ours, theirs)						\
	_Static_assert(sizeof(ours) == sizeof(theirs),			\
		       #ours " size differs from " #theirs)

#define SAME_FIELD2(ours, theirs, f_ours, f_theirs)			\
	_Static_assert(offsetof(ours, f_ours) == offsetof(theirs, f_theirs) && \
		       MEMBER_SIZE(ours, f_ours) == MEMBER_SIZE(theirs, f_theirs), \
		       #ours "." #f_ours " differs from " #theirs)

#define SAME_FIELD(ours, theirs, f)	SAME_FIELD2(ours, theirs, f, f)

#define SAME_REQ(ours, theirs)						\
	_Static_assert((unsigned long)(ours) == (unsigned long)(theirs),	\
		       #ours " differs from " #theirs)

/* ---- KFD ---------------------------------------------------------- */

#define K(n)	struct kfd_abi_##n
#define L(n)	struct kfd_ioctl_##n

SAME_SIZE(K(get_version_args), L(get_version_args));
SAME_FIELD(K(get_version_args), L(get_version_args), major_version);
SAME_FIELD(K(get_version_args), L(get_version_args), minor_version);

/* 1.11 has the 88-byte CREATE_QUEUE: our prefix must match it exactly. */
_Static_assert(sizeof(L(create_queue_args)) == KFD_ABI_CREATE_QUEUE_ARGS_SIZE_1_16,
	       "1.11 create_queue_args is not 88 bytes");
_Static_assert(offsetof(K(create_queue_args), sdma_engine_id) ==
	       KFD_ABI_CREATE_QUEUE_ARGS_SIZE_1_16,
	       "sdma_engine_id must start where the 1.16 struct ended");
SAME_FIELD(K(create_queue_args), L(create_queue_args), ring_base_address);
SAME_FIELD(K(create_queue_args), L(create_queue_args), write_pointer_address);
SAME_FIELD(K(create_queue_args), L(create_queue_args), read_pointer_address);
SAME_FIELD(K(create_queue_args), L(create_queue_args), doorbell_offset);
SAME_FIELD(K(create_queue_args), L(create_queue_args), ring_size);
SAME_FIELD(K(create_queue_args), L(create_queue_args), gpu_id);
SAME_FIELD(K(create_queue_args), L(create_queue_args), queue_type);
SAME_FIELD(K(create_queue_args), L(create_queue_args), queue_percentage);
SAME_FIELD(K(create_queue_args), L(create_queue_args), queue_priority);
SAME_FIELD(K(create_queue_args), L(create_queue_args), queue_id);
SAME_FIELD(K(create_queue_args), L(create_queue_args), eop_buffer_address);
SAME_FIELD(K(create_queue_args), L(create_queue_args), eop_buffer_size);
SAME_FIELD(K(create_queue_args), L(create_queue_args), ctx_save_restore_address);
SAME_FIELD(K(create_queue_args), L(create_queue_args), ctx_save_restore_size);
SAME_FIELD(K(create_queue_args), L(create_queue_args), ctl_stack_size);

SAME_SIZE(K(destroy_queue_args), L(destroy_queue_args));
SAME_FIELD(K(destroy_queue_args), L(destroy_queue_args), queue_id);

SAME_SIZE(K(update_queue_args), L(update_queue_args));
SAME_FIELD(K(update_queue_args), L(update_queue_args), ring_base_address);
SAME_FIELD(K(update_queue_args), L(update_queue_args), queue_id);
SAME_FIELD(K(update_queue_args), L(update_queue_args), ring_size);
SAME_FIELD(K(update_queue_args), L(update_queue_args), queue_percentage);
SAME_FIELD(K(update_queue_args), L(update_queue_args), queue_priority);

SAME_SIZE(K(set_cu_mask_args), L(set_cu_mask_args));
SAME_FIELD(K(set_cu_mask_args), L(set_cu_mask_args), queue_id);
SAME_FIELD(K(set_cu_mask_args), L(set_cu_mask_args), num_cu_mask);
SAME_FIELD(K(set_cu_mask_args), L(set_cu_mask_args), cu_mask_ptr);

SAME_SIZE(K(get_queue_wave_state_args), L(get_queue_wave_state_args));
SAME_FIELD(K(get_queue_wave_state_args), L(get_queue_wave_state_args), ctl_stack_address);
SAME_FIELD(K(get_queue_wave_state_args), L(get_queue_wave_state_args), ctl_stack_used_size);
SAME_FIELD(K(get_queue_wave_state_args), L(get_queue_wave_state_args), save_area_used_size);
SAME_FIELD(K(get_queue_wave_state_args), L(get_queue_wave_state_args), queue_id);

SAME_SIZE(K(get_available_memory_args), L(get_available_memory_args));
SAME_FIELD(K(get_available_memory_args), L(get_available_memory_args), available);
SAME_FIELD(K(get_available_memory_args), L(get_available_memory_args), gpu_id);

/* 1.18 renamed pad to misc_process_flag. */
SAME_SIZE(K(set_memory_policy_args), L(set_memory_policy_args));
SAME_FIELD(K(set_memory_policy_args), L(set_memory_policy_args), alternate_aperture_base);
SAME_FIELD(K(set_memory_policy_args), L(set_memory_policy_args), alternate_aperture_size);
SAME_FIELD(K(set_memory_policy_args), L(set_memory_policy_args), gpu_id);
SAME_FIELD(K(set_memory_policy_args), L(set_memory_policy_args), default_policy);
SAME_FIELD(K(set_memory_policy_args), L(set_memory_policy_args), alternate_policy);
SAME_FIELD2(K(set_memory_policy_args), L(set_memory_policy_args), misc_process_flag, pad);

SAME_SIZE(K(get_clock_counters_args), L(get_clock_counters_args));
SAME_FIELD(K(get_clock_counters_args), L(get_clock_counters_args), gpu_clock_counter);
SAME_FIELD(K(get_clock_counters_args), L(get_clock_counters_args), cpu_clock_counter);
SAME_FIELD(K(get_clock_counters_args), L(get_clock_counters_args), system_clock_counter);
SAME_FIELD(K(get_clock_counters_args), L(get_clock_counters_args), system_clock_freq);
SAME_FIELD(K(get_clock_counters_args), L(get_clock_counters_args), gpu_id);

SAME_SIZE(K(process_device_apertures), struct kfd_process_device_apertures);
SAME_FIELD(K(process_device_apertures), struct kfd_process_device_apertures, lds_base);
SAME_FIELD(K(process_device_apertures), struct kfd_process_device_apertures, lds_limit);
SAME_FIELD(K(process_device_apertures), struct kfd_process_device_apertures, scratch_base);
SAME_FIELD(K(process_device_apertures), struct kfd_process_device_apertures, scratch_limit);
SAME_FIELD(K(process_device_apertures), struct kfd_process_device_apertures, gpuvm_base);
SAME_FIELD(K(process_device_apertures), struct kfd_process_device_apertures, gpuvm_limit);
SAME_FIELD(K(process_device_apertures), struct kfd_process_device_apertures, gpu_id);

SAME_SIZE(K(get_process_apertures_args), L(get_process_apertures_args));
SAME_FIELD(K(get_process_apertures_args), L(get_process_apertures_args), process_apertures);
SAME_FIELD(K(get_process_apertures_args), L(get_process_apertures_args), num_of_nodes);
_Static_assert(KFD_ABI_NUM_OF_SUPPORTED_GPUS == NUM_OF_SUPPORTED_GPUS, "gpus");

SAME_SIZE(K(get_process_apertures_new_args), L(get_process_apertures_new_args));
SAME_FIELD(K(get_process_apertures_new_args), L(get_process_apertures_new_args),
	   kfd_process_device_apertures_ptr);
SAME_FIELD(K(get_process_apertures_new_args), L(get_process_apertures_new_args), num_of_nodes);

SAME_SIZE(K(dbg_register_args), L(dbg_register_args));
SAME_FIELD(K(dbg_register_args), L(dbg_register_args), gpu_id);
SAME_SIZE(K(dbg_unregister_args), L(dbg_unregister_args));
SAME_FIELD(K(dbg_unregister_args), L(dbg_unregister_args), gpu_id);
SAME_SIZE(K(dbg_address_watch_args), L(dbg_address_watch_args));
SAME_FIELD(K(dbg_address_watch_args), L(dbg_address_watch_args), content_ptr);
SAME_FIELD(K(dbg_address_watch_args), L(dbg_address_watch_args), gpu_id);
SAME_FIELD(K(dbg_address_watch_args), L(dbg_address_watch_args), buf_size_in_bytes);
SAME_SIZE(K(dbg_wave_control_args), L(dbg_wave_control_args));
SAME_FIELD(K(dbg_wave_control_args), L(dbg_wave_control_args), content_ptr);
SAME_FIELD(K(dbg_wave_control_args), L(dbg_wave_control_args), gpu_id);
SAME_FIELD(K(dbg_wave_control_args), L(dbg_wave_control_args), buf_size_in_bytes);

SAME_SIZE(K(create_event_args), L(create_event_args));
SAME_FIELD(K(create_event_args), L(create_event_args), event_page_offset);
SAME_FIELD(K(create_event_args), L(create_event_args), event_trigger_data);
SAME_FIELD(K(create_event_args), L(create_event_args), event_type);
SAME_FIELD(K(create_event_args), L(create_event_args), auto_reset);
SAME_FIELD(K(create_event_args), L(create_event_args), node_id);
SAME_FIELD(K(create_event_args), L(create_event_args), event_id);
SAME_FIELD(K(create_event_args), L(create_event_args), event_slot_index);
SAME_SIZE(K(destroy_event_args), L(destroy_event_args));
SAME_FIELD(K(destroy_event_args), L(destroy_event_args), event_id);
SAME_SIZE(K(set_event_args), L(set_event_args));
SAME_FIELD(K(set_event_args), L(set_event_args), event_id);
SAME_SIZE(K(reset_event_args), L(reset_event_args));
SAME_FIELD(K(reset_event_args), L(reset_event_args), event_id);

SAME_SIZE(K(memory_exception_failure), struct kfd_memory_exception_failure);
SAME_FIELD(K(memory_exception_failure), struct kfd_memory_exception_failure, NotPresent);
SAME_FIELD(K(memory_exception_failure), struct kfd_memory_exception_failure, ReadOnly);
SAME_FIELD(K(memory_exception_failure), struct kfd_memory_exception_failure, NoExecute);
SAME_FIELD(K(memory_exception_failure), struct kfd_memory_exception_failure, imprecise);
SAME_SIZE(K(hsa_memory_exception_data), struct kfd_hsa_memory_exception_data);
SAME_FIELD(K(hsa_memory_exception_data), struct kfd_hsa_memory_exception_data, failure);
SAME_FIELD(K(hsa_memory_exception_data), struct kfd_hsa_memory_exception_data, va);
SAME_FIELD(K(hsa_memory_exception_data), struct kfd_hsa_memory_exception_data, gpu_id);
SAME_FIELD(K(hsa_memory_exception_data), struct kfd_hsa_memory_exception_data, ErrorType);
SAME_SIZE(K(hsa_hw_exception_data), struct kfd_hsa_hw_exception_data);
SAME_FIELD(K(hsa_hw_exception_data), struct kfd_hsa_hw_exception_data, reset_type);
SAME_FIELD(K(hsa_hw_exception_data), struct kfd_hsa_hw_exception_data, reset_cause);
SAME_FIELD(K(hsa_hw_exception_data), struct kfd_hsa_hw_exception_data, memory_lost);
SAME_FIELD(K(hsa_hw_exception_data), struct kfd_hsa_hw_exception_data, gpu_id);
SAME_SIZE(K(event_data), struct kfd_event_data);
SAME_FIELD(K(event_data), struct kfd_event_data, memory_exception_data);
SAME_FIELD(K(event_data), struct kfd_event_data, hw_exception_data);
SAME_FIELD(K(event_data), struct kfd_event_data, kfd_event_data_ext);
SAME_FIELD(K(event_data), struct kfd_event_data, event_id);

SAME_SIZE(K(wait_events_args), L(wait_events_args));
SAME_FIELD(K(wait_events_args), L(wait_events_args), events_ptr);
SAME_FIELD(K(wait_events_args), L(wait_events_args), num_events);
SAME_FIELD(K(wait_events_args), L(wait_events_args), wait_for_all);
SAME_FIELD(K(wait_events_args), L(wait_events_args), timeout);
SAME_FIELD(K(wait_events_args), L(wait_events_args), wait_result);

SAME_SIZE(K(set_scratch_backing_va_args), L(set_scratch_backing_va_args));
SAME_FIELD(K(set_scratch_backing_va_args), L(set_scratch_backing_va_args), va_addr);
SAME_FIELD(K(set_scratch_backing_va_args), L(set_scratch_backing_va_args), gpu_id);

SAME_SIZE(K(get_tile_config_args), L(get_tile_config_args));
SAME_FIELD(K(get_tile_config_args), L(get_tile_config_args), tile_config_ptr);
SAME_FIELD(K(get_tile_config_args), L(get_tile_config_args), macro_tile_config_ptr);
SAME_FIELD(K(get_tile_config_args), L(get_tile_config_args), num_tile_configs);
SAME_FIELD(K(get_tile_config_args), L(get_tile_config_args), num_macro_tile_configs);
SAME_FIELD(K(get_tile_config_args), L(get_tile_config_args), gpu_id);
SAME_FIELD(K(get_tile_config_args), L(get_tile_config_args), gb_addr_config);
SAME_FIELD(K(get_tile_config_args), L(get_tile_config_args), num_banks);
SAME_FIELD(K(get_tile_config_args), L(get_tile_config_args), num_ranks);

SAME_SIZE(K(set_trap_handler_args), L(set_trap_handler_args));
SAME_FIELD(K(set_trap_handler_args), L(set_trap_handler_args), tba_addr);
SAME_FIELD(K(set_trap_handler_args), L(set_trap_handler_args), tma_addr);
SAME_FIELD(K(set_trap_handler_args), L(set_trap_handler_args), gpu_id);

SAME_SIZE(K(acquire_vm_args), L(acquire_vm_args));
SAME_FIELD(K(acquire_vm_args), L(acquire_vm_args), drm_fd);
SAME_FIELD(K(acquire_vm_args), L(acquire_vm_args), gpu_id);

SAME_SIZE(K(alloc_memory_of_gpu_args), L(alloc_memory_of_gpu_args));
SAME_FIELD(K(alloc_memory_of_gpu_args), L(alloc_memory_of_gpu_args), va_addr);
SAME_FIELD(K(alloc_memory_of_gpu_args), L(alloc_memory_of_gpu_args), size);
SAME_FIELD(K(alloc_memory_of_gpu_args), L(alloc_memory_of_gpu_args), handle);
SAME_FIELD(K(alloc_memory_of_gpu_args), L(alloc_memory_of_gpu_args), mmap_offset);
SAME_FIELD(K(alloc_memory_of_gpu_args), L(alloc_memory_of_gpu_args), gpu_id);
SAME_FIELD(K(alloc_memory_of_gpu_args), L(alloc_memory_of_gpu_args), flags);

SAME_SIZE(K(free_memory_of_gpu_args), L(free_memory_of_gpu_args));
SAME_FIELD(K(free_memory_of_gpu_args), L(free_memory_of_gpu_args), handle);

SAME_SIZE(K(map_memory_to_gpu_args), L(map_memory_to_gpu_args));
SAME_FIELD(K(map_memory_to_gpu_args), L(map_memory_to_gpu_args), handle);
SAME_FIELD(K(map_memory_to_gpu_args), L(map_memory_to_gpu_args), device_ids_array_ptr);
SAME_FIELD(K(map_memory_to_gpu_args), L(map_memory_to_gpu_args), n_devices);
SAME_FIELD(K(map_memory_to_gpu_args), L(map_memory_to_gpu_args), n_success);
SAME_SIZE(K(unmap_memory_from_gpu_args), L(unmap_memory_from_gpu_args));
SAME_FIELD(K(unmap_memory_from_gpu_args), L(unmap_memory_from_gpu_args), handle);
SAME_FIELD(K(unmap_memory_from_gpu_args), L(unmap_memory_from_gpu_args), device_ids_array_ptr);
SAME_FIELD(K(unmap_memory_from_gpu_args), L(unmap_memory_from_gpu_args), n_devices);
SAME_FIELD(K(unmap_memory_from_gpu_args), L(unmap_memory_from_gpu_args), n_success);

SAME_SIZE(K(alloc_queue_gws_args), L(alloc_queue_gws_args));
SAME_FIELD(K(alloc_queue_gws_args), L(alloc_queue_gws_args), queue_id);
SAME_FIELD(K(alloc_queue_gws_args), L(alloc_queue_gws_args), num_gws);
SAME_FIELD(K(alloc_queue_gws_args), L(alloc_queue_gws_args), first_gws);

SAME_SIZE(K(get_dmabuf_info_args), L(get_dmabuf_info_args));
SAME_FIELD(K(get_dmabuf_info_args), L(get_dmabuf_info_args), size);
SAME_FIELD(K(get_dmabuf_info_args), L(get_dmabuf_info_args), metadata_ptr);
SAME_FIELD(K(get_dmabuf_info_args), L(get_dmabuf_info_args), metadata_size);
SAME_FIELD(K(get_dmabuf_info_args), L(get_dmabuf_info_args), gpu_id);
SAME_FIELD(K(get_dmabuf_info_args), L(get_dmabuf_info_args), flags);
SAME_FIELD(K(get_dmabuf_info_args), L(get_dmabuf_info_args), dmabuf_fd);

SAME_SIZE(K(import_dmabuf_args), L(import_dmabuf_args));
SAME_FIELD(K(import_dmabuf_args), L(import_dmabuf_args), va_addr);
SAME_FIELD(K(import_dmabuf_args), L(import_dmabuf_args), handle);
SAME_FIELD(K(import_dmabuf_args), L(import_dmabuf_args), gpu_id);
SAME_FIELD(K(import_dmabuf_args), L(import_dmabuf_args), dmabuf_fd);

SAME_SIZE(K(smi_events_args), L(smi_events_args));
SAME_FIELD(K(smi_events_args), L(smi_events_args), gpuid);
SAME_FIELD(K(smi_events_args), L(smi_events_args), anon_fd);

SAME_SIZE(K(criu_args), L(criu_args));
SAME_FIELD(K(criu_args), L(criu_args), devices);
SAME_FIELD(K(criu_args), L(criu_args), bos);
SAME_FIELD(K(criu_args), L(criu_args), priv_data);
SAME_FIELD(K(criu_args), L(criu_args), priv_data_size);
SAME_FIELD(K(criu_args), L(criu_args), num_devices);
SAME_FIELD(K(criu_args), L(criu_args), num_bos);
SAME_FIELD(K(criu_args), L(criu_args), num_objects);
SAME_FIELD(K(criu_args), L(criu_args), pid);
SAME_FIELD(K(criu_args), L(criu_args), op);
SAME_SIZE(K(criu_device_bucket), struct kfd_criu_device_bucket);
SAME_FIELD(K(criu_device_bucket), struct kfd_criu_device_bucket, user_gpu_id);
SAME_FIELD(K(criu_device_bucket), struct kfd_criu_device_bucket, actual_gpu_id);
SAME_FIELD(K(criu_device_bucket), struct kfd_criu_device_bucket, drm_fd);
SAME_SIZE(K(criu_bo_bucket), struct kfd_criu_bo_bucket);
SAME_FIELD(K(criu_bo_bucket), struct kfd_criu_bo_bucket, addr);
SAME_FIELD(K(criu_bo_bucket), struct kfd_criu_bo_bucket, size);
SAME_FIELD(K(criu_bo_bucket), struct kfd_criu_bo_bucket, offset);
SAME_FIELD(K(criu_bo_bucket), struct kfd_criu_bo_bucket, restored_offset);
SAME_FIELD(K(criu_bo_bucket), struct kfd_criu_bo_bucket, gpu_id);
SAME_FIELD(K(criu_bo_bucket), struct kfd_criu_bo_bucket, alloc_flags);
SAME_FIELD(K(criu_bo_bucket), struct kfd_criu_bo_bucket, dmabuf_fd);

SAME_SIZE(K(svm_attribute), L(svm_attribute));
SAME_FIELD(K(svm_attribute), L(svm_attribute), type);
SAME_FIELD(K(svm_attribute), L(svm_attribute), value);
SAME_SIZE(K(svm_args), L(svm_args));
SAME_FIELD(K(svm_args), L(svm_args), start_addr);
SAME_FIELD(K(svm_args), L(svm_args), size);
SAME_FIELD(K(svm_args), L(svm_args), op);
SAME_FIELD(K(svm_args), L(svm_args), nattr);
_Static_assert(offsetof(K(svm_args), attrs) == offsetof(L(svm_args), attrs), "attrs");

SAME_SIZE(K(set_xnack_mode_args), L(set_xnack_mode_args));
SAME_FIELD(K(set_xnack_mode_args), L(set_xnack_mode_args), xnack_enabled);

/* Constants a decoder prints by name. */
_Static_assert(KFD_ABI_ALLOC_MEM_FLAGS_VRAM == KFD_IOC_ALLOC_MEM_FLAGS_VRAM, "flag");
_Static_assert(KFD_ABI_ALLOC_MEM_FLAGS_GTT == KFD_IOC_ALLOC_MEM_FLAGS_GTT, "flag");
_Static_assert(KFD_ABI_ALLOC_MEM_FLAGS_USERPTR == KFD_IOC_ALLOC_MEM_FLAGS_USERPTR, "flag");
_Static_assert(KFD_ABI_ALLOC_MEM_FLAGS_DOORBELL == KFD_IOC_ALLOC_MEM_FLAGS_DOORBELL, "flag");
_Static_assert(KFD_ABI_ALLOC_MEM_FLAGS_MMIO_REMAP == KFD_IOC_ALLOC_MEM_FLAGS_MMIO_REMAP, "flag");
_Static_assert(KFD_ABI_ALLOC_MEM_FLAGS_WRITABLE == (uint32_t)KFD_IOC_ALLOC_MEM_FLAGS_WRITABLE, "flag");
_Static_assert(KFD_ABI_ALLOC_MEM_FLAGS_EXECUTABLE == KFD_IOC_ALLOC_MEM_FLAGS_EXECUTABLE, "flag");
_Static_assert(KFD_ABI_ALLOC_MEM_FLAGS_PUBLIC == KFD_IOC_ALLOC_MEM_FLAGS_PUBLIC, "flag");
_Static_assert(KFD_ABI_ALLOC_MEM_FLAGS_NO_SUBSTITUTE == KFD_IOC_ALLOC_MEM_FLAGS_NO_SUBSTITUTE, "flag");
_Static_assert(KFD_ABI_ALLOC_MEM_FLAGS_AQL_QUEUE_MEM == KFD_IOC_ALLOC_MEM_FLAGS_AQL_QUEUE_MEM, "flag");
_Static_assert(KFD_ABI_ALLOC_MEM_FLAGS_COHERENT == KFD_IOC_ALLOC_MEM_FLAGS_COHERENT, "flag");
_Static_assert(KFD_ABI_ALLOC_MEM_FLAGS_UNCACHED == KFD_IOC_ALLOC_MEM_FLAGS_UNCACHED, "flag");
_Static_assert(KFD_ABI_QUEUE_TYPE_SDMA_XGMI == KFD_IOC_QUEUE_TYPE_SDMA_XGMI, "queue type");
_Static_assert(KFD_ABI_QUEUE_TYPE_COMPUTE_AQL == KFD_IOC_QUEUE_TYPE_COMPUTE_AQL, "queue type");
_Static_assert(KFD_ABI_EVENT_MEMORY == KFD_IOC_EVENT_MEMORY, "event type");
_Static_assert(KFD_ABI_EVENT_HW_EXCEPTION == KFD_IOC_EVENT_HW_EXCEPTION, "event type");
_Static_assert(KFD_ABI_SIGNAL_EVENT_LIMIT == KFD_SIGNAL_EVENT_LIMIT, "events");
_Static_assert(KFD_ABI_SMI_EVENT_UNMAP_FROM_GPU == KFD_SMI_EVENT_UNMAP_FROM_GPU, "smi");
_Static_assert(KFD_ABI_SMI_EVENT_ALL_PROCESS == KFD_SMI_EVENT_ALL_PROCESS, "smi");
_Static_assert(KFD_ABI_SVM_FLAG_GPU_ALWAYS_MAPPED == KFD_IOCTL_SVM_FLAG_GPU_ALWAYS_MAPPED, "svm");
_Static_assert(KFD_ABI_SVM_ATTR_GRANULARITY == KFD_IOCTL_SVM_ATTR_GRANULARITY, "svm");
_Static_assert(KFD_ABI_CRIU_OP_RESUME == KFD_CRIU_OP_RESUME, "criu");
_Static_assert(KFD_ABI_MIN_QUEUE_RING_SIZE == KFD_MIN_QUEUE_RING_SIZE, "ring");

SAME_REQ(KFD_ABI_IOC_GET_VERSION, AMDKFD_IOC_GET_VERSION);
SAME_REQ(KFD_ABI_IOC_CREATE_QUEUE_1_16, AMDKFD_IOC_CREATE_QUEUE);
SAME_REQ(KFD_ABI_IOC_DESTROY_QUEUE, AMDKFD_IOC_DESTROY_QUEUE);
SAME_REQ(KFD_ABI_IOC_SET_MEMORY_POLICY, AMDKFD_IOC_SET_MEMORY_POLICY);
SAME_REQ(KFD_ABI_IOC_GET_CLOCK_COUNTERS, AMDKFD_IOC_GET_CLOCK_COUNTERS);
SAME_REQ(KFD_ABI_IOC_GET_PROCESS_APERTURES, AMDKFD_IOC_GET_PROCESS_APERTURES);
SAME_REQ(KFD_ABI_IOC_UPDATE_QUEUE, AMDKFD_IOC_UPDATE_QUEUE);
SAME_REQ(KFD_ABI_IOC_CREATE_EVENT, AMDKFD_IOC_CREATE_EVENT);
SAME_REQ(KFD_ABI_IOC_DESTROY_EVENT, AMDKFD_IOC_DESTROY_EVENT);
SAME_REQ(KFD_ABI_IOC_SET_EVENT, AMDKFD_IOC_SET_EVENT);
SAME_REQ(KFD_ABI_IOC_RESET_EVENT, AMDKFD_IOC_RESET_EVENT);
SAME_REQ(KFD_ABI_IOC_WAIT_EVENTS, AMDKFD_IOC_WAIT_EVENTS);
SAME_REQ(KFD_ABI_IOC_DBG_REGISTER, AMDKFD_IOC_DBG_REGISTER_DEPRECATED);
SAME_REQ(KFD_ABI_IOC_DBG_UNREGISTER, AMDKFD_IOC_DBG_UNREGISTER_DEPRECATED);
SAME_REQ(KFD_ABI_IOC_DBG_ADDRESS_WATCH, AMDKFD_IOC_DBG_ADDRESS_WATCH_DEPRECATED);
SAME_REQ(KFD_ABI_IOC_DBG_WAVE_CONTROL, AMDKFD_IOC_DBG_WAVE_CONTROL_DEPRECATED);
SAME_REQ(KFD_ABI_IOC_SET_SCRATCH_BACKING_VA, AMDKFD_IOC_SET_SCRATCH_BACKING_VA);
SAME_REQ(KFD_ABI_IOC_GET_TILE_CONFIG, AMDKFD_IOC_GET_TILE_CONFIG);
SAME_REQ(KFD_ABI_IOC_SET_TRAP_HANDLER, AMDKFD_IOC_SET_TRAP_HANDLER);
SAME_REQ(KFD_ABI_IOC_GET_PROCESS_APERTURES_NEW, AMDKFD_IOC_GET_PROCESS_APERTURES_NEW);
SAME_REQ(KFD_ABI_IOC_ACQUIRE_VM, AMDKFD_IOC_ACQUIRE_VM);
SAME_REQ(KFD_ABI_IOC_ALLOC_MEMORY_OF_GPU, AMDKFD_IOC_ALLOC_MEMORY_OF_GPU);
SAME_REQ(KFD_ABI_IOC_FREE_MEMORY_OF_GPU, AMDKFD_IOC_FREE_MEMORY_OF_GPU);
SAME_REQ(KFD_ABI_IOC_MAP_MEMORY_TO_GPU, AMDKFD_IOC_MAP_MEMORY_TO_GPU);
SAME_REQ(KFD_ABI_IOC_UNMAP_MEMORY_FROM_GPU, AMDKFD_IOC_UNMAP_MEMORY_FROM_GPU);
SAME_REQ(KFD_ABI_IOC_SET_CU_MASK, AMDKFD_IOC_SET_CU_MASK);
SAME_REQ(KFD_ABI_IOC_GET_QUEUE_WAVE_STATE, AMDKFD_IOC_GET_QUEUE_WAVE_STATE);
SAME_REQ(KFD_ABI_IOC_GET_DMABUF_INFO, AMDKFD_IOC_GET_DMABUF_INFO);
SAME_REQ(KFD_ABI_IOC_IMPORT_DMABUF, AMDKFD_IOC_IMPORT_DMABUF);
SAME_REQ(KFD_ABI_IOC_ALLOC_QUEUE_GWS, AMDKFD_IOC_ALLOC_QUEUE_GWS);
SAME_REQ(KFD_ABI_IOC_SMI_EVENTS, AMDKFD_IOC_SMI_EVENTS);
SAME_REQ(KFD_ABI_IOC_SVM, AMDKFD_IOC_SVM);
SAME_REQ(KFD_ABI_IOC_SET_XNACK_MODE, AMDKFD_IOC_SET_XNACK_MODE);
SAME_REQ(KFD_ABI_IOC_CRIU_OP, AMDKFD_IOC_CRIU_OP);
SAME_REQ(KFD_ABI_IOC_AVAILABLE_MEMORY, AMDKFD_IOC_AVAILABLE_MEMORY);

/* ---- DRM / amdgpu --------------------------------------------------- */

SAME_SIZE(struct kfd_drm_version, struct drm_version);
SAME_FIELD(struct kfd_drm_version, struct drm_version, version_major);
SAME_FIELD(struct kfd_drm_version, struct drm_version, version_minor);
SAME_FIELD(struct kfd_drm_version, struct drm_version, version_patchlevel);
SAME_FIELD(struct kfd_drm_version, struct drm_version, name_len);
SAME_FIELD(struct kfd_drm_version, struct drm_version, name);
SAME_FIELD(struct kfd_drm_version, struct drm_version, date_len);
SAME_FIELD(struct kfd_drm_version, struct drm_version, date);
SAME_FIELD(struct kfd_drm_version, struct drm_version, desc_len);
SAME_FIELD(struct kfd_drm_version, struct drm_version, desc);

SAME_SIZE(struct kfd_drm_get_cap, struct drm_get_cap);
SAME_FIELD(struct kfd_drm_get_cap, struct drm_get_cap, capability);
SAME_FIELD(struct kfd_drm_get_cap, struct drm_get_cap, value);
_Static_assert(KFD_DRM_CAP_PRIME == DRM_CAP_PRIME, "cap");
_Static_assert(KFD_DRM_CAP_SYNCOBJ_TIMELINE == DRM_CAP_SYNCOBJ_TIMELINE, "cap");

SAME_SIZE(struct kfd_drm_prime_handle, struct drm_prime_handle);
SAME_FIELD(struct kfd_drm_prime_handle, struct drm_prime_handle, handle);
SAME_FIELD(struct kfd_drm_prime_handle, struct drm_prime_handle, flags);
SAME_FIELD(struct kfd_drm_prime_handle, struct drm_prime_handle, fd);

SAME_SIZE(struct kfd_drm_gem_close, struct drm_gem_close);
SAME_FIELD(struct kfd_drm_gem_close, struct drm_gem_close, handle);

SAME_SIZE(union kfd_drm_amdgpu_gem_create, union drm_amdgpu_gem_create);
SAME_FIELD(union kfd_drm_amdgpu_gem_create, union drm_amdgpu_gem_create, in.bo_size);
SAME_FIELD(union kfd_drm_amdgpu_gem_create, union drm_amdgpu_gem_create, in.alignment);
SAME_FIELD(union kfd_drm_amdgpu_gem_create, union drm_amdgpu_gem_create, in.domains);
SAME_FIELD(union kfd_drm_amdgpu_gem_create, union drm_amdgpu_gem_create, in.domain_flags);
SAME_FIELD(union kfd_drm_amdgpu_gem_create, union drm_amdgpu_gem_create, out.handle);
_Static_assert(KFD_DRM_AMDGPU_GEM_DOMAIN_VRAM == AMDGPU_GEM_DOMAIN_VRAM, "domain");
_Static_assert(KFD_DRM_AMDGPU_GEM_DOMAIN_GTT == AMDGPU_GEM_DOMAIN_GTT, "domain");
_Static_assert(KFD_DRM_AMDGPU_GEM_CREATE_PREEMPTIBLE == AMDGPU_GEM_CREATE_PREEMPTIBLE, "flag");
_Static_assert(KFD_DRM_AMDGPU_GEM_CREATE_VRAM_WIPE_ON_RELEASE ==
	       AMDGPU_GEM_CREATE_VRAM_WIPE_ON_RELEASE, "flag");

SAME_SIZE(union kfd_drm_amdgpu_gem_mmap, union drm_amdgpu_gem_mmap);
SAME_FIELD(union kfd_drm_amdgpu_gem_mmap, union drm_amdgpu_gem_mmap, in.handle);
SAME_FIELD(union kfd_drm_amdgpu_gem_mmap, union drm_amdgpu_gem_mmap, out.addr_ptr);

SAME_SIZE(struct kfd_drm_amdgpu_gem_metadata, struct drm_amdgpu_gem_metadata);
SAME_FIELD(struct kfd_drm_amdgpu_gem_metadata, struct drm_amdgpu_gem_metadata, handle);
SAME_FIELD(struct kfd_drm_amdgpu_gem_metadata, struct drm_amdgpu_gem_metadata, op);
SAME_FIELD(struct kfd_drm_amdgpu_gem_metadata, struct drm_amdgpu_gem_metadata, data.flags);
SAME_FIELD(struct kfd_drm_amdgpu_gem_metadata, struct drm_amdgpu_gem_metadata, data.tiling_info);
SAME_FIELD(struct kfd_drm_amdgpu_gem_metadata, struct drm_amdgpu_gem_metadata,
	   data.data_size_bytes);
SAME_FIELD(struct kfd_drm_amdgpu_gem_metadata, struct drm_amdgpu_gem_metadata, data.data);

SAME_SIZE(struct kfd_drm_amdgpu_gem_va, struct drm_amdgpu_gem_va);
SAME_FIELD(struct kfd_drm_amdgpu_gem_va, struct drm_amdgpu_gem_va, handle);
SAME_FIELD(struct kfd_drm_amdgpu_gem_va, struct drm_amdgpu_gem_va, operation);
SAME_FIELD(struct kfd_drm_amdgpu_gem_va, struct drm_amdgpu_gem_va, flags);
SAME_FIELD(struct kfd_drm_amdgpu_gem_va, struct drm_amdgpu_gem_va, va_address);
SAME_FIELD(struct kfd_drm_amdgpu_gem_va, struct drm_amdgpu_gem_va, offset_in_bo);
SAME_FIELD(struct kfd_drm_amdgpu_gem_va, struct drm_amdgpu_gem_va, map_size);
_Static_assert(KFD_DRM_AMDGPU_VM_MTYPE_RW == AMDGPU_VM_MTYPE_RW, "mtype");
_Static_assert(KFD_DRM_AMDGPU_VA_OP_REPLACE == AMDGPU_VA_OP_REPLACE, "va op");

SAME_SIZE(union kfd_drm_amdgpu_bo_list, union drm_amdgpu_bo_list);
SAME_FIELD(union kfd_drm_amdgpu_bo_list, union drm_amdgpu_bo_list, in.operation);
SAME_FIELD(union kfd_drm_amdgpu_bo_list, union drm_amdgpu_bo_list, in.list_handle);
SAME_FIELD(union kfd_drm_amdgpu_bo_list, union drm_amdgpu_bo_list, in.bo_number);
SAME_FIELD(union kfd_drm_amdgpu_bo_list, union drm_amdgpu_bo_list, in.bo_info_size);
SAME_FIELD(union kfd_drm_amdgpu_bo_list, union drm_amdgpu_bo_list, in.bo_info_ptr);
SAME_FIELD(union kfd_drm_amdgpu_bo_list, union drm_amdgpu_bo_list, out.list_handle);
SAME_SIZE(struct kfd_drm_amdgpu_bo_list_entry, struct drm_amdgpu_bo_list_entry);
_Static_assert(KFD_DRM_AMDGPU_BO_LIST_OP_UPDATE == AMDGPU_BO_LIST_OP_UPDATE, "op");
SAME_SIZE(union kfd_drm_amdgpu_cs, union drm_amdgpu_cs);
SAME_FIELD(union kfd_drm_amdgpu_cs, union drm_amdgpu_cs, in.ctx_id);
SAME_FIELD(union kfd_drm_amdgpu_cs, union drm_amdgpu_cs, in.bo_list_handle);
SAME_FIELD(union kfd_drm_amdgpu_cs, union drm_amdgpu_cs, in.num_chunks);
SAME_FIELD(union kfd_drm_amdgpu_cs, union drm_amdgpu_cs, in.flags);
SAME_FIELD(union kfd_drm_amdgpu_cs, union drm_amdgpu_cs, in.chunks);
SAME_FIELD(union kfd_drm_amdgpu_cs, union drm_amdgpu_cs, out.handle);
SAME_SIZE(struct kfd_drm_amdgpu_cs_chunk, struct drm_amdgpu_cs_chunk);
SAME_FIELD(struct kfd_drm_amdgpu_cs_chunk, struct drm_amdgpu_cs_chunk, chunk_data);
SAME_SIZE(struct kfd_drm_amdgpu_cs_chunk_ib, struct drm_amdgpu_cs_chunk_ib);
SAME_FIELD(struct kfd_drm_amdgpu_cs_chunk_ib, struct drm_amdgpu_cs_chunk_ib, va_start);
SAME_FIELD(struct kfd_drm_amdgpu_cs_chunk_ib, struct drm_amdgpu_cs_chunk_ib, ib_bytes);
SAME_FIELD(struct kfd_drm_amdgpu_cs_chunk_ib, struct drm_amdgpu_cs_chunk_ib, ring);
SAME_SIZE(struct kfd_drm_amdgpu_cs_chunk_fence, struct drm_amdgpu_cs_chunk_fence);
SAME_SIZE(struct kfd_drm_amdgpu_cs_chunk_dep, struct drm_amdgpu_cs_chunk_dep);
SAME_FIELD(struct kfd_drm_amdgpu_cs_chunk_dep, struct drm_amdgpu_cs_chunk_dep, handle);
_Static_assert(KFD_DRM_AMDGPU_CHUNK_ID_SYNCOBJ_TIMELINE_SIGNAL ==
	       AMDGPU_CHUNK_ID_SYNCOBJ_TIMELINE_SIGNAL, "chunk");
SAME_SIZE(union kfd_drm_amdgpu_wait_cs, union drm_amdgpu_wait_cs);
SAME_FIELD(union kfd_drm_amdgpu_wait_cs, union drm_amdgpu_wait_cs, in.handle);
SAME_FIELD(union kfd_drm_amdgpu_wait_cs, union drm_amdgpu_wait_cs, in.timeout);
SAME_FIELD(union kfd_drm_amdgpu_wait_cs, union drm_amdgpu_wait_cs, in.ip_type);
SAME_FIELD(union kfd_drm_amdgpu_wait_cs, union drm_amdgpu_wait_cs, in.ring);
SAME_FIELD(union kfd_drm_amdgpu_wait_cs, union drm_amdgpu_wait_cs, in.ctx_id);
SAME_FIELD(union kfd_drm_amdgpu_wait_cs, union drm_amdgpu_wait_cs, out.status);
SAME_SIZE(union kfd_drm_amdgpu_ctx, union drm_amdgpu_ctx);
SAME_FIELD(union kfd_drm_amdgpu_ctx, union drm_amdgpu_ctx, in.op);
SAME_FIELD(union kfd_drm_amdgpu_ctx, union drm_amdgpu_ctx, in.flags);
SAME_FIELD(union kfd_drm_amdgpu_ctx, union drm_amdgpu_ctx, in.ctx_id);
SAME_FIELD(union kfd_drm_amdgpu_ctx, union drm_amdgpu_ctx, in.priority);
SAME_FIELD(union kfd_drm_amdgpu_ctx, union drm_amdgpu_ctx, out.alloc.ctx_id);
SAME_FIELD(union kfd_drm_amdgpu_ctx, union drm_amdgpu_ctx, out.state.flags);
SAME_FIELD(union kfd_drm_amdgpu_ctx, union drm_amdgpu_ctx, out.state.hangs);
SAME_FIELD(union kfd_drm_amdgpu_ctx, union drm_amdgpu_ctx, out.state.reset_status);
SAME_FIELD(union kfd_drm_amdgpu_ctx, union drm_amdgpu_ctx, out.pstate.flags);
_Static_assert(KFD_DRM_AMDGPU_CTX_OP_SET_STABLE_PSTATE == AMDGPU_CTX_OP_SET_STABLE_PSTATE, "op");
_Static_assert(KFD_DRM_AMDGPU_CTX_QUERY2_FLAGS_RAS_UE == AMDGPU_CTX_QUERY2_FLAGS_RAS_UE, "flag");
_Static_assert(KFD_DRM_AMDGPU_CTX_PRIORITY_VERY_HIGH == AMDGPU_CTX_PRIORITY_VERY_HIGH, "prio");
SAME_SIZE(struct kfd_drm_amdgpu_info, struct drm_amdgpu_info);
SAME_FIELD(struct kfd_drm_amdgpu_info, struct drm_amdgpu_info, return_pointer);
SAME_FIELD(struct kfd_drm_amdgpu_info, struct drm_amdgpu_info, return_size);
SAME_FIELD(struct kfd_drm_amdgpu_info, struct drm_amdgpu_info, query);
SAME_FIELD(struct kfd_drm_amdgpu_info, struct drm_amdgpu_info, read_mmr_reg.dword_offset);
SAME_FIELD(struct kfd_drm_amdgpu_info, struct drm_amdgpu_info, read_mmr_reg.count);
SAME_FIELD(struct kfd_drm_amdgpu_info, struct drm_amdgpu_info, read_mmr_reg.instance);
SAME_FIELD(struct kfd_drm_amdgpu_info, struct drm_amdgpu_info, read_mmr_reg.flags);
SAME_FIELD(struct kfd_drm_amdgpu_info, struct drm_amdgpu_info, query_fw.fw_type);
SAME_FIELD(struct kfd_drm_amdgpu_info, struct drm_amdgpu_info, query_fw.ip_instance);
SAME_FIELD(struct kfd_drm_amdgpu_info, struct drm_amdgpu_info, query_fw.index);
SAME_FIELD(struct kfd_drm_amdgpu_info, struct drm_amdgpu_info, query_hw_ip.type);
SAME_FIELD(struct kfd_drm_amdgpu_info, struct drm_amdgpu_info, sensor_info.type);
_Static_assert(KFD_DRM_AMDGPU_INFO_DEV_INFO == AMDGPU_INFO_DEV_INFO, "query");
_Static_assert(KFD_DRM_AMDGPU_INFO_MEMORY == AMDGPU_INFO_MEMORY, "query");
_Static_assert(KFD_DRM_AMDGPU_INFO_VRAM_GTT == AMDGPU_INFO_VRAM_GTT, "query");
_Static_assert(KFD_DRM_AMDGPU_INFO_READ_MMR_REG == AMDGPU_INFO_READ_MMR_REG, "query");
_Static_assert(KFD_DRM_AMDGPU_INFO_FW_VERSION == AMDGPU_INFO_FW_VERSION, "query");
_Static_assert(KFD_DRM_AMDGPU_INFO_VIDEO_CAPS == AMDGPU_INFO_VIDEO_CAPS, "query");
_Static_assert(KFD_DRM_AMDGPU_INFO_FW_TA == AMDGPU_INFO_FW_TA, "fw");

SAME_SIZE(struct kfd_drm_amdgpu_info_firmware, struct drm_amdgpu_info_firmware);
SAME_SIZE(struct kfd_drm_amdgpu_info_vram_gtt, struct drm_amdgpu_info_vram_gtt);
SAME_FIELD(struct kfd_drm_amdgpu_info_vram_gtt, struct drm_amdgpu_info_vram_gtt, gtt_size);
SAME_SIZE(struct kfd_drm_amdgpu_memory_info, struct drm_amdgpu_memory_info);
SAME_FIELD(struct kfd_drm_amdgpu_memory_info, struct drm_amdgpu_memory_info,
	   cpu_accessible_vram.max_allocation);
SAME_FIELD(struct kfd_drm_amdgpu_memory_info, struct drm_amdgpu_memory_info, gtt.heap_usage);

#define DEVF(f) SAME_FIELD(struct kfd_drm_amdgpu_info_device, struct drm_amdgpu_info_device, f)
SAME_SIZE(struct kfd_drm_amdgpu_info_device, struct drm_amdgpu_info_device);
DEVF(device_id);
DEVF(chip_rev);
DEVF(family);
DEVF(gpu_counter_freq);
DEVF(max_engine_clock);
DEVF(max_memory_clock);
DEVF(cu_active_number);
DEVF(cu_bitmap);
DEVF(num_hw_gfx_contexts);
DEVF(ids_flags);
DEVF(virtual_address_offset);
DEVF(virtual_address_max);
DEVF(virtual_address_alignment);
DEVF(pte_fragment_size);
DEVF(gart_page_size);
DEVF(vram_type);
DEVF(vram_bit_width);
DEVF(prim_buf_gpu_addr);
DEVF(param_buf_size);
DEVF(wave_front_size);
DEVF(num_shader_visible_vgprs);
DEVF(num_cu_per_sh);
DEVF(num_tcc_blocks);
DEVF(max_gs_waves_per_vgt);
DEVF(cu_ao_bitmap);
DEVF(high_va_offset);
DEVF(high_va_max);
DEVF(pa_sc_tile_steering_override);
DEVF(tcc_disabled_mask);

SAME_REQ(KFD_DRM_IOCTL_VERSION, DRM_IOCTL_VERSION);
SAME_REQ(KFD_DRM_IOCTL_GEM_CLOSE, DRM_IOCTL_GEM_CLOSE);
SAME_REQ(KFD_DRM_IOCTL_GET_CAP, DRM_IOCTL_GET_CAP);
SAME_REQ(KFD_DRM_IOCTL_PRIME_HANDLE_TO_FD, DRM_IOCTL_PRIME_HANDLE_TO_FD);
SAME_REQ(KFD_DRM_IOCTL_PRIME_FD_TO_HANDLE, DRM_IOCTL_PRIME_FD_TO_HANDLE);
SAME_REQ(KFD_DRM_IOCTL_AMDGPU_GEM_CREATE, DRM_IOCTL_AMDGPU_GEM_CREATE);
SAME_REQ(KFD_DRM_IOCTL_AMDGPU_GEM_MMAP, DRM_IOCTL_AMDGPU_GEM_MMAP);
SAME_REQ(KFD_DRM_IOCTL_AMDGPU_CTX, DRM_IOCTL_AMDGPU_CTX);
SAME_REQ(KFD_DRM_IOCTL_AMDGPU_BO_LIST, DRM_IOCTL_AMDGPU_BO_LIST);
SAME_REQ(KFD_DRM_IOCTL_AMDGPU_CS, DRM_IOCTL_AMDGPU_CS);
SAME_REQ(KFD_DRM_IOCTL_AMDGPU_WAIT_CS, DRM_IOCTL_AMDGPU_WAIT_CS);
SAME_REQ(KFD_DRM_IOCTL_AMDGPU_INFO, DRM_IOCTL_AMDGPU_INFO);
SAME_REQ(KFD_DRM_IOCTL_AMDGPU_GEM_METADATA, DRM_IOCTL_AMDGPU_GEM_METADATA);
SAME_REQ(KFD_DRM_IOCTL_AMDGPU_GEM_VA, DRM_IOCTL_AMDGPU_GEM_VA);

/* Newer than Debian's libdrm: checked where the installed header has them. */
#ifdef AMDGPU_INFO_GPUVM_FAULT
_Static_assert(KFD_DRM_AMDGPU_INFO_GPUVM_FAULT == AMDGPU_INFO_GPUVM_FAULT, "query");
SAME_SIZE(struct kfd_drm_amdgpu_info_gpuvm_fault, struct drm_amdgpu_info_gpuvm_fault);
#endif
#ifdef DRM_AMDGPU_USERQ
_Static_assert(KFD_DRM_AMDGPU_INFO_UQ_FW_AREAS == AMDGPU_INFO_UQ_FW_AREAS, "query");
/* Its result struct is named differently in libdrm's copies: not checked. */
SAME_REQ(KFD_DRM_IOCTL_AMDGPU_USERQ, DRM_IOCTL_AMDGPU_USERQ);
SAME_REQ(KFD_DRM_IOCTL_AMDGPU_USERQ_SIGNAL, DRM_IOCTL_AMDGPU_USERQ_SIGNAL);
SAME_REQ(KFD_DRM_IOCTL_AMDGPU_USERQ_WAIT, DRM_IOCTL_AMDGPU_USERQ_WAIT);
SAME_FIELD(union kfd_drm_amdgpu_userq, union drm_amdgpu_userq, in.mqd_size);
SAME_FIELD(struct kfd_drm_amdgpu_userq_signal, struct drm_amdgpu_userq_signal,
	   num_bo_write_handles);
SAME_FIELD(struct kfd_drm_amdgpu_userq_wait, struct drm_amdgpu_userq_wait, num_fences);
SAME_FIELD(struct kfd_drm_amdgpu_userq_wait, struct drm_amdgpu_userq_wait, out_fences);
#endif
#ifdef DRM_AMDGPU_GEM_LIST_HANDLES
SAME_REQ(KFD_DRM_IOCTL_AMDGPU_GEM_LIST_HANDLES, DRM_IOCTL_AMDGPU_GEM_LIST_HANDLES);
SAME_SIZE(struct kfd_drm_amdgpu_gem_list_handles_entry,
	  struct drm_amdgpu_gem_list_handles_entry);
#endif

/* A translation unit may not be empty; this symbol is never used. */
int kfd_abi_check_done(void);
int
kfd_abi_check_done(void)
{
	return 1;
}

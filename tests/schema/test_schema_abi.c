/* SPDX-License-Identifier: MIT */
/*
 * The schema rows against the distribution's headers at run time: every
 * request code <linux/kfd_ioctl.h> (ABI 1.11) and libdrm define resolves to
 * the row of the same name, and the row's layout agrees with the kernel's
 * struct. (formats/schema/abi_check.c proves the ABI header at build time;
 * this proves the table built from it.)
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <cmocka.h>
#include <linux/kfd_ioctl.h>
#include <drm.h>
#include <amdgpu_drm.h>

#include "kfdtrace/schema.h"

struct sys_ioctl {
	const char *row;
	unsigned long request;
	size_t size;
};

#define KI(row, req, st)	{ row, AMDKFD_IOC_##req, sizeof(struct st) }

static const struct sys_ioctl sys_kfd[] = {
	KI("GET_VERSION", GET_VERSION, kfd_ioctl_get_version_args),
	KI("CREATE_QUEUE", CREATE_QUEUE, kfd_ioctl_create_queue_args),
	KI("DESTROY_QUEUE", DESTROY_QUEUE, kfd_ioctl_destroy_queue_args),
	KI("SET_MEMORY_POLICY", SET_MEMORY_POLICY, kfd_ioctl_set_memory_policy_args),
	KI("GET_CLOCK_COUNTERS", GET_CLOCK_COUNTERS, kfd_ioctl_get_clock_counters_args),
	KI("GET_PROCESS_APERTURES", GET_PROCESS_APERTURES,
	   kfd_ioctl_get_process_apertures_args),
	KI("UPDATE_QUEUE", UPDATE_QUEUE, kfd_ioctl_update_queue_args),
	KI("CREATE_EVENT", CREATE_EVENT, kfd_ioctl_create_event_args),
	KI("DESTROY_EVENT", DESTROY_EVENT, kfd_ioctl_destroy_event_args),
	KI("SET_EVENT", SET_EVENT, kfd_ioctl_set_event_args),
	KI("RESET_EVENT", RESET_EVENT, kfd_ioctl_reset_event_args),
	KI("WAIT_EVENTS", WAIT_EVENTS, kfd_ioctl_wait_events_args),
	KI("DBG_REGISTER", DBG_REGISTER_DEPRECATED, kfd_ioctl_dbg_register_args),
	KI("DBG_UNREGISTER", DBG_UNREGISTER_DEPRECATED, kfd_ioctl_dbg_unregister_args),
	KI("DBG_ADDRESS_WATCH", DBG_ADDRESS_WATCH_DEPRECATED, kfd_ioctl_dbg_address_watch_args),
	KI("DBG_WAVE_CONTROL", DBG_WAVE_CONTROL_DEPRECATED, kfd_ioctl_dbg_wave_control_args),
	KI("SET_SCRATCH_BACKING_VA", SET_SCRATCH_BACKING_VA,
	   kfd_ioctl_set_scratch_backing_va_args),
	KI("GET_TILE_CONFIG", GET_TILE_CONFIG, kfd_ioctl_get_tile_config_args),
	KI("SET_TRAP_HANDLER", SET_TRAP_HANDLER, kfd_ioctl_set_trap_handler_args),
	KI("GET_PROCESS_APERTURES_NEW", GET_PROCESS_APERTURES_NEW,
	   kfd_ioctl_get_process_apertures_new_args),
	KI("ACQUIRE_VM", ACQUIRE_VM, kfd_ioctl_acquire_vm_args),
	KI("ALLOC_MEMORY_OF_GPU", ALLOC_MEMORY_OF_GPU, kfd_ioctl_alloc_memory_of_gpu_args),
	KI("FREE_MEMORY_OF_GPU", FREE_MEMORY_OF_GPU, kfd_ioctl_free_memory_of_gpu_args),
	KI("MAP_MEMORY_TO_GPU", MAP_MEMORY_TO_GPU, kfd_ioctl_map_memory_to_gpu_args),
	KI("UNMAP_MEMORY_FROM_GPU", UNMAP_MEMORY_FROM_GPU,
	   kfd_ioctl_unmap_memory_from_gpu_args),
	KI("SET_CU_MASK", SET_CU_MASK, kfd_ioctl_set_cu_mask_args),
	KI("GET_QUEUE_WAVE_STATE", GET_QUEUE_WAVE_STATE, kfd_ioctl_get_queue_wave_state_args),
	KI("GET_DMABUF_INFO", GET_DMABUF_INFO, kfd_ioctl_get_dmabuf_info_args),
	KI("IMPORT_DMABUF", IMPORT_DMABUF, kfd_ioctl_import_dmabuf_args),
	KI("ALLOC_QUEUE_GWS", ALLOC_QUEUE_GWS, kfd_ioctl_alloc_queue_gws_args),
	KI("SMI_EVENTS", SMI_EVENTS, kfd_ioctl_smi_events_args),
	KI("SVM", SVM, kfd_ioctl_svm_args),
	KI("SET_XNACK_MODE", SET_XNACK_MODE, kfd_ioctl_set_xnack_mode_args),
	KI("CRIU_OP", CRIU_OP, kfd_ioctl_criu_args),
	KI("AVAILABLE_MEMORY", AVAILABLE_MEMORY, kfd_ioctl_get_available_memory_args),
};

#define DI(row, req, t)		{ row, req, sizeof(t) }

static const struct sys_ioctl sys_drm[] = {
	DI("DRM_VERSION", DRM_IOCTL_VERSION, struct drm_version),
	DI("DRM_GEM_CLOSE", DRM_IOCTL_GEM_CLOSE, struct drm_gem_close),
	DI("DRM_GET_CAP", DRM_IOCTL_GET_CAP, struct drm_get_cap),
	DI("DRM_PRIME_HANDLE_TO_FD", DRM_IOCTL_PRIME_HANDLE_TO_FD, struct drm_prime_handle),
	DI("DRM_PRIME_FD_TO_HANDLE", DRM_IOCTL_PRIME_FD_TO_HANDLE, struct drm_prime_handle),
	DI("AMDGPU_GEM_CREATE", DRM_IOCTL_AMDGPU_GEM_CREATE, union drm_amdgpu_gem_create),
	DI("AMDGPU_GEM_MMAP", DRM_IOCTL_AMDGPU_GEM_MMAP, union drm_amdgpu_gem_mmap),
	DI("AMDGPU_INFO", DRM_IOCTL_AMDGPU_INFO, struct drm_amdgpu_info),
	DI("AMDGPU_GEM_METADATA", DRM_IOCTL_AMDGPU_GEM_METADATA,
	   struct drm_amdgpu_gem_metadata),
	DI("AMDGPU_GEM_VA", DRM_IOCTL_AMDGPU_GEM_VA, struct drm_amdgpu_gem_va),
};

static void
check(enum kfd_file_kind kind, const struct sys_ioctl *s, unsigned int n)
{
	unsigned int i, v;

	for (i = 0; i < n; i++) {
		const struct kfd_ioctl_desc *d = kfd_schema_lookup(kind, s[i].request);
		int same = 0;

		if (!d)
			fail_msg("%s (0x%lx) has no row", s[i].row, s[i].request);
		assert_string_equal(d->name, s[i].row);
		/* The exact code is the row's, or one of its size variants. */
		same = d->request == (uint32_t)s[i].request;
		for (v = 0; v < d->nvariants; v++) {
			if (d->variants[v].request == (uint32_t)s[i].request) {
				assert_int_equal(d->variants[v].size, s[i].size);
				same = 1;
			}
		}
		if (!same)
			fail_msg("%s: system 0x%lx, row 0x%x", s[i].row, s[i].request,
				 d->request);
		assert_true(d->args->size >= s[i].size);
		if (!d->nvariants)
			assert_int_equal(d->args->size, s[i].size);
	}
}

static void
test_kfd_requests_match_kernel(void **state)
{
	(void)state;
	check(KFD_FILE_KFD, sys_kfd, sizeof(sys_kfd) / sizeof(sys_kfd[0]));
}

static void
test_drm_requests_match_libdrm(void **state)
{
	(void)state;
	check(KFD_FILE_RENDER, sys_drm, sizeof(sys_drm) / sizeof(sys_drm[0]));
}

struct sys_field {
	const char *row;
	const char *field;
	size_t offset;
	size_t width;
};

#define KF(row, st, f)							\
	{ row, #f, offsetof(struct st, f), sizeof(((struct st *)0)->f) }

/* Every field of a few representative kernel structs, by offset and width. */
static const struct sys_field sys_fields[] = {
	KF("CREATE_QUEUE", kfd_ioctl_create_queue_args, ring_base_address),
	KF("CREATE_QUEUE", kfd_ioctl_create_queue_args, doorbell_offset),
	KF("CREATE_QUEUE", kfd_ioctl_create_queue_args, queue_id),
	KF("CREATE_QUEUE", kfd_ioctl_create_queue_args, eop_buffer_size),
	KF("CREATE_QUEUE", kfd_ioctl_create_queue_args, ctl_stack_size),
	KF("ALLOC_MEMORY_OF_GPU", kfd_ioctl_alloc_memory_of_gpu_args, va_addr),
	KF("ALLOC_MEMORY_OF_GPU", kfd_ioctl_alloc_memory_of_gpu_args, handle),
	KF("ALLOC_MEMORY_OF_GPU", kfd_ioctl_alloc_memory_of_gpu_args, mmap_offset),
	KF("ALLOC_MEMORY_OF_GPU", kfd_ioctl_alloc_memory_of_gpu_args, flags),
	KF("MAP_MEMORY_TO_GPU", kfd_ioctl_map_memory_to_gpu_args, n_success),
	KF("CREATE_EVENT", kfd_ioctl_create_event_args, event_slot_index),
	KF("WAIT_EVENTS", kfd_ioctl_wait_events_args, wait_result),
	KF("GET_TILE_CONFIG", kfd_ioctl_get_tile_config_args, num_macro_tile_configs),
	KF("GET_TILE_CONFIG", kfd_ioctl_get_tile_config_args, num_ranks),
	KF("GET_DMABUF_INFO", kfd_ioctl_get_dmabuf_info_args, dmabuf_fd),
	KF("SVM", kfd_ioctl_svm_args, nattr),
	KF("CRIU_OP", kfd_ioctl_criu_args, op),
	KF("GET_PROCESS_APERTURES", kfd_ioctl_get_process_apertures_args, num_of_nodes),
	KF("GET_PROCESS_APERTURES", kfd_ioctl_get_process_apertures_args,
	   process_apertures[6].gpu_id),
	KF("AVAILABLE_MEMORY", kfd_ioctl_get_available_memory_args, gpu_id),
	KF("DRM_VERSION", drm_version, desc_len),
	KF("DRM_VERSION", drm_version, desc),
	KF("AMDGPU_INFO", drm_amdgpu_info, query),
	KF("AMDGPU_INFO", drm_amdgpu_info, read_mmr_reg.instance),
	KF("AMDGPU_INFO", drm_amdgpu_info, query_fw.index),
	KF("AMDGPU_GEM_VA", drm_amdgpu_gem_va, map_size),
	KF("AMDGPU_GEM_METADATA", drm_amdgpu_gem_metadata, data.data_size_bytes),
	KF("AMDGPU_GEM_METADATA", drm_amdgpu_gem_metadata, data.data),
};

static void
test_fields_match_kernel(void **state)
{
	unsigned int i;

	(void)state;
	for (i = 0; i < sizeof(sys_fields) / sizeof(sys_fields[0]); i++) {
		const struct sys_field *s = &sys_fields[i];
		const struct kfd_ioctl_desc *d = kfd_schema_by_name(s->row);
		int k;

		assert_non_null(d);
		k = kfd_schema_field(d, s->field);
		if (k < 0)
			fail_msg("%s has no field %s", s->row, s->field);
		assert_int_equal(d->args->fields[k].offset, s->offset);
		assert_int_equal(d->args->fields[k].width, s->width);
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_kfd_requests_match_kernel),
		cmocka_unit_test(test_drm_requests_match_libdrm),
		cmocka_unit_test(test_fields_match_kernel),
	};

	return cmocka_run_group_tests_name("schema_abi", tests, NULL, NULL);
}

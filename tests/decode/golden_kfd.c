/* SPDX-License-Identifier: MIT */
/*
 * Golden text decoding of the upstream KFD ioctls, one family per test:
 * each builds a record from the ABI structs and compares the exact line.
 */
#include "decode_test.h"
#include "kfdtrace/kfd_abi.h"

#define GPU 0x1234u
#define HANDLE3 (((uint64_t)GPU << 32) | 3)

static void
test_version(void **state)
{
	struct kfd_abi_get_version_args in = { 0 }, out = { 1, 14 };
	struct kt_record r = mk_ioctl(KFD_ABI_IOC_GET_VERSION, &in, &out,
				      sizeof(in), 0, 0);

	assert_text(&r, "GET_VERSION() = 0 {major_version=1, minor_version=14}");
}

static void
test_queue_create(void **state)
{
	struct kfd_abi_create_queue_args in = {
		.ring_base_address = 0x7f0000010000,
		.write_pointer_address = 0x7f0000020000,
		.read_pointer_address = 0x7f0000020080,
		.ring_size = 65536,
		.gpu_id = GPU,
		.queue_type = KFD_ABI_QUEUE_TYPE_COMPUTE_AQL,
		.queue_percentage = 100,
		.queue_priority = 7,
		.eop_buffer_address = 0x7f0000030000,
		.eop_buffer_size = 4096,
		.ctx_save_restore_address = 0x7f0000040000,
		.ctx_save_restore_size = 2752512,
		.ctl_stack_size = 4096,
	};
	struct kfd_abi_create_queue_args out = in;
	struct kt_record r;

	out.doorbell_offset = KFD_ABI_MMAP_OFFSET(KFD_ABI_MMAP_TYPE_DOORBELL,
						  GPU, 8);
	out.queue_id = 1;
	r = mk_ioctl(KFD_ABI_IOC_CREATE_QUEUE, &in, &out, sizeof(in), 0, 0);
	assert_text(&r, "CREATE_QUEUE(ring_base_address=0x7f0000010000, "
		    "write_pointer_address=0x7f0000020000, "
		    "read_pointer_address=0x7f0000020080, ring_size=65536, "
		    "gpu_id=0x1234, queue_type=COMPUTE_AQL, queue_percentage=100, "
		    "queue_priority=7, eop_buffer_address=0x7f0000030000, "
		    "eop_buffer_size=4096, ctx_save_restore_address=0x7f0000040000, "
		    "ctx_save_restore_size=2752512, ctl_stack_size=4096, "
		    "sdma_engine_id=0, metadata_ring_size=0) = 0 "
		    "{doorbell_offset=0xc48d000000000008, queue_id=1}");
}

/* The 88-byte pre-1.17 struct: no sdma_engine_id; ring_size clamped up. */
static void
test_queue_create_old_abi(void **state)
{
	struct kfd_abi_create_queue_args in = {
		.ring_base_address = 0x1000,
		.write_pointer_address = 0x2000,
		.read_pointer_address = 0x3000,
		.ring_size = 512,
		.gpu_id = GPU,
		.queue_type = KFD_ABI_QUEUE_TYPE_SDMA,
	};
	struct kfd_abi_create_queue_args out = in;
	struct kt_record r;

	out.ring_size = 1024;
	out.queue_id = 2;
	out.doorbell_offset = 0xc48d000000000000;
	r = mk_ioctl(KFD_ABI_IOC_CREATE_QUEUE_1_16, &in, &out,
		     KFD_ABI_CREATE_QUEUE_ARGS_SIZE_1_16, 0, 0);
	assert_text(&r, "CREATE_QUEUE(ring_base_address=0x1000, "
		    "write_pointer_address=0x2000, read_pointer_address=0x3000, "
		    "ring_size=512, gpu_id=0x1234, queue_type=SDMA, "
		    "queue_percentage=0, queue_priority=0, eop_buffer_address=0x0, "
		    "eop_buffer_size=0, ctx_save_restore_address=0x0, "
		    "ctx_save_restore_size=0, ctl_stack_size=0) = 0 "
		    "{doorbell_offset=0xc48d000000000000, ring_size=1024, queue_id=2}");
}

static void
test_queue_destroy_update(void **state)
{
	struct kfd_abi_destroy_queue_args d = { .queue_id = 2 };
	struct kfd_abi_update_queue_args u = {
		.ring_base_address = 0, .queue_id = 2, .ring_size = 0,
		.queue_percentage = 0, .queue_priority = 15,
	};
	struct kt_record r;

	r = mk_ioctl(KFD_ABI_IOC_DESTROY_QUEUE, &d, &d, sizeof(d), 0, 0);
	assert_text(&r, "DESTROY_QUEUE(queue_id=2) = 0");
	r = mk_ioctl(KFD_ABI_IOC_DESTROY_QUEUE, &d, &d, sizeof(d), -1, 22);
	assert_text(&r, "DESTROY_QUEUE(queue_id=2) = -1 EINVAL (Invalid argument)");
	r = mk_ioctl(KFD_ABI_IOC_UPDATE_QUEUE, &u, NULL, sizeof(u), -1, 14);
	assert_text(&r, "UPDATE_QUEUE(ring_base_address=0x0, queue_id=2, "
		    "ring_size=0, queue_percentage=0, queue_priority=15) = "
		    "-1 EFAULT (Bad address)");
}

static void
test_queue_cu_mask(void **state)
{
	struct kfd_abi_set_cu_mask_args a = {
		.queue_id = 1, .num_cu_mask = 64, .cu_mask_ptr = 0x7ffc0000a000,
	};
	uint32_t mask[2] = { 0xffffffff, 0xf };
	struct kt_buf_image b = mk_buf(0, a.cu_mask_ptr, mask, sizeof(mask),
				       NULL, 0);
	struct kt_record r = mk_ioctl(KFD_ABI_IOC_SET_CU_MASK, &a, NULL,
				      sizeof(a), 0, 0);

	r.u.ioctl.nbufs = 1;
	r.u.ioctl.bufs = &b;
	assert_text(&r, "SET_CU_MASK(queue_id=1, num_cu_mask=64, "
		    "cu_mask_ptr=[0xffffffff, 0xf]) = 0");
}

static void
test_queue_wave_state_gws(void **state)
{
	struct kfd_abi_get_queue_wave_state_args in = {
		.ctl_stack_address = 0x7f0000050000, .queue_id = 1,
	};
	struct kfd_abi_get_queue_wave_state_args out = in;
	struct kfd_abi_alloc_queue_gws_args g = { .queue_id = 1, .num_gws = 64 };
	uint8_t stack[12] = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12 };
	struct kt_buf_image b = mk_buf(0, in.ctl_stack_address, NULL, 0,
				       stack, sizeof(stack));
	struct kt_record r;

	out.ctl_stack_used_size = 12;
	out.save_area_used_size = 4096;
	r = mk_ioctl(KFD_ABI_IOC_GET_QUEUE_WAVE_STATE, &in, &out, sizeof(in),
		     0, 0);
	r.u.ioctl.nbufs = 1;
	r.u.ioctl.bufs = &b;
	assert_text(&r, "GET_QUEUE_WAVE_STATE(ctl_stack_address=0x7f0000050000, "
		    "queue_id=1) = 0 {ctl_stack_address=<0102030405060708090a0b0c>, "
		    "ctl_stack_used_size=12, save_area_used_size=4096}");

	r = mk_ioctl(KFD_ABI_IOC_ALLOC_QUEUE_GWS, &g, &g, sizeof(g), 0, 0);
	assert_text(&r, "ALLOC_QUEUE_GWS(queue_id=1, num_gws=64) = 0 "
		    "{first_gws=0}");
}

static void
test_memory_alloc(void **state)
{
	struct kfd_abi_alloc_memory_of_gpu_args in = {
		.va_addr = 0x7f0000200000,
		.size = 2097152,
		.gpu_id = GPU,
		.flags = KFD_ABI_ALLOC_MEM_FLAGS_VRAM |
			 KFD_ABI_ALLOC_MEM_FLAGS_WRITABLE |
			 KFD_ABI_ALLOC_MEM_FLAGS_EXECUTABLE,
	};
	struct kfd_abi_alloc_memory_of_gpu_args out = in;
	struct kt_record r;

	out.handle = HANDLE3;
	out.mmap_offset = 0x100003000;
	r = mk_ioctl(KFD_ABI_IOC_ALLOC_MEMORY_OF_GPU, &in, &out, sizeof(in),
		     0, 0);
	assert_text(&r, "ALLOC_MEMORY_OF_GPU(va_addr=0x7f0000200000, "
		    "size=2097152, mmap_offset=0x0, gpu_id=0x1234, "
		    "flags=VRAM|EXECUTABLE|WRITABLE) = 0 "
		    "{handle=0x1234_00000003, mmap_offset=0x100003000}");
}

/* Unknown flag bits print as a hex remainder; errors by name. */
static void
test_memory_alloc_error(void **state)
{
	struct kfd_abi_alloc_memory_of_gpu_args in = {
		.va_addr = 0x7f0000200000,
		.size = 1ULL << 40,
		.gpu_id = GPU,
		.flags = KFD_ABI_ALLOC_MEM_FLAGS_GTT | 0x40000,
	};
	struct kt_record r = mk_ioctl(KFD_ABI_IOC_ALLOC_MEMORY_OF_GPU, &in,
				      &in, sizeof(in), -1, 12);

	assert_text(&r, "ALLOC_MEMORY_OF_GPU(va_addr=0x7f0000200000, "
		    "size=1099511627776, mmap_offset=0x0, gpu_id=0x1234, "
		    "flags=GTT|0x40000) = -1 ENOMEM (Cannot allocate memory)");
}

static void
test_memory_free(void **state)
{
	struct kfd_abi_free_memory_of_gpu_args a = { .handle = HANDLE3 };
	struct kt_record r;

	r = mk_ioctl(KFD_ABI_IOC_FREE_MEMORY_OF_GPU, &a, NULL, sizeof(a), 0, 0);
	assert_text(&r, "FREE_MEMORY_OF_GPU(handle=0x1234_00000003) = 0");
	r = mk_ioctl(KFD_ABI_IOC_FREE_MEMORY_OF_GPU, &a, NULL, sizeof(a), -1, 16);
	assert_text(&r, "FREE_MEMORY_OF_GPU(handle=0x1234_00000003) = "
		    "-1 EBUSY (Device or resource busy)");
}

static void
test_memory_map_unmap(void **state)
{
	struct kfd_abi_map_memory_to_gpu_args in = {
		.handle = HANDLE3,
		.device_ids_array_ptr = 0x7ffc00001000,
		.n_devices = 2,
	};
	struct kfd_abi_map_memory_to_gpu_args out = in;
	uint32_t ids[2] = { GPU, 0x5678 };
	struct kt_buf_image b = mk_buf(0, in.device_ids_array_ptr, ids,
				       sizeof(ids), NULL, 0);
	struct kt_record r;

	out.n_success = 2;
	r = mk_ioctl(KFD_ABI_IOC_MAP_MEMORY_TO_GPU, &in, &out, sizeof(in), 0, 0);
	r.u.ioctl.nbufs = 1;
	r.u.ioctl.bufs = &b;
	assert_text(&r, "MAP_MEMORY_TO_GPU(handle=0x1234_00000003, "
		    "device_ids_array_ptr=[0x1234, 0x5678], n_devices=2, "
		    "n_success=0) = 0 {n_success=2}");

	/* Partial failure: the kernel copies n_success back on error. */
	out.n_success = 1;
	r = mk_ioctl(KFD_ABI_IOC_UNMAP_MEMORY_FROM_GPU, &in, &out, sizeof(in),
		     -1, 22);
	r.u.ioctl.nbufs = 1;
	r.u.ioctl.bufs = &b;
	assert_text(&r, "UNMAP_MEMORY_FROM_GPU(handle=0x1234_00000003, "
		    "device_ids_array_ptr=[0x1234, 0x5678], n_devices=2, "
		    "n_success=0) = -1 EINVAL (Invalid argument) {n_success=1}");
}

static void
test_memory_acquire_vm_available(void **state)
{
	struct kfd_abi_acquire_vm_args vm = { .drm_fd = 5, .gpu_id = GPU };
	struct kfd_abi_get_available_memory_args in = { .gpu_id = GPU };
	struct kfd_abi_get_available_memory_args out = in;
	struct kt_record r;

	r = mk_ioctl(KFD_ABI_IOC_ACQUIRE_VM, &vm, NULL, sizeof(vm), 0, 0);
	assert_text(&r, "ACQUIRE_VM(drm_fd=5, gpu_id=0x1234) = 0");
	out.available = 68702699520ULL;
	r = mk_ioctl(KFD_ABI_IOC_AVAILABLE_MEMORY, &in, &out, sizeof(in), 0, 0);
	assert_text(&r, "AVAILABLE_MEMORY(gpu_id=0x1234) = 0 "
		    "{available=68702699520}");
}

static void
test_dmabuf(void **state)
{
	struct kfd_abi_get_dmabuf_info_args in = {
		.metadata_ptr = 0x7ffc0000b000, .metadata_size = 64,
		.dmabuf_fd = 7,
	};
	struct kfd_abi_get_dmabuf_info_args out = in;
	struct kfd_abi_import_dmabuf_args imp = {
		.va_addr = 0x7f0000400000, .gpu_id = GPU, .dmabuf_fd = 7,
	};
	struct kfd_abi_import_dmabuf_args imp_out = imp;
	struct kfd_abi_export_dmabuf_args exp = {
		.handle = HANDLE3, .flags = O_RDWR | O_CLOEXEC,
	};
	struct kfd_abi_export_dmabuf_args exp_out = exp;
	uint8_t meta[16];
	struct kt_buf_image b;
	struct kt_record r;
	int i;

	for (i = 0; i < 16; i++)
		meta[i] = (uint8_t)(i + 1);
	b = mk_buf(0, in.metadata_ptr, NULL, 0, meta, sizeof(meta));
	out.size = 4194304;
	out.metadata_size = 16;
	out.gpu_id = GPU;
	out.flags = KFD_ABI_ALLOC_MEM_FLAGS_VRAM;
	r = mk_ioctl(KFD_ABI_IOC_GET_DMABUF_INFO, &in, &out, sizeof(in), 0, 0);
	r.u.ioctl.nbufs = 1;
	r.u.ioctl.bufs = &b;
	assert_text(&r, "GET_DMABUF_INFO(metadata_ptr=0x7ffc0000b000, "
		    "metadata_size=64, dmabuf_fd=7) = 0 {size=4194304, "
		    "metadata_ptr=<0102030405060708090a0b0c0d0e0f10>, "
		    "metadata_size=16, gpu_id=0x1234, flags=VRAM}");

	imp_out.handle = ((uint64_t)GPU << 32) | 4;
	r = mk_ioctl(KFD_ABI_IOC_IMPORT_DMABUF, &imp, &imp_out, sizeof(imp),
		     0, 0);
	assert_text(&r, "IMPORT_DMABUF(va_addr=0x7f0000400000, gpu_id=0x1234, "
		    "dmabuf_fd=7) = 0 {handle=0x1234_00000004}");

	exp_out.dmabuf_fd = 9;
	r = mk_ioctl(KFD_ABI_IOC_EXPORT_DMABUF, &exp, &exp_out, sizeof(exp),
		     0, 0);
	assert_text(&r, "EXPORT_DMABUF(handle=0x1234_00000003, "
		    "flags=O_RDWR|O_CLOEXEC) = 0 {dmabuf_fd=9}");
}

static void
test_events_create_destroy(void **state)
{
	struct kfd_abi_create_event_args in = {
		.event_page_offset = ((uint64_t)GPU << 32) | 1,
		.event_type = KFD_ABI_EVENT_SIGNAL,
		.auto_reset = 1,
	};
	struct kfd_abi_create_event_args out = in;
	struct kfd_abi_destroy_event_args d = { .event_id = 0x40000000 };
	struct kfd_abi_set_event_args s = { .event_id = 1 };
	struct kfd_abi_reset_event_args rs = { .event_id = 1, .pad = 5 };
	struct kt_record r;

	out.event_page_offset = KFD_ABI_MMAP_TYPE_EVENTS;
	out.event_trigger_data = 1;
	out.event_id = 1;
	out.event_slot_index = 1;
	r = mk_ioctl(KFD_ABI_IOC_CREATE_EVENT, &in, &out, sizeof(in), 0, 0);
	assert_text(&r, "CREATE_EVENT(event_page_offset=0x1234_00000001, "
		    "event_type=SIGNAL, auto_reset=1, node_id=0) = 0 "
		    "{event_page_offset=0x80000000_00000000, "
		    "event_trigger_data=0x1, event_id=1, event_slot_index=1}");

	r = mk_ioctl(KFD_ABI_IOC_DESTROY_EVENT, &d, NULL, sizeof(d), -1, 22);
	assert_text(&r, "DESTROY_EVENT(event_id=0x40000000) = "
		    "-1 EINVAL (Invalid argument)");
	r = mk_ioctl(KFD_ABI_IOC_SET_EVENT, &s, NULL, sizeof(s), 0, 0);
	assert_text(&r, "SET_EVENT(event_id=1) = 0");
	/* Non-zero padding is shown: the kernel may one day read it. */
	r = mk_ioctl(KFD_ABI_IOC_RESET_EVENT, &rs, NULL, sizeof(rs), 0, 0);
	assert_text(&r, "RESET_EVENT(event_id=1, pad=0x5) = 0");
}

static void
test_events_wait(void **state)
{
	struct kfd_abi_wait_events_args in = {
		.events_ptr = 0x7ffc00003000,
		.num_events = 2,
		.timeout = 1000,
	};
	struct kfd_abi_wait_events_args out = in;
	struct kfd_abi_event_data ev[2], ev_out[2];
	struct kt_buf_image b;
	struct kt_record r;

	memset(ev, 0, sizeof(ev));
	ev[0].signal_event_data.last_event_age = 3;
	ev[0].event_id = 1;
	ev[1].event_id = 0x40000002;
	memcpy(ev_out, ev, sizeof(ev));
	ev_out[0].signal_event_data.last_event_age = 4;
	b = mk_buf(0, in.events_ptr, ev, sizeof(ev), ev_out, sizeof(ev_out));
	out.wait_result = KFD_ABI_WAIT_RESULT_COMPLETE;
	r = mk_ioctl(KFD_ABI_IOC_WAIT_EVENTS, &in, &out, sizeof(in), 0, 0);
	r.u.ioctl.nbufs = 1;
	r.u.ioctl.bufs = &b;
	assert_text(&r, "WAIT_EVENTS(events_ptr=["
		    "{data=<03000000, 28 zero bytes>, kfd_event_data_ext=NULL, event_id=1}, "
		    "{data=<32 zero bytes>, kfd_event_data_ext=NULL, event_id=0x40000002}], "
		    "num_events=2, wait_for_all=0, timeout=1000) = 0 {events_ptr=["
		    "{data=<04000000, 28 zero bytes>, kfd_event_data_ext=NULL, event_id=1}, "
		    "{data=<32 zero bytes>, kfd_event_data_ext=NULL, event_id=0x40000002}], "
		    "wait_result=COMPLETE}");

	/* A timeout leaves the events alone: only the result comes out. */
	b = mk_buf(0, in.events_ptr, ev, sizeof(ev), ev, sizeof(ev));
	out.wait_result = KFD_ABI_WAIT_RESULT_TIMEOUT;
	r = mk_ioctl(KFD_ABI_IOC_WAIT_EVENTS, &in, &out, sizeof(in), 0, 0);
	r.u.ioctl.nbufs = 1;
	r.u.ioctl.bufs = &b;
	assert_true(strstr(decode_text(&r),
			   "timeout=1000) = 0 {wait_result=TIMEOUT}") != NULL);
}

static void
test_apertures_new(void **state)
{
	struct kfd_abi_get_process_apertures_new_args in = {
		.kfd_process_device_apertures_ptr = 0x7ffc00002000,
		.num_of_nodes = 8,
	};
	struct kfd_abi_get_process_apertures_new_args out = in;
	struct kfd_abi_process_device_apertures ap = {
		.lds_base = 0x1000000000000, .lds_limit = 0x10000ffffffff,
		.scratch_base = 0x2000000000000, .scratch_limit = 0x20000ffffffff,
		.gpuvm_base = 0x10000, .gpuvm_limit = 0x7fffffffffff,
		.gpu_id = GPU,
	};
	struct kt_buf_image b = mk_buf(0, in.kfd_process_device_apertures_ptr,
				       NULL, 0, &ap, sizeof(ap));
	struct kt_record r;

	out.num_of_nodes = 1;
	r = mk_ioctl(KFD_ABI_IOC_GET_PROCESS_APERTURES_NEW, &in, &out,
		     sizeof(in), 0, 0);
	r.u.ioctl.nbufs = 1;
	r.u.ioctl.bufs = &b;
	assert_text(&r, "GET_PROCESS_APERTURES_NEW("
		    "kfd_process_device_apertures_ptr=0x7ffc00002000, "
		    "num_of_nodes=8) = 0 {kfd_process_device_apertures_ptr=["
		    "{lds_base=0x1000000000000, lds_limit=0x10000ffffffff, "
		    "scratch_base=0x2000000000000, scratch_limit=0x20000ffffffff, "
		    "gpuvm_base=0x10000, gpuvm_limit=0x7fffffffffff, "
		    "gpu_id=0x1234}], num_of_nodes=1}");
}

/* The legacy ioctl carries seven inline entries. */
static void
test_apertures_legacy(void **state)
{
	static const char head[] = PFX "GET_PROCESS_APERTURES() = 0 "
				   "{process_apertures[0].lds_base=0x0, ";
	struct kfd_abi_get_process_apertures_args out;
	struct kt_record r;
	const char *s;

	memset(&out, 0, sizeof(out));
	out.process_apertures[0].gpuvm_base = 0x10000;
	out.process_apertures[0].gpu_id = GPU;
	out.num_of_nodes = 1;
	r = mk_ioctl(KFD_ABI_IOC_GET_PROCESS_APERTURES, NULL, &out,
		     sizeof(out), 0, 0);
	s = decode_text(&r);
	assert_true(strncmp(s, head, strlen(head)) == 0);
	assert_non_null(strstr(s, "process_apertures[0].gpuvm_base=0x10000, "));
	assert_non_null(strstr(s, "process_apertures[0].gpu_id=0x1234, "));
	assert_non_null(strstr(s, "process_apertures[6].gpu_id=0x0, "
			       "num_of_nodes=1}"));
}

static void
test_clocks_policy_scratch_trap(void **state)
{
	struct kfd_abi_get_clock_counters_args c = { .gpu_id = GPU }, co;
	struct kfd_abi_set_memory_policy_args p = {
		.gpu_id = GPU,
		.default_policy = KFD_ABI_CACHE_POLICY_COHERENT,
		.alternate_policy = KFD_ABI_CACHE_POLICY_NONCOHERENT,
		.misc_process_flag = KFD_ABI_PROC_FLAG_MFMA_HIGH_PRECISION,
	};
	struct kfd_abi_set_scratch_backing_va_args sc = {
		.va_addr = 0x7f0001000000, .gpu_id = GPU,
	};
	struct kfd_abi_set_trap_handler_args th = {
		.tba_addr = 0x7f0002000000, .tma_addr = 0x7f0002001000,
		.gpu_id = GPU,
	};
	struct kt_record r;

	co = c;
	co.gpu_clock_counter = 123456789;
	co.cpu_clock_counter = 5000000001;
	co.system_clock_counter = 5000000002;
	co.system_clock_freq = 1000000000;
	r = mk_ioctl(KFD_ABI_IOC_GET_CLOCK_COUNTERS, &c, &co, sizeof(c), 0, 0);
	assert_text(&r, "GET_CLOCK_COUNTERS(gpu_id=0x1234) = 0 "
		    "{gpu_clock_counter=123456789, cpu_clock_counter=5000000001, "
		    "system_clock_counter=5000000002, "
		    "system_clock_freq=1000000000}");

	r = mk_ioctl(KFD_ABI_IOC_SET_MEMORY_POLICY, &p, NULL, sizeof(p), 0, 0);
	assert_text(&r, "SET_MEMORY_POLICY(alternate_aperture_base=0x0, "
		    "alternate_aperture_size=0, gpu_id=0x1234, "
		    "default_policy=COHERENT, alternate_policy=NONCOHERENT, "
		    "misc_process_flag=MFMA_HIGH_PRECISION) = 0");

	r = mk_ioctl(KFD_ABI_IOC_SET_SCRATCH_BACKING_VA, &sc, &sc, sizeof(sc),
		     -1, 19);
	assert_text(&r, "SET_SCRATCH_BACKING_VA(va_addr=0x7f0001000000, "
		    "gpu_id=0x1234) = -1 ENODEV (No such device)");

	r = mk_ioctl(KFD_ABI_IOC_SET_TRAP_HANDLER, &th, NULL, sizeof(th), 0, 0);
	assert_text(&r, "SET_TRAP_HANDLER(tba_addr=0x7f0002000000, "
		    "tma_addr=0x7f0002001000, gpu_id=0x1234) = 0");
}

static void
test_tile_config(void **state)
{
	struct kfd_abi_get_tile_config_args in = {
		.tile_config_ptr = 0x7ffc00004000,
		.macro_tile_config_ptr = 0x7ffc00005000,
		.num_tile_configs = 32,
		.num_macro_tile_configs = 16,
		.gpu_id = GPU,
	};
	struct kfd_abi_get_tile_config_args out = in;
	uint32_t tiles[3] = { 0x10, 0x20, 0x30 };
	uint32_t macro[1] = { 0x7 };
	struct kt_buf_image b[2];
	struct kt_record r;

	out.num_tile_configs = 3;
	out.num_macro_tile_configs = 1;
	out.gb_addr_config = 0x26010011;
	out.num_banks = 16;
	out.num_ranks = 1;
	b[0] = mk_buf(0, in.tile_config_ptr, NULL, 0, tiles, sizeof(tiles));
	b[1] = mk_buf(1, in.macro_tile_config_ptr, NULL, 0, macro,
		      sizeof(macro));
	r = mk_ioctl(KFD_ABI_IOC_GET_TILE_CONFIG, &in, &out, sizeof(in), 0, 0);
	r.u.ioctl.nbufs = 2;
	r.u.ioctl.bufs = b;
	assert_text(&r, "GET_TILE_CONFIG(tile_config_ptr=0x7ffc00004000, "
		    "macro_tile_config_ptr=0x7ffc00005000, num_tile_configs=32, "
		    "num_macro_tile_configs=16, gpu_id=0x1234) = 0 "
		    "{tile_config_ptr=[0x10, 0x20, 0x30], "
		    "macro_tile_config_ptr=[0x7], num_tile_configs=3, "
		    "num_macro_tile_configs=1, gb_addr_config=0x26010011, "
		    "num_banks=16, num_ranks=1}");
}

static void
test_smi_xnack(void **state)
{
	struct kfd_abi_smi_events_args s = { .gpuid = GPU }, so;
	struct kfd_abi_set_xnack_mode_args x = { .xnack_enabled = -1 }, xo;
	struct kt_record r;

	so = s;
	so.anon_fd = 11;
	r = mk_ioctl(KFD_ABI_IOC_SMI_EVENTS, &s, &so, sizeof(s), 0, 0);
	assert_text(&r, "SMI_EVENTS(gpuid=0x1234) = 0 {anon_fd=11}");

	xo.xnack_enabled = 1;
	r = mk_ioctl(KFD_ABI_IOC_SET_XNACK_MODE, &x, &xo, sizeof(x), 0, 0);
	assert_text(&r, "SET_XNACK_MODE(xnack_enabled=-1) = 0 "
		    "{xnack_enabled=1}");
	x.xnack_enabled = 1;
	r = mk_ioctl(KFD_ABI_IOC_SET_XNACK_MODE, &x, &x, sizeof(x), -1, 1);
	assert_text(&r, "SET_XNACK_MODE(xnack_enabled=1) = "
		    "-1 EPERM (Operation not permitted)");
}

/* SVM's attributes trail the fixed struct inside the argument bytes. */
static void
test_svm(void **state)
{
	/* Fixed part plus two attributes, in 8-byte aligned storage. */
	uint64_t inb[(sizeof(struct kfd_abi_svm_args) +
		      2 * sizeof(struct kfd_abi_svm_attribute)) / 8];
	uint64_t outb[sizeof(inb) / 8];
	struct kfd_abi_svm_args *in = (struct kfd_abi_svm_args *)inb;
	struct kfd_abi_svm_args *out = (struct kfd_abi_svm_args *)outb;
	uint32_t req = KFD_ABI_IOC_WITH_SIZE(KFD_ABI_IOC_SVM, sizeof(inb));
	struct kt_record r;

	memset(inb, 0, sizeof(inb));
	in->start_addr = 0x7f0000600000;
	in->size = 2097152;
	in->op = KFD_ABI_SVM_OP_SET_ATTR;
	in->nattr = 2;
	in->attrs[0].type = KFD_ABI_SVM_ATTR_PREFERRED_LOC;
	in->attrs[0].value = GPU;
	in->attrs[1].type = KFD_ABI_SVM_ATTR_SET_FLAGS;
	in->attrs[1].value = KFD_ABI_SVM_FLAG_HOST_ACCESS |
			     KFD_ABI_SVM_FLAG_COHERENT;
	r = mk_ioctl(req, inb, inb, sizeof(inb), 0, 0);
	assert_text(&r, "SVM(start_addr=0x7f0000600000, size=2097152, "
		    "op=SET_ATTR, nattr=2, attrs=[{type=PREFERRED_LOC, "
		    "value=0x1234}, {type=SET_FLAGS, value=0x3}]) = 0");

	in->op = KFD_ABI_SVM_OP_GET_ATTR;
	in->attrs[0].value = 0;
	in->attrs[1].type = KFD_ABI_SVM_ATTR_ACCESS;
	in->attrs[1].value = GPU;
	memcpy(outb, inb, sizeof(inb));
	out->attrs[0].value = 0xffffffff;
	out->attrs[1].type = KFD_ABI_SVM_ATTR_ACCESS_IN_PLACE;
	r = mk_ioctl(req, inb, outb, sizeof(inb), 0, 0);
	assert_text(&r, "SVM(start_addr=0x7f0000600000, size=2097152, "
		    "op=GET_ATTR, nattr=2, attrs=[{type=PREFERRED_LOC, "
		    "value=0x0}, {type=ACCESS, value=0x1234}]) = 0 "
		    "{attrs=[{type=PREFERRED_LOC, value=0xffffffff}, "
		    "{type=ACCESS_IN_PLACE, value=0x1234}]}");

	/* An unknown op "succeeds" with a positive EINVAL. */
	in->op = 9;
	r = mk_ioctl(req, inb, inb, sizeof(inb), 22, 0);
	assert_text(&r, "SVM(start_addr=0x7f0000600000, size=2097152, "
		    "op=9, nattr=2, attrs=[{type=PREFERRED_LOC, value=0x0}, "
		    "{type=ACCESS, value=0x1234}]) = 22");
}

static void
test_criu(void **state)
{
	struct kfd_abi_criu_args in = { .op = KFD_ABI_CRIU_OP_PROCESS_INFO };
	struct kfd_abi_criu_args out = in;
	struct kfd_abi_criu_device_bucket dev = {
		.user_gpu_id = GPU, .actual_gpu_id = GPU, .drm_fd = 5,
	};
	struct kt_buf_image b[3];
	uint8_t priv[4] = { 0xde, 0xad, 0xbe, 0xef };
	struct kt_record r;

	out.num_devices = 1;
	out.num_bos = 0;
	out.num_objects = 3;
	out.priv_data_size = 4;
	out.pid = 4242;
	r = mk_ioctl(KFD_ABI_IOC_CRIU_OP, &in, &out, sizeof(in), 0, 0);
	assert_text(&r, "CRIU_OP(devices=NULL, bos=NULL, priv_data=NULL, "
		    "priv_data_size=0, num_devices=0, num_bos=0, num_objects=0, "
		    "pid=0, op=PROCESS_INFO) = 0 {priv_data_size=4, "
		    "num_devices=1, num_objects=3, pid=4242}");

	in = out;
	in.op = KFD_ABI_CRIU_OP_CHECKPOINT;
	in.devices = 0x7ffc00006000;
	in.bos = 0x7ffc00007000;
	in.priv_data = 0x7ffc00008000;
	b[0] = mk_buf(0, in.devices, NULL, 0, &dev, sizeof(dev));
	b[1] = mk_buf(1, in.bos, NULL, 0, NULL, 0);
	b[1].flags = KT_BUF_AFTER;
	b[2] = mk_buf(2, in.priv_data, NULL, 0, priv, sizeof(priv));
	r = mk_ioctl(KFD_ABI_IOC_CRIU_OP, &in, &in, sizeof(in), 0, 0);
	r.u.ioctl.nbufs = 3;
	r.u.ioctl.bufs = b;
	assert_text(&r, "CRIU_OP(devices=0x7ffc00006000, bos=0x7ffc00007000, "
		    "priv_data=0x7ffc00008000, priv_data_size=4, num_devices=1, "
		    "num_bos=0, num_objects=3, pid=4242, op=CHECKPOINT) = 0 "
		    "{devices=[{user_gpu_id=0x1234, actual_gpu_id=0x1234, "
		    "drm_fd=5}], bos=[], priv_data=<deadbeef>}");
}

static void
test_create_process(void **state)
{
	struct kfd_abi_create_process_args f = { .flags = 1 };
	struct kt_record r;

	/* The upstream form carries no argument at all. */
	r = mk_ioctl(KFD_ABI_IOC_CREATE_PROCESS, NULL, NULL, 0, 0, 0);
	assert_text(&r, "CREATE_PROCESS() = 0");
	r = mk_ioctl(KFD_ABI_IOC_CREATE_PROCESS_FLAGS, &f, &f, sizeof(f), 0, 0);
	assert_text(&r, "CREATE_PROCESS(flags=0x1) = 0");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_version),
		cmocka_unit_test(test_queue_create),
		cmocka_unit_test(test_queue_create_old_abi),
		cmocka_unit_test(test_queue_destroy_update),
		cmocka_unit_test(test_queue_cu_mask),
		cmocka_unit_test(test_queue_wave_state_gws),
		cmocka_unit_test(test_memory_alloc),
		cmocka_unit_test(test_memory_alloc_error),
		cmocka_unit_test(test_memory_free),
		cmocka_unit_test(test_memory_map_unmap),
		cmocka_unit_test(test_memory_acquire_vm_available),
		cmocka_unit_test(test_dmabuf),
		cmocka_unit_test(test_events_create_destroy),
		cmocka_unit_test(test_events_wait),
		cmocka_unit_test(test_apertures_new),
		cmocka_unit_test(test_apertures_legacy),
		cmocka_unit_test(test_clocks_policy_scratch_trap),
		cmocka_unit_test(test_tile_config),
		cmocka_unit_test(test_smi_xnack),
		cmocka_unit_test(test_svm),
		cmocka_unit_test(test_criu),
		cmocka_unit_test(test_create_process),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

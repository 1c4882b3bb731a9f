/* SPDX-License-Identifier: MIT */
/*
 * Golden text decoding of the debugger ioctls (union arms chosen by op),
 * the ROCm-only range and the render-node DRM requests.
 */
#include "decode_test.h"
#include "kfdtrace/drm_abi.h"
#include "kfdtrace/kfd_abi.h"

#define GPU 0x1234u
#define HANDLE3 (((uint64_t)GPU << 32) | 3)

static void
test_dbg_trap_enable(void **state)
{
	struct kfd_abi_dbg_trap_args a;
	struct kfd_abi_runtime_info ri = {
		.r_debug = 0x7f0000001000, .runtime_state = 1,
	};
	struct kt_buf_image b;
	struct kt_record r;

	memset(&a, 0, sizeof(a));
	a.pid = 4242;
	a.op = KFD_ABI_DBG_TRAP_ENABLE;
	a.enable.exception_mask = KFD_ABI_EC_MASK(KFD_ABI_EC_QUEUE_NEW) |
				  KFD_ABI_EC_MASK(KFD_ABI_EC_PROCESS_RUNTIME);
	a.enable.rinfo_ptr = 0x7ffc00009000;
	a.enable.rinfo_size = sizeof(ri);
	a.enable.dbg_fd = 12;
	b = mk_buf(0, a.enable.rinfo_ptr, NULL, 0, &ri, sizeof(ri));
	r = mk_ioctl(KFD_ABI_IOC_DBG_TRAP, &a, &a, sizeof(a), 0, 0);
	r.u.ioctl.nbufs = 1;
	r.u.ioctl.bufs = &b;
	assert_text(&r, "DBG_TRAP(pid=4242, op=ENABLE, "
		    "enable.exception_mask=QUEUE_NEW|PROCESS_RUNTIME, "
		    "enable.rinfo_ptr=0x7ffc00009000, enable.rinfo_size=16, "
		    "enable.dbg_fd=12) = 0 "
		    "{enable.rinfo_ptr=<00100000007f00000100000000000000>}");
}

/* Another arm of the same union, and a buffer the kernel writes back. */
static void
test_dbg_trap_suspend(void **state)
{
	struct kfd_abi_dbg_trap_args a;
	uint32_t q[2] = { 0, 1 };
	uint32_t qo[2] = { 0, 1 | KFD_ABI_DBG_QUEUE_ERROR_MASK };
	struct kt_buf_image b;
	struct kt_record r;

	memset(&a, 0, sizeof(a));
	a.pid = 4242;
	a.op = KFD_ABI_DBG_TRAP_SUSPEND_QUEUES;
	a.suspend_queues.queue_array_ptr = 0x7ffc0000a000;
	a.suspend_queues.num_queues = 2;
	b = mk_buf(1, a.suspend_queues.queue_array_ptr, q, sizeof(q), qo,
		   sizeof(qo));
	r = mk_ioctl(KFD_ABI_IOC_DBG_TRAP, &a, &a, sizeof(a), 2, 0);
	r.u.ioctl.nbufs = 1;
	r.u.ioctl.bufs = &b;
	assert_text(&r, "DBG_TRAP(pid=4242, op=SUSPEND_QUEUES, "
		    "suspend_queues.exception_mask=0, "
		    "suspend_queues.queue_array_ptr=[0, 1], "
		    "suspend_queues.num_queues=2, "
		    "suspend_queues.grace_period=0) = 2 "
		    "{suspend_queues.queue_array_ptr=[0, 1073741825]}");
}

static void
test_dbg_trap_watch_and_unknown_op(void **state)
{
	struct kfd_abi_dbg_trap_args a, o;
	struct kt_record r;

	memset(&a, 0, sizeof(a));
	a.pid = 4242;
	a.op = KFD_ABI_DBG_TRAP_SET_NODE_ADDRESS_WATCH;
	a.set_node_address_watch.address = 0x7f0000700000;
	a.set_node_address_watch.mode =
		KFD_ABI_DBG_TRAP_ADDRESS_WATCH_MODE_ALL;
	a.set_node_address_watch.mask = 0xffffffff;
	a.set_node_address_watch.gpu_id = GPU;
	o = a;
	o.set_node_address_watch.id = 1;
	r = mk_ioctl(KFD_ABI_IOC_DBG_TRAP, &a, &o, sizeof(a), 0, 0);
	assert_text(&r, "DBG_TRAP(pid=4242, op=SET_NODE_ADDRESS_WATCH, "
		    "set_node_address_watch.address=0x7f0000700000, "
		    "set_node_address_watch.mode=ALL, "
		    "set_node_address_watch.mask=0xffffffff, "
		    "set_node_address_watch.gpu_id=0x1234) = 0 "
		    "{set_node_address_watch.id=1}");

	/* No arm matches an unknown op: only the common fields print. */
	a.op = 99;
	r = mk_ioctl(KFD_ABI_IOC_DBG_TRAP, &a, &a, sizeof(a), -1, 22);
	assert_text(&r, "DBG_TRAP(pid=4242, op=99) = -1 EINVAL (Invalid argument)");
}

static void
test_runtime_enable_and_deprecated(void **state)
{
	struct kfd_abi_runtime_enable_args a = {
		.r_debug = 0x7f0000001000,
		.mode_mask = KFD_ABI_RUNTIME_ENABLE_MODE_ENABLE_MASK |
			     KFD_ABI_RUNTIME_ENABLE_MODE_TTMP_SAVE_MASK,
	};
	struct kfd_abi_runtime_enable_args o = a;
	struct kfd_abi_dbg_register_args reg = { .gpu_id = GPU };
	struct kt_record r;

	o.capabilities_mask =
		KFD_ABI_RUNTIME_ENABLE_CAPS_SUPPORTS_CORE_DUMP_MASK;
	r = mk_ioctl(KFD_ABI_IOC_RUNTIME_ENABLE, &a, &o, sizeof(a), 0, 0);
	assert_text(&r, "RUNTIME_ENABLE(r_debug=0x7f0000001000, "
		    "mode_mask=ENABLE|TTMP_SAVE) = 0 "
		    "{capabilities_mask=SUPPORTS_CORE_DUMP}");
	r = mk_ioctl(KFD_ABI_IOC_RUNTIME_ENABLE, &a, &a, sizeof(a), -1, 17);
	assert_text(&r, "RUNTIME_ENABLE(r_debug=0x7f0000001000, "
		    "mode_mask=ENABLE|TTMP_SAVE) = -1 EEXIST (File exists)");

	r = mk_ioctl(KFD_ABI_IOC_DBG_REGISTER, &reg, NULL, sizeof(reg), -1, 1);
	assert_text(&r, "DBG_REGISTER(gpu_id=0x1234) = "
		    "-1 EPERM (Operation not permitted)");
}

static void
test_rocm_ipc(void **state)
{
	struct kfd_abi_ipc_export_handle_args e = {
		.handle = HANDLE3, .gpu_id = GPU,
	};
	struct kfd_abi_ipc_export_handle_args eo = e;
	struct kfd_abi_ipc_import_handle_args i = {
		.va_addr = 0x7f0000800000, .gpu_id = GPU,
	};
	struct kfd_abi_ipc_import_handle_args io;
	const uint32_t share[4] = { 0x11223344, 0x55667788, 0x99aabbcc,
				    0xddeeff00 };
	struct kt_record r;

	memcpy(eo.share_handle, share, sizeof(share));
	r = mk_ioctl(KFD_ABI_IOC_IPC_EXPORT_HANDLE, &e, &eo, sizeof(e), 0, 0);
	assert_text(&r, "IPC_EXPORT_HANDLE(handle=0x1234_00000003, "
		    "gpu_id=0x1234, flags=0x0) = 0 "
		    "{share_handle=<4433221188776655ccbbaa9900ffeedd>}");

	memcpy(i.share_handle, share, sizeof(share));
	io = i;
	io.handle = ((uint64_t)GPU << 32) | 5;
	io.mmap_offset = 0x100005000;
	io.flags = KFD_ABI_ALLOC_MEM_FLAGS_VRAM |
		   KFD_ABI_ALLOC_MEM_FLAGS_WRITABLE;
	r = mk_ioctl(KFD_ABI_IOC_IPC_IMPORT_HANDLE, &i, &io, sizeof(i), 0, 0);
	assert_text(&r, "IPC_IMPORT_HANDLE(va_addr=0x7f0000800000, "
		    "share_handle=<4433221188776655ccbbaa9900ffeedd>, "
		    "gpu_id=0x1234) = 0 {handle=0x1234_00000005, "
		    "mmap_offset=0x100005000, flags=VRAM|WRITABLE}");
}

static void
test_rocm_cross_memory_and_pc_sample(void **state)
{
	struct kfd_abi_cross_memory_copy_args c = {
		.pid = 100,
		.flags = KFD_ABI_CROSS_MEMORY_RW_BIT,
		.src_mem_range_array = 0x7ffc0000d000,
		.src_mem_array_size = 1,
		.dst_mem_range_array = 0x7ffc0000e000,
		.dst_mem_array_size = 1,
	};
	struct kfd_abi_cross_memory_copy_args co = c;
	struct kfd_abi_memory_range src = { 0x1000, 4096 }, dst = { 0x2000, 4096 };
	struct kfd_abi_pc_sample_args p = {
		.sample_info_ptr = 0x7ffc0000f000,
		.num_sample_info = 1,
		.op = KFD_ABI_PCS_OP_QUERY_CAPABILITIES,
		.gpu_id = GPU,
	};
	struct kfd_abi_pc_sample_info si = { 0 }, so = {
		.interval = 0, .interval_min = 1, .interval_max = 1000,
		.flags = 0x1, .method = KFD_ABI_PCS_METHOD_HOSTTRAP,
		.type = KFD_ABI_PCS_TYPE_TIME_US,
	};
	struct kt_buf_image b[2];
	struct kt_record r;

	b[0] = mk_buf(0, c.src_mem_range_array, &src, sizeof(src), NULL, 0);
	b[1] = mk_buf(1, c.dst_mem_range_array, &dst, sizeof(dst), NULL, 0);
	co.bytes_copied = 4096;
	r = mk_ioctl(KFD_ABI_IOC_CROSS_MEMORY_COPY, &c, &co, sizeof(c), 0, 0);
	r.u.ioctl.nbufs = 2;
	r.u.ioctl.bufs = b;
	assert_text(&r, "CROSS_MEMORY_COPY(pid=100, flags=WRITE, "
		    "src_mem_range_array=[{va_addr=0x1000, size=4096}], "
		    "src_mem_array_size=1, "
		    "dst_mem_range_array=[{va_addr=0x2000, size=4096}], "
		    "dst_mem_array_size=1) = 0 {bytes_copied=4096}");

	b[0] = mk_buf(0, p.sample_info_ptr, &si, sizeof(si), &so, sizeof(so));
	r = mk_ioctl(KFD_ABI_IOC_PC_SAMPLE, &p, &p, sizeof(p), 0, 0);
	r.u.ioctl.nbufs = 1;
	r.u.ioctl.bufs = b;
	assert_text(&r, "PC_SAMPLE(sample_info_ptr=[{interval=0, "
		    "interval_min=0, interval_max=0, flags=0x0, method=0, "
		    "type=TIME_US}], num_sample_info=1, op=QUERY_CAPABILITIES, "
		    "gpu_id=0x1234, trace_id=0, flags=0) = 0 "
		    "{sample_info_ptr=[{interval=0, interval_min=1, "
		    "interval_max=1000, flags=0x1, method=HOSTTRAP, "
		    "type=TIME_US}]}");
}

static void
test_drm_version_cap_prime(void **state)
{
	struct kfd_drm_version v = {
		.name_len = 32, .name = 0x7ffc0000c000,
	};
	struct kfd_drm_version vo = v;
	struct kfd_drm_get_cap cap = { .capability = KFD_DRM_CAP_PRIME };
	struct kfd_drm_get_cap capo = cap;
	struct kfd_drm_prime_handle ph = { .handle = 1,
					   .flags = O_RDWR | O_CLOEXEC };
	struct kfd_drm_prime_handle pho = ph;
	struct kt_buf_image b;
	struct kt_record r;

	vo.version_major = 3;
	vo.version_minor = 54;
	vo.name_len = 6;
	b = mk_buf(0, v.name, NULL, 0, "amdgpu", 6);
	r = mk_render(KFD_DRM_IOCTL_VERSION, &v, &vo, sizeof(v), 0, 0);
	r.u.ioctl.nbufs = 1;
	r.u.ioctl.bufs = &b;
	assert_text(&r, "DRM_VERSION(name_len=32, name=0x7ffc0000c000, "
		    "date_len=0, date=NULL, desc_len=0, desc=NULL) = 0 "
		    "{version_major=3, version_minor=54, version_patchlevel=0, "
		    "name_len=6, name=\"amdgpu\"}");

	capo.value = KFD_DRM_PRIME_CAP_IMPORT | KFD_DRM_PRIME_CAP_EXPORT;
	r = mk_render(KFD_DRM_IOCTL_GET_CAP, &cap, &capo, sizeof(cap), 0, 0);
	assert_text(&r, "DRM_GET_CAP(capability=PRIME) = 0 {value=0x3}");

	pho.fd = 8;
	r = mk_render(KFD_DRM_IOCTL_PRIME_HANDLE_TO_FD, &ph, &pho, sizeof(ph),
		      0, 0);
	assert_text(&r, "DRM_PRIME_HANDLE_TO_FD(handle=1, "
		    "flags=O_RDWR|O_CLOEXEC) = 0 {fd=8}");
}

static void
test_drm_amdgpu_gem(void **state)
{
	union kfd_drm_amdgpu_gem_create c, co;
	struct kfd_drm_amdgpu_gem_va va = {
		.handle = 1,
		.operation = KFD_DRM_AMDGPU_VA_OP_MAP,
		.flags = KFD_DRM_AMDGPU_VM_PAGE_READABLE |
			 KFD_DRM_AMDGPU_VM_PAGE_WRITEABLE |
			 KFD_DRM_AMDGPU_VM_MTYPE_NC,
		.va_address = 0x7f0000900000,
		.map_size = 4096,
	};
	struct kt_record r;

	memset(&c, 0, sizeof(c));
	c.in.bo_size = 4096;
	c.in.alignment = 4096;
	c.in.domains = KFD_DRM_AMDGPU_GEM_DOMAIN_GTT;
	c.in.domain_flags = KFD_DRM_AMDGPU_GEM_CREATE_CPU_ACCESS_REQUIRED;
	memset(&co, 0, sizeof(co));
	co.out.handle = 1;
	r = mk_render(KFD_DRM_IOCTL_AMDGPU_GEM_CREATE, &c, &co, sizeof(c), 0, 0);
	assert_text(&r, "AMDGPU_GEM_CREATE(in.bo_size=4096, in.alignment=4096, "
		    "in.domains=GTT, in.domain_flags=CPU_ACCESS_REQUIRED) = 0 "
		    "{out.handle=1}");

	/* The MTYPE field is not a single bit: it stays a hex remainder. */
	r = mk_render(KFD_DRM_IOCTL_AMDGPU_GEM_VA, &va, NULL, sizeof(va), 0, 0);
	assert_text(&r, "AMDGPU_GEM_VA(handle=1, operation=MAP, "
		    "flags=PAGE_READABLE|PAGE_WRITEABLE|0x20, "
		    "va_address=0x7f0000900000, offset_in_bo=0, "
		    "map_size=4096) = 0");
}

/* AMDGPU_INFO: the query picks the union arm; the result is a buffer. */
static void
test_drm_amdgpu_info(void **state)
{
	struct kfd_drm_amdgpu_info q;
	struct kfd_drm_amdgpu_info_firmware fw = { .ver = 0x1a2b, .feature = 9 };
	uint64_t vram = 1 << 20;
	struct kt_buf_image b;
	struct kt_record r;

	memset(&q, 0, sizeof(q));
	q.return_pointer = 0x7ffc00010000;
	q.return_size = sizeof(fw);
	q.query = KFD_DRM_AMDGPU_INFO_FW_VERSION;
	q.query_fw.fw_type = KFD_DRM_AMDGPU_INFO_FW_GFX_MEC;
	b = mk_buf(0, q.return_pointer, NULL, 0, &fw, sizeof(fw));
	r = mk_render(KFD_DRM_IOCTL_AMDGPU_INFO, &q, NULL, sizeof(q), 0, 0);
	r.u.ioctl.nbufs = 1;
	r.u.ioctl.bufs = &b;
	assert_text(&r, "AMDGPU_INFO(return_pointer=0x7ffc00010000, "
		    "return_size=8, query=FW_VERSION, query_fw.fw_type=GFX_MEC, "
		    "query_fw.ip_instance=0, query_fw.index=0) = 0 "
		    "{return_pointer=<2b1a000009000000>}");

	memset(&q, 0, sizeof(q));
	q.return_pointer = 0x7ffc00010000;
	q.return_size = sizeof(vram);
	q.query = KFD_DRM_AMDGPU_INFO_VRAM_USAGE;
	b = mk_buf(0, q.return_pointer, NULL, 0, &vram, sizeof(vram));
	r = mk_render(KFD_DRM_IOCTL_AMDGPU_INFO, &q, NULL, sizeof(q), 0, 0);
	r.u.ioctl.nbufs = 1;
	r.u.ioctl.bufs = &b;
	assert_text(&r, "AMDGPU_INFO(return_pointer=0x7ffc00010000, "
		    "return_size=8, query=VRAM_USAGE) = 0 "
		    "{return_pointer=<0000100000000000>}");
}

/*
 * The request code alone does not name an ioctl: a KFD code on a render
 * node, or a DRM code on /dev/kfd, is unknown and prints raw.
 */
static void
test_file_kind_matters(void **state)
{
	struct kfd_abi_free_memory_of_gpu_args a = { .handle = HANDLE3 };
	struct kt_record r;

	r = mk_render(KFD_ABI_IOC_FREE_MEMORY_OF_GPU, &a, NULL, sizeof(a),
		      -1, 25);
	assert_text(&r, "ioctl(fd=5, 0x40084b17 /* K nr=0x17 size=8 */, "
		    "{0300000034120000}) = -1 ENOTTY (Inappropriate ioctl for device)");
	r = mk_ioctl(KFD_ABI_IOC_FREE_MEMORY_OF_GPU, &a, NULL, sizeof(a), 0, 0);
	r.u.ioctl.file_kind = KFD_FILE_UNKNOWN;
	assert_text(&r, "ioctl(fd=3, 0x40084b17 /* K nr=0x17 size=8 */, "
		    "{0300000034120000}) = 0");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_dbg_trap_enable),
		cmocka_unit_test(test_dbg_trap_suspend),
		cmocka_unit_test(test_dbg_trap_watch_and_unknown_op),
		cmocka_unit_test(test_runtime_enable_and_deprecated),
		cmocka_unit_test(test_rocm_ipc),
		cmocka_unit_test(test_rocm_cross_memory_and_pc_sample),
		cmocka_unit_test(test_drm_version_cap_prime),
		cmocka_unit_test(test_drm_amdgpu_gem),
		cmocka_unit_test(test_drm_amdgpu_info),
		cmocka_unit_test(test_file_kind_matters),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

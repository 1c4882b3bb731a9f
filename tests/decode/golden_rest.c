/* SPDX-License-Identifier: MIT */
/*
 * Golden text decoding of the rows the other golden files leave out: the
 * pre-1.13 debugger's remaining three, the legacy apertures, ROCm's old
 * DBG_TRAP, RLC_SPM, PROFILER_DKMS and AIS, and the render node's GEM_CLOSE,
 * PRIME_FD_TO_HANDLE, GEM_MMAP and GEM_METADATA. golden_cover.c fails for
 * any schema row without a golden line somewhere.
 */
#include "decode_test.h"
#include "kfdtrace/drm_abi.h"
#include "kfdtrace/kfd_abi.h"

#define GPU 0x1234u

/* PFX followed by @body. */
static const char *
want_line(const char *body)
{
	static char line[4200];

	snprintf(line, sizeof(line), "%s%s", PFX, body);
	return line;
}

/* The pre-1.13 debugger: decoded, answered EPERM by current kernels. */
static void
test_old_debugger(void **state)
{
	struct kfd_abi_dbg_unregister_args un = { .gpu_id = GPU };
	struct kfd_abi_dbg_address_watch_args aw = {
		.content_ptr = 0x7f0000005000, .gpu_id = GPU,
		.buf_size_in_bytes = 64,
	};
	struct kfd_abi_dbg_wave_control_args wc = {
		.content_ptr = 0x7f0000006000, .gpu_id = GPU,
		.buf_size_in_bytes = 32,
	};
	struct kt_record r;

	(void)state;
	r = mk_ioctl(KFD_ABI_IOC_DBG_UNREGISTER, &un, NULL, sizeof(un), -1, 1);
	assert_text(&r, "DBG_UNREGISTER(gpu_id=0x1234) = "
		    "-1 EPERM (Operation not permitted)");
	r = mk_ioctl(KFD_ABI_IOC_DBG_ADDRESS_WATCH, &aw, NULL, sizeof(aw), -1, 1);
	assert_text(&r, "DBG_ADDRESS_WATCH(content_ptr=0x7f0000005000, gpu_id=0x1234, "
		    "buf_size_in_bytes=64) = -1 EPERM (Operation not permitted)");
	r = mk_ioctl(KFD_ABI_IOC_DBG_WAVE_CONTROL, &wc, NULL, sizeof(wc), -1, 1);
	assert_text(&r, "DBG_WAVE_CONTROL(content_ptr=0x7f0000006000, gpu_id=0x1234, "
		    "buf_size_in_bytes=32) = -1 EPERM (Operation not permitted)");
}

/* The legacy apertures: room for seven GPUs, num_of_nodes filled. */
static void
test_apertures_legacy(void **state)
{
	struct kfd_abi_get_process_apertures_args in, out;
	static char want[4096];
	struct kt_record r;
	int n, i;

	(void)state;
	memset(&in, 0, sizeof(in));
	memset(&out, 0, sizeof(out));
	out.num_of_nodes = 1;
	out.process_apertures[0].lds_base = 0x1000000000000;
	out.process_apertures[0].lds_limit = 0x10000ffffffff;
	out.process_apertures[0].scratch_base = 0x2000000000000;
	out.process_apertures[0].scratch_limit = 0x20000ffffffff;
	out.process_apertures[0].gpuvm_base = 0x1000000;
	out.process_apertures[0].gpuvm_limit = 0x7fffffffffff;
	out.process_apertures[0].gpu_id = GPU;
	r = mk_ioctl(KFD_ABI_IOC_GET_PROCESS_APERTURES, &in, &out, sizeof(in), 0, 0);
	/* Every one of the seven slots is printed, the unused ones zero. */
	n = snprintf(want, sizeof(want), "GET_PROCESS_APERTURES() = 0 {"
		     "process_apertures[0].lds_base=0x1000000000000, "
		     "process_apertures[0].lds_limit=0x10000ffffffff, "
		     "process_apertures[0].scratch_base=0x2000000000000, "
		     "process_apertures[0].scratch_limit=0x20000ffffffff, "
		     "process_apertures[0].gpuvm_base=0x1000000, "
		     "process_apertures[0].gpuvm_limit=0x7fffffffffff, "
		     "process_apertures[0].gpu_id=0x1234, ");
	for (i = 1; i < KFD_ABI_NUM_OF_SUPPORTED_GPUS; i++)
		n += snprintf(want + n, sizeof(want) - n,
			      "process_apertures[%d].lds_base=0x0, "
			      "process_apertures[%d].lds_limit=0x0, "
			      "process_apertures[%d].scratch_base=0x0, "
			      "process_apertures[%d].scratch_limit=0x0, "
			      "process_apertures[%d].gpuvm_base=0x0, "
			      "process_apertures[%d].gpuvm_limit=0x0, "
			      "process_apertures[%d].gpu_id=0x0, ",
			      i, i, i, i, i, i, i);
	snprintf(want + n, sizeof(want) - n, "num_of_nodes=1}");
	assert_string_equal(decode_text(&r), want_line(want));
	golden_covered(&r);
}

/* ROCm's DBG_TRAP before 1.13 (0x82): the op picks the buffer. */
static void
test_dbg_trap_old(void **state)
{
	struct kfd_abi_dbg_trap_old_args a = {
		.ptr = 0x7f0000007000, .pid = 4242,
		.op = KFD_ABI_DBG_TRAP_OLD_NODE_SUSPEND,
		.data1 = 2, .data2 = 0, .data3 = 0, .data4 = 0,
	};
	uint32_t qb[2] = { 1, 2 }, qa[2] = { 1, 2 | 0x80000000u };
	struct kt_buf_image b;
	struct kt_record r;

	(void)state;
	/* Image index 1: the row's queue_ids buffer of NODE_SUSPEND. */
	b = mk_buf(1, a.ptr, qb, sizeof(qb), qa, sizeof(qa));
	r = mk_ioctl(KFD_ABI_IOC_DBG_TRAP_OLD, &a, &a, sizeof(a), 1, 0);
	r.u.ioctl.nbufs = 1;
	r.u.ioctl.bufs = &b;
	/* The kernel's error bit 31 comes back in the second queue id. */
	assert_text(&r, "DBG_TRAP_OLD(exception_mask=0, ptr=[1, 2], pid=4242, "
		    "op=NODE_SUSPEND, data1=2, data2=0, data3=0, data4=0) = 1 "
		    "{ptr=[1, 2147483650]}");
}

/* RLC_SPM: a destination buffer, filled later by the hardware. */
static void
test_rlc_spm(void **state)
{
	struct kfd_abi_spm_args a = {
		.dest_buf = 0x7f0000100000, .buf_size = 4096,
		.op = KFD_ABI_SPM_OP_SET_DEST_BUF, .timeout = 100,
		.gpu_id = GPU,
	};
	struct kfd_abi_spm_args o = a;
	struct kt_record r;

	(void)state;
	o.timeout = 40;
	o.bytes_copied = 256;
	r = mk_ioctl(KFD_ABI_IOC_RLC_SPM, &a, &o, sizeof(a), 0, 0);
	assert_text(&r, "RLC_SPM(dest_buf=0x7f0000100000, buf_size=4096, "
		    "op=SET_DEST_BUF, timeout=100, gpu_id=0x1234) = 0 "
		    "{timeout=40, bytes_copied=256, has_data_loss=0}");
	a.op = KFD_ABI_SPM_OP_ACQUIRE;
	a.dest_buf = 0;
	a.buf_size = 0;
	r = mk_ioctl(KFD_ABI_IOC_RLC_SPM, &a, &a, sizeof(a), 0, 0);
	assert_text(&r, "RLC_SPM(dest_buf=NULL, buf_size=0, op=ACQUIRE, timeout=100, "
		    "gpu_id=0x1234) = 0 {bytes_copied=0, has_data_loss=0}");
}

/* PROFILER_DKMS (0x86): the op picks the union arm. */
static void
test_profiler(void **state)
{
	struct kfd_abi_profiler_args a, o;
	struct kt_record r;

	(void)state;
	memset(&a, 0, sizeof(a));
	a.op = KFD_ABI_PROFILER_VERSION;
	o = a;
	o.version = KFD_ABI_PROFILER_VERSION_NUM;
	r = mk_ioctl(KFD_ABI_IOC_PROFILER_DKMS, &a, &o, sizeof(a), 0, 0);
	assert_text(&r, "PROFILER_DKMS(op=VERSION) = 0 {version=1}");
	memset(&a, 0, sizeof(a));
	a.op = KFD_ABI_PROFILER_PMC;
	a.pmc.gpu_id = GPU;
	a.pmc.lock = 1;
	a.pmc.perfcount_enable = 1;
	r = mk_ioctl(KFD_ABI_IOC_PROFILER_DKMS, &a, &a, sizeof(a), 0, 0);
	assert_text(&r, "PROFILER_DKMS(op=PMC, pmc.gpu_id=0x1234, pmc.lock=1, "
		    "pmc.perfcount_enable=1) = 0");
}

/* AIS: file I/O into a BO; in and out share the bytes. */
static void
test_ais(void **state)
{
	struct kfd_abi_ais_args a, o;
	struct kt_record r;

	(void)state;
	memset(&a, 0, sizeof(a));
	a.in.handle = ((uint64_t)GPU << 32) | 3;
	a.in.handle_offset = 0;
	a.in.file_offset = 8192;
	a.in.size = 4096;
	a.in.op = KFD_ABI_AIS_READ;
	a.in.fd = 9;
	memset(&o, 0, sizeof(o));
	o.out.size_copied = 4096;
	r = mk_ioctl(KFD_ABI_IOC_AIS_OP, &a, &o, sizeof(a), 0, 0);
	assert_text(&r, "AIS_OP(in.handle=0x1234_00000003, in.handle_offset=0, "
		    "in.file_offset=8192, in.size=4096, in.op=READ, in.fd=9) = 0 "
		    "{out.size_copied=4096, out.status=0}");
}

static void
test_drm_gem_handles(void **state)
{
	struct kfd_drm_gem_close c = { .handle = 4 };
	struct kfd_drm_prime_handle ph = { .fd = 11 }, pho = ph;
	union kfd_drm_amdgpu_gem_mmap m, mo;
	struct kt_record r;

	(void)state;
	r = mk_render(KFD_DRM_IOCTL_GEM_CLOSE, &c, NULL, sizeof(c), 0, 0);
	assert_text(&r, "DRM_GEM_CLOSE(handle=4) = 0");

	pho.handle = 5;
	r = mk_render(KFD_DRM_IOCTL_PRIME_FD_TO_HANDLE, &ph, &pho, sizeof(ph), 0, 0);
	assert_text(&r, "DRM_PRIME_FD_TO_HANDLE(flags=0x0, fd=11) = 0 {handle=5}");

	memset(&m, 0, sizeof(m));
	m.in.handle = 5;
	memset(&mo, 0, sizeof(mo));
	mo.out.addr_ptr = 0x10a000000;
	r = mk_render(KFD_DRM_IOCTL_AMDGPU_GEM_MMAP, &m, &mo, sizeof(m), 0, 0);
	assert_text(&r, "AMDGPU_GEM_MMAP(in.handle=5) = 0 {out.addr_ptr=0x10a000000}");
}

static void
test_drm_gem_metadata(void **state)
{
	struct kfd_drm_amdgpu_gem_metadata a, o;
	struct kt_record r;

	(void)state;
	memset(&a, 0, sizeof(a));
	a.handle = 5;
	a.op = KFD_DRM_AMDGPU_GEM_METADATA_OP_GET_METADATA;
	o = a;
	o.data.flags = 0;
	o.data.tiling_info = 0x2;
	o.data.data_size_bytes = 8;
	o.data.data[0] = 0xdeadbeef;
	o.data.data[1] = 0x1;
	r = mk_render(KFD_DRM_IOCTL_AMDGPU_GEM_METADATA, &a, &o, sizeof(a), 0, 0);
	/* The 256-byte data array is shown by its first 32 bytes. */
	assert_text(&r, "AMDGPU_GEM_METADATA(handle=5, op=GET_METADATA, data.flags=0x0, "
		    "data.tiling_info=0x0, data.data_size_bytes=0, data.data=<"
		    "0000000000000000000000000000000000000000000000000000000000000000"
		    "... (256 bytes)>) = 0 {data.tiling_info=0x2, "
		    "data.data_size_bytes=8, data.data=<"
		    "efbeadde01000000000000000000000000000000000000000000000000000000"
		    "... (256 bytes)>}");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_old_debugger),
		cmocka_unit_test(test_apertures_legacy),
		cmocka_unit_test(test_dbg_trap_old),
		cmocka_unit_test(test_rlc_spm),
		cmocka_unit_test(test_profiler),
		cmocka_unit_test(test_ais),
		cmocka_unit_test(test_drm_gem_handles),
		cmocka_unit_test(test_drm_gem_metadata),
	};

	return cmocka_run_group_tests_name("golden_rest", tests, NULL, NULL);
}

/* SPDX-License-Identifier: MIT */
/*
 * Golden text decoding of the KFD ABI 1.20-1.23 additions: CREATE_QUEUE's
 * metadata_ring_size, PROFILER on 0x28 (upstream's 16 bytes, and the
 * 40-byte form decoded as op plus raw bytes), and DBG_TRAP device
 * snapshots at the entry_size the caller negotiated (128 with
 * capability2, 120, and one too short for the first field).
 */
#include "decode_test.h"
#include "kfdtrace/kfd_abi.h"

#define GPU 0x1234u

/* The arguments both calls below share, up to metadata_ring_size. */
#define CQ_ARGS								\
	"CREATE_QUEUE(ring_base_address=0x7f0000010000, "		\
	"write_pointer_address=0x7f0000020000, "			\
	"read_pointer_address=0x7f0000020080, ring_size=4096, "		\
	"gpu_id=0x1234, queue_type=COMPUTE_AQL, queue_percentage=100, "	\
	"queue_priority=0, eop_buffer_address=0x0, eop_buffer_size=0, "	\
	"ctx_save_restore_address=0x0, ctx_save_restore_size=0, "	\
	"ctl_stack_size=0, sdma_engine_id=0, "

/* 1.22: an AQL queue with a metadata ring, and a size not a power of 2. */
static void
test_create_queue_metadata(void **state)
{
	struct kfd_abi_create_queue_args in = {
		.ring_base_address = 0x7f0000010000,
		.write_pointer_address = 0x7f0000020000,
		.read_pointer_address = 0x7f0000020080,
		.ring_size = 4096,
		.gpu_id = GPU,
		.queue_type = KFD_ABI_QUEUE_TYPE_COMPUTE_AQL,
		.queue_percentage = 100,
		.metadata_ring_size = 16384,
	};
	struct kfd_abi_create_queue_args out = in;
	struct kt_record r;

	(void)state;
	out.doorbell_offset = KFD_ABI_MMAP_OFFSET(KFD_ABI_MMAP_TYPE_DOORBELL,
						  GPU, 0);
	out.queue_id = 0;
	r = mk_ioctl(KFD_ABI_IOC_CREATE_QUEUE, &in, &out, sizeof(in), 0, 0);
	assert_text(&r, CQ_ARGS
		    "metadata_ring_size=16384) = 0 "
		    "{doorbell_offset=0xc48d000000000000, queue_id=0}");
	in.metadata_ring_size = 3000;
	r = mk_ioctl(KFD_ABI_IOC_CREATE_QUEUE, &in, &in, sizeof(in), -1, EINVAL);
	assert_text(&r, CQ_ARGS
		    "metadata_ring_size=3000) = -1 EINVAL (Invalid argument)");
}

/* 1.23 PROFILER on 0x28: the union follows op at offset 4. */
static void
test_profiler_1_23(void **state)
{
	struct kfd_abi_profiler_1_23_args a, o;
	struct kt_record r;

	(void)state;
	memset(&a, 0, sizeof(a));
	a.op = KFD_ABI_PROFILER_VERSION;
	o = a;
	o.version = KFD_ABI_PROFILER_VERSION_NUM;
	r = mk_ioctl(KFD_ABI_IOC_PROFILER, &a, &o, sizeof(a), 0, 0);
	assert_text(&r, "PROFILER(op=VERSION) = 0 {version=1}");

	memset(&a, 0, sizeof(a));
	a.op = KFD_ABI_PROFILER_PMC;
	a.pmc.gpu_id = GPU;
	a.pmc.lock = 1;
	a.pmc.perfcount_enable = 1;
	r = mk_ioctl(KFD_ABI_IOC_PROFILER, &a, &a, sizeof(a), 0, 0);
	assert_text(&r, "PROFILER(op=PMC, pmc.gpu_id=0x1234, pmc.lock=1, "
		    "pmc.perfcount_enable=1) = 0");
	r = mk_ioctl(KFD_ABI_IOC_PROFILER, &a, &a, sizeof(a), -1, EBUSY);
	assert_text(&r, "PROFILER(op=PMC, pmc.gpu_id=0x1234, pmc.lock=1, "
		    "pmc.perfcount_enable=1) = -1 EBUSY (Device or resource busy)");

	memset(&a, 0, sizeof(a));
	a.op = KFD_ABI_PROFILER_PTL_CONTROL;
	a.ptl.gpu_id = GPU;
	a.ptl.enable = 0;
	r = mk_ioctl(KFD_ABI_IOC_PROFILER, &a, &a, sizeof(a), -1, EOPNOTSUPP);
	assert_text(&r, "PROFILER(op=PTL_CONTROL, ptl.gpu_id=0x1234, "
		    "ptl.enable=0) = -1 EOPNOTSUPP (Operation not supported)");

	/* An op out of range: no arm applies, the kernel says EINVAL. */
	memset(&a, 0, sizeof(a));
	a.op = 7;
	r = mk_ioctl(KFD_ABI_IOC_PROFILER, &a, &a, sizeof(a), -1, EINVAL);
	assert_text(&r, "PROFILER(op=7) = -1 EINVAL (Invalid argument)");
	/* 0x86's PC_SAMPLE op is no name on 0x28. */
	a.op = KFD_ABI_PROFILER_PC_SAMPLE;
	r = mk_ioctl(KFD_ABI_IOC_PROFILER, &a, &a, sizeof(a), -1, EINVAL);
	assert_text(&r, "PROFILER(op=1) = -1 EINVAL (Invalid argument)");
}

/* The 40-byte 0x28 form: op, pad, and the rest raw. */
static void
test_profiler_dlog(void **state)
{
	struct kfd_abi_profiler_dlog_args a;
	struct kt_record r;

	(void)state;
	memset(&a, 0, sizeof(a));
	a.op = 4;
	a.data[0] = 2;
	a.data[4] = 0x34;
	a.data[5] = 0x12;
	r = mk_ioctl(KFD_ABI_IOC_PROFILER_DLOG, &a, &a, sizeof(a), -1, EINVAL);
	assert_text(&r, "PROFILER_DLOG(op=4, pad=0x0, "
		    "data=<0200000034120000, 24 zero bytes>) "
		    "= -1 EINVAL (Invalid argument)");
}

/* A device snapshot of two entries at the stride @entry_size. */
static struct kt_record
snapshot(struct kfd_abi_dbg_trap_args *a, struct kt_buf_image *b,
	 uint32_t entry_size, uint8_t *buf, size_t len)
{
	struct kt_record r;

	memset(a, 0, sizeof(*a));
	a->pid = 4242;
	a->op = KFD_ABI_DBG_TRAP_GET_DEVICE_SNAPSHOT;
	a->device_snapshot.snapshot_buf_ptr = 0x7ffc0000b000;
	a->device_snapshot.num_devices = 2;
	a->device_snapshot.entry_size = entry_size;
	*b = mk_buf(5, a->device_snapshot.snapshot_buf_ptr, NULL, 0, buf, len);
	r = mk_ioctl(KFD_ABI_IOC_DBG_TRAP, a, a, sizeof(*a), 0, 0);
	r.u.ioctl.nbufs = 1;
	r.u.ioctl.bufs = b;
	return r;
}

static void
fill_entry(struct kfd_abi_dbg_device_info_entry *e, uint32_t gpu_id)
{
	memset(e, 0, sizeof(*e));
	e->gpu_id = gpu_id;
	e->gfx_target_version = 90402;
	e->capability2 = KFD_ABI_CAP2_PER_SDMA_QUEUE_RESET_SUPPORTED;
}

/* The decode of snapshot() up to its entries. */
#define SNAP_HEAD(es)							\
	"DBG_TRAP(pid=4242, op=GET_DEVICE_SNAPSHOT, "			\
	"device_snapshot.exception_mask=0, "				\
	"device_snapshot.snapshot_buf_ptr=0x7ffc0000b000, "		\
	"device_snapshot.num_devices=2, device_snapshot.entry_size=" es	\
	") = 0 {device_snapshot.snapshot_buf_ptr=["

/* One fill_entry() entry of gpu_id @gpu; @tail: what follows debug_prop. */
#define ENTRY(gpu, tail)						\
	"{exception_status=0, lds_base=0x0, lds_limit=0x0, "		\
	"scratch_base=0x0, scratch_limit=0x0, gpuvm_base=0x0, "		\
	"gpuvm_limit=0x0, gpu_id=" gpu ", location_id=0x0, "		\
	"vendor_id=0x0, device_id=0x0, revision_id=0x0, "		\
	"subsystem_vendor_id=0x0, subsystem_device_id=0x0, "		\
	"fw_version=0, gfx_target_version=90402, simd_count=0, "	\
	"max_waves_per_simd=0, array_count=0, "				\
	"simd_arrays_per_engine=0, num_xcc=0, capability=0x0, "		\
	"debug_prop=0x0" tail "}"
#define CAP2	", capability2=PER_SDMA_QUEUE_RESET_SUPPORTED"

static void
test_device_snapshot_strides(void **state)
{
	struct kfd_abi_dbg_device_info_entry e[2];
	uint8_t buf[2 * sizeof(e[0])];
	struct kfd_abi_dbg_trap_args a;
	struct kt_buf_image b;
	struct kt_record r;

	(void)state;
	assert_int_equal(sizeof(e[0]), 128);
	fill_entry(&e[0], GPU);
	fill_entry(&e[1], GPU + 1);
	/* 128: capability2 is there. */
	memcpy(buf, e, sizeof(e));
	r = snapshot(&a, &b, 128, buf, sizeof(buf));
	assert_text(&r, SNAP_HEAD("128") ENTRY("0x1234", CAP2) ", "
		    ENTRY("0x1235", CAP2) "]}");
	/* 120: the old entries; capability2 is past the stride. */
	memcpy(buf, &e[0], 120);
	memcpy(buf + 120, &e[1], 120);
	r = snapshot(&a, &b, 120, buf, 240);
	assert_text(&r, SNAP_HEAD("120") ENTRY("0x1234", "") ", "
		    ENTRY("0x1235", "") "]}");
	/* 4: shorter than the first field; each entry is raw bytes. */
	memcpy(buf, "\x01\x02\x03\x04\x05\x06\x07\x08", 8);
	r = snapshot(&a, &b, 4, buf, 8);
	assert_text(&r, SNAP_HEAD("4") "<01020304>, <05060708>]}");
	/* A stride past any image: what there is decodes as one entry. */
	memset(buf, 0, 8);
	r = snapshot(&a, &b, 0xffffffffu, buf, 8);
	assert_text(&r, SNAP_HEAD("4294967295") "{exception_status=0}]}");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_create_queue_metadata),
		cmocka_unit_test(test_profiler_1_23),
		cmocka_unit_test(test_profiler_dlog),
		cmocka_unit_test(test_device_snapshot_strides),
	};

	return cmocka_run_group_tests_name("golden_abi23", tests, NULL, NULL);
}

/* SPDX-License-Identifier: MIT */
/* Lookup by request per file kind, by name, and the small name helpers. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "kfdtrace/schema.h"
#include "kfdtrace/kfd_abi.h"
#include "kfdtrace/drm_abi.h"

static void
expect_row(enum kfd_file_kind kind, unsigned long req, const char *name)
{
	const struct kfd_ioctl_desc *d = kfd_schema_lookup(kind, req);

	assert_non_null(d);
	assert_string_equal(d->name, name);
	assert_int_equal(d->file_kind, kind);
}

static void
test_lookup_kfd(void **state)
{
	(void)state;
	expect_row(KFD_FILE_KFD, KFD_ABI_IOC_GET_VERSION, "GET_VERSION");
	expect_row(KFD_FILE_KFD, KFD_ABI_IOC_ALLOC_MEMORY_OF_GPU, "ALLOC_MEMORY_OF_GPU");
	expect_row(KFD_FILE_KFD, KFD_ABI_IOC_DBG_TRAP, "DBG_TRAP");
	expect_row(KFD_FILE_KFD, KFD_ABI_IOC_CREATE_PROCESS, "CREATE_PROCESS");
	expect_row(KFD_FILE_KFD, KFD_ABI_IOC_CREATE_PROCESS_FLAGS, "CREATE_PROCESS");
	expect_row(KFD_FILE_KFD, KFD_ABI_IOC_DBG_TRAP_OLD, "DBG_TRAP_OLD");
	expect_row(KFD_FILE_KFD, KFD_ABI_IOC_AIS_OP, "AIS_OP");
	/* The raw values libhsakmt 5.2.3 issues. */
	expect_row(KFD_FILE_KFD, 0xC0284B82ul, "DBG_TRAP_OLD");
	expect_row(KFD_FILE_KFD, 0xC0184B18ul, "MAP_MEMORY_TO_GPU");
}

/* Callers built against <= 1.16 headers pass 88 bytes. */
static void
test_lookup_create_queue_88(void **state)
{
	const struct kfd_ioctl_desc *d;

	(void)state;
	assert_int_equal(KFD_ABI_IOC_CREATE_QUEUE_1_16, 0xC0584B02u);
	d = kfd_schema_lookup(KFD_FILE_KFD, KFD_ABI_IOC_CREATE_QUEUE_1_16);
	assert_non_null(d);
	assert_string_equal(d->name, "CREATE_QUEUE");
	assert_int_equal(d->request, 0xC0604B02u);
	assert_int_equal(d->nvariants, 2);
	assert_int_equal(d->variants[0].size, 88);
	assert_int_equal(d->variants[0].until_minor, 16);
	assert_int_equal(d->variants[1].size, 96);
	assert_int_equal(d->variants[1].since_minor, 17);
}

/*
 * 0x28 is upstream's 16-byte PROFILER (1.23); only a request of exactly 40
 * bytes is the dispatch-log form. Every other size is PROFILER, and the
 * DKMS profiler keeps 0x86.
 */
static void
test_lookup_profiler_sizes(void **state)
{
	(void)state;
	assert_int_equal(KFD_ABI_IOC_PROFILER, 0xC0104B28u);
	assert_int_equal(KFD_ABI_IOC_PROFILER_DLOG, 0xC0284B28u);
	assert_int_equal(KFD_ABI_IOC_PROFILER_DKMS, 0xC0284B86u);
	expect_row(KFD_FILE_KFD, KFD_ABI_IOC_PROFILER, "PROFILER");
	expect_row(KFD_FILE_KFD, KFD_ABI_IOC_PROFILER_DLOG, "PROFILER_DLOG");
	expect_row(KFD_FILE_KFD, KFD_ABI_IOC_WITH_SIZE(KFD_ABI_IOC_PROFILER, 24),
		   "PROFILER");
	expect_row(KFD_FILE_KFD, KFD_ABI_IOC_WITH_SIZE(KFD_ABI_IOC_PROFILER, 0),
		   "PROFILER");
	expect_row(KFD_FILE_KFD, KFD_ABI_IOC_PROFILER_DKMS, "PROFILER_DKMS");
	assert_int_equal(kfd_schema_lookup(KFD_FILE_KFD, KFD_ABI_IOC_PROFILER)->since_minor, 23);
}

/* SVM adds nattr * 8 to the size bits; every such request resolves. */
static void
test_lookup_svm_size_bits(void **state)
{
	unsigned int nattr;

	(void)state;
	assert_int_equal(KFD_ABI_IOC_SVM_NATTR(3), 0xC0304B20u);
	for (nattr = 0; nattr < 2044; nattr += 97)
		expect_row(KFD_FILE_KFD, KFD_ABI_IOC_SVM_NATTR(nattr), "SVM");
}

/* 'K' is shared with the console: only the file kind disambiguates. */
static void
test_lookup_console_and_wrong_kind(void **state)
{
	(void)state;
	/* KIOCSOUND, KDGETLED, KDGKBTYPE, KDSETMODE, KDGETMODE, GIO_FONT, KDFONTOP */
	assert_null(kfd_schema_lookup(KFD_FILE_KFD, 0x4B2F));
	assert_null(kfd_schema_lookup(KFD_FILE_KFD, 0x4B31));
	assert_null(kfd_schema_lookup(KFD_FILE_KFD, 0x4B33));
	assert_null(kfd_schema_lookup(KFD_FILE_KFD, 0x4B3A));
	assert_null(kfd_schema_lookup(KFD_FILE_KFD, 0x4B3B));
	assert_null(kfd_schema_lookup(KFD_FILE_KFD, 0x4B60));
	assert_null(kfd_schema_lookup(KFD_FILE_KFD, 0x4B72));
	/* Beyond both dispatcher ranges. */
	assert_null(kfd_schema_lookup(KFD_FILE_KFD, 0xC0104B29));
	assert_null(kfd_schema_lookup(KFD_FILE_KFD, 0xC0104B88));
	assert_null(kfd_schema_lookup(KFD_FILE_KFD, 0xC0104B00));
	/* A KFD request on a render node, or a DRM one on /dev/kfd. */
	assert_null(kfd_schema_lookup(KFD_FILE_RENDER, KFD_ABI_IOC_ALLOC_MEMORY_OF_GPU));
	assert_null(kfd_schema_lookup(KFD_FILE_KFD, KFD_DRM_IOCTL_AMDGPU_INFO));
	/* Same nr, other type byte. */
	assert_null(kfd_schema_lookup(KFD_FILE_KFD, _IOWR('T', 0x16, uint64_t)));
	/* Unknown file kinds have no rows. */
	assert_null(kfd_schema_lookup(KFD_FILE_UNKNOWN, KFD_ABI_IOC_GET_VERSION));
	assert_null(kfd_schema_lookup((enum kfd_file_kind)77, KFD_ABI_IOC_GET_VERSION));
}

static void
test_lookup_render(void **state)
{
	(void)state;
	expect_row(KFD_FILE_RENDER, KFD_DRM_IOCTL_VERSION, "DRM_VERSION");
	expect_row(KFD_FILE_RENDER, KFD_DRM_IOCTL_GET_CAP, "DRM_GET_CAP");
	expect_row(KFD_FILE_RENDER, KFD_DRM_IOCTL_GEM_CLOSE, "DRM_GEM_CLOSE");
	expect_row(KFD_FILE_RENDER, KFD_DRM_IOCTL_PRIME_HANDLE_TO_FD, "DRM_PRIME_HANDLE_TO_FD");
	expect_row(KFD_FILE_RENDER, KFD_DRM_IOCTL_PRIME_FD_TO_HANDLE, "DRM_PRIME_FD_TO_HANDLE");
	expect_row(KFD_FILE_RENDER, KFD_DRM_IOCTL_AMDGPU_GEM_CREATE, "AMDGPU_GEM_CREATE");
	expect_row(KFD_FILE_RENDER, KFD_DRM_IOCTL_AMDGPU_GEM_MMAP, "AMDGPU_GEM_MMAP");
	expect_row(KFD_FILE_RENDER, KFD_DRM_IOCTL_AMDGPU_INFO, "AMDGPU_INFO");
	expect_row(KFD_FILE_RENDER, KFD_DRM_IOCTL_AMDGPU_GEM_METADATA, "AMDGPU_GEM_METADATA");
	expect_row(KFD_FILE_RENDER, KFD_DRM_IOCTL_AMDGPU_GEM_VA, "AMDGPU_GEM_VA");
	expect_row(KFD_FILE_RENDER, KFD_DRM_IOCTL_AMDGPU_BO_LIST, "AMDGPU_BO_LIST");
	expect_row(KFD_FILE_RENDER, KFD_DRM_IOCTL_AMDGPU_CS, "AMDGPU_CS");
	expect_row(KFD_FILE_RENDER, KFD_DRM_IOCTL_AMDGPU_WAIT_CS, "AMDGPU_WAIT_CS");
	/* WAIT_FENCES (0x52) has no row. */
	assert_null(kfd_schema_lookup(KFD_FILE_RENDER, _IOWR('d', 0x52, uint64_t)));
}

/* The kernel's cmd is 32 bits; higher bits of an unsigned long are noise. */
static void
test_lookup_ignores_high_bits(void **state)
{
	unsigned long req = KFD_ABI_IOC_GET_VERSION;

	(void)state;
	if (sizeof(unsigned long) > 4)
		req |= 0xABCD00000000ul;
	expect_row(KFD_FILE_KFD, req, "GET_VERSION");
}

static void
test_by_name(void **state)
{
	const struct kfd_ioctl_desc *a, *b, *c;

	(void)state;
	a = kfd_schema_by_name("ALLOC_MEMORY_OF_GPU");
	b = kfd_schema_by_name("alloc_memory_of_gpu");
	c = kfd_schema_by_name("Alloc_Memory_Of_GPU");
	assert_non_null(a);
	assert_ptr_equal(a, b);
	assert_ptr_equal(a, c);
	assert_ptr_equal(a, kfd_schema_lookup(KFD_FILE_KFD, KFD_ABI_IOC_ALLOC_MEMORY_OF_GPU));
	assert_non_null(kfd_schema_by_name("amdgpu_info"));
	assert_null(kfd_schema_by_name("ALLOC_MEMORY"));
	assert_null(kfd_schema_by_name(""));
	assert_null(kfd_schema_by_name(NULL));
}

static void
test_field_by_name(void **state)
{
	const struct kfd_ioctl_desc *d = kfd_schema_by_name("ALLOC_MEMORY_OF_GPU");
	int i;

	(void)state;
	i = kfd_schema_field(d, "flags");
	assert_true(i >= 0);
	assert_int_equal(d->args->fields[i].offset,
			 offsetof(struct kfd_abi_alloc_memory_of_gpu_args, flags));
	assert_int_equal(d->args->fields[i].role, KFD_ROLE_FLAGS);
	assert_int_equal(kfd_schema_field(d, "nope"), -1);
	assert_int_equal(kfd_schema_field(NULL, "flags"), -1);
	assert_int_equal(kfd_schema_field(d, NULL), -1);

	d = kfd_schema_by_name("DBG_TRAP");
	i = kfd_schema_field(d, "enable.rinfo_ptr");
	assert_true(i >= 0);
	assert_int_equal(d->args->fields[i].offset,
			 offsetof(struct kfd_abi_dbg_trap_args, enable.rinfo_ptr));
}

static void
test_name_lookup(void **state)
{
	const struct kfd_ioctl_desc *d = kfd_schema_by_name("CREATE_QUEUE");
	const struct kfd_field *f = &d->args->fields[kfd_schema_field(d, "queue_type")];

	(void)state;
	assert_non_null(f->names);
	assert_string_equal(kfd_name_lookup(f->names, KFD_ABI_QUEUE_TYPE_COMPUTE_AQL),
			    "COMPUTE_AQL");
	assert_string_equal(kfd_name_lookup(f->names, KFD_ABI_QUEUE_TYPE_SDMA_BY_ENG_ID),
			    "SDMA_BY_ENG_ID");
	assert_null(kfd_name_lookup(f->names, 99));
	assert_null(kfd_name_lookup(NULL, 0));

	d = kfd_schema_by_name("ALLOC_MEMORY_OF_GPU");
	f = &d->args->fields[kfd_schema_field(d, "flags")];
	assert_string_equal(kfd_name_lookup(f->names, KFD_ABI_ALLOC_MEM_FLAGS_WRITABLE),
			    "WRITABLE");
}

static void
test_role_and_kind_names(void **state)
{
	int r;

	(void)state;
	assert_string_equal(kfd_role_name(KFD_ROLE_HANDLE), "handle");
	assert_string_equal(kfd_role_name(KFD_ROLE_GPU_ID), "gpu_id");
	assert_string_equal(kfd_role_name(KFD_ROLE_BYTES), "bytes");
	for (r = 0; r < KFD_ROLE_COUNT_MAX; r++)
		assert_string_not_equal(kfd_role_name((enum kfd_role)r), "unknown");
	assert_string_equal(kfd_role_name(KFD_ROLE_COUNT_MAX), "unknown");
	assert_string_equal(kfd_role_name((enum kfd_role)-1), "unknown");
	assert_string_equal(kfd_file_kind_name(KFD_FILE_KFD), "kfd");
	assert_string_equal(kfd_file_kind_name(KFD_FILE_RENDER), "render");
	assert_string_equal(kfd_file_kind_name(KFD_FILE_UNKNOWN), "unknown");
	assert_string_equal(kfd_file_kind_name((enum kfd_file_kind)9), "unknown");
}

/* The handle and mmap encodings the simulator and replayer rely on. */
static void
test_abi_encodings(void **state)
{
	uint64_t h = KFD_ABI_MAKE_HANDLE(0xAB12, 7);

	(void)state;
	assert_true(h == 0x0000AB1200000007ull);
	assert_int_equal(KFD_ABI_HANDLE_GPU_ID(h), 0xAB12);
	assert_int_equal(KFD_ABI_HANDLE_IDR(h), 7);
	assert_true(KFD_ABI_MMAP_OFFSET(KFD_ABI_MMAP_TYPE_DOORBELL, 0xAB12, 0) ==
		    0xEAC4800000000000ull);
	assert_true(KFD_ABI_MMAP_OFFSET(KFD_ABI_MMAP_TYPE_MMIO, 0xAB12, 0) ==
		    0x2AC4800000000000ull);
	assert_true(KFD_ABI_MMAP_TYPE_EVENTS == 0x8000000000000000ull);
	assert_int_equal(KFD_ABI_MMAP_GET_GPU_ID(0xEAC4800000001008ull), 0xAB12);
	assert_true(KFD_ABI_MMAP_GET_TYPE(0xEAC4800000001008ull) == KFD_ABI_MMAP_TYPE_DOORBELL);
	assert_int_equal(KFD_ABI_IOC_SIZE(KFD_ABI_IOC_SVM_NATTR(5)), 24 + 40);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_lookup_kfd),
		cmocka_unit_test(test_lookup_create_queue_88),
		cmocka_unit_test(test_lookup_svm_size_bits),
		cmocka_unit_test(test_lookup_profiler_sizes),
		cmocka_unit_test(test_lookup_console_and_wrong_kind),
		cmocka_unit_test(test_lookup_render),
		cmocka_unit_test(test_lookup_ignores_high_bits),
		cmocka_unit_test(test_by_name),
		cmocka_unit_test(test_field_by_name),
		cmocka_unit_test(test_name_lookup),
		cmocka_unit_test(test_role_and_kind_names),
		cmocka_unit_test(test_abi_encodings),
	};

	return cmocka_run_group_tests_name("schema_lookup", tests, NULL, NULL);
}

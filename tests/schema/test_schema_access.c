/* SPDX-License-Identifier: MIT */
/* Field get/set/present and indirect-buffer lengths and pointers. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "kfdtrace/schema.h"
#include "kfdtrace/kfd_abi.h"
#include "kfdtrace/drm_abi.h"

static const struct kfd_ioctl_desc *
row(const char *name)
{
	const struct kfd_ioctl_desc *d = kfd_schema_by_name(name);

	assert_non_null(d);
	return d;
}

static const struct kfd_field *
field(const struct kfd_ioctl_desc *d, const char *name)
{
	int i = kfd_schema_field(d, name);

	assert_true(i >= 0);
	return &d->args->fields[i];
}

static const struct kfd_indirect *
buf(const struct kfd_ioctl_desc *d, const char *name, uint64_t select_value)
{
	unsigned int i;

	for (i = 0; i < d->nbufs; i++) {
		if (!strcmp(d->bufs[i].name, name) &&
		    (d->bufs[i].select < 0 || d->bufs[i].select_value == select_value))
			return &d->bufs[i];
	}
	fail_msg("no buffer %s in %s", name, d->name);
	return NULL;
}

static uint64_t
get(const struct kfd_ioctl_desc *d, const char *name, const void *a, size_t len)
{
	uint64_t v = 0xdeadbeef;

	assert_int_equal(kfd_field_get(field(d, name), a, len, &v), 0);
	return v;
}

static void
test_field_get_values(void **state)
{
	const struct kfd_ioctl_desc *d = row("ALLOC_MEMORY_OF_GPU");
	struct kfd_abi_alloc_memory_of_gpu_args a = {
		.va_addr = 0x7f0000200000ull,
		.size = 2 << 20,
		.handle = KFD_ABI_MAKE_HANDLE(0x1234, 3),
		.mmap_offset = 0x100000000ull,
		.gpu_id = 0x1234,
		.flags = KFD_ABI_ALLOC_MEM_FLAGS_VRAM | KFD_ABI_ALLOC_MEM_FLAGS_WRITABLE,
	};

	(void)state;
	assert_true(get(d, "va_addr", &a, sizeof(a)) == a.va_addr);
	assert_true(get(d, "size", &a, sizeof(a)) == a.size);
	assert_true(get(d, "handle", &a, sizeof(a)) == a.handle);
	assert_true(get(d, "mmap_offset", &a, sizeof(a)) == a.mmap_offset);
	assert_true(get(d, "gpu_id", &a, sizeof(a)) == 0x1234);
	assert_true(get(d, "flags", &a, sizeof(a)) == 0x80000001u);
}

/* A short (old or truncated) argument buffer never reads past its end. */
static void
test_field_get_bounds(void **state)
{
	const struct kfd_ioctl_desc *d = row("CREATE_QUEUE");
	struct kfd_abi_create_queue_args a;
	uint64_t v = 0;

	(void)state;
	memset(&a, 0, sizeof(a));
	a.sdma_engine_id = 5;
	/* 88 bytes: sdma_engine_id (offset 88) is absent. */
	assert_int_equal(kfd_field_get(field(d, "sdma_engine_id"), &a, 88, &v), -1);
	assert_int_equal(kfd_field_get(field(d, "sdma_engine_id"), &a, 96, &v), 0);
	assert_int_equal(v, 5);
	assert_int_equal(kfd_field_get(field(d, "ctl_stack_size"), &a, 88, &v), 0);
	assert_int_equal(kfd_field_get(field(d, "ctl_stack_size"), &a, 87, &v), -1);
	assert_int_equal(kfd_field_get(NULL, &a, 96, &v), -1);
	assert_int_equal(kfd_field_get(field(d, "queue_id"), NULL, 96, &v), -1);
	assert_int_equal(kfd_field_get(field(d, "queue_id"), &a, 96, NULL), -1);
}

static void
test_field_sign_extension(void **state)
{
	const struct kfd_ioctl_desc *x = row("SET_XNACK_MODE");
	const struct kfd_ioctl_desc *v = row("DRM_VERSION");
	const struct kfd_ioctl_desc *q = row("DESTROY_QUEUE");
	struct kfd_abi_set_xnack_mode_args xa = { .xnack_enabled = -1 };
	struct kfd_drm_version va = { .version_major = -2, .version_minor = 3 };
	struct kfd_abi_destroy_queue_args qa = { .queue_id = 0xffffffffu };

	(void)state;
	assert_true(field(x, "xnack_enabled")->is_signed);
	assert_true(get(x, "xnack_enabled", &xa, sizeof(xa)) == UINT64_MAX);
	assert_true(get(v, "version_major", &va, sizeof(va)) == (uint64_t)-2);
	assert_true(get(v, "version_minor", &va, sizeof(va)) == 3);
	/* Unsigned fields zero-extend. */
	assert_false(field(q, "queue_id")->is_signed);
	assert_true(get(q, "queue_id", &qa, sizeof(qa)) == 0xffffffffull);
}

static void
test_field_set(void **state)
{
	const struct kfd_ioctl_desc *d = row("MAP_MEMORY_TO_GPU");
	struct kfd_abi_map_memory_to_gpu_args a;
	const struct kfd_field *h = field(d, "handle");
	const struct kfd_field *ns = field(d, "n_success");

	(void)state;
	memset(&a, 0xAA, sizeof(a));
	assert_int_equal(kfd_field_set(h, &a, sizeof(a), 0x0000beef00000002ull), 0);
	assert_true(a.handle == 0x0000beef00000002ull);
	/* Truncated to the width; the neighbour is untouched. */
	assert_int_equal(kfd_field_set(ns, &a, sizeof(a), 0x123456789ull), 0);
	assert_int_equal(a.n_success, 0x23456789u);
	assert_int_equal(a.n_devices, 0xAAAAAAAAu);
	assert_int_equal(kfd_field_set(ns, &a, sizeof(a) - 1, 1), -1);
	assert_int_equal(a.n_success, 0x23456789u);

	/* Inline byte arrays have no scalar value. */
	d = row("AMDGPU_GEM_METADATA");
	{
		struct kfd_drm_amdgpu_gem_metadata m;
		uint64_t v;

		memset(&m, 0, sizeof(m));
		assert_int_equal(field(d, "data.data")->width, 256);
		assert_int_equal(kfd_field_get(field(d, "data.data"), &m, sizeof(m), &v), -1);
		assert_int_equal(kfd_field_set(field(d, "data.data"), &m, sizeof(m), 1), -1);
	}
}

/* Union arms: present only when the selector holds their value. */
static void
test_field_present(void **state)
{
	const struct kfd_ioctl_desc *d = row("DBG_TRAP");
	struct kfd_abi_dbg_trap_args a;

	(void)state;
	memset(&a, 0, sizeof(a));
	a.op = KFD_ABI_DBG_TRAP_ENABLE;
	assert_true(kfd_field_present(d->args, field(d, "pid"), &a, sizeof(a)));
	assert_true(kfd_field_present(d->args, field(d, "enable.rinfo_ptr"), &a, sizeof(a)));
	assert_false(kfd_field_present(d->args, field(d, "suspend_queues.num_queues"),
				       &a, sizeof(a)));
	a.op = KFD_ABI_DBG_TRAP_SUSPEND_QUEUES;
	assert_false(kfd_field_present(d->args, field(d, "enable.rinfo_ptr"), &a, sizeof(a)));
	assert_true(kfd_field_present(d->args, field(d, "suspend_queues.num_queues"),
				      &a, sizeof(a)));
	/* No readable selector: the arm is absent. */
	assert_false(kfd_field_present(d->args, field(d, "suspend_queues.num_queues"),
				       &a, 4));
	assert_false(kfd_field_present(d->args, NULL, &a, sizeof(a)));

	d = row("AMDGPU_INFO");
	{
		struct kfd_drm_amdgpu_info i = { .query = KFD_DRM_AMDGPU_INFO_HW_IP_COUNT };

		assert_true(kfd_field_present(d->args, field(d, "hw_ip_count.type"), &i, sizeof(i)));
		assert_false(kfd_field_present(d->args, field(d, "query_hw_ip.type"), &i, sizeof(i)));
	}
}

static size_t
len_of(const struct kfd_ioctl_desc *d, const struct kfd_indirect *b,
       const void *a, size_t alen, int after, size_t cap, int want_rc)
{
	size_t len = 12345;

	assert_int_equal(kfd_indirect_len(d, b, a, alen, after, cap, &len), want_rc);
	return len;
}

static void
test_len_count(void **state)
{
	const struct kfd_ioctl_desc *d = row("MAP_MEMORY_TO_GPU");
	const struct kfd_indirect *b = buf(d, "device_ids", 0);
	struct kfd_abi_map_memory_to_gpu_args a = {
		.device_ids_array_ptr = 0x5000, .n_devices = 3,
	};

	(void)state;
	assert_non_null(b->elem);
	assert_int_equal(b->elem->fields[0].role, KFD_ROLE_GPU_ID);
	assert_int_equal(len_of(d, b, &a, sizeof(a), 0, 4096, 0), 12);
	assert_int_equal(len_of(d, b, &a, sizeof(a), 1, 4096, 0), 12);
	assert_true(kfd_indirect_ptr(d, b, &a, sizeof(a)) == 0x5000);
	/* Bounded by cap, flagged. */
	assert_int_equal(len_of(d, b, &a, sizeof(a), 0, 8, -1), 8);
	/* NULL pointer: absent. */
	a.device_ids_array_ptr = 0;
	assert_int_equal(len_of(d, b, &a, sizeof(a), 0, 4096, 1), 0);
	assert_true(kfd_indirect_ptr(d, b, &a, sizeof(a)) == 0);
	/* Count field outside a short args image: absent. */
	a.device_ids_array_ptr = 0x5000;
	assert_int_equal(len_of(d, b, &a, 16, 0, 4096, 1), 0);

	d = row("WAIT_EVENTS");
	{
		struct kfd_abi_wait_events_args w = { .events_ptr = 0x9000, .num_events = 2 };

		assert_int_equal(len_of(d, buf(d, "events", 0), &w, sizeof(w), 0, 4096, 0),
				 2 * sizeof(struct kfd_abi_event_data));
	}
}

/* A count that overflows 64 bits is clamped, not wrapped. */
static void
test_len_overflow(void **state)
{
	const struct kfd_ioctl_desc *d = row("CROSS_MEMORY_COPY");
	struct kfd_abi_cross_memory_copy_args a = {
		.src_mem_range_array = 0x1000, .src_mem_array_size = UINT64_MAX / 2,
		.dst_mem_range_array = 0x2000, .dst_mem_array_size = 2,
	};

	(void)state;
	assert_int_equal(len_of(d, buf(d, "src_ranges", 0), &a, sizeof(a), 0, 1 << 20, -1),
			 1 << 20);
	assert_int_equal(len_of(d, buf(d, "dst_ranges", 0), &a, sizeof(a), 0, 1 << 20, 0), 32);
}

static void
test_len_bits32(void **state)
{
	const struct kfd_ioctl_desc *d = row("SET_CU_MASK");
	const struct kfd_indirect *b = buf(d, "cu_mask", 0);
	struct kfd_abi_set_cu_mask_args a = { .cu_mask_ptr = 0x7000 };

	(void)state;
	a.num_cu_mask = 64;
	assert_int_equal(len_of(d, b, &a, sizeof(a), 0, 4096, 0), 8);
	a.num_cu_mask = 33;
	assert_int_equal(len_of(d, b, &a, sizeof(a), 0, 4096, 0), 8);
	a.num_cu_mask = 1;
	assert_int_equal(len_of(d, b, &a, sizeof(a), 0, 4096, 0), 4);
	a.num_cu_mask = 0;
	assert_int_equal(len_of(d, b, &a, sizeof(a), 0, 4096, 0), 0);
	a.num_cu_mask = 0xffffffffu;
	assert_int_equal(len_of(d, b, &a, sizeof(a), 0, 4096, -1), 4096);
}

/* Capacity before the call, filled count after it. */
static void
test_len_capacity(void **state)
{
	const struct kfd_ioctl_desc *d = row("GET_PROCESS_APERTURES_NEW");
	const struct kfd_indirect *b = buf(d, "apertures", 0);
	struct kfd_abi_get_process_apertures_new_args before = {
		.kfd_process_device_apertures_ptr = 0x8000, .num_of_nodes = 4,
	};
	struct kfd_abi_get_process_apertures_new_args after = before;
	size_t cap;

	(void)state;
	assert_non_null(b->elem);
	assert_int_equal(b->elem->size, 56);
	cap = len_of(d, b, &before, sizeof(before), 0, 1 << 20, 0);
	assert_int_equal(cap, 4 * 56);
	after.num_of_nodes = 2;
	assert_int_equal(len_of(d, b, &after, sizeof(after), 1, cap, 0), 2 * 56);
	/* The kernel reports more than fit: bounded by the before-image. */
	after.num_of_nodes = 9;
	assert_int_equal(len_of(d, b, &after, sizeof(after), 1, cap, -1), cap);

	/* GET_TILE_CONFIG: two capacity buffers in one row. */
	d = row("GET_TILE_CONFIG");
	{
		struct kfd_abi_get_tile_config_args t = {
			.tile_config_ptr = 0x100, .macro_tile_config_ptr = 0x200,
			.num_tile_configs = 32, .num_macro_tile_configs = 16,
		};

		assert_int_equal(len_of(d, buf(d, "tile_config", 0), &t, sizeof(t), 0,
					4096, 0), 128);
		assert_int_equal(len_of(d, buf(d, "macro_tile_config", 0), &t, sizeof(t),
					0, 4096, 0), 64);
		t.macro_tile_config_ptr = 0;
		assert_int_equal(len_of(d, buf(d, "macro_tile_config", 0), &t, sizeof(t),
					0, 4096, 1), 0);
	}
}

static void
test_len_bytes(void **state)
{
	const struct kfd_ioctl_desc *d = row("AMDGPU_INFO");
	struct kfd_drm_amdgpu_info a = {
		.return_pointer = 0x4000, .return_size = 24,
		.query = KFD_DRM_AMDGPU_INFO_VRAM_GTT,
	};

	(void)state;
	assert_int_equal(len_of(d, buf(d, "result", 0), &a, sizeof(a), 1, 4096, 0), 24);

	d = row("GET_DMABUF_INFO");
	{
		struct kfd_abi_get_dmabuf_info_args m = { .metadata_ptr = 0x10, .metadata_size = 100 };

		assert_int_equal(len_of(d, buf(d, "metadata", 0), &m, sizeof(m), 0, 4096, 0), 100);
	}

	d = row("DRM_VERSION");
	{
		struct kfd_drm_version v = {
			.name_len = 6, .name = 0x100, .date_len = 0, .date = 0x200,
			.desc_len = 40, .desc = 0,
		};

		assert_int_equal(len_of(d, buf(d, "name", 0), &v, sizeof(v), 0, 4096, 0), 6);
		assert_int_equal(len_of(d, buf(d, "date", 0), &v, sizeof(v), 0, 4096, 0), 0);
		assert_int_equal(len_of(d, buf(d, "desc", 0), &v, sizeof(v), 0, 4096, 1), 0);
	}
}

/* SVM's attributes ride inside the argument bytes. */
static void
test_len_trailing(void **state)
{
	const struct kfd_ioctl_desc *d = row("SVM");
	const struct kfd_indirect *b = buf(d, "attrs", 0);
	unsigned char raw[24 + 3 * 8];
	struct kfd_abi_svm_args *a = (struct kfd_abi_svm_args *)raw;

	(void)state;
	memset(raw, 0, sizeof(raw));
	a->nattr = 3;
	assert_int_equal(b->ptr_field, -1);
	assert_non_null(b->elem);
	assert_int_equal(len_of(d, b, raw, sizeof(raw), 0, 4096, 0), 24);
	assert_true(kfd_indirect_ptr(d, b, raw, sizeof(raw)) == 0);
	/* Only what the size bits carried, whatever nattr claims. */
	assert_int_equal(len_of(d, b, raw, 24 + 16, 0, 4096, 0), 16);
	assert_int_equal(len_of(d, b, raw, 24, 0, 4096, 0), 0);
	a->nattr = 0;
	assert_int_equal(len_of(d, b, raw, sizeof(raw), 0, 4096, 0), 0);
	a->nattr = 3;
	assert_int_equal(len_of(d, b, raw, sizeof(raw), 0, 10, -1), 10);
}

/* Buffers of union arms follow the selector. */
static void
test_len_select(void **state)
{
	const struct kfd_ioctl_desc *d = row("DBG_TRAP");
	const struct kfd_indirect *ri = buf(d, "runtime_info", KFD_ABI_DBG_TRAP_ENABLE);
	const struct kfd_indirect *sq = buf(d, "queue_ids", KFD_ABI_DBG_TRAP_SUSPEND_QUEUES);
	struct kfd_abi_dbg_trap_args a;

	(void)state;
	memset(&a, 0, sizeof(a));
	a.op = KFD_ABI_DBG_TRAP_ENABLE;
	a.enable.rinfo_ptr = 0x3000;
	a.enable.rinfo_size = sizeof(struct kfd_abi_runtime_info);
	assert_int_equal(len_of(d, ri, &a, sizeof(a), 0, 4096, 0), 16);
	assert_int_equal(len_of(d, sq, &a, sizeof(a), 0, 4096, 1), 0);
	assert_true(kfd_indirect_ptr(d, sq, &a, sizeof(a)) == 0);

	memset(&a, 0, sizeof(a));
	a.op = KFD_ABI_DBG_TRAP_SUSPEND_QUEUES;
	a.suspend_queues.queue_array_ptr = 0x6000;
	a.suspend_queues.num_queues = 5;
	assert_int_equal(len_of(d, sq, &a, sizeof(a), 1, 4096, 0), 20);
	assert_int_equal(len_of(d, ri, &a, sizeof(a), 0, 4096, 1), 0);

	d = row("CRIU_OP");
	{
		struct kfd_abi_criu_args c = {
			.devices = 0x100, .bos = 0x200, .priv_data = 0x300,
			.priv_data_size = 77, .num_devices = 2, .num_bos = 3,
			.op = KFD_ABI_CRIU_OP_CHECKPOINT,
		};
		const struct kfd_indirect *dev_out = buf(d, "devices", KFD_ABI_CRIU_OP_CHECKPOINT);
		const struct kfd_indirect *dev_in = buf(d, "devices", KFD_ABI_CRIU_OP_RESTORE);

		assert_int_equal(dev_out->dir, KFD_DIR_OUT);
		assert_int_equal(dev_in->dir, KFD_DIR_IN);
		assert_int_equal(len_of(d, dev_out, &c, sizeof(c), 1, 4096, 0), 32);
		assert_int_equal(len_of(d, dev_in, &c, sizeof(c), 0, 4096, 1), 0);
		assert_int_equal(len_of(d, buf(d, "bos", KFD_ABI_CRIU_OP_CHECKPOINT), &c,
					sizeof(c), 1, 4096, 0), 3 * 48);
		assert_int_equal(len_of(d, buf(d, "priv_data", KFD_ABI_CRIU_OP_CHECKPOINT), &c,
					sizeof(c), 1, 4096, 0), 77);
		c.op = KFD_ABI_CRIU_OP_PROCESS_INFO;
		assert_int_equal(len_of(d, dev_out, &c, sizeof(c), 1, 4096, 1), 0);
	}

	d = row("RLC_SPM");
	{
		struct kfd_abi_spm_args s = {
			.dest_buf = 0x1000, .buf_size = 4096, .op = KFD_ABI_SPM_OP_ACQUIRE,
		};

		const struct kfd_indirect *db = buf(d, "dest_buf", KFD_ABI_SPM_OP_SET_DEST_BUF);

		assert_int_equal(len_of(d, db, &s, sizeof(s), 0, 1 << 20, 1), 0);
		s.op = KFD_ABI_SPM_OP_SET_DEST_BUF;
		assert_int_equal(len_of(d, db, &s, sizeof(s), 0, 1 << 20, 0), 4096);
	}
}

/* FIXED is used by no current row: prove it on a synthetic one. */
static void
test_len_fixed_and_bad_input(void **state)
{
	struct two {
		uint64_t ptr;
		uint32_t kind;
		uint32_t pad;
	};
	static const struct kfd_field f[] = {
		{ .name = "ptr", .offset = 0, .width = 8, .dir = KFD_DIR_IN,
		  .role = KFD_ROLE_PTR, .select = -1 },
		{ .name = "kind", .offset = 8, .width = 4, .dir = KFD_DIR_IN,
		  .role = KFD_ROLE_ENUM, .select = -1 },
	};
	static const struct kfd_struct_desc sd = { "two", 16, f, 2 };
	static const struct kfd_indirect b[] = {
		{ .name = "blob", .ptr_field = 0, .count_field = -1, .elem_size = 64,
		  .len_kind = KFD_LEN_FIXED, .dir = KFD_DIR_OUT, .select = 1,
		  .select_value = 2 },
		{ .name = "broken", .ptr_field = 0, .count_field = 9, .elem_size = 4,
		  .len_kind = KFD_LEN_COUNT, .dir = KFD_DIR_OUT, .select = -1 },
	};
	static const struct kfd_ioctl_desc d = {
		.name = "SYNTH", .event_name = "synth", .args = &sd, .bufs = b, .nbufs = 2,
	};
	struct two a = { .ptr = 0x40, .kind = 2 };
	size_t len = 1;

	(void)state;
	assert_int_equal(len_of(&d, &b[0], &a, sizeof(a), 0, 4096, 0), 64);
	assert_int_equal(len_of(&d, &b[0], &a, sizeof(a), 0, 63, -1), 63);
	a.kind = 3;
	assert_int_equal(len_of(&d, &b[0], &a, sizeof(a), 0, 4096, 1), 0);
	/* A count index outside the struct is treated as absent, not a crash. */
	assert_int_equal(len_of(&d, &b[1], &a, sizeof(a), 0, 4096, 1), 0);
	assert_int_equal(kfd_indirect_len(NULL, &b[0], &a, sizeof(a), 0, 1, &len), 1);
	assert_int_equal(len, 0);
	assert_int_equal(kfd_indirect_len(&d, NULL, &a, sizeof(a), 0, 1, &len), 1);
	assert_int_equal(kfd_indirect_len(&d, &b[0], NULL, sizeof(a), 0, 1, &len), 1);
	assert_int_equal(kfd_indirect_len(&d, &b[0], &a, sizeof(a), 0, 1, NULL), 1);
	assert_true(kfd_indirect_ptr(NULL, &b[0], &a, sizeof(a)) == 0);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_field_get_values),
		cmocka_unit_test(test_field_get_bounds),
		cmocka_unit_test(test_field_sign_extension),
		cmocka_unit_test(test_field_set),
		cmocka_unit_test(test_field_present),
		cmocka_unit_test(test_len_count),
		cmocka_unit_test(test_len_overflow),
		cmocka_unit_test(test_len_bits32),
		cmocka_unit_test(test_len_capacity),
		cmocka_unit_test(test_len_bytes),
		cmocka_unit_test(test_len_trailing),
		cmocka_unit_test(test_len_select),
		cmocka_unit_test(test_len_fixed_and_bad_input),
	};

	return cmocka_run_group_tests_name("schema_access", tests, NULL, NULL);
}

/* SPDX-License-Identifier: MIT */
/*
 * The replayer's binding of schema rows and fields (replay/rows.c): every
 * row and field resolves from the schema's columns as they are, a lost or
 * ambiguous column makes binding fail with what is missing (never a NULL
 * the replay would trip over later), SVM's attribute layout comes from the
 * schema row, and the rows never replayed are the schema's no_replay rows.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include <kfdtrace/kfd_abi.h>
#include <kfdtrace/schema.h>

#include "replay_recs.h"

/* Every bound pointer of struct rp_rows: get_version up to row0. */
static void
test_every_binding_resolves(void **state)
{
	const struct rp_rows *r = rp_rows();
	const char *base = (const char *)r;
	size_t off, n = 0;

	(void)state;
	assert_null(rp_rows_error());
	assert_non_null(r->plans);
	for (off = offsetof(struct rp_rows, get_version);
	     off < offsetof(struct rp_rows, row0); off += sizeof(void *)) {
		const void *p;

		memcpy(&p, base + off, sizeof(p));
		if (!p)
			fail_msg("struct rp_rows pointer #%zu is unbound", n);
		n++;
	}
	/* 29 rows, 62 fields, the SVM attribute buffer and its 2 fields. */
	assert_int_equal(n, 29 + 62 + 3);
}

/* Rows and fields are the schema's, found by column, not by name. */
static void
test_bound_by_column(void **state)
{
	const struct rp_rows *r = rp_rows();

	(void)state;
	assert_ptr_equal(r->alloc, kfd_schema_by_name("ALLOC_MEMORY_OF_GPU"));
	assert_ptr_equal(r->import_dmabuf, kfd_schema_by_name("IMPORT_DMABUF"));
	assert_ptr_equal(r->ipc_import, kfd_schema_by_name("IPC_IMPORT_HANDLE"));
	assert_ptr_equal(r->prime_f2h, kfd_schema_by_name("DRM_PRIME_FD_TO_HANDLE"));
	assert_ptr_equal(r->gem_close, kfd_schema_by_name("DRM_GEM_CLOSE"));
	assert_ptr_equal(r->create_process, kfd_schema_by_name("CREATE_PROCESS"));
	assert_string_equal(r->alloc_handle->name, "handle");
	assert_string_equal(r->alloc_off->name, "mmap_offset");
	assert_string_equal(r->cq_ring->name, "ring_base_address");
	assert_string_equal(r->cq_wptr->name, "write_pointer_address");
	assert_string_equal(r->cq_ctx_size->name, "ctx_save_restore_size");
	assert_string_equal(r->ce_page->name, "event_page_offset");
	assert_string_equal(r->gc_size->name, "in.bo_size");
	assert_string_equal(r->gc_handle->name, "out.handle");
	assert_string_equal(r->f2h_fd->name, "fd");
	assert_string_equal(r->ver_minor->name, "minor_version");
}

/* A copy of the schema table the tests alter. */
static struct kfd_ioctl_desc *copy;
static unsigned int ncopy;
static struct kfd_struct_desc copy_args;
static struct kfd_field copy_fields[32];

static struct kfd_ioctl_desc *
copy_reset(void)
{
	const struct kfd_ioctl_desc *all = kfd_schema_rows(&ncopy);

	free(copy);
	copy = malloc(ncopy * sizeof(*copy));
	assert_non_null(copy);
	memcpy(copy, all, ncopy * sizeof(*copy));
	return copy;
}

static struct kfd_ioctl_desc *
copy_row(const char *name)
{
	unsigned int i;

	for (i = 0; i < ncopy; i++)
		if (!strcmp(copy[i].name, name))
			return &copy[i];
	fail_msg("no row %s", name);
	return NULL;
}

/* A lost row or column, or an ambiguous one, fails binding and says which. */
static void
test_missing_column_fails_loudly(void **state)
{
	struct kfd_ioctl_desc *d;
	struct rp_rows r;
	char msg[128];
	unsigned int i;

	(void)state;
	copy_reset();
	memset(&r, 0, sizeof(r));
	assert_int_equal(rp_rows_bind(&r, copy, ncopy, msg, sizeof(msg)), 0);

	copy_row("SVM")->name = "SVM_RENAMED";
	memset(&r, 0, sizeof(r));
	assert_int_equal(rp_rows_bind(&r, copy, ncopy, msg, sizeof(msg)), -1);
	assert_string_equal(msg, "the schema has no row SVM");

	copy_reset();
	copy_row("DRM_GEM_CLOSE")->ends = KFD_OBJ_NONE;
	memset(&r, 0, sizeof(r));
	assert_int_equal(rp_rows_bind(&r, copy, ncopy, msg, sizeof(msg)), -1);
	assert_string_equal(msg, "the schema has no row that ends a gem");

	copy_reset();
	copy_row("UPDATE_QUEUE")->creates = KFD_OBJ_QUEUE;
	memset(&r, 0, sizeof(r));
	assert_int_equal(rp_rows_bind(&r, copy, ncopy, msg, sizeof(msg)), -1);
	assert_string_equal(msg, "schema rows CREATE_QUEUE and UPDATE_QUEUE: "
			    "each creates a queue");

	/* ALLOC_MEMORY_OF_GPU whose handle field lost its attribute. */
	copy_reset();
	d = copy_row("ALLOC_MEMORY_OF_GPU");
	assert_true(d->args->nfields <= 32);
	copy_args = *d->args;
	memcpy(copy_fields, d->args->fields,
	       d->args->nfields * sizeof(copy_fields[0]));
	for (i = 0; i < d->args->nfields; i++)
		if (!strcmp(copy_fields[i].name, "handle"))
			copy_fields[i].attr = KFD_ATTR_NONE;
	copy_args.fields = copy_fields;
	d->args = &copy_args;
	memset(&r, 0, sizeof(r));
	assert_int_equal(rp_rows_bind(&r, copy, ncopy, msg, sizeof(msg)), -1);
	assert_string_equal(msg,
			    "schema row ALLOC_MEMORY_OF_GPU marks no field as obj");
	free(copy);
	copy = NULL;
}

/*
 * The SVM attributes the replayer translates and compares: 8-byte
 * (type, value) pairs from byte 24 on, as the replayer had them typed in
 * before it read them from the schema.
 */
static void
test_svm_attr_layout(void **state)
{
	const struct rp_rows *r = rp_rows();

	(void)state;
	assert_non_null(r->svm_attrs);
	assert_int_equal(r->svm_attrs->len_kind, KFD_LEN_TRAILING);
	assert_int_equal(r->svm->args->size, 24);
	assert_int_equal(r->svm_attrs->elem_size, 8);
	assert_int_equal(r->svm_attr_type->offset, 0);
	assert_int_equal(r->svm_attr_type->width, 4);
	assert_int_equal(r->svm_attr_value->offset, 4);
	assert_int_equal(r->svm_attr_value->width, 4);
	assert_string_equal(r->svm_attrs->name, "attrs");
}

/* Plans never replay exactly the schema's no_replay rows. */
static void
test_never_is_no_replay(void **state)
{
	const struct rp_rows *r = rp_rows();
	unsigned int n, i, never = 0;
	const struct kfd_ioctl_desc *rows = kfd_schema_rows(&n);

	(void)state;
	for (i = 0; i < n; i++) {
		const struct rp_req_plan *p = rp_req_plan(r, &rows[i]);
		int want = !strcmp(rows[i].name, "CROSS_MEMORY_COPY") ||
			   !strcmp(rows[i].name, "CRIU_OP") ||
			   !strcmp(rows[i].name, "AIS_OP") ||
			   !strcmp(rows[i].name, "PROFILER_DLOG") ||
			   !strcmp(rows[i].name, "AMDGPU_CS") ||
			   !strcmp(rows[i].name, "AMDGPU_WAIT_CS");

		assert_int_equal(p->never, rows[i].no_replay);
		assert_int_equal(p->never, want);
		never += p->never;
	}
	assert_int_equal(never, 6);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_every_binding_resolves),
		cmocka_unit_test(test_bound_by_column),
		cmocka_unit_test(test_missing_column_fails_loudly),
		cmocka_unit_test(test_svm_attr_layout),
		cmocka_unit_test(test_never_is_no_replay),
	};

	return cmocka_run_group_tests_name("replay_rows", tests, NULL, NULL);
}

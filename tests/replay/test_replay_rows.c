/* SPDX-License-Identifier: MIT */
/*
 * The replayer's binding of schema rows and fields by name (replay/rows.c):
 * every row and field it names resolves in the schema as it is, a rename
 * makes binding fail with the missing name (never a NULL the replay would
 * trip over later), SVM's attribute layout comes from the schema row, and
 * the rows never replayed are the schema's no_replay rows.
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
	/* 30 rows, 68 fields, the SVM attribute buffer and its 2 fields. */
	assert_int_equal(n, 30 + 68 + 3);
}

static const char *hidden_row;

static const struct kfd_ioctl_desc *
lookup_hiding(const char *name)
{
	if (hidden_row && !strcmp(name, hidden_row))
		return NULL;
	return kfd_schema_by_name(name);
}

/* A copy of ALLOC_MEMORY_OF_GPU whose "handle" field is renamed. */
static struct kfd_ioctl_desc renamed_alloc;
static struct kfd_struct_desc renamed_args;
static struct kfd_field renamed_fields[32];

static const struct kfd_ioctl_desc *
lookup_renaming(const char *name)
{
	const struct kfd_ioctl_desc *d = kfd_schema_by_name(name);
	unsigned int i;

	if (!d || strcmp(d->name, "ALLOC_MEMORY_OF_GPU"))
		return d;
	assert_true(d->args->nfields <= 32);
	renamed_alloc = *d;
	renamed_args = *d->args;
	memcpy(renamed_fields, d->args->fields,
	       d->args->nfields * sizeof(renamed_fields[0]));
	for (i = 0; i < d->args->nfields; i++)
		if (!strcmp(renamed_fields[i].name, "handle"))
			renamed_fields[i].name = "bo_handle";
	renamed_args.fields = renamed_fields;
	renamed_alloc.args = &renamed_args;
	return &renamed_alloc;
}

/* A renamed row or field fails binding and says which. */
static void
test_rename_fails_loudly(void **state)
{
	struct rp_rows r;
	char msg[128];

	(void)state;
	memset(&r, 0, sizeof(r));
	hidden_row = NULL;
	assert_int_equal(rp_rows_bind(&r, lookup_hiding, msg, sizeof(msg)), 0);

	hidden_row = "SVM";
	memset(&r, 0, sizeof(r));
	msg[0] = '\0';
	assert_int_equal(rp_rows_bind(&r, lookup_hiding, msg, sizeof(msg)), -1);
	assert_string_equal(msg, "the schema has no row SVM");

	hidden_row = "DRM_GEM_CLOSE";
	memset(&r, 0, sizeof(r));
	assert_int_equal(rp_rows_bind(&r, lookup_hiding, msg, sizeof(msg)), -1);
	assert_string_equal(msg, "the schema has no row DRM_GEM_CLOSE");
	hidden_row = NULL;

	memset(&r, 0, sizeof(r));
	assert_int_equal(rp_rows_bind(&r, lookup_renaming, msg, sizeof(msg)), -1);
	assert_string_equal(msg,
			    "schema row ALLOC_MEMORY_OF_GPU has no field handle");
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
			   !strcmp(rows[i].name, "PROFILER_DLOG");

		assert_int_equal(p->never, rows[i].no_replay);
		assert_int_equal(p->never, want);
		never += p->never;
	}
	assert_int_equal(never, 4);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_every_binding_resolves),
		cmocka_unit_test(test_rename_fails_loudly),
		cmocka_unit_test(test_svm_attr_layout),
		cmocka_unit_test(test_never_is_no_replay),
	};

	return cmocka_run_group_tests_name("replay_rows", tests, NULL, NULL);
}

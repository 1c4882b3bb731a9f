/* SPDX-License-Identifier: MIT */
/*
 * The schema's object columns (kfd_ioctl_desc.creates, .source, .ends) and
 * field attributes (kfd_field.attr): every row that creates or ends an
 * object says which, exactly the rows of the hand list below; the field
 * that names the object (and the one naming its source) has the object
 * kind's role and the direction the call gives it; one row per (creates,
 * source) pair and per ends value, as the replayer requires; and no struct
 * marks two fields with one attribute.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "kfdtrace/schema.h"

struct want_obj {
	const char *row;
	uint8_t creates, source, ends;
};

#define MAKES(n, o, s)	{ n, KFD_OBJ_##o, KFD_OBJ_##s, KFD_OBJ_NONE }
#define ENDS(n, o)	{ n, KFD_OBJ_NONE, KFD_OBJ_NONE, KFD_OBJ_##o }

/* The calls known to create or end objects, typed in from the ABI. */
static const struct want_obj want[] = {
	MAKES("ALLOC_MEMORY_OF_GPU", BUFFER, NONE),
	MAKES("IMPORT_DMABUF", BUFFER, DMABUF),
	MAKES("IPC_IMPORT_HANDLE", BUFFER, SHARE),
	MAKES("IPC_EXPORT_HANDLE", SHARE, BUFFER),
	MAKES("EXPORT_DMABUF", DMABUF, BUFFER),
	MAKES("DRM_PRIME_HANDLE_TO_FD", DMABUF, GEM),
	MAKES("DRM_PRIME_FD_TO_HANDLE", GEM, DMABUF),
	MAKES("AMDGPU_GEM_CREATE", GEM, NONE),
	MAKES("CREATE_QUEUE", QUEUE, NONE),
	MAKES("CREATE_EVENT", EVENT, NONE),
	MAKES("SMI_EVENTS", FD, NONE),
	MAKES("CREATE_PROCESS", PROCESS, NONE),
	ENDS("FREE_MEMORY_OF_GPU", BUFFER),
	ENDS("DESTROY_QUEUE", QUEUE),
	ENDS("DESTROY_EVENT", EVENT),
	ENDS("DRM_GEM_CLOSE", GEM),
};

#define NWANT (sizeof(want) / sizeof(want[0]))

static const struct want_obj *
want_of(const char *row)
{
	size_t i;

	for (i = 0; i < NWANT; i++)
		if (!strcmp(want[i].row, row))
			return &want[i];
	return NULL;
}

/* Exactly the hand list's rows create or end objects, and the same ones. */
static void
test_rows_match_hand_list(void **state)
{
	unsigned int n, i, seen = 0;
	const struct kfd_ioctl_desc *rows = kfd_schema_rows(&n);

	(void)state;
	for (i = 0; i < n; i++) {
		const struct kfd_ioctl_desc *d = &rows[i];
		const struct want_obj *w = want_of(d->name);

		if (!w) {
			if (d->creates || d->source || d->ends)
				fail_msg("%s: creates %s from %s, ends %s; not in "
					 "the hand list", d->name,
					 kfd_obj_name(d->creates),
					 kfd_obj_name(d->source),
					 kfd_obj_name(d->ends));
			continue;
		}
		seen++;
		if (d->creates != w->creates || d->source != w->source ||
		    d->ends != w->ends)
			fail_msg("%s: creates %s from %s, ends %s; want %s from "
				 "%s, ends %s", d->name, kfd_obj_name(d->creates),
				 kfd_obj_name(d->source), kfd_obj_name(d->ends),
				 kfd_obj_name(w->creates), kfd_obj_name(w->source),
				 kfd_obj_name(w->ends));
	}
	assert_int_equal(seen, NWANT);
}

/* The one field of @d marked @attr; fails when there is none. */
static const struct kfd_field *
marked(const struct kfd_ioctl_desc *d, unsigned int attr)
{
	const struct kfd_field *f = kfd_schema_attr(d->args, attr);

	if (!f)
		fail_msg("%s: no field marked %s", d->name, kfd_attr_name(attr));
	return f;
}

/* The object's field and its source's: the kind's role, the call's direction. */
static void
test_object_fields(void **state)
{
	unsigned int n, i;
	const struct kfd_ioctl_desc *rows = kfd_schema_rows(&n);

	(void)state;
	for (i = 0; i < n; i++) {
		const struct kfd_ioctl_desc *d = &rows[i];
		unsigned int obj = d->creates ? d->creates : d->ends;
		const struct kfd_field *f;

		if (!obj)
			continue;
		if (obj == KFD_OBJ_PROCESS) {
			/* The process is the file's: no field names it. */
			assert_null(kfd_schema_attr(d->args, KFD_ATTR_OBJ));
			continue;
		}
		f = marked(d, KFD_ATTR_OBJ);
		if (f->role != kfd_obj_role(obj))
			fail_msg("%s.%s: role %s, a %s is named by a %s", d->name,
				 f->name, kfd_role_name(f->role), kfd_obj_name(obj),
				 kfd_role_name(kfd_obj_role(obj)));
		/* The kernel hands out what it creates; the caller names what ends. */
		assert_true(f->dir & (d->creates ? KFD_DIR_OUT : KFD_DIR_IN));
		if (d->source) {
			f = marked(d, KFD_ATTR_SOURCE);
			assert_int_equal(f->role, kfd_obj_role(d->source));
			assert_true(f->dir & KFD_DIR_IN);
		} else {
			assert_null(kfd_schema_attr(d->args, KFD_ATTR_SOURCE));
		}
	}
}

/* One row per (creates, source) pair and per ends value. */
static void
test_columns_unique(void **state)
{
	unsigned int n, i, j;
	const struct kfd_ioctl_desc *rows = kfd_schema_rows(&n);

	(void)state;
	for (i = 0; i < n; i++)
		for (j = i + 1; j < n; j++) {
			if (rows[i].creates && rows[i].creates == rows[j].creates &&
			    rows[i].source == rows[j].source)
				fail_msg("%s and %s both create a %s from %s",
					 rows[i].name, rows[j].name,
					 kfd_obj_name(rows[i].creates),
					 kfd_obj_name(rows[i].source));
			if (rows[i].ends && rows[i].ends == rows[j].ends)
				fail_msg("%s and %s both end a %s", rows[i].name,
					 rows[j].name, kfd_obj_name(rows[i].ends));
		}
}

static void
check_attrs(const char *row, const struct kfd_struct_desc *sd)
{
	unsigned int i, j;

	for (i = 0; sd && i < sd->nfields; i++) {
		const struct kfd_field *f = &sd->fields[i];

		if (f->attr >= KFD_ATTR_COUNT_MAX)
			fail_msg("%s.%s: attribute %u", row, f->name, f->attr);
		if (!f->attr)
			continue;
		assert_string_not_equal(kfd_attr_name(f->attr), "?");
		for (j = i + 1; j < sd->nfields; j++)
			if (sd->fields[j].attr == f->attr)
				fail_msg("%s: %s and %s are both %s", row, f->name,
					 sd->fields[j].name,
					 kfd_attr_name(f->attr));
	}
}

/* Attributes are known and each marks one field of a struct. */
static void
test_attrs_distinct(void **state)
{
	unsigned int n, i, b;
	const struct kfd_ioctl_desc *rows = kfd_schema_rows(&n);

	(void)state;
	for (i = 0; i < n; i++) {
		check_attrs(rows[i].name, rows[i].args);
		for (b = 0; b < rows[i].nbufs; b++)
			check_attrs(rows[i].name, rows[i].bufs[b].elem);
	}
}

/* A few attributes as the replayer reads them. */
static void
test_known_attrs(void **state)
{
	const struct kfd_ioctl_desc *cq = kfd_schema_by_name("CREATE_QUEUE");
	const struct kfd_ioctl_desc *svm = kfd_schema_by_name("SVM");

	(void)state;
	assert_string_equal(marked(cq, KFD_ATTR_RING)->name, "ring_base_address");
	assert_string_equal(marked(cq, KFD_ATTR_RPTR)->name, "read_pointer_address");
	assert_string_equal(marked(cq, KFD_ATTR_EOP_SIZE)->name, "eop_buffer_size");
	assert_string_equal(marked(cq, KFD_ATTR_DOORBELL)->name, "doorbell_offset");
	assert_string_equal(marked(svm, KFD_ATTR_COUNT)->name, "nattr");
	assert_string_equal(kfd_schema_attr(svm->bufs[0].elem, KFD_ATTR_VALUE)->name,
			    "value");
	assert_null(kfd_schema_attr(NULL, KFD_ATTR_OBJ));
	assert_null(kfd_schema_attr(cq->args, KFD_ATTR_NONE));
	assert_string_equal(kfd_obj_name(KFD_OBJ_DMABUF), "dmabuf");
	assert_int_equal(kfd_obj_role(KFD_OBJ_GEM), KFD_ROLE_GEM_HANDLE);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rows_match_hand_list),
		cmocka_unit_test(test_object_fields),
		cmocka_unit_test(test_columns_unique),
		cmocka_unit_test(test_attrs_distinct),
		cmocka_unit_test(test_known_attrs),
	};

	return cmocka_run_group_tests_name("schema_objects", tests, NULL, NULL);
}

/* SPDX-License-Identifier: MIT */
/*
 * Structural checks over every row of the schema table: sizes, field
 * bounds and overlaps, selectors, buffer references, names, coverage.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <linux/ioctl.h>
#include <cmocka.h>

#include "kfdtrace/schema.h"
#include "kfdtrace/kfd_abi.h"
#include "kfdtrace/drm_abi.h"

#define IOC_SIZE(r)	(((r) >> _IOC_SIZESHIFT) & _IOC_SIZEMASK)
#define IOC_NR(r)	(((r) >> _IOC_NRSHIFT) & _IOC_NRMASK)
#define IOC_TYPE(r)	(((r) >> _IOC_TYPESHIFT) & _IOC_TYPEMASK)
#define IOC_DIR(r)	(((r) >> _IOC_DIRSHIFT) & _IOC_DIRMASK)

static const struct kfd_ioctl_desc *
rows(unsigned int *n)
{
	const struct kfd_ioctl_desc *r = kfd_schema_rows(n);

	assert_non_null(r);
	assert_true(*n > 0);
	return r;
}

/* The row's struct size equals its request size, or its largest variant. */
static void
test_row_sizes_match_structs(void **state)
{
	unsigned int n, i, v;
	const struct kfd_ioctl_desc *r = rows(&n);

	(void)state;
	for (i = 0; i < n; i++) {
		uint32_t max = IOC_SIZE(r[i].request);

		assert_non_null(r[i].args);
		for (v = 0; v < r[i].nvariants; v++) {
			const struct kfd_size_variant *sv = &r[i].variants[v];

			/* Each variant is the same ioctl with its own size bits. */
			assert_int_equal(IOC_SIZE(sv->request), sv->size);
			assert_int_equal(IOC_NR(sv->request), r[i].nr);
			assert_int_equal(IOC_TYPE(sv->request), r[i].type);
			assert_true(sv->since_minor <= sv->until_minor);
			/*
			 * Sizes from ABIs newer than the schema resolve to the
			 * row, which decodes their known prefix.
			 */
			if (r[i].file_kind == KFD_FILE_KFD && !r[i].rocm_only &&
			    sv->since_minor > KFD_SCHEMA_MINOR) {
				assert_true(sv->size > r[i].args->size);
				continue;
			}
			if (sv->size > max)
				max = sv->size;
		}
		if (max != r[i].args->size) {
			fprintf(stderr, "row %s: struct %u bytes, request %u\n",
				r[i].name, r[i].args->size, max);
			fail();
		}
		/* The current request is itself one of the variants. */
		if (r[i].nvariants) {
			int found = 0;

			for (v = 0; v < r[i].nvariants; v++)
				found |= r[i].variants[v].request == r[i].request;
			assert_true(found);
		}
		assert_int_equal(IOC_NR(r[i].request), r[i].nr);
		assert_int_equal(IOC_TYPE(r[i].request), r[i].type);
	}
}

/* The row's dir mirrors the request's _IOC direction bits. */
static void
test_row_dir_matches_request(void **state)
{
	unsigned int n, i;
	const struct kfd_ioctl_desc *r = rows(&n);

	(void)state;
	for (i = 0; i < n; i++) {
		unsigned int d = IOC_DIR(r[i].request);
		unsigned int want = ((d & _IOC_WRITE) ? KFD_DIR_IN : 0) |
				    ((d & _IOC_READ) ? KFD_DIR_OUT : 0);

		assert_int_equal(r[i].dir, want);
	}
}

static int
overlap_allowed(const struct kfd_field *a, const struct kfd_field *b)
{
	/* Arms of one union chosen by one selector. */
	if (a->select >= 0 && a->select == b->select &&
	    a->select_value != b->select_value)
		return 1;
	/* The input and output halves of an in/out union. */
	if ((a->dir == KFD_DIR_IN && b->dir == KFD_DIR_OUT) ||
	    (a->dir == KFD_DIR_OUT && b->dir == KFD_DIR_IN))
		return 1;
	return 0;
}

static void
check_struct(const struct kfd_struct_desc *sd)
{
	unsigned char covered[4096];
	unsigned int i, j, b;

	assert_non_null(sd);
	assert_non_null(sd->name);
	assert_true(sd->nfields > 0);
	assert_true(sd->size <= sizeof(covered));
	memset(covered, 0, sizeof(covered));
	for (i = 0; i < sd->nfields; i++) {
		const struct kfd_field *f = &sd->fields[i];

		assert_non_null(f->name);
		assert_true(f->width > 0);
		if (f->offset + f->width > sd->size) {
			fprintf(stderr, "%s.%s outside the struct\n", sd->name, f->name);
			fail();
		}
		if (f->role != KFD_ROLE_STRING && f->role != KFD_ROLE_BYTES)
			assert_true(f->width == 1 || f->width == 2 ||
				    f->width == 4 || f->width == 8);
		assert_true(f->role < KFD_ROLE_COUNT_MAX);
		assert_true(f->dir <= KFD_DIR_INOUT);
		if (f->role == KFD_ROLE_FLAGS || f->role == KFD_ROLE_ENUM)
			assert_non_null(f->names);
		if (f->select >= 0) {
			const struct kfd_field *s;

			assert_true((unsigned int)f->select < sd->nfields);
			assert_true((unsigned int)f->select != i);
			s = &sd->fields[f->select];
			/* Selectors are plain enum fields, not arms themselves. */
			assert_int_equal(s->select, -1);
			assert_int_equal(s->role, KFD_ROLE_ENUM);
		} else {
			assert_int_equal(f->select, -1);
		}
		for (j = 0; j < i; j++) {
			const struct kfd_field *g = &sd->fields[j];

			assert_string_not_equal(f->name, g->name);
			if (f->offset < g->offset + g->width &&
			    g->offset < f->offset + f->width &&
			    !overlap_allowed(f, g)) {
				fprintf(stderr, "%s: %s overlaps %s\n", sd->name,
					f->name, g->name);
				fail();
			}
		}
		for (b = f->offset; b < (unsigned int)f->offset + f->width; b++)
			covered[b] = 1;
	}
	/* Every byte is described: a missed member shows up as a hole. */
	for (b = 0; b < sd->size; b++) {
		if (!covered[b]) {
			fprintf(stderr, "%s: byte %u not covered\n", sd->name, b);
			fail();
		}
	}
}

static void
test_fields_inside_and_disjoint(void **state)
{
	unsigned int n, i, k;
	const struct kfd_ioctl_desc *r = rows(&n);

	(void)state;
	for (i = 0; i < n; i++) {
		check_struct(r[i].args);
		for (k = 0; k < r[i].nbufs; k++) {
			if (r[i].bufs[k].elem) {
				check_struct(r[i].bufs[k].elem);
				assert_int_equal(r[i].bufs[k].elem->size,
						 r[i].bufs[k].elem_size);
			}
		}
	}
}

/* Buffers point at the right kinds of fields. */
static void
test_buffers_reference_fields(void **state)
{
	unsigned int n, i, k;
	const struct kfd_ioctl_desc *r = rows(&n);

	(void)state;
	for (i = 0; i < n; i++) {
		const struct kfd_struct_desc *sd = r[i].args;

		for (k = 0; k < r[i].nbufs; k++) {
			const struct kfd_indirect *b = &r[i].bufs[k];

			assert_non_null(b->name);
			assert_true(b->elem_size > 0);
			assert_true(b->dir >= KFD_DIR_IN && b->dir <= KFD_DIR_INOUT);
			if (b->len_kind == KFD_LEN_TRAILING) {
				assert_int_equal(b->ptr_field, -1);
			} else {
				const struct kfd_field *p;

				assert_true(b->ptr_field >= 0 &&
					    (unsigned int)b->ptr_field < sd->nfields);
				p = &sd->fields[b->ptr_field];
				assert_int_equal(p->role, KFD_ROLE_PTR);
				/* A buffer of one union arm uses that arm's fields. */
				if (p->select >= 0) {
					assert_int_equal(p->select, b->select);
					assert_true(p->select_value == b->select_value);
				}
			}
			if (b->len_kind == KFD_LEN_FIXED) {
				assert_int_equal(b->count_field, -1);
			} else {
				const struct kfd_field *c;

				assert_true(b->count_field >= 0 &&
					    (unsigned int)b->count_field < sd->nfields);
				c = &sd->fields[b->count_field];
				assert_true(c->role == KFD_ROLE_COUNT ||
					    c->role == KFD_ROLE_SIZE);
				if (b->len_kind == KFD_LEN_BYTES)
					assert_int_equal(b->elem_size, 1);
				/* A capacity is written back, so it is in/out. */
				if (b->len_kind == KFD_LEN_CAPACITY ||
				    b->len_kind == KFD_LEN_STRIDED)
					assert_int_equal(c->dir, KFD_DIR_INOUT);
				/* The stride is a size the caller passes. */
				if (b->len_kind == KFD_LEN_STRIDED) {
					assert_true(b->stride_field >= 0 &&
						    (unsigned int)b->stride_field < sd->nfields);
					assert_int_equal(sd->fields[b->stride_field].role,
							 KFD_ROLE_SIZE);
				}
			}
			if (b->select >= 0) {
				assert_true((unsigned int)b->select < sd->nfields);
				assert_int_equal(sd->fields[b->select].role, KFD_ROLE_ENUM);
			}
		}
	}
}

static void
test_names_unique(void **state)
{
	unsigned int n, i, j;
	const struct kfd_ioctl_desc *r = rows(&n);

	(void)state;
	for (i = 0; i < n; i++) {
		assert_non_null(r[i].name);
		assert_non_null(r[i].event_name);
		for (j = 0; j < i; j++) {
			assert_string_not_equal(r[i].name, r[j].name);
			assert_string_not_equal(r[i].event_name, r[j].event_name);
			/* One row per (file kind, nr), and rows of one exact
			 * size beside it. */
			assert_false(r[i].file_kind == r[j].file_kind &&
				     r[i].nr == r[j].nr &&
				     r[i].only_size == r[j].only_size);
		}
	}
}

/*
 * The dispatcher's range covers every upstream row (the header's
 * KFD_ABI_COMMAND_END is not left behind a new row), the header's ABI
 * minor is the schema's, and a row found by exact size differs in size
 * from its nr's first row, which exists.
 */
static void
test_command_end_covers_rows(void **state)
{
	unsigned int n, i, newest = 0, top = 0;
	const struct kfd_ioctl_desc *r = rows(&n);

	(void)state;
	assert_int_equal(KFD_ABI_MINOR_VERSION, KFD_SCHEMA_MINOR);
	for (i = 0; i < n; i++) {
		const struct kfd_ioctl_desc *first;

		if (r[i].file_kind != KFD_FILE_KFD)
			continue;
		if (!r[i].rocm_only) {
			if (r[i].nr >= top)
				top = r[i].nr;
			if (r[i].since_minor > newest)
				newest = r[i].since_minor;
		}
		if (!r[i].only_size)
			continue;
		first = kfd_schema_lookup(KFD_FILE_KFD,
			_IOC(_IOC_NONE, KFD_ABI_IOCTL_BASE, r[i].nr, 0));
		assert_non_null(first);
		assert_int_equal(first->only_size, 0);
		assert_int_not_equal(IOC_SIZE(first->request), r[i].only_size);
		assert_int_equal(IOC_SIZE(r[i].request), r[i].only_size);
		assert_ptr_equal(kfd_schema_lookup(KFD_FILE_KFD, r[i].request), &r[i]);
	}
	if (top >= KFD_ABI_COMMAND_END) {
		fprintf(stderr, "row nr 0x%x is past KFD_ABI_COMMAND_END 0x%x\n",
			top, KFD_ABI_COMMAND_END);
		fail();
	}
	assert_int_equal(top + 1, KFD_ABI_COMMAND_END);
	assert_true(newest <= KFD_ABI_MINOR_VERSION);
}

static void
test_every_kfd_nr_present(void **state)
{
	unsigned int n, i, nr;
	int seen[256] = { 0 };
	const struct kfd_ioctl_desc *r = rows(&n);

	(void)state;
	for (i = 0; i < n; i++) {
		if (r[i].file_kind == KFD_FILE_KFD) {
			assert_int_equal(r[i].type, 'K');
			/* Rows found by exact size only sit beside the nr's row. */
			if (!r[i].only_size)
				seen[r[i].nr]++;
			/* ROCm-only exactly for the second range. */
			assert_int_equal(r[i].rocm_only, r[i].nr >= 0x80);
			assert_true(r[i].since_minor <= KFD_SCHEMA_MINOR);
		} else {
			assert_int_equal(r[i].file_kind, KFD_FILE_RENDER);
			assert_int_equal(r[i].type, 'd');
			assert_false(r[i].rocm_only);
		}
	}
	for (nr = 0x01; nr <= 0x28; nr++)
		assert_int_equal(seen[nr], 1);
	for (nr = 0x80; nr <= 0x87; nr++)
		assert_int_equal(seen[nr], 1);
	assert_int_equal(seen[0x00], 0);
	assert_int_equal(seen[0x29], 0);
	assert_int_equal(seen[0x88], 0);
}

/* KFD rows come first, then the render-node rows. */
static void
test_rows_ordered_by_kind(void **state)
{
	unsigned int n, i, nkfd = 0, nrender = 0;
	const struct kfd_ioctl_desc *r = rows(&n);

	(void)state;
	for (i = 0; i < n; i++) {
		if (r[i].file_kind == KFD_FILE_KFD) {
			assert_int_equal(nrender, 0);
			nkfd++;
		} else {
			nrender++;
		}
	}
	/* 0x01..0x28, the DKMS 0x80..0x87, and PROFILER_DLOG. */
	assert_int_equal(nkfd, 0x28 + 8 + 1);
	assert_int_equal(nrender, 18);
}

/* Deprecated rows are exactly the pre-1.13 debugger. */
static void
test_deprecated_rows(void **state)
{
	unsigned int n, i;
	const struct kfd_ioctl_desc *r = rows(&n);

	(void)state;
	for (i = 0; i < n; i++) {
		int want = r[i].file_kind == KFD_FILE_KFD &&
			   r[i].nr >= 0x0D && r[i].nr <= 0x10;

		assert_int_equal(r[i].deprecated, want);
	}
}

/*
 * The rows the replayer never reissues (no_replay) are exactly the four
 * KFD ones whose kernel side reaches past the replayed objects
 * (PROFILER_DLOG's ops open streams whose own ioctls no trace holds), and
 * the render node's command submission (its IBs run on memory no trace
 * holds) with the wait for it.
 */
static void
test_no_replay_rows(void **state)
{
	unsigned int n, i, nset = 0;
	const struct kfd_ioctl_desc *r = rows(&n);

	(void)state;
	for (i = 0; i < n; i++) {
		int want = r[i].file_kind == KFD_FILE_KFD &&
			   (!strcmp(r[i].name, "CROSS_MEMORY_COPY") ||
			    !strcmp(r[i].name, "CRIU_OP") ||
			    !strcmp(r[i].name, "AIS_OP") ||
			    !strcmp(r[i].name, "PROFILER_DLOG"));

		if (r[i].file_kind == KFD_FILE_RENDER)
			want = !strcmp(r[i].name, "AMDGPU_CS") ||
			       !strcmp(r[i].name, "AMDGPU_WAIT_CS");
		assert_int_equal(r[i].no_replay, want);
		nset += want;
	}
	assert_int_equal(nset, 6);
}

/*
 * The free-memory roles replay's race allowance reads (model_varies.c):
 * AVAILABLE_MEMORY reads the device's free memory; the calls that create
 * or release a BO's backing (ALLOC, FREE, dma-buf and IPC imports) change
 * it. Mapping, exporting and the rest leave it alone.
 */
static void
test_free_mem_rows(void **state)
{
	unsigned int n, i, nreads = 0, nchanges = 0;
	const struct kfd_ioctl_desc *r = rows(&n);

	(void)state;
	for (i = 0; i < n; i++) {
		int kfd = r[i].file_kind == KFD_FILE_KFD;
		int reads = kfd && !strcmp(r[i].name, "AVAILABLE_MEMORY");
		int changes = kfd && (!strcmp(r[i].name, "ALLOC_MEMORY_OF_GPU") ||
				      !strcmp(r[i].name, "FREE_MEMORY_OF_GPU") ||
				      !strcmp(r[i].name, "IMPORT_DMABUF") ||
				      !strcmp(r[i].name, "IPC_IMPORT_HANDLE"));

		assert_int_equal(r[i].free_mem,
				 reads ? KFD_FREE_MEM_READS :
				 changes ? KFD_FREE_MEM_CHANGES : KFD_FREE_MEM_NONE);
		nreads += reads;
		nchanges += changes;
	}
	assert_int_equal(nreads, 1);
	assert_int_equal(nchanges, 4);
}

static void
check_table(const struct kfd_name_table *t)
{
	unsigned int i, j;
	int is_flags = !strcmp(t->name, "alloc_flags");

	assert_non_null(t->name);
	assert_true(t->count > 0);
	for (i = 0; i < t->count; i++) {
		assert_non_null(t->entries[i].name);
		if (is_flags)
			assert_int_equal(__builtin_popcountll(t->entries[i].value), 1);
		for (j = 0; j < i; j++) {
			assert_false(t->entries[i].value == t->entries[j].value);
			assert_string_not_equal(t->entries[i].name, t->entries[j].name);
		}
	}
}

/* Every FLAGS field's table holds single bits; enum values are unique. */
static void
test_name_tables(void **state)
{
	unsigned int n, i, k, b;
	const struct kfd_ioctl_desc *r = rows(&n);

	(void)state;
	for (i = 0; i < n; i++) {
		for (k = 0; k < r[i].args->nfields; k++) {
			const struct kfd_field *f = &r[i].args->fields[k];

			if (!f->names)
				continue;
			check_table(f->names);
			if (f->role != KFD_ROLE_FLAGS)
				continue;
			for (b = 0; b < f->names->count; b++)
				assert_true(f->names->entries[b].value != 0);
		}
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_row_sizes_match_structs),
		cmocka_unit_test(test_row_dir_matches_request),
		cmocka_unit_test(test_fields_inside_and_disjoint),
		cmocka_unit_test(test_buffers_reference_fields),
		cmocka_unit_test(test_names_unique),
		cmocka_unit_test(test_every_kfd_nr_present),
		cmocka_unit_test(test_command_end_covers_rows),
		cmocka_unit_test(test_rows_ordered_by_kind),
		cmocka_unit_test(test_deprecated_rows),
		cmocka_unit_test(test_no_replay_rows),
		cmocka_unit_test(test_free_mem_rows),
		cmocka_unit_test(test_name_tables),
	};

	return cmocka_run_group_tests_name("schema_rows", tests, NULL, NULL);
}

/* SPDX-License-Identifier: MIT */
/*
 * Field class helpers: integers, enumerations from the schema's name
 * tables, structure members with names CTF 1.8 accepts; string fields
 * set from trace bytes.
 */
#include <stdlib.h>
#include <string.h>

#include <kfdtrace/common/field_name.h>

#include "kbt.h"

/* Set what every integer class (enumerations too) has: width, base. */
static bt_field_class *
int_class(bt_field_class *fc, unsigned int bits, int hex)
{
	if (!fc)
		return NULL;
	bt_field_class_integer_set_field_value_range(fc, bits);
	if (hex)
		bt_field_class_integer_set_preferred_display_base(fc,
			BT_FIELD_CLASS_INTEGER_PREFERRED_DISPLAY_BASE_HEXADECIMAL);
	return fc;
}

bt_field_class *
kbt_fc_uint(bt_trace_class *tc, unsigned int bits, int hex)
{
	return int_class(bt_field_class_integer_unsigned_create(tc), bits, hex);
}

bt_field_class *
kbt_fc_sint(bt_trace_class *tc, unsigned int bits, int hex)
{
	return int_class(bt_field_class_integer_signed_create(tc), bits, hex);
}

/* A value of a @bits-wide field, in an order where signed ones sort too. */
static uint64_t
ord_of(uint64_t v, int is_signed)
{
	return is_signed ? v ^ (1ULL << 63) : v;
}

struct span {
	uint64_t lo, hi;	/* ord_of() values, inclusive */
};

static int
cmp_span(const void *a, const void *b)
{
	const struct span *x = a, *y = b;

	return x->lo < y->lo ? -1 : x->lo > y->lo;
}

/* The spans of every mapping of enumeration @fc (malloc()), or NULL. */
static struct span *
mapped_spans(const bt_field_class *fc, int is_signed, uint64_t *count)
{
	uint64_t nm = bt_field_class_enumeration_get_mapping_count(fc);
	uint64_t i, j, n = 0, cap = 16;
	struct span *v = malloc(cap * sizeof(*v));

	for (i = 0; v && i < nm; i++) {
		const bt_integer_range_set *rs;
		uint64_t nr;

		if (is_signed)
			rs = bt_integer_range_set_signed_as_range_set_const(
				bt_field_class_enumeration_signed_mapping_borrow_ranges_const(
				bt_field_class_enumeration_signed_borrow_mapping_by_index_const(fc, i)));
		else
			rs = bt_integer_range_set_unsigned_as_range_set_const(
				bt_field_class_enumeration_unsigned_mapping_borrow_ranges_const(
				bt_field_class_enumeration_unsigned_borrow_mapping_by_index_const(fc, i)));
		nr = bt_integer_range_set_get_range_count(rs);
		for (j = 0; j < nr; j++) {
			if (n == cap) {
				struct span *g = realloc(v, 2 * cap * sizeof(*v));

				if (!g) {
					free(v);
					return NULL;
				}
				v = g;
				cap *= 2;
			}
			if (is_signed) {
				const bt_integer_range_signed *r =
					bt_integer_range_set_signed_borrow_range_by_index_const(
					(const bt_integer_range_set_signed *)rs, j);

				v[n].lo = ord_of((uint64_t)bt_integer_range_signed_get_lower(r), 1);
				v[n++].hi = ord_of((uint64_t)bt_integer_range_signed_get_upper(r), 1);
			} else {
				const bt_integer_range_unsigned *r =
					bt_integer_range_set_unsigned_borrow_range_by_index_const(
					(const bt_integer_range_set_unsigned *)rs, j);

				v[n].lo = bt_integer_range_unsigned_get_lower(r);
				v[n++].hi = bt_integer_range_unsigned_get_upper(r);
			}
		}
	}
	*count = n;
	return v;
}

/*
 * Give enumeration @fc (@bits wide) the mapping KBT_ENUM_UNNAMED for every
 * value its other mappings leave out, so every value has a label: python3-bt2
 * 2.0's `labels` fails an assertion on a value that matches none, and
 * babeltrace2 prints such a value as "<unknown>" anyway.
 */
/* Add the span [@lo, @hi] (ord_of() values) to range set @rs. */
static void
rest_add(void *rs, int is_signed, uint64_t lo, uint64_t hi)
{
	if (is_signed)
		bt_integer_range_set_signed_add_range(rs,
			(int64_t)ord_of(lo, 1), (int64_t)ord_of(hi, 1));
	else
		bt_integer_range_set_unsigned_add_range(rs, lo, hi);
}

static int
enum_add_unnamed(bt_field_class *fc, unsigned int bits, int is_signed)
{
	uint64_t min = is_signed ? ord_of(-(1ULL << (bits - 1)), 1) : 0;
	uint64_t max = bits >= 64 ? UINT64_MAX :
		       is_signed ? ord_of((1ULL << (bits - 1)) - 1, 1) :
		       (1ULL << bits) - 1;
	uint64_t n = 0, i, next = min;
	struct span *v = mapped_spans(fc, is_signed, &n);
	void *rs = is_signed ? (void *)bt_integer_range_set_signed_create() :
			       (void *)bt_integer_range_set_unsigned_create();
	int covered = 0, any = 0, rc = -1;

	if (!v || !rs)
		goto out;
	qsort(v, n, sizeof(*v), cmp_span);
	/* The gaps between the sorted spans, and after the last. */
	for (i = 0; i < n && !covered; i++) {
		if (v[i].lo > next) {
			rest_add(rs, is_signed, next, v[i].lo - 1);
			any = 1;
		}
		if (v[i].hi >= max)
			covered = 1;
		else if (v[i].hi + 1 > next)
			next = v[i].hi + 1;
	}
	if (!covered) {
		rest_add(rs, is_signed, next, max);
		any = 1;
	}
	if (!any)
		rc = 0;
	else if (is_signed)
		rc = bt_field_class_enumeration_signed_add_mapping(fc,
			KBT_ENUM_UNNAMED, rs) ? -1 : 0;
	else
		rc = bt_field_class_enumeration_unsigned_add_mapping(fc,
			KBT_ENUM_UNNAMED, rs) ? -1 : 0;
out:
	free(v);
	if (rs && is_signed)
		bt_integer_range_set_signed_put_ref(rs);
	else if (rs)
		bt_integer_range_set_unsigned_put_ref(rs);
	return rc;
}

bt_field_class *
kbt_fc_enum_complete(bt_field_class *fc, unsigned int bits, int is_signed)
{
	if (fc && enum_add_unnamed(fc, bits, is_signed)) {
		bt_field_class_put_ref(fc);
		return NULL;
	}
	return fc;
}

/*
 * An enumeration over a name table. Each name maps to exactly its value,
 * and every other value to KBT_ENUM_UNNAMED. Labels must be unique in an
 * enumeration, so a name listed twice collects both values.
 */
bt_field_class *
kbt_fc_enum_table(bt_trace_class *tc, const struct kfd_name_table *t,
		  unsigned int bits, int is_signed, int hex)
{
	bt_field_class *fc;
	unsigned int i, j;

	fc = int_class(is_signed ? bt_field_class_enumeration_signed_create(tc) :
		       bt_field_class_enumeration_unsigned_create(tc),
		       bits, hex);
	if (!fc)
		return NULL;
	for (i = 0; i < t->count; i++) {
		const char *label = t->entries[i].name;
		int dup = 0, rc;

		if (!label)
			continue;
		for (j = 0; j < i; j++)
			if (t->entries[j].name &&
			    strcmp(t->entries[j].name, label) == 0)
				dup = 1;
		if (dup)
			continue;
		if (is_signed) {
			bt_integer_range_set_signed *rs =
				bt_integer_range_set_signed_create();

			if (!rs)
				goto fail;
			for (j = i; j < t->count; j++)
				if (t->entries[j].name &&
				    strcmp(t->entries[j].name, label) == 0)
					bt_integer_range_set_signed_add_range(rs,
						(int64_t)t->entries[j].value,
						(int64_t)t->entries[j].value);
			rc = bt_field_class_enumeration_signed_add_mapping(fc,
								label, rs);
			bt_integer_range_set_signed_put_ref(rs);
		} else {
			bt_integer_range_set_unsigned *rs =
				bt_integer_range_set_unsigned_create();

			if (!rs)
				goto fail;
			for (j = i; j < t->count; j++)
				if (t->entries[j].name &&
				    strcmp(t->entries[j].name, label) == 0)
					bt_integer_range_set_unsigned_add_range(rs,
						t->entries[j].value,
						t->entries[j].value);
			rc = bt_field_class_enumeration_unsigned_add_mapping(fc,
								label, rs);
			bt_integer_range_set_unsigned_put_ref(rs);
		}
		if (rc)
			goto fail;
	}
	return kbt_fc_enum_complete(fc, bits, is_signed);
fail:
	bt_field_class_put_ref(fc);
	return NULL;
}

/*
 * An unsigned enumeration over @n labels, label i for values[i], every
 * other value KBT_ENUM_UNNAMED.
 */
bt_field_class *
kbt_fc_enum_labels(bt_trace_class *tc, unsigned int bits,
		   const char *const *labels, const uint64_t *values,
		   unsigned int n)
{
	bt_field_class *fc = int_class(
		bt_field_class_enumeration_unsigned_create(tc), bits, 0);
	unsigned int i;

	if (!fc)
		return NULL;
	for (i = 0; i < n; i++) {
		bt_integer_range_set_unsigned *rs =
			bt_integer_range_set_unsigned_create();
		int rc;

		if (!rs)
			goto fail;
		bt_integer_range_set_unsigned_add_range(rs, values[i],
							values[i]);
		rc = bt_field_class_enumeration_unsigned_add_mapping(fc,
							labels[i], rs);
		bt_integer_range_set_unsigned_put_ref(rs);
		if (rc)
			goto fail;
	}
	return kbt_fc_enum_complete(fc, bits, 0);
fail:
	bt_field_class_put_ref(fc);
	return NULL;
}

/* The field class of one numeric schema field, by role: its base too. */
bt_field_class *
kbt_fc_for_field(bt_trace_class *tc, const struct kfd_field *f)
{
	unsigned int bits = f->width * 8u;
	/* The decoder's rule, so babeltrace2 and `kfdtrace dump` agree. */
	int hex = kfd_role_is_hex(f->role);

	/*
	 * Flags are integers: an enumeration names a value only when one
	 * label matches it whole, which a combination of flags never does
	 * (kbt_flag_names_add() gives their names as a string).
	 */
	if (f->role == KFD_ROLE_ENUM && f->names && f->names->count)
		return kbt_fc_enum_table(tc, f->names, bits, f->is_signed, hex);
	return f->is_signed ? kbt_fc_sint(tc, bits, hex) :
			      kbt_fc_uint(tc, bits, hex);
}

/* A gpu_id outside the schema (derived, topology): based as the schema's. */
bt_field_class *
kbt_fc_gpu_id(bt_trace_class *tc)
{
	return kbt_fc_uint(tc, 32, kfd_role_is_hex(KFD_ROLE_GPU_ID));
}

/* Append @m (its reference is taken over) as member @name. */
int
kbt_struct_add(bt_field_class *st, const char *name, bt_field_class *m)
{
	int rc;

	if (!m)
		return -1;
	rc = bt_field_class_structure_append_member(st, name, m);
	bt_field_class_put_ref(m);
	return rc ? -1 : 0;
}

/* What add_unique() asks kc_field_name_unique() of a candidate. */
struct unique_ctx {
	bt_field_class *st;
	int reserve;
};

static int
member_taken(void *ctx, const char *name)
{
	const struct unique_ctx *u = ctx;

	return bt_field_class_structure_borrow_member_by_name(u->st, name) ||
	       (u->reserve && kc_field_name_reserved(name));
}

/*
 * @name, or its first free candidate (kc_field_name_unique()): one not a
 * member of @st and, when @reserve, not a name of the call's own members
 * (kc_field_name_reserved()).
 */
static int
add_unique(bt_field_class *st, const char *name, bt_field_class *m,
	   int reserve)
{
	struct unique_ctx u = { st, reserve };
	char buf[KC_FIELD_NAME_MAX];

	if (kc_field_name_unique(name, member_taken, &u, buf, sizeof(buf)) < 0) {
		bt_field_class_put_ref(m);
		return -1;
	}
	return kbt_struct_add(st, buf, m);
}

int
kbt_struct_add_unique(bt_field_class *st, const char *name,
		      bt_field_class *m)
{
	return add_unique(st, name, m, 0);
}

int
kbt_struct_add_field(bt_field_class *st, const char *name, bt_field_class *m)
{
	return add_unique(st, name, m, 1);
}

int
kbt_string_set(bt_field *f, const char *s, size_t n)
{
	struct kt_strbuf sb;
	int rc;

	kt_strbuf_init(&sb);
	kfd_text_clean(&sb, s ? s : "", s ? strnlen(s, n) : 0);
	rc = sb.failed ? -1 :
	     bt_field_string_set_value(f, sb.data ? sb.data : "") ? -1 : 0;
	kt_strbuf_release(&sb);
	return rc;
}

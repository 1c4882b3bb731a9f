/* SPDX-License-Identifier: MIT */
/*
 * A union of an ioctl's argument struct as a babeltrace2 variant (part of
 * the event class ioctl_class.c builds): the fields and buffers chosen by
 * one selector field (DBG_TRAP's op, AMDGPU_INFO's query) become one
 * structure per arm, on a tag member holding the selector's value, with
 * an empty "none" arm for every other value.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "ioctl_class.h"

/* A selector usable for a variant: a numeric, non-union, non-pad field. */
int
kbt_ic_valid_selector(const struct build *b, int s)
{
	const struct kfd_field *f;

	if (s < 0 || (unsigned int)s >= b->nfields)
		return 0;
	f = &b->fields[s];
	return f->select < 0 && f->role != KFD_ROLE_PAD && kbt_ic_is_numeric(f);
}

static int
has_value(const uint64_t *v, unsigned int n, uint64_t x)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		if (v[i] == x)
			return 1;
	return 0;
}

static int
cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static int
cmp_s64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return x < y ? -1 : x > y;
}

/* The name of the arm for selector value @v. */
static void
arm_name(const struct build *b, int s, uint64_t v, char *out, size_t size)
{
	const struct kfd_field *sel = &b->fields[s];
	const char *label;
	unsigned int i;
	char *c;

	for (i = 0; i < b->nfields; i++) {
		const struct kfd_field *f = &b->fields[i];
		const char *dot = strchr(f->name, '.');
		char pre[NAME_MAX_LEN];

		if (f->select != s || f->select_value != v || !dot)
			continue;
		snprintf(pre, sizeof(pre), "%.*s", (int)(dot - f->name), f->name);
		kc_field_name(pre, out, size);
		return;
	}
	label = sel->names ? kfd_name_lookup(sel->names, v) : NULL;
	if (label) {
		kc_field_name(label, out, size);
		for (c = out; *c; c++)
			*c = (char)tolower((unsigned char)*c);
		return;
	}
	snprintf(out, size, "v%llu", (unsigned long long)v);
}

/*
 * The selector values of one option: @vals[0] for an arm, or, for "none",
 * every value of the selector's width that no arm takes (@vals sorted).
 * Returned as the range set type matching @is_signed.
 */
static void *
option_ranges(int is_signed, const uint64_t *vals, unsigned int n, int none,
	      unsigned int bits)
{
	unsigned int i;

	if (!is_signed) {
		bt_integer_range_set_unsigned *rs =
			bt_integer_range_set_unsigned_create();
		uint64_t max = bits >= 64 ? UINT64_MAX : (1ULL << bits) - 1;
		uint64_t lo = 0;
		int done = 0;

		if (!rs)
			return NULL;
		if (!none) {
			bt_integer_range_set_unsigned_add_range(rs, vals[0],
								vals[0]);
			return rs;
		}
		for (i = 0; i < n && !done; i++) {
			if (vals[i] > lo)
				bt_integer_range_set_unsigned_add_range(rs, lo,
								vals[i] - 1);
			if (vals[i] >= max)
				done = 1;
			else
				lo = vals[i] + 1;
		}
		if (!done)
			bt_integer_range_set_unsigned_add_range(rs, lo, max);
		return rs;
	} else {
		bt_integer_range_set_signed *rs =
			bt_integer_range_set_signed_create();
		int64_t min = bits >= 64 ? INT64_MIN : -(1LL << (bits - 1));
		int64_t max = bits >= 64 ? INT64_MAX : (1LL << (bits - 1)) - 1;
		const int64_t *sv = (const int64_t *)vals;
		int64_t lo = min;
		int done = 0;

		if (!rs)
			return NULL;
		if (!none) {
			bt_integer_range_set_signed_add_range(rs, sv[0], sv[0]);
			return rs;
		}
		for (i = 0; i < n && !done; i++) {
			if (sv[i] > lo)
				bt_integer_range_set_signed_add_range(rs, lo,
								      sv[i] - 1);
			if (sv[i] >= max)
				done = 1;
			else
				lo = sv[i] + 1;
		}
		if (!done)
			bt_integer_range_set_signed_add_range(rs, lo, max);
		return rs;
	}
}

static void
ranges_put(int is_signed, void *rs)
{
	if (is_signed)
		bt_integer_range_set_signed_put_ref(rs);
	else
		bt_integer_range_set_unsigned_put_ref(rs);
}

/*
 * Label @name and option @name of the tag and the variant get the same
 * range set: sink.ctf.fs (CTF 1.8) needs a variant's tag to be an
 * enumeration with exactly one mapping per option, of the same ranges and
 * name. The schema's own name table for the selector has other labels and
 * values, so the tag is a member of its own.
 */
static int
add_option(bt_field_class *tag, bt_field_class *var, const char *name,
	   bt_field_class *st, int is_signed, void *rs)
{
	if (!rs)
		return -1;
	if (is_signed)
		return bt_field_class_enumeration_signed_add_mapping(tag, name, rs) ||
		       bt_field_class_variant_with_selector_field_integer_signed_append_option(
			       var, name, st, rs) ? -1 : 0;
	return bt_field_class_enumeration_unsigned_add_mapping(tag, name, rs) ||
	       bt_field_class_variant_with_selector_field_integer_unsigned_append_option(
		       var, name, st, rs) ? -1 : 0;
}

/*
 * The union arms chosen by field @s: a tag member "<args>_arm" (the
 * selector's value, labelled with the arm's name) and a variant "args" on
 * it with one structure per arm and an empty "none".
 */
int
kbt_ic_add_variant(struct build *b, struct kbt_plan *p, bt_field_class *st,
		   int s)
{
	const struct kfd_field *sel = &b->fields[s];
	unsigned int i, j, n = 0, max = b->nfields + b->d->nbufs;
	unsigned int bits = sel->width * 8u;
	uint64_t *vals = calloc(max ? max : 1, sizeof(*vals));
	uint64_t *sorted = calloc(max ? max : 1, sizeof(*sorted));
	char (*names)[NAME_MAX_LEN] = calloc(max ? max : 1, sizeof(*names));
	bt_field_class **arms = calloc(max ? max : 1, sizeof(*arms));
	bt_field_class *var = NULL, *tag = NULL, *none = NULL;
	char vname[NAME_MAX_LEN], tname[NAME_MAX_LEN + 8];
	struct kbt_arm *op_arms = NULL;
	struct kbt_op *op;
	int err = 0, rc = -1;
	void *rs;

	if (!vals || !sorted || !names || !arms)
		goto out;
	for (i = 0; i < b->nfields; i++)
		if (b->in_arm[i] && b->fields[i].select == s &&
		    !has_value(vals, n, b->fields[i].select_value))
			vals[n++] = b->fields[i].select_value;
	for (i = 0; i < b->d->nbufs; i++)
		if (b->d->bufs[i].select == s &&
		    !has_value(vals, n, b->d->bufs[i].select_value))
			vals[n++] = b->d->bufs[i].select_value;
	op_arms = calloc(n ? n : 1, sizeof(*op_arms));
	if (!op_arms)
		goto out;

	/* The arms' structures and plans. */
	for (i = 0; i < n; i++) {
		arms[i] = bt_field_class_structure_create(b->tc);
		op_arms[i].value = vals[i];
		op_arms[i].plan = calloc(1, sizeof(*op_arms[i].plan));
		if (!arms[i] || !op_arms[i].plan)
			goto out;
		for (j = 0; j < b->nfields && !err; j++)
			if (b->in_arm[j] && b->fields[j].select == s &&
			    b->fields[j].select_value == vals[i])
				kbt_ic_add_field(b, op_arms[i].plan, arms[i],
						 &b->fields[j],
						 kbt_ic_leaf(b->fields[j].name),
						 &err);
		for (j = 0; j < b->d->nbufs && !err; j++)
			if (b->d->bufs[j].select == s &&
			    b->d->bufs[j].select_value == vals[i] &&
			    kbt_ic_add_buf(b, op_arms[i].plan, arms[i], (int)j))
				err = 1;
		if (err)
			goto out;
		arm_name(b, s, vals[i], names[i], sizeof(names[i]));
		for (j = 0; j < i; j++)
			if (strcmp(names[i], names[j]) == 0 ||
			    strcmp(names[i], "none") == 0)
				snprintf(names[i], sizeof(names[i]), "v%llu",
					 (unsigned long long)vals[i]);
	}

	/* Member names: "args" (unique) and "<that>_arm". */
	snprintf(vname, sizeof(vname), "args");
	for (i = 2; bt_field_class_structure_borrow_member_by_name(st, vname); i++)
		snprintf(vname, sizeof(vname), "args_%u", i);
	snprintf(tname, sizeof(tname), "%s_arm", vname);

	tag = sel->is_signed ? bt_field_class_enumeration_signed_create(b->tc) :
			       bt_field_class_enumeration_unsigned_create(b->tc);
	if (!tag)
		goto out;
	bt_field_class_integer_set_field_value_range(tag, bits);
	var = bt_field_class_variant_create(b->tc, tag);
	none = bt_field_class_structure_create(b->tc);
	if (!var || !none)
		goto out;
	for (i = 0; i < n; i++) {
		rs = option_ranges(sel->is_signed, &vals[i], 1, 0, bits);
		err = add_option(tag, var, names[i], arms[i], sel->is_signed, rs);
		if (rs)
			ranges_put(sel->is_signed, rs);
		if (err)
			goto out;
	}
	memcpy(sorted, vals, n * sizeof(*vals));
	qsort(sorted, n, sizeof(*sorted), sel->is_signed ? cmp_s64 : cmp_u64);
	rs = option_ranges(sel->is_signed, sorted, n, 1, bits);
	err = add_option(tag, var, "none", none, sel->is_signed, rs);
	if (rs)
		ranges_put(sel->is_signed, rs);
	if (err)
		goto out;

	/* The tag holds the selector's value. */
	if (kbt_struct_add(st, tname, tag)) {
		tag = NULL;
		goto out;
	}
	tag = NULL;
	op = kbt_plan_add(p);
	if (!op)
		goto out;
	op->kind = KBT_OP_INT;
	op->image = sel->dir == KFD_DIR_OUT ? KBT_AFTER : KBT_BEFORE;
	op->f = sel;
	op->member = kbt_ic_last_member(st);

	if (kbt_struct_add(st, vname, var)) {
		var = NULL;
		goto out;
	}
	var = NULL;
	op = kbt_plan_add(p);
	if (!op)
		goto out;
	op->kind = KBT_OP_VARIANT;
	op->image = sel->dir == KFD_DIR_OUT ? KBT_AFTER : KBT_BEFORE;
	op->f = sel;
	op->member = kbt_ic_last_member(st);
	op->arms = op_arms;
	op->narms = n;
	op->none_index = n;
	op_arms = NULL;
	rc = 0;
out:
	for (i = 0; arms && i < n; i++)
		bt_field_class_put_ref(arms[i]);
	if (op_arms) {
		for (i = 0; i < n; i++) {
			if (op_arms[i].plan) {
				kbt_ic_plan_release(op_arms[i].plan);
				free(op_arms[i].plan);
			}
		}
		free(op_arms);
	}
	bt_field_class_put_ref(none);
	bt_field_class_put_ref(var);
	bt_field_class_put_ref(tag);
	free(vals);
	free(sorted);
	free(names);
	free(arms);
	return rc;
}

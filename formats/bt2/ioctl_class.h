/* SPDX-License-Identifier: MIT */
/*
 * Building one schema row's event class (private to formats/bt2):
 * ioctl_class.c (fields, buffers, derived members, the class) and
 * ioctl_variant.c (a union's arms as a variant on its selector) share the
 * builder state and these helpers.
 */
#ifndef KBT_IOCTL_CLASS_H
#define KBT_IOCTL_CLASS_H

#include "kbt.h"

#define NAME_MAX_LEN 128

/* The row being built. */
struct build {
	bt_trace_class *tc;
	const struct kfd_ioctl_desc *d;
	const struct kfd_field *fields;
	unsigned int nfields;
	/* Per field: the field class a variant may use as its selector. */
	bt_field_class **sel_fc;
	/* Per field: it is an arm member of a valid union. */
	uint8_t *in_arm;
	/* The event's payload: its fields avoid the call's member names. */
	bt_field_class *payload;
};

/* kbt_ic_plan_release() - free @p's operations and their sub-plans. */
void kbt_ic_plan_release(struct kbt_plan *p);
/* kbt_ic_last_member() - the index of @st's last member. */
uint64_t kbt_ic_last_member(bt_field_class *st);
/* kbt_ic_is_numeric() - whether @f is an integer of 1, 2, 4 or 8 bytes. */
int kbt_ic_is_numeric(const struct kfd_field *f);
/* kbt_ic_leaf() - the name after a union prefix ("enable.x" -> "x"). */
const char *kbt_ic_leaf(const char *name);
/*
 * kbt_ic_add_field() - field @f's member(s) in @st by direction, named
 * from @raw_name, with their operations in @p (*@err set on failure).
 * Return: the class of the member holding the value passed in (a union's
 * selector), or NULL.
 */
bt_field_class *kbt_ic_add_field(struct build *b, struct kbt_plan *p,
				 bt_field_class *st, const struct kfd_field *f,
				 const char *raw_name, int *err);
/*
 * kbt_ic_add_buf() - indirect buffer @bi's length and array members in
 * @st. Return: 0, or -1.
 */
int kbt_ic_add_buf(struct build *b, struct kbt_plan *p, bt_field_class *st,
		   int bi);

/*
 * ioctl_variant.c: kbt_ic_valid_selector() - whether field @s can select a
 * variant (numeric, not in a union itself, not padding);
 * kbt_ic_add_variant() - the tag "<args>_arm" and the variant "args" on
 * it for the union field @s selects. Return: 0, or -1.
 */
int kbt_ic_valid_selector(const struct build *b, int s);
int kbt_ic_add_variant(struct build *b, struct kbt_plan *p, bt_field_class *st,
		       int s);

#endif /* KBT_IOCTL_CLASS_H */

/* SPDX-License-Identifier: MIT */
/*
 * Field classes that name values with the decoder's own tables, so that
 * babeltrace2 (and the CTF export) say what `kfdtrace dump` says: errno
 * names for err fields, and a string companion "<name>_names" for each
 * flags field ("VRAM|WRITABLE|EXECUTABLE"), itself a hex integer:
 * babeltrace2 2.0 names an enumeration value only when one label matches
 * it whole, and has no bit-array flag labels (2.1 does).
 */
#include "kbt.h"
#include "kfdtrace/decode.h"

/* Past the kernel's largest errno (MAX_ERRNO is 4095; named ones < 600). */
#define KBT_ERRNO_LAST 4095

/*
 * The class of an err field: a signed 32-bit enumeration whose labels are
 * the errno names kfd_errno_name() knows (EINVAL, ENOMEM, ENOTSUPP, ...),
 * each for its own value, and "OK" for 0 (no error), so a successful call
 * is not printed as an unknown value. A value without a name is
 * KBT_ENUM_UNNAMED.
 */
bt_field_class *
kbt_fc_errno(bt_trace_class *tc)
{
	bt_field_class *fc = bt_field_class_enumeration_signed_create(tc);
	bt_integer_range_set_signed *rs;
	const char *name;
	int e, rc;

	if (!fc)
		return NULL;
	bt_field_class_integer_set_field_value_range(fc, 32);
	for (e = 0; e <= KBT_ERRNO_LAST; e++) {
		name = e ? kfd_errno_name(e) : "OK";
		if (!name)
			continue;
		/* One value per name: a name shared by two values keeps the first. */
		if (bt_field_class_enumeration_signed_borrow_mapping_by_label_const(
				fc, name))
			continue;
		rs = bt_integer_range_set_signed_create();
		if (!rs)
			goto fail;
		rc = bt_integer_range_set_signed_add_range(rs, e, e) ||
		     bt_field_class_enumeration_signed_add_mapping(fc, name, rs);
		bt_integer_range_set_signed_put_ref(rs);
		if (rc)
			goto fail;
	}
	return kbt_fc_enum_complete(fc, 32, 1);
fail:
	bt_field_class_put_ref(fc);
	return NULL;
}

static int
is_flag_set(const struct kfd_field *f)
{
	return f->role == KFD_ROLE_FLAGS && f->names && f->names->count;
}

int
kbt_flag_names_add(bt_trace_class *tc, struct kbt_plan *p,
		   bt_field_class *st, const struct kfd_field *f,
		   const char *name, uint8_t image)
{
	char buf[160];
	struct kbt_op *op;

	if (!is_flag_set(f))
		return 0;
	snprintf(buf, sizeof(buf), "%.140s_names", name);
	if (kbt_struct_add_unique(st, buf, bt_field_class_string_create(tc)))
		return -1;
	op = kbt_plan_add(p);
	if (!op)
		return -1;
	op->kind = KBT_OP_FLAG_NAMES;
	op->image = image;
	op->f = f;
	op->member = bt_field_class_structure_get_member_count(st) - 1;
	return 0;
}

int
kbt_flag_names_set(bt_field *m, const struct kfd_field *f, uint64_t v)
{
	struct kt_strbuf sb;
	int rc;

	kt_strbuf_init(&sb);
	kfd_decode_flag_names(&sb, f->names, v);
	rc = sb.failed ? -1 :
	     bt_field_string_set_value(m, sb.data ? sb.data : "") ? -1 : 0;
	kt_strbuf_release(&sb);
	return rc;
}

int
kbt_sys_flag_names_set(bt_field *payload, uint64_t member,
		       enum kfd_sys_flags which, int flags)
{
	struct kt_strbuf sb;
	int rc;

	kt_strbuf_init(&sb);
	kfd_decode_sys_flags(&sb, which, flags);
	rc = sb.failed ? -1 : bt_field_string_set_value(
		bt_field_structure_borrow_member_field_by_index(payload, member),
		sb.data ? sb.data : "") ? -1 : 0;
	kt_strbuf_release(&sb);
	return rc;
}

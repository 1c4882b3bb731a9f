/* SPDX-License-Identifier: MIT */
/*
 * Field classes that name values with the decoder's own tables, so that
 * babeltrace2 (and the CTF export) say what `kfdtrace dump` says: errno
 * names for err fields.
 */
#include "kbt.h"
#include "kfdtrace/decode.h"

/* Past the kernel's largest errno (MAX_ERRNO is 4095; named ones < 600). */
#define KBT_ERRNO_LAST 4095

/*
 * The class of an err field: a signed 32-bit enumeration whose labels are
 * the errno names kfd_errno_name() knows (EINVAL, ENOMEM, ENOTSUPP, ...),
 * each for its own value, and "OK" for 0 (no error), so a successful call
 * is not printed as an unknown value. A value without a name prints as its
 * number.
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
	return fc;
fail:
	bt_field_class_put_ref(fc);
	return NULL;
}

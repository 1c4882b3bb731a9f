/* SPDX-License-Identifier: MIT */
/*
 * The one parser of sysfs "name value" properties files
 * (kfdtrace/common/sysfs_props.h). Bounded by the buffer's length only;
 * a line is classified whole before anything about it is reported.
 */
#include <string.h>

#include "kfdtrace/common/parse.h"
#include "kfdtrace/common/sysfs_props.h"

static bool
is_blank(char c)
{
	return c == ' ' || c == '\t';
}

void
kc_sysfs_iter_init(struct kc_sysfs_iter *it, const void *buf, size_t len)
{
	it->p = buf;
	it->end = buf ? it->p + len : NULL;
}

enum kc_sysfs_line
kc_sysfs_next(struct kc_sysfs_iter *it, struct kc_sysfs_prop *prop)
{
	const char *p = it->p, *end = it->end, *eol, *q;

	memset(prop, 0, sizeof(*prop));
	/* Blank lines are nothing, good or bad. */
	while (p && p < end && (is_blank(*p) || *p == '\n'))
		p++;
	if (!p || p >= end) {
		it->p = p;
		prop->line = p;
		return KC_SYSFS_END;
	}
	eol = memchr(p, '\n', (size_t)(end - p));
	if (!eol)
		eol = end;
	it->p = eol < end ? eol + 1 : end;
	prop->line = p;
	prop->line_len = (size_t)(eol - p);

	for (q = p; q < eol && !is_blank(*q); q++)
		;
	if (q == eol)
		return KC_SYSFS_BAD;	/* a name and no value */
	prop->name = p;
	prop->name_len = (size_t)(q - p);
	while (q < eol && is_blank(*q))
		q++;
	prop->text = q;
	prop->text_len = (size_t)(eol - q);
	if (prop->name_len > KC_SYSFS_NAME_MAX ||
	    !kc_parse_u64(prop->text, prop->text_len, &prop->value)) {
		prop->value = 0;
		return KC_SYSFS_BAD;
	}
	return KC_SYSFS_PROP;
}

bool
kc_sysfs_name_is(const struct kc_sysfs_prop *prop, const char *name)
{
	return prop->name && strlen(name) == prop->name_len &&
	       memcmp(prop->name, name, prop->name_len) == 0;
}

uint32_t
kc_sysfs_props_lookup(const void *buf, size_t len, const char *const *names,
		      unsigned int n, uint64_t *vals)
{
	struct kc_sysfs_iter it;
	struct kc_sysfs_prop prop;
	enum kc_sysfs_line l;
	uint32_t found = 0;
	unsigned int i;

	if (n > 32)
		n = 32;
	kc_sysfs_iter_init(&it, buf, len);
	while ((l = kc_sysfs_next(&it, &prop)) != KC_SYSFS_END) {
		if (l != KC_SYSFS_PROP)
			continue;
		for (i = 0; i < n; i++) {
			if (kc_sysfs_name_is(&prop, names[i])) {
				vals[i] = prop.value;
				found |= (uint32_t)1 << i;
			}
		}
	}
	return found;
}

bool
kc_sysfs_prop_get(const void *buf, size_t len, const char *name, uint64_t *out)
{
	return kc_sysfs_props_lookup(buf, len, &name, 1, out) != 0;
}

/* SPDX-License-Identifier: MIT */
/*
 * The kernel's sysfs "properties" files (KFD topology nodes, mem_banks,
 * caches, io_links, p2p_links, system_properties): one "name value" line
 * per property, the value an unsigned decimal as the kernel prints it
 * ("%s %llu\n"). One parser for every reader: the thunk, the trace tools'
 * topology (kt_topo_parse()) and kfdsim's profile capture.
 *
 * The input may be hostile (a damaged trace, a fuzzer): it is read only
 * within its length (no NUL needed), nothing is copied, and each line is
 * either a property or a bad line, never a partial guess.
 *
 * A property line is: optional blanks (space, tab), a name of 1 to
 * KC_SYSFS_NAME_MAX bytes that are not blanks or '\n', one or more
 * blanks, decimal digits whose value fits in 64 bits, then '\n' or the
 * end of the buffer. Lines of blanks only are skipped. Any other line is
 * bad ("sibling_map 1,0,1", "a -5", "a 5z", "a 5 ", a name too long, a
 * value that overflows, "name" alone); what a caller does with one is its
 * policy (the thunk stops there, the topology parser skips it, the
 * profile capture copies it when its name is known).
 */
#ifndef KFDTRACE_COMMON_SYSFS_PROPS_H
#define KFDTRACE_COMMON_SYSFS_PROPS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Longest property name (the kernel's are under 40 bytes). */
#define KC_SYSFS_NAME_MAX	63

/* What kc_sysfs_next() found. */
enum kc_sysfs_line {
	KC_SYSFS_BAD = -1,	/* a line that is not a property */
	KC_SYSFS_END = 0,	/* no more lines */
	KC_SYSFS_PROP = 1,	/* a property */
};

/* One line, pointing into the parsed buffer (nothing is NUL-terminated). */
struct kc_sysfs_prop {
	const char *line;	/* from its first non-blank byte, no '\n' */
	size_t line_len;
	/*
	 * The name, where the line has one followed by a blank (also on a
	 * bad line, whose name may then be longer than KC_SYSFS_NAME_MAX);
	 * else NULL and 0.
	 */
	const char *name;
	size_t name_len;
	const char *text;	/* the value as written, to the line's end */
	size_t text_len;
	uint64_t value;		/* KC_SYSFS_PROP only; else 0 */
};

/* Where a walk over a buffer is. */
struct kc_sysfs_iter {
	const char *p, *end;
};

/*
 * kc_sysfs_iter_init() - walk the @len bytes at @buf (NULL: none).
 */
void kc_sysfs_iter_init(struct kc_sysfs_iter *it, const void *buf, size_t len);

/*
 * kc_sysfs_next() - the next line that is not blank, into @prop.
 *
 * Return: KC_SYSFS_PROP, KC_SYSFS_BAD (@prop's line, and its name where
 * it has one, are set), or KC_SYSFS_END (then @prop->line points at the
 * end of the buffer).
 */
enum kc_sysfs_line kc_sysfs_next(struct kc_sysfs_iter *it,
				 struct kc_sysfs_prop *prop);

/*
 * kc_sysfs_name_is() - whether @prop's name is the C string @name.
 */
bool kc_sysfs_name_is(const struct kc_sysfs_prop *prop, const char *name);

/*
 * kc_sysfs_props_lookup() - the values of @n names (at most 32) in the
 * @len bytes at @buf: @vals[i] gets the value of @names[i] where a
 * property line has it (the last such line wins; bad lines are skipped);
 * the other entries of @vals are left as they are.
 *
 * Return: the mask of the names found (bit i for @names[i]).
 */
uint32_t kc_sysfs_props_lookup(const void *buf, size_t len,
			       const char *const *names, unsigned int n,
			       uint64_t *vals);

/*
 * kc_sysfs_prop_get() - the value of one property @name in the @len bytes
 * at @buf, into *@out (the last line with @name wins).
 *
 * Return: whether a property line has @name (else *@out is unchanged).
 */
bool kc_sysfs_prop_get(const void *buf, size_t len, const char *name,
		       uint64_t *out);

#endif /* KFDTRACE_COMMON_SYSFS_PROPS_H */

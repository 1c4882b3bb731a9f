/* SPDX-License-Identifier: MIT */
/*
 * Field names for the exporters: the one rule by which a schema name
 * ("read_mmr_reg.dword_offset", "process_apertures[1].gpu_id", a name
 * table's name, a buffer's) becomes the name of a field in the babeltrace2
 * plugin and its CTF export (formats/bt2) and in the lttng-ust provider
 * (tracer/lttng, which pastes it into C). Both take their names from here,
 * so an analysis keyed on field names works on either kind of trace.
 *
 * The rule:
 *   - allowed characters are A-Z, a-z, 0-9 and '_'; the name never starts
 *     with a digit;
 *   - each run of other characters becomes one '_' where it separates two
 *     parts, and nothing at the start or end ("a[1].b" -> "a_1_b",
 *     "[x]" -> "x"); '_' in the input is kept as it is;
 *   - a name that would start with a digit gets "f_" in front ("3d" ->
 *     "f_3d"); one with no allowed character is "field";
 *   - at most KC_FIELD_NAME_LEN characters: a longer name keeps its first
 *     KC_FIELD_NAME_LEN - 9 characters and ends in '_' and the 8 lower-case
 *     hex digits of the FNV-1a hash of the whole input, so two long names
 *     that share a beginning still differ (and the same input always gives
 *     the same name).
 * Two inputs can still give one name ("a.b" and "a_b"), and a field can be
 * named like one of the call's own members that both consumers put in
 * every ioctl event (fd, request, ret, err, dur_ns: kc_field_name_reserved()).
 * A consumer then names the field by kc_field_name_unique(): the first of
 * kc_field_name_nth()'s candidates (n = 2, 3, ...) neither taken by an
 * earlier field of the event nor reserved ("fd" -> "fd_2"), so equal
 * fields get equal names in both.
 */
#ifndef KFDTRACE_COMMON_FIELD_NAME_H
#define KFDTRACE_COMMON_FIELD_NAME_H

#include <stddef.h>

/* The longest name, in characters; buffers need one more byte. */
#define KC_FIELD_NAME_LEN 63
#define KC_FIELD_NAME_MAX (KC_FIELD_NAME_LEN + 1)

/*
 * kc_field_name() - the field name of schema name @in into @out, by the
 * rule above.
 *
 * Return: its length, or -1 when @size < KC_FIELD_NAME_MAX (then @out is
 * "" when @size > 0).
 */
int kc_field_name(const char *in, char *out, size_t size);

/*
 * kc_field_name_nth() - the @n-th candidate for a field whose name is
 * @name (a result of kc_field_name()): @name itself for @n < 2, else @name
 * with "_@n" appended, @name's end cut so the whole is at most
 * KC_FIELD_NAME_LEN characters.
 *
 * Return: its length, or -1 when @size < KC_FIELD_NAME_MAX (then @out is
 * "" when @size > 0).
 */
int kc_field_name_nth(const char *name, unsigned int n, char *out,
		      size_t size);

/*
 * kc_field_name_unique() - the first candidate kc_field_name_nth(@name, n)
 * for n = 1, 2, 3, ... that @taken(@ctx, candidate) says is free, into @out.
 *
 * Return: its length; -1 when @size < KC_FIELD_NAME_MAX or the first
 * KC_FIELD_NAME_TRIES candidates are all taken.
 */
#define KC_FIELD_NAME_TRIES 1000
int kc_field_name_unique(const char *name,
			 int (*taken)(void *ctx, const char *candidate),
			 void *ctx, char *out, size_t size);

/*
 * kc_field_name_reserved() - whether @name is one of the members every
 * ioctl event has besides the argument's fields: "fd", "request", "ret",
 * "err", "dur_ns". A schema field never takes these names.
 */
int kc_field_name_reserved(const char *name);

#endif /* KFDTRACE_COMMON_FIELD_NAME_H */

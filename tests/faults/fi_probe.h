/* SPDX-License-Identifier: MIT */
/*
 * What a process holds that a library may leak: open file descriptors and
 * device or address-space mappings. A snapshot lists them as short
 * strings ("fd /memfd:kfdsim-bo (deleted)", "map ---p 65536"); the
 * difference of two snapshots is what appeared in between.
 *
 * Only mappings a GPU library makes are listed: those of device files and
 * of the simulator's memory files (buffer objects, doorbells, events),
 * and inaccessible anonymous ranges (address-space reservations). The
 * heap, stacks and malloc arenas come and go with no help from the
 * library and are left out.
 */
#ifndef FI_PROBE_H
#define FI_PROBE_H

#include <stdbool.h>
#include <stddef.h>

#define FI_PROBE_MAX	512
#define FI_PROBE_LEN	96

/*
 * Whether inaccessible anonymous ranges are listed (default true). A
 * sanitizer's allocator carves its own reserved space into such ranges as
 * the heap grows, so in sanitizer builds they cannot be told from a
 * library's reservations and are better left out.
 */
extern bool fi_probe_reservations;

struct fi_snapshot {
	unsigned int n;
	char item[FI_PROBE_MAX][FI_PROBE_LEN];
};

/* fi_snapshot_take() - list this process's fds and mappings. Return: 0 or -errno. */
int fi_snapshot_take(struct fi_snapshot *s);

/*
 * fi_snapshot_diff() - the items of @after that @before does not have
 * (as multisets: an item present twice after and once before counts once).
 */
void fi_snapshot_diff(const struct fi_snapshot *before, const struct fi_snapshot *after,
		      struct fi_snapshot *out);

/*
 * fi_snapshot_extra() - is every item of @s also in @allowed (as
 * multisets)? When not, the first item that is not is copied into @what.
 * Return: true if @s has an item @allowed does not.
 */
bool fi_snapshot_extra(const struct fi_snapshot *s, const struct fi_snapshot *allowed,
		       char *what, size_t len);

#endif /* FI_PROBE_H */

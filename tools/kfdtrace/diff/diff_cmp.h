/* SPDX-License-Identifier: MIT */
/*
 * Comparing two ioctl records, one from each trace, field by field under
 * the role mapping of diff_map.h.
 */
#ifndef KFDTRACE_DIFF_CMP_H
#define KFDTRACE_DIFF_CMP_H

#include <stddef.h>
#include <stdint.h>

#include "diff/diff_map.h"
#include "kfdtrace/trace.h"

/* What must match (the replayer's verification levels). */
enum diff_verify {
	/* Return value, errno, and every in and out field and buffer. */
	DIFF_VERIFY_STRICT,
	/* Return value and errno. */
	DIFF_VERIFY_RESULTS,
};

/* Differences described per record; more are counted. */
#define DIFF_MAX_FIELDS 8

struct diff_field {
	char name[80];		/* "ret", "errno", "out.handle",
				 * "in.device_ids[0]", "out.metadata" */
	uint8_t role;		/* enum kfd_role, for formatting */
	uint8_t bytes;		/* a byte string: a and b are not values */
	uint8_t has_expect;	/* a or b was bound to another value */
	uint8_t expect_is_a;	/* expect is the A value bound to b */
	uint64_t a, b, expect;
};

struct diff_result {
	unsigned int total;	/* differences found */
	unsigned int n;		/* of them, described in f[] */
	struct diff_field f[DIFF_MAX_FIELDS];
};

/*
 * diff_same_call() - whether two ioctl records are the same call: the same
 * schema row, or the same request code when neither has a row.
 */
int diff_same_call(const struct kt_record *a, const struct kt_record *b);

/*
 * diff_compare() - compare two records of the same call.
 * @m:		the value correspondence; new pairs are bound
 *
 * Return: the number of differences (res->total).
 */
unsigned int diff_compare(struct dmap *m, enum diff_verify verify,
			  const struct kt_record *a, const struct kt_record *b,
			  struct diff_result *res);

/*
 * diff_released() - after a matching pair of successful FREE_* or
 * DESTROY_* calls, unbind the ids they released.
 */
void diff_released(struct dmap *m, const struct kt_record *a);

/* diff_format_value() - @v as the decoder prints a value of @role. */
char *diff_format_value(char *buf, size_t size, enum kfd_role role,
			uint64_t v);

#endif /* KFDTRACE_DIFF_CMP_H */

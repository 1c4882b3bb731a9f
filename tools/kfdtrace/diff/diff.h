/* SPDX-License-Identifier: MIT */
/*
 * kfdtrace diff's engine: two traces aligned ioctl by ioctl, divergences
 * printed as they are found (diff_align.c).
 */
#ifndef KFDTRACE_DIFF_H
#define KFDTRACE_DIFF_H

#include <stddef.h>
#include <stdint.h>

#include "diff/diff_cmp.h"

/* Exit statuses of diff, as diff(1) and cmp(1) have them. */
enum {
	DIFF_EXIT_EQUAL = 0,
	DIFF_EXIT_DIFFERENT = 1,
	DIFF_EXIT_TROUBLE = 2,
};

struct diff_opts {
	enum diff_verify verify;
	unsigned int context;		/* records shown before a divergence */
	uint64_t max_print;		/* divergences printed; 0: all */
	int quiet;			/* only the summary line */
	int silent;			/* nothing on stdout (--json) */
	int merge;			/* each trace as one stream */
};

struct diff_outcome {
	int status;			/* DIFF_EXIT_* */
	uint64_t compared;		/* ioctls that matched */
	uint64_t divergences;
	uint64_t first_a, first_b;	/* seqs of the first; UINT64_MAX: the end */
	char first_what[128];
	uint64_t ioctls_a, ioctls_b;
	size_t threads_a, threads_b;
	int merged;			/* thread counts differed */
};

/*
 * diff_traces() - compare trace @a with trace @b, printing (unless
 * silent) the divergences and a summary line on stdout, and reading
 * problems on stderr.
 *
 * Return: DIFF_EXIT_EQUAL, DIFF_EXIT_DIFFERENT, or DIFF_EXIT_TROUBLE for
 * an unreadable or damaged trace (compared as far as it reads) or out of
 * memory; @res holds the counts either way.
 */
int diff_traces(const struct diff_opts *o, const char *a, const char *b,
		struct diff_outcome *res);

#endif

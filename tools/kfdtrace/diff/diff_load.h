/* SPDX-License-Identifier: MIT */
/*
 * kfdtrace diff's traces in memory (private to tools/kfdtrace): each
 * thread's kept records and ioctls, read by diff_load.c, which also folds
 * a replay's annotations (held waits and their tries) into the calls they
 * describe; diff_align.c aligns two of them.
 */
#ifndef KFDTRACE_DIFF_LOAD_H
#define KFDTRACE_DIFF_LOAD_H

#include <stddef.h>
#include <stdint.h>

#include "kfdtrace/common/u64map.h"
#include "kfdtrace/schema.h"
#include "kfdtrace/trace.h"

/*
 * A replay's try of a wait it held (KFD_REPLAY_TRY_NOTE): the slot in
 * recs the try keeps, which the issue that ends the hold takes.
 */
struct dtry {
	size_t slot;
	uint64_t of;			/* the captured record it tries */
	int v1;				/* of unknown: KFD_REPLAY_TRY_NOTE_V1 */
};

struct dthread {
	uint32_t tid;
	uint64_t first_seq;
	struct kt_record **recs;	/* kept records in thread order */
	size_t n, cap;
	size_t *io;			/* indices of the ioctls in recs */
	const struct kfd_ioctl_desc **row;	/* each ioctl's schema row */
	size_t nio, capio;
	struct dtry *tries;		/* a replay's waits held, any number */
	size_t ntries, captries;
	struct kc_u64map try_of;	/* (v1, of or slot) -> index in tries */
	size_t nv1;			/* tries among them of unknown record */
	size_t last_replaced;		/* 1 + the slot the last record took */
};

struct dtrace {
	const char *path;
	char label;			/* 'A' or 'B' */
	struct kt_reader *r;
	uint64_t start_ns;
	struct dthread *th;
	size_t nth, capth;
	struct kc_u64map th_of;		/* tid -> index in th, while loading */
	uint64_t ioctls;
	int read_rc;
};


/* Read the whole trace at t->path. Return: 0, -1 unreadable, -2 out of
 * memory. */
int diff_load(struct dtrace *t);
/* Make @t one thread of all its records in sequence order (for traces
 * whose threads do not pair). Return: 0, or -1 when out of memory. */
int diff_merge_threads(struct dtrace *t);
/* Release what diff_load() read, and close the reader. */
void diff_unload(struct dtrace *t);

#endif

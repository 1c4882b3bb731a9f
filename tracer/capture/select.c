/* SPDX-License-Identifier: MIT */
/*
 * The ioctls a trace records (kfdtrace record --only, --except).
 *
 * KFDTRACE_ONLY and KFDTRACE_EXCEPT hold comma-separated schema names
 * (kfd_schema_by_name(): "ALLOC_MEMORY_OF_GPU" or "alloc_memory_of_gpu"),
 * and "unknown-ioctl" for the requests no row describes. Both are read
 * once, at load. A call is recorded when ONLY (if set) names it and
 * EXCEPT does not. A left-out call goes to the device past the dispatch
 * point: no copy of its arguments, no clock read, no record. The session
 * counts it for the END record (left_out).
 */
#include "capture.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* One entry per schema row, and the last for requests with none. */
#define SELECT_MAX_ROWS 255

int kcap_select_on;
static uint8_t select_keep[SELECT_MAX_ROWS + 1];
static const struct kfd_ioctl_desc *select_rows;
static unsigned int select_nrows;

/*
 * Mark the entries @list names with @keep. A name the schema does not
 * know is said once and ignored: kfdtrace record checked the names, so
 * only a hand-set variable has one, and the program must run regardless.
 */
static void
select_mark(const char *var, const char *list, uint8_t keep)
{
	char *copy = strdup(list), *save = NULL, *tok;

	if (!copy)
		return;
	for (tok = strtok_r(copy, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		const struct kfd_ioctl_desc *d;

		if (!*tok)
			continue;
		if (!strcasecmp(tok, "unknown-ioctl")) {
			select_keep[select_nrows] = keep;
			continue;
		}
		d = kfd_schema_by_name(tok);
		if (d)
			select_keep[d - select_rows] = keep;
		else
			fprintf(stderr, "kfdtrace-capture: %s: no ioctl is "
				"named '%s'; ignored\n", var, tok);
	}
	free(copy);
}

void
kcap_select_init(void)
{
	const char *only = getenv("KFDTRACE_ONLY");
	const char *except = getenv("KFDTRACE_EXCEPT");

	if ((!only || !*only) && (!except || !*except))
		return;
	select_rows = kfd_schema_rows(&select_nrows);
	if (select_nrows > SELECT_MAX_ROWS) {
		fprintf(stderr, "kfdtrace-capture: the schema has more rows "
			"than --only/--except can choose among; every ioctl "
			"is recorded\n");
		return;
	}
	memset(select_keep, !(only && *only), sizeof(select_keep));
	if (only && *only)
		select_mark("KFDTRACE_ONLY", only, 1);
	if (except && *except)
		select_mark("KFDTRACE_EXCEPT", except, 0);
	kcap_select_on = 1;
}

/*
 * The thread's last answer: a program issues the same few requests over
 * and over, so most calls are spared the schema lookup.
 */
static __thread struct {
	unsigned long request;
	int kind;		/* enum kfd_file_kind + 1; 0: nothing yet */
	int keep;
} select_last __attribute__((tls_model("initial-exec")));

int
kcap_select_keeps(enum kfd_file_kind kind, unsigned long request)
{
	const struct kfd_ioctl_desc *d;

	if (__builtin_expect(select_last.kind == (int)kind + 1 &&
			     select_last.request == request, 1))
		return select_last.keep;
	d = kfd_schema_lookup(kind, request);
	select_last.keep = select_keep[d ? (unsigned int)(d - select_rows) :
				       select_nrows];
	select_last.request = request;
	select_last.kind = (int)kind + 1;
	return select_last.keep;
}

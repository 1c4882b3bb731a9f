/* SPDX-License-Identifier: MIT */
/*
 * What the kfdtrace command-line tests share (cli_fixture.c): the binaries
 * under test, the scratch directory, the sample trace, and RUN().
 */
#ifndef KFDTRACE_CLI_FIXTURE_H
#define KFDTRACE_CLI_FIXTURE_H

#include "cli_gen.h"
#include "tc_run.h"

#define GPU 0x1234u

/* Records in the sample trace, END included. */
#define SAMPLE_RECORDS 22

/* The kfdtrace binary and cli-fork-app, from the command line. */
extern const char *kfdtrace_bin;
extern const char *fork_app_bin;

/* Take the binaries from the command line. Return: 0, or 2 (usage
 * printed) when they are missing. */
int cli_args(int argc, char **argv);
/* @name inside the scratch directory (tc_scratch_path()). */
char *tmp_path(const char *name);
/* A TOPOLOGY record: a CPU node and the GPU GPU (an aldebaran). */
void put_topology(struct gen *g);
/*
 * The sample trace (SAMPLE_RECORDS records) at @path: a short ROCm-like
 * start-up with allocations, a failed allocation, a bad free, a queue and
 * events left alive, an unknown request, and two records appended out of
 * sequence order.
 */
void write_sample(const char *path, const struct kt_writer_opts *opts);
/* cmocka group setup: the scratch directory and sample.kft in it. */
int setup(void **state);
/* cmocka group teardown: the scratch directory removed (unless
 * KFDTRACE_CLI_KEEP=1). */
int teardown(void **state);

#define RUN(res, ...)							\
	do {								\
		char *argv_[] = { (char *)kfdtrace_bin, __VA_ARGS__, NULL }; \
		assert_int_equal(tc_run(argv_, (res)), 0);		\
	} while (0)

#endif

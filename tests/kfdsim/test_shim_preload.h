/* SPDX-License-Identifier: MIT */
/*
 * What test_shim_preload.c and test_shim_preload_proc.c (one program)
 * share: the paths and the profile's GPU, the helpers, and the tests of
 * test_shim_preload_proc.c that main() runs.
 */
#ifndef TEST_SHIM_PRELOAD_H
#define TEST_SHIM_PRELOAD_H

#include "kfdtrace/kfd_abi.h"

#define TOPO "/sys/devices/virtual/kfd/kfd/topology"
#define GPU_ID 43794u	/* data/refmi210.profile */

/* The file @name of the test data ($KSIM_TEST_DATA), read whole (free it). */
char *expected(const char *name);
/* How many fds this process has open. */
int count_open_fds(void);
/* GET_VERSION on @fd into @v. Return: ioctl()'s. */
int kfd_version(int fd, struct kfd_abi_get_version_args *v);

/* test_shim_preload_proc.c */
void test_passthrough(void **state);
void test_mmap_doorbell(void **state);
void test_fork_rule(void **state);
void test_threads(void **state);
void test_reentrancy(void **state);
void test_cpus(void **state);
void test_overcommit(void **state);
void test_lsmod(void **state);

#endif /* TEST_SHIM_PRELOAD_H */

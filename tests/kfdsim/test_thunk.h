/* SPDX-License-Identifier: MIT */
/*
 * What test_thunk.c and test_thunk_queues.c (one program) share: the
 * system and node properties the group setup read, the GPU nodes, the
 * helpers, and the tests of test_thunk_queues.c that main() runs.
 */
#ifndef TEST_THUNK_H
#define TEST_THUNK_H

#include <stdbool.h>
#include <stdint.h>

#include <hsakmt.h>

#define MAX_NODES 64

extern HsaSystemProperties sys_props;
extern HsaNodeProperties node_props[MAX_NODES];
extern HSAuint32 gpu_nodes[MAX_NODES];	/* nodes with compute cores */
extern unsigned int n_gpus;

/* A key of node @node's sysfs properties (the test fails without it). */
uint64_t sysfs_prop(unsigned int node, const char *key);
/* Whether the CPU reaches all of GPU @node's VRAM (large BAR). */
bool large_bar(HSAuint32 node);
/* VRAM flags: host-visible where the board allows it (large BAR). */
HsaMemFlags vram_flags(HSAuint32 node);
/* Assert what hsaKmtQueryPointerInfo() says of @addr. */
void check_pointer(void *addr, HSA_POINTER_TYPE type, HSAuint64 size,
		   HSAuint32 mapped);

/* test_thunk_queues.c */
void test_queue_compute_aql(void **state);
void test_queue_sdma(void **state);
void test_queue_errors(void **state);
void test_svm(void **state);
void test_clock_counters(void **state);
void test_error_statuses(void **state);
void test_share_memory(void **state);
void test_fork_child(void **state);
#ifdef HAVE_LIBDRM_AMDGPU
void test_graphics_interop(void **state);
void test_amdgpu_ctx(void **state);
#endif

#endif /* TEST_THUNK_H */

/* SPDX-License-Identifier: MIT */
/*
 * What the thunk-API workloads of the replay tests (rp_hsakmt, rp_mt,
 * rp_tree) share. They run on AMD's libhsakmt or on ours, whichever comes
 * first in LD_LIBRARY_PATH.
 */
#ifndef RP_KMT_H
#define RP_KMT_H

#include <hsakmt.h>

/* The program's name and, in a process tree, which process (or NULL). */
extern const char *rp_kmt_prog;
extern const char *rp_kmt_who;

/* rp_kmt_check() - note and print an unexpected status (thread-safe). */
void rp_kmt_check(HSAKMT_STATUS st, const char *what);
/* rp_kmt_fail() - note a failure that is not a status, printing @what
 * (NULL: the caller said it). */
void rp_kmt_fail(const char *what);
/* rp_kmt_failed() - 1 when a check failed in this process, else 0. */
int rp_kmt_failed(void);
/* rp_kmt_print_thunk() - print "thunk: PATH" for the libhsakmt loaded. */
void rp_kmt_print_thunk(void);
/*
 * rp_kmt_alloc_mapped() - allocate @size on @node (0: system memory) with
 * @flags and map it on GPU node @gpu. Return: the memory, or NULL.
 */
void *rp_kmt_alloc_mapped(HSAuint32 node, HSAuint32 gpu, HSAuint64 size,
			  HsaMemFlags flags);
/*
 * rp_kmt_first_gpu() - after hsaKmtOpenKFD(), the first node with compute
 * cores (a GPU), or 0 when there is none.
 */
HSAuint32 rp_kmt_first_gpu(void);
/* rp_kmt_free_mapped() - unmap and free what it returned (NULL: nothing). */
void rp_kmt_free_mapped(void *p, HSAuint64 size);

#endif

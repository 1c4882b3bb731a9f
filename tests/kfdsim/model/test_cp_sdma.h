/* SPDX-License-Identifier: MIT */
/*
 * Shared by the files of model-cp-sdma (test_cp_sdma.c,
 * test_cp_sdma_vm.c): an SDMA queue whose ring and read/write pointers
 * are userptr BOs, and the packets the tests write on it.
 */
#ifndef TEST_CP_SDMA_H
#define TEST_CP_SDMA_H

#include "ktest.h"

#define RING_SIZE	4096u
#define WILD_VA		0x7000000000ULL	/* in no mapping */

struct sq {
	uint32_t *ring;
	uint64_t *ptrs;			/* [0] rptr, [1] wptr */
	uint32_t qid;
	volatile uint64_t *doorbell;
	volatile uint64_t *doorbell_page;	/* its mapping, 8 KiB */
	uint64_t wr;			/* bytes written, monotonic */
};

/*
 * sq_new() - an SDMA queue of @type (KFD_ABI_QUEUE_TYPE_SDMA*) on GPU
 * index @gpu, priority 15: its ring at @ring_va, the read pointer at
 * @ring_va + 1 MiB and the write pointer 8 bytes on. Asserts on failure.
 */
void sq_new(struct kt *t, struct sq *q, unsigned int gpu, uint64_t ring_va,
	    uint32_t type);
/* sq_emit() - append @n dwords (a packet never straddles the end: NOP pads). */
void sq_emit(struct sq *q, const uint32_t *d, unsigned int n);
/* sq_kick() - publish the write pointer and ring the doorbell. */
void sq_kick(struct sq *q);
/* sq_rptr() - the read pointer the engine wrote back, in bytes. */
uint64_t sq_rptr(const struct sq *q);
/* sq_reaches() - wait (up to 5 s) until the read pointer reaches @want
 * bytes: 1 when it did, 0 on time-out. */
int sq_reaches(const struct sq *q, uint64_t want);

/* sq_copy() - COPY_LINEAR of @len bytes (at most the packet's limit). */
void sq_copy(struct sq *q, uint64_t dst, uint64_t src, uint32_t len);
/* sq_copy_all() - @len bytes in pieces of at most 4 MiB - 32. */
void sq_copy_all(struct sq *q, uint64_t dst, uint64_t src, uint64_t len);
/* sq_fence() - FENCE: the dword @v at @va. */
void sq_fence(struct sq *q, uint64_t va, uint32_t v);

/* The cases of test_cp_sdma_vm.c, which test_cp_sdma.c's main() runs. */
void test_svm_copy(void **state);
void test_svm_xnack(void **state);
void test_vm_fault(void **state);
void test_copy_gone_userptr(void **state);
void test_gpu_doorbell_write(void **state);

#endif

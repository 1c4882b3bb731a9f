/* SPDX-License-Identifier: MIT */
/*
 * Shared by the files of model-cp (test_cp.c, test_cp_shader.c): an AQL
 * queue whose ring, amd_queue_t and signals are userptr BOs at GPU VAs
 * other than their CPU addresses, the packets the tests publish on it,
 * and the set-up every case starts from.
 */
#ifndef TEST_CP_H
#define TEST_CP_H

#include "ktest.h"

#define RING_SIZE	4096u		/* 64 packets */
#define NPKT		(RING_SIZE / 64)
#define EOP_VA		0x30000000ULL
#define CWSR_VA		0x40000000ULL
#define WILD_VA		0x7000000000ULL	/* in no mapping */
#define KERNEL_VA	0x50000000ULL	/* the kernel every dispatch runs */
#define OUT_VA		0x51000000ULL	/* what the shader kernels write */

/* KERNEL_VA's page: at 0 a kernel of one s_endpgm, the rest free. */
extern uint8_t *tq_kern;

/* One queue's memory: ring, amd_queue_t (first 256 bytes of the pointer
 * page: read_dispatch_id at 128), signals; each a userptr BO. */
struct tq {
	uint8_t *ring;
	uint8_t *aq;
	uint8_t *sig;			/* 64 signals of 64 bytes */
	uint64_t ring_va, aq_va, sig_va;
	uint32_t qid;
	volatile uint64_t *doorbell;
	uint64_t wr;			/* next packet index */
};

/*
 * tq_new() - an AQL queue on the first GPU with its memory at @base,
 * +1 MiB and +2 MiB; every slot INVALID, the queue-inactive signal in
 * slot 63. Asserts on failure.
 */
void tq_new(struct kt *t, struct tq *q, uint64_t base);
/* tq_sigva() - the GPU VA of signal @i; tq_sig() - its value's CPU address. */
uint64_t tq_sigva(const struct tq *q, unsigned int i);
int64_t *tq_sig(const struct tq *q, unsigned int i);
/* tq_rptr() - the queue's read index (read_dispatch_id). */
uint64_t tq_rptr(const struct tq *q);
/* tq_reaches() - wait (up to 5 s) until the read index reaches @want:
 * 1 when it did, 0 on time-out. */
int tq_reaches(const struct tq *q, uint64_t want);
/* tq_inactive() - wait (up to 5 s) until the queue-inactive signal has
 * one of @bits: 1 when it did, 0 on time-out. */
int tq_inactive(const struct tq *q, int64_t bits);

/* tq_put() - publish one packet of header @hdr (header last) and ring. */
void tq_put(struct tq *q, uint16_t hdr, const uint8_t body[64]);
/* tq_put_kernel() - a dispatch of 64 work-items of kernel object @kobj
 * with kernel arguments at @kernarg, completion signal @done. */
void tq_put_kernel(struct tq *q, uint64_t kobj, uint64_t kernarg, uint64_t done);
/* tq_put_dispatch() - the same without kernel arguments. */
void tq_put_dispatch(struct tq *q, uint64_t kobj, uint64_t done);
/* tq_put_barrier() - a barrier-AND on @dep (0: none), with the barrier bit. */
void tq_put_barrier(struct tq *q, uint64_t dep, uint64_t done);

/* cmocka set-ups: the profile's device with its VMs acquired, the
 * queue areas and tq_kern mapped; the teardown is kt_teardown(). */
int tq_setup_mi210(void **state);
int tq_setup_mi300x(void **state);
int tq_setup_mi100(void **state);
int tq_setup_rx6900xt(void **state);

/* The cases of test_cp_shader.c, which test_cp.c's main() runs. */
void test_shader(void **state);
void test_shader_gfx942(void **state);
void test_shader_gfx908(void **state);
void test_shader_wave32(void **state);
void test_shader_wait(void **state);
void test_shader_msg(void **state);
void test_shader_trap(void **state);
void test_shader_trap_gfx10(void **state);

#endif

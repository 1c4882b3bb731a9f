/* SPDX-License-Identifier: MIT */
/*
 * Global wave sync (shader_gws.c) on the model's AQL queues, mi210: the
 * counters ALLOC_QUEUE_GWS gives a queue outlive the dispatch that set
 * them (ds_gws_init in one dispatch, used by the next); ds_gws_sema_p
 * waits until another wave's ds_gws_sema_v, so the waiting wave's
 * ticket comes last; ds_gws_barrier holds every wave until all arrived;
 * a wait only a later work-group could end stops the queue at once
 * instead of hanging it; a queue without GWS stops on the first GWS
 * instruction as illegal. Two queues in one process: GWS is one queue's.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ktest.h"

#define EOP_VA		0x30000000ULL
#define CWSR_VA		0x40000000ULL
#define KERNEL_VA	0x50000000ULL	/* kernel descriptors and code */
#define OUT_VA		0x51000000ULL	/* what the kernels write */
#define RING_SIZE	4096u
#define INACTIVE	63		/* the queue-inactive signal's slot */

/* Kernel descriptors at KERNEL_VA + KD_*; each one's code 256 bytes on,
 * its kernel arguments (the output pointer, a count) 2 KiB on. */
enum { KD_INIT = 0, KD_TICKET = 4096, KD_BARRIER = 8192, KD_SIZE = 12288 };

/* ds_gws_init of resource 0 with the count in the kernel arguments */
static const uint32_t init_code[] = {
	0xc0020180, 0x00000008,	/* s_load_dword s6, s[0:1], 0x8 */
	0xbf8cc07f,		/* s_waitcnt lgkmcnt(0) */
	0xbefc0080,		/* s_mov_b32 m0, 0 */
	0x7e000206,		/* v_mov_b32_e32 v0, s6 */
	0xd9330000, 0x00000000,	/* ds_gws_init v0 gds */
	0xbf8cc07f,		/* s_waitcnt lgkmcnt(0) */
	0xbf810000,		/* s_endpgm */
};

/*
 * Wave 0 of each group takes the semaphore first (ds_gws_sema_p); every
 * wave then takes a ticket (atomic add on out[0]) into out[1 + wave];
 * wave 3 releases the semaphore after its ticket.
 */
static const uint32_t ticket_code[] = {
	0xc0060080, 0x00000000,	/* s_load_dwordx2 s[2:3], s[0:1], 0x0 */
	0xbf8cc07f,		/* s_waitcnt lgkmcnt(0) */
	0xbefc0080,		/* s_mov_b32 m0, 0 */
	0x7e080500,		/* v_readfirstlane_b32 s4, v0 */
	0xbefe0181,		/* s_mov_b64 exec, 1 */
	0xbf068004,		/* s_cmp_eq_u32 s4, 0 */
	0xbf840002,		/* s_cbranch_scc0 2 */
	0xd9390000, 0x00000000,	/* ds_gws_sema_p gds */
	0xbf8cc07f,		/* s_waitcnt lgkmcnt(0) */
	0x7e020280,		/* v_mov_b32_e32 v1, 0 */
	0x7e040281,		/* v_mov_b32_e32 v2, 1 */
	0xdd098000, 0x03020201,	/* global_atomic_add v3, v1, v2, s[2:3] glc */
	0xbf8c0f70,		/* s_waitcnt vmcnt(0) */
	0x8f058404,		/* s_lshr_b32 s5, s4, 4 */
	0x80058405,		/* s_add_u32 s5, s5, 4 */
	0x7e080205,		/* v_mov_b32_e32 v4, s5 */
	0xdc708000, 0x00020304,	/* global_store_dword v4, v3, s[2:3] */
	0xbf8c0f70,		/* s_waitcnt vmcnt(0) */
	0xb40400c0,		/* s_cmpk_eq_u32 s4, 0xc0 */
	0xbf840002,		/* s_cbranch_scc0 2 */
	0xd9350000, 0x00000000,	/* ds_gws_sema_v gds */
	0xbf810000,		/* s_endpgm */
};

/* Each wave counts itself in out[0], waits at the GWS barrier, then
 * stores the count it reads into out[1 + wave]. */
static const uint32_t barrier_code[] = {
	0xc0060080, 0x00000000,	/* s_load_dwordx2 s[2:3], s[0:1], 0x0 */
	0xbf8cc07f,		/* s_waitcnt lgkmcnt(0) */
	0xbefc0080,		/* s_mov_b32 m0, 0 */
	0x7e080500,		/* v_readfirstlane_b32 s4, v0 */
	0xbefe0181,		/* s_mov_b64 exec, 1 */
	0x7e020280,		/* v_mov_b32_e32 v1, 0 */
	0x7e040281,		/* v_mov_b32_e32 v2, 1 */
	0xdd088000, 0x00020201,	/* global_atomic_add v1, v2, s[2:3] */
	0xbf8c0f70,		/* s_waitcnt vmcnt(0) */
	0xd93b0000, 0x00000002,	/* ds_gws_barrier v2 gds */
	0xbf8cc07f,		/* s_waitcnt lgkmcnt(0) */
	0xdc518000, 0x03020001,	/* global_load_dword v3, v1, s[2:3] glc */
	0xbf8c0f70,		/* s_waitcnt vmcnt(0) */
	0x8f058404,		/* s_lshr_b32 s5, s4, 4 */
	0x80058405,		/* s_add_u32 s5, s5, 4 */
	0x7e080205,		/* v_mov_b32_e32 v4, s5 */
	0xdc708000, 0x00020304,	/* global_store_dword v4, v3, s[2:3] */
	0xbf810000,		/* s_endpgm */
};

static uint8_t *kern;
static uint32_t *out;

/* Kernel @code at @kd, its output pointer the first kernel argument. */
static void
put_code(unsigned int kd, const uint32_t *code, size_t size)
{
	const uint64_t out_va = OUT_VA;

	kt_put_code(kern, kd, code, size);
	memcpy(kern + kd + 2048, &out_va, 8);
}

static int
setup(void **state)
{
	struct kt *t;

	if (kt_setup_mi210(state))
		return -1;
	t = *state;
	kt_queue_areas(t, EOP_VA, CWSR_VA);
	kern = kt_userptr_mapped(t, 0, KERNEL_VA, KD_SIZE);
	memset(kern, 0, KD_SIZE);
	put_code(KD_INIT, init_code, sizeof(init_code));
	put_code(KD_TICKET, ticket_code, sizeof(ticket_code));
	put_code(KD_BARRIER, barrier_code, sizeof(barrier_code));
	out = (uint32_t *)kt_userptr_mapped(t, 0, OUT_VA, 4096);
	return 0;
}

/* An AQL queue whose signals live in its data page (slot i at i * 64). */
static void
queue(struct kt *t, struct kt_queue *q, uint64_t base)
{
	kt_queue_create(t, q, base, KFD_ABI_QUEUE_TYPE_COMPUTE_AQL, RING_SIZE, EOP_VA,
			CWSR_VA, 0);
	*(uint64_t *)(q->aux + 192) = base + 0x200000 + INACTIVE * 64;
	q->wr = 0;
}

static int64_t *
sig(const struct kt_queue *q, unsigned int i)
{
	return (int64_t *)(q->data + i * 64 + 8);
}

static uint64_t
rptr(const struct kt_queue *q)
{
	return __atomic_load_n((uint64_t *)(q->aux + 128), __ATOMIC_ACQUIRE);
}

/* A dispatch of @grid work-items in groups of @wg; its kernel argument
 * count (init's) is @count; its completion signal slot is @slot. */
static void
dispatch(struct kt_queue *q, uint64_t base, unsigned int kd, uint32_t grid, uint16_t wg,
	 uint32_t count, unsigned int slot)
{
	memcpy(kern + kd + 2048 + 8, &count, 4);
	*sig(q, slot) = 1;
	kt_aql_dispatch(q, RING_SIZE, grid, wg, KERNEL_VA + kd, KERNEL_VA + kd + 2048,
			base + 0x200000 + (uint64_t)slot * 64);
}

static int
alloc_gws(struct kt *t, const struct kt_queue *q, uint32_t n)
{
	struct kfd_abi_alloc_queue_gws_args a = { .queue_id = q->qid, .num_gws = n };

	return ksim_ioctl(t->kfd, KFD_ABI_IOC_ALLOC_QUEUE_GWS, &a);
}

static int
inactive(const struct kt_queue *q, int64_t bits)
{
	for (int i = 0; i < 5000; i++) {
		if (__atomic_load_n(sig(q, INACTIVE), __ATOMIC_ACQUIRE) & bits)
			return 1;
		usleep(1000);
	}
	return 0;
}

#define QA	0x10000000ULL
#define QB	0x14000000ULL

static void
test_semaphore(void **state)
{
	struct kt *t = *state;
	struct kt_queue q;

	queue(t, &q, QA);
	assert_int_equal(alloc_gws(t, &q, 64), 0);
	/* the count 0 set by one dispatch holds wave 0 in the next */
	memset(out, 0, 4096);
	dispatch(&q, QA, KD_INIT, 1, 1, 0, 0);
	dispatch(&q, QA, KD_TICKET, 256, 256, 0, 1);
	assert_true(kt_reaches((const uint64_t *)(q.aux + 128), 2));
	assert_int_equal(*sig(&q, 1), 0);
	assert_int_equal(out[0], 4);
	/* wave 0 took its ticket after wave 3 released the semaphore */
	assert_true(out[1] > out[4]);
	assert_int_equal(out[1], 3);

	/* four groups of four waves, the count left at 0 by the last one:
	 * each group's wave 0 waits for its own wave 3 */
	memset(out, 0, 4096);
	dispatch(&q, QA, KD_TICKET, 1024, 256, 0, 2);
	assert_true(kt_reaches((const uint64_t *)(q.aux + 128), 3));
	assert_int_equal(out[0], 16);

	/* a count of 1: wave 0 need not wait, and takes the first ticket */
	memset(out, 0, 4096);
	dispatch(&q, QA, KD_INIT, 1, 1, 1, 3);
	dispatch(&q, QA, KD_TICKET, 256, 256, 0, 4);
	assert_true(kt_reaches((const uint64_t *)(q.aux + 128), 5));
	assert_int_equal(out[0], 4);
	assert_int_equal(out[1], 0);
	assert_int_equal(*sig(&q, INACTIVE), 0);
}

static void
test_barrier(void **state)
{
	struct kt *t = *state;
	struct kt_queue q;

	queue(t, &q, QA);
	assert_int_equal(alloc_gws(t, &q, 64), 0);
	memset(out, 0, 4096);
	/* four waves: the barrier's count is one less */
	dispatch(&q, QA, KD_INIT, 1, 1, 3, 0);
	dispatch(&q, QA, KD_BARRIER, 256, 256, 0, 1);
	assert_true(kt_reaches((const uint64_t *)(q.aux + 128), 2));
	for (unsigned int w = 0; w < 4; w++)
		assert_int_equal(out[1 + w], 4);
	/* the barrier re-arms: the same again sees eight */
	dispatch(&q, QA, KD_BARRIER, 256, 256, 0, 2);
	assert_true(kt_reaches((const uint64_t *)(q.aux + 128), 3));
	for (unsigned int w = 0; w < 4; w++)
		assert_int_equal(out[1 + w], 8);
}

static void
test_stuck_and_unallocated(void **state)
{
	struct kt *t = *state;
	struct kt_queue q, n;
	uint64_t t0;

	queue(t, &q, QA);
	queue(t, &n, QB);
	assert_int_equal(alloc_gws(t, &q, 64), 0);
	/* GWS is one queue's per process */
	assert_int_equal(alloc_gws(t, &n, 64), -EBUSY);
	/* one wave waits on a count of 0 and no wave of its group posts:
	 * the queue stops at once, its signal left */
	t0 = kt_now_ns(CLOCK_MONOTONIC);
	dispatch(&q, QA, KD_INIT, 1, 1, 0, 0);
	dispatch(&q, QA, KD_TICKET, 64, 64, 0, 1);
	assert_true(inactive(&q, 0x40000000));
	assert_true(kt_now_ns(CLOCK_MONOTONIC) - t0 < 5000000000ULL);
	assert_int_equal(rptr(&q), 1);
	assert_int_equal(*sig(&q, 1), 1);
	/* the queue without GWS: illegal at its first GWS instruction */
	dispatch(&n, QB, KD_INIT, 1, 1, 1, 0);
	assert_true(inactive(&n, 0x40000000));
	assert_int_equal(rptr(&n), 0);
	assert_int_equal(*sig(&n, 0), 1);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_semaphore, setup, kt_teardown),
		cmocka_unit_test_setup_teardown(test_barrier, setup, kt_teardown),
		cmocka_unit_test_setup_teardown(test_stuck_and_unallocated, setup, kt_teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

/* SPDX-License-Identifier: MIT */
/*
 * Queue priority on the model's engine (cp_prio.c), mi210: three AQL
 * queues; the first holds the waves with a kernel that sleeps until the
 * host writes a flag, while a low- and then a high-priority queue get a
 * dispatch each. Released, the waiting dispatches run in priority order,
 * whatever the creation order: each takes a ticket (an atomic add) and
 * the high one's is first. Equal priorities keep the creation order.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ktest.h"

#define EOP_VA		0x30000000ULL
#define CWSR_VA		0x40000000ULL
#define KERNEL_VA	0x50000000ULL
#define OUT_VA		0x51000000ULL
#define RING_SIZE	4096u

/* kernel descriptors 4 KiB apart, code 256 bytes on; kernel arguments
 * at KERNEL_VA + KA + 64 * n */
enum { KD_TICK = 0, KD_HOLD = 4096, KA = 8192, K_SIZE = 12288 };

/* out[0] counts; out[slot / 4] gets this dispatch's ticket */
static const uint32_t tick_code[] = {
	0xc0060080, 0x00000000,	/* s_load_dwordx2 s[2:3], s[0:1], 0x0 */
	0xc0020100, 0x00000008,	/* s_load_dword s4, s[0:1], 0x8 */
	0xbf8cc07f,		/* s_waitcnt lgkmcnt(0) */
	0xbefe0181,		/* s_mov_b64 exec, 1 */
	0x7e020280,		/* v_mov_b32_e32 v1, 0 */
	0x7e040281,		/* v_mov_b32_e32 v2, 1 */
	0xdd098000, 0x03020201,	/* global_atomic_add v3, v1, v2, s[2:3] glc */
	0xbf8c0f70,		/* s_waitcnt vmcnt(0) */
	0x7e080204,		/* v_mov_b32_e32 v4, s4 */
	0xdc708000, 0x00020304,	/* global_store_dword v4, v3, s[2:3] */
	0xbf810000,		/* s_endpgm */
};

/* sleeps until out[16] is not 0 */
static const uint32_t hold_code[] = {
	0xc0060080, 0x00000000,	/* s_load_dwordx2 s[2:3], s[0:1], 0x0 */
	0xbf8cc07f,		/* s_waitcnt lgkmcnt(0) */
	0xc0030101, 0x00000040,	/* s_load_dword s4, s[2:3], 0x40 glc */
	0xbf8cc07f,		/* s_waitcnt lgkmcnt(0) */
	0xbf068004,		/* s_cmp_eq_u32 s4, 0 */
	0xbf840002,		/* s_cbranch_scc0 2 */
	0xbf8e0001,		/* s_sleep 1 */
	0xbf82fff9,		/* s_branch -7 */
	0xbf810000,		/* s_endpgm */
};

static uint8_t *kern;
static volatile uint32_t *out;

static int
setup(void **state)
{
	struct kt *t;

	if (kt_setup_mi210(state))
		return -1;
	t = *state;
	kt_queue_areas(t, EOP_VA, CWSR_VA);
	kern = kt_userptr_mapped(t, 0, KERNEL_VA, K_SIZE);
	memset(kern, 0, K_SIZE);
	kt_put_code(kern, KD_TICK, tick_code, sizeof(tick_code));
	kt_put_code(kern, KD_HOLD, hold_code, sizeof(hold_code));
	out = (volatile uint32_t *)kt_userptr_mapped(t, 0, OUT_VA, 4096);
	memset((void *)out, 0, 4096);
	return 0;
}

static void
queue(struct kt *t, struct kt_queue *q, uint64_t base, uint32_t priority)
{
	struct kfd_abi_update_queue_args u;

	kt_queue_create(t, q, base, KFD_ABI_QUEUE_TYPE_COMPUTE_AQL, RING_SIZE, EOP_VA,
			CWSR_VA, 0);
	memset(&u, 0, sizeof(u));
	u.ring_base_address = base;
	u.queue_id = q->qid;
	u.ring_size = RING_SIZE;
	u.queue_percentage = 100;
	u.queue_priority = priority;
	assert_int_equal(ksim_ioctl(t->kfd, KFD_ABI_IOC_UPDATE_QUEUE, &u), 0);
}

/* One work-item of kernel @kd; its arguments: the output, @slot. */
static void
dispatch(struct kt_queue *q, unsigned int kd, unsigned int n, uint32_t slot)
{
	const uint64_t out_va = OUT_VA;

	memcpy(kern + KA + 64 * n, &out_va, 8);
	memcpy(kern + KA + 64 * n + 8, &slot, 4);
	kt_aql_dispatch(q, RING_SIZE, 1, 1, KERNEL_VA + kd, KERNEL_VA + KA + 64 * n, 0);
}

static int
retired(const struct kt_queue *q)
{
	return kt_reaches((const uint64_t *)(q->aux + 128), 1);
}

/*
 * @pa, @pb: the priorities of the queues created second (a) and third
 * (b); the holder's is 15. Return: 1 when b's dispatch ran first.
 */
static int
b_first(struct kt *t, uint32_t pa, uint32_t pb)
{
	struct kt_queue h, a, b;

	queue(t, &h, 0x10000000ULL, 15);
	queue(t, &a, 0x14000000ULL, pa);
	queue(t, &b, 0x18000000ULL, pb);
	dispatch(&h, KD_HOLD, 0, 0);
	/* the holder runs and sleeps: it holds the waves */
	usleep(20000);
	dispatch(&a, KD_TICK, 1, 4);
	dispatch(&b, KD_TICK, 2, 8);
	usleep(20000);
	assert_int_equal(out[0], 0);
	__atomic_store_n(&out[16], 1, __ATOMIC_RELEASE);
	assert_true(retired(&h));
	assert_true(retired(&a));
	assert_true(retired(&b));
	assert_int_equal(out[0], 2);
	return out[2] == 0 && out[1] == 1;
}

static void
test_high_first(void **state)
{
	assert_true(b_first(*state, 1, 12));
}

static void
test_equal_in_order(void **state)
{
	assert_false(b_first(*state, 7, 7));
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_high_first, setup, kt_teardown),
		cmocka_unit_test_setup_teardown(test_equal_in_order, setup, kt_teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

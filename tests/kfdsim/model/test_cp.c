/* SPDX-License-Identifier: MIT */
/*
 * The command processor on the model directly (no ROCr): an AQL queue
 * whose ring, amd_queue_t and signals are userptr BOs at GPU VAs other
 * than their CPU addresses (test_cp.h). Packets retire in order with
 * their signals decremented; every packet kind (PM4 IB vendor packets,
 * whose IB runs, barrier-value vendor packets, barrier-OR, agent
 * dispatch) and profiling timestamps; UPDATE_QUEUE to percentage 0 stops
 * the queue and 100 resumes it; DESTROY_QUEUE with a waiting barrier
 * leaves the ring alone afterwards; bad input (a signal outside the VM,
 * a null kernel object, an unknown packet type) errors only its own
 * queue, with the error bits in the queue-inactive signal; a packet the
 * CP cannot decode also sets the process's HW_EXCEPTION events; a CU
 * mask without a CU of the GPU holds dispatches back. A fork child drops
 * its copy of the parent's engine without touching it, and the parent's
 * queue runs on. The kernels' own cases are test_cp_shader.c's.
 */
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "test_cp.h"

static void
test_retire(void **state)
{
	struct kt *t = *state;
	struct tq q;

	tq_new(t, &q, 0x10000000ULL);
	*tq_sig(&q, 0) = 3 * NPKT;
	/* three laps of the ring */
	for (unsigned int i = 0; i < 3 * NPKT; i++) {
		while (q.wr - tq_rptr(&q) >= NPKT)
			usleep(100);
		if (i % 2)
			tq_put_barrier(&q, 0, tq_sigva(&q, 0));
		else
			tq_put_dispatch(&q, KERNEL_VA, tq_sigva(&q, 0));
	}
	assert_true(tq_reaches(&q, 3 * NPKT));
	assert_int_equal(*tq_sig(&q, 0), 0);
	for (unsigned int i = 0; i < NPKT; i++)
		assert_int_equal(*(uint16_t *)(q.ring + i * 64), 1);
	assert_int_equal(*tq_sig(&q, 63), 0);
}

static void
put_vendor(struct tq *q, uint16_t fmt, uint64_t sig, int64_t value, int64_t mask,
	   uint32_t cond, uint64_t done)
{
	uint8_t b[64] = { 0 };

	memcpy(b + 2, &fmt, 2);
	memcpy(b + 8, &sig, 8);
	memcpy(b + 16, &value, 8);
	memcpy(b + 24, &mask, 8);
	memcpy(b + 32, &cond, 4);
	memcpy(b + 56, &done, 8);
	tq_put(q, 0, b);
}

/*
 * A PM4_IB vendor packet, as ROCr's ExecutePM4 builds it, whose IB (in
 * signal slot 62) has ROCr's ACQUIRE_MEM and a WRITE_DATA of 0x600d into
 * signal 61's value.
 */
static void
put_pm4_ib(struct tq *q, uint64_t done)
{
	uint64_t ib = tq_sigva(q, 62), dst = tq_sigva(q, 61) + 8;
	uint32_t d[12] = { 0xc0055800, 0x28c00000, 0xffffffff, 0xff, 0, 0, 4,
			   0xc0033700, 5u << 8, (uint32_t)dst,
			   (uint32_t)(dst >> 32), 0x600d };
	uint32_t jump[5] = { 0xc0023f00, (uint32_t)ib, (uint32_t)(ib >> 32),
			     12 | 1u << 23, 0 };
	uint8_t b[64] = { 0 };
	uint16_t fmt = 1;

	memcpy(q->sig + 62 * 64, d, sizeof(d));
	memcpy(b + 2, &fmt, 2);
	memcpy(b + 4, jump, sizeof(jump));
	memcpy(b + 56, &done, 8);
	tq_put(q, 0, b);
}

static void
put_or(struct tq *q, uint64_t d0, uint64_t d1, uint64_t done)
{
	uint8_t b[64] = { 0 };

	memcpy(b + 8, &d0, 8);
	memcpy(b + 16, &d1, 8);
	memcpy(b + 56, &done, 8);
	tq_put(q, 5, b);
}

static void
test_kinds(void **state)
{
	struct kt *t = *state;
	uint8_t agent[64] = { 0 };
	uint64_t ts0, ts1;
	struct tq q;

	tq_new(t, &q, 0x10000000ULL);
	*tq_sig(&q, 0) = 100;		/* completions */
	*tq_sig(&q, 1) = 5;		/* barrier-value subject */
	*tq_sig(&q, 2) = 1;		/* OR dependencies */
	*tq_sig(&q, 3) = 0;
	put_pm4_ib(&q, tq_sigva(&q, 0));					/* PM4 IB */
	put_vendor(&q, 2, tq_sigva(&q, 1), 5, -1, 0, tq_sigva(&q, 0));	/* EQ 5 */
	tq_put(&q, 4, agent);						/* agent */
	put_or(&q, tq_sigva(&q, 2), tq_sigva(&q, 3), tq_sigva(&q, 0));		/* one is 0 */
	assert_true(tq_reaches(&q, 4));
	assert_int_equal(*tq_sig(&q, 0), 100 - 3);	/* the agent packet has none */
	assert_int_equal(*tq_sig(&q, 61), 0x600d);	/* the IB ran */
	/* barrier-value LT 3 on 5 (masked 0xff): waits until 2 */
	put_vendor(&q, 2, tq_sigva(&q, 1), 3, 0xff, 2, tq_sigva(&q, 0));
	/* barrier-OR on a non-zero signal and a null handle: waits */
	put_or(&q, tq_sigva(&q, 2), 0, tq_sigva(&q, 0));
	usleep(20000);
	assert_int_equal(tq_rptr(&q), 4);
	__atomic_store_n(tq_sig(&q, 1), 0x102, __ATOMIC_RELEASE);
	assert_true(tq_reaches(&q, 5));
	usleep(20000);
	assert_int_equal(tq_rptr(&q), 5);
	__atomic_store_n(tq_sig(&q, 2), 0, __ATOMIC_RELEASE);
	assert_true(tq_reaches(&q, 6));
	assert_int_equal(*tq_sig(&q, 0), 100 - 5);
	/* profiling (queue property bit 3): start/end from the GPU clock */
	*(uint32_t *)(q.aq + 180) |= 1u << 3;
	tq_put_dispatch(&q, KERNEL_VA, tq_sigva(&q, 4));
	assert_true(tq_reaches(&q, 7));
	memcpy(&ts0, q.sig + 4 * 64 + 32, 8);
	memcpy(&ts1, q.sig + 4 * 64 + 40, 8);
	assert_true(ts0 != 0 && ts1 >= ts0);
	assert_int_equal(*tq_sig(&q, 63), 0);
}

static void
test_update_and_barrier(void **state)
{
	struct kt *t = *state;
	struct kfd_abi_update_queue_args u = { 0 };
	struct tq q;

	tq_new(t, &q, 0x10000000ULL);
	*tq_sig(&q, 0) = 1;		/* dependency, set later */
	*tq_sig(&q, 1) = 1;
	tq_put_barrier(&q, tq_sigva(&q, 0), tq_sigva(&q, 1));
	usleep(20000);
	assert_int_equal(tq_rptr(&q), 0);
	/* percentage 0: stopped, even once the barrier could go */
	u.queue_id = q.qid;
	u.ring_base_address = q.ring_va;
	u.ring_size = RING_SIZE;
	u.queue_percentage = 0;
	assert_int_equal(ksim_ioctl(t->kfd, KFD_ABI_IOC_UPDATE_QUEUE, &u), 0);
	__atomic_store_n(tq_sig(&q, 0), 0, __ATOMIC_RELEASE);
	usleep(20000);
	assert_int_equal(tq_rptr(&q), 0);
	assert_int_equal(*tq_sig(&q, 1), 1);
	/* back to 100: the barrier completes */
	u.queue_percentage = 100;
	assert_int_equal(ksim_ioctl(t->kfd, KFD_ABI_IOC_UPDATE_QUEUE, &u), 0);
	assert_true(tq_reaches(&q, 1));
	assert_int_equal(*tq_sig(&q, 1), 0);
	/* a null ring stops it too */
	u.ring_base_address = 0;
	u.ring_size = 0;
	assert_int_equal(ksim_ioctl(t->kfd, KFD_ABI_IOC_UPDATE_QUEUE, &u), 0);
	*tq_sig(&q, 1) = 1;
	tq_put_dispatch(&q, KERNEL_VA, tq_sigva(&q, 1));
	usleep(20000);
	assert_int_equal(tq_rptr(&q), 1);
	assert_int_equal(*tq_sig(&q, 1), 1);
}

static void
test_destroy_pending(void **state)
{
	struct kt *t = *state;
	struct kfd_abi_destroy_queue_args d = { 0 };
	struct tq q;

	tq_new(t, &q, 0x10000000ULL);
	*tq_sig(&q, 0) = 1;
	*tq_sig(&q, 1) = 1;
	tq_put_barrier(&q, tq_sigva(&q, 0), tq_sigva(&q, 1));
	usleep(5000);
	d.queue_id = q.qid;
	assert_int_equal(ksim_ioctl(t->kfd, KFD_ABI_IOC_DESTROY_QUEUE, &d), 0);
	/* satisfied after the destroy: nobody may retire it now */
	__atomic_store_n(tq_sig(&q, 0), 0, __ATOMIC_RELEASE);
	usleep(20000);
	assert_int_equal(tq_rptr(&q), 0);
	assert_int_equal(*tq_sig(&q, 1), 1);
	assert_int_equal(*(uint16_t *)q.ring, 3 | 1 << 8);
}

static void
test_errors(void **state)
{
	struct kt *t = *state;
	struct tq a, b, c, d, ok;
	uint8_t body[64] = { 0 };
	uint32_t hw = kt_event_new(t, KFD_ABI_EVENT_HW_EXCEPTION);
	uint32_t mem = kt_event_new(t, KFD_ABI_EVENT_MEMORY);
	struct kfd_abi_event_data ed;

	tq_new(t, &a, 0x10000000ULL);
	tq_new(t, &b, 0x11000000ULL);
	tq_new(t, &c, 0x12000000ULL);
	tq_new(t, &ok, 0x13000000ULL);
	/* b: null kernel object; its signal stays */
	*tq_sig(&b, 0) = 1;
	tq_put_dispatch(&b, 0, tq_sigva(&b, 0));
	assert_true(tq_inactive(&b, 8));
	assert_int_equal(tq_rptr(&b), 0);
	assert_int_equal(*tq_sig(&b, 0), 1);
	/* it raised no CP_BAD_OPCODE */
	assert_int_equal(kt_wait_event(t, hw, 0, NULL), KFD_ABI_WAIT_RESULT_TIMEOUT);
	/* c: unknown packet type 9, a bad opcode: HW_EXCEPTION events too */
	tq_put(&c, 9, body);
	assert_true(tq_inactive(&c, 32));
	assert_int_equal(kt_wait_event(t, hw, 5000, NULL), KFD_ABI_WAIT_RESULT_COMPLETE);
	/* d: unsupported vendor format 7 */
	tq_new(t, &d, 0x14000000ULL);
	put_vendor(&d, 7, 0, 0, 0, 0, 0);
	assert_true(tq_inactive(&d, 256));
	/* a queue in error stays stopped */
	tq_put_barrier(&b, 0, 0);
	usleep(20000);
	assert_int_equal(tq_rptr(&b), 0);
	/* the others are untouched and the healthy queue still runs */
	*tq_sig(&ok, 0) = 1;
	tq_put_dispatch(&ok, KERNEL_VA, tq_sigva(&ok, 0));
	assert_true(tq_reaches(&ok, 1));
	assert_int_equal(*tq_sig(&ok, 0), 0);
	assert_int_equal(*tq_sig(&ok, 63), 0);
	assert_int_equal(*tq_sig(&b, 63), 8);
	assert_int_equal(*tq_sig(&c, 63), 32);
	assert_int_equal(kt_wait_event(t, mem, 0, NULL), KFD_ABI_WAIT_RESULT_TIMEOUT);
	/*
	 * a: a completion signal outside any mapping is a VM fault: the
	 * queue-inactive error, the MEMORY event with the page, and every
	 * queue of the GPU evicted.
	 */
	tq_put_barrier(&a, 0, WILD_VA + 0x10);
	assert_true(tq_inactive(&a, 0x20000000));
	assert_int_equal(tq_rptr(&a), 0);
	assert_int_equal(kt_wait_event(t, mem, 5000, &ed), KFD_ABI_WAIT_RESULT_COMPLETE);
	assert_int_equal(ed.memory_exception_data.va, WILD_VA);
	assert_int_equal(ed.memory_exception_data.gpu_id, t->gpu_id[0]);
	assert_int_equal(ed.memory_exception_data.failure.NotPresent, 1);
	*tq_sig(&ok, 1) = 1;
	tq_put_dispatch(&ok, KERNEL_VA, tq_sigva(&ok, 1));
	usleep(20000);
	assert_int_equal(tq_rptr(&ok), 1);
	assert_int_equal(*tq_sig(&ok, 1), 1);
}

static int
set_cu_mask(struct kt *t, const struct tq *q, const uint32_t *mask,
	    uint32_t bits)
{
	struct kfd_abi_set_cu_mask_args a = { 0 };

	a.queue_id = q->qid;
	a.num_cu_mask = bits;
	a.cu_mask_ptr = (uintptr_t)mask;
	return ksim_ioctl(t->kfd, KFD_ABI_IOC_SET_CU_MASK, &a);
}

/*
 * The CU mask is kept: one that enables no CU of the GPU (bits past its
 * 104 CUs mean nothing) leaves a dispatch nowhere to run, also after an
 * UPDATE_QUEUE, until a mask with a CU lets it complete.
 */
static void
test_cu_mask(void **state)
{
	struct kt *t = *state;
	struct kfd_abi_update_queue_args u = { 0 };
	uint32_t none[8] = { 0, 0, 0, 0, 0xffffffff, 0, 0, 0 }, cu7[8] = { 1u << 7 };
	struct tq q;

	tq_new(t, &q, 0x10000000ULL);
	*tq_sig(&q, 0) = 2;
	assert_int_equal(set_cu_mask(t, &q, none, 256), 0);
	tq_put_dispatch(&q, KERNEL_VA, tq_sigva(&q, 0));
	usleep(20000);
	assert_int_equal(tq_rptr(&q), 0);
	u.queue_id = q.qid;
	u.ring_base_address = q.ring_va;
	u.ring_size = RING_SIZE;
	u.queue_percentage = 100;
	u.queue_priority = 9;
	assert_int_equal(ksim_ioctl(t->kfd, KFD_ABI_IOC_UPDATE_QUEUE, &u), 0);
	usleep(20000);
	assert_int_equal(tq_rptr(&q), 0);
	assert_int_equal(set_cu_mask(t, &q, cu7, 32), 0);
	assert_true(tq_reaches(&q, 1));
	tq_put_dispatch(&q, KERNEL_VA, tq_sigva(&q, 0));
	assert_true(tq_reaches(&q, 2));
	assert_int_equal(*tq_sig(&q, 0), 0);
}

static void
test_fork(void **state)
{
	struct kt *t = *state;
	struct tq q;
	pid_t pid;
	int st;

	tq_new(t, &q, 0x10000000ULL);
	*tq_sig(&q, 0) = 2;
	tq_put_dispatch(&q, KERNEL_VA, tq_sigva(&q, 0));
	assert_true(tq_reaches(&q, 1));
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		int err = 0;
		struct ksim_file *f = ksim_open_kfd(t->dev, 0, &err);

		/* The open dropped the parent's process state here. */
		_exit(f && !err ? 0 : 1);
	}
	assert_int_equal(waitpid(pid, &st, 0), pid);
	assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	tq_put_dispatch(&q, KERNEL_VA, tq_sigva(&q, 0));
	assert_true(tq_reaches(&q, 2));
	assert_int_equal(*tq_sig(&q, 0), 0);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_retire, tq_setup_mi210, kt_teardown),
		cmocka_unit_test_setup_teardown(test_shader, tq_setup_mi210, kt_teardown),
		cmocka_unit_test_setup_teardown(test_shader_gfx942, tq_setup_mi300x, kt_teardown),
		cmocka_unit_test_setup_teardown(test_shader, tq_setup_mi100, kt_teardown),
		cmocka_unit_test_setup_teardown(test_shader_gfx908, tq_setup_mi100, kt_teardown),
		cmocka_unit_test_setup_teardown(test_shader_wave32, tq_setup_rx6900xt, kt_teardown),
		cmocka_unit_test_setup_teardown(test_shader_wait, tq_setup_mi210, kt_teardown),
		cmocka_unit_test_setup_teardown(test_shader_msg, tq_setup_mi210, kt_teardown),
		cmocka_unit_test_setup_teardown(test_shader_trap, tq_setup_mi210, kt_teardown),
		cmocka_unit_test_setup_teardown(test_shader_trap, tq_setup_mi300x, kt_teardown),
		cmocka_unit_test_setup_teardown(test_shader_trap_gfx10, tq_setup_rx6900xt, kt_teardown),
		cmocka_unit_test_setup_teardown(test_kinds, tq_setup_mi210, kt_teardown),
		cmocka_unit_test_setup_teardown(test_update_and_barrier, tq_setup_mi210, kt_teardown),
		cmocka_unit_test_setup_teardown(test_destroy_pending, tq_setup_mi210, kt_teardown),
		cmocka_unit_test_setup_teardown(test_errors, tq_setup_mi210, kt_teardown),
		cmocka_unit_test_setup_teardown(test_cu_mask, tq_setup_mi210, kt_teardown),
		cmocka_unit_test_setup_teardown(test_fork, tq_setup_mi210, kt_teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

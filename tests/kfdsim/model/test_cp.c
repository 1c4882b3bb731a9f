/* SPDX-License-Identifier: MIT */
/*
 * The command processor on the model directly (no ROCr): an AQL queue
 * whose ring, amd_queue_t and signals are userptr BOs at GPU VAs other
 * than their CPU addresses. Packets retire in order with their signals
 * decremented; every packet kind (PM4 IB vendor packets, whose IB runs,
 * barrier-value vendor packets, barrier-OR, agent dispatch) and profiling timestamps; UPDATE_QUEUE to
 * percentage 0 stops the queue and 100
 * resumes it; DESTROY_QUEUE with a waiting barrier leaves the ring alone
 * afterwards; bad input (a signal outside the VM, a null kernel object,
 * an unknown packet type) errors only its own queue, with the error bits
 * in the queue-inactive signal; a packet the CP cannot decode also sets
 * the process's HW_EXCEPTION events; a CU mask without a CU of the GPU
 * holds dispatches back. A fork child drops its copy of the
 * parent's engine without touching it, and the parent's queue runs on.
 * Dispatches run their kernel (gfx90a): its stores land, and an
 * instruction the interpreter lacks stops the queue as illegal. A wave
 * that sleeps while it polls host memory lets ioctls run and holds other
 * queues' dispatches until the host answers; s_sendmsg MSG_INTERRUPT
 * sets the event M0 names; s_trap 2 halts the dispatch for good without
 * a trap handler and stops its queue with the debug-trap bit with one,
 * while s_trap 3 is a no-op.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "ktest.h"

#define RING_SIZE	4096u		/* 64 packets */
#define NPKT		(RING_SIZE / 64)
#define EOP_VA		0x30000000ULL
#define CWSR_VA		0x40000000ULL
#define WILD_VA		0x7000000000ULL	/* in no mapping */
#define KERNEL_VA	0x50000000ULL	/* the kernel every dispatch runs */
#define OUT_VA		0x51000000ULL	/* what test_shader's kernel writes */

static uint8_t *kern;			/* KERNEL_VA's page */

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

static volatile uint64_t *doorbells;

/* The first GPU node (mi300x has two CPU nodes before it). */
static const struct ksim_node *
first_gpu_node(const struct kt *t)
{
	for (unsigned int n = 0; n < t->prof->n_nodes; n++)
		if (ksim_node_is_gpu(&t->prof->nodes[n]))
			return &t->prof->nodes[n];
	return NULL;
}

static const struct ksim_gpu *
first_gpu(const struct kt *t)
{
	return first_gpu_node(t)->gpu;
}

static void
queue_new(struct kt *t, struct tq *q, uint64_t base)
{
	const struct ksim_gpu *g = first_gpu(t);
	struct kfd_abi_create_queue_args a;
	int err;

	memset(q, 0, sizeof(*q));
	q->ring_va = base;
	q->aq_va = base + 0x100000;
	q->sig_va = base + 0x200000;
	q->ring = kt_userptr_mapped(t, 0, q->ring_va, RING_SIZE);
	q->aq = kt_userptr_mapped(t, 0, q->aq_va, 4096);
	q->sig = kt_userptr_mapped(t, 0, q->sig_va, 4096);
	for (unsigned int i = 0; i < NPKT; i++)
		*(uint16_t *)(q->ring + i * 64) = 1;	/* INVALID */
	/* queue_inactive_signal: signal 63 */
	*(uint64_t *)(q->aq + 192) = q->sig_va + 63 * 64;
	memset(&a, 0, sizeof(a));
	a.ring_base_address = q->ring_va;
	a.ring_size = RING_SIZE;
	a.read_pointer_address = q->aq_va + 128;
	a.write_pointer_address = q->aq_va + 56;
	a.gpu_id = t->gpu_id[0];
	a.queue_type = KFD_ABI_QUEUE_TYPE_COMPUTE_AQL;
	a.queue_percentage = 100;
	a.eop_buffer_address = EOP_VA;
	a.eop_buffer_size = g->eop_buffer_size;
	a.ctx_save_restore_address = CWSR_VA;
	a.ctx_save_restore_size = g->cwsr_size;
	a.ctl_stack_size = g->ctl_stack_size;
	assert_int_equal(ksim_ioctl(t->kfd, KFD_ABI_IOC_CREATE_QUEUE, &a), 0);
	q->qid = a.queue_id;
	if (!doorbells) {
		doorbells = kt_cpu_map(t->kfd, a.doorbell_offset & ~0x1fffULL, 8192, &err);
		assert_non_null((void *)doorbells);
	}
	q->doorbell = doorbells + (a.doorbell_offset & 0x1fff) / 8;
}

static uint64_t
sigva(const struct tq *q, unsigned int i)
{
	return q->sig_va + (uint64_t)i * 64;
}

static int64_t *
sigval(const struct tq *q, unsigned int i)
{
	return (int64_t *)(q->sig + i * 64 + 8);
}

static uint64_t
rptr(const struct tq *q)
{
	return __atomic_load_n((uint64_t *)(q->aq + 128), __ATOMIC_ACQUIRE);
}

/* Publish one packet (header last) and ring the doorbell. */
static void
put(struct tq *q, uint16_t hdr, const uint8_t body[64])
{
	uint8_t *slot = q->ring + (q->wr % NPKT) * 64;

	memcpy(slot + 2, body + 2, 62);
	__atomic_store_n((uint64_t *)(q->aq + 56), q->wr + 1, __ATOMIC_RELEASE);
	__atomic_store_n((uint16_t *)slot, hdr, __ATOMIC_RELEASE);
	__atomic_store_n(q->doorbell, q->wr, __ATOMIC_RELEASE);
	q->wr++;
}

/* A dispatch of 64 work-items with kernel arguments at @kernarg. */
static void
put_kernel(struct tq *q, uint64_t kobj, uint64_t kernarg, uint64_t done)
{
	uint8_t b[64] = { 0 };
	uint16_t setup = 1, wg = 64, one = 1;
	uint32_t grid = 64, grid1 = 1;

	memcpy(b + 2, &setup, 2);
	memcpy(b + 4, &wg, 2);
	memcpy(b + 6, &one, 2);
	memcpy(b + 8, &one, 2);
	memcpy(b + 12, &grid, 4);
	memcpy(b + 16, &grid1, 4);
	memcpy(b + 20, &grid1, 4);
	memcpy(b + 32, &kobj, 8);
	memcpy(b + 40, &kernarg, 8);
	memcpy(b + 56, &done, 8);
	put(q, 2, b);
}

static void
put_dispatch(struct tq *q, uint64_t kobj, uint64_t done)
{
	put_kernel(q, kobj, 0, done);
}

static void
put_barrier(struct tq *q, uint64_t dep, uint64_t done)
{
	uint8_t b[64] = { 0 };

	memcpy(b + 8, &dep, 8);
	memcpy(b + 56, &done, 8);
	put(q, 3 | 1 << 8, b);
}

/* Wait (up to 5 s) until the read index reaches @want. */
static int
reaches(const struct tq *q, uint64_t want)
{
	return kt_reaches((const uint64_t *)(q->aq + 128), want);
}

static int
inactive_bits(const struct tq *q, int64_t bits)
{
	for (int i = 0; i < 5000; i++) {
		if (__atomic_load_n(sigval(q, 63), __ATOMIC_ACQUIRE) & bits)
			return 1;
		usleep(1000);
	}
	return 0;
}

static int
setup_on(void **state, const char *profile)
{
	static const unsigned int g0 = 0;
	static const uint32_t endpgm = 0xbf810000;
	const int64_t entry = 256;
	struct kt *t = calloc(1, sizeof(*t));
	const struct ksim_gpu *g;

	doorbells = NULL;
	if (!t || kt_open(t, profile, 0)) {
		free(t);
		return -1;
	}
	*state = t;
	if (kt_acquire_all(t))
		return -1;
	g = first_gpu(t);
	kt_vram_mapped(t, 0, EOP_VA, 4096, &g0, 1);
	/* one save area per XCC (mi300x has 8) */
	kt_vram_mapped(t, 0, CWSR_VA, (((uint64_t)g->cwsr_size + g->debug_memory_size) *
		       first_gpu_node(t)->props[KSIM_NP_NUM_XCC] + 4095) & ~4095ULL, &g0, 1);
	/* one wave of s_endpgm: a kernel descriptor, zero but for the entry
	 * offset, and the code 256 bytes on */
	kern = kt_userptr_mapped(t, 0, KERNEL_VA, 4096);
	memset(kern, 0, 4096);
	memcpy(kern + 16, &entry, 8);
	memcpy(kern + entry, &endpgm, 4);
	return 0;
}

/*
 * Kernels run (gfx90a): one that loads its output pointer from the
 * kernarg segment and stores v0 + 7 for each of its 64 work-items, and one
 * with an instruction the interpreter lacks (image_load), which stops its
 * queue with the illegal-instruction error and leaves its signal.
 */
static void
test_shader(void **state)
{
	static const uint32_t store[] = {
		0xc0060080, 0x00000000,	/* s_load_dwordx2 s[2:3], s[0:1], 0x0 */
		0xbf8cc07f,		/* s_waitcnt lgkmcnt(0) */
		0x24020082,		/* v_lshlrev_b32_e32 v1, 2, v0 */
		0x68040087,		/* v_add_u32_e32 v2, 7, v0 */
		0xdc708000, 0x00020201,	/* global_store_dword v1, v2, s[2:3] */
		0xbf810000,		/* s_endpgm */
	};
	static const uint32_t illegal[] = {
		/* image_load v[0:3], v18, s[8:15] dmask:0xf unorm da */
		0xf0005f00, 0x00020012,
		0xbf810000,
	};
	const int64_t entry = 256;
	const uint32_t rsrc2 = 2 << 1;	/* two user SGPRs */
	const uint16_t props = 1 << 3;	/* the kernarg segment pointer */
	const uint64_t out_va = OUT_VA, kd = KERNEL_VA + 1024, bad = KERNEL_VA + 3072;
	uint64_t kernarg = KERNEL_VA + 2048;
	struct kt *t = *state;
	struct tq q, e;
	uint32_t *out;

	memcpy(kern + 1024 + 16, &entry, 8);
	memcpy(kern + 1024 + 52, &rsrc2, 4);
	memcpy(kern + 1024 + 56, &props, 2);
	memcpy(kern + 1024 + entry, store, sizeof(store));
	memcpy(kern + 2048, &out_va, 8);
	memcpy(kern + 3072 + 16, &entry, 8);
	memcpy(kern + 3072 + entry, illegal, sizeof(illegal));
	out = (uint32_t *)kt_userptr_mapped(t, 0, OUT_VA, 4096);
	memset(out, 0xff, 4096);
	queue_new(t, &q, 0x10000000ULL);
	*sigval(&q, 0) = 1;
	put_kernel(&q, kd, kernarg, sigva(&q, 0));
	assert_true(reaches(&q, 1));
	assert_int_equal(*sigval(&q, 0), 0);
	for (unsigned int i = 0; i < 64; i++)
		assert_int_equal(out[i], i + 7);
	assert_int_equal(out[64], 0xffffffffu);

	queue_new(t, &e, 0x11000000ULL);
	*sigval(&e, 0) = 1;
	put_dispatch(&e, bad, sigva(&e, 0));
	assert_true(inactive_bits(&e, 0x40000000));
	assert_int_equal(rptr(&e), 0);
	assert_int_equal(*sigval(&e, 0), 1);
}

static int
setup(void **state)
{
	return setup_on(state, "mi210");
}

static int
setup_mi300x(void **state)
{
	return setup_on(state, "mi300x");
}

/*
 * A gfx942 kernel on mi300x, with the instructions gfx942 has and gfx90a
 * lacks: each of 64 work-items i stores the floats i * i + 1
 * (v_fmaak_f32) and 2i + 1 (v_fmamk_f32), moved as a pair (v_mov_b64), at
 * out + 8i (v_lshl_add_u64), with gfx942's sc0 sc1 bits on the store.
 */
static void
test_shader_gfx942(void **state)
{
	static const uint32_t code[] = {
		0xc0060080, 0x00000000,	/* s_load_dwordx2 s[2:3], s[0:1], 0x0 */
		0xbf8cc07f,		/* s_waitcnt lgkmcnt(0) */
		0x7e040d00,		/* v_cvt_f32_u32_e32 v2, v0 */
		0x7e1802f2,		/* v_mov_b32_e32 v12, 1.0 */
		0x2e061902, 0x40000000,	/* v_fmamk_f32 v3, v2, 0x40000000, v12 */
		0x30080502, 0x3f800000,	/* v_fmaak_f32 v4, v2, v2, 0x3f800000 */
		0x7e0a0303,		/* v_mov_b32_e32 v5, v3 */
		0x7e0c7104,		/* v_mov_b64_e32 v[6:7], v[4:5] */
		0x7e140300,		/* v_mov_b32_e32 v10, v0 */
		0x7e160280,		/* v_mov_b32_e32 v11, 0 */
		0xd2080008, 0x0009070a,	/* v_lshl_add_u64 v[8:9], v[10:11], 3, s[2:3] */
		0xde758000, 0x007f0608,	/* global_store_dwordx2 v[8:9], v[6:7], off sc0 sc1 */
		0xbf810000,		/* s_endpgm */
	};
	const int64_t entry = 256;
	const uint32_t rsrc2 = 2 << 1;	/* two user SGPRs */
	const uint16_t props = 1 << 3;	/* the kernarg segment pointer */
	const uint64_t out_va = OUT_VA, kd = KERNEL_VA + 1024;
	uint64_t kernarg = KERNEL_VA + 2048;
	struct kt *t = *state;
	struct tq q;
	float *out;

	memcpy(kern + 1024 + 16, &entry, 8);
	memcpy(kern + 1024 + 52, &rsrc2, 4);
	memcpy(kern + 1024 + 56, &props, 2);
	memcpy(kern + 1024 + entry, code, sizeof(code));
	memcpy(kern + 2048, &out_va, 8);
	out = (float *)kt_userptr_mapped(t, 0, OUT_VA, 4096);
	memset(out, 0xff, 4096);
	queue_new(t, &q, 0x10000000ULL);
	*sigval(&q, 0) = 1;
	put_kernel(&q, kd, kernarg, sigva(&q, 0));
	assert_true(reaches(&q, 1));
	assert_int_equal(*sigval(&q, 0), 0);
	for (unsigned int i = 0; i < 64; i++) {
		assert_true(out[2 * i] == (float)(i * i + 1));
		assert_true(out[2 * i + 1] == (float)(2 * i + 1));
	}
}

static int
setup_mi100(void **state)
{
	return setup_on(state, "mi100");
}

/*
 * gfx908 on mi100: test_shader's kernel runs there too (its own test);
 * v_pk_mov_b32, gfx90a's packed f32 move, is not gfx908's and stops the
 * queue with the illegal-instruction error.
 */
static void
test_shader_gfx908(void **state)
{
	static const uint32_t pk_mov[] = {
		0xd3b34002, 0x18020100,	/* v_pk_mov_b32 v[2:3], v[0:1], v[0:1] */
		0xbf810000,		/* s_endpgm */
	};
	const int64_t entry = 256;
	const uint64_t kd = KERNEL_VA + 1024;
	struct kt *t = *state;
	struct tq q;

	memcpy(kern + 1024 + 16, &entry, 8);
	memcpy(kern + 1024 + entry, pk_mov, sizeof(pk_mov));
	queue_new(t, &q, 0x10000000ULL);
	*sigval(&q, 0) = 1;
	put_dispatch(&q, kd, sigva(&q, 0));
	assert_true(inactive_bits(&q, 0x40000000));
	assert_int_equal(rptr(&q), 0);
	assert_int_equal(*sigval(&q, 0), 1);
}

static int
setup_rx6900xt(void **state)
{
	return setup_on(state, "rx6900xt");
}

/*
 * A gfx1030 wave32 kernel on rx6900xt: 64 work-items run as two waves of
 * 32, with one-SGPR lane masks. Work-item i stores i when i < 16 (v_cmpx
 * narrows exec_lo), else 7, plus 100 when i > 40 (s_and_saveexec_b32);
 * the address is a 64-bit add through vcc_lo (v_add_co_u32,
 * v_add_co_ci_u32). gfx10 keeps the work-item id in v0 unpacked.
 */
static void
test_shader_wave32(void **state)
{
	static const uint32_t code[] = {
		0xf4040080, 0xfa000000,	/* s_load_dwordx2 s[2:3], s[0:1], 0x0 */
		0xbf8cc07f,		/* s_waitcnt lgkmcnt(0) */
		0x34020082,		/* v_lshlrev_b32_e32 v1, 2, v0 */
		0x7e080203,		/* v_mov_b32_e32 v4, s3 */
		0xd70f6a02, 0x00020202,	/* v_add_co_u32 v2, vcc_lo, s2, v1 */
		0x50060880,		/* v_add_co_ci_u32_e32 v3, vcc_lo, 0, v4, vcc_lo */
		0x7e0a0287,		/* v_mov_b32_e32 v5, 7 */
		0xbe84037e,		/* s_mov_b32 s4, exec_lo */
		0x7da80090,		/* v_cmpx_gt_u32_e32 16, v0 */
		0x7e0a0300,		/* v_mov_b32_e32 v5, v0 */
		0xbefe0304,		/* s_mov_b32 exec_lo, s4 */
		0x7d8200a8,		/* v_cmp_lt_u32_e32 vcc_lo, 40, v0 */
		0xbe853c6a,		/* s_and_saveexec_b32 s5, vcc_lo */
		0x4a0a0aff, 0x00000064,	/* v_add_nc_u32_e32 v5, 0x64, v5 */
		0xbefe0305,		/* s_mov_b32 exec_lo, s5 */
		0xdc708000, 0x007d0502,	/* global_store_dword v[2:3], v5, off */
		0xbf810000,		/* s_endpgm */
	};
	const int64_t entry = 256;
	const uint32_t rsrc2 = 2 << 1;	/* two user SGPRs */
	/* the kernarg segment pointer; wave32 */
	const uint16_t props = 1 << 3 | 1 << 10;
	const uint64_t out_va = OUT_VA, kd = KERNEL_VA + 1024;
	uint64_t kernarg = KERNEL_VA + 2048;
	struct kt *t = *state;
	struct tq q;
	uint32_t *out;

	memcpy(kern + 1024 + 16, &entry, 8);
	memcpy(kern + 1024 + 52, &rsrc2, 4);
	memcpy(kern + 1024 + 56, &props, 2);
	memcpy(kern + 1024 + entry, code, sizeof(code));
	memcpy(kern + 2048, &out_va, 8);
	out = (uint32_t *)kt_userptr_mapped(t, 0, OUT_VA, 4096);
	memset(out, 0xff, 4096);
	queue_new(t, &q, 0x10000000ULL);
	*sigval(&q, 0) = 1;
	put_kernel(&q, kd, kernarg, sigva(&q, 0));
	assert_true(reaches(&q, 1));
	assert_int_equal(*sigval(&q, 0), 0);
	for (unsigned int i = 0; i < 64; i++)
		assert_int_equal(out[i], i < 16 ? i : i > 40 ? 107 : 7);
	assert_int_equal(out[64], 0xffffffffu);
}

static void
test_retire(void **state)
{
	struct kt *t = *state;
	struct tq q;

	queue_new(t, &q, 0x10000000ULL);
	*sigval(&q, 0) = 3 * NPKT;
	/* three laps of the ring */
	for (unsigned int i = 0; i < 3 * NPKT; i++) {
		while (q.wr - rptr(&q) >= NPKT)
			usleep(100);
		if (i % 2)
			put_barrier(&q, 0, sigva(&q, 0));
		else
			put_dispatch(&q, KERNEL_VA, sigva(&q, 0));
	}
	assert_true(reaches(&q, 3 * NPKT));
	assert_int_equal(*sigval(&q, 0), 0);
	for (unsigned int i = 0; i < NPKT; i++)
		assert_int_equal(*(uint16_t *)(q.ring + i * 64), 1);
	assert_int_equal(*sigval(&q, 63), 0);
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
	put(q, 0, b);
}

/*
 * A PM4_IB vendor packet, as ROCr's ExecutePM4 builds it, whose IB (in
 * signal slot 62) has ROCr's ACQUIRE_MEM and a WRITE_DATA of 0x600d into
 * signal 61's value.
 */
static void
put_pm4_ib(struct tq *q, uint64_t done)
{
	uint64_t ib = sigva(q, 62), dst = sigva(q, 61) + 8;
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
	put(q, 0, b);
}

static void
put_or(struct tq *q, uint64_t d0, uint64_t d1, uint64_t done)
{
	uint8_t b[64] = { 0 };

	memcpy(b + 8, &d0, 8);
	memcpy(b + 16, &d1, 8);
	memcpy(b + 56, &done, 8);
	put(q, 5, b);
}

static void
test_kinds(void **state)
{
	struct kt *t = *state;
	uint8_t agent[64] = { 0 };
	uint64_t ts0, ts1;
	struct tq q;

	queue_new(t, &q, 0x10000000ULL);
	*sigval(&q, 0) = 100;		/* completions */
	*sigval(&q, 1) = 5;		/* barrier-value subject */
	*sigval(&q, 2) = 1;		/* OR dependencies */
	*sigval(&q, 3) = 0;
	put_pm4_ib(&q, sigva(&q, 0));					/* PM4 IB */
	put_vendor(&q, 2, sigva(&q, 1), 5, -1, 0, sigva(&q, 0));	/* EQ 5 */
	put(&q, 4, agent);						/* agent */
	put_or(&q, sigva(&q, 2), sigva(&q, 3), sigva(&q, 0));		/* one is 0 */
	assert_true(reaches(&q, 4));
	assert_int_equal(*sigval(&q, 0), 100 - 3);	/* the agent packet has none */
	assert_int_equal(*sigval(&q, 61), 0x600d);	/* the IB ran */
	/* barrier-value LT 3 on 5 (masked 0xff): waits until 2 */
	put_vendor(&q, 2, sigva(&q, 1), 3, 0xff, 2, sigva(&q, 0));
	/* barrier-OR on a non-zero signal and a null handle: waits */
	put_or(&q, sigva(&q, 2), 0, sigva(&q, 0));
	usleep(20000);
	assert_int_equal(rptr(&q), 4);
	__atomic_store_n(sigval(&q, 1), 0x102, __ATOMIC_RELEASE);
	assert_true(reaches(&q, 5));
	usleep(20000);
	assert_int_equal(rptr(&q), 5);
	__atomic_store_n(sigval(&q, 2), 0, __ATOMIC_RELEASE);
	assert_true(reaches(&q, 6));
	assert_int_equal(*sigval(&q, 0), 100 - 5);
	/* profiling (queue property bit 3): start/end from the GPU clock */
	*(uint32_t *)(q.aq + 180) |= 1u << 3;
	put_dispatch(&q, KERNEL_VA, sigva(&q, 4));
	assert_true(reaches(&q, 7));
	memcpy(&ts0, q.sig + 4 * 64 + 32, 8);
	memcpy(&ts1, q.sig + 4 * 64 + 40, 8);
	assert_true(ts0 != 0 && ts1 >= ts0);
	assert_int_equal(*sigval(&q, 63), 0);
}

static void
test_update_and_barrier(void **state)
{
	struct kt *t = *state;
	struct kfd_abi_update_queue_args u = { 0 };
	struct tq q;

	queue_new(t, &q, 0x10000000ULL);
	*sigval(&q, 0) = 1;		/* dependency, set later */
	*sigval(&q, 1) = 1;
	put_barrier(&q, sigva(&q, 0), sigva(&q, 1));
	usleep(20000);
	assert_int_equal(rptr(&q), 0);
	/* percentage 0: stopped, even once the barrier could go */
	u.queue_id = q.qid;
	u.ring_base_address = q.ring_va;
	u.ring_size = RING_SIZE;
	u.queue_percentage = 0;
	assert_int_equal(ksim_ioctl(t->kfd, KFD_ABI_IOC_UPDATE_QUEUE, &u), 0);
	__atomic_store_n(sigval(&q, 0), 0, __ATOMIC_RELEASE);
	usleep(20000);
	assert_int_equal(rptr(&q), 0);
	assert_int_equal(*sigval(&q, 1), 1);
	/* back to 100: the barrier completes */
	u.queue_percentage = 100;
	assert_int_equal(ksim_ioctl(t->kfd, KFD_ABI_IOC_UPDATE_QUEUE, &u), 0);
	assert_true(reaches(&q, 1));
	assert_int_equal(*sigval(&q, 1), 0);
	/* a null ring stops it too */
	u.ring_base_address = 0;
	u.ring_size = 0;
	assert_int_equal(ksim_ioctl(t->kfd, KFD_ABI_IOC_UPDATE_QUEUE, &u), 0);
	*sigval(&q, 1) = 1;
	put_dispatch(&q, KERNEL_VA, sigva(&q, 1));
	usleep(20000);
	assert_int_equal(rptr(&q), 1);
	assert_int_equal(*sigval(&q, 1), 1);
}

static void
test_destroy_pending(void **state)
{
	struct kt *t = *state;
	struct kfd_abi_destroy_queue_args d = { 0 };
	struct tq q;

	queue_new(t, &q, 0x10000000ULL);
	*sigval(&q, 0) = 1;
	*sigval(&q, 1) = 1;
	put_barrier(&q, sigva(&q, 0), sigva(&q, 1));
	usleep(5000);
	d.queue_id = q.qid;
	assert_int_equal(ksim_ioctl(t->kfd, KFD_ABI_IOC_DESTROY_QUEUE, &d), 0);
	/* satisfied after the destroy: nobody may retire it now */
	__atomic_store_n(sigval(&q, 0), 0, __ATOMIC_RELEASE);
	usleep(20000);
	assert_int_equal(rptr(&q), 0);
	assert_int_equal(*sigval(&q, 1), 1);
	assert_int_equal(*(uint16_t *)q.ring, 3 | 1 << 8);
}

/* WAIT_EVENTS on the one event @id for up to @ms: its wait_result. */
static uint32_t
wait_hw(struct kt *t, uint32_t id, uint32_t ms)
{
	struct kfd_abi_event_data ed = { .event_id = id };
	struct kfd_abi_wait_events_args w = { 0 };

	w.events_ptr = (uintptr_t)&ed;
	w.num_events = 1;
	w.timeout = ms;
	assert_int_equal(ksim_ioctl(t->kfd, KFD_ABI_IOC_WAIT_EVENTS, &w), 0);
	return w.wait_result;
}

static void
test_errors(void **state)
{
	struct kt *t = *state;
	struct tq a, b, c, d, ok;
	uint8_t body[64] = { 0 };
	struct kfd_abi_create_event_args hw = { .event_type = KFD_ABI_EVENT_HW_EXCEPTION };
	struct kfd_abi_create_event_args mem = { .event_type = KFD_ABI_EVENT_MEMORY };
	struct kfd_abi_event_data ed = { 0 };
	struct kfd_abi_wait_events_args w = { 0 };

	assert_int_equal(ksim_ioctl(t->kfd, KFD_ABI_IOC_CREATE_EVENT, &hw), 0);
	assert_int_equal(ksim_ioctl(t->kfd, KFD_ABI_IOC_CREATE_EVENT, &mem), 0);
	queue_new(t, &a, 0x10000000ULL);
	queue_new(t, &b, 0x11000000ULL);
	queue_new(t, &c, 0x12000000ULL);
	queue_new(t, &ok, 0x13000000ULL);
	/* b: null kernel object; its signal stays */
	*sigval(&b, 0) = 1;
	put_dispatch(&b, 0, sigva(&b, 0));
	assert_true(inactive_bits(&b, 8));
	assert_int_equal(rptr(&b), 0);
	assert_int_equal(*sigval(&b, 0), 1);
	/* it raised no CP_BAD_OPCODE */
	assert_int_equal(wait_hw(t, hw.event_id, 0), KFD_ABI_WAIT_RESULT_TIMEOUT);
	/* c: unknown packet type 9, a bad opcode: HW_EXCEPTION events too */
	put(&c, 9, body);
	assert_true(inactive_bits(&c, 32));
	assert_int_equal(wait_hw(t, hw.event_id, 5000), KFD_ABI_WAIT_RESULT_COMPLETE);
	/* d: unsupported vendor format 7 */
	queue_new(t, &d, 0x14000000ULL);
	put_vendor(&d, 7, 0, 0, 0, 0, 0);
	assert_true(inactive_bits(&d, 256));
	/* a queue in error stays stopped */
	put_barrier(&b, 0, 0);
	usleep(20000);
	assert_int_equal(rptr(&b), 0);
	/* the others are untouched and the healthy queue still runs */
	*sigval(&ok, 0) = 1;
	put_dispatch(&ok, KERNEL_VA, sigva(&ok, 0));
	assert_true(reaches(&ok, 1));
	assert_int_equal(*sigval(&ok, 0), 0);
	assert_int_equal(*sigval(&ok, 63), 0);
	assert_int_equal(*sigval(&b, 63), 8);
	assert_int_equal(*sigval(&c, 63), 32);
	assert_int_equal(wait_hw(t, mem.event_id, 0), KFD_ABI_WAIT_RESULT_TIMEOUT);
	/*
	 * a: a completion signal outside any mapping is a VM fault: the
	 * queue-inactive error, the MEMORY event with the page, and every
	 * queue of the GPU evicted.
	 */
	put_barrier(&a, 0, WILD_VA + 0x10);
	assert_true(inactive_bits(&a, 0x20000000));
	assert_int_equal(rptr(&a), 0);
	ed.event_id = mem.event_id;
	w.events_ptr = (uintptr_t)&ed;
	w.num_events = 1;
	w.timeout = 5000;
	assert_int_equal(ksim_ioctl(t->kfd, KFD_ABI_IOC_WAIT_EVENTS, &w), 0);
	assert_int_equal(w.wait_result, KFD_ABI_WAIT_RESULT_COMPLETE);
	assert_int_equal(ed.memory_exception_data.va, WILD_VA);
	assert_int_equal(ed.memory_exception_data.gpu_id, t->gpu_id[0]);
	assert_int_equal(ed.memory_exception_data.failure.NotPresent, 1);
	*sigval(&ok, 1) = 1;
	put_dispatch(&ok, KERNEL_VA, sigva(&ok, 1));
	usleep(20000);
	assert_int_equal(rptr(&ok), 1);
	assert_int_equal(*sigval(&ok, 1), 1);
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

	queue_new(t, &q, 0x10000000ULL);
	*sigval(&q, 0) = 2;
	assert_int_equal(set_cu_mask(t, &q, none, 256), 0);
	put_dispatch(&q, KERNEL_VA, sigva(&q, 0));
	usleep(20000);
	assert_int_equal(rptr(&q), 0);
	u.queue_id = q.qid;
	u.ring_base_address = q.ring_va;
	u.ring_size = RING_SIZE;
	u.queue_percentage = 100;
	u.queue_priority = 9;
	assert_int_equal(ksim_ioctl(t->kfd, KFD_ABI_IOC_UPDATE_QUEUE, &u), 0);
	usleep(20000);
	assert_int_equal(rptr(&q), 0);
	assert_int_equal(set_cu_mask(t, &q, cu7, 32), 0);
	assert_true(reaches(&q, 1));
	put_dispatch(&q, KERNEL_VA, sigva(&q, 0));
	assert_true(reaches(&q, 2));
	assert_int_equal(*sigval(&q, 0), 0);
}

static void
test_fork(void **state)
{
	struct kt *t = *state;
	struct tq q;
	pid_t pid;
	int st;

	queue_new(t, &q, 0x10000000ULL);
	*sigval(&q, 0) = 2;
	put_dispatch(&q, KERNEL_VA, sigva(&q, 0));
	assert_true(reaches(&q, 1));
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
	put_dispatch(&q, KERNEL_VA, sigva(&q, 0));
	assert_true(reaches(&q, 2));
	assert_int_equal(*sigval(&q, 0), 0);
}

/* Kernel @code at @kd (a descriptor with the kernarg pointer in s[0:1]). */
static void
put_code(uint8_t *page, unsigned int kd, const uint32_t *code, size_t size)
{
	const int64_t entry = 256;
	const uint32_t rsrc2 = 2 << 1;	/* two user SGPRs */
	const uint16_t props = 1 << 3;	/* the kernarg segment pointer */

	memcpy(page + kd + 16, &entry, 8);
	memcpy(page + kd + 52, &rsrc2, 4);
	memcpy(page + kd + 56, &props, 2);
	memcpy(page + kd + entry, code, size);
}

static void
test_shader_wait(void **state)
{
	/* until the kernarg word is nonzero: load, sleep, again */
	static const uint32_t poll[] = {
		0xc0030080, 0x00000000,	/* s_load_dword s2, s[0:1], 0x0 glc */
		0xbf8cc07f,		/* s_waitcnt lgkmcnt(0) */
		0xbf068002,		/* s_cmp_eq_u32 s2, 0 */
		0xbf840002,		/* s_cbranch_scc0 2 (to s_endpgm) */
		0xbf8e0001,		/* s_sleep 1 */
		0xbf82fff9,		/* s_branch -7 (to s_load_dword) */
		0xbf810000,		/* s_endpgm */
	};
	struct kfd_abi_get_clock_counters_args cc = { 0 };
	struct kt *t = *state;
	uint32_t *word = (uint32_t *)(kern + 2048);
	uint64_t kernarg = KERNEL_VA + 2048;
	struct tq q, e;

	put_code(kern, 1024, poll, sizeof(poll));
	*word = 0;
	queue_new(t, &q, 0x10000000ULL);
	queue_new(t, &e, 0x11000000ULL);
	*sigval(&q, 0) = 1;
	*sigval(&e, 0) = 1;
	put_kernel(&q, KERNEL_VA + 1024, kernarg, sigva(&q, 0));
	usleep(20000);
	put_dispatch(&e, KERNEL_VA, sigva(&e, 0));
	usleep(20000);
	/* the engine is free between the wave's turns */
	cc.gpu_id = t->gpu_id[0];
	assert_int_equal(ksim_ioctl(t->kfd, KFD_ABI_IOC_GET_CLOCK_COUNTERS, &cc), 0);
	assert_int_equal(rptr(&q), 0);
	assert_int_equal(rptr(&e), 0);
	__atomic_store_n(word, 1, __ATOMIC_RELEASE);
	assert_true(reaches(&q, 1));
	assert_true(reaches(&e, 1));
	assert_int_equal(*sigval(&q, 0), 0);
	assert_int_equal(*sigval(&e, 0), 0);
}

static void
test_shader_msg(void **state)
{
	/* the event id at kernarg 0, its slot's VA at 8: signal the slot, as
	 * a hostcall's mailbox write does, then the interrupt */
	static const uint32_t msg[] = {
		0xc0020080, 0x00000000,	/* s_load_dword s2, s[0:1], 0x0 */
		0xc0060100, 0x00000008,	/* s_load_dwordx2 s[4:5], s[0:1], 0x8 */
		0xbf8cc07f,		/* s_waitcnt lgkmcnt(0) */
		0x7e000202,		/* v_mov_b32_e32 v0, s2 */
		0x7e020280,		/* v_mov_b32_e32 v1, 0 */
		0x7e040280,		/* v_mov_b32_e32 v2, 0 */
		0xdc748000, 0x00040002,	/* global_store_dwordx2 v2, v[0:1], s[4:5] */
		0xbf8c0f70,		/* s_waitcnt vmcnt(0) */
		0xbefc0002,		/* s_mov_b32 m0, s2 */
		0xbf900001,		/* s_sendmsg sendmsg(MSG_INTERRUPT) */
		0xbf810000,		/* s_endpgm */
	};
	static const uint32_t trap2[] = { 0xbf920002, 0xbf810000 };	/* s_trap 2 */
	static const uint32_t trap3[] = { 0xbf920003, 0xbf810000 };	/* s_trap 3 */
	struct kfd_abi_create_event_args ev = { .event_type = KFD_ABI_EVENT_SIGNAL };
	struct kfd_abi_set_trap_handler_args th = { 0 };
	struct kfd_abi_destroy_queue_args d = { 0 };
	struct kt *t = *state;
	uint64_t kernarg = KERNEL_VA + 2048, h, off, slot;
	unsigned int g0 = 0;
	uint32_t ns;
	struct tq q, a, b;

	/* the events page, a GTT BO as a dGPU runtime gives it */
	assert_int_equal(kt_alloc(t, 0, 0x7000000, 32768,
				  KFD_ABI_ALLOC_MEM_FLAGS_WRITABLE |
				  KFD_ABI_ALLOC_MEM_FLAGS_GTT, &h, &off), 0);
	assert_int_equal(kt_map(t, h, &g0, 1, &ns), 0);
	ev.event_page_offset = h;
	assert_int_equal(ksim_ioctl(t->kfd, KFD_ABI_IOC_CREATE_EVENT, &ev), 0);
	slot = 0x7000000 + (uint64_t)ev.event_id * 8;
	put_code(kern, 1024, msg, sizeof(msg));
	put_code(kern, 3072, trap2, sizeof(trap2));
	memcpy(kern + 2048, &ev.event_id, 4);
	memcpy(kern + 2048 + 8, &slot, 8);
	queue_new(t, &q, 0x10000000ULL);
	*sigval(&q, 0) = 2;
	assert_int_equal(wait_hw(t, ev.event_id, 0), KFD_ABI_WAIT_RESULT_TIMEOUT);
	put_kernel(&q, KERNEL_VA + 1024, kernarg, sigva(&q, 0));
	assert_int_equal(wait_hw(t, ev.event_id, 5000), KFD_ABI_WAIT_RESULT_COMPLETE);
	assert_true(reaches(&q, 1));
	/* s_trap 3 without a debugger: nothing */
	put_code(kern, 1024, trap3, sizeof(trap3));
	put_kernel(&q, KERNEL_VA + 1024, kernarg, sigva(&q, 0));
	assert_true(reaches(&q, 2));
	assert_int_equal(*sigval(&q, 0), 0);

	/* no trap handler: the wave halts, the dispatch never ends */
	queue_new(t, &a, 0x11000000ULL);
	*sigval(&a, 0) = 1;
	put_kernel(&a, KERNEL_VA + 3072, kernarg, sigva(&a, 0));
	usleep(50000);
	assert_int_equal(rptr(&a), 0);
	assert_int_equal(*sigval(&a, 63), 0);
	d.queue_id = a.qid;
	assert_int_equal(ksim_ioctl(t->kfd, KFD_ABI_IOC_DESTROY_QUEUE, &d), 0);
	/* ROCr's handler installed: the queue stops with the debug trap */
	th.gpu_id = t->gpu_id[0];
	th.tba_addr = KERNEL_VA;
	th.tma_addr = KERNEL_VA + 4096;
	assert_int_equal(ksim_ioctl(t->kfd, KFD_ABI_IOC_SET_TRAP_HANDLER, &th), 0);
	queue_new(t, &b, 0x12000000ULL);
	*sigval(&b, 0) = 1;
	put_kernel(&b, KERNEL_VA + 3072, kernarg, sigva(&b, 0));
	assert_true(inactive_bits(&b, (int64_t)0x80000000u));
	assert_int_equal(rptr(&b), 0);
	assert_int_equal(*sigval(&b, 0), 1);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_retire, setup, kt_teardown),
		cmocka_unit_test_setup_teardown(test_shader, setup, kt_teardown),
		cmocka_unit_test_setup_teardown(test_shader_gfx942, setup_mi300x, kt_teardown),
		cmocka_unit_test_setup_teardown(test_shader, setup_mi100, kt_teardown),
		cmocka_unit_test_setup_teardown(test_shader_gfx908, setup_mi100, kt_teardown),
		cmocka_unit_test_setup_teardown(test_shader_wave32, setup_rx6900xt, kt_teardown),
		cmocka_unit_test_setup_teardown(test_shader_wait, setup, kt_teardown),
		cmocka_unit_test_setup_teardown(test_shader_msg, setup, kt_teardown),
		cmocka_unit_test_setup_teardown(test_kinds, setup, kt_teardown),
		cmocka_unit_test_setup_teardown(test_update_and_barrier, setup, kt_teardown),
		cmocka_unit_test_setup_teardown(test_destroy_pending, setup, kt_teardown),
		cmocka_unit_test_setup_teardown(test_errors, setup, kt_teardown),
		cmocka_unit_test_setup_teardown(test_cu_mask, setup, kt_teardown),
		cmocka_unit_test_setup_teardown(test_fork, setup, kt_teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

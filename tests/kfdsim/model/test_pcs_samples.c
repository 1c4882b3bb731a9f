/* SPDX-License-Identifier: MIT */
/*
 * Host-trap PC sampling's samples (shader_pcs.c), rocm flavour, on mi210
 * (gfx90a) and mi300x (gfx942, whose ttmp11 holds the packet index and
 * whose encodings of the code here are gfx90a's). A second-level trap
 * handler of the test's own plays the runtime's: on each host trap it
 * stores the sampled PC, ttmp1, the packet index (gfx90a's ttmp6),
 * ttmp11, exec, the work-group id and s_memrealtime into a record of its
 * TMA. Two threads run a looping kernel each on their own queue while a
 * session samples every INTERVAL_US. The samples' PCs lie inside the
 * kernel that ran, their packet index is that kernel's dispatch packet's,
 * their count fits the interval, and STOP ends them.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "ktest.h"
#include "tc_pcs_handler.h"

#define EOP_VA		0x30000000ULL
#define CWSR_VA		0x40000000ULL
#define KERNEL_VA	0x50000000ULL	/* descriptors, code, handler */
#define TMA_VA		0x52000000ULL	/* the handler's sample records */
#define TMA_SIZE	(1u << 20)
#define QA		0x10000000ULL
#define QB		0x14000000ULL
#define RING_SIZE	4096u
#define INTERVAL_US	200u
#define LOOPS		10000u		/* iterations of a wave's loop: a short run even under ASan */
#define RECORDS		TC_PCS_RECORDS

/* Two descriptors, each with its code 256 bytes on and its kernel
 * arguments 2 KiB on; the handler after them. */
enum { KD_A = 0, KD_B = 4096, HANDLER = 8192, KERN_SIZE = 12288 };

/* s4 = the kernel argument; count it down to 0 */
static const uint32_t loop_code[] = {
	0xc0020100, 0x00000000,	/* s_load_dword s4, s[0:1], 0x0 */
	0xbf8cc07f,		/* s_waitcnt lgkmcnt(0) */
	0x80848104,		/* s_sub_u32 s4, s4, 1 */
	0xbf078004,		/* s_cmp_lg_u32 s4, 0 */
	0xbf85fffd,		/* s_cbranch_scc1 -3 */
	0xbf810000,		/* s_endpgm */
};


static uint8_t *kern;
static uint32_t *tma;
static int gfx942;

static void
put_kernel(unsigned int kd)
{
	const int64_t entry = 256;
	const uint32_t rsrc2 = 2 << 1 | 1 << 7;	/* two user SGPRs, wg id x */
	const uint16_t props = 1 << 3;	/* the kernarg segment pointer */
	const uint32_t loops = LOOPS;

	memcpy(kern + kd + 16, &entry, 8);
	memcpy(kern + kd + 52, &rsrc2, 4);
	memcpy(kern + kd + 56, &props, 2);
	memcpy(kern + kd + entry, loop_code, sizeof(loop_code));
	memcpy(kern + kd + 2048, &loops, 4);
}

static int
setup(const char *profile, void **state)
{
	static const unsigned int g0 = 0;
	struct ksim_opts o = { .kernel = KSIM_KERNEL_ROCM, .flags = KSIM_OPT_PRIVATE };
	struct kfd_abi_set_trap_handler_args th = { 0 };
	const struct ksim_node *node = NULL;
	struct kt *t = calloc(1, sizeof(*t));

	if (!t || kt_open_opts(t, profile, &o) || kt_acquire_all(t))
		return -1;
	gfx942 = !strcmp(profile, "mi300x");
	*state = t;
	/* the first GPU node (mi300x has two CPU nodes before it) */
	for (unsigned int i = 0; i < t->prof->n_nodes && !node; i++)
		if (t->prof->nodes[i].gpu)
			node = &t->prof->nodes[i];
	if (!node)
		return -1;
	kt_vram_mapped(t, 0, EOP_VA, 4096, &g0, 1);
	/* one save area per XCC (mi300x has 8) */
	kt_vram_mapped(t, 0, CWSR_VA, (((uint64_t)node->gpu->cwsr_size +
		       node->gpu->debug_memory_size) * node->props[KSIM_NP_NUM_XCC] +
		       4095) & ~4095ULL, &g0, 1);
	kern = kt_userptr_mapped(t, 0, KERNEL_VA, KERN_SIZE);
	memset(kern, 0, KERN_SIZE);
	put_kernel(KD_A);
	put_kernel(KD_B);
	memcpy(kern + HANDLER, tc_pcs_handler, sizeof(tc_pcs_handler));
	tma = (uint32_t *)kt_userptr_mapped(t, 0, TMA_VA, TMA_SIZE);
	memset(tma, 0, TMA_SIZE);
	th.gpu_id = t->gpu_id[0];
	th.tba_addr = KERNEL_VA + HANDLER;
	th.tma_addr = TMA_VA;
	return ksim_ioctl(t->kfd, KFD_ABI_IOC_SET_TRAP_HANDLER, &th) ? -1 : 0;
}

static int
setup_mi210(void **state)
{
	return setup("mi210", state);
}

static int
setup_mi300x(void **state)
{
	return setup("mi300x", state);
}

static void
queue(struct kt *t, struct kt_queue *q, uint64_t base)
{
	kt_queue_create(t, q, base, KFD_ABI_QUEUE_TYPE_COMPUTE_AQL, RING_SIZE, EOP_VA,
			CWSR_VA, 0);
	q->wr = 0;
}

/* 2 work-groups of 4 waves running the kernel at @kd, on queue @q. */
static void
dispatch(struct kt_queue *q, unsigned int kd)
{
	uint8_t b[64] = { 0 };
	uint16_t setup1 = 1, wg = 256, one = 1, hdr = 2;
	uint32_t grid = 512, grid1 = 1;
	uint64_t kobj = KERNEL_VA + kd, kernarg = KERNEL_VA + kd + 2048;
	uint8_t *ring = q->ring + (q->wr % (RING_SIZE / 64)) * 64;

	memcpy(b + 2, &setup1, 2);
	memcpy(b + 4, &wg, 2);
	memcpy(b + 6, &one, 2);
	memcpy(b + 8, &one, 2);
	memcpy(b + 12, &grid, 4);
	memcpy(b + 16, &grid1, 4);
	memcpy(b + 20, &grid1, 4);
	memcpy(b + 32, &kobj, 8);
	memcpy(b + 40, &kernarg, 8);
	memcpy(ring + 2, b + 2, 62);
	__atomic_store_n((uint64_t *)(q->aux + 56), q->wr + 1, __ATOMIC_RELEASE);
	__atomic_store_n((uint16_t *)ring, hdr, __ATOMIC_RELEASE);
	__atomic_store_n(q->doorbell, q->wr, __ATOMIC_RELEASE);
	q->wr++;
}

static int
done(const struct kt_queue *q)
{
	return kt_reaches((const uint64_t *)(q->aux + 128), q->wr);
}

struct worker {
	struct kt_queue *q;
	unsigned int kd;
	int ok;
};

static void *
work(void *arg)
{
	struct worker *w = arg;

	dispatch(w->q, w->kd);
	w->ok = done(w->q);
	return NULL;
}

static int
pcs(struct kt *t, uint32_t op, struct kfd_abi_pc_sample_info *info, uint32_t n,
    uint32_t *id)
{
	struct kfd_abi_pc_sample_args a = {
		.op = op, .gpu_id = t->gpu_id[0], .num_sample_info = n,
		.sample_info_ptr = (uintptr_t)info, .trace_id = id ? *id : 0,
	};
	int r = ksim_ioctl(t->kfd, KFD_ABI_IOC_PC_SAMPLE, &a);

	if (!r && id && op == KFD_ABI_PCS_OP_CREATE)
		*id = a.trace_id;
	return r;
}

static uint64_t
gpu_clock(struct kt *t)
{
	struct kfd_abi_get_clock_counters_args c = { .gpu_id = t->gpu_id[0] };

	assert_int_equal(ksim_ioctl(t->kfd, KFD_ABI_IOC_GET_CLOCK_COUNTERS, &c), 0);
	return c.gpu_clock_counter;
}

/* Whether @pc lies in the loop of the kernel at @kd. */
static int
in_kernel(uint64_t pc, unsigned int kd)
{
	uint64_t code = KERNEL_VA + kd + 256;

	return pc >= code && pc < code + sizeof(loop_code);
}

static void
test_hosttrap_samples(void **state)
{
	struct kt *t = *state;
	struct kfd_abi_pc_sample_info info[2];
	struct worker wa, wb;
	struct kt_queue a, b;
	pthread_t ta, tb;
	uint64_t t0, t1, c0, c1, max;
	uint32_t id = 0, n, in_a = 0, in_b = 0;

	/* host trap first; gfx942 has the stochastic sampler too */
	assert_int_equal(pcs(t, KFD_ABI_PCS_OP_QUERY_CAPABILITIES, info, 2, NULL), 0);
	assert_int_equal(info[0].method, KFD_ABI_PCS_METHOD_HOSTTRAP);
	info[0].interval = INTERVAL_US;
	assert_int_equal(pcs(t, KFD_ABI_PCS_OP_CREATE, info, 1, &id), 0);

	queue(t, &a, QA);
	queue(t, &b, QB);
	/* created, not started: no samples */
	dispatch(&a, KD_A);
	assert_true(done(&a));
	assert_int_equal(tma[0], 0);

	assert_int_equal(pcs(t, KFD_ABI_PCS_OP_START, NULL, 0, &id), 0);
	wa = (struct worker){ .q = &a, .kd = KD_A };
	wb = (struct worker){ .q = &b, .kd = KD_B };
	c0 = gpu_clock(t);
	t0 = kt_now_ns(CLOCK_MONOTONIC);
	assert_int_equal(pthread_create(&ta, NULL, work, &wa), 0);
	assert_int_equal(pthread_create(&tb, NULL, work, &wb), 0);
	pthread_join(ta, NULL);
	pthread_join(tb, NULL);
	t1 = kt_now_ns(CLOCK_MONOTONIC);
	c1 = gpu_clock(t);
	assert_true(wa.ok && wb.ok);
	assert_int_equal(pcs(t, KFD_ABI_PCS_OP_STOP, NULL, 0, &id), 0);

	/* at most one sample per interval; each kernel ran for many */
	n = __atomic_load_n(&tma[0], __ATOMIC_ACQUIRE);
	max = (t1 - t0) / (INTERVAL_US * 1000ull) + 2;
	print_message("%u samples in %llu us\n", n, (unsigned long long)(t1 - t0) / 1000);
	assert_true(n >= 2);
	assert_true(n <= max);
	assert_true(n < RECORDS);
	for (uint32_t i = 0; i < n; i++) {
		const struct tc_pcs_record *r = (const void *)((uint8_t *)tma + 64 + i * 32);
		uint64_t pc = (uint64_t)(r->ttmp1 & 0xffff) << 32 | r->pc_lo;
		uint32_t packet = gfx942 ? r->ttmp11 >> 6 : r->packet;

		/* the host trap bit, trap id 1 */
		assert_int_equal(r->ttmp1 >> 16, 0x101);
		/* queue a's kernel is its packet 1, queue b's its packet 0 */
		if (in_kernel(pc, KD_A)) {
			assert_int_equal(packet, 1);
			in_a++;
		} else {
			assert_true(in_kernel(pc, KD_B));
			assert_int_equal(packet, 0);
			in_b++;
		}
		/* 4 waves per group, 2 groups, every lane on */
		assert_true((r->ttmp11 & 0x3f) < 4);
		assert_true(r->wg_x < 2);
		assert_int_equal(r->exec_lo, 0xffffffffu);
		assert_int_equal(r->exec_hi, 0xffffffffu);
		/* s_memrealtime in the handler: between the two clock reads */
		assert_true(r->time_lo - (uint32_t)c0 <= (uint32_t)(c1 - c0));
	}
	assert_true(in_a >= 1);
	assert_true(in_b >= 1);

	/* stopped: the next dispatch runs unsampled */
	dispatch(&a, KD_A);
	assert_true(done(&a));
	assert_int_equal(tma[0], n);
	assert_int_equal(pcs(t, KFD_ABI_PCS_OP_DESTROY, NULL, 0, &id), 0);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_hosttrap_samples, setup_mi210,
						kt_teardown),
		cmocka_unit_test_setup_teardown(test_hosttrap_samples, setup_mi300x,
						kt_teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

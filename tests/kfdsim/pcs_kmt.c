/* SPDX-License-Identifier: MIT */
/*
 * Host-trap PC sampling through the thunk's API (kfdsim's rocm flavour,
 * gfx90a): query the GPU's methods, create a host-trap session, install
 * a second-level trap handler that writes each sample (the runtime's
 * part), start, run a looping shader from two threads on two PM4 queues,
 * stop, and check the samples: PCs inside the shader, the host trap bit,
 * every lane on, work-group ids of the dispatch, at most one sample per
 * interval, and none after STOP. AMD's libhsakmt 5.2.3 has no PC
 * sampling API: the program is built against our thunk only.
 */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "kmt_kit.h"
#include "tc_pcs_handler.h"

#define RING_DW		(KIT_RING_SIZE / 4)
#define FILLER		0xffff1000u	/* a PM4 type-3 NOP of one dword */
#define INTERVAL_US	200u
#define LOOPS		200000u		/* iterations of each wave's loop */
#define GROUPS		4u		/* work-groups (one wave each) */
#define RECORDS		TC_PCS_RECORDS
#define TMA_SIZE	(4096u + RECORDS * 32u)	/* whole pages */

/* s5 = *s[0:1]; count it down to 0 */
static const uint32_t loop_code[] = {
	0xc0020140, 0x00000000,	/* s_load_dword s5, s[0:1], 0x0 */
	0xbf8cc07f,		/* s_waitcnt lgkmcnt(0) */
	0x80858105,		/* s_sub_u32 s5, s5, 1 */
	0xbf078005,		/* s_cmp_lg_u32 s5, 0 */
	0xbf85fffd,		/* s_cbranch_scc1 -3 */
	0xbf810000,		/* s_endpgm */
};


static uint32_t *code;		/* the shader at 0, the handler at 4096 */
static uint32_t *loops;		/* the shader's argument */

static void
emit(struct kit_queue *q, const uint32_t *d, unsigned int n)
{
	while (q->wr % RING_DW + n > RING_DW)
		q->ring[q->wr++ % RING_DW] = FILLER;
	memcpy(q->ring + q->wr % RING_DW, d, n * 4);
	q->wr += n;
}

/* Dispatch the shader on @q and wait up to 10 s for its end. */
static int
run(struct kit_queue *q)
{
	uint32_t d[KIT_DISPATCH_DW];
	uint64_t va = (uint64_t)(uintptr_t)loops;

	emit(q, d, kit_pm4_dispatch(d, code, va, va, GROUPS, 0));
	__atomic_store_n(q->res.Queue_write_ptr_aql, q->wr, __ATOMIC_RELEASE);
	__atomic_store_n(q->res.Queue_DoorBell_aql, q->wr, __ATOMIC_RELEASE);
	for (int i = 0; i < 100000; i++) {
		if (__atomic_load_n(q->res.Queue_read_ptr, __ATOMIC_ACQUIRE) ==
		    q->wr % RING_DW)
			return 1;
		usleep(100);
	}
	return 0;
}

static void *
worker(void *arg)
{
	if (!run(arg))
		kit_fail("a dispatch did not end");
	return NULL;
}

static uint64_t
mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* Check the @n records of @tma; return how many lie in the shader. */
static uint32_t
check_records(const uint32_t *tma, uint32_t n)
{
	uint64_t lo = (uint64_t)(uintptr_t)code, hi = lo + sizeof(loop_code);
	uint32_t in = 0;

	for (uint32_t i = 0; i < n; i++) {
		const struct tc_pcs_record *r = (const void *)((const uint8_t *)tma + 64 + i * 32);
		uint64_t pc = (uint64_t)(r->ttmp1 & 0xffff) << 32 | r->pc_lo;

		if (pc < lo || pc >= hi) {
			fprintf(stderr, "pcs: sample %u: pc 0x%llx outside the shader\n",
				i, (unsigned long long)pc);
			kit_fail("a sampled PC lies outside the shader");
			continue;
		}
		if (!(r->ttmp1 & 1u << 24))
			kit_fail("a sample lacks the host trap bit");
		if (r->exec_lo != ~0u || r->exec_hi != ~0u)
			kit_fail("a sample's exec is not the wave's");
		if (r->wg_x >= GROUPS)
			kit_fail("a sample's work-group id is not the dispatch's");
		in++;
	}
	return in;
}

int
main(void)
{
	HsaPcSamplingInfo info[2];
	HsaPcSamplingTraceId id = 0;
	HsaNodeProperties props;
	struct kit_queue qa, qb;
	pthread_t ta, tb;
	uint32_t *tma, n, after;
	HSAuint32 node, need = 0;
	uint64_t t0, t1;

	kit_name = "pcs";
	if (kit_open(&node))
		return 1;
	kit_first_gpu(&props);
	if (!kit_kernel_is_rocm() || !kit_is_gfx90a(&props)) {
		printf("pcs: SKIP: needs kfdsim's rocm flavour on gfx90a\n");
		kit_close();
		return 77;
	}
	kit_check(hsaKmtPcSamplingSupport(), "PcSamplingSupport");
	kit_check(hsaKmtPcSamplingQueryCapabilities(node, NULL, 0, &need),
		  "PcSamplingQueryCapabilities(size)");
	if (need != 1)
		kit_fail("gfx90a offers one method");
	kit_check(hsaKmtPcSamplingQueryCapabilities(node, info, 2, &need),
		  "PcSamplingQueryCapabilities");
	if (info[0].method != HSA_PC_SAMPLING_METHOD_KIND_HOSTTRAP_V1)
		kit_fail("gfx90a's method is not the host trap");
	info[0].value = INTERVAL_US;
	kit_check(hsaKmtPcSamplingCreate(node, &info[0], &id), "PcSamplingCreate");

	code = kit_alloc_mapped(8192, KIT_MEM_EXEC);
	loops = kit_alloc_mapped(4096, 0);
	tma = kit_alloc_mapped(TMA_SIZE, 0);
	if (!code || !loops || !tma)
		return 1;
	memcpy(code, loop_code, sizeof(loop_code));
	memcpy(code + 1024, tc_pcs_handler, sizeof(tc_pcs_handler));
	*loops = LOOPS;
	kit_check(hsaKmtSetTrapHandler(node, code + 1024, sizeof(tc_pcs_handler), tma, TMA_SIZE),
		  "SetTrapHandler");
	if (kit_queue_new(&qa, node, HSA_QUEUE_COMPUTE, "CreateQueue(a)") ||
	    kit_queue_new(&qb, node, HSA_QUEUE_COMPUTE, "CreateQueue(b)"))
		return 1;

	kit_check(hsaKmtPcSamplingStart(node, id), "PcSamplingStart");
	t0 = mono_ns();
	if (pthread_create(&ta, NULL, worker, &qa) || pthread_create(&tb, NULL, worker, &qb))
		return 1;
	pthread_join(ta, NULL);
	pthread_join(tb, NULL);
	t1 = mono_ns();
	kit_check(hsaKmtPcSamplingStop(node, id), "PcSamplingStop");

	n = __atomic_load_n(tma, __ATOMIC_ACQUIRE);
	printf("pcs: %u samples in %llu us, interval %u us\n", n,
	       (unsigned long long)(t1 - t0) / 1000, INTERVAL_US);
	if (n < 2)
		kit_fail("fewer than two samples");
	if (n > (t1 - t0) / (INTERVAL_US * 1000ull) + 2)
		kit_fail("more than one sample per interval");
	if (n < RECORDS && check_records(tma, n) != n)
		kit_fail("samples outside the shader");

	/* stopped: a dispatch runs unsampled */
	t0 = mono_ns();
	if (!run(&qa))
		kit_fail("the dispatch after STOP did not end");
	printf("pcs: one dispatch unsampled: %llu us\n",
	       (unsigned long long)(mono_ns() - t0) / 1000);
	after = __atomic_load_n(tma, __ATOMIC_ACQUIRE);
	if (after != n)
		kit_fail("samples after STOP");
	kit_check(hsaKmtPcSamplingDestroy(node, id), "PcSamplingDestroy");

	kit_queue_free(&qa);
	kit_queue_free(&qb);
	kit_free_mapped(tma, TMA_SIZE);
	kit_free_mapped(loops, 4096);
	kit_free_mapped(code, 8192);
	kit_close();
	if (!kit_failed)
		printf("pcs: ok\n");
	return kit_failed;
}

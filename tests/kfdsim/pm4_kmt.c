/* SPDX-License-Identifier: MIT */
/*
 * PM4 compute queues through the thunk API, the way kfdtest drives them
 * (its PM4Queue): hsaKmtCreateQueue(HSA_QUEUE_COMPUTE) on a ring of host
 * memory mapped on the GPU; packets written, then the 64-bit write
 * pointer and the doorbell the thunk returns, both in dwords; the read
 * pointer the CP reports (where the thunk says) is a dword offset inside
 * the ring. On gfx10 ACQUIRE_MEM has its 8-dword form. Built
 * against our thunk and against AMD's, run on kfdsim (`kfdtrace sim`):
 *
 *   write	WRITE_DATA stores, over two laps of the ring
 *   release	RELEASE_MEM stores; with its interrupt, an event wait returns
 *   wait	WAIT_REG_MEM holds a queue until a second queue writes
 *   ib		a chain of three indirect buffers
 *   bad	a bad opcode stops its queue and sets the HW_EXCEPTION
 *		event; another queue goes on
 *   gpudb	a queue's RELEASE_MEM rings another queue's doorbell
 *		through the doorbell page mapped into the GPU's VM
 *   dispatch	DISPATCH_DIRECT runs a shader (gfx90a) from the compute
 *		registers SET_SH_REG wrote, in the ring and in an IB
 *   atomic	a shader's atomic adds and a CPU thread's, on one counter
 *		at once: none is lost (gfx90a)
 *   idle	two queues idle long enough for kfdsim's engine to block;
 *		two threads ring them at once and both are served within
 *		a second (a doorbell store wakes the engine; with the
 *		capture, the store its trap handler forwards)
 *
 * Prints "pm4: NAME ok" per case and "pm4: all ok", or fails (exit 1).
 * Each case uses its own queues, so a capture (`--submissions`) has
 * every kind of packet.
 */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "kmt_kit.h"
#include "tc_host.h"

#define RING_DW		(KIT_RING_SIZE / 4)

/* PM4 type-3 packets (the MEC's, as Linux amdgpu's soc15d.h has them). */
#define HDR(op, n)	(3u << 30 | ((n) & 0x3fffu) << 16 | (op) << 8)
#define OP_WRITE_DATA	0x37u
#define OP_WAIT_REG_MEM	0x3cu
#define OP_IB		0x3fu
#define OP_RELEASE_MEM	0x49u
#define OP_ACQUIRE_MEM	0x58u
#define OP_SET_SH_REG	0x76u
#define OP_NOP		0x10u
#define FILLER		0xffff1000u

static HSAuint32 gpu;
static int gfx10;
static int gfx90a;

/* A PM4 compute queue on the GPU under test. */
static int
pq_new(struct kit_queue *q)
{
	return kit_queue_new(q, gpu, HSA_QUEUE_COMPUTE, "CreateQueue(COMPUTE)");
}

static void
emit(struct kit_queue *q, const uint32_t *d, unsigned int n)
{
	while (q->wr % RING_DW + n > RING_DW)
		q->ring[q->wr++ % RING_DW] = FILLER;
	memcpy(q->ring + q->wr % RING_DW, d, n * 4);
	q->wr += n;
}

static void
submit(struct kit_queue *q)
{
	__atomic_store_n(q->res.Queue_write_ptr_aql, q->wr, __ATOMIC_RELEASE);
	__atomic_store_n(q->res.Queue_DoorBell_aql, q->wr, __ATOMIC_RELEASE);
}

static uint32_t
rptr(const struct kit_queue *q)
{
	return __atomic_load_n(q->res.Queue_read_ptr, __ATOMIC_ACQUIRE);
}

/* Wait up to 5 s until the CP read everything (kfdtest's AllPacketsSubmitted). */
static int
drained(const struct kit_queue *q)
{
	for (int i = 0; i < 50000; i++) {
		if (rptr(q) == q->wr % RING_DW)
			return 1;
		usleep(100);
	}
	return 0;
}

static uint64_t
va(const void *p)
{
	return (uint64_t)(uintptr_t)p;
}

static void
write_data(struct kit_queue *q, const void *dst, uint32_t v)
{
	uint32_t d[5] = { HDR(OP_WRITE_DATA, 3), 5u << 8 | 1u << 20,
			  (uint32_t)va(dst), (uint32_t)(va(dst) >> 32), v };

	emit(q, d, 5);
}

static void
release_mem(struct kit_queue *q, uint64_t addr, uint32_t data, int irq, uint32_t ctxid)
{
	uint32_t d[8] = { HDR(OP_RELEASE_MEM, 6), 0x14 | 5u << 8,
			  1u << 29 | (irq ? 2u : 3u) << 24, (uint32_t)addr,
			  (uint32_t)(addr >> 32), data, 0, ctxid };

	emit(q, d, 8);
}

static void
case_write(void)
{
	uint32_t *buf = kit_alloc_mapped(4096, KIT_MEM_EXEC);
	uint32_t acq[8] = { HDR(OP_ACQUIRE_MEM, 5), 0, 0xffffffff, 0, 0, 0, 4, 0 };
	uint32_t sh[4] = { HDR(OP_SET_SH_REG, 2), 0x20c, 0, 0 };
	uint32_t nop[3] = { HDR(OP_NOP, 1), 0, 0 };
	struct kit_queue q;

	if (!buf || pq_new(&q))
		return;
	if (gfx10)
		acq[0] = HDR(OP_ACQUIRE_MEM, 6);
	emit(&q, acq, gfx10 ? 8 : 7);
	emit(&q, sh, 4);
	emit(&q, nop, 3);
	for (uint32_t i = 0; i < 2 * RING_DW / 5; i++) {
		write_data(&q, buf + i % 64, i);
		if (i % 64 == 63) {
			submit(&q);
			if (!drained(&q))
				break;
		}
	}
	submit(&q);
	if (!drained(&q))
		kit_fail("write: the read pointer never reached the write pointer");
	else if (buf[0] != 384 || buf[63] != 383 || q.wr < 2 * RING_DW)
		kit_fail("write: WRITE_DATA stored the wrong values");
	else
		printf("pm4: write ok\n");
	kit_queue_free(&q);
	kit_free_mapped(buf, 4096);
}

static void
case_release(void)
{
	HsaEventDescriptor ed = { 0 };
	uint64_t *buf = kit_alloc_mapped(4096, KIT_MEM_EXEC);
	HsaEvent *ev = NULL;
	struct kit_queue q;

	if (!buf || pq_new(&q))
		return;
	ed.EventType = HSA_EVENTTYPE_SIGNAL;
	ed.NodeId = gpu;
	kit_check(hsaKmtCreateEvent(&ed, false, false, &ev), "CreateEvent");
	if (!ev)
		return;
	buf[0] = ~0ULL;
	release_mem(&q, va(buf), 0x1234, 0, 0);
	submit(&q);
	if (!drained(&q) || buf[0] != 0xffffffff00001234ULL)
		kit_fail("release: RELEASE_MEM did not store its data");
	/* kfdtest's signal: the event id into its slot, then the interrupt */
	release_mem(&q, ev->EventData.HWData2, ev->EventId, 1, ev->EventId);
	submit(&q);
	if (hsaKmtWaitOnEvent(ev, 5000) != HSAKMT_STATUS_SUCCESS)
		kit_fail("release: the end-of-pipe interrupt set no event");
	else if (!kit_failed)
		printf("pm4: release ok\n");
	kit_check(hsaKmtDestroyEvent(ev), "DestroyEvent");
	kit_queue_free(&q);
	kit_free_mapped(buf, 4096);
}

static void
case_wait(void)
{
	uint32_t *buf = kit_alloc_mapped(4096, KIT_MEM_EXEC);
	struct kit_queue a, b;

	if (!buf || pq_new(&a) || pq_new(&b))
		return;
	{
		uint32_t d[7] = { HDR(OP_WAIT_REG_MEM, 5), 3 | 1u << 4,
				  (uint32_t)va(buf), (uint32_t)(va(buf) >> 32),
				  0x77, 0xffffffff, 4 };

		emit(&a, d, 7);
	}
	write_data(&a, buf + 1, 1);
	submit(&a);
	usleep(20000);
	if (rptr(&a) != 0 || buf[1])
		kit_fail("wait: WAIT_REG_MEM did not hold its queue");
	write_data(&b, buf, 0x77);
	submit(&b);
	if (!drained(&b) || !drained(&a) || buf[1] != 1)
		kit_fail("wait: the queue did not go on once the value was written");
	else if (!kit_failed)
		printf("pm4: wait ok\n");
	kit_queue_free(&a);
	kit_queue_free(&b);
	kit_free_mapped(buf, 4096);
}

/* IB 0 chains to IB 1, which chains to IB 2; each stores its number. */
static void
case_ib(void)
{
	uint32_t *buf = kit_alloc_mapped(4096, KIT_MEM_EXEC);
	uint32_t *ib = kit_alloc_mapped(3 * 4096, KIT_MEM_EXEC);
	uint32_t d[4];
	struct kit_queue q;

	if (!buf || !ib || pq_new(&q))
		return;
	for (unsigned int i = 0; i < 3; i++) {
		uint32_t *p = ib + i * 1024;
		uint64_t next = va(ib + (i + 1) * 1024);

		p[0] = HDR(OP_WRITE_DATA, 3);
		p[1] = 5u << 8;
		p[2] = (uint32_t)va(buf + i);
		p[3] = (uint32_t)(va(buf + i) >> 32);
		p[4] = i + 1;
		if (i < 2) {
			p[5] = HDR(OP_IB, 2);
			p[6] = (uint32_t)next;
			p[7] = (uint32_t)(next >> 32);
			p[8] = (i == 0 ? 9 : 5) | 1u << 20 | 1u << 23;
		}
	}
	d[0] = HDR(OP_IB, 2);
	d[1] = (uint32_t)va(ib);
	d[2] = (uint32_t)(va(ib) >> 32);
	d[3] = 9 | 1u << 23;
	emit(&q, d, 4);
	write_data(&q, buf + 3, 4);
	submit(&q);
	if (!drained(&q) || buf[0] != 1 || buf[1] != 2 || buf[2] != 3 || buf[3] != 4)
		kit_fail("ib: the chain of indirect buffers did not run");
	else
		printf("pm4: ib ok\n");
	kit_queue_free(&q);
	kit_free_mapped(buf, 4096);
	kit_free_mapped(ib, 3 * 4096);
}

static void
case_bad(void)
{
	HsaEventDescriptor ed = { 0 };
	uint32_t *buf = kit_alloc_mapped(4096, KIT_MEM_EXEC);
	uint32_t bad[2] = { HDR(0x01u, 0), 0 };	/* no such opcode */
	HsaEvent *ev = NULL;
	struct kit_queue a, b;

	if (!buf || pq_new(&a) || pq_new(&b))
		return;
	ed.EventType = HSA_EVENTTYPE_HW_EXCEPTION;
	ed.NodeId = gpu;
	kit_check(hsaKmtCreateEvent(&ed, true, false, &ev), "CreateEvent");
	if (!ev)
		return;
	emit(&a, bad, 2);
	write_data(&a, buf, 1);
	submit(&a);
	if (hsaKmtWaitOnEvent(ev, 5000) != HSAKMT_STATUS_SUCCESS)
		kit_fail("bad: no HW_EXCEPTION event");
	write_data(&b, buf + 1, 2);
	submit(&b);
	if (!drained(&b) || buf[1] != 2)
		kit_fail("bad: the other queue stopped too");
	if (rptr(&a) != 0 || buf[0])
		kit_fail("bad: the queue went on past the bad packet");
	if (!kit_failed)
		printf("pm4: bad ok\n");
	kit_check(hsaKmtDestroyEvent(ev), "DestroyEvent");
	kit_queue_free(&a);
	kit_queue_free(&b);
	kit_free_mapped(buf, 4096);
}

/* RELEASE_MEM of the 64-bit @v to @addr, no interrupt: one 64-bit store. */
static void
release_mem64(struct kit_queue *q, const void *addr, uint64_t v)
{
	uint32_t d[8] = { HDR(OP_RELEASE_MEM, 6), 0x14 | 5u << 8, 2u << 29,
			  (uint32_t)va(addr), (uint32_t)(va(addr) >> 32),
			  (uint32_t)v, (uint32_t)(v >> 32), 0 };

	emit(q, d, 8);
}

/*
 * The GPU rings a doorbell (kfdtest's GPUDoorbellWrite): a packet is
 * placed on queue A but not submitted; queue B's RELEASE_MEMs store A's
 * write pointer and then A's doorbell, through the doorbell page the
 * thunk mapped into the GPU's VM. A runs its packet. Then the CPU rings
 * A for one more.
 */
static void
case_gpudb(void)
{
	uint32_t *buf = kit_alloc_mapped(4096, KIT_MEM_EXEC);
	struct kit_queue a, b;

	if (!buf || pq_new(&a) || pq_new(&b))
		return;
	write_data(&a, buf, 0x12345678);
	release_mem64(&b, a.res.Queue_write_ptr_aql, a.wr);
	release_mem64(&b, a.res.Queue_DoorBell_aql, a.wr);
	submit(&b);
	if (!drained(&b))
		kit_fail("gpudb: the ringing queue did not run");
	else if (!drained(&a) || buf[0] != 0x12345678)
		kit_fail("gpudb: the doorbell the GPU wrote did not run its queue");
	/* Then the CPU rings A for one more packet. */
	write_data(&a, buf + 1, 0x9abcdef0);
	submit(&a);
	if (!kit_failed && (!drained(&a) || buf[1] != 0x9abcdef0))
		kit_fail("gpudb: the CPU's doorbell after the GPU's did not run");
	else if (!kit_failed)
		printf("pm4: gpudb ok\n");
	kit_queue_free(&a);
	kit_queue_free(&b);
	kit_free_mapped(buf, 4096);
}

/* For i in [lo, hi): dst[i] holds src[i] + i - @from in [from, to), else
 * its mark. */
static int
copied(const uint32_t *src, const uint32_t *dst, unsigned int from,
       unsigned int to, unsigned int lo, unsigned int hi)
{
	for (unsigned int i = lo; i < hi; i++) {
		uint32_t want = i >= from && i < to ? src[i] + i - from : 0xdead0000 | i;

		if (dst[i] != want) {
			printf("pm4: dispatch: dst[%u] = 0x%x, not 0x%x\n", i,
			       dst[i], want);
			return 0;
		}
	}
	return 1;
}

/* WRITE_DATA of @n dwords from @v to @dst. */
static void
write_block(struct kit_queue *q, const uint32_t *dst, const uint32_t *v,
	    unsigned int n)
{
	uint32_t d[4] = { HDR(OP_WRITE_DATA, n + 2), 5u << 8 | 1u << 20,
			  (uint32_t)va(dst), (uint32_t)(va(dst) >> 32) };

	emit(q, d, 4);
	emit(q, v, n);
}

/* WAIT_REG_MEM until the dword at @p equals @v. */
static void
wait_equal(struct kit_queue *q, const uint32_t *p, uint32_t v)
{
	uint32_t d[7] = { HDR(OP_WAIT_REG_MEM, 5), 3 | 1u << 4, (uint32_t)va(p),
			  (uint32_t)(va(p) >> 32), v, 0xffffffff, 4 };

	emit(q, d, 7);
}

/*
 * Two dispatches of kmt_kit's copy shader, as kfdtest's Dispatch makes
 * them: 100 work-items in the ring (USE_THREAD_DIMENSIONS: the second
 * work-group is partial), then 2 work-groups of 64 from an indirect
 * buffer; a RELEASE_MEM after them. The shader is gfx90a code: on other
 * GPUs the dispatches have no work-group (dimension 0) and only the
 * packets' completion is checked. The sources are written
 * by WRITE_DATA and the queue waits (WAIT_REG_MEM) for the last value
 * each dispatch stores: a replay of the capture, which has the packets
 * but not what the CPU wrote, runs to its end only if its shaders store
 * the same (tests/kfdsim/run_pm4_capture.sh).
 */
static void
case_dispatch(void)
{
	uint32_t *code = kit_alloc_mapped(4096, KIT_MEM_EXEC);
	uint32_t *src = kit_alloc_mapped(4096, 0);
	uint32_t *dst = kit_alloc_mapped(4096, 0);
	uint32_t *ib = kit_alloc_mapped(4096, KIT_MEM_EXEC);
	uint32_t *flag = kit_alloc_mapped(4096, 0);
	uint32_t d[KIT_DISPATCH_DW];
	unsigned int n;
	struct kit_queue q;

	if (!code || !src || !dst || !ib || !flag || pq_new(&q))
		return;
	memcpy(code, kit_copy_shader, kit_copy_shader_dw * 4);
	for (uint32_t i = 0; i < 1024; i++) {
		ib[i] = 0x10000 + 3 * i;	/* the sources, for now */
		dst[i] = 0xdead0000 | i;
	}
	write_block(&q, src, ib, 128);
	write_block(&q, src + 256, ib + 256, 128);
	n = kit_pm4_dispatch(d, code, va(src), va(dst), gfx90a ? 100 : 0, 1);
	emit(&q, d, n);
	if (gfx90a)
		wait_equal(&q, dst + 99, ib[99] + 99);
	n = kit_pm4_dispatch(ib, code, va(src + 256), va(dst + 256), gfx90a ? 2 : 0, 0);
	d[0] = HDR(OP_IB, 2);
	d[1] = (uint32_t)va(ib);
	d[2] = (uint32_t)(va(ib) >> 32);
	d[3] = n | 1u << 23;
	emit(&q, d, 4);
	if (gfx90a)
		wait_equal(&q, dst + 383, 0x10000 + 3 * 383 + 127);
	release_mem(&q, va(flag), 0x600d, 0, 0);
	submit(&q);
	if (!drained(&q) || flag[0] != 0x600d)
		kit_fail("dispatch: the queue did not run to its end");
	else if (gfx90a && (!copied(src, dst, 0, 100, 0, 256) ||
			    !copied(src, dst, 256, 384, 256, 512)))
		kit_fail("dispatch: the shader did not store what it should");
	else
		printf("pm4: dispatch ok%s\n", gfx90a ? "" : " (not gfx90a: empty)");
	kit_queue_free(&q);
	kit_free_mapped(code, 4096);
	kit_free_mapped(src, 4096);
	kit_free_mapped(dst, 4096);
	kit_free_mapped(ib, 4096);
	kit_free_mapped(flag, 4096);
}

/* Dispatches of 1024 atomic adds racing the CPU's. */
#define ATOMIC_DISPATCHES	256u

struct cpu_adder {
	uint32_t *counter;
	int stop;			/* atomic */
	uint32_t adds;
};

static void *
cpu_adds(void *arg)
{
	struct cpu_adder *a = arg;

	while (!__atomic_load_n(&a->stop, __ATOMIC_ACQUIRE)) {
		__atomic_fetch_add(a->counter, 1, __ATOMIC_SEQ_CST);
		a->adds++;
	}
	return NULL;
}

/*
 * kfdtest's Atomics, more of it: 256 dispatches of 1024 work-items each
 * add 1 to a counter in host memory while a CPU thread adds 1 to it in a
 * loop; the counter ends at the sum of both.
 */
static void
case_atomic(void)
{
	/*
	 *	v_mov_b32 v1, 1
	 *	v_mov_b32 v0, 0
	 *	global_atomic_add v0, v1, s[2:3]
	 *	s_waitcnt vmcnt(0)
	 *	s_endpgm
	 */
	static const uint32_t add[] = {
		0x7e020281, 0x7e000280, 0xdd088000, 0x00020100, 0xbf8c0f70,
		0xbf810000,
	};
	uint32_t *code = kit_alloc_mapped(4096, KIT_MEM_EXEC);
	uint32_t *counter = kit_alloc_mapped(4096, 0);
	struct cpu_adder a = { 0 };
	uint32_t d[KIT_DISPATCH_DW];
	struct kit_queue q;
	pthread_t th;

	if (!gfx90a) {
		printf("pm4: atomic skipped (not gfx90a)\n");
		return;
	}
	if (!code || !counter || pq_new(&q))
		return;
	memcpy(code, add, sizeof(add));
	a.counter = counter;
	if (pthread_create(&th, NULL, cpu_adds, &a)) {
		kit_fail("atomic: pthread_create");
		return;
	}
	while (__atomic_load_n(counter, __ATOMIC_ACQUIRE) < 1000)
		;
	for (unsigned int k = 0; k < ATOMIC_DISPATCHES; k++) {
		emit(&q, d, kit_pm4_dispatch(d, code, 0, va(counter), 1024, 1));
		submit(&q);
		if (!drained(&q))
			break;
	}
	__atomic_store_n(&a.stop, 1, __ATOMIC_RELEASE);
	pthread_join(th, NULL);
	if (rptr(&q) != q.wr % RING_DW)
		kit_fail("atomic: the dispatches did not run");
	else if (*counter != a.adds + ATOMIC_DISPATCHES * 1024) {
		printf("pm4: atomic: the counter is %u, not %u + %u\n",
		       *counter, a.adds, ATOMIC_DISPATCHES * 1024);
		kit_fail("atomic: increments were lost");
	} else {
		printf("pm4: atomic ok\n");
	}
	kit_queue_free(&q);
	kit_free_mapped(code, 4096);
	kit_free_mapped(counter, 4096);
}

#define IDLE_US		300000	/* past the engine's 100 ms before it blocks */
#define IDLE_SERVE_NS	1000000000ULL

struct idle_ring {
	struct kit_queue *q;
	uint32_t *dst;
	pthread_barrier_t *go;
	uint64_t ns;		/* ring to drained; 0: never */
};

static void *
idle_ringer(void *arg)
{
	struct idle_ring *r = arg;
	uint64_t t0;

	write_data(r->q, r->dst, 2);
	pthread_barrier_wait(r->go);
	t0 = tc_host_ns(CLOCK_MONOTONIC);
	submit(r->q);
	r->ns = drained(r->q) ? tc_host_ns(CLOCK_MONOTONIC) - t0 + 1 : 0;
	return NULL;
}

static void
case_idle(void)
{
	uint32_t *buf = kit_alloc_mapped(4096, KIT_MEM_EXEC);
	struct idle_ring r[2];
	pthread_barrier_t go;
	struct kit_queue q[2];
	pthread_t th[2];
	int made = 0;

	if (!buf)
		return;
	for (; made < 2; made++)
		if (pq_new(&q[made]))
			break;
	for (int i = 0; i < made; i++) {
		write_data(&q[i], buf + i, 1);
		submit(&q[i]);
		if (!drained(&q[i]))
			kit_fail("idle: the first packet never ran");
	}
	if (made == 2 && !kit_failed) {
		usleep(IDLE_US);
		pthread_barrier_init(&go, NULL, 2);
		for (int i = 0; i < 2; i++) {
			r[i] = (struct idle_ring){ &q[i], buf + i, &go, 0 };
			pthread_create(&th[i], NULL, idle_ringer, &r[i]);
		}
		for (int i = 0; i < 2; i++)
			pthread_join(th[i], NULL);
		pthread_barrier_destroy(&go);
		if (!r[0].ns || !r[1].ns || buf[0] != 2 || buf[1] != 2)
			kit_fail("idle: a doorbell rung after idle was not served");
		else if (r[0].ns > IDLE_SERVE_NS || r[1].ns > IDLE_SERVE_NS)
			kit_fail("idle: served after more than a second");
		else
			printf("pm4: idle ok (served in %.0f and %.0f us)\n",
			       (double)r[0].ns / 1e3, (double)r[1].ns / 1e3);
	}
	for (int i = 0; i < made; i++)
		kit_queue_free(&q[i]);
	kit_free_mapped(buf, 4096);
}

int
main(int argc, char **argv)
{
	static const struct {
		const char *name;
		void (*fn)(void);
	} cases[] = {
		{ "write", case_write },
		{ "release", case_release },
		{ "wait", case_wait },
		{ "ib", case_ib },
		{ "bad", case_bad },
		{ "gpudb", case_gpudb },
		{ "dispatch", case_dispatch },
		{ "atomic", case_atomic },
		{ "idle", case_idle },
	};
	HsaNodeProperties np;

	kit_name = "pm4";
	setvbuf(stdout, NULL, _IOLBF, 0);
	kit_check(hsaKmtOpenKFD(), "OpenKFD");
	gpu = kit_first_gpu(&np);
	if (!gpu) {
		kit_fail("no GPU node");
		return 1;
	}
	gfx10 = np.EngineId.ui32.Major >= 10;
	gfx90a = kit_is_gfx90a(&np);
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		int want = argc < 2;

		for (int a = 1; a < argc; a++)
			want |= !strcmp(argv[a], cases[i].name);
		if (want && !kit_failed)
			cases[i].fn();
	}
	hsaKmtCloseKFD();
	if (!kit_failed)
		printf("pm4: all ok\n");
	return kit_failed;
}

/* SPDX-License-Identifier: MIT */
/*
 * The PM4 engine on the model directly (no thunk): PM4 compute queues
 * whose rings and read/write pointers are userptr BOs, on mi210 (gfx9),
 * mi300x (gfx9.4.3) and rx6900xt (gfx10). WRITE_DATA stores, the read
 * pointer comes back as a dword offset inside the ring over laps whose
 * write pointer never wraps, RELEASE_MEM stores its data and clocks and
 * its end-of-pipe interrupt wakes a waiter on the event, WAIT_REG_MEM
 * holds only its queue until a second queue writes the value, a chain
 * of three indirect buffers runs, and a bad packet or address stops only
 * its queue and raises the HW_EXCEPTION or MEMORY event as the kernel's
 * interrupt paths do. On mi210 (gfx90a) DISPATCH_DIRECT runs the shader
 * SET_SH_REG named, from COMPUTE_START_X, and a shader's fault stops
 * its queue with the VM fault's MEMORY event. The translations the
 * engine keeps between passes follow the VM's mappings as they change.
 */
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <kfdtrace/packet_abi.h>

#include "ktest.h"

#define RING_SIZE	4096u
#define RING_DW		(RING_SIZE / 4)
#define EOP_VA		0x30000000ULL
#define CWSR_VA		0x40000000ULL
#define BUF_VA		0x100000000ULL	/* a page of results */
#define IB_VA		0x200000000ULL	/* indirect buffers */
#define WILD_VA		0x7000000000ULL	/* in no mapping */
#define CODE_VA		0x300000000ULL	/* a shader */

struct pq {
	uint32_t *ring;
	uint32_t *rptr;			/* the CP's report: dwords, wrapped */
	uint64_t *wptr;
	uint32_t qid;
	volatile uint64_t *doorbell;
	uint64_t wr;			/* dwords written, monotonic */
};

static const char *const profiles[] = { "mi210", "mi300x", "rx6900xt" };
static volatile uint64_t *doorbells;

/* A device of profile @name, VM acquired, EOP and CWSR memory mapped. */
static struct kt *
open_kt(const char *name)
{
	struct kt *t = kt_new(name);

	doorbells = NULL;
	kt_queue_areas(t, EOP_VA, CWSR_VA);
	return t;
}

static void
pq_new(struct kt *t, struct pq *q, uint64_t ring_va)
{
	const struct ksim_gpu *g = kt_gpu_node(t)->gpu;
	struct kfd_abi_create_queue_args a;
	uint8_t *ptrs;
	int err;

	memset(q, 0, sizeof(*q));
	q->ring = (uint32_t *)kt_userptr_mapped(t, 0, ring_va, RING_SIZE);
	ptrs = kt_userptr_mapped(t, 0, ring_va + 0x100000, 4096);
	q->rptr = (uint32_t *)ptrs;
	q->wptr = (uint64_t *)(ptrs + 8);
	memset(&a, 0, sizeof(a));
	a.ring_base_address = ring_va;
	a.ring_size = RING_SIZE;
	a.read_pointer_address = ring_va + 0x100000;
	a.write_pointer_address = ring_va + 0x100000 + 8;
	a.gpu_id = t->gpu_id[0];
	a.queue_type = KFD_ABI_QUEUE_TYPE_COMPUTE;
	a.queue_percentage = 100;
	a.queue_priority = 7;
	a.eop_buffer_address = EOP_VA;
	a.eop_buffer_size = g->eop_buffer_size;
	a.ctx_save_restore_address = CWSR_VA;
	a.ctx_save_restore_size = g->cwsr_size;
	a.ctl_stack_size = g->ctl_stack_size;
	assert_int_equal(ksim_ioctl(t->kfd, KFD_ABI_IOC_CREATE_QUEUE, &a), 0);
	q->qid = a.queue_id;
	if (!doorbells) {
		doorbells = kt_cpu_map(t->kfd, a.doorbell_offset & ~0x1fffULL,
				       8192, &err);
		assert_non_null((void *)doorbells);
	}
	q->doorbell = doorbells + (a.doorbell_offset & 0x1fff) / 8;
}

/* Append @n dwords; a packet never straddles the ring's end (fillers). */
static void
emit(struct pq *q, const uint32_t *d, unsigned int n)
{
	while (q->wr % RING_DW + n > RING_DW) {
		q->ring[q->wr % RING_DW] = KFD_PM4_NOP_FILLER;
		q->wr++;
	}
	memcpy(q->ring + q->wr % RING_DW, d, n * 4);
	q->wr += n;
}

/* As kfdtest on SOC15: the 64-bit write pointer, then the doorbell. */
static void
kick(struct pq *q)
{
	__atomic_store_n(q->wptr, q->wr, __ATOMIC_RELEASE);
	__atomic_store_n(q->doorbell, q->wr, __ATOMIC_RELEASE);
}

static uint32_t
rptr(const struct pq *q)
{
	return __atomic_load_n(q->rptr, __ATOMIC_ACQUIRE);
}

/* Wait (up to 5 s) until every dword written is read. */
static int
idle(const struct pq *q)
{
	for (int i = 0; i < 50000; i++) {
		if (rptr(q) == q->wr % RING_DW)
			return 1;
		usleep(100);
	}
	return 0;
}

static void
write_data(struct pq *q, uint64_t va, const uint32_t *v, unsigned int n)
{
	uint32_t d[16] = { KFD_PM4_HDR(KFD_PM4_OP_WRITE_DATA, n + 2),
			   KFD_PM4_DST_MEM << 8 | 1u << 20, (uint32_t)va,
			   (uint32_t)(va >> 32) };

	memcpy(d + 4, v, n * 4);
	emit(q, d, n + 4);
}

static void
release_mem(struct pq *q, uint64_t va, uint64_t data, uint32_t data_sel,
	    uint32_t int_sel, uint32_t ctxid)
{
	uint32_t d[8] = { KFD_PM4_HDR(KFD_PM4_OP_RELEASE_MEM, 6),
			  0x14 | 5u << 8, data_sel << 29 | int_sel << 24,
			  (uint32_t)va, (uint32_t)(va >> 32), (uint32_t)data,
			  (uint32_t)(data >> 32), ctxid };

	emit(q, d, 8);
}

static void
wait_mem(struct pq *q, uint64_t va, uint32_t func, uint32_t ref, uint32_t mask)
{
	uint32_t d[7] = { KFD_PM4_HDR(KFD_PM4_OP_WAIT_REG_MEM, 5),
			  func | KFD_PM4_WAIT_MEM, (uint32_t)va,
			  (uint32_t)(va >> 32), ref, mask, 4 };

	emit(q, d, 7);
}

/* An INDIRECT_BUFFER packet into @d (4 dwords). */
static void
ib_packet(uint32_t *d, uint64_t va, uint32_t ndw, int chain)
{
	d[0] = KFD_PM4_HDR(KFD_PM4_OP_INDIRECT_BUFFER, 2);
	d[1] = (uint32_t)va;
	d[2] = (uint32_t)(va >> 32);
	d[3] = ndw | KFD_PM4_IB_VALID | (chain ? KFD_PM4_IB_CHAIN : 0);
}

/*
 * A signal event with its slot in the events page, mapped on the GPU at
 * EVENTS_VA (made with the first event: @first).
 */
#define EVENTS_VA	0x7000000ULL
static uint32_t
signal_event(struct kt *t, int first, uint64_t *slot_va)
{
	uint32_t id = first ? kt_signal_event(t, EVENTS_VA) :
			      kt_event_new(t, KFD_ABI_EVENT_SIGNAL);

	*slot_va = EVENTS_VA + (uint64_t)id * 8;
	return id;
}

/* WRITE_DATA (one dword, several, one address), laps of the ring. */
static void
run_write_data(const char *profile)
{
	struct kt *t = open_kt(profile);
	uint32_t *buf = (uint32_t *)kt_userptr_mapped(t, 0, BUF_VA, 4096);
	uint32_t three[3] = { 0x11111111, 0x22222222, 0x33333333 }, v;
	struct pq q;
	uint64_t lap;

	memset(buf, 0xee, 4096);
	pq_new(t, &q, 0x10000000ULL);
	v = 0xcafe;
	write_data(&q, BUF_VA, &v, 1);
	write_data(&q, BUF_VA + 0x100, three, 3);
	{
		uint32_t d[7] = { KFD_PM4_HDR(KFD_PM4_OP_WRITE_DATA, 5),
				  KFD_PM4_DST_MEM << 8 | KFD_PM4_WRITE_ONE_ADDR,
				  (uint32_t)(BUF_VA + 0x200), 0, 7, 8, 9 };

		d[3] = (uint32_t)((BUF_VA + 0x200) >> 32);
		emit(&q, d, 7);
	}
	{
		/* kfdtest's one-dword NOP has the compute shader-type bit */
		uint32_t nop = KFD_PM4_NOP_FILLER | 2;

		emit(&q, &nop, 1);
	}
	v = 0xbeef;
	write_data(&q, BUF_VA + 0x300, &v, 1);
	kick(&q);
	assert_true(idle(&q));
	assert_int_equal(buf[0xc0], 0xbeef);
	assert_int_equal(buf[0], 0xcafe);
	assert_int_equal(buf[1], 0xeeeeeeee);
	assert_int_equal(buf[0x40], 0x11111111);
	assert_int_equal(buf[0x42], 0x33333333);
	assert_int_equal(buf[0x43], 0xeeeeeeee);
	assert_int_equal(buf[0x80], 9);
	assert_int_equal(buf[0x81], 0xeeeeeeee);
	/* three laps: the write pointer grows, the read pointer wraps */
	for (lap = 0; lap < 3 * RING_DW / 5; lap++) {
		v = (uint32_t)lap;
		write_data(&q, BUF_VA + 8, &v, 1);
		kick(&q);
		while ((q.wr - rptr(&q)) % RING_DW > RING_DW / 2)
			usleep(100);
	}
	assert_true(idle(&q));
	assert_true(q.wr > 3 * RING_DW);
	assert_true(rptr(&q) < RING_DW);
	assert_int_equal(buf[2], (uint32_t)(lap - 1));
	kt_delete(t);
}

/* RELEASE_MEM: 32 and 64 bits, a clock, and the end-of-pipe interrupt. */
static void
run_release_mem(const char *profile)
{
	struct kt *t = open_kt(profile);
	uint64_t *buf = (uint64_t *)kt_userptr_mapped(t, 0, BUF_VA, 4096);
	struct kfd_abi_event_data ed;
	uint64_t slot;
	uint32_t ev = signal_event(t, 1, &slot), ev2;
	struct pq q;

	buf[0] = ~0ULL;
	pq_new(t, &q, 0x10000000ULL);
	release_mem(&q, BUF_VA, 0x12345678, KFD_PM4_DATA_32,
		    KFD_PM4_INT_DATA_ONLY, 0);
	release_mem(&q, BUF_VA + 8, 0x1122334455667788ULL, KFD_PM4_DATA_64,
		    KFD_PM4_INT_NONE, 0);
	release_mem(&q, BUF_VA + 16, 0, KFD_PM4_DATA_GPU_CLOCK,
		    KFD_PM4_INT_NONE, 0);
	kick(&q);
	assert_true(idle(&q));
	assert_int_equal(buf[0], 0xffffffff12345678ULL);
	assert_int_equal(buf[1], 0x1122334455667788ULL);
	assert_true(buf[2] != 0);
	/* not yet signaled */
	assert_int_equal(kt_wait_event(t, ev, 0, &ed), KFD_ABI_WAIT_RESULT_TIMEOUT);
	/* kfdtest's signal: the event id into its slot, then the interrupt */
	release_mem(&q, slot, ev, KFD_PM4_DATA_32, KFD_PM4_INT_AFTER_WRITE, ev);
	kick(&q);
	assert_int_equal(kt_wait_event(t, ev, 5000, &ed), KFD_ABI_WAIT_RESULT_COMPLETE);
	/* a context id that names nothing: the kernel searches the slots */
	ev2 = signal_event(t, 0, &slot);
	release_mem(&q, slot, ev2, KFD_PM4_DATA_32, KFD_PM4_INT_AFTER_WRITE, 0);
	kick(&q);
	assert_int_equal(kt_wait_event(t, ev2, 5000, &ed), KFD_ABI_WAIT_RESULT_COMPLETE);
	assert_true(idle(&q));
	kt_delete(t);
}

/* WAIT_REG_MEM holds queue A until queue B writes the value. */
static void
run_wait_reg_mem(const char *profile)
{
	struct kt *t = open_kt(profile);
	uint32_t *buf = (uint32_t *)kt_userptr_mapped(t, 0, BUF_VA, 4096);
	uint32_t v = 0x5a;
	struct pq a, b, c;

	pq_new(t, &a, 0x10000000ULL);
	pq_new(t, &b, 0x11000000ULL);
	pq_new(t, &c, 0x12000000ULL);
	wait_mem(&a, BUF_VA, 3, 0x5a, 0xff);		/* == */
	write_data(&a, BUF_VA + 4, &v, 1);
	kick(&a);
	v = 1;
	write_data(&c, BUF_VA + 8, &v, 1);
	kick(&c);
	assert_true(idle(&c));
	usleep(20000);
	assert_int_equal(rptr(&a), 0);
	assert_int_equal(buf[1], 0);
	v = 0x35a;					/* masked: 0x5a */
	write_data(&b, BUF_VA, &v, 1);
	kick(&b);
	assert_true(idle(&b));
	assert_true(idle(&a));
	assert_int_equal(buf[1], 0x5a);
	kt_delete(t);
}

/*
 * A ring packet enters IB 1, which chains to IB 2, which nests IB 4 and
 * chains to IB 3; each stores its number. Then the ring goes on.
 */
static void
run_indirect(const char *profile)
{
	struct kt *t = open_kt(profile);
	uint32_t *buf = (uint32_t *)kt_userptr_mapped(t, 0, BUF_VA, 4096);
	uint32_t *ib = (uint32_t *)kt_userptr_mapped(t, 0, IB_VA, 4 * 4096);
	uint32_t d[4], n, v;
	struct pq q;

	for (unsigned int i = 0; i < 4; i++) {
		uint32_t *p = ib + i * 1024;

		v = i + 1;
		p[0] = KFD_PM4_HDR(KFD_PM4_OP_WRITE_DATA, 3);
		p[1] = KFD_PM4_DST_MEM << 8;
		p[2] = (uint32_t)(BUF_VA + 4 * i);
		p[3] = (uint32_t)((BUF_VA + 4 * i) >> 32);
		p[4] = v;
		n = 5;
		if (i == 1) {
			ib_packet(p + n, IB_VA + 3 * 4096, 5, 0);	/* nested */
			n += 4;
		}
		if (i < 2) {
			ib_packet(p + n, IB_VA + (uint64_t)(i + 1) * 4096,
				  i == 0 ? 13 : 5, 1);			/* chain */
		}
	}
	pq_new(t, &q, 0x10000000ULL);
	ib_packet(d, IB_VA, 9, 0);
	emit(&q, d, 4);
	v = 0xdd;
	write_data(&q, BUF_VA + 16, &v, 1);
	kick(&q);
	assert_true(idle(&q));
	assert_int_equal(buf[0], 1);
	assert_int_equal(buf[1], 2);
	assert_int_equal(buf[2], 3);
	assert_int_equal(buf[3], 4);
	assert_int_equal(buf[4], 0xdd);
	kt_delete(t);
}

/*
 * A bad opcode stops its queue only. A bad address is a VM fault: the
 * MEMORY event gets the page and the reason, and the kernel evicts every
 * queue of the process on the GPU for good. A store to a read-only BO
 * faults as read-only.
 */
static void
run_errors(const char *profile)
{
	struct kt *t = open_kt(profile);
	uint32_t *buf = (uint32_t *)kt_userptr_mapped(t, 0, BUF_VA, 4096);
	uint32_t hw = kt_event_new(t, KFD_ABI_EVENT_HW_EXCEPTION);
	uint32_t mem = kt_event_new(t, KFD_ABI_EVENT_MEMORY);
	uint32_t bad[2] = { KFD_PM4_HDR(0x01, 0), 0 }, v = 1;
	struct kfd_abi_event_data ed;
	struct pq a, b, ok;

	pq_new(t, &a, 0x10000000ULL);
	pq_new(t, &b, 0x11000000ULL);
	pq_new(t, &ok, 0x12000000ULL);
	emit(&a, bad, 2);
	write_data(&a, BUF_VA, &v, 1);
	kick(&a);
	assert_int_equal(kt_wait_event(t, hw, 5000, &ed), KFD_ABI_WAIT_RESULT_COMPLETE);
	v = 3;
	write_data(&ok, BUF_VA + 8, &v, 1);
	kick(&ok);
	assert_true(idle(&ok));
	assert_int_equal(rptr(&a), 0);
	assert_int_equal(buf[0], 0);
	assert_int_equal(buf[2], 3);
	/* no fault yet: the MEMORY event is not set */
	assert_int_equal(kt_wait_event(t, mem, 0, &ed), KFD_ABI_WAIT_RESULT_TIMEOUT);
	/* a stopped queue stays stopped */
	write_data(&a, BUF_VA + 12, &v, 1);
	kick(&a);
	usleep(20000);
	assert_int_equal(rptr(&a), 0);
	assert_int_equal(buf[3], 0);
	/* the fault, in the middle of a page */
	v = 2;
	write_data(&b, WILD_VA + 0x123, &v, 1);
	write_data(&b, BUF_VA + 4, &v, 1);
	kick(&b);
	assert_int_equal(kt_wait_event(t, mem, 5000, &ed), KFD_ABI_WAIT_RESULT_COMPLETE);
	assert_int_equal(ed.memory_exception_data.va, WILD_VA);
	assert_int_equal(ed.memory_exception_data.gpu_id, t->gpu_id[0]);
	assert_int_equal(ed.memory_exception_data.failure.NotPresent, 1);
	assert_int_equal(ed.memory_exception_data.failure.ReadOnly, 0);
	assert_int_equal(ed.memory_exception_data.failure.imprecise, 0);
	assert_int_equal(rptr(&b), 0);
	assert_int_equal(buf[1], 0);
	/* evicted: the healthy queue, and a new one, no longer run */
	v = 4;
	write_data(&ok, BUF_VA + 16, &v, 1);
	kick(&ok);
	pq_new(t, &a, 0x13000000ULL);
	write_data(&a, BUF_VA + 20, &v, 1);
	kick(&a);
	usleep(20000);
	assert_int_equal(buf[4], 0);
	assert_int_equal(buf[5], 0);
	kt_delete(t);
}

/*
 * The read pointer counts the packets before a bad one by the time the
 * error's event is set: the CP reports it when it stops fetching.
 */
static void
run_error_report(const char *profile)
{
	struct kt *t = open_kt(profile);
	uint32_t *buf = (uint32_t *)kt_userptr_mapped(t, 0, BUF_VA, 4096);
	uint32_t hw = kt_event_new(t, KFD_ABI_EVENT_HW_EXCEPTION);
	uint32_t bad[2] = { KFD_PM4_HDR(0x01, 0), 0 }, v = 7;
	struct kfd_abi_event_data ed;
	struct pq a;

	pq_new(t, &a, 0x10000000ULL);
	write_data(&a, BUF_VA, &v, 1);
	emit(&a, bad, 2);
	kick(&a);
	assert_int_equal(kt_wait_event(t, hw, 5000, &ed), KFD_ABI_WAIT_RESULT_COMPLETE);
	assert_int_equal(rptr(&a), 5);
	assert_int_equal(buf[0], 7);
	kt_delete(t);
}

/* WRITE_DATA to a BO allocated without WRITABLE: a read-only fault. */
static void
run_read_only(const char *profile)
{
	struct kt *t = open_kt(profile);
	uint32_t mem = kt_event_new(t, KFD_ABI_EVENT_MEMORY);
	unsigned int g0 = 0;
	struct kfd_abi_event_data ed;
	uint64_t h;
	uint32_t ns, v = 5;
	struct pq q;

	assert_int_equal(kt_alloc(t, 0, BUF_VA, 8192, KFD_ABI_ALLOC_MEM_FLAGS_GTT,
				  &h, NULL), 0);
	assert_int_equal(kt_map(t, h, &g0, 1, &ns), 0);
	pq_new(t, &q, 0x10000000ULL);
	write_data(&q, BUF_VA + 4096 + 8, &v, 1);
	kick(&q);
	assert_int_equal(kt_wait_event(t, mem, 5000, &ed), KFD_ABI_WAIT_RESULT_COMPLETE);
	assert_int_equal(ed.memory_exception_data.va, BUF_VA + 4096);
	assert_int_equal(ed.memory_exception_data.failure.NotPresent, 0);
	assert_int_equal(ed.memory_exception_data.failure.ReadOnly, 1);
	assert_int_equal(rptr(&q), 0);
	kt_delete(t);
}

/* A userptr BO of @size at GPU VA @va, mapped; its handle in *@h. */
static uint32_t *
userptr_bo(struct kt *t, uint64_t va, uint64_t size, uint64_t *h)
{
	void *p = mmap(NULL, size, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	unsigned int g0 = 0;
	uint64_t off;
	uint32_t ns;

	assert_true(p != MAP_FAILED);
	off = (uintptr_t)p;
	assert_int_equal(kt_alloc(t, 0, va, size,
				  KFD_ABI_ALLOC_MEM_FLAGS_WRITABLE |
				  KFD_ABI_ALLOC_MEM_FLAGS_USERPTR, h, &off), 0);
	assert_int_equal(kt_map(t, *h, &g0, 1, &ns), 0);
	return p;
}

static void
unmap_free(struct kt *t, uint64_t h)
{
	unsigned int g0 = 0;
	uint32_t ns;

	assert_int_equal(kt_unmap(t, h, &g0, 1, &ns), 0);
	assert_int_equal(kt_free(t, h), 0);
}

/*
 * The engine keeps its translations from one pass to the next, and they
 * follow the VM: another BO mapped where one was unmapped (its place
 * among the mappings moved by a new one below it) gets the next stores,
 * and an address left unmapped faults.
 */
static void
run_remap(const char *profile)
{
	struct kt *t = open_kt(profile);
	uint32_t mem = kt_event_new(t, KFD_ABI_EVENT_MEMORY), *a, *b, v = 1;
	struct kfd_abi_event_data ed;
	uint64_t ha, hb;
	struct pq q;

	pq_new(t, &q, 0x10000000ULL);
	a = userptr_bo(t, BUF_VA, 4096, &ha);
	write_data(&q, BUF_VA + 4, &v, 1);
	release_mem(&q, BUF_VA, 1, KFD_PM4_DATA_32, KFD_PM4_INT_NONE, 0);
	kick(&q);
	assert_true(idle(&q));
	assert_int_equal(a[0], 1);
	assert_int_equal(a[1], 1);
	unmap_free(t, ha);
	(void)kt_userptr_mapped(t, 0, 0x80000000ULL, 4096);
	b = userptr_bo(t, BUF_VA, 4096, &hb);
	v = 2;
	write_data(&q, BUF_VA + 4, &v, 1);
	release_mem(&q, BUF_VA, 2, KFD_PM4_DATA_32, KFD_PM4_INT_NONE, 0);
	kick(&q);
	assert_true(idle(&q));
	assert_int_equal(b[0], 2);
	assert_int_equal(b[1], 2);
	assert_int_equal(a[0], 1);
	assert_int_equal(a[1], 1);
	unmap_free(t, hb);
	release_mem(&q, BUF_VA, 3, KFD_PM4_DATA_32, KFD_PM4_INT_NONE, 0);
	kick(&q);
	assert_int_equal(kt_wait_event(t, mem, 5000, &ed), KFD_ABI_WAIT_RESULT_COMPLETE);
	assert_int_equal(ed.memory_exception_data.va, BUF_VA);
	assert_int_equal(ed.memory_exception_data.failure.NotPresent, 1);
	assert_int_equal(a[0], 1);
	assert_int_equal(b[0], 2);
	kt_delete(t);
}

/* SET_SH_REG of @n registers from @reg. */
static void
set_sh(struct pq *q, uint32_t reg, const uint32_t *v, unsigned int n)
{
	uint32_t d[2] = { KFD_PM4_HDR(KFD_PM4_OP_SET_SH_REG, n), reg };

	emit(q, d, 2);
	emit(q, v, n);
}

/* DISPATCH_DIRECT of @x work-groups (1 work-item each) of the code at
 * CODE_VA, its out pointer in s[2:3], the first work-group @start_x. */
static void
dispatch(struct pq *q, uint64_t out, uint32_t start_x, uint32_t x, uint32_t init)
{
	const uint32_t dims[6] = { start_x, 0, 0, 1, 1, 1 };
	const uint32_t pgm[2] = { (uint32_t)(CODE_VA >> 8), (uint32_t)(CODE_VA >> 40) };
	const uint32_t rsrc[2] = { 0, 4u << 1 | 1u << 7 };	/* 4 user SGPRs, TGID_X */
	const uint32_t user[4] = { 0x11, 0x22, (uint32_t)out, (uint32_t)(out >> 32) };
	uint32_t d[5] = { KFD_PM4_HDR(KFD_PM4_OP_DISPATCH_DIRECT, 3), x, 1, 1, init };

	set_sh(q, KFD_PM4_SH_START_X, dims, 6);
	set_sh(q, KFD_PM4_SH_PGM_LO, pgm, 2);
	set_sh(q, KFD_PM4_SH_PGM_RSRC1, rsrc, 2);
	set_sh(q, KFD_PM4_SH_USER_DATA_0, user, 4);
	emit(q, d, 5);
}

/*
 * gfx90a: each work-group stores its id at out[id] and the user SGPRs at
 * out + 0x100 (x4) and 0x120 (x2), by scalar stores. A dispatch from
 * work-group 2 to the end value 5 runs groups 2..4; FORCE_START_AT_000
 * runs from 0; without COMPUTE_SHADER_EN nothing runs; a store to an
 * unmapped address stops the queue with a VM fault.
 */
static void
test_dispatch(void **state)
{
	static const uint32_t code[] = {
		0x8e068204,		/* s_lshl_b32 s6, s4, 2 */
		0xc0410101, 0x00000006,	/* s_store_dword s4, s[2:3], s6 glc */
		0xc04a0001, 0x00000100,	/* s_store_dwordx4 s[0:3], s[2:3], 0x100 */
		0xc0460001, 0x00000120,	/* s_store_dwordx2 s[0:1], s[2:3], 0x120 */
		0xbf810000,		/* s_endpgm */
	};
	struct kt *t = open_kt("mi210");
	uint32_t *buf = (uint32_t *)kt_userptr_mapped(t, 0, BUF_VA, 4096);
	uint8_t *text = kt_userptr_mapped(t, 0, CODE_VA, 4096);
	uint32_t mem = kt_event_new(t, KFD_ABI_EVENT_MEMORY);
	struct kfd_abi_event_data ed;
	struct pq q;

	(void)state;
	memcpy(text, code, sizeof(code));
	memset(buf, 0xff, 4096);
	pq_new(t, &q, 0x10000000ULL);
	dispatch(&q, BUF_VA, 2, 5, KFD_PM4_INIT_COMPUTE_SHADER_EN);
	dispatch(&q, BUF_VA + 0x200, 7, 2, KFD_PM4_INIT_COMPUTE_SHADER_EN | 1u << 2);
	dispatch(&q, BUF_VA + 0x400, 0, 3, 0);
	kick(&q);
	assert_true(idle(&q));
	assert_int_equal(buf[1], 0xffffffff);
	assert_int_equal(buf[2], 2);
	assert_int_equal(buf[4], 4);
	assert_int_equal(buf[5], 0xffffffff);
	assert_int_equal(buf[0x100 / 4], 0x11);
	assert_int_equal(buf[0x104 / 4], 0x22);
	assert_int_equal(buf[0x108 / 4], (uint32_t)BUF_VA);
	assert_int_equal(buf[0x10c / 4], (uint32_t)(BUF_VA >> 32));
	assert_int_equal(buf[0x120 / 4], 0x11);
	assert_int_equal(buf[0x124 / 4], 0x22);
	assert_int_equal(buf[0x200 / 4], 0);
	assert_int_equal(buf[0x204 / 4], 1);
	assert_int_equal(buf[0x208 / 4], 0xffffffff);
	assert_int_equal(buf[0x400 / 4], 0xffffffff);
	assert_int_equal(buf[0x500 / 4], 0xffffffff);
	/* the fault: the queue stops at the dispatch */
	dispatch(&q, WILD_VA + 0x40, 0, 1, KFD_PM4_INIT_COMPUTE_SHADER_EN);
	write_data(&q, BUF_VA + 0x800, (const uint32_t[]){ 9 }, 1);
	kick(&q);
	assert_int_equal(kt_wait_event(t, mem, 5000, &ed), KFD_ABI_WAIT_RESULT_COMPLETE);
	assert_int_equal(ed.memory_exception_data.va, WILD_VA);
	assert_int_equal(ed.memory_exception_data.failure.NotPresent, 1);
	assert_int_equal(buf[0x800 / 4], 0xffffffff);
	kt_delete(t);
}

#define FOR_PROFILES(fn)						\
	static void test_##fn(void **state)				\
	{								\
		(void)state;						\
		for (unsigned int i = 0; i < sizeof(profiles) /		\
		     sizeof(profiles[0]); i++)				\
			run_##fn(profiles[i]);				\
	}

FOR_PROFILES(write_data)
FOR_PROFILES(read_only)
FOR_PROFILES(release_mem)
FOR_PROFILES(wait_reg_mem)
FOR_PROFILES(indirect)
FOR_PROFILES(errors)
FOR_PROFILES(error_report)
FOR_PROFILES(remap)

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_write_data),
		cmocka_unit_test(test_release_mem),
		cmocka_unit_test(test_wait_reg_mem),
		cmocka_unit_test(test_indirect),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_read_only),
		cmocka_unit_test(test_error_report),
		cmocka_unit_test(test_remap),
		cmocka_unit_test(test_dispatch),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

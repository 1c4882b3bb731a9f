/* SPDX-License-Identifier: MIT */
/*
 * The SDMA engine on the model directly (no ROCr): SDMA queues whose
 * rings and read/write pointers are userptr BOs. COPY_LINEAR moves bytes
 * between host memory and VRAM the CPU never mapped (and peer VRAM on
 * mi210x2), CONSTANT_FILL and WRITE store exactly their extent (a zero
 * fill by dropping the whole pages of VRAM), FENCE,
 * ATOMIC ADD64 and TIMESTAMP store, the read pointer is written back
 * unwrapped across laps of the ring, POLL_REGMEM holds only its own queue
 * until memory matches, FENCE + TRAP wakes a waiter on the event as the
 * interrupt path does, GCR is an SDMA v5 (gfx10) packet, and an unknown
 * opcode, an address outside the VM, or a write pointer that goes back or
 * runs more than a ring ahead stops only that queue. Shared virtual memory
 * is reached as the kernel maps it: with XNACK off only inside ranges that
 * grant the GPU access, with XNACK on wherever the CPU has pages.
 * COPY_LINEAR's count is 30 bits on gfx90a and 22 on gfx908. A WRITE to
 * the doorbell page mapped into the VM rings the queue behind the slot.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "ktest.h"

#define RING_SIZE	4096u
#define PTRS_VA		0x20000000ULL	/* rptr at +0, wptr at +8 per queue */
#define WILD_VA		0x7000000000ULL	/* in no mapping */

struct sq {
	uint32_t *ring;
	uint64_t *ptrs;			/* [0] rptr, [1] wptr */
	uint32_t qid;
	volatile uint64_t *doorbell;
	uint64_t wr;			/* bytes written, monotonic */
};

static volatile uint64_t *doorbells[KT_MAX_GPUS];

static void
sq_new(struct kt *t, struct sq *q, unsigned int gpu, uint64_t ring_va,
       uint32_t type)
{
	struct kfd_abi_create_queue_args a;
	uint64_t ptrs_va = ring_va + 0x100000;
	int err;

	memset(q, 0, sizeof(*q));
	q->ring = (uint32_t *)kt_userptr_mapped(t, gpu, ring_va, RING_SIZE);
	q->ptrs = (uint64_t *)kt_userptr_mapped(t, gpu, ptrs_va, 4096);
	memset(&a, 0, sizeof(a));
	a.ring_base_address = ring_va;
	a.ring_size = RING_SIZE;
	a.read_pointer_address = ptrs_va;
	a.write_pointer_address = ptrs_va + 8;
	a.gpu_id = t->gpu_id[gpu];
	a.queue_type = type;
	a.queue_percentage = 100;
	a.queue_priority = 15;
	assert_int_equal(ksim_ioctl(t->kfd, KFD_ABI_IOC_CREATE_QUEUE, &a), 0);
	q->qid = a.queue_id;
	if (!doorbells[gpu]) {
		doorbells[gpu] = kt_cpu_map(t->kfd, a.doorbell_offset & ~0x1fffULL,
					    8192, &err);
		assert_non_null((void *)doorbells[gpu]);
	}
	q->doorbell = doorbells[gpu] + (a.doorbell_offset & 0x1fff) / 8;
}

/* Append @n dwords (a packet never straddles the end here: NOP pads). */
static void
emit(struct sq *q, const uint32_t *d, unsigned int n)
{
	uint32_t pos = (uint32_t)(q->wr % RING_SIZE) / 4;

	if (pos + n > RING_SIZE / 4) {
		while (pos < RING_SIZE / 4) {
			q->ring[pos++] = 0;	/* NOP */
			q->wr += 4;
		}
		pos = 0;
	}
	memcpy(q->ring + pos, d, n * 4);
	q->wr += n * 4;
}

static void
kick(struct sq *q)
{
	__atomic_store_n(&q->ptrs[1], q->wr, __ATOMIC_RELEASE);
	__atomic_store_n(q->doorbell, q->wr, __ATOMIC_RELEASE);
}

static uint64_t
rptr(const struct sq *q)
{
	return __atomic_load_n(&q->ptrs[0], __ATOMIC_ACQUIRE);
}

/* Wait (up to 5 s) until the read pointer reaches @want bytes. */
static int
reaches(const struct sq *q, uint64_t want)
{
	return kt_reaches(&q->ptrs[0], want);
}

/* A device of profile @name with every GPU acquired (freed by close_kt). */
static struct kt *
open_kt(const char *name)
{
	struct kt *t = calloc(1, sizeof(*t));

	memset(doorbells, 0, sizeof(doorbells));
	assert_non_null(t);
	assert_int_equal(kt_open(t, name, 0), 0);
	assert_int_equal(kt_acquire_all(t), 0);
	return t;
}

static void
close_kt(struct kt *t)
{
	kt_close(t);
	free(t);
}

/* A new MEMORY event of @t: its id. */
static uint32_t
memory_event(struct kt *t)
{
	struct kfd_abi_create_event_args e = { .event_type = KFD_ABI_EVENT_MEMORY };

	assert_int_equal(ksim_ioctl(t->kfd, KFD_ABI_IOC_CREATE_EVENT, &e), 0);
	return e.event_id;
}

/* Wait up to 5 s for the MEMORY event @id: the result, its data in *@ed. */
static uint32_t
wait_memory(struct kt *t, uint32_t id, struct kfd_abi_event_data *ed)
{
	struct kfd_abi_wait_events_args w = { 0 };

	memset(ed, 0, sizeof(*ed));
	ed->event_id = id;
	w.events_ptr = (uintptr_t)ed;
	w.num_events = 1;
	w.timeout = 5000;
	assert_int_equal(ksim_ioctl(t->kfd, KFD_ABI_IOC_WAIT_EVENTS, &w), 0);
	return w.wait_result;
}

static void
copy(struct sq *q, uint64_t dst, uint64_t src, uint32_t len)
{
	uint32_t d[7] = { 1, len - 1, 0, (uint32_t)src, (uint32_t)(src >> 32),
			  (uint32_t)dst, (uint32_t)(dst >> 32) };

	emit(q, d, 7);
}

/* Copy @len bytes in pieces of at most 4 MiB - 32 (the packet's limit). */
static void
copy_all(struct sq *q, uint64_t dst, uint64_t src, uint64_t len)
{
	while (len) {
		uint32_t n = len > 0x3fffe0 ? 0x3fffe0 : (uint32_t)len;

		copy(q, dst, src, n);
		dst += n;
		src += n;
		len -= n;
	}
}

static void
fence(struct sq *q, uint64_t va, uint32_t v)
{
	uint32_t d[4] = { 5, (uint32_t)va, (uint32_t)(va >> 32), v };

	emit(q, d, 4);
}

static int
setup(void **state)
{
	memset(doorbells, 0, sizeof(doorbells));
	return kt_setup_mi210(state);
}

/* Host -> VRAM (never CPU-mapped) -> host, 6 MiB, and the small stores. */
static void
test_copy(void **state)
{
	static const unsigned int g0 = 0;
	struct kt *t = *state;
	const uint64_t size = 6u << 20, src_va = 0x100000000ULL,
		       dst_va = 0x200000000ULL, vram_va = 0x300000000ULL;
	uint8_t *src = kt_userptr_mapped(t, 0, src_va, size);
	uint8_t *dst = kt_userptr_mapped(t, 0, dst_va, size);
	uint64_t *words = (uint64_t *)kt_userptr_mapped(t, 0, 0x400000000ULL, 4096);
	struct sq q;

	for (uint64_t i = 0; i < size; i++)
		src[i] = (uint8_t)(i * 2654435761u >> 13);
	kt_vram_mapped(t, 0, vram_va, size, &g0, 1);
	sq_new(t, &q, 0, 0x10000000ULL, KFD_ABI_QUEUE_TYPE_SDMA);
	copy_all(&q, vram_va, src_va, size);
	copy_all(&q, dst_va, vram_va, size);
	/* FENCE (32 bits), ATOMIC ADD64 of -1, TIMESTAMP */
	words[0] = ~0ULL;
	words[1] = 5;
	fence(&q, 0x400000000ULL, 0x1234);
	{
		uint32_t a[8] = { 10u | 47u << 25, 0, 4, 0xffffffff, 0xffffffff,
				  0, 0, 0 };
		uint32_t ts[3] = { 13u | 2u << 8, 16, 4 };

		a[1] = (uint32_t)(0x400000000ULL + 8);
		emit(&q, a, 8);
		ts[1] = (uint32_t)(0x400000000ULL + 16);
		emit(&q, ts, 3);
	}
	kick(&q);
	assert_true(reaches(&q, q.wr));
	assert_int_equal(rptr(&q), q.wr);
	assert_memory_equal(dst, src, size);
	assert_int_equal(words[0], 0xffffffff00001234ULL);	/* 32-bit store */
	assert_int_equal(words[1], 4);
	assert_true(words[2] != 0);
}

/* CONSTANT_FILL and WRITE touch their extent only; laps of the ring. */
static void
test_fill_write_laps(void **state)
{
	struct kt *t = *state;
	uint8_t *buf = kt_userptr_mapped(t, 0, 0x100000000ULL, 8192);
	struct sq q;
	uint64_t lap;

	memset(buf, 0xee, 8192);
	sq_new(t, &q, 0, 0x10000000ULL, KFD_ABI_QUEUE_TYPE_SDMA);
	{
		uint32_t f[5] = { 11u | 2u << 30, 0x100, 1, 0xa5a5a5a5, 4096 - 1 };
		uint32_t w[7] = { 2, 0x1800, 1, 2, 0x11111111, 0x22222222,
				  0x33333333 };

		emit(&q, f, 5);
		emit(&q, w, 7);
	}
	kick(&q);
	assert_true(reaches(&q, q.wr));
	assert_int_equal(buf[0xff], 0xee);
	for (int i = 0x100; i < 0x1100; i++)
		assert_int_equal(buf[i], 0xa5);
	assert_int_equal(buf[0x1100], 0xee);
	assert_int_equal(*(uint32_t *)(buf + 0x1800), 0x11111111);
	assert_int_equal(*(uint32_t *)(buf + 0x1808), 0x33333333);
	assert_int_equal(buf[0x180c], 0xee);
	/* three more laps of fences: the read pointer never wraps */
	for (lap = 0; lap < 3 * RING_SIZE / 16; lap++) {
		fence(&q, 0x100000000ULL, (uint32_t)lap);
		kick(&q);
		while (q.wr - rptr(&q) > RING_SIZE / 2)
			usleep(100);
	}
	assert_true(reaches(&q, q.wr));
	assert_true(q.wr > 3 * RING_SIZE);
	assert_int_equal(*(uint32_t *)buf, (uint32_t)(lap - 1));
}

/* CONSTANT_FILL of @v over [va, va+len), len a multiple of 4. */
static void
const_fill(struct sq *q, uint64_t va, uint32_t v, uint64_t len)
{
	uint32_t f[5] = { 11u | 2u << 30, (uint32_t)va, (uint32_t)(va >> 32), v,
			  (uint32_t)len - 1 };

	emit(q, f, 5);
}

/* How many of the @n pages at @p are in memory. */
static unsigned int
resident(const void *p, size_t n)
{
	unsigned char vec[256];
	unsigned int r = 0;

	assert_true(n <= sizeof(vec));
	assert_int_equal(mincore((void *)p, n * 4096, vec), 0);
	for (size_t i = 0; i < n; i++)
		r += vec[i] & 1;
	return r;
}

/*
 * A zero CONSTANT_FILL over VRAM is exact to the byte, at unaligned ends
 * too, and gives back the memory of the whole pages it covers (they read
 * as zeros, as the CPU's mapping shows); a nonzero fill and the zero
 * fill's partial pages keep theirs.
 */
static void
test_zero_fill(void **state)
{
	static const unsigned int g0 = 0;
	struct kt *t = *state;
	const uint64_t size = 1u << 20, vram_va = 0x300000000ULL,
		       host_va = 0x100000000ULL;
	const uint64_t lo = 4096 + 100, hi = size - 4096 - 200;
	uint8_t *host = kt_userptr_mapped(t, 0, host_va, size), *cpu;
	uint64_t h, off;
	uint32_t ns;
	struct sq q;
	int err;

	assert_int_equal(kt_alloc(t, 0, vram_va, size,
				  KFD_ABI_ALLOC_MEM_FLAGS_WRITABLE |
				  KFD_ABI_ALLOC_MEM_FLAGS_VRAM |
				  KFD_ABI_ALLOC_MEM_FLAGS_PUBLIC, &h, &off), 0);
	assert_int_equal(kt_map(t, h, &g0, 1, &ns), 0);
	cpu = kt_cpu_map(t->rnd[0], off, size, &err);
	assert_non_null(cpu);
	sq_new(t, &q, 0, 0x10000000ULL, KFD_ABI_QUEUE_TYPE_SDMA);
	const_fill(&q, vram_va, 0xabcdeffu, size);
	kick(&q);
	assert_true(reaches(&q, q.wr));
	assert_int_equal(resident(cpu, size / 4096), size / 4096);
	const_fill(&q, vram_va + lo, 0, hi - lo);
	copy_all(&q, host_va, vram_va, size);
	kick(&q);
	assert_true(reaches(&q, q.wr));
	/*
	 * Pages 0, 1 and the last two hold nonzero bytes; the rest are gone
	 * (asked before the CPU reads any: a read fault brings a page back).
	 */
	assert_int_equal(resident(cpu, 2), 2);
	assert_int_equal(resident(cpu + size - 2 * 4096, 2), 2);
	assert_int_equal(resident(cpu + 2 * 4096, size / 4096 - 4), 0);
	for (uint64_t i = 0; i < size; i++) {
		uint8_t want = i >= lo && i < hi ? 0 : (uint8_t)(0xabcdeffu >> (i % 4 * 8));

		if (host[i] != want)
			fail_msg("byte 0x%llx: %02x, not %02x",
				 (unsigned long long)i, host[i], want);
	}
	assert_memory_equal(cpu, host, size);
}

/* POLL_REGMEM holds its queue only; FENCE + TRAP wakes the event. */
static void
test_poll_trap(void **state)
{
	struct kt *t = *state;
	uint32_t *word = (uint32_t *)kt_userptr_mapped(t, 0, 0x100000000ULL, 4096);
	struct kfd_abi_create_event_args e = { 0 };
	struct kfd_abi_wait_events_args w = { 0 };
	struct kfd_abi_event_data ed = { 0 };
	unsigned int g0 = 0;
	uint64_t h, off;
	uint32_t ns;
	struct sq a, b;

	/* The events page a dGPU runtime gives: a GTT BO at a GPU VA. */
	assert_int_equal(kt_alloc(t, 0, 0x7000000, 32768,
				  KFD_ABI_ALLOC_MEM_FLAGS_WRITABLE |
				  KFD_ABI_ALLOC_MEM_FLAGS_GTT, &h, &off), 0);
	assert_int_equal(kt_map(t, h, &g0, 1, &ns), 0);
	e.event_type = KFD_ABI_EVENT_SIGNAL;
	e.event_page_offset = h;
	assert_int_equal(ksim_ioctl(t->kfd, KFD_ABI_IOC_CREATE_EVENT, &e), 0);

	sq_new(t, &a, 0, 0x10000000ULL, KFD_ABI_QUEUE_TYPE_SDMA);
	sq_new(t, &b, 0, 0x11000000ULL, KFD_ABI_QUEUE_TYPE_SDMA);
	{
		/* mem_poll, func 3 (equal): *word & 0xff == 7 */
		uint32_t p[6] = { 8u | 3u << 28 | 1u << 31, 0, 1, 7, 0xff,
				  4 | 0xfffu << 16 };

		emit(&a, p, 6);
	}
	fence(&a, 0x7000000 + (uint64_t)e.event_id * 8, e.event_id);
	{
		uint32_t trap[2] = { 6, e.event_id };

		emit(&a, trap, 2);
	}
	kick(&a);
	fence(&b, 0x100000000ULL + 8, 99);
	kick(&b);
	assert_true(reaches(&b, b.wr));
	usleep(20000);
	assert_int_equal(rptr(&a), 0);
	/* still held: no event yet */
	ed.event_id = e.event_id;
	w.events_ptr = (uintptr_t)&ed;
	w.num_events = 1;
	w.timeout = 0;
	assert_int_equal(ksim_ioctl(t->kfd, KFD_ABI_IOC_WAIT_EVENTS, &w), 0);
	assert_int_equal(w.wait_result, KFD_ABI_WAIT_RESULT_TIMEOUT);
	__atomic_store_n(word, 0x307, __ATOMIC_RELEASE);	/* masked: 7 */
	w.timeout = 5000;
	assert_int_equal(ksim_ioctl(t->kfd, KFD_ABI_IOC_WAIT_EVENTS, &w), 0);
	assert_int_equal(w.wait_result, KFD_ABI_WAIT_RESULT_COMPLETE);
	assert_true(reaches(&a, a.wr));
}

/* Packet errors stop their own queue; GCR belongs to SDMA v5. */
static void
test_errors(void **state)
{
	struct kt *t = *state;
	uint32_t *word = (uint32_t *)kt_userptr_mapped(t, 0, 0x100000000ULL, 4096);
	uint32_t bad[1] = { 0x3f }, gcr[5] = { 17u | 1u << 8, 0, 0, 0, 0 };
	/* POLL_REGMEM on memory with function 7, which no engine defines */
	uint32_t poll7[6] = { 8u | 1u << 31 | 7u << 28, 0, 1, 0, ~0u, 10 };
	struct sq a, b, c, ok;

	sq_new(t, &a, 0, 0x10000000ULL, KFD_ABI_QUEUE_TYPE_SDMA);
	sq_new(t, &b, 0, 0x11000000ULL, KFD_ABI_QUEUE_TYPE_SDMA);
	sq_new(t, &c, 0, 0x12000000ULL, KFD_ABI_QUEUE_TYPE_SDMA);
	sq_new(t, &ok, 0, 0x13000000ULL, KFD_ABI_QUEUE_TYPE_SDMA);
	emit(&a, bad, 1);
	fence(&a, 0x100000000ULL, 1);
	kick(&a);
	emit(&b, poll7, 6);
	fence(&b, 0x100000000ULL, 2);
	kick(&b);
	emit(&c, gcr, 5);		/* mi210 is gfx9: SDMA v4 */
	fence(&c, 0x100000000ULL, 3);
	kick(&c);
	fence(&ok, 0x100000000ULL + 4, 4);
	kick(&ok);
	assert_true(reaches(&ok, ok.wr));
	usleep(20000);
	assert_int_equal(rptr(&a), 0);
	assert_int_equal(rptr(&b), 0);
	assert_int_equal(rptr(&c), 0);
	assert_int_equal(word[0], 0);
	assert_int_equal(word[1], 4);
	/* a stopped queue stays stopped */
	fence(&a, 0x100000000ULL, 5);
	kick(&a);
	usleep(20000);
	assert_int_equal(rptr(&a), 0);
	/* a doorbell that moves the write pointer back stops the queue;
	 * one more than a ring ahead too */
	fence(&ok, 0x100000000ULL + 8, 6);
	kick(&ok);
	assert_true(reaches(&ok, ok.wr));
	__atomic_store_n(ok.doorbell, ok.wr - 16, __ATOMIC_RELEASE);
	usleep(20000);
	fence(&ok, 0x100000000ULL + 8, 7);
	kick(&ok);
	usleep(20000);
	assert_int_equal(word[2], 6);
	sq_new(t, &b, 0, 0x14000000ULL, KFD_ABI_QUEUE_TYPE_SDMA);
	fence(&b, 0x100000000ULL + 12, 8);
	__atomic_store_n(b.doorbell, RING_SIZE + 64, __ATOMIC_RELEASE);
	usleep(20000);
	assert_int_equal(rptr(&b), 0);
	assert_int_equal(word[3], 0);
}

static void
test_gcr_gfx10(void **state)
{
	struct kt *t = open_kt("rx6900xt");
	uint32_t gcr[5] = { 17u | 1u << 8, 0, 0x8000000, 0, 0 };
	uint32_t *word;
	struct sq q;

	(void)state;
	word = (uint32_t *)kt_userptr_mapped(t, 0, 0x100000000ULL, 4096);
	sq_new(t, &q, 0, 0x10000000ULL, KFD_ABI_QUEUE_TYPE_SDMA);
	emit(&q, gcr, 5);
	fence(&q, 0x100000000ULL, 10);
	emit(&q, gcr, 5);
	kick(&q);
	assert_true(reaches(&q, q.wr));
	assert_int_equal(word[0], 10);
	close_kt(t);
}

/* mi210x2: GPU 0's SDMA copies into GPU 1's VRAM (mapped on both). */
static void
test_peer(void **state)
{
	static const unsigned int both[2] = { 0, 1 };
	struct kt *t = open_kt("mi210x2");
	const uint64_t size = 1u << 20;
	uint8_t *src, *dst;
	struct sq q;

	(void)state;
	src = kt_userptr_mapped(t, 0, 0x100000000ULL, size);
	dst = kt_userptr_mapped(t, 0, 0x200000000ULL, size);
	for (uint64_t i = 0; i < size; i++)
		src[i] = (uint8_t)(i * 7 + 3);
	kt_vram_mapped(t, 1, 0x300000000ULL, size, both, 2);
	sq_new(t, &q, 0, 0x10000000ULL, KFD_ABI_QUEUE_TYPE_SDMA_XGMI);
	copy(&q, 0x300000000ULL, 0x100000000ULL, (uint32_t)size);
	copy(&q, 0x200000000ULL, 0x300000000ULL, (uint32_t)size);
	kick(&q);
	assert_true(reaches(&q, q.wr));
	assert_memory_equal(dst, src, size);
	close_kt(t);
}

/* SVM_NATTR with one attribute over [start, start+size). */
static int
svm_set(struct kt *t, uint64_t start, uint64_t size, uint32_t type,
	uint32_t value)
{
	union {
		struct kfd_abi_svm_args a;
		unsigned char room[sizeof(struct kfd_abi_svm_args) +
				   sizeof(struct kfd_abi_svm_attribute)];
	} r;

	memset(&r, 0, sizeof(r));
	r.a.start_addr = start;
	r.a.size = size;
	r.a.op = KFD_ABI_SVM_OP_SET_ATTR;
	r.a.nattr = 1;
	r.a.attrs[0].type = type;
	r.a.attrs[0].value = value;
	return ksim_ioctl(t->kfd, KFD_ABI_IOC_SVM_NATTR(1), &r);
}

static uint8_t *
host_pages(size_t size)
{
	uint8_t *p = mmap(NULL, size, PROT_READ | PROT_WRITE,
			  MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	assert_true(p != MAP_FAILED);
	return p;
}

/*
 * XNACK off (mi210's default): malloc'd memory is out of the GPU's reach
 * until an SVM range grants it ACCESS or ACCESS_IN_PLACE, as HIP 6.x
 * registers it for hipMemcpy; a range without access still faults.
 */
static void
test_svm_copy(void **state)
{
	static const unsigned int g0 = 0;
	struct kt *t = *state;
	const uint64_t size = 1u << 20, vram_va = 0x300000000ULL;
	uint8_t *src = host_pages(size), *dst = host_pages(size);
	uint8_t *other = host_pages(size), *unreg = host_pages(size);
	uint32_t *word = (uint32_t *)kt_userptr_mapped(t, 0, 0x100000000ULL, 4096);
	uint32_t mem = memory_event(t);
	struct kfd_abi_event_data ed;
	struct sq before, q, denied;

	for (uint64_t i = 0; i < size; i++)
		src[i] = unreg[i] = (uint8_t)(i * 31 + 7);
	kt_vram_mapped(t, 0, vram_va, size, &g0, 1);
	assert_int_equal(svm_set(t, (uintptr_t)src, size, KFD_ABI_SVM_ATTR_ACCESS,
				 t->gpu_id[0]), 0);
	assert_int_equal(svm_set(t, (uintptr_t)dst, size,
				 KFD_ABI_SVM_ATTR_ACCESS_IN_PLACE, t->gpu_id[0]), 0);
	assert_int_equal(svm_set(t, (uintptr_t)other, size,
				 KFD_ABI_SVM_ATTR_SET_FLAGS,
				 KFD_ABI_SVM_FLAG_COHERENT), 0);
	sq_new(t, &q, 0, 0x11000000ULL, KFD_ABI_QUEUE_TYPE_SDMA);
	copy(&q, vram_va, (uintptr_t)src, (uint32_t)size);
	copy(&q, (uintptr_t)dst, vram_va, (uint32_t)size);
	fence(&q, 0x100000000ULL + 4, 2);
	kick(&q);
	assert_true(reaches(&q, q.wr));
	assert_memory_equal(dst, src, size);
	assert_int_equal(word[1], 2);

	/* Each fault evicts the process's queues: one process per fault. */
	sq_new(t, &denied, 0, 0x12000000ULL, KFD_ABI_QUEUE_TYPE_SDMA);
	copy(&denied, (uintptr_t)other, (uintptr_t)src, 4096);
	fence(&denied, 0x100000000ULL + 8, 3);
	kick(&denied);
	assert_int_equal(wait_memory(t, mem, &ed), KFD_ABI_WAIT_RESULT_COMPLETE);
	assert_int_equal(ed.memory_exception_data.va, (uintptr_t)other);
	assert_int_equal(ed.memory_exception_data.failure.NotPresent, 1);
	assert_int_equal(rptr(&denied), 0);	/* the range grants no access */
	assert_int_equal(word[2], 0);
	assert_int_equal(other[0], 0);
	{
		struct kt *u = open_kt("mi210");
		uint32_t umem = memory_event(u);

		word = (uint32_t *)kt_userptr_mapped(u, 0, 0x100000000ULL, 4096);
		kt_vram_mapped(u, 0, vram_va, size, &g0, 1);
		sq_new(u, &before, 0, 0x10000000ULL, KFD_ABI_QUEUE_TYPE_SDMA);
		copy(&before, vram_va, (uintptr_t)unreg + 8192, (uint32_t)size);
		fence(&before, 0x100000000ULL, 1);
		kick(&before);
		assert_int_equal(wait_memory(u, umem, &ed), KFD_ABI_WAIT_RESULT_COMPLETE);
		assert_int_equal(ed.memory_exception_data.va, (uintptr_t)unreg + 8192);
		assert_int_equal(rptr(&before), 0);	/* in no SVM range */
		assert_int_equal(word[0], 0);
		close_kt(u);
	}
	munmap(src, size);
	munmap(dst, size);
	munmap(other, size);
	munmap(unreg, size);
}

/* XNACK on: the kernel maps on fault, so any page the CPU has is reached. */
static void
test_svm_xnack(void **state)
{
	struct kt *t = open_kt("mi210");
	struct kfd_abi_set_xnack_mode_args x = { .xnack_enabled = 1 };
	const uint64_t size = 64u << 10;
	uint8_t *src = host_pages(size), *dst = host_pages(size);
	struct sq q;

	(void)state;
	assert_int_equal(ksim_ioctl(t->kfd, KFD_ABI_IOC_SET_XNACK_MODE, &x), 0);
	for (uint64_t i = 0; i < size; i++)
		src[i] = (uint8_t)(i ^ 0x5a);
	sq_new(t, &q, 0, 0x10000000ULL, KFD_ABI_QUEUE_TYPE_SDMA);
	copy(&q, (uintptr_t)dst, (uintptr_t)src, (uint32_t)size);
	kick(&q);
	assert_true(reaches(&q, q.wr));
	assert_memory_equal(dst, src, size);
	munmap(src, size);
	munmap(dst, size);
	close_kt(t);
}

/*
 * One COPY_LINEAR of 16 MiB (count 0xffffff, past 22 bits): gfx90a's
 * engine reads 30 bits and copies it all; gfx908's reads 22 and stops
 * the queue rather than copy a truncated length.
 */
static void
test_copy_count_width(void **state)
{
	const uint64_t size = 16u << 20;
	const char *profiles[2] = { "mi210", "mi100" };

	(void)state;
	for (unsigned int i = 0; i < 2; i++) {
		struct kt *t = open_kt(profiles[i]);
		uint8_t *src = kt_userptr_mapped(t, 0, 0x100000000ULL, size);
		uint8_t *dst = kt_userptr_mapped(t, 0, 0x200000000ULL, size);
		struct sq q;

		for (uint64_t j = 0; j < size; j += 4096)
			src[j] = src[j + 4095] = (uint8_t)(j >> 12 | 1);
		sq_new(t, &q, 0, 0x10000000ULL, KFD_ABI_QUEUE_TYPE_SDMA);
		copy(&q, 0x200000000ULL, 0x100000000ULL, (uint32_t)size);
		kick(&q);
		if (i == 0) {
			assert_true(reaches(&q, q.wr));
			assert_memory_equal(dst, src, size);
		} else {
			usleep(20000);
			assert_int_equal(rptr(&q), 0);
			assert_int_equal(dst[0], 0);
		}
		close_kt(t);
	}
}

/*
 * Copies that the kernel makes in one go (cp_mem_copy.c) into or out of a
 * userptr whose CPU pages the program unmapped: the engine gets EFAULT,
 * not SIGSEGV, and the copy is a VM fault at the userptr's page, whether
 * it is the source (userptr to userptr) or the destination (VRAM to it).
 */
static void
test_copy_gone_userptr(void **state)
{
	static const unsigned int g0 = 0;
	const uint64_t size = 1u << 20, a_va = 0x100000000ULL, b_va = 0x200000000ULL,
		       vram_va = 0x300000000ULL;

	(void)state;
	for (unsigned int k = 0; k < 2; k++) {
		struct kt *t = open_kt("mi210");
		uint32_t mem = memory_event(t);
		uint8_t *a = kt_userptr_mapped(t, 0, a_va, size);
		uint8_t *b = kt_userptr_mapped(t, 0, b_va, size);
		struct kfd_abi_event_data ed;
		struct sq q;

		memset(a, 0x5a, size);
		kt_vram_mapped(t, 0, vram_va, size, &g0, 1);
		sq_new(t, &q, 0, 0x10000000ULL, KFD_ABI_QUEUE_TYPE_SDMA);
		/* the VRAM gets bytes, so it has a backing file to read */
		copy(&q, vram_va, a_va, (uint32_t)size);
		kick(&q);
		assert_true(reaches(&q, q.wr));
		assert_int_equal(munmap(k ? b : a, size), 0);
		if (k)
			copy(&q, b_va, vram_va, (uint32_t)size);
		else
			copy(&q, b_va, a_va, (uint32_t)size);
		kick(&q);
		assert_int_equal(wait_memory(t, mem, &ed), KFD_ABI_WAIT_RESULT_COMPLETE);
		assert_int_equal(ed.memory_exception_data.va, k ? b_va : a_va);
		assert_int_equal(ed.memory_exception_data.failure.NotPresent, 1);
		if (!k)
			assert_int_equal(b[0], 0);
		close_kt(t);
	}
}

/* The render node's GPUVM_FAULT query on the VM of GPU 0's render file. */
static struct kfd_drm_amdgpu_info_gpuvm_fault
gpuvm_fault(struct kt *t)
{
	struct kfd_drm_amdgpu_info_gpuvm_fault vf;
	struct kfd_drm_amdgpu_info req;

	memset(&vf, 0xa5, sizeof(vf));
	memset(&req, 0, sizeof(req));
	req.return_pointer = (uintptr_t)&vf;
	req.return_size = sizeof(vf);
	req.query = KFD_DRM_AMDGPU_INFO_GPUVM_FAULT;
	assert_int_equal(ksim_ioctl(t->rnd[0], KFD_DRM_IOCTL_AMDGPU_INFO, &req), 0);
	return vf;
}

/*
 * VM faults, as kfdtest's KFDExceptionTest provokes them: a copy from an
 * address nothing maps, and a write to a BO allocated without WRITABLE.
 * The MEMORY event gets the faulting page, the GPU and the reason; every
 * queue of the process on the GPU is evicted, new ones included. The VM
 * keeps the fault for the render node's GPUVM_FAULT query: the page, the
 * gfxhub's status (PERMISSION_FAULTS: valid 0x10, write 0x40; RW 1 << 18).
 */
static void
test_vm_fault(void **state)
{
	static const unsigned int g0 = 0;
	static const uint32_t wr[5] = { 2, 0x10, 0x2, 0, 0x02020202 };
	struct kfd_abi_event_data ed;
	struct kfd_drm_amdgpu_info_gpuvm_fault vf;
	struct sq q, other;
	uint32_t *word, mem, ns;
	uint64_t h;
	struct kt *t;

	(void)state;
	t = open_kt("mi210");
	mem = memory_event(t);
	vf = gpuvm_fault(t);
	assert_int_equal(vf.addr, 0);
	assert_int_equal(vf.status, 0);
	assert_int_equal(vf.vmhub, 0);
	word = (uint32_t *)kt_userptr_mapped(t, 0, 0x100000000ULL, 4096);
	sq_new(t, &q, 0, 0x10000000ULL, KFD_ABI_QUEUE_TYPE_SDMA);
	sq_new(t, &other, 0, 0x11000000ULL, KFD_ABI_QUEUE_TYPE_SDMA);
	copy(&q, 0x100000000ULL, WILD_VA + 0x2345, 64);
	fence(&q, 0x100000000ULL, 1);
	kick(&q);
	assert_int_equal(wait_memory(t, mem, &ed), KFD_ABI_WAIT_RESULT_COMPLETE);
	assert_int_equal(ed.memory_exception_data.va, WILD_VA + 0x2000);
	assert_int_equal(ed.memory_exception_data.gpu_id, t->gpu_id[0]);
	assert_int_equal(ed.memory_exception_data.failure.NotPresent, 1);
	assert_int_equal(ed.memory_exception_data.failure.ReadOnly, 0);
	assert_int_equal(ed.memory_exception_data.failure.imprecise, 0);
	vf = gpuvm_fault(t);
	assert_int_equal(vf.addr, WILD_VA + 0x2000);
	assert_int_equal(vf.status, 0x10);
	assert_int_equal(vf.vmhub, KFD_DRM_AMDGPU_VMHUB_TYPE_GFX);
	assert_int_equal(rptr(&q), 0);
	fence(&other, 0x100000000ULL + 4, 2);
	kick(&other);
	usleep(20000);
	assert_int_equal(rptr(&other), 0);
	assert_int_equal(word[0], 0);
	assert_int_equal(word[1], 0);
	close_kt(t);

	t = open_kt("mi210");
	mem = memory_event(t);
	assert_int_equal(kt_alloc(t, 0, 0x200000000ULL, 4096,
				  KFD_ABI_ALLOC_MEM_FLAGS_GTT, &h, NULL), 0);
	assert_int_equal(kt_map(t, h, &g0, 1, &ns), 0);
	sq_new(t, &q, 0, 0x10000000ULL, KFD_ABI_QUEUE_TYPE_SDMA);
	emit(&q, wr, 5);	/* WRITE_LINEAR, one dword at 0x200000010 */
	kick(&q);
	assert_int_equal(wait_memory(t, mem, &ed), KFD_ABI_WAIT_RESULT_COMPLETE);
	assert_int_equal(ed.memory_exception_data.va, 0x200000000ULL);
	assert_int_equal(ed.memory_exception_data.failure.NotPresent, 0);
	assert_int_equal(ed.memory_exception_data.failure.ReadOnly, 1);
	vf = gpuvm_fault(t);
	assert_int_equal(vf.addr, 0x200000000ULL);
	assert_int_equal(vf.status, 0x40 | 1u << 18);
	assert_int_equal(rptr(&q), 0);
	close_kt(t);
}

/*
 * A doorbell the GPU writes: the doorbell page mapped into the VM (a
 * DOORBELL BO, as the thunk maps it), one queue's WRITE of another
 * queue's doorbell slot there rings that queue as a CPU store would, as
 * kfdtest's GPUDoorbellWrite does with SDMA.
 */
static void
gpu_rings(const char *profile)
{
	static const unsigned int g0 = 0;
	const uint64_t db_va = 0x30000000ULL, word_va = 0x400000000ULL;
	struct kt *t = open_kt(profile);
	uint64_t h, slot;
	uint32_t *word, ns;
	struct sq a, b;

	word = (uint32_t *)kt_userptr_mapped(t, 0, word_va, 4096);
	sq_new(t, &a, 0, 0x10000000ULL, KFD_ABI_QUEUE_TYPE_SDMA);
	sq_new(t, &b, 0, 0x12000000ULL, KFD_ABI_QUEUE_TYPE_SDMA);
	assert_int_equal(kt_alloc(t, 0, db_va, 8192,
				  KFD_ABI_ALLOC_MEM_FLAGS_DOORBELL |
				  KFD_ABI_ALLOC_MEM_FLAGS_WRITABLE, &h, NULL), 0);
	assert_int_equal(kt_map(t, h, &g0, 1, &ns), 0);
	/* B's packet is placed and its write pointer published, unrung. */
	fence(&b, word_va, 0x5a5a);
	__atomic_store_n(&b.ptrs[1], b.wr, __ATOMIC_RELEASE);
	usleep(20000);
	assert_int_equal(word[0], 0);
	/* A writes B's 64-bit doorbell: its slot in the mapped page. */
	slot = db_va + (uint64_t)((b.doorbell - doorbells[0]) * 8);
	{
		uint32_t w[6] = { 2, (uint32_t)slot, (uint32_t)(slot >> 32), 1,
				  (uint32_t)b.wr, (uint32_t)(b.wr >> 32) };

		emit(&a, w, 6);
	}
	kick(&a);
	assert_true(reaches(&a, a.wr));
	assert_true(reaches(&b, b.wr));
	assert_int_equal(word[0], 0x5a5a);
	assert_int_equal(*b.doorbell, b.wr);	/* the CPU sees the store */
	close_kt(t);
}

static void
test_gpu_doorbell_write(void **state)
{
	(void)state;
	gpu_rings("mi210");
	gpu_rings("rx6900xt");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_copy, setup, kt_teardown),
		cmocka_unit_test_setup_teardown(test_fill_write_laps, setup, kt_teardown),
		cmocka_unit_test_setup_teardown(test_zero_fill, setup, kt_teardown),
		cmocka_unit_test_setup_teardown(test_poll_trap, setup, kt_teardown),
		cmocka_unit_test_setup_teardown(test_errors, setup, kt_teardown),
		cmocka_unit_test(test_gcr_gfx10),
		cmocka_unit_test(test_peer),
		cmocka_unit_test_setup_teardown(test_svm_copy, setup, kt_teardown),
		cmocka_unit_test(test_svm_xnack),
		cmocka_unit_test(test_copy_count_width),
		cmocka_unit_test(test_vm_fault),
		cmocka_unit_test(test_copy_gone_userptr),
		cmocka_unit_test(test_gpu_doorbell_write),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

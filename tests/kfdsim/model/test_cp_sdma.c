/* SPDX-License-Identifier: MIT */
/*
 * The SDMA engine on the model directly (no ROCr): SDMA queues whose
 * rings and read/write pointers are userptr BOs (test_cp_sdma.h).
 * COPY_LINEAR moves bytes between host memory and VRAM the CPU never
 * mapped (and peer VRAM on mi210x2), CONSTANT_FILL and WRITE store
 * exactly their extent (a zero fill by dropping the whole pages of VRAM),
 * FENCE, ATOMIC ADD64 and TIMESTAMP store, the read pointer is written
 * back unwrapped across laps of the ring, POLL_REGMEM holds only its own
 * queue until memory matches, FENCE + TRAP wakes a waiter on the event
 * as the interrupt path does, GCR is an SDMA v5 (gfx10) packet, and an
 * unknown opcode, an address outside the VM, or a write pointer that
 * goes back or runs more than a ring ahead stops only that queue.
 * COPY_LINEAR's count is 30 bits on gfx90a and 22 on gfx908. The cases
 * of virtual memory (SVM, VM faults, the GPU's doorbell writes) are
 * test_cp_sdma_vm.c's.
 */
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "test_cp_sdma.h"

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
	sq_copy_all(&q, vram_va, src_va, size);
	sq_copy_all(&q, dst_va, vram_va, size);
	/* FENCE (32 bits), ATOMIC ADD64 of -1, TIMESTAMP */
	words[0] = ~0ULL;
	words[1] = 5;
	sq_fence(&q, 0x400000000ULL, 0x1234);
	{
		uint32_t a[8] = { 10u | 47u << 25, 0, 4, 0xffffffff, 0xffffffff,
				  0, 0, 0 };
		uint32_t ts[3] = { 13u | 2u << 8, 16, 4 };

		a[1] = (uint32_t)(0x400000000ULL + 8);
		sq_emit(&q, a, 8);
		ts[1] = (uint32_t)(0x400000000ULL + 16);
		sq_emit(&q, ts, 3);
	}
	sq_kick(&q);
	assert_true(sq_reaches(&q, q.wr));
	assert_int_equal(sq_rptr(&q), q.wr);
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

		sq_emit(&q, f, 5);
		sq_emit(&q, w, 7);
	}
	sq_kick(&q);
	assert_true(sq_reaches(&q, q.wr));
	assert_int_equal(buf[0xff], 0xee);
	for (int i = 0x100; i < 0x1100; i++)
		assert_int_equal(buf[i], 0xa5);
	assert_int_equal(buf[0x1100], 0xee);
	assert_int_equal(*(uint32_t *)(buf + 0x1800), 0x11111111);
	assert_int_equal(*(uint32_t *)(buf + 0x1808), 0x33333333);
	assert_int_equal(buf[0x180c], 0xee);
	/* three more laps of fences: the read pointer never wraps */
	for (lap = 0; lap < 3 * RING_SIZE / 16; lap++) {
		sq_fence(&q, 0x100000000ULL, (uint32_t)lap);
		sq_kick(&q);
		while (q.wr - sq_rptr(&q) > RING_SIZE / 2)
			usleep(100);
	}
	assert_true(sq_reaches(&q, q.wr));
	assert_true(q.wr > 3 * RING_SIZE);
	assert_int_equal(*(uint32_t *)buf, (uint32_t)(lap - 1));
}

/* CONSTANT_FILL of @v over [va, va+len), len a multiple of 4. */
static void
const_fill(struct sq *q, uint64_t va, uint32_t v, uint64_t len)
{
	uint32_t f[5] = { 11u | 2u << 30, (uint32_t)va, (uint32_t)(va >> 32), v,
			  (uint32_t)len - 1 };

	sq_emit(q, f, 5);
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
	sq_kick(&q);
	assert_true(sq_reaches(&q, q.wr));
	assert_int_equal(resident(cpu, size / 4096), size / 4096);
	const_fill(&q, vram_va + lo, 0, hi - lo);
	sq_copy_all(&q, host_va, vram_va, size);
	sq_kick(&q);
	assert_true(sq_reaches(&q, q.wr));
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
	uint32_t ev = kt_signal_event(t, 0x7000000);
	struct sq a, b;

	sq_new(t, &a, 0, 0x10000000ULL, KFD_ABI_QUEUE_TYPE_SDMA);
	sq_new(t, &b, 0, 0x11000000ULL, KFD_ABI_QUEUE_TYPE_SDMA);
	{
		/* mem_poll, func 3 (equal): *word & 0xff == 7 */
		uint32_t p[6] = { 8u | 3u << 28 | 1u << 31, 0, 1, 7, 0xff,
				  4 | 0xfffu << 16 };

		sq_emit(&a, p, 6);
	}
	sq_fence(&a, 0x7000000 + (uint64_t)ev * 8, ev);
	{
		uint32_t trap[2] = { 6, ev };

		sq_emit(&a, trap, 2);
	}
	sq_kick(&a);
	sq_fence(&b, 0x100000000ULL + 8, 99);
	sq_kick(&b);
	assert_true(sq_reaches(&b, b.wr));
	usleep(20000);
	assert_int_equal(sq_rptr(&a), 0);
	/* still held: no event yet */
	assert_int_equal(kt_wait_event(t, ev, 0, NULL), KFD_ABI_WAIT_RESULT_TIMEOUT);
	__atomic_store_n(word, 0x307, __ATOMIC_RELEASE);	/* masked: 7 */
	assert_int_equal(kt_wait_event(t, ev, 5000, NULL), KFD_ABI_WAIT_RESULT_COMPLETE);
	assert_true(sq_reaches(&a, a.wr));
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
	sq_emit(&a, bad, 1);
	sq_fence(&a, 0x100000000ULL, 1);
	sq_kick(&a);
	sq_emit(&b, poll7, 6);
	sq_fence(&b, 0x100000000ULL, 2);
	sq_kick(&b);
	sq_emit(&c, gcr, 5);		/* mi210 is gfx9: SDMA v4 */
	sq_fence(&c, 0x100000000ULL, 3);
	sq_kick(&c);
	sq_fence(&ok, 0x100000000ULL + 4, 4);
	sq_kick(&ok);
	assert_true(sq_reaches(&ok, ok.wr));
	usleep(20000);
	assert_int_equal(sq_rptr(&a), 0);
	assert_int_equal(sq_rptr(&b), 0);
	assert_int_equal(sq_rptr(&c), 0);
	assert_int_equal(word[0], 0);
	assert_int_equal(word[1], 4);
	/* a stopped queue stays stopped */
	sq_fence(&a, 0x100000000ULL, 5);
	sq_kick(&a);
	usleep(20000);
	assert_int_equal(sq_rptr(&a), 0);
	/* a doorbell that moves the write pointer back stops the queue;
	 * one more than a ring ahead too */
	sq_fence(&ok, 0x100000000ULL + 8, 6);
	sq_kick(&ok);
	assert_true(sq_reaches(&ok, ok.wr));
	__atomic_store_n(ok.doorbell, ok.wr - 16, __ATOMIC_RELEASE);
	usleep(20000);
	sq_fence(&ok, 0x100000000ULL + 8, 7);
	sq_kick(&ok);
	usleep(20000);
	assert_int_equal(word[2], 6);
	sq_new(t, &b, 0, 0x14000000ULL, KFD_ABI_QUEUE_TYPE_SDMA);
	sq_fence(&b, 0x100000000ULL + 12, 8);
	__atomic_store_n(b.doorbell, RING_SIZE + 64, __ATOMIC_RELEASE);
	usleep(20000);
	assert_int_equal(sq_rptr(&b), 0);
	assert_int_equal(word[3], 0);
}

static void
test_gcr_gfx10(void **state)
{
	struct kt *t = kt_new("rx6900xt");
	uint32_t gcr[5] = { 17u | 1u << 8, 0, 0x8000000, 0, 0 };
	uint32_t *word;
	struct sq q;

	(void)state;
	word = (uint32_t *)kt_userptr_mapped(t, 0, 0x100000000ULL, 4096);
	sq_new(t, &q, 0, 0x10000000ULL, KFD_ABI_QUEUE_TYPE_SDMA);
	sq_emit(&q, gcr, 5);
	sq_fence(&q, 0x100000000ULL, 10);
	sq_emit(&q, gcr, 5);
	sq_kick(&q);
	assert_true(sq_reaches(&q, q.wr));
	assert_int_equal(word[0], 10);
	kt_delete(t);
}

/* mi210x2: GPU 0's SDMA copies into GPU 1's VRAM (mapped on both). */
static void
test_peer(void **state)
{
	static const unsigned int both[2] = { 0, 1 };
	struct kt *t = kt_new("mi210x2");
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
	sq_copy(&q, 0x300000000ULL, 0x100000000ULL, (uint32_t)size);
	sq_copy(&q, 0x200000000ULL, 0x300000000ULL, (uint32_t)size);
	sq_kick(&q);
	assert_true(sq_reaches(&q, q.wr));
	assert_memory_equal(dst, src, size);
	kt_delete(t);
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
		struct kt *t = kt_new(profiles[i]);
		uint8_t *src = kt_userptr_mapped(t, 0, 0x100000000ULL, size);
		uint8_t *dst = kt_userptr_mapped(t, 0, 0x200000000ULL, size);
		struct sq q;

		for (uint64_t j = 0; j < size; j += 4096)
			src[j] = src[j + 4095] = (uint8_t)(j >> 12 | 1);
		sq_new(t, &q, 0, 0x10000000ULL, KFD_ABI_QUEUE_TYPE_SDMA);
		sq_copy(&q, 0x200000000ULL, 0x100000000ULL, (uint32_t)size);
		sq_kick(&q);
		if (i == 0) {
			assert_true(sq_reaches(&q, q.wr));
			assert_memory_equal(dst, src, size);
		} else {
			usleep(20000);
			assert_int_equal(sq_rptr(&q), 0);
			assert_int_equal(dst[0], 0);
		}
		kt_delete(t);
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_copy, kt_setup_mi210, kt_teardown),
		cmocka_unit_test_setup_teardown(test_fill_write_laps, kt_setup_mi210, kt_teardown),
		cmocka_unit_test_setup_teardown(test_zero_fill, kt_setup_mi210, kt_teardown),
		cmocka_unit_test_setup_teardown(test_poll_trap, kt_setup_mi210, kt_teardown),
		cmocka_unit_test_setup_teardown(test_errors, kt_setup_mi210, kt_teardown),
		cmocka_unit_test(test_gcr_gfx10),
		cmocka_unit_test(test_peer),
		cmocka_unit_test_setup_teardown(test_svm_copy, kt_setup_mi210, kt_teardown),
		cmocka_unit_test(test_svm_xnack),
		cmocka_unit_test(test_copy_count_width),
		cmocka_unit_test(test_vm_fault),
		cmocka_unit_test(test_copy_gone_userptr),
		cmocka_unit_test(test_gpu_doorbell_write),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

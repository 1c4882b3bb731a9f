/* SPDX-License-Identifier: MIT */
/* The SDMA queue and packets of test_cp_sdma.h. */
#include <string.h>

#include "test_cp_sdma.h"

void
sq_new(struct kt *t, struct sq *q, unsigned int gpu, uint64_t ring_va,
       uint32_t type)
{
	struct kfd_abi_create_queue_args a;
	uint64_t ptrs_va = ring_va + 0x100000;

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
	q->doorbell = kt_doorbell(t, a.doorbell_offset, &q->doorbell_page);
}

void
sq_emit(struct sq *q, const uint32_t *d, unsigned int n)
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

void
sq_kick(struct sq *q)
{
	__atomic_store_n(&q->ptrs[1], q->wr, __ATOMIC_RELEASE);
	__atomic_store_n(q->doorbell, q->wr, __ATOMIC_RELEASE);
}

uint64_t
sq_rptr(const struct sq *q)
{
	return __atomic_load_n(&q->ptrs[0], __ATOMIC_ACQUIRE);
}

int
sq_reaches(const struct sq *q, uint64_t want)
{
	return kt_reaches(&q->ptrs[0], want);
}

void
sq_copy(struct sq *q, uint64_t dst, uint64_t src, uint32_t len)
{
	uint32_t d[7] = { 1, len - 1, 0, (uint32_t)src, (uint32_t)(src >> 32),
			  (uint32_t)dst, (uint32_t)(dst >> 32) };

	sq_emit(q, d, 7);
}

void
sq_copy_all(struct sq *q, uint64_t dst, uint64_t src, uint64_t len)
{
	while (len) {
		uint32_t n = len > 0x3fffe0 ? 0x3fffe0 : (uint32_t)len;

		sq_copy(q, dst, src, n);
		dst += n;
		src += n;
		len -= n;
	}
}

void
sq_fence(struct sq *q, uint64_t va, uint32_t v)
{
	uint32_t d[4] = { 5, (uint32_t)va, (uint32_t)(va >> 32), v };

	sq_emit(q, d, 4);
}

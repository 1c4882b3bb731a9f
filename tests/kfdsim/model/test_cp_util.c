/* SPDX-License-Identifier: MIT */
/* The AQL queue and set-up of test_cp.h. */
#include <string.h>
#include <unistd.h>

#include "test_cp.h"

uint8_t *tq_kern;

/* The doorbell page of the device, mapped by the first queue. */
static volatile uint64_t *doorbells;

void
tq_new(struct kt *t, struct tq *q, uint64_t base)
{
	const struct ksim_gpu *g = kt_gpu_node(t)->gpu;
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

uint64_t
tq_sigva(const struct tq *q, unsigned int i)
{
	return q->sig_va + (uint64_t)i * 64;
}

int64_t *
tq_sig(const struct tq *q, unsigned int i)
{
	return (int64_t *)(q->sig + i * 64 + 8);
}

uint64_t
tq_rptr(const struct tq *q)
{
	return __atomic_load_n((uint64_t *)(q->aq + 128), __ATOMIC_ACQUIRE);
}

int
tq_reaches(const struct tq *q, uint64_t want)
{
	return kt_reaches((const uint64_t *)(q->aq + 128), want);
}

int
tq_inactive(const struct tq *q, int64_t bits)
{
	for (int i = 0; i < 5000; i++) {
		if (__atomic_load_n(tq_sig(q, 63), __ATOMIC_ACQUIRE) & bits)
			return 1;
		usleep(1000);
	}
	return 0;
}

void
tq_put(struct tq *q, uint16_t hdr, const uint8_t body[64])
{
	uint8_t *slot = q->ring + (q->wr % NPKT) * 64;

	memcpy(slot + 2, body + 2, 62);
	__atomic_store_n((uint64_t *)(q->aq + 56), q->wr + 1, __ATOMIC_RELEASE);
	__atomic_store_n((uint16_t *)slot, hdr, __ATOMIC_RELEASE);
	__atomic_store_n(q->doorbell, q->wr, __ATOMIC_RELEASE);
	q->wr++;
}

void
tq_put_kernel(struct tq *q, uint64_t kobj, uint64_t kernarg, uint64_t done)
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
	tq_put(q, 2, b);
}

void
tq_put_dispatch(struct tq *q, uint64_t kobj, uint64_t done)
{
	tq_put_kernel(q, kobj, 0, done);
}

void
tq_put_barrier(struct tq *q, uint64_t dep, uint64_t done)
{
	uint8_t b[64] = { 0 };

	memcpy(b + 8, &dep, 8);
	memcpy(b + 56, &done, 8);
	tq_put(q, 3 | 1 << 8, b);
}

static int
setup_on(void **state, const char *profile)
{
	static const uint32_t endpgm = 0xbf810000;
	const int64_t entry = 256;
	struct kt *t;

	doorbells = NULL;
	if (kt_setup_profile(state, profile))
		return -1;
	t = *state;
	kt_queue_areas(t, EOP_VA, CWSR_VA);
	/* one wave of s_endpgm: a kernel descriptor, zero but for the entry
	 * offset, and the code 256 bytes on */
	tq_kern = kt_userptr_mapped(t, 0, KERNEL_VA, 4096);
	memset(tq_kern, 0, 4096);
	memcpy(tq_kern + 16, &entry, 8);
	memcpy(tq_kern + entry, &endpgm, 4);
	return 0;
}

int
tq_setup_mi210(void **state)
{
	return setup_on(state, "mi210");
}

int
tq_setup_mi300x(void **state)
{
	return setup_on(state, "mi300x");
}

int
tq_setup_mi100(void **state)
{
	return setup_on(state, "mi100");
}

int
tq_setup_rx6900xt(void **state)
{
	return setup_on(state, "rx6900xt");
}

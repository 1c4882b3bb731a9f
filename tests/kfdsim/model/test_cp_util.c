/* SPDX-License-Identifier: MIT */
/* The AQL queue and set-up of test_cp.h. */
#include <string.h>
#include <unistd.h>

#include <kfdtrace/packet_abi.h>

#include "test_cp.h"

uint8_t *tq_kern;

void
tq_new(struct kt *t, struct tq *q, uint64_t base)
{
	struct kt_queue k;

	kt_queue_create(t, &k, base, KFD_ABI_QUEUE_TYPE_COMPUTE_AQL, RING_SIZE, EOP_VA,
			CWSR_VA, 0);
	memset(q, 0, sizeof(*q));
	q->ring = k.ring;
	q->aq = k.aux;
	q->sig = k.data;
	q->ring_va = base;
	q->aq_va = base + 0x100000;
	q->sig_va = base + 0x200000;
	q->qid = k.qid;
	q->doorbell = k.doorbell;
	/* queue_inactive_signal: signal 63 */
	*(uint64_t *)(q->aq + 192) = q->sig_va + 63 * 64;
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
	uint8_t b[64];

	kt_aql_dispatch_packet(b, 64, 64, kobj, kernarg, done);
	tq_put(q, KFD_AQL_TYPE_KERNEL_DISPATCH, b);
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

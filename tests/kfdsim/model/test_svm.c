/* SPDX-License-Identifier: MIT */
/* SVM ranges: attribute set/get, splitting, defaults, validity checks,
 * interaction with KFD BOs, XNACK. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "ktest.h"

#define PG 4096ULL

/* The arguments with room for 8 attributes in their trailing array. */
union svm_req {
	struct kfd_abi_svm_args a;
	unsigned char room[sizeof(struct kfd_abi_svm_args) +
			   8 * sizeof(struct kfd_abi_svm_attribute)];
};

static int
svm(struct kt *t, uint32_t op, uint64_t start, uint64_t size,
    struct kfd_abi_svm_attribute *attrs, uint32_t n)
{
	union svm_req r;
	int ret;

	memset(&r, 0, sizeof(r));
	r.a.start_addr = start;
	r.a.size = size;
	r.a.op = op;
	r.a.nattr = n;
	memcpy(r.a.attrs, attrs, n * sizeof(*attrs));
	ret = ksim_ioctl(t->kfd, KFD_ABI_IOC_SVM_NATTR(n), &r);
	memcpy(attrs, r.a.attrs, n * sizeof(*attrs));
	return ret;
}

static void *
region(size_t pages)
{
	void *p = mmap(NULL, pages * PG, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	assert_true(p != MAP_FAILED);
	return p;
}

static void
test_defaults_and_set(void **state)
{
	struct kt *t = *state;
	char *mem = region(16);
	uint64_t base = (uintptr_t)mem;
	struct kfd_abi_svm_attribute a[6];

	/* unregistered memory reads as the defaults */
	a[0].type = KFD_ABI_SVM_ATTR_PREFERRED_LOC;
	a[1].type = KFD_ABI_SVM_ATTR_PREFETCH_LOC;
	a[2].type = KFD_ABI_SVM_ATTR_GRANULARITY;
	a[3].type = KFD_ABI_SVM_ATTR_SET_FLAGS;
	a[4].type = KFD_ABI_SVM_ATTR_ACCESS;
	a[4].value = t->gpu_id[0];
	a[5].type = KFD_ABI_SVM_ATTR_CLR_FLAGS;
	assert_int_equal(svm(t, KFD_ABI_SVM_OP_GET_ATTR, base, 16 * PG, a, 6), 0);
	assert_int_equal(a[0].value, KFD_ABI_SVM_LOCATION_UNDEFINED);
	assert_int_equal(a[1].value, KFD_ABI_SVM_LOCATION_UNDEFINED);
	assert_int_equal(a[2].value, 9);
	assert_int_equal(a[3].value, KFD_ABI_SVM_FLAG_HOST_ACCESS | KFD_ABI_SVM_FLAG_COHERENT);
	assert_int_equal(a[4].type, KFD_ABI_SVM_ATTR_NO_ACCESS);	/* XNACK off */
	assert_int_equal(a[5].value, ~(KFD_ABI_SVM_FLAG_HOST_ACCESS |
				       KFD_ABI_SVM_FLAG_COHERENT));
	/* set on the middle 8 pages */
	a[0].type = KFD_ABI_SVM_ATTR_PREFERRED_LOC;
	a[0].value = t->gpu_id[0];
	a[1].type = KFD_ABI_SVM_ATTR_ACCESS_IN_PLACE;
	a[1].value = t->gpu_id[0];
	a[2].type = KFD_ABI_SVM_ATTR_SET_FLAGS;
	a[2].value = KFD_ABI_SVM_FLAG_GPU_RO;
	a[3].type = KFD_ABI_SVM_ATTR_GRANULARITY;
	a[3].value = 200;	/* clamped to 0x3f */
	assert_int_equal(svm(t, KFD_ABI_SVM_OP_SET_ATTR, base + 4 * PG, 8 * PG, a, 4), 0);
	memset(a, 0, sizeof(a));
	a[0].type = KFD_ABI_SVM_ATTR_PREFERRED_LOC;
	a[1].type = KFD_ABI_SVM_ATTR_ACCESS;
	a[1].value = t->gpu_id[0];
	a[2].type = KFD_ABI_SVM_ATTR_SET_FLAGS;
	a[3].type = KFD_ABI_SVM_ATTR_GRANULARITY;
	assert_int_equal(svm(t, KFD_ABI_SVM_OP_GET_ATTR, base + 4 * PG, 8 * PG, a, 4), 0);
	assert_int_equal(a[0].value, t->gpu_id[0]);
	assert_int_equal(a[1].type, KFD_ABI_SVM_ATTR_ACCESS_IN_PLACE);
	assert_int_equal(a[2].value, KFD_ABI_SVM_FLAG_HOST_ACCESS |
				     KFD_ABI_SVM_FLAG_COHERENT | KFD_ABI_SVM_FLAG_GPU_RO);
	assert_int_equal(a[3].value, 0x3f);
	/* split: change the second half; the whole reads mixed */
	a[0].type = KFD_ABI_SVM_ATTR_PREFERRED_LOC;
	a[0].value = KFD_ABI_SVM_LOCATION_SYSMEM;
	a[1].type = KFD_ABI_SVM_ATTR_CLR_FLAGS;
	a[1].value = KFD_ABI_SVM_FLAG_GPU_RO;
	assert_int_equal(svm(t, KFD_ABI_SVM_OP_SET_ATTR, base + 8 * PG, 4 * PG, a, 2), 0);
	memset(a, 0, sizeof(a));
	a[0].type = KFD_ABI_SVM_ATTR_PREFERRED_LOC;
	a[1].type = KFD_ABI_SVM_ATTR_SET_FLAGS;
	a[2].type = KFD_ABI_SVM_ATTR_CLR_FLAGS;
	assert_int_equal(svm(t, KFD_ABI_SVM_OP_GET_ATTR, base + 4 * PG, 8 * PG, a, 3), 0);
	assert_int_equal(a[0].value, KFD_ABI_SVM_LOCATION_UNDEFINED);	/* mixed */
	assert_int_equal(a[1].value, KFD_ABI_SVM_FLAG_HOST_ACCESS | KFD_ABI_SVM_FLAG_COHERENT);
	assert_int_equal(a[2].value, ~(KFD_ABI_SVM_FLAG_HOST_ACCESS |
				       KFD_ABI_SVM_FLAG_COHERENT | KFD_ABI_SVM_FLAG_GPU_RO));
	/* the munmap notification drops the ranges */
	ksim_notify_munmap(t->dev, base, 16 * PG);
	munmap(mem, 16 * PG);
}

static void
test_errors(void **state)
{
	struct kt *t = *state;
	char *mem = region(4);
	uint64_t base = (uintptr_t)mem, h;
	struct kfd_abi_svm_attribute a[2];
	union svm_req r;
	unsigned int g0 = 0;
	uint32_t ns;

	a[0].type = KFD_ABI_SVM_ATTR_SET_FLAGS;
	a[0].value = 0;
	assert_int_equal(svm(t, KFD_ABI_SVM_OP_SET_ATTR, base + 1, PG, a, 1), -EINVAL);
	assert_int_equal(svm(t, KFD_ABI_SVM_OP_SET_ATTR, base, 0, a, 1), -EINVAL);
	/* unknown attribute; unknown GPU; PREFETCH_LOC cannot be UNDEFINED */
	a[0].type = 99;
	assert_int_equal(svm(t, KFD_ABI_SVM_OP_SET_ATTR, base, PG, a, 1), -EINVAL);
	a[0].type = KFD_ABI_SVM_ATTR_ACCESS;
	a[0].value = 0x4242;
	assert_int_equal(svm(t, KFD_ABI_SVM_OP_SET_ATTR, base, PG, a, 1), -EINVAL);
	a[0].type = KFD_ABI_SVM_ATTR_PREFETCH_LOC;
	a[0].value = KFD_ABI_SVM_LOCATION_UNDEFINED;
	assert_int_equal(svm(t, KFD_ABI_SVM_OP_SET_ATTR, base, PG, a, 1), -EINVAL);
	/* GET does not accept ACCESS_IN_PLACE/NO_ACCESS as queries */
	a[0].type = KFD_ABI_SVM_ATTR_NO_ACCESS;
	a[0].value = t->gpu_id[0];
	assert_int_equal(svm(t, KFD_ABI_SVM_OP_GET_ATTR, base, PG, a, 1), -EINVAL);
	/* memory the CPU has not mapped */
	munmap(mem + 2 * PG, 2 * PG);
	a[0].type = KFD_ABI_SVM_ATTR_SET_FLAGS;
	a[0].value = 0;
	assert_int_equal(svm(t, KFD_ABI_SVM_OP_SET_ATTR, base, 4 * PG, a, 1), -EFAULT);
	/* an unknown op "succeeds" with a positive EINVAL */
	memset(&r, 0, sizeof(r));
	r.a.start_addr = base;
	r.a.size = PG;
	r.a.op = 7;
	assert_int_equal(ksim_ioctl(t->kfd, KFD_ABI_IOC_SVM_NATTR(0), &r), EINVAL);
	/* more attributes claimed than the request carries */
	r.a.op = KFD_ABI_SVM_OP_GET_ATTR;
	r.a.nattr = 4;
	assert_int_equal(ksim_ioctl(t->kfd, KFD_ABI_IOC_SVM_NATTR(1), &r), -EINVAL);
	/* a KFD BO mapped in the range: EADDRINUSE, and the other way round */
	assert_int_equal(kt_alloc(t, 0, base, PG, KFD_ABI_ALLOC_MEM_FLAGS_GTT, &h, NULL), 0);
	assert_int_equal(kt_map(t, h, &g0, 1, &ns), 0);
	assert_int_equal(svm(t, KFD_ABI_SVM_OP_SET_ATTR, base, PG, a, 1), -EADDRINUSE);
	assert_int_equal(kt_unmap(t, h, &g0, 1, &ns), 0);
	assert_int_equal(kt_free(t, h), 0);
	assert_int_equal(svm(t, KFD_ABI_SVM_OP_SET_ATTR, base, 2 * PG, a, 1), 0);
	assert_int_equal(kt_alloc(t, 0, base + PG, PG, KFD_ABI_ALLOC_MEM_FLAGS_GTT, &h, NULL),
			 -EADDRINUSE);
	/* VRAM without a VA is the exception */
	assert_int_equal(kt_alloc(t, 0, 0, PG, KFD_ABI_ALLOC_MEM_FLAGS_VRAM, &h, NULL), 0);
	munmap(mem, 2 * PG);
}

static void
test_xnack(void **state)
{
	struct kt *t = *state;
	struct kfd_abi_set_xnack_mode_args x = { .xnack_enabled = -1 };
	char *mem = region(1);
	struct kfd_abi_svm_attribute a[1];
	struct kt r;

	assert_int_equal(ksim_ioctl(t->kfd, KFD_ABI_IOC_SET_XNACK_MODE, &x), 0);
	assert_int_equal(x.xnack_enabled, 0);
	x.xnack_enabled = 1;
	assert_int_equal(ksim_ioctl(t->kfd, KFD_ABI_IOC_SET_XNACK_MODE, &x), 0);
	x.xnack_enabled = -5;
	assert_int_equal(ksim_ioctl(t->kfd, KFD_ABI_IOC_SET_XNACK_MODE, &x), 0);
	assert_int_equal(x.xnack_enabled, 1);
	/* with XNACK on, unregistered memory is accessible to every GPU */
	a[0].type = KFD_ABI_SVM_ATTR_ACCESS;
	a[0].value = t->gpu_id[0];
	assert_int_equal(svm(t, KFD_ABI_SVM_OP_GET_ATTR, (uintptr_t)mem, PG, a, 1), 0);
	assert_int_equal(a[0].type, KFD_ABI_SVM_ATTR_ACCESS);
	munmap(mem, PG);
	/* gfx1030 cannot do XNACK */
	assert_int_equal(kt_open(&r, "rx6900xt", 0), 0);
	x.xnack_enabled = 1;
	assert_int_equal(ksim_ioctl(r.kfd, KFD_ABI_IOC_SET_XNACK_MODE, &x), -EPERM);
	x.xnack_enabled = 0;
	assert_int_equal(ksim_ioctl(r.kfd, KFD_ABI_IOC_SET_XNACK_MODE, &x), 0);
	kt_close(&r);
}

/* An SMI subscriber of GPU @gpu asking for every event. */
static int
smi_open(struct kt *t, unsigned int gpu)
{
	struct kfd_abi_smi_events_args a = { .gpuid = t->gpu_id[gpu] };
	uint64_t all = KFD_ABI_SMI_EVENT_MASK_FROM_INDEX(KFD_ABI_SMI_EVENT_ALL_PROCESS) - 1;

	assert_int_equal(ksim_ioctl(t->kfd, KFD_ABI_IOC_SMI_EVENTS, &a), 0);
	assert_int_equal(write((int)a.anon_fd, &all, sizeof(all)), 8);
	return (int)a.anon_fd;
}

struct smi_rec {
	unsigned int ev;
	const char *rest;	/* the record after its time stamp */
	size_t len;		/* bytes of @rest (it may hold a NUL) */
};

/*
 * Read everything queued on @fd and match it to @want, record by record.
 * The stamps are boot-time nanoseconds that never go backwards.
 */
static void
smi_expect(int fd, const struct smi_rec *want, unsigned int n)
{
	char buf[2048], head[64];
	size_t len = 0, at = 0;
	long long prev = 0, now;
	struct timespec ts;
	ssize_t r;

	while ((r = read(fd, buf + len, sizeof(buf) - len)) > 0)
		len += (size_t)r;
	assert_int_equal(errno, EAGAIN);
	clock_gettime(CLOCK_BOOTTIME, &ts);
	now = (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec;
	for (unsigned int i = 0; i < n; i++) {
		unsigned int ev;
		long long ns;
		int off = 0;
		size_t hl = len - at < sizeof(head) - 1 ? len - at : sizeof(head) - 1;

		memcpy(head, buf + at, hl);
		head[hl] = 0;
		assert_int_equal(sscanf(head, "%x %lld %n", &ev, &ns, &off), 2);
		assert_int_equal(ev, want[i].ev);
		assert_true(ns >= prev && ns <= now);
		prev = ns;
		at += (size_t)off;
		assert_true(len - at >= want[i].len);
		assert_memory_equal(buf + at, want[i].rest, want[i].len);
		at += want[i].len;
	}
	assert_int_equal(at, len);
}

#define REC(ev, s)	{ (ev), (s), sizeof(s) - 1 }

/*
 * A prefetch to the GPU and back, then the CPU's munmap, with XNACK off,
 * as kfdtest's HMMProfilingEvent sees them: pages and gpu_ids in hex,
 * the prefetch trigger 0, and the queues evicted while the pages leave
 * the VRAM of a GPU that has them mapped.
 */
static void
test_smi_prefetch(void **state)
{
	struct kt *t = *state;
	char *mem = region(4);
	uint64_t base = (uintptr_t)mem, pg = base >> 12;
	struct kfd_abi_svm_attribute a[1];
	int fd = smi_open(t, 0);
	char s[6][96];
	unsigned int pid = (unsigned int)getpid(), g = t->gpu_id[0];
	struct smi_rec to_gpu[2], to_ram[4], unmap[1];

	a[0].type = KFD_ABI_SVM_ATTR_ACCESS;
	a[0].value = g;
	assert_int_equal(svm(t, KFD_ABI_SVM_OP_SET_ATTR, base, 4 * PG, a, 1), 0);
	smi_expect(fd, NULL, 0);	/* registering moves nothing */

	a[0].type = KFD_ABI_SVM_ATTR_PREFETCH_LOC;
	assert_int_equal(svm(t, KFD_ABI_SVM_OP_SET_ATTR, base, 4 * PG, a, 1), 0);
	snprintf(s[0], 96, "-%d @%lx(4) 0->%x %x:ffffffff 0\n", pid, (unsigned long)pg, g, g);
	snprintf(s[1], 96, "-%d @%lx(4) 0->%x 0 0\n", pid, (unsigned long)pg, g);
	to_gpu[0] = (struct smi_rec){ 5, s[0], strlen(s[0]) };
	to_gpu[1] = (struct smi_rec){ 6, s[1], strlen(s[1]) };
	smi_expect(fd, to_gpu, 2);
	/* already there: nothing moves */
	assert_int_equal(svm(t, KFD_ABI_SVM_OP_SET_ATTR, base, 4 * PG, a, 1), 0);
	smi_expect(fd, NULL, 0);

	a[0].value = KFD_ABI_SVM_LOCATION_SYSMEM;
	assert_int_equal(svm(t, KFD_ABI_SVM_OP_SET_ATTR, base, 4 * PG, a, 1), 0);
	snprintf(s[2], 96, "-%d @%lx(4) %x->0 0:ffffffff 0\n", pid, (unsigned long)pg, g);
	snprintf(s[3], 96, "-%d %x 0\n", pid, g);
	snprintf(s[4], 96, "-%d @%lx(4) %x->0 0 0\n", pid, (unsigned long)pg, g);
	/* "not rescheduled" is a NUL byte before the newline */
	snprintf(s[5], 96, "-%d %x ", pid, g);
	to_ram[0] = (struct smi_rec){ 5, s[2], strlen(s[2]) };
	to_ram[1] = (struct smi_rec){ 9, s[3], strlen(s[3]) };
	to_ram[2] = (struct smi_rec){ 6, s[4], strlen(s[4]) };
	memcpy(s[5] + strlen(s[5]) + 1, "\n", 2);
	to_ram[3] = (struct smi_rec){ 0xa, s[5], strlen(s[5]) + 2 };
	smi_expect(fd, to_ram, 4);

	ksim_notify_munmap(t->dev, base, 4 * PG);
	munmap(mem, 4 * PG);
	snprintf(s[0], 96, "-%d @%lx(4) %x 2\n", pid, (unsigned long)pg, g);
	unmap[0] = (struct smi_rec){ 0xb, s[0], strlen(s[0]) };
	smi_expect(fd, unmap, 1);
	close(fd);
}

/*
 * With XNACK on, pages leaving VRAM unmap the range from each GPU that
 * has it mapped (trigger MMU_NOTIFY_MIGRATE) instead of evicting the
 * queues. Each GPU reports to its own subscribers only.
 */
static void
test_smi_prefetch_xnack(void **state)
{
	struct kt x;
	struct kfd_abi_set_xnack_mode_args xn = { .xnack_enabled = 1 };
	char *mem = region(2);
	uint64_t base = (uintptr_t)mem, pg = base >> 12;
	struct kfd_abi_svm_attribute a[1];
	unsigned int pid = (unsigned int)getpid(), g, g1;
	char s[6][96];
	struct smi_rec w[5], w1[1];
	int fd, fd1;

	(void)state;
	assert_int_equal(kt_open(&x, "mi210x2", 0), 0);
	assert_int_equal(kt_acquire_all(&x), 0);
	assert_int_equal(ksim_ioctl(x.kfd, KFD_ABI_IOC_SET_XNACK_MODE, &xn), 0);
	g = x.gpu_id[0];
	g1 = x.gpu_id[1];
	fd = smi_open(&x, 0);
	fd1 = smi_open(&x, 1);
	a[0].type = KFD_ABI_SVM_ATTR_PREFETCH_LOC;
	a[0].value = g;
	assert_int_equal(svm(&x, KFD_ABI_SVM_OP_SET_ATTR, base, 2 * PG, a, 1), 0);
	a[0].value = KFD_ABI_SVM_LOCATION_SYSMEM;
	assert_int_equal(svm(&x, KFD_ABI_SVM_OP_SET_ATTR, base, 2 * PG, a, 1), 0);
	snprintf(s[0], 96, "-%d @%lx(2) 0->%x %x:ffffffff 0\n", pid, (unsigned long)pg, g, g);
	snprintf(s[1], 96, "-%d @%lx(2) 0->%x 0 0\n", pid, (unsigned long)pg, g);
	snprintf(s[2], 96, "-%d @%lx(2) %x->0 0:ffffffff 0\n", pid, (unsigned long)pg, g);
	snprintf(s[3], 96, "-%d @%lx(2) %x 1\n", pid, (unsigned long)pg, g);
	snprintf(s[4], 96, "-%d @%lx(2) %x->0 0 0\n", pid, (unsigned long)pg, g);
	snprintf(s[5], 96, "-%d @%lx(2) %x 1\n", pid, (unsigned long)pg, g1);
	w[0] = (struct smi_rec){ 5, s[0], strlen(s[0]) };
	w[1] = (struct smi_rec){ 6, s[1], strlen(s[1]) };
	w[2] = (struct smi_rec){ 5, s[2], strlen(s[2]) };
	w[3] = (struct smi_rec){ 0xb, s[3], strlen(s[3]) };
	w[4] = (struct smi_rec){ 6, s[4], strlen(s[4]) };
	w1[0] = (struct smi_rec){ 0xb, s[5], strlen(s[5]) };
	smi_expect(fd, w, 5);
	smi_expect(fd1, w1, 1);
	close(fd);
	close(fd1);
	ksim_notify_munmap(x.dev, base, 2 * PG);
	munmap(mem, 2 * PG);
	kt_close(&x);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_defaults_and_set, kt_setup_mi210, kt_teardown),
		cmocka_unit_test_setup_teardown(test_errors, kt_setup_mi210, kt_teardown),
		cmocka_unit_test_setup_teardown(test_xnack, kt_setup_mi210, kt_teardown),
		cmocka_unit_test_setup_teardown(test_smi_prefetch, kt_setup_mi210, kt_teardown),
		cmocka_unit_test(test_smi_prefetch_xnack),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

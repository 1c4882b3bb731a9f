/* SPDX-License-Identifier: MIT */
/*
 * An idle engine blocks (cp_idle.c): with PM4, AQL and SDMA queues idle,
 * the engine thread wakes not once in a second and uses no CPU; the next
 * doorbell store into any of the queues wakes it, and its packet retires.
 * Several threads ringing different queues at once are all served. A
 * queue waiting on WAIT_REG_MEM keeps the engine polling. A fork child's
 * store into its copy of the doorbell page does not block. A doorbell
 * mapping moved by mremap() still wakes the engine, an unmapped one is
 * forgotten, and KFDSIM_IDLE=poll keeps the engine polling. Needs
 * userfaultfd write-protect of shared memory: without it (the kernel's
 * answer, asked directly) the test says why and skips.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/userfaultfd.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <kfdtrace/packet_abi.h>

#include "ktest.h"

/* Older headers than the kernels that have them (5.11, 5.19). */
#ifndef UFFD_USER_MODE_ONLY
#define UFFD_USER_MODE_ONLY			1
#endif
#ifndef UFFD_FEATURE_WP_HUGETLBFS_SHMEM
#define UFFD_FEATURE_WP_HUGETLBFS_SHMEM		(1 << 12)
#endif

#define RING_SIZE	4096u
#define EOP_VA		0x30000000ULL
#define CWSR_VA		0x40000000ULL
#define Q_VA(i)		(0x10000000ULL + (uint64_t)(i) * 0x1000000ULL)
#define WPTR_OFF	64u	/* PM4 and SDMA write pointer in the aux page */
#define WINDOW_MS	1000
/* The engine blocks 100 ms after its last work (CP_DEEP_AFTER_NS). */
#define BLOCK_WAIT_NS	3000000000ULL
#define QUIET_NS	150000000ULL	/* no wake-up this long: blocked */
#define SERVE_MAX_NS	5000000000ULL
/* The first doorbell after idle, best of three: under the 20 ms a
 * polling engine may sleep (it takes about 140 us). */
#define PROMPT_NS	20000000ULL
#define N_RING		4

enum kind { K_PM4, K_AQL, K_SDMA };

static const char *const kind_name[] = { "PM4", "AQL", "SDMA" };

struct bq {
	struct kt_queue q;
	enum kind kind;
	uint64_t va;			/* ring; aux +1 MiB, data +2 MiB */
	uint32_t seq;
};

static void
setup_memory(struct kt *t)
{

	kt_queue_areas(t, EOP_VA, CWSR_VA);
}

static void
bq_create(struct kt *t, struct bq *b, unsigned int i, enum kind kind)
{
	static const uint32_t type[] = {
		[K_PM4] = KFD_ABI_QUEUE_TYPE_COMPUTE,
		[K_AQL] = KFD_ABI_QUEUE_TYPE_COMPUTE_AQL,
		[K_SDMA] = KFD_ABI_QUEUE_TYPE_SDMA,
	};

	memset(b, 0, sizeof(*b));
	b->kind = kind;
	b->va = Q_VA(i);
	kt_queue_create(t, &b->q, b->va, type[kind], RING_SIZE, EOP_VA,
			CWSR_VA, WPTR_OFF);
}

/*
 * Publish one packet that stores the next sequence number into the data
 * page (AQL: a barrier-AND, which retires) and ring the doorbell.
 */
static void
bq_ring(struct bq *b)
{
	struct kt_queue *q = &b->q;
	uint64_t data = b->va + 0x200000;
	uint32_t seq = ++b->seq;

	switch (b->kind) {
	case K_PM4: {
		uint32_t d[5] = { KFD_PM4_HDR(KFD_PM4_OP_WRITE_DATA, 3),
				  KFD_PM4_DST_MEM << 8, (uint32_t)data,
				  (uint32_t)(data >> 32), seq };

		memcpy((uint32_t *)q->ring + q->wr, d, sizeof(d));
		q->wr += 5;
		__atomic_store_n((uint64_t *)(q->aux + WPTR_OFF), q->wr,
				 __ATOMIC_RELEASE);
		__atomic_store_n(q->doorbell, q->wr, __ATOMIC_RELEASE);
		break;
	}
	case K_SDMA: {
		uint32_t d[4] = { 5, (uint32_t)data, (uint32_t)(data >> 32), seq };

		memcpy(q->ring + q->wr, d, sizeof(d));
		q->wr += sizeof(d);
		__atomic_store_n((uint64_t *)(q->aux + WPTR_OFF), q->wr,
				 __ATOMIC_RELEASE);
		__atomic_store_n(q->doorbell, q->wr, __ATOMIC_RELEASE);
		break;
	}
	case K_AQL: {
		uint8_t *slot = q->ring + q->wr * 64;

		memset(slot + 2, 0, 62);
		__atomic_store_n((uint64_t *)(q->aux + 56), q->wr + 1,
				 __ATOMIC_RELEASE);
		__atomic_store_n((uint16_t *)slot, (uint16_t)KFD_AQL_TYPE_BARRIER_AND,
				 __ATOMIC_RELEASE);
		__atomic_store_n(q->doorbell, q->wr, __ATOMIC_RELEASE);
		q->wr++;
		break;
	}
	}
}

/* 1 once the packet bq_ring() published has retired (within 5 s). */
static int
bq_served(struct bq *b)
{
	uint64_t t0 = kt_now_ns(CLOCK_MONOTONIC);

	for (;;) {
		if (b->kind == K_AQL ?
		    __atomic_load_n((uint64_t *)(b->q.aux + 128), __ATOMIC_ACQUIRE) ==
		    b->q.wr :
		    __atomic_load_n((uint32_t *)b->q.data, __ATOMIC_ACQUIRE) == b->seq)
			return 1;
		if (kt_now_ns(CLOCK_MONOTONIC) - t0 > SERVE_MAX_NS)
			return 0;
		sched_yield();
	}
}

/* Ring @b and return the ns until its packet retired (0: never). */
static uint64_t
bq_round_trip(struct bq *b)
{
	uint64_t t0 = kt_now_ns(CLOCK_MONOTONIC);

	bq_ring(b);
	if (!bq_served(b))
		return 0;
	return kt_now_ns(CLOCK_MONOTONIC) - t0 + 1;
}

/* 1 once the engine thread @tid went QUIET_NS without a wake-up. */
static int
wait_blocked(pid_t tid)
{
	uint64_t t0 = kt_now_ns(CLOCK_MONOTONIC);

	while (kt_now_ns(CLOCK_MONOTONIC) - t0 < BLOCK_WAIT_NS) {
		unsigned long sw = kt_task_switches(tid);

		usleep(QUIET_NS / 1000);
		if (kt_task_switches(tid) == sw)
			return 1;
	}
	return 0;
}

/* The three kinds of queue, each served once. */
static void
three_queues(struct kt *t, struct bq *b)
{
	setup_memory(t);
	bq_create(t, &b[0], 0, K_PM4);
	bq_create(t, &b[1], 1, K_AQL);
	bq_create(t, &b[2], 2, K_SDMA);
	for (unsigned int i = 0; i < 3; i++)
		assert_true(bq_round_trip(&b[i]) > 0);
}

/* Idle: no wake-up and no CPU in a second; every kind wakes it at once. */
static void
idle_blocks(void **state)
{
	struct kt *t = *state;
	uint64_t cpu0, cpu1, wall0, wall1, lat[3], best = UINT64_MAX;
	unsigned long sw0, sw1;
	struct bq b[3];
	pid_t tid;

	three_queues(t, b);
	assert_int_equal(ksim_idle_mode(t->dev), KSIM_IDLE_UFFD);
	tid = kt_engine_tid();
	assert_true(tid > 0);
	assert_true(wait_blocked(tid));
	sw0 = kt_task_switches(tid);
	cpu0 = kt_now_ns(kt_task_clock(tid));
	wall0 = kt_now_ns(CLOCK_MONOTONIC);
	usleep(WINDOW_MS * 1000);
	cpu1 = kt_now_ns(kt_task_clock(tid));
	wall1 = kt_now_ns(CLOCK_MONOTONIC);
	sw1 = kt_task_switches(tid);
	printf("blocked engine: %.0f ns of CPU per s, %.1f wake-ups per s\n",
	       (double)(cpu1 - cpu0) * 1e9 / (double)(wall1 - wall0),
	       (double)(sw1 - sw0) * 1e9 / (double)(wall1 - wall0));
	assert_int_equal(sw1 - sw0, 0);
	assert_int_equal(cpu1 - cpu0, 0);
	/* Each kind of doorbell wakes it; no timer could (it has none). */
	for (unsigned int i = 0; i < 3; i++) {
		assert_true(wait_blocked(tid));
		lat[i] = bq_round_trip(&b[i]);
		assert_true(lat[i] > 0);
		if (lat[i] < best)
			best = lat[i];
		printf("first %s doorbell after idle: retired in %.1f us\n",
		       kind_name[b[i].kind], (double)lat[i] / 1e3);
	}
	assert_true(best < PROMPT_NS);
}

struct ringer {
	struct bq *b;
	pthread_barrier_t *go;
	int ok;
};

static void *
ringer_main(void *arg)
{
	struct ringer *r = arg;

	pthread_barrier_wait(r->go);
	r->ok = bq_round_trip(r->b) > 0;
	return NULL;
}

/* Threads ringing different queues at once after idle are all served. */
static void
threads_ring_at_once(void **state)
{
	static const enum kind kinds[N_RING] = { K_PM4, K_PM4, K_AQL, K_SDMA };
	struct kt *t = *state;
	struct ringer r[N_RING];
	pthread_t th[N_RING];
	pthread_barrier_t go;
	struct bq b[N_RING];
	pid_t tid;

	setup_memory(t);
	for (unsigned int i = 0; i < N_RING; i++)
		bq_create(t, &b[i], i, kinds[i]);
	tid = kt_engine_tid();
	assert_true(tid > 0);
	for (unsigned int round = 0; round < 3; round++) {
		assert_true(wait_blocked(tid));
		pthread_barrier_init(&go, NULL, N_RING);
		for (unsigned int i = 0; i < N_RING; i++) {
			r[i].b = &b[i];
			r[i].go = &go;
			r[i].ok = 0;
			assert_int_equal(pthread_create(&th[i], NULL, ringer_main,
							&r[i]), 0);
		}
		for (unsigned int i = 0; i < N_RING; i++) {
			pthread_join(th[i], NULL);
			assert_true(r[i].ok);
		}
		pthread_barrier_destroy(&go);
	}
}

/* A queue waiting on memory is not idle: the engine keeps looking. */
static void
waiting_queue_polls(void **state)
{
	struct kt *t = *state;
	struct bq b;
	uint64_t word = Q_VA(0) + 0x200000 + 64;
	uint32_t d[7] = { KFD_PM4_HDR(KFD_PM4_OP_WAIT_REG_MEM, 5),
			  3u | KFD_PM4_WAIT_MEM, (uint32_t)word,
			  (uint32_t)(word >> 32), 7, 0xffffffffu, 4 };
	unsigned long sw0;
	pid_t tid;

	setup_memory(t);
	bq_create(t, &b, 0, K_PM4);
	tid = kt_engine_tid();
	assert_true(tid > 0);
	/* WAIT_REG_MEM until the word is 7, then the data store. */
	memcpy(b.q.ring, d, sizeof(d));
	b.q.wr = 7;
	bq_ring(&b);
	usleep(400000);
	sw0 = kt_task_switches(tid);
	usleep(300000);
	assert_true(kt_task_switches(tid) > sw0);
	assert_int_equal(*(volatile uint32_t *)b.q.data, 0);
	__atomic_store_n((uint32_t *)(b.q.data + 64), 7, __ATOMIC_RELEASE);
	assert_true(bq_served(&b));
}

/* A fork child's store into its copy of the page does not wait. */
static void
fork_child_not_armed(void **state)
{
	struct kt *t = *state;
	uint64_t t0;
	struct bq b[3];
	int status = 0;
	pid_t tid, c, w;

	three_queues(t, b);
	tid = kt_engine_tid();
	assert_true(tid > 0);
	assert_true(wait_blocked(tid));
	c = fork();
	assert_true(c >= 0);
	if (!c) {
		/* A slot of no queue: the parent's queues see nothing. */
		__atomic_store_n(b[0].q.doorbell + 100, 1, __ATOMIC_RELEASE);
		_exit(0);
	}
	t0 = kt_now_ns(CLOCK_MONOTONIC);
	while ((w = waitpid(c, &status, WNOHANG)) == 0 &&
	       kt_now_ns(CLOCK_MONOTONIC) - t0 < SERVE_MAX_NS)
		usleep(1000);
	if (!w) {
		kill(c, SIGKILL);
		waitpid(c, &status, 0);
		fail_msg("the child's doorbell store blocked");
	}
	assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	for (unsigned int i = 0; i < 3; i++)
		assert_true(bq_round_trip(&b[i]) > 0);
}

/* The registered set follows munmap() and mremap(). */
static void
mappings_tracked(void **state)
{
	struct kt *t = *state;
	struct bq b;
	volatile uint64_t *page, *extra;
	uintptr_t slot;
	void *moved, *hole;
	pid_t tid;
	int err;

	setup_memory(t);
	bq_create(t, &b, 0, K_PM4);
	page = b.q.doorbell_page;
	slot = (uintptr_t)b.q.doorbell - (uintptr_t)page;
	/* A second mapping, gone again: the engine still blocks. */
	extra = kt_cpu_map(t->kfd, KFD_ABI_MMAP_TYPE_DOORBELL |
			   (uint64_t)t->gpu_id[0] << KFD_ABI_MMAP_GPU_ID_SHIFT,
			   8192, &err);
	assert_non_null((void *)extra);
	assert_int_equal(munmap((void *)extra, 8192), 0);
	ksim_notify_munmap(t->dev, (uint64_t)(uintptr_t)extra, 8192);
	tid = kt_engine_tid();
	assert_true(tid > 0);
	assert_true(bq_round_trip(&b) > 0);
	/* Move the queue's mapping: a store at the new place wakes it. */
	hole = mmap(NULL, 8192, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	assert_true(hole != MAP_FAILED);
	moved = mremap((void *)page, 8192, 8192, MREMAP_MAYMOVE | MREMAP_FIXED,
		       hole);
	assert_true(moved == hole);
	ksim_notify_mremap(t->dev, (uint64_t)(uintptr_t)page, 8192,
			   (uint64_t)(uintptr_t)moved, 8192);
	b.q.doorbell = (volatile uint64_t *)((uintptr_t)moved + slot);
	assert_true(wait_blocked(tid));
	assert_true(bq_round_trip(&b) > 0);
	assert_true(wait_blocked(tid));
	assert_true(bq_round_trip(&b) > 0);
}

/* KFDSIM_IDLE=poll: the engine sleeps and looks again, as before. */
static void
poll_mode(void **state)
{
	struct kt *t;
	struct bq b[3];
	unsigned long sw0;
	pid_t tid;

	setenv("KFDSIM_IDLE", "poll", 1);
	assert_int_equal(kt_setup_mi210(state), 0);
	t = *state;
	three_queues(t, b);
	unsetenv("KFDSIM_IDLE");
	assert_int_equal(ksim_idle_mode(t->dev), KSIM_IDLE_POLL);
	tid = kt_engine_tid();
	assert_true(tid > 0);
	usleep(300000);
	sw0 = kt_task_switches(tid);
	usleep(200000);
	assert_true(kt_task_switches(tid) > sw0);
	for (unsigned int i = 0; i < 3; i++)
		assert_true(bq_round_trip(&b[i]) > 0);
}

/*
 * Whether this kernel write-protects shared memory for an unprivileged
 * userfaultfd: the kernel's answer, not its version. NULL when it does.
 */
static const char *
host_refuses(void)
{
	struct uffdio_api api = { .api = UFFD_API,
				  .features = UFFD_FEATURE_WP_HUGETLBFS_SHMEM };
	struct uffdio_register reg = { .mode = UFFDIO_REGISTER_MODE_WP };
	struct uffdio_writeprotect wp = { .mode = UFFDIO_WRITEPROTECT_MODE_WP };
	const char *why = NULL;
	int u, m = memfd_create("cp-block-probe", MFD_CLOEXEC);
	void *p;

	if (m < 0 || ftruncate(m, 4096))
		return "no memfd";
	p = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, m, 0);
	close(m);
	if (p == MAP_FAILED)
		return "no shared mapping";
	u = (int)syscall(SYS_userfaultfd, O_CLOEXEC | UFFD_USER_MODE_ONLY);
	if (u < 0)
		why = "userfaultfd(UFFD_USER_MODE_ONLY) refused";
	else if (ioctl(u, UFFDIO_API, &api))
		why = "no userfaultfd write-protect of shared memory";
	if (!why) {
		reg.range.start = wp.range.start = (uint64_t)(uintptr_t)p;
		reg.range.len = wp.range.len = 4096;
		if (ioctl(u, UFFDIO_REGISTER, &reg) ||
		    ioctl(u, UFFDIO_WRITEPROTECT, &wp))
			why = "UFFDIO_REGISTER/UFFDIO_WRITEPROTECT refused";
	}
	if (u >= 0)
		close(u);
	munmap(p, 4096);
	return why;
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(idle_blocks, kt_setup_mi210,
						kt_teardown),
		cmocka_unit_test_setup_teardown(threads_ring_at_once,
						kt_setup_mi210, kt_teardown),
		cmocka_unit_test_setup_teardown(waiting_queue_polls,
						kt_setup_mi210, kt_teardown),
		cmocka_unit_test_setup_teardown(fork_child_not_armed,
						kt_setup_mi210, kt_teardown),
		cmocka_unit_test_setup_teardown(mappings_tracked, kt_setup_mi210,
						kt_teardown),
		cmocka_unit_test_teardown(poll_mode, kt_teardown),
	};
	const char *why = host_refuses();

	if (why) {
		printf("SKIP: %s: an idle engine cannot block on this host\n", why);
		return 77;
	}
	return cmocka_run_group_tests(tests, NULL, NULL);
}

/* SPDX-License-Identifier: MIT */
/*
 * Doorbells that trap (docs/submissions.md): eight threads ring four AQL
 * queues on kfdtrace's libhsakmt, two threads per queue, under the
 * capture library with submissions on. Each thread rings with a store of
 * its own kind (MOV, XCHG, MOVQ from an XMM register, MOVNTI) and marks
 * its packets with its thread id and their index. The trace must hold
 * every packet exactly once, each in a record of the thread that rang it
 * (not LATE), and the engine must have retired them all.
 *
 * A second child does what defeats or confuses the trap: a doorbell
 * value that goes backwards, a store the decoder does not know (a locked
 * add), and the doorbell page unmapped while its queue lives. The trace
 * must say so (BACKWARDS, LATE), keep every packet, and the program must
 * end normally.
 *
 * Not under ThreadSanitizer (see tests/stress/meson.build).
 */
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include <kfdtrace/packet_abi.h>
#include <kfdtrace/packets.h>
#include <kfdtrace/trace.h>

#include "stress_util.h"

#define NQ		4
#define NT		8		/* two threads per queue */
#define PER_THREAD	1000
#define PACKETS		(PER_THREAD * NT / NQ)	/* per queue */
#define RING		64		/* packets */
#define PKT		64
/* Where a packet carries its ringer's tid and its index (reserved). */
#define MARK_TID	4
#define MARK_INDEX	48

struct q {
	HSAuint32 gpu;
	uint8_t *ring, *aq;
	HsaQueueResource res;
	pthread_mutex_t lock;	/* the producers of a queue take turns */
	uint64_t next;
};

struct t {
	struct q *q;
	unsigned int kind;	/* how it rings */
	int ok;
};


/* Ring @db with @v the way @kind says: each a different instruction. */
static void
ring(uint64_t *db, uint64_t v, unsigned int kind)
{
	switch (kind % 4) {
	case 0:
		__atomic_store_n(db, v, __ATOMIC_RELEASE);		/* MOV */
		break;
	case 1:
		__atomic_store_n(db, v, __ATOMIC_SEQ_CST);		/* XCHG */
		break;
	case 2:
		__asm__ volatile("movq %1, %%xmm1\n\tmovq %%xmm1, %0"
				 : "=m"(*db) : "r"(v) : "xmm1", "memory");
		break;
	default:
		__asm__ volatile("movnti %1, %0\n\tsfence"
				 : "=m"(*db) : "r"(v) : "memory");
		break;
	}
}

static int
wait_room(struct q *q, uint64_t upto)
{
	volatile uint64_t *rd = (volatile uint64_t *)(q->aq + 128);
	long spins;

	for (spins = 0; upto - __atomic_load_n(rd, __ATOMIC_ACQUIRE) > RING; spins++) {
		if (spins > 20000000)
			return -1;
		sched_yield();
	}
	return 0;
}

/* Write @n barriers from q->next on, marked, and publish them. */
static void
put(struct q *q, unsigned int n, uint32_t tid)
{
	uint64_t *wr = (uint64_t *)(q->aq + 56);
	unsigned int k;

	for (k = 0; k < n; k++) {
		uint64_t idx = q->next + k;
		uint8_t *p = q->ring + (idx % RING) * PKT;

		memset(p + 2, 0, PKT - 2);
		memcpy(p + MARK_TID, &tid, 4);
		memcpy(p + MARK_INDEX, &idx, 8);
		__atomic_store_n((uint16_t *)p, (uint16_t)KFD_AQL_TYPE_BARRIER_AND,
				 __ATOMIC_RELEASE);
	}
	q->next += n;
	__atomic_store_n(wr, q->next, __ATOMIC_RELEASE);
}

static void *
producer(void *arg)
{
	struct t *t = arg;
	struct q *q = t->q;
	uint64_t *db = (uint64_t *)(uintptr_t)q->res.Queue_DoorBell;
	uint32_t tid = (uint32_t)syscall(SYS_gettid);
	uint64_t seed = (uintptr_t)t, done = 0;

	while (done < PER_THREAD) {
		unsigned int batch = 1 + (unsigned int)((seed = seed * 6364136223846793005ull +
							 1442695040888963407ull) >> 62);

		if (batch > PER_THREAD - done)
			batch = (unsigned int)(PER_THREAD - done);
		pthread_mutex_lock(&q->lock);
		if (wait_room(q, q->next + batch) < 0) {
			pthread_mutex_unlock(&q->lock);
			return NULL;
		}
		put(q, batch, tid);
		ring(db, q->next - 1, t->kind);
		pthread_mutex_unlock(&q->lock);
		done += batch;
	}
	t->ok = 1;
	return NULL;
}

static int
make_queues(struct q *qs, unsigned int n)
{
	struct stress_machine m;
	unsigned int i;

	if (hsaKmtOpenKFD() != HSAKMT_STATUS_SUCCESS || stress_machine_get(&m) ||
	    !m.n_gpus)
		return -1;
	for (i = 0; i < n; i++) {
		struct q *q = &qs[i];

		memset(q, 0, sizeof(*q));
		pthread_mutex_init(&q->lock, NULL);
		q->gpu = m.gpus[0];
		q->ring = stress_alloc_host(q->gpu, RING * PKT);
		q->aq = stress_alloc_host(q->gpu, 4096);
		if (!q->ring || !q->aq)
			return -1;
		for (unsigned int s = 0; s < RING; s++)
			q->ring[s * PKT] = KFD_AQL_TYPE_INVALID;
		q->res.QueueRptrValue = (uintptr_t)(q->aq + 128);
		q->res.QueueWptrValue = (uintptr_t)(q->aq + 56);
		if (hsaKmtCreateQueue(q->gpu, HSA_QUEUE_COMPUTE_AQL, 100,
				      HSA_QUEUE_PRIORITY_NORMAL, q->ring, RING * PKT,
				      NULL, &q->res) != HSAKMT_STATUS_SUCCESS)
			return -1;
	}
	return 0;
}

/* The engine retired everything published on @q. */
static int
drained(struct q *q)
{
	volatile uint64_t *rd = (volatile uint64_t *)(q->aq + 128);
	long spins;

	for (spins = 0; __atomic_load_n(rd, __ATOMIC_ACQUIRE) < q->next; spins++) {
		if (spins > 20000000)
			return 0;
		sched_yield();
	}
	return 1;
}

static int
child_stress(void)
{
	static struct q qs[NQ];
	struct t ts[NT];
	pthread_t th[NT];
	int i, bad = 0;

	if (make_queues(qs, NQ) < 0)
		return 3;
	for (i = 0; i < NT; i++) {
		ts[i].q = &qs[i % NQ];
		ts[i].kind = (unsigned int)i / NQ * 2 + (unsigned int)i % 2;
		ts[i].ok = 0;
		pthread_create(&th[i], NULL, producer, &ts[i]);
	}
	for (i = 0; i < NT; i++) {
		pthread_join(th[i], NULL);
		bad |= !ts[i].ok;
	}
	for (i = 0; i < NQ; i++) {
		if (!drained(&qs[i])) {
			fprintf(stderr, "queue %d: the engine did not retire every packet\n", i);
			bad = 1;
		}
		hsaKmtDestroyQueue(qs[i].res.QueueId);
	}
	hsaKmtCloseKFD();
	return bad ? 5 : 0;
}

/*
 * One queue, one thread: 4 packets rung normally; the doorbell written
 * backwards; 4 more rung with a locked add (not decoded: the page is
 * disarmed, the next KFD call records them LATE); the page unmapped.
 */
static int
child_bad(void)
{
	static struct q qs[1];
	struct q *q = &qs[0];
	uint64_t *db;
	uint32_t tid = (uint32_t)syscall(SYS_gettid);
	HsaClockCounters c;

	if (make_queues(qs, 1) < 0)
		return 3;
	db = (uint64_t *)(uintptr_t)q->res.Queue_DoorBell;
	put(q, 4, tid);
	ring(db, 3, 0);
	ring(db, 1, 0);			/* backwards */
	ring(db, 3, 0);			/* back up: nothing new */
	put(q, 4, tid);
	/* 3 + 4 = 7, by an instruction the trap does not decode. */
	__asm__ volatile("lock addq %1, %0" : "+m"(*db) : "r"((uint64_t)4) : "memory");
	/* Any KFD call: it records what the trap did not see. */
	hsaKmtGetClockCounters(q->gpu, &c);
	if (!drained(q))
		return 6;
	/* The program's doorbell page goes away; its queue stays. */
	munmap((void *)((uintptr_t)db & ~(uintptr_t)4095), 4096);
	hsaKmtDestroyQueue(q->res.QueueId);
	hsaKmtCloseKFD();
	return 0;
}

/* Run @mode in a child under the capture library; its trace in @path. */
static void
run_child(const char *mode, char *dir, char *path, size_t size)
{
	const char *preload = getenv("SUBMIT_PRELOAD");
	int st;
	pid_t pid;

	assert_non_null(preload);
	assert_non_null(mkdtemp(dir));
	snprintf(path, size, "%s/s.kft", dir);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		setenv("LD_PRELOAD", preload, 1);
		setenv("KFDTRACE_OUTPUT", path, 1);
		setenv("KFDTRACE_SUBMISSIONS", "1", 1);
		execl("/proc/self/exe", "test_stress_doorbells", mode, (char *)NULL);
		_exit(127);
	}
	assert_int_equal(waitpid(pid, &st, 0), pid);
	assert_true(WIFEXITED(st));
	assert_int_equal(WEXITSTATUS(st), 0);
}

static void
test_eight_threads_four_queues(void **state)
{
	char dir[] = "/tmp/kfdtrace-stress-doorbells-XXXXXX", path[128];
	static uint8_t seen[NQ][PACKETS];
	uint32_t qids[NQ];
	unsigned int nq = 0, i, j, records = 0;
	struct kt_reader *r;
	struct kt_record rec;
	int ret;

	(void)state;
	run_child("stress", dir, path, sizeof(path));
	memset(seen, 0, sizeof(seen));
	assert_int_equal(kt_reader_open(path, &r), 0);
	while ((ret = kt_reader_next(r, &rec)) > 0) {
		const struct kt_submit_rec *s = &rec.u.submit;
		uint64_t k;

		if (rec.type != KT_REC_SUBMIT)
			continue;
		records++;
		for (i = 0; i < nq && qids[i] != s->queue_id; i++)
			;
		if (i == nq) {
			assert_true(nq < NQ);
			qids[nq++] = s->queue_id;
		}
		assert_int_equal(s->engine, KFD_ENGINE_AQL);
		/* Rung under the queue's lock: all trapped, none late. */
		assert_int_equal(s->flags, 0);
		assert_int_equal(s->len, (s->last - s->first + 1) * PKT);
		for (k = s->first; k <= s->last; k++) {
			const uint8_t *p = s->data + (k - s->first) * PKT;
			const struct kfd_packet_desc *d = kfd_aql_packet(p);
			uint32_t tid;
			uint64_t idx;

			memcpy(&tid, p + MARK_TID, 4);
			memcpy(&idx, p + MARK_INDEX, 8);
			assert_true(k < PACKETS);
			assert_non_null(d);
			assert_string_equal(d->name, "BARRIER_AND");
			assert_int_equal(idx, k);
			/* The thread that rang recorded them. */
			assert_int_equal(tid, rec.tid);
			seen[i][k]++;
		}
	}
	assert_int_equal(ret, 0);
	kt_reader_close(r);
	assert_int_equal(nq, NQ);
	for (i = 0; i < nq; i++)
		for (j = 0; j < PACKETS; j++)
			if (seen[i][j] != 1)
				fail_msg("queue %u: packet %u recorded %u times", qids[i],
					 j, seen[i][j]);
	print_message("%u doorbells, %u packets on %u queues, each once\n",
		      records, NQ * PACKETS, nq);
	unlink(path);
	rmdir(dir);
}

static void
test_bad_doorbells(void **state)
{
	char dir[] = "/tmp/kfdtrace-stress-doorbells-XXXXXX", path[128];
	unsigned int seen[8] = { 0 }, backwards = 0, late = 0, n = 0;
	struct kt_reader *r;
	struct kt_record rec;
	int ret, end = 0;

	(void)state;
	run_child("bad", dir, path, sizeof(path));
	assert_int_equal(kt_reader_open(path, &r), 0);
	while ((ret = kt_reader_next(r, &rec)) > 0) {
		const struct kt_submit_rec *s = &rec.u.submit;
		uint64_t k;

		if (rec.type == KT_REC_END)
			end = 1;
		if (rec.type != KT_REC_SUBMIT)
			continue;
		n++;
		if (s->flags & KT_SUBMIT_BACKWARDS) {
			backwards++;
			assert_int_equal(s->len, 0);
			assert_int_equal(s->last, 1);
			continue;
		}
		if (s->flags & KT_SUBMIT_LATE)
			late++;
		for (k = s->first; k <= s->last && s->len; k++) {
			assert_true(k < 8);
			seen[k]++;
		}
	}
	assert_int_equal(ret, 0);
	kt_reader_close(r);
	assert_true(end);
	assert_int_equal(backwards, 1);
	assert_int_equal(late, 1);
	for (unsigned int k = 0; k < 8; k++)
		if (seen[k] != 1)
			fail_msg("packet %u recorded %u times", k, seen[k]);
	unlink(path);
	rmdir(dir);
}

int
main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_eight_threads_four_queues),
		cmocka_unit_test(test_bad_doorbells),
	};

	if (argc > 1 && !strcmp(argv[1], "stress"))
		return child_stress();
	if (argc > 1 && !strcmp(argv[1], "bad"))
		return child_bad();
	return cmocka_run_group_tests(tests, NULL, NULL);
}

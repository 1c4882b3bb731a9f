/* SPDX-License-Identifier: MIT */
/*
 * Submission capture under load (docs/submissions.md): four threads, each
 * with an AQL queue of its own on kfdtrace's libhsakmt, publish 2000
 * barrier packets each in batches of one to four per doorbell, waiting
 * for ring space as a runtime does, while the capture library records
 * each doorbell on the ringing thread and forwards it. The workload runs in a child under
 * the capture library (KFDTRACE_SUBMISSIONS=1); the parent then reads the
 * trace: every queue must have every packet exactly once, in order, each
 * a BARRIER_AND, and the engine must have retired them all (the child
 * checks its read pointers).
 *
 * It runs in the plain and the ASan build (not under ThreadSanitizer: see
 * tests/stress/meson.build).
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
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include <kfdtrace/packet_abi.h>
#include <kfdtrace/packets.h>
#include <kfdtrace/trace.h>

#include "stress_util.h"

#define NQ		4
#define PACKETS		2000
#define RING		64		/* packets */
#define PKT		64

struct q {
	HSAuint32 gpu;
	uint8_t *ring, *aq;
	HsaQueueResource res;
	int ok;
};


/* Publish PACKETS barriers, batched, then wait for the engine. */
static void *
producer(void *arg)
{
	struct q *q = arg;
	volatile uint64_t *rd = (volatile uint64_t *)(q->aq + 128);
	uint64_t *wr = (uint64_t *)(q->aq + 56);
	uint64_t *db = (uint64_t *)(uintptr_t)q->res.Queue_DoorBell;
	uint64_t next = 0, seed = (uintptr_t)q;
	int spins;

	while (next < PACKETS) {
		unsigned int batch = 1 + (unsigned int)((seed = seed * 6364136223846793005ull +
							 1442695040888963407ull) >> 62);
		unsigned int k;

		if (batch > PACKETS - next)
			batch = (unsigned int)(PACKETS - next);
		/* Room in the ring: the engine moves the read index. */
		for (spins = 0; next + batch - __atomic_load_n(rd, __ATOMIC_ACQUIRE) > RING;
		     spins++) {
			if (spins > 2000000)
				return NULL;
			sched_yield();
		}
		for (k = 0; k < batch; k++) {
			uint8_t *p = q->ring + ((next + k) % RING) * PKT;

			memset(p + 2, 0, PKT - 2);
			__atomic_store_n((uint16_t *)p, (uint16_t)KFD_AQL_TYPE_BARRIER_AND,
					 __ATOMIC_RELEASE);
		}
		next += batch;
		__atomic_store_n(wr, next, __ATOMIC_RELEASE);
		__atomic_store_n(db, next - 1, __ATOMIC_RELEASE);
	}
	for (spins = 0; __atomic_load_n(rd, __ATOMIC_ACQUIRE) < PACKETS; spins++) {
		if (spins > 2000000)
			return NULL;
		sched_yield();
	}
	q->ok = 1;
	return NULL;
}

static int
child(void)
{
	struct stress_machine m;
	struct q qs[NQ];
	pthread_t t[NQ];
	int i, bad = 0;

	if (hsaKmtOpenKFD() != HSAKMT_STATUS_SUCCESS || stress_machine_get(&m) ||
	    !m.n_gpus)
		return 2;
	for (i = 0; i < NQ; i++) {
		struct q *q = &qs[i];

		memset(q, 0, sizeof(*q));
		q->gpu = m.gpus[0];
		q->ring = stress_alloc_host(q->gpu, RING * PKT);
		q->aq = stress_alloc_host(q->gpu, 4096);
		if (!q->ring || !q->aq)
			return 3;
		for (unsigned int s = 0; s < RING; s++)
			q->ring[s * PKT] = KFD_AQL_TYPE_INVALID;
		q->res.QueueRptrValue = (uintptr_t)(q->aq + 128);
		q->res.QueueWptrValue = (uintptr_t)(q->aq + 56);
		if (hsaKmtCreateQueue(q->gpu, HSA_QUEUE_COMPUTE_AQL, 100,
				      HSA_QUEUE_PRIORITY_NORMAL, q->ring, RING * PKT,
				      NULL, &q->res) != HSAKMT_STATUS_SUCCESS)
			return 4;
	}
	for (i = 0; i < NQ; i++)
		pthread_create(&t[i], NULL, producer, &qs[i]);
	for (i = 0; i < NQ; i++) {
		pthread_join(t[i], NULL);
		if (!qs[i].ok) {
			fprintf(stderr, "queue %d: the engine did not retire every packet\n", i);
			bad = 1;
		}
		hsaKmtDestroyQueue(qs[i].res.QueueId);
	}
	hsaKmtCloseKFD();
	return bad ? 5 : 0;
}

static void
test_every_packet_once(void **state)
{
	/* The sanitizer runtime (if any), the capture library, kfdsim. */
	const char *preload = getenv("SUBMIT_PRELOAD");
	char dir[] = "/tmp/kfdtrace-stress-submit-XXXXXX", path[128];
	static uint8_t seen[64][PACKETS];
	uint32_t qids[64];
	unsigned int nq = 0, i, j;
	struct kt_reader *r;
	struct kt_record rec;
	int st, ret;
	pid_t pid;

	(void)state;
	assert_non_null(preload);
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/s.kft", dir);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		setenv("LD_PRELOAD", preload, 1);
		setenv("KFDTRACE_OUTPUT", path, 1);
		setenv("KFDTRACE_SUBMISSIONS", "1", 1);
		execl("/proc/self/exe", "test_stress_submit", "child", (char *)NULL);
		_exit(127);
	}
	assert_int_equal(waitpid(pid, &st, 0), pid);
	assert_true(WIFEXITED(st));
	assert_int_equal(WEXITSTATUS(st), 0);

	memset(seen, 0, sizeof(seen));
	assert_int_equal(kt_reader_open(path, &r), 0);
	while ((ret = kt_reader_next(r, &rec)) > 0) {
		const struct kt_submit_rec *s = &rec.u.submit;
		uint64_t k;

		if (rec.type != KT_REC_SUBMIT)
			continue;
		for (i = 0; i < nq && qids[i] != s->queue_id; i++)
			;
		if (i == nq) {
			assert_true(nq < 64);
			qids[nq++] = s->queue_id;
		}
		assert_int_equal(s->engine, KFD_ENGINE_AQL);
		assert_int_equal(s->len, (s->last - s->first + 1) * PKT);
		for (k = s->first; k <= s->last; k++) {
			const struct kfd_packet_desc *d =
				kfd_aql_packet(s->data + (k - s->first) * PKT);

			assert_true(k < PACKETS);
			assert_non_null(d);
			assert_string_equal(d->name, "BARRIER_AND");
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
	unlink(path);
	rmdir(dir);
}

int
main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_every_packet_once),
	};

	if (argc > 1 && !strcmp(argv[1], "child"))
		return child();
	return cmocka_run_group_tests(tests, NULL, NULL);
}

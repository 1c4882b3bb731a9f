/* SPDX-License-Identifier: MIT */
/*
 * A system suspend of a shared machine (pm.c), with work in flight: a
 * process with a PM4 and an SDMA queue, each fed by a thread of its own,
 * and a second process with a PM4 queue. Each queue stores 1..N_ITEMS into
 * a slot per item and into one "last" word. While the machine is suspended
 * no "last" word moves although the feeders keep ringing; after the
 * resume every item lands, in order (a "last" word never goes back).
 *
 * argv[1], when given, is the kfdtrace binary: the suspend and resume then
 * go through `kfdtrace sim --suspend/--resume --machine ID`, as a harness's
 * pm-suspend does.
 */
#include <errno.h>
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include <kfdtrace/packet_abi.h>

#include "ksim_sysfs.h"
#include "ktest.h"

#define RING_SIZE	65536u		/* holds every item: never wraps */
#define EOP_VA		0x30000000ULL
#define CWSR_VA		0x40000000ULL
#define PM4_VA		0x100000000ULL	/* ring; pointers +1 MiB */
#define SDMA_VA		0x200000000ULL
#define DATA_VA		0x300000000ULL	/* slots: [0] last, [1 + i] item i */
#define DATA_SIZE	0x10000u
#define N_ITEMS		400u
#define BATCH		8u

static const char *kfdtrace;

/* One queue being fed: PM4 (dwords) or SDMA (bytes). */
struct feed {
	int sdma;
	uint32_t *ring;
	uint64_t *ptrs;			/* PM4: rptr dword; SDMA: [0] rptr, [1] wptr */
	uint64_t *wptr;
	volatile uint64_t *doorbell;
	uint64_t wr;			/* PM4: dwords; SDMA: bytes */
	uint64_t data_va;
	volatile uint32_t *data;
	unsigned int kicks;		/* atomic: doorbells rung */
	int pace_us;
	const uint32_t *suspended;	/* the second half waits for it */
};

/* What the two processes tell each other (MAP_SHARED). */
struct shared {
	uint32_t ready;			/* the child's queue is fed */
	uint32_t last;			/* the child's last word, as it reads it */
	uint32_t kicks;
	uint32_t went_back;		/* its last word went back */
	uint32_t done;			/* the child has seen every item */
	uint32_t stop;			/* the parent is finished */
	uint32_t suspended;		/* the machine is: feed the rest */
};

static pid_t kid;

static volatile uint64_t *doorbell_page;

static struct kt *
open_on(const char *machine)
{
	struct ksim_opts o = { .machine = machine };
	struct kt *t = calloc(1, sizeof(*t));
	const struct ksim_gpu *g;
	unsigned int g0 = 0;

	doorbell_page = NULL;
	assert_non_null(t);
	assert_int_equal(kt_open_opts(t, "mi210", &o), 0);
	assert_int_equal(kt_acquire_all(t), 0);
	g = t->prof->nodes[1].gpu;
	kt_vram_mapped(t, 0, EOP_VA, 4096, &g0, 1);
	kt_vram_mapped(t, 0, CWSR_VA, (((uint64_t)g->cwsr_size + g->debug_memory_size) *
		       t->prof->nodes[1].props[KSIM_NP_NUM_XCC] + 4095) & ~4095ULL,
		       &g0, 1);
	return t;
}

static void
feed_new(struct kt *t, struct feed *f, int sdma, uint64_t va, uint64_t data_va,
	 volatile uint32_t *data)
{
	const struct ksim_gpu *g = t->prof->nodes[1].gpu;
	struct kfd_abi_create_queue_args a;
	int err;

	memset(f, 0, sizeof(*f));
	f->sdma = sdma;
	f->ring = (uint32_t *)kt_userptr_mapped(t, 0, va, RING_SIZE);
	f->ptrs = (uint64_t *)kt_userptr_mapped(t, 0, va + 0x100000, 4096);
	f->wptr = f->ptrs + 1;
	f->data_va = data_va;
	f->data = data;
	f->pace_us = 500;
	memset(&a, 0, sizeof(a));
	a.ring_base_address = va;
	a.ring_size = RING_SIZE;
	a.read_pointer_address = va + 0x100000;
	a.write_pointer_address = va + 0x100000 + 8;
	a.gpu_id = t->gpu_id[0];
	a.queue_type = sdma ? KFD_ABI_QUEUE_TYPE_SDMA : KFD_ABI_QUEUE_TYPE_COMPUTE;
	a.queue_percentage = 100;
	if (!sdma) {
		a.eop_buffer_address = EOP_VA;
		a.eop_buffer_size = g->eop_buffer_size;
		a.ctx_save_restore_address = CWSR_VA;
		a.ctx_save_restore_size = g->cwsr_size;
		a.ctl_stack_size = g->ctl_stack_size;
	}
	assert_int_equal(ksim_ioctl(t->kfd, KFD_ABI_IOC_CREATE_QUEUE, &a), 0);
	if (!doorbell_page) {
		doorbell_page = kt_cpu_map(t->kfd, a.doorbell_offset & ~0x1fffULL,
					   8192, &err);
		assert_non_null((void *)doorbell_page);
	}
	f->doorbell = doorbell_page + (a.doorbell_offset & 0x1fff) / 8;
}

/* Item @i (from 1): its slot, then the last word. */
static void
put_item(struct feed *f, uint32_t i)
{
	uint64_t at[2] = { f->data_va + 4ull * i, f->data_va };

	for (int k = 0; k < 2; k++) {
		if (f->sdma) {
			uint32_t d[4] = { 5, (uint32_t)at[k], (uint32_t)(at[k] >> 32), i };

			memcpy((uint8_t *)f->ring + f->wr, d, sizeof(d));
			f->wr += sizeof(d);
		} else {
			uint32_t d[5] = { KFD_PM4_HDR(KFD_PM4_OP_WRITE_DATA, 3),
					  KFD_PM4_DST_MEM << 8 | 1u << 20,
					  (uint32_t)at[k], (uint32_t)(at[k] >> 32), i };

			memcpy(f->ring + f->wr, d, sizeof(d));
			f->wr += 5;
		}
	}
}

static void
kick(struct feed *f)
{
	__atomic_store_n(f->wptr, f->wr, __ATOMIC_RELEASE);
	__atomic_store_n(f->doorbell, f->wr, __ATOMIC_RELEASE);
	__atomic_add_fetch(&f->kicks, 1, __ATOMIC_RELEASE);
}

/*
 * A feeder: every item, BATCH at a time, a pause between batches. The
 * second half waits for the suspend, so that it is all rung meanwhile.
 */
static void *
feeder(void *arg)
{
	struct feed *f = arg;

	for (uint32_t i = 1; i <= N_ITEMS; i++) {
		if (i == N_ITEMS / 2 + 1)
			while (!__atomic_load_n(f->suspended, __ATOMIC_ACQUIRE))
				usleep(1000);
		put_item(f, i);
		if (i % BATCH == 0 || i == N_ITEMS) {
			kick(f);
			usleep((useconds_t)f->pace_us);
		}
	}
	return NULL;
}

static uint32_t
last_of(const struct feed *f)
{
	return __atomic_load_n(&f->data[0], __ATOMIC_ACQUIRE);
}

/* The second process: a PM4 queue fed by a thread, watched by the main
 * thread, which tells @sh what it sees. */
static void
child(const char *machine, struct shared *sh)
{
	struct kt *t = open_on(machine);
	volatile uint32_t *data = (volatile uint32_t *)kt_userptr_mapped(t, 0, DATA_VA, DATA_SIZE);
	struct feed f;
	pthread_t th;
	uint32_t prev = 0;

	feed_new(t, &f, 0, PM4_VA, DATA_VA, data);
	f.pace_us = 1000;
	f.suspended = &sh->suspended;
	__atomic_store_n(&sh->ready, 1, __ATOMIC_RELEASE);
	if (pthread_create(&th, NULL, feeder, &f))
		_exit(2);
	while (!__atomic_load_n(&sh->stop, __ATOMIC_ACQUIRE)) {
		uint32_t v = last_of(&f);

		if (v < prev)
			__atomic_store_n(&sh->went_back, 1, __ATOMIC_RELEASE);
		prev = v;
		__atomic_store_n(&sh->last, v, __ATOMIC_RELEASE);
		__atomic_store_n(&sh->kicks, __atomic_load_n(&f.kicks, __ATOMIC_ACQUIRE),
				 __ATOMIC_RELEASE);
		if (v == N_ITEMS) {
			int all = 1;

			for (uint32_t i = 1; i <= N_ITEMS; i++)
				all &= data[i] == i;
			__atomic_store_n(&sh->done, all ? 1 : 2, __ATOMIC_RELEASE);
		}
		usleep(200);
	}
	pthread_join(th, NULL);
	_exit(0);
}

/* Run kfdtrace sim @mode --machine @id (or the model's call). */
static int
pm(const char *mode, const char *id)
{
	pid_t pid;
	int st;

	if (!kfdtrace)
		return !strcmp(mode, "--suspend") ? ksim_machine_suspend(id, 10000, NULL) :
						    ksim_machine_resume(id);
	pid = fork();
	if (pid == 0) {
		execl(kfdtrace, kfdtrace, "sim", mode, "--machine", id, (char *)NULL);
		_exit(127);
	}
	if (pid < 0 || waitpid(pid, &st, 0) != pid)
		return -1;
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static int
wait_done(struct feed *f)
{
	for (int i = 0; i < 20000 && last_of(f) != N_ITEMS; i++)
		usleep(500);
	for (uint32_t i = 1; i <= N_ITEMS; i++)
		if (f->data[i] != i)
			return 0;
	return 1;
}

static void
test_suspend_in_flight(void **state)
{
	const char *id = ksim_machine_id(*state);
	struct shared *sh = mmap(NULL, 4096, PROT_READ | PROT_WRITE,
				 MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	struct feed pq, sq;
	uint32_t seen[3], kicks[3], prev_pm4 = 0, prev_sdma = 0;
	pthread_t tp, ts;
	struct kt *t;
	int st;

	assert_true(sh != MAP_FAILED);
	memset(sh, 0, sizeof(*sh));
	kid = fork();
	assert_true(kid >= 0);
	if (kid == 0)
		child(id, sh);
	for (int i = 0; i < 10000 && !__atomic_load_n(&sh->ready, __ATOMIC_ACQUIRE); i++)
		usleep(1000);
	assert_true(sh->ready);

	t = open_on(id);
	{
		volatile uint32_t *d1 = (volatile uint32_t *)kt_userptr_mapped(t, 0, DATA_VA,
									      DATA_SIZE);
		volatile uint32_t *d2 = (volatile uint32_t *)kt_userptr_mapped(
			t, 0, DATA_VA + DATA_SIZE, DATA_SIZE);

		feed_new(t, &pq, 0, PM4_VA, DATA_VA, d1);
		feed_new(t, &sq, 1, SDMA_VA, DATA_VA + DATA_SIZE, d2);
	}
	pq.suspended = sq.suspended = &sh->suspended;
	assert_int_equal(pthread_create(&tp, NULL, feeder, &pq), 0);
	assert_int_equal(pthread_create(&ts, NULL, feeder, &sq), 0);

	/* Work in flight in all three queues: then suspend. */
	for (int i = 0; i < 10000 && (last_of(&pq) < BATCH || last_of(&sq) < BATCH ||
				      __atomic_load_n(&sh->last, __ATOMIC_ACQUIRE) < BATCH); i++)
		usleep(200);
	assert_int_equal(pm("--suspend", id), 0);
	/* A second suspend is refused: the machine already is. */
	if (!kfdtrace)
		assert_int_equal(ksim_machine_suspend(id, 1000, NULL), -EALREADY);
	usleep(20000);	/* the child's watcher catches up */
	seen[0] = last_of(&pq);
	seen[1] = last_of(&sq);
	seen[2] = __atomic_load_n(&sh->last, __ATOMIC_ACQUIRE);
	kicks[0] = __atomic_load_n(&pq.kicks, __ATOMIC_ACQUIRE);
	kicks[1] = __atomic_load_n(&sq.kicks, __ATOMIC_ACQUIRE);
	kicks[2] = __atomic_load_n(&sh->kicks, __ATOMIC_ACQUIRE);
	assert_true(seen[0] <= N_ITEMS / 2 && seen[1] <= N_ITEMS / 2 &&
		    seen[2] <= N_ITEMS / 2);
	/* The rest is rung while suspended: it waits for the resume. */
	__atomic_store_n(&sh->suspended, 1, __ATOMIC_RELEASE);
	for (int i = 0; i < 10000 && (__atomic_load_n(&pq.kicks, __ATOMIC_ACQUIRE) <= kicks[0] ||
				      __atomic_load_n(&sq.kicks, __ATOMIC_ACQUIRE) <= kicks[1] ||
				      __atomic_load_n(&sh->kicks, __ATOMIC_ACQUIRE) <= kicks[2]);
	     i++)
		usleep(1000);
	pthread_join(tp, NULL);
	pthread_join(ts, NULL);
	for (int i = 0; i < 20; i++) {
		usleep(10000);
		/* Evicted queues run nothing, doorbells or not. */
		assert_int_equal(last_of(&pq), seen[0]);
		assert_int_equal(last_of(&sq), seen[1]);
		assert_int_equal(__atomic_load_n(&sh->last, __ATOMIC_ACQUIRE), seen[2]);
	}
	assert_true(__atomic_load_n(&pq.kicks, __ATOMIC_ACQUIRE) > kicks[0]);
	assert_true(__atomic_load_n(&sq.kicks, __ATOMIC_ACQUIRE) > kicks[1]);
	assert_true(__atomic_load_n(&sh->kicks, __ATOMIC_ACQUIRE) > kicks[2]);
	assert_int_equal(pm("--resume", id), 0);
	if (!kfdtrace)
		assert_int_equal(ksim_machine_resume(id), -EALREADY);

	/* Every item lands, in order. */
	for (int i = 0; i < 20000 && (last_of(&pq) != N_ITEMS || last_of(&sq) != N_ITEMS); i++) {
		uint32_t a = last_of(&pq), b = last_of(&sq);

		assert_true(a >= prev_pm4 && b >= prev_sdma);
		prev_pm4 = a;
		prev_sdma = b;
		usleep(500);
	}
	assert_true(wait_done(&pq));
	assert_true(wait_done(&sq));
	for (int i = 0; i < 20000 && !__atomic_load_n(&sh->done, __ATOMIC_ACQUIRE); i++)
		usleep(500);
	assert_int_equal(sh->done, 1);
	assert_int_equal(sh->went_back, 0);
	__atomic_store_n(&sh->stop, 1, __ATOMIC_RELEASE);
	assert_int_equal(waitpid(kid, &st, 0), kid);
	kid = 0;
	assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	kt_close(t);
	free(t);
	munmap(sh, 4096);
}

/* A failed check leaves no second process behind (it holds the test's
 * output open), nor the machine suspended. */
static int
teardown(void **state)
{
	if (kid > 0) {
		kill(kid, SIGKILL);
		waitpid(kid, NULL, 0);
		kid = 0;
	}
	return kt_machine_teardown(state);
}

/*
 * No such machine, and a machine that is not suspended; the time a suspend
 * lasted shows in stats_<gpu_id>/evicted_ms once it is over (the kernel
 * adds it at the restore).
 */
static void
test_errors_and_evicted_ms(void **state)
{
	const char *id = ksim_machine_id(*state);
	struct ksim_sysfs_proc p;
	unsigned int procs = 0;
	struct kt *t;

	assert_int_equal(ksim_machine_suspend("kfdsim-test-pm-none", 100, NULL), -ENOENT);
	assert_int_equal(ksim_machine_resume("kfdsim-test-pm-none"), -ENOENT);
	t = open_on(id);
	assert_int_equal(ksim_machine_resume(id), -EALREADY);
	assert_int_equal(ksim_sysfs_proc(t->dev, getpid(), &p), 0);
	assert_int_equal(p.evicted_ms[0], 0);
	assert_int_equal(ksim_machine_suspend(id, 1000, &procs), 0);
	assert_int_equal(procs, 1);
	usleep(60000);
	assert_int_equal(ksim_sysfs_proc(t->dev, getpid(), &p), 0);
	assert_int_equal(p.evicted_ms[0], 0);
	assert_int_equal(ksim_machine_resume(id), 0);
	assert_int_equal(ksim_sysfs_proc(t->dev, getpid(), &p), 0);
	assert_in_range(p.evicted_ms[0], 60, 60000);
	kt_close(t);
	free(t);
}

int
main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_errors_and_evicted_ms, kt_machine_setup,
						kt_machine_teardown),
		cmocka_unit_test_setup_teardown(test_suspend_in_flight, kt_machine_setup,
						teardown),
	};

	if (argc > 1)
		kfdtrace = argv[1];
	return cmocka_run_group_tests(tests, NULL, NULL);
}

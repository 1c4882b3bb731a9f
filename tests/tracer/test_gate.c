/* SPDX-License-Identifier: MIT */
/*
 * The reader gate's bounded drain (tracer/dispatch/gate.h): it gives up
 * on a section that stays open and says how many it gave up on, and
 * waits for one that closes.
 */
#include <pthread.h>
#include <sched.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "gate.h"

static struct kfd_gate gate;
static atomic_int inside, release;

/* Open a section, say so, and keep it open until released. */
static void *
reader(void *unused)
{
	unsigned int token = kfd_gate_enter(&gate);

	(void)unused;
	atomic_store(&inside, 1);
	while (!atomic_load(&release))
		sched_yield();
	kfd_gate_leave(&gate, token);
	atomic_store(&inside, 0);
	return NULL;
}

static void
test_drain_for(void **state)
{
	pthread_t t[2];

	(void)state;
	/* Nobody inside: nothing to give up on. */
	assert_int_equal(kfd_gate_drain_for(&gate, 1000000), 0);

	atomic_store(&release, 0);
	for (int i = 0; i < 2; i++) {
		atomic_store(&inside, 0);
		assert_int_equal(pthread_create(&t[i], NULL, reader, NULL), 0);
		while (!atomic_load(&inside))
			sched_yield();
	}
	/* Two sections stay open past 10 ms. */
	assert_int_equal(kfd_gate_drain_for(&gate, 10000000), 2);
	/* A drain without a bound waits for them to close. */
	atomic_store(&release, 1);
	kfd_gate_drain(&gate);
	for (int i = 0; i < 2; i++)
		pthread_join(t[i], NULL);
	assert_int_equal(kfd_gate_drain_for(&gate, 1000000), 0);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_drain_for),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

/* SPDX-License-Identifier: MIT */
/*
 * Events of kfdtrace's libhsakmt on the simulated device: the signal page,
 * set/reset/wait with timeouts, waiting on several events, event ages,
 * slot exhaustion, handle checks, and a secondary context's own events.
 */
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "hsakmt/hsakmt.h"
#include "hsakmt/hsakmtctx.h"

/* 4096 slots of which the kernel reserves slot 0. */
#define SIGNAL_EVENT_LIMIT	4095

static HsaSystemProperties sys_props;

static int
group_setup(void **state)
{
	if (hsaKmtOpenKFD() != HSAKMT_STATUS_SUCCESS ||
	    hsaKmtAcquireSystemProperties(&sys_props) != HSAKMT_STATUS_SUCCESS)
		return -1;
	return 0;
}

static int
group_teardown(void **state)
{
	hsaKmtReleaseSystemProperties();
	return hsaKmtCloseKFD() == HSAKMT_STATUS_SUCCESS ? 0 : -1;
}

static HsaEvent *
make(HSA_EVENTTYPE type, bool manual, bool signaled)
{
	HsaEventDescriptor desc;
	HsaEvent *ev = NULL;

	memset(&desc, 0, sizeof(desc));
	desc.EventType = type;
	if (hsaKmtCreateEvent(&desc, manual, signaled, &ev) != HSAKMT_STATUS_SUCCESS)
		return NULL;
	return ev;
}

static uint64_t
now_ms(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (uint64_t)t.tv_sec * 1000 + (uint64_t)t.tv_nsec / 1000000;
}

static void
test_signal_event(void **state)
{
	HsaEvent *ev = make(HSA_EVENTTYPE_SIGNAL, false, false);
	uint64_t t0;

	assert_non_null(ev);
	assert_true(ev->EventId > 0 && ev->EventId < 4096);
	assert_int_equal(ev->EventData.EventType, HSA_EVENTTYPE_SIGNAL);
	assert_int_equal(ev->EventData.HWData1, ev->EventId);
	/* The slot is in the signal page, where the kernel left it unsignaled. */
	assert_true(ev->EventData.HWData2 != 0);
	assert_true(*(volatile uint64_t *)(uintptr_t)ev->EventData.HWData2 == ~0ull);

	assert_int_equal(hsaKmtQueryEventState(ev), HSAKMT_STATUS_SUCCESS);
	assert_int_equal(hsaKmtWaitOnEvent(ev, 0), HSAKMT_STATUS_WAIT_TIMEOUT);
	assert_int_equal(hsaKmtSetEvent(ev), HSAKMT_STATUS_SUCCESS);
	assert_int_equal(hsaKmtWaitOnEvent(ev, 1000), HSAKMT_STATUS_SUCCESS);
	/* Auto-reset: the wait consumed it; a timed wait lasts its time. */
	t0 = now_ms();
	assert_int_equal(hsaKmtWaitOnEvent(ev, 30), HSAKMT_STATUS_WAIT_TIMEOUT);
	assert_true(now_ms() - t0 >= 25);
	/* Set then reset: nothing to consume. */
	assert_int_equal(hsaKmtSetEvent(ev), HSAKMT_STATUS_SUCCESS);
	assert_int_equal(hsaKmtResetEvent(ev), HSAKMT_STATUS_SUCCESS);
	assert_int_equal(hsaKmtWaitOnEvent(ev, 0), HSAKMT_STATUS_WAIT_TIMEOUT);
	assert_int_equal(hsaKmtDestroyEvent(ev), HSAKMT_STATUS_SUCCESS);
}

static void
test_manual_reset(void **state)
{
	HsaEvent *ev = make(HSA_EVENTTYPE_SIGNAL, true, true);

	assert_non_null(ev);
	/* Created signaled, and a manual-reset event stays so. */
	assert_int_equal(hsaKmtWaitOnEvent(ev, 0), HSAKMT_STATUS_SUCCESS);
	assert_int_equal(hsaKmtWaitOnEvent(ev, 0), HSAKMT_STATUS_SUCCESS);
	assert_int_equal(hsaKmtResetEvent(ev), HSAKMT_STATUS_SUCCESS);
	assert_int_equal(hsaKmtWaitOnEvent(ev, 0), HSAKMT_STATUS_WAIT_TIMEOUT);
	assert_int_equal(hsaKmtDestroyEvent(ev), HSAKMT_STATUS_SUCCESS);
}

static void
test_multiple(void **state)
{
	HsaEvent *a = make(HSA_EVENTTYPE_SIGNAL, true, false);
	HsaEvent *b = make(HSA_EVENTTYPE_SIGNAL, true, false);
	HsaEvent *both[2] = { a, b };

	assert_non_null(a);
	assert_non_null(b);
	assert_int_not_equal(a->EventId, b->EventId);
	assert_int_equal(hsaKmtWaitOnMultipleEvents(both, 2, false, 0), HSAKMT_STATUS_WAIT_TIMEOUT);
	assert_int_equal(hsaKmtSetEvent(b), HSAKMT_STATUS_SUCCESS);
	/* Any: b is enough. All: a is missing. */
	assert_int_equal(hsaKmtWaitOnMultipleEvents(both, 2, false, 100), HSAKMT_STATUS_SUCCESS);
	assert_int_equal(hsaKmtWaitOnMultipleEvents(both, 2, true, 10), HSAKMT_STATUS_WAIT_TIMEOUT);
	assert_int_equal(hsaKmtSetEvent(a), HSAKMT_STATUS_SUCCESS);
	assert_int_equal(hsaKmtWaitOnMultipleEvents(both, 2, true, 100), HSAKMT_STATUS_SUCCESS);
	/* No events: complete at once. */
	assert_int_equal(hsaKmtWaitOnMultipleEvents(both, 0, true, 1000), HSAKMT_STATUS_SUCCESS);
	assert_int_equal(hsaKmtDestroyEvent(a), HSAKMT_STATUS_SUCCESS);
	assert_int_equal(hsaKmtDestroyEvent(b), HSAKMT_STATUS_SUCCESS);
}

struct setter {
	HsaEvent *ev;
	unsigned int delay_ms;
};

static void *
set_later(void *arg)
{
	struct setter *s = arg;

	usleep(s->delay_ms * 1000);
	hsaKmtSetEvent(s->ev);
	return NULL;
}

/* A wait with no timeout returns when another thread sets the event. */
static void
test_wait_woken_by_thread(void **state)
{
	struct setter s = { make(HSA_EVENTTYPE_SIGNAL, false, false), 50 };
	pthread_t th;
	uint64_t t0 = now_ms();

	assert_non_null(s.ev);
	assert_int_equal(pthread_create(&th, NULL, set_later, &s), 0);
	assert_int_equal(hsaKmtWaitOnEvent(s.ev, HSA_EVENTTIMEOUT_INFINITE),
			 HSAKMT_STATUS_SUCCESS);
	assert_true(now_ms() - t0 >= 40);
	pthread_join(th, NULL);
	assert_int_equal(hsaKmtDestroyEvent(s.ev), HSAKMT_STATUS_SUCCESS);
}

/*
 * Event ages (KFD 1.14): an event's age starts at 1 and grows with every
 * set; a wait given the age the caller last saw completes at once when
 * the event was set since, and reports the new age. Age 0 means "not
 * tracking".
 */
static void
test_event_age(void **state)
{
	HsaEvent *ev = make(HSA_EVENTTYPE_SIGNAL, false, false);
	HsaEvent *evs[1] = { ev };
	HsaVersionInfo v;
	uint64_t age = 1;

	assert_non_null(ev);
	assert_int_equal(hsaKmtGetVersion(&v), HSAKMT_STATUS_SUCCESS);
	if (v.KernelInterfaceMinorVersion < 14) {
		assert_int_equal(hsaKmtDestroyEvent(ev), HSAKMT_STATUS_SUCCESS);
		skip();		/* kernels before 1.14 keep no ages */
	}
	assert_int_equal(hsaKmtWaitOnEvent_Ext(ev, 0, &age), HSAKMT_STATUS_WAIT_TIMEOUT);
	assert_int_equal(age, 1);
	assert_int_equal(hsaKmtSetEvent(ev), HSAKMT_STATUS_SUCCESS);
	assert_int_equal(hsaKmtWaitOnEvent_Ext(ev, 100, &age), HSAKMT_STATUS_SUCCESS);
	assert_int_equal(age, 2);
	/* Consumed, and nothing newer than age 2. */
	assert_int_equal(hsaKmtWaitOnMultipleEvents_Ext(evs, 1, true, 0, &age),
			 HSAKMT_STATUS_WAIT_TIMEOUT);
	assert_int_equal(age, 2);
	/* A caller still holding age 1 missed a set: no waiting. */
	age = 1;
	assert_int_equal(hsaKmtWaitOnMultipleEvents_Ext(evs, 1, true, 0, &age),
			 HSAKMT_STATUS_SUCCESS);
	assert_int_equal(age, 2);
	/* Age 0: an ordinary wait. */
	age = 0;
	assert_int_equal(hsaKmtWaitOnEvent_Ext(ev, 0, &age), HSAKMT_STATUS_WAIT_TIMEOUT);
	assert_int_equal(hsaKmtDestroyEvent(ev), HSAKMT_STATUS_SUCCESS);
}

/* Kernel-owned types: created without a slot, not settable by the user. */
static void
test_system_events(void **state)
{
	HsaEvent *mem = make(HSA_EVENTTYPE_MEMORY, true, false);
	HsaEvent *hw = make(HSA_EVENTTYPE_HW_EXCEPTION, true, true);

	assert_non_null(mem);
	assert_non_null(hw);
	assert_true(mem->EventId >= 0x40000000u);
	assert_int_equal(mem->EventData.HWData2, 0);
	assert_int_equal(hsaKmtSetEvent(mem), HSAKMT_STATUS_ERROR);
	assert_int_equal(hsaKmtResetEvent(hw), HSAKMT_STATUS_ERROR);
	/* Nothing faulted: no exception data, so the wait times out. */
	assert_int_equal(hsaKmtWaitOnEvent(mem, 0), HSAKMT_STATUS_WAIT_TIMEOUT);
	assert_int_equal(hsaKmtDestroyEvent(mem), HSAKMT_STATUS_SUCCESS);
	assert_int_equal(hsaKmtDestroyEvent(hw), HSAKMT_STATUS_SUCCESS);
}

static void
test_bad_handles(void **state)
{
	HsaEventDescriptor desc;
	HsaEvent fake, *ev = NULL, *list[2];

	memset(&fake, 0, sizeof(fake));
	memset(&desc, 0, sizeof(desc));
	assert_int_equal(hsaKmtDestroyEvent(NULL), HSAKMT_STATUS_INVALID_HANDLE);
	assert_int_equal(hsaKmtSetEvent(NULL), HSAKMT_STATUS_INVALID_HANDLE);
	assert_int_equal(hsaKmtResetEvent(NULL), HSAKMT_STATUS_INVALID_HANDLE);
	assert_int_equal(hsaKmtQueryEventState(NULL), HSAKMT_STATUS_INVALID_HANDLE);
	assert_int_equal(hsaKmtWaitOnEvent(NULL, 0), HSAKMT_STATUS_INVALID_HANDLE);
	assert_int_equal(hsaKmtWaitOnMultipleEvents(NULL, 1, true, 0), HSAKMT_STATUS_INVALID_HANDLE);
	/* An HsaEvent the library did not make is refused. */
	assert_int_equal(hsaKmtSetEvent(&fake), HSAKMT_STATUS_INVALID_HANDLE);
	assert_int_equal(hsaKmtDestroyEvent(&fake), HSAKMT_STATUS_INVALID_HANDLE);
	ev = make(HSA_EVENTTYPE_SIGNAL, false, false);
	assert_non_null(ev);
	list[0] = ev;
	list[1] = &fake;
	assert_int_equal(hsaKmtWaitOnMultipleEvents(list, 2, false, 0),
			 HSAKMT_STATUS_INVALID_HANDLE);
	assert_int_equal(hsaKmtDestroyEvent(ev), HSAKMT_STATUS_SUCCESS);
	/* Destroyed: a second destroy is refused. */
	assert_int_equal(hsaKmtDestroyEvent(ev), HSAKMT_STATUS_INVALID_HANDLE);

	assert_int_equal(hsaKmtCreateEvent(NULL, false, false, &ev), HSAKMT_STATUS_INVALID_PARAMETER);
	assert_int_equal(hsaKmtCreateEvent(&desc, false, false, NULL),
			 HSAKMT_STATUS_INVALID_PARAMETER);
	desc.EventType = HSA_EVENTTYPE_MAXID;
	assert_int_equal(hsaKmtCreateEvent(&desc, false, false, &ev),
			 HSAKMT_STATUS_INVALID_PARAMETER);
}

/* 4095 signal events fit; the next one is refused (ENOSPC -> ERROR). */
static void
test_exhaustion(void **state)
{
	HsaEvent **evs = calloc(SIGNAL_EVENT_LIMIT + 8, sizeof(*evs));
	unsigned int n = 0;

	assert_non_null(evs);
	while (n < SIGNAL_EVENT_LIMIT + 8 && (evs[n] = make(HSA_EVENTTYPE_SIGNAL, false, false)))
		n++;
	assert_int_equal(n, SIGNAL_EVENT_LIMIT);
	/* Every slot is a distinct 8-byte slot of one 32 KiB page. */
	{
		uint64_t lo = ~0ull, hi = 0;
		unsigned char *seen = calloc(4096, 1);

		assert_non_null(seen);
		for (unsigned int i = 0; i < n; i++) {
			uint64_t a = evs[i]->EventData.HWData2;

			lo = a < lo ? a : lo;
			hi = a > hi ? a : hi;
		}
		assert_true(hi - lo < 32768);
		for (unsigned int i = 0; i < n; i++) {
			uint64_t slot = (evs[i]->EventData.HWData2 - lo) / 8;

			assert_int_equal(seen[slot], 0);
			seen[slot] = 1;
		}
		free(seen);
	}
	for (unsigned int i = 0; i < n; i++)
		assert_int_equal(hsaKmtDestroyEvent(evs[i]), HSAKMT_STATUS_SUCCESS);
	evs[0] = make(HSA_EVENTTYPE_SIGNAL, false, false);
	assert_non_null(evs[0]);
	assert_int_equal(hsaKmtDestroyEvent(evs[0]), HSAKMT_STATUS_SUCCESS);
	free(evs);
}

/* A secondary context has its own KFD process, events and signal page. */
static void
test_secondary_context(void **state)
{
	HsaKFDContext *sec = NULL;
	HsaEventDescriptor desc;
	HsaEvent *ev = NULL, *prim;
	HsaVersionInfo v;
	HSAKMT_STATUS st;

	st = hsaKmtOpenSecondaryKFDCtx(&sec);
	assert_int_equal(hsaKmtGetVersion(&v), HSAKMT_STATUS_SUCCESS);
	if (v.KernelInterfaceMinorVersion < 19) {
		/* Secondary contexts came with KFD 1.19. */
		assert_int_equal(st, HSAKMT_STATUS_NOT_SUPPORTED);
		return;
	}
	assert_int_equal(st, HSAKMT_STATUS_SUCCESS);
	memset(&desc, 0, sizeof(desc));
	desc.EventType = HSA_EVENTTYPE_SIGNAL;
	assert_int_equal(hsaKmtCreateEventCtx(sec, &desc, false, false, &ev),
			 HSAKMT_STATUS_SUCCESS);
	prim = make(HSA_EVENTTYPE_SIGNAL, false, false);
	assert_non_null(prim);
	/* Each context knows only its own events. */
	assert_int_equal(hsaKmtSetEventCtx(sec, prim), HSAKMT_STATUS_INVALID_HANDLE);
	assert_int_equal(hsaKmtSetEvent(ev), HSAKMT_STATUS_INVALID_HANDLE);
	assert_true(ev->EventData.HWData2 != prim->EventData.HWData2);
	assert_int_equal(hsaKmtSetEventCtx(sec, ev), HSAKMT_STATUS_SUCCESS);
	assert_int_equal(hsaKmtWaitOnEventCtx(sec, ev, 100), HSAKMT_STATUS_SUCCESS);
	/* The primary's event was not set by that. */
	assert_int_equal(hsaKmtWaitOnEvent(prim, 0), HSAKMT_STATUS_WAIT_TIMEOUT);
	assert_int_equal(hsaKmtDestroyEventCtx(sec, ev), HSAKMT_STATUS_SUCCESS);
	assert_int_equal(hsaKmtDestroyEvent(prim), HSAKMT_STATUS_SUCCESS);
	/* Events still alive at close are the library's to free. */
	assert_int_equal(hsaKmtCreateEventCtx(sec, &desc, true, true, &ev), HSAKMT_STATUS_SUCCESS);
	assert_int_equal(hsaKmtCloseSecondaryKFDCtx(sec), HSAKMT_STATUS_SUCCESS);
}

/* After close and reopen the kernel still has the signal page: events work on. */
static void
test_reopen(void **state)
{
	HsaEvent *ev;

	assert_int_equal(hsaKmtCloseKFD(), HSAKMT_STATUS_SUCCESS);
	assert_int_equal(hsaKmtOpenKFD(), HSAKMT_STATUS_SUCCESS);
	assert_int_equal(hsaKmtAcquireSystemProperties(&sys_props), HSAKMT_STATUS_SUCCESS);
	ev = make(HSA_EVENTTYPE_SIGNAL, false, false);
	assert_non_null(ev);
	assert_int_equal(hsaKmtSetEvent(ev), HSAKMT_STATUS_SUCCESS);
	assert_int_equal(hsaKmtWaitOnEvent(ev, 100), HSAKMT_STATUS_SUCCESS);
	assert_int_equal(hsaKmtDestroyEvent(ev), HSAKMT_STATUS_SUCCESS);
}

static void
test_smi(void **state)
{
	HSAuint32 gpu = sys_props.NumNodes;
	HsaNodeProperties p;
	uint64_t mask = HSA_SMI_EVENT_MASK_FROM_INDEX(HSA_SMI_EVENT_VMFAULT);
	int fd = -1;

	for (HSAuint32 i = 0; i < sys_props.NumNodes && gpu == sys_props.NumNodes; i++)
		if (hsaKmtGetNodeProperties(i, &p) == HSAKMT_STATUS_SUCCESS && p.NumFComputeCores)
			gpu = i;
	assert_true(gpu < sys_props.NumNodes);
	assert_int_equal(hsaKmtOpenSMI(gpu, &fd), HSAKMT_STATUS_SUCCESS);
	assert_true(fd >= 0);
	/* The stream takes an event mask. */
	assert_int_equal(write(fd, &mask, sizeof(mask)), (ssize_t)sizeof(mask));
	close(fd);
	assert_int_equal(hsaKmtOpenSMI(sys_props.NumNodes, &fd), HSAKMT_STATUS_INVALID_NODE_UNIT);
	assert_int_equal(hsaKmtOpenSMI(gpu, NULL), HSAKMT_STATUS_INVALID_PARAMETER);
	/* gpu_id 0 of a CPU node: the kernel refuses. */
	assert_int_equal(hsaKmtOpenSMI(0, &fd), HSAKMT_STATUS_ERROR);
}

/* A forked child owns nothing of the parent's; after reopening, its own events work. */
static void
test_fork_child(void **state)
{
	HsaEvent *parent_ev = make(HSA_EVENTTYPE_SIGNAL, false, false);
	int status;
	pid_t pid;

	assert_non_null(parent_ev);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		HsaEventDescriptor d;
		HsaEvent *ev = NULL;
		int code = 0;

		memset(&d, 0, sizeof(d));
		if (hsaKmtSetEvent(parent_ev) != HSAKMT_STATUS_KERNEL_IO_CHANNEL_NOT_OPENED)
			code |= 1;
		if (hsaKmtOpenKFD() != HSAKMT_STATUS_SUCCESS)
			code |= 2;
		/* The parent's events are not the child's. */
		if (hsaKmtSetEvent(parent_ev) != HSAKMT_STATUS_INVALID_HANDLE)
			code |= 4;
		if (hsaKmtCreateEvent(&d, false, false, &ev) != HSAKMT_STATUS_SUCCESS ||
		    !ev->EventData.HWData2 || hsaKmtSetEvent(ev) != HSAKMT_STATUS_SUCCESS ||
		    hsaKmtWaitOnEvent(ev, 100) != HSAKMT_STATUS_SUCCESS ||
		    hsaKmtDestroyEvent(ev) != HSAKMT_STATUS_SUCCESS)
			code |= 8;
		hsaKmtCloseKFD();
		_exit(code);
	}
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), 0);
	/* The parent's event is untouched by the child. */
	assert_int_equal(hsaKmtWaitOnEvent(parent_ev, 0), HSAKMT_STATUS_WAIT_TIMEOUT);
	assert_int_equal(hsaKmtDestroyEvent(parent_ev), HSAKMT_STATUS_SUCCESS);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_signal_event),
		cmocka_unit_test(test_manual_reset),
		cmocka_unit_test(test_multiple),
		cmocka_unit_test(test_wait_woken_by_thread),
		cmocka_unit_test(test_event_age),
		cmocka_unit_test(test_system_events),
		cmocka_unit_test(test_bad_handles),
		cmocka_unit_test(test_exhaustion),
		cmocka_unit_test(test_secondary_context),
		cmocka_unit_test(test_reopen),
		cmocka_unit_test(test_smi),
		cmocka_unit_test(test_fork_child),
	};

	return cmocka_run_group_tests(tests, group_setup, group_teardown);
}

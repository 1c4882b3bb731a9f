/* SPDX-License-Identifier: MIT */
/*
 * What a completed wait reports for memory faults and GPU resets.
 *
 * The simulator's GPUs never fault, so this test plays the kernel's part
 * for those events: it defines ioctl() (an executable's symbols come first
 * in the lookup order), and when the library waits on a memory or
 * hardware-exception event it answers the way KFD does after a VM fault
 * or a reset, writing the exception data into the caller's event array.
 * Every other request goes on to the simulator.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <dlfcn.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "hsakmt/hsakmt.h"

#include <kfdtrace/kfd_abi.h>

#define MAX_NODES	64

/* What the fake kernel reports, and for which event ids. */
static uint32_t fault_event_id, reset_event_id;
static struct kfd_abi_hsa_memory_exception_data fault;
static struct kfd_abi_hsa_hw_exception_data reset;
static unsigned int faked_waits;

/* Complete a WAIT_EVENTS naming one of our events, as KFD does. */
static bool
fake_wait(struct kfd_abi_wait_events_args *w)
{
	struct kfd_abi_event_data *d = (void *)(uintptr_t)w->events_ptr;
	bool hit = false;

	for (uint32_t i = 0; i < w->num_events; i++) {
		if (fault_event_id && d[i].event_id == fault_event_id) {
			d[i].memory_exception_data = fault;
			hit = true;
		} else if (reset_event_id && d[i].event_id == reset_event_id) {
			d[i].hw_exception_data = reset;
			hit = true;
		}
	}
	if (hit) {
		w->wait_result = KFD_ABI_WAIT_RESULT_COMPLETE;
		faked_waits++;
	}
	return hit;
}

__attribute__((visibility("default"))) int ioctl(int fd, unsigned long request, ...);

__attribute__((visibility("default"))) int
ioctl(int fd, unsigned long request, ...)
{
	static int (*next)(int, unsigned long, ...);
	va_list ap;
	void *arg;

	va_start(ap, request);
	arg = va_arg(ap, void *);
	va_end(ap);
	if (request == KFD_ABI_IOC_WAIT_EVENTS && fake_wait(arg))
		return 0;
	if (!next)
		next = (int (*)(int, unsigned long, ...))dlsym(RTLD_NEXT, "ioctl");
	return next(fd, request, arg);
}

static HsaSystemProperties sys_props;
static HSAuint32 gpu_node, gpu_id;

static unsigned int
sysfs_gpu_id(unsigned int node)
{
	char path[128];
	unsigned int id = 0;
	FILE *f;

	snprintf(path, sizeof(path), "/sys/devices/virtual/kfd/kfd/topology/nodes/%u/gpu_id",
		 node);
	f = fopen(path, "r");
	if (f) {
		if (fscanf(f, "%u", &id) != 1)
			id = 0;
		fclose(f);
	}
	return id;
}

static int
group_setup(void **state)
{
	HsaNodeProperties p;

	if (hsaKmtOpenKFD() != HSAKMT_STATUS_SUCCESS ||
	    hsaKmtAcquireSystemProperties(&sys_props) != HSAKMT_STATUS_SUCCESS)
		return -1;
	for (HSAuint32 i = sys_props.NumNodes; i-- > 0;) {
		if (hsaKmtGetNodeProperties(i, &p) == HSAKMT_STATUS_SUCCESS && p.NumFComputeCores) {
			gpu_node = i;
			gpu_id = sysfs_gpu_id(i);
			return gpu_id ? 0 : -1;
		}
	}
	return -1;
}

static int
group_teardown(void **state)
{
	hsaKmtReleaseSystemProperties();
	return hsaKmtCloseKFD() == HSAKMT_STATUS_SUCCESS ? 0 : -1;
}

static HsaEvent *
make(HSA_EVENTTYPE type)
{
	HsaEventDescriptor d;
	HsaEvent *ev = NULL;

	memset(&d, 0, sizeof(d));
	d.EventType = type;
	return hsaKmtCreateEvent(&d, true, false, &ev) == HSAKMT_STATUS_SUCCESS ? ev : NULL;
}

static void
test_memory_fault(void **state)
{
	HsaEvent *ev = make(HSA_EVENTTYPE_MEMORY);
	const HsaMemoryAccessFault *f;

	assert_non_null(ev);
	memset(&fault, 0, sizeof(fault));
	fault.gpu_id = gpu_id;
	fault.va = 0x7f0012345000ull;
	fault.failure.ReadOnly = 1;
	fault.failure.imprecise = 1;
	fault.ErrorType = KFD_ABI_MEM_ERR_POISON_CONSUMED;
	fault_event_id = ev->EventId;
	faked_waits = 0;

	assert_int_equal(hsaKmtWaitOnEvent(ev, HSA_EVENTTIMEOUT_INFINITE), HSAKMT_STATUS_SUCCESS);
	assert_int_equal(faked_waits, 1);
	f = &ev->EventData.EventData.MemoryAccessFault;
	/* The kernel's gpu_id became the node id. */
	assert_int_equal(f->NodeId, gpu_node);
	assert_int_equal(f->VirtualAddress, 0x7f0012345000ull);
	assert_int_equal(f->Failure.NotPresent, 0);
	assert_int_equal(f->Failure.ReadOnly, 1);
	assert_int_equal(f->Failure.NoExecute, 0);
	assert_int_equal(f->Failure.Imprecise, 1);
	assert_int_equal(f->Failure.ErrorType, KFD_ABI_MEM_ERR_POISON_CONSUMED);
	/* Consumed poison counts as an ECC error. */
	assert_int_equal(f->Failure.ECC, 1);
	assert_int_equal(f->Flags, HSA_EVENTID_MEMORY_FATAL_PROCESS);

	/* A page that is simply not there: no ECC. */
	memset(&fault, 0, sizeof(fault));
	fault.gpu_id = gpu_id;
	fault.va = 0x1000;
	fault.failure.NotPresent = 1;
	assert_int_equal(hsaKmtWaitOnEvent(ev, 0), HSAKMT_STATUS_SUCCESS);
	assert_int_equal(f->Failure.NotPresent, 1);
	assert_int_equal(f->Failure.ECC, 0);
	assert_int_equal(f->VirtualAddress, 0x1000);

	/* A gpu_id the topology does not know: INVALID_NODE_UNIT, as AMD's. */
	fault.gpu_id = 0xfffe;
	assert_int_equal(hsaKmtWaitOnEvent(ev, 0), HSAKMT_STATUS_INVALID_NODE_UNIT);
	fault_event_id = 0;
	assert_int_equal(hsaKmtDestroyEvent(ev), HSAKMT_STATUS_SUCCESS);
}

static void
test_hw_exception(void **state)
{
	HsaEvent *ev = make(HSA_EVENTTYPE_HW_EXCEPTION);
	HsaEvent *sig = make(HSA_EVENTTYPE_SIGNAL);
	HsaEvent *both[2];
	const HsaHwException *x;

	assert_non_null(ev);
	assert_non_null(sig);
	x = &ev->EventData.EventData.HwException;
	memset(&reset, 0, sizeof(reset));
	reset.gpu_id = gpu_id;
	reset.reset_type = KFD_ABI_HW_EXCEPTION_WHOLE_GPU_RESET;
	reset.reset_cause = KFD_ABI_HW_EXCEPTION_ECC;
	reset.memory_lost = 1;
	reset_event_id = ev->EventId;
	both[0] = sig;
	both[1] = ev;
	assert_int_equal(hsaKmtWaitOnMultipleEvents(both, 2, false, 1000), HSAKMT_STATUS_SUCCESS);
	assert_int_equal(x->NodeId, gpu_node);
	assert_int_equal(x->ResetType, KFD_ABI_HW_EXCEPTION_WHOLE_GPU_RESET);
	assert_int_equal(x->MemoryLost, 1);
	assert_int_equal(x->ResetCause, HSA_EVENTID_HW_EXCEPTION_ECC);
	assert_int_equal(KFD_ABI_HW_EXCEPTION_ECC, HSA_EVENTID_HW_EXCEPTION_ECC);
	/* The signal event was not reported on. */
	assert_null(sig->EventData.EventData.SyncVar.SyncVar.UserData);
	reset_event_id = 0;
	assert_int_equal(hsaKmtDestroyEvent(ev), HSAKMT_STATUS_SUCCESS);
	assert_int_equal(hsaKmtDestroyEvent(sig), HSAKMT_STATUS_SUCCESS);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_memory_fault),
		cmocka_unit_test(test_hw_exception),
	};

	return cmocka_run_group_tests(tests, group_setup, group_teardown);
}

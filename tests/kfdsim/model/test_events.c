/* SPDX-License-Identifier: MIT */
/* Events: ids and slots, the events page (kernel page and dGPU BO),
 * set/reset, waiting (timeouts, wake-ups, destruction, event age). */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "ktest.h"

static int
create_ev(struct kt *t, uint32_t type, int auto_reset, uint64_t page,
	  struct kfd_abi_create_event_args *out)
{
	memset(out, 0, sizeof(*out));
	out->event_type = type;
	out->auto_reset = (uint32_t)auto_reset;
	out->event_page_offset = page;
	return ksim_ioctl(t->kfd, KFD_ABI_IOC_CREATE_EVENT, out);
}

static int
ev_op(struct kt *t, unsigned long req, uint32_t id)
{
	struct kfd_abi_set_event_args a = { .event_id = id };

	return ksim_ioctl(t->kfd, req, &a);
}

static int
wait1(struct kt *t, uint32_t id, uint32_t timeout, uint32_t *result,
      uint64_t *age)
{
	struct kfd_abi_event_data ed;
	struct kfd_abi_wait_events_args w;
	int r;

	memset(&ed, 0, sizeof(ed));
	ed.event_id = id;
	if (age)
		ed.signal_event_data.last_event_age = *age;
	memset(&w, 0, sizeof(w));
	w.events_ptr = (uintptr_t)&ed;
	w.num_events = 1;
	w.timeout = timeout;
	w.wait_result = 77;
	r = ksim_ioctl(t->kfd, KFD_ABI_IOC_WAIT_EVENTS, &w);
	*result = w.wait_result;
	if (age)
		*age = ed.signal_event_data.last_event_age;
	return r;
}

static void
test_signal_ids(void **state)
{
	struct kt *t = *state;
	struct kfd_abi_create_event_args e;
	uint64_t *page;
	int err;

	assert_int_equal(create_ev(t, KFD_ABI_EVENT_SIGNAL, 0, 0, &e), 0);
	assert_int_equal(e.event_id, 1);
	assert_int_equal(e.event_slot_index, 1);
	assert_int_equal(e.event_trigger_data, 1);
	assert_int_equal(e.event_page_offset, KFD_ABI_MMAP_TYPE_EVENTS);
	/* until the page is mapped only 256 slots (id 0 reserved) */
	for (uint32_t id = 2; id < 256; id++) {
		assert_int_equal(create_ev(t, KFD_ABI_EVENT_SIGNAL, 0, 0, &e), 0);
		assert_int_equal(e.event_id, id);
	}
	assert_int_equal(create_ev(t, KFD_ABI_EVENT_SIGNAL, 0, 0, &e), -ENOSPC);
	/* 4 KiB is not the page's size order; 32 KiB is */
	assert_null(kt_cpu_map(t->kfd, KFD_ABI_MMAP_TYPE_EVENTS, 4096, &err));
	assert_int_equal(err, -EINVAL);
	page = kt_cpu_map(t->kfd, KFD_ABI_MMAP_TYPE_EVENTS, 32768, &err);
	assert_non_null(page);
	assert_int_equal(page[1], KFD_ABI_UNSIGNALED_EVENT_SLOT);
	assert_int_equal(page[4095], KFD_ABI_UNSIGNALED_EVENT_SLOT);
	for (uint32_t id = 256; id < 4096; id++)
		assert_int_equal(create_ev(t, KFD_ABI_EVENT_DEBUG_EVENT, 0, 0, &e), 0);
	assert_int_equal(e.event_id, 4095);
	assert_int_equal(create_ev(t, KFD_ABI_EVENT_SIGNAL, 0, 0, &e), -ENOSPC);
	/* lowest free slot reuse */
	assert_int_equal(ev_op(t, KFD_ABI_IOC_DESTROY_EVENT, 77), 0);
	assert_int_equal(ev_op(t, KFD_ABI_IOC_DESTROY_EVENT, 77), -EINVAL);
	assert_int_equal(create_ev(t, KFD_ABI_EVENT_SIGNAL, 0, 0, &e), 0);
	assert_int_equal(e.event_id, 77);
	munmap(page, 32768);
}

static void
test_other_events(void **state)
{
	struct kt *t = *state;
	struct kfd_abi_create_event_args e;

	memset(&e, 0, sizeof(e));
	e.event_type = KFD_ABI_EVENT_HW_EXCEPTION;
	e.event_slot_index = 1234;
	assert_int_equal(ksim_ioctl(t->kfd, KFD_ABI_IOC_CREATE_EVENT, &e), 0);
	assert_int_equal(e.event_id, KFD_ABI_FIRST_NONSIGNAL_EVENT_ID);
	assert_int_equal(e.event_trigger_data, KFD_ABI_FIRST_NONSIGNAL_EVENT_ID);
	assert_int_equal(e.event_page_offset, 0);
	assert_int_equal(e.event_slot_index, 1234);	/* untouched */
	assert_int_equal(create_ev(t, KFD_ABI_EVENT_MEMORY, 0, 0, &e), 0);
	assert_int_equal(e.event_id, KFD_ABI_FIRST_NONSIGNAL_EVENT_ID + 1);
	assert_int_equal(create_ev(t, KFD_ABI_EVENT_NODECHANGE, 0, 0, &e), 0);
	assert_int_equal(e.event_id, KFD_ABI_FIRST_NONSIGNAL_EVENT_ID + 2);
	assert_int_equal(ev_op(t, KFD_ABI_IOC_DESTROY_EVENT,
			       KFD_ABI_FIRST_NONSIGNAL_EVENT_ID), 0);
	assert_int_equal(create_ev(t, KFD_ABI_EVENT_MEMORY, 0, 0, &e), 0);
	assert_int_equal(e.event_id, KFD_ABI_FIRST_NONSIGNAL_EVENT_ID);
	/* only signal events can be set or reset from the CPU */
	assert_int_equal(ev_op(t, KFD_ABI_IOC_SET_EVENT, e.event_id), -EINVAL);
	assert_int_equal(ev_op(t, KFD_ABI_IOC_RESET_EVENT, e.event_id), -EINVAL);
	assert_int_equal(ev_op(t, KFD_ABI_IOC_SET_EVENT, 3), -EINVAL);
	/* signal ids still start at 1 */
	assert_int_equal(create_ev(t, KFD_ABI_EVENT_SIGNAL, 0, 0, &e), 0);
	assert_int_equal(e.event_id, 1);
}

static void
test_dgpu_event_page(void **state)
{
	struct kt *t = *state;
	struct kfd_abi_create_event_args e;
	uint64_t h, off, *page;
	unsigned int g0 = 0;
	uint32_t ns;
	int err;

	assert_int_equal(kt_alloc(t, 0, 0x7000000, 32768,
				  KFD_ABI_ALLOC_MEM_FLAGS_GTT, &h, &off), 0);
	assert_int_equal(kt_map(t, h, &g0, 1, &ns), 0);
	assert_int_equal(create_ev(t, KFD_ABI_EVENT_SIGNAL, 0, h + 1, &e), -EINVAL);
	assert_int_equal(create_ev(t, KFD_ABI_EVENT_SIGNAL, 0,
				   0x1111ULL << 32, &e), -EINVAL);
	assert_int_equal(create_ev(t, KFD_ABI_EVENT_SIGNAL, 0, h, &e), 0);
	assert_int_equal(e.event_id, 1);
	/* the page is the BO: mapped on the render node it reads unsignaled */
	page = kt_cpu_map(t->rnd[0], off, 32768, &err);
	assert_non_null(page);
	assert_int_equal(page[1], KFD_ABI_UNSIGNALED_EVENT_SLOT);
	munmap(page, 32768);
	/* a second page is refused, the page BO cannot be freed */
	assert_int_equal(create_ev(t, KFD_ABI_EVENT_SIGNAL, 0, h, &e), -EINVAL);
	assert_int_equal(kt_unmap(t, h, &g0, 1, &ns), 0);
	assert_int_equal(kt_free(t, h), -EPERM);
	/* the BO's 32 KiB give the full 4095 slots without an mmap */
	for (uint32_t id = 2; id < 4096; id++)
		assert_int_equal(create_ev(t, KFD_ABI_EVENT_SIGNAL, 0, 0, &e), 0);
	assert_int_equal(create_ev(t, KFD_ABI_EVENT_SIGNAL, 0, 0, &e), -ENOSPC);
}

static void
test_dgpu_page_needs_vm(void **state)
{
	struct kt *t = *state;
	struct kfd_abi_create_event_args e;

	assert_int_equal(create_ev(t, KFD_ABI_EVENT_SIGNAL, 0,
				   (uint64_t)t->gpu_id[0] << 32, &e), -ENODEV);
}

static void
test_set_reset_wait(void **state)
{
	struct kt *t = *state;
	struct kfd_abi_create_event_args a, m;
	struct kfd_abi_wait_events_args w;
	uint32_t res;

	assert_int_equal(create_ev(t, KFD_ABI_EVENT_SIGNAL, 1, 0, &a), 0);
	assert_int_equal(create_ev(t, KFD_ABI_EVENT_SIGNAL, 0, 0, &m), 0);
	assert_int_equal(wait1(t, a.event_id, 0, &res, NULL), 0);
	assert_int_equal(res, KFD_ABI_WAIT_RESULT_TIMEOUT);
	/* auto-reset: one wait consumes it */
	assert_int_equal(ev_op(t, KFD_ABI_IOC_SET_EVENT, a.event_id), 0);
	assert_int_equal(wait1(t, a.event_id, 0, &res, NULL), 0);
	assert_int_equal(res, KFD_ABI_WAIT_RESULT_COMPLETE);
	assert_int_equal(wait1(t, a.event_id, 0, &res, NULL), 0);
	assert_int_equal(res, KFD_ABI_WAIT_RESULT_TIMEOUT);
	/* manual reset: stays signaled until RESET */
	assert_int_equal(ev_op(t, KFD_ABI_IOC_SET_EVENT, m.event_id), 0);
	assert_int_equal(wait1(t, m.event_id, 0, &res, NULL), 0);
	assert_int_equal(res, KFD_ABI_WAIT_RESULT_COMPLETE);
	assert_int_equal(wait1(t, m.event_id, 0, &res, NULL), 0);
	assert_int_equal(res, KFD_ABI_WAIT_RESULT_COMPLETE);
	assert_int_equal(ev_op(t, KFD_ABI_IOC_RESET_EVENT, m.event_id), 0);
	assert_int_equal(wait1(t, m.event_id, 0, &res, NULL), 0);
	assert_int_equal(res, KFD_ABI_WAIT_RESULT_TIMEOUT);
	/* errors: unknown event, bad array, absurd count; FAIL result */
	assert_int_equal(wait1(t, 999, 0, &res, NULL), -EINVAL);
	assert_int_equal(res, KFD_ABI_WAIT_RESULT_FAIL);
	memset(&w, 0, sizeof(w));
	w.events_ptr = 24;
	w.num_events = 1;
	assert_int_equal(ksim_ioctl(t->kfd, KFD_ABI_IOC_WAIT_EVENTS, &w), -EFAULT);
	assert_int_equal(w.wait_result, KFD_ABI_WAIT_RESULT_FAIL);
	w.num_events = 0xffffffff;
	assert_int_equal(ksim_ioctl(t->kfd, KFD_ABI_IOC_WAIT_EVENTS, &w), -ENOMEM);
	/* no events: complete at once */
	w.num_events = 0;
	w.timeout = 0xffffffff;
	assert_int_equal(ksim_ioctl(t->kfd, KFD_ABI_IOC_WAIT_EVENTS, &w), 0);
	assert_int_equal(w.wait_result, KFD_ABI_WAIT_RESULT_COMPLETE);
}

static void
test_wait_any_all(void **state)
{
	struct kt *t = *state;
	struct kfd_abi_create_event_args a, b;
	struct kfd_abi_event_data ed[2];
	struct kfd_abi_wait_events_args w;

	assert_int_equal(create_ev(t, KFD_ABI_EVENT_SIGNAL, 0, 0, &a), 0);
	assert_int_equal(create_ev(t, KFD_ABI_EVENT_SIGNAL, 0, 0, &b), 0);
	assert_int_equal(ev_op(t, KFD_ABI_IOC_SET_EVENT, a.event_id), 0);
	memset(ed, 0, sizeof(ed));
	ed[0].event_id = a.event_id;
	ed[1].event_id = b.event_id;
	memset(&w, 0, sizeof(w));
	w.events_ptr = (uintptr_t)ed;
	w.num_events = 2;
	w.wait_for_all = 1;
	assert_int_equal(ksim_ioctl(t->kfd, KFD_ABI_IOC_WAIT_EVENTS, &w), 0);
	assert_int_equal(w.wait_result, KFD_ABI_WAIT_RESULT_TIMEOUT);
	w.wait_for_all = 0;
	assert_int_equal(ksim_ioctl(t->kfd, KFD_ABI_IOC_WAIT_EVENTS, &w), 0);
	assert_int_equal(w.wait_result, KFD_ABI_WAIT_RESULT_COMPLETE);
}

static void
test_wait_timeout(void **state)
{
	struct kt *t = *state;
	struct kfd_abi_create_event_args a;
	struct timespec t0, t1;
	uint32_t res;
	long ms;

	assert_int_equal(create_ev(t, KFD_ABI_EVENT_SIGNAL, 1, 0, &a), 0);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	assert_int_equal(wait1(t, a.event_id, 60, &res, NULL), 0);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	assert_int_equal(res, KFD_ABI_WAIT_RESULT_TIMEOUT);
	ms = (t1.tv_sec - t0.tv_sec) * 1000 + (t1.tv_nsec - t0.tv_nsec) / 1000000;
	assert_true(ms >= 55);
}

struct waiter_arg {
	struct kt *t;
	uint32_t id;
	int ret;
	uint32_t result;
};

static void *
waiter(void *p)
{
	struct waiter_arg *w = p;

	w->ret = wait1(w->t, w->id, 0xffffffff, &w->result, NULL);
	return NULL;
}

static void
test_wait_wakeup_and_destroy(void **state)
{
	struct kt *t = *state;
	struct kfd_abi_create_event_args a;
	struct waiter_arg w = { .t = t };
	pthread_t th;
	uint32_t res;

	assert_int_equal(create_ev(t, KFD_ABI_EVENT_SIGNAL, 1, 0, &a), 0);
	w.id = a.event_id;
	assert_int_equal(pthread_create(&th, NULL, waiter, &w), 0);
	usleep(20000);
	assert_int_equal(ev_op(t, KFD_ABI_IOC_SET_EVENT, a.event_id), 0);
	pthread_join(th, NULL);
	assert_int_equal(w.ret, 0);
	assert_int_equal(w.result, KFD_ABI_WAIT_RESULT_COMPLETE);
	/* the waiter consumed the auto-reset signal */
	assert_int_equal(wait1(t, a.event_id, 0, &res, NULL), 0);
	assert_int_equal(res, KFD_ABI_WAIT_RESULT_TIMEOUT);
	/* destroyed under a waiter: -EIO, FAIL */
	assert_int_equal(pthread_create(&th, NULL, waiter, &w), 0);
	usleep(20000);
	assert_int_equal(ev_op(t, KFD_ABI_IOC_DESTROY_EVENT, a.event_id), 0);
	pthread_join(th, NULL);
	assert_int_equal(w.ret, -EIO);
	assert_int_equal(w.result, KFD_ABI_WAIT_RESULT_FAIL);
}

static void
test_event_age(void **state)
{
	struct kt *t = *state;
	struct kfd_abi_create_event_args a;
	uint32_t res;
	uint64_t age = 1;

	assert_int_equal(create_ev(t, KFD_ABI_EVENT_SIGNAL, 1, 0, &a), 0);
	/* the age we saw is current: nothing new */
	assert_int_equal(wait1(t, a.event_id, 0, &res, &age), 0);
	assert_int_equal(res, KFD_ABI_WAIT_RESULT_TIMEOUT);
	assert_int_equal(ev_op(t, KFD_ABI_IOC_SET_EVENT, a.event_id), 0);
	assert_int_equal(ev_op(t, KFD_ABI_IOC_RESET_EVENT, a.event_id), 0);
	/* reset, but the age moved: counts as signaled, new age returned */
	age = 1;
	assert_int_equal(wait1(t, a.event_id, 0, &res, &age), 0);
	assert_int_equal(res, KFD_ABI_WAIT_RESULT_COMPLETE);
	assert_int_equal(age, 2);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_signal_ids, kt_setup_mi210, kt_teardown),
		cmocka_unit_test_setup_teardown(test_other_events, kt_setup_mi210, kt_teardown),
		cmocka_unit_test_setup_teardown(test_dgpu_event_page, kt_setup_mi210, kt_teardown),
		cmocka_unit_test_setup_teardown(test_dgpu_page_needs_vm, kt_setup_mi210_novm, kt_teardown),
		cmocka_unit_test_setup_teardown(test_set_reset_wait, kt_setup_mi210, kt_teardown),
		cmocka_unit_test_setup_teardown(test_wait_any_all, kt_setup_mi210, kt_teardown),
		cmocka_unit_test_setup_teardown(test_wait_timeout, kt_setup_mi210, kt_teardown),
		cmocka_unit_test_setup_teardown(test_wait_wakeup_and_destroy, kt_setup_mi210, kt_teardown),
		cmocka_unit_test_setup_teardown(test_event_age, kt_setup_mi210, kt_teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

/* SPDX-License-Identifier: MIT */
/*
 * kfdsim's fault mode (KFDSIM_FAULTS, ksim_opts.faults) on the model
 * directly: the spec syntax and its error messages, which call of which
 * ioctl fails and that the device never sees it, late answers, the "*"
 * wildcards, render-node ioctls, the environment variable, and counting
 * from several threads at once.
 */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ktest.h"

static int
open_with(struct kt *t, const char *faults)
{
	struct ksim_opts o = { .flags = KSIM_OPT_PRIVATE, .faults = faults };

	return kt_open_opts(t, "mi210", &o);
}

static int
get_version(struct kt *t, struct kfd_abi_get_version_args *v)
{
	memset(v, 0, sizeof(*v));
	return ksim_ioctl(t->kfd, KFD_ABI_IOC_GET_VERSION, v);
}

static uint64_t
now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static void
test_spec_valid(void **state)
{
	static const char *const ok[] = {
		"ALLOC_MEMORY_OF_GPU:3:ENOMEM,WAIT_EVENTS:*:delay=50ms",
		"alloc_memory_of_gpu:1:enomem",
		"*:2+3:EIO",
		"MAP_MEMORY_TO_GPU:4+*:delay=1ms:EINTR",
		"GET_VERSION:1+0:EBUSY",
		"CREATE_QUEUE:1:524",
		"AMDGPU_INFO:2:EFAULT",
		"SVM:1:delay=2s",
		"WAIT_EVENTS:1:delay=250us",
	};
	char msg[160];

	assert_int_equal(ksim_faults_check_spec(NULL, msg, sizeof(msg)), 0);
	assert_int_equal(ksim_faults_check_spec("", msg, sizeof(msg)), 0);
	for (size_t i = 0; i < sizeof(ok) / sizeof(ok[0]); i++) {
		if (ksim_faults_check_spec(ok[i], msg, sizeof(msg)))
			print_error("%s: %s\n", ok[i], msg);
		assert_int_equal(ksim_faults_check_spec(ok[i], msg, sizeof(msg)), 0);
	}
}

static void
test_spec_invalid(void **state)
{
	static const struct {
		const char *spec;
		const char *says;
	} bad[] = {
		{ "FOO:1:ENOMEM", "'FOO': unknown ioctl" },
		{ "ALLOC_MEMORY_OF_GPU:0:ENOMEM", "'0': expected N" },
		{ "ALLOC_MEMORY_OF_GPU:x:ENOMEM", "'x': expected N" },
		{ "ALLOC_MEMORY_OF_GPU:1+:ENOMEM", "'1+': expected N" },
		{ "ALLOC_MEMORY_OF_GPU:1", "expected NAME:WHICH:EFFECT" },
		{ "ALLOC_MEMORY_OF_GPU:1:ENOMEM:EIO", "'EIO': expected an errno" },
		{ "ALLOC_MEMORY_OF_GPU:1:EWHAT", "'EWHAT': expected an errno" },
		{ "ALLOC_MEMORY_OF_GPU:1:0", "'0': expected an errno" },
		{ "ALLOC_MEMORY_OF_GPU:1:delay=5", "'delay=5': expected delay=N" },
		{ "ALLOC_MEMORY_OF_GPU:1:delay=0ms", "'delay=0ms': expected delay=N" },
		{ "ALLOC_MEMORY_OF_GPU:1:delay=2h", "'delay=2h': expected delay=N" },
		{ "ALLOC_MEMORY_OF_GPU:1:delay=3601s", "expected delay=N" },
		{ "ALLOC_MEMORY_OF_GPU:99999999999999999999:EIO", "expected N" },
		{ "ALLOC_MEMORY_OF_GPU:1:EIO,", "expected NAME:WHICH:EFFECT" },
		{ "a:b:c:d:e", "expected NAME:WHICH:EFFECT" },
	};
	char msg[160], many[64 * 20 + 32] = "";

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		msg[0] = '\0';
		assert_int_equal(ksim_faults_check_spec(bad[i].spec, msg, sizeof(msg)), -EINVAL);
		if (!strstr(msg, bad[i].says))
			print_error("%s: '%s'\n", bad[i].spec, msg);
		assert_non_null(strstr(msg, bad[i].says));
	}
	/* At most 64 rules. */
	for (int i = 0; i < 65; i++)
		strcat(many, i ? ",GET_VERSION:1:EIO" : "GET_VERSION:1:EIO");
	assert_int_equal(ksim_faults_check_spec(many, msg, sizeof(msg)), -EINVAL);
	assert_non_null(strstr(msg, "64 rules"));
	/* No message buffer is fine too. */
	assert_int_equal(ksim_faults_check_spec("FOO:1:EIO", NULL, 0), -EINVAL);
}

/* The 2nd ALLOC fails before the device sees it; the 1st and 3rd work. */
static void
test_nth_call_fails_untouched(void **state)
{
	struct kfd_abi_alloc_memory_of_gpu_args a;
	struct kfd_abi_get_available_memory_args before, after;
	uint64_t h1, h3, off;
	struct kt t;

	assert_int_equal(open_with(&t, "ALLOC_MEMORY_OF_GPU:2:ENOMEM"), 0);
	assert_int_equal(kt_acquire_all(&t), 0);
	assert_int_equal(kt_alloc(&t, 0, 0x7f0000000000ull, 2 << 20,
				  KFD_ABI_ALLOC_MEM_FLAGS_VRAM | KFD_ABI_ALLOC_MEM_FLAGS_WRITABLE,
				  &h1, &off), 0);
	memset(&before, 0, sizeof(before));
	before.gpu_id = t.gpu_id[0];
	assert_int_equal(ksim_ioctl(t.kfd, KFD_ABI_IOC_AVAILABLE_MEMORY, &before), 0);

	memset(&a, 0, sizeof(a));
	a.va_addr = 0x7f0000400000ull;
	a.size = 2 << 20;
	a.gpu_id = t.gpu_id[0];
	a.flags = KFD_ABI_ALLOC_MEM_FLAGS_VRAM | KFD_ABI_ALLOC_MEM_FLAGS_WRITABLE;
	a.handle = 0x5a5a5a5a5a5a5a5aull;
	assert_int_equal(ksim_ioctl(t.kfd, KFD_ABI_IOC_ALLOC_MEMORY_OF_GPU, &a), -ENOMEM);
	/* No copy-out, no allocation. */
	assert_true(a.handle == 0x5a5a5a5a5a5a5a5aull);
	after = before;
	assert_int_equal(ksim_ioctl(t.kfd, KFD_ABI_IOC_AVAILABLE_MEMORY, &after), 0);
	assert_true(after.available == before.available);

	assert_int_equal(kt_alloc(&t, 0, 0x7f0000800000ull, 2 << 20,
				  KFD_ABI_ALLOC_MEM_FLAGS_VRAM | KFD_ABI_ALLOC_MEM_FLAGS_WRITABLE,
				  &h3, &off), 0);
	assert_true(h3 != h1);
	assert_int_equal(kt_free(&t, h1), 0);
	assert_int_equal(kt_free(&t, h3), 0);
	kt_close(&t);
}

/* WHICH: a window, an open end, every call. */
static void
test_which(void **state)
{
	static const struct {
		const char *spec;
		int want[6];
	} cases[] = {
		{ "GET_VERSION:2+2:EIO", { 0, -EIO, -EIO, 0, 0, 0 } },
		{ "GET_VERSION:3+*:EPERM", { 0, 0, -EPERM, -EPERM, -EPERM, -EPERM } },
		{ "GET_VERSION:4+0:EPERM", { 0, 0, 0, -EPERM, -EPERM, -EPERM } },
		{ "GET_VERSION:*:EBUSY", { -EBUSY, -EBUSY, -EBUSY, -EBUSY, -EBUSY, -EBUSY } },
		/* Rules count on their own; the first failing rule's errno wins. */
		{ "GET_VERSION:2:EIO,GET_VERSION:3:ENOMEM", { 0, -EIO, -ENOMEM, 0, 0, 0 } },
		{ "GET_VERSION:1:EIO,get_version:1+2:ENOMEM", { -EIO, -ENOMEM, 0, 0, 0, 0 } },
	};

	for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
		struct kfd_abi_get_version_args v;
		struct kt t;

		assert_int_equal(open_with(&t, cases[c].spec), 0);
		for (int i = 0; i < 6; i++) {
			int r = get_version(&t, &v);

			if (r != cases[c].want[i])
				print_error("%s: call %d: %d\n", cases[c].spec, i + 1, r);
			assert_int_equal(r, cases[c].want[i]);
			if (!r)
				assert_int_equal(v.major_version, 1);
			else
				assert_int_equal(v.major_version, 0);
		}
		kt_close(&t);
	}
}

/* "*" counts every /dev/kfd ioctl and no render-node one. */
static void
test_any_kfd_ioctl(void **state)
{
	struct kfd_abi_get_clock_counters_args clk = {0};
	struct kfd_abi_get_version_args v;
	struct kfd_drm_amdgpu_info info;
	uint8_t out[512];
	struct kt t;

	assert_int_equal(open_with(&t, "*:3:EBUSY"), 0);
	clk.gpu_id = t.gpu_id[0];
	assert_int_equal(get_version(&t, &v), 0);
	memset(&info, 0, sizeof(info));
	info.return_pointer = (uintptr_t)out;
	info.return_size = sizeof(out);
	info.query = KFD_DRM_AMDGPU_INFO_DEV_INFO;
	assert_int_equal(ksim_ioctl(t.rnd[0], KFD_DRM_IOCTL_AMDGPU_INFO, &info), 0);
	assert_int_equal(ksim_ioctl(t.kfd, KFD_ABI_IOC_GET_CLOCK_COUNTERS, &clk), 0);
	assert_int_equal(ksim_ioctl(t.kfd, KFD_ABI_IOC_GET_CLOCK_COUNTERS, &clk), -EBUSY);
	assert_int_equal(get_version(&t, &v), 0);
	kt_close(&t);
}

/* A render-node ioctl by its schema name; a kernel-internal errno number. */
static void
test_render_and_numeric(void **state)
{
	struct kfd_abi_create_queue_args q;
	struct kfd_drm_amdgpu_info info;
	uint8_t out[512];
	struct kt t;

	assert_int_equal(open_with(&t, "AMDGPU_INFO:2:EFAULT,CREATE_QUEUE:1:524"), 0);
	memset(&info, 0, sizeof(info));
	info.return_pointer = (uintptr_t)out;
	info.return_size = sizeof(out);
	info.query = KFD_DRM_AMDGPU_INFO_DEV_INFO;
	assert_int_equal(ksim_ioctl(t.rnd[0], KFD_DRM_IOCTL_AMDGPU_INFO, &info), 0);
	assert_int_equal(ksim_ioctl(t.rnd[0], KFD_DRM_IOCTL_AMDGPU_INFO, &info), -EFAULT);
	assert_int_equal(ksim_ioctl(t.rnd[0], KFD_DRM_IOCTL_AMDGPU_INFO, &info), 0);
	/* Garbage arguments: the fault comes first, as it would from the kernel. */
	memset(&q, 0xff, sizeof(q));
	assert_int_equal(ksim_ioctl(t.kfd, KFD_ABI_IOC_CREATE_QUEUE, &q), -524);
	assert_int_not_equal(ksim_ioctl(t.kfd, KFD_ABI_IOC_CREATE_QUEUE, &q), -524);
	kt_close(&t);
}

/* Late answers: the result is the device's, after at least the delay. */
static void
test_delay(void **state)
{
	struct kfd_abi_get_version_args v;
	uint64_t t0;
	struct kt t;

	assert_int_equal(open_with(&t, "GET_VERSION:1:delay=40ms,"
				       "GET_VERSION:2:delay=20ms:EINTR"), 0);
	t0 = now_ns();
	assert_int_equal(get_version(&t, &v), 0);
	assert_true(now_ns() - t0 >= 40000000ull);
	assert_int_equal(v.major_version, 1);
	t0 = now_ns();
	assert_int_equal(get_version(&t, &v), -EINTR);
	assert_true(now_ns() - t0 >= 20000000ull);
	assert_int_equal(get_version(&t, &v), 0);
	kt_close(&t);
}

/* KFDSIM_FAULTS is read when the options leave faults unset. */
static void
test_environment(void **state)
{
	struct kfd_abi_get_version_args v;
	struct ksim_profile *prof = ksim_profile_builtin("mi210");
	struct ksim_opts o = { .flags = KSIM_OPT_PRIVATE };
	struct kt t;
	int err = 0;

	assert_int_equal(setenv(KSIM_ENV_FAULTS, "GET_VERSION:1:ENODEV", 1), 0);
	assert_int_equal(open_with(&t, NULL), 0);
	assert_int_equal(get_version(&t, &v), -ENODEV);
	assert_int_equal(get_version(&t, &v), 0);
	kt_close(&t);
	/* "" in the options: no faults, whatever the environment says. */
	assert_int_equal(open_with(&t, ""), 0);
	assert_int_equal(get_version(&t, &v), 0);
	kt_close(&t);
	/* A bad spec: no device. */
	assert_int_equal(setenv(KSIM_ENV_FAULTS, "GET_VERSION:1:EWHAT", 1), 0);
	assert_null(ksim_device_create(prof, &o, &err));
	assert_int_equal(err, -EINVAL);
	unsetenv(KSIM_ENV_FAULTS);
	ksim_profile_free(prof);
}

struct counter {
	struct kt *t;
	int fails;
};

static void *
hammer(void *arg)
{
	struct counter *c = arg;
	struct kfd_abi_get_version_args v;

	for (int i = 0; i < 200; i++)
		c->fails += get_version(c->t, &v) == -EIO;
	return NULL;
}

/* Counting is exact when threads race: 4 x 200 calls, calls 301-350 fail. */
static void
test_threads(void **state)
{
	struct counter c[4];
	pthread_t th[4];
	struct kt t;
	int total = 0;

	assert_int_equal(open_with(&t, "GET_VERSION:301+50:EIO"), 0);
	for (int i = 0; i < 4; i++) {
		c[i] = (struct counter){ &t, 0 };
		assert_int_equal(pthread_create(&th[i], NULL, hammer, &c[i]), 0);
	}
	for (int i = 0; i < 4; i++) {
		pthread_join(th[i], NULL);
		total += c[i].fails;
	}
	assert_int_equal(total, 50);
	kt_close(&t);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_spec_valid),
		cmocka_unit_test(test_spec_invalid),
		cmocka_unit_test(test_nth_call_fails_untouched),
		cmocka_unit_test(test_which),
		cmocka_unit_test(test_any_kfd_ioctl),
		cmocka_unit_test(test_render_and_numeric),
		cmocka_unit_test(test_delay),
		cmocka_unit_test(test_environment),
		cmocka_unit_test(test_threads),
	};

	/* The fault mode must not leak in from the caller's environment. */
	unsetenv(KSIM_ENV_FAULTS);
	return cmocka_run_group_tests(tests, NULL, NULL);
}

/* SPDX-License-Identifier: MIT */
/*
 * A shared machine tracks at most 256 live processes: the next process's
 * open of /dev/kfd fails with ENOMEM, as the kernel's does when it cannot
 * create a KFD process, and no process charges memory the
 * machine could not give back when it dies: render-node BOs included, of a
 * process with no KFD process too. Each process is a fork child with a
 * device of its own on the test's machine.
 */
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ksim_sysfs.h"
#include "ktest.h"

#define LIMIT		256	/* docs/kfdsim.md, "Processes" */
#define MIB		(1ULL << 20)
#define GPU_ID		43794	/* mi210's */

/* The children, for the teardown to kill after a failed assertion. */
static pid_t pids[LIMIT + 2];
static int n_pids;

/*
 * One process of the machine: open /dev/kfd, take 1 MiB of VRAM, report on
 * @wfd ('Y', or 'E' and the open's errno, or 'F' for another failure), then
 * wait to be killed.
 */
static void
child(const struct ksim_profile *prof, const char *machine, int wfd)
{
	struct ksim_opts o = { .machine = machine };
	struct kfd_abi_acquire_vm_args av = { .gpu_id = GPU_ID };
	struct kfd_abi_alloc_memory_of_gpu_args al = {
		.size = MIB, .gpu_id = GPU_ID, .flags = KFD_ABI_ALLOC_MEM_FLAGS_VRAM,
	};
	struct ksim_device *d;
	struct ksim_file *k, *r;
	char msg[2] = { 'F', 0 };
	int err = 0;

	d = ksim_device_create(prof, &o, &err);
	k = d ? ksim_open_kfd(d, 0, &err) : NULL;
	if (d && !k) {
		msg[0] = 'E';
		msg[1] = (char)-err;
	}
	r = k ? ksim_open_render(d, 128, 0, &err) : NULL;
	if (r) {
		av.drm_fd = (uint32_t)ksim_file_fd(r);
		if (!ksim_ioctl(k, KFD_ABI_IOC_ACQUIRE_VM, &av) &&
		    !ksim_ioctl(k, KFD_ABI_IOC_ALLOC_MEMORY_OF_GPU, &al))
			msg[0] = 'Y';
	}
	if (write(wfd, msg, 2) != 2)
		_exit(1);
	if (msg[0] != 'Y')
		_exit(0);
	for (;;)
		pause();
}

/* GPU 0's AVAILABLE_MEMORY in a process of @machine (NULL: a private one). */
static uint64_t
available(const struct ksim_profile *prof, const char *machine)
{
	struct ksim_opts o = { .machine = machine,
			       .flags = machine ? 0 : KSIM_OPT_PRIVATE };
	struct kfd_abi_get_available_memory_args am = { .gpu_id = GPU_ID };
	struct ksim_device *d;
	struct ksim_file *k;
	int err = 0;

	d = ksim_device_create(prof, &o, &err);
	assert_non_null(d);
	k = ksim_open_kfd(d, 0, &err);
	assert_non_null(k);
	assert_int_equal(ksim_ioctl(k, KFD_ABI_IOC_AVAILABLE_MEMORY, &am), 0);
	ksim_release(k);
	ksim_device_destroy(d);
	return am.available;
}

static void
test_process_limit(void **state)
{
	const char *machine = ksim_machine_id(*state);
	struct ksim_profile *prof = ksim_profile_builtin("mi210");
	uint64_t empty;
	int p[2], status;

	assert_non_null(prof);
	empty = available(prof, NULL);
	assert_int_equal(pipe(p), 0);
	/* A hang fails the test (SIGALRM) rather than the suite's time-out. */
	alarm(50);
	for (int i = 0; i < LIMIT + 2; i++) {
		char msg[2];

		pids[i] = fork();
		assert_true(pids[i] >= 0);
		n_pids = i + 1;
		if (pids[i] == 0) {
			close(p[0]);
			child(prof, machine, p[1]);
		}
		/* one at a time, so the first LIMIT are the ones tracked */
		assert_int_equal(read(p[0], msg, 2), 2);
		if (i < LIMIT) {
			if (msg[0] != 'Y')
				fail_msg("process %d of the machine: '%c' %d", i + 1, msg[0],
					 msg[1]);
		} else {
			/* past the limit: the open of /dev/kfd is refused */
			assert_int_equal(msg[0], 'E');
			assert_int_equal(msg[1], ENOMEM);
		}
	}
	/* one slot free again: this process sees the other 255 MiB taken */
	kill(pids[0], SIGKILL);
	assert_int_equal(waitpid(pids[0], &status, 0), pids[0]);
	assert_true(available(prof, machine) <= empty - (LIMIT - 1) * MIB);
	for (int i = 1; i < LIMIT + 2; i++) {
		kill(pids[i], SIGKILL);
		assert_int_equal(waitpid(pids[i], &status, 0), pids[i]);
	}
	n_pids = 0;
	alarm(0);
	/* every charge came back with its process */
	assert_int_equal(available(prof, machine), empty);
	close(p[0]);
	close(p[1]);
	ksim_profile_free(prof);
}

/* The machine's placed VRAM (mem_info_vram_used), seen from a new device. */
static uint64_t
vram_used(const struct ksim_profile *prof, const char *machine)
{
	struct ksim_opts o = { .machine = machine };
	struct ksim_sysfs_mem m;
	struct ksim_device *d;
	int err = 0;

	d = ksim_device_create(prof, &o, &err);
	assert_non_null(d);
	assert_int_equal(ksim_sysfs_mem_usage(d, 0, &m), 0);
	ksim_device_destroy(d);
	return m.vram_used;
}

/*
 * A process of the machine: 4 MiB of VRAM through the render node (with
 * /dev/kfd open and its VM acquired when @kfd); with @free, the BO is
 * closed and the process ends on its own, else it waits to be killed.
 * Exit status / report on @wfd: 'Y' or the failing step.
 */
static void
gem_child(const struct ksim_profile *prof, const char *machine, int kfd, int free,
	  int wfd)
{
	struct ksim_opts o = { .machine = machine };
	struct ksim_device *d = ksim_device_create(prof, &o, NULL);
	struct ksim_file *r = d ? ksim_open_render(d, 128, 0, NULL) : NULL;
	struct ksim_file *k = kfd && r ? ksim_open_kfd(d, 0, NULL) : NULL;
	union kfd_drm_amdgpu_gem_create c = { .in = {
		.bo_size = 4 * MIB, .domains = KFD_DRM_AMDGPU_GEM_DOMAIN_VRAM,
	} };
	struct kfd_abi_acquire_vm_args av = { .gpu_id = GPU_ID };
	struct kfd_drm_gem_close gc = { 0 };
	char msg = 'Y';

	if (!r || (kfd && !k))
		msg = 'O';
	if (msg == 'Y' && k) {
		av.drm_fd = (uint32_t)ksim_file_fd(r);
		if (ksim_ioctl(k, KFD_ABI_IOC_ACQUIRE_VM, &av))
			msg = 'A';
	}
	if (msg == 'Y' && ksim_ioctl(r, KFD_DRM_IOCTL_AMDGPU_GEM_CREATE, &c))
		msg = 'G';
	gc.handle = c.out.handle;
	if (msg == 'Y' && free && ksim_ioctl(r, KFD_DRM_IOCTL_GEM_CLOSE, &gc))
		msg = 'C';
	if (free) {
		ksim_device_destroy(d);
		_exit(msg == 'Y' ? 0 : msg);
	}
	if (write(wfd, &msg, 1) != 1)
		_exit(1);
	for (;;)
		pause();
}

static void
test_render_charges(void **state)
{
	const char *machine = ksim_machine_id(*state);
	struct ksim_profile *prof = ksim_profile_builtin("mi210");
	uint64_t before;
	int p[2], status;
	char msg;

	assert_non_null(prof);
	assert_int_equal(pipe(p), 0);
	before = vram_used(prof, machine);
	alarm(50);
	/* killed with a render-node BO, with and without a KFD process */
	for (int kfd = 0; kfd < 2; kfd++) {
		pids[0] = fork();
		assert_true(pids[0] >= 0);
		n_pids = 1;
		if (pids[0] == 0)
			gem_child(prof, machine, kfd, 0, p[1]);
		assert_int_equal(read(p[0], &msg, 1), 1);
		assert_int_equal(msg, 'Y');
		assert_true(vram_used(prof, machine) >= before + 4 * MIB);
		kill(pids[0], SIGKILL);
		assert_int_equal(waitpid(pids[0], &status, 0), pids[0]);
		n_pids = 0;
		assert_int_equal(vram_used(prof, machine), before);
	}
	/* freed, then ended as usual: given back once, not twice */
	pids[0] = fork();
	assert_true(pids[0] >= 0);
	if (pids[0] == 0)
		gem_child(prof, machine, 1, 1, p[1]);
	assert_int_equal(waitpid(pids[0], &status, 0), pids[0]);
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), 0);
	assert_int_equal(vram_used(prof, machine), before);
	alarm(0);
	close(p[0]);
	close(p[1]);
	ksim_profile_free(prof);
}

static int
teardown(void **state)
{
	for (int i = 0; i < n_pids; i++) {
		kill(pids[i], SIGKILL);
		waitpid(pids[i], NULL, 0);
	}
	n_pids = 0;
	return kt_machine_teardown(state);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_process_limit, kt_machine_setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_render_charges, kt_machine_setup,
						teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

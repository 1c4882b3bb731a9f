/* SPDX-License-Identifier: MIT */
/*
 * A child made by clone() without CLONE_VM is a process of its own, but no
 * pthread_atfork() handler ran in it: the simulator must still answer
 * into the child's memory. Its GET_VERSION argument lives on the child's
 * own stack, which the simulator copies to through process_vm_writev();
 * the reply must land there, not in the parent (which holds the same
 * addresses). Run with libkfdsim preloaded (tests/kfdsim/meson.build).
 */
#include <fcntl.h>
#include <sched.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include <kfdtrace/kfd_abi.h>

#define CHILD_STACK	(256 * 1024)

/* In the child: 0 when GET_VERSION's reply reached its stack. */
static int
child_main(void *unused)
{
	struct kfd_abi_get_version_args v = { 0 };
	int fd = open("/dev/kfd", O_RDWR | O_CLOEXEC);

	(void)unused;
	if (fd < 0)
		return 2;
	if (ioctl(fd, KFD_ABI_IOC_GET_VERSION, &v))
		return 3;
	close(fd);
	return v.major_version == 1 ? 0 : 1;
}

/* Run child_main() on @stack (top at @size) in a clone() child. */
static void
run_child(char *stack, size_t size)
{
	int status;
	pid_t pid;

	pid = clone(child_main, stack + size, SIGCHLD, NULL);
	assert_true(pid > 0);
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), 0);
}

/* The child's stack an mmap()ed region: copied to with process_vm_writev. */
static void
test_clone_mmap_stack(void **state)
{
	char *stack = mmap(NULL, CHILD_STACK, PROT_READ | PROT_WRITE,
			   MAP_PRIVATE | MAP_ANONYMOUS | MAP_STACK, -1, 0);

	(void)state;
	assert_true(stack != MAP_FAILED);
	/* The simulator answered the parent once: it knows its pid. */
	child_main(NULL);
	run_child(stack, CHILD_STACK);
	munmap(stack, CHILD_STACK);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_clone_mmap_stack),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

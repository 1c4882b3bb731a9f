/* SPDX-License-Identifier: MIT */
/*
 * hsaKmtProcessVMRead/hsaKmtProcessVMWrite between two processes on one
 * simulated machine: this program and its child (itself exec'd with
 * --child), which allocates VRAM, fills it, sends its address through a
 * pipe and waits. The parent reads the child's buffer into its own, writes
 * into it, and checks the kernel's errors; the child then checks what was
 * written and exits with the failing step, or 0.
 *
 * Run under `kfdtrace sim --kernel rocm|upstream`, with AMD's library or
 * ours (LD_LIBRARY_PATH). Only the ROCm DKMS driver has the ioctl
 * (CROSS_MEMORY_COPY): on upstream the kernel answers EINVAL and the thunk
 * ERROR, which is asserted instead.
 */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>
#include <hsakmt.h>

#include "kmt_kit.h"

#define SIZE		(1u << 20)
#define WRITE_AT	12288		/* not page aligned below: 3 pages + 100 */
#define WRITE_LEN	5000

static const char *self_path;
static HSAuint32 gpu_node;

/* The child's bytes: a function of the offset, and of who wrote them. */
static uint8_t
pattern(size_t i, unsigned int seed)
{
	return (uint8_t)((i * 7 + seed + (i >> 9)) & 0xff);
}

/*
 * The child: a filled VRAM buffer, its address to stdout, then wait for a
 * byte on stdin and check what the parent wrote at WRITE_AT.
 */
static int
child_side(void)
{
	uint8_t *mem = NULL;
	uint64_t va;
	char go;

	if (hsaKmtOpenKFD() != HSAKMT_STATUS_SUCCESS)
		return 10;
	gpu_node = kit_first_gpu(NULL);
	if (!gpu_node)
		return 11;
	if (hsaKmtAllocMemory(gpu_node, SIZE, kit_host_vram(), (void **)&mem) !=
	    HSAKMT_STATUS_SUCCESS)
		return 12;
	for (size_t i = 0; i < SIZE; i++)
		mem[i] = pattern(i, 1);
	va = (uintptr_t)mem;
	if (write(STDOUT_FILENO, &va, sizeof(va)) != sizeof(va))
		return 13;
	if (read(STDIN_FILENO, &go, 1) != 1)
		return 14;
	for (size_t i = 0; i < SIZE; i++) {
		uint8_t want = pattern(i, 1);

		if (go == 'w' && i >= WRITE_AT && i < WRITE_AT + WRITE_LEN)
			want = pattern(i, 2);
		if (mem[i] != want)
			return 15;
	}
	if (hsaKmtFreeMemory(mem, SIZE) != HSAKMT_STATUS_SUCCESS)
		return 16;
	return hsaKmtCloseKFD() == HSAKMT_STATUS_SUCCESS ? 0 : 17;
}

struct child {
	pid_t pid;
	int to, from;
	uint64_t va;
};

static void
child_start(struct child *c)
{
	char *argv[] = { (char *)self_path, "--child", NULL };
	int in[2], out[2];

	assert_int_equal(pipe(in), 0);
	assert_int_equal(pipe(out), 0);
	c->pid = fork();
	assert_true(c->pid >= 0);
	if (c->pid == 0) {
		dup2(in[0], STDIN_FILENO);
		dup2(out[1], STDOUT_FILENO);
		close(in[0]);
		close(in[1]);
		close(out[0]);
		close(out[1]);
		execv(self_path, argv);
		_exit(127);
	}
	close(in[0]);
	close(out[1]);
	c->to = in[1];
	c->from = out[0];
	assert_int_equal(read(c->from, &c->va, sizeof(c->va)), sizeof(c->va));
}

/* Tell the child what to check (@how 'w': the write), reap it. */
static int
child_finish(struct child *c, char how)
{
	int status;

	assert_int_equal(write(c->to, &how, 1), 1);
	close(c->to);
	close(c->from);
	assert_int_equal(waitpid(c->pid, &status, 0), c->pid);
	assert_true(WIFEXITED(status));
	return WEXITSTATUS(status);
}

static HsaMemoryRange
range(uint64_t va, uint64_t size)
{
	HsaMemoryRange r = { .MemoryAddress = (void *)(uintptr_t)va, .SizeInBytes = size };

	return r;
}

/* Read the child's buffer in two pieces into two of ours, then write. */
static void
test_read_write_child(void **state)
{
	uint8_t *a = NULL, *b = NULL;
	HSAuint64 copied = 7;
	HsaMemoryRange local[2], remote[1];
	struct child c;

	(void)state;
	assert_int_equal(hsaKmtAllocMemory(gpu_node, SIZE, kit_host_vram(), (void **)&a),
			 HSAKMT_STATUS_SUCCESS);
	assert_int_equal(hsaKmtAllocMemory(gpu_node, SIZE, kit_host_vram(), (void **)&b),
			 HSAKMT_STATUS_SUCCESS);
	memset(a, 0xee, SIZE);
	memset(b, 0xee, SIZE);
	child_start(&c);

	/* one remote range of 96 KiB + 3 bytes into 64 KiB of a and the
	 * rest of b, each at an odd offset */
	remote[0] = range(c.va + 1000, (96u << 10) + 3);
	local[0] = range((uintptr_t)a + 5, 64u << 10);
	local[1] = range((uintptr_t)b + 77, (32u << 10) + 3);
	if (!kit_kernel_is_rocm()) {
		errno = 0;
		assert_int_equal(hsaKmtProcessVMRead(c.pid, local, 2, remote, 1, &copied),
				 HSAKMT_STATUS_ERROR);
		assert_int_equal(errno, EINVAL);
		assert_int_equal(copied, 0);
		assert_int_equal(child_finish(&c, 'r'), 0);
		goto out;
	}
	assert_int_equal(hsaKmtProcessVMRead(c.pid, local, 2, remote, 1, &copied),
			 HSAKMT_STATUS_SUCCESS);
	assert_int_equal(copied, (96u << 10) + 3);
	assert_int_equal(a[4], 0xee);
	for (size_t i = 0; i < (64u << 10); i++)
		assert_int_equal(a[5 + i], pattern(1000 + i, 1));
	assert_int_equal(a[5 + (64u << 10)], 0xee);
	for (size_t i = 0; i < (32u << 10) + 3; i++)
		assert_int_equal(b[77 + i], pattern(1000 + (64u << 10) + i, 1));

	/* the local side shorter than the remote: what fits is copied */
	local[0] = range((uintptr_t)a, 100);
	remote[0] = range(c.va, 4096);
	assert_int_equal(hsaKmtProcessVMRead(c.pid, local, 1, remote, 1, &copied),
			 HSAKMT_STATUS_SUCCESS);
	assert_int_equal(copied, 100);

	/* a remote range past the end of the child's BO: EFAULT, nothing */
	remote[0] = range(c.va + SIZE - 10, 20);
	errno = 0;
	assert_int_equal(hsaKmtProcessVMRead(c.pid, local, 1, remote, 1, &copied),
			 HSAKMT_STATUS_ERROR);
	assert_int_equal(errno, EFAULT);
	assert_int_equal(copied, 0);

	/* a second remote range outside any BO: the first is copied, then
	 * EFAULT with the count of what was */
	local[0] = range((uintptr_t)a, 8192);
	{
		HsaMemoryRange rr[2] = { range(c.va, 4096), range(0x1000, 4096) };

		errno = 0;
		assert_int_equal(hsaKmtProcessVMRead(c.pid, local, 1, rr, 2, &copied),
				 HSAKMT_STATUS_ERROR);
		assert_int_equal(errno, EFAULT);
		assert_int_equal(copied, 4096);
	}

	/* write into the child at WRITE_AT */
	for (size_t i = 0; i < WRITE_LEN; i++)
		a[i] = pattern(WRITE_AT + i, 2);
	local[0] = range((uintptr_t)a, WRITE_LEN);
	remote[0] = range(c.va + WRITE_AT, WRITE_LEN);
	assert_int_equal(hsaKmtProcessVMWrite(c.pid, local, 1, remote, 1, &copied),
			 HSAKMT_STATUS_SUCCESS);
	assert_int_equal(copied, WRITE_LEN);
	assert_int_equal(child_finish(&c, 'w'), 0);

	/* the child has ended: no such process */
	errno = 0;
	assert_int_equal(hsaKmtProcessVMRead(c.pid, local, 1, remote, 1, &copied),
			 HSAKMT_STATUS_ERROR);
	assert_int_equal(errno, ESRCH);
out:
	assert_int_equal(hsaKmtFreeMemory(a, SIZE), HSAKMT_STATUS_SUCCESS);
	assert_int_equal(hsaKmtFreeMemory(b, SIZE), HSAKMT_STATUS_SUCCESS);
}

/*
 * Our own pid names ourselves: a copy between two of our BOs. A process
 * with no KFD process is EINVAL, unless ptrace rules deny us its memory
 * first (EPERM), as mm_access() decides before kfd_get_process().
 */
static void
test_self_and_strangers(void **state)
{
	uint8_t *a = NULL;
	HSAuint64 copied = 0;
	HsaMemoryRange local, remote;
	pid_t other;
	int fd, status, denied;

	(void)state;
	if (!kit_kernel_is_rocm())
		skip();
	assert_int_equal(hsaKmtAllocMemory(gpu_node, SIZE, kit_host_vram(), (void **)&a),
			 HSAKMT_STATUS_SUCCESS);
	for (size_t i = 0; i < 4096; i++)
		a[i] = pattern(i, 3);
	local = range((uintptr_t)a + 8192, 4096);
	remote = range((uintptr_t)a, 4096);
	assert_int_equal(hsaKmtProcessVMRead(getpid(), &local, 1, &remote, 1, &copied),
			 HSAKMT_STATUS_SUCCESS);
	assert_int_equal(copied, 4096);
	assert_memory_equal(a, a + 8192, 4096);

	/* a child that never opened /dev/kfd: our own, so not denied */
	other = fork();
	assert_true(other >= 0);
	if (other == 0) {
		pause();
		_exit(0);
	}
	errno = 0;
	assert_int_equal(hsaKmtProcessVMRead(other, &local, 1, &remote, 1, &copied),
			 HSAKMT_STATUS_ERROR);
	assert_int_equal(errno, EINVAL);
	kill(other, SIGKILL);
	assert_int_equal(waitpid(other, &status, 0), other);

	/* init: denied unless the host lets us ptrace it */
	fd = open("/proc/1/mem", O_RDONLY | O_CLOEXEC);
	denied = fd < 0 && (errno == EACCES || errno == EPERM);
	if (fd >= 0)
		close(fd);
	errno = 0;
	assert_int_equal(hsaKmtProcessVMRead(1, &local, 1, &remote, 1, &copied),
			 HSAKMT_STATUS_ERROR);
	assert_int_equal(errno, denied ? EPERM : EINVAL);
	assert_int_equal(hsaKmtFreeMemory(a, SIZE), HSAKMT_STATUS_SUCCESS);
}

static int
setup(void **state)
{
	(void)state;
	return kit_open(&gpu_node);
}

static int
teardown(void **state)
{
	(void)state;
	return kit_close();
}

int
main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_read_write_child),
		cmocka_unit_test(test_self_and_strangers),
	};

	self_path = argv[0];
	if (argc == 2 && !strcmp(argv[1], "--child"))
		return child_side();
	/* kfdtrace sim names the run's machine; nothing here may. */
	if (!getenv("KFDSIM_MACHINE")) {
		fprintf(stderr, "%s: run it under kfdtrace sim\n", argv[0]);
		return 1;
	}
	return cmocka_run_group_tests(tests, setup, teardown);
}

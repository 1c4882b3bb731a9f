/* SPDX-License-Identifier: MIT */
/*
 * Memory shared between two processes by AMD's thunk (Debian's libhsakmt
 * 5.2.3, unmodified): hsaKmtShareMemory in this process, a 32-byte handle
 * sent through a pipe, hsaKmtRegisterSharedHandle in a second process (this
 * program exec'd again with --import) on the same simulated machine, then
 * bytes written through one CPU mapping are read through the other.
 *
 * Run under `kfdtrace sim --kernel rocm|upstream`, with AMD's library or
 * ours (LD_LIBRARY_PATH). The thunk does this with the ROCm DKMS ioctls
 * IPC_EXPORT_HANDLE/IPC_IMPORT_HANDLE: on the rocm flavour it works; on
 * upstream the kernel answers EINVAL and the thunk reports ERROR, which is
 * asserted instead. No machine is named: every process of one `kfdtrace
 * sim` run is on the run's machine, as every process of a host is on its
 * GPUs. The importers are started with fork+exec and with posix_spawn.
 */
#include <errno.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>
#include <hsakmt.h>

#include "kmt_kit.h"

#define SIZE		(2u << 20)
#define GREETING	"written by the exporting process"
#define REPLY		"written back by the importing process"
#define REPLY_AT	8192

extern char **environ;

static const char *self_path;
static HSAuint32 gpu_node;

/*
 * The second process: import the handle read from stdin, check the bytes,
 * write the reply, map it on the GPU. Exit status: 0, or the failing step.
 * With @expect_gone, the import itself must fail (the object is freed).
 */
static int
import_side(bool expect_gone)
{
	HsaSharedMemoryHandle handle;
	HSAuint64 size = 0, va = 0;
	void *mem = NULL;
	HSAKMT_STATUS st;

	if (read(STDIN_FILENO, handle, sizeof(handle)) != sizeof(handle))
		return 10;
	if (hsaKmtOpenKFD() != HSAKMT_STATUS_SUCCESS || !kit_first_gpu(NULL))
		return 11;
	st = hsaKmtRegisterSharedHandle(&handle, &mem, &size);
	if (expect_gone)
		return st == HSAKMT_STATUS_ERROR ? 0 : 12;
	if (st != HSAKMT_STATUS_SUCCESS)
		return 13;
	if (size != SIZE || !mem)
		return 14;
	if (memcmp(mem, GREETING, sizeof(GREETING)))
		return 15;
	memcpy((char *)mem + REPLY_AT, REPLY, sizeof(REPLY));
	/* the import is a KFD BO like any other: it maps on the GPU */
	if (hsaKmtMapMemoryToGPU(mem, size, &va) != HSAKMT_STATUS_SUCCESS ||
	    hsaKmtUnmapMemoryToGPU(mem) != HSAKMT_STATUS_SUCCESS)
		return 16;
	if (hsaKmtDeregisterMemory(mem) != HSAKMT_STATUS_SUCCESS)
		return 17;
	return hsaKmtCloseKFD() == HSAKMT_STATUS_SUCCESS ? 0 : 18;
}

/* Run this program with @mode (fork+exec, or posix_spawn with @spawn),
 * feed it @handle, return its exit status. */
static int
run_importer(const char *mode, const HsaSharedMemoryHandle *handle, bool spawn)
{
	char *argv[] = { (char *)self_path, (char *)mode, NULL };
	int p[2], status;
	pid_t pid;

	assert_int_equal(pipe(p), 0);
	if (spawn) {
		posix_spawn_file_actions_t fa;

		posix_spawn_file_actions_init(&fa);
		posix_spawn_file_actions_adddup2(&fa, p[0], STDIN_FILENO);
		posix_spawn_file_actions_addclose(&fa, p[1]);
		assert_int_equal(posix_spawn(&pid, self_path, &fa, NULL, argv, environ), 0);
		posix_spawn_file_actions_destroy(&fa);
	} else {
		pid = fork();
		assert_true(pid >= 0);
		if (pid == 0) {
			dup2(p[0], STDIN_FILENO);
			close(p[0]);
			close(p[1]);
			execv(self_path, argv);
			_exit(127);
		}
	}
	close(p[0]);
	assert_int_equal(write(p[1], handle, sizeof(*handle)), sizeof(*handle));
	close(p[1]);
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status));
	return WEXITSTATUS(status);
}

static void
test_share_between_processes(void **state)
{
	HsaSharedMemoryHandle handle;
	void *mem = NULL;

	(void)state;
	assert_int_equal(hsaKmtAllocMemory(gpu_node, SIZE, kit_host_vram(), &mem),
			 HSAKMT_STATUS_SUCCESS);
	memcpy(mem, GREETING, sizeof(GREETING));
	memset(handle, 0, sizeof(handle));
	if (!kit_kernel_is_rocm()) {
		/* upstream: EINVAL from the kernel, ERROR from the thunk */
		assert_int_equal(hsaKmtShareMemory(mem, SIZE, &handle), HSAKMT_STATUS_ERROR);
		assert_int_equal(hsaKmtFreeMemory(mem, SIZE), HSAKMT_STATUS_SUCCESS);
		return;
	}
	assert_int_equal(hsaKmtShareMemory(mem, SIZE, &handle), HSAKMT_STATUS_SUCCESS);
	assert_int_equal(run_importer("--import", &handle, false), 0);
	assert_memory_equal((char *)mem + REPLY_AT, REPLY, sizeof(REPLY));
	/* a second importer, posix_spawn'ed, sees the bytes too */
	memset((char *)mem + REPLY_AT, 0, sizeof(REPLY));
	assert_int_equal(run_importer("--import", &handle, true), 0);
	assert_memory_equal((char *)mem + REPLY_AT, REPLY, sizeof(REPLY));
	/* freed by its last holder: the handle names nothing any more */
	assert_int_equal(hsaKmtFreeMemory(mem, SIZE), HSAKMT_STATUS_SUCCESS);
	assert_int_equal(run_importer("--import-gone", &handle, true), 0);
}

/* A handle nobody exported is refused (EINVAL -> ERROR). */
static void
test_bogus_handle(void **state)
{
	HsaSharedMemoryHandle handle;
	HSAuint64 size = 0;
	void *mem = NULL, *exported = NULL;

	(void)state;
	/* the thunk takes the aperture and GPU from the handle's tail: use a
	 * real export's and change the 128-bit share handle only */
	assert_int_equal(hsaKmtAllocMemory(gpu_node, SIZE, kit_host_vram(), &exported),
			 HSAKMT_STATUS_SUCCESS);
	if (kit_kernel_is_rocm()) {
		assert_int_equal(hsaKmtShareMemory(exported, SIZE, &handle),
				 HSAKMT_STATUS_SUCCESS);
		handle[0] ^= 0xffffffffu;
		assert_int_equal(hsaKmtRegisterSharedHandle(&handle, &mem, &size),
				 HSAKMT_STATUS_ERROR);
	}
	assert_int_equal(hsaKmtFreeMemory(exported, SIZE), HSAKMT_STATUS_SUCCESS);
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
		cmocka_unit_test(test_share_between_processes),
		cmocka_unit_test(test_bogus_handle),
	};

	self_path = argv[0];
	if (argc == 2 && !strcmp(argv[1], "--import"))
		return import_side(false);
	if (argc == 2 && !strcmp(argv[1], "--import-gone"))
		return import_side(true);
	/* kfdtrace sim names the run's machine; nothing here may. */
	if (!getenv("KFDSIM_MACHINE")) {
		fprintf(stderr, "%s: run it under kfdtrace sim\n", argv[0]);
		return 1;
	}
	return cmocka_run_group_tests(tests, setup, teardown);
}

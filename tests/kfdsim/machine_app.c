/* SPDX-License-Identifier: MIT */
/*
 * machine_app - a process of a simulated machine, for test_machine.c: raw
 * KFD ioctls through the preloaded simulator, so what it prints is what
 * the machine's shared accounting says.
 *
 *	machine_app avail		print "avail N" (GPU 0's AVAILABLE_MEMORY)
 *	machine_app hold MIB		allocate MIB of VRAM, print "avail N",
 *					then hold it until the reader of stdout
 *					goes away (stdout a pipe), else until
 *					stdin ends
 *	machine_app spawn MIB		allocate, then run "machine_app avail" with
 *	machine_app forkexec MIB	posix_spawn or fork+exec; print
 *					"parent N child M"
 *
 * Exit status: 0, 2 when there is no device (the simulator said why on
 * stderr), 1 for any other failure.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <spawn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <kfdtrace/kfd_abi.h>

extern char **environ;

static int kfd = -1, render = -1;
static uint32_t gpu_id;

static int
open_device(void)
{
	char buf[32] = "";
	int fd;

	fd = open("/sys/class/kfd/kfd/topology/nodes/1/gpu_id", O_RDONLY);
	if (fd < 0 || read(fd, buf, sizeof(buf) - 1) <= 0)
		return 2;
	close(fd);
	gpu_id = (uint32_t)strtoul(buf, NULL, 10);
	kfd = open("/dev/kfd", O_RDWR | O_CLOEXEC);
	render = open("/dev/dri/renderD128", O_RDWR | O_CLOEXEC);
	if (kfd < 0 || render < 0) {
		fprintf(stderr, "machine_app: no device: %s\n", strerror(errno));
		return 2;
	}
	struct kfd_abi_acquire_vm_args a = { .drm_fd = (uint32_t)render, .gpu_id = gpu_id };

	if (ioctl(kfd, KFD_ABI_IOC_ACQUIRE_VM, &a)) {
		fprintf(stderr, "machine_app: ACQUIRE_VM: %s\n", strerror(errno));
		return 1;
	}
	return 0;
}

static long long
avail(void)
{
	struct kfd_abi_get_available_memory_args a = { .gpu_id = gpu_id };

	if (ioctl(kfd, KFD_ABI_IOC_AVAILABLE_MEMORY, &a)) {
		fprintf(stderr, "machine_app: AVAILABLE_MEMORY: %s\n", strerror(errno));
		return -1;
	}
	return (long long)a.available;
}

static int
alloc_vram(unsigned long mib)
{
	struct kfd_abi_alloc_memory_of_gpu_args a = {
		.va_addr = 0x400000000ULL, .size = (uint64_t)mib << 20, .gpu_id = gpu_id,
		.flags = KFD_ABI_ALLOC_MEM_FLAGS_VRAM | KFD_ABI_ALLOC_MEM_FLAGS_WRITABLE,
	};

	if (ioctl(kfd, KFD_ABI_IOC_ALLOC_MEMORY_OF_GPU, &a)) {
		fprintf(stderr, "machine_app: ALLOC_MEMORY_OF_GPU: %s\n", strerror(errno));
		return 1;
	}
	return 0;
}

/* Until whoever reads our stdout is gone (a pipe's POLLERR), or stdin ends. */
static void
hold(void)
{
	struct stat st;
	struct pollfd p = { .fd = STDOUT_FILENO, .events = 0 };
	char c;

	if (fstat(STDOUT_FILENO, &st) || !S_ISFIFO(st.st_mode)) {
		while (read(STDIN_FILENO, &c, 1) > 0)
			;
		return;
	}
	while (!(p.revents & (POLLERR | POLLHUP)))
		if (poll(&p, 1, -1) < 0 && errno != EINTR)
			return;
}

/* Run "machine_app avail" with @spawn or fork+exec; its number. */
static long long
child_avail(const char *self, int spawn)
{
	char *argv[] = { (char *)self, "avail", NULL };
	char buf[64] = "";
	long long n = -1;
	int p[2], status;
	pid_t pid;

	if (pipe(p))
		return -1;
	if (spawn) {
		posix_spawn_file_actions_t fa;

		posix_spawn_file_actions_init(&fa);
		posix_spawn_file_actions_adddup2(&fa, p[1], STDOUT_FILENO);
		posix_spawn_file_actions_addclose(&fa, p[0]);
		if (posix_spawn(&pid, self, &fa, NULL, argv, environ))
			pid = -1;
		posix_spawn_file_actions_destroy(&fa);
	} else {
		pid = fork();
		if (pid == 0) {
			dup2(p[1], STDOUT_FILENO);
			close(p[0]);
			execv(self, argv);
			_exit(127);
		}
	}
	close(p[1]);
	if (pid < 0)
		return -1;
	if (read(p[0], buf, sizeof(buf) - 1) > 0)
		sscanf(buf, "avail %lld", &n);
	close(p[0]);
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) || WEXITSTATUS(status))
		return -1;
	return n;
}

int
main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "";
	unsigned long mib = argc > 2 ? strtoul(argv[2], NULL, 0) : 0;
	long long a, c;
	int r;

	setvbuf(stdout, NULL, _IOLBF, 0);
	r = open_device();
	if (r)
		return r;
	if (!strcmp(mode, "avail")) {
		a = avail();
		if (a < 0)
			return 1;
		printf("avail %lld\n", a);
		return 0;
	}
	if (!mib || alloc_vram(mib))
		return 1;
	a = avail();
	if (a < 0)
		return 1;
	if (!strcmp(mode, "hold")) {
		printf("avail %lld\n", a);
		hold();
		return 0;
	}
	if (strcmp(mode, "spawn") && strcmp(mode, "forkexec"))
		return 1;
	c = child_avail(argv[0], !strcmp(mode, "spawn"));
	printf("parent %lld child %lld\n", a, c);
	return c == a ? 0 : 1;
}

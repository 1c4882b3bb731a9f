/* SPDX-License-Identifier: MIT */
/*
 * hipIpcGetMemHandle / hipIpcOpenMemHandle across two processes (the ROCm
 * kernel's IPC ioctls: kfdsim's "rocm" flavour): the parent fills 1 MiB
 * of VRAM, posix_spawn()s itself with the handle in hex, and the child
 * opens it, reads it back and checks every byte, then writes its own
 * pattern over the second half, which the parent checks once the child
 * is gone.
 */
#include "hip_check.h"

#include <spawn.h>
#include <sys/wait.h>

#define SIZE (1u << 20)

extern char **environ;

static unsigned char
pattern(size_t i, int who)
{
	return (unsigned char)((i * 2654435761u >> 9) + (unsigned int)who * 77);
}

static int
child(const char *hex)
{
	unsigned char *buf = (unsigned char *)malloc(SIZE);
	hipIpcMemHandle_t h;
	void *dev;

	if (!buf || strlen(hex) != 2 * sizeof(h))
		HIP_FAIL("child: bad handle argument");
	for (size_t i = 0; i < sizeof(h); i++)
		sscanf(hex + 2 * i, "%2hhx", &((unsigned char *)&h)[i]);
	hip_start();
	HIP_CHECK(hipIpcOpenMemHandle(&dev, h, hipIpcMemLazyEnablePeerAccess));
	HIP_CHECK(hipMemcpy(buf, dev, SIZE, hipMemcpyDeviceToHost));
	for (size_t i = 0; i < SIZE; i++)
		if (buf[i] != pattern(i, 0))
			HIP_FAIL("child: byte %zu: 0x%02x, want 0x%02x", i, buf[i],
				 pattern(i, 0));
	for (size_t i = SIZE / 2; i < SIZE; i++)
		buf[i] = pattern(i, 1);
	HIP_CHECK(hipMemcpy((char *)dev + SIZE / 2, buf + SIZE / 2, SIZE / 2,
			    hipMemcpyHostToDevice));
	HIP_CHECK(hipIpcCloseMemHandle(dev));
	printf("child: read %u bytes through the IPC handle, wrote %u\n", SIZE,
	       SIZE / 2);
	free(buf);
	return 0;
}

int
main(int argc, char **argv)
{
	char hex[2 * sizeof(hipIpcMemHandle_t) + 1];
	unsigned char *buf;
	hipIpcMemHandle_t h;
	int status, err;
	pid_t pid;
	void *dev;

	if (argc == 3 && !strcmp(argv[1], "child"))
		return child(argv[2]);
	buf = (unsigned char *)malloc(SIZE);
	if (!buf)
		HIP_FAIL("out of host memory");
	hip_start();
	HIP_CHECK(hipMalloc(&dev, SIZE));
	for (size_t i = 0; i < SIZE; i++)
		buf[i] = pattern(i, 0);
	HIP_CHECK(hipMemcpy(dev, buf, SIZE, hipMemcpyHostToDevice));
	HIP_CHECK(hipIpcGetMemHandle(&h, dev));
	for (size_t i = 0; i < sizeof(h); i++)
		sprintf(hex + 2 * i, "%02x", ((unsigned char *)&h)[i]);
	fflush(stdout);
	{
		char *args[] = { argv[0], (char *)"child", hex, NULL };

		err = posix_spawn(&pid, "/proc/self/exe", NULL, NULL, args, environ);
	}
	if (err)
		HIP_FAIL("posix_spawn: %s", strerror(err));
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) ||
	    WEXITSTATUS(status))
		HIP_FAIL("the child ended with status 0x%x", status);
	HIP_CHECK(hipMemcpy(buf, dev, SIZE, hipMemcpyDeviceToHost));
	for (size_t i = 0; i < SIZE; i++)
		if (buf[i] != pattern(i, i >= SIZE / 2))
			HIP_FAIL("byte %zu after the child: 0x%02x, want 0x%02x", i,
				 buf[i], pattern(i, i >= SIZE / 2));
	HIP_CHECK(hipFree(dev));
	free(buf);
	printf("PASS: hip_ipc (%u bytes shared with a child process)\n", SIZE);
	return 0;
}

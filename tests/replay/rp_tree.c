/* SPDX-License-Identifier: MIT */
/*
 * A workload of several processes on the thunk API (AMD's libhsakmt, or
 * ours first in LD_LIBRARY_PATH) for the replay of a process tree: each
 * process of the run writes a trace of its own, which the replay takes
 * together.
 *
 * Usage: rp_tree MODE, MODE one of
 *   fork    the parent works on the GPU, fork()s a child that opens the
 *           KFD again (the thunk refuses the parent's in a child) and works
 *           on its own, then works again once the child is gone;
 *   spawn   the same with posix_spawn() of /proc/self/exe ("child");
 *   share   the parent exports a VRAM buffer (hsaKmtShareMemory, which
 *           needs the DKMS kernel's IPC ioctls: kfdsim's "rocm" flavour)
 *           and posix_spawn()s a child ("share-child HANDLE") that imports,
 *           maps, unmaps and deregisters it; the parent frees it after.
 *   dmabuf  the parent exports a VRAM buffer as a dma-buf (our thunk's
 *           hsaKmtExportDMABufHandle; on AMD's 5.2.3, which has none,
 *           ALLOC_MEMORY_OF_GPU and EXPORT_DMABUF on the thunk's /dev/kfd),
 *           posix_spawn()s a child ("dmabuf-child NAME") and passes it the
 *           fd over the abstract Unix socket NAME (SCM_RIGHTS); the child
 *           imports it (hsaKmtRegisterGraphicsHandleToNodes), maps, unmaps
 *           and deregisters it. It prints "export: thunk" or "export: ioctl".
 * The share handle goes to the child as hex on its command line: a spawned
 * process starts the thunk from scratch on either library, where a forked
 * one inherits AMD's half-torn-down state.
 *
 * It prints the file the thunk was loaded from ("thunk: PATH"). An
 * unexpected status goes to stderr ("rp_tree: ...") and makes the exit
 * status 1, in any process of the run.
 */
#include <dirent.h>
#include <dlfcn.h>
#include <fcntl.h>
#include <spawn.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include <hsakmt.h>
#include <kfdtrace/kfd_abi.h>

#include "rp_kmt.h"

extern char **environ;

static HSAuint32 gpu;

/* Open the KFD and find the first GPU node; 0 when either fails. */
static int
open_kfd(void)
{

	if (hsaKmtOpenKFD() != HSAKMT_STATUS_SUCCESS) {
		fprintf(stderr, "rp_tree: %s: cannot open the KFD\n", rp_kmt_who);
		return 0;
	}
	gpu = rp_kmt_first_gpu();
	if (!gpu) {
		fprintf(stderr, "rp_tree: %s: no GPU node\n", rp_kmt_who);
		rp_kmt_fail(NULL);
	}
	return gpu != 0;
}

static void
close_kfd(void)
{
	rp_kmt_check(hsaKmtReleaseSystemProperties(), "ReleaseSystemProperties");
	rp_kmt_check(hsaKmtCloseKFD(), "CloseKFD");
}

/* Allocate @size on @node (0: system memory), map it on the GPU. */
static void *
alloc_mapped(HSAuint32 node, HSAuint64 size)
{
	HsaMemFlags flags = { 0 };

	flags.ui32.NonPaged = 1;
	flags.ui32.HostAccess = 1;
	if (node)
		flags.ui32.NoSubstitute = 1;
	return rp_kmt_alloc_mapped(node, gpu, size, flags);
}

/* A little of everything a process does with memory: VRAM and host. */
static void
work(HSAuint64 size)
{
	void *v = alloc_mapped(gpu, size), *h = alloc_mapped(0, size / 2);

	rp_kmt_free_mapped(h, size / 2);
	rp_kmt_free_mapped(v, size);
}

/* Wait for @pid; a child that did not exit 0 makes the run fail. */
static void
reap(pid_t pid)
{
	int status;

	if (waitpid(pid, &status, 0) != pid) {
		perror("rp_tree: waitpid");
		rp_kmt_fail(NULL);
	} else if (!WIFEXITED(status) || WEXITSTATUS(status)) {
		fprintf(stderr, "rp_tree: the child ended with status 0x%x\n",
			status);
		rp_kmt_fail(NULL);
	}
}

/* posix_spawn() this program with @arg1 (and @arg2); return the pid. */
static pid_t
spawn_self(const char *arg1, const char *arg2)
{
	char *argv[] = { "rp_tree", (char *)arg1, (char *)arg2, NULL };
	pid_t pid;
	int err;

	fflush(stdout);
	err = posix_spawn(&pid, "/proc/self/exe", NULL, NULL, argv, environ);
	if (err) {
		fprintf(stderr, "rp_tree: posix_spawn: %s\n", strerror(err));
		rp_kmt_fail(NULL);
		return -1;
	}
	return pid;
}

static int
mode_fork(void)
{
	pid_t pid;

	work(2 << 20);
	fflush(stdout);
	pid = fork();
	if (pid < 0) {
		perror("rp_tree: fork");
		return 1;
	}
	if (pid == 0) {
		/* The parent's KFD is not this process's: open it again. */
		rp_kmt_who = "child";
		if (open_kfd()) {
			work(1 << 20);
			work(4 << 20);
			close_kfd();
		}
		fflush(NULL);
		_exit(rp_kmt_failed());
	}
	reap(pid);
	work(1 << 20);
	return 0;
}

static int
mode_spawn(void)
{
	pid_t pid;

	work(2 << 20);
	pid = spawn_self("child", NULL);
	if (pid > 0)
		reap(pid);
	work(1 << 20);
	return 0;
}

static void
child_work(void)
{
	work(1 << 20);
	work(4 << 20);
}

static int
mode_share(void)
{
	HsaSharedMemoryHandle sh;
	HSAuint64 size = 2 << 20;
	char hex[2 * sizeof(sh) + 1];
	unsigned char *b = (unsigned char *)sh;
	void *p = alloc_mapped(gpu, size);
	pid_t pid;
	size_t i;

	if (!p)
		return 1;
	memset(sh, 0, sizeof(sh));
	rp_kmt_check(hsaKmtShareMemory(p, size, &sh), "ShareMemory");
	for (i = 0; i < sizeof(sh); i++)
		snprintf(hex + 2 * i, 3, "%02x", b[i]);
	if (!rp_kmt_failed()) {
		pid = spawn_self("share-child", hex);
		if (pid > 0)
			reap(pid);
	}
	/* Freed only now: the child's import held the buffer too. */
	rp_kmt_free_mapped(p, size);
	return 0;
}

/* The spawned end of "share": import @hex's buffer, map it, let it go. */
static void
share_child(const char *hex)
{
	HsaSharedMemoryHandle sh;
	unsigned char *b = (unsigned char *)sh;
	HSAuint64 size = 0, va;
	void *p = NULL;
	size_t i;

	if (strlen(hex) != 2 * sizeof(sh)) {
		fprintf(stderr, "rp_tree: child: bad share handle \"%s\"\n", hex);
		rp_kmt_fail(NULL);
		return;
	}
	for (i = 0; i < sizeof(sh); i++)
		sscanf(hex + 2 * i, "%2hhx", &b[i]);
	rp_kmt_check(hsaKmtRegisterSharedHandle(&sh, &p, &size), "RegisterSharedHandle");
	if (!p)
		return;
	if (size != 2 << 20) {
		fprintf(stderr, "rp_tree: child: imported %llu bytes\n",
			(unsigned long long)size);
		rp_kmt_fail(NULL);
	}
	rp_kmt_check(hsaKmtMapMemoryToGPUNodes(p, size, &va, (HsaMemMapFlags){ 0 }, 1,
					&gpu), "MapMemoryToGPUNodes shared");
	rp_kmt_check(hsaKmtUnmapMemoryToGPU(p), "UnmapMemoryToGPU shared");
	rp_kmt_check(hsaKmtDeregisterMemory(p), "DeregisterMemory shared");
}

/* ------------------------------------------------------------------ */
/* dmabuf: VRAM passed as a dma-buf fd over a Unix socket               */

#define DMABUF_SIZE (2u << 20)

/* Our thunk's export; AMD's 5.2.3 has none. */
typedef HSAKMT_STATUS (*export_fn)(void *addr, HSAuint64 size, int *fd,
				   HSAuint64 *offset);

/* The abstract address @name ("\0" @name); Return: its length. */
static socklen_t
abstract_addr(struct sockaddr_un *sa, const char *name)
{
	size_t n = strlen(name);

	memset(sa, 0, sizeof(*sa));
	sa->sun_family = AF_UNIX;
	if (n > sizeof(sa->sun_path) - 1)
		n = sizeof(sa->sun_path) - 1;
	memcpy(sa->sun_path + 1, name, n);
	return (socklen_t)(offsetof(struct sockaddr_un, sun_path) + 1 + n);
}

/* The thunk's /dev/kfd fd, or -1. */
static int
thunk_kfd_fd(void)
{
	DIR *d = opendir("/proc/self/fd");
	struct dirent *de;
	int found = -1;

	while (d && found < 0 && (de = readdir(d))) {
		char path[300], link[64];
		ssize_t n;

		snprintf(path, sizeof(path), "/proc/self/fd/%s", de->d_name);
		n = readlink(path, link, sizeof(link) - 1);
		if (n > 0) {
			link[n] = '\0';
			if (!strcmp(link, "/dev/kfd"))
				found = atoi(de->d_name);
		}
	}
	if (d)
		closedir(d);
	return found;
}

/* A VRAM buffer at @p's address, exported with the KFD ioctls. */
static int
export_ioctl(void *p, uint64_t *handle)
{
	struct kfd_abi_alloc_memory_of_gpu_args a;
	struct kfd_abi_export_dmabuf_args e;
	int kfd = thunk_kfd_fd();
	unsigned int gpu_id = 0;
	char path[128];
	FILE *f;

	/* 5.2.3's node properties do not have the gpu_id: sysfs does. */
	snprintf(path, sizeof(path),
		 "/sys/devices/virtual/kfd/kfd/topology/nodes/%u/gpu_id", gpu);
	f = fopen(path, "r");
	if (!f || fscanf(f, "%u", &gpu_id) != 1)
		rp_kmt_fail("reading the GPU's gpu_id");
	if (f)
		fclose(f);
	memset(&a, 0, sizeof(a));
	a.va_addr = (uint64_t)(uintptr_t)p;
	a.size = DMABUF_SIZE;
	a.gpu_id = gpu_id;
	a.flags = KFD_ABI_ALLOC_MEM_FLAGS_VRAM | KFD_ABI_ALLOC_MEM_FLAGS_WRITABLE |
		  KFD_ABI_ALLOC_MEM_FLAGS_NO_SUBSTITUTE;
	if (kfd < 0 || ioctl(kfd, KFD_ABI_IOC_ALLOC_MEMORY_OF_GPU, &a) < 0) {
		rp_kmt_fail("ALLOC_MEMORY_OF_GPU on the thunk's /dev/kfd");
		return -1;
	}
	*handle = a.handle;
	memset(&e, 0, sizeof(e));
	e.handle = a.handle;
	e.flags = O_CLOEXEC;
	if (ioctl(kfd, KFD_ABI_IOC_EXPORT_DMABUF, &e) < 0) {
		rp_kmt_fail("EXPORT_DMABUF");
		return -1;
	}
	return (int)e.dmabuf_fd;
}

static void
free_ioctl(uint64_t handle)
{
	struct kfd_abi_free_memory_of_gpu_args f = { .handle = handle };
	int kfd = thunk_kfd_fd();

	if (kfd < 0 || ioctl(kfd, KFD_ABI_IOC_FREE_MEMORY_OF_GPU, &f) < 0)
		rp_kmt_fail("FREE_MEMORY_OF_GPU");
}

static void
send_fd(int sock, int fd)
{
	union {
		struct cmsghdr h;
		char buf[CMSG_SPACE(sizeof(int))];
	} ctl;
	char byte = 'd';
	struct iovec iov = { &byte, 1 };
	struct msghdr mh = { .msg_iov = &iov, .msg_iovlen = 1,
			     .msg_control = ctl.buf,
			     .msg_controllen = sizeof(ctl.buf) };
	struct cmsghdr *c = CMSG_FIRSTHDR(&mh);

	memset(&ctl, 0, sizeof(ctl));
	c->cmsg_level = SOL_SOCKET;
	c->cmsg_type = SCM_RIGHTS;
	c->cmsg_len = CMSG_LEN(sizeof(int));
	memcpy(CMSG_DATA(c), &fd, sizeof(fd));
	if (sendmsg(sock, &mh, 0) != 1)
		rp_kmt_fail("sendmsg SCM_RIGHTS");
}

static int
recv_fd(int sock)
{
	union {
		struct cmsghdr h;
		char buf[CMSG_SPACE(sizeof(int))];
	} ctl;
	char byte;
	struct iovec iov = { &byte, 1 };
	struct msghdr mh = { .msg_iov = &iov, .msg_iovlen = 1,
			     .msg_control = ctl.buf,
			     .msg_controllen = sizeof(ctl.buf) };
	struct cmsghdr *c;
	int fd = -1;

	if (recvmsg(sock, &mh, MSG_CMSG_CLOEXEC) != 1) {
		rp_kmt_fail("recvmsg SCM_RIGHTS");
		return -1;
	}
	c = CMSG_FIRSTHDR(&mh);
	if (c && c->cmsg_level == SOL_SOCKET && c->cmsg_type == SCM_RIGHTS)
		memcpy(&fd, CMSG_DATA(c), sizeof(fd));
	if (fd < 0)
		rp_kmt_fail("no fd in the message");
	return fd;
}

static int
mode_dmabuf(void)
{
	/* Asked of the thunk itself: a capture's API wrappers define every
	 * hsaKmt* name in front of it. */
	void *lib = dlopen("libhsakmt.so.1", RTLD_NOW | RTLD_NOLOAD);
	export_fn ex = lib ? (export_fn)(uintptr_t)dlsym(lib,
					"hsaKmtExportDMABufHandle") : NULL;
	struct sockaddr_un sa;
	socklen_t len;
	uint64_t handle = 0;
	HSAuint64 off = 0;
	char name[64];
	void *p;
	pid_t pid;
	int ls, cs, fd = -1;

	snprintf(name, sizeof(name), "rp_tree-dmabuf-%d", (int)getpid());
	len = abstract_addr(&sa, name);
	ls = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (ls < 0 || bind(ls, (struct sockaddr *)&sa, len) < 0 ||
	    listen(ls, 1) < 0) {
		perror("rp_tree: abstract socket");
		return 1;
	}
	p = alloc_mapped(gpu, DMABUF_SIZE);
	if (!p)
		return 1;
	printf("export: %s\n", ex ? "thunk" : "ioctl");
	if (ex)
		rp_kmt_check(ex(p, DMABUF_SIZE, &fd, &off), "ExportDMABufHandle");
	else
		fd = export_ioctl(p, &handle);
	if (fd >= 0 && !rp_kmt_failed()) {
		pid = spawn_self("dmabuf-child", name);
		cs = accept(ls, NULL, NULL);
		if (cs < 0)
			rp_kmt_fail("accept");
		else
			send_fd(cs, fd);
		/* The child holds the buffer through its own fd now. */
		close(fd);
		if (pid > 0)
			reap(pid);
		if (cs >= 0)
			close(cs);
	}
	close(ls);
	if (lib)
		dlclose(lib);
	if (handle)
		free_ioctl(handle);
	rp_kmt_free_mapped(p, DMABUF_SIZE);
	return 0;
}

/* The spawned end of "dmabuf": import what comes over @name, use it. */
static void
dmabuf_child(const char *name)
{
	HsaGraphicsResourceInfo info;
	struct sockaddr_un sa;
	socklen_t len = abstract_addr(&sa, name);
	HSAuint64 va;
	int s, fd;

	s = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (s < 0 || connect(s, (struct sockaddr *)&sa, len) < 0) {
		perror("rp_tree: child: connect");
		rp_kmt_fail(NULL);
		return;
	}
	fd = recv_fd(s);
	close(s);
	if (fd < 0)
		return;
	memset(&info, 0, sizeof(info));
	rp_kmt_check(hsaKmtRegisterGraphicsHandleToNodes((HSAuint64)fd, &info, 1,
							 &gpu),
		     "RegisterGraphicsHandleToNodes");
	close(fd);
	if (!info.MemoryAddress)
		return;
	if (info.SizeInBytes != DMABUF_SIZE) {
		fprintf(stderr, "rp_tree: child: imported %llu bytes\n",
			(unsigned long long)info.SizeInBytes);
		rp_kmt_fail(NULL);
	}
	rp_kmt_check(hsaKmtMapMemoryToGPUNodes(info.MemoryAddress,
					       info.SizeInBytes, &va,
					       (HsaMemMapFlags){ 0 }, 1, &gpu),
		     "MapMemoryToGPUNodes dma-buf");
	rp_kmt_check(hsaKmtUnmapMemoryToGPU(info.MemoryAddress),
		     "UnmapMemoryToGPU dma-buf");
	rp_kmt_check(hsaKmtDeregisterMemory(info.MemoryAddress),
		     "DeregisterMemory dma-buf");
}

int
main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "";
	int child = !strcmp(mode, "child") || !strcmp(mode, "share-child") ||
		    !strcmp(mode, "dmabuf-child");
	int failed = 0;

	rp_kmt_prog = "rp_tree";
	rp_kmt_who = "parent";
	if (strcmp(mode, "fork") && strcmp(mode, "spawn") &&
	    strcmp(mode, "share") && strcmp(mode, "dmabuf") && !child) {
		fprintf(stderr, "usage: rp_tree fork|spawn|share|dmabuf\n");
		return 2;
	}
	if ((!strcmp(mode, "share-child") || !strcmp(mode, "dmabuf-child")) &&
	    argc < 3) {
		fprintf(stderr, "usage: rp_tree %s ARG\n", mode);
		return 2;
	}
	if (child)
		rp_kmt_who = "child";
	/* Which thunk: the tests run this on AMD's and on ours. */
	rp_kmt_print_thunk();
	if (!open_kfd())
		return 1;
	if (!strcmp(mode, "fork"))
		failed = mode_fork();
	else if (!strcmp(mode, "spawn"))
		failed = mode_spawn();
	else if (!strcmp(mode, "share"))
		failed = mode_share();
	else if (!strcmp(mode, "dmabuf"))
		failed = mode_dmabuf();
	else if (!strcmp(mode, "dmabuf-child")) {
		dmabuf_child(argv[2]);
		child_work();
	}
	else if (!strcmp(mode, "child"))
		child_work();
	else
		share_child(argv[2]);
	close_kfd();
	if (failed || rp_kmt_failed())
		fprintf(stderr, "rp_tree: %s: some calls did not succeed\n",
			rp_kmt_who);
	return failed || rp_kmt_failed();
}

/* SPDX-License-Identifier: MIT */
/*
 * Calls that give the process new fd numbers, besides open and dup: each
 * number they return is free in the kernel's table just before, so an
 * entry of ours at it is left over from a close we did not see (a raw
 * close system call) and goes (ksim_fd_fresh). SCM_RIGHTS installs fds
 * too: recvmsg's control messages are read for them, and a model file
 * among them is registered as it comes (ksim_fd_adopt_received). The
 * ioctl path never asks the kernel whether an fd is still ours; these
 * keep the table true.
 */
#include <dlfcn.h>
#include <pthread.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <unistd.h>

#include "shim.h"

static struct {
	int (*pipe)(int[2]);
	int (*pipe2)(int[2], int);
	int (*socket)(int, int, int);
	int (*socketpair)(int, int, int, int[2]);
	int (*accept)(int, struct sockaddr *, socklen_t *);
	int (*accept4)(int, struct sockaddr *, socklen_t *, int);
	int (*eventfd)(unsigned int, int);
	int (*memfd_create)(const char *, unsigned int);
	ssize_t (*recvmsg)(int, struct msghdr *, int);
	int (*recvmmsg)(int, struct mmsghdr *, unsigned int, int, struct timespec *);
} next;

static pthread_once_t next_once = PTHREAD_ONCE_INIT;

#define RESOLVE(field, name) (*(void **)&next.field = dlsym(RTLD_NEXT, name))

static void
next_resolve(void)
{
	ksim_in_shim++;
	RESOLVE(pipe, "pipe");
	RESOLVE(pipe2, "pipe2");
	RESOLVE(socket, "socket");
	RESOLVE(socketpair, "socketpair");
	RESOLVE(accept, "accept");
	RESOLVE(accept4, "accept4");
	RESOLVE(eventfd, "eventfd");
	RESOLVE(memfd_create, "memfd_create");
	RESOLVE(recvmsg, "recvmsg");
	RESOLVE(recvmmsg, "recvmmsg");
	ksim_in_shim--;
}

static void
next_init(void)
{
	ksim_real_init();
	pthread_once(&next_once, next_resolve);
}

/*
 * Inside the shim (the model creating its memfds) registration replaces
 * the entry itself, and taking our lock there could deadlock.
 */
static int
fresh(int fd)
{
	if (fd >= 0 && !ksim_in_shim)
		ksim_fd_fresh(fd);
	return fd;
}

static int
fresh2(int ret, const int fds[2])
{
	if (ret == 0) {
		fresh(fds[0]);
		fresh(fds[1]);
	}
	return ret;
}

KSIM_EXPORT int
pipe(int fds[2])
{
	next_init();
	return fresh2(next.pipe(fds), fds);
}

KSIM_EXPORT int
pipe2(int fds[2], int flags)
{
	next_init();
	return fresh2(next.pipe2(fds, flags), fds);
}

KSIM_EXPORT int
socket(int domain, int type, int protocol)
{
	next_init();
	return fresh(next.socket(domain, type, protocol));
}

KSIM_EXPORT int
socketpair(int domain, int type, int protocol, int fds[2])
{
	next_init();
	return fresh2(next.socketpair(domain, type, protocol, fds), fds);
}

KSIM_EXPORT int
accept(int fd, struct sockaddr *addr, socklen_t *len)
{
	next_init();
	return fresh(next.accept(fd, addr, len));
}

KSIM_EXPORT int
accept4(int fd, struct sockaddr *addr, socklen_t *len, int flags)
{
	next_init();
	return fresh(next.accept4(fd, addr, len, flags));
}

KSIM_EXPORT int
eventfd(unsigned int count, int flags)
{
	next_init();
	return fresh(next.eventfd(count, flags));
}

KSIM_EXPORT int
memfd_create(const char *name, unsigned int flags)
{
	next_init();
	return fresh(next.memfd_create(name, flags));
}

/* The fds SCM_RIGHTS messages installed (the kernel truncates, MSG_CTRUNC). */
static void
fresh_rights(const struct msghdr *msg)
{
	struct cmsghdr *c;

	if (ksim_in_shim || !msg->msg_control)
		return;
	for (c = CMSG_FIRSTHDR((struct msghdr *)msg); c;
	     c = CMSG_NXTHDR((struct msghdr *)msg, c)) {
		size_t n;

		if (c->cmsg_level != SOL_SOCKET || c->cmsg_type != SCM_RIGHTS ||
		    c->cmsg_len < CMSG_LEN(0))
			continue;
		n = (c->cmsg_len - CMSG_LEN(0)) / sizeof(int);
		for (size_t i = 0; i < n; i++) {
			int fd;

			memcpy(&fd, CMSG_DATA(c) + i * sizeof(int), sizeof(fd));
			fresh(fd);
			ksim_fd_adopt_received(fd);
		}
	}
}

KSIM_EXPORT ssize_t
recvmsg(int fd, struct msghdr *msg, int flags)
{
	ssize_t ret;

	next_init();
	ret = next.recvmsg(fd, msg, flags);
	if (ret >= 0 && msg)
		fresh_rights(msg);
	return ret;
}

KSIM_EXPORT int
recvmmsg(int fd, struct mmsghdr *vec, unsigned int vlen, int flags,
	 struct timespec *timeout)
{
	int ret;

	next_init();
	ret = next.recvmmsg(fd, vec, vlen, flags, timeout);
	for (int i = 0; i < ret; i++)
		fresh_rights(&vec[i].msg_hdr);
	return ret;
}

/* SPDX-License-Identifier: MIT */
/*
 * fds over a Unix socket pair, for the capture's fd_transfer records
 * (test_scm.c), with libc and the ABI header only. In order:
 *
 *   1. /dev/kfd's fd alone, sent and received;
 *   2. a pipe's fd alone (nothing of interest: no record);
 *   3. 200 fds (/dev/kfd's first, then the pipe's), received with room
 *      for 4: MSG_CTRUNC, the kernel closes the others;
 *   4. 300 fds in two SCM_RIGHTS messages: more than the kernel takes
 *      (EINVAL);
 *   5. a cmsg_len past the control buffer (EINVAL);
 *   6. a msghdr, and control data, at addresses that are not mapped
 *      (EFAULT, on send and receive);
 *   7. sendmmsg of two messages with /dev/kfd's fd, recvmmsg of both.
 *
 * It prints "kt_scm: done" when every call did what the kernel does.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <unistd.h>

static int bad;

#define CHECK(cond, what)						\
	do {								\
		if (!(cond)) {						\
			fprintf(stderr, "kt_scm: %s: %s\n", what,	\
				strerror(errno));			\
			bad = 1;					\
		}							\
	} while (0)

/* A message of one byte with @n fds, in @nmsg SCM_RIGHTS cmsgs. */
static ssize_t
send_fds(int s, const int *fds, int n, int nmsg)
{
	size_t per = (size_t)(n / nmsg), len = 0;
	char *ctl = calloc(1, (size_t)nmsg * CMSG_SPACE(per * sizeof(int)));
	char byte = 'x';
	struct iovec iov = { &byte, 1 };
	struct msghdr mh = { .msg_iov = &iov, .msg_iovlen = 1 };
	struct cmsghdr *c;
	ssize_t r;

	mh.msg_control = ctl;
	mh.msg_controllen = (size_t)nmsg * CMSG_SPACE(per * sizeof(int));
	c = CMSG_FIRSTHDR(&mh);
	for (int m = 0; m < nmsg; m++) {
		c->cmsg_level = SOL_SOCKET;
		c->cmsg_type = SCM_RIGHTS;
		c->cmsg_len = CMSG_LEN(per * sizeof(int));
		memcpy(CMSG_DATA(c), fds + (size_t)m * per, per * sizeof(int));
		len += CMSG_SPACE(per * sizeof(int));
		c = CMSG_NXTHDR(&mh, c);
	}
	r = sendmsg(s, &mh, 0);
	free(ctl);
	return r;
}

/* Receive one message with room for @room fds; Return: fds received. */
static int
recv_fds(int s, int room, int *flags)
{
	size_t cap = CMSG_SPACE((size_t)room * sizeof(int));
	char *ctl = calloc(1, cap), byte;
	struct iovec iov = { &byte, 1 };
	struct msghdr mh = { .msg_iov = &iov, .msg_iovlen = 1,
			     .msg_control = ctl, .msg_controllen = cap };
	struct cmsghdr *c;
	int n = 0;

	CHECK(recvmsg(s, &mh, 0) == 1, "recvmsg");
	*flags = mh.msg_flags;
	for (c = CMSG_FIRSTHDR(&mh); c; c = CMSG_NXTHDR(&mh, c)) {
		int k = (int)((c->cmsg_len - CMSG_LEN(0)) / sizeof(int));

		for (int i = 0; i < k; i++) {
			int fd;

			memcpy(&fd, CMSG_DATA(c) + (size_t)i * sizeof(int), sizeof(fd));
			close(fd);
		}
		n += k;
	}
	free(ctl);
	return n;
}

int
main(void)
{
	int kfd = open("/dev/kfd", O_RDWR | O_CLOEXEC), sv[2], p[2], flags;
	int *many = malloc(300 * sizeof(int));
	void *hole;

	CHECK(kfd >= 0, "open /dev/kfd");
	CHECK(socketpair(AF_UNIX, SOCK_STREAM, 0, sv) == 0, "socketpair");
	CHECK(pipe(p) == 0, "pipe");

	/* 1 */
	CHECK(send_fds(sv[0], &kfd, 1, 1) == 1, "send kfd");
	CHECK(recv_fds(sv[1], 1, &flags) == 1, "receive kfd");
	/* 2 */
	CHECK(send_fds(sv[0], &p[0], 1, 1) == 1, "send pipe");
	CHECK(recv_fds(sv[1], 1, &flags) == 1, "receive pipe");
	/* 3 */
	many[0] = kfd;
	for (int i = 1; i < 300; i++)
		many[i] = p[0];
	CHECK(send_fds(sv[0], many, 200, 1) == 1, "send 200");
	CHECK(recv_fds(sv[1], 4, &flags) == 4 && (flags & MSG_CTRUNC),
	      "receive 4 of 200");
	/* 4 */
	errno = 0;
	CHECK(send_fds(sv[0], many, 300, 2) < 0 && errno == EINVAL, "send 300");
	/* 5 */
	{
		char ctl[CMSG_SPACE(sizeof(int))] = { 0 }, byte = 'y';
		struct iovec iov = { &byte, 1 };
		struct msghdr mh = { .msg_iov = &iov, .msg_iovlen = 1,
				     .msg_control = ctl,
				     .msg_controllen = sizeof(ctl) };
		struct cmsghdr *c = CMSG_FIRSTHDR(&mh);

		c->cmsg_level = SOL_SOCKET;
		c->cmsg_type = SCM_RIGHTS;
		c->cmsg_len = 4096;
		memcpy(CMSG_DATA(c), &kfd, sizeof(kfd));
		errno = 0;
		CHECK(sendmsg(sv[0], &mh, 0) < 0 && errno == EINVAL,
		      "send a cmsg_len past its buffer");
	}
	/* 6 */
	hole = mmap(NULL, 4096, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	CHECK(hole != MAP_FAILED && munmap(hole, 4096) == 0, "a hole");
	errno = 0;
	CHECK(sendmsg(sv[0], hole, 0) < 0 && errno == EFAULT, "send from a hole");
	errno = 0;
	CHECK(recvmsg(sv[1], hole, MSG_DONTWAIT) < 0, "receive into a hole");
	{
		char byte = 'z';
		struct iovec iov = { &byte, 1 };
		struct msghdr mh = { .msg_iov = &iov, .msg_iovlen = 1,
				     .msg_control = hole, .msg_controllen = 64 };

		errno = 0;
		CHECK(sendmsg(sv[0], &mh, 0) < 0 && errno == EFAULT,
		      "control data in a hole");
	}
	/* 7 */
	{
		char ctl[2][CMSG_SPACE(sizeof(int))], rctl[2][CMSG_SPACE(sizeof(int))];
		char b[2] = { 'a', 'b' }, rb[2];
		struct iovec iov[2] = { { &b[0], 1 }, { &b[1], 1 } };
		struct iovec riov[2] = { { &rb[0], 1 }, { &rb[1], 1 } };
		struct mmsghdr v[2], rv[2];

		memset(ctl, 0, sizeof(ctl));
		memset(v, 0, sizeof(v));
		memset(rv, 0, sizeof(rv));
		for (int i = 0; i < 2; i++) {
			struct cmsghdr *c;

			v[i].msg_hdr.msg_iov = &iov[i];
			v[i].msg_hdr.msg_iovlen = 1;
			v[i].msg_hdr.msg_control = ctl[i];
			v[i].msg_hdr.msg_controllen = sizeof(ctl[i]);
			c = CMSG_FIRSTHDR(&v[i].msg_hdr);
			c->cmsg_level = SOL_SOCKET;
			c->cmsg_type = SCM_RIGHTS;
			c->cmsg_len = CMSG_LEN(sizeof(int));
			memcpy(CMSG_DATA(c), &kfd, sizeof(kfd));
			rv[i].msg_hdr.msg_iov = &riov[i];
			rv[i].msg_hdr.msg_iovlen = 1;
			rv[i].msg_hdr.msg_control = rctl[i];
			rv[i].msg_hdr.msg_controllen = sizeof(rctl[i]);
		}
		CHECK(sendmmsg(sv[0], v, 2, 0) == 2, "sendmmsg");
		CHECK(recvmmsg(sv[1], rv, 2, MSG_WAITFORONE, NULL) == 2, "recvmmsg");
	}
	free(many);
	if (!bad)
		printf("kt_scm: done\n");
	return bad;
}

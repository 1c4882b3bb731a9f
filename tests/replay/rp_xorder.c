/* SPDX-License-Identifier: MIT */
/*
 * A send of fds whose record comes after a call that began once the
 * receive had returned, for the test that a tree replay does not stall
 * on it (replay/tree.c): the capture numbers a call when it returns.
 *
 * The parent opens /dev/kfd and forks a child, which opens its own and sends that fd with
 * 1 MiB of data over a stream socket pair: the send blocks until the
 * parent has read it all. The parent's receive returns with the fd and
 * the first bytes; only then does another thread of the child make an
 * ioctl (GET_VERSION), and only after that does the parent read the rest,
 * so the child's send returns last. In the child's trace the ioctl comes
 * calls come before the send, though they began after the receive returned,
 * which needed the send.
 *
 * `rp_xorder chain` puts a third process in between: the parent passes
 * the fd on to it, and it is what lets the sender's other thread go. Its
 * receive waits for the parent's send, whose receive waits for the
 * child's send: the child's calls must not wait for the third process.
 *
 * `rp_xorder gate` has the third process make an ioctl after the
 * parent's receive returned, and let the sender's thread go after it: the
 * third process's ioctl waits for the parent's receive, which waits for
 * the send, which comes after the calls that wait for that ioctl.
 *
 * Usage: rp_xorder [chain|gate]. An unexpected failure goes to stderr
 * ("rp_xorder: ...") and makes the exit status 1.
 */
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <kfdtrace/kfd_abi.h>

#include "hsakmt/hsakmt.h"

#define XO_BYTES	(1u << 20)	/* more than a socket buffer holds */
#define XO_FIRST	16		/* what the receive takes */
#define XO_VRAM		(2u << 20)

static int go[2], done[2], xgo[2];

static int
fail(const char *what)
{
	perror(what);
	return 1;
}

/* The child's other thread: its calls once the parent says so. */
static void *
late_calls(void *arg)
{
	HsaMemFlags flags = { 0 };
	void *p = NULL;
	char c;

	(void)arg;
	flags.ui32.NonPaged = 1;
	flags.ui32.HostAccess = 1;
	if (read(go[0], &c, 1) != 1)
		perror("rp_xorder: child: read");
	else if (hsaKmtAllocMemory(0, 64 << 10, flags, &p) != HSAKMT_STATUS_SUCCESS ||
		 hsaKmtFreeMemory(p, 64 << 10) != HSAKMT_STATUS_SUCCESS)
		fprintf(stderr, "rp_xorder: child: host memory\n");
	if (write(done[1], "d", 1) != 1)
		perror("rp_xorder: child: write");
	return NULL;
}

/* The first GPU node's VRAM, mapped, exported: Return: the fd, or -1. */
static int
export_vram(void **p)
{
	HsaSystemProperties sys;
	HsaNodeProperties np;
	HsaMemFlags flags = { 0 };
	HSAuint64 va, off;
	HSAuint32 n, gpu = 0;
	int fd = -1;

	if (hsaKmtOpenKFD() != HSAKMT_STATUS_SUCCESS ||
	    hsaKmtAcquireSystemProperties(&sys) != HSAKMT_STATUS_SUCCESS)
		return -1;
	for (n = 0; n < sys.NumNodes && !gpu; n++)
		if (hsaKmtGetNodeProperties(n, &np) == HSAKMT_STATUS_SUCCESS &&
		    np.NumFComputeCores)
			gpu = n;
	flags.ui32.NonPaged = 1;
	flags.ui32.HostAccess = 1;
	flags.ui32.NoSubstitute = 1;
	if (!gpu || hsaKmtAllocMemory(gpu, XO_VRAM, flags, p) != HSAKMT_STATUS_SUCCESS ||
	    hsaKmtMapMemoryToGPUNodes(*p, XO_VRAM, &va, (HsaMemMapFlags){ 0 }, 1,
				      &gpu) != HSAKMT_STATUS_SUCCESS ||
	    hsaKmtExportDMABufHandle(*p, XO_VRAM, &fd, &off) != HSAKMT_STATUS_SUCCESS)
		return -1;
	return fd;
}

static int
child(int sock)
{
	union {
		struct cmsghdr h;
		char buf[CMSG_SPACE(sizeof(int))];
	} ctl;
	char *data = calloc(1, XO_BYTES);
	struct iovec iov = { data, XO_BYTES };
	struct msghdr mh = { .msg_iov = &iov, .msg_iovlen = 1,
			     .msg_control = ctl.buf,
			     .msg_controllen = sizeof(ctl.buf) };
	struct cmsghdr *c;
	void *vram = NULL;
	pthread_t t;
	ssize_t n;
	int fd = export_vram(&vram);

	if (!data || fd < 0) {
		fprintf(stderr, "rp_xorder: child: no dma-buf to send\n");
		return 1;
	}
	if (pthread_create(&t, NULL, late_calls, NULL))
		return fail("rp_xorder: child: pthread_create");
	memset(&ctl, 0, sizeof(ctl));
	c = CMSG_FIRSTHDR(&mh);
	c->cmsg_level = SOL_SOCKET;
	c->cmsg_type = SCM_RIGHTS;
	c->cmsg_len = CMSG_LEN(sizeof(int));
	memcpy(CMSG_DATA(c), &fd, sizeof(fd));
	/* Returns once the parent has read everything. */
	n = sendmsg(sock, &mh, MSG_NOSIGNAL);
	pthread_join(t, NULL);
	free(data);
	close(fd);
	if (hsaKmtUnmapMemoryToGPU(vram) != HSAKMT_STATUS_SUCCESS ||
	    hsaKmtFreeMemory(vram, XO_VRAM) != HSAKMT_STATUS_SUCCESS ||
	    hsaKmtReleaseSystemProperties() != HSAKMT_STATUS_SUCCESS ||
	    hsaKmtCloseKFD() != HSAKMT_STATUS_SUCCESS) {
		fprintf(stderr, "rp_xorder: child: cleaning up\n");
		return 1;
	}
	if (n != (ssize_t)XO_BYTES)
		return fail("rp_xorder: child: sendmsg");
	return 0;
}

/* Send @fd alone (a byte) over @sock. */
static int
send_fd(int sock, int fd)
{
	union {
		struct cmsghdr h;
		char buf[CMSG_SPACE(sizeof(int))];
	} ctl;
	char byte = 'f';
	struct iovec iov = { &byte, 1 };
	struct msghdr mh = { .msg_iov = &iov, .msg_iovlen = 1,
			     .msg_control = ctl.buf,
			     .msg_controllen = sizeof(ctl.buf) };
	struct cmsghdr *c;

	memset(&ctl, 0, sizeof(ctl));
	c = CMSG_FIRSTHDR(&mh);
	c->cmsg_level = SOL_SOCKET;
	c->cmsg_type = SCM_RIGHTS;
	c->cmsg_len = CMSG_LEN(sizeof(int));
	memcpy(CMSG_DATA(c), &fd, sizeof(fd));
	return sendmsg(sock, &mh, MSG_NOSIGNAL) == 1 ? 0 : -1;
}

/* Receive up to @len bytes and one fd over @sock: Return: the fd, or -1. */
static int
recv_fd(int sock, char *data, size_t len, size_t *got)
{
	union {
		struct cmsghdr h;
		char buf[CMSG_SPACE(sizeof(int))];
	} ctl;
	struct iovec iov = { data, len };
	struct msghdr mh = { .msg_iov = &iov, .msg_iovlen = 1,
			     .msg_control = ctl.buf,
			     .msg_controllen = sizeof(ctl.buf) };
	struct cmsghdr *c;
	ssize_t n;
	int fd = -1;

	n = recvmsg(sock, &mh, MSG_CMSG_CLOEXEC);
	c = CMSG_FIRSTHDR(&mh);
	if (n > 0 && c && c->cmsg_type == SCM_RIGHTS)
		memcpy(&fd, CMSG_DATA(c), sizeof(fd));
	*got = n > 0 ? (size_t)n : 0;
	return fd;
}

/*
 * "gate": the third process makes an ioctl once the parent's receive has
 * returned, and only then lets the sender's other thread go.
 */
static int
bystander(void)
{
	struct kfd_abi_get_version_args v;
	int own;
	char c;

	memset(&v, 0, sizeof(v));
	own = open("/dev/kfd", O_RDWR | O_CLOEXEC);
	if (own < 0)
		return fail("rp_xorder: bystander: /dev/kfd");
	if (read(xgo[0], &c, 1) != 1)
		return fail("rp_xorder: bystander: read");
	if (ioctl(own, KFD_ABI_IOC_GET_VERSION, &v) < 0)
		return fail("rp_xorder: bystander: GET_VERSION");
	if (write(go[1], "g", 1) != 1)
		return fail("rp_xorder: bystander: write");
	close(own);
	return 0;
}

/*
 * "chain": the third process, to which the parent forwards the fd; it is
 * the one that lets the sender's other thread go, once it has the fd.
 */
static int
forwardee(int sock)
{
	struct kfd_abi_get_version_args v;
	size_t got;
	char byte;
	int own, fd;

	memset(&v, 0, sizeof(v));
	own = open("/dev/kfd", O_RDWR | O_CLOEXEC);
	if (own < 0 || ioctl(own, KFD_ABI_IOC_GET_VERSION, &v) < 0)
		return fail("rp_xorder: forwardee: /dev/kfd");
	fd = recv_fd(sock, &byte, 1, &got);
	if (fd < 0) {
		fprintf(stderr, "rp_xorder: forwardee: no fd came\n");
		return 1;
	}
	if (write(go[1], "g", 1) != 1)
		return fail("rp_xorder: forwardee: write");
	close(fd);
	close(own);
	return 0;
}

static int
reap(pid_t pid)
{
	int status = 0;

	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) ||
	    WEXITSTATUS(status)) {
		fprintf(stderr, "rp_xorder: a child ended with status 0x%x\n",
			status);
		return 1;
	}
	return 0;
}

/*
 * Take the sender's fd and first bytes over @sock; pass the fd on over
 * @fwd (chain) or let the sender's thread go itself; once that thread is
 * done, read the rest so that the send returns.
 */
static int
parent(int sock, int fwd)
{
	static char data[64 << 10];
	size_t got;
	ssize_t n;
	int fd, bad = 0;
	char d;

	fd = recv_fd(sock, data, XO_FIRST, &got);
	if (fd < 0) {
		fprintf(stderr, "rp_xorder: no fd came with the first bytes\n");
		bad = 1;
	}
	if (fwd >= 0 && fd >= 0 && send_fd(fwd, fd) < 0)
		bad = fail("rp_xorder: forwarding");
	if ((fwd < 0 && write(xgo[1] >= 0 ? xgo[1] : go[1], "g", 1) != 1) ||
	    read(done[0], &d, 1) != 1)
		bad = fail("rp_xorder: pipe");
	while (!bad && got < XO_BYTES) {
		n = read(sock, data, sizeof(data));
		if (n <= 0)
			bad = fail("rp_xorder: read");
		else
			got += (size_t)n;
	}
	if (fd >= 0)
		close(fd);
	return bad;
}

int
main(int argc, char **argv)
{
	struct kfd_abi_get_version_args v;
	int chain = argc > 1 && !strcmp(argv[1], "chain");
	int gate = argc > 1 && !strcmp(argv[1], "gate");
	int sv[2], fv[2] = { -1, -1 }, own, bad;
	pid_t pid, fpid = -1;

	xgo[0] = xgo[1] = -1;
	if (argc > 2 || (argc > 1 && !chain && !gate)) {
		fprintf(stderr, "usage: rp_xorder [chain|gate]\n");
		return 2;
	}
	/* A device of its own, or the capture would write no trace of it. */
	memset(&v, 0, sizeof(v));
	own = open("/dev/kfd", O_RDWR | O_CLOEXEC);
	if (own < 0 || ioctl(own, KFD_ABI_IOC_GET_VERSION, &v) < 0)
		return fail("rp_xorder: /dev/kfd");
	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) < 0 ||
	    (chain && socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, fv) < 0) ||
	    pipe(go) < 0 || pipe(done) < 0 || (gate && pipe(xgo) < 0))
		return fail("rp_xorder: socketpair");
	fflush(stdout);
	pid = fork();
	if (pid < 0)
		return fail("rp_xorder: fork");
	if (pid == 0) {
		close(sv[0]);
		close(own);
		_exit(child(sv[1]));
	}
	close(sv[1]);
	if (chain || gate) {
		fpid = fork();
		if (fpid < 0)
			return fail("rp_xorder: fork");
		if (fpid == 0) {
			close(sv[0]);
			close(own);
			_exit(chain ? (close(fv[0]), forwardee(fv[1])) : bystander());
		}
		if (chain)
			close(fv[1]);
	}
	bad = parent(sv[0], fv[0]);
	bad |= reap(pid);
	if (fpid > 0)
		bad |= reap(fpid);
	close(own);
	return bad;
}

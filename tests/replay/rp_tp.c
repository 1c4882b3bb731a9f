/* SPDX-License-Identifier: MIT */
/*
 * A tensor-parallel job's shape on our thunk, for the test that a run of
 * many processes and threads on many GPUs is recorded whole and replays:
 * RANKS processes at once (the first posix_spawn()s the others), rank r
 * on the r-th GPU, each with THREADS threads that allocate, map, unmap
 * and free VRAM and host memory and set and wait on an event of their
 * own. Meanwhile the ranks pass VRAM round a ring as dma-bufs: each
 * exports a buffer of its GPU, and rank r imports rank r-1's on its own
 * GPU, maps and unmaps it, and lets it go. The fds travel over a Unix
 * socket pair between rank 0 and each other rank (SCM_RIGHTS), rank 0
 * forwarding them; no rank frees its buffer before every import is done.
 *
 * Usage: rp_tp [RANKS [THREADS [ROUNDS]]] (default 8 8 12); the spawned
 * ranks run "rp_tp rank R THREADS ROUNDS" with their socket at fd 3.
 * Each rank prints "rank R: gpu node N" when it found its GPU. An
 * unexpected status goes to stderr ("rp_tp: rank R: ...") and makes that
 * process's exit status 1, and rank 0's.
 */
#include <errno.h>
#include <pthread.h>
#include <spawn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "hsakmt/hsakmt.h"

#define TP_MAX_RANKS	16
#define TP_MAX_THREADS	64
#define TP_SHARED_SIZE	(2u << 20)
/* Where a spawned rank finds its end of the socket pair. */
#define TP_SOCK_FD	3

extern char **environ;

static unsigned int rank, nranks, nthreads, rounds;
static HSAuint32 gpu;
static int failed;
static pthread_mutex_t fail_lock = PTHREAD_MUTEX_INITIALIZER;

static void
tp_fail(const char *what)
{
	pthread_mutex_lock(&fail_lock);
	fprintf(stderr, "rp_tp: rank %u: %s\n", rank, what);
	failed = 1;
	pthread_mutex_unlock(&fail_lock);
}

static void
tp_check(HSAKMT_STATUS st, const char *what)
{
	char msg[160];

	if (st == HSAKMT_STATUS_SUCCESS)
		return;
	snprintf(msg, sizeof(msg), "%s: status %d", what, st);
	tp_fail(msg);
}

/* The node of the @index-th GPU (nodes with compute units), or 0. */
static HSAuint32
nth_gpu(unsigned int index)
{
	HsaSystemProperties sys;
	HsaNodeProperties np;
	HSAuint32 n;

	tp_check(hsaKmtAcquireSystemProperties(&sys), "AcquireSystemProperties");
	for (n = 0; n < sys.NumNodes; n++)
		if (hsaKmtGetNodeProperties(n, &np) == HSAKMT_STATUS_SUCCESS &&
		    np.NumFComputeCores && index-- == 0)
			return n;
	return 0;
}

static void *
alloc_mapped(HSAuint32 node, HSAuint64 size)
{
	HsaMemFlags flags = { 0 };
	HSAuint64 va;
	void *p = NULL;

	flags.ui32.NonPaged = 1;
	flags.ui32.HostAccess = 1;
	if (node)
		flags.ui32.NoSubstitute = 1;
	tp_check(hsaKmtAllocMemory(node, size, flags, &p), "AllocMemory");
	if (p)
		tp_check(hsaKmtMapMemoryToGPUNodes(p, size, &va, (HsaMemMapFlags){ 0 },
						   1, &gpu), "MapMemoryToGPUNodes");
	return p;
}

static void
free_mapped(void *p, HSAuint64 size)
{
	if (!p)
		return;
	tp_check(hsaKmtUnmapMemoryToGPU(p), "UnmapMemoryToGPU");
	tp_check(hsaKmtFreeMemory(p, size), "FreeMemory");
}

/* One of a rank's threads: memory of both kinds, and its own event. */
static void *
worker(void *arg)
{
	unsigned int self = (unsigned int)(uintptr_t)arg, i;
	HsaEventDescriptor ed = { 0 };
	HsaEvent *ev = NULL;

	ed.EventType = HSA_EVENTTYPE_SIGNAL;
	ed.NodeId = gpu;
	tp_check(hsaKmtCreateEvent(&ed, false, false, &ev), "CreateEvent");
	for (i = 0; i < rounds; i++) {
		HSAuint64 size = (HSAuint64)(1 + (self + i) % 4) << 16;
		void *v = alloc_mapped(gpu, size), *h = alloc_mapped(0, size);

		if (ev) {
			tp_check(hsaKmtSetEvent(ev), "SetEvent");
			tp_check(hsaKmtWaitOnEvent(ev, 10000), "WaitOnEvent");
		}
		free_mapped(h, size);
		free_mapped(v, size);
	}
	if (ev)
		tp_check(hsaKmtDestroyEvent(ev), "DestroyEvent");
	return NULL;
}

/* Send the byte @tag, with @fd unless it is -1. */
static void
send_msg(int sock, char tag, int fd)
{
	union {
		struct cmsghdr h;
		char buf[CMSG_SPACE(sizeof(int))];
	} ctl;
	struct iovec iov = { &tag, 1 };
	struct msghdr mh = { .msg_iov = &iov, .msg_iovlen = 1 };

	memset(&ctl, 0, sizeof(ctl));
	if (fd >= 0) {
		struct cmsghdr *c;

		mh.msg_control = ctl.buf;
		mh.msg_controllen = sizeof(ctl.buf);
		c = CMSG_FIRSTHDR(&mh);
		c->cmsg_level = SOL_SOCKET;
		c->cmsg_type = SCM_RIGHTS;
		c->cmsg_len = CMSG_LEN(sizeof(int));
		memcpy(CMSG_DATA(c), &fd, sizeof(fd));
	}
	if (sendmsg(sock, &mh, MSG_NOSIGNAL) != 1)
		tp_fail("sendmsg");
}

/* Receive the byte @tag; Return: the fd that came with it, or -1. */
static int
recv_msg(int sock, char tag)
{
	union {
		struct cmsghdr h;
		char buf[CMSG_SPACE(sizeof(int))];
	} ctl;
	char got = 0;
	struct iovec iov = { &got, 1 };
	struct msghdr mh = { .msg_iov = &iov, .msg_iovlen = 1,
			     .msg_control = ctl.buf,
			     .msg_controllen = sizeof(ctl.buf) };
	struct cmsghdr *c;
	ssize_t n;
	int fd = -1;

	do
		n = recvmsg(sock, &mh, MSG_CMSG_CLOEXEC);
	while (n < 0 && errno == EINTR);
	if (n != 1 || got != tag) {
		char msg[64];

		snprintf(msg, sizeof(msg), "expected message '%c', got %zd byte(s)",
			 tag, n);
		tp_fail(msg);
		return -1;
	}
	c = CMSG_FIRSTHDR(&mh);
	if (c && c->cmsg_level == SOL_SOCKET && c->cmsg_type == SCM_RIGHTS)
		memcpy(&fd, CMSG_DATA(c), sizeof(fd));
	return fd;
}

/* Import the dma-buf @fd on this rank's GPU, map it, let it go. */
static void
use_import(int fd)
{
	HsaGraphicsResourceInfo info;
	HSAuint64 va;

	if (fd < 0) {
		tp_fail("no dma-buf to import");
		return;
	}
	memset(&info, 0, sizeof(info));
	tp_check(hsaKmtRegisterGraphicsHandleToNodes((HSAuint64)fd, &info, 1, &gpu),
		 "RegisterGraphicsHandleToNodes");
	close(fd);
	if (!info.MemoryAddress)
		return;
	if (info.SizeInBytes != TP_SHARED_SIZE)
		tp_fail("the imported buffer has another size");
	tp_check(hsaKmtMapMemoryToGPUNodes(info.MemoryAddress, info.SizeInBytes, &va,
					   (HsaMemMapFlags){ 0 }, 1, &gpu),
		 "MapMemoryToGPUNodes dma-buf");
	tp_check(hsaKmtUnmapMemoryToGPU(info.MemoryAddress), "UnmapMemoryToGPU dma-buf");
	tp_check(hsaKmtDeregisterMemory(info.MemoryAddress), "DeregisterMemory dma-buf");
}

/* Spawn rank @r with @sock as its fd 3; Return: its pid, or -1. */
static pid_t
spawn_rank(unsigned int r, int sock)
{
	char a_rank[16], a_threads[16], a_rounds[16];
	char *argv[] = { "rp_tp", "rank", a_rank, a_threads, a_rounds, NULL };
	posix_spawn_file_actions_t fa;
	pid_t pid;
	int err;

	snprintf(a_rank, sizeof(a_rank), "%u", r);
	snprintf(a_threads, sizeof(a_threads), "%u", nthreads);
	snprintf(a_rounds, sizeof(a_rounds), "%u", rounds);
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_adddup2(&fa, sock, TP_SOCK_FD);
	fflush(stdout);
	err = posix_spawn(&pid, "/proc/self/exe", &fa, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	if (err) {
		fprintf(stderr, "rp_tp: posix_spawn: %s\n", strerror(err));
		return -1;
	}
	return pid;
}

/*
 * The ring of dma-bufs. Rank 0 (@socks[r] its end to rank r) collects
 * every rank's export and hands rank r the one of rank r-1; a spawned
 * rank (@socks[0] its end to rank 0) sends its own and imports what comes.
 */
static void
ring(int *socks, int own_fd)
{
	int fds[TP_MAX_RANKS];
	unsigned int r;

	if (rank) {
		send_msg(socks[0], 'x', own_fd);
		close(own_fd);
		use_import(recv_msg(socks[0], 'i'));
		send_msg(socks[0], 'd', -1);
		recv_msg(socks[0], 'f');
		return;
	}
	fds[0] = own_fd;
	for (r = 1; r < nranks; r++)
		fds[r] = recv_msg(socks[r], 'x');
	for (r = 1; r < nranks; r++) {
		send_msg(socks[r], 'i', fds[r - 1]);
		if (fds[r - 1] >= 0)
			close(fds[r - 1]);
	}
	use_import(fds[nranks - 1]);
	for (r = 1; r < nranks; r++)
		recv_msg(socks[r], 'd');
	for (r = 1; r < nranks; r++)
		send_msg(socks[r], 'f', -1);
}

/* What every rank does once its peers run: Return: 0 or 1 (failure). */
static int
run_rank(int *socks)
{
	pthread_t t[TP_MAX_THREADS];
	unsigned int i, started = 0;
	HSAuint64 off = 0;
	void *shared;
	int fd = -1;

	if (hsaKmtOpenKFD() != HSAKMT_STATUS_SUCCESS) {
		tp_fail("cannot open the KFD");
		return 1;
	}
	gpu = nth_gpu(rank);
	if (!gpu) {
		tp_fail("no GPU of that index");
		hsaKmtCloseKFD();
		return 1;
	}
	printf("rank %u: gpu node %u\n", rank, gpu);
	fflush(stdout);
	for (i = 0; i < nthreads; i++) {
		if (pthread_create(&t[i], NULL, worker, (void *)(uintptr_t)i)) {
			tp_fail("pthread_create");
			break;
		}
		started++;
	}
	shared = alloc_mapped(gpu, TP_SHARED_SIZE);
	if (shared)
		tp_check(hsaKmtExportDMABufHandle(shared, TP_SHARED_SIZE, &fd, &off),
			 "ExportDMABufHandle");
	ring(socks, fd);
	free_mapped(shared, TP_SHARED_SIZE);
	for (i = 0; i < started; i++)
		pthread_join(t[i], NULL);
	tp_check(hsaKmtReleaseSystemProperties(), "ReleaseSystemProperties");
	tp_check(hsaKmtCloseKFD(), "CloseKFD");
	return failed;
}

static int
parse(const char *s, unsigned int lo, unsigned int hi, unsigned int *v)
{
	char *end;
	unsigned long n = strtoul(s, &end, 10);

	if (*s == '\0' || *end || n < lo || n > hi)
		return -1;
	*v = (unsigned int)n;
	return 0;
}

int
main(int argc, char **argv)
{
	int socks[TP_MAX_RANKS], peer[TP_MAX_RANKS];
	pid_t pids[TP_MAX_RANKS];
	int spawned = argc > 1 && !strcmp(argv[1], "rank");
	unsigned int r;
	int bad, usage;

	nranks = 8;
	nthreads = 8;
	rounds = 12;
	if (spawned)
		usage = argc != 5 || parse(argv[2], 1, TP_MAX_RANKS - 1, &rank) ||
			parse(argv[3], 1, TP_MAX_THREADS, &nthreads) ||
			parse(argv[4], 1, 1000, &rounds);
	else
		usage = argc > 4 ||
			(argc > 1 && parse(argv[1], 1, TP_MAX_RANKS, &nranks)) ||
			(argc > 2 && parse(argv[2], 1, TP_MAX_THREADS, &nthreads)) ||
			(argc > 3 && parse(argv[3], 1, 1000, &rounds));
	if (usage) {
		fprintf(stderr, "usage: rp_tp [RANKS(1-%d) [THREADS(1-%d) [ROUNDS(1-1000)]]]\n",
			TP_MAX_RANKS, TP_MAX_THREADS);
		return 2;
	}
	if (spawned) {
		socks[0] = TP_SOCK_FD;
		bad = run_rank(socks);
		if (bad)
			fprintf(stderr, "rp_tp: rank %u: some calls did not succeed\n",
				rank);
		return bad;
	}
	for (r = 1; r < nranks; r++) {
		int sv[2];

		if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) < 0) {
			perror("rp_tp: socketpair");
			return 1;
		}
		socks[r] = sv[0];
		peer[r] = sv[1];
		/* dup2 in the child clears FD_CLOEXEC on its fd 3 only */
		pids[r] = spawn_rank(r, peer[r]);
		close(peer[r]);
		if (pids[r] < 0)
			return 1;
	}
	bad = run_rank(socks);
	for (r = 1; r < nranks; r++) {
		int status = 0;

		close(socks[r]);
		if (waitpid(pids[r], &status, 0) != pids[r] || !WIFEXITED(status) ||
		    WEXITSTATUS(status)) {
			fprintf(stderr, "rp_tp: rank %u ended with status 0x%x\n", r,
				status);
			bad = 1;
		}
	}
	if (bad)
		fprintf(stderr, "rp_tp: rank 0: some calls did not succeed\n");
	return bad;
}

/* SPDX-License-Identifier: MIT */
/*
 * A tensor-parallel job's shape in HIP (mi300x8): RANKS processes at once
 * (the first posix_spawn()s the others), rank r on device r, each with
 * THREADS threads copying their own buffers to the device and back
 * (every byte checked). Meanwhile the ranks pass VRAM round a ring
 * through IPC handles: rank r opens rank r-1's buffer and checks its
 * bytes. The handles travel over a Unix socket pair between rank 0 and
 * each other rank, rank 0 forwarding them; no rank frees its buffer
 * before every rank has closed the one it opened.
 *
 * Usage: hip_tp [RANKS [THREADS]] (default 8 8); a spawned rank runs
 * "hip_tp rank R THREADS" with its socket at fd 3. Prints "PASS: ..."
 * from rank 0 when every rank passed.
 */
#include "hip_check.h"

#include <pthread.h>
#include <spawn.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#define TP_MAX		16
#define TP_SIZE		(1u << 20)
#define TP_COPY		(256u << 10)
#define TP_ROUNDS	4
#define TP_SOCK_FD	3

extern char **environ;

static int rank, nranks = 8, nthreads = 8;

static unsigned char
pattern(size_t i, int who)
{
	return (unsigned char)((i * 2654435761u >> 11) + (unsigned int)who * 29);
}

static void
put(int sock, const void *p, size_t n)
{
	if (write(sock, p, n) != (ssize_t)n)
		HIP_FAIL("rank %d: write to the socket", rank);
}

static void
get(int sock, void *p, size_t n)
{
	size_t got = 0;

	while (got < n) {
		ssize_t r = read(sock, (char *)p + got, n - got);

		if (r <= 0)
			HIP_FAIL("rank %d: read from the socket", rank);
		got += (size_t)r;
	}
}

/* One thread of a rank: buffers of its own there and back. */
static void *
worker(void *arg)
{
	int self = (int)(intptr_t)arg;
	unsigned char *h = (unsigned char *)malloc(TP_COPY);
	void *d;

	if (!h)
		HIP_FAIL("rank %d: out of host memory", rank);
	HIP_CHECK(hipSetDevice(rank));
	for (int i = 0; i < TP_ROUNDS; i++) {
		for (size_t k = 0; k < TP_COPY; k++)
			h[k] = pattern(k, self + i);
		HIP_CHECK(hipMalloc(&d, TP_COPY));
		HIP_CHECK(hipMemcpy(d, h, TP_COPY, hipMemcpyHostToDevice));
		memset(h, 0, TP_COPY);
		HIP_CHECK(hipMemcpy(h, d, TP_COPY, hipMemcpyDeviceToHost));
		HIP_CHECK(hipFree(d));
		for (size_t k = 0; k < TP_COPY; k++)
			if (h[k] != pattern(k, self + i))
				HIP_FAIL("rank %d thread %d: byte %zu", rank, self, k);
	}
	free(h);
	return NULL;
}

/* Open @hd, rank @from's buffer, on this rank's device and check it. */
static void
check_peer(const hipIpcMemHandle_t *hd, int from)
{
	unsigned char *buf = (unsigned char *)malloc(TP_SIZE);
	void *p;

	if (!buf)
		HIP_FAIL("rank %d: out of host memory", rank);
	HIP_CHECK(hipIpcOpenMemHandle(&p, *hd, hipIpcMemLazyEnablePeerAccess));
	HIP_CHECK(hipMemcpy(buf, p, TP_SIZE, hipMemcpyDeviceToHost));
	for (size_t i = 0; i < TP_SIZE; i++)
		if (buf[i] != pattern(i, 100 + from))
			HIP_FAIL("rank %d: byte %zu of rank %d's buffer", rank, i, from);
	HIP_CHECK(hipIpcCloseMemHandle(p));
	free(buf);
}

/*
 * Every rank: its threads, its buffer shared round the ring. Rank 0
 * (@socks[r]: its end to rank r) forwards the handles; another rank
 * (@socks[0]) sends its own and opens what comes.
 */
static void
run_rank(int *socks)
{
	pthread_t t[64];
	hipIpcMemHandle_t own, hd[TP_MAX];
	unsigned char *buf = (unsigned char *)malloc(TP_SIZE);
	char c = 0;
	void *dev;

	if (!buf)
		HIP_FAIL("rank %d: out of host memory", rank);
	hip_start();
	HIP_CHECK(hipSetDevice(rank));
	for (int i = 0; i < nthreads; i++)
		if (pthread_create(&t[i], NULL, worker, (void *)(intptr_t)i))
			HIP_FAIL("rank %d: pthread_create", rank);
	for (size_t i = 0; i < TP_SIZE; i++)
		buf[i] = pattern(i, 100 + rank);
	HIP_CHECK(hipMalloc(&dev, TP_SIZE));
	HIP_CHECK(hipMemcpy(dev, buf, TP_SIZE, hipMemcpyHostToDevice));
	HIP_CHECK(hipIpcGetMemHandle(&own, dev));
	if (rank) {
		put(socks[0], &own, sizeof(own));
		get(socks[0], &hd[0], sizeof(hd[0]));
		check_peer(&hd[0], rank - 1);
		put(socks[0], "d", 1);
		get(socks[0], &c, 1);
	} else {
		hd[0] = own;
		for (int r = 1; r < nranks; r++)
			get(socks[r], &hd[r], sizeof(hd[r]));
		for (int r = 1; r < nranks; r++)
			put(socks[r], &hd[r - 1], sizeof(hd[r - 1]));
		if (nranks > 1)
			check_peer(&hd[nranks - 1], nranks - 1);
		for (int r = 1; r < nranks; r++)
			get(socks[r], &c, 1);
		for (int r = 1; r < nranks; r++)
			put(socks[r], "f", 1);
	}
	for (int i = 0; i < nthreads; i++)
		pthread_join(t[i], NULL);
	HIP_CHECK(hipFree(dev));
	free(buf);
	printf("rank %d: passed\n", rank);
}

int
main(int argc, char **argv)
{
	int socks[TP_MAX];
	pid_t pids[TP_MAX];

	if (argc == 4 && !strcmp(argv[1], "rank")) {
		rank = atoi(argv[2]);
		nthreads = atoi(argv[3]);
		if (rank < 1 || rank >= TP_MAX || nthreads < 1 || nthreads > 64)
			HIP_FAIL("bad rank arguments");
		socks[0] = TP_SOCK_FD;
		run_rank(socks);
		return 0;
	}
	if (argc > 1)
		nranks = atoi(argv[1]);
	if (argc > 2)
		nthreads = atoi(argv[2]);
	if (argc > 3 || nranks < 1 || nranks > TP_MAX || nthreads < 1 || nthreads > 64)
		HIP_FAIL("usage: hip_tp [RANKS(1-%d) [THREADS(1-64)]]", TP_MAX);
	fflush(stdout);
	for (int r = 1; r < nranks; r++) {
		char a_rank[16], a_threads[16];
		char *args[] = { argv[0], (char *)"rank", a_rank, a_threads, NULL };
		posix_spawn_file_actions_t fa;
		int sv[2], err;

		if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) < 0)
			HIP_FAIL("socketpair");
		snprintf(a_rank, sizeof(a_rank), "%d", r);
		snprintf(a_threads, sizeof(a_threads), "%d", nthreads);
		posix_spawn_file_actions_init(&fa);
		posix_spawn_file_actions_adddup2(&fa, sv[1], TP_SOCK_FD);
		err = posix_spawn(&pids[r], "/proc/self/exe", &fa, NULL, args, environ);
		posix_spawn_file_actions_destroy(&fa);
		if (err)
			HIP_FAIL("posix_spawn: %s", strerror(err));
		close(sv[1]);
		socks[r] = sv[0];
	}
	run_rank(socks);
	for (int r = 1; r < nranks; r++) {
		int status = 0;

		if (waitpid(pids[r], &status, 0) != pids[r] || !WIFEXITED(status) ||
		    WEXITSTATUS(status))
			HIP_FAIL("rank %d ended with status 0x%x", r, status);
	}
	printf("PASS: hip_tp (%d ranks of %d threads, IPC round the ring)\n", nranks,
	       nthreads);
	return 0;
}

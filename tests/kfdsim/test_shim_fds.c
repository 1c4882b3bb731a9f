/* SPDX-License-Identifier: MIT */
/*
 * How libkfdsim.so knows its fds without a system call per ioctl: every
 * event that can change what an fd number means keeps its table true
 * (close_range, closefrom, dup3, F_DUPFD, a number handed out again by
 * open, fopen, pipe, socket or SCM_RIGHTS), and a close it never sees (a
 * raw close system call) leads to nothing wrong: a request of another
 * family than the device's is checked with the kernel, and the next
 * number the program is given drops the stale entry; exec starts afresh.
 * Runs preloaded
 * (KFDSIM_PROFILE = data/refmi210.profile), libc only.
 *
 * With --loop N it only issues N GET_VERSION ioctls on one /dev/kfd fd
 * (--loop-pipe N: FIONREAD on a pipe): run_fd_syscalls.sh counts its
 * system calls under strace.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/close_range.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "kfdtrace/kfd_abi.h"

static int
kfd_version(int fd)
{
	struct kfd_abi_get_version_args v;

	memset(&v, 0, sizeof(v));
	if (ioctl(fd, KFD_ABI_IOC_GET_VERSION, &v) < 0)
		return -errno;
	return (int)v.major_version;
}

/* A /dev/kfd fd that answers. */
static int
open_kfd(void)
{
	int fd = open("/dev/kfd", O_RDWR | O_CLOEXEC);

	assert_true(fd >= 0);
	assert_int_equal(kfd_version(fd), 1);
	return fd;
}

/* Close behind the wrappers' back, as a raw system call does. */
static void
raw_close(int fd)
{
	assert_int_equal(syscall(SYS_close, fd), 0);
}

/* close_range closes ours; CLOSE_RANGE_CLOEXEC keeps them answering. */
static void
test_close_range(void **state)
{
	int a = open_kfd(), b = dup(a), lo = a < b ? a : b, hi = a < b ? b : a;

	assert_true(b >= 0);
	assert_int_equal(fcntl(b, F_SETFD, 0), 0);
	assert_int_equal(close_range((unsigned int)lo, (unsigned int)hi,
				     CLOSE_RANGE_CLOEXEC), 0);
	assert_int_equal(fcntl(b, F_GETFD) & FD_CLOEXEC, FD_CLOEXEC);
	assert_int_equal(kfd_version(a), 1);
	assert_int_equal(kfd_version(b), 1);
	/* refused arguments close nothing */
	assert_int_equal(close_range((unsigned int)hi, (unsigned int)lo, 0), -1);
	assert_int_equal(kfd_version(a), 1);

	assert_int_equal(close_range((unsigned int)lo, (unsigned int)hi, 0), 0);
	assert_int_equal(kfd_version(a), -EBADF);
	assert_int_equal(kfd_version(b), -EBADF);
	/* the numbers reused by a plain file are the plain file */
	a = open("/dev/null", O_RDONLY);
	assert_int_equal(a, lo);
	assert_int_equal(kfd_version(a), -ENOTTY);
	close(a);
}

static void
test_closefrom(void **state)
{
	int a = open_kfd(), b = dup2(a, 700);

	assert_int_equal(b, 700);
	closefrom(600);
	assert_int_equal(kfd_version(b), -EBADF);
	assert_int_equal(kfd_version(a), 1);
	close(a);
}

/* dup3 and F_DUPFD over or onto numbers of ours. */
static void
test_dups(void **state)
{
	int a = open_kfd(), null = open("/dev/null", O_RDONLY), d;

	d = dup3(a, 710, O_CLOEXEC);
	assert_int_equal(d, 710);
	assert_int_equal(kfd_version(d), 1);
	assert_int_equal(dup3(null, d, 0), d);
	assert_int_equal(kfd_version(d), -ENOTTY);
	close(d);

	/* F_DUPFD of a plain file onto a number we missed the close of */
	d = fcntl(a, F_DUPFD, 720);
	assert_int_equal(d, 720);
	raw_close(d);
	assert_int_equal(fcntl(null, F_DUPFD_CLOEXEC, 720), 720);
	assert_int_equal(kfd_version(720), -ENOTTY);
	close(720);
	assert_int_equal(kfd_version(a), 1);
	close(null);
	close(a);
}

/*
 * A raw close, then the number comes back from a call we see: open,
 * fopen, pipe, socket. GET_VERSION (the device's own family, which the
 * table answers unchecked) reaches the new file.
 */
static void
test_raw_close_reused_seen(void **state)
{
	int a, fds[2];
	FILE *f;

	a = open_kfd();
	raw_close(a);
	assert_int_equal(open("/dev/null", O_RDONLY), a);
	assert_int_equal(kfd_version(a), -ENOTTY);
	close(a);

	a = open_kfd();
	raw_close(a);
	f = fopen("/dev/null", "r");
	assert_non_null(f);
	assert_int_equal(fileno(f), a);
	assert_int_equal(kfd_version(a), -ENOTTY);
	fclose(f);

	a = open_kfd();
	raw_close(a);
	assert_int_equal(pipe(fds), 0);
	assert_int_equal(fds[0], a);
	assert_int_equal(kfd_version(a), -ENOTTY);
	close(fds[0]);
	close(fds[1]);

	a = open_kfd();
	raw_close(a);
	fds[0] = socket(AF_UNIX, SOCK_STREAM, 0);
	assert_int_equal(fds[0], a);
	assert_int_equal(kfd_version(a), -ENOTTY);
	close(fds[0]);
}

/*
 * A raw close, then the number comes back from a call we do not see (a
 * raw pipe2): a request of another family is checked with the kernel and
 * gets the pipe's answer; fstat and mmap are checked too.
 */
static void
test_raw_close_reused_unseen(void **state)
{
	int a = open_kfd(), fds[2], n = -1;
	struct stat st;

	raw_close(a);
	assert_int_equal(syscall(SYS_pipe2, fds, O_CLOEXEC), 0);
	assert_int_equal(fds[0], a);
	assert_int_equal(write(fds[1], "abc", 3), 3);
	assert_int_equal(ioctl(a, FIONREAD, &n), 0);
	assert_int_equal(n, 3);
	/* the entry went with that check: GET_VERSION is the pipe's too */
	assert_int_equal(kfd_version(a), -ENOTTY);
	assert_int_equal(fstat(a, &st), 0);
	assert_true(S_ISFIFO(st.st_mode));
	close(fds[0]);
	close(fds[1]);

	/* fstat alone finds out too */
	a = open_kfd();
	raw_close(a);
	assert_int_equal(syscall(SYS_pipe2, fds, O_CLOEXEC), 0);
	assert_int_equal(fds[0], a);
	assert_int_equal(fstat(a, &st), 0);
	assert_true(S_ISFIFO(st.st_mode));
	assert_int_equal(kfd_version(a), -ENOTTY);
	close(fds[0]);
	close(fds[1]);
}

static void
send_fd(int sock, int fd)
{
	char data = 'x';
	union {
		char buf[CMSG_SPACE(sizeof(int))];
		struct cmsghdr align;
	} u;
	struct iovec iov = { .iov_base = &data, .iov_len = 1 };
	struct msghdr msg = {
		.msg_iov = &iov, .msg_iovlen = 1,
		.msg_control = u.buf, .msg_controllen = sizeof(u.buf),
	};
	struct cmsghdr *c = CMSG_FIRSTHDR(&msg);

	c->cmsg_level = SOL_SOCKET;
	c->cmsg_type = SCM_RIGHTS;
	c->cmsg_len = CMSG_LEN(sizeof(int));
	memcpy(CMSG_DATA(c), &fd, sizeof(int));
	assert_int_equal(sendmsg(sock, &msg, 0), 1);
}

static int
recv_fd(int sock)
{
	char data;
	union {
		char buf[CMSG_SPACE(sizeof(int))];
		struct cmsghdr align;
	} u;
	struct iovec iov = { .iov_base = &data, .iov_len = 1 };
	struct msghdr msg = {
		.msg_iov = &iov, .msg_iovlen = 1,
		.msg_control = u.buf, .msg_controllen = sizeof(u.buf),
	};
	struct cmsghdr *c;
	int fd;

	assert_int_equal(recvmsg(sock, &msg, 0), 1);
	c = CMSG_FIRSTHDR(&msg);
	assert_non_null(c);
	assert_int_equal(c->cmsg_type, SCM_RIGHTS);
	memcpy(&fd, CMSG_DATA(c), sizeof(int));
	return fd;
}

/*
 * SCM_RIGHTS: a /dev/kfd fd received is ours (adopted at first use); a
 * plain fd received at a number whose close we missed is the plain file.
 */
static void
test_scm_rights(void **state)
{
	int sv[2], a, b, null;

	assert_int_equal(socketpair(AF_UNIX, SOCK_STREAM, 0, sv), 0);
	a = open_kfd();
	send_fd(sv[0], a);
	b = recv_fd(sv[1]);
	assert_true(b >= 0 && b != a);
	assert_int_equal(kfd_version(b), 1);
	close(a);
	assert_int_equal(kfd_version(b), 1);
	close(b);

	null = open("/dev/null", O_RDONLY);
	a = open_kfd();
	raw_close(a);
	send_fd(sv[0], null);
	b = recv_fd(sv[1]);
	assert_int_equal(b, a);
	assert_int_equal(kfd_version(b), -ENOTTY);
	close(b);
	close(null);
	close(sv[0]);
	close(sv[1]);
}

struct race {
	int a, b;
	_Atomic int stop;
	const char *bad;
};

static void *
race_reader(void *arg)
{
	struct race *r = arg;

	while (!r->stop) {
		int vb = kfd_version(r->b);

		if (kfd_version(r->a) != 1)
			r->bad = "the fd nobody touches";
		if (vb != 1 && vb != -ENOTTY)
			r->bad = "the fd dup2'ed over";
	}
	return NULL;
}

/*
 * Lookups without the lock, against dup2 over the fd from another thread:
 * every answer is the device's or /dev/null's, and the untouched fd
 * always answers (run it under ThreadSanitizer too).
 */
static void
test_lookup_race(void **state)
{
	struct race r = { .a = open_kfd() };
	int null = open("/dev/null", O_RDONLY);
	pthread_t t[3];

	r.b = dup2(r.a, 730);
	assert_int_equal(r.b, 730);
	for (int i = 0; i < 3; i++)
		assert_int_equal(pthread_create(&t[i], NULL, race_reader, &r), 0);
	for (int i = 0; i < 3000; i++) {
		assert_int_equal(dup2(null, r.b), r.b);
		assert_int_equal(dup2(r.a, r.b), r.b);
	}
	r.stop = 1;
	for (int i = 0; i < 3; i++)
		assert_int_equal(pthread_join(t[i], NULL), 0);
	if (r.bad)
		fail_msg("a wrong answer on %s", r.bad);
	close(r.b);
	close(r.a);
	close(null);
}

/*
 * exec: the new image's table starts empty, and a /dev/kfd fd kept across
 * exec is not its model's (a plain file to it); its own open works.
 */
static void
test_exec(void **state)
{
	char self[4096], num[16];
	int fd = open("/dev/kfd", O_RDWR), status;
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	pid_t pid;

	assert_true(fd >= 0 && n > 0);
	self[n] = '\0';
	snprintf(num, sizeof(num), "%d", fd);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		execl(self, self, "--exec-child", num, (char *)NULL);
		_exit(127);
	}
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), 0);
	assert_int_equal(kfd_version(fd), 1);
	close(fd);
}

static int
exec_child(int inherited)
{
	int own, code = 0;

	if (kfd_version(inherited) != -ENOTTY)
		code |= 1;
	own = open("/dev/kfd", O_RDWR);
	if (own < 0 || own == inherited || kfd_version(own) != 1)
		code |= 2;
	if (kfd_version(inherited) != -ENOTTY)
		code |= 4;
	return code;
}

/*
 * --loop N: N GET_VERSION ioctls on one fd; --loop-pipe N: N FIONREAD on
 * a pipe once the device exists (not ours: nothing to look up). For
 * run_fd_syscalls.sh.
 */
static int
loop(long n, bool pipe_fd)
{
	int fd = open("/dev/kfd", O_RDWR | O_CLOEXEC), fds[2], avail;

	if (fd < 0 || pipe(fds) < 0) {
		perror("test_shim_fds: open /dev/kfd or pipe");
		return 1;
	}
	for (long i = 0; i < n; i++)
		if (pipe_fd ? ioctl(fds[0], FIONREAD, &avail) != 0 : kfd_version(fd) != 1) {
			fprintf(stderr, "test_shim_fds: ioctl failed at %ld\n", i);
			return 1;
		}
	close(fd);
	return 0;
}

int
main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_close_range),
		cmocka_unit_test(test_closefrom),
		cmocka_unit_test(test_dups),
		cmocka_unit_test(test_raw_close_reused_seen),
		cmocka_unit_test(test_raw_close_reused_unseen),
		cmocka_unit_test(test_scm_rights),
		cmocka_unit_test(test_exec),
		cmocka_unit_test(test_lookup_race),
	};

	if (argc == 3 && strcmp(argv[1], "--loop") == 0)
		return loop(atol(argv[2]), false);
	if (argc == 3 && strcmp(argv[1], "--loop-pipe") == 0)
		return loop(atol(argv[2]), true);
	if (argc == 3 && strcmp(argv[1], "--exec-child") == 0)
		return exec_child(atoi(argv[2]));
	return cmocka_run_group_tests(tests, NULL, NULL);
}

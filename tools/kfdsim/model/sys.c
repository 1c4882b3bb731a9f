/* SPDX-License-Identifier: MIT */
/*
 * Raw system calls. The model runs inside an LD_PRELOAD shim that wraps
 * open/close/mmap/fstat/read/write/ioctl; going through syscall() keeps the
 * model's own file descriptors and probes invisible to those wrappers (and
 * to a tracer stacked on top).
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/stat.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "ksim_priv.h"

#ifndef MFD_CLOEXEC
#define MFD_CLOEXEC 0x0001U
#endif
#ifndef AT_EMPTY_PATH
#define AT_EMPTY_PATH 0x1000
#endif

/*
 * The pid, cached where every child that does not share our memory sees
 * it zeroed (MADV_WIPEONFORK), however it was made: a clone() child runs
 * no pthread_atfork() handler, and a stale pid would send its copies to
 * user memory (process_vm_writev) into the parent. Without the page
 * (Linux before 4.14) the pid is asked every time.
 */
static pid_t *pid_slot;
static pthread_once_t pid_once = PTHREAD_ONCE_INIT;

static void
pid_slot_init(void)
{
	long page = sysconf(_SC_PAGESIZE);
	void *p = (void *)syscall(SYS_mmap, NULL, (size_t)page,
				  PROT_READ | PROT_WRITE,
				  MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED)
		return;
	if (syscall(SYS_madvise, p, (size_t)page, MADV_WIPEONFORK)) {
		syscall(SYS_munmap, p, (size_t)page);
		return;
	}
	pid_slot = p;
}

pid_t
ksim_self_pid(void)
{
	pid_t pid;

	pthread_once(&pid_once, pid_slot_init);
	if (!pid_slot)
		return (pid_t)syscall(SYS_getpid);
	pid = __atomic_load_n(pid_slot, __ATOMIC_RELAXED);
	if (!pid) {
		pid = (pid_t)syscall(SYS_getpid);
		__atomic_store_n(pid_slot, pid, __ATOMIC_RELAXED);
	}
	return pid;
}

void
ksim_pid_refresh(void)
{
	pthread_once(&pid_once, pid_slot_init);
	if (pid_slot)
		__atomic_store_n(pid_slot, (pid_t)syscall(SYS_getpid),
				 __ATOMIC_RELAXED);
}

int
ksim_sys_close(int fd)
{
	if (fd < 0)
		return 0;
	return syscall(SYS_close, fd) ? -errno : 0;
}

/* Duplicate @fd at the lowest free number ≥ @min. */
int
ksim_sys_dup_min(int fd, int min, int cloexec)
{
	long r = syscall(SYS_fcntl, fd, cloexec ? F_DUPFD_CLOEXEC : F_DUPFD, min);

	return r < 0 ? -errno : (int)r;
}

/*
 * Move an internal fd out of the application's way: the kernel keeps its
 * objects without fds, so a simulated process should see the same fd
 * numbers as a real one. Falls back to the fd itself when the limit is low.
 */
int
ksim_internal_fd(int fd)
{
	static int base = -1;
	int hi;

	if (fd < 0)
		return fd;
	if (base < 0) {
		struct rlimit rl;

		if (syscall(SYS_getrlimit, RLIMIT_NOFILE, &rl) == 0 &&
		    rl.rlim_cur >= 4096)
			base = rl.rlim_cur / 2 > 32768 ? 32768 : (int)(rl.rlim_cur / 2);
		else
			base = 0;
	}
	if (!base)
		return fd;
	hi = ksim_sys_dup_min(fd, base, 1);
	if (hi < 0)
		return fd;
	ksim_sys_close(fd);
	return hi;
}

int
ksim_sys_memfd(const char *name, int cloexec)
{
	long r = syscall(SYS_memfd_create, name, cloexec ? MFD_CLOEXEC : 0);

	return r < 0 ? -errno : (int)r;
}

int
ksim_sys_identity(int fd, uint64_t *dev, uint64_t *ino)
{
	struct statx stx;

	memset(&stx, 0, sizeof(stx));
	if (syscall(SYS_statx, fd, "", AT_EMPTY_PATH, STATX_INO, &stx))
		return -errno;
	*dev = makedev(stx.stx_dev_major, stx.stx_dev_minor);
	*ino = stx.stx_ino;
	return 0;
}

int
ksim_sys_ftruncate(int fd, uint64_t size)
{
	return syscall(SYS_ftruncate, fd, (off_t)size) ? -errno : 0;
}

int
ksim_sys_pwrite(int fd, const void *buf, size_t len, uint64_t off)
{
	while (len) {
		long r = syscall(SYS_pwrite64, fd, buf, len, (off_t)off);

		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return r < 0 ? -errno : -EIO;
		buf = (const char *)buf + r;
		len -= (size_t)r;
		off += (uint64_t)r;
	}
	return 0;
}

int
ksim_sys_pread(int fd, void *buf, size_t len, uint64_t off)
{
	while (len) {
		long r = syscall(SYS_pread64, fd, buf, len, (off_t)off);

		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return -errno;
		if (r == 0) {
			memset(buf, 0, len);	/* past EOF reads as zeros */
			return 0;
		}
		buf = (char *)buf + r;
		len -= (size_t)r;
		off += (uint64_t)r;
	}
	return 0;
}

int
ksim_sys_fill(int fd, uint64_t off, uint64_t len, uint8_t byte)
{
	char chunk[4096];

	memset(chunk, byte, sizeof(chunk));
	while (len) {
		size_t n = len > sizeof(chunk) ? sizeof(chunk) : (size_t)len;
		int r = ksim_sys_pwrite(fd, chunk, n, off);

		if (r)
			return r;
		off += n;
		len -= n;
	}
	return 0;
}

int
ksim_sys_punch(int fd, uint64_t off, uint64_t len)
{
	if (syscall(SYS_fallocate, fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE,
		    (long)off, (long)len))
		return -errno;
	return 0;
}

/* sv[0] goes to the application (lowest fd), sv[1] stays with the model. */
int
ksim_sys_socketpair(int sv[2], int cloexec_user)
{
	int pair[2];

	if (syscall(SYS_socketpair, AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, pair))
		return -errno;
	if (!cloexec_user &&
	    syscall(SYS_fcntl, pair[0], F_SETFD, 0)) {
		int e = -errno;

		ksim_sys_close(pair[0]);
		ksim_sys_close(pair[1]);
		return e;
	}
	sv[0] = pair[0];
	sv[1] = ksim_internal_fd(pair[1]);
	return 0;
}

int
ksim_sys_read_proc(pid_t pid, const char *name, char *buf, size_t size)
{
	char path[64];
	long n;
	int fd;

	if (pid <= 0 || size < 2)
		return -1;
	snprintf(path, sizeof(path), "/proc/%d/%s", (int)pid, name);
	fd = (int)syscall(SYS_openat, AT_FDCWD, path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	n = syscall(SYS_read, fd, buf, size - 1);
	ksim_sys_close(fd);
	if (n <= 0)
		return -1;
	buf[n] = '\0';
	return (int)n;
}

int
ksim_sys_pid_alive(pid_t pid)
{
	if (pid <= 0)
		return 0;
	return syscall(SYS_kill, pid, 0) == 0 || errno == EPERM;
}

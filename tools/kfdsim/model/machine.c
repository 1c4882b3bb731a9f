/* SPDX-License-Identifier: MIT */
/*
 * A machine's state file, /dev/shm/kfdsim-<id> (the registry, registry.c):
 * making it, checking a file found under that name, telling when it is
 * stale, and removing it.
 *
 * Who uses a machine: every process that has the registry mapped keeps the
 * file open with a shared flock(), which the kernel drops when the process
 * ends, however it ends (SIGKILL included). The header names the process
 * that made the file, with its start time, so a recycled pid is not taken
 * for it. A file that no process holds and whose maker is gone is stale:
 * every process of that machine has ended, so, as on a host after reboot,
 * nothing in it means anything any more. It is removed (reclaimed) with a
 * message, by the next run (ksim_machine_begin()) or by the next process
 * that opens that machine. A file that is not a state file of this kfdsim
 * (a symbolic link, not a regular file, another user's, or the wrong size,
 * magic or version) is refused with a message when a process holds it,
 * reclaimed when none does; another user's file is never touched.
 *
 * A new file is complete before it has its name: an O_TMPFILE in /dev/shm
 * gets its header (the lock word free) and shared lock, then is linked
 * into place (linkat through /proc/self/fd), so no process sees a
 * half-made one. A run's own machine is only ever made new, under a name
 * with 64 random bits: /dev/shm is every user's, and a predictable name
 * could be taken first by another user.
 *
 * Only raw system calls here: the preload shim wraps open, close, mmap,
 * readdir and friends, and this code runs inside it.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/stat.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "ksim_priv.h"
#include "registry_priv.h"

#ifndef O_TMPFILE
#define O_TMPFILE (020000000 | O_DIRECTORY)
#endif

#define SHM_DIR		"/dev/shm"
#define SHM_PREFIX	"kfdsim-"
#define PATH_LEN	512

struct ksim_machine {
	int fd;			/* the state file, shared lock held */
	int run;		/* made for this run: removed at the end */
	char id[KSIM_MACHINE_ID_MAX + 16];
	char path[PATH_LEN];
};

/* Where state files live: KFDSIM_SHM_DIR (an absolute path), else /dev/shm. */
static const char *
shm_dir(void)
{
	const char *d = getenv(KSIM_ENV_SHM_DIR);

	return d && d[0] == '/' && strlen(d) < PATH_LEN - 100 ? d : SHM_DIR;
}

void
ksim_machine_log(const char *path, const char *fmt, ...)
{
	char line[640];
	va_list ap;
	int n, m;

	n = snprintf(line, sizeof(line) - 1, "kfdsim[%d]: %s: ",
		     (int)syscall(SYS_getpid), path);
	if (n < 0 || (size_t)n >= sizeof(line) - 1)
		return;
	va_start(ap, fmt);
	m = vsnprintf(line + n, sizeof(line) - 1 - (size_t)n, fmt, ap);
	va_end(ap);
	if (m < 0)
		return;
	n += m;
	if ((size_t)n > sizeof(line) - 2)
		n = sizeof(line) - 2;
	line[n++] = '\n';
	if (syscall(SYS_write, STDERR_FILENO, line, (size_t)n) < 0)
		return;
}

int
ksim_machine_name_check(const char *id)
{
	size_t n = id ? strlen(id) : 0;

	if (!n || n > KSIM_MACHINE_ID_MAX || id[0] == '.')
		return -EINVAL;
	for (size_t i = 0; i < n; i++) {
		char c = id[i];

		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		      (c >= '0' && c <= '9') || c == '_' || c == '-' || c == '.'))
			return -EINVAL;
	}
	return 0;
}

int
ksim_machine_path(const char *id, char *buf, size_t len)
{
	int n;

	if (ksim_machine_name_check(id))
		return -EINVAL;
	n = snprintf(buf, len, "%s/%s%s", shm_dir(), SHM_PREFIX, id);
	return n < 0 || (size_t)n >= len ? -ENAMETOOLONG : 0;
}

uint64_t
ksim_proc_start_time(pid_t pid)
{
	char buf[1024], *p;
	unsigned long long start = 0;

	if (ksim_sys_read_proc(pid, "stat", buf, sizeof(buf)) < 0)
		return 0;
	/* "pid (comm) state ..." and comm may hold anything: fields count
	 * from the last ')'. starttime is field 22, the 20th after it. */
	p = strrchr(buf, ')');
	/* A zombie has ended: nobody reaped it yet. */
	if (!p || p[1] != ' ' || p[2] == 'Z' || p[2] == 'X')
		return 0;
	for (int field = 2; field < 22 && p; field++)
		p = strchr(p + 1, ' ');
	if (!p || sscanf(p + 1, "%llu", &start) != 1)
		return 0;
	/* Never 0 for a live process, so 0 can mean "none". */
	return start + 1;
}

/* Whether the process that made the file lives (the same one, not a
 * later process that got its pid). */
static int
owner_alive(const struct reg_head *h)
{
	return h->owner_pid > 0 &&
	       ksim_proc_start_time(h->owner_pid) == h->owner_start;
}

enum {
	CHK_OK,
	CHK_BAD,	/* not a state file of this kfdsim: reclaim when unused */
	CHK_REFUSE,	/* never ours to touch */
};

/* Whether the file open at @fd is a state file of this kfdsim. */
static int
check_file(int fd, struct reg_head *h, char *why, size_t len)
{
	struct statx st;
	long n;

	memset(&st, 0, sizeof(st));
	memset(h, 0, sizeof(*h));
	if (syscall(SYS_statx, fd, "", AT_EMPTY_PATH,
		    STATX_TYPE | STATX_UID | STATX_SIZE, &st)) {
		snprintf(why, len, "cannot stat it: %s", strerror(errno));
		return CHK_REFUSE;
	}
	if (!S_ISREG(st.stx_mode)) {
		snprintf(why, len, "not a regular file");
		return CHK_REFUSE;
	}
	if (st.stx_uid != (uint32_t)syscall(SYS_geteuid)) {
		snprintf(why, len, "owned by uid %u, not by this user (uid %u)",
			 st.stx_uid, (unsigned int)syscall(SYS_geteuid));
		return CHK_REFUSE;
	}
	n = syscall(SYS_pread64, fd, h, sizeof(*h), 0);
	if (n != (long)sizeof(*h) || h->magic != REG_MAGIC) {
		snprintf(why, len, "not a kfdsim machine (%llu bytes, no registry "
			 "header)", (unsigned long long)st.stx_size);
		return CHK_BAD;
	}
	if (h->version != REG_VERSION) {
		snprintf(why, len, "made by another version of kfdsim (registry "
			 "version %u, this one reads %u)", h->version, REG_VERSION);
		return CHK_BAD;
	}
	if (st.stx_size != sizeof(struct reg_shared) ||
	    h->size != sizeof(struct reg_shared)) {
		snprintf(why, len, "made by another build of kfdsim (%llu bytes, "
			 "this one's are %zu)", (unsigned long long)st.stx_size,
			 sizeof(struct reg_shared));
		return CHK_BAD;
	}
	return CHK_OK;
}

/* Whether @path still names the file open at @fd. */
static int
same_file(int fd, const char *path)
{
	struct statx a, b;

	memset(&a, 0, sizeof(a));
	memset(&b, 0, sizeof(b));
	if (syscall(SYS_statx, fd, "", AT_EMPTY_PATH, STATX_INO, &a) ||
	    syscall(SYS_statx, AT_FDCWD, path, AT_SYMLINK_NOFOLLOW, STATX_INO, &b))
		return 0;
	return a.stx_ino == b.stx_ino && a.stx_dev_major == b.stx_dev_major &&
	       a.stx_dev_minor == b.stx_dev_minor;
}

static int
flock_retry(int fd, int op)
{
	while (syscall(SYS_flock, fd, op)) {
		if (errno != EINTR)
			return -errno;
	}
	return 0;
}

#define FLOCK_DEADLINE_S	10

/*
 * A shared flock() on @fd, waited for at most FLOCK_DEADLINE_S: an
 * exclusive one is held only while a file is made in place or removed,
 * so one held longer is a stopped or hostile process, never waited on
 * for good.
 */
static int
flock_bounded_sh(int fd)
{
	const struct timespec tick = { 0, 10000000 };	/* 10 ms */

	for (int i = 0; i < FLOCK_DEADLINE_S * 100; i++) {
		int r = flock_retry(fd, LOCK_SH | LOCK_NB);

		if (r != -EWOULDBLOCK)
			return r;
		nanosleep(&tick, NULL);
	}
	return -EWOULDBLOCK;
}

/*
 * Remove @path, open at @fd, if no process holds it (and, with @h, its
 * maker is gone; @self_dead: this process counts as gone).
 *
 * Return: 1 removed, 0 in use, -1 the name changed meanwhile.
 */
static int
remove_unused(int fd, const char *path, const struct reg_head *h, int self_dead)
{
	int r = 1;

	if (flock_retry(fd, LOCK_EX | LOCK_NB))
		return 0;
	if (h && owner_alive(h) &&
	    !(self_dead && h->owner_pid == (int32_t)syscall(SYS_getpid)))
		r = 0;
	else if (!same_file(fd, path))
		r = -1;
	else if (syscall(SYS_unlink, path) && errno != ENOENT)
		r = 0;
	flock_retry(fd, LOCK_UN);
	return r;
}

/* Why a removed file was stale, for the message. */
static void
stale_msg(const char *path, const struct reg_head *h, const char *then)
{
	if (h->flags & REG_F_RUN)
		ksim_machine_log(path, "stale: its run (pid %d) ended without "
				 "removing it and no process uses it: %s",
				 (int)h->owner_pid, then);
	else
		ksim_machine_log(path, "stale: every process of the machine "
				 "(made by pid %d) has ended: %s",
				 (int)h->owner_pid, then);
}

/* Fill a new file's header, then take the shared lock. */
static int
init_file(int fd, int run)
{
	pid_t self = (pid_t)syscall(SYS_getpid);
	void *map;
	int r;

	if (syscall(SYS_ftruncate, fd, (long)sizeof(struct reg_shared)))
		return -errno;
	map = (void *)syscall(SYS_mmap, NULL, sizeof(struct reg_shared),
			      PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (map == MAP_FAILED)
		return -errno;
	ksim_reg_init(map, self, ksim_proc_start_time(self), run ? REG_F_RUN : 0);
	syscall(SYS_munmap, map, sizeof(struct reg_shared));
	r = flock_retry(fd, LOCK_SH);
	return r;
}

/*
 * Make the file at @path, complete before it has the name.
 *
 * Return: its fd (shared lock held), -EEXIST when the name was taken
 * meanwhile, or another negative errno.
 */
static int
create_file(const char *path, int run)
{
	char proc[48];
	int fd, r;

	fd = (int)syscall(SYS_openat, AT_FDCWD, shm_dir(), O_TMPFILE | O_RDWR | O_CLOEXEC,
			  0600);
	if (fd >= 0) {
		r = init_file(fd, run);
		snprintf(proc, sizeof(proc), "/proc/self/fd/%d", fd);
		if (!r && !syscall(SYS_linkat, AT_FDCWD, proc, AT_FDCWD, path,
				   AT_SYMLINK_FOLLOW))
			return fd;
		r = r ? r : -errno;
		ksim_sys_close(fd);
		if (r == -EEXIST)
			return r;
	}
	/* No O_TMPFILE or no /proc: made in place, under an exclusive lock
	 * that others' checks see as "in use" until the header is there. */
	fd = (int)syscall(SYS_openat, AT_FDCWD, path,
			  O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (fd < 0)
		return -errno;
	r = flock_retry(fd, LOCK_EX);
	if (!r)
		r = init_file(fd, run);
	if (r) {
		syscall(SYS_unlink, path);
		ksim_sys_close(fd);
		return r;
	}
	return fd;
}

int
ksim_machine_attach(const char *id, int run, char *path, size_t len)
{
	struct reg_head h;
	char why[200];
	int fd, c, r;

	r = ksim_machine_path(id, path, len);
	if (r)
		return r;
	/* A run's machine is new or nothing: whatever has the name (another
	 * user's file included) is left alone and the caller takes another. */
	if (run) {
		fd = create_file(path, 1);
		if (fd == -EEXIST)
			return -EBUSY;
		if (fd < 0)
			ksim_machine_log(path, "cannot create it: %s", strerror(-fd));
		return fd;
	}
	for (int tries = 0; tries < 16; tries++) {
		fd = (int)syscall(SYS_openat, AT_FDCWD, path, O_RDWR | O_NOFOLLOW |
				  O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
		if (fd < 0 && errno == ENOENT) {
			fd = create_file(path, 0);
			if (fd == -EEXIST)
				continue;
			if (fd < 0)
				ksim_machine_log(path, "cannot create it: %s",
						 strerror(-fd));
			return fd;
		}
		if (fd < 0) {
			r = -errno;
			if (r == -ELOOP)
				ksim_machine_log(path, "a symbolic link, not a machine "
						 "state file: refusing it");
			else if (r == -EISDIR || r == -ENXIO)
				ksim_machine_log(path, "not a regular file: refusing "
						 "it");
			else
				ksim_machine_log(path, "cannot open it: %s",
						 strerror(-r));
			return r;
		}
		c = check_file(fd, &h, why, sizeof(why));
		if (c == CHK_REFUSE) {
			ksim_sys_close(fd);
			ksim_machine_log(path, "%s: refusing it", why);
			return -EPERM;
		}
		if (c == CHK_BAD) {
			r = remove_unused(fd, path, NULL, 0);
			ksim_sys_close(fd);
			if (r == 1)
				ksim_machine_log(path, "%s, and no process uses it: "
						 "removed, starting the machine afresh", why);
			if (r)
				continue;
			ksim_machine_log(path, "%s, and a live process uses it: "
					 "refusing it", why);
			return -EINVAL;
		}
		r = remove_unused(fd, path, &h, 0);
		if (r) {
			ksim_sys_close(fd);
			if (r == 1)
				stale_msg(path, &h, "removed, starting the machine afresh");
			continue;
		}
		r = flock_bounded_sh(fd);
		if (r) {
			ksim_sys_close(fd);
			if (r == -EWOULDBLOCK)
				ksim_machine_log(path, "locked exclusively by another "
						 "process for more than %d s: refusing it",
						 FLOCK_DEADLINE_S);
			else
				ksim_machine_log(path, "cannot lock it: %s",
						 strerror(-r));
			return r;
		}
		/* Reclaimed by another process between open and lock? */
		if (same_file(fd, path))
			return fd;
		ksim_sys_close(fd);
	}
	ksim_machine_log(path, "keeps changing under this process: giving up");
	return -EAGAIN;
}

int
ksim_machine_open(const char *id, char *path, size_t len)
{
	struct reg_head h;
	char why[200];
	int fd, r;

	r = ksim_machine_path(id, path, len);
	if (r)
		return r;
	fd = (int)syscall(SYS_openat, AT_FDCWD, path, O_RDWR | O_NOFOLLOW |
			  O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (check_file(fd, &h, why, sizeof(why)) != CHK_OK) {
		ksim_sys_close(fd);
		ksim_machine_log(path, "%s: refusing it", why);
		return -EINVAL;
	}
	r = flock_bounded_sh(fd);
	if (r) {
		ksim_sys_close(fd);
		return r;
	}
	return fd;
}

/* Reclaim /dev/shm/kfdsim-<id> if it is a stale machine of this kfdsim. */
static int
reclaim_one(const char *id)
{
	char path[PATH_LEN], why[200];
	struct reg_head h;
	int fd, r = 0;

	if (ksim_machine_path(id, path, sizeof(path)))
		return 0;
	fd = (int)syscall(SYS_openat, AT_FDCWD, path, O_RDONLY | O_NOFOLLOW |
			  O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	if (fd < 0)
		return 0;
	/* Files of other versions or users are dealt with (refused or
	 * reclaimed, with a message) when a process opens that machine: an
	 * older kfdsim held no lock, so whether one is in use is unknown. */
	if (check_file(fd, &h, why, sizeof(why)) == CHK_OK &&
	    remove_unused(fd, path, &h, 0) == 1) {
		stale_msg(path, &h, "removed");
		r = 1;
	}
	ksim_sys_close(fd);
	return r;
}

struct linux_dirent64_hdr {
	uint64_t d_ino;
	int64_t d_off;
	unsigned short d_reclen;
	unsigned char d_type;
	char d_name[];
};

int
ksim_machine_reclaim(void)
{
	char buf[8192];
	int fd, n = 0;
	long len;

	fd = (int)syscall(SYS_openat, AT_FDCWD, shm_dir(),
			  O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	while ((len = syscall(SYS_getdents64, fd, buf, sizeof(buf))) > 0) {
		for (long off = 0; off < len;) {
			struct linux_dirent64_hdr *d = (void *)(buf + off);

			off += d->d_reclen;
			if (!strncmp(d->d_name, SHM_PREFIX, strlen(SHM_PREFIX)))
				n += reclaim_one(d->d_name + strlen(SHM_PREFIX));
		}
	}
	ksim_sys_close(fd);
	return n;
}

/* 64 bits from the kernel's random pool; a weaker mix if it has none. */
static uint64_t
random_u64(void)
{
	static uint64_t weak;
	struct timespec ts;
	uint64_t v;

	if (syscall(SYS_getrandom, &v, sizeof(v), 0) == (long)sizeof(v))
		return v;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	weak = weak * 6364136223846793005ull + (uint64_t)ts.tv_nsec +
	       ((uint64_t)syscall(SYS_getpid) << 32) + 1442695040888963407ull;
	return weak ^ (weak >> 29);
}

struct ksim_machine *
ksim_machine_begin(const char *id, int *err)
{
	struct ksim_machine *m = calloc(1, sizeof(*m));
	int fd = -EINVAL;

	if (err)
		*err = 0;
	if (!m) {
		if (err)
			*err = -ENOMEM;
		return NULL;
	}
	/* Dead runs' files first: nothing piles up in /dev/shm. */
	ksim_machine_reclaim();
	if (id) {
		if (!ksim_machine_name_check(id)) {
			snprintf(m->id, sizeof(m->id), "%s", id);
			fd = ksim_machine_attach(m->id, 0, m->path, sizeof(m->path));
		}
	} else {
		m->run = 1;
		/* run-<pid>-<64 random bits>: no other user can guess the name
		 * to take it first, and a name that is taken (by anyone) is
		 * never used: the next draw is. */
		for (int i = 0; i < 16; i++) {
			snprintf(m->id, sizeof(m->id), "run-%d-%016llx",
				 (int)syscall(SYS_getpid), (unsigned long long)random_u64());
			fd = ksim_machine_attach(m->id, 1, m->path, sizeof(m->path));
			if (fd != -EBUSY)
				break;
		}
		if (fd == -EBUSY)
			ksim_machine_log(m->path, "taken, as were 15 other random names: "
					 "giving up");
	}
	if (fd < 0) {
		free(m);
		if (err)
			*err = fd;
		return NULL;
	}
	m->fd = fd;
	return m;
}

const char *
ksim_machine_id(const struct ksim_machine *m)
{
	return m ? m->id : NULL;
}

const char *
ksim_machine_file(const struct ksim_machine *m)
{
	return m ? m->path : NULL;
}

void
ksim_machine_end(struct ksim_machine *m)
{
	struct reg_head h;
	char why[200];

	if (!m)
		return;
	if (m->run) {
		/* The run is over: the name goes, even if some process of it
		 * lives on (it keeps its mapping, as an orphan of the run). */
		if (same_file(m->fd, m->path))
			syscall(SYS_unlink, m->path);
	} else if (check_file(m->fd, &h, why, sizeof(why)) == CHK_OK) {
		/* A named machine: removed when no other process uses it. */
		flock_retry(m->fd, LOCK_UN);
		remove_unused(m->fd, m->path, &h, 1);
	}
	ksim_sys_close(m->fd);
	free(m);
}

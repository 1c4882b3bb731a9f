/* SPDX-License-Identifier: MIT */
/*
 * An idle engine costs no CPU (cp.c, engine_main). Once no queue of the
 * process has work left, the engine write-protects every mapping of the
 * process's doorbell pages with userfaultfd and blocks in poll() on the
 * userfaultfd and an eventfd, with no timeout. The program's next
 * doorbell store faults: the storing thread waits in the kernel, the
 * userfaultfd becomes readable, and the engine lifts the protection
 * (which lets the store complete) and polls the doorbells again. Queue
 * creation, updates and teardown write the eventfd.
 *
 * Only the mappings the program made (ksim_notify_mapped()) are
 * protected: the engine's own view of the page and the GPU's stores (a
 * pwrite to the memfd) never trap. A doorbell mapping that the kernel
 * refuses to protect, or a kernel without userfaultfd (older than 5.11
 * for UFFD_USER_MODE_ONLY, 5.19 for write-protect on shared memory), a
 * seccomp filter or valgrind, leaves the process polling with backoff as
 * before; KFDSIM_IDLE=poll asks for that.
 *
 * Fork: without UFFD_FEATURE_EVENT_FORK the kernel drops the child's
 * copies of the registered mappings from the userfaultfd, write-protect
 * bits included. The child must not use its copy of the fd: its ioctls
 * act on the address space that opened it, the parent's.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/userfaultfd.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "cp_priv.h"

/* Older headers than the kernels that have them (5.11, 5.19). */
#ifndef UFFD_USER_MODE_ONLY
#define UFFD_USER_MODE_ONLY			1
#endif
#ifndef UFFD_FEATURE_WP_HUGETLBFS_SHMEM
#define UFFD_FEATURE_WP_HUGETLBFS_SHMEM		(1 << 12)
#endif

/* Tries to lift the protection before giving the userfaultfd up. */
#define IDLE_DISARM_TRIES	3

static long
uffd_ioctl(int fd, unsigned long req, void *arg)
{
	/* Raw: the shim's ioctl() would look the fd up in its table. */
	return syscall(SYS_ioctl, fd, req, arg);
}

/*
 * Give blocking up for good, said once (cp->idle_lock held). Unregistering
 * lets any thread still waiting on a protected page go; the fds stay open
 * until cp_idle_fini(), since the engine may be polling them.
 */
static void
idle_fallback(struct ksim_cp *cp, const char *what, int err)
{
	struct uffdio_range r;

	if (cp->idle_mode == KSIM_IDLE_POLL)
		return;
	cp->idle_mode = KSIM_IDLE_POLL;
	if (cp->uffd >= 0)
		for (unsigned int i = 0; i < cp->n_dbr; i++) {
			r.start = cp->dbr[i].start;
			r.len = cp->dbr[i].len;
			(void)uffd_ioctl(cp->uffd, UFFDIO_UNREGISTER, &r);
		}
	cp->n_dbr = 0;
	cp_log(cp, "idle: the engine polls doorbells (%s%s%s)", what,
	       err ? ": " : "", err ? strerror(err) : "");
}

/* The userfaultfd and eventfd, at the first doorbell mapping. */
static int
idle_open(struct ksim_cp *cp)
{
	struct uffdio_api api = {
		.api = UFFD_API,
		.features = UFFD_FEATURE_WP_HUGETLBFS_SHMEM,
	};
	long fd;

	fd = syscall(SYS_userfaultfd, O_CLOEXEC | O_NONBLOCK | UFFD_USER_MODE_ONLY);
	if (fd < 0) {
		idle_fallback(cp, "userfaultfd", errno);
		return -1;
	}
	cp->uffd = ksim_internal_fd((int)fd);
	/* The kernel refuses a feature it lacks (EINVAL). */
	if (uffd_ioctl(cp->uffd, UFFDIO_API, &api)) {
		idle_fallback(cp, "userfaultfd write-protect of shared memory",
			      errno);
		return -1;
	}
	if (!(api.ioctls & (1ULL << _UFFDIO_REGISTER))) {
		idle_fallback(cp, "userfaultfd without UFFDIO_REGISTER", 0);
		return -1;
	}
	fd = syscall(SYS_eventfd2, 0, EFD_CLOEXEC | EFD_NONBLOCK);
	if (fd < 0) {
		idle_fallback(cp, "eventfd", errno);
		return -1;
	}
	cp->efd = ksim_internal_fd((int)fd);
	cp_log(cp, "idle: doorbell stores wake the engine (userfaultfd)");
	return 0;
}

/* Room for more ranges (cp->idle_lock held). Return: 0, or -1. */
static int
idle_grow(struct ksim_cp *cp)
{
	unsigned int cap = cp->cap_dbr ? cp->cap_dbr * 2 : 8;
	void *n = realloc(cp->dbr, cap * sizeof(*cp->dbr));

	if (!n)
		return -1;
	cp->dbr = n;
	cp->cap_dbr = cap;
	return 0;
}

/*
 * Under valgrind, whose preload names its tools: it runs one thread at a
 * time, so a store waiting in the kernel would stop the engine too.
 */
static int
under_valgrind(void)
{
	const char *pre = getenv("LD_PRELOAD");

	return pre && strstr(pre, "/vgpreload_");
}

void
cp_idle_init(struct ksim_cp *cp)
{
	const char *e = getenv("KFDSIM_IDLE");

	pthread_mutex_init(&cp->idle_lock, NULL);
	cp->uffd = cp->efd = -1;
	cp->idle_mode = KSIM_IDLE_UFFD;
	if (e && !strcmp(e, "poll")) {
		cp->idle_mode = KSIM_IDLE_POLL;
		cp_log(cp, "idle: the engine polls doorbells (KFDSIM_IDLE=poll)");
	} else if (under_valgrind()) {
		cp->idle_mode = KSIM_IDLE_POLL;
		cp_log(cp, "idle: the engine polls doorbells (valgrind)");
	}
}

void
cp_idle_note(struct ksim_cp *cp, uint64_t addr, uint64_t len)
{
	struct uffdio_register reg = {
		.range = { .start = addr, .len = len },
		.mode = UFFDIO_REGISTER_MODE_WP,
	};
	int wake = 0;

	pthread_mutex_lock(&cp->idle_lock);
	if (cp->idle_mode != KSIM_IDLE_UFFD)
		goto out;
	/* From here on the engine is told: it blocks no more on a
	 * fallback, and protects the new mapping otherwise. */
	wake = 1;
	if (cp->uffd < 0 && idle_open(cp))
		goto out;
	if (uffd_ioctl(cp->uffd, UFFDIO_REGISTER, &reg)) {
		idle_fallback(cp, "a doorbell mapping refused write-protect", errno);
		goto out;
	}
	if (!(reg.ioctls & (1ULL << _UFFDIO_WRITEPROTECT))) {
		idle_fallback(cp, "no UFFDIO_WRITEPROTECT on a doorbell mapping", 0);
		goto out;
	}
	if (cp->n_dbr == cp->cap_dbr && idle_grow(cp)) {
		idle_fallback(cp, "out of memory", ENOMEM);
		goto out;
	}
	cp->dbr[cp->n_dbr].start = addr;
	cp->dbr[cp->n_dbr].len = len;
	cp->n_dbr++;
out:
	pthread_mutex_unlock(&cp->idle_lock);
	if (wake) {
		pthread_mutex_lock(&cp->lock);
		cp_idle_kick(cp);
		pthread_mutex_unlock(&cp->lock);
	}
}

int
cp_idle_forget(struct ksim_cp *cp, uint64_t addr, uint64_t len)
{
	uint64_t end = addr + len;
	int hit = 0;

	pthread_mutex_lock(&cp->idle_lock);
	for (unsigned int i = 0; i < cp->n_dbr; i++) {
		uint64_t s = cp->dbr[i].start, e = s + cp->dbr[i].len;

		if (e <= addr || s >= end)
			continue;
		hit = 1;
		if (s < addr && e > end) {
			/* A hole in the middle: the part after it is a
			 * range of its own. */
			if (cp->n_dbr == cp->cap_dbr && idle_grow(cp)) {
				idle_fallback(cp, "out of memory", ENOMEM);
				break;
			}
			cp->dbr[cp->n_dbr].start = end;
			cp->dbr[cp->n_dbr].len = e - end;
			cp->n_dbr++;
			e = addr;
		} else if (s < addr) {
			e = addr;
		} else if (e > end) {
			s = end;
		} else {
			cp->dbr[i--] = cp->dbr[--cp->n_dbr];
			continue;
		}
		cp->dbr[i].start = s;
		cp->dbr[i].len = e - s;
	}
	pthread_mutex_unlock(&cp->idle_lock);
	return hit;
}

/*
 * Protect (@mode UFFDIO_WRITEPROTECT_MODE_WP) or release (0) every
 * doorbell mapping (cp->idle_lock held). A range the kernel no longer
 * knows (unmapped before we heard) is dropped. Return: ranges
 * protected, or -1 when one could not be.
 */
static int
idle_protect(struct ksim_cp *cp, uint64_t mode)
{
	struct uffdio_writeprotect wp;
	int n = 0, bad = 0, err = 0;

	for (unsigned int i = 0; i < cp->n_dbr; i++) {
		int tries = mode ? 1 : IDLE_DISARM_TRIES, done = 0;

		wp.range.start = cp->dbr[i].start;
		wp.range.len = cp->dbr[i].len;
		wp.mode = mode;
		while (!done && tries--) {
			if (!uffd_ioctl(cp->uffd, UFFDIO_WRITEPROTECT, &wp))
				done = 1;
			else if (errno == ENOENT || errno == EINVAL)
				done = -1;
			else
				err = errno;
		}
		if (done < 0)
			cp->dbr[i--] = cp->dbr[--cp->n_dbr];
		else if (!done)
			bad = 1;
		else
			n++;
	}
	/* A writer might wait for good: unregistering lets them all go. */
	if (bad && !mode)
		idle_fallback(cp, "UFFDIO_WRITEPROTECT failed to release", err);
	return bad ? -1 : n;
}

/* Empty both fds (nonblocking): stale faults and kicks are news no more. */
static void
idle_drain(struct ksim_cp *cp)
{
	struct uffd_msg msg[8];
	uint64_t v;

	if (cp->uffd >= 0)
		while (syscall(SYS_read, cp->uffd, msg, sizeof(msg)) > 0)
			;
	if (cp->efd >= 0)
		(void)syscall(SYS_read, cp->efd, &v, sizeof(v));
}

int
cp_idle_block(struct ksim_cp *cp)
{
	struct pollfd pf[2];
	int n;

	pthread_mutex_lock(&cp->idle_lock);
	n = cp->idle_mode == KSIM_IDLE_UFFD && cp->n_dbr;
	pthread_mutex_unlock(&cp->idle_lock);
	if (!n || cp_has_news(cp))
		return 0;
	/* From here on a kick writes the eventfd: one before is seen by
	 * the look at the queues below. */
	pthread_mutex_lock(&cp->lock);
	cp->armed = 1;
	pthread_mutex_unlock(&cp->lock);
	pthread_mutex_lock(&cp->idle_lock);
	n = cp->idle_mode == KSIM_IDLE_UFFD ?
	    idle_protect(cp, UFFDIO_WRITEPROTECT_MODE_WP) : 0;
	pf[0].fd = cp->uffd;
	pf[1].fd = cp->efd;
	pthread_mutex_unlock(&cp->idle_lock);
	/* A store that landed before the protection did is seen here. */
	if (n > 0 && !cp_has_news(cp) &&
	    !__atomic_load_n(&cp->stop, __ATOMIC_ACQUIRE)) {
		pf[0].events = pf[1].events = POLLIN;
		cp->idle_blocks++;
		(void)syscall(SYS_ppoll, pf, 2UL, NULL, NULL, 0UL);
	}
	pthread_mutex_lock(&cp->lock);
	cp->armed = 0;
	pthread_mutex_unlock(&cp->lock);
	pthread_mutex_lock(&cp->idle_lock);
	if (cp->uffd >= 0 && n != 0)
		(void)idle_protect(cp, 0);
	idle_drain(cp);
	pthread_mutex_unlock(&cp->idle_lock);
	return n > 0;
}

void
cp_idle_kick(struct ksim_cp *cp)
{
	uint64_t one = 1;

	if (cp->armed && cp->efd >= 0)
		(void)syscall(SYS_write, cp->efd, &one, sizeof(one));
}

int
cp_idle_mode(struct ksim_cp *cp)
{
	int m;

	pthread_mutex_lock(&cp->idle_lock);
	m = cp->idle_mode == KSIM_IDLE_UFFD && cp->n_dbr ? KSIM_IDLE_UFFD :
	    KSIM_IDLE_POLL;
	pthread_mutex_unlock(&cp->idle_lock);
	return m;
}

void
cp_idle_fini(struct ksim_cp *cp)
{
	struct uffdio_range r;

	/* The owner's engine has stopped: nothing is protected. A fork
	 * child only drops its copies of the fds. */
	if (cp->uffd >= 0 && cp->pid == ksim_self_pid())
		for (unsigned int i = 0; i < cp->n_dbr; i++) {
			r.start = cp->dbr[i].start;
			r.len = cp->dbr[i].len;
			(void)uffd_ioctl(cp->uffd, UFFDIO_UNREGISTER, &r);
		}
	if (cp->uffd >= 0)
		ksim_sys_close(cp->uffd);
	if (cp->efd >= 0)
		ksim_sys_close(cp->efd);
	cp->uffd = cp->efd = -1;
	cp->n_dbr = 0;
	free(cp->dbr);
	cp->dbr = NULL;
	cp->cap_dbr = 0;
	if (cp->pid == ksim_self_pid())
		pthread_mutex_destroy(&cp->idle_lock);
}

void
ksim_cp_doorbell_mapped(struct ksim_process *p, uint64_t addr, uint64_t len)
{
	struct ksim_cp *cp;

	/* Only the owner's own address space can be registered. */
	if (p->pid != ksim_self_pid())
		return;
	cp = cp_get(p);
	if (cp && cp->pid == p->pid)
		cp_idle_note(cp, addr, len);
}

int
ksim_cp_doorbell_unmapped(struct ksim_process *p, uint64_t addr, uint64_t len)
{
	struct ksim_cp *cp = p->cp;

	if (!cp || cp->pid != ksim_self_pid())
		return 0;
	return cp_idle_forget(cp, addr, len);
}

void
ksim_cp_doorbell_moved(struct ksim_process *p, uint64_t old, uint64_t old_len,
		       uint64_t new_addr, uint64_t new_len)
{
	struct ksim_cp *cp = p->cp;
	int hit = 0;

	if (!cp || cp->pid != ksim_self_pid())
		return;
	if (old_len) {
		hit = cp_idle_forget(cp, old, old_len);
	} else {
		/* A second mapping of the same pages; the first stays. */
		pthread_mutex_lock(&cp->idle_lock);
		for (unsigned int i = 0; i < cp->n_dbr && !hit; i++)
			hit = old - cp->dbr[i].start < cp->dbr[i].len;
		pthread_mutex_unlock(&cp->idle_lock);
	}
	/* The kernel leaves the new place unregistered (no
	 * UFFD_FEATURE_EVENT_REMAP). */
	if (hit && new_len)
		cp_idle_note(cp, new_addr, new_len);
}

int
ksim_cp_idle_mode(struct ksim_process *p)
{
	struct ksim_cp *cp = p->cp;

	if (!cp || cp->pid != ksim_self_pid())
		return KSIM_IDLE_POLL;
	return cp_idle_mode(cp);
}

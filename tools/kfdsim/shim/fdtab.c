/* SPDX-License-Identifier: MIT */
/*
 * The fds that are ours. Every one is a real fd (a memfd), so that the
 * kernel keeps doing close-on-exec, poll, lseek, fcntl flags and fd number
 * allocation for us; the table only says what the fd stands for.
 *
 * Entries point at an open file description shared between dup'ed fds, like
 * the kernel's struct file: the model file is closed when the last fd goes.
 *
 * Lookups from close() run for every fd a process closes, and from ioctl
 * for every ioctl, so the table is a two-level array whose slots are read
 * without the lock; the lock only serialises changes. A lookup takes its
 * reference with a compare-and-swap that never revives a count at zero,
 * then checks the slot still holds the description: descriptions are
 * never given back to malloc but kept for reuse (fd_free), so the
 * counter it touches is always an ofd's, whatever became of it.
 *
 * The table is kept true by the events that change what an fd number
 * means, not by asking the kernel at every use: close, dup/dup2/dup3,
 * fcntl(F_DUPFD*) and close_range/closefrom update it; a number the kernel
 * hands out again (open, socket, pipe, recvmsg's SCM_RIGHTS, ... that our
 * wrappers see) drops an entry left over from a close we did not see; fork
 * inherits it with the fds; exec starts a new, empty one. ksim_fd_get()
 * still compares the fd's identity (one fstat) for the calls that are
 * system calls anyway or rare (fstat, mmap, fdopendir, *at dirfds);
 * ksim_fd_get_trusted() (ioctl) does not. See docs/kfdsim.md, "File
 * descriptors".
 */
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "shim.h"

#define FD_CHUNK_SHIFT	10
#define FD_CHUNK	(1 << FD_CHUNK_SHIFT)
#define FD_CHUNKS	1024	/* fds below 1 Mi */

struct fd_chunk {
	struct ksim_ofd *_Atomic slot[FD_CHUNK];
};

static struct fd_chunk *_Atomic fd_chunks[FD_CHUNKS];
static pthread_mutex_t fd_lock = PTHREAD_MUTEX_INITIALIZER;
static struct ksim_ofd *fd_free;	/* released descriptions, under fd_lock */
static pthread_once_t fd_atfork_once = PTHREAD_ONCE_INIT;

/*
 * KFDSIM_FD_CHECK=call: compare every fd's identity at every use (one
 * fstat an ioctl). For a program that closes fds
 * behind libc's back, and for measuring what the check costs.
 */
static bool fd_check_every_call;

/*
 * A fork in another thread must not leave the child with the lock held.
 * The child's one thread is the one that took it in fd_prepare(), so it
 * unlocks it (initialising a locked mutex again is undefined, and a
 * threaded child, such as a replay with --threads, then deadlocked or
 * raced under ThreadSanitizer).
 */
static void fd_prepare(void) { pthread_mutex_lock(&fd_lock); }
static void fd_parent(void) { pthread_mutex_unlock(&fd_lock); }
static void fd_child(void) { pthread_mutex_unlock(&fd_lock); }

/* Runs before the first entry exists (register and adopt call it). */
static void
fd_install_atfork(void)
{
	const char *check = getenv("KFDSIM_FD_CHECK");

	if (check && strcmp(check, "call") == 0)
		fd_check_every_call = true;
	else if (check && *check && strcmp(check, "events") != 0)
		ksim_log("KFDSIM_FD_CHECK=%s: expected call or events; using events\n",
			 check);
	pthread_atfork(fd_prepare, fd_parent, fd_child);
}

static struct ksim_ofd *_Atomic *
fd_slot(int fd, bool create)
{
	struct fd_chunk *chunk;
	unsigned int hi;

	if (fd < 0 || fd >= FD_CHUNKS * FD_CHUNK)
		return NULL;
	hi = (unsigned int)fd >> FD_CHUNK_SHIFT;
	chunk = fd_chunks[hi];
	if (!chunk) {
		if (!create)
			return NULL;
		chunk = calloc(1, sizeof(*chunk));
		if (!chunk)
			return NULL;
		fd_chunks[hi] = chunk;	/* creation runs under fd_lock */
	}
	return &chunk->slot[fd & (FD_CHUNK - 1)];
}

bool
ksim_fd_maybe_ours(int fd)
{
	struct ksim_ofd *_Atomic *slot = fd_slot(fd, false);

	return slot && *slot;
}

/* A new open file description of @kind, for the file @st describes. */
static struct ksim_ofd *
ofd_new(enum ksim_fdkind kind, struct ksim_vnode *node, struct ksim_file *file,
	const struct stat *st)
{
	struct ksim_ofd *ofd;

	pthread_mutex_lock(&fd_lock);
	ofd = fd_free;
	if (ofd)
		fd_free = ofd->free_next;
	pthread_mutex_unlock(&fd_lock);
	if (!ofd)
		ofd = calloc(1, sizeof(*ofd));
	if (!ofd)
		return NULL;
	/* a lookup may still try it: the count goes up last */
	ofd->kind = kind;
	ofd->node = node;
	ofd->file = file;
	ofd->backing_dev = st->st_dev;
	ofd->backing_ino = st->st_ino;
	atomic_store_explicit(&ofd->refs, 1, memory_order_release);
	return ofd;
}

static void
ofd_release_locked(struct ksim_ofd *ofd, struct ksim_file **close_file)
{
	if (atomic_fetch_sub_explicit(&ofd->refs, 1, memory_order_acq_rel) > 1)
		return;
	if (ofd->kind == KSIM_FD_DEVICE)
		*close_file = ofd->file;
	ofd->free_next = fd_free;
	fd_free = ofd;
}

static void
ofd_finish(struct ksim_file *close_file)
{
	/* The model is called without our lock: it may open or close fds. */
	if (close_file)
		ksim_state_close_device(close_file);
}

int
ksim_fd_register(int fd, enum ksim_fdkind kind, struct ksim_vnode *node,
		 struct ksim_file *file)
{
	struct ksim_ofd *_Atomic *slot;
	struct ksim_file *old_file = NULL;
	struct ksim_ofd *ofd, *old;
	struct stat st;

	pthread_once(&fd_atfork_once, fd_install_atfork);
	if (ksim_real.fstat(fd, &st) < 0)
		return -errno;
	ofd = ofd_new(kind, node, file, &st);
	if (!ofd)
		return -ENOMEM;

	pthread_mutex_lock(&fd_lock);
	slot = fd_slot(fd, true);
	if (!slot) {
		pthread_mutex_unlock(&fd_lock);
		free(ofd);
		return -EMFILE;
	}
	old = *slot;
	*slot = ofd;
	if (old)
		ofd_release_locked(old, &old_file);
	pthread_mutex_unlock(&fd_lock);
	ofd_finish(old_file);
	return 0;
}

static bool
ofd_matches(const struct ksim_ofd *ofd, int fd)
{
	struct stat st;

	if (ksim_real.fstat(fd, &st) < 0)
		return false;
	return st.st_dev == ofd->backing_dev && st.st_ino == ofd->backing_ino;
}

/* The referenced entry of fd, without asking the kernel; NULL if none. */
static struct ksim_ofd *
fd_get_entry(int fd)
{
	struct ksim_ofd *_Atomic *slot = fd_slot(fd, false);
	struct ksim_ofd *ofd;
	int refs;

	if (!slot)
		return NULL;
	for (;;) {
		ofd = atomic_load_explicit(slot, memory_order_acquire);
		if (!ofd)
			return NULL;
		refs = atomic_load_explicit(&ofd->refs, memory_order_relaxed);
		do {
			if (refs <= 0)
				break;	/* being released: look again */
		} while (!atomic_compare_exchange_weak_explicit(&ofd->refs, &refs, refs + 1,
							       memory_order_acquire,
							       memory_order_relaxed));
		if (refs <= 0) {
			if (atomic_load_explicit(slot, memory_order_acquire) == ofd)
				return NULL;	/* released while still in its slot */
			continue;
		}
		if (atomic_load_explicit(slot, memory_order_acquire) == ofd)
			return ofd;
		/* reused for another fd meanwhile */
		ksim_ofd_put(ofd);
	}
}

/* fd no longer refers to @ofd (referenced by the caller): drop both. */
static void
fd_drop_stale(int fd, struct ksim_ofd *ofd)
{
	struct ksim_ofd *_Atomic *slot;
	struct ksim_file *close_file = NULL;

	ksim_dbg("fd %d no longer ours, dropping it\n", fd);
	pthread_mutex_lock(&fd_lock);
	slot = fd_slot(fd, false);
	if (slot && *slot == ofd) {
		/* the slot's reference; ours keeps it alive */
		*slot = NULL;
		atomic_fetch_sub(&ofd->refs, 1);
	}
	ofd_release_locked(ofd, &close_file);
	pthread_mutex_unlock(&fd_lock);
	ofd_finish(close_file);
}

struct ksim_ofd *
ksim_fd_get(int fd)
{
	struct ksim_ofd *ofd = fd_get_entry(fd);

	/*
	 * The fd may have been closed without us seeing it (a raw syscall,
	 * libc's internal close) and its number reused for an unrelated file.
	 */
	if (ofd && !ofd_matches(ofd, fd)) {
		fd_drop_stale(fd, ofd);
		return NULL;
	}
	return ofd;
}

struct ksim_ofd *
ksim_fd_get_trusted(int fd)
{
	if (fd_check_every_call)
		return ksim_fd_get(fd);
	return fd_get_entry(fd);
}

void
ksim_fd_fresh(int fd)
{
	struct ksim_ofd *ofd;

	/*
	 * The kernel just gave out this number, so whatever fd had it before
	 * was closed where we did not see it: the entry is stale.
	 */
	if (!ksim_fd_maybe_ours(fd))
		return;
	ofd = fd_get_entry(fd);
	if (ofd)
		fd_drop_stale(fd, ofd);
}

void
ksim_fd_forget_range(unsigned int first, unsigned int last)
{
	unsigned int end = FD_CHUNKS * FD_CHUNK - 1;

	if (first > end)
		return;
	if (last > end)
		last = end;
	for (unsigned int fd = first;; fd++) {
		/* skip chunks never created (one test for 1024 numbers) */
		if (!(fd & (FD_CHUNK - 1)) && !fd_chunks[fd >> FD_CHUNK_SHIFT]) {
			if (last - fd < FD_CHUNK)
				break;
			fd += FD_CHUNK - 1;
			continue;
		}
		ksim_fd_forget((int)fd);
		if (fd == last)
			break;
	}
}

void
ksim_ofd_put(struct ksim_ofd *ofd)
{
	struct ksim_file *close_file = NULL;
	int refs;

	if (!ofd)
		return;
	/* not the last reference: no lock */
	refs = atomic_load_explicit(&ofd->refs, memory_order_relaxed);
	while (refs > 1)
		if (atomic_compare_exchange_weak_explicit(&ofd->refs, &refs, refs - 1,
							  memory_order_release,
							  memory_order_relaxed))
			return;
	pthread_mutex_lock(&fd_lock);
	ofd_release_locked(ofd, &close_file);
	pthread_mutex_unlock(&fd_lock);
	ofd_finish(close_file);
}

/* The open description of a model file, if some fd of ours refers to it. */
static struct ksim_ofd *
fd_find_file_locked(const struct ksim_file *file)
{
	for (unsigned int hi = 0; hi < FD_CHUNKS; hi++) {
		struct fd_chunk *chunk = fd_chunks[hi];

		if (!chunk)
			continue;
		for (unsigned int i = 0; i < FD_CHUNK; i++) {
			struct ksim_ofd *ofd = chunk->slot[i];

			if (ofd && ofd->kind == KSIM_FD_DEVICE && ofd->file == file)
				return ofd;
		}
	}
	return NULL;
}

struct ksim_ofd *
ksim_fd_adopt(int fd, struct ksim_vnode *node, struct ksim_file *file)
{
	struct ksim_ofd *_Atomic *slot;
	struct ksim_file *close_file = NULL;
	struct ksim_ofd *ofd, *old;
	struct stat st;

	pthread_once(&fd_atfork_once, fd_install_atfork);
	if (ksim_real.fstat(fd, &st) < 0)
		return NULL;
	pthread_mutex_lock(&fd_lock);
	ofd = fd_find_file_locked(file);
	if (ofd) {
		atomic_fetch_add(&ofd->refs, 1);
	} else {
		ofd = ofd_new(KSIM_FD_DEVICE, node, file, &st);
		if (!ofd) {
			pthread_mutex_unlock(&fd_lock);
			return NULL;
		}
	}
	slot = fd_slot(fd, true);
	if (!slot) {
		ofd_release_locked(ofd, &close_file);
		pthread_mutex_unlock(&fd_lock);
		ofd_finish(close_file);
		return NULL;
	}
	old = *slot;
	*slot = ofd;
	atomic_fetch_add(&ofd->refs, 1);	/* the caller's reference */
	if (old)
		ofd_release_locked(old, &close_file);
	pthread_mutex_unlock(&fd_lock);
	ofd_finish(close_file);
	return ofd;
}

void
ksim_fd_dup(int oldfd, int newfd)
{
	struct ksim_ofd *_Atomic *oslot;
	struct ksim_ofd *_Atomic *nslot;
	struct ksim_file *close_file = NULL;
	struct ksim_ofd *ofd, *old;

	if (oldfd == newfd)
		return;
	pthread_mutex_lock(&fd_lock);
	oslot = fd_slot(oldfd, false);
	ofd = oslot ? *oslot : NULL;
	nslot = fd_slot(newfd, ofd != NULL);
	if (nslot) {
		old = *nslot;
		if (ofd)
			atomic_fetch_add(&ofd->refs, 1);
		*nslot = ofd;
		if (old)
			ofd_release_locked(old, &close_file);
	}
	pthread_mutex_unlock(&fd_lock);
	ofd_finish(close_file);
}

void
ksim_fd_forget(int fd)
{
	struct ksim_ofd *_Atomic *slot;
	struct ksim_file *close_file = NULL;
	struct ksim_ofd *ofd;

	if (!ksim_fd_maybe_ours(fd))
		return;
	pthread_mutex_lock(&fd_lock);
	slot = fd_slot(fd, false);
	ofd = slot ? *slot : NULL;
	if (ofd) {
		*slot = NULL;
		ofd_release_locked(ofd, &close_file);
	}
	pthread_mutex_unlock(&fd_lock);
	ofd_finish(close_file);
}

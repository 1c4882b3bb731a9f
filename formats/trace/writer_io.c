/* SPDX-License-Identifier: MIT */
/*
 * Pieces of the writer that both the writer thread and the emergency flush
 * use, and that are therefore async-signal-safe: write loops, the reaction
 * to a failed write, the buffer queue, sorting buffers, futex waits.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/futex.h>
#include <linux/membarrier.h>
#include <sched.h>
#include <signal.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "record_put.h"
#include "writer_internal.h"

int
kt_write_all(int fd, const void *buf, size_t len, size_t *done)
{
	const uint8_t *p = buf;
	size_t off = 0;

	while (off < len) {
		ssize_t n = write(fd, p + off, len - off);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			*done = off;
			return n < 0 ? -errno : -EIO;
		}
		off += (size_t)n;
	}
	*done = off;
	return 0;
}

/* Set on a writer thread that gave up its share of the program's fd table. */
static __thread const struct kt_writer *kt_private_table_of;

void
kt_writer_mark_private_table(const struct kt_writer *w)
{
	kt_private_table_of = w;
}

bool
kt_writer_on_private_table(const struct kt_writer *w)
{
	return kt_private_table_of == w;
}

static bool
kt_fd_is(int fd, dev_t dev, ino_t ino)
{
	struct stat st;

	return fd >= 0 && fstat(fd, &st) == 0 && st.st_dev == dev &&
	       st.st_ino == ino;
}

static void
kt_fd_note(const char *what)
{
	static const char head[] = "kfdtrace: the traced program closed or "
				   "replaced the trace's file descriptor; ";
	ssize_t r;

	r = write(2, head, sizeof(head) - 1);
	r = write(2, what, strlen(what));
	(void)r;
}

int
kt_writer_fd_check(struct kt_writer *w)
{
	int fd, high;

	if (atomic_load(&w->fd_lost))
		return -EBADF;
	if (!w->ident_known || kt_writer_on_private_table(w) ||
	    kt_fd_is(w->fd, w->ident_dev, w->ident_ino))
		return 0;
	/*
	 * The number is the program's now: never write, close or seek it.
	 * The same file under its path can be written at a new number, at
	 * the offset the writer has reached.
	 */
	fd = w->path && w->seekable ?
	     open(w->path, O_WRONLY | O_CLOEXEC | O_NOFOLLOW) : -1;
	if (fd >= 0 && kt_fd_is(fd, w->ident_dev, w->ident_ino)) {
		high = fcntl(fd, F_DUPFD_CLOEXEC, w->fd > 0 ? w->fd : 3);
		if (high >= 0) {
			close(fd);
			fd = high;
		}
		if (lseek(fd, w->base_off + (off_t)atomic_load(&w->file_off),
			  SEEK_SET) >= 0) {
			w->fd = fd;
			kt_fd_note("reopened it by its path\n");
			return 0;
		}
	}
	if (fd >= 0)
		close(fd);
	w->fd = -1;
	atomic_store(&w->fd_lost, true);
	kt_writer_io_error(w, -EBADF, 0);
	kt_fd_note("its file cannot be found again: the rest of the trace "
		   "is lost\n");
	return -EBADF;
}

/*
 * A write failed after @partial bytes of a frame. Keep the first error, stop
 * writing frames, and cut the partial frame off so that what is in the file
 * stays a valid trace; on a pipe that is impossible, and nothing more may be
 * written at all.
 */
void
kt_writer_io_error(struct kt_writer *w, int err, size_t partial)
{
	int expected = 0;

	atomic_compare_exchange_strong(&w->io_err, &expected, err);
	atomic_store(&w->broken, true);
	if (!partial)
		return;
	if (w->seekable) {
		off_t good = w->base_off + (off_t)atomic_load(&w->file_off);

		if (ftruncate(w->fd, good) == 0 &&
		    lseek(w->fd, good, SEEK_SET) == good)
			return;
	}
	atomic_store(&w->damaged, true);
}

static struct kt_wbuf *
kt_wbuf_merge(struct kt_wbuf *a, struct kt_wbuf *b)
{
	struct kt_wbuf head = { .next = NULL }, *t = &head;

	while (a && b) {
		if (a->ticket <= b->ticket) {
			t->next = a;
			a = a->next;
		} else {
			t->next = b;
			b = b->next;
		}
		t = t->next;
	}
	t->next = a ? a : b;
	return head.next;
}

/*
 * Order buffers by ticket, i.e. by when each became its thread's buffer, so
 * every thread's records keep their order in the file (section 4.1). A
 * merge sort: no allocation, recursion depth log2(n).
 */
struct kt_wbuf *
kt_wbuf_sort(struct kt_wbuf *list)
{
	struct kt_wbuf *slow, *fast, *half;

	if (!list || !list->next)
		return list;
	slow = list;
	fast = list->next;
	while (fast && fast->next) {
		slow = slow->next;
		fast = fast->next->next;
	}
	half = slow->next;
	slow->next = NULL;
	return kt_wbuf_merge(kt_wbuf_sort(list), kt_wbuf_sort(half));
}

struct kt_wbuf *
kt_queue_take(struct kt_writer *w, unsigned int *count)
{
	struct kt_wbuf *list = atomic_exchange(&w->queue, NULL);
	unsigned int n = 0;

	for (struct kt_wbuf *b = list; b; b = b->next)
		n++;
	*count = n;
	return list;
}

void
kt_futex_wake(_Atomic uint32_t *word)
{
	atomic_fetch_add(word, 1);
	syscall(SYS_futex, word, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0);
}

void
kt_futex_wait(_Atomic uint32_t *word, uint32_t seen, uint64_t ns)
{
	struct timespec ts = {
		.tv_sec = (time_t)(ns / 1000000000u),
		.tv_nsec = (long)(ns % 1000000000u),
	};

	syscall(SYS_futex, word, FUTEX_WAIT_PRIVATE, seen, &ts, NULL, 0);
}

bool kt_writer_fence_needed = true;
static pid_t kt_barrier_pid;
static pthread_mutex_t kt_barrier_lock = PTHREAD_MUTEX_INITIALIZER;

/*
 * Called at writer creation, before any owner checks the flag. The
 * registration belongs to the process (its mm): a forked child must
 * register again, hence the pid rather than a pthread_once.
 */
void
kt_writer_barrier_init(void)
{
	long mask;

	pthread_mutex_lock(&kt_barrier_lock);
	if (kt_barrier_pid != getpid()) {
		kt_barrier_pid = getpid();
		kt_writer_fence_needed = true;
		mask = syscall(SYS_membarrier, MEMBARRIER_CMD_QUERY, 0, 0);
		if (mask > 0 && (mask & MEMBARRIER_CMD_PRIVATE_EXPEDITED) &&
		    syscall(SYS_membarrier,
			    MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED, 0, 0) == 0)
			kt_writer_fence_needed = false;
	}
	pthread_mutex_unlock(&kt_barrier_lock);
}

/* The stealer's (and seq revoker's) half of the handshake. */
void
kt_heavy_barrier(void)
{
	atomic_thread_fence(memory_order_seq_cst);
	if (!kt_writer_fence_needed &&
	    syscall(SYS_membarrier, MEMBARRIER_CMD_PRIVATE_EXPEDITED, 0, 0))
		kt_writer_fence_needed = true;	/* cannot happen once registered */
}

static bool
kt_steal_wanted(const struct kt_wbuf *b, uint64_t min_age, uint64_t now)
{
	if (!b || __atomic_load_n(&b->len, __ATOMIC_ACQUIRE) <=
		  __atomic_load_n(&b->skip, __ATOMIC_RELAXED))
		return false;
	return !min_age ||
	       now - __atomic_load_n(&b->t_first, __ATOMIC_RELAXED) >= min_age;
}

/*
 * kt_steal() - take the buffers of threads that are not appending: those
 * whose oldest record is at least @min_age old (0: any with records).
 * With @force, wait (yielding) for threads in the middle of an append, as
 * a flush must; else skip them. @except is left alone. The caller owns
 * io_state, which keeps stealers apart.
 */
struct kt_wbuf *
kt_steal(struct kt_writer *w, bool force, uint64_t min_age, uint64_t now,
	 const struct kt_wthread *except)
{
	struct kt_wthread *head = atomic_load_explicit(&w->threads,
						       memory_order_acquire);
	struct kt_wbuf *list = NULL;
	bool any = false;

	for (struct kt_wthread *t = head; t; t = t->next) {
		if (t == except ||
		    !kt_steal_wanted(atomic_load_explicit(&t->cur,
							  memory_order_acquire),
				     min_age, now))
			continue;
		atomic_store_explicit(&t->steal, 1, memory_order_relaxed);
		any = true;
	}
	if (!any)
		return NULL;
	kt_heavy_barrier();
	for (struct kt_wthread *t = head; t; t = t->next) {
		if (!atomic_load_explicit(&t->steal, memory_order_relaxed))
			continue;
		for (unsigned int tries = 0; tries < 100000; tries++) {
			struct kt_wbuf *b;

			if (atomic_load_explicit(&t->in_append,
						 memory_order_acquire)) {
				if (!force)
					break;
				sched_yield();
				continue;
			}
			b = atomic_load_explicit(&t->cur, memory_order_relaxed);
			if (b && __atomic_load_n(&b->len, __ATOMIC_ACQUIRE) >
				 __atomic_load_n(&b->skip, __ATOMIC_RELAXED)) {
				atomic_store_explicit(&t->cur, NULL,
						      memory_order_relaxed);
				b->next = list;
				list = b;
			}
			break;
		}
		atomic_store_explicit(&t->steal, 0, memory_order_release);
	}
	return list;
}

static const int kt_guarded[] = { SIGPIPE, SIGXFSZ };

void
kt_sig_guard_enter(struct kt_sig_guard *g)
{
	sigset_t set;

	sigemptyset(&set);
	for (size_t i = 0; i < sizeof(kt_guarded) / sizeof(kt_guarded[0]); i++)
		sigaddset(&set, kt_guarded[i]);
	pthread_sigmask(SIG_BLOCK, &set, &g->old);
	sigpending(&g->pending);
}

void
kt_sig_guard_leave(struct kt_sig_guard *g)
{
	static const struct timespec zero;
	sigset_t now, one;

	sigpending(&now);
	for (size_t i = 0; i < sizeof(kt_guarded) / sizeof(kt_guarded[0]); i++) {
		int sig = kt_guarded[i];

		if (!sigismember(&now, sig) || sigismember(&g->pending, sig))
			continue;
		sigemptyset(&one);
		sigaddset(&one, sig);
		sigtimedwait(&one, NULL, &zero);
	}
	pthread_sigmask(SIG_SETMASK, &g->old, NULL);
}

/* The size of the raw entry whose header is @h. */
static inline size_t
kt_raw_size(const struct kt_raw_ioctl *h)
{
	size_t n = sizeof(*h);

	if (h->af & KT_AF_BEFORE)
		n += h->arg_size;
	if (h->af & KT_AF_AFTER)
		n += h->arg_size;
	return n;
}

/*
 * One entry at @p: its size, with *@d advanced past it; 0 when it does
 * not parse (a bug: these are bytes this process wrote).
 */
static size_t
kt_entry_skim(const uint8_t *p, const uint8_t *end, struct kt_delta *d)
{
	struct kt_raw_ioctl h;
	size_t n;

	if (*p != KT_ENTRY_RAW_IOCTL)
		return kt_rec_skim(p, end, d, NULL);
	if ((size_t)(end - p) < sizeof(h))
		return 0;
	memcpy(&h, p, sizeof(h));
	n = kt_raw_size(&h);
	if (n > (size_t)(end - p))
		return 0;
	kt_delta_set(d, h.seq, h.ts, h.tid);
	return n;
}

uint32_t
kt_wbuf_walk(const struct kt_wbuf *b, size_t from, size_t len,
	     struct kt_delta *d, uint32_t *total)
{
	const uint8_t *end = b->data + len;
	uint32_t count = 0, all;
	struct kt_delta rest;
	size_t off = 0, n;

	d->valid = false;
	if (total)
		*total = 0;
	while (off < from) {
		n = kt_entry_skim(b->data + off, end, d);
		if (!n) {
			d->valid = false;
			return 0;
		}
		off += n;
		count++;
	}
	if (!total)
		return count;
	/* Count on to @len with a copy of the base, which *@d must keep. */
	rest = *d;
	for (all = count; off < len; all++) {
		n = kt_entry_skim(b->data + off, end, &rest);
		if (!n)
			return count;
		off += n;
	}
	*total = all;
	return count;
}

/* Encode the raw entry at @p as an ioctl record at @out. Return: its size. */
static size_t
kt_raw_render(const uint8_t *p, uint8_t *out, struct kt_delta *od)
{
	struct kt_raw_ioctl h;
	struct kt_record rec;
	struct kt_ioctl_rec *io = &rec.u.ioctl;
	const uint8_t *img;

	memcpy(&h, p, sizeof(h));
	img = p + sizeof(h);
	rec.type = KT_REC_IOCTL;
	rec.seq = h.seq;
	rec.ts = h.ts;
	rec.tid = h.tid;
	io->fd = h.fd;
	io->file_kind = h.file_kind;
	io->request = h.request;
	io->ret = h.ret;
	io->err = h.err;
	io->t_exit = h.t_exit;
	io->arg_size = h.arg_size;
	io->arg_before = h.af & KT_AF_BEFORE ? img : NULL;
	if (h.af & KT_AF_BEFORE)
		img += h.arg_size;
	io->arg_after = h.af & KT_AF_AFTER ? img : NULL;
	io->nbufs = 0;
	io->bufs = NULL;
	return kt_rec_encode_ioctl(out, &rec, od, KT_COMMON_BOUND +
				   KT_IOCTL_FIXED_BOUND + 2 * (size_t)h.arg_size);
}

size_t
kt_wbuf_render(const struct kt_wbuf *b, size_t from, size_t len,
	       const struct kt_delta *d, uint8_t *out)
{
	const uint8_t *p = b->data + from, *end = b->data + len;
	struct kt_delta in = *d;		/* what the entries are relative to */
	struct kt_delta od = { .valid = false };	/* what the output is */
	uint8_t *o = out;
	size_t n;

	while (p < end) {
		if (*p == KT_ENTRY_RAW_IOCTL) {
			n = kt_entry_skim(p, end, &in);
			if (!n)
				break;
			o += kt_raw_render(p, o, &od);
		} else {
			struct kt_delta base = in;
			size_t hl = 0, consumed = 0;

			n = kt_rec_skim(p, end, &in, NULL);
			if (!n)
				break;
			/*
			 * Past the first entry the output's base is the
			 * entries' own; the first one needs a base header
			 * (none if it has one already).
			 */
			if (!od.valid)
				hl = kt_rec_rebase(p, end, &base, o, &consumed);
			memcpy(o + hl, p + consumed, n - consumed);
			o += hl + n - consumed;
			od = in;
		}
		p += n;
	}
	return (size_t)(o - out);
}

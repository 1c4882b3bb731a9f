/* SPDX-License-Identifier: MIT */
/*
 * The writer's shared state: per-thread buffers, the hand-off queue to the
 * writer thread, and the file. See writer.c for the hot path and the
 * ownership rules, writer_open.c for open and close, writer_thread.c for
 * frames, writer_emergency.c for the signal-handler path.
 */
#ifndef KT_WRITER_INTERNAL_H
#define KT_WRITER_INTERNAL_H

#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <sys/types.h>

#include "kfdtrace/fork_quiet.h"
#include "trace_internal.h"

/*
 * A buffer of records. At any time it is owned by exactly one party: a
 * traced thread (as its current buffer), the hand-off queue, the writer
 * thread, an emergency flush, or the free list.
 *
 * It holds a sequence of entries: records in their file encoding, and the
 * common ioctl record (no indirect buffers, small argument) as a raw
 * snapshot (struct kt_raw_ioctl), which costs the traced thread a copy
 * instead of an encoding. Whoever writes the buffer out renders it with
 * kt_wbuf_render() first (writer_io.c); only buffers with raw entries
 * (nraw) need that.
 */
struct kt_wbuf {
	struct kt_wbuf *next;		/* queue, free list, batch links */
	uint64_t ticket;		/* when it became a thread's buffer */
	size_t cap;
	size_t len;			/* committed bytes (atomic accesses) */
	size_t skip;			/* bytes an emergency flush already wrote
					 * (atomic accesses) */
	uint64_t t_first;		/* monotonic ns of the first record */
	struct kt_delta delta;		/* encoder base after the last record */
	uint32_t nrec;
	uint32_t nraw;			/* raw entries among them */
	uint64_t min_seq, max_seq;
	uint64_t min_ts, max_ts;
	bool big;			/* one-off size: freed, not recycled */
	uint8_t data[];
};

/*
 * A raw ioctl entry: this header, then the argument's before-image if
 * KT_AF_BEFORE is set in af, then its after-image if KT_AF_AFTER is (each
 * arg_size bytes). Its first byte is never a record type. The header is 64
 * bytes, more than any ioctl record's encoding takes besides its images
 * (63 at most with an argument below 2^14), so a rendered buffer is never
 * longer than the buffer itself.
 */
#define KT_ENTRY_RAW_IOCTL	0xffu
/* Arguments up to this size are stored raw (the rest encoded at once). */
#define KT_RAW_ARG_MAX		1024u

/*
 * The least any raw entry's header takes encoded (every field in one byte,
 * the request in four): a frame's size is judged by it, so that frames
 * still hold at least frame_raw bytes of records.
 */
#define KT_RAW_HDR_MIN_OUT	17u

struct kt_raw_ioctl {
	uint8_t marker;			/* KT_ENTRY_RAW_IOCTL */
	uint8_t file_kind;
	uint8_t af;			/* KT_AF_BEFORE | KT_AF_AFTER */
	uint8_t pad0;
	uint32_t request;
	uint32_t tid;
	int32_t fd;
	int32_t ret;
	int32_t err;
	uint32_t arg_size;
	uint32_t pad1;
	uint64_t seq;
	uint64_t ts;
	uint64_t t_exit;
	uint64_t pad2;
};

_Static_assert(sizeof(struct kt_raw_ioctl) == 64, "raw entry header size");

/*
 * One traced thread. Linked once into the writer and never unlinked.
 *
 * Taking a thread's buffer without making the thread pay an atomic
 * read-modify-write per record is an asymmetric Dekker handshake: the owner
 * sets in_append, then (with only a compiler barrier) checks steal; a
 * stealer sets steal, runs membarrier(PRIVATE_EXPEDITED), which puts a full
 * barrier on every thread, then checks in_append. At least one side sees
 * the other, so a buffer is never taken in the middle of an append. Without
 * membarrier the owner uses a real fence instead.
 */
struct kt_wthread {
	struct kt_wthread *next;	/* immutable once published */
	_Atomic(struct kt_wbuf *) cur;	/* its buffer, or NULL */
	_Atomic int in_append;		/* written by the owner only */
	_Atomic int in_seq;		/* in a biased seq section (writer.c) */
	_Atomic int steal;		/* a stealer wants cur */
	bool busy;			/* in kt_writer_append() (this thread) */
	pthread_t self;
	_Atomic uint64_t appended;
};

/*
 * kt_wbuf_out_min() - a lower bound of what @b's first @len bytes take
 * rendered (raw entries encoded).
 */
static inline size_t
kt_wbuf_out_min(const struct kt_wbuf *b, size_t len)
{
	return len - (size_t)b->nraw * (sizeof(struct kt_raw_ioctl) -
					KT_RAW_HDR_MIN_OUT);
}

/* Whether owners need a real fence (no membarrier). Set once per process. */
extern bool kt_writer_fence_needed;

/*
 * kt_heavy_barrier() - the stealer's (or seq revoker's) half of the owner
 * handshake: a full barrier on every thread of the process (membarrier),
 * or on this one only when owners use a real fence themselves.
 */
void kt_heavy_barrier(void);

/* Who may write to the file (the emergency flush must not interleave). */
enum kt_io_state {
	KT_IO_IDLE = 0,
	KT_IO_BUSY = 1,		/* the writer thread is in a batch */
	KT_IO_EMERGENCY = 2,	/* an emergency flush is writing */
};

struct kt_writer {
	uint64_t gen;			/* tells writers apart in TLS */
	int fd;
	pid_t pid;
	int level;
	size_t frame_raw;
	size_t buf_cap;			/* standard buffer capacity */
	uint64_t flush_ns;
	unsigned int index_every;
	unsigned int max_queued;

	/*
	 * Every record of every thread takes a number here: padded to a
	 * cache line of its own (the writer is calloc()ed, so padding rather
	 * than alignment), so no other field's traffic makes that atomic add
	 * miss.
	 */
	char seq_pad0[64];
	_Atomic uint64_t seq;
	/*
	 * The thread the counter is biased to (it takes numbers without a
	 * locked instruction), or KT_SEQ_SHARED / KT_SEQ_REVOKING, or NULL
	 * before the first number (writer.c, kt_writer_next_seq()).
	 */
	_Atomic(struct kt_wthread *) seq_owner;
	char seq_pad1[64 - sizeof(uint64_t) - sizeof(void *)];
	_Atomic uint64_t ticket;
	_Atomic(struct kt_wthread *) threads;
	_Atomic(struct kt_wbuf *) queue;	/* Treiber stack of full buffers */
	_Atomic(struct kt_wbuf *) returned;	/* from emergency flushes */
	_Atomic unsigned int queued;
	_Atomic uint32_t wake;			/* futex word of the writer thread */
	_Atomic int io_state;			/* enum kt_io_state */
	_Atomic int writer_tid;

	pthread_mutex_t lock;		/* free list, thread list, waits */
	pthread_cond_t cond;		/* queue space, flush completion */
	struct kt_wbuf *free;
	unsigned int nfree;
	_Atomic unsigned int space_waiters;	/* appends waiting for the queue */
	uint64_t flush_req;
	uint64_t flush_done;
	bool stopping;
	bool thread_started;
	pthread_t thread;
	struct kt_quiet quiet;		/* the thread's: busy while it works */

	/* Writer thread (and close, once the thread is gone). */
	void *cctx;			/* ZSTD_CCtx */
	struct kt_wbuf **grp;		/* buffers of the frame being built */
	unsigned int grp_cap;
	uint8_t *stage;
	size_t stage_cap;
	uint8_t *zbuf;
	size_t zbuf_cap;
	struct kt_index_entry *pending;
	unsigned int npending;
	unsigned int pending_cap;
	uint64_t last_index;		/* offset of the last index frame */
	/* The emergency flush's rendering of a buffer (buf_cap + KT_REBASE_MAX
	 * bytes, allocated at open: a signal handler cannot allocate). */
	uint8_t *emerg_out;
	bool have_index;

	/* The file; changed only by whoever holds io_state. */
	_Atomic uint64_t file_off;	/* bytes since the trace's start */
	off_t base_off;			/* file position of the trace's start */
	bool seekable;
	/*
	 * What the fd must still name before a thread that shares the
	 * program's fd table writes (kt_writer_fd_check()): the program can
	 * close it or put its own file at that number behind every wrapper's
	 * back (closefrom(), raw close/dup2 system calls).
	 */
	bool ident_known;
	dev_t ident_dev;
	ino_t ident_ino;
	char *path;			/* to reopen it by, or NULL */
	_Atomic bool fd_lost;		/* gone, and not found again */
	uint64_t seq_high;		/* above every seq written */
	_Atomic bool broken;		/* a write failed: no more frames */
	_Atomic bool damaged;		/* a partial frame could not be cut */
	_Atomic bool ended;		/* kt_writer_emergency_end() wrote END */
	_Atomic int io_err;		/* first error */

	_Atomic uint64_t lost;
	const _Atomic uint64_t *lost_elsewhere;	/* opts: added at END */
	const _Atomic uint64_t *left_out;	/* opts: END's left_out */
	_Atomic uint64_t raw_bytes;
	_Atomic uint64_t frames;
	_Atomic uint64_t written;	/* records in the file */
};

/* writer.c */
uint64_t kt_mono_ns(void);
/* Empty @b for reuse, with the next ticket. */
void kt_wbuf_reset(struct kt_writer *w, struct kt_wbuf *b);
struct kt_wthread *kt_writer_tls_thread(const struct kt_writer *w);
/* kt_writer_next_seq() without allocating thread state (signal handlers). */
uint64_t kt_writer_next_seq_nolock(struct kt_writer *w);

/*
 * Writes from a traced thread (open, close, emergency flush) must not kill
 * the program with SIGPIPE or SIGXFSZ: those signals are blocked around
 * them, and one they raised is taken back.
 */
struct kt_sig_guard {
	sigset_t old;
	sigset_t pending;
};

void kt_sig_guard_enter(struct kt_sig_guard *g);
void kt_sig_guard_leave(struct kt_sig_guard *g);

/* writer_io.c: async-signal-safe pieces. */
/*
 * Walk @b's entries in [0, @from), of the @len bytes it holds. Return: how
 * many there are; *@d gets the delta base after them (invalid when none).
 * 0 entries and an invalid base also when the buffer is damaged (a bug).
 * @total:	unless NULL, gets the number of entries in [0, @len), the
 *		walk going on to @len (0 if the buffer is damaged)
 */
uint32_t kt_wbuf_walk(const struct kt_wbuf *b, size_t from, size_t len,
		      struct kt_delta *d, uint32_t *total);
/*
 * Render @b's entries in [@from, @len) to @out in their file encoding,
 * given the delta base @d at @from (from kt_wbuf_walk()): raw entries are
 * encoded, and the first record gets a base header, as a frame must start
 * with one. @out has room for @len - @from + KT_REBASE_MAX bytes.
 * Async-signal-safe (pure computation). Return: bytes written.
 */
size_t kt_wbuf_render(const struct kt_wbuf *b, size_t from, size_t len,
		      const struct kt_delta *d, uint8_t *out);
void kt_writer_barrier_init(void);
struct kt_wbuf *kt_steal(struct kt_writer *w, bool force, uint64_t min_age,
			 uint64_t now, const struct kt_wthread *except);
int kt_write_all(int fd, const void *buf, size_t len, size_t *done);
void kt_writer_io_error(struct kt_writer *w, int err, size_t partial);

/*
 * kt_writer_fd_check() - make sure w->fd still names the trace file before
 * writing to it from a thread that shares the program's fd table (the
 * writer thread keeps a private table and needs no check). If the program
 * closed the fd or put another file at its number, the file is reopened by
 * its path (same inode only) at a new fd; failing that, writing stops and
 * one line on stderr says so. The program's fd is never touched.
 * Async-signal-safe. Return: 0, or -EBADF when the trace cannot be written.
 */
int kt_writer_fd_check(struct kt_writer *w);

/* Whether the calling thread is @w's writer thread with its own fd table. */
bool kt_writer_on_private_table(const struct kt_writer *w);

/* Called by @w's writer thread once it has a private fd table. */
void kt_writer_mark_private_table(const struct kt_writer *w);
struct kt_wbuf *kt_wbuf_sort(struct kt_wbuf *list);
struct kt_wbuf *kt_queue_take(struct kt_writer *w, unsigned int *count);
void kt_futex_wake(_Atomic uint32_t *word);
void kt_futex_wait(_Atomic uint32_t *word, uint32_t seen, uint64_t ns);

/* writer_thread.c */
void *kt_writer_thread_main(void *arg);
bool kt_writer_batch(struct kt_writer *w, bool force, bool aged, uint64_t now);
void kt_writer_emit(struct kt_writer *w, struct kt_wbuf **bufs, unsigned int n,
		    bool is_end);
void kt_writer_write_index(struct kt_writer *w);
void kt_writer_recycle(struct kt_writer *w, struct kt_wbuf *list);
/*
 * Fill in the END record numbered @seq: what was written and lost so far,
 * and whether the trace is incomplete. Async-signal-safe.
 */
void kt_writer_fill_end(struct kt_writer *w, struct kt_record *end,
			uint64_t seq);

#endif /* KT_WRITER_INTERNAL_H */

/* SPDX-License-Identifier: MIT */
/*
 * The writer: the append hot path, record numbering and the hand-off of
 * full buffers to the writer thread (writer_open.c opens and closes).
 *
 * Each traced thread owns a struct kt_wthread, found through a TLS slot
 * without a lock, and appends into its current buffer. The writer thread
 * and the emergency flush take buffers from threads that are not inside an
 * append, by the handshake described at struct kt_wthread; on the hot path
 * that costs two plain stores and a load, no atomic read-modify-write.
 */
#include <errno.h>
#include <sched.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>
#if defined(__x86_64__)
#include <cpuid.h>
#endif

#include "record_put.h"
#include "writer_internal.h"

struct kt_tls_slot {
	uint64_t gen;
	struct kt_wthread *t;
};

/*
 * initial-exec: the capture library is loaded at start-up (LD_PRELOAD), so
 * its TLS is static and reached without __tls_get_addr.
 */
static __thread struct kt_tls_slot kt_tls
	__attribute__((tls_model("initial-exec")));

uint64_t
kt_mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

struct kt_wthread *
kt_writer_tls_thread(const struct kt_writer *w)
{
	return kt_tls.gen == w->gen ? kt_tls.t : NULL;
}

/*
 * Find or make this thread's state. A dead thread's pthread_t may be reused
 * by a new thread, which then inherits the dead one's state: that is safe
 * (the old thread is gone) and keeps the list from growing with thread churn.
 */
static struct kt_wthread *
kt_wthread_get(struct kt_writer *w)
{
	pthread_t self = pthread_self();
	struct kt_wthread *t;

	pthread_mutex_lock(&w->lock);
	for (t = atomic_load(&w->threads); t; t = t->next)
		if (pthread_equal(t->self, self))
			break;
	if (!t) {
		t = calloc(1, sizeof(*t));
		if (t) {
			t->self = self;
			t->next = atomic_load(&w->threads);
			atomic_store_explicit(&w->threads, t,
					      memory_order_release);
		}
	}
	pthread_mutex_unlock(&w->lock);
	if (t) {
		kt_tls.gen = w->gen;
		kt_tls.t = t;
	}
	return t;
}

/* This thread's state: the TLS slot, else kt_wthread_get() (NULL: ENOMEM). */
static inline struct kt_wthread *
kt_wthread_self(struct kt_writer *w)
{
	return KT_LIKELY(kt_tls.gen == w->gen) ? kt_tls.t : kt_wthread_get(w);
}

void
kt_wbuf_reset(struct kt_writer *w, struct kt_wbuf *b)
{
	b->next = NULL;
	b->ticket = atomic_fetch_add_explicit(&w->ticket, 1,
					      memory_order_relaxed);
	__atomic_store_n(&b->len, 0, __ATOMIC_RELAXED);
	__atomic_store_n(&b->skip, 0, __ATOMIC_RELAXED);
	__atomic_store_n(&b->t_first, 0, __ATOMIC_RELAXED);
	b->delta.valid = false;
	b->nrec = 0;
	b->nraw = 0;
	b->min_seq = UINT64_MAX;
	b->max_seq = 0;
	b->min_ts = UINT64_MAX;
	b->max_ts = 0;
}

static void
kt_handoff(struct kt_writer *w, struct kt_wbuf *b)
{
	struct kt_wbuf *head = atomic_load_explicit(&w->queue,
						    memory_order_relaxed);

	do {
		b->next = head;
	} while (!atomic_compare_exchange_weak_explicit(&w->queue, &head, b,
							memory_order_release,
							memory_order_relaxed));
	atomic_fetch_add(&w->queued, 1);
	kt_futex_wake(&w->wake);
}

/* A new buffer of at least @bound bytes; waits while the queue is full. */
static struct kt_wbuf *
kt_wbuf_get(struct kt_writer *w, size_t bound)
{
	struct kt_wbuf *b = NULL;

	if (bound > w->buf_cap) {
		b = malloc(sizeof(*b) + bound);
		if (!b)
			return NULL;
		b->cap = bound;
		b->big = true;
		kt_wbuf_reset(w, b);
		return b;
	}
	pthread_mutex_lock(&w->lock);
	/*
	 * Back-pressure: a traced program that produces records faster than
	 * they compress waits here rather than losing them or growing the
	 * queue without bound.
	 */
	while (atomic_load(&w->queued) >= w->max_queued && !w->stopping) {
		atomic_fetch_add(&w->space_waiters, 1);
		pthread_cond_wait(&w->cond, &w->lock);
		atomic_fetch_sub(&w->space_waiters, 1);
	}
	if (w->free) {
		b = w->free;
		w->free = b->next;
		w->nfree--;
	}
	pthread_mutex_unlock(&w->lock);
	if (!b) {
		b = malloc(sizeof(*b) + w->buf_cap);
		if (!b)
			return NULL;
		b->cap = w->buf_cap;
		b->big = false;
	}
	kt_wbuf_reset(w, b);
	return b;
}

/*
 * The owner's fence between announcing a section and checking for a
 * stealer or revoker: a compiler barrier when their kt_heavy_barrier()
 * reaches this thread through membarrier, a real fence otherwise.
 */
static inline void
kt_owner_fence(void)
{
	if (KT_UNLIKELY(kt_writer_fence_needed))
		atomic_thread_fence(memory_order_seq_cst);
	else
		atomic_signal_fence(memory_order_seq_cst);
}

/* The owner's half of the handshake (struct kt_wthread). */
static inline void
kt_enter(struct kt_wthread *t)
{
	for (;;) {
		atomic_store_explicit(&t->in_append, 1, memory_order_relaxed);
		kt_owner_fence();
		if (KT_LIKELY(!atomic_load_explicit(&t->steal,
						    memory_order_acquire)))
			return;
		/* A stealer is at work: let it finish. */
		atomic_store_explicit(&t->in_append, 0, memory_order_release);
		while (atomic_load_explicit(&t->steal, memory_order_acquire))
			sched_yield();
	}
}

static inline void
kt_leave(struct kt_wthread *t)
{
	atomic_store_explicit(&t->in_append, 0, memory_order_release);
}

/*
 * The slow path of append: the thread has no buffer (first record, or the
 * writer thread took it) or it is too full for this record. A full buffer
 * leaves the slot before it is queued, so an emergency flush on this thread
 * never sees it twice. While it may wait for queue space the thread is
 * outside the append, so stealers do not wait for it.
 */
static struct kt_wbuf *
kt_wbuf_refill(struct kt_writer *w, struct kt_wthread *t, struct kt_wbuf *b,
	       size_t bound, int *err)
{
	if (getpid() != w->pid) {
		/* A forked child: the writer thread does not exist here. */
		*err = -ECHILD;
		return NULL;
	}
	if (b) {
		size_t skip = __atomic_load_n(&b->skip, __ATOMIC_RELAXED);

		if (b->len == skip && b->cap >= bound && !b->big) {
			kt_wbuf_reset(w, b);
			return b;
		}
		atomic_store_explicit(&t->cur, NULL, memory_order_relaxed);
		if (b->len > skip) {
			kt_handoff(w, b);
		} else {
			b->next = NULL;
			kt_writer_recycle(w, b);
		}
	}
	kt_leave(t);
	b = kt_wbuf_get(w, bound);
	kt_enter(t);
	if (!b) {
		*err = -ENOMEM;
		return NULL;
	}
	/*
	 * Release: kt_steal() peeks at a published buffer's fields (acquire
	 * load of cur) before its handshake with this thread, so the buffer's
	 * allocation and reset must be visible to it by then.
	 */
	atomic_store_explicit(&t->cur, b, memory_order_release);
	return b;
}

static inline void
kt_wbuf_note(struct kt_wbuf *b, uint64_t seq, uint64_t ts)
{
	b->nrec++;
	if (seq < b->min_seq)
		b->min_seq = seq;
	if (seq > b->max_seq)
		b->max_seq = seq;
	if (ts < b->min_ts)
		b->min_ts = ts;
	if (ts > b->max_ts)
		b->max_ts = ts;
}

/* Whether the CPU has PREFETCHW (set at load time, before any thread). */
static bool kt_have_prefetchw;

static void __attribute__((constructor))
kt_prefetchw_init(void)
{
#if defined(__x86_64__)
	unsigned int a, b, c, d;

	/* CPUID 0x80000001, ECX bit 8: 3DNowPrefetch, i.e. PREFETCHW. */
	if (__get_cpuid(0x80000001u, &a, &b, &c, &d) && (c & (1u << 8)))
		kt_have_prefetchw = true;
#endif
}

/*
 * Ask for the cache line at @p for writing. An ordinary prefetch brings a
 * line the writer thread has read in shared, and the store that follows
 * still waits for the other CPU to give it up; PREFETCHW asks for it
 * exclusive. (Prefetches never fault, whatever the address.)
 */
static inline void
kt_prefetch_write(const uint8_t *p)
{
#if defined(__x86_64__)
	if (KT_LIKELY(kt_have_prefetchw)) {
		__asm__ volatile("prefetchw %0" : : "m"(*p));
		return;
	}
#endif
	__builtin_prefetch(p, 1);
}

/*
 * Store the ioctl record @io, numbered @seq (an argument of at most
 * KT_RAW_ARG_MAX bytes) as a raw entry: a fixed header and the images, no
 * encoding (the writer thread does that, kt_wbuf_render()). The delta base
 * moves on as if it had been encoded, for the encoded records after it.
 * Return: the entry's size, at most the record's bound.
 */
static inline size_t
kt_put_raw_ioctl(uint8_t *dst, const struct kt_ioctl_fast *io, uint64_t seq,
		 struct kt_delta *d)
{
	uint8_t af = (io->arg_before ? KT_AF_BEFORE : 0) |
		     (io->arg_after ? KT_AF_AFTER : 0);
	uint8_t *p = dst + sizeof(struct kt_raw_ioctl);

	/*
	 * Field by field, straight into the buffer: a header built on the
	 * stack and copied would be read back with wide loads right after
	 * its narrow stores, which the CPU cannot forward (a stall of some
	 * 15 cycles per load). The padding is left as it is; nothing reads
	 * it.
	 */
#define KT_RAW_PUT(field, val) do {					\
		__typeof__(((struct kt_raw_ioctl *)0)->field) v_ = (val);	\
		memcpy(dst + offsetof(struct kt_raw_ioctl, field), &v_,	\
		       sizeof(v_));					\
	} while (0)
	KT_RAW_PUT(marker, KT_ENTRY_RAW_IOCTL);
	KT_RAW_PUT(file_kind, io->file_kind);
	KT_RAW_PUT(af, af);
	KT_RAW_PUT(request, io->request);
	KT_RAW_PUT(tid, io->tid);
	KT_RAW_PUT(fd, io->fd);
	KT_RAW_PUT(ret, io->ret);
	KT_RAW_PUT(err, io->err);
	KT_RAW_PUT(arg_size, io->arg_size);
	KT_RAW_PUT(seq, seq);
	KT_RAW_PUT(ts, io->ts);
	KT_RAW_PUT(t_exit, io->t_exit);
#undef KT_RAW_PUT
	if (io->arg_before) {
		kt_copy(p, io->arg_before, io->arg_size);
		p += io->arg_size;
	}
	if (io->arg_after) {
		kt_copy(p, io->arg_after, io->arg_size);
		p += io->arg_size;
	}
	kt_delta_set(d, seq, io->ts, io->tid);
	return (size_t)(p - dst);
}

/*
 * The end of an append: account for the record (numbered @seq, stamped
 * @ts) that now ends at @len, hand the buffer off once it makes a frame,
 * and leave the append section.
 */
static inline void
kt_commit(struct kt_writer *w, struct kt_wthread *t, struct kt_wbuf *b,
	  size_t len, uint64_t seq, uint64_t ts)
{
	kt_wbuf_note(b, seq, ts);
	/* Release: a signal handler on this thread sees whole records only. */
	__atomic_store_n(&b->len, len, __ATOMIC_RELEASE);
	atomic_store_explicit(&t->appended,
			      atomic_load_explicit(&t->appended,
						   memory_order_relaxed) + 1,
			      memory_order_relaxed);
	if (KT_UNLIKELY(kt_wbuf_out_min(b, len) >= w->frame_raw)) {
		atomic_store_explicit(&t->cur, NULL, memory_order_relaxed);
		kt_handoff(w, b);
	}
	kt_leave(t);
	t->busy = false;
}

int
kt_writer_append(struct kt_writer *w, const struct kt_record *rec)
{
	struct kt_wthread *t;
	struct kt_wbuf *b;
	size_t bound, len;
	int err;

	err = kt_rec_bound_fast(rec, &bound);
	if (KT_UNLIKELY(err))
		goto lost;
	t = kt_wthread_self(w);
	if (KT_UNLIKELY(!t)) {
		err = -ENOMEM;
		goto lost;
	}
	if (KT_UNLIKELY(t->busy)) {
		/* A signal handler interrupted an append on this thread. */
		err = -EBUSY;
		goto lost;
	}
	t->busy = true;
	kt_enter(t);
	b = atomic_load_explicit(&t->cur, memory_order_relaxed);
	if (KT_UNLIKELY(!b || b->len + bound > b->cap)) {
		err = 0;
		b = kt_wbuf_refill(w, t, b, bound, &err);
		if (!b) {
			kt_leave(t);
			t->busy = false;
			goto lost;
		}
	}
	len = b->len;
	if (len == 0)
		__atomic_store_n(&b->t_first, kt_mono_ns(), __ATOMIC_RELAXED);
	/*
	 * Recycled buffers were last read by the writer thread on another
	 * CPU: ask for the lines the next records will write now, so their
	 * ownership transfer overlaps with this record's work.
	 */
	kt_prefetch_write(b->data + len + 512);
	kt_prefetch_write(b->data + len + 576);
	/*
	 * The common record is copied, not encoded. Not into a one-off big
	 * buffer: the emergency flush renders raw entries into a scratch
	 * area of the standard buffer size.
	 */
	if (KT_LIKELY(rec->type == KT_REC_IOCTL && !rec->u.ioctl.nbufs &&
		      rec->u.ioctl.arg_size <= KT_RAW_ARG_MAX && !b->big)) {
		struct kt_ioctl_fast f;

		kt_ioctl_fast_of(&f, rec);
		len += kt_put_raw_ioctl(b->data + len, &f, rec->seq, &b->delta);
		b->nraw++;
	} else if (rec->type == KT_REC_IOCTL && bound < (1u << 14))
		len += kt_rec_encode_ioctl(b->data + len, rec, &b->delta, bound);
	else
		len += kt_rec_encode(b->data + len, rec, &b->delta, bound);
	kt_commit(w, t, b, len, rec->seq, rec->ts);
	return 0;
lost:
	atomic_fetch_add_explicit(&w->lost, 1, memory_order_relaxed);
	return err;
}

/*
 * Sequence numbers. Every record of every thread takes one, and a locked
 * add costs more than a tenth of a traced ioctl on the machines we run on,
 * while in most programs one thread issues nearly all of them. So the
 * counter is biased to the first thread that takes a number: the owner
 * adds with an unlocked instruction (a single one, so a signal handler on
 * the same thread cannot split it), inside a section announced in its
 * in_seq flag (not in_append, which an append in a signal handler clears).
 * Another thread that needs a number revokes the bias for good: it marks the counter REVOKING, makes every thread run a full
 * barrier (membarrier, as kt_steal() does), waits for the owner to leave
 * its section, and marks the counter SHARED; from then on everyone uses a
 * locked add. Dekker again: the owner stores in_seq then loads the owner
 * field; the revoker changes the owner field then (after the barrier)
 * loads in_seq. One of them sees the other.
 */
#define KT_SEQ_REVOKING	((struct kt_wthread *)1)
#define KT_SEQ_SHARED	((struct kt_wthread *)2)

#if defined(__SANITIZE_THREAD__)
#define KT_SEQ_PLAIN_ADD 0
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define KT_SEQ_PLAIN_ADD 0
#endif
#endif
#if !defined(KT_SEQ_PLAIN_ADD) && defined(__x86_64__)
#define KT_SEQ_PLAIN_ADD 1
#elif !defined(KT_SEQ_PLAIN_ADD)
#define KT_SEQ_PLAIN_ADD 0
#endif

/* The owner's add, inside its section. */
static inline uint64_t
kt_seq_owner_add(struct kt_writer *w)
{
#if KT_SEQ_PLAIN_ADD
	uint64_t v = 1;

	/*
	 * No lock prefix: no other thread writes the counter while the bias
	 * holds. One instruction, so it is atomic for this thread's signal
	 * handlers. (TSan builds use the atomic add: it cannot see this.)
	 */
	__asm__ volatile("xaddq %0, %1"
			 : "+r"(v), "+m"(*(uint64_t *)&w->seq)
			 :
			 : "memory");
	return v;
#else
	return atomic_fetch_add_explicit(&w->seq, 1, memory_order_relaxed);
#endif
}

/*
 * Enter the owner's section: returns the flag's previous value (a signal
 * handler's section may nest in the thread's own).
 */
static inline int
kt_seq_enter(struct kt_wthread *t)
{
	int old = atomic_load_explicit(&t->in_seq, memory_order_relaxed);

	atomic_store_explicit(&t->in_seq, 1, memory_order_relaxed);
	kt_owner_fence();
	return old;
}

static inline void
kt_seq_leave(struct kt_wthread *t, int old)
{
	/* Release: a revoker that sees the section over sees the add. */
	atomic_store_explicit(&t->in_seq, old, memory_order_release);
}

/* Everything but the owner's own add: claim, revoke, shared. */
static __attribute__((noinline)) uint64_t
kt_seq_slow(struct kt_writer *w, struct kt_wthread *t)
{
	for (;;) {
		struct kt_wthread *o =
			atomic_load_explicit(&w->seq_owner, memory_order_acquire);
		uint64_t s;
		int old;

		if (o == KT_SEQ_SHARED)
			return atomic_fetch_add_explicit(&w->seq, 1,
							 memory_order_relaxed);
		if (o == KT_SEQ_REVOKING) {
			sched_yield();
			continue;
		}
		if (t && (o == t || o == NULL)) {
			/*
			 * Claim (or use) the bias inside a section: a revoker
			 * that finds us the owner then waits for us. The CAS
			 * is a full barrier between the flag and the claim.
			 */
			old = kt_seq_enter(t);
			if (o == NULL)
				atomic_compare_exchange_strong(&w->seq_owner,
							       &o, t);
			if (atomic_load_explicit(&w->seq_owner,
						 memory_order_seq_cst) == t) {
				s = kt_seq_owner_add(w);
				kt_seq_leave(t, old);
				return s;
			}
			kt_seq_leave(t, old);
			continue;
		}
		/* Another thread's bias, or none and we have no state. */
		if (!atomic_compare_exchange_strong(&w->seq_owner, &o,
						    KT_SEQ_REVOKING))
			continue;
		kt_heavy_barrier();
		/*
		 * Sections are a few instructions; only a thread that
		 * longjmp()ed out of a signal handler can leave one open for
		 * good. Do not hang the process for it.
		 */
		if (o) {
			uint64_t t0 = kt_mono_ns();

			while (atomic_load_explicit(&o->in_seq,
						    memory_order_acquire) &&
			       kt_mono_ns() - t0 < 1000000000u)
				sched_yield();
		}
		atomic_store_explicit(&w->seq_owner, KT_SEQ_SHARED,
				      memory_order_release);
	}
}

/* The next number, for @t (NULL: a thread without writer state). */
static inline uint64_t
kt_seq_take(struct kt_writer *w, struct kt_wthread *t)
{
	if (KT_LIKELY(t && atomic_load_explicit(&w->seq_owner,
						memory_order_relaxed) == t)) {
		int old = kt_seq_enter(t);

		if (KT_LIKELY(atomic_load_explicit(&w->seq_owner,
						   memory_order_relaxed) == t)) {
			uint64_t s = kt_seq_owner_add(w);

			kt_seq_leave(t, old);
			return s;
		}
		kt_seq_leave(t, old);
	}
	return kt_seq_slow(w, t);
}

uint64_t
kt_writer_next_seq(struct kt_writer *w)
{
	struct kt_wthread *t = kt_wthread_self(w);

	return kt_seq_take(w, t);
}

uint64_t
kt_writer_next_seq_nolock(struct kt_writer *w)
{
	return kt_seq_take(w, kt_writer_tls_thread(w));
}

/* kt_writer_append_ioctl() where its fast path does not apply. */
static __attribute__((noinline)) int
kt_append_ioctl_slow(struct kt_writer *w, const struct kt_ioctl_fast *io,
		     uint64_t *seq)
{
	struct kt_record rec = {
		.type = KT_REC_IOCTL,
		.tid = io->tid,
		.ts = io->ts,
		.u.ioctl = {
			.fd = io->fd,
			.file_kind = io->file_kind,
			.request = io->request,
			.ret = io->ret,
			.err = io->err,
			.t_exit = io->t_exit,
			.arg_size = io->arg_size,
			.arg_before = io->arg_before,
			.arg_after = io->arg_after,
		},
	};

	rec.seq = *seq = kt_writer_next_seq(w);
	return kt_writer_append(w, &rec);
}

/*
 * The per-ioctl path: kt_writer_append() cut down to the one case that
 * matters, a raw entry that fits the thread's current buffer. Everything
 * else (no thread state or buffer yet, a full or big buffer, a signal
 * handler's append inside another) goes the general way.
 */
int
kt_writer_append_ioctl(struct kt_writer *w, const struct kt_ioctl_fast *io,
		       uint64_t *seq)
{
	size_t need = sizeof(struct kt_raw_ioctl) + 2 * (size_t)io->arg_size;
	struct kt_wthread *t;
	struct kt_wbuf *b;
	size_t len;
	uint64_t s;

	if (KT_UNLIKELY(kt_tls.gen != w->gen || io->arg_size > KT_RAW_ARG_MAX))
		goto slow;
	t = kt_tls.t;
	if (KT_UNLIKELY(t->busy))
		goto slow;
	t->busy = true;
	kt_enter(t);
	b = atomic_load_explicit(&t->cur, memory_order_relaxed);
	if (KT_UNLIKELY(!b || b->big || b->len + need > b->cap)) {
		kt_leave(t);
		t->busy = false;
		goto slow;
	}
	*seq = s = kt_seq_take(w, t);
	len = b->len;
	if (KT_UNLIKELY(len == 0))
		__atomic_store_n(&b->t_first, kt_mono_ns(), __ATOMIC_RELAXED);
	/* As in kt_writer_append(). */
	kt_prefetch_write(b->data + len + 512);
	kt_prefetch_write(b->data + len + 576);
	len += kt_put_raw_ioctl(b->data + len, io, s, &b->delta);
	b->nraw++;
	kt_commit(w, t, b, len, s, io->ts);
	return 0;
slow:
	return kt_append_ioctl_slow(w, io, seq);
}

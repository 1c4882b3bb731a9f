/* SPDX-License-Identifier: MIT */
/*
 * Read-ahead: data frames decompressed on a helper thread while the caller
 * decodes the frame before them.
 *
 * Decompressing a frame costs about twice what decoding its records does,
 * so a helper that only ran ahead would still leave the caller waiting for
 * it. The caller therefore helps: both threads take the next frames of
 * the file, in file order, into a small ring of slots; the caller adopts
 * the frame it needs once it is ready and, while it is not, decompresses a
 * later one itself instead of waiting.
 *
 * The helper only ever decompresses. Everything the format says about a
 * frame (its extent, the skippable frames before it, the bounds of its
 * content size, the zstd result) is still judged by the caller in
 * reader_frame.c, in file order, so the records returned and the error
 * that ends them are the same with and without read-ahead. Where the walk
 * ahead meets anything unexpected it stalls and leaves that part of the
 * file to the caller; the caller's own walk restarts it further on.
 *
 * Memory: at most KT_AHEAD_SLOTS frame buffers of at most
 * KT_AHEAD_MAX_FRAME bytes each, on top of the caller's frame buffer;
 * larger frames are left to the caller.
 */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <unistd.h>
#include <zstd.h>

#include "kfdtrace/fork_quiet.h"
#include "reader_internal.h"

#define KT_AHEAD_SLOTS		4
#define KT_AHEAD_MAX_FRAME	(4u << 20)
/* No thread for less than this much file after the current frame (a few
 * thousand ioctl records): it would cost more to start than it saves. */
#define KT_AHEAD_MIN_BYTES	(64u << 10)

enum kt_slot_state {
	KT_SLOT_FREE,
	KT_SLOT_BUSY,		/* being decompressed, by either thread */
	KT_SLOT_READY,
};

struct kt_slot {
	enum kt_slot_state state;
	uint64_t gen;		/* the walk it belongs to; a seek starts a new one */
	size_t off;		/* the frame */
	size_t size;
	size_t content;
	size_t result;		/* what ZSTD_decompressDCtx() returned */
	uint8_t *buf;		/* owned by the slot; swapped with the caller's */
	size_t cap;
};

struct kt_ahead {
	struct kt_quiet quiet;	/* busy while the helper works (fork_quiet.h) */
	pthread_mutex_t lock;
	pthread_cond_t cond;	/* a slot changed state, the walk moved, stop */
	pthread_t thread;
	const struct kt_reader *r;
	pid_t pid;
	void *dctx;		/* the helper's ZSTD_DCtx */
	size_t pos;		/* where the walk goes on */
	uint64_t gen;
	bool stalled;		/* the walk met something for the caller to judge */
	bool stop;
	struct kt_slot slot[KT_AHEAD_SLOTS];
};

/*
 * The next data frame of the walk, under the lock. Skippable frames are
 * stepped over unchecked (the caller checks them); a frame too big to read
 * ahead is stepped over too. Return: true with the frame's extent.
 */
static bool
kt_ahead_walk(struct kt_ahead *a, const struct kt_reader *r, size_t *off,
	      size_t *size, size_t *content)
{
	while (!a->stalled && a->pos < r->size) {
		unsigned long long c;
		const char *why;
		bool is_data;
		size_t s;

		if (kt_frame_extent(r->data, r->size, a->pos, &s, &is_data,
				    &why)) {
			a->stalled = true;
			break;
		}
		if (!is_data) {
			a->pos += s;
			continue;
		}
		c = ZSTD_getFrameContentSize(r->data + a->pos, s);
		if (c == ZSTD_CONTENTSIZE_UNKNOWN || c == ZSTD_CONTENTSIZE_ERROR ||
		    c > KT_MAX_FRAME_SIZE ||
		    c > (unsigned long long)s * KT_MAX_EXPANSION) {
			a->stalled = true;
			break;
		}
		if (c > KT_AHEAD_MAX_FRAME) {
			a->pos += s;
			continue;
		}
		*off = a->pos;
		*size = s;
		*content = (size_t)c;
		a->pos += s;
		return true;
	}
	return false;
}

/* Claim a free slot for the next frame of the walk, under the lock. */
static struct kt_slot *
kt_ahead_claim(struct kt_ahead *a, const struct kt_reader *r)
{
	struct kt_slot *s = NULL;

	for (int i = 0; i < KT_AHEAD_SLOTS && !s; i++)
		if (a->slot[i].state == KT_SLOT_FREE)
			s = &a->slot[i];
	if (!s || !kt_ahead_walk(a, r, &s->off, &s->size, &s->content))
		return NULL;
	s->state = KT_SLOT_BUSY;
	s->gen = a->gen;
	return s;
}

/*
 * Decompress a claimed slot, without the lock, then publish it. A slot
 * that cannot get memory is dropped: the caller then decompresses that
 * frame itself and reports the failure in its place.
 */
static void
kt_ahead_run(struct kt_ahead *a, const struct kt_reader *r, struct kt_slot *s,
	     void *dctx)
{
	bool ok = true;

	if (s->content + 1 > s->cap) {
		free(s->buf);
		s->cap = 0;
		s->buf = malloc(s->content + 1);
		if (s->buf)
			s->cap = s->content + 1;
		else
			ok = false;
	}
	if (ok)
		s->result = ZSTD_decompressDCtx(dctx, s->buf, s->content,
						r->data + s->off, s->size);
	pthread_mutex_lock(&a->lock);
	s->state = ok && s->gen == a->gen ? KT_SLOT_READY : KT_SLOT_FREE;
	pthread_cond_broadcast(&a->cond);
}

static void *
kt_ahead_main(void *arg)
{
	struct kt_ahead *a = arg;
	const struct kt_reader *r = a->r;

	/* Born busy; quiet (fork_quiet.h) only while it sleeps. */
	pthread_mutex_lock(&a->lock);
	while (!a->stop) {
		struct kt_slot *s = kt_ahead_claim(a, r);

		if (!s) {
			kt_quiet_idle(&a->quiet);
			pthread_cond_wait(&a->cond, &a->lock);
			kt_quiet_busy(&a->quiet);
			continue;
		}
		pthread_mutex_unlock(&a->lock);
		kt_ahead_run(a, r, s, a->dctx);	/* returns locked */
	}
	pthread_mutex_unlock(&a->lock);
	return NULL;
}

static void
kt_ahead_free(struct kt_ahead *a)
{
	for (int i = 0; i < KT_AHEAD_SLOTS; i++)
		free(a->slot[i].buf);
	ZSTD_freeDCtx(a->dctx);
	kt_quiet_unregister(&a->quiet);
	pthread_cond_destroy(&a->cond);
	pthread_mutex_destroy(&a->lock);
	free(a);
}

void
kt_ahead_maybe_start(struct kt_reader *r, size_t off, size_t size)
{
	size_t next = off + size, rest = r->size - next;
	struct kt_ahead *a;
	sigset_t all, old;

	if (r->ahead || !r->ahead_on || rest < KT_AHEAD_MIN_BYTES ||
	    rest / 3 < size)
		return;
	/* One try per reader: a failure here is no reason to fail reading. */
	r->ahead_on = false;
	a = calloc(1, sizeof(*a));
	if (!a)
		return;
	a->dctx = ZSTD_createDCtx();
	if (!a->dctx) {
		free(a);
		return;
	}
	pthread_mutex_init(&a->lock, NULL);
	pthread_cond_init(&a->cond, NULL);
	kt_quiet_register(&a->quiet);
	a->r = r;
	a->pid = getpid();
	a->pos = next;
	r->ahead = a;
	/* The helper takes no signals: they belong to the program. */
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	if (pthread_create(&a->thread, NULL, kt_ahead_main, a)) {
		r->ahead = NULL;
		kt_ahead_free(a);
	}
	pthread_sigmask(SIG_SETMASK, &old, NULL);
}

int
kt_ahead_take(struct kt_reader *r, size_t off, size_t size, size_t *result)
{
	struct kt_ahead *a = r->ahead;

	if (!a)
		return 0;
	if (getpid() != a->pid) {
		/* A forked child: the helper stayed in the parent. */
		r->ahead = NULL;
		return 0;
	}
	pthread_mutex_lock(&a->lock);
	for (;;) {
		struct kt_slot *want = NULL, *s;
		bool freed = false;

		for (int i = 0; i < KT_AHEAD_SLOTS; i++) {
			s = &a->slot[i];
			if (s->state == KT_SLOT_READY &&
			    (s->gen != a->gen || s->off < off)) {
				s->state = KT_SLOT_FREE;	/* passed by */
				freed = true;
			}
			if (s->state != KT_SLOT_FREE && s->gen == a->gen &&
			    s->off == off)
				want = s;
		}
		if (freed)
			pthread_cond_broadcast(&a->cond);
		if (!want) {
			/* Not read ahead: the walk goes on after it. */
			if (a->pos <= off) {
				a->pos = off + size;
				a->stalled = false;
				pthread_cond_broadcast(&a->cond);
			}
			pthread_mutex_unlock(&a->lock);
			return 0;
		}
		if (want->state == KT_SLOT_READY) {
			uint8_t *buf = r->fbuf;
			size_t cap = r->fcap;

			r->fbuf = want->buf;
			r->fcap = want->cap;
			want->buf = buf;
			want->cap = cap;
			*result = want->result;
			want->state = KT_SLOT_FREE;
			pthread_cond_broadcast(&a->cond);
			pthread_mutex_unlock(&a->lock);
			return 1;
		}
		/* The helper is on it: do a later frame meanwhile. */
		s = kt_ahead_claim(a, r);
		if (s) {
			pthread_mutex_unlock(&a->lock);
			kt_ahead_run(a, r, s, r->dctx);
		} else {
			pthread_cond_wait(&a->cond, &a->lock);
		}
	}
}

void
kt_ahead_reset(struct kt_reader *r, size_t pos)
{
	struct kt_ahead *a = r->ahead;

	if (!a || getpid() != a->pid)
		return;
	pthread_mutex_lock(&a->lock);
	a->gen++;
	a->pos = pos;
	a->stalled = false;
	for (int i = 0; i < KT_AHEAD_SLOTS; i++)
		if (a->slot[i].state == KT_SLOT_READY)
			a->slot[i].state = KT_SLOT_FREE;
	pthread_cond_broadcast(&a->cond);
	pthread_mutex_unlock(&a->lock);
}

void
kt_ahead_stop(struct kt_reader *r)
{
	struct kt_ahead *a = r->ahead;

	r->ahead = NULL;
	if (!a || getpid() != a->pid)
		return;		/* a forked child cannot join the parent's thread */
	pthread_mutex_lock(&a->lock);
	a->stop = true;
	pthread_cond_broadcast(&a->cond);
	pthread_mutex_unlock(&a->lock);
	pthread_join(a->thread, NULL);
	kt_ahead_free(a);
}

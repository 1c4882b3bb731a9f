/* SPDX-License-Identifier: MIT */
/*
 * The writer thread: takes buffers (full ones from the queue, aged ones out
 * of the threads' slots), orders them, compresses them into frames and
 * writes the frames and the periodic index.
 */
#include <errno.h>
#include <sched.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <unistd.h>
#define ZSTD_STATIC_LINKING_ONLY	/* ZSTD_c_literalCompressionMode */
#include <zstd.h>

#include "writer_internal.h"

#define KT_MAX_FREE_BUFS	64u

/* Note a failure that is not the file's: the records are lost, the file is fine. */
static void
kt_writer_drop(struct kt_writer *w, uint32_t records, int err)
{
	int expected = 0;

	atomic_compare_exchange_strong(&w->io_err, &expected, err);
	atomic_fetch_add(&w->lost, records);
}

static bool
kt_grow(void **p, size_t *cap, size_t need, size_t elem)
{
	size_t n = *cap ? *cap : 16;
	void *q;

	if (need <= *cap)
		return true;
	while (n < need)
		n *= 2;
	q = realloc(*p, n * elem);
	if (!q)
		return false;
	*p = q;
	*cap = n;
	return true;
}

/*
 * Copy a buffer's unwritten records to @dst in their file encoding
 * (kt_wbuf_render(): raw entries encoded; after a partial emergency flush,
 * a base header for the first record, as a frame must start with one).
 * Return: bytes copied; *@skipped gets the number of records already written.
 */
static size_t
kt_wbuf_copy(const struct kt_wbuf *b, uint8_t *dst, uint32_t *skipped)
{
	struct kt_delta d;

	*skipped = 0;
	if (!b->skip && !b->nraw) {
		memcpy(dst, b->data, b->len);
		return b->len;
	}
	*skipped = kt_wbuf_walk(b, b->skip, b->len, &d, NULL);
	return kt_wbuf_render(b, b->skip, b->len, &d, dst);
}

static void
kt_entry_add(struct kt_writer *w, const struct kt_index_entry *e)
{
	size_t cap = w->pending_cap;

	/* The index is advisory: without memory the frame is just not indexed. */
	if (!kt_grow((void **)&w->pending, &cap, w->npending + 1u,
		     sizeof(*w->pending)))
		return;
	w->pending_cap = (unsigned int)cap;
	w->pending[w->npending++] = *e;
}

void
kt_writer_emit(struct kt_writer *w, struct kt_wbuf **bufs, unsigned int n,
	       bool is_end)
{
	struct kt_index_entry e = {
		.min_seq = UINT64_MAX, .min_ts = UINT64_MAX,
		.flags = is_end ? KT_IDX_F_END : 0,
	};
	const uint8_t *src;
	size_t content = 0, need = 0, csize, done = 0;
	uint64_t off;
	int err;

	for (unsigned int i = 0; i < n; i++) {
		const struct kt_wbuf *b = bufs[i];

		need += b->len - b->skip + KT_REBASE_MAX;
		e.records += b->nrec;
		if (b->min_seq < e.min_seq)
			e.min_seq = b->min_seq;
		if (b->max_seq > e.max_seq)
			e.max_seq = b->max_seq;
		if (b->nrec && b->max_seq >= w->seq_high)
			w->seq_high = b->max_seq + 1;
		if (b->min_ts < e.min_ts)
			e.min_ts = b->min_ts;
		if (b->max_ts > e.max_ts)
			e.max_ts = b->max_ts;
	}
	if (n == 1 && !bufs[0]->skip && !bufs[0]->nraw) {
		src = bufs[0]->data;
		content = bufs[0]->len;
	} else {
		if (!kt_grow((void **)&w->stage, &w->stage_cap, need, 1)) {
			kt_writer_drop(w, e.records, -ENOMEM);
			return;
		}
		for (unsigned int i = 0; i < n; i++) {
			uint32_t skipped;

			content += kt_wbuf_copy(bufs[i], w->stage + content,
						&skipped);
			e.records -= skipped;
		}
		src = w->stage;
	}
	if (!content)
		return;
	if (atomic_load(&w->broken)) {
		atomic_fetch_add(&w->lost, e.records);
		return;
	}
	if (!kt_grow((void **)&w->zbuf, &w->zbuf_cap,
		     ZSTD_compressBound(content), 1)) {
		kt_writer_drop(w, e.records, -ENOMEM);
		return;
	}
	csize = ZSTD_compress2(w->cctx, w->zbuf, w->zbuf_cap, src, content);
	if (ZSTD_isError(csize)) {
		kt_writer_drop(w, e.records, -ENOMEM);
		return;
	}
	off = atomic_load(&w->file_off);
	err = kt_writer_fd_check(w);
	if (!err)
		err = kt_write_all(w->fd, w->zbuf, csize, &done);
	if (err) {
		kt_writer_io_error(w, err, done);
		atomic_fetch_add(&w->lost, e.records);
		return;
	}
	atomic_store(&w->file_off, off + csize);
	atomic_fetch_add(&w->frames, 1);
	atomic_fetch_add(&w->raw_bytes, content);
	atomic_fetch_add(&w->written, e.records);
	e.frame_offset = off;
	e.frame_size = (uint32_t)csize;
	e.raw_size = (uint32_t)content;
	kt_entry_add(w, &e);
	if (w->npending >= w->index_every)
		kt_writer_write_index(w);
}

void
kt_writer_write_index(struct kt_writer *w)
{
	size_t size, done = 0;
	uint8_t *buf;
	uint64_t off;
	int err;

	if (!w->npending || atomic_load(&w->broken))
		return;
	size = kt_index_frame_size(w->npending);
	buf = malloc(size);
	if (!buf)
		return;
	kt_index_encode(buf, w->pending, w->npending,
			w->have_index ? w->last_index : 0);
	off = atomic_load(&w->file_off);
	err = kt_writer_fd_check(w);
	if (!err)
		err = kt_write_all(w->fd, buf, size, &done);
	free(buf);
	if (err) {
		kt_writer_io_error(w, err, done);
		return;
	}
	atomic_store(&w->file_off, off + size);
	w->last_index = off;
	w->have_index = true;
	w->npending = 0;
}

/* Cut the sorted buffers into frames of at least frame_raw bytes each. */
static void
kt_writer_frames(struct kt_writer *w, struct kt_wbuf *list)
{
	struct kt_wbuf *one[1];
	size_t gsize = 0, cap = w->grp_cap;
	unsigned int n = 0;

	for (struct kt_wbuf *b = list; b; b = b->next) {
		/* (After a partial emergency flush, a rough figure will do.) */
		size_t out = kt_wbuf_out_min(b, b->len);
		size_t sz = b->len <= b->skip ? 0 : out > b->skip ?
			    out - b->skip : 1;

		if (!sz)
			continue;
		if (n && gsize + sz > w->frame_raw) {
			kt_writer_emit(w, w->grp, n, false);
			n = 0;
			gsize = 0;
		}
		if (!kt_grow((void **)&w->grp, &cap, n + 1u, sizeof(*w->grp))) {
			if (n)
				kt_writer_emit(w, w->grp, n, false);
			n = 0;
			gsize = 0;
			one[0] = b;
			kt_writer_emit(w, one, 1, false);
			continue;
		}
		w->grp_cap = (unsigned int)cap;
		w->grp[n++] = b;
		gsize += sz;
		if (gsize >= w->frame_raw) {
			kt_writer_emit(w, w->grp, n, false);
			n = 0;
			gsize = 0;
		}
	}
	if (n)
		kt_writer_emit(w, w->grp, n, false);
}

void
kt_writer_recycle(struct kt_writer *w, struct kt_wbuf *list)
{
	struct kt_wbuf *ret = atomic_exchange(&w->returned, NULL), *b, *next;

	if (!list && !ret)
		return;
	pthread_mutex_lock(&w->lock);
	for (int pass = 0; pass < 2; pass++) {
		for (b = pass ? ret : list; b; b = next) {
			next = b->next;
			if (b->big || w->nfree >= KT_MAX_FREE_BUFS) {
				free(b);
				continue;
			}
			b->next = w->free;
			w->free = b;
			w->nfree++;
		}
	}
	pthread_cond_broadcast(&w->cond);
	pthread_mutex_unlock(&w->lock);
}

/*
 * One round: returns false, doing nothing, while an emergency flush owns
 * the file.
 */
bool
kt_writer_batch(struct kt_writer *w, bool force, bool aged, uint64_t now)
{
	struct kt_wbuf *list = NULL, *q, **tail;
	unsigned int nq;
	int expected = KT_IO_IDLE;

	if (!atomic_compare_exchange_strong(&w->io_state, &expected,
					    KT_IO_BUSY))
		return false;
	/*
	 * Slots before the queue: a thread queues its full buffer before it
	 * takes the next one, so every queued buffer older than a stolen one
	 * is already in the queue; sorting by ticket then restores order.
	 */
	if (force || aged)
		list = kt_steal(w, force,
				force ? 0 : w->flush_ns - w->flush_ns / 4, now,
				NULL);
	q = kt_queue_take(w, &nq);
	for (tail = &list; *tail; tail = &(*tail)->next)
		;
	*tail = q;
	list = kt_wbuf_sort(list);
	kt_writer_frames(w, list);
	atomic_store(&w->io_state, KT_IO_IDLE);
	atomic_fetch_sub(&w->queued, nq);
	kt_writer_recycle(w, list);
	/* An emergency flush may have emptied the queue without telling. */
	if (!list && atomic_load(&w->space_waiters)) {
		pthread_mutex_lock(&w->lock);
		pthread_cond_broadcast(&w->cond);
		pthread_mutex_unlock(&w->lock);
	}
	return true;
}

/*
 * At the default level, store literals raw instead of Huffman-coding them
 * (docs/trace-format.md section 4): on ioctl records that costs about 2
 * bytes a record on disk (16 -> 18) but makes compression about 12% and
 * every later decompression about 15% cheaper, and decompression is most
 * of what a scan costs. The frames stay ordinary zstd frames. A library
 * that does not know the parameter refuses it and compresses as before.
 * Only this thread uses the context until kt_writer_close() joins it.
 */
static void
kt_writer_tune_cctx(struct kt_writer *w)
{
	if (w->level == 1)
		ZSTD_CCtx_setParameter(w->cctx, ZSTD_c_literalCompressionMode,
				       ZSTD_ps_disable);
}

void *
kt_writer_thread_main(void *arg)
{
	struct kt_writer *w = arg;
	uint64_t tick = w->flush_ns / 4, next, now, req, done = 0;
	uint32_t seen;
	bool stop, aged;

	if (tick < 1000000)
		tick = 1000000;
	atomic_store(&w->writer_tid, (int)syscall(SYS_gettid));
	kt_writer_tune_cctx(w);
	/*
	 * SCHED_BATCH keeps this thread's fair share of the CPU but stops its
	 * wake-ups (a buffer handed off) from preempting the traced thread on
	 * the same CPU: compression then waits for the next tick or a free
	 * CPU instead of landing in the middle of the program's ioctl loop.
	 */
	pthread_setschedparam(pthread_self(), SCHED_BATCH,
			      &(struct sched_param){ .sched_priority = 0 });
	next = kt_mono_ns() + tick;
	/* Born busy; quiet (fork_quiet.h) only while it sleeps. */
	for (;;) {
		seen = atomic_load(&w->wake);
		pthread_mutex_lock(&w->lock);
		req = w->flush_req;
		stop = w->stopping;
		pthread_mutex_unlock(&w->lock);
		now = kt_mono_ns();
		if (req == done && !stop && !atomic_load(&w->queue) &&
		    now < next) {
			kt_quiet_idle(&w->quiet);
			kt_futex_wait(&w->wake, seen, next - now);
			kt_quiet_busy(&w->quiet);
			continue;
		}
		aged = now >= next;
		if (aged)
			next = now + tick;
		if (!kt_writer_batch(w, req != done || stop, aged, now)) {
			kt_quiet_idle(&w->quiet);
			usleep(1000);
			kt_quiet_busy(&w->quiet);
			continue;
		}
		if (req != done) {
			pthread_mutex_lock(&w->lock);
			w->flush_done = req;
			pthread_cond_broadcast(&w->cond);
			pthread_mutex_unlock(&w->lock);
			done = req;
		}
		if (stop)
			break;
	}
	return NULL;
}

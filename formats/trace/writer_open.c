/* SPDX-License-Identifier: MIT */
/*
 * The writer's life: its options, opening a trace (header, writer thread),
 * flush, the END record, close (footer) and the statistics. The append hot
 * path is in writer.c.
 */
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <zstd.h>

#include "record_put.h"
#include "writer_internal.h"

#define KT_DEF_FRAME_RAW	(64u << 10)
#define KT_MIN_FRAME_RAW	256u
#define KT_MAX_FRAME_RAW	(16u << 20)
#define KT_DEF_FLUSH_MS		100u
#define KT_MAX_FLUSH_MS		60000u
#define KT_DEF_INDEX_EVERY	16u
#define KT_MAX_INDEX_EVERY	4096u
#define KT_QUEUE_BYTES		(32u << 20)	/* before appends wait */

static _Atomic uint64_t kt_writer_gens = 1;

static void
kt_writer_opts(struct kt_writer *w, const struct kt_writer_opts *o)
{
	static const struct kt_writer_opts none;
	size_t slack, queue;

	if (!o)
		o = &none;
	w->level = o->level ? o->level : 1;
	if (w->level > ZSTD_maxCLevel())
		w->level = ZSTD_maxCLevel();
	if (w->level < ZSTD_minCLevel())
		w->level = ZSTD_minCLevel();
	w->frame_raw = o->frame_raw_size ? o->frame_raw_size : KT_DEF_FRAME_RAW;
	if (w->frame_raw < KT_MIN_FRAME_RAW)
		w->frame_raw = KT_MIN_FRAME_RAW;
	if (w->frame_raw > KT_MAX_FRAME_RAW)
		w->frame_raw = KT_MAX_FRAME_RAW;
	w->flush_ns = (uint64_t)(o->flush_ms ? o->flush_ms : KT_DEF_FLUSH_MS);
	if (w->flush_ns > KT_MAX_FLUSH_MS)
		w->flush_ns = KT_MAX_FLUSH_MS;
	w->flush_ns *= 1000000u;
	w->index_every = o->index_every ? o->index_every : KT_DEF_INDEX_EVERY;
	if (w->index_every > KT_MAX_INDEX_EVERY)
		w->index_every = KT_MAX_INDEX_EVERY;
	/*
	 * A buffer is handed off once it holds frame_raw bytes of records as
	 * they will be written, so frames are at least that big; the slack
	 * takes the record that crosses the line. Raw entries take up to
	 * three times what they encode to (an 8-byte argument: 80 bytes for
	 * about 35): room for frame_raw bytes of those.
	 */
	slack = w->frame_raw / 4;
	if (slack < 1024)
		slack = 1024;
	w->buf_cap = 3 * w->frame_raw + slack;
	queue = o->max_queued_bytes ? o->max_queued_bytes : KT_QUEUE_BYTES;
	w->max_queued = (unsigned int)(queue / w->buf_cap);
	if (w->max_queued < 2)
		w->max_queued = 2;
}

static void
kt_writer_free(struct kt_writer *w)
{
	struct kt_wthread *t, *tn;
	struct kt_wbuf *b, *bn;

	for (t = atomic_load(&w->threads); t; t = tn) {
		tn = t->next;
		free(atomic_load(&t->cur));
		free(t);
	}
	for (b = w->free; b; b = bn) {
		bn = b->next;
		free(b);
	}
	for (b = atomic_load(&w->queue); b; b = bn) {
		bn = b->next;
		free(b);
	}
	for (b = atomic_load(&w->returned); b; b = bn) {
		bn = b->next;
		free(b);
	}
	ZSTD_freeCCtx(w->cctx);
	free(w->emerg_out);
	free(w->grp);
	free(w->stage);
	free(w->zbuf);
	free(w->pending);
	free(w->path);
	pthread_mutex_destroy(&w->lock);
	pthread_cond_destroy(&w->cond);
	free(w);
}

/*
 * The writer thread's start: it gives up its share of the process's fd
 * table, keeping a private copy with only the trace's fd in it. While the
 * table is shared by several threads, the kernel takes a reference on the
 * file at every fd lookup (every ioctl, every fstat) of every thread; a
 * single-threaded program that is traced pays for those only because the
 * writer thread exists. Without close_range(2) (Linux < 5.9) the thread
 * keeps sharing: its copy would otherwise hold the program's pipes and
 * sockets open.
 */
static void *
kt_writer_thread_start(void *arg)
{
	struct kt_writer *w = arg;
	unsigned int fd = (unsigned int)w->fd;

	if (syscall(SYS_close_range, ~0u, ~0u, 0) == 0 &&
	    unshare(CLONE_FILES) == 0) {
		if (fd > 0)
			syscall(SYS_close_range, 0u, fd - 1, 0);
		syscall(SYS_close_range, fd + 1, ~0u, 0);
		/*
		 * Nothing the program does to its fds reaches this copy from
		 * now on; but the copy is taken when the thread first runs,
		 * and a program that closed or dup2()ed the trace's number
		 * behind libc before that (a raw system call) left its own
		 * file there. Check the copy once, reopening the trace by its
		 * path if needed, and only then stop checking.
		 */
		if (kt_writer_fd_check(w) == 0)
			kt_writer_mark_private_table(w);
	}
	return kt_writer_thread_main(arg);
}

int
kt_writer_fdopen(int fd, const struct kt_header *hdr,
		 const struct kt_writer_opts *opts, struct kt_writer **out)
{
	uint8_t hbuf[KT_HDR_FRAME_MAX];
	struct kt_sig_guard guard;
	sigset_t all, old;
	struct kt_writer *w;
	size_t hsize, done;
	struct stat st;
	int err;

	*out = NULL;
	if (fd < 0 || !hdr) {
		if (fd >= 0)
			close(fd);
		return -EINVAL;
	}
	w = calloc(1, sizeof(*w));
	if (!w) {
		close(fd);
		return -ENOMEM;
	}
	pthread_mutex_init(&w->lock, NULL);
	pthread_cond_init(&w->cond, NULL);
	w->fd = fd;
	w->pid = getpid();
	w->gen = atomic_fetch_add(&kt_writer_gens, 1);
	kt_writer_barrier_init();
	kt_writer_opts(w, opts);
	w->base_off = lseek(fd, 0, SEEK_CUR);
	w->seekable = w->base_off >= 0;
	if (!w->seekable)
		w->base_off = 0;
	if (fstat(fd, &st) == 0) {
		w->ident_known = true;
		w->ident_dev = st.st_dev;
		w->ident_ino = st.st_ino;
	}
	if (opts && opts->path)
		w->path = strdup(opts->path);
	if (opts) {
		w->lost_elsewhere = opts->lost_elsewhere;
		w->left_out = opts->left_out;
	}
	w->emerg_out = malloc(w->buf_cap + KT_REBASE_MAX);
	w->cctx = ZSTD_createCCtx();
	if (!w->cctx || !w->emerg_out || (opts && opts->path && !w->path)) {
		err = -ENOMEM;
		goto fail;
	}
	ZSTD_CCtx_setParameter(w->cctx, ZSTD_c_compressionLevel, w->level);
	ZSTD_CCtx_setParameter(w->cctx, ZSTD_c_checksumFlag, 1);
	ZSTD_CCtx_setParameter(w->cctx, ZSTD_c_contentSizeFlag, 1);

	/*
	 * A failed header write does not fail the open: like any write error
	 * it is kept, records are counted as lost, and close reports it.
	 */
	hsize = kt_header_encode(hdr, hbuf, sizeof(hbuf));
	kt_sig_guard_enter(&guard);
	err = kt_write_all(fd, hbuf, hsize, &done);
	kt_sig_guard_leave(&guard);
	if (err)
		kt_writer_io_error(w, err, done);
	else
		atomic_store(&w->file_off, hsize);

	/* The writer thread takes no signals: they belong to the program. */
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	kt_quiet_register(&w->quiet);
	err = -pthread_create(&w->thread, NULL, kt_writer_thread_start, w);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (err) {
		kt_quiet_unregister(&w->quiet);
		goto fail;
	}
	w->thread_started = true;
	*out = w;
	return 0;
fail:
	close(fd);
	kt_writer_free(w);
	return err;
}

int
kt_writer_open(const char *path, const struct kt_header *hdr,
	       const struct kt_writer_opts *opts, struct kt_writer **out)
{
	struct kt_writer_opts o = { 0 };
	int fd, err;

	*out = NULL;
	if (!path)
		return -EINVAL;
	if (opts)
		o = *opts;
	o.path = path;
	fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
		  0600);
	if (fd < 0)
		return -errno;
	err = kt_writer_fdopen(fd, hdr, &o, out);
	if (err)
		unlink(path);
	return err;
}

int
kt_writer_flush(struct kt_writer *w)
{
	uint64_t mine;
	int err;

	if (getpid() != w->pid)
		return -ECHILD;
	pthread_mutex_lock(&w->lock);
	mine = ++w->flush_req;
	pthread_mutex_unlock(&w->lock);
	kt_futex_wake(&w->wake);
	pthread_mutex_lock(&w->lock);
	while (w->flush_done < mine)
		pthread_cond_wait(&w->cond, &w->lock);
	pthread_mutex_unlock(&w->lock);
	err = atomic_load(&w->io_err);
	return err;
}

void
kt_writer_fill_end(struct kt_writer *w, struct kt_record *end, uint64_t seq)
{
	memset(end, 0, sizeof(*end));
	end->type = KT_REC_END;
	/* Unique even when the caller numbered its records itself. */
	end->seq = seq < w->seq_high ? w->seq_high : seq;
	end->tid = (uint32_t)syscall(SYS_gettid);
	end->ts = kt_mono_ns();
	end->u.end.records = atomic_load(&w->written);
	end->u.end.lost = atomic_load(&w->lost);
	if (w->lost_elsewhere)
		end->u.end.lost += atomic_load(w->lost_elsewhere);
	if (w->left_out)
		end->u.end.left_out = atomic_load(w->left_out);
	if (end->u.end.lost || atomic_load(&w->io_err))
		end->u.end.flags |= KT_END_INCOMPLETE;
}

/* The END record goes into a frame of its own, after everything else. */
static void
kt_writer_end(struct kt_writer *w)
{
	struct kt_record end;
	struct kt_wbuf *b;
	size_t bound;

	kt_writer_fill_end(w, &end, kt_writer_next_seq(w));
	if (kt_rec_bound(&end, &bound))
		return;
	b = malloc(sizeof(*b) + bound);
	if (!b)
		return;
	b->cap = bound;
	b->big = true;
	kt_wbuf_reset(w, b);
	b->len = kt_rec_encode(b->data, &end, &b->delta, bound);
	b->nrec = 1;
	b->min_seq = b->max_seq = end.seq;
	b->min_ts = b->max_ts = end.ts;
	kt_writer_emit(w, &b, 1, true);
	free(b);
}

int
kt_writer_close(struct kt_writer *w)
{
	uint8_t footer[KT_FOOTER_SIZE];
	struct kt_sig_guard guard;
	size_t done;
	int err;

	if (!w)
		return -EINVAL;
	if (getpid() != w->pid) {
		/* Forked child: the writer thread is the parent's. */
		close(w->fd);
		kt_writer_free(w);
		return -ECHILD;
	}
	pthread_mutex_lock(&w->lock);
	w->stopping = true;
	w->flush_req++;
	pthread_cond_broadcast(&w->cond);
	pthread_mutex_unlock(&w->lock);
	kt_futex_wake(&w->wake);
	if (w->thread_started) {
		pthread_join(w->thread, NULL);
		kt_quiet_unregister(&w->quiet);
	}

	kt_sig_guard_enter(&guard);
	/* Records appended while the thread stopped. */
	while (!kt_writer_batch(w, true, true, kt_mono_ns()))
		usleep(1000);

	/*
	 * After ENOSPC the partial frame was cut off: the END record may
	 * still fit, and a trace that ends with INCOMPLETE says more than one
	 * that just stops.
	 */
	if (!atomic_load(&w->damaged) && !atomic_load(&w->ended) &&
	    atomic_load(&w->file_off) > 0) {
		atomic_store(&w->broken, false);
		kt_writer_end(w);
		kt_writer_write_index(w);
		if (w->have_index && !atomic_load(&w->broken) &&
		    !kt_writer_fd_check(w)) {
			kt_footer_encode(footer, w->last_index);
			err = kt_write_all(w->fd, footer, sizeof(footer), &done);
			if (err)
				kt_writer_io_error(w, err, done);
			else
				atomic_fetch_add(&w->file_off, sizeof(footer));
		}
	}
	kt_sig_guard_leave(&guard);
	/* Close only what is still ours: the number may be the program's. */
	if (!kt_writer_fd_check(w) && close(w->fd) && errno != EINTR)
		kt_writer_io_error(w, -errno, 0);
	err = atomic_load(&w->io_err);
	kt_writer_free(w);
	return err;
}

void
kt_writer_get_stats(struct kt_writer *w, struct kt_writer_stats *st)
{
	uint64_t records = 0;

	for (struct kt_wthread *t = atomic_load(&w->threads); t; t = t->next)
		records += atomic_load_explicit(&t->appended,
						memory_order_relaxed);
	st->records = records;
	st->lost = atomic_load(&w->lost);
	st->raw_bytes = atomic_load(&w->raw_bytes);
	st->file_bytes = atomic_load(&w->file_off);
	st->frames = atomic_load(&w->frames);
}

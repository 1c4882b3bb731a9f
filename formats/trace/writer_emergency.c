/* SPDX-License-Identifier: MIT */
/*
 * kt_writer_emergency_flush(): the records still in memory, written from a
 * fatal signal handler. Nothing here may take a lock, allocate or call zstd
 * (none of that is async-signal-safe), so the frames are built by hand from
 * raw blocks: a valid zstd frame that costs no CPU to make
 * (docs/trace-format.md section 8.3). kt_writer_emergency_end() then adds
 * the END record, for _exit() and for a signal that ends the process.
 */
#include <errno.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "writer_internal.h"

#define KT_EMERG_WAIT_MS	500	/* for the writer thread's current batch */

/* A piece of frame content: the frame is written from up to two of them. */
struct kt_piece {
	const uint8_t *p;
	size_t n;
};

/*
 * Write @pieces as one zstd frame: magic, a descriptor byte 0xA0 (4-byte
 * Frame_Content_Size, Single_Segment, no checksum, no dictionary), the
 * content size, then raw blocks of at most 128 KiB, the last one flagged.
 */
static int
kt_write_raw_frame(struct kt_writer *w, const struct kt_piece *pieces,
		   unsigned int npieces)
{
	uint8_t hdr[12];
	size_t content = 0, written = 0, done, left;
	unsigned int pi = 0;
	size_t poff = 0;
	int err;

	for (unsigned int i = 0; i < npieces; i++)
		content += pieces[i].n;
	if (!content)
		return 0;
	kt_put_le32(hdr, KT_ZSTD_MAGIC);
	hdr[4] = 0xA0;
	kt_put_le32(hdr + 5, (uint32_t)content);
	err = kt_write_all(w->fd, hdr, 9, &done);
	written += done;
	left = content;
	while (!err && left) {
		size_t bsz = left < KT_ZSTD_BLOCK_MAX ? left : KT_ZSTD_BLOCK_MAX;
		uint32_t bh = (uint32_t)(bsz << 3) | (bsz == left ? 1u : 0u);

		hdr[0] = (uint8_t)bh;
		hdr[1] = (uint8_t)(bh >> 8);
		hdr[2] = (uint8_t)(bh >> 16);
		err = kt_write_all(w->fd, hdr, 3, &done);
		written += done;
		left -= bsz;
		while (!err && bsz) {
			size_t n = pieces[pi].n - poff;

			if (n > bsz)
				n = bsz;
			err = kt_write_all(w->fd, pieces[pi].p + poff, n, &done);
			written += done;
			bsz -= n;
			poff += n;
			if (poff == pieces[pi].n) {
				pi++;
				poff = 0;
			}
		}
	}
	if (err) {
		kt_writer_io_error(w, err, written);
		return err;
	}
	atomic_fetch_add(&w->file_off, written);
	atomic_fetch_add(&w->frames, 1);
	atomic_fetch_add(&w->raw_bytes, content);
	return 0;
}

/*
 * Write the records of @b in [skip, @len). A buffer with raw entries is
 * rendered into the writer's scratch area first (kt_wbuf_render(); such a
 * buffer is never bigger than the standard size). Without them the bytes
 * are written as they are; only a buffer an earlier emergency flush
 * already started on may begin with a delta record, which gets a base
 * header, its base found by walking the records before it.
 */
static int
kt_emerg_buf(struct kt_writer *w, struct kt_wbuf *b, size_t len,
	     uint64_t *records)
{
	const uint8_t *end = b->data + len;
	struct kt_delta d;
	uint8_t head[KT_REBASE_MAX];
	struct kt_piece pc[2];
	size_t consumed = 0, hl = 0;
	uint32_t all, done;
	uint64_t nrec;
	int err;

	done = kt_wbuf_walk(b, b->skip, len, &d, &all);
	nrec = all > done ? all - done : 0;
	if (b->nraw) {
		pc[0].p = w->emerg_out;
		pc[0].n = kt_wbuf_render(b, b->skip, len, &d, w->emerg_out);
		pc[1].n = 0;
	} else {
		if (b->skip)
			hl = kt_rec_rebase(b->data + b->skip, end, &d, head,
					   &consumed);
		pc[0].p = head;
		pc[0].n = hl;
		pc[1].n = len - b->skip - consumed;
	}
	pc[1].p = b->data + b->skip + consumed;
	err = kt_write_raw_frame(w, pc, 2);
	if (err) {
		atomic_fetch_add(&w->lost, nrec);
		return err;
	}
	atomic_fetch_add(&w->written, nrec);
	if (nrec && b->max_seq >= w->seq_high)
		w->seq_high = b->max_seq + 1;
	*records += nrec;
	return 0;
}

static void
kt_sleep_ms(long ms)
{
	struct timespec ts = { .tv_sec = 0, .tv_nsec = ms * 1000000 };

	nanosleep(&ts, NULL);
}

/* Return buffers the writer thread will put on its free list. */
static void
kt_emerg_return(struct kt_writer *w, struct kt_wbuf *b)
{
	struct kt_wbuf *head = atomic_load(&w->returned);

	do {
		b->next = head;
	} while (!atomic_compare_exchange_weak(&w->returned, &head, b));
}

/*
 * The END record, as kt_writer_close() writes it but in a raw frame and
 * from the stack, with @flags added. Called with the file claimed.
 */
static int
kt_emerg_end(struct kt_writer *w, uint32_t flags)
{
	struct kt_record end;
	struct kt_delta d = { .valid = false };
	uint8_t buf[128];
	struct kt_piece pc;
	size_t bound;

	kt_writer_fill_end(w, &end, kt_writer_next_seq_nolock(w));
	end.u.end.flags |= flags;
	if (kt_rec_bound(&end, &bound) || bound > sizeof(buf))
		return -EOVERFLOW;
	pc.p = buf;
	pc.n = kt_rec_encode(buf, &end, &d, bound);
	return kt_write_raw_frame(w, &pc, 1);
}

/* @finish: write the END record too, with @end_flags. */
static int
kt_emerg(struct kt_writer *w, bool finish, uint32_t end_flags)
{
	struct kt_wbuf *list = NULL, *q, *b, *next, **tail, *own = NULL;
	struct kt_sig_guard guard;
	struct kt_wthread *me;
	uint64_t records = 0;
	bool claimed = false;
	size_t own_len = 0;
	unsigned int nq;
	int err = 0;

	if (!w)
		return -EINVAL;
	/* A forked child holds copies of the parent's buffers: not its own. */
	if (getpid() != w->pid)
		return -ECHILD;
	if ((int)syscall(SYS_gettid) != atomic_load(&w->writer_tid)) {
		for (int i = 0; i < KT_EMERG_WAIT_MS; i++) {
			int expected = KT_IO_IDLE;

			if (atomic_compare_exchange_strong(&w->io_state,
							   &expected,
							   KT_IO_EMERGENCY)) {
				claimed = true;
				break;
			}
			kt_sleep_ms(1);
		}
		if (!claimed)
			return -EBUSY;
	}
	/*
	 * else: the writer thread itself faulted. Its batch will not go on
	 * under us, so write what is left without waiting for it.
	 *
	 * This thread shares the program's fd table, which may no longer
	 * hold the trace at w->fd (closefrom() before exit, say).
	 */
	kt_writer_fd_check(w);
	if (atomic_load(&w->broken)) {
		err = atomic_load(&w->io_err);
		goto out;
	}
	if (atomic_load(&w->ended))
		goto out;

	/*
	 * A fault inside kt_writer_append() on this thread: its buffer holds
	 * whole records up to the committed length; write those and leave
	 * the buffer to the interrupted append.
	 */
	me = kt_writer_tls_thread(w);
	if (me && atomic_load(&me->in_append)) {
		own = atomic_load(&me->cur);
		if (own) {
			own_len = __atomic_load_n(&own->len, __ATOMIC_ACQUIRE);
			if (own_len > own->skip) {
				own->next = NULL;
			} else {
				own = NULL;
			}
		}
	} else {
		me = NULL;
	}
	list = kt_steal(w, true, 0, 0, me);
	kt_sig_guard_enter(&guard);
	if (own) {
		own->next = list;
		list = own;
	}
	q = kt_queue_take(w, &nq);
	atomic_fetch_sub(&w->queued, nq);
	for (tail = &list; *tail; tail = &(*tail)->next)
		;
	*tail = q;
	list = kt_wbuf_sort(list);

	for (b = list; b; b = next) {
		next = b->next;
		if (!err) {
			size_t len = b == own ? own_len :
				     __atomic_load_n(&b->len, __ATOMIC_ACQUIRE);

			err = kt_emerg_buf(w, b, len, &records);
			if (!err && b == own)
				__atomic_store_n(&own->skip, own_len,
						 __ATOMIC_RELAXED);
		} else {
			atomic_fetch_add(&w->lost, b->nrec);
		}
		/* The interrupted append still owns its buffer. */
		if (b != own)
			kt_emerg_return(w, b);
	}
	if (finish && !err) {
		err = kt_emerg_end(w, end_flags);
		/*
		 * Nothing may follow the END record: the writer thread, still
		 * running until the process exits, drops what it gets from now
		 * on (broken), and close writes nothing more (ended).
		 */
		atomic_store(&w->ended, true);
		atomic_store(&w->broken, true);
	}
	kt_sig_guard_leave(&guard);
out:
	if (claimed)
		atomic_store(&w->io_state, KT_IO_IDLE);
	return err;
}

int
kt_writer_emergency_flush(struct kt_writer *w)
{
	return kt_emerg(w, false, 0);
}

int
kt_writer_emergency_end(struct kt_writer *w)
{
	return kt_emerg(w, true, 0);
}

int
kt_writer_emergency_end_signal(struct kt_writer *w)
{
	return kt_emerg(w, true, KT_END_SIGNAL);
}

/* SPDX-License-Identifier: MIT */
/*
 * The recorder's dispatch hooks: one IOCTL record per attempt.
 *
 * before():	reads the before-images of the indirect buffers the caller
 *		passes in (IN and INOUT), while they still hold what the
 *		caller wrote. Only rows with buffers allocate anything.
 * after():	copies the argument bytes as the kernel left them, reads
 *		the after-images (OUT and INOUT, with lengths computed from
 *		the after-image of the arguments), and appends the record
 *		before the ioctl returns to its caller.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <kfdtrace/dispatch.h>
#include <kfdtrace/schema.h>

#include "recorder_priv.h"
#include "safecopy.h"

__thread struct kfd_recorder_span kfd_recorder_span
	__attribute__((tls_model("initial-exec")));

/* Per-attempt state, only for rows with indirect buffers. */
struct rec_call {
	unsigned int nimg;
	struct kt_buf_image img[];
};

/*
 * Whether a buffer holds opaque user bytes (metadata blobs) rather than
 * something the schema can describe: --no-buffers leaves those out.
 */
static int
rec_buf_is_user_data(const struct kfd_indirect *b)
{
	return !b->elem && b->elem_size <= 1 && b->len_kind != KFD_LEN_FIXED;
}

/*
 * Read one image of @len bytes at @addr into a fresh allocation.
 * Return protocol: the image pointer; NULL for an empty image, or with
 * KT_BUF_UNREADABLE added to *flags when the memory could not be read (the
 * image is then absent, but the lengths stay to say what was expected).
 */
static uint8_t *
rec_read_image(uint64_t addr, uint32_t len, uint16_t *flags)
{
	uint8_t *p;

	if (len == 0)
		return NULL;
	p = malloc(len);
	if (!p) {
		*flags |= KT_BUF_UNREADABLE;
		return NULL;
	}
	if (kfd_safe_copy(p, (const void *)(uintptr_t)addr, len) != 0) {
		free(p);
		*flags |= KT_BUF_UNREADABLE;
		return NULL;
	}
	return p;
}

/* Compute one image's length; 1 when the buffer is absent. */
static int
rec_image_len(const struct kfd_recorder *r, const struct kfd_ioctl_desc *desc,
	      const struct kfd_indirect *b, const void *args, size_t args_len,
	      int after, uint32_t *len, uint16_t *flags)
{
	size_t l = 0;
	int ret = kfd_indirect_len(desc, b, args, args_len, after, r->buf_cap,
				   &l);

	if (ret == 1)
		return 1;
	if (ret < 0)
		*flags |= KT_BUF_CLAMPED;
	*len = (uint32_t)l;
	return 0;
}

/*
 * Read the before-images of the row's indirect buffers. Called for rows
 * with indirect buffers only (KFD_HOOK_BEFORE_BUFFERS_ONLY).
 */
static int
rec_before(void *ctx, struct kfd_dispatch_call *call, void **cookie)
{
	struct kfd_recorder *r = ctx;
	const struct kfd_ioctl_desc *desc = call->desc;
	struct rec_call *rc;

	if (!call->arg_before)
		return KFD_HOOK_CONTINUE;
	rc = calloc(1, sizeof(*rc) + desc->nbufs * sizeof(rc->img[0]));
	if (!rc)
		return KFD_HOOK_CONTINUE;
	for (unsigned int i = 0; i < desc->nbufs; i++) {
		const struct kfd_indirect *b = &desc->bufs[i];
		struct kt_buf_image *img = &rc->img[rc->nimg];

		if (b->len_kind == KFD_LEN_TRAILING)
			continue;	/* inside the argument bytes already */
		/* The slot of a skipped buffer is reused by the next one. */
		memset(img, 0, sizeof(*img));
		img->index = (uint16_t)i;
		img->addr = kfd_indirect_ptr(desc, b, call->arg_before,
					     call->arg_size);
		if (!img->addr)
			continue;
		if (rec_image_len(r, desc, b, call->arg_before, call->arg_size,
				  0, &img->len_before, &img->flags) == 1)
			continue;
		rc->nimg++;
		if (!(b->dir & KFD_DIR_IN))
			continue;
		if ((r->flags & KFD_REC_NO_BUFFERS) && rec_buf_is_user_data(b)) {
			img->flags |= KT_BUF_OMITTED;
			continue;
		}
		img->before = rec_read_image(img->addr, img->len_before,
					     &img->flags);
		if (img->before || !img->len_before)
			img->flags |= KT_BUF_BEFORE;
	}
	*cookie = rc;
	return KFD_HOOK_CONTINUE;
}

/* Read the after-images of @rc, given the argument bytes after the call. */
static void
rec_after_images(const struct kfd_recorder *r,
		 const struct kfd_dispatch_call *call, struct rec_call *rc,
		 const void *args_after)
{
	const struct kfd_ioctl_desc *desc = call->desc;

	for (unsigned int i = 0; i < rc->nimg; i++) {
		struct kt_buf_image *img = &rc->img[i];
		const struct kfd_indirect *b = &desc->bufs[img->index];
		uint16_t lflags = 0;

		if (!(b->dir & KFD_DIR_OUT))
			continue;
		/*
		 * A failed call wrote nothing back. An EFAULT may be this
		 * buffer's: an output-only one was never read before the call,
		 * so say now whether it was readable, and a replay hands the
		 * kernel a bad address in its place too.
		 */
		if (call->ret == -1) {
			if (call->err == EFAULT && !(b->dir & KFD_DIR_IN) &&
			    !(img->flags & KT_BUF_CLAMPED))
				free(rec_read_image(img->addr, img->len_before,
						    &img->flags));
			continue;
		}
		if (!args_after || rec_image_len(r, desc, b, args_after,
						 call->arg_size, 1,
						 &img->len_after, &lflags) == 1)
			img->len_after = img->len_before;
		/* The filled count never exceeds the capacity passed in. */
		if ((b->len_kind == KFD_LEN_CAPACITY ||
		     b->len_kind == KFD_LEN_STRIDED) &&
		    img->len_after > img->len_before)
			img->len_after = img->len_before;
		img->flags |= lflags;
		if ((r->flags & KFD_REC_NO_BUFFERS) && rec_buf_is_user_data(b)) {
			img->flags |= KT_BUF_OMITTED;
			continue;
		}
		img->after = rec_read_image(img->addr, img->len_after,
					    &img->flags);
		if (img->after || !img->len_after)
			img->flags |= KT_BUF_AFTER;
	}
}

static void
rec_free_call(struct rec_call *rc)
{
	if (!rc)
		return;
	for (unsigned int i = 0; i < rc->nimg; i++) {
		free((void *)rc->img[i].before);
		free((void *)rc->img[i].after);
	}
	free(rc);
}

/*
 * The after-image of a failed call: guarded, since the failure may be
 * EFAULT from a range another thread unmapped meanwhile. Return: a copy
 * (malloc()ed) or NULL when the bytes cannot be read.
 */
static __attribute__((noinline)) uint8_t *
rec_copy_after(const struct kfd_dispatch_call *call)
{
	uint8_t *copy = malloc(call->arg_size);

	if (copy && kfd_safe_copy(copy, call->arg, call->arg_size)) {
		free(copy);
		copy = NULL;
	}
	return copy;
}

/* The thread's ioctls while an API span is open (tracer/api). */
static inline void
rec_span_note(uint64_t seq)
{
	if (__builtin_expect(kfd_recorder_span.first == UINT64_MAX, 0))
		kfd_recorder_span.first = seq;
	kfd_recorder_span.last = seq;
}

/*
 * rec_after() for everything but the common case: a failed call, a row
 * with indirect buffers.
 */
static __attribute__((noinline)) void
rec_after_slow(struct kfd_recorder *r, const struct kfd_dispatch_call *call,
	       struct rec_call *rc)
{
	uint8_t *copy = NULL;
	const uint8_t *after = NULL;
	struct kt_record rec;
	struct kt_ioctl_rec *io = &rec.u.ioctl;

	/*
	 * The number first: the call has completed, so seq order stays the
	 * order of completion. (Usually no locked add: the counter is biased
	 * to the thread that issues most records, see kt_writer_next_seq().)
	 */
	rec.seq = kt_writer_next_seq(r->w);
	rec_span_note(rec.seq);

	/*
	 * The bytes were readable a moment ago and a successful call has
	 * just used them: the writer reads the after-image straight from the
	 * caller's memory, with no copy of our own.
	 */
	if (call->arg_size && call->arg_before) {
		if (__builtin_expect(call->ret != -1, 1))
			after = call->arg;
		else
			after = copy = rec_copy_after(call);
	}
	if (rc)
		rec_after_images(r, call, rc, after);

	/* Every field is set: no memset of the whole record per ioctl. */
	rec.type = KT_REC_IOCTL;
	rec.ts = call->t_enter;
	rec.tid = call->tid;
	io->fd = call->fd;
	io->file_kind = (uint8_t)call->kind;
	io->request = (uint32_t)call->request;
	io->ret = call->ret;
	io->err = call->ret == -1 ? call->err : 0;
	io->t_exit = call->t_exit;
	io->arg_size = call->arg_before ? call->arg_size : 0;
	io->arg_before = call->arg_before;
	/* Readable before, not after: keep the sizes consistent. */
	io->arg_after = after || !io->arg_size ? after : call->arg_before;
	io->nbufs = rc ? (uint16_t)rc->nimg : 0;
	io->bufs = rc ? rc->img : NULL;
	kt_writer_append(r->w, &rec);

	/* Rarely anything to free: spare the hot path the calls. */
	if (__builtin_expect(copy != NULL, 0))
		free(copy);
	if (rc)
		rec_free_call(rc);
}

/*
 * The common case, a successful call on a row without indirect buffers,
 * goes to the writer as it is: no record to build, the number taken inside
 * the append (kt_writer_append_ioctl()).
 */
static void
rec_after(void *ctx, const struct kfd_dispatch_call *call, void *cookie)
{
	struct kfd_recorder *r = ctx;
	struct kt_ioctl_fast io;
	uint64_t seq;

	/* The thread's first record: its name first, at the same time. */
	if (__builtin_expect(kfd_rec_announced != r->id, 0))
		kfd_rec_announce(r, call->t_enter);
	if (__builtin_expect(cookie || call->ret == -1, 0)) {
		rec_after_slow(r, call, cookie);
		return;
	}
	io.ts = call->t_enter;
	io.t_exit = call->t_exit;
	/*
	 * The bytes were readable a moment ago and the call has just used
	 * them: the writer copies the after-image straight from the caller's
	 * memory.
	 */
	io.arg_before = call->arg_before;
	io.arg_after = call->arg_before ? call->arg : NULL;
	io.arg_size = call->arg_before ? call->arg_size : 0;
	io.request = (uint32_t)call->request;
	io.tid = call->tid;
	io.fd = call->fd;
	io.ret = call->ret;
	io.err = 0;
	io.file_kind = (uint8_t)call->kind;
	kt_writer_append_ioctl(r->w, &io, &seq);
	rec_span_note(seq);
}

static const struct kfd_dispatch_hooks rec_hooks = {
	.name = "recorder",
	.before = rec_before,
	.after = rec_after,
	/* rec_before() only reads indirect buffers. */
	.flags = KFD_HOOK_BEFORE_BUFFERS_ONLY,
};

int
kfd_rec_hooks_attach(struct kfd_recorder *r)
{
	return kfd_dispatch_hook_add(&rec_hooks, r);
}

void
kfd_rec_hooks_detach(struct kfd_recorder *r)
{
	kfd_dispatch_hook_remove(&rec_hooks, r);
}

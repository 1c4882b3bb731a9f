/* SPDX-License-Identifier: MIT */
/*
 * Deep copies of records. A record the reader returns points into the
 * reader's frame buffer, which the next kt_reader_next() reuses; tools that
 * hold records back (reorder windows, deferred waits, diffs) copy them out.
 * The copy is one allocation: the record, then every string, argument image,
 * buffer image and topology file it points to, each piece 8-byte aligned so
 * that struct arrays inside stay aligned. One free() releases it.
 */
#include <stdlib.h>
#include <string.h>

#include "kfdtrace/trace.h"

#define A8(x) (((x) + 7) & ~(size_t)7)

/*
 * Where the next piece goes: @off bytes after the record. The counting pass
 * has no destination (@base NULL) and only advances @off; the copy pass
 * then lays the pieces out at the same offsets.
 */
struct clone_cur {
	char *base;
	size_t off;
};

/* Reserve @n bytes (8-byte aligned). Return: where, NULL when counting. */
static void *
take(struct clone_cur *c, size_t n)
{
	size_t off = c->off;

	c->off += A8(n);
	return c->base ? c->base + off : NULL;
}

/* Copy an optional piece: an absent one may state any length. */
static void *
put_bytes(struct clone_cur *c, const void *src, size_t n)
{
	void *d;

	if (!src)
		return NULL;
	d = take(c, n);
	if (d && n)
		memcpy(d, src, n);
	return d;
}

static const char *
put_str(struct clone_cur *c, const char *s)
{
	return s ? put_bytes(c, s, strlen(s) + 1) : NULL;
}

/*
 * Walk the pieces of @rec, pointing @dst (a copy of @rec's fixed part) at
 * their copies. One walk serves both passes, so the size counted is the
 * size laid out; when counting, @dst is scratch.
 */
static void
clone_tail(struct clone_cur *c, const struct kt_record *rec,
	   struct kt_record *dst)
{
	uint32_t i;

	switch (rec->type) {
	case KT_REC_IOCTL: {
		const struct kt_ioctl_rec *io = &rec->u.ioctl;
		struct kt_buf_image *bi;

		dst->u.ioctl.arg_before = put_bytes(c, io->arg_before,
						    io->arg_size);
		dst->u.ioctl.arg_after = put_bytes(c, io->arg_after,
						   io->arg_size);
		if (!io->bufs)
			break;
		bi = take(c, (size_t)io->nbufs * sizeof(*bi));
		for (i = 0; i < io->nbufs; i++) {
			struct kt_buf_image b = io->bufs[i];

			b.before = put_bytes(c, b.before, b.len_before);
			b.after = put_bytes(c, b.after, b.len_after);
			if (bi)
				bi[i] = b;
		}
		dst->u.ioctl.bufs = bi;
		break;
	}
	case KT_REC_OPEN:
		dst->u.open.path = put_str(c, rec->u.open.path);
		break;
	case KT_REC_EXEC:
		dst->u.exec.path = put_str(c, rec->u.exec.path);
		dst->u.exec.argv = put_bytes(c, rec->u.exec.argv,
					     rec->u.exec.argv_len);
		break;
	case KT_REC_THREAD_NAME:
		dst->u.thread_name.name = put_str(c, rec->u.thread_name.name);
		break;
	case KT_REC_ANNOTATION:
		dst->u.annotation.text = put_str(c, rec->u.annotation.text);
		break;
	case KT_REC_API_CALL:
		dst->u.api.name = put_str(c, rec->u.api.name);
		dst->u.api.args = put_str(c, rec->u.api.args);
		break;
	case KT_REC_SUBMIT:
		dst->u.submit.data = put_bytes(c, rec->u.submit.data,
					       rec->u.submit.len);
		break;
	case KT_REC_MEMORY:
		dst->u.memory.data = put_bytes(c, rec->u.memory.data,
					       rec->u.memory.len);
		dst->u.memory.delta = put_bytes(c, rec->u.memory.delta,
						rec->u.memory.delta_len);
		break;
	case KT_REC_FD_TRANSFER:
		dst->u.xfer.name = put_str(c, rec->u.xfer.name);
		dst->u.xfer.peer_name = put_str(c, rec->u.xfer.peer_name);
		dst->u.xfer.fds = put_bytes(c, rec->u.xfer.fds,
					    (size_t)rec->u.xfer.nfds *
					    sizeof(*rec->u.xfer.fds));
		break;
	case KT_REC_TOPOLOGY: {
		const struct kt_topology_rec *t = &rec->u.topology;
		struct kt_topo_file *tf;

		if (!t->files)
			break;
		tf = take(c, (size_t)t->nfiles * sizeof(*tf));
		for (i = 0; i < t->nfiles; i++) {
			struct kt_topo_file f = t->files[i];

			f.path = put_str(c, f.path);
			f.data = put_bytes(c, f.data, f.len);
			if (tf)
				tf[i] = f;
		}
		dst->u.topology.files = tf;
		break;
	}
	default:
		break;
	}
}

void *
kt_record_clone_after(const struct kt_record *rec, size_t head,
		      size_t *bytes)
{
	struct clone_cur cur = { NULL, 0 };
	struct kt_record scratch, *c;
	size_t size;
	char *p;

	if (!rec || head % 8)
		return NULL;
	scratch = *rec;
	clone_tail(&cur, rec, &scratch);
	size = head + A8(sizeof(*rec)) + cur.off;
	p = malloc(size);
	if (!p)
		return NULL;
	c = (struct kt_record *)(p + head);
	*c = *rec;
	cur.base = (char *)c + A8(sizeof(*rec));
	cur.off = 0;
	clone_tail(&cur, rec, c);
	if (bytes)
		*bytes = size;
	return p;
}

struct kt_record *
kt_record_clone(const struct kt_record *rec)
{
	return kt_record_clone_after(rec, 0, NULL);
}

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

static size_t
str_need(const char *s)
{
	return s ? A8(strlen(s) + 1) : 0;
}

/* Bytes of an optional piece: an absent one may state any length. */
static size_t
bytes_need(const void *p, size_t n)
{
	return p ? A8(n) : 0;
}

/* Bytes the pieces of @rec need after the record itself. */
static size_t
tail_need(const struct kt_record *rec)
{
	size_t need = 0;
	uint32_t i;

	switch (rec->type) {
	case KT_REC_IOCTL: {
		const struct kt_ioctl_rec *io = &rec->u.ioctl;

		need += bytes_need(io->arg_before, io->arg_size) +
			bytes_need(io->arg_after, io->arg_size);
		if (!io->bufs)
			break;
		need += A8((size_t)io->nbufs * sizeof(struct kt_buf_image));
		for (i = 0; i < io->nbufs; i++)
			need += bytes_need(io->bufs[i].before, io->bufs[i].len_before) +
				bytes_need(io->bufs[i].after, io->bufs[i].len_after);
		break;
	}
	case KT_REC_OPEN:
		need += str_need(rec->u.open.path);
		break;
	case KT_REC_EXEC:
		need += str_need(rec->u.exec.path) +
			bytes_need(rec->u.exec.argv, rec->u.exec.argv_len);
		break;
	case KT_REC_THREAD_NAME:
		need += str_need(rec->u.thread_name.name);
		break;
	case KT_REC_ANNOTATION:
		need += str_need(rec->u.annotation.text);
		break;
	case KT_REC_API_CALL:
		need += str_need(rec->u.api.name) + str_need(rec->u.api.args);
		break;
	case KT_REC_TOPOLOGY: {
		const struct kt_topology_rec *t = &rec->u.topology;

		if (!t->files)
			break;
		need += A8((size_t)t->nfiles * sizeof(struct kt_topo_file));
		for (i = 0; i < t->nfiles; i++)
			need += str_need(t->files[i].path) +
				bytes_need(t->files[i].data, t->files[i].len);
		break;
	}
	default:
		break;
	}
	return need;
}

/* Bump allocation inside the copy. */
static void *
put_bytes(char **p, const void *src, size_t n)
{
	void *d;

	if (!src)
		return NULL;
	d = *p;
	if (n)
		memcpy(d, src, n);
	*p += A8(n);
	return d;
}

static const char *
put_str(char **p, const char *s)
{
	return s ? put_bytes(p, s, strlen(s) + 1) : NULL;
}

struct kt_record *
kt_record_clone(const struct kt_record *rec)
{
	size_t head = A8(sizeof(*rec));
	struct kt_record *c;
	uint32_t i;
	char *p;

	if (!rec)
		return NULL;
	c = malloc(head + tail_need(rec));
	if (!c)
		return NULL;
	*c = *rec;
	p = (char *)c + head;
	switch (rec->type) {
	case KT_REC_IOCTL: {
		const struct kt_ioctl_rec *io = &rec->u.ioctl;
		struct kt_buf_image *bi = NULL;

		c->u.ioctl.arg_before = put_bytes(&p, io->arg_before, io->arg_size);
		c->u.ioctl.arg_after = put_bytes(&p, io->arg_after, io->arg_size);
		if (io->bufs) {
			bi = (struct kt_buf_image *)p;
			p += A8((size_t)io->nbufs * sizeof(*bi));
			for (i = 0; i < io->nbufs; i++) {
				bi[i] = io->bufs[i];
				bi[i].before = put_bytes(&p, io->bufs[i].before,
							 io->bufs[i].len_before);
				bi[i].after = put_bytes(&p, io->bufs[i].after,
							io->bufs[i].len_after);
			}
		}
		c->u.ioctl.bufs = bi;
		break;
	}
	case KT_REC_OPEN:
		c->u.open.path = put_str(&p, rec->u.open.path);
		break;
	case KT_REC_EXEC:
		c->u.exec.path = put_str(&p, rec->u.exec.path);
		c->u.exec.argv = put_bytes(&p, rec->u.exec.argv,
					   rec->u.exec.argv_len);
		break;
	case KT_REC_THREAD_NAME:
		c->u.thread_name.name = put_str(&p, rec->u.thread_name.name);
		break;
	case KT_REC_ANNOTATION:
		c->u.annotation.text = put_str(&p, rec->u.annotation.text);
		break;
	case KT_REC_API_CALL:
		c->u.api.name = put_str(&p, rec->u.api.name);
		c->u.api.args = put_str(&p, rec->u.api.args);
		break;
	case KT_REC_TOPOLOGY: {
		const struct kt_topology_rec *t = &rec->u.topology;
		struct kt_topo_file *tf = NULL;

		if (t->files) {
			tf = (struct kt_topo_file *)p;
			p += A8((size_t)t->nfiles * sizeof(*tf));
			for (i = 0; i < t->nfiles; i++) {
				tf[i].path = put_str(&p, t->files[i].path);
				tf[i].len = t->files[i].len;
				tf[i].data = put_bytes(&p, t->files[i].data,
						       t->files[i].len);
			}
		}
		c->u.topology.files = tf;
		break;
	}
	default:
		break;
	}
	return c;
}

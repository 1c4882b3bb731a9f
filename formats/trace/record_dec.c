/* SPDX-License-Identifier: MIT */
/*
 * Record decoding (docs/trace-format.md section 5) in place: pointers in the
 * returned record point into the decompressed frame, so a scan allocates
 * nothing per record. Every length is checked against the bytes left in the
 * record before it is used; the input may be hostile.
 *
 * An ioctl whose after-image is stored XORed with its before-image is
 * restored in the frame buffer, so each decompressed frame must be decoded
 * exactly once (the reader re-decompresses on seek).
 */
#include <errno.h>
#include <stdlib.h>

#include "trace_internal.h"

struct kt_cur {
	const uint8_t *q;
	const uint8_t *end;
	const char *why;
};

#define KT_FAIL(c, msg)	((c)->why = (msg), false)

static inline __attribute__((always_inline)) bool
kt_cur_u64(struct kt_cur *c, uint64_t *v, const char *what)
{
	if (KT_LIKELY(kt_get_varint(&c->q, c->end, v)))
		return true;
	return KT_FAIL(c, what);
}

static inline __attribute__((always_inline)) bool
kt_cur_u32(struct kt_cur *c, uint32_t *v, uint64_t max, const char *what)
{
	uint64_t x;

	if (!kt_cur_u64(c, &x, what))
		return false;
	if (x > max)
		return KT_FAIL(c, what);
	*v = (uint32_t)x;
	return true;
}

static inline __attribute__((always_inline)) bool
kt_cur_s64(struct kt_cur *c, int64_t *v, const char *what)
{
	uint64_t x;

	if (!kt_cur_u64(c, &x, what))
		return false;
	*v = kt_unzigzag(x);
	return true;
}

static inline __attribute__((always_inline)) bool
kt_cur_s32(struct kt_cur *c, int32_t *v, const char *what)
{
	int64_t x;

	if (!kt_cur_s64(c, &x, what))
		return false;
	if (x < INT32_MIN || x > INT32_MAX)
		return KT_FAIL(c, what);
	*v = (int32_t)x;
	return true;
}

static inline __attribute__((always_inline)) bool
kt_cur_u8(struct kt_cur *c, uint8_t *v, const char *what)
{
	if (c->q >= c->end)
		return KT_FAIL(c, what);
	*v = *c->q++;
	return true;
}

static inline __attribute__((always_inline)) bool
kt_cur_take(struct kt_cur *c, uint64_t n, const uint8_t **out,
	    const char *what)
{
	if (n > (uint64_t)(c->end - c->q))
		return KT_FAIL(c, what);
	*out = c->q;
	c->q += n;
	return true;
}

/* A string is a length, the bytes and a NUL, so it can be handed out in place. */
static inline __attribute__((always_inline)) bool
kt_cur_str(struct kt_cur *c, size_t max, const char **out, const char *what)
{
	uint64_t n;

	if (!kt_cur_u64(c, &n, what))
		return false;
	if (n > max || n >= (uint64_t)(c->end - c->q) || c->q[n] != 0)
		return KT_FAIL(c, what);
	*out = (const char *)c->q;
	c->q += n + 1;
	return true;
}

static inline __attribute__((always_inline)) bool
kt_cur_bytes(struct kt_cur *c, size_t max, const uint8_t **out, uint32_t *len,
	     const char *what)
{
	uint64_t n;

	if (!kt_cur_u64(c, &n, what))
		return false;
	if (n > max)
		return KT_FAIL(c, what);
	*len = (uint32_t)n;
	return kt_cur_take(c, n, out, what);
}

/*
 * after ^= before, 16 bytes at a time (the frame buffer is ours to modify):
 * KFD arguments are mostly 8 to 64 bytes, so one to four vector steps.
 */
typedef uint8_t kt_v16 __attribute__((vector_size(16)));

static inline __attribute__((always_inline)) void
kt_unxor(uint8_t *after, const uint8_t *before, size_t n)
{
	size_t i = 0;

	for (; i + 16 <= n; i += 16) {
		kt_v16 x, y;

		memcpy(&x, after + i, 16);
		memcpy(&y, before + i, 16);
		x ^= y;
		memcpy(after + i, &x, 16);
	}
	if (i + 8 <= n) {
		uint64_t x, y;

		memcpy(&x, after + i, 8);
		memcpy(&y, before + i, 8);
		x ^= y;
		memcpy(after + i, &x, 8);
		i += 8;
	}
	for (; i < n; i++)
		after[i] ^= before[i];
}

static inline __attribute__((always_inline)) bool
kt_dec_ioctl(struct kt_cur *c, struct kt_dec *dec, struct kt_record *rec)
{
	struct kt_ioctl_rec *io = &rec->u.ioctl;
	const uint8_t *req, *before = NULL, *after = NULL;
	int64_t dexit;
	uint8_t af;

	if (!kt_cur_s64(c, &dexit, "ioctl exit time") ||
	    !kt_cur_s32(c, &io->fd, "ioctl fd") ||
	    !kt_cur_u8(c, &io->file_kind, "ioctl file kind") ||
	    !kt_cur_take(c, 4, &req, "ioctl request"))
		return false;
	io->request = kt_get_le32(req);
	if (!kt_cur_s64(c, &io->ret, "ioctl return value") ||
	    !kt_cur_s32(c, &io->err, "ioctl errno") ||
	    !kt_cur_u32(c, &io->arg_size, KT_MAX_ARG_SIZE, "ioctl argument size") ||
	    !kt_cur_u8(c, &af, "ioctl argument flags"))
		return false;
	io->t_exit = rec->ts + (uint64_t)dexit;
	if ((af & KT_AF_REQUIRED) ||
	    ((af & KT_AF_XOR) && (af & 3) != (KT_AF_BEFORE | KT_AF_AFTER)))
		return KT_FAIL(c, "ioctl argument flags unknown");
	if ((af & KT_AF_BEFORE) &&
	    !kt_cur_take(c, io->arg_size, &before, "ioctl before-image"))
		return false;
	if ((af & KT_AF_AFTER) &&
	    !kt_cur_take(c, io->arg_size, &after, "ioctl after-image"))
		return false;
	if (af & KT_AF_XOR)
		kt_unxor((uint8_t *)after, before, io->arg_size);
	io->arg_before = before;
	io->arg_after = after;
	{
		uint32_t nbufs;

		if (!kt_cur_u32(c, &nbufs, KT_MAX_BUFS, "ioctl buffer count"))
			return false;
		io->nbufs = (uint16_t)nbufs;
	}
	io->bufs = io->nbufs ? dec->bufs : NULL;
	for (unsigned int i = 0; i < io->nbufs; i++) {
		struct kt_buf_image *bi = &dec->bufs[i];
		uint32_t idx, flags;

		if (!kt_cur_u32(c, &idx, UINT16_MAX, "buffer index") ||
		    !kt_cur_u32(c, &flags, UINT16_MAX, "buffer flags") ||
		    !kt_cur_u64(c, &bi->addr, "buffer address") ||
		    !kt_cur_u32(c, &bi->len_before, UINT32_MAX, "buffer length") ||
		    !kt_cur_u32(c, &bi->len_after, UINT32_MAX, "buffer length"))
			return false;
		bi->index = (uint16_t)idx;
		bi->flags = (uint16_t)flags;
		bi->before = NULL;
		bi->after = NULL;
		if ((flags & KT_BUF_BEFORE) &&
		    !kt_cur_take(c, bi->len_before, &bi->before,
				 "buffer before-image"))
			return false;
		if ((flags & KT_BUF_AFTER) &&
		    !kt_cur_take(c, bi->len_after, &bi->after,
				 "buffer after-image"))
			return false;
	}
	return true;
}

static int
kt_dec_topology(struct kt_cur *c, struct kt_dec *dec, struct kt_record *rec)
{
	struct kt_topology_rec *t = &rec->u.topology;
	uint32_t n;

	/* A file takes at least 3 bytes, so the count is bounded by the record. */
	if (!kt_cur_u32(c, &n, KT_MAX_TOPO_FILES, "topology file count"))
		return -KT_ECORRUPT;
	if (n > (size_t)(c->end - c->q) / 3) {
		c->why = "topology file count";
		return -KT_ECORRUPT;
	}
	if (n > dec->files_cap) {
		struct kt_topo_file *f;

		f = realloc(dec->files, n * sizeof(*f));
		if (!f)
			return -ENOMEM;
		dec->files = f;
		dec->files_cap = n;
	}
	t->nfiles = n;
	t->files = n ? dec->files : NULL;
	for (uint32_t i = 0; i < n; i++) {
		struct kt_topo_file *f = &dec->files[i];

		if (!kt_cur_str(c, KT_MAX_PATH, &f->path, "topology path") ||
		    !kt_cur_bytes(c, KT_MAX_RECORD_SIZE, &f->data, &f->len,
				  "topology file data"))
			return -KT_ECORRUPT;
	}
	return 0;
}

static int
kt_dec_xfer(struct kt_cur *c, struct kt_dec *dec, struct kt_record *rec)
{
	struct kt_fd_transfer_rec *x = &rec->u.xfer;
	int64_t dexit;
	uint32_t n;

	if (!kt_cur_u8(c, &x->dir, "fd_transfer direction") ||
	    !kt_cur_u8(c, &x->flags, "fd_transfer flags") ||
	    !kt_cur_s32(c, &x->sock, "fd_transfer socket") ||
	    !kt_cur_s64(c, &dexit, "fd_transfer exit time") ||
	    !kt_cur_s64(c, &x->ret, "fd_transfer result") ||
	    !kt_cur_s32(c, &x->err, "fd_transfer errno") ||
	    !kt_cur_u64(c, &x->ino, "fd_transfer inode") ||
	    !kt_cur_u64(c, &x->peer_ino, "fd_transfer peer inode") ||
	    !kt_cur_s32(c, &x->peer_pid, "fd_transfer peer pid") ||
	    !kt_cur_str(c, KT_MAX_SOCK_NAME, &x->name, "fd_transfer name") ||
	    !kt_cur_str(c, KT_MAX_SOCK_NAME, &x->peer_name,
			"fd_transfer peer name") ||
	    !kt_cur_u32(c, &x->nfds_total, UINT32_MAX, "fd_transfer fd total") ||
	    !kt_cur_u32(c, &n, KT_MAX_XFER_FDS, "fd_transfer fd count"))
		return -KT_ECORRUPT;
	x->t_exit = rec->ts + (uint64_t)dexit;
	x->nfds = (uint16_t)n;
	for (uint32_t i = 0; i < n; i++)
		if (!kt_cur_s32(c, &dec->xfer_fds[i].fd, "fd_transfer fd") ||
		    !kt_cur_u8(c, &dec->xfer_fds[i].kind, "fd_transfer fd kind"))
			return -KT_ECORRUPT;
	x->fds = n ? dec->xfer_fds : NULL;
	return 0;
}

/* Every type but ioctl, out of line so the hot path keeps its cursor in registers. */
static int __attribute__((noinline))
kt_dec_body(struct kt_cur *c, struct kt_dec *dec, struct kt_record *rec)
{
	int64_t d1, d2, d3;
	bool ok = false;

	switch (rec->type) {
	case KT_REC_OPEN:
		ok = kt_cur_str(c, KT_MAX_PATH, &rec->u.open.path, "open path") &&
		     kt_cur_s32(c, &rec->u.open.flags, "open flags") &&
		     kt_cur_u32(c, &rec->u.open.mode, UINT32_MAX, "open mode") &&
		     kt_cur_u8(c, &rec->u.open.file_kind, "open file kind") &&
		     kt_cur_u64(c, &rec->u.open.rdev, "open rdev") &&
		     kt_cur_s64(c, &rec->u.open.ret, "open result") &&
		     kt_cur_s32(c, &rec->u.open.err, "open errno");
		break;
	case KT_REC_CLOSE:
		ok = kt_cur_s32(c, &rec->u.close.fd, "close fd") &&
		     kt_cur_s64(c, &rec->u.close.ret, "close result") &&
		     kt_cur_s32(c, &rec->u.close.err, "close errno");
		break;
	case KT_REC_DUP:
		ok = kt_cur_u8(c, &rec->u.dup.kind, "dup kind") &&
		     kt_cur_s32(c, &rec->u.dup.oldfd, "dup old fd") &&
		     kt_cur_s32(c, &rec->u.dup.newfd, "dup new fd") &&
		     kt_cur_s32(c, &rec->u.dup.flags, "dup flags") &&
		     kt_cur_s64(c, &rec->u.dup.ret, "dup result") &&
		     kt_cur_s32(c, &rec->u.dup.err, "dup errno");
		break;
	case KT_REC_MMAP:
		ok = kt_cur_u64(c, &rec->u.mmap.addr, "mmap address") &&
		     kt_cur_u64(c, &rec->u.mmap.len, "mmap length") &&
		     kt_cur_s32(c, &rec->u.mmap.prot, "mmap prot") &&
		     kt_cur_s32(c, &rec->u.mmap.flags, "mmap flags") &&
		     kt_cur_s32(c, &rec->u.mmap.fd, "mmap fd") &&
		     kt_cur_u8(c, &rec->u.mmap.file_kind, "mmap file kind") &&
		     kt_cur_u64(c, &rec->u.mmap.offset, "mmap offset") &&
		     kt_cur_u64(c, &rec->u.mmap.result, "mmap result") &&
		     kt_cur_s32(c, &rec->u.mmap.err, "mmap errno");
		break;
	case KT_REC_MUNMAP:
		ok = kt_cur_u64(c, &rec->u.munmap.addr, "munmap address") &&
		     kt_cur_u64(c, &rec->u.munmap.len, "munmap length") &&
		     kt_cur_s64(c, &rec->u.munmap.ret, "munmap result") &&
		     kt_cur_s32(c, &rec->u.munmap.err, "munmap errno");
		break;
	case KT_REC_FORK:
		ok = kt_cur_s32(c, &rec->u.fork.parent_pid, "fork parent") &&
		     kt_cur_s32(c, &rec->u.fork.child_pid, "fork child");
		break;
	case KT_REC_EXEC:
		ok = kt_cur_str(c, KT_MAX_PATH, &rec->u.exec.path, "exec path") &&
		     kt_cur_bytes(c, KT_MAX_ARGV,
				  (const uint8_t **)&rec->u.exec.argv,
				  &rec->u.exec.argv_len, "exec argv");
		break;
	case KT_REC_THREAD_NAME:
		ok = kt_cur_str(c, KT_MAX_NAME, &rec->u.thread_name.name,
				"thread name");
		break;
	case KT_REC_TOPOLOGY:
		return kt_dec_topology(c, dec, rec);
	case KT_REC_ANNOTATION:
		ok = kt_cur_str(c, KT_MAX_TEXT, &rec->u.annotation.text,
				"annotation text");
		break;
	case KT_REC_API_CALL:
		ok = kt_cur_str(c, KT_MAX_NAME, &rec->u.api.name, "api name") &&
		     kt_cur_str(c, KT_MAX_TEXT, &rec->u.api.args, "api args") &&
		     kt_cur_s32(c, &rec->u.api.status, "api status") &&
		     kt_cur_s64(c, &d1, "api exit time") &&
		     kt_cur_s64(c, &d2, "api first seq") &&
		     kt_cur_s64(c, &d3, "api last seq");
		if (ok) {
			rec->u.api.t_exit = rec->ts + (uint64_t)d1;
			rec->u.api.first_seq = rec->seq + (uint64_t)d2;
			rec->u.api.last_seq = rec->u.api.first_seq + (uint64_t)d3;
		}
		break;
	case KT_REC_END:
		ok = kt_cur_u32(c, &rec->u.end.flags, UINT32_MAX, "end flags") &&
		     kt_cur_u64(c, &rec->u.end.records, "end record count") &&
		     kt_cur_u64(c, &rec->u.end.lost, "end lost count");
		/* Format 1.5 on: the ioctls left out by choice. */
		rec->u.end.left_out = 0;
		if (ok && c->q < c->end)
			ok = kt_cur_u64(c, &rec->u.end.left_out,
					"end left-out count");
		break;
	case KT_REC_SUBMIT:
		ok = kt_cur_u32(c, &rec->u.submit.queue_id, UINT32_MAX,
				"submit queue") &&
		     kt_cur_u32(c, &rec->u.submit.gpu_id, UINT32_MAX,
				"submit gpu_id") &&
		     kt_cur_u8(c, &rec->u.submit.engine, "submit engine") &&
		     kt_cur_u8(c, &rec->u.submit.flags, "submit flags") &&
		     kt_cur_u64(c, &rec->u.submit.first, "submit first") &&
		     kt_cur_s64(c, &d1, "submit last") &&
		     kt_cur_u64(c, &rec->u.submit.ring, "submit ring") &&
		     kt_cur_u32(c, &rec->u.submit.ring_size, UINT32_MAX,
				"submit ring size") &&
		     kt_cur_bytes(c, KT_MAX_SUBMIT, &rec->u.submit.data,
				  &rec->u.submit.len, "submit packets");
		/* The KFD file: format 1.3 on; before it, unknown. */
		rec->u.submit.fd = -1;
		if (ok && c->q < c->end)
			ok = kt_cur_s32(c, &rec->u.submit.fd, "submit fd");
		if (ok)
			rec->u.submit.last = rec->u.submit.first + (uint64_t)d1;
		break;
	case KT_REC_MEMORY:
		ok = kt_cur_u64(c, &rec->u.memory.addr, "memory address") &&
		     kt_cur_u32(c, &rec->u.memory.full_len, UINT32_MAX,
				"memory length") &&
		     kt_cur_u8(c, &rec->u.memory.kind, "memory kind") &&
		     kt_cur_u8(c, &rec->u.memory.flags, "memory flags") &&
		     kt_cur_bytes(c, KT_MAX_SUBMIT, &rec->u.memory.data,
				  &rec->u.memory.len, "memory bytes");
		/* Format 1.4 on: the content hash (0 or 32 bytes). */
		rec->u.memory.hash_len = 0;
		rec->u.memory.delta_len = 0;
		rec->u.memory.delta = NULL;
		rec->u.memory.missing = KT_MEM_HAVE;
		if (ok && c->q < c->end) {
			const uint8_t *h;
			uint32_t n;

			ok = kt_cur_bytes(c, KT_MEM_HASH_LEN, &h, &n, "memory hash") &&
			     (n == 0 || n == KT_MEM_HASH_LEN);
			if (ok && n) {
				memcpy(rec->u.memory.hash, h, n);
				rec->u.memory.hash_len = (uint8_t)n;
			}
		}
		/* Format 1.7 on: the delta. */
		if (ok && c->q < c->end)
			ok = kt_cur_bytes(c, KT_MEM_DELTA_ENC_MAX,
					  &rec->u.memory.delta,
					  &rec->u.memory.delta_len, "memory delta");
		break;
	case KT_REC_FD_TRANSFER:
		return kt_dec_xfer(c, dec, rec);
	}
	return ok ? 0 : -KT_ECORRUPT;
}

long
kt_rec_decode(uint8_t *p, size_t avail, struct kt_dec *dec,
	      struct kt_record *rec, bool *known, const char **why)
{
	struct kt_cur c = { .q = p, .end = p + avail };
	struct kt_delta *d = &dec->delta;
	uint64_t len, a, b, ts;
	uint8_t type, rf;
	size_t total;
	int err;

	dec->bad_field = false;
	type = *c.q++;
	if (!kt_get_varint(&c.q, c.end, &len)) {
		*why = "record length runs past the end of the frame";
		return -KT_ECORRUPT;
	}
	if (len > (uint64_t)(c.end - c.q)) {
		*why = "record length runs past the end of the frame";
		return -KT_ECORRUPT;
	}
	c.end = c.q + len;
	total = (size_t)(c.end - p);
	if (type == 0) {
		*why = "record type 0";
		return -KT_ECORRUPT;
	}
	if (total > KT_MAX_RECORD_SIZE) {
		*why = "record larger than KT_MAX_RECORD_SIZE";
		return -KT_ECORRUPT;
	}
	if (!kt_cur_u8(&c, &rf, "record shorter than its common header"))
		goto bad;
	if (rf & KT_RF_REQUIRED) {
		*why = "record has required flags this reader does not know";
		return -KT_ECORRUPT;
	}
	if (!kt_cur_u64(&c, &a, "record common header") ||
	    !kt_cur_u64(&c, &b, "record common header"))
		goto bad;
	if (rf & KT_RF_BASE) {
		if (!kt_cur_u64(&c, &ts, "record common header"))
			goto bad;
		if (b > UINT32_MAX) {
			*why = "record thread id beyond 32 bits";
			return -KT_ECORRUPT;
		}
		kt_delta_set(d, a, ts, (uint32_t)b);
	} else {
		if (!d->valid) {
			*why = "delta record without a base record in its frame";
			return -KT_ECORRUPT;
		}
		d->seq += (uint64_t)kt_unzigzag(a);
		d->ts += (uint64_t)kt_unzigzag(b);
	}
	rec->type = type;
	rec->seq = d->seq;
	rec->tid = d->tid;
	rec->ts = d->ts;
	if (type >= KT_REC_TYPE_MAX) {
		*known = false;
		return (long)total;
	}
	*known = true;
	if (KT_LIKELY(type == KT_REC_IOCTL)) {
		if (!kt_dec_ioctl(&c, dec, rec))
			goto bad;
		return (long)total;
	} else {
		/* A copy: the hot path's cursor never has its address taken. */
		struct kt_cur oc = c;

		err = kt_dec_body(&oc, dec, rec);
		c.why = oc.why;
	}
	if (err == -KT_ECORRUPT)
		goto bad;
	if (err)
		return err;
	return (long)total;
bad:
	*why = c.why;
	dec->bad_field = true;
	return -KT_ECORRUPT;
}

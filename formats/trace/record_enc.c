/* SPDX-License-Identifier: MIT */
/*
 * Record encoding (docs/trace-format.md section 5). This runs on the traced
 * thread for most record types (the common ioctl record is stored raw and
 * encoded by the writer thread, see struct kt_raw_ioctl), so it makes one
 * pass: kt_rec_bound() checks the record and gives a size that is never
 * exceeded, kt_rec_encode() writes it straight into the thread's buffer
 * with the length field reserved at the width the bound needs. The pieces
 * an ioctl record is made of are inline in record_put.h, which the writer
 * uses directly for the common record.
 */
#include <errno.h>

#include "record_put.h"

#define KT_STR_BOUND(n)		(5 + (size_t)(n) + 1)
#define KT_BYTES_BOUND(n)	(5 + (size_t)(n))
#define V			KT_VARINT_MAX

static inline size_t
kt_strlen_max(const char *s, size_t max, bool *too_long)
{
	size_t n;

	if (!s)
		return 0;
	n = strnlen(s, max + 1);
	if (n > max)
		*too_long = true;
	return n;
}

static int
kt_ioctl_bound(const struct kt_ioctl_rec *io, size_t *bound)
{
	size_t b = KT_IOCTL_FIXED_BOUND;

	if (io->arg_size > KT_MAX_ARG_SIZE || io->nbufs > KT_MAX_BUFS)
		return -KT_ETOOBIG;
	if (io->nbufs && !io->bufs)
		return -EINVAL;
	b += 2 * (size_t)io->arg_size;
	for (unsigned int i = 0; i < io->nbufs; i++) {
		const struct kt_buf_image *bi = &io->bufs[i];

		b += 3 + 3 + V + 5 + 5;
		if (bi->flags & KT_BUF_BEFORE) {
			if (!bi->before && bi->len_before)
				return -EINVAL;
			b += bi->len_before;
		}
		if (bi->flags & KT_BUF_AFTER) {
			if (!bi->after && bi->len_after)
				return -EINVAL;
			b += bi->len_after;
		}
	}
	*bound = b;
	return 0;
}

static int
kt_topology_bound(const struct kt_topology_rec *t, size_t *bound)
{
	size_t b = 5;
	bool too_long = false;

	if (t->nfiles > KT_MAX_TOPO_FILES)
		return -KT_ETOOBIG;
	if (t->nfiles && !t->files)
		return -EINVAL;
	for (uint32_t i = 0; i < t->nfiles; i++) {
		const struct kt_topo_file *f = &t->files[i];

		if (!f->data && f->len)
			return -EINVAL;
		b += KT_STR_BOUND(kt_strlen_max(f->path, KT_MAX_PATH,
						&too_long));
		b += KT_BYTES_BOUND(f->len);
		if (b > KT_MAX_RECORD_SIZE)
			return -KT_ETOOBIG;
	}
	if (too_long)
		return -KT_ETOOBIG;
	*bound = b;
	return 0;
}

int
kt_rec_bound(const struct kt_record *rec, size_t *bound)
{
	const char *s1 = NULL, *s2 = NULL;
	size_t max1 = 0, max2 = 0, b = 0;
	bool too_long = false;
	int err;

	switch (rec->type) {
	case KT_REC_IOCTL:
		err = kt_ioctl_bound(&rec->u.ioctl, &b);
		if (err)
			return err;
		break;
	case KT_REC_OPEN:
		s1 = rec->u.open.path;
		max1 = KT_MAX_PATH;
		b = 5 + 5 + 1 + V + V + 5;
		break;
	case KT_REC_CLOSE:
		b = 5 + V + 5;
		break;
	case KT_REC_DUP:
		b = 1 + 5 + 5 + 5 + V + 5;
		break;
	case KT_REC_MMAP:
		b = V + V + 5 + 5 + 5 + 1 + V + V + 5;
		break;
	case KT_REC_MUNMAP:
		b = V + V + V + 5;
		break;
	case KT_REC_FORK:
		b = 5 + 5;
		break;
	case KT_REC_EXEC:
		s1 = rec->u.exec.path;
		max1 = KT_MAX_PATH;
		if (rec->u.exec.argv_len > KT_MAX_ARGV)
			return -KT_ETOOBIG;
		if (!rec->u.exec.argv && rec->u.exec.argv_len)
			return -EINVAL;
		b = KT_BYTES_BOUND(rec->u.exec.argv_len);
		break;
	case KT_REC_THREAD_NAME:
		s1 = rec->u.thread_name.name;
		max1 = KT_MAX_NAME;
		break;
	case KT_REC_TOPOLOGY:
		err = kt_topology_bound(&rec->u.topology, &b);
		if (err)
			return err;
		break;
	case KT_REC_ANNOTATION:
		s1 = rec->u.annotation.text;
		max1 = KT_MAX_TEXT;
		break;
	case KT_REC_API_CALL:
		s1 = rec->u.api.name;
		max1 = KT_MAX_NAME;
		s2 = rec->u.api.args;
		max2 = KT_MAX_TEXT;
		b = 5 + V + V + V;
		break;
	case KT_REC_END:
		b = 5 + V + V + V;
		break;
	case KT_REC_SUBMIT:
		if (rec->u.submit.len > KT_MAX_SUBMIT)
			return -KT_ETOOBIG;
		if (!rec->u.submit.data && rec->u.submit.len)
			return -EINVAL;
		b = 5 + 5 + 1 + 1 + V + V + V + 5 +
		    KT_BYTES_BOUND(rec->u.submit.len) + 5;
		break;
	case KT_REC_MEMORY:
		if (rec->u.memory.len > KT_MAX_SUBMIT)
			return -KT_ETOOBIG;
		if (!rec->u.memory.data && rec->u.memory.len)
			return -EINVAL;
		if (rec->u.memory.hash_len != 0 &&
		    rec->u.memory.hash_len != KT_MEM_HASH_LEN)
			return -EINVAL;
		if (rec->u.memory.delta_len > KT_MEM_DELTA_ENC_MAX ||
		    (!rec->u.memory.delta && rec->u.memory.delta_len))
			return -EINVAL;
		b = V + 5 + 1 + 1 + KT_BYTES_BOUND(rec->u.memory.len) +
		    KT_BYTES_BOUND(KT_MEM_HASH_LEN) +
		    KT_BYTES_BOUND(rec->u.memory.delta_len);
		break;
	case KT_REC_FD_TRANSFER:
		if (rec->u.xfer.nfds > KT_MAX_XFER_FDS)
			return -KT_ETOOBIG;
		if (!rec->u.xfer.fds && rec->u.xfer.nfds)
			return -EINVAL;
		s1 = rec->u.xfer.name;
		max1 = KT_MAX_SOCK_NAME;
		s2 = rec->u.xfer.peer_name;
		max2 = KT_MAX_SOCK_NAME;
		/* dir, flags, sock, dexit, ret, err, inodes, pid, counts */
		b = 1 + 1 + 5 + V + V + 5 + V + V + 5 + 5 + 5 +
		    (size_t)rec->u.xfer.nfds * (5 + 1);
		break;
	default:
		return -EINVAL;
	}
	if (max1)
		b += KT_STR_BOUND(kt_strlen_max(s1, max1, &too_long));
	if (max2)
		b += KT_STR_BOUND(kt_strlen_max(s2, max2, &too_long));
	if (too_long)
		return -KT_ETOOBIG;
	b += KT_COMMON_BOUND;
	if (b > KT_MAX_RECORD_SIZE)
		return -KT_ETOOBIG;
	*bound = b;
	return 0;
}

static inline uint8_t *
kt_put_str(uint8_t *p, const char *s)
{
	size_t n = s ? strlen(s) : 0;

	p = kt_put_varint(p, n);
	if (n)
		memcpy(p, s, n);
	p[n] = 0;
	return p + n + 1;
}

static inline uint8_t *
kt_put_bytes(uint8_t *p, const void *data, size_t n)
{
	p = kt_put_varint(p, n);
	if (n)
		memcpy(p, data, n);
	return p + n;
}

static uint8_t *
kt_put_body(uint8_t *p, const struct kt_record *rec)
{
	const struct kt_topology_rec *topo;

	switch (rec->type) {
	case KT_REC_IOCTL:
		return kt_put_ioctl(p, rec);
	case KT_REC_OPEN:
		p = kt_put_str(p, rec->u.open.path);
		p = kt_put_svarint(p, rec->u.open.flags);
		p = kt_put_varint(p, rec->u.open.mode);
		*p++ = rec->u.open.file_kind;
		p = kt_put_varint(p, rec->u.open.rdev);
		p = kt_put_svarint(p, rec->u.open.ret);
		return kt_put_svarint(p, rec->u.open.err);
	case KT_REC_CLOSE:
		p = kt_put_svarint(p, rec->u.close.fd);
		p = kt_put_svarint(p, rec->u.close.ret);
		return kt_put_svarint(p, rec->u.close.err);
	case KT_REC_DUP:
		*p++ = rec->u.dup.kind;
		p = kt_put_svarint(p, rec->u.dup.oldfd);
		p = kt_put_svarint(p, rec->u.dup.newfd);
		p = kt_put_svarint(p, rec->u.dup.flags);
		p = kt_put_svarint(p, rec->u.dup.ret);
		return kt_put_svarint(p, rec->u.dup.err);
	case KT_REC_MMAP:
		p = kt_put_varint(p, rec->u.mmap.addr);
		p = kt_put_varint(p, rec->u.mmap.len);
		p = kt_put_svarint(p, rec->u.mmap.prot);
		p = kt_put_svarint(p, rec->u.mmap.flags);
		p = kt_put_svarint(p, rec->u.mmap.fd);
		*p++ = rec->u.mmap.file_kind;
		p = kt_put_varint(p, rec->u.mmap.offset);
		p = kt_put_varint(p, rec->u.mmap.result);
		return kt_put_svarint(p, rec->u.mmap.err);
	case KT_REC_MUNMAP:
		p = kt_put_varint(p, rec->u.munmap.addr);
		p = kt_put_varint(p, rec->u.munmap.len);
		p = kt_put_svarint(p, rec->u.munmap.ret);
		return kt_put_svarint(p, rec->u.munmap.err);
	case KT_REC_FORK:
		p = kt_put_svarint(p, rec->u.fork.parent_pid);
		return kt_put_svarint(p, rec->u.fork.child_pid);
	case KT_REC_EXEC:
		p = kt_put_str(p, rec->u.exec.path);
		return kt_put_bytes(p, rec->u.exec.argv, rec->u.exec.argv_len);
	case KT_REC_THREAD_NAME:
		return kt_put_str(p, rec->u.thread_name.name);
	case KT_REC_TOPOLOGY:
		topo = &rec->u.topology;
		p = kt_put_varint(p, topo->nfiles);
		for (uint32_t i = 0; i < topo->nfiles; i++) {
			p = kt_put_str(p, topo->files[i].path);
			p = kt_put_bytes(p, topo->files[i].data,
					 topo->files[i].len);
		}
		return p;
	case KT_REC_ANNOTATION:
		return kt_put_str(p, rec->u.annotation.text);
	case KT_REC_API_CALL:
		p = kt_put_str(p, rec->u.api.name);
		p = kt_put_str(p, rec->u.api.args);
		p = kt_put_svarint(p, rec->u.api.status);
		p = kt_put_svarint(p, (int64_t)(rec->u.api.t_exit - rec->ts));
		p = kt_put_svarint(p, (int64_t)(rec->u.api.first_seq - rec->seq));
		return kt_put_svarint(p, (int64_t)(rec->u.api.last_seq -
						   rec->u.api.first_seq));
	case KT_REC_END:
		p = kt_put_varint(p, rec->u.end.flags);
		p = kt_put_varint(p, rec->u.end.records);
		p = kt_put_varint(p, rec->u.end.lost);
		return kt_put_varint(p, rec->u.end.left_out);
	case KT_REC_SUBMIT:
		p = kt_put_varint(p, rec->u.submit.queue_id);
		p = kt_put_varint(p, rec->u.submit.gpu_id);
		*p++ = rec->u.submit.engine;
		*p++ = rec->u.submit.flags;
		p = kt_put_varint(p, rec->u.submit.first);
		p = kt_put_svarint(p, (int64_t)(rec->u.submit.last -
						rec->u.submit.first));
		p = kt_put_varint(p, rec->u.submit.ring);
		p = kt_put_varint(p, rec->u.submit.ring_size);
		p = kt_put_bytes(p, rec->u.submit.data, rec->u.submit.len);
		/* Format 1.3: appended, so older readers skip it. */
		return kt_put_svarint(p, rec->u.submit.fd);
	case KT_REC_MEMORY: {
		uint8_t mf = rec->u.memory.flags;

		/*
		 * A record with its bytes (one a reader resolved, written
		 * again by a tool) holds them: its new file may lack what
		 * the reference named (the earlier record, the store).
		 */
		if (rec->u.memory.len)
			mf &= (uint8_t)~(KT_MEM_REF | KT_MEM_STORE | KT_MEM_DELTA);
		p = kt_put_varint(p, rec->u.memory.addr);
		p = kt_put_varint(p, rec->u.memory.full_len);
		*p++ = rec->u.memory.kind;
		*p++ = mf;
		p = kt_put_bytes(p, rec->u.memory.data, rec->u.memory.len);
		/* Format 1.4: the content hash, when there is one; 1.7:
		 * then the delta (after an empty hash if need be). */
		if (!rec->u.memory.hash_len && !(mf & KT_MEM_DELTA))
			return p;
		p = kt_put_bytes(p, rec->u.memory.hash, rec->u.memory.hash_len);
		if (!(mf & KT_MEM_DELTA))
			return p;
		return kt_put_bytes(p, rec->u.memory.delta, rec->u.memory.delta_len);
	}
	case KT_REC_FD_TRANSFER: {
		const struct kt_fd_transfer_rec *x = &rec->u.xfer;

		*p++ = x->dir;
		*p++ = x->flags;
		p = kt_put_svarint(p, x->sock);
		p = kt_put_svarint(p, (int64_t)(x->t_exit - rec->ts));
		p = kt_put_svarint(p, x->ret);
		p = kt_put_svarint(p, x->err);
		p = kt_put_varint(p, x->ino);
		p = kt_put_varint(p, x->peer_ino);
		p = kt_put_svarint(p, x->peer_pid);
		p = kt_put_str(p, x->name);
		p = kt_put_str(p, x->peer_name);
		p = kt_put_varint(p, x->nfds_total);
		p = kt_put_varint(p, x->nfds);
		for (unsigned int i = 0; i < x->nfds; i++) {
			p = kt_put_svarint(p, x->fds[i].fd);
			*p++ = x->fds[i].kind;
		}
		return p;
	}
	}
	return p;
}

size_t
kt_rec_encode(uint8_t *dst, const struct kt_record *rec, struct kt_delta *d,
	      size_t bound)
{
	unsigned int lw = kt_len_width(bound);
	uint8_t *body = dst + 1 + lw;
	uint8_t *p = kt_put_head(dst, body, rec, d);

	p = kt_put_body(p, rec);
	return kt_put_end(dst, body, p, lw, rec, d);
}

/*
 * Common-header walk over bytes this process wrote itself (a thread buffer),
 * for the emergency flush and the writer thread. @end only guards against a
 * bug, so failures return 0 rather than a diagnosis.
 */
static const uint8_t *
kt_common_skim(const uint8_t *p, const uint8_t *end, struct kt_delta *d,
	       uint64_t *len, const uint8_t **body)
{
	const uint8_t *q = p + 1;
	uint64_t a, b, c = 0;
	uint8_t rf;

	if (q >= end || !kt_get_varint(&q, end, len) || q >= end)
		return NULL;
	*body = q;
	rf = *q++;
	if (!kt_get_varint(&q, end, &a) || !kt_get_varint(&q, end, &b))
		return NULL;
	if (rf & KT_RF_BASE) {
		if (!kt_get_varint(&q, end, &c))
			return NULL;
		kt_delta_set(d, a, c, (uint32_t)b);
	} else {
		d->seq += (uint64_t)kt_unzigzag(a);
		d->ts += (uint64_t)kt_unzigzag(b);
		d->valid = true;
	}
	return q;
}

size_t
kt_rec_skim(const uint8_t *p, const uint8_t *end, struct kt_delta *d,
	    size_t *hdr_len)
{
	const uint8_t *body, *q;
	uint64_t len;

	q = kt_common_skim(p, end, d, &len, &body);
	if (!q || len > (uint64_t)(end - body))
		return 0;
	if (hdr_len)
		*hdr_len = (size_t)(q - p);
	return (size_t)(body - p) + (size_t)len;
}

size_t
kt_rec_rebase(const uint8_t *p, const uint8_t *end, const struct kt_delta *d,
	      uint8_t *out, size_t *consumed)
{
	struct kt_delta abs = *d;
	const uint8_t *body, *q;
	uint8_t fields[1 + 3 * KT_VARINT_MAX], *f = fields;
	uint64_t len, rest;
	uint8_t *o = out;

	*consumed = 0;
	q = kt_common_skim(p, end, &abs, &len, &body);
	if (!q || len > (uint64_t)(end - body))
		return 0;
	if (*body & KT_RF_BASE)
		return 0;
	rest = len - (uint64_t)(q - body);
	*f++ = (uint8_t)(*body | KT_RF_BASE);
	f = kt_put_varint(f, abs.seq);
	f = kt_put_varint(f, abs.tid);
	f = kt_put_varint(f, abs.ts);
	*o++ = p[0];
	o = kt_put_varint(o, rest + (uint64_t)(f - fields));
	memcpy(o, fields, (size_t)(f - fields));
	o += f - fields;
	*consumed = (size_t)(q - p);
	return (size_t)(o - out);
}

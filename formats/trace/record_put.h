/* SPDX-License-Identifier: MIT */
/*
 * The pieces of a record's encoding, inline (docs/trace-format.md section
 * 5): the common header, the ioctl body and the length. record_enc.c builds
 * every record type from them; the writer builds the most common record,
 * an ioctl without indirect buffers, from the same pieces without a call
 * (kt_rec_encode_ioctl(): when it renders a thread's raw entries, and in
 * the append for the few of those not stored raw), so there is one
 * encoder of each field, not two.
 */
#ifndef KT_RECORD_PUT_H
#define KT_RECORD_PUT_H

#include "trace_internal.h"

/* Width of the length field for a record of at most @bound bytes. */
static inline unsigned int
kt_len_width(size_t bound)
{
	return bound < (1u << 7) ? 1 : bound < (1u << 14) ? 2 :
	       bound < (1u << 21) ? 3 : 4;
}

/*
 * The type byte and the common header, a delta against @d when the record
 * continues the same thread's run. @body is where the length field ends.
 * Return: where the type-specific fields begin.
 */
static inline uint8_t *
kt_put_head(uint8_t *dst, uint8_t *body, const struct kt_record *rec,
	    const struct kt_delta *d)
{
	uint8_t *p = body;

	dst[0] = (uint8_t)rec->type;
	if (KT_LIKELY(d->valid && d->tid == rec->tid)) {
		*p++ = 0;
		p = kt_put_svarint(p, (int64_t)(rec->seq - d->seq));
		p = kt_put_svarint(p, (int64_t)(rec->ts - d->ts));
	} else {
		*p++ = KT_RF_BASE;
		p = kt_put_varint(p, rec->seq);
		p = kt_put_varint(p, rec->tid);
		p = kt_put_varint(p, rec->ts);
	}
	return p;
}

/*
 * Fill in the length reserved at @lw bytes, now that the body ends at @end,
 * and make this record the delta base. Return: the record's size.
 */
static inline size_t
kt_put_end(uint8_t *dst, uint8_t *body, uint8_t *end, unsigned int lw,
	   const struct kt_record *rec, struct kt_delta *d)
{
	kt_put_varint_width(dst + 1, (uint64_t)(end - body), lw);
	kt_delta_set(d, rec->seq, rec->ts, rec->tid);
	return (size_t)(end - dst);
}

/*
 * The after-image of an ioctl argument is mostly the before-image: storing
 * their XOR makes the unchanged bytes zeros, which compress to nearly
 * nothing (section 5.4.1). One pass writes both images; images of 8 bytes
 * or more end with one overlapping word instead of a byte loop.
 */
static inline void
kt_put_images(uint8_t *dst_b, uint8_t *dst_x, const uint8_t *b,
	      const uint8_t *a, size_t n)
{
	uint64_t x, y;
	size_t i = 0;

	if (n < 8) {
		for (; i < n; i++) {
			dst_b[i] = b[i];
			dst_x[i] = a[i] ^ b[i];
		}
		return;
	}
	for (; i + 8 <= n; i += 8) {
		memcpy(&x, b + i, 8);
		memcpy(&y, a + i, 8);
		memcpy(dst_b + i, &x, 8);
		x ^= y;
		memcpy(dst_x + i, &x, 8);
	}
	if (i < n) {
		i = n - 8;
		memcpy(&x, b + i, 8);
		memcpy(&y, a + i, 8);
		memcpy(dst_b + i, &x, 8);
		x ^= y;
		memcpy(dst_x + i, &x, 8);
	}
}

/* memcpy() for the small images of the hot path, without a call. */
static inline void
kt_copy(uint8_t *dst, const uint8_t *src, size_t n)
{
	uint64_t x;
	size_t i = 0;

	if (n > 256 || n < 8) {
		memcpy(dst, src, n);
		return;
	}
	for (; i + 8 <= n; i += 8) {
		memcpy(&x, src + i, 8);
		memcpy(dst + i, &x, 8);
	}
	if (i < n) {
		memcpy(&x, src + n - 8, 8);
		memcpy(dst + n - 8, &x, 8);
	}
}

static inline uint8_t *
kt_put_ioctl(uint8_t *p, const struct kt_record *rec)
{
	const struct kt_ioctl_rec *io = &rec->u.ioctl;
	uint8_t af = 0;

	/*
	 * The exit time sits next to the common header's time delta: the
	 * unpredictable bytes of a record stay together, so zstd finds one
	 * long match for the predictable run that follows (fewer sequences,
	 * faster decompression).
	 */
	p = kt_put_svarint(p, (int64_t)(io->t_exit - rec->ts));
	p = kt_put_svarint(p, io->fd);
	*p++ = io->file_kind;
	kt_put_le32(p, io->request);
	p += 4;
	p = kt_put_svarint(p, io->ret);
	p = kt_put_svarint(p, io->err);
	p = kt_put_varint(p, io->arg_size);
	if (io->arg_before)
		af |= KT_AF_BEFORE;
	if (io->arg_after)
		af |= KT_AF_AFTER;
	if (af == (KT_AF_BEFORE | KT_AF_AFTER))
		af |= KT_AF_XOR;
	*p++ = af;
	if (KT_LIKELY(af & KT_AF_XOR)) {
		kt_put_images(p, p + io->arg_size, io->arg_before,
			      io->arg_after, io->arg_size);
		p += 2 * (size_t)io->arg_size;
	} else if (af) {
		kt_copy(p, af & KT_AF_BEFORE ? io->arg_before : io->arg_after,
			io->arg_size);
		p += io->arg_size;
	}
	p = kt_put_varint(p, io->nbufs);
	for (unsigned int i = 0; i < io->nbufs; i++) {
		const struct kt_buf_image *bi = &io->bufs[i];

		p = kt_put_varint(p, bi->index);
		p = kt_put_varint(p, bi->flags);
		p = kt_put_varint(p, bi->addr);
		p = kt_put_varint(p, bi->len_before);
		p = kt_put_varint(p, bi->len_after);
		if ((bi->flags & KT_BUF_BEFORE) && bi->len_before) {
			kt_copy(p, bi->before, bi->len_before);
			p += bi->len_before;
		}
		if ((bi->flags & KT_BUF_AFTER) && bi->len_after) {
			kt_copy(p, bi->after, bi->len_after);
			p += bi->len_after;
		}
	}
	return p;
}


/*
 * kt_rec_encode() for an ioctl record, inline. @bound (from kt_rec_bound()
 * or kt_rec_bound_fast()) must be below 2^14, which holds for every ioctl
 * without buffers: its length field then takes one or two bytes.
 */
static inline size_t
kt_rec_encode_ioctl(uint8_t *dst, const struct kt_record *rec,
		    struct kt_delta *d, size_t bound)
{
	unsigned int lw = bound < (1u << 7) ? 1 : 2;
	uint8_t *body = dst + 1 + lw;
	uint8_t *p = kt_put_head(dst, body, rec, d);

	p = kt_put_ioctl(p, rec);
	return kt_put_end(dst, body, p, lw, rec, d);
}

#endif /* KT_RECORD_PUT_H */

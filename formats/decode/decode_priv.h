/* SPDX-License-Identifier: MIT */
/*
 * Decoder internals shared by the record printers.
 *
 * Text and JSON have the same shape (keyed fields, arrays, nested
 * structs), so every printer walks the record once and emits through the
 * helpers below, which switch on d->json for the punctuation and number
 * formats. That keeps the two outputs from drifting apart.
 */
#ifndef KFD_DECODE_PRIV_H
#define KFD_DECODE_PRIV_H

#include <stdint.h>
#include <string.h>

#include "kfdtrace/decode.h"
#include "kfdtrace/schema.h"
#include "kfdtrace/trace.h"

struct dec {
	struct kt_strbuf *sb;
	int json;
	unsigned int max_elems;
	unsigned int max_bytes;
	unsigned int flags;		/* enum kfd_decode_flags */
	uint64_t start_ns;
	unsigned int time_format;	/* enum kfd_decode_time */
	uint64_t wall_offset_ns;
	const struct kfd_kernels *kernels;
};

/*
 * dec_get_u64(), dec_get_u32() - the value at @p, which need not be
 * aligned (the bytes are in the host's order, as the GPU's: both are
 * little-endian).
 */
static inline uint64_t
dec_get_u64(const uint8_t *p)
{
	uint64_t v;

	memcpy(&v, p, 8);
	return v;
}

static inline uint32_t
dec_get_u32(const uint8_t *p)
{
	uint32_t v;

	memcpy(&v, p, 4);
	return v;
}

/* Start the next item of a list: ", " (text) or "," (JSON) unless first. */
static inline void
dec_sep(struct dec *d, int *first)
{
	if (*first)
		*first = 0;
	else if (d->json)
		kt_strbuf_putc(d->sb, ',');
	else
		kt_strbuf_append(d->sb, ", ", 2);
}

/* dec_key() - separator, then "key=" (text) or "\"key\":" (JSON). */
void dec_key(struct dec *d, int *first, const char *key);

/* Integers: text decimal/hex; JSON numbers up to 2^53, else "0x..". */
void dec_u64(struct dec *d, uint64_t v);
void dec_s64(struct dec *d, int64_t v);
void dec_hex(struct dec *d, uint64_t v);

/* A quoted string of @n bytes (C escapes in text, JSON escapes in JSON). */
void dec_str(struct dec *d, const char *s, size_t n);

/* A string bounded by @max bytes and the first NUL. */
void dec_str_bounded(struct dec *d, const char *s, size_t max);

/*
 * Raw bytes as hex digits: text wraps them in @open/@close and elides past
 * d->max_bytes (or @limit when non-zero); JSON gives a string.
 */
void dec_bytes(struct dec *d, const uint8_t *p, size_t n, size_t limit,
	       char open, char close);

/* A flag set by the names of @t, unknown bits as one hex remainder. */
void dec_flags(struct dec *d, const struct kfd_name_table *t, uint64_t v);

/*
 * The same with a leading name for bits the table does not cover (open's
 * access mode, mmap's mapping type); @raw is the full value for JSON and
 * @v the bits left for the table.
 */
void dec_flags_lead(struct dec *d, const char *lead,
		    const struct kfd_name_table *t, uint64_t raw, uint64_t v);

/* An enum value by name; @is_signed decides how unknown values print. */
void dec_enum(struct dec *d, const struct kfd_name_table *t, uint64_t v,
	      int is_signed);

/* A value that could not be read ("?" / null). */
void dec_unknown(struct dec *d);

/*
 * dec_field() - print a field's value read from an image by its role.
 * Prints '?' / null when the field lies outside the @len bytes.
 */
void dec_field(struct dec *d, const struct kfd_field *f, const uint8_t *img,
	       size_t len);

/* dec_field_value() - print an already-read numeric value by role. */
void dec_field_value(struct dec *d, const struct kfd_field *f, uint64_t v);

/* packets.c: a submit record's body, a memory record's. */
void dec_submit(struct dec *d, int *first, const struct kt_submit_rec *s);
void dec_memory(struct dec *d, int *first, const struct kt_memory_rec *m);
/* xfer.c: an fd_transfer record. */
void dec_xfer(struct dec *d, int *first, const struct kt_fd_transfer_rec *x);

/* The time since d->start_ns as "+S.UUUUUU" (text) or a number (JSON). */
void dec_reltime(struct dec *d, uint64_t ts);

/* Text: the time column as d->time_format says (enum kfd_decode_time). */
void dec_time(struct dec *d, uint64_t ts);

/* A duration in ns as "S.UUUUUU" (text only). */
void dec_duration(struct dec *d, uint64_t ns);

/* "= ret" tail of a syscall: "0", "-1 ENOMEM (Cannot allocate memory)". */
void dec_text_ret(struct dec *d, int64_t ret, int32_t err);

/* JSON "ret" and, when failed, "err" and "errno" members. */
void dec_json_ret(struct dec *d, int *first, int64_t ret, int32_t err);

/* ioctl records (ioctl.c). */
void dec_ioctl(struct dec *d, int *first, const struct kt_record *rec);

/* Name tables and helpers for non-ioctl records (names.c). */
extern const struct kfd_name_table dec_open_flags;
extern const struct kfd_name_table dec_prot_flags;
extern const struct kfd_name_table dec_map_flags;
const char *dec_open_accmode(int flags);
const char *dec_map_type(int flags);
const char *dec_hsakmt_status_name(int32_t status);

#endif /* KFD_DECODE_PRIV_H */

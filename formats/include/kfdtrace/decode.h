/* SPDX-License-Identifier: MIT */
/*
 * Decoding trace records to text and JSON.
 *
 * The decoder turns one struct kt_record (trace.h) into one line:
 *
 *  - text, strace-like:
 *      [tid] +t NAME(in fields) = ret {out fields}
 *    In-fields go inside the parentheses, then the return value, then the
 *    out-fields in braces. An inout field shows its in-value in the
 *    parentheses and appears in the braces only when the call changed it.
 *  - JSON: one object per record, the same content (JSON Lines when the
 *    caller ends each object with a newline).
 *
 * All meaning comes from the ioctl schema (schema.h): field roles choose how
 * values print, name tables give flag and enum names, union selectors pick
 * the fields that apply, indirect-buffer descriptors decode the recorded
 * buffer images. The decoder is pure and bounded: it reads only the images
 * inside the record (never the user pointers they were copied from), prints
 * fields lying past a short image as '?' (null in JSON), elides long arrays
 * and byte strings, and never reads outside the lengths the record states.
 *
 * docs/cli.md shows the output of every record kind.
 */
#ifndef KFDTRACE_DECODE_H
#define KFDTRACE_DECODE_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "kfdtrace/trace.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------ */
/* Growable string buffer                                               */

/*
 * A NUL-terminated string that grows on demand. When an allocation fails
 * the append is dropped and @failed is set; the content is then incomplete,
 * so callers check @failed once at the end instead of after every append.
 */
struct kt_strbuf {
	char *data;		/* NUL-terminated once anything was appended */
	size_t len;		/* bytes in data, without the NUL */
	size_t cap;		/* allocated bytes */
	int failed;		/* an allocation failed; content is cut short */
};

/* kt_strbuf_init() - make an empty buffer (no allocation yet). */
void kt_strbuf_init(struct kt_strbuf *sb);

/* kt_strbuf_release() - free the buffer's memory and make it empty. */
void kt_strbuf_release(struct kt_strbuf *sb);

/*
 * kt_strbuf_reserve() - make room for @extra more bytes plus the NUL.
 *
 * Return: 0, or -1 (and sb->failed set) when memory ran out.
 */
int kt_strbuf_reserve(struct kt_strbuf *sb, size_t extra);

/* kt_strbuf_clear() - empty the buffer, keeping its memory. */
static inline void
kt_strbuf_clear(struct kt_strbuf *sb)
{
	sb->len = 0;
	sb->failed = 0;
	if (sb->data)
		sb->data[0] = '\0';
}

/* kt_strbuf_append() - append @n bytes. */
static inline void
kt_strbuf_append(struct kt_strbuf *sb, const void *p, size_t n)
{
	const char *s = (const char *)p;
	char *d;

	if (sb->cap - sb->len <= n && kt_strbuf_reserve(sb, n))
		return;
	d = sb->data + sb->len;
	/*
	 * Decoded lines are built from many short pieces: copy those with
	 * two overlapping fixed-size moves instead of a call to memcpy().
	 */
	if (n >= 8 && n <= 16) {
		uint64_t a, b;

		memcpy(&a, s, 8);
		memcpy(&b, s + n - 8, 8);
		memcpy(d, &a, 8);
		memcpy(d + n - 8, &b, 8);
	} else if (n >= 4 && n < 8) {
		uint32_t a, b;

		memcpy(&a, s, 4);
		memcpy(&b, s + n - 4, 4);
		memcpy(d, &a, 4);
		memcpy(d + n - 4, &b, 4);
	} else if (n > 0 && n < 4) {
		d[0] = s[0];
		d[n / 2] = s[n / 2];
		d[n - 1] = s[n - 1];
	} else if (n > 16) {
		memcpy(d, s, n);
	}
	sb->len += n;
	sb->data[sb->len] = '\0';
}

/* kt_strbuf_putc() - append one character. */
static inline void
kt_strbuf_putc(struct kt_strbuf *sb, char c)
{
	if (sb->cap - sb->len <= 1 && kt_strbuf_reserve(sb, 1))
		return;
	sb->data[sb->len++] = c;
	sb->data[sb->len] = '\0';
}

/* kt_strbuf_puts() - append a C string. */
static inline void
kt_strbuf_puts(struct kt_strbuf *sb, const char *s)
{
	kt_strbuf_append(sb, s, strlen(s));
}

/* kt_strbuf_printf() - append formatted text. */
void kt_strbuf_printf(struct kt_strbuf *sb, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* kt_strbuf_vprintf() - the same with a va_list. */
void kt_strbuf_vprintf(struct kt_strbuf *sb, const char *fmt, va_list ap)
	__attribute__((format(printf, 2, 0)));

/* kt_strbuf_put_u64() - append @v in decimal (faster than printf). */
void kt_strbuf_put_u64(struct kt_strbuf *sb, uint64_t v);

/* kt_strbuf_put_s64() - append @v in decimal with a '-' when negative. */
void kt_strbuf_put_s64(struct kt_strbuf *sb, int64_t v);

/* kt_strbuf_put_hex() - append @v as "0x" and lower-case hex digits. */
void kt_strbuf_put_hex(struct kt_strbuf *sb, uint64_t v);

/* ------------------------------------------------------------------ */
/* Record decoding                                                      */

enum kfd_decode_flags {
	/* Text: start the line with "#<seq> ". */
	KFD_DECODE_SEQ = 1 << 0,
	/* Text: end ioctl and api-call lines with " <seconds>" (duration). */
	KFD_DECODE_DURATION = 1 << 1,
};

/* Default bound on printed array elements and raw bytes. */
#define KFD_DECODE_DEFAULT_ELEMS 16
#define KFD_DECODE_DEFAULT_BYTES 32

struct kfd_kernels;

struct kfd_decode_opts {
	/* Time zero for "+t" (the header's start_monotonic, in ns). */
	uint64_t start_ns;
	/* Kernel names for dispatch packets (kfd_kernels_add()); NULL: none. */
	const struct kfd_kernels *kernels;
	/* Array elements printed before eliding; 0: the default. */
	unsigned int max_elems;
	/* Raw bytes printed (as hex) before eliding; 0: the default. */
	unsigned int max_bytes;
	unsigned int flags;	/* enum kfd_decode_flags */
	/*
	 * Text: what the time column says (enum kfd_decode_time); JSON's
	 * "t" and "ts" stay as they are.
	 */
	unsigned int time_format;
	/*
	 * KFD_DECODE_TIME_WALL: the wall-clock time, in ns since the epoch,
	 * at CLOCK_MONOTONIC 0 (the header's start_realtime minus its
	 * start_monotonic, modulo 2^64), so that ts + this is the time of day.
	 */
	uint64_t wall_offset_ns;
};

/* The text time column (kfd_decode_opts.time_format). */
enum kfd_decode_time {
	KFD_DECODE_TIME_REL = 0,	/* "+S.UUUUUU" since start_ns */
	KFD_DECODE_TIME_ABS,		/* "S.UUUUUU", CLOCK_MONOTONIC */
	KFD_DECODE_TIME_WALL,		/* "HH:MM:SS.UUUUUU" local time, as
					 * strace -tt */
};

/*
 * kfd_decode_text() - append one record as a text line (no newline).
 * @sb:		where to append
 * @rec:	the record; any type, including unknown ones
 * @opts:	NULL for defaults (time zero 0)
 *
 * Return: 0, or -ENOMEM when @sb could not grow (its content is cut short).
 */
int kfd_decode_text(struct kt_strbuf *sb, const struct kt_record *rec,
		    const struct kfd_decode_opts *opts);

/*
 * kfd_decode_json() - append one record as a JSON object (no newline).
 *
 * Every object has "seq", "tid", "t" (seconds since time zero, a number
 * with microsecond digits), "ts" (absolute ns) and "type" (record type
 * name). Integers are JSON numbers when they fit in 53 bits, otherwise
 * strings "0x...". Flags are {"value":N,"names":[...]} with unknown bits as
 * one hex string in names; enums are {"value":N,"name":"..."} ("name"
 * absent when unknown); fields past a short image are null. ioctl records
 * add "name", "event", "fd", "file", "request", "in", "ret", "errno"
 * (when the call failed), "out" and "dur_ns"; unknown requests have
 * "name":null and "in_hex"/"out_hex".
 *
 * Return: 0, or -ENOMEM when @sb could not grow.
 */
int kfd_decode_json(struct kt_strbuf *sb, const struct kt_record *rec,
		    const struct kfd_decode_opts *opts);

struct kfd_ioctl_desc;

/*
 * kt_ioctl_row() - the schema row of a recorded ioctl.
 * @io:		the ioctl record (struct kt_record's u.ioctl)
 *
 * The one way a reader of traces resolves a record: kfd_schema_lookup()
 * on the file kind and the request the record holds, so the decoder, the
 * commands, the replayer and the babeltrace2 source agree on every
 * record's row. A file kind the schema does not know has no row.
 *
 * Return: the row, or NULL for a request the schema does not know (the
 * decoder prints it as raw bytes).
 */
const struct kfd_ioctl_desc *kt_ioctl_row(const struct kt_ioctl_rec *io);

/*
 * kt_ioctl_version() - the KFD ABI version a successful GET_VERSION call
 * returned. A trace whose header says 0.0 (the capture library wrote the
 * header before the program asked) still holds the version this way; every
 * reader that names a trace's ABI takes it from here.
 * @desc:	@io's row (kt_ioctl_row()), or NULL to look it up
 * @io:		an ioctl record
 *
 * Return: 1 with @major and @minor set, or 0 when @io is not a successful
 * GET_VERSION with a readable result.
 */
int kt_ioctl_version(const struct kfd_ioctl_desc *desc,
		     const struct kt_ioctl_rec *io, uint32_t *major,
		     uint32_t *minor);

/*
 * kt_trace_kfd_abi() - a trace's KFD ABI: the header's when it names one,
 * else what the first successful GET_VERSION in the trace returned
 * (kt_ioctl_version()), read from @path up to that record.
 * @from:	set to "header" or "GET_VERSION" (may be NULL)
 *
 * Return: 1 with @major and @minor set, or 0 when neither says (or the
 * file cannot be read).
 */
int kt_trace_kfd_abi(const char *path, uint32_t *major, uint32_t *minor,
		     const char **from);

/*
 * Kernel names from captured code objects (memory records of kind
 * KT_MEM_CODE, --submissions=full): each AMDGPU ELF image found in the
 * memory is read for its kernel descriptor symbols ("name.kd"), so that a
 * dispatch's kernel_object names its kernel.
 */
struct kfd_kernels *kfd_kernels_new(void);
void kfd_kernels_free(struct kfd_kernels *k);
/*
 * kfd_kernels_add() - read the code objects in @len bytes of memory that
 * was at @addr. Return: the kernels found (0: none), or -1 when memory ran
 * out.
 */
int kfd_kernels_add(struct kfd_kernels *k, uint64_t addr, const uint8_t *data,
		    size_t len);
/* kfd_kernels_name() - the kernel whose descriptor is at @kernel_object. */
const char *kfd_kernels_name(const struct kfd_kernels *k, uint64_t kernel_object);

/*
 * HIP's blit kernels (ROCclr's __amd_rocclr_copyBuffer and
 * __amd_rocclr_fillBufferAligned, as HIP 5.2 and HIP 6.x lay out their
 * arguments): what one dispatch reads and writes, from its kernel name
 * and kernel arguments. ROCr's own blit kernels carry no name.
 */
enum kfd_blit_kind { KFD_BLIT_COPY = 1, KFD_BLIT_FILL };

struct kfd_blit {
	enum kfd_blit_kind kind;
	uint64_t dst, len;	/* the bytes written: [dst, dst + len) */
	uint64_t src;		/* a copy's: [src, src + len) */
	uint64_t pattern;	/* a fill's pattern: [pattern, + pattern_len) */
	uint64_t pattern_len;
};

/*
 * kfd_blit_args() - decode the @len bytes of kernel arguments @ka of a
 * dispatch of kernel @name into @b.
 * Return: 0, or -1 when @name is no blit kernel known here (NULL too) or
 * the arguments fit neither layout.
 */
int kfd_blit_args(const char *name, const uint8_t *ka, size_t len, struct kfd_blit *b);

/*
 * kfd_decode_packet() - append the packet at byte @off of submit record
 * @s as text ("KERNEL_DISPATCH{grid_size_x=..., ...}").
 * Return: its size in bytes (the next packet is at @off plus it), or 0
 * when no packet starts there.
 */
size_t kfd_decode_packet(struct kt_strbuf *sb, const struct kt_submit_rec *s,
			 size_t off, const struct kfd_decode_opts *o);

/* Which libc flag set kfd_decode_sys_flags() names. */
enum kfd_sys_flags {
	KFD_SYS_OPEN_FLAGS,	/* open(2): O_RDWR|O_CLOEXEC */
	KFD_SYS_PROT,		/* mmap(2) prot: PROT_READ|PROT_WRITE */
	KFD_SYS_MAP_FLAGS,	/* mmap(2) flags: MAP_SHARED|MAP_FIXED */
};

/*
 * kfd_decode_sys_flags() - append @flags as dump prints them: libc's names
 * joined by '|', bits without a name in hex ("PROT_NONE", "0" for none).
 */
void kfd_decode_sys_flags(struct kt_strbuf *sb, enum kfd_sys_flags which,
			  int flags);

/*
 * kfd_decode_flag_names() - append the bit set @v as dump prints a flags
 * field with name table @t: its names joined by '|' in table order, the
 * bits without a name as one hex number ("VRAM|WRITABLE|0x40"), the
 * table's name for 0 or "0" when none is set.
 */
struct kfd_name_table;
void kfd_decode_flag_names(struct kt_strbuf *sb, const struct kfd_name_table *t,
			   uint64_t v);

/*
 * kfd_errno_name() - the symbolic name of an errno value ("ENOMEM"),
 * including the kernel-internal ones a driver may leak (ENOTSUPP 524).
 *
 * Return: the name, or NULL when unknown.
 */
const char *kfd_errno_name(int err);

/*
 * kfd_errno_desc() - the description of an errno value
 * ("Cannot allocate memory").
 *
 * Return: the text, or NULL when unknown.
 */
const char *kfd_errno_desc(int err);

/*
 * kfd_text_escape() - append @s (@n bytes) with C escapes (\n, \", \\,
 * \xXX for every other byte outside printable ASCII) and no quotes, so a
 * string from a trace can never move the cursor, change colours or forge
 * a line on a terminal.
 */
void kfd_text_escape(struct kt_strbuf *sb, const char *s, size_t n);

/*
 * kfd_text_safe() - @s (up to @max bytes or its NUL) escaped as by
 * kfd_text_escape() into @buf of @size bytes, cut short when it does not
 * fit (never inside an escape). For printf("%s") of any string a trace
 * holds.
 *
 * Return: @buf.
 */
const char *kfd_text_safe(char *buf, size_t size, const char *s, size_t max);

/*
 * kfd_text_clean() - append @s (@n bytes) with only what a terminal or a
 * UTF-8 page cannot show as it is escaped, the way kfd_text_escape()
 * writes it (\n, \t, \r, \xXX): control characters (C0, DEL and C1)
 * and bytes that are not well-formed UTF-8. Printable ASCII, quotes and
 * backslashes included, and UTF-8 text stay as they are. For trace
 * strings shown as values rather than quoted: babeltrace2's fields, the
 * HTML report.
 */
void kfd_text_clean(struct kt_strbuf *sb, const char *s, size_t n);

/*
 * kfd_json_escape() - append @s (@n bytes) as a quoted JSON string.
 * Control characters and invalid UTF-8 bytes are escaped (\u00XX), so the
 * output is valid JSON for any input bytes.
 */
void kfd_json_escape(struct kt_strbuf *sb, const char *s, size_t n);

/*
 * kfd_json_u64() - append @v as a JSON number when an IEEE double holds it
 * exactly (up to 2^53), else as a "0x..." string, so no JSON reader
 * silently rounds it.
 */
void kfd_json_u64(struct kt_strbuf *sb, uint64_t v);

/*
 * kfd_gfx_target_name() - "gfx90a" for a topology gfx_target_version
 * (major * 10000 + minor * 100 + stepping).
 * @buf:	at least 16 bytes
 *
 * Return: @buf.
 */
char *kfd_gfx_target_name(uint32_t version, char *buf, size_t size);

#ifdef __cplusplus
}
#endif

#endif /* KFDTRACE_DECODE_H */

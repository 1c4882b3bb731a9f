/* SPDX-License-Identifier: MIT */
/*
 * Value printers shared by the text and JSON decoders.
 */
#include <stdio.h>
#include <string.h>
#include <time.h>

#include <kfdtrace/common/text.h>

#include "decode_priv.h"

/* Integers above this lose precision as JSON (IEEE double) numbers. */
#define JSON_MAX_EXACT (1ULL << 53)

static const char hexdig[] = "0123456789abcdef";

void
dec_key(struct dec *d, int *first, const char *key)
{
	dec_sep(d, first);
	if (d->json) {
		kt_strbuf_putc(d->sb, '"');
		kt_strbuf_puts(d->sb, key);
		kt_strbuf_append(d->sb, "\":", 2);
	} else {
		kt_strbuf_puts(d->sb, key);
		kt_strbuf_putc(d->sb, '=');
	}
}

static void
json_hex_string(struct kt_strbuf *sb, uint64_t v)
{
	kt_strbuf_putc(sb, '"');
	kt_strbuf_put_hex(sb, v);
	kt_strbuf_putc(sb, '"');
}

void
kfd_json_u64(struct kt_strbuf *sb, uint64_t v)
{
	if (v > JSON_MAX_EXACT)
		json_hex_string(sb, v);
	else
		kt_strbuf_put_u64(sb, v);
}

void
dec_u64(struct dec *d, uint64_t v)
{
	if (d->json)
		kfd_json_u64(d->sb, v);
	else
		kt_strbuf_put_u64(d->sb, v);
}

void
dec_s64(struct dec *d, int64_t v)
{
	if (d->json && (v > (int64_t)JSON_MAX_EXACT ||
			v < -(int64_t)JSON_MAX_EXACT))
		json_hex_string(d->sb, (uint64_t)v);
	else
		kt_strbuf_put_s64(d->sb, v);
}

void
dec_hex(struct dec *d, uint64_t v)
{
	if (d->json)
		dec_u64(d, v);
	else
		kt_strbuf_put_hex(d->sb, v);
}

void
dec_unknown(struct dec *d)
{
	if (d->json)
		kt_strbuf_append(d->sb, "null", 4);
	else
		kt_strbuf_putc(d->sb, '?');
}

/* Length of the well-formed UTF-8 sequence at @s, or 0 if there is none. */
static size_t
utf8_seq_len(const unsigned char *s, size_t n)
{
	unsigned char c = s[0];
	size_t len, i;
	uint32_t cp;

	if (c < 0xc2 || c > 0xf4)
		return 0;
	len = c < 0xe0 ? 2 : c < 0xf0 ? 3 : 4;
	if (n < len)
		return 0;
	cp = c & (0xff >> (len + 1));
	for (i = 1; i < len; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (s[i] & 0x3f);
	}
	/* Reject overlong forms, surrogates and values past U+10FFFF. */
	if ((len == 3 && cp < 0x800) || (len == 4 && cp < 0x10000) ||
	    (cp >= 0xd800 && cp <= 0xdfff) || cp > 0x10ffff)
		return 0;
	return len;
}

/* How escape() writes. */
enum esc_mode {
	ESC_TEXT,	/* C-like, all ASCII */
	ESC_JSON,	/* a JSON string's contents */
	ESC_CLEAN,	/* only what a terminal or a UTF-8 page cannot show */
};

/*
 * Escape @n bytes as a JSON string's contents (ESC_JSON) or a C-like text
 * one (ESC_TEXT). Both escape quotes, backslashes and the common control
 * characters the same way; the other bytes become \u00XX in JSON
 * (well-formed UTF-8 is kept, so any input yields valid JSON) and \xXX in
 * text (which stays ASCII). ESC_CLEAN escapes as ESC_TEXT does, but only
 * control characters (C0, DEL and C1) and bytes that are not well-formed
 * UTF-8: it keeps quotes, backslashes and UTF-8 text.
 */
static void
escape(struct kt_strbuf *sb, const unsigned char *s, size_t n,
       enum esc_mode mode)
{
	size_t i = 0, run = 0, l;

	while (i < n) {
		unsigned char c = s[i];

		if (c >= 0x20 && c < 0x7f &&
		    ((c != '"' && c != '\\') || mode == ESC_CLEAN)) {
			i++;
			run++;
			continue;
		}
		/* In ESC_CLEAN, C1 controls (U+0080-U+009F) are escaped too. */
		if (mode != ESC_TEXT && c >= 0x80 &&
		    (l = utf8_seq_len(s + i, n - i)) != 0 &&
		    (mode == ESC_JSON || c != 0xc2 || s[i + 1] >= 0xa0)) {
			i += l;
			run += l;
			continue;
		}
		kt_strbuf_append(sb, s + i - run, run);
		run = 0;
		switch (c) {
		case '"':
			kt_strbuf_append(sb, "\\\"", 2);
			break;
		case '\\':
			kt_strbuf_append(sb, "\\\\", 2);
			break;
		case '\n':
			kt_strbuf_append(sb, "\\n", 2);
			break;
		case '\t':
			kt_strbuf_append(sb, "\\t", 2);
			break;
		case '\r':
			kt_strbuf_append(sb, "\\r", 2);
			break;
		default:
			if (mode == ESC_JSON) {
				char esc[6] = { '\\', 'u', '0', '0',
						hexdig[c >> 4], hexdig[c & 0xf] };

				kt_strbuf_append(sb, esc, sizeof(esc));
			} else {
				char esc[4] = { '\\', 'x', hexdig[c >> 4],
						hexdig[c & 0xf] };

				kt_strbuf_append(sb, esc, sizeof(esc));
			}
			break;
		}
		i++;
	}
	kt_strbuf_append(sb, s + i - run, run);
}

static void
quote(struct kt_strbuf *sb, const unsigned char *s, size_t n, int json)
{
	kt_strbuf_putc(sb, '"');
	escape(sb, s, n, json ? ESC_JSON : ESC_TEXT);
	kt_strbuf_putc(sb, '"');
}

void
kfd_text_escape(struct kt_strbuf *sb, const char *s, size_t n)
{
	escape(sb, (const unsigned char *)s, n, ESC_TEXT);
}

void
kfd_text_clean(struct kt_strbuf *sb, const char *s, size_t n)
{
	escape(sb, (const unsigned char *)s, n, ESC_CLEAN);
}

const char *
kfd_text_safe(char *buf, size_t size, const char *s, size_t max)
{
	if (!size)
		return "";
	kc_text_escape(buf, size, s ? s : "", s ? strnlen(s, max) : 0);
	return buf;
}

void
kfd_json_escape(struct kt_strbuf *sb, const char *s, size_t n)
{
	quote(sb, (const unsigned char *)s, n, 1);
}

void
dec_str(struct dec *d, const char *s, size_t n)
{
	if (!s) {
		if (d->json)
			kt_strbuf_append(d->sb, "null", 4);
		else
			kt_strbuf_append(d->sb, "NULL", 4);
		return;
	}
	quote(d->sb, (const unsigned char *)s, n, d->json);
}

void
dec_str_bounded(struct dec *d, const char *s, size_t max)
{
	dec_str(d, s, s ? strnlen(s, max) : 0);
}

static void
dec_hex_digits(struct kt_strbuf *sb, const uint8_t *p, size_t n)
{
	size_t i;
	char *o;

	if (kt_strbuf_reserve(sb, n * 2))
		return;
	o = sb->data + sb->len;
	for (i = 0; i < n; i++) {
		*o++ = hexdig[p[i] >> 4];
		*o++ = hexdig[p[i] & 0xf];
	}
	sb->len += n * 2;
	sb->data[sb->len] = '\0';
}

void
dec_bytes(struct dec *d, const uint8_t *p, size_t n, size_t limit,
	  char open, char close)
{
	size_t shown;

	if (!limit)
		limit = d->max_bytes;
	shown = n < limit ? n : limit;
	if (!d->json && shown == n && n >= 8) {
		size_t nz = n;

		/*
		 * Reserved and padding areas are mostly zero: name a zero tail
		 * of 8 bytes or more instead of spelling it out. The prefix
		 * keeps whole 32-bit words so little-endian values read right.
		 */
		while (nz && p[nz - 1] == 0)
			nz--;
		nz = (nz + 3) & ~(size_t)3;
		if (nz + 8 <= n) {
			kt_strbuf_putc(d->sb, open);
			if (nz) {
				dec_hex_digits(d->sb, p, nz);
				kt_strbuf_append(d->sb, ", ", 2);
			}
			kt_strbuf_put_u64(d->sb, n - nz);
			kt_strbuf_append(d->sb, " zero bytes", 11);
			kt_strbuf_putc(d->sb, close);
			return;
		}
	}
	if (d->json)
		kt_strbuf_putc(d->sb, '"');
	else
		kt_strbuf_putc(d->sb, open);
	dec_hex_digits(d->sb, p, shown);
	if (shown < n) {
		kt_strbuf_append(d->sb, "...", 3);
		if (!d->json) {
			kt_strbuf_append(d->sb, " (", 2);
			kt_strbuf_put_u64(d->sb, n);
			kt_strbuf_append(d->sb, " bytes)", 7);
		}
	}
	if (d->json)
		kt_strbuf_putc(d->sb, '"');
	else
		kt_strbuf_putc(d->sb, close);
}

void
dec_flags_lead(struct dec *d, const char *lead, const struct kfd_name_table *t,
	       uint64_t raw, uint64_t v)
{
	uint64_t rem = v;
	unsigned int i;
	int first = 1;

	if (d->json) {
		kt_strbuf_append(d->sb, "{\"value\":", 9);
		dec_u64(d, raw);
		kt_strbuf_append(d->sb, ",\"names\":[", 10);
	}
	if (lead) {
		if (d->json)
			kfd_json_escape(d->sb, lead, strlen(lead));
		else
			kt_strbuf_puts(d->sb, lead);
		first = 0;
	}
	for (i = 0; t && i < t->count; i++) {
		const struct kfd_name *e = &t->entries[i];

		if (!e->name)
			continue;
		if (e->value == 0) {
			/* A name for "no bits", used only for the value 0. */
			if (v != 0 || !first)
				continue;
		} else if ((rem & e->value) != e->value) {
			continue;
		}
		if (!first)
			kt_strbuf_putc(d->sb, d->json ? ',' : '|');
		first = 0;
		if (d->json)
			kfd_json_escape(d->sb, e->name, strlen(e->name));
		else
			kt_strbuf_puts(d->sb, e->name);
		rem &= ~e->value;
	}
	if (rem) {
		if (!first)
			kt_strbuf_putc(d->sb, d->json ? ',' : '|');
		if (d->json)
			json_hex_string(d->sb, rem);
		else
			kt_strbuf_put_hex(d->sb, rem);
	} else if (first && !d->json) {
		kt_strbuf_putc(d->sb, '0');
	}
	if (d->json)
		kt_strbuf_append(d->sb, "]}", 2);
}

void
dec_flags(struct dec *d, const struct kfd_name_table *t, uint64_t v)
{
	dec_flags_lead(d, NULL, t, v, v);
}

void
dec_enum(struct dec *d, const struct kfd_name_table *t, uint64_t v,
	 int is_signed)
{
	const char *name = t ? kfd_name_lookup(t, v) : NULL;

	if (d->json) {
		kt_strbuf_append(d->sb, "{\"value\":", 9);
		if (is_signed)
			dec_s64(d, (int64_t)v);
		else
			dec_u64(d, v);
		if (name) {
			kt_strbuf_append(d->sb, ",\"name\":", 8);
			kfd_json_escape(d->sb, name, strlen(name));
		}
		kt_strbuf_putc(d->sb, '}');
		return;
	}
	if (name)
		kt_strbuf_puts(d->sb, name);
	else if (is_signed)
		kt_strbuf_put_s64(d->sb, (int64_t)v);
	else
		kt_strbuf_put_u64(d->sb, v);
}

static void
dec_handle(struct dec *d, uint64_t v)
{
	char tmp[8];
	uint32_t idr = (uint32_t)v;
	int i;

	if (d->json) {
		dec_u64(d, v);
		return;
	}
	if (!v) {
		/* No handle (gpu_id 0 is never valid). */
		kt_strbuf_append(d->sb, "0x0", 3);
		return;
	}
	/* gpu_id << 32 | idr, printed so that both halves can be read off. */
	kt_strbuf_put_hex(d->sb, v >> 32);
	kt_strbuf_putc(d->sb, '_');
	for (i = 7; i >= 0; i--) {
		tmp[i] = hexdig[idr & 0xf];
		idr >>= 4;
	}
	kt_strbuf_append(d->sb, tmp, sizeof(tmp));
}

void
dec_field_value(struct dec *d, const struct kfd_field *f, uint64_t v)
{
	switch (f->role) {
	case KFD_ROLE_HEX:
	case KFD_ROLE_PAD:
	case KFD_ROLE_GPU_ID:
	case KFD_ROLE_GPU_VA:
	case KFD_ROLE_CPU_ADDR:
	case KFD_ROLE_MMAP_OFFSET:
	case KFD_ROLE_DOORBELL_OFFSET:
		dec_hex(d, v);
		break;
	case KFD_ROLE_PTR:
		if (v == 0 && !d->json)
			kt_strbuf_append(d->sb, "NULL", 4);
		else
			dec_hex(d, v);
		break;
	case KFD_ROLE_HANDLE:
		dec_handle(d, v);
		break;
	case KFD_ROLE_EVENT_ID:
		/* Non-signal event ids start at 0x40000000: hex reads better. */
		if (v >= 0x40000000 && !f->is_signed)
			dec_hex(d, v);
		else if (f->is_signed)
			dec_s64(d, (int64_t)v);
		else
			dec_u64(d, v);
		break;
	case KFD_ROLE_FLAGS:
		if (f->names)
			dec_flags(d, f->names, v);
		else
			dec_hex(d, v);
		break;
	case KFD_ROLE_ENUM:
		dec_enum(d, f->names, v, f->is_signed);
		break;
	default:
		if (f->is_signed)
			dec_s64(d, (int64_t)v);
		else
			dec_u64(d, v);
		break;
	}
}

void
dec_field(struct dec *d, const struct kfd_field *f, const uint8_t *img,
	  size_t len)
{
	uint64_t v;

	if (f->role == KFD_ROLE_STRING || f->role == KFD_ROLE_BYTES) {
		if (!img || (size_t)f->offset + f->width > len) {
			dec_unknown(d);
		} else if (f->role == KFD_ROLE_STRING) {
			dec_str_bounded(d, (const char *)img + f->offset,
					f->width);
		} else {
			dec_bytes(d, img + f->offset, f->width, 0, '<', '>');
		}
		return;
	}
	if (!img || kfd_field_get(f, img, len, &v) != 0) {
		dec_unknown(d);
		return;
	}
	dec_field_value(d, f, v);
}

/* ".UUUUUU": @ns's microseconds within its second (truncated). */
static void
put_seconds_frac(struct kt_strbuf *sb, uint64_t ns)
{
	uint64_t us = ns / 1000 % 1000000;
	char frac[7];
	int i;

	frac[0] = '.';
	for (i = 6; i >= 1; i--) {
		frac[i] = (char)('0' + us % 10);
		us /= 10;
	}
	kt_strbuf_append(sb, frac, sizeof(frac));
}

/* @ns as seconds with six decimals (microseconds, truncated). */
static void
put_seconds(struct kt_strbuf *sb, uint64_t ns)
{
	uint64_t us = ns / 1000;
	char frac[7];
	int i;

	kt_strbuf_put_u64(sb, us / 1000000);
	frac[0] = '.';
	us %= 1000000;
	for (i = 6; i >= 1; i--) {
		frac[i] = (char)('0' + us % 10);
		us /= 10;
	}
	kt_strbuf_append(sb, frac, sizeof(frac));
}

void
dec_reltime(struct dec *d, uint64_t ts)
{
	int neg = ts < d->start_ns;

	if (!d->json)
		kt_strbuf_putc(d->sb, neg ? '-' : '+');
	else if (neg)
		kt_strbuf_putc(d->sb, '-');
	put_seconds(d->sb, neg ? d->start_ns - ts : ts - d->start_ns);
}

void
dec_time(struct dec *d, uint64_t ts)
{
	uint64_t wall = ts + d->wall_offset_ns;
	time_t secs = (time_t)(wall / 1000000000u);
	char hms[16];
	struct tm tm;

	switch (d->time_format) {
	case KFD_DECODE_TIME_ABS:
		put_seconds(d->sb, ts);
		return;
	case KFD_DECODE_TIME_WALL:
		/* strace -tt: the local time of day, to the microsecond. */
		if (!localtime_r(&secs, &tm) ||
		    !strftime(hms, sizeof(hms), "%H:%M:%S", &tm))
			snprintf(hms, sizeof(hms), "??:??:??");
		kt_strbuf_append(d->sb, hms, strlen(hms));
		put_seconds_frac(d->sb, wall);
		return;
	default:
		dec_reltime(d, ts);
	}
}

void
dec_duration(struct dec *d, uint64_t ns)
{
	put_seconds(d->sb, ns);
}

void
dec_text_ret(struct dec *d, int64_t ret, int32_t err)
{
	const char *name, *desc;

	kt_strbuf_put_s64(d->sb, ret);
	if (ret >= 0 || err == 0)
		return;
	name = kfd_errno_name(err);
	desc = kfd_errno_desc(err);
	kt_strbuf_putc(d->sb, ' ');
	if (name) {
		kt_strbuf_puts(d->sb, name);
	} else {
		kt_strbuf_append(d->sb, "errno ", 6);
		kt_strbuf_put_s64(d->sb, err);
	}
	if (desc) {
		kt_strbuf_append(d->sb, " (", 2);
		kt_strbuf_puts(d->sb, desc);
		kt_strbuf_putc(d->sb, ')');
	}
}

void
dec_json_ret(struct dec *d, int *first, int64_t ret, int32_t err)
{
	const char *name;

	dec_key(d, first, "ret");
	dec_s64(d, ret);
	if (ret >= 0 || err == 0)
		return;
	dec_key(d, first, "err");
	dec_s64(d, err);
	name = kfd_errno_name(err);
	dec_key(d, first, "errno");
	if (name)
		kfd_json_escape(d->sb, name, strlen(name));
	else
		kt_strbuf_append(d->sb, "null", 4);
}

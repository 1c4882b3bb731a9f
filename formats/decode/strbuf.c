/* SPDX-License-Identifier: MIT */
/*
 * The growable string buffer and fast integer formatting.
 *
 * Text dumps print millions of numbers; snprintf() costs more than the rest
 * of the decoder together, so decimal and hex go through small loops here.
 */
#include <stdio.h>
#include <stdlib.h>

#include "kfdtrace/decode.h"

void
kt_strbuf_init(struct kt_strbuf *sb)
{
	sb->data = NULL;
	sb->len = 0;
	sb->cap = 0;
	sb->failed = 0;
}

void
kt_strbuf_release(struct kt_strbuf *sb)
{
	free(sb->data);
	kt_strbuf_init(sb);
}

int
kt_strbuf_reserve(struct kt_strbuf *sb, size_t extra)
{
	size_t need, cap;
	char *p;

	if (sb->failed)
		return -1;
	if (extra > SIZE_MAX / 2 - sb->len) {
		sb->failed = 1;
		return -1;
	}
	need = sb->len + extra + 1;
	if (need <= sb->cap)
		return 0;
	cap = sb->cap ? sb->cap : 256;
	while (cap < need)
		cap *= 2;
	p = realloc(sb->data, cap);
	if (!p) {
		sb->failed = 1;
		return -1;
	}
	sb->data = p;
	sb->cap = cap;
	return 0;
}

void
kt_strbuf_vprintf(struct kt_strbuf *sb, const char *fmt, va_list ap)
{
	va_list ap2;
	int n;

	if (kt_strbuf_reserve(sb, 64))
		return;
	va_copy(ap2, ap);
	n = vsnprintf(sb->data + sb->len, sb->cap - sb->len, fmt, ap2);
	va_end(ap2);
	if (n < 0)
		return;
	if ((size_t)n >= sb->cap - sb->len) {
		if (kt_strbuf_reserve(sb, (size_t)n))
			return;
		vsnprintf(sb->data + sb->len, sb->cap - sb->len, fmt, ap);
	}
	sb->len += (size_t)n;
}

void
kt_strbuf_printf(struct kt_strbuf *sb, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	kt_strbuf_vprintf(sb, fmt, ap);
	va_end(ap);
}

void
kt_strbuf_put_u64(struct kt_strbuf *sb, uint64_t v)
{
	char tmp[24];
	char *p = tmp + sizeof(tmp);

	do {
		*--p = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	kt_strbuf_append(sb, p, (size_t)(tmp + sizeof(tmp) - p));
}

void
kt_strbuf_put_s64(struct kt_strbuf *sb, int64_t v)
{
	if (v < 0) {
		kt_strbuf_putc(sb, '-');
		/* Negate in unsigned arithmetic: INT64_MIN has no positive twin. */
		kt_strbuf_put_u64(sb, 0 - (uint64_t)v);
	} else {
		kt_strbuf_put_u64(sb, (uint64_t)v);
	}
}

void
kt_strbuf_put_hex(struct kt_strbuf *sb, uint64_t v)
{
	static const char digits[] = "0123456789abcdef";
	char tmp[20];
	char *p = tmp + sizeof(tmp);

	do {
		*--p = digits[v & 0xf];
		v >>= 4;
	} while (v);
	*--p = 'x';
	*--p = '0';
	kt_strbuf_append(sb, p, (size_t)(tmp + sizeof(tmp) - p));
}

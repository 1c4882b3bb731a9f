/* SPDX-License-Identifier: MIT */
/*
 * emit-c, text from the trace: the one escaping function every byte a
 * trace holds goes through on its way into the program (header fields,
 * paths, the dump text of a call), and captured buffers of EM_BLOB_MIN
 * bytes or more as file-scope arrays initialised by string literals
 * (about 1 to 4 characters per byte, where a list of numbers takes 6),
 * identical ones defined once.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "emit_priv.h"

/* Input bytes per line of a data array's literal. */
#define EM_BLOB_LINE	64

static const char hexdig[] = "0123456789abcdef";

static void
put_hex(struct kt_strbuf *sb, unsigned char c)
{
	char esc[4] = { '\\', 'x', hexdig[c >> 4], hexdig[c & 0xf] };

	kt_strbuf_append(sb, esc, sizeof(esc));
}

/*
 * Octal, as short as the next byte allows: an octal escape ends after
 * three digits, so none can take in a digit that follows it.
 */
static void
put_oct(struct kt_strbuf *sb, unsigned char c, int digit_next)
{
	char esc[4] = { '\\', (char)('0' + (c >> 6)), (char)('0' + ((c >> 3) & 7)),
			(char)('0' + (c & 7)) };
	size_t skip = 0;

	if (!digit_next)
		skip = c < 8 ? 2 : c < 64 ? 1 : 0;
	kt_strbuf_putc(sb, '\\');
	kt_strbuf_append(sb, esc + 1 + skip, 3 - skip);
}

static void
escape_string(struct kt_strbuf *sb, const unsigned char *s, size_t n)
{
	size_t i, run = 0;

	for (i = 0; i < n; i++) {
		unsigned char c = s[i];

		/* "??" starts a trigraph: the second is escaped. */
		if (c >= 0x20 && c < 0x7f && c != '"' && c != '\\' &&
		    !(c == '?' && i && s[i - 1] == '?')) {
			run++;
			continue;
		}
		kt_strbuf_append(sb, (const char *)s + i - run, run);
		run = 0;
		if (c == '"' || c == '\\' || c == '?') {
			kt_strbuf_putc(sb, '\\');
			kt_strbuf_putc(sb, (char)c);
		} else if (c == '\n') {
			kt_strbuf_append(sb, "\\n", 2);
		} else if (c == '\t') {
			kt_strbuf_append(sb, "\\t", 2);
		} else {
			put_oct(sb, c, i + 1 < n && s[i + 1] >= '0' && s[i + 1] <= '7');
		}
	}
	kt_strbuf_append(sb, (const char *)s + i - run, run);
}

/* The last character of @sb, or 0. */
static char
last_of(const struct kt_strbuf *sb)
{
	return sb->len ? sb->data[sb->len - 1] : '\0';
}

static void
escape_comment(struct kt_strbuf *sb, const unsigned char *s, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		unsigned char c = s[i], next = i + 1 < n ? s[i + 1] : 0;
		char prev = last_of(sb);

		/* Dump's own comments become parentheses. */
		if (c == '/' && next == '*') {
			kt_strbuf_putc(sb, '(');
			i += 1 + (i + 2 < n && s[i + 2] == ' ');
		} else if (c == ' ' && next == '*' && i + 2 < n && s[i + 2] == '/') {
			kt_strbuf_putc(sb, ')');
			i += 2;
		} else if (c == '*' && next == '/') {
			kt_strbuf_putc(sb, ')');
			i++;
		} else if (c == '\n') {
			kt_strbuf_putc(sb, ' ');
		} else if (c < 0x20 || c >= 0x7f ||
			   /* a trigraph, or "/" and "*" meeting the text around */
			   (c == '?' && prev == '?') ||
			   (c == '/' && prev == '*') || (c == '*' && prev == '/') ||
			   (i + 1 == n && (c == '/' || c == '*' || c == '\\' ||
					   c == '?'))) {
			put_hex(sb, c);
		} else {
			kt_strbuf_putc(sb, (char)c);
		}
	}
}

void
em_escape(struct kt_strbuf *sb, const char *s, size_t n, enum em_esc where)
{
	if (where == EM_IN_STRING)
		escape_string(sb, (const unsigned char *)s, n);
	else
		escape_comment(sb, (const unsigned char *)s, n);
}

/* ------------------------------------------------------------------ */
/* Data arrays                                                          */

static uint64_t
blob_hash(const uint8_t *p, size_t n)
{
	uint64_t h = 0xcbf29ce484222325ull ^ n;
	size_t i;

	for (i = 0; i < n; i++)
		h = (h ^ p[i]) * 0x100000001b3ull;
	return h;
}

/* Whether blob @b holds the @n bytes at @p (read back from e->raw). */
static int
blob_same(struct em *e, const struct em_blob_ent *b, const uint8_t *p, size_t n)
{
	uint8_t buf[65536];
	size_t at = 0, k;

	if (b->len != n || fseek(e->raw, b->off, SEEK_SET))
		return 0;
	while (at < n) {
		k = n - at < sizeof(buf) ? n - at : sizeof(buf);
		if (fread(buf, 1, k, e->raw) != k || memcmp(buf, p + at, k))
			return 0;
		at += k;
	}
	return 1;
}

long
em_blob(struct em *e, const uint8_t *p, size_t n)
{
	uint64_t h = blob_hash(p, n), idx;
	struct em_blob_ent *b;
	struct kt_strbuf sb;
	size_t at, m;

	if (kc_u64map_get64(&e->blob_map, 0, h, &idx) &&
	    blob_same(e, RP_AT(&e->blobs, struct em_blob_ent, idx), p, n))
		return (long)idx;
	if ((!e->data && !(e->data = tmpfile())) ||
	    (!e->raw && !(e->raw = tmpfile())) || fseek(e->raw, 0, SEEK_END))
		return -errno;
	b = rp_vec_push(&e->blobs);
	if (!b)
		return -ENOMEM;
	idx = e->blobs.n - 1;
	b->off = ftell(e->raw);
	b->len = n;
	if (b->off < 0 || fwrite(p, 1, n, e->raw) != n)
		return -EIO;
	kc_u64map_put64(&e->blob_map, 0, h, idx);
	/* Zeros at the end need no initializer: static storage is zeroed. */
	for (m = n; m && !p[m - 1]; m--)
		;
	/* One more byte than the data: the literal's NUL always fits. */
	fprintf(e->data, "static const uint8_t d%lu[%zu] __attribute__((aligned(8)))%s",
		(unsigned long)idx, n + 1, m ? " =" : ";\n");
	kt_strbuf_init(&sb);
	for (at = 0; at < m; at += EM_BLOB_LINE) {
		kt_strbuf_clear(&sb);
		kt_strbuf_puts(&sb, "\n\t\"");
		escape_string(&sb, p + at, m - at < EM_BLOB_LINE ? m - at : EM_BLOB_LINE);
		kt_strbuf_putc(&sb, '"');
		if (sb.failed || fwrite(sb.data, 1, sb.len, e->data) != sb.len) {
			kt_strbuf_release(&sb);
			return sb.failed ? -ENOMEM : -EIO;
		}
	}
	kt_strbuf_release(&sb);
	if (m)
		fputs(";\n", e->data);
	return ferror(e->data) ? -EIO : (long)idx;
}

void
em_blob_ref(struct em *e, struct kt_strbuf *sb, const uint8_t *p, size_t n)
{
	long id = em_blob(e, p, n);

	if (id < 0) {
		/* Said where the program is written; the text stays C. */
		sb->failed = 1;
		e->blob_err = (int)id;
		kt_strbuf_puts(sb, "NULL");
		return;
	}
	kt_strbuf_printf(sb, "d%ld", id);
}

void
em_blobs_free(struct em *e)
{
	if (e->data)
		fclose(e->data);
	if (e->raw)
		fclose(e->raw);
	kc_u64map_free(&e->blob_map);
	rp_vec_free(&e->blobs);
}

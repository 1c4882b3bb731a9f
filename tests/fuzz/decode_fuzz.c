/* SPDX-License-Identifier: MIT */
/*
 * libFuzzer target: the decoders (kfd_decode_text, kfd_decode_json) over
 * records built from the input (fuzz_record.h: shaped as the reader hands
 * them out, with hostile contents).
 *
 * Oracles besides the sanitizers: the JSON must be valid JSON (strict
 * RFC 8259, valid UTF-8) and a text line must hold no line break.
 *
 * Input: u64 start_ns, u8 max_elems, u8 max_bytes, u8 flags, then up to
 * 8 records in fuzz_record.h's layout. gen_fuzz_corpus writes seeds.
 *
 * Run e.g.: ./decode_fuzz -max_len=8192 new_corpus/ tests/fuzz/corpus/decode/
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kfdtrace/decode.h"
#include "fuzz_record.h"
#include "json_check.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define MAX_RECORDS	8

static void
check_text(const struct kt_strbuf *sb, const struct kt_record *r)
{
	if (sb->failed)
		return;
	if (memchr(sb->data, '\n', sb->len) || memchr(sb->data, '\r', sb->len)) {
		fprintf(stderr, "text of a type %u record spans lines:\n%s\n", r->type, sb->data);
		abort();
	}
}

static void
check_json(const struct kt_strbuf *sb, const struct kt_record *r)
{
	const char *bad;

	if (sb->failed)
		return;
	bad = json_check(sb->data, sb->len);
	if (bad) {
		fprintf(stderr, "invalid JSON for a type %u record at offset %ld:\n%s\n", r->type,
			(long)(bad - sb->data), sb->data);
		abort();
	}
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct kfd_decode_opts opts;
	struct kt_strbuf sb;
	struct fz f;

	fz_init(&f, data, size);
	kt_strbuf_init(&sb);
	memset(&opts, 0, sizeof(opts));
	opts.start_ns = fz_u64(&f);
	opts.max_elems = fz_u8(&f);
	opts.max_bytes = fz_u8(&f);
	opts.flags = fz_u8(&f) & (KFD_DECODE_SEQ | KFD_DECODE_DURATION);
	for (int n = 0; n < MAX_RECORDS && fz_left(&f); n++) {
		struct kt_record rec;

		fz_record(&f, &rec);

		kt_strbuf_clear(&sb);
		kfd_decode_text(&sb, &rec, &opts);
		check_text(&sb, &rec);
		kt_strbuf_clear(&sb);
		kfd_decode_json(&sb, &rec, &opts);
		check_json(&sb, &rec);
		/* The defaults too. */
		kt_strbuf_clear(&sb);
		kfd_decode_text(&sb, &rec, NULL);
		check_text(&sb, &rec);
		fz_free(&f);
	}
	kt_strbuf_release(&sb);
	fz_free(&f);
	return 0;
}

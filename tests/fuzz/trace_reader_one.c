/* SPDX-License-Identifier: MIT */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "kfdtrace/trace.h"
#include "trace_reader_one.h"

static uint64_t
kt_fuzz_bytes(const void *p, size_t n)
{
	const uint8_t *b = p;
	uint64_t h = n;

	if (!p)
		return 0;
	for (size_t i = 0; i < n; i++)
		h = h * 31 + b[i];
	return h;
}

static uint64_t
kt_fuzz_str(const char *s)
{
	return s ? kt_fuzz_bytes(s, strlen(s)) : 0;
}

/* Touch everything a record points to, so a sanitizer sees bad pointers. */
static uint64_t
kt_fuzz_record(const struct kt_record *r)
{
	uint64_t h = r->type ^ r->seq ^ r->tid ^ r->ts;

	switch (r->type) {
	case KT_REC_IOCTL:
		h += kt_fuzz_bytes(r->u.ioctl.arg_before, r->u.ioctl.arg_size);
		h += kt_fuzz_bytes(r->u.ioctl.arg_after, r->u.ioctl.arg_size);
		for (unsigned int i = 0; i < r->u.ioctl.nbufs; i++) {
			const struct kt_buf_image *b = &r->u.ioctl.bufs[i];

			h += b->addr + b->flags + b->index;
			h += kt_fuzz_bytes(b->before, b->before ? b->len_before : 0);
			h += kt_fuzz_bytes(b->after, b->after ? b->len_after : 0);
		}
		break;
	case KT_REC_OPEN:
		h += kt_fuzz_str(r->u.open.path);
		break;
	case KT_REC_EXEC:
		h += kt_fuzz_str(r->u.exec.path);
		h += kt_fuzz_bytes(r->u.exec.argv, r->u.exec.argv_len);
		break;
	case KT_REC_THREAD_NAME:
		h += kt_fuzz_str(r->u.thread_name.name);
		break;
	case KT_REC_TOPOLOGY:
		for (uint32_t i = 0; i < r->u.topology.nfiles; i++) {
			h += kt_fuzz_str(r->u.topology.files[i].path);
			h += kt_fuzz_bytes(r->u.topology.files[i].data,
					   r->u.topology.files[i].len);
		}
		break;
	case KT_REC_ANNOTATION:
		h += kt_fuzz_str(r->u.annotation.text);
		break;
	case KT_REC_API_CALL:
		h += kt_fuzz_str(r->u.api.name) + kt_fuzz_str(r->u.api.args);
		break;
	default:
		break;
	}
	return h;
}

static int
cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/*
 * An OK verdict after a whole read promises what the reader's checks
 * check (docs/trace-format.md section 7): no more records than END says
 * were written (fewer when some are of types this reader skips), none
 * twice. Checked here the slow, obvious way; abort() on a lie.
 */
static void
kt_fuzz_check_ok(const struct kt_reader_status *st, uint64_t *seqs,
		 size_t nseq)
{
	if (st->integrity != KT_INTEGRITY_OK)
		return;
	if (nseq > st->end_records)
		abort();
	qsort(seqs, nseq, sizeof(*seqs), cmp_u64);
	/* The reader gives up on repeats over a span it cannot hold. */
	if (nseq && seqs[nseq - 1] - seqs[0] > (1ull << 25))
		return;
	for (size_t i = 1; i < nseq; i++)
		if (seqs[i] == seqs[i - 1])
			abort();
}

uint64_t
kt_fuzz_trace_reader(const uint8_t *data, size_t size)
{
	uint64_t *seqs = NULL;
	size_t nseq = 0, cap = 0;
	bool oom = false;
	struct kt_reader_status st;
	const struct kt_header *hdr;
	struct kt_reader *r;
	struct kt_record rec;
	uint64_t h = 0, first_seq = 0;
	int ret, n = 0;

	if (kt_reader_open_mem(data, size, &r))
		return 0;
	hdr = kt_reader_header(r);
	h += kt_fuzz_str(hdr->producer) + kt_fuzz_str(hdr->exe) +
	     kt_fuzz_bytes(hdr->cmdline, hdr->cmdline_len);
	while ((ret = kt_reader_next(r, &rec)) == 1) {
		if (n++ == 0)
			first_seq = rec.seq;
		h += kt_fuzz_record(&rec);
		if (rec.type == KT_REC_END)
			continue;
		if (nseq == cap) {
			uint64_t *ns = realloc(seqs, (cap = cap * 2 + 64) *
					       sizeof(*ns));

			if (!ns) {
				oom = true;
				break;
			}
			seqs = ns;
		}
		seqs[nseq++] = rec.seq;
	}
	kt_reader_get_status(r, &st);
	if (ret == 0 && !oom)
		kt_fuzz_check_ok(&st, seqs, nseq);
	free(seqs);
	h += st.records + st.corrupt_offset + kt_fuzz_str(st.message);
	/* Seeks build the frame table from the index or by walking. */
	if (kt_reader_seek_seq(r, first_seq + (size & 7)) == 0)
		while (kt_reader_next(r, &rec) == 1)
			h += kt_fuzz_record(&rec);
	if (kt_reader_seek_time(r, size & 1 ? 0 : UINT64_MAX / 2) == 0)
		while (kt_reader_next(r, &rec) == 1)
			h += rec.seq;
	kt_reader_close(r);
	return h;
}

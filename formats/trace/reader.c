/* SPDX-License-Identifier: MIT */
/*
 * The reader: opening a file or memory image, the record loop, status.
 * Records are decoded in place in the current decompressed frame; a scan
 * allocates only when a frame is bigger than any before it.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zstd.h>

#include "kfdtrace/blob.h"
#include "reader_internal.h"

int
kt_reader_fail(struct kt_reader *r, int err, int line, uint64_t off,
	       uint64_t raw_off, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(r->st.message, sizeof(r->st.message), fmt, ap);
	va_end(ap);
	/* Like SQLite's CORRUPT_BKPT: the line says which check fired. */
	if (n >= 0 && (size_t)n < sizeof(r->st.message))
		snprintf(r->st.message + n, sizeof(r->st.message) - (size_t)n,
			 " [reader:%d]", line);
	if (err == -KT_ECORRUPT || err == -KT_ETRUNC) {
		r->st.integrity = err == -KT_ETRUNC ? KT_INTEGRITY_TRUNCATED :
						      KT_INTEGRITY_CORRUPT;
		r->st.corrupt_offset = off;
		r->st.corrupt_raw_offset = raw_off;
	}
	r->err = err;
	return err;
}

/*
 * A record whose time its header's clocks cannot have given (a forged or
 * damaged time): corrupt, since every tool downstream (CTF, Perfetto, the
 * report's time axis) would otherwise turn it into nonsense or worse.
 */
static int
kt_reader_bad_time(struct kt_reader *r, const struct kt_record *rec,
		   size_t off)
{
	return KT_CORRUPT(r, r->frame_off, off,
			  "record seq %llu at offset %zu of the frame at file "
			  "offset %zu: time %llu ns outside the header's clock "
			  "range %llu..%llu",
			  (unsigned long long)rec->seq, off, r->frame_off,
			  (unsigned long long)rec->ts,
			  (unsigned long long)r->ts_lo,
			  (unsigned long long)r->ts_hi);
}

/* Recognise a valid footer: it makes the file "complete" (section 6.3). */
static void
kt_reader_find_footer(struct kt_reader *r)
{
	const uint8_t *f;
	uint64_t idx;

	if (r->size < r->data_start + KT_FOOTER_SIZE)
		return;
	f = r->data + r->size - KT_FOOTER_SIZE;
	if (kt_get_le32(f) != KT_SKIP_MAGIC ||
	    kt_get_le32(f + 4) != KT_FOOTER_PAYLOAD ||
	    memcmp(f + 8, KT_TAG_FOOTER, KT_TAG_LEN) ||
	    !kt_skip_check(f + 8, KT_FOOTER_PAYLOAD))
		return;
	idx = kt_get_le64(f + 16);
	if (idx < r->data_start || idx >= r->size - KT_FOOTER_SIZE)
		return;
	r->complete = true;
	r->footer_index = idx;
}

static int
kt_reader_init(const uint8_t *data, size_t len, void *map, uint8_t *copy,
	       struct kt_reader **out, const char **whyp)
{
	struct kt_reader *r;
	const char *why = NULL;
	int err;

	r = calloc(1, sizeof(*r));
	if (!r)
		return -ENOMEM;
	kt_reader_blobs_init(r);
	r->data = data;
	r->size = len;
	r->map = map;
	r->copy = copy;
	err = kt_header_decode(data, len, &r->hdr, &r->data_start, &why);
	if (err) {
		if (whyp)
			*whyp = why;
		kt_reader_close(r);
		return err;
	}
	r->dctx = ZSTD_createDCtx();
	if (!r->dctx) {
		kt_reader_close(r);
		return -ENOMEM;
	}
	kt_header_ts_range(&r->hdr, &r->ts_lo, &r->ts_hi);
	r->pos = r->data_start;
	r->ahead_on = true;
	r->st.integrity = KT_INTEGRITY_NO_END;
	r->st.file_size = len;
	r->st.corrupt_raw_offset = KT_NO_RAW;
	kt_reader_find_footer(r);
	*out = r;
	return 0;
}

int
kt_reader_open_mem(const void *data, size_t len, struct kt_reader **out)
{
	*out = NULL;
	if (!data && len)
		return -EINVAL;
	return kt_reader_init(data, len, NULL, NULL, out, NULL);
}

/*
 * Pipes and other unmappable files are read into memory, within a bound.
 * Each frame is checked as it arrives, by what its first bytes say of its
 * extent (the magic, a skippable frame's size, a zstd frame's headers), so
 * input that stops being a trace is not read any further: the reader then
 * meets the same bad bytes and reports them with their offset, and the
 * memory spent stays that of the good frames before them.
 */
static int
kt_read_fd(int fd, uint8_t **out, size_t *len, const char **why)
{
	size_t cap = 1 << 16, got = 0, walk = 0;
	uint8_t *buf = malloc(cap), *nb;
	bool bad = false;

	if (!buf)
		return -ENOMEM;
	while (!bad) {
		ssize_t n;

		if (!walk && got >= 16) {
			struct kt_header h;
			int err = kt_header_decode(buf, got, &h, &walk, why);

			if (err == -KT_ENOTTRACE) {
				free(buf);
				return err;
			}
			/* The reader says what is wrong with the header. */
			if (err && err != -KT_ETRUNC)
				break;
		}
		while (walk && walk < got) {
			const char *ignored;
			size_t size;
			bool is_data;
			int err = kt_frame_extent(buf, got, walk, &size,
						  &is_data, &ignored);

			if (err == -KT_ECORRUPT)
				bad = true;
			if (err)
				break;
			walk += size;
		}
		if (bad)
			break;
		if (got >= KT_READER_STREAM_MAX) {
			*why = "a pipe or device input over 4 GiB (save it to a file)";
			free(buf);
			return -KT_ETOOBIG;
		}
		if (got == cap) {
			nb = realloc(buf, cap * 2);
			if (!nb) {
				free(buf);
				return -ENOMEM;
			}
			buf = nb;
			cap *= 2;
		}
		n = read(fd, buf + got, cap - got);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			int err = -errno;

			free(buf);
			return err;
		}
		if (n == 0)
			break;
		got += (size_t)n;
	}
	*out = buf;
	*len = got;
	return 0;
}

int
kt_reader_open(const char *path, struct kt_reader **out)
{
	return kt_reader_open_why(path, out, NULL);
}

int
kt_reader_open_why(const char *path, struct kt_reader **out, const char **why)
{
	const char *dummy;
	uint8_t *copy = NULL;
	void *map = NULL;
	struct stat sb;
	size_t len = 0;
	int fd, err;

	if (!why)
		why = &dummy;
	*why = NULL;
	*out = NULL;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (fstat(fd, &sb)) {
		err = -errno;
		close(fd);
		return err;
	}
	if (S_ISREG(sb.st_mode) && sb.st_size > 0 &&
	    (uint64_t)sb.st_size <= SIZE_MAX) {
		len = (size_t)sb.st_size;
		map = mmap(NULL, len, PROT_READ, MAP_PRIVATE, fd, 0);
		if (map == MAP_FAILED)
			map = NULL;
	}
	if (!map && !(S_ISREG(sb.st_mode) && sb.st_size == 0)) {
		err = kt_read_fd(fd, &copy, &len, why);
		if (err) {
			close(fd);
			return err;
		}
	}
	close(fd);
	if (map)
		madvise(map, len, MADV_SEQUENTIAL);
	err = kt_reader_init(map ? map : copy, len, map, copy, out, why);
	/* Blobs a memory record names by hash alone are in the run's store. */
	if (!err && kt_blob_store_of((*out)->store, sizeof((*out)->store), path))
		(*out)->store[0] = '\0';
	return err;
}

void
kt_reader_set_readahead(struct kt_reader *r, int on)
{
	if (!on)
		kt_ahead_stop(r);
	r->ahead_on = on && !r->ahead;
}

const struct kt_header *
kt_reader_header(const struct kt_reader *r)
{
	return &r->hdr;
}

int
kt_reader_next(struct kt_reader *r, struct kt_record *rec)
{
	for (;;) {
		int ret;

		if (KT_UNLIKELY(r->err))
			return r->err;
		while (r->rpos < r->flen) {
			size_t off = r->rpos;
			const char *why = NULL;
			bool known;
			long n;

			n = kt_rec_decode(r->fbuf + off, r->flen - off, &r->dec,
					  rec, &known, &why);
			if (KT_UNLIKELY(n < 0)) {
				if (n == -ENOMEM)
					return kt_reader_fail(r, -ENOMEM,
							      __LINE__,
							      r->frame_off, off,
							      "out of memory");
				return KT_CORRUPT(r, r->frame_off, off,
						  "record at offset %zu of the "
						  "frame at file offset %zu: %s%s",
						  off, r->frame_off,
						  r->dec.bad_field ?
						  "bad or truncated " : "",
						  why);
			}
			if (KT_UNLIKELY(rec->ts < r->ts_lo || rec->ts > r->ts_hi))
				return kt_reader_bad_time(r, rec, off);
			r->rpos = off + (size_t)n;
			kt_check_record_fast(r, rec, known);
			if (KT_UNLIKELY(!known))
				continue;
			if (KT_UNLIKELY(r->cur_ent != NULL)) {
				if (!r->cur_any || rec->seq > r->cur_max_seq)
					r->cur_max_seq = rec->seq;
				r->cur_any = true;
			}
			if (KT_UNLIKELY(rec->type == KT_REC_END))
				r->seen_end = true;
			if (KT_UNLIKELY(r->skip_mode != KT_SKIP_NONE)) {
				uint64_t v = r->skip_mode == KT_SKIP_SEQ ?
					     rec->seq : rec->ts;

				if (v < r->skip_val)
					continue;
				r->skip_mode = KT_SKIP_NONE;
			}
			if (KT_UNLIKELY(rec->type == KT_REC_MEMORY)) {
				int err = kt_reader_memory(r, rec);

				if (err == -ENOMEM)
					return kt_reader_fail(r, -ENOMEM,
							      __LINE__,
							      r->frame_off, off,
							      "out of memory");
				if (err)
					return KT_CORRUPT(r, r->frame_off, off,
							  "record at offset %zu of "
							  "the frame at file offset "
							  "%zu: bad memory delta",
							  off, r->frame_off);
			}
			r->st.records++;
			return 1;
		}
		ret = kt_reader_load_frame(r);
		if (ret <= 0)
			return ret;
	}
}

void
kt_reader_get_status(const struct kt_reader *r, struct kt_reader_status *st)
{
	*st = r->st;
}

enum kt_integrity
kt_reader_verdict(const struct kt_reader *r, int rc)
{
	if (rc == -KT_ETRUNC)
		return KT_INTEGRITY_TRUNCATED;
	if (rc == -KT_ECORRUPT)
		return KT_INTEGRITY_CORRUPT;
	return r->st.integrity;
}

const char *
kt_integrity_name(enum kt_integrity i)
{
	static const char *const names[] = {
		[KT_INTEGRITY_OK] = "ok",
		[KT_INTEGRITY_NO_END] = "no-end",
		[KT_INTEGRITY_TRUNCATED] = "truncated",
		[KT_INTEGRITY_CORRUPT] = "corrupt",
		[KT_INTEGRITY_INCOMPLETE] = "incomplete",
		[KT_INTEGRITY_DAMAGED] = "damaged",
	};

	return (unsigned int)i < sizeof(names) / sizeof(names[0]) ? names[i] :
	       "damaged";
}

void
kt_reader_close(struct kt_reader *r)
{
	if (!r)
		return;
	kt_reader_blobs_free(r);
	kt_ahead_stop(r);
	if (r->map)
		munmap(r->map, r->size);
	free(r->copy);
	free(r->fbuf);
	free(r->dec.files);
	free(r->table);
	kt_check_free(r);
	ZSTD_freeDCtx(r->dctx);
	free(r);
}

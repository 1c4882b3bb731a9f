/* SPDX-License-Identifier: MIT */
/*
 * Memory blobs of --submissions=full (docs/trace-format.md 5.4.15): their
 * content hash, the run's blob store, and the delta that records a small
 * blob as the changes from the previous one at the same address.
 *
 * The blob store is a directory next to the trace files of a run
 * recorded with `-o DIR/`: DIR/.kfdtrace-blobs/<hash>, one file per
 * blob, holding its bytes and named by the lowercase hex SHA-256 of them.
 * A process creates a blob under a temporary name and link()s it into
 * place, so processes that store the same blob at once never see a part
 * of it, and the first one's stays.
 */
#ifndef KFDTRACE_BLOB_H
#define KFDTRACE_BLOB_H

#include <stddef.h>
#include <stdint.h>

#include <kfdtrace/trace.h>

/* The store's directory name, next to a run's trace files. */
#define KT_BLOB_DIR ".kfdtrace-blobs"

/* A hash as text: 64 hex digits and a NUL. */
#define KT_BLOB_HEX_LEN (2 * KT_MEM_HASH_LEN + 1)

/*
 * kt_blob_hash() - the SHA-256 of @len bytes at @data into @out. @data
 * may be NULL when @len is 0.
 */
void kt_blob_hash(const void *data, size_t len, uint8_t out[KT_MEM_HASH_LEN]);

/* kt_blob_hex() - @hash as lowercase hex into @out. Return: @out. */
char *kt_blob_hex(const uint8_t hash[KT_MEM_HASH_LEN],
		  char out[KT_BLOB_HEX_LEN]);

/*
 * kt_blob_store_of() - the store of the run @trace_path belongs to (the
 * KT_BLOB_DIR in the trace's directory) into @buf.
 * Return: 0, or -ENAMETOOLONG when it does not fit @size.
 */
int kt_blob_store_of(char *buf, size_t size, const char *trace_path);

/*
 * kt_blob_put() - store @len bytes at @data, whose hash is @hash, in the
 * store @dir (created when missing). Uses open(), write(), link(): the
 * caller in a traced process keeps its wrappers out of the way.
 * Return: 1 when this call stored it, 0 when the store held it already,
 * or -errno (nothing is left behind then).
 */
int kt_blob_put(const char *dir, const uint8_t hash[KT_MEM_HASH_LEN],
		const void *data, size_t len);

/* kt_blob_has() - whether the store @dir has a blob named @hash. */
int kt_blob_has(const char *dir, const uint8_t hash[KT_MEM_HASH_LEN]);

/*
 * kt_blob_get() - the blob @hash of the store @dir, at most @max bytes,
 * in a malloc()ed buffer (*@data, *@len; free() it).
 * Return: 0; -ENOENT when the store has no such blob; -KT_ECORRUPT when
 * its bytes do not have its hash (or are over @max); -ENOMEM, or read()'s
 * errno.
 */
int kt_blob_get(const char *dir, const uint8_t hash[KT_MEM_HASH_LEN],
		size_t max, uint8_t **data, size_t *len);

/*
 * kt_mem_delta_encode() - the delta that turns @base into @cur (@len
 * bytes each, @len <= KT_MEM_DELTA_MAX) into @out (KT_MEM_DELTA_ENC_MAX
 * bytes): a varint mask whose bit i says the 8-byte word i changed, then
 * each changed word (the last word of @len may be shorter than 8).
 * Return: the delta's length, or 0 when @len is over KT_MEM_DELTA_MAX.
 */
size_t kt_mem_delta_encode(const uint8_t *base, const uint8_t *cur,
			   size_t len, uint8_t *out);

/*
 * kt_mem_delta_apply() - apply the @dlen-byte delta at @delta to the
 * @len bytes at @buf, in place.
 * Return: 0, or -KT_ECORRUPT when the delta is malformed or names a word
 * past @len (@buf may then be partly changed).
 */
int kt_mem_delta_apply(uint8_t *buf, size_t len, const uint8_t *delta,
		       size_t dlen);

#endif /* KFDTRACE_BLOB_H */

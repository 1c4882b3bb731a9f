/* SPDX-License-Identifier: MIT */
/*
 * Memory blobs: the content hash (nettle's SHA-256), the run's blob store
 * and the word delta of a memory record (kfdtrace/blob.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <nettle/sha2.h>
#include <zstd.h>

#include "kfdtrace/blob.h"

void
kt_blob_hash(const void *data, size_t len, uint8_t out[KT_MEM_HASH_LEN])
{
	struct sha256_ctx ctx;

	sha256_init(&ctx);
	if (len)
		sha256_update(&ctx, len, data);
	sha256_digest(&ctx, KT_MEM_HASH_LEN, out);
}

char *
kt_blob_hex(const uint8_t hash[KT_MEM_HASH_LEN], char out[KT_BLOB_HEX_LEN])
{
	static const char digits[] = "0123456789abcdef";

	for (size_t i = 0; i < KT_MEM_HASH_LEN; i++) {
		out[2 * i] = digits[hash[i] >> 4];
		out[2 * i + 1] = digits[hash[i] & 15];
	}
	out[2 * KT_MEM_HASH_LEN] = '\0';
	return out;
}

int
kt_blob_store_of(char *buf, size_t size, const char *trace_path)
{
	const char *slash = strrchr(trace_path, '/');
	int n;

	if (slash)
		n = snprintf(buf, size, "%.*s/%s", (int)(slash - trace_path),
			     trace_path, KT_BLOB_DIR);
	else
		n = snprintf(buf, size, "%s", KT_BLOB_DIR);
	return n < 0 || (size_t)n >= size ? -ENAMETOOLONG : 0;
}

static int
blob_path(char *buf, size_t size, const char *dir,
	  const uint8_t hash[KT_MEM_HASH_LEN])
{
	char hex[KT_BLOB_HEX_LEN];
	int n = snprintf(buf, size, "%s/%s", dir, kt_blob_hex(hash, hex));

	return n < 0 || (size_t)n >= size ? -ENAMETOOLONG : 0;
}

static int
write_all(int fd, const uint8_t *p, size_t len)
{
	while (len) {
		ssize_t n = write(fd, p, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		if (n == 0)
			return -EIO;
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

int
kt_blob_has(const char *dir, const uint8_t hash[KT_MEM_HASH_LEN])
{
	char path[PATH_MAX];
	struct stat st;

	return !blob_path(path, sizeof(path), dir, hash) && stat(path, &st) == 0;
}

/* The level of a blob's zstd frame: the trace writer's default. */
#define BLOB_LEVEL 1

int
kt_blob_put(const char *dir, const uint8_t hash[KT_MEM_HASH_LEN],
	    const void *data, size_t len)
{
	static atomic_uint serial;
	char path[PATH_MAX], tmp[PATH_MAX];
	size_t cap = ZSTD_compressBound(len), n;
	struct stat st;
	uint8_t *z;
	int fd, err;

	err = blob_path(path, sizeof(path), dir, hash);
	if (err)
		return err;
	if (stat(path, &st) == 0)
		return 0;
	if (mkdir(dir, 0700) && errno != EEXIST)
		return -errno;
	z = malloc(cap);
	if (!z)
		return -ENOMEM;
	n = ZSTD_compress(z, cap, data, len, BLOB_LEVEL);
	if (ZSTD_isError(n)) {
		free(z);
		return -EIO;
	}
	/* A name no other process or thread uses; never a blob's (dot). */
	err = snprintf(tmp, sizeof(tmp), "%s/.tmp.%d.%u", dir, (int)getpid(),
		       atomic_fetch_add(&serial, 1));
	if (err < 0 || (size_t)err >= sizeof(tmp)) {
		free(z);
		return -ENAMETOOLONG;
	}
	fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (fd < 0) {
		err = -errno;
		free(z);
		return err;
	}
	err = write_all(fd, z, n);
	free(z);
	if (close(fd) && !err)
		err = -errno;
	/* link() never replaces: the first process's blob is the one. */
	if (!err && link(tmp, path) != 0)
		err = errno == EEXIST ? 1 : -errno;
	unlink(tmp);
	if (err == 1)
		return 0;
	return err ? err : 1;
}

/* The whole of @fd (at most @max bytes) into a malloc()ed buffer. */
static int
read_all(int fd, size_t max, uint8_t **out, size_t *len)
{
	struct stat st;
	size_t have = 0;
	uint8_t *buf;

	if (fstat(fd, &st))
		return -errno;
	if (!S_ISREG(st.st_mode) || (uint64_t)st.st_size > max)
		return -KT_ECORRUPT;
	buf = malloc(st.st_size ? (size_t)st.st_size : 1);
	if (!buf)
		return -ENOMEM;
	while (have < (size_t)st.st_size) {
		ssize_t n = read(fd, buf + have, (size_t)st.st_size - have);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			int err = n < 0 ? -errno : -KT_ECORRUPT;

			free(buf);
			return err;
		}
		have += (size_t)n;
	}
	*out = buf;
	*len = have;
	return 0;
}

int
kt_blob_get(const char *dir, const uint8_t hash[KT_MEM_HASH_LEN],
	    size_t max, uint8_t **data, size_t *len)
{
	uint8_t got[KT_MEM_HASH_LEN], *z = NULL, *buf = NULL;
	unsigned long long size;
	char path[PATH_MAX];
	size_t zlen = 0, n;
	int fd, err;

	*data = NULL;
	*len = 0;
	err = blob_path(path, sizeof(path), dir, hash);
	if (err)
		return err;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	err = read_all(fd, ZSTD_compressBound(max), &z, &zlen);
	close(fd);
	if (err)
		return err;
	/* One zstd frame that says its size, within @max. */
	size = ZSTD_getFrameContentSize(z, zlen);
	if (size == ZSTD_CONTENTSIZE_UNKNOWN || size == ZSTD_CONTENTSIZE_ERROR ||
	    size > max || ZSTD_findFrameCompressedSize(z, zlen) != zlen) {
		free(z);
		return -KT_ECORRUPT;
	}
	buf = malloc(size ? (size_t)size : 1);
	if (!buf) {
		free(z);
		return -ENOMEM;
	}
	n = ZSTD_decompress(buf, (size_t)size, z, zlen);
	free(z);
	if (ZSTD_isError(n) || n != size)
		err = -KT_ECORRUPT;
	if (!err) {
		kt_blob_hash(buf, n, got);
		if (memcmp(got, hash, KT_MEM_HASH_LEN))
			err = -KT_ECORRUPT;
	}
	if (err) {
		free(buf);
		return err;
	}
	*data = buf;
	*len = n;
	return 0;
}

size_t
kt_mem_delta_encode(const uint8_t *base, const uint8_t *cur, size_t len,
		    uint8_t *out)
{
	uint64_t mask = 0, m;
	size_t words = (len + 7) / 8, i, n = 0;

	if (len > KT_MEM_DELTA_MAX)
		return 0;
	for (i = 0; i < words; i++) {
		size_t w = len - 8 * i < 8 ? len - 8 * i : 8;

		if (memcmp(base + 8 * i, cur + 8 * i, w))
			mask |= 1ull << i;
	}
	for (m = mask; m >= 0x80; m >>= 7)
		out[n++] = (uint8_t)(m | 0x80);
	out[n++] = (uint8_t)m;
	for (i = 0; i < words; i++) {
		size_t w = len - 8 * i < 8 ? len - 8 * i : 8;

		if (mask & (1ull << i)) {
			memcpy(out + n, cur + 8 * i, w);
			n += w;
		}
	}
	return n;
}

int
kt_mem_delta_apply(uint8_t *buf, size_t len, const uint8_t *delta,
		   size_t dlen)
{
	uint64_t mask = 0;
	size_t n = 0, i, words = (len + 7) / 8;
	unsigned int shift = 0;

	for (;;) {
		if (n >= dlen || shift > 63)
			return -KT_ECORRUPT;
		mask |= (uint64_t)(delta[n] & 0x7f) << shift;
		if (!(delta[n++] & 0x80))
			break;
		shift += 7;
	}
	if (words < 64 && (mask >> words))
		return -KT_ECORRUPT;
	for (i = 0; i < words; i++) {
		size_t w = len - 8 * i < 8 ? len - 8 * i : 8;

		if (!(mask & (1ull << i)))
			continue;
		if (dlen - n < w)
			return -KT_ECORRUPT;
		memcpy(buf + 8 * i, delta + n, w);
		n += w;
	}
	return n == dlen ? 0 : -KT_ECORRUPT;
}

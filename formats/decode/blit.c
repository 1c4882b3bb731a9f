/* SPDX-License-Identifier: MIT */
/*
 * What HIP's blit kernels read and write (kfdtrace/decode.h), from the
 * kernel arguments ROCclr sets for them. Two layouts each:
 *
 *   __amd_rocclr_copyBuffer
 *     HIP 5.2   src, dst, src offset, dst offset (bytes), the size in
 *               dwords plus one, the bytes past the last whole dword (u32)
 *     HIP 6.x   src, dst (offsets added), size (bytes), remainder (u32),
 *               aligned size (u32: 4 or 16), end pointer (dst + size -
 *               remainder), next chunk (u32)
 *   __amd_rocclr_fillBufferAligned
 *     HIP 5.2   four buffer pointers of which one is set (bytes, shorts,
 *               words, quadwords: the element), pattern, pattern size
 *               (u32, elements), offset (elements), count of patterns
 *     HIP 6.x   buffer (offset added), pattern, pattern size (u32, in
 *               alignment units), alignment (u32: 1 to 16), end pointer,
 *               next chunk (u32)
 *
 * The HIP 6.x layouts are told apart by their own consistency: the end
 * pointer closes the range the others open, and the alignment is a small
 * power of two where HIP 5.2 has a pointer's or an offset's high half.
 */
#include <string.h>

#include "decode_priv.h"

static int
copy_args(const uint8_t *ka, size_t len, struct kfd_blit *b)
{
	uint64_t size, dwords;
	uint32_t rem, align;

	if (len < 44)
		return -1;
	b->kind = KFD_BLIT_COPY;
	/* HIP 6.x */
	size = dec_get_u64(ka + 16);
	rem = dec_get_u32(ka + 24);
	align = dec_get_u32(ka + 28);
	if ((align == 4 || align == 16) && rem < align && size >= rem &&
	    dec_get_u64(ka + 32) == dec_get_u64(ka + 8) + size - rem) {
		b->src = dec_get_u64(ka);
		b->dst = dec_get_u64(ka + 8);
		b->len = size;
		return 0;
	}
	/* HIP 5.2 */
	dwords = dec_get_u64(ka + 32);
	rem = dec_get_u32(ka + 40);
	if (!dwords || rem >= 4 || dwords > (UINT64_MAX >> 2))
		return -1;
	b->src = dec_get_u64(ka) + dec_get_u64(ka + 16);
	b->dst = dec_get_u64(ka + 8) + dec_get_u64(ka + 24);
	b->len = (dwords - 1) * 4 + rem;
	return 0;
}

static int
fill_args(const uint8_t *ka, size_t len, struct kfd_blit *b)
{
	uint64_t buf = 0, elem = 0, count, psize;
	uint32_t align;

	b->kind = KFD_BLIT_FILL;
	/* HIP 6.x */
	if (len >= 36) {
		psize = dec_get_u32(ka + 16);
		align = dec_get_u32(ka + 20);
		if (align && align <= 16 && !(align & (align - 1)) && psize &&
		    dec_get_u64(ka) && dec_get_u64(ka + 8) && dec_get_u64(ka + 24) >= dec_get_u64(ka)) {
			b->dst = dec_get_u64(ka);
			b->len = dec_get_u64(ka + 24) - b->dst;
			b->pattern = dec_get_u64(ka + 8);
			b->pattern_len = psize * align;
			return 0;
		}
	}
	/* HIP 5.2: exactly one buffer pointer */
	if (len < 64)
		return -1;
	for (unsigned int i = 0; i < 4; i++) {
		if (!dec_get_u64(ka + i * 8))
			continue;
		if (buf)
			return -1;
		buf = dec_get_u64(ka + i * 8);
		elem = 1ull << i;
	}
	psize = dec_get_u32(ka + 40);
	count = dec_get_u64(ka + 56);
	if (!buf || !psize || !dec_get_u64(ka + 32) || count > UINT64_MAX / 8 / psize)
		return -1;
	b->dst = buf + dec_get_u64(ka + 48) * elem;
	b->len = count * psize * elem;
	b->pattern = dec_get_u64(ka + 32);
	b->pattern_len = psize * elem;
	return 0;
}

int
kfd_blit_args(const char *name, const uint8_t *ka, size_t len, struct kfd_blit *b)
{
	memset(b, 0, sizeof(*b));
	if (!name || !ka)
		return -1;
	if (!strcmp(name, "__amd_rocclr_copyBuffer"))
		return copy_args(ka, len, b);
	if (!strcmp(name, "__amd_rocclr_fillBufferAligned"))
		return fill_args(ka, len, b);
	return -1;
}

/* SPDX-License-Identifier: MIT */
/*
 * CRC-32 (ISO-HDLC, the zlib one) of kfdtrace skippable frames. Those frames
 * are small (header, index, footer), so a 16-entry table processing a nibble
 * at a time is fast enough and needs no initialisation.
 */
#include "trace_internal.h"

static const uint32_t kt_crc_nibble[16] = {
	0x00000000, 0x1db71064, 0x3b6e20c8, 0x26d930ac,
	0x76dc4190, 0x6b6b51f4, 0x4db26158, 0x5005713c,
	0xedb88320, 0xf00f9344, 0xd6d6a3e8, 0xcb61b38c,
	0x9b64c2b0, 0x86d3d2d4, 0xa00ae278, 0xbdbdf21c,
};

uint32_t
kt_crc32(const void *data, size_t len)
{
	const uint8_t *p = data;
	uint32_t crc = 0xFFFFFFFFu;

	while (len--) {
		crc ^= *p++;
		crc = (crc >> 4) ^ kt_crc_nibble[crc & 15];
		crc = (crc >> 4) ^ kt_crc_nibble[crc & 15];
	}
	return crc ^ 0xFFFFFFFFu;
}

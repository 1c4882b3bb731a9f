/* SPDX-License-Identifier: MIT */
/*
 * Index and footer frames (docs/trace-format.md section 6) and the CRC check
 * shared by every kfdtrace skippable frame.
 */
#include "trace_internal.h"

bool
kt_skip_check(const uint8_t *payload, size_t size)
{
	if (size < KT_SKIP_MIN_PAYLOAD)
		return false;
	return kt_crc32(payload, size - 4) == kt_get_le32(payload + size - 4);
}

static void
kt_skip_seal(uint8_t *out, size_t payload_size)
{
	kt_put_le32(out, KT_SKIP_MAGIC);
	kt_put_le32(out + 4, (uint32_t)payload_size);
	kt_put_le32(out + 8 + payload_size - 4,
		    kt_crc32(out + 8, payload_size - 4));
}

void
kt_index_encode(uint8_t *out, const struct kt_index_entry *ent, size_t count,
		uint64_t prev_index)
{
	uint8_t *payload = out + 8, *p;

	memcpy(payload, KT_TAG_INDEX, KT_TAG_LEN);
	kt_put_le32(payload + 8, KT_INDEX_ENTRY_SIZE);
	kt_put_le32(payload + 12, (uint32_t)count);
	kt_put_le64(payload + 16, prev_index);
	p = payload + KT_INDEX_HDR_SIZE;
	for (size_t i = 0; i < count; i++, p += KT_INDEX_ENTRY_SIZE) {
		kt_put_le64(p, ent[i].frame_offset);
		kt_put_le32(p + 8, ent[i].frame_size);
		kt_put_le32(p + 12, ent[i].raw_size);
		kt_put_le64(p + 16, ent[i].min_seq);
		kt_put_le64(p + 24, ent[i].max_seq);
		kt_put_le64(p + 32, ent[i].min_ts);
		kt_put_le64(p + 40, ent[i].max_ts);
		kt_put_le32(p + 48, ent[i].records);
		kt_put_le32(p + 52, ent[i].flags);
	}
	kt_skip_seal(out, kt_index_frame_size(count) - 8);
}

void
kt_footer_encode(uint8_t *out, uint64_t last_index)
{
	memcpy(out + 8, KT_TAG_FOOTER, KT_TAG_LEN);
	kt_put_le64(out + 16, last_index);
	kt_skip_seal(out, KT_FOOTER_PAYLOAD);
}

bool
kt_index_parse(const uint8_t *payload, size_t size, uint32_t *count,
	       uint32_t *entry_size, uint64_t *prev_index)
{
	uint64_t need;

	if (size < KT_INDEX_HDR_SIZE + 4)
		return false;
	*entry_size = kt_get_le32(payload + 8);
	*count = kt_get_le32(payload + 12);
	*prev_index = kt_get_le64(payload + 16);
	if (*entry_size < KT_INDEX_ENTRY_SIZE || *count > KT_MAX_INDEX_ENTRIES)
		return false;
	need = KT_INDEX_HDR_SIZE + (uint64_t)*count * *entry_size + 4;
	return need == size;
}

void
kt_index_entry_get(const uint8_t *payload, uint32_t entry_size, uint32_t i,
		   struct kt_index_entry *e)
{
	const uint8_t *p = payload + KT_INDEX_HDR_SIZE + (size_t)i * entry_size;

	e->frame_offset = kt_get_le64(p);
	e->frame_size = kt_get_le32(p + 8);
	e->raw_size = kt_get_le32(p + 12);
	e->min_seq = kt_get_le64(p + 16);
	e->max_seq = kt_get_le64(p + 24);
	e->min_ts = kt_get_le64(p + 32);
	e->max_ts = kt_get_le64(p + 40);
	e->records = kt_get_le32(p + 48);
	e->flags = kt_get_le32(p + 52);
}

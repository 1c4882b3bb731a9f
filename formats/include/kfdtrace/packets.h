/* SPDX-License-Identifier: MIT */
/*
 * The packet schema: one row per kind of packet a queue executes, as the
 * ioctl schema has one per ioctl. A row names the packet, says which
 * engine runs it and how it is recognised, and lays out its fields with
 * the ioctl schema's struct descriptions (struct kfd_struct_desc), so the
 * decoder, the exporters and the statistics print and count packets with
 * the code that prints ioctl arguments. Layouts: kfdtrace/packet_abi.h.
 */
#ifndef KFDTRACE_PACKETS_H
#define KFDTRACE_PACKETS_H

#include <stddef.h>
#include <stdint.h>

#include <kfdtrace/schema.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The engine a queue feeds. Values are stored in traces. */
enum kfd_engine {
	KFD_ENGINE_UNKNOWN = 0,
	KFD_ENGINE_AQL = 1,	/* compute queues: 64-byte AQL packets */
	KFD_ENGINE_SDMA = 2,	/* SDMA queues: dword packet streams */
	KFD_ENGINE_PM4 = 3,	/* PM4 compute queues: type-3 packet streams */
};

/* How an SDMA packet's length follows from its dwords. */
enum kfd_packet_len {
	KFD_PKT_LEN_FIXED,	/* the layout's size */
	KFD_PKT_LEN_NOP,	/* 4 + 4 * DW0[29:16] bytes */
	KFD_PKT_LEN_WRITE,	/* the layout's size + 4 * (DW3[19:0] + 1) */
	KFD_PKT_LEN_PM4,	/* 4 * (DW0[29:16] + 2); a filler 4 */
};

struct kfd_packet_desc {
	const char *name;		/* "KERNEL_DISPATCH", "COPY_LINEAR" */
	uint8_t engine;			/* enum kfd_engine */
	/*
	 * AQL: the header's type, and for vendor packets (type 0) the
	 * format byte at offset 2 in @sub. SDMA: DW0's opcode, and its
	 * sub-opcode in @sub. PM4: DW0's opcode (@sub is -1).
	 */
	uint8_t match;
	int16_t sub;			/* -1: any */
	uint8_t len_kind;		/* enum kfd_packet_len */
	const struct kfd_struct_desc *layout;
};

/* kfd_packet_rows() - the table (AQL rows first, then SDMA, then PM4). */
const struct kfd_packet_desc *kfd_packet_rows(unsigned int *count);

/*
 * kfd_aql_packet() - the row of the 64-byte AQL packet @pkt, or NULL for
 * an unknown type or vendor format.
 */
const struct kfd_packet_desc *kfd_aql_packet(const uint8_t *pkt);

/*
 * kfd_sdma_packet() - the row of the SDMA packet at @p (@len bytes left
 * in the stream), and its length in *@size. An unknown opcode gives NULL
 * and a size of 4 (the decoder goes on at the next dword); a packet longer
 * than @len gives its row and the length it would have.
 */
const struct kfd_packet_desc *kfd_sdma_packet(const uint8_t *p, size_t len,
					      size_t *size);

/*
 * kfd_pm4_packet() - the row of the PM4 packet at @p (@len bytes left in
 * the stream), and its length in *@size: a type-3 packet's from its
 * count, 4 for the one-dword fillers (type 2, and the type-3 NOP whose
 * count is all ones), which are NOPs. An unknown opcode gives NULL and
 * the packet's size; a packet of type 0 or 1 NULL and 4.
 */
const struct kfd_packet_desc *kfd_pm4_packet(const uint8_t *p, size_t len,
					     size_t *size);

/* kfd_engine_name() - "aql", "sdma", "pm4" or "unknown". */
const char *kfd_engine_name(unsigned int engine);

/*
 * kfd_queue_engine() - the engine of a KFD queue type (CREATE_QUEUE's
 * queue_type): AQL for COMPUTE_AQL, PM4 for COMPUTE, SDMA for SDMA,
 * SDMA_XGMI and SDMA_BY_ENG_ID, else unknown.
 */
enum kfd_engine kfd_queue_engine(uint32_t queue_type);

#ifdef __cplusplus
}
#endif

#endif

/* SPDX-License-Identifier: MIT */
/*
 * What user space writes into the queues: AQL packets (64-byte slots of a
 * compute queue's ring), SDMA packets (dword streams of an SDMA queue's
 * ring) and PM4 type-3 packets (dword streams of a PM4 compute queue's
 * ring, and of the indirect buffers AQL's PM4_IB vendor packet points
 * at), written for kfdtrace from the published layouts (the HSA runtime
 * specification's packet formats, AMD's vendor packets, the SDMA packet
 * formats of the gfx9/gfx10 engines, the MEC's PM4 packets as Linux
 * amdgpu's soc15d.h and nvd.h define them). docs/submissions.md says
 * which fields the runtimes fill.
 *
 * Conventions as kfd_abi.h: struct kfd_aql_*, kfd_sdma_* and kfd_pm4_*
 * are layouts, KFD_AQL_*, KFD_SDMA_* and KFD_PM4_* constants. Little-endian, packed as
 * the hardware reads them (the SDMA ones carry 64-bit addresses at
 * 4-byte offsets).
 */
#ifndef KFDTRACE_PACKET_ABI_H
#define KFDTRACE_PACKET_ABI_H

#include <stdint.h>

/* ---- AQL ---------------------------------------------------------- */

#define KFD_AQL_PACKET_SIZE		64u

/* Header bits 0-7: the packet type. */
#define KFD_AQL_TYPE_VENDOR		0
#define KFD_AQL_TYPE_INVALID		1
#define KFD_AQL_TYPE_KERNEL_DISPATCH	2
#define KFD_AQL_TYPE_BARRIER_AND	3
#define KFD_AQL_TYPE_AGENT_DISPATCH	4
#define KFD_AQL_TYPE_BARRIER_OR		5
/* Header bits 8-15 (byte 1): barrier bit, then two 2-bit fence scopes. */
#define KFD_AQL_FENCE_BARRIER		0x01u
#define KFD_AQL_FENCE_ACQUIRE_AGENT	0x02u
#define KFD_AQL_FENCE_ACQUIRE_SYSTEM	0x04u
#define KFD_AQL_FENCE_RELEASE_AGENT	0x08u
#define KFD_AQL_FENCE_RELEASE_SYSTEM	0x10u
/* AMD vendor formats (the byte at offset 2 of a type-0 packet). */
#define KFD_AQL_VENDOR_PM4_IB		1
#define KFD_AQL_VENDOR_BARRIER_VALUE	2

/* The header's two bytes, as the packet schema names them. */
struct kfd_aql_header_bytes {
	uint8_t type;
	uint8_t fences;
};

struct kfd_aql_dispatch {
	uint16_t header;
	uint16_t setup;			/* bits 0-1: dimensions */
	uint16_t workgroup_size_x;
	uint16_t workgroup_size_y;
	uint16_t workgroup_size_z;
	uint16_t reserved0;
	uint32_t grid_size_x;
	uint32_t grid_size_y;
	uint32_t grid_size_z;
	uint32_t private_segment_size;	/* scratch bytes per work-item */
	uint32_t group_segment_size;	/* LDS bytes per work-group */
	uint64_t kernel_object;
	uint64_t kernarg_address;
	uint64_t reserved2;
	uint64_t completion_signal;
};

/* BARRIER_AND and BARRIER_OR. */
struct kfd_aql_barrier {
	uint16_t header;
	uint16_t reserved0;
	uint32_t reserved1;
	uint64_t dep_signal[5];
	uint64_t reserved2;
	uint64_t completion_signal;
};

struct kfd_aql_agent_dispatch {
	uint16_t header;
	uint16_t type;
	uint32_t reserved0;
	uint64_t return_address;
	uint64_t arg[4];
	uint64_t reserved2;
	uint64_t completion_signal;
};

struct kfd_aql_barrier_value {
	uint16_t header;
	uint8_t format;			/* KFD_AQL_VENDOR_BARRIER_VALUE */
	uint8_t reserved;
	uint32_t reserved0;
	uint64_t signal;
	int64_t value;
	int64_t mask;
	uint32_t cond;			/* 0 EQ, 1 NE, 2 LT, 3 GTE */
	uint32_t reserved1;
	uint64_t reserved2;
	uint64_t reserved3;
	uint64_t completion_signal;
};

struct kfd_aql_pm4_ib {
	uint16_t header;
	uint16_t format;		/* KFD_AQL_VENDOR_PM4_IB */
	uint32_t ib_jump_cmd[4];	/* a PM4 INDIRECT_BUFFER packet */
	uint32_t dw_cnt_remain;
	uint32_t reserved[8];
	uint64_t completion_signal;
};

/* The runtime's signal (amd_signal_t): a packet's completion_signal and a
 * barrier's dependencies are addresses of these. 64 bytes. */
struct kfd_amd_signal {
	int64_t kind;
	int64_t value;			/* completion takes it down by one */
	uint64_t event_mailbox_ptr;	/* written with event_id, then ... */
	uint32_t event_id;		/* ... the KFD event's interrupt */
	uint32_t reserved1;
	uint64_t start_ts;
	uint64_t end_ts;
	uint64_t queue_ptr;
	uint32_t reserved3[2];
};

/* ---- SDMA --------------------------------------------------------- */

/* DW0 bits 0-7: the opcode; bits 8-15: the sub-opcode. */
#define KFD_SDMA_OP_NOP			0
#define KFD_SDMA_OP_COPY		1
#define KFD_SDMA_OP_WRITE		2
#define KFD_SDMA_OP_FENCE		5
#define KFD_SDMA_OP_TRAP		6
#define KFD_SDMA_OP_POLL_REGMEM		8
#define KFD_SDMA_OP_ATOMIC		10
#define KFD_SDMA_OP_CONST_FILL		11
#define KFD_SDMA_OP_TIMESTAMP		13
#define KFD_SDMA_OP_GCR			17
#define KFD_SDMA_SUBOP_COPY_LINEAR	0
#define KFD_SDMA_SUBOP_COPY_LINEAR_RECT	4
#define KFD_SDMA_SUBOP_TIMESTAMP_GET_GLOBAL 2

/* DW0's low bytes, as the packet schema names them. */
struct kfd_sdma_header_bytes {
	uint8_t op;
	uint8_t sub_op;
	uint16_t extra;
};

/*
 * COPY_LINEAR's count is bytes - 1. The SDMA engines of gfx90a, gfx94x,
 * gfx10.3 and later read it from bits 0-29; older engines (gfx900, gfx906,
 * gfx908, gfx10.1) from bits 0-21, where bits 22-29 are reserved and a
 * valid packet has them zero. So KFD_SDMA_COPY_COUNT_MASK reads a valid
 * packet right for every engine; only an engine model needs the narrow
 * width, to refuse what its engine would not execute.
 */
#define KFD_SDMA_COPY_COUNT_MASK	0x3fffffffu
#define KFD_SDMA_COPY_COUNT_MASK_NARROW	0x003fffffu

/**
 * kfd_sdma_copy_count_mask() - COPY_LINEAR's count bits on one GPU.
 * @gfx_target_version: the topology's gfx_target_version (major * 10000 +
 *	minor * 100 + stepping; 90010 is gfx90a).
 *
 * Return: KFD_SDMA_COPY_COUNT_MASK where the engine has the 30-bit count,
 * else KFD_SDMA_COPY_COUNT_MASK_NARROW.
 */
static inline uint32_t
kfd_sdma_copy_count_mask(uint32_t gfx_target_version)
{
	uint32_t major = gfx_target_version / 10000;
	uint32_t minor = gfx_target_version / 100 % 100;
	uint32_t stepping = gfx_target_version % 100;
	int wide;

	if (major == 9)
		wide = minor >= 4 || (minor == 0 && stepping == 10);
	else if (major == 10)
		wide = minor >= 3;
	else
		wide = major > 10;
	return wide ? KFD_SDMA_COPY_COUNT_MASK : KFD_SDMA_COPY_COUNT_MASK_NARROW;
}

struct kfd_sdma_copy_linear {
	uint32_t header;
	uint32_t count;			/* bytes - 1: KFD_SDMA_COPY_COUNT_MASK */
	uint32_t parameter;		/* swap bits */
	uint64_t src;
	uint64_t dst;
} __attribute__((packed));

struct kfd_sdma_copy_linear_rect {
	uint32_t header;
	uint64_t src;
	uint32_t src_offset_xy;
	uint32_t src_offset_z_pitch;
	uint32_t src_slice_pitch;
	uint64_t dst;
	uint32_t dst_offset_xy;
	uint32_t dst_offset_z_pitch;
	uint32_t dst_slice_pitch;
	uint32_t rect_xy;
	uint32_t rect_z;
} __attribute__((packed));

/* WRITE (linear): count + 1 dwords of data follow. */
struct kfd_sdma_write {
	uint32_t header;
	uint64_t dst;
	uint32_t count;			/* bits 0-19: dwords - 1 */
} __attribute__((packed));

struct kfd_sdma_fence {
	uint32_t header;
	uint64_t addr;
	uint32_t data;
} __attribute__((packed));

struct kfd_sdma_trap {
	uint32_t header;
	uint32_t int_ctx;		/* bits 0-27: the event id */
};

struct kfd_sdma_poll_regmem {
	uint32_t header;		/* bits 28-30 func, bit 31 memory */
	uint64_t addr;
	uint32_t ref;
	uint32_t mask;
	uint32_t interval_retry;	/* bits 0-15 interval, 16-27 retries */
} __attribute__((packed));

struct kfd_sdma_atomic {
	uint32_t header;		/* bits 25-31: the operation */
	uint64_t addr;
	uint64_t src;
	uint64_t cmp;
	uint32_t loop_interval;
} __attribute__((packed));

struct kfd_sdma_const_fill {
	uint32_t header;		/* bits 30-31: fill size (2: dwords) */
	uint64_t dst;
	uint32_t data;
	uint32_t count;			/* bits 0-21: bytes - 1 (dwords) */
} __attribute__((packed));

struct kfd_sdma_timestamp {
	uint32_t header;
	uint64_t addr;
} __attribute__((packed));

struct kfd_sdma_gcr {
	uint32_t header;
	uint32_t base_lo;
	uint32_t control;		/* the cache actions */
	uint32_t base_hi_limit;
	uint32_t limit;
};

/* NOP: bits 16-29 of DW0 count the dwords that follow. */
struct kfd_sdma_nop {
	uint32_t header;
};

/* ---- PM4 (type 3, the compute micro engine's) ---------------------- */

/*
 * DW0: bits 30-31 the packet type; for type 3, bits 16-29 the count (the
 * dwords after DW0, minus one), bits 8-15 the opcode, bit 1 the shader
 * type (1: compute), bit 0 predication. A type-2 packet is one filler
 * dword. A type-3 NOP whose count is all ones (0x3fff) is one dword too:
 * the filler the kernel pads rings with.
 */
#define KFD_PM4_TYPE(dw0)		((dw0) >> 30)
#define KFD_PM4_COUNT(dw0)		(((dw0) >> 16) & 0x3fffu)
#define KFD_PM4_OPCODE(dw0)		(((dw0) >> 8) & 0xffu)
#define KFD_PM4_HDR(op, count)		(3u << 30 | ((count) & 0x3fffu) << 16 | \
					 ((op) & 0xffu) << 8)
#define KFD_PM4_TYPE2			0x80000000u
#define KFD_PM4_NOP_FILLER		0xffff1000u
/*
 * A one-dword filler: type 2, or a type-3 NOP of count 0x3fff whatever its
 * shader-type and predicate bits (kfdtest's compute NOP is 0xffff1002).
 */
#define KFD_PM4_IS_FILLER(dw0)		((dw0) == KFD_PM4_TYPE2 || \
					 ((dw0) & ~3u) == KFD_PM4_NOP_FILLER)

#define KFD_PM4_OP_NOP			0x10
#define KFD_PM4_OP_DISPATCH_DIRECT	0x15
#define KFD_PM4_OP_WRITE_DATA		0x37
#define KFD_PM4_OP_WAIT_REG_MEM		0x3c
#define KFD_PM4_OP_INDIRECT_BUFFER	0x3f
#define KFD_PM4_OP_COPY_DATA		0x40
#define KFD_PM4_OP_EVENT_WRITE		0x46
#define KFD_PM4_OP_RELEASE_MEM		0x49
#define KFD_PM4_OP_ACQUIRE_MEM		0x58
#define KFD_PM4_OP_SET_SH_REG		0x76
#define KFD_PM4_OP_SET_UCONFIG_REG	0x79

/* WRITE_DATA control: bits 8-11 dst_sel, bit 16 one address, bit 20
 * write confirm, bits 30-31 the engine. */
#define KFD_PM4_WRITE_DST_SEL(c)	(((c) >> 8) & 0xfu)
#define KFD_PM4_WRITE_ONE_ADDR		(1u << 16)
#define KFD_PM4_DST_REG			0	/* a memory-mapped register */
#define KFD_PM4_DST_MEM_SYNC		1	/* memory, through GRBM */
#define KFD_PM4_DST_TC_L2		2	/* memory, through L2 */
#define KFD_PM4_DST_GDS			3
#define KFD_PM4_DST_MEM			5	/* memory, direct */

/* WAIT_REG_MEM control: bits 0-2 the function, bit 4 memory, bits 6-7
 * the operation. Functions: 0 always, 1 <, 2 <=, 3 ==, 4 !=, 5 >=, 6 >. */
#define KFD_PM4_WAIT_FUNC(c)		((c) & 7u)
#define KFD_PM4_WAIT_MEM		(1u << 4)

/* INDIRECT_BUFFER DW3: bits 0-19 size in dwords, bit 20 chain (replaces
 * the IB it ends instead of nesting), bit 23 valid, bits 24-27 VMID. */
#define KFD_PM4_IB_SIZE(c)		((c) & 0xfffffu)
#define KFD_PM4_IB_CHAIN		(1u << 20)
#define KFD_PM4_IB_VALID		(1u << 23)

/* RELEASE_MEM DW2: bits 16-17 dst_sel (0 memory, 1 L2), bits 24-26
 * int_sel, bits 29-31 data_sel. */
#define KFD_PM4_REL_DST_SEL(c)		(((c) >> 16) & 3u)
#define KFD_PM4_REL_INT_SEL(c)		(((c) >> 24) & 7u)
#define KFD_PM4_REL_DATA_SEL(c)		(((c) >> 29) & 7u)
#define KFD_PM4_INT_NONE		0
#define KFD_PM4_INT_ONLY		1
#define KFD_PM4_INT_AFTER_WRITE		2
#define KFD_PM4_INT_DATA_ONLY		3	/* write confirmed, no interrupt */
#define KFD_PM4_INT_CTXID		4	/* interrupt with int_ctxid */
#define KFD_PM4_DATA_NONE		0
#define KFD_PM4_DATA_32			1	/* data_lo */
#define KFD_PM4_DATA_64			2	/* data_lo, data_hi */
#define KFD_PM4_DATA_GPU_CLOCK		3	/* the GPU clock counter */
#define KFD_PM4_DATA_SYS_CLOCK		4	/* the system clock counter */

/* DW0's bytes, as the packet schema names them. */
struct kfd_pm4_header_bytes {
	uint8_t flags;			/* bit 0 predicate, bit 1 compute */
	uint8_t opcode;
	uint16_t count_type;		/* count, then the type */
};

struct kfd_pm4_nop {
	uint32_t header;
};

struct kfd_pm4_write_data {
	uint32_t header;
	uint32_t control;
	uint64_t dst;			/* dword aligned; 4-byte offset */
	/* count - 2 dwords of data follow */
} __attribute__((packed));

struct kfd_pm4_wait_reg_mem {
	uint32_t header;
	uint32_t control;
	uint64_t addr;			/* memory: dword aligned */
	uint32_t reference;
	uint32_t mask;
	uint32_t poll_interval;
} __attribute__((packed));

struct kfd_pm4_indirect_buffer {
	uint32_t header;
	uint64_t ib_base;		/* dword aligned, 48 bits */
	uint32_t control;		/* KFD_PM4_IB_* */
} __attribute__((packed));

struct kfd_pm4_release_mem {
	uint32_t header;
	uint32_t event;			/* bits 0-5 type, 8-11 index, caches */
	uint32_t control;		/* KFD_PM4_REL_* */
	uint64_t addr;
	uint64_t data;
	uint32_t int_ctxid;		/* the interrupt's context id */
} __attribute__((packed));

/* ACQUIRE_MEM: 7 dwords on gfx9, 8 on gfx10 (the GCR control). */
struct kfd_pm4_acquire_mem {
	uint32_t header;
	uint32_t coher_cntl;
	uint32_t coher_size;
	uint32_t coher_size_hi;
	uint64_t coher_base;
	uint32_t poll_interval;
} __attribute__((packed));

struct kfd_pm4_dispatch_direct {
	uint32_t header;
	uint32_t dim_x;
	uint32_t dim_y;
	uint32_t dim_z;
	uint32_t initiator;		/* COMPUTE_DISPATCH_INITIATOR */
};

/* SET_SH_REG, SET_UCONFIG_REG: count - 1 register values follow. */
struct kfd_pm4_set_reg {
	uint32_t header;
	uint32_t reg_offset;		/* from the register space's base */
};

/*
 * The compute registers of the SH space by SET_SH_REG's reg_offset (the
 * register's dword offset less the space's base, 0x2c00; the same on
 * gfx9 and gfx10). COMPUTE_DISPATCH_INITIATOR and COMPUTE_DIM_* are what
 * DISPATCH_DIRECT writes; the rest a queue keeps until it is rewritten.
 */
#define KFD_PM4_SH_DISPATCH_INITIATOR	0x200u
#define KFD_PM4_SH_DIM_X		0x201u	/* _Y, _Z follow */
#define KFD_PM4_SH_START_X		0x204u	/* first work-group id; _Y, _Z */
#define KFD_PM4_SH_NUM_THREAD_X		0x207u	/* work-group size; _Y, _Z */
#define KFD_PM4_SH_PIPELINESTAT_ENABLE	0x20au
#define KFD_PM4_SH_PERFCOUNT_ENABLE	0x20bu
#define KFD_PM4_SH_PGM_LO		0x20cu	/* code address >> 8 */
#define KFD_PM4_SH_PGM_HI		0x20du	/* bits 0-7: address bits 40-47 */
#define KFD_PM4_SH_DISPATCH_PKT_ADDR_LO	0x20eu
#define KFD_PM4_SH_DISPATCH_PKT_ADDR_HI	0x20fu
#define KFD_PM4_SH_SCRATCH_BASE_LO	0x210u	/* COMPUTE_DISPATCH_SCRATCH_BASE */
#define KFD_PM4_SH_SCRATCH_BASE_HI	0x211u
#define KFD_PM4_SH_PGM_RSRC1		0x212u
#define KFD_PM4_SH_PGM_RSRC2		0x213u
#define KFD_PM4_SH_VMID			0x214u
#define KFD_PM4_SH_RESOURCE_LIMITS	0x215u
#define KFD_PM4_SH_STATIC_THREAD_MGMT_SE0 0x216u
#define KFD_PM4_SH_STATIC_THREAD_MGMT_SE1 0x217u
#define KFD_PM4_SH_TMPRING_SIZE		0x218u
#define KFD_PM4_SH_STATIC_THREAD_MGMT_SE2 0x219u
#define KFD_PM4_SH_STATIC_THREAD_MGMT_SE3 0x21au
#define KFD_PM4_SH_RESTART_X		0x21bu	/* _Y, _Z follow */
#define KFD_PM4_SH_THREAD_TRACE_ENABLE	0x21eu
#define KFD_PM4_SH_PGM_RSRC3		0x22du
#define KFD_PM4_SH_USER_DATA_0		0x240u	/* to _15 at 0x24f */
/* The compute registers a queue keeps: [FIRST, FIRST + COUNT). */
#define KFD_PM4_SH_COMPUTE_FIRST	0x200u
#define KFD_PM4_SH_COMPUTE_COUNT	0x50u

/* COMPUTE_DISPATCH_INITIATOR: bit 0 the shader runs, bit 5 the
 * dimensions count work-items (else work-groups). */
#define KFD_PM4_INIT_COMPUTE_SHADER_EN	(1u << 0)
#define KFD_PM4_INIT_USE_THREAD_DIMS	(1u << 5)

struct kfd_pm4_event_write {
	uint32_t header;
	uint32_t event;			/* bits 0-5 type, 8-11 index */
};

#endif

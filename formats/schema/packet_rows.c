/* SPDX-License-Identifier: MIT */
/*
 * The packet schema (kfdtrace/packets.h): AQL packets by header type and
 * vendor format, SDMA packets by opcode and sub-opcode, PM4 type-3
 * packets by opcode. Offsets and widths
 * come from kfdtrace/packet_abi.h; the header bytes are fields of their
 * own (type and fences, opcode and sub-opcode), so a decoder prints them
 * by name like any other field.
 */
#include <string.h>

#include "kfdtrace/packet_abi.h"
#include "kfdtrace/packets.h"
#include "schema_priv.h"

/* ---- name tables -------------------------------------------------- */

static const struct kfd_name aql_type[] = {
	KS_N(KFD_AQL_TYPE_, VENDOR),
	KS_N(KFD_AQL_TYPE_, INVALID),
	KS_N(KFD_AQL_TYPE_, KERNEL_DISPATCH),
	KS_N(KFD_AQL_TYPE_, BARRIER_AND),
	KS_N(KFD_AQL_TYPE_, AGENT_DISPATCH),
	KS_N(KFD_AQL_TYPE_, BARRIER_OR),
};
static KS_TABLE(aql_type_t, "aql_type", aql_type);

static const struct kfd_name aql_fences[] = {
	KS_N(KFD_AQL_FENCE_, BARRIER),
	KS_N(KFD_AQL_FENCE_, ACQUIRE_AGENT),
	KS_N(KFD_AQL_FENCE_, ACQUIRE_SYSTEM),
	KS_N(KFD_AQL_FENCE_, RELEASE_AGENT),
	KS_N(KFD_AQL_FENCE_, RELEASE_SYSTEM),
};
static KS_TABLE(aql_fences_t, "aql_fences", aql_fences);

static const struct kfd_name aql_vendor[] = {
	KS_N(KFD_AQL_VENDOR_, PM4_IB),
	KS_N(KFD_AQL_VENDOR_, BARRIER_VALUE),
};
static KS_TABLE(aql_vendor_t, "aql_vendor", aql_vendor);

static const struct kfd_name aql_cond[] = {
	{ 0, "EQ" }, { 1, "NE" }, { 2, "LT" }, { 3, "GTE" },
};
static KS_TABLE(aql_cond_t, "aql_cond", aql_cond);

static const struct kfd_name sdma_op[] = {
	KS_N(KFD_SDMA_OP_, NOP),
	KS_N(KFD_SDMA_OP_, COPY),
	KS_N(KFD_SDMA_OP_, WRITE),
	KS_N(KFD_SDMA_OP_, FENCE),
	KS_N(KFD_SDMA_OP_, TRAP),
	KS_N(KFD_SDMA_OP_, POLL_REGMEM),
	KS_N(KFD_SDMA_OP_, ATOMIC),
	KS_N(KFD_SDMA_OP_, CONST_FILL),
	KS_N(KFD_SDMA_OP_, TIMESTAMP),
	KS_N(KFD_SDMA_OP_, GCR),
};
static KS_TABLE(sdma_op_t, "sdma_op", sdma_op);

static const struct kfd_name pm4_op[] = {
	KS_N(KFD_PM4_OP_, NOP),
	KS_N(KFD_PM4_OP_, DISPATCH_DIRECT),
	KS_N(KFD_PM4_OP_, WRITE_DATA),
	KS_N(KFD_PM4_OP_, WAIT_REG_MEM),
	KS_N(KFD_PM4_OP_, INDIRECT_BUFFER),
	KS_N(KFD_PM4_OP_, EVENT_WRITE),
	KS_N(KFD_PM4_OP_, RELEASE_MEM),
	KS_N(KFD_PM4_OP_, ACQUIRE_MEM),
	KS_N(KFD_PM4_OP_, SET_SH_REG),
	KS_N(KFD_PM4_OP_, SET_UCONFIG_REG),
};
static KS_TABLE(pm4_op_t, "pm4_op", pm4_op);

/* SET_SH_REG's first register: the compute registers by name. */
static const struct kfd_name pm4_sh_reg[] = {
	{ KFD_PM4_SH_DISPATCH_INITIATOR, "COMPUTE_DISPATCH_INITIATOR" },
	{ KFD_PM4_SH_DIM_X, "COMPUTE_DIM_X" },
	{ KFD_PM4_SH_DIM_X + 1, "COMPUTE_DIM_Y" },
	{ KFD_PM4_SH_DIM_X + 2, "COMPUTE_DIM_Z" },
	{ KFD_PM4_SH_START_X, "COMPUTE_START_X" },
	{ KFD_PM4_SH_START_X + 1, "COMPUTE_START_Y" },
	{ KFD_PM4_SH_START_X + 2, "COMPUTE_START_Z" },
	{ KFD_PM4_SH_NUM_THREAD_X, "COMPUTE_NUM_THREAD_X" },
	{ KFD_PM4_SH_NUM_THREAD_X + 1, "COMPUTE_NUM_THREAD_Y" },
	{ KFD_PM4_SH_NUM_THREAD_X + 2, "COMPUTE_NUM_THREAD_Z" },
	{ KFD_PM4_SH_PIPELINESTAT_ENABLE, "COMPUTE_PIPELINESTAT_ENABLE" },
	{ KFD_PM4_SH_PERFCOUNT_ENABLE, "COMPUTE_PERFCOUNT_ENABLE" },
	{ KFD_PM4_SH_PGM_LO, "COMPUTE_PGM_LO" },
	{ KFD_PM4_SH_PGM_HI, "COMPUTE_PGM_HI" },
	{ KFD_PM4_SH_DISPATCH_PKT_ADDR_LO, "COMPUTE_DISPATCH_PKT_ADDR_LO" },
	{ KFD_PM4_SH_DISPATCH_PKT_ADDR_HI, "COMPUTE_DISPATCH_PKT_ADDR_HI" },
	{ KFD_PM4_SH_SCRATCH_BASE_LO, "COMPUTE_DISPATCH_SCRATCH_BASE_LO" },
	{ KFD_PM4_SH_SCRATCH_BASE_HI, "COMPUTE_DISPATCH_SCRATCH_BASE_HI" },
	{ KFD_PM4_SH_PGM_RSRC1, "COMPUTE_PGM_RSRC1" },
	{ KFD_PM4_SH_PGM_RSRC2, "COMPUTE_PGM_RSRC2" },
	{ KFD_PM4_SH_VMID, "COMPUTE_VMID" },
	{ KFD_PM4_SH_RESOURCE_LIMITS, "COMPUTE_RESOURCE_LIMITS" },
	{ KFD_PM4_SH_STATIC_THREAD_MGMT_SE0, "COMPUTE_STATIC_THREAD_MGMT_SE0" },
	{ KFD_PM4_SH_STATIC_THREAD_MGMT_SE1, "COMPUTE_STATIC_THREAD_MGMT_SE1" },
	{ KFD_PM4_SH_TMPRING_SIZE, "COMPUTE_TMPRING_SIZE" },
	{ KFD_PM4_SH_STATIC_THREAD_MGMT_SE2, "COMPUTE_STATIC_THREAD_MGMT_SE2" },
	{ KFD_PM4_SH_STATIC_THREAD_MGMT_SE3, "COMPUTE_STATIC_THREAD_MGMT_SE3" },
	{ KFD_PM4_SH_RESTART_X, "COMPUTE_RESTART_X" },
	{ KFD_PM4_SH_RESTART_X + 1, "COMPUTE_RESTART_Y" },
	{ KFD_PM4_SH_RESTART_X + 2, "COMPUTE_RESTART_Z" },
	{ KFD_PM4_SH_THREAD_TRACE_ENABLE, "COMPUTE_THREAD_TRACE_ENABLE" },
	{ KFD_PM4_SH_PGM_RSRC3, "COMPUTE_PGM_RSRC3" },
	{ KFD_PM4_SH_USER_DATA_0, "COMPUTE_USER_DATA_0" },
	{ KFD_PM4_SH_USER_DATA_0 + 1, "COMPUTE_USER_DATA_1" },
	{ KFD_PM4_SH_USER_DATA_0 + 2, "COMPUTE_USER_DATA_2" },
	{ KFD_PM4_SH_USER_DATA_0 + 3, "COMPUTE_USER_DATA_3" },
	{ KFD_PM4_SH_USER_DATA_0 + 4, "COMPUTE_USER_DATA_4" },
	{ KFD_PM4_SH_USER_DATA_0 + 5, "COMPUTE_USER_DATA_5" },
	{ KFD_PM4_SH_USER_DATA_0 + 6, "COMPUTE_USER_DATA_6" },
	{ KFD_PM4_SH_USER_DATA_0 + 7, "COMPUTE_USER_DATA_7" },
	{ KFD_PM4_SH_USER_DATA_0 + 8, "COMPUTE_USER_DATA_8" },
	{ KFD_PM4_SH_USER_DATA_0 + 9, "COMPUTE_USER_DATA_9" },
	{ KFD_PM4_SH_USER_DATA_0 + 10, "COMPUTE_USER_DATA_10" },
	{ KFD_PM4_SH_USER_DATA_0 + 11, "COMPUTE_USER_DATA_11" },
	{ KFD_PM4_SH_USER_DATA_0 + 12, "COMPUTE_USER_DATA_12" },
	{ KFD_PM4_SH_USER_DATA_0 + 13, "COMPUTE_USER_DATA_13" },
	{ KFD_PM4_SH_USER_DATA_0 + 14, "COMPUTE_USER_DATA_14" },
	{ KFD_PM4_SH_USER_DATA_0 + 15, "COMPUTE_USER_DATA_15" },
};
static KS_TABLE(pm4_sh_reg_t, "pm4_sh_reg", pm4_sh_reg);

/* ---- AQL ---------------------------------------------------------- */

/* Every AQL layout starts with the header's type and fence bytes. */
#define AQL_HEAD							\
	KS_FN(struct kfd_aql_header_bytes, type, IN, ENUM, aql_type_t),	\
	KS_FN(struct kfd_aql_header_bytes, fences, IN, FLAGS, aql_fences_t)

#define T struct kfd_aql_dispatch
static const struct kfd_field dispatch_f[] = {
	AQL_HEAD,
	KS_F(T, setup, IN, NONE),
	KS_F(T, workgroup_size_x, IN, COUNT),
	KS_F(T, workgroup_size_y, IN, COUNT),
	KS_F(T, workgroup_size_z, IN, COUNT),
	KS_F(T, grid_size_x, IN, COUNT),
	KS_F(T, grid_size_y, IN, COUNT),
	KS_F(T, grid_size_z, IN, COUNT),
	KS_F(T, private_segment_size, IN, SIZE),
	KS_F(T, group_segment_size, IN, SIZE),
	KS_F(T, kernel_object, IN, GPU_VA),
	KS_F(T, kernarg_address, IN, GPU_VA),
	KS_F(T, completion_signal, IN, CPU_ADDR),
};
KS_DESC(dispatch_d, "kfd_aql_dispatch", T, dispatch_f);
#undef T

#define T struct kfd_aql_barrier
static const struct kfd_field barrier_f[] = {
	AQL_HEAD,
	KS_F(T, dep_signal[0], IN, CPU_ADDR),
	KS_F(T, dep_signal[1], IN, CPU_ADDR),
	KS_F(T, dep_signal[2], IN, CPU_ADDR),
	KS_F(T, dep_signal[3], IN, CPU_ADDR),
	KS_F(T, dep_signal[4], IN, CPU_ADDR),
	KS_F(T, completion_signal, IN, CPU_ADDR),
};
KS_DESC(barrier_d, "kfd_aql_barrier", T, barrier_f);
#undef T

#define T struct kfd_aql_agent_dispatch
static const struct kfd_field agent_f[] = {
	AQL_HEAD,
	KS_FNAMED("function", T, type, IN, NONE),
	KS_F(T, return_address, IN, CPU_ADDR),
	KS_F(T, arg[0], IN, HEX),
	KS_F(T, arg[1], IN, HEX),
	KS_F(T, arg[2], IN, HEX),
	KS_F(T, arg[3], IN, HEX),
	KS_F(T, completion_signal, IN, CPU_ADDR),
};
KS_DESC(agent_d, "kfd_aql_agent_dispatch", T, agent_f);
#undef T

#define T struct kfd_aql_barrier_value
static const struct kfd_field barrier_value_f[] = {
	AQL_HEAD,
	KS_FN(T, format, IN, ENUM, aql_vendor_t),
	KS_F(T, signal, IN, CPU_ADDR),
	KS_FI(T, value, IN, NONE),
	KS_F(T, mask, IN, HEX),
	KS_FN(T, cond, IN, ENUM, aql_cond_t),
	KS_F(T, completion_signal, IN, CPU_ADDR),
};
KS_DESC(barrier_value_d, "kfd_aql_barrier_value", T, barrier_value_f);
#undef T

#define T struct kfd_aql_pm4_ib
static const struct kfd_field pm4_ib_f[] = {
	AQL_HEAD,
	KS_FN(T, format, IN, ENUM, aql_vendor_t),
	KS_F(T, ib_jump_cmd[0], IN, HEX),
	KS_F(T, ib_jump_cmd[1], IN, HEX),
	KS_F(T, ib_jump_cmd[2], IN, HEX),
	KS_F(T, ib_jump_cmd[3], IN, HEX),
	KS_F(T, dw_cnt_remain, IN, NONE),
	KS_F(T, completion_signal, IN, CPU_ADDR),
};
KS_DESC(pm4_ib_d, "kfd_aql_pm4_ib", T, pm4_ib_f);
#undef T

/* A slot not (or no longer) published: only its header means anything. */
static const struct kfd_field invalid_f[] = { AQL_HEAD };
KS_DESC(invalid_d, "kfd_aql_header_bytes", struct kfd_aql_header_bytes,
	invalid_f);

/* ---- SDMA --------------------------------------------------------- */

#define SDMA_HEAD							\
	KS_FN(struct kfd_sdma_header_bytes, op, IN, ENUM, sdma_op_t),	\
	KS_F(struct kfd_sdma_header_bytes, sub_op, IN, NONE)

#define T struct kfd_sdma_copy_linear
static const struct kfd_field copy_f[] = {
	SDMA_HEAD,
	KS_FNAMED("bytes_minus_1", T, count, IN, NONE),
	KS_F(T, parameter, IN, HEX),
	KS_F(T, src, IN, GPU_VA),
	KS_F(T, dst, IN, GPU_VA),
};
KS_DESC(copy_d, "kfd_sdma_copy_linear", T, copy_f);
#undef T

#define T struct kfd_sdma_copy_linear_rect
static const struct kfd_field copy_rect_f[] = {
	SDMA_HEAD,
	KS_F(T, src, IN, GPU_VA),
	KS_F(T, src_offset_xy, IN, HEX),
	KS_F(T, src_offset_z_pitch, IN, HEX),
	KS_F(T, src_slice_pitch, IN, NONE),
	KS_F(T, dst, IN, GPU_VA),
	KS_F(T, dst_offset_xy, IN, HEX),
	KS_F(T, dst_offset_z_pitch, IN, HEX),
	KS_F(T, dst_slice_pitch, IN, NONE),
	KS_F(T, rect_xy, IN, HEX),
	KS_F(T, rect_z, IN, HEX),
};
KS_DESC(copy_rect_d, "kfd_sdma_copy_linear_rect", T, copy_rect_f);
#undef T

#define T struct kfd_sdma_write
static const struct kfd_field write_f[] = {
	SDMA_HEAD,
	KS_F(T, dst, IN, GPU_VA),
	KS_FNAMED("dwords_minus_1", T, count, IN, NONE),
};
KS_DESC(write_d, "kfd_sdma_write", T, write_f);
#undef T

#define T struct kfd_sdma_fence
static const struct kfd_field fence_f[] = {
	SDMA_HEAD,
	KS_F(T, addr, IN, GPU_VA),
	KS_F(T, data, IN, HEX),
};
KS_DESC(fence_d, "kfd_sdma_fence", T, fence_f);
#undef T

#define T struct kfd_sdma_trap
static const struct kfd_field trap_f[] = {
	SDMA_HEAD,
	KS_F(T, int_ctx, IN, HEX),
};
KS_DESC(trap_d, "kfd_sdma_trap", T, trap_f);
#undef T

#define T struct kfd_sdma_poll_regmem
static const struct kfd_field poll_f[] = {
	SDMA_HEAD,
	KS_FNAMED("dw0", T, header, IN, HEX),
	KS_F(T, addr, IN, GPU_VA),
	KS_F(T, ref, IN, HEX),
	KS_F(T, mask, IN, HEX),
	KS_F(T, interval_retry, IN, HEX),
};
KS_DESC(poll_d, "kfd_sdma_poll_regmem", T, poll_f);
#undef T

#define T struct kfd_sdma_atomic
static const struct kfd_field atomic_f[] = {
	SDMA_HEAD,
	KS_FNAMED("dw0", T, header, IN, HEX),
	KS_F(T, addr, IN, GPU_VA),
	KS_F(T, src, IN, HEX),
	KS_F(T, cmp, IN, HEX),
	KS_F(T, loop_interval, IN, NONE),
};
KS_DESC(atomic_d, "kfd_sdma_atomic", T, atomic_f);
#undef T

#define T struct kfd_sdma_const_fill
static const struct kfd_field fill_f[] = {
	SDMA_HEAD,
	KS_F(T, dst, IN, GPU_VA),
	KS_F(T, data, IN, HEX),
	KS_FNAMED("bytes_minus_1", T, count, IN, NONE),
};
KS_DESC(fill_d, "kfd_sdma_const_fill", T, fill_f);
#undef T

#define T struct kfd_sdma_timestamp
static const struct kfd_field timestamp_f[] = {
	SDMA_HEAD,
	KS_F(T, addr, IN, GPU_VA),
};
KS_DESC(timestamp_d, "kfd_sdma_timestamp", T, timestamp_f);
#undef T

#define T struct kfd_sdma_gcr
static const struct kfd_field gcr_f[] = {
	SDMA_HEAD,
	KS_F(T, base_lo, IN, HEX),
	KS_F(T, control, IN, HEX),
	KS_F(T, base_hi_limit, IN, HEX),
	KS_F(T, limit, IN, HEX),
};
KS_DESC(gcr_d, "kfd_sdma_gcr", T, gcr_f);
#undef T

static const struct kfd_field nop_f[] = { SDMA_HEAD };
KS_DESC(nop_d, "kfd_sdma_nop", struct kfd_sdma_nop, nop_f);

/* ---- PM4 ---------------------------------------------------------- */

/* DW0: the opcode is the row's name; count and type follow from the size. */
#define PM4_HEAD							\
	KS_NFULL("op", struct kfd_pm4_header_bytes, opcode, IN, ENUM,	\
		 0, 0, -1, 0, &pm4_op_t)

static const struct kfd_field pm4_nop_f[] = { PM4_HEAD };
KS_DESC(pm4_nop_d, "kfd_pm4_nop", struct kfd_pm4_nop, pm4_nop_f);

#define T struct kfd_pm4_write_data
static const struct kfd_field pm4_write_f[] = {
	PM4_HEAD,
	KS_F(T, control, IN, HEX),
	KS_F(T, dst, IN, GPU_VA),
};
KS_DESC(pm4_write_d, "kfd_pm4_write_data", T, pm4_write_f);
#undef T

#define T struct kfd_pm4_wait_reg_mem
static const struct kfd_field pm4_wait_f[] = {
	PM4_HEAD,
	KS_F(T, control, IN, HEX),
	KS_F(T, addr, IN, GPU_VA),
	KS_F(T, reference, IN, HEX),
	KS_F(T, mask, IN, HEX),
	KS_F(T, poll_interval, IN, NONE),
};
KS_DESC(pm4_wait_d, "kfd_pm4_wait_reg_mem", T, pm4_wait_f);
#undef T

#define T struct kfd_pm4_indirect_buffer
static const struct kfd_field pm4_indirect_f[] = {
	PM4_HEAD,
	KS_F(T, ib_base, IN, GPU_VA),
	KS_F(T, control, IN, HEX),
};
KS_DESC(pm4_indirect_d, "kfd_pm4_indirect_buffer", T, pm4_indirect_f);
#undef T

#define T struct kfd_pm4_release_mem
static const struct kfd_field pm4_release_f[] = {
	PM4_HEAD,
	KS_F(T, event, IN, HEX),
	KS_F(T, control, IN, HEX),
	KS_F(T, addr, IN, GPU_VA),
	KS_F(T, data, IN, HEX),
	KS_F(T, int_ctxid, IN, NONE),
};
KS_DESC(pm4_release_d, "kfd_pm4_release_mem", T, pm4_release_f);
#undef T

#define T struct kfd_pm4_acquire_mem
static const struct kfd_field pm4_acquire_f[] = {
	PM4_HEAD,
	KS_F(T, coher_cntl, IN, HEX),
	KS_F(T, coher_size, IN, HEX),
	KS_F(T, coher_size_hi, IN, HEX),
	KS_F(T, coher_base, IN, HEX),
	KS_F(T, poll_interval, IN, NONE),
};
KS_DESC(pm4_acquire_d, "kfd_pm4_acquire_mem", T, pm4_acquire_f);
#undef T

#define T struct kfd_pm4_dispatch_direct
static const struct kfd_field pm4_dispatch_f[] = {
	PM4_HEAD,
	KS_F(T, dim_x, IN, COUNT),
	KS_F(T, dim_y, IN, COUNT),
	KS_F(T, dim_z, IN, COUNT),
	KS_F(T, initiator, IN, HEX),
};
KS_DESC(pm4_dispatch_d, "kfd_pm4_dispatch_direct", T, pm4_dispatch_f);
#undef T

#define T struct kfd_pm4_set_reg
static const struct kfd_field pm4_set_reg_f[] = {
	PM4_HEAD,
	KS_F(T, reg_offset, IN, HEX),
};
KS_DESC(pm4_set_reg_d, "kfd_pm4_set_reg", T, pm4_set_reg_f);

/* SET_SH_REG names its first register (the compute ones). */
static const struct kfd_field pm4_set_sh_reg_f[] = {
	PM4_HEAD,
	KS_FN(T, reg_offset, IN, ENUM, pm4_sh_reg_t),
};
KS_DESC(pm4_set_sh_reg_d, "kfd_pm4_set_sh_reg", T, pm4_set_sh_reg_f);
#undef T

#define T struct kfd_pm4_event_write
static const struct kfd_field pm4_event_f[] = {
	PM4_HEAD,
	KS_F(T, event, IN, HEX),
};
KS_DESC(pm4_event_d, "kfd_pm4_event_write", T, pm4_event_f);
#undef T

/* ---- the table ---------------------------------------------------- */

#define AQL(n, type, sub, d)						\
	{ n, KFD_ENGINE_AQL, KFD_AQL_TYPE_##type, sub, KFD_PKT_LEN_FIXED, &d }
#define SDMA(n, op, sub, len, d)					\
	{ n, KFD_ENGINE_SDMA, KFD_SDMA_OP_##op, sub, KFD_PKT_LEN_##len, &d }
#define PM4(n, op, d)							\
	{ n, KFD_ENGINE_PM4, KFD_PM4_OP_##op, -1, KFD_PKT_LEN_PM4, &d }

static const struct kfd_packet_desc rows[] = {
	AQL("KERNEL_DISPATCH", KERNEL_DISPATCH, -1, dispatch_d),
	AQL("BARRIER_AND", BARRIER_AND, -1, barrier_d),
	AQL("BARRIER_OR", BARRIER_OR, -1, barrier_d),
	AQL("AGENT_DISPATCH", AGENT_DISPATCH, -1, agent_d),
	AQL("BARRIER_VALUE", VENDOR, KFD_AQL_VENDOR_BARRIER_VALUE, barrier_value_d),
	AQL("PM4_IB", VENDOR, KFD_AQL_VENDOR_PM4_IB, pm4_ib_d),
	AQL("INVALID", INVALID, -1, invalid_d),
	SDMA("NOP", NOP, -1, NOP, nop_d),
	SDMA("COPY_LINEAR", COPY, KFD_SDMA_SUBOP_COPY_LINEAR, FIXED, copy_d),
	SDMA("COPY_LINEAR_RECT", COPY, KFD_SDMA_SUBOP_COPY_LINEAR_RECT, FIXED,
	     copy_rect_d),
	SDMA("WRITE", WRITE, -1, WRITE, write_d),
	SDMA("FENCE", FENCE, -1, FIXED, fence_d),
	SDMA("TRAP", TRAP, -1, FIXED, trap_d),
	SDMA("POLL_REGMEM", POLL_REGMEM, -1, FIXED, poll_d),
	SDMA("ATOMIC", ATOMIC, -1, FIXED, atomic_d),
	SDMA("CONST_FILL", CONST_FILL, -1, FIXED, fill_d),
	SDMA("TIMESTAMP", TIMESTAMP, -1, FIXED, timestamp_d),
	SDMA("GCR", GCR, -1, FIXED, gcr_d),
	PM4("NOP", NOP, pm4_nop_d),
	PM4("WRITE_DATA", WRITE_DATA, pm4_write_d),
	PM4("WAIT_REG_MEM", WAIT_REG_MEM, pm4_wait_d),
	PM4("INDIRECT_BUFFER", INDIRECT_BUFFER, pm4_indirect_d),
	PM4("RELEASE_MEM", RELEASE_MEM, pm4_release_d),
	PM4("ACQUIRE_MEM", ACQUIRE_MEM, pm4_acquire_d),
	PM4("DISPATCH_DIRECT", DISPATCH_DIRECT, pm4_dispatch_d),
	PM4("EVENT_WRITE", EVENT_WRITE, pm4_event_d),
	PM4("SET_SH_REG", SET_SH_REG, pm4_set_sh_reg_d),
	PM4("SET_UCONFIG_REG", SET_UCONFIG_REG, pm4_set_reg_d),
};

const struct kfd_packet_desc *
kfd_packet_rows(unsigned int *count)
{
	*count = KS_ARRAY_SIZE(rows);
	return rows;
}

const struct kfd_packet_desc *
kfd_aql_packet(const uint8_t *pkt)
{
	unsigned int i;

	for (i = 0; i < KS_ARRAY_SIZE(rows); i++) {
		const struct kfd_packet_desc *r = &rows[i];

		if (r->engine == KFD_ENGINE_AQL && r->match == pkt[0] &&
		    (r->sub < 0 || r->sub == pkt[2]))
			return r;
	}
	return NULL;
}

static uint32_t
dword(const uint8_t *p, size_t at)
{
	uint32_t v;

	memcpy(&v, p + at, 4);
	return v;
}

const struct kfd_packet_desc *
kfd_sdma_packet(const uint8_t *p, size_t len, size_t *size)
{
	unsigned int i;

	*size = 4;
	if (len < 4)
		return NULL;
	for (i = 0; i < KS_ARRAY_SIZE(rows); i++) {
		const struct kfd_packet_desc *r = &rows[i];

		if (r->engine != KFD_ENGINE_SDMA || r->match != p[0] ||
		    (r->sub >= 0 && r->sub != p[1]))
			continue;
		switch (r->len_kind) {
		case KFD_PKT_LEN_NOP:
			*size = 4 + 4 * (size_t)((dword(p, 0) >> 16) & 0x3fff);
			break;
		case KFD_PKT_LEN_WRITE:
			*size = r->layout->size;
			if (len >= r->layout->size)
				*size += 4 * (size_t)((dword(p, 12) & 0xfffff) + 1);
			break;
		default:
			*size = r->layout->size;
			break;
		}
		return r;
	}
	return NULL;
}

const struct kfd_packet_desc *
kfd_pm4_packet(const uint8_t *p, size_t len, size_t *size)
{
	uint32_t dw0;
	unsigned int i;
	uint8_t op;

	*size = 4;
	if (len < 4)
		return NULL;
	dw0 = dword(p, 0);
	/* The one-dword fillers are NOPs. */
	if (KFD_PM4_IS_FILLER(dw0))
		op = KFD_PM4_OP_NOP;
	else if (KFD_PM4_TYPE(dw0) == 3)
		op = (uint8_t)KFD_PM4_OPCODE(dw0);
	else
		return NULL;
	if (!KFD_PM4_IS_FILLER(dw0))
		*size = 4 * ((size_t)KFD_PM4_COUNT(dw0) + 2);
	for (i = 0; i < KS_ARRAY_SIZE(rows); i++)
		if (rows[i].engine == KFD_ENGINE_PM4 && rows[i].match == op)
			return &rows[i];
	return NULL;
}

const char *
kfd_engine_name(unsigned int engine)
{
	switch (engine) {
	case KFD_ENGINE_AQL:
		return "aql";
	case KFD_ENGINE_SDMA:
		return "sdma";
	case KFD_ENGINE_PM4:
		return "pm4";
	default:
		return "unknown";
	}
}

enum kfd_engine
kfd_queue_engine(uint32_t queue_type)
{
	switch (queue_type) {
	case KFD_ABI_QUEUE_TYPE_COMPUTE_AQL:
		return KFD_ENGINE_AQL;
	case KFD_ABI_QUEUE_TYPE_COMPUTE:
		return KFD_ENGINE_PM4;
	case KFD_ABI_QUEUE_TYPE_SDMA:
	case KFD_ABI_QUEUE_TYPE_SDMA_XGMI:
	case KFD_ABI_QUEUE_TYPE_SDMA_BY_ENG_ID:
		return KFD_ENGINE_SDMA;
	default:
		return KFD_ENGINE_UNKNOWN;
	}
}

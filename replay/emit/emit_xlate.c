/* SPDX-License-Identifier: MIT */
/*
 * emit-c, values: a captured input as the C expression of the live one,
 * by its role (the runtime's rr_gpu(), rr_handle(), rr_id(), rr_fd_in(),
 * rr_offset(), rr_cpu(): what the replayer's rp_value_xlate() does), and
 * the runtime's kinds of learned ids. The ioctl blocks (emit_ioctl.c) and
 * the checks of their outputs (emit_check.c) both write them.
 */
#include <inttypes.h>

#include <kfdtrace/kfd_abi.h>

#include "emit_priv.h"

const char *
em_kind_name(unsigned int role)
{
	/* The program's kinds are the replayer's (rp_role_kind()). */
	switch (rp_role_kind(role)) {
	case RP_K_HANDLE:
		return "RR_HANDLE";
	case RP_K_QUEUE:
		return "RR_QUEUE";
	case RP_K_EVENT:
		return "RR_EVENT";
	case RP_K_SLOT:
		return "RR_SLOT";
	case RP_K_GEM:
		return "RR_GEM";
	default:
		return "RR_OFFSET";
	}
}

/* A captured input value as the live one, by role (rp_value_xlate()). */
void
em_xlate_expr(struct em *e, struct kt_strbuf *sb, const struct em_call *c,
	   unsigned int role, uint64_t v)
{
	switch (role) {
	case KFD_ROLE_GPU_ID:
		if (!v || (uint32_t)v == KFD_ABI_INVALID_GPUID)
			break;
		kt_strbuf_puts(sb, "rr_gpu(");
		em_num(sb, v);
		kt_strbuf_puts(sb, ")");
		return;
	case KFD_ROLE_HANDLE:
		if (!v)
			break;
		kt_strbuf_printf(sb, "rr_handle(%d, ", c->scope);
		em_num(sb, v);
		kt_strbuf_puts(sb, ")");
		return;
	case KFD_ROLE_QUEUE_ID:
		if ((uint32_t)v == KFD_ABI_INVALID_QUEUEID)
			break;
		kt_strbuf_printf(sb, "rr_id(RR_QUEUE, %d, ", c->scope);
		em_num(sb, v & ~(uint64_t)kfd_role_status_bits(role));
		kt_strbuf_puts(sb, ")");
		if (v & kfd_role_status_bits(role))
			kt_strbuf_printf(sb, " | 0x%" PRIx64,
					 v & kfd_role_status_bits(role));
		return;
	case KFD_ROLE_EVENT_ID:
	case KFD_ROLE_EVENT_SLOT:
	case KFD_ROLE_GEM_HANDLE:
		kt_strbuf_printf(sb, "rr_id(%s, %d, ", em_kind_name(role),
				 role == KFD_ROLE_GEM_HANDLE ? c->gem_scope :
				 c->scope);
		em_num(sb, v);
		kt_strbuf_puts(sb, ")");
		return;
	case KFD_ROLE_FD:
		if ((int32_t)(uint32_t)v < 0)
			break;
		kt_strbuf_printf(sb, "rr_fd_in(%" PRIu64 ")", v);
		return;
	case KFD_ROLE_MMAP_OFFSET:
	case KFD_ROLE_DOORBELL_OFFSET:
		if (!v)
			break;
		kt_strbuf_puts(sb, "rr_offset(");
		em_num(sb, v);
		kt_strbuf_puts(sb, ")");
		return;
	case KFD_ROLE_CPU_ADDR:
		if (!v)
			break;
		kt_strbuf_puts(sb, "rr_cpu(");
		em_num(sb, v);
		kt_strbuf_puts(sb, ")");
		return;
	case KFD_ROLE_PID:
		if ((int32_t)v != e->m.hdr.pid)
			break;
		kt_strbuf_puts(sb, "(uint32_t)getpid()");
		return;
	default:
		break;
	}
	em_num(sb, v);
}

/* SVM attribute values name GPUs for the location and access types. */
int
em_svm_attr_gpu(uint32_t type, uint32_t value)
{
	return type <= KFD_ABI_SVM_ATTR_NO_ACCESS &&
	       value != KFD_ABI_SVM_LOCATION_SYSMEM &&
	       value != KFD_ABI_SVM_LOCATION_UNDEFINED;
}

/* SPDX-License-Identifier: MIT */
/*
 * Private to formats/schema: the helpers the table files use so that every
 * offset and width comes from the ABI structs (offsetof/sizeof) and nothing
 * is typed twice, and the family tables schema.c assembles into one.
 */
#ifndef KFDTRACE_SCHEMA_PRIV_H
#define KFDTRACE_SCHEMA_PRIV_H

#include <stddef.h>

#include "kfdtrace/schema.h"
#include "kfdtrace/kfd_abi.h"
#include "kfdtrace/drm_abi.h"

#define KS_ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))
#define KS_MEMBER_SIZE(t, m)	sizeof(((t *)0)->m)

/*
 * One field of C type t (a full type: "struct x" or "union y"), member path
 * m ("enable.rinfo_ptr" and "a[2].b" work), printed as nm, direction d
 * (NONE/IN/OUT/INOUT), role r (the KFD_ROLE_ suffix), signedness sgn, the
 * ABI minor it appeared in, present when fields[sel] == val (sel < 0:
 * always), names from the table tbl (NULL: none).
 */
#define KS_NFULL(nm, t, m, d, r, sgn, minor, sel, val, tbl)		\
	KS_NFULLA(nm, t, m, d, r, sgn, minor, sel, val, tbl, NONE)

/* The same with the attribute a (the KFD_ATTR_ suffix). */
#define KS_NFULLA(nm, t, m, d, r, sgn, minor, sel, val, tbl, a)	\
	{								\
		.name = nm,						\
		.offset = offsetof(t, m),				\
		.width = KS_MEMBER_SIZE(t, m),				\
		.dir = KFD_DIR_##d,					\
		.role = KFD_ROLE_##r,					\
		.is_signed = (sgn),					\
		.since_minor = (minor),					\
		.select = (sel),					\
		.select_value = (val),					\
		.names = (tbl),						\
		.attr = KFD_ATTR_##a,					\
	}

/* The same, printed under its member path. */
#define KS_FULL(t, m, d, r, sgn, minor, sel, val, tbl)			\
	KS_NFULL(#m, t, m, d, r, sgn, minor, sel, val, tbl)

/* A field printed under another name than its member path. */
#define KS_FNAMED(nm, t, m, d, r)					\
	KS_NFULL(nm, t, m, d, r, 0, 0, -1, 0, NULL)

/* A renamed union-arm field (two arms sharing one member). */
#define KS_FSNAMED(nm, t, m, d, r, sel, val)				\
	KS_NFULL(nm, t, m, d, r, 0, 0, sel, val, NULL)

/* A field the replayer reads as attribute a (KFD_ATTR_ suffix) of its object. */
#define KS_FA(t, m, d, r, a)						\
	KS_NFULLA(#m, t, m, d, r, 0, 0, -1, 0, NULL, a)
/* The same with a name table. */
#define KS_FNA(t, m, d, r, tbl, a)					\
	KS_NFULLA(#m, t, m, d, r, 0, 0, -1, 0, &(tbl), a)
/* The same, signed. */
#define KS_FIA(t, m, d, r, a)						\
	KS_NFULLA(#m, t, m, d, r, 1, 0, -1, 0, NULL, a)

/* Plain field. */
#define KS_F(t, m, d, r)		KS_FULL(t, m, d, r, 0, 0, -1, 0, NULL)
/* Signed field. */
#define KS_FI(t, m, d, r)		KS_FULL(t, m, d, r, 1, 0, -1, 0, NULL)
/* Field with a flag or enum name table. */
#define KS_FN(t, m, d, r, tbl)		KS_FULL(t, m, d, r, 0, 0, -1, 0, &(tbl))
/* Field added in ABI minor v. */
#define KS_FV(t, m, d, r, v)		KS_FULL(t, m, d, r, 0, v, -1, 0, NULL)
/* Union-arm field: present when fields[sel] == val. */
#define KS_FS(t, m, d, r, sel, val)	KS_FULL(t, m, d, r, 0, 0, sel, val, NULL)
#define KS_FSN(t, m, d, r, sel, val, tbl) KS_FULL(t, m, d, r, 0, 0, sel, val, &(tbl))

/* A struct description named n ("kfd_abi_x_args") of C type t. */
#define KS_DESC(var, n, t, flds)					\
	static const struct kfd_struct_desc var = {			\
		.name = n,						\
		.size = sizeof(t),					\
		.fields = flds,						\
		.nfields = KS_ARRAY_SIZE(flds),				\
	}

/* An indirect buffer. sel < 0: always present. */
#define KS_BUF(n, ptr, cnt, esz, kind, d, sel, val, el)		\
	{								\
		.name = (n),						\
		.ptr_field = (ptr),					\
		.count_field = (cnt),					\
		.elem_size = (esz),					\
		.len_kind = KFD_LEN_##kind,				\
		.dir = KFD_DIR_##d,					\
		.select = (sel),					\
		.select_value = (val),					\
		.elem = (el),						\
	}

/* A KFD_LEN_STRIDED buffer: count_field elements of stride_field bytes. */
#define KS_BUF_STRIDED(n, ptr, cnt, stride, esz, d, sel, val, el)	\
	{								\
		.name = (n),						\
		.ptr_field = (ptr),					\
		.count_field = (cnt),					\
		.elem_size = (esz),					\
		.len_kind = KFD_LEN_STRIDED,				\
		.dir = KFD_DIR_##d,					\
		.select = (sel),					\
		.select_value = (val),					\
		.elem = (el),						\
		.stride_field = (stride),				\
	}

/* Direction of a request code's _IOC_DIR as enum kfd_dir. */
#define KS_IOC_DIR(req)							\
	((KFD_ABI_IOC_DIR(req) & _IOC_WRITE ? KFD_DIR_IN : 0) |		\
	 (KFD_ABI_IOC_DIR(req) & _IOC_READ ? KFD_DIR_OUT : 0))

/* Common row header for a KFD ioctl. */
#define KS_KFD_ROW(NAME, ev, nr_, req, since)				\
	.name = NAME,							\
	.event_name = ev,						\
	.file_kind = KFD_FILE_KFD,					\
	.type = KFD_ABI_IOCTL_BASE,					\
	.nr = (nr_),							\
	.request = (uint32_t)(req),					\
	.dir = KS_IOC_DIR(req),						\
	.since_minor = (since)

#define KS_DRM_ROW(NAME, ev, nr_, req)					\
	.name = NAME,							\
	.event_name = ev,						\
	.file_kind = KFD_FILE_RENDER,					\
	.type = KFD_DRM_IOCTL_BASE,					\
	.nr = (nr_),							\
	.request = (uint32_t)(req),					\
	.dir = KS_IOC_DIR(req)

/* The object a row creates (from nothing, or from another) or ends. */
#define KS_CREATES(o)		.creates = KFD_OBJ_##o
#define KS_CREATES_FROM(o, src)	.creates = KFD_OBJ_##o, .source = KFD_OBJ_##src
#define KS_ENDS(o)		.ends = KFD_OBJ_##o

#define KS_ARGS(d)	.args = &(d)
#define KS_BUFS(b)	.bufs = (b), .nbufs = KS_ARRAY_SIZE(b)
#define KS_VARIANTS(v)	.variants = (v), .nvariants = KS_ARRAY_SIZE(v)

/* A name table entry: the constant prefix##x, printed as "x". */
#define KS_N(prefix, x)	{ prefix##x, #x }

/* A name table var called tname ("alloc_flags") holding the entries arr. */
#define KS_TABLE(var, tname, arr)					\
	const struct kfd_name_table var = {				\
		.name = tname,						\
		.entries = arr,						\
		.count = KS_ARRAY_SIZE(arr),				\
	}

/* Name tables (names.c, names_drm.c) */
extern const struct kfd_name_table ks_alloc_flags;
extern const struct kfd_name_table ks_queue_type;
extern const struct kfd_name_table ks_cache_policy;
extern const struct kfd_name_table ks_proc_flags;
extern const struct kfd_name_table ks_event_type;
extern const struct kfd_name_table ks_wait_result;
extern const struct kfd_name_table ks_svm_op;
extern const struct kfd_name_table ks_svm_attr_type;
extern const struct kfd_name_table ks_svm_flags;
extern const struct kfd_name_table ks_criu_op;
extern const struct kfd_name_table ks_runtime_mode;
extern const struct kfd_name_table ks_runtime_caps;
extern const struct kfd_name_table ks_dbg_trap_op;
extern const struct kfd_name_table ks_dbg_trap_old_op;
extern const struct kfd_name_table ks_exception_mask;
extern const struct kfd_name_table ks_trap_mask;
extern const struct kfd_name_table ks_override_mode;
extern const struct kfd_name_table ks_launch_mode;
extern const struct kfd_name_table ks_watch_mode;
extern const struct kfd_name_table ks_dbg_flags;
extern const struct kfd_name_table ks_fd_flags;
extern const struct kfd_name_table ks_cross_memory_flags;
extern const struct kfd_name_table ks_spm_op;
extern const struct kfd_name_table ks_pcs_op;
extern const struct kfd_name_table ks_pcs_method;
extern const struct kfd_name_table ks_pcs_type;
extern const struct kfd_name_table ks_pcs_flags;
extern const struct kfd_name_table ks_profiler_op;
extern const struct kfd_name_table ks_profiler_op_1_23;
extern const struct kfd_name_table ks_ais_op;
extern const struct kfd_name_table ks_cap2;
extern const struct kfd_name_table ks_drm_cap;
extern const struct kfd_name_table ks_gem_domains;
extern const struct kfd_name_table ks_gem_create_flags;
extern const struct kfd_name_table ks_gem_metadata_op;
extern const struct kfd_name_table ks_va_op;
extern const struct kfd_name_table ks_vm_flags;
extern const struct kfd_name_table ks_info_query;
extern const struct kfd_name_table ks_fw_type;
extern const struct kfd_name_table ks_hw_ip;
extern const struct kfd_name_table ks_ctx_op;
extern const struct kfd_name_table ks_ctx_priority;
extern const struct kfd_name_table ks_ctx_reset;
extern const struct kfd_name_table ks_ctx_query2_flags;
extern const struct kfd_name_table ks_ctx_pstate;
extern const struct kfd_name_table ks_bo_list_op;
extern const struct kfd_name_table ks_chunk_id;
extern const struct kfd_name_table ks_userq_op;
extern const struct kfd_name_table ks_userq_flags;
extern const struct kfd_name_table ks_list_handles_flags;

/* Shared element descriptions (kfd_rows_common.c) */
extern const struct kfd_struct_desc ks_u32_gpu_id_desc;
extern const struct kfd_struct_desc ks_u32_queue_id_desc;
extern const struct kfd_struct_desc ks_apertures_desc;

/* Family tables; each file exports its rows and their count. */
#define KS_DECLARE_ROWS(fam)						\
	extern const struct kfd_ioctl_desc ks_rows_##fam[];		\
	extern const unsigned int ks_nrows_##fam

KS_DECLARE_ROWS(misc);
KS_DECLARE_ROWS(queues);
KS_DECLARE_ROWS(events);
KS_DECLARE_ROWS(memory);
KS_DECLARE_ROWS(svm);
KS_DECLARE_ROWS(debug);
KS_DECLARE_ROWS(profiler);
KS_DECLARE_ROWS(rocm);
KS_DECLARE_ROWS(drm);

#define KS_DEFINE_COUNT(fam)						\
	const unsigned int ks_nrows_##fam = KS_ARRAY_SIZE(ks_rows_##fam)

#endif /* KFDTRACE_SCHEMA_PRIV_H */

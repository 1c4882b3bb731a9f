/* SPDX-License-Identifier: MIT */
/*
 * The schema rows and fields the replayer treats specially, and each row's
 * plan (private to replay/, the rows part: rows.c, plan.c).
 */
#ifndef RP_ROWS_H
#define RP_ROWS_H

#include "replay_base.h"

/* ------------------------------------------------------------------ */
/* Schema rows the replayer treats specially                            */

/*
 * What the replay does with one schema row (plan.c), worked out once:
 * argument fields (indexes into args->fields) whose input is translated,
 * those whose output is compared or learned, and the inputs that name
 * GPUs (gpu_id or handle roles). Each list has room for every field.
 */
struct rp_req_plan {
	uint8_t never;		/* never replayed: effects beyond the replay */
	uint8_t has_bufs;	/* some indirect buffer is rebuilt */
	uint8_t out_plain;	/* every compared output is compared as is:
				 * equal argument bytes are a match */
	unsigned int nin, nout, ngpu;
	unsigned int *in;
	unsigned int *out;
	unsigned int *gpu;	/* inputs naming GPUs (the model's) */
};

/*
 * The rows and fields the replayer gives special treatment, derived from
 * the schema's columns at start-up (rows.c): rows by the objects they
 * create or end (kfd_ioctl_desc.creates, .source, .ends), fields by their
 * attribute (kfd_field.attr). A few rows whose treatment is no object
 * fact are found by name.
 */
struct rp_rows {
	const struct kfd_ioctl_desc *get_version, *acquire_vm, *alloc,
		*free_mem, *map_mem, *unmap_mem, *import_dmabuf,
		*export_dmabuf, *get_dmabuf_info, *create_queue,
		*destroy_queue, *create_event, *destroy_event, *wait_events,
		*svm, *create_process, *smi_events, *apertures,
		*apertures_new, *gem_create, *gem_close,
		*prime_h2f, *prime_f2h, *amdgpu_info,
		*ipc_import, *ipc_export, *set_event, *reset_event, *dbg_trap;
	/* Fields by row. */
	const struct kfd_field *ver_minor;
	const struct kfd_field *alloc_va, *alloc_size, *alloc_handle,
		*alloc_off, *alloc_gpu, *alloc_flags;
	const struct kfd_field *free_handle;
	const struct kfd_field *map_handle, *unmap_handle;
	const struct kfd_field *imp_va, *imp_handle, *imp_gpu, *imp_fd;
	const struct kfd_field *exp_handle, *exp_fd;
	const struct kfd_field *info_size, *info_gpu, *info_flags, *info_fd;
	const struct kfd_field *cq_ring, *cq_wptr, *cq_rptr, *cq_doorbell,
		*cq_ring_size, *cq_gpu, *cq_type, *cq_qid, *cq_eop,
		*cq_eop_size, *cq_ctx, *cq_ctx_size;
	const struct kfd_field *dq_qid;
	const struct kfd_field *ce_page, *ce_trigger, *ce_type, *ce_auto,
		*ce_id, *ce_slot;
	const struct kfd_field *de_id, *se_id;
	const struct kfd_field *we_timeout, *we_result, *we_all;
	const struct kfd_field *svm_start, *svm_size, *svm_op, *svm_nattr;
	const struct kfd_field *smi_fd;
	const struct kfd_field *apn_num;
	const struct kfd_field *gc_size, *gc_domains, *gc_handle;
	const struct kfd_field *gclose_handle;
	const struct kfd_field *h2f_handle, *h2f_fd, *f2h_handle, *f2h_fd;
	const struct kfd_field *info_query;
	const struct kfd_field *ap_num;
	const struct kfd_field *ipci_share, *ipce_share;
	/* SVM's trailing attributes: the buffer and one element's fields. */
	const struct kfd_indirect *svm_attrs;
	const struct kfd_field *svm_attr_type, *svm_attr_value;
	/* Plans by row, in kfd_schema_rows() order; NULL: out of memory. */
	const struct kfd_ioctl_desc *row0;
	unsigned int nrows;
	struct rp_req_plan *plans;
};

/*
 * The table, resolved once (thread-safe). Every row and field pointer in
 * it is set when plans is; plans is NULL when a name did not resolve
 * (rp_rows_error() says which) or memory ran out.
 */
const struct rp_rows *rp_rows(void);
/* Why rp_rows()->plans is NULL ("schema row SVM marks no field as count"), or NULL. */
const char *rp_rows_error(void);
/*
 * rows.c: bind every row and field of @r from the @nrows rows of @rows
 * (kfd_schema_rows(); tests pass altered copies). Return: 0, or -1 with
 * the first row or field that did not resolve, or a row that another
 * one's columns make ambiguous, described in @missing.
 */
int rp_rows_bind(struct rp_rows *r, const struct kfd_ioctl_desc *rows,
		 unsigned int nrows, char *missing, size_t len);
/* plan.c: fill r->plans (and row0, nrows) for rows_init(). Return: 0, -1. */
int rp_plans_build(struct rp_rows *r);

/*
 * The plan of @d, a row of the schema table (as kt_ioctl_row() gives
 * them). The replay refuses to start without plans (kfd_replay_open(),
 * kfd_replay_run()), so every user has them.
 */
static inline const struct rp_req_plan *
rp_req_plan(const struct rp_rows *r, const struct kfd_ioctl_desc *d)
{
	return &r->plans[d - r->row0];
}

/* A field's value in argument bytes (0 when it lies outside them). */
static inline uint64_t
rp_fget(const struct kfd_field *f, const void *bytes, size_t len)
{
	uint64_t v = 0;

	if (kfd_field_load(f, bytes, len, &v) < 0)
		return 0;
	return v;
}

/* Whether a field lies inside @len bytes. */
static inline int
rp_fhas(const struct kfd_field *f, size_t len)
{
	return f && (size_t)f->offset + f->width <= len;
}

#endif /* RP_ROWS_H */

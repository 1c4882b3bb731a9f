/* SPDX-License-Identifier: MIT */
/*
 * The schema rows and fields the replayer gives special treatment, bound
 * by name once, and every row's plan (plan.c). Every name below must
 * resolve: a row or field renamed in the schema without this table leaves
 * the replayer unable to start (kfd_replay_open() names what is missing)
 * rather than quietly treating that ioctl by roles alone, and the unit
 * test tests/replay/rp_rows.c fails on it at build-test time.
 */
#include <pthread.h>
#include <stdio.h>

#include "replay_rows.h"

/* Where in struct rp_rows a row or field pointer goes. */
#define RP_ROW(member, nm)	{ offsetof(struct rp_rows, member), nm }
#define RP_FLD(row_, member, nm)					\
	{ offsetof(struct rp_rows, row_), offsetof(struct rp_rows, member), nm }

struct rp_row_bind {
	size_t off;
	const char *name;
};

struct rp_field_bind {
	size_t row_off;
	size_t off;
	const char *name;
};

static const struct rp_row_bind row_binds[] = {
	RP_ROW(get_version, "GET_VERSION"),
	RP_ROW(acquire_vm, "ACQUIRE_VM"),
	RP_ROW(alloc, "ALLOC_MEMORY_OF_GPU"),
	RP_ROW(free_mem, "FREE_MEMORY_OF_GPU"),
	RP_ROW(map_mem, "MAP_MEMORY_TO_GPU"),
	RP_ROW(unmap_mem, "UNMAP_MEMORY_FROM_GPU"),
	RP_ROW(import_dmabuf, "IMPORT_DMABUF"),
	RP_ROW(export_dmabuf, "EXPORT_DMABUF"),
	RP_ROW(get_dmabuf_info, "GET_DMABUF_INFO"),
	RP_ROW(create_queue, "CREATE_QUEUE"),
	RP_ROW(destroy_queue, "DESTROY_QUEUE"),
	RP_ROW(create_event, "CREATE_EVENT"),
	RP_ROW(destroy_event, "DESTROY_EVENT"),
	RP_ROW(wait_events, "WAIT_EVENTS"),
	RP_ROW(set_event, "SET_EVENT"),
	RP_ROW(svm, "SVM"),
	RP_ROW(create_process, "CREATE_PROCESS"),
	RP_ROW(smi_events, "SMI_EVENTS"),
	RP_ROW(apertures, "GET_PROCESS_APERTURES"),
	RP_ROW(apertures_new, "GET_PROCESS_APERTURES_NEW"),
	RP_ROW(gem_create, "AMDGPU_GEM_CREATE"),
	RP_ROW(gem_close, "DRM_GEM_CLOSE"),
	RP_ROW(gem_mmap, "AMDGPU_GEM_MMAP"),
	RP_ROW(prime_h2f, "DRM_PRIME_HANDLE_TO_FD"),
	RP_ROW(prime_f2h, "DRM_PRIME_FD_TO_HANDLE"),
	RP_ROW(amdgpu_info, "AMDGPU_INFO"),
	RP_ROW(gem_metadata, "AMDGPU_GEM_METADATA"),
	RP_ROW(runtime_enable, "RUNTIME_ENABLE"),
	RP_ROW(ipc_import, "IPC_IMPORT_HANDLE"),
	RP_ROW(ipc_export, "IPC_EXPORT_HANDLE"),
};

static const struct rp_field_bind field_binds[] = {
	RP_FLD(get_version, ver_minor, "minor_version"),
	RP_FLD(acquire_vm, acq_fd, "drm_fd"),
	RP_FLD(acquire_vm, acq_gpu, "gpu_id"),
	RP_FLD(alloc, alloc_va, "va_addr"),
	RP_FLD(alloc, alloc_size, "size"),
	RP_FLD(alloc, alloc_handle, "handle"),
	RP_FLD(alloc, alloc_off, "mmap_offset"),
	RP_FLD(alloc, alloc_gpu, "gpu_id"),
	RP_FLD(alloc, alloc_flags, "flags"),
	RP_FLD(free_mem, free_handle, "handle"),
	RP_FLD(map_mem, map_handle, "handle"),
	RP_FLD(unmap_mem, unmap_handle, "handle"),
	RP_FLD(import_dmabuf, imp_va, "va_addr"),
	RP_FLD(import_dmabuf, imp_handle, "handle"),
	RP_FLD(import_dmabuf, imp_gpu, "gpu_id"),
	RP_FLD(import_dmabuf, imp_fd, "dmabuf_fd"),
	RP_FLD(export_dmabuf, exp_handle, "handle"),
	RP_FLD(export_dmabuf, exp_fd, "dmabuf_fd"),
	RP_FLD(get_dmabuf_info, info_size, "size"),
	RP_FLD(get_dmabuf_info, info_gpu, "gpu_id"),
	RP_FLD(get_dmabuf_info, info_flags, "flags"),
	RP_FLD(get_dmabuf_info, info_fd, "dmabuf_fd"),
	RP_FLD(get_dmabuf_info, info_msize, "metadata_size"),
	RP_FLD(create_queue, cq_ring, "ring_base_address"),
	RP_FLD(create_queue, cq_wptr, "write_pointer_address"),
	RP_FLD(create_queue, cq_rptr, "read_pointer_address"),
	RP_FLD(create_queue, cq_doorbell, "doorbell_offset"),
	RP_FLD(create_queue, cq_ring_size, "ring_size"),
	RP_FLD(create_queue, cq_gpu, "gpu_id"),
	RP_FLD(create_queue, cq_type, "queue_type"),
	RP_FLD(create_queue, cq_qid, "queue_id"),
	RP_FLD(create_queue, cq_eop, "eop_buffer_address"),
	RP_FLD(create_queue, cq_eop_size, "eop_buffer_size"),
	RP_FLD(create_queue, cq_ctx, "ctx_save_restore_address"),
	RP_FLD(create_queue, cq_ctx_size, "ctx_save_restore_size"),
	RP_FLD(destroy_queue, dq_qid, "queue_id"),
	RP_FLD(create_event, ce_page, "event_page_offset"),
	RP_FLD(create_event, ce_trigger, "event_trigger_data"),
	RP_FLD(create_event, ce_type, "event_type"),
	RP_FLD(create_event, ce_auto, "auto_reset"),
	RP_FLD(create_event, ce_id, "event_id"),
	RP_FLD(create_event, ce_slot, "event_slot_index"),
	RP_FLD(destroy_event, de_id, "event_id"),
	RP_FLD(set_event, se_id, "event_id"),
	RP_FLD(wait_events, we_timeout, "timeout"),
	RP_FLD(wait_events, we_result, "wait_result"),
	RP_FLD(wait_events, we_all, "wait_for_all"),
	RP_FLD(wait_events, we_num, "num_events"),
	RP_FLD(svm, svm_start, "start_addr"),
	RP_FLD(svm, svm_size, "size"),
	RP_FLD(svm, svm_op, "op"),
	RP_FLD(svm, svm_nattr, "nattr"),
	RP_FLD(smi_events, smi_fd, "anon_fd"),
	RP_FLD(apertures_new, apn_num, "num_of_nodes"),
	RP_FLD(apertures, ap_num, "num_of_nodes"),
	RP_FLD(gem_create, gc_size, "in.bo_size"),
	RP_FLD(gem_create, gc_domains, "in.domains"),
	RP_FLD(gem_create, gc_handle, "out.handle"),
	RP_FLD(gem_close, gclose_handle, "handle"),
	RP_FLD(gem_mmap, gmmap_handle, "in.handle"),
	RP_FLD(gem_mmap, gmmap_off, "out.addr_ptr"),
	RP_FLD(prime_h2f, h2f_handle, "handle"),
	RP_FLD(prime_h2f, h2f_fd, "fd"),
	RP_FLD(prime_f2h, f2h_handle, "handle"),
	RP_FLD(prime_f2h, f2h_fd, "fd"),
	RP_FLD(amdgpu_info, info_query, "query"),
	RP_FLD(ipc_import, ipci_share, "share_handle"),
	RP_FLD(ipc_export, ipce_share, "share_handle"),
};

/* SVM's trailing attribute array and the fields of one attribute. */
#define RP_SVM_ATTRS	"attrs"

static struct rp_rows rows;
static pthread_once_t rows_once = PTHREAD_ONCE_INIT;
static int rows_ready;
static char rows_missing[128];

#define RP_BIND_AT(r, off, type)	((type *)((char *)(r) + (off)))

static const struct kfd_field *
elem_field(const struct kfd_struct_desc *sd, const char *name)
{
	unsigned int i;

	for (i = 0; sd && i < sd->nfields; i++)
		if (!strcmp(sd->fields[i].name, name))
			return &sd->fields[i];
	return NULL;
}

/* SVM's attribute buffer: trailing, of elements with a type and a value. */
static int
bind_svm_attrs(struct rp_rows *r, char *missing, size_t len)
{
	const struct kfd_ioctl_desc *d = r->svm;
	unsigned int i;

	for (i = 0; i < d->nbufs; i++)
		if (!strcmp(d->bufs[i].name, RP_SVM_ATTRS) &&
		    d->bufs[i].len_kind == KFD_LEN_TRAILING && d->bufs[i].elem)
			r->svm_attrs = &d->bufs[i];
	if (!r->svm_attrs || !d->args) {
		snprintf(missing, len, "schema row %s has no trailing buffer %s",
			 d->name, RP_SVM_ATTRS);
		return -1;
	}
	r->svm_attr_type = elem_field(r->svm_attrs->elem, "type");
	r->svm_attr_value = elem_field(r->svm_attrs->elem, "value");
	if (!r->svm_attr_type || !r->svm_attr_value) {
		snprintf(missing, len, "schema row %s: %s elements have no field %s",
			 d->name, RP_SVM_ATTRS, r->svm_attr_type ? "value" : "type");
		return -1;
	}
	return 0;
}

int
rp_rows_bind(struct rp_rows *r,
	     const struct kfd_ioctl_desc *(*lookup)(const char *name),
	     char *missing, size_t len)
{
	size_t i;

	for (i = 0; i < sizeof(row_binds) / sizeof(row_binds[0]); i++) {
		const struct kfd_ioctl_desc *d = lookup(row_binds[i].name);

		*RP_BIND_AT(r, row_binds[i].off, const struct kfd_ioctl_desc *) = d;
		if (!d) {
			snprintf(missing, len, "the schema has no row %s",
				 row_binds[i].name);
			return -1;
		}
	}
	for (i = 0; i < sizeof(field_binds) / sizeof(field_binds[0]); i++) {
		const struct kfd_ioctl_desc *d =
			*RP_BIND_AT(r, field_binds[i].row_off,
			       const struct kfd_ioctl_desc *);
		int k = kfd_schema_field(d, field_binds[i].name);

		if (k < 0) {
			snprintf(missing, len, "schema row %s has no field %s",
				 d->name, field_binds[i].name);
			return -1;
		}
		*RP_BIND_AT(r, field_binds[i].off, const struct kfd_field *) =
			&d->args->fields[k];
	}
	return bind_svm_attrs(r, missing, len);
}

static void
rows_init(void)
{
	/* Plans read the fields bound here; on failure plans stays NULL. */
	if (rp_rows_bind(&rows, kfd_schema_by_name, rows_missing,
			 sizeof(rows_missing)) < 0)
		return;
	if (rp_plans_build(&rows) < 0)
		snprintf(rows_missing, sizeof(rows_missing), "out of memory");
}

const struct rp_rows *
rp_rows(void)
{
	/* Called for every record: skip pthread_once once the table is up. */
	if (!__atomic_load_n(&rows_ready, __ATOMIC_ACQUIRE)) {
		pthread_once(&rows_once, rows_init);
		__atomic_store_n(&rows_ready, 1, __ATOMIC_RELEASE);
	}
	return &rows;
}

const char *
rp_rows_error(void)
{
	const struct rp_rows *r = rp_rows();

	if (r->plans)
		return NULL;
	return rows_missing[0] ? rows_missing : "out of memory";
}

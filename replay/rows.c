/* SPDX-License-Identifier: MIT */
/*
 * The schema rows and fields the replayer gives special treatment, derived
 * from the schema's columns once, and every row's plan (plan.c). A row is
 * found by the object it creates or ends (and what it makes it from), a
 * field by its attribute: nothing here repeats a name the schema spells,
 * except for the few rows below whose treatment is no object fact.
 *
 * Every binding must resolve, and resolve to one row: a schema that lost a
 * column, or gained a second row with the same one, leaves the replayer
 * unable to start (kfd_replay_open() says which) rather than quietly
 * treating a call by roles alone; tests/replay/test_replay_rows.c checks it.
 */
#include <pthread.h>
#include <stdio.h>

#include "replay_rows.h"

#define RP_OFF(member)		offsetof(struct rp_rows, member)

/* A row found by its object columns. */
struct rp_obj_bind {
	size_t off;
	uint8_t creates, source, ends;
};

#define RP_MAKES(member, obj, src)					\
	{ RP_OFF(member), KFD_OBJ_##obj, KFD_OBJ_##src, KFD_OBJ_NONE }
#define RP_ENDS(member, obj)						\
	{ RP_OFF(member), KFD_OBJ_NONE, KFD_OBJ_NONE, KFD_OBJ_##obj }

static const struct rp_obj_bind obj_binds[] = {
	RP_MAKES(alloc, BUFFER, NONE),
	RP_MAKES(import_dmabuf, BUFFER, DMABUF),
	RP_MAKES(ipc_import, BUFFER, SHARE),
	RP_MAKES(ipc_export, SHARE, BUFFER),
	RP_MAKES(export_dmabuf, DMABUF, BUFFER),
	RP_MAKES(prime_h2f, DMABUF, GEM),
	RP_MAKES(gem_create, GEM, NONE),
	RP_MAKES(prime_f2h, GEM, DMABUF),
	RP_MAKES(create_queue, QUEUE, NONE),
	RP_MAKES(create_event, EVENT, NONE),
	RP_MAKES(smi_events, FD, NONE),
	RP_MAKES(create_process, PROCESS, NONE),
	RP_ENDS(free_mem, BUFFER),
	RP_ENDS(destroy_queue, QUEUE),
	RP_ENDS(destroy_event, EVENT),
	RP_ENDS(gem_close, GEM),
};

/*
 * Rows found by name: what the replayer does with them is no object fact
 * but a behaviour of their own (the ABI version, a VM's acquisition,
 * mapping counts, a dma-buf's description, waits and the sets and resets
 * of their events, SVM's trailing attributes, the apertures and the
 * AMDGPU_INFO queries that vary between machines).
 */
struct rp_name_bind {
	size_t off;
	const char *name;
};

static const struct rp_name_bind name_binds[] = {
	{ RP_OFF(get_version), "GET_VERSION" },
	{ RP_OFF(acquire_vm), "ACQUIRE_VM" },
	{ RP_OFF(map_mem), "MAP_MEMORY_TO_GPU" },
	{ RP_OFF(unmap_mem), "UNMAP_MEMORY_FROM_GPU" },
	{ RP_OFF(get_dmabuf_info), "GET_DMABUF_INFO" },
	{ RP_OFF(wait_events), "WAIT_EVENTS" },
	{ RP_OFF(set_event), "SET_EVENT" },
	{ RP_OFF(reset_event), "RESET_EVENT" },
	{ RP_OFF(dbg_trap), "DBG_TRAP" },
	{ RP_OFF(svm), "SVM" },
	{ RP_OFF(apertures), "GET_PROCESS_APERTURES" },
	{ RP_OFF(apertures_new), "GET_PROCESS_APERTURES_NEW" },
	{ RP_OFF(amdgpu_info), "AMDGPU_INFO" },
};

/* A field of a bound row, by its attribute. */
struct rp_field_bind {
	size_t row_off;
	size_t off;
	uint8_t attr;
};

#define RP_FLD(row_, member, a)						\
	{ RP_OFF(row_), RP_OFF(member), KFD_ATTR_##a }

static const struct rp_field_bind field_binds[] = {
	RP_FLD(get_version, ver_minor, VERSION),
	RP_FLD(alloc, alloc_va, VA),
	RP_FLD(alloc, alloc_size, SIZE),
	RP_FLD(alloc, alloc_handle, OBJ),
	RP_FLD(alloc, alloc_off, MMAP_OFFSET),
	RP_FLD(alloc, alloc_gpu, GPU),
	RP_FLD(alloc, alloc_flags, FLAGS),
	RP_FLD(free_mem, free_handle, OBJ),
	RP_FLD(map_mem, map_handle, OBJ),
	RP_FLD(unmap_mem, unmap_handle, OBJ),
	RP_FLD(import_dmabuf, imp_va, VA),
	RP_FLD(import_dmabuf, imp_handle, OBJ),
	RP_FLD(import_dmabuf, imp_gpu, GPU),
	RP_FLD(import_dmabuf, imp_fd, SOURCE),
	RP_FLD(export_dmabuf, exp_handle, SOURCE),
	RP_FLD(export_dmabuf, exp_fd, OBJ),
	RP_FLD(get_dmabuf_info, info_size, SIZE),
	RP_FLD(get_dmabuf_info, info_gpu, GPU),
	RP_FLD(get_dmabuf_info, info_flags, FLAGS),
	RP_FLD(get_dmabuf_info, info_fd, OBJ),
	RP_FLD(create_queue, cq_ring, RING),
	RP_FLD(create_queue, cq_wptr, WPTR),
	RP_FLD(create_queue, cq_rptr, RPTR),
	RP_FLD(create_queue, cq_doorbell, DOORBELL),
	RP_FLD(create_queue, cq_ring_size, RING_SIZE),
	RP_FLD(create_queue, cq_gpu, GPU),
	RP_FLD(create_queue, cq_type, TYPE),
	RP_FLD(create_queue, cq_qid, OBJ),
	RP_FLD(create_queue, cq_eop, EOP),
	RP_FLD(create_queue, cq_eop_size, EOP_SIZE),
	RP_FLD(create_queue, cq_ctx, CTX),
	RP_FLD(create_queue, cq_ctx_size, CTX_SIZE),
	RP_FLD(destroy_queue, dq_qid, OBJ),
	RP_FLD(create_event, ce_page, EVENT_PAGE),
	RP_FLD(create_event, ce_trigger, TRIGGER),
	RP_FLD(create_event, ce_type, TYPE),
	RP_FLD(create_event, ce_auto, AUTO_RESET),
	RP_FLD(create_event, ce_id, OBJ),
	RP_FLD(create_event, ce_slot, SLOT),
	RP_FLD(destroy_event, de_id, OBJ),
	RP_FLD(set_event, se_id, OBJ),
	RP_FLD(wait_events, we_timeout, TIMEOUT),
	RP_FLD(wait_events, we_result, RESULT),
	RP_FLD(wait_events, we_all, WAIT_ALL),
	RP_FLD(svm, svm_start, VA),
	RP_FLD(svm, svm_size, SIZE),
	RP_FLD(svm, svm_op, OP),
	RP_FLD(svm, svm_nattr, COUNT),
	RP_FLD(smi_events, smi_fd, OBJ),
	RP_FLD(apertures_new, apn_num, COUNT),
	RP_FLD(apertures, ap_num, COUNT),
	RP_FLD(gem_create, gc_size, SIZE),
	RP_FLD(gem_create, gc_domains, FLAGS),
	RP_FLD(gem_create, gc_handle, OBJ),
	RP_FLD(gem_close, gclose_handle, OBJ),
	RP_FLD(prime_h2f, h2f_handle, SOURCE),
	RP_FLD(prime_h2f, h2f_fd, OBJ),
	RP_FLD(prime_f2h, f2h_handle, OBJ),
	RP_FLD(prime_f2h, f2h_fd, SOURCE),
	RP_FLD(amdgpu_info, info_query, OP),
	RP_FLD(ipc_import, ipci_share, SOURCE),
	RP_FLD(ipc_export, ipce_share, OBJ),
};

static struct rp_rows rows;
static pthread_once_t rows_once = PTHREAD_ONCE_INIT;
static int rows_ready;
static char rows_missing[128];

#define RP_BIND_AT(r, off, type)	((type *)((char *)(r) + (off)))

/* "creates a buffer from a dmabuf", "ends a queue" (for messages). */
static void
obj_what(char *buf, size_t len, const struct rp_obj_bind *b)
{
	if (b->ends)
		snprintf(buf, len, "ends a %s", kfd_obj_name(b->ends));
	else if (b->source)
		snprintf(buf, len, "creates a %s from a %s",
			 kfd_obj_name(b->creates), kfd_obj_name(b->source));
	else
		snprintf(buf, len, "creates a %s", kfd_obj_name(b->creates));
}

static int
bind_obj_row(struct rp_rows *r, const struct rp_obj_bind *b,
	     const struct kfd_ioctl_desc *all, unsigned int nrows,
	     char *missing, size_t len)
{
	const struct kfd_ioctl_desc *found = NULL;
	char what[64];
	unsigned int i;

	obj_what(what, sizeof(what), b);
	for (i = 0; i < nrows; i++) {
		const struct kfd_ioctl_desc *d = &all[i];

		if (d->creates != b->creates || d->source != b->source ||
		    d->ends != b->ends)
			continue;
		if (found) {
			/* The replayer models one such call; a second needs it taught. */
			snprintf(missing, len, "schema rows %s and %s: each %s",
				 found->name, d->name, what);
			return -1;
		}
		found = d;
	}
	if (!found) {
		snprintf(missing, len, "the schema has no row that %s", what);
		return -1;
	}
	*RP_BIND_AT(r, b->off, const struct kfd_ioctl_desc *) = found;
	return 0;
}

static const struct kfd_ioctl_desc *
row_by_name(const struct kfd_ioctl_desc *all, unsigned int nrows,
	    const char *name)
{
	unsigned int i;

	for (i = 0; i < nrows; i++)
		if (!strcmp(all[i].name, name))
			return &all[i];
	return NULL;
}

/* SVM's attribute buffer: trailing, of elements with a type and a value. */
static int
bind_svm_attrs(struct rp_rows *r, char *missing, size_t len)
{
	const struct kfd_ioctl_desc *d = r->svm;
	unsigned int i;

	r->svm_attrs = NULL;
	for (i = 0; i < d->nbufs; i++)
		if (d->bufs[i].len_kind == KFD_LEN_TRAILING && d->bufs[i].elem)
			r->svm_attrs = &d->bufs[i];
	if (!r->svm_attrs || !d->args) {
		snprintf(missing, len, "schema row %s has no trailing buffer",
			 d->name);
		return -1;
	}
	r->svm_attr_type = kfd_schema_attr(r->svm_attrs->elem, KFD_ATTR_TYPE);
	r->svm_attr_value = kfd_schema_attr(r->svm_attrs->elem, KFD_ATTR_VALUE);
	if (!r->svm_attr_type || !r->svm_attr_value) {
		snprintf(missing, len, "schema row %s: %s elements mark no "
			 "field as %s", d->name, r->svm_attrs->name,
			 kfd_attr_name(r->svm_attr_type ? KFD_ATTR_VALUE :
				       KFD_ATTR_TYPE));
		return -1;
	}
	return 0;
}

int
rp_rows_bind(struct rp_rows *r, const struct kfd_ioctl_desc *all,
	     unsigned int nrows, char *missing, size_t len)
{
	size_t i;

	for (i = 0; i < sizeof(obj_binds) / sizeof(obj_binds[0]); i++)
		if (bind_obj_row(r, &obj_binds[i], all, nrows, missing, len) < 0)
			return -1;
	for (i = 0; i < sizeof(name_binds) / sizeof(name_binds[0]); i++) {
		const struct kfd_ioctl_desc *d =
			row_by_name(all, nrows, name_binds[i].name);

		*RP_BIND_AT(r, name_binds[i].off, const struct kfd_ioctl_desc *) = d;
		if (!d) {
			snprintf(missing, len, "the schema has no row %s",
				 name_binds[i].name);
			return -1;
		}
	}
	for (i = 0; i < sizeof(field_binds) / sizeof(field_binds[0]); i++) {
		const struct kfd_ioctl_desc *d =
			*RP_BIND_AT(r, field_binds[i].row_off,
			       const struct kfd_ioctl_desc *);
		const struct kfd_field *f =
			kfd_schema_attr(d->args, field_binds[i].attr);

		if (!f) {
			snprintf(missing, len, "schema row %s marks no field as %s",
				 d->name, kfd_attr_name(field_binds[i].attr));
			return -1;
		}
		*RP_BIND_AT(r, field_binds[i].off, const struct kfd_field *) = f;
	}
	return bind_svm_attrs(r, missing, len);
}

static void
rows_init(void)
{
	const struct kfd_ioctl_desc *all;
	unsigned int n;

	/* Plans read the fields bound here; on failure plans stays NULL. */
	all = kfd_schema_rows(&n);
	if (rp_rows_bind(&rows, all, n, rows_missing, sizeof(rows_missing)) < 0)
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

/* SPDX-License-Identifier: MIT */
/*
 * The schema rows and fields the replayer gives special treatment, looked
 * up by name once, and every row's plan (plan.c). A row missing from the
 * schema leaves NULL pointers, and every user checks for them: the
 * replayer then treats that ioctl by roles alone.
 */
#include <pthread.h>

#include "replay_priv.h"

static struct rp_rows rows;
static pthread_once_t rows_once = PTHREAD_ONCE_INIT;
static int rows_ready;

static const struct kfd_ioctl_desc *
row(const char *name)
{
	return kfd_schema_by_name(name);
}

static const struct kfd_field *
fld(const struct kfd_ioctl_desc *d, const char *name)
{
	int i;

	if (!d || !d->args)
		return NULL;
	i = kfd_schema_field(d, name);
	return i < 0 ? NULL : &d->args->fields[i];
}

static void
rows_init(void)
{
	struct rp_rows *r = &rows;

	r->get_version = row("GET_VERSION");
	r->acquire_vm = row("ACQUIRE_VM");
	r->alloc = row("ALLOC_MEMORY_OF_GPU");
	r->free_mem = row("FREE_MEMORY_OF_GPU");
	r->map_mem = row("MAP_MEMORY_TO_GPU");
	r->unmap_mem = row("UNMAP_MEMORY_FROM_GPU");
	r->import_dmabuf = row("IMPORT_DMABUF");
	r->export_dmabuf = row("EXPORT_DMABUF");
	r->get_dmabuf_info = row("GET_DMABUF_INFO");
	r->create_queue = row("CREATE_QUEUE");
	r->destroy_queue = row("DESTROY_QUEUE");
	r->create_event = row("CREATE_EVENT");
	r->destroy_event = row("DESTROY_EVENT");
	r->wait_events = row("WAIT_EVENTS");
	r->set_event = row("SET_EVENT");
	r->svm = row("SVM");
	r->create_process = row("CREATE_PROCESS");
	r->smi_events = row("SMI_EVENTS");
	r->apertures = row("GET_PROCESS_APERTURES");
	r->apertures_new = row("GET_PROCESS_APERTURES_NEW");
	r->gem_create = row("AMDGPU_GEM_CREATE");
	r->gem_close = row("DRM_GEM_CLOSE");
	r->gem_mmap = row("AMDGPU_GEM_MMAP");
	r->prime_h2f = row("DRM_PRIME_HANDLE_TO_FD");
	r->prime_f2h = row("DRM_PRIME_FD_TO_HANDLE");
	r->amdgpu_info = row("AMDGPU_INFO");
	r->gem_metadata = row("AMDGPU_GEM_METADATA");
	r->runtime_enable = row("RUNTIME_ENABLE");
	r->ipc_import = row("IPC_IMPORT_HANDLE");
	r->ipc_export = row("IPC_EXPORT_HANDLE");

	r->ver_minor = fld(r->get_version, "minor_version");
	r->acq_fd = fld(r->acquire_vm, "drm_fd");
	r->acq_gpu = fld(r->acquire_vm, "gpu_id");
	r->alloc_va = fld(r->alloc, "va_addr");
	r->alloc_size = fld(r->alloc, "size");
	r->alloc_handle = fld(r->alloc, "handle");
	r->alloc_off = fld(r->alloc, "mmap_offset");
	r->alloc_gpu = fld(r->alloc, "gpu_id");
	r->alloc_flags = fld(r->alloc, "flags");
	r->free_handle = fld(r->free_mem, "handle");
	r->map_handle = fld(r->map_mem, "handle");
	r->unmap_handle = fld(r->unmap_mem, "handle");
	r->imp_va = fld(r->import_dmabuf, "va_addr");
	r->imp_handle = fld(r->import_dmabuf, "handle");
	r->imp_gpu = fld(r->import_dmabuf, "gpu_id");
	r->imp_fd = fld(r->import_dmabuf, "dmabuf_fd");
	r->exp_handle = fld(r->export_dmabuf, "handle");
	r->exp_fd = fld(r->export_dmabuf, "dmabuf_fd");
	r->info_size = fld(r->get_dmabuf_info, "size");
	r->info_gpu = fld(r->get_dmabuf_info, "gpu_id");
	r->info_flags = fld(r->get_dmabuf_info, "flags");
	r->info_fd = fld(r->get_dmabuf_info, "dmabuf_fd");
	r->info_msize = fld(r->get_dmabuf_info, "metadata_size");
	r->cq_ring = fld(r->create_queue, "ring_base_address");
	r->cq_wptr = fld(r->create_queue, "write_pointer_address");
	r->cq_rptr = fld(r->create_queue, "read_pointer_address");
	r->cq_doorbell = fld(r->create_queue, "doorbell_offset");
	r->cq_ring_size = fld(r->create_queue, "ring_size");
	r->cq_gpu = fld(r->create_queue, "gpu_id");
	r->cq_type = fld(r->create_queue, "queue_type");
	r->cq_qid = fld(r->create_queue, "queue_id");
	r->cq_eop = fld(r->create_queue, "eop_buffer_address");
	r->cq_eop_size = fld(r->create_queue, "eop_buffer_size");
	r->cq_ctx = fld(r->create_queue, "ctx_save_restore_address");
	r->cq_ctx_size = fld(r->create_queue, "ctx_save_restore_size");
	r->dq_qid = fld(r->destroy_queue, "queue_id");
	r->ce_page = fld(r->create_event, "event_page_offset");
	r->ce_trigger = fld(r->create_event, "event_trigger_data");
	r->ce_type = fld(r->create_event, "event_type");
	r->ce_auto = fld(r->create_event, "auto_reset");
	r->ce_id = fld(r->create_event, "event_id");
	r->ce_slot = fld(r->create_event, "event_slot_index");
	r->de_id = fld(r->destroy_event, "event_id");
	r->se_id = fld(r->set_event, "event_id");
	r->we_timeout = fld(r->wait_events, "timeout");
	r->we_result = fld(r->wait_events, "wait_result");
	r->we_all = fld(r->wait_events, "wait_for_all");
	r->we_num = fld(r->wait_events, "num_events");
	r->svm_start = fld(r->svm, "start_addr");
	r->svm_size = fld(r->svm, "size");
	r->svm_op = fld(r->svm, "op");
	r->svm_nattr = fld(r->svm, "nattr");
	r->smi_fd = fld(r->smi_events, "anon_fd");
	r->apn_num = fld(r->apertures_new, "num_of_nodes");
	r->ap_num = fld(r->apertures, "num_of_nodes");
	r->gc_size = fld(r->gem_create, "in.bo_size");
	r->gc_domains = fld(r->gem_create, "in.domains");
	r->gc_handle = fld(r->gem_create, "out.handle");
	r->gclose_handle = fld(r->gem_close, "handle");
	r->gmmap_handle = fld(r->gem_mmap, "in.handle");
	r->gmmap_off = fld(r->gem_mmap, "out.addr_ptr");
	r->h2f_handle = fld(r->prime_h2f, "handle");
	r->h2f_fd = fld(r->prime_h2f, "fd");
	r->f2h_handle = fld(r->prime_f2h, "handle");
	r->f2h_fd = fld(r->prime_f2h, "fd");
	r->info_query = fld(r->amdgpu_info, "query");
	r->ipci_share = fld(r->ipc_import, "share_handle");
	r->ipce_share = fld(r->ipc_export, "share_handle");
	/* Plans read the fields above; on failure plans stays NULL. */
	rp_plans_build(r);
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

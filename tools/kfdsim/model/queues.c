/* SPDX-License-Identifier: MIT */
/*
 * User queues and doorbells (kfd_chardev.c, kfd_process_queue_manager.c,
 * kfd_queue.c, kfd_device_queue_manager.c). The model keeps their
 * bookkeeping (ids, doorbells, pinned buffers, activity) exactly so the
 * ioctls answer as the kernel does; AQL queues also execute, on the
 * process's command processor (cp.c), which these ioctls keep informed.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "ksim_priv.h"

#define REF_WPTR	0
#define REF_RPTR	1
#define REF_RING	2
#define REF_EOP		3
#define REF_CWSR	4
#define REF_NONE	UINT64_MAX

/* SOC15 SDMA doorbells: per engine index, then +512 for odd queues. */
#define SDMA_DOORBELL_BASE	0x100
#define SDMA_DOORBELL_STRIDE	0xa
#define DOORBELL_MIRROR		512

int
ksim_queue_count(const struct ksim_process *p)
{
	int n = 0;

	for (unsigned int i = 0; i < p->n_pdds; i++)
		n += (int)p->pdds[i].queue_count;
	return n;
}

static struct ksim_vm *
queue_vm(struct ksim_process *p, int gpu)
{
	struct ksim_file *f = p->pdds[gpu].drm_file;

	return f ? &f->vm : NULL;
}

static void
unref_buffer(struct ksim_vm *vm, uint64_t addr)
{
	struct ksim_mapping *m;

	if (!vm || addr == REF_NONE)
		return;
	m = ksim_vm_find(vm, addr);
	if (m && m->queue_refcount)
		m->queue_refcount--;
}

static void
unref_all(struct ksim_vm *vm, struct ksim_queue *q)
{
	for (unsigned int i = 0; i < KSIM_ARRAY_SIZE(q->ref_va); i++) {
		unref_buffer(vm, q->ref_va[i]);
		q->ref_va[i] = REF_NONE;
	}
}

/*
 * kfd_queue_buffer_get: a GPU mapping must start at the page of @addr and,
 * when @expected spans at least one page, be exactly that long.
 */
static int
buffer_get(struct ksim_vm *vm, uint64_t addr, uint64_t expected,
	   uint64_t *ref)
{
	uint64_t page = addr & ~(KSIM_PAGE_SIZE - 1);
	uint64_t pages = expected / KSIM_PAGE_SIZE;
	struct ksim_mapping *m = ksim_vm_find(vm, page);

	if (!m || m->start != page)
		return -EINVAL;
	if (pages && m->size != pages * KSIM_PAGE_SIZE)
		return -EINVAL;
	m->queue_refcount++;
	*ref = page;
	return 0;
}

/* The CWSR area may instead be an always-mapped SVM range (1.11). */
static int
cwsr_svm_ok(const struct ksim_process *p, int gpu, uint64_t addr,
	    uint64_t size)
{
	for (unsigned int i = 0; i < p->n_svm; i++) {
		const struct ksim_svm_range *r = &p->svm[i];

		if (r->start <= addr && addr + size <= r->start + r->size)
			return (r->flags & KFD_ABI_SVM_FLAG_GPU_ALWAYS_MAPPED) &&
			       ((r->access | r->access_in_place) & (1u << gpu));
	}
	return 0;
}

/* kfd_queue_acquire_buffers (6.12+, emulated from ABI 1.16). */
static int
acquire_buffers(struct ksim_process *p, struct ksim_queue *q)
{
	struct ksim_device *dev = p->dev;
	const struct ksim_gpu_dev *gd = &dev->gpus[q->gpu];
	struct ksim_vm *vm = queue_vm(p, q->gpu);
	uint64_t ring = q->ring_size;
	uint64_t total;
	int r;

	if (!vm)
		return -EINVAL;
	r = buffer_get(vm, q->wptr, KSIM_PAGE_SIZE, &q->ref_va[REF_WPTR]);
	if (!r)
		r = buffer_get(vm, q->rptr, KSIM_PAGE_SIZE, &q->ref_va[REF_RPTR]);
	if (r)
		goto fail;
	/* AQL rings on gfx7/8 are mapped at half size (and have no
	 * metadata ring); elsewhere the metadata ring follows the ring in
	 * the same mapping. */
	if (q->user_type == KFD_ABI_QUEUE_TYPE_COMPUTE_AQL &&
	    gd->n->props[KSIM_NP_GFX_TARGET_VERSION] >= 70000 &&
	    gd->n->props[KSIM_NP_GFX_TARGET_VERSION] < 90000)
		ring /= 2;
	else
		ring += q->metadata_size;
	r = buffer_get(vm, q->ring, ring, &q->ref_va[REF_RING]);
	if (r)
		goto fail;
	if (!q->is_compute)
		return 0;
	if (q->eop) {
		if (q->eop_size != gd->g->eop_buffer_size) {
			r = -EINVAL;
			goto fail;
		}
		r = buffer_get(vm, q->eop, q->eop_size, &q->ref_va[REF_EOP]);
		if (r)
			goto fail;
	}
	if (q->ctl_stack_size != gd->g->ctl_stack_size ||
	    q->ctx_size != gd->g->cwsr_size) {
		r = -EINVAL;
		goto fail;
	}
	total = KSIM_PAGE_ALIGN(((uint64_t)gd->g->cwsr_size + gd->g->debug_memory_size) *
				gd->n->props[KSIM_NP_NUM_XCC]);
	if (!buffer_get(vm, q->ctx, total, &q->ref_va[REF_CWSR]))
		return 0;
	if (cwsr_svm_ok(p, q->gpu, q->ctx, total))
		return 0;
	r = -EINVAL;
fail:
	unref_all(vm, q);
	return r;
}

/*
 * DQM's SDMA slot: a device-wide id (engine = id % engines), shared by
 * every process of the machine (the registry holds the bitmaps).
 */
static int
alloc_sdma(struct ksim_process *p, struct ksim_queue *q, uint32_t eng_req)
{
	const struct ksim_node *n = p->dev->gpus[q->gpu].n;
	uint32_t nsdma = (uint32_t)n->props[KSIM_NP_NUM_SDMA_ENGINES];
	uint32_t nxgmi = (uint32_t)n->props[KSIM_NP_NUM_SDMA_XGMI_ENGINES];
	uint32_t per = (uint32_t)n->props[KSIM_NP_NUM_SDMA_QUEUES_PER_ENGINE];
	int xgmi = q->user_type == KFD_ABI_QUEUE_TYPE_SDMA_XGMI;
	int want = -1;
	uint32_t engines, id;
	int r;

	if (q->user_type == KFD_ABI_QUEUE_TYPE_SDMA_BY_ENG_ID) {
		xgmi = eng_req >= nsdma;
		want = (int)(eng_req - (xgmi ? nsdma : 0));
	}
	engines = xgmi ? nxgmi : nsdma;
	if (!engines)
		return -ENOMEM;
	r = ksim_reg_sdma_alloc(p->dev, q->gpu, xgmi, engines * per, engines,
				want, &id);
	if (r)
		return r;
	q->sdma_id = (int)id + (xgmi ? 64 : 0);
	q->sdma_engine = id % engines + (xgmi ? nsdma : 0);
	q->sdma_queue = id / engines;
	return 0;
}

static void
free_sdma(struct ksim_process *p, struct ksim_queue *q)
{
	if (q->sdma_id < 0)
		return;
	ksim_reg_sdma_free(p->dev, q->gpu, q->sdma_id >= 64,
			   (uint32_t)(q->sdma_id % 64));
	q->sdma_id = -1;
}

static int
alloc_doorbell(struct ksim_process *p, struct ksim_queue *q)
{
	struct ksim_pdd *pdd = &p->pdds[q->gpu];
	int id;

	if (!p->dev->gpus[q->gpu].g->soc15) {
		q->doorbell_id = q->id;
		return 0;
	}
	if (!q->is_compute) {
		q->doorbell_id = SDMA_DOORBELL_BASE +
			q->sdma_engine * SDMA_DOORBELL_STRIDE +
			(q->sdma_queue & 1) * DOORBELL_MIRROR + (q->sdma_queue >> 1);
		return 0;
	}
	id = ksim_bit_first_zero(pdd->doorbell_bitmap, KSIM_MAX_QUEUES);
	if (id < 0)
		return -EBUSY;
	ksim_bit_set(pdd->doorbell_bitmap, (unsigned int)id);
	q->doorbell_id = (uint32_t)id;
	return 0;
}

static int
queue_active(const struct ksim_queue *q)
{
	return q->ring_size && q->ring && q->percentage &&
	       !__atomic_load_n(&q->dbg->suspended, __ATOMIC_ACQUIRE);
}

/* Checks shared by CREATE_QUEUE and UPDATE_QUEUE (set_queue_properties). */
static int
check_ring(struct ksim_device *dev, uint32_t percentage, uint32_t priority,
	   uint64_t ring, uint32_t *ring_size)
{
	if ((percentage & 0xff) > KFD_ABI_MAX_QUEUE_PERCENTAGE)
		return -EINVAL;
	if (priority > KFD_ABI_MAX_QUEUE_PRIORITY)
		return -EINVAL;
	if (ring && !ksim_access_ok(ring, sizeof(uint64_t)))
		return -EFAULT;
	if (*ring_size && (*ring_size & (*ring_size - 1)))
		return -EINVAL;
	if (dev->abi_minor >= 16 && *ring_size < KFD_ABI_MIN_QUEUE_RING_SIZE)
		*ring_size = KFD_ABI_MIN_QUEUE_RING_SIZE;
	return 0;
}

int
ksim_ioc_create_queue(struct ksim_file *f, struct ksim_process *p, void *data,
		      unsigned int usize)
{
	struct kfd_abi_create_queue_args *args = data;
	struct ksim_device *dev = f->dev;
	struct ksim_pdd *pdd;
	struct ksim_queue *q;
	const struct ksim_node *n;
	int r, qid;

	r = check_ring(dev, args->queue_percentage, args->queue_priority,
		       args->ring_base_address, &args->ring_size);
	if (r)
		return r;
	/* 1.22: any queue type; older kernels never read the word. */
	if (dev->abi_minor >= 22 && args->metadata_ring_size &&
	    (args->metadata_ring_size & (args->metadata_ring_size - 1)))
		return -EINVAL;
	if (!ksim_access_ok(args->read_pointer_address, sizeof(uint32_t)) ||
	    !ksim_access_ok(args->write_pointer_address, sizeof(uint32_t)))
		return -EFAULT;
	if (args->eop_buffer_address &&
	    !ksim_access_ok(args->eop_buffer_address, sizeof(uint32_t)))
		return -EFAULT;
	if (args->ctx_save_restore_address &&
	    !ksim_access_ok(args->ctx_save_restore_address, sizeof(uint32_t)))
		return -EFAULT;
	switch (args->queue_type) {
	case KFD_ABI_QUEUE_TYPE_COMPUTE:
	case KFD_ABI_QUEUE_TYPE_COMPUTE_AQL:
	case KFD_ABI_QUEUE_TYPE_SDMA:
	case KFD_ABI_QUEUE_TYPE_SDMA_XGMI:
		break;
	case KFD_ABI_QUEUE_TYPE_SDMA_BY_ENG_ID:
		if (dev->abi_minor >= 17)
			break;
		/* fall through */
	default:
		return -KSIM_ENOTSUPP;
	}
	pdd = ksim_pdd_by_id(p, args->gpu_id);
	if (!pdd)
		return -EINVAL;
	if (ksim_pdd_bind(pdd))
		return -ESRCH;
	n = dev->gpus[pdd->gpu].n;
	if (args->queue_type == KFD_ABI_QUEUE_TYPE_SDMA_BY_ENG_ID &&
	    args->sdma_engine_id >= n->props[KSIM_NP_NUM_SDMA_ENGINES] +
				    n->props[KSIM_NP_NUM_SDMA_XGMI_ENGINES])
		return -EINVAL;
	if (ksim_doorbell_fd(dev, pdd) < 0)
		return -ENOMEM;

	q = calloc(1, sizeof(*q));
	if (!q)
		return -ENOMEM;
	q->dbg = &q->dbg_own;
	for (unsigned int i = 0; i < KSIM_ARRAY_SIZE(q->ref_va); i++)
		q->ref_va[i] = REF_NONE;
	q->gpu = pdd->gpu;
	q->user_type = args->queue_type;
	q->is_compute = args->queue_type == KFD_ABI_QUEUE_TYPE_COMPUTE ||
			args->queue_type == KFD_ABI_QUEUE_TYPE_COMPUTE_AQL;
	q->ring = args->ring_base_address;
	q->ring_size = args->ring_size;
	/* Kept for AQL compute queues only, as the kernel does. */
	if (dev->abi_minor >= 22 &&
	    args->queue_type == KFD_ABI_QUEUE_TYPE_COMPUTE_AQL)
		q->metadata_size = args->metadata_ring_size;
	q->rptr = args->read_pointer_address;
	q->wptr = args->write_pointer_address;
	q->eop = args->eop_buffer_address;
	q->eop_size = args->eop_buffer_size;
	q->ctx = args->ctx_save_restore_address;
	q->ctx_size = args->ctx_save_restore_size;
	q->ctl_stack_size = args->ctl_stack_size;
	q->percentage = args->queue_percentage & 0xff;
	q->priority = args->queue_priority;
	q->sdma_id = -1;
	if (dev->abi_minor >= 16) {
		r = acquire_buffers(p, q);
		if (r) {
			free(q);
			return r;
		}
	} else if (q->ctl_stack_size > (16u << 20)) {
		/* No MQD+control stack that large can be allocated. */
		free(q);
		return -ENOMEM;
	}
	/* pqm_create_queue */
	r = -ENOSPC;
	if (pdd->queue_count >= dev->gpus[pdd->gpu].g->max_queues)
		goto fail;
	r = -ENOMEM;
	qid = ksim_bit_first_zero(p->qid_bitmap, KSIM_MAX_QUEUES);
	if (qid < 0)
		goto fail;
	q->id = (uint32_t)qid;
	if (!q->is_compute) {
		r = alloc_sdma(p, q, args->sdma_engine_id);
		if (r)
			goto fail;
	}
	r = alloc_doorbell(p, q);
	if (r) {
		free_sdma(p, q);
		goto fail;
	}
	/* AQL queues execute on the process's command processor (cp.c). */
	r = ksim_cp_queue_create(p, q);
	if (r) {
		if (q->is_compute && dev->gpus[q->gpu].g->soc15)
			ksim_bit_clear(pdd->doorbell_bitmap, q->doorbell_id);
		free_sdma(p, q);
		goto fail;
	}
	ksim_bit_set(p->qid_bitmap, q->id);
	p->queues[q->id] = q;
	pdd->queue_count++;
	q->dbg = ksim_reg_queue_add(dev->reg, p->reg_slot, q->id, q->gpu,
				    q->user_type, q->ring_size);
	ksim_dbg_queue_new(p, q);
	q->active = queue_active(q);
	args->queue_id = q->id;
	args->doorbell_offset = KFD_ABI_MMAP_OFFSET(KFD_ABI_MMAP_TYPE_DOORBELL,
						    args->gpu_id, 0);
	if (dev->gpus[pdd->gpu].g->soc15)
		args->doorbell_offset |= (uint64_t)q->doorbell_id *
			dev->gpus[pdd->gpu].g->doorbell_size;
	return 0;
fail:
	unref_all(queue_vm(p, q->gpu), q);
	free(q);
	return r;
}

static void
queue_free(struct ksim_process *p, struct ksim_queue *q)
{
	struct ksim_pdd *pdd = &p->pdds[q->gpu];

	/* First: no engine pass may reach the ring once we return. */
	ksim_cp_queue_destroy(p, q);
	unref_all(queue_vm(p, q->gpu), q);
	free_sdma(p, q);
	if (q->is_compute && p->dev->gpus[q->gpu].g->soc15)
		ksim_bit_clear(pdd->doorbell_bitmap, q->doorbell_id);
	if (q->gws)
		pdd->num_gws = 0;
	pdd->queue_count--;
	ksim_reg_queue_del(p->dev->reg, p->reg_slot, q->id);
	ksim_bit_clear(p->qid_bitmap, q->id);
	p->queues[q->id] = NULL;
	free(q);
}

void
ksim_queue_destroy_all(struct ksim_process *p)
{
	ksim_cp_fini(p);
	for (unsigned int i = 0; i < KSIM_MAX_QUEUES; i++)
		if (p->queues[i])
			queue_free(p, p->queues[i]);
}

static struct ksim_queue *
queue_by_id(struct ksim_process *p, uint32_t qid)
{
	return qid < KSIM_MAX_QUEUES ? p->queues[qid] : NULL;
}

int
ksim_ioc_destroy_queue(struct ksim_file *f, struct ksim_process *p,
		       void *data, unsigned int usize)
{
	struct kfd_abi_destroy_queue_args *args = data;
	struct ksim_queue *q = queue_by_id(p, args->queue_id);

	if (!q)
		return -EINVAL;
	queue_free(p, q);
	return 0;
}

int
ksim_ioc_update_queue(struct ksim_file *f, struct ksim_process *p, void *data,
		      unsigned int usize)
{
	struct kfd_abi_update_queue_args *args = data;
	uint32_t ring_size = args->ring_size;
	struct ksim_queue *q;
	int r;

	r = check_ring(f->dev, args->queue_percentage, args->queue_priority,
		       args->ring_base_address, &ring_size);
	if (r)
		return r;
	q = queue_by_id(p, args->queue_id);
	if (!q)
		return -EFAULT;
	if (f->dev->abi_minor >= 16 && args->ring_base_address && ring_size) {
		struct ksim_vm *vm = queue_vm(p, q->gpu);
		uint64_t ref;

		if (!vm || buffer_get(vm, args->ring_base_address, ring_size, &ref))
			return -EFAULT;
		unref_buffer(vm, q->ref_va[REF_RING]);
		q->ref_va[REF_RING] = ref;
	}
	q->ring = args->ring_base_address;
	q->ring_size = ring_size;
	ksim_reg_queue_resize(f->dev->reg, p->reg_slot, q->id, ring_size);
	q->percentage = args->queue_percentage & 0xff;
	q->priority = args->queue_priority;
	ksim_dbg_queue_update(p, q);
	q->active = queue_active(q);
	ksim_cp_queue_update(p, q);
	return 0;
}

int
ksim_ioc_set_cu_mask(struct ksim_file *f, struct ksim_process *p, void *data,
		     unsigned int usize)
{
	struct kfd_abi_set_cu_mask_args *args = data;
	uint32_t mask[32];
	uint32_t bits = args->num_cu_mask;
	struct ksim_queue *q;

	if (bits == 0 || bits % 32)
		return -EINVAL;
	if (bits > 1024)
		bits = 1024;	/* extra bits are dropped */
	if (ksim_copy_from_user(mask, args->cu_mask_ptr, bits / 8))
		return -EFAULT;
	q = queue_by_id(p, args->queue_id);
	if (!q)
		return -EFAULT;
	/* WGP parts: CUs are enabled in pairs. */
	if (f->dev->gpus[q->gpu].n->props[KSIM_NP_GFX_TARGET_VERSION] >= 100000) {
		for (uint32_t i = 0; i < bits; i += 2) {
			uint32_t pair = (mask[i / 32] >> (i % 32)) & 3;

			if (pair && pair != 3)
				return -EINVAL;
		}
	}
	/* Kept in the queue (the kernel's mqd_update_info), across
	 * UPDATE_QUEUE, until the next SET_CU_MASK. */
	memset(q->cu_mask, 0, sizeof(q->cu_mask));
	memcpy(q->cu_mask, mask, bits / 8);
	q->cu_mask_count = bits;
	ksim_cp_queue_note(p, q);
	return 0;
}

unsigned int
ksim_queue_cus(const struct ksim_device *dev, const struct ksim_queue *q)
{
	const struct ksim_node *n = dev->gpus[q->gpu].n;
	uint64_t per = n->props[KSIM_NP_SIMD_PER_CU];
	unsigned int cus = per ? (unsigned int)(n->props[KSIM_NP_SIMD_COUNT] / per) : 0;
	unsigned int on = 0;

	if (!q->cu_mask_count)
		return cus;
	for (unsigned int i = 0; i < cus && i < q->cu_mask_count; i++)
		on += (q->cu_mask[i / 32] >> (i % 32)) & 1;
	return on;
}

int
ksim_ioc_get_queue_wave_state(struct ksim_file *f, struct ksim_process *p,
			      void *data, unsigned int usize)
{
	struct kfd_abi_get_queue_wave_state_args *args = data;
	struct ksim_queue *q = queue_by_id(p, args->queue_id);
	static const char zeros[4096];
	uint64_t left;

	if (!q)
		return -EFAULT;
	if (!q->is_compute || queue_active(q))
		return -EINVAL;
	/* A queue that never ran has an empty control stack and save area. */
	args->ctl_stack_used_size = 0;
	args->save_area_used_size = 0;
	for (left = q->ctl_stack_size; left; ) {
		uint64_t n = left > sizeof(zeros) ? sizeof(zeros) : left;

		if (ksim_copy_to_user(args->ctl_stack_address +
				      (q->ctl_stack_size - left), zeros, n))
			return -EFAULT;
		left -= n;
	}
	return 0;
}

int
ksim_ioc_alloc_queue_gws(struct ksim_file *f, struct ksim_process *p,
			 void *data, unsigned int usize)
{
	struct kfd_abi_alloc_queue_gws_args *args = data;
	struct ksim_queue *q = queue_by_id(p, args->queue_id);
	const struct ksim_gpu *g;
	struct ksim_pdd *pdd;
	int r = 0;

	if (!q)
		return -EINVAL;
	g = f->dev->gpus[q->gpu].g;
	if (!g->num_gws || g->sched_policy == 2)
		return -ENODEV;
	pdd = &p->pdds[q->gpu];
	if (args->num_gws && pdd->num_gws)
		r = -EBUSY;
	else if (!args->num_gws && !pdd->num_gws)
		r = -EINVAL;
	else {
		pdd->num_gws = args->num_gws ? g->num_gws : 0;
		q->gws = args->num_gws != 0;
		memset(pdd->gws_value, 0, sizeof(pdd->gws_value));
		memset(pdd->gws_arrived, 0, sizeof(pdd->gws_arrived));
		memset(pdd->gws_gen, 0, sizeof(pdd->gws_gen));
	}
	args->first_gws = 0;
	return r;
}

/* SPDX-License-Identifier: MIT */
/*
 * KFD processes (kfd_process.c): created at the first open of /dev/kfd with
 * one per-device entry (pdd) for every GPU, torn down when the process goes
 * away (here: device destruction, or a fork child dropping its parent's
 * copy).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ksim_priv.h"

/* SOC15 doorbell layout: the SDMA/IH/VCN range every process reserves,
 * mirrored at +512 (first_non_cp..last_non_cp of the Vega20 layout). */
#define KSIM_NON_CP_FIRST	0x100
#define KSIM_NON_CP_LAST	0x18f
#define KSIM_DOORBELL_MIRROR	512

static void
pdd_init(struct ksim_device *dev, struct ksim_pdd *pdd, int gpu)
{
	memset(pdd, 0, sizeof(*pdd));
	pdd->gpu = gpu;
	pdd->gpu_id = dev->gpus[gpu].gpu_id;
	pdd->doorbell_fd = -1;
	pdd->mmio_fd = -1;
	if (dev->gpus[gpu].g->soc15) {
		for (unsigned int i = KSIM_NON_CP_FIRST; i <= KSIM_NON_CP_LAST; i++) {
			ksim_bit_set(pdd->doorbell_bitmap, i);
			ksim_bit_set(pdd->doorbell_bitmap, i + KSIM_DOORBELL_MIRROR);
		}
	}
}

/* The XNACK mode every GPU of the process accepts (kfd_process_xnack_mode). */
static int
xnack_default(struct ksim_device *dev)
{
	for (unsigned int i = 0; i < dev->n_gpus; i++)
		if (!dev->gpus[i].g->xnack_default)
			return 0;
	return dev->n_gpus > 0;
}

struct ksim_process *
ksim_process_create(struct ksim_device *dev, int *err)
{
	struct ksim_process *p = calloc(1, sizeof(*p));
	pthread_condattr_t ca;

	if (!p) {
		*err = -ENOMEM;
		return NULL;
	}
	p->dev = dev;
	p->pid = ksim_self_pid();
	p->signal_fd = -1;
	p->n_pdds = dev->n_gpus;
	for (unsigned int i = 0; i < dev->n_gpus; i++)
		pdd_init(dev, &p->pdds[i], (int)i);
	if (ksim_events_init(p)) {
		free(p);
		*err = -ENOMEM;
		return NULL;
	}
	/* Only a process the machine tracks may charge memory: the charges
	 * of one that dies are given back through its slot. No free slot:
	 * the open fails as kfd_create_process() does when it runs out. */
	p->reg_slot = ksim_reg_proc_slot(dev->reg, p->pid, "open of /dev/kfd");
	if (p->reg_slot < 0) {
		*err = p->reg_slot;
		ksim_events_fini(p);
		free(p);
		return NULL;
	}
	p->pasid = ksim_reg_pasid(dev->reg);
	ksim_reg_proc_set_pasid(dev->reg, p->reg_slot, p->pasid);
	p->xnack_enabled = xnack_default(dev);
	ksim_dbg_process_init(p);
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_init(&p->event_cond, &ca);
	pthread_condattr_destroy(&ca);
	p->next = dev->procs;
	dev->procs = p;
	return p;
}

struct ksim_pdd *
ksim_pdd_by_id(struct ksim_process *p, uint32_t gpu_id)
{
	if (!gpu_id)
		return NULL;
	for (unsigned int i = 0; i < p->n_pdds; i++)
		if (p->pdds[i].gpu_id == gpu_id)
			return &p->pdds[i];
	return NULL;
}

/* kfd_bind_process_to_device: a VM must have been acquired. */
int
ksim_pdd_bind(struct ksim_pdd *pdd)
{
	return pdd->drm_file ? 0 : -ENODEV;
}

void
ksim_process_destroy(struct ksim_process *p, int release_shared)
{
	struct ksim_device *dev = p->dev;

	ksim_queue_destroy_all(p);
	ksim_events_fini(p);
	ksim_profiler_release(p);
	for (unsigned int i = 0; i < p->n_pdds; i++) {
		struct ksim_pdd *pdd = &p->pdds[i];

		/* Not for a parent's copy a forked child drops: the parent
		 * still runs, and shares the subscribers' sockets. */
		if (pdd->drm_file && release_shared)
			ksim_smi_process_event(p, pdd->gpu, 0);
		for (unsigned int h = 0; h < pdd->idr_cap; h++)
			if (pdd->idr[h])
				ksim_kmem_destroy(p, pdd, h);
		free(pdd->idr);
		free(pdd->idr_used);
		free(pdd->idr_full);
		ksim_sys_close(pdd->doorbell_fd);
		ksim_sys_close(pdd->mmio_fd);
		if (pdd->drm_file) {
			pdd->drm_file->vm.kfd_proc = NULL;
			ksim_file_put(pdd->drm_file);
			/* later pdds' kmems walk every pdd's VM (H5 fix) */
			pdd->drm_file = NULL;
		}
	}
	if (p->signal_bo)
		ksim_bo_put(dev, p->signal_bo);
	for (unsigned int i = 0; i < p->n_smi; i++)
		ksim_sys_close(p->smi[i].fd);
	free(p->smi);
	free(p->svm);
	ksim_xmem_fini(p);
	if (release_shared)
		ksim_pcs_release(p);
	/* A secondary context shares its pid's slot with the primary. */
	if (release_shared && !p->secondary) {
		ksim_dbg_process_end(p);
		ksim_reg_proc_release(dev->reg, p->reg_slot);
	}
	for (struct ksim_process **pp = &dev->procs; *pp; pp = &(*pp)->next) {
		if (*pp == p) {
			*pp = p->next;
			break;
		}
	}
	for (struct ksim_file *f = dev->files; f; f = f->next)
		if (f->proc == p)
			f->proc = NULL;
	pthread_cond_destroy(&p->event_cond);
	free(p);
}

/* SPDX-License-Identifier: MIT */
/*
 * Per-device settings and small KFD ioctls: version, clocks, apertures,
 * cache policy, scratch, tiles, trap handler, available memory, XNACK,
 * the deprecated debugger, CRIU and CREATE_PROCESS.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "ksim_priv.h"

int
ksim_ioc_get_version(struct ksim_file *f, struct ksim_process *p, void *data,
		     unsigned int usize)
{
	struct kfd_abi_get_version_args *args = data;

	args->major_version = KFD_ABI_MAJOR_VERSION;
	args->minor_version = f->dev->abi_minor;
	return 0;
}

int
ksim_ioc_set_memory_policy(struct ksim_file *f, struct ksim_process *p,
			   void *data, unsigned int usize)
{
	struct kfd_abi_set_memory_policy_args *args = data;
	struct ksim_pdd *pdd;

	if (args->default_policy != KFD_ABI_CACHE_POLICY_COHERENT &&
	    args->default_policy != KFD_ABI_CACHE_POLICY_NONCOHERENT)
		return -EINVAL;
	if (args->alternate_policy != KFD_ABI_CACHE_POLICY_COHERENT &&
	    args->alternate_policy != KFD_ABI_CACHE_POLICY_NONCOHERENT)
		return -EINVAL;
	pdd = ksim_pdd_by_id(p, args->gpu_id);
	if (!pdd)
		return -EINVAL;
	if (ksim_pdd_bind(pdd))
		return -ESRCH;
	/* set_cache_memory_policy_v9 accepts any aperture */
	pdd->default_policy = args->default_policy;
	pdd->alternate_policy = args->alternate_policy;
	pdd->ape1_base = args->alternate_aperture_base;
	pdd->ape1_size = args->alternate_aperture_size;
	if (f->dev->abi_minor >= 18)
		pdd->misc_process_flag = args->misc_process_flag;
	return 0;
}

static uint64_t
clock_ns(clockid_t id)
{
	struct timespec ts;

	clock_gettime(id, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

int
ksim_ioc_get_clock_counters(struct ksim_file *f, struct ksim_process *p,
			    void *data, unsigned int usize)
{
	struct kfd_abi_get_clock_counters_args *args = data;
	struct ksim_pdd *pdd = ksim_pdd_by_id(p, args->gpu_id);
	uint64_t raw = clock_ns(CLOCK_MONOTONIC_RAW);

	/* The GPU counter ticks at the profile's rate from the same
	 * timebase, so it advances consistently with the CPU counter. */
	if (pdd) {
		uint64_t hz = f->dev->gpus[pdd->gpu].g->gpu_clock_hz;

		/* raw * hz / 1e9 without a 128-bit division (a libgcc call
		 * dearer than the rest of the ioctl) while hz < 2^34 */
		if (hz < (1ULL << 34))
			args->gpu_clock_counter = raw / 1000000000ULL * hz +
				raw % 1000000000ULL * hz / 1000000000ULL;
		else
			args->gpu_clock_counter =
				(uint64_t)((unsigned __int128)raw * hz / 1000000000ULL);
	} else {
		args->gpu_clock_counter = 0;
	}
	args->cpu_clock_counter = raw;
	args->system_clock_counter = clock_ns(CLOCK_BOOTTIME);
	args->system_clock_freq = 1000000000ULL;
	return 0;
}

static void
fill_apertures(struct ksim_device *dev, const struct ksim_pdd *pdd,
	       struct kfd_abi_process_device_apertures *a)
{
	const struct ksim_apertures *ap = &dev->gpus[pdd->gpu].g->apertures;

	memset(a, 0, sizeof(*a));
	a->gpu_id = pdd->gpu_id;
	a->lds_base = ap->lds_base;
	a->lds_limit = ap->lds_limit;
	a->scratch_base = ap->scratch_base;
	a->scratch_limit = ap->scratch_limit;
	a->gpuvm_base = ap->gpuvm_base;
	a->gpuvm_limit = ap->gpuvm_limit;
}

int
ksim_ioc_get_process_apertures(struct ksim_file *f, struct ksim_process *p,
			       void *data, unsigned int usize)
{
	struct kfd_abi_get_process_apertures_args *args = data;

	args->num_of_nodes = 0;
	for (unsigned int i = 0; i < p->n_pdds; i++) {
		fill_apertures(f->dev, &p->pdds[i],
			       &args->process_apertures[args->num_of_nodes]);
		if (++args->num_of_nodes >= KFD_ABI_NUM_OF_SUPPORTED_GPUS)
			break;
	}
	return 0;
}

int
ksim_ioc_get_process_apertures_new(struct ksim_file *f, struct ksim_process *p,
				   void *data, unsigned int usize)
{
	struct kfd_abi_get_process_apertures_new_args *args = data;
	struct kfd_abi_process_device_apertures *pa;
	unsigned int i, n;
	int r;

	if (args->num_of_nodes == 0) {
		args->num_of_nodes = p->n_pdds;
		return 0;
	}
	if ((uint64_t)args->num_of_nodes * sizeof(*pa) > KSIM_KMALLOC_MAX)
		return -ENOMEM;
	if (!p->n_pdds) {
		args->num_of_nodes = 0;
		return 0;
	}
	n = p->n_pdds < args->num_of_nodes ? p->n_pdds : args->num_of_nodes;
	pa = calloc(n, sizeof(*pa));
	if (!pa)
		return -ENOMEM;
	for (i = 0; i < n; i++)
		fill_apertures(f->dev, &p->pdds[i], &pa[i]);
	args->num_of_nodes = i;
	r = ksim_copy_to_user(args->kfd_process_device_apertures_ptr, pa,
			      n * sizeof(*pa));
	free(pa);
	return r ? -EFAULT : 0;
}

int
ksim_ioc_set_scratch_backing_va(struct ksim_file *f, struct ksim_process *p,
				void *data, unsigned int usize)
{
	struct kfd_abi_set_scratch_backing_va_args *args = data;
	struct ksim_pdd *pdd = ksim_pdd_by_id(p, args->gpu_id);
	int r;

	if (!pdd)
		return -EINVAL;
	r = ksim_pdd_bind(pdd);
	if (r)
		return r;
	pdd->scratch_va = args->va_addr;
	return 0;
}

int
ksim_ioc_get_tile_config(struct ksim_file *f, struct ksim_process *p,
			 void *data, unsigned int usize)
{
	struct kfd_abi_get_tile_config_args *args = data;
	struct ksim_pdd *pdd = ksim_pdd_by_id(p, args->gpu_id);
	const struct ksim_gpu *g;
	static const uint32_t zeros[64];

	if (!pdd)
		return -EINVAL;
	g = f->dev->gpus[pdd->gpu].g;
	args->gb_addr_config = g->gb_addr_config;
	args->num_banks = g->num_banks;
	args->num_ranks = g->num_ranks;
	/* gfx9+ tile tables are all zeros */
	if (args->num_tile_configs > g->num_tile_configs)
		args->num_tile_configs = g->num_tile_configs;
	if (args->num_tile_configs > 64)
		args->num_tile_configs = 64;
	if (ksim_copy_to_user(args->tile_config_ptr, zeros,
			      args->num_tile_configs * sizeof(uint32_t))) {
		args->num_tile_configs = 0;
		return -EFAULT;
	}
	if (args->num_macro_tile_configs > g->num_macro_tile_configs)
		args->num_macro_tile_configs = g->num_macro_tile_configs;
	if (args->num_macro_tile_configs > 64)
		args->num_macro_tile_configs = 64;
	if (ksim_copy_to_user(args->macro_tile_config_ptr, zeros,
			      args->num_macro_tile_configs * sizeof(uint32_t))) {
		args->num_macro_tile_configs = 0;
		return -EFAULT;
	}
	return 0;
}

int
ksim_ioc_set_trap_handler(struct ksim_file *f, struct ksim_process *p,
			  void *data, unsigned int usize)
{
	struct kfd_abi_set_trap_handler_args *args = data;
	struct ksim_pdd *pdd = ksim_pdd_by_id(p, args->gpu_id);

	if (!pdd)
		return -EINVAL;
	if (ksim_pdd_bind(pdd))
		return -ESRCH;
	pdd->tba = args->tba_addr;
	pdd->tma = args->tma_addr;
	return 0;
}

int
ksim_ioc_available_memory(struct ksim_file *f, struct ksim_process *p,
			  void *data, unsigned int usize)
{
	struct kfd_abi_get_available_memory_args *args = data;
	struct ksim_pdd *pdd = ksim_pdd_by_id(p, args->gpu_id);
	const struct ksim_gpu *g;
	uint64_t aligned = 0, used;

	if (!pdd)
		return -EINVAL;
	g = f->dev->gpus[pdd->gpu].g;
	ksim_reg_usage(f->dev, pdd->gpu, NULL, &aligned, NULL, NULL);
	used = aligned + g->vram_reserved;
	args->available = used < g->vram_size ?
		(g->vram_size - used) & ~(KSIM_VRAM_ALIGN - 1) : 0;
	return 0;
}

/* DBG_REGISTER/UNREGISTER/ADDRESS_WATCH/WAVE_CONTROL (*_DEPRECATED). */
int
ksim_ioc_dbg_deprecated(struct ksim_file *f, struct ksim_process *p,
			void *data, unsigned int usize)
{
	return -EPERM;
}

int
ksim_ioc_set_xnack_mode(struct ksim_file *f, struct ksim_process *p, void *data,
			unsigned int usize)
{
	struct kfd_abi_set_xnack_mode_args *args = data;
	struct ksim_device *dev = f->dev;

	if (dev->flags & KSIM_OPT_NO_SVM)
		return -EPERM;
	if (args->xnack_enabled < 0) {
		args->xnack_enabled = p->xnack_enabled;
		return 0;
	}
	if (ksim_queue_count(p))
		return -EBUSY;
	if (p->xnack_enabled == args->xnack_enabled)
		return 0;
	if (args->xnack_enabled) {
		/* kfd_process_xnack_mode(p, true) */
		for (unsigned int i = 0; i < p->n_pdds; i++) {
			const struct ksim_gpu *g = dev->gpus[p->pdds[i].gpu].g;

			if (!g->xnack_capable && !g->xnack_default)
				return -EPERM;
		}
	}
	p->xnack_enabled = args->xnack_enabled != 0;
	return 0;
}

/* Private-data layout sizes of a CRIU checkpoint (kfd_criu_*_priv_data). */
#define CRIU_PRIV_PROCESS	8
#define CRIU_PRIV_DEVICE	4
#define CRIU_PRIV_BO		272
#define CRIU_PRIV_QUEUE		(64 + 2048)
#define CRIU_PRIV_EVENT		64
#define CRIU_PRIV_SVM		(40 + 8 * 8)
#define CRIU_PRIV_VERSION	1

struct criu_counts {
	uint32_t devices, bos, objects;
	uint64_t priv;
};

static void
criu_count(struct ksim_process *p, struct criu_counts *c)
{
	uint64_t qpriv = 0;
	uint32_t queues = 0, events = 0;

	memset(c, 0, sizeof(*c));
	c->devices = p->n_pdds;
	for (unsigned int i = 0; i < p->n_pdds; i++) {
		const struct ksim_pdd *pdd = &p->pdds[i];
		uint64_t base = p->dev->gpus[pdd->gpu].g->apertures.gpuvm_base;

		for (unsigned int h = 0; h < pdd->idr_cap; h++)
			if (pdd->idr[h] && (!pdd->idr[h]->va || pdd->idr[h]->va > base))
				c->bos++;
	}
	for (unsigned int q = 0; q < KSIM_MAX_QUEUES; q++) {
		if (!p->queues[q])
			continue;
		queues++;
		qpriv += CRIU_PRIV_QUEUE + p->queues[q]->ctl_stack_size;
	}
	for (unsigned int e = 1; e < KFD_ABI_SIGNAL_EVENT_LIMIT; e++)
		if (p->sig_events[e])
			events++;
	events += p->n_nsev;
	c->objects = queues + events + p->n_svm;
	c->priv = CRIU_PRIV_PROCESS + (uint64_t)c->devices * CRIU_PRIV_DEVICE +
		  (uint64_t)c->bos * CRIU_PRIV_BO + qpriv +
		  (uint64_t)events * CRIU_PRIV_EVENT +
		  (uint64_t)p->n_svm * CRIU_PRIV_SVM;
}

static int
criu_checkpoint(struct ksim_device *dev, struct ksim_process *p,
		struct kfd_abi_criu_args *args)
{
	struct criu_counts c;
	uint32_t hdr[2];
	uint32_t b = 0;

	if (!args->devices || !args->bos || !args->priv_data)
		return -EINVAL;
	if (!p->n_pdds)
		return -ENODEV;
	if (!p->queues_paused)
		return -EINVAL;
	criu_count(p, &c);
	if (c.devices != args->num_devices || c.bos != args->num_bos ||
	    c.objects != args->num_objects || c.priv != args->priv_data_size)
		return -EINVAL;
	hdr[0] = CRIU_PRIV_VERSION;
	hdr[1] = (uint32_t)p->xnack_enabled;
	if (ksim_copy_to_user(args->priv_data, hdr, sizeof(hdr)))
		return -EFAULT;
	for (uint32_t i = 0; i < c.devices; i++) {
		struct kfd_abi_criu_device_bucket db = {
			.user_gpu_id = p->pdds[i].gpu_id,
			.actual_gpu_id = p->pdds[i].gpu_id,
			.drm_fd = KFD_ABI_INVALID_FD,
		};

		if (ksim_copy_to_user(args->devices + i * sizeof(db), &db,
				      sizeof(db)))
			return -EFAULT;
	}
	for (unsigned int i = 0; i < p->n_pdds; i++) {
		struct ksim_pdd *pdd = &p->pdds[i];
		uint64_t base = dev->gpus[pdd->gpu].g->apertures.gpuvm_base;

		for (unsigned int h = 0; h < pdd->idr_cap && b < c.bos; h++) {
			struct ksim_kmem *m = pdd->idr[h];
			struct kfd_abi_criu_bo_bucket bb;
			int err = 0;

			if (!m || (m->va && m->va <= base))
				continue;
			memset(&bb, 0, sizeof(bb));
			bb.addr = m->va;
			bb.size = m->bo->size;
			bb.gpu_id = pdd->gpu_id;
			bb.alloc_flags = m->alloc_flags;
			bb.offset = m->bo->fake_offset;
			bb.dmabuf_fd = KFD_ABI_INVALID_FD;
			if (m->bo->domain == KSIM_DOM_VRAM ||
			    m->bo->domain == KSIM_DOM_GTT) {
				int fd = ksim_dmabuf_export_fd(dev, m->bo, 1, &err);

				if (fd >= 0)
					bb.dmabuf_fd = (uint32_t)fd;
			}
			if (ksim_copy_to_user(args->bos + b * sizeof(bb), &bb,
					      sizeof(bb)))
				return -EFAULT;
			b++;
		}
	}
	return 0;
}

int
ksim_ioc_criu_op(struct ksim_file *f, struct ksim_process *p, void *data,
		 unsigned int usize)
{
	struct kfd_abi_criu_args *args = data;
	struct criu_counts c;
	uint32_t hdr[2];

	switch (args->op) {
	case KFD_ABI_CRIU_OP_PROCESS_INFO:
		if (!p->n_pdds)
			return -ENODEV;
		/* kfd_process_evict_queues */
		p->queues_paused = 1;
		args->pid = (uint32_t)p->pid;
		criu_count(p, &c);
		args->num_devices = c.devices;
		args->num_bos = c.bos;
		args->num_objects = c.objects;
		args->priv_data_size = c.priv;
		return 0;
	case KFD_ABI_CRIU_OP_CHECKPOINT:
		return criu_checkpoint(f->dev, p, args);
	case KFD_ABI_CRIU_OP_UNPAUSE:
		if (!p->queues_paused)
			return -EINVAL;
		p->queues_paused = 0;
		return 0;
	case KFD_ABI_CRIU_OP_RESTORE:
		if (!args->devices || !args->bos || !args->priv_data)
			return -EINVAL;
		if (args->priv_data_size < sizeof(hdr) ||
		    ksim_copy_from_user(hdr, args->priv_data, sizeof(hdr)))
			return -EINVAL;
		/* The model restores no state into a live process: a
		 * checkpoint from elsewhere is not something it can trust. */
		return -EINVAL;
	case KFD_ABI_CRIU_OP_RESUME:
		return args->pid == (uint32_t)p->pid ? 0 : -ESRCH;
	default:
		return -EINVAL;
	}
}

int
ksim_ioc_create_process(struct ksim_file *f, struct ksim_process *p,
			void *data, unsigned int usize)
{
	struct ksim_process *np;
	int err = 0;

	/* Only the primary process's fd can become a secondary context. */
	if (p->secondary)
		return -EINVAL;
	np = ksim_process_create(f->dev, &err);
	if (!np)
		return err;
	np->secondary = 1;
	np->refs = 1;
	p->refs--;
	f->proc = np;
	return 0;
}

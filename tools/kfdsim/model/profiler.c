/* SPDX-License-Identifier: MIT */
/*
 * 0x28 PROFILER (ABI 1.23): VERSION, PMC (the GPU's profiler lock and its
 * queues' perf counters) and PTL_CONTROL (requests to keep the peak-TOPS
 * limiter off), with the kernel's per-process state and errnos.
 *
 * The profiler lock is per GPU of this simulated machine's process view:
 * a holder in another process is not seen (no EBUSY across processes).
 * No profile's GPU reports PTL hardware, so turning PTL off fails with
 * EOPNOTSUPP as on a kernel whose GPU lacks it.
 */
#include <errno.h>
#include <linux/capability.h>

#include "ksim_priv.h"

#ifndef CAP_PERFMON
#define CAP_PERFMON	38
#endif

/* kfd_ptl_control(): no modelled GPU has PTL hardware. */
static int
ptl_control(struct ksim_gpu_dev *gd, int enable)
{
	(void)gd;
	(void)enable;
	return -EOPNOTSUPP;
}

/* A process asks PTL off: the first request turns it off. */
static int
ptl_disable_request(struct ksim_gpu_dev *gd, struct ksim_pdd *pdd)
{
	int r;

	if (pdd->ptl_disable_req)
		return 0;
	if (++gd->ptl_disable_ref == 1) {
		r = ptl_control(gd, 0);
		if (r) {
			gd->ptl_disable_ref--;
			return r;
		}
	}
	pdd->ptl_disable_req = 1;
	return 0;
}

/* A process drops its request: the last one turns PTL back on. */
static int
ptl_disable_release(struct ksim_gpu_dev *gd, struct ksim_pdd *pdd)
{
	int r;

	if (!pdd->ptl_disable_req)
		return 0;
	if (--gd->ptl_disable_ref == 0) {
		r = ptl_control(gd, 1);
		if (r) {
			gd->ptl_disable_ref++;
			return r;
		}
	}
	pdd->ptl_disable_req = 0;
	return 0;
}

/* profile_lock_device(): lock 1 takes the lock, 0 drops one held. */
static int
lock_device(struct ksim_process *p, struct ksim_pdd *pdd, uint32_t lock)
{
	struct ksim_gpu_dev *gd = &p->dev->gpus[pdd->gpu];

	if (lock == 1) {
		if (gd->profiler == p)
			return -EALREADY;
		if (gd->profiler)
			return -EBUSY;
		gd->profiler = p;
		/* Its failure does not fail the lock. */
		(void)ptl_disable_request(gd, pdd);
		return 0;
	}
	if (lock == 0 && gd->profiler == p) {
		gd->profiler = NULL;
		(void)ptl_disable_release(gd, pdd);
		return 0;
	}
	return -EINVAL;
}

static int
profiler_pmc(struct ksim_process *p, struct kfd_abi_pmc_settings *a)
{
	struct ksim_pdd *pdd;
	int r;

	if (!ksim_capable(CAP_PERFMON) && !ksim_capable(CAP_SYS_ADMIN))
		return -EPERM;
	pdd = ksim_pdd_by_id(p, a->gpu_id);
	if (!pdd)
		return -EINVAL;
	r = lock_device(p, pdd, a->lock);
	if (r)
		return r;
	/* Every queue of the GPU, any process's, counts or stops counting. */
	p->dev->gpus[pdd->gpu].perfcount = a->perfcount_enable == 1;
	return 0;
}

static int
profiler_ptl(struct ksim_process *p, struct kfd_abi_ptl_control *a)
{
	struct ksim_pdd *pdd = ksim_pdd_by_id(p, a->gpu_id);
	struct ksim_gpu_dev *gd;

	if (!pdd)
		return -EINVAL;
	gd = &p->dev->gpus[pdd->gpu];
	return a->enable ? ptl_disable_release(gd, pdd) :
			   ptl_disable_request(gd, pdd);
}

int
ksim_ioc_profiler(struct ksim_file *f, struct ksim_process *p, void *data,
		  unsigned int usize)
{
	struct kfd_abi_profiler_1_23_args *args = data;

	(void)f;
	(void)usize;
	switch (args->op) {
	case KFD_ABI_PROFILER_VERSION:
		args->version = KFD_ABI_PROFILER_VERSION_NUM;
		return 0;
	case KFD_ABI_PROFILER_PMC:
		return profiler_pmc(p, &args->pmc);
	case KFD_ABI_PROFILER_PTL_CONTROL:
		return profiler_ptl(p, &args->ptl);
	default:
		return -EINVAL;
	}
}

void
ksim_profiler_release(struct ksim_process *p)
{
	for (unsigned int i = 0; i < p->n_pdds; i++) {
		struct ksim_pdd *pdd = &p->pdds[i];
		struct ksim_gpu_dev *gd = &p->dev->gpus[pdd->gpu];

		if (gd->profiler == p) {
			gd->perfcount = 0;
			gd->profiler = NULL;
		}
		(void)ptl_disable_release(gd, pdd);
	}
}

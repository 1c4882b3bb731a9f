/* SPDX-License-Identifier: MIT */
/*
 * The live state of the simulated machine that sysfs shows: what amdgpu's
 * mem_info_* files count for every process together, and the
 * /sys/class/kfd/kfd/proc/<pid>/ directory of each process that has
 * /dev/kfd open. The shim renders those files from these queries when they
 * are opened, so a monitoring tool (rocm-smi) sees the other processes of
 * the same machine (KFDSIM_MACHINE) allocate, create queues and exit.
 *
 * Every function takes the machine registry's lock for a moment and reads
 * a consistent snapshot; none blocks on another process otherwise.
 */
#ifndef KSIM_SYSFS_H
#define KSIM_SYSFS_H

#include <stdint.h>
#include <sys/types.h>

#ifdef __cplusplus
extern "C" {
#endif

struct ksim_device;

/* The most GPUs and listed queues per process these queries report. */
#define KSIM_SYSFS_GPUS		16
#define KSIM_SYSFS_QUEUES	64

/* Memory in use on one GPU, by every process of the machine. */
struct ksim_sysfs_mem {
	uint64_t vram_used;	/* VRAM placed: KFD and GEM BOs (mem_info_vram_used) */
	uint64_t gtt_used;	/* GTT pages of the machine (mem_info_gtt_used) */
};

/*
 * ksim_sysfs_mem_usage() - machine-wide memory use as amdgpu counts it.
 * @gpu:	the GPU's index (GPU nodes in profile order)
 *
 * Processes that died without cleaning up no longer count, as process
 * exit frees their memory in the kernel.
 *
 * Return: 0, or -EINVAL for a GPU index the device does not have.
 */
int ksim_sysfs_mem_usage(struct ksim_device *dev, unsigned int gpu,
			 struct ksim_sysfs_mem *out);

/* A user queue: proc/<pid>/queues/<id>/{gpuid,size,type}. */
struct ksim_sysfs_queue {
	uint32_t id;
	uint32_t gpu;		/* GPU index */
	uint32_t type;		/* the kernel's enum kfd_queue_type: 0 compute,
				 * 1 SDMA, 4 SDMA xGMI, 5 SDMA by engine id */
	uint64_t size;		/* ring size in bytes */
};

/* One KFD process of the machine. */
struct ksim_sysfs_proc {
	pid_t pid;
	uint32_t pasid;
	unsigned int n_gpus;
	uint64_t vram[KSIM_SYSFS_GPUS];	/* page-aligned KFD VRAM allocations */
	/* stats_<gpu_id>/evicted_ms: how long system suspends evicted its
	 * queues on each GPU since it acquired the GPU's VM */
	uint64_t evicted_ms[KSIM_SYSFS_GPUS];
	unsigned int n_queues;		/* listed (the first KSIM_SYSFS_QUEUES) */
	struct ksim_sysfs_queue queues[KSIM_SYSFS_QUEUES];	/* ascending id */
};

/*
 * ksim_sysfs_procs() - the live processes of the machine that have a KFD
 * process (opened /dev/kfd), ascending by pid.
 * @pids:	receives up to @max pids
 *
 * Return: the number of such processes (may exceed @max).
 */
int ksim_sysfs_procs(struct ksim_device *dev, pid_t *pids, unsigned int max);

/*
 * ksim_sysfs_proc() - what proc/<pid>/ shows of one process.
 *
 * Return: 0, or -ENOENT when @pid has no live KFD process on the machine.
 */
int ksim_sysfs_proc(struct ksim_device *dev, pid_t pid, struct ksim_sysfs_proc *out);

#ifdef __cplusplus
}
#endif

#endif /* KSIM_SYSFS_H */

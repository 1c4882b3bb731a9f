/* SPDX-License-Identifier: MIT */
/*
 * Layout of the machine registry (registry.c): one fixed-size structure
 * that lives in /dev/shm/kfdsim-<machine> (or private memory), shared by
 * every process of the simulated machine. It holds no pointers. A change
 * of layout must bump REG_VERSION: the size and version checks then refuse
 * a file another build of kfdsim created.
 */
#ifndef KSIM_REGISTRY_PRIV_H
#define KSIM_REGISTRY_PRIV_H

#include <pthread.h>
#include <stdint.h>

#include "ksim_priv.h"

#define REG_MAGIC	0x3167657273666bULL	/* "kfsreg1" */
#define REG_VERSION	2
#define REG_PROCS	256
#define REG_BUFS	1024
#define REG_IPC		256
#define REG_IPC_HOLDERS	16

struct reg_proc {
	int32_t pid;
	uint32_t in_use;
	uint64_t vram[KSIM_MAX_GPUS];
	uint64_t vram_aligned[KSIM_MAX_GPUS];
	uint64_t vram_ttm[KSIM_MAX_GPUS];
	uint64_t sys;
	uint64_t ttm;
};

struct reg_bufslot {
	uint64_t gen;
	uint32_t in_use;
	uint32_t pad;
	struct ksim_reg_buf b;
};

/*
 * A process holding references to an IPC object: the kernel counts one per
 * kgd_mem (the exporter's and each import); here each process counts its
 * own, and names the fd of its BO memfd so another process can open the
 * same memory through /proc/<pid>/fd/<fd>.
 */
struct reg_ipc_holder {
	int32_t pid;			/* 0: free */
	int32_t fd;			/* -1 until the importer has its BO */
	uint32_t refs;
	uint32_t pad;
};

/* kfd_ipc_obj: a 128-bit share handle naming a BO (rocm flavour). */
struct reg_ipc {
	uint64_t gen;			/* changes at every reuse of the slot */
	uint32_t in_use;
	uint32_t flags;			/* EXPORT_HANDLE flags, IMPORT returns them */
	uint32_t handle[4];
	struct ksim_reg_buf b;		/* the BO: identity, size, placement */
	struct reg_ipc_holder holders[REG_IPC_HOLDERS];
};

struct reg_shared {
	uint64_t magic;
	uint32_t version;
	uint32_t size;
	uint32_t n_gpus;
	uint32_t gpu_ids[KSIM_MAX_GPUS];
	uint32_t next_pasid;
	pthread_mutex_t lock;
	uint64_t vram_used[KSIM_MAX_GPUS];
	uint64_t vram_aligned[KSIM_MAX_GPUS];
	uint64_t vram_ttm[KSIM_MAX_GPUS];
	uint64_t sys_used;
	uint64_t ttm_used;
	uint64_t buf_gen;
	uint64_t ipc_gen;
	struct reg_proc procs[REG_PROCS];
	struct reg_bufslot bufs[REG_BUFS];
	struct reg_ipc ipc[REG_IPC];
	/* DQM's SDMA queue slots, per GPU and machine-wide: the owning pid
	 * of each slot (0: free); [1] is the xGMI SDMA engines' set. */
	int32_t sdma_owner[KSIM_MAX_GPUS][2][64];
};

struct ksim_registry {
	struct reg_shared *sh;
	int shared;
};

/* The registry mutex (robust when shared); taken under a device lock. */
void ksim_reg_lock(struct ksim_registry *reg);
void ksim_reg_unlock(struct ksim_registry *reg);

/* Fill @b with what an importer of @bo must know. */
void ksim_reg_buf_fill(struct ksim_reg_buf *b, const struct ksim_bo *bo);

#endif /* KSIM_REGISTRY_PRIV_H */

/* SPDX-License-Identifier: MIT */
/*
 * Layout of the machine registry (registry.c): one fixed-size structure
 * that lives in /dev/shm/kfdsim-<machine> (or private memory), shared by
 * every process of the simulated machine. It holds no pointers. A change
 * of layout must bump REG_VERSION: the size and version checks then refuse
 * a file another build of kfdsim created. machine.c makes, checks and
 * removes the file.
 */
#ifndef KSIM_REGISTRY_PRIV_H
#define KSIM_REGISTRY_PRIV_H

#include <stdint.h>

#include "ksim_priv.h"

#define REG_MAGIC	0x3167657273666bULL	/* "kfsreg1" */
#define REG_VERSION	9
#define REG_PROCS	256
#define REG_BUFS	1024
#define REG_IPC		256
#define REG_IPC_HOLDERS	16
#define REG_PCS_SESSIONS	64

/* A user queue as /sys/class/kfd/kfd/proc/<pid>/queues/<qid>/ shows it. */
struct reg_queue {
	uint32_t id;			/* queue_id */
	uint32_t gpu;			/* GPU index */
	uint32_t type;			/* enum kfd_queue_type: 0 compute, 1 SDMA, ... */
	uint32_t in_use;
	uint64_t size;			/* ring size, bytes */
	struct ksim_qdbg dbg;		/* what a debugger sees of it */
};

/* The first queues of a process that sysfs lists (of up to 1024). */
#define REG_PROC_QUEUES	64

struct reg_proc {
	int32_t pid;
	uint32_t in_use;
	uint64_t vram[KSIM_MAX_GPUS];	/* KFD VRAM allocations: proc/<pid>/vram_<id> */
	uint64_t vram_aligned[KSIM_MAX_GPUS];
	uint64_t vram_ttm[KSIM_MAX_GPUS];
	uint64_t sys;
	uint64_t ttm;
	uint32_t pasid;			/* proc/<pid>/pasid; 0 while no KFD process exists */
	int32_t xmem_fd;		/* its BO table's fd + 1 (xmem.c); 0: none */
	uint64_t start;			/* the pid's start time: a later process with
					 * the same pid is another one */
	struct reg_queue queues[REG_PROC_QUEUES];	/* in_use 0: free entry */
	struct ksim_pdbg dbg;		/* its KFD process's debugger state */
	uint32_t cp_busy;		/* its engines in a pass (pm.c) */
	uint32_t pm_vm;			/* bit per GPU index: VM acquired */
	/* the machine's pm_evicted_ns when it acquired each GPU's VM: its
	 * stats_<gpu_id>/evicted_ms counts the suspends since (pm.c) */
	uint64_t pm_base_ns[KSIM_MAX_GPUS];
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

/* A PC sampling session (pc_sampling_entry): a trace id of one GPU, held
 * by one KFD process (pid, start time and PASID name it). */
struct reg_pcs_session {
	int32_t pid;			/* 0: free */
	uint32_t id;			/* trace id */
	uint64_t start;			/* the pid's start time */
	uint32_t pasid;			/* its KFD process (a secondary context
					 * of the pid has another) */
	uint32_t method;		/* KFD_ABI_PCS_METHOD_* */
	uint32_t enabled;		/* between START and STOP */
	uint32_t pad;
};

/* One method's shared sampler (hosttrap_entry / stoch_entry). */
struct reg_pcs_method {
	uint32_t use_count;		/* sessions created */
	uint32_t active_count;		/* sessions started */
	struct kfd_abi_pc_sample_info info;	/* their format while use_count */
};

/* A GPU's PC sampling state (kfd_dev_pc_sampling_data). */
struct reg_pcs {
	uint32_t next_id;		/* idr_alloc_cyclic's cursor: ids from 1 */
	uint32_t pad;
	struct reg_pcs_method m[2];	/* [0] host trap, [1] stochastic */
	struct reg_pcs_session s[REG_PCS_SESSIONS];
};

/*
 * What identifies a state file, read before anything else is trusted:
 * magic, layout, and who made it. The maker's start time (field 22 of
 * /proc/<pid>/stat) tells it from a later process given the same pid.
 */
struct reg_head {
	uint64_t magic;			/* REG_MAGIC, written last */
	uint32_t version;		/* REG_VERSION */
	uint32_t size;			/* sizeof(struct reg_shared) */
	int32_t owner_pid;		/* the process that made the file */
	uint32_t flags;			/* REG_F_* */
	uint64_t owner_start;		/* its start time, clock ticks after boot */
	uint32_t lock;			/* the registry lock (registry_lock.c), byte 32 */
	uint32_t pad;
};

#define REG_F_RUN	0x1	/* made by ksim_machine_begin() for one run */

struct reg_shared {
	struct reg_head h;
	uint32_t bound;			/* n_gpus/gpu_ids set (by the first device) */
	uint32_t n_gpus;
	uint32_t gpu_ids[KSIM_MAX_GPUS];
	uint32_t next_pasid;
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
	struct reg_pcs pcs[KSIM_MAX_GPUS];	/* rocm flavour's PC_SAMPLE */
	/* A system suspend (pm.c): a futex word, 1 while suspended, which
	 * the engines wait on; and how many suspends there were. */
	uint32_t pm_suspended;
	uint32_t pm_count;
	uint64_t pm_since_ns;		/* CLOCK_MONOTONIC at the suspend */
	uint64_t pm_evicted_ns;		/* the suspends' time, resumes so far */
};

struct ksim_registry {
	struct reg_shared *sh;
	int shared;
	int fd;				/* shared: the file, flock(LOCK_SH) held */
	int broken;			/* the lock failed: no more registry calls */
	char path[512];			/* shared: the file, for messages */
};

/* What messages call the registry: its file, or the private machine. */
static inline const char *
ksim_reg_name(const struct ksim_registry *reg)
{
	return reg->path[0] ? reg->path : "(private machine)";
}

/* Initialise a zeroed registry: header and PASIDs (the lock word is 0,
 * free); the magic is written last. */
void ksim_reg_init(struct reg_shared *sh, int32_t owner_pid,
		   uint64_t owner_start, uint32_t flags);

/*
 * ksim_machine_attach() - open machine @id's state file for use, making it
 * when there is none; a stale file is reclaimed and a foreign one refused
 * on the way, each with a message on stderr.
 * @run:	make it as a run's machine (REG_F_RUN): only a new file will
 *		do, -EBUSY when anything has that name
 * @path:	receives the file's path
 *
 * Return: a close-on-exec fd of a checked file (size, magic, version),
 * holding a shared flock() for as long as it stays open, or a negative
 * errno.
 */
int ksim_machine_attach(const char *id, int run, char *path, size_t len);

/*
 * ksim_machine_open() - open machine @id's state file when it exists,
 * never making one: for commands that act on a running machine (pm.c).
 * @path:	receives the file's path
 *
 * Return: a close-on-exec fd of a checked file, holding a shared flock(),
 * or a negative errno (-ENOENT: no such machine; -EINVAL: not a state
 * file of this kfdsim, with a message).
 */
int ksim_machine_open(const char *id, char *path, size_t len);

/* One line on stderr: "kfdsim[pid]: <path>: <what>". */
void ksim_machine_log(const char *path, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* The start time of process @pid (/proc/<pid>/stat) + 1; 0 if there is
 * none or it has ended (a zombie). */
uint64_t ksim_proc_start_time(pid_t pid);

/*
 * ksim_reg_lock() - take the registry lock (under a device lock). Every
 * wait is bounded: a holder that has ended is taken over, a lock word that
 * holds no lock state or a holder that keeps it past a deadline make this
 * process give the machine up, with a message naming the file.
 *
 * Return: 0 with the lock held, or -EIO (the machine is given up: every
 * later call fails at once).
 */
int ksim_reg_lock(struct ksim_registry *reg) __attribute__((warn_unused_result));
void ksim_reg_unlock(struct ksim_registry *reg);

/*
 * reg_proc_slot_locked() - the slot of process @pid started at @start,
 * taken afresh when it has none (a slot of an ended process with that pid
 * is given back first). Registry lock held. Return: the slot, or -1 when
 * every slot is a live process's.
 */
int reg_proc_slot_locked(struct ksim_registry *reg, pid_t pid, uint64_t start);

/* Fill @b with what an importer of @bo must know. */
void ksim_reg_buf_fill(struct ksim_reg_buf *b, const struct ksim_bo *bo);

#endif /* KSIM_REGISTRY_PRIV_H */

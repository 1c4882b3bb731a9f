/* SPDX-License-Identifier: MIT */
/*
 * kfdsim model internals: the kernel objects the model keeps and the helpers
 * the per-area files share. Names follow amdkfd where there is one
 * (process, pdd, kgd_mem -> kmem, bo, vm mapping, event, queue).
 *
 * Locking: one mutex per device guards every object below. It is held for
 * the whole of an ioctl, except WAIT_EVENTS, which sleeps on the process's
 * condition variable, and the few ioctls that need no state (GET_VERSION,
 * GET_CLOCK_COUNTERS' clocks). The shared registry has its own process-
 * shared mutex, only ever taken with the device mutex held.
 */
#ifndef KSIM_PRIV_H
#define KSIM_PRIV_H

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include <kfdtrace/drm_abi.h>
#include <kfdtrace/kfd_abi.h>

#include "ksim.h"

#define KSIM_MAX_GPUS		16
#define KSIM_MAX_QUEUES		1024	/* KFD_MAX_NUM_OF_QUEUES_PER_PROCESS */
#define KSIM_GWS_MAX		64	/* GWS resources of a VMID (one 64-entry block) */
#define KSIM_PAGE_SIZE		4096ULL
#define KSIM_PAGE_ALIGN(x)	(((x) + KSIM_PAGE_SIZE - 1) & ~(KSIM_PAGE_SIZE - 1))
#define KSIM_ALIGN(x, a)	(((x) + (a) - 1) / (a) * (a))
#define KSIM_ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))
/* Largest kmalloc the kernel would attempt; larger requests are -ENOMEM. */
#define KSIM_KMALLOC_MAX	(4ULL << 20)
/* The kernel's ENOTSUPP (not a user errno, but what CREATE_QUEUE returns). */
#define KSIM_ENOTSUPP		524
/* Where the render node's GEM fake offsets start (DRM_FILE_PAGE_OFFSET). */
#define KSIM_FAKE_OFFSET_BASE	(1ULL << 32)
/* Top of the user address space (x86-64, 4-level paging): access_ok(). */
#define KSIM_TASK_SIZE		0x00007ffffffff000ULL
/* 2 MiB: VRAM availability granularity (VRAM_AVAILABLITY_ALIGN). */
#define KSIM_VRAM_ALIGN		(2ULL << 20)

/* BO placement. */
enum ksim_domain {
	KSIM_DOM_VRAM = 1,
	KSIM_DOM_GTT,
	KSIM_DOM_USERPTR,
	KSIM_DOM_DOORBELL,
	KSIM_DOM_MMIO,
};

/* What an allocation charged to the machine's accounting. */
struct ksim_charge {
	int gpu;		/* -1: none */
	uint64_t vram;		/* KFD vram_used */
	uint64_t vram_ttm;	/* VRAM actually placed (KFD + GEM) */
	uint64_t sys;		/* KFD system memory (GTT + userptr) */
	uint64_t ttm;		/* TTM (GTT) pages */
};

/* A buffer object: the GEM object / amdgpu_bo. Shared by handles. */
struct ksim_bo {
	int refs;
	int memfd;			/* backing memory; -1 for userptr, and
					 * for VRAM/GTT until ksim_bo_backing() */
	void *view;			/* the engines' mapping of memfd, or
					 * NULL until ksim_bo_view() */
	uint64_t size;			/* page aligned */
	enum ksim_domain domain;
	uint32_t gem_flags;		/* KFD_DRM_AMDGPU_GEM_CREATE_* */
	uint32_t gem_domains;		/* GEM_CREATE's domains; 0: from domain */
	uint32_t gem_align;		/* GEM_CREATE's alignment, in pages */
	uint32_t kfd_flags;		/* KFD alloc flags (domain + attributes) */
	int gpu;			/* owning device (index) */
	uint64_t fake_offset;		/* render-node mmap offset; 0: none */
	uint64_t userptr;		/* CPU VA of a userptr BO */
	uint64_t st_dev, st_ino;	/* identity of memfd (dmabuf lookup) */
	int reg_slot;			/* shared dmabuf entry, or -1 */
	uint64_t tiling_flags;
	uint64_t metadata_flags;
	uint32_t metadata_size;
	uint8_t metadata[KFD_DRM_AMDGPU_GEM_METADATA_MAX_DWORDS * 4];
	struct ksim_file *mmap_file;	/* render file a KFD BO may be mmapped on */
	struct ksim_charge charge;	/* released when the BO dies */
	int charge_slot;		/* registry process slot charged */
	pid_t owner;			/* process that created the object here */
	struct ksim_bo *prev, *next;	/* device list */
};

/* One GPU virtual address mapping in a VM (amdgpu_bo_va_mapping). */
struct ksim_mapping {
	uint64_t start;			/* bytes, page aligned */
	uint64_t size;			/* bytes, page aligned */
	struct ksim_bo *bo;
	uint64_t offset;		/* in the BO */
	uint32_t flags;
	uint32_t queue_refcount;	/* user queues using this buffer */
	struct ksim_kmem *kmem;		/* KFD mapping, or NULL (GEM_VA) */
};

/* A GPU VM: belongs to a render-node file (amdgpu_vm). */
struct ksim_vm {
	struct ksim_mapping *maps;	/* sorted by start, no overlaps */
	unsigned int n;
	unsigned int cap;
	struct ksim_process *kfd_proc;	/* set when KFD acquired it */
	/* The last GPU fault in it (amdgpu_vm.fault_info), which the
	 * render node's GPUVM_FAULT query answers; atomics, as the command
	 * processor's thread sets it. */
	uint64_t fault_addr;
	uint32_t fault_status;		/* VM_L2_PROTECTION_FAULT_STATUS */
	uint32_t fault_vmhub;		/* KFD_DRM_AMDGPU_VMHUB_* */
};

/* A KFD memory object (kgd_mem): what a KFD handle names. */
struct ksim_kmem {
	struct ksim_bo *bo;
	uint64_t va;
	uint64_t va_size;		/* GPU mapping extent: 2x BO for AQL */
	uint32_t alloc_flags;
	int gpu;			/* pdd (index) the handle lives in */
	uint32_t mapped_mask;		/* bit per GPU index */
	int mapped_count;
	int imported;
	uint64_t vram_usage;		/* added to pdd->vram_usage */
	unsigned int xmem_rec;		/* 1 + its record in the BO table; 0: none */
	unsigned int ipc_entry;		/* 1 + registry IPC slot held; 0: none */
	uint64_t ipc_gen;		/* ... and that entry's generation */
};

/* Per-process, per-GPU state (kfd_process_device). */
struct ksim_pdd {
	int gpu;
	uint32_t gpu_id;
	struct ksim_file *drm_file;	/* ACQUIRE_VM; NULL until then */
	struct ksim_kmem **idr;		/* handle idr, ids from 0 */
	unsigned int idr_cap;
	uint64_t *idr_used;		/* bit per id in use (idr_cap bits) */
	uint64_t *idr_full;		/* bit per idr_used word with no free bit */
	int doorbell_fd;		/* process doorbell page; -1: none */
	uint64_t doorbell_bitmap[KSIM_MAX_QUEUES / 64];
	int mmio_fd;			/* MMIO remap page; -1: none */
	uint32_t queue_count;
	uint32_t num_gws;		/* GWS held by one queue of this pdd */
	uint8_t ptl_disable_req;	/* PROFILER PTL_CONTROL asked PTL off */
	uint64_t vram_usage;
	uint32_t default_policy;
	uint32_t alternate_policy;
	uint32_t misc_process_flag;
	uint64_t ape1_base;
	uint64_t ape1_size;
	uint64_t scratch_va;
	uint64_t tba, tma;
	int fault_evicted;		/* a VM fault evicted the queues, for
					 * good (kfd_dqm_evict_pasid) */
	/* GWS: each resource's count and barrier state (shader_gws.c) */
	uint32_t gws_value[KSIM_GWS_MAX];
	uint32_t gws_arrived[KSIM_GWS_MAX];
	uint32_t gws_gen[KSIM_GWS_MAX];
};

/*
 * What a debugger sees of a queue. It lives in the machine registry (the
 * process's queue entry there), so a debugger in another process of the
 * machine reads and changes it; changes are made with the registry lock
 * held. A queue past the registry's room has its own copy, which only its
 * own process sees.
 */
struct ksim_qdbg {
	uint64_t exception_status;
	uint64_t ring, rptr, wptr, ctx;
	uint32_t ctx_size;
	uint32_t ring_size;
	uint32_t user_type;		/* KFD_ABI_QUEUE_TYPE_* as created */
	uint32_t suspended;		/* read without the lock: __atomic */
};

/*
 * A KFD process's debugger and runtime state (kfd_process's
 * runtime_info, debug_trap_enabled, exception masks, the pdds' exception
 * status and watch points). It lives in the process's registry slot, for
 * the same reason as struct ksim_qdbg, and under the same lock.
 */
#define KSIM_MAX_WATCH	4		/* address watch points per GPU */

struct ksim_pdbg {
	uint32_t kfd;			/* a KFD process exists (open, or ENABLE) */
	uint32_t enabled;		/* debug_trap_enabled */
	int32_t debugger;		/* the debugging process when not itself */
	int32_t ev_pid;			/* ENABLE's caller: ev_fd is in its table */
	uint64_t debugger_start;	/* its start time (ksim_proc_start_time) */
	int32_t ev_fd;			/* dbg_fd given at ENABLE */
	uint32_t runtime_state;		/* KFD_ABI_DEBUG_RUNTIME_STATE_* */
	uint64_t r_debug;
	uint32_t ttmp_setup;
	uint32_t flags;			/* SET_FLAGS */
	uint64_t exception_mask;	/* exception_enable_mask */
	uint64_t exception_status;	/* process exceptions */
	uint64_t dev_status[KSIM_MAX_GPUS];	/* by GPU index */
	uint32_t watch_ids[KSIM_MAX_GPUS];	/* address watch slots in use */
	uint32_t launch_mode;
	uint32_t launch_override_mode;
	uint32_t launch_enable_mask;
	uint32_t runtime_sema;		/* runtime_enable_sema's count */
	/* pdd->vm_fault_exc_data: the first memory fault a debugger saw on
	 * each GPU, kept until QUERY_EXCEPTION_INFO clears it */
	uint32_t vm_fault_saved;	/* bit per GPU index */
	uint32_t pad;
	struct kfd_abi_hsa_memory_exception_data vm_fault[KSIM_MAX_GPUS];
	/* SET_NODE_ADDRESS_WATCH's points by GPU index and id (the ids in
	 * watch_ids): what the waves' accesses are compared with */
	struct ksim_watch {
		uint64_t addr;
		uint32_t mask;
		uint32_t mode;		/* KFD_ABI_DBG_TRAP_ADDRESS_WATCH_MODE_* */
	} watch[KSIM_MAX_GPUS][KSIM_MAX_WATCH];
};

/* A user queue. */
struct ksim_queue {
	uint32_t id;
	int gpu;
	uint32_t user_type;		/* KFD_ABI_QUEUE_TYPE_* as created */
	int is_compute;
	uint64_t ring, rptr, wptr, eop, ctx;
	uint64_t eop_size;
	uint32_t ctx_size, ctl_stack_size;
	uint32_t ring_size, percentage, priority;
	uint32_t metadata_size;		/* 1.22: AQL metadata ring after the ring */
	int sdma_id;			/* -1 for compute */
	uint32_t sdma_engine, sdma_queue;
	uint32_t doorbell_id;
	int active;
	int gws;
	uint64_t ref_va[5];		/* buffers pinned (queue_refcount) */
	unsigned int nref;
	struct ksim_qdbg *dbg;		/* the registry's entry, or &dbg_own */
	struct ksim_qdbg dbg_own;
	uint32_t cu_mask[32];		/* SET_CU_MASK, bit n: CU n */
	uint32_t cu_mask_count;		/* bits set by it; 0: every CU */
};

struct ksim_waiter;

/* An event. */
struct ksim_event {
	uint32_t id;
	uint32_t type;
	int auto_reset;
	int signaled;
	int dead;			/* destroyed while waiters held it */
	uint64_t age;
	uint32_t node_id;
	unsigned int nwaiters;
	struct ksim_waiter *waiters;
	struct kfd_abi_hsa_memory_exception_data mem_exc;
	struct kfd_abi_hsa_hw_exception_data hw_exc;
};

struct ksim_waiter {
	struct ksim_event *event;	/* NULL once destroyed */
	int activated;
	int age_enabled;
	struct ksim_waiter *next;	/* on event->waiters */
};

/* An SVM range with attributes (svm_range). Bytes, page aligned. */
struct ksim_svm_range {
	uint64_t start;
	uint64_t size;
	uint32_t preferred_loc;
	uint32_t prefetch_loc;
	uint32_t flags;
	uint32_t granularity;
	uint32_t access;		/* bit per GPU index */
	uint32_t access_in_place;
	uint32_t actual_loc;		/* gpu_id holding the pages; 0: system */
	uint32_t mapped;		/* bit per GPU index: in that GPU's VM */
};

struct ksim_nsevent {
	uint32_t id;
	struct ksim_event *ev;
};

/* Per-process KFD state (kfd_process). */
struct ksim_process {
	struct ksim_device *dev;
	pid_t pid;
	int secondary;			/* CREATE_PROCESS context */
	int refs;			/* kfd files pointing here */
	uint32_t pasid;
	int reg_slot;			/* accounting slot in the registry */
	unsigned int n_pdds;
	struct ksim_pdd pdds[KSIM_MAX_GPUS];
	uint64_t qid_bitmap[KSIM_MAX_QUEUES / 64];
	struct ksim_queue *queues[KSIM_MAX_QUEUES];
	/* events */
	struct ksim_event **sig_events;	/* [KFD_ABI_SIGNAL_EVENT_LIMIT] */
	uint32_t signal_event_count;	/* starts at 1: id 0 is reserved */
	uint64_t signal_mapped_size;
	int signal_fd;			/* kernel signal page memfd; -1 */
	uint64_t *signal_slots;		/* signal_fd mapped here, or NULL */
	struct ksim_bo *signal_bo;	/* dGPU: user BO used as the page */
	uint64_t signal_handle;
	struct ksim_nsevent *nsev;	/* non-signal events, sorted by id */
	unsigned int n_nsev, cap_nsev;
	pthread_cond_t event_cond;
	/* SVM and XNACK */
	struct ksim_svm_range *svm;
	unsigned int n_svm, cap_svm;
	int xnack_enabled;
	/* debugger / runtime: the registry slot's, or &dbg_own */
	struct ksim_pdbg *dbg;
	struct ksim_pdbg dbg_own;
	/* CRIU */
	int queues_paused;
	/* SMI clients: the model's ends of their sockets */
	struct ksim_smi_client *smi;
	unsigned int n_smi;
	char comm[16];			/* the task name SMI records carry */
	/* command processor (cp.c): NULL until the first queue */
	struct ksim_cp *cp;
	/* rocm flavour: its BOs as other processes find them (xmem.c) */
	struct ksim_xtab *xtab;
	struct ksim_process *next;
};

/* An open file (/dev/kfd or a render node). */
struct ksim_file {
	struct ksim_device *dev;
	enum kfd_file_kind kind;
	int fd;				/* backing fd created at open */
	uint64_t st_dev, st_ino;	/* its identity */
	pid_t owner;
	int refs;			/* 1 for the open fd + users (pdds) */
	int released;
	struct ksim_process *proc;	/* kfd: the process state */
	/* render */
	int gpu;
	unsigned int minor;
	struct ksim_vm vm;
	struct ksim_bo **handles;	/* GEM handle idr, ids from 1 */
	unsigned int handles_cap;
	struct ksim_drm_ctx *ctxs;	/* AMDGPU_CTX idr, ids from 1 */
	unsigned int ctxs_cap;
	struct ksim_bo_list **bo_lists;	/* AMDGPU_BO_LIST idr, ids from 1 */
	unsigned int bo_lists_cap;
	struct ksim_file *next;
};

/* An amdgpu submission context of a render file (amdgpu_ctx). */
struct ksim_drm_ctx {
	int used;
	int32_t priority;		/* KFD_DRM_AMDGPU_CTX_PRIORITY_* */
	uint32_t stable_pstate;		/* put back when the context goes */
	struct ksim_cs_ctx *cs;		/* its submissions (drm_cs.c), or NULL */
};

/* One GPU of the device. */
struct ksim_gpu_dev {
	int node;			/* profile node index */
	uint32_t gpu_id;
	const struct ksim_node *n;
	const struct ksim_gpu *g;
	const struct ksim_drm *d;
	/* PROFILER (1.23): the process holding the GPU's profiler lock,
	 * whether its queues count, and the PTL-off requests. */
	struct ksim_process *profiler;
	uint8_t perfcount;
	uint32_t ptl_disable_ref;
	/* The stable pstate a context forced (amdgpu's pm.stable_pstate_ctx):
	 * its render file and id; NULL: none, the level is the default. */
	uint32_t stable_pstate;		/* KFD_DRM_AMDGPU_CTX_STABLE_PSTATE_* */
	const struct ksim_file *pstate_file;
	uint32_t pstate_ctx;
};

struct ksim_registry;

/* An SMI_EVENTS subscriber: the model's end of its socket, for one GPU. */
struct ksim_smi_client {
	int fd;
	int gpu;
	uint64_t mask;			/* the last 8 bytes the client wrote */
};

struct ksim_device {
	struct ksim_profile *prof;
	unsigned int abi_minor;
	unsigned int kernel;		/* KSIM_KERNEL_UPSTREAM / _ROCM */
	unsigned int flags;
	pthread_mutex_t lock;
	unsigned int n_gpus;
	struct ksim_gpu_dev gpus[KSIM_MAX_GPUS];
	uint64_t sys_limit;		/* KFD system memory limit */
	uint64_t ttm_limit;		/* TTM (GTT) limit */
	struct ksim_process *procs;
	struct ksim_file *files;
	struct ksim_bo *bos;
	uint64_t next_fake_offset;
	struct ksim_registry *reg;
	struct ksim_device *next_dev;	/* global list (fork handling) */
	struct ksim_faults *faults;	/* fault mode rules; NULL: none */
};

/* ---- faults.c: fault mode (KFDSIM_FAULTS) ---- */
struct ksim_faults;
/* Parse a spec (NULL or "": no rules, *out NULL). -EINVAL with @msg set. */
int ksim_faults_parse(const char *spec, struct ksim_faults **out, char *msg, size_t msglen);
void ksim_faults_free(struct ksim_faults *f);
/*
 * Count an ioctl against the rules. Return: 0, or the -errno the call
 * must fail with; *delay_ns: how long it must take to return.
 */
int ksim_faults_check(struct ksim_faults *f, enum kfd_file_kind kind, unsigned long request,
		      uint64_t *delay_ns);
void ksim_faults_delay(uint64_t ns);

/* ---- sys.c: raw system calls (never through an interposing shim) ---- */
pid_t ksim_self_pid(void);
void ksim_pid_refresh(void);
int ksim_sys_memfd(const char *name, int cloexec);
int ksim_sys_close(int fd);
int ksim_sys_dup_min(int fd, int min, int cloexec);
int ksim_sys_identity(int fd, uint64_t *dev, uint64_t *ino);
int ksim_sys_ftruncate(int fd, uint64_t size);
int ksim_sys_pwrite(int fd, const void *buf, size_t len, uint64_t off);
int ksim_sys_pread(int fd, void *buf, size_t len, uint64_t off);
int ksim_sys_fill(int fd, uint64_t off, uint64_t len, uint8_t byte);
/*
 * Free [off, off+len) of memfd @fd (page-aligned; the size stays): the
 * range reads as zeros again. 0 or -errno.
 */
int ksim_sys_punch(int fd, uint64_t off, uint64_t len);
int ksim_sys_socketpair(int sv[2], int cloexec_user);
int ksim_sys_pid_alive(pid_t pid);
/*
 * ksim_sys_read_proc() - /proc/@pid/@name into @buf (at most @size - 1
 * bytes, NUL-terminated), read once. Return: the bytes read, or -1.
 */
int ksim_sys_read_proc(pid_t pid, const char *name, char *buf, size_t size);
int ksim_internal_fd(int fd);

/* ---- uaccess.c ---- */
int ksim_copy_from_user(void *dst, uint64_t uaddr, size_t len);
int ksim_copy_to_user(uint64_t uaddr, const void *src, size_t len);
int ksim_access_ok(uint64_t uaddr, uint64_t len);
int ksim_user_range_mapped(uint64_t uaddr, uint64_t len);
/* uaccess_direct.c: 1 if [uaddr, uaddr+len) may be touched without a check */
int ksim_uaccess_direct(uint64_t uaddr, uint64_t len);

/* ---- pm.c: a system suspend, as an engine meets it ---- */
/*
 * ksim_pm_pass_begin() - the engine of @p is about to run its queues.
 * Return: 0 (run them, then call ksim_pm_pass_end()), or 1 when the
 * machine is suspended (run nothing; ksim_pm_wait() waits for the resume).
 */
int ksim_pm_pass_begin(struct ksim_process *p);
void ksim_pm_pass_end(struct ksim_process *p);
/* ksim_pm_wait() - wait while the machine is suspended, at most @ns. */
void ksim_pm_wait(struct ksim_process *p, uint64_t ns);
/*
 * ksim_pm_vm_acquired() - @p acquired the VM of GPU index @gpu: a suspend
 * evicts its queues there from now on, which stats_<gpu_id>/evicted_ms
 * counts (registry_sysfs.c).
 */
void ksim_pm_vm_acquired(struct ksim_process *p, int gpu);

/* ---- registry.c ---- */
int ksim_reg_open(struct ksim_device *dev, const char *machine,
		  struct ksim_registry **out);
void ksim_reg_close(struct ksim_registry *reg);
/*
 * The registry slot of this process, @pid (its own if it has one): what it
 * charges is given back through it when it ends. -ENOMEM when every slot
 * is a live process's (said on stderr, naming @what the caller refuses),
 * or -EIO. Only a tracked process may charge memory.
 */
int ksim_reg_proc_slot(struct ksim_registry *reg, pid_t pid, const char *what);
/* The KFD process of @slot ended: sysfs no longer lists it; the slot and
 * its charges stay the pid's until it ends. */
void ksim_reg_proc_release(struct ksim_registry *reg, int slot);
/* The debugger state in slot @slot; NULL for no slot. */
struct ksim_pdbg *ksim_reg_proc_dbg(struct ksim_registry *reg, int slot);
/* registry_sysfs.c: what proc/<pid>/ shows; no-ops on a slot not the caller's.
 * ksim_reg_queue_add() returns the queue's debugger state in its entry, or
 * NULL when the process's entries are all taken. */
void ksim_reg_proc_set_pasid(struct ksim_registry *reg, int slot, uint32_t pasid);
struct ksim_qdbg *ksim_reg_queue_add(struct ksim_registry *reg, int slot, uint32_t id, int gpu,
			uint32_t user_type, uint64_t size);
void ksim_reg_queue_resize(struct ksim_registry *reg, int slot, uint32_t id,
			   uint64_t size);
void ksim_reg_queue_del(struct ksim_registry *reg, int slot, uint32_t id);
uint32_t ksim_reg_pasid(struct ksim_registry *reg);
int ksim_reg_charge(struct ksim_device *dev, int slot,
		    const struct ksim_charge *c, int kfd_limits);
void ksim_reg_uncharge(struct ksim_device *dev, int slot,
		       const struct ksim_charge *c);
void ksim_reg_usage(struct ksim_device *dev, int gpu, uint64_t *vram_kfd,
		    uint64_t *vram_kfd_aligned, uint64_t *vram_ttm,
		    uint64_t *gtt);

/* What the registry knows about an exported buffer. */
struct ksim_reg_buf {
	uint64_t st_dev, st_ino;
	uint64_t size;
	uint32_t gpu;			/* owning GPU index */
	uint32_t domain;		/* enum ksim_domain */
	uint32_t gem_flags;
	uint32_t kfd_flags;
	uint64_t tiling_flags;
	uint64_t metadata_flags;
	uint32_t metadata_size;
	uint8_t metadata[KFD_DRM_AMDGPU_GEM_METADATA_MAX_DWORDS * 4];
};

int ksim_reg_buf_publish(struct ksim_device *dev, struct ksim_bo *bo);
int ksim_reg_buf_find(struct ksim_device *dev, uint64_t st_dev, uint64_t st_ino,
		      struct ksim_reg_buf *out);
void ksim_reg_buf_sync_metadata(struct ksim_device *dev, struct ksim_bo *bo);
void ksim_reg_buf_load_metadata(struct ksim_device *dev, struct ksim_bo *bo);

int ksim_reg_sdma_alloc(struct ksim_device *dev, int gpu, int xgmi,
			uint32_t total, uint32_t engines, int want, uint32_t *id);
void ksim_reg_sdma_free(struct ksim_device *dev, int gpu, int xgmi, uint32_t id);

/* What an IPC import learns (registry_ipc.c, rocm flavour). */
struct ksim_reg_ipc {
	unsigned int slot;
	uint64_t gen;
	uint32_t flags;			/* the exporter's flags */
	int fd;				/* the memory, opened from another
					 * process; -1 if this one holds it */
	struct ksim_reg_buf b;
};

int ksim_reg_ipc_export(struct ksim_device *dev, struct ksim_bo *bo,
			uint32_t flags, uint32_t handle[4], unsigned int *slot,
			uint64_t *gen);
int ksim_reg_ipc_handle(struct ksim_device *dev, unsigned int slot,
			uint64_t gen, uint32_t handle[4]);
int ksim_reg_ipc_import(struct ksim_device *dev, const uint32_t handle[4],
			struct ksim_reg_ipc *out);
void ksim_reg_ipc_set_fd(struct ksim_device *dev, unsigned int slot,
			 uint64_t gen, int memfd);
void ksim_reg_ipc_put(struct ksim_device *dev, unsigned int slot, uint64_t gen);

/* ---- device.c ---- */
int ksim_gpu_index(const struct ksim_device *dev, uint32_t gpu_id);
struct ksim_file *ksim_file_lookup_fd(struct ksim_device *dev, int fd);
void ksim_file_get(struct ksim_file *f);
void ksim_file_put(struct ksim_file *f);

/* ---- process.c ---- */
struct ksim_process *ksim_process_create(struct ksim_device *dev, int *err);
void ksim_process_put(struct ksim_process *p);
struct ksim_pdd *ksim_pdd_by_id(struct ksim_process *p, uint32_t gpu_id);
int ksim_pdd_bind(struct ksim_pdd *pdd);
void ksim_process_destroy(struct ksim_process *p, int release_shared);

/* ---- memory.c ---- */
struct ksim_bo *ksim_bo_new(struct ksim_device *dev, int gpu,
			    enum ksim_domain dom, uint64_t size, int share_fd,
			    int *err);
void ksim_bo_get(struct ksim_bo *bo);
void ksim_bo_put(struct ksim_device *dev, struct ksim_bo *bo);
struct ksim_bo *ksim_bo_by_identity(struct ksim_device *dev, uint64_t st_dev,
				    uint64_t st_ino);
struct ksim_bo *ksim_bo_by_fake_offset(struct ksim_device *dev, uint64_t off);
/*
 * The memfd behind a VRAM or GTT BO, created on first use (a mapping, an
 * export, the events page): most BOs are never touched by the CPU, and a
 * shmem file per allocation is the costliest part of ALLOC/FREE.
 * Return: the fd, or -EPERM (no CPU pages: userptr, doorbell without a
 * page), or -ENOMEM.
 */
int ksim_bo_backing(struct ksim_bo *bo);
/*
 * The engines' own mapping of a VRAM or GTT BO's backing memory, made on
 * first use and kept until the BO dies: the GPU reaches a BO whether or
 * not the program mapped it, and a copy through the memfd is a system
 * call per access. @bo must have its memfd (ksim_bo_backing()).
 * Return: the mapping of the whole BO, or NULL when it cannot be made.
 */
void *ksim_bo_view(struct ksim_bo *bo);
uint64_t ksim_bo_fake_offset(struct ksim_device *dev, struct ksim_bo *bo);
struct ksim_kmem *ksim_kmem_lookup(struct ksim_pdd *pdd, uint32_t idr);
int ksim_kmem_insert(struct ksim_pdd *pdd, struct ksim_kmem *m);
void ksim_kmem_destroy(struct ksim_process *p, struct ksim_pdd *pdd,
		       uint32_t idr);
int ksim_doorbell_fd(struct ksim_device *dev, struct ksim_pdd *pdd);
int ksim_mmio_fd(struct ksim_pdd *pdd);

/* ---- vm.c ---- */
/* GPU virtual address space size (48-bit VM of gfx9..gfx11). */
#define KSIM_VM_SIZE		(1ULL << 48)
struct ksim_mapping *ksim_vm_find(struct ksim_vm *vm, uint64_t addr);
int ksim_vm_check(const struct ksim_vm *vm, uint64_t start, uint64_t size);
int ksim_vm_insert(struct ksim_vm *vm, const struct ksim_mapping *m);
void ksim_vm_remove(struct ksim_device *dev, struct ksim_vm *vm,
		    struct ksim_mapping *m);
void ksim_vm_remove_kmem(struct ksim_device *dev, struct ksim_vm *vm,
			 struct ksim_kmem *kmem);
void ksim_vm_clear(struct ksim_device *dev, struct ksim_vm *vm);
int ksim_vm_overlaps(const struct ksim_vm *vm, uint64_t start, uint64_t size);

/* ---- events.c ---- */
int ksim_events_init(struct ksim_process *p);
void ksim_events_fini(struct ksim_process *p);

/* ---- svm.c ---- */
int ksim_svm_overlaps(const struct ksim_process *p, uint64_t start,
		      uint64_t size);
void ksim_svm_unmap(struct ksim_process *p, uint64_t start, uint64_t len);

/* ---- cp.c: the command processor (device lock held for all) ---- */
struct ksim_cp;
/*
 * A new AQL, PM4 or SDMA queue joins the process's engine, which starts
 * with the first one. Other queue types are ignored. Return: 0 or -ENOMEM.
 */
int ksim_cp_queue_create(struct ksim_process *p, struct ksim_queue *q);
/* The queue's ring, size or percentage changed: the engine re-reads them. */
void ksim_cp_queue_update(struct ksim_process *p, struct ksim_queue *q);
/* Its CU mask changed: a dispatch waiting for a CU may go (and it is logged). */
void ksim_cp_queue_note(struct ksim_process *p, struct ksim_queue *q);
/* After this returns the engine never touches the queue's memory again. */
void ksim_cp_queue_destroy(struct ksim_process *p, struct ksim_queue *q);
/* Process teardown: stop and join the engine (a fork child only forgets). */
void ksim_cp_fini(struct ksim_process *p);
/*
 * ksim_cp_kick() - wake @p's engine if it sleeps: a process that blocks
 * in WAIT_EVENTS has most likely just rung a doorbell (ROCr spins, then
 * blocks), so a deep-sleeping engine does not add its sleep to the wait.
 */
void ksim_cp_kick(struct ksim_process *p);
/*
 * The calling process mapped @p's doorbell page at [addr, addr+len),
 * shared: an idle engine blocks until a store into it (cp_idle.c).
 */
void ksim_cp_doorbell_mapped(struct ksim_process *p, uint64_t addr,
			     uint64_t len);
/* [addr, addr+len) is unmapped. Return: 1 if it held a doorbell mapping. */
int ksim_cp_doorbell_unmapped(struct ksim_process *p, uint64_t addr,
			      uint64_t len);
/*
 * mremap() moved [old, old+old_len) to [new_addr, new_addr+new_len)
 * (@old_len 0: mapped it a second time there); a doorbell mapping among
 * it is one at the new place.
 */
void ksim_cp_doorbell_moved(struct ksim_process *p, uint64_t old,
			    uint64_t old_len, uint64_t new_addr, uint64_t new_len);
/* KSIM_IDLE_UFFD when doorbell stores wake @p's idle engine, else POLL. */
int ksim_cp_idle_mode(struct ksim_process *p);

/* ---- queues.c ---- */
/*
 * ksim_queue_cus() - how many of its GPU's CUs @q may run waves on: all
 * of them, or those its CU mask enables (bits past the GPU's CU count
 * mean nothing).
 */
unsigned int ksim_queue_cus(const struct ksim_device *dev,
			    const struct ksim_queue *q);
void ksim_queue_destroy_all(struct ksim_process *p);
int ksim_queue_count(const struct ksim_process *p);

/* ---- ioctl handlers (dispatch tables) ---- */
typedef int (*ksim_kfd_handler)(struct ksim_file *f, struct ksim_process *p,
				void *args, unsigned int usize);

int ksim_kfd_ioctl(struct ksim_file *f, unsigned long request, void *arg);
int ksim_drm_ioctl(struct ksim_file *f, unsigned long request, void *arg);
/* drm_info.c: AMDGPU_INFO, @data its struct kfd_drm_amdgpu_info. */
int ksim_drm_info(struct ksim_file *f, void *data);
/* drm_ctx.c: AMDGPU_CTX, @data its union kfd_drm_amdgpu_ctx. */
int ksim_drm_ctx(struct ksim_file *f, void *data);
/*
 * ksim_drm_ctx_release() - the contexts of render file @f go with it
 * (amdgpu_ctx_mgr_fini): each puts back the stable pstate it found.
 */
void ksim_drm_ctx_release(struct ksim_file *f);
/* drm_info.c: the rings of HW IP @ip the GPU has (available_rings). */
uint32_t ksim_drm_ip_rings(const struct ksim_gpu_dev *gd, uint32_t ip);
/* drm.c: the BO behind GEM handle @h of @f, or NULL. */
struct ksim_bo *ksim_drm_handle_bo(struct ksim_file *f, uint32_t h);
/*
 * drm_cs.c: AMDGPU_BO_LIST, AMDGPU_CS and AMDGPU_WAIT_CS (@data their
 * unions). ksim_drm_cs_ctx_fini() drops a context's submission state;
 * ksim_drm_cs_release() the BO lists of @f when it goes.
 */
int ksim_drm_bo_list(struct ksim_file *f, void *data);
int ksim_drm_cs(struct ksim_file *f, void *data);
int ksim_drm_wait_cs(struct ksim_file *f, void *data);
void ksim_drm_cs_ctx_fini(struct ksim_drm_ctx *c);
void ksim_drm_cs_release(struct ksim_file *f);
/*
 * drm_cs_exec.c: run the IB of @ndw dwords at GPU VA @va of @f's VM on
 * HW IP @ip. Return: 0, -ETIME when the job stopped (a packet or memory
 * the model does not execute), -ENOMEM.
 */
int ksim_drm_cs_exec(struct ksim_file *f, uint32_t ip, uint64_t va, uint32_t ndw);
/* drm_cs_exec.c: write @len bytes at @off of @bo. Return: 0 or -1. */
int ksim_drm_bo_write(struct ksim_device *dev, struct ksim_bo *bo, uint64_t off,
		      const void *buf, uint64_t len);

/* kfd_misc.c */
int ksim_ioc_get_version(struct ksim_file *, struct ksim_process *, void *, unsigned int);
int ksim_ioc_set_memory_policy(struct ksim_file *, struct ksim_process *, void *, unsigned int);
int ksim_ioc_get_clock_counters(struct ksim_file *, struct ksim_process *, void *, unsigned int);
int ksim_ioc_get_process_apertures(struct ksim_file *, struct ksim_process *, void *, unsigned int);
int ksim_ioc_get_process_apertures_new(struct ksim_file *, struct ksim_process *, void *, unsigned int);
int ksim_ioc_set_scratch_backing_va(struct ksim_file *, struct ksim_process *, void *, unsigned int);
int ksim_ioc_get_tile_config(struct ksim_file *, struct ksim_process *, void *, unsigned int);
int ksim_ioc_set_trap_handler(struct ksim_file *, struct ksim_process *, void *, unsigned int);
int ksim_ioc_available_memory(struct ksim_file *, struct ksim_process *, void *, unsigned int);
int ksim_ioc_dbg_deprecated(struct ksim_file *, struct ksim_process *, void *, unsigned int);
int ksim_ioc_smi_events(struct ksim_file *, struct ksim_process *, void *, unsigned int);
int ksim_ioc_set_xnack_mode(struct ksim_file *, struct ksim_process *, void *, unsigned int);
int ksim_ioc_criu_op(struct ksim_file *, struct ksim_process *, void *, unsigned int);
int ksim_ioc_create_process(struct ksim_file *, struct ksim_process *, void *, unsigned int);
int ksim_ioc_profiler(struct ksim_file *, struct ksim_process *, void *, unsigned int);

/*
 * ksim_smi_process_event() - PROCESS_START (@start) or PROCESS_END of @p on
 * GPU index @gpu, written to @p's own subscribers of that GPU whose mask
 * asks for it (the model has no other process's subscribers).
 */
void ksim_smi_process_event(struct ksim_process *p, int gpu, int start);

/*
 * ksim_smi_migrate() - MIGRATE_START (@end 0) or MIGRATE_END of @npages
 * pages from page @start_pg, @from and @to gpu_ids (0: system memory),
 * reported by the GPU that moves them. @error goes in the END record.
 */
void ksim_smi_migrate(struct ksim_process *p, int end, uint64_t start_pg,
		      uint64_t npages, uint32_t from, uint32_t to,
		      uint32_t prefetch_loc, uint32_t preferred_loc,
		      uint32_t trigger, int error);

/* ksim_smi_queue_eviction() - QUEUE_EVICTION of @p's queues on each GPU. */
void ksim_smi_queue_eviction(struct ksim_process *p, uint32_t trigger);

/* ksim_smi_queue_restore() - QUEUE_RESTORE of @p's queues on each GPU. */
void ksim_smi_queue_restore(struct ksim_process *p);

/*
 * ksim_smi_unmap_from_gpu() - UNMAP_FROM_GPU of @npages pages from page
 * @start_pg out of GPU @gpu_id's VM, for @trigger.
 */
void ksim_smi_unmap_from_gpu(struct ksim_process *p, uint32_t gpu_id,
			     uint64_t start_pg, uint64_t npages,
			     uint32_t trigger);

/* ksim_profiler_release() - drop @p's profiler lock and PTL requests (exit). */
void ksim_profiler_release(struct ksim_process *p);

/* ksim_capable() - whether the calling thread has capability @cap. */
int ksim_capable(int cap);
/* queues.c */
int ksim_ioc_create_queue(struct ksim_file *, struct ksim_process *, void *, unsigned int);
int ksim_ioc_destroy_queue(struct ksim_file *, struct ksim_process *, void *, unsigned int);
int ksim_ioc_update_queue(struct ksim_file *, struct ksim_process *, void *, unsigned int);
int ksim_ioc_set_cu_mask(struct ksim_file *, struct ksim_process *, void *, unsigned int);
int ksim_ioc_get_queue_wave_state(struct ksim_file *, struct ksim_process *, void *, unsigned int);
int ksim_ioc_alloc_queue_gws(struct ksim_file *, struct ksim_process *, void *, unsigned int);
/* events.c */
int ksim_ioc_create_event(struct ksim_file *, struct ksim_process *, void *, unsigned int);
int ksim_ioc_destroy_event(struct ksim_file *, struct ksim_process *, void *, unsigned int);
int ksim_ioc_set_event(struct ksim_file *, struct ksim_process *, void *, unsigned int);
int ksim_ioc_reset_event(struct ksim_file *, struct ksim_process *, void *, unsigned int);
/*
 * The interrupt of a signal event @id (kfd_signal_event_interrupt with a
 * full id): if its slot in the events page is signaled, acknowledge it
 * and set the event. Return: 0, or -ENOENT when nothing was signaled.
 */
int ksim_event_interrupt(struct ksim_process *p, uint32_t id);
/*
 * ksim_event_hw_exception() - the CP_BAD_OPCODE interrupt
 * (kfd_signal_hw_exception_event): set every HW_EXCEPTION event of @p.
 * Return: how many (ROCr 5.2.3 creates none; the kernel then only logs).
 */
int ksim_event_hw_exception(struct ksim_process *p);
/*
 * ksim_event_eop_interrupt() - the CP's end-of-pipe interrupt with context
 * id @ctxid (kfd_signal_event_interrupt with all 32 bits valid): the
 * event @ctxid if its slot is signaled; else, as the kernel falls back
 * to, every signal event whose slot is signaled. Each is acknowledged
 * and set. Return: how many were set.
 */
int ksim_event_eop_interrupt(struct ksim_process *p, uint32_t ctxid);
/* Why a GPU access faulted: the failure bits of the memory exception. */
#define KSIM_VM_FAULT_NOT_PRESENT	(1u << 0)	/* no valid PTE */
#define KSIM_VM_FAULT_READ_ONLY		(1u << 1)	/* a write, PTE not writable */
#define KSIM_VM_FAULT_NO_EXECUTE	(1u << 2)	/* a fetch, PTE not executable */
/* Fields of the hub's VM_L2_PROTECTION_FAULT_STATUS (gfx9 and later). */
#define KSIM_L2_FAULT_PERMISSION_SHIFT	4		/* 4 bits: V, R, W, X */
#define KSIM_L2_FAULT_RW		(1u << 18)	/* the access was a write */
/*
 * ksim_event_vm_fault() - a GPU memory fault of GPU index @gpu at @va,
 * for the reasons @why (KSIM_VM_FAULT_*), as the kernel's interrupt path
 * handles it for a process no debugger watches
 * (kfd_set_dbg_ev_from_interrupt): the process's queues on that GPU are
 * evicted for good (kfd_dqm_evict_pasid: nothing restores them), then
 * every MEMORY event of @p gets the fault's data (the GPU's id, the page,
 * the failure bits; precise) and is set (kfd_signal_vm_fault_event).
 * The GPU's render file's VM keeps the fault for INFO GPUVM_FAULT first,
 * and a debugger that takes the fault (ksim_dbg_vm_fault()) stops the
 * rest. Return: how many events were set.
 */
int ksim_event_vm_fault(struct ksim_process *p, int gpu, uint64_t va,
			unsigned int why);
int ksim_ioc_wait_events(struct ksim_file *, struct ksim_process *, void *, unsigned int);
/* memory.c */
int ksim_ioc_acquire_vm(struct ksim_file *, struct ksim_process *, void *, unsigned int);
int ksim_ioc_alloc_memory(struct ksim_file *, struct ksim_process *, void *, unsigned int);
int ksim_ioc_free_memory(struct ksim_file *, struct ksim_process *, void *, unsigned int);
int ksim_ioc_map_memory(struct ksim_file *, struct ksim_process *, void *, unsigned int);
int ksim_ioc_unmap_memory(struct ksim_file *, struct ksim_process *, void *, unsigned int);
/* dmabuf.c */
int ksim_ioc_get_dmabuf_info(struct ksim_file *, struct ksim_process *, void *, unsigned int);
int ksim_ioc_import_dmabuf(struct ksim_file *, struct ksim_process *, void *, unsigned int);
int ksim_ioc_export_dmabuf(struct ksim_file *, struct ksim_process *, void *, unsigned int);
/* svm.c */
int ksim_ioc_svm(struct ksim_file *, struct ksim_process *, void *, unsigned int);
/* debug.c */
/*
 * debug.c: a process's debugger state. ksim_dbg_process_init() points it
 * at the registry slot's (kept when a debugger made the KFD process
 * first). ksim_dbg_queue_new() gives a created queue its state (@q->dbg:
 * the registry entry, or NULL for its own copy) and tells a debugger;
 * ksim_dbg_queue_update() follows UPDATE_QUEUE's ring;
 * ksim_dbg_queue_raise() raises queue exceptions @mask (the CP's errors)
 * and says whether the runtime is to be told (no debugger took them and
 * the runtime is enabled: the caller writes the queue's error payload);
 * ksim_dbg_queue_suspended() is whether a debugger suspended the queue.
 * ksim_dbg_process_end() ends the process's own session and those it
 * debugs; ksim_dbg_reap_debugger() ends the session of a debugger that
 * has ended. All but ksim_dbg_queue_suspended() are called with the
 * device lock held.
 */
void ksim_dbg_process_init(struct ksim_process *p);
void ksim_dbg_process_end(struct ksim_process *p);
void ksim_dbg_reap_debugger(struct ksim_process *p);
void ksim_dbg_queue_new(struct ksim_process *p, struct ksim_queue *q);
void ksim_dbg_queue_update(struct ksim_process *p, struct ksim_queue *q);
int ksim_dbg_queue_raise(struct ksim_process *p, struct ksim_queue *q, uint64_t mask);
/*
 * ksim_dbg_vm_fault() - a memory fault of GPU index @gpu, @data its
 * exception data, as kfd_set_dbg_ev_from_interrupt() gives it to a
 * debugger: with debugging enabled the GPU's status gets
 * EC_DEVICE_MEMORY_VIOLATION and the data is kept (the first only).
 * Return: 1 when the debugger takes the exception (enabled in its mask,
 * told on its event file): the queues stay and no MEMORY event is set.
 */
int ksim_dbg_vm_fault(struct ksim_process *p, int gpu,
		      const struct kfd_abi_hsa_memory_exception_data *data);
int ksim_dbg_queue_suspended(const struct ksim_queue *q);
int ksim_ioc_runtime_enable(struct ksim_file *, struct ksim_process *, void *, unsigned int);
int ksim_ioc_dbg_trap(struct ksim_file *, struct ksim_process *, void *, unsigned int);
/* ipc.c (rocm flavour) */
int ksim_ioc_ipc_import_handle(struct ksim_file *, struct ksim_process *, void *, unsigned int);
/* xmem.c (rocm flavour): CROSS_MEMORY_COPY and the BO table it reads */
int ksim_ioc_cross_memory_copy(struct ksim_file *, struct ksim_process *, void *, unsigned int);

/* ---- pcs.c ---- */
int ksim_ioc_pc_sample(struct ksim_file *, struct ksim_process *, void *, unsigned int);
/* Stop and destroy @p's PC sampling sessions (kfd_pc_sample_release). */
void ksim_pcs_release(struct ksim_process *p);
/*
 * 1 when a host-trap session of GPU @gpu is started (the rocm flavour),
 * with its interval in microseconds in *@interval; else 0.
 */
int ksim_pcs_hosttrap(struct ksim_device *dev, int gpu, uint64_t *interval);
/* A new KFD handle's BO joins the process's table; its end leaves it. */
void ksim_xmem_publish(struct ksim_process *p, struct ksim_kmem *m);
void ksim_xmem_unpublish(struct ksim_process *p, struct ksim_kmem *m);
void ksim_xmem_fini(struct ksim_process *p);
int ksim_ioc_ipc_export_handle(struct ksim_file *, struct ksim_process *, void *, unsigned int);

/* dmabuf.c helpers for the render node */
int ksim_bo_accessible(struct ksim_file *f, struct ksim_bo *bo);
struct ksim_bo *ksim_dmabuf_resolve(struct ksim_device *dev, int fd, int *err);
int ksim_dmabuf_export_fd(struct ksim_device *dev, struct ksim_bo *bo,
			  int cloexec, int *err);

/* Counters for ksim_proc_query and sysfs. */
static inline int
ksim_bit_test(const uint64_t *map, unsigned int bit)
{
	return (map[bit / 64] >> (bit % 64)) & 1;
}

static inline void
ksim_bit_set(uint64_t *map, unsigned int bit)
{
	map[bit / 64] |= 1ULL << (bit % 64);
}

static inline void
ksim_bit_clear(uint64_t *map, unsigned int bit)
{
	map[bit / 64] &= ~(1ULL << (bit % 64));
}

/* Lowest clear bit below @nbits, or -1. */
static inline int
ksim_bit_first_zero(const uint64_t *map, unsigned int nbits)
{
	for (unsigned int w = 0; w * 64 < nbits; w++) {
		if (map[w] != ~0ULL) {
			unsigned int b = w * 64 + __builtin_ctzll(~map[w]);

			return b < nbits ? (int)b : -1;
		}
	}
	return -1;
}

#endif /* KSIM_PRIV_H */

/* SPDX-License-Identifier: MIT */
/*
 * The command processor (cp.c, cp_mem.c, cp_aql.c, cp_sdma.c, cp_pm4.c,
 * cp_stop.c): one engine thread per simulated process services its AQL,
 * PM4 and SDMA queues. Shared between those files only.
 *
 * Locking: the engine polls doorbells holding only cp->lock (which guards
 * the queue list), and processes packets holding the device lock, so an
 * ioctl (which holds the device lock) never runs beside packet processing.
 * The queue list changes only with both held (from ioctls), so either one
 * keeps it still. Order: device lock, then cp->lock; the engine never
 * waits for the device lock while holding cp->lock.
 */
#ifndef KSIM_CP_PRIV_H
#define KSIM_CP_PRIV_H

#include <pthread.h>
#include <stdint.h>
#include <sys/types.h>

#include "kfdtrace/packet_abi.h"
#include "ksim_priv.h"

/* Queue-inactive error codes ROCr decodes (amd_aql_queue.cpp). */
#define CP_ERR_SCRATCH		1u	/* more scratch, please (recoverable) */
#define CP_ERR_DIM		2u
#define CP_ERR_CODE		8u
#define CP_ERR_FORMAT		32u
#define CP_ERR_WG_SIZE		64u
#define CP_ERR_VENDOR		256u
/* A wave trapped (s_trap: llvm.trap, assert, abort), as ROCr's trap
 * handler reports it. */
#define CP_ERR_TRAP		0x80000000u
/* A wave executed an illegal instruction (the trap handler's bit). */
#define CP_ERR_ILLEGAL_INSN	0x40000000u
/* Not a packet error: a ring, pointer or signal outside the GPU VM. */
#define CP_ERR_MEMORY		0x20000000u

/* Verified-accessible VM mappings (see cp_mem_ok). */
#define CP_MEMCACHE		16

/* The kind of ring a queue has. */
enum cp_kind {
	CP_AQL,				/* 64-byte packets; doorbell: last packet */
	CP_SDMA,			/* bytes; doorbell: the write pointer */
	CP_PM4,				/* dwords; doorbell: the write pointer */
};

/* PM4 indirect buffers nest this deep (the ring is level 0). */
#define CP_PM4_IB_LEVELS	2

/* One AQL, PM4 or SDMA queue as the engine sees it. */
struct ksim_cpq {
	struct ksim_queue *q;		/* valid while the device lock is held */
	uint32_t qid;
	int gpu;
	enum cp_kind kind;
	const volatile uint64_t *doorbell;	/* in the engine's mapping */
	uint64_t last_db;		/* doorbell value last seen */
	uint64_t wbound;		/* [rd, wbound) announced: AQL packets,
					 * SDMA bytes */
	uint64_t rd;			/* next packet (read_dispatch_id), or
					 * SDMA byte (the read pointer) */
	int started;			/* rd loaded from the queue */
	int pending;			/* announced work not yet retired */
	int error;			/* queue went inactive on bad input */
	/* PM4: the indirect buffers being executed, innermost last. */
	struct {
		uint64_t va;
		uint32_t size, pos;	/* dwords */
	} ib[CP_PM4_IB_LEVELS];
	unsigned int ib_depth;
	unsigned int ib_hops;		/* IBs entered for the ring packet */
	unsigned int ib_ring_size;	/* dwords of the ring packet that
					 * entered them */
	/* PM4: the compute registers SET_SH_REG wrote (KFD_PM4_SH_*, from
	 * KFD_PM4_SH_COMPUTE_FIRST), which DISPATCH_DIRECT runs with */
	uint32_t sh_regs[KFD_PM4_SH_COMPUTE_COUNT];
};

struct ksim_cp {
	struct ksim_process *p;
	struct ksim_device *dev;
	pid_t pid;			/* owner: a fork child never joins */
	pthread_t thread;
	void *stack;			/* the engine's, ours to unmap */
	size_t stack_len;
	int running;
	int stop;			/* atomic */
	int debug;			/* KFDSIM_DEBUG */
	int no_shaders;			/* KFDSIM_SHADERS=0 */
	pthread_mutex_t lock;		/* guards qs/n (with the device
					 * lock) and the cond */
	pthread_cond_t cond;		/* wakes a sleeping engine */
	struct ksim_cpq *qs[KSIM_MAX_QUEUES];
	unsigned int n;
	void *db_map[KSIM_MAX_GPUS];	/* our view of each doorbell page */
	uint64_t db_len[KSIM_MAX_GPUS];
	struct {
		uint64_t start, end;
		const struct ksim_bo *bo;
		int writable;		/* the CPU's pages may be stored to */
	} mem[CP_MEMCACHE];
	unsigned int mem_next;
	uint64_t retired;		/* packets completed, for the log */
	uint64_t dbg_look_ns;		/* last look for a suspender gone */
	uint8_t bounce[64 << 10];	/* SDMA copies and fills go through it */
	struct sh_ctx *sh;		/* the shader interpreter's state, kept
					 * from one dispatch to the next */
	int turn_over;			/* a dispatch ended its turn (shader.c):
					 * work goes on, the engine must not doze */
	/* cp_idle.c: an idle engine blocks until a doorbell store */
	pthread_mutex_t idle_lock;	/* guards the fields below but armed */
	int idle_mode;			/* KSIM_IDLE_*: POLL once refused */
	int uffd, efd;			/* userfaultfd, eventfd; -1: none */
	int armed;			/* cp->lock: a kick writes efd */
	struct {
		uint64_t start, len;
	} *dbr;				/* the program's doorbell mappings */
	unsigned int n_dbr, cap_dbr;
	uint64_t idle_blocks;		/* times blocked, for the log */
	uint16_t order[KSIM_MAX_QUEUES];	/* cp_prio.c: qs[] by priority */
};

struct sh_ctx;

/* shader.c: free the interpreter's state (NULL is fine). */
void sh_ctx_free(struct sh_ctx *c);
/* shader.c: @cq is going away; a dispatch of it that waits is dropped. */
void sh_queue_gone(struct ksim_cp *cp, struct ksim_cpq *cq);

/* cp_prio.c: order[] the indices of qs[], highest queue priority first. */
void cp_prio_order(struct ksim_cp *cp);

/* cp.c */
/* A line on stderr when KFDSIM_DEBUG is set. */
void cp_log(struct ksim_cp *cp, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/*
 * A line on stderr always: a queue the engine stopped, which the runtime
 * may never report (it then waits for good), so the user must see why.
 */
void cp_warn(struct ksim_cp *cp, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* The simulated GPU clock of @gpu, as GET_CLOCK_COUNTERS reports it. */
uint64_t cp_gpu_clock(const struct ksim_device *dev, int gpu);
/*
 * The memory-polling compare of SDMA's POLL_REGMEM and PM4's WAIT_REG_MEM
 * (one 3-bit function code for both): 1 when @v passes against @ref, 0
 * when not yet, -1 for a function code no engine defines.
 */
int cp_compare(uint32_t func, uint32_t v, uint32_t ref);

/*
 * 1 when a queue has news (a doorbell value not yet seen, work pending, no
 * doorbell to watch), else 0. Takes cp->lock.
 */
int cp_has_news(struct ksim_cp *cp);
/* The engine of @p, made on first use (no thread yet); NULL: no memory. */
struct ksim_cp *cp_get(struct ksim_process *p);

/* cp_idle.c */
/* Set up blocking while idle (KFDSIM_IDLE=poll: never). */
void cp_idle_init(struct ksim_cp *cp);
/*
 * The program mapped a doorbell page at [addr, addr+len) (the owner
 * process): register it with the userfaultfd, made on the first call.
 * Anything refused leaves the process polling (said with KFDSIM_DEBUG).
 */
void cp_idle_note(struct ksim_cp *cp, uint64_t addr, uint64_t len);
/* [addr, addr+len) is unmapped: drop it. Return: 1 if a range was hit. */
int cp_idle_forget(struct ksim_cp *cp, uint64_t addr, uint64_t len);
/*
 * The engine has nothing to do: protect the doorbell mappings and block
 * until a store into one, or a kick (cp_idle_kick()). Return: 1 after
 * blocking (or on news found once protected), 0 when it cannot block
 * (the caller sleeps as before).
 */
int cp_idle_block(struct ksim_cp *cp);
/* Wake a blocked engine (cp->lock held). */
void cp_idle_kick(struct ksim_cp *cp);
/* KSIM_IDLE_UFFD when doorbell stores wake the engine, else POLL. */
int cp_idle_mode(struct ksim_cp *cp);
/* Teardown, after the engine stopped (a fork child closes its copies). */
void cp_idle_fini(struct ksim_cp *cp);

/* cp_mem.c (device lock held) */
/*
 * The CPU address of GPU VA [va, va+len) of @cq's VM, when it lies in one
 * mapping the CPU reaches at the same time; else NULL.
 */
void *cp_mem(struct ksim_cp *cp, struct ksim_cpq *cq, uint64_t va,
	     uint64_t len);
/* cp_mem() for a store: NULL as well when the mapping is read-only. */
void *cp_mem_w(struct ksim_cp *cp, struct ksim_cpq *cq, uint64_t va,
	       uint64_t len);
/*
 * Read (@write 0) or write [va, va+len) of @cq's VM through the memory
 * behind it, across mappings. Return: 0, or -1 if any byte is unmapped.
 */
int cp_mem_rw(struct ksim_cp *cp, struct ksim_cpq *cq, uint64_t va,
	      void *buf, uint64_t len, int write);
/*
 * Copy [src, src+len) of @cq's VM to [dst, dst+len), as cp_mem_rw() into
 * @bounce (@bsize bytes) and out again would, but with one copy in the
 * kernel where both sides are a BO's backing file or the process's own
 * pages (cp_mem_copy.c). Return: 0, or -1 if any byte is unmapped.
 */
int cp_mem_copy(struct ksim_cp *cp, struct ksim_cpq *cq, uint64_t dst, uint64_t src,
		uint64_t len, void *bounce, uint64_t bsize);
/* cp_mem.c, for cp_mem_copy.c: the piece of [va, va+*len) in one mapping
 * (*len cut at its end); its BO's backing file and offset in *@fd, *@off
 * (VRAM, GTT), or the program's address in *@user (userptr). Return: 0;
 * 1 when the piece is neither (SVM, VRAM never written); -1 unmapped. */
int cp_mem_piece(struct ksim_cp *cp, struct ksim_cpq *cq, uint64_t va, uint64_t *len,
		 int write, int *fd, uint64_t *off, uint64_t *user);
/*
 * Zero [va, va+len) of @cq's VM, as cp_mem_rw() writes zeros: the whole
 * pages of VRAM and GTT are dropped from their backing rather than
 * written. Uses cp->bounce. Return: 0, or -1 if any byte is unmapped.
 */
int cp_mem_zero(struct ksim_cp *cp, struct ksim_cpq *cq, uint64_t va,
		uint64_t len);
/* 1 when every byte of [va, va+len) of @cq's VM is reachable, else 0. */
int cp_mem_reaches(struct ksim_cp *cp, struct ksim_cpq *cq, uint64_t va,
		   uint64_t len);
/*
 * The VM fault of a failed access (@write: a store) to [va, va+len) by
 * @cq's engine: *@at gets the first page that faults, the reason is the
 * page's (not present, or read-only for a store), and the process gets
 * what the kernel gives (ksim_event_vm_fault(): its queues on the GPU
 * evicted, its MEMORY events set). Return: how many events were set.
 */
int cp_vm_fault(struct ksim_cp *cp, struct ksim_cpq *cq, uint64_t va,
		uint64_t len, int write, uint64_t *at);

/* cp_stop.c (device lock held) */
/*
 * Stop @cq on an error of its packet or of the waves it started (@code:
 * CP_ERR_*, @ec: the KFD_ABI_EC_* the debugger ABI sees, 0 for none) and
 * give the process what the kernel gives: a packet the CP cannot decode
 * sets its HW_EXCEPTION events, memory the VM refuses at @detail is a VM
 * fault (cp_vm_fault(); @write: a store, which a read-only page refuses
 * too). The caller says the line on stderr first.
 */
void cp_queue_stop(struct ksim_cp *cp, struct ksim_cpq *cq, uint32_t code,
		   int ec, uint64_t detail, int write);

/* cp_aql.c (device lock held) */
/*
 * Process @cq's ring from its read index up to the announced bound.
 * Return: packets retired; cq->pending says whether work remains
 * (a waiting barrier, or a slot announced but not yet valid).
 */
unsigned int cp_aql_run(struct ksim_cp *cp, struct ksim_cpq *cq);

/*
 * The CP's request for more scratch for @cq's next dispatch (ROCr's
 * dynamic scratch): @ask sets error 1 in the queue-inactive signal and
 * sends its interrupt; the runtime grows the scratch and writes the
 * signal back to 0.
 * Return: 1 while the request is pending, 0 once answered, -1 when the
 * queue has no usable queue-inactive signal.
 */
int cp_aql_scratch_request(struct ksim_cp *cp, struct ksim_cpq *cq, int ask);
/* cp_sdma.c (device lock held) */
/*
 * Process @cq's SDMA ring from its read pointer up to the announced
 * bound. Return: packets executed; cq->pending as for cp_aql_run().
 */
unsigned int cp_sdma_run(struct ksim_cp *cp, struct ksim_cpq *cq);

/* cp_pm4.c (device lock held) */
/*
 * Process @cq's PM4 ring from its read pointer up to the write pointer
 * its doorbell announced (dwords, modulo the ring). Return: packets
 * executed; cq->pending as for cp_aql_run().
 */
unsigned int cp_pm4_run(struct ksim_cp *cp, struct ksim_cpq *cq);
/*
 * Run the indirect buffer an AQL PM4_IB vendor packet jumps to (@jump:
 * its INDIRECT_BUFFER packet) on @cq, resuming where a wait left it.
 * Return: 0 when it ended, 1 when a packet waits (call again), -1 when
 * the queue stopped on an error (reported as for a PM4 queue).
 */
int cp_pm4_aql_ib(struct ksim_cp *cp, struct ksim_cpq *cq, const uint32_t *jump);

#endif /* KSIM_CP_PRIV_H */

/* SPDX-License-Identifier: MIT */
/*
 * The debugger's view of a target process (debug.c, debug_ops.c). The
 * target's debugger state lives in its registry slot, so a debugger in
 * another process of the machine acts on it as the kernel does on the
 * target's kfd_process. Everything here runs with the caller's device lock
 * and the registry lock held.
 */
#ifndef KSIM_DEBUG_PRIV_H
#define KSIM_DEBUG_PRIV_H

#include "ksim_priv.h"

struct reg_proc;

/* The process a DBG_TRAP acts on. */
struct dbg_target {
	struct ksim_device *dev;	/* the caller's: the machine's GPUs */
	struct ksim_pdbg *d;
	struct ksim_process *self;	/* the target when it is the caller */
	struct reg_proc *rp;		/* the target's slot otherwise */
};

/*
 * dbg_queue() - the debugger state of the target's queue @qid (its GPU
 * index in *@gpu), or NULL when it has none: queues another process sees
 * are those in its registry entries.
 */
struct ksim_qdbg *dbg_queue(const struct dbg_target *t, uint32_t qid, int *gpu);


/* Write the event the debugger polls for on its dbg_fd. */
void dbg_notify(struct ksim_pdbg *d);

/* kfd_dbg_trap_disable(): end the session, queues resumed. */
void dbg_trap_disable(const struct dbg_target *t);

/* debug_ops.c: the ops on a debug-enabled target. */
int dbg_queues_op(const struct dbg_target *t, uint64_t uptr, uint32_t n,
		  uint64_t clear_mask, int suspend);
int dbg_queue_snapshot(const struct dbg_target *t,
		       struct kfd_abi_dbg_trap_queue_snapshot_args *a);
int dbg_device_snapshot(const struct dbg_target *t,
			struct kfd_abi_dbg_trap_device_snapshot_args *a);
int dbg_set_flags(const struct dbg_target *t, uint32_t *flags);
int dbg_query_debug_event(const struct dbg_target *t,
			  struct kfd_abi_dbg_trap_query_debug_event_args *a);
int dbg_query_exception_info(const struct dbg_target *t,
			     struct kfd_abi_dbg_trap_query_exception_info_args *a);
void dbg_set_exceptions_enabled(const struct dbg_target *t, uint64_t mask);

#endif /* KSIM_DEBUG_PRIV_H */

/* SPDX-License-Identifier: MIT */
/*
 * The run's state (the state part, replay/meson.build): the run, one
 * call being replayed, and what every part of the run reads and keeps:
 * the fd table (fds.c), translation (xlate.c), reporting (report.c), IPC
 * share handles (share.c), stand-ins for outside dma-bufs (dmabuf.c),
 * event ages (ages.c), a tree's replay process (tree_proc.c), and the
 * callbacks into --threads. Nothing here is installed.
 */
#ifndef RP_STATE_H
#define RP_STATE_H

#include "replay_as.h"
#include "replay_recs.h"

struct rp_xfer_inbox;

/* ------------------------------------------------------------------ */
/* The run                                                              */

/* A live fd standing for a captured one. */
struct rp_fdent {
	int live;		/* -1: none */
	uint8_t kind;		/* enum kfd_file_kind, 0 for others */
	int32_t ofd;		/* index into run.ofds, -1 */
	uint8_t from_ioctl;	/* created by an ioctl (dma-buf, SMI) */
};

/* Live side of an open file description. */
struct rp_ofd {
	uint8_t kind;
	int32_t proc;		/* scope of KFD ids */
	int32_t minor;
	uint32_t refs;
};

struct rp_mt_ops;

/*
 * A VRAM buffer a replayed packet may have written (compare.c): its model
 * index, whether from inputs the capture does not hold, and the ranges
 * that hold the capture's bytes since.
 */
struct rp_cmp_bo {
	int32_t bo;
	uint8_t unfed;
	uint8_t nsync;
	uint64_t sync[RP_CMP_SYNC][2];
};

struct kfd_kernels;

struct rp_run {
	/* The earliest exit among the records the stream holds back, set
	 * before each rp_tree_gate() (UINT64_MAX: none). */
	uint64_t held_exit;
	int stall_told;		/* the state at a stall was printed */
	struct kfd_replay *r;
	const struct kfd_replay_opts *o;
	FILE *out;
	const struct rp_rows *rows;
	/*
	 * Reissues a record through the run's ioctl path (rp_run_ioctl()):
	 * held waits and stand-in SET_EVENTs go through it, from inside it.
	 */
	void (*issue)(struct rp_run *st, const struct kt_record *rec);
	struct kc_u64map fwd;	/* captured -> live */
	struct kc_u64map rev;	/* live -> captured */
	struct rp_fdent *fds;
	int nfds;
	struct rp_vec ofds;	/* struct rp_ofd */
	struct rp_vec shares;	/* struct rp_share */
	int nproc;
	int32_t cap_pid, live_pid;
	int ev_read;			/* 1 + the read end of the stand-in
					 * debugger event pipe; 0: none */
	struct rp_as as;
	/* Scratch for argument bytes and rebuilt buffers. */
	uint8_t *arena;
	size_t arena_cap;
	struct kfd_recorder *recorder;
	struct rp_synth *synth;		/* stand-in dma-bufs (dmabuf.c) */
	struct rp_xfer_inbox *inbox;	/* fds that came early (xfer.c) */
	/* Filters. */
	uint64_t only_rec, skip_rec;	/* bit per record type */
	uint8_t *only_row, *skip_row;	/* per schema row */
	int only_ioctl, skip_ioctl;
	int have_only;
	unsigned int nrows;
	const struct kfd_ioctl_desc *row0;
	/* Progress. */
	struct kfd_replay_summary sum;
	uint64_t t0_ns;			/* replay start (monotonic) */
	uint64_t ts0;			/* first replayed record's ts */
	uint64_t sleeps_capped;		/* --timing=original gaps cut short */
	int stop;
	int quiet;			/* compare without reporting */
	int diverged_now;		/* the current record diverged */
	uint64_t notes;			/* notes printed (bounded) */
	int have_live;			/* the current record was reissued: */
	int64_t live_ret;		/* its live result */
	int live_err;
	uint64_t cur_seq;
	const char *cur_name;
	/* Completed waits not released yet (wait.c), oldest first. */
	struct kt_record *waits[RP_MAX_PENDING_WAITS];
	size_t nwaits;
	int in_retry;			/* issuing pending waits again */
	int wait_final;			/* ... the last time: may block */
	int wait_still;			/* the one issued is still pending */
	int fork_noted;
	/* --threads (threads.c): NULL in the serial replay. */
	struct rp_mt *mt;
	const struct rp_mt_ops *mt_ops;	/* set with @mt */
	/* Memory records for the next submit record (resubmit.c). */
	struct kt_record *pending_mem[RP_MAX_PENDING_MEM];
	size_t npending_mem;
	/* ... of them, those compared equal: not written back (compare.c). */
	uint8_t compared[RP_MAX_PENDING_MEM];
	/* VRAM buffers replayed packets may have written (compare.c);
	 * @unfed_all: any of them may lack inputs. */
	struct rp_cmp_bo cmp_bos[RP_MAX_CMP_BOS];
	unsigned int ncmp_bos;
	int unfed_all;
	int cmp_stuck;		/* a queue did not drain: do not wait again */
	/* The kernels of the code objects replayed so far (compare.c). */
	struct kfd_kernels *kernels;
};

/* One ioctl being replayed. */
struct rp_lbuf {
	uint16_t index;		/* into the row's bufs[] */
	uint8_t *p;		/* the live buffer */
	size_t len;
};

struct rp_call {
	const struct kt_record *rec;
	const struct kt_ioctl_rec *io;
	const struct kfd_ioctl_desc *d;
	const struct rp_req_plan *plan;
	uint8_t *args;		/* live argument bytes (>= desc size) */
	uint32_t size;		/* _IOC_SIZE(request) */
	uint32_t clen;		/* bytes of the captured images to read:
				 * min(size, the record's arg_size) */
	int scope;		/* KFD process of the fd */
	int gem_scope;		/* DRM file of the fd */
	int ret;
	int err;
	int wait_try;		/* a completed wait, issued with timeout 0 */
	unsigned int nage;	/* WAIT_EVENTS: the event ages passed (ages.c) */
	uint64_t age_in[RP_AGES_MAX];
	unsigned int nlb;
	struct rp_lbuf lb[KT_MAX_BUFS];
};

/*
 * --threads (threads.c, above the run) runs the records on threads of
 * their own, and by design the run calls back into it: every access to
 * the run happens under one lock, which a worker lets go only while its
 * ioctl is in the kernel: rp_mt_leave() before (@may_block: the call may
 * wait for another thread), rp_mt_enter() after. rp_mt_dep_note() adds,
 * to a divergence report, the record of another thread it waited for.
 * rp_mt_frontier() is the exit time of the earliest record handed to a
 * worker and not done yet, or @next (the record the reader has in hand)
 * if that is earlier. threads.c sets st->mt_ops with st->mt; all are
 * no-ops in the serial replay (no st->mt), but rp_mt_frontier(), which
 * is for --threads only. rp_mt_dump() prints, at a stall, each replay
 * thread's record in hand and what it waits for (times less @base).
 * rp_mt_hand_ahead(), from the reader, hands the records it read ahead
 * to their threads: rp_tree_gate() calls it before it waits for another
 * process, which may wait for one of them. rp_run_stopped() tells
 * whether the replay stopped (a worker sets st->stop under the lock).
 */
struct rp_mt_ops {
	void (*leave)(struct rp_run *st, bool may_block);
	void (*enter)(struct rp_run *st);
	void (*dep_note)(struct rp_run *st);
	uint64_t (*frontier)(struct rp_run *st, uint64_t next);
	void (*dump)(struct rp_run *st, FILE *out, uint64_t base);
	void (*hand_ahead)(struct rp_run *st);
	int (*stopped)(struct rp_run *st);
};

static inline void
rp_mt_leave(struct rp_run *st, bool may_block)
{
	if (st->mt)
		st->mt_ops->leave(st, may_block);
}

static inline void
rp_mt_enter(struct rp_run *st)
{
	if (st->mt)
		st->mt_ops->enter(st);
}

static inline void
rp_mt_dep_note(struct rp_run *st)
{
	if (st->mt)
		st->mt_ops->dep_note(st);
}

static inline uint64_t
rp_mt_frontier(struct rp_run *st, uint64_t next)
{
	return st->mt_ops->frontier(st, next);
}

static inline int
rp_run_stopped(struct rp_run *st)
{
	return st->mt ? st->mt_ops->stopped(st) : st->stop;
}

static inline void
rp_mt_hand_ahead(struct rp_run *st)
{
	if (st->mt)
		st->mt_ops->hand_ahead(st);
}

static inline void
rp_mt_dump(struct rp_run *st, FILE *out, uint64_t base)
{
	if (st->mt)
		st->mt_ops->dump(st, out, base);
}

/*
 * tree_proc.c, in the replay process of one trace of a tree: rp_tree_fork()
 * forks the replay of the forked child @child_pid where the trace has its
 * FORK record (-ENOENT: not in the tree); rp_tree_begin() gives a forked
 * child's replay its parent's fd table; rp_tree_gate() waits before @rec
 * until the other processes are past what returned before it entered;
 * rp_tree_share_learn()/_xlate() share IPC tokens between processes
 * (_xlate: 1 when it found @handle).
 */
int rp_tree_fork(struct rp_run *st, int32_t child_pid);
int rp_tree_begin(struct rp_run *st);
void rp_tree_gate(struct rp_run *st, const struct kt_record *rec);
/*
 * rp_tree_await() - this process starts (@waiting) or stops waiting for
 * the fds of record @send_seq of node @send_node (xfer.c). Until that send
 * is done, the records of that node up to it do not wait for this process.
 */
void rp_tree_await(struct rp_run *st, unsigned int send_node, uint64_t send_seq,
		   bool waiting);
/*
 * rp_tree_publish() - tell the other processes that every record of this
 * one that returns before @exit_ts is done (rp_tree_gate() does it for
 * the serial replay; --threads, whose records are done on its workers,
 * from rp_mt_frontier()).
 */
void rp_tree_publish(struct rp_run *st, uint64_t exit_ts);
/*
 * rp_tree_stall() - at the first stall of this process (@rec waited in
 * vain), print to its report what every replay process publishes and
 * what each of this one's replay threads has in hand and waits for.
 */
void rp_tree_stall(struct rp_run *st, const struct kt_record *rec);
/* rp_tree_ended() - whether the replay of node @node has ended. */
bool rp_tree_ended(struct rp_run *st, unsigned int node);
void rp_tree_share_learn(struct rp_run *st, const uint8_t *cap,
			 const uint8_t *live);
int rp_tree_share_xlate(struct rp_run *st, uint8_t *handle);
/*
 * rp_tree_pid_live() - the live pid of another process of the tree whose
 * captured pid is @cap_pid; 0 when none (not a tree, not in it, or not
 * started yet).
 * rp_tree_trace() - become the ptrace parent of the live process
 * @live_pid, as the capture's caller was of its counterpart (amdkfd lets
 * DBG_TRAP act on another process only for its tracer); it keeps running.
 */
int32_t rp_tree_pid_live(const struct rp_run *st, int32_t cap_pid);
void rp_tree_trace(struct rp_run *st, int32_t live_pid);
/*
 * rp_tree_await_end() - wait (up to the wait cap) until the replay of the
 * process whose captured pid is @cap_pid has ended, when its trace ends
 * before @ts: a call at @ts on it found none (ESRCH).
 */
void rp_tree_await_end(struct rp_run *st, int32_t cap_pid, uint64_t ts);

/*
 * ages.c: event ages (KFD 1.14; which events released a wait:
 * rp_wait_fired(), recs.c). rp_age_in() - in the live arguments of
 * WAIT_EVENTS @c, each captured input age as its live counterpart (kept
 * in @c->age_in). rp_age_check() - verify the age the live element
 * @live_out (index @idx) got back against the captured one @cap_out and
 * learn it; then the captured age is put in @live_out, so that the rest
 * of the element is compared as any output.
 */
void rp_age_in(struct rp_run *st, struct rp_call *c);
void rp_age_check(struct rp_run *st, struct rp_call *c, size_t idx,
		  const uint8_t *cap_out, uint8_t *live_out);
/*
 * rp_age_count_set() - the SET_EVENT @rec succeeded live (@gpu: it was a
 * stand-in, counted again). rp_age_due() - whether the completed wait
 * @rec may be issued now: each event that released it in the capture
 * has been set live as often as there (by its age, or by the CPU sets
 * that entered before the wait returned); 1 without ages.
 */
void rp_age_count_set(struct rp_run *st, const struct kt_record *rec, int gpu);
/*
 * rp_age_reached() - whether event @id released the completed wait @rec
 * in the capture and has, live, the age it got back then: a set of it
 * now would give the wait an age too old (--threads holds it back).
 */
int rp_age_reached(const struct rp_run *st, const struct kt_record *rec,
		   uint32_t id);
int rp_age_due(const struct rp_run *st, const struct kt_record *rec);
/*
 * rp_age_lack() - element @i of the events the completed wait @rec passed
 * (Return: 0 past the end): its event in @id and, if it released the
 * wait in the capture and every CPU set of it that entered before the
 * wait returned has been replayed, in @n the sets its returned age still
 * lacks (engines' interrupts), which rp_age_stand_in() (wait.c) makes in
 * the GPU's stead before the wait is issued; else 0 in @n.
 */
int rp_age_lack(const struct rp_run *st, const struct kt_record *rec, size_t i,
		uint32_t *id, uint64_t *n);
/*
 * In the state part, each file calls only those after it in this list
 * (no cycle): event ages (ages.c), IPC share handles (share.c), a tree's
 * replay process (tree_proc.c), stand-ins for outside dma-bufs
 * (dmabuf.c), reporting (report.c), translation (xlate.c) and the fd
 * table (fds.c). The run (run_ioctl.c, run_sys.c) makes a call's dma-buf
 * stand-ins before it translates the call's inputs, so translation never
 * creates anything. What goes back up, to --threads and the tree's
 * coordinator, goes through callbacks (struct rp_mt_ops, struct
 * rp_tree's start).
 */

/*
 * share.c: ROCm IPC share handles are random bytes the kernel picks at
 * export; an import in the same session must name the live ones.
 */
struct rp_share {
	uint8_t cap[16], live[16];
};

/* Bind the share handle @cap (16 bytes) exported at capture to @live. */
void rp_share_learn(struct rp_run *st, const uint8_t *cap,
		    const uint8_t *live);
/* Rewrite a captured share handle in place; unknown ones stay as they are. */
void rp_share_xlate(struct rp_run *st, uint8_t *handle);

/*
 * dmabuf.c: stand-ins for dma-bufs the captured process got from outside.
 * rp_dmabuf_stand_in() - before the run translates an input naming the
 * captured fd @cap_fd: when no live fd stands for it and the model has an
 * outside dma-buf for it (its GET_DMABUF_INFO), make one on the live
 * render node and bind it to @cap_fd. Return: the live fd, or -1 (none,
 * unknown origin, no libdrm_amdgpu, failure). rp_dmabuf_release() frees
 * the stand-ins at the end of a run.
 */
struct rp_synth;
int rp_dmabuf_stand_in(struct rp_run *st, int32_t cap_fd);
void rp_dmabuf_release(struct rp_run *st);

/*
 * report.c: divergences at the current record, each counted, printed up
 * to --max-reported with the last record that matched, and stopping the
 * run unless --keep-going. rp_diverge() - of output @field: @captured,
 * @expected (the captured value after mapping, when @has_expected),
 * @live, and @fmt's words on why; rp_diverge_result() - of the result, in
 * errno terms; rp_diverge_order() - of order (below).
 */
void rp_diverge(struct rp_run *st, const char *field, uint64_t captured,
		uint64_t expected, int has_expected, uint64_t live,
		const char *fmt, ...) __attribute__((format(printf, 7, 8)));
void rp_diverge_result(struct rp_run *st, int64_t cret, int cerr, int lret,
		       int lerr);
/*
 * rp_diverge_order() - the record is a use sequence order does not satisfy
 * (order.c): it is not issued (its id would name another object, or
 * none), and the report names the record it depends on.
 */
void rp_diverge_order(struct rp_run *st, const struct rp_m_dep *d);
/* report.c: a note on the current record (the first 50 are printed). */
void rp_note(struct rp_run *st, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* report.c: the summary at the end of a replay. */
void rp_print_summary(const struct rp_run *st, FILE *out);

/* xlate.c: value translation, captured -> live (reads the fd table). */
uint32_t rp_gpu_xlate(const struct rp_run *st, uint32_t gpu_id);
uint64_t rp_handle_xlate(const struct rp_run *st, int scope, uint64_t h);
uint64_t rp_kfd_offset_xlate(const struct rp_run *st, uint64_t off);
uint64_t rp_offset_xlate(const struct rp_run *st, uint64_t off);
uint64_t rp_value_xlate(struct rp_run *st, const struct kfd_field *f,
			int scope, int gem_scope, uint64_t v);

/*
 * fds.c: the fd table. rp_fd_get() - the entry standing for captured fd
 * @fd, or NULL; rp_fd_live() - its live fd, or -1; rp_fd_bind() - @live
 * (of @kind, open file description @ofd or -1; @from_ioctl: made by an
 * ioctl or a stand-in, closed when the number is bound again) stands for
 * @fd from now on; rp_fd_unbind() - nothing does.
 */
struct rp_fdent *rp_fd_get(struct rp_run *st, int32_t fd);
int rp_fd_live(struct rp_run *st, int32_t fd);
void rp_fd_bind(struct rp_run *st, int32_t fd, int live, uint8_t kind,
		int32_t ofd, int from_ioctl);
void rp_fd_unbind(struct rp_run *st, int32_t fd);
/* rp_ofd_new() - a new open file description of @kind (render: minor
 * @minor): its index, or -1. */
int32_t rp_ofd_new(struct rp_run *st, uint8_t kind, int32_t minor);

/*
 * report.c: rp_mark_own() - in a recording of the replay, say what the
 * call just made is (@fmt: one of the KFD_REPLAY_*_NOTE annotations, with
 * the captured record's number for TRY and DONE).
 */
void rp_mark_own(struct rp_run *st, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

#endif /* RP_STATE_H */

/* SPDX-License-Identifier: MIT */
/*
 * Internals of the replayer (replay/): the object model built from a
 * trace, the topology view, the value maps, the address-space plan and the
 * run state. Nothing here is installed.
 */
#ifndef RP_PRIV_H
#define RP_PRIV_H

/*
 * The parts, in the order they build on each other: bounds and containers,
 * records in replay order, the schema rows, the model (topology, objects,
 * GPU matching), the address space; then the handle and the run below.
 */
#include "replay_base.h"
#include "replay_stream.h"
#include "replay_rows.h"
#include "replay_model.h"
#include "replay_as.h"

/* ------------------------------------------------------------------ */
/* The handle                                                           */

struct kfd_replay {
	char *path;
	struct rp_model model;
	struct rp_match match;
	int matched;
	/* A process of a tree replay (tree.c), in its replay process. */
	struct rp_tree *tree;
	int tree_self;			/* its node */
	const struct rp_run *inherit;	/* forked: its parent's replay */
	const struct rp_xfer_plan *xplan; /* tree: fd transfers paired */
};

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

struct rp_run {
	/* The earliest exit among the records the stream holds back, set
	 * before each rp_tree_gate() (UINT64_MAX: none). */
	uint64_t held_exit;
	struct kfd_replay *r;
	const struct kfd_replay_opts *o;
	FILE *out;
	const struct rp_rows *rows;
	struct kc_u64map fwd;	/* captured -> live */
	struct kc_u64map rev;	/* live -> captured */
	struct rp_fdent *fds;
	int nfds;
	struct rp_vec ofds;	/* struct rp_ofd */
	struct rp_vec shares;	/* struct rp_share */
	int nproc;
	int32_t cap_pid, live_pid;
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
	/* Memory records for the next submit record (resubmit.c). */
	struct kt_record *pending_mem[RP_MAX_PENDING_MEM];
	size_t npending_mem;
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
 * run.c: one record of the pass. rp_run_admit() says whether @rec is
 * replayed (it notes forks and execs, counts what the filters leave out);
 * rp_run_record() replays it and counts it. rp_time_due() is how long
 * --timing=original sleeps before @rec (ns), rp_sleep_ns() sleeps.
 */
int rp_actionable(unsigned int type);
/* Add one pass's or process's counters to a total (first divergence kept). */
void rp_sum_add(struct kfd_replay_summary *t,
		const struct kfd_replay_summary *s);
const char *rp_rec_name(const struct kt_record *rec);
int rp_run_admit(struct rp_run *st, const struct kt_record *rec);
void rp_run_record(struct rp_run *st, const struct kt_record *rec);
uint64_t rp_time_due(struct rp_run *st, const struct kt_record *rec);
void rp_sleep_ns(uint64_t ns);

/*
 * threads.c: --threads. rp_threads_run() replays the pass from @s with
 * each captured thread on a thread of its own; the caller's thread reads
 * the stream and hands every record to its thread's queue. Every access
 * to @st happens under one lock, which a worker lets go only while its
 * ioctl is in the kernel: rp_mt_leave() before (@may_block: the call
 * may wait for another thread), rp_mt_enter() after (no-ops in the
 * serial replay). rp_mt_dep_note() adds, to a divergence
 * report, the record of another thread it waited for.
 * Return: as rp_stream_next() at the end of the stream (0, or negative).
 */
int rp_threads_run(struct rp_run *st, struct rp_stream *s);
void rp_mt_leave(struct rp_run *st, bool may_block);
void rp_mt_enter(struct rp_run *st);
void rp_mt_dep_note(struct rp_run *st);

/*
 * tree.c, in the replay process of one trace of a tree: rp_tree_fork()
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
/* rp_tree_blocked() - whether rp_tree_gate() would wait now. */
int rp_tree_blocked(struct rp_run *st, const struct kt_record *rec);
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
 * rp_mt_frontier() - with --threads, the exit time of the earliest record
 * handed to a worker and not done yet, or @next (the record the reader
 * has in hand) if that is earlier.
 */
uint64_t rp_mt_frontier(struct rp_run *st, uint64_t next);

/* The capture time a record returned at (entered, for a non-ioctl). */
static inline uint64_t
rp_rec_exit(const struct kt_record *rec)
{
	return (rec->type == KT_REC_IOCTL || rec->type == KT_REC_FD_TRANSFER) ?
	       kt_record_end(rec) : rec->ts;
}
void rp_tree_share_learn(struct rp_run *st, const uint8_t *cap,
			 const uint8_t *live);
int rp_tree_share_xlate(struct rp_run *st, uint8_t *handle);

/* run_ioctl.c */
void rp_run_ioctl(struct rp_run *st, const struct kt_record *rec);

/*
 * wait.c: completed waits in the serial replay. rp_wait_completed() says
 * whether @io is a wait that completed in the capture (the replay issues
 * it with timeout 0); rp_wait_hold() keeps a copy of one whose live events
 * are not signalled yet (0, or -ENOMEM/-ENOSPC: compare it now);
 * rp_wait_before()/rp_wait_after() run around every replayed ioctl @d
 * (held waits go again after a SET_EVENT, a last time before the
 * DESTROY_EVENT of one of their events); rp_wait_flush() ends a pass.
 */
int rp_wait_completed(const struct rp_rows *r, const struct kfd_ioctl_desc *d,
		      const struct kt_ioctl_rec *io);
/*
 * rp_wait_ids() - the event ids the WAIT_EVENTS @rec names, as captured
 * (up to @max into @ids). Return: how many it names (maybe more than
 * @max), or -1 when the record does not tell.
 */
int rp_wait_ids(const struct rp_rows *r, const struct kt_record *rec,
		uint32_t *ids, size_t max);
/*
 * rp_set_event_id() - whether @rec is a SET_EVENT; its captured event id
 * in @id.
 */
int rp_set_event_id(const struct rp_rows *r, const struct kt_record *rec,
		    uint32_t *id);
/*
 * rp_wait_stand_in_ids() - the events (at most @max, into @ids) that stand-in
 * SET_EVENTs raise for the completed wait @rec when no CPU call of the
 * capture released it; 0 when a CPU call did, when the wait passed event
 * ages (rp_age_stand_in() stands in by them), or nothing applies.
 */
int rp_wait_stand_in_ids(const struct rp_model *m, const struct rp_rows *r,
			 const struct kt_record *rec, uint32_t *ids, int max);
/*
 * rp_wait_stand_in() - raise in the GPU's stead the interrupts that
 * released the completed wait @rec: SET_EVENT of each of its events (a
 * wait for all) or of its first (a wait for any), counted in gpu_sets.
 */
void rp_wait_stand_in(struct rp_run *st, const struct kt_record *rec);
/*
 * rp_mark_own() - in a recording of the replay, say what the call just
 * made is (@fmt: one of the KFD_REPLAY_*_NOTE annotations, with the
 * captured record's number for TRY and DONE).
 */
void rp_mark_own(struct rp_run *st, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
int rp_wait_hold(struct rp_run *st, const struct kt_record *rec);
void rp_wait_before(struct rp_run *st, const struct kt_record *rec,
		    const struct kfd_ioctl_desc *d);
void rp_wait_after(struct rp_run *st, const struct kt_record *rec,
		   const struct kfd_ioctl_desc *d);
void rp_wait_flush(struct rp_run *st);
/*
 * rp_wait_set() - a SET_EVENT of captured event @id in the GPU's stead,
 * for the completed wait @rec, counted in gpu_sets.
 */
void rp_wait_set(struct rp_run *st, const struct kt_record *rec, uint32_t id);

/*
 * ages.c: event ages (KFD 1.14). rp_wait_fired() - the events (at most
 * @max, into @ids) whose age the completed wait @rec got back advanced in
 * the capture, i.e. that released it. Return: their number, or -1 when
 * the wait passed no ages. rp_age_in() - in the live arguments of
 * WAIT_EVENTS @c, each captured input age as its live counterpart (kept
 * in @c->age_in). rp_age_check() - verify the age the live element
 * @live_out (index @idx) got back against the captured one @cap_out and
 * learn it; then the captured age is put in @live_out, so that the rest
 * of the element is compared as any output.
 */
int rp_wait_fired(const struct rp_rows *r, const struct kt_record *rec,
		  uint32_t *ids, int max);
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
 * rp_age_stand_in() - before the completed wait @rec is issued: for each
 * event that released it in the capture, once every CPU set of it that
 * entered before the wait returned has been replayed, the sets its
 * returned age still lacks (engines' interrupts) in the GPU's stead.
 */
void rp_age_stand_in(struct rp_run *st, const struct kt_record *rec);
/*
 * resubmit.c: publish a submit record's packets on the replayed queue;
 * hold a memory record for the submit record after it.
 */
void rp_resubmit(struct rp_run *st, const struct kt_record *rec);
void rp_resubmit_memory(struct rp_run *st, const struct kt_record *rec);
/* Drop memory records no submit record followed (the end of a run). */
void rp_resubmit_clear(struct rp_run *st);
/*
 * Below the run, each part calls only those after it in this list (no
 * cycle): fds passed between processes (xfer.c), the comparisons
 * (verify.c, then verify_special.c), IPC share handles (share.c),
 * stand-ins for outside dma-bufs (dmabuf.c), reporting
 * (report.c), translation (xlate.c) and the fd table (fds.c). The run
 * (run_ioctl.c, run_sys.c) makes a call's dma-buf stand-ins before it
 * translates the call's inputs, so translation never creates anything.
 * Three calls go back up, to the process tree and the threads: share.c
 * hands share handles to the other processes (tree.c), a divergence
 * report names the record another thread waited for, and xfer.c lets
 * the run's lock go while it waits for fds (threads.c).
 */

/*
 * xfer.c: fds passed between the processes of a tree over Unix sockets.
 * rp_xfer_plan_build() pairs, before the tree starts, each receive of an
 * fd_transfer record with the send it got its fds from, and makes a
 * socket for every process that receives; rp_xfer_run() replays one
 * record: a paired send passes the live fds standing for the captured
 * ones to the receiver's socket, a paired receive waits for them and
 * binds them to its captured numbers. rp_xfer_release() closes fds
 * that came and were never claimed (end of a run).
 */
struct rp_xfer_plan;
struct rp_xfer_inbox;
struct rp_xfer_plan *rp_xfer_plan_build(struct kfd_replay *const *rs,
					unsigned int n, FILE *out);
void rp_xfer_plan_free(struct rp_xfer_plan *p);
/*
 * rp_xfer_partner() - the send (*@send_node's record *@send_seq) the
 * receive @recv_seq of @recv_node is paired with. Return: 1, or 0 (none).
 */
int rp_xfer_partner(const struct rp_xfer_plan *p, unsigned int recv_node,
		    uint64_t recv_seq, unsigned int *send_node,
		    uint64_t *send_seq);
void rp_xfer_run(struct rp_run *st, const struct kt_record *rec);
void rp_xfer_release(struct rp_run *st);

/* run_sys.c */
void rp_run_sys(struct rp_run *st, const struct kt_record *rec);
/*
 * Whether @path is a device file the replay opens for @kind: /dev/kfd, a
 * render node (no "..").
 */
int rp_device_path(const char *path, uint8_t kind);
/* run_ioctl.c: the image of indirect buffer @index of @io, or NULL. */
const struct kt_buf_image *rp_find_image(const struct kt_ioctl_rec *io,
					 unsigned int index);

/* verify.c: compare a replayed call with its record; learn new ids. */
void rp_verify_call(struct rp_run *st, struct rp_call *c);
/* verify.c: after a successful destroy, forget the ids it ended. */
void rp_forget_call(struct rp_run *st, struct rp_call *c);
/*
 * verify.c: what --verify=strict does with an output field, from its row
 * and role alone (plan.c lists the fields by it).
 */
enum rp_out_class {
	RP_OUT_IGNORE,		/* never compared (padding, clocks, ...) */
	RP_OUT_EXACT,		/* compared as is */
	RP_OUT_MAPPED,		/* learned, or translated before comparing */
};

enum rp_out_class rp_out_class(const struct rp_rows *r,
			       const struct kfd_field *f);
/*
 * rp_out_vclass() - what the comparison does with the output value @cap of
 * field @f: ignore it, compare it as is, learn it (a kernel-chosen id),
 * translate it and compare, or bind the fd it is. @role is set to the
 * role the value has on output (some fields change meaning).
 */
enum rp_vclass { RP_V_EXACT, RP_V_IGNORE, RP_V_LEARN, RP_V_XLATE, RP_V_FD };
enum rp_vclass rp_out_vclass(const struct rp_rows *r, const struct kfd_field *f,
			     uint64_t cap, unsigned int *role);

/* verify_special.c: apertures (Return: 1 when the call was one), AMDGPU_INFO
 * queries that vary by themselves, SVM attributes. */
int rp_check_special(struct rp_run *st, struct rp_call *c);
int rp_info_variable(const struct rp_run *st, const struct rp_call *c);
/* Whether AMDGPU_INFO argument bytes ask for a value that varies by itself. */
int rp_info_query_varies(const struct rp_rows *r, const uint8_t *args,
			 size_t len);
void rp_check_svm_attrs(struct rp_run *st, struct rp_call *c);

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
/* rp_trace_whole() - whether the trace ends with a clean END record, so
 * that every record the capture made was read: only then can a replay's
 * verdict speak for the capture. */
bool rp_trace_whole(const struct rp_model *m);
/* rp_print_lack() - what a trace that is not whole lacks, to follow "the
 * trace ": "has no END record (...)" or "is damaged (what the reader
 * found)". */
void rp_print_lack(FILE *out, const struct rp_model *m);

/* xlate.c: value translation, captured -> live (reads the fd table). */
uint32_t rp_gpu_xlate(const struct rp_run *st, uint32_t gpu_id);
uint64_t rp_handle_xlate(const struct rp_run *st, int scope, uint64_t h);
uint64_t rp_kfd_offset_xlate(const struct rp_run *st, uint64_t off);
uint64_t rp_offset_xlate(const struct rp_run *st, uint64_t off);
uint64_t rp_value_xlate(struct rp_run *st, const struct kfd_field *f,
			int scope, int gem_scope, uint64_t v);
/* Whether an input of @role names something rp_value_xlate() maps. */
int rp_role_translated(unsigned int role);

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

#endif /* RP_PRIV_H */

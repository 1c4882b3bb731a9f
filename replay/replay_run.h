/* SPDX-License-Identifier: MIT */
/*
 * Replaying a record (the run part, replay/meson.build): the record's
 * admission and counting (run_record.c), ioctls (run_ioctl.c), the other
 * calls (run_sys.c), completed waits (wait.c), submissions (resubmit.c),
 * fds passed between processes (xfer.c). Nothing here is installed.
 */
#ifndef RP_RUN_H
#define RP_RUN_H

#include "replay_verify.h"

/*
 * run_record.c: one record of the pass. rp_run_admit() says whether @rec
 * is replayed (it notes forks and execs, counts what the filters leave
 * out); rp_run_record() replays it and counts it. rp_time_due() is how
 * long --timing=original sleeps before @rec (ns).
 */
/* Add one pass's or process's counters to a total (first divergence kept). */
void rp_sum_add(struct kfd_replay_summary *t,
		const struct kfd_replay_summary *s);
int rp_run_admit(struct rp_run *st, const struct kt_record *rec);
void rp_run_record(struct rp_run *st, const struct kt_record *rec);
uint64_t rp_time_due(struct rp_run *st, const struct kt_record *rec);

/* run_ioctl.c */
void rp_run_ioctl(struct rp_run *st, const struct kt_record *rec);

/*
 * wait.c: completed waits in the serial replay (rp_wait_completed() says
 * which, recs.c). rp_wait_hold() keeps a copy of one whose live events
 * are not signalled yet (0, or -ENOMEM/-ENOSPC: compare it now);
 * rp_wait_before()/rp_wait_after() run around every replayed ioctl @d
 * (held waits go again after a SET_EVENT, a last time before the
 * DESTROY_EVENT of one of their events); rp_wait_flush() ends a pass.
 */
/*
 * rp_wait_stand_in() - raise in the GPU's stead the interrupts that
 * released the completed wait @rec: SET_EVENT of each of its events (a
 * wait for all) or of its first (a wait for any), counted in gpu_sets.
 */
void rp_wait_stand_in(struct rp_run *st, const struct kt_record *rec);
/*
 * rp_age_stand_in() - before the completed wait @rec is issued, with
 * event ages: the SET_EVENTs rp_age_lack() (ages.c) says its events
 * lack, in the GPU's stead.
 */
void rp_age_stand_in(struct rp_run *st, const struct kt_record *rec);
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
 * resubmit.c: publish a submit record's packets on the replayed queue;
 * hold a memory record for the submit record after it.
 */
void rp_resubmit(struct rp_run *st, const struct kt_record *rec);
void rp_resubmit_memory(struct rp_run *st, const struct kt_record *rec);
/* Drop memory records no submit record followed (the end of a run). */
void rp_resubmit_clear(struct rp_run *st);
/*
 * compare.c: what the replayed engines computed. rp_compare_sources() -
 * before the SDMA submit @s is published: each held copy source in VRAM
 * that the copy reads as the capture saw it is compared with the replay's
 * bytes there (a difference diverges); @keep[i] is set for each held
 * memory record not to write back: RP_CMP_EQUAL (compared equal) or
 * RP_CMP_KEPT (the capture read it before the packets the copy waits for
 * ran: the replay's bytes stay, and the copy's destination is not
 * checked against the capture's).
 * rp_mem_get() - read @len bytes at @addr of this process: 0, or -1 (not
 * mapped).
 */
enum { RP_CMP_EQUAL = 1, RP_CMP_KEPT = 2 };
void rp_compare_sources(struct rp_run *st, const struct kt_submit_rec *s,
			uint8_t *keep);
/*
 * rp_compare_follow() - after rp_compare_sources(), for the submit @s:
 * the VRAM buffers its dispatches and copies write from inputs the
 * capture does not hold are marked; a difference there is not a
 * divergence.
 */
void rp_compare_follow(struct rp_run *st, const struct kt_submit_rec *s);
int rp_mem_get(void *dst, uint64_t addr, size_t len);
/*
 * rp_copy_settled() - whether the copy of @len bytes from @src in the
 * SDMA packets @p (@n bytes) reads what the capture saw at the doorbell:
 * 1, no packet before it polls memory or writes into its source; 0, one
 * does; -1, no such copy.
 */
int rp_copy_settled(const uint8_t *p, size_t n, uint64_t src, uint64_t len);
/*
 * rp_cpu_of() - where this process sees the captured GPU VA @va: a
 * userptr's CPU address (its GPU VA may differ), relocated as the
 * replay's CPU address space has it.
 */
uint64_t rp_cpu_of(const struct rp_run *st, uint64_t va);
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

#endif /* RP_RUN_H */

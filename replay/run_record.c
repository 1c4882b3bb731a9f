/* SPDX-License-Identifier: MIT */
/*
 * One record of a pass: whether it is replayed (forks, execs and the
 * filters), replaying it, --timing=original, and the counters a pass adds
 * to a total. The serial replay (run.c) and the workers of --threads
 * (threads.c) both come here.
 */
#include <errno.h>
#include <inttypes.h>

#include <kfdtrace/decode.h>
#include <kfdtrace/dispatch.h>

#include "replay_run.h"

static int
row_flag(const struct rp_run *st, const uint8_t *flags,
	 const struct kt_record *rec)
{
	const struct kfd_ioctl_desc *d;

	if (rec->type != KT_REC_IOCTL)
		return 0;
	d = kt_ioctl_row(&rec->u.ioctl);
	return d && d >= st->row0 && d < st->row0 + st->nrows &&
	       flags[d - st->row0];
}

static int
filtered(const struct rp_run *st, const struct kt_record *rec)
{
	const struct kfd_replay_opts *o = st->o;

	if (rec->seq < o->from_seq || (o->to_seq && rec->seq > o->to_seq))
		return 1;
	if (!st->have_only && !o->skip)
		return 0;
	if (st->have_only && !(st->only_rec & (1ull << rec->type)) &&
	    !row_flag(st, st->only_row, rec))
		return 1;
	if ((st->skip_rec & (1ull << rec->type)) ||
	    row_flag(st, st->skip_row, rec))
		return 1;
	return 0;
}

/*
 * --timing=original: how long to sleep before @rec so that it starts at
 * its captured offset from the first record, in ns. A gap longer than the
 * cap (a forged or broken timestamp can ask for years) is cut to it, and
 * the schedule moves on from there.
 */
uint64_t
rp_time_due(struct rp_run *st, const struct kt_record *rec)
{
	uint64_t cap = (st->o->max_sleep_ms ? st->o->max_sleep_ms : 10000) *
		       1000000ull;
	uint64_t due, now, gap;

	if (!st->ts0) {
		st->ts0 = rec->ts;
		return 0;
	}
	if (rec->ts <= st->ts0)
		return 0;
	now = kfd_dispatch_now();
	gap = rec->ts - st->ts0;
	if (gap > UINT64_MAX - st->t0_ns)
		gap = UINT64_MAX - st->t0_ns;
	due = st->t0_ns + gap;
	if (due > now && due - now > cap) {
		if (!st->sleeps_capped++)
			fprintf(st->out, "warning: #%" PRIu64 " %s: the trace asks "
				"for a pause of %.3f s before it; pauses are cut "
				"to %.3f s\n", rec->seq, rp_rec_name(rec),
				(double)(due - now) / 1e9, (double)cap / 1e9);
		/* Later records keep their gaps from this one. */
		st->ts0 += due - now - cap;
		due = now + cap;
	}
	return due > now ? due - now : 0;
}

static void
verbose_line(struct rp_run *st, const struct kt_record *rec)
{
	struct kfd_decode_opts d = { .start_ns = st->r->model.hdr.start_monotonic,
				     .flags = KFD_DECODE_SEQ };
	struct kt_strbuf sb;

	kt_strbuf_init(&sb);
	kfd_decode_text(&sb, rec, &d);
	fprintf(st->out, "replay %s", sb.data ? sb.data : "");
	if (st->have_live && st->live_ret < 0) {
		const char *n = kfd_errno_name(st->live_err);

		fprintf(st->out, "  -> replayed -1 %s", n ? n : "?");
	} else if (st->have_live) {
		fprintf(st->out, "  -> replayed %" PRId64, st->live_ret);
	}
	fprintf(st->out, "%s\n", st->diverged_now ? "  <-- diverged" : "");
	kt_strbuf_release(&sb);
}

int
rp_run_admit(struct rp_run *st, const struct kt_record *rec)
{
	if (!rp_actionable(rec->type)) {
		if (rec->type == KT_REC_FORK && rec->u.fork.child_pid &&
		    st->r->tree && rp_tree_fork(st, rec->u.fork.child_pid) == 0) {
			/* Its replay goes on in a process of its own. */
		} else if (rec->type == KT_REC_FORK && rec->u.fork.child_pid &&
			   !st->fork_noted++) {
			st->cur_seq = rec->seq;
			st->cur_name = "fork";
			rp_note(st, "the child (pid %d) has a trace of its own; "
				"replay it separately", rec->u.fork.child_pid);
		} else if (rec->type == KT_REC_EXEC) {
			char safe[512];

			st->cur_seq = rec->seq;
			st->cur_name = "exec";
			rp_note(st, "the captured image ends here (exec of %s)",
				rec->u.exec.path ?
				kfd_text_safe(safe, sizeof(safe),
					      rec->u.exec.path, 4096) : "?");
		}
		return 0;
	}
	if (filtered(st, rec)) {
		st->sum.filtered++;
		return 0;
	}
	return 1;
}

void
rp_run_record(struct rp_run *st, const struct kt_record *rec)
{
	st->cur_seq = rec->seq;
	st->diverged_now = 0;
	st->have_live = 0;
	if (rec->type == KT_REC_IOCTL)
		rp_run_ioctl(st, rec);
	else if (rec->type == KT_REC_SUBMIT)
		rp_resubmit(st, rec);
	else if (rec->type == KT_REC_MEMORY)
		rp_resubmit_memory(st, rec);
	else if (rec->type == KT_REC_FD_TRANSFER)
		rp_xfer_run(st, rec);
	else
		rp_run_sys(st, rec);
	st->sum.records++;
	if (!st->diverged_now)
		st->sum.last_ok_seq = rec->seq;
	if (st->o->verbose)
		verbose_line(st, rec);
}

void
rp_sum_add(struct kfd_replay_summary *t, const struct kfd_replay_summary *s)
{
	t->records += s->records;
	t->ioctls += s->ioctls;
	t->filtered += s->filtered;
	t->not_replayed += s->not_replayed;
	if (t->first_divergence_seq == UINT64_MAX && s->divergences)
		t->first_divergence_seq = s->first_divergence_seq;
	t->divergences += s->divergences;
	t->topology_notes += s->topology_notes;
	t->raced += s->raced;
	t->last_ok_seq = s->last_ok_seq;
	t->mapped_fds += s->mapped_fds;
	t->mapped_handles += s->mapped_handles;
	t->mapped_queues += s->mapped_queues;
	t->mapped_events += s->mapped_events;
	t->mapped_gem += s->mapped_gem;
	t->mapped_offsets += s->mapped_offsets;
	t->cpu_mappings += s->cpu_mappings;
	t->synthesized += s->synthesized;
	t->gpu_sets += s->gpu_sets;
	t->ages_offset += s->ages_offset;
	t->resubmitted += s->resubmitted;
	t->unretired += s->unretired;
	t->memory_restored += s->memory_restored;
	t->copies_checked += s->copies_checked;
	t->compared += s->compared;
	t->compared_bytes += s->compared_bytes;
	t->compared_differ += s->compared_differ;
	t->compared_unfed += s->compared_unfed;
	t->compare_busy += s->compare_busy;
	t->compare_waited += s->compare_waited;
	t->ib_skipped += s->ib_skipped;
	if (s->relocations > t->relocations)
		t->relocations = s->relocations;
	t->loops += s->loops;
	t->seconds += s->seconds;
	t->cpu_seconds += s->cpu_seconds;
}

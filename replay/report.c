/* SPDX-License-Identifier: MIT */
/*
 * What a replay reports: each divergence (the record, the field, the
 * captured, expected and live values, the last record that matched),
 * notes, and the summary printed at the end. The comparisons (verify.c,
 * verify_special.c), the system-call records (run_sys.c) and the rest of
 * the run call in here; nothing here calls back into them.
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include <kfdtrace/decode.h>
#include <kfdtrace/recorder.h>

#include "replay_state.h"

static const char *
err_name(int err, char *buf, size_t len)
{
	const char *n = kfd_errno_name(err);

	if (n)
		return n;
	snprintf(buf, len, "errno %d", err);
	return buf;
}

static void
diverge_head(struct rp_run *st)
{
	if (st->quiet)
		return;
	st->sum.divergences++;
	if (st->sum.first_divergence_seq == UINT64_MAX)
		st->sum.first_divergence_seq = st->cur_seq;
	st->diverged_now = 1;
	if (!st->o->keep_going)
		st->stop = 1;
}

static int
reporting(const struct rp_run *st)
{
	unsigned int max = st->o->max_reported ? st->o->max_reported : 20;

	return !st->quiet && st->sum.divergences <= max;
}

static void
print_last_ok(struct rp_run *st)
{
	const struct rp_model *m = &st->r->model;
	size_t i;

	/* A destroy that sequence order puts before a use of what it ends. */
	for (i = 0; i < m->deps.n; i++) {
		const struct rp_m_dep *d = RP_AT(&m->deps, struct rp_m_dep, i);

		if (d->after_end && d->other.seq == st->cur_seq) {
			fprintf(st->out, "  (it destroys %s 0x%" PRIx64 " that #%"
				PRIu64 " %s [%u] uses after it in sequence order)\n",
				rp_dep_kind_name(d->kind), d->value, d->use.seq,
				d->use.name, d->use.tid);
			break;
		}
	}
	rp_mt_dep_note(st);
	if (st->sum.last_ok_seq == UINT64_MAX)
		fprintf(st->out, "  (no record matched before it)\n");
	else
		fprintf(st->out, "  (last matching record: #%" PRIu64 ")\n",
			st->sum.last_ok_seq);
}

void
rp_diverge(struct rp_run *st, const char *field, uint64_t captured,
	   uint64_t expected, int has_expected, uint64_t live,
	   const char *fmt, ...)
{
	va_list ap;

	diverge_head(st);
	if (!reporting(st))
		return;
	fprintf(st->out, "divergence at #%" PRIu64 " %s: %s: captured 0x%" PRIx64,
		st->cur_seq, st->cur_name, field, captured);
	if (has_expected && expected != captured)
		fprintf(st->out, " (0x%" PRIx64 " after mapping)", expected);
	fprintf(st->out, ", replayed 0x%" PRIx64, live);
	if (fmt) {
		fprintf(st->out, ": ");
		va_start(ap, fmt);
		vfprintf(st->out, fmt, ap);
		va_end(ap);
	}
	fprintf(st->out, "\n");
	print_last_ok(st);
}

void
rp_diverge_order(struct rp_run *st, const struct rp_m_dep *d)
{
	diverge_head(st);
	if (!reporting(st))
		return;
	fprintf(st->out, "divergence at #%" PRIu64 " %s: not issued: it uses %s "
		"0x%" PRIx64 " %s #%" PRIu64 " %s [%u] %s\n", st->cur_seq,
		st->cur_name, rp_dep_kind_name(d->kind), d->value,
		d->after_end ? "after" : "that", d->other.seq, d->other.name,
		d->other.tid, d->after_end ? "destroyed it" :
		"creates after it in sequence order");
	print_last_ok(st);
}

/* Notes printed before the rest are only counted. */
#define MAX_NOTES 50

void
rp_note(struct rp_run *st, const char *fmt, ...)
{
	va_list ap;

	if (st->notes++ >= MAX_NOTES) {
		if (st->notes == MAX_NOTES + 1)
			fprintf(st->out, "note: further notes are not shown\n");
		return;
	}
	fprintf(st->out, "note: #%" PRIu64 " %s: ", st->cur_seq,
		st->cur_name ? st->cur_name : "");
	va_start(ap, fmt);
	vfprintf(st->out, fmt, ap);
	va_end(ap);
	fprintf(st->out, "\n");
}

/* The result differs: say it in errno terms. */
void
rp_diverge_result(struct rp_run *st, int64_t cret, int cerr, int lret, int lerr)
{
	char b1[32], b2[32];

	diverge_head(st);
	if (!reporting(st))
		return;
	fprintf(st->out, "divergence at #%" PRIu64 " %s: result: captured ",
		st->cur_seq, st->cur_name);
	if (cret < 0)
		fprintf(st->out, "-1 %s", err_name(cerr, b1, sizeof(b1)));
	else
		fprintf(st->out, "%" PRId64, cret);
	fprintf(st->out, ", replayed ");
	if (lret < 0)
		fprintf(st->out, "-1 %s", err_name(lerr, b2, sizeof(b2)));
	else
		fprintf(st->out, "%d", lret);
	fprintf(st->out, "\n");
	print_last_ok(st);
}

void
rp_print_summary(const struct rp_run *st, FILE *out)
{
	const struct kfd_replay_summary *s = &st->sum;
	double rate = s->seconds > 0 ? (double)s->ioctls / s->seconds : 0;

	fprintf(out, "summary:\n");
	fprintf(out, "  replayed:    %" PRIu64 " records (%" PRIu64 " ioctls) in "
		"%.3f s, %.0f ioctls/s", s->records, s->ioctls, s->seconds, rate);
	if (s->loops > 1)
		fprintf(out, ", %u passes", s->loops);
	fprintf(out, "\n");
	/* Less at the mercy of other load on the machine than wall time. */
	if (s->cpu_seconds > 0)
		fprintf(out, "  cpu time:    %.3f s, %.0f ioctls per CPU second\n",
			s->cpu_seconds, (double)s->ioctls / s->cpu_seconds);
	if (s->filtered || s->not_replayed)
		fprintf(out, "  left out:    %" PRIu64 " filtered, %" PRIu64
			" not replayable\n", s->filtered, s->not_replayed);
	fprintf(out, "  mapped:      %" PRIu64 " fds, %" PRIu64 " handles, %"
		PRIu64 " queues, %" PRIu64 " events, %" PRIu64 " GEM handles, %"
		PRIu64 " mmap offsets\n", s->mapped_fds, s->mapped_handles,
		s->mapped_queues, s->mapped_events, s->mapped_gem,
		s->mapped_offsets);
	fprintf(out, "  cpu:         %" PRIu64 " device mappings, %" PRIu64
		" relocated ranges\n", s->cpu_mappings, s->relocations);
	if (s->synthesized)
		fprintf(out, "  dma-bufs:    %" PRIu64 " stand-ins for dma-bufs from "
			"outside the process\n", s->synthesized);
	if (s->gpu_sets)
		fprintf(out, "  gpu:         %" PRIu64 " event interrupts raised in "
			"the GPU's stead (waits no CPU call released)\n",
			s->gpu_sets);
	if (s->ages_offset)
		fprintf(out, "  ages:        %" PRIu64 " event ages learned at a new "
			"offset (the event was set a different number of times "
			"than in the capture)\n", s->ages_offset);
	if (s->resubmitted)
		fprintf(out, "  queues:      %" PRIu64 " doorbells of captured packets "
			"published again, %" PRIu64 " not run to the end\n",
			s->resubmitted, s->unretired);
	if (s->memory_restored || s->copies_checked)
		fprintf(out, "  memory:      %" PRIu64 " captured ranges written back, "
			"%" PRIu64 " SDMA copies moved the captured bytes\n",
			s->memory_restored, s->copies_checked);
	if (s->compared || s->compare_busy || s->compare_waited) {
		fprintf(out, "  compared:    %" PRIu64 " copy sources in VRAM "
			"(%" PRIu64 " bytes) with the capture: %" PRIu64
			" differed", s->compared, s->compared_bytes,
			s->compared_differ);
		if (s->compared_unfed)
			fprintf(out, "; %" PRIu64 " more where the capture lacks "
				"the GPU's inputs (not divergences)",
				s->compared_unfed);
		if (s->compare_busy)
			fprintf(out, "; %" PRIu64 " not compared: the queues "
				"did not drain", s->compare_busy);
		if (s->compare_waited)
			fprintf(out, "; %" PRIu64 " captured before what the "
				"copy waited for: kept as replayed",
				s->compare_waited);
		fprintf(out, "\n");
	}
	if (s->ib_skipped)
		fprintf(out, "  indirect:    %" PRIu64 " AQL PM4_IB packets whose "
			"indirect buffer the capture does not hold: made "
			"invalid, skipped (--submissions=full holds them)\n",
			s->ib_skipped);
	if (s->topology_notes)
		fprintf(out, "  topology:    %" PRIu64 " results differ only by "
			"live GPUs the capture did not have\n", s->topology_notes);
	if (s->raced)
		fprintf(out, "  raced:       %" PRIu64 " AVAILABLE_MEMORY values not "
			"compared: another thread or process allocated or freed "
			"while they ran\n", s->raced);
	if (st->o->verify == KFD_REPLAY_VERIFY_NONE) {
		fprintf(out, "  result:      not verified (--verify=none)\n");
	} else if (!s->divergences && !rp_trace_whole(&st->r->model)) {
		/* What could be read matched; that says nothing of the rest. */
		fprintf(out, "  result:      no verdict: the trace ");
		rp_print_lack(out, &st->r->model);
		fprintf(out, "; the %" PRIu64 " records it holds matched\n",
			s->records);
	} else if (!s->divergences) {
		fprintf(out, "  result:      match (%s)\n",
			st->o->verify == KFD_REPLAY_VERIFY_STRICT ?
			"strict" : "results");
	} else {
		fprintf(out, "  result:      diverged: %" PRIu64 " divergence%s, "
			"first at #%" PRIu64, s->divergences,
			s->divergences == 1 ? "" : "s", s->first_divergence_seq);
		if (!st->o->keep_going)
			fprintf(out, " (stopped there; --keep-going goes on)");
		fprintf(out, "\n");
	}
}

void
rp_mark_own(struct rp_run *st, const char *fmt, ...)
{
	struct kt_record rec;
	char note[160];
	va_list ap;

	if (!st->recorder)
		return;
	va_start(ap, fmt);
	vsnprintf(note, sizeof(note), fmt, ap);
	va_end(ap);
	memset(&rec, 0, sizeof(rec));
	rec.type = KT_REC_ANNOTATION;
	rec.u.annotation.text = note;
	kfd_recorder_append(st->recorder, &rec);
}

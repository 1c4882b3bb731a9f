/* SPDX-License-Identifier: MIT */
/*
 * The summary printed at the end of a replay.
 */
#include <inttypes.h>
#include <stdio.h>

#include "replay_priv.h"

bool
rp_trace_whole(const struct rp_model *m)
{
	/* NO_END: the program died, but every record it wrote is there. */
	return m->integrity == KT_INTEGRITY_OK ||
	       m->integrity == KT_INTEGRITY_NO_END;
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
	if (s->resubmitted)
		fprintf(out, "  queues:      %" PRIu64 " doorbells of captured packets "
			"published again, %" PRIu64 " not run to the end\n",
			s->resubmitted, s->unretired);
	if (s->memory_restored || s->copies_checked)
		fprintf(out, "  memory:      %" PRIu64 " captured ranges written back, "
			"%" PRIu64 " SDMA copies moved the captured bytes\n",
			s->memory_restored, s->copies_checked);
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
		fprintf(out, "  result:      no verdict: the trace is damaged (%s); "
			"the %" PRIu64 " records before the damage matched\n",
			st->r->model.integrity_msg[0] ?
			st->r->model.integrity_msg : "incomplete", s->records);
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

/* SPDX-License-Identifier: MIT */
/*
 * One replay process of a process tree (tree.c): a forked child's replay
 * started where the trace forks it, with its parent's fd table; the gate
 * that keeps the processes in the capture's order; share handles handed
 * between processes.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include <kfdtrace/dispatch.h>

#include "replay_tree.h"

/* How long a started process may take to have a pid. */
#define RP_TREE_PID_WAIT_MS	5000

int
rp_tree_fork(struct rp_run *st, int32_t child_pid)
{
	struct rp_tree *t = st->r->tree;
	unsigned int i;

	for (i = 0; i < t->n; i++)
		if (t->node[i].pid == child_pid && t->node[i].forked &&
		    t->node[i].parent == st->r->tree_self)
			break;
	if (i == t->n)
		return -ENOENT;
	if (t->start(t, i, st) < 0) {
		rp_note(st, "cannot fork the replay of child %d: %s", child_pid,
			strerror(errno));
		return -errno;
	}
	return 0;
}

/* The fd table a forked child's replay starts with: its parent's. */
int
rp_tree_begin(struct rp_run *st)
{
	const struct rp_run *p = st->r->inherit;
	size_t k;

	if (!p || !p->nfds)
		return 0;
	st->fds = malloc((size_t)p->nfds * sizeof(*st->fds));
	if (!st->fds)
		return -ENOMEM;
	memcpy(st->fds, p->fds, (size_t)p->nfds * sizeof(*st->fds));
	st->nfds = p->nfds;
	for (k = 0; k < p->ofds.n; k++) {
		struct rp_ofd *o = rp_vec_push(&st->ofds);

		if (!o)
			return -ENOMEM;
		*o = *RP_AT(&p->ofds, struct rp_ofd, k);
	}
	return 0;
}

void
rp_tree_publish(struct rp_run *st, uint64_t exit_ts)
{
	STORE(&st->r->tree->shm->slot[st->r->tree_self].cur_exit, exit_ts);
}

/*
 * Whether node @i waits, now, for the fds of a send of node @self that is
 * not done before @seq: itself, or through a chain of processes each
 * waiting for the next one's send or held at its gate by it (@seen: the
 * nodes looked at).
 */
static int
awaits(struct rp_tree *t, unsigned int i, unsigned int self, uint64_t seq,
       uint64_t *seen)
{
	struct rp_tree_slot *sl = &t->shm->slot[i];
	uint64_t awaited = LOAD(&sl->await_seq[self]);
	uint64_t gate_on = LOAD(&sl->gate_on);

	if (awaited && awaited >= seq)
		return 1;
	*seen |= 1ull << i;
	for (unsigned int j = 0; j < t->n; j++)
		if (j != self && !(*seen & (1ull << j)) &&
		    (LOAD(&sl->await_seq[j]) || (gate_on & (1ull << j))) &&
		    awaits(t, j, self, seq, seen))
			return 1;
	return 0;
}

/*
 * Whether this process's @rec must wait for node @i: @i is live and its
 * record in hand returned before @rec was entered. Not while @i waits,
 * itself or through others (their receives, their gates), for fds this
 * process sends at or after @rec:
 * the send takes effect when it is entered, but its record is numbered
 * when it returns, which may be after calls of other threads that entered
 * once the receive had returned; waiting for @i there would wait for the
 * send itself.
 */
static int
must_wait(struct rp_run *st, unsigned int i, const struct kt_record *rec)
{
	struct rp_tree *t = st->r->tree;
	struct rp_tree_slot *sl = &t->shm->slot[i];
	uint64_t seen = 0;

	if ((int)i == st->r->tree_self || !LOAD(&sl->active) || LOAD(&sl->done) ||
	    LOAD(&sl->cur_exit) > rec->ts)
		return 0;
	return !awaits(t, i, (unsigned int)st->r->tree_self, rec->seq, &seen);
}

void
rp_tree_await(struct rp_run *st, unsigned int send_node, uint64_t send_seq,
	      bool waiting)
{
	uint64_t *at, cur;

	if (!st->r->tree || send_node >= KFD_REPLAY_MAX_TREE || !send_seq)
		return;
	at = &st->r->tree->shm->slot[st->r->tree_self].await_seq[send_node];
	if (!waiting) {
		/* Only the wait that set it (--threads may have several). */
		cur = send_seq;
		__atomic_compare_exchange_n(at, &cur, 0, false, __ATOMIC_ACQ_REL,
					    __ATOMIC_ACQUIRE);
		return;
	}
	/* The latest send any of its threads waits for. */
	cur = LOAD(at);
	while (cur < send_seq &&
	       !__atomic_compare_exchange_n(at, &cur, send_seq, false,
					    __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
		;
}

bool
rp_tree_ended(struct rp_run *st, unsigned int node)
{
	struct rp_tree *t = st->r->tree;

	return t && node < t->n && LOAD(&t->shm->slot[node].done);
}

void
rp_tree_stall(struct rp_run *st, const struct kt_record *rec)
{
	struct rp_tree *t = st->r->tree;
	uint64_t base = UINT64_MAX;
	unsigned int i, j;

	/* The reader and a worker may stall at once: one of them tells. */
	if (!t || __atomic_exchange_n(&st->stall_told, 1, __ATOMIC_ACQ_REL))
		return;
	/* Times from the run's first record, as dump shows them. */
	for (i = 0; i < t->n; i++)
		if (t->node[i].first_exit < base)
			base = t->node[i].first_exit;
	fprintf(st->out, "stall: #%" PRIu64 " %s (entered %.6f, exit %.6f) "
		"waited in vain; the processes publish:\n", rec->seq,
		rp_rec_name(rec), (double)(int64_t)(rec->ts - base) / 1e9,
		(double)(int64_t)(rp_rec_exit(rec) - base) / 1e9);
	for (i = 0; i < t->n; i++) {
		struct rp_tree_slot *sl = &t->shm->slot[i];
		uint64_t e = LOAD(&sl->cur_exit), g = LOAD(&sl->gate_on);

		fprintf(st->out, "  %s%d: %s, not done before %.6f",
			(int)i == st->r->tree_self ? "*" : "", t->node[i].pid,
			LOAD(&sl->done) ? "done" : LOAD(&sl->active) ? "live" :
			"not started", e == UINT64_MAX ? -1.0 :
			(double)(int64_t)(e - base) / 1e9);
		for (j = 0; j < t->n; j++)
			if (g & (1ull << j))
				fprintf(st->out, ", gate waits for %d",
					t->node[j].pid);
		for (j = 0; j < t->n; j++)
			if ((e = LOAD(&sl->await_seq[j])))
				fprintf(st->out, ", awaits #%" PRIu64 " of %d",
					e, t->node[j].pid);
		fprintf(st->out, "\n");
	}
	rp_mt_dump(st, st->out, base);
}

void
rp_tree_gate(struct rp_run *st, const struct kt_record *rec)
{
	struct rp_tree *t = st->r->tree;
	uint64_t exit_ts = rp_rec_exit(rec);
	uint64_t cap = (uint64_t)(st->o->wait_cap_ms ? st->o->wait_cap_ms :
				  5000) * 1000000ull, t0 = 0;
	uint64_t *gate_on = &t->shm->slot[st->r->tree_self].gate_on;
	unsigned int i;
	int handed = 0, stopped = 0;

	/* With --threads, what its workers have not done yet counts too;
	 * so do the records a swap holds back (stream.c). */
	if (st->held_exit < exit_ts)
		exit_ts = st->held_exit;
	rp_tree_publish(st, st->mt ? rp_mt_frontier(st, exit_ts) : exit_ts);
	for (i = 0; i < t->n && !stopped; i++) {
		while (must_wait(st, i, rec)) {
			struct timespec ts = { 0, 20000 };
			uint64_t now;

			/*
			 * With --threads a worker may stop the replay (at a
			 * divergence) while the reader waits here: its
			 * records are not done any more, so nobody waits for
			 * this process, and it waits for nobody.
			 */
			if (rp_run_stopped(st)) {
				stopped = 1;
				rp_tree_publish(st, UINT64_MAX);
				break;
			}

			/*
			 * With --threads, what the reader read ahead goes to
			 * the workers before it waits: their exits are in
			 * what it published, so the other process may wait
			 * for them. Here, where it waits, not in a check
			 * before the gate: what the others publish changes
			 * meanwhile, and a reader that waits with them in
			 * hand closes a cycle.
			 */
			if (!handed && st->mt) {
				handed = 1;
				rp_mt_hand_ahead(st);
				rp_tree_publish(st, rp_mt_frontier(st, exit_ts));
				continue;
			}
			now = kfd_dispatch_now();
			/* Others see through us whom we wait for. */
			STORE(gate_on, 1ull << i);
			if (!t0) {
				t0 = now;
			} else if (now - t0 > cap) {
				/* A forged clock: go on rather than hang. */
				rp_tree_stall(st, rec);
				rp_note(st, "went on after %.1f s without the "
					"process of %s getting past the calls "
					"that returned before it", (double)cap / 1e9,
					t->node[i].r->path);
				break;
			}
			nanosleep(&ts, NULL);
		}
		STORE(gate_on, 0);
	}
}

void
rp_tree_share_learn(struct rp_run *st, const uint8_t *cap, const uint8_t *live)
{
	struct rp_tree_shm *shm = st->r->tree->shm;

	pthread_mutex_lock(&shm->lock);
	if (shm->nshares < RP_TREE_SHARES) {
		memcpy(shm->shares[shm->nshares].cap, cap, 16);
		memcpy(shm->shares[shm->nshares].live, live, 16);
		shm->nshares++;
	}
	pthread_mutex_unlock(&shm->lock);
}

int
rp_tree_share_xlate(struct rp_run *st, uint8_t *handle)
{
	struct rp_tree_shm *shm = st->r->tree->shm;
	unsigned int i;
	int found = 0;

	pthread_mutex_lock(&shm->lock);
	/* The newest export of a token wins. */
	for (i = shm->nshares; i-- > 0 && !found;)
		if (!memcmp(shm->shares[i].cap, handle, 16)) {
			memcpy(handle, shm->shares[i].live, 16);
			found = 1;
		}
	pthread_mutex_unlock(&shm->lock);
	return found;
}

int32_t
rp_tree_pid_live(const struct rp_run *st, int32_t cap_pid)
{
	const struct rp_tree *t = st->r->tree;

	if (!t || cap_pid <= 0)
		return 0;
	for (unsigned int i = 0; i < t->n; i++) {
		const struct rp_tree_slot *sl = &t->shm->slot[i];
		struct timespec ts = { 0, 1000000 };

		if ((int)i == st->r->tree_self || t->node[i].pid != cap_pid)
			continue;
		/* Started, but its process may not have run yet. */
		for (int ms = 0; ms < RP_TREE_PID_WAIT_MS && LOAD(&sl->active) &&
		     !LOAD(&sl->done) && !LOAD(&sl->pid); ms++)
			nanosleep(&ts, NULL);
		return LOAD(&sl->pid);
	}
	return 0;
}

/* The thread tracing @pid (TracerPid of /proc/<pid>/status), or 0. */
static pid_t
tracer_of(pid_t pid)
{
	char path[48], line[128];
	pid_t tracer = 0;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/status", (int)pid);
	f = fopen(path, "re");
	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "TracerPid: %d", &tracer) == 1)
			break;
	fclose(f);
	return tracer;
}

void
rp_tree_trace(struct rp_run *st, int32_t live_pid)
{
	unsigned int cap = st->o->wait_cap_ms ? st->o->wait_cap_ms : 5000;
	struct timespec nap = { 0, 1000000 };
	pid_t me = (pid_t)syscall(SYS_gettid);

	/*
	 * PTRACE_SEIZE leaves the process running. EPERM: this thread traces
	 * it already, or the replay of its last tracer, which ended before
	 * this call in the capture, has not let it go yet.
	 */
	for (unsigned int ms = 0; ms < cap; ms++) {
		if (ptrace(PTRACE_SEIZE, (pid_t)live_pid, NULL, NULL) == 0)
			return;
		if (errno != EPERM || tracer_of(live_pid) == me)
			break;
		nanosleep(&nap, NULL);
	}
	if (tracer_of(live_pid) != me)
		rp_note(st, "cannot trace the replay of process %d: %s", (int)live_pid,
			strerror(errno));
}

/* Whether @pid has ended: gone, or a zombie its parent has not reaped. */
static int
pid_ended(pid_t pid)
{
	char path[48], buf[256], *p;
	FILE *f;
	int ended = 1;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	f = fopen(path, "re");
	if (!f)
		return 1;
	if (fgets(buf, sizeof(buf), f) && (p = strrchr(buf, ')')) && p[1] == ' ')
		ended = p[2] == 'Z' || p[2] == 'X';
	fclose(f);
	return ended;
}

void
rp_tree_await_end(struct rp_run *st, int32_t cap_pid, uint64_t ts)
{
	const struct rp_tree *t = st->r->tree;
	struct timespec nap = { 0, 1000000 };
	unsigned int cap = st->o->wait_cap_ms ? st->o->wait_cap_ms : 5000;

	if (!t)
		return;
	for (unsigned int i = 0; i < t->n; i++) {
		const struct rp_tree_slot *sl = &t->shm->slot[i];
		pid_t live;

		if ((int)i == st->r->tree_self || t->node[i].pid != cap_pid)
			continue;
		/* Its trace goes on past @ts: it was alive (no KFD process). */
		if (t->node[i].r->model.last_ts >= ts)
			return;
		live = LOAD(&sl->pid);
		for (unsigned int ms = 0; ms < cap && LOAD(&sl->active) &&
		     (!LOAD(&sl->done) || (live > 0 && !pid_ended(live))); ms++)
			nanosleep(&nap, NULL);
		return;
	}
}

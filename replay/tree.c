/* SPDX-License-Identifier: MIT */
/*
 * The traces of one run replayed as the process tree they came from.
 *
 * `kfdtrace record` writes a file per process: the root's, and one for
 * every forked child or other process of the run (posix_spawn, a shell's
 * children), each header naming its pid and its parent's. The replayer
 * (the coordinator) makes a replay process per trace:
 *
 *  - a forked child is forked by its parent's replay where the parent's
 *    trace has the FORK record, so it inherits what the kernel gives a
 *    child across fork: the parent's fds (the captured numbers keep
 *    standing for them) and its mappings. Like the capture's child, it
 *    has no KFD process of its own until it opens /dev/kfd;
 *  - any other process of the run starts as a fresh process.
 *
 * The processes are ordered as the threads of one are (threads_order.c),
 * by the capture's clock, which all processes of a machine share: a
 * record waits until no other live replay process has a record that
 * returned before it was entered and is not done yet. Each process
 * publishes, in shared memory, the exit time of the record in hand, and,
 * while a receive of fds waits for its send (xfer.c), which send, and
 * whom its gate waits for: the sender's records up to that send do not
 * wait for the receiver, nor for processes that wait for it through
 * others' receives or gates. A
 * ROCm IPC token one process exported is handed to an import in another
 * through the same memory; fds one process passed to another over a Unix
 * socket are passed again between their replays (xfer.c).
 *
 * The coordinator is the subreaper of every replay process, so it reaps
 * them all, including the children of children; a process that dies
 * gives up its place (nobody waits for it) and its trace is "failed".
 * Each process writes its report into a file of its own; the coordinator
 * prints them in tree order, then the verdict of the tree.
 */
#include <errno.h>
#include <limits.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <kfdtrace/dispatch.h>

#include "replay_run.h"
#include "replay_tree.h"

/* The replay of node @i, in the process that is to be it; never returns. */
static void __attribute__((noreturn))
run_node(struct rp_tree *t, unsigned int i, const struct rp_run *parent)
{
	struct rp_tree_node *nd = &t->node[i];
	struct rp_tree_slot *sl = &t->shm->slot[i];
	struct kfd_replay_opts o = *t->o;
	struct kfd_replay_summary sum;
	enum kfd_replay_status status;

	STORE(&sl->pid, getpid());
	o.out = nd->out;
	o.record_path = nd->record;
	o.loop = 1;
	nd->r->tree = t;
	nd->r->tree_self = (int)i;
	nd->r->xplan = t->xplan;
	nd->r->inherit = parent;
	status = kfd_replay_run(nd->r, &o, &sum);
	fflush(nd->out);
	sl->sum = sum;
	STORE(&sl->status, (int32_t)status);
	STORE(&sl->cur_exit, UINT64_MAX);
	STORE(&sl->done, 1);
	_exit(0);
}

/* Start node @i here (@parent: the replay it is forked from, or NULL). */
static pid_t
start_node(struct rp_tree *t, unsigned int i, const struct rp_run *parent)
{
	struct rp_tree_slot *sl = &t->shm->slot[i];
	unsigned int k;
	pid_t pid;

	/* Others wait for it from now on, as for a process of the capture. */
	STORE(&sl->cur_exit, t->node[i].first_exit);
	STORE(&sl->active, 1);
	for (k = 0; k < t->n; k++)
		fflush(t->node[k].out);
	fflush(stdout);
	pid = fork();
	if (pid == 0)
		run_node(t, i, parent);
	if (pid < 0) {
		STORE(&sl->cur_exit, UINT64_MAX);
		STORE(&sl->status, KFD_REPLAY_FAILED);
		STORE(&sl->done, 1);
	}
	return pid;
}

/* ------------------------------------------------------------------ */
/* The coordinator                                                      */

static int
forked_by(const struct rp_model *m, int32_t pid)
{
	for (uint32_t i = 0; i < m->nforked; i++)
		if (m->forked[i] == pid)
			return 1;
	return 0;
}

static void
build_nodes(struct rp_tree *t, struct kfd_replay **rs, unsigned int n,
	    FILE *out)
{
	unsigned int i, k;

	t->n = n;
	for (i = 0; i < n; i++) {
		struct rp_tree_node *nd = &t->node[i];
		const struct rp_model *m = &rs[i]->model;

		nd->r = rs[i];
		nd->pid = m->hdr.pid;
		nd->ppid = m->hdr.ppid;
		nd->forked = m->fork_parent != 0;
		nd->first_exit = m->first_ts;
		nd->parent = -1;
	}
	for (i = 0; i < n; i++) {
		struct rp_tree_node *nd = &t->node[i];

		/* The trace that forked it, where the same pid wrote
		 * several (an exec'd image); else the last of that pid. */
		for (k = 0; k < n; k++)
			if (k != i && t->node[k].pid == nd->ppid &&
			    (nd->parent < 0 ||
			     !forked_by(&rs[nd->parent]->model, nd->pid)))
				nd->parent = (int)k;
		if (nd->forked && nd->parent < 0) {
			fprintf(out, "warning: %s is the trace of a forked child "
				"(pid %d) whose parent's trace (pid %d) is not "
				"given: it is replayed without its parent, from a "
				"fresh process\n", nd->r->path, nd->pid, nd->ppid);
			nd->forked = 0;
		}
		/*
		 * Forked before its parent touched the device: the parent's
		 * trace began after the fork and has no FORK record to fork
		 * it at, and it inherited nothing of the device. Both start
		 * fresh, kept in the capture's order by the clock.
		 */
		if (nd->forked && nd->parent >= 0 &&
		    rs[nd->parent]->model.nforked < RP_MAX_FORKED &&
		    !forked_by(&rs[nd->parent]->model, nd->pid))
			nd->forked = 0;
	}
	/* What one process read of the machine's memory while another
	 * allocated is not the replay's to check (model_varies.c). */
	for (i = 0; i < n; i++)
		for (k = 0; k < n; k++)
			if (k != i)
				rp_model_varies_cross(&rs[i]->model,
						      &rs[k]->model);
}

/* Copy @f to @out from its start. */
static void
print_report(FILE *f, FILE *out)
{
	char buf[8192];
	size_t got;

	fflush(f);
	rewind(f);
	while ((got = fread(buf, 1, sizeof(buf), f)) > 0)
		fwrite(buf, 1, got, out);
}

/* Mark the slot of the process @pid that died. */
static void
reaped(struct rp_tree *t, pid_t pid, int status, FILE *out)
{
	unsigned int i;

	for (i = 0; i < t->n; i++) {
		struct rp_tree_slot *sl = &t->shm->slot[i];

		if (sl->pid != pid || LOAD(&sl->done))
			continue;
		if (WIFSIGNALED(status))
			fprintf(t->node[i].out, "kfdtrace replay: the replay "
				"process died of signal %d\n", WTERMSIG(status));
		sl->status = KFD_REPLAY_FAILED;
		STORE(&sl->cur_exit, UINT64_MAX);
		STORE(&sl->done, 1);
	}
	(void)out;
}

static const char *
status_name(int status)
{
	switch (status) {
	case KFD_REPLAY_MATCH:
		return "match";
	case KFD_REPLAY_DIVERGED:
		return "diverged";
	case KFD_REPLAY_DAMAGED:
		return "no verdict (the trace is not whole)";
	default:
		return "could not replay";
	}
}

enum kfd_replay_status
kfd_replay_tree(struct kfd_replay **rs, unsigned int n,
		const struct kfd_replay_opts *o, struct kfd_replay_summary *sum)
{
	FILE *out = o->out ? o->out : stdout;
	enum kfd_replay_status verdict = KFD_REPLAY_MATCH;
	pthread_mutexattr_t ma;
	struct rp_tree *t;
	unsigned int i, ndiv = 0;
	int status;
	pid_t pid;

	if (sum) {
		memset(sum, 0, sizeof(*sum));
		sum->first_divergence_seq = UINT64_MAX;
	}
	if (!n || n > KFD_REPLAY_MAX_TREE)
		return KFD_REPLAY_FAILED;
	t = calloc(1, sizeof(*t));
	if (!t)
		return KFD_REPLAY_FAILED;
	t->o = o;
	t->start = start_node;
	t->shm = mmap(NULL, sizeof(*t->shm), PROT_READ | PROT_WRITE,
		      MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (t->shm == MAP_FAILED) {
		free(t);
		return KFD_REPLAY_FAILED;
	}
	pthread_mutexattr_init(&ma);
	pthread_mutexattr_setpshared(&ma, PTHREAD_PROCESS_SHARED);
	pthread_mutex_init(&t->shm->lock, &ma);
	pthread_mutexattr_destroy(&ma);
	build_nodes(t, rs, n, out);
	/* Before any replay process starts: they all inherit its sockets. */
	t->xplan = rp_xfer_plan_build(rs, n, out);
	for (i = 0; i < n; i++) {
		t->node[i].out = tmpfile();
		if (!t->node[i].out) {
			verdict = KFD_REPLAY_FAILED;
			goto done;
		}
		if (o->record_path) {
			char name[PATH_MAX];

			/* Named as a recording names a run's files. */
			if (!kt_run_file_name(name, sizeof(name),
					      o->record_path,
					      i ? t->node[i].pid : 0, 0, 0))
				t->node[i].record = strdup(name);
		}
	}
	/* Orphans (children of children whose parents are gone) come here. */
	prctl(PR_SET_CHILD_SUBREAPER, 1);
	/*
	 * Every process that starts fresh is in the order before the first
	 * starts: the root must not pass a record of a child that the
	 * coordinator has not forked yet (start_node() marks it again).
	 */
	for (i = 0; i < n; i++)
		if (!t->node[i].forked) {
			STORE(&t->shm->slot[i].cur_exit, t->node[i].first_exit);
			STORE(&t->shm->slot[i].active, 1);
		}
	for (i = 0; i < n; i++)
		if (!t->node[i].forked && start_node(t, i, NULL) < 0)
			fprintf(out, "kfdtrace replay: cannot start the replay of "
				"%s: %s\n", t->node[i].r->path, strerror(errno));
	while ((pid = wait(&status)) > 0 || (pid < 0 && errno == EINTR))
		if (pid > 0)
			reaped(t, pid, status, out);
	prctl(PR_SET_CHILD_SUBREAPER, 0);

	for (i = 0; i < n; i++) {
		struct rp_tree_node *nd = &t->node[i];
		struct rp_tree_slot *sl = &t->shm->slot[i];

		fprintf(out, "\n== process %d: %s", nd->pid, nd->r->path);
		if (nd->parent >= 0)
			fprintf(out, " (%s by %d)", nd->forked ? "forked" :
				"started", nd->ppid);
		fprintf(out, "\n");
		print_report(nd->out, out);
		if (!sl->active) {
			fprintf(out, "not replayed: its parent's replay stopped "
				"before the fork\n");
			sl->status = KFD_REPLAY_FAILED;
		}
		if (sl->status == KFD_REPLAY_FAILED)
			verdict = KFD_REPLAY_FAILED;
		else if (sl->status == KFD_REPLAY_DIVERGED &&
			 verdict != KFD_REPLAY_FAILED)
			verdict = KFD_REPLAY_DIVERGED;
		else if (sl->status == KFD_REPLAY_DAMAGED &&
			 verdict == KFD_REPLAY_MATCH)
			verdict = KFD_REPLAY_DAMAGED;
		if (sl->status == KFD_REPLAY_DIVERGED)
			ndiv++;
		if (sum)
			rp_sum_add(sum, &sl->sum);
	}
	fprintf(out, "\ntree:        %u processes\n", n);
	for (i = 0; i < n; i++)
		fprintf(out, "  process %d (%s): %s, %" PRIu64 " records\n",
			t->node[i].pid, t->node[i].r->path,
			status_name(t->shm->slot[i].status),
			t->shm->slot[i].sum.records);
	if (verdict == KFD_REPLAY_MATCH)
		fprintf(out, "  result:      match (%s) in every process\n",
			o->verify == KFD_REPLAY_VERIFY_STRICT ? "strict" :
			o->verify == KFD_REPLAY_VERIFY_RESULTS ? "results" :
			"not verified");
	else
		fprintf(out, "  result:      %s (%u of %u processes diverged)\n",
			status_name((int)verdict), ndiv, n);
done:
	for (i = 0; i < n; i++) {
		if (t->node[i].out)
			fclose(t->node[i].out);
		free(t->node[i].record);
		rs[i]->tree = NULL;
		rs[i]->xplan = NULL;
	}
	rp_xfer_plan_free(t->xplan);
	pthread_mutex_destroy(&t->shm->lock);
	munmap(t->shm, sizeof(*t->shm));
	free(t);
	return verdict;
}

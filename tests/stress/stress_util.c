/* SPDX-License-Identifier: MIT */
/*
 * Helpers of the concurrency stress tests; see stress_util.h.
 */
#include <dirent.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "stress_util.h"

#define STRESS_BOARD		(STRESS_THREADS * STRESS_LIVE)
#define STRESS_PAGE		4096u

static atomic_ulong stress_nfail;
static _Atomic(void *) stress_board[STRESS_BOARD];

static void
watchdog_fire(int sig)
{
	static const char msg[] =
		"stress: watchdog expired: a thread is stuck (deadlock?)\n";
	ssize_t r;

	(void)sig;
	r = write(STDERR_FILENO, msg, sizeof(msg) - 1);
	(void)r;
	_exit(99);
}

void
stress_watchdog(unsigned int seconds)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = watchdog_fire;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGALRM, &sa, NULL);
	alarm(seconds);
}

double
stress_seconds(double dflt)
{
	const char *s = getenv("STRESS_SECONDS");
	char *end;
	double v;

	if (!s || !*s)
		return dflt;
	v = strtod(s, &end);
	return *end || v <= 0 || v > 600 ? dflt : v;
}

void
stress_fail(const char *file, int line, const char *what, long got)
{
	/* The first few are enough to debug; the count tells the rest. */
	if (atomic_fetch_add(&stress_nfail, 1) < 10)
		fprintf(stderr, "stress: %s:%d: %s failed (got %ld)\n", file, line, what, got);
}

unsigned long
stress_failures(void)
{
	return atomic_load(&stress_nfail);
}

int
stress_machine_get(struct stress_machine *m)
{
	HsaSystemProperties sp;
	bool have_cpu = false;

	memset(m, 0, sizeof(*m));
	if (hsaKmtAcquireSystemProperties(&sp) != HSAKMT_STATUS_SUCCESS)
		return -1;
	for (HSAuint32 n = 0; n < sp.NumNodes; n++) {
		HsaNodeProperties np;

		if (hsaKmtGetNodeProperties(n, &np) != HSAKMT_STATUS_SUCCESS)
			return -1;
		if (!np.NumFComputeCores) {
			if (!have_cpu)
				m->cpu = n;
			have_cpu = true;
		} else if (m->n_gpus < STRESS_MAX_GPUS) {
			m->gpus[m->n_gpus++] = n;
		}
	}
	return m->n_gpus && have_cpu ? 0 : -1;
}

int
stress_open_warm(struct stress_machine *m)
{
	HSAKMT_STATUS st;

	st = hsaKmtOpenKFD();
	if (st != HSAKMT_STATUS_SUCCESS) {
		fprintf(stderr, "stress: hsaKmtOpenKFD: status %d\n", st);
		return -1;
	}
	if (stress_machine_get(m)) {
		fprintf(stderr, "stress: the topology has no GPU or no CPU node\n");
		return -1;
	}
	st = stress_event_cycle();
	if (st != HSAKMT_STATUS_SUCCESS) {
		fprintf(stderr, "stress: warm-up event cycle: status %d\n", st);
		return -1;
	}
	for (unsigned int g = 0; g < m->n_gpus; g++) {
		st = stress_queue_cycle(m->gpus[g]);
		if (st != HSAKMT_STATUS_SUCCESS) {
			fprintf(stderr, "stress: warm-up queue cycle on node %u: status %d\n",
				m->gpus[g], st);
			return -1;
		}
	}
	return 0;
}

int
stress_count_fds(void)
{
	DIR *d = opendir("/proc/self/fd");
	struct dirent *de;
	int n = 0;

	if (!d)
		return -1;
	while ((de = readdir(d)))
		n += de->d_name[0] != '.';
	closedir(d);
	return n - 1;	/* the directory's own descriptor */
}

int
stress_vram_avail(const struct stress_machine *m, HSAuint64 *avail)
{
	for (unsigned int g = 0; g < m->n_gpus; g++)
		if (hsaKmtAvailableMemory(m->gpus[g], &avail[g]) != HSAKMT_STATUS_SUCCESS)
			return -1;
	return 0;
}

int
stress_books_get(const struct stress_machine *m, struct stress_books *b)
{
	b->fds = stress_count_fds();
	return stress_vram_avail(m, b->avail);
}

void
stress_publish(unsigned int slot, void *p)
{
	atomic_store(&stress_board[slot % STRESS_BOARD], p);
}

void *
stress_published(unsigned int slot)
{
	return atomic_load(&stress_board[slot % STRESS_BOARD]);
}

/* xorshift64*: a private stream per worker, reproducible from its id. */
static uint32_t
rnd(struct stress_worker *w)
{
	w->rng ^= w->rng >> 12;
	w->rng ^= w->rng << 25;
	w->rng ^= w->rng >> 27;
	return (uint32_t)((w->rng * 0x2545f4914f6cdd1dULL) >> 32);
}

void
stress_worker_init(struct stress_worker *w, unsigned int id, unsigned int ops,
		   const struct stress_machine *m, atomic_bool *stop, atomic_int *in_call)
{
	memset(w, 0, sizeof(*w));
	w->id = id;
	w->ops = ops;
	w->rng = 0x9e3779b97f4a7c15ULL * (id + 1);
	w->m = m;
	w->stop = stop;
	w->in_call = in_call;
}

void *
stress_worker_main(void *arg)
{
	struct stress_worker *w = arg;

	while (!atomic_load(w->stop)) {
		if (w->pause_req && atomic_load(w->pause_req)) {
			atomic_fetch_add(w->paused, 1);
			while (atomic_load(w->pause_req))
				usleep(100);
			atomic_fetch_sub(w->paused, 1);
			continue;
		}
		if (w->in_call)
			atomic_fetch_add(w->in_call, 1);
		stress_worker_step(w, w->m);
		if (w->in_call)
			atomic_fetch_sub(w->in_call, 1);
	}
	stress_worker_drain(w);
	return NULL;
}

void
stress_counts_add(struct stress_counts *sum, const struct stress_counts *n)
{
	sum->allocs += n->allocs;
	sum->frees += n->frees;
	sum->maps += n->maps;
	sum->unmaps += n->unmaps;
	sum->queries += n->queries;
	sum->events += n->events;
	sum->queues += n->queues;
	sum->reads += n->reads;
}

/* VRAM on one of the GPUs, or paged system memory (a userptr BO). */
static void
buf_alloc(struct stress_worker *w, const struct stress_machine *m, struct stress_buf *b,
	  unsigned int slot)
{
	HsaMemFlags f = { 0 };
	HsaPointerInfo pi;
	HSAuint32 node;
	HSAKMT_STATUS st;
	void *p = NULL;

	b->size = (HSAuint64)(1 + rnd(w) % 64) * STRESS_PAGE;
	if (rnd(w) & 1) {
		node = m->gpus[rnd(w) % m->n_gpus];
		f.ui32.NonPaged = 1;
		f.ui32.CoarseGrain = 1;
	} else {
		node = m->cpu;
		f.ui32.HostAccess = 1;
		f.ui32.CoarseGrain = rnd(w) & 1;
	}
	st = hsaKmtAllocMemory(node, b->size, f, &p);
	STRESS_CHECK(st == HSAKMT_STATUS_SUCCESS && p, st);
	if (st != HSAKMT_STATUS_SUCCESS || !p)
		return;
	w->n.allocs++;
	b->p = p;
	b->mapped = false;
	/* Its last byte resolves to the whole allocation. */
	st = hsaKmtQueryPointerInfo((char *)p + b->size - 1, &pi);
	STRESS_CHECK(st == HSAKMT_STATUS_SUCCESS, st);
	STRESS_CHECK(pi.Type == HSA_POINTER_ALLOCATED, pi.Type);
	STRESS_CHECK(pi.CPUAddress == p, (long)(uintptr_t)pi.CPUAddress);
	STRESS_CHECK(pi.SizeInBytes == b->size, (long)pi.SizeInBytes);
	w->n.queries++;
	stress_publish(w->id * STRESS_LIVE + slot, p);
}

static void
buf_free(struct stress_worker *w, struct stress_buf *b, unsigned int slot)
{
	HSAKMT_STATUS st;

	stress_publish(w->id * STRESS_LIVE + slot, NULL);
	if (b->mapped) {
		st = hsaKmtUnmapMemoryToGPU(b->p);
		STRESS_CHECK(st == HSAKMT_STATUS_SUCCESS, st);
		w->n.unmaps++;
	}
	st = hsaKmtFreeMemory(b->p, b->size);
	STRESS_CHECK(st == HSAKMT_STATUS_SUCCESS, st);
	w->n.frees++;
	b->p = NULL;
	b->mapped = false;
}

static void
memory_step(struct stress_worker *w, const struct stress_machine *m)
{
	unsigned int slot = rnd(w) % STRESS_LIVE;
	struct stress_buf *b = &w->live[slot];
	unsigned int r = rnd(w) % 10;
	HSAKMT_STATUS st;

	if (!b->p) {
		buf_alloc(w, m, b, slot);
	} else if (r < 4 && !b->mapped) {
		HSAuint64 gva = 0;

		st = hsaKmtMapMemoryToGPU(b->p, b->size, &gva);
		STRESS_CHECK(st == HSAKMT_STATUS_SUCCESS, st);
		b->mapped = st == HSAKMT_STATUS_SUCCESS;
		w->n.maps++;
	} else if (r < 6 && b->mapped) {
		st = hsaKmtUnmapMemoryToGPU(b->p);
		STRESS_CHECK(st == HSAKMT_STATUS_SUCCESS, st);
		b->mapped = false;
		w->n.unmaps++;
	} else if (r < 9) {
		buf_free(w, b, slot);
	} else {
		HsaPointerInfo pi;

		st = hsaKmtQueryPointerInfo(b->p, &pi);
		STRESS_CHECK(st == HSAKMT_STATUS_SUCCESS && pi.SizeInBytes == b->size, st);
		STRESS_CHECK(!b->mapped || pi.NMappedNodes >= 1, pi.NMappedNodes);
		w->n.queries++;
	}
}

/*
 * Someone else's buffer, which its owner may be freeing right now: the
 * answer is the buffer or "unknown", and the call must not crash. The node
 * arrays may die with the buffer, so only the scalars are read.
 */
static void
query_step(struct stress_worker *w)
{
	void *p = stress_published(rnd(w));
	HsaPointerInfo pi;
	HSAKMT_STATUS st;

	if (!p)
		return;
	st = hsaKmtQueryPointerInfo(p, &pi);
	STRESS_CHECK(st == HSAKMT_STATUS_SUCCESS || st == HSAKMT_STATUS_ERROR, st);
	STRESS_CHECK(st != HSAKMT_STATUS_SUCCESS || pi.SizeInBytes >= STRESS_PAGE,
		     (long)pi.SizeInBytes);
	w->n.queries++;
}

/* A signal event; the status says why when there is none. */
static HSAKMT_STATUS
event_create(bool manual_reset, HsaEvent **ev)
{
	HsaEventDescriptor desc;

	memset(&desc, 0, sizeof(desc));
	desc.EventType = HSA_EVENTTYPE_SIGNAL;
	*ev = NULL;
	return hsaKmtCreateEvent(&desc, manual_reset, false, ev);
}

HsaEvent *
stress_event_new(bool manual_reset)
{
	HsaEvent *ev;

	return event_create(manual_reset, &ev) == HSAKMT_STATUS_SUCCESS ? ev : NULL;
}

HSAKMT_STATUS
stress_event_cycle(void)
{
	HsaEvent *ev;
	HSAKMT_STATUS st;

	st = event_create(false, &ev);
	if (st != HSAKMT_STATUS_SUCCESS)
		return st;
	st = hsaKmtSetEvent(ev);
	if (st == HSAKMT_STATUS_SUCCESS)
		st = hsaKmtWaitOnEvent(ev, 1000);
	/* Auto-reset: the first wait consumed the signal. */
	if (st == HSAKMT_STATUS_SUCCESS && hsaKmtWaitOnEvent(ev, 0) != HSAKMT_STATUS_WAIT_TIMEOUT)
		st = HSAKMT_STATUS_ERROR;
	if (hsaKmtDestroyEvent(ev) != HSAKMT_STATUS_SUCCESS && st == HSAKMT_STATUS_SUCCESS)
		st = HSAKMT_STATUS_ERROR;
	return st;
}

/* Host memory the GPU of @node can reach, mapped there. */
static HSAKMT_STATUS
ring_buf(HSAuint32 node, HSAuint64 size, void **p)
{
	HsaMemFlags f = { 0 };
	HSAuint64 va;
	HSAKMT_STATUS st;

	f.ui32.NonPaged = 1;
	f.ui32.HostAccess = 1;
	f.ui32.ExecuteAccess = 1;
	*p = NULL;
	st = hsaKmtAllocMemory(0, size, f, p);
	if (st != HSAKMT_STATUS_SUCCESS)
		return st;
	st = hsaKmtMapMemoryToGPUNodes(*p, size, &va, (HsaMemMapFlags){ 0 }, 1, &node);
	if (st != HSAKMT_STATUS_SUCCESS) {
		hsaKmtFreeMemory(*p, size);
		*p = NULL;
	}
	return st;
}

static HSAKMT_STATUS
ring_put(void *p, HSAuint64 size)
{
	HSAKMT_STATUS st = hsaKmtUnmapMemoryToGPU(p);
	HSAKMT_STATUS st2 = hsaKmtFreeMemory(p, size);

	return st != HSAKMT_STATUS_SUCCESS ? st : st2;
}

HSAKMT_STATUS
stress_queue_cycle(HSAuint32 node)
{
	const HSAuint64 ring_size = 64 << 10;
	HsaQueueResource res;
	HSAuint64 *ptrs = NULL;
	void *ring = NULL;
	HSAKMT_STATUS st, st2;

	st = ring_buf(node, ring_size, &ring);
	if (st != HSAKMT_STATUS_SUCCESS)
		return st;
	st = ring_buf(node, STRESS_PAGE, (void **)&ptrs);
	if (st != HSAKMT_STATUS_SUCCESS) {
		ring_put(ring, ring_size);
		return st;
	}
	memset(ptrs, 0, STRESS_PAGE);
	memset(&res, 0, sizeof(res));
	res.QueueRptrValue = (uintptr_t)&ptrs[0];
	res.QueueWptrValue = (uintptr_t)&ptrs[1];
	st = hsaKmtCreateQueue(node, HSA_QUEUE_COMPUTE_AQL, 100, HSA_QUEUE_PRIORITY_NORMAL,
			       ring, ring_size, NULL, &res);
	if (st == HSAKMT_STATUS_SUCCESS)
		st = hsaKmtDestroyQueue(res.QueueId);
	st2 = ring_put(ptrs, STRESS_PAGE);
	if (st == HSAKMT_STATUS_SUCCESS)
		st = st2;
	st2 = ring_put(ring, ring_size);
	return st != HSAKMT_STATUS_SUCCESS ? st : st2;
}

static void
read_step(struct stress_worker *w, const struct stress_machine *m)
{
	HSAuint32 node = m->gpus[rnd(w) % m->n_gpus];
	HsaClockCounters cc;
	HsaNodeProperties np;
	HSAKMT_STATUS st;

	st = hsaKmtGetClockCounters(node, &cc);
	STRESS_CHECK(st == HSAKMT_STATUS_SUCCESS, st);
	st = hsaKmtGetNodeProperties(node, &np);
	STRESS_CHECK(st == HSAKMT_STATUS_SUCCESS && np.NumFComputeCores, st);
	w->n.reads++;
}

void
stress_worker_step(struct stress_worker *w, const struct stress_machine *m)
{
	/* Weights: mostly memory; queues are the dearest, so the rarest. */
	static const struct { unsigned int op, weight; } mix[] = {
		{ STRESS_OP_MEMORY, 50 }, { STRESS_OP_QUERY, 15 }, { STRESS_OP_EVENTS, 20 },
		{ STRESS_OP_QUEUES, 3 }, { STRESS_OP_READ, 12 },
	};
	unsigned int total = 0, r;
	HSAKMT_STATUS st;

	for (unsigned int i = 0; i < sizeof(mix) / sizeof(mix[0]); i++)
		if (w->ops & mix[i].op)
			total += mix[i].weight;
	if (!total)
		return;
	r = rnd(w) % total;
	for (unsigned int i = 0; i < sizeof(mix) / sizeof(mix[0]); i++) {
		if (!(w->ops & mix[i].op))
			continue;
		if (r >= mix[i].weight) {
			r -= mix[i].weight;
			continue;
		}
		switch (mix[i].op) {
		case STRESS_OP_MEMORY:
			memory_step(w, m);
			break;
		case STRESS_OP_QUERY:
			query_step(w);
			break;
		case STRESS_OP_EVENTS:
			st = stress_event_cycle();
			STRESS_CHECK(st == HSAKMT_STATUS_SUCCESS, st);
			w->n.events++;
			break;
		case STRESS_OP_QUEUES:
			st = stress_queue_cycle(m->gpus[rnd(w) % m->n_gpus]);
			STRESS_CHECK(st == HSAKMT_STATUS_SUCCESS, st);
			w->n.queues++;
			break;
		default:
			read_step(w, m);
			break;
		}
		return;
	}
}

void
stress_worker_drain(struct stress_worker *w)
{
	for (unsigned int s = 0; s < STRESS_LIVE; s++)
		if (w->live[s].p)
			buf_free(w, &w->live[s], s);
}

void *
stress_alloc_host(HSAuint32 gpu, HSAuint64 size)
{
	HsaMemFlags f = { 0 };
	HSAuint64 va;
	void *p = NULL;

	f.ui32.HostAccess = 1;
	f.ui32.NonPaged = 1;
	f.ui32.CoarseGrain = 1;
	if (hsaKmtAllocMemory(0, size, f, &p) != HSAKMT_STATUS_SUCCESS)
		return NULL;
	if (hsaKmtMapMemoryToGPUNodes(p, size, &va, (HsaMemMapFlags){ 0 }, 1,
				      &gpu) != HSAKMT_STATUS_SUCCESS)
		return NULL;
	return p;
}

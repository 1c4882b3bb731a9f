/* SPDX-License-Identifier: MIT */
/*
 * The command processor: one engine thread per simulated process, started
 * with its first queue, services every active queue of the process
 * (cp_aql.c, cp_pm4.c and cp_sdma.c do the packets). A real CP learns of work by polling
 * doorbells too: doorbell stores are plain CPU stores into kfdsim's own
 * doorbell page.
 *
 * Cost: while packets keep arriving the engine spins (CP_SPIN_NS after the
 * last retired packet, timed by a clock read every CP_SPIN_CHECK passes,
 * none while packets flow), then sleeps, doubling the sleep up to
 * CP_SLEEP_MAX_NS. After CP_DEEP_AFTER_NS without work, with every queue
 * idle (no doorbell news, nothing pending: a queue waiting on WAIT_REG_MEM
 * or a barrier keeps it polling, as the hardware does), it blocks with no
 * timeout: the program's doorbell mappings are write-protected with
 * userfaultfd, and the next store into one wakes it (cp_idle.c). An idle
 * process then costs no wake-up at all. Where the host refuses that, the
 * sleep doubles up to CP_DEEP_MAX_NS instead: about fifty wake-ups a
 * second (a thousand cost 2-3% of a core on a host whose wake-ups take
 * 30 us). Queue creation and updates wake it at once, and so does a
 * WAIT_EVENTS of the process while it sleeps (ksim_cp_kick).
 *
 * A system suspend of the machine (pm.c) stops the engine before its next
 * pass, at a packet boundary; work announced meanwhile waits for the
 * resume, as on evicted queues.
 */
#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "cp_priv.h"

#define CP_SPIN_NS		50000ULL	/* busy-poll after activity */
/* Idle passes between two looks at the clock while busy-polling (a pass
 * without work costs about as much as the clock read itself). */
#define CP_SPIN_CHECK		64u
#define CP_SLEEP_MIN_NS		10000ULL
#define CP_SLEEP_MAX_NS		1000000ULL
#define CP_DEEP_AFTER_NS	100000000ULL	/* idle this long: deep sleep */
#define CP_DEEP_MAX_NS		20000000ULL
/* How long the engine waits for the device lock before re-checking stop. */
#define CP_LOCK_WAIT_NS		1000000L
/* How often work on a suspended queue looks for its debugger's end. */
#define CP_DBG_LOOK_NS		100000000ULL
/* A system suspend (pm.c): how long an engine with work announced sleeps
 * before it looks at its stop flag again (the resume wakes it at once). */
#define CP_PM_WAIT_NS		20000000ULL
/* engine_pass(): the machine is suspended, nothing ran. */
#define CP_PASS_SUSPENDED	(-2)

static uint64_t
now_ns(clockid_t id)
{
	struct timespec ts;

	clock_gettime(id, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

int
cp_compare(uint32_t func, uint32_t v, uint32_t ref)
{
	switch (func) {
	case 0: return 1;
	case 1: return v < ref;
	case 2: return v <= ref;
	case 3: return v == ref;
	case 4: return v != ref;
	case 5: return v >= ref;
	case 6: return v > ref;
	default: return -1;
	}
}

uint64_t
cp_gpu_clock(const struct ksim_device *dev, int gpu)
{
	uint64_t raw = now_ns(CLOCK_MONOTONIC_RAW);
	uint64_t hz = dev->gpus[gpu].g->gpu_clock_hz;

	/* The same conversion as GET_CLOCK_COUNTERS (kfd_misc.c). */
	if (hz < (1ULL << 34))
		return raw / 1000000000ULL * hz + raw % 1000000000ULL * hz / 1000000000ULL;
	return (uint64_t)((unsigned __int128)raw * hz / 1000000000ULL);
}

static void
cp_vlog(struct ksim_cp *cp, const char *fmt, va_list ap)
{
	char buf[512];
	int n;

	n = snprintf(buf, sizeof(buf), "kfdsim: cp[%d]: ", (int)cp->pid);
	if (n > 0 && (size_t)n < sizeof(buf))
		n += vsnprintf(buf + n, sizeof(buf) - (size_t)n, fmt, ap);
	if (n < 0)
		return;
	if ((size_t)n >= sizeof(buf) - 1)
		n = (int)sizeof(buf) - 2;
	buf[n++] = '\n';
	/* Raw write: never through the shim's wrappers or stdio locks. */
	(void)syscall(SYS_write, 2, buf, (size_t)n);
}

void
cp_log(struct ksim_cp *cp, const char *fmt, ...)
{
	va_list ap;

	if (!cp->debug)
		return;
	va_start(ap, fmt);
	cp_vlog(cp, fmt, ap);
	va_end(ap);
}

void
cp_warn(struct ksim_cp *cp, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	cp_vlog(cp, fmt, ap);
	va_end(ap);
}

/* Map the doorbell page of @gpu for the engine (once per process). */
static const volatile uint64_t *
doorbell_slot(struct ksim_cp *cp, struct ksim_queue *q)
{
	struct ksim_device *dev = cp->dev;
	const struct ksim_gpu *g = dev->gpus[q->gpu].g;
	int fd;

	if (!g->soc15 || g->doorbell_size != 8)
		return NULL;
	if (!cp->db_map[q->gpu]) {
		long m;

		fd = ksim_doorbell_fd(dev, &cp->p->pdds[q->gpu]);
		if (fd < 0)
			return NULL;
		m = syscall(SYS_mmap, NULL, (size_t)g->doorbell_slice,
			    PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
		if (m == -1)
			return NULL;
		cp->db_map[q->gpu] = (void *)m;
		cp->db_len[q->gpu] = g->doorbell_slice;
	}
	if ((uint64_t)(q->doorbell_id + 1) * 8 > cp->db_len[q->gpu])
		return NULL;
	return (const volatile uint64_t *)cp->db_map[q->gpu] + q->doorbell_id;
}

/*
 * The queues of @cq's GPU were evicted by a VM fault: the kernel never
 * restores them, so their doorbells are not looked at again.
 */
static int
evicted(const struct ksim_cp *cp, const struct ksim_cpq *cq)
{
	return __atomic_load_n(&cp->p->pdds[cq->gpu].fault_evicted, __ATOMIC_RELAXED);
}

/*
 * Take the device lock for a pass. It is free most of the time, and a
 * try costs no clock read; only a held lock is waited for, and never for
 * good: the process may be tearing down (it joins us with that lock held).
 * Return: 0 with the lock held, -1 when asked to stop, 1 on a lock error.
 */
static int
dev_lock(struct ksim_cp *cp)
{
	struct ksim_device *dev = cp->dev;
	struct timespec dl;
	int r;

	if (!pthread_mutex_trylock(&dev->lock))
		return 0;
	for (;;) {
		if (__atomic_load_n(&cp->stop, __ATOMIC_ACQUIRE))
			return -1;
		clock_gettime(CLOCK_REALTIME, &dl);
		dl.tv_nsec += CP_LOCK_WAIT_NS;
		if (dl.tv_nsec >= 1000000000L) {
			dl.tv_sec++;
			dl.tv_nsec -= 1000000000L;
		}
		r = pthread_mutex_timedlock(&dev->lock, &dl);
		if (!r)
			return 0;
		if (r != ETIMEDOUT)
			return 1;
	}
}

int
cp_has_news(struct ksim_cp *cp)
{
	unsigned int want = 0;

	pthread_mutex_lock(&cp->lock);
	for (unsigned int i = 0; i < cp->n; i++) {
		struct ksim_cpq *cq = cp->qs[i];
		uint64_t db;

		if (cq->error || evicted(cp, cq))
			continue;
		if (!cq->doorbell || cq->pending) {
			want++;
			continue;
		}
		db = __atomic_load_n(cq->doorbell, __ATOMIC_ACQUIRE);
		if (db != cq->last_db) {
			want++;
			/* The ring's lines travel while the locks are taken. */
			if (cq->kind == CP_PM4)
				cp_pm4_prefetch(cq, db);
		}
	}
	pthread_mutex_unlock(&cp->lock);
	return want > 0;
}

/*
 * One pass: look at every doorbell (cp->lock only); if any queue has news
 * or work left, take the device lock and run those queues. The queue list
 * changes only with both locks held, so the device lock alone keeps it
 * still while the queues run: each pass takes each lock once.
 * Return: packets retired, -1 when asked to stop, or CP_PASS_SUSPENDED
 * while the machine is suspended (the queues are evicted: the doorbells
 * keep their news for the resume).
 */
static long
engine_pass(struct ksim_cp *cp)
{
	long done = 0;
	int r;

	if (!cp_has_news(cp))
		return 0;
	if (ksim_pm_pass_begin(cp->p))
		return CP_PASS_SUSPENDED;
	r = dev_lock(cp);
	if (r) {
		ksim_pm_pass_end(cp->p);
		return r < 0 ? -1 : 0;
	}
	cp_prio_order(cp);
	for (unsigned int i = 0; i < cp->n; i++) {
		struct ksim_cpq *cq = cp->qs[cp->order[i]];
		struct ksim_queue *q = cq->q;
		uint64_t db;

		if (cq->error)
			continue;
		/* No news and no work left: its state need not be looked at. */
		if (cq->doorbell && !cq->pending &&
		    __atomic_load_n(cq->doorbell, __ATOMIC_ACQUIRE) == cq->last_db)
			continue;
		/* Inactive (percentage 0, no ring, suspended): doorbells wait
		 * until the queue is active again. */
		if (!q->ring || !q->ring_size || !q->percentage ||
		    cp->p->queues_paused || evicted(cp, cq))
			continue;
		/* Work waits on a suspended queue: if the debugger that
		 * suspended it has ended, the kernel has resumed it. */
		if (ksim_dbg_queue_suspended(q)) {
			uint64_t now = now_ns(CLOCK_MONOTONIC);

			if (now - cp->dbg_look_ns < CP_DBG_LOOK_NS)
				continue;
			cp->dbg_look_ns = now;
			ksim_dbg_reap_debugger(cp->p);
			if (ksim_dbg_queue_suspended(q))
				continue;
		}
		if (cq->doorbell) {
			db = __atomic_load_n(cq->doorbell, __ATOMIC_ACQUIRE);
			if (db != cq->last_db) {
				/* The value is the last packet written; a
				 * smaller one (a slower producer) must not
				 * hide packets already announced. */
				cq->last_db = db;
				/* SDMA doorbells carry the byte write
				 * pointer, AQL ones the last packet. A
				 * PM4 doorbell is the write pointer
				 * itself, which the CP takes modulo the
				 * ring: the last one rung counts. */
				if (cq->kind == CP_PM4)
					cq->wbound = db;
				else if (db != UINT64_MAX &&
					 db + (cq->kind == CP_AQL) > cq->wbound)
					cq->wbound = db + (cq->kind == CP_AQL);
			} else if (!cq->pending) {
				continue;
			}
		}
		switch (cq->kind) {
		case CP_AQL:
			done += cp_aql_run(cp, cq);
			break;
		case CP_SDMA:
			done += cp_sdma_run(cp, cq);
			break;
		case CP_PM4:
			done += cp_pm4_run(cp, cq);
			break;
		}
	}
	pthread_mutex_unlock(&cp->dev->lock);
	ksim_pm_pass_end(cp->p);
	if (cp->turn_over) {
		cp->turn_over = 0;
		done++;
	}
	return done;
}

static void
engine_sleep(struct ksim_cp *cp, uint64_t ns)
{
	struct timespec dl;

	clock_gettime(CLOCK_MONOTONIC, &dl);
	dl.tv_sec += (time_t)(ns / 1000000000ULL);
	dl.tv_nsec += (long)(ns % 1000000000ULL);
	if (dl.tv_nsec >= 1000000000L) {
		dl.tv_sec++;
		dl.tv_nsec -= 1000000000L;
	}
	pthread_mutex_lock(&cp->lock);
	if (!__atomic_load_n(&cp->stop, __ATOMIC_ACQUIRE))
		pthread_cond_timedwait(&cp->cond, &cp->lock, &dl);
	pthread_mutex_unlock(&cp->lock);
}

static void *
engine_main(void *arg)
{
	struct ksim_cp *cp = arg;
	uint64_t idle_since = 0, sleep_ns = CP_SLEEP_MIN_NS, max;
	unsigned int spins = 0;
	int dozing = 0, suspended = 0;

	/* Short sleeps should be short: the default 50 us slack would
	 * dominate the wake-up latency. */
	(void)prctl(PR_SET_TIMERSLACK, 1000UL, 0, 0, 0);
	cp_log(cp, "engine started");
	for (;;) {
		long done = engine_pass(cp);
		uint64_t t;

		if (done == CP_PASS_SUSPENDED &&
		    !__atomic_load_n(&cp->stop, __ATOMIC_ACQUIRE)) {
			/* Evicted: wait for the resume, then look at once. */
			if (!suspended)
				cp_log(cp, "machine suspended: work waits for the resume");
			suspended = 1;
			ksim_pm_wait(cp->p, CP_PM_WAIT_NS);
			idle_since = 0;
			spins = 1;
			dozing = 0;
			sleep_ns = CP_SLEEP_MIN_NS;
			continue;
		}
		if (done < 0 || __atomic_load_n(&cp->stop, __ATOMIC_ACQUIRE))
			break;
		if (suspended && done > 0) {
			cp_log(cp, "machine resumed");
			suspended = 0;
		}
		if (done > 0) {
			/* No clock read while work flows: the idle time
			 * starts at the first look at the clock after it. */
			idle_since = 0;
			spins = 1;
			dozing = 0;
			sleep_ns = CP_SLEEP_MIN_NS;
			continue;
		}
		if (!dozing && spins++ % CP_SPIN_CHECK) {
			__builtin_ia32_pause();
			continue;
		}
		t = now_ns(CLOCK_MONOTONIC);
		if (!idle_since)
			idle_since = t;
		if (t - idle_since < CP_SPIN_NS) {
			__builtin_ia32_pause();
			continue;
		}
		dozing = 1;
		if (t - idle_since > CP_DEEP_AFTER_NS && cp_idle_block(cp)) {
			/* A doorbell store or a kick: look at once, and
			 * spin a while as after work. */
			idle_since = 0;
			spins = 1;
			dozing = 0;
			sleep_ns = CP_SLEEP_MIN_NS;
			continue;
		}
		engine_sleep(cp, sleep_ns);
		max = t - idle_since > CP_DEEP_AFTER_NS ? CP_DEEP_MAX_NS :
		      CP_SLEEP_MAX_NS;
		if (sleep_ns < max)
			sleep_ns = sleep_ns * 2 > max ? max : sleep_ns * 2;
	}
	cp_log(cp, "engine stopped (%llu packets retired, blocked %llu times "
	       "while idle)", (unsigned long long)cp->retired,
	       (unsigned long long)cp->idle_blocks);
	return NULL;
}

/* Wake a sleeping or blocked engine (cp->lock held). */
static void
engine_kick(struct ksim_cp *cp)
{
	pthread_cond_signal(&cp->cond);
	cp_idle_kick(cp);
}

struct ksim_cp *
cp_get(struct ksim_process *p)
{
	struct ksim_cp *cp = p->cp;
	pthread_condattr_t ca;
	const char *dbg;

	if (cp)
		return cp;
	cp = calloc(1, sizeof(*cp));
	if (!cp)
		return NULL;
	cp->p = p;
	cp->dev = p->dev;
	cp->pid = ksim_self_pid();
	dbg = getenv("KFDSIM_DEBUG");
	cp->debug = dbg && *dbg && strcmp(dbg, "0");
	/* KFDSIM_SHADERS=0: dispatches complete without running (as on a
	 * family without an interpreter) */
	dbg = getenv("KFDSIM_SHADERS");
	cp->no_shaders = dbg && !strcmp(dbg, "0");
	pthread_mutex_init(&cp->lock, NULL);
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_init(&cp->cond, &ca);
	pthread_condattr_destroy(&ca);
	cp_idle_init(cp);
	p->cp = cp;
	return cp;
}

#define CP_STACK_LEN	(8u << 20)	/* reserved, touched on use */

static int
engine_start(struct ksim_cp *cp)
{
	pthread_attr_t attr;
	sigset_t all, old;
	long m;
	int r;

	if (cp->running)
		return 0;
	/*
	 * A stack of our own, unmapped at teardown: glibc keeps the stacks of
	 * joined threads it made, and the simulator leaves nothing behind in
	 * the process once its files are closed. The lowest page is a guard.
	 */
	m = syscall(SYS_mmap, NULL, (size_t)CP_STACK_LEN, PROT_READ | PROT_WRITE,
		    MAP_PRIVATE | MAP_ANONYMOUS | MAP_STACK, -1, 0);
	if (m == -1)
		return -ENOMEM;
	cp->stack = (void *)m;
	cp->stack_len = CP_STACK_LEN;
	syscall(SYS_mprotect, cp->stack, (size_t)4096, PROT_NONE);
	pthread_attr_init(&attr);
	pthread_attr_setstack(&attr, (char *)cp->stack + 4096, CP_STACK_LEN - 4096);
	/* The engine must never run the application's signal handlers. */
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	r = pthread_create(&cp->thread, &attr, engine_main, cp);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	pthread_attr_destroy(&attr);
	if (r) {
		syscall(SYS_munmap, cp->stack, cp->stack_len);
		cp->stack = NULL;
		return -ENOMEM;
	}
	/* What ps/top and debuggers show for it. */
	(void)pthread_setname_np(cp->thread, "kfdsim-cp");
	cp->running = 1;
	return 0;
}

/*
 * Stop and join the engine (the owner process only). It takes the device
 * lock only with a timed wait that re-checks stop, so the caller may hold
 * it. Its stack goes with it, and with no queue left, the doorbell views.
 */
static void
engine_stop(struct ksim_cp *cp)
{
	if (!cp->running)
		return;
	pthread_mutex_lock(&cp->lock);
	__atomic_store_n(&cp->stop, 1, __ATOMIC_RELEASE);
	engine_kick(cp);
	pthread_mutex_unlock(&cp->lock);
	pthread_join(cp->thread, NULL);
	syscall(SYS_munmap, cp->stack, cp->stack_len);
	cp->stack = NULL;
	cp->running = 0;
	/* Our views of the doorbell pages go too (remapped with a queue). */
	if (!cp->n)
		for (unsigned int g = 0; g < KSIM_MAX_GPUS; g++)
			if (cp->db_map[g]) {
				syscall(SYS_munmap, cp->db_map[g],
					(size_t)cp->db_len[g]);
				cp->db_map[g] = NULL;
			}
	__atomic_store_n(&cp->stop, 0, __ATOMIC_RELEASE);
}

int
ksim_cp_queue_create(struct ksim_process *p, struct ksim_queue *q)
{
	static const char *const kind_names[] = { "AQL", "SDMA", "PM4" };
	struct ksim_cp *cp;
	struct ksim_cpq *cq;
	enum cp_kind kind;
	int r;

	switch (q->user_type) {
	case KFD_ABI_QUEUE_TYPE_COMPUTE_AQL:
		kind = CP_AQL;
		break;
	case KFD_ABI_QUEUE_TYPE_COMPUTE:
		kind = CP_PM4;
		break;
	case KFD_ABI_QUEUE_TYPE_SDMA:
	case KFD_ABI_QUEUE_TYPE_SDMA_XGMI:
	case KFD_ABI_QUEUE_TYPE_SDMA_BY_ENG_ID:
		kind = CP_SDMA;
		break;
	default:
		return 0;
	}
	cp = cp_get(p);
	if (!cp)
		return -ENOMEM;
	cq = calloc(1, sizeof(*cq));
	if (!cq)
		return -ENOMEM;
	cq->q = q;
	cq->qid = q->id;
	cq->gpu = q->gpu;
	cq->kind = kind;
	cq->doorbell = doorbell_slot(cp, q);
	/*
	 * Any first doorbell value, 0 included, is news; a slot reused from
	 * a destroyed queue must not keep its old value (nobody reads a
	 * hardware doorbell back, so the sentinel is invisible).
	 */
	cq->last_db = UINT64_MAX;
	if (cq->doorbell)
		__atomic_store_n((uint64_t *)(uintptr_t)cq->doorbell, UINT64_MAX,
				 __ATOMIC_RELEASE);
	r = engine_start(cp);
	if (r) {
		free(cq);
		return r;
	}
	pthread_mutex_lock(&cp->lock);
	cp->qs[cp->n++] = cq;
	engine_kick(cp);
	pthread_mutex_unlock(&cp->lock);
	cp_log(cp, "queue %u: %s ring 0x%llx (%u bytes), priority %u, doorbell %u%s",
	       q->id, kind_names[kind],
	       (unsigned long long)q->ring, q->ring_size, q->priority,
	       q->doorbell_id,
	       cq->doorbell ? "" : " (not polled: no 64-bit doorbell)");
	return 0;
}

static struct ksim_cpq *
cpq_find(struct ksim_cp *cp, const struct ksim_queue *q, unsigned int *idx)
{
	for (unsigned int i = 0; i < cp->n; i++) {
		if (cp->qs[i]->q == q) {
			if (idx)
				*idx = i;
			return cp->qs[i];
		}
	}
	return NULL;
}

/*
 * @q changed: the engine looks at it again at once (doorbells rung while
 * it was inactive, a dispatch waiting for a CU). Return: the engine's
 * view of it, or NULL (not one of the engine's, or a fork child's copy).
 */
static struct ksim_cpq *
cpq_touch(struct ksim_process *p, struct ksim_queue *q)
{
	struct ksim_cp *cp = p->cp;
	struct ksim_cpq *cq;

	if (!cp || cp->pid != ksim_self_pid())
		return NULL;
	pthread_mutex_lock(&cp->lock);
	cq = cpq_find(cp, q, NULL);
	if (cq) {
		cq->pending = 1;
		engine_kick(cp);
	}
	pthread_mutex_unlock(&cp->lock);
	return cq;
}

void
ksim_cp_queue_update(struct ksim_process *p, struct ksim_queue *q)
{
	if (cpq_touch(p, q))
		cp_log(p->cp, "queue %u: update: ring 0x%llx size %u percentage "
		       "%u priority %u -> %s", q->id, (unsigned long long)q->ring,
		       q->ring_size, q->percentage, q->priority,
		       q->ring && q->ring_size && q->percentage ? "active" : "stopped");
}

void
ksim_cp_queue_note(struct ksim_process *p, struct ksim_queue *q)
{
	if (cpq_touch(p, q))
		cp_log(p->cp, "queue %u: CU mask of %u bits: %u of the GPU's CUs "
		       "enabled (priority %u)", q->id, q->cu_mask_count,
		       ksim_queue_cus(p->dev, q), q->priority);
}

/*
 * The caller holds the device lock, so the engine is not processing; once
 * the queue is off the list (cp->lock), no pass can reach its ring again.
 */
void
ksim_cp_queue_destroy(struct ksim_process *p, struct ksim_queue *q)
{
	struct ksim_cp *cp = p->cp;
	struct ksim_cpq *cq;
	unsigned int i;

	if (!cp)
		return;
	if (cp->pid != ksim_self_pid()) {
		/* A fork child: the engine is the parent's; only forget. */
		cq = cpq_find(cp, q, &i);
		if (cq) {
			cp->qs[i] = cp->qs[--cp->n];
			sh_queue_gone(cp, cq);
			free(cq);
		}
		return;
	}
	pthread_mutex_lock(&cp->lock);
	cq = cpq_find(cp, q, &i);
	if (cq)
		cp->qs[i] = cp->qs[--cp->n];
	pthread_mutex_unlock(&cp->lock);
	if (cq) {
		cp_log(cp, "queue %u: destroyed at packet %llu", q->id,
		       (unsigned long long)cq->rd);
		sh_queue_gone(cp, cq);
		free(cq);
	}
	/* No queue left: no engine, and no thread left behind. */
	if (!cp->n)
		engine_stop(cp);
}

void
ksim_cp_kick(struct ksim_process *p)
{
	struct ksim_cp *cp = p->cp;

	if (!cp || !cp->running || cp->pid != ksim_self_pid())
		return;
	/* Only a sleeping engine: a blocked one has every queue idle, and
	 * a doorbell rung before the wait has already woken it. */
	pthread_mutex_lock(&cp->lock);
	pthread_cond_signal(&cp->cond);
	pthread_mutex_unlock(&cp->lock);
}

void
ksim_cp_fini(struct ksim_process *p)
{
	struct ksim_cp *cp = p->cp;

	if (!cp)
		return;
	p->cp = NULL;
	if (cp->pid == ksim_self_pid())
		engine_stop(cp);
	/* In a fork child the parent's engine does not exist here, and its
	 * lock may have been copied held: touch neither. */
	for (unsigned int i = 0; i < cp->n; i++)
		free(cp->qs[i]);
	for (unsigned int g = 0; g < KSIM_MAX_GPUS; g++)
		if (cp->db_map[g])
			syscall(SYS_munmap, cp->db_map[g], (size_t)cp->db_len[g]);
	cp_idle_fini(cp);
	if (cp->pid == ksim_self_pid()) {
		pthread_cond_destroy(&cp->cond);
		pthread_mutex_destroy(&cp->lock);
	}
	sh_ctx_free(cp->sh);
	free(cp);
}

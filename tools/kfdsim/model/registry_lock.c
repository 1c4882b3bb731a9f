/* SPDX-License-Identifier: MIT */
/*
 * The registry lock: one 32-bit word in the machine file's header
 * (reg_head.lock), a futex every process of the machine waits on.
 *
 * The file is mapped into the simulated program, so a stray write can put
 * anything in the word, and a process can die holding the lock. Neither may
 * hang a process of the machine, so the word says who holds it and every
 * wait is bounded:
 *
 *	0			free
 *	TID			held by thread TID (1 .. LOCK_TID_MAX)
 *	TID | LOCK_WAITERS	held, and someone waits: wake one at unlock
 *
 * A waiter wakes every LOCK_SLICE_NS to look at the holder. A holder that
 * has ended (no such thread, or a zombie) left the lock behind: the waiter
 * takes it over, with a message, and carries on (counts may be mid-update,
 * but each update is a few stores). Any other value is not a lock state:
 * the machine is refused. A holder that lives but keeps the lock past
 * LOCK_DEADLINE_S (stopped, or a recycled TID) is given up on. Both are said
 * once, naming the file, and from then on every registry operation of this
 * process fails (-EIO) at once.
 */
#include <errno.h>
#include <linux/futex.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "ksim_priv.h"
#include "registry_priv.h"

#define LOCK_WAITERS	0x80000000u
#define LOCK_TID_MAX	4194304u		/* the kernel's PID_MAX_LIMIT */
#define LOCK_SLICE_NS	50000000L		/* 50 ms between looks at the holder */
#define LOCK_DEADLINE_S	10

static uint64_t
now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec;
}

static int
lock_state_valid(uint32_t v)
{
	uint32_t tid = v & ~LOCK_WAITERS;

	return v == 0 || (tid && tid <= LOCK_TID_MAX);
}

/* From now on this process leaves the registry alone: say why, once. */
static int
lock_broken(struct ksim_registry *reg, const char *fmt, ...)
{
	char why[200];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, sizeof(why), fmt, ap);
	va_end(ap);
	reg->broken = 1;
	ksim_machine_log(ksim_reg_name(reg),
			 "%s: refusing the machine", why);
	return -EIO;
}

int
ksim_reg_lock(struct ksim_registry *reg)
{
	uint32_t *w = &reg->sh->h.lock;
	uint32_t self = (uint32_t)syscall(SYS_gettid), v = 0;
	const struct timespec slice = { 0, LOCK_SLICE_NS };
	uint64_t start;

	if (reg->broken)
		return -EIO;
	if (__atomic_compare_exchange_n(w, &v, self, 0, __ATOMIC_ACQUIRE,
					__ATOMIC_RELAXED))
		return 0;
	start = now_s();
	for (;;) {
		uint32_t tid;
		int timed_out;
		long r;

		if (!lock_state_valid(v))
			return lock_broken(reg, "its lock word holds 0x%08x, which is "
					   "no lock state (overwritten)", v);
		/* Others may wait: keep the bit when taking it. */
		if (!v) {
			if (__atomic_compare_exchange_n(w, &v, self | LOCK_WAITERS, 0,
							__ATOMIC_ACQUIRE, __ATOMIC_RELAXED))
				return 0;
			continue;
		}
		if (!(v & LOCK_WAITERS) &&
		    !__atomic_compare_exchange_n(w, &v, v | LOCK_WAITERS, 0,
						 __ATOMIC_RELAXED, __ATOMIC_RELAXED))
			continue;
		r = syscall(SYS_futex, w, FUTEX_WAIT, v | LOCK_WAITERS, &slice, NULL, 0);
		timed_out = r && errno == ETIMEDOUT;
		v = __atomic_load_n(w, __ATOMIC_RELAXED);
		tid = v & ~LOCK_WAITERS;
		if (!v || !lock_state_valid(v))
			continue;
		/* No thread takes the lock twice: our own TID there was left by
		 * an ended thread that had it. */
		if (timed_out && (tid == self || !ksim_proc_start_time((pid_t)tid))) {
			if (__atomic_compare_exchange_n(w, &v, self | LOCK_WAITERS, 0,
							__ATOMIC_ACQUIRE, __ATOMIC_RELAXED)) {
				ksim_machine_log(ksim_reg_name(reg), "the registry lock's holder "
						 "(thread %u) has ended: taking the lock "
						 "over", tid);
				return 0;
			}
			continue;
		}
		if (now_s() - start >= LOCK_DEADLINE_S)
			return lock_broken(reg, "thread %u has held its lock for more "
					   "than %d s", tid, LOCK_DEADLINE_S);
	}
}

void
ksim_reg_unlock(struct ksim_registry *reg)
{
	uint32_t v = __atomic_exchange_n(&reg->sh->h.lock, 0, __ATOMIC_RELEASE);

	if (v & LOCK_WAITERS)
		syscall(SYS_futex, &reg->sh->h.lock, FUTEX_WAKE, 1, NULL, NULL, 0);
}

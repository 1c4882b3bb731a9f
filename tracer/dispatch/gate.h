/* SPDX-License-Identifier: MIT */
/*
 * A reader gate: lets a writer swap a shared pointer and then wait until
 * no reader can still be using the old one, with no atomic read-modify-
 * write on the read side (those cost 15 ns each on the machines we run on,
 * and a traced ioctl crosses the gate twice).
 *
 * Each thread owns a reader record with one counter per gate, odd while
 * it is inside. Entering is a plain store; the ordering a reader would
 * otherwise need (its store before its load of the pointer) is supplied by
 * the writer, who after publishing the new pointer makes every running
 * thread execute a full barrier (membarrier(2), private expedited), then
 * waits for each counter it saw odd to move on. Where membarrier is not
 * available readers fall back to a fence of their own.
 *
 * Sections of one gate nest on a thread (a signal handler may issue an
 * ioctl inside one); only the outermost one counts.
 */
#ifndef KFD_GATE_H
#define KFD_GATE_H

#include <stdatomic.h>
#include <stdint.h>

/* How many gates a process may have (they are static objects). */
#define KFD_GATE_MAX 8

struct kfd_gate {
	atomic_int id;		/* 1..KFD_GATE_MAX once used; 0 before */
};

#define KFD_GATE_INIT { 0 }

/*
 * A thread's reader record (gate.c owns them; here for the inline paths).
 * seq[i] is odd while the thread is inside a section of gate id i + 1.
 */
struct kfd_gate_reader {
	atomic_ulong seq[KFD_GATE_MAX];
	atomic_int in_use;
	struct kfd_gate_reader *next;		/* immutable once published */
} __attribute__((aligned(64)));

extern __thread struct kfd_gate_reader *kfd_gate_me
	__attribute__((tls_model("initial-exec")));
/* Set once membarrier is registered: readers then need no fence. */
extern atomic_int kfd_gate_mb;

/* Slow paths of kfd_gate_enter() (gate.c). */
struct kfd_gate_reader *kfd_gate_register(void);
int kfd_gate_new_id(struct kfd_gate *g);

/* The token of a section nested in another of the same gate. */
#define KFD_GATE_NESTED	(KFD_GATE_MAX + 1u)

/*
 * kfd_gate_enter() - start a read-side section.
 *
 * Inline: a traced ioctl crosses a gate twice, and this is a few plain
 * loads and stores once the thread and the gate are set up. A section
 * nested in another (a signal handler's ioctl inside one) finds its
 * counter odd already and leaves it alone: the outer section covers it.
 * A handler that runs between the load and the store below opens and
 * closes a section of its own, then this store marks ours.
 *
 * Return: a token for kfd_gate_leave().
 */
static inline unsigned int
kfd_gate_enter(struct kfd_gate *g)
{
	struct kfd_gate_reader *r = kfd_gate_me;
	int id = atomic_load_explicit(&g->id, memory_order_relaxed);
	unsigned long s;

	if (__builtin_expect(id == 0, 0))
		id = kfd_gate_new_id(g);
	if (__builtin_expect(!r, 0)) {
		r = kfd_gate_register();
		/*
		 * Without a record (no memory) the section is unprotected:
		 * there is nothing better to do, and drains cannot wait for
		 * this thread.
		 */
		if (!r)
			return 0;
	}
	s = atomic_load_explicit(&r->seq[id - 1], memory_order_relaxed);
	if (s & 1)
		return KFD_GATE_NESTED;
	atomic_store_explicit(&r->seq[id - 1], s + 1, memory_order_relaxed);
	if (__builtin_expect(atomic_load_explicit(&kfd_gate_mb,
						  memory_order_relaxed), 1))
		atomic_signal_fence(memory_order_seq_cst);
	else
		atomic_thread_fence(memory_order_seq_cst);
	return (unsigned int)id;
}

/* kfd_gate_leave() - end the section started with @token. */
static inline void
kfd_gate_leave(struct kfd_gate *g, unsigned int token)
{
	struct kfd_gate_reader *r = kfd_gate_me;
	unsigned long s;

	(void)g;
	if (token - 1 >= KFD_GATE_MAX)
		return;		/* nested, or no record */
	s = atomic_load_explicit(&r->seq[token - 1], memory_order_relaxed);
	/* Release: the section's loads happen before the writer can see
	 * it has left. */
	atomic_store_explicit(&r->seq[token - 1], s + 1, memory_order_release);
}

/*
 * kfd_gate_drain() - wait until every section that began before the call
 * has ended. The caller has already published the new pointer (with a
 * sequentially consistent store), serializes drains with a lock of its own,
 * and is not inside a section of @g itself.
 */
void kfd_gate_drain(struct kfd_gate *g);

/*
 * kfd_gate_drain_for() - kfd_gate_drain() that gives up on the sections
 * still open @timeout ns after the call (0: never gives up).
 * Async-signal-safe once the gate has been used.
 * Return: how many sections it gave up on.
 */
unsigned int kfd_gate_drain_for(struct kfd_gate *g, uint64_t timeout);

/*
 * kfd_gate_reset() - in a forked child: forget the sections of threads
 * that exist only in the parent (they would make a drain wait forever).
 */
void kfd_gate_reset(struct kfd_gate *g);

#endif /* KFD_GATE_H */

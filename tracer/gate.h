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

/* How many gates a process may have (they are static objects). */
#define KFD_GATE_MAX 8

struct kfd_gate {
	atomic_int id;		/* 1..KFD_GATE_MAX once used; 0 before */
};

#define KFD_GATE_INIT { 0 }

/*
 * kfd_gate_enter() - start a read-side section.
 *
 * Return: a token for kfd_gate_leave().
 */
unsigned int kfd_gate_enter(struct kfd_gate *g);

/* kfd_gate_leave() - end the section started with @token. */
void kfd_gate_leave(struct kfd_gate *g, unsigned int token);

/*
 * kfd_gate_drain() - wait until every section that began before the call
 * has ended. The caller has already published the new pointer (with a
 * sequentially consistent store), serializes drains with a lock of its own,
 * and is not inside a section of @g itself.
 */
void kfd_gate_drain(struct kfd_gate *g);

/*
 * kfd_gate_reset() - in a forked child: forget the sections of threads
 * that exist only in the parent (they would make a drain wait forever).
 */
void kfd_gate_reset(struct kfd_gate *g);

#endif /* KFD_GATE_H */

/* SPDX-License-Identifier: MIT */
/*
 * Fault injection through the dispatch point: "make the Nth call of ioctl
 * KIND fail with errno E", without the kernel seeing that call.
 *
 * A fault set is a list of rules and a dispatch hook. Calls are counted per
 * rule, per attempt (a retried EINTR counts again), over every fd of the
 * rule's file kind. Register the set after a recorder so that the recorder
 * records the injected failure the caller saw.
 */
#ifndef KFDTRACE_FAULTS_H
#define KFDTRACE_FAULTS_H

#include <stddef.h>

#include <kfdtrace/schema.h>

#ifdef __cplusplus
extern "C" {
#endif

struct kfd_faults;

/* kfd_faults_new() - an empty fault set, or NULL when out of memory. */
struct kfd_faults *kfd_faults_new(void);

/*
 * kfd_faults_add() - add a rule.
 * @f:		the set (not attached yet)
 * @ioctl:	a schema name, "ALLOC_MEMORY_OF_GPU" or "alloc_memory_of_gpu"
 * @nth:	the first call to fail, counting from 1
 * @count:	how many calls from @nth on fail; 0 means all of them
 * @err:	the errno they fail with (positive)
 *
 * Return: 0; -ENOENT for an unknown ioctl name; -EINVAL for @nth == 0 or
 * @err <= 0; -EBUSY if the set is attached; -ENOMEM.
 */
int kfd_faults_add(struct kfd_faults *f, const char *ioctl,
		   unsigned long nth, unsigned long count, int err);

/*
 * kfd_faults_parse() - add the rules of a spec string in the common
 * fault-spec grammar (kfdtrace/common/faultspec.h, docs/tracer.md "Fault
 * specs"), rules separated by ',' or ';':
 *	NAME:WHICH:ERRNO	e.g. "ALLOC_MEMORY_OF_GPU:3:ENOMEM"
 * WHICH is N, N+COUNT, N+* or *; COUNT 0 or "*" means every call from N
 * on, "*" every call, and without "+COUNT" one call fails. ERRNO is a
 * number or any name kc_errno_parse() knows. The grammar's delay=T and
 * NAME "*" are kfdsim's only: they are refused here. One trailing ','
 * is allowed.
 *
 * Return: 0; -ENOENT for an unknown ioctl name (or "*"); -EINVAL for a
 * malformed rule or a delay; -ENOMEM. Rules before the bad one stay
 * added.
 */
int kfd_faults_parse(struct kfd_faults *f, const char *spec);

/*
 * kfd_faults_parse_msg() - kfd_faults_parse(), and on an error what is
 * wrong in @msg ("rule 2, column 14: 'FOO': unknown ioctl"; may be NULL).
 */
int kfd_faults_parse_msg(struct kfd_faults *f, const char *spec, char *msg,
			 size_t msglen);

/* kfd_faults_attach() - register the set's dispatch hook. Return: 0/-errno. */
int kfd_faults_attach(struct kfd_faults *f);

/* kfd_faults_detach() - unregister it (waits for calls in flight). */
void kfd_faults_detach(struct kfd_faults *f);

/*
 * kfd_faults_injected() - how many calls the set has failed so far.
 */
unsigned long kfd_faults_injected(const struct kfd_faults *f);

/*
 * kfd_faults_seen() - how many calls matched rule @index (in the order
 * added), failed or not; 0 for a bad index.
 */
unsigned long kfd_faults_seen(const struct kfd_faults *f, unsigned int index);

/* kfd_faults_free() - detach if attached, and free. NULL is ignored. */
void kfd_faults_free(struct kfd_faults *f);

#ifdef __cplusplus
}
#endif

#endif /* KFDTRACE_FAULTS_H */

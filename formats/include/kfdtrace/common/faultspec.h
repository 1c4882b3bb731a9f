/* SPDX-License-Identifier: MIT */
/*
 * The one fault-spec grammar (docs/tracer.md, "Fault specs"), read by the
 * tracer's fault injector (kfd_faults_parse()) and by kfdsim's fault mode
 * (KFDSIM_FAULTS). A spec is a list of rules separated by ',' or ';':
 *
 *	NAME:WHICH:EFFECT[:EFFECT]
 *
 * NAME	an ioctl name (1..63 chars, resolved by the consumer), or "*"
 * WHICH	N (the Nth call, from 1), N+C (C calls from the Nth; C 0 means
 *	all), N+* (every call from the Nth) or * (every call)
 * EFFECT	an errno (kc_errno_parse(): a name or 1..4095), or delay=T with
 *	T a decimal of ns, us, ms or s, 1 ns to 1 h; at most one of each.
 *
 * This file knows only the text: the consumer resolves NAME and refuses
 * what it cannot do (the tracer has no delay), with kc_faultspec_msg()
 * for a message in the same form as the parser's own.
 */
#ifndef KFDTRACE_COMMON_FAULTSPEC_H
#define KFDTRACE_COMMON_FAULTSPEC_H

#include <stddef.h>
#include <stdint.h>

#define KC_FAULTSPEC_NAME_MAX	64			/* with the NUL */
#define KC_FAULTSPEC_MAX_DELAY	(3600ull * 1000000000ull)	/* 1 h in ns */

/* Where a part of the spec is: its offset in the spec and its length. */
struct kc_faultspec_span {
	size_t off;
	size_t len;
};

struct kc_fault_rule {
	char name[KC_FAULTSPEC_NAME_MAX];	/* as written; "*": every ioctl */
	uint64_t nth;				/* the first call to hit, from 1 */
	uint64_t count;				/* calls from nth on; 0: all */
	int err;				/* positive errno; 0: none */
	uint64_t delay_ns;			/* 0: none */
	unsigned int index;			/* the rule's number, from 1 */
	const char *spec;			/* the whole spec (for messages) */
	struct kc_faultspec_span rule, name_at, which_at, err_at, delay_at;
};

/*
 * kc_faultspec_fn - called once per rule, in order, as it is parsed.
 * @msg, @msglen:	the caller's message buffer (may be NULL/0), for
 *			kc_faultspec_msg()
 *
 * Return: 0 to go on; a negative errno stops the parse, which returns it.
 */
typedef int (*kc_faultspec_fn)(void *ctx, const struct kc_fault_rule *r,
			       char *msg, size_t msglen);

/*
 * kc_faultspec_parse() - parse @spec, handing each rule to @fn.
 * @spec:	the spec; NULL and "" hold no rules
 * @msg:	receives what is wrong, "rule N, column C: 'TEXT': why"
 *		(columns count from 1); may be NULL
 *
 * Rules before a bad one have been handed to @fn already.
 *
 * Return: 0; -EINVAL for a malformed rule (an empty one too, so a
 * trailing separator is an error); or what @fn returned.
 */
int kc_faultspec_parse(const char *spec, kc_faultspec_fn fn, void *ctx,
		       char *msg, size_t msglen);

/*
 * kc_faultspec_msg() - write "rule N, column C: 'TEXT': @why" into @msg
 * for the part @at of rule @r (one of its spans), as the parser does.
 * TEXT is escaped (kc_text_escape()) and, when @msg is short, cut with
 * "..." so that @why fits whole.
 */
void kc_faultspec_msg(char *msg, size_t msglen, const struct kc_fault_rule *r,
		      const struct kc_faultspec_span *at, const char *why);

#endif /* KFDTRACE_COMMON_FAULTSPEC_H */

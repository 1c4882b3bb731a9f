/* SPDX-License-Identifier: MIT */
/*
 * Fault mode: make chosen ioctls fail, or answer late, so that timing and
 * error-path bugs of a program can be reproduced on the simulator
 * (KFDSIM_FAULTS, docs/kfdsim.md). The spec is the common fault-spec
 * grammar (kfdtrace/common/faultspec.h, docs/tracer.md "Fault specs"):
 * this file resolves each rule's NAME (a KFD or amdgpu schema name, or "*"
 * for every /dev/kfd ioctl) and applies its errno and delay. Calls are
 * counted per rule, per process, over every file of the ioctl's kind.
 *
 * With no spec the model never looks at this file's state: its answers
 * are exactly those of the plain model.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <kfdtrace/common/faultspec.h>

#include "ksim_priv.h"

/* How many rules a spec may hold. */
#define KSIM_FAULTS_MAX_RULES	64

struct ksim_fault_rule {
	const struct kfd_ioctl_desc *desc;	/* NULL: every /dev/kfd ioctl */
	uint64_t nth;				/* first call to hit, from 1 */
	uint64_t count;				/* calls from nth on; 0: all */
	int err;				/* 0: no failure */
	uint64_t delay_ns;
	uint64_t seen;				/* calls matched so far (atomic) */
};

struct ksim_faults {
	unsigned int n;
	struct ksim_fault_rule rules[KSIM_FAULTS_MAX_RULES];
};

static int
faults_add(void *ctx, const struct kc_fault_rule *r, char *msg, size_t msglen)
{
	struct ksim_faults *f = ctx;
	struct ksim_fault_rule *k;

	if (f->n == KSIM_FAULTS_MAX_RULES) {
		kc_faultspec_msg(msg, msglen, r, &r->rule, "more than 64 rules");
		return -EINVAL;
	}
	k = &f->rules[f->n];
	memset(k, 0, sizeof(*k));
	if (strcmp(r->name, "*")) {
		k->desc = kfd_schema_by_name(r->name);
		if (!k->desc) {
			kc_faultspec_msg(msg, msglen, r, &r->name_at, "unknown ioctl");
			return -EINVAL;
		}
	}
	k->nth = r->nth;
	k->count = r->count;
	k->err = r->err;
	k->delay_ns = r->delay_ns;
	f->n++;
	return 0;
}

int
ksim_faults_parse(const char *spec, struct ksim_faults **out, char *msg, size_t msglen)
{
	struct ksim_faults *f;
	int r;

	*out = NULL;
	if (msg && msglen)
		msg[0] = '\0';
	if (!spec || !*spec)
		return 0;
	f = calloc(1, sizeof(*f));
	if (!f)
		return -ENOMEM;
	r = kc_faultspec_parse(spec, faults_add, f, msg, msglen);
	if (r) {
		free(f);
		return r;
	}
	*out = f;
	return 0;
}

void
ksim_faults_free(struct ksim_faults *f)
{
	free(f);
}

int
ksim_faults_check_spec(const char *spec, char *msg, size_t msglen)
{
	struct ksim_faults *f;
	int r = ksim_faults_parse(spec, &f, msg, msglen);

	ksim_faults_free(f);
	return r;
}

int
ksim_faults_check(struct ksim_faults *f, enum kfd_file_kind kind, unsigned long request,
		  uint64_t *delay_ns)
{
	/* Rows are unique per file kind: compare pointers, look up once. */
	const struct kfd_ioctl_desc *desc = kfd_schema_lookup(kind, request);
	int err = 0;

	*delay_ns = 0;
	for (unsigned int i = 0; i < f->n; i++) {
		struct ksim_fault_rule *r = &f->rules[i];
		uint64_t n;

		/* A named rule matches its row; "*" every /dev/kfd ioctl. */
		if (r->desc ? r->desc != desc : kind != KFD_FILE_KFD)
			continue;
		n = __atomic_add_fetch(&r->seen, 1, __ATOMIC_RELAXED);
		if (n < r->nth || (r->count && n - r->nth >= r->count))
			continue;
		*delay_ns += r->delay_ns;
		if (r->err && !err)
			err = r->err;
	}
	return -err;
}

void
ksim_faults_delay(uint64_t ns)
{
	struct timespec ts = {
		.tv_sec = (time_t)(ns / 1000000000ull),
		.tv_nsec = (long)(ns % 1000000000ull),
	};

	/* Sleep the whole time even when signals interrupt it. */
	while (clock_nanosleep(CLOCK_MONOTONIC, 0, &ts, &ts) == EINTR)
		;
}

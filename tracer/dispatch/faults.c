/* SPDX-License-Identifier: MIT */
/*
 * Fault injection hook (see kfdtrace/faults.h).
 *
 * Rules match a schema row rather than a request code: the kernel accepts
 * any size in the request for KFD ioctls, so the same ioctl may arrive
 * with different codes (old struct sizes, SVM's trailing attributes).
 */
#include <errno.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include <kfdtrace/common/faultspec.h>
#include <kfdtrace/dispatch.h>
#include <kfdtrace/faults.h>

struct fault_rule {
	const struct kfd_ioctl_desc *desc;
	unsigned long nth;
	unsigned long count;
	int err;
	atomic_ulong seen;
};

struct kfd_faults {
	struct fault_rule *rules;
	unsigned int nrules;
	int attached;
	atomic_ulong injected;
};

static int
faults_before(void *ctx, struct kfd_dispatch_call *call, void **cookie)
{
	struct kfd_faults *f = ctx;

	if (!call->desc)
		return KFD_HOOK_CONTINUE;
	for (unsigned int i = 0; i < f->nrules; i++) {
		struct fault_rule *r = &f->rules[i];
		unsigned long n;

		if (r->desc != call->desc)
			continue;
		n = atomic_fetch_add_explicit(&r->seen, 1,
					      memory_order_relaxed) + 1;
		if (n < r->nth || (r->count && n - r->nth >= r->count))
			continue;
		atomic_fetch_add_explicit(&f->injected, 1, memory_order_relaxed);
		call->ret = -1;
		call->err = r->err;
		return KFD_HOOK_COMPLETE;
	}
	return KFD_HOOK_CONTINUE;
}

static const struct kfd_dispatch_hooks faults_hooks = {
	.name = "faults",
	.before = faults_before,
};

struct kfd_faults *
kfd_faults_new(void)
{
	return calloc(1, sizeof(struct kfd_faults));
}

int
kfd_faults_add(struct kfd_faults *f, const char *ioctl, unsigned long nth,
	       unsigned long count, int err)
{
	const struct kfd_ioctl_desc *desc;
	struct fault_rule *rules;

	if (!f || !ioctl || nth == 0 || err <= 0)
		return -EINVAL;
	if (f->attached)
		return -EBUSY;
	desc = kfd_schema_by_name(ioctl);
	if (!desc)
		return -ENOENT;
	rules = realloc(f->rules, (f->nrules + 1) * sizeof(*rules));
	if (!rules)
		return -ENOMEM;
	f->rules = rules;
	memset(&rules[f->nrules], 0, sizeof(rules[0]));
	rules[f->nrules].desc = desc;
	rules[f->nrules].nth = nth;
	rules[f->nrules].count = count;
	rules[f->nrules].err = err;
	f->nrules++;
	return 0;
}

/*
 * One rule of the common grammar (kfdtrace/common/faultspec.h). The hook
 * fails calls and names rows: no delays, no "*".
 */
static int
faults_add_rule(void *ctx, const struct kc_fault_rule *r, char *msg,
		size_t msglen)
{
	int ret;

	if (r->delay_ns) {
		kc_faultspec_msg(msg, msglen, r, &r->delay_at,
				 "delays are kfdsim's only (KFDSIM_FAULTS); the tracer fails calls");
		return -EINVAL;
	}
	if (!strcmp(r->name, "*")) {
		kc_faultspec_msg(msg, msglen, r, &r->name_at,
				 "every-ioctl rules are kfdsim's only; name the ioctl");
		return -ENOENT;
	}
	ret = kfd_faults_add(ctx, r->name, r->nth, r->count, r->err);
	if (ret == -ENOENT)
		kc_faultspec_msg(msg, msglen, r, &r->name_at, "unknown ioctl");
	else if (ret)
		kc_faultspec_msg(msg, msglen, r, &r->rule, strerror(-ret));
	return ret;
}

int
kfd_faults_parse_msg(struct kfd_faults *f, const char *spec, char *msg,
		     size_t msglen)
{
	char *copy = NULL;
	size_t len;
	int ret;

	if (msg && msglen)
		msg[0] = '\0';
	if (!f || !spec)
		return -EINVAL;
	/*
	 * "RULE," was always accepted here (a spec built in a loop); the
	 * grammar has no empty rule, so drop that one comma.
	 */
	len = strlen(spec);
	if (len > 1 && spec[len - 1] == ',') {
		copy = strndup(spec, len - 1);
		if (!copy)
			return -ENOMEM;
		spec = copy;
	}
	ret = kc_faultspec_parse(spec, faults_add_rule, f, msg, msglen);
	free(copy);
	return ret;
}

int
kfd_faults_parse(struct kfd_faults *f, const char *spec)
{
	return kfd_faults_parse_msg(f, spec, NULL, 0);
}

int
kfd_faults_attach(struct kfd_faults *f)
{
	int ret;

	if (!f)
		return -EINVAL;
	if (f->attached)
		return -EBUSY;
	ret = kfd_dispatch_hook_add(&faults_hooks, f);
	if (ret == 0)
		f->attached = 1;
	return ret;
}

void
kfd_faults_detach(struct kfd_faults *f)
{
	if (f && f->attached) {
		kfd_dispatch_hook_remove(&faults_hooks, f);
		f->attached = 0;
	}
}

unsigned long
kfd_faults_injected(const struct kfd_faults *f)
{
	return f ? atomic_load(&((struct kfd_faults *)f)->injected) : 0;
}

unsigned long
kfd_faults_seen(const struct kfd_faults *f, unsigned int index)
{
	if (!f || index >= f->nrules)
		return 0;
	return atomic_load(&f->rules[index].seen);
}

void
kfd_faults_free(struct kfd_faults *f)
{
	if (!f)
		return;
	kfd_faults_detach(f);
	free(f->rules);
	free(f);
}

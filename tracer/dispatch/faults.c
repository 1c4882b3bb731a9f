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
#include <strings.h>

#include <kfdtrace/common/errnames.h>
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

/* Parse one NAME:NTH[+COUNT]:ERRNO of @len bytes. */
static int
faults_parse_one(struct kfd_faults *f, const char *s, size_t len)
{
	const char *c1 = memchr(s, ':', len), *c2, *end = s + len;
	char name[64], *p;
	unsigned long nth, count = 1;
	int err;

	if (!c1 || (size_t)(c1 - s) >= sizeof(name) || c1 == s)
		return -EINVAL;
	c2 = memchr(c1 + 1, ':', (size_t)(end - c1 - 1));
	if (!c2)
		return -EINVAL;
	memcpy(name, s, (size_t)(c1 - s));
	name[c1 - s] = '\0';
	nth = strtoul(c1 + 1, &p, 10);
	if (p == c1 + 1)
		return -EINVAL;
	if (*p == '+') {
		if (p[1] == '*') {
			count = 0;
			p += 2;
		} else {
			char *q;

			count = strtoul(p + 1, &q, 10);
			if (q == p + 1)
				return -EINVAL;
			p = q;
		}
	}
	if (p != c2)
		return -EINVAL;
	err = kc_errno_parse(c2 + 1, (size_t)(end - c2 - 1));
	if (err < 0)
		return -EINVAL;
	return kfd_faults_add(f, name, nth, count, err);
}

int
kfd_faults_parse(struct kfd_faults *f, const char *spec)
{
	if (!f || !spec)
		return -EINVAL;
	while (*spec) {
		const char *comma = strchr(spec, ',');
		size_t len = comma ? (size_t)(comma - spec) : strlen(spec);
		int ret = faults_parse_one(f, spec, len);

		if (ret)
			return ret;
		spec += len + (comma ? 1 : 0);
	}
	return 0;
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

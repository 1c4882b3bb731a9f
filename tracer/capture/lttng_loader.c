/* SPDX-License-Identifier: MIT */
/*
 * LTTng output (KFDTRACE_LTTNG=1): libkfdtrace-lttng.so, the "kfd"
 * lttng-ust provider, is loaded and its hooks join the recorder's on the
 * dispatch point, so that every call recorded in the trace file is also a
 * kfd:* event in whatever LTTng sessions enable them (docs/lttng.md).
 *
 * The provider is loaded at a process's first device event, when its
 * trace begins, not at start-up: the shells and helpers a traced program
 * runs then never get liblttng-ust, its two threads and its session
 * daemon handshake. It is never unloaded (lttng-ust forbids dlclose()
 * of a provider in use). Loading must not happen under the session lock:
 * liblttng-ust's constructor forks (to create its shared memory), and the
 * session's fork handler takes that lock.
 *
 * Each new trace attaches the hooks again: a forked child starts with
 * none (the session's fork handler drops them all) and gets them back with
 * its own trace, at its first device event, before that event's ioctl.
 *
 * Environment:
 *   KFDTRACE_LTTNG	  1: load the provider
 *   KFDTRACE_LTTNG_LIB	  its path; default: next to this library (or in
 *			  lttng/ below it, as in the build tree), then the
 *			  dynamic linker's search
 */
#include "capture.h"

#include <dlfcn.h>
#include <limits.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <kfdtrace/dispatch.h>
#include <kfdtrace/lttng.h>

static _Atomic(const struct kfd_lttng_provider *) lttng_prov;
static pthread_once_t lttng_once = PTHREAD_ONCE_INIT;

/* The provider's path next to this library, if it is there. */
static int
lttng_beside_us(char *out, size_t size)
{
	static const char *const rel[] = { "", "lttng/" };
	Dl_info info;
	const char *slash;

	if (!dladdr((void *)lttng_beside_us, &info) || !info.dli_fname)
		return -1;
	slash = strrchr(info.dli_fname, '/');
	if (!slash)
		return -1;
	for (size_t i = 0; i < sizeof(rel) / sizeof(rel[0]); i++) {
		if ((size_t)snprintf(out, size, "%.*s/%s%s",
				     (int)(slash - info.dli_fname),
				     info.dli_fname, rel[i],
				     KFD_LTTNG_LIBRARY) >= size)
			continue;
		if (access(out, R_OK) == 0)
			return 0;
	}
	return -1;
}

static void
lttng_load(void)
{
	const char *lib = getenv("KFDTRACE_LTTNG_LIB");
	const struct kfd_lttng_provider *p;
	kfd_lttng_provider_fn get;
	char path[PATH_MAX];
	void *h;

	if (!kcap_env_flag("KFDTRACE_LTTNG", 0))
		return;
	if (!lib || !*lib)
		lib = lttng_beside_us(path, sizeof(path)) == 0 ? path :
		      KFD_LTTNG_LIBRARY;
	h = dlopen(lib, RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE);
	if (!h) {
		fprintf(stderr, "kfdtrace-capture: KFDTRACE_LTTNG is set but "
			"the lttng provider cannot be loaded: %s\n", dlerror());
		return;
	}
	*(void **)&get = dlsym(h, KFD_LTTNG_PROVIDER_SYMBOL);
	p = get ? get(KFD_LTTNG_ABI) : NULL;
	if (!p) {
		fprintf(stderr, "kfdtrace-capture: %s is not a kfdtrace lttng "
			"provider of this version\n", lib);
		return;
	}
	atomic_store_explicit(&lttng_prov, p, memory_order_release);
}

void
kcap_lttng_load(void)
{
	pthread_once(&lttng_once, lttng_load);
}

void
kcap_lttng_attach(void)
{
	const struct kfd_lttng_provider *p =
		atomic_load_explicit(&lttng_prov, memory_order_acquire);

	/* -EEXIST (a second trace of this process image) is fine. */
	if (p)
		kfd_dispatch_hook_add(p->hooks, NULL);
}

void
kcap_lttng_record(const struct kt_record *rec)
{
	const struct kfd_lttng_provider *p =
		atomic_load_explicit(&lttng_prov, memory_order_acquire);

	if (!p)
		return;
	if (rec->type == KT_REC_MMAP) {
		const struct kt_mmap_rec *m = &rec->u.mmap;

		p->mmap(m->addr, m->len, m->prot, m->flags, m->fd, m->file_kind,
			m->offset, m->result, m->err);
	} else if (rec->type == KT_REC_MUNMAP) {
		const struct kt_munmap_rec *m = &rec->u.munmap;

		p->munmap(m->addr, m->len, (int)m->ret, m->err);
	} else if (rec->type == KT_REC_SUBMIT) {
		const struct kt_submit_rec *s = &rec->u.submit;

		p->submit(s->queue_id, s->gpu_id, s->engine, s->first, s->last,
			  s->data, s->len);
	}
}

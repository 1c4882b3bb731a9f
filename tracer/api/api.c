/* SPDX-License-Identifier: MIT */
/*
 * What the generated hsaKmt* wrappers share (see api.h): the lookup of the
 * next definition, the thread's span and its API_CALL record.
 */
#include "capture.h"

#include <dlfcn.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <kfdtrace/dispatch.h>
#include <kfdtrace/recorder.h>
#include <kfdtrace/trace.h>

#include "api.h"

/* The version node of every hsaKmt* symbol in AMD's library and ours. */
#define KAPI_VERSION "HSAKMT_1"

enum { KAPI_UNKNOWN = 0, KAPI_OFF, KAPI_ON };

static atomic_int kapi_mode;

/* Non-zero while an hsaKmt* call of this thread is in progress. */
static __thread int kapi_depth __attribute__((tls_model("initial-exec")));

static int
kapi_mode_get(void)
{
	int mode = atomic_load_explicit(&kapi_mode, memory_order_relaxed);

	if (mode != KAPI_UNKNOWN)
		return mode;
	mode = kcap_env_flag("KFDTRACE_API", 0) && kcap_enabled() ? KAPI_ON : KAPI_OFF;
	atomic_store_explicit(&kapi_mode, mode, memory_order_relaxed);
	return mode;
}

void *
kapi_resolve(struct kapi_fn *fn)
{
	uintptr_t next = atomic_load_explicit(&fn->next, memory_order_acquire);

	if (!next) {
		void *p = dlvsym(RTLD_NEXT, fn->name, KAPI_VERSION);

		/* A thunk built without symbol versions. */
		if (!p)
			p = dlsym(RTLD_NEXT, fn->name);
		next = p ? (uintptr_t)p : 1;
		atomic_store_explicit(&fn->next, next, memory_order_release);
	}
	if (next == 1)
		return NULL;
	if (kapi_mode_get() == KAPI_OFF)
		atomic_store_explicit(&fn->fast, (void *)next, memory_order_relaxed);
	return (void *)next;
}

int
kapi_span_begin(struct kapi_span *sp)
{
	if (kapi_mode_get() != KAPI_ON || kapi_depth || kcap_busy)
		return 0;
	kapi_depth = 1;
	sp->len = 0;
	sp->text[0] = '\0';
	/* The recorder notes the thread's next ioctl record from here. */
	kfd_recorder_span.first = UINT64_MAX;
	sp->t_enter = kfd_dispatch_now();
	return 1;
}

void
kapi_span_args(struct kapi_span *sp)
{
	sp->saved_errno = errno;
	sp->t_exit = kfd_dispatch_now();
}

static void __attribute__((format(printf, 2, 3)))
kapi_put(struct kapi_span *sp, const char *fmt, ...)
{
	size_t room = sizeof(sp->text) - sp->len;
	va_list ap;
	int n;

	if (room <= 1)
		return;
	va_start(ap, fmt);
	n = vsnprintf(sp->text + sp->len, room, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if ((size_t)n >= room) {
		/* Cut: mark it, keeping the NUL. */
		sp->len = sizeof(sp->text) - 1;
		memcpy(sp->text + sp->len - 3, "...", 3);
		return;
	}
	sp->len += (size_t)n;
}

/* The separator: none before the first pair. */
static const char *
kapi_sep(const struct kapi_span *sp)
{
	return sp->len ? " " : "";
}

void
kapi_put_u(struct kapi_span *sp, const char *key, uint64_t v)
{
	kapi_put(sp, "%s%s=%" PRIu64, kapi_sep(sp), key, v);
}

void
kapi_put_s(struct kapi_span *sp, const char *key, int64_t v)
{
	kapi_put(sp, "%s%s=%" PRId64, kapi_sep(sp), key, v);
}

void
kapi_put_x(struct kapi_span *sp, const char *key, uint64_t v)
{
	kapi_put(sp, "%s%s=%#" PRIx64, kapi_sep(sp), key, v);
}

/*
 * Outputs are read only after a successful call, which has just written
 * them through the caller's pointer: no copy guard needed.
 */
static int
kapi_out_ok(const struct kapi_span *sp, const void *p)
{
	return p && sp->status == 0;
}

static void
kapi_put_ref(struct kapi_span *sp, const char *key, const void *p)
{
	kapi_put(sp, "%s%s=&%#" PRIx64, kapi_sep(sp), key, (uint64_t)(uintptr_t)p);
}

void
kapi_put_optr(struct kapi_span *sp, const char *key, void **p)
{
	if (kapi_out_ok(sp, p))
		kapi_put_x(sp, key, (uint64_t)(uintptr_t)*p);
	else
		kapi_put_ref(sp, key, p);
}

void
kapi_put_ou32(struct kapi_span *sp, const char *key, uint32_t *p)
{
	if (kapi_out_ok(sp, p))
		kapi_put_u(sp, key, *p);
	else
		kapi_put_ref(sp, key, p);
}

void
kapi_put_os32(struct kapi_span *sp, const char *key, int32_t *p)
{
	if (kapi_out_ok(sp, p))
		kapi_put_s(sp, key, *p);
	else
		kapi_put_ref(sp, key, p);
}

void
kapi_put_ou64(struct kapi_span *sp, const char *key, uint64_t *p)
{
	if (kapi_out_ok(sp, p))
		kapi_put_u(sp, key, *p);
	else
		kapi_put_ref(sp, key, p);
}

void
kapi_put_ox64(struct kapi_span *sp, const char *key, uint64_t *p)
{
	if (kapi_out_ok(sp, p))
		kapi_put_x(sp, key, *p);
	else
		kapi_put_ref(sp, key, p);
}

int32_t
kapi_span_end(struct kapi_span *sp, const char *name)
{
	struct kt_record rec;
	uint64_t first = kfd_recorder_span.first;

	memset(&rec, 0, sizeof(rec));
	rec.type = KT_REC_API_CALL;
	rec.ts = sp->t_enter;
	rec.u.api.name = name;
	rec.u.api.args = sp->text;
	rec.u.api.status = sp->status;
	rec.u.api.t_exit = sp->t_exit;
	if (first != UINT64_MAX) {
		rec.u.api.first_seq = first;
		rec.u.api.last_seq = kfd_recorder_span.last;
	} else {
		/* No ioctl: an empty range (first > last). */
		rec.u.api.first_seq = 1;
		rec.u.api.last_seq = 0;
	}
	/*
	 * Not creating a trace: the file begins at the first device event,
	 * and a call that caused none before it has nothing to enclose.
	 */
	kcap_session_append(&rec, 0);
	kfd_recorder_span.first = 0;
	kapi_depth = 0;
	errno = sp->saved_errno;
	return sp->status;
}

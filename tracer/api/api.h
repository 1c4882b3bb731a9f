/* SPDX-License-Identifier: MIT */
/*
 * API spans: the capture library's wrappers of the hsaKmt* functions
 * (kfdtrace record --api, KFDTRACE_API=1). Private to the capture library.
 *
 *   hsakmt_api.def	the prototype table, written once
 *   gen_wrappers.py	turns it into one exported wrapper per function
 *   api.c		what the wrappers share: finding the next definition,
 *			the per-thread span, the args text, the record
 *
 * A wrapper finds the next definition (the thunk's) on first use. Without
 * KFDTRACE_API it then caches it in kapi_fn.fast, and every later call
 * costs one load and one branch. With it, the outermost hsaKmt* call of a
 * thread becomes one API_CALL record enclosing the ioctls the thread made
 * during it; calls the thunk makes to its own exports while inside are
 * passed straight on.
 */
#ifndef KAPI_API_H
#define KAPI_API_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

/* HSAKMT_STATUS_NOT_SUPPORTED: no next definition of the function. */
#define KAPI_STATUS_MISSING 11

/* Bytes of args text per call; longer text is cut ("..."). */
#define KAPI_TEXT_MAX 384

/* One wrapped function. Only the wrapper's own static instance exists. */
struct kapi_fn {
	const char *name;
	/* The next definition, when calls go straight to it (not recording). */
	_Atomic(void *) fast;
	/* The next definition, 0 until looked up, 1 when there is none. */
	_Atomic(uintptr_t) next;
};

/* One outermost call in progress, on the caller's stack. */
struct kapi_span {
	uint64_t t_enter;
	uint64_t t_exit;
	int32_t status;
	int saved_errno;
	size_t len;
	char text[KAPI_TEXT_MAX];
};

/*
 * kapi_resolve() - the next definition of @fn's function (dlvsym
 * HSAKMT_1, else dlsym), looked up once; NULL when there is none. When
 * spans are off in this process it also stores it in @fn->fast.
 */
void *kapi_resolve(struct kapi_fn *fn);

/*
 * kapi_span_begin() - open a span for the calling thread, if spans are on
 * and no hsaKmt* call of this thread is in progress.
 * Return: 1 when opened (the caller then calls kapi_span_args() and
 * kapi_span_end()); 0: just call the function.
 */
int kapi_span_begin(struct kapi_span *sp);

/* kapi_span_args() - right after the call: exit time, errno kept. */
void kapi_span_args(struct kapi_span *sp);

/* Append " key=value" to the args text. */
void kapi_put_u(struct kapi_span *sp, const char *key, uint64_t v);
void kapi_put_s(struct kapi_span *sp, const char *key, int64_t v);
void kapi_put_x(struct kapi_span *sp, const char *key, uint64_t v);
/* Out parameters: the value stored by a successful call, else &pointer. */
void kapi_put_optr(struct kapi_span *sp, const char *key, void **p);
void kapi_put_ou32(struct kapi_span *sp, const char *key, uint32_t *p);
void kapi_put_os32(struct kapi_span *sp, const char *key, int32_t *p);
void kapi_put_ou64(struct kapi_span *sp, const char *key, uint64_t *p);
void kapi_put_ox64(struct kapi_span *sp, const char *key, uint64_t *p);

/*
 * kapi_span_end() - append the API_CALL record (when a trace is open),
 * close the span, restore the call's errno.
 * Return: the call's status, for the wrapper to return.
 */
int32_t kapi_span_end(struct kapi_span *sp, const char *name);

#endif /* KAPI_API_H */

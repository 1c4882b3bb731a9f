/* SPDX-License-Identifier: MIT */
/*
 * ioctl(): every request on a KFD or render-node fd goes through the
 * dispatch point, where the recorder's hooks see it; every other fd goes
 * straight on after one table lookup. One that record --only/--except
 * leaves out goes straight on too, counted (select.c).
 *
 * Unlike kfd_dispatch(), the wrapper does not retry EINTR/EAGAIN: the
 * application gets exactly what ioctl() gave it, and a retry loop in the
 * application (libhsakmt has one) shows up as separate records.
 */
#include "capture.h"

#include <errno.h>
#include <sys/ioctl.h>

#include <kfdtrace/dispatch.h>
#include <kfdtrace/kfd_abi.h>

/*
 * The kernel drops an SVM range when its CPU pages are unmapped, so a
 * munmap over one is a KFD event replay must reissue: the ranges a
 * successful SET_ATTR names join the set of recorded-unmap ranges.
 * The request's size bits vary with nattr; the number alone names it.
 */
static inline void
note_svm(unsigned int nr, const void *arg, int ret)
{
	const struct kfd_abi_svm_args *a = arg;

	if (__builtin_expect(nr != KFD_ABI_IOC_NR(KFD_ABI_IOC_SVM), 1) ||
	    ret != 0 || !a || a->op != KFD_ABI_SVM_OP_SET_ATTR)
		return;
	kcap_maps_add(a->start_addr, a->size);
}

/* The gate of a device call: waits may never return (capture.h). */
static inline struct kfd_gate *
call_gate(unsigned int nr)
{
	if (__builtin_expect(nr == KFD_ABI_IOC_NR(KFD_ABI_IOC_WAIT_EVENTS), 0))
		return &kcap_wait_gate;
	return &kcap_call_gate;
}

static int
next_ioctl(int fd, unsigned long request, void *arg)
{
	return kcap_real.ioctl(fd, request, arg);
}

/* A KFD ioctl with submission capture on: it follows the queues. */
static int
submit_ioctl(int fd, unsigned long request, unsigned int nr, void *arg)
{
	int ret;

	kcap_submit_ioctl(fd, nr, arg, 0, 1);
	ret = kfd_dispatch_via(next_ioctl, fd, KFD_FILE_KFD, request, arg);
	kcap_submit_ioctl(fd, nr, arg, ret, 0);
	return ret;
}

/*
 * A call that record --only/--except leaves out: straight to the device,
 * past the dispatch point (no argument copy, no clock, no record), and
 * counted for END. The queues are still followed for --submissions.
 */
static __attribute__((noinline)) int
left_out_ioctl(int fd, enum kfd_file_kind kind, unsigned long request,
	       unsigned int nr, void *arg)
{
	int submit = kcap_submit_on && kind == KFD_FILE_KFD, ret, err;

	kcap_session_left_out();
	if (submit)
		kcap_submit_ioctl(fd, nr, arg, 0, 1);
	ret = kcap_real.ioctl(fd, request, arg);
	if (submit) {
		err = errno;
		kcap_submit_ioctl(fd, nr, arg, ret, 0);
		errno = err;
	}
	return ret;
}

KCAP_EXPORT int
ioctl(int fd, unsigned long request, ...)
{
	enum kfd_file_kind kind;
	struct kfd_gate *gate;
	unsigned int token, nr;
	void *arg;
	va_list ap;
	int ret;

	va_start(ap, request);
	arg = va_arg(ap, void *);
	va_end(ap);

	/* The hot path: a trace is open and the fd is known. */
	if (__builtin_expect(kcap_session_live() && !kcap_busy, 1)) {
		kind = kcap_fd_kind(fd);
		if (kind == KFD_FILE_UNKNOWN)
			return kcap_real.ioctl(fd, request, arg);
		kcap_busy++;
		nr = kcap_kfd_nr(kind, request);
		gate = call_gate(nr);
		token = kcap_call_enter(gate);
		if (__builtin_expect(kcap_select_on, 0) &&
		    !kcap_select_keeps(kind, request))
			ret = left_out_ioctl(fd, kind, request, nr, arg);
		else if (__builtin_expect(kcap_submit_on, 0) &&
			 kind == KFD_FILE_KFD)
			ret = submit_ioctl(fd, request, nr, arg);
		else
			ret = kfd_dispatch_via(next_ioctl, fd, kind, request, arg);
		note_svm(nr, arg, ret);
		kcap_call_leave(gate, token);
		kcap_busy--;
		return ret;
	}

	kcap_real_init();
	if (__builtin_expect(kcap_session_foreign(), 0)) {
		/* A process sharing our memory (and our thread's TLS): its
		 * calls cannot be recorded here, so they are counted. */
		if (kcap_fd_kind(fd) != KFD_FILE_UNKNOWN)
			kcap_session_untraced();
		return kcap_real.ioctl(fd, request, arg);
	}
	if (kcap_busy || !kcap_enabled())
		return kcap_real.ioctl(fd, request, arg);
	kind = kcap_fd_kind(fd);
	if (kind == KFD_FILE_UNKNOWN)
		return kcap_real.ioctl(fd, request, arg);
	kcap_busy++;
	nr = kcap_kfd_nr(kind, request);
	gate = call_gate(nr);
	token = kcap_call_enter(gate);
	if (!kcap_session_get()) {
		ret = kcap_real.ioctl(fd, request, arg);
	} else if (kcap_select_on && !kcap_select_keeps(kind, request)) {
		ret = left_out_ioctl(fd, kind, request, nr, arg);
	} else if (kcap_submit_on && kind == KFD_FILE_KFD) {
		ret = submit_ioctl(fd, request, nr, arg);
	} else {
		ret = kfd_dispatch_via(next_ioctl, fd, kind, request, arg);
	}
	note_svm(nr, arg, ret);
	kcap_call_leave(gate, token);
	kcap_busy--;
	return ret;
}

/* SPDX-License-Identifier: MIT */
/*
 * What the kernel can answer each KFD ioctl with, and what libhsakmt must
 * then return.
 *
 * The errno lists follow amdkfd's handlers (Linux's
 * drivers/gpu/drm/amd/amdkfd/kfd_chardev.c and the code they call): every
 * errno a handler returns, plus EFAULT where only the copy of the
 * arguments can fail, plus EINTR where the kernel waits interruptibly (it
 * comes back as EINTR to a caller whose signal handler lacks SA_RESTART).
 * Left out: EBADF, which the kernel returns only to a process that did not
 * open the file (the thunk's fork handling, tested in tests/thunk), and
 * internal errnos a handler turns into another before returning.
 */
#ifndef FI_ERRNOS_H
#define FI_ERRNOS_H

#include <stdbool.h>
#include <stdint.h>

#include "hsakmt/hsakmt.h"

#include "fi_workload.h"

/* The kernel's ENOTSUPP (524), which CREATE_QUEUE leaks to user space. */
#define FI_ENOTSUPP	524

#define FI_MAX_ERRNOS	8

struct fi_ioctl_errnos {
	unsigned int nr;		/* _IOC_NR of the KFD ioctl */
	const char *name;		/* schema name */
	int errnos[FI_MAX_ERRNOS];	/* 0-terminated */
};

/* fi_errnos_of() - the row of ioctl @nr, or NULL when the table lacks it. */
const struct fi_ioctl_errnos *fi_errnos_of(unsigned int nr);

/* fi_errno_name() - "ENOMEM"; a number for errnos libc has no name for. */
const char *fi_errno_name(int err);

/* Does kfd_dispatch() retry this errno (so the call must still succeed)? */
static inline bool
fi_errno_retried(int err)
{
	return err == 4 /* EINTR */ || err == 11 /* EAGAIN */;
}

/*
 * fi_expected_status() - what API call @call must return when ioctl @nr,
 * issued on its behalf, fails with @err (not a retried errno).
 * @prior: bit n set when the call issued an ioctl of nr n before this one.
 *
 * core/core.h names the library's rule: where AMD's 5.2.3 library
 * collapses a failed ioctl into one status, ours returns that status
 * itself, for compatibility; kmt_status_from_errno() is the mapping for
 * the remaining cases. In the calls of this script AMD's library always
 * collapses (ERROR; NO_MEMORY for VRAM and queue buffers), and some
 * failures are absorbed by a fallback (SUCCESS); fi_errnos.c lists them
 * with the reason.
 */
HSAKMT_STATUS fi_expected_status(enum fi_call call, unsigned int nr, int err, uint64_t prior);

/* Which part of the workload a call belongs to (calls of other parts
 * must not be disturbed by a fault). 0 is open/close and topology. */
unsigned int fi_call_area(enum fi_call call);

#endif /* FI_ERRNOS_H */

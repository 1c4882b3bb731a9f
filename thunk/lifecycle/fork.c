/* SPDX-License-Identifier: MIT */
/*
 * fork() handling. A child inherits the parent's /dev/kfd file, render
 * fds and address-space bookkeeping, but the kernel refuses KFD requests
 * from any process other than the file's opener (EBADF), and GPU
 * mappings were made MADV_DONTFORK. So the child's contexts are marked
 * inherited: every call fails with KERNEL_IO_CHANNEL_NOT_OPENED until the
 * child opens again, which first drops the inherited state without
 * talking to the kernel.
 */
#include <pthread.h>

#include "lifecycle/lifecycle.h"

static pthread_once_t kmt_fork_once = PTHREAD_ONCE_INIT;

static void
fork_install(void)
{
	if (pthread_atfork(kmt_ctx_fork_prepare, kmt_ctx_fork_parent,
			   kmt_ctx_fork_child))
		kmt_warn("pthread_atfork failed: fork detection relies on pid checks\n");
}

void
kmt_fork_setup(void)
{
	pthread_once(&kmt_fork_once, fork_install);
}

void
kmt_fork_cleanup(HsaKFDContext *ctx)
{
	kmt_info("cleaning up KFD state inherited from the parent process\n");
	kmt_ctx_close(ctx, true);
}

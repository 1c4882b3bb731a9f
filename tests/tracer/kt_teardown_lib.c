/* SPDX-License-Identifier: MIT */
/*
 * The library kt_teardown links: its destructor uses the device, as ROCr
 * and HIP do when they tear down in _dl_fini. A library the program links
 * is finalized after a preloaded one, so these calls come after the
 * capture library's own destructor. It also registers an atexit() handler
 * that uses the device once more.
 */
#include <stdlib.h>
#include <sys/ioctl.h>

#include <kfdtrace/kfd_abi.h>

#include "kt_teardown.h"

static int kt_td_fd = -1;

__attribute__((visibility("default"))) void
kt_td_use_fd(int fd)
{
	kt_td_fd = fd;
}

static void
kt_td_lib_late(void)
{
	struct kfd_abi_set_memory_policy_args p = { 0 };

	for (int i = 0; i < KT_TD_LATE_CALLS && kt_td_fd >= 0; i++)
		ioctl(kt_td_fd, KFD_ABI_IOC_SET_MEMORY_POLICY, &p);
}

static void __attribute__((destructor))
kt_td_lib_fini(void)
{
	struct kfd_abi_get_available_memory_args a = { 0 };

	/* gpu_id 0: refused, but answered and recorded all the same. */
	for (int i = 0; i < KT_TD_DTOR_CALLS && kt_td_fd >= 0; i++)
		ioctl(kt_td_fd, KFD_ABI_IOC_AVAILABLE_MEMORY, &a);
	atexit(kt_td_lib_late);
}

/* SPDX-License-Identifier: MIT */
/*
 * libkfdtrace-lttng.so's entry points (kfdtrace/lttng.h): the dispatch
 * hooks that turn each ioctl into its "kfd" event, and the mmap/munmap
 * events.
 *
 * Events are emitted from the after hook, once the result is known, with
 * the before-image the dispatch point copied and the after-image in the
 * caller's buffer; their timestamp is the end of the call and dur_ns how
 * long the call took. Requests the schema does not know get a pair of
 * events instead (kfd:ioctl_enter/kfd:ioctl_exit), since nothing but the
 * request code and the result can be said about them.
 */
#include <kfdtrace/lttng.h>

#include "kfd_tp.h"

#define KFDLT_EXPORT __attribute__((visibility("default")))

static int
kfdlt_before(void *ctx, struct kfd_dispatch_call *c, void **cookie)
{
	if (!c->desc)
		lttng_ust_tracepoint(kfd, ioctl_enter, c);
	return KFD_HOOK_CONTINUE;
}

static void
kfdlt_after(void *ctx, const struct kfd_dispatch_call *c, void *cookie)
{
	if (c->desc && kfdlt_emit_row(c))
		return;
	lttng_ust_tracepoint(kfd, ioctl_exit, c);
}

static void
kfdlt_mmap(uint64_t addr, uint64_t len, int prot, int flags, int fd, int kind,
	   uint64_t offset, uint64_t result, int err)
{
	lttng_ust_tracepoint(kfd, mmap, addr, len, prot, flags, fd, kind,
			     offset, result, err);
}

static void
kfdlt_munmap(uint64_t addr, uint64_t len, int ret, int err)
{
	lttng_ust_tracepoint(kfd, munmap, addr, len, ret, err);
}

static void
kfdlt_submit(uint32_t queue_id, uint32_t gpu_id, int engine, uint64_t first,
	     uint64_t last, const uint8_t *data, uint32_t len)
{
	lttng_ust_tracepoint(kfd, submit, queue_id, gpu_id, engine, first, last,
			     data, len);
}

static const struct kfd_dispatch_hooks kfdlt_hooks = {
	.name = "lttng",
	.before = kfdlt_before,
	.after = kfdlt_after,
};

static const struct kfd_lttng_provider kfdlt_provider = {
	.abi = KFD_LTTNG_ABI,
	.hooks = &kfdlt_hooks,
	.mmap = kfdlt_mmap,
	.munmap = kfdlt_munmap,
	.submit = kfdlt_submit,
};

KFDLT_EXPORT const struct kfd_lttng_provider *
kfd_lttng_provider(unsigned int abi)
{
	return abi == KFD_LTTNG_ABI ? &kfdlt_provider : NULL;
}

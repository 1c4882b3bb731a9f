/* SPDX-License-Identifier: MIT */
/*
 * libkfdtrace-lttng.so: the "kfd" lttng-ust tracepoint provider.
 *
 * The provider is a shared library of its own so that nothing else links
 * liblttng-ust: loading it gives a process two more threads, /dev/shm
 * mappings and a handshake with the session daemon, which only a user who
 * asked for LTTng output should pay for. The capture library dlopen()s it
 * when KFDTRACE_LTTNG=1 and registers its hooks with its dispatch point;
 * a program that links the dispatch point itself (a test, a benchmark) may
 * link the provider and do the same.
 *
 * Events (docs/lttng.md): one per ioctl of the schema, named after the
 * row's event_name ("kfd:alloc_memory_of_gpu"), with the decoded fields;
 * kfd:ioctl_enter/kfd:ioctl_exit for requests the schema does not know;
 * kfd:mmap/kfd:munmap for mappings of device files; kfd:submit for the
 * packets a doorbell published (record --submissions).
 */
#ifndef KFDTRACE_LTTNG_H
#define KFDTRACE_LTTNG_H

#include <stdint.h>

#include <kfdtrace/dispatch.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Bumped whenever struct kfd_lttng_provider or what it points at changes. */
#define KFD_LTTNG_ABI 2

/* The name of the one symbol the library exports, for dlsym(). */
#define KFD_LTTNG_PROVIDER_SYMBOL "kfd_lttng_provider"

/* The library's file name, for dlopen(). */
#define KFD_LTTNG_LIBRARY "libkfdtrace-lttng.so"

struct kfd_lttng_provider {
	unsigned int abi;		/* KFD_LTTNG_ABI */
	/*
	 * Dispatch hooks: before() emits kfd:ioctl_enter for requests
	 * without a schema row; after() emits the row's event (or
	 * kfd:ioctl_exit). Register with a NULL context. They keep no
	 * state, so any number of dispatch points may register them.
	 */
	const struct kfd_dispatch_hooks *hooks;
	/*
	 * mmap() - emit kfd:mmap for a mapping of a device file.
	 * @addr, @len, @prot, @flags, @fd, @offset: mmap()'s arguments
	 * @kind:	enum kfd_file_kind of @fd
	 * @result:	what mmap() returned (MAP_FAILED as an integer)
	 * @err:	errno when it failed, else 0
	 */
	void (*mmap)(uint64_t addr, uint64_t len, int prot, int flags, int fd,
		     int kind, uint64_t offset, uint64_t result, int err);
	/*
	 * munmap() - emit kfd:munmap for an unmap that touched a device
	 * mapping. @ret/@err: munmap()'s result and errno (0 on success).
	 */
	void (*munmap)(uint64_t addr, uint64_t len, int ret, int err);
	/*
	 * submit() - emit kfd:submit for the packets a doorbell published
	 * (a submit record, kfdtrace/trace.h): the queue, its engine (enum
	 * kfd_engine), the index or byte range, and the @len packet bytes.
	 */
	void (*submit)(uint32_t queue_id, uint32_t gpu_id, int engine,
		       uint64_t first, uint64_t last, const uint8_t *data,
		       uint32_t len);
};

/*
 * kfd_lttng_provider() - the provider's entry points.
 * @abi:	the KFD_LTTNG_ABI the caller was built with
 *
 * Return: the provider, or NULL when @abi is not the library's (a capture
 * library and a provider from different builds).
 */
const struct kfd_lttng_provider *kfd_lttng_provider(unsigned int abi);

/* The type of kfd_lttng_provider(), for dlsym(). */
typedef const struct kfd_lttng_provider *(*kfd_lttng_provider_fn)(unsigned int abi);

#ifdef __cplusplus
}
#endif

#endif /* KFDTRACE_LTTNG_H */

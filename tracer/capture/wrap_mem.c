/* SPDX-License-Identifier: MIT */
/*
 * mmap() and munmap(): mappings of device fds (doorbells, the events page,
 * MMIO, buffer objects through the render node) are recorded, and so are
 * the munmaps that touch them or an SVM range (wrap_ioctl.c). With submission capture on, doorbell pages
 * are shadowed (submit.c).
 */
#include "capture.h"

#include <errno.h>
#include <string.h>
#include <sys/mman.h>

#include <kfdtrace/dispatch.h>

/* The kernel works in pages; so must the set of device ranges. */
#define PAGE_ROUND(x) (((x) + 4095u) & ~(uint64_t)4095u)

static void *
mmap_common(void *addr, size_t len, int prot, int flags, int fd, off_t off)
{
	enum kfd_file_kind kind;
	struct kt_record rec;
	uint64_t ts;
	void *ret;
	int err, taken;

	kcap_real_init();
	if (kcap_busy || fd < 0 || (flags & MAP_ANONYMOUS) || !kcap_enabled())
		return kcap_real.mmap(addr, len, prot, flags, fd, off);
	kind = kcap_fd_kind(fd);
	if (kind == KFD_FILE_UNKNOWN)
		return kcap_real.mmap(addr, len, prot, flags, fd, off);
	kcap_busy++;
	ts = kfd_dispatch_now();
	taken = 0;
	ret = MAP_FAILED;
	if (kcap_submit_on && kind == KFD_FILE_KFD)
		ret = kcap_submit_mmap(addr, len, prot, flags, fd, off, &taken);
	if (!taken)
		ret = kcap_real.mmap(addr, len, prot, flags, fd, off);
	err = errno;
	if (ret != MAP_FAILED)
		kcap_maps_add((uint64_t)(uintptr_t)ret, PAGE_ROUND(len));
	memset(&rec, 0, sizeof(rec));
	rec.type = KT_REC_MMAP;
	rec.ts = ts;
	rec.u.mmap.addr = (uint64_t)(uintptr_t)addr;
	rec.u.mmap.len = len;
	rec.u.mmap.prot = prot;
	rec.u.mmap.flags = flags;
	rec.u.mmap.fd = fd;
	rec.u.mmap.file_kind = (uint8_t)kind;
	rec.u.mmap.offset = (uint64_t)off;
	rec.u.mmap.result = (uint64_t)(uintptr_t)ret;
	rec.u.mmap.err = ret == MAP_FAILED ? err : 0;
	kcap_session_append(&rec, 1);
	kcap_busy--;
	errno = err;
	return ret;
}

KCAP_EXPORT void *
mmap(void *addr, size_t len, int prot, int flags, int fd, off_t off)
{
	return mmap_common(addr, len, prot, flags, fd, off);
}

KCAP_EXPORT void *
mmap64(void *addr, size_t len, int prot, int flags, int fd, off_t off)
{
	return mmap_common(addr, len, prot, flags, fd, off);
}

KCAP_EXPORT int
munmap(void *addr, size_t len)
{
	struct kt_record rec;
	uint64_t ts;
	int ret, err;

	kcap_real_init();
	if (kcap_busy || !kcap_enabled() ||
	    !kcap_maps_remove((uint64_t)(uintptr_t)addr, PAGE_ROUND(len)))
		return kcap_real.munmap(addr, len);
	kcap_busy++;
	ts = kfd_dispatch_now();
	ret = kcap_real.munmap(addr, len);
	err = errno;
	if (kcap_submit_on && ret == 0)
		kcap_submit_munmap(addr, len);
	memset(&rec, 0, sizeof(rec));
	rec.type = KT_REC_MUNMAP;
	rec.ts = ts;
	rec.u.munmap.addr = (uint64_t)(uintptr_t)addr;
	rec.u.munmap.len = len;
	rec.u.munmap.ret = ret;
	rec.u.munmap.err = ret < 0 ? err : 0;
	kcap_session_append(&rec, 0);
	kcap_busy--;
	errno = err;
	return ret;
}

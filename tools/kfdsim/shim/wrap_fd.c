/* SPDX-License-Identifier: MIT */
/*
 * Calls on file descriptors: ioctl and mmap go to the model for device fds;
 * close, close_range, dup and fcntl(F_DUPFD) keep our table in step with
 * the kernel's. An ioctl trusts the table (no system call); see fdtab.c.
 */
/* We define the plain and the 64-bit names ourselves: no header renaming. */
#undef _FILE_OFFSET_BITS

#include <errno.h>
#include <fcntl.h>
#include <linux/close_range.h>
#include <stdbool.h>
#include <stdio.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

#include "ksim.h"
#include "shim.h"
#include "tree.h"

/*
 * A model fd that came in behind our back (SCM_RIGHTS, a raw dup system
 * call): a new entry for it, or NULL when fd is not the model's. Costs an
 * fstat; only asked once the device exists.
 */
static struct ksim_ofd *
shim_fd_adopt(int fd)
{
	struct ksim_lookup res;
	struct ksim_device *dev;
	struct ksim_file *f;
	struct ksim_vfs *vfs;
	char path[64];

	if (fd < 0)
		return NULL;
	dev = ksim_state_device_if_ready();
	if (!dev)
		return NULL;
	f = ksim_file_from_fd(dev, fd);
	vfs = ksim_state_vfs();
	if (!f || !vfs)
		return NULL;
	if (ksim_file_kind(f) == KFD_FILE_KFD)
		snprintf(path, sizeof(path), "/dev/kfd");
	else
		snprintf(path, sizeof(path), "/dev/dri/renderD%u", ksim_file_render_minor(f));
	if (!ksim_vfs_lookup(vfs, NULL, path, 0, &res) || !res.node)
		return NULL;
	ksim_dbg("adopting fd %d (%s)\n", fd, path);
	return ksim_fd_adopt(fd, res.node, f);
}

void
ksim_fd_adopt_received(int fd)
{
	ksim_in_shim++;
	ksim_ofd_put(shim_fd_adopt(fd));
	ksim_in_shim--;
}

/* Our description of fd (checked with the kernel), or an adopted one. */
static struct ksim_ofd *
shim_fd_lookup(int fd)
{
	struct ksim_ofd *ofd = ksim_fd_get(fd);

	return ofd ? ofd : shim_fd_adopt(fd);
}

/*
 * Whether @request is of the family a device file of @kind answers: KFD's
 * _IOR/_IOW/_IOWR('K', ...) on /dev/kfd (the console's old 'K' requests
 * carry no direction), DRM's 'd' on a render node.
 */
static bool
request_fits(enum kfd_file_kind kind, unsigned long request)
{
	if (kind == KFD_FILE_KFD)
		return _IOC_TYPE(request) == 'K' && _IOC_DIR(request) != _IOC_NONE;
	return _IOC_TYPE(request) == 'd';
}

/*
 * The device description an ioctl goes to, or NULL (the real ioctl). The
 * table is trusted (no system call) for requests of the device's family;
 * anything else on an fd we think is a device may be the program talking
 * to a file that got the number after a close we missed, and is checked.
 * Only a request of a device family is worth asking the model whether an
 * unknown fd is its own (a tty's TCGETS is not).
 */
static struct ksim_ofd *
ioctl_target(int fd, unsigned long request)
{
	struct ksim_ofd *ofd = ksim_fd_get_trusted(fd);

	if (ofd && ofd->kind == KSIM_FD_DEVICE &&
	    !request_fits(ksim_file_kind(ofd->file), request)) {
		ksim_ofd_put(ofd);
		ofd = ksim_fd_get(fd);
	}
	if (!ofd && (request_fits(KFD_FILE_KFD, request) ||
		     request_fits(KFD_FILE_RENDER, request)))
		ofd = shim_fd_adopt(fd);
	if (ofd && ofd->kind != KSIM_FD_DEVICE) {
		ksim_ofd_put(ofd);
		ofd = NULL;
	}
	return ofd;
}

KSIM_EXPORT int
ioctl(int fd, unsigned long request, ...)
{
	struct ksim_ofd *ofd;
	va_list ap;
	void *arg;
	int ret;

	va_start(ap, request);
	arg = va_arg(ap, void *);
	va_end(ap);
	ksim_real_init();
	if (ksim_in_shim)
		return ksim_real.ioctl(fd, request, arg);
	ksim_in_shim++;
	ofd = ioctl_target(fd, request);
	if (!ofd) {
		ksim_in_shim--;
		return ksim_real.ioctl(fd, request, arg);
	}
	ret = ksim_ioctl(ofd->file, request, arg);
	ksim_count_ioctl();
	ksim_dbg("ioctl fd %d req 0x%08lx -> %d\n", fd, request, ret);
	ksim_ofd_put(ofd);
	ksim_in_shim--;
	if (ret < 0)
		return ksim_fail(ret);
	return ret;
}

/*
 * The kernel's MMU notifier drops SVM ranges whose pages go away; the model
 * learns of it here. Only once the device exists: before that there are no
 * ranges to drop.
 */
static void
notify_unmapped(void *addr, size_t len)
{
	struct ksim_device *dev = ksim_state_device_if_ready();

	if (!dev || ksim_in_shim || !len)
		return;
	ksim_in_shim++;
	ksim_notify_munmap(dev, (uint64_t)(uintptr_t)addr, (uint64_t)len);
	ksim_in_shim--;
}

/* mremap() moved [old, old+old_len) to [p, p+new_len). */
static void
notify_moved(void *old, size_t old_len, void *p, size_t new_len)
{
	struct ksim_device *dev = ksim_state_device_if_ready();

	if (!dev || ksim_in_shim)
		return;
	ksim_in_shim++;
	ksim_notify_mremap(dev, (uint64_t)(uintptr_t)old, (uint64_t)old_len,
			   (uint64_t)(uintptr_t)p, (uint64_t)new_len);
	ksim_in_shim--;
}

/*
 * Whether the simulated kernel grants a private writable anonymous mapping
 * of @len bytes that the host refused. Linux's default overcommit heuristic
 * refuses such a mapping only when it is larger than RAM and swap; the
 * simulated machine's RAM is its profile's and it has no swap. Only asked
 * after the host said ENOMEM, so no other mapping reaches the profile.
 */
static bool
sim_commit_fits(size_t len, int prot, int flags)
{
	const struct ksim_tree_ctx *ctx;
	struct ksim_vfs *vfs;
	uint64_t ram;

	if (ksim_in_shim || !(prot & PROT_WRITE) ||
	    (flags & (MAP_SHARED | MAP_NORESERVE | MAP_HUGETLB)) ||
	    !(flags & MAP_PRIVATE))
		return false;
	vfs = ksim_state_vfs();
	ctx = vfs ? vfs->ctx : NULL;
	if (!ctx || !ctx->prof)
		return false;
	ram = ksim_profile_ram(ctx->prof);
	return ram && (uint64_t)len <= ram;
}

/*
 * An anonymous mapping is the host's, but the commit limit is the simulated
 * machine's: one the host refuses for its size alone is made without the
 * host's commit charge (MAP_NORESERVE) when it fits the profile's RAM. Its
 * pages still come from the host as they are touched.
 */
static void *
map_anon(void *addr, size_t len, int prot, int flags, int fd, off_t offset)
{
	void *p = ksim_real.mmap(addr, len, prot, flags, fd, offset);

	if (p != MAP_FAILED || errno != ENOMEM || !sim_commit_fits(len, prot, flags))
		return p;
	p = ksim_real.mmap(addr, len, prot, flags | MAP_NORESERVE, fd, offset);
	if (p == MAP_FAILED)
		errno = ENOMEM;
	return p;
}

/*
 * @db gets the model file of a doorbell mapping made (a reference the
 * caller drops), to tell the model once the old mappings are forgotten.
 */
static void *
map_any(void *addr, size_t len, int prot, int flags, int fd, off_t offset,
	struct ksim_ofd **db)
{
	struct ksim_map map;
	struct ksim_ofd *ofd;
	void *p;
	int ret;

	ksim_real_init();
	if (!ksim_in_shim && (flags & MAP_ANONYMOUS))
		return map_anon(addr, len, prot, flags, fd, offset);
	if (ksim_in_shim || fd < 0 || (flags & MAP_ANONYMOUS))
		return ksim_real.mmap(addr, len, prot, flags, fd, offset);
	/*
	 * mmap keeps the identity check: it is a system call or two anyway,
	 * and a model mapping given for another file is the costlier mistake.
	 */
	ksim_in_shim++;
	ofd = shim_fd_lookup(fd);
	if (!ofd || ofd->kind != KSIM_FD_DEVICE) {
		ksim_ofd_put(ofd);
		ksim_in_shim--;
		return ksim_real.mmap(addr, len, prot, flags, fd, offset);
	}
	ret = ksim_mmap(ofd->file, (uint64_t)offset, len, prot, flags, &map);
	if (ret < 0) {
		ksim_ofd_put(ofd);
		ksim_dbg("mmap fd %d off 0x%llx len %zu -> %d\n", fd,
			 (unsigned long long)offset, len, ret);
		ksim_in_shim--;
		errno = -ret;
		return MAP_FAILED;
	}
	p = ksim_real.mmap(addr, len, prot, flags, map.fd, (off_t)map.offset);
	ret = errno;
	ksim_real.close(map.fd);
	if (p != MAP_FAILED && (map.flags & KSIM_MAP_DOORBELL))
		*db = ofd;
	else
		ksim_ofd_put(ofd);
	ksim_dbg("mmap fd %d off 0x%llx len %zu -> %p\n", fd, (unsigned long long)offset,
		 len, p);
	ksim_in_shim--;
	errno = ret;
	return p;
}

static void *
shim_mmap(void *addr, size_t len, int prot, int flags, int fd, off_t offset)
{
	struct ksim_ofd *db = NULL;
	void *p = map_any(addr, len, prot, flags, fd, offset, &db);
	int err = errno;

	/* MAP_FIXED unmaps what was there first, an SVM range's pages too. */
	if (p != MAP_FAILED && (flags & MAP_FIXED))
		notify_unmapped(p, len);
	/* Then the new doorbell mapping, which wakes an idle engine. */
	if (db) {
		ksim_in_shim++;
		ksim_notify_mapped(db->file, (uint64_t)offset, p, len, flags);
		ksim_ofd_put(db);
		ksim_in_shim--;
	}
	errno = err;
	return p;
}

KSIM_EXPORT void *
mmap(void *addr, size_t len, int prot, int flags, int fd, off_t offset)
{
	return shim_mmap(addr, len, prot, flags, fd, offset);
}

KSIM_EXPORT void *
mmap64(void *addr, size_t len, int prot, int flags, int fd, off_t offset)
{
	return shim_mmap(addr, len, prot, flags, fd, offset);
}

KSIM_EXPORT int
munmap(void *addr, size_t len)
{
	int ret;

	ksim_real_init();
	ret = ksim_real.munmap(addr, len);
	if (ret == 0)
		notify_unmapped(addr, len);
	return ret;
}

KSIM_EXPORT void *
mremap(void *old, size_t old_len, size_t new_len, int flags, ...)
{
	void *want = NULL, *p;
	va_list ap;

	ksim_real_init();
	if (flags & MREMAP_FIXED) {
		va_start(ap, flags);
		want = va_arg(ap, void *);
		va_end(ap);
	}
	p = ksim_real.mremap(old, old_len, new_len, flags, want);
	if (p == MAP_FAILED)
		return p;
	/* what is no longer mapped at the old place (old_len 0 makes a
	 * second mapping of a shared one, and unmaps nothing) */
	if (p != old)
		notify_moved(old, old_len, p, new_len);
	else if (new_len < old_len)
		notify_unmapped((char *)old + new_len, old_len - new_len);
	return p;
}

KSIM_EXPORT int
close(int fd)
{
	ksim_real_init();
	/* Forget first: once closed, the number can be reused by another thread. */
	if (!ksim_in_shim && ksim_fd_maybe_ours(fd)) {
		ksim_in_shim++;
		ksim_fd_forget(fd);
		ksim_in_shim--;
	}
	return ksim_real.close(fd);
}

/*
 * A dup'ed fd's number was free: an entry at it is stale, whether or not
 * oldfd is ours (ksim_fd_dup() then empties it).
 */
static void
note_dup(int oldfd, int newfd)
{
	if (newfd >= 0 && !ksim_in_shim &&
	    (ksim_fd_maybe_ours(oldfd) || ksim_fd_maybe_ours(newfd)))
		ksim_fd_dup(oldfd, newfd);
}

KSIM_EXPORT int
dup(int oldfd)
{
	int fd;

	ksim_real_init();
	fd = ksim_real.dup(oldfd);
	note_dup(oldfd, fd);
	return fd;
}

KSIM_EXPORT int
dup2(int oldfd, int newfd)
{
	int fd;

	ksim_real_init();
	fd = ksim_real.dup2(oldfd, newfd);
	note_dup(oldfd, fd);
	return fd;
}

KSIM_EXPORT int
dup3(int oldfd, int newfd, int flags)
{
	int fd;

	ksim_real_init();
	fd = ksim_real.dup3(oldfd, newfd, flags);
	note_dup(oldfd, fd);
	return fd;
}

static int
shim_fcntl(int fd, int cmd, void *arg)
{
	int ret;

	ksim_real_init();
	ret = ksim_real.fcntl(fd, cmd, arg);
	if (cmd == F_DUPFD || cmd == F_DUPFD_CLOEXEC)
		note_dup(fd, ret);
	return ret;
}

/*
 * close_range(2): forgotten first, as in close(), since once closed a
 * number can be reused by another thread. CLOSE_RANGE_CLOEXEC closes
 * nothing. Arguments the kernel refuses change nothing either; a failure
 * after that (ENOMEM of CLOSE_RANGE_UNSHARE) leaves open fds we forgot,
 * which the ioctl path adopts again from the model (ksim_fd_adopt).
 */
KSIM_EXPORT int
close_range(unsigned int first, unsigned int last, int flags)
{
	ksim_real_init();
	if (!ksim_real.close_range) {
		errno = ENOSYS;
		return -1;
	}
	if (!ksim_in_shim && first <= last && !(flags & CLOSE_RANGE_CLOEXEC) &&
	    !(flags & ~(CLOSE_RANGE_UNSHARE | CLOSE_RANGE_CLOEXEC))) {
		ksim_in_shim++;
		ksim_fd_forget_range(first, last);
		ksim_in_shim--;
	}
	return ksim_real.close_range(first, last, flags);
}

KSIM_EXPORT void
closefrom(int lowfd)
{
	ksim_real_init();
	if (!ksim_in_shim && lowfd >= 0) {
		ksim_in_shim++;
		ksim_fd_forget_range((unsigned int)lowfd, ~0u);
		ksim_in_shim--;
	}
	if (ksim_real.closefrom)
		ksim_real.closefrom(lowfd);
}

/*
 * The third argument is an int or a pointer depending on cmd; both travel
 * in the same register, so passing it on as a pointer is exact.
 */
KSIM_EXPORT int
fcntl(int fd, int cmd, ...)
{
	va_list ap;
	void *arg;

	va_start(ap, cmd);
	arg = va_arg(ap, void *);
	va_end(ap);
	return shim_fcntl(fd, cmd, arg);
}

KSIM_EXPORT int fcntl64(int fd, int cmd, ...);

KSIM_EXPORT int
fcntl64(int fd, int cmd, ...)
{
	va_list ap;
	void *arg;

	va_start(ap, cmd);
	arg = va_arg(ap, void *);
	va_end(ap);
	return shim_fcntl(fd, cmd, arg);
}

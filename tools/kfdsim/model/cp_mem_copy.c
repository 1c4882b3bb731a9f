/* SPDX-License-Identifier: MIT */
/*
 * SDMA copies without the bounce buffer where the kernel can copy once:
 * a BO's backing file to the program's pages (pread into them), the
 * program's pages to a backing file (pwrite from them), one backing file
 * to another (copy_file_range), one userptr to another (process_vm_writev
 * on ourselves). The program's pages are only ever handed to the kernel,
 * never touched here: a page it unmapped meanwhile gives EFAULT, as the
 * checked copies do. Everything else (SVM, VRAM never written) and a
 * kernel that refuses goes through the bounce buffer with cp_mem_rw().
 * Device lock held.
 */
#include <errno.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <unistd.h>

#include "cp_priv.h"

/* One kernel copy of @n bytes. Return: 0, 1 to fall back, -1 failed. */
static int
copy_once(int sfd, uint64_t soff, uint64_t suser, int dfd, uint64_t doff,
	  uint64_t duser, uint64_t n)
{
	while (n) {
		long r;

		if (sfd >= 0 && dfd >= 0) {
			loff_t si = (loff_t)soff, di = (loff_t)doff;

			r = syscall(SYS_copy_file_range, sfd, &si, dfd, &di, (size_t)n, 0);
			/* a kernel or file system without it: the bounce */
			if (r < 0 && errno != EINTR)
				return 1;
		} else if (sfd >= 0) {
			r = syscall(SYS_pread64, sfd, (void *)(uintptr_t)duser, (size_t)n,
				    (off_t)soff);
		} else if (dfd >= 0) {
			r = syscall(SYS_pwrite64, dfd, (const void *)(uintptr_t)suser,
				    (size_t)n, (off_t)doff);
		} else {
			struct iovec l = { (void *)(uintptr_t)suser, (size_t)n };
			struct iovec d = { (void *)(uintptr_t)duser, (size_t)n };

			r = syscall(SYS_process_vm_writev, ksim_self_pid(), &l, 1, &d, 1, 0);
			if (r < 0 && (errno == ENOSYS || errno == EPERM))
				return 1;
		}
		if (r < 0 && errno == EINTR)
			continue;
		/* the program's pages gone (EFAULT) */
		if (r < 0)
			return -1;
		/* past the end of a backing file: the bounce reads zeros */
		if (r == 0)
			return 1;
		soff += (uint64_t)r;
		doff += (uint64_t)r;
		suser += (uint64_t)r;
		duser += (uint64_t)r;
		n -= (uint64_t)r;
	}
	return 0;
}

static int
bounce_copy(struct ksim_cp *cp, struct ksim_cpq *cq, uint64_t dst, uint64_t src,
	    uint64_t len, void *bounce, uint64_t bsize)
{
	while (len) {
		uint64_t n = len < bsize ? len : bsize;

		if (cp_mem_rw(cp, cq, src, bounce, n, 0) ||
		    cp_mem_rw(cp, cq, dst, bounce, n, 1))
			return -1;
		src += n;
		dst += n;
		len -= n;
	}
	return 0;
}

int
cp_mem_copy(struct ksim_cp *cp, struct ksim_cpq *cq, uint64_t dst, uint64_t src,
	    uint64_t len, void *bounce, uint64_t bsize)
{
	if (src + len < src || dst + len < dst)
		return -1;
	while (len) {
		uint64_t n = len, m = len, soff = 0, doff = 0, suser = 0, duser = 0;
		int sfd = -1, dfd = -1, r;

		r = cp_mem_piece(cp, cq, src, &n, 0, &sfd, &soff, &suser);
		if (!r)
			r = cp_mem_piece(cp, cq, dst, &m, 1, &dfd, &doff, &duser);
		if (r < 0)
			return -1;
		n = n < m ? n : m;
		if (!r)
			r = copy_once(sfd, soff, suser, dfd, doff, duser, n);
		if (r < 0)
			return -1;
		if (r && bounce_copy(cp, cq, dst, src, n, bounce, bsize))
			return -1;
		src += n;
		dst += n;
		len -= n;
	}
	return 0;
}

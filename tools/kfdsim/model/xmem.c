/* SPDX-License-Identifier: MIT */
/*
 * CROSS_MEMORY_COPY (rocm flavour): a process copies between its own KFD
 * buffers and another process's, each named by its GPU VA in its own
 * process (kfd_ioctl_cross_memory_copy of the ROCm DKMS driver).
 *
 * The kernel finds a remote buffer in the remote process's BO interval
 * tree. Here that state is private to the other process, so each KFD
 * process of the rocm flavour publishes its BOs in a table: a memfd it
 * names in its registry slot. A reader opens the table and each BO's
 * memfd through /proc/<pid>/fd/<n>, and a userptr BO's pages through
 * /proc/<pid>/mem: the host's ptrace access rules then decide, as
 * mm_access() does in the kernel.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "ksim_priv.h"
#include "registry_priv.h"

#define XTAB_MAGIC	0x62617478ULL		/* "xtab" */
#define XTAB_FIRST	64			/* records in a new table */
#define XTAB_TRIES	64			/* reads racing a writer */
#define XMEM_CHUNK	(64u << 10)

/* One KFD BO: its GPU interval and where its pages are. */
struct xtab_rec {
	uint64_t va;
	uint64_t size;			/* 0: free record */
	uint64_t userptr;		/* CPU VA of a userptr BO, else 0 */
	uint64_t st_dev, st_ino;	/* identity of fd */
	int32_t fd;			/* the BO's memfd in the owner; -1 */
	uint32_t pad;
};

/* The table: a seqcount a writer makes odd while it changes records. */
struct xtab_head {
	uint64_t magic;
	uint32_t seq;
	uint32_t cap;
	struct xtab_rec rec[];
};

struct ksim_xtab {
	int fd;
	pid_t owner;			/* a forked child never writes it */
	struct xtab_head *h;
	size_t len;
};

static size_t
xtab_len(uint32_t cap)
{
	return KSIM_PAGE_ALIGN(sizeof(struct xtab_head) + cap * sizeof(struct xtab_rec));
}

/* Make or grow @p's table; name it in the registry slot when new. */
static int
xtab_room(struct ksim_process *p)
{
	struct ksim_xtab *t = p->xtab;
	uint32_t cap;
	size_t len;
	void *h;

	if (!t) {
		t = calloc(1, sizeof(*t));
		if (!t)
			return -ENOMEM;
		t->fd = ksim_sys_memfd("kfdsim-xmem", 1);
		if (t->fd < 0) {
			free(t);
			return -ENOMEM;
		}
		t->fd = ksim_internal_fd(t->fd);
		t->owner = ksim_self_pid();
		p->xtab = t;
		if (ksim_reg_lock(p->dev->reg) == 0) {
			struct reg_proc *rp = p->reg_slot >= 0 ?
					      &p->dev->reg->sh->procs[p->reg_slot] : NULL;

			if (rp && rp->in_use && rp->pid == t->owner)
				rp->xmem_fd = t->fd + 1;
			ksim_reg_unlock(p->dev->reg);
		}
	}
	cap = t->h ? t->h->cap * 2 : XTAB_FIRST;
	len = xtab_len(cap);
	if (ksim_sys_ftruncate(t->fd, len))
		return -ENOMEM;
	h = t->h ? mremap(t->h, t->len, len, MREMAP_MAYMOVE) :
		   mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, t->fd, 0);
	if (h == MAP_FAILED)
		return -ENOMEM;
	t->h = h;
	t->len = len;
	/* The new records are zero (free); cap is written last. */
	__atomic_store_n(&t->h->magic, XTAB_MAGIC, __ATOMIC_RELAXED);
	__atomic_store_n(&t->h->cap, cap, __ATOMIC_RELEASE);
	return 0;
}

static void
xtab_write_begin(struct xtab_head *h)
{
	__atomic_add_fetch(&h->seq, 1, __ATOMIC_ACQ_REL);
}

static void
xtab_write_end(struct xtab_head *h)
{
	__atomic_add_fetch(&h->seq, 1, __ATOMIC_RELEASE);
}

void
ksim_xmem_publish(struct ksim_process *p, struct ksim_kmem *m)
{
	struct ksim_bo *bo = m->bo;
	struct xtab_rec *r;
	uint32_t i;

	if (p->dev->kernel != KSIM_KERNEL_ROCM || p->secondary || !bo)
		return;
	if (p->xtab && p->xtab->owner != ksim_self_pid())
		return;
	/* Another process reaches the BO's pages through its memfd: give it
	 * one now (it stays sparse until written). */
	if (bo->domain != KSIM_DOM_USERPTR && ksim_bo_backing(bo) < 0)
		return;
	for (i = 0; p->xtab && p->xtab->h && i < p->xtab->h->cap; i++)
		if (!p->xtab->h->rec[i].size)
			break;
	if (!p->xtab || !p->xtab->h || i == p->xtab->h->cap) {
		if (xtab_room(p))
			return;
	}
	r = &p->xtab->h->rec[i];
	xtab_write_begin(p->xtab->h);
	r->va = m->va;
	r->userptr = bo->domain == KSIM_DOM_USERPTR ? bo->userptr : 0;
	r->fd = bo->memfd;
	r->st_dev = bo->st_dev;
	r->st_ino = bo->st_ino;
	r->size = bo->size;
	xtab_write_end(p->xtab->h);
	m->xmem_rec = i + 1;
}

void
ksim_xmem_unpublish(struct ksim_process *p, struct ksim_kmem *m)
{
	struct ksim_xtab *t = p->xtab;

	if (!m->xmem_rec || !t || t->owner != ksim_self_pid())
		return;
	xtab_write_begin(t->h);
	memset(&t->h->rec[m->xmem_rec - 1], 0, sizeof(struct xtab_rec));
	xtab_write_end(t->h);
	m->xmem_rec = 0;
}

void
ksim_xmem_fini(struct ksim_process *p)
{
	struct ksim_xtab *t = p->xtab;

	if (!t)
		return;
	if (t->h)
		munmap(t->h, t->len);
	ksim_sys_close(t->fd);
	free(t);
	p->xtab = NULL;
}

/* One side of the copy: a process, and a way to its BOs' pages. */
struct xside {
	int remote;
	pid_t pid;
	int mem_fd;			/* remote: /proc/<pid>/mem */
	const struct xtab_head *h;	/* remote: its table, mapped */
	size_t h_len;
	int h_own;			/* h is our own table: not unmapped */
	struct ksim_process *p;		/* local */
	/* the current range and its BO */
	const struct kfd_abi_memory_range *arr;
	uint64_t n, idx, off;		/* ranges, the current one, in it */
	uint64_t total;			/* bytes left in every range */
	struct xtab_rec bo;		/* the BO of the current range */
	int bo_fd;			/* its memfd here; -1: userptr */
};

static int
open_proc(pid_t pid, const char *what, int flags)
{
	char path[64];

	snprintf(path, sizeof(path), "/proc/%d/%s", (int)pid, what);
	return (int)syscall(SYS_openat, AT_FDCWD, path, flags | O_CLOEXEC);
}

/* The table of @pid's KFD process: its fd there, or -EINVAL for none. */
static int
remote_table_fd(struct ksim_device *dev, pid_t pid)
{
	struct ksim_registry *reg = dev->reg;
	uint64_t start = ksim_proc_start_time(pid);
	int fd = -EINVAL;

	if (!reg->shared || !start)
		return -EINVAL;
	if (ksim_reg_lock(reg))
		return -EIO;
	for (unsigned int i = 0; i < REG_PROCS; i++) {
		const struct reg_proc *rp = &reg->sh->procs[i];

		if (rp->in_use && rp->pid == pid && rp->start == start && rp->dbg.kfd)
			fd = rp->xmem_fd ? rp->xmem_fd - 1 : -EFAULT;
	}
	ksim_reg_unlock(reg);
	return fd;
}

/*
 * Reach @pid's memory and BO table (find_get_pid, mm_access with
 * PTRACE_MODE_ATTACH, kfd_get_process). A KFD process with no BO yet has
 * no table: every range then fails as out of bounds.
 */
static int
remote_open(struct xside *s, struct ksim_process *p, pid_t pid)
{
	struct ksim_device *dev = p->dev;
	char what[32];
	struct stat st;
	int tfd, fd;
	void *h;

	s->remote = 1;
	s->pid = pid;
	s->mem_fd = -1;
	if (pid <= 0 || !ksim_sys_pid_alive(pid))
		return -ESRCH;
	s->mem_fd = open_proc(pid, "mem", O_RDWR);
	if (s->mem_fd < 0)
		return errno == EACCES || errno == EPERM ? -EPERM : -ESRCH;
	/* Our own pid names ourselves: our table, pages through /proc. */
	if (pid == p->pid) {
		if (p->xtab && p->xtab->h) {
			s->h = p->xtab->h;
			s->h_len = p->xtab->len;
			s->h_own = 1;
		}
		return 0;
	}
	tfd = remote_table_fd(dev, pid);
	if (tfd == -EFAULT)
		return 0;
	if (tfd < 0)
		return tfd;
	snprintf(what, sizeof(what), "fd/%d", tfd);
	fd = open_proc(pid, what, O_RDONLY);
	if (fd < 0)
		return 0;
	if (fstat(fd, &st) || st.st_size < (off_t)sizeof(struct xtab_head)) {
		ksim_sys_close(fd);
		return 0;
	}
	h = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_SHARED, fd, 0);
	ksim_sys_close(fd);
	if (h == MAP_FAILED)
		return -ENOMEM;
	s->h = h;
	s->h_len = (size_t)st.st_size;
	if (s->h->magic != XTAB_MAGIC) {
		munmap(h, s->h_len);
		s->h = NULL;
	}
	return 0;
}

/* Find the BO holding [va, va + size) in a table, or -EFAULT. */
static int
table_find(const struct xtab_head *h, size_t len, uint64_t va, uint64_t size,
	   struct xtab_rec *out)
{
	uint64_t last = va + size - 1;

	if (!h)
		return -EFAULT;
	for (int tries = 0; tries < XTAB_TRIES; tries++) {
		uint32_t seq = __atomic_load_n(&h->seq, __ATOMIC_ACQUIRE), cap;
		int found = 0;

		if (seq & 1)
			continue;
		cap = __atomic_load_n(&h->cap, __ATOMIC_ACQUIRE);
		if (xtab_len(cap) > len)
			cap = (uint32_t)((len - sizeof(*h)) / sizeof(h->rec[0]));
		for (uint32_t i = 0; i < cap && !found; i++) {
			struct xtab_rec r;

			memcpy(&r, &h->rec[i], sizeof(r));
			if (r.size && va >= r.va && va - r.va < r.size) {
				*out = r;
				found = 1;
			}
		}
		__atomic_thread_fence(__ATOMIC_ACQUIRE);
		if (__atomic_load_n(&h->seq, __ATOMIC_RELAXED) != seq)
			continue;
		/* kfd_cma_iter_update_bo: the range must end in that BO. */
		if (!found || last < va || last - out->va >= out->size)
			return -EFAULT;
		return 0;
	}
	return -EFAULT;
}

/* The BO of this process holding [va, va + size), or -EFAULT. */
static int
local_find(struct ksim_process *p, uint64_t va, uint64_t size, struct xtab_rec *out)
{
	uint64_t last = va + size - 1;

	for (unsigned int i = 0; i < p->n_pdds; i++) {
		const struct ksim_pdd *pdd = &p->pdds[i];

		for (unsigned int h = 0; h < pdd->idr_cap; h++) {
			const struct ksim_kmem *m = pdd->idr[h];

			if (!m || !m->bo || va < m->va || va - m->va >= m->bo->size)
				continue;
			if (last < va || last - m->va >= m->bo->size)
				return -EFAULT;
			if (m->bo->domain != KSIM_DOM_USERPTR && ksim_bo_backing(m->bo) < 0)
				return -EFAULT;
			memset(out, 0, sizeof(*out));
			out->va = m->va;
			out->size = m->bo->size;
			out->userptr = m->bo->domain == KSIM_DOM_USERPTR ? m->bo->userptr : 0;
			out->fd = m->bo->memfd;
			return 0;
		}
	}
	return -EFAULT;
}

static void
side_drop_bo(struct xside *s)
{
	if (s->remote && s->bo_fd >= 0)
		ksim_sys_close(s->bo_fd);
	s->bo_fd = -1;
}

/* Look up the BO of the current range (kfd_cma_iter_update_bo). */
static int
side_bo(struct xside *s)
{
	const struct kfd_abi_memory_range *r = &s->arr[s->idx];
	uint64_t sdev, ino;
	char what[32];
	int err;

	side_drop_bo(s);
	err = s->remote ? table_find(s->h, s->h_len, r->va_addr, r->size, &s->bo) :
			  local_find(s->p, r->va_addr, r->size, &s->bo);
	if (err)
		return err;
	if (s->bo.userptr)
		return 0;
	if (!s->remote) {
		s->bo_fd = s->bo.fd;
		return 0;
	}
	snprintf(what, sizeof(what), "fd/%d", (int)s->bo.fd);
	s->bo_fd = open_proc(s->pid, what, O_RDWR);
	/* The owner freed it meanwhile (the number may name another file). */
	if (s->bo_fd < 0 || ksim_sys_identity(s->bo_fd, &sdev, &ino) ||
	    sdev != s->bo.st_dev || ino != s->bo.st_ino) {
		side_drop_bo(s);
		return -EFAULT;
	}
	return 0;
}

/* kfd_cma_iter_init: the first range's BO, unless there is nothing to copy. */
static int
side_init(struct xside *s, const struct kfd_abi_memory_range *arr, uint64_t n)
{
	s->arr = arr;
	s->n = n;
	s->idx = 0;
	s->off = 0;
	s->bo_fd = -1;
	s->total = 0;
	for (uint64_t i = 0; i < n; i++)
		s->total += arr[i].size;
	return s->total ? side_bo(s) : 0;
}

static int
side_end(const struct xside *s)
{
	return s->idx >= s->n || !s->total;
}

/* kfd_cma_iter_advance: past @len bytes, into the next range at its end. */
static int
side_advance(struct xside *s, uint64_t len)
{
	s->off += len;
	s->total -= len;
	if (s->off < s->arr[s->idx].size)
		return 0;
	s->idx++;
	s->off = 0;
	if (side_end(s))
		return 0;
	return side_bo(s);
}

/* Move @len bytes at the side's position to or from @buf. */
static int
side_io(struct xside *s, void *buf, size_t len, int write)
{
	uint64_t bo_off = s->arr[s->idx].va_addr + s->off - s->bo.va;
	uint64_t addr = s->bo.userptr + bo_off;
	int r;

	if (s->bo.userptr && !s->remote)
		return write ? ksim_copy_to_user(addr, buf, len) :
			       ksim_copy_from_user(buf, addr, len);
	if (s->bo.userptr) {
		ssize_t n = write ? pwrite(s->mem_fd, buf, len, (off_t)addr) :
				    pread(s->mem_fd, buf, len, (off_t)addr);

		return n == (ssize_t)len ? 0 : -EFAULT;
	}
	r = write ? ksim_sys_pwrite(s->bo_fd, buf, len, bo_off) :
		    ksim_sys_pread(s->bo_fd, buf, len, bo_off);
	return r ? -EFAULT : 0;
}

static void
side_close(struct xside *s)
{
	side_drop_bo(s);
	if (s->h && !s->h_own)
		munmap((void *)s->h, s->h_len);
	if (s->remote && s->mem_fd >= 0)
		ksim_sys_close(s->mem_fd);
}

/* Copy range by range until either side ends; *copied counts what moved. */
static int
xmem_copy(struct xside *si, struct xside *di, uint64_t *copied)
{
	char *buf = malloc(XMEM_CHUNK);
	int err = 0;

	if (!buf)
		return -ENOMEM;
	while (!err && !side_end(si) && !side_end(di)) {
		uint64_t n = si->arr[si->idx].size - si->off;

		if (n > di->arr[di->idx].size - di->off)
			n = di->arr[di->idx].size - di->off;
		if (n > XMEM_CHUNK)
			n = XMEM_CHUNK;
		err = side_io(si, buf, n, 0);
		if (!err)
			err = side_io(di, buf, n, 1);
		if (err)
			break;
		*copied += n;
		err = side_advance(si, n);
		if (!err)
			err = side_advance(di, n);
	}
	free(buf);
	return err;
}

int
ksim_ioc_cross_memory_copy(struct ksim_file *f, struct ksim_process *p, void *data,
			   unsigned int usize)
{
	struct kfd_abi_cross_memory_copy_args *args = data;
	const uint64_t rsz = sizeof(struct kfd_abi_memory_range);
	struct kfd_abi_memory_range *src = NULL, *dst;
	struct xside local = { .p = p, .mem_fd = -1, .bo_fd = -1 };
	struct xside remote = { .mem_fd = -1, .bo_fd = -1 };
	int write = !!(args->flags & KFD_ABI_CROSS_MEMORY_RW_BIT);
	uint64_t copied = 0;
	int err;

	(void)f;
	(void)usize;
	if (!args->src_mem_range_array || !args->dst_mem_range_array ||
	    !args->src_mem_array_size || !args->dst_mem_array_size)
		return -EINVAL;
	args->bytes_copied = 0;
	if (args->src_mem_array_size > (1ull << 24) / rsz ||
	    args->dst_mem_array_size > (1ull << 24) / rsz)
		return -ENOMEM;		/* kmalloc_array refuses such a size */
	src = calloc(args->src_mem_array_size + args->dst_mem_array_size, rsz);
	if (!src)
		return -ENOMEM;
	dst = src + args->src_mem_array_size;
	err = ksim_copy_from_user(src, args->src_mem_range_array,
				  args->src_mem_array_size * rsz);
	if (!err)
		err = ksim_copy_from_user(dst, args->dst_mem_range_array,
					  args->dst_mem_array_size * rsz);
	if (err) {
		err = -EFAULT;
		goto out;
	}
	err = remote_open(&remote, p, (pid_t)args->pid);
	if (err)
		goto out;
	/* Destination first, as the kernel sets its iterators up. */
	if (write) {
		err = side_init(&remote, dst, args->dst_mem_array_size);
		if (!err)
			err = side_init(&local, src, args->src_mem_array_size);
		if (!err)
			err = xmem_copy(&local, &remote, &copied);
	} else {
		err = side_init(&local, dst, args->dst_mem_array_size);
		if (!err)
			err = side_init(&remote, src, args->src_mem_array_size);
		if (!err)
			err = xmem_copy(&remote, &local, &copied);
	}
out:
	side_close(&local);
	side_close(&remote);
	free(src);
	/* A failure part way reports what was copied before it. */
	args->bytes_copied = copied;
	return err;
}

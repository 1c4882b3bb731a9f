/* SPDX-License-Identifier: MIT */
/*
 * How the engines reach memory. GPU VAs of a queue's VM are resolved to
 * the mapping (BO or userptr) behind them, as the GPU's page tables would.
 *
 * cp_mem() gives a CPU pointer for the small, often-touched things (rings,
 * read/write pointers, signals, fences, a shader's loads and stores),
 * which must also be visible to the CPU at the same time: the engines' own
 * shared mapping of a VRAM or GTT BO's backing memory (ksim_bo_view()),
 * or the userptr's pages. The own mapping reaches VRAM the CPU never
 * mapped without a system call per access. cp_mem_rw() moves bulk data
 * (SDMA copies and fills) the way the GPU does: through the BO's backing
 * memory, and a copy may span several mappings (peer VRAM among them).
 *
 * An address no KFD mapping covers may be shared virtual memory (SVM):
 * the GPU then reaches the process's own pages at the same address, as
 * the kernel maps them, through cp_mem_rw()'s checked copies. With XNACK off that is only inside SVM ranges
 * that grant this GPU ACCESS or ACCESS_IN_PLACE (the kernel maps those
 * ranges ahead of time); with XNACK on any page the CPU has is reached,
 * since the kernel maps on fault. Anything else faults.
 *
 * A doorbell BO mapped into the VM reaches the process's doorbell page
 * (cp_mem_rw() only): an engine's store there rings that queue.
 *
 * A KFD BO allocated without WRITABLE, or a GEM_VA mapping without
 * WRITEABLE, has read-only PTEs: the engines' writes to it fault.
 * cp_vm_fault() says where an access faulted and why, as the page-fault
 * interrupt does, and raises it.
 */
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "cp_priv.h"

/* The span of a mapping probed at once around an access (a power of 2). */
#define CP_MEMWINDOW	(256ull * 1024)

/* The GPU may write through @m: amdgpu maps it with writable PTEs. */
static int
map_writable(const struct ksim_mapping *m)
{
	if (m->kmem)
		return !!(m->kmem->alloc_flags & KFD_ABI_ALLOC_MEM_FLAGS_WRITABLE);
	return !!(m->flags & KFD_DRM_AMDGPU_VM_PAGE_WRITEABLE);
}

/*
 * The SVM view of [va, va+*len): 0 when the GPU of @cq reaches it as the
 * process's own memory, with *len cut at the end of the range that
 * grants it; -1 on a fault.
 */
static int
svm_reach(struct ksim_cp *cp, struct ksim_cpq *cq, uint64_t va, uint64_t *len)
{
	const struct ksim_process *p = cp->p;
	uint32_t bit = 1u << cq->gpu;

	if (p->xnack_enabled)
		return ksim_user_range_mapped(va, *len) ? 0 : -1;
	for (unsigned int i = 0; i < p->n_svm; i++) {
		const struct ksim_svm_range *r = &p->svm[i];

		if (va < r->start)
			break;
		if (va - r->start >= r->size)
			continue;
		if (!((r->access | r->access_in_place) & bit))
			return -1;
		if (*len > r->start + r->size - va)
			*len = r->start + r->size - va;
		return 0;
	}
	return -1;
}

/*
 * Whether the program's own mappings let [lo, hi) be stored to: a userptr
 * BO's pages are the program's, and a PROT_READ mapping of them faults a
 * GPU store as the page tables built from them would (read-only PTEs).
 * /proc/self/maps is read, once per range the cache below keeps.
 */
static int
user_writable(uint64_t lo, uint64_t hi)
{
	char buf[4096], *line, *nl;
	size_t have = 0;
	int fd, ok = 0;

	fd = (int)syscall(SYS_openat, AT_FDCWD, "/proc/self/maps", O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 0;
	for (;;) {
		long n = syscall(SYS_read, fd, buf + have, sizeof(buf) - 1 - have);

		if (n <= 0)
			break;
		have += (size_t)n;
		buf[have] = '\0';
		line = buf;
		while ((nl = strchr(line, '\n'))) {
			char *end;
			uint64_t a = strtoull(line, &end, 16), b;

			*nl = '\0';
			b = *end == '-' ? strtoull(end + 1, &end, 16) : 0;
			/* Mappings come sorted: walk [lo, hi) through them. */
			if (a <= lo && lo < b) {
				if (end[0] != ' ' || end[2] != 'w')
					goto out;
				lo = b;
				if (lo >= hi) {
					ok = 1;
					goto out;
				}
			}
			line = nl + 1;
		}
		have = strlen(line);
		memmove(buf, line, have);
		if (have == sizeof(buf) - 1)
			have = 0;	/* no line is that long */
	}
out:
	ksim_sys_close(fd);
	return ok;
}

/*
 * Whether the CPU reaches the pages [lo, hi) of mapping @m (for a store:
 * writable): a checked copy of their first and last byte, and no hole
 * between them. Return: 0, or -1 when not.
 */
static int
probe_pages(const struct ksim_mapping *m, uint64_t lo, uint64_t hi, int write)
{
	uint8_t probe;

	if (ksim_copy_from_user(&probe, lo, 1) || ksim_copy_from_user(&probe, hi - 1, 1))
		return -1;
	if (hi - lo > 2 * KSIM_PAGE_SIZE && !ksim_user_range_mapped(lo, hi - lo))
		return -1;
	/* A BO's own pages are the model's, mapped writable. */
	if (write && m->bo->domain == KSIM_DOM_USERPTR && !user_writable(lo, hi))
		return -1;
	return 0;
}

/*
 * The mapping of @vm that holds @va: the one @x names when it still
 * does (the mappings change only under the device lock, so a slot of
 * the current array holds a current mapping), else a search.
 */
static struct ksim_mapping *
map_find(struct ksim_vm *vm, uint64_t va, struct cp_xlate *x)
{
	struct ksim_mapping *m;

	if (x && x->map < vm->n) {
		m = &vm->maps[x->map];
		if (va >= m->start && va - m->start < m->size)
			return m;
	}
	m = ksim_vm_find(vm, va);
	if (m && x)
		x->map = (unsigned int)(m - vm->maps);
	return m;
}

/* Whether probe-cache entry @i covers the CPU pages [lo, hi) of @bo. */
static int
mem_cached(const struct ksim_cp *cp, unsigned int i, const struct ksim_bo *bo,
	   uint64_t lo, uint64_t hi, int write)
{
	return cp->mem[i].bo == bo && cp->mem[i].start <= lo &&
	       hi <= cp->mem[i].end && (!write || cp->mem[i].writable);
}

/*
 * The CPU address of GPU VA [va, va+len) of @cq's VM, or NULL when the
 * range is not inside one mapping the CPU can reach. A BO never given CPU
 * pages (VRAM nobody mapped) cannot be touched; the first access to a
 * range is probed with a checked copy and remembered. @x (may be NULL):
 * where the last lookup through it ended, tried first and updated.
 */
static void *
mem_view(struct ksim_cp *cp, struct ksim_cpq *cq, uint64_t va, uint64_t len,
	 int write, struct cp_xlate *x)
{
	struct ksim_file *drm = cp->p->pdds[cq->gpu].drm_file;
	struct ksim_mapping *m;
	uint64_t cpu, lo, hi, mlo, wlo, whi;
	uint8_t *view;
	unsigned int i;

	if (!drm || !len || va + len < va)
		return NULL;
	m = map_find(&drm->vm, va, x);
	/*
	 * Never a pointer into SVM: those are the program's own pages, which
	 * another of its threads may unmap or protect while the engine
	 * works. SVM is reached through cp_mem_rw()'s checked copies only.
	 */
	if (!m || va + len > m->start + m->size || (write && !map_writable(m)))
		return NULL;
	switch (m->bo->domain) {
	case KSIM_DOM_USERPTR:
		cpu = m->bo->userptr + m->offset + (va - m->start);
		break;
	case KSIM_DOM_VRAM:
	case KSIM_DOM_GTT:
		/* A read of pages never written is left to cp_mem_rw()'s zeros. */
		if (m->bo->memfd < 0 && (!write || ksim_bo_backing(m->bo) < 0))
			return NULL;
		view = ksim_bo_view(m->bo);
		if (view)
			return view + m->offset + (va - m->start);
		cpu = va;
		break;
	default:
		return NULL;	/* doorbell and MMIO pages: not memory */
	}
	lo = cpu & ~(KSIM_PAGE_SIZE - 1);
	hi = KSIM_PAGE_ALIGN(cpu + len);
	if (x && x->mem < CP_MEMCACHE &&
	    mem_cached(cp, x->mem, m->bo, lo, hi, write))
		return (void *)(uintptr_t)cpu;
	for (i = 0; i < CP_MEMCACHE; i++)
		if (mem_cached(cp, i, m->bo, lo, hi, write))
			goto hit;
	/*
	 * The window of the mapping around the access is probed first, so
	 * that a kernel streaming through a buffer probes once a window
	 * rather than once a page; the access's own pages if that fails.
	 */
	mlo = cpu - (va - m->start);
	wlo = lo & ~(CP_MEMWINDOW - 1);
	whi = (hi + CP_MEMWINDOW - 1) & ~(CP_MEMWINDOW - 1);
	wlo = wlo > mlo ? wlo : mlo & ~(KSIM_PAGE_SIZE - 1);
	whi = whi < mlo + m->size ? whi : KSIM_PAGE_ALIGN(mlo + m->size);
	if (!probe_pages(m, wlo, whi, write)) {
		lo = wlo;
		hi = whi;
	} else if (probe_pages(m, lo, hi, write)) {
		return NULL;
	}
	i = cp->mem_next++ % CP_MEMCACHE;
	cp->mem[i].start = lo;
	cp->mem[i].end = hi;
	cp->mem[i].bo = m->bo;
	cp->mem[i].writable = write || m->bo->domain != KSIM_DOM_USERPTR;
hit:
	if (x)
		x->mem = i;
	return (void *)(uintptr_t)cpu;
}

void *
cp_mem(struct ksim_cp *cp, struct ksim_cpq *cq, uint64_t va, uint64_t len)
{
	return mem_view(cp, cq, va, len, 0, NULL);
}

void *
cp_mem_w(struct ksim_cp *cp, struct ksim_cpq *cq, uint64_t va, uint64_t len)
{
	return mem_view(cp, cq, va, len, 1, NULL);
}

void *
cp_mem_x(struct ksim_cp *cp, struct ksim_cpq *cq, struct cp_xlate *x,
	 uint64_t va, uint64_t len, int write)
{
	return mem_view(cp, cq, va, len, write, x);
}

/*
 * One piece of a bulk access: [va, va+*len) cut at the end of its
 * mapping. A NULL @buf only checks that the piece is reachable. Return:
 * 0, or -1 when va is not mapped in the VM as memory.
 */
static int
rw_piece(struct ksim_cp *cp, struct ksim_cpq *cq, uint64_t va, void *buf,
	 uint64_t *len, int write)
{
	struct ksim_file *drm = cp->p->pdds[cq->gpu].drm_file;
	struct ksim_mapping *m;
	uint64_t off, n;
	uint8_t *view;
	int fd;

	if (!drm)
		return -1;
	m = ksim_vm_find(&drm->vm, va);
	if (!m) {
		/* SVM: the process's own pages, to the end of the range. */
		if (svm_reach(cp, cq, va, len))
			return -1;
		if (!buf)
			return ksim_user_range_mapped(va, *len) ? 0 : -1;
		return write ? ksim_copy_to_user(va, buf, *len) :
			       ksim_copy_from_user(buf, va, *len);
	}
	n = m->start + m->size - va;
	if (n < *len)
		*len = n;
	off = m->offset + (va - m->start);
	if (write && !map_writable(m))
		return -1;
	if (!buf) {
		if (m->bo->domain == KSIM_DOM_USERPTR)
			return ksim_user_range_mapped(m->bo->userptr + off, *len) ?
			       0 : -1;
		return m->bo->domain == KSIM_DOM_VRAM ||
		       m->bo->domain == KSIM_DOM_GTT ||
		       (m->bo->domain == KSIM_DOM_DOORBELL &&
			m->bo->memfd >= 0) ? 0 : -1;
	}
	switch (m->bo->domain) {
	case KSIM_DOM_USERPTR:
		return write ? ksim_copy_to_user(m->bo->userptr + off, buf, *len) :
			       ksim_copy_from_user(buf, m->bo->userptr + off, *len);
	case KSIM_DOM_VRAM:
	case KSIM_DOM_GTT:
		if (!write && m->bo->memfd < 0) {
			memset(buf, 0, *len);	/* never written: zero pages */
			return 0;
		}
		fd = ksim_bo_backing(m->bo);
		if (fd < 0)
			return -1;
		view = ksim_bo_view(m->bo);
		if (view) {
			if (write)
				memcpy(view + off, buf, *len);
			else
				memcpy(buf, view + off, *len);
			return 0;
		}
		return write ? ksim_sys_pwrite(fd, buf, *len, off) :
			       ksim_sys_pread(fd, buf, *len, off);
	case KSIM_DOM_DOORBELL:
		/*
		 * The process's doorbell page, mapped into the GPU's VM: a
		 * store rings the queue behind the slot as a CPU store does,
		 * since the engine watches the same page.
		 */
		if (m->bo->memfd < 0)
			return -1;
		return write ? ksim_sys_pwrite(m->bo->memfd, buf, *len, off) :
			       ksim_sys_pread(m->bo->memfd, buf, *len, off);
	default:
		return -1;	/* MMIO pages: not memory */
	}
}

int
cp_mem_rw(struct ksim_cp *cp, struct ksim_cpq *cq, uint64_t va, void *buf,
	  uint64_t len, int write)
{
	uint8_t *b = buf;

	if (va + len < va)
		return -1;
	while (len) {
		uint64_t n = len;

		if (rw_piece(cp, cq, va, b, &n, write))
			return -1;
		va += n;
		b += n;
		len -= n;
	}
	return 0;
}

int
cp_mem_piece(struct ksim_cp *cp, struct ksim_cpq *cq, uint64_t va, uint64_t *len,
	     int write, int *fd, uint64_t *off, uint64_t *user)
{
	struct ksim_file *drm = cp->p->pdds[cq->gpu].drm_file;
	struct ksim_mapping *m;
	uint64_t n;

	if (!drm)
		return -1;
	m = ksim_vm_find(&drm->vm, va);
	if (!m)
		return 1;
	n = m->start + m->size - va;
	if (n < *len)
		*len = n;
	if (write && !map_writable(m))
		return -1;
	*fd = -1;
	*off = m->offset + (va - m->start);
	switch (m->bo->domain) {
	case KSIM_DOM_USERPTR:
		*user = m->bo->userptr + *off;
		return 0;
	case KSIM_DOM_VRAM:
	case KSIM_DOM_GTT:
		if (!write && m->bo->memfd < 0)
			return 1;
		*fd = ksim_bo_backing(m->bo);
		return *fd < 0 ? -1 : 0;
	default:
		return 1;
	}
}

/*
 * Zero [off, off+len) of @bo's memfd: its whole pages are dropped (they
 * read as zeros, and give their memory back), the partial pages at either
 * end are written. A BO never written has no memfd and reads as zeros.
 */
static int
zero_backing(struct ksim_bo *bo, uint64_t off, uint64_t len)
{
	uint64_t lo = KSIM_PAGE_ALIGN(off), hi = (off + len) & ~(KSIM_PAGE_SIZE - 1);

	if (bo->memfd < 0)
		return 0;
	if (lo >= hi)
		return ksim_sys_fill(bo->memfd, off, len, 0);
	if ((lo > off && ksim_sys_fill(bo->memfd, off, lo - off, 0)) ||
	    (off + len > hi && ksim_sys_fill(bo->memfd, hi, off + len - hi, 0)))
		return -1;
	return ksim_sys_punch(bo->memfd, lo, hi - lo) ?
	       ksim_sys_fill(bo->memfd, lo, hi - lo, 0) : 0;
}

int
cp_mem_zero(struct ksim_cp *cp, struct ksim_cpq *cq, uint64_t va, uint64_t len)
{
	struct ksim_file *drm = cp->p->pdds[cq->gpu].drm_file;

	if (va + len < va)
		return -1;
	memset(cp->bounce, 0, sizeof(cp->bounce));
	while (len) {
		struct ksim_mapping *m = drm ? ksim_vm_find(&drm->vm, va) : NULL;
		uint64_t n = len;

		if (m && map_writable(m) && (m->bo->domain == KSIM_DOM_VRAM ||
					     m->bo->domain == KSIM_DOM_GTT)) {
			if (n > m->start + m->size - va)
				n = m->start + m->size - va;
			if (zero_backing(m->bo, m->offset + (va - m->start), n))
				return -1;
		} else {
			/* Other memory (userptr, SVM, doorbells) is written. */
			if (n > sizeof(cp->bounce))
				n = sizeof(cp->bounce);
			if (rw_piece(cp, cq, va, cp->bounce, &n, 1))
				return -1;
		}
		va += n;
		len -= n;
	}
	return 0;
}

int
cp_mem_reaches(struct ksim_cp *cp, struct ksim_cpq *cq, uint64_t va,
	       uint64_t len)
{
	if (va + len < va)
		return 0;
	while (len) {
		uint64_t n = len;

		if (rw_piece(cp, cq, va, NULL, &n, 0))
			return 0;
		va += n;
		len -= n;
	}
	return 1;
}

int
cp_vm_fault(struct ksim_cp *cp, struct ksim_cpq *cq, uint64_t va, uint64_t len,
	    int write, uint64_t *at)
{
	struct ksim_file *drm = cp->p->pdds[cq->gpu].drm_file;
	uint64_t user = ~0ULL, end = va + len;
	unsigned int why = 0;

	*at = va;
	if (!len || end < va)
		why = KSIM_VM_FAULT_NOT_PRESENT;
	/* Page by page, as the GPU's walker meets them. */
	for (uint64_t a = va; !why && a < end; ) {
		uint64_t n = KSIM_PAGE_ALIGN(a + 1) - a;
		const struct ksim_mapping *m;

		if (n > end - a)
			n = end - a;
		*at = a;
		m = drm ? ksim_vm_find(&drm->vm, a) : NULL;
		if (rw_piece(cp, cq, a, NULL, &n, 0))
			why = KSIM_VM_FAULT_NOT_PRESENT;
		else if (write && m && !map_writable(m))
			why = KSIM_VM_FAULT_READ_ONLY;
		else if (user == ~0ULL && (!m || m->bo->domain == KSIM_DOM_USERPTR))
			user = a;
		a += n;
	}
	if (!why) {
		/*
		 * Every page reads: the write met a page the program's own
		 * mapping keeps read-only (a userptr, SVM), which the engine
		 * cannot tell apart page by page. The first such page is named.
		 */
		why = write ? KSIM_VM_FAULT_READ_ONLY : KSIM_VM_FAULT_NOT_PRESENT;
		*at = user != ~0ULL ? user : va;
	}
	return ksim_event_vm_fault(cp->p, cq->gpu, *at, why);
}

/* SPDX-License-Identifier: MIT */
/*
 * How the engines reach memory. GPU VAs of a queue's VM are resolved to
 * the mapping (BO or userptr) behind them, as the GPU's page tables would.
 *
 * cp_mem() gives a CPU pointer for the small, often-touched things (rings,
 * read/write pointers, signals, fences), which must also be visible to the
 * CPU at the same time: the CPU's view of a KFD BO at the same VA (as ROCr
 * maps them), or the userptr's pages. cp_mem_rw() moves bulk data (SDMA
 * copies and fills) the way the GPU does: through the BO's own backing
 * memory, so VRAM the CPU never mapped is reached too, and a copy may
 * span several mappings (peer VRAM among them).
 */
#include <string.h>

#include "cp_priv.h"

/*
 * The CPU address of GPU VA [va, va+len) of @cq's VM, or NULL when the
 * range is not inside one mapping the CPU can reach. A BO never given CPU
 * pages (VRAM nobody mapped) cannot be touched; the first access to a
 * range is probed with a checked copy and remembered.
 */
void *
cp_mem(struct ksim_cp *cp, struct ksim_cpq *cq, uint64_t va, uint64_t len)
{
	struct ksim_file *drm = cp->p->pdds[cq->gpu].drm_file;
	struct ksim_mapping *m;
	uint64_t cpu, lo, hi;
	uint8_t probe;
	unsigned int i;

	if (!drm || !len || va + len < va)
		return NULL;
	m = ksim_vm_find(&drm->vm, va);
	if (!m || va + len > m->start + m->size)
		return NULL;
	switch (m->bo->domain) {
	case KSIM_DOM_USERPTR:
		cpu = m->bo->userptr + m->offset + (va - m->start);
		break;
	case KSIM_DOM_VRAM:
	case KSIM_DOM_GTT:
		if (m->bo->memfd < 0)
			return NULL;
		cpu = va;
		break;
	default:
		return NULL;	/* doorbell and MMIO pages: not memory */
	}
	lo = cpu & ~(KSIM_PAGE_SIZE - 1);
	hi = KSIM_PAGE_ALIGN(cpu + len);
	for (i = 0; i < CP_MEMCACHE; i++)
		if (cp->mem[i].bo == m->bo && cp->mem[i].start <= lo &&
		    hi <= cp->mem[i].end)
			return (void *)(uintptr_t)cpu;
	if (ksim_copy_from_user(&probe, cpu, 1) ||
	    ksim_copy_from_user(&probe, cpu + len - 1, 1))
		return NULL;
	i = cp->mem_next++ % CP_MEMCACHE;
	cp->mem[i].start = lo;
	cp->mem[i].end = hi;
	cp->mem[i].bo = m->bo;
	return (void *)(uintptr_t)cpu;
}

/*
 * One piece of a bulk access: [va, va+*len) cut at the end of its
 * mapping. Return: 0, or -1 when va is not mapped in the VM as memory.
 */
static int
rw_piece(struct ksim_cp *cp, struct ksim_cpq *cq, uint64_t va, void *buf,
	 uint64_t *len, int write)
{
	struct ksim_file *drm = cp->p->pdds[cq->gpu].drm_file;
	struct ksim_mapping *m;
	uint64_t off, n;
	int fd;

	m = drm ? ksim_vm_find(&drm->vm, va) : NULL;
	if (!m)
		return -1;
	n = m->start + m->size - va;
	if (n < *len)
		*len = n;
	off = m->offset + (va - m->start);
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
		return write ? ksim_sys_pwrite(fd, buf, *len, off) :
			       ksim_sys_pread(fd, buf, *len, off);
	default:
		return -1;	/* doorbell and MMIO pages: not memory */
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

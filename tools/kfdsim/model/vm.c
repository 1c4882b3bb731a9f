/* SPDX-License-Identifier: MIT */
/*
 * GPU VMs: the address space of a render-node file (amdgpu_vm), which KFD
 * adopts at ACQUIRE_VM. Mappings are kept sorted by address; the checks are
 * those of amdgpu_vm_bo_map (alignment, range, no overlap).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "ksim_priv.h"

/* Index of the first mapping ending after @addr. */
static unsigned int
lower_bound(const struct ksim_vm *vm, uint64_t addr)
{
	unsigned int lo = 0, hi = vm->n;

	while (lo < hi) {
		unsigned int mid = (lo + hi) / 2;
		const struct ksim_mapping *m = &vm->maps[mid];

		if (m->start + m->size <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

struct ksim_mapping *
ksim_vm_find(struct ksim_vm *vm, uint64_t addr)
{
	unsigned int i = lower_bound(vm, addr);

	if (i < vm->n && vm->maps[i].start <= addr)
		return &vm->maps[i];
	return NULL;
}

int
ksim_vm_overlaps(const struct ksim_vm *vm, uint64_t start, uint64_t size)
{
	unsigned int i = lower_bound(vm, start);

	return i < vm->n && vm->maps[i].start < start + size;
}

/* amdgpu_vm_bo_map's parameter checks and overlap test. */
int
ksim_vm_check(const struct ksim_vm *vm, uint64_t start, uint64_t size)
{
	if ((start | size) & (KSIM_PAGE_SIZE - 1))
		return -EINVAL;
	if (!size || start + size <= start || start + size > KSIM_VM_SIZE)
		return -EINVAL;
	if (ksim_vm_overlaps(vm, start, size))
		return -EINVAL;
	return 0;
}

int
ksim_vm_insert(struct ksim_vm *vm, const struct ksim_mapping *m)
{
	unsigned int i;
	int r = ksim_vm_check(vm, m->start, m->size);

	if (r)
		return r;
	if (vm->n == vm->cap) {
		unsigned int cap = vm->cap ? vm->cap * 2 : 16;
		struct ksim_mapping *n = realloc(vm->maps, cap * sizeof(*n));

		if (!n)
			return -ENOMEM;
		vm->maps = n;
		vm->cap = cap;
	}
	i = lower_bound(vm, m->start);
	memmove(&vm->maps[i + 1], &vm->maps[i], (vm->n - i) * sizeof(*m));
	vm->maps[i] = *m;
	vm->n++;
	if (m->bo)
		ksim_bo_get(m->bo);
	return 0;
}

void
ksim_vm_remove(struct ksim_device *dev, struct ksim_vm *vm,
	       struct ksim_mapping *m)
{
	unsigned int i = (unsigned int)(m - vm->maps);
	struct ksim_bo *bo = m->bo;

	memmove(&vm->maps[i], &vm->maps[i + 1], (vm->n - i - 1) * sizeof(*m));
	vm->n--;
	if (bo)
		ksim_bo_put(dev, bo);
}

void
ksim_vm_remove_kmem(struct ksim_device *dev, struct ksim_vm *vm,
		    struct ksim_kmem *kmem)
{
	unsigned int i = 0;

	while (i < vm->n) {
		if (vm->maps[i].kmem == kmem)
			ksim_vm_remove(dev, vm, &vm->maps[i]);
		else
			i++;
	}
}

void
ksim_vm_clear(struct ksim_device *dev, struct ksim_vm *vm)
{
	while (vm->n)
		ksim_vm_remove(dev, vm, &vm->maps[vm->n - 1]);
	free(vm->maps);
	vm->maps = NULL;
	vm->cap = 0;
}

/* SPDX-License-Identifier: MIT */
/*
 * Shared virtual memory ranges (kfd_svm.c): SET_ATTR splits registered
 * ranges and fills holes with default ranges, GET_ATTR folds the
 * attributes of the registered ranges inside the span. Ranges live in a
 * sorted array; addresses are bytes (page aligned).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "ksim_priv.h"

#define SVM_DEFAULT_GRANULARITY	9
#define SVM_MAX_GRANULARITY	0x3f
#define SVM_PAGE_SHIFT		12

int
ksim_svm_overlaps(const struct ksim_process *p, uint64_t start, uint64_t size)
{
	uint64_t end = start + size;

	if (end < start)
		end = UINT64_MAX;
	for (unsigned int i = 0; i < p->n_svm; i++) {
		const struct ksim_svm_range *r = &p->svm[i];

		if (r->start < end && start < r->start + r->size)
			return 1;
		if (r->start >= end)
			break;
	}
	return 0;
}

static int
gpuidx(const struct ksim_process *p, uint32_t gpu_id)
{
	for (unsigned int i = 0; i < p->n_pdds; i++)
		if (p->pdds[i].gpu_id == gpu_id)
			return (int)i;
	return -1;
}

static uint32_t
all_gpus(const struct ksim_process *p)
{
	return p->n_pdds >= 32 ? ~0u : (1u << p->n_pdds) - 1;
}

/* svm_range_check_attr */
static int
check_attrs(const struct ksim_process *p, const struct kfd_abi_svm_attribute *a,
	    uint32_t n)
{
	for (uint32_t i = 0; i < n; i++) {
		uint32_t v = a[i].value;
		int idx = 0;

		switch (a[i].type) {
		case KFD_ABI_SVM_ATTR_PREFERRED_LOC:
			if (v != KFD_ABI_SVM_LOCATION_SYSMEM &&
			    v != KFD_ABI_SVM_LOCATION_UNDEFINED)
				idx = gpuidx(p, v);
			break;
		case KFD_ABI_SVM_ATTR_PREFETCH_LOC:
			if (v != KFD_ABI_SVM_LOCATION_SYSMEM)
				idx = gpuidx(p, v);
			break;
		case KFD_ABI_SVM_ATTR_ACCESS:
		case KFD_ABI_SVM_ATTR_ACCESS_IN_PLACE:
		case KFD_ABI_SVM_ATTR_NO_ACCESS:
			idx = gpuidx(p, v);
			break;
		case KFD_ABI_SVM_ATTR_SET_FLAGS:
		case KFD_ABI_SVM_ATTR_CLR_FLAGS:
		case KFD_ABI_SVM_ATTR_GRANULARITY:
			break;
		default:
			return -EINVAL;
		}
		if (idx < 0)
			return -EINVAL;
	}
	return 0;
}

/* svm_range_is_valid: CPU-mapped, and no KFD BO mapping in any GPU VM. */
static int
range_valid(struct ksim_process *p, uint64_t start, uint64_t size)
{
	if (!ksim_user_range_mapped(start, size))
		return -EFAULT;
	for (unsigned int i = 0; i < p->n_pdds; i++) {
		struct ksim_file *f = p->pdds[i].drm_file;

		if (f && ksim_vm_overlaps(&f->vm, start, size))
			return -EADDRINUSE;
	}
	return 0;
}

static int
svm_insert(struct ksim_process *p, unsigned int at, const struct ksim_svm_range *r)
{
	if (p->n_svm == p->cap_svm) {
		unsigned int cap = p->cap_svm ? p->cap_svm * 2 : 16;
		struct ksim_svm_range *n = realloc(p->svm, cap * sizeof(*n));

		if (!n)
			return -ENOMEM;
		p->svm = n;
		p->cap_svm = cap;
	}
	memmove(&p->svm[at + 1], &p->svm[at], (p->n_svm - at) * sizeof(*r));
	p->svm[at] = *r;
	p->n_svm++;
	return 0;
}

static void
default_range(const struct ksim_process *p, struct ksim_svm_range *r,
	      uint64_t start, uint64_t size)
{
	memset(r, 0, sizeof(*r));
	r->start = start;
	r->size = size;
	r->preferred_loc = KFD_ABI_SVM_LOCATION_UNDEFINED;
	r->prefetch_loc = KFD_ABI_SVM_LOCATION_UNDEFINED;
	r->granularity = SVM_DEFAULT_GRANULARITY;
	r->flags = KFD_ABI_SVM_FLAG_HOST_ACCESS | KFD_ABI_SVM_FLAG_COHERENT;
	r->access = p->xnack_enabled ? all_gpus(p) : 0;
}

/* Split the range containing @addr (if it straddles it) at @addr. */
static int
split_at(struct ksim_process *p, uint64_t addr)
{
	for (unsigned int i = 0; i < p->n_svm; i++) {
		struct ksim_svm_range *r = &p->svm[i];

		if (r->start < addr && addr < r->start + r->size) {
			struct ksim_svm_range tail = *r;

			tail.start = addr;
			tail.size = r->start + r->size - addr;
			r->size = addr - r->start;
			return svm_insert(p, i + 1, &tail);
		}
	}
	return 0;
}

static void
apply_attrs(const struct ksim_process *p, struct ksim_svm_range *r,
	    const struct kfd_abi_svm_attribute *a, uint32_t n)
{
	for (uint32_t i = 0; i < n; i++) {
		uint32_t bit;

		switch (a[i].type) {
		case KFD_ABI_SVM_ATTR_PREFERRED_LOC:
			r->preferred_loc = a[i].value;
			break;
		case KFD_ABI_SVM_ATTR_PREFETCH_LOC:
			r->prefetch_loc = a[i].value;
			break;
		case KFD_ABI_SVM_ATTR_ACCESS:
		case KFD_ABI_SVM_ATTR_ACCESS_IN_PLACE:
		case KFD_ABI_SVM_ATTR_NO_ACCESS:
			bit = 1u << gpuidx(p, a[i].value);
			r->access &= ~bit;
			r->access_in_place &= ~bit;
			if (a[i].type == KFD_ABI_SVM_ATTR_ACCESS)
				r->access |= bit;
			else if (a[i].type == KFD_ABI_SVM_ATTR_ACCESS_IN_PLACE)
				r->access_in_place |= bit;
			break;
		case KFD_ABI_SVM_ATTR_SET_FLAGS:
			r->flags |= a[i].value;
			break;
		case KFD_ABI_SVM_ATTR_CLR_FLAGS:
			r->flags &= ~a[i].value;
			break;
		case KFD_ABI_SVM_ATTR_GRANULARITY:
			r->granularity = a[i].value < SVM_MAX_GRANULARITY ?
					 a[i].value : SVM_MAX_GRANULARITY;
			break;
		}
	}
}

/*
 * svm_migrate_vram_to_ram: the pages of @r go back to system memory. The
 * migration invalidates the CPU's page tables, and the MMU notifier then
 * evicts the process's queues (XNACK off) or unmaps the range from its
 * GPUs (XNACK on). The queues come back once the pages have moved.
 */
static void
migrate_to_ram(struct ksim_process *p, struct ksim_svm_range *r,
	       uint32_t trigger, int *evicted)
{
	uint64_t pg = r->start >> SVM_PAGE_SHIFT, n = r->size >> SVM_PAGE_SHIFT;
	uint32_t from = r->actual_loc;

	ksim_smi_migrate(p, 0, pg, n, from, 0, r->prefetch_loc,
			 r->preferred_loc, trigger, 0);
	if (r->mapped && !p->xnack_enabled) {
		/* Only the first evicted range stops the queues. */
		if (!*evicted)
			ksim_smi_queue_eviction(p,
				KFD_ABI_QUEUE_EVICTION_TRIGGER_SVM);
		*evicted = 1;
	} else if (r->mapped) {
		for (unsigned int i = 0; i < p->n_pdds; i++)
			if (r->mapped & (1u << i))
				ksim_smi_unmap_from_gpu(p, p->pdds[i].gpu_id,
					pg, n,
					KFD_ABI_SVM_UNMAP_TRIGGER_MMU_NOTIFY_MIGRATE);
	}
	ksim_smi_migrate(p, 1, pg, n, from, 0, r->prefetch_loc,
			 r->preferred_loc, trigger, 0);
	r->actual_loc = 0;
}

/* svm_migrate_ram_to_vram: the pages of @r move to GPU @to's VRAM. */
static void
migrate_to_vram(struct ksim_process *p, struct ksim_svm_range *r, uint32_t to,
		uint32_t trigger)
{
	uint64_t pg = r->start >> SVM_PAGE_SHIFT, n = r->size >> SVM_PAGE_SHIFT;

	ksim_smi_migrate(p, 0, pg, n, 0, to, r->prefetch_loc,
			 r->preferred_loc, trigger, 0);
	ksim_smi_migrate(p, 1, pg, n, 0, to, r->prefetch_loc,
			 r->preferred_loc, trigger, 0);
	r->actual_loc = to;
}

/*
 * svm_range_trigger_migration: a prefetch location moves the pages there,
 * unless they are there already. VRAM to another GPU's VRAM goes through
 * system memory.
 */
static void
prefetch(struct ksim_process *p, struct ksim_svm_range *r, int *evicted)
{
	uint32_t best = r->prefetch_loc;
	const uint32_t trig = KFD_ABI_MIGRATE_TRIGGER_PREFETCH;

	if (best == KFD_ABI_SVM_LOCATION_UNDEFINED || best == r->actual_loc)
		return;
	if (r->actual_loc)
		migrate_to_ram(p, r, trig, evicted);
	if (best)
		migrate_to_vram(p, r, best, trig);
}

static int
has_attr(const struct kfd_abi_svm_attribute *a, uint32_t n, uint32_t type)
{
	for (uint32_t i = 0; i < n; i++)
		if (a[i].type == type)
			return 1;
	return 0;
}

static int
set_attr(struct ksim_process *p, uint64_t start, uint64_t size,
	 const struct kfd_abi_svm_attribute *a, uint32_t n)
{
	uint64_t end = start + size, pos = start;
	int do_prefetch = has_attr(a, n, KFD_ABI_SVM_ATTR_PREFETCH_LOC);
	int evicted = 0;
	unsigned int i;
	int r;

	r = check_attrs(p, a, n);
	if (r)
		return r;
	r = range_valid(p, start, size);
	if (r)
		return r;
	if ((r = split_at(p, start)) || (r = split_at(p, end)))
		return r;
	/* Fill the holes inside [start, end) with default ranges. */
	i = 0;
	while (pos < end) {
		while (i < p->n_svm && p->svm[i].start + p->svm[i].size <= pos)
			i++;
		if (i < p->n_svm && p->svm[i].start <= pos) {
			pos = p->svm[i].start + p->svm[i].size;
			continue;
		}
		{
			uint64_t hole_end = i < p->n_svm && p->svm[i].start < end ?
					    p->svm[i].start : end;
			struct ksim_svm_range nr;

			default_range(p, &nr, pos, hole_end - pos);
			r = svm_insert(p, i, &nr);
			if (r)
				return r;
			pos = hole_end;
		}
	}
	for (i = 0; i < p->n_svm; i++) {
		struct ksim_svm_range *rg = &p->svm[i];

		if (rg->start < start || rg->start + rg->size > end)
			continue;
		apply_attrs(p, rg, a, n);
		if (do_prefetch)
			prefetch(p, rg, &evicted);
		/* svm_range_validate_and_map: the model maps the range on
		 * every GPU it may reach, whatever XNACK says. */
		rg->mapped = rg->access | rg->access_in_place;
	}
	/* The restore worker brings the queues back after the moves. */
	if (evicted)
		ksim_smi_queue_restore(p);
	return 0;
}

static int
get_attr(struct ksim_process *p, uint64_t start, uint64_t size,
	 struct kfd_abi_svm_attribute *a, uint32_t n, unsigned int minor)
{
	uint32_t location = KFD_ABI_SVM_LOCATION_UNDEFINED;
	uint32_t prefetch = KFD_ABI_SVM_LOCATION_UNDEFINED;
	uint32_t flags_and = 0xffffffffu, flags_or = 0;
	uint32_t granularity = 0xff;
	uint32_t access, aip;
	int get_pref = 0, get_prefetch = 0, get_access = 0, get_flags = 0;
	int get_gran = 0, found = 0;
	uint64_t end = start + size;
	int r;

	r = range_valid(p, start, size);
	if (r)
		return r;
	for (uint32_t i = 0; i < n; i++) {
		switch (a[i].type) {
		case KFD_ABI_SVM_ATTR_PREFERRED_LOC:
			get_pref = 1;
			break;
		case KFD_ABI_SVM_ATTR_PREFETCH_LOC:
			get_prefetch = 1;
			break;
		case KFD_ABI_SVM_ATTR_ACCESS:
			get_access = 1;
			break;
		case KFD_ABI_SVM_ATTR_CLR_FLAGS:
			if (minor < 6)
				return -EINVAL;
			/* fall through */
		case KFD_ABI_SVM_ATTR_SET_FLAGS:
			get_flags = 1;
			break;
		case KFD_ABI_SVM_ATTR_GRANULARITY:
			get_gran = 1;
			break;
		default:
			return -EINVAL;
		}
	}
	access = aip = all_gpus(p);
	for (unsigned int i = 0; i < p->n_svm; i++) {
		const struct ksim_svm_range *rg = &p->svm[i];

		if (rg->start >= end || rg->start + rg->size <= start)
			continue;
		found = 1;
		if (get_pref) {
			if (rg->preferred_loc == KFD_ABI_SVM_LOCATION_UNDEFINED ||
			    (location != KFD_ABI_SVM_LOCATION_UNDEFINED &&
			     location != rg->preferred_loc)) {
				location = KFD_ABI_SVM_LOCATION_UNDEFINED;
				get_pref = 0;
			} else {
				location = rg->preferred_loc;
			}
		}
		if (get_prefetch) {
			if (rg->prefetch_loc == KFD_ABI_SVM_LOCATION_UNDEFINED ||
			    (prefetch != KFD_ABI_SVM_LOCATION_UNDEFINED &&
			     prefetch != rg->prefetch_loc)) {
				prefetch = KFD_ABI_SVM_LOCATION_UNDEFINED;
				get_prefetch = 0;
			} else {
				prefetch = rg->prefetch_loc;
			}
		}
		if (get_access) {
			access &= rg->access;
			aip &= rg->access_in_place;
		}
		if (get_flags) {
			flags_and &= rg->flags;
			flags_or |= rg->flags;
		}
		if (get_gran && rg->granularity < granularity)
			granularity = rg->granularity;
	}
	if (!found) {
		/* Unregistered memory reads as the defaults. */
		granularity = SVM_DEFAULT_GRANULARITY;
		flags_and = flags_or = KFD_ABI_SVM_FLAG_HOST_ACCESS |
				       KFD_ABI_SVM_FLAG_COHERENT;
		access = p->xnack_enabled ? all_gpus(p) : 0;
		aip = 0;
	}
	for (uint32_t i = 0; i < n; i++) {
		int idx;

		switch (a[i].type) {
		case KFD_ABI_SVM_ATTR_PREFERRED_LOC:
			a[i].value = location;
			break;
		case KFD_ABI_SVM_ATTR_PREFETCH_LOC:
			a[i].value = prefetch;
			break;
		case KFD_ABI_SVM_ATTR_ACCESS:
			idx = gpuidx(p, a[i].value);
			if (idx < 0)
				return -EINVAL;
			if (access & (1u << idx))
				a[i].type = KFD_ABI_SVM_ATTR_ACCESS;
			else if (aip & (1u << idx))
				a[i].type = KFD_ABI_SVM_ATTR_ACCESS_IN_PLACE;
			else
				a[i].type = KFD_ABI_SVM_ATTR_NO_ACCESS;
			break;
		case KFD_ABI_SVM_ATTR_SET_FLAGS:
			a[i].value = flags_and;
			break;
		case KFD_ABI_SVM_ATTR_CLR_FLAGS:
			a[i].value = ~flags_or;
			break;
		case KFD_ABI_SVM_ATTR_GRANULARITY:
			a[i].value = granularity;
			break;
		}
	}
	return 0;
}

int
ksim_ioc_svm(struct ksim_file *f, struct ksim_process *p, void *data,
	     unsigned int usize)
{
	struct kfd_abi_svm_args *args = data;
	unsigned int room;

	if (f->dev->flags & KSIM_OPT_NO_SVM)
		return -EPERM;
	if ((args->start_addr | args->size) & (KSIM_PAGE_SIZE - 1))
		return -EINVAL;
	if (!args->start_addr || !args->size ||
	    args->start_addr + args->size < args->start_addr)
		return -EINVAL;
	/*
	 * The kernel trusts nattr and reads past its copy when the caller
	 * passed fewer attributes than it claims; the model refuses.
	 */
	room = usize > sizeof(*args) ?
	       (usize - (unsigned int)sizeof(*args)) / sizeof(args->attrs[0]) : 0;
	if (args->nattr > room)
		return -EINVAL;
	switch (args->op) {
	case KFD_ABI_SVM_OP_SET_ATTR:
		return set_attr(p, args->start_addr, args->size, args->attrs,
				args->nattr);
	case KFD_ABI_SVM_OP_GET_ATTR:
		return get_attr(p, args->start_addr, args->size, args->attrs,
				args->nattr, f->dev->abi_minor);
	default:
		/* svm_ioctl returns a positive EINVAL here */
		return EINVAL;
	}
}

/* The CPU unmapped [start, start+len): the MMU notifier drops SVM ranges. */
void
ksim_svm_unmap(struct ksim_process *p, uint64_t start, uint64_t len)
{
	uint64_t end = start + len;
	unsigned int i = 0;

	if (split_at(p, start) || split_at(p, end))
		return;
	while (i < p->n_svm) {
		struct ksim_svm_range *r = &p->svm[i];

		if (r->start >= start && r->start + r->size <= end) {
			/* svm_range_unmap_from_cpu: each GPU the range was
			 * mapped on reports its unmap. */
			for (unsigned int g = 0; g < p->n_pdds; g++)
				if (r->mapped & (1u << g))
					ksim_smi_unmap_from_gpu(p,
						p->pdds[g].gpu_id,
						r->start >> SVM_PAGE_SHIFT,
						r->size >> SVM_PAGE_SHIFT,
						KFD_ABI_SVM_UNMAP_TRIGGER_UNMAP_FROM_CPU);
			memmove(r, r + 1, (p->n_svm - i - 1) * sizeof(*r));
			p->n_svm--;
		} else {
			i++;
		}
	}
}

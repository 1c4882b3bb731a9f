/* SPDX-License-Identifier: MIT */
/*
 * Apertures and the memory objects in them: VA reservation (a VA
 * allocator, or the CPU's own mmap for the mmap-backed SVM aperture) and
 * two indexes per aperture, both red-black trees: objects by GPU address
 * (they never overlap inside one aperture) and registered user memory by
 * CPU address, augmented with the largest end in each subtree because
 * registrations may overlap.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "memory/fmm.h"

/* GPUs use 2 MiB pages where VA and size allow; align big buffers so. */
#define KMT_GPU_HUGE_PAGE	(2ULL << 20)

#define to_obj(n)	kmt_rb_entry(n, struct kmt_obj, node)
#define to_uobj(n)	kmt_rb_entry(n, struct kmt_obj, unode)

static void
uobj_update(struct kmt_rb_node *n)
{
	struct kmt_obj *o = to_uobj(n);
	uint64_t m = o->userptr + o->userptr_size;

	if (n->left && to_uobj(n->left)->umax_end > m)
		m = to_uobj(n->left)->umax_end;
	if (n->right && to_uobj(n->right)->umax_end > m)
		m = to_uobj(n->right)->umax_end;
	o->umax_end = m;
}

int
kmt_ape_setup(struct kmt_aperture *ape, uint64_t base, uint64_t limit, uint64_t align,
	      uint32_t guard_pages, bool mmap_backed, bool cpu_reserved)
{
	memset(ape, 0, sizeof(*ape));
	ape->base = base;
	ape->limit = limit;
	ape->align = align ? align : kmt_page_size();
	ape->guard_pages = guard_pages;
	ape->mmap_backed = mmap_backed;
	ape->cpu_reserved = cpu_reserved;
	ape->uobjs.update = uobj_update;
	if (mmap_backed)
		return 0;
	return kmt_va_init(&ape->va, base, limit);
}

void
kmt_ape_teardown(struct kmt_aperture *ape)
{
	struct kmt_rb_node *n;

	while ((n = ape->objs.root))
		kmt_obj_del(to_obj(n));
	if (!ape->mmap_backed)
		kmt_va_fini(&ape->va);
	memset(ape, 0, sizeof(*ape));
}

/* Alignment for a buffer: grow to the largest power of two <= size, capped. */
static uint64_t
grow_align(uint64_t align, uint64_t size, uint64_t cap)
{
	while (align < cap && size >= (align << 1))
		align <<= 1;
	return align;
}

static int
mmap_va(struct kmt_fmm *fmm, struct kmt_aperture *ape, uint64_t fixed, uint64_t size,
	uint64_t align, uint64_t *va)
{
	uint64_t page = kmt_page_size();
	uint64_t guard = (uint64_t)ape->guard_pages * page;
	uint64_t padded, start, end, map_end;
	void *p;

	if (fixed) {
		p = mmap((void *)fixed, size, PROT_NONE,
			 MAP_ANONYMOUS | MAP_NORESERVE | MAP_PRIVATE | MAP_FIXED_NOREPLACE, -1, 0);
		if (p == MAP_FAILED)
			return errno == EEXIST ? -EBUSY : -ENOMEM;
		if ((uint64_t)p != fixed) {
			munmap(p, size);
			return -EBUSY;
		}
		*va = fixed;
		return 0;
	}
	align = grow_align(align, size, page << fmm->align_order);
	/* Room to align the start and keep guard pages on both sides. */
	padded = size + align + 2 * guard - page;
	p = mmap(NULL, padded, PROT_NONE, MAP_ANONYMOUS | MAP_NORESERVE | MAP_PRIVATE, -1, 0);
	if (p == MAP_FAILED)
		return -ENOMEM;
	start = ((uint64_t)p + guard + align - 1) & ~(align - 1);
	end = start + size;
	map_end = (uint64_t)p + padded;
	if (start < ape->base || end - 1 > ape->limit) {
		kmt_err("mmap gave %#lx, outside the SVM aperture\n", (unsigned long)start);
		munmap(p, padded);
		return -ENOMEM;
	}
	if (start > (uint64_t)p)
		munmap(p, start - (uint64_t)p);
	if (map_end > end)
		munmap((void *)end, map_end - end);
	*va = start;
	return 0;
}

int
kmt_ape_alloc_va(struct kmt_fmm *fmm, struct kmt_aperture *ape, uint64_t fixed, uint64_t size,
		 uint64_t align, uint64_t *va)
{
	uint64_t page = kmt_page_size();
	uint64_t guard = (uint64_t)ape->guard_pages * page;
	uint64_t phase = 0;
	bool any_align = align <= page;

	if (!kmt_ape_valid(ape) || !size)
		return -EINVAL;
	if (align < ape->align)
		align = ape->align;
	if (ape->mmap_backed)
		return mmap_va(fmm, ape, fixed, size, align, va);

	if (fixed) {
		if (fixed & (page - 1))
			return -EINVAL;
		*va = fixed;
		return kmt_va_reserve(&ape->va, fixed, size + guard) ? -EBUSY : 0;
	}
	align = grow_align(align, size, KMT_GPU_HUGE_PAGE);
	/*
	 * Without an explicit alignment, align the end of the buffer rather
	 * than its start: the GPU gets the same large-fragment benefit and
	 * small buffers pack tighter.
	 */
	if (any_align)
		phase = (0 - size) & (align - 1);
	return kmt_va_alloc(&ape->va, size + guard, align, phase, va);
}

void
kmt_ape_release_va(struct kmt_fmm *fmm, struct kmt_aperture *ape, uint64_t va, uint64_t size)
{
	uint64_t guard = (uint64_t)ape->guard_pages * kmt_page_size();

	(void)fmm;
	if (ape->mmap_backed) {
		munmap((void *)va, size);
		return;
	}
	if (ape->cpu_reserved) {
		/* Drop whatever the CPU had there but keep the range ours. */
		void *p = mmap((void *)va, size, PROT_NONE,
			       MAP_ANONYMOUS | MAP_NORESERVE | MAP_PRIVATE | MAP_FIXED, -1, 0);

		if (p == MAP_FAILED && errno == ENOMEM) {
			/* Out of map count: unmapping merges areas first. */
			munmap((void *)va, size);
			mmap((void *)va, size, PROT_NONE,
			     MAP_ANONYMOUS | MAP_NORESERVE | MAP_PRIVATE | MAP_FIXED, -1, 0);
		}
	}
	if (kmt_va_release(&ape->va, va, size + guard))
		kmt_warn("VA %#lx+%#lx released twice\n", (unsigned long)va, (unsigned long)size);
}

_Static_assert(offsetof(struct kmt_obj, userptr_size) + 8 <= 64,
	       "a user-tree descent reads one cache line");
_Static_assert(offsetof(struct kmt_obj, node) == 64 && offsetof(struct kmt_obj, size) + 8 <= 128,
	       "a VA-tree descent reads one cache line");

struct kmt_obj *
kmt_obj_new(struct kmt_aperture *ape, enum kmt_obj_kind kind, uint64_t va, uint64_t size)
{
	struct kmt_rb_node *parent = NULL, *cur = ape->objs.root;
	/* Cache-line aligned: see struct kmt_obj. */
	size_t bytes = (sizeof(struct kmt_obj) + 63) & ~(size_t)63;
	struct kmt_obj *obj = aligned_alloc(64, bytes);
	bool left = false;

	if (!obj)
		return NULL;
	memset(obj, 0, sizeof(*obj));
	obj->ape = ape;
	obj->kind = kind;
	obj->va = va;
	obj->size = size;
	while (cur) {
		parent = cur;
		left = va < to_obj(cur)->va;
		cur = left ? cur->left : cur->right;
	}
	kmt_rb_insert(&ape->objs, &obj->node, parent, left);
	return obj;
}

void
kmt_obj_userptr_link(struct kmt_obj *obj, uint64_t userptr, uint64_t size)
{
	struct kmt_aperture *ape = obj->ape;
	struct kmt_rb_node *parent = NULL, *cur = ape->uobjs.root;
	bool left = false;

	obj->userptr = userptr;
	obj->userptr_size = size;
	obj->umax_end = userptr + size;
	while (cur) {
		parent = cur;
		left = userptr < to_uobj(cur)->userptr;
		cur = left ? cur->left : cur->right;
	}
	kmt_rb_insert(&ape->uobjs, &obj->unode, parent, left);
}

void
kmt_obj_clear_nodes(struct kmt_obj *obj)
{
	free(obj->reg_nodes);
	free(obj->map_nodes);
	obj->reg_nodes = obj->map_nodes = NULL;
}

void
kmt_obj_del(struct kmt_obj *obj)
{
	kmt_rb_erase(&obj->ape->objs, &obj->node);
	if (obj->kind == KMT_OBJ_USERPTR && obj->userptr_size)
		kmt_rb_erase(&obj->ape->uobjs, &obj->unode);
	kmt_obj_clear_nodes(obj);
	free(obj->reg_ids);
	free(obj->map_ids);
	free(obj->metadata);
	free(obj);
}

struct kmt_obj *
kmt_obj_at(struct kmt_aperture *ape, uint64_t va)
{
	struct kmt_rb_node *cur = ape->objs.root;

	while (cur) {
		if (va == to_obj(cur)->va)
			return to_obj(cur);
		cur = va < to_obj(cur)->va ? cur->left : cur->right;
	}
	return NULL;
}

struct kmt_obj *
kmt_obj_containing(struct kmt_aperture *ape, uint64_t addr)
{
	struct kmt_rb_node *cur = ape->objs.root;
	struct kmt_obj *best = NULL;

	while (cur) {
		if (to_obj(cur)->va <= addr) {
			best = to_obj(cur);
			cur = cur->right;
		} else {
			cur = cur->left;
		}
	}
	if (best && addr - best->va < best->size)
		return best;
	return NULL;
}

struct kmt_obj *
kmt_obj_user_exact(struct kmt_aperture *ape, uint64_t userptr, uint64_t size)
{
	struct kmt_rb_node *cur = ape->uobjs.root, *n;
	struct kmt_obj *hit = NULL;

	/* Find the leftmost node with this start, then scan equal starts. */
	while (cur) {
		if (userptr <= to_uobj(cur)->userptr) {
			if (userptr == to_uobj(cur)->userptr)
				hit = to_uobj(cur);
			cur = cur->left;
		} else {
			cur = cur->right;
		}
	}
	if (!hit || !size) {
		/* Without a size the start must be unambiguous. */
		if (hit && !size) {
			n = kmt_rb_next(&hit->unode);
			if (n && to_uobj(n)->userptr == userptr)
				return NULL;
		}
		return hit;
	}
	for (n = &hit->unode; n && to_uobj(n)->userptr == userptr; n = kmt_rb_next(n))
		if (to_uobj(n)->userptr_size == size)
			return to_uobj(n);
	return NULL;
}

/*
 * The registration containing @addr with the highest start (the most
 * specific one when they nest). Subtrees whose largest end is <= @addr
 * cannot contain it and are skipped.
 */
static struct kmt_obj *
user_stab(struct kmt_rb_node *n, uint64_t addr)
{
	struct kmt_obj *hit;

	if (!n || to_uobj(n)->umax_end <= addr)
		return NULL;
	if (to_uobj(n)->userptr <= addr) {
		hit = user_stab(n->right, addr);
		if (hit)
			return hit;
		if (addr < to_uobj(n)->userptr + to_uobj(n)->userptr_size)
			return to_uobj(n);
	}
	return user_stab(n->left, addr);
}

struct kmt_obj *
kmt_obj_user_containing(struct kmt_aperture *ape, uint64_t addr)
{
	return user_stab(ape->uobjs.root, addr);
}

/* Exact-start lookup in an aperture that may also hold user memory. */
static struct kmt_obj *
find_start(struct kmt_aperture *ape, uint64_t addr, uint64_t size, bool user_only,
	   bool try_user)
{
	uint64_t page_off = addr & (kmt_page_size() - 1);
	struct kmt_obj *obj = NULL;

	/*
	 * An object of ours starting exactly here settles it without the
	 * user-range search: no registration can start where one of our
	 * objects starts (registering there finds and reuses the object, and
	 * our VA never lands on memory a registration already covers). This
	 * saves a tree descent in every map, unmap and free of allocations.
	 */
	if (!user_only && !page_off) {
		obj = kmt_obj_at(ape, addr);
		if (obj && obj->kind != KMT_OBJ_USERPTR)
			return obj;
		obj = NULL;
	}
	if (try_user)
		obj = kmt_obj_user_exact(ape, addr, size);
	if (obj || user_only)
		return obj;
	obj = kmt_obj_at(ape, addr - page_off);
	/* A user object found by its GPU address must match offset and size. */
	if (obj && obj->kind == KMT_OBJ_USERPTR &&
	    ((obj->userptr & (kmt_page_size() - 1)) != page_off ||
	     (size && size != obj->userptr_size)))
		return NULL;
	if (obj && obj->kind != KMT_OBJ_USERPTR && page_off)
		return NULL;
	return obj;
}

static struct kmt_obj *
find_inside(struct kmt_aperture *ape, uint64_t addr, bool user_only, bool try_user)
{
	struct kmt_obj *obj = NULL;

	/* User ranges first: they settle overlapping GPU views. */
	if (try_user)
		obj = kmt_obj_user_containing(ape, addr);
	if (obj || user_only)
		return obj;
	return kmt_obj_containing(ape, addr);
}

struct kmt_obj *
kmt_fmm_find(struct kmt_fmm *fmm, uint64_t addr, uint64_t size, enum kmt_find how)
{
	struct kmt_aperture *ape = NULL;
	bool user_only = false;
	struct kmt_obj *obj = NULL;
	uint32_t i;

	for (i = 0; i < fmm->n_gpus && !ape; i++) {
		if (kmt_ape_contains(&fmm->gpus[i].gpuvm, addr))
			ape = &fmm->gpus[i].gpuvm;
		else if (kmt_ape_contains(&fmm->gpus[i].scratch, addr))
			ape = &fmm->gpus[i].scratch;
	}
	if (!ape && kmt_ape_contains(&fmm->mem_handle, addr))
		ape = &fmm->mem_handle;
	if (!ape && fmm->dgpu) {
		if (kmt_ape_contains(fmm->dgpu, addr))
			ape = fmm->dgpu;
		else if (kmt_ape_contains(fmm->dgpu_alt, addr))
			ape = fmm->dgpu_alt;
		else {
			/* Outside SVM: only registered user memory. */
			ape = fmm->dgpu;
			user_only = true;
		}
	}
	if (ape && kmt_ape_valid(ape)) {
		bool try_user = user_only || ape->mmap_backed || ape == fmm->dgpu;

		if (how == KMT_FIND_START)
			obj = find_start(ape, addr, size, user_only, try_user);
		else
			obj = find_inside(ape, addr, user_only, try_user);
	}
	if (!obj && kmt_ape_valid(&fmm->cpuvm))
		obj = how == KMT_FIND_START ? kmt_obj_at(&fmm->cpuvm, addr)
					    : kmt_obj_containing(&fmm->cpuvm, addr);
	return obj;
}

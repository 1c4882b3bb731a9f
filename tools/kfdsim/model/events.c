/* SPDX-License-Identifier: MIT */
/*
 * Events (kfd_events.c): signal events own slots of the events page (ids
 * from 1; 0 is reserved), other events take ids from 0x40000000. Waiting
 * sleeps on the process's condition variable with the device lock dropped.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "ksim_priv.h"

#define EVENT_TIMEOUT_INFINITE	0xffffffffu
#define OLD_ABI_SIGNAL_SLOTS	256

/* Every signal id below signal_limit() has its 8-byte slot in signal_slots. */
_Static_assert(KFD_ABI_EVENTS_PAGE_SIZE >= (uint64_t)KFD_ABI_SIGNAL_EVENT_LIMIT * 8,
	       "the events page holds a slot for every signal event id");

int
ksim_events_init(struct ksim_process *p)
{
	p->sig_events = calloc(KFD_ABI_SIGNAL_EVENT_LIMIT, sizeof(*p->sig_events));
	if (!p->sig_events)
		return -ENOMEM;
	/* kfd_event_init_process reserves id 0. */
	p->signal_event_count = 1;
	return 0;
}

static void
event_free(struct ksim_event *ev)
{
	if (!ev->nwaiters)
		free(ev);
	else
		ev->dead = 1;	/* the last waiter frees it */
}

void
ksim_events_fini(struct ksim_process *p)
{
	if (p->sig_events) {
		for (unsigned int i = 0; i < KFD_ABI_SIGNAL_EVENT_LIMIT; i++)
			if (p->sig_events[i])
				event_free(p->sig_events[i]);
		free(p->sig_events);
		p->sig_events = NULL;
	}
	for (unsigned int i = 0; i < p->n_nsev; i++)
		event_free(p->nsev[i].ev);
	free(p->nsev);
	p->nsev = NULL;
	p->n_nsev = p->cap_nsev = 0;
	if (p->signal_slots)
		syscall(SYS_munmap, p->signal_slots, KFD_ABI_EVENTS_PAGE_SIZE);
	p->signal_slots = NULL;
	ksim_sys_close(p->signal_fd);
	p->signal_fd = -1;
}

static unsigned int
nsev_lower(const struct ksim_process *p, uint32_t id)
{
	unsigned int lo = 0, hi = p->n_nsev;

	while (lo < hi) {
		unsigned int mid = (lo + hi) / 2;

		if (p->nsev[mid].id < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static struct ksim_event *
event_lookup(struct ksim_process *p, uint32_t id)
{
	unsigned int i;

	if (id < KFD_ABI_SIGNAL_EVENT_LIMIT)
		return p->sig_events[id];
	i = nsev_lower(p, id);
	return i < p->n_nsev && p->nsev[i].id == id ? p->nsev[i].ev : NULL;
}

/* The memfd (or BO) behind the events page; -1 if none. */
static int
signal_page_fd(const struct ksim_process *p)
{
	if (p->signal_bo)
		return p->signal_bo->memfd;
	return p->signal_fd;
}

/* kfd_kmap_event_page: a user GTT BO becomes the events page (dGPU). */
static int
kmap_event_page(struct ksim_process *p, uint64_t handle)
{
	struct ksim_pdd *pdd;
	struct ksim_kmem *m;
	uint64_t n;
	int r;

	if (p->signal_bo || p->signal_fd >= 0)
		return -EINVAL;
	pdd = ksim_pdd_by_id(p, KFD_ABI_HANDLE_GPU_ID(handle));
	if (!pdd)
		return -EINVAL;
	r = ksim_pdd_bind(pdd);
	if (r)
		return r;
	m = ksim_kmem_lookup(pdd, KFD_ABI_HANDLE_IDR(handle));
	if (!m)
		return -EINVAL;
	/* map_gtt_bo_to_kernel: no userptr (or doorbell/MMIO) pages */
	if (m->bo->domain == KSIM_DOM_DOORBELL || m->bo->domain == KSIM_DOM_MMIO ||
	    ksim_bo_backing(m->bo) < 0)
		return -EINVAL;
	n = m->bo->size < KFD_ABI_EVENTS_PAGE_SIZE ? m->bo->size :
	    KFD_ABI_EVENTS_PAGE_SIZE;
	r = ksim_sys_fill(m->bo->memfd, 0, n, 0xff);
	if (r)
		return -ENOMEM;
	ksim_bo_get(m->bo);
	p->signal_bo = m->bo;
	p->signal_handle = handle;
	p->signal_mapped_size = m->bo->size;
	return 0;
}

/* allocate_signal_page: the APU-style kernel page, all slots unsignaled. */
static int
alloc_signal_page(struct ksim_process *p)
{
	int fd = ksim_sys_memfd("kfdsim-events", 1);

	if (fd < 0)
		return -ENOMEM;
	fd = ksim_internal_fd(fd);
	if (ksim_sys_ftruncate(fd, KFD_ABI_EVENTS_PAGE_SIZE) ||
	    ksim_sys_fill(fd, 0, KFD_ABI_EVENTS_PAGE_SIZE, 0xff)) {
		ksim_sys_close(fd);
		return -ENOMEM;
	}
	p->signal_fd = fd;
	/*
	 * Our own view of the page: a new event resets its slot with a store
	 * instead of a pwrite (a system call per CREATE_EVENT). A raw mmap,
	 * so that the shim does not take it for the application's.
	 */
	{
		long m = syscall(SYS_mmap, NULL, KFD_ABI_EVENTS_PAGE_SIZE,
				 PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);

		p->signal_slots = m == -1 ? NULL : (uint64_t *)m;
	}
	/* Oldest user mode expects 256 event slots until it maps more. */
	p->signal_mapped_size = OLD_ABI_SIGNAL_SLOTS * 8;
	return 0;
}

static uint64_t
signal_limit(const struct ksim_process *p)
{
	uint64_t n = p->signal_mapped_size / 8;

	return n > KFD_ABI_SIGNAL_EVENT_LIMIT ? KFD_ABI_SIGNAL_EVENT_LIMIT : n;
}

static int
create_signal_event(struct ksim_process *p, struct ksim_event *ev)
{
	static const uint64_t unsignaled = KFD_ABI_UNSIGNALED_EVENT_SLOT;
	uint64_t limit;
	int r;

	if (p->signal_mapped_size &&
	    p->signal_event_count == p->signal_mapped_size / 8)
		return -ENOSPC;
	if (signal_page_fd(p) < 0) {
		r = alloc_signal_page(p);
		if (r)
			return r;
	}
	limit = signal_limit(p);
	for (uint32_t id = 1; id < limit; id++) {
		if (p->sig_events[id])
			continue;
		ev->id = id;
		p->sig_events[id] = ev;
		p->signal_event_count++;
		if (p->signal_slots && !p->signal_bo)
			__atomic_store_n(&p->signal_slots[id], unsignaled,
					 __ATOMIC_RELAXED);
		else
			ksim_sys_pwrite(signal_page_fd(p), &unsignaled, 8,
					(uint64_t)id * 8);
		return 0;
	}
	return -ENOSPC;
}

static int
create_other_event(struct ksim_process *p, struct ksim_event *ev)
{
	uint32_t id = KFD_ABI_FIRST_NONSIGNAL_EVENT_ID;
	unsigned int i;

	/* lowest free id at or above the first non-signal id */
	for (i = 0; i < p->n_nsev; i++) {
		if (p->nsev[i].id != id)
			break;
		if (id == INT32_MAX)
			return -ENOSPC;
		id++;
	}
	if (p->n_nsev == p->cap_nsev) {
		unsigned int cap = p->cap_nsev ? p->cap_nsev * 2 : 16;
		struct ksim_nsevent *n = realloc(p->nsev, cap * sizeof(*n));

		if (!n)
			return -ENOMEM;
		p->nsev = n;
		p->cap_nsev = cap;
	}
	memmove(&p->nsev[i + 1], &p->nsev[i], (p->n_nsev - i) * sizeof(*p->nsev));
	p->nsev[i].id = id;
	p->nsev[i].ev = ev;
	p->n_nsev++;
	ev->id = id;
	return 0;
}

int
ksim_ioc_create_event(struct ksim_file *f, struct ksim_process *p, void *data,
		      unsigned int usize)
{
	struct kfd_abi_create_event_args *args = data;
	struct ksim_event *ev;
	int r;

	if (args->event_page_offset) {
		r = kmap_event_page(p, args->event_page_offset);
		if (r)
			return r;
	}
	ev = calloc(1, sizeof(*ev));
	if (!ev)
		return -ENOMEM;
	ev->type = args->event_type;
	ev->auto_reset = args->auto_reset != 0;
	ev->node_id = args->node_id;
	ev->age = 1;
	if (ev->type == KFD_ABI_EVENT_SIGNAL ||
	    ev->type == KFD_ABI_EVENT_DEBUG_EVENT) {
		r = create_signal_event(p, ev);
		if (!r) {
			args->event_page_offset = KFD_ABI_MMAP_TYPE_EVENTS;
			args->event_slot_index = ev->id;
		}
	} else {
		r = create_other_event(p, ev);
		if (!r)
			args->event_page_offset = 0;
	}
	if (r) {
		free(ev);
		return r;
	}
	args->event_id = ev->id;
	args->event_trigger_data = ev->id;
	return 0;
}

static void
set_event(struct ksim_process *p, struct ksim_event *ev)
{
	/* An auto-reset event is consumed by the waiter it wakes. */
	ev->signaled = !ev->auto_reset || !ev->waiters;
	if (++ev->age == 0)
		ev->age = 2;	/* 0 and 1 are reserved ages */
	for (struct ksim_waiter *w = ev->waiters; w; w = w->next)
		w->activated = 1;
	pthread_cond_broadcast(&p->event_cond);
}

int
ksim_ioc_destroy_event(struct ksim_file *f, struct ksim_process *p,
		       void *data, unsigned int usize)
{
	struct kfd_abi_destroy_event_args *args = data;
	struct ksim_event *ev = event_lookup(p, args->event_id);

	if (!ev)
		return -EINVAL;
	for (struct ksim_waiter *w = ev->waiters; w; w = w->next)
		w->event = NULL;
	pthread_cond_broadcast(&p->event_cond);
	if (ev->id < KFD_ABI_SIGNAL_EVENT_LIMIT) {
		p->sig_events[ev->id] = NULL;
		p->signal_event_count--;
	} else {
		unsigned int i = nsev_lower(p, ev->id);

		memmove(&p->nsev[i], &p->nsev[i + 1],
			(p->n_nsev - i - 1) * sizeof(*p->nsev));
		p->n_nsev--;
	}
	event_free(ev);
	return 0;
}

int
ksim_ioc_set_event(struct ksim_file *f, struct ksim_process *p, void *data,
		   unsigned int usize)
{
	struct kfd_abi_set_event_args *args = data;
	struct ksim_event *ev = event_lookup(p, args->event_id);

	if (!ev || ev->type != KFD_ABI_EVENT_SIGNAL)
		return -EINVAL;
	set_event(p, ev);
	return 0;
}

int
ksim_event_interrupt(struct ksim_process *p, uint32_t id)
{
	struct ksim_event *ev = event_lookup(p, id);
	uint64_t slot, unsig = KFD_ABI_UNSIGNALED_EVENT_SLOT;
	int fd = signal_page_fd(p);

	if (!ev || ev->type != KFD_ABI_EVENT_SIGNAL || fd < 0 ||
	    (uint64_t)id * 8 + 8 > KFD_ABI_EVENTS_PAGE_SIZE)
		return -ENOENT;
	if (ksim_sys_pread(fd, &slot, 8, (uint64_t)id * 8) ||
	    slot == KFD_ABI_UNSIGNALED_EVENT_SLOT)
		return -ENOENT;
	/* acknowledge_signal, then set_event */
	ksim_sys_pwrite(fd, &unsig, 8, (uint64_t)id * 8);
	set_event(p, ev);
	return 0;
}

int
ksim_event_hw_exception(struct ksim_process *p)
{
	int n = 0;

	/* Non-signal events, HW_EXCEPTION among them, live in nsev[]. */
	for (unsigned int i = 0; i < p->n_nsev; i++)
		if (p->nsev[i].ev->type == KFD_ABI_EVENT_HW_EXCEPTION) {
			set_event(p, p->nsev[i].ev);
			n++;
		}
	return n;
}

int
ksim_event_eop_interrupt(struct ksim_process *p, uint32_t ctxid)
{
	uint32_t limit = signal_limit(p);
	int n = 0;

	if (!ksim_event_interrupt(p, ctxid))
		return 1;
	/*
	 * The context id named no signaled event: the kernel then searches
	 * every slot, so an interrupt whose id the program left out still
	 * wakes what it signaled in memory.
	 */
	for (uint32_t id = 1; id < limit; id++)
		if (p->sig_events[id] && !ksim_event_interrupt(p, id))
			n++;
	return n;
}

int
ksim_event_vm_fault(struct ksim_process *p, int gpu, uint64_t va,
		    unsigned int why)
{
	struct kfd_abi_hsa_memory_exception_data d;
	struct ksim_file *drm = p->pdds[gpu].drm_file;
	int n = 0;

	/*
	 * amdgpu_vm_update_fault_cache: the VM keeps the page address and the
	 * gfxhub's status register (gmc_v9+ read it at the interrupt). Its
	 * PERMISSION_FAULTS nibble holds the failed checks (valid, read,
	 * write, execute); RW says a write.
	 */
	if (drm) {
		uint32_t perm = 0;

		if (why & KSIM_VM_FAULT_NOT_PRESENT)
			perm |= 1u << 0;
		if (why & KSIM_VM_FAULT_READ_ONLY)
			perm |= 1u << 2;
		if (why & KSIM_VM_FAULT_NO_EXECUTE)
			perm |= 1u << 3;
		__atomic_store_n(&drm->vm.fault_addr, va & ~(uint64_t)(KSIM_PAGE_SIZE - 1),
				 __ATOMIC_RELAXED);
		__atomic_store_n(&drm->vm.fault_status,
				 perm << KSIM_L2_FAULT_PERMISSION_SHIFT |
				 ((why & KSIM_VM_FAULT_READ_ONLY) ? KSIM_L2_FAULT_RW : 0),
				 __ATOMIC_RELAXED);
		__atomic_store_n(&drm->vm.fault_vmhub, KFD_DRM_AMDGPU_VMHUB_TYPE_GFX,
				 __ATOMIC_RELEASE);
	}
	memset(&d, 0, sizeof(d));
	d.gpu_id = p->pdds[gpu].gpu_id;
	/* The interrupt carries the page number: the offset is lost. */
	d.va = va & ~(uint64_t)(KSIM_PAGE_SIZE - 1);
	d.failure.NotPresent = !!(why & KSIM_VM_FAULT_NOT_PRESENT);
	d.failure.ReadOnly = !!(why & KSIM_VM_FAULT_READ_ONLY);
	d.failure.NoExecute = !!(why & KSIM_VM_FAULT_NO_EXECUTE);
	/* A debugger that takes the exception handles the fault instead. */
	if (ksim_dbg_vm_fault(p, gpu, &d))
		return 0;
	__atomic_store_n(&p->pdds[gpu].fault_evicted, 1, __ATOMIC_RELAXED);
	for (unsigned int i = 0; i < p->n_nsev; i++)
		if (p->nsev[i].ev->type == KFD_ABI_EVENT_MEMORY) {
			p->nsev[i].ev->mem_exc = d;
			set_event(p, p->nsev[i].ev);
			n++;
		}
	return n;
}

int
ksim_ioc_reset_event(struct ksim_file *f, struct ksim_process *p, void *data,
		     unsigned int usize)
{
	struct kfd_abi_reset_event_args *args = data;
	struct ksim_event *ev = event_lookup(p, args->event_id);

	if (!ev || ev->type != KFD_ABI_EVENT_SIGNAL)
		return -EINVAL;
	ev->signaled = 0;
	return 0;
}

struct wait_slot {
	struct ksim_waiter w;
	struct ksim_event *held;	/* kept even if the event is destroyed */
	int linked;
};

static void
waiter_unlink(struct wait_slot *s)
{
	struct ksim_event *ev = s->w.event;

	if (!s->linked)
		return;
	s->linked = 0;
	if (!ev)
		return;	/* destroyed: its waiter list is gone with it */
	for (struct ksim_waiter **pp = &ev->waiters; *pp; pp = &(*pp)->next) {
		if (*pp == &s->w) {
			*pp = s->w.next;
			break;
		}
	}
}

static uint32_t
test_condition(const struct wait_slot *s, uint32_t n, int all)
{
	uint32_t activated = 0;

	for (uint32_t i = 0; i < n; i++) {
		if (!s[i].w.event)
			return KFD_ABI_WAIT_RESULT_FAIL;
		if (s[i].w.activated) {
			if (!all)
				return KFD_ABI_WAIT_RESULT_COMPLETE;
			activated++;
		}
	}
	return activated == n ? KFD_ABI_WAIT_RESULT_COMPLETE :
	       KFD_ABI_WAIT_RESULT_TIMEOUT;
}

static int
copy_signaled(const struct wait_slot *s, uint32_t n, uint64_t uptr)
{
	for (uint32_t i = 0; i < n; i++) {
		const struct ksim_event *ev = s[i].w.event;
		uint64_t dst = uptr + (uint64_t)i * sizeof(struct kfd_abi_event_data);

		if (!s[i].w.activated || !ev)
			continue;
		if (ev->type == KFD_ABI_EVENT_MEMORY) {
			if (ksim_copy_to_user(dst, &ev->mem_exc, sizeof(ev->mem_exc)))
				return -EFAULT;
		} else if (ev->type == KFD_ABI_EVENT_SIGNAL && s[i].w.age_enabled) {
			if (ksim_copy_to_user(dst, &ev->age, sizeof(ev->age)))
				return -EFAULT;
		}
	}
	return 0;
}

int
ksim_ioc_wait_events(struct ksim_file *f, struct ksim_process *p, void *data,
		     unsigned int usize)
{
	struct kfd_abi_wait_events_args *args = data;
	struct ksim_device *dev = f->dev;
	uint32_t n = args->num_events;
	uint32_t result = KFD_ABI_WAIT_RESULT_FAIL;
	struct wait_slot *s = NULL;
	struct timespec deadline;
	int r = 0;

	if ((uint64_t)n * sizeof(*s) > KSIM_KMALLOC_MAX) {
		r = -ENOMEM;
		goto out;
	}
	s = calloc(n ? n : 1, sizeof(*s));
	if (!s) {
		r = -ENOMEM;
		goto out;
	}
	for (uint32_t i = 0; i < n; i++) {
		struct kfd_abi_event_data ed;
		struct ksim_event *ev;

		if (ksim_copy_from_user(&ed, args->events_ptr + (uint64_t)i * sizeof(ed),
					sizeof(ed))) {
			r = -EFAULT;
			goto out;
		}
		ev = event_lookup(p, ed.event_id);
		if (!ev) {
			r = -EINVAL;
			goto out;
		}
		s[i].w.event = ev;
		s[i].held = ev;
		s[i].w.activated = ev->signaled;
		ev->signaled = ev->signaled && !ev->auto_reset;
		if (dev->abi_minor >= 14 && ev->type == KFD_ABI_EVENT_SIGNAL &&
		    ed.signal_event_data.last_event_age) {
			s[i].w.age_enabled = 1;
			if (ev->age != ed.signal_event_data.last_event_age)
				s[i].w.activated = 1;
		}
		if (!s[i].w.activated) {
			s[i].w.next = ev->waiters;
			ev->waiters = &s[i].w;
			s[i].linked = 1;
		}
		ev->nwaiters++;
	}
	result = test_condition(s, n, args->wait_for_all);
	if (result == KFD_ABI_WAIT_RESULT_TIMEOUT && args->timeout) {
		int infinite = args->timeout == EVENT_TIMEOUT_INFINITE;

		/* What it waits for is most likely queued work. */
		ksim_cp_kick(p);

		clock_gettime(CLOCK_MONOTONIC, &deadline);
		deadline.tv_sec += args->timeout / 1000;
		deadline.tv_nsec += (long)(args->timeout % 1000) * 1000000L;
		if (deadline.tv_nsec >= 1000000000L) {
			deadline.tv_sec++;
			deadline.tv_nsec -= 1000000000L;
		}
		while (result == KFD_ABI_WAIT_RESULT_TIMEOUT) {
			int e = infinite ?
				pthread_cond_wait(&p->event_cond, &dev->lock) :
				pthread_cond_timedwait(&p->event_cond, &dev->lock,
						       &deadline);

			result = test_condition(s, n, args->wait_for_all);
			if (e == ETIMEDOUT)
				break;
		}
	}
	if (result == KFD_ABI_WAIT_RESULT_COMPLETE)
		r = copy_signaled(s, n, args->events_ptr);
out:
	for (uint32_t i = 0; s && i < n; i++) {
		struct ksim_event *ev = s[i].held;

		if (!ev)
			continue;
		waiter_unlink(&s[i]);
		/* An event destroyed while we waited is ours to free last. */
		if (--ev->nwaiters == 0 && ev->dead)
			free(ev);
	}
	free(s);
	if (r)
		result = KFD_ABI_WAIT_RESULT_FAIL;
	else if (result == KFD_ABI_WAIT_RESULT_FAIL)
		r = -EIO;
	args->wait_result = result;
	return r;
}

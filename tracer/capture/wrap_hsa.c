/* SPDX-License-Identifier: MIT */
/*
 * hsa_signal_store_relaxed(), hsa_signal_store_screlease() and its older
 * name hsa_signal_store_release(): how an HSA runtime's clients (HIP's
 * ROCclr) ring a queue's doorbell, by storing into its doorbell signal.
 *
 * With submission capture on, such a store would trap in the shadow
 * doorbell page (submit_trap.c): a signal delivery, microseconds. Done
 * here, the same kcap_submit_trap_store() records it by a function call,
 * on the ringing thread, and the value goes where ROCr's AqlQueue puts it
 * for a signal of kind AMD_SIGNAL_KIND_DOORBELL: into the doorbell, after
 * a release fence. Every other signal (legacy doorbells included), a
 * doorbell the capture does not shadow, and every call with capture off
 * go to the runtime's own function, unchanged.
 *
 * Unversioned, so that references to hsa_signal_store_*@ROCR_1 bind here
 * too; RTLD_NEXT is the runtime's.
 */
#include "capture.h"

#include <dlfcn.h>

#include <kfdtrace/packet_abi.h>

/* amd_signal_t's kind of an AQL queue's doorbell (amd_hsa_signal.h). */
#define KCAP_AMD_SIGNAL_KIND_DOORBELL	(-1)

/* hsa_signal_t: one 64-bit handle, the address of its amd_signal_t. */
typedef struct {
	uint64_t handle;
} kcap_hsa_signal_t;

typedef void (*kcap_hsa_store_fn)(kcap_hsa_signal_t, int64_t);

/* The runtime declares them; we are not built against its headers. */
void hsa_signal_store_relaxed(kcap_hsa_signal_t s, int64_t v);
void hsa_signal_store_screlease(kcap_hsa_signal_t s, int64_t v);
void hsa_signal_store_release(kcap_hsa_signal_t s, int64_t v);

/* Ring @s with @v here if it is a doorbell we shadow. Return: 1 if so. */
static int
ring(kcap_hsa_signal_t s, int64_t v)
{
	const struct kfd_amd_signal *a = (const void *)(uintptr_t)s.handle;
	void *db;

	if (!__atomic_load_n(&kcap_submit_on, __ATOMIC_RELAXED) || !a ||
	    a->kind != KCAP_AMD_SIGNAL_KIND_DOORBELL)
		return 0;
	/* hardware_doorbell_ptr shares the value's place. */
	db = (void *)(uintptr_t)a->value;
	if ((uintptr_t)db & 7)
		return 0;
	/*
	 * The packets are visible before the doorbell (ROCr's fence). One
	 * lookup: the store says 0 for a doorbell that is not ours.
	 */
	__atomic_thread_fence(__ATOMIC_RELEASE);
	return kcap_submit_trap_store(db, 8, (uint64_t)v, NULL, 1);
}

static void
next_store(kcap_hsa_store_fn *fn, const char *name, kcap_hsa_signal_t s, int64_t v)
{
	kcap_hsa_store_fn f = __atomic_load_n(fn, __ATOMIC_ACQUIRE);

	if (!f) {
		void *h;

		f = (kcap_hsa_store_fn)dlvsym(RTLD_NEXT, name, "ROCR_1");
		if (!f)
			f = (kcap_hsa_store_fn)dlsym(RTLD_NEXT, name);
		/*
		 * A runtime loaded with RTLD_LOCAL (a plugin, ctypes) is not
		 * in the global scope RTLD_NEXT searches: by its name.
		 */
		if (!f && (h = dlopen("libhsa-runtime64.so.1", RTLD_LAZY | RTLD_NOLOAD))) {
			f = (kcap_hsa_store_fn)dlsym(h, name);
			dlclose(h);
		}
		__atomic_store_n(fn, f, __ATOMIC_RELEASE);
	}
	if (f)
		f(s, v);
}

KCAP_EXPORT void
hsa_signal_store_relaxed(kcap_hsa_signal_t s, int64_t v)
{
	static kcap_hsa_store_fn fn;

	if (!ring(s, v))
		next_store(&fn, "hsa_signal_store_relaxed", s, v);
}

KCAP_EXPORT void
hsa_signal_store_screlease(kcap_hsa_signal_t s, int64_t v)
{
	static kcap_hsa_store_fn fn;

	if (!ring(s, v))
		next_store(&fn, "hsa_signal_store_screlease", s, v);
}

KCAP_EXPORT void
hsa_signal_store_release(kcap_hsa_signal_t s, int64_t v)
{
	static kcap_hsa_store_fn fn;

	if (!ring(s, v))
		next_store(&fn, "hsa_signal_store_release", s, v);
}

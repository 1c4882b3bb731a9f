/* SPDX-License-Identifier: MIT */
/* Shared fixture for the kfdsim model tests: a private device with its
 * /dev/kfd and render-node files, and short-hands for common ioctls. */
#ifndef KTEST_H
#define KTEST_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <time.h>
#include <setjmp.h>
#include <cmocka.h>

#include <kfdtrace/drm_abi.h>
#include <kfdtrace/kfd_abi.h>

#include "ksim.h"

#define KT_MAX_GPUS 4

struct kt {
	struct ksim_profile *prof;
	struct ksim_device *dev;
	struct ksim_file *kfd;
	struct ksim_file *rnd[KT_MAX_GPUS];
	uint32_t gpu_id[KT_MAX_GPUS];
	unsigned int n_gpus;
};

/* Build a private device from a builtin profile (0: newest ABI), open
 * /dev/kfd and every render node. Returns 0 or a negative errno. */
int kt_open(struct kt *t, const char *profile, unsigned int abi_minor);
/* The same with explicit options (machine, kernel flavour, flags). */
int kt_open_opts(struct kt *t, const char *profile, const struct ksim_opts *o);
void kt_close(struct kt *t);
/* ACQUIRE_VM for GPU index @gpu with its own render file. */
int kt_acquire(struct kt *t, unsigned int gpu);
int kt_acquire_all(struct kt *t);

int kt_alloc(struct kt *t, unsigned int gpu, uint64_t va, uint64_t size,
	     uint32_t flags, uint64_t *handle, uint64_t *mmap_offset);
int kt_free(struct kt *t, uint64_t handle);
/* MAP/UNMAP on @n GPU indices; *n_success gets the kernel's value. */
int kt_map(struct kt *t, uint64_t handle, const unsigned int *gpus,
	   unsigned int n, uint32_t *n_success);
int kt_unmap(struct kt *t, uint64_t handle, const unsigned int *gpus,
	     unsigned int n, uint32_t *n_success);
/* Map a model offset into memory (ksim_mmap + mmap). NULL on error, with
 * *err set to the model's errno. */
void *kt_cpu_map(struct ksim_file *f, uint64_t offset, size_t len, int *err);
/*
 * kt_userptr_mapped() - fresh anonymous memory of @size made a userptr BO
 * at GPU VA @va and mapped on GPU @gpu (index); returns its CPU address.
 * kt_vram_mapped() - a VRAM BO of GPU @owner at @va, mapped on the @n GPUs
 * @gpus, never mapped by the CPU. Both are writable by the GPU (as the
 * thunk allocates them) and fail the test on error.
 */
/*
 * kt_reaches() - wait up to 5 s until the 64-bit word @p (written by
 * another thread: an engine's read pointer) is at least @want. Return: 1
 * when it got there, 0 on time-out.
 */
int kt_reaches(const uint64_t *p, uint64_t want);
uint8_t *kt_userptr_mapped(struct kt *t, unsigned int gpu, uint64_t va,
			   size_t size);
void kt_vram_mapped(struct kt *t, unsigned int owner, uint64_t va,
		    uint64_t size, const unsigned int *gpus, unsigned int n);

/* cmocka fixtures for the common case: mi210, newest ABI, VM acquired. */
/*
 * A user-mode queue the tests publish packets on: its ring at the base
 * VA, a pointers page at +1 MiB, a data page at +2 MiB (userptr BOs on
 * the first GPU), and its doorbell.
 */
struct kt_queue {
	uint8_t *ring, *aux, *data;
	volatile uint64_t *doorbell;
	volatile uint64_t *doorbell_page;	/* its mapping, 8 KiB */
	uint64_t wr;
	uint32_t qid;			/* CREATE_QUEUE's queue_id */
};

/*
 * kt_queue_create() - create a queue of @type (KFD_ABI_QUEUE_TYPE_*) on
 * the first GPU, its ring of @ring_size bytes at @base; EOP and CWSR
 * areas at @eop_va and @cwsr_va. AQL: the amd_queue_t's pointers, an
 * empty ring. PM4: the read pointer at the pointers page's start, the
 * write pointer @wptr_off bytes after it. Asserts on failure.
 */
void kt_queue_create(struct kt *t, struct kt_queue *q, uint64_t base, uint32_t type,
		     uint32_t ring_size, uint64_t eop_va, uint64_t cwsr_va,
		     unsigned int wptr_off);

/*
 * kt_put_code() - a kernel descriptor at @kd bytes into @page, its code
 * @size bytes from @code 256 bytes on: two user SGPRs, the kernarg
 * segment pointer in s[0:1], everything else zero.
 */
void kt_put_code(uint8_t *page, unsigned int kd, const uint32_t *code, size_t size);

/*
 * kt_queue_areas() - the EOP buffer at @eop_va and the context save area
 * at @cwsr_va (one per XCC, with the debugger's memory) of the first GPU:
 * VRAM BOs mapped on it, as the thunk allocates them for a compute queue.
 */
void kt_queue_areas(struct kt *t, uint64_t eop_va, uint64_t cwsr_va);

/* kt_gpu_node() - the first GPU node of @t's profile (CPU nodes come first). */
const struct ksim_node *kt_gpu_node(const struct kt *t);

/* kt_event_new() - CREATE_EVENT of @type (no event page): its id. */
uint32_t kt_event_new(struct kt *t, uint32_t type);
/*
 * kt_signal_event() - the events page a dGPU runtime gives (a 32 KiB GTT
 * BO at GPU VA @page_va, mapped on the first GPU) and a SIGNAL event on
 * it: its id; its slot is at @page_va + 8 * id.
 */
uint32_t kt_signal_event(struct kt *t, uint64_t page_va);
/*
 * kt_wait_event() - WAIT_EVENTS on the one event @id for up to @ms; its
 * event data into *@ed when @ed is not NULL. Return: the wait_result.
 */
uint32_t kt_wait_event(struct kt *t, uint32_t id, uint32_t ms,
		       struct kfd_abi_event_data *ed);

/*
 * kt_aql_dispatch_packet() - the 64 bytes of an AQL dispatch of @grid
 * work-items in work-groups of @wg, one dimension, of kernel object
 * @kobj with kernel arguments at @kernarg and completion signal @done
 * (0: none), into @b; its header (bytes 0-1) left 0 for the publisher.
 */
void kt_aql_dispatch_packet(uint8_t b[64], uint32_t grid, uint16_t wg, uint64_t kobj,
			    uint64_t kernarg, uint64_t done);
/*
 * kt_aql_dispatch() - publish on the AQL queue @q (its ring @ring_size
 * bytes) a dispatch of @grid work-items in work-groups of @wg, one
 * dimension, of kernel object @kobj with kernel arguments at @kernarg
 * and completion signal @done (0: none), at write index q->wr, the
 * header last; then ring the doorbell.
 */
void kt_aql_dispatch(struct kt_queue *q, uint32_t ring_size, uint32_t grid, uint16_t wg,
		     uint64_t kobj, uint64_t kernarg, uint64_t done);

/*
 * kt_doorbell() - a queue's doorbell from CREATE_QUEUE's @doorbell_offset:
 * its page (8 KiB) mapped, into *@page. Asserts on failure.
 */
volatile uint64_t *kt_doorbell(struct kt *t, uint64_t doorbell_offset,
			       volatile uint64_t **page);

/* kt_now_ns() - clock @id in ns (0 if it cannot be read). */
uint64_t kt_now_ns(clockid_t id);

/* kt_engine_tid() - the engine thread of this process (kfdsim-cp), or 0. */
pid_t kt_engine_tid(void);
/*
 * kt_task_switches() - voluntary plus involuntary context switches of
 * thread @tid so far: each wake-up of a sleeper is one.
 */
unsigned long kt_task_switches(pid_t tid);
/* kt_task_clock() - the CPU-time clock of thread @tid of this process. */
clockid_t kt_task_clock(pid_t tid);

/*
 * kt_setup_profile() - cmocka set-up: a private device of builtin
 * @profile (newest ABI) with every VM acquired, in *@state; -1 on error.
 * Its teardown is kt_teardown().
 */
int kt_setup_profile(void **state, const char *profile);
/* kt_new() - the same for a test's own device (asserts); kt_delete() ends it. */
struct kt *kt_new(const char *profile);
void kt_delete(struct kt *t);
int kt_setup_mi210(void **state);
int kt_setup_mi210_novm(void **state);
int kt_teardown(void **state);
/* A shared machine of the test's own (ksim_machine_begin(NULL)) in *state,
 * its name ksim_machine_id(*state); the teardown removes its state file,
 * also after a failed assertion. */
int kt_machine_setup(void **state);
int kt_machine_teardown(void **state);

#endif

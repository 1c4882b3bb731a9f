/* SPDX-License-Identifier: MIT */
/*
 * Private interfaces of libkfdtrace-capture.so, the LD_PRELOAD library
 * that records what an unmodified process does with /dev/kfd and the
 * amdgpu render nodes.
 *
 *   real.c		the next definitions of what we wrap (RTLD_NEXT)
 *   fdtab.c		what each fd is (KFD, render node, other), and the
 *			tracer's own fds, which the application may not close
 *   select.c		which ioctls are recorded (record --only, --except)
 *   session.c		configuration, the trace file (created at the first
 *			device event), file naming, fork/exec/exit handling,
 *			which process this is (children made by clone)
 *   maps.c		device mappings and SVM ranges: which munmaps to record
 *   submit.c		submission capture: shadow doorbells, queues
 *   submit_ring.c	... what a doorbell value publishes, recorded
 *   submit_trap.c	... the doorbell store that traps, decoded (x86-64)
 *   submit_mem.c	... and the memory the packets reference (=full)
 *   wrap_sock.c	fds passed over Unix sockets (fd_transfer records)
 *   wrap_hsa.c		doorbells rung through the HSA API, without a trap
 *   wrap_*.c		the exported entry points (wrap_sig.c keeps the
 *			recorder's crash handlers in front of the program's)
 *
 * Every source file includes this header first: it turns off the large
 * file redirections (meson builds with _FILE_OFFSET_BITS=64), without
 * which defining open() would define open64() instead.
 */
#ifndef KCAP_CAPTURE_H
#define KCAP_CAPTURE_H

#undef _FILE_OFFSET_BITS
#undef _TIME_BITS

#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdint.h>
#include <sys/socket.h>
#include <sys/types.h>
#include <time.h>

#include <kfdtrace/kfd_abi.h>
#include <kfdtrace/recorder.h>
#include <kfdtrace/schema.h>

#include "gate.h"

#define KCAP_EXPORT __attribute__((visibility("default")))

/* glibc declares these only under _FORTIFY_SOURCE. */
int __open_2(const char *path, int flags);
int __open64_2(const char *path, int flags);
int __openat_2(int dirfd, const char *path, int flags);
int __openat64_2(int dirfd, const char *path, int flags);

/*
 * Re-entrancy guard: non-zero while this thread is inside the tracer. The
 * wrappers then forward straight to the next definition, so the tracer's
 * own opens, reads and mmaps (the topology snapshot, the writer) are
 * neither recorded nor counted. initial-exec TLS, so that reading it never
 * calls into the dynamic linker.
 */
extern __thread int kcap_busy __attribute__((tls_model("initial-exec")));

#define KCAP_NOT_KFD (_IOC_NRMASK + 1u)

/*
 * kcap_kfd_nr() - the number of a KFD ioctl (KFD_ABI_IOC_NR()), or
 * KCAP_NOT_KFD for a request that is none: another file kind, or another
 * type byte ('K' is the console's too).
 *
 * The capture's own tests of a request (the wait gate, SVM ranges, the
 * queues and buffers of --submissions) compare this number with
 * KFD_ABI_IOC_NR(KFD_ABI_IOC_...), never the size bits, which vary (SVM's
 * attributes, CREATE_QUEUE's older size). They run around the dispatch
 * point, which resolves the schema row inside and only while a hook is
 * registered, so there is no row for them to take.
 */
static inline unsigned int
kcap_kfd_nr(enum kfd_file_kind kind, unsigned long request)
{
	if (kind != KFD_FILE_KFD ||
	    KFD_ABI_IOC_TYPE(request) != KFD_ABI_IOCTL_BASE)
		return KCAP_NOT_KFD;
	return (unsigned int)KFD_ABI_IOC_NR(request);
}

/* ---- real.c ---- */

struct kcap_real {
	int (*open)(const char *, int, ...);
	int (*openat)(int, const char *, int, ...);
	int (*close)(int);
	int (*close_range)(unsigned int, unsigned int, int);
	int (*dup)(int);
	int (*dup2)(int, int);
	int (*dup3)(int, int, int);
	int (*fcntl)(int, int, ...);
	int (*ioctl)(int, unsigned long, ...);
	void *(*mmap)(void *, size_t, int, int, int, off_t);
	int (*munmap)(void *, size_t);
	int (*fstat)(int, void *);
	int (*stat)(const char *, void *);
	pid_t (*fork)(void);
	int (*execve)(const char *, char *const[], char *const[]);
	int (*execvpe)(const char *, char *const[], char *const[]);
	int (*fexecve)(int, char *const[], char *const[]);
	void (*exit_)(int);
	void (*Exit_)(int);
	int (*pthread_setname_np)(pthread_t, const char *);
	int (*sigaction)(int, const struct sigaction *, struct sigaction *);
	sighandler_t (*signal)(int, sighandler_t);
	int (*clone)(int (*)(void *), void *, int, void *, ...);
	ssize_t (*sendmsg)(int, const struct msghdr *, int);
	ssize_t (*recvmsg)(int, struct msghdr *, int);
	int (*sendmmsg)(int, struct mmsghdr *, unsigned int, int);
	int (*recvmmsg)(int, struct mmsghdr *, unsigned int, int,
			struct timespec *);
};

extern struct kcap_real kcap_real;

/* Resolve every entry once; cheap to call again. */
void kcap_real_init(void);

/* ---- submit.c ---- */

/* KFDTRACE_SUBMISSIONS: record what the queues are given (read once). */
extern int kcap_submit_on;
void kcap_submit_init(void);
/*
 * A doorbell mmap of /dev/kfd: the program gets a shadow page, and *@taken
 * says the result is the answer (MAP_FAILED with errno, or the shadow);
 * otherwise map as usual.
 */
void *kcap_submit_mmap(void *addr, size_t len, int prot, int flags, int fd,
		       off_t off, int *taken);
void kcap_submit_munmap(void *addr, size_t len);
/*
 * Around an ioctl on KFD fd @fd (@before 1, then 0 with its result), @nr
 * its kcap_kfd_nr(): queues.
 */
void kcap_submit_ioctl(int fd, unsigned int nr, void *arg, int ret, int before);
void kcap_submit_child(void);
void kcap_submit_shutdown(void);
/* Whether @addr is in a write-protected shadow doorbell page. */
int kcap_submit_owns(const void *addr);
/*
 * A trapped store of @width bytes of @val at @addr, in a shadow doorbell
 * page: done, with what it publishes recorded (by the calling thread)
 * and forwarded to the device; *@old (when not NULL) gets the bytes it
 * replaced. @may_record 0: forward only, a later sweep records it.
 * Return: 1, or 0 when @addr is no shadow of ours.
 */
int kcap_submit_trap_store(void *addr, unsigned int width, uint64_t val,
			   uint64_t *old, int may_record);
/*
 * A store at @addr the trap cannot emulate: the page is made writable for
 * good (its doorbells are then recorded at the next KFD call, LATE), and
 * @why said once on stderr.
 */
void kcap_submit_trap_disarm(void *addr, const char *why);
/* The recorder's SIGSEGV hook (submit_trap.c): 1 when the fault is ours. */
int kcap_submit_trap(int sig, siginfo_t *info, void *uc);
/*
 * Copy @len bytes of the program's memory at @addr (a guarded copy,
 * safecopy.h: an unmapped address fails, it does not fault; in a SIGSEGV
 * handler, only with SIGSEGV unblocked). Return: 0, or -1.
 */
int kcap_read_mem(void *dst, uint64_t addr, size_t len);

/* ---- submit_ring.c: what a doorbell value publishes ---- */

#define SUB_NONE	UINT64_MAX	/* nothing stored yet / the sentinel */

/*
 * Queue ids and doorbell offsets are per KFD process, and one program may
 * hold several (secondary contexts, each its own /dev/kfd file): a queue
 * and a doorbell page are known by the fd they came from as well.
 */
struct sub_queue {
	int used;
	int fd;				/* the /dev/kfd file it was created on */
	uint32_t queue_id, gpu_id;
	uint8_t engine;
	uint64_t ring;
	uint32_t ring_size;
	uint64_t doorbell_offset;
	uint64_t rptr;			/* AQL: read_dispatch_id's address */
	uint8_t *prog;			/* the program's (trapping) slot */
	volatile uint64_t *shadow;	/* the same slot, our writable view */
	volatile uint64_t *real;	/* the device's */
	uint64_t rung;			/* the last value the program stored */
	uint64_t top;			/* AQL: the highest value it stored */
	uint64_t last;			/* AQL: last packet recorded; SDMA: the
					 * write pointer recorded */
};

/*
 * The program stored @v into @q's doorbell: record what it published,
 * then let the engine see it. @flags: LATE when found after the fact.
 * Both here with submit.c's lock held.
 */
void kcap_submit_publish(struct sub_queue *q, uint64_t v, uint8_t flags);
/* AQL: record the packets the engine read that no doorbell showed. */
void kcap_submit_check_unseen(struct sub_queue *q);
/* submit.c: the trace ended; nothing more is recorded. */
int kcap_submit_stopped(void);

/* ---- submit_mem.c: --submissions=full ---- */

extern int kcap_submit_full;
void kcap_submit_mem_init(void);
/*
 * ALLOC/FREE_MEMORY_OF_GPU (@nr: kcap_kfd_nr()): the buffers code objects
 * live in.
 */
void kcap_submit_mem_ioctl(unsigned int nr, void *arg, int ret);
/*
 * The same ioctls as the program enters them: a userptr's CPU address,
 * which the driver's answer replaces with an mmap offset.
 */
void kcap_submit_mem_before(unsigned int nr, const void *arg);
/* Memory records of what the packets in @data reference. */
void kcap_submit_mem_packets(uint8_t engine, const uint8_t *data, uint32_t len);
void kcap_submit_mem_child(void);

/* ---- fdtab.c ---- */

/* What the table knows about an fd. */
enum kcap_fd_state {
	KCAP_FD_UNCHECKED = 0,	/* never seen: classify on first ioctl/mmap */
	KCAP_FD_OTHER,		/* not a device we trace */
	KCAP_FD_KFD,
	KCAP_FD_RENDER,
};

int kcap_fd_state(int fd);
void kcap_fd_set(int fd, int state);

/*
 * The table itself, for the inline lookup below: two levels of 1024
 * entries, pages allocated on first use and never freed.
 */
#define KCAP_FDTAB_PAGE 1024
#define KCAP_FDTAB_PAGES 1024
#define KCAP_FD_STATE_MASK 0x03
extern _Atomic(_Atomic uint8_t *) kcap_fdtab[KCAP_FDTAB_PAGES];

/* kcap_fd_kind() for an fd not classified yet (or out of the table). */
enum kfd_file_kind kcap_fd_kind_slow(int fd);

static inline enum kfd_file_kind kcap_state_kind(int state);

/*
 * The file kind of a traced fd, classifying an unchecked one; 0 if none.
 * Inline: every ioctl of the program, traced or not, asks.
 */
static inline enum kfd_file_kind
kcap_fd_kind(int fd)
{
	if (__builtin_expect((unsigned int)fd < KCAP_FDTAB_PAGE * KCAP_FDTAB_PAGES, 1)) {
		_Atomic uint8_t *page =
			atomic_load_explicit(&kcap_fdtab[(unsigned int)fd / KCAP_FDTAB_PAGE],
					     memory_order_acquire);
		int st = page ? atomic_load_explicit(&page[(unsigned int)fd % KCAP_FDTAB_PAGE],
						     memory_order_relaxed) &
				KCAP_FD_STATE_MASK : KCAP_FD_UNCHECKED;

		if (__builtin_expect(st != KCAP_FD_UNCHECKED, 1))
			return kcap_state_kind(st);
	}
	return kcap_fd_kind_slow(fd);
}

/*
 * Classify an open fd by what it is: @path when it names /dev/kfd or a
 * render node, else fstat's st_rdev. Sets *rdev (0 when unknown).
 */
enum kfd_file_kind kcap_classify(int fd, const char *path, uint64_t *rdev);

/* The kind a path names by itself (before the open succeeded). */
enum kfd_file_kind kcap_path_kind(const char *path);

/* The tracer's own fds. */
void kcap_fd_protect(int fd);
void kcap_fd_unprotect(int fd);
int kcap_fd_protected(int fd);
/* The protected fds in [first, last], sorted; returns how many. */
int kcap_fd_protected_in(unsigned int first, unsigned int last, int *out,
			 int max);
/* The lowest traced device fd in [from, last], or -1. */
int kcap_fd_next_device(unsigned int from, unsigned int last);
/* Table state for a file kind. */
static inline int
kcap_kind_state(enum kfd_file_kind kind)
{
	return kind == KFD_FILE_KFD ? KCAP_FD_KFD :
	       kind == KFD_FILE_RENDER ? KCAP_FD_RENDER : KCAP_FD_OTHER;
}

static inline enum kfd_file_kind
kcap_state_kind(int state)
{
	return state == KCAP_FD_KFD ? KFD_FILE_KFD :
	       state == KCAP_FD_RENDER ? KFD_FILE_RENDER : KFD_FILE_UNKNOWN;
}

/* ---- select.c ---- */

/* Whether KFDTRACE_ONLY or KFDTRACE_EXCEPT chose the ioctls (read once). */
extern int kcap_select_on;
/* Read KFDTRACE_ONLY and KFDTRACE_EXCEPT (at load, from session.c). */
void kcap_select_init(void);
/* With kcap_select_on: whether a request of @kind is recorded. */
int kcap_select_keeps(enum kfd_file_kind kind, unsigned long request);

/* ---- session.c ---- */

/* Whether capture is on in this process (not disabled, not setuid). */
int kcap_enabled(void);

/*
 * kcap_env_flag() - a yes/no setting from the environment: @dflt when
 * @name is unset or empty, else whether it is anything but "0".
 */
int kcap_env_flag(const char *name, int dflt);

/* The recorder of the open trace, or NULL (session.c). */
extern _Atomic(struct kfd_recorder *) kcap_session_rec;

/*
 * Which process this is, in one word on a page that a child not sharing
 * our memory sees zeroed (MADV_WIPEONFORK), however it was made:
 *   0			a new process nobody has set up yet (a clone system
 *			call: no pthread_atfork() handler ran)
 *   KCAP_MARK_OWN	the process the session state describes
 *   KCAP_MARK_SHARED	another process may share our memory (clone() with
 *			CLONE_VM, without CLONE_THREAD): ask getpid()
 *   KCAP_MARK_BUSY	a new process being set up
 */
#define KCAP_MARK_OWN 1u
#define KCAP_MARK_SHARED 2u
#define KCAP_MARK_BUSY 3u
extern _Atomic uint32_t *kcap_session_mark;

/*
 * kcap_session_live() - whether a trace is open and this is the process
 * it belongs to. Then capture is on and the real functions are resolved:
 * the one test the hot path of a traced ioctl needs.
 */
static inline int
kcap_session_live(void)
{
	return atomic_load_explicit(&kcap_session_rec,
				    memory_order_relaxed) != NULL &&
	       atomic_load_explicit(kcap_session_mark,
				    memory_order_relaxed) == KCAP_MARK_OWN;
}

/*
 * kcap_session_foreign() - whether the caller is a process that shares our
 * memory but is not the one the session belongs to: nothing of the
 * session's may be touched, and its device calls are not recorded.
 */
int kcap_session_foreign(void);

/*
 * kcap_session_signals() - whether sigaction() goes through the recorder:
 * also in a child that is not traced (KFDTRACE_FOLLOW_FORK=0), which
 * inherited our handlers; never in a foreign or secure process.
 */
int kcap_session_signals(void);

/*
 * In a clone() child with memory of its own, first thing: it is a new
 * process, set up at its next call (also where the mark page is missing).
 */
void kcap_session_child_start(void);

/* Before clone(CLONE_VM) without CLONE_THREAD: a process will share us. */
void kcap_session_share_vm(void);

/* A device call made by a foreign process: counted as lost at END. */
void kcap_session_untraced(void);
/* Count an ioctl that select.c left out (END's left_out). */
void kcap_session_left_out(void);

/*
 * The recorder, creating the trace file first if this process has none
 * yet. NULL when capture is off, or while an exec is in progress, or when
 * the file could not be created (reported once on stderr).
 */
struct kfd_recorder *kcap_session_get(void);

/*
 * Append a record to the session's trace if there is one, creating it
 * when @create. Safe against a concurrent close (exit, exec).
 */
void kcap_session_append(struct kt_record *rec, int create);

/*
 * The run's blob store (kfdtrace/blob.h) when the output is a directory
 * ("DIR/": DIR/.kfdtrace-blobs), else NULL: the trace holds its blobs.
 */
const char *kcap_session_blob_store(void);

/* Record the calling thread's new name, if there is a trace. */
void kcap_session_thread_name(const char *name);

/* Close the trace (exit, exec). @exec_path/@argv: append an EXEC first. */
void kcap_session_close_for_exec(const char *path, char *const argv[]);
void kcap_session_exec_failed(void);
/*
 * End the trace at the end of the process (the last exit handler): wait
 * for the device calls under way, then write the END record; later device
 * calls of other threads wait for the process to end (kcap_session_late()).
 */
void kcap_session_shutdown(void);
/*
 * Finish the trace async-signal-safely, END record included (_exit); the
 * process is about to end.
 */
void kcap_session_emergency_end(void);

/*
 * Device calls in progress: a section of one of these gates spans a device
 * ioctl from before it reaches the device until its record is appended, so
 * the end of the trace can wait for them. WAIT_EVENTS has a gate of its
 * own: a wait may never return, and the end waits for those only briefly.
 */
extern struct kfd_gate kcap_call_gate;
extern struct kfd_gate kcap_wait_gate;

/* Set once the trace has ended for good (exit, _exit). */
extern _Atomic int kcap_session_ending;

/*
 * kcap_session_late() - a device call after the end of the trace, before
 * it reaches the device or after it comes back: wait for the process to
 * end, so that neither the device nor the program sees what the trace
 * cannot hold. Returns at once on the thread that ended the trace, and
 * after some seconds when the process has not ended (said on stderr).
 */
void kcap_session_late(void);

/*
 * kcap_call_enter() - before a device call: start its section of gate @g.
 * Return: the token for kcap_call_leave().
 */
static inline unsigned int
kcap_call_enter(struct kfd_gate *g)
{
	unsigned int token = kfd_gate_enter(g);

	/* After the store of enter: the ending side drains (gate.h). */
	if (__builtin_expect(atomic_load_explicit(&kcap_session_ending,
						  memory_order_relaxed), 0)) {
		kfd_gate_leave(g, token);
		kcap_session_late();
		token = 0;
	}
	return token;
}

/*
 * kcap_call_leave() - after the call and its record: end the section of
 * @token. A call that outlived the trace does not return to the program.
 */
static inline void
kcap_call_leave(struct kfd_gate *g, unsigned int token)
{
	kfd_gate_leave(g, token);
	if (__builtin_expect(atomic_load_explicit(&kcap_session_ending,
						  memory_order_relaxed), 0))
		kcap_session_late();
}

/*
 * The environment to hand to an exec: @envp with our state variable
 * replaced. Returns a malloc'ed array (strings included) or NULL.
 */
char **kcap_session_exec_env(char *const envp[]);

/* ---- maps.c ---- */

/* Add [addr, addr+len): a device mapping or an SVM range. */
void kcap_maps_add(uint64_t addr, uint64_t len);
/* Remove [addr, addr+len) from the set; 1 if it overlapped a mapping. */
int kcap_maps_remove(uint64_t addr, uint64_t len);
void kcap_maps_reset(void);

/* ---- lttng_loader.c ---- */

/*
 * With KFDTRACE_LTTNG=1: load the lttng provider (first call only; not
 * under the session lock, busy set), and register its hooks (when a trace
 * begins, locked).
 */
void kcap_lttng_load(void);
void kcap_lttng_attach(void);
/* Emit the lttng event of a record (mmap, munmap), if the provider is in. */
void kcap_lttng_record(const struct kt_record *rec);

#endif /* KCAP_CAPTURE_H */

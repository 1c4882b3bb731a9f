/* SPDX-License-Identifier: MIT */
/*
 * The recorder: turns what a process does with its KFD and render-node
 * files into trace records (kfdtrace/trace.h) and appends them to a trace
 * file as they happen.
 *
 * Ioctls reach it through the dispatch point (kfd_recorder_attach()): for
 * each attempt it stores the argument bytes before and after the call and
 * every indirect buffer the schema names (before-images read before the
 * call, after-images after it), read with a copy that reports a bad user
 * pointer as KT_BUF_UNREADABLE instead of faulting. The record is appended
 * before the ioctl returns to its caller, so a crash right after the call
 * keeps it. Everything else (open, close, dup, mmap, fork, exec, ...) is
 * appended by whoever observes it, through kfd_recorder_append().
 *
 * A new trace starts with a topology record: every file under the KFD
 * sysfs topology, read through the ordinary libc calls so that a simulated
 * device (kfdsim) answers them as it answers the traced process.
 *
 * Concurrency: the hooks and kfd_recorder_append() may run on any number
 * of threads at once. kfd_recorder_close() must not overlap with
 * kfd_recorder_append() calls (it does wait out the hooks).
 */
#ifndef KFDTRACE_RECORDER_H
#define KFDTRACE_RECORDER_H

#include <signal.h>
#include <stddef.h>
#include <stdint.h>

#include <kfdtrace/topology.h>
#include <kfdtrace/trace.h>

#ifdef __cplusplus
extern "C" {
#endif

struct kfd_recorder;

enum kfd_recorder_flags {
	/*
	 * Leave out indirect buffers that carry opaque user bytes (metadata
	 * blobs); structured buffers (gpu id lists, apertures, SVM
	 * attributes) stay. Sets KT_HDR_NO_BUFFERS in the header.
	 */
	KFD_REC_NO_BUFFERS = 1 << 0,
	/*
	 * The device is a user-space one (kfdtrace/userdev.h: kfdsim):
	 * sets KT_HDR_SIMULATED.
	 */
	KFD_REC_SIMULATED = 1 << 1,
	/* Do not put a topology record at the head of the trace. */
	KFD_REC_NO_TOPOLOGY = 1 << 2,
	/*
	 * Install handlers for SIGSEGV, SIGBUS, SIGABRT, SIGILL and SIGFPE
	 * that flush what is buffered (kt_writer_emergency_flush()) and then
	 * hand the signal to the handler that was there before (or its
	 * default action). They also let argument copies use a cheap guarded
	 * memcpy instead of a system call.
	 */
	KFD_REC_CRASH_HANDLERS = 1 << 3,
	/*
	 * With the crash handlers: for every other signal whose default
	 * action ends the process (SIGHUP, SIGINT, SIGQUIT, SIGTRAP, SIGUSR1,
	 * SIGUSR2, SIGPIPE, SIGALRM, SIGTERM, SIGSTKFLT, SIGXCPU, SIGXFSZ,
	 * SIGVTALRM, SIGPROF, SIGIO, SIGPWR, SIGSYS, SIGRTMIN..SIGRTMAX)
	 * and whose disposition is the default, a handler that finishes the
	 * trace (kt_writer_emergency_end_signal()), puts the default back
	 * and re-raises the signal. Signals the program handles or ignores
	 * are left alone.
	 */
	KFD_REC_END_ON_SIGNAL = 1 << 4,
	/*
	 * The producer records only some ioctls, chosen by name (record
	 * --only, --except): sets KT_HDR_SELECTED. Counting what it left
	 * out is the producer's (kt_writer_opts.left_out).
	 */
	KFD_REC_SELECTED = 1 << 5,
};

struct kfd_recorder_opts {
	const char *producer;		/* header producer; NULL: "kfdtrace" */
	unsigned int flags;		/* enum kfd_recorder_flags */
	/* Bytes kept per indirect-buffer image; 0: 1 MiB. Longer buffers
	 * are clamped and flagged KT_BUF_CLAMPED. */
	size_t buf_cap;
	/* The sysfs directory to snapshot; NULL: KFD_RECORDER_TOPOLOGY. */
	const char *topology_root;
	const struct kt_writer_opts *writer;	/* NULL: defaults */
};

#define KFD_RECORDER_TOPOLOGY "/sys/devices/virtual/kfd/kfd/topology"

/*
 * kfd_recorder_open() - create a trace file and start recording into it.
 * @path:	created with O_CREAT|O_EXCL|O_NOFOLLOW|O_CLOEXEC, mode 0600
 * @opts:	NULL for defaults
 * @out:	the recorder
 *
 * Writes the header (this process's facts) and, unless
 * KFD_REC_NO_TOPOLOGY, the topology record. Does not attach to the
 * dispatch point.
 *
 * Return: 0, or -errno (-EEXIST when @path exists).
 */
int kfd_recorder_open(const char *path, const struct kfd_recorder_opts *opts,
		      struct kfd_recorder **out);

/*
 * kfd_recorder_fdopen() - the same on an open, empty, writable file that
 * the recorder takes ownership of (also on failure).
 */
int kfd_recorder_fdopen(int fd, const struct kfd_recorder_opts *opts,
			struct kfd_recorder **out);

/*
 * kfd_recorder_attach() - register the recorder's dispatch hooks, so that
 * every ioctl through the dispatch point is recorded.
 *
 * Return: 0, or a negative error from kfd_dispatch_hook_add().
 */
int kfd_recorder_attach(struct kfd_recorder *r);

/* kfd_recorder_detach() - unregister them (waits for calls in flight). */
void kfd_recorder_detach(struct kfd_recorder *r);

/*
 * kfd_recorder_append() - append one non-ioctl record.
 * @rec:	its type and payload; seq and tid are filled in here, and ts
 *		too when it is 0
 *
 * The first record of each thread is preceded by a THREAD_NAME record.
 *
 * Return: 0, or a negative error from kt_writer_append().
 */
int kfd_recorder_append(struct kfd_recorder *r, struct kt_record *rec);

/*
 * kfd_recorder_thread_name() - append a THREAD_NAME record for the calling
 * thread (after it renamed itself).
 *
 * Return: as kfd_recorder_append().
 */
int kfd_recorder_thread_name(struct kfd_recorder *r, const char *name);

/*
 * kfd_recorder_topology() - append a topology record: every regular file
 * under @root (NULL: the recorder's), within kt_topo_snapshot()'s bounds
 * (KT_TOPO_SNAP_MAX_FILES files of KT_TOPO_SNAP_MAX_FILE bytes,
 * KT_TOPO_SNAP_MAX_BYTES in all, kfdtrace/topology.h). A missing
 * directory gives a record with no files.
 *
 * Return: 0, or a negative error.
 */
int kfd_recorder_topology(struct kfd_recorder *r, const char *root);

/*
 * kfd_recorder_flush() - get everything appended so far into the file.
 *
 * Return: 0, or -errno.
 */
int kfd_recorder_flush(struct kfd_recorder *r);

/*
 * kfd_recorder_close() - detach, flush, write the END record, close the
 * file and free the recorder. NULL is ignored.
 *
 * Return: 0, or the first error the writer saw.
 */
int kfd_recorder_close(struct kfd_recorder *r);

/*
 * kfd_recorder_abandon() - forget a recorder in a forked child without
 * touching its writer (whose thread exists only in the parent): its memory
 * is leaked on purpose and its file descriptor closed. Call it from a
 * pthread_atfork() child handler, after kfd_dispatch_atfork_child().
 */
void kfd_recorder_abandon(struct kfd_recorder *r);

/* kfd_recorder_fd() - the trace file's descriptor, which the process must
 * not close (the capture library protects it). */
int kfd_recorder_fd(const struct kfd_recorder *r);

/* kfd_recorder_writer() - the underlying writer, for its statistics
 * (kt_writer_get_stats()). */
struct kt_writer *kfd_recorder_writer(struct kfd_recorder *r);

/*
 * For an LD_PRELOAD interposer of sigaction()/signal(): the program must
 * not be able to replace the crash handlers by accident (they also guard
 * the copies of its ioctl arguments), and must see its own dispositions,
 * never ours.
 *
 * kfd_recorder_crash_chain() - the program's sigaction(@sig, @act, @old).
 * For a crash signal whose handler is ours: make @act (when not NULL) the
 * handler ours hands the signal on to, instead of installing it. For an
 * ending signal (KFD_REC_END_ON_SIGNAL, once a recorder took them): a
 * default @act keeps (or puts back) ours, standing for the default; any
 * other @act is installed for real and ours steps aside. Either way @old
 * (when not NULL) gets what the program set before, exactly as
 * sigaction() would report it.
 *
 * Return: 1 when done so; 0 when the caller is to do the real sigaction()
 * (not one of ours, or ours not installed and @act not the default); -1
 * when installing @act failed (errno set; the caller may retry for real).
 */
int kfd_recorder_crash_chain(int sig, const struct sigaction *act,
			     struct sigaction *old);

/*
 * kfd_recorder_set_sigaction() - the function the recorder installs its
 * handlers with; an interposer passes the next sigaction() in the lookup
 * order (NULL: libc's). Call before the first recorder opens.
 */
void kfd_recorder_set_sigaction(int (*fn)(int sig, const struct sigaction *act,
					  struct sigaction *old));

/*
 * kfd_recorder_set_end_hook() - @fn runs in the handler of an ending
 * signal (KFD_REC_END_ON_SIGNAL) right before it writes the END record:
 * the caller's chance to stop and wait for its own device calls, since
 * nothing recorded after END is kept. Async-signal-safe, like the
 * handler. NULL: none.
 */
void kfd_recorder_set_end_hook(void (*fn)(void));

/*
 * kfd_recorder_set_fault_hook() - @fn runs first in the crash handler of
 * SIGSEGV (KFD_REC_CRASH_HANDLERS), before anything is flushed or handed
 * on: it returns 1 when the fault was its own and is resolved (the
 * handler then returns at once, to the instruction @fn left in @uc), 0
 * to let the handler go on as usual. Async-signal-safe. NULL: none.
 */
void kfd_recorder_set_fault_hook(int (*fn)(int sig, siginfo_t *info, void *uc));

/*
 * kfd_recorder_fault_live() - whether the recorder's crash handler is
 * what the kernel has for SIGSEGV right now, so that a hook set with
 * kfd_recorder_set_fault_hook() sees the faults. Not in a handler.
 */
int kfd_recorder_fault_live(void);

/*
 * The sequence numbers of the calling thread's IOCTL records, for callers
 * that record spans enclosing them (the capture library's hsaKmt* API
 * spans). To open a span set .first to UINT64_MAX: the recorder stores the
 * next IOCTL record's number there. It stores every one in .last. When the
 * span closes, .first still UINT64_MAX means the thread made no ioctl.
 */
struct kfd_recorder_span {
	uint64_t first;
	uint64_t last;
};

extern __thread struct kfd_recorder_span kfd_recorder_span
	__attribute__((tls_model("initial-exec")));

#ifdef __cplusplus
}
#endif

#endif /* KFDTRACE_RECORDER_H */

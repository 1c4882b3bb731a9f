/* SPDX-License-Identifier: MIT */
/* Internals shared by the recorder's files. */
#ifndef KFD_RECORDER_PRIV_H
#define KFD_RECORDER_PRIV_H

#include <stddef.h>
#include <stdint.h>

#include <kfdtrace/recorder.h>
#include <kfdtrace/trace.h>

#define KFD_RECORDER_DEFAULT_CAP (1u << 20)

struct kfd_recorder {
	struct kt_writer *w;
	int fd;
	unsigned int flags;		/* enum kfd_recorder_flags */
	size_t buf_cap;
	unsigned int id;		/* tells recorders apart in thread state */
	int attached;
	char *topology_root;
};

/*
 * Fill seq, tid (and ts when 0) and append; emits the thread's name first
 * the first time this thread appends to @r.
 */
int kfd_rec_append(struct kfd_recorder *r, struct kt_record *rec);
/* The same without the thread's name (records that belong to no thread's
 * activity, such as the topology at the head of the file). */
int kfd_rec_append_raw(struct kfd_recorder *r, struct kt_record *rec);

/* The recorder this thread last announced its name to (recorder.c). */
extern __thread unsigned int kfd_rec_announced
	__attribute__((tls_model("initial-exec")));

/*
 * Append the THREAD_NAME record of the calling thread, stamped @ts (the
 * time of the record it announces; 0: now).
 */
void kfd_rec_announce(struct kfd_recorder *r, uint64_t ts);

/* recorder_ioctl.c: the dispatch hooks. */
int kfd_rec_hooks_attach(struct kfd_recorder *r);
void kfd_rec_hooks_detach(struct kfd_recorder *r);

/*
 * recorder_crash.c: fatal-signal handlers that flush @w; with
 * @end_signals_too, also those that end the trace on every other signal
 * whose default action ends the process (KFD_REC_END_ON_SIGNAL).
 */
int kfd_rec_crash_install(struct kt_writer *w, int end_signals_too);
/* Stop flushing @w from the handlers (they stay installed and chain). */
void kfd_rec_crash_forget(struct kt_writer *w);

#endif /* KFD_RECORDER_PRIV_H */

/* SPDX-License-Identifier: MIT */
/*
 * The recorder's life cycle and its append path (see kfdtrace/recorder.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <unistd.h>

#include <kfdtrace/dispatch.h>
#include <kfdtrace/recorder.h>

#include "recorder_priv.h"

static atomic_uint recorder_next_id = 1;

__thread unsigned int kfd_rec_announced
	__attribute__((tls_model("initial-exec")));

/* @ts: the record's time, 0 for now. */
static int
rec_append_name(struct kfd_recorder *r, const char *name, uint64_t ts)
{
	struct kt_record rec;

	memset(&rec, 0, sizeof(rec));
	rec.type = KT_REC_THREAD_NAME;
	rec.seq = kt_writer_next_seq(r->w);
	rec.tid = kfd_dispatch_tid();
	rec.ts = ts ? ts : kfd_dispatch_now();
	rec.u.thread_name.name = name;
	return kt_writer_append(r->w, &rec);
}

/*
 * The thread's first record in @r, taken at @ts (0: now): say who it is
 * first, at the same time, so that times do not go backwards in the file.
 */
void
kfd_rec_announce(struct kfd_recorder *r, uint64_t ts)
{
	char name[17] = "";

	/* The kernel's comm is at most 16 bytes with its NUL. */
	prctl(PR_GET_NAME, name, 0, 0, 0);
	kfd_rec_announced = r->id;
	rec_append_name(r, name, ts);
}

int
kfd_rec_append(struct kfd_recorder *r, struct kt_record *rec)
{
	if (__builtin_expect(kfd_rec_announced != r->id, 0))
		kfd_rec_announce(r, rec->ts);
	return kfd_rec_append_raw(r, rec);
}

int
kfd_rec_append_raw(struct kfd_recorder *r, struct kt_record *rec)
{
	rec->seq = kt_writer_next_seq(r->w);
	rec->tid = kfd_dispatch_tid();
	if (!rec->ts)
		rec->ts = kfd_dispatch_now();
	return kt_writer_append(r->w, rec);
}

int
kfd_recorder_append(struct kfd_recorder *r, struct kt_record *rec)
{
	if (!r || !rec)
		return -EINVAL;
	return kfd_rec_append(r, rec);
}

int
kfd_recorder_thread_name(struct kfd_recorder *r, const char *name)
{
	if (!r || !name)
		return -EINVAL;
	kfd_rec_announced = r->id;
	return rec_append_name(r, name, 0);
}

int
kfd_recorder_fdopen(int fd, const struct kfd_recorder_opts *opts,
		    struct kfd_recorder **out)
{
	struct kfd_recorder_opts defaults = { 0 };
	struct kfd_recorder *r;
	struct kt_header hdr;
	int ret;

	if (!out || fd < 0) {
		if (fd >= 0)
			close(fd);
		return -EINVAL;
	}
	if (!opts)
		opts = &defaults;
	r = calloc(1, sizeof(*r));
	if (!r) {
		close(fd);
		return -ENOMEM;
	}
	r->fd = fd;
	r->flags = opts->flags;
	r->buf_cap = opts->buf_cap ? opts->buf_cap : KFD_RECORDER_DEFAULT_CAP;
	r->id = atomic_fetch_add(&recorder_next_id, 1);
	if (opts->topology_root) {
		r->topology_root = strdup(opts->topology_root);
		if (!r->topology_root) {
			free(r);
			close(fd);
			return -ENOMEM;
		}
	}

	kt_header_init(&hdr, opts->producer ? opts->producer : "kfdtrace");
	if (r->flags & KFD_REC_NO_BUFFERS)
		hdr.flags |= KT_HDR_NO_BUFFERS;
	if (r->flags & KFD_REC_SIMULATED)
		hdr.flags |= KT_HDR_SIMULATED;
	if (r->flags & KFD_REC_SELECTED)
		hdr.flags |= KT_HDR_SELECTED;

	ret = kt_writer_fdopen(fd, &hdr, opts->writer, &r->w);
	if (ret) {
		free(r->topology_root);
		free(r);
		return ret;
	}
	if (!(r->flags & KFD_REC_NO_TOPOLOGY))
		kfd_recorder_topology(r, NULL);
	if (r->flags & (KFD_REC_CRASH_HANDLERS | KFD_REC_END_ON_SIGNAL))
		kfd_rec_crash_install(r->w, !!(r->flags & KFD_REC_END_ON_SIGNAL));
	*out = r;
	return 0;
}

int
kfd_recorder_open(const char *path, const struct kfd_recorder_opts *opts,
		  struct kfd_recorder **out)
{
	int fd;

	if (!path || !out)
		return -EINVAL;
	fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
		  0600);
	if (fd < 0)
		return -errno;
	return kfd_recorder_fdopen(fd, opts, out);
}

int
kfd_recorder_attach(struct kfd_recorder *r)
{
	int ret;

	if (!r)
		return -EINVAL;
	if (r->attached)
		return 0;
	ret = kfd_rec_hooks_attach(r);
	if (ret == 0)
		r->attached = 1;
	return ret;
}

void
kfd_recorder_detach(struct kfd_recorder *r)
{
	if (r && r->attached) {
		kfd_rec_hooks_detach(r);
		r->attached = 0;
	}
}

int
kfd_recorder_flush(struct kfd_recorder *r)
{
	if (!r)
		return -EINVAL;
	return kt_writer_flush(r->w);
}

int
kfd_recorder_close(struct kfd_recorder *r)
{
	int ret;

	if (!r)
		return 0;
	kfd_recorder_detach(r);
	kfd_rec_crash_forget(r->w);
	ret = kt_writer_close(r->w);
	free(r->topology_root);
	free(r);
	return ret;
}

void
kfd_recorder_abandon(struct kfd_recorder *r)
{
	if (!r)
		return;
	kfd_rec_crash_forget(r->w);
	/* The writer owns the fd, but its thread is not in this process;
	 * the fd is the only thing we can and must give back. */
	close(r->fd);
}

int
kfd_recorder_fd(const struct kfd_recorder *r)
{
	return r ? r->fd : -1;
}

struct kt_writer *
kfd_recorder_writer(struct kfd_recorder *r)
{
	return r ? r->w : NULL;
}

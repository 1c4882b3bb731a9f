/* SPDX-License-Identifier: MIT */
/*
 * The records that are not ioctls: opens (of /dev/kfd and render nodes,
 * the render node of a GPU replaced by that of its live pair), closes,
 * dups, mmaps (at the captured address) and munmaps. Each is reissued and
 * its result compared; the fd table (fds.c) maps captured fd numbers to
 * live fds.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <kfdtrace/decode.h>
#include <kfdtrace/recorder.h>

#include "replay_run.h"

/* The live render node standing for a captured one. */
static void
render_path(const struct rp_run *st, const char *cap, char *out, size_t len)
{
	const struct rp_match *mt = &st->r->match;
	const struct rp_model *m = &st->r->model;
	const char *p = strstr(cap, "renderD");
	unsigned int i;
	long minor;

	snprintf(out, len, "%s", cap);
	if (!p || !mt->have_live)
		return;
	minor = strtol(p + 7, NULL, 10);
	for (i = 0; i < mt->npairs; i++) {
		const struct rp_gpu_pair *g = &mt->pairs[i];

		if (g->cap_node < 0 || g->live_node < 0 ||
		    (long)m->topo.nodes[g->cap_node].drm_render_minor != minor)
			continue;
		snprintf(out, len, "%.*srenderD%" PRIu64, (int)(p - cap), cap,
			 mt->live.nodes[g->live_node].drm_render_minor);
		return;
	}
}

/*
 * Write what the replay did to the --record trace (st->recorder set): @r
 * is a copy of the captured record holding the live values; the recorder
 * numbers and times it itself.
 */
static void
record_replayed(struct rp_run *st, struct kt_record *r)
{
	r->seq = 0;
	r->ts = 0;
	kfd_recorder_append(st->recorder, r);
}

static void
check_result(struct rp_run *st, int64_t cret, int cerr, int64_t lret, int lerr)
{
	const char *cn = kfd_errno_name(cerr), *ln = kfd_errno_name(lerr);

	if ((cret < 0) == (lret < 0) && (cret >= 0 || cerr == lerr))
		return;
	if (st->o->verify == KFD_REPLAY_VERIFY_NONE)
		return;
	rp_diverge(st, "result", (uint64_t)cret, (uint64_t)cret, 0, (uint64_t)lret,
		   "captured %s, replayed %s", cret < 0 ? (cn ? cn : "error") : "ok",
		   lret < 0 ? (ln ? ln : "error") : "ok");
}

static void
run_open(struct rp_run *st, const struct kt_record *rec)
{
	const struct kt_open_rec *o = &rec->u.open;
	char path[512], safe[512];
	int fd, err = 0;

	st->cur_name = "open";
	/*
	 * Only device files, and only with flags that cannot create or
	 * truncate anything: a trace must not make the replayer write files.
	 */
	if (!o->path || !rp_device_path(o->path, o->file_kind)) {
		st->sum.not_replayed++;
		if (o->path && o->ret >= 0)
			rp_note(st, "%s is not a KFD or render-node path: not opened",
				kfd_text_safe(safe, sizeof(safe), o->path, 4096));
		return;
	}
	render_path(st, o->path, path, sizeof(path));
	if (strcmp(path, o->path) && st->o->verbose)
		rp_note(st, "%s opened as %s",
			kfd_text_safe(safe, sizeof(safe), o->path, 4096), path);
	fd = open(path, o->flags & (O_ACCMODE | O_CLOEXEC | O_NONBLOCK));
	if (fd < 0)
		err = errno;
	check_result(st, o->ret, o->err, fd, err);
	if (fd >= 0 && o->ret >= 0) {
		int32_t ofd = rp_ofd_new(st, o->file_kind,
				      o->file_kind == KFD_FILE_RENDER ? 0 : -1);

		rp_fd_bind(st, (int32_t)o->ret, fd, o->file_kind, ofd, 0);
	} else if (fd >= 0) {
		close(fd);
	}
	if (st->recorder) {
		struct kt_record r = *rec;

		r.u.open.path = path;
		r.u.open.ret = fd;
		r.u.open.err = err;
		record_replayed(st, &r);
	}
}

static void
run_close(struct rp_run *st, const struct kt_record *rec)
{
	int live = rp_fd_live(st, rec->u.close.fd), ret, err = 0;

	st->cur_name = "close";
	if (live < 0) {
		/* Inherited, or its open failed: nothing of ours to close. */
		if (rec->u.close.ret == 0)
			st->sum.not_replayed++;
		else
			check_result(st, rec->u.close.ret, rec->u.close.err, -1,
				     EBADF);
		return;
	}
	ret = close(live);
	if (ret < 0)
		err = errno;
	rp_fd_unbind(st, rec->u.close.fd);
	check_result(st, rec->u.close.ret, rec->u.close.err, ret, err);
	if (st->recorder) {
		struct kt_record r = *rec;

		r.u.close.fd = live;
		r.u.close.ret = ret;
		r.u.close.err = err;
		record_replayed(st, &r);
	}
}

static void
run_dup(struct rp_run *st, const struct kt_record *rec)
{
	const struct kt_dup_rec *d = &rec->u.dup;
	struct rp_fdent *old = rp_fd_get(st, d->oldfd);
	int nfd, err = 0, cloexec;

	st->cur_name = "dup";
	if (!old) {
		if (d->ret >= 0)
			st->sum.not_replayed++;
		else
			check_result(st, d->ret, d->err, -1, EBADF);
		return;
	}
	/*
	 * The captured number may be one of ours: any free number will do,
	 * the table maps it. dup2/dup3 close the target first.
	 */
	cloexec = d->kind == KT_FCNTL_DUPFD_CLOEXEC ||
		  (d->kind == KT_DUP3 && (d->flags & O_CLOEXEC));
	nfd = fcntl(old->live, cloexec ? F_DUPFD_CLOEXEC : F_DUPFD, 3);
	if (nfd < 0)
		err = errno;
	check_result(st, d->ret, d->err, nfd, err);
	if (nfd >= 0 && d->ret >= 0 && d->ret != d->oldfd && d->ret < RP_MAX_FD) {
		uint8_t kind = old->kind;
		int32_t ofd = old->ofd;
		struct rp_fdent *prev = rp_fd_get(st, (int32_t)d->ret);

		if (prev && !prev->from_ioctl) {
			close(prev->live);
			rp_fd_unbind(st, (int32_t)d->ret);
		}
		rp_fd_bind(st, (int32_t)d->ret, nfd, kind, ofd, 0);
	} else if (nfd >= 0) {
		/* dup2(fd, fd) changes nothing; a failed capture keeps nothing. */
		close(nfd);
	}
}

static void
run_mmap(struct rp_run *st, const struct kt_record *rec)
{
	const struct kt_mmap_rec *m = &rec->u.mmap;
	int live = rp_fd_live(st, m->fd), err = 0;
	int cap_ok = m->result != (uint64_t)(uintptr_t)MAP_FAILED;
	uint64_t off = m->offset;
	void *p;

	st->cur_name = "mmap";
	if (m->file_kind == KFD_FILE_KFD)
		off = rp_kfd_offset_xlate(st, m->offset);
	else if (m->file_kind == KFD_FILE_RENDER)
		off = rp_offset_xlate(st, m->offset);
	if (live < 0 && cap_ok) {
		rp_diverge(st, "fd", (uint32_t)m->fd, (uint32_t)m->fd, 0,
			   (uint32_t)-1, "no live fd stands for it");
		return;
	}
	p = rp_as_mmap(&st->as, cap_ok ? m->result : m->addr, m->len, m->prot,
		       m->flags, live, off, st->out);
	if (p == MAP_FAILED)
		err = errno;
	check_result(st, cap_ok ? 0 : -1, m->err, p == MAP_FAILED ? -1 : 0, err);
	if (p != MAP_FAILED && !cap_ok) {
		/* The capture failed here: do not keep what it did not have. */
		rp_as_munmap(&st->as, (uint64_t)(uintptr_t)p, m->len);
	}
	if (p != MAP_FAILED && cap_ok)
		st->sum.cpu_mappings++;
	if (st->recorder) {
		struct kt_record r = *rec;

		r.u.mmap.fd = live;
		r.u.mmap.offset = off;
		r.u.mmap.result = (uint64_t)(uintptr_t)p;
		r.u.mmap.err = err;
		record_replayed(st, &r);
	}
}

static void
run_munmap(struct rp_run *st, const struct kt_record *rec)
{
	const struct kt_munmap_rec *m = &rec->u.munmap;
	int ret = 0, err = 0;

	st->cur_name = "munmap";
	if ((m->addr & (RP_PAGE - 1)) || !m->len) {
		/* Invalid arguments: let the kernel say so, touching nothing. */
		ret = munmap((void *)(uintptr_t)m->addr, m->len ? m->len : 0);
		if (ret < 0)
			err = errno;
	} else {
		rp_as_munmap(&st->as, m->addr, m->len);
	}
	check_result(st, m->ret, m->err, ret, err);
	if (st->recorder) {
		struct kt_record r = *rec;

		r.u.munmap.addr = rp_as_xlate(&st->as, m->addr);
		r.u.munmap.ret = ret;
		r.u.munmap.err = err;
		record_replayed(st, &r);
	}
}

void
rp_run_sys(struct rp_run *st, const struct kt_record *rec)
{
	switch (rec->type) {
	case KT_REC_OPEN:
		run_open(st, rec);
		break;
	case KT_REC_CLOSE:
		run_close(st, rec);
		break;
	case KT_REC_DUP:
		run_dup(st, rec);
		break;
	case KT_REC_MMAP:
		run_mmap(st, rec);
		break;
	case KT_REC_MUNMAP:
		run_munmap(st, rec);
		break;
	default:
		break;
	}
}

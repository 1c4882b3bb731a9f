/* SPDX-License-Identifier: MIT */
/*
 * The object model: one pass over the trace in replay order that records
 * what the captured process created and used (device fds, KFD processes,
 * memory objects, queues, events, SVM ranges, dma-bufs, CPU mappings) and
 * which CPU address ranges the replay needs at their captured addresses.
 * Only captured values are stored here; the live side lives in the run.
 *
 * Every array is bounded (RP_MAX_OBJS); a trace with more objects is
 * modelled up to the bound and counted in 'overflow'.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include <kfdtrace/kfd_abi.h>

#include "replay_model.h"
#include "replay_stream.h"

static int
fd_table_grow(struct rp_model *m, int32_t fd)
{
	int nlen;
	int32_t *n;

	if (fd < 0 || fd >= RP_MAX_FD)
		return -1;
	if (fd < m->fd_now_len)
		return 0;
	nlen = m->fd_now_len ? m->fd_now_len : 64;
	while (nlen <= fd)
		nlen *= 2;
	n = realloc(m->fd_now, (size_t)nlen * sizeof(*n));
	if (!n)
		return -1;
	for (int i = m->fd_now_len; i < nlen; i++)
		n[i] = -1;
	m->fd_now = n;
	m->fd_now_len = nlen;
	return 0;
}

static void
fd_close(struct rp_model *m, int32_t fd, uint64_t seq)
{
	if (fd < 0 || fd >= m->fd_now_len || m->fd_now[fd] < 0)
		return;
	RP_AT(&m->fds, struct rp_m_fd, m->fd_now[fd])->close_seq = seq;
	m->fd_now[fd] = -1;
}

/* A new fd entry (the number's previous life ends here). */
static int32_t
fd_new(struct rp_model *m, int32_t fd, uint8_t origin, uint8_t kind,
       int32_t ofd, uint64_t seq)
{
	struct rp_m_fd *e;

	if (fd_table_grow(m, fd) < 0)
		return -1;
	fd_close(m, fd, seq);
	e = rp_vec_push(&m->fds);
	if (!e) {
		m->overflow++;
		return -1;
	}
	e->fd = fd;
	e->origin = origin;
	e->kind = kind;
	e->ofd = ofd;
	e->open_seq = seq;
	e->close_seq = UINT64_MAX;
	m->fd_now[fd] = (int32_t)(m->fds.n - 1);
	return m->fd_now[fd];
}

/* The primary KFD process: every plain open of /dev/kfd shares it. */
static int32_t
primary_proc(struct rp_model *m, int32_t fd, uint64_t seq)
{
	size_t i;

	for (i = 0; i < m->procs.n; i++)
		if (!RP_AT(&m->procs, struct rp_m_proc, i)->secondary)
			return (int32_t)i;
	return rp_model_proc_new(m, fd, seq, 0);
}

static int32_t
render_minor(const char *path)
{
	const char *p = path ? strstr(path, "renderD") : NULL;
	long v;

	if (!p)
		return -1;
	v = strtol(p + 7, NULL, 10);
	return v >= 0 && v < 1 << 20 ? (int32_t)v : -1;
}

static int32_t
ofd_new(struct rp_model *m, uint8_t kind, const char *path, int32_t fd,
	uint64_t seq)
{
	struct rp_m_ofd *o = rp_vec_push(&m->ofds);

	if (!o) {
		m->overflow++;
		return -1;
	}
	o->kind = kind;
	o->fd = fd;
	o->seq = seq;
	o->minor = kind == KFD_FILE_RENDER ? render_minor(path) : -1;
	o->proc = kind == KFD_FILE_KFD ? primary_proc(m, fd, seq) : -1;
	if (path)
		snprintf(o->path, sizeof(o->path), "%s", path);
	return (int32_t)(m->ofds.n - 1);
}

static int32_t
model_fd_for_ioctl(struct rp_model *m, int32_t fd, uint8_t kind, uint64_t seq)
{
	int32_t i = rp_model_fd(m, fd), ofd;

	if (i >= 0)
		return i;
	ofd = ofd_new(m, kind, kind == KFD_FILE_KFD ? "/dev/kfd" : NULL, fd, seq);
	return fd_new(m, fd, RP_FD_INHERITED, kind, ofd, seq);
}

static void
model_open(struct rp_model *m, const struct kt_record *rec)
{
	const struct kt_open_rec *o = &rec->u.open;
	int32_t ofd;

	if (o->ret < 0 || o->ret >= RP_MAX_FD)
		return;
	ofd = ofd_new(m, o->file_kind, o->path, (int32_t)o->ret, rec->seq);
	fd_new(m, (int32_t)o->ret, RP_FD_OPEN, o->file_kind, ofd, rec->seq);
}

static void
model_dup(struct rp_model *m, const struct kt_record *rec)
{
	const struct kt_dup_rec *d = &rec->u.dup;
	int32_t old = rp_model_fd(m, d->oldfd);
	struct rp_m_fd *o;

	if (d->ret < 0 || d->ret >= RP_MAX_FD || old < 0)
		return;
	o = RP_AT(&m->fds, struct rp_m_fd, old);
	fd_new(m, (int32_t)d->ret, RP_FD_DUP, o->kind, o->ofd, rec->seq);
}

static uint8_t
classify_kfd_offset(uint64_t off)
{
	switch (KFD_ABI_MMAP_GET_TYPE(off)) {
	case KFD_ABI_MMAP_TYPE_DOORBELL:
		return RP_MAP_DOORBELL;
	case KFD_ABI_MMAP_TYPE_EVENTS:
		return RP_MAP_EVENTS;
	case KFD_ABI_MMAP_TYPE_RESERVED_MEM:
		return RP_MAP_RESERVED;
	default:
		return RP_MAP_MMIO;
	}
}

static void
model_mmap(struct rp_model *m, const struct kt_record *rec)
{
	const struct kt_mmap_rec *mm = &rec->u.mmap;
	struct rp_m_mmap *e = rp_vec_push(&m->mmaps);
	uint64_t v;

	if (!e) {
		m->overflow++;
		return;
	}
	e->ok = mm->result != (uint64_t)(uintptr_t)MAP_FAILED;
	e->addr = e->ok ? mm->result : mm->addr;
	e->len = mm->len;
	e->offset = mm->offset;
	e->prot = mm->prot;
	e->flags = mm->flags;
	e->fd = mm->fd;
	e->kind = mm->file_kind;
	e->seq = rec->seq;
	e->unmap_seq = UINT64_MAX;
	e->bo = -1;
	if (mm->file_kind == KFD_FILE_KFD) {
		e->what = classify_kfd_offset(mm->offset);
		/* An MMIO remap BO is mapped through /dev/kfd. */
		if (rp_map_get(&m->idx, RP_K_MOFF, 0, mm->offset, &v))
			e->bo = (int32_t)v;
	} else if (mm->file_kind == KFD_FILE_RENDER) {
		e->what = RP_MAP_GEM;
		if (rp_map_get(&m->idx, RP_K_MOFF, 0, mm->offset, &v)) {
			e->what = RP_MAP_BO;
			e->bo = (int32_t)v;
		}
	} else {
		e->what = RP_MAP_OTHER;
	}
	if (e->ok || (mm->flags & (MAP_FIXED | MAP_FIXED_NOREPLACE)))
		rp_model_add_range(m, e->addr, e->len, RP_RANGE_MMAP);
}

static void
model_munmap(struct rp_model *m, const struct kt_record *rec)
{
	uint64_t a = rec->u.munmap.addr, e = a + rec->u.munmap.len;
	size_t i;

	if (rec->u.munmap.ret != 0)
		return;
	for (i = 0; i < m->mmaps.n; i++) {
		struct rp_m_mmap *mm = RP_AT(&m->mmaps, struct rp_m_mmap, i);

		if (mm->ok && mm->unmap_seq == UINT64_MAX && mm->addr < e &&
		    a < mm->addr + mm->len)
			mm->unmap_seq = rec->seq;
	}
}

static void
model_xfer(struct rp_model *m, const struct kt_record *rec)
{
	const struct kt_fd_transfer_rec *x = &rec->u.xfer;
	struct rp_m_xfer *mx = rp_vec_push(&m->xfers);

	if (!mx) {
		m->overflow++;
		return;
	}
	mx->seq = rec->seq;
	mx->ts = rec->ts;
	mx->exit = kt_record_end(rec);
	mx->ino = x->ino;
	mx->peer_ino = x->peer_ino;
	mx->peer_pid = x->peer_pid;
	mx->dir = x->dir;
	mx->flags = x->flags;
	mx->ret = x->ret;
	mx->nfds = x->nfds;
	snprintf(mx->name, sizeof(mx->name), "%s", x->name ? x->name : "");
	snprintf(mx->peer_name, sizeof(mx->peer_name), "%s",
		 x->peer_name ? x->peer_name : "");
}

/* The span of @rec's thread grows to @rec. */
static void
thread_span(struct rp_model *m, const struct kt_record *rec)
{
	struct rp_m_thread *t;
	uint64_t v;

	if (rp_map_get(&m->idx, RP_K_MTHREAD, 0, rec->tid, &v)) {
		t = RP_AT(&m->threads, struct rp_m_thread, v);
	} else {
		t = rp_vec_push(&m->threads);
		if (!t)
			return;
		t->tid = rec->tid;
		t->first = rec->ts;
		rp_map_put(&m->idx, RP_K_MTHREAD, 0, rec->tid, m->threads.n - 1);
	}
	if (rec->ts < t->first)
		t->first = rec->ts;
	if (rp_rec_exit(rec) > t->last_exit)
		t->last_exit = rp_rec_exit(rec);
	t->nrec++;
}

/*
 * The KFD process of a submit record's file, while that fd is open: queue
 * ids are per process (rp_model_submit_proc()).
 */
static void
model_submit(struct rp_model *m, const struct kt_record *rec)
{
	int32_t i = rp_model_fd(m, rec->u.submit.fd), ofd;

	if (i < 0)
		return;
	ofd = RP_AT(&m->fds, struct rp_m_fd, i)->ofd;
	if (ofd < 0 || RP_AT(&m->ofds, struct rp_m_ofd, ofd)->proc < 0)
		return;
	rp_map_put(&m->idx, RP_K_MSUBMIT, 0, rec->seq,
		   (uint64_t)RP_AT(&m->ofds, struct rp_m_ofd, ofd)->proc + 1);
}

int32_t
rp_model_submit_proc(const struct rp_model *m, uint64_t seq)
{
	uint64_t v;

	return rp_map_get(&m->idx, RP_K_MSUBMIT, 0, seq, &v) ? (int32_t)(v - 1) : -1;
}

static void
model_record(struct rp_model *m, const struct kt_record *rec)
{
	unsigned int i;

	m->nrec++;
	if (rec->type < KT_REC_TYPE_MAX)
		m->nrec_type[rec->type]++;
	if (m->nrec == 1 || rec->seq < m->first_seq)
		m->first_seq = rec->seq;
	if (rec->seq > m->last_seq)
		m->last_seq = rec->seq;
	if (rec->ts && (!m->first_ts || rec->ts < m->first_ts))
		m->first_ts = rec->ts;
	if (rec->ts > m->last_ts)
		m->last_ts = rec->ts;
	/* The threads that call the device (a writer's END is not one). */
	for (i = 0; i < m->nthreads && rp_actionable(rec->type); i++)
		if (m->tids[i] == rec->tid)
			break;
	if (rp_actionable(rec->type) && i == m->nthreads && m->nthreads < 64)
		m->tids[m->nthreads++] = rec->tid;
	if (rp_actionable(rec->type))
		thread_span(m, rec);

	switch (rec->type) {
	case KT_REC_TOPOLOGY:
		if (!m->have_topo) {
			kt_topo_parse(rec->u.topology.files,
				      rec->u.topology.nfiles, &m->topo);
			m->have_topo = 1;
		}
		break;
	case KT_REC_OPEN:
		model_open(m, rec);
		break;
	case KT_REC_CLOSE:
		if (rec->u.close.ret == 0)
			fd_close(m, rec->u.close.fd, rec->seq);
		break;
	case KT_REC_DUP:
		model_dup(m, rec);
		break;
	case KT_REC_MMAP:
		model_mmap(m, rec);
		break;
	case KT_REC_MUNMAP:
		model_munmap(m, rec);
		break;
	case KT_REC_IOCTL:
		model_fd_for_ioctl(m, rec->u.ioctl.fd, rec->u.ioctl.file_kind,
				   rec->seq);
		rp_model_ioctl(m, rec);
		break;
	case KT_REC_FD_TRANSFER:
		model_xfer(m, rec);
		break;
	case KT_REC_SUBMIT:
		model_submit(m, rec);
		break;
	case KT_REC_FORK:
		/* The child's own record: it names the parent. */
		if (!rec->u.fork.child_pid && !m->fork_parent)
			m->fork_parent = rec->u.fork.parent_pid;
		else if (rec->u.fork.child_pid && m->nforked < RP_MAX_FORKED)
			m->forked[m->nforked++] = rec->u.fork.child_pid;
		break;
	default:
		break;
	}
}

/*
 * After a pass with order violations: read the trace again for a
 * dependency cycle (order.c). Return: 1 found, 0 none, <0 error.
 */
static int
order_cycle(struct rp_model *m, const char *path)
{
	struct rp_model *scratch;
	int r;

	if (!m->ndeps_total)
		return 0;
	scratch = malloc(sizeof(*scratch));
	if (!scratch)
		return -ENOMEM;
	/* The same pass again, keeping every creation -> use edge. */
	r = rp_model_build_ex(scratch, path, NULL, 0, 1);
	if (r == 0) {
		r = rp_order_search(scratch);
		if (r > 0) {
			memcpy(m->cycle, scratch->cycle, sizeof(m->cycle));
			m->ncycle = scratch->ncycle;
			m->cycle_len = scratch->cycle_len;
		}
	}
	rp_model_free(scratch);
	free(scratch);
	return r;
}

int
rp_model_build(struct rp_model *m, const char *path, char *err, size_t errlen)
{
	int r = rp_model_build_ex(m, path, err, errlen, 0);

	/*
	 * A trace recorded with --only or --except lacks calls the kernel
	 * state of those it kept depends on: replaying it would report
	 * divergences that are the recording's choice. Refused, unless its
	 * END says nothing was left out.
	 */
	if (r == 0 && (m->hdr.flags & KT_HDR_SELECTED) &&
	    (m->left_out || !m->have_end)) {
		if (err && m->have_end)
			snprintf(err, errlen, "%s: a partial trace: recorded "
				 "with --only/--except, %llu ioctls left out; "
				 "a replay needs every call (record again "
				 "without them)", path,
				 (unsigned long long)m->left_out);
		else if (err)
			snprintf(err, errlen, "%s: a partial trace: recorded "
				 "with --only/--except, and with no END "
				 "record to say how many ioctls were left "
				 "out; a replay needs every call", path);
		return -EINVAL;
	}
	if (r == 0 && m->ndeps_total) {
		r = order_cycle(m, path);
		if (r < 0 && err)
			snprintf(err, errlen, "%s: %s", path, kt_strerror(r));
		r = r < 0 ? r : 0;
	}
	return r;
}

static int
cmp_set(const void *a, const void *b)
{
	uint64_t x = ((const struct rp_m_set *)a)->ts;
	uint64_t y = ((const struct rp_m_set *)b)->ts;

	return x < y ? -1 : x > y;
}

int
rp_model_build_ex(struct rp_model *m, const char *path, char *err,
		  size_t errlen, int edges)
{
	struct kt_reader_status st;
	const struct kt_record *rec;
	struct rp_stream s;
	int r;

	memset(m, 0, sizeof(*m));
	rp_vec_init(&m->ofds, sizeof(struct rp_m_ofd));
	rp_vec_init(&m->fds, sizeof(struct rp_m_fd));
	rp_vec_init(&m->procs, sizeof(struct rp_m_proc));
	rp_vec_init(&m->bos, sizeof(struct rp_m_bo));
	rp_vec_init(&m->queues, sizeof(struct rp_m_queue));
	rp_vec_init(&m->events, sizeof(struct rp_m_event));
	rp_vec_init(&m->sets, sizeof(struct rp_m_set));
	rp_vec_init(&m->aged, sizeof(struct rp_m_aged));
	rp_vec_init(&m->svms, sizeof(struct rp_m_svm));
	rp_vec_init(&m->mmaps, sizeof(struct rp_m_mmap));
	rp_vec_init(&m->dmabufs, sizeof(struct rp_m_dmabuf));
	rp_vec_init(&m->xfers, sizeof(struct rp_m_xfer));
	rp_vec_init(&m->gems, sizeof(struct rp_m_gem));
	rp_vec_init(&m->ranges, sizeof(struct rp_m_range));
	rp_vec_init(&m->threads, sizeof(struct rp_m_thread));
	m->events_page_bo = -1;
	rp_order_init(m);
	m->want_edges = edges;

	/* Captures number from 0; the run starts at what this finds. */
	r = rp_stream_open(&s, path, 0);
	if (r < 0) {
		if (err)
			snprintf(err, errlen, "%s: %s", path, kt_strerror(r));
		return r;
	}
	m->hdr = *kt_reader_header(s.reader);
	while ((r = rp_stream_next(&s, &rec)) > 0)
		model_record(m, rec);
	rp_order_finish(m);
	rp_model_varies_finish(m);
	if (m->sets.n)
		qsort(m->sets.data, m->sets.n, sizeof(struct rp_m_set), cmp_set);
	rp_age_swaps(m);
	kt_reader_get_status(s.reader, &st);
	m->integrity = st.integrity;
	m->have_end = st.end_records || st.integrity == KT_INTEGRITY_OK ||
		      st.integrity == KT_INTEGRITY_INCOMPLETE;
	m->left_out = st.left_out;
	snprintf(m->integrity_msg, sizeof(m->integrity_msg), "%s", st.message);
	rp_stream_close(&s);
	if (r < 0) {
		if (err)
			snprintf(err, errlen, "%s: %s", path, kt_strerror(r));
		return r;
	}
	return 0;
}

void
rp_model_free(struct rp_model *m)
{
	rp_vec_free(&m->ofds);
	rp_vec_free(&m->fds);
	rp_vec_free(&m->procs);
	rp_vec_free(&m->bos);
	rp_vec_free(&m->queues);
	rp_vec_free(&m->events);
	rp_vec_free(&m->sets);
	rp_vec_free(&m->aged);
	rp_vec_free(&m->svms);
	rp_vec_free(&m->mmaps);
	rp_vec_free(&m->dmabufs);
	rp_vec_free(&m->xfers);
	rp_vec_free(&m->gems);
	rp_vec_free(&m->ranges);
	rp_vec_free(&m->threads);
	rp_map_free(&m->idx);
	rp_order_free(m);
	free(m->fd_now);
	m->fd_now = NULL;
	m->fd_now_len = 0;
}

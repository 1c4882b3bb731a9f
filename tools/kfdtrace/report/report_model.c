/* SPDX-License-Identifier: MIT */
/*
 * Building the report model in one pass, in sequence order.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "core/cli.h"
#include "report/report_model.h"
#include "kfdtrace/decode.h"
#include "kfdtrace/schema.h"

/* 10^(1/4): bins are a quarter decade wide (no libm needed). */
#define RM_BIN_STEP 1.7782794100389228

double
rm_lat_bin_lo(unsigned int i)
{
	double v = RM_LAT_BIN_MIN_NS;

	while (i--)
		v *= RM_BIN_STEP;
	return v;
}

uint64_t
rm_percentile(const uint64_t *v, size_t n, unsigned int permille)
{
	size_t r = (n * permille + 999) / 1000;

	if (!n)
		return 0;
	return v[(r ? r : 1) - 1];
}

/* Grow an array of @size-byte items to hold one more. */
static int
grow(void **v, size_t n, size_t *cap, size_t size)
{
	size_t nc;
	void *p;

	if (n < *cap)
		return 0;
	nc = *cap ? *cap * 2 : 16;
	p = realloc(*v, nc * size);
	if (!p)
		return -1;
	*v = p;
	*cap = nc;
	return 0;
}

static struct rm_thread *
thread_for(struct report_model *m, uint32_t tid, uint64_t ts)
{
	struct rm_thread *p;
	size_t i;
	int rc = cli_index_for(&m->thread_of, 0, tid, (void **)&m->threads,
			       &m->nthreads, &m->capthreads,
			       sizeof(*m->threads), &i);

	if (rc < 0)
		return NULL;
	p = &m->threads[i];
	if (!rc) {
		p->tid = tid;
		p->first = ts;
		if (i < RM_STRIP_THREADS) {
			m->strips[i] = calloc(1, sizeof(*m->strips[i]));
			if (!m->strips[i])
				return NULL;
		}
	}
	if (ts < p->first)
		p->first = ts;
	if (ts > p->last)
		p->last = ts;
	return p;
}

static struct rm_kind *
kind_for(struct report_model *m, const struct kfd_ioctl_desc *desc,
	 uint32_t request)
{
	uint32_t req = desc ? desc->request : request, tag;
	uint64_t key = rm_kind_key(!!desc, req, &tag);
	struct rm_kind *p;
	size_t i;
	int rc = cli_index_for(&m->kind_of, tag, key, (void **)&m->kinds,
			       &m->nkinds, &m->capkinds, sizeof(*m->kinds), &i);

	if (rc < 0)
		return NULL;
	p = &m->kinds[i];
	if (rc)
		return p;
	if (desc)
		snprintf(p->name, sizeof(p->name), "%s", desc->name);
	else
		snprintf(p->name, sizeof(p->name), "ioctl 0x%08x", request);
	p->known = !!desc;
	p->request = req;
	return p;
}

static int
kind_add_latency(struct rm_kind *k, uint64_t ns)
{
	double hi = RM_LAT_BIN_MIN_NS * RM_BIN_STEP;
	int bin = 0;

	if (grow((void **)&k->lat, k->nlat, &k->cap, sizeof(*k->lat)))
		return -1;
	k->lat[k->nlat++] = ns;
	while (bin < RM_LAT_BINS - 1 && (double)ns >= hi) {
		bin++;
		hi *= RM_BIN_STEP;
	}
	k->bins[bin]++;
	return 0;
}

static struct rm_series *
series_for(struct report_model *m, uint32_t gpu_id, enum obj_heap heap)
{
	struct rm_series *p;
	size_t i;
	int rc = cli_index_for(&m->series_of, (uint32_t)heap, gpu_id,
			       (void **)&m->series, &m->nseries,
			       &m->capseries, sizeof(*m->series), &i);

	if (rc < 0)
		return NULL;
	p = &m->series[i];
	if (!rc) {
		p->gpu_id = gpu_id;
		p->heap = heap;
	}
	return p;
}

static int
series_add(struct report_model *m, const struct obj_mem *mem, uint64_t t)
{
	struct rm_series *s = series_for(m, mem->gpu_id, mem->heap);

	if (!s)
		return -1;
	/* Several changes at one instant: keep the last level. */
	if (s->n && s->pts[s->n - 1].t == t) {
		s->pts[s->n - 1].live = mem->live;
	} else {
		if (grow((void **)&s->pts, s->n, &s->cap, sizeof(*s->pts)))
			return -1;
		s->pts[s->n].t = t;
		s->pts[s->n++].live = mem->live;
	}
	if (mem->live > s->peak)
		s->peak = mem->live;
	return 0;
}

static int
object_changed(struct report_model *m, const struct obj_change *c, uint64_t t)
{
	struct obj_val v = { .size = m->nspans };
	struct obj_val *idx;
	struct rm_span *sp;

	switch (c->kind) {
	case OBJ_BO_NEW:
	case OBJ_QUEUE_NEW:
	case OBJ_EVENT_NEW:
		if (grow((void **)&m->spans, m->nspans, &m->capspans,
			 sizeof(*m->spans)) ||
		    kc_u64map_put(&m->span_of, 0, c->val.seq, &v))
			return -1;
		sp = &m->spans[m->nspans++];
		memset(sp, 0, sizeof(*sp));
		sp->t0 = t;
		sp->key = c->key;
		sp->size = c->val.size;
		sp->seq = c->val.seq;
		sp->gpu_id = c->val.gpu_id;
		sp->kind = (uint16_t)c->val.kind;
		sp->what = c->kind == OBJ_BO_NEW ? RM_BO :
			   c->kind == OBJ_QUEUE_NEW ? RM_QUEUE : RM_EVENT;
		break;
	default:
		idx = kc_u64map_get(&m->span_of, 0, c->val.seq);
		if (idx) {
			m->spans[idx->size].t1 = t;
			kc_u64map_del(&m->span_of, 0, c->val.seq, NULL);
		}
		break;
	}
	if (c->mem && series_add(m, c->mem, t))
		return -1;
	return 0;
}

static int
keep_error(struct report_model *m, const struct kt_record *rec,
	   const struct rm_kind *k)
{
	struct kfd_decode_opts o = { .start_ns = m->hdr.start_monotonic };
	struct rm_error *e;
	struct kt_strbuf sb;

	if (m->nerrors >= RM_MAX_ERRORS)
		return 0;
	if (!m->errors) {
		m->errors = calloc(RM_MAX_ERRORS, sizeof(*m->errors));
		if (!m->errors)
			return -1;
	}
	kt_strbuf_init(&sb);
	if (kfd_decode_text(&sb, rec, &o) || !sb.data) {
		kt_strbuf_release(&sb);
		return -1;
	}
	e = &m->errors[m->nerrors++];
	e->seq = rec->seq;
	e->ts = rec->ts;
	e->tid = rec->tid;
	e->err = rec->u.ioctl.err;
	memcpy(e->name, k->name, sizeof(e->name));
	e->text = sb.data;		/* ownership moves to the model */
	return 0;
}

uint64_t
rm_time_origin(const struct kt_header *h)
{
	/* A run starts before its processes open their traces. */
	if (h->run_start && h->run_start < h->start_monotonic)
		return h->run_start;
	return h->start_monotonic;
}

/* Widen a strip's bins (pairs merged) until @end falls inside them. */
static void
strip_widen(struct rm_strip *s, uint64_t end)
{
	unsigned int i;

	while (end - s->t0 > s->ns * RM_STRIP_BINS) {
		for (i = 0; i < RM_STRIP_BINS / 2; i++)
			s->bins[i] = s->bins[2 * i] + s->bins[2 * i + 1];
		memset(s->bins + RM_STRIP_BINS / 2, 0,
		       RM_STRIP_BINS / 2 * sizeof(*s->bins));
		s->ns *= 2;
	}
}

/* Add the call [@a, @b) to a strip. */
static void
strip_add(struct rm_strip *s, uint64_t a, uint64_t b)
{
	uint64_t i, lo, hi;

	if (b <= a)
		return;
	if (!s->ns) {
		s->t0 = a;
		s->ns = RM_STRIP_BIN0_NS;
	}
	/* A call that entered before the first one seen (records come in
	 * sequence order, not time order) counts from the first bin. */
	if (a < s->t0)
		a = s->t0;
	if (b <= a)
		return;
	strip_widen(s, b);
	for (i = (a - s->t0) / s->ns;
	     i < RM_STRIP_BINS && s->t0 + i * s->ns < b; i++) {
		lo = s->t0 + i * s->ns;
		hi = lo + s->ns;
		s->bins[i] += (b < hi ? b : hi) - (a > lo ? a : lo);
	}
}

double
rm_strip_busy(const struct rm_strip *s, uint64_t t0, uint64_t t1)
{
	double sum = 0;
	uint64_t i, lo, hi, a, b;

	if (!s->ns || t1 <= t0 || t1 <= s->t0)
		return 0;
	i = t0 > s->t0 ? (t0 - s->t0) / s->ns : 0;
	for (; i < RM_STRIP_BINS; i++) {
		lo = s->t0 + i * s->ns;
		hi = lo + s->ns;
		if (lo >= t1)
			break;
		a = t0 > lo ? t0 : lo;
		b = t1 < hi ? t1 : hi;
		if (b > a && s->bins[i])
			sum += (double)s->bins[i] * (double)(b - a) /
			       (double)s->ns;
	}
	return sum;
}

/* Outliers form a min-heap on duration (ties: the later call is less). */
static int
outlier_less(const struct rm_outlier *x, const struct rm_outlier *y)
{
	if (x->call.dur != y->call.dur)
		return x->call.dur < y->call.dur;
	return x->call.seq > y->call.seq;
}

static void
outlier_sift(struct rm_outlier *h, size_t n, size_t i)
{
	struct rm_outlier tmp;

	for (;;) {
		size_t l = 2 * i + 1, r = l + 1, m = i;

		if (l < n && outlier_less(&h[l], &h[m]))
			m = l;
		if (r < n && outlier_less(&h[r], &h[m]))
			m = r;
		if (m == i)
			return;
		tmp = h[i];
		h[i] = h[m];
		h[m] = tmp;
		i = m;
	}
}

/*
 * Keep @c among the slowest calls when it is one, with its decoded text
 * and the calls before it; decoding only what enters keeps a million
 * calls cheap (about RM_OUTLIERS * ln(calls) of them enter).
 */
static int
outlier_offer(struct report_model *m, const struct kt_record *rec,
	      const struct rm_call *c, const struct rm_thread *th)
{
	struct kfd_decode_opts o = { .start_ns = m->hdr.start_monotonic };
	struct rm_outlier cand, *slot;
	struct kt_strbuf sb;
	uint64_t k, from;
	size_t i;

	/* Most calls are not among the slowest: a look at the heap's top
	 * and nothing more (the same order as outlier_less()). */
	if (m->noutliers == RM_OUTLIERS &&
	    (c->dur < m->outliers[0].call.dur ||
	     (c->dur == m->outliers[0].call.dur &&
	      c->seq >= m->outliers[0].call.seq)))
		return 0;
	memset(&cand, 0, sizeof(cand));
	cand.call = *c;
	if (!m->outliers) {
		m->outliers = calloc(RM_OUTLIERS, sizeof(*m->outliers));
		if (!m->outliers)
			return -1;
	}
	kt_strbuf_init(&sb);
	if (kfd_decode_text(&sb, rec, &o) || !sb.data) {
		kt_strbuf_release(&sb);
		return -1;
	}
	from = m->nring > RM_BEFORE ? m->nring - RM_BEFORE : 0;
	for (k = from; k < m->nring; k++)
		cand.before[cand.nbefore++] = m->ring[k % RM_BEFORE];
	cand.text = sb.data;
	memcpy(cand.thread, th->name, sizeof(cand.thread));
	if (m->noutliers < RM_OUTLIERS) {
		/* Sift up. */
		i = m->noutliers++;
		m->outliers[i] = cand;
		while (i && outlier_less(&m->outliers[i],
					 &m->outliers[(i - 1) / 2])) {
			struct rm_outlier tmp = m->outliers[i];

			m->outliers[i] = m->outliers[(i - 1) / 2];
			m->outliers[(i - 1) / 2] = tmp;
			i = (i - 1) / 2;
		}
		return 0;
	}
	slot = &m->outliers[0];
	free(slot->text);
	*slot = cand;
	outlier_sift(m->outliers, m->noutliers, 0);
	return 0;
}

int
rm_cmp_outlier(const void *a, const void *b)
{
	const struct rm_outlier *x = a, *y = b;

	if (x->call.dur != y->call.dur)
		return x->call.dur > y->call.dur ? -1 : 1;
	return x->call.seq < y->call.seq ? -1 : x->call.seq > y->call.seq;
}

static int
model_ioctl(struct report_model *m, const struct kt_record *rec,
	    struct rm_thread *th)
{
	const struct kt_ioctl_rec *io = &rec->u.ioctl;
	struct obj_change ch[OBJ_MAX_CHANGES];
	const struct kfd_ioctl_desc *desc;
	uint64_t end = io->t_exit >= rec->ts ? io->t_exit : rec->ts;
	struct rm_kind *k;
	unsigned int n, i;

	m->ioctls++;
	th->ioctls++;
	desc = kt_ioctl_row(io);
	k = kind_for(m, desc, io->request);
	if (!k)
		return -1;
	k->count++;
	if (io->t_exit >= rec->ts) {
		struct rm_call c = {
			.seq = rec->seq, .ts = rec->ts,
			.dur = io->t_exit - rec->ts, .tid = rec->tid,
			.ret = io->ret, .err = io->err,
		};

		memcpy(c.name, k->name, sizeof(c.name));
		if (outlier_offer(m, rec, &c, th))
			return -1;
		m->ring[m->nring++ % RM_BEFORE] = c;
		if (th - m->threads < RM_STRIP_THREADS)
			strip_add(m->strips[th - m->threads], rec->ts,
				  io->t_exit);
		th->busy_ns += io->t_exit - rec->ts;
		/* A thread is active until its last call returns, not just
		 * until the last call it entered. */
		if (io->t_exit > th->last)
			th->last = io->t_exit;
		if (kind_add_latency(k, io->t_exit - rec->ts))
			return -1;
	}
	if (end > m->t_last)
		m->t_last = end;
	if (io->ret < 0) {
		m->failed++;
		k->failed++;
		th->failed++;
		if (keep_error(m, rec, k))
			return -1;
	}
	kt_ioctl_version(desc, io, &m->abi_major, &m->abi_minor);
	n = obj_tracker_ioctl(&m->objs, rec, desc, ch);
	for (i = 0; i < n; i++)
		if (object_changed(m, &ch[i], end))
			return -1;
	return m->objs.oom ? -1 : 0;
}

static int
model_emit(void *ctx, const struct kt_record *rec)
{
	struct report_model *m = ctx;
	struct rm_thread *th;

	m->records++;
	if (rec->type < KT_REC_TYPE_MAX)
		m->per_type[rec->type]++;
	if (rec->type == KT_REC_END) {
		m->end_seen = 1;
		return 0;
	}
	if (!m->t_first || rec->ts < m->t_first)
		m->t_first = rec->ts;
	if (rec->ts > m->t_last)
		m->t_last = rec->ts;
	th = thread_for(m, rec->tid, rec->ts);
	if (!th)
		goto oom;
	switch (rec->type) {
	case KT_REC_IOCTL:
		if (model_ioctl(m, rec, th))
			goto oom;
		return 0;
	case KT_REC_THREAD_NAME:
		snprintf(th->name, sizeof(th->name), "%s",
			 rec->u.thread_name.name ? rec->u.thread_name.name : "");
		return 0;
	case KT_REC_TOPOLOGY:
		if (!m->have_topo) {
			kt_topo_parse(rec->u.topology.files,
				      rec->u.topology.nfiles, &m->topo);
			obj_tracker_topology(&m->objs, &m->topo);
			m->have_topo = 1;
		}
		return 0;
	case KT_REC_API_CALL:
		if (rec->u.api.t_exit > m->t_last)
			m->t_last = rec->u.api.t_exit;
		if (rec->u.api.t_exit > th->last)
			th->last = rec->u.api.t_exit;
		return 0;
	case KT_REC_SUBMIT:
		m->subs.keep_times = 1;
		if (sub_stats_add(&m->subs, &rec->u.submit, rec->ts))
			goto oom;
		return 0;
	default:
		obj_tracker_record(&m->objs, rec);
		return m->objs.oom ? -1 : 0;
	}
oom:
	m->oom = 1;
	return -1;
}

int
rm_cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

int
rm_cmp_kind(const void *a, const void *b)
{
	const struct rm_kind *x = a, *y = b;

	if (x->count != y->count)
		return x->count > y->count ? -1 : 1;
	return strcmp(x->name, y->name);
}

static int
cmp_series(const void *a, const void *b)
{
	const struct rm_series *x = a, *y = b;

	if (x->gpu_id != y->gpu_id)
		return x->gpu_id < y->gpu_id ? -1 : 1;
	return (int)x->heap - (int)y->heap;
}

/* Close the spans of objects still alive, and put things in order. */
static void
finish(struct report_model *m)
{
	size_t i;

	/* The sorts below leave the maps' indices stale. */
	kc_u64map_free(&m->thread_of);
	kc_u64map_free(&m->kind_of);
	kc_u64map_free(&m->series_of);
	for (i = 0; i < m->nspans; i++) {
		if (m->spans[i].t1)
			continue;
		m->spans[i].t1 = m->t_last > m->spans[i].t0 ?
				 m->t_last : m->spans[i].t0;
		m->spans[i].leaked = 1;
		m->nleaks++;
	}
	for (i = 0; i < m->nkinds; i++)
		if (m->kinds[i].nlat > 1)
			qsort(m->kinds[i].lat, m->kinds[i].nlat,
			      sizeof(uint64_t), rm_cmp_u64);
	if (m->nkinds > 1)
		qsort(m->kinds, m->nkinds, sizeof(*m->kinds), rm_cmp_kind);
	if (m->nseries > 1)
		qsort(m->series, m->nseries, sizeof(*m->series), cmp_series);
	if (m->noutliers > 1)
		qsort(m->outliers, m->noutliers, sizeof(*m->outliers),
		      rm_cmp_outlier);
	m->view_t0 = m->t_first;
	m->view_t1 = m->t_last;
	m->origin = rm_time_origin(&m->hdr);
	if (!m->abi_major && !m->abi_minor) {
		m->abi_major = m->hdr.kfd_major;
		m->abi_minor = m->hdr.kfd_minor;
	}
}

int
report_model_build(struct report_model *m, struct kt_reader *r, size_t window,
		   struct cli_progress *prog)
{
	struct cli_reorder ro;
	struct kt_record rec;
	uint64_t n = 0;
	int rc;

	memset(m, 0, sizeof(*m));
	m->hdr = *kt_reader_header(r);
	obj_tracker_init(&m->objs);
	kc_u64map_init(&m->span_of, sizeof(struct obj_val));
	kc_u64map_init(&m->thread_of, sizeof(uint64_t));
	kc_u64map_init(&m->kind_of, sizeof(uint64_t));
	kc_u64map_init(&m->series_of, sizeof(uint64_t));

	cli_reorder_init(&ro, window ? window : CLI_REORDER_WINDOW, 0,
			 model_emit, m);
	while ((rc = kt_reader_next(r, &rec)) == 1) {
		if (cli_reorder_push(&ro, &rec))
			break;
		if (prog)
			cli_progress_update(prog, ++n);
	}
	if (rc == 1 || cli_reorder_flush(&ro)) {
		cli_reorder_free(&ro);
		return -ENOMEM;
	}
	cli_reorder_free(&ro);
	m->read_rc = rc;
	kt_reader_get_status(r, &m->status);
	finish(m);
	return m->oom ? -ENOMEM : 0;
}

void
report_model_release(struct report_model *m)
{
	size_t i;

	sub_stats_free(&m->subs);
	free(m->spans);
	for (i = 0; i < m->nseries; i++)
		free(m->series[i].pts);
	free(m->series);
	for (i = 0; i < m->nkinds; i++)
		free(m->kinds[i].lat);
	free(m->kinds);
	for (i = 0; i < m->nerrors; i++)
		free(m->errors[i].text);
	free(m->errors);
	for (i = 0; i < m->noutliers; i++)
		free(m->outliers[i].text);
	free(m->outliers);
	for (i = 0; i < RM_STRIP_THREADS; i++)
		free(m->strips[i]);
	free(m->threads);
	obj_tracker_release(&m->objs);
	kc_u64map_free(&m->span_of);
	kc_u64map_free(&m->thread_of);
	kc_u64map_free(&m->kind_of);
	kc_u64map_free(&m->series_of);
	memset(m, 0, sizeof(*m));
}

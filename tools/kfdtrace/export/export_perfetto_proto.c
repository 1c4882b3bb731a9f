/* SPDX-License-Identifier: MIT */
/*
 * Perfetto's protobuf trace format (perfetto_trace.proto, packed by
 * protobuf-c): what the Perfetto UI opens for traces of millions of calls,
 * where the JSON would be hundreds of megabytes.
 *
 * Layout: one ClockSnapshot first, making CLOCK_MONOTONIC the trace's
 * clock; then per process one packet sequence (id: the pid) whose first
 * packet clears its incremental state and makes the sequence's own
 * incremental clock (delta_clock()) its timestamps' default.
 * Tracks: the process, a thread track per tid under it, a track per queue
 * (doorbell packets), a group per GPU and heap holding lanes for object
 * lifetimes (overlapping lifetimes take different lanes; a lane is reused
 * once free, so there are as many lanes as objects were ever alive at
 * once) and a byte counter per GPU and heap. Calls are BEGIN/END slices
 * on their thread; event names, categories and argument names are
 * interned on the sequence, so a call costs a few dozen bytes. Arguments:
 * "seq", "errno" for failures, and the schema's fields of an ioctl's
 * argument struct as "in.FIELD" and "out.FIELD".
 *
 * Track uuids and sequence ids carry the pid and gen, so exports of
 * different processes can be concatenated into one trace.
 */
#include <stdlib.h>
#include <string.h>

#include "core/cli_opt.h"
#include "kfdtrace/packets.h"
#include "export/export_perfetto_pb.h"

enum {
	PFP_CLOCK_MONOTONIC = 3,
	PFP_CLOCK_DELTA = 64,		/* the sequence's incremental clock */
	PFP_SEQ_CLEARED = 1,
	PFP_SEQ_NEEDS_STATE = 2,
	PFP_SLICE_BEGIN = 1,
	PFP_SLICE_END = 2,
	PFP_INSTANT = 3,
	PFP_COUNTER = 4,
	PFP_UNIT_BYTES = 3,
};

/* Track kinds, in a uuid's bits 26..29. */
enum {
	PFP_TK_PROCESS = 0,
	PFP_TK_THREAD,
	PFP_TK_GROUP,
	PFP_TK_LANE,
	PFP_TK_COUNTER,
	PFP_TK_QUEUE,
};

struct pfp_group {
	char *name;
	const char *cat;
	unsigned int *lanes;		/* lane numbers */
	uint8_t *busy;
	uint64_t *free_at;		/* when its last object ended */
	size_t nlanes;
};

struct pfp_counter {
	uint32_t gpu_id;
	unsigned int heap;
};

struct pfp_proc {
	uint32_t seq_id;
	int started;			/* first packet written */
	uint64_t t0;			/* the run's start */
	uint64_t last_ts;		/* the incremental clock's time */
	struct pfp_intern names, cats, args;
	struct kc_u64map threads;	/* tids with a track */
	struct kc_u64map queues;	/* queue keys with a track */
	struct kc_u64map obj_lane;	/* created seq -> group (gpu_id) and
					 * lane (kind) */
	struct pfp_group *groups;
	size_t ngroups;
	unsigned int nlanes;		/* lanes of every group, numbered */
	struct pfp_counter *counters;
	size_t ncounters;
};

/*
 * Track uuids. Thread tracks, on every call, are small (a varint of 4
 * bytes): the tid, odd (2 * tid + 1); tids are unique on a host and an
 * exec keeps them. The others are even: the gen in bits 53..62, the pid in
 * 31..52, the kind in 27..30 and the number in 1..26.
 */
static uint64_t
uuid(const struct pf_proc *p, unsigned int kind, uint64_t n)
{
	uint64_t gen = kind == PFP_TK_PROCESS ? 0 : p->gen & 1023u;

	if (kind == PFP_TK_THREAD)
		return 2 * (n & 0x7fffffffu) + 1;
	return ((gen << 52) |
		((uint64_t)((uint32_t)p->pid & 0x3fffffu) << 30) |
		((uint64_t)kind << 26) | (n & ((1u << 26) - 1))) << 1;
}

/* Fill the sequence fields of @pkt and write it. */
static void
put(struct pf_sink *s, struct pf_proc *p, Pftrace__TracePacket *pkt,
    struct pfp_defs *d)
{
	Pftrace__TracePacketDefaults defaults =
		PFTRACE__TRACE_PACKET_DEFAULTS__INIT;
	struct pfp_proc *pp = p->priv;

	pkt->has_trusted_packet_sequence_id = 1;
	pkt->trusted_packet_sequence_id = pp->seq_id;
	/* Only packets that refer to interned names need the state. */
	pkt->has_sequence_flags = pkt->track_event &&
				  pkt->track_event->has_name_iid;
	pkt->sequence_flags = PFP_SEQ_NEEDS_STATE;
	if (!pp->started) {
		pkt->has_sequence_flags = 1;
		pp->started = 1;
		pkt->sequence_flags = PFP_SEQ_CLEARED | PFP_SEQ_NEEDS_STATE;
		defaults.has_timestamp_clock_id = 1;
		defaults.timestamp_clock_id = PFP_CLOCK_DELTA;
		pkt->trace_packet_defaults = &defaults;
	}
	if (d && pfp_defs_any(d))
		pkt->interned_data = &d->data;
	pfp_put_packet(s, pkt);
}

static void
put_track(struct pf_sink *s, struct pf_proc *p, Pftrace__TrackDescriptor *td)
{
	Pftrace__TracePacket pkt = PFTRACE__TRACE_PACKET__INIT;

	pkt.track_descriptor = td;
	put(s, p, &pkt, NULL);
}

static void
thread_track(struct pf_sink *s, struct pf_proc *p, uint32_t tid,
	     const char *name)
{
	Pftrace__TrackDescriptor td = PFTRACE__TRACK_DESCRIPTOR__INIT;
	Pftrace__ThreadDescriptor th = PFTRACE__THREAD_DESCRIPTOR__INIT;
	struct pfp_proc *pp = p->priv;
	struct obj_val v = { 0 };

	if (!name && kc_u64map_get(&pp->threads, 0, tid))
		return;
	if (kc_u64map_put(&pp->threads, 0, tid, &v))
		s->failed = 1;
	td.has_uuid = 1;
	td.uuid = uuid(p, PFP_TK_THREAD, tid);
	td.has_parent_uuid = 1;
	td.parent_uuid = uuid(p, PFP_TK_PROCESS, 0);
	th.has_pid = 1;
	th.pid = p->pid;
	th.has_tid = 1;
	th.tid = tid;
	th.thread_name = (char *)name;
	td.thread = &th;
	put_track(s, p, &td);
}

static void
pfp_begin(struct pf_sink *s, struct pf_proc *procs, size_t n, uint64_t t0)
{
	Pftrace__TracePacket pkt = PFTRACE__TRACE_PACKET__INIT;
	Pftrace__ClockSnapshot cs = PFTRACE__CLOCK_SNAPSHOT__INIT;
	Pftrace__ClockSnapshot__Clock clk = PFTRACE__CLOCK_SNAPSHOT__CLOCK__INIT;
	Pftrace__ClockSnapshot__Clock *clks[1] = { &clk };
	struct pfp_proc *pps = calloc(n ? n : 1, sizeof(*pps));
	size_t i;

	s->priv = pps;
	if (!pps) {
		s->failed = 1;
		return;
	}
	for (i = 0; i < n; i++) {
		procs[i].priv = &pps[i];
		pps[i].t0 = t0;
		pps[i].last_ts = t0;
		kc_u64map_init(&pps[i].threads, sizeof(struct obj_val));
		kc_u64map_init(&pps[i].queues, sizeof(struct obj_val));
		kc_u64map_init(&pps[i].obj_lane, sizeof(struct obj_val));
	}
	/* Our timestamps are CLOCK_MONOTONIC: make it the trace's clock. */
	clk.has_clock_id = 1;
	clk.clock_id = PFP_CLOCK_MONOTONIC;
	clk.has_timestamp = 1;
	clk.timestamp = t0;
	cs.n_clocks = 1;
	cs.clocks = clks;
	cs.has_primary_trace_clock = 1;
	cs.primary_trace_clock = PFP_CLOCK_MONOTONIC;
	pkt.clock_snapshot = &cs;
	pkt.has_timestamp = 1;
	pkt.timestamp = t0;
	pkt.has_timestamp_clock_id = 1;
	pkt.timestamp_clock_id = PFP_CLOCK_MONOTONIC;
	pfp_put_packet(s, &pkt);
}

/*
 * The sequence's incremental clock: at the run's start it reads what
 * CLOCK_MONOTONIC reads, and each event on it (the sequence's default,
 * set by its first packet) gives the time since the previous one.
 */
static void
delta_clock(struct pf_sink *s, struct pf_proc *p)
{
	Pftrace__TracePacket pkt = PFTRACE__TRACE_PACKET__INIT;
	Pftrace__ClockSnapshot cs = PFTRACE__CLOCK_SNAPSHOT__INIT;
	Pftrace__ClockSnapshot__Clock delta = PFTRACE__CLOCK_SNAPSHOT__CLOCK__INIT;
	Pftrace__ClockSnapshot__Clock mono = PFTRACE__CLOCK_SNAPSHOT__CLOCK__INIT;
	Pftrace__ClockSnapshot__Clock *clks[2] = { &delta, &mono };
	struct pfp_proc *pp = p->priv;

	delta.has_clock_id = 1;
	delta.clock_id = PFP_CLOCK_DELTA;
	delta.has_timestamp = 1;
	delta.timestamp = pp->t0;
	delta.has_is_incremental = 1;
	delta.is_incremental = 1;
	mono.has_clock_id = 1;
	mono.clock_id = PFP_CLOCK_MONOTONIC;
	mono.has_timestamp = 1;
	mono.timestamp = pp->t0;
	cs.n_clocks = 2;
	cs.clocks = clks;
	pkt.clock_snapshot = &cs;
	put(s, p, &pkt, NULL);
}

static void
pfp_process(struct pf_sink *s, struct pf_proc *p)
{
	Pftrace__TrackDescriptor td = PFTRACE__TRACK_DESCRIPTOR__INIT;
	Pftrace__ProcessDescriptor pd = PFTRACE__PROCESS_DESCRIPTOR__INIT;
	struct pfp_proc *pp = p->priv;
	char *cmdline[1] = { (char *)p->rp->hdr->exe };

	/* The pid and gen name the sequence; 0 is not a valid id. */
	pp->seq_id = p->pid > 0 ? ((uint32_t)p->pid & 0x3fffffu) |
				  ((p->gen & 511u) << 22) :
		     0x7fffffffu - p->idx;
	td.has_uuid = 1;
	td.uuid = uuid(p, PFP_TK_PROCESS, 0);
	pd.has_pid = 1;
	pd.pid = p->pid;
	pd.process_name = (char *)p->name;
	if (cmdline[0][0]) {
		pd.n_cmdline = 1;
		pd.cmdline = cmdline;
	}
	td.process = &pd;
	put_track(s, p, &td);
	delta_clock(s, p);
	/* The main thread's track, named as the process until it says. */
	thread_track(s, p, (uint32_t)p->pid, NULL);
}

static void
pfp_thread_name(struct pf_sink *s, struct pf_proc *p, uint32_t tid,
		const char *name)
{
	thread_track(s, p, tid, name);
}

/* Whether a conditional field (a union member) is present in @img. */
static int
field_present(const struct kfd_struct_desc *sd, const struct kfd_field *f,
	      const uint8_t *img, uint32_t len)
{
	uint64_t sel;

	if (f->select < 0)
		return 1;
	if ((unsigned int)f->select >= sd->nfields ||
	    kfd_field_get(&sd->fields[f->select], img, len, &sel))
		return 0;
	return sel == f->select_value;
}

/*
 * The fields of @dir of an argument image as arguments named
 * "@prefix.FIELD", appended at @out[*@n]. Perfetto stores a nested
 * dictionary's entries under such dotted keys, so these are the keys an
 * "in" dictionary would give, at fewer bytes.
 */
static void
arg_fields(struct pf_sink *s, struct pfp_proc *pp, struct pfp_defs *d,
	   const struct kfd_struct_desc *sd, unsigned int dir,
	   const char *prefix, const uint8_t *img, uint32_t len,
	   Pftrace__DebugAnnotation *out, Pftrace__DebugAnnotation **pout,
	   size_t *n)
{
	size_t first = *n;
	unsigned int i;
	char name[80];

	for (i = 0; img && i < sd->nfields && *n - first < PFP_MAX_FIELDS; i++) {
		const struct kfd_field *f = &sd->fields[i];
		uint64_t v;
		char kind;

		if (!(f->dir & dir) || f->role == KFD_ROLE_STRING ||
		    f->role == KFD_ROLE_BYTES || f->width > 8 ||
		    !field_present(sd, f, img, len) ||
		    kfd_field_get(f, img, len, &v))
			continue;
		if (f->role == KFD_ROLE_PAD && !v)
			continue;
		kind = kfd_role_is_hex(f->role) ? 'p' : f->is_signed ? 'i' : 'u';
		snprintf(name, sizeof(name), "%s.%s", prefix, f->name);
		pfp_annot(&out[*n], pfp_def_arg(s, &pp->args, d, name), kind, v);
		pout[*n] = &out[*n];
		(*n)++;
	}
}

static void
slice_packet(struct pf_sink *s, struct pf_proc *p, uint64_t ts,
	     Pftrace__TrackEvent *te, struct pfp_defs *d)
{
	Pftrace__TracePacket pkt = PFTRACE__TRACE_PACKET__INIT;

	struct pfp_proc *pp = p->priv;

	/*
	 * Time since the sequence's previous event (a varint of 2 or 3
	 * bytes, not 8); one earlier than that (records of several threads
	 * interleave) says its CLOCK_MONOTONIC time instead.
	 */
	pkt.has_timestamp = 1;
	if (ts >= pp->last_ts) {
		pkt.timestamp = ts - pp->last_ts;
		pp->last_ts = ts;
	} else {
		pkt.timestamp = ts;
		pkt.has_timestamp_clock_id = 1;
		pkt.timestamp_clock_id = PFP_CLOCK_MONOTONIC;
	}
	pkt.track_event = te;
	put(s, p, &pkt, d);
}

/* An event's name and categories ("a,b" is two). */
static void
name_event(struct pf_sink *s, struct pf_proc *p, Pftrace__TrackEvent *te,
	   struct pfp_defs *d, const char *cat, const char *name,
	   uint64_t *cat_iids)
{
	struct pfp_proc *pp = p->priv;
	char buf[32];
	const char *comma = strchr(cat, ',');

	te->has_name_iid = 1;
	te->name_iid = pfp_def_name(s, &pp->names, d, name[0] ? name : "(unnamed)");
	if (comma && (size_t)(comma - cat) < sizeof(buf)) {
		memcpy(buf, cat, (size_t)(comma - cat));
		buf[comma - cat] = '\0';
		cat_iids[0] = pfp_def_cat(s, &pp->cats, d, buf);
		cat_iids[1] = pfp_def_cat(s, &pp->cats, d, comma + 1);
		te->n_category_iids = 2;
	} else {
		cat_iids[0] = pfp_def_cat(s, &pp->cats, d, cat);
		te->n_category_iids = 1;
	}
	te->category_iids = cat_iids;
}

static void
event_on(struct pf_sink *s, struct pf_proc *p, uint64_t track, int type,
	 const struct kt_record *rec, const char *cat, const char *name,
	 uint64_t end, const struct kfd_ioctl_desc *desc)
{
	Pftrace__TrackEvent te = PFTRACE__TRACK_EVENT__INIT;
	Pftrace__TrackEvent te_end = PFTRACE__TRACK_EVENT__INIT;
	static struct pfp_defs d;	/* large; the writer is single-threaded */
	Pftrace__DebugAnnotation top[2 + 2 * PFP_MAX_FIELDS];
	Pftrace__DebugAnnotation *ptop[2 + 2 * PFP_MAX_FIELDS];
	struct pfp_proc *pp = p->priv;
	uint64_t cat_iids[2];
	size_t n = 0;

	pfp_defs_init(&d);
	te.has_type = 1;
	te.type = (uint32_t)type;
	te.has_track_uuid = 1;
	te.track_uuid = track;
	name_event(s, p, &te, &d, cat, name, cat_iids);
	pfp_annot(&top[n], pfp_def_arg(s, &pp->args, &d, "seq"), 'u', rec->seq);
	ptop[n] = &top[n];
	n++;
	if (rec->type == KT_REC_IOCTL && rec->u.ioctl.ret < 0) {
		Pftrace__DebugAnnotation init = PFTRACE__DEBUG_ANNOTATION__INIT;
		const char *e = kfd_errno_name(rec->u.ioctl.err);

		top[n] = init;
		top[n].has_name_iid = 1;
		top[n].name_iid = pfp_def_arg(s, &pp->args, &d, "errno");
		top[n].string_value = (char *)(e ? e : "?");
		ptop[n] = &top[n];
		n++;
	}
	if (desc && desc->args) {
		const struct kt_ioctl_rec *io = &rec->u.ioctl;

		arg_fields(s, pp, &d, desc->args, KFD_DIR_IN, "in",
			   io->arg_before, io->arg_size, top, ptop, &n);
		arg_fields(s, pp, &d, desc->args, KFD_DIR_OUT, "out",
			   io->ret >= 0 ? io->arg_after : NULL, io->arg_size,
			   top, ptop, &n);
	}
	te.n_debug_annotations = n;
	te.debug_annotations = ptop;
	slice_packet(s, p, rec->ts, &te, &d);
	if (type != PFP_SLICE_BEGIN)
		return;
	te_end.has_type = 1;
	te_end.type = PFP_SLICE_END;
	te_end.has_track_uuid = 1;
	te_end.track_uuid = track;
	slice_packet(s, p, end, &te_end, NULL);
}

static void
pfp_slice(struct pf_sink *s, struct pf_proc *p, const struct kt_record *rec,
	  const char *cat, const char *name, uint64_t end,
	  const struct kfd_ioctl_desc *desc)
{
	thread_track(s, p, rec->tid, NULL);
	event_on(s, p, uuid(p, PFP_TK_THREAD, rec->tid), PFP_SLICE_BEGIN, rec,
		 cat, name, end, desc);
}

static void
pfp_instant(struct pf_sink *s, struct pf_proc *p, const struct kt_record *rec,
	    const char *cat, const char *name)
{
	thread_track(s, p, rec->tid, NULL);
	event_on(s, p, uuid(p, PFP_TK_THREAD, rec->tid), PFP_INSTANT, rec, cat,
		 name, rec->ts, NULL);
}

static void
pfp_submit(struct pf_sink *s, struct pf_proc *p, const struct kt_record *rec,
	   const char *name)
{
	const struct kt_submit_rec *sub = &rec->u.submit;
	struct pfp_proc *pp = p->priv;
	uint32_t key = pf_queue_key(sub);
	struct obj_val v = { 0 };

	if (!kc_u64map_get(&pp->queues, 0, key)) {
		Pftrace__TrackDescriptor td = PFTRACE__TRACK_DESCRIPTOR__INIT;
		char tname[64];

		if (kc_u64map_put(&pp->queues, 0, key, &v))
			s->failed = 1;
		snprintf(tname, sizeof(tname), "queue %u gpu 0x%x (%s)",
			 sub->queue_id, sub->gpu_id,
			 kfd_engine_name(sub->engine));
		td.has_uuid = 1;
		td.uuid = uuid(p, PFP_TK_QUEUE, key);
		td.has_parent_uuid = 1;
		td.parent_uuid = uuid(p, PFP_TK_PROCESS, 0);
		td.name = tname;
		put_track(s, p, &td);
	}
	event_on(s, p, uuid(p, PFP_TK_QUEUE, key), PFP_INSTANT, rec, "submit",
		 name, rec->ts, NULL);
}

/* The group of @name, created with its track when new; NULL: no memory. */
static struct pfp_group *
group_of(struct pf_sink *s, struct pf_proc *p, const char *cat,
	 const char *name, size_t *idx)
{
	Pftrace__TrackDescriptor td = PFTRACE__TRACK_DESCRIPTOR__INIT;
	struct pfp_proc *pp = p->priv;
	struct pfp_group *g;
	size_t i;

	for (i = 0; i < pp->ngroups; i++)
		if (strcmp(pp->groups[i].name, name) == 0) {
			*idx = i;
			return &pp->groups[i];
		}
	g = realloc(pp->groups, (pp->ngroups + 1) * sizeof(*g));
	if (!g)
		return NULL;
	pp->groups = g;
	g = &pp->groups[pp->ngroups];
	memset(g, 0, sizeof(*g));
	g->name = strdup(name);
	if (!g->name)
		return NULL;
	g->cat = cat;
	*idx = pp->ngroups++;
	td.has_uuid = 1;
	td.uuid = uuid(p, PFP_TK_GROUP, *idx);
	td.has_parent_uuid = 1;
	td.parent_uuid = uuid(p, PFP_TK_PROCESS, 0);
	td.name = (char *)name;
	put_track(s, p, &td);
	return g;
}

/*
 * A lane of @g free at @ts (a new one when none is): its index in @g.
 * Records come in sequence order, which across threads is not quite
 * time order: a lane whose object ended after @ts is not free yet.
 */
static long
lane_take(struct pf_sink *s, struct pf_proc *p, struct pfp_group *g,
	  size_t gidx, uint64_t ts)
{
	uint64_t *free_at;
	Pftrace__TrackDescriptor td = PFTRACE__TRACK_DESCRIPTOR__INIT;
	struct pfp_proc *pp = p->priv;
	unsigned int *lanes;
	uint8_t *busy;
	size_t i;

	for (i = 0; i < g->nlanes; i++)
		if (!g->busy[i] && g->free_at[i] <= ts) {
			g->busy[i] = 1;
			return (long)i;
		}
	lanes = realloc(g->lanes, (g->nlanes + 1) * sizeof(*lanes));
	if (lanes)
		g->lanes = lanes;
	busy = realloc(g->busy, g->nlanes + 1);
	if (busy)
		g->busy = busy;
	free_at = realloc(g->free_at, (g->nlanes + 1) * sizeof(*free_at));
	if (free_at)
		g->free_at = free_at;
	if (!lanes || !busy || !free_at)
		return -1;
	g->lanes[g->nlanes] = pp->nlanes++;
	g->busy[g->nlanes] = 1;
	g->free_at[g->nlanes] = 0;
	td.has_uuid = 1;
	td.uuid = uuid(p, PFP_TK_LANE, g->lanes[g->nlanes]);
	td.has_parent_uuid = 1;
	td.parent_uuid = uuid(p, PFP_TK_GROUP, gidx);
	td.name = g->name;
	put_track(s, p, &td);
	return (long)g->nlanes++;
}

static void
pfp_object(struct pf_sink *s, struct pf_proc *p, const struct obj_change *c,
	   int begin, uint32_t tid, uint64_t ts, int leaked)
{
	Pftrace__TrackEvent te = PFTRACE__TRACK_EVENT__INIT;
	static struct pfp_defs d;
	Pftrace__DebugAnnotation a[6], *pa[6];
	struct pfp_proc *pp = p->priv;
	struct pfp_group *g;
	struct obj_val lv = { 0 }, *have;
	uint64_t cat_iids[2];
	const char *cat;
	char name[64];
	size_t gidx, n = 0;
	long lane;

	pf_object_group(c, &cat, name, sizeof(name));
	g = group_of(s, p, cat, name, &gidx);
	if (!g) {
		s->failed = 1;
		return;
	}
	pfp_defs_init(&d);
	te.has_type = 1;
	te.has_track_uuid = 1;
	if (begin) {
		lane = lane_take(s, p, g, gidx, ts);
		if (lane < 0) {
			s->failed = 1;
			return;
		}
		lv.gpu_id = (uint32_t)gidx;
		lv.kind = (uint32_t)lane;
		if (kc_u64map_put(&pp->obj_lane, 0, c->val.seq, &lv))
			s->failed = 1;
		te.type = PFP_SLICE_BEGIN;
		te.track_uuid = uuid(p, PFP_TK_LANE, g->lanes[lane]);
		/* Named by heap or kind (interned); the id is an argument. */
		name_event(s, p, &te, &d, cat, c->kind == OBJ_BO_NEW ?
			   obj_heap_names[c->val.kind] : cat, cat_iids);
		pfp_annot(&a[n], pfp_def_arg(s, &pp->args, &d, "created_seq"), 'u',
		      c->val.seq);
		pa[n] = &a[n];
		n++;
		pfp_annot(&a[n], pfp_def_arg(s, &pp->args, &d, c->kind == OBJ_BO_NEW ?
				       "handle" : c->kind == OBJ_QUEUE_NEW ?
				       "queue_id" : "event_id"),
		      c->kind == OBJ_BO_NEW ? 'p' : 'u', c->key);
		pa[n] = &a[n];
		n++;
		if (c->kind == OBJ_BO_NEW) {
			pfp_annot(&a[n], pfp_def_arg(s, &pp->args, &d, "size"), 'u',
			      c->val.size);
			pa[n] = &a[n];
			n++;
		}
		if (c->kind != OBJ_EVENT_NEW) {
			pfp_annot(&a[n], pfp_def_arg(s, &pp->args, &d, "gpu_id"), 'p',
			      c->val.gpu_id);
			pa[n] = &a[n];
			n++;
		}
		(void)tid;
	} else {
		have = kc_u64map_get(&pp->obj_lane, 0, c->val.seq);
		if (!have)
			return;
		g = &pp->groups[have->gpu_id];
		te.type = PFP_SLICE_END;
		te.track_uuid = uuid(p, PFP_TK_LANE, g->lanes[have->kind]);
		g->busy[have->kind] = 0;
		g->free_at[have->kind] = ts;
		kc_u64map_del(&pp->obj_lane, 0, c->val.seq, NULL);
		if (leaked) {
			Pftrace__DebugAnnotation init =
				PFTRACE__DEBUG_ANNOTATION__INIT;

			a[n] = init;
			a[n].has_name_iid = 1;
			a[n].name_iid = pfp_def_arg(s, &pp->args, &d, "leaked");
			a[n].has_bool_value = 1;
			a[n].bool_value = 1;
			pa[n] = &a[n];
			n++;
		}
	}
	te.n_debug_annotations = n;
	te.debug_annotations = pa;
	slice_packet(s, p, ts, &te, &d);
}

static void
pfp_counter(struct pf_sink *s, struct pf_proc *p, uint32_t gpu_id,
	    uint64_t ts)
{
	struct pfp_proc *pp = p->priv;
	size_t i, k;

	for (i = 0; i < p->objs.nmem; i++) {
		const struct obj_mem *m = &p->objs.mem[i];
		Pftrace__TrackEvent te = PFTRACE__TRACK_EVENT__INIT;

		if (m->gpu_id != gpu_id)
			continue;
		for (k = 0; k < pp->ncounters; k++)
			if (pp->counters[k].gpu_id == gpu_id &&
			    pp->counters[k].heap == (unsigned int)m->heap)
				break;
		if (k == pp->ncounters) {
			Pftrace__TrackDescriptor td =
				PFTRACE__TRACK_DESCRIPTOR__INIT;
			Pftrace__CounterDescriptor cd =
				PFTRACE__COUNTER_DESCRIPTOR__INIT;
			struct pfp_counter *nc;
			char name[64];

			nc = realloc(pp->counters, (k + 1) * sizeof(*nc));
			if (!nc) {
				s->failed = 1;
				return;
			}
			pp->counters = nc;
			nc[k].gpu_id = gpu_id;
			nc[k].heap = (unsigned int)m->heap;
			pp->ncounters++;
			snprintf(name, sizeof(name), "memory gpu 0x%x %s (bytes)",
				 gpu_id, obj_heap_names[m->heap]);
			td.has_uuid = 1;
			td.uuid = uuid(p, PFP_TK_COUNTER, k);
			td.has_parent_uuid = 1;
			td.parent_uuid = uuid(p, PFP_TK_PROCESS, 0);
			td.name = name;
			cd.has_unit = 1;
			cd.unit = PFP_UNIT_BYTES;
			td.counter = &cd;
			put_track(s, p, &td);
		}
		te.has_type = 1;
		te.type = PFP_COUNTER;
		te.has_track_uuid = 1;
		te.track_uuid = uuid(p, PFP_TK_COUNTER, k);
		te.has_counter_value = 1;
		te.counter_value = (int64_t)m->live;
		slice_packet(s, p, ts, &te, NULL);
	}
}

/*
 * Each process described once more, now that its trace was read: what
 * JSON's otherData says (the KFD ABI, how reading ended, the trace) as
 * process labels.
 */
static void
pfp_end(struct pf_sink *s, struct pf_proc *procs, size_t n)
{
	char abi[32], records[48], integrity[32], *labels[4];
	size_t i;

	for (i = 0; i < n; i++) {
		Pftrace__TrackDescriptor td = PFTRACE__TRACK_DESCRIPTOR__INIT;
		Pftrace__ProcessDescriptor pd = PFTRACE__PROCESS_DESCRIPTOR__INIT;
		struct pf_proc *p = &procs[i];
		struct kt_strbuf trace;

		kt_strbuf_init(&trace);
		kt_strbuf_printf(&trace, "trace=%s", cli_name(p->rp->path));
		if (p->have_abi)
			snprintf(abi, sizeof(abi), "kfd_abi=%u.%u", p->abi_major,
				 p->abi_minor);
		else
			snprintf(abi, sizeof(abi), "kfd_abi=unknown");
		snprintf(records, sizeof(records), "records=%llu",
			 (unsigned long long)p->st.records);
		snprintf(integrity, sizeof(integrity), "integrity=%s",
			 pf_integrity_name(p));
		labels[0] = abi;
		labels[1] = integrity;
		labels[2] = records;
		labels[3] = trace.data ? trace.data : (char *)"trace=";
		td.has_uuid = 1;
		td.uuid = uuid(p, PFP_TK_PROCESS, 0);
		pd.has_pid = 1;
		pd.pid = p->pid;
		pd.process_name = (char *)p->name;
		pd.n_process_labels = 4;
		pd.process_labels = labels;
		td.process = &pd;
		put_track(s, p, &td);
		if (trace.failed)
			s->failed = 1;
		kt_strbuf_release(&trace);
	}
}

static void
pfp_release(struct pf_sink *s, struct pf_proc *procs, size_t n)
{
	struct pfp_proc *pps = s->priv;
	size_t i, k;

	(void)procs;
	for (i = 0; pps && i < n; i++) {
		struct pfp_proc *pp = &pps[i];

		pfp_intern_free(&pp->names);
		pfp_intern_free(&pp->cats);
		pfp_intern_free(&pp->args);
		kc_u64map_free(&pp->threads);
		kc_u64map_free(&pp->queues);
		kc_u64map_free(&pp->obj_lane);
		for (k = 0; k < pp->ngroups; k++) {
			free(pp->groups[k].name);
			free(pp->groups[k].lanes);
			free(pp->groups[k].busy);
			free(pp->groups[k].free_at);
		}
		free(pp->groups);
		free(pp->counters);
	}
	free(pps);
	s->priv = NULL;
}

const struct pf_sink_ops pf_proto_ops = {
	.begin = pfp_begin,
	.process = pfp_process,
	.thread_name = pfp_thread_name,
	.slice = pfp_slice,
	.instant = pfp_instant,
	.submit = pfp_submit,
	.object = pfp_object,
	.counter = pfp_counter,
	.end = pfp_end,
	.release = pfp_release,
};

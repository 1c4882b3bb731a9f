/* SPDX-License-Identifier: MIT */
/*
 * kfdtrace export --perfetto: the driver (export_perfetto.h). Each
 * process of the run is read in sequence order on its own (the formats
 * need no global time order: Perfetto sorts on import), its records are
 * selected as `kfdtrace dump` selects them, and they become events:
 *  - every ioctl and API call a slice on its thread (API calls enclose
 *    the ioctls they caused, both timed on the same thread);
 *  - other syscalls, annotations, fork and exec instants on the thread;
 *  - doorbells' packets instants on a track per queue;
 *  - BO, queue and event lifetimes, grouped per GPU and heap, and a
 *    counter per GPU and heap of the live bytes.
 * The object tracker sees every record, selected or not, so lifetimes
 * and counters are true; only those that begin inside the --from/--to and
 * --time window are shown (name, --tid and --failed selections choose
 * calls, not objects). Objects alive at the end of the trace close at its
 * last timestamp as leaked. Timestamps are CLOCK_MONOTONIC, one time base
 * for every process of a host, so the export lines up with other traces
 * of the same boot.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "core/cli.h"
#include "core/cli_select.h"
#include "export/export.h"
#include "export/export_perfetto.h"
#include "kfdtrace/packet_abi.h"
#include "kfdtrace/packets.h"

struct pf_ctx {
	struct pf_sink *s;
	struct pf_proc *p;
	const struct kfdtrace_export_opts *o;
	uint64_t t0;			/* --time counts from here */
};

void
pf_sink_flush(struct pf_sink *s)
{
	if (s->sb.len && !s->io_error &&
	    fwrite(s->sb.data, 1, s->sb.len, s->out) != s->sb.len)
		s->io_error = 1;
	kt_strbuf_clear(&s->sb);
}

void
pf_object_group(const struct obj_change *c, const char **cat, char *name,
		size_t size)
{
	switch (c->kind) {
	case OBJ_BO_NEW:
	case OBJ_BO_GONE:
		*cat = "bo";
		snprintf(name, size, "%s gpu 0x%x", obj_heap_names[c->val.kind],
			 c->val.gpu_id);
		break;
	case OBJ_QUEUE_NEW:
	case OBJ_QUEUE_GONE:
		*cat = "queue";
		snprintf(name, size, "queues gpu 0x%x", c->val.gpu_id);
		break;
	default:
		*cat = "event";
		snprintf(name, size, "events");
		break;
	}
}

const char *
pf_integrity_name(const struct pf_proc *p)
{
	int rc = p->rp->read_rc;

	if (rc == -KT_ETRUNC || p->st.integrity == KT_INTEGRITY_TRUNCATED)
		return "truncated";
	if (rc == -KT_ECORRUPT || p->st.integrity == KT_INTEGRITY_CORRUPT)
		return "corrupt";
	if (rc < 0)
		return "unreadable";
	if (p->st.integrity == KT_INTEGRITY_DAMAGED)
		return "damaged";
	if (p->st.integrity == KT_INTEGRITY_INCOMPLETE)
		return "incomplete";
	if (p->st.integrity == KT_INTEGRITY_NO_END)
		return "no-end";
	return "ok";
}

static int
in_window(const struct pf_ctx *c, const struct kt_record *rec)
{
	const struct kfdtrace_export_opts *o = c->o;

	return rec->seq >= o->from && rec->seq <= o->to &&
	       (!o->select || cli_select_in_time(o->select, rec->ts, c->t0));
}

static int
selected(const struct pf_ctx *c, const struct kt_record *rec)
{
	return in_window(c, rec) &&
	       (!c->o->select || cli_select_match(c->o->select, rec, c->t0));
}

/* Lifetimes and counters of what an ioctl created and destroyed. */
static void
object_changes(struct pf_ctx *c, const struct kt_record *rec,
	       const struct kfd_ioctl_desc *desc, uint64_t end)
{
	struct pf_proc *p = c->p;
	struct obj_change ch[OBJ_MAX_CHANGES];
	int shown_window = in_window(c, rec);
	unsigned int n, i;

	n = obj_tracker_ioctl(&p->objs, rec, desc, ch);
	for (i = 0; i < n; i++) {
		int is_new = ch[i].kind == OBJ_BO_NEW ||
			     ch[i].kind == OBJ_QUEUE_NEW ||
			     ch[i].kind == OBJ_EVENT_NEW;

		if (is_new) {
			if (!shown_window)
				continue;
			if (kc_u64map_put(&p->shown, 0, ch[i].val.seq, &ch[i].val))
				p->objs.oom = 1;
		} else if (!kc_u64map_del(&p->shown, 0, ch[i].val.seq, NULL)) {
			continue;	/* its begin is outside the window */
		}
		c->s->ops->object(c->s, p, &ch[i], is_new, rec->tid, end, 0);
	}
	if (!shown_window)
		return;
	for (i = 0; i < n; i++)
		if (ch[i].mem && (i + 1 == n || ch[i + 1].val.gpu_id !=
						 ch[i].val.gpu_id))
			c->s->ops->counter(c->s, p, ch[i].val.gpu_id, end);
}

static void
ioctl_record(struct pf_ctx *c, const struct kt_record *rec)
{
	const struct kt_ioctl_rec *io = &rec->u.ioctl;
	const struct kfd_ioctl_desc *desc;
	struct pf_proc *p = c->p;
	uint64_t end = io->t_exit >= rec->ts ? io->t_exit : rec->ts;
	char name[32];

	desc = kt_ioctl_row(io);
	if (!p->have_abi)
		p->have_abi = kt_ioctl_version(desc, io, &p->abi_major,
					      &p->abi_minor);
	if (end > p->last_ts)
		p->last_ts = end;
	if (selected(c, rec)) {
		if (desc)
			snprintf(name, sizeof(name), "%s", desc->name);
		else
			snprintf(name, sizeof(name), "ioctl 0x%08x",
				 io->request);
		c->s->ops->slice(c->s, p, rec,
				 io->ret < 0 ? "ioctl,failed" : "ioctl", name,
				 end, desc);
		p->selected++;
	}
	/* Objects change when the call returns. */
	object_changes(c, rec, desc, end);
}

static const char *
submit_name(const struct kt_submit_rec *s)
{
	const struct kfd_packet_desc *r = NULL;
	size_t size;

	if (s->data && s->engine == KFD_ENGINE_AQL &&
	    s->len >= KFD_AQL_PACKET_SIZE)
		r = kfd_aql_packet(s->data);
	else if (s->data && s->engine == KFD_ENGINE_SDMA)
		r = kfd_sdma_packet(s->data, s->len, &size);
	else if (s->data && s->engine == KFD_ENGINE_PM4)
		r = kfd_pm4_packet(s->data, s->len, &size);
	return r ? r->name : "submit";
}

static int
pf_emit(void *ctx, const struct kt_record *rec)
{
	struct pf_ctx *c = ctx;
	struct pf_proc *p = c->p;
	struct pf_sink *s = c->s;
	const char *name;
	char text[64];
	uint64_t end;

	if (rec->ts > p->last_ts && rec->type != KT_REC_END)
		p->last_ts = rec->ts;
	if (rec->type == KT_REC_IOCTL) {
		ioctl_record(c, rec);
		goto out;
	}
	/* Thread names name tracks: kept whatever the selection. */
	if (rec->type == KT_REC_THREAD_NAME) {
		s->ops->thread_name(s, p, rec->tid, rec->u.thread_name.name ?
				    rec->u.thread_name.name : "");
		goto out;
	}
	if (rec->type == KT_REC_END || rec->type == KT_REC_MEMORY ||
	    !selected(c, rec))
		goto out;	/* memory: what the next submit references */
	p->selected++;
	switch (rec->type) {
	case KT_REC_API_CALL:
		end = rec->u.api.t_exit >= rec->ts ? rec->u.api.t_exit : rec->ts;
		if (end > p->last_ts)
			p->last_ts = end;
		s->ops->slice(s, p, rec, "api",
			      rec->u.api.name ? rec->u.api.name : "api", end,
			      NULL);
		break;
	case KT_REC_ANNOTATION:
		/* The text names the marker; long text stays in args. */
		snprintf(text, sizeof(text), "%s", rec->u.annotation.text ?
			 rec->u.annotation.text : "");
		s->ops->instant(s, p, rec, "annotation", text);
		break;
	case KT_REC_FORK:
	case KT_REC_EXEC:
		s->ops->instant(s, p, rec, "process",
				kt_rec_type_name(rec->type));
		break;
	case KT_REC_SUBMIT:
		s->ops->submit(s, p, rec, submit_name(&rec->u.submit));
		break;
	default:
		name = kt_rec_type_name(rec->type);
		s->ops->instant(s, p, rec, "syscall", name ? name : "record");
		break;
	}
out:
	pf_sink_maybe_flush(s);
	if (s->sb.failed || s->failed || p->objs.oom)
		return -1;
	return s->io_error ? -1 : 0;
}

/* Close the lifetimes of every shown object still alive at the end. */
static void
close_leaks(struct pf_ctx *c, struct kc_u64map *map, enum obj_change_kind kind)
{
	struct kc_u64map_slot **sorted = kc_u64map_sorted(map);
	struct pf_proc *p = c->p;
	struct obj_change ch;
	size_t i;

	for (i = 0; sorted && i < map->n; i++) {
		ch.kind = kind;
		ch.key = sorted[i]->key;
		ch.val = *obj_val_of(sorted[i]);
		ch.mem = NULL;
		if (!kc_u64map_get(&p->shown, 0, ch.val.seq))
			continue;
		c->s->ops->object(c->s, p, &ch, 0, (uint32_t)p->pid,
				  p->last_ts, 1);
	}
	if (map->n && !sorted)
		c->s->failed = 1;
	free(sorted);
}

/* One process's records as events. Return: 0, or -1 (memory, I/O). */
static int
export_proc(struct pf_ctx *c)
{
	struct pf_proc *p = c->p;
	struct kt_reader *r = p->rp->r;
	struct cli_progress prog;
	struct cli_reorder ro;
	struct kt_record rec;
	uint64_t n = 0;
	int rc, err = 0;

	c->s->ops->process(c->s, p);
	cli_reorder_init(&ro, c->o->window ? c->o->window : CLI_REORDER_WINDOW,
			 0, pf_emit, c);
	cli_progress_start(&prog, p->rp->label, 0);
	while ((rc = kt_reader_next(r, &rec)) == 1) {
		cli_progress_update(&prog, ++n);
		if (cli_reorder_push(&ro, &rec))
			break;
	}
	cli_progress_end(&prog);
	if (rc == 1 || cli_reorder_flush(&ro))
		err = -1;
	cli_reorder_free(&ro);
	p->rp->read_rc = rc == 1 ? 0 : rc;
	kt_reader_get_status(r, &p->st);
	if (!err) {
		close_leaks(c, &p->objs.bos, OBJ_BO_GONE);
		close_leaks(c, &p->objs.queues, OBJ_QUEUE_GONE);
		close_leaks(c, &p->objs.events, OBJ_EVENT_GONE);
	}
	if (c->s->sb.failed || c->s->failed || p->objs.oom)
		err = -1;
	return err || c->s->io_error ? -1 : 0;
}

/* Read a file of the run that is not exported, to know how it ends. */
static void
drain(struct cli_run_proc *rp)
{
	struct kt_record rec;
	int rc;

	while ((rc = kt_reader_next(rp->r, &rec)) == 1)
		;
	rp->read_rc = rc;
}

static int
ends_with(const char *s, const char *tail)
{
	size_t n = strlen(s), m = strlen(tail);

	return n >= m && strcmp(s + n - m, tail) == 0;
}

/* --format, else the file name: .pftrace (and Perfetto's other names)
 * is the protobuf format, anything else JSON. Return: 1 for protobuf. */
static int
want_proto(const char *dest, const char *format)
{
	if (format)
		return strcmp(format, "proto") == 0;
	return ends_with(dest, ".pftrace") || ends_with(dest, ".perfetto-trace") ||
	       ends_with(dest, ".pb");
}

int
kfdtrace_export_perfetto(char *const *traces, size_t ntraces,
			 const char *dest, const struct kfdtrace_export_opts *o)
{
	struct pf_sink s = { 0 };
	struct pf_proc *procs = NULL;
	struct cli_run run = { 0 };
	struct cli_out out;
	struct pf_ctx c = { .s = &s, .o = o };
	const char *exe;
	size_t i, n = 0;
	int err = 0, status;

	if (cli_run_open(&run, traces, ntraces, "export"))
		return KFDTRACE_EXIT_ERROR;
	if (cli_out_open(&out, dest, &(struct cli_out_rule){
				.force = o->force, .ins = traces,
				.nins = ntraces })) {
		cli_run_close(&run);
		return KFDTRACE_EXIT_ERROR;
	}
	procs = calloc(run.n ? run.n : 1, sizeof(*procs));
	if (!procs) {
		cli_err("out of memory");
		cli_out_commit(&out, 0);
		cli_run_close(&run);
		return KFDTRACE_EXIT_ERROR;
	}
	s.ops = want_proto(dest, o->format) ? &pf_proto_ops : &pf_json_ops;
	s.out = out.f;
	kt_strbuf_init(&s.sb);
	c.t0 = UINT64_MAX;
	for (i = 0; i < run.n; i++)
		if (run.p[i].hdr->start_monotonic < c.t0)
			c.t0 = run.p[i].hdr->start_monotonic;
	for (i = 0; i < run.n; i++) {
		struct pf_proc *p = &procs[n];
		const struct kt_header *h = run.p[i].hdr;

		/* --pid: the other files are read (for how they end) only. */
		if (o->select && !cli_select_pid(o->select, h->pid)) {
			drain(&run.p[i]);
			continue;
		}
		n++;
		p->rp = &run.p[i];
		p->idx = (unsigned int)(p - procs);
		p->pid = h->pid;
		for (size_t k = 0; k < p->idx; k++)
			p->gen += procs[k].pid == p->pid;
		exe = strrchr(h->exe, '/');
		exe = exe ? exe + 1 : h->exe;
		p->name = exe[0] ? exe : "traced process";
		p->dopts.start_ns = h->start_monotonic;
		p->abi_major = h->kfd_major;
		p->abi_minor = h->kfd_minor;
		p->have_abi = h->kfd_major || h->kfd_minor;
		obj_tracker_init(&p->objs);
		kc_u64map_init(&p->shown, sizeof(struct obj_val));
	}
	if (!n) {
		cli_err("--pid selects none of the run's processes");
		err = -2;
	}
	if (!err) {
		s.ops->begin(&s, procs, n, c.t0);
		err = s.failed ? -1 : 0;
	}
	for (i = 0; i < n && !err; i++) {
		c.p = &procs[i];
		err = export_proc(&c);
	}
	if (!err) {
		s.ops->end(&s, procs, n);
		pf_sink_flush(&s);
		if (s.sb.failed || s.failed)
			err = -1;
	}
	if (err == -1 && !s.io_error)
		cli_err("%s: out of memory", dest);
	/* (cli_out_commit() says it for standard output.) */
	if (s.io_error && out.f != stdout)
		cli_err("%s: write error", dest);
	if (cli_out_commit(&out, !err && !s.io_error) || err || s.io_error) {
		status = KFDTRACE_EXIT_ERROR;
	} else {
		status = cli_run_finish(&run);
		if (o->verbose)
			cli_err("wrote %s (%zu process%s, %s)", dest, n,
				n == 1 ? "" : "es",
				s.ops == &pf_proto_ops ? "Perfetto protobuf" :
				"trace-event JSON");
	}
	if (s.ops)
		s.ops->release(&s, procs, n);
	for (i = 0; i < n; i++) {
		obj_tracker_release(&procs[i].objs);
		kc_u64map_free(&procs[i].shown);
	}
	free(procs);
	kt_strbuf_release(&s.sb);
	cli_run_close(&run);
	return status;
}

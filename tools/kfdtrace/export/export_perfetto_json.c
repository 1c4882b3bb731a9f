/* SPDX-License-Identifier: MIT */
/*
 * Chrome trace-event JSON for Perfetto and chrome://tracing: one object
 * {"traceEvents":[...],"displayTimeUnit":"ns","otherData":{...}}.
 *  - "M" metadata names each process (its exe) and thread (THREAD_NAME
 *    records), category "__metadata";
 *  - ioctls and API calls are complete slices "X", args = the decoded
 *    record (the object `kfdtrace dump --json` prints);
 *  - other records are thread-scoped instants "i"; a doorbell's packets
 *    are instants on a thread of their own per queue;
 *  - lifetimes are async slices "b"/"e" (they overlap freely, which "X"
 *    slices of one track may not), one group per GPU and heap;
 *  - "C" counters (category "memory") carry each GPU's live bytes per heap.
 * Every event has a "cat". Async ids are the pid in bits 40 and up, the
 * gen (export_perfetto.h) in 36..39 and the creating record's seq below, so they are unique within a host even
 * when exports are merged. Timestamps are microseconds with nanosecond
 * decimals.
 */
#include <stdlib.h>
#include <string.h>

#include "core/cli_opt.h"
#include "kfdtrace/packets.h"
#include "export/export_perfetto.h"

/* Queue tracks named per process (more queues share the last name). */
#define PFJ_MAX_QUEUE_TRACKS 256
/* Queue tracks are threads of their own, numbered above any tid. */
#define PFJ_QUEUE_TID_BASE 2000000000u

struct pfj_proc {
	uint32_t queue_tracks[PFJ_MAX_QUEUE_TRACKS];
	unsigned int nqueue_tracks;
};

struct pfj {
	uint64_t events;
	struct pfj_proc *procs;
};

/* Microseconds with three decimals: ns precision without rounding. */
static void
put_us(struct kt_strbuf *sb, uint64_t ns)
{
	unsigned int frac = (unsigned int)(ns % 1000);
	char dec[4] = { '.', (char)('0' + frac / 100),
			(char)('0' + frac / 10 % 10), (char)('0' + frac % 10) };

	kt_strbuf_put_u64(sb, ns / 1000);
	kt_strbuf_append(sb, dec, 4);
}

static void
put_str(struct kt_strbuf *sb, const char *s)
{
	kfd_json_escape(sb, s, strlen(s));
}

static void
ev_sep(struct pf_sink *s)
{
	struct pfj *j = s->priv;

	if (j->events++)
		kt_strbuf_append(&s->sb, ",\n", 2);
}

/* Start an event object up to and including its "ts". */
static void
ev_begin(struct pf_sink *s, struct pf_proc *p, char ph, const char *cat,
	 const char *name, uint32_t tid, uint64_t ts)
{
	struct kt_strbuf *sb = &s->sb;

	ev_sep(s);
	kt_strbuf_append(sb, "{\"ph\":\"", 7);
	kt_strbuf_putc(sb, ph);
	kt_strbuf_puts(sb, "\",\"cat\":");
	put_str(sb, cat);
	kt_strbuf_puts(sb, ",\"name\":");
	put_str(sb, name);
	kt_strbuf_puts(sb, ",\"pid\":");
	kt_strbuf_put_s64(sb, p->pid);
	kt_strbuf_puts(sb, ",\"tid\":");
	kt_strbuf_put_u64(sb, tid);
	kt_strbuf_puts(sb, ",\"ts\":");
	put_us(sb, ts);
}

static void
ev_end(struct pf_sink *s)
{
	kt_strbuf_putc(&s->sb, '}');
}

static void
metadata(struct pf_sink *s, struct pf_proc *p, const char *what,
	 uint32_t tid, const char *name)
{
	struct kt_strbuf *sb = &s->sb;

	ev_sep(s);
	kt_strbuf_printf(sb, "{\"ph\":\"M\",\"cat\":\"__metadata\",\"name\":\"%s\","
			 "\"pid\":%d,\"tid\":%u,\"args\":{\"name\":", what,
			 p->pid, tid);
	put_str(sb, name);
	kt_strbuf_putc(sb, '}');
	ev_end(s);
}

/* The decoded record as "args". */
static void
args_decoded(struct pf_sink *s, struct pf_proc *p, const struct kt_record *rec)
{
	kt_strbuf_puts(&s->sb, ",\"args\":");
	kfd_decode_json(&s->sb, rec, &p->dopts);
}

static void
pfj_begin(struct pf_sink *s, struct pf_proc *procs, size_t n, uint64_t t0)
{
	struct pfj *j = calloc(1, sizeof(*j));

	(void)procs;
	(void)t0;
	s->priv = j;
	if (j)
		j->procs = calloc(n ? n : 1, sizeof(*j->procs));
	if (!j || !j->procs) {
		s->failed = 1;
		return;
	}
	kt_strbuf_puts(&s->sb, "{\"traceEvents\":[\n");
}

static void
pfj_process(struct pf_sink *s, struct pf_proc *p)
{
	struct pfj *j = s->priv;

	if (!j)
		return;
	p->priv = &j->procs[p->idx];
	metadata(s, p, "process_name", (uint32_t)p->pid, p->name);
}

static void
pfj_thread_name(struct pf_sink *s, struct pf_proc *p, uint32_t tid,
		const char *name)
{
	metadata(s, p, "thread_name", tid, name);
}

static void
pfj_slice(struct pf_sink *s, struct pf_proc *p, const struct kt_record *rec,
	  const char *cat, const char *name, uint64_t end,
	  const struct kfd_ioctl_desc *desc)
{
	(void)desc;
	ev_begin(s, p, 'X', cat, name, rec->tid, rec->ts);
	kt_strbuf_puts(&s->sb, ",\"dur\":");
	put_us(&s->sb, end - rec->ts);
	args_decoded(s, p, rec);
	ev_end(s);
}

static void
instant_on(struct pf_sink *s, struct pf_proc *p, const struct kt_record *rec,
	   const char *cat, const char *name, uint32_t tid)
{
	ev_begin(s, p, 'i', cat, name, tid, rec->ts);
	kt_strbuf_puts(&s->sb, ",\"s\":\"t\"");
	args_decoded(s, p, rec);
	ev_end(s);
}

static void
pfj_instant(struct pf_sink *s, struct pf_proc *p, const struct kt_record *rec,
	    const char *cat, const char *name)
{
	instant_on(s, p, rec, cat, name, rec->tid);
}

static void
pfj_submit(struct pf_sink *s, struct pf_proc *p, const struct kt_record *rec,
	   const char *name)
{
	const struct kt_submit_rec *sub = &rec->u.submit;
	struct pfj_proc *jp = p->priv;
	uint32_t tid = PFJ_QUEUE_TID_BASE + pf_queue_key(sub);
	char tname[64];
	unsigned int i;

	for (i = 0; i < jp->nqueue_tracks && jp->queue_tracks[i] != tid; i++)
		;
	if (i == jp->nqueue_tracks && i < PFJ_MAX_QUEUE_TRACKS) {
		jp->queue_tracks[jp->nqueue_tracks++] = tid;
		snprintf(tname, sizeof(tname), "queue %u gpu 0x%x (%s)",
			 sub->queue_id, sub->gpu_id,
			 kfd_engine_name(sub->engine));
		metadata(s, p, "thread_name", tid, tname);
	}
	instant_on(s, p, rec, "submit", name, tid);
}

static void
pfj_object(struct pf_sink *s, struct pf_proc *p, const struct obj_change *c,
	   int begin, uint32_t tid, uint64_t ts, int leaked)
{
	struct kt_strbuf *sb = &s->sb;
	const char *cat, *tn;
	char name[64];

	pf_object_group(c, &cat, name, sizeof(name));
	ev_begin(s, p, begin ? 'b' : 'e', cat, name, tid, ts);
	/* pid, gen, seq: unique across the processes of a host. */
	kt_strbuf_printf(sb, ",\"id\":\"0x%llx\",\"args\":{",
			 (unsigned long long)(((uint64_t)(uint32_t)p->pid << 40) |
					      ((uint64_t)(p->gen & 15) << 36) |
					      (c->val.seq & ((1ULL << 36) - 1))));
	switch (c->kind) {
	case OBJ_BO_NEW:
	case OBJ_BO_GONE:
		kt_strbuf_printf(sb, "\"handle\":\"0x%llx\",\"gpu_id\":%u,"
				 "\"heap\":\"%s\",\"size\":",
				 (unsigned long long)c->key, c->val.gpu_id,
				 obj_heap_names[c->val.kind]);
		kfd_json_u64(sb, c->val.size);
		break;
	case OBJ_QUEUE_NEW:
	case OBJ_QUEUE_GONE:
		kt_strbuf_puts(sb, "\"queue_id\":");
		kfd_json_u64(sb, c->key);
		kt_strbuf_printf(sb, ",\"gpu_id\":%u,\"type\":", c->val.gpu_id);
		tn = obj_queue_type_name(&p->objs, c->val.kind);
		if (tn)
			put_str(sb, tn);
		else
			kt_strbuf_put_u64(sb, c->val.kind);
		break;
	default:
		kt_strbuf_puts(sb, "\"event_id\":");
		kfd_json_u64(sb, c->key);
		kt_strbuf_puts(sb, ",\"type\":");
		tn = obj_event_type_name(&p->objs, c->val.kind);
		if (tn)
			put_str(sb, tn);
		else
			kt_strbuf_put_u64(sb, c->val.kind);
		break;
	}
	kt_strbuf_printf(sb, ",\"created_seq\":%llu",
			 (unsigned long long)c->val.seq);
	if (leaked)
		kt_strbuf_puts(sb, ",\"leaked\":true");
	kt_strbuf_putc(sb, '}');
	ev_end(s);
}

static void
pfj_counter(struct pf_sink *s, struct pf_proc *p, uint32_t gpu_id,
	    uint64_t ts)
{
	struct kt_strbuf *sb = &s->sb;
	char name[48];
	size_t i;
	int n = 0;

	snprintf(name, sizeof(name), "memory gpu 0x%x (bytes)", gpu_id);
	ev_begin(s, p, 'C', "memory", name, (uint32_t)p->pid, ts);
	kt_strbuf_puts(sb, ",\"args\":{");
	for (i = 0; i < p->objs.nmem; i++) {
		const struct obj_mem *m = &p->objs.mem[i];

		if (m->gpu_id != gpu_id)
			continue;
		if (n++)
			kt_strbuf_putc(sb, ',');
		kt_strbuf_printf(sb, "\"%s\":", obj_heap_names[m->heap]);
		kfd_json_u64(sb, m->live);
	}
	kt_strbuf_putc(sb, '}');
	ev_end(s);
}

static void
put_abi(struct kt_strbuf *sb, const struct pf_proc *p)
{
	if (p->have_abi)
		kt_strbuf_printf(sb, "\"%u.%u\"", p->abi_major, p->abi_minor);
	else
		kt_strbuf_puts(sb, "null");
}

/* What otherData says of each process. */
static void
proc_info(struct kt_strbuf *sb, const struct pf_proc *p)
{
	const struct kt_header *h = p->rp->hdr;

	kt_strbuf_printf(sb, "{\"pid\":%d,\"ppid\":%d,\"exe\":", h->pid,
			 h->ppid);
	put_str(sb, h->exe);
	kt_strbuf_puts(sb, ",\"trace\":");
	put_str(sb, cli_name(p->rp->path));
	kt_strbuf_puts(sb, ",\"kfd_abi\":");
	put_abi(sb, p);
	kt_strbuf_puts(sb, ",\"start_monotonic_ns\":");
	kfd_json_u64(sb, h->start_monotonic);
	kt_strbuf_printf(sb, ",\"records\":%llu,\"selected\":%llu,"
			 "\"integrity\":\"%s\"}",
			 (unsigned long long)p->st.records,
			 (unsigned long long)p->selected, pf_integrity_name(p));
}

/*
 * The first process's facts at the top (a single trace reads as before),
 * every process's in "processes"; "integrity" is the worst of them.
 */
static void
pfj_end(struct pf_sink *s, struct pf_proc *procs, size_t n)
{
	struct kt_strbuf *sb = &s->sb;
	const struct kt_header *h = procs[0].rp->hdr;
	const char *integrity = "ok";
	uint64_t records = 0;
	size_t i;

	for (i = 0; i < n; i++) {
		records += procs[i].st.records;
		if (strcmp(pf_integrity_name(&procs[i]), "ok") &&
		    !strcmp(integrity, "ok"))
			integrity = pf_integrity_name(&procs[i]);
	}
	kt_strbuf_puts(sb, "\n],\"displayTimeUnit\":\"ns\",\"otherData\":{"
		       "\"clock\":\"CLOCK_MONOTONIC\",\"producer\":");
	put_str(sb, h->producer);
	kt_strbuf_puts(sb, ",\"producer_version\":");
	put_str(sb, h->producer_version);
	kt_strbuf_puts(sb, ",\"host\":");
	put_str(sb, h->host);
	kt_strbuf_puts(sb, ",\"kernel\":");
	put_str(sb, h->kernel_release);
	kt_strbuf_puts(sb, ",\"kfd_abi\":");
	put_abi(sb, &procs[0]);
	kt_strbuf_printf(sb, ",\"pid\":%d,\"exe\":", h->pid);
	put_str(sb, h->exe);
	kt_strbuf_puts(sb, ",\"start_monotonic_ns\":");
	kfd_json_u64(sb, h->start_monotonic);
	kt_strbuf_puts(sb, ",\"start_realtime_ns\":");
	kfd_json_u64(sb, h->start_realtime);
	kt_strbuf_printf(sb, ",\"simulated\":%s,\"records\":%llu,"
			 "\"processes\":[",
			 (h->flags & KT_HDR_SIMULATED) ? "true" : "false",
			 (unsigned long long)records);
	for (i = 0; i < n; i++) {
		if (i)
			kt_strbuf_putc(sb, ',');
		proc_info(sb, &procs[i]);
	}
	kt_strbuf_printf(sb, "],\"integrity\":\"%s\"}}\n", integrity);
}

static void
pfj_release(struct pf_sink *s, struct pf_proc *procs, size_t n)
{
	struct pfj *j = s->priv;

	(void)procs;
	(void)n;
	if (j)
		free(j->procs);
	free(j);
	s->priv = NULL;
}

const struct pf_sink_ops pf_json_ops = {
	.begin = pfj_begin,
	.process = pfj_process,
	.thread_name = pfj_thread_name,
	.slice = pfj_slice,
	.instant = pfj_instant,
	.submit = pfj_submit,
	.object = pfj_object,
	.counter = pfj_counter,
	.end = pfj_end,
	.release = pfj_release,
};

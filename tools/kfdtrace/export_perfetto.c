/* SPDX-License-Identifier: MIT */
/*
 * Chrome trace-event JSON for Perfetto and chrome://tracing.
 *
 * One object {"traceEvents":[...],"displayTimeUnit":"ns","otherData":{...}}
 * written in one pass, in sequence order:
 *  - "M" metadata names the process (the header's exe) and each thread
 *    (THREAD_NAME records);
 *  - every ioctl is a complete slice "X" on its thread, args = the decoded
 *    record (the same object as `kfdtrace dump --json`); API calls are "X"
 *    slices too and enclose the ioctls they caused, since both are timed
 *    on the same thread;
 *  - other syscalls and annotations are thread-scoped instants "i";
 *  - BO, queue and event lifetimes are async slices "b"/"e" (they overlap
 *    freely, which "X" slices on one track may not), one track group per
 *    GPU and heap; objects alive at the end close at the last timestamp
 *    with "leaked":true;
 *  - a counter "C" per GPU carries the live bytes of each heap.
 * Timestamps are CLOCK_MONOTONIC in microseconds with nanosecond decimals,
 * so the export lines up with other traces of the same boot.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "commands.h"
#include "report_objects.h"
#include "kfdtrace/decode.h"
#include "kfdtrace/packet_abi.h"
#include "kfdtrace/packets.h"
#include "kfdtrace/schema.h"

/* Output is written in chunks of about this size. */
#define PF_CHUNK (256 * 1024)

/* Queue tracks named (more queues share the last one's name). */
#define PF_MAX_QUEUE_TRACKS 256
/* Queue tracks are threads of their own, numbered above any tid. */
#define PF_QUEUE_TID_BASE 2000000000u

struct pf {
	FILE *out;
	struct kt_strbuf sb;		/* pending output */
	struct kfd_decode_opts dopts;
	struct obj_tracker objs;
	int32_t pid;
	uint64_t last_ts;		/* latest time seen, for leaks */
	uint64_t events;
	int io_error;
	/* Queues whose track is named (submit records), by track id. */
	uint32_t queue_tracks[PF_MAX_QUEUE_TRACKS];
	unsigned int nqueue_tracks;
};

static void
pf_flush(struct pf *p)
{
	if (p->sb.len && !p->io_error &&
	    fwrite(p->sb.data, 1, p->sb.len, p->out) != p->sb.len)
		p->io_error = 1;
	kt_strbuf_clear(&p->sb);
}

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

/* Start an event object up to and including its "ts". */
static void
ev_begin(struct pf *p, char ph, const char *cat, const char *name,
	 uint32_t tid, uint64_t ts)
{
	struct kt_strbuf *sb = &p->sb;

	if (p->events++)
		kt_strbuf_append(sb, ",\n", 2);
	kt_strbuf_append(sb, "{\"ph\":\"", 7);
	kt_strbuf_putc(sb, ph);
	kt_strbuf_putc(sb, '"');
	if (cat) {
		kt_strbuf_puts(sb, ",\"cat\":");
		put_str(sb, cat);
	}
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
ev_end(struct pf *p)
{
	kt_strbuf_putc(&p->sb, '}');
	if (p->sb.len >= PF_CHUNK)
		pf_flush(p);
}

static void
metadata(struct pf *p, const char *what, uint32_t tid, const char *name)
{
	struct kt_strbuf *sb = &p->sb;

	if (p->events++)
		kt_strbuf_append(sb, ",\n", 2);
	kt_strbuf_printf(sb, "{\"ph\":\"M\",\"name\":\"%s\",\"pid\":%d,"
			 "\"tid\":%u,\"args\":{\"name\":", what, p->pid, tid);
	put_str(sb, name);
	kt_strbuf_putc(sb, '}');
	ev_end(p);
}

/* The decoded record as "args". */
static void
args_decoded(struct pf *p, const struct kt_record *rec)
{
	kt_strbuf_puts(&p->sb, ",\"args\":");
	kfd_decode_json(&p->sb, rec, &p->dopts);
}

/* The async track an object belongs to: one per GPU and heap (BOs). */
static void
object_track(const struct obj_change *c, const char **cat, char *name,
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

/* A "b" (@begin) or "e" async event for an object's lifetime. */
static void
object_event(struct pf *p, const struct obj_change *c, int begin,
	     uint32_t tid, uint64_t ts, int leaked)
{
	struct kt_strbuf *sb = &p->sb;
	const char *cat, *tn;
	char name[64];

	object_track(c, &cat, name, sizeof(name));
	ev_begin(p, begin ? 'b' : 'e', cat, name, tid, ts);
	kt_strbuf_printf(sb, ",\"id\":\"0x%llx\",\"args\":{",
			 (unsigned long long)c->val.seq);
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
	ev_end(p);
}

/* The live bytes of every heap of @gpu_id, as one counter event. */
static void
memory_counter(struct pf *p, uint32_t gpu_id, uint64_t ts)
{
	struct kt_strbuf *sb = &p->sb;
	char name[48];
	size_t i;
	int n = 0;

	snprintf(name, sizeof(name), "memory gpu 0x%x (bytes)", gpu_id);
	ev_begin(p, 'C', NULL, name, (uint32_t)p->pid, ts);
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
	ev_end(p);
}

static void
ioctl_event(struct pf *p, const struct kt_record *rec)
{
	const struct kt_ioctl_rec *io = &rec->u.ioctl;
	const struct kfd_ioctl_desc *desc;
	struct obj_change ch[OBJ_MAX_CHANGES];
	unsigned int n, i;
	char name[32];
	uint64_t end = io->t_exit >= rec->ts ? io->t_exit : rec->ts;

	desc = kfd_schema_lookup((enum kfd_file_kind)io->file_kind,
				 io->request);
	if (desc)
		snprintf(name, sizeof(name), "%s", desc->name);
	else
		snprintf(name, sizeof(name), "ioctl 0x%08x", io->request);
	ev_begin(p, 'X', io->ret < 0 ? "ioctl,failed" : "ioctl", name,
		 rec->tid, rec->ts);
	kt_strbuf_puts(&p->sb, ",\"dur\":");
	put_us(&p->sb, end - rec->ts);
	args_decoded(p, rec);
	ev_end(p);
	if (end > p->last_ts)
		p->last_ts = end;

	/* Objects change when the call returns. */
	n = obj_tracker_ioctl(&p->objs, rec, desc, ch);
	for (i = 0; i < n; i++) {
		int is_new = ch[i].kind == OBJ_BO_NEW ||
			     ch[i].kind == OBJ_QUEUE_NEW ||
			     ch[i].kind == OBJ_EVENT_NEW;

		object_event(p, &ch[i], is_new, rec->tid, end, 0);
		if (ch[i].mem && (i + 1 == n || ch[i + 1].val.gpu_id !=
						 ch[i].val.gpu_id))
			memory_counter(p, ch[i].val.gpu_id, end);
	}
}

static void
api_event(struct pf *p, const struct kt_record *rec)
{
	const struct kt_api_call_rec *a = &rec->u.api;
	uint64_t end = a->t_exit >= rec->ts ? a->t_exit : rec->ts;
	struct kt_strbuf *sb = &p->sb;

	ev_begin(p, 'X', "api", a->name ? a->name : "api", rec->tid, rec->ts);
	kt_strbuf_puts(sb, ",\"dur\":");
	put_us(sb, end - rec->ts);
	args_decoded(p, rec);
	ev_end(p);
	if (end > p->last_ts)
		p->last_ts = end;
}

static void
instant_event(struct pf *p, const struct kt_record *rec, const char *cat,
	      const char *name)
{
	ev_begin(p, 'i', cat, name, rec->tid, rec->ts);
	kt_strbuf_puts(&p->sb, ",\"s\":\"t\"");
	args_decoded(p, rec);
	ev_end(p);
}

/*
 * What a doorbell published, on its queue's track (one per queue): an
 * instant named by its first packet, the packets decoded in "args".
 */
static void
submit_event(struct pf *p, const struct kt_record *rec)
{
	const struct kt_submit_rec *s = &rec->u.submit;
	const struct kfd_packet_desc *r = NULL;
	uint32_t tid = PF_QUEUE_TID_BASE + (s->gpu_id & 0xffffu) * 1024u +
		       (s->queue_id & 1023u);
	char name[64];
	unsigned int i;
	size_t size;

	for (i = 0; i < p->nqueue_tracks && p->queue_tracks[i] != tid; i++)
		;
	if (i == p->nqueue_tracks && i < PF_MAX_QUEUE_TRACKS) {
		p->queue_tracks[p->nqueue_tracks++] = tid;
		snprintf(name, sizeof(name), "queue %u gpu 0x%x (%s)", s->queue_id,
			 s->gpu_id, kfd_engine_name(s->engine));
		metadata(p, "thread_name", tid, name);
	}
	if (s->data && s->engine == KFD_ENGINE_AQL && s->len >= KFD_AQL_PACKET_SIZE)
		r = kfd_aql_packet(s->data);
	else if (s->data && s->engine == KFD_ENGINE_SDMA)
		r = kfd_sdma_packet(s->data, s->len, &size);
	ev_begin(p, 'i', "submit", r ? r->name : "submit", tid, rec->ts);
	kt_strbuf_puts(&p->sb, ",\"s\":\"t\"");
	args_decoded(p, rec);
	ev_end(p);
}

static int
pf_emit(void *ctx, const struct kt_record *rec)
{
	struct pf *p = ctx;
	char text[64];

	if (rec->ts > p->last_ts && rec->type != KT_REC_END)
		p->last_ts = rec->ts;
	switch (rec->type) {
	case KT_REC_IOCTL:
		ioctl_event(p, rec);
		break;
	case KT_REC_API_CALL:
		api_event(p, rec);
		break;
	case KT_REC_THREAD_NAME:
		metadata(p, "thread_name", rec->tid,
			 rec->u.thread_name.name ? rec->u.thread_name.name : "");
		break;
	case KT_REC_ANNOTATION:
		/* The text names the marker; long text stays in args. */
		snprintf(text, sizeof(text), "%s",
			 rec->u.annotation.text ? rec->u.annotation.text : "");
		instant_event(p, rec, "annotation", text);
		break;
	case KT_REC_FORK:
	case KT_REC_EXEC:
		instant_event(p, rec, "process", kt_rec_type_name(rec->type));
		break;
	case KT_REC_END:
		break;
	case KT_REC_SUBMIT:
		submit_event(p, rec);
		break;
	case KT_REC_MEMORY:
		/* What the next submit references: in its arguments' dump. */
		break;
	default:
		instant_event(p, rec, "syscall",
			      kt_rec_type_name(rec->type) ?
			      kt_rec_type_name(rec->type) : "record");
		break;
	}
	if (p->sb.failed || p->objs.oom)
		return -1;
	return p->io_error ? -1 : 0;
}

/* Close the lifetimes of every object still alive at the end. */
static void
close_leaks(struct pf *p, struct u64map *map, enum obj_change_kind kind)
{
	struct u64map_slot **sorted = u64map_sorted(map);
	struct obj_change c;
	size_t i;

	for (i = 0; sorted && i < map->n; i++) {
		c.kind = kind;
		c.key = sorted[i]->key;
		c.val = sorted[i]->val;
		c.mem = NULL;
		object_event(p, &c, 0, (uint32_t)p->pid, p->last_ts, 1);
	}
	if (map->n && !sorted)
		p->sb.failed = 1;
	free(sorted);
}

static const char *
integrity_name(const struct kt_reader_status *st, int rc)
{
	if (rc == -KT_ETRUNC || st->integrity == KT_INTEGRITY_TRUNCATED)
		return "truncated";
	if (rc == -KT_ECORRUPT || st->integrity == KT_INTEGRITY_CORRUPT)
		return "corrupt";
	if (rc < 0)
		return "unreadable";
	if (st->integrity == KT_INTEGRITY_DAMAGED)
		return "damaged";
	if (st->integrity == KT_INTEGRITY_INCOMPLETE)
		return "incomplete";
	if (st->integrity == KT_INTEGRITY_NO_END)
		return "no-end";
	return "ok";
}

static void
other_data(struct pf *p, const struct kt_header *h,
	   const struct kt_reader_status *st, int rc)
{
	struct kt_strbuf *sb = &p->sb;

	kt_strbuf_puts(sb, "\n],\"displayTimeUnit\":\"ns\",\"otherData\":{"
		       "\"clock\":\"CLOCK_MONOTONIC\",\"producer\":");
	put_str(sb, h->producer);
	kt_strbuf_puts(sb, ",\"producer_version\":");
	put_str(sb, h->producer_version);
	kt_strbuf_puts(sb, ",\"host\":");
	put_str(sb, h->host);
	kt_strbuf_puts(sb, ",\"kernel\":");
	put_str(sb, h->kernel_release);
	if (h->kfd_major || h->kfd_minor)
		kt_strbuf_printf(sb, ",\"kfd_abi\":\"%u.%u\"", h->kfd_major,
				 h->kfd_minor);
	else
		kt_strbuf_puts(sb, ",\"kfd_abi\":null");
	kt_strbuf_printf(sb, ",\"pid\":%d,\"exe\":", h->pid);
	put_str(sb, h->exe);
	kt_strbuf_puts(sb, ",\"start_monotonic_ns\":");
	kfd_json_u64(sb, h->start_monotonic);
	kt_strbuf_puts(sb, ",\"start_realtime_ns\":");
	kfd_json_u64(sb, h->start_realtime);
	kt_strbuf_printf(sb, ",\"simulated\":%s,\"records\":%llu,"
			 "\"integrity\":\"%s\"}}\n",
			 (h->flags & KT_HDR_SIMULATED) ? "true" : "false",
			 (unsigned long long)st->records,
			 integrity_name(st, rc));
}

/*
 * Write every record of @r as trace events to @out. The JSON is complete
 * and valid even for a damaged trace: it covers the records before the
 * damage, and otherData says how reading ended (*read_rc is the last
 * kt_reader_next() result). Return: 0, -ENOMEM or -EIO.
 */
static int
export_perfetto(struct kt_reader *r, FILE *out, size_t window, int *read_rc)
{
	const struct kt_header *h = kt_reader_header(r);
	struct kt_reader_status st;
	struct cli_reorder ro;
	struct kt_record rec;
	const char *exe;
	struct pf p;
	int rc, err = 0;

	memset(&p, 0, sizeof(p));
	p.out = out;
	p.pid = h->pid;
	p.dopts.start_ns = h->start_monotonic;
	kt_strbuf_init(&p.sb);
	obj_tracker_init(&p.objs);

	kt_strbuf_puts(&p.sb, "{\"traceEvents\":[\n");
	exe = strrchr(h->exe, '/');
	exe = exe ? exe + 1 : h->exe;
	metadata(&p, "process_name", (uint32_t)h->pid,
		 exe[0] ? exe : "traced process");

	cli_reorder_init(&ro, window ? window : CLI_REORDER_WINDOW, 0,
			 pf_emit, &p);
	while ((rc = kt_reader_next(r, &rec)) == 1)
		if (cli_reorder_push(&ro, &rec))
			break;
	if (rc == 1 || cli_reorder_flush(&ro))
		err = p.io_error ? -EIO : -ENOMEM;
	cli_reorder_free(&ro);
	*read_rc = rc == 1 ? 0 : rc;

	if (!err) {
		close_leaks(&p, &p.objs.bos, OBJ_BO_GONE);
		close_leaks(&p, &p.objs.queues, OBJ_QUEUE_GONE);
		close_leaks(&p, &p.objs.events, OBJ_EVENT_GONE);
		kt_reader_get_status(r, &st);
		other_data(&p, h, &st, *read_rc);
		if (p.sb.failed)
			err = -ENOMEM;
		pf_flush(&p);
		if (!err && (p.io_error || fflush(out) != 0))
			err = -EIO;
	}
	kt_strbuf_release(&p.sb);
	obj_tracker_release(&p.objs);
	return err;
}

int
kfdtrace_export_perfetto(const char *trace, const char *dest,
			 const struct kfdtrace_export_opts *o)
{
	struct kt_reader *r;
	FILE *out = stdout;
	int rc, read_rc = 0, status;

	if (cli_open(trace, &r))
		return KFDTRACE_EXIT_ERROR;
	if (strcmp(dest, "-") != 0) {
		out = fopen(dest, "w");
		if (!out) {
			fprintf(stderr, "kfdtrace: %s: %s\n", dest,
				strerror(errno));
			kt_reader_close(r);
			return KFDTRACE_EXIT_ERROR;
		}
	}
	rc = export_perfetto(r, out, 0, &read_rc);
	if (out != stdout && fclose(out) != 0 && !rc)
		rc = -EIO;
	if (rc) {
		fprintf(stderr, "kfdtrace: %s: %s\n", dest,
			rc == -ENOMEM ? "out of memory" : "write error");
		status = KFDTRACE_EXIT_ERROR;
	} else {
		status = cli_finish(trace, r, read_rc);
		if (o->verbose)
			fprintf(stderr, "kfdtrace: wrote trace events %s\n",
				dest);
	}
	kt_reader_close(r);
	return status;
}

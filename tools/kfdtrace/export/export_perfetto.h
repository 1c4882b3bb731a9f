/* SPDX-License-Identifier: MIT */
/*
 * The Perfetto export (kfdtrace export --perfetto): one driver that reads
 * every process of a run, selects records and follows object lifetimes
 * (export_perfetto.c), and one writer per output format behind struct
 * pf_sink_ops: Chrome trace-event JSON (export_perfetto_json.c) and
 * Perfetto's protobuf trace format (export_perfetto_proto.c).
 *
 * Identity across processes: every id a writer emits (JSON async ids,
 * protobuf track uuids and sequence ids) is derived from the process's
 * pid and gen, so neither one export of a whole run nor exports of a
 * parent and its child concatenated afterwards can have two processes
 * share an id. An exec'd image keeps its pid (it is the same process to
 * Perfetto, its threads on the same tracks); gen keeps its objects apart.
 */
#ifndef KFDTRACE_EXPORT_PERFETTO_H
#define KFDTRACE_EXPORT_PERFETTO_H

#include <stdint.h>
#include <stdio.h>

#include "kfdtrace/decode.h"
#include "kfdtrace/schema.h"
#include "kfdtrace/trace.h"
#include "core/objects.h"
#include "core/run.h"

/* One process being exported. */
struct pf_proc {
	struct cli_run_proc *rp;	/* its trace in the run */
	unsigned int idx;		/* in the run */
	int32_t pid;
	unsigned int gen;		/* earlier processes of the run with this
					 * pid (0, or the image after an exec) */
	const char *name;		/* the exe's base name */
	struct obj_tracker objs;
	struct kc_u64map shown;		/* created seq -> object whose begin
					 * was written (ends follow only those) */
	struct kfd_decode_opts dopts;
	uint32_t abi_major, abi_minor;	/* the header's, else GET_VERSION's */
	int have_abi;
	uint64_t last_ts;		/* latest time seen, for leaks */
	uint64_t selected;		/* records written as events */
	struct kt_reader_status st;	/* filled after reading */
	void *priv;			/* the writer's per-process state */
};

struct pf_sink;

/*
 * What a writer does with the driver's events. @tid of object() and
 * counter() is the thread the change happened on (the pid for leaks).
 * Errors are kept in the sink (failed, io_error), not returned.
 */
struct pf_sink_ops {
	/* Before any process; @t0 is the run's earliest start time. */
	void (*begin)(struct pf_sink *s, struct pf_proc *procs, size_t n,
		      uint64_t t0);
	/* A process starts (before its records). */
	void (*process)(struct pf_sink *s, struct pf_proc *p);
	void (*thread_name)(struct pf_sink *s, struct pf_proc *p,
			    uint32_t tid, const char *name);
	/* A call with a duration: ioctls (@desc their row, may be NULL)
	 * and API calls (@desc NULL). */
	void (*slice)(struct pf_sink *s, struct pf_proc *p,
		      const struct kt_record *rec, const char *cat,
		      const char *name, uint64_t end,
		      const struct kfd_ioctl_desc *desc);
	void (*instant)(struct pf_sink *s, struct pf_proc *p,
			const struct kt_record *rec, const char *cat,
			const char *name);
	/* A doorbell's packets, named by the first one, on its queue. */
	void (*submit)(struct pf_sink *s, struct pf_proc *p,
		       const struct kt_record *rec, const char *name);
	void (*object)(struct pf_sink *s, struct pf_proc *p,
		       const struct obj_change *c, int begin, uint32_t tid,
		       uint64_t ts, int leaked);
	/* The live bytes of every heap of @gpu_id (p->objs.mem). */
	void (*counter)(struct pf_sink *s, struct pf_proc *p, uint32_t gpu_id,
			uint64_t ts);
	/* After every process; p->st and read results are filled. */
	void (*end)(struct pf_sink *s, struct pf_proc *procs, size_t n);
	/* Free the writer's state (also after errors). */
	void (*release)(struct pf_sink *s, struct pf_proc *procs, size_t n);
};

struct pf_sink {
	const struct pf_sink_ops *ops;
	FILE *out;
	struct kt_strbuf sb;		/* pending output */
	int io_error;
	int failed;			/* out of memory */
	void *priv;
};

/* Output is written in chunks of about this size. */
#define PF_CHUNK (256 * 1024)

/* pf_sink_flush() - write what is pending. */
void pf_sink_flush(struct pf_sink *s);

/* pf_sink_maybe_flush() - write when a chunk's worth is pending. */
static inline void
pf_sink_maybe_flush(struct pf_sink *s)
{
	if (s->sb.len >= PF_CHUNK)
		pf_sink_flush(s);
}

/* The object lifetimes' groups: one per GPU and heap (BOs), queues per
 * GPU, events. @name gets e.g. "VRAM gpu 0x1111". */
void pf_object_group(const struct obj_change *c, const char **cat,
		     char *name, size_t size);

/* pf_integrity_name() - "ok", "truncated", ... for a process's reading. */
const char *pf_integrity_name(const struct pf_proc *p);

/* A queue's track number within its process (gpu and queue id). */
static inline uint32_t
pf_queue_key(const struct kt_submit_rec *s)
{
	return (s->gpu_id & 0xffffu) * 1024u + (s->queue_id & 1023u);
}

extern const struct pf_sink_ops pf_json_ops;
extern const struct pf_sink_ops pf_proto_ops;

#endif /* KFDTRACE_EXPORT_PERFETTO_H */

/* SPDX-License-Identifier: MIT */
/*
 * Helpers of the protobuf writer (export_perfetto_proto.c): a string
 * interning table per packet sequence, and packing one TracePacket into
 * the sink's output with protobuf-c.
 */
#ifndef KFDTRACE_EXPORT_PERFETTO_PB_H
#define KFDTRACE_EXPORT_PERFETTO_PB_H

#include <stddef.h>
#include <stdint.h>

#include "export/export_perfetto.h"
#include "export/perfetto_trace.pb-c.h"

/* Strings -> interning ids (1, 2, ...), one table per kind and sequence. */
struct pfp_intern {
	struct pfp_intern_slot {
		char *s;
		uint64_t iid;
	} *slots;
	size_t cap, n;
};

/*
 * pfp_intern() - the id of @s in @t, adding it when new: *@added is then
 * the table's copy of @s (valid until pfp_intern_free()), which the caller
 * must define in the packet that uses it; else NULL.
 *
 * Return: the id, or 0 when memory ran out.
 */
uint64_t pfp_intern(struct pfp_intern *t, const char *s, const char **added);

/* pfp_intern_free() - free the table. */
void pfp_intern_free(struct pfp_intern *t);

/* Fields of one argument dictionary at most (larger structs are cut). */
#define PFP_MAX_FIELDS 48

/*
 * The interned data one packet defines (names it uses first), collected
 * while its event is built; data is the packet's interned_data.
 */
struct pfp_defs {
	Pftrace__EventName names[4], *pnames[4];
	Pftrace__EventCategory cats[4], *pcats[4];
	Pftrace__DebugAnnotationName args[PFP_MAX_FIELDS * 2 + 8];
	Pftrace__DebugAnnotationName *pargs[PFP_MAX_FIELDS * 2 + 8];
	Pftrace__InternedData data;
};

/* pfp_defs_init() - no definitions yet. */
void pfp_defs_init(struct pfp_defs *d);

/* pfp_defs_any() - whether @d defines anything (the packet carries it). */
int pfp_defs_any(const struct pfp_defs *d);

/*
 * pfp_def_name(), pfp_def_cat(), pfp_def_arg() - the interning id of an
 * event name, category or argument name in table @t of the sequence, added
 * to @d when new. Out of memory sets s->failed.
 */
uint64_t pfp_def_name(struct pf_sink *s, struct pfp_intern *t,
		      struct pfp_defs *d, const char *name);
uint64_t pfp_def_cat(struct pf_sink *s, struct pfp_intern *t,
		     struct pfp_defs *d, const char *cat);
uint64_t pfp_def_arg(struct pf_sink *s, struct pfp_intern *t,
		     struct pfp_defs *d, const char *name);

/*
 * pfp_annot() - an argument named by interning id @name_iid: @kind 'u'
 * unsigned, 'i' signed, 'p' pointer (Perfetto shows it in hex).
 */
void pfp_annot(Pftrace__DebugAnnotation *a, uint64_t name_iid, char kind,
	       uint64_t v);

/*
 * pfp_put_packet() - append @pkt, framed as one packet of a Trace (so
 * concatenated output is one trace), to @s's pending output.
 */
void pfp_put_packet(struct pf_sink *s, Pftrace__TracePacket *pkt);

#endif /* KFDTRACE_EXPORT_PERFETTO_PB_H */

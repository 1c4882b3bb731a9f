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

#include "export_perfetto.h"
#include "perfetto_trace.pb-c.h"

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

/*
 * pfp_put_packet() - append @pkt, framed as one packet of a Trace (so
 * concatenated output is one trace), to @s's pending output.
 */
void pfp_put_packet(struct pf_sink *s, Pftrace__TracePacket *pkt);

#endif /* KFDTRACE_EXPORT_PERFETTO_PB_H */

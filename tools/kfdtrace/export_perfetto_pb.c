/* SPDX-License-Identifier: MIT */
/*
 * Interning and packet output of the protobuf writer (export_perfetto_pb.h).
 */
#include <stdlib.h>
#include <string.h>

#include "export_perfetto_pb.h"

static uint64_t
str_hash(const char *s)
{
	uint64_t h = 1469598103934665603ULL;	/* FNV-1a */

	while (*s)
		h = (h ^ (unsigned char)*s++) * 1099511628211ULL;
	return h;
}

static int
intern_grow(struct pfp_intern *t)
{
	size_t cap = t->cap ? t->cap * 2 : 64, i, j;
	struct pfp_intern_slot *slots = calloc(cap, sizeof(*slots));

	if (!slots)
		return -1;
	for (i = 0; i < t->cap; i++) {
		if (!t->slots[i].s)
			continue;
		j = str_hash(t->slots[i].s) & (cap - 1);
		while (slots[j].s)
			j = (j + 1) & (cap - 1);
		slots[j] = t->slots[i];
	}
	free(t->slots);
	t->slots = slots;
	t->cap = cap;
	return 0;
}

uint64_t
pfp_intern(struct pfp_intern *t, const char *s, const char **added)
{
	size_t i;

	*added = NULL;
	if ((t->n + 1) * 2 > t->cap && intern_grow(t))
		return 0;
	i = str_hash(s) & (t->cap - 1);
	while (t->slots[i].s) {
		if (strcmp(t->slots[i].s, s) == 0)
			return t->slots[i].iid;
		i = (i + 1) & (t->cap - 1);
	}
	t->slots[i].s = strdup(s);
	if (!t->slots[i].s)
		return 0;
	t->slots[i].iid = ++t->n;
	*added = t->slots[i].s;
	return t->slots[i].iid;
}

void
pfp_intern_free(struct pfp_intern *t)
{
	size_t i;

	for (i = 0; i < t->cap; i++)
		free(t->slots[i].s);
	free(t->slots);
	memset(t, 0, sizeof(*t));
}

void
pfp_put_packet(struct pf_sink *s, Pftrace__TracePacket *pkt)
{
	Pftrace__Trace trace = PFTRACE__TRACE__INIT;
	Pftrace__TracePacket *one[1] = { pkt };
	size_t len;

	trace.n_packet = 1;
	trace.packet = one;
	len = pftrace__trace__get_packed_size(&trace);
	if (kt_strbuf_reserve(&s->sb, len)) {
		s->failed = 1;
		return;
	}
	pftrace__trace__pack(&trace, (uint8_t *)s->sb.data + s->sb.len);
	s->sb.len += len;
}

/* SPDX-License-Identifier: MIT */
/*
 * Interning, annotations and packet output of the protobuf writer
 * (export_perfetto_pb.h).
 */
#include <stdlib.h>
#include <string.h>

#include "export/export_perfetto_pb.h"

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

void
pfp_defs_init(struct pfp_defs *d)
{
	Pftrace__InternedData init = PFTRACE__INTERNED_DATA__INIT;

	d->data = init;
	d->data.event_names = d->pnames;
	d->data.event_categories = d->pcats;
	d->data.debug_annotation_names = d->pargs;
}

int
pfp_defs_any(const struct pfp_defs *d)
{
	return d->data.n_event_names || d->data.n_event_categories ||
	       d->data.n_debug_annotation_names;
}

uint64_t
pfp_def_name(struct pf_sink *s, struct pfp_intern *t, struct pfp_defs *d,
	     const char *name)
{
	Pftrace__EventName init = PFTRACE__EVENT_NAME__INIT;
	const char *added;
	uint64_t iid = pfp_intern(t, name, &added);

	if (!iid)
		s->failed = 1;
	if (added && d->data.n_event_names < 4) {
		Pftrace__EventName *e = &d->names[d->data.n_event_names];

		*e = init;
		e->has_iid = 1;
		e->iid = iid;
		e->name = (char *)added;
		d->pnames[d->data.n_event_names++] = e;
	}
	return iid;
}

uint64_t
pfp_def_cat(struct pf_sink *s, struct pfp_intern *t, struct pfp_defs *d,
	    const char *cat)
{
	Pftrace__EventCategory init = PFTRACE__EVENT_CATEGORY__INIT;
	const char *added;
	uint64_t iid = pfp_intern(t, cat, &added);

	if (!iid)
		s->failed = 1;
	if (added && d->data.n_event_categories < 4) {
		Pftrace__EventCategory *e = &d->cats[d->data.n_event_categories];

		*e = init;
		e->has_iid = 1;
		e->iid = iid;
		e->name = (char *)added;
		d->pcats[d->data.n_event_categories++] = e;
	}
	return iid;
}

uint64_t
pfp_def_arg(struct pf_sink *s, struct pfp_intern *t, struct pfp_defs *d,
	    const char *name)
{
	Pftrace__DebugAnnotationName init = PFTRACE__DEBUG_ANNOTATION_NAME__INIT;
	size_t max = sizeof(d->args) / sizeof(d->args[0]);
	const char *added;
	uint64_t iid = pfp_intern(t, name, &added);

	if (!iid)
		s->failed = 1;
	if (added && d->data.n_debug_annotation_names < max) {
		Pftrace__DebugAnnotationName *e =
			&d->args[d->data.n_debug_annotation_names];

		*e = init;
		e->has_iid = 1;
		e->iid = iid;
		e->name = (char *)added;
		d->pargs[d->data.n_debug_annotation_names++] = e;
	}
	return iid;
}

/* One annotation: @kind 'u' uint, 'i' int, 'p' pointer (shown in hex). */
void
pfp_annot(Pftrace__DebugAnnotation *a, uint64_t name_iid, char kind, uint64_t v)
{
	Pftrace__DebugAnnotation init = PFTRACE__DEBUG_ANNOTATION__INIT;

	*a = init;
	a->has_name_iid = 1;
	a->name_iid = name_iid;
	switch (kind) {
	case 'i':
		a->has_int_value = 1;
		a->int_value = (int64_t)v;
		break;
	case 'p':
		a->has_pointer_value = 1;
		a->pointer_value = v;
		break;
	default:
		a->has_uint_value = 1;
		a->uint_value = v;
		break;
	}
}

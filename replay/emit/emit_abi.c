/* SPDX-License-Identifier: MIT */
/*
 * The definitions an emitted program carries instead of kernel headers:
 * one packed struct per argument (or buffer element) layout a call used,
 * each checked against the schema's size, the request codes by name, and
 * the flag and enum names of the schema's name tables as constants. All
 * of it comes from the schema rows; nothing here knows an ioctl.
 */
#include <ctype.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include <kfdtrace/kfd_abi.h>

#include "emit_priv.h"

const char *
em_member(const struct kfd_field *f, char *buf, size_t len)
{
	size_t i;

	for (i = 0; f->name[i] && i + 1 < len; i++)
		buf[i] = (char)(isalnum((unsigned char)f->name[i]) ?
				f->name[i] : '_');
	buf[i] = '\0';
	return buf;
}

/* The field that selects a union arm of @sd, or -1. */
static int
selector(const struct kfd_struct_desc *sd)
{
	unsigned int i;

	for (i = 0; i < sd->nfields; i++)
		if (sd->fields[i].select >= 0)
			return sd->fields[i].select;
	return -1;
}

/*
 * Whether field @i is a member of the layout: in its arm, and not
 * overlapping a member before it (arms the schema lists in one struct).
 */
static int
member_of(const struct kfd_struct_desc *sd, int sel, uint64_t arm,
	  unsigned int i)
{
	const struct kfd_field *f = &sd->fields[i];
	unsigned int j;

	if (f->select >= 0 && (f->select != sel || f->select_value != arm))
		return 0;
	for (j = 0; j < sd->nfields; j++) {
		const struct kfd_field *g = &sd->fields[j];

		if (j == i || (g->select >= 0 &&
			       (g->select != sel || g->select_value != arm)))
			continue;
		if (g->offset < f->offset + f->width &&
		    f->offset < g->offset + g->width &&
		    (g->offset < f->offset || (g->offset == f->offset && j < i)))
			return 0;
	}
	return 1;
}

static const struct em_layout *
layout_get(struct em *e, const struct kfd_struct_desc *sd, int sel,
	   uint64_t arm)
{
	struct em_layout *l, **slot;
	const char *an = NULL;
	size_t i, k;

	for (i = 0; i < e->layouts.n; i++) {
		l = *RP_AT(&e->layouts, struct em_layout *, i);
		if (l->sd == sd && l->sel == sel && (sel < 0 || l->arm == arm))
			return l;
	}
	/* Each on its own: blocks keep pointers to them as the list grows. */
	l = calloc(1, sizeof(*l));
	slot = l ? rp_vec_push(&e->layouts) : NULL;
	if (!slot) {
		free(l);
		return NULL;
	}
	*slot = l;
	l->sd = sd;
	l->sel = (int16_t)sel;
	l->arm = arm;
	if (sel < 0) {
		snprintf(l->name, sizeof(l->name), "%s", sd->name);
		return l;
	}
	if (sd->fields[sel].names)
		an = kfd_name_lookup(sd->fields[sel].names, arm);
	if (an) {
		k = (size_t)snprintf(l->name, sizeof(l->name), "%s_", sd->name);
		for (i = 0; an[i] && k + 1 < sizeof(l->name); i++)
			l->name[k++] = (char)(isalnum((unsigned char)an[i]) ?
					      tolower((unsigned char)an[i]) : '_');
		l->name[k] = '\0';
	} else {
		snprintf(l->name, sizeof(l->name), "%s_%" PRIu64, sd->name, arm);
	}
	return l;
}

const struct em_layout *
em_layout(struct em *e, const struct kfd_struct_desc *sd, const uint8_t *b,
	  size_t len)
{
	int sel = selector(sd);
	uint64_t arm = 0;
	unsigned int i;

	if (sel >= 0 && b && kfd_field_load(&sd->fields[sel], b, len, &arm) == 0)
		for (i = 0; i < sd->nfields; i++)
			if (sd->fields[i].select == sel &&
			    sd->fields[i].select_value == arm)
				return layout_get(e, sd, sel, arm);
	return layout_get(e, sd, -1, 0);
}

int
em_layout_has(const struct em_layout *l, unsigned int i)
{
	return member_of(l->sd, l->sel, l->arm, i);
}

void
em_num(struct kt_strbuf *sb, uint64_t v)
{
	if (v < 10000)
		kt_strbuf_printf(sb, "%" PRIu64, v);
	else
		kt_strbuf_printf(sb, "0x%" PRIx64 "%s", v,
				 v > 0xffffffffull ? "ull" : "");
}

void
em_errno(struct kt_strbuf *sb, int err)
{
	const char *n = err > 0 && err < 512 ? kfd_errno_name(err) : NULL;

	/* libc has the names below 512; the kernel's own have none there. */
	if (n)
		kt_strbuf_puts(sb, n);
	else
		kt_strbuf_printf(sb, "%d", err);
}

/* The constant naming entry @k of table @t ("ALLOC_FLAGS_VRAM"). */
static void
name_const(struct kt_strbuf *sb, const struct kfd_name_table *t, unsigned int k)
{
	const char *p;

	for (p = t->name; *p; p++)
		kt_strbuf_putc(sb, isalnum((unsigned char)*p) ?
			       (char)toupper((unsigned char)*p) : '_');
	kt_strbuf_putc(sb, '_');
	for (p = t->entries[k].name; *p; p++)
		kt_strbuf_putc(sb, isalnum((unsigned char)*p) ?
			       (char)toupper((unsigned char)*p) : '_');
}

static void
name_use(struct em *e, const struct kfd_name_table *t, unsigned int k)
{
	struct em_names *n;
	size_t i;

	for (i = 0; i < e->names.n; i++) {
		n = RP_AT(&e->names, struct em_names, i);
		if (n->t == t) {
			n->used[k] = 1;
			return;
		}
	}
	n = rp_vec_push(&e->names);
	if (!n)
		return;
	n->t = t;
	n->used = calloc(t->count ? t->count : 1, 1);
	if (n->used)
		n->used[k] = 1;
}

void
em_value(struct em *e, struct kt_strbuf *sb, const struct kfd_field *f,
	 uint64_t v)
{
	const struct kfd_name_table *t = f->names;
	uint64_t rem = v;
	unsigned int k;
	int first = 1;

	if (f->width < 8)
		v &= (1ull << (8 * f->width)) - 1;
	rem = v;
	if (!t || (!v && f->role != KFD_ROLE_ENUM)) {
		if (kfd_role_is_hex((enum kfd_role)f->role) && v >= 10)
			kt_strbuf_printf(sb, "0x%" PRIx64 "%s", v,
					 v > 0xffffffffull ? "ull" : "");
		else
			em_num(sb, v);
		return;
	}
	if (f->role == KFD_ROLE_ENUM) {
		for (k = 0; k < t->count; k++)
			if (t->entries[k].name && t->entries[k].value == v) {
				name_use(e, t, k);
				name_const(sb, t, k);
				return;
			}
		em_num(sb, v);
		return;
	}
	for (k = 0; k < t->count; k++) {
		uint64_t b = t->entries[k].value;

		if (!t->entries[k].name || !b || (rem & b) != b)
			continue;
		if (!first)
			kt_strbuf_puts(sb, " | ");
		first = 0;
		name_use(e, t, k);
		name_const(sb, t, k);
		rem &= ~b;
	}
	if (rem) {
		if (!first)
			kt_strbuf_puts(sb, " | ");
		kt_strbuf_printf(sb, "0x%" PRIx64, rem);
	}
}

void
em_bytes(struct kt_strbuf *sb, const uint8_t *p, size_t n)
{
	size_t i;

	kt_strbuf_puts(sb, "{");
	for (i = 0; i < n; i++)
		kt_strbuf_printf(sb, "%s0x%02x", i ? (i % 12 ? ", " : ",\n\t\t  ") :
				 " ", p[i]);
	kt_strbuf_puts(sb, n ? " }" : "0 }");
}

/* The macro name of a row's request code. */
static void
req_name(struct kt_strbuf *sb, const struct kfd_ioctl_desc *d)
{
	kt_strbuf_puts(sb, d->file_kind == KFD_FILE_KFD ? "AMDKFD_IOC_" :
		       "DRM_IOCTL_");
	kt_strbuf_puts(sb, d->name);
}

void
em_request(struct em *e, struct kt_strbuf *sb, const struct kfd_ioctl_desc *d,
	   uint32_t request)
{
	const uint32_t size_mask = 0x3fffu << 16;
	unsigned int row;
	const struct kfd_ioctl_desc *rows = kfd_schema_rows(&row);

	row = (unsigned int)(d - rows);
	if ((request & ~size_mask) != (d->request & ~size_mask)) {
		/* Another direction than the row's: the number as it was. */
		kt_strbuf_printf(sb, "0x%08" PRIx32 "u", request);
		return;
	}
	e->req_used[row] = 1;
	if (d->args)
		em_layout(e, d->args, NULL, 0);
	if (request == d->request) {
		req_name(sb, d);
		return;
	}
	e->resize_used = 1;
	kt_strbuf_puts(sb, "IOC_RESIZE(");
	req_name(sb, d);
	kt_strbuf_printf(sb, ", %" PRIu32 ")", KFD_ABI_IOC_SIZE(request));
}

static void
write_layout(FILE *out, const struct em_layout *l)
{
	const struct kfd_struct_desc *sd = l->sd;
	unsigned int *order, n = 0, i, j;
	uint32_t at = 0;
	char m[96];

	order = calloc(sd->nfields ? sd->nfields : 1, sizeof(*order));
	if (!order)
		return;
	for (i = 0; i < sd->nfields; i++)
		if (member_of(sd, l->sel, l->arm, i))
			order[n++] = i;
	/* By offset (insertion sort: a few dozen fields at most). */
	for (i = 1; i < n; i++)
		for (j = i; j > 0 && sd->fields[order[j - 1]].offset >
				     sd->fields[order[j]].offset; j--) {
			unsigned int t = order[j];

			order[j] = order[j - 1];
			order[j - 1] = t;
		}
	fprintf(out, "struct %s {\n", l->name);
	for (i = 0; i < n; i++) {
		const struct kfd_field *f = &sd->fields[order[i]];

		if (f->offset > at)
			fprintf(out, "\tuint8_t pad_%u[%u];\n", at,
				(unsigned int)(f->offset - at));
		em_member(f, m, sizeof(m));
		if (f->width == 1 || f->width == 2 || f->width == 4 ||
		    f->width == 8)
			fprintf(out, "\tuint%u_t %s;\n", 8u * f->width, m);
		else
			fprintf(out, "\tuint8_t %s[%u];\n", m, f->width);
		at = f->offset + f->width;
	}
	if (sd->size > at)
		fprintf(out, "\tuint8_t pad_%u[%u];\n", at, sd->size - at);
	fprintf(out, "} __attribute__((packed));\n"
		"_Static_assert(sizeof(struct %s) == %u, \"%s\");\n\n",
		l->name, sd->size, l->name);
	free(order);
}

static const char *
ioc_macro(unsigned int dir)
{
	switch (dir) {
	case KFD_DIR_IN:
		return "_IOW";
	case KFD_DIR_OUT:
		return "_IOR";
	case KFD_DIR_INOUT:
		return "_IOWR";
	default:
		return "_IO";
	}
}

void
em_write_defs(struct em *e, FILE *out)
{
	unsigned int nrows, i, k;
	const struct kfd_ioctl_desc *rows = kfd_schema_rows(&nrows);
	struct kt_strbuf sb;
	size_t j;

	fputs("/* ---------------------------------------------------------- */\n"
	      "/* The argument structs, from kfdtrace's ioctl schema.          */\n\n",
	      out);
	for (j = 0; j < e->layouts.n; j++)
		write_layout(out, *RP_AT(&e->layouts, struct em_layout *, j));
	fputs("/* Request codes. */\n", out);
	kt_strbuf_init(&sb);
	for (i = 0; i < nrows; i++) {
		const struct kfd_ioctl_desc *d = &rows[i];
		uint32_t size = KFD_ABI_IOC_SIZE(d->request);

		if (!e->req_used[i])
			continue;
		kt_strbuf_clear(&sb);
		req_name(&sb, d);
		if (d->args && size == d->args->size && d->dir)
			fprintf(out, "#define %s %s('%c', 0x%02x, struct %s)\n",
				sb.data, ioc_macro(d->dir), d->type,
				d->request & 0xff, d->args->name);
		else if (!size && !d->dir)
			fprintf(out, "#define %s _IO('%c', 0x%02x)\n", sb.data,
				d->type, d->request & 0xff);
		else
			fprintf(out, "#define %s 0x%08" PRIx32 "u\n", sb.data,
				d->request);
	}
	if (e->resize_used)
		fputs("/* The same request with another argument size. */\n"
		      "#define IOC_RESIZE(req, size) (((req) & ~(_IOC_SIZEMASK << "
		      "_IOC_SIZESHIFT)) | \\\n\t((unsigned long)(size) << "
		      "_IOC_SIZESHIFT))\n", out);
	fputs("\n/* Flag and enum names. */\n", out);
	for (j = 0; j < e->names.n; j++) {
		const struct em_names *n = RP_AT(&e->names, struct em_names, j);

		for (k = 0; n->used && k < n->t->count; k++) {
			if (!n->used[k])
				continue;
			kt_strbuf_clear(&sb);
			name_const(&sb, n->t, k);
			fprintf(out, "#define %s 0x%" PRIx64 "%s\n", sb.data,
				n->t->entries[k].value,
				n->t->entries[k].value > 0xffffffffull ? "ull" : "u");
		}
	}
	fputc('\n', out);
	kt_strbuf_release(&sb);
}

void
em_defs_free(struct em *e)
{
	size_t j;

	for (j = 0; j < e->names.n; j++)
		free(RP_AT(&e->names, struct em_names, j)->used);
	rp_vec_free(&e->names);
	for (j = 0; j < e->layouts.n; j++)
		free(*RP_AT(&e->layouts, struct em_layout *, j));
	rp_vec_free(&e->layouts);
	free(e->req_used);
}

/* SPDX-License-Identifier: MIT */
/*
 * kfd-lttng-gen: writes the "kfd" lttng-ust provider from the ioctl schema.
 *
 *   kfd-lttng-gen HEADER EMITTER	the tracepoint definitions (kfd_tp.h)
 *					and the emitter (kfd_tp_emit.c)
 *   kfd-lttng-gen --markdown		the event list for docs/lttng.md
 *
 * The schema table is the only description of the ioctls; this program
 * reads it at build time and turns each row into one event, so a row added
 * to the table is an event at the next build and nothing is typed twice.
 *
 * Per row, the layout of the babeltrace2 plugin's event of the same name
 * (formats/bt2, ioctl_class.c): fd, request, then the argument struct's
 * fields in table order (a field the kernel reads from the before-image,
 * one it writes from the after-image, one it reads and writes twice:
 * <name>_in before, <name> after), each flags field followed by the
 * string <name>_names ("VRAM|WRITABLE"), then ret, err and dur_ns. Types
 * and display bases are the plugin's: hex where kfd_role_is_hex() says,
 * flags as hex integers, enum fields as enumerations of their name table,
 * err as an enumeration of errno names ("OK" for 0); every enumeration
 * labels the values its names leave out "unnamed". Padding is left out.
 * Fields of a union arm (DBG_TRAP, AMDGPU_INFO, ...) are left out too:
 * which arm applies depends on another field's value, which a fixed event
 * layout cannot express; such events carry the raw argument bytes "args"
 * where the plugin has its variant. Indirect buffers and the plugin's
 * derived members (heap, what a free freed) are the plugin's alone. The
 * test event-layout compares the two layouts field by field.
 */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <kfdtrace/common/field_name.h>
#include <kfdtrace/decode.h>
#include <kfdtrace/schema.h>

#include "gen_tp.h"

#define GEN_NAME_MAX 96
#define GEN_MAX_FIELDS 128
#define GEN_MAX_ROWS 256
#define GEN_MAX_ENUMS 64
#define GEN_MAX_FTABS 64
/* Flags companions per event: KFDLT_NAMES_MAX (kfdlt_ev.h). */
#define GEN_MAX_NAMES 8
/* The label of values a name table leaves out (the plugin's too). */
#define GEN_UNNAMED "unnamed"
/* Past the kernel's largest errno, as the plugin's errno enumeration. */
#define GEN_ERRNO_LAST 4095

/* How a field is written into the event. */
enum gen_kind {
	GEN_INT,	/* decimal integer */
	GEN_HEX,	/* hex integer */
	GEN_ENUM,	/* CTF enum over a name table */
	GEN_TEXT,	/* fixed char array */
	GEN_BYTES,	/* fixed byte array, hex */
	GEN_NAMES,	/* string: the names of a flags field's bits */
};

struct gen_field {
	char name[GEN_NAME_MAX];
	const struct kfd_field *f;
	enum gen_kind kind;
	int after;		/* read from the after-image */
	int enum_index;		/* GEN_ENUM: index in gen_enums */
	int slot;		/* GEN_NAMES: index in the event's names */
	int ftab;		/* GEN_NAMES: index in gen_ftabs */
};

struct gen_event {
	const struct kfd_ioctl_desc *d;
	uint32_t size;		/* the argument struct's size */
	int has_union;		/* some fields were left out: carry raw bytes */
	unsigned int nnames;	/* GEN_NAMES fields */
	unsigned int nfields;
	struct gen_field fields[GEN_MAX_FIELDS];
};

struct gen_enum {
	const struct kfd_name_table *t;
	unsigned int width;	/* of the container, bytes */
	int is_signed;
	char name[GEN_NAME_MAX];
};

static struct gen_event gen_events[GEN_MAX_ROWS];
static unsigned int gen_nevents;
static struct gen_enum gen_enums[GEN_MAX_ENUMS];
static unsigned int gen_nenums;
/* Name tables of flags fields, for the emitter's <name>_names. */
static const struct kfd_name_table *gen_ftabs[GEN_MAX_FTABS];
static unsigned int gen_nftabs;

/*
 * errno names as the decoder has them, "OK" for 0: the err enumeration.
 * It is the first enumeration made, so it keeps the name "err_names",
 * which the fixed events (gen_tp_fixed.c) use.
 */
static struct kfd_name gen_errno_names[GEN_ERRNO_LAST + 1];
static struct kfd_name_table gen_errno_table = { "err_names", gen_errno_names, 0 };
static int gen_errno_enum = -1;


static int __attribute__((format(printf, 1, 2)))
gen_fail(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "kfd-lttng-gen: ");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\n");
	return -1;
}

static int
gen_is_ident(const char *s)
{
	if (!*s || !(isalpha((unsigned char)*s) || *s == '_'))
		return 0;
	for (; *s; s++)
		if (!isalnum((unsigned char)*s) && *s != '_')
			return 0;
	return 1;
}

/*
 * Whether @name is taken in @ev: by the call's own members (the common
 * rule's reserved names, which the babeltrace2 plugin avoids too), the
 * raw "args", or an earlier field.
 */
static int
gen_name_used(void *ctx, const char *name)
{
	const struct gen_event *ev = ctx;

	if (kc_field_name_reserved(name))
		return 1;
	if (ev->has_union && !strcmp(name, "args"))
		return 1;
	for (unsigned int i = 0; i < ev->nfields; i++)
		if (!strcmp(ev->fields[i].name, name))
			return 1;
	return 0;
}

/* Whether @name is taken by fd, request or an earlier field of @ev. */
static int
gen_name_used_plain(void *ctx, const char *name)
{
	const struct gen_event *ev = ctx;

	if (!strcmp(name, "fd") || !strcmp(name, "request"))
		return 1;
	for (unsigned int i = 0; i < ev->nfields; i++)
		if (!strcmp(ev->fields[i].name, name))
			return 1;
	return 0;
}

/* The range of a field of @width bytes, as unsigned or signed values. */
static void
gen_range(unsigned int width, int is_signed, int64_t *smin, uint64_t *max)
{
	unsigned int bits = 8 * width;

	if (is_signed) {
		*smin = bits >= 64 ? INT64_MIN : -(int64_t)(1ull << (bits - 1));
		*max = bits >= 64 ? (uint64_t)INT64_MAX : (1ull << (bits - 1)) - 1;
	} else {
		*smin = 0;
		*max = bits >= 64 ? UINT64_MAX : (1ull << bits) - 1;
	}
}

/* Whether every name of @t fits a field of @width bytes. */
static int
gen_table_fits(const struct kfd_name_table *t, unsigned int width,
	       int is_signed)
{
	uint64_t max;
	int64_t smin;

	gen_range(width, is_signed, &smin, &max);
	if (!t->count)
		return 0;
	for (unsigned int i = 0; i < t->count; i++) {
		uint64_t v = t->entries[i].value;

		if (!t->entries[i].name)
			return 0;
		if (is_signed ? (int64_t)v < smin || (int64_t)v > (int64_t)max :
				v > max)
			return 0;
	}
	return 1;
}

/* Whether an enum table of the provider already has @name. */
static int
gen_enum_taken(void *ctx, const char *name)
{
	(void)ctx;
	for (unsigned int i = 0; i < gen_nenums; i++)
		if (!strcmp(gen_enums[i].name, name))
			return 1;
	return 0;
}

/* The enumeration of @t over a @width-byte container, made on first use. */
static int
gen_enum_for(const struct kfd_name_table *t, unsigned int width, int is_signed)
{
	char name[GEN_NAME_MAX], base[GEN_NAME_MAX];
	unsigned int i;

	for (i = 0; i < gen_nenums; i++)
		if (gen_enums[i].t == t && gen_enums[i].width == width &&
		    gen_enums[i].is_signed == is_signed)
			return (int)i;
	if (gen_nenums == GEN_MAX_ENUMS)
		return -1;
	kc_field_name(t->name ? t->name : "names", base, sizeof(base));
	/* Two tables of one name would clash in the provider. */
	if (kc_field_name_unique(base, gen_enum_taken, NULL, name, sizeof(name)) < 0)
		return -1;
	gen_enums[gen_nenums].t = t;
	gen_enums[gen_nenums].width = width;
	gen_enums[gen_nenums].is_signed = is_signed;
	snprintf(gen_enums[gen_nenums].name, GEN_NAME_MAX, "%s", name);
	return (int)gen_nenums++;
}

/* The plugin's errno labels: the first value of each name, "OK" for 0. */
static void
gen_errno_build(void)
{
	unsigned int n = 0;

	for (int e = 0; e <= GEN_ERRNO_LAST; e++) {
		const char *name = e ? kfd_errno_name(e) : "OK";
		int dup = 0;

		if (!name)
			continue;
		for (unsigned int i = 0; i < n && !dup; i++)
			dup = !strcmp(gen_errno_names[i].name, name);
		if (dup)
			continue;
		gen_errno_names[n].value = (uint64_t)e;
		gen_errno_names[n++].name = name;
	}
	gen_errno_table.count = n;
	gen_errno_enum = gen_enum_for(&gen_errno_table, 4, 1);
}

static int
gen_ftab_for(const struct kfd_name_table *t)
{
	for (unsigned int i = 0; i < gen_nftabs; i++)
		if (gen_ftabs[i] == t)
			return (int)i;
	if (gen_nftabs == GEN_MAX_FTABS)
		return -1;
	gen_ftabs[gen_nftabs] = t;
	return (int)gen_nftabs++;
}

/* A flags field with names: the plugin gives it a <name>_names string. */
static int
gen_has_names(const struct kfd_field *f)
{
	return f->role == KFD_ROLE_FLAGS && f->names && f->names->count;
}

/*
 * Append field @f as @raw_name (the rule's name, made unique in @ev as the
 * plugin does), read from the after-image when @after; then its names.
 */
static int
gen_add_one(struct gen_event *ev, const struct kfd_field *f,
	    const char *raw_name, int after)
{
	struct gen_field *g;
	int numeric = f->width == 1 || f->width == 2 || f->width == 4 ||
		      f->width == 8;

	if (ev->nfields + 2 > GEN_MAX_FIELDS)
		return gen_fail("%s: more than the generator's field limit",
				ev->d->name);
	g = &ev->fields[ev->nfields];
	memset(g, 0, sizeof(*g));
	g->f = f;
	g->after = after;
	if (f->role == KFD_ROLE_STRING) {
		g->kind = GEN_TEXT;
	} else if (!numeric || f->role == KFD_ROLE_BYTES) {
		g->kind = GEN_BYTES;
	} else if (f->role == KFD_ROLE_ENUM && f->names && f->names->count) {
		/* The plugin's kbt_fc_for_field(): an enumeration. */
		if (!gen_table_fits(f->names, f->width, f->is_signed))
			return gen_fail("%s: a name of %s does not fit the field",
					ev->d->name, f->name);
		g->enum_index = gen_enum_for(f->names, f->width, f->is_signed);
		if (g->enum_index < 0)
			return gen_fail("more enumerations than the generator's limit");
		g->kind = GEN_ENUM;
	} else {
		g->kind = kfd_role_is_hex(f->role) ? GEN_HEX : GEN_INT;
	}
	if (kc_field_name_unique(raw_name, gen_name_used, ev, g->name,
				 sizeof(g->name)) < 0)
		return gen_fail("%s: no free name for the field", f->name);
	ev->nfields++;
	if (!gen_has_names(f) || g->kind != GEN_HEX)
		return 0;
	if (ev->nnames == GEN_MAX_NAMES)
		return gen_fail("%s: more flags fields than the generator's limit",
				ev->d->name);
	g = &ev->fields[ev->nfields];
	memset(g, 0, sizeof(*g));
	g->f = f;
	g->after = after;
	g->kind = GEN_NAMES;
	g->slot = (int)ev->nnames++;
	g->ftab = gen_ftab_for(f->names);
	if (g->ftab < 0)
		return gen_fail("more flags tables than the generator's limit");
	/* The plugin's kbt_struct_add_unique(): only earlier members count. */
	{
		char want[GEN_NAME_MAX];

		snprintf(want, sizeof(want), "%.*s_names", GEN_NAME_MAX - 8,
			 ev->fields[ev->nfields - 1].name);
		if (kc_field_name_unique(want, gen_name_used_plain, ev, g->name,
					 sizeof(g->name)) < 0)
			return gen_fail("%s: no free name for the field", f->name);
	}
	ev->nfields++;
	return 0;
}

/* A field's member(s) by direction, as the plugin's kbt_ic_add_field(). */
static int
gen_add_field(struct gen_event *ev, const struct kfd_field *f)
{
	char base[GEN_NAME_MAX], in_name[GEN_NAME_MAX + 4];
	int numeric = f->width == 1 || f->width == 2 || f->width == 4 ||
		      f->width == 8;

	if ((!numeric || f->role == KFD_ROLE_STRING ||
	     f->role == KFD_ROLE_BYTES) && !f->width)
		return 0;
	/* The common rule, as the babeltrace2 plugin names it. */
	kc_field_name(f->name, base, sizeof(base));
	switch (f->dir) {
	case KFD_DIR_OUT:
		return gen_add_one(ev, f, base, 1);
	case KFD_DIR_INOUT:
		snprintf(in_name, sizeof(in_name), "%s_in", base);
		return gen_add_one(ev, f, in_name, 0) ||
		       gen_add_one(ev, f, base, 1) ? -1 : 0;
	default:
		return gen_add_one(ev, f, base, 0);
	}
}

static int
gen_build(void)
{
	const struct kfd_ioctl_desc *rows;
	unsigned int nrows;

	gen_errno_build();
	if (gen_errno_enum < 0)
		return gen_fail("cannot make the errno enumeration");
	rows = kfd_schema_rows(&nrows);
	if (!rows || !nrows)
		return gen_fail("the schema has no rows");
	if (nrows > GEN_MAX_ROWS)
		return gen_fail("more rows than the generator's limit");
	for (unsigned int r = 0; r < nrows; r++) {
		const struct kfd_ioctl_desc *d = &rows[r];
		struct gen_event *ev = &gen_events[gen_nevents];

		if (!d->event_name || !gen_is_ident(d->event_name))
			return gen_fail("%s: event name \"%s\" is not an identifier",
					d->name, d->event_name ? d->event_name : "");
		for (size_t i = 0; i < gen_nfixed_events; i++)
			if (!strcmp(d->event_name, gen_fixed_events[i]))
				return gen_fail("%s: event name %s is reserved",
						d->name, d->event_name);
		for (unsigned int i = 0; i < gen_nevents; i++) {
			const struct kfd_ioctl_desc *o = gen_events[i].d;

			if (!strcmp(o->event_name, d->event_name))
				return gen_fail("two rows are named %s (%s)",
						d->event_name, d->name);
			if (o->file_kind == d->file_kind && o->nr == d->nr &&
			    o->only_size == d->only_size)
				return gen_fail("%s and %s share a request number",
						o->name, d->name);
		}
		memset(ev, 0, sizeof(*ev));
		ev->d = d;
		ev->size = d->args ? d->args->size : 0;
		for (unsigned int i = 0; d->args && i < d->args->nfields; i++)
			if (d->args->fields[i].select >= 0)
				ev->has_union = 1;
		/* Buffers of a union's arms: the plugin's variant too. */
		for (unsigned int i = 0; i < d->nbufs; i++)
			if (d->bufs[i].select >= 0)
				ev->has_union = 1;
		for (unsigned int i = 0; d->args && i < d->args->nfields; i++) {
			const struct kfd_field *f = &d->args->fields[i];

			if (f->select >= 0 || f->role == KFD_ROLE_PAD)
				continue;
			if ((uint32_t)f->offset + f->width > ev->size)
				return gen_fail("%s: field %s lies outside the struct",
						d->name, f->name);
			if (gen_add_field(ev, f))
				return -1;
		}
		gen_nevents++;
	}
	return 0;
}

/* ---- the provider header ---- */

static const char *
gen_ctype(const struct kfd_field *f)
{
	static const char *const u[] = { "uint8_t", "uint16_t", NULL, "uint32_t",
					 NULL, NULL, NULL, "uint64_t" };
	static const char *const s[] = { "int8_t", "int16_t", NULL, "int32_t",
					 NULL, NULL, NULL, "int64_t" };

	return f->is_signed ? s[f->width - 1] : u[f->width - 1];
}

static void
gen_field_line(FILE *o, const struct gen_field *g)
{
	const struct kfd_field *f = g->f;
	const char *img = g->after ? "e->out" : "e->in";
	char expr[128];

	if (g->kind == GEN_TEXT) {
		fprintf(o, "\t\tlttng_ust_field_array_text(char, %s, (const char *)%s + %u, %u)\n",
			g->name, img, f->offset, f->width);
		return;
	}
	if (g->kind == GEN_BYTES) {
		fprintf(o, "\t\tlttng_ust_field_array_hex(uint8_t, %s, %s + %u, %u)\n",
			g->name, img, f->offset, f->width);
		return;
	}
	if (g->kind == GEN_NAMES) {
		fprintf(o, "\t\tlttng_ust_field_string(%s, e->names[%d])\n",
			g->name, g->slot);
		return;
	}
	snprintf(expr, sizeof(expr), "%s%s%skfdlt_u%u(%s, %u)",
		 f->is_signed ? "(" : "", f->is_signed ? gen_ctype(f) : "",
		 f->is_signed ? ")" : "", f->width * 8, img, f->offset);
	if (g->kind == GEN_ENUM)
		fprintf(o, "\t\tlttng_ust_field_enum(kfd, %s, %s, %s, %s)\n",
			gen_enums[g->enum_index].name, gen_ctype(f), g->name, expr);
	else
		fprintf(o, "\t\tlttng_ust_field_integer%s(%s, %s, %s)\n",
			g->kind == GEN_HEX ? "_hex" : "", gen_ctype(f), g->name, expr);
}

/* A C string literal of a name from the schema. */
static void
gen_cstring(FILE *o, const char *s)
{
	fputc('"', o);
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			fputc('\\', o);
		if (isprint((unsigned char)*s))
			fputc(*s, o);
	}
	fputc('"', o);
}


/* A value of the provider's enumeration @en, as a C constant of its sign. */
static void
gen_enum_value(FILE *o, const struct gen_enum *en, uint64_t v)
{
	if (en->is_signed)
		fprintf(o, "(int64_t)%lldLL", (long long)v);
	else
		fprintf(o, "0x%llxULL", (unsigned long long)v);
}

static int
gen_cmp_ord(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/*
 * Enumeration @en: a label per value of its table (the first of a value
 * named twice), and GEN_UNNAMED for every value of the container the
 * table leaves out, as the plugin's kbt_fc_enum_complete().
 */
static void
gen_enum_def(FILE *o, const struct gen_enum *en)
{
	const struct kfd_name_table *t = en->t;
	uint64_t sign = en->is_signed ? 1ull << 63 : 0, max, lo;
	uint64_t *ord = calloc(t->count ? t->count : 1, sizeof(*ord));
	unsigned int n = 0;
	int64_t smin;

	fprintf(o, "LTTNG_UST_TRACEPOINT_ENUM(kfd, %s,\n"
		"\tLTTNG_UST_TP_ENUM_VALUES(\n", en->name);
	for (unsigned int j = 0; j < t->count; j++) {
		fprintf(o, "\t\tlttng_ust_field_enum_value(");
		gen_cstring(o, t->entries[j].name);
		fprintf(o, ", ");
		gen_enum_value(o, en, t->entries[j].value);
		fprintf(o, ")\n");
		if (ord)
			ord[n++] = t->entries[j].value ^ sign;
	}
	/* The gaps, in an order where signed values sort too. */
	gen_range(en->width, en->is_signed, &smin, &max);
	lo = (uint64_t)smin ^ sign;
	max ^= sign;
	qsort(ord, n, sizeof(*ord), gen_cmp_ord);
	for (unsigned int j = 0; ord && j <= n; j++) {
		uint64_t hi = j < n ? ord[j] : max;

		if (j < n && ord[j] < lo)
			continue;
		if (j == n || ord[j] > lo) {
			if (j < n)
				hi--;
			fprintf(o, "\t\tlttng_ust_field_enum_range(\"%s\", ",
				GEN_UNNAMED);
			gen_enum_value(o, en, lo ^ sign);
			fprintf(o, ", ");
			gen_enum_value(o, en, hi ^ sign);
			fprintf(o, ")\n");
		}
		if (j == n || ord[j] >= max)
			break;
		lo = ord[j] + 1;
	}
	free(ord);
	fprintf(o, "\t))\n\n");
}

static void
gen_header(FILE *o)
{
	fprintf(o,
		"/* SPDX-License-Identifier: MIT */\n"
		"/*\n"
		" * The \"kfd\" lttng-ust tracepoint provider. Generated from the ioctl\n"
		" * schema by kfd-lttng-gen (tracer/lttng/gen_tp.c): do not edit.\n"
		" */\n"
		"#undef LTTNG_UST_TRACEPOINT_PROVIDER\n"
		"#define LTTNG_UST_TRACEPOINT_PROVIDER kfd\n"
		"#undef LTTNG_UST_TRACEPOINT_INCLUDE\n"
		"#define LTTNG_UST_TRACEPOINT_INCLUDE \"kfd_tp.h\"\n"
		"\n"
		"#if !defined(KFD_TP_H) || defined(LTTNG_UST_TRACEPOINT_HEADER_MULTI_READ)\n"
		"#define KFD_TP_H\n"
		"\n"
		"#include <stdint.h>\n"
		"#include <lttng/tracepoint.h>\n"
		"\n"
		"#include \"kfdlt_ev.h\"\n"
		"\n");
	for (unsigned int i = 0; i < gen_nenums; i++)
		gen_enum_def(o, &gen_enums[i]);
	fprintf(o, "%s\n", gen_fixed_text);

	for (unsigned int i = 0; i < gen_nevents; i++) {
		const struct gen_event *ev = &gen_events[i];

		fprintf(o, "/* %s: %s 0x%02x, struct %s (%u bytes) */\n",
			ev->d->name, kfd_file_kind_name(ev->d->file_kind),
			ev->d->nr, ev->d->args ? ev->d->args->name : "-", ev->size);
		fprintf(o, "LTTNG_UST_TRACEPOINT_EVENT(kfd, %s,\n"
			"\tLTTNG_UST_TP_ARGS(const struct kfdlt_ev *, e),\n"
			"\tLTTNG_UST_TP_FIELDS(\n"
			"\t\tlttng_ust_field_integer(int, fd, e->fd)\n"
			"\t\tlttng_ust_field_integer_hex(uint32_t, request, e->request)\n",
			ev->d->event_name);
		for (unsigned int j = 0; j < ev->nfields; j++)
			gen_field_line(o, &ev->fields[j]);
		if (ev->has_union)
			fprintf(o, "\t\tlttng_ust_field_sequence_hex(uint8_t, args, e->raw, uint16_t, e->raw_len)\n");
		fprintf(o, "\t\tlttng_ust_field_integer(int64_t, ret, e->ret)\n"
			"\t\tlttng_ust_field_enum(kfd, %s, int, err, e->err)\n"
			"\t\tlttng_ust_field_integer(uint64_t, dur_ns, e->dur_ns)))\n\n",
			gen_enums[gen_errno_enum].name);
	}
	fprintf(o, "#endif /* KFD_TP_H */\n\n#include <lttng/tracepoint-event.h>\n");
}

/* ---- the emitter ---- */

static uint32_t
gen_max_size(void)
{
	uint32_t max = 8;

	for (unsigned int i = 0; i < gen_nevents; i++)
		if (gen_events[i].size > max)
			max = gen_events[i].size;
	return max;
}

/* The flags tables the <name>_names strings are made from. */
static void
gen_ftab_defs(FILE *o)
{
	for (unsigned int i = 0; i < gen_nftabs; i++) {
		const struct kfd_name_table *t = gen_ftabs[i];

		fprintf(o, "static const struct kfdlt_flag kfdlt_ftab%u[] = {\n", i);
		for (unsigned int j = 0; j < t->count; j++) {
			if (!t->entries[j].name)
				continue;
			fprintf(o, "\t{ 0x%llxULL, ",
				(unsigned long long)t->entries[j].value);
			gen_cstring(o, t->entries[j].name);
			fprintf(o, " },\n");
		}
		fprintf(o, "\t{ 0, NULL },\n};\n\n");
	}
}

static void
gen_emitter(FILE *o)
{
	fprintf(o,
		"/* SPDX-License-Identifier: MIT */\n"
		"/*\n"
		" * From a finished call to its schema row's event. Generated from the\n"
		" * ioctl schema by kfd-lttng-gen (tracer/lttng/gen_tp.c): do not edit.\n"
		" */\n"
		"#include \"kfd_tp.h\"\n"
		"\n"
		"#if KFDLT_NAMES_MAX < %d\n"
		"#error \"kfdlt_ev.h: KFDLT_NAMES_MAX is below the generator's\"\n"
		"#endif\n"
		"\n"
		"#define KFDLT_KEY(kind, nr, only_size) \\\n"
		"\t((uint64_t)(only_size) << 32 | (uint32_t)(kind) << 16 | (uint32_t)(nr))\n"
		"\n", GEN_MAX_NAMES);
	gen_ftab_defs(o);
	fprintf(o,
		"int\n"
		"kfdlt_emit_row(const struct kfd_dispatch_call *c)\n"
		"{\n"
		"\tunsigned char tin[%u], tout[%u];\n"
		"\tchar names[KFDLT_NAMES_MAX][KFDLT_NAMES_LEN];\n"
		"\tstruct kfdlt_ev e;\n"
		"\n"
		"\t(void)names;\t/* unused when no row has flags */\n"
		"\tswitch (KFDLT_KEY(c->desc->file_kind, c->desc->nr,\n"
		"\t\t\t   c->desc->only_size)) {\n",
		gen_max_size(), gen_max_size());
	for (unsigned int i = 0; i < gen_nevents; i++) {
		const struct gen_event *ev = &gen_events[i];
		const char *n = ev->d->event_name;

		fprintf(o,
			"\tcase KFDLT_KEY(%u, 0x%02x, %u):\t/* %s */\n"
			"\t\tif (!lttng_ust_tracepoint_enabled(kfd, %s))\n"
			"\t\t\treturn 1;\n"
			"\t\tif (kfdlt_ev_init(&e, c, %u, tin, tout))\n"
			"\t\t\treturn 0;\n",
			ev->d->file_kind, ev->d->nr, ev->d->only_size, ev->d->name,
			n, ev->size);
		for (unsigned int j = 0; j < ev->nfields; j++) {
			const struct gen_field *g = &ev->fields[j];

			if (g->kind != GEN_NAMES)
				continue;
			fprintf(o, "\t\te.names[%d] = kfdlt_flag_names(names[%d], "
				"kfdlt_ftab%d, kfdlt_u%u(%s, %u));\n",
				g->slot, g->slot, g->ftab, g->f->width * 8,
				g->after ? "e.out" : "e.in", g->f->offset);
		}
		fprintf(o,
			"\t\tlttng_ust_do_tracepoint(kfd, %s, &e);\n"
			"\t\treturn 1;\n", n);
	}
	fprintf(o, "\tdefault:\n\t\treturn 0;\n\t}\n}\n");
}

/* ---- the documentation ---- */

static const char *
gen_kind_doc(const struct gen_field *g)
{
	switch (g->kind) {
	case GEN_HEX:
		return "hex";
	case GEN_ENUM:
		return "enum";
	case GEN_TEXT:
		return "text";
	case GEN_BYTES:
		return "bytes";
	case GEN_NAMES:
		return "names";
	default:
		return "dec";
	}
}

static void
gen_markdown(FILE *o)
{
	fprintf(o, "| event | request | fields (after fd, request; then ret, err, dur_ns) |\n"
		"|---|---|---|\n");
	for (unsigned int i = 0; i < gen_nevents; i++) {
		const struct gen_event *ev = &gen_events[i];

		fprintf(o, "| `kfd:%s` | %s %s 0x%02x | ", ev->d->event_name,
			ev->d->name, kfd_file_kind_name(ev->d->file_kind),
			ev->d->nr);
		for (unsigned int j = 0; j < ev->nfields; j++) {
			const struct gen_field *g = &ev->fields[j];

			fprintf(o, "%s`%s` %s%s", j ? ", " : "", g->name,
				gen_kind_doc(g), g->after ? " (out)" : "");
		}
		if (ev->has_union)
			fprintf(o, "%s`args` (raw bytes; union arms left out)",
				ev->nfields ? ", " : "");
		fprintf(o, " |\n");
	}
}

static int
gen_write(const char *path, void (*fn)(FILE *))
{
	FILE *o = fopen(path, "w");

	if (!o)
		return gen_fail("cannot write %s: %s", path, strerror(errno));
	fn(o);
	if (fclose(o))
		return gen_fail("cannot write %s: %s", path, strerror(errno));
	return 0;
}

int
main(int argc, char **argv)
{
	if (gen_build())
		return 1;
	if (argc == 2 && !strcmp(argv[1], "--markdown")) {
		gen_markdown(stdout);
		return fflush(stdout) ? 1 : 0;
	}
	if (argc != 3) {
		fprintf(stderr, "usage: kfd-lttng-gen HEADER EMITTER | --markdown\n");
		return 2;
	}
	if (gen_write(argv[1], gen_header) || gen_write(argv[2], gen_emitter))
		return 1;
	return 0;
}

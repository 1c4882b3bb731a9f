/* SPDX-License-Identifier: MIT */
/*
 * Decoding ioctl records through the schema.
 *
 * One walk over the row's fields prints the in-part (before-image) and a
 * second one the out-part (after-image). Indirect buffers print in place of
 * the pointer field that names them; SVM's trailing attribute array, which
 * has no pointer, prints after the fields. Every read is bounded by the
 * lengths stored in the record.
 */
#include <stdio.h>
#include <string.h>

#include "decode_priv.h"

#define IOC_NR(req)	((req) & 0xffu)
#define IOC_TYPE(req)	(((req) >> 8) & 0xffu)
#define IOC_SIZE(req)	(((req) >> 16) & 0x3fffu)

const struct kfd_ioctl_desc *
kt_ioctl_row(const struct kt_ioctl_rec *io)
{
	return kfd_schema_lookup((enum kfd_file_kind)io->file_kind,
				 io->request);
}

struct ioc {
	const struct kt_ioctl_rec *io;
	const struct kfd_ioctl_desc *desc;
	const struct kfd_struct_desc *sd;	/* may be NULL */
	const uint8_t *before;
	size_t blen;
	const uint8_t *after;
	size_t alen;
	const uint8_t *sel;		/* image that union selectors read */
	size_t sel_len;
	int failed;			/* the call returned an error */
	size_t ioc_size;		/* bytes the request says it passes */
};

/* The image of the buffer that field @fi points at, or NULL. */
static const struct kt_buf_image *
buf_for_field(const struct ioc *c, unsigned int fi)
{
	const struct kt_ioctl_rec *io = c->io;
	unsigned int i;

	if (!io->bufs)
		return NULL;
	for (i = 0; i < io->nbufs; i++) {
		const struct kt_buf_image *img = &io->bufs[i];

		if (img->index < c->desc->nbufs &&
		    c->desc->bufs[img->index].ptr_field == (int)fi &&
		    c->desc->bufs[img->index].len_kind != KFD_LEN_TRAILING)
			return img;
	}
	return NULL;
}

static int
field_in(const struct kfd_field *f, size_t len)
{
	return (size_t)f->offset + f->width <= len;
}

/* Whether the call changed the field's bytes. */
static int
field_changed(const struct ioc *c, const struct kfd_field *f)
{
	if (!c->after || !field_in(f, c->alen))
		return 0;
	if (!c->before || !field_in(f, c->blen))
		return 1;
	return memcmp(c->before + f->offset, c->after + f->offset,
		      f->width) != 0;
}

static int
field_nonzero(const struct kfd_field *f, const uint8_t *img, size_t len)
{
	size_t i;

	if (!img || !field_in(f, len))
		return 0;
	for (i = 0; i < f->width; i++)
		if (img[f->offset + i])
			return 1;
	return 0;
}

/* One element of a buffer, by its struct layout when the schema has one. */
static void
print_elem(struct dec *d, const struct kfd_struct_desc *esd, const uint8_t *p,
	   size_t esz)
{
	unsigned int i;
	int first = 1;

	if (!esd || !esd->fields || !esd->nfields) {
		uint64_t v = 0;

		switch (esz) {
		case 1: case 2: case 4: case 8:
			/* Little-endian, like the ABI. */
			for (i = esz; i-- > 0;)
				v = v << 8 | p[i];
			dec_hex(d, v);
			return;
		default:
			dec_bytes(d, p, esz, 0, '<', '>');
			return;
		}
	}
	if (!field_in(&esd->fields[0], esz)) {
		/* A stride too short for even the first field: raw bytes. */
		dec_bytes(d, p, esz, 0, '<', '>');
		return;
	}
	if (esd->nfields == 1 && esd->fields[0].select < 0) {
		/* Single-field elements (gpu_id arrays) print bare. */
		dec_field(d, &esd->fields[0], p, esz);
		return;
	}
	kt_strbuf_putc(d->sb, '{');
	for (i = 0; i < esd->nfields; i++) {
		const struct kfd_field *f = &esd->fields[i];

		/* Past a negotiated stride (older snapshot entries). */
		if (!field_in(f, esz) || !kfd_field_present(esd, f, p, esz))
			continue;
		if (f->role == KFD_ROLE_PAD && !field_nonzero(f, p, esz))
			continue;
		dec_key(d, &first, f->name);
		dec_field(d, f, p, esz);
	}
	kt_strbuf_putc(d->sb, '}');
}

/* Elision marker inside an array: "... +N" / "..." for a clamped image. */
static void
print_more(struct dec *d, int *first, uint64_t more)
{
	dec_sep(d, first);
	if (d->json)
		kt_strbuf_putc(d->sb, '"');
	kt_strbuf_append(d->sb, "...", 3);
	if (more) {
		kt_strbuf_append(d->sb, " +", 2);
		kt_strbuf_put_u64(d->sb, more);
	}
	if (d->json)
		kt_strbuf_putc(d->sb, '"');
}

/*
 * Byte buffers hold names and version strings (DRM_VERSION) as often as
 * binary blobs: printable text, optionally NUL-padded, reads better quoted.
 */
static int
looks_like_text(const uint8_t *p, size_t n)
{
	size_t i = 0;

	if (!n || !p || (p[0] < 0x20 || p[0] >= 0x7f))
		return 0;
	for (; i < n && p[i]; i++)
		if ((p[i] < 0x20 && p[i] != '\n' && p[i] != '\t') ||
		    p[i] >= 0x7f)
			return 0;
	for (; i < n; i++)
		if (p[i])
			return 0;
	return 1;
}

/* The contents of a buffer image: an array of elements, or hex bytes. */
static void
print_contents(struct dec *d, const struct ioc *c, const struct kfd_indirect *bi,
	       const uint8_t *data, size_t len, int clamped)
{
	/* Elements stride by what the caller asked (snapshot entry_size). */
	size_t esz = bi ? kfd_indirect_stride(c->desc, bi, c->sel, c->sel_len) : 0;
	size_t n, i, shown;
	int first = 1;

	if (!esz || (esz == 1 && !bi->elem)) {
		if (looks_like_text(data, len))
			dec_str_bounded(d, (const char *)data, len);
		else
			dec_bytes(d, data, len, 0, '<', '>');
		if (clamped && !d->json)
			kt_strbuf_append(d->sb, "...", 3);
		return;
	}
	n = len / esz;
	shown = n < d->max_elems ? n : d->max_elems;
	kt_strbuf_putc(d->sb, '[');
	for (i = 0; i < shown; i++) {
		dec_sep(d, &first);
		print_elem(d, bi->elem, data + i * esz, esz);
	}
	if (shown < n)
		print_more(d, &first, n - shown);
	if (len % esz && shown == n && bi->len_kind == KFD_LEN_STRIDED) {
		/* The last entry holds what the kernel filled of it, which
		 * may be less than the stride the caller asked. */
		dec_sep(d, &first);
		print_elem(d, bi->elem, data + n * esz, len % esz);
	} else if (len % esz) {
		/* A partial element: the image was cut inside it. */
		dec_sep(d, &first);
		dec_bytes(d, data + n * esz, len % esz, 0, '<', '>');
	}
	if (clamped)
		print_more(d, &first, 0);
	kt_strbuf_putc(d->sb, ']');
}

/* A pointer field's buffer image (@after picks the image). */
static void
print_buf_image(struct dec *d, const struct ioc *c,
		const struct kt_buf_image *img, int after)
{
	const struct kfd_indirect *bi = img->index < c->desc->nbufs ?
					&c->desc->bufs[img->index] : NULL;
	const uint8_t *data = after ? img->after : img->before;
	size_t len = after ? img->len_after : img->len_before;
	uint16_t have = after ? KT_BUF_AFTER : KT_BUF_BEFORE;

	if (img->flags & KT_BUF_UNREADABLE) {
		if (d->json) {
			kt_strbuf_append(d->sb, "{\"addr\":", 8);
			dec_u64(d, img->addr);
			kt_strbuf_append(d->sb, ",\"unreadable\":true}", 19);
		} else {
			kt_strbuf_put_hex(d->sb, img->addr);
			kt_strbuf_append(d->sb, " /* unreadable */", 17);
		}
		return;
	}
	if (!(img->flags & have) || (img->flags & KT_BUF_OMITTED) ||
	    (!data && len)) {
		if (!d->json && img->addr == 0)
			kt_strbuf_append(d->sb, "NULL", 4);
		else
			dec_hex(d, img->addr);
		return;
	}
	print_contents(d, c, bi, data, len, !!(img->flags & KT_BUF_CLAMPED));
}

/* Whether an inout buffer's after-image differs from its before-image. */
static int
buf_changed(const struct kt_buf_image *img)
{
	if (!(img->flags & KT_BUF_AFTER) || (!img->after && img->len_after))
		return 0;
	if (!(img->flags & KT_BUF_BEFORE) || (!img->before && img->len_before))
		return 1;
	if (img->len_before != img->len_after)
		return 1;
	return img->len_after &&
	       memcmp(img->before, img->after, img->len_after) != 0;
}

/*
 * Fields past the request's size were not passed at all: the caller's
 * struct is an older, shorter layout (CREATE_QUEUE before 1.17, the bare
 * CREATE_PROCESS). Fields inside it but past a short image print as '?'.
 */
static int
field_skipped(const struct ioc *c, const struct kfd_field *f)
{
	if ((size_t)f->offset + f->width > c->ioc_size)
		return 1;
	return !kfd_field_present(c->sd, f, c->sel, c->sel_len);
}

/* The trailing array (SVM attributes) inside an argument image. */
static int
trailing_bytes(const struct ioc *c, const struct kfd_indirect *bi, int after,
	       const uint8_t **data, size_t *len, int *clamped)
{
	const uint8_t *img = after ? c->after : c->before;
	size_t ilen = after ? c->alen : c->blen;
	size_t cap;
	int r;

	if (!img || !c->sd || ilen <= c->sd->size)
		return 0;
	cap = ilen - c->sd->size;
	r = kfd_indirect_len(c->desc, bi, img, ilen, after, cap, len);
	if (r == 1)
		return 0;
	*clamped = r < 0;
	if (*len > cap)
		*len = cap;
	/* The count field may promise more than the request's size carried. */
	if (bi->count_field >= 0 && c->sd &&
	    (unsigned int)bi->count_field < c->sd->nfields) {
		uint64_t count;

		if (kfd_field_get(&c->sd->fields[bi->count_field], img, ilen,
				  &count) == 0 && bi->elem_size &&
		    count > *len / bi->elem_size)
			*clamped = 1;
	}
	*data = img + c->sd->size;
	return 1;
}

static void
print_in(struct dec *d, const struct ioc *c, int *first)
{
	const struct kfd_struct_desc *sd = c->sd;
	unsigned int i;

	for (i = 0; sd && i < sd->nfields; i++) {
		const struct kfd_field *f = &sd->fields[i];
		const struct kt_buf_image *img;

		if (f->dir == KFD_DIR_OUT || field_skipped(c, f))
			continue;
		if (f->role == KFD_ROLE_PAD &&
		    !field_nonzero(f, c->before, c->blen))
			continue;
		dec_key(d, first, f->name);
		img = f->role == KFD_ROLE_PTR ? buf_for_field(c, i) : NULL;
		if (img && (c->desc->bufs[img->index].dir & KFD_DIR_IN))
			print_buf_image(d, c, img, 0);
		else
			dec_field(d, f, c->before, c->blen);
	}
	for (i = 0; i < c->desc->nbufs; i++) {
		const struct kfd_indirect *bi = &c->desc->bufs[i];
		const uint8_t *data;
		size_t len;
		int clamped = 0;

		if (bi->len_kind != KFD_LEN_TRAILING ||
		    !(bi->dir & KFD_DIR_IN) ||
		    !trailing_bytes(c, bi, 0, &data, &len, &clamped))
			continue;
		dec_key(d, first, bi->name);
		print_contents(d, c, bi, data, len, clamped);
	}
	/* Images the schema cannot place still get shown, raw. */
	for (i = 0; c->io->bufs && i < c->io->nbufs; i++) {
		const struct kt_buf_image *img = &c->io->bufs[i];
		const struct kfd_indirect *bi = img->index < c->desc->nbufs ?
						&c->desc->bufs[img->index] : NULL;
		char key[24];

		if (bi && bi->ptr_field >= 0 && sd &&
		    (unsigned int)bi->ptr_field < sd->nfields)
			continue;
		if (bi && bi->len_kind == KFD_LEN_TRAILING)
			continue;
		snprintf(key, sizeof(key), "buf%u", (unsigned int)img->index);
		dec_key(d, first, key);
		print_buf_image(d, c, img, img->before ? 0 : 1);
	}
}

static void
print_out(struct dec *d, const struct ioc *c, int *first)
{
	const struct kfd_struct_desc *sd = c->sd;
	unsigned int i;

	for (i = 0; sd && i < sd->nfields; i++) {
		const struct kfd_field *f = &sd->fields[i];
		const struct kt_buf_image *img;
		int show;

		if (field_skipped(c, f))
			continue;
		img = f->role == KFD_ROLE_PTR ? buf_for_field(c, i) : NULL;
		if (img) {
			uint8_t bdir = c->desc->bufs[img->index].dir;

			if ((bdir & KFD_DIR_OUT) &&
			    (img->flags & KT_BUF_AFTER) &&
			    ((bdir == KFD_DIR_OUT && !c->failed) ||
			     buf_changed(img))) {
				dec_key(d, first, f->name);
				print_buf_image(d, c, img, 1);
				continue;
			}
		}
		if (!c->after)
			continue;
		if (f->role == KFD_ROLE_PAD)
			show = field_changed(c, f) &&
			       field_nonzero(f, c->after, c->alen);
		else if (f->dir == KFD_DIR_OUT)
			show = !c->failed || field_changed(c, f);
		else if (f->dir == KFD_DIR_INOUT)
			show = field_changed(c, f);
		else
			show = 0;
		if (!show)
			continue;
		dec_key(d, first, f->name);
		dec_field(d, f, c->after, c->alen);
	}
	for (i = 0; i < c->desc->nbufs; i++) {
		const struct kfd_indirect *bi = &c->desc->bufs[i];
		const uint8_t *data, *bdata;
		size_t len, blen;
		int clamped = 0, bclamped = 0;

		if (bi->len_kind != KFD_LEN_TRAILING ||
		    !(bi->dir & KFD_DIR_OUT) ||
		    !trailing_bytes(c, bi, 1, &data, &len, &clamped))
			continue;
		if ((bi->dir & KFD_DIR_IN) &&
		    trailing_bytes(c, bi, 0, &bdata, &blen, &bclamped) &&
		    blen == len && memcmp(bdata, data, len) == 0)
			continue;
		dec_key(d, first, bi->name);
		print_contents(d, c, bi, data, len, clamped);
	}
}

static void
text_ioctl_prefix_unknown(struct dec *d, const struct kt_ioctl_rec *io)
{
	uint32_t type = IOC_TYPE(io->request);

	kt_strbuf_append(d->sb, "ioctl(fd=", 9);
	kt_strbuf_put_s64(d->sb, io->fd);
	kt_strbuf_append(d->sb, ", ", 2);
	kt_strbuf_put_hex(d->sb, io->request);
	kt_strbuf_append(d->sb, " /* ", 4);
	if (type > 0x20 && type < 0x7f) {
		kt_strbuf_putc(d->sb, (char)type);
	} else {
		kt_strbuf_append(d->sb, "type=", 5);
		kt_strbuf_put_hex(d->sb, type);
	}
	kt_strbuf_append(d->sb, " nr=", 4);
	kt_strbuf_put_hex(d->sb, IOC_NR(io->request));
	kt_strbuf_append(d->sb, " size=", 6);
	kt_strbuf_put_u64(d->sb, IOC_SIZE(io->request));
	kt_strbuf_append(d->sb, " */", 3);
}

static int
images_differ(const struct kt_ioctl_rec *io)
{
	if (!io->arg_after || !io->arg_size)
		return 0;
	if (!io->arg_before)
		return 1;
	return memcmp(io->arg_before, io->arg_after, io->arg_size) != 0;
}

static void
text_unknown(struct dec *d, const struct kt_record *rec)
{
	const struct kt_ioctl_rec *io = &rec->u.ioctl;

	text_ioctl_prefix_unknown(d, io);
	if (io->arg_before && io->arg_size) {
		kt_strbuf_append(d->sb, ", ", 2);
		dec_bytes(d, io->arg_before, io->arg_size, 0, '{', '}');
	}
	kt_strbuf_append(d->sb, ") = ", 4);
	dec_text_ret(d, io->ret, io->err);
	if (images_differ(io)) {
		kt_strbuf_putc(d->sb, ' ');
		dec_bytes(d, io->arg_after, io->arg_size, 0, '{', '}');
	}
}

static void
json_ioctl_common(struct dec *d, int *first, const struct kt_ioctl_rec *io)
{
	dec_key(d, first, "fd");
	dec_s64(d, io->fd);
	dec_key(d, first, "file");
	kt_strbuf_putc(d->sb, '"');
	kt_strbuf_puts(d->sb, kfd_file_kind_name(io->file_kind));
	kt_strbuf_putc(d->sb, '"');
	dec_key(d, first, "request");
	dec_u64(d, io->request);
}

static void
json_unknown(struct dec *d, int *first, const struct kt_record *rec)
{
	const struct kt_ioctl_rec *io = &rec->u.ioctl;
	uint32_t type = IOC_TYPE(io->request);
	char t[1];

	dec_key(d, first, "name");
	kt_strbuf_append(d->sb, "null", 4);
	json_ioctl_common(d, first, io);
	dec_key(d, first, "ioc_type");
	t[0] = (char)type;
	kfd_json_escape(d->sb, t, 1);
	dec_key(d, first, "nr");
	dec_u64(d, IOC_NR(io->request));
	dec_key(d, first, "size");
	dec_u64(d, IOC_SIZE(io->request));
	/* JSON keeps the whole argument: it is for programs, not eyes. */
	dec_key(d, first, "in_hex");
	if (io->arg_before)
		dec_bytes(d, io->arg_before, io->arg_size, io->arg_size + 1,
			  0, 0);
	else
		kt_strbuf_append(d->sb, "null", 4);
	dec_json_ret(d, first, io->ret, io->err);
	dec_key(d, first, "out_hex");
	if (io->arg_after)
		dec_bytes(d, io->arg_after, io->arg_size, io->arg_size + 1,
			  0, 0);
	else
		kt_strbuf_append(d->sb, "null", 4);
}

void
dec_ioctl(struct dec *d, int *pfirst, const struct kt_record *rec)
{
	const struct kt_ioctl_rec *io = &rec->u.ioctl;
	struct ioc c;
	int ofirst;
	size_t mark;

	memset(&c, 0, sizeof(c));
	c.io = io;
	c.desc = kt_ioctl_row(io);
	if (!c.desc) {
		if (d->json)
			json_unknown(d, pfirst, rec);
		else
			text_unknown(d, rec);
		goto tail;
	}
	c.sd = c.desc->args;
	c.before = io->arg_before;
	c.blen = io->arg_before ? io->arg_size : 0;
	c.after = io->arg_after;
	c.alen = io->arg_after ? io->arg_size : 0;
	c.sel = c.before ? c.before : c.after;
	c.sel_len = c.before ? c.blen : c.alen;
	c.failed = io->ret < 0;
	c.ioc_size = IOC_SIZE(io->request);

	if (d->json) {
		dec_key(d, pfirst, "name");
		kfd_json_escape(d->sb, c.desc->name, strlen(c.desc->name));
		dec_key(d, pfirst, "event");
		if (c.desc->event_name)
			kfd_json_escape(d->sb, c.desc->event_name,
					strlen(c.desc->event_name));
		else
			kt_strbuf_append(d->sb, "null", 4);
		json_ioctl_common(d, pfirst, io);
		dec_key(d, pfirst, "in");
		kt_strbuf_putc(d->sb, '{');
		ofirst = 1;
		print_in(d, &c, &ofirst);
		kt_strbuf_putc(d->sb, '}');
		dec_json_ret(d, pfirst, io->ret, io->err);
		dec_key(d, pfirst, "out");
		kt_strbuf_putc(d->sb, '{');
		ofirst = 1;
		print_out(d, &c, &ofirst);
		kt_strbuf_putc(d->sb, '}');
		goto tail;
	}

	kt_strbuf_puts(d->sb, c.desc->name);
	kt_strbuf_putc(d->sb, '(');
	ofirst = 1;
	print_in(d, &c, &ofirst);
	kt_strbuf_append(d->sb, ") = ", 4);
	dec_text_ret(d, io->ret, io->err);
	mark = d->sb->len;
	kt_strbuf_append(d->sb, " {", 2);
	ofirst = 1;
	print_out(d, &c, &ofirst);
	if (ofirst) {
		/* Nothing came out: drop the " {". */
		d->sb->len = mark;
		if (d->sb->data)
			d->sb->data[mark] = '\0';
	} else {
		kt_strbuf_putc(d->sb, '}');
	}

tail:
	if (d->json) {
		if (io->t_exit >= rec->ts) {
			dec_key(d, pfirst, "dur_ns");
			dec_u64(d, io->t_exit - rec->ts);
		}
	} else if ((d->flags & KFD_DECODE_DURATION) && io->t_exit >= rec->ts) {
		kt_strbuf_append(d->sb, " <", 2);
		dec_duration(d, io->t_exit - rec->ts);
		kt_strbuf_putc(d->sb, '>');
	}
}

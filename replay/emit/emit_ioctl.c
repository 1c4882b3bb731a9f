/* SPDX-License-Identifier: MIT */
/*
 * One ioctl record as a block of the emitted program: the indirect
 * buffers, the argument struct with the captured before-image (inputs the
 * replayer translates become calls of the runtime: rr_gpu(), rr_handle(),
 * rr_id(), rr_fd_in(), rr_offset(), rr_cpu()), the call, and the checks
 * of its outputs (emit_check.c). Waits the GPU released get stand-in
 * SET_EVENTs before them.
 */
#include <errno.h>
#include <inttypes.h>
#include <string.h>

#include <kfdtrace/decode.h>
#include <kfdtrace/kfd_abi.h>

#include "emit_priv.h"

/* Drop what was appended to @sb after @at. */
static void
cut(struct kt_strbuf *sb, size_t at)
{
	sb->len = at;
	if (sb->data)
		sb->data[at] = '\0';
}

/* Whether the plan translates input field @i. */
static int
plan_in(const struct rp_req_plan *p, unsigned int i)
{
	unsigned int k;

	for (k = 0; k < p->nin; k++)
		if (p->in[k] == i)
			return 1;
	return 0;
}

/*
 * Designated initializers for struct image @b of layout @l: every member
 * with a non-zero captured value; inputs with a translated role through
 * the runtime (@args: the argument struct, by the call's plan; else a
 * buffer element, by its fields' roles).
 */
static void
init_fields(struct em *e, struct kt_strbuf *sb, const struct em_call *c,
	    const struct em_layout *l, const uint8_t *b, size_t len, int args,
	    const char *indent)
{
	const struct kfd_struct_desc *sd = l->sd;
	const struct rp_rows *r = e->rows;
	unsigned int i;
	char m[96];

	for (i = 0; i < sd->nfields; i++) {
		const struct kfd_field *f = &sd->fields[i];
		uint64_t v = 0;
		int xl;

		if (!em_layout_has(l, i) || (size_t)f->offset + f->width > len)
			continue;
		if (f->width > 8) {
			size_t k;

			for (k = 0; k < f->width && !b[f->offset + k]; k++)
				;
			if (k == f->width)
				continue;
			kt_strbuf_printf(sb, "%s.%s = ", indent, em_member(f, m, sizeof(m)));
			em_bytes(sb, b + f->offset, f->width);
			kt_strbuf_puts(sb, ",\n");
			continue;
		}
		kfd_field_load(f, b, len, &v);
		xl = (f->dir & KFD_DIR_IN) &&
		     (args ? plan_in(c->plan, i) : rp_role_translated(f->role));
		/* Queue ids and event slots count from 0; enums name it. */
		if (!v && !(xl && (f->role == KFD_ROLE_QUEUE_ID ||
				   f->role == KFD_ROLE_EVENT_SLOT)) &&
		    !(f->role == KFD_ROLE_ENUM && f->names &&
		      kfd_name_lookup(f->names, 0)))
			continue;
		kt_strbuf_printf(sb, "%s.%s = ", indent, em_member(f, m, sizeof(m)));
		if (args && c->d->nbufs) {
			unsigned int j;
			int done = 0;

			/* A pointer to a rebuilt buffer. */
			for (j = 0; j < c->d->nbufs && j < KT_MAX_BUFS; j++) {
				if (c->d->bufs[j].ptr_field != (int16_t)i ||
				    c->var[j] < 0)
					continue;
				if (c->guard[c->var[j]])
					kt_strbuf_puts(sb, "rr_guard()");
				else
					kt_strbuf_printf(sb, "(uintptr_t)b%d",
							 c->var[j]);
				done = 1;
				break;
			}
			if (done) {
				kt_strbuf_puts(sb, ",\n");
				continue;
			}
		}
		if (args && c->d == r->alloc && f == r->alloc_off &&
		    (rp_fget(r->alloc_flags, b, len) &
		     KFD_ABI_ALLOC_MEM_FLAGS_USERPTR))
			em_xlate_expr(e, sb, c, KFD_ROLE_CPU_ADDR, v);
		else if (args && c->d == r->svm && f == r->svm_start)
			em_xlate_expr(e, sb, c, KFD_ROLE_CPU_ADDR, v);
		else if (!args && c->d == r->svm && f->attr == KFD_ATTR_VALUE &&
			 em_svm_attr_gpu((uint32_t)rp_fget(kfd_schema_attr(sd,
							KFD_ATTR_TYPE), b, len),
				      (uint32_t)v))
			em_xlate_expr(e, sb, c, KFD_ROLE_GPU_ID, v);
		else if (xl)
			em_xlate_expr(e, sb, c, f->role, v);
		else
			em_value(e, sb, f, v);
		kt_strbuf_puts(sb, ",\n");
	}
}

/*
 * @head, the initializers of init_fields() and @foot, when there is any
 * member to set. Return: 1 when something was written.
 */
static int
init_struct(struct em *e, struct kt_strbuf *sb, const struct em_call *c,
	    const struct em_layout *l, const uint8_t *b, size_t len, int args,
	    const char *indent, const char *head, const char *foot)
{
	struct kt_strbuf f;
	int any;

	kt_strbuf_init(&f);
	init_fields(e, &f, c, l, b, len, args, indent);
	any = f.len > 0;
	if (any) {
		kt_strbuf_puts(sb, head);
		kt_strbuf_append(sb, f.data, f.len);
		kt_strbuf_puts(sb, foot);
	}
	if (f.failed)
		sb->failed = 1;
	kt_strbuf_release(&f);
	return any;
}

/* Bytes of @b no member covers but that are not zero: copied in. */
static void
init_rest(struct kt_strbuf *sb, const struct em_layout *l, const char *var,
	  const uint8_t *b, size_t len)
{
	uint8_t cover[4096];
	size_t i, s;
	unsigned int k;

	if (len > sizeof(cover))
		len = sizeof(cover);
	memset(cover, 0, len);
	for (k = 0; k < l->sd->nfields; k++) {
		const struct kfd_field *f = &l->sd->fields[k];

		if (em_layout_has(l, k))
			for (i = f->offset; i < (size_t)f->offset + f->width && i < len; i++)
				cover[i] = 1;
	}
	for (i = 0; i < len; i++) {
		if (cover[i] || !b[i])
			continue;
		for (s = i; i < len && !cover[i]; i++)
			;
		kt_strbuf_printf(sb, "\tmemcpy((uint8_t *)&%s + %zu, (const uint8_t[])",
				 var, s);
		em_bytes(sb, b + s, i - s);
		kt_strbuf_printf(sb, ", %zu);\n", i - s);
	}
}

/*
 * An array of @n elements of layout @el from @len captured bytes, those
 * with something to set by index: "struct EL bJ[n] = { [i] = {...} };",
 * or zeroed.
 */
static void
elems(struct em *e, struct kt_strbuf *sb, const struct em_call *c,
      const struct em_layout *el, const uint8_t *b, size_t len, size_t n,
      const char *indent, const char *var, unsigned int j)
{
	size_t esz = el->sd->size, i, start = sb->len, at;
	char head[64], foot[16];

	kt_strbuf_printf(sb, "%sstruct %s %s%u[%zu] = {\n", indent, el->name,
			 var, j, n);
	at = sb->len;
	for (i = 0; i < n && (i + 1) * esz <= len; i++) {
		snprintf(head, sizeof(head), "%s\t[%zu] = {\n", indent, i);
		snprintf(foot, sizeof(foot), "%s\t},\n", indent);
		init_struct(e, sb, c, el, b + i * esz, esz, 0, "\t\t\t", head, foot);
	}
	if (sb->len > at) {
		kt_strbuf_printf(sb, "%s};\n", indent);
		return;
	}
	cut(sb, start);
	kt_strbuf_printf(sb, "%sstruct %s %s%u[%zu];\n\n%smemset(%s%u, 0, "
			 "sizeof(%s%u));\n", indent, el->name, var, j, n,
			 indent, var, j, var, j);
}

/*
 * A large element array: static storage (no thread's stack need hold it),
 * its captured bytes copied in from a data array, then the inputs the
 * runtime translates assigned one by one.
 */
static void
elems_data(struct em *e, struct kt_strbuf *sb, const struct em_call *c,
	   const struct em_layout *el, const uint8_t *b, size_t len, size_t n,
	   unsigned int j)
{
	const struct kfd_struct_desc *sd = el->sd;
	size_t esz = sd->size, i;
	unsigned int k;
	char m[96];

	kt_strbuf_printf(sb, "\tstatic struct %s b%u[%zu];\n\n", el->name, j, n);
	if (len > n * esz)
		len = n * esz;
	kt_strbuf_printf(sb, "\tmemcpy(b%u, ", j);
	em_blob_ref(e, sb, b, len);
	kt_strbuf_printf(sb, ", %zu);\n", len);
	for (i = 0; (i + 1) * esz <= len; i++)
		for (k = 0; k < sd->nfields; k++) {
			const struct kfd_field *f = &sd->fields[k];
			uint64_t v = 0;

			if (!em_layout_has(el, k) || f->width > 8 ||
			    !(f->dir & KFD_DIR_IN) || !rp_role_translated(f->role) ||
			    kfd_field_load(f, b + i * esz, esz, &v) < 0 ||
			    (!v && f->role != KFD_ROLE_QUEUE_ID &&
			     f->role != KFD_ROLE_EVENT_SLOT))
				continue;
			kt_strbuf_printf(sb, "\tb%u[%zu].%s = ", j, i,
					 em_member(f, m, sizeof(m)));
			em_xlate_expr(e, sb, c, f->role, v);
			kt_strbuf_puts(sb, ";\n");
		}
}

/* Buffer sizes first (union arms share a pointer), then declarations. */
static void
decl_bufs(struct em *e, struct kt_strbuf *sb, struct em_call *c)
{
	const struct kfd_ioctl_desc *d = c->d;
	const struct kt_ioctl_rec *io = c->io;
	unsigned int j, k;

	for (j = 0; j < KT_MAX_BUFS; j++) {
		c->var[j] = -1;
		c->el[j] = NULL;
		c->guard[j] = 0;
		c->len[j] = 0;
	}
	for (j = 0; j < d->nbufs && j < KT_MAX_BUFS; j++) {
		const struct kfd_indirect *b = &d->bufs[j];
		const struct kt_buf_image *img = rp_find_image(io, j);
		size_t len = 0;

		if (b->len_kind == KFD_LEN_TRAILING || b->ptr_field < 0 ||
		    (unsigned int)b->ptr_field >= d->args->nfields ||
		    kfd_indirect_len(d, b, io->arg_before, io->arg_size, 0,
				     RP_BUF_CAP, &len) == 1)
			continue;
		if (img && img->len_before > len)
			len = img->len_before;
		if (img && img->len_after > len && img->len_after <= RP_BUF_CAP)
			len = img->len_after;
		for (k = 0; k < j; k++)
			if (c->var[k] == (int)k && d->bufs[k].ptr_field == b->ptr_field)
				break;
		if (k < j) {
			c->var[j] = (int)k;
			if (len > c->len[k])
				c->len[k] = len;
			continue;
		}
		c->var[j] = (int)j;
		c->len[j] = len;
		c->guard[j] = img && (img->flags & KT_BUF_UNREADABLE);
	}
	for (j = 0; j < d->nbufs && j < KT_MAX_BUFS; j++) {
		const struct kfd_indirect *b = &d->bufs[j];
		const struct kt_buf_image *img = rp_find_image(io, j);
		const uint8_t *before = img && (b->dir & KFD_DIR_IN) ? img->before : NULL;
		size_t len = c->len[j], n;

		if (c->var[j] != (int)j || c->guard[j])
			continue;
		if (b->elem && b->elem->size && len && len % b->elem->size == 0) {
			const struct em_layout *el = em_layout(e, b->elem, NULL, 0);

			c->el[j] = el;
			n = len / b->elem->size;
			if (!before && len >= EM_BLOB_MIN) {
				/* Static storage starts zeroed. */
				kt_strbuf_printf(sb, "\tstatic struct %s b%u[%zu];\n",
						 el->name, j, n);
				continue;
			}
			if (!before) {
				kt_strbuf_printf(sb, "\tstruct %s b%u[%zu];\n\n"
						 "\tmemset(b%u, 0, sizeof(b%u));\n",
						 el->name, j, n, j, j);
				continue;
			}
			if (len >= EM_BLOB_MIN)
				elems_data(e, sb, c, el, before, img->len_before, n, j);
			else
				elems(e, sb, c, el, before, img->len_before, n,
				      "\t", "b", j);
			continue;
		}
		if (!len)
			len = 1;
		if (len >= EM_BLOB_MIN) {
			/* Static storage (zeroed), the captured bytes copied in. */
			kt_strbuf_printf(sb, "\tstatic uint8_t b%u[%zu] "
					 "__attribute__((aligned(8)));\n", j, len);
			if (before && img->len_before) {
				size_t m = img->len_before < len ? img->len_before : len;

				kt_strbuf_printf(sb, "\n\tmemcpy(b%u, ", j);
				em_blob_ref(e, sb, before, m);
				kt_strbuf_printf(sb, ", %zu);\n", m);
			}
		} else if (before && img->len_before) {
			kt_strbuf_printf(sb, "\tuint8_t b%u[%zu] __attribute__((aligned(8))) = ",
					 j, len);
			em_bytes(sb, before, img->len_before < len ? img->len_before : len);
			kt_strbuf_puts(sb, ";\n");
		} else {
			kt_strbuf_printf(sb, "\tuint8_t b%u[%zu] __attribute__((aligned(8)));\n\n"
					 "\tmemset(b%u, 0, sizeof(b%u));\n", j, len, j, j);
		}
	}
}

/*
 * Event state as the calls so far leave it: bit 0 signalled, bit 1
 * auto-reset. A completed wait whose events nothing the program issued
 * signalled was released by an engine in the capture.
 */
#define EV_SIGNALLED 1u
#define EV_AUTO 2u

static uint64_t
ev_get(struct em *e, int scope, uint32_t id)
{
	uint64_t v = 0;

	rp_map_get(&e->events, 0, (unsigned int)scope, id, &v);
	return v;
}

static void
events_after(struct em *e, const struct em_call *c)
{
	const struct rp_rows *r = e->rows;
	const struct kt_ioctl_rec *io = c->io;
	uint32_t ids[64];
	int n, i;

	if (io->ret < 0 || !io->arg_before)
		return;
	if (c->d->creates == KFD_OBJ_EVENT && io->arg_after) {
		const struct kfd_struct_desc *sd = c->d->args;

		rp_map_put(&e->events, 0, (unsigned int)c->scope,
			   rp_fget(kfd_schema_attr(sd, KFD_ATTR_OBJ),
				   io->arg_after, c->clen),
			   rp_fget(kfd_schema_attr(sd, KFD_ATTR_AUTO_RESET),
				   io->arg_before, c->clen) ? EV_AUTO : 0);
	} else if (c->d == r->set_event || c->d == r->reset_event) {
		uint32_t id = (uint32_t)rp_fget(r->se_id, io->arg_before, c->clen);
		uint64_t v = ev_get(e, c->scope, id);

		v = c->d == r->set_event ? v | EV_SIGNALLED : v & ~(uint64_t)EV_SIGNALLED;
		rp_map_put(&e->events, 0, (unsigned int)c->scope, id, v);
	} else if (c->d == r->wait_events && rp_wait_completed(r, c->d, io)) {
		/* The wait consumed what it saw of auto-reset events. */
		n = rp_wait_ids(r, c->rec, ids, 64);
		for (i = 0; i < n && i < 64; i++) {
			uint64_t v = ev_get(e, c->scope, ids[i]);

			if (v & EV_AUTO)
				rp_map_put(&e->events, 0, (unsigned int)c->scope,
					   ids[i], v & ~(uint64_t)EV_SIGNALLED);
		}
	}
}

/* One SET_EVENT of @id in the GPU's stead, before the wait @c. */
static void
stand_in(struct em *e, struct kt_strbuf *sb, const struct em_call *c,
	 uint32_t id)
{
	const struct rp_rows *r = e->rows;

	kt_strbuf_puts(sb, "\t{\n"
		       "\t\t/* No CPU call released the wait below in the "
		       "capture: an engine did. */\n");
	kt_strbuf_printf(sb, "\t\tstruct %s set = { .event_id = ",
			 r->set_event->args->name);
	em_xlate_expr(e, sb, c, KFD_ROLE_EVENT_ID, id);
	kt_strbuf_printf(sb, " };\n\n\t\trr_ioctl(%" PRIu64 ", \"SET_EVENT "
			 "(stand-in)\", %d, ", c->rec->seq, c->io->fd);
	em_request(e, sb, r->set_event, r->set_event->request);
	kt_strbuf_puts(sb, ", &set, 0, 0);\n\t}\n");
	rp_map_put(&e->events, 0, (unsigned int)c->scope, id,
		   ev_get(e, c->scope, id) | EV_SIGNALLED);
	e->res.stand_ins++;
	e->res.calls++;
}

/*
 * With event ages: each event that released the wait @c in the capture
 * gets the sets its returned age lacks (emit_order.c counted them in the
 * program's order). Return: 0 without ages.
 */
static int
age_stand_ins(struct em *e, struct kt_strbuf *sb, const struct em_call *c)
{
	const struct kt_buf_image *b = rp_find_image(c->io, 0);
	const size_t el = sizeof(struct kfd_abi_event_data);
	uint32_t ids[64];
	size_t off;

	if (rp_wait_fired(e->rows, c->rec, ids, 64) < 0 || !b)
		return 0;
	for (off = 0; off + el <= b->len_before; off += el) {
		struct kfd_abi_event_data in;
		uint64_t n = em_age_stand_ins(e, c->rec->seq, off / el);

		memcpy(&in, b->before + off, el);
		while (n--)
			stand_in(e, sb, c, in.event_id);
	}
	return 1;
}

/* SET_EVENTs in the GPU's stead before a wait no CPU call released. */
static void
stand_ins(struct em *e, struct kt_strbuf *sb, const struct em_call *c)
{
	const struct rp_rows *r = e->rows;
	const struct kt_ioctl_rec *io = c->io;
	uint32_t ids[64];
	int n, i, all;

	if (c->d != r->wait_events || !rp_wait_completed(r, c->d, io) ||
	    age_stand_ins(e, sb, c))
		return;
	n = rp_wait_stand_in_ids(&e->m, r, c->rec, ids, 64);
	if (!n)
		return;
	all = rp_fget(r->we_all, io->arg_before, c->clen) != 0;
	if (!all) {
		/* Any event signalled before it releases a wait for any. */
		uint32_t named[64];
		int k = rp_wait_ids(r, c->rec, named, 64);

		for (i = 0; i < k && i < 64; i++)
			if (ev_get(e, c->scope, named[i]) & EV_SIGNALLED)
				return;
	}
	for (i = 0; i < n; i++)
		if (!(ev_get(e, c->scope, ids[i]) & EV_SIGNALLED))
			stand_in(e, sb, c, ids[i]);
}

/* One more tab for the lines of @sb from @at on (a block's inside). */
static void
indent(struct kt_strbuf *sb, size_t at)
{
	struct kt_strbuf t;
	size_t i;
	int bol = 1;

	kt_strbuf_init(&t);
	for (i = at; i < sb->len; i++) {
		if (bol && sb->data[i] != '\n')
			kt_strbuf_putc(&t, '\t');
		kt_strbuf_putc(&t, sb->data[i]);
		bol = sb->data[i] == '\n';
	}
	cut(sb, at);
	if (t.len)
		kt_strbuf_append(sb, t.data, t.len);
	if (t.failed)
		sb->failed = 1;
	kt_strbuf_release(&t);
}

static void
skip(struct em *e, struct kt_strbuf *sb, const char *why)
{
	kt_strbuf_printf(sb, "\t/* Not reissued: %s. */\n", why);
	e->res.skipped++;
}

void
em_ioctl(struct em *e, struct kt_strbuf *sb, const struct kt_record *rec)
{
	const struct kt_ioctl_rec *io = &rec->u.ioctl;
	const struct rp_rows *r = e->rows;
	struct em_ofd *ofd = em_fd_ofd(e, io->fd);
	struct em_call c;
	uint32_t tail = 0;
	const char *argp = "&a";
	struct kt_strbuf chk;
	size_t inner;

	memset(&c, 0, sizeof(c));
	c.rec = rec;
	c.io = io;
	c.d = kt_ioctl_row(io);
	if (!c.d) {
		skip(e, sb, "the request is not in the schema");
		return;
	}
	c.plan = rp_req_plan(r, c.d);
	if (c.plan->never) {
		skip(e, sb, "it would let the kernel act on memory or state "
		     "outside the program");
		return;
	}
	if (io->ret < 0 && io->err == EINTR) {
		skip(e, sb, "interrupted; the caller's retry is the next call");
		return;
	}
	/* The schema's columns: a call that makes or takes an IPC share. */
	if (c.d->creates == KFD_OBJ_SHARE || c.d->source == KFD_OBJ_SHARE) {
		skip(e, sb, "IPC share handles come from another process");
		return;
	}
	c.size = (uint32_t)KFD_ABI_IOC_SIZE(io->request);
	c.clen = c.size < io->arg_size ? c.size : io->arg_size;
	c.scope = ofd ? ofd->proc : 0;
	c.gem_scope = ofd ? (int)(ofd - RP_AT(&e->ofds, struct em_ofd, 0)) + 1 : 0;
	c.acc = "a.";
	e->res.ioctls++;
	e->res.calls++;

	stand_ins(e, sb, &c);
	kt_strbuf_puts(sb, "\t{\n");
	inner = sb->len;
	/* Memory the captured process had at a range the kernel keeps. */
	if (c.d == r->alloc && io->arg_before &&
	    (rp_fget(r->alloc_flags, io->arg_before, c.clen) &
	     KFD_ABI_ALLOC_MEM_FLAGS_USERPTR) &&
	    rp_fget(r->alloc_off, io->arg_before, c.clen)) {
		kt_strbuf_puts(sb, "\trr_back(");
		em_num(sb, rp_fget(r->alloc_off, io->arg_before, c.clen));
		kt_strbuf_puts(sb, ", ");
		em_num(sb, rp_fget(r->alloc_size, io->arg_before, c.clen));
		kt_strbuf_puts(sb, ");\n");
	} else if (c.d == r->svm && io->arg_before &&
		   rp_fget(r->svm_start, io->arg_before, c.clen)) {
		kt_strbuf_puts(sb, "\trr_back(");
		em_num(sb, rp_fget(r->svm_start, io->arg_before, c.clen));
		kt_strbuf_puts(sb, ", ");
		em_num(sb, rp_fget(r->svm_size, io->arg_before, c.clen));
		kt_strbuf_puts(sb, ");\n");
	}
	if (!io->arg_before && c.size) {
		/* The argument pointer itself was bad. */
		argp = "(void *)rr_guard()";
	} else if (!c.d->args || !c.size) {
		argp = c.size ? "b_raw" : "NULL";
		if (c.size) {
			kt_strbuf_printf(sb, "\tuint8_t b_raw[%u] = ", c.size);
			em_bytes(sb, io->arg_before, c.clen);
			kt_strbuf_puts(sb, ";\n");
		}
	} else {
		decl_bufs(e, sb, &c);
		c.l = em_layout(e, c.d->args, io->arg_before, io->arg_size);
		if (c.size > c.d->args->size)
			tail = c.size - c.d->args->size;
		if (tail) {
			const struct kfd_indirect *tb = NULL;
			/* A short capture holds less than the struct: the
			 * members past it are not the program's bytes. */
			size_t head_len = c.clen < c.d->args->size ?
					  c.clen : c.d->args->size;
			unsigned int j;

			for (j = 0; j < c.d->nbufs; j++)
				if (c.d->bufs[j].len_kind == KFD_LEN_TRAILING)
					tb = &c.d->bufs[j];
			kt_strbuf_printf(sb, "\tstruct {\n\t\tstruct %s a;\n", c.l->name);
			if (tb && tb->elem && tail % tb->elem->size == 0) {
				const struct em_layout *el = em_layout(e, tb->elem,
								       NULL, 0);
				size_t n = tail / tb->elem->size, i;
				uint32_t have = c.clen > c.d->args->size ?
						c.clen - c.d->args->size : 0;

				kt_strbuf_printf(sb, "\t\tstruct %s t[%zu];\n"
						 "\t} __attribute__((packed)) s = {\n",
						 el->name, n);
				init_struct(e, sb, &c, c.l, io->arg_before,
					    head_len, 1, "\t\t\t",
					    "\t\t.a = {\n", "\t\t},\n");
				kt_strbuf_puts(sb, "\t\t.t = {\n");
				for (i = 0; i < n && (i + 1) * tb->elem->size <= have; i++) {
					char head[32];

					snprintf(head, sizeof(head), "\t\t\t[%zu] = {\n", i);
					init_struct(e, sb, &c, el,
						    io->arg_before + c.d->args->size +
						    i * tb->elem->size, tb->elem->size,
						    0, "\t\t\t\t", head, "\t\t\t},\n");
				}
				kt_strbuf_puts(sb, "\t\t},\n\t};\n");
			} else {
				kt_strbuf_printf(sb, "\t\tuint8_t t[%u];\n"
						 "\t} __attribute__((packed)) s = {\n",
						 tail);
				init_struct(e, sb, &c, c.l, io->arg_before,
					    head_len, 1, "\t\t\t",
					    "\t\t.a = {\n", "\t\t},\n");
				kt_strbuf_puts(sb, "\t\t.t = ");
				em_bytes(sb, io->arg_before + c.d->args->size,
					 c.clen > c.d->args->size ?
					 c.clen - c.d->args->size : 0);
				kt_strbuf_puts(sb, ",\n\t};\n");
			}
			c.acc = "s.a.";
			argp = "&s";
		} else {
			char head[128];

			snprintf(head, sizeof(head), "\tstruct %s a = {\n", c.l->name);
			if (!init_struct(e, sb, &c, c.l, io->arg_before, c.clen, 1,
					 "\t\t", head, "\t};\n"))
				kt_strbuf_printf(sb, "\tstruct %s a;\n\n"
						 "\tmemset(&a, 0, sizeof(a));\n",
						 c.l->name);
			init_rest(sb, c.l, "a", io->arg_before, c.clen);
		}
	}
	kt_strbuf_init(&chk);
	if (io->ret >= 0 && io->arg_after && c.d->args && c.l)
		em_check_outputs(e, &chk, &c);
	kt_strbuf_printf(sb, "\n\t%srr_ioctl(%" PRIu64 ", \"%s\", %d, ",
			 chk.len ? "if (" : "", rec->seq, c.d->name, io->fd);
	em_request(e, sb, c.d, io->request);
	kt_strbuf_printf(sb, ", %s, %" PRId64 ", ", argp, io->ret);
	em_errno(sb, io->ret < 0 ? io->err : 0);
	kt_strbuf_puts(sb, chk.len ? ")) {\n" : ");\n");
	if (chk.len) {
		kt_strbuf_append(sb, chk.data, chk.len);
		kt_strbuf_puts(sb, "\t}\n");
	}
	if (chk.failed)
		sb->failed = 1;
	kt_strbuf_release(&chk);
	em_forget(e, sb, &c);
	events_after(e, &c);
	if (c.d->creates == KFD_OBJ_PROCESS && io->ret >= 0 && ofd)
		ofd->proc = ++e->nproc;
	indent(sb, inner);
	kt_strbuf_puts(sb, "\t}\n");
}

/* SPDX-License-Identifier: MIT */
/*
 * Helpers for the babeltrace2 tests (bt2_util.h).
 */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bt2_util.h"

/* ---- leaves ---- */

static struct leaf *
leaf_add(struct leaves *l)
{
	if (l->n == l->cap) {
		size_t cap = l->cap ? l->cap * 2 : 16;
		struct leaf *v = realloc(l->v, cap * sizeof(*v));

		if (!v)
			return NULL;
		l->v = v;
		l->cap = cap;
	}
	memset(&l->v[l->n], 0, sizeof(l->v[0]));
	return &l->v[l->n++];
}

void
leaves_free(struct leaves *l)
{
	size_t i;

	for (i = 0; i < l->n; i++)
		free(l->v[i].str);
	free(l->v);
	memset(l, 0, sizeof(*l));
}

const struct leaf *
leaves_find(const struct leaves *l, const char *key)
{
	size_t i;

	for (i = 0; i < l->n; i++)
		if (strcmp(l->v[i].key, key) == 0)
			return &l->v[i];
	return NULL;
}

int
parse_number(const char *s, uint64_t *out)
{
	char buf[80], *end;
	size_t n = 0;
	int neg = 0;

	while (*s == ' ')
		s++;
	if (*s == '-') {
		neg = 1;
		s++;
	}
	for (; *s && n + 1 < sizeof(buf); s++) {
		if (*s == ',' || *s == ':')
			continue;
		if (!isalnum((unsigned char)*s))
			break;
		buf[n++] = *s;
	}
	buf[n] = '\0';
	if (!n || *s)
		return -1;
	errno = 0;
	*out = strtoull(buf, &end, 0);
	if (errno || *end)
		return -1;
	if (neg)
		*out = (uint64_t)-(int64_t)*out;
	return 0;
}

/*
 * The match key from a path of components: the last name that is not an
 * index (after its last '.', for union arms), preceded by the indices
 * after it; only the indices when the path ends in one.
 */
static void
make_key(char comps[][96], int n, char *key, size_t size)
{
	char idx[96] = "";
	const char *name = "";
	int i, last_name = -1;

	for (i = 0; i < n; i++)
		if (comps[i][0] != '[')
			last_name = i;
	for (i = last_name + 1; i < n; i++)
		strncat(idx, comps[i], sizeof(idx) - strlen(idx) - 1);
	if (last_name >= 0 && last_name < n - 1 && comps[n - 1][0] == '[') {
		/* An element of an array of scalars: indices only. */
		snprintf(key, size, "%s", idx);
		return;
	}
	if (last_name >= 0) {
		const char *d = strrchr(comps[last_name], '.');

		name = d ? d + 1 : comps[last_name];
	}
	/* Indices before the name belong to the elements it is in. */
	idx[0] = '\0';
	for (i = 0; i < last_name; i++)
		if (comps[i][0] == '[')
			strncat(idx, comps[i], sizeof(idx) - strlen(idx) - 1);
	snprintf(key, size, "%s%s", idx, name);
}

static void
make_path(char comps[][96], int n, char *path, size_t size)
{
	int i;

	path[0] = '\0';
	for (i = 0; i < n; i++) {
		if (i && comps[i][0] != '[')
			strncat(path, ".", size - strlen(path) - 1);
		strncat(path, comps[i], size - strlen(path) - 1);
	}
}

/* ---- a JSON reader (enough for dump --json) ---- */

#define MAXDEPTH 16

struct jp {
	const char *s;
	char comps[MAXDEPTH][96];
	int depth;
	struct jrec *r;
	int failed;
};

static void
skip_ws(struct jp *p)
{
	while (*p->s == ' ' || *p->s == '\t' || *p->s == '\n' || *p->s == '\r')
		p->s++;
}

/* A JSON string into a malloc'ed C string (escapes decoded, \u00XX kept as a byte). */
static char *
jstring(struct jp *p)
{
	size_t cap = 64, n = 0;
	char *out = malloc(cap);

	if (!out || *p->s != '"')
		goto fail;
	p->s++;
	while (*p->s && *p->s != '"') {
		char c = *p->s++;

		if (c == '\\') {
			c = *p->s++;
			switch (c) {
			case 'n': c = '\n'; break;
			case 't': c = '\t'; break;
			case 'r': c = '\r'; break;
			case 'b': c = '\b'; break;
			case 'f': c = '\f'; break;
			case 'u': {
				unsigned int v;

				if (sscanf(p->s, "%4x", &v) != 1)
					goto fail;
				p->s += 4;
				c = (char)v;
				break;
			}
			default:
				break;
			}
		}
		if (n + 2 > cap) {
			char *nb = realloc(out, cap *= 2);

			if (!nb)
				goto fail;
			out = nb;
		}
		out[n++] = c;
	}
	if (*p->s != '"')
		goto fail;
	p->s++;
	out[n] = '\0';
	return out;
fail:
	free(out);
	p->failed = 1;
	return NULL;
}

static void jvalue(struct jp *p);

static void
emit(struct jp *p, int is_num, const char *text)
{
	struct leaves *l;
	struct leaf *lf;
	int top = p->depth == 1;

	if (!p->depth)
		return;
	if (top) {
		const char *k = p->comps[0];

		if (!strcmp(k, "seq") && is_num)
			parse_number(text, &p->r->seq);
		else if (!strcmp(k, "tid") && is_num)
			parse_number(text, &p->r->tid);
		else if (!strcmp(k, "ts") && is_num)
			parse_number(text, &p->r->ts);
		else if (!strcmp(k, "dur_ns") && is_num) {
			parse_number(text, &p->r->dur_ns);
			p->r->has_dur = 1;
		} else if (!strcmp(k, "type"))
			snprintf(p->r->type, sizeof(p->r->type), "%s", text);
		else if (!strcmp(k, "event"))
			snprintf(p->r->event, sizeof(p->r->event), "%s", text);
		else if (!strcmp(k, "in_hex"))
			p->r->in_hex = strdup(text);
		else if (!strcmp(k, "out_hex"))
			p->r->out_hex = strdup(text);
	}
	l = (!strcmp(p->comps[0], "in") || !strcmp(p->comps[0], "out")) &&
	    p->depth > 1 ? &p->r->io : &p->r->top;
	lf = leaf_add(l);
	if (!lf) {
		p->failed = 1;
		return;
	}
	if (l == &p->r->io) {
		make_key(p->comps + 1, p->depth - 1, lf->key, sizeof(lf->key));
		lf->in_side = !strcmp(p->comps[0], "in");
	} else {
		make_key(p->comps, p->depth, lf->key, sizeof(lf->key));
	}
	make_path(p->comps, p->depth, lf->path, sizeof(lf->path));
	/* "0x..." strings are numbers too wide for JSON's doubles. */
	if (is_num || (!strncmp(text, "0x", 2) && !parse_number(text, &lf->num))) {
		lf->type = LEAF_NUM;
		if (is_num && parse_number(text, &lf->num)) {
			/* A fraction ("t"): not compared. */
			l->n--;
		}
	} else {
		lf->type = LEAF_STR;
		lf->str = strdup(text);
	}
}

/*
 * An enum {"value":N,"name":...} or flags {"value":N,"names":[...]} object
 * is one number: the value.
 */
static int
enum_object(const char *s, char *num, size_t size)
{
	const char *v;
	size_t n = 0;

	if (strncmp(s, "{\"value\":", 9) != 0)
		return 0;
	v = s + 9;
	while (v[n] && (isalnum((unsigned char)v[n]) || v[n] == '-'))
		n++;
	if (!n || n >= size || (v[n] != ',' && v[n] != '}'))
		return 0;
	if (v[n] == ',' && strncmp(v + n, ",\"name", 6) != 0)
		return 0;
	memcpy(num, v, n);
	num[n] = '\0';
	return 1;
}

static void
skip_value(struct jp *p)
{
	int depth = 0, in_str = 0;

	for (; *p->s; p->s++) {
		char c = *p->s;

		if (in_str) {
			if (c == '\\')
				p->s++;
			else if (c == '"')
				in_str = 0;
			continue;
		}
		if (c == '"')
			in_str = 1;
		else if (c == '{' || c == '[')
			depth++;
		else if (c == '}' || c == ']') {
			if (--depth == 0) {
				p->s++;
				return;
			}
		}
	}
}

static void
jvalue(struct jp *p)
{
	char num[64];

	skip_ws(p);
	if (p->failed)
		return;
	if (*p->s == '{') {
		if (enum_object(p->s, num, sizeof(num))) {
			emit(p, 1, num);
			skip_value(p);
			return;
		}
		p->s++;
		skip_ws(p);
		while (*p->s && *p->s != '}' && !p->failed) {
			char *k = jstring(p);

			if (!k || p->depth >= MAXDEPTH) {
				free(k);
				p->failed = 1;
				return;
			}
			snprintf(p->comps[p->depth], sizeof(p->comps[0]), "%s", k);
			free(k);
			skip_ws(p);
			if (*p->s++ != ':') {
				p->failed = 1;
				return;
			}
			p->depth++;
			jvalue(p);
			p->depth--;
			skip_ws(p);
			if (*p->s == ',')
				p->s++;
			skip_ws(p);
		}
		if (*p->s == '}')
			p->s++;
		return;
	}
	if (*p->s == '[') {
		int i = 0;

		p->s++;
		skip_ws(p);
		while (*p->s && *p->s != ']' && !p->failed) {
			if (p->depth >= MAXDEPTH) {
				p->failed = 1;
				return;
			}
			snprintf(p->comps[p->depth], sizeof(p->comps[0]), "[%d]", i++);
			p->depth++;
			jvalue(p);
			p->depth--;
			skip_ws(p);
			if (*p->s == ',')
				p->s++;
			skip_ws(p);
		}
		if (*p->s == ']')
			p->s++;
		return;
	}
	if (*p->s == '"') {
		char *s = jstring(p);

		if (s)
			emit(p, 0, s);
		free(s);
		return;
	}
	if (!strncmp(p->s, "null", 4)) {
		p->s += 4;
		return;
	}
	if (!strncmp(p->s, "true", 4) || !strncmp(p->s, "false", 5)) {
		p->s += *p->s == 't' ? 4 : 5;
		return;
	}
	{
		size_t n = 0;

		while (p->s[n] && strchr("0123456789+-.eE", p->s[n]))
			n++;
		if (!n || n >= sizeof(num)) {
			p->failed = 1;
			return;
		}
		memcpy(num, p->s, n);
		num[n] = '\0';
		p->s += n;
		emit(p, 1, num);
	}
}

int
json_record(const char *line, struct jrec *r)
{
	struct jp p = { .s = line, .r = r };

	memset(r, 0, sizeof(*r));
	jvalue(&p);
	return p.failed ? -1 : 0;
}

void
jrec_free(struct jrec *r)
{
	leaves_free(&r->top);
	leaves_free(&r->io);
	free(r->in_hex);
	free(r->out_hex);
	memset(r, 0, sizeof(*r));
}

/* ---- sink.text.details ---- */

static struct dev *
dev_add(struct devs *d)
{
	if (d->n == d->cap) {
		size_t cap = d->cap ? d->cap * 2 : 64;
		struct dev *v = realloc(d->v, cap * sizeof(*v));

		if (!v)
			return NULL;
		d->v = v;
		d->cap = cap;
	}
	memset(&d->v[d->n], 0, sizeof(d->v[0]));
	return &d->v[d->n++];
}

/*
 * Blocks look like:
 *
 *   [123 cycles, 1,700,000,000,124,457,789 ns from origin]
 *   {Trace 0, Stream class ID 0, Stream ID 1}
 *   Event `kfd:open` (Class ID 0):
 *     Common context:
 *       seq: 2
 *     Payload:
 *       path: /dev/kfd
 *       gpu_ids: Length 1:
 *         [0]: 4,660
 *       args:
 *         dword_offset: 0x263e
 */
int
details_parse(const char *text, struct devs *out)
{
	char comps[MAXDEPTH][96];
	const char *line = text;
	uint64_t ns = 0, stream = 0;
	struct dev *ev = NULL;
	int in_payload = 0, in_ctx = 0;

	memset(out, 0, sizeof(*out));
	while (line && *line) {
		const char *nl = strchr(line, '\n');
		size_t len = nl ? (size_t)(nl - line) : strlen(line);
		char buf[4096];
		int indent = 0;
		char *colon, *val;

		if (len >= sizeof(buf))
			len = sizeof(buf) - 1;
		memcpy(buf, line, len);
		buf[len] = '\0';
		line = nl ? nl + 1 : NULL;
		while (buf[indent] == ' ')
			indent++;

		if (buf[0] == '[' && strstr(buf, "ns from origin]")) {
			char *c = strstr(buf, "cycles, ");

			ns = 0;
			if (c) {
				char *e = strstr(c, " ns from origin");

				if (e) {
					*e = '\0';
					parse_number(c + 8, &ns);
				}
			}
			ev = NULL;
			continue;
		}
		if (buf[0] == '{' && strstr(buf, "Stream ID ")) {
			sscanf(strstr(buf, "Stream ID ") + 10, "%" SCNu64, &stream);
			continue;
		}
		if (!strncmp(buf, "Event `", 7)) {
			char *q = strchr(buf + 7, '`');

			ev = dev_add(out);
			if (!ev || !q)
				return -1;
			*q = '\0';
			snprintf(ev->name, sizeof(ev->name), "%.63s", buf + 7);
			ev->ns = ns;
			ev->stream = stream;
			in_payload = in_ctx = 0;
			continue;
		}
		if (!ev || indent < 2)
			continue;
		if (indent == 2) {
			in_ctx = !strcmp(buf + 2, "Common context:");
			in_payload = !strcmp(buf + 2, "Payload:");
			continue;
		}
		colon = strstr(buf + indent, ": ");
		if (!colon && buf[len - 1] == ':')
			colon = buf + len - 1;
		if (!colon)
			continue;
		*colon = '\0';
		val = colon[1] ? colon + 2 : colon + 1;
		{
			int depth = (indent - 4) / 2;
			struct leaf *lf;

			if (depth < 0 || depth >= MAXDEPTH)
				continue;
			snprintf(comps[depth], sizeof(comps[0]), "%s", buf + indent);
			if (in_ctx) {
				if (!strcmp(buf + indent, "seq"))
					parse_number(val, &ev->seq);
				else if (!strcmp(buf + indent, "tid"))
					parse_number(val, &ev->tid);
				else if (!strcmp(buf + indent, "pid"))
					parse_number(val, &ev->pid);
				continue;
			}
			if (!in_payload)
				continue;
			/* Containers: "name:" or "name: Length N:". */
			if (!*val || (!strncmp(val, "Length ", 7) &&
				      val[strlen(val) - 1] == ':'))
				continue;
			lf = leaf_add(&ev->f);
			if (!lf)
				return -1;
			make_key(comps, depth + 1, lf->key, sizeof(lf->key));
			make_path(comps, depth + 1, lf->path, sizeof(lf->path));
			if (!parse_number(val, &lf->num)) {
				lf->type = LEAF_NUM;
			} else {
				lf->type = LEAF_STR;
				lf->str = strdup(val);
			}
		}
	}
	return 0;
}

void
devs_free(struct devs *d)
{
	size_t i;

	for (i = 0; i < d->n; i++)
		leaves_free(&d->v[i].f);
	free(d->v);
	memset(d, 0, sizeof(*d));
}

const struct dev *
devs_by_seq(const struct devs *d, uint64_t seq)
{
	size_t i;

	for (i = 0; i < d->n; i++)
		if (d->v[i].seq == seq)
			return &d->v[i];
	return NULL;
}

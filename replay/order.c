/* SPDX-License-Identifier: MIT */
/*
 * The order checks of the model pass: does sequence order, the order the
 * serial replay follows, issue every call that uses a kernel-picked id (a
 * memory handle, a queue id, an event id) after the call that created it,
 * and no use after the call that destroyed it?
 *
 * In a capture it always does: a call's record is appended, and so takes
 * its number, before the call returns to the thread that asked, and no
 * other thread can learn the id before that. A trace whose records were
 * renumbered (by hand, or by damage) may not: each such use is a
 * violation, kept with the two records it names. Replay lists them up
 * front (the first RP_MAX_DEPS) and does not issue such a use: it is a
 * divergence naming the other record, instead of a bare EINVAL or EBADF.
 *
 * When there is a violation, the model (model.c) reads the trace a
 * second time collecting every creation -> use edge, and
 * rp_order_search() adds each thread's program order and looks for a
 * cycle: no order of the records satisfies those, and the records on it
 * are named. Normal traces never pay for that pass.
 *
 * One exception to "in a capture it always does": the kernel frees an id
 * before the FREE returns, so another thread's ALLOC can get it back and
 * be numbered before that FREE. A creation of an id that is alive is
 * taken as such a reuse: the uses that entered before the creation
 * returned belong to the old life, the end among them ends it, and the
 * pair is a swap the replay puts right (the end first). Likewise a use
 * that entered before the end of its id returned, numbered after that
 * end (it was slow to return): the kernel ran it first, and the end
 * waits for it.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "replay_model.h"

/* One life of an id: its creation, and its end once destroyed. */
struct rp_m_life {
	struct rp_m_node made;
	struct rp_m_node ended;		/* seq UINT64_MAX: alive */
	/*
	 * A creation of the id while this life was alive: the kernel reused
	 * it before this life's end was numbered (seq UINT64_MAX: none).
	 */
	struct rp_m_node next;
	/*
	 * The life before @made, when its end was not yet seen as the new
	 * life began to be used: a slow FREE that entered before @made
	 * returned can still come, numbered after the new life's first
	 * uses (seq UINT64_MAX: none).
	 */
	struct rp_m_node old;
	struct rp_m_node old_next;	/* the creation that reused it */
};

/* A use of an id that was not alive (maybe created later). */
struct rp_m_use {
	struct rp_m_node at;
	uint64_t value;
	uint8_t kind;
	int64_t gone;			/* lives index of its last life, or -1 */
	int64_t next;			/* the next use waiting on the same id */
};

static const char *const kind_names[] = {
	[RP_DEP_HANDLE] = "memory handle",
	[RP_DEP_QUEUE] = "queue id",
	[RP_DEP_EVENT] = "event id",
};

const char *
rp_dep_kind_name(unsigned int kind)
{
	return kind < sizeof(kind_names) / sizeof(kind_names[0]) &&
	       kind_names[kind] ? kind_names[kind] : "id";
}

void
rp_order_init(struct rp_model *m)
{
	rp_vec_init(&m->lives, sizeof(struct rp_m_life));
	rp_vec_init(&m->uses, sizeof(struct rp_m_use));
	rp_vec_init(&m->edges, sizeof(struct rp_m_edge));
	rp_vec_init(&m->deps, sizeof(struct rp_m_dep));
	rp_vec_init(&m->swaps, sizeof(struct rp_swap));
	rp_vec_init(&m->avail_varies, sizeof(uint64_t));
	rp_vec_init(&m->avail_spans, sizeof(struct rp_m_span));
	rp_vec_init(&m->mem_spans, sizeof(struct rp_m_span));
}

void
rp_order_free(struct rp_model *m)
{
	rp_vec_free(&m->lives);
	rp_vec_free(&m->uses);
	rp_vec_free(&m->edges);
	rp_vec_free(&m->deps);
	rp_vec_free(&m->swaps);
	rp_vec_free(&m->avail_varies);
	rp_vec_free(&m->avail_spans);
	rp_vec_free(&m->mem_spans);
	rp_map_free(&m->order_idx);
}

static struct rp_m_node
node_of(const struct kt_record *rec, const char *name)
{
	struct rp_m_node n = { .seq = rec->seq, .ts = rec->ts, .exit = rec->ts,
			       .tid = rec->tid, .name = name };

	if (rec->type == KT_REC_IOCTL && rec->u.ioctl.t_exit > rec->ts)
		n.exit = rec->u.ioctl.t_exit;

	return n;
}

static void
edge(struct rp_model *m, const struct rp_m_node *from,
     const struct rp_m_node *to)
{
	struct rp_m_edge *e;

	if (!m->want_edges)
		return;
	e = rp_vec_push(&m->edges);
	if (!e) {
		m->edges_dropped++;
		return;
	}
	e->from = *from;
	e->to = *to;
}

static void
violation(struct rp_model *m, const struct rp_m_use *u,
	  const struct rp_m_node *other, int after_end)
{
	struct rp_m_dep *d;

	m->ndeps_total++;
	d = rp_vec_push(&m->deps);
	if (!d)
		return;
	d->use = u->at;
	d->other = *other;
	d->kind = u->kind;
	d->value = u->value;
	d->after_end = (uint8_t)after_end;
}

/* Map keys: one kind per id kind for lives, one for waiting uses. */
#define LIFE_KIND(k)	(200u + (k))
#define WAIT_KIND(k)	(210u + (k))

void
rp_order_make(struct rp_model *m, unsigned int kind, int32_t proc,
	      uint64_t value, const struct kt_record *rec, const char *name)
{
	struct rp_m_node at = node_of(rec, name);
	struct rp_m_life *l;
	uint64_t v;

	/* Uses that came before it: each is a violation. */
	if (rp_map_get(&m->order_idx, WAIT_KIND(kind), (unsigned int)proc,
		       value, &v)) {
		int64_t i = (int64_t)v;

		while (i >= 0) {
			struct rp_m_use *u = RP_AT(&m->uses, struct rp_m_use, i);

			/*
			 * A use between two lives of an id: the one it began
			 * in time closer to. Entry times are the capture's,
			 * whatever the numbers say.
			 */
			if (u->gone >= 0 && u->at.ts < at.ts) {
				l = RP_AT(&m->lives, struct rp_m_life, u->gone);
				violation(m, u, &l->ended, 1);
				edge(m, &u->at, &l->ended);
			} else {
				violation(m, u, &at, 0);
				edge(m, &at, &u->at);
			}
			i = u->next;
		}
		rp_map_del(&m->order_idx, WAIT_KIND(kind), (unsigned int)proc,
			   value);
	}
	/*
	 * A new life of a known id takes the old one's place: no use refers
	 * to it any more (those waiting on the id were just settled), so
	 * memory follows the distinct ids (the kernel reuses them), not
	 * every allocation.
	 */
	if (rp_map_get(&m->order_idx, LIFE_KIND(kind), (unsigned int)proc,
		       value, &v)) {
		l = RP_AT(&m->lives, struct rp_m_life, v);
		if (l->ended.seq == UINT64_MAX) {
			/* Reused before its end was numbered (above). */
			l->next = at;
			return;
		}
	} else {
		l = rp_vec_push(&m->lives);
		if (!l)
			return;
		rp_map_put(&m->order_idx, LIFE_KIND(kind), (unsigned int)proc,
			   value, m->lives.n - 1);
		l->old.seq = UINT64_MAX;
	}
	/*
	 * An old life whose end is still to come stays pending across the
	 * lives after it: a FREE preempted for long is numbered after whole
	 * lives of the id in other threads (the big run had one 5,700
	 * records late, after two more ALLOCs of its handle).
	 */
	l->made = at;
	l->ended.seq = UINT64_MAX;
	l->next.seq = UINT64_MAX;
}

/*
 * A use of @l, whose id was created again while it was alive: one that
 * entered before that creation returned is the old life's (its end ends
 * it, and is a swap); any other starts the new life.
 */
static void
use_reused(struct rp_model *m, struct rp_m_life *l, const struct rp_m_node *at,
	   int ends)
{
	struct rp_swap *sw;

	if (at->ts < l->next.exit) {
		/* The old life's. */
		edge(m, &l->made, at);
		if (!ends)
			return;
		sw = rp_vec_push(&m->swaps);
		if (sw) {
			sw->c = l->next.seq;
			sw->e = at->seq;
		}
		l->made = l->next;	/* the new life, alive */
		l->next.seq = UINT64_MAX;
		return;
	}
	/*
	 * The new life's. The old one's end may still come (a FREE that
	 * entered before the new creation returned but took longer than this
	 * use), or not be in the trace: old_use() tells.
	 */
	l->old = l->made;
	l->old_next = l->next;
	l->made = l->next;
	l->next.seq = UINT64_MAX;
	edge(m, &l->made, at);
	if (ends)
		l->ended = *at;
}

/*
 * A record of @l's id that entered before the creation of its current
 * life returned: the old life's (its end, numbered late, is a swap).
 * Return: 1 when it was, and is dealt with.
 */
static int
old_use(struct rp_model *m, struct rp_m_life *l, const struct rp_m_node *at,
	int ends)
{
	struct rp_swap *sw;

	if (l->old.seq == UINT64_MAX || at->ts >= l->old_next.exit)
		return 0;
	edge(m, &l->old, at);
	if (!ends)
		return 1;
	sw = rp_vec_push(&m->swaps);
	if (sw) {
		sw->c = l->old_next.seq;
		sw->e = at->seq;
	}
	l->old.seq = UINT64_MAX;
	return 1;
}

void
rp_order_use(struct rp_model *m, unsigned int kind, int32_t proc,
	     uint64_t value, const struct kt_record *rec, const char *name,
	     int ends)
{
	struct rp_m_node at = node_of(rec, name);
	struct rp_m_life *l = NULL;
	struct rp_m_use *u;
	uint64_t v;

	if (rp_map_get(&m->order_idx, LIFE_KIND(kind), (unsigned int)proc,
		       value, &v))
		l = RP_AT(&m->lives, struct rp_m_life, v);
	if (l && old_use(m, l, &at, ends))
		return;
	if (l && l->ended.seq == UINT64_MAX && l->next.seq != UINT64_MAX) {
		use_reused(m, l, &at, ends);
		return;
	}
	if (l && l->ended.seq == UINT64_MAX) {
		edge(m, &l->made, &at);
		if (ends)
			l->ended = at;
		return;
	}
	/* Not alive: created later, or used after its end. */
	u = rp_vec_push(&m->uses);
	if (!u)
		return;
	u->at = at;
	u->kind = (uint8_t)kind;
	u->value = value;
	u->gone = l ? (int64_t)v : -1;
	u->next = -1;
	if (rp_map_get(&m->order_idx, WAIT_KIND(kind), (unsigned int)proc,
		       value, &v)) {
		/* Append: the chain keeps sequence order. */
		int64_t i = (int64_t)v;

		while (RP_AT(&m->uses, struct rp_m_use, i)->next >= 0)
			i = RP_AT(&m->uses, struct rp_m_use, i)->next;
		RP_AT(&m->uses, struct rp_m_use, i)->next =
			(int64_t)m->uses.n - 1;
	} else {
		rp_map_put(&m->order_idx, WAIT_KIND(kind), (unsigned int)proc,
			   value, m->uses.n - 1);
	}
}

static int
cmp_dep(const void *a, const void *b)
{
	const struct rp_m_dep *x = a, *y = b;

	return x->use.seq < y->use.seq ? -1 : x->use.seq > y->use.seq;
}

static int
cmp_swap(const void *a, const void *b)
{
	const struct rp_swap *x = a, *y = b;

	return x->c < y->c ? -1 : x->c > y->c;
}

void
rp_order_finish(struct rp_model *m)
{
	const struct kc_u64map_slot *s;
	size_t pos = 0;

	/*
	 * Uses nothing created later: those after the end of a life used it
	 * after it was destroyed. The rest name ids from before the trace.
	 */
	while ((s = kc_u64map_next(&m->order_idx, &pos))) {
		uint64_t first;
		int64_t j;

		if (RP_MAP_TAG_KIND(s->tag) < WAIT_KIND(0))
			continue;
		memcpy(&first, s->val, sizeof(first));
		for (j = (int64_t)first; j >= 0;) {
			struct rp_m_use *u = RP_AT(&m->uses, struct rp_m_use, j);

			if (u->gone >= 0) {
				struct rp_m_life *l = RP_AT(&m->lives,
					struct rp_m_life, u->gone);
				struct rp_swap *sw;

				/*
				 * It succeeded and entered before the end
				 * returned: the kernel ran it first, and it
				 * was slow to return. The end waits for it.
				 */
				if (u->at.ts < l->ended.exit &&
				    (sw = rp_vec_push(&m->swaps))) {
					sw->c = l->ended.seq;
					sw->e = u->at.seq;
				} else {
					violation(m, u, &l->ended, 1);
				}
				edge(m, &u->at, &l->ended);
			}
			j = u->next;
		}
	}
	if (m->deps.n)
		qsort(m->deps.data, m->deps.n, sizeof(struct rp_m_dep), cmp_dep);
	if (m->swaps.n)
		qsort(m->swaps.data, m->swaps.n, sizeof(struct rp_swap), cmp_swap);
}

/* ------------------------------------------------------------------ */
/* The cycle search                                                     */

struct node_ent {
	struct rp_m_node n;
	size_t first, count;	/* out edges in the sorted edge list */
	size_t po_next;		/* next node of the thread, or SIZE_MAX */
	uint8_t color;		/* 0 new, 1 on the stack, 2 done */
	size_t parent;
};

static int
cmp_node(const void *a, const void *b)
{
	const struct rp_m_node *x = a, *y = b;

	if (x->tid != y->tid)
		return x->tid < y->tid ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

static int
cmp_seq(const void *a, const void *b)
{
	const struct node_ent *x = a, *y = b;

	return x->n.seq < y->n.seq ? -1 : x->n.seq > y->n.seq;
}

static size_t
find(const struct node_ent *v, size_t n, uint64_t seq)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (v[mid].n.seq < seq)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < n && v[lo].n.seq == seq ? lo : SIZE_MAX;
}

struct out_edge {
	size_t from, to;
};

static int
cmp_out(const void *a, const void *b)
{
	const struct out_edge *x = a, *y = b;

	return x->from < y->from ? -1 : x->from > y->from;
}

int
rp_order_search(struct rp_model *m)
{
	size_t ne = m->edges.n, nn = 0, i, k;
	const struct rp_m_edge *e = m->edges.data;
	struct rp_m_node *all;
	struct node_ent *v;
	struct out_edge *oe;
	size_t *stack, *it;
	int found = 0;

	all = malloc((2 * ne + 1) * sizeof(*all));
	if (!all)
		return -ENOMEM;
	for (i = 0; i < ne; i++) {
		all[nn++] = e[i].from;
		all[nn++] = e[i].to;
	}
	/* Distinct records, by thread then seq: program order is adjacency. */
	qsort(all, nn, sizeof(*all), cmp_node);
	v = calloc(nn + 1, sizeof(*v));
	oe = malloc((ne + 1) * sizeof(*oe));
	stack = malloc((nn + 1) * sizeof(*stack));
	it = malloc((nn + 1) * sizeof(*it));
	if (!v || !oe || !stack || !it) {
		free(all);
		free(v);
		free(oe);
		free(stack);
		free(it);
		return -ENOMEM;
	}
	for (i = 0, k = 0; i < nn; i++)
		if (!k || all[i].seq != v[k - 1].n.seq ||
		    all[i].tid != v[k - 1].n.tid)
			v[k++].n = all[i];
	nn = k;
	free(all);
	/* Link each thread's records, then index by seq. */
	qsort(v, nn, sizeof(*v), cmp_seq);
	for (i = 0; i < nn; i++) {
		v[i].po_next = SIZE_MAX;
		v[i].parent = SIZE_MAX;
	}
	{
		/* The next record of the same thread: scan once per thread. */
		size_t *last = malloc((nn + 1) * sizeof(*last));
		uint32_t *tids = malloc((nn + 1) * sizeof(*tids));
		size_t nt = 0, t;

		if (!last || !tids) {
			free(last);
			free(tids);
			free(v);
			free(oe);
			free(stack);
			free(it);
			return -ENOMEM;
		}
		for (i = 0; i < nn; i++) {
			for (t = 0; t < nt && tids[t] != v[i].n.tid; t++)
				;
			if (t == nt) {
				tids[nt++] = v[i].n.tid;
			} else {
				v[last[t]].po_next = i;
			}
			last[t] = i;
		}
		free(last);
		free(tids);
	}
	for (i = 0; i < ne; i++) {
		oe[i].from = find(v, nn, e[i].from.seq);
		oe[i].to = find(v, nn, e[i].to.seq);
	}
	qsort(oe, ne, sizeof(*oe), cmp_out);
	for (i = 0; i < ne; i++) {
		if (oe[i].from == SIZE_MAX)
			continue;
		if (!v[oe[i].from].count)
			v[oe[i].from].first = i;
		v[oe[i].from].count++;
	}
	/* Iterative DFS; it[] walks data edges, then the program-order one. */
	for (i = 0; i < nn && !found; i++) {
		size_t sp = 0;

		if (v[i].color)
			continue;
		stack[sp] = i;
		it[sp++] = 0;
		v[i].color = 1;
		while (sp && !found) {
			size_t x = stack[sp - 1], y = SIZE_MAX;

			if (it[sp - 1] < v[x].count)
				y = oe[v[x].first + it[sp - 1]].to;
			else if (it[sp - 1] == v[x].count)
				y = v[x].po_next;
			else {
				v[x].color = 2;
				sp--;
				continue;
			}
			it[sp - 1]++;
			if (y == SIZE_MAX || v[y].color == 2)
				continue;
			if (v[y].color == 1) {
				/* The stack from y to x, then back to y. */
				size_t s0 = sp;

				while (s0 > 0 && stack[s0 - 1] != y)
					s0--;
				for (k = s0 - 1; k < sp && m->ncycle < RP_MAX_CYCLE; k++)
					m->cycle[m->ncycle++] = v[stack[k]].n;
				m->cycle_len = sp - (s0 - 1);
				found = 1;
				break;
			}
			v[y].color = 1;
			stack[sp] = y;
			it[sp++] = 0;
		}
	}
	free(v);
	free(oe);
	free(stack);
	free(it);
	return found;
}

const struct rp_m_dep *
rp_order_dep_at(const struct rp_model *m, uint64_t seq)
{
	const struct rp_m_dep *d = m->deps.data;
	size_t lo = 0, hi = m->deps.n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (d[mid].use.seq < seq)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < m->deps.n && d[lo].use.seq == seq ? &d[lo] : NULL;
}

void
rp_order_print(const struct rp_model *m, FILE *out)
{
	size_t i;

	for (i = 0; i < m->deps.n && i < RP_MAX_DEPS; i++) {
		const struct rp_m_dep *d = RP_AT(&m->deps, struct rp_m_dep, i);

		fprintf(out, "order: #%" PRIu64 " %s [%u] uses %s 0x%" PRIx64
			" %s #%" PRIu64 " %s [%u]%s\n", d->use.seq,
			d->use.name, d->use.tid, rp_dep_kind_name(d->kind),
			d->value, d->after_end ? "after" : "that",
			d->other.seq, d->other.name, d->other.tid,
			d->after_end ? " destroyed it" :
			" creates later in sequence order");
	}
	if (m->ndeps_total > i)
		fprintf(out, "order: %" PRIu64 " more uses out of order\n",
			m->ndeps_total - i);
	if (m->ncycle) {
		fprintf(out, "order: the dependencies form a cycle (%zu records): ",
			m->cycle_len);
		for (i = 0; i < m->ncycle; i++)
			fprintf(out, "#%" PRIu64 " %s [%u] -> ", m->cycle[i].seq,
				m->cycle[i].name, m->cycle[i].tid);
		fprintf(out, "%s#%" PRIu64 "\n",
			m->cycle_len > m->ncycle ? "... -> " : "", m->cycle[0].seq);
	}
}

/* SPDX-License-Identifier: MIT */
/*
 * kfdtrace stats: what a process asked of KFD, how long it took, what
 * failed, how much memory it held, and what it never gave back.
 *
 * Memory is accounted from the requests themselves: ALLOC_MEMORY_OF_GPU's
 * size, gpu_id and domain flags, keyed by the handle the kernel returned;
 * FREE_MEMORY_OF_GPU releases by handle. Imported dma-bufs count under
 * "import" with the size the preceding GET_DMABUF_INFO reported for that
 * fd. Records are processed in sequence order (see cli_reorder) so that a
 * handle freed and reused by two threads is attributed correctly.
 */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "commands.h"
#include "u64map.h"
#include "kfdtrace/decode.h"
#include "kfdtrace/kfd_abi.h"
#include "kfdtrace/schema.h"

enum heap {
	HEAP_VRAM,
	HEAP_GTT,
	HEAP_USERPTR,
	HEAP_DOORBELL,
	HEAP_MMIO,
	HEAP_IMPORT,
	HEAP_OTHER,
	HEAP_COUNT
};

static const char *const heap_names[HEAP_COUNT] = {
	"VRAM", "GTT", "userptr", "doorbell", "MMIO", "import", "other",
};

/* Unknown requests are kept apart per request code, up to this many. */
#define MAX_UNKNOWN_KINDS 256

struct errno_count {
	int32_t err;
	uint64_t count;
};

struct ioctl_stat {
	const char *name;		/* schema name, or NULL */
	uint32_t request;		/* the row's code, or the unknown one */
	uint64_t count;
	uint64_t errors;
	struct errno_count *errnos;
	size_t nerrnos;
	uint64_t *lat;			/* ns, one per call with a t_exit */
	size_t nlat, caplat;
};

struct mem_acct {
	uint32_t gpu_id;
	enum heap heap;
	uint64_t allocs, frees;
	uint64_t allocated, freed;	/* bytes */
	uint64_t live, high_water;
};

struct stats {
	const struct kfd_ioctl_desc *rows;
	unsigned int nrows;
	struct ioctl_stat *per_row;	/* nrows entries */
	struct ioctl_stat *unknown;	/* MAX_UNKNOWN_KINDS entries */
	size_t nunknown;
	struct errno_count *errnos;	/* all ioctls */
	size_t nerrnos;
	uint64_t records, ioctls, failed;

	struct mem_acct *mem;
	size_t nmem;
	struct u64map bos;		/* handle -> gpu, heap, size */
	struct u64map queues;		/* queue_id -> gpu */
	struct u64map events;		/* event_id -> type */
	struct u64map dmabuf_size;	/* fd -> size from GET_DMABUF_INFO */
	uint64_t unmatched_frees;
	int oom;

	/* Rows and fields the accounting reads. */
	const struct kfd_ioctl_desc *alloc, *free_mem, *import, *dmabuf_info;
	const struct kfd_ioctl_desc *create_queue, *destroy_queue;
	const struct kfd_ioctl_desc *create_event, *destroy_event;
};

void
kfdtrace_help_stats(FILE *out)
{
	fprintf(out,
		"Usage: kfdtrace stats FILE [--json] [--window N]\n"
		"\n"
		"Summarize a trace:\n"
		"  - per ioctl: calls, failures by errno name, and latency (time from\n"
		"    entry to exit) minimum, median, 99th percentile and maximum;\n"
		"  - failures by errno name over all ioctls;\n"
		"  - memory per GPU and heap (VRAM, GTT, userptr, doorbell, MMIO,\n"
		"    import): allocations, frees, bytes live at the end and the\n"
		"    high-water mark, from ALLOC_MEMORY_OF_GPU / FREE_MEMORY_OF_GPU\n"
		"    and IMPORT_DMABUF;\n"
		"  - objects alive at the end: BOs not freed, queues not destroyed,\n"
		"    events not destroyed (leaks, unless the process meant to exit\n"
		"    with them).\n"
		"\n"
		"Options:\n"
		"  --json        one JSON object instead of tables\n"
		"  --window N    records held to restore sequence order (default %d)\n"
		"  -h, --help    this text\n"
		"\n"
		"Exit status: 0 when the whole trace was read, 1 when it is truncated\n"
		"or corrupt (statistics cover the records before the damage) or on\n"
		"error, 2 for bad usage.\n",
		CLI_REORDER_WINDOW);
}

static int
errno_add(struct errno_count **v, size_t *n, int32_t err)
{
	struct errno_count *p;
	size_t i;

	for (i = 0; i < *n; i++) {
		if ((*v)[i].err == err) {
			(*v)[i].count++;
			return 0;
		}
	}
	p = realloc(*v, (*n + 1) * sizeof(*p));
	if (!p)
		return -1;
	*v = p;
	p[*n].err = err;
	p[*n].count = 1;
	(*n)++;
	return 0;
}

static struct ioctl_stat *
stat_for(struct stats *s, const struct kfd_ioctl_desc *desc, uint32_t request)
{
	size_t i;

	if (desc)
		return &s->per_row[desc - s->rows];
	for (i = 0; i < s->nunknown; i++)
		if (s->unknown[i].request == request)
			return &s->unknown[i];
	if (s->nunknown == MAX_UNKNOWN_KINDS)
		return &s->unknown[MAX_UNKNOWN_KINDS - 1];
	s->unknown[s->nunknown].request = request;
	return &s->unknown[s->nunknown++];
}

static int
lat_add(struct ioctl_stat *st, uint64_t ns)
{
	if (st->nlat == st->caplat) {
		size_t cap = st->caplat ? st->caplat * 2 : 64;
		uint64_t *p = realloc(st->lat, cap * sizeof(*p));

		if (!p)
			return -1;
		st->lat = p;
		st->caplat = cap;
	}
	st->lat[st->nlat++] = ns;
	return 0;
}

/* A named field of a row's argument image; 0 if absent or short. */
static int
arg_get(const struct kfd_ioctl_desc *desc, const char *name,
	const uint8_t *img, uint32_t len, uint64_t *v)
{
	int i;

	if (!desc || !desc->args || !img)
		return -1;
	i = kfd_schema_field(desc, name);
	if (i < 0)
		return -1;
	return kfd_field_get(&desc->args->fields[i], img, len, v);
}

static struct mem_acct *
mem_for(struct stats *s, uint32_t gpu_id, enum heap heap)
{
	struct mem_acct *p;
	size_t i;

	for (i = 0; i < s->nmem; i++)
		if (s->mem[i].gpu_id == gpu_id && s->mem[i].heap == heap)
			return &s->mem[i];
	p = realloc(s->mem, (s->nmem + 1) * sizeof(*p));
	if (!p)
		return NULL;
	s->mem = p;
	memset(&p[s->nmem], 0, sizeof(*p));
	p[s->nmem].gpu_id = gpu_id;
	p[s->nmem].heap = heap;
	return &p[s->nmem++];
}

static enum heap
heap_of(uint64_t flags)
{
	if (flags & KFD_ABI_ALLOC_MEM_FLAGS_VRAM)
		return HEAP_VRAM;
	if (flags & KFD_ABI_ALLOC_MEM_FLAGS_GTT)
		return HEAP_GTT;
	if (flags & KFD_ABI_ALLOC_MEM_FLAGS_USERPTR)
		return HEAP_USERPTR;
	if (flags & KFD_ABI_ALLOC_MEM_FLAGS_DOORBELL)
		return HEAP_DOORBELL;
	if (flags & KFD_ABI_ALLOC_MEM_FLAGS_MMIO_REMAP)
		return HEAP_MMIO;
	return HEAP_OTHER;
}

static void
bo_created(struct stats *s, uint64_t handle, uint32_t gpu_id, enum heap heap,
	   uint64_t size, uint64_t seq)
{
	struct u64map_val v = { .seq = seq, .size = size, .gpu_id = gpu_id,
				.kind = heap };
	struct u64map_val old;
	struct mem_acct *m;

	/* A handle seen again without a FREE: the old BO is gone for good. */
	if (u64map_del(&s->bos, handle, &old)) {
		m = mem_for(s, old.gpu_id, (enum heap)old.kind);
		if (m)
			m->live -= old.size;
	}
	if (u64map_put(&s->bos, handle, &v))
		s->oom = 1;
	m = mem_for(s, gpu_id, heap);
	if (!m) {
		s->oom = 1;
		return;
	}
	m->allocs++;
	m->allocated += size;
	m->live += size;
	if (m->live > m->high_water)
		m->high_water = m->live;
}

static void
account(struct stats *s, const struct kt_record *rec,
	const struct kfd_ioctl_desc *desc)
{
	const struct kt_ioctl_rec *io = &rec->u.ioctl;
	const uint8_t *in = io->arg_before, *out = io->arg_after;
	uint32_t len = io->arg_size;
	uint64_t a = 0, b = 0, c = 0, h = 0;
	struct u64map_val v, old;

	if (!desc || io->ret < 0)
		return;
	memset(&v, 0, sizeof(v));
	v.seq = rec->seq;
	if (desc == s->alloc) {
		if (arg_get(desc, "size", in, len, &a) ||
		    arg_get(desc, "gpu_id", in, len, &b) ||
		    arg_get(desc, "flags", in, len, &c) ||
		    arg_get(desc, "handle", out, len, &h))
			return;
		bo_created(s, h, (uint32_t)b, heap_of(c), a, rec->seq);
	} else if (desc == s->free_mem) {
		if (arg_get(desc, "handle", in, len, &h))
			return;
		if (u64map_del(&s->bos, h, &old)) {
			struct mem_acct *m = mem_for(s, old.gpu_id,
						     (enum heap)old.kind);

			if (m) {
				m->frees++;
				m->freed += old.size;
				m->live -= old.size;
			}
		} else {
			s->unmatched_frees++;
		}
	} else if (desc == s->dmabuf_info) {
		if (arg_get(desc, "dmabuf_fd", in, len, &a) ||
		    arg_get(desc, "size", out, len, &b))
			return;
		v.size = b;
		if (u64map_put(&s->dmabuf_size, a, &v))
			s->oom = 1;
	} else if (desc == s->import) {
		struct u64map_val *sz;

		if (arg_get(desc, "gpu_id", in, len, &b) ||
		    arg_get(desc, "dmabuf_fd", in, len, &a) ||
		    arg_get(desc, "handle", out, len, &h))
			return;
		sz = u64map_get(&s->dmabuf_size, a);
		bo_created(s, h, (uint32_t)b, HEAP_IMPORT, sz ? sz->size : 0,
			   rec->seq);
	} else if (desc == s->create_queue) {
		if (arg_get(desc, "queue_id", out, len, &a))
			return;
		arg_get(desc, "gpu_id", in, len, &b);
		v.gpu_id = (uint32_t)b;
		if (u64map_put(&s->queues, a, &v))
			s->oom = 1;
	} else if (desc == s->destroy_queue) {
		if (!arg_get(desc, "queue_id", in, len, &a))
			u64map_del(&s->queues, a, NULL);
	} else if (desc == s->create_event) {
		if (arg_get(desc, "event_id", out, len, &a))
			return;
		arg_get(desc, "event_type", in, len, &b);
		v.kind = (uint32_t)b;
		if (u64map_put(&s->events, a, &v))
			s->oom = 1;
	} else if (desc == s->destroy_event) {
		if (!arg_get(desc, "event_id", in, len, &a))
			u64map_del(&s->events, a, NULL);
	}
}

static int
stats_emit(void *ctx, const struct kt_record *rec)
{
	struct stats *s = ctx;
	const struct kt_ioctl_rec *io = &rec->u.ioctl;
	const struct kfd_ioctl_desc *desc;
	struct ioctl_stat *st;

	s->records++;
	if (rec->type != KT_REC_IOCTL)
		return 0;
	s->ioctls++;
	desc = kfd_schema_lookup((enum kfd_file_kind)io->file_kind,
				 io->request);
	st = stat_for(s, desc, io->request);
	st->count++;
	if (io->ret < 0) {
		s->failed++;
		st->errors++;
		if (errno_add(&st->errnos, &st->nerrnos, io->err) ||
		    errno_add(&s->errnos, &s->nerrnos, io->err))
			s->oom = 1;
	}
	if (io->t_exit >= rec->ts && lat_add(st, io->t_exit - rec->ts))
		s->oom = 1;
	account(s, rec, desc);
	return s->oom ? -1 : 0;
}

/* qsort() of possibly empty (NULL) arrays, which qsort itself forbids. */
static void
sort_any(void *base, size_t n, size_t size,
	 int (*cmp)(const void *, const void *))
{
	if (n > 1)
		qsort(base, n, size, cmp);
}

static int
cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static int
cmp_errno(const void *a, const void *b)
{
	const struct errno_count *x = a, *y = b;

	if (x->count != y->count)
		return x->count > y->count ? -1 : 1;
	return x->err < y->err ? -1 : x->err > y->err;
}

static int
cmp_mem(const void *a, const void *b)
{
	const struct mem_acct *x = a, *y = b;

	if (x->gpu_id != y->gpu_id)
		return x->gpu_id < y->gpu_id ? -1 : 1;
	return (int)x->heap - (int)y->heap;
}

struct lat_summary {
	uint64_t min, median, p99, max;
};

/* Nearest-rank percentiles over the sorted samples. */
static void
lat_summarize(struct ioctl_stat *st, struct lat_summary *l)
{
	size_t n = st->nlat, r99;

	memset(l, 0, sizeof(*l));
	if (!n)
		return;
	qsort(st->lat, n, sizeof(*st->lat), cmp_u64);
	r99 = (n * 99 + 99) / 100;
	l->min = st->lat[0];
	l->median = st->lat[(n - 1) / 2];
	l->p99 = st->lat[(r99 ? r99 : 1) - 1];
	l->max = st->lat[n - 1];
}

static const char *
errno_label(int32_t err, char *buf, size_t size)
{
	const char *n = kfd_errno_name(err);

	if (n)
		return n;
	snprintf(buf, size, "errno %d", err);
	return buf;
}

static const char *
stat_label(const struct ioctl_stat *st, char *buf, size_t size)
{
	if (st->name)
		return st->name;
	snprintf(buf, size, "ioctl 0x%08x", st->request);
	return buf;
}

/* Every kind that was called, in a stable order: schema rows, unknowns. */
static size_t
collect(struct stats *s, struct ioctl_stat **v)
{
	size_t n = 0, i;

	for (i = 0; i < s->nrows; i++)
		if (s->per_row[i].count)
			v[n++] = &s->per_row[i];
	for (i = 0; i < s->nunknown; i++)
		v[n++] = &s->unknown[i];
	return n;
}

static void
print_us(uint64_t ns)
{
	printf(" %11.1f", (double)ns / 1000.0);
}

/* The name of an event type, from CREATE_EVENT's name table. */
static const char *
event_type_name(const struct stats *s, uint32_t type)
{
	int i;

	if (!s->create_event || !s->create_event->args)
		return NULL;
	i = kfd_schema_field(s->create_event, "event_type");
	if (i < 0 || !s->create_event->args->fields[i].names)
		return NULL;
	return kfd_name_lookup(s->create_event->args->fields[i].names, type);
}

static void
report_text(struct stats *s, struct ioctl_stat **v, size_t nv)
{
	struct u64map_slot **sorted;
	char buf[32];
	size_t i, j;

	printf("records: %llu, ioctls: %llu, failed: %llu\n\n",
	       (unsigned long long)s->records, (unsigned long long)s->ioctls,
	       (unsigned long long)s->failed);

	printf("%-28s %9s %7s %11s %11s %11s %11s  %s\n", "IOCTL", "CALLS",
	       "FAILED", "MIN(us)", "MEDIAN(us)", "P99(us)", "MAX(us)",
	       "ERRORS");
	for (i = 0; i < nv; i++) {
		struct lat_summary l;

		lat_summarize(v[i], &l);
		printf("%-28s %9llu %7llu", stat_label(v[i], buf, sizeof(buf)),
		       (unsigned long long)v[i]->count,
		       (unsigned long long)v[i]->errors);
		if (v[i]->nlat) {
			print_us(l.min);
			print_us(l.median);
			print_us(l.p99);
			print_us(l.max);
		} else {
			printf(" %11s %11s %11s %11s", "-", "-", "-", "-");
		}
		sort_any(v[i]->errnos, v[i]->nerrnos, sizeof(*v[i]->errnos),
			 cmp_errno);
		if (v[i]->nerrnos)
			printf(" ");
		for (j = 0; j < v[i]->nerrnos; j++)
			printf(" %s:%llu",
			       errno_label(v[i]->errnos[j].err, buf, sizeof(buf)),
			       (unsigned long long)v[i]->errnos[j].count);
		printf("\n");
	}

	printf("\nerrors:");
	if (!s->nerrnos)
		printf(" none");
	printf("\n");
	sort_any(s->errnos, s->nerrnos, sizeof(*s->errnos), cmp_errno);
	for (i = 0; i < s->nerrnos; i++)
		printf("  %-16s %llu\n",
		       errno_label(s->errnos[i].err, buf, sizeof(buf)),
		       (unsigned long long)s->errnos[i].count);

	printf("\nmemory:");
	if (!s->nmem)
		printf(" none allocated");
	printf("\n");
	sort_any(s->mem, s->nmem, sizeof(*s->mem), cmp_mem);
	if (s->nmem)
		printf("  %-10s %-9s %8s %8s %14s %14s %14s %14s\n", "GPU",
		       "HEAP", "ALLOCS", "FREES", "ALLOCATED", "FREED", "LIVE",
		       "HIGH-WATER");
	for (i = 0; i < s->nmem; i++) {
		const struct mem_acct *m = &s->mem[i];

		snprintf(buf, sizeof(buf), "0x%x", m->gpu_id);
		printf("  %-10s %-9s %8llu %8llu %14llu %14llu %14llu %14llu\n",
		       buf, heap_names[m->heap], (unsigned long long)m->allocs,
		       (unsigned long long)m->frees,
		       (unsigned long long)m->allocated,
		       (unsigned long long)m->freed,
		       (unsigned long long)m->live,
		       (unsigned long long)m->high_water);
	}
	if (s->unmatched_frees)
		printf("  (%llu frees of handles never allocated in this trace)\n",
		       (unsigned long long)s->unmatched_frees);

	printf("\nalive at end: %zu BOs, %zu queues, %zu events\n",
	       s->bos.n, s->queues.n, s->events.n);
	sorted = u64map_sorted(&s->bos);
	for (i = 0; sorted && i < s->bos.n; i++)
		printf("  bo     handle=0x%llx_%08llx heap=%s size=%llu (seq %llu)\n",
		       (unsigned long long)(sorted[i]->key >> 32),
		       (unsigned long long)(sorted[i]->key & 0xffffffffu),
		       heap_names[sorted[i]->val.kind],
		       (unsigned long long)sorted[i]->val.size,
		       (unsigned long long)sorted[i]->val.seq);
	free(sorted);
	sorted = u64map_sorted(&s->queues);
	for (i = 0; sorted && i < s->queues.n; i++)
		printf("  queue  queue_id=%llu gpu_id=0x%x (seq %llu)\n",
		       (unsigned long long)sorted[i]->key,
		       sorted[i]->val.gpu_id,
		       (unsigned long long)sorted[i]->val.seq);
	free(sorted);
	sorted = u64map_sorted(&s->events);
	for (i = 0; sorted && i < s->events.n; i++) {
		const char *tn = event_type_name(s, sorted[i]->val.kind);

		printf("  event  event_id=%llu type=",
		       (unsigned long long)sorted[i]->key);
		if (tn)
			printf("%s", tn);
		else
			printf("%u", sorted[i]->val.kind);
		printf(" (seq %llu)\n", (unsigned long long)sorted[i]->val.seq);
	}
	free(sorted);
}

static void
json_key(struct kt_strbuf *sb, int *first, const char *key)
{
	if (!*first)
		kt_strbuf_putc(sb, ',');
	*first = 0;
	kfd_json_escape(sb, key, strlen(key));
	kt_strbuf_putc(sb, ':');
}

static void
json_num(struct kt_strbuf *sb, int *first, const char *key, uint64_t v)
{
	json_key(sb, first, key);
	if (v > 1ULL << 53) {
		kt_strbuf_putc(sb, '"');
		kt_strbuf_put_hex(sb, v);
		kt_strbuf_putc(sb, '"');
	} else {
		kt_strbuf_put_u64(sb, v);
	}
}

static void
json_errnos(struct kt_strbuf *sb, struct errno_count *e, size_t n)
{
	char buf[32];
	int first = 1;
	size_t i;

	sort_any(e, n, sizeof(*e), cmp_errno);
	kt_strbuf_putc(sb, '{');
	for (i = 0; i < n; i++)
		json_num(sb, &first, errno_label(e[i].err, buf, sizeof(buf)),
			 e[i].count);
	kt_strbuf_putc(sb, '}');
}

static int
report_json(struct stats *s, struct ioctl_stat **v, size_t nv)
{
	struct u64map_slot **sorted;
	struct kt_strbuf sb;
	char buf[32];
	int first = 1, f2, f3;
	size_t i;
	int rc;

	kt_strbuf_init(&sb);
	kt_strbuf_putc(&sb, '{');
	json_num(&sb, &first, "records", s->records);
	json_num(&sb, &first, "ioctls", s->ioctls);
	json_num(&sb, &first, "failed", s->failed);
	json_key(&sb, &first, "per_ioctl");
	kt_strbuf_putc(&sb, '[');
	for (i = 0; i < nv; i++) {
		struct lat_summary l;
		const char *label = stat_label(v[i], buf, sizeof(buf));

		lat_summarize(v[i], &l);
		if (i)
			kt_strbuf_putc(&sb, ',');
		kt_strbuf_putc(&sb, '{');
		f2 = 1;
		json_key(&sb, &f2, "name");
		kfd_json_escape(&sb, label, strlen(label));
		json_num(&sb, &f2, "request", v[i]->request);
		json_num(&sb, &f2, "calls", v[i]->count);
		json_num(&sb, &f2, "failed", v[i]->errors);
		json_key(&sb, &f2, "errors");
		json_errnos(&sb, v[i]->errnos, v[i]->nerrnos);
		json_key(&sb, &f2, "latency_ns");
		if (v[i]->nlat) {
			kt_strbuf_putc(&sb, '{');
			f3 = 1;
			json_num(&sb, &f3, "min", l.min);
			json_num(&sb, &f3, "median", l.median);
			json_num(&sb, &f3, "p99", l.p99);
			json_num(&sb, &f3, "max", l.max);
			kt_strbuf_putc(&sb, '}');
		} else {
			kt_strbuf_puts(&sb, "null");
		}
		kt_strbuf_putc(&sb, '}');
	}
	kt_strbuf_putc(&sb, ']');
	json_key(&sb, &first, "errors");
	json_errnos(&sb, s->errnos, s->nerrnos);

	json_key(&sb, &first, "memory");
	kt_strbuf_putc(&sb, '[');
	sort_any(s->mem, s->nmem, sizeof(*s->mem), cmp_mem);
	for (i = 0; i < s->nmem; i++) {
		const struct mem_acct *m = &s->mem[i];

		if (i)
			kt_strbuf_putc(&sb, ',');
		kt_strbuf_putc(&sb, '{');
		f2 = 1;
		json_num(&sb, &f2, "gpu_id", m->gpu_id);
		json_key(&sb, &f2, "heap");
		kfd_json_escape(&sb, heap_names[m->heap],
				strlen(heap_names[m->heap]));
		json_num(&sb, &f2, "allocs", m->allocs);
		json_num(&sb, &f2, "frees", m->frees);
		json_num(&sb, &f2, "allocated", m->allocated);
		json_num(&sb, &f2, "freed", m->freed);
		json_num(&sb, &f2, "live", m->live);
		json_num(&sb, &f2, "high_water", m->high_water);
		kt_strbuf_putc(&sb, '}');
	}
	kt_strbuf_putc(&sb, ']');
	json_num(&sb, &first, "unmatched_frees", s->unmatched_frees);

	json_key(&sb, &first, "alive");
	kt_strbuf_putc(&sb, '{');
	f2 = 1;
	json_key(&sb, &f2, "bos");
	kt_strbuf_putc(&sb, '[');
	sorted = u64map_sorted(&s->bos);
	for (i = 0; sorted && i < s->bos.n; i++) {
		if (i)
			kt_strbuf_putc(&sb, ',');
		kt_strbuf_putc(&sb, '{');
		f3 = 1;
		json_num(&sb, &f3, "handle", sorted[i]->key);
		json_num(&sb, &f3, "gpu_id", sorted[i]->val.gpu_id);
		json_key(&sb, &f3, "heap");
		kfd_json_escape(&sb, heap_names[sorted[i]->val.kind],
				strlen(heap_names[sorted[i]->val.kind]));
		json_num(&sb, &f3, "size", sorted[i]->val.size);
		json_num(&sb, &f3, "seq", sorted[i]->val.seq);
		kt_strbuf_putc(&sb, '}');
	}
	free(sorted);
	kt_strbuf_putc(&sb, ']');
	json_key(&sb, &f2, "queues");
	kt_strbuf_putc(&sb, '[');
	sorted = u64map_sorted(&s->queues);
	for (i = 0; sorted && i < s->queues.n; i++) {
		if (i)
			kt_strbuf_putc(&sb, ',');
		kt_strbuf_putc(&sb, '{');
		f3 = 1;
		json_num(&sb, &f3, "queue_id", sorted[i]->key);
		json_num(&sb, &f3, "gpu_id", sorted[i]->val.gpu_id);
		json_num(&sb, &f3, "seq", sorted[i]->val.seq);
		kt_strbuf_putc(&sb, '}');
	}
	free(sorted);
	kt_strbuf_putc(&sb, ']');
	json_key(&sb, &f2, "events");
	kt_strbuf_putc(&sb, '[');
	sorted = u64map_sorted(&s->events);
	for (i = 0; sorted && i < s->events.n; i++) {
		if (i)
			kt_strbuf_putc(&sb, ',');
		kt_strbuf_putc(&sb, '{');
		f3 = 1;
		json_num(&sb, &f3, "event_id", sorted[i]->key);
		json_num(&sb, &f3, "event_type", sorted[i]->val.kind);
		json_num(&sb, &f3, "seq", sorted[i]->val.seq);
		kt_strbuf_putc(&sb, '}');
	}
	free(sorted);
	kt_strbuf_append(&sb, "]}}\n", 4);

	rc = sb.failed ? -1 : 0;
	if (!rc && fwrite(sb.data, 1, sb.len, stdout) != sb.len)
		rc = -1;
	kt_strbuf_release(&sb);
	return rc;
}

static void
stats_free(struct stats *s)
{
	size_t i;

	for (i = 0; s->per_row && i < s->nrows; i++) {
		free(s->per_row[i].errnos);
		free(s->per_row[i].lat);
	}
	for (i = 0; s->unknown && i < s->nunknown; i++) {
		free(s->unknown[i].errnos);
		free(s->unknown[i].lat);
	}
	free(s->per_row);
	free(s->unknown);
	free(s->errnos);
	free(s->mem);
	u64map_free(&s->bos);
	u64map_free(&s->queues);
	u64map_free(&s->events);
	u64map_free(&s->dmabuf_size);
}

int
kfdtrace_cmd_stats(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "json", no_argument, NULL, 'j' },
		{ "window", required_argument, NULL, 'w' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct ioctl_stat **v = NULL;
	struct cli_reorder ro;
	struct kt_reader *r = NULL;
	struct kt_record rec;
	struct stats s;
	uint64_t window = CLI_REORDER_WINDOW;
	const char *path;
	int opt, json = 0, rc, status = KFDTRACE_EXIT_USAGE;
	unsigned int i;
	size_t nv;

	if (cli_help_requested(argc, argv)) {
		kfdtrace_help_stats(stdout);
		return KFDTRACE_EXIT_OK;
	}
	memset(&s, 0, sizeof(s));
	optind = 0;
	while ((opt = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
		switch (opt) {
		case 'j':
			json = 1;
			break;
		case 'w':
			if (cli_parse_u64(optarg, &window) || window == 0 ||
			    window > 1u << 24) {
				fprintf(stderr, "kfdtrace stats: bad number '%s'\n",
					optarg);
				return KFDTRACE_EXIT_USAGE;
			}
			break;
		default:
			fprintf(stderr, "Try 'kfdtrace stats --help'.\n");
			return KFDTRACE_EXIT_USAGE;
		}
	}
	if (optind != argc - 1) {
		fprintf(stderr,
			"kfdtrace stats: expected one trace file (see 'kfdtrace stats --help')\n");
		return KFDTRACE_EXIT_USAGE;
	}
	path = argv[optind];

	status = KFDTRACE_EXIT_ERROR;
	s.rows = kfd_schema_rows(&s.nrows);
	s.per_row = calloc(s.nrows ? s.nrows : 1, sizeof(*s.per_row));
	s.unknown = calloc(MAX_UNKNOWN_KINDS, sizeof(*s.unknown));
	if (!s.per_row || !s.unknown)
		goto oom;
	for (i = 0; i < s.nrows; i++) {
		s.per_row[i].name = s.rows[i].name;
		s.per_row[i].request = s.rows[i].request;
	}
	s.alloc = kfd_schema_by_name("ALLOC_MEMORY_OF_GPU");
	s.free_mem = kfd_schema_by_name("FREE_MEMORY_OF_GPU");
	s.import = kfd_schema_by_name("IMPORT_DMABUF");
	s.dmabuf_info = kfd_schema_by_name("GET_DMABUF_INFO");
	s.create_queue = kfd_schema_by_name("CREATE_QUEUE");
	s.destroy_queue = kfd_schema_by_name("DESTROY_QUEUE");
	s.create_event = kfd_schema_by_name("CREATE_EVENT");
	s.destroy_event = kfd_schema_by_name("DESTROY_EVENT");

	if (cli_open(path, &r))
		goto out;
	cli_reorder_init(&ro, (size_t)window, 0, stats_emit, &s);
	while ((rc = kt_reader_next(r, &rec)) == 1) {
		if (cli_reorder_push(&ro, &rec)) {
			cli_reorder_free(&ro);
			goto oom;
		}
	}
	if (cli_reorder_flush(&ro)) {
		cli_reorder_free(&ro);
		goto oom;
	}
	cli_reorder_free(&ro);

	v = malloc((s.nrows + MAX_UNKNOWN_KINDS) * sizeof(*v));
	if (!v)
		goto oom;
	nv = collect(&s, v);
	if (json) {
		if (report_json(&s, v, nv))
			goto oom;
	} else {
		report_text(&s, v, nv);
	}
	if (fflush(stdout) != 0) {
		fprintf(stderr, "kfdtrace stats: write error\n");
		goto out;
	}
	status = cli_finish(path, r, rc);
	goto out;

oom:
	fprintf(stderr, "kfdtrace stats: out of memory\n");
out:
	free(v);
	if (r)
		kt_reader_close(r);
	stats_free(&s);
	return status;
}

/* SPDX-License-Identifier: MIT */
/* kfdtrace stats: submissions per queue (stats_submit.h). */
#include <stdlib.h>
#include <string.h>

#include <kfdtrace/packet_abi.h>
#include <kfdtrace/packets.h>

#include "core/cli.h"
#include "stats/stats_submit.h"

/* The kind index of a packet schema row (SUB_STATS_KINDS: unknown). */
static unsigned int
kind_of(const struct kfd_packet_desc *r)
{
	unsigned int n;
	const struct kfd_packet_desc *rows = kfd_packet_rows(&n);

	if (!r || (unsigned int)(r - rows) >= SUB_STATS_KINDS)
		return SUB_STATS_KINDS;
	return (unsigned int)(r - rows);
}

/* A queue's counts: found by a map, so many queues count in linear time. */
static struct sub_queue_stats *
queue(struct sub_stats *ss, const struct kt_submit_rec *s)
{
	struct sub_queue_stats *q;
	size_t i;
	int rc = cli_index_for(&ss->index, 0,
			       (uint64_t)s->gpu_id << 32 | s->queue_id,
			       (void **)&ss->q, &ss->n, &ss->cap, sizeof(*ss->q),
			       &i);

	if (rc < 0)
		return NULL;
	q = &ss->q[i];
	if (!rc) {
		q->queue_id = s->queue_id;
		q->gpu_id = s->gpu_id;
		q->engine = s->engine;
	}
	return q;
}

int
sub_stats_add(struct sub_stats *ss, const struct kt_submit_rec *s, uint64_t ts)
{
	struct sub_queue_stats *q = queue(ss, s);
	size_t off, size;

	if (!q)
		return -1;
	if (ss->keep_times) {
		if (q->nts == q->capts) {
			size_t cap = q->capts ? 2 * q->capts : 64;
			uint64_t *v = realloc(q->ts, cap * sizeof(*v));

			if (!v)
				return -1;
			q->ts = v;
			q->capts = cap;
		}
		q->ts[q->nts++] = ts;
	}
	q->doorbells++;
	q->bytes += s->len;
	if (!s->data)
		return 0;
	if (s->engine == KFD_ENGINE_AQL) {
		for (off = 0; off + KFD_AQL_PACKET_SIZE <= s->len;
		     off += KFD_AQL_PACKET_SIZE) {
			q->kinds[kind_of(kfd_aql_packet(s->data + off))]++;
			q->packets++;
		}
	} else if (s->engine == KFD_ENGINE_SDMA) {
		for (off = 0; off + 4 <= s->len; off += size) {
			q->kinds[kind_of(kfd_sdma_packet(s->data + off, s->len - off,
							 &size))]++;
			q->packets++;
		}
	} else if (s->engine == KFD_ENGINE_PM4) {
		for (off = 0; off + 4 <= s->len; off += size) {
			q->kinds[kind_of(kfd_pm4_packet(s->data + off, s->len - off,
							&size))]++;
			q->packets++;
		}
	}
	return 0;
}

const char *
sub_stats_kind(unsigned int k)
{
	unsigned int n;
	const struct kfd_packet_desc *rows = kfd_packet_rows(&n);

	return k < n ? rows[k].name : "UNKNOWN";
}

void
sub_stats_text(const struct sub_stats *ss, FILE *out)
{
	uint64_t doorbells = 0, packets = 0;
	size_t i;
	unsigned int k;

	if (!ss->n)
		return;
	for (i = 0; i < ss->n; i++) {
		doorbells += ss->q[i].doorbells;
		packets += ss->q[i].packets;
	}
	fprintf(out, "\nsubmissions: %zu queues, %llu packets in %llu doorbells\n",
		ss->n, (unsigned long long)packets, (unsigned long long)doorbells);
	fprintf(out, "  %-6s %-8s %-6s %10s %10s  %s\n", "QUEUE", "GPU", "ENGINE",
		"DOORBELLS", "PACKETS", "KINDS");
	for (i = 0; i < ss->n; i++) {
		const struct sub_queue_stats *q = &ss->q[i];
		int first = 1;

		fprintf(out, "  %-6u 0x%-6x %-6s %10llu %10llu  ", q->queue_id,
			q->gpu_id, kfd_engine_name(q->engine),
			(unsigned long long)q->doorbells,
			(unsigned long long)q->packets);
		for (k = 0; k <= SUB_STATS_KINDS; k++)
			if (q->kinds[k]) {
				fprintf(out, "%s%s %llu", first ? "" : ", ", sub_stats_kind(k),
					(unsigned long long)q->kinds[k]);
				first = 0;
			}
		fputc('\n', out);
	}
}

void
sub_stats_json(const struct sub_stats *ss, struct kt_strbuf *sb)
{
	size_t i;
	unsigned int k;

	kt_strbuf_puts(sb, "\"submissions\":[");
	for (i = 0; i < ss->n; i++) {
		const struct sub_queue_stats *q = &ss->q[i];
		int first = 1;

		kt_strbuf_printf(sb, "%s{\"queue\":%u,\"gpu_id\":%u,\"engine\":\"%s\","
				 "\"doorbells\":", i ? "," : "", q->queue_id,
				 q->gpu_id, kfd_engine_name(q->engine));
		kfd_json_u64(sb, q->doorbells);
		kt_strbuf_puts(sb, ",\"packets\":");
		kfd_json_u64(sb, q->packets);
		kt_strbuf_puts(sb, ",\"kinds\":{");
		for (k = 0; k <= SUB_STATS_KINDS; k++)
			if (q->kinds[k]) {
				if (!first)
					kt_strbuf_putc(sb, ',');
				first = 0;
				kfd_json_escape(sb, sub_stats_kind(k), strlen(sub_stats_kind(k)));
				kt_strbuf_putc(sb, ':');
				kfd_json_u64(sb, q->kinds[k]);
			}
		kt_strbuf_puts(sb, "}}");
	}
	kt_strbuf_putc(sb, ']');
}

void
sub_stats_free(struct sub_stats *ss)
{
	size_t i;

	for (i = 0; i < ss->n; i++)
		free(ss->q[i].ts);
	free(ss->q);
	kc_u64map_free(&ss->index);
	memset(ss, 0, sizeof(*ss));
}

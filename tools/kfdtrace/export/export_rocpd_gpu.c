/* SPDX-License-Identifier: MIT */
/*
 * The rocpd export's GPU side (export_rocpd.h): the topology's nodes as
 * agents, and what a doorbell published (--submissions): AQL kernel
 * dispatches as kernel dispatches on a queue, SDMA linear copies as
 * memory copies. A submit record holds when the doorbell rang, not when
 * the GPU ran the packet: start and end are both that time.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/cli.h"
#include "export/export_rocpd.h"
#include "kfdtrace/decode.h"
#include "kfdtrace/packet_abi.h"
#include "kfdtrace/packets.h"
#include "kfdtrace/topology.h"

/* "gfx90a" from gfx_target_version 90010. */
static void
gfx_name(char *buf, size_t size, uint64_t v)
{
	snprintf(buf, size, "gfx%" PRIu64 "%" PRIu64 "%" PRIx64, v / 10000,
		 v / 100 % 100, v % 100);
}

static int64_t
agent_add(struct rd *d, const struct kt_topo_node *n, unsigned int idx,
	  uint32_t gpu_id)
{
	char model[32] = "";
	int64_t id;

	rd_bind_i(d, ST_AGENT, 1, d->nid);
	rd_bind_i(d, ST_AGENT, 2, d->pid);
	rd_bind_t(d, ST_AGENT, 3, gpu_id ? "GPU" : "CPU");
	rd_bind_i(d, ST_AGENT, 4, idx);
	rd_bind_i(d, ST_AGENT, 5, idx);
	rd_bind_i(d, ST_AGENT, 6, gpu_id ? d->ngpus++ : d->ncpus++);
	rd_bind_i(d, ST_AGENT, 7, gpu_id);
	if (n && gpu_id)
		gfx_name(model, sizeof(model), n->gfx_target_version);
	rd_bind_t(d, ST_AGENT, 8, n && n->name[0] ? n->name : model[0] ? model :
	       gpu_id ? "gpu" : "cpu");
	rd_bind_t(d, ST_AGENT, 9, model[0] ? model : n ? n->name : NULL);
	rd_bind_t(d, ST_AGENT, 10, n && n->vendor_id == 0x1002 ? "AMD" : NULL);
	rd_bind_t(d, ST_AGENT, 11, n ? n->name : NULL);
	rd_bind_i(d, ST_AGENT, 12, gpu_id);
	rd_bind_i(d, ST_AGENT, 13, n ? (int64_t)n->device_id : 0);
	rd_bind_i(d, ST_AGENT, 14, n ? (int64_t)n->location_id : 0);
	rd_bind_i(d, ST_AGENT, 15, n ? (int64_t)n->drm_render_minor : 0);
	id = rd_step(d, ST_AGENT);
	d->nagents++;
	if (gpu_id && kc_u64map_put64(&d->agents, 0, gpu_id, (uint64_t)id))
		d->oom = 1;
	return id;
}

/* The agent of @gpu_id: the topology's, else one made for it. */
int64_t
rd_agent_id(struct rd *d, uint32_t gpu_id)
{
	uint64_t id;

	if (!gpu_id)
		return 0;
	if (kc_u64map_get64(&d->agents, 0, gpu_id, &id))
		return (int64_t)id;
	return agent_add(d, NULL, KT_TOPO_MAX_NODES + d->nagents, gpu_id);
}

void
rd_topology(struct rd *d, const struct kt_record *rec)
{
	struct kt_topo *t;
	unsigned int i;

	if (d->have_topo)
		return;
	t = malloc(sizeof(*t));
	if (!t) {
		d->oom = 1;
		return;
	}
	d->have_topo = 1;
	kt_topo_parse(rec->u.topology.files, rec->u.topology.nfiles, t);
	obj_tracker_topology(&d->objs, t);
	for (i = 0; i < t->nnodes; i++) {
		const struct kt_topo_node *n = &t->nodes[i];

		if (n->present && !(n->gpu_id &&
				    kc_u64map_get(&d->agents, 0, n->gpu_id)))
			agent_add(d, n, i, n->gpu_id);
	}
	free(t);
}

static int64_t
queue_id(struct rd *d, const struct kt_submit_rec *s)
{
	uint64_t key = (uint64_t)s->gpu_id << 32 | s->queue_id, id;
	char name[64];

	if (kc_u64map_get64(&d->queues, 0, key, &id))
		return (int64_t)id;
	snprintf(name, sizeof(name), "%s queue %u gpu 0x%x",
		 kfd_engine_name(s->engine), s->queue_id, s->gpu_id);
	rd_bind_i(d, ST_QUEUE, 1, d->nid);
	rd_bind_i(d, ST_QUEUE, 2, d->pid);
	rd_bind_t(d, ST_QUEUE, 3, name);
	rd_bind_i(d, ST_QUEUE, 4, s->gpu_id);
	rd_bind_i(d, ST_QUEUE, 5, s->queue_id);
	rd_bind_t(d, ST_QUEUE, 6, kfd_engine_name(s->engine));
	id = (uint64_t)rd_step(d, ST_QUEUE);
	if (kc_u64map_put64(&d->queues, 0, key, id))
		d->oom = 1;
	return (int64_t)id;
}

/* A kernel is known by its kernel_object address: one symbol each. */
static int64_t
symbol_id(struct rd *d, uint64_t kobj)
{
	uint64_t id;
	char name[48];
	char *sql;

	if (kc_u64map_get64(&d->symbols, 0, kobj, &id))
		return (int64_t)id;
	if (!d->code_object) {
		/* The code objects' loads are not traced: one stands in. */
		sql = sqlite3_mprintf("INSERT INTO \"rocpd_info_code_object%s\" "
				      "(nid, pid, uri, storage_type) VALUES "
				      "(%lld, %lld, 'kfdtrace://unknown', "
				      "'MEMORY')", d->ids.suffix,
				      (long long)d->nid, (long long)d->pid);
		if (!sql || rd_exec(d->db, sql))
			rd_sql_fail(d);
		sqlite3_free(sql);
		d->code_object = sqlite3_last_insert_rowid(d->db);
	}
	snprintf(name, sizeof(name), "kernel_object 0x%" PRIx64, kobj);
	rd_bind_i(d, ST_SYMBOL, 1, d->nid);
	rd_bind_i(d, ST_SYMBOL, 2, d->pid);
	rd_bind_i(d, ST_SYMBOL, 3, d->code_object);
	rd_bind_t(d, ST_SYMBOL, 4, name);
	rd_bind_t(d, ST_SYMBOL, 5, name);
	rd_bind_i(d, ST_SYMBOL, 6, (int64_t)kobj);
	id = (uint64_t)rd_step(d, ST_SYMBOL);
	if (kc_u64map_put64(&d->symbols, 0, kobj, id))
		d->oom = 1;
	return (int64_t)id;
}

static void
dispatch_add(struct rd *d, const struct kt_record *rec, int64_t tid,
	     int64_t queue, const struct kfd_aql_dispatch *k, uint64_t index)
{
	int64_t event = rd_event_add(d, d->cat_dispatch, rec->seq, NULL);
	int c = 1;

	rd_bind_i(d, ST_DISPATCH, c++, d->nid);
	rd_bind_i(d, ST_DISPATCH, c++, d->pid);
	rd_bind_i(d, ST_DISPATCH, c++, tid);
	rd_bind_i(d, ST_DISPATCH, c++, rd_agent_id(d, rec->u.submit.gpu_id));
	rd_bind_i(d, ST_DISPATCH, c++, symbol_id(d, k->kernel_object));
	rd_bind_i(d, ST_DISPATCH, c++, (int64_t)index);
	rd_bind_i(d, ST_DISPATCH, c++, queue);
	rd_bind_i(d, ST_DISPATCH, c++, rd_boot_ts(d, rec->ts));
	rd_bind_i(d, ST_DISPATCH, c++, rd_boot_ts(d, rec->ts));
	rd_bind_i(d, ST_DISPATCH, c++, k->private_segment_size);
	rd_bind_i(d, ST_DISPATCH, c++, k->group_segment_size);
	rd_bind_i(d, ST_DISPATCH, c++, k->workgroup_size_x);
	rd_bind_i(d, ST_DISPATCH, c++, k->workgroup_size_y);
	rd_bind_i(d, ST_DISPATCH, c++, k->workgroup_size_z);
	rd_bind_i(d, ST_DISPATCH, c++, k->grid_size_x);
	rd_bind_i(d, ST_DISPATCH, c++, k->grid_size_y);
	rd_bind_i(d, ST_DISPATCH, c++, k->grid_size_z);
	rd_bind_i(d, ST_DISPATCH, c++, d->name_submit);
	rd_bind_i(d, ST_DISPATCH, c++, event);
	rd_step(d, ST_DISPATCH);
	d->dispatches++;
}

static void
copy_add(struct rd *d, const struct kt_record *rec, int64_t tid,
	 int64_t queue, const struct kfd_sdma_copy_linear *p)
{
	int64_t event = rd_event_add(d, d->cat_copy, rec->seq, NULL);
	/* The engine's GPU: which memory each address is in is not known. */
	int64_t agent = rd_agent_id(d, rec->u.submit.gpu_id);
	int c = 1;

	rd_bind_i(d, ST_COPY, c++, d->nid);
	rd_bind_i(d, ST_COPY, c++, d->pid);
	rd_bind_i(d, ST_COPY, c++, tid);
	rd_bind_i(d, ST_COPY, c++, rd_boot_ts(d, rec->ts));
	rd_bind_i(d, ST_COPY, c++, rd_boot_ts(d, rec->ts));
	rd_bind_i(d, ST_COPY, c++, rd_string_id(d, "COPY_LINEAR"));
	rd_bind_i(d, ST_COPY, c++, agent);
	rd_bind_i(d, ST_COPY, c++, (int64_t)p->dst);
	rd_bind_i(d, ST_COPY, c++, agent);
	rd_bind_i(d, ST_COPY, c++, (int64_t)p->src);
	rd_bind_i(d, ST_COPY, c++,
		  (int64_t)(p->count & KFD_SDMA_COPY_COUNT_MASK) + 1);
	rd_bind_i(d, ST_COPY, c++, queue);
	rd_bind_i(d, ST_COPY, c++, d->name_submit);
	rd_bind_i(d, ST_COPY, c++, event);
	rd_step(d, ST_COPY);
	d->copies++;
}

/* The kernel dispatches and linear copies of a doorbell's packets. */
void
rd_submit_record(struct rd *d, const struct kt_record *rec)
{
	const struct kt_submit_rec *s = &rec->u.submit;
	const struct kfd_packet_desc *row;
	int64_t tid = rd_thread_id(d, rec->tid, rec->ts), queue = 0;
	size_t off, size;

	if (!s->data)
		return;
	if (s->engine == KFD_ENGINE_AQL) {
		for (off = 0; off + KFD_AQL_PACKET_SIZE <= s->len && !d->failed;
		     off += KFD_AQL_PACKET_SIZE) {
			struct kfd_aql_dispatch k;

			row = kfd_aql_packet(s->data + off);
			if (!row || strcmp(row->name, "KERNEL_DISPATCH"))
				continue;
			memcpy(&k, s->data + off, sizeof(k));
			if (!queue)
				queue = queue_id(d, s);
			dispatch_add(d, rec, tid, queue, &k,
				     s->first + off / KFD_AQL_PACKET_SIZE);
		}
	} else if (s->engine == KFD_ENGINE_SDMA) {
		for (off = 0; off < s->len && !d->failed; off += size) {
			struct kfd_sdma_copy_linear p;

			row = kfd_sdma_packet(s->data + off, s->len - off, &size);
			if (!size)
				break;
			if (!row || strcmp(row->name, "COPY_LINEAR") ||
			    off + sizeof(p) > s->len)
				continue;
			memcpy(&p, s->data + off, sizeof(p));
			if (!queue)
				queue = queue_id(d, s);
			copy_add(d, rec, tid, queue, &p);
		}
	}
}

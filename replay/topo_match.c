/* SPDX-License-Identifier: MIT */
/*
 * Pairing captured GPUs with live ones, and the compatibility report.
 *
 * A captured GPU matches a live one of the same gfx target version; among
 * those, the same gpu_id, device id, VRAM size and CU count score higher
 * (the same gpu_id with the same properties is the same board). --gpu-map
 * pairs win over the automatic choice. A GPU the trace uses with no match
 * stops the replay unless --force.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <kfdtrace/decode.h>
#include <kfdtrace/dispatch.h>
#include <kfdtrace/kfd_abi.h>

#include "replay_as.h"

static int
used(const struct rp_model *m, uint32_t gpu_id)
{
	unsigned int i;

	for (i = 0; i < m->nused; i++)
		if (m->used[i] == gpu_id)
			return 1;
	return 0;
}

static int
live_taken(const struct rp_match *mt, uint32_t live)
{
	unsigned int i;

	for (i = 0; i < mt->npairs; i++)
		if (mt->pairs[i].live == live)
			return 1;
	return 0;
}

static int
node_index(const struct kt_topo *t, const struct kt_topo_node *n)
{
	return n ? (int)(n - t->nodes) : -1;
}

static int
score(const struct kt_topo_node *c, const struct kt_topo_node *l)
{
	int s = 0;

	if (c->gfx_target_version != l->gfx_target_version)
		return -1;
	if (c->gpu_id == l->gpu_id)
		s += 8;
	if (c->device_id == l->device_id)
		s += 4;
	if (c->vram_bytes == l->vram_bytes)
		s += 2;
	else if (l->vram_bytes > c->vram_bytes)
		s += 1;
	if (c->simd_count == l->simd_count)
		s += 1;
	return s;
}

/* The KFD ABI of the live device: open, GET_VERSION, close. */
static void
live_abi(struct rp_match *mt)
{
	struct kfd_abi_get_version_args v = { 0, 0 };
	int fd = open("/dev/kfd", O_RDWR | O_CLOEXEC);

	if (fd < 0)
		return;
	if (kfd_dispatch_once(fd, KFD_FILE_KFD, KFD_ABI_IOC_GET_VERSION, &v) == 0) {
		mt->live_abi_major = v.major_version;
		mt->live_abi_minor = v.minor_version;
	}
	close(fd);
}

static void
describe(FILE *out, const struct kt_topo_node *n, int idx)
{
	char gfx[16];

	if (n->gfx_target_version)
		kfd_gfx_target_name((uint32_t)n->gfx_target_version, gfx,
				    sizeof(gfx));
	else
		snprintf(gfx, sizeof(gfx), "none");
	fprintf(out, "0x%x (node %d, %s, device 0x%" PRIx64 ", %" PRIu64
		" CUs, %.1f GiB VRAM, renderD%" PRIu64 ")", n->gpu_id, idx, gfx,
		n->device_id, n->simd_per_cu ? n->simd_count / n->simd_per_cu : 0,
		(double)n->vram_bytes / (1u << 30), n->drm_render_minor);
}

/* The io_link type between two nodes of a topology, 0 when none. */
static uint32_t
link_type(const struct kt_topo *t, int from, int to)
{
	unsigned int i;

	for (i = 0; from >= 0 && to >= 0 && i < t->nlinks; i++)
		if (!t->links[i].p2p && (int)t->links[i].from == from &&
		    (int)t->links[i].to == to)
			return t->links[i].type;
	return 0;
}

static void
report_pair(FILE *out, const struct rp_model *m, const struct rp_match *mt,
	    const struct rp_gpu_pair *p)
{
	const struct kt_topo_node *c = p->cap_node >= 0 ?
		&m->topo.nodes[p->cap_node] : NULL;
	const struct kt_topo_node *l = &mt->live.nodes[p->live_node];
	int diffs = 0;

	fprintf(out, "  GPU ");
	if (c)
		describe(out, c, p->cap_node);
	else
		fprintf(out, "0x%x (not in the captured topology)", p->captured);
	fprintf(out, "%s\n    -> ", p->used ? "" : " [unused by the trace]");
	describe(out, l, p->live_node);
	fprintf(out, "\n");
	if (p->captured != p->live) {
		fprintf(out, "    differs: gpu_id 0x%x -> 0x%x (translated in every "
			"ioctl, handle and mmap offset)\n", p->captured, p->live);
		diffs++;
	}
	if (!c)
		return;
	if (c->drm_render_minor != l->drm_render_minor) {
		fprintf(out, "    differs: render node renderD%" PRIu64 " -> renderD%"
			PRIu64 " (opened in its place)\n", c->drm_render_minor,
			l->drm_render_minor);
		diffs++;
	}
	if (c->device_id != l->device_id) {
		fprintf(out, "    may diverge: device id 0x%" PRIx64 " -> 0x%" PRIx64
			" (AMDGPU_INFO results, queue and CWSR sizes)\n",
			c->device_id, l->device_id);
		diffs++;
	}
	if (c->simd_count != l->simd_count) {
		fprintf(out, "    may diverge: %" PRIu64 " -> %" PRIu64 " SIMDs "
			"(device info, CU masks)\n", c->simd_count, l->simd_count);
		diffs++;
	}
	if (c->vram_bytes != l->vram_bytes) {
		fprintf(out, "    may diverge: VRAM %.1f -> %.1f GiB (%s)\n",
			(double)c->vram_bytes / (1u << 30), (double)l->vram_bytes / (1u << 30),
			l->vram_bytes < c->vram_bytes ?
			"allocations that fit at capture may fail with ENOMEM" :
			"allocations that failed with ENOMEM may succeed; "
			"AVAILABLE_MEMORY differs");
		diffs++;
	}
	if (!diffs)
		fprintf(out, "    same GPU\n");
}

static void
report_links(FILE *out, const struct rp_model *m, const struct rp_match *mt)
{
	unsigned int i, j;

	for (i = 0; i < mt->npairs; i++) {
		for (j = 0; j < mt->npairs; j++) {
			const struct rp_gpu_pair *a = &mt->pairs[i], *b = &mt->pairs[j];
			uint32_t ct, lt;

			if (i == j || a->cap_node < 0 || b->cap_node < 0)
				continue;
			ct = link_type(&m->topo, a->cap_node, b->cap_node);
			lt = link_type(&mt->live, a->live_node, b->live_node);
			if (ct != lt)
				fprintf(out, "  may diverge: link 0x%x -> 0x%x is type %u "
					"captured, %u live (peer mappings)\n",
					a->captured, b->captured, ct, lt);
		}
	}
}

static int
add_pair(struct rp_match *mt, const struct rp_model *m, uint32_t cap,
	 uint32_t live)
{
	const struct kt_topo_node *c = kt_topo_gpu(&m->topo, cap);
	const struct kt_topo_node *l = kt_topo_gpu(&mt->live, live);
	struct rp_gpu_pair *p;

	if (!l || mt->npairs >= RP_MAX_GPUS)
		return -1;
	p = &mt->pairs[mt->npairs++];
	p->captured = cap;
	p->live = live;
	p->cap_node = node_index(&m->topo, c);
	p->live_node = node_index(&mt->live, l);
	p->used = used(m, cap);
	return 0;
}

static int
paired(const struct rp_match *mt, uint32_t cap)
{
	unsigned int i;

	for (i = 0; i < mt->npairs; i++)
		if (mt->pairs[i].captured == cap)
			return 1;
	return 0;
}

/* The captured GPUs: topology GPU nodes, then gpu_ids only the ioctls name. */
static unsigned int
captured_gpus(const struct rp_model *m, uint32_t *ids)
{
	unsigned int n = 0, i, j;

	for (i = 0; i < m->topo.nnodes && n < RP_MAX_GPUS; i++)
		if (m->topo.nodes[i].present && m->topo.nodes[i].gpu_id)
			ids[n++] = m->topo.nodes[i].gpu_id;
	for (i = 0; i < m->nused && n < RP_MAX_GPUS; i++) {
		for (j = 0; j < n; j++)
			if (ids[j] == m->used[i])
				break;
		if (j == n)
			ids[n++] = m->used[i];
	}
	return n;
}

int
kfd_replay_match(struct kfd_replay *r, const struct kfd_replay_opts *o)
{
	const struct rp_model *m = &r->model;
	struct rp_match *mt = &r->match;
	FILE *out = o->out ? o->out : stdout;
	uint32_t caps[RP_MAX_GPUS];
	unsigned int ncap, i, j, missing = 0;
	int ret;

	memset(mt, 0, sizeof(*mt));
	ret = kt_topo_read_live(o->topology_root ? o->topology_root :
				"/sys/devices/virtual/kfd/kfd/topology", &mt->live);
	if (ret < 0) {
		fprintf(out, "kfdtrace replay: cannot read the live KFD topology: %s\n",
			strerror(-ret));
		return ret;
	}
	mt->have_live = 1;
	live_abi(mt);
	ncap = captured_gpus(m, caps);

	for (i = 0; i < o->ngpu_map; i++) {
		const struct kfd_replay_gpu_pair *g = &o->gpu_map[i];

		if (paired(mt, g->captured)) {
			fprintf(out, "kfdtrace replay: --gpu-map names captured GPU "
				"0x%x twice\n", g->captured);
			return -EINVAL;
		}
		if (!kt_topo_gpu(&m->topo, g->captured) && !used(m, g->captured)) {
			fprintf(out, "kfdtrace replay: --gpu-map: the trace has no GPU "
				"0x%x\n", g->captured);
			return -EINVAL;
		}
		if (live_taken(mt, g->live) || add_pair(mt, m, g->captured,
							 g->live) < 0) {
			fprintf(out, "kfdtrace replay: --gpu-map: no live GPU 0x%x "
				"(or it is mapped twice)\n", g->live);
			return -EINVAL;
		}
	}
	for (i = 0; i < ncap; i++) {
		const struct kt_topo_node *c = kt_topo_gpu(&m->topo, caps[i]);
		int best = -1, best_score = -1;

		if (paired(mt, caps[i]))
			continue;
		for (j = 0; j < mt->live.nnodes; j++) {
			const struct kt_topo_node *l = &mt->live.nodes[j];
			int s;

			if (!l->present || !l->gpu_id || live_taken(mt, l->gpu_id))
				continue;
			/* Without captured properties only the id can match. */
			s = c ? score(c, l) : (l->gpu_id == caps[i] ? 1 : -1);
			if (s > best_score) {
				best_score = s;
				best = (int)j;
			}
		}
		if (best >= 0)
			add_pair(mt, m, caps[i], mt->live.nodes[best].gpu_id);
	}

	mt->identity = 1;
	for (i = 0; i < mt->npairs; i++)
		if (mt->pairs[i].captured != mt->pairs[i].live)
			mt->identity = 0;
	for (j = 0; j < mt->live.nnodes; j++) {
		const struct kt_topo_node *l = &mt->live.nodes[j];

		if (l->present && l->gpu_id && !live_taken(mt, l->gpu_id) &&
		    mt->nextra < RP_MAX_GPUS)
			mt->extra[mt->nextra++] = l->gpu_id;
	}

	fprintf(out, "compatibility:\n");
	if (!m->have_topo)
		fprintf(out, "  the trace has no topology record: GPUs are matched "
			"by gpu_id only\n");
	for (i = 0; i < mt->npairs; i++)
		report_pair(out, m, mt, &mt->pairs[i]);
	for (i = 0; i < ncap; i++) {
		const struct kt_topo_node *c = kt_topo_gpu(&m->topo, caps[i]);

		if (paired(mt, caps[i]))
			continue;
		fprintf(out, "  GPU ");
		if (c)
			describe(out, c, node_index(&m->topo, c));
		else
			fprintf(out, "0x%x", caps[i]);
		if (used(m, caps[i])) {
			fprintf(out, "\n    -> no live GPU of the same kind: its ioctls "
				"cannot be reproduced\n");
			missing++;
		} else {
			fprintf(out, " [unused by the trace]\n    -> no match (not "
				"needed)\n");
		}
	}
	for (i = 0; i < mt->nextra; i++)
		fprintf(out, "  live GPU 0x%x is not in the capture: process-wide "
			"lists (GET_PROCESS_APERTURES) show it too; compared "
			"without it\n", mt->extra[i]);
	report_links(out, m, mt);
	if (m->abi_major && mt->live_abi_major &&
	    (m->abi_minor != mt->live_abi_minor))
		fprintf(out, "  may diverge: KFD ABI 1.%u captured, 1.%u live "
			"(GET_VERSION, and ioctls or fields one of them lacks)\n",
			m->abi_minor, mt->live_abi_minor);
	else if (m->abi_major && mt->live_abi_major)
		fprintf(out, "  KFD ABI 1.%u on both\n", m->abi_minor);
	if (!rp_trace_whole(m)) {
		fprintf(out, "  the trace ");
		rp_print_lack(out, m);
		fprintf(out, ": only the records it holds are replayed, and "
			"the result is no verdict\n");
	}
	r->matched = 1;
	if (missing && !o->force) {
		fprintf(out, "kfdtrace replay: %u captured GPU%s ha%s no sensible "
			"live match; pick one with --gpu-map CAPTURED=LIVE or "
			"replay anyway with --force\n", missing,
			missing == 1 ? "" : "s", missing == 1 ? "s" : "ve");
		return -ENODEV;
	}
	return 0;
}

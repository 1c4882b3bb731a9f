/* SPDX-License-Identifier: MIT */
/*
 * The topology snapshot and its API.
 *
 * A context reads the whole topology at open and keeps a snapshot until
 * close; the library's own users (queues, memory) read that one. The API
 * follows the KFD's snapshot protocol: hsaKmtAcquireSystemProperties()
 * reads sysfs again, retrying while the kernel's generation counter
 * moves, and the node queries answer INVALID_NODE_UNIT until a snapshot
 * has been acquired (and after hsaKmtReleaseSystemProperties()).
 *
 * Nodes the process may not use (their gpu_id is unreadable, or their
 * render node cannot be opened: ENOENT/EPERM, as under a device cgroup)
 * are left out and the rest renumbered densely; links to them vanish.
 *
 * hsaKmtGetNodeProperties() and hsaKmtGetNodeMemoryProperties() add the
 * address space's apertures to a node's banks, so they are memory/'s
 * (mem_banks.c), reading the snapshot through kmt_topo_api_node().
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "topology/topo.h"

/* The kernel bumps the generation once per GPU hot-plug: a few retries do. */
#define KMT_TOPO_RETRIES	16

/* Per-context holder: the snapshot and the lock readers take. */
struct kmt_topo_state {
	pthread_rwlock_t lock;
	struct kmt_topology *snap;
};

static void
sys_prop(void *arg, const char *name, unsigned long long v)
{
	HsaSystemProperties *sys = arg;

	if (!strcmp(name, "platform_oem"))
		sys->PlatformOem = (uint32_t)v;
	else if (!strcmp(name, "platform_id"))
		sys->PlatformId = (uint32_t)v;
	else if (!strcmp(name, "platform_rev"))
		sys->PlatformRev = (uint32_t)v;
}

void
kmt_topo_free(struct kmt_topology *t)
{
	uint32_t i;

	if (!t)
		return;
	for (i = 0; i < t->n_nodes; i++) {
		free(t->nodes[i].banks);
		free(t->nodes[i].caches);
		free(t->nodes[i].links);
	}
	free(t->nodes);
	free(t);
}

static void
find_render_minor(void *arg, const char *name, unsigned long long v)
{
	if (!strcmp(name, "drm_render_minor"))
		*(uint32_t *)arg = (uint32_t)v;
}

/*
 * May we use sysfs node @id? CPU nodes always; a GPU node if its gpu_id
 * is readable and its render node opens.
 */
static HSAKMT_STATUS
node_usable(const char *root, uint32_t id, bool probe_render, bool *usable)
{
	char path[512];
	uint32_t gpu_id, minor = 0;
	HSAKMT_STATUS st;
	int fd;

	*usable = false;
	snprintf(path, sizeof(path), "%s/nodes/%u/gpu_id", root, id);
	st = kmt_sysfs_read_u32(path, &gpu_id);
	if (st == HSAKMT_STATUS_NOT_SUPPORTED)
		return HSAKMT_STATUS_SUCCESS;
	if (st != HSAKMT_STATUS_SUCCESS)
		return st;
	if (!gpu_id) {
		*usable = true;
		return HSAKMT_STATUS_SUCCESS;
	}
	snprintf(path, sizeof(path), "%s/nodes/%u/properties", root, id);
	st = kmt_sysfs_read_props(path, find_render_minor, &minor);
	if (st != HSAKMT_STATUS_SUCCESS)
		return st;
	if (!minor) {
		kmt_err("GPU node %u has no render node\n", id);
		return HSAKMT_STATUS_ERROR;
	}
	if (!probe_render) {
		*usable = true;
		return HSAKMT_STATUS_SUCCESS;
	}
	snprintf(path, sizeof(path), "/dev/dri/renderD%u", minor);
	fd = open(path, O_RDWR | O_CLOEXEC);
	if (fd >= 0) {
		close(fd);
		*usable = true;
		return HSAKMT_STATUS_SUCCESS;
	}
	if (errno == ENOENT || errno == EPERM)
		return HSAKMT_STATUS_SUCCESS;
	kmt_err("cannot open %s: %s\n", path, strerror(errno));
	return HSAKMT_STATUS_ERROR;
}

/* io_links then p2p_links of one node; targets renumbered, hidden ones dropped. */
static HSAKMT_STATUS
read_links(const char *root, struct kmt_topology *t, struct kmt_topo_node *n, uint32_t user_id,
	   const int32_t *sys_to_user, uint32_t n_sysfs)
{
	uint32_t pass, k;

	n->links_cap = t->n_nodes > 1 ? t->n_nodes - 1 : 0;
	n->links = calloc(n->links_cap ? n->links_cap : 1, sizeof(*n->links));
	if (!n->links)
		return HSAKMT_STATUS_NO_MEMORY;
	n->props.NumIOLinks = 0;
	for (pass = 0; pass < 2; pass++) {
		uint32_t count = pass ? n->n_p2p_links : n->n_io_links;

		for (k = 0; k < count && n->props.NumIOLinks < n->links_cap; k++) {
			HsaIoLinkProperties l;
			HSAKMT_STATUS st = kmt_topo_read_link(root, n->sysfs_id, k, pass, &l);

			if (st == HSAKMT_STATUS_NOT_SUPPORTED)
				continue;
			if (st != HSAKMT_STATUS_SUCCESS)
				return st;
			if (l.NodeFrom != n->sysfs_id) {
				kmt_err("node %u link %u starts at node %u\n", n->sysfs_id, k,
					l.NodeFrom);
				return HSAKMT_STATUS_ERROR;
			}
			if (l.NodeTo >= n_sysfs || sys_to_user[l.NodeTo] < 0)
				continue;	/* to a node we may not use */
			l.NodeFrom = user_id;
			l.NodeTo = (uint32_t)sys_to_user[l.NodeTo];
			n->links[n->props.NumIOLinks++] = l;
		}
	}
	return HSAKMT_STATUS_SUCCESS;
}

static HSAKMT_STATUS
read_node(const char *root, const char *sys_root, const struct kmt_cpuinfo *cpu,
	  struct kmt_topology *t, uint32_t user_id, uint32_t sysfs_id, const int32_t *sys_to_user,
	  uint32_t n_sysfs, bool need_caches)
{
	struct kmt_topo_node *n = &t->nodes[user_id];
	HSAKMT_STATUS st;
	uint32_t k;

	st = kmt_topo_read_node(root, sysfs_id, n);
	if (st != HSAKMT_STATUS_SUCCESS)
		return st;
	if (n->gpu_id || n->props.NumFComputeCores || n->props.DeviceId) {
		st = kmt_topo_set_gfx(n);
		if (st != HSAKMT_STATUS_SUCCESS)
			return st;
		if (!n->props.NumCPUCores && (n->gfx_target_version || n->props.EngineId.ui32.Major))
			kmt_topo_marketing_name((uint32_t)n->props.DrmRenderMinor,
						n->props.MarketingName);
	}
	if (n->props.NumCPUCores)
		kmt_topo_cpu_name(n, cpu);

	if (n->props.NumMemoryBanks) {
		n->banks = calloc(n->props.NumMemoryBanks, sizeof(*n->banks));
		if (!n->banks)
			return HSAKMT_STATUS_NO_MEMORY;
		for (k = 0; k < n->props.NumMemoryBanks; k++) {
			st = kmt_topo_read_bank(root, sysfs_id, k, &n->banks[k]);
			if (st != HSAKMT_STATUS_SUCCESS)
				return st;
		}
	}
	if (n->props.NumCaches) {
		n->caches = calloc(n->props.NumCaches, sizeof(*n->caches));
		if (!n->caches)
			return HSAKMT_STATUS_NO_MEMORY;
		for (k = 0; k < n->props.NumCaches; k++) {
			st = kmt_topo_read_cache(root, sysfs_id, k, &n->caches[k]);
			if (st != HSAKMT_STATUS_SUCCESS)
				return st;
		}
	} else if (!n->gpu_id) {
		/* The user node number is the NUMA node, as AMD's library assumes. */
		st = kmt_topo_cpu_caches(sys_root, user_id, cpu, n);
		if (st != HSAKMT_STATUS_SUCCESS)
			return st;
		/*
		 * A CPU node without any cache makes ROCr assert ("CPU cache
		 * info missing"); like AMD's library, refuse the snapshot so
		 * the runtime reports no agents instead of aborting.
		 */
		if (!n->props.NumCaches && need_caches) {
			kmt_err("no cache information for CPU node %u\n", user_id);
			return HSAKMT_STATUS_ERROR;
		}
	}
	return read_links(root, t, n, user_id, sys_to_user, n_sysfs);
}

/* One attempt at a whole snapshot. */
static HSAKMT_STATUS
build_once(const char *root, const char *sys_root, const struct kmt_cpuinfo *cpu,
	   bool probe_render, bool need_caches, struct kmt_topology **out)
{
	char path[512];
	struct kmt_topology *t;
	int32_t *sys_to_user = NULL;
	bool any_p2p = false;
	HSAKMT_STATUS st;
	uint32_t i;
	int n_sysfs;

	t = calloc(1, sizeof(*t));
	if (!t)
		return HSAKMT_STATUS_NO_MEMORY;
	snprintf(path, sizeof(path), "%s/system_properties", root);
	st = kmt_sysfs_read_props(path, sys_prop, &t->sys);
	if (st != HSAKMT_STATUS_SUCCESS)
		goto fail;

	snprintf(path, sizeof(path), "%s/nodes", root);
	n_sysfs = kmt_sysfs_count_entries(path, "");
	if (n_sysfs < 0 || n_sysfs > 4096) {
		kmt_err("cannot list %s\n", path);
		st = HSAKMT_STATUS_ERROR;
		goto fail;
	}
	t->n_sysfs = (uint32_t)n_sysfs;
	sys_to_user = malloc((n_sysfs ? n_sysfs : 1) * sizeof(*sys_to_user));
	t->nodes = calloc(n_sysfs ? n_sysfs : 1, sizeof(*t->nodes));
	if (!sys_to_user || !t->nodes) {
		st = HSAKMT_STATUS_NO_MEMORY;
		goto fail;
	}
	/* Node directories are named 0..N-1 by the kernel. */
	for (i = 0; i < (uint32_t)n_sysfs; i++) {
		bool usable;

		st = node_usable(root, i, probe_render, &usable);
		if (st != HSAKMT_STATUS_SUCCESS)
			goto fail;
		sys_to_user[i] = usable ? (int32_t)t->n_nodes++ : -1;
	}
	t->sys.NumNodes = t->n_nodes;
	for (i = 0; i < (uint32_t)n_sysfs; i++) {
		if (sys_to_user[i] < 0)
			continue;
		st = read_node(root, sys_root, cpu, t, (uint32_t)sys_to_user[i], i, sys_to_user,
			       (uint32_t)n_sysfs, need_caches);
		if (st != HSAKMT_STATUS_SUCCESS)
			goto fail;
		any_p2p |= t->nodes[sys_to_user[i]].has_p2p_key;
	}
	if (!any_p2p)
		kmt_topo_add_indirect_links(t);
	free(sys_to_user);
	*out = t;
	return HSAKMT_STATUS_SUCCESS;

fail:
	free(sys_to_user);
	kmt_topo_free(t);
	return st;
}

HSAKMT_STATUS
kmt_topo_build(const char *root, const char *cpuinfo_path, const char *sys_root,
	       bool probe_render, bool need_caches, struct kmt_topology **out)
{
	struct kmt_cpuinfo cpu;
	HSAKMT_STATUS st = HSAKMT_STATUS_ERROR;
	char path[512];
	int tries;

	*out = NULL;
	kmt_cpuinfo_read(cpuinfo_path, &cpu);
	snprintf(path, sizeof(path), "%s/generation_id", root);
	for (tries = 0; tries < KMT_TOPO_RETRIES; tries++) {
		uint32_t gen_start, gen_end;
		struct kmt_topology *t;

		st = kmt_sysfs_read_u32(path, &gen_start);
		if (st != HSAKMT_STATUS_SUCCESS) {
			kmt_err("cannot read %s\n", path);
			st = HSAKMT_STATUS_ERROR;
			break;
		}
		st = build_once(root, sys_root, &cpu, probe_render, need_caches, &t);
		if (st != HSAKMT_STATUS_SUCCESS)
			break;
		if (kmt_sysfs_read_u32(path, &gen_end) != HSAKMT_STATUS_SUCCESS) {
			kmt_topo_free(t);
			st = HSAKMT_STATUS_ERROR;
			break;
		}
		if (gen_start == gen_end) {
			t->generation = gen_end;
			*out = t;
			break;
		}
		/* The topology changed under us: read it again. */
		kmt_topo_free(t);
		st = HSAKMT_STATUS_ERROR;
	}
	kmt_cpuinfo_free(&cpu);
	return st;
}

/* ---- per-context state ---- */

/*
 * @api: a snapshot for the API, which must describe every CPU node's
 * caches; the one taken at open only needs the nodes.
 */
static HSAKMT_STATUS
topo_read(bool api, struct kmt_topology **out)
{
	return kmt_topo_build(KMT_TOPO_ROOT, "/proc/cpuinfo", "/sys/devices/system", true, api,
			      out);
}

static bool
topo_has_dgpu(const struct kmt_topology *t)
{
	uint32_t i;

	for (i = 0; i < t->n_nodes; i++)
		if (!t->nodes[i].props.NumCPUCores && t->nodes[i].props.NumFComputeCores)
			return true;
	return false;
}

HSAKMT_STATUS
kmt_topo_open(HsaKFDContext *ctx)
{
	struct kmt_topo_state *s = calloc(1, sizeof(*s));
	HSAKMT_STATUS st;

	if (!s)
		return HSAKMT_STATUS_NO_MEMORY;
	st = topo_read(false, &s->snap);
	if (st != HSAKMT_STATUS_SUCCESS) {
		free(s);
		return st;
	}
	pthread_rwlock_init(&s->lock, NULL);
	ctx->topo = (struct kmt_topology *)s;
	ctx->is_dgpu = topo_has_dgpu(s->snap);
	ctx->topo_acquired = false;
	return HSAKMT_STATUS_SUCCESS;
}

static struct kmt_topo_state *
topo_state(HsaKFDContext *ctx)
{
	return (struct kmt_topo_state *)ctx->topo;
}

void
kmt_topo_close(HsaKFDContext *ctx)
{
	struct kmt_topo_state *s = topo_state(ctx);

	if (!s)
		return;
	kmt_topo_free(s->snap);
	pthread_rwlock_destroy(&s->lock);
	free(s);
	ctx->topo = NULL;
	ctx->topo_acquired = false;
}

uint32_t
kmt_topo_num_nodes(HsaKFDContext *ctx)
{
	struct kmt_topo_state *s = topo_state(ctx);
	uint32_t n;

	if (!s)
		return 0;
	pthread_rwlock_rdlock(&s->lock);
	n = s->snap->n_nodes;
	pthread_rwlock_unlock(&s->lock);
	return n;
}

uint32_t
kmt_topo_sysfs_nodes(HsaKFDContext *ctx)
{
	struct kmt_topo_state *s = topo_state(ctx);
	uint32_t n;

	if (!s)
		return 0;
	pthread_rwlock_rdlock(&s->lock);
	n = s->snap->n_sysfs;
	pthread_rwlock_unlock(&s->lock);
	return n;
}

HSAKMT_STATUS
kmt_topo_node_info(HsaKFDContext *ctx, uint32_t node, struct kmt_node_info *out)
{
	struct kmt_topo_state *s = topo_state(ctx);
	const struct kmt_topo_node *n;
	uint32_t k;

	if (!s)
		return HSAKMT_STATUS_INVALID_NODE_UNIT;
	pthread_rwlock_rdlock(&s->lock);
	if (node >= s->snap->n_nodes) {
		pthread_rwlock_unlock(&s->lock);
		return HSAKMT_STATUS_INVALID_NODE_UNIT;
	}
	n = &s->snap->nodes[node];
	memset(out, 0, sizeof(*out));
	out->node_id = node;
	out->sysfs_id = n->sysfs_id;
	out->gpu_id = n->gpu_id;
	out->is_gpu = n->props.NumFComputeCores > 0;
	out->is_dgpu = out->is_gpu && !n->props.NumCPUCores;
	out->gfx = kmt_topo_gfx_of(&n->props);
	out->drm_render_minor = (uint32_t)n->props.DrmRenderMinor;
	out->num_xcc = n->num_xcc;
	out->cwsr_size = n->cwsr_size;
	out->ctl_stack_size = n->ctl_stack_size;
	out->eop_buffer_size = n->eop_buffer_size;
	out->doorbell_size = out->gfx.major >= 9 ? 8 : 4;
	out->doorbell_slice_size = (uint32_t)((1024 * out->doorbell_size + kmt_page_size() - 1) &
					      ~(kmt_page_size() - 1));
	out->capability2 = n->capability2;
	for (k = 0; k < n->props.NumMemoryBanks; k++) {
		if (n->banks[k].HeapType == HSA_HEAPTYPE_FRAME_BUFFER_PUBLIC)
			out->large_bar = true;
		if (n->banks[k].HeapType == HSA_HEAPTYPE_FRAME_BUFFER_PUBLIC ||
		    n->banks[k].HeapType == HSA_HEAPTYPE_FRAME_BUFFER_PRIVATE)
			out->vram_size += n->banks[k].SizeInBytes;
	}
	out->props = n->props;
	pthread_rwlock_unlock(&s->lock);
	return HSAKMT_STATUS_SUCCESS;
}

HSAKMT_STATUS
kmt_topo_gpu_id(HsaKFDContext *ctx, uint32_t node, uint32_t *gpu_id)
{
	struct kmt_topo_state *s = topo_state(ctx);
	HSAKMT_STATUS st = HSAKMT_STATUS_INVALID_NODE_UNIT;

	if (!s)
		return st;
	pthread_rwlock_rdlock(&s->lock);
	if (node < s->snap->n_nodes && s->snap->nodes[node].gpu_id) {
		*gpu_id = s->snap->nodes[node].gpu_id;
		st = HSAKMT_STATUS_SUCCESS;
	}
	pthread_rwlock_unlock(&s->lock);
	return st;
}

HSAKMT_STATUS
kmt_topo_node_of_gpu(HsaKFDContext *ctx, uint32_t gpu_id, uint32_t *node)
{
	struct kmt_topo_state *s = topo_state(ctx);
	HSAKMT_STATUS st = HSAKMT_STATUS_INVALID_NODE_UNIT;
	uint32_t i;

	if (!s || !gpu_id)
		return st;
	pthread_rwlock_rdlock(&s->lock);
	for (i = 0; i < s->snap->n_nodes; i++) {
		if (s->snap->nodes[i].gpu_id == gpu_id) {
			*node = i;
			st = HSAKMT_STATUS_SUCCESS;
			break;
		}
	}
	pthread_rwlock_unlock(&s->lock);
	return st;
}

uint32_t
kmt_topo_gpu_ids(HsaKFDContext *ctx, uint32_t *ids, uint32_t max)
{
	struct kmt_topo_state *s = topo_state(ctx);
	uint32_t i, n = 0;

	if (!s)
		return 0;
	pthread_rwlock_rdlock(&s->lock);
	for (i = 0; i < s->snap->n_nodes; i++) {
		if (!s->snap->nodes[i].gpu_id)
			continue;
		if (n < max)
			ids[n] = s->snap->nodes[i].gpu_id;
		n++;
	}
	pthread_rwlock_unlock(&s->lock);
	return n;
}

/* ---- API ---- */

KMT_API HSAKMT_STATUS
hsaKmtAcquireSystemPropertiesCtx(HsaKFDContext *ctx, HsaSystemProperties *SystemProperties)
{
	HSAKMT_STATUS st = kmt_ctx_check(ctx);
	struct kmt_topology *fresh, *old;
	struct kmt_topo_state *s;

	if (st != HSAKMT_STATUS_SUCCESS)
		return st;
	if (!SystemProperties)
		return HSAKMT_STATUS_INVALID_PARAMETER;
	st = topo_read(true, &fresh);
	if (st != HSAKMT_STATUS_SUCCESS)
		return st;
	s = topo_state(ctx);
	pthread_rwlock_wrlock(&s->lock);
	old = s->snap;
	s->snap = fresh;
	ctx->topo_acquired = true;
	*SystemProperties = fresh->sys;
	pthread_rwlock_unlock(&s->lock);
	kmt_topo_free(old);
	return HSAKMT_STATUS_SUCCESS;
}

KMT_API HSAKMT_STATUS
hsaKmtAcquireSystemProperties(HsaSystemProperties *SystemProperties)
{
	return hsaKmtAcquireSystemPropertiesCtx(kmt_primary_ctx(), SystemProperties);
}

KMT_API HSAKMT_STATUS
hsaKmtReleaseSystemPropertiesCtx(HsaKFDContext *ctx)
{
	/* Like AMD's library, releasing needs no open device. */
	if (!ctx)
		return HSAKMT_STATUS_INVALID_PARAMETER;
	ctx->topo_acquired = false;
	return HSAKMT_STATUS_SUCCESS;
}

KMT_API HSAKMT_STATUS
hsaKmtReleaseSystemProperties(void)
{
	return hsaKmtReleaseSystemPropertiesCtx(kmt_primary_ctx());
}

/*
 * The acquired node @node, read-locked, or NULL (INVALID_NODE_UNIT).
 * The caller unlocks with pthread_rwlock_unlock(&topo_state(ctx)->lock).
 */
static const struct kmt_topo_node *
api_node(HsaKFDContext *ctx, uint32_t node)
{
	struct kmt_topo_state *s = topo_state(ctx);

	if (!s || !ctx->topo_acquired)
		return NULL;
	pthread_rwlock_rdlock(&s->lock);
	if (node >= s->snap->n_nodes) {
		pthread_rwlock_unlock(&s->lock);
		return NULL;
	}
	return &s->snap->nodes[node];
}

HSAKMT_STATUS
kmt_topo_api_node(HsaKFDContext *ctx, uint32_t node, HsaNodeProperties *props,
		  uint32_t *gpu_id, HsaMemoryProperties *banks, uint32_t max_banks)
{
	const struct kmt_topo_node *n = api_node(ctx, node);
	uint32_t i;

	if (!n)
		return HSAKMT_STATUS_INVALID_NODE_UNIT;
	*props = n->props;
	*gpu_id = n->gpu_id;
	if (banks) {
		memset(banks, 0, (size_t)max_banks * sizeof(*banks));
		for (i = 0; i < n->props.NumMemoryBanks && i < max_banks; i++)
			banks[i] = n->banks[i];
	}
	pthread_rwlock_unlock(&topo_state(ctx)->lock);
	return HSAKMT_STATUS_SUCCESS;
}

KMT_API HSAKMT_STATUS
hsaKmtGetNodeCachePropertiesCtx(HsaKFDContext *ctx, HSAuint32 NodeId, HSAuint32 ProcessorId,
				HSAuint32 NumCaches, HsaCacheProperties *CacheProperties)
{
	const struct kmt_topo_node *n;
	HSAKMT_STATUS st;

	(void)ProcessorId;
	if (!CacheProperties)
		return HSAKMT_STATUS_INVALID_PARAMETER;
	st = kmt_ctx_check(ctx);
	if (st != HSAKMT_STATUS_SUCCESS)
		return st;
	n = api_node(ctx, NodeId);
	if (!n)
		return HSAKMT_STATUS_INVALID_NODE_UNIT;
	if (NumCaches > n->props.NumCaches) {
		st = HSAKMT_STATUS_INVALID_PARAMETER;
	} else if (NumCaches) {
		memcpy(CacheProperties, n->caches, (size_t)NumCaches * sizeof(*CacheProperties));
	}
	pthread_rwlock_unlock(&topo_state(ctx)->lock);
	return st;
}

KMT_API HSAKMT_STATUS
hsaKmtGetNodeCacheProperties(HSAuint32 NodeId, HSAuint32 ProcessorId, HSAuint32 NumCaches,
			     HsaCacheProperties *CacheProperties)
{
	return hsaKmtGetNodeCachePropertiesCtx(kmt_primary_ctx(), NodeId, ProcessorId, NumCaches,
					       CacheProperties);
}

KMT_API HSAKMT_STATUS
hsaKmtGetNodeIoLinkPropertiesCtx(HsaKFDContext *ctx, HSAuint32 NodeId, HSAuint32 NumIoLinks,
				 HsaIoLinkProperties *IoLinkProperties)
{
	const struct kmt_topo_node *n;
	HSAKMT_STATUS st;

	if (!IoLinkProperties)
		return HSAKMT_STATUS_INVALID_PARAMETER;
	st = kmt_ctx_check(ctx);
	if (st != HSAKMT_STATUS_SUCCESS)
		return st;
	n = api_node(ctx, NodeId);
	if (!n)
		return HSAKMT_STATUS_INVALID_NODE_UNIT;
	if (NumIoLinks > n->props.NumIOLinks)
		st = HSAKMT_STATUS_INVALID_PARAMETER;
	else if (NumIoLinks)
		memcpy(IoLinkProperties, n->links, (size_t)NumIoLinks * sizeof(*IoLinkProperties));
	pthread_rwlock_unlock(&topo_state(ctx)->lock);
	return st;
}

KMT_API HSAKMT_STATUS
hsaKmtGetNodeIoLinkProperties(HSAuint32 NodeId, HSAuint32 NumIoLinks,
			      HsaIoLinkProperties *IoLinkProperties)
{
	return hsaKmtGetNodeIoLinkPropertiesCtx(kmt_primary_ctx(), NodeId, NumIoLinks,
						IoLinkProperties);
}

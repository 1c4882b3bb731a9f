/* SPDX-License-Identifier: MIT */
/*
 * /sys/devices/virtual/kfd/kfd/proc/<pid>/, one directory per process of
 * the machine with a KFD process, as kfd_process.c makes them
 * (kfd_create_process, kfd_procfs_add_queue):
 *   pasid				"%d\n"
 *   queues/<queue id>/{size,type,gpuid}	"%llu", "%d", "%u" (no newline)
 *   vram_<gpu_id>			"%llu\n": page-aligned KFD VRAM allocations
 *   sdma_<gpu_id>			"%llu\n": SDMA activity (0: no ring is
 *					ever processed)
 *   stats_<gpu_id>/evicted_ms		"%llu\n": time a system suspend
 *					evicted its queues there
 *   stats_<gpu_id>/cu_occupancy	"%d\n", on GPUs whose kfd2kgd has
 *					get_cu_occupancy (gfx9): 0, no wave runs
 * Both directory levels are dynamic (ksim_vdyn_ops): the data of other
 * processes comes from the machine registry (ksim_sysfs.h), so a process
 * that allocates, creates a queue or exits changes what the next lookup,
 * listing or open sees. A file of a process that has exited fails to open
 * with ENOENT.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ksim_sysfs.h"
#include "tree.h"

#define PROC_LIST_MAX	1024

static struct ksim_device *
ctx_device(const struct ksim_vnode *n)
{
	const struct ksim_tree_ctx *ctx = n->priv;

	return ctx && ctx->device ? ctx->device() : NULL;
}

/* A decimal name without sign or leading zeros; -1 otherwise. */
static long
name_number(const char *name)
{
	char *end;
	long v;

	if (name[0] < '0' || name[0] > '9' || (name[0] == '0' && name[1]))
		return -1;
	v = strtol(name, &end, 10);
	return *end || v < 0 || v > 0x7fffffff ? -1 : v;
}

/* The process behind a pid directory (or a file in it); -ENOENT once gone. */
static int
proc_get(const struct ksim_vnode *pid_dir, struct ksim_sysfs_proc *out)
{
	struct ksim_device *dev = ctx_device(pid_dir);

	return dev ? ksim_sysfs_proc(dev, (pid_t)pid_dir->arg, out) : -ENOENT;
}

static int
render_pasid(const struct ksim_vnode *n, struct ksim_buf *out)
{
	struct ksim_sysfs_proc p;
	int r = proc_get(n->parent, &p);

	if (r)
		return r;
	ksim_buf_printf(out, "%d\n", (int)p.pasid);
	return 0;
}

static int
render_vram(const struct ksim_vnode *n, struct ksim_buf *out)
{
	struct ksim_sysfs_proc p;
	unsigned int gpu = TREE_ARG_LO(n->arg);
	int r = proc_get(n->parent, &p);

	if (r)
		return r;
	ksim_buf_printf(out, "%llu\n",
			(unsigned long long)(gpu < p.n_gpus ? p.vram[gpu] : 0));
	return 0;
}

/* sdma_<id>: a counter of work that never happens. */
static int
render_zero_llu(const struct ksim_vnode *n, struct ksim_buf *out)
{
	const struct ksim_vnode *pid_dir = TREE_ARG_HI(n->arg) ? n->parent->parent : n->parent;
	struct ksim_sysfs_proc p;
	int r = proc_get(pid_dir, &p);

	if (r)
		return r;
	ksim_buf_printf(out, "%llu\n", 0ULL);
	return 0;
}

static int
render_evicted_ms(const struct ksim_vnode *n, struct ksim_buf *out)
{
	unsigned int gpu = TREE_ARG_LO(n->arg);
	struct ksim_sysfs_proc p;
	int r = proc_get(n->parent->parent, &p);

	if (r)
		return r;
	ksim_buf_printf(out, "%llu\n",
			(unsigned long long)(gpu < p.n_gpus ? p.evicted_ms[gpu] : 0));
	return 0;
}

static int
render_cu_occupancy(const struct ksim_vnode *n, struct ksim_buf *out)
{
	struct ksim_sysfs_proc p;
	int r = proc_get(n->parent->parent, &p);

	if (r)
		return r;
	ksim_buf_printf(out, "%d\n", 0);
	return 0;
}

/* ---- queues/<qid>/ ---- */

enum { Q_SIZE, Q_TYPE, Q_GPUID };

static const struct ksim_sysfs_queue *
queue_find(const struct ksim_sysfs_proc *p, uint32_t id)
{
	for (unsigned int i = 0; i < p->n_queues; i++)
		if (p->queues[i].id == id)
			return &p->queues[i];
	return NULL;
}

static int
render_queue(const struct ksim_vnode *n, struct ksim_buf *out)
{
	const struct ksim_vnode *qdir = n->parent, *pid_dir = qdir->parent->parent;
	const struct ksim_tree_ctx *ctx = n->priv;
	const struct ksim_sysfs_queue *q;
	const struct ksim_node *gn;
	struct ksim_sysfs_proc p;
	int r = proc_get(pid_dir, &p);

	if (r)
		return r;
	q = queue_find(&p, (uint32_t)qdir->arg);
	if (!q)
		return -ENOENT;
	switch (n->arg) {
	case Q_SIZE:
		ksim_buf_printf(out, "%llu", (unsigned long long)q->size);
		break;
	case Q_TYPE:
		ksim_buf_printf(out, "%d", (int)q->type);
		break;
	default:
		gn = ksim_tree_gpu_node(ctx->prof, q->gpu);
		ksim_buf_printf(out, "%u", gn ? gn->gpu_id : 0);
		break;
	}
	return 0;
}

static int
queues_list(const struct ksim_vnode *dir, ksim_vdyn_emit_fn emit, void *arg)
{
	struct ksim_sysfs_proc p;
	char name[16];
	int r;

	if (proc_get(dir->parent, &p))
		return 0;
	for (unsigned int i = 0; i < p.n_queues; i++) {
		snprintf(name, sizeof(name), "%u", p.queues[i].id);
		if ((r = emit(arg, name)) != 0)
			return r < 0 ? r : 0;
	}
	return 0;
}

static bool
queues_exists(const struct ksim_vnode *dir, const char *name)
{
	struct ksim_sysfs_proc p;
	long id = name_number(name);

	return id >= 0 && !proc_get(dir->parent, &p) && queue_find(&p, (uint32_t)id);
}

static int
queues_populate(struct ksim_vfs *vfs, struct ksim_vnode *child)
{
	static const char *const names[] = { [Q_SIZE] = "size", [Q_TYPE] = "type",
					     [Q_GPUID] = "gpuid" };

	child->arg = (uintptr_t)name_number(child->name);
	for (unsigned int i = 0; i < 3; i++)
		if (!ksim_vfs_add_file_at(vfs, child, names[i], 0444, render_queue,
					  child->priv, i))
			return -ENOMEM;
	return 0;
}

static const struct ksim_vdyn_ops queues_ops = {
	.list = queues_list,
	.exists = queues_exists,
	.populate = queues_populate,
};

/* ---- proc/<pid>/ ---- */

static int
procs_list(const struct ksim_vnode *dir, ksim_vdyn_emit_fn emit, void *arg)
{
	struct ksim_device *dev = ctx_device(dir);
	pid_t *pids;
	char name[16];
	int n, r = 0;

	if (!dev)
		return 0;
	pids = malloc(PROC_LIST_MAX * sizeof(*pids));
	if (!pids)
		return -ENOMEM;
	n = ksim_sysfs_procs(dev, pids, PROC_LIST_MAX);
	for (int i = 0; i < n && i < PROC_LIST_MAX && !r; i++) {
		snprintf(name, sizeof(name), "%d", (int)pids[i]);
		r = emit(arg, name);
	}
	free(pids);
	return r < 0 ? r : 0;
}

static bool
procs_exists(const struct ksim_vnode *dir, const char *name)
{
	struct ksim_device *dev = ctx_device(dir);
	struct ksim_sysfs_proc p;
	long pid = name_number(name);

	return pid > 0 && dev && !ksim_sysfs_proc(dev, (pid_t)pid, &p);
}

/* Only gfx9's kfd2kgd tables have get_cu_occupancy. */
static bool
has_cu_occupancy(const struct ksim_node *n)
{
	return n->props[KSIM_NP_GFX_TARGET_VERSION] / 10000 == 9;
}

static int
procs_populate(struct ksim_vfs *vfs, struct ksim_vnode *child)
{
	const struct ksim_tree_ctx *ctx = child->priv;
	const struct ksim_node *gn;
	struct ksim_vnode *stats;
	char name[32];

	child->arg = (uintptr_t)name_number(child->name);
	if (!ksim_vfs_add_file_at(vfs, child, "pasid", 0444, render_pasid, ctx, 0) ||
	    !ksim_vfs_add_dyn_at(vfs, child, "queues", &queues_ops, ctx, 0))
		return -ENOMEM;
	for (unsigned int g = 0; (gn = ksim_tree_gpu_node(ctx->prof, g)) != NULL; g++) {
		snprintf(name, sizeof(name), "stats_%u", gn->gpu_id);
		stats = ksim_vfs_mkdir_at(vfs, child, name);
		if (!stats ||
		    !ksim_vfs_add_file_at(vfs, stats, "evicted_ms", 0444, render_evicted_ms, ctx,
					  TREE_ARG(1, g)))
			return -ENOMEM;
		if (has_cu_occupancy(gn) &&
		    !ksim_vfs_add_file_at(vfs, stats, "cu_occupancy", 0444, render_cu_occupancy,
					  ctx, TREE_ARG(1, g)))
			return -ENOMEM;
	}
	for (unsigned int g = 0; (gn = ksim_tree_gpu_node(ctx->prof, g)) != NULL; g++) {
		snprintf(name, sizeof(name), "vram_%u", gn->gpu_id);
		if (!ksim_vfs_add_file_at(vfs, child, name, 0444, render_vram, ctx, TREE_ARG(0, g)))
			return -ENOMEM;
		snprintf(name, sizeof(name), "sdma_%u", gn->gpu_id);
		if (!ksim_vfs_add_file_at(vfs, child, name, 0444, render_zero_llu, ctx,
					  TREE_ARG(0, g)))
			return -ENOMEM;
	}
	return 0;
}

static const struct ksim_vdyn_ops procs_ops = {
	.list = procs_list,
	.exists = procs_exists,
	.populate = procs_populate,
};

int
ksim_tree_kfd_proc(struct ksim_vfs *vfs, struct ksim_tree_ctx *ctx)
{
	return ksim_vfs_add_dyn(vfs, "/sys/devices/virtual/kfd/kfd/proc", &procs_ops, ctx, 0)
		? 0 : -ENOMEM;
}

/* SPDX-License-Identifier: MIT */
/*
 * /sys/devices/virtual/kfd/kfd: the KFD class device and its topology,
 * rendered with the profile's formatters (exact kernel text, key order).
 * /sys/class/kfd/kfd and /sys/dev/char/<major>:0 point at it, as in sysfs.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "tree.h"

#define KFD_DEV "/sys/devices/virtual/kfd/kfd"
#define TOPO KFD_DEV "/topology"

enum topo_file {
	TOPO_SYSTEM_PROPERTIES,
	TOPO_NODE_PROPERTIES,
	TOPO_MEM_BANK,
	TOPO_CACHE,
	TOPO_IO_LINK,
	TOPO_P2P_LINK,
};

static int
topo_format(const struct ksim_vnode *n, enum topo_file which, char *buf, size_t len)
{
	const struct ksim_tree_ctx *c = n->priv;
	unsigned int node = TREE_ARG_HI(n->arg), idx = TREE_ARG_LO(n->arg);

	switch (which) {
	case TOPO_SYSTEM_PROPERTIES:
		return ksim_format_system_properties(c->prof, buf, len);
	case TOPO_NODE_PROPERTIES:
		return ksim_format_node_properties(c->prof, node, c->abi_minor, buf, len);
	case TOPO_MEM_BANK:
		return ksim_format_mem_bank(c->prof, node, idx, buf, len);
	case TOPO_CACHE:
		return ksim_format_cache(c->prof, node, idx, buf, len);
	case TOPO_IO_LINK:
		return ksim_format_io_link(c->prof, node, idx, 0, c->abi_minor, buf, len);
	case TOPO_P2P_LINK:
		return ksim_format_io_link(c->prof, node, idx, 1, c->abi_minor, buf, len);
	}
	return -EINVAL;
}

/*
 * The formatters work like snprintf: try a page (every kernel attribute
 * fits in one), then exactly the size they asked for.
 */
static int
topo_render(const struct ksim_vnode *n, enum topo_file which, struct ksim_buf *out)
{
	char page[4096], *big;
	int len = topo_format(n, which, page, sizeof(page));

	if (len < 0)
		return len;
	if ((size_t)len < sizeof(page)) {
		ksim_buf_put(out, page, (size_t)len);
		return 0;
	}
	big = malloc((size_t)len + 1);
	if (!big)
		return -ENOMEM;
	if (topo_format(n, which, big, (size_t)len + 1) == len)
		ksim_buf_put(out, big, (size_t)len);
	else
		len = -EIO;	/* the profile is immutable: cannot happen */
	free(big);
	return len < 0 ? len : 0;
}

static int
render_system_properties(const struct ksim_vnode *n, struct ksim_buf *out)
{
	return topo_render(n, TOPO_SYSTEM_PROPERTIES, out);
}

static int
render_node_properties(const struct ksim_vnode *n, struct ksim_buf *out)
{
	return topo_render(n, TOPO_NODE_PROPERTIES, out);
}

static int
render_mem_bank(const struct ksim_vnode *n, struct ksim_buf *out)
{
	return topo_render(n, TOPO_MEM_BANK, out);
}

static int
render_cache(const struct ksim_vnode *n, struct ksim_buf *out)
{
	return topo_render(n, TOPO_CACHE, out);
}

static int
render_io_link(const struct ksim_vnode *n, struct ksim_buf *out)
{
	return topo_render(n, TOPO_IO_LINK, out);
}

static int
render_p2p_link(const struct ksim_vnode *n, struct ksim_buf *out)
{
	return topo_render(n, TOPO_P2P_LINK, out);
}

static int
add_indexed(struct ksim_vfs *vfs, struct ksim_tree_ctx *ctx, const char *dir,
	    unsigned int count, unsigned int node, ksim_render_fn fn)
{
	char path[256];

	if (!ksim_vfs_mkdir(vfs, dir, true))
		return -ENOMEM;
	for (unsigned int i = 0; i < count; i++) {
		snprintf(path, sizeof(path), "%s/%u/properties", dir, i);
		if (!ksim_vfs_add_file(vfs, path, 0444, fn, ctx, TREE_ARG(node, i)))
			return -ENOMEM;
	}
	return 0;
}

static int
add_node(struct ksim_vfs *vfs, struct ksim_tree_ctx *ctx, unsigned int i)
{
	const struct ksim_node *node = &ctx->prof->nodes[i];
	char dir[128], path[192];
	int ret;

	snprintf(dir, sizeof(dir), TOPO "/nodes/%u", i);
	if (!ksim_vfs_mkdir(vfs, dir, true))
		return -ENOMEM;
	snprintf(path, sizeof(path), "%s/gpu_id", dir);
	if ((ret = ksim_tree_add_textf(vfs, path, "%u\n", node->gpu_id)) < 0)
		return ret;
	snprintf(path, sizeof(path), "%s/name", dir);
	if ((ret = ksim_tree_add_textf(vfs, path, "%s\n", node->name)) < 0)
		return ret;
	snprintf(path, sizeof(path), "%s/properties", dir);
	if (!ksim_vfs_add_file(vfs, path, 0444, render_node_properties, ctx, TREE_ARG(i, 0)))
		return -ENOMEM;

	/* The kernel creates all four link/bank directories, empty or not. */
	snprintf(path, sizeof(path), "%s/mem_banks", dir);
	if ((ret = add_indexed(vfs, ctx, path, node->n_mem_banks, i, render_mem_bank)) < 0)
		return ret;
	snprintf(path, sizeof(path), "%s/caches", dir);
	if ((ret = add_indexed(vfs, ctx, path, node->n_caches, i, render_cache)) < 0)
		return ret;
	snprintf(path, sizeof(path), "%s/io_links", dir);
	if ((ret = add_indexed(vfs, ctx, path, node->n_io_links, i, render_io_link)) < 0)
		return ret;
	snprintf(path, sizeof(path), "%s/p2p_links", dir);
	return add_indexed(vfs, ctx, path, node->n_p2p_links, i, render_p2p_link);
}

int
ksim_tree_topology(struct ksim_vfs *vfs, struct ksim_tree_ctx *ctx)
{
	char path[128];
	int ret;

	if (!ksim_vfs_mkdir(vfs, "/sys/devices/virtual/kfd", true))
		return -ENOMEM;
	if ((ret = ksim_tree_add_textf(vfs, KFD_DEV "/dev", "%u:0\n", KSIM_KFD_MAJOR)) < 0 ||
	    (ret = ksim_tree_add_textf(vfs, KFD_DEV "/uevent", "MAJOR=%u\nMINOR=0\nDEVNAME=kfd\n",
				       KSIM_KFD_MAJOR)) < 0)
		return ret;
	if (!ksim_vfs_add_link(vfs, KFD_DEV "/subsystem", "../../../../class/kfd"))
		return -ENOMEM;
	if ((ret = ksim_tree_add_textf(vfs, TOPO "/generation_id", "%u\n",
				       ctx->prof->generation_id)) < 0)
		return ret;
	if (!ksim_vfs_add_file(vfs, TOPO "/system_properties", 0444,
			       render_system_properties, ctx, 0))
		return -ENOMEM;
	if (!ksim_vfs_mkdir(vfs, TOPO "/nodes", true))
		return -ENOMEM;
	for (unsigned int i = 0; i < ctx->prof->n_nodes; i++)
		if ((ret = add_node(vfs, ctx, i)) < 0)
			return ret;

	if (!ksim_vfs_mkdir(vfs, "/sys/class/kfd", true) ||
	    !ksim_vfs_add_link(vfs, "/sys/class/kfd/kfd", "../../devices/virtual/kfd/kfd"))
		return -ENOMEM;
	snprintf(path, sizeof(path), "/sys/dev/char/%u:0", KSIM_KFD_MAJOR);
	if (!ksim_vfs_add_link(vfs, path, "../../devices/virtual/kfd/kfd"))
		return -ENOMEM;
	return 0;
}

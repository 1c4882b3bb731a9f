/* SPDX-License-Identifier: MIT */
/*
 * amdgpu's own attributes of a GPU's PCI function, what monitoring tools
 * (rocm-smi, through rocm_smi_lib's Device::readDevInfo) read from
 * /sys/class/drm/card<n>/device/:
 *   - mem_info_{vram,vis_vram,gtt}_{total,used}: bytes, "%llu\n"
 *     (amdgpu_vram_mgr.c, amdgpu_gtt_mgr.c); the used ones count every
 *     process of the machine, rendered from the registry at open;
 *   - mem_info_vram_vendor, gpu_busy_percent, mem_busy_percent,
 *     power_dpm_force_performance_level (amdgpu_pm.c, amdgpu_device.c);
 *   - unique_id "%016llx\n", product_name, product_number, serial_number
 *     (the board's FRU EEPROM: absent when the profile leaves them empty),
 *     vbios_version (rocm_smi_lib takes a card for AMD's only if it has
 *     this file);
 *   - the PCI core's {current,max}_link_{speed,width} (pci-sysfs.c).
 * No shader ever runs, so the busy percentages are 0.
 */
#include <errno.h>
#include <stdio.h>

#include "ksim_sysfs.h"
#include "tree.h"

/* pci_speed_string(): the link speed of PCIe generation 1..6. */
static const char *
link_speed(uint32_t gen)
{
	static const char *const speeds[] = {
		"2.5 GT/s PCIe", "5.0 GT/s PCIe", "8.0 GT/s PCIe",
		"16.0 GT/s PCIe", "32.0 GT/s PCIe", "64.0 GT/s PCIe",
	};

	return gen >= 1 && gen <= 6 ? speeds[gen - 1] : "Unknown";
}

/* Machine-wide use of GPU TREE_ARG_LO(arg); zeros without a device. */
static struct ksim_sysfs_mem
mem_usage(const struct ksim_vnode *n)
{
	const struct ksim_tree_ctx *ctx = n->priv;
	struct ksim_device *dev = ctx->device ? ctx->device() : NULL;
	struct ksim_sysfs_mem m = { 0 };

	if (dev)
		ksim_sysfs_mem_usage(dev, TREE_ARG_LO(n->arg), &m);
	return m;
}

static const struct ksim_drm *
node_drm(const struct ksim_vnode *n)
{
	const struct ksim_tree_ctx *ctx = n->priv;

	return ksim_tree_gpu_node(ctx->prof, TREE_ARG_LO(n->arg))->drm;
}

static int
render_vram_used(const struct ksim_vnode *n, struct ksim_buf *out)
{
	ksim_buf_printf(out, "%llu\n", (unsigned long long)mem_usage(n).vram_used);
	return 0;
}

/*
 * amdgpu_vram_mgr_vis_usage() counts the blocks of placed BOs inside the
 * CPU-visible window. Placement is not modelled: the model's
 * AMDGPU_INFO_VIS_VRAM_USAGE and this file both say "all of it, up to the
 * window", which is exact on large-BAR boards.
 */
static int
render_vis_vram_used(const struct ksim_vnode *n, struct ksim_buf *out)
{
	uint64_t used = mem_usage(n).vram_used, vis = node_drm(n)->visible_vram_size;

	ksim_buf_printf(out, "%llu\n", (unsigned long long)(used < vis ? used : vis));
	return 0;
}

static int
render_gtt_used(const struct ksim_vnode *n, struct ksim_buf *out)
{
	ksim_buf_printf(out, "%llu\n", (unsigned long long)mem_usage(n).gtt_used);
	return 0;
}

int
ksim_tree_amdgpu(struct ksim_vfs *vfs, struct ksim_tree_ctx *ctx,
		 const struct ksim_node *node, unsigned int gpu, const char *pci)
{
	const struct ksim_drm *drm = node->drm;
	uint64_t uid = node->props[KSIM_NP_UNIQUE_ID];
	char path[256];
	int ret;

#define ATTR(name, ...) \
	(snprintf(path, sizeof(path), "%s/" name, pci), ksim_tree_add_textf(vfs, path, __VA_ARGS__))
#define LIVE(name, fn) \
	(snprintf(path, sizeof(path), "%s/" name, pci), \
	 ksim_vfs_add_file(vfs, path, 0444, fn, ctx, TREE_ARG(0, gpu)) ? 0 : -ENOMEM)
	if ((ret = ATTR("mem_info_vram_total", "%llu\n", (unsigned long long)drm->vram_size)) < 0 ||
	    (ret = LIVE("mem_info_vram_used", render_vram_used)) < 0 ||
	    (ret = ATTR("mem_info_vis_vram_total", "%llu\n",
			(unsigned long long)drm->visible_vram_size)) < 0 ||
	    (ret = LIVE("mem_info_vis_vram_used", render_vis_vram_used)) < 0 ||
	    (ret = ATTR("mem_info_gtt_total", "%llu\n", (unsigned long long)drm->gtt_size)) < 0 ||
	    (ret = LIVE("mem_info_gtt_used", render_gtt_used)) < 0 ||
	    (ret = ATTR("gpu_busy_percent", "%d\n", 0)) < 0 ||
	    (ret = ATTR("mem_busy_percent", "%d\n", 0)) < 0 ||
	    (ret = ATTR("power_dpm_force_performance_level", "%s\n", "auto")) < 0)
		return ret;
	if (drm->vram_vendor[0] &&
	    (ret = ATTR("mem_info_vram_vendor", "%.*s\n", (int)sizeof(drm->vram_vendor),
			drm->vram_vendor)) < 0)
		return ret;
	if (uid && (ret = ATTR("unique_id", "%016llx\n", (unsigned long long)uid)) < 0)
		return ret;
	if (drm->product_name[0] &&
	    (ret = ATTR("product_name", "%.*s\n", (int)sizeof(drm->product_name),
			drm->product_name)) < 0)
		return ret;
	if (drm->product_number[0] &&
	    (ret = ATTR("product_number", "%.*s\n", (int)sizeof(drm->product_number),
			drm->product_number)) < 0)
		return ret;
	if (drm->serial_number[0] &&
	    (ret = ATTR("serial_number", "%.*s\n", (int)sizeof(drm->serial_number),
			drm->serial_number)) < 0)
		return ret;
	if (drm->vbios_version[0] &&
	    (ret = ATTR("vbios_version", "%.*s\n", (int)sizeof(drm->vbios_version),
			drm->vbios_version)) < 0)
		return ret;
	if (drm->pcie_gen &&
	    ((ret = ATTR("current_link_speed", "%s\n", link_speed(drm->pcie_gen))) < 0 ||
	     (ret = ATTR("max_link_speed", "%s\n", link_speed(drm->pcie_gen))) < 0))
		return ret;
	if (drm->pcie_width &&
	    ((ret = ATTR("current_link_width", "%u\n", drm->pcie_width)) < 0 ||
	     (ret = ATTR("max_link_width", "%u\n", drm->pcie_width)) < 0))
		return ret;
#undef LIVE
#undef ATTR
	return ksim_tree_ras(vfs, drm, pci);
}

/* SPDX-License-Identifier: MIT */
/*
 * Render nodes and what libdrm reads about them (xf86drm.c, 2.4.114):
 *   - /dev/dri/renderD<m>, a character device 226:<m>;
 *   - /sys/dev/char/226:<m>/device/drm must exist (drmNodeIsDRM);
 *   - /sys/dev/char/226:<m>/device/subsystem is a link ending in "/pci"
 *     (drmParseSubsystemType), and realpath() of .../device is the PCI
 *     function's directory (get_pci_path);
 *   - that directory's uevent (PCI_SLOT_NAME), vendor, device,
 *     subsystem_vendor, subsystem_device, revision and config (the first
 *     64 bytes of configuration space);
 *   - /sys/dev/char/226:<m>/uevent (DEVNAME) for drmGetDeviceNameFromFd2.
 * /sys/class/drm and /sys/bus/pci/devices gain the matching links. amdgpu's
 * own attributes of the PCI function and its hwmon are in tree_amdgpu.c and
 * tree_hwmon.c.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "tree.h"

/* Display controller, "other": what Instinct boards report (RX boards say VGA). */
#define PCI_CLASS_DISPLAY_OTHER	0x038000

/* sysfs path of a GPU's PCI function, e.g. /sys/devices/pci0000:00/0000:03:00.0 */
static int
pci_path(const struct ksim_drm *drm, char *buf, size_t size)
{
	int n = snprintf(buf, size, "/sys/devices/pci%04x:00/%04x:%02x:%02x.%u",
			 drm->pci_domain, drm->pci_domain, drm->pci_bus, drm->pci_dev,
			 drm->pci_func);

	return n < 0 || (size_t)n >= size ? -ENAMETOOLONG : n;
}

static uint32_t
drm_device_id(const struct ksim_node *node)
{
	return node->drm->device_id ? node->drm->device_id
				    : (uint32_t)node->props[KSIM_NP_DEVICE_ID];
}

static uint32_t
drm_vendor_id(const struct ksim_node *node)
{
	return node->props[KSIM_NP_VENDOR_ID] ? (uint32_t)node->props[KSIM_NP_VENDOR_ID]
					      : 0x1002;
}

/* The standard configuration header: ids, class, revision, subsystem. */
static int
render_pci_config(const struct ksim_vnode *n, struct ksim_buf *out)
{
	const struct ksim_node *node = n->priv;
	unsigned char cfg[256] = { 0 };
	uint32_t vendor = drm_vendor_id(node), device = drm_device_id(node);

	cfg[0x00] = vendor & 0xff;
	cfg[0x01] = (vendor >> 8) & 0xff;
	cfg[0x02] = device & 0xff;
	cfg[0x03] = (device >> 8) & 0xff;
	cfg[0x04] = 0x07;	/* command: IO, memory, bus master */
	cfg[0x06] = 0x10;	/* status: capability list */
	cfg[0x08] = node->drm->pci_rev & 0xff;
	cfg[0x09] = PCI_CLASS_DISPLAY_OTHER & 0xff;
	cfg[0x0a] = (PCI_CLASS_DISPLAY_OTHER >> 8) & 0xff;
	cfg[0x0b] = (PCI_CLASS_DISPLAY_OTHER >> 16) & 0xff;
	cfg[0x2c] = node->drm->subsystem_vendor & 0xff;
	cfg[0x2d] = (node->drm->subsystem_vendor >> 8) & 0xff;
	cfg[0x2e] = node->drm->subsystem_device & 0xff;
	cfg[0x2f] = (node->drm->subsystem_device >> 8) & 0xff;
	ksim_buf_put(out, cfg, sizeof(cfg));
	return 0;
}

/*
 * pp_dpm_sclk / pp_dpm_mclk: the DPM levels, "N: <MHz>Mhz" with '*' on the
 * current one (rocm-smi reads them). The profile knows the lowest and the
 * highest level (kHz); the device idles at neither, so it shows the top.
 */
static int
render_dpm(const struct ksim_vnode *n, struct ksim_buf *out)
{
	const struct ksim_drm *drm = n->priv;
	uint64_t lo = n->arg ? drm->min_memory_clock : drm->min_engine_clock;
	uint64_t hi = n->arg ? drm->max_memory_clock : drm->max_engine_clock;

	if (lo && lo < hi)
		ksim_buf_printf(out, "0: %lluMhz \n", (unsigned long long)(lo / 1000));
	ksim_buf_printf(out, "%d: %lluMhz *\n", lo && lo < hi ? 1 : 0,
			(unsigned long long)(hi / 1000));
	return 0;
}

/*
 * The NUMA node of the GPU's PCI function (its numa_node file): the CPU
 * node its first link leads to, as the kernel links a GPU to its own NUMA
 * node first (kfd_crat.c). A machine of one CPU node says -1, as firmware
 * without proximity information does: there the link cannot tell.
 */
static int
gpu_numa_node(const struct ksim_profile *prof, const struct ksim_node *node)
{
	unsigned int k, cpus = 0, to;

	for (k = 0; k < prof->n_nodes; k++)
		cpus += !prof->nodes[k].gpu_id;
	if (cpus < 2 || !node->n_io_links)
		return -1;
	to = node->io_links[0].node_to;
	return to < prof->n_nodes && !prof->nodes[to].gpu_id ? (int)to : -1;
}

static int
add_gpu(struct ksim_vfs *vfs, struct ksim_tree_ctx *ctx, const struct ksim_node *node,
	unsigned int gpu)
{
	const struct ksim_drm *drm = node->drm;
	uint32_t vendor = drm_vendor_id(node), device = drm_device_id(node);
	unsigned int minor = drm->render_minor;
	char pci[128], slot[32], path[256], link[256];
	int ret;

	if ((ret = pci_path(drm, pci, sizeof(pci))) < 0)
		return ret;
	snprintf(slot, sizeof(slot), "%04x:%02x:%02x.%u", drm->pci_domain, drm->pci_bus,
		 drm->pci_dev, drm->pci_func);

	/* the PCI function */
	if (!ksim_vfs_mkdir(vfs, pci, true))
		return -ENOMEM;
#define PCI_FILE(name, ...) \
	(snprintf(path, sizeof(path), "%s/" name, pci), ksim_tree_add_textf(vfs, path, __VA_ARGS__))
	if ((ret = PCI_FILE("vendor", "0x%04x\n", vendor)) < 0 ||
	    (ret = PCI_FILE("device", "0x%04x\n", device)) < 0 ||
	    (ret = PCI_FILE("subsystem_vendor", "0x%04x\n", drm->subsystem_vendor)) < 0 ||
	    (ret = PCI_FILE("subsystem_device", "0x%04x\n", drm->subsystem_device)) < 0 ||
	    (ret = PCI_FILE("revision", "0x%02x\n", drm->pci_rev & 0xff)) < 0 ||
	    (ret = PCI_FILE("class", "0x%06x\n", PCI_CLASS_DISPLAY_OTHER)) < 0 ||
	    (ret = PCI_FILE("numa_node", "%d\n", gpu_numa_node(ctx->prof, node))) < 0 ||
	    (ret = PCI_FILE("uevent",
			    "DRIVER=amdgpu\nPCI_CLASS=%X\nPCI_ID=%04X:%04X\n"
			    "PCI_SUBSYS_ID=%04X:%04X\nPCI_SLOT_NAME=%s\n"
			    "MODALIAS=pci:v%08Xd%08Xsv%08Xsd%08Xbc%02Xsc%02Xi%02X\n",
			    PCI_CLASS_DISPLAY_OTHER, vendor, device, drm->subsystem_vendor,
			    drm->subsystem_device, slot, vendor, device,
			    drm->subsystem_vendor, drm->subsystem_device,
			    (PCI_CLASS_DISPLAY_OTHER >> 16) & 0xff,
			    (PCI_CLASS_DISPLAY_OTHER >> 8) & 0xff,
			    PCI_CLASS_DISPLAY_OTHER & 0xff)) < 0)
		return ret;
#undef PCI_FILE
	snprintf(path, sizeof(path), "%s/config", pci);
	if (!ksim_vfs_add_file(vfs, path, 0644, render_pci_config, node, 0))
		return -ENOMEM;
	snprintf(path, sizeof(path), "%s/pp_dpm_sclk", pci);
	if (!ksim_vfs_add_file(vfs, path, 0444, render_dpm, drm, 0))
		return -ENOMEM;
	snprintf(path, sizeof(path), "%s/pp_dpm_mclk", pci);
	if (!ksim_vfs_add_file(vfs, path, 0444, render_dpm, drm, 1))
		return -ENOMEM;
	snprintf(path, sizeof(path), "%s/subsystem", pci);
	if (!ksim_vfs_add_link(vfs, path, "../../../bus/pci"))
		return -ENOMEM;
	if ((ret = ksim_tree_amdgpu(vfs, ctx, node, gpu, pci)) < 0 ||
	    (ret = ksim_tree_hwmon(vfs, ctx, node, gpu, pci, slot)) < 0)
		return ret;
	snprintf(path, sizeof(path), "%s/driver", pci);
	if (!ksim_vfs_add_link(vfs, path, "../../../bus/pci/drivers/amdgpu"))
		return -ENOMEM;

	/* the DRM minor below it */
	snprintf(path, sizeof(path), "%s/drm", pci);
	if (!ksim_vfs_mkdir(vfs, path, true))
		return -ENOMEM;
	snprintf(path, sizeof(path), "%s/drm/renderD%u/dev", pci, minor);
	if ((ret = ksim_tree_add_textf(vfs, path, "%u:%u\n", KSIM_DRM_MAJOR, minor)) < 0)
		return ret;
	snprintf(path, sizeof(path), "%s/drm/renderD%u/uevent", pci, minor);
	if ((ret = ksim_tree_add_textf(vfs, path, "MAJOR=%u\nMINOR=%u\nDEVNAME=dri/renderD%u\n",
				       KSIM_DRM_MAJOR, minor, minor)) < 0)
		return ret;
	snprintf(path, sizeof(path), "%s/drm/renderD%u/device", pci, minor);
	snprintf(link, sizeof(link), "../../../%s", slot);
	if (!ksim_vfs_add_link(vfs, path, link))
		return -ENOMEM;
	snprintf(path, sizeof(path), "%s/drm/renderD%u/subsystem", pci, minor);
	if (!ksim_vfs_add_link(vfs, path, "../../../../../class/drm"))
		return -ENOMEM;

	/*
	 * The primary node's sysfs directory, so that its minor can be read;
	 * there is no /dev/dri/card file: compute clients use render nodes.
	 */
	snprintf(path, sizeof(path), "%s/drm/card%u/dev", pci, drm->card_minor);
	if ((ret = ksim_tree_add_textf(vfs, path, "%u:%u\n", KSIM_DRM_MAJOR, drm->card_minor)) < 0)
		return ret;
	snprintf(path, sizeof(path), "%s/drm/card%u/uevent", pci, drm->card_minor);
	if ((ret = ksim_tree_add_textf(vfs, path, "MAJOR=%u\nMINOR=%u\nDEVNAME=dri/card%u\n",
				       KSIM_DRM_MAJOR, drm->card_minor, drm->card_minor)) < 0)
		return ret;
	snprintf(path, sizeof(path), "%s/drm/card%u/device", pci, drm->card_minor);
	snprintf(link, sizeof(link), "../../../%s", slot);
	if (!ksim_vfs_add_link(vfs, path, link))
		return -ENOMEM;
	snprintf(path, sizeof(path), "/sys/class/drm/card%u", drm->card_minor);
	snprintf(link, sizeof(link), "../..%s/drm/card%u", pci + 4, drm->card_minor);
	if (!ksim_vfs_add_link(vfs, path, link))
		return -ENOMEM;

	/* the device file and the links that lead to the directories above */
	snprintf(path, sizeof(path), "/dev/dri/renderD%u", minor);
	if (!ksim_vfs_add_chr(vfs, path, 0666, KSIM_DEV_RENDER, KSIM_DRM_MAJOR, minor))
		return -ENOMEM;
	snprintf(path, sizeof(path), "/sys/dev/char/%u:%u", KSIM_DRM_MAJOR, minor);
	snprintf(link, sizeof(link), "../..%s/drm/renderD%u", pci + 4, minor);
	if (!ksim_vfs_add_link(vfs, path, link))
		return -ENOMEM;
	snprintf(path, sizeof(path), "/sys/class/drm/renderD%u", minor);
	if (!ksim_vfs_add_link(vfs, path, link))
		return -ENOMEM;
	snprintf(path, sizeof(path), "/sys/bus/pci/devices/%s", slot);
	snprintf(link, sizeof(link), "../../..%s", pci + 4);
	if (!ksim_vfs_add_link(vfs, path, link))
		return -ENOMEM;
	return 0;
}

int
ksim_tree_drm(struct ksim_vfs *vfs, struct ksim_tree_ctx *ctx)
{
	unsigned int gpu = 0;
	int ret;

	/*
	 * Only simulated render nodes, DRM devices and hwmons: the process
	 * must not reach real GPUs (rocm_smi_lib numbers the cards it finds
	 * in /sys/class/drm from card0).
	 */
	if (!ksim_vfs_mkdir(vfs, "/dev/dri", true) ||
	    !ksim_vfs_mkdir(vfs, "/sys/class/drm", true) ||
	    !ksim_vfs_mkdir(vfs, "/sys/class/hwmon", true))
		return -ENOMEM;
	/* drm_sysfs.c: CORE_NAME, major.minor.patchlevel and CORE_DATE */
	if ((ret = ksim_tree_add_textf(vfs, "/sys/class/drm/version", "drm 1.1.0 20060810\n")) < 0)
		return ret;
	for (unsigned int i = 0; i < ctx->prof->n_nodes; i++) {
		const struct ksim_node *node = &ctx->prof->nodes[i];

		if (!ksim_node_is_gpu(node))
			continue;
		if (node->drm && (ret = add_gpu(vfs, ctx, node, gpu)) < 0)
			return ret;
		gpu++;
	}
	return 0;
}

/* SPDX-License-Identifier: MIT */
/* Pieces of the virtual tree (tree*.c). */
#ifndef KSIM_TREE_H
#define KSIM_TREE_H

#include "ksim_profile.h"
#include "shim.h"

struct ksim_device;

/* What every render function of a tree reaches through vnode->priv. */
struct ksim_tree_ctx {
	const struct ksim_profile *prof;
	unsigned int abi_minor;
	/*
	 * The device whose live state (memory in use, KFD processes) files
	 * render, created on first use; NULL when there is none. The shim
	 * passes ksim_state_device; tests their own.
	 */
	struct ksim_device *(*device)(void);
};

/* The GPU node with GPU index @gpu (GPU nodes in profile order), or NULL. */
const struct ksim_node *ksim_tree_gpu_node(const struct ksim_profile *prof,
					   unsigned int gpu);

/* Pack two indices into a vnode arg. */
#define TREE_ARG(a, b)	(((uintptr_t)(a) << 32) | (uint32_t)(b))
#define TREE_ARG_HI(x)	((unsigned int)((x) >> 32))
#define TREE_ARG_LO(x)	((unsigned int)((x) & 0xffffffffu))

/*
 * ksim_tree_add_textf() - a read-only file (0444) holding fixed text,
 * formatted like printf (up to 511 bytes).
 *
 * Return: 0, or -ENOMEM.
 */
int ksim_tree_add_textf(struct ksim_vfs *vfs, const char *path,
			const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* The KFD topology under /sys/devices/virtual/kfd/kfd. 0 or -ENOMEM. */
int ksim_tree_topology(struct ksim_vfs *vfs, struct ksim_tree_ctx *ctx);

/* Render nodes, their sysfs devices and the PCI functions. 0 or -ENOMEM. */
int ksim_tree_drm(struct ksim_vfs *vfs, struct ksim_tree_ctx *ctx);

/* /proc/modules and /sys/module/amdgpu (what lsmod reads). 0 or -ENOMEM. */
int ksim_tree_module(struct ksim_vfs *vfs, struct ksim_tree_ctx *ctx);

/*
 * amdgpu's attributes of GPU @gpu's PCI function at @pci (memory, identity,
 * link, power level: what rocm-smi reads). 0 or -ENOMEM.
 */
int ksim_tree_amdgpu(struct ksim_vfs *vfs, struct ksim_tree_ctx *ctx,
		     const struct ksim_node *node, unsigned int gpu, const char *pci);

/*
 * amdgpu's RAS files of the GPU whose DRM facts are @drm under its PCI
 * function @pci (features, error counts), if the profile gives it RAS.
 * 0 or -ENOMEM.
 */
int ksim_tree_ras(struct ksim_vfs *vfs, const struct ksim_drm *drm, const char *pci);

/*
 * GPU @gpu's hwmon device, @pci/hwmon/hwmon<gpu>, and its
 * /sys/class/hwmon link. 0 or -ENOMEM.
 */
int ksim_tree_hwmon(struct ksim_vfs *vfs, struct ksim_tree_ctx *ctx,
		    const struct ksim_node *node, unsigned int gpu, const char *pci,
		    const char *slot);

/* /sys/devices/virtual/kfd/kfd/proc: one directory per KFD process. 0 or -ENOMEM. */
int ksim_tree_kfd_proc(struct ksim_vfs *vfs, struct ksim_tree_ctx *ctx);

#endif

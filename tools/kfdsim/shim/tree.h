/* SPDX-License-Identifier: MIT */
/* Pieces of the virtual tree (tree*.c). */
#ifndef KSIM_TREE_H
#define KSIM_TREE_H

#include "ksim_profile.h"
#include "shim.h"

/* What every render function of a tree reaches through vnode->priv. */
struct ksim_tree_ctx {
	const struct ksim_profile *prof;
	unsigned int abi_minor;
};

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

#endif

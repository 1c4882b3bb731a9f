/* SPDX-License-Identifier: MIT */
/*
 * The virtual tree of a profile: device files, the KFD topology, the render
 * nodes' sysfs devices and the module files lsmod reads.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "tree.h"
#include "tree_cpu.h"

int
ksim_tree_add_textf(struct ksim_vfs *vfs, const char *path, const char *fmt,
		    ...)
{
	char text[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(text, sizeof(text), fmt, ap);
	va_end(ap);
	return ksim_vfs_add_text(vfs, path, 0444, text) ? 0 : -ENOMEM;
}

const struct ksim_node *
ksim_tree_gpu_node(const struct ksim_profile *prof, unsigned int gpu)
{
	for (unsigned int i = 0; i < prof->n_nodes; i++) {
		const struct ksim_node *n = &prof->nodes[i];

		if (ksim_node_is_gpu(n) && gpu-- == 0)
			return n;
	}
	return NULL;
}

struct ksim_vfs *
ksim_tree_build(const struct ksim_profile *prof, unsigned int abi_minor)
{
	struct ksim_tree_ctx *ctx;
	struct ksim_vfs *vfs;

	vfs = ksim_vfs_new();
	if (!vfs)
		return NULL;
	ctx = calloc(1, sizeof(*ctx));
	if (!ctx)
		goto fail;
	ctx->prof = prof;
	ctx->abi_minor = abi_minor;
	ctx->device = ksim_state_device;
	vfs->ctx = ctx;

	if (!ksim_vfs_add_chr(vfs, "/dev/kfd", 0666, KSIM_DEV_KFD, KSIM_KFD_MAJOR, 0))
		goto fail;
	if (ksim_tree_topology(vfs, ctx) < 0 || ksim_tree_drm(vfs, ctx) < 0 ||
	    ksim_tree_module(vfs, ctx) < 0 || ksim_tree_cpu(vfs, ctx) < 0 ||
	    ksim_tree_kfd_proc(vfs, ctx) < 0)
		goto fail;
	return vfs;
fail:
	ksim_vfs_free(vfs);
	return NULL;
}

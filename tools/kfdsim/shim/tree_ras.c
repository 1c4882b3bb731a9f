/* SPDX-License-Identifier: MIT */
/*
 * amdgpu's RAS group of a GPU's PCI function, <pci>/ras, for a profile
 * whose ras_features names blocks (amdgpu_ras.c; none on a GPU without
 * RAS, whose RAS context amdgpu frees):
 *   - features: "feature mask: 0x%x\n";
 *   - <block>_err_count per enabled block: "ue: %lu\nce: %lu\n", the
 *     uncorrectable and correctable counts, 0 on a simulated GPU;
 *   - gpu_vram_bad_pages: the retired pages, none (bad_page_threshold is
 *     not 0 by default, so the file exists).
 */
#include <errno.h>
#include <stdio.h>

#include "tree.h"

/* ras_block_string[]: the block of each feature bit. */
static const char *const ras_blocks[] = {
	"umc", "sdma", "gfx", "mmhub", "athub", "pcie_bif", "hdp", "xgmi_wafl",
	"df", "smn", "sem", "mp0", "mp1", "fuse", "mca", "vcn", "jpeg", "ih",
	"mpio",
};

int
ksim_tree_ras(struct ksim_vfs *vfs, const struct ksim_drm *drm, const char *pci)
{
	char path[256];

	if (!drm->ras_features)
		return 0;
	snprintf(path, sizeof(path), "%s/ras", pci);
	if (!ksim_vfs_mkdir(vfs, path, true))
		return -ENOMEM;
	snprintf(path, sizeof(path), "%s/ras/features", pci);
	if (ksim_tree_add_textf(vfs, path, "feature mask: 0x%x\n", drm->ras_features))
		return -ENOMEM;
	snprintf(path, sizeof(path), "%s/ras/gpu_vram_bad_pages", pci);
	if (!ksim_vfs_add_text(vfs, path, 0444, ""))
		return -ENOMEM;
	for (unsigned int b = 0; b < sizeof(ras_blocks) / sizeof(ras_blocks[0]); b++) {
		if (!(drm->ras_features & (1u << b)))
			continue;
		snprintf(path, sizeof(path), "%s/ras/%s_err_count", pci, ras_blocks[b]);
		if (ksim_tree_add_textf(vfs, path, "ue: 0\nce: 0\n"))
			return -ENOMEM;
	}
	return 0;
}

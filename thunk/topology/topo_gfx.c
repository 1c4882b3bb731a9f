/* SPDX-License-Identifier: MIT */
/*
 * GFX IP version of GPU nodes. ROCm 5.2.3's libhsakmt prefers a table of
 * PCI device ids (which also gives the ASIC's code name, reported as
 * AMDName) over the kernel's gfx_target_version; HSA_OVERRIDE_GFX_VERSION
 * beats both. Newer devices, absent from the table, use the kernel's value
 * and an AMDName of "GFX" followed by the version in hex.
 */
#include <stdio.h>
#include <string.h>

#include "topology/topo.h"

/* An ASIC family: its gfx version, code name and PCI device ids. */
struct gfx_family {
	const char *name;
	uint8_t major, minor, step;
	uint8_t n_ids;
	const uint16_t *ids;
};

#define FAMILY(nm, ma, mi, st, ...)					\
	{ nm, ma, mi, st,						\
	  sizeof((const uint16_t[]){ __VA_ARGS__ }) / sizeof(uint16_t),	\
	  (const uint16_t[]){ __VA_ARGS__ } }

static const struct gfx_family gfx_families[] = {
	FAMILY("Spectre", 7, 0, 0, 0x1304, 0x1305, 0x1306, 0x1307, 0x1309, 0x130A,
	       0x130B, 0x130C, 0x130D, 0x130E, 0x130F, 0x1310, 0x1311, 0x1313,
	       0x1315, 0x1318, 0x131B, 0x131C, 0x131D),
	FAMILY("Spooky", 7, 0, 0, 0x1312, 0x1316, 0x1317),
	FAMILY("Hawaii", 7, 0, 1, 0x67A0, 0x67A1, 0x67A2, 0x67A8, 0x67A9, 0x67AA,
	       0x67B0, 0x67B1, 0x67B8, 0x67B9, 0x67BA, 0x67BE),
	FAMILY("Carrizo", 8, 0, 1, 0x9870, 0x9874, 0x9875, 0x9876, 0x9877),
	FAMILY("Tonga", 8, 0, 2, 0x6920, 0x6921, 0x6928, 0x6929, 0x692B, 0x692F,
	       0x6930, 0x6938, 0x6939),
	FAMILY("Fiji", 8, 0, 3, 0x7300, 0x730F),
	FAMILY("Polaris10", 8, 0, 3, 0x67C0, 0x67C1, 0x67C2, 0x67C4, 0x67C7, 0x67C8,
	       0x67C9, 0x67CA, 0x67CC, 0x67CF, 0x67D0, 0x67DF, 0x6FDF),
	FAMILY("Polaris11", 8, 0, 3, 0x67E0, 0x67E1, 0x67E3, 0x67E7, 0x67E8, 0x67E9,
	       0x67EB, 0x67EF, 0x67FF),
	FAMILY("Polaris12", 8, 0, 3, 0x6980, 0x6981, 0x6985, 0x6986, 0x6987, 0x6995,
	       0x6997, 0x699F),
	FAMILY("VegaM", 8, 0, 3, 0x694C, 0x694E, 0x694F),
	FAMILY("Vega10", 9, 0, 0, 0x6860, 0x6861, 0x6862, 0x6863, 0x6864, 0x6867,
	       0x6868, 0x6869, 0x686A, 0x686B, 0x686C, 0x686D, 0x686E, 0x687F),
	FAMILY("Vega12", 9, 0, 4, 0x69A0, 0x69A1, 0x69A2, 0x69A3, 0x69AF),
	FAMILY("Raven", 9, 0, 2, 0x15DD, 0x15D8),
	FAMILY("Vega20", 9, 0, 6, 0x66A0, 0x66A1, 0x66A2, 0x66A3, 0x66A4, 0x66A7,
	       0x66AF),
	FAMILY("Arcturus", 9, 0, 8, 0x7388, 0x738C, 0x738E, 0x7390),
	FAMILY("Aldebaran", 9, 0, 10, 0x7408, 0x740C, 0x740F, 0x7410),
	FAMILY("Renoir", 9, 0, 12, 0x15E7, 0x1636, 0x1638, 0x164C),
	FAMILY("Navi10", 10, 1, 0, 0x7310, 0x7312, 0x7318, 0x731A, 0x731E, 0x731F),
	FAMILY("cyan_skillfish", 10, 1, 3, 0x13F9, 0x13FA, 0x13FB, 0x13FC, 0x13FE,
	       0x143F),
	FAMILY("Navi14", 10, 1, 2, 0x7340, 0x7341, 0x7347),
	FAMILY("Navi12", 10, 1, 1, 0x7360, 0x7362),
	FAMILY("SIENNA_CICHLID", 10, 3, 0, 0x73A0, 0x73A1, 0x73A2, 0x73A3, 0x73A5,
	       0x73A8, 0x73A9, 0x73AB, 0x73AC, 0x73AD, 0x73AE, 0x73BF),
	FAMILY("NAVY_FLOUNDER", 10, 3, 1, 0x73C0, 0x73C1, 0x73C3, 0x73DA, 0x73DB,
	       0x73DC, 0x73DD, 0x73DE, 0x73DF),
	FAMILY("DIMGREY_CAVEFISH", 10, 3, 2, 0x73E0, 0x73E1, 0x73E2, 0x73E8, 0x73E9,
	       0x73EA, 0x73EB, 0x73EC, 0x73ED, 0x73EF, 0x73FF),
	FAMILY("VanGogh", 10, 3, 3, 0x163F),
	FAMILY("BEIGE_GOBY", 10, 3, 4, 0x7420, 0x7421, 0x7422, 0x7423, 0x743F),
	FAMILY("YELLOW_CARP", 10, 3, 5, 0x164D, 0x1681),
};

static const struct gfx_family *
gfx_family_of(uint16_t device_id)
{
	size_t i, j;

	for (i = 0; i < sizeof(gfx_families) / sizeof(gfx_families[0]); i++)
		for (j = 0; j < gfx_families[i].n_ids; j++)
			if (gfx_families[i].ids[j] == device_id)
				return &gfx_families[i];
	return NULL;
}

/* Bytes of vector registers per CU: the CDNA parts have twice the file. */
static uint32_t
vgpr_bytes_per_cu(uint32_t gfx)
{
	switch (gfx) {
	case KMT_GFX(9, 0, 8):
	case KMT_GFX(9, 0, 10):
	case KMT_GFX(9, 4, 0):
	case KMT_GFX(9, 4, 1):
	case KMT_GFX(9, 4, 2):
		return 0x80000;
	case KMT_GFX(11, 0, 0):
	case KMT_GFX(11, 0, 1):
	case KMT_GFX(12, 0, 0):
	case KMT_GFX(12, 0, 1):
		return 0x60000;
	default:
		return 0x40000;
	}
}

struct kmt_gfx_version
kmt_topo_gfx_of(const HsaNodeProperties *props)
{
	struct kmt_gfx_version v = {
		.major = props->EngineId.ui32.Major,
		.minor = props->EngineId.ui32.Minor,
		.stepping = props->EngineId.ui32.Stepping,
	};

	return v;
}

HSAKMT_STATUS
kmt_topo_set_gfx(struct kmt_topo_node *node)
{
	const struct kmt_env *env = kmt_env();
	HsaNodeProperties *p = &node->props;
	const struct gfx_family *fam = gfx_family_of(p->DeviceId);
	uint32_t tv = node->gfx_target_version;
	uint32_t gfx;

	if (fam || tv) {
		if (env->gfx_override) {
			p->EngineId.ui32.Major = env->gfx_override_major;
			p->EngineId.ui32.Minor = env->gfx_override_minor;
			p->EngineId.ui32.Stepping = env->gfx_override_step;
		} else if (fam) {
			p->EngineId.ui32.Major = fam->major;
			p->EngineId.ui32.Minor = fam->minor;
			p->EngineId.ui32.Stepping = fam->step;
		} else {
			/* gfx_target_version is decimal: 90010 = 9.0.10 */
			p->EngineId.ui32.Major = (tv / 10000) % 100;
			p->EngineId.ui32.Minor = (tv / 100) % 100;
			p->EngineId.ui32.Stepping = tv % 100;
		}
		gfx = kmt_gfx_value(kmt_topo_gfx_of(p));
		memset(p->AMDName, 0, sizeof(p->AMDName));
		if (fam)
			snprintf((char *)p->AMDName, sizeof(p->AMDName), "%s", fam->name);
		else
			snprintf((char *)p->AMDName, sizeof(p->AMDName), "GFX%06x", gfx);
		p->SGPRSizePerCU = 0x4000;
		p->VGPRSizePerCU = vgpr_bytes_per_cu(gfx);
	} else if (p->DeviceId) {
		kmt_err("device 0x%x: unknown GFX version\n", p->DeviceId);
	}

	if (p->NumFComputeCores && !p->EngineId.ui32.Major) {
		/* AMD's library asserts here; we refuse the topology instead. */
		kmt_err("GPU node %u has no GFX version (set HSA_OVERRIDE_GFX_VERSION)\n",
			node->sysfs_id);
		return HSAKMT_STATUS_ERROR;
	}
	return HSAKMT_STATUS_SUCCESS;
}

/* SPDX-License-Identifier: MIT */
/*
 * A GPU's hwmon device, as amdgpu_pm.c registers it below the PCI function
 * (<pci>/hwmon/hwmon<N>, linked from /sys/class/hwmon/hwmon<N>), in the
 * hwmon ABI's units: temperatures in millidegrees Celsius, power in
 * microwatts, voltage in millivolts, frequency in Hz, fan speed in RPM.
 * rocm_smi_lib finds it by its "name" file ("amdgpu") and maps sensors by
 * their labels (temp1 "edge", temp2 "junction", temp3 "mem", in0
 * "vddgfx").
 *
 * What a board lacks is absent, as hwmon_attributes_visible() hides it: a
 * temperature, voltage or fan the profile leaves at 0 (Instinct boards are
 * passively cooled: no fan or pwm files; MI300 has no edge sensor).
 * /sys/class/hwmon lists the simulated GPUs' devices only, so that N is
 * the GPU index and cannot collide with the host's.
 */
#include <errno.h>
#include <stdio.h>

#include "tree.h"

struct hwmon_temp {
	const char *label;
	uint32_t input, crit;
};

int
ksim_tree_hwmon(struct ksim_vfs *vfs, struct ksim_tree_ctx *ctx,
		const struct ksim_node *node, unsigned int gpu, const char *pci,
		const char *slot)
{
	const struct ksim_drm *drm = node->drm;
	const struct hwmon_temp temps[3] = {
		{ "edge", drm->temp_edge, drm->temp_edge_crit },
		{ "junction", drm->temp_junction, drm->temp_junction_crit },
		{ "mem", drm->temp_mem, drm->temp_mem_crit },
	};
	char dir[192], path[256], link[256];
	int ret;

	(void)ctx;
	snprintf(dir, sizeof(dir), "%s/hwmon/hwmon%u", pci, gpu);
	if (!ksim_vfs_mkdir(vfs, dir, true))
		return -ENOMEM;
#define HW(name, ...) \
	(snprintf(path, sizeof(path), "%s/" name, dir), ksim_tree_add_textf(vfs, path, __VA_ARGS__))
#define HWN(fmt, i, ...) \
	(snprintf(path, sizeof(path), "%s/" fmt, dir, i), ksim_tree_add_textf(vfs, path, __VA_ARGS__))
	if ((ret = HW("name", "amdgpu\n")) < 0 || (ret = HW("uevent", "%s", "")) < 0)
		return ret;
	snprintf(path, sizeof(path), "%s/device", dir);
	snprintf(link, sizeof(link), "../../../%s", slot);
	if (!ksim_vfs_add_link(vfs, path, link))
		return -ENOMEM;
	snprintf(path, sizeof(path), "%s/subsystem", dir);
	if (!ksim_vfs_add_link(vfs, path, "../../../../../class/hwmon"))
		return -ENOMEM;

	for (unsigned int i = 0; i < 3; i++) {
		const struct hwmon_temp *t = &temps[i];

		if (!t->input)
			continue;
		if ((ret = HWN("temp%u_input", i + 1, "%d\n", (int)t->input * 1000)) < 0 ||
		    (ret = HWN("temp%u_label", i + 1, "%s\n", t->label)) < 0)
			return ret;
		if (t->crit &&
		    (ret = HWN("temp%u_crit", i + 1, "%d\n", (int)t->crit * 1000)) < 0)
			return ret;
	}
	if (drm->power_average &&
	    (ret = HW("power1_average", "%u\n", drm->power_average * 1000000u)) < 0)
		return ret;
	if (drm->power_cap &&
	    ((ret = HW("power1_cap", "%u\n", drm->power_cap * 1000000u)) < 0 ||
	     (ret = HW("power1_cap_default", "%u\n", drm->power_cap * 1000000u)) < 0 ||
	     (ret = HW("power1_cap_max", "%u\n",
		       (drm->power_cap_max ? drm->power_cap_max : drm->power_cap) * 1000000u)) < 0 ||
	     (ret = HW("power1_cap_min", "%u\n", 0u)) < 0 ||
	     (ret = HW("power1_label", "%s\n", "PPT")) < 0))
		return ret;
	if (drm->fan_rpm) {
		uint32_t max = drm->fan_max_rpm > drm->fan_rpm ? drm->fan_max_rpm : drm->fan_rpm;

		if ((ret = HW("fan1_input", "%u\n", drm->fan_rpm)) < 0 ||
		    (ret = HW("fan1_min", "%u\n", 0u)) < 0 ||
		    (ret = HW("fan1_max", "%u\n", max)) < 0 ||
		    (ret = HW("pwm1", "%u\n", (unsigned int)((uint64_t)drm->fan_rpm * 255 / max))) < 0 ||
		    (ret = HW("pwm1_enable", "%u\n", 2u)) < 0 ||
		    (ret = HW("pwm1_min", "%u\n", 0u)) < 0 ||
		    (ret = HW("pwm1_max", "%u\n", 255u)) < 0)
			return ret;
	}
	if (drm->vddgfx &&
	    ((ret = HW("in0_input", "%d\n", (int)drm->vddgfx)) < 0 ||
	     (ret = HW("in0_label", "%s\n", "vddgfx")) < 0))
		return ret;
	/* The device runs at its top DPM level (pp_dpm_sclk's '*'): kHz -> Hz. */
	if ((ret = HW("freq1_input", "%llu\n",
		      (unsigned long long)drm->max_engine_clock * 1000)) < 0 ||
	    (ret = HW("freq1_label", "%s\n", "sclk")) < 0 ||
	    (ret = HW("freq2_input", "%llu\n",
		      (unsigned long long)drm->max_memory_clock * 1000)) < 0 ||
	    (ret = HW("freq2_label", "%s\n", "mclk")) < 0)
		return ret;
#undef HWN
#undef HW

	snprintf(path, sizeof(path), "/sys/class/hwmon/hwmon%u", gpu);
	snprintf(link, sizeof(link), "../..%s/hwmon/hwmon%u", pci + 4, gpu);
	if (!ksim_vfs_add_link(vfs, path, link))
		return -ENOMEM;
	return 0;
}

/* SPDX-License-Identifier: MIT */
/*
 * The board facts of a GPU that monitoring tools read (the `[node N drm]`
 * keys product_name ... vddgfx, ksim_profile.h): amdgpu's attributes of the
 * PCI function and its hwmon device, converted back from the kernel's
 * units (millidegrees, microwatts) to the profile's (degrees, watts). A
 * file the board does not have gives "" or 0, which the simulator renders
 * as an absent file again. ras_features is ras/features' mask.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "capture_priv.h"

/* The first line of a file, for a quoted profile string ("" if none). */
static void
put_string(struct cap_ctx *c, const char *key, const char *path)
{
	char *text = cap_read_file(path, NULL);
	size_t n = 0;

	if (text) {
		n = strcspn(text, "\n\"");
		text[n] = '\0';
	}
	cap_printf(&c->text, "%s \"%s\"\n", key, text ? text : "");
	free(text);
}

static uint64_t
read_num(const char *dir, const char *file)
{
	char path[512];
	uint64_t v = 0;

	snprintf(path, sizeof(path), "%s/%s", dir, file);
	if (cap_read_u64(path, &v) < 0)
		return 0;
	return v;
}

/* The RAS feature mask from ras/features ("feature mask: 0x..."); 0 if none. */
static unsigned long
read_ras_features(const char *dev)
{
	char path[384], *text;
	unsigned long v = 0;

	snprintf(path, sizeof(path), "%s/ras/features", dev);
	text = cap_read_file(path, NULL);
	if (text && !strncmp(text, "feature mask: ", 14))
		v = strtoul(text + 14, NULL, 16);
	free(text);
	return v;
}

/* PCIe generation from pci_speed_string()'s "16.0 GT/s PCIe"; 0 if unknown. */
static unsigned int
read_pcie_gen(const char *dev)
{
	static const char *const speeds[] = { "2.5 ", "5.0 ", "8.0 ", "16.0 ", "32.0 ", "64.0 " };
	char path[384], *text;
	unsigned int gen = 0;

	snprintf(path, sizeof(path), "%s/max_link_speed", dev);
	text = cap_read_file(path, NULL);
	for (unsigned int i = 0; text && i < 6 && !gen; i++)
		if (!strncmp(text, speeds[i], strlen(speeds[i])))
			gen = i + 1;
	free(text);
	return gen;
}

/* The hwmon directory below the PCI function, into buf; false if none. */
static bool
find_hwmon(const char *dev, char *buf, size_t size)
{
	char path[160];
	struct dirent *de;
	bool found = false;
	DIR *d;

	snprintf(path, sizeof(path), "%s/hwmon", dev);
	d = opendir(path);
	if (!d)
		return false;
	while (!found && (de = readdir(d)) != NULL) {
		if (strncmp(de->d_name, "hwmon", 5))
			continue;
		snprintf(buf, size, "%s/%s", path, de->d_name);
		found = true;
	}
	closedir(d);
	return found;
}

void
cap_board(struct cap_ctx *c, unsigned int minor)
{
	static const char *const strings[][2] = {
		{ "product_name", "product_name" },
		{ "product_number", "product_number" },
		{ "serial_number", "serial_number" },
		{ "vbios_version", "vbios_version" },
		{ "vram_vendor", "mem_info_vram_vendor" },
	};
	char dev[128], hw[448] = "", path[384];
	bool have_hw;

	snprintf(dev, sizeof(dev), "/sys/class/drm/renderD%u/device", minor);
	for (unsigned int i = 0; i < sizeof(strings) / sizeof(strings[0]); i++) {
		snprintf(path, sizeof(path), "%s/%s", dev, strings[i][1]);
		put_string(c, strings[i][0], path);
	}
	cap_printf(&c->text, "pcie_gen %u\npcie_width %llu\n", read_pcie_gen(dev),
		   (unsigned long long)read_num(dev, "max_link_width"));
	have_hw = find_hwmon(dev, hw, sizeof(hw));
#define HWV(file, div) ((unsigned long long)(have_hw ? read_num(hw, file) / (div) : 0))
	cap_printf(&c->text, "power_average %llu\npower_cap %llu\npower_cap_max %llu\n",
		   HWV("power1_average", 1000000), HWV("power1_cap", 1000000),
		   HWV("power1_cap_max", 1000000));
	cap_printf(&c->text, "temp_edge %llu\ntemp_junction %llu\ntemp_mem %llu\n",
		   HWV("temp1_input", 1000), HWV("temp2_input", 1000), HWV("temp3_input", 1000));
	cap_printf(&c->text, "temp_edge_crit %llu\ntemp_junction_crit %llu\n"
		   "temp_mem_crit %llu\n", HWV("temp1_crit", 1000), HWV("temp2_crit", 1000),
		   HWV("temp3_crit", 1000));
	cap_printf(&c->text, "fan_rpm %llu\nfan_max_rpm %llu\nvddgfx %llu\n",
		   HWV("fan1_input", 1), HWV("fan1_max", 1), HWV("in0_input", 1));
#undef HWV
	cap_printf(&c->text, "ras_features %lu\n", read_ras_features(dev));
}

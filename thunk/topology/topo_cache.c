/* SPDX-License-Identifier: MIT */
/*
 * CPU facts the KFD does not export: the processor name (from
 * /proc/cpuinfo) and, for CPU nodes whose sysfs node has no caches, the
 * CPU caches from /sys/devices/system/{node/nodeN,cpu}/cpuM/cache. Each
 * cache is listed once, under the first processor of its
 * shared_cpu_list; SiblingMap marks the APIC ids sharing it.
 */
#include <ctype.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "topology/topo.h"

void
kmt_cpuinfo_free(struct kmt_cpuinfo *info)
{
	free(info->procs);
	info->procs = NULL;
	info->count = 0;
}

/* The value after "name<spaces>: ", without the newline. */
static const char *
cpuinfo_value(const char *line, const char *key)
{
	size_t n = strlen(key);
	const char *p;

	if (strncmp(line, key, n))
		return NULL;
	p = line + n;
	while (*p == ' ' || *p == '\t')
		p++;
	if (*p != ':')
		return NULL;
	p++;
	if (*p == ' ')
		p++;
	return p;
}

void
kmt_cpuinfo_read(const char *path, struct kmt_cpuinfo *info)
{
	char line[512];
	uint32_t proc = 0;
	bool have_proc = false;
	FILE *f;

	info->count = 0;
	info->procs = NULL;
	f = fopen(path, "re");
	if (!f) {
		kmt_warn("cannot read %s: no CPU names\n", path);
		return;
	}
	while (fgets(line, sizeof(line), f)) {
		const char *v;

		if ((v = cpuinfo_value(line, "processor"))) {
			unsigned long n = strtoul(v, NULL, 10);
			struct kmt_cpuinfo_proc *grown;

			/* Processor numbers are dense and small; cap them. */
			if (n >= 65536)
				break;
			proc = (uint32_t)n;
			have_proc = true;
			if (proc >= info->count) {
				grown = realloc(info->procs, (proc + 1) * sizeof(*grown));
				if (!grown)
					break;
				memset(grown + info->count, 0,
				       (proc + 1 - info->count) * sizeof(*grown));
				info->procs = grown;
				info->count = proc + 1;
			}
		} else if (have_proc && (v = cpuinfo_value(line, "model name"))) {
			char *name = info->procs[proc].model_name;
			size_t len = strcspn(v, "\n");

			if (len >= HSA_PUBLIC_NAME_SIZE)
				len = HSA_PUBLIC_NAME_SIZE - 1;
			memcpy(name, v, len);
			name[len] = '\0';
		} else if (have_proc && (v = cpuinfo_value(line, "apicid"))) {
			info->procs[proc].apicid = (uint32_t)strtoul(v, NULL, 10);
		}
	}
	fclose(f);
}

void
kmt_topo_cpu_name(struct kmt_topo_node *node, const struct kmt_cpuinfo *info)
{
	HsaNodeProperties *p = &node->props;
	uint32_t i;
	int j;

	for (i = 0; i < info->count; i++) {
		const char *name = info->procs[i].model_name;

		if (info->procs[i].apicid != p->CComputeIdLo)
			continue;
		if (!p->DeviceId) {
			memset(p->AMDName, 0, sizeof(p->AMDName));
			snprintf((char *)p->AMDName, sizeof(p->AMDName), "%s", name);
		}
		for (j = 0; name[j] && j < HSA_PUBLIC_NAME_SIZE - 1; j++)
			p->MarketingName[j] = (unsigned char)name[j];
		p->MarketingName[j] = 0;
		return;
	}
}

/* A file holding one decimal number; false if absent or malformed. */
static bool
read_dec(const char *path, uint32_t *v)
{
	char buf[64];

	if (kmt_sysfs_read_file(path, buf, sizeof(buf)) <= 0 || !isdigit((unsigned char)buf[0]))
		return false;
	*v = (uint32_t)strtoul(buf, NULL, 10);
	return true;
}

/*
 * "48K", "1024K", "32M". AMD's library stores CPU cache sizes in bytes
 * (GPU caches from the KFD are in KiB), and ROCr reports them as they
 * come; we keep bytes so programs see the same values.
 */
static void
read_size_bytes(const char *path, uint32_t *bytes)
{
	char buf[64], *end;
	unsigned long v;

	if (kmt_sysfs_read_file(path, buf, sizeof(buf)) <= 0)
		return;
	v = strtoul(buf, &end, 10);
	switch (*end) {
	case 'K':
		v <<= 10;
		break;
	case 'M':
		v <<= 20;
		break;
	case 'G':
		v <<= 30;
		break;
	default:
		break;
	}
	*bytes = (uint32_t)v;
}

static uint32_t
apicid_of(const struct kmt_cpuinfo *info, uint32_t proc)
{
	return proc < info->count ? info->procs[proc].apicid : proc;
}

/* shared_cpu_map: comma-separated 32-bit hex words, most significant first. */
static void
sibling_map_from_cpumap(const char *map, const struct kmt_cpuinfo *info,
			HsaCacheProperties *c)
{
	char words[64][12];
	unsigned int nwords = 0, w;
	const char *p = map;

	while (*p && *p != '\n' && nwords < 64) {
		size_t len = strcspn(p, ",\n");

		if (len >= sizeof(words[0]))
			len = sizeof(words[0]) - 1;
		memcpy(words[nwords], p, len);
		words[nwords++][len] = '\0';
		p += strcspn(p, ",\n");
		if (*p == ',')
			p++;
	}
	for (w = 0; w < nwords; w++) {
		unsigned long mask = strtoul(words[w], NULL, 16);
		uint32_t base = (nwords - 1 - w) * 32;
		unsigned int bit;

		for (bit = 0; bit < 32; bit++) {
			uint32_t apic;

			if (!(mask & (1ul << bit)))
				continue;
			apic = apicid_of(info, base + bit);
			if (apic < HSA_CPU_SIBLINGS)
				c->SiblingMap[apic] = 1;
		}
	}
}

/* The caches of one processor directory that it is the first user of. */
static HSAKMT_STATUS
cpu_dir_caches(const char *cpu_dir, uint32_t proc, const struct kmt_cpuinfo *info,
	       struct kmt_topo_node *node)
{
	char path[1024], buf[256];
	int nidx, idx;

	snprintf(path, sizeof(path), "%s/cache", cpu_dir);
	nidx = kmt_sysfs_count_entries(path, "index");
	for (idx = 0; idx < nidx; idx++) {
		HsaCacheProperties *c, *grown;
		uint32_t first;

		snprintf(path, sizeof(path), "%s/cache/index%d/shared_cpu_list", cpu_dir, idx);
		if (!read_dec(path, &first) || first != proc)
			continue;

		grown = realloc(node->caches, (node->props.NumCaches + 1) * sizeof(*grown));
		if (!grown)
			return HSAKMT_STATUS_NO_MEMORY;
		node->caches = grown;
		c = &grown[node->props.NumCaches++];
		memset(c, 0, sizeof(*c));
		c->ProcessorIdLow = apicid_of(info, proc);

		snprintf(path, sizeof(path), "%s/cache/index%d/level", cpu_dir, idx);
		read_dec(path, &c->CacheLevel);
		snprintf(path, sizeof(path), "%s/cache/index%d/type", cpu_dir, idx);
		if (kmt_sysfs_read_file(path, buf, sizeof(buf)) > 0) {
			if (!strncmp(buf, "Data", 4))
				c->CacheType.ui32.Data = 1;
			else if (!strncmp(buf, "Instruction", 11))
				c->CacheType.ui32.Instruction = 1;
			else if (!strncmp(buf, "Unified", 7))
				c->CacheType.ui32.Data = c->CacheType.ui32.Instruction = 1;
		}
		c->CacheType.ui32.CPU = 1;
		snprintf(path, sizeof(path), "%s/cache/index%d/size", cpu_dir, idx);
		read_size_bytes(path, &c->CacheSize);
		snprintf(path, sizeof(path), "%s/cache/index%d/coherency_line_size", cpu_dir, idx);
		read_dec(path, &c->CacheLineSize);
		snprintf(path, sizeof(path), "%s/cache/index%d/ways_of_associativity", cpu_dir, idx);
		read_dec(path, &c->CacheAssociativity);
		snprintf(path, sizeof(path), "%s/cache/index%d/physical_line_partition", cpu_dir, idx);
		read_dec(path, &c->CacheLinesPerTag);
		snprintf(path, sizeof(path), "%s/cache/index%d/shared_cpu_map", cpu_dir, idx);
		if (kmt_sysfs_read_file(path, buf, sizeof(buf)) > 0)
			sibling_map_from_cpumap(buf, info, c);
	}
	return HSAKMT_STATUS_SUCCESS;
}

HSAKMT_STATUS
kmt_topo_cpu_caches(const char *sys_root, uint32_t numa, const struct kmt_cpuinfo *info,
		    struct kmt_topo_node *node)
{
	char dir_path[512], cpu_path[768];
	HSAKMT_STATUS st = HSAKMT_STATUS_SUCCESS;
	struct dirent *de;
	DIR *dir;

	snprintf(dir_path, sizeof(dir_path), "%s/node/node%u", sys_root, numa);
	if (kmt_sysfs_count_entries(dir_path, "cpu") <= 0) {
		/* Without CONFIG_NUMA there is no node directory: node 0 is
		 * then every CPU. */
		if (numa)
			return HSAKMT_STATUS_SUCCESS;
		snprintf(dir_path, sizeof(dir_path), "%s/cpu", sys_root);
	}
	dir = opendir(dir_path);
	if (!dir)
		return HSAKMT_STATUS_SUCCESS;
	/* readdir order, as AMD's library lists them. */
	while ((de = readdir(dir)) && st == HSAKMT_STATUS_SUCCESS) {
		if (strncmp(de->d_name, "cpu", 3) || !isdigit((unsigned char)de->d_name[3]))
			continue;
		snprintf(cpu_path, sizeof(cpu_path), "%s/%s", dir_path, de->d_name);
		st = cpu_dir_caches(cpu_path, (uint32_t)strtoul(de->d_name + 3, NULL, 10),
				    info, node);
	}
	closedir(dir);
	return st;
}

/* SPDX-License-Identifier: MIT */
/*
 * Capturing a machine: the CPU half. The [cpu] section comes from
 * /proc/cpuinfo (identity, sockets, cores, SMT) and /sys/devices/system
 * (NUMA nodes, cpu0's caches and how many CPUs share each). The cpuinfo
 * flags are left out: a profile runs on other hosts, whose programs must
 * not be told of instructions their CPU may lack.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "capture_priv.h"

#define CPU_SYS "/sys/devices/system/cpu"
#define NODE_SYS "/sys/devices/system/node"

struct cpuinfo {
	char vendor[16];
	char model_name[64];
	unsigned long family, model, stepping, microcode, mhz, cpuid_level;
	unsigned long cores, siblings;
	unsigned long max_pkg;
	unsigned int nprocs;
	bool have_pkg;
};

/* The value of "key<tabs>: value" if @line has that key, else NULL. */
static const char *
info_value(const char *line, const char *key)
{
	size_t n = strlen(key);

	if (strncmp(line, key, n) || (line[n] != '\t' && line[n] != ' ' && line[n] != ':'))
		return NULL;
	line = strchr(line + n, ':');
	if (!line)
		return NULL;
	line++;
	while (*line == ' ')
		line++;
	return line;
}

static void
copy_str(char *dst, size_t size, const char *src)
{
	size_t n = strcspn(src, "\n");

	if (n >= size)
		n = size - 1;
	memcpy(dst, src, n);
	dst[n] = '\0';
	/* The format has no escape for quotes. */
	for (char *p = dst; *p; p++)
		if (*p == '"')
			*p = '\'';
}

static void
parse_cpuinfo(const char *text, struct cpuinfo *ci)
{
	const char *line = text, *v;

	while (line && *line) {
		bool first = ci->nprocs <= 1;

		if ((v = info_value(line, "processor")))
			ci->nprocs++;
		else if (first && (v = info_value(line, "vendor_id")))
			copy_str(ci->vendor, sizeof(ci->vendor), v);
		else if (first && (v = info_value(line, "model name")))
			copy_str(ci->model_name, sizeof(ci->model_name), v);
		else if (first && (v = info_value(line, "cpu family")))
			ci->family = strtoul(v, NULL, 10);
		else if (first && (v = info_value(line, "model")))
			ci->model = strtoul(v, NULL, 10);
		else if (first && (v = info_value(line, "stepping")))
			ci->stepping = strtoul(v, NULL, 10);
		else if (first && (v = info_value(line, "microcode")))
			ci->microcode = strtoul(v, NULL, 0);
		else if (first && (v = info_value(line, "cpu MHz")))
			ci->mhz = strtoul(v, NULL, 10);
		else if (first && (v = info_value(line, "cpuid level")))
			ci->cpuid_level = strtoul(v, NULL, 10);
		else if (first && (v = info_value(line, "cpu cores")))
			ci->cores = strtoul(v, NULL, 10);
		else if (first && (v = info_value(line, "siblings")))
			ci->siblings = strtoul(v, NULL, 10);
		else if ((v = info_value(line, "physical id"))) {
			unsigned long pkg = strtoul(v, NULL, 10);

			if (pkg > ci->max_pkg)
				ci->max_pkg = pkg;
			ci->have_pkg = true;
		}
		line = strchr(line, '\n');
		if (line)
			line++;
	}
}

/* How many CPUs a "%*pbl" list names. */
static unsigned long
list_count(const char *s)
{
	unsigned long n = 0;

	while (*s && *s != '\n') {
		char *end;
		unsigned long a = strtoul(s, &end, 10), b = a;

		if (end == s)
			break;
		if (*end == '-')
			b = strtoul(end + 1, &end, 10);
		n += b >= a ? b - a + 1 : 0;
		s = *end == ',' ? end + 1 : end;
	}
	return n;
}

static unsigned int
count_numa_nodes(const char *root)
{
	struct dirent *de;
	unsigned int n = 0;
	char path[512];
	DIR *d;

	snprintf(path, sizeof(path), "%s" NODE_SYS, root);
	d = opendir(path);

	if (!d)
		return 0;
	while ((de = readdir(d)) != NULL)
		if (!strncmp(de->d_name, "node", 4) && de->d_name[4] >= '0' &&
		    de->d_name[4] <= '9')
			n++;
	closedir(d);
	return n;
}

/* @root's cpu0/cache/index@i/@file. */
static const char *
index_path(char *buf, size_t size, const char *root, unsigned int i,
	   const char *file)
{
	snprintf(buf, size, "%s" CPU_SYS "/cpu0/cache/index%u/%s", root, i, file);
	return buf;
}

static void
capture_caches(struct cap_text *t, const char *root, unsigned long threads)
{
	for (unsigned int i = 0; i < KSIM_CPU_MAX_CACHES; i++) {
		char path[640], type[16] = "", *text;
		uint64_t level = 0, size = 0, ways = 0, line = 0, parts = 1;
		unsigned long sharing = 1;

		if (cap_read_u64(index_path(path, sizeof(path), root, i, "level"), &level) < 0)
			break;
		if ((text = cap_read_file(index_path(path, sizeof(path), root, i, "type"),
					  NULL))) {
			copy_str(type, sizeof(type), text);
			free(text);
		}
		/* "32K": the number, then the unit */
		if ((text = cap_read_file(index_path(path, sizeof(path), root, i, "size"),
					  NULL))) {
			size = strtoull(text, NULL, 10);
			if (strchr(text, 'M'))
				size <<= 10;
			free(text);
		}
		cap_read_u64(index_path(path, sizeof(path), root, i,
					"ways_of_associativity"), &ways);
		cap_read_u64(index_path(path, sizeof(path), root, i,
					"coherency_line_size"), &line);
		cap_read_u64(index_path(path, sizeof(path), root, i,
					"physical_line_partition"), &parts);
		if ((text = cap_read_file(index_path(path, sizeof(path), root, i,
						     "shared_cpu_list"), NULL))) {
			sharing = list_count(text);
			free(text);
		}
		sharing = sharing / (threads ? threads : 1);
		cap_printf(t, "\n[cpu cache %u]\nlevel %llu\ntype %s\nsize %llu\nways %llu\n"
			   "line_size %llu\npartitions %llu\ncores %lu\n", i,
			   (unsigned long long)level, type[0] ? type : "Unified",
			   (unsigned long long)size, (unsigned long long)ways,
			   (unsigned long long)line, (unsigned long long)parts,
			   sharing ? sharing : 1);
	}
}

int
cap_cpu(struct cap_text *t, const char *root)
{
	struct cpuinfo ci = { .cpuid_level = 16 };
	unsigned long sockets, threads, numa;
	char path[512], *text;

	snprintf(path, sizeof(path), "%s/proc/cpuinfo", root);
	text = cap_read_file(path, NULL);

	if (!text)
		return -1;
	parse_cpuinfo(text, &ci);
	free(text);
	if (!ci.nprocs || !ci.vendor[0])
		return -1;	/* not an x86 cpuinfo: derive the CPUs instead */
	sockets = ci.have_pkg ? ci.max_pkg + 1 : 1;
	if (!ci.cores)
		ci.cores = ci.nprocs / sockets;
	threads = ci.siblings && ci.siblings >= ci.cores ? ci.siblings / ci.cores : 1;
	numa = count_numa_nodes(root);
	numa = numa >= sockets ? numa / sockets : 1;
	cap_printf(t, "\n[cpu]\nvendor_id %s\nfamily %lu\nmodel %lu\nstepping %lu\n"
		   "model_name \"%s\"\nmhz %lu\nmicrocode 0x%lx\ncpuid_level %lu\n"
		   "sockets %lu\ncores_per_socket %lu\nthreads_per_core %lu\n"
		   "numa_per_socket %lu\n", ci.vendor, ci.family, ci.model,
		   ci.stepping, ci.model_name[0] ? ci.model_name : "unknown",
		   ci.mhz, ci.microcode, ci.cpuid_level, sockets, ci.cores,
		   threads, numa);
	capture_caches(t, root, threads);
	return 0;
}

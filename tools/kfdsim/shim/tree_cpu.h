/* SPDX-License-Identifier: MIT */
/* The CPU and NUMA side of the virtual tree (tree_cpu.c, tree_numa.c). */
#ifndef KSIM_TREE_CPU_H
#define KSIM_TREE_CPU_H

#include <stdbool.h>
#include <stdint.h>

#include "ksim_profile.h"
#include "tree.h"

/* A set of logical CPUs (a kernel cpumask). */
struct ksim_cpuset {
	uint64_t w[KSIM_CPU_MAX / 64];
};

void ksim_cpuset_clear(struct ksim_cpuset *s);
void ksim_cpuset_set(struct ksim_cpuset *s, unsigned int n);
bool ksim_cpuset_has(const struct ksim_cpuset *s, unsigned int n);

/*
 * ksim_cpuset_print_mask() - the kernel's "%*pb" of @s with @nbits bits
 * (nr_cpu_ids) and a newline: "ff,ffffffff".
 */
void ksim_cpuset_print_mask(struct ksim_buf *out, const struct ksim_cpuset *s,
			    unsigned int nbits);

/* ksim_cpuset_print_list() - the kernel's "%*pbl" and a newline: "0-3,8". */
void ksim_cpuset_print_list(struct ksim_buf *out, const struct ksim_cpuset *s,
			    unsigned int nbits);

/* The CPUs of NUMA node @numa. */
void ksim_cpu_numa_set(const struct ksim_cpu *cpu, unsigned int numa,
		       struct ksim_cpuset *s);

/*
 * /sys/devices/system/cpu and /proc/cpuinfo (and, through ksim_tree_numa(),
 * /sys/devices/system/node), from the profile's CPU side. 0 or -ENOMEM.
 */
int ksim_tree_cpu(struct ksim_vfs *vfs, struct ksim_tree_ctx *ctx);

/* /sys/devices/system/node: the NUMA nodes of the profile. 0 or -ENOMEM. */
int ksim_tree_numa(struct ksim_vfs *vfs, struct ksim_tree_ctx *ctx);

#endif

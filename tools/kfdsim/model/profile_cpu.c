/* SPDX-License-Identifier: MIT */
/*
 * The CPU side of a profile: the shape of the machine's processors (sockets,
 * cores, SMT threads, NUMA nodes per socket, caches), the numbering Linux
 * gives them, and the checks that the KFD CPU nodes describe the same CPUs.
 * The shim renders /proc/cpuinfo and /sys/devices/system/{cpu,node} from
 * it; the thunks match the KFD topology against those files.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "profile_priv.h"

unsigned int
ksim_cpu_count(const struct ksim_cpu *cpu)
{
	uint64_t n = (uint64_t)cpu->sockets * cpu->cores_per_socket *
		     cpu->threads_per_core;

	return n <= KSIM_CPU_MAX ? (unsigned int)n : 0;
}

unsigned int
ksim_cpu_numa_count(const struct ksim_cpu *cpu)
{
	return cpu->sockets * cpu->numa_per_socket;
}

/*
 * Thread 0 of every core first, socket by socket, then thread 1: the order
 * in which AMD server firmware lists the processors (MADT), so Linux's
 * CPU n and n + cores are SMT siblings.
 */
void
ksim_cpu_locate(const struct ksim_cpu *cpu, unsigned int n,
		struct ksim_cpu_pos *pos)
{
	unsigned int cores = cpu->sockets * cpu->cores_per_socket;
	unsigned int rem = n % cores;
	unsigned int per_numa = cpu->cores_per_socket / cpu->numa_per_socket;

	pos->thread = n / cores;
	pos->socket = rem / cpu->cores_per_socket;
	pos->core = rem % cpu->cores_per_socket;
	pos->numa = pos->socket * cpu->numa_per_socket + pos->core / per_numa;
	pos->apicid = (pos->socket * cpu->cores_per_socket + pos->core) *
		      cpu->threads_per_core + pos->thread;
}

unsigned int
ksim_cpu_index(const struct ksim_cpu *cpu, unsigned int socket,
	       unsigned int core, unsigned int thread)
{
	return thread * cpu->sockets * cpu->cores_per_socket +
	       socket * cpu->cores_per_socket + core;
}

unsigned int
ksim_cpu_cache_instance(const struct ksim_cpu *cpu, unsigned int c,
			unsigned int n, unsigned int *first_core)
{
	unsigned int share = cpu->caches[c].cores;
	struct ksim_cpu_pos pos;

	ksim_cpu_locate(cpu, n, &pos);
	if (first_core)
		*first_core = pos.core / share * share;
	return pos.socket * (cpu->cores_per_socket / share) + pos.core / share;
}

/*
 * What every x86-64 processor has (the psABI's baseline: cmov, cx8, fpu,
 * fxsr, mmx, sse, sse2, syscall, plus long mode and the kernel's synthetic
 * bits that name no instruction), in the kernel's print order. Programs
 * run on the host's CPU, whatever the profile says: a library that picks
 * a code path from these flags must not be told of an instruction the
 * host may lack.
 */
static const char baseline_flags[] =
	"fpu vme de pse tsc msr pae mce cx8 apic sep mtrr pge mca cmov pat "
	"pse36 clflush mmx fxsr sse sse2";
static const char baseline_flags_tail[] =
	"syscall nx lm constant_tsc rep_good nopl nonstop_tsc cpuid";

const char *
ksim_cpu_flags(const struct ksim_cpu *cpu)
{
	static char ht[sizeof(baseline_flags) + sizeof(baseline_flags_tail) + 8];
	static char no_ht[sizeof(ht)];

	if (cpu->flags[0])
		return cpu->flags;
	/* Constant text: racing first callers write the same bytes. */
	snprintf(ht, sizeof(ht), "%s ht %s", baseline_flags, baseline_flags_tail);
	snprintf(no_ht, sizeof(no_ht), "%s %s", baseline_flags, baseline_flags_tail);
	return cpu->cores_per_socket * cpu->threads_per_core > 1 ? ht : no_ht;
}

void
ksim_cpu_derive(struct ksim_profile *prof)
{
	struct ksim_cpu *cpu = &prof->cpu;
	static const struct ksim_cpu_cache milan[] = {
		{ 1, "Data", 32, 8, 64, 1, 1 },
		{ 1, "Instruction", 32, 8, 64, 1, 1 },
		{ 2, "Unified", 512, 8, 64, 1, 1 },
		{ 3, "Unified", 32768, 16, 64, 1, 8 },
	};
	unsigned int cpu_nodes = 0, cores = 0;

	for (unsigned int i = 0; i < prof->n_nodes; i++) {
		if (ksim_node_is_gpu(&prof->nodes[i]))
			continue;
		if (!cpu_nodes)
			cores = (unsigned int)prof->nodes[i].props[KSIM_NP_CPU_CORES_COUNT];
		cpu_nodes++;
	}
	memset(cpu, 0, sizeof(*cpu));
	snprintf(cpu->vendor_id, sizeof(cpu->vendor_id), "AuthenticAMD");
	snprintf(cpu->model_name, sizeof(cpu->model_name), "AMD EPYC Processor");
	cpu->family = 25;
	cpu->model = 1;
	cpu->stepping = 1;
	cpu->mhz = 2000;
	cpu->cpuid_level = 16;
	cpu->sockets = cpu_nodes ? cpu_nodes : 1;
	cpu->cores_per_socket = cores ? cores : 1;
	if (cpu->sockets * (uint64_t)cpu->cores_per_socket > KSIM_CPU_MAX)
		cpu->cores_per_socket = KSIM_CPU_MAX / cpu->sockets;
	cpu->threads_per_core = 1;
	cpu->numa_per_socket = 1;
	for (unsigned int c = 0; c < sizeof(milan) / sizeof(milan[0]); c++) {
		cpu->caches[c] = milan[c];
		/* An L3 per socket when 8 does not divide the cores. */
		if (cpu->cores_per_socket % cpu->caches[c].cores)
			cpu->caches[c].cores = cpu->cores_per_socket;
	}
	cpu->n_caches = sizeof(milan) / sizeof(milan[0]);
	cpu->derived = 1;
}

static int
fail(char **err, int *bad_node, const char **bad_key, int node, const char *key,
     const char *fmt, ...) __attribute__((format(printf, 6, 7)));

static int
fail(char **err, int *bad_node, const char **bad_key, int node, const char *key,
     const char *fmt, ...)
{
	char msg[320];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	ksim_errf(err, "%s", msg);
	*bad_node = node;
	*bad_key = key;
	return -EINVAL;
}

static int
check_cache(const struct ksim_cpu *cpu, unsigned int c, char **err,
	    int *bad_node, const char **bad_key)
{
	const struct ksim_cpu_cache *k = &cpu->caches[c];

	if (k->level < 1 || k->level > 4)
		return fail(err, bad_node, bad_key, -1, "level",
			    "cpu cache %u: level %u is not 1..4", c, k->level);
	if (strcmp(k->type, "Data") && strcmp(k->type, "Instruction") &&
	    strcmp(k->type, "Unified"))
		return fail(err, bad_node, bad_key, -1, "type",
			    "cpu cache %u: type '%s' is not Data, Instruction or "
			    "Unified", c, k->type);
	if (!k->size || !k->ways || !k->line_size || !k->partitions ||
	    (uint64_t)k->size * 1024 % ((uint64_t)k->ways * k->line_size *
					k->partitions))
		return fail(err, bad_node, bad_key, -1, "size",
			    "cpu cache %u: size %u KiB is not a whole number of "
			    "sets of ways (%u) x line_size (%u) x partitions (%u)",
			    c, k->size, k->ways, k->line_size, k->partitions);
	if (!k->cores || cpu->cores_per_socket % k->cores)
		return fail(err, bad_node, bad_key, -1, "cores",
			    "cpu cache %u: cores %u does not divide "
			    "cores_per_socket %u", c, k->cores,
			    cpu->cores_per_socket);
	return 0;
}

int
ksim_cpu_validate(const struct ksim_profile *prof, int *bad_node,
		  const char **bad_key, int *bad_cache, char **err)
{
	const struct ksim_cpu *cpu = &prof->cpu;
	unsigned int numa = 0, total, per_numa;
	int dummy_node, dummy_cache;
	const char *dummy_key;

	if (!bad_node)
		bad_node = &dummy_node;
	if (!bad_key)
		bad_key = &dummy_key;
	if (!bad_cache)
		bad_cache = &dummy_cache;
	*bad_cache = -1;
	if (!cpu->vendor_id[0])
		return fail(err, bad_node, bad_key, -1, "vendor_id",
			    "cpu: vendor_id is empty");
	if (!cpu->model_name[0])
		return fail(err, bad_node, bad_key, -1, "model_name",
			    "cpu: model_name is empty");
	if (!cpu->sockets)
		return fail(err, bad_node, bad_key, -1, "sockets",
			    "cpu: sockets must be at least 1");
	if (!cpu->cores_per_socket)
		return fail(err, bad_node, bad_key, -1, "cores_per_socket",
			    "cpu: cores_per_socket must be at least 1");
	if (!cpu->threads_per_core || cpu->threads_per_core > 8)
		return fail(err, bad_node, bad_key, -1, "threads_per_core",
			    "cpu: threads_per_core must be 1..8");
	total = ksim_cpu_count(cpu);
	if (!total)
		return fail(err, bad_node, bad_key, -1, "cores_per_socket",
			    "cpu: more than %u logical CPUs", KSIM_CPU_MAX);
	if (!cpu->numa_per_socket ||
	    cpu->cores_per_socket % cpu->numa_per_socket)
		return fail(err, bad_node, bad_key, -1, "numa_per_socket",
			    "cpu: numa_per_socket %u does not divide "
			    "cores_per_socket %u", cpu->numa_per_socket,
			    cpu->cores_per_socket);
	if (cpu->n_caches > KSIM_CPU_MAX_CACHES)
		return fail(err, bad_node, bad_key, -1, NULL,
			    "cpu: more than %u caches", KSIM_CPU_MAX_CACHES);
	for (unsigned int c = 0; c < cpu->n_caches; c++) {
		if (check_cache(cpu, c, err, bad_node, bad_key)) {
			*bad_cache = (int)c;
			return -EINVAL;
		}
	}
	if (cpu->derived)
		return 0;	/* made from the nodes: nothing to contradict */

	per_numa = cpu->cores_per_socket / cpu->numa_per_socket *
		   cpu->threads_per_core;
	for (unsigned int i = 0; i < prof->n_nodes; i++) {
		const struct ksim_node *n = &prof->nodes[i];
		struct ksim_cpu_pos pos;
		unsigned int first;

		if (ksim_node_is_gpu(n))
			continue;
		if (numa >= ksim_cpu_numa_count(cpu))
			return fail(err, bad_node, bad_key, (int)i, NULL,
				    "node %u: a CPU node beyond the %u NUMA nodes "
				    "of [cpu] (sockets %u x numa_per_socket %u)",
				    i, ksim_cpu_numa_count(cpu), cpu->sockets,
				    cpu->numa_per_socket);
		if (n->props[KSIM_NP_CPU_CORES_COUNT] != per_numa)
			return fail(err, bad_node, bad_key, (int)i,
				    "cpu_cores_count",
				    "node %u: cpu_cores_count %llu, but NUMA node "
				    "%u of [cpu] has %u logical CPUs", i,
				    (unsigned long long)n->props[KSIM_NP_CPU_CORES_COUNT],
				    numa, per_numa);
		first = ksim_cpu_index(cpu, numa / cpu->numa_per_socket,
				       numa % cpu->numa_per_socket *
				       (cpu->cores_per_socket / cpu->numa_per_socket), 0);
		ksim_cpu_locate(cpu, first, &pos);
		if (n->props[KSIM_NP_CPU_CORE_ID_BASE] != pos.apicid)
			return fail(err, bad_node, bad_key, (int)i,
				    "cpu_core_id_base",
				    "node %u: cpu_core_id_base %llu, but the first "
				    "CPU of NUMA node %u (cpu%u) has APIC ID %u", i,
				    (unsigned long long)n->props[KSIM_NP_CPU_CORE_ID_BASE],
				    numa, first, pos.apicid);
		numa++;
	}
	if (numa && numa != ksim_cpu_numa_count(cpu))
		return fail(err, bad_node, bad_key, -1, "sockets",
			    "cpu: %u NUMA nodes (sockets %u x numa_per_socket %u) "
			    "but %u KFD CPU nodes", ksim_cpu_numa_count(cpu),
			    cpu->sockets, cpu->numa_per_socket, numa);
	return 0;
}

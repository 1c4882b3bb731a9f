/* SPDX-License-Identifier: MIT */
/*
 * How many CPUs the machine has, as the profile says. glibc's get_nprocs()
 * and get_nprocs_conf() read /sys/devices/system/cpu through internal
 * calls that no wrapper of ours sees, and sysconf(_SC_NPROCESSORS_ONLN /
 * _CONF) calls them internally too; so all three are answered here.
 * Callers size arrays by these numbers and index them with the CPU numbers
 * of /proc/cpuinfo and the cache shared_cpu_map files (AMD's thunk does),
 * which come from the profile: the counts must too.
 *
 * Everything else sysconf() knows (page size, physical pages, ...) is the
 * host's and is forwarded, straight to glibc's __sysconf: a sanitizer's
 * runtime asks sysconf(_SC_SIGSTKSZ) while it initialises, before any
 * instrumented code may run, so the wrappers themselves are not
 * instrumented and that path touches nothing of ours.
 */
#include <sys/sysinfo.h>
#include <unistd.h>

#include "tree.h"

/* glibc's own entry point behind sysconf() (exported since 2.2.5). */
extern long __sysconf(int name);

#define KSIM_NO_SANITIZE \
	__attribute__((no_sanitize("address", "thread", "undefined")))

/* The profile's CPU count, or 0 when libc should answer. */
static int
sim_cpus(void)
{
	struct ksim_vfs *vfs;
	const struct ksim_tree_ctx *ctx;
	int n = 0;

	if (ksim_in_shim)
		return 0;
	vfs = ksim_state_vfs();
	if (!vfs)
		return 0;
	ctx = vfs->ctx;
	if (ctx && ctx->prof)
		n = (int)ksim_cpu_count(&ctx->prof->cpu);
	return n;
}

KSIM_EXPORT KSIM_NO_SANITIZE int
get_nprocs(void)
{
	int n = sim_cpus();

	if (n > 0)
		return n;
	ksim_real_init();
	return ksim_real.get_nprocs();
}

KSIM_EXPORT KSIM_NO_SANITIZE int
get_nprocs_conf(void)
{
	int n = sim_cpus();

	if (n > 0)
		return n;
	ksim_real_init();
	return ksim_real.get_nprocs_conf();
}

KSIM_EXPORT KSIM_NO_SANITIZE long
sysconf(int name)
{
	if (name == _SC_NPROCESSORS_ONLN || name == _SC_NPROCESSORS_CONF) {
		int n = sim_cpus();

		if (n > 0)
			return n;
	}
	return __sysconf(name);
}

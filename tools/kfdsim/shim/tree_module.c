/* SPDX-License-Identifier: MIT */
/*
 * The amdgpu kernel module as lsmod sees it. rocminfo runs
 * `lsmod | grep amdgpu` and gives up when nothing matches; lsmod (libkmod)
 * reads /proc/modules, then per module /sys/module/<name>/{coresize,refcnt}
 * and the holders directory. /proc/modules keeps the machine's real lines,
 * if it has the file, and gains an amdgpu line.
 *
 * /sys/module/amdgpu/parameters holds the module parameters programs read
 * (kfdtest: cwsr_enable, emu_mode; the capture tool: sched_policy), with
 * amdgpu's defaults and the profile's scheduling policy, printed as the
 * kernel prints each type (int "%d", uint "%u", bool "Y"/"N").
 */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include "tree.h"

/* About what amdgpu's core takes on a 6.x kernel; nothing depends on it. */
#define AMDGPU_CORESIZE	9064448

static void
read_real_file(const char *path, struct ksim_buf *out)
{
	char chunk[4096];
	ssize_t n;
	int fd = ksim_real.open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return;
	while ((n = read(fd, chunk, sizeof(chunk))) > 0)
		ksim_buf_put(out, chunk, (size_t)n);
	ksim_real.close(fd);
}

static bool
has_module_line(const struct ksim_buf *b, const char *name)
{
	size_t len = strlen(name);
	const char *p = b->data;

	while (p && *p) {
		if (strncmp(p, name, len) == 0 && p[len] == ' ')
			return true;
		p = strchr(p, '\n');
		if (p)
			p++;
	}
	return false;
}

static int
render_proc_modules(const struct ksim_vnode *n, struct ksim_buf *out)
{
	read_real_file("/proc/modules", out);
	if (out->len && out->data[out->len - 1] != '\n')
		ksim_buf_put(out, "\n", 1);
	if (!has_module_line(out, "amdgpu"))
		ksim_buf_printf(out, "amdgpu %u 0 - Live 0x0000000000000000\n",
				AMDGPU_CORESIZE);
	return 0;
}

/* One module parameter: its name, mode, and amdgpu's default as printed. */
struct module_param {
	const char *name;
	unsigned int mode;
	const char *value;
};

/*
 * amdgpu's KFD and fault-handling parameters a compute program may read
 * (amdgpu_drv.c), sched_policy aside. Root-only (0600) ones are left out.
 */
static const struct module_param amdgpu_params[] = {
	{ "cwsr_enable", 0444, "1" },
	{ "debug_evictions", 0644, "N" },
	{ "emu_mode", 0444, "0" },
	{ "gpu_recovery", 0444, "-1" },
	{ "halt_if_hws_hang", 0644, "0" },
	{ "hws_gws_support", 0444, "N" },
	{ "hws_max_conc_proc", 0444, "-1" },
	{ "max_num_of_queues_per_device", 0444, "4096" },
	{ "mes", 0444, "0" },
	{ "mtype_local", 0444, "0" },
	{ "no_system_mem_limit", 0644, "N" },
	{ "noretry", 0644, "-1" },
	{ "queue_preemption_timeout_ms", 0644, "9000" },
	{ "ras_enable", 0444, "-1" },
	{ "ras_mask", 0444, "4294967295" },
	{ "send_sigterm", 0444, "0" },
	{ "vm_fault_stop", 0444, "0" },
};

/* The scheduling policy is a module parameter: one value for all GPUs. */
static uint32_t
sched_policy(const struct ksim_profile *prof)
{
	for (unsigned int i = 0; i < prof->n_nodes; i++)
		if (prof->nodes[i].gpu)
			return prof->nodes[i].gpu->sched_policy;
	return 0;
}

int
ksim_tree_module(struct ksim_vfs *vfs, struct ksim_tree_ctx *ctx)
{
	char text[32];

	if (!ksim_vfs_add_file(vfs, "/proc/modules", 0444, render_proc_modules, ctx, 0))
		return -ENOMEM;
	if (!ksim_vfs_mkdir(vfs, "/sys/module/amdgpu", true) ||
	    !ksim_vfs_mkdir(vfs, "/sys/module/amdgpu/holders", true) ||
	    !ksim_vfs_mkdir(vfs, "/sys/module/amdgpu/parameters", true))
		return -ENOMEM;
	snprintf(text, sizeof(text), "%u\n", AMDGPU_CORESIZE);
	if (!ksim_vfs_add_text(vfs, "/sys/module/amdgpu/coresize", 0444, text) ||
	    !ksim_vfs_add_text(vfs, "/sys/module/amdgpu/initsize", 0444, "0\n") ||
	    !ksim_vfs_add_text(vfs, "/sys/module/amdgpu/initstate", 0444, "live\n") ||
	    !ksim_vfs_add_text(vfs, "/sys/module/amdgpu/refcnt", 0444, "0\n") ||
	    !ksim_vfs_add_text(vfs, "/sys/module/amdgpu/taint", 0444, "\n"))
		return -ENOMEM;
	snprintf(text, sizeof(text), "%u\n", sched_policy(ctx->prof));
	if (!ksim_vfs_add_text(vfs, "/sys/module/amdgpu/parameters/sched_policy", 0444, text))
		return -ENOMEM;
	for (size_t i = 0; i < sizeof(amdgpu_params) / sizeof(amdgpu_params[0]); i++) {
		const struct module_param *m = &amdgpu_params[i];
		char path[96];

		snprintf(path, sizeof(path), "/sys/module/amdgpu/parameters/%s", m->name);
		snprintf(text, sizeof(text), "%s\n", m->value);
		if (!ksim_vfs_add_text(vfs, path, m->mode, text))
			return -ENOMEM;
	}
	return 0;
}

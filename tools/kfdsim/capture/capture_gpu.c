/* SPDX-License-Identifier: MIT */
/*
 * Capturing a machine: one GPU's facts beyond sysfs. Asked of the render
 * node (DRM_IOCTL_VERSION, AMDGPU_INFO DEV_INFO / VRAM_GTT / MEMORY) and of
 * /dev/kfd (GET_PROCESS_APERTURES_NEW, ACQUIRE_VM + AVAILABLE_MEMORY,
 * GET_TILE_CONFIG, SET_XNACK_MODE), the PCI identity from the render
 * node's sysfs device, and the rest derived from the gfx version with the
 * kernel's formulas (kfd_queue.c, kfd_doorbell.c, kfd_device.c).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "capture_priv.h"
#include "kfdtrace/drm_abi.h"
#include "kfdtrace/kfd_abi.h"

#define ALIGN_UP(x, a)	(((x) + (a) - 1) / (a) * (a))
#define MAX_APERTURES	64
#define MAX_TILES	64

/* The node properties cap_gpu() needs. */
struct gpu_props {
	uint64_t gfx;		/* gfx_target_version, e.g. 90010 */
	uint64_t simd_count, simd_per_cu, array_count, simd_arrays_per_engine;
	uint64_t num_xcc, num_gws, cpu_cores_count, render_minor;
	uint64_t cwsr_size, ctl_stack_size;
	bool has_cwsr, has_ctl_stack;
	uint64_t domain, location_id;
};

static int
ioctl_retry(int fd, unsigned long req, void *arg)
{
	int ret;

	do {
		ret = ioctl(fd, req, arg);
	} while (ret < 0 && (errno == EINTR || errno == EAGAIN));
	return ret;
}

static int
drm_info(int fd, uint32_t query, void *out, uint32_t size)
{
	struct kfd_drm_amdgpu_info req;

	memset(&req, 0, sizeof(req));
	memset(out, 0, size);
	req.return_pointer = (uintptr_t)out;
	req.return_size = size;
	req.query = query;
	return ioctl_retry(fd, KFD_DRM_IOCTL_AMDGPU_INFO, &req);
}

/*
 * Derived CWSR sizes (kfd_queue_ctx_save_restore_size): what newer kernels
 * print as cwsr_size / ctl_stack_size, for kernels that do not.
 */
static void
derive_cwsr(const struct gpu_props *p, uint64_t *ctl_stack, uint64_t *cwsr,
	    uint64_t *debug_mem)
{
	uint64_t xcc = p->num_xcc ? p->num_xcc : 1;
	uint64_t cu = p->simd_per_cu ? p->simd_count / p->simd_per_cu / xcc : 0;
	bool gfx10plus = p->gfx >= 100100;
	uint64_t waves, vgpr, per_cu;

	if (gfx10plus) {
		waves = cu * 32;
	} else {
		uint64_t se = p->simd_arrays_per_engine ? p->array_count / p->simd_arrays_per_engine : 0;

		waves = cu * 40 < se * 512 ? cu * 40 : se * 512;
	}
	*ctl_stack = ALIGN_UP(40 + waves * (gfx10plus ? 12 : 8) + 8, 4096);
	if (p->gfx >= 100100 && p->gfx < 110000 && *ctl_stack > 0x7000)
		*ctl_stack = 0x7000;
	switch (p->gfx) {
	case 90008: case 90010: case 90400: case 90401: case 90402: case 90500:
		vgpr = 0x80000;
		break;
	case 110000: case 110001: case 120000: case 120001:
		vgpr = 0x60000;
		break;
	default:
		vgpr = 0x40000;
		break;
	}
	per_cu = vgpr + 0x4000 + 0x10000 + 0x1000;
	*cwsr = *ctl_stack + ALIGN_UP(cu * per_cu, 4096);
	*debug_mem = ALIGN_UP(waves * 32, 64);
}

static void
read_props(const char *props, struct gpu_props *p)
{
	memset(p, 0, sizeof(*p));
	cap_prop(props, "gfx_target_version", &p->gfx);
	cap_prop(props, "simd_count", &p->simd_count);
	cap_prop(props, "simd_per_cu", &p->simd_per_cu);
	cap_prop(props, "array_count", &p->array_count);
	cap_prop(props, "simd_arrays_per_engine", &p->simd_arrays_per_engine);
	cap_prop(props, "num_xcc", &p->num_xcc);
	cap_prop(props, "num_gws", &p->num_gws);
	cap_prop(props, "cpu_cores_count", &p->cpu_cores_count);
	cap_prop(props, "drm_render_minor", &p->render_minor);
	cap_prop(props, "domain", &p->domain);
	cap_prop(props, "location_id", &p->location_id);
	p->has_cwsr = cap_prop(props, "cwsr_size", &p->cwsr_size);
	p->has_ctl_stack = cap_prop(props, "ctl_stack_size", &p->ctl_stack_size);
}

/* Open /dev/kfd once, and learn the process's XNACK mode and capability. */
static int
kfd_open_once(struct cap_ctx *c)
{
	struct kfd_abi_set_xnack_mode_args x;

	if (c->kfd_fd < 0) {
		c->kfd_fd = open("/dev/kfd", O_RDWR | O_CLOEXEC);
		if (c->kfd_fd < 0) {
			cap_error(c, "/dev/kfd: %s", strerror(errno));
			return -1;
		}
		/*
		 * XNACK is per process: query it, then see whether it can be
		 * turned on (EPERM when a GPU cannot), and put it back.
		 */
		c->xnack_default = 0;
		c->xnack_capable = 0;
		x.xnack_enabled = -1;
		if (ioctl_retry(c->kfd_fd, KFD_ABI_IOC_SET_XNACK_MODE, &x) == 0) {
			c->xnack_default = x.xnack_enabled > 0;
			x.xnack_enabled = 1;
			if (ioctl_retry(c->kfd_fd, KFD_ABI_IOC_SET_XNACK_MODE, &x) == 0) {
				c->xnack_capable = 1;
				x.xnack_enabled = c->xnack_default;
				ioctl_retry(c->kfd_fd, KFD_ABI_IOC_SET_XNACK_MODE, &x);
			}
		}
	}
	return 0;
}

static int
find_apertures(struct cap_ctx *c, uint32_t gpu_id, struct kfd_abi_process_device_apertures *out)
{
	struct kfd_abi_process_device_apertures ap[MAX_APERTURES];
	struct kfd_abi_get_process_apertures_new_args args;

	memset(ap, 0, sizeof(ap));
	memset(&args, 0, sizeof(args));
	args.kfd_process_device_apertures_ptr = (uintptr_t)ap;
	args.num_of_nodes = MAX_APERTURES;
	if (ioctl_retry(c->kfd_fd, KFD_ABI_IOC_GET_PROCESS_APERTURES_NEW, &args) < 0) {
		cap_error(c, "GET_PROCESS_APERTURES_NEW: %s", strerror(errno));
		return -1;
	}
	for (uint32_t i = 0; i < args.num_of_nodes && i < MAX_APERTURES; i++) {
		if (ap[i].gpu_id == gpu_id) {
			*out = ap[i];
			return 0;
		}
	}
	cap_error(c, "GET_PROCESS_APERTURES_NEW has no entry for gpu_id %u", gpu_id);
	return -1;
}

/* PCI identity and card minor from the render node's sysfs device. */
static void
read_pci(unsigned int minor, uint32_t *domain, uint32_t *bus, uint32_t *dev,
	 uint32_t *func, uint64_t *subvendor, uint64_t *subdevice, int *card)
{
	char path[256], *uevent, *slot;
	struct dirent *de;
	DIR *d;

	snprintf(path, sizeof(path), "/sys/class/drm/renderD%u/device/uevent", minor);
	uevent = cap_read_file(path, NULL);
	if (uevent && (slot = strstr(uevent, "PCI_SLOT_NAME=")) != NULL) {
		unsigned int dm, b, dv, f;

		if (sscanf(slot + 14, "%x:%x:%x.%u", &dm, &b, &dv, &f) == 4) {
			*domain = dm;
			*bus = b;
			*dev = dv;
			*func = f;
		}
	}
	free(uevent);
	snprintf(path, sizeof(path), "/sys/class/drm/renderD%u/device/subsystem_vendor", minor);
	cap_read_u64(path, subvendor);
	snprintf(path, sizeof(path), "/sys/class/drm/renderD%u/device/subsystem_device", minor);
	cap_read_u64(path, subdevice);
	snprintf(path, sizeof(path), "/sys/class/drm/renderD%u/device/drm", minor);
	d = opendir(path);
	if (!d)
		return;
	while ((de = readdir(d)) != NULL) {
		unsigned int n;
		char tail;

		if (sscanf(de->d_name, "card%u%c", &n, &tail) == 1)
			*card = (int)n;
	}
	closedir(d);
}

/*
 * The lowest DPM level of a clock, in kHz, from amdgpu's pp_dpm_sclk or
 * pp_dpm_mclk ("0: 500Mhz"); 0 when the file is missing.
 */
static uint64_t
read_min_clock(unsigned int minor, const char *file)
{
	char path[128], *text;
	unsigned int level, mhz;
	uint64_t khz = 0;

	snprintf(path, sizeof(path), "/sys/class/drm/renderD%u/device/%s", minor, file);
	text = cap_read_file(path, NULL);
	if (text && sscanf(text, "%u: %uMhz", &level, &mhz) == 2)
		khz = (uint64_t)mhz * 1000;
	free(text);
	return khz;
}

/* DEV_INFO as Debian's libdrm lays it out, and what else emit_drm prints. */
struct dev_info_ext {
	struct kfd_drm_amdgpu_info_device base;
	uint64_t min_engine_clock;	/* kHz, from pp_dpm_sclk */
	uint64_t min_memory_clock;	/* kHz, from pp_dpm_mclk */
};

static void
emit_drm(struct cap_ctx *c, unsigned int node, unsigned int minor, int card,
	 const struct kfd_drm_version *ver, const struct dev_info_ext *di,
	 const struct kfd_drm_amdgpu_memory_info *mem, uint32_t domain, uint32_t bus,
	 uint32_t dev, uint32_t func, uint64_t subvendor, uint64_t subdevice)
{
	const struct kfd_drm_amdgpu_info_device *d = &di->base;
	struct cap_text *t = &c->text;

	cap_printf(t, "\n[node %u drm]\nrender_minor %u\ncard_minor %d\n", node, minor,
		   card < 0 ? 0 : card);
	cap_printf(t, "version_major %d\nversion_minor %d\nversion_patch %d\n",
		   ver->version_major, ver->version_minor, ver->version_patchlevel);
	cap_printf(t, "pci_domain %u\npci_bus %u\npci_dev %u\npci_func %u\n", domain, bus,
		   dev, func);
	cap_printf(t, "subsystem_vendor 0x%llx\nsubsystem_device 0x%llx\n",
		   (unsigned long long)subvendor, (unsigned long long)subdevice);
	cap_printf(t, "device_id 0x%x\nchip_rev %u\nexternal_rev 0x%x\npci_rev 0x%x\n",
		   d->device_id, d->chip_rev, d->external_rev, d->pci_rev);
	cap_printf(t, "family %u\nnum_shader_engines %u\nnum_shader_arrays_per_engine %u\n",
		   d->family, d->num_shader_engines, d->num_shader_arrays_per_engine);
	cap_printf(t, "gpu_counter_freq %u\nmax_engine_clock %llu\nmax_memory_clock %llu\n",
		   d->gpu_counter_freq, (unsigned long long)d->max_engine_clock,
		   (unsigned long long)d->max_memory_clock);
	cap_printf(t, "min_engine_clock %llu\nmin_memory_clock %llu\n",
		   (unsigned long long)di->min_engine_clock,
		   (unsigned long long)di->min_memory_clock);
	cap_printf(t, "cu_active_number %u\ncu_ao_mask 0x%x\ncu_bitmap ", d->cu_active_number,
		   d->cu_ao_mask);
	for (int i = 0; i < 16; i++)
		cap_printf(t, "%s0x%x", i ? "," : "", d->cu_bitmap[i / 4][i % 4]);
	cap_printf(t, "\nenabled_rb_pipes_mask 0x%x\nnum_rb_pipes %u\nnum_hw_gfx_contexts %u\n",
		   d->enabled_rb_pipes_mask, d->num_rb_pipes, d->num_hw_gfx_contexts);
	cap_printf(t, "ids_flags 0x%llx\nvirtual_address_offset 0x%llx\n"
		   "virtual_address_max 0x%llx\nvirtual_address_alignment %u\n",
		   (unsigned long long)d->ids_flags,
		   (unsigned long long)d->virtual_address_offset,
		   (unsigned long long)d->virtual_address_max, d->virtual_address_alignment);
	cap_printf(t, "pte_fragment_size %u\ngart_page_size %u\nvram_type %u\n"
		   "vram_bit_width %u\n", d->pte_fragment_size, d->gart_page_size,
		   d->vram_type, d->vram_bit_width);
	cap_printf(t, "wave_front_size %u\nnum_shader_visible_vgprs %u\nnum_cu_per_sh %u\n"
		   "num_tcc_blocks %u\n", d->wave_front_size, d->num_shader_visible_vgprs,
		   d->num_cu_per_sh, d->num_tcc_blocks);
	cap_printf(t, "high_va_offset 0x%llx\nhigh_va_max 0x%llx\n",
		   (unsigned long long)d->high_va_offset, (unsigned long long)d->high_va_max);
	/* MEMORY's totals are the real sizes; VRAM_GTT's are net of reserves */
	cap_printf(t, "vram_size %llu\nvisible_vram_size %llu\ngtt_size %llu\n",
		   (unsigned long long)mem->vram.total_heap_size,
		   (unsigned long long)mem->cpu_accessible_vram.total_heap_size,
		   (unsigned long long)mem->gtt.total_heap_size);
	cap_board(c, minor);
}

int
cap_gpu(struct cap_ctx *c, unsigned int node, uint32_t gpu_id, const char *props)
{
	struct kfd_abi_process_device_apertures ap;
	struct kfd_abi_get_available_memory_args avail;
	struct kfd_abi_get_tile_config_args tiles;
	struct kfd_abi_acquire_vm_args vm;
	struct kfd_drm_amdgpu_memory_info mem;
	struct kfd_drm_version ver;
	struct dev_info_ext di;
	uint32_t tile_buf[MAX_TILES], macro_buf[MAX_TILES];
	uint32_t domain = 0, bus = 0, dev = 0, func = 0;
	uint64_t subvendor = 0, subdevice = 0, sched_policy = 0;
	uint64_t ctl_stack, cwsr, debug_mem, vram_reserved = 0;
	int card = -1, fd = -1, ret = -1;
	struct gpu_props p;
	char path[64], name[64];
	bool soc15, large_bar;

	read_props(props, &p);
	if (!p.render_minor) {
		cap_error(c, "GPU node %u has no drm_render_minor", node);
		return -1;
	}
	if (kfd_open_once(c) < 0)
		return -1;
	snprintf(path, sizeof(path), "/dev/dri/renderD%u", (unsigned int)p.render_minor);
	fd = open(path, O_RDWR | O_CLOEXEC);
	if (fd < 0) {
		cap_error(c, "%s: %s", path, strerror(errno));
		return -1;
	}

	memset(&ver, 0, sizeof(ver));
	ver.name = (uintptr_t)name;
	ver.name_len = sizeof(name) - 1;
	memset(name, 0, sizeof(name));
	if (ioctl_retry(fd, KFD_DRM_IOCTL_VERSION, &ver) < 0) {
		cap_error(c, "%s: DRM_IOCTL_VERSION: %s", path, strerror(errno));
		goto out;
	}
	if (drm_info(fd, KFD_DRM_AMDGPU_INFO_DEV_INFO, &di.base, sizeof(di.base)) < 0 ||
	    drm_info(fd, KFD_DRM_AMDGPU_INFO_MEMORY, &mem, sizeof(mem)) < 0) {
		cap_error(c, "%s: AMDGPU_INFO: %s", path, strerror(errno));
		goto out;
	}
	if (find_apertures(c, gpu_id, &ap) < 0)
		goto out;

	/* What KFD keeps back of VRAM: the size minus what a fresh VM may take. */
	memset(&vm, 0, sizeof(vm));
	vm.drm_fd = (uint32_t)fd;
	vm.gpu_id = gpu_id;
	memset(&avail, 0, sizeof(avail));
	avail.gpu_id = gpu_id;
	if (ioctl_retry(c->kfd_fd, KFD_ABI_IOC_ACQUIRE_VM, &vm) == 0 &&
	    ioctl_retry(c->kfd_fd, KFD_ABI_IOC_AVAILABLE_MEMORY, &avail) == 0 &&
	    avail.available <= mem.vram.total_heap_size)
		vram_reserved = mem.vram.total_heap_size - avail.available;

	memset(&tiles, 0, sizeof(tiles));
	tiles.tile_config_ptr = (uintptr_t)tile_buf;
	tiles.macro_tile_config_ptr = (uintptr_t)macro_buf;
	tiles.num_tile_configs = MAX_TILES;
	tiles.num_macro_tile_configs = MAX_TILES;
	tiles.gpu_id = gpu_id;
	if (ioctl_retry(c->kfd_fd, KFD_ABI_IOC_GET_TILE_CONFIG, &tiles) < 0) {
		cap_error(c, "GET_TILE_CONFIG gpu_id %u: %s", gpu_id, strerror(errno));
		goto out;
	}

	read_pci((unsigned int)p.render_minor, &domain, &bus, &dev, &func, &subvendor,
		 &subdevice, &card);
	di.min_engine_clock = read_min_clock((unsigned int)p.render_minor, "pp_dpm_sclk");
	di.min_memory_clock = read_min_clock((unsigned int)p.render_minor, "pp_dpm_mclk");
	cap_read_u64("/sys/module/amdgpu/parameters/sched_policy", &sched_policy);

	derive_cwsr(&p, &ctl_stack, &cwsr, &debug_mem);
	if (p.has_ctl_stack)
		ctl_stack = p.ctl_stack_size;
	if (p.has_cwsr)
		cwsr = p.cwsr_size;
	soc15 = p.gfx >= 90000;
	large_bar = mem.cpu_accessible_vram.total_heap_size &&
		    mem.cpu_accessible_vram.total_heap_size >= mem.vram.total_heap_size;

	cap_printf(&c->text, "\n[node %u gpu]\n", node);
	cap_printf(&c->text, "lds_base 0x%llx\nlds_limit 0x%llx\nscratch_base 0x%llx\n"
		   "scratch_limit 0x%llx\ngpuvm_base 0x%llx\ngpuvm_limit 0x%llx\n",
		   (unsigned long long)ap.lds_base, (unsigned long long)ap.lds_limit,
		   (unsigned long long)ap.scratch_base, (unsigned long long)ap.scratch_limit,
		   (unsigned long long)ap.gpuvm_base, (unsigned long long)ap.gpuvm_limit);
	cap_printf(&c->text, "doorbell_size %u\ndoorbell_slice %u\nsoc15 %u\n",
		   soc15 ? 8 : 4, soc15 ? 8192 : 4096, soc15);
	cap_printf(&c->text, "eop_buffer_size 4096\nctl_stack_size %llu\ncwsr_size %llu\n"
		   "debug_memory_size %llu\n", (unsigned long long)ctl_stack,
		   (unsigned long long)cwsr, (unsigned long long)debug_mem);
	cap_printf(&c->text, "large_bar %u\nis_apu %u\nxnack_capable %d\nxnack_default %d\n",
		   large_bar, p.cpu_cores_count > 0, c->xnack_capable, c->xnack_default);
	/*
	 * GC 9.4.3, 9.4.4 and 9.5.0 (gfx940..gfx942, gfx950) allow 255 user
	 * queues per process and device, the rest 127.
	 */
	cap_printf(&c->text, "sched_policy %llu\nmax_queues %u\nnum_gws %llu\n",
		   (unsigned long long)sched_policy,
		   (p.gfx >= 90400 && p.gfx < 100000) ? 255 : 127,
		   (unsigned long long)p.num_gws);
	cap_printf(&c->text, "gpu_clock_hz %llu\nvram_size %llu\nvram_reserved %llu\n",
		   (unsigned long long)di.base.gpu_counter_freq * 1000,
		   (unsigned long long)mem.vram.total_heap_size,
		   (unsigned long long)vram_reserved);
	cap_printf(&c->text, "gb_addr_config 0x%x\nnum_banks %u\nnum_ranks %u\n"
		   "num_tile_configs %u\nnum_macro_tile_configs %u\n", tiles.gb_addr_config,
		   tiles.num_banks, tiles.num_ranks, tiles.num_tile_configs,
		   tiles.num_macro_tile_configs);
	emit_drm(c, node, (unsigned int)p.render_minor, card, &ver, &di, &mem, domain, bus,
		 dev, func, subvendor, subdevice);
	ret = 0;
out:
	/* KFD keeps the acquired VM: the render fd stays open until the end. */
	if (ret < 0 || c->n_render >= sizeof(c->render_fds) / sizeof(c->render_fds[0]))
		close(fd);
	else
		c->render_fds[c->n_render++] = fd;
	return ret;
}

void
cap_gpu_finish(struct cap_ctx *c)
{
	while (c->n_render > 0)
		close(c->render_fds[--c->n_render]);
	if (c->kfd_fd >= 0)
		close(c->kfd_fd);
	c->kfd_fd = -1;
}

/* SPDX-License-Identifier: MIT */
/*
 * libFuzzer target: kfdsim's device-profile parser (ksim_profile_parse(),
 * the text format of ksim_profile.h) on arbitrary text, and what the
 * simulator then does with a profile it accepted:
 *  - ksim_profile_save() and a second parse must give an equal profile
 *    (the round trip `kfdtrace sim --dump-profile` relies on; a mismatch
 *    aborts);
 *  - every sysfs file is rendered (ksim_format_*), as the shim shows them;
 *  - a private device is built from it and asked the ioctls whose answers
 *    come from the profile: apertures, clock counters, tile config,
 *    available memory, VM acquisition, a small VRAM allocation, and the
 *    render node's device and memory info.
 *
 * Run e.g.: ./profile_fuzz -max_len=16384 new_corpus/ tests/fuzz/corpus/profile/
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <kfdtrace/drm_abi.h>
#include <kfdtrace/kfd_abi.h>

#include "ksim.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char page[8192];

static void
render_sysfs(const struct ksim_profile *p)
{
	ksim_format_system_properties(p, page, sizeof(page));
	for (unsigned int n = 0; n < p->n_nodes + 1; n++) {
		const struct ksim_node *node = n < p->n_nodes ? &p->nodes[n] : NULL;

		ksim_format_node_properties(p, n, 0, page, sizeof(page));
		ksim_format_node_properties(p, n, 11, page, sizeof(page));
		if (!node)
			continue;
		for (unsigned int i = 0; i <= node->n_mem_banks; i++)
			ksim_format_mem_bank(p, n, i, page, sizeof(page));
		for (unsigned int i = 0; i <= node->n_caches && i < 64; i++)
			ksim_format_cache(p, n, i, page, sizeof(page));
		for (unsigned int i = 0; i <= node->n_io_links; i++)
			ksim_format_io_link(p, n, i, 0, 16, page, sizeof(page));
		for (unsigned int i = 0; i <= node->n_p2p_links; i++)
			ksim_format_io_link(p, n, i, 1, 0, page, sizeof(page));
	}
	/* A buffer too small must be answered with the needed length. */
	ksim_format_node_properties(p, 0, 0, page, 7);
}

static void
round_trip(const struct ksim_profile *p)
{
	struct ksim_profile *again;
	char *text = NULL, *err = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	if (!f)
		return;
	if (ksim_profile_save(p, f)) {
		fclose(f);
		free(text);
		return;
	}
	fclose(f);
	again = ksim_profile_parse(text, len, "<saved>", &err);
	if (!again) {
		fprintf(stderr, "a saved profile does not parse: %s\n%s\n", err, text);
		abort();
	}
	if (!ksim_profile_equal(p, again)) {
		fprintf(stderr, "a saved profile parses to another profile:\n%s\n", text);
		abort();
	}
	ksim_profile_free(again);
	free(text);
}

/* The ioctls whose answers the profile decides. */
static void
use_device(const struct ksim_profile *p)
{
	struct ksim_opts o = { .flags = KSIM_OPT_PRIVATE };
	struct kfd_abi_process_device_apertures ap[8];
	struct ksim_device *dev;
	struct ksim_file *kfd;
	int err = 0, fd;

	dev = ksim_device_create(p, &o, &err);
	if (!dev)
		return;
	kfd = ksim_open_kfd(dev, 0, &err);
	if (kfd) {
		struct kfd_abi_get_process_apertures_new_args pa = {
			.kfd_process_device_apertures_ptr = (uintptr_t)ap,
			.num_of_nodes = 8,
		};

		ksim_ioctl(kfd, KFD_ABI_IOC_GET_PROCESS_APERTURES_NEW, &pa);
		for (unsigned int n = 0; n < p->n_nodes && n < 8; n++) {
			const struct ksim_node *node = &p->nodes[n];
			uint32_t tiles[64], macro[64];
			struct kfd_abi_get_clock_counters_args clk = { .gpu_id = node->gpu_id };
			struct kfd_abi_get_tile_config_args tc = {
				.tile_config_ptr = (uintptr_t)tiles,
				.macro_tile_config_ptr = (uintptr_t)macro,
				.num_tile_configs = 64,
				.num_macro_tile_configs = 64,
				.gpu_id = node->gpu_id,
			};
			struct kfd_abi_get_available_memory_args am = { .gpu_id = node->gpu_id };
			struct kfd_abi_alloc_memory_of_gpu_args al = {
				.size = 4096,
				.gpu_id = node->gpu_id,
				.flags = KFD_ABI_ALLOC_MEM_FLAGS_VRAM | KFD_ABI_ALLOC_MEM_FLAGS_WRITABLE,
			};
			struct kfd_abi_acquire_vm_args vm = { .gpu_id = node->gpu_id };
			struct kfd_drm_amdgpu_info info;
			uint8_t out[1024];
			struct ksim_file *rnd;

			if (!ksim_node_is_gpu(node) || !node->gpu)
				continue;
			ksim_ioctl(kfd, KFD_ABI_IOC_GET_CLOCK_COUNTERS, &clk);
			ksim_ioctl(kfd, KFD_ABI_IOC_GET_TILE_CONFIG, &tc);
			ksim_ioctl(kfd, KFD_ABI_IOC_AVAILABLE_MEMORY, &am);
			rnd = ksim_open_render(dev, node->drm ? node->drm->render_minor : 0, 0,
					       &err);
			if (!rnd)
				continue;
			vm.drm_fd = (uint32_t)ksim_file_fd(rnd);
			if (!ksim_ioctl(kfd, KFD_ABI_IOC_ACQUIRE_VM, &vm)) {
				al.va_addr = node->gpu->apertures.gpuvm_base + (1 << 21);
				if (!ksim_ioctl(kfd, KFD_ABI_IOC_ALLOC_MEMORY_OF_GPU, &al)) {
					struct kfd_abi_free_memory_of_gpu_args fr = {
						.handle = al.handle,
					};

					ksim_ioctl(kfd, KFD_ABI_IOC_AVAILABLE_MEMORY, &am);
					ksim_ioctl(kfd, KFD_ABI_IOC_FREE_MEMORY_OF_GPU, &fr);
				}
			}
			static const uint32_t queries[] = {
				KFD_DRM_AMDGPU_INFO_DEV_INFO, KFD_DRM_AMDGPU_INFO_VRAM_GTT,
				KFD_DRM_AMDGPU_INFO_MEMORY,
			};
			for (unsigned int q = 0; q < 3; q++) {
				memset(&info, 0, sizeof(info));
				info.return_pointer = (uintptr_t)out;
				info.return_size = sizeof(out);
				info.query = queries[q];
				ksim_ioctl(rnd, KFD_DRM_IOCTL_AMDGPU_INFO, &info);
			}
			fd = ksim_file_fd(rnd);
			ksim_release(rnd);
			close(fd);
		}
		fd = ksim_file_fd(kfd);
		ksim_release(kfd);
		close(fd);
	}
	ksim_device_destroy(dev);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ksim_profile *p;
	char *err = NULL;

	p = ksim_profile_parse((const char *)data, size, "<fuzz>", &err);
	free(err);
	if (!p)
		return 0;
	if (ksim_profile_validate(p, NULL)) {
		fprintf(stderr, "the parser accepted a profile validate refuses\n");
		abort();
	}
	round_trip(p);
	render_sysfs(p);
	use_device(p);
	ksim_profile_free(p);
	return 0;
}

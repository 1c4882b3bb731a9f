/* SPDX-License-Identifier: MIT */
/*
 * Writes a synthetic trace of N ioctls for the replay benchmark: run it on
 * kfdsim (`kfdtrace sim -- rp_gen OUT N`). It opens the devices, acquires
 * the VM, then cycles through cheap calls of several kinds (versions,
 * clocks, event set/reset/wait, event and memory create/destroy, GPU
 * map/unmap) through the dispatch point with the recorder attached, so
 * every record holds what the simulated kernel really answered.
 *
 * With OUT "-" nothing is recorded and the rate of the calls themselves
 * is printed: the simulator's own ceiling for this mix.
 *
 * `rp_gen OUT N userptr` writes instead N userptr allocations (each one
 * page, each freed again) at every other page of one mapping: N CPU ranges
 * the replay must reserve at their captured addresses, none touching
 * another, for the test that the replay's address space scales.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include <kfdtrace/dispatch.h>
#include <kfdtrace/kfd_abi.h>
#include <kfdtrace/recorder.h>

#define TOPO "/sys/devices/virtual/kfd/kfd/topology/nodes"

static struct kfd_recorder *rec;
static uint64_t issued;

static int
call(int fd, enum kfd_file_kind kind, unsigned long req, void *arg)
{
	issued++;
	return kfd_dispatch_once(fd, kind, req, arg);
}

static int
open_dev(const char *path, enum kfd_file_kind kind)
{
	struct kt_record r;
	int fd = open(path, O_RDWR | O_CLOEXEC);

	if (!rec)
		return fd;
	memset(&r, 0, sizeof(r));
	r.type = KT_REC_OPEN;
	r.u.open.path = path;
	r.u.open.flags = O_RDWR | O_CLOEXEC;
	r.u.open.file_kind = (uint8_t)kind;
	r.u.open.ret = fd;
	r.u.open.err = fd < 0 ? errno : 0;
	kfd_recorder_append(rec, &r);
	return fd;
}

static int
gpu_info(uint32_t *gpu, unsigned int *minor)
{
	char path[256], line[128];
	int i;

	for (i = 0; i < 64; i++) {
		unsigned long long v = 0;
		FILE *f;

		snprintf(path, sizeof(path), TOPO "/%d/gpu_id", i);
		f = fopen(path, "r");
		if (!f)
			continue;
		if (fscanf(f, "%llu", &v) != 1)
			v = 0;
		fclose(f);
		if (!v)
			continue;
		*gpu = (uint32_t)v;
		snprintf(path, sizeof(path), TOPO "/%d/properties", i);
		f = fopen(path, "r");
		while (f && fgets(line, sizeof(line), f))
			sscanf(line, "drm_render_minor %u", minor);
		if (f)
			fclose(f);
		return 0;
	}
	return -1;
}

/* N page-sized userptr allocations, each freed again. */
static int
userptrs(int kfd, uint32_t gpu, uint64_t n)
{
	uint8_t *base = mmap(NULL, (size_t)(2 * n + 1) * 4096,
			     PROT_READ | PROT_WRITE,
			     MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	uint64_t i;

	if (base == MAP_FAILED)
		return -1;
	for (i = 0; i < n; i++) {
		struct kfd_abi_alloc_memory_of_gpu_args a = {
			.va_addr = 0x200000000ull + i * 8192, .size = 4096,
			.mmap_offset = (uint64_t)(uintptr_t)(base + 2 * i * 4096),
			.gpu_id = gpu, .flags = KFD_ABI_ALLOC_MEM_FLAGS_USERPTR,
		};
		struct kfd_abi_free_memory_of_gpu_args f;

		if (call(kfd, KFD_FILE_KFD, KFD_ABI_IOC_ALLOC_MEMORY_OF_GPU, &a))
			return -1;
		f.handle = a.handle;
		if (call(kfd, KFD_FILE_KFD, KFD_ABI_IOC_FREE_MEMORY_OF_GPU, &f))
			return -1;
	}
	return 0;
}

int
main(int argc, char **argv)
{
	/* Crash handlers make the recorder's argument copies cheap. */
	struct kfd_recorder_opts o = {
		.producer = "rp_gen",
		.flags = KFD_REC_SIMULATED | KFD_REC_CRASH_HANDLERS,
	};
	struct kfd_abi_acquire_vm_args acq;
	struct kfd_abi_create_event_args ce;
	uint64_t n, target;
	struct timespec t0, t1;
	double secs;
	unsigned int minor = 128;
	uint32_t gpu, ids[1];
	char path[64];
	int kfd, drm, r;

	if (argc != 3 && !(argc == 4 && !strcmp(argv[3], "userptr"))) {
		fprintf(stderr, "usage: rp_gen OUT N [userptr] (on kfdsim)\n");
		return 2;
	}
	target = strtoull(argv[2], NULL, 0);
	if (gpu_info(&gpu, &minor) < 0) {
		fprintf(stderr, "rp_gen: no GPU (run it on kfdsim)\n");
		return 1;
	}
	if (strcmp(argv[1], "-")) {
		r = kfd_recorder_open(argv[1], &o, &rec);
		if (r < 0 || kfd_recorder_attach(rec) < 0) {
			fprintf(stderr, "rp_gen: %s: %s\n", argv[1], strerror(-r));
			return 1;
		}
	}
	ids[0] = gpu;
	kfd = open_dev("/dev/kfd", KFD_FILE_KFD);
	snprintf(path, sizeof(path), "/dev/dri/renderD%u", minor);
	drm = open_dev(path, KFD_FILE_RENDER);
	acq.drm_fd = (uint32_t)drm;
	acq.gpu_id = gpu;
	call(kfd, KFD_FILE_KFD, KFD_ABI_IOC_ACQUIRE_VM, &acq);
	memset(&ce, 0, sizeof(ce));
	ce.event_type = KFD_ABI_EVENT_SIGNAL;
	call(kfd, KFD_FILE_KFD, KFD_ABI_IOC_CREATE_EVENT, &ce);

	clock_gettime(CLOCK_MONOTONIC, &t0);
	if (argc == 4 && userptrs(kfd, gpu, target)) {
		fprintf(stderr, "rp_gen: userptr allocation failed: %s\n",
			strerror(errno));
		return 1;
	}
	for (n = 0; argc == 3 && issued < target; n++) {
		struct kfd_abi_get_version_args v;
		struct kfd_abi_get_clock_counters_args clk = { .gpu_id = gpu };
		struct kfd_abi_set_event_args se = { .event_id = ce.event_id };
		struct kfd_abi_reset_event_args re = { .event_id = ce.event_id };
		struct kfd_abi_event_data ev = { .event_id = ce.event_id };
		struct kfd_abi_wait_events_args we = {
			.events_ptr = (uint64_t)(uintptr_t)&ev, .num_events = 1,
		};

		switch (n % 8) {
		case 0:
			call(kfd, KFD_FILE_KFD, KFD_ABI_IOC_GET_VERSION, &v);
			break;
		case 1:
			call(kfd, KFD_FILE_KFD, KFD_ABI_IOC_GET_CLOCK_COUNTERS, &clk);
			break;
		case 2:
			call(kfd, KFD_FILE_KFD, KFD_ABI_IOC_SET_EVENT, &se);
			call(kfd, KFD_FILE_KFD, KFD_ABI_IOC_WAIT_EVENTS, &we);
			break;
		case 3:
			call(kfd, KFD_FILE_KFD, KFD_ABI_IOC_RESET_EVENT, &re);
			break;
		case 4: {
			struct kfd_abi_create_event_args e2 = {
				.event_type = KFD_ABI_EVENT_SIGNAL,
			};
			struct kfd_abi_destroy_event_args de;

			call(kfd, KFD_FILE_KFD, KFD_ABI_IOC_CREATE_EVENT, &e2);
			de.event_id = e2.event_id;
			de.pad = 0;
			call(kfd, KFD_FILE_KFD, KFD_ABI_IOC_DESTROY_EVENT, &de);
			break;
		}
		case 5: {
			struct kfd_abi_alloc_memory_of_gpu_args a = {
				.va_addr = 0x100000000ull, .size = 4096,
				.gpu_id = gpu, .flags = KFD_ABI_ALLOC_MEM_FLAGS_GTT,
			};
			struct kfd_abi_map_memory_to_gpu_args m = {
				.device_ids_array_ptr = (uint64_t)(uintptr_t)ids,
				.n_devices = 1,
			};
			struct kfd_abi_free_memory_of_gpu_args f;

			call(kfd, KFD_FILE_KFD, KFD_ABI_IOC_ALLOC_MEMORY_OF_GPU, &a);
			m.handle = a.handle;
			call(kfd, KFD_FILE_KFD, KFD_ABI_IOC_MAP_MEMORY_TO_GPU, &m);
			m.n_success = 0;
			call(kfd, KFD_FILE_KFD, KFD_ABI_IOC_UNMAP_MEMORY_FROM_GPU, &m);
			f.handle = a.handle;
			call(kfd, KFD_FILE_KFD, KFD_ABI_IOC_FREE_MEMORY_OF_GPU, &f);
			break;
		}
		case 6: {
			struct kfd_abi_get_available_memory_args am = { .gpu_id = gpu };

			call(kfd, KFD_FILE_KFD, KFD_ABI_IOC_AVAILABLE_MEMORY, &am);
			break;
		}
		default: {
			/* A call that fails: an unknown handle. */
			struct kfd_abi_free_memory_of_gpu_args f = {
				.handle = (uint64_t)gpu << 32 | 0x7fff,
			};

			call(kfd, KFD_FILE_KFD, KFD_ABI_IOC_FREE_MEMORY_OF_GPU, &f);
			break;
		}
		}
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	if (rec) {
		r = kfd_recorder_close(rec);
		if (r < 0) {
			fprintf(stderr, "rp_gen: %s: %s\n", argv[1], strerror(-r));
			return 1;
		}
	}
	secs = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
	printf("rp_gen: %llu ioctls in %.3f s, %.0f ioctls/s%s\n",
	       (unsigned long long)issued, secs, secs > 0 ? (double)issued / secs : 0,
	       rec ? " (recorded)" : " (the simulator alone)");
	close(drm);
	close(kfd);
	return 0;
}

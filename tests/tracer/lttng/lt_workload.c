/* SPDX-License-Identifier: MIT */
/*
 * The application the lttng test records (on kfdsim). It prints what it
 * saw as "key=value" lines on stdout, so that the test can hold the
 * events against values it did not get from the tracer:
 *
 *   lt_workload basic	GET_VERSION, apertures, ACQUIRE_VM, a 4 KiB VRAM
 *			buffer allocated, mapped, unmapped and freed, a GTT
 *			buffer mmapped through the render node, a FREE of a
 *			handle that does not exist, an ioctl the driver does
 *			not have, CREATE_EVENT
 *   lt_workload fork	GET_VERSION, then a forked child that opens
 *			/dev/kfd itself and does GET_VERSION
 *   lt_workload idle	opens an ordinary file, touches no device
 *
 * Both end with lttng_ust=1 when liblttng-ust is mapped in the process.
 * It uses only libc and the ABI header.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include <kfdtrace/kfd_abi.h>

#define TOPO "/sys/devices/virtual/kfd/kfd/topology/nodes"

static unsigned long ioctls;

static void
die(const char *what)
{
	fprintf(stderr, "lt_workload: %s: %s\n", what, strerror(errno));
	exit(2);
}

static int
kio(int fd, unsigned long req, void *arg)
{
	ioctls++;
	return ioctl(fd, req, arg);
}

static int
open_kfd(void)
{
	int fd = open("/dev/kfd", O_RDWR | O_CLOEXEC);

	if (fd < 0)
		die("open /dev/kfd");
	return fd;
}

static void
get_version(int kfd)
{
	struct kfd_abi_get_version_args v = { 0 };

	if (kio(kfd, KFD_ABI_IOC_GET_VERSION, &v))
		die("GET_VERSION");
	printf("major=%u\nminor=%u\n", v.major_version, v.minor_version);
}

/* The first GPU node: its gpu_id and render minor. */
static void
find_gpu(uint32_t *gpu_id, int *minor)
{
	for (int node = 0; node < 64; node++) {
		char path[128], line[256];
		unsigned long id = 0;
		FILE *f;

		snprintf(path, sizeof(path), TOPO "/%d/gpu_id", node);
		f = fopen(path, "r");
		if (!f)
			break;
		if (fscanf(f, "%lu", &id) != 1)
			id = 0;
		fclose(f);
		if (!id)
			continue;
		*gpu_id = (uint32_t)id;
		snprintf(path, sizeof(path), TOPO "/%d/properties", node);
		f = fopen(path, "r");
		if (!f)
			die("properties");
		while (fgets(line, sizeof(line), f))
			sscanf(line, "drm_render_minor %d", minor);
		fclose(f);
		return;
	}
	errno = ENODEV;
	die("no GPU in the topology");
}

static uint64_t
alloc(int kfd, uint64_t va, uint32_t gpu_id, uint32_t flags, uint64_t *off)
{
	struct kfd_abi_alloc_memory_of_gpu_args a = {
		.va_addr = va, .size = 4096, .gpu_id = gpu_id, .flags = flags,
	};

	if (kio(kfd, KFD_ABI_IOC_ALLOC_MEMORY_OF_GPU, &a))
		die("ALLOC_MEMORY_OF_GPU");
	if (off)
		*off = a.mmap_offset;
	return a.handle;
}

static void
free_mem(int kfd, uint64_t handle)
{
	struct kfd_abi_free_memory_of_gpu_args fr = { .handle = handle };

	if (kio(kfd, KFD_ABI_IOC_FREE_MEMORY_OF_GPU, &fr))
		die("FREE_MEMORY_OF_GPU");
}

static int
lttng_ust_mapped(void)
{
	FILE *f = fopen("/proc/self/maps", "r");
	char line[512];
	int found = 0;

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		found |= strstr(line, "liblttng-ust.so") != NULL;
	fclose(f);
	return found;
}

static int
mode_basic(void)
{
	struct kfd_abi_process_device_apertures ap[8];
	struct kfd_abi_get_process_apertures_new_args gpa = {
		.kfd_process_device_apertures_ptr = (uintptr_t)ap,
		.num_of_nodes = 8,
	};
	struct kfd_abi_map_memory_to_gpu_args map;
	struct kfd_abi_unmap_memory_from_gpu_args unmap;
	struct kfd_abi_free_memory_of_gpu_args bad = { .handle = 0x7777ull << 32 };
	struct kfd_abi_create_event_args ev = { .event_type = 0, .auto_reset = 1 };
	struct kfd_abi_acquire_vm_args vm;
	uint64_t base = 0, h, h2, off;
	uint32_t gpu_id = 0, ids[1];
	uint64_t junk = 0;
	int kfd, drm, minor = 0;
	char path[64];
	void *p;

	kfd = open_kfd();
	get_version(kfd);
	find_gpu(&gpu_id, &minor);
	if (kio(kfd, KFD_ABI_IOC_GET_PROCESS_APERTURES_NEW, &gpa))
		die("GET_PROCESS_APERTURES_NEW");
	for (uint32_t i = 0; i < gpa.num_of_nodes && i < 8; i++)
		if (ap[i].gpu_id == gpu_id)
			base = ap[i].gpuvm_base;
	snprintf(path, sizeof(path), "/dev/dri/renderD%d", minor);
	drm = open(path, O_RDWR | O_CLOEXEC);
	if (drm < 0)
		die(path);
	vm.drm_fd = (uint32_t)drm;
	vm.gpu_id = gpu_id;
	if (kio(kfd, KFD_ABI_IOC_ACQUIRE_VM, &vm))
		die("ACQUIRE_VM");
	printf("kfd_fd=%d\ndrm_fd=%d\ngpu_id=%u\n", kfd, drm, gpu_id);

	h = alloc(kfd, base + (1ull << 30), gpu_id,
		  KFD_ABI_ALLOC_MEM_FLAGS_VRAM | KFD_ABI_ALLOC_MEM_FLAGS_WRITABLE,
		  NULL);
	printf("handle=0x%llX\nva=0x%llX\n", (unsigned long long)h,
	       (unsigned long long)(base + (1ull << 30)));
	ids[0] = gpu_id;
	map = (struct kfd_abi_map_memory_to_gpu_args){
		.handle = h, .device_ids_array_ptr = (uintptr_t)ids, .n_devices = 1,
	};
	if (kio(kfd, KFD_ABI_IOC_MAP_MEMORY_TO_GPU, &map))
		die("MAP_MEMORY_TO_GPU");
	printf("n_success=%u\n", map.n_success);
	unmap = (struct kfd_abi_unmap_memory_from_gpu_args){
		.handle = h, .device_ids_array_ptr = (uintptr_t)ids, .n_devices = 1,
	};
	if (kio(kfd, KFD_ABI_IOC_UNMAP_MEMORY_FROM_GPU, &unmap))
		die("UNMAP_MEMORY_FROM_GPU");
	free_mem(kfd, h);

	h2 = alloc(kfd, base + (2ull << 30), gpu_id,
		   KFD_ABI_ALLOC_MEM_FLAGS_GTT | KFD_ABI_ALLOC_MEM_FLAGS_WRITABLE,
		   &off);
	p = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, drm, (off_t)off);
	if (p == MAP_FAILED)
		die("mmap");
	printf("map_addr=0x%llX\nmap_offset=0x%llX\n",
	       (unsigned long long)(uintptr_t)p, (unsigned long long)off);
	if (munmap(p, 4096))
		die("munmap");
	free_mem(kfd, h2);

	if (kio(kfd, KFD_ABI_IOC_FREE_MEMORY_OF_GPU, &bad) != -1)
		die("FREE of a bad handle succeeded");
	printf("bad_free_errno=%d\n", errno);
	if (kio(kfd, _IOWR('K', 0x7f, uint64_t), &junk) != -1)
		die("an unknown ioctl succeeded");
	printf("unknown_request=0x%lX\nunknown_errno=%d\n",
	       (unsigned long)_IOWR('K', 0x7f, uint64_t), errno);
	if (kio(kfd, KFD_ABI_IOC_CREATE_EVENT, &ev))
		die("CREATE_EVENT");
	printf("event_id=%u\n", ev.event_id);
	close(drm);
	close(kfd);
	printf("ioctls=%lu\nlttng_ust=%d\n", ioctls, lttng_ust_mapped());
	return 0;
}

static int
mode_fork(void)
{
	int kfd = open_kfd(), status;
	pid_t pid;

	get_version(kfd);
	fflush(stdout);
	pid = fork();
	if (pid < 0)
		die("fork");
	if (pid == 0) {
		int k2 = open_kfd();

		get_version(k2);
		close(k2);
		fflush(stdout);
		_exit(0);
	}
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) ||
	    WEXITSTATUS(status))
		die("the child failed");
	printf("parent_pid=%d\nchild_pid=%d\nlttng_ust=%d\n", (int)getpid(),
	       (int)pid, lttng_ust_mapped());
	close(kfd);
	return 0;
}

static int
mode_idle(void)
{
	int fd = open("/proc/self/status", O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		die("open");
	close(fd);
	printf("lttng_ust=%d\n", lttng_ust_mapped());
	return 0;
}

int
main(int argc, char **argv)
{
	if (argc == 2 && !strcmp(argv[1], "basic"))
		return mode_basic();
	if (argc == 2 && !strcmp(argv[1], "fork"))
		return mode_fork();
	if (argc == 2 && !strcmp(argv[1], "idle"))
		return mode_idle();
	fprintf(stderr, "usage: lt_workload basic|fork|idle\n");
	return 2;
}

/* SPDX-License-Identifier: MIT */
/*
 * AMD's own thunk (Debian's libhsakmt 5.2.3, unmodified) on the simulated
 * device. Run under `kfdtrace sim` (or with libkfdsim.so preloaded): every
 * test is one public API area, and each asserts what the thunk's source
 * makes of the kernel's answers -- success where a real GPU succeeds, and
 * the thunk's status for the calls a real kernel refuses.
 *
 * The thunk keeps process-global state, so the tests share one open KFD
 * (group setup) and each frees what it allocates. This file has the group
 * setup, the topology, memory and event tests and main();
 * test_thunk_queues.c the queues and the rest (test_thunk.h), in the same
 * program.
 */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>
#include <hsakmt.h>

#ifdef HAVE_LIBDRM_AMDGPU
#include <amdgpu.h>
#include <amdgpu_drm.h>
#endif

#include "test_thunk.h"

#define TOPO "/sys/devices/virtual/kfd/kfd/topology"

HsaSystemProperties sys_props;
HsaNodeProperties node_props[MAX_NODES];
HSAuint32 gpu_nodes[MAX_NODES];
unsigned int n_gpus;

/* A key of a sysfs "key value" properties file (read through the simulator). */
static uint64_t
file_prop(const char *path, const char *key)
{
	char name[64];
	unsigned long long value;
	FILE *f = fopen(path, "r");

	if (!f)
		fail_msg("%s: %s", path, strerror(errno));
	while (fscanf(f, "%63s %llu\n", name, &value) == 2) {
		if (strcmp(name, key) == 0) {
			fclose(f);
			return value;
		}
	}
	fclose(f);
	fail_msg("%s: no key %s", path, key);
	return 0;
}

/* A key of a node's properties. */
uint64_t
sysfs_prop(unsigned int node, const char *key)
{
	char path[256];

	snprintf(path, sizeof(path), TOPO "/nodes/%u/properties", node);
	return file_prop(path, key);
}

/* A key of a node's mem_banks/@idx, io_links/@idx, ... (@kind). */
static uint64_t
sysfs_sub_prop(unsigned int node, const char *kind, unsigned int idx, const char *key)
{
	char path[256];

	snprintf(path, sizeof(path), TOPO "/nodes/%u/%s/%u/properties", node, kind, idx);
	return file_prop(path, key);
}

static int
group_setup(void **state)
{
	HSAKMT_STATUS st = hsaKmtOpenKFD();

	if (st != HSAKMT_STATUS_SUCCESS) {
		fprintf(stderr, "hsaKmtOpenKFD: %d\n", st);
		return -1;
	}
	st = hsaKmtAcquireSystemProperties(&sys_props);
	if (st != HSAKMT_STATUS_SUCCESS || sys_props.NumNodes > MAX_NODES) {
		fprintf(stderr, "hsaKmtAcquireSystemProperties: %d\n", st);
		return -1;
	}
	for (HSAuint32 i = 0; i < sys_props.NumNodes; i++) {
		if (hsaKmtGetNodeProperties(i, &node_props[i]) != HSAKMT_STATUS_SUCCESS)
			return -1;
		if (node_props[i].NumFComputeCores)
			gpu_nodes[n_gpus++] = i;
	}
	return n_gpus ? 0 : -1;
}

static int
group_teardown(void **state)
{
	hsaKmtReleaseSystemProperties();
	return hsaKmtCloseKFD() == HSAKMT_STATUS_SUCCESS ? 0 : -1;
}

static void
test_version(void **state)
{
	HsaVersionInfo v;
	const char *abi = getenv("KFDSIM_ABI");
	unsigned int want = 23;	/* kfdsim's default ABI */

	if (abi)
		want = (unsigned int)atoi(strchr(abi, '.') ? strchr(abi, '.') + 1 : abi);
	assert_int_equal(hsaKmtGetVersion(&v), HSAKMT_STATUS_SUCCESS);
	assert_int_equal(v.KernelInterfaceMajorVersion, 1);
	assert_int_equal(v.KernelInterfaceMinorVersion, want);
	/* a second open only counts */
	assert_int_equal(hsaKmtOpenKFD(), HSAKMT_STATUS_KERNEL_ALREADY_OPENED);
	assert_int_equal(hsaKmtCloseKFD(), HSAKMT_STATUS_SUCCESS);
	assert_int_equal(hsaKmtGetVersion(&v), HSAKMT_STATUS_SUCCESS);
}

/* What the thunk parsed agrees with the sysfs text the simulator shows. */
static void
test_topology(void **state)
{
	unsigned int sysfs_nodes = 0;
	char path[128];

	for (;;) {
		snprintf(path, sizeof(path), TOPO "/nodes/%u", sysfs_nodes);
		if (access(path, F_OK) != 0)
			break;
		sysfs_nodes++;
	}
	assert_int_equal(sys_props.NumNodes, sysfs_nodes);
	assert_true(n_gpus >= 1);

	for (HSAuint32 n = 0; n < sys_props.NumNodes; n++) {
		const HsaNodeProperties *p = &node_props[n];

		assert_int_equal(p->NumCPUCores, sysfs_prop(n, "cpu_cores_count"));
		assert_int_equal(p->NumFComputeCores, sysfs_prop(n, "simd_count"));
		assert_int_equal(p->DrmRenderMinor, (int)sysfs_prop(n, "drm_render_minor"));
		assert_int_equal(p->DeviceId, sysfs_prop(n, "device_id"));
		if (!p->NumFComputeCores)
			continue;
		/* the gfx version the thunk settled on (it asserts if it finds none) */
		assert_int_equal(p->EngineId.ui32.Major * 10000 + p->EngineId.ui32.Minor * 100 +
				 p->EngineId.ui32.Stepping, sysfs_prop(n, "gfx_target_version"));
		assert_int_equal(p->NumSIMDPerCU, sysfs_prop(n, "simd_per_cu"));
		assert_int_equal(p->WaveFrontSize, sysfs_prop(n, "wave_front_size"));
		assert_int_equal(p->NumSdmaEngines, sysfs_prop(n, "num_sdma_engines"));
		assert_int_equal(p->NumGws, sysfs_prop(n, "num_gws"));
		assert_int_equal(p->NumCaches, sysfs_prop(n, "caches_count"));
		/* LDS, scratch and SVM apertures come on top of the sysfs banks */
		assert_true(p->NumMemoryBanks >= sysfs_prop(n, "mem_banks_count") + 3);
		assert_int_equal(p->NumIOLinks, sysfs_prop(n, "io_links_count") +
					       sysfs_prop(n, "p2p_links_count"));
	}
}

static void
test_node_memory_caches_links(void **state)
{
	for (unsigned int g = 0; g < n_gpus; g++) {
		HSAuint32 n = gpu_nodes[g];
		const HsaNodeProperties *p = &node_props[n];
		HsaMemoryProperties *mem = calloc(p->NumMemoryBanks, sizeof(*mem));
		HsaCacheProperties *caches = calloc(p->NumCaches, sizeof(*caches));
		HsaIoLinkProperties *links = calloc(p->NumIOLinks, sizeof(*links));
		bool have_fb = false, have_lds = false, have_scratch = false, have_svm = false;

		assert_int_equal(hsaKmtGetNodeMemoryProperties(n, p->NumMemoryBanks, mem),
				 HSAKMT_STATUS_SUCCESS);
		for (HSAuint32 b = 0; b < p->NumMemoryBanks; b++) {
			switch (mem[b].HeapType) {
			case HSA_HEAPTYPE_FRAME_BUFFER_PUBLIC:
			case HSA_HEAPTYPE_FRAME_BUFFER_PRIVATE:
				have_fb = true;
				assert_int_equal(mem[b].SizeInBytes,
						 sysfs_sub_prop(n, "mem_banks", 0, "size_in_bytes"));
				break;
			case HSA_HEAPTYPE_GPU_LDS:
				have_lds = true;
				break;
			case HSA_HEAPTYPE_GPU_SCRATCH:
				have_scratch = true;
				break;
			case HSA_HEAPTYPE_DEVICE_SVM:
				have_svm = true;
				break;
			default:
				break;
			}
		}
		assert_true(have_fb && have_lds && have_scratch && have_svm);

		assert_int_equal(hsaKmtGetNodeCacheProperties(n, p->FComputeIdLo, p->NumCaches,
							      caches), HSAKMT_STATUS_SUCCESS);
		assert_int_equal(caches[0].CacheLevel, sysfs_sub_prop(n, "caches", 0, "level"));
		assert_int_equal(caches[0].CacheSize, sysfs_sub_prop(n, "caches", 0, "size"));
		assert_int_equal(caches[0].CacheType.Value, sysfs_sub_prop(n, "caches", 0, "type"));

		assert_int_equal(hsaKmtGetNodeIoLinkProperties(n, p->NumIOLinks, links),
				 HSAKMT_STATUS_SUCCESS);
		assert_int_equal(links[0].NodeFrom, n);
		assert_int_equal(links[0].NodeTo, sysfs_sub_prop(n, "io_links", 0, "node_to"));
		assert_int_equal(links[0].IoLinkType, sysfs_sub_prop(n, "io_links", 0, "type"));
		free(mem);
		free(caches);
		free(links);
	}
	/* the CPU node's memory */
	{
		HsaMemoryProperties mem[4];

		assert_int_equal(hsaKmtGetNodeMemoryProperties(0, 1, mem), HSAKMT_STATUS_SUCCESS);
		assert_int_equal(mem[0].HeapType, HSA_HEAPTYPE_SYSTEM);
	}
	assert_int_equal(hsaKmtGetNodeProperties(sys_props.NumNodes + 5, &(HsaNodeProperties){ 0 }),
			 HSAKMT_STATUS_INVALID_NODE_UNIT);
}

/*
 * Whether the CPU can reach all of a GPU's VRAM (large BAR): its frame
 * buffer bank is public. KFD refuses host-visible VRAM on small-BAR boards.
 */
bool
large_bar(HSAuint32 node)
{
	HsaMemoryProperties mem[16];
	HSAuint32 n = node_props[node].NumMemoryBanks < 16 ? node_props[node].NumMemoryBanks : 16;

	assert_int_equal(hsaKmtGetNodeMemoryProperties(node, n, mem), HSAKMT_STATUS_SUCCESS);
	for (HSAuint32 i = 0; i < n; i++)
		if (mem[i].HeapType == HSA_HEAPTYPE_FRAME_BUFFER_PUBLIC)
			return true;
	return false;
}

/* VRAM flags: host-visible where the board allows it. */
HsaMemFlags
vram_flags(HSAuint32 node)
{
	HsaMemFlags flags = { 0 };

	flags.ui32.NonPaged = 1;
	flags.ui32.NoSubstitute = 1;
	flags.ui32.HostAccess = large_bar(node);
	return flags;
}

void
check_pointer(void *addr, HSA_POINTER_TYPE type, HSAuint64 size, HSAuint32 mapped)
{
	HsaPointerInfo info;

	memset(&info, 0, sizeof(info));
	assert_int_equal(hsaKmtQueryPointerInfo(addr, &info), HSAKMT_STATUS_SUCCESS);
	assert_int_equal(info.Type, type);
	assert_int_equal(info.SizeInBytes, size);
	assert_int_equal(info.NMappedNodes, mapped);
}

/* VRAM: allocate, map, query, user data, CPU access (large BAR), free. */
static void
test_alloc_vram(void **state)
{
	HSAuint32 node = gpu_nodes[0];
	HsaMemFlags flags = vram_flags(node);
	HSAuint64 va = 0, size = 2 << 20;
	HsaPointerInfo info;
	void *mem = NULL;
	int marker = 42;

	assert_int_equal(hsaKmtAllocMemory(node, size, flags, &mem), HSAKMT_STATUS_SUCCESS);
	assert_non_null(mem);
	check_pointer(mem, HSA_POINTER_ALLOCATED, size, 0);

	/* without a node list the thunk maps to every GPU */
	assert_int_equal(hsaKmtMapMemoryToGPU(mem, size, &va), HSAKMT_STATUS_SUCCESS);
	/* in the shared virtual aperture the GPU address is the CPU address */
	assert_int_equal(va, 0);
	check_pointer(mem, HSA_POINTER_ALLOCATED, size, n_gpus);

	assert_int_equal(hsaKmtSetMemoryUserData(mem, &marker), HSAKMT_STATUS_SUCCESS);
	memset(&info, 0, sizeof(info));
	assert_int_equal(hsaKmtQueryPointerInfo(mem, &info), HSAKMT_STATUS_SUCCESS);
	assert_ptr_equal(info.UserData, &marker);
	assert_int_equal(info.Node, node);
	assert_int_equal(info.GPUAddress, (HSAuint64)(uintptr_t)mem);

	if (flags.ui32.HostAccess) {
		/* host-visible VRAM is CPU mapped through the render node */
		memset(mem, 0xa5, 4096);
		assert_int_equal(((unsigned char *)mem)[4095], 0xa5);
	} else {
		/* small BAR: KFD refuses host-visible VRAM (EINVAL) */
		void *vis = NULL;

		flags.ui32.HostAccess = 1;
		assert_int_equal(hsaKmtAllocMemory(node, size, flags, &vis),
				 HSAKMT_STATUS_NO_MEMORY);
	}

	/* a node list maps to just those GPUs */
	assert_int_equal(hsaKmtUnmapMemoryToGPU(mem), HSAKMT_STATUS_SUCCESS);
	check_pointer(mem, HSA_POINTER_ALLOCATED, size, 0);
	assert_int_equal(hsaKmtMapMemoryToGPUNodes(mem, size, &va, (HsaMemMapFlags){ 0 }, 1,
						   &node), HSAKMT_STATUS_SUCCESS);
	check_pointer(mem, HSA_POINTER_ALLOCATED, size, 1);
	assert_int_equal(hsaKmtUnmapMemoryToGPU(mem), HSAKMT_STATUS_SUCCESS);
	assert_int_equal(hsaKmtFreeMemory(mem, size), HSAKMT_STATUS_SUCCESS);
}

/* System memory: GTT (non-paged) and paged (userptr) allocations. */
static void
test_alloc_host(void **state)
{
	HsaMemFlags flags = { 0 };
	HSAuint64 va, size = 64 << 10;
	void *gtt = NULL, *paged = NULL;

	flags.ui32.NonPaged = 1;
	flags.ui32.HostAccess = 1;
	assert_int_equal(hsaKmtAllocMemory(0, size, flags, &gtt), HSAKMT_STATUS_SUCCESS);
	memset(gtt, 0x5a, size);
	assert_int_equal(((unsigned char *)gtt)[size - 1], 0x5a);
	assert_int_equal(hsaKmtMapMemoryToGPUNodes(gtt, size, &va, (HsaMemMapFlags){ 0 }, n_gpus,
						   gpu_nodes), HSAKMT_STATUS_SUCCESS);
	check_pointer(gtt, HSA_POINTER_ALLOCATED, size, n_gpus);
	assert_int_equal(hsaKmtUnmapMemoryToGPU(gtt), HSAKMT_STATUS_SUCCESS);
	assert_int_equal(hsaKmtFreeMemory(gtt, size), HSAKMT_STATUS_SUCCESS);

	flags.ui32.NonPaged = 0;
	assert_int_equal(hsaKmtAllocMemory(0, size, flags, &paged), HSAKMT_STATUS_SUCCESS);
	memset(paged, 1, size);
	assert_int_equal(hsaKmtMapMemoryToGPU(paged, size, &va), HSAKMT_STATUS_SUCCESS);
	assert_int_equal(hsaKmtUnmapMemoryToGPU(paged), HSAKMT_STATUS_SUCCESS);
	assert_int_equal(hsaKmtFreeMemory(paged, size), HSAKMT_STATUS_SUCCESS);
}

/* A user buffer registered as userptr, mapped to every GPU. */
static void
test_register_userptr(void **state)
{
	HSAuint64 va, size = 256 << 10;
	void *buf = NULL;

	assert_int_equal(posix_memalign(&buf, 4096, size), 0);
	memset(buf, 7, size);
	assert_int_equal(hsaKmtRegisterMemory(buf, size), HSAKMT_STATUS_SUCCESS);
	check_pointer(buf, HSA_POINTER_REGISTERED_USER, size, 0);
	assert_int_equal(hsaKmtMapMemoryToGPUNodes(buf, size, &va, (HsaMemMapFlags){ 0 }, n_gpus,
						   gpu_nodes), HSAKMT_STATUS_SUCCESS);
	check_pointer(buf, HSA_POINTER_REGISTERED_USER, size, n_gpus);
	assert_int_equal(hsaKmtUnmapMemoryToGPU(buf), HSAKMT_STATUS_SUCCESS);
	assert_int_equal(hsaKmtDeregisterMemory(buf), HSAKMT_STATUS_SUCCESS);
	/* gone: the thunk no longer knows the pointer */
	{
		HsaPointerInfo info;

		assert_int_equal(hsaKmtQueryPointerInfo(buf, &info), HSAKMT_STATUS_ERROR);
		assert_int_equal(info.Type, HSA_POINTER_UNKNOWN);
	}
	free(buf);
}

static HsaEvent *
make_event(bool manual, bool signaled)
{
	HsaEventDescriptor desc;
	HsaEvent *ev = NULL;

	memset(&desc, 0, sizeof(desc));
	desc.EventType = HSA_EVENTTYPE_SIGNAL;
	desc.NodeId = 0;
	desc.SyncVar.SyncVar.UserData = NULL;
	desc.SyncVar.SyncVarSize = 0;
	if (hsaKmtCreateEvent(&desc, manual, signaled, &ev) != HSAKMT_STATUS_SUCCESS)
		return NULL;
	return ev;
}

static void
test_events(void **state)
{
	HsaEvent *ev = make_event(false, false), *man = make_event(true, true);
	struct timespec t0, t1;

	assert_non_null(ev);
	assert_non_null(man);
	/* events live in the events page the thunk handed to KFD */
	assert_true(ev->EventData.HWData2 != 0);
	assert_true(ev->EventId > 0 && ev->EventId < 4096);

	assert_int_equal(hsaKmtWaitOnEvent(ev, 0), HSAKMT_STATUS_WAIT_TIMEOUT);
	assert_int_equal(hsaKmtSetEvent(ev), HSAKMT_STATUS_SUCCESS);
	assert_int_equal(hsaKmtWaitOnEvent(ev, 1000), HSAKMT_STATUS_SUCCESS);
	/* auto-reset: the wait consumed it */
	clock_gettime(CLOCK_MONOTONIC, &t0);
	assert_int_equal(hsaKmtWaitOnEvent(ev, 20), HSAKMT_STATUS_WAIT_TIMEOUT);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	assert_true((t1.tv_sec - t0.tv_sec) * 1000000000L + (t1.tv_nsec - t0.tv_nsec) >=
		    15 * 1000000L);

	/* manual reset, created signaled: stays signaled until reset */
	assert_int_equal(hsaKmtWaitOnEvent(man, 0), HSAKMT_STATUS_SUCCESS);
	assert_int_equal(hsaKmtWaitOnEvent(man, 0), HSAKMT_STATUS_SUCCESS);
	assert_int_equal(hsaKmtResetEvent(man), HSAKMT_STATUS_SUCCESS);
	assert_int_equal(hsaKmtWaitOnEvent(man, 0), HSAKMT_STATUS_WAIT_TIMEOUT);

	{
		HsaEvent *both[2] = { ev, man };

		assert_int_equal(hsaKmtSetEvent(man), HSAKMT_STATUS_SUCCESS);
		assert_int_equal(hsaKmtWaitOnMultipleEvents(both, 2, false, 100),
				 HSAKMT_STATUS_SUCCESS);
		assert_int_equal(hsaKmtWaitOnMultipleEvents(both, 2, true, 10),
				 HSAKMT_STATUS_WAIT_TIMEOUT);
	}
	assert_int_equal(hsaKmtDestroyEvent(ev), HSAKMT_STATUS_SUCCESS);
	assert_int_equal(hsaKmtDestroyEvent(man), HSAKMT_STATUS_SUCCESS);
	assert_int_equal(hsaKmtDestroyEvent(NULL), HSAKMT_STATUS_INVALID_HANDLE);
	assert_int_equal(hsaKmtWaitOnEvent(NULL, 0), HSAKMT_STATUS_INVALID_HANDLE);
}

/*
 * A 32 KiB events page holds 4096 slots and slot 0 is reserved: the
 * 4096th signal event fails (ENOSPC, which the thunk reports as ERROR).
 */
static void
test_event_exhaustion(void **state)
{
	HsaEvent **evs = calloc(4200, sizeof(*evs));
	unsigned int n = 0;

	while (n < 4200 && (evs[n] = make_event(false, false)) != NULL)
		n++;
	assert_int_equal(n, 4095);
	for (unsigned int i = 0; i < n; i++)
		assert_int_equal(hsaKmtDestroyEvent(evs[i]), HSAKMT_STATUS_SUCCESS);
	/* the slots are free again */
	evs[0] = make_event(false, false);
	assert_non_null(evs[0]);
	assert_int_equal(hsaKmtDestroyEvent(evs[0]), HSAKMT_STATUS_SUCCESS);
	free(evs);
}

/*
 * test_thunk [TEST...]: every test, or only the ones named (in the
 * program's order), e.g. the areas where two thunks should send the same
 * requests (tests/thunk/compare_ioctls.py).
 */
int
main(int argc, char **argv)
{
	struct CMUnitTest tests[] = {
		cmocka_unit_test(test_version),
		cmocka_unit_test(test_topology),
		cmocka_unit_test(test_node_memory_caches_links),
		cmocka_unit_test(test_alloc_vram),
		cmocka_unit_test(test_alloc_host),
		cmocka_unit_test(test_register_userptr),
		cmocka_unit_test(test_events),
		cmocka_unit_test(test_event_exhaustion),
		cmocka_unit_test(test_queue_compute_aql),
		cmocka_unit_test(test_queue_sdma),
		cmocka_unit_test(test_queue_errors),
		cmocka_unit_test(test_svm),
		cmocka_unit_test(test_clock_counters),
		cmocka_unit_test(test_error_statuses),
#ifdef HAVE_LIBDRM_AMDGPU
		cmocka_unit_test(test_graphics_interop),
		cmocka_unit_test(test_amdgpu_ctx),
#endif
		cmocka_unit_test(test_share_memory),
		cmocka_unit_test(test_fork_child),
	};
	size_t n = sizeof(tests) / sizeof(tests[0]), kept = 0;
	HsaVersionInfo v;

	for (size_t i = 0; i < n; i++) {
		bool named = argc < 2;

		for (int a = 1; a < argc && !named; a++)
			named = !strcmp(argv[a], tests[i].name);
		if (named)
			tests[kept++] = tests[i];
	}
	if (kept != n && kept != (size_t)argc - 1) {
		fprintf(stderr, "test_thunk: a test named is not in the program\n");
		return 2;
	}

	/* before OpenKFD every call is refused */
	if (hsaKmtGetVersion(&v) != HSAKMT_STATUS_KERNEL_IO_CHANNEL_NOT_OPENED) {
		fprintf(stderr, "hsaKmtGetVersion before open did not fail\n");
		return 1;
	}
	/* what cmocka_run_group_tests() expands to, for the tests kept */
	return _cmocka_run_group_tests("tests", tests, kept, group_setup, group_teardown);
}

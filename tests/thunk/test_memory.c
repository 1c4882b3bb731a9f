/* SPDX-License-Identifier: MIT */
/*
 * Memory through kfdtrace's libhsakmt on the simulated device: allocation
 * kinds, GPU mappings, user memory registration, pointer information,
 * scratch, dma-buf export and graphics import, IPC and cross-process
 * copies (ROCm-only ioctls the simulator, like upstream Linux, lacks),
 * and the error status of each call.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "hsakmt/hsakmt.h"
#include "sim_nodes.h"

static struct sim_nodes sn;
static HSAuint32 gpu, cpu, n_nodes;
static bool large_bar;

static int
setup(void **state)
{
	(void)state;
	if (sim_nodes_find(&sn))
		return -1;
	gpu = sn.gpu;
	cpu = sn.cpu;
	n_nodes = sn.n_nodes;
	large_bar = sn.large_bar;
	return 0;
}

static int
teardown(void **state)
{
	(void)state;
	return hsaKmtCloseKFD() == HSAKMT_STATUS_SUCCESS ? 0 : -1;
}

static HsaMemFlags
vram_flags(void)
{
	return sim_vram_flags(&sn);
}

static void
test_vram_lifecycle(void **state)
{
	HsaMemFlags f = vram_flags();
	HsaPointerInfo pi;
	HSAuint64 gva = 0;
	HsaMemMapFlags mf = {0};
	char *p = NULL;

	(void)state;
	assert_int_equal(hsaKmtAllocMemory(gpu, 1 << 20, f, (void **)&p), HSAKMT_STATUS_SUCCESS);
	assert_non_null(p);
	if (large_bar) {
		memset(p, 0x5a, 1 << 20);
		assert_int_equal(p[12345], 0x5a);
	}
	/* Any address inside resolves to the whole allocation; no mapping yet. */
	assert_int_equal(hsaKmtQueryPointerInfo(p + (1 << 20) - 1, &pi), HSAKMT_STATUS_SUCCESS);
	assert_int_equal(pi.Type, HSA_POINTER_ALLOCATED);
	assert_ptr_equal(pi.CPUAddress, p);
	assert_int_equal(pi.GPUAddress, (uintptr_t)p);
	assert_int_equal(pi.SizeInBytes, 1 << 20);
	assert_int_equal(pi.Node, gpu);
	assert_int_equal(pi.NMappedNodes, 0);
	assert_int_equal(pi.MemFlags.Value, f.Value);

	gva = 1;
	assert_int_equal(hsaKmtMapMemoryToGPU(p, 1 << 20, &gva), HSAKMT_STATUS_SUCCESS);
	/* The GPU uses the CPU's address: no alternate one (0, as AMD's). */
	assert_int_equal(gva, 0);
	assert_int_equal(hsaKmtQueryPointerInfo(p + 4096, &pi), HSAKMT_STATUS_SUCCESS);
	assert_true(pi.NMappedNodes >= 1);
	assert_non_null(pi.MappedNodes);
	/* Mapping on exactly one node drops the others. */
	assert_int_equal(hsaKmtMapMemoryToGPUNodes(p, 1 << 20, &gva, mf, 1, &gpu),
			 HSAKMT_STATUS_SUCCESS);
	assert_int_equal(hsaKmtQueryPointerInfo(p, &pi), HSAKMT_STATUS_SUCCESS);
	assert_int_equal(pi.NMappedNodes, 1);
	assert_int_equal(pi.MappedNodes[0], gpu);
	/* Still mapped: the kernel refuses the free (as with AMD's library)
	 * and the buffer stays, mapped. */
	assert_int_equal(hsaKmtFreeMemory(p, 1 << 20), HSAKMT_STATUS_ERROR);
	assert_int_equal(hsaKmtQueryPointerInfo(p, &pi), HSAKMT_STATUS_SUCCESS);
	assert_int_equal(pi.Type, HSA_POINTER_ALLOCATED);
	assert_int_equal(pi.NMappedNodes, 1);
	assert_int_equal(hsaKmtUnmapMemoryToGPU(p), HSAKMT_STATUS_SUCCESS);
	assert_int_equal(hsaKmtQueryPointerInfo(p, &pi), HSAKMT_STATUS_SUCCESS);
	assert_int_equal(pi.NMappedNodes, 0);
	assert_int_equal(hsaKmtFreeMemory(p, 1 << 20), HSAKMT_STATUS_SUCCESS);
	/* Gone: unknown, with an error status. */
	assert_int_equal(hsaKmtQueryPointerInfo(p, &pi), HSAKMT_STATUS_ERROR);
	assert_int_equal(pi.Type, HSA_POINTER_UNKNOWN);
	assert_int_equal(hsaKmtFreeMemory(p, 1 << 20), HSAKMT_STATUS_MEMORY_NOT_REGISTERED);
}

static void
test_alloc_errors(void **state)
{
	HsaMemFlags f = vram_flags();
	HsaMemMapFlags mf = {0};
	void *p = NULL;
	HSAuint64 gva;
	static char junk[64];

	(void)state;
	assert_int_equal(hsaKmtAllocMemory(gpu, 0, f, &p), HSAKMT_STATUS_INVALID_PARAMETER);
	assert_int_equal(hsaKmtAllocMemory(gpu, 100, f, &p), HSAKMT_STATUS_INVALID_PARAMETER);
	assert_int_equal(hsaKmtAllocMemory(gpu, 4096, f, NULL), HSAKMT_STATUS_INVALID_PARAMETER);
	assert_int_equal(hsaKmtAllocMemory(n_nodes, 4096, f, &p), HSAKMT_STATUS_INVALID_NODE_UNIT);
	assert_int_equal(hsaKmtAllocMemoryAlign(gpu, 4096, 3 * 4096, f, &p),
			 HSAKMT_STATUS_INVALID_PARAMETER);
	f.ui32.FixedAddress = 1;
	p = NULL;
	assert_int_equal(hsaKmtAllocMemory(gpu, 4096, f, &p), HSAKMT_STATUS_INVALID_PARAMETER);
	f.ui32.FixedAddress = 0;
	/* 2 MiB pages: the size must be a multiple of them. */
	f.ui32.PageSize = HSA_PAGE_SIZE_2MB;
	assert_int_equal(hsaKmtAllocMemory(gpu, 1 << 20, f, &p), HSAKMT_STATUS_INVALID_PARAMETER);
	assert_int_equal(hsaKmtFreeMemory(NULL, 0), HSAKMT_STATUS_ERROR);
	assert_int_equal(hsaKmtFreeMemory(junk, 64), HSAKMT_STATUS_MEMORY_NOT_REGISTERED);
	assert_int_equal(hsaKmtMapMemoryToGPU(junk, 64, &gva), HSAKMT_STATUS_ERROR);
	assert_int_equal(hsaKmtMapMemoryToGPU(NULL, 64, &gva), HSAKMT_STATUS_ERROR);
	assert_int_equal(hsaKmtUnmapMemoryToGPU(junk), HSAKMT_STATUS_ERROR);
	assert_int_equal(hsaKmtMapMemoryToGPUNodes(junk, 64, &gva, mf, 0, &gpu),
			 HSAKMT_STATUS_INVALID_PARAMETER);
	assert_int_equal(hsaKmtMapMemoryToGPUNodes(junk, 64, &gva, mf, 1, &cpu),
			 HSAKMT_STATUS_INVALID_NODE_UNIT);
}

static void
test_align_and_fixed(void **state)
{
	HsaMemFlags f = vram_flags();
	void *p = NULL, *q;

	(void)state;
	assert_int_equal(hsaKmtAllocMemoryAlign(gpu, 64 << 10, 2 << 20, f, &p),
			 HSAKMT_STATUS_SUCCESS);
	assert_int_equal((uintptr_t)p & ((2 << 20) - 1), 0);
	assert_int_equal(hsaKmtFreeMemory(p, 64 << 10), HSAKMT_STATUS_SUCCESS);
	/* The freed range can be asked for by address... */
	f.ui32.FixedAddress = 1;
	q = p;
	assert_int_equal(hsaKmtAllocMemory(gpu, 64 << 10, f, &q), HSAKMT_STATUS_SUCCESS);
	assert_ptr_equal(q, p);
	/* ...but not twice. */
	q = p;
	assert_int_not_equal(hsaKmtAllocMemory(gpu, 64 << 10, f, &q), HSAKMT_STATUS_SUCCESS);
	assert_int_equal(hsaKmtFreeMemory(p, 64 << 10), HSAKMT_STATUS_SUCCESS);
}

static void
test_system_memory(void **state)
{
	HsaMemFlags f = {0};
	HsaPointerInfo pi;
	HSAuint64 gva;
	char *p = NULL;

	(void)state;
	/* Paged system memory (userptr-backed). */
	f.ui32.HostAccess = 1;
	f.ui32.CoarseGrain = 1;
	assert_int_equal(hsaKmtAllocMemory(cpu, 3 << 12, f, (void **)&p), HSAKMT_STATUS_SUCCESS);
	memset(p, 7, 3 << 12);
	assert_int_equal(hsaKmtMapMemoryToGPU(p, 3 << 12, &gva), HSAKMT_STATUS_SUCCESS);
	assert_int_equal(hsaKmtQueryPointerInfo(p + 5000, &pi), HSAKMT_STATUS_SUCCESS);
	assert_int_equal(pi.Type, HSA_POINTER_ALLOCATED);
	assert_int_equal(pi.Node, cpu);
	assert_true(pi.NMappedNodes >= 1);
	assert_int_equal(hsaKmtUnmapMemoryToGPU(p), HSAKMT_STATUS_SUCCESS);
	assert_int_equal(hsaKmtFreeMemory(p, 3 << 12), HSAKMT_STATUS_SUCCESS);

	/* Non-paged, fine-grained, and an AQL ring seen twice in a row. */
	f.Value = 0;
	f.ui32.HostAccess = 1;
	f.ui32.NonPaged = 1;
	f.ui32.AQLQueueMemory = 1;
	assert_int_equal(hsaKmtAllocMemory(cpu, 1 << 16, f, (void **)&p), HSAKMT_STATUS_SUCCESS);
	p[100] = 42;
	assert_int_equal(p[(1 << 16) + 100], 42);
	p[(1 << 16) + 200] = 43;
	assert_int_equal(p[200], 43);
	assert_int_equal(hsaKmtQueryPointerInfo(p, &pi), HSAKMT_STATUS_SUCCESS);
	assert_int_equal(pi.SizeInBytes, 2 << 16);
	assert_int_equal(hsaKmtFreeMemory(p, 1 << 16), HSAKMT_STATUS_SUCCESS);
}

static void
test_userptr(void **state)
{
	static char buf[5 * 4096];
	char *user = buf + 10;	/* not page-aligned on purpose */
	HsaPointerInfo pi;
	HSAuint64 gva = 0;
	HsaMemFlags f = {0};

	(void)state;
	assert_int_equal(hsaKmtRegisterMemory(user, 5000), HSAKMT_STATUS_SUCCESS);
	assert_int_equal(hsaKmtQueryPointerInfo(user + 4000, &pi), HSAKMT_STATUS_SUCCESS);
	assert_int_equal(pi.Type, HSA_POINTER_REGISTERED_USER);
	assert_ptr_equal(pi.CPUAddress, user);
	assert_int_equal(pi.SizeInBytes, 5000);
	/* The GPU view starts at the same offset into its page. */
	assert_int_equal(pi.GPUAddress & 4095, (uintptr_t)user & 4095);
	assert_int_equal(hsaKmtMapMemoryToGPU(user, 5000, &gva), HSAKMT_STATUS_SUCCESS);
	assert_int_equal(gva, pi.GPUAddress);
	assert_int_equal(hsaKmtSetMemoryUserData(user, (void *)0x1234), HSAKMT_STATUS_SUCCESS);
	assert_int_equal(hsaKmtQueryPointerInfo(user + 1, &pi), HSAKMT_STATUS_SUCCESS);
	assert_ptr_equal(pi.UserData, (void *)0x1234);
	assert_true(pi.NMappedNodes >= 1);
	/* A second registration only counts. */
	assert_int_equal(hsaKmtRegisterMemory(user, 5000), HSAKMT_STATUS_SUCCESS);
	assert_int_equal(hsaKmtUnmapMemoryToGPU(user), HSAKMT_STATUS_SUCCESS);
	assert_int_equal(hsaKmtDeregisterMemory(user), HSAKMT_STATUS_SUCCESS);
	assert_int_equal(hsaKmtQueryPointerInfo(user, &pi), HSAKMT_STATUS_SUCCESS);
	assert_int_equal(hsaKmtDeregisterMemory(user), HSAKMT_STATUS_SUCCESS);
	assert_int_equal(hsaKmtQueryPointerInfo(user, &pi), HSAKMT_STATUS_ERROR);
	assert_int_equal(hsaKmtDeregisterMemory(user), HSAKMT_STATUS_MEMORY_NOT_REGISTERED);

	/* Node lists cannot change behind a registration's back. */
	assert_int_equal(hsaKmtRegisterMemoryToNodes(buf, 4096, 1, &gpu), HSAKMT_STATUS_SUCCESS);
	assert_int_equal(hsaKmtRegisterMemoryToNodes(buf, 4096, 1, &gpu), HSAKMT_STATUS_SUCCESS);
	assert_int_equal(hsaKmtQueryPointerInfo(buf, &pi), HSAKMT_STATUS_SUCCESS);
	assert_int_equal(pi.NRegisteredNodes, 1);
	assert_int_equal(pi.RegisteredNodes[0], gpu);
	assert_int_equal(hsaKmtDeregisterMemory(buf), HSAKMT_STATUS_SUCCESS);
	assert_int_equal(hsaKmtDeregisterMemory(buf), HSAKMT_STATUS_SUCCESS);
	assert_int_equal(hsaKmtRegisterMemoryToNodes(buf, 4096, 1, &cpu),
			 HSAKMT_STATUS_INVALID_NODE_UNIT);
	assert_int_equal(hsaKmtRegisterMemory(NULL, 4096), HSAKMT_STATUS_INVALID_PARAMETER);
	/* Only paged host memory may be registered with flags. */
	f.ui32.HostAccess = 1;
	f.ui32.NonPaged = 1;
	assert_int_equal(hsaKmtRegisterMemoryWithFlags(buf, 4096, f), HSAKMT_STATUS_NOT_SUPPORTED);
	f.ui32.NonPaged = 0;
	assert_int_equal(hsaKmtRegisterMemoryWithFlags(buf, 4096, f), HSAKMT_STATUS_SUCCESS);
	assert_int_equal(hsaKmtDeregisterMemory(buf), HSAKMT_STATUS_SUCCESS);
	assert_int_equal(hsaKmtSetMemoryUserData(buf, NULL), HSAKMT_STATUS_ERROR);
}

static void
test_scratch(void **state)
{
	HsaMemFlags f = {0};
	HsaPointerInfo pi;
	HSAuint64 gva;
	char *s = NULL;
	void *again = NULL;

	(void)state;
	f.ui32.Scratch = 1;
	f.ui32.HostAccess = 0;
	assert_int_equal(hsaKmtAllocMemory(gpu, 1 << 20, f, (void **)&s), HSAKMT_STATUS_SUCCESS);
	assert_int_equal((uintptr_t)s & 0xffff, 0);
	/* One scratch range per GPU. */
	assert_int_equal(hsaKmtAllocMemory(gpu, 1 << 20, f, &again), HSAKMT_STATUS_NO_MEMORY);
	/* VRAM goes behind the parts that get mapped. */
	assert_int_equal(hsaKmtMapMemoryToGPU(s + (64 << 10), 64 << 10, &gva),
			 HSAKMT_STATUS_SUCCESS);
	assert_int_equal(hsaKmtMapMemoryToGPU(s + (64 << 10), 64 << 10, &gva), HSAKMT_STATUS_ERROR);
	assert_int_equal(hsaKmtQueryPointerInfo(s + (64 << 10), &pi), HSAKMT_STATUS_SUCCESS);
	assert_int_equal(pi.Node, gpu);
	assert_int_equal(hsaKmtUnmapMemoryToGPU(s + (64 << 10)), HSAKMT_STATUS_SUCCESS);
	assert_int_equal(hsaKmtUnmapMemoryToGPU(s + (64 << 10)), HSAKMT_STATUS_ERROR);
	assert_int_equal(hsaKmtMapMemoryToGPU(s, 4096, &gva), HSAKMT_STATUS_SUCCESS);
	/* Freeing the range takes what is still mapped with it. */
	assert_int_equal(hsaKmtFreeMemory(s, 1 << 20), HSAKMT_STATUS_SUCCESS);
	assert_int_equal(hsaKmtAllocMemory(cpu, 1 << 20, f, &again), HSAKMT_STATUS_NO_MEMORY);
}

static void
test_misc_calls(void **state)
{
	HsaMemFlags f = vram_flags();
	HSAuint64 before, after, copied = 1;
	HSAuint32 tiles[32], macro[16];
	HsaGpuTileConfig tc = { tiles, macro, 32, 16, 0, 0, 0, {0} };
	HsaMemoryRange local = { tiles, sizeof(tiles) }, remote = { tiles, sizeof(tiles) };
	HsaSharedMemoryHandle sh;
	void *p = NULL, *q = NULL;
	HSAuint64 size = 0, flat = 0;

	(void)state;
	assert_int_equal(hsaKmtAvailableMemory(gpu, &before), HSAKMT_STATUS_SUCCESS);
	assert_true(before > (64 << 20));
	assert_int_equal(hsaKmtAllocMemory(gpu, 64 << 20, f, &p), HSAKMT_STATUS_SUCCESS);
	assert_int_equal(hsaKmtAvailableMemory(gpu, &after), HSAKMT_STATUS_SUCCESS);
	assert_true(after + (64 << 20) <= before);
	assert_int_equal(hsaKmtAvailableMemory(cpu, &after), HSAKMT_STATUS_ERROR);
	assert_int_equal(hsaKmtAvailableMemory(gpu, NULL), HSAKMT_STATUS_INVALID_PARAMETER);

	assert_int_equal(hsaKmtGetTileConfig(gpu, &tc), HSAKMT_STATUS_SUCCESS);
	assert_true(tc.NumTileConfigs <= 32 && tc.NumMacroTileConfigs <= 16);
	assert_int_equal(hsaKmtGetTileConfig(gpu, NULL), HSAKMT_STATUS_INVALID_PARAMETER);
	assert_int_equal(hsaKmtGetTileConfig(cpu, &tc), HSAKMT_STATUS_ERROR);

	/* ROCm-only ioctls: an upstream kernel (and the simulator) says EINVAL. */
	assert_int_equal(hsaKmtProcessVMRead(getpid(), &local, 1, &remote, 1, &copied),
			 HSAKMT_STATUS_ERROR);
	assert_int_equal(copied, 0);
	assert_int_equal(hsaKmtProcessVMWrite(getpid(), NULL, 1, &remote, 1, &copied),
			 HSAKMT_STATUS_ERROR);
	assert_int_equal(hsaKmtShareMemory(p, 64 << 20, &sh), HSAKMT_STATUS_ERROR);
	assert_int_equal(hsaKmtShareMemory(p, 64 << 20, NULL), HSAKMT_STATUS_INVALID_PARAMETER);
	memset(sh, 0, sizeof(sh));
	assert_int_not_equal(hsaKmtRegisterSharedHandle(&sh, &q, &size), HSAKMT_STATUS_SUCCESS);

	/* Legacy calls answered the way AMD's library answers them. */
	assert_int_equal(hsaKmtSetMemoryPolicy(gpu, HSA_CACHING_CACHED, HSA_CACHING_CACHED, NULL,
					       0), HSAKMT_STATUS_NOT_IMPLEMENTED);
	assert_int_equal(hsaKmtMapGraphicHandle(gpu, 0, 0, 0, 0, &flat),
			 HSAKMT_STATUS_NOT_IMPLEMENTED);
	assert_int_equal(hsaKmtReplaceAsanHeaderPage(p), HSAKMT_STATUS_NOT_SUPPORTED);
	assert_int_equal(hsaKmtReturnAsanHeaderPage(p), HSAKMT_STATUS_NOT_SUPPORTED);
	assert_int_equal(hsaKmtFreeMemory(p, 64 << 20), HSAKMT_STATUS_SUCCESS);
}

static void
test_dmabuf_and_graphics(void **state)
{
	HsaMemFlags f = vram_flags();
	HsaGraphicsResourceInfo gi;
	HSA_REGISTER_MEM_FLAGS rf = { .Value = 0 };
	HsaPointerInfo pi;
	HSAuint64 off = 0, gva;
	char *p = NULL;
	int fd = -1, fd2 = -1;

	(void)state;
	assert_int_equal(hsaKmtAllocMemory(gpu, 1 << 20, f, (void **)&p), HSAKMT_STATUS_SUCCESS);
	assert_int_equal(hsaKmtExportDMABufHandle(p + 8192, 4096, &fd, &off), HSAKMT_STATUS_SUCCESS);
	assert_true(fd >= 0);
	assert_int_equal(off, 8192);
	assert_int_equal(hsaKmtExportDMABufHandle(p + 8192, 1 << 20, &fd2, &off),
			 HSAKMT_STATUS_INVALID_PARAMETER);
	assert_int_equal(hsaKmtExportDMABufHandle(&gi, 16, &fd2, &off),
			 HSAKMT_STATUS_INVALID_PARAMETER);

	/* Import it back as a graphics buffer, then the fd may go. */
	memset(&gi, 0xff, sizeof(gi));
	assert_int_equal(hsaKmtRegisterGraphicsHandleToNodes(fd, &gi, 1, &gpu),
			 HSAKMT_STATUS_SUCCESS);
	close(fd);
	assert_int_equal((uintptr_t)gi.MemoryAddress & ((256 << 10) - 1), 0);
	assert_int_equal(gi.SizeInBytes, 1 << 20);
	assert_int_equal(gi.NodeId, gpu);
	assert_true(gi.MetadataSizeInBytes == 0 || gi.Metadata != NULL);
	assert_int_equal(hsaKmtQueryPointerInfo((char *)gi.MemoryAddress + 100, &pi),
			 HSAKMT_STATUS_SUCCESS);
	assert_int_equal(pi.Type, HSA_POINTER_REGISTERED_GRAPHICS);
	assert_true(pi.MemFlags.ui32.CoarseGrain);
	assert_int_equal(pi.NRegisteredNodes, 1);
	assert_int_equal(hsaKmtMapMemoryToGPU(gi.MemoryAddress, gi.SizeInBytes, &gva),
			 HSAKMT_STATUS_SUCCESS);
	assert_int_equal(hsaKmtUnmapMemoryToGPU(gi.MemoryAddress), HSAKMT_STATUS_SUCCESS);
	assert_int_equal(hsaKmtDeregisterMemory(gi.MemoryAddress), HSAKMT_STATUS_SUCCESS);
	assert_int_equal(hsaKmtQueryPointerInfo(gi.MemoryAddress, &pi), HSAKMT_STATUS_ERROR);

	/* Without a GPU address: a handle address outside the CPU's range. */
	assert_int_equal(hsaKmtExportDMABufHandle(p, 4096, &fd, &off), HSAKMT_STATUS_SUCCESS);
	assert_int_equal(hsaKmtRegisterGraphicsHandleToNodesExt(fd, &gi, 0, NULL, rf),
			 HSAKMT_STATUS_SUCCESS);
	close(fd);
	assert_true((uintptr_t)gi.MemoryAddress >= (1ULL << 47));
	assert_int_equal(hsaKmtQueryPointerInfo(gi.MemoryAddress, &pi), HSAKMT_STATUS_SUCCESS);
	assert_int_equal(pi.Type, HSA_POINTER_REGISTERED_GRAPHICS);
	assert_int_equal(hsaKmtDeregisterMemory(gi.MemoryAddress), HSAKMT_STATUS_SUCCESS);

	/* Not a dma-buf, or no node. */
	assert_int_not_equal(hsaKmtRegisterGraphicsHandleToNodes(0, &gi, 1, &gpu),
			     HSAKMT_STATUS_SUCCESS);
	assert_int_equal(hsaKmtRegisterGraphicsHandleToNodes(fd, &gi, 0, NULL),
			 HSAKMT_STATUS_INVALID_PARAMETER);
	/*
	 * fd is closed now: the kernel answers EBADF for the dma-buf fd.
	 * That is the caller's mistake, not a sign that this process
	 * inherited the KFD file, so the context must keep working.
	 */
	assert_int_not_equal(hsaKmtRegisterGraphicsHandleToNodes(fd, &gi, 1, &gpu),
			     HSAKMT_STATUS_SUCCESS);
	assert_int_equal(hsaKmtFreeMemory(p, 1 << 20), HSAKMT_STATUS_SUCCESS);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_vram_lifecycle),
		cmocka_unit_test(test_alloc_errors),
		cmocka_unit_test(test_align_and_fixed),
		cmocka_unit_test(test_system_memory),
		cmocka_unit_test(test_userptr),
		cmocka_unit_test(test_scratch),
		cmocka_unit_test(test_misc_calls),
		cmocka_unit_test(test_dmabuf_and_graphics),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}

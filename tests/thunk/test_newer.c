/* SPDX-License-Identifier: MIT */
/*
 * The calls of AMD's newest libhsakmt on the simulated device: the
 * handle API (import a dma-buf, place it in the GPU VM, map it for the
 * CPU, free it), AIS file transfers, the SIGBUS delay, scattered-range
 * registration and external semaphores. Each is checked for its result,
 * its status for bad input, and the requests it puts on the wire, which
 * must be those AMD's library sends (6.2 lacks these calls, so the
 * reference is the newest library's source: docs/thunk.md).
 *
 * ioctl_spy records the library's requests and libdrm's.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cmocka.h>

#include "hsakmt/hsakmt.h"
#include "ioctl_spy.h"
#include "sim_nodes.h"

#include <kfdtrace/drm_abi.h>
#include <kfdtrace/kfd_abi.h>

/* The newest library's layouts (4-byte packing, like every type). */
_Static_assert(sizeof(HsaHandleImportDesc) == 40, "HsaHandleImportDesc is 40 bytes");
_Static_assert(offsetof(HsaHandleImportDesc, dmabuf_fd) == 12, "dmabuf_fd at 12");
_Static_assert(offsetof(HsaHandleImportDesc, mem) == 28, "mem at 28");
_Static_assert(offsetof(HsaHandleImportDesc, metadata) == 36, "metadata at 36");
_Static_assert(sizeof(HsaHandleImportResult) == 24, "HsaHandleImportResult is 24 bytes");
_Static_assert(offsetof(HsaHandleImportResult, alloc_size) == 12, "alloc_size at 12");
_Static_assert(sizeof(HsaHandleImportFlags) == 4, "HsaHandleImportFlags is 4 bytes");
_Static_assert(sizeof(HSA_EXTERNAL_SEMAPHORE_HANDLE) == 8, "a semaphore handle is 8 bytes");

/* DRM request numbers (core below 0x40, amdgpu's from 0x40). */
#define NR_GEM_CLOSE		0x09
#define NR_PRIME_FD_TO_HANDLE	0x2e
#define NR_AMDGPU(x)		(KFD_DRM_COMMAND_BASE + (x))

static struct sim_nodes sn;

static int
setup(void **state)
{
	(void)state;
	return sim_nodes_find(&sn);
}

static int
teardown(void **state)
{
	(void)state;
	return hsaKmtCloseKFD() == HSAKMT_STATUS_SUCCESS ? 0 : -1;
}

static void *
alloc_vram(HSAuint64 size)
{
	void *p = NULL;

	assert_int_equal(hsaKmtAllocMemory(sn.gpu, size, sim_vram_flags(&sn), &p),
			 HSAKMT_STATUS_SUCCESS);
	return p;
}

/* GEM_VA as the kernel received it. */
static const struct kfd_drm_amdgpu_gem_va *
gem_va_call(unsigned int skip)
{
	const struct spy_call *c;

	c = spy_find(KFD_DRM_IOCTL_BASE, NR_AMDGPU(KFD_DRM_AMDGPU_GEM_VA), skip);

	assert_non_null(c);
	return (const struct kfd_drm_amdgpu_gem_va *)c->in;
}

static void
test_handle_api(void **state)
{
	const HSAuint64 size = 64 << 10;
	HsaAMDGPUDeviceHandle dev;
	HsaHandleImportDesc desc;
	HsaHandleImportResult res, res2;
	HsaHandleImportFlags flags = {{0}};
	HsaMemoryObjectHandle h;
	const struct kfd_drm_amdgpu_gem_va *va;
	const struct spy_call *c;
	HsaMemFlags vf = {0};
	HSAuint64 off = 0, mmap_off = 0;
	uint32_t gem;
	void *vram, *gpu_va = NULL, *cpu_ptr = NULL;
	int fd, null_fd;

	(void)state;
	vram = alloc_vram(size);
	assert_int_equal(hsaKmtExportDMABufHandle(vram, size, &fd, &off), HSAKMT_STATUS_SUCCESS);
	assert_int_equal(hsaKmtGetAMDGPUDeviceHandle(sn.gpu, &dev), HSAKMT_STATUS_SUCCESS);
	vf.Value = HSA_MEMFLAG_ONLY_ADDRESS;
	vf.ui32.HostAccess = 1;
	assert_int_equal(hsaKmtAllocMemory(sn.gpu, size, vf, &gpu_va), HSAKMT_STATUS_SUCCESS);
	/* A VA range alone has no memory to map (kfdtest's VA_VRAM_Only). */
	spy_reset();
	assert_int_equal(hsaKmtMapMemoryToGPU(gpu_va, size, NULL),
			 HSAKMT_STATUS_INVALID_PARAMETER);
	assert_int_equal(spy_n, 0);

	/* Bad input: nothing reaches the kernel. */
	memset(&desc, 0, sizeof(desc));
	desc.device_handle = dev;
	desc.type = HSA_EXTERNAL_HANDLE_DMA_BUF;
	desc.dmabuf_fd = fd;
	spy_reset();
	assert_int_equal(hsaKmtHandleImport(NULL, &res, &flags), HSAKMT_STATUS_INVALID_HANDLE);
	assert_int_equal(hsaKmtHandleImport(&desc, NULL, &flags), HSAKMT_STATUS_INVALID_HANDLE);
	desc.device_handle = NULL;
	assert_int_equal(hsaKmtHandleImport(&desc, &res, &flags), HSAKMT_STATUS_INVALID_HANDLE);
	desc.device_handle = dev;
	desc.type = HSA_EXTERNAL_HANDLE_KMS;
	assert_int_equal(hsaKmtHandleImport(&desc, &res, &flags), HSAKMT_STATUS_NOT_SUPPORTED);
	desc.type = HSA_EXTERNAL_HANDLE_GEM_FLINK_NAME;
	assert_int_equal(hsaKmtHandleImport(&desc, &res, &flags), HSAKMT_STATUS_NOT_SUPPORTED);
	desc.type = HSA_EXTERNAL_HANDLE_FABRIC;
	assert_int_equal(hsaKmtHandleImport(&desc, &res, &flags), HSAKMT_STATUS_ERROR);
	assert_int_equal(spy_n, 0);

	/* Not a dma-buf: the kernel refuses the import. */
	null_fd = open("/dev/null", O_RDONLY | O_CLOEXEC);
	assert_true(null_fd >= 0);
	desc.type = HSA_EXTERNAL_HANDLE_DMA_BUF;
	desc.dmabuf_fd = null_fd;
	assert_int_equal(hsaKmtHandleImport(&desc, &res, NULL), HSAKMT_STATUS_ERROR);
	close(null_fd);

	/* The import: one PRIME_FD_TO_HANDLE with our fd. */
	desc.dmabuf_fd = fd;
	spy_reset();
	memset(&res, 0, sizeof(res));
	assert_int_equal(hsaKmtHandleImport(&desc, &res, &flags), HSAKMT_STATUS_SUCCESS);
	h = res.buf_handle;
	assert_non_null(h);
	assert_int_equal(res.alloc_size, size);
	assert_int_equal(res.dmabuf_fd, fd);
	c = spy_find(KFD_DRM_IOCTL_BASE, NR_PRIME_FD_TO_HANDLE, 0);
	assert_non_null(c);
	assert_int_equal(c->ret, 0);
	assert_int_equal(((const struct kfd_drm_prime_handle *)c->in)->fd, fd);
	for (unsigned int i = 0; i < spy_n; i++)
		assert_int_not_equal(KFD_ABI_IOC_TYPE(spy_calls[i].request), KFD_ABI_IOCTL_BASE);

	/*
	 * An IPC import whose tag cannot be read (the simulator lacks
	 * GEM_OP) is undone: else libdrm would hold a second reference and
	 * the free below would send no GEM_CLOSE.
	 */
	flags.ui32.IPCHandle = 1;
	assert_int_equal(hsaKmtHandleImport(&desc, &res2, &flags), HSAKMT_STATUS_INVALID_HANDLE);
	flags.ui32.IPCHandle = 0;

	/* Into the GPU VM at the reserved address, read/write. */
	spy_reset();
	assert_int_equal(hsaKmtMemoryVaMap(h, 0, size, (uintptr_t)gpu_va, HSA_MEMORY_ACCESS_RW,
					   sn.gpu),
			 HSAKMT_STATUS_SUCCESS);
	va = gem_va_call(0);
	assert_int_equal(va->operation, KFD_DRM_AMDGPU_VA_OP_MAP);
	assert_int_equal(va->flags,
			 KFD_DRM_AMDGPU_VM_PAGE_READABLE | KFD_DRM_AMDGPU_VM_PAGE_WRITEABLE);
	assert_int_equal(va->va_address, (uintptr_t)gpu_va);
	assert_int_equal(va->map_size, size);
	assert_int_equal(va->offset_in_bo, 0);
	gem = va->handle;
	assert_int_not_equal(gem, 0);
	assert_int_equal(spy_n, 1);
	/* Bad input. */
	assert_int_equal(hsaKmtMemoryVaMap(NULL, 0, size, (uintptr_t)gpu_va, HSA_MEMORY_ACCESS_RW,
					   sn.gpu), HSAKMT_STATUS_ERROR);
	assert_int_equal(hsaKmtMemoryVaMap(h, 0, size, (uintptr_t)gpu_va, HSA_MEMORY_ACCESS_RO,
					   sn.cpu),
			 HSAKMT_STATUS_INVALID_NODE_UNIT);
	assert_int_equal(spy_n, 1);
	/* A range past the buffer's end: the kernel refuses. */
	assert_int_equal(hsaKmtMemoryVaMap(h, size, size, (uintptr_t)gpu_va + size,
					   HSA_MEMORY_ACCESS_RO, sn.gpu), HSAKMT_STATUS_ERROR);
	assert_int_equal(gem_va_call(1)->flags, KFD_DRM_AMDGPU_VM_PAGE_READABLE);

	/*
	 * The mmap offset through GEM_MMAP on the device's file. Without a
	 * large BAR the VRAM has no CPU access and the kernel refuses it.
	 */
	spy_reset();
	assert_int_equal(hsaKmtMemoryGetCpuAddr(dev, h, &mmap_off),
			 sn.large_bar ? HSAKMT_STATUS_SUCCESS : HSAKMT_STATUS_ERROR);
	c = spy_find(KFD_DRM_IOCTL_BASE, NR_AMDGPU(KFD_DRM_AMDGPU_GEM_MMAP), 0);
	assert_non_null(c);
	assert_int_equal(spy_n, 1);
	assert_int_equal(((const union kfd_drm_amdgpu_gem_mmap *)c->in)->in.handle, gem);
	assert_int_equal(c->ret, sn.large_bar ? 0 : -1);
	assert_int_equal(hsaKmtMemoryGetCpuAddr(NULL, h, &mmap_off), HSAKMT_STATUS_ERROR);
	assert_int_equal(hsaKmtMemoryGetCpuAddr(dev, h, NULL), HSAKMT_STATUS_ERROR);
	assert_int_equal(spy_n, 1);

	/* The CPU mapping shows the allocation's bytes. */
	if (sn.large_bar) {
		assert_int_not_equal(mmap_off, 0);
		assert_int_equal(hsaKmtMemoryCpuMap(h, &cpu_ptr), HSAKMT_STATUS_SUCCESS);
		assert_non_null(cpu_ptr);
		memset(vram, 0x5a, 4096);
		assert_int_equal(((unsigned char *)cpu_ptr)[4095], 0x5a);
		((unsigned char *)cpu_ptr)[8] = 0xa5;
		assert_int_equal(((unsigned char *)vram)[8], 0xa5);
	} else {
		assert_int_equal(hsaKmtMemoryCpuMap(h, &cpu_ptr), HSAKMT_STATUS_ERROR);
	}
	assert_int_equal(hsaKmtMemoryCpuMap(NULL, &cpu_ptr), HSAKMT_STATUS_ERROR);

	/* Out of the VM again; a second unmap finds nothing. */
	spy_reset();
	assert_int_equal(hsaKmtMemoryVaUnmap(h, 0, size, (uintptr_t)gpu_va, sn.gpu),
			 HSAKMT_STATUS_SUCCESS);
	va = gem_va_call(0);
	assert_int_equal(va->operation, KFD_DRM_AMDGPU_VA_OP_UNMAP);
	assert_int_equal(va->flags, 0);
	assert_int_equal(va->va_address, (uintptr_t)gpu_va);
	assert_int_equal(hsaKmtMemoryVaUnmap(h, 0, size, (uintptr_t)gpu_va, sn.gpu),
			 HSAKMT_STATUS_ERROR);
	assert_int_equal(hsaKmtMemoryVaUnmap(NULL, 0, size, (uintptr_t)gpu_va, sn.gpu),
			 HSAKMT_STATUS_ERROR);

	/* Free: the tag cleared (GEM_METADATA), then the handle closed. */
	spy_reset();
	assert_int_equal(hsaKmtMemHandleFree(h), HSAKMT_STATUS_SUCCESS);
	c = spy_find(KFD_DRM_IOCTL_BASE, NR_AMDGPU(KFD_DRM_AMDGPU_GEM_METADATA), 0);
	assert_non_null(c);
	assert_int_equal(c->ret, 0);
	c = spy_find(KFD_DRM_IOCTL_BASE, NR_GEM_CLOSE, 0);
	assert_non_null(c);
	assert_int_equal(c->ret, 0);
	assert_true(spy_find(KFD_DRM_IOCTL_BASE, NR_AMDGPU(KFD_DRM_AMDGPU_GEM_METADATA), 0) <
		    spy_find(KFD_DRM_IOCTL_BASE, NR_GEM_CLOSE, 0));
	assert_int_equal(hsaKmtMemHandleFree(NULL), HSAKMT_STATUS_ERROR);

	close(fd);
	assert_int_equal(hsaKmtFreeMemory(gpu_va, size), HSAKMT_STATUS_SUCCESS);
	assert_int_equal(hsaKmtFreeMemory(vram, size), HSAKMT_STATUS_SUCCESS);
}

static void
test_ais(void **state)
{
	const HSAuint64 size = 64 << 10;
	const struct kfd_abi_ais_in_args *in;
	HSAuint64 copied = 1;
	HSAint32 status = 1;
	const struct spy_call *c;
	void *vram;
	int fd, local;

	(void)state;
	vram = alloc_vram(size);
	/* Any file will do: the request never gets as far as reading it. */
	fd = memfd_create("kfdtrace-ais", MFD_CLOEXEC);
	assert_true(fd >= 0);

	/* Bad input: nothing reaches the kernel. */
	spy_reset();
	assert_int_equal(hsaKmtAisReadWriteFile(vram, 4096, fd, 0, 0, &copied, &status),
			 HSAKMT_STATUS_INVALID_PARAMETER);
	assert_int_equal(hsaKmtAisReadWriteFile(vram, 4096, fd, 0, HSA_AIS_READ | HSA_AIS_WRITE,
						&copied, &status), HSAKMT_STATUS_INVALID_PARAMETER);
	assert_int_equal(hsaKmtAisReadWriteFile(&local, 4, fd, 0, HSA_AIS_READ, &copied, &status),
			 HSAKMT_STATUS_INVALID_PARAMETER);
	assert_int_equal(hsaKmtAisReadWriteFile((char *)vram + 4096, size, fd, 0, HSA_AIS_WRITE,
						&copied, &status), HSAKMT_STATUS_INVALID_PARAMETER);
	assert_int_equal(spy_n, 0);

	/* One AIS_OP request; the simulator, like upstream Linux, lacks it. */
	assert_int_equal(hsaKmtAisReadWriteFile((char *)vram + 4096, 8192, fd, 512, HSA_AIS_READ,
						&copied, &status), HSAKMT_STATUS_ERROR);
	assert_int_equal(spy_n, 1);
	c = spy_find(KFD_ABI_IOCTL_BASE, KFD_ABI_IOC_NR(KFD_ABI_IOC_AIS_OP), 0);
	assert_non_null(c);
	assert_int_equal(c->request, KFD_ABI_IOC_AIS_OP);
	assert_int_equal(c->ret, -1);
	in = (const struct kfd_abi_ais_in_args *)c->in;
	assert_int_not_equal(in->handle, 0);
	assert_int_equal(in->handle_offset, 4096);
	assert_int_equal(in->file_offset, 512);
	assert_int_equal(in->size, 8192);
	assert_int_equal(in->op, KFD_ABI_AIS_READ);
	assert_int_equal(in->fd, fd);
	assert_int_equal(copied, 0);
	assert_int_equal(status, -c->err);
	/* Optional outputs. */
	assert_int_equal(hsaKmtAisReadWriteFile(vram, size, fd, 0, HSA_AIS_WRITE, NULL, NULL),
			 HSAKMT_STATUS_ERROR);
	assert_int_equal(((const struct kfd_abi_ais_in_args *)spy_find(KFD_ABI_IOCTL_BASE,
			 KFD_ABI_IOC_NR(KFD_ABI_IOC_AIS_OP), 1)->in)->op, KFD_ABI_AIS_WRITE);

	close(fd);
	assert_int_equal(hsaKmtFreeMemory(vram, size), HSAKMT_STATUS_SUCCESS);
}

static void
test_sigbus_delay(void **state)
{
	const struct spy_call *c;
	uint32_t sent[2];

	(void)state;
	spy_reset();
	/* No GPU, no render file: nothing is sent. */
	assert_int_equal(hsaKmtSetSigbusDelay(sn.cpu, 100), HSAKMT_STATUS_NOT_SUPPORTED);
	assert_int_equal(hsaKmtSetSigbusDelay(~0u, 100), HSAKMT_STATUS_NOT_SUPPORTED);
	assert_int_equal(spy_n, 0);
	/* amdgpu PROC_OPTIONS: the simulator, like upstream Linux, lacks it. */
	assert_int_equal(hsaKmtSetSigbusDelay(sn.gpu, 250), HSAKMT_STATUS_NOT_SUPPORTED);
	assert_int_equal(spy_n, 1);
	c = spy_find(KFD_DRM_IOCTL_BASE, NR_AMDGPU(0x1a), 0);
	assert_non_null(c);
	assert_int_equal(KFD_ABI_IOC_SIZE(c->request), 8);
	assert_int_equal(KFD_ABI_IOC_DIR(c->request), 3);	/* read and write */
	assert_int_equal(c->ret, -1);
	memcpy(sent, c->in, sizeof(sent));
	assert_int_equal(sent[0], 0);		/* the KFD SIGBUS delay option */
	assert_int_equal(sent[1], 250);
}

static void
test_register_ranges(void **state)
{
	static char a[8192], b[4096];
	HsaMemoryRange r[2] = { { a, sizeof(a) }, { b, sizeof(b) } };
	HsaMemFlags f = {0};

	(void)state;
	f.ui32.HostAccess = 1;
	spy_reset();
	assert_int_equal(hsaKmtRegisterMemoryRangesWithFlags(NULL, r, 2, f),
			 HSAKMT_STATUS_INVALID_PARAMETER);
	assert_int_equal(hsaKmtRegisterMemoryRangesWithFlags(a, NULL, 2, f),
			 HSAKMT_STATUS_INVALID_PARAMETER);
	assert_int_equal(hsaKmtRegisterMemoryRangesWithFlags(a, r, 0, f),
			 HSAKMT_STATUS_INVALID_PARAMETER);
	r[1].SizeInBytes = 0;
	assert_int_equal(hsaKmtRegisterMemoryRangesWithFlags(a, r, 2, f),
			 HSAKMT_STATUS_INVALID_PARAMETER);
	r[1].SizeInBytes = sizeof(b);
	f.Value |= HSA_MEMFLAG_EXTENDED_COHERENT;
	f.ui32.CoarseGrain = 1;
	assert_int_equal(hsaKmtRegisterMemoryRangesWithFlags(a, r, 2, f),
			 HSAKMT_STATUS_INVALID_PARAMETER);
	f.Value = 0;
	f.ui32.NonPaged = 1;
	f.ui32.HostAccess = 1;
	assert_int_equal(hsaKmtRegisterMemoryRangesWithFlags(a, r, 2, f),
			 HSAKMT_STATUS_NOT_SUPPORTED);
	/* Well-formed: no kernel has a multi-range user-pointer BO. */
	f.ui32.NonPaged = 0;
	assert_int_equal(hsaKmtRegisterMemoryRangesWithFlags(a, r, 2, f),
			 HSAKMT_STATUS_NOT_SUPPORTED);
	assert_int_equal(spy_n, 0);
	/* Nothing was registered. */
	assert_int_equal(hsaKmtDeregisterMemory(a), HSAKMT_STATUS_MEMORY_NOT_REGISTERED);
}

static void
test_external_semaphores_and_closed(void **state)
{
	HSA_EXTERNAL_SEMAPHORE_HANDLE h = { 0 };
	HsaHandleImportResult res;
	int dummy;

	(void)state;
	spy_reset();
	assert_int_equal(hsaKmtImportExternalSemaphore(sn.gpu, &dummy,
		HSA_EXTERNAL_SEMAPHORE_HANDLE_TYPE_OPAQUE_FD, &h), HSAKMT_STATUS_NOT_SUPPORTED);
	assert_int_equal(hsaKmtImportExternalSemaphore(sn.gpu, NULL, 7, NULL),
			 HSAKMT_STATUS_NOT_SUPPORTED);
	assert_int_equal(hsaKmtDestroyExternalSemaphore(h), HSAKMT_STATUS_NOT_SUPPORTED);
	assert_int_equal(spy_n, 0);

	/* With the library closed: the pair still answers NOT_SUPPORTED. */
	assert_int_equal(hsaKmtCloseKFD(), HSAKMT_STATUS_SUCCESS);
	assert_int_equal(hsaKmtDestroyExternalSemaphore(h), HSAKMT_STATUS_NOT_SUPPORTED);
	assert_int_equal(hsaKmtHandleImport(NULL, &res, NULL),
			 HSAKMT_STATUS_KERNEL_IO_CHANNEL_NOT_OPENED);
	assert_int_equal(hsaKmtMemHandleFree(NULL), HSAKMT_STATUS_KERNEL_IO_CHANNEL_NOT_OPENED);
	assert_int_equal(hsaKmtSetSigbusDelay(sn.gpu, 1),
			 HSAKMT_STATUS_KERNEL_IO_CHANNEL_NOT_OPENED);
	assert_int_equal(hsaKmtAisReadWriteFile(NULL, 0, 0, 0, HSA_AIS_READ, NULL, NULL),
			 HSAKMT_STATUS_KERNEL_IO_CHANNEL_NOT_OPENED);
	assert_int_equal(hsaKmtOpenKFD(), HSAKMT_STATUS_SUCCESS);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_handle_api),
		cmocka_unit_test(test_ais),
		cmocka_unit_test(test_sigbus_delay),
		cmocka_unit_test(test_register_ranges),
		cmocka_unit_test(test_external_semaphores_and_closed),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}

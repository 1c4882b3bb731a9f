/* SPDX-License-Identifier: MIT */
/*
 * AMD's thunk on the simulated device, continued (test_thunk.c has the
 * group setup and main()): queues, SVM, clock counters, error statuses,
 * graphics interop, memory sharing and a forked child.
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

/* Ring plus read/write pointers, in GTT memory mapped to the GPU. */
struct ring {
	void *ring;
	HSAuint64 ring_size;
	void *ptrs;
};

static void
ring_alloc(struct ring *r, HSAuint32 node)
{
	HsaMemFlags flags = { 0 };
	HSAuint64 va;

	r->ring_size = 64 << 10;
	flags.ui32.NonPaged = 1;
	flags.ui32.HostAccess = 1;
	flags.ui32.ExecuteAccess = 1;
	r->ring = NULL;
	r->ptrs = NULL;
	assert_int_equal(hsaKmtAllocMemory(0, r->ring_size, flags, &r->ring), HSAKMT_STATUS_SUCCESS);
	assert_int_equal(hsaKmtMapMemoryToGPUNodes(r->ring, r->ring_size, &va,
						   (HsaMemMapFlags){ 0 }, 1, &node),
			 HSAKMT_STATUS_SUCCESS);
	assert_int_equal(hsaKmtAllocMemory(0, 4096, flags, &r->ptrs), HSAKMT_STATUS_SUCCESS);
	assert_int_equal(hsaKmtMapMemoryToGPUNodes(r->ptrs, 4096, &va, (HsaMemMapFlags){ 0 }, 1,
						   &node), HSAKMT_STATUS_SUCCESS);
	memset(r->ptrs, 0, 4096);
}

static void
ring_free(struct ring *r)
{
	assert_int_equal(hsaKmtUnmapMemoryToGPU(r->ring), HSAKMT_STATUS_SUCCESS);
	assert_int_equal(hsaKmtFreeMemory(r->ring, r->ring_size), HSAKMT_STATUS_SUCCESS);
	assert_int_equal(hsaKmtUnmapMemoryToGPU(r->ptrs), HSAKMT_STATUS_SUCCESS);
	assert_int_equal(hsaKmtFreeMemory(r->ptrs, 4096), HSAKMT_STATUS_SUCCESS);
}

/* The emulated KFD ABI minor (KFDSIM_ABI, else the newest). */
static unsigned int
abi_minor(void)
{
	const char *abi = getenv("KFDSIM_ABI");

	if (!abi)
		return 19;
	return (unsigned int)atoi(strchr(abi, '.') ? strchr(abi, '.') + 1 : abi);
}

/*
 * Whether the kernel refuses the thunk's compute queues on @node. From ABI
 * 1.16 KFD checks a queue's ctx_save_restore_size and ctl_stack_size
 * against its own (per XCC) values. The 5.2.3 thunk computes them for the
 * whole GPU with the register sizes of the targets it knows, so on a GPU
 * with several XCCs (MI300X, gfx942: 8) the kernel answers EINVAL and the
 * thunk reports ERROR -- what this thunk does on such a machine. SDMA
 * queues have no CWSR area and still work.
 */
static bool
cwsr_refused(HSAuint32 node)
{
	return abi_minor() >= 16 && sysfs_prop(node, "num_xcc") > 1;
}

static void
queue_roundtrip(HSA_QUEUE_TYPE type)
{
	for (unsigned int g = 0; g < n_gpus; g++) {
		HSAuint32 node = gpu_nodes[g];
		HsaQueueResource res;
		struct ring r;

		ring_alloc(&r, node);
		memset(&res, 0, sizeof(res));
		if (type == HSA_QUEUE_COMPUTE_AQL) {
			/* AQL queues take their pointers from the caller (ROCr) */
			res.QueueRptrValue = (uintptr_t)r.ptrs;
			res.QueueWptrValue = (uintptr_t)r.ptrs + 8;
			/*
			 * Every slot INVALID, as ROCr leaves a new ring: the
			 * doorbell below then announces no packet. A zeroed
			 * slot is a vendor packet of format 0, which the
			 * engine refuses, if it looks before the queue goes.
			 */
			for (HSAuint64 o = 0; o < r.ring_size; o += 64)
				*(volatile uint16_t *)((char *)r.ring + o) = 1;
		}
		if (type != HSA_QUEUE_SDMA && cwsr_refused(node)) {
			assert_int_equal(hsaKmtCreateQueue(node, type, 100,
							   HSA_QUEUE_PRIORITY_NORMAL, r.ring,
							   r.ring_size, NULL, &res),
					 HSAKMT_STATUS_ERROR);
			ring_free(&r);
			continue;
		}
		assert_int_equal(hsaKmtCreateQueue(node, type, 100, HSA_QUEUE_PRIORITY_NORMAL,
						   r.ring, r.ring_size, NULL, &res),
				 HSAKMT_STATUS_SUCCESS);
		assert_true(res.QueueId != 0);
		assert_non_null(res.Queue_DoorBell);
		/* ring the doorbell: a store to the mapped doorbell page */
		*res.Queue_DoorBell_aql = 0;
		assert_int_equal(hsaKmtUpdateQueue(res.QueueId, 50, HSA_QUEUE_PRIORITY_HIGH, r.ring,
						   r.ring_size, NULL), HSAKMT_STATUS_SUCCESS);
		/* the ring cannot be freed while the queue uses it (EBUSY) */
		assert_int_equal(hsaKmtDestroyQueue(res.QueueId), HSAKMT_STATUS_SUCCESS);
		ring_free(&r);
	}
}

void
test_queue_compute_aql(void **state)
{
	queue_roundtrip(HSA_QUEUE_COMPUTE_AQL);
}

void
test_queue_sdma(void **state)
{
	queue_roundtrip(HSA_QUEUE_SDMA);
}

void
test_queue_errors(void **state)
{
	HsaQueueResource res;
	char ring[4096];

	memset(&res, 0, sizeof(res));
	assert_int_equal(hsaKmtCreateQueue(sys_props.NumNodes + 1, HSA_QUEUE_COMPUTE_AQL, 100,
					   HSA_QUEUE_PRIORITY_NORMAL, ring, sizeof(ring), NULL,
					   &res),
			 HSAKMT_STATUS_INVALID_NODE_UNIT);
	assert_int_equal(hsaKmtCreateQueue(gpu_nodes[0], HSA_QUEUE_COMPUTE_AQL, 100,
					   (HSA_QUEUE_PRIORITY)7, ring, sizeof(ring), NULL, &res),
			 HSAKMT_STATUS_INVALID_PARAMETER);
	assert_int_equal(hsaKmtDestroyQueue(0), HSAKMT_STATUS_INVALID_PARAMETER);
}

void
test_svm(void **state)
{
	const size_t size = 2 << 20;
	HSA_SVM_ATTRIBUTE set[2], get[2];
	void *buf;

	buf = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	assert_true(buf != MAP_FAILED);
	set[0].type = HSA_SVM_ATTR_PREFERRED_LOC;
	set[0].value = gpu_nodes[0];
	set[1].type = HSA_SVM_ATTR_SET_FLAGS;
	set[1].value = HSA_SVM_FLAG_COHERENT;
	assert_int_equal(hsaKmtSVMSetAttr(buf, size, 2, set), HSAKMT_STATUS_SUCCESS);
	get[0].type = HSA_SVM_ATTR_PREFERRED_LOC;
	get[0].value = 0;
	get[1].type = HSA_SVM_ATTR_SET_FLAGS;
	get[1].value = 0;
	assert_int_equal(hsaKmtSVMGetAttr(buf, size, 2, get), HSAKMT_STATUS_SUCCESS);
	assert_int_equal(get[0].value, gpu_nodes[0]);
	assert_true(get[1].value & HSA_SVM_FLAG_COHERENT);
	munmap(buf, size);
}

void
test_clock_counters(void **state)
{
	HsaClockCounters a, b;

	assert_int_equal(hsaKmtGetClockCounters(gpu_nodes[0], &a), HSAKMT_STATUS_SUCCESS);
	usleep(2000);
	assert_int_equal(hsaKmtGetClockCounters(gpu_nodes[0], &b), HSAKMT_STATUS_SUCCESS);
	assert_true(b.CPUClockCounter > a.CPUClockCounter);
	assert_true(b.SystemClockCounter > a.SystemClockCounter);
	assert_true(b.GPUClockCounter > a.GPUClockCounter);
	assert_int_equal(a.SystemClockFrequencyHz, 1000000000ull);
}

/* Wrong calls get the statuses the thunk gives on a real kernel. */
void
test_error_statuses(void **state)
{
	HsaMemFlags flags = vram_flags(gpu_nodes[0]);
	HSAuint64 va;
	void *mem = NULL, *bogus;

	assert_int_equal(hsaKmtAllocMemory(gpu_nodes[0], 4096, flags, &mem), HSAKMT_STATUS_SUCCESS);
	assert_int_equal(hsaKmtMapMemoryToGPU(mem, 4096, &va), HSAKMT_STATUS_SUCCESS);
	/* KFD refuses to free a mapped BO (EBUSY); the thunk keeps it */
	assert_int_equal(hsaKmtFreeMemory(mem, 4096), HSAKMT_STATUS_ERROR);
	check_pointer(mem, HSA_POINTER_ALLOCATED, 4096, n_gpus);
	assert_int_equal(hsaKmtUnmapMemoryToGPU(mem), HSAKMT_STATUS_SUCCESS);
	assert_int_equal(hsaKmtFreeMemory(mem, 4096), HSAKMT_STATUS_SUCCESS);

	bogus = (void *)(uintptr_t)0x7ff000001000ull;
	assert_int_equal(hsaKmtFreeMemory(bogus, 4096), HSAKMT_STATUS_MEMORY_NOT_REGISTERED);
	assert_int_equal(hsaKmtFreeMemory(NULL, 4096), HSAKMT_STATUS_ERROR);
	assert_int_not_equal(hsaKmtMapMemoryToGPU(bogus, 4096, &va), HSAKMT_STATUS_SUCCESS);
	assert_int_equal(hsaKmtAllocMemory(gpu_nodes[0], 0, flags, &mem),
			 HSAKMT_STATUS_INVALID_PARAMETER);
	assert_int_equal(hsaKmtAllocMemory(sys_props.NumNodes + 3, 4096, flags, &mem),
			 HSAKMT_STATUS_INVALID_NODE_UNIT);
	/* more VRAM than the device has */
	assert_int_equal(hsaKmtAllocMemory(gpu_nodes[0], 1ull << 40, flags, &mem),
			 HSAKMT_STATUS_NO_MEMORY);
}

#ifdef HAVE_LIBDRM_AMDGPU
/* A BO from libdrm_amdgpu on the simulated render node, imported into KFD. */
void
test_graphics_interop(void **state)
{
	const HsaNodeProperties *p = &node_props[gpu_nodes[0]];
	struct amdgpu_bo_alloc_request req;
	struct amdgpu_bo_metadata meta;
	amdgpu_device_handle dev;
	HsaGraphicsResourceInfo info;
	amdgpu_bo_handle bo;
	uint32_t major, minor, dmabuf = 0;
	HSAuint64 va;
	char path[64];
	int fd;

	snprintf(path, sizeof(path), "/dev/dri/renderD%d", p->DrmRenderMinor);
	fd = open(path, O_RDWR | O_CLOEXEC);
	assert_true(fd >= 0);
	assert_int_equal(amdgpu_device_initialize(fd, &major, &minor, &dev), 0);
	assert_int_equal(major, 3);

	memset(&req, 0, sizeof(req));
	req.alloc_size = 1 << 20;
	req.phys_alignment = 4096;
	req.preferred_heap = AMDGPU_GEM_DOMAIN_VRAM;
	assert_int_equal(amdgpu_bo_alloc(dev, &req, &bo), 0);
	memset(&meta, 0, sizeof(meta));
	meta.tiling_info = 0x1234;
	meta.size_metadata = 16;
	for (int i = 0; i < 4; i++)
		meta.umd_metadata[i] = 0xc0de0000u + (uint32_t)i;
	assert_int_equal(amdgpu_bo_set_metadata(bo, &meta), 0);
	assert_int_equal(amdgpu_bo_export(bo, amdgpu_bo_handle_type_dma_buf_fd, &dmabuf), 0);
	assert_true((int)dmabuf >= 0);

	memset(&info, 0, sizeof(info));
	assert_int_equal(hsaKmtRegisterGraphicsHandleToNodes(dmabuf, &info, 1,
							     (HSAuint32 *)&gpu_nodes[0]),
			 HSAKMT_STATUS_SUCCESS);
	assert_int_equal(info.SizeInBytes, 1 << 20);
	assert_non_null(info.MemoryAddress);
	assert_true(info.MetadataSizeInBytes >= 16);
	assert_memory_equal(info.Metadata, meta.umd_metadata, 16);
	assert_int_equal(hsaKmtMapMemoryToGPU(info.MemoryAddress, info.SizeInBytes, &va),
			 HSAKMT_STATUS_SUCCESS);
	check_pointer(info.MemoryAddress, HSA_POINTER_REGISTERED_GRAPHICS, 1 << 20, 1);
	assert_int_equal(hsaKmtUnmapMemoryToGPU(info.MemoryAddress), HSAKMT_STATUS_SUCCESS);
	assert_int_equal(hsaKmtDeregisterMemory(info.MemoryAddress), HSAKMT_STATUS_SUCCESS);

	close((int)dmabuf);
	assert_int_equal(amdgpu_bo_free(bo), 0);
	amdgpu_device_deinitialize(dev);
	close(fd);
}

/*
 * libdrm_amdgpu's submission contexts on the simulated render node
 * (AMDGPU_CTX): made and freed, a clean reset state, the stable pstate
 * one context holds at a time.
 */
void
test_amdgpu_ctx(void **state)
{
	const HsaNodeProperties *p = &node_props[gpu_nodes[0]];
	amdgpu_context_handle a, b, c;
	amdgpu_device_handle dev;
	uint32_t major, minor, st, hangs, pstate;
	uint64_t flags;
	char path[64];
	int fd;

	snprintf(path, sizeof(path), "/dev/dri/renderD%d", p->DrmRenderMinor);
	fd = open(path, O_RDWR | O_CLOEXEC);
	assert_true(fd >= 0);
	assert_int_equal(amdgpu_device_initialize(fd, &major, &minor, &dev), 0);
	assert_int_equal(amdgpu_cs_ctx_create(dev, &a), 0);
	assert_int_equal(amdgpu_cs_ctx_create2(dev, AMDGPU_CTX_PRIORITY_LOW, &b), 0);
	/* above NORMAL: no DRM master on a render node, so CAP_SYS_NICE */
	if (geteuid() != 0) {
		assert_int_equal(amdgpu_cs_ctx_create2(dev, AMDGPU_CTX_PRIORITY_HIGH, &c),
				 -EACCES);
	} else {
		assert_int_equal(amdgpu_cs_ctx_create2(dev, AMDGPU_CTX_PRIORITY_HIGH, &c), 0);
		assert_int_equal(amdgpu_cs_ctx_free(c), 0);
	}
	flags = ~0ULL;
	assert_int_equal(amdgpu_cs_query_reset_state2(a, &flags), 0);
	assert_int_equal(flags, 0);
	st = hangs = ~0u;
	assert_int_equal(amdgpu_cs_query_reset_state(b, &st, &hangs), 0);
	assert_int_equal(st, AMDGPU_CTX_NO_RESET);
	assert_int_equal(hangs, 0);
	assert_int_equal(amdgpu_cs_ctx_stable_pstate(a, AMDGPU_CTX_OP_SET_STABLE_PSTATE,
						     AMDGPU_CTX_STABLE_PSTATE_PEAK, NULL), 0);
	assert_int_equal(amdgpu_cs_ctx_stable_pstate(b, AMDGPU_CTX_OP_GET_STABLE_PSTATE,
						     0, &pstate), 0);
	assert_int_equal(pstate, AMDGPU_CTX_STABLE_PSTATE_PEAK);
	assert_int_equal(amdgpu_cs_ctx_stable_pstate(b, AMDGPU_CTX_OP_SET_STABLE_PSTATE,
						     AMDGPU_CTX_STABLE_PSTATE_NONE, NULL), -EBUSY);
	assert_int_equal(amdgpu_cs_ctx_free(a), 0);
	assert_int_equal(amdgpu_cs_ctx_stable_pstate(b, AMDGPU_CTX_OP_GET_STABLE_PSTATE,
						     0, &pstate), 0);
	assert_int_equal(pstate, AMDGPU_CTX_STABLE_PSTATE_NONE);
	assert_int_equal(amdgpu_cs_ctx_free(b), 0);
	amdgpu_device_deinitialize(dev);
	close(fd);
}
#endif

/*
 * IPC. Debian's thunk shares memory with the ROCm-only ioctls 0x80/0x81.
 * Upstream kernels answer them with EINVAL, and then the thunk reports
 * ERROR, as it does on a Debian machine with the in-tree driver; the rocm
 * flavour (`kfdtrace sim --kernel rocm`) answers them as amdgpu-dkms does.
 * test_thunk_ipc.c shares between two processes.
 */
static bool
kernel_is_rocm(void)
{
	const char *k = getenv("KFDSIM_KERNEL");

	return k && strcmp(k, "rocm") == 0;
}

void
test_share_memory(void **state)
{
	HsaSharedMemoryHandle handle;
	HsaMemFlags flags = vram_flags(gpu_nodes[0]);
	HSAuint64 size = 64 << 10, shared_size = 0;
	void *mem = NULL, *imported = NULL;

	assert_int_equal(hsaKmtAllocMemory(gpu_nodes[0], size, flags, &mem), HSAKMT_STATUS_SUCCESS);
	memset(&handle, 0, sizeof(handle));
	assert_int_equal(hsaKmtShareMemory(mem, size, NULL), HSAKMT_STATUS_INVALID_PARAMETER);
	if (kernel_is_rocm()) {
		assert_int_equal(hsaKmtShareMemory(mem, size, &handle), HSAKMT_STATUS_SUCCESS);
		assert_int_equal(hsaKmtRegisterSharedHandle(&handle, &imported, &shared_size),
				 HSAKMT_STATUS_SUCCESS);
		assert_int_equal(shared_size, size);
		assert_ptr_not_equal(imported, mem);
		check_pointer(imported, HSA_POINTER_REGISTERED_SHARED, size, 0);
		/* one BO behind both addresses */
		if (large_bar(gpu_nodes[0])) {
			memcpy(mem, "through the allocation", 23);
			assert_memory_equal(imported, "through the allocation", 23);
		}
		assert_int_equal(hsaKmtDeregisterMemory(imported), HSAKMT_STATUS_SUCCESS);
	} else {
		assert_int_equal(hsaKmtShareMemory(mem, size, &handle), HSAKMT_STATUS_ERROR);
	}
	assert_int_equal(hsaKmtFreeMemory(mem, size), HSAKMT_STATUS_SUCCESS);
}

/* After fork the child must reopen; its own device works. */
void
test_fork_child(void **state)
{
	int status;
	pid_t pid = fork();

	assert_true(pid >= 0);
	if (pid == 0) {
		HsaVersionInfo v;
		HsaSystemProperties props;
		HsaMemFlags flags = { 0 };
		void *mem = NULL;
		int code = 0;

		/* a crash must end the child, not resume cmocka's runner in it */
		signal(SIGSEGV, SIG_DFL);
		signal(SIGBUS, SIG_DFL);
		signal(SIGABRT, SIG_DFL);
		/* VRAM, without host access: small-BAR boards refuse that */
		flags.ui32.NonPaged = 1;

		if (hsaKmtGetVersion(&v) != HSAKMT_STATUS_KERNEL_IO_CHANNEL_NOT_OPENED)
			code |= 1;
		if (hsaKmtOpenKFD() != HSAKMT_STATUS_SUCCESS)
			code |= 2;
		if (hsaKmtAcquireSystemProperties(&props) != HSAKMT_STATUS_SUCCESS)
			code |= 4;
		if (hsaKmtAllocMemory(gpu_nodes[0], 4096, flags, &mem) != HSAKMT_STATUS_SUCCESS ||
		    hsaKmtFreeMemory(mem, 4096) != HSAKMT_STATUS_SUCCESS)
			code |= 8;
		_exit(code);
	}
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), 0);
}

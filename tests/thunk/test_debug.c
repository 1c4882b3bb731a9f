/* SPDX-License-Identifier: MIT */
/*
 * Debugger calls of kfdtrace's libhsakmt on the simulated device.
 *
 * hsaKmtRuntimeEnable/Disable speak the kernel's interface: on KFD 1.13
 * and later RUNTIME_ENABLE (0x25), whose state the 1.13 debugger reads
 * back; before, ROCm 5.x's DBG_TRAP (0x82), which the simulator (an
 * upstream kernel) answers with EINVAL, so both report NOT_SUPPORTED as
 * Debian's libhsakmt does (and ROCr 5.2.3 carries on). The pre-1.13
 * debugger ioctls get EPERM (ERROR). The 1.13 debugger (DBG_TRAP 0x26)
 * works, and a secondary context is refused every debugger call.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "ioctl_spy.h"

#include "hsakmt/hsakmt.h"
#include "hsakmt/hsakmtctx.h"

#include <kfdtrace/kfd_abi.h>

#define MAX_NODES	64

static HsaSystemProperties sys_props;
static HsaNodeProperties props[MAX_NODES];
static HSAuint32 gpu_nodes[MAX_NODES];
static unsigned int n_gpus;

static int
group_setup(void **state)
{
	if (hsaKmtOpenKFD() != HSAKMT_STATUS_SUCCESS ||
	    hsaKmtAcquireSystemProperties(&sys_props) != HSAKMT_STATUS_SUCCESS ||
	    sys_props.NumNodes > MAX_NODES)
		return -1;
	for (HSAuint32 i = 0; i < sys_props.NumNodes; i++) {
		if (hsaKmtGetNodeProperties(i, &props[i]) != HSAKMT_STATUS_SUCCESS)
			return -1;
		if (props[i].NumFComputeCores)
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

/* The KFD ABI minor the kernel (the profile, KFDSIM_ABI) reports. */
static unsigned int
kfd_minor(void)
{
	HsaVersionInfo v;

	assert_int_equal(hsaKmtGetVersion(&v), HSAKMT_STATUS_SUCCESS);
	return v.KernelInterfaceMinorVersion;
}

/* The runtime state the library keeps, as a debugger would see it. */
static struct kfd_abi_runtime_info
core_info(void)
{
	struct kfd_abi_runtime_info info;

	memset(&info, 0xff, sizeof(info));
	assert_int_equal(hsaKmtGetCoreRuntimeInfo((struct kfd_runtime_info *)&info),
			 HSAKMT_STATUS_SUCCESS);
	return info;
}

/* Before KFD 1.13: ROCm 5.x's 0x82, refused by an upstream kernel. */
static void
runtime_enable_old(void)
{
	static char r_debug[64];
	HSAuint32 major = 7, minor = 7, caps = 7;
	struct kfd_abi_runtime_info info;

	assert_int_equal(hsaKmtRuntimeEnable(r_debug, true), HSAKMT_STATUS_NOT_SUPPORTED);
	assert_int_equal(hsaKmtRuntimeDisable(), HSAKMT_STATUS_NOT_SUPPORTED);
	/* The version query behind it is refused by the kernel. */
	assert_int_equal(hsaKmtGetKernelDebugTrapVersionInfo(&major, &minor), HSAKMT_STATUS_ERROR);
	/* Nothing was enabled. */
	assert_int_equal(hsaKmtGetRuntimeCapabilities(&caps), HSAKMT_STATUS_SUCCESS);
	assert_int_equal(caps, 0);
	info = core_info();
	assert_int_equal(info.runtime_state, KFD_ABI_DEBUG_RUNTIME_STATE_DISABLED);
	assert_int_equal(info.r_debug, 0);
}

/* A compute queue on the first GPU, with its ring (NULL: none made). */
static HSAKMT_STATUS
queue_make(void **ring, HsaQueueResource *res)
{
	HsaMemFlags flags = { 0 };
	HSAuint64 va;

	flags.ui32.NonPaged = 1;
	flags.ui32.HostAccess = 1;
	flags.ui32.ExecuteAccess = 1;
	assert_int_equal(hsaKmtAllocMemory(0, 4096, flags, ring), HSAKMT_STATUS_SUCCESS);
	assert_int_equal(hsaKmtMapMemoryToGPUNodes(*ring, 4096, &va, (HsaMemMapFlags){ 0 }, 1,
						   &gpu_nodes[0]), HSAKMT_STATUS_SUCCESS);
	memset(res, 0, sizeof(*res));
	return hsaKmtCreateQueue(gpu_nodes[0], HSA_QUEUE_COMPUTE, 100, HSA_QUEUE_PRIORITY_NORMAL,
				 *ring, 4096, NULL, res);
}

static void
queue_drop(void *ring, HsaQueueResource *res)
{
	assert_int_equal(hsaKmtDestroyQueue(res->QueueId), HSAKMT_STATUS_SUCCESS);
	assert_int_equal(hsaKmtUnmapMemoryToGPU(ring), HSAKMT_STATUS_SUCCESS);
	assert_int_equal(hsaKmtFreeMemory(ring, 4096), HSAKMT_STATUS_SUCCESS);
}

/* KFD 1.13 and later: RUNTIME_ENABLE, its mode bits and its refusals. */
static void
runtime_enable_new(void)
{
	static char r_debug[64];
	const struct spy_call *c;
	struct kfd_abi_runtime_enable_args a;
	struct kfd_abi_runtime_info info;
	HsaQueueResource res;
	HSAuint32 caps = 7;
	void *ring;

	spy_reset();
	assert_int_equal(hsaKmtRuntimeEnable(r_debug, true), HSAKMT_STATUS_SUCCESS);
	c = spy_find('K', _IOC_NR(KFD_ABI_IOC_RUNTIME_ENABLE), 0);
	assert_non_null(c);
	assert_int_equal(c->request, KFD_ABI_IOC_RUNTIME_ENABLE);
	memcpy(&a, c->in, sizeof(a));
	assert_int_equal(a.r_debug, (uintptr_t)r_debug);
	assert_int_equal(a.mode_mask, KFD_ABI_RUNTIME_ENABLE_MODE_ENABLE_MASK |
				      KFD_ABI_RUNTIME_ENABLE_MODE_TTMP_SAVE_MASK);
	/* The old interface is not asked at all. */
	assert_null(spy_find('K', 0x82, 0));
	info = core_info();
	assert_int_equal(info.runtime_state, KFD_ABI_DEBUG_RUNTIME_STATE_ENABLED);
	assert_int_equal(info.r_debug, (uintptr_t)r_debug);
	assert_int_equal(info.ttmp_setup, 1);
	assert_int_equal(hsaKmtGetRuntimeCapabilities(&caps), HSAKMT_STATUS_SUCCESS);
	assert_int_equal(caps, a.capabilities_mask);

	/* Enabled already: the kernel's EBUSY. */
	assert_int_equal(hsaKmtRuntimeEnable(r_debug, false), HSAKMT_STATUS_UNAVAILABLE);
	assert_int_equal(core_info().runtime_state, KFD_ABI_DEBUG_RUNTIME_STATE_ENABLED);

	spy_reset();
	assert_int_equal(hsaKmtRuntimeDisable(), HSAKMT_STATUS_SUCCESS);
	c = spy_find('K', _IOC_NR(KFD_ABI_IOC_RUNTIME_ENABLE), 0);
	assert_non_null(c);
	memcpy(&a, c->in, sizeof(a));
	assert_int_equal(a.mode_mask, 0);
	info = core_info();
	assert_int_equal(info.runtime_state, KFD_ABI_DEBUG_RUNTIME_STATE_DISABLED);
	assert_int_equal(info.r_debug, 0);
	assert_int_equal(info.ttmp_setup, 0);

	/* Without ttmp setup, the bit stays clear. */
	spy_reset();
	assert_int_equal(hsaKmtRuntimeEnable(NULL, false), HSAKMT_STATUS_SUCCESS);
	c = spy_find('K', _IOC_NR(KFD_ABI_IOC_RUNTIME_ENABLE), 0);
	assert_non_null(c);
	memcpy(&a, c->in, sizeof(a));
	assert_int_equal(a.mode_mask, KFD_ABI_RUNTIME_ENABLE_MODE_ENABLE_MASK);
	assert_int_equal(core_info().ttmp_setup, 0);
	assert_int_equal(hsaKmtRuntimeDisable(), HSAKMT_STATUS_SUCCESS);

	/* The runtime must come before any queue: the kernel's EEXIST. */
	assert_int_equal(queue_make(&ring, &res), HSAKMT_STATUS_SUCCESS);
	assert_int_equal(hsaKmtRuntimeEnable(r_debug, true), HSAKMT_STATUS_ERROR);
	assert_int_equal(core_info().runtime_state, KFD_ABI_DEBUG_RUNTIME_STATE_DISABLED);
	queue_drop(ring, &res);
}

/* What ROCr 5.2.3 does first after OpenKFD, on the kernel's interface. */
static void
test_runtime_enable(void **state)
{
	bool fw = true;

	for (unsigned int g = 0; g < n_gpus; g++)
		fw &= props[gpu_nodes[g]].Capability.ui32.DebugSupportedFirmware;
	if (kfd_minor() < 13) {
		runtime_enable_old();
	} else if (!fw) {
		/* A GPU whose firmware cannot debug: refused before any ioctl. */
		spy_reset();
		assert_int_equal(hsaKmtRuntimeEnable(NULL, true), HSAKMT_STATUS_NOT_SUPPORTED);
		assert_int_equal(hsaKmtRuntimeDisable(), HSAKMT_STATUS_NOT_SUPPORTED);
		assert_null(spy_find('K', _IOC_NR(KFD_ABI_IOC_RUNTIME_ENABLE), 0));
	} else {
		runtime_enable_new();
	}
	assert_int_equal(hsaKmtGetKernelDebugTrapVersionInfo(NULL, NULL),
			 HSAKMT_STATUS_INVALID_PARAMETER);
	assert_int_equal(hsaKmtGetCoreRuntimeInfo(NULL), HSAKMT_STATUS_ERROR);
}

static void
test_deprecated_debugger(void **state)
{
	HSA_DBG_WATCH_MODE mode[2] = { HSA_DBG_WATCH_ALL, HSA_DBG_WATCH_READ };
	void *addr[2] = { &mode[0], &mode[1] };
	HSAuint64 mask[2] = { 0xfff, 0xfff };
	HsaDbgWaveMessage msg;

	memset(&msg, 0, sizeof(msg));
	/* The ioctls are kept only to answer EPERM. */
	assert_int_equal(hsaKmtDbgRegister(gpu_nodes[0]), HSAKMT_STATUS_ERROR);
	assert_int_equal(hsaKmtDbgUnregister(gpu_nodes[0]), HSAKMT_STATUS_ERROR);
	assert_int_equal(hsaKmtDbgWavefrontControl(gpu_nodes[0], HSA_DBG_WAVEOP_HALT,
						   HSA_DBG_WAVEMODE_BROADCAST_PROCESS, 0, &msg),
			 HSAKMT_STATUS_ERROR);
	assert_int_equal(hsaKmtDbgAddressWatch(gpu_nodes[0], 2, mode, addr, mask, NULL),
			 HSAKMT_STATUS_ERROR);
	/* Argument checks come first. */
	assert_int_equal(hsaKmtDbgRegister(sys_props.NumNodes), HSAKMT_STATUS_INVALID_NODE_UNIT);
	assert_int_equal(hsaKmtDbgAddressWatch(gpu_nodes[0], 101, mode, addr, mask, NULL),
			 HSAKMT_STATUS_INVALID_PARAMETER);
	assert_int_equal(hsaKmtDbgAddressWatch(gpu_nodes[0], 1, mode, addr, NULL, NULL),
			 HSAKMT_STATUS_INVALID_PARAMETER);
	assert_int_equal(hsaKmtDbgWavefrontControl(gpu_nodes[0], HSA_DBG_WAVEOP_HALT,
						   HSA_DBG_WAVEMODE_SINGLE, 0, NULL),
			 HSAKMT_STATUS_INVALID_PARAMETER);
}

/* Firmware support and KFD >= 1.13, as the profile describes the GPUs. */
static void
test_check_runtime_debug_support(void **state)
{
	HsaVersionInfo v;
	bool fw = true;

	assert_int_equal(hsaKmtGetVersion(&v), HSAKMT_STATUS_SUCCESS);
	for (unsigned int g = 0; g < n_gpus; g++)
		fw &= props[gpu_nodes[g]].Capability.ui32.DebugSupportedFirmware;
	assert_int_equal(hsaKmtCheckRuntimeDebugSupport(),
			 fw && v.KernelInterfaceMinorVersion >= 13 ? HSAKMT_STATUS_SUCCESS
								  : HSAKMT_STATUS_NOT_SUPPORTED);
}

/* The 1.13 debugger on ourselves: attach, snapshot devices and queues, detach. */
static void
test_dbg_trap(void **state)
{
	struct kfd_abi_dbg_device_info_entry *dev, core;
	HSAuint32 n = 0, size = 0;
	void *rinfo = NULL, *data = NULL;
	HSAKMT_STATUS st;

	st = hsaKmtDbgEnable(&rinfo, &size);
	if (kfd_minor() < 13) {
		/* The kernel has no debugger before KFD 1.13. */
		assert_int_equal(st, HSAKMT_STATUS_NOT_SUPPORTED);
		return;
	}
	assert_int_equal(st, HSAKMT_STATUS_SUCCESS);
	assert_non_null(rinfo);
	assert_int_equal(size, sizeof(struct kfd_abi_runtime_info));
	free(rinfo);

	assert_int_equal(hsaKmtDbgGetDeviceData(&data, &n, &size), HSAKMT_STATUS_SUCCESS);
	assert_int_equal(size, sizeof(struct kfd_abi_dbg_device_info_entry));
	assert_int_equal(n, n_gpus);
	dev = data;
	/* The library's own picture of the device agrees with the kernel's. */
	assert_int_equal(hsaKmtGetCoreDeviceInfo(dev[0].gpu_id,
						 (struct kfd_dbg_device_info_entry *)&core),
			 HSAKMT_STATUS_SUCCESS);
	assert_int_equal(core.gpu_id, dev[0].gpu_id);
	assert_int_equal(core.device_id, dev[0].device_id);
	assert_int_equal(core.gfx_target_version, dev[0].gfx_target_version);
	assert_int_equal(core.simd_count, dev[0].simd_count);
	assert_int_equal(core.lds_base, dev[0].lds_base);
	assert_int_equal(core.gpuvm_limit, dev[0].gpuvm_limit);
	free(data);

	/* Nothing pending: the kernel's EAGAIN comes back at once, no spinning. */
	{
		struct kfd_abi_dbg_trap_args q;
		HSAuint64 ret = 0;

		memset(&q, 0, sizeof(q));
		q.pid = (uint32_t)getpid();
		q.op = KFD_ABI_DBG_TRAP_QUERY_DEBUG_EVENT;
		assert_int_equal(hsaKmtDebugTrapIoctl((struct kfd_ioctl_dbg_trap_args *)&q, NULL,
						      &ret), HSAKMT_STATUS_ERROR);
		assert_int_equal((int64_t)ret, -1);
	}
	/* No queues: an empty snapshot. */
	data = &n;
	assert_int_equal(hsaKmtDbgGetQueueData(&data, &n, &size, true), HSAKMT_STATUS_SUCCESS);
	assert_int_equal(n, 0);
	assert_null(data);
	assert_int_equal(hsaKmtDbgDisable(), HSAKMT_STATUS_SUCCESS);
	/* Detached: the kernel refuses snapshots. */
	assert_int_equal(hsaKmtDbgGetDeviceData(&data, &n, &size), HSAKMT_STATUS_ERROR);
	assert_int_equal(hsaKmtGetCoreDeviceInfo(0xdead, (struct kfd_dbg_device_info_entry *)&core),
			 HSAKMT_STATUS_INVALID_NODE_UNIT);
	assert_int_equal(hsaKmtDebugTrapIoctl(NULL, NULL, NULL), HSAKMT_STATUS_INVALID_PARAMETER);
}

/* A raw DBG_TRAP through the library; an unknown op is the kernel's EINVAL. */
static void
test_debug_trap_ioctl(void **state)
{
	struct kfd_abi_dbg_trap_args args;
	HSAuint64 ret = 77;

	memset(&args, 0, sizeof(args));
	args.pid = (uint32_t)getpid();
	args.op = 1000;
	assert_int_equal(hsaKmtDebugTrapIoctl((struct kfd_ioctl_dbg_trap_args *)&args, NULL, &ret),
			 HSAKMT_STATUS_ERROR);
	assert_int_equal((int64_t)ret, -1);
}

/* A secondary context may not debug: refused before any ioctl. */
static void
test_secondary_refused(void **state)
{
	HsaKFDContext *sec = NULL;
	HSAuint32 major, minor, caps, n, size;
	void *data;
	HSAKMT_STATUS st;

	st = hsaKmtOpenSecondaryKFDCtx(&sec);
	if (kfd_minor() < 19) {
		/* Secondary contexts came with KFD 1.19. */
		assert_int_equal(st, HSAKMT_STATUS_NOT_SUPPORTED);
		assert_null(sec);
		return;
	}
	assert_int_equal(st, HSAKMT_STATUS_SUCCESS);
	assert_int_equal(hsaKmtRuntimeEnableCtx(sec, NULL, false), HSAKMT_STATUS_NOT_SUPPORTED);
	assert_int_equal(hsaKmtRuntimeDisableCtx(sec), HSAKMT_STATUS_NOT_SUPPORTED);
	assert_int_equal(hsaKmtCheckRuntimeDebugSupportCtx(sec), HSAKMT_STATUS_NOT_SUPPORTED);
	assert_int_equal(hsaKmtGetKernelDebugTrapVersionInfoCtx(sec, &major, &minor),
			 HSAKMT_STATUS_NOT_SUPPORTED);
	assert_int_equal(hsaKmtGetRuntimeCapabilitiesCtx(sec, &caps), HSAKMT_STATUS_NOT_SUPPORTED);
	assert_int_equal(hsaKmtDbgRegisterCtx(sec, gpu_nodes[0]), HSAKMT_STATUS_NOT_SUPPORTED);
	assert_int_equal(hsaKmtDbgUnregisterCtx(sec, gpu_nodes[0]), HSAKMT_STATUS_NOT_SUPPORTED);
	assert_int_equal(hsaKmtDbgEnableCtx(sec, &data, &size), HSAKMT_STATUS_NOT_SUPPORTED);
	assert_int_equal(hsaKmtDbgDisableCtx(sec), HSAKMT_STATUS_NOT_SUPPORTED);
	assert_int_equal(hsaKmtDbgGetDeviceDataCtx(sec, &data, &n, &size),
			 HSAKMT_STATUS_NOT_SUPPORTED);
	assert_int_equal(hsaKmtDbgGetQueueDataCtx(sec, &data, &n, &size, false),
			 HSAKMT_STATUS_NOT_SUPPORTED);
	assert_int_equal(hsaKmtDebugTrapIoctlCtx(sec, NULL, NULL, NULL),
			 HSAKMT_STATUS_NOT_SUPPORTED);
	assert_int_equal(hsaKmtCloseSecondaryKFDCtx(sec), HSAKMT_STATUS_SUCCESS);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_runtime_enable),
		cmocka_unit_test(test_deprecated_debugger),
		cmocka_unit_test(test_check_runtime_debug_support),
		cmocka_unit_test(test_dbg_trap),
		cmocka_unit_test(test_debug_trap_ioctl),
		cmocka_unit_test(test_secondary_refused),
	};

	return cmocka_run_group_tests(tests, group_setup, group_teardown);
}

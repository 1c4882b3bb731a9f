/* SPDX-License-Identifier: MIT */
/*
 * hsakmttypes.h - the data types of the libhsakmt ("ROCt thunk") API.
 *
 * Written for kfdtrace. Every struct, union and enum whose name exists in
 * ROCm 5.2.3's libhsakmt has that release's exact layout (field order,
 * widths, 4-byte packing), because ROCr 5.2.3 and rocminfo are compiled
 * against it: sizeof(HsaNodeProperties) is 356, sizeof(HsaIoLinkProperties)
 * is 48. tests/thunk/test_abi_layout.c checks every field against the
 * distribution's header. Types added by later ROCm releases (PC sampling,
 * SMI, contexts, registration flags) follow after the 5.2.3 set and never
 * change an older layout.
 *
 * The public names (CamelCase typedefs, _Hsa... tags) are the API's own;
 * they are kept so that programs written for AMD's headers compile
 * unchanged against these.
 */
#ifndef HSAKMT_HSAKMTTYPES_H
#define HSAKMT_HSAKMTTYPES_H

/* Interface version of this header set (the 5.2.3 value). */
#define HSAKMT_VERSION_MAJOR	0
#define HSAKMT_VERSION_MINOR	99

#ifdef __cplusplus
extern "C" {
#endif

#include <stdbool.h>
#include <stdint.h>

/* Calling convention marker; empty on Linux. */
#define HSAKMTAPI

typedef uint8_t		HSAuint8;
typedef int8_t		HSAint8;
typedef uint16_t	HSAuint16;
typedef int16_t		HSAint16;
typedef uint32_t	HSAuint32;
typedef int32_t		HSAint32;
typedef int64_t		HSAint64;
typedef uint64_t	HSAuint64;

typedef void		*HSA_HANDLE;
typedef HSAuint64	HSA_QUEUEID;

/* Values that never name a real queue, process or node. */
#define INVALID_QUEUEID	0xFFFFFFFFFFFFFFFFULL
#define INVALID_PID	0xFFFFFFFF
#define INVALID_NODEID	0xFFFFFFFF

/*
 * All API structs are packed to 4 bytes: a HSAuint64 that follows a
 * HSAuint32 is not padded to 8. Programs depend on these exact offsets.
 */
#pragma pack(push, hsakmttypes_h, 4)

/* Result of every API call. */
typedef enum _HSAKMT_STATUS {
	HSAKMT_STATUS_SUCCESS			= 0,
	HSAKMT_STATUS_ERROR			= 1,	/* unspecified failure */
	HSAKMT_STATUS_DRIVER_MISMATCH		= 2,	/* kernel interface too old/new */
	HSAKMT_STATUS_INVALID_PARAMETER		= 3,
	HSAKMT_STATUS_INVALID_HANDLE		= 4,
	HSAKMT_STATUS_INVALID_NODE_UNIT		= 5,	/* no such node, or wrong kind */
	HSAKMT_STATUS_NO_MEMORY			= 6,
	HSAKMT_STATUS_BUFFER_TOO_SMALL		= 7,
	HSAKMT_STATUS_NOT_IMPLEMENTED		= 10,
	HSAKMT_STATUS_NOT_SUPPORTED		= 11,
	HSAKMT_STATUS_UNAVAILABLE		= 12,	/* busy now, may work later */
	HSAKMT_STATUS_OUT_OF_RESOURCES		= 13,
	HSAKMT_STATUS_KERNEL_IO_CHANNEL_NOT_OPENED = 20, /* hsaKmtOpenKFD not called */
	HSAKMT_STATUS_KERNEL_COMMUNICATION_ERROR = 21,
	HSAKMT_STATUS_KERNEL_ALREADY_OPENED	= 22,	/* informational on re-open */
	HSAKMT_STATUS_HSAMMU_UNAVAILABLE	= 23,
	HSAKMT_STATUS_WAIT_FAILURE		= 30,
	HSAKMT_STATUS_WAIT_TIMEOUT		= 31,
	HSAKMT_STATUS_MEMORY_ALREADY_REGISTERED	= 35,
	HSAKMT_STATUS_MEMORY_NOT_REGISTERED	= 36,
	HSAKMT_STATUS_MEMORY_ALIGNMENT		= 37,
} HSAKMT_STATUS;

/* The KFD ioctl interface version (GET_VERSION). */
typedef struct _HsaVersionInfo {
	HSAuint32 KernelInterfaceMajorVersion;
	HSAuint32 KernelInterfaceMinorVersion;
} HsaVersionInfo;

/*
 * The types by subsystem; each part may use the types of the parts
 * included before it.
 */
#include "hsakmttypes_topology.h"
#include "hsakmttypes_memory.h"
#include "hsakmttypes_queues.h"
#include "hsakmttypes_debug.h"
#include "hsakmttypes_events.h"
#include "hsakmttypes_perf.h"
#include "hsakmttypes_newer.h"

#pragma pack(pop, hsakmttypes_h)

/*
 * A connection to the KFD: the primary context (what the context-less
 * API uses) or a secondary one with its own /dev/kfd file and KFD process.
 * Opaque; see hsakmtctx.h.
 */
typedef struct _HsaKFDContext HsaKFDContext;

/*
 * Kernel structs some newer calls pass through unchanged (the caller
 * brings the definition from the kernel's kfd_ioctl.h).
 */
struct kfd_ioctl_dbg_trap_args;
struct kfd_runtime_info;
struct kfd_dbg_device_info_entry;

#ifdef __cplusplus
}
#endif

#endif /* HSAKMT_HSAKMTTYPES_H */

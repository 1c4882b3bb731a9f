/* SPDX-License-Identifier: MIT */
/*
 * hsakmttypes_newer.h - the types of the API added after ROCm 5.2.3 (SMI
 * events, PC sampling, device handles, registration flags, the handle API,
 * AIS, external semaphores). They come last and never change a 5.2.3
 * layout.
 *
 * One part of hsakmttypes.h, which includes it between its 4-byte
 * packing pragmas: include <hsakmt/hsakmttypes.h>, never this file alone.
 */
#ifndef HSAKMT_HSAKMTTYPES_NEWER_H
#define HSAKMT_HSAKMTTYPES_NEWER_H

#ifndef HSAKMT_HSAKMTTYPES_H
#error "include <hsakmt/hsakmttypes.h>: it packs these types to 4 bytes"
#endif

/* SMI event kinds (bit index + 1 of the mask written to the SMI fd). */
typedef enum _HSA_SMI_EVENT {
	HSA_SMI_EVENT_NONE		= 0,
	HSA_SMI_EVENT_VMFAULT		= 1,
	HSA_SMI_EVENT_THERMAL_THROTTLE	= 2,
	HSA_SMI_EVENT_GPU_PRE_RESET	= 3,
	HSA_SMI_EVENT_GPU_POST_RESET	= 4,
	HSA_SMI_EVENT_MIGRATE_START	= 5,
	HSA_SMI_EVENT_MIGRATE_END	= 6,
	HSA_SMI_EVENT_PAGE_FAULT_START	= 7,
	HSA_SMI_EVENT_PAGE_FAULT_END	= 8,
	HSA_SMI_EVENT_QUEUE_EVICTION	= 9,
	HSA_SMI_EVENT_QUEUE_RESTORE	= 10,
	HSA_SMI_EVENT_UNMAP_FROM_GPU	= 11,
	HSA_SMI_EVENT_INDEX_MAX		= 12,
	HSA_SMI_EVENT_ALL_PROCESS	= 64,	/* privileged: every process */
} HSA_EVENT_TYPE;

typedef enum _HSA_MIGRATE_TRIGGERS {
	HSA_MIGRATE_TRIGGER_PREFETCH,
	HSA_MIGRATE_TRIGGER_PAGEFAULT_GPU,
	HSA_MIGRATE_TRIGGER_PAGEFAULT_CPU,
	HSA_MIGRATE_TRIGGER_TTM_EVICTION
} HSA_MIGRATE_TRIGGERS;

typedef enum _HSA_QUEUE_EVICTION_TRIGGERS {
	HSA_QUEUE_EVICTION_TRIGGER_SVM,
	HSA_QUEUE_EVICTION_TRIGGER_USERPTR,
	HSA_QUEUE_EVICTION_TRIGGER_TTM,
	HSA_QUEUE_EVICTION_TRIGGER_SUSPEND,
	HSA_QUEUE_EVICTION_CRIU_CHECKPOINT,
	HSA_QUEUE_EVICTION_CRIU_RESTORE
} HSA_QUEUE_EVICTION_TRIGGERS;

typedef enum _HSA_SVM_UNMAP_TRIGGERS {
	HSA_SVM_UNMAP_TRIGGER_MMU_NOTIFY,
	HSA_SVM_UNMAP_TRIGGER_MMU_NOTIFY_MIGRATE,
	HSA_SVM_UNMAP_TRIGGER_UNMAP_FROM_CPU
} HSA_SVM_UNMAP_TRIGGERS;

#define HSA_SMI_EVENT_MASK_FROM_INDEX(i)	(1ULL << ((i) - 1))
#define HSA_SMI_EVENT_MSG_SIZE			96

/* A libdrm amdgpu_device_handle, as hsaKmtGetAMDGPUDeviceHandle() gives it. */
typedef void *HsaAMDGPUDeviceHandle;

typedef HSAuint32 HsaPcSamplingTraceId;

typedef enum _HSA_PC_SAMPLING_METHOD_KIND {
	HSA_PC_SAMPLING_METHOD_KIND_HOSTTRAP_V1 = 1,
	HSA_PC_SAMPLING_METHOD_KIND_STOCHASTIC_V1,
} HSA_PC_SAMPLING_METHOD_KIND;

typedef enum _HSA_PC_SAMPLING_UNITS {
	HSA_PC_SAMPLING_UNIT_INTERVAL_MICROSECONDS,
	HSA_PC_SAMPLING_UNIT_INTERVAL_CYCLES,
	HSA_PC_SAMPLING_UNIT_INTERVAL_INSTRUCTIONS,
} HSA_PC_SAMPLING_UNIT_INTERVAL;

/* One PC sampling configuration (40 bytes, the kernel's layout). */
typedef struct _HsaPcSamplingInfo {
	HSAuint64			value;		/* interval */
	HSAuint64			value_min;
	HSAuint64			value_max;
	HSAuint64			flags;
	HSA_PC_SAMPLING_METHOD_KIND	method;
	HSA_PC_SAMPLING_UNIT_INTERVAL	units;
} HsaPcSamplingInfo;

/* Options of hsaKmtRegisterGraphicsHandleToNodesExt(). */
typedef union {
	HSAuint32 Value;
	struct {
		unsigned int requiresVAddr	: 1;	/* give the BO a GPU VA */
		unsigned int kmtHandle		: 1;	/* handle is not a dmabuf fd */
	} ui32;
} HSA_REGISTER_MEM_FLAGS;

/* hsaKmtAisReadWriteFile(): the direction of a transfer. */
typedef enum _HsaAisFlags {
	HSA_AIS_READ	= 0x1,	/* file -> memory */
	HSA_AIS_WRITE	= 0x2,	/* memory -> file */
} HsaAisFlags;

/*
 * A buffer object of the handle API (hsaKmtHandleImport() and the calls
 * taking it): a libdrm amdgpu_bo_handle.
 */
typedef struct _HsaMemoryObjectHandle *HsaMemoryObjectHandle;

/* GPU access given by hsaKmtMemoryVaMap(). */
typedef enum _HsaMemoryMapFlags {
	HSA_MEMORY_ACCESS_NONE	= 0,
	HSA_MEMORY_ACCESS_RO	= 1,
	HSA_MEMORY_ACCESS_WO	= 2,
	HSA_MEMORY_ACCESS_RW	= 3,
} HsaMemoryMapFlags;

/* What hsaKmtHandleImport() is given. */
typedef enum _HsaExternalHandleType {
	HSA_EXTERNAL_HANDLE_GEM_FLINK_NAME	= 0,
	HSA_EXTERNAL_HANDLE_KMS			= 1,
	HSA_EXTERNAL_HANDLE_DMA_BUF		= 2,
	HSA_EXTERNAL_HANDLE_FABRIC		= 3,
} HsaExternalHandleType;

/* An opaque fabric (cross-node) handle: 16 bytes. */
typedef struct _HsaFabricHandle {
	HSAuint8 handle[16];
} HsaFabricHandle;

/* hsaKmtHandleImport() input (40 bytes with the 4-byte packing). */
typedef struct _HsaHandleImportDesc {
	HsaAMDGPUDeviceHandle	device_handle;	/* device to import on */
	HsaExternalHandleType	type;
	union {
		HSAint64		dmabuf_fd;	/* DMA_BUF */
		HsaMemoryObjectHandle	buf_handle;
		HsaFabricHandle		fabric;		/* FABRIC */
	};
	void			*mem;		/* Windows only */
	HSAuint32		metadata;	/* IPC: the expected metadata */
} HsaHandleImportDesc;

/* hsaKmtHandleImport() output (24 bytes). */
typedef struct _HsaHandleImportResult {
	HsaMemoryObjectHandle	buf_handle;	/* the buffer object */
	int			dmabuf_fd;	/* the dma-buf imported */
	HSAuint64		alloc_size;	/* its size in bytes */
	HSAuint32		metadata;	/* IPC: the metadata found */
} HsaHandleImportResult;

typedef struct _HsaHandleImportFlags {
	struct {
		unsigned int IPCHandle		: 1;	/* check or set metadata */
		unsigned int SysMem		: 1;	/* the buffer is system memory */
		unsigned int UpdateMetadata	: 1;	/* set metadata if none */
		unsigned int Reserved		: 29;
	} ui32;
} HsaHandleImportFlags;

/* External semaphores (Windows only; Linux answers NOT_SUPPORTED). */
typedef enum _HSA_EXTERNAL_SEMAPHORE_HANDLE_TYPE {
	HSA_EXTERNAL_SEMAPHORE_HANDLE_TYPE_OPAQUE_WIN32		= 0,
	HSA_EXTERNAL_SEMAPHORE_HANDLE_TYPE_OPAQUE_WIN32_KMT	= 1,
	HSA_EXTERNAL_SEMAPHORE_HANDLE_TYPE_OPAQUE_FD		= 2,
} HSA_EXTERNAL_SEMAPHORE_HANDLE_TYPE;

typedef struct _HSA_EXTERNAL_SEMAPHORE_HANDLE {
	HSAuint64 handle;	/* opaque */
} HSA_EXTERNAL_SEMAPHORE_HANDLE;

#endif /* HSAKMT_HSAKMTTYPES_NEWER_H */

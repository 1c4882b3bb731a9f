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

/* ------------------------------------------------------------------ */
/* Topology                                                           */
/* ------------------------------------------------------------------ */

/* Whole-system facts returned by hsaKmtAcquireSystemProperties(). */
typedef struct _HsaSystemProperties {
	HSAuint32 NumNodes;	/* nodes in the snapshot, ids 0..NumNodes-1 */
	HSAuint32 PlatformOem;	/* low 32 bits of sysfs platform_oem */
	HSAuint32 PlatformId;	/* low 32 bits of sysfs platform_id */
	HSAuint32 PlatformRev;	/* sysfs platform_rev */
} HsaSystemProperties;

/* GFX IP version and microcode of a GPU node. */
typedef union {
	HSAuint32 Value;
	struct {
		unsigned int uCode	: 10;	/* MEC firmware version */
		unsigned int Major	: 6;	/* gfx major */
		unsigned int Minor	: 8;	/* gfx minor */
		unsigned int Stepping	: 8;	/* gfx stepping */
	} ui32;
} HSA_ENGINE_ID;

/* Firmware versions of the other engines. */
typedef union {
	HSAuint32 Value;
	struct {
		unsigned int uCodeSDMA	: 10;
		unsigned int uCodeRes	: 10;
		unsigned int Reserved	: 12;
	};
} HSA_ENGINE_VERSION;

/* The node's sysfs "capability" word, bit for bit. */
typedef union {
	HSAuint32 Value;
	struct {
		unsigned int HotPluggable			: 1;
		unsigned int HSAMMUPresent			: 1;	/* IOMMUv2/ATS */
		unsigned int SharedWithGraphics			: 1;
		unsigned int QueueSizePowerOfTwo		: 1;
		unsigned int QueueSize32bit			: 1;
		unsigned int QueueIdleEvent			: 1;
		unsigned int VALimit				: 1;
		unsigned int WatchPointsSupported		: 1;
		unsigned int WatchPointsTotalBits		: 4;	/* log2(count) */
		unsigned int DoorbellType			: 2;	/* 2 = SOC15 64-bit */
		unsigned int AQLQueueDoubleMap			: 1;
		unsigned int DebugTrapSupported			: 1;
		unsigned int WaveLaunchTrapOverrideSupported	: 1;
		unsigned int WaveLaunchModeSupported		: 1;
		unsigned int PreciseMemoryOperationsSupported	: 1;
		unsigned int DEPRECATED_SRAM_EDCSupport		: 1;	/* kept 0 */
		unsigned int Mem_EDCSupport			: 1;
		unsigned int RASEventNotify			: 1;
		unsigned int ASICRevision			: 4;
		unsigned int SRAM_EDCSupport			: 1;
		unsigned int SVMAPISupported			: 1;
		unsigned int CoherentHostAccess			: 1;
		unsigned int DebugSupportedFirmware		: 1;
		unsigned int Reserved				: 2;
	} ui32;
} HSA_CAPABILITY;

/* The node's sysfs "debug_prop" word. */
typedef union {
	HSAuint64 Value;
	struct {
		HSAuint64 WatchAddrMaskLoBit		: 4;
		HSAuint64 WatchAddrMaskHiBit		: 6;
		HSAuint64 DispatchInfoAlwaysValid	: 1;
		HSAuint64 AddressWatchpointShareKind	: 1;
		HSAuint64 Reserved			: 52;
	};
} HSA_DEBUG_PROPERTIES;

/* Length of the marketing and ASIC name arrays. */
#define HSA_PUBLIC_NAME_SIZE	64

/*
 * One node of the topology: a CPU NUMA node, a GPU, or both (APU).
 * 356 bytes in 5.2.3; newer ROCm grew it, this header does not.
 */
typedef struct _HsaNodeProperties {
	HSAuint32	NumCPUCores;		/* 0 on a discrete GPU */
	HSAuint32	NumFComputeCores;	/* SIMDs; 0 on a CPU node */
	HSAuint32	NumMemoryBanks;		/* sysfs banks + synthetic ones */
	HSAuint32	NumCaches;
	HSAuint32	NumIOLinks;		/* io_links + p2p_links */
	HSAuint32	CComputeIdLo;		/* first CPU core id */
	HSAuint32	FComputeIdLo;		/* first SIMD id */
	HSA_CAPABILITY	Capability;
	HSAuint32	MaxWavesPerSIMD;
	HSAuint32	LDSSizeInKB;
	HSAuint32	GDSSizeInKB;
	HSAuint32	WaveFrontSize;
	HSAuint32	NumShaderBanks;		/* shader engines */
	HSAuint32	NumArrays;		/* arrays per engine */
	HSAuint32	NumCUPerArray;
	HSAuint32	NumSIMDPerCU;
	HSAuint32	MaxSlotsScratchCU;
	HSA_ENGINE_ID	EngineId;
	HSAuint16	VendorId;
	HSAuint16	DeviceId;
	HSAuint32	LocationId;		/* PCI bus<<8 | devfn */
	HSAuint64	LocalMemSize;		/* sum of VRAM banks */
	HSAuint32	MaxEngineClockMhzFCompute;
	HSAuint32	MaxEngineClockMhzCCompute;
	HSAint32	DrmRenderMinor;
	HSAuint16	MarketingName[HSA_PUBLIC_NAME_SIZE];	/* UTF-16, NUL-ended */
	HSAuint8	AMDName[HSA_PUBLIC_NAME_SIZE];		/* ASCII, NUL-ended */
	HSA_ENGINE_VERSION uCodeEngineVersions;
	HSA_DEBUG_PROPERTIES DebugProperties;
	HSAuint64	HiveID;			/* XGMI hive, 0 if none */
	HSAuint32	NumSdmaEngines;
	HSAuint32	NumSdmaXgmiEngines;
	HSAuint8	NumSdmaQueuesPerEngine;
	HSAuint8	NumCpQueues;
	HSAuint8	NumGws;
	HSAuint8	Reserved2;
	HSAuint32	Domain;			/* PCI domain */
	HSAuint64	UniqueID;
	HSAuint32	VGPRSizePerCU;		/* bytes */
	HSAuint32	SGPRSizePerCU;		/* bytes */
	HSAuint8	Reserved[12];
} HsaNodeProperties;

/* Kind of a memory bank. */
typedef enum _HSA_HEAPTYPE {
	HSA_HEAPTYPE_SYSTEM			= 0,
	HSA_HEAPTYPE_FRAME_BUFFER_PUBLIC	= 1,	/* CPU-visible VRAM */
	HSA_HEAPTYPE_FRAME_BUFFER_PRIVATE	= 2,	/* VRAM behind a small BAR */
	HSA_HEAPTYPE_GPU_GDS			= 3,
	HSA_HEAPTYPE_GPU_LDS			= 4,	/* synthetic bank */
	HSA_HEAPTYPE_GPU_SCRATCH		= 5,	/* synthetic bank */
	HSA_HEAPTYPE_DEVICE_SVM			= 6,	/* synthetic bank */
	HSA_HEAPTYPE_MMIO_REMAP			= 7,	/* synthetic bank */
	HSA_HEAPTYPE_NUMHEAPTYPES,
	HSA_HEAPTYPE_SIZE			= 0xFFFFFFFF
} HSA_HEAPTYPE;

typedef union {
	HSAuint32 MemoryProperty;
	struct {
		unsigned int HotPluggable	: 1;
		unsigned int NonVolatile	: 1;
		unsigned int Reserved		: 30;
	} ui32;
} HSA_MEMORYPROPERTY;

/* One memory bank of a node (32 bytes). */
typedef struct _HsaMemoryProperties {
	HSA_HEAPTYPE	HeapType;
	union {
		HSAuint64 SizeInBytes;
		struct {
			HSAuint32 SizeInBytesLow;
			HSAuint32 SizeInBytesHigh;
		} ui32;
	};
	HSA_MEMORYPROPERTY Flags;
	HSAuint32	Width;			/* bus width in bits */
	HSAuint32	MemoryClockMax;		/* MHz */
	HSAuint64	VirtualBaseAddress;	/* aperture base for synthetic banks */
} HsaMemoryProperties;

/* Size of a cache's sibling map (one u32 per logical processor). */
#define HSA_CPU_SIBLINGS	256
#define HSA_PROCESSORID_ALL	0xFFFFFFFF

typedef union {
	HSAuint32 Value;
	struct {
		unsigned int Data		: 1;
		unsigned int Instruction	: 1;
		unsigned int CPU		: 1;
		unsigned int HSACU		: 1;
		unsigned int Reserved		: 28;
	} ui32;
} HsaCacheType;

/* One cache of a node (1056 bytes). */
typedef struct _HaCacheProperties {
	HSAuint32	ProcessorIdLow;
	HSAuint32	CacheLevel;
	HSAuint32	CacheSize;		/* KiB */
	HSAuint32	CacheLineSize;		/* bytes */
	HSAuint32	CacheLinesPerTag;
	HSAuint32	CacheAssociativity;
	HSAuint32	CacheLatency;		/* ns */
	HsaCacheType	CacheType;
	HSAuint32	SiblingMap[HSA_CPU_SIBLINGS];	/* 1 = shares this cache */
} HsaCacheProperties;

typedef struct _HsaCComputeProperties {
	HSAuint32 SiblingMap[HSA_CPU_SIBLINGS];
} HsaCComputeProperties;

/* Kind of an IO link (values of the sysfs "type" key). */
typedef enum _HSA_IOLINKTYPE {
	HSA_IOLINKTYPE_UNDEFINED	= 0,
	HSA_IOLINKTYPE_HYPERTRANSPORT	= 1,
	HSA_IOLINKTYPE_PCIEXPRESS	= 2,
	HSA_IOLINKTYPE_AMBA		= 3,
	HSA_IOLINKTYPE_MIPI		= 4,
	HSA_IOLINK_TYPE_QPI_1_1		= 5,
	HSA_IOLINK_TYPE_RESERVED1	= 6,
	HSA_IOLINK_TYPE_RESERVED2	= 7,
	HSA_IOLINK_TYPE_RAPID_IO	= 8,
	HSA_IOLINK_TYPE_INFINIBAND	= 9,
	HSA_IOLINK_TYPE_RESERVED3	= 10,
	HSA_IOLINK_TYPE_XGMI		= 11,
	HSA_IOLINK_TYPE_XGOP		= 12,
	HSA_IOLINK_TYPE_GZ		= 13,
	HSA_IOLINK_TYPE_ETHERNET_RDMA	= 14,
	HSA_IOLINK_TYPE_RDMA_OTHER	= 15,
	HSA_IOLINK_TYPE_OTHER		= 16,
	HSA_IOLINKTYPE_NUMIOLINKTYPES,
	HSA_IOLINKTYPE_SIZE		= 0xFFFFFFFF
} HSA_IOLINKTYPE;

/* The sysfs "flags" of a link. */
typedef union {
	HSAuint32 LinkProperty;
	struct {
		unsigned int Override		: 1;	/* the other bits are valid */
		unsigned int NonCoherent	: 1;
		unsigned int NoAtomics32bit	: 1;
		unsigned int NoAtomics64bit	: 1;
		unsigned int NoPeerToPeerDMA	: 1;
		unsigned int Reserved		: 27;
	} ui32;
} HSA_LINKPROPERTY;

/* One IO link from a node (48 bytes in 5.2.3). */
typedef struct _HsaIoLinkProperties {
	HSA_IOLINKTYPE	IoLinkType;
	HSAuint32	VersionMajor;
	HSAuint32	VersionMinor;
	HSAuint32	NodeFrom;		/* user node ids */
	HSAuint32	NodeTo;
	HSAuint32	Weight;
	HSAuint32	MinimumLatency;		/* ns */
	HSAuint32	MaximumLatency;
	HSAuint32	MinimumBandwidth;	/* MB/s */
	HSAuint32	MaximumBandwidth;
	HSAuint32	RecTransferSize;	/* bytes */
	HSA_LINKPROPERTY Flags;
} HsaIoLinkProperties;

/* ------------------------------------------------------------------ */
/* Memory                                                             */
/* ------------------------------------------------------------------ */

/* What an allocation or registration asks for. */
typedef struct _HsaMemFlags {
	union {
		struct {
			unsigned int NonPaged		: 1;	/* pinned / device memory */
			unsigned int CachePolicy	: 2;	/* HSA_CACHING_TYPE */
			unsigned int ReadOnly		: 1;
			unsigned int PageSize		: 2;	/* HSA_PAGE_SIZE */
			unsigned int HostAccess		: 1;	/* CPU must reach it */
			unsigned int NoSubstitute	: 1;	/* no fallback to system memory */
			unsigned int GDSMemory		: 1;
			unsigned int Scratch		: 1;	/* scratch backing */
			unsigned int AtomicAccessFull	: 1;
			unsigned int AtomicAccessPartial : 1;
			unsigned int ExecuteAccess	: 1;
			unsigned int CoarseGrain	: 1;	/* sync only at dispatch bounds */
			unsigned int AQLQueueMemory	: 1;	/* ring is double-mapped */
			unsigned int FixedAddress	: 1;	/* use *MemoryAddress as the VA */
			unsigned int NoNUMABind		: 1;
			unsigned int Uncached		: 1;
			/*
			 * Later ROCm releases give meaning to some of these
			 * (NoAddress, OnlyAddress, ExtendedCoherent, GTTAccess,
			 * Contiguous, ...); see HSA_MEMFLAG_* below.
			 */
			unsigned int Reserved		: 14;
		} ui32;
		HSAuint32 Value;
	};
} HsaMemFlags;

/*
 * Bits of HsaMemFlags.Value that newer ROCm defines inside 5.2.3's
 * Reserved field. The struct above keeps the 5.2.3 bitfield names; use
 * these masks on .Value to reach the newer meanings.
 */
#define HSA_MEMFLAG_NO_ADDRESS		(1u << 18)	/* BO only, no VA */
#define HSA_MEMFLAG_ONLY_ADDRESS	(1u << 19)	/* VA only, no BO */
#define HSA_MEMFLAG_EXTENDED_COHERENT	(1u << 20)
#define HSA_MEMFLAG_GTT_ACCESS		(1u << 21)
#define HSA_MEMFLAG_CONTIGUOUS		(1u << 22)

/* Hints for hsaKmtMapMemoryToGPUNodes(). */
typedef struct _HsaMemMapFlags {
	union {
		struct {
			unsigned int Reserved1		: 1;
			unsigned int CachePolicy	: 2;
			unsigned int ReadOnly		: 1;
			unsigned int PageSize		: 2;
			unsigned int HostAccess		: 1;
			unsigned int Migrate		: 1;
			unsigned int Probe		: 1;
			unsigned int Reserved		: 23;
		} ui32;
		HSAuint32 Value;
	};
} HsaMemMapFlags;

/* Result of hsaKmtRegisterGraphicsHandleToNodes(). */
typedef struct _HsaGraphicsResourceInfo {
	void		*MemoryAddress;		/* GPU VA, for MapMemoryToGPU */
	HSAuint64	SizeInBytes;
	const void	*Metadata;		/* owned by the library */
	HSAuint32	MetadataSizeInBytes;
	union {
		HSAuint32 NodeId;		/* node owning the buffer (newer API) */
		HSAuint32 Reserved;		/* its 5.2.3 name */
	};
} HsaGraphicsResourceInfo;

typedef enum _HSA_CACHING_TYPE {
	HSA_CACHING_CACHED		= 0,
	HSA_CACHING_NONCACHED		= 1,
	HSA_CACHING_WRITECOMBINED	= 2,
	HSA_CACHING_RESERVED		= 3,
	HSA_CACHING_NUM_CACHING,
	HSA_CACHING_SIZE		= 0xFFFFFFFF
} HSA_CACHING_TYPE;

typedef enum _HSA_PAGE_SIZE {
	HSA_PAGE_SIZE_4KB		= 0,
	HSA_PAGE_SIZE_64KB		= 1,
	HSA_PAGE_SIZE_2MB		= 2,
	HSA_PAGE_SIZE_1GB		= 3,
} HSA_PAGE_SIZE;

typedef enum _HSA_DEVICE {
	HSA_DEVICE_CPU			= 0,
	HSA_DEVICE_GPU			= 1,
	MAX_HSA_DEVICE			= 2
} HSA_DEVICE;

/* ------------------------------------------------------------------ */
/* Queues                                                             */
/* ------------------------------------------------------------------ */

typedef enum _HSA_QUEUE_PRIORITY {
	HSA_QUEUE_PRIORITY_MINIMUM	= -3,
	HSA_QUEUE_PRIORITY_LOW		= -2,
	HSA_QUEUE_PRIORITY_BELOW_NORMAL	= -1,
	HSA_QUEUE_PRIORITY_NORMAL	= 0,
	HSA_QUEUE_PRIORITY_ABOVE_NORMAL	= 1,
	HSA_QUEUE_PRIORITY_HIGH		= 2,
	HSA_QUEUE_PRIORITY_MAXIMUM	= 3,
	HSA_QUEUE_PRIORITY_NUM_PRIORITY,
	HSA_QUEUE_PRIORITY_SIZE		= 0xFFFFFFFF
} HSA_QUEUE_PRIORITY;

typedef enum _HSA_QUEUE_TYPE {
	HSA_QUEUE_COMPUTE		= 1,	/* PM4 compute */
	HSA_QUEUE_SDMA			= 2,
	HSA_QUEUE_MULTIMEDIA_DECODE	= 3,
	HSA_QUEUE_MULTIMEDIA_ENCODE	= 4,
	HSA_QUEUE_SDMA_XGMI		= 5,
	/* Newer than 5.2.3: an SDMA queue on the engine named by
	 * hsaKmtCreateQueueExt()'s SdmaEngineId (KFD 1.17). */
	HSA_QUEUE_SDMA_BY_ENG_ID	= 6,
	HSA_QUEUE_COMPUTE_OS		= 11,
	HSA_QUEUE_SDMA_OS		= 12,
	HSA_QUEUE_MULTIMEDIA_DECODE_OS	= 13,
	HSA_QUEUE_MULTIMEDIA_ENCODE_OS	= 14,
	HSA_QUEUE_COMPUTE_AQL		= 21,	/* HSA AQL packets */
	HSA_QUEUE_DMA_AQL		= 22,
	HSA_QUEUE_DMA_AQL_XGMI		= 23,
	HSA_QUEUE_TYPE_SIZE		= 0xFFFFFFFF
} HSA_QUEUE_TYPE;

/*
 * Start of a queue's context save area, written by the kernel when the
 * queue's waves are saved. Offsets are from the start of the area.
 */
typedef struct {
	HSAuint32 ControlStackOffset;
	HSAuint32 ControlStackSize;
	HSAuint32 WaveStateOffset;
	HSAuint32 WaveStateSize;
	HSAuint32 DebugOffset;		/* 64-byte aligned debugger area */
	HSAuint32 DebugSize;
	volatile HSAint64 *ErrorReason;	/* signal payload for errors */
	HSAuint32 ErrorEventId;
	HSAuint32 Reserved1;
} HsaUserContextSaveAreaHeader;

/* Result of hsaKmtGetQueueInfo(). */
typedef struct {
	HSAuint32 QueueDetailError;
	HSAuint32 QueueTypeExtended;
	HSAuint32 NumCUAssigned;	/* bits in *CUMaskInfo */
	HSAuint32 *CUMaskInfo;
	HSAuint32 *UserContextSaveArea;
	HSAuint64 SaveAreaSizeInBytes;
	HSAuint32 *ControlStackTop;
	HSAuint64 ControlStackUsedInBytes;
	HsaUserContextSaveAreaHeader *SaveAreaHeader;
	HSAuint64 Reserved2;
} HsaQueueInfo;

/* What hsaKmtCreateQueue() hands back (40 bytes). */
typedef struct _HsaQueueResource {
	HSA_QUEUEID QueueId;
	union {				/* doorbell to ring after a write */
		HSAuint32	*Queue_DoorBell;
		HSAuint64	*Queue_DoorBell_aql;
		HSAuint64	QueueDoorBell;
	};
	union {				/* write pointer the GPU reads */
		HSAuint32	*Queue_write_ptr;
		HSAuint64	*Queue_write_ptr_aql;
		HSAuint64	QueueWptrValue;
	};
	union {				/* read pointer the GPU updates */
		HSAuint32	*Queue_read_ptr;
		HSAuint64	*Queue_read_ptr_aql;
		HSAuint64	QueueRptrValue;
	};
	volatile HSAint64 *ErrorReason;	/* exception bits */
} HsaQueueResource;

/* Only meaningful on a long-gone platform; kept for the declaration. */
typedef struct _HsaQueueReport {
	HSAuint32	VMID;
	void		*QueueAddress;
	HSAuint64	QueueSize;
} HsaQueueReport;

/* ------------------------------------------------------------------ */
/* Debugger                                                           */
/* ------------------------------------------------------------------ */

typedef enum _HSA_DBG_WAVEOP {
	HSA_DBG_WAVEOP_HALT		= 1,
	HSA_DBG_WAVEOP_RESUME		= 2,
	HSA_DBG_WAVEOP_KILL		= 3,
	HSA_DBG_WAVEOP_DEBUG		= 4,
	HSA_DBG_WAVEOP_TRAP		= 5,
	HSA_DBG_NUM_WAVEOP		= 5,
	HSA_DBG_MAX_WAVEOP		= 0xFFFFFFFF
} HSA_DBG_WAVEOP;

typedef enum _HSA_DBG_WAVEMODE {
	HSA_DBG_WAVEMODE_SINGLE			= 0,
	HSA_DBG_WAVEMODE_BROADCAST_PROCESS	= 2,
	HSA_DBG_WAVEMODE_BROADCAST_PROCESS_CU	= 3,
	HSA_DBG_NUM_WAVEMODE			= 3,
	HSA_DBG_MAX_WAVEMODE			= 0xFFFFFFFF
} HSA_DBG_WAVEMODE;

typedef enum _HSA_DBG_WAVEMSG_TYPE {
	HSA_DBG_WAVEMSG_AUTO		= 0,
	HSA_DBG_WAVEMSG_USER		= 1,
	HSA_DBG_WAVEMSG_ERROR		= 2,
	HSA_DBG_NUM_WAVEMSG,
	HSA_DBG_MAX_WAVEMSG		= 0xFFFFFFFF
} HSA_DBG_WAVEMSG_TYPE;

typedef enum _HSA_DBG_WATCH_MODE {
	HSA_DBG_WATCH_READ		= 0,
	HSA_DBG_WATCH_NONREAD		= 1,
	HSA_DBG_WATCH_ATOMIC		= 2,
	HSA_DBG_WATCH_ALL		= 3,
	HSA_DBG_WATCH_NUM
} HSA_DBG_WATCH_MODE;

typedef enum _HSA_DBG_TRAP_OVERRIDE {
	HSA_DBG_TRAP_OVERRIDE_OR	= 0,
	HSA_DBG_TRAP_OVERRIDE_REPLACE	= 1,
	HSA_DBG_TRAP_OVERRIDE_NUM
} HSA_DBG_TRAP_OVERRIDE;

typedef enum _HSA_DBG_TRAP_MASK {
	HSA_DBG_TRAP_MASK_FP_INVALID		= 1,
	HSA_DBG_TRAP_MASK_FP_INPUT_DENOMAL	= 2,
	HSA_DBG_TRAP_MASK_FP_DIVIDE_BY_ZERO	= 4,
	HSA_DBG_TRAP_MASK_FP_OVERFLOW		= 8,
	HSA_DBG_TRAP_MASK_FP_UNDERFLOW		= 16,
	HSA_DBG_TRAP_MASK_FP_INEXACT		= 32,
	HSA_DBG_TRAP_MASK_INT_DIVIDE_BY_ZERO	= 64,
	HSA_DBG_TRAP_MASK_DBG_ADDRESS_WATCH	= 128,
	HSA_DBG_TRAP_MASK_DBG_MEMORY_VIOLATION	= 256
} HSA_DBG_TRAP_MASK;

typedef enum _HSA_DBG_WAVE_LAUNCH_MODE {
	HSA_DBG_WAVE_LAUNCH_MODE_NORMAL		= 0,
	HSA_DBG_WAVE_LAUNCH_MODE_HALT		= 1,
	HSA_DBG_WAVE_LAUNCH_MODE_KILL		= 2,
	HSA_DBG_WAVE_LAUNCH_MODE_SINGLE_STEP	= 3,
	HSA_DBG_WAVE_LAUNCH_MODE_DISABLE	= 4,
	HSA_DBG_WAVE_LAUNCH_MODE_NUM
} HSA_DBG_WAVE_LAUNCH_MODE;

typedef enum HSA_DBG_NODE_CONTROL {
	HSA_DBG_NODE_CONTROL_FLAG_MAX	= 0x01
} HSA_DBG_NODE_CONTROL;

/* Hardware specific wave message word. */
typedef struct _HsaDbgWaveMsgAMDGen2 {
	HSAuint32 Value;
	HSAuint32 Reserved2;
} HsaDbgWaveMsgAMDGen2;

typedef union _HsaDbgWaveMessageAMD {
	HsaDbgWaveMsgAMDGen2 WaveMsgInfoGen2;
} HsaDbgWaveMessageAMD;

typedef struct _HsaDbgWaveMessage {
	void			*MemoryVA;
	HsaDbgWaveMessageAMD	DbgWaveMsg;
} HsaDbgWaveMessage;

/* ------------------------------------------------------------------ */
/* Events                                                             */
/* ------------------------------------------------------------------ */

typedef enum _HSA_EVENTTYPE {
	HSA_EVENTTYPE_SIGNAL			= 0,
	HSA_EVENTTYPE_NODECHANGE		= 1,
	HSA_EVENTTYPE_DEVICESTATECHANGE		= 2,
	HSA_EVENTTYPE_HW_EXCEPTION		= 3,
	HSA_EVENTTYPE_SYSTEM_EVENT		= 4,
	HSA_EVENTTYPE_DEBUG_EVENT		= 5,
	HSA_EVENTTYPE_PROFILE_EVENT		= 6,
	HSA_EVENTTYPE_QUEUE_EVENT		= 7,
	HSA_EVENTTYPE_MEMORY			= 8,
	HSA_EVENTTYPE_MAXID,
	HSA_EVENTTYPE_TYPE_SIZE			= 0xFFFFFFFF
} HSA_EVENTTYPE;

typedef enum _HSA_DEBUG_EVENT_TYPE {
	HSA_DEBUG_EVENT_TYPE_NONE		= 0,
	HSA_DEBUG_EVENT_TYPE_TRAP		= 1,
	HSA_DEBUG_EVENT_TYPE_VMFAULT		= 2,
	HSA_DEBUG_EVENT_TYPE_TRAP_VMFAULT	= 3
} HSA_DEBUG_EVENT_TYPE;

typedef HSAuint32 HSA_EVENTID;

/* A user-mode variable tied to a signal event. */
typedef struct _HsaSyncVar {
	union {
		void		*UserData;
		HSAuint64	UserDataPtrValue;
	} SyncVar;
	HSAuint64 SyncVarSize;
} HsaSyncVar;

typedef enum _HSA_EVENTTYPE_NODECHANGE_FLAGS {
	HSA_EVENTTYPE_NODECHANGE_ADD		= 0,
	HSA_EVENTTYPE_NODECHANGE_REMOVE		= 1,
	HSA_EVENTTYPE_NODECHANGE_SIZE		= 0xFFFFFFFF
} HSA_EVENTTYPE_NODECHANGE_FLAGS;

typedef struct _HsaNodeChange {
	HSA_EVENTTYPE_NODECHANGE_FLAGS Flags;
} HsaNodeChange;

typedef enum _HSA_EVENTTYPE_DEVICESTATECHANGE_FLAGS {
	HSA_EVENTTYPE_DEVICESTATUSCHANGE_START	= 0,
	HSA_EVENTTYPE_DEVICESTATUSCHANGE_STOP	= 1,
	HSA_EVENTTYPE_DEVICESTATUSCHANGE_SIZE	= 0xFFFFFFFF
} HSA_EVENTTYPE_DEVICESTATECHANGE_FLAGS;

typedef struct _HsaDeviceStateChange {
	HSAuint32				NodeId;
	HSA_DEVICE				Device;
	HSA_EVENTTYPE_DEVICESTATECHANGE_FLAGS	Flags;
} HsaDeviceStateChange;

typedef enum _HSA_EVENTID_MEMORYFLAGS {
	HSA_EVENTID_MEMORY_RECOVERABLE		= 0,
	HSA_EVENTID_MEMORY_FATAL_PROCESS	= 1,
	HSA_EVENTID_MEMORY_FATAL_VM		= 2,
} HSA_EVENTID_MEMORYFLAGS;

/* Why a GPU memory access failed. */
typedef struct _HsaAccessAttributeFailure {
	unsigned int NotPresent	: 1;
	unsigned int ReadOnly	: 1;
	unsigned int NoExecute	: 1;
	unsigned int GpuAccess	: 1;
	unsigned int ECC	: 1;
	unsigned int Imprecise	: 1;
	unsigned int ErrorType	: 3;	/* 0 none, 1 SRAM ECC, 2 poison, 3 hang */
	unsigned int Reserved	: 23;
} HsaAccessAttributeFailure;

/* Data of a HSA_EVENTTYPE_MEMORY event. */
typedef struct _HsaMemoryAccessFault {
	HSAuint32			NodeId;
	HSAuint64			VirtualAddress;
	HsaAccessAttributeFailure	Failure;
	HSA_EVENTID_MEMORYFLAGS		Flags;
} HsaMemoryAccessFault;

/* Newer than 5.2.3: why a GPU was reset (HsaHwException.ResetCause). */
typedef enum _HSA_EVENTID_HW_EXCEPTION_CAUSE {
	HSA_EVENTID_HW_EXCEPTION_GPU_HANG	= 0,
	HSA_EVENTID_HW_EXCEPTION_ECC		= 1,
} HSA_EVENTID_HW_EXCEPTION_CAUSE;

/*
 * Newer than 5.2.3: data of a HSA_EVENTTYPE_HW_EXCEPTION event. 16 bytes,
 * smaller than HsaMemoryAccessFault, so adding it to the union below
 * leaves HsaEventData's 5.2.3 size and offsets as they were.
 */
typedef struct _HsaHwException {
	HSAuint32			NodeId;		/* user node of the GPU */
	HSAuint32			ResetType;	/* the kernel's reset_type */
	HSAuint32			MemoryLost;	/* VRAM contents lost */
	HSA_EVENTID_HW_EXCEPTION_CAUSE	ResetCause;
} HsaHwException;

typedef struct _HsaEventData {
	HSA_EVENTTYPE EventType;
	union {
		HsaSyncVar		SyncVar;
		HsaNodeChange		NodeChangeState;
		HsaDeviceStateChange	DeviceState;
		HsaMemoryAccessFault	MemoryAccessFault;
		HsaHwException		HwException;	/* newer than 5.2.3 */
	} EventData;
	/* Private to the library: */
	HSAuint64 HWData1;	/* kernel event id */
	HSAuint64 HWData2;	/* address of the event's slot */
	HSAuint32 HWData3;	/* kernel trigger data */
} HsaEventData;

typedef struct _HsaEventDescriptor {
	HSA_EVENTTYPE	EventType;
	HSAuint32	NodeId;
	HsaSyncVar	SyncVar;
} HsaEventDescriptor;

/* An event as the API hands it out (48 bytes). */
typedef struct _HsaEvent {
	HSA_EVENTID	EventId;
	HsaEventData	EventData;
} HsaEvent;

typedef enum _HsaEventTimeout {
	HSA_EVENTTIMEOUT_IMMEDIATE	= 0,
	HSA_EVENTTIMEOUT_INFINITE	= 0xFFFFFFFF
} HsaEventTimeOut;

/* Result of hsaKmtGetClockCounters(). */
typedef struct _HsaClockCounters {
	HSAuint64 GPUClockCounter;
	HSAuint64 CPUClockCounter;
	HSAuint64 SystemClockCounter;
	HSAuint64 SystemClockFrequencyHz;
} HsaClockCounters;

/* ------------------------------------------------------------------ */
/* Performance counters                                               */
/* ------------------------------------------------------------------ */

#ifndef DEFINE_GUID
typedef struct _HSA_UUID {
	HSAuint32	Data1;
	HSAuint16	Data2;
	HSAuint16	Data3;
	HSAuint8	Data4[8];
} HSA_UUID;

#define HSA_DEFINE_UUID(name, dw, w1, w2, b1, b2, b3, b4, b5, b6, b7, b8) \
	static const HSA_UUID name = {dw, w1, w2, {b1, b2, b3, b4, b5, b6, b7, b8}}
#else
#define HSA_UUID GUID
#define HSA_DEFINE_UUID DEFINE_GUID
#endif

/* Identifiers of the profilable hardware blocks. */
HSA_DEFINE_UUID(HSA_PROFILEBLOCK_AMD_CB, 0x9ba429c6, 0xaf2d, 0x4b38,
		0xb3, 0x49, 0x15, 0x72, 0x71, 0xbe, 0xac, 0x6a);
HSA_DEFINE_UUID(HSA_PROFILEBLOCK_AMD_CPF, 0x2b0ad2b5, 0x1c43, 0x4f46,
		0xa7, 0xbc, 0xe1, 0x19, 0x41, 0x1e, 0xa6, 0xc9);
HSA_DEFINE_UUID(HSA_PROFILEBLOCK_AMD_CPG, 0x590ec94d, 0x20f0, 0x448f,
		0x8d, 0xff, 0x31, 0x6c, 0x67, 0x9d, 0xe7, 0xff);
HSA_DEFINE_UUID(HSA_PROFILEBLOCK_AMD_DB, 0x3d1a47fc, 0x0013, 0x4ed4,
		0x83, 0x06, 0x82, 0x2c, 0xa0, 0xb7, 0xa6, 0xc2);
HSA_DEFINE_UUID(HSA_PROFILEBLOCK_AMD_GDS, 0xf59276ec, 0x2526, 0x4bf8,
		0x8e, 0xc0, 0x11, 0x8f, 0x77, 0x70, 0x0d, 0xc9);
HSA_DEFINE_UUID(HSA_PROFILEBLOCK_AMD_GRBM, 0x8f00933c, 0xc33d, 0x4801,
		0x97, 0xb7, 0x70, 0x07, 0xf7, 0x85, 0x73, 0xad);
HSA_DEFINE_UUID(HSA_PROFILEBLOCK_AMD_GRBMSE, 0x34ebd8d7, 0x7c8b, 0x4d15,
		0x88, 0xfa, 0x0e, 0x4e, 0x4a, 0xf5, 0x9a, 0xc1);
HSA_DEFINE_UUID(HSA_PROFILEBLOCK_AMD_IA, 0x34276944, 0x4264, 0x4fcd,
		0x9d, 0x6e, 0xae, 0x26, 0x45, 0x82, 0xec, 0x51);
HSA_DEFINE_UUID(HSA_PROFILEBLOCK_AMD_MC, 0x13900b57, 0x4956, 0x4d98,
		0x81, 0xd0, 0x68, 0x52, 0x19, 0x37, 0xf5, 0x9c);
HSA_DEFINE_UUID(HSA_PROFILEBLOCK_AMD_PASC, 0xb0e7fb5d, 0x0efc, 0x4744,
		0xb5, 0x16, 0x5d, 0x23, 0xdc, 0x1f, 0xd5, 0x6c);
HSA_DEFINE_UUID(HSA_PROFILEBLOCK_AMD_PASU, 0x9a152b6a, 0x1fad, 0x45f2,
		0xa5, 0xbf, 0xf1, 0x63, 0x82, 0x6b, 0xd0, 0xcd);
HSA_DEFINE_UUID(HSA_PROFILEBLOCK_AMD_SPI, 0xeda81044, 0xd62c, 0x47eb,
		0xaf, 0x89, 0x4f, 0x6f, 0xbf, 0x3b, 0x38, 0xe0);
HSA_DEFINE_UUID(HSA_PROFILEBLOCK_AMD_SRBM, 0x9f8040e0, 0x6830, 0x4019,
		0xac, 0xc8, 0x46, 0x3c, 0x9e, 0x44, 0x5b, 0x89);
HSA_DEFINE_UUID(HSA_PROFILEBLOCK_AMD_SQ, 0xb5c396b6, 0xd310, 0x47e4,
		0x86, 0xfc, 0x5c, 0xc3, 0x04, 0x3a, 0xf5, 0x08);
HSA_DEFINE_UUID(HSA_PROFILEBLOCK_AMD_SX, 0xbdb8d737, 0x43cc, 0x4162,
		0xbe, 0x52, 0x51, 0xcf, 0xb8, 0x47, 0xbe, 0xaf);
HSA_DEFINE_UUID(HSA_PROFILEBLOCK_AMD_TA, 0xc01ee43d, 0xad92, 0x44b1,
		0x8a, 0xb9, 0xbe, 0x5e, 0x69, 0x6c, 0xee, 0xa7);
HSA_DEFINE_UUID(HSA_PROFILEBLOCK_AMD_TCA, 0x333e393f, 0xe147, 0x4f49,
		0xa6, 0xd1, 0x60, 0x91, 0x4c, 0x70, 0x86, 0xb0);
HSA_DEFINE_UUID(HSA_PROFILEBLOCK_AMD_TCC, 0x848ce855, 0xd805, 0x4566,
		0xa8, 0xab, 0x73, 0xe8, 0x84, 0xcc, 0x6b, 0xff);
HSA_DEFINE_UUID(HSA_PROFILEBLOCK_AMD_TCP, 0xe10a013b, 0x17d4, 0x4bf5,
		0xb0, 0x89, 0x42, 0x95, 0x91, 0x05, 0x9b, 0x60);
HSA_DEFINE_UUID(HSA_PROFILEBLOCK_AMD_TCS, 0x4126245c, 0x4d96, 0x4d1a,
		0x8a, 0xed, 0xa9, 0x39, 0xd4, 0xcc, 0x8e, 0xc9);
HSA_DEFINE_UUID(HSA_PROFILEBLOCK_AMD_TD, 0x7d7c0fe4, 0xfe41, 0x4fea,
		0x92, 0xc9, 0x45, 0x44, 0xd7, 0x70, 0x6d, 0xc6);
HSA_DEFINE_UUID(HSA_PROFILEBLOCK_AMD_VGT, 0x0b6a8cb7, 0x7a01, 0x409f,
		0xa2, 0x2c, 0x30, 0x14, 0x85, 0x4f, 0x13, 0x59);
HSA_DEFINE_UUID(HSA_PROFILEBLOCK_AMD_WD, 0x0e176789, 0x46ed, 0x4b02,
		0x97, 0x2a, 0x91, 0x6d, 0x2f, 0xac, 0x24, 0x4a);
HSA_DEFINE_UUID(HSA_PROFILEBLOCK_AMD_IOMMUV2, 0x80969879, 0xb0f6, 0x4be6,
		0x97, 0xf6, 0x6a, 0x63, 0x00, 0xf5, 0x10, 0x1d);
HSA_DEFINE_UUID(HSA_PROFILEBLOCK_AMD_KERNEL_DRIVER, 0xea9b5ae1, 0x6c3f, 0x44b3,
		0x89, 0x54, 0xda, 0xf0, 0x75, 0x65, 0xa9, 0x0a);

typedef enum _HSA_PROFILE_TYPE {
	HSA_PROFILE_TYPE_PRIVILEGED_IMMEDIATE	= 0,
	HSA_PROFILE_TYPE_PRIVILEGED_STREAMING	= 1,
	HSA_PROFILE_TYPE_NONPRIV_IMMEDIATE	= 2,
	HSA_PROFILE_TYPE_NONPRIV_STREAMING	= 3,
	HSA_PROFILE_TYPE_NUM,
	HSA_PROFILE_TYPE_SIZE			= 0xFFFFFFFF
} HSA_PROFILE_TYPE;

typedef struct _HsaCounterFlags {
	union {
		struct {
			unsigned int Global	: 1;
			unsigned int Resettable	: 1;
			unsigned int ReadOnly	: 1;
			unsigned int Stream	: 1;
			unsigned int Reserved	: 28;
		} ui32;
		HSAuint32 Value;
	};
} HsaCounterFlags;

typedef struct _HsaCounter {
	HSA_PROFILE_TYPE Type;
	HSAuint64	CounterId;		/* register offset / event id */
	HSAuint32	CounterSizeInBits;
	HSAuint64	CounterMask;
	HsaCounterFlags	Flags;
	HSAuint32	BlockIndex;
} HsaCounter;

/* A block with NumCounters counters (Counters[] runs past its end). */
typedef struct _HsaCounterBlockProperties {
	HSA_UUID	BlockId;
	HSAuint32	NumCounters;
	HSAuint32	NumConcurrent;
	HsaCounter	Counters[1];
} HsaCounterBlockProperties;

/* NumBlocks variable-size blocks follow one another from Blocks[0]. */
typedef struct _HsaCounterProperties {
	HSAuint32			NumBlocks;
	HSAuint32			NumConcurrent;
	HsaCounterBlockProperties	Blocks[1];
} HsaCounterProperties;

typedef HSAuint64 HSATraceId;

typedef struct _HsaPmcTraceRoot {
	HSAuint64	TraceBufferMinSizeBytes;
	HSAuint32	NumberOfPasses;
	HSATraceId	TraceId;
} HsaPmcTraceRoot;

/* In/out of hsaKmtGetTileConfig(): the caller provides the arrays. */
typedef struct _HsaGpuTileConfig {
	HSAuint32 *TileConfig;
	HSAuint32 *MacroTileConfig;
	HSAuint32 NumTileConfigs;	/* capacity in, count out */
	HSAuint32 NumMacroTileConfigs;	/* capacity in, count out */
	HSAuint32 GbAddrConfig;
	HSAuint32 NumBanks;
	HSAuint32 NumRanks;
	HSAuint32 Reserved[7];
} HsaGpuTileConfig;

/* ------------------------------------------------------------------ */
/* Pointer information, sharing, SVM                                  */
/* ------------------------------------------------------------------ */

typedef enum _HSA_POINTER_TYPE {
	HSA_POINTER_UNKNOWN		= 0,
	HSA_POINTER_ALLOCATED		= 1,	/* hsaKmtAllocMemory (not scratch) */
	HSA_POINTER_REGISTERED_USER	= 2,	/* hsaKmtRegisterMemory* */
	HSA_POINTER_REGISTERED_GRAPHICS	= 3,	/* hsaKmtRegisterGraphicsHandleToNodes */
	HSA_POINTER_REGISTERED_SHARED	= 4,	/* hsaKmtRegisterSharedHandle* */
	HSA_POINTER_RESERVED_ADDR	= 5,	/* a VA-only reservation (newer) */
} HSA_POINTER_TYPE;

/* Result of hsaKmtQueryPointerInfo() (68 bytes). */
typedef struct _HsaPointerInfo {
	HSA_POINTER_TYPE Type;
	HSAuint32	Node;			/* node that owns the memory */
	HsaMemFlags	MemFlags;
	void		*CPUAddress;		/* start, as the CPU sees it */
	HSAuint64	GPUAddress;		/* start, as the GPU sees it */
	HSAuint64	SizeInBytes;
	HSAuint32	NRegisteredNodes;
	HSAuint32	NMappedNodes;
	const HSAuint32	*RegisteredNodes;	/* owned by the library */
	const HSAuint32	*MappedNodes;		/* owned by the library */
	void		*UserData;		/* hsaKmtSetMemoryUserData */
} HsaPointerInfo;

/* Opaque IPC handle of hsaKmtShareMemory(). */
typedef HSAuint32 HsaSharedMemoryHandle[8];

typedef struct _HsaMemoryRange {
	void		*MemoryAddress;
	HSAuint64	SizeInBytes;
} HsaMemoryRange;

typedef enum _HSA_SVM_FLAGS {
	HSA_SVM_FLAG_HOST_ACCESS	= 0x00000001,
	HSA_SVM_FLAG_COHERENT		= 0x00000002,
	HSA_SVM_FLAG_HIVE_LOCAL		= 0x00000004,
	HSA_SVM_FLAG_GPU_RO		= 0x00000008,
	HSA_SVM_FLAG_GPU_EXEC		= 0x00000010,
	HSA_SVM_FLAG_GPU_READ_MOSTLY	= 0x00000020,
	HSA_SVM_FLAG_GPU_ALWAYS_MAPPED	= 0x00000040,	/* newer */
	HSA_SVM_FLAG_EXT_COHERENT	= 0x00000080,	/* newer */
} HSA_SVM_FLAGS;

typedef enum _HSA_SVM_ATTR_TYPE {
	HSA_SVM_ATTR_PREFERRED_LOC,	/* gpu_id, 0 = system, ~0 = none */
	HSA_SVM_ATTR_PREFETCH_LOC,	/* gpu_id; migrates now */
	HSA_SVM_ATTR_ACCESS,
	HSA_SVM_ATTR_ACCESS_IN_PLACE,
	HSA_SVM_ATTR_NO_ACCESS,
	HSA_SVM_ATTR_SET_FLAGS,		/* HSA_SVM_FLAGS to set */
	HSA_SVM_ATTR_CLR_FLAGS,		/* HSA_SVM_FLAGS to clear */
	HSA_SVM_ATTR_GRANULARITY	/* log2 of pages */
} HSA_SVM_ATTR_TYPE;

typedef struct _HSA_SVM_ATTRIBUTE {
	HSAuint32 type;			/* HSA_SVM_ATTR_TYPE */
	HSAuint32 value;
} HSA_SVM_ATTRIBUTE;

/* ------------------------------------------------------------------ */
/* Types of the API added after 5.2.3                                 */
/* ------------------------------------------------------------------ */

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

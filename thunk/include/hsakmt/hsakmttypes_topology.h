/* SPDX-License-Identifier: MIT */
/*
 * hsakmttypes_topology.h - system, node, memory bank, cache and IO link properties.
 *
 * One part of hsakmttypes.h, which includes it between its 4-byte
 * packing pragmas (the ROCm 5.2.3 layouts depend on them): include
 * <hsakmt/hsakmttypes.h>, never this file alone.
 */
#ifndef HSAKMT_HSAKMTTYPES_TOPOLOGY_H
#define HSAKMT_HSAKMTTYPES_TOPOLOGY_H

#ifndef HSAKMT_HSAKMTTYPES_H
#error "include <hsakmt/hsakmttypes.h>: it packs these types to 4 bytes"
#endif

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

#endif /* HSAKMT_HSAKMTTYPES_TOPOLOGY_H */

/* SPDX-License-Identifier: MIT */
/*
 * hsakmttypes_memory.h - allocation and mapping flags, pointer information, sharing and SVM.
 *
 * One part of hsakmttypes.h, which includes it between its 4-byte
 * packing pragmas (the ROCm 5.2.3 layouts depend on them): include
 * <hsakmt/hsakmttypes.h>, never this file alone.
 */
#ifndef HSAKMT_HSAKMTTYPES_MEMORY_H
#define HSAKMT_HSAKMTTYPES_MEMORY_H

#ifndef HSAKMT_HSAKMTTYPES_H
#error "include <hsakmt/hsakmttypes.h>: it packs these types to 4 bytes"
#endif

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

/* Pointer information, sharing, SVM */

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

#endif /* HSAKMT_HSAKMTTYPES_MEMORY_H */

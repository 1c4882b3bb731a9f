/* SPDX-License-Identifier: MIT */
/*
 * hsakmttypes_queues.h - queue types, priorities and the resources hsaKmtCreateQueue() returns.
 *
 * One part of hsakmttypes.h, which includes it between its 4-byte
 * packing pragmas (the ROCm 5.2.3 layouts depend on them): include
 * <hsakmt/hsakmttypes.h>, never this file alone.
 */
#ifndef HSAKMT_HSAKMTTYPES_QUEUES_H
#define HSAKMT_HSAKMTTYPES_QUEUES_H

#ifndef HSAKMT_HSAKMTTYPES_H
#error "include <hsakmt/hsakmttypes.h>: it packs these types to 4 bytes"
#endif

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

#endif /* HSAKMT_HSAKMTTYPES_QUEUES_H */

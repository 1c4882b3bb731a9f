/* SPDX-License-Identifier: MIT */
/*
 * hsakmttypes_events.h - events, their descriptors and payloads, clock counters.
 *
 * One part of hsakmttypes.h, which includes it between its 4-byte
 * packing pragmas (the ROCm 5.2.3 layouts depend on them): include
 * <hsakmt/hsakmttypes.h>, never this file alone.
 */
#ifndef HSAKMT_HSAKMTTYPES_EVENTS_H
#define HSAKMT_HSAKMTTYPES_EVENTS_H

#ifndef HSAKMT_HSAKMTTYPES_H
#error "include <hsakmt/hsakmttypes.h>: it packs these types to 4 bytes"
#endif

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

#endif /* HSAKMT_HSAKMTTYPES_EVENTS_H */

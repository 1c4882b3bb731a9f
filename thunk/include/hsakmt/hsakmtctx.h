/* SPDX-License-Identifier: MIT */
/*
 * hsakmtctx.h - the libhsakmt API on explicit KFD contexts.
 *
 * A context (HsaKFDContext) is one connection to the KFD: its own
 * /dev/kfd file, topology snapshot, GPU address space bookkeeping,
 * render-node handles, queues, events and debug state. Two contexts
 * share nothing.
 *
 *  - The primary context is the one the context-less API (hsakmt.h) uses.
 *    It is a single static object, opened and reference-counted by
 *    hsaKmtOpenKFD()/hsaKmtOpenKFDCtx() and closed by the last
 *    hsaKmtCloseKFD()/hsaKmtCloseKFDCtx().
 *  - A secondary context (KFD 1.19, CREATE_PROCESS) opens its own
 *    /dev/kfd file and makes it a separate KFD process with its own GPU
 *    virtual address spaces. Debugger calls answer NOT_SUPPORTED on it,
 *    and paged system memory is not backed by user pointers there.
 *
 * Each hsaKmtXCtx() below is the function hsaKmtX() of hsakmt.h acting on
 * @ctx (which must not be NULL: INVALID_PARAMETER), with the same
 * parameters, rules and results. A context that is not open gives
 * KERNEL_IO_CHANNEL_NOT_OPENED.
 */
#ifndef HSAKMT_HSAKMTCTX_H
#define HSAKMT_HSAKMTCTX_H

#include "hsakmttypes.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * hsaKmtOpenKFDCtx() - open (or count another user of) the primary
 * context, as hsaKmtOpenKFD(), and return it.
 * @pCtx: out, the primary context; may be NULL.
 */
HSAKMT_STATUS HSAKMTAPI hsaKmtOpenKFDCtx(HsaKFDContext **pCtx);

/* hsaKmtCloseKFDCtx() - hsaKmtCloseKFD(): drop one reference of the primary context. */
HSAKMT_STATUS HSAKMTAPI hsaKmtCloseKFDCtx(void);

/*
 * hsaKmtOpenSecondaryKFDCtx() - create a secondary context.
 * @pCtx: out, the new context, closed with hsaKmtCloseSecondaryKFDCtx().
 *
 * Opens a new /dev/kfd file, turns it into a KFD process of its own
 * (CREATE_PROCESS), reads the topology and sets up its apertures and
 * render-node handles (separate libdrm devices where libdrm can make
 * them). Works whether or not the primary context is open.
 *
 * Return: NOT_SUPPORTED when the kernel lacks CREATE_PROCESS (KFD < 1.19),
 * KERNEL_IO_CHANNEL_NOT_OPENED when /dev/kfd cannot be opened, NO_MEMORY,
 * ERROR.
 */
HSAKMT_STATUS HSAKMTAPI hsaKmtOpenSecondaryKFDCtx(HsaKFDContext **pCtx);

/*
 * hsaKmtCloseSecondaryKFDCtx() - free everything of a secondary context
 * (queues, events, memory, render-node handles, the file) and the context.
 * Return: INVALID_PARAMETER for NULL or the primary context.
 */
HSAKMT_STATUS HSAKMTAPI hsaKmtCloseSecondaryKFDCtx(HsaKFDContext *ctx);

/* hsaKmtGetVersionCtx() - hsaKmtGetVersion() on @ctx. */
HSAKMT_STATUS HSAKMTAPI hsaKmtGetVersionCtx(HsaKFDContext *ctx, HsaVersionInfo *VersionInfo);

/* hsaKmtAcquireSystemPropertiesCtx() - hsaKmtAcquireSystemProperties() on @ctx. */
HSAKMT_STATUS HSAKMTAPI hsaKmtAcquireSystemPropertiesCtx(HsaKFDContext *ctx,
							 HsaSystemProperties *SystemProperties);

/* hsaKmtReleaseSystemPropertiesCtx() - hsaKmtReleaseSystemProperties() on @ctx. */
HSAKMT_STATUS HSAKMTAPI hsaKmtReleaseSystemPropertiesCtx(HsaKFDContext *ctx);

/* hsaKmtGetNodePropertiesCtx() - hsaKmtGetNodeProperties() on @ctx. */
HSAKMT_STATUS HSAKMTAPI hsaKmtGetNodePropertiesCtx(HsaKFDContext *ctx, HSAuint32 NodeId,
						   HsaNodeProperties *NodeProperties);

/* hsaKmtGetNodeMemoryPropertiesCtx() - hsaKmtGetNodeMemoryProperties() on @ctx. */
HSAKMT_STATUS HSAKMTAPI hsaKmtGetNodeMemoryPropertiesCtx(HsaKFDContext *ctx, HSAuint32 NodeId,
							 HSAuint32 NumBanks,
							 HsaMemoryProperties *MemoryProperties);

/* hsaKmtGetNodeCachePropertiesCtx() - hsaKmtGetNodeCacheProperties() on @ctx. */
HSAKMT_STATUS HSAKMTAPI hsaKmtGetNodeCachePropertiesCtx(HsaKFDContext *ctx, HSAuint32 NodeId,
							HSAuint32 ProcessorId, HSAuint32 NumCaches,
							HsaCacheProperties *CacheProperties);

/* hsaKmtGetNodeIoLinkPropertiesCtx() - hsaKmtGetNodeIoLinkProperties() on @ctx. */
HSAKMT_STATUS HSAKMTAPI hsaKmtGetNodeIoLinkPropertiesCtx(HsaKFDContext *ctx, HSAuint32 NodeId,
							 HSAuint32 NumIoLinks,
							 HsaIoLinkProperties *IoLinkProperties);

/* hsaKmtGetNodeWallclockFrequencyCtx() - hsaKmtGetNodeWallclockFrequency() on @ctx. */
HSAKMT_STATUS HSAKMTAPI hsaKmtGetNodeWallclockFrequencyCtx(HsaKFDContext *ctx, HSAuint32 NodeId,
							   uint64_t *Frequency);

/* hsaKmtCreateEventCtx() - hsaKmtCreateEvent() on @ctx. */
HSAKMT_STATUS HSAKMTAPI hsaKmtCreateEventCtx(HsaKFDContext *ctx, HsaEventDescriptor *EventDesc,
					     bool ManualReset, bool IsSignaled, HsaEvent **Event);

/* hsaKmtDestroyEventCtx() - hsaKmtDestroyEvent() on @ctx. */
HSAKMT_STATUS HSAKMTAPI hsaKmtDestroyEventCtx(HsaKFDContext *ctx, HsaEvent *Event);

/* hsaKmtSetEventCtx() - hsaKmtSetEvent() on @ctx. */
HSAKMT_STATUS HSAKMTAPI hsaKmtSetEventCtx(HsaKFDContext *ctx, HsaEvent *Event);

/* hsaKmtResetEventCtx() - hsaKmtResetEvent() on @ctx. */
HSAKMT_STATUS HSAKMTAPI hsaKmtResetEventCtx(HsaKFDContext *ctx, HsaEvent *Event);

/* hsaKmtQueryEventStateCtx() - hsaKmtQueryEventState() on @ctx. */
HSAKMT_STATUS HSAKMTAPI hsaKmtQueryEventStateCtx(HsaKFDContext *ctx, HsaEvent *Event);

/* hsaKmtWaitOnEventCtx() - hsaKmtWaitOnEvent() on @ctx. */
HSAKMT_STATUS HSAKMTAPI hsaKmtWaitOnEventCtx(HsaKFDContext *ctx, HsaEvent *Event,
					     HSAuint32 Milliseconds);

/* hsaKmtWaitOnEvent_ExtCtx() - hsaKmtWaitOnEvent_Ext() on @ctx. */
HSAKMT_STATUS HSAKMTAPI hsaKmtWaitOnEvent_ExtCtx(HsaKFDContext *ctx, HsaEvent *Event,
						 HSAuint32 Milliseconds, uint64_t *event_age);

/* hsaKmtWaitOnMultipleEventsCtx() - hsaKmtWaitOnMultipleEvents() on @ctx. */
HSAKMT_STATUS HSAKMTAPI hsaKmtWaitOnMultipleEventsCtx(HsaKFDContext *ctx, HsaEvent *Events[],
						      HSAuint32 NumEvents, bool WaitOnAll,
						      HSAuint32 Milliseconds);

/* hsaKmtWaitOnMultipleEvents_ExtCtx() - hsaKmtWaitOnMultipleEvents_Ext() on @ctx. */
HSAKMT_STATUS HSAKMTAPI hsaKmtWaitOnMultipleEvents_ExtCtx(HsaKFDContext *ctx, HsaEvent *Events[],
							  HSAuint32 NumEvents, bool WaitOnAll,
							  HSAuint32 Milliseconds,
							  uint64_t *event_age);

/* hsaKmtOpenSMICtx() - hsaKmtOpenSMI() on @ctx. */
HSAKMT_STATUS HSAKMTAPI hsaKmtOpenSMICtx(HsaKFDContext *ctx, HSAuint32 NodeId, int *fd);

/* hsaKmtCreateQueueCtx() - hsaKmtCreateQueue() on @ctx. */
HSAKMT_STATUS HSAKMTAPI hsaKmtCreateQueueCtx(HsaKFDContext *ctx, HSAuint32 NodeId,
					     HSA_QUEUE_TYPE Type, HSAuint32 QueuePercentage,
					     HSA_QUEUE_PRIORITY Priority, void *QueueAddress,
					     HSAuint64 QueueSizeInBytes, HsaEvent *Event,
					     HsaQueueResource *QueueResource);

/* hsaKmtCreateQueueExtCtx() - hsaKmtCreateQueueExt() on @ctx. */
HSAKMT_STATUS HSAKMTAPI hsaKmtCreateQueueExtCtx(HsaKFDContext *ctx, HSAuint32 NodeId,
						HSA_QUEUE_TYPE Type, HSAuint32 QueuePercentage,
						HSA_QUEUE_PRIORITY Priority, HSAuint32 SdmaEngineId,
						void *QueueAddress, HSAuint64 QueueSizeInBytes,
						HsaEvent *Event, HsaQueueResource *QueueResource);

/*
 * hsaKmtCreateQueueV2Ctx() - hsaKmtCreateQueueExt() on @ctx with an AQL
 * metadata ring of @MetaDataQueueSizeInBytes after the ring (KFD 1.22).
 */
HSAKMT_STATUS HSAKMTAPI hsaKmtCreateQueueV2Ctx(HsaKFDContext *ctx, HSAuint32 NodeId,
					       HSA_QUEUE_TYPE Type, HSAuint32 QueuePercentage,
					       HSA_QUEUE_PRIORITY Priority, HSAuint32 SdmaEngineId,
					       void *QueueAddress, HSAuint64 QueueSizeInBytes,
					       HSAuint64 MetaDataQueueSizeInBytes, HsaEvent *Event,
					       HsaQueueResource *QueueResource);

/* hsaKmtUpdateQueueCtx() - hsaKmtUpdateQueue() on @ctx. */
HSAKMT_STATUS HSAKMTAPI hsaKmtUpdateQueueCtx(HsaKFDContext *ctx, HSA_QUEUEID QueueId,
					     HSAuint32 QueuePercentage, HSA_QUEUE_PRIORITY Priority,
					     void *QueueAddress, HSAuint64 QueueSize,
					     HsaEvent *Event);

/* hsaKmtDestroyQueueCtx() - hsaKmtDestroyQueue() on @ctx. */
HSAKMT_STATUS HSAKMTAPI hsaKmtDestroyQueueCtx(HsaKFDContext *ctx, HSA_QUEUEID QueueId);

/* hsaKmtSetQueueCUMaskCtx() - hsaKmtSetQueueCUMask() on @ctx. */
HSAKMT_STATUS HSAKMTAPI hsaKmtSetQueueCUMaskCtx(HsaKFDContext *ctx, HSA_QUEUEID QueueId,
						HSAuint32 CUMaskCount, HSAuint32 *QueueCUMask);

/* hsaKmtGetQueueInfoCtx() - hsaKmtGetQueueInfo() on @ctx. */
HSAKMT_STATUS HSAKMTAPI hsaKmtGetQueueInfoCtx(HsaKFDContext *ctx, HSA_QUEUEID QueueId,
					      HsaQueueInfo *QueueInfo);

/* hsaKmtGetKernelQueueIdCtx() - hsaKmtGetKernelQueueId() on @ctx. */
HSAKMT_STATUS HSAKMTAPI hsaKmtGetKernelQueueIdCtx(HsaKFDContext *ctx, HSA_QUEUEID QueueId,
						  HSAuint32 *KernelInternalQueueId);

/* hsaKmtAllocQueueGWSCtx() - hsaKmtAllocQueueGWS() on @ctx. */
HSAKMT_STATUS HSAKMTAPI hsaKmtAllocQueueGWSCtx(HsaKFDContext *ctx, HSA_QUEUEID QueueId,
					       HSAuint32 nGWS, HSAuint32 *firstGWS);

/* hsaKmtSetTrapHandlerCtx() - hsaKmtSetTrapHandler() on @ctx. */
HSAKMT_STATUS HSAKMTAPI hsaKmtSetTrapHandlerCtx(HsaKFDContext *ctx, HSAuint32 NodeId,
						void *TrapHandlerBaseAddress,
						HSAuint64 TrapHandlerSizeInBytes,
						void *TrapBufferBaseAddress,
						HSAuint64 TrapBufferSizeInBytes);

/* hsaKmtSetMemoryPolicyCtx() - hsaKmtSetMemoryPolicy() on @ctx. */
HSAKMT_STATUS HSAKMTAPI hsaKmtSetMemoryPolicyCtx(HsaKFDContext *ctx, HSAuint32 Node,
						 HSAuint32 DefaultPolicy, HSAuint32 AlternatePolicy,
						 void *MemoryAddressAlternate,
						 HSAuint64 MemorySizeInBytes);

/* hsaKmtAllocMemoryCtx() - hsaKmtAllocMemory() on @ctx. */
HSAKMT_STATUS HSAKMTAPI hsaKmtAllocMemoryCtx(HsaKFDContext *ctx, HSAuint32 PreferredNode,
					     HSAuint64 SizeInBytes, HsaMemFlags MemFlags,
					     void **MemoryAddress);

/* hsaKmtAllocMemoryAlignCtx() - hsaKmtAllocMemoryAlign() on @ctx. */
HSAKMT_STATUS HSAKMTAPI hsaKmtAllocMemoryAlignCtx(HsaKFDContext *ctx, HSAuint32 PreferredNode,
						  HSAuint64 SizeInBytes, HSAuint64 Alignment,
						  HsaMemFlags MemFlags, void **MemoryAddress);

/*
 * hsaKmtAllocMemoryHostGttCtx() - allocate system memory on CPU node
 * @PreferredNode whose GTT buffer object belongs to GPU node @GttAnchorNode.
 */
HSAKMT_STATUS HSAKMTAPI hsaKmtAllocMemoryHostGttCtx(HsaKFDContext *ctx, HSAuint32 PreferredNode,
						    HSAuint32 GttAnchorNode, HSAuint64 SizeInBytes,
						    HsaMemFlags MemFlags, void **MemoryAddress);

/* hsaKmtFreeMemoryCtx() - hsaKmtFreeMemory() on @ctx. */
HSAKMT_STATUS HSAKMTAPI hsaKmtFreeMemoryCtx(HsaKFDContext *ctx, void *MemoryAddress,
					    HSAuint64 SizeInBytes);

/* hsaKmtAvailableMemoryCtx() - hsaKmtAvailableMemory() on @ctx. */
HSAKMT_STATUS HSAKMTAPI hsaKmtAvailableMemoryCtx(HsaKFDContext *ctx, HSAuint32 Node,
						 HSAuint64 *AvailableBytes);

/* hsaKmtRegisterMemoryCtx() - hsaKmtRegisterMemory() on @ctx. */
HSAKMT_STATUS HSAKMTAPI hsaKmtRegisterMemoryCtx(HsaKFDContext *ctx, void *MemoryAddress,
						HSAuint64 MemorySizeInBytes);

/* hsaKmtRegisterMemoryToNodesCtx() - hsaKmtRegisterMemoryToNodes() on @ctx. */
HSAKMT_STATUS HSAKMTAPI hsaKmtRegisterMemoryToNodesCtx(HsaKFDContext *ctx, void *MemoryAddress,
						       HSAuint64 MemorySizeInBytes,
						       HSAuint64 NumberOfNodes,
						       HSAuint32 *NodeArray);

/* hsaKmtRegisterMemoryWithFlagsCtx() - hsaKmtRegisterMemoryWithFlags() on @ctx. */
HSAKMT_STATUS HSAKMTAPI hsaKmtRegisterMemoryWithFlagsCtx(HsaKFDContext *ctx, void *MemoryAddress,
							 HSAuint64 MemorySizeInBytes,
							 HsaMemFlags MemFlags);

/* hsaKmtRegisterMemoryRangesWithFlagsCtx() - hsaKmtRegisterMemoryRangesWithFlags() on @ctx. */
HSAKMT_STATUS HSAKMTAPI hsaKmtRegisterMemoryRangesWithFlagsCtx(HsaKFDContext *ctx,
							       void *MemoryAddress,
							       HsaMemoryRange *MemoryRanges,
							       HSAuint64 NumberOfRanges,
							       HsaMemFlags MemFlags);

/* hsaKmtRegisterGraphicsHandleToNodesCtx() - hsaKmtRegisterGraphicsHandleToNodes() on @ctx. */
HSAKMT_STATUS HSAKMTAPI hsaKmtRegisterGraphicsHandleToNodesCtx(HsaKFDContext *ctx,
							       HSAuint64 GraphicsResourceHandle,
							       HsaGraphicsResourceInfo *GraphicsResourceInfo,
							       HSAuint64 NumberOfNodes,
							       HSAuint32 *NodeArray);

/* hsaKmtRegisterGraphicsHandleToNodesExtCtx() - hsaKmtRegisterGraphicsHandleToNodesExt() on @ctx. */
HSAKMT_STATUS HSAKMTAPI hsaKmtRegisterGraphicsHandleToNodesExtCtx(HsaKFDContext *ctx,
								  HSAuint64 GraphicsResourceHandle,
								  HsaGraphicsResourceInfo *GraphicsResourceInfo,
								  HSAuint64 NumberOfNodes,
								  HSAuint32 *NodeArray,
								  HSA_REGISTER_MEM_FLAGS RegisterFlags);

/* hsaKmtExportDMABufHandleCtx() - hsaKmtExportDMABufHandle() on @ctx. */
HSAKMT_STATUS HSAKMTAPI hsaKmtExportDMABufHandleCtx(HsaKFDContext *ctx, void *MemoryAddress,
						    HSAuint64 MemorySizeInBytes, int *DMABufFd,
						    HSAuint64 *Offset);

/* hsaKmtShareMemoryCtx() - hsaKmtShareMemory() on @ctx. */
HSAKMT_STATUS HSAKMTAPI hsaKmtShareMemoryCtx(HsaKFDContext *ctx, void *MemoryAddress,
					     HSAuint64 SizeInBytes,
					     HsaSharedMemoryHandle *SharedMemoryHandle);

/* hsaKmtRegisterSharedHandleCtx() - hsaKmtRegisterSharedHandle() on @ctx. */
HSAKMT_STATUS HSAKMTAPI hsaKmtRegisterSharedHandleCtx(HsaKFDContext *ctx,
						      const HsaSharedMemoryHandle *SharedMemoryHandle,
						      void **MemoryAddress, HSAuint64 *SizeInBytes);

/* hsaKmtRegisterSharedHandleToNodesCtx() - hsaKmtRegisterSharedHandleToNodes() on @ctx. */
HSAKMT_STATUS HSAKMTAPI hsaKmtRegisterSharedHandleToNodesCtx(HsaKFDContext *ctx,
							     const HsaSharedMemoryHandle *SharedMemoryHandle,
							     void **MemoryAddress,
							     HSAuint64 *SizeInBytes,
							     HSAuint64 NumberOfNodes,
							     HSAuint32 *NodeArray);

/* hsaKmtProcessVMReadCtx() - hsaKmtProcessVMRead() on @ctx. */
HSAKMT_STATUS HSAKMTAPI hsaKmtProcessVMReadCtx(HsaKFDContext *ctx, HSAuint32 Pid,
					       HsaMemoryRange *LocalMemoryArray,
					       HSAuint64 LocalMemoryArrayCount,
					       HsaMemoryRange *RemoteMemoryArray,
					       HSAuint64 RemoteMemoryArrayCount,
					       HSAuint64 *SizeCopied);

/* hsaKmtProcessVMWriteCtx() - hsaKmtProcessVMWrite() on @ctx. */
HSAKMT_STATUS HSAKMTAPI hsaKmtProcessVMWriteCtx(HsaKFDContext *ctx, HSAuint32 Pid,
						HsaMemoryRange *LocalMemoryArray,
						HSAuint64 LocalMemoryArrayCount,
						HsaMemoryRange *RemoteMemoryArray,
						HSAuint64 RemoteMemoryArrayCount,
						HSAuint64 *SizeCopied);

/* hsaKmtDeregisterMemoryCtx() - hsaKmtDeregisterMemory() on @ctx. */
HSAKMT_STATUS HSAKMTAPI hsaKmtDeregisterMemoryCtx(HsaKFDContext *ctx, void *MemoryAddress);

/* hsaKmtMapMemoryToGPUCtx() - hsaKmtMapMemoryToGPU() on @ctx. */
HSAKMT_STATUS HSAKMTAPI hsaKmtMapMemoryToGPUCtx(HsaKFDContext *ctx, void *MemoryAddress,
						HSAuint64 MemorySizeInBytes,
						HSAuint64 *AlternateVAGPU);

/*
 * hsaKmtMapMemoryToGPUNodesCtx() - hsaKmtMapMemoryToGPUNodes() on @ctx.
 * The flags are typed HsaMemFlags here, as in AMD's context API; the
 * value is passed the same way and only its map hints are read.
 */
HSAKMT_STATUS HSAKMTAPI hsaKmtMapMemoryToGPUNodesCtx(HsaKFDContext *ctx, void *MemoryAddress,
						     HSAuint64 MemorySizeInBytes,
						     HSAuint64 *AlternateVAGPU,
						     HsaMemFlags MemFlags, HSAuint64 NumberOfNodes,
						     HSAuint32 *NodeArray);

/* hsaKmtUnmapMemoryToGPUCtx() - hsaKmtUnmapMemoryToGPU() on @ctx. */
HSAKMT_STATUS HSAKMTAPI hsaKmtUnmapMemoryToGPUCtx(HsaKFDContext *ctx, void *MemoryAddress);

/* hsaKmtMapGraphicHandleCtx() - hsaKmtMapGraphicHandle() on @ctx. */
HSAKMT_STATUS HSAKMTAPI hsaKmtMapGraphicHandleCtx(HsaKFDContext *ctx, HSAuint32 NodeId,
						  HSAuint64 GraphicDeviceHandle,
						  HSAuint64 GraphicResourceHandle,
						  HSAuint64 GraphicResourceOffset,
						  HSAuint64 GraphicResourceSize,
						  HSAuint64 *FlatMemoryAddress);

/* hsaKmtUnmapGraphicHandleCtx() - hsaKmtUnmapGraphicHandle() on @ctx. */
HSAKMT_STATUS HSAKMTAPI hsaKmtUnmapGraphicHandleCtx(HsaKFDContext *ctx, HSAuint32 NodeId,
						    HSAuint64 FlatMemoryAddress,
						    HSAuint64 SizeInBytes);

/* hsaKmtGetAMDGPUDeviceHandleCtx() - hsaKmtGetAMDGPUDeviceHandle() on @ctx. */
HSAKMT_STATUS HSAKMTAPI hsaKmtGetAMDGPUDeviceHandleCtx(HsaKFDContext *ctx, HSAuint32 NodeId,
						       HsaAMDGPUDeviceHandle *DeviceHandle);

/* hsaKmtGetTileConfigCtx() - hsaKmtGetTileConfig() on @ctx. */
HSAKMT_STATUS HSAKMTAPI hsaKmtGetTileConfigCtx(HsaKFDContext *ctx, HSAuint32 NodeId,
					       HsaGpuTileConfig *config);

/* hsaKmtQueryPointerInfoCtx() - hsaKmtQueryPointerInfo() on @ctx. */
HSAKMT_STATUS HSAKMTAPI hsaKmtQueryPointerInfoCtx(HsaKFDContext *ctx, const void *Pointer,
						  HsaPointerInfo *PointerInfo);

/* hsaKmtSetMemoryUserDataCtx() - hsaKmtSetMemoryUserData() on @ctx. */
HSAKMT_STATUS HSAKMTAPI hsaKmtSetMemoryUserDataCtx(HsaKFDContext *ctx, const void *Pointer,
						   void *UserData);

/* hsaKmtReplaceAsanHeaderPageCtx() - hsaKmtReplaceAsanHeaderPage() on @ctx. */
HSAKMT_STATUS HSAKMTAPI hsaKmtReplaceAsanHeaderPageCtx(HsaKFDContext *ctx, void *addr);

/* hsaKmtReturnAsanHeaderPageCtx() - hsaKmtReturnAsanHeaderPage() on @ctx. */
HSAKMT_STATUS HSAKMTAPI hsaKmtReturnAsanHeaderPageCtx(HsaKFDContext *ctx, void *addr);

/* hsaKmtDbgRegisterCtx() - hsaKmtDbgRegister() on @ctx. */
HSAKMT_STATUS HSAKMTAPI hsaKmtDbgRegisterCtx(HsaKFDContext *ctx, HSAuint32 NodeId);

/* hsaKmtDbgUnregisterCtx() - hsaKmtDbgUnregister() on @ctx. */
HSAKMT_STATUS HSAKMTAPI hsaKmtDbgUnregisterCtx(HsaKFDContext *ctx, HSAuint32 NodeId);

/* hsaKmtDbgWavefrontControlCtx() - hsaKmtDbgWavefrontControl() on @ctx. */
HSAKMT_STATUS HSAKMTAPI hsaKmtDbgWavefrontControlCtx(HsaKFDContext *ctx, HSAuint32 NodeId,
						     HSA_DBG_WAVEOP Operand, HSA_DBG_WAVEMODE Mode,
						     HSAuint32 TrapId,
						     HsaDbgWaveMessage *DbgWaveMsgRing);

/* hsaKmtDbgAddressWatchCtx() - hsaKmtDbgAddressWatch() on @ctx. */
HSAKMT_STATUS HSAKMTAPI hsaKmtDbgAddressWatchCtx(HsaKFDContext *ctx, HSAuint32 NodeId,
						 HSAuint32 NumWatchPoints,
						 HSA_DBG_WATCH_MODE WatchMode[],
						 void *WatchAddress[], HSAuint64 WatchMask[],
						 HsaEvent *WatchEvent[]);

/* hsaKmtRuntimeEnableCtx() - hsaKmtRuntimeEnable() on @ctx. */
HSAKMT_STATUS HSAKMTAPI hsaKmtRuntimeEnableCtx(HsaKFDContext *ctx, void *rDebug, bool setupTtmp);

/* hsaKmtRuntimeDisableCtx() - hsaKmtRuntimeDisable() on @ctx. */
HSAKMT_STATUS HSAKMTAPI hsaKmtRuntimeDisableCtx(HsaKFDContext *ctx);

/* hsaKmtGetRuntimeCapabilitiesCtx() - hsaKmtGetRuntimeCapabilities() on @ctx. */
HSAKMT_STATUS HSAKMTAPI hsaKmtGetRuntimeCapabilitiesCtx(HsaKFDContext *ctx, HSAuint32 *caps_mask);

/* hsaKmtGetKernelDebugTrapVersionInfoCtx() - hsaKmtGetKernelDebugTrapVersionInfo() on @ctx. */
HSAKMT_STATUS HSAKMTAPI hsaKmtGetKernelDebugTrapVersionInfoCtx(HsaKFDContext *ctx, HSAuint32 *Major,
							       HSAuint32 *Minor);

/* hsaKmtDbgEnableCtx() - hsaKmtDbgEnable() on @ctx. */
HSAKMT_STATUS HSAKMTAPI hsaKmtDbgEnableCtx(HsaKFDContext *ctx, void **runtime_info,
					   HSAuint32 *data_size);

/* hsaKmtDbgDisableCtx() - hsaKmtDbgDisable() on @ctx. */
HSAKMT_STATUS HSAKMTAPI hsaKmtDbgDisableCtx(HsaKFDContext *ctx);

/* hsaKmtDbgGetDeviceDataCtx() - hsaKmtDbgGetDeviceData() on @ctx. */
HSAKMT_STATUS HSAKMTAPI hsaKmtDbgGetDeviceDataCtx(HsaKFDContext *ctx, void **data,
						  HSAuint32 *n_entries, HSAuint32 *entry_size);

/* hsaKmtDbgGetQueueDataCtx() - hsaKmtDbgGetQueueData() on @ctx. */
HSAKMT_STATUS HSAKMTAPI hsaKmtDbgGetQueueDataCtx(HsaKFDContext *ctx, void **data,
						 HSAuint32 *n_entries, HSAuint32 *entry_size,
						 bool suspend_queues);

/* hsaKmtCheckRuntimeDebugSupportCtx() - hsaKmtCheckRuntimeDebugSupport() on @ctx. */
HSAKMT_STATUS HSAKMTAPI hsaKmtCheckRuntimeDebugSupportCtx(HsaKFDContext *ctx);

/* hsaKmtDebugTrapIoctlCtx() - hsaKmtDebugTrapIoctl() on @ctx. */
HSAKMT_STATUS HSAKMTAPI hsaKmtDebugTrapIoctlCtx(HsaKFDContext *ctx,
						struct kfd_ioctl_dbg_trap_args *arg,
						HSA_QUEUEID *Queues, HSAuint64 *DebugReturn);

/* hsaKmtGetCoreRuntimeInfoCtx() - hsaKmtGetCoreRuntimeInfo() on @ctx. */
HSAKMT_STATUS HSAKMTAPI hsaKmtGetCoreRuntimeInfoCtx(HsaKFDContext *ctx,
						    struct kfd_runtime_info *runtime_info);

/* hsaKmtGetCoreDeviceInfoCtx() - hsaKmtGetCoreDeviceInfo() on @ctx. */
HSAKMT_STATUS HSAKMTAPI hsaKmtGetCoreDeviceInfoCtx(HsaKFDContext *ctx, HSAuint32 gpu_id,
						   struct kfd_dbg_device_info_entry *device_info);

/* hsaKmtGetClockCountersCtx() - hsaKmtGetClockCounters() on @ctx. */
HSAKMT_STATUS HSAKMTAPI hsaKmtGetClockCountersCtx(HsaKFDContext *ctx, HSAuint32 NodeId,
						  HsaClockCounters *Counters);

/* hsaKmtPmcGetCounterPropertiesCtx() - hsaKmtPmcGetCounterProperties() on @ctx. */
HSAKMT_STATUS HSAKMTAPI hsaKmtPmcGetCounterPropertiesCtx(HsaKFDContext *ctx, HSAuint32 NodeId,
							 HsaCounterProperties **CounterProperties);

/* hsaKmtPmcRegisterTraceCtx() - hsaKmtPmcRegisterTrace() on @ctx. */
HSAKMT_STATUS HSAKMTAPI hsaKmtPmcRegisterTraceCtx(HsaKFDContext *ctx, HSAuint32 NodeId,
						  HSAuint32 NumberOfCounters, HsaCounter *Counters,
						  HsaPmcTraceRoot *TraceRoot);

/* hsaKmtPmcUnregisterTraceCtx() - hsaKmtPmcUnregisterTrace() on @ctx. */
HSAKMT_STATUS HSAKMTAPI hsaKmtPmcUnregisterTraceCtx(HsaKFDContext *ctx, HSAuint32 NodeId,
						    HSATraceId TraceId);

/* hsaKmtPmcAcquireTraceAccessCtx() - hsaKmtPmcAcquireTraceAccess() on @ctx. */
HSAKMT_STATUS HSAKMTAPI hsaKmtPmcAcquireTraceAccessCtx(HsaKFDContext *ctx, HSAuint32 NodeId,
						       HSATraceId TraceId);

/* hsaKmtPmcReleaseTraceAccessCtx() - hsaKmtPmcReleaseTraceAccess() on @ctx. */
HSAKMT_STATUS HSAKMTAPI hsaKmtPmcReleaseTraceAccessCtx(HsaKFDContext *ctx, HSAuint32 NodeId,
						       HSATraceId TraceId);

/* hsaKmtPmcStartTraceCtx() - hsaKmtPmcStartTrace() on @ctx. */
HSAKMT_STATUS HSAKMTAPI hsaKmtPmcStartTraceCtx(HsaKFDContext *ctx, HSATraceId TraceId,
					       void *TraceBuffer, HSAuint64 TraceBufferSizeBytes);

/* hsaKmtPmcQueryTraceCtx() - hsaKmtPmcQueryTrace() on @ctx. */
HSAKMT_STATUS HSAKMTAPI hsaKmtPmcQueryTraceCtx(HsaKFDContext *ctx, HSATraceId TraceId);

/* hsaKmtPmcStopTraceCtx() - hsaKmtPmcStopTrace() on @ctx. */
HSAKMT_STATUS HSAKMTAPI hsaKmtPmcStopTraceCtx(HsaKFDContext *ctx, HSATraceId TraceId);

/* hsaKmtSPMAcquireCtx() - hsaKmtSPMAcquire() on @ctx. */
HSAKMT_STATUS HSAKMTAPI hsaKmtSPMAcquireCtx(HsaKFDContext *ctx, HSAuint32 PreferredNode);

/* hsaKmtSPMReleaseCtx() - hsaKmtSPMRelease() on @ctx. */
HSAKMT_STATUS HSAKMTAPI hsaKmtSPMReleaseCtx(HsaKFDContext *ctx, HSAuint32 PreferredNode);

/* hsaKmtSPMSetDestBufferCtx() - hsaKmtSPMSetDestBuffer() on @ctx. */
HSAKMT_STATUS HSAKMTAPI hsaKmtSPMSetDestBufferCtx(HsaKFDContext *ctx, HSAuint32 PreferredNode,
						  HSAuint32 SizeInBytes, HSAuint32 *timeout,
						  HSAuint32 *SizeCopied, void *DestMemoryAddress,
						  bool *isSPMDataLoss);

/* hsaKmtPcSamplingSupportCtx() - hsaKmtPcSamplingSupport() on @ctx. */
HSAKMT_STATUS HSAKMTAPI hsaKmtPcSamplingSupportCtx(HsaKFDContext *ctx);

/* hsaKmtPcSamplingQueryCapabilitiesCtx() - hsaKmtPcSamplingQueryCapabilities() on @ctx. */
HSAKMT_STATUS HSAKMTAPI hsaKmtPcSamplingQueryCapabilitiesCtx(HsaKFDContext *ctx, HSAuint32 NodeId,
							     void *sample_info,
							     HSAuint32 sample_info_sz,
							     HSAuint32 *sz_needed);

/* hsaKmtPcSamplingCreateCtx() - hsaKmtPcSamplingCreate() on @ctx. */
HSAKMT_STATUS HSAKMTAPI hsaKmtPcSamplingCreateCtx(HsaKFDContext *ctx, HSAuint32 node_id,
						  HsaPcSamplingInfo *sample_info,
						  HsaPcSamplingTraceId *traceId);

/* hsaKmtPcSamplingDestroyCtx() - hsaKmtPcSamplingDestroy() on @ctx. */
HSAKMT_STATUS HSAKMTAPI hsaKmtPcSamplingDestroyCtx(HsaKFDContext *ctx, HSAuint32 NodeId,
						   HsaPcSamplingTraceId traceId);

/* hsaKmtPcSamplingStartCtx() - hsaKmtPcSamplingStart() on @ctx. */
HSAKMT_STATUS HSAKMTAPI hsaKmtPcSamplingStartCtx(HsaKFDContext *ctx, HSAuint32 NodeId,
						 HsaPcSamplingTraceId traceId);

/* hsaKmtPcSamplingStopCtx() - hsaKmtPcSamplingStop() on @ctx. */
HSAKMT_STATUS HSAKMTAPI hsaKmtPcSamplingStopCtx(HsaKFDContext *ctx, HSAuint32 NodeId,
						HsaPcSamplingTraceId traceId);

/* hsaKmtSVMSetAttrCtx() - hsaKmtSVMSetAttr() on @ctx. */
HSAKMT_STATUS HSAKMTAPI hsaKmtSVMSetAttrCtx(HsaKFDContext *ctx, void *start_addr, HSAuint64 size,
					    unsigned int nattr, HSA_SVM_ATTRIBUTE *attrs);

/* hsaKmtSVMGetAttrCtx() - hsaKmtSVMGetAttr() on @ctx. */
HSAKMT_STATUS HSAKMTAPI hsaKmtSVMGetAttrCtx(HsaKFDContext *ctx, void *start_addr, HSAuint64 size,
					    unsigned int nattr, HSA_SVM_ATTRIBUTE *attrs);

/* hsaKmtSetXNACKModeCtx() - hsaKmtSetXNACKMode() on @ctx. */
HSAKMT_STATUS HSAKMTAPI hsaKmtSetXNACKModeCtx(HsaKFDContext *ctx, HSAint32 enable);

/* hsaKmtGetXNACKModeCtx() - hsaKmtGetXNACKMode() on @ctx. */
HSAKMT_STATUS HSAKMTAPI hsaKmtGetXNACKModeCtx(HsaKFDContext *ctx, HSAint32 *enable);

/*
 * The handle API on @ctx: hsaKmtMemoryVaMap()/Unmap() use @ctx's render
 * file of @NodeId; the others only need @ctx open (the device or buffer
 * handle names the file).
 */
HSAKMT_STATUS HSAKMTAPI hsaKmtHandleImportCtx(HsaKFDContext *ctx,
					     const HsaHandleImportDesc *ImportDesc,
					     HsaHandleImportResult *ImportResult,
					     HsaHandleImportFlags *Flags);
HSAKMT_STATUS HSAKMTAPI hsaKmtMemoryVaMapCtx(HsaKFDContext *ctx, HsaMemoryObjectHandle Handle,
					    HSAuint64 offset, HSAuint64 size, HSAuint64 addr,
					    HsaMemoryMapFlags flags, HSAuint32 NodeId);
HSAKMT_STATUS HSAKMTAPI hsaKmtMemoryVaUnmapCtx(HsaKFDContext *ctx, HsaMemoryObjectHandle Handle,
					      HSAuint64 offset, HSAuint64 size, HSAuint64 addr,
					      HSAuint32 NodeId);
HSAKMT_STATUS HSAKMTAPI hsaKmtMemHandleFreeCtx(HsaKFDContext *ctx, HsaMemoryObjectHandle Handle);
HSAKMT_STATUS HSAKMTAPI hsaKmtMemoryCpuMapCtx(HsaKFDContext *ctx, HsaMemoryObjectHandle Handle,
					     void **out_cpu_ptr);
HSAKMT_STATUS HSAKMTAPI hsaKmtMemoryGetCpuAddrCtx(HsaKFDContext *ctx,
						 HsaAMDGPUDeviceHandle DeviceHandle,
						 HsaMemoryObjectHandle MemoryHandle,
						 HSAuint64 *cpu_addr);

/* hsaKmtAisReadWriteFileCtx() - hsaKmtAisReadWriteFile() on @ctx. */
HSAKMT_STATUS HSAKMTAPI hsaKmtAisReadWriteFileCtx(HsaKFDContext *ctx, void *MemoryAddress,
						 HSAuint64 MemorySizeInBytes, HSAint32 fd,
						 HSAint64 file_offset, HsaAisFlags AisFlags,
						 HSAuint64 *SizeCopiedInBytes, HSAint32 *status);

/* hsaKmtSetSigbusDelayCtx() - hsaKmtSetSigbusDelay() on @ctx. */
HSAKMT_STATUS HSAKMTAPI hsaKmtSetSigbusDelayCtx(HsaKFDContext *ctx, HSAuint32 NodeId,
					       HSAuint32 DelayMs);

/* The external-semaphore pair on @ctx: NOT_SUPPORTED, as without one. */
HSAKMT_STATUS HSAKMTAPI hsaKmtImportExternalSemaphoreCtx(HsaKFDContext *ctx, HSAuint32 NodeId,
							void *NtHandle,
							HSA_EXTERNAL_SEMAPHORE_HANDLE_TYPE Type,
							HSA_EXTERNAL_SEMAPHORE_HANDLE *OutHandle);
HSAKMT_STATUS HSAKMTAPI hsaKmtDestroyExternalSemaphoreCtx(HsaKFDContext *ctx,
							 HSA_EXTERNAL_SEMAPHORE_HANDLE Handle);

#ifdef __cplusplus
}
#endif

#endif /* HSAKMT_HSAKMTCTX_H */

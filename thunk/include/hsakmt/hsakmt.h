/* SPDX-License-Identifier: MIT */
/*
 * hsakmt.h - the libhsakmt API: user-mode access to AMD's KFD (/dev/kfd).
 *
 * kfdtrace's own implementation of the interface ROCr and rocminfo link
 * against (SONAME libhsakmt.so.1, symbol version HSAKMT_1). Every function
 * acts on the primary KFD context, the one hsaKmtOpenKFD() opens; each has
 * a twin taking an explicit context in hsakmtctx.h, which holds the logic.
 *
 * Common rules:
 *  - Every call except hsaKmtOpenKFD() returns
 *    HSAKMT_STATUS_KERNEL_IO_CHANNEL_NOT_OPENED while the library is not
 *    open, and in a forked child until the child calls hsaKmtOpenKFD().
 *  - NodeId is a user node id: 0 .. NumNodes-1 of the topology snapshot,
 *    CPU nodes first, numbered densely (nodes the process may not use are
 *    left out).
 *  - A NULL output pointer gives HSAKMT_STATUS_INVALID_PARAMETER.
 *  - Kernel errors the API has no finer status for give HSAKMT_STATUS_ERROR,
 *    as AMD's library does; see docs/thunk.md for the exact mappings.
 *  - Setting HSAKMT_DEBUG_LEVEL (3 errors .. 7 debug) prints diagnostics
 *    to stderr.
 */
#ifndef HSAKMT_HSAKMT_H
#define HSAKMT_HSAKMT_H

#include "hsakmttypes.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------ */
/* Opening, version                                                   */
/* ------------------------------------------------------------------ */

/*
 * hsaKmtOpenKFD() - open /dev/kfd for this process.
 *
 * The first call opens the device, checks the interface version (major 1),
 * reads the topology and sets up the GPU address apertures; later calls
 * only count. In a forked child it drops everything inherited from the
 * parent and opens afresh.
 *
 * Return: SUCCESS on the first open, KERNEL_ALREADY_OPENED on later ones,
 * KERNEL_IO_CHANNEL_NOT_OPENED if /dev/kfd cannot be opened,
 * DRIVER_MISMATCH for an unsupported interface version, ERROR otherwise.
 */
HSAKMT_STATUS HSAKMTAPI hsaKmtOpenKFD(void);

/*
 * hsaKmtCloseKFD() - drop one reference taken by hsaKmtOpenKFD(); the last
 * one releases every queue, event, allocation and the device file.
 */
HSAKMT_STATUS HSAKMTAPI hsaKmtCloseKFD(void);

/*
 * hsaKmtGetVersion() - the KFD ioctl interface version read at open.
 * @VersionInfo: out.
 */
HSAKMT_STATUS HSAKMTAPI hsaKmtGetVersion(HsaVersionInfo *VersionInfo);

/* ------------------------------------------------------------------ */
/* Topology                                                           */
/* ------------------------------------------------------------------ */

/*
 * hsaKmtAcquireSystemProperties() - take a snapshot of the topology
 * (sysfs), retrying while the kernel's generation counter moves, and
 * report its size. The node queries below read this snapshot.
 * @SystemProperties: out.
 */
HSAKMT_STATUS HSAKMTAPI hsaKmtAcquireSystemProperties(HsaSystemProperties *SystemProperties);

/*
 * hsaKmtReleaseSystemProperties() - forget the snapshot. The node queries
 * fail with INVALID_NODE_UNIT until the next acquire.
 */
HSAKMT_STATUS HSAKMTAPI hsaKmtReleaseSystemProperties(void);

/*
 * hsaKmtGetNodeProperties() - the properties of one node.
 * @NodeId: user node id.
 * @NodeProperties: out. NumMemoryBanks includes the synthetic banks
 *	(LDS, scratch, SVM and, where mapped, MMIO) of GPU nodes; NumIOLinks
 *	counts io_links and p2p_links.
 *
 * Return: INVALID_NODE_UNIT for an unknown node or without a snapshot.
 */
HSAKMT_STATUS HSAKMTAPI hsaKmtGetNodeProperties(HSAuint32 NodeId, HsaNodeProperties *NodeProperties);

/*
 * hsaKmtGetNodeMemoryProperties() - the memory banks of a node.
 * @NumBanks: entries of @MemoryProperties; at most NumMemoryBanks are
 *	written. GPU nodes list their sysfs banks, then LDS, scratch, SVM
 *	(and MMIO) with the aperture base in VirtualBaseAddress.
 */
HSAKMT_STATUS HSAKMTAPI hsaKmtGetNodeMemoryProperties(HSAuint32 NodeId, HSAuint32 NumBanks,
						     HsaMemoryProperties *MemoryProperties);

/*
 * hsaKmtGetNodeCacheProperties() - the caches of a node.
 * @ProcessorId: ignored (all caches of the node are returned).
 * @NumCaches: entries of @CacheProperties; at most NumCaches of the node.
 * CPU nodes without caches in sysfs get the CPU caches of
 * /sys/devices/system/cpu.
 */
HSAKMT_STATUS HSAKMTAPI hsaKmtGetNodeCacheProperties(HSAuint32 NodeId, HSAuint32 ProcessorId,
						    HSAuint32 NumCaches, HsaCacheProperties *CacheProperties);

/*
 * hsaKmtGetNodeIoLinkProperties() - the IO links leaving a node
 * (io_links first, then p2p_links), with user node ids.
 * @NumIoLinks: entries of @IoLinkProperties.
 */
HSAKMT_STATUS HSAKMTAPI hsaKmtGetNodeIoLinkProperties(HSAuint32 NodeId, HSAuint32 NumIoLinks,
						     HsaIoLinkProperties *IoLinkProperties);

/*
 * hsaKmtGetNodeWallclockFrequency() - frequency in Hz of the GPU's
 * wallclock counter (the one shaders read with s_memrealtime).
 * @Frequency: out.
 */
HSAKMT_STATUS HSAKMTAPI hsaKmtGetNodeWallclockFrequency(HSAuint32 NodeId, uint64_t *Frequency);

/* ------------------------------------------------------------------ */
/* Events                                                             */
/* ------------------------------------------------------------------ */

/*
 * hsaKmtCreateEvent() - create a KFD event.
 * @EventDesc: type and node; signal events get a slot in the events page.
 * @ManualReset: false = the event resets itself when a wait consumes it.
 * @IsSignaled: create it signaled.
 * @Event: out, freed by hsaKmtDestroyEvent().
 */
HSAKMT_STATUS HSAKMTAPI hsaKmtCreateEvent(HsaEventDescriptor *EventDesc, bool ManualReset,
					 bool IsSignaled, HsaEvent **Event);

/* hsaKmtDestroyEvent() - destroy an event; waiters fail. */
HSAKMT_STATUS HSAKMTAPI hsaKmtDestroyEvent(HsaEvent *Event);

/* hsaKmtSetEvent() - signal an event. */
HSAKMT_STATUS HSAKMTAPI hsaKmtSetEvent(HsaEvent *Event);

/* hsaKmtResetEvent() - clear an event's signaled state. */
HSAKMT_STATUS HSAKMTAPI hsaKmtResetEvent(HsaEvent *Event);

/* hsaKmtQueryEventState() - not implemented by the KFD; reports SUCCESS. */
HSAKMT_STATUS HSAKMTAPI hsaKmtQueryEventState(HsaEvent *Event);

/*
 * hsaKmtWaitOnEvent() - wait until @Event is signaled.
 * @Milliseconds: timeout; 0 polls, HSA_EVENTTIMEOUT_INFINITE waits forever.
 * Return: SUCCESS, WAIT_TIMEOUT, or WAIT_FAILURE.
 */
HSAKMT_STATUS HSAKMTAPI hsaKmtWaitOnEvent(HsaEvent *Event, HSAuint32 Milliseconds);

/*
 * hsaKmtWaitOnEvent_Ext() - hsaKmtWaitOnEvent() with event-age tracking
 * (KFD 1.14): a signal that happened after the age in *@event_age counts,
 * even if it was reset since. *@event_age is updated.
 */
HSAKMT_STATUS HSAKMTAPI hsaKmtWaitOnEvent_Ext(HsaEvent *Event, HSAuint32 Milliseconds,
					     uint64_t *event_age);

/*
 * hsaKmtWaitOnMultipleEvents() - wait for all (@WaitOnAll) or any of
 * @NumEvents events. Return as hsaKmtWaitOnEvent().
 */
HSAKMT_STATUS HSAKMTAPI hsaKmtWaitOnMultipleEvents(HsaEvent *Events[], HSAuint32 NumEvents,
						  bool WaitOnAll, HSAuint32 Milliseconds);

/*
 * hsaKmtWaitOnMultipleEvents_Ext() - hsaKmtWaitOnMultipleEvents() with one
 * event age per event in @event_age[NumEvents].
 */
HSAKMT_STATUS HSAKMTAPI hsaKmtWaitOnMultipleEvents_Ext(HsaEvent *Events[], HSAuint32 NumEvents,
						      bool WaitOnAll, HSAuint32 Milliseconds,
						      uint64_t *event_age);

/*
 * hsaKmtOpenSMI() - open the kernel's System Management Interface event
 * stream of a GPU. Write a 64-bit HSA_SMI_EVENT_MASK_FROM_INDEX() mask to
 * *@fd, then poll and read text records from it.
 */
HSAKMT_STATUS HSAKMTAPI hsaKmtOpenSMI(HSAuint32 NodeId, int *fd);

/* ------------------------------------------------------------------ */
/* Queues                                                             */
/* ------------------------------------------------------------------ */

/* hsaKmtReportQueue() - declared for source compatibility; not exported. */
HSAKMT_STATUS HSAKMTAPI hsaKmtReportQueue(HSA_QUEUEID QueueId, HsaQueueReport *QueueReport);

/*
 * hsaKmtCreateQueue() - create a user-mode queue on a GPU.
 * @Type: compute (PM4), AQL compute, SDMA or XGMI SDMA.
 * @QueuePercentage: share of the GPU, 0..100.
 * @QueueAddress: ring buffer, GPU-mapped; @QueueSizeInBytes its size.
 * @Event: optional event signaled by the queue.
 * @QueueResource: in: write/read pointer addresses; out: queue id and
 *	doorbell address.
 */
HSAKMT_STATUS HSAKMTAPI hsaKmtCreateQueue(HSAuint32 NodeId, HSA_QUEUE_TYPE Type,
					 HSAuint32 QueuePercentage, HSA_QUEUE_PRIORITY Priority,
					 void *QueueAddress, HSAuint64 QueueSizeInBytes,
					 HsaEvent *Event, HsaQueueResource *QueueResource);

/*
 * hsaKmtCreateQueueExt() - hsaKmtCreateQueue() on a chosen SDMA engine
 * (@SdmaEngineId; KFD 1.17 SDMA_BY_ENG_ID).
 */
HSAKMT_STATUS HSAKMTAPI hsaKmtCreateQueueExt(HSAuint32 NodeId, HSA_QUEUE_TYPE Type,
					    HSAuint32 QueuePercentage, HSA_QUEUE_PRIORITY Priority,
					    HSAuint32 SdmaEngineId, void *QueueAddress,
					    HSAuint64 QueueSizeInBytes, HsaEvent *Event,
					    HsaQueueResource *QueueResource);

/*
 * hsaKmtUpdateQueue() - change a queue's share, priority or ring; a NULL
 * ring or size 0 deactivates it.
 */
HSAKMT_STATUS HSAKMTAPI hsaKmtUpdateQueue(HSA_QUEUEID QueueId, HSAuint32 QueuePercentage,
					 HSA_QUEUE_PRIORITY Priority, void *QueueAddress,
					 HSAuint64 QueueSize, HsaEvent *Event);

/* hsaKmtDestroyQueue() - destroy a queue and free its private buffers. */
HSAKMT_STATUS HSAKMTAPI hsaKmtDestroyQueue(HSA_QUEUEID QueueId);

/*
 * hsaKmtSetQueueCUMask() - restrict a queue to some compute units.
 * @CUMaskCount: bits in @QueueCUMask, a multiple of 32.
 */
HSAKMT_STATUS HSAKMTAPI hsaKmtSetQueueCUMask(HSA_QUEUEID QueueId, HSAuint32 CUMaskCount,
					    HSAuint32 *QueueCUMask);

/* hsaKmtGetQueueInfo() - CU mask and context save area of a queue. */
HSAKMT_STATUS HSAKMTAPI hsaKmtGetQueueInfo(HSA_QUEUEID QueueId, HsaQueueInfo *QueueInfo);

/*
 * hsaKmtGetKernelQueueId() - the queue id the kernel uses for @QueueId
 * (what debugger snapshots report).
 */
HSAKMT_STATUS HSAKMTAPI hsaKmtGetKernelQueueId(HSA_QUEUEID QueueId, HSAuint32 *KernelInternalQueueId);

/*
 * hsaKmtAllocQueueGWS() - give a queue @nGWS global wave sync entries
 * (0 releases them). @firstGWS: out, the first entry.
 */
HSAKMT_STATUS HSAKMTAPI hsaKmtAllocQueueGWS(HSA_QUEUEID QueueId, HSAuint32 nGWS, HSAuint32 *firstGWS);

/*
 * hsaKmtSetTrapHandler() - install the second-level trap handler
 * (@TrapHandlerBaseAddress, code) and its buffer for every queue of
 * the process on a GPU.
 */
HSAKMT_STATUS HSAKMTAPI hsaKmtSetTrapHandler(HSAuint32 NodeId, void *TrapHandlerBaseAddress,
					    HSAuint64 TrapHandlerSizeInBytes,
					    void *TrapBufferBaseAddress,
					    HSAuint64 TrapBufferSizeInBytes);

/* ------------------------------------------------------------------ */
/* Memory                                                             */
/* ------------------------------------------------------------------ */

/*
 * hsaKmtSetMemoryPolicy() - default and alternate cache policy
 * (HSA_CACHING_*) of a GPU, and the alternate aperture.
 */
HSAKMT_STATUS HSAKMTAPI hsaKmtSetMemoryPolicy(HSAuint32 Node, HSAuint32 DefaultPolicy,
					     HSAuint32 AlternatePolicy,
					     void *MemoryAddressAlternate,
					     HSAuint64 MemorySizeInBytes);

/*
 * hsaKmtAllocMemory() - allocate memory the GPUs can use.
 * @PreferredNode: a GPU node for device memory (VRAM), any node for
 *	system memory (HostAccess on a CPU node, or NonPaged system memory).
 * @SizeInBytes: a multiple of the page size.
 * @MemFlags: see HsaMemFlags; Scratch reserves scratch backing, the
 *	newer HSA_MEMFLAG_NO_ADDRESS/ONLY_ADDRESS bits allocate without a VA
 *	or only a VA.
 * @MemoryAddress: out, the CPU/GPU address (in with FixedAddress).
 *
 * The memory is not GPU-mapped yet: see hsaKmtMapMemoryToGPU().
 * Return: INVALID_PARAMETER for a zero size, NO_MEMORY when the kernel or
 * the address space is full, INVALID_NODE_UNIT for a bad node.
 */
HSAKMT_STATUS HSAKMTAPI hsaKmtAllocMemory(HSAuint32 PreferredNode, HSAuint64 SizeInBytes,
					 HsaMemFlags MemFlags, void **MemoryAddress);

/*
 * hsaKmtAllocMemoryAlign() - hsaKmtAllocMemory() with the VA aligned to
 * @Alignment (a power of two, at least a page; 0 = the default).
 */
HSAKMT_STATUS HSAKMTAPI hsaKmtAllocMemoryAlign(HSAuint32 PreferredNode, HSAuint64 SizeInBytes,
					      HSAuint64 Alignment, HsaMemFlags MemFlags,
					      void **MemoryAddress);

/*
 * hsaKmtFreeMemory() - free an allocation (unmapping it from every GPU).
 * @SizeInBytes: its size, as allocated.
 */
HSAKMT_STATUS HSAKMTAPI hsaKmtFreeMemory(void *MemoryAddress, HSAuint64 SizeInBytes);

/*
 * hsaKmtAvailableMemory() - VRAM the process can still allocate on a GPU.
 * @AvailableBytes: out.
 */
HSAKMT_STATUS HSAKMTAPI hsaKmtAvailableMemory(HSAuint32 Node, HSAuint64 *AvailableBytes);

/*
 * hsaKmtRegisterMemory() - make ordinary process memory (malloc, mmap)
 * usable by all GPUs (a KFD userptr BO). Need not be page-aligned.
 */
HSAKMT_STATUS HSAKMTAPI hsaKmtRegisterMemory(void *MemoryAddress, HSAuint64 MemorySizeInBytes);

/* hsaKmtRegisterMemoryToNodes() - hsaKmtRegisterMemory() for @NodeArray only. */
HSAKMT_STATUS HSAKMTAPI hsaKmtRegisterMemoryToNodes(void *MemoryAddress, HSAuint64 MemorySizeInBytes,
						   HSAuint64 NumberOfNodes, HSAuint32 *NodeArray);

/*
 * hsaKmtRegisterMemoryWithFlags() - hsaKmtRegisterMemory() with
 * attributes (coherence, read-only) from @MemFlags.
 */
HSAKMT_STATUS HSAKMTAPI hsaKmtRegisterMemoryWithFlags(void *MemoryAddress, HSAuint64 MemorySizeInBytes,
						     HsaMemFlags MemFlags);

/*
 * hsaKmtRegisterMemoryRangesWithFlags() - register scattered CPU ranges
 * (@MemoryRanges, @NumberOfRanges entries) as one GPU range known by
 * @MemoryAddress, with hsaKmtRegisterMemoryWithFlags()'s attributes.
 * Return: INVALID_PARAMETER for a NULL address or list, an empty list or
 * range, or ExtendedCoherent with CoarseGrain; otherwise NOT_SUPPORTED:
 * it needs a multi-range USERPTR BO no kernel has (a proposal only).
 */
HSAKMT_STATUS HSAKMTAPI hsaKmtRegisterMemoryRangesWithFlags(void *MemoryAddress,
							   HsaMemoryRange *MemoryRanges,
							   HSAuint64 NumberOfRanges,
							   HsaMemFlags MemFlags);

/*
 * hsaKmtRegisterGraphicsHandleToNodes() - import a graphics buffer
 * (a dma-buf fd in @GraphicsResourceHandle) for @NodeArray. The fd may be
 * closed after the call.
 * @GraphicsResourceInfo: out: GPU address, size, metadata (owned by the
 *	library until deregistration).
 */
HSAKMT_STATUS HSAKMTAPI hsaKmtRegisterGraphicsHandleToNodes(HSAuint64 GraphicsResourceHandle,
							   HsaGraphicsResourceInfo *GraphicsResourceInfo,
							   HSAuint64 NumberOfNodes,
							   HSAuint32 *NodeArray);

/*
 * hsaKmtRegisterGraphicsHandleToNodesExt() - the same with options:
 * without @RegisterFlags.ui32.requiresVAddr the buffer gets a handle but
 * no GPU address of its own.
 */
HSAKMT_STATUS HSAKMTAPI hsaKmtRegisterGraphicsHandleToNodesExt(HSAuint64 GraphicsResourceHandle,
							      HsaGraphicsResourceInfo *GraphicsResourceInfo,
							      HSAuint64 NumberOfNodes,
							      HSAuint32 *NodeArray,
							      HSA_REGISTER_MEM_FLAGS RegisterFlags);

/*
 * hsaKmtExportDMABufHandle() - export the allocation containing
 * @MemoryAddress as a dma-buf (KFD 1.12).
 * @MemorySizeInBytes: must not run past the allocation's end.
 * @DMABufFd: out, a new fd the caller closes.
 * @Offset: out, @MemoryAddress's offset inside the allocation.
 */
HSAKMT_STATUS HSAKMTAPI hsaKmtExportDMABufHandle(void *MemoryAddress, HSAuint64 MemorySizeInBytes,
						int *DMABufFd, HSAuint64 *Offset);

/*
 * hsaKmtShareMemory() - make an allocation shareable with another process
 * (ROCm-only IPC ioctl). @SizeInBytes must be the whole allocation.
 * Return: ERROR on kernels without the IPC ioctls (upstream Linux).
 */
HSAKMT_STATUS HSAKMTAPI hsaKmtShareMemory(void *MemoryAddress, HSAuint64 SizeInBytes,
					 HsaSharedMemoryHandle *SharedMemoryHandle);

/*
 * hsaKmtRegisterSharedHandle() - import memory shared by another process.
 * @MemoryAddress, @SizeInBytes: out.
 */
HSAKMT_STATUS HSAKMTAPI hsaKmtRegisterSharedHandle(const HsaSharedMemoryHandle *SharedMemoryHandle,
						  void **MemoryAddress, HSAuint64 *SizeInBytes);

/* hsaKmtRegisterSharedHandleToNodes() - the same, for @NodeArray only. */
HSAKMT_STATUS HSAKMTAPI hsaKmtRegisterSharedHandleToNodes(const HsaSharedMemoryHandle *SharedMemoryHandle,
							 void **MemoryAddress, HSAuint64 *SizeInBytes,
							 HSAuint64 NumberOfNodes, HSAuint32 *NodeArray);

/*
 * hsaKmtProcessVMRead() - copy from another process's GPU memory
 * (ROCm-only CROSS_MEMORY_COPY ioctl). @SizeCopied: out, bytes done.
 * Return: ERROR on kernels without that ioctl.
 */
HSAKMT_STATUS HSAKMTAPI hsaKmtProcessVMRead(HSAuint32 Pid, HsaMemoryRange *LocalMemoryArray,
					   HSAuint64 LocalMemoryArrayCount,
					   HsaMemoryRange *RemoteMemoryArray,
					   HSAuint64 RemoteMemoryArrayCount, HSAuint64 *SizeCopied);

/* hsaKmtProcessVMWrite() - the reverse of hsaKmtProcessVMRead(). */
HSAKMT_STATUS HSAKMTAPI hsaKmtProcessVMWrite(HSAuint32 Pid, HsaMemoryRange *LocalMemoryArray,
					    HSAuint64 LocalMemoryArrayCount,
					    HsaMemoryRange *RemoteMemoryArray,
					    HSAuint64 RemoteMemoryArrayCount, HSAuint64 *SizeCopied);

/*
 * hsaKmtDeregisterMemory() - undo a registration (user memory, graphics
 * or shared handle). On an allocation it only drops the registration
 * node list.
 */
HSAKMT_STATUS HSAKMTAPI hsaKmtDeregisterMemory(void *MemoryAddress);

/*
 * hsaKmtMapMemoryToGPU() - map an allocation or registration on the GPUs
 * it belongs to. @AlternateVAGPU: out, the GPU address (for user memory
 * it differs from the CPU address).
 */
HSAKMT_STATUS HSAKMTAPI hsaKmtMapMemoryToGPU(void *MemoryAddress, HSAuint64 MemorySizeInBytes,
					    HSAuint64 *AlternateVAGPU);

/*
 * hsaKmtMapMemoryToGPUNodes() - map on exactly the GPUs in @NodeArray;
 * GPUs it was mapped on before but are not listed are unmapped.
 */
HSAKMT_STATUS HSAKMTAPI hsaKmtMapMemoryToGPUNodes(void *MemoryAddress, HSAuint64 MemorySizeInBytes,
						 HSAuint64 *AlternateVAGPU, HsaMemMapFlags MemMapFlags,
						 HSAuint64 NumberOfNodes, HSAuint32 *NodeArray);

/* hsaKmtUnmapMemoryToGPU() - unmap from every GPU. */
HSAKMT_STATUS HSAKMTAPI hsaKmtUnmapMemoryToGPU(void *MemoryAddress);

/*
 * hsaKmtMapGraphicHandle() - obsolete interop call; always
 * NOT_IMPLEMENTED, as in AMD's library.
 */
HSAKMT_STATUS HSAKMTAPI hsaKmtMapGraphicHandle(HSAuint32 NodeId, HSAuint64 GraphicDeviceHandle,
					      HSAuint64 GraphicResourceHandle,
					      HSAuint64 GraphicResourceOffset,
					      HSAuint64 GraphicResourceSize,
					      HSAuint64 *FlatMemoryAddress);

/* hsaKmtUnmapGraphicHandle() - counterpart of the above; deregisters @FlatMemoryAddress. */
HSAKMT_STATUS HSAKMTAPI hsaKmtUnmapGraphicHandle(HSAuint32 NodeId, HSAuint64 FlatMemoryAddress,
						HSAuint64 SizeInBytes);

/*
 * hsaKmtGetAMDGPUDeviceHandle() - the libdrm amdgpu_device_handle this
 * library uses for a GPU node.
 */
HSAKMT_STATUS HSAKMTAPI hsaKmtGetAMDGPUDeviceHandle(HSAuint32 NodeId, HsaAMDGPUDeviceHandle *DeviceHandle);

/* hsaKmtGetTileConfig() - tiling configuration of a GPU (in/out @config). */
HSAKMT_STATUS HSAKMTAPI hsaKmtGetTileConfig(HSAuint32 NodeId, HsaGpuTileConfig *config);

/*
 * hsaKmtQueryPointerInfo() - what the library knows about the memory
 * containing @Pointer (any address inside an allocation or registration).
 * @PointerInfo: out; Type is HSA_POINTER_UNKNOWN for unknown memory, and
 *	the call then returns ERROR. The node arrays stay valid until the
 *	memory is freed or its mapping changes.
 */
HSAKMT_STATUS HSAKMTAPI hsaKmtQueryPointerInfo(const void *Pointer, HsaPointerInfo *PointerInfo);

/*
 * hsaKmtSetMemoryUserData() - attach @UserData to the allocation or
 * registration containing @Pointer; hsaKmtQueryPointerInfo() returns it.
 */
HSAKMT_STATUS HSAKMTAPI hsaKmtSetMemoryUserData(const void *Pointer, void *UserData);

/*
 * hsaKmtReplaceAsanHeaderPage() / hsaKmtReturnAsanHeaderPage() - address
 * sanitizer support; NOT_SUPPORTED in a build without ASAN, as this one.
 */
HSAKMT_STATUS HSAKMTAPI hsaKmtReplaceAsanHeaderPage(void *addr);
HSAKMT_STATUS HSAKMTAPI hsaKmtReturnAsanHeaderPage(void *addr);

/* ------------------------------------------------------------------ */
/* Debugger                                                           */
/* ------------------------------------------------------------------ */

/*
 * hsaKmtDbgRegister(), hsaKmtDbgUnregister(), hsaKmtDbgWavefrontControl(),
 * hsaKmtDbgAddressWatch() - the pre-1.13 debugger interface. Kernels
 * answer these ioctls with EPERM; the calls then fail with ERROR.
 */
HSAKMT_STATUS HSAKMTAPI hsaKmtDbgRegister(HSAuint32 NodeId);
HSAKMT_STATUS HSAKMTAPI hsaKmtDbgUnregister(HSAuint32 NodeId);
HSAKMT_STATUS HSAKMTAPI hsaKmtDbgWavefrontControl(HSAuint32 NodeId, HSA_DBG_WAVEOP Operand,
						 HSA_DBG_WAVEMODE Mode, HSAuint32 TrapId,
						 HsaDbgWaveMessage *DbgWaveMsgRing);
HSAKMT_STATUS HSAKMTAPI hsaKmtDbgAddressWatch(HSAuint32 NodeId, HSAuint32 NumWatchPoints,
					     HSA_DBG_WATCH_MODE WatchMode[], void *WatchAddress[],
					     HSAuint64 WatchMask[], HsaEvent *WatchEvent[]);

/*
 * hsaKmtRuntimeEnable() - tell the kernel the HSA runtime is up
 * (@rDebug: its r_debug, for debuggers; @setupTtmp: let the trap handler
 * set up trap temporaries). Must come before any queue. On KFD 1.13 and
 * later it is RUNTIME_ENABLE, which blocks while an attached debugger has
 * not answered the runtime event; on older kernels ROCm 5.x's DBG_TRAP.
 * Return: NOT_SUPPORTED where the kernel or a GPU's firmware lacks the
 * interface (ROCr accepts that), UNAVAILABLE if already enabled, ERROR
 * otherwise (queues exist, for one).
 */
HSAKMT_STATUS HSAKMTAPI hsaKmtRuntimeEnable(void *rDebug, bool setupTtmp);

/*
 * hsaKmtRuntimeDisable() - undo hsaKmtRuntimeEnable(), on the same
 * interface; blocks like it while a debugger is attached.
 */
HSAKMT_STATUS HSAKMTAPI hsaKmtRuntimeDisable(void);

/* hsaKmtGetRuntimeCapabilities() - capability bits RuntimeEnable reported. */
HSAKMT_STATUS HSAKMTAPI hsaKmtGetRuntimeCapabilities(HSAuint32 *caps_mask);

/*
 * hsaKmtGetKernelDebugTrapVersionInfo() - version of the kernel's debug
 * trap interface (5.2.3 API, exported for compatibility).
 */
HSAKMT_STATUS HSAKMTAPI hsaKmtGetKernelDebugTrapVersionInfo(HSAuint32 *Major, HSAuint32 *Minor);

/*
 * hsaKmtDbgEnable() - attach to this process as debugger (KFD 1.13).
 * @runtime_info: out, malloc'd kfd_runtime_info the caller frees.
 * @data_size: out, its size.
 */
HSAKMT_STATUS HSAKMTAPI hsaKmtDbgEnable(void **runtime_info, HSAuint32 *data_size);

/* hsaKmtDbgDisable() - detach. */
HSAKMT_STATUS HSAKMTAPI hsaKmtDbgDisable(void);

/*
 * hsaKmtDbgGetDeviceData() - device snapshot: @data (malloc'd, caller
 * frees) holds @n_entries entries of @entry_size bytes.
 */
HSAKMT_STATUS HSAKMTAPI hsaKmtDbgGetDeviceData(void **data, HSAuint32 *n_entries, HSAuint32 *entry_size);

/*
 * hsaKmtDbgGetQueueData() - queue snapshot, optionally suspending the
 * queues first (@suspend_queues). Output as hsaKmtDbgGetDeviceData().
 */
HSAKMT_STATUS HSAKMTAPI hsaKmtDbgGetQueueData(void **data, HSAuint32 *n_entries, HSAuint32 *entry_size,
					     bool suspend_queues);

/*
 * hsaKmtCheckRuntimeDebugSupport() - SUCCESS when every GPU's firmware and
 * the kernel support the 1.13 debugger, NOT_SUPPORTED otherwise.
 */
HSAKMT_STATUS HSAKMTAPI hsaKmtCheckRuntimeDebugSupport(void);

/*
 * hsaKmtDebugTrapIoctl() - issue a raw DBG_TRAP request (for tests).
 * @arg: the kernel's struct, in/out. @Queues: queue ids for suspend and
 * resume. @DebugReturn: out, the ioctl's positive result.
 */
HSAKMT_STATUS HSAKMTAPI hsaKmtDebugTrapIoctl(struct kfd_ioctl_dbg_trap_args *arg,
					    HSA_QUEUEID *Queues, HSAuint64 *DebugReturn);

/* hsaKmtGetCoreRuntimeInfo() - the runtime info a debugger would see. */
HSAKMT_STATUS HSAKMTAPI hsaKmtGetCoreRuntimeInfo(struct kfd_runtime_info *runtime_info);

/* hsaKmtGetCoreDeviceInfo() - the debugger's device entry for @gpu_id. */
HSAKMT_STATUS HSAKMTAPI hsaKmtGetCoreDeviceInfo(HSAuint32 gpu_id,
					       struct kfd_dbg_device_info_entry *device_info);

/* ------------------------------------------------------------------ */
/* Profiling                                                          */
/* ------------------------------------------------------------------ */

/* hsaKmtGetClockCounters() - GPU, CPU and system clock counters now. */
HSAKMT_STATUS HSAKMTAPI hsaKmtGetClockCounters(HSAuint32 NodeId, HsaClockCounters *Counters);

/*
 * hsaKmtPmcGetCounterProperties() - the performance counters of a node.
 * @CounterProperties: out, owned by the library.
 */
HSAKMT_STATUS HSAKMTAPI hsaKmtPmcGetCounterProperties(HSAuint32 NodeId,
						     HsaCounterProperties **CounterProperties);

/* hsaKmtPmcRegisterTrace() - define a trace of @NumberOfCounters counters. */
HSAKMT_STATUS HSAKMTAPI hsaKmtPmcRegisterTrace(HSAuint32 NodeId, HSAuint32 NumberOfCounters,
					      HsaCounter *Counters, HsaPmcTraceRoot *TraceRoot);

/* hsaKmtPmcUnregisterTrace() - forget a trace. */
HSAKMT_STATUS HSAKMTAPI hsaKmtPmcUnregisterTrace(HSAuint32 NodeId, HSATraceId TraceId);

/* hsaKmtPmcAcquireTraceAccess() - get exclusive use of a trace's counters. */
HSAKMT_STATUS HSAKMTAPI hsaKmtPmcAcquireTraceAccess(HSAuint32 NodeId, HSATraceId TraceId);

/* hsaKmtPmcReleaseTraceAccess() - give it back. */
HSAKMT_STATUS HSAKMTAPI hsaKmtPmcReleaseTraceAccess(HSAuint32 NodeId, HSATraceId TraceId);

/* hsaKmtPmcStartTrace() - start counting into @TraceBuffer. */
HSAKMT_STATUS HSAKMTAPI hsaKmtPmcStartTrace(HSATraceId TraceId, void *TraceBuffer,
					   HSAuint64 TraceBufferSizeBytes);

/* hsaKmtPmcQueryTrace() - update the trace buffer with the current values. */
HSAKMT_STATUS HSAKMTAPI hsaKmtPmcQueryTrace(HSATraceId TraceId);

/* hsaKmtPmcStopTrace() - stop counting. */
HSAKMT_STATUS HSAKMTAPI hsaKmtPmcStopTrace(HSATraceId TraceId);

/* hsaKmtSPMAcquire() - get exclusive use of the streaming perf monitor. */
HSAKMT_STATUS HSAKMTAPI hsaKmtSPMAcquire(HSAuint32 PreferredNode);

/* hsaKmtSPMRelease() - give it back. */
HSAKMT_STATUS HSAKMTAPI hsaKmtSPMRelease(HSAuint32 PreferredNode);

/*
 * hsaKmtSPMSetDestBuffer() - hand the SPM a new buffer; learn how much of
 * the previous one was filled (@SizeCopied) and whether data was lost.
 * @timeout: in/out, ms.
 */
HSAKMT_STATUS HSAKMTAPI hsaKmtSPMSetDestBuffer(HSAuint32 PreferredNode, HSAuint32 SizeInBytes,
					      HSAuint32 *timeout, HSAuint32 *SizeCopied,
					      void *DestMemoryAddress, bool *isSPMDataLoss);

/* hsaKmtPcSamplingSupport() - SUCCESS if the kernel has PC sampling. */
HSAKMT_STATUS HSAKMTAPI hsaKmtPcSamplingSupport(void);

/*
 * hsaKmtPcSamplingQueryCapabilities() - PC sampling configurations of a
 * GPU into @sample_info (@sample_info_sz HsaPcSamplingInfo entries).
 * Return: BUFFER_TOO_SMALL with *@sz_needed set when it does not fit.
 */
HSAKMT_STATUS HSAKMTAPI hsaKmtPcSamplingQueryCapabilities(HSAuint32 NodeId, void *sample_info,
							 HSAuint32 sample_info_sz,
							 HSAuint32 *sz_needed);

/* hsaKmtPcSamplingCreate() - create a session; @traceId: out. */
HSAKMT_STATUS HSAKMTAPI hsaKmtPcSamplingCreate(HSAuint32 node_id, HsaPcSamplingInfo *sample_info,
					      HsaPcSamplingTraceId *traceId);

/* hsaKmtPcSamplingDestroy() - destroy a session. */
HSAKMT_STATUS HSAKMTAPI hsaKmtPcSamplingDestroy(HSAuint32 NodeId, HsaPcSamplingTraceId traceId);

/* hsaKmtPcSamplingStart() - start sampling. */
HSAKMT_STATUS HSAKMTAPI hsaKmtPcSamplingStart(HSAuint32 NodeId, HsaPcSamplingTraceId traceId);

/* hsaKmtPcSamplingStop() - stop sampling. */
HSAKMT_STATUS HSAKMTAPI hsaKmtPcSamplingStop(HSAuint32 NodeId, HsaPcSamplingTraceId traceId);

/* ------------------------------------------------------------------ */
/* Shared virtual memory                                              */
/* ------------------------------------------------------------------ */

/*
 * hsaKmtSVMSetAttr() - set SVM attributes on a page-aligned range.
 * @nattr: entries of @attrs.
 */
HSAKMT_STATUS HSAKMTAPI hsaKmtSVMSetAttr(void *start_addr, HSAuint64 size, unsigned int nattr,
					HSA_SVM_ATTRIBUTE *attrs);

/* hsaKmtSVMGetAttr() - read SVM attributes of a range (in/out @attrs). */
HSAKMT_STATUS HSAKMTAPI hsaKmtSVMGetAttr(void *start_addr, HSAuint64 size, unsigned int nattr,
					HSA_SVM_ATTRIBUTE *attrs);

/* hsaKmtSetXNACKMode() - turn retry on GPU page faults on or off. */
HSAKMT_STATUS HSAKMTAPI hsaKmtSetXNACKMode(HSAint32 enable);

/* hsaKmtGetXNACKMode() - read that mode. */
HSAKMT_STATUS HSAKMTAPI hsaKmtGetXNACKMode(HSAint32 *enable);

/* ------------------------------------------------------------------ */
/* Buffer handles (the newest library's handle API)                   */
/* ------------------------------------------------------------------ */

/*
 * hsaKmtHandleImport() - import a dma-buf on a libdrm device
 * (hsaKmtGetAMDGPUDeviceHandle()) as a buffer object the caller places
 * in the GPU VM itself. No GPU address, no CPU mapping, no entry for
 * hsaKmtQueryPointerInfo().
 * @ImportDesc: device_handle, type DMA_BUF and dmabuf_fd; with
 *	@Flags->ui32.IPCHandle, metadata is the tag the buffer must carry.
 * @ImportResult: out: buf_handle, alloc_size, the dma-buf fd, and the
 *	tag found when it differs (or already existed).
 * @Flags: IPCHandle: check the buffer's tag; with UpdateMetadata (and not
 *	SysMem) set it when the buffer has none. NULL: none.
 * Return: INVALID_HANDLE for a NULL @ImportDesc, @ImportResult or device;
 * NOT_SUPPORTED for GEM flink names and KMS handles; ERROR when the import
 * (or a FABRIC handle: ROCm's DKMS driver only) fails; INVALID_HANDLE when
 * the tag cannot be read, INVALID_PARAMETER when it differs.
 */
HSAKMT_STATUS HSAKMTAPI hsaKmtHandleImport(const HsaHandleImportDesc *ImportDesc,
					  HsaHandleImportResult *ImportResult,
					  HsaHandleImportFlags *Flags);

/*
 * hsaKmtMemoryVaMap() - map @size bytes of @Handle from @offset at GPU
 * address @addr, with @flags access, in the VM of GPU node @NodeId
 * (amdgpu GEM_VA on the node's render file).
 * Return: ERROR for a NULL handle or when the kernel refuses;
 * INVALID_NODE_UNIT when @NodeId is not a GPU.
 */
HSAKMT_STATUS HSAKMTAPI hsaKmtMemoryVaMap(HsaMemoryObjectHandle Handle, HSAuint64 offset,
					 HSAuint64 size, HSAuint64 addr, HsaMemoryMapFlags flags,
					 HSAuint32 NodeId);

/* hsaKmtMemoryVaUnmap() - undo hsaKmtMemoryVaMap() (same arguments, no access). */
HSAKMT_STATUS HSAKMTAPI hsaKmtMemoryVaUnmap(HsaMemoryObjectHandle Handle, HSAuint64 offset,
					   HSAuint64 size, HSAuint64 addr, HSAuint32 NodeId);

/*
 * hsaKmtMemHandleFree() - clear the buffer's metadata (its IPC tag) and
 * drop the handle; the buffer goes with its last reference. ERROR for NULL.
 */
HSAKMT_STATUS HSAKMTAPI hsaKmtMemHandleFree(HsaMemoryObjectHandle Handle);

/*
 * hsaKmtMemoryCpuMap() - map the whole buffer for the CPU (libdrm's
 * mapping: it lasts until hsaKmtMemHandleFree()).
 * @out_cpu_ptr: out, its address.
 */
HSAKMT_STATUS HSAKMTAPI hsaKmtMemoryCpuMap(HsaMemoryObjectHandle Handle, void **out_cpu_ptr);

/*
 * hsaKmtMemoryGetCpuAddr() - the render file's mmap offset of
 * @MemoryHandle (amdgpu GEM_MMAP on @DeviceHandle's file), for a caller
 * that maps the buffer itself.
 * @cpu_addr: out, the offset (despite the name, not an address).
 */
HSAKMT_STATUS HSAKMTAPI hsaKmtMemoryGetCpuAddr(HsaAMDGPUDeviceHandle DeviceHandle,
					      HsaMemoryObjectHandle MemoryHandle,
					      HSAuint64 *cpu_addr);

/* ------------------------------------------------------------------ */
/* Storage, RAS, external semaphores                                  */
/* ------------------------------------------------------------------ */

/*
 * hsaKmtAisReadWriteFile() - AMD Infinity Storage: direct I/O between
 * file @fd at @file_offset and the allocation holding @MemoryAddress
 * (ROCm's DKMS driver only; at most 0x7ffff000 bytes a call).
 * @AisFlags: HSA_AIS_READ (file to memory) or HSA_AIS_WRITE.
 * @SizeCopiedInBytes, @status: out (optional): bytes moved and the
 *	kernel's status; after a refused request 0 and -errno.
 * Return: INVALID_PARAMETER for other flags or memory not inside one
 * allocation; ERROR when the kernel refuses (upstream kernels: always).
 */
HSAKMT_STATUS HSAKMTAPI hsaKmtAisReadWriteFile(void *MemoryAddress, HSAuint64 MemorySizeInBytes,
					      HSAint32 fd, HSAint64 file_offset,
					      HsaAisFlags AisFlags, HSAuint64 *SizeCopiedInBytes,
					      HSAint32 *status);

/*
 * hsaKmtSetSigbusDelay() - how long KFD waits before raising SIGBUS in
 * this process for poisoned memory: @DelayMs milliseconds, 0 at once,
 * 0xffffffff never (amdgpu PROC_OPTIONS on @NodeId's render file).
 * Return: NOT_SUPPORTED for a node without a GPU or a kernel without
 * the request.
 */
HSAKMT_STATUS HSAKMTAPI hsaKmtSetSigbusDelay(HSAuint32 NodeId, HSAuint32 DelayMs);

/*
 * hsaKmtImportExternalSemaphore() / hsaKmtDestroyExternalSemaphore() -
 * another API's semaphore for queues to wait on and signal. Windows only:
 * NOT_SUPPORTED, whatever the arguments and even before hsaKmtOpenKFD().
 */
HSAKMT_STATUS HSAKMTAPI hsaKmtImportExternalSemaphore(HSAuint32 NodeId, void *NtHandle,
						     HSA_EXTERNAL_SEMAPHORE_HANDLE_TYPE Type,
						     HSA_EXTERNAL_SEMAPHORE_HANDLE *OutHandle);
HSAKMT_STATUS HSAKMTAPI hsaKmtDestroyExternalSemaphore(HSA_EXTERNAL_SEMAPHORE_HANDLE Handle);

#ifdef __cplusplus
}
#endif

#endif /* HSAKMT_HSAKMT_H */

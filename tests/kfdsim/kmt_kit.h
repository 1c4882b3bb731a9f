/* SPDX-License-Identifier: MIT */
/*
 * What the thunk-API test programs of tests/kfdsim share (pm4_kmt.c,
 * fault_kmt.c, test_thunk_ipc.c, test_thunk_xmem.c): failure bookkeeping,
 * GPU-mapped host memory, user queues on a ring of it, the GPU under test.
 * Each program is built against our thunk and against AMD's libhsakmt, so
 * the kit uses the thunk's API only.
 */
#ifndef KMT_KIT_H
#define KMT_KIT_H

#if __has_include(<hsakmt/hsakmt.h>)
#include <hsakmt/hsakmt.h>
#else
#include <hsakmt.h>
#endif
#include <stdint.h>

/* Bytes of every kit queue's ring. */
#define KIT_RING_SIZE	4096u

/* The program's name, the prefix of its messages ("pm4", "fault"). */
extern const char *kit_name;
/* Set once a check has failed; the program then exits 1. */
extern int kit_failed;

/* kit_fail() - print "NAME: FAILED: @what" and note the failure. */
void kit_fail(const char *what);

/* kit_check() - unless @st is SUCCESS, print @what and @st and note it. */
void kit_check(HSAKMT_STATUS st, const char *what);

/* Flags of kit_alloc_mapped(). */
#define KIT_MEM_RO	1u	/* allocated ReadOnly: a GPU write faults */
#define KIT_MEM_EXEC	2u	/* ExecuteAccess, as kfdtest's code buffers */

/*
 * kit_alloc_mapped() - @size bytes of host memory (HostAccess, NonPaged,
 * CoarseGrain) mapped on every GPU, zeroed; @flags: KIT_MEM_*.
 * Return: the memory, or NULL with the failure noted.
 */
void *kit_alloc_mapped(HSAuint64 size, unsigned int flags);

/* kit_free_mapped() - unmap and free kit_alloc_mapped()'s @p (NULL: none). */
void kit_free_mapped(void *p, HSAuint64 size);

/*
 * kit_first_gpu() - the first node with compute cores; its properties in
 * *@props when not NULL. Return: the node, or 0 when there is none.
 */
HSAuint32 kit_first_gpu(HsaNodeProperties *props);

/*
 * kit_open() - open KFD and find the GPU under test (kit_first_gpu()).
 * Return: 0 with the node in *@node, or -1 (cmocka's setup verdict).
 */
int kit_open(HSAuint32 *node);

/* kit_close() - release the topology and close KFD. Return: 0 or -1. */
int kit_close(void);

/* kit_kernel_is_rocm() - whether kfdsim runs its ROCm DKMS flavour. */
int kit_kernel_is_rocm(void);

/* kit_host_vram() - flags of VRAM the CPU can reach (a large BAR). */
HsaMemFlags kit_host_vram(void);

/* A user queue on a KIT_RING_SIZE ring of kit_alloc_mapped() memory. */
struct kit_queue {
	uint32_t *ring;
	uint64_t *ptrs;			/* [0] read, [1] write: the thunk may
					 * put them elsewhere (res) */
	HsaQueueResource res;
	uint64_t wr;			/* dwords written, monotonic */
	int sdma;			/* an SDMA queue: pointers in bytes */
};

/*
 * kit_queue_new() - a queue of @type (HSA_QUEUE_COMPUTE: PM4, or
 * HSA_QUEUE_SDMA) on GPU node @node; @what names the create in messages.
 * Return: 0, or -1 with the failure noted.
 */
int kit_queue_new(struct kit_queue *q, HSAuint32 node, HSA_QUEUE_TYPE type,
		  const char *what);

/* kit_queue_free() - destroy @q's queue and free its memory. */
void kit_queue_free(struct kit_queue *q);

/*
 * The copy shader for gfx90a, run by a PM4 dispatch: work-item i of the
 * grid stores src[i] + i to dst[i] (src in s[0:1], dst in s[2:3], the
 * work-group id in s4; work-groups of 64).
 */
extern const uint32_t kit_copy_shader[];
extern const unsigned int kit_copy_shader_dw;

/* Dwords kit_pm4_dispatch() writes at most. */
#define KIT_DISPATCH_DW	32u

/*
 * kit_pm4_dispatch() - the PM4 packets of a dispatch of kit_copy_shader
 * at @code (256-byte aligned) with @src and @dst: SET_SH_REG of the
 * compute registers, then DISPATCH_DIRECT of @dim work-groups of 64, or
 * of @dim work-items when @thread_dims. Written to @d.
 * Return: the dwords written.
 */
unsigned int kit_pm4_dispatch(uint32_t *d, const void *code, uint64_t src,
			      uint64_t dst, uint32_t dim, int thread_dims);

/* kit_is_gfx90a() - whether node @props is a gfx90a (what the shader is). */
int kit_is_gfx90a(const HsaNodeProperties *props);

#endif

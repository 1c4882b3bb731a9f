/* SPDX-License-Identifier: MIT */
/*
 * A libdrm_amdgpu client of the render node's command submission, on
 * kfdsim (preloaded, or under `kfdtrace record --sim`): a context, a BO
 * list, IBs that write memory on the DMA and compute rings (and on GFX,
 * where the GPU has one), fences waited for, the memory checked; then
 * the kernel's refusals. Prints "PASS: ..." and exits 0 when every
 * answer is the kernel's; 77 when the node is missing.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <amdgpu.h>
#include <amdgpu_drm.h>

#define PAGE		4096u
#define SDMA_WRITE	2u
#define SDMA_FENCE	5u
#define PM4_HDR(op, n)	(3u << 30 | (((n) - 2) & 0x3fffu) << 16 | (op) << 8)
#define PM4_NOP		0x10u
#define PM4_WRITE_DATA	0x37u
#define PM4_RELEASE_MEM	0x49u

static int failures;

static void
check(const char *what, int ok)
{
	if (!ok) {
		fprintf(stderr, "FAIL: %s\n", what);
		failures++;
	}
}

/* A GTT BO mapped for the GPU (read/write/execute) and the CPU. */
struct buf {
	amdgpu_bo_handle bo;
	amdgpu_va_handle vah;
	uint64_t va;
	uint32_t *cpu;
};

static int
buf_make(amdgpu_device_handle dev, struct buf *b)
{
	struct amdgpu_bo_alloc_request req = {
		.alloc_size = PAGE,
		.phys_alignment = PAGE,
		.preferred_heap = AMDGPU_GEM_DOMAIN_GTT,
	};
	void *cpu;

	if (amdgpu_bo_alloc(dev, &req, &b->bo) ||
	    amdgpu_va_range_alloc(dev, amdgpu_gpu_va_range_general, PAGE, PAGE, 0,
				  &b->va, &b->vah, 0) ||
	    amdgpu_bo_va_op(b->bo, 0, PAGE, b->va, 0, AMDGPU_VA_OP_MAP) ||
	    amdgpu_bo_cpu_map(b->bo, &cpu))
		return -1;
	b->cpu = cpu;
	memset(cpu, 0, PAGE);
	return 0;
}

static void
buf_drop(struct buf *b)
{
	amdgpu_bo_cpu_unmap(b->bo);
	amdgpu_bo_va_op(b->bo, 0, PAGE, b->va, 0, AMDGPU_VA_OP_UNMAP);
	amdgpu_va_range_free(b->vah);
	amdgpu_bo_free(b->bo);
}

/* Submit @ndw dwords of @ib on (@ip, ring 0); wait. Return: the fence's
 * answer (0, or the negative errno), and the submission's number. */
static int
submit(amdgpu_context_handle ctx, amdgpu_bo_list_handle list, struct buf *ib,
       uint32_t ndw, uint32_t ip, uint64_t *seq)
{
	struct amdgpu_cs_ib_info info = { .ib_mc_address = ib->va, .size = ndw };
	struct amdgpu_cs_request req = {
		.ip_type = ip, .number_of_ibs = 1, .ibs = &info, .resources = list,
	};
	struct amdgpu_cs_fence f = { .context = ctx, .ip_type = ip };
	uint32_t expired = 0;
	int r;

	r = amdgpu_cs_submit(ctx, 0, &req, 1);
	if (r)
		return r;
	*seq = req.seq_no;
	f.fence = req.seq_no;
	r = amdgpu_cs_query_fence_status(&f, 1000000000ull, 0, &expired);
	if (!r && !expired)
		r = -EBUSY;
	return r;
}

/* SDMA on the DMA ring: a linear write of four dwords, then a fence. */
static void
run_sdma(amdgpu_context_handle ctx, amdgpu_bo_list_handle list, struct buf *ib,
	 struct buf *res)
{
	uint32_t *p = ib->cpu, n = 0;
	uint64_t seq = 0;

	p[n++] = SDMA_WRITE;
	p[n++] = (uint32_t)res->va;
	p[n++] = (uint32_t)(res->va >> 32);
	p[n++] = 4 - 1;
	for (uint32_t i = 0; i < 4; i++)
		p[n++] = 0xdead0000u + i;
	p[n++] = SDMA_FENCE;
	p[n++] = (uint32_t)(res->va + 64);
	p[n++] = (uint32_t)((res->va + 64) >> 32);
	p[n++] = 0xfe11ce;
	for (uint32_t i = 0; i < 16; i++)	/* kfdtest's eviction IB: NOPs */
		p[n++] = 0;
	check("SDMA submission and fence", submit(ctx, list, ib, n, AMDGPU_HW_IP_DMA, &seq) == 0);
	check("SDMA write", res->cpu[0] == 0xdead0000u && res->cpu[3] == 0xdead0003u &&
	      res->cpu[4] == 0);
	check("SDMA fence value", res->cpu[16] == 0xfe11ce);
	check("first submission is number 1", seq == 1);
	check("second submission on the ring is number 2",
	      submit(ctx, list, ib, n, AMDGPU_HW_IP_DMA, &seq) == 0 && seq == 2);
}

/* PM4 on a compute (or GFX) ring: WRITE_DATA, then RELEASE_MEM's 64 bits. */
static int
run_pm4(amdgpu_context_handle ctx, amdgpu_bo_list_handle list, struct buf *ib,
	struct buf *res, uint32_t ip, uint32_t tag)
{
	uint32_t *p = ib->cpu, n = 0;
	uint64_t seq, at = res->va + 128;

	p[n++] = PM4_HDR(PM4_NOP, 2);
	p[n++] = 0;
	p[n++] = PM4_HDR(PM4_WRITE_DATA, 6);
	p[n++] = 5u << 8;				/* dst_sel memory */
	p[n++] = (uint32_t)at;
	p[n++] = (uint32_t)(at >> 32);
	p[n++] = tag;
	p[n++] = tag + 1;
	p[n++] = PM4_HDR(PM4_RELEASE_MEM, 8);
	p[n++] = 0;
	p[n++] = 2u << 29;				/* data_sel 64 bits */
	p[n++] = (uint32_t)(at + 8);
	p[n++] = (uint32_t)((at + 8) >> 32);
	p[n++] = tag + 2;
	p[n++] = tag + 3;
	p[n++] = 0;
	memset(res->cpu + 32, 0, 16);
	return submit(ctx, list, ib, n, ip, &seq) ||
	       res->cpu[32] != tag || res->cpu[33] != tag + 1 ||
	       res->cpu[34] != tag + 2 || res->cpu[35] != tag + 3 ? -1 : 0;
}

/* The kernel's refusals, through the raw requests. */
static void
refusals(int fd, uint32_t ctx_id, struct buf *ib, amdgpu_context_handle ctx,
	 amdgpu_bo_list_handle list, int has_gfx)
{
	struct drm_amdgpu_cs_chunk_ib cib = {
		.va_start = ib->va, .ib_bytes = 4, .ip_type = AMDGPU_HW_IP_DMA,
	};
	struct drm_amdgpu_cs_chunk chunk = {
		.chunk_id = AMDGPU_CHUNK_ID_IB, .length_dw = sizeof(cib) / 4,
		.chunk_data = (uintptr_t)&cib,
	};
	uint64_t chunks[1] = { (uintptr_t)&chunk };
	struct drm_amdgpu_bo_list_entry e = { .bo_handle = 0x7777 };
	union drm_amdgpu_bo_list bl;
	union drm_amdgpu_cs cs;
	union drm_amdgpu_wait_cs w;
	uint64_t seq;

	ib->cpu[0] = 0;				/* one SDMA NOP */
	memset(&cs, 0, sizeof(cs));
	cs.in.ctx_id = ctx_id;
	cs.in.chunks = (uintptr_t)chunks;
	check("CS without chunks: EINVAL",
	      ioctl(fd, DRM_IOCTL_AMDGPU_CS, &cs) == -1 && errno == EINVAL);
	cs.in.num_chunks = 1;
	cs.in.ctx_id = 999;
	check("CS on an unknown context: EINVAL",
	      ioctl(fd, DRM_IOCTL_AMDGPU_CS, &cs) == -1 && errno == EINVAL);
	cs.in.ctx_id = ctx_id;
	cs.in.bo_list_handle = 4242;
	check("CS with an unknown BO list: ENOENT",
	      ioctl(fd, DRM_IOCTL_AMDGPU_CS, &cs) == -1 && errno == ENOENT);
	cs.in.bo_list_handle = 0;
	cib.ring = 2;
	check("CS on DMA ring 2 (two entities): EINVAL",
	      ioctl(fd, DRM_IOCTL_AMDGPU_CS, &cs) == -1 && errno == EINVAL);
	cib.ring = 0;
	cib.ip_type = AMDGPU_HW_IP_VCN_DEC;
	check("CS on an IP the GPU lacks: EINVAL",
	      ioctl(fd, DRM_IOCTL_AMDGPU_CS, &cs) == -1 && errno == EINVAL);
	cib.ip_type = AMDGPU_HW_IP_DMA;
	chunk.chunk_id = 0x55;
	check("CS with an unknown chunk: EINVAL",
	      ioctl(fd, DRM_IOCTL_AMDGPU_CS, &cs) == -1 && errno == EINVAL);
	chunk.chunk_id = AMDGPU_CHUNK_ID_IB;
	chunks[0] = 8;
	check("CS with a bad chunk address: EFAULT",
	      ioctl(fd, DRM_IOCTL_AMDGPU_CS, &cs) == -1 && errno == EFAULT);
	chunks[0] = (uintptr_t)&chunk;
	check("CS of one SDMA NOP, without a BO list", ioctl(fd, DRM_IOCTL_AMDGPU_CS, &cs) == 0);
	seq = cs.out.handle;

	memset(&w, 0, sizeof(w));
	w.in.handle = seq + 1;
	w.in.ip_type = AMDGPU_HW_IP_DMA;
	w.in.ctx_id = ctx_id;
	check("WAIT_CS for a number not handed out: EINVAL",
	      ioctl(fd, DRM_IOCTL_AMDGPU_WAIT_CS, &w) == -1 && errno == EINVAL);
	w.in.handle = ~0ull;
	check("WAIT_CS for the latest: done",
	      ioctl(fd, DRM_IOCTL_AMDGPU_WAIT_CS, &w) == 0 && w.out.status == 0);
	memset(&w, 0, sizeof(w));
	w.in.handle = 1;
	w.in.ip_type = AMDGPU_HW_IP_DMA;
	w.in.ctx_id = 999;
	check("WAIT_CS on an unknown context: EINVAL",
	      ioctl(fd, DRM_IOCTL_AMDGPU_WAIT_CS, &w) == -1 && errno == EINVAL);

	/* A gang: IBs on DMA, compute, DMA again (one dword each, a NOP to
	 * both engines). Each entity numbers its job; the submission's
	 * number is the leader's, the job of the last IB: DMA's. */
	{
		struct drm_amdgpu_cs_chunk_ib cib2 = cib;
		struct drm_amdgpu_cs_chunk chunk2 = chunk;
		uint64_t gang[3] = { (uintptr_t)&chunk, (uintptr_t)&chunk2, (uintptr_t)&chunk };

		ib->cpu[0] = 0x80000000u;
		cib2.ip_type = AMDGPU_HW_IP_COMPUTE;
		chunk2.chunk_data = (uintptr_t)&cib2;
		memset(&cs, 0, sizeof(cs));
		cs.in.ctx_id = ctx_id;
		cs.in.num_chunks = 3;
		cs.in.chunks = (uintptr_t)gang;
		check("a DMA, compute, DMA gang: the DMA job's number",
		      ioctl(fd, DRM_IOCTL_AMDGPU_CS, &cs) == 0 && cs.out.handle == seq + 1);
		memset(&w, 0, sizeof(w));
		w.in.handle = 2;
		w.in.ip_type = AMDGPU_HW_IP_COMPUTE;
		w.in.ctx_id = ctx_id;
		check("the gang's compute job has compute's second number",
		      ioctl(fd, DRM_IOCTL_AMDGPU_WAIT_CS, &w) == 0 && w.out.status == 0);
		w.in.handle = 3;
		check("and no third",
		      ioctl(fd, DRM_IOCTL_AMDGPU_WAIT_CS, &w) == -1 && errno == EINVAL);
	}

	memset(&bl, 0, sizeof(bl));
	bl.in.operation = AMDGPU_BO_LIST_OP_CREATE;
	bl.in.bo_number = 1;
	bl.in.bo_info_size = sizeof(e);
	bl.in.bo_info_ptr = (uintptr_t)&e;
	check("BO list of an unknown handle: ENOENT",
	      ioctl(fd, DRM_IOCTL_AMDGPU_BO_LIST, &bl) == -1 && errno == ENOENT);
	memset(&bl, 0, sizeof(bl));
	bl.in.operation = 7;
	check("BO list op 7: EINVAL",
	      ioctl(fd, DRM_IOCTL_AMDGPU_BO_LIST, &bl) == -1 && errno == EINVAL);
	memset(&bl, 0, sizeof(bl));
	bl.in.operation = AMDGPU_BO_LIST_OP_UPDATE;
	bl.in.list_handle = 4242;
	check("BO list update of an unknown list: ENOENT",
	      ioctl(fd, DRM_IOCTL_AMDGPU_BO_LIST, &bl) == -1 && errno == ENOENT);

	/* A packet the engine does not execute: the job stops, the fence
	 * carries the error, the ring goes on. */
	ib->cpu[0] = 0x77;
	check("an unexecuted SDMA packet: the fence's ETIME",
	      submit(ctx, list, ib, 1, AMDGPU_HW_IP_DMA, &seq) == -ETIME);
	if (!has_gfx) {
		uint32_t expired;
		struct amdgpu_cs_ib_info info = { .ib_mc_address = ib->va, .size = 1 };
		struct amdgpu_cs_request req = {
			.ip_type = AMDGPU_HW_IP_GFX, .number_of_ibs = 1, .ibs = &info,
		};

		check("GFX submission on a GPU without GFX: EINVAL",
		      amdgpu_cs_submit(ctx, 0, &req, 1) == -EINVAL);
		(void)expired;
	}
}

int
main(int argc, char **argv)
{
	const char *node = argc > 1 ? argv[1] : "/dev/dri/renderD128";
	struct drm_amdgpu_info_hw_ip gfx;
	amdgpu_device_handle dev;
	amdgpu_context_handle ctx;
	amdgpu_bo_list_handle list;
	amdgpu_bo_handle both[2];
	struct buf ib, res;
	uint32_t major, minor, ctx_id;
	int fd, has_gfx;

	fd = open(node, O_RDWR | O_CLOEXEC);
	if (fd < 0) {
		printf("SKIP: %s: %s\n", node, strerror(errno));
		return 77;
	}
	if (amdgpu_device_initialize(fd, &major, &minor, &dev)) {
		fprintf(stderr, "FAIL: amdgpu_device_initialize\n");
		return 1;
	}
	memset(&gfx, 0, sizeof(gfx));
	has_gfx = !amdgpu_query_hw_ip_info(dev, AMDGPU_HW_IP_GFX, 0, &gfx) &&
		  gfx.available_rings;
	if (amdgpu_cs_ctx_create(dev, &ctx) || buf_make(dev, &ib) || buf_make(dev, &res)) {
		fprintf(stderr, "FAIL: context and buffers\n");
		return 1;
	}
	both[0] = ib.bo;
	both[1] = res.bo;
	check("BO list of two", amdgpu_bo_list_create(dev, 2, both, NULL, &list) == 0);
	run_sdma(ctx, list, &ib, &res);
	check("PM4 on a compute ring", run_pm4(ctx, list, &ib, &res, AMDGPU_HW_IP_COMPUTE,
					       0xc0de0000u) == 0);
	if (has_gfx)
		check("PM4 on the GFX ring", run_pm4(ctx, list, &ib, &res, AMDGPU_HW_IP_GFX,
						     0x9f800000u) == 0);
	/* libdrm's context id: its first, on a fresh file. */
	ctx_id = 1;
	refusals(fd, ctx_id, &ib, ctx, list, has_gfx);
	check("BO list destroyed", amdgpu_bo_list_destroy(list) == 0);
	buf_drop(&ib);
	buf_drop(&res);
	check("context freed", amdgpu_cs_ctx_free(ctx) == 0);
	amdgpu_device_deinitialize(dev);
	close(fd);
	if (failures)
		return 1;
	printf("PASS: command submission (%s)\n", has_gfx ? "DMA, compute, GFX" : "DMA, compute");
	return 0;
}

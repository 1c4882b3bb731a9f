/* SPDX-License-Identifier: MIT */
/*
 * Stand-ins for dma-bufs that came from outside the captured process.
 *
 * A graphics client hands KFD a dma-buf it got from elsewhere (a
 * compositor, another process): the trace has its GET_DMABUF_INFO (size,
 * domain, metadata) and its IMPORT_DMABUF, but not the fd's origin. The
 * replay makes an equivalent one with libdrm_amdgpu on the live render
 * node of the GPU that owned it: a buffer of the captured size in the
 * captured domain, the captured metadata set on it, exported as a dma-buf
 * fd. That goes through libdrm (the dispatch point does not see it): it is
 * setup, not part of the trace. The run makes it before it translates the
 * input that names the fd (run_ioctl.c), so translation (xlate.c) finds
 * it in the fd table like any other.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <kfdtrace/kfd_abi.h>

#include "replay_state.h"

#ifdef HAVE_LIBDRM_AMDGPU
#include <amdgpu.h>
#include <amdgpu_drm.h>

#define SYNTH_MAX 1024

struct rp_synth {
	int fd;				/* the render node */
	amdgpu_device_handle dev;
	unsigned int nbos;
	amdgpu_bo_handle bos[SYNTH_MAX];
};

/* The model's external dma-buf for a captured fd, as of the current record. */
static const struct rp_m_dmabuf *
external(const struct rp_run *st, int32_t fd)
{
	const struct rp_model *m = &st->r->model;
	const struct rp_m_dmabuf *best = NULL;
	size_t i;

	for (i = 0; i < m->dmabufs.n; i++) {
		const struct rp_m_dmabuf *d = RP_AT(&m->dmabufs,
						    struct rp_m_dmabuf, i);

		if (d->fd == fd && d->origin == RP_DMABUF_EXTERNAL &&
		    d->seq <= st->cur_seq && d->size)
			best = d;
	}
	return best;
}

/* The live render node of the GPU that owned the buffer. */
static int
render_minor(const struct rp_run *st, uint32_t cap_gpu)
{
	const struct rp_match *mt = &st->r->match;
	uint32_t live = rp_gpu_xlate(st, cap_gpu);
	const struct kt_topo_node *n = kt_topo_gpu(&mt->live, live);
	unsigned int i;

	if (!n) {
		for (i = 0; i < mt->live.nnodes && !n; i++)
			if (mt->live.nodes[i].present && mt->live.nodes[i].gpu_id)
				n = &mt->live.nodes[i];
	}
	return n ? (int)n->drm_render_minor : -1;
}

static int
synth(struct rp_run *st, int32_t cap_fd)
{
	const struct rp_m_dmabuf *d = external(st, cap_fd);
	struct amdgpu_bo_alloc_request req;
	struct amdgpu_bo_metadata meta;
	struct rp_synth *sy = st->synth;
	amdgpu_bo_handle bo;
	uint32_t major, minor, shared;
	char path[64];
	int r;

	if (!d || d->size > (1ull << 40))
		return -1;
	if (!sy) {
		int m = render_minor(st, d->gpu_id);

		if (m < 0)
			return -1;
		sy = calloc(1, sizeof(*sy));
		if (!sy)
			return -1;
		snprintf(path, sizeof(path), "/dev/dri/renderD%d", m);
		sy->fd = open(path, O_RDWR | O_CLOEXEC);
		if (sy->fd < 0 ||
		    amdgpu_device_initialize(sy->fd, &major, &minor, &sy->dev)) {
			rp_note(st, "cannot open %s to stand in for an outside dma-buf",
				path);
			if (sy->fd >= 0)
				close(sy->fd);
			free(sy);
			return -1;
		}
		st->synth = sy;
	}
	if (sy->nbos >= SYNTH_MAX)
		return -1;
	memset(&req, 0, sizeof(req));
	req.alloc_size = d->size;
	req.phys_alignment = 4096;
	req.preferred_heap = (d->flags & KFD_ABI_ALLOC_MEM_FLAGS_VRAM) ?
		AMDGPU_GEM_DOMAIN_VRAM : AMDGPU_GEM_DOMAIN_GTT;
	r = amdgpu_bo_alloc(sy->dev, &req, &bo);
	if (r) {
		rp_note(st, "allocating a stand-in dma-buf of %" PRIu64 " bytes: %s",
			d->size, strerror(-r));
		return -1;
	}
	if (d->metadata_size) {
		memset(&meta, 0, sizeof(meta));
		meta.size_metadata = d->metadata_size;
		memcpy(meta.umd_metadata, d->metadata, d->metadata_size);
		amdgpu_bo_set_metadata(bo, &meta);
	}
	if (amdgpu_bo_export(bo, amdgpu_bo_handle_type_dma_buf_fd, &shared)) {
		amdgpu_bo_free(bo);
		return -1;
	}
	sy->bos[sy->nbos++] = bo;
	st->sum.synthesized++;
	rp_note(st, "dma-buf fd %d came from outside the process: made a stand-in "
		"of %" PRIu64 " bytes in %s with %u bytes of metadata", cap_fd,
		d->size, req.preferred_heap == AMDGPU_GEM_DOMAIN_VRAM ? "VRAM" :
		"GTT", d->metadata_size);
	rp_fd_bind(st, cap_fd, (int)shared, 0, -1, 1);
	return (int)shared;
}

void
rp_dmabuf_release(struct rp_run *st)
{
	struct rp_synth *sy = st->synth;
	unsigned int i;

	if (!sy)
		return;
	for (i = 0; i < sy->nbos; i++)
		amdgpu_bo_free(sy->bos[i]);
	amdgpu_device_deinitialize(sy->dev);
	close(sy->fd);
	free(sy);
	st->synth = NULL;
}

#else /* !HAVE_LIBDRM_AMDGPU */

static int
synth(struct rp_run *st, int32_t cap_fd)
{
	(void)st;
	(void)cap_fd;
	return -1;
}

void
rp_dmabuf_release(struct rp_run *st)
{
	(void)st;
}

#endif

int
rp_dmabuf_stand_in(struct rp_run *st, int32_t cap_fd)
{
	int live;

	if (cap_fd < 0)
		return -1;
	live = rp_fd_live(st, cap_fd);
	return live >= 0 ? live : synth(st, cap_fd);
}

/* SPDX-License-Identifier: MIT */
/*
 * The object model's tables that both its passes fill: the GPUs the
 * calls name, the CPU ranges the replay needs, the KFD processes, and a
 * captured fd's entry. model.c (the records) and model_ioctl.c (the
 * ioctls) call these; they call neither.
 */
#include <kfdtrace/kfd_abi.h>

#include "replay_model.h"

void
rp_model_note_gpu(struct rp_model *m, uint32_t gpu_id)
{
	unsigned int i;

	if (!gpu_id || gpu_id == KFD_ABI_INVALID_GPUID)
		return;
	for (i = 0; i < m->nused; i++)
		if (m->used[i] == gpu_id)
			return;
	if (m->nused < RP_MAX_GPUS)
		m->used[m->nused++] = gpu_id;
}

void
rp_model_add_range(struct rp_model *m, uint64_t start, uint64_t len,
		   unsigned int why)
{
	struct rp_m_range *r;
	uint64_t s = RP_PAGE_ALIGN_DOWN(start), e;

	if (!len || start + len < start)
		return;
	e = RP_PAGE_ALIGN_UP(start + len);
	if (s < RP_USER_MIN || e > RP_USER_MAX || e <= s)
		return;
	r = rp_vec_push(&m->ranges);
	if (!r) {
		m->overflow++;
		return;
	}
	r->start = s;
	r->end = e;
	r->why = (uint8_t)why;
}

int32_t
rp_model_proc_new(struct rp_model *m, int32_t fd, uint64_t seq, int secondary)
{
	struct rp_m_proc *p = rp_vec_push(&m->procs);

	if (!p) {
		m->overflow++;
		return 0;
	}
	p->seq = seq;
	p->fd = fd;
	p->secondary = (uint8_t)secondary;
	return (int32_t)(m->procs.n - 1);
}

/* The fds index of captured fd @fd as the pass stands, or -1. */
int32_t
rp_model_fd(struct rp_model *m, int32_t fd)
{
	if (fd < 0 || fd >= m->fd_now_len)
		return -1;
	return m->fd_now[fd];
}

/* SPDX-License-Identifier: MIT */
/*
 * Global wave sync (AMD's MI200 ISA, "GWS"): counters shared by the waves
 * of the queue that ALLOC_QUEUE_GWS gave them to. The resource is
 * offset[5:0] + M0[21:16]; the count an instruction takes is data0 of its
 * first active lane.
 *
 *   ds_gws_init      the resource's count becomes data0 (a barrier's:
 *                    the waves it waits for, less one)
 *   ds_gws_sema_v    count + 1
 *   ds_gws_sema_br   count + data0 (bulk release)
 *   ds_gws_sema_p    waits until the count is not 0, then count - 1
 *   ds_gws_barrier   waits until count + 1 waves arrived, then all go
 *
 * The counts live in the process's per-GPU state: they outlive the
 * dispatch, as the hardware's do. A wave that waits stays at its
 * instruction and retries it when another wave of its work-group moved;
 * work-groups run one at a time here, so a wait that only a later group
 * could end fails the dispatch instead of hanging it.
 */
#include <stdio.h>

#include "shader_priv.h"

/* data0 of the first active lane (lane 0 when none is). */
static uint32_t
data0(const struct sh_wave *w, const struct sh_insn *i, int gen10)
{
	uint32_t w0 = i->in->f.words[0], w1 = i->in->f.words[1];
	unsigned int acc = gen10 ? 0 : ((w0 >> 25) & 1) * 256;
	uint64_t exec = sh_exec(w);
	unsigned int l = exec ? (unsigned int)__builtin_ctzll(exec) : 0;

	return w->v[((w1 >> 8) & 0xff) + acc][l];
}

enum sh_step
sh_gws(struct sh_ctx *c, struct sh_wave *w, const struct sh_insn *i)
{
	struct ksim_pdd *pdd = &c->cp->p->pdds[c->cq->gpu];
	unsigned int r = (i->in->f.words[0] & 0x3f) + ((w->s[SH_M0] >> 16) & 0x3f);
	unsigned int n = pdd->num_gws < KSIM_GWS_MAX ? pdd->num_gws : KSIM_GWS_MAX;
	char what[80];

	if (!c->cq->q || !c->cq->q->gws || r >= n) {
		snprintf(what, sizeof(what), "GWS resource %u, the queue holds %u", r,
			 c->cq->q && c->cq->q->gws ? n : 0);
		return sh_illegal(c, w, i, what);
	}
	switch (i->id) {
	case SH_OP_DS_GWS_INIT:
		pdd->gws_value[r] = data0(w, i, sh_gen10(c));
		pdd->gws_arrived[r] = 0;
		return SH_NEXT;
	case SH_OP_DS_GWS_SEMA_V:
		pdd->gws_value[r]++;
		return SH_NEXT;
	case SH_OP_DS_GWS_SEMA_BR:
		pdd->gws_value[r] += data0(w, i, sh_gen10(c));
		return SH_NEXT;
	case SH_OP_DS_GWS_SEMA_P:
		if (pdd->gws_value[r]) {
			pdd->gws_value[r]--;
			return SH_NEXT;
		}
		break;
	case SH_OP_DS_GWS_BARRIER:
		if (w->gws_armed) {
			if (w->gws_gen == pdd->gws_gen[r])
				break;
			w->gws_armed = 0;
			return SH_NEXT;
		}
		if (++pdd->gws_arrived[r] > pdd->gws_value[r]) {
			/* the last wave releases the others */
			pdd->gws_arrived[r] = 0;
			pdd->gws_gen[r]++;
			return SH_NEXT;
		}
		w->gws_armed = 1;
		w->gws_gen = pdd->gws_gen[r];
		break;
	default:
		return sh_illegal(c, w, i, NULL);
	}
	/* waiting executes nothing: the group sees no progress from it */
	c->executed--;
	w->state = SH_GWS;
	return SH_STOP;
}

int
sh_gws_stuck(struct sh_ctx *c)
{
	unsigned int n;

	for (n = 0; n < c->nwaves && c->waves[n].state != SH_GWS; n++)
		;
	c->ec = KFD_ABI_EC_QUEUE_WAVE_ABORT;
	c->code = CP_ERR_ILLEGAL_INSN;
	c->detail = n < c->nwaves ? c->waves[n].pc : 0;
	snprintf(c->why, sizeof(c->why), "wave %u of work-group (%u,%u,%u) at pc 0x%llx: "
		 "waits on GWS for waves of a later work-group; kfdsim runs one "
		 "work-group at a time", n, c->wgid[0], c->wgid[1], c->wgid[2],
		 (unsigned long long)c->detail);
	return -1;
}

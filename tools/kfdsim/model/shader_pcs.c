/* SPDX-License-Identifier: MIT */
/*
 * Host-trap PC sampling (the rocm flavour's PC_SAMPLE, pcs.c). While a
 * host-trap session of the GPU is started, the driver's sampler sends a
 * host trap to a running wave once per interval (microseconds). The wave
 * enters the trap handler before its next instruction, so ttmp0 and ttmp1
 * hold the PC sampled. The first-level handler passes the trap to the
 * runtime's second-level handler, which writes the sample into the
 * buffers its TMA names; the kernel itself writes nothing. A process
 * without a second-level handler takes no sample: the first-level handler
 * returns at once.
 *
 * The second-level handler finds, besides the ttmp registers of every
 * trap (shader_trap.c):
 *
 *   ttmp1   bit 24: host trap, and trap id 1
 *   ttmp6   gfx90a: the dispatch packet's index in its queue (24:0)
 *   ttmp8   ttmp9  ttmp10: the work-group ids x, y, z
 *   ttmp11  gfx90a: the wave's index in its work-group (5:0);
 *           gfx942: the packet index in 30:6, the wave's index in 5:0
 *   TRAPSTS gfx942: HOST_TRAP (bit 22), which the handler clears
 *
 * The runtime maps the packet index to the dispatch's correlation id.
 * Its handler (ROCr's trap_handler.s) reads a trap id of 0 as neither an
 * s_trap nor a host trap, so the id a host trap shows it is not 0. The
 * driver's SQ_CMD names none and the value is not documented: the model
 * gives 1.
 * The model checks the clock every few wave instructions, and the wave
 * that runs then is the one sampled.
 */
#include <time.h>

#include "shader_priv.h"

#define TTMP(n)			(SH_TTMP + (n))
#define TTMP1_HOST_TRAP		(1u << 24)
#define HOST_TRAP_ID		1u
#define TRAPSTS_HOST_TRAP	(1u << 22)
#define PKT_INDEX_MASK		0x1ffffffu
#define WAVE_ID_MASK		0x3fu
/* wave instructions between two looks at the clock */
#define PCS_STRIDE		64u

static uint64_t
mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

void
sh_pcs_turn(struct sh_ctx *c, uint64_t packet_index)
{
	const struct ksim_pdd *pdd = &c->cp->p->pdds[c->cq->gpu];
	uint64_t us = 0;

	c->pcs_packet = packet_index;
	c->pcs_check = c->executed;
	if ((c->family != KFD_ISA_GFX90A && c->family != KFD_ISA_GFX942) ||
	    !pdd->tba || !ksim_pcs_hosttrap(c->cp->dev, c->cq->gpu, &us)) {
		c->pcs_interval = 0;
		c->pcs_next = 0;
		return;
	}
	c->pcs_interval = us > UINT64_MAX / 1000 ? UINT64_MAX : us * 1000;
}

int
sh_pcs_poll(struct sh_ctx *c, struct sh_wave *w)
{
	uint32_t index = (uint32_t)c->pcs_packet & PKT_INDEX_MASK;
	uint64_t now;

	c->pcs_check = c->executed + PCS_STRIDE;
	now = mono_ns();
	if (!c->pcs_next)
		c->pcs_next = now + c->pcs_interval;
	if (now < c->pcs_next || w->trap)
		return 0;
	/* a sampler that fell behind sends one trap, not the backlog */
	c->pcs_next = now + c->pcs_interval;
	c->pcs_samples++;
	sh_trap_enter(c, w, HOST_TRAP_ID, 0);
	w->s[TTMP(1)] |= TTMP1_HOST_TRAP;
	w->s[TTMP(8)] = c->wgid[0];
	w->s[TTMP(9)] = c->wgid[1];
	w->s[TTMP(10)] = c->wgid[2];
	if (c->family == KFD_ISA_GFX942) {
		/* the debug bit moves to ttmp13 on gfx942 */
		w->s[TTMP(13)] = w->s[TTMP(11)];
		w->s[TTMP(11)] = index << 6 | (w->id & WAVE_ID_MASK);
		w->trapsts |= TRAPSTS_HOST_TRAP;
	} else {
		w->s[TTMP(6)] = index;
		w->s[TTMP(11)] |= w->id & WAVE_ID_MASK;
	}
	return 1;
}

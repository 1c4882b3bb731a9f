/* SPDX-License-Identifier: MIT */
/*
 * Kernel dispatch on the interpreter: the AQL dispatch packet and the
 * kernel descriptor it names (or the register state of a PM4
 * DISPATCH_DIRECT, shader_pm4.c) set up each wave as the hardware does
 * (AMDGPUUsage, "Initial Kernel Execution State"), then the workgroups run
 * one after another; the waves of a workgroup run in turn, each until it
 * reaches s_barrier or s_endpgm, and the barrier releases when every wave
 * still running has reached it.
 *
 * The kernel descriptor (code object v3+) and amd_kernel_code_t (v2, as
 * ROCr's own blit kernels carry) agree on what is read here: the entry
 * offset at 16, COMPUTE_PGM_RSRC1/2 at 48/52 and the user-SGPR enables at
 * 56 (bits 7-9, the v2 grid work-group counts, are reserved in v3).
 */
#include <fenv.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "shader_priv.h"

/* A runaway kernel holds the device lock: stop it past this many wave
 * instructions, as a hang the runtime would see as a queue error. */
#define SH_BUDGET		(1ull << 34)
/* A dispatch runs in turns of this many wave instructions. Between two,
 * the engine drops the device lock, so the process's calls (a queue
 * update, an event, a debugger) go on while a long kernel runs, as they
 * do beside a GPU. */
#define SH_TURN			(1ull << 16)

/* kernel_code_properties */
#define KCP_PRIVATE_SEGMENT_BUFFER	(1u << 0)
#define KCP_DISPATCH_PTR		(1u << 1)
#define KCP_QUEUE_PTR			(1u << 2)
#define KCP_KERNARG_SEGMENT_PTR		(1u << 3)
#define KCP_DISPATCH_ID			(1u << 4)
#define KCP_FLAT_SCRATCH_INIT		(1u << 5)
#define KCP_PRIVATE_SEGMENT_SIZE	(1u << 6)
#define KCP_GRID_WG_COUNT_X		(1u << 7)
#define KCP_WAVEFRONT_SIZE32		(1u << 10)	/* gfx10+ */

/* COMPUTE_PGM_RSRC2 */
#define RSRC2_SCRATCH_EN(r)		((r) & 1u)
#define RSRC2_USER_SGPR(r)		(((r) >> 1) & 0x1fu)
#define RSRC2_TGID_EN(r, d)		(((r) >> (7 + (d))) & 1u)
#define RSRC2_TG_SIZE_EN(r)		(((r) >> 10) & 1u)
#define RSRC2_TIDIG_CNT(r)		(((r) >> 11) & 3u)

#define SH_LDS_MAX	65536u
#define SH_CACHE	1024u	/* decoded instructions, direct-mapped by pc */
#define SH_MAX_ROWS	4096u
#define SH_FAMILIES	(KFD_ISA_GFX908 + 1)

static const char *const op_names[SH_OP_COUNT] = {
#define SH_NAME(id, name) [SH_OP_##id] = name,
	SH_OPS(SH_NAME)
#undef SH_NAME
};

static uint16_t row_op[SH_FAMILIES][SH_MAX_ROWS];
static pthread_once_t rows_once = PTHREAD_ONCE_INIT;

/* Bind each family table's rows to the opcodes implemented, by mnemonic. */
static void
bind_rows(void)
{
	struct kfd_isa_row row;
	const char *name;
	char buf[64];
	int gap;

	for (unsigned int fam = 0; fam < SH_FAMILIES; fam++)
		for (unsigned int r = 0; r < SH_MAX_ROWS; r++) {
			gap = kfd_isa_row((enum kfd_isa_family)fam, r, &row);
			if (gap < 0)
				break;
			if (gap)
				continue;
			name = sh_family_name((enum kfd_isa_family)fam, row.mnemonic, buf,
					      sizeof(buf));
			for (unsigned int k = 1; k < SH_OP_COUNT; k++)
				if (!strcmp(op_names[k], name)) {
					row_op[fam][r] = (uint16_t)k;
					break;
				}
		}
}

struct sh_cached {
	uint64_t gen;
	uint64_t pc;
	struct kfd_isa_insn in;
	int ok;
};

int
sh_family_runs(struct ksim_cp *cp, struct ksim_cpq *cq)
{
	enum kfd_isa_family isa;

	return !cp->no_shaders &&
	       !sh_family_of((uint32_t)cp->dev->gpus[cq->gpu].n->props[KSIM_NP_GFX_TARGET_VERSION],
			     &isa);
}

static void
where(struct sh_ctx *c, struct sh_wave *w, char *buf, size_t n)
{
	snprintf(buf, n, "wave %u of work-group (%u,%u,%u) at pc 0x%llx", w->id,
		 c->wgid[0], c->wgid[1], c->wgid[2], (unsigned long long)w->pc);
}

enum sh_step
sh_illegal(struct sh_ctx *c, struct sh_wave *w, const struct sh_insn *i, const char *what)
{
	char at[96];

	where(c, w, at, sizeof(at));
	c->ec = KFD_ABI_EC_QUEUE_WAVE_ILLEGAL_INSTRUCTION;
	c->code = CP_ERR_ILLEGAL_INSN;
	c->detail = w->pc;
	if (!i || !i->in->mnemonic)
		snprintf(c->why, sizeof(c->why), "%s: %.100s", at,
			 i ? i->in->text : "instruction fetch");
	else
		snprintf(c->why, sizeof(c->why), "%s: %.40s not implemented%s%.40s (%.100s)", at,
			 i->in->mnemonic, what ? ": " : "", what ? what : "", i->in->text);
	return SH_FAIL;
}

enum sh_step
sh_fault(struct sh_ctx *c, struct sh_wave *w, uint64_t va, const char *what)
{
	char at[96];

	where(c, w, at, sizeof(at));
	c->ec = KFD_ABI_EC_QUEUE_WAVE_MEMORY_VIOLATION;
	c->code = CP_ERR_MEMORY;
	c->detail = va;
	c->write = 0;
	snprintf(c->why, sizeof(c->why), "%s: %s outside the GPU VM", at, what);
	return SH_FAIL;
}

enum sh_step
sh_fault_write(struct sh_ctx *c, struct sh_wave *w, uint64_t va, const char *what)
{
	enum sh_step s = sh_fault(c, w, va, what);

	c->write = 1;
	return s;
}

/* Read through the CPU's view when there is one (no checked copy). */
static int
read_mem(struct ksim_cp *cp, struct ksim_cpq *cq, uint64_t va, void *buf, size_t n)
{
	const void *p = cp_mem(cp, cq, va, n);

	if (p) {
		memcpy(buf, p, n);
		return 0;
	}
	return cp_mem_rw(cp, cq, va, buf, n, 0);
}

/* Fetch and decode the instruction at @w's pc (cached per dispatch). */
static const struct kfd_isa_insn *
fetch(struct sh_ctx *c, struct sh_wave *w)
{
	struct sh_cached *e = &c->cache[(w->pc >> 2) % SH_CACHE];
	uint8_t code[16];
	size_t n;

	if (e->gen == c->gen && e->pc == w->pc)
		return &e->in;
	for (n = sizeof(code); n >= 4; n /= 2)
		if (!read_mem(c->cp, c->cq, w->pc, code, n))
			break;
	if (n < 4)
		return NULL;
	e->pc = w->pc;
	e->gen = c->gen;
	e->ok = kfd_isa_decode(c->family, code, n, &e->in) == 0;
	return &e->in;
}

static enum sh_step step_insn(struct sh_ctx *c, struct sh_wave *w,
			      const struct sh_insn *ip);

/* One instruction under the wave's MODE rounding. */
static enum sh_step
step_rounded(struct sh_ctx *c, struct sh_wave *w, const struct sh_insn *i)
{
	int round = sh_mode_round(w->mode);
	enum sh_step s;

	if (round >= 0)
		fesetround(round);
	if (c->math_traps && sh_trap_math_begin(c, i))
		s = sh_trap_math_end(c, w, i, step_insn(c, w, i));
	else
		s = step_insn(c, w, i);
	fesetround(FE_TONEAREST);
	return s;
}

static enum sh_step
step(struct sh_ctx *c, struct sh_wave *w)
{
	const struct kfd_isa_insn *in = fetch(c, w);
	struct sh_insn i;

	if (!in)
		return sh_fault(c, w, w->pc, "instruction fetch");
	i.in = in;
	i.id = in->mnemonic && in->f.row < SH_MAX_ROWS ? row_op[c->family][in->f.row] : SH_OP_NONE;
	if (!in->mnemonic)
		return sh_illegal(c, w, &i, NULL);
	if (i.id == SH_OP_NONE)
		return sh_illegal(c, w, &i, NULL);
	c->executed++;
	/* MODE's rounding other than nearest even: the host's, meanwhile */
	if (__builtin_expect(w->mode & 0xf, 0))
		return step_rounded(c, w, &i);
	/* a debugger's float exception traps: the host's IEEE flags */
	if (c->math_traps && sh_trap_math_begin(c, &i))
		return sh_trap_math_end(c, w, &i, step_insn(c, w, &i));
	return step_insn(c, w, &i);
}

/* Execute the decoded instruction @i of @w. */
static enum sh_step
step_insn(struct sh_ctx *c, struct sh_wave *w, const struct sh_insn *ip)
{
	const struct kfd_isa_insn *in = ip->in;
	struct sh_insn i = *ip;
	enum sh_step s;

	if (sh_family_op(i.id)) {
		s = sh_family_step(c, w, &i);
		goto done;
	}
	if (i.id >= SH_OP_GFX10_FIRST && i.id <= SH_OP_GFX10_LAST) {
		s = sh_gfx10_step(c, w, &i);
		goto done;
	}
	switch (in->f.enc) {
	case KFD_ISA_SOP2: case KFD_ISA_SOPK: case KFD_ISA_SOP1: case KFD_ISA_SOPC:
	case KFD_ISA_SOPP:
		s = sh_salu(c, w, &i);
		break;
	case KFD_ISA_VOP2: case KFD_ISA_VOP1: case KFD_ISA_VOPC: case KFD_ISA_VOP3:
	case KFD_ISA_VOP3P:
		s = sh_valu(c, w, &i);
		break;
	case KFD_ISA_SMEM: case KFD_ISA_FLAT: case KFD_ISA_MUBUF: case KFD_ISA_DS:
		s = sh_mem(c, w, &i);
		break;
	default:
		s = sh_illegal(c, w, &i, NULL);
	}
done:
	if (s == SH_NEXT)
		w->pc += in->length;
	return s;
}

/* Run @w until it ends, reaches a barrier, or fails. */
static int
run_wave(struct sh_ctx *c, struct sh_wave *w)
{
	while (w->state == SH_RUN) {
		enum sh_step s;

		if (c->executed >= c->turn_end) {
			w->state = SH_YIELD;
			c->cp->turn_over = 1;
			break;
		}
		if (c->pcs_interval && c->executed >= c->pcs_check)
			sh_pcs_poll(c, w);
		s = step(c, w);

		if (s == SH_FAIL)
			return -1;
		if (c->executed > SH_BUDGET) {
			char at[96];

			where(c, w, at, sizeof(at));
			c->ec = KFD_ABI_EC_QUEUE_WAVE_ABORT;
			c->code = CP_ERR_ILLEGAL_INSN;
			c->detail = w->pc;
			snprintf(c->why, sizeof(c->why), "%s: more than %llu instructions; "
				 "the dispatch is taken for hung", at,
				 (unsigned long long)SH_BUDGET);
			return -1;
		}
	}
	return 0;
}

/* The initial state of wave @n of the current work-group. */
static void
init_wave(struct sh_ctx *c, const struct sh_dispatch *d, struct sh_wave *w, unsigned int n,
	  const uint32_t size[3])
{
	unsigned int s = 0, items = size[0] * size[1] * size[2];
	uint64_t exec = 0, flat_scratch;
	uint32_t srd[4], wave_offset;

	memset(w->s, 0, sizeof(w->s));
	w->id = n;
	w->lanes = d->lanes;
	w->scc = 0;
	w->state = SH_RUN;
	w->gws_armed = 0;
	w->pc = d->entry;
	w->trap = 0;
	w->trapsts = 0;
	w->mode = SH_MODE_DEFAULT;
	w->end_trapped = 0;
	w->watch_hit = 0;
	sh_scratch_wave(c, w, n, srd, &flat_scratch, &wave_offset);
	if (d->props & KCP_PRIVATE_SEGMENT_BUFFER) {
		memcpy(&w->s[s], srd, sizeof(srd));
		s += 4;
	}
	if (d->props & KCP_DISPATCH_PTR) {
		sh_set_sreg64(w, s, d->packet_va);
		s += 2;
	}
	if (d->props & KCP_QUEUE_PTR) {
		sh_set_sreg64(w, s, d->queue_va);
		s += 2;
	}
	if (d->props & KCP_KERNARG_SEGMENT_PTR) {
		sh_set_sreg64(w, s, d->kernarg);
		s += 2;
	}
	if (d->props & KCP_DISPATCH_ID) {
		sh_set_sreg64(w, s, d->id);
		s += 2;
	}
	if (d->props & KCP_FLAT_SCRATCH_INIT) {
		sh_set_sreg64(w, s, flat_scratch);
		s += 2;
	}
	if (d->props & KCP_PRIVATE_SEGMENT_SIZE)
		w->s[s++] = d->private_size;
	for (unsigned int k = 0; k < 3; k++)
		if (d->props & (KCP_GRID_WG_COUNT_X << k))
			w->s[s++] = d->nwg[k];
	/* PM4: the user SGPRs are COMPUTE_USER_DATA_n as written */
	if (d->user_data)
		memcpy(w->s, d->user_data, d->user_sgprs * sizeof(w->s[0]));
	/* the system SGPRs follow the user SGPRs the descriptor counts */
	s = RSRC2_USER_SGPR(d->rsrc2);
	for (unsigned int k = 0; k < 3; k++)
		if (RSRC2_TGID_EN(d->rsrc2, k))
			w->s[s++] = d->start[k] + c->wgid[k];
	if (RSRC2_TG_SIZE_EN(d->rsrc2))
		w->s[s++] = c->nwaves;
	/* architected flat scratch (gfx942) sets FLAT_SCRATCH instead */
	if (RSRC2_SCRATCH_EN(d->rsrc2) && c->family != KFD_ISA_GFX942)
		w->s[s++] = wave_offset;
	/* gfx90a and gfx942 pack the work-item ids in v0: x 9:0, y 19:10,
	 * z 29:20; gfx10 has them in v0, v1, v2 */
	for (unsigned int l = 0; l < d->lanes; l++) {
		unsigned int t = n * d->lanes + l;
		uint32_t x = 0, y = 0, z = 0;

		if (t < items) {
			exec |= 1ull << l;
			x = t % size[0];
			y = (t / size[0]) % size[1];
			z = t / (size[0] * size[1]);
		}
		if (sh_gen10(c)) {
			w->v[0][l] = x;
			if (RSRC2_TIDIG_CNT(d->rsrc2) >= 1)
				w->v[1][l] = y;
			if (RSRC2_TIDIG_CNT(d->rsrc2) >= 2)
				w->v[2][l] = z;
			continue;
		}
		w->v[0][l] = x | (RSRC2_TIDIG_CNT(d->rsrc2) >= 1 ? y << 10 : 0) |
			     (RSRC2_TIDIG_CNT(d->rsrc2) >= 2 ? z << 20 : 0);
	}
	sh_set_exec(w, exec);
}

/*
 * Run one work-group to its end. Return: 0; 1 when a wave yielded (the
 * group resumes at the next call); -1 on a failure.
 */
static int
run_group(struct sh_ctx *c, const struct sh_dispatch *d)
{
	uint32_t size[3];
	unsigned int n, done, yielded;

	if (!c->in_group) {
		for (unsigned int k = 0; k < 3; k++) {
			uint32_t left = d->grid[k] - c->wgid[k] * d->wg[k];

			size[k] = left < d->wg[k] ? left : d->wg[k];
		}
		c->nwaves = (size[0] * size[1] * size[2] + d->lanes - 1) / d->lanes;
		for (n = 0; n < c->nwaves; n++) {
			init_wave(c, d, &c->waves[n], n, size);
			sh_trap_wave_start(c, &c->waves[n]);
		}
		memset(c->lds, 0, c->lds_size);
		c->in_group = 1;
	}
	for (;;) {
		uint64_t before = c->executed;
		unsigned int gws = 0;

		done = yielded = 0;
		for (n = 0; n < c->nwaves; n++) {
			struct sh_wave *w = &c->waves[n];

			if (w->state == SH_YIELD || w->state == SH_GWS)
				w->state = SH_RUN;
			if (run_wave(c, w))
				return -1;
			done += w->state == SH_END;
			yielded += w->state == SH_YIELD;
			gws += w->state == SH_GWS;
		}
		if (done == c->nwaves) {
			c->in_group = 0;
			return 0;
		}
		if (yielded)
			return 1;
		/* a GWS wait ends only when another wave moves: a wait retried
		 * executes nothing */
		if (gws && c->executed != before)
			continue;
		if (gws)
			return sh_gws_stuck(c);
		/* the waves left are all at the barrier: release it */
		for (n = 0; n < c->nwaves; n++)
			if (c->waves[n].state == SH_BARRIER)
				c->waves[n].state = SH_RUN;
	}
}

/* The waves of a full work-group. */
static unsigned int
group_waves(const struct sh_dispatch *d)
{
	return ((unsigned int)d->wg[0] * d->wg[1] * d->wg[2] + d->lanes - 1) / d->lanes;
}

void
sh_queue_gone(struct ksim_cp *cp, struct ksim_cpq *cq)
{
	struct sh_ctx *c = cp->sh;

	if (c && c->held_by == cq)
		c->held_by = NULL;
}

void
sh_ctx_free(struct sh_ctx *c)
{
	if (!c)
		return;
	free(c->vgprs);
	free(c->cache);
	free(c->lds);
	free(c);
}

/*
 * The engine's interpreter state, allocated at its first dispatch and
 * kept: VGPRs of a full work-group, the decode cache, 64 KiB of LDS.
 */
static struct sh_ctx *
ctx_get(struct ksim_cp *cp)
{
	struct sh_ctx *c = cp->sh;

	if (c)
		return c;
	c = calloc(1, sizeof(*c));
	if (!c)
		return NULL;
	c->vgprs = calloc((size_t)SH_MAX_WAVES * SH_VGPRS, sizeof(*c->vgprs));
	c->cache = calloc(SH_CACHE, sizeof(*c->cache));
	c->lds = calloc(1, SH_LDS_MAX);
	if (!c->vgprs || !c->cache || !c->lds) {
		sh_ctx_free(c);
		return NULL;
	}
	for (unsigned int n = 0; n < SH_MAX_WAVES; n++)
		c->waves[n].v = c->vgprs + (size_t)n * SH_VGPRS;
	cp->sh = c;
	return c;
}

int
sh_dispatch(struct ksim_cp *cp, struct ksim_cpq *cq, const uint8_t *pkt,
	    uint64_t packet_va, uint64_t queue_va, uint64_t id, struct sh_result *res)
{
	struct sh_dispatch d;
	uint8_t kd[64];
	int64_t entry_off;
	uint32_t wg[3];

	memset(&d, 0, sizeof(d));
	memset(res, 0, sizeof(*res));
	memcpy(d.wg, pkt + 4, 6);
	memcpy(d.grid, pkt + 12, 12);
	memcpy(&d.private_size, pkt + 24, 4);
	memcpy(&d.group_size, pkt + 28, 4);
	memcpy(&d.kobj, pkt + 32, 8);
	memcpy(&d.kernarg, pkt + 40, 8);
	d.packet_va = packet_va;
	d.queue_va = queue_va;
	d.id = id;
	/* the dimensions the packet does not use are 1 */
	for (unsigned int k = (pkt[2] & 3); k < 3; k++) {
		d.wg[k] = 1;
		d.grid[k] = 1;
	}
	if (read_mem(cp, cq, d.kobj, kd, sizeof(kd))) {
		res->code = CP_ERR_CODE;
		res->ec = KFD_ABI_EC_QUEUE_PACKET_DISPATCH_CODE_INVALID;
		res->detail = d.kobj;
		snprintf(res->why, sizeof(res->why), "kernel descriptor outside the GPU VM");
		return -1;
	}
	memcpy(&entry_off, kd + 16, 8);
	memcpy(&d.rsrc2, kd + 52, 4);
	d.props = (uint32_t)kd[56] | (uint32_t)kd[57] << 8;
	d.wave32 = !!(d.props & KCP_WAVEFRONT_SIZE32);
	d.entry = d.kobj + (uint64_t)entry_off;
	for (unsigned int k = 0; k < 3; k++) {
		wg[k] = d.wg[k] ? d.wg[k] : 1;
		d.wg[k] = (uint16_t)wg[k];
		d.nwg[k] = (d.grid[k] + wg[k] - 1) / wg[k];
	}
	return sh_run(cp, cq, &d, res);
}

int
sh_run(struct ksim_cp *cp, struct ksim_cpq *cq, const struct sh_dispatch *dispatch,
       struct sh_result *res)
{
	struct sh_dispatch run = *dispatch, *d = &run;
	uint32_t private_size;
	struct sh_ctx *c;
	int rc = 0;

	pthread_once(&rows_once, bind_rows);
	memset(res, 0, sizeof(*res));
	c = ctx_get(cp);
	if (!c) {
		res->code = CP_ERR_ILLEGAL_INSN;
		snprintf(res->why, sizeof(res->why), "no memory for the interpreter");
		return -1;
	}
	/* the engines dispatch here only when sh_family_runs() */
	if (sh_family_of((uint32_t)cp->dev->gpus[cq->gpu].n->props[KSIM_NP_GFX_TARGET_VERSION],
			 &d->family))
		d->family = KFD_ISA_GFX90A;
	/* only gfx10 knows wave32; the bit is reserved before */
	d->lanes = d->family == KFD_ISA_GFX1030 && d->wave32 ? 32 : SH_LANES;
	/* a PM4 dispatch's scratch (COMPUTE_DISPATCH_SCRATCH_BASE) is not
	 * modelled: it runs without private memory */
	private_size = d->user_data ? 0 : d->private_size;
	/*
	 * One dispatch at a time holds the waves: one that waits (for the
	 * host, or for scratch) resumes where it stopped, and the other
	 * queues' dispatches wait for it.
	 */
	if (c->held_by && c->held_by->error)
		c->held_by = NULL;
	if (c->held_by && (c->held_by != cq || c->held_id != d->id))
		return 1;
	if (!c->held_by) {
		c->cp = cp;
		c->cq = cq;
		c->family = d->family;
		c->gen++;
		c->executed = 0;
		c->lanes = 0;
		c->in_group = 0;
		c->halted = 0;
		c->math_traps = sh_trap_math_mask(c);
		c->scratch_asked = 0;
		memset(c->wgid, 0, sizeof(c->wgid));
		c->held_by = cq;
		c->held_id = d->id;
		rc = sh_scratch_setup(c, d->queue_va, private_size, group_waves(d),
				      d->lanes);
		if (rc > 0)
			return 1;
	} else if (c->scratch_asked) {
		rc = sh_scratch_setup(c, d->queue_va, private_size, group_waves(d),
				      d->lanes);
		if (rc > 0)
			return 1;
	}
	c->turn_end = c->executed + SH_TURN;
	sh_pcs_turn(c, d->id);
	c->lds_size = d->group_size > SH_LDS_MAX ? SH_LDS_MAX : d->group_size;
	if (!d->nwg[0] || !d->nwg[1])
		c->wgid[2] = d->nwg[2];
	while (!rc && c->wgid[2] < d->nwg[2]) {
		rc = run_group(c, d);
		if (rc)
			break;
		if (++c->wgid[0] < d->nwg[0])
			continue;
		c->wgid[0] = 0;
		if (++c->wgid[1] < d->nwg[1])
			continue;
		c->wgid[1] = 0;
		c->wgid[2]++;
	}
	/* halted waves: the dispatch never ends */
	if (rc > 0 || (!rc && c->halted))
		return 1;
	c->held_by = NULL;
	if (rc) {
		res->ec = c->ec;
		res->code = c->code;
		res->detail = c->detail;
		res->write = c->write;
		memcpy(res->why, c->why, sizeof(res->why));
	}
	res->executed = c->executed;
	res->lanes = c->lanes;
	return rc ? -1 : 0;
}

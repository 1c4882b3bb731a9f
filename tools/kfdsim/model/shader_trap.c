/* SPDX-License-Identifier: MIT */
/*
 * The trap handler: a wave enters it on s_trap and, when the debugger's
 * launch override asks for them, on wave start and end, on an address
 * watch hit (after the access) and on a float exception (after the
 * instruction); it leaves with s_rfe.
 *
 * The KFD's first-level handler (cwsr_trap_handler_gfx9.asm, and _gfx10
 * for gfx1030, which leaves the same ttmps) runs first.
 * With a second-level handler (SET_TRAP_HANDLER's tba/tma) it jumps there,
 * the ttmp registers as the hardware and it leave them:
 *
 *   ttmp0   pc bits 31:0 (the s_trap itself, or the wave's next instruction)
 *   ttmp1   pc bits 47:32 in 15:0, the trap id in 23:16, host trap in 24
 *   ttmp11  bit 23: the debugger enabled traps (TMA's debug trap flag)
 *   ttmp12  SQ_WAVE_STATUS as it was
 *   ttmp14  ttmp15: the second-level TMA
 *
 * and TRAPSTS says why (WAVE_START, WAVE_END, the watch point's bit,
 * EXCP's float bits; 0 for s_trap). The handler
 * runs privileged: it may read the queue's doorbell (s_sendmsg
 * MSG_GET_DOORBELL, answered in exec_lo) and send the KFD an interrupt
 * whose M0 is that doorbell in 9:0 and a mask of wave exceptions in 15:10
 * (EC_QUEUE_WAVE_ABORT first): kfd_set_dbg_ev_from_interrupt() raises them
 * on the queue, for the debugger or else the runtime. s_setreg_b32 of
 * STATUS restores SCC and may halt the wave; s_rfe_b64 returns to the
 * pc it is given.
 *
 * The model runs the second-level handler while a debugger has enabled
 * traps on the process (a debugger's tests install their own handler).
 * Otherwise the handler installed is the runtime's (ROCr's), whose code
 * the model does not run: shader_sys.c's s_trap reports the trap as it
 * does. A wave start or end trap, or a watch hit, needs a handler to
 * return from: without one the model takes none. Under a debugger with
 * no handler, an s_trap or a float exception halts the wave and raises
 * EC_QUEUE_WAVE_TRAP or _MATH_ERROR on its queue.
 */
#include <fenv.h>

#include "shader_priv.h"

#define TTMP(n)			(SH_TTMP + (n))

/* s_getreg_b32 / s_setreg_b32 registers */
#define HW_REG_MODE		1
#define HW_REG_STATUS		2
#define HW_REG_TRAPSTS		3
#define HW_REG_IB_STS		7

#define STATUS_SCC		(1u << 0)
#define STATUS_PRIV		(1u << 5)
#define STATUS_TRAP_EN		(1u << 6)
#define STATUS_EXECZ		(1u << 9)
#define STATUS_VCCZ		(1u << 10)
#define STATUS_HALT		(1u << 13)

#define TTMP11_DEBUG_ENABLED	(1u << 23)

/* s_sendmsg ids and the interrupt's M0 in the trap handler */
#define MSG_GET_DOORBELL	10
#define M0_DOORBELL_MASK	0x3ffu
#define M0_EC_SHIFT		10
#define M0_EC_MASK		0x3fu

uint32_t
sh_status(const struct sh_wave *w)
{
	return (w->scc ? STATUS_SCC : 0) | (sh_exec(w) ? 0 : STATUS_EXECZ) |
	       (sh_mask(w, SH_VCC) ? 0 : STATUS_VCCZ) | STATUS_TRAP_EN |
	       (w->trap ? STATUS_PRIV : 0);
}

/* The debugger's launch override (kfd_dbg_trap_set_wave_launch_override). */
static uint32_t
launch_mask(const struct sh_ctx *c)
{
	const struct ksim_pdbg *d = c->cp->p->dbg;

	if (!d || !__atomic_load_n(&d->enabled, __ATOMIC_ACQUIRE))
		return 0;
	return __atomic_load_n(&d->launch_enable_mask, __ATOMIC_ACQUIRE);
}

int
sh_trap_debugged(const struct sh_ctx *c)
{
	const struct ksim_pdbg *d = c->cp->p->dbg;

	return d && __atomic_load_n(&d->enabled, __ATOMIC_ACQUIRE);
}

int
sh_trap_handler(const struct sh_ctx *c)
{
	return c->cp->p->pdds[c->cq->gpu].tba != 0 && sh_trap_debugged(c);
}

enum sh_step
sh_trap_halt(struct sh_ctx *c, struct sh_wave *w, unsigned int tid)
{
	cp_log(c->cp, "queue %u: wave %u trapped (s_trap %u) at pc 0x%llx: halted "
	       "for the debugger", c->cq->qid, w->id, tid, (unsigned long long)w->pc);
	cp_wave_exception(c->cp, c->cq->q, KFD_ABI_EC_MASK(KFD_ABI_EC_QUEUE_WAVE_TRAP));
	w->state = SH_END;
	c->halted = 1;
	return SH_STOP;
}

enum sh_step
sh_trap_enter(struct sh_ctx *c, struct sh_wave *w, unsigned int tid, uint32_t why)
{
	const struct ksim_pdd *pdd = &c->cp->p->pdds[c->cq->gpu];
	const struct ksim_pdbg *d = c->cp->p->dbg;

	w->s[TTMP(0)] = (uint32_t)w->pc;
	w->s[TTMP(1)] = ((uint32_t)(w->pc >> 32) & 0xffff) | (tid & 0xff) << 16;
	w->s[TTMP(11)] = d && __atomic_load_n(&d->enabled, __ATOMIC_ACQUIRE) ?
			 TTMP11_DEBUG_ENABLED : 0;
	w->s[TTMP(12)] = sh_status(w);
	sh_set_sreg64(w, TTMP(14), pdd->tma);
	w->trapsts = why;
	w->trap = 1;
	w->pc = pdd->tba;
	return SH_JUMPED;
}

int
sh_trap_wave_start(struct sh_ctx *c, struct sh_wave *w)
{
	if (!(launch_mask(c) & KFD_ABI_DBG_TRAP_MASK_TRAP_ON_WAVE_START) ||
	    !sh_trap_handler(c))
		return 0;
	sh_trap_enter(c, w, 0, SH_TRAPSTS_WAVE_START);
	return 1;
}

int
sh_trap_wave_end(struct sh_ctx *c, struct sh_wave *w)
{
	if (w->end_trapped || w->trap ||
	    !(launch_mask(c) & KFD_ABI_DBG_TRAP_MASK_TRAP_ON_WAVE_END) ||
	    !sh_trap_handler(c))
		return 0;
	/* back at s_endpgm after s_rfe, the wave ends */
	w->end_trapped = 1;
	sh_trap_enter(c, w, 0, SH_TRAPSTS_WAVE_END);
	return 1;
}

/* kfd_set_dbg_ev_from_interrupt(): the queue whose doorbell M0 names. */
static void
trap_interrupt(struct sh_ctx *c, uint32_t m0)
{
	struct ksim_process *p = c->cp->p;
	uint64_t mask = (m0 >> M0_EC_SHIFT) & M0_EC_MASK;
	struct ksim_queue *q = NULL;

	for (unsigned int k = 0; k < KSIM_MAX_QUEUES && !q; k++)
		if (p->queues[k] && p->queues[k]->gpu == c->cq->gpu &&
		    (p->queues[k]->doorbell_id & M0_DOORBELL_MASK) == (m0 & M0_DOORBELL_MASK))
			q = p->queues[k];
	if (!q || !mask) {
		cp_log(c->cp, "queue %u: a trap handler's interrupt (m0 0x%x) names "
		       "no queue or no exception", c->cq->qid, m0);
		return;
	}
	cp_wave_exception(c->cp, q, mask);
}

enum sh_step
sh_trap_sendmsg(struct sh_ctx *c, struct sh_wave *w, unsigned int msg)
{
	switch (msg) {
	case MSG_GET_DOORBELL:
		/* the answer replaces exec_lo, bit 31 cleared when it is there */
		w->s[SH_EXEC] = c->cq->q->doorbell_id & M0_DOORBELL_MASK;
		return SH_NEXT;
	default:
		trap_interrupt(c, w->s[SH_M0]);
		return SH_NEXT;
	}
}

int
sh_trap_getreg(const struct sh_wave *w, unsigned int id, uint32_t *v)
{
	switch (id) {
	case HW_REG_TRAPSTS:
		*v = w->trapsts;
		return 0;
	case HW_REG_MODE:
		*v = w->mode;
		return 0;
	}
	return -1;
}

int
sh_mode_round(uint32_t mode)
{
	/* MODE.FP_ROUND: nearest even, +infinity, -infinity, zero */
	static const int host[4] = { -1, FE_UPWARD, FE_DOWNWARD, FE_TOWARDZERO };

	return host[mode & 3];
}

/*
 * MODE: the rounding and denormal fields, kept per wave. The host rounds
 * every float it computes one way, so f32's and f64/f16's rounding must
 * agree; flushing denormals is not modelled. Either stops the dispatch
 * rather than compute what the GPU would not.
 */
static enum sh_step
setreg_mode(struct sh_ctx *c, struct sh_wave *w, const struct sh_insn *i, uint32_t mask,
	    uint32_t v)
{
	uint32_t mode = (w->mode & ~mask) | v;

	if ((mode & 3) != ((mode >> 2) & 3))
		return sh_illegal(c, w, i, "a rounding mode per precision");
	if ((mode & 0xf0) != 0xf0)
		return sh_illegal(c, w, i, "flushing denormals");
	w->mode = mode;
	return SH_NEXT;
}

static enum sh_step
setreg(struct sh_ctx *c, struct sh_wave *w, const struct sh_insn *i)
{
	uint32_t w0 = i->in->f.words[0], v;
	unsigned int src = (w0 >> 16) & 0x7f, id = w0 & 0x3f, off = (w0 >> 6) & 0x1f;
	unsigned int size = ((w0 >> 11) & 0x1f) + 1;
	uint32_t mask = (size >= 32 ? ~0u : (1u << size) - 1) << off;

	/* gfx10 kernels set their flat scratch through these */
	if (sh_gfx10_flat_scr(c, id))
		return sh_gfx10_setreg(c, w, i);
	if (sh_src32(w, i, src, 0, &v))
		return sh_illegal(c, w, i, "source");
	v = (v << off) & mask;
	switch (id) {
	case HW_REG_MODE:
		return setreg_mode(c, w, i, mask, v);
	case HW_REG_IB_STS:
		/* replay state: nothing the model keeps */
		return SH_NEXT;
	case HW_REG_TRAPSTS:
		w->trapsts = (w->trapsts & ~mask) | v;
		return SH_NEXT;
	case HW_REG_STATUS:
		if (mask & STATUS_SCC)
			w->scc = !!(v & STATUS_SCC);
		if (!(mask & v & STATUS_HALT))
			return SH_NEXT;
		/* halted for good: nobody resumes a wave here */
		cp_log(c->cp, "queue %u: wave %u halted by its trap handler",
		       c->cq->qid, w->id);
		w->pc += i->in->length;
		w->state = SH_END;
		c->halted = 1;
		return SH_STOP;
	}
	return sh_illegal(c, w, i, "this hardware register");
}

enum sh_step
sh_trap_step(struct sh_ctx *c, struct sh_wave *w, const struct sh_insn *i)
{
	unsigned int src = i->in->f.words[0] & 0xff;

	switch (i->id) {
	case SH_OP_S_SETREG_B32:
		return setreg(c, w, i);
	case SH_OP_S_RFE_B64:
		if (src + 1 >= 128)
			return sh_illegal(c, w, i, "source");
		w->pc = sh_sreg64(w, src) & 0xffffffffffffull;
		w->trap = 0;
		return SH_JUMPED;
	}
	return sh_illegal(c, w, i, NULL);
}

/* TRAPSTS: watch point 0 is EXCP bit 7, 1..3 are EXCP_HI 14:12 */
static uint32_t
watch_bit(unsigned int id)
{
	return id ? 1u << (11 + id) : 1u << 7;
}

/*
 * kgd_gfx_v9_set_address_watch(): bits 47:32 compare whole, bits 31:6
 * where the mask has them (the TCP watches 64-byte lines).
 */
static int
watch_match(const struct ksim_watch *p, uint64_t va)
{
	uint64_t m = (0xffff00000000ull | p->mask) & ~0x3full;

	return ((va ^ p->addr) & m) == 0;
}

void
sh_trap_watch(struct sh_ctx *c, struct sh_wave *w, const uint64_t *va, uint64_t exec,
	      int kind)
{
	const struct ksim_pdbg *d = c->cp->p->dbg;
	int gpu = c->cq->gpu;
	uint32_t ids;

	if (w->trap || !(launch_mask(c) & KFD_ABI_DBG_TRAP_MASK_DBG_ADDRESS_WATCH) ||
	    !sh_trap_handler(c))
		return;
	ids = __atomic_load_n(&d->watch_ids[gpu], __ATOMIC_ACQUIRE);
	for (unsigned int id = 0; id < KSIM_MAX_WATCH; id++) {
		const struct ksim_watch *p = &d->watch[gpu][id];

		if (!(ids & (1u << id)))
			continue;
		switch (p->mode) {
		case KFD_ABI_DBG_TRAP_ADDRESS_WATCH_MODE_READ:
			if (kind != 0)
				continue;
			break;
		case KFD_ABI_DBG_TRAP_ADDRESS_WATCH_MODE_NONREAD:
			if (kind == 0)
				continue;
			break;
		case KFD_ABI_DBG_TRAP_ADDRESS_WATCH_MODE_ATOMIC:
			if (kind != 2)
				continue;
			break;
		}
		for (unsigned int l = 0; l < SH_LANES; l++)
			if ((exec >> l) & 1 && watch_match(p, va[l])) {
				w->watch_hit |= watch_bit(id);
				break;
			}
	}
}

enum sh_step
sh_trap_after_mem(struct sh_ctx *c, struct sh_wave *w, const struct sh_insn *i,
		  enum sh_step s)
{
	uint32_t hit = w->watch_hit;

	w->watch_hit = 0;
	if (!hit || s != SH_NEXT)
		return s;
	w->pc += i->in->length;
	return sh_trap_enter(c, w, 0, hit);
}

/*
 * Float exceptions. The override's trap mask bits 0..5 are MODE.EXCP_EN's
 * and TRAPSTS.EXCP's: invalid, input denormal, divide by zero, overflow,
 * underflow, inexact. The interpreter computes a lane's float result
 * with the host's IEEE arithmetic, which raises the same flags (input
 * denormal has none: it never traps here).
 */
#define EXCP_FLOAT_MASK		0x3du

uint32_t
sh_trap_math_mask(const struct sh_ctx *c)
{
	if (!sh_trap_debugged(c))
		return 0;
	return launch_mask(c) & EXCP_FLOAT_MASK;
}

int
sh_trap_math_begin(struct sh_ctx *c, const struct sh_insn *i)
{
	(void)c;
	switch (i->in->f.enc) {
	case KFD_ISA_VOP2: case KFD_ISA_VOP1: case KFD_ISA_VOPC: case KFD_ISA_VOP3:
	case KFD_ISA_VOP3P:
		feclearexcept(FE_ALL_EXCEPT);
		return 1;
	default:
		return 0;
	}
}

enum sh_step
sh_trap_math_end(struct sh_ctx *c, struct sh_wave *w, const struct sh_insn *i,
		 enum sh_step s)
{
	int fe = fetestexcept(FE_ALL_EXCEPT);
	uint32_t bits = (fe & FE_INVALID ? 1u << 0 : 0) | (fe & FE_DIVBYZERO ? 1u << 2 : 0) |
			(fe & FE_OVERFLOW ? 1u << 3 : 0) | (fe & FE_UNDERFLOW ? 1u << 4 : 0) |
			(fe & FE_INEXACT ? 1u << 5 : 0);

	(void)i;
	bits &= c->math_traps;
	if (s != SH_NEXT || !bits || w->trap)
		return s;
	/* the pc is the next instruction's already */
	if (sh_trap_handler(c))
		return sh_trap_enter(c, w, 0, bits);
	cp_log(c->cp, "queue %u: wave %u: float exception 0x%x: halted for the "
	       "debugger", c->cq->qid, w->id, bits);
	cp_wave_exception(c->cp, c->cq->q, KFD_ABI_EC_MASK(KFD_ABI_EC_QUEUE_WAVE_MATH_ERROR));
	w->state = SH_END;
	c->halted = 1;
	return SH_STOP;
}

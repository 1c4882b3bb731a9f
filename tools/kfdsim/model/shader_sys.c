/* SPDX-License-Identifier: MIT */
/*
 * What a wave asks of the machine around it: messages (s_sendmsg), traps
 * (s_trap), clocks (s_memtime, s_memrealtime), hardware registers
 * (s_getreg_b32), cache control, and sleep.
 *
 * MSG_INTERRUPT is the SQ's interrupt: the kernel takes the low 24 bits of
 * M0 as the event id (kfd_signal_event_interrupt with 24 valid bits), and
 * sets that signal event, or every signaled one when the id names none,
 * as for the CP's end-of-pipe interrupt. Device printf (the hostcall
 * protocol) uses it to wake the runtime's listener thread.
 *
 * s_sleep ends the wave's turn and the dispatch yields the engine (with
 * the device lock) until the next pass: a wave that polls memory the host
 * writes (a hostcall's answer) would otherwise hold the host out for good.
 *
 * s_trap follows the trap handler ABI (AMDGPUUsage, "Trap Handler ABI"):
 * llvm.debugtrap (trap id 3) is a no-op without a debugger; llvm.trap
 * (id 2, what assert() and abort() become) and any other id halt the
 * wave and put its queue in error. ROCr installs a trap handler
 * (SET_TRAP_HANDLER); its report is the queue-inactive signal's debug
 * trap bit, or EC_QUEUE_WAVE_TRAP to a runtime with exception reporting.
 * Without a second-level handler the KFD's own handler only halts the
 * wave: the dispatch then never ends, as on hardware. With a debugger
 * attached the wave runs the second-level handler, or without one halts
 * with EC_QUEUE_WAVE_TRAP raised for the debugger (shader_trap.c).
 */
#include <stdio.h>

#include "shader_priv.h"

/* s_sendmsg message ids (bits 3:0 of the immediate) */
#define MSG_INTERRUPT		1
#define MSG_GS			2
#define MSG_GS_DONE		3
#define MSG_SAVEWAVE		4
#define MSG_STALL_WAVE_GEN	5
#define MSG_ORDERED_PS_DONE	7
#define MSG_GS_ALLOC_REQ	9
#define MSG_GET_DOORBELL	10

/* s_trap ids (AMDGPUUsage) */
#define TRAP_DEBUGTRAP		3

/* s_getreg_b32 registers */
#define HW_REG_STATUS		2
#define HW_REG_HW_ID		4
#define HW_REG_LDS_ALLOC	6
#define HW_REG_IB_STS		7
#define HW_REG_SH_MEM_BASES	15

static enum sh_step
sendmsg(struct sh_ctx *c, struct sh_wave *w, const struct sh_insn *i, int halt)
{
	uint32_t imm = i->in->f.words[0] & 0xffff, id = w->s[SH_M0] & 0xffffff;

	/* the trap handler's messages are privileged (shader_trap.c) */
	if (w->trap && ((imm & 0xf) == MSG_INTERRUPT || (imm & 0xf) == MSG_GET_DOORBELL))
		return sh_trap_sendmsg(c, w, imm & 0xf);
	switch (imm & 0xf) {
	case MSG_INTERRUPT:
		if (!ksim_event_eop_interrupt(c->cp->p, id))
			cp_log(c->cp, "queue %u: a wave's interrupt (event %u) set "
			       "no event", c->cq->qid, id);
		break;
	/* graphics' messages and wave saving: nothing a compute queue shows */
	case MSG_GS: case MSG_GS_DONE: case MSG_SAVEWAVE: case MSG_STALL_WAVE_GEN:
	case MSG_ORDERED_PS_DONE: case MSG_GS_ALLOC_REQ:
		break;
	default:
		return sh_illegal(c, w, i, "this message");
	}
	if (!halt)
		return SH_NEXT;
	/* s_sendmsghalt: halted, as s_sethalt leaves the wave */
	w->state = SH_END;
	return SH_STOP;
}

static enum sh_step
trap(struct sh_ctx *c, struct sh_wave *w, const struct sh_insn *i)
{
	unsigned int tid = i->in->f.words[0] & 0xff;
	const struct ksim_pdd *pdd = &c->cp->p->pdds[c->cq->gpu];
	char at[64];

	/* a trap in the trap handler is not taken */
	if (w->trap)
		return SH_NEXT;
	if (sh_trap_handler(c))
		return sh_trap_enter(c, w, tid, 0);
	if (!pdd->tba && sh_trap_debugged(c))
		return sh_trap_halt(c, w, tid);
	if (tid == TRAP_DEBUGTRAP)
		return SH_NEXT;
	snprintf(at, sizeof(at), "pc 0x%llx", (unsigned long long)w->pc);
	if (!pdd->tba) {
		/* the KFD's handler alone: halted, and nobody is told */
		cp_warn(c->cp, "queue %u: a wave trapped (s_trap %u) at %s with no "
			"trap handler installed: the wave halts and the dispatch "
			"never ends", c->cq->qid, tid, at);
		w->state = SH_END;
		c->halted = 1;
		return SH_STOP;
	}
	c->ec = KFD_ABI_EC_QUEUE_WAVE_TRAP;
	c->code = CP_ERR_TRAP;
	c->detail = w->pc;
	snprintf(c->why, sizeof(c->why), "wave %u of work-group (%u,%u,%u): s_trap %u at %s",
		 w->id, c->wgid[0], c->wgid[1], c->wgid[2], tid, at);
	return SH_FAIL;
}

/* s_memtime and s_memrealtime: the GPU's clock, as the host reads it. */
static enum sh_step
memtime(struct sh_ctx *c, struct sh_wave *w, const struct sh_insn *i)
{
	unsigned int sdata = (i->in->f.words[0] >> 6) & 0x7f;
	uint64_t t = cp_gpu_clock(c->cp->dev, c->cq->gpu);

	/* a trap handler (privileged) may write its ttmp registers */
	if (sdata + 1 >= SH_VCC &&
	    !(w->trap && sdata >= SH_TTMP && sdata + 1 < SH_TTMP + 16))
		return sh_illegal(c, w, i, "destination");
	sh_set_sreg64(w, sdata, t);
	return SH_NEXT;
}

static enum sh_step
getreg(struct sh_ctx *c, struct sh_wave *w, const struct sh_insn *i)
{
	uint32_t w0 = i->in->f.words[0];
	unsigned int sdst = (w0 >> 16) & 0x7f, id = w0 & 0x3f, off = (w0 >> 6) & 0x1f;
	unsigned int size = ((w0 >> 11) & 0x1f) + 1;
	uint32_t v;

	switch (id) {
	case HW_REG_STATUS:
		/* SCC (bit 0), EXECZ (9), VCCZ (10), IN_BARRIER (13) */
		v = (uint32_t)w->scc | (sh_exec(w) ? 0 : 1u << 9) |
		    (sh_sreg64(w, SH_VCC) ? 0 : 1u << 10);
		break;
	case HW_REG_HW_ID:
		/* WAVE_ID 3:0; the rest (SIMD, CU, SE, VMID...) 0: one CU */
		v = w->id & 0xf;
		break;
	case HW_REG_LDS_ALLOC: case HW_REG_IB_STS:
		v = 0;
		break;
	case HW_REG_SH_MEM_BASES:
		v = sh_mem_bases(c);
		break;
	default:
		if (sh_trap_getreg(w, id, &v))
			return sh_illegal(c, w, i, "this hardware register");
	}
	v >>= off;
	if (size < 32)
		v &= (1u << size) - 1;
	if (sdst < SH_VCC)
		w->s[sdst] = v;
	else if (sdst == SH_M0 || (sdst >= SH_TTMP && sdst < SH_M0))
		w->s[sdst] = v;
	else
		return sh_illegal(c, w, i, "destination");
	return SH_NEXT;
}

int
sh_cmpswap_x2(struct sh_ctx *c, uint64_t va, const uint32_t *data, uint64_t *old)
{
	uint64_t src = data[0] | (uint64_t)data[1] << 32, cmp = data[2] | (uint64_t)data[3] << 32;
	uint64_t *p = va & 7 ? NULL : cp_mem_w(c->cp, c->cq, va, 8);

	/* the hostcall buffer's lists: the host takes and gives with CAS too */
	if (p) {
		*old = cmp;
		__atomic_compare_exchange_n(p, old, src, 0, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);
		return 0;
	}
	if (cp_mem_rw(c->cp, c->cq, va, old, 8, 0))
		return -1;
	if (*old == cmp && cp_mem_rw(c->cp, c->cq, va, &src, 8, 1))
		return -1;
	return 0;
}

enum sh_step
sh_sleep(struct sh_ctx *c, struct sh_wave *w, const struct sh_insn *i)
{
	(void)c;
	w->pc += i->in->length;
	w->state = SH_YIELD;
	return SH_STOP;
}

enum sh_step
sh_sys(struct sh_ctx *c, struct sh_wave *w, const struct sh_insn *i)
{
	switch (i->id) {
	case SH_OP_S_SENDMSG: return sendmsg(c, w, i, 0);
	case SH_OP_S_SENDMSGHALT: return sendmsg(c, w, i, 1);
	case SH_OP_S_TRAP: return trap(c, w, i);
	case SH_OP_S_MEMTIME: case SH_OP_S_MEMREALTIME: return memtime(c, w, i);
	case SH_OP_S_GETREG_B32: return getreg(c, w, i);
	/* the model's memory is coherent: caches have nothing to do */
	case SH_OP_S_ICACHE_INV: case SH_OP_BUFFER_WBL2: case SH_OP_BUFFER_INVL2:
	case SH_OP_BUFFER_WBINVL1: case SH_OP_BUFFER_WBINVL1_VOL:
	/* no thread trace to receive M0 */
	case SH_OP_S_TTRACEDATA:
		return SH_NEXT;
	default:
		return sh_illegal(c, w, i, NULL);
	}
}

/* SPDX-License-Identifier: MIT */
/*
 * The doorbell store that traps (submit.c): the recorder's SIGSEGV handler
 * calls kcap_submit_trap() first. A write fault in a write-protected
 * shadow doorbell page is a doorbell being rung: the faulting instruction
 * is decoded (x86-64: the stores a runtime rings with), the value taken
 * from the registers, the store done by kcap_submit_trap_store() (which
 * records and forwards), and the program resumes after the instruction.
 * So the ringing thread records its own packets, synchronously, and no
 * thread polls.
 *
 * Emulating the store, rather than unprotecting the page and stepping
 * over it, keeps the page armed the whole time: threads that ring at once
 * each trap, and none slips a store through an open window. It costs one
 * signal delivery per doorbell. A store the decoder does not know disarms
 * its page (said once on stderr): nothing is lost, the program's next KFD
 * call records its doorbells, flagged LATE.
 *
 * Decoded: MOV r/m,r (88, 89), MOV r/m,imm (C6, C7), XCHG r/m,r (87),
 * MOVNTI (0F C3), MOVQ/MOVD from an XMM register (66 0F D6, 66 0F 7E, and
 * their VEX forms), with operand-size, REX, LOCK and segment prefixes.
 */
#include "capture.h"

#include <string.h>
#include <ucontext.h>

#if defined(__x86_64__)

enum trap_kind {
	TRAP_REG,		/* a general register's low bytes */
	TRAP_HIGH8,		/* AH, CH, DH or BH (no REX) */
	TRAP_IMM,		/* an immediate */
	TRAP_XCHG,		/* a register, which gets the old value */
	TRAP_XMM,		/* an XMM register's low bytes */
};

struct trap_insn {
	unsigned int len;	/* bytes of the instruction */
	unsigned int width;	/* bytes stored */
	enum trap_kind kind;
	unsigned int reg;	/* ModRM.reg with REX.R / VEX.R */
	int64_t imm;
};

/* ModRM register numbers to ucontext's general registers. */
static const int greg_of[16] = {
	REG_RAX, REG_RCX, REG_RDX, REG_RBX, REG_RSP, REG_RBP, REG_RSI, REG_RDI,
	REG_R8, REG_R9, REG_R10, REG_R11, REG_R12, REG_R13, REG_R14, REG_R15,
};

/* The memory operand after the opcode: ModRM, SIB, displacement. */
static int
operand(const uint8_t *c, unsigned int *i, unsigned int rex_r, unsigned int *reg)
{
	uint8_t modrm = c[(*i)++];
	unsigned int mod = modrm >> 6, rm = modrm & 7;

	if (mod == 3)
		return -1;		/* a register: no store to memory */
	*reg = ((modrm >> 3) & 7) | rex_r;
	if (rm == 4) {
		uint8_t sib = c[(*i)++];

		if (mod == 0 && (sib & 7) == 5)
			*i += 4;
	}
	if (mod == 0 && rm == 5)
		*i += 4;		/* RIP-relative */
	else if (mod == 1)
		*i += 1;
	else if (mod == 2)
		*i += 4;
	return 0;
}

/* A VEX-encoded VMOVD/VMOVQ store from an XMM register. */
static int
decode_vex(const uint8_t *c, unsigned int i, struct trap_insn *in)
{
	unsigned int r, w = 0, pp, map = 1, op;

	if (c[i] == 0xc5) {
		r = c[i + 1] & 0x80 ? 0 : 8;
		pp = c[i + 1] & 3;
		i += 2;
	} else {
		r = c[i + 1] & 0x80 ? 0 : 8;
		map = c[i + 1] & 0x1f;
		w = c[i + 2] >> 7;
		pp = c[i + 2] & 3;
		i += 3;
	}
	op = c[i++];
	if (map != 1 || pp != 1 || (op != 0xd6 && op != 0x7e))
		return -1;
	in->kind = TRAP_XMM;
	in->width = op == 0xd6 || w ? 8 : 4;
	if (operand(c, &i, r, &in->reg) < 0)
		return -1;
	in->len = i;
	return 0;
}

/* Decode the store at @c. Return: 0, or -1 for one we do not know. */
static int
decode(const uint8_t *c, struct trap_insn *in)
{
	unsigned int i, rex = 0, opsize = 0, op, n;

	memset(in, 0, sizeof(*in));
	for (i = 0; i < 4; i++) {
		if (c[i] == 0x66)
			opsize = 1;
		else if (c[i] != 0xf0 && c[i] != 0x2e && c[i] != 0x3e &&
			 c[i] != 0x26 && c[i] != 0x36 && c[i] != 0x64 && c[i] != 0x65)
			break;
	}
	if (c[i] == 0xc4 || c[i] == 0xc5)
		return decode_vex(c, i, in);
	if ((c[i] & 0xf0) == 0x40)
		rex = c[i++];
	n = rex & 8 ? 8 : opsize ? 2 : 4;
	op = c[i++];
	switch (op) {
	case 0x88:
		in->kind = TRAP_REG;
		in->width = 1;
		break;
	case 0x89:
		in->kind = TRAP_REG;
		in->width = n;
		break;
	case 0x87:
		in->kind = TRAP_XCHG;
		in->width = n;
		break;
	case 0xc6:
	case 0xc7:
		in->kind = TRAP_IMM;
		in->width = op == 0xc6 ? 1 : n;
		break;
	case 0x0f:
		op = c[i++];
		if (op == 0xc3) {
			in->kind = TRAP_REG;
			in->width = rex & 8 ? 8 : 4;
		} else if ((op == 0xd6 || op == 0x7e) && opsize) {
			in->kind = TRAP_XMM;
			in->width = op == 0xd6 || (rex & 8) ? 8 : 4;
		} else {
			return -1;
		}
		break;
	default:
		return -1;
	}
	if (operand(c, &i, rex & 4 ? 8 : 0, &in->reg) < 0)
		return -1;
	if (in->kind == TRAP_IMM) {
		if ((in->reg & 7) != 0)
			return -1;
		if (in->width == 1)
			in->imm = (int8_t)c[i++];
		else if (in->width == 2) {
			int16_t v;

			memcpy(&v, c + i, 2);
			in->imm = v;
			i += 2;
		} else {
			int32_t v;

			memcpy(&v, c + i, 4);
			in->imm = v;	/* sign-extended to 64 bits */
			i += 4;
		}
	}
	/* Byte registers 4-7 without REX are AH, CH, DH, BH. */
	if (in->width == 1 && in->kind == TRAP_REG && !rex && in->reg >= 4) {
		in->kind = TRAP_HIGH8;
		in->reg -= 4;
	}
	in->len = i;
	return 0;
}

static int
value(const struct trap_insn *in, const ucontext_t *uc, uint64_t *v)
{
	switch (in->kind) {
	case TRAP_REG:
	case TRAP_XCHG:
		*v = (uint64_t)uc->uc_mcontext.gregs[greg_of[in->reg]];
		return 0;
	case TRAP_HIGH8:
		*v = (uint64_t)uc->uc_mcontext.gregs[greg_of[in->reg]] >> 8;
		return 0;
	case TRAP_IMM:
		*v = (uint64_t)in->imm;
		return 0;
	case TRAP_XMM:
		if (!uc->uc_mcontext.fpregs)
			return -1;
		memcpy(v, &uc->uc_mcontext.fpregs->_xmm[in->reg], 8);
		return 0;
	}
	return -1;
}

/* XCHG: the register gets what memory held, as the CPU would do it. */
static void
exchange(const struct trap_insn *in, ucontext_t *uc, uint64_t old)
{
	greg_t *r = &uc->uc_mcontext.gregs[greg_of[in->reg]];

	if (in->width == 8)
		*r = (greg_t)old;
	else if (in->width == 4)
		*r = (greg_t)(uint32_t)old;	/* 32-bit writes zero the top */
	else
		*r = (greg_t)(((uint64_t)*r & ~0xffffull) | (old & 0xffff));
}

/* Stack a record needs (the ring copy, the encoder), with room to spare. */
#define TRAP_STACK_NEED (24u << 10)

/*
 * Whether the handler has the stack to record: not when it runs on the
 * program's signal stack (sigaltstack) and that has less left.
 */
static int
stack_room(const ucontext_t *uc)
{
	uintptr_t sp = (uintptr_t)__builtin_frame_address(0);
	uintptr_t lo = (uintptr_t)uc->uc_stack.ss_sp;

	if ((uc->uc_stack.ss_flags & SS_DISABLE) || !uc->uc_stack.ss_size ||
	    sp < lo || sp >= lo + uc->uc_stack.ss_size)
		return 1;
	return sp - lo >= TRAP_STACK_NEED;
}

int
kcap_submit_trap(int sig, siginfo_t *info, void *ucv)
{
	ucontext_t *uc = ucv;
	struct trap_insn in;
	uint64_t v, old = 0;
	int may_record;

	if (sig != SIGSEGV || !info || !uc || info->si_code != SEGV_ACCERR ||
	    !kcap_submit_owns(info->si_addr))
		return 0;
	/* Bit 1 of the page fault error code: a write. */
	if (!(uc->uc_mcontext.gregs[REG_ERR] & 2))
		return 0;
	/*
	 * The instruction just faulted on its data, so its bytes were
	 * fetched: they are readable (no execute-only pages here).
	 */
	if (decode((const uint8_t *)uc->uc_mcontext.gregs[REG_RIP], &in) < 0 ||
	    value(&in, uc, &v) < 0 || in.width > 8) {
		kcap_submit_trap_disarm(info->si_addr,
					"a doorbell store the capture cannot decode");
		return 1;	/* it runs again, untrapped */
	}
	/*
	 * On a signal stack (sigaltstack) with little room left, recording
	 * might not fit: forward only, a later sweep records it.
	 */
	may_record = stack_room(uc);
	/*
	 * SIGSEGV is blocked while its handler runs, and a fault then would
	 * kill: the copies of the ring (safecopy.h) need it open. Returning
	 * restores the program's mask.
	 */
	if (may_record) {
		sigset_t segv;

		sigemptyset(&segv);
		sigaddset(&segv, SIGSEGV);
		pthread_sigmask(SIG_UNBLOCK, &segv, NULL);
	}
	if (!kcap_submit_trap_store(info->si_addr, in.width, v,
				    in.kind == TRAP_XCHG ? &old : NULL, may_record))
		return 0;
	if (in.kind == TRAP_XCHG)
		exchange(&in, uc, old);
	uc->uc_mcontext.gregs[REG_RIP] += in.len;
	return 1;
}

#else	/* not x86-64: doorbell pages are never armed (submit.c) */

int
kcap_submit_trap(int sig, siginfo_t *info, void *uc)
{
	(void)sig;
	(void)info;
	(void)uc;
	return 0;
}

#endif

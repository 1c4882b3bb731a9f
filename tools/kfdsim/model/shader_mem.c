/* SPDX-License-Identifier: MIT */
/*
 * Memory instructions: scalar loads (SMEM), FLAT and GLOBAL loads, stores
 * and atomics through the queue's GPU VM (cp_mem.c, as the SDMA engine
 * reaches memory), MUBUF through a buffer resource, and DS on the
 * workgroup's LDS. Accesses complete before the next instruction, so
 * s_waitcnt has nothing to wait for. FLAT addresses are taken as global:
 * a generic pointer into LDS or scratch is not modelled.
 * Scalar stores (SMEM) address memory as scalar loads do.
 */
#include <stddef.h>
#include <string.h>

#include "shader_priv.h"

/* Memory the CPU cannot point at (SVM, VRAM nobody mapped) moves through
 * a buffer this large, one copy per instruction when the lanes are dense. */
#define SH_SPAN_BUF	(SH_LANES * 16)

/* Bytes and sign of each load or store row. */
static unsigned int
access_size(unsigned int id, int *sign)
{
	*sign = 0;
	switch (id) {
	case SH_OP_GLOBAL_LOAD_SBYTE: *sign = 1; return 1;
	case SH_OP_GLOBAL_LOAD_SSHORT: *sign = 1; return 2;
	case SH_OP_GLOBAL_LOAD_UBYTE: case SH_OP_GLOBAL_STORE_BYTE:
	case SH_OP_BUFFER_LOAD_UBYTE: case SH_OP_BUFFER_STORE_BYTE:
	case SH_OP_DS_WRITE_B8: case SH_OP_DS_READ_U8:
		return 1;
	case SH_OP_GLOBAL_LOAD_USHORT: case SH_OP_GLOBAL_STORE_SHORT:
	case SH_OP_BUFFER_LOAD_USHORT: case SH_OP_BUFFER_STORE_SHORT:
	case SH_OP_DS_WRITE_B16: case SH_OP_DS_READ_U16:
		return 2;
	}
	return 0;
}

static int
is_load(unsigned int id)
{
	return (id >= SH_OP_GLOBAL_LOAD_UBYTE && id <= SH_OP_GLOBAL_LOAD_DWORDX4) ||
	       (id >= SH_OP_BUFFER_LOAD_UBYTE && id <= SH_OP_BUFFER_LOAD_DWORDX4);
}

static int
is_store(unsigned int id)
{
	return (id >= SH_OP_GLOBAL_STORE_BYTE && id <= SH_OP_GLOBAL_STORE_DWORDX4) ||
	       (id >= SH_OP_BUFFER_STORE_BYTE && id <= SH_OP_BUFFER_STORE_DWORDX4);
}

static enum sh_step
smem(struct sh_ctx *c, struct sh_wave *w, const struct sh_insn *i)
{
	const struct kfd_isa_fields *f = &i->in->f;
	uint32_t w0 = f->words[0], w1 = f->words[1];
	unsigned int sbase = (w0 & 0x3f) * 2, sdata = (w0 >> 6) & 0x7f, n = f->dst_dwords;
	uint64_t base = sh_sreg64(w, sbase), off;
	uint32_t buf[16];
	const void *p;

	if (i->id < SH_OP_S_LOAD_DWORD || i->id > SH_OP_S_BUFFER_LOAD_DWORDX16)
		return i->id == SH_OP_S_DCACHE_WB || i->id == SH_OP_S_DCACHE_INV ?
		       SH_NEXT : sh_illegal(c, w, i, NULL);
	/* gfx10: a signed 21-bit offset (the decoder takes no SGPR one) */
	if (sh_gen10(c))
		off = (uint64_t)(int64_t)((int32_t)(w1 << 11) >> 11);
	else if ((w0 >> 14) & 1)	/* soe: an SGPR, plus the immediate if imm */
		off = w->s[(w1 >> 25) & 0x7f] +
		      ((w0 >> 17) & 1 ? (uint64_t)(int64_t)((int32_t)(w1 << 11) >> 11) : 0);
	else if ((w0 >> 17) & 1)
		off = (uint64_t)(int64_t)((int32_t)(w1 << 11) >> 11);
	else
		off = w->s[w1 & 0x7f];
	if (i->id >= SH_OP_S_BUFFER_LOAD_DWORD) {
		uint32_t records = w->s[sbase + 2];

		base &= 0xffffffffffffull;
		/* out of the buffer's range: zeros */
		if (off >= records) {
			memset(buf, 0, sizeof(buf));
			goto store;
		}
	}
	/* the CPU's view when there is one: a checked copy is a system call */
	p = cp_mem(c->cp, c->cq, (base + off) & ~3ull, n * 4ull);
	if (p)
		memcpy(buf, p, n * 4ull);
	else if (cp_mem_rw(c->cp, c->cq, (base + off) & ~3ull, buf, n * 4ull, 0))
		return sh_fault(c, w, base + off, "scalar load");
store:
	for (unsigned int k = 0; k < n && sdata + k < 128; k++)
		w->s[sdata + k] = buf[k];
	return SH_NEXT;
}

/*
 * The view of the bytes one instruction's lanes touch: when they lie in
 * one mapping the CPU reaches, a pointer for all of them (one lookup per
 * instruction, not per lane); else every lane goes through cp_mem_rw().
 */
struct span {
	uint8_t *p;
	uint64_t lo, hi;
	int dense;		/* the lanes, in order, cover [lo, hi) once */
	int buffered;		/* a load: @buf holds [lo, hi) */
	uint8_t buf[SH_SPAN_BUF];
};

static void
span_open(struct sh_ctx *c, struct span *sp, const uint64_t *va, uint64_t exec,
	  unsigned int bytes, int write)
{
	uint64_t lo = UINT64_MAX, hi = 0, next = 0;
	int first = 1;

	sp->p = NULL;
	sp->dense = 1;
	sp->buffered = 0;
	for (unsigned int l = 0; l < SH_LANES; l++) {
		if (!((exec >> l) & 1))
			continue;
		if (!first && va[l] != next)
			sp->dense = 0;
		first = 0;
		next = va[l] + bytes;
		if (va[l] < lo)
			lo = va[l];
		if (va[l] + bytes > hi)
			hi = va[l] + bytes;
	}
	if (!exec || hi - lo > (1u << 20))
		return;
	sp->p = write ? cp_mem_w(c->cp, c->cq, lo, hi - lo) : cp_mem(c->cp, c->cq, lo, hi - lo);
	sp->lo = lo;
	sp->hi = hi;
	sp->dense = sp->dense && hi - lo <= SH_SPAN_BUF;
	if (!sp->p && !write && sp->dense &&
	    !cp_mem_rw(c->cp, c->cq, lo, sp->buf, hi - lo, 0))
		sp->buffered = 1;
}

static int
mem_rw(struct sh_ctx *c, const struct span *sp, uint64_t va, void *buf, unsigned int n,
       int write)
{
	if (sp && sp->p && va >= sp->lo && va + n <= sp->hi) {
		if (write)
			memcpy(sp->p + (va - sp->lo), buf, n);
		else
			memcpy(buf, sp->p + (va - sp->lo), n);
		return 0;
	}
	if (sp && sp->buffered && !write && va >= sp->lo && va + n <= sp->hi) {
		memcpy(buf, sp->buf + (va - sp->lo), n);
		return 0;
	}
	return cp_mem_rw(c->cp, c->cq, va, buf, n, write);
}

/* What the atomic @id leaves in memory that held @m. Return: 0, or -2
 * for an operation not modelled. */
static int
atomic_value(unsigned int id, uint64_t m, const uint32_t *data, uint64_t *out)
{
	uint64_t r;
	float x;

	switch (id) {
	case SH_OP_GLOBAL_ATOMIC_ADD: r = (uint32_t)m + data[0]; break;
	case SH_OP_GLOBAL_ATOMIC_SUB: r = (uint32_t)m - data[0]; break;
	case SH_OP_GLOBAL_ATOMIC_SWAP: r = data[0]; break;
	case SH_OP_GLOBAL_ATOMIC_CMPSWAP: r = (uint32_t)m == data[1] ? data[0] : m; break;
	case SH_OP_GLOBAL_ATOMIC_UMAX: r = (uint32_t)m > data[0] ? m : data[0]; break;
	case SH_OP_GLOBAL_ATOMIC_UMIN: r = (uint32_t)m < data[0] ? m : data[0]; break;
	case SH_OP_GLOBAL_ATOMIC_SMAX:
		r = (int32_t)m > (int32_t)data[0] ? m : data[0];
		break;
	case SH_OP_GLOBAL_ATOMIC_SMIN:
		r = (int32_t)m < (int32_t)data[0] ? m : data[0];
		break;
	case SH_OP_GLOBAL_ATOMIC_AND: r = m & data[0]; break;
	case SH_OP_GLOBAL_ATOMIC_OR: r = m | data[0]; break;
	case SH_OP_GLOBAL_ATOMIC_XOR: r = m ^ data[0]; break;
	case SH_OP_GLOBAL_ATOMIC_INC: r = (uint32_t)m >= data[0] ? 0 : (uint32_t)m + 1; break;
	case SH_OP_GLOBAL_ATOMIC_DEC:
		r = (uint32_t)m == 0 || (uint32_t)m > data[0] ? data[0] : (uint32_t)m - 1;
		break;
	case SH_OP_GLOBAL_ATOMIC_ADD_X2: r = m + ((uint64_t)data[1] << 32 | data[0]); break;
	case SH_OP_GLOBAL_ATOMIC_ADD_F32: {
		uint32_t mm = (uint32_t)m, d = data[0];
		float a, b;

		memcpy(&a, &mm, 4);
		memcpy(&b, &d, 4);
		x = a + b;
		memcpy(&mm, &x, 4);
		r = mm;
		break;
	}
	default:
		return -2;
	}
	*out = r;
	return 0;
}

/* An atomic on 4 (or 8) bytes at @va; *@old gets the value before. */
static int
atomic(struct sh_ctx *c, const struct span *sp, unsigned int id, uint64_t va,
       const uint32_t *data, uint64_t *old)
{
	unsigned int n = id == SH_OP_GLOBAL_ATOMIC_ADD_X2 ? 8 : 4;
	uint64_t m = 0, r;
	int rc;

	/*
	 * Memory the CPU shares: a compare-and-swap of the host's, so the
	 * CPU's own atomics on the same word are not lost (kfdtest's
	 * Atomics increments one counter from both).
	 */
	if (sp && sp->p && va >= sp->lo && va + n <= sp->hi && !(va & (n - 1))) {
		void *p = sp->p + (va - sp->lo);

		if (n == 8) {
			m = __atomic_load_n((uint64_t *)p, __ATOMIC_ACQUIRE);
			do {
				if ((rc = atomic_value(id, m, data, &r)))
					return rc;
			} while (!__atomic_compare_exchange_n((uint64_t *)p, &m, r, 0,
							      __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE));
		} else {
			uint32_t m32 = __atomic_load_n((uint32_t *)p, __ATOMIC_ACQUIRE);

			do {
				if ((rc = atomic_value(id, m32, data, &r)))
					return rc;
			} while (!__atomic_compare_exchange_n((uint32_t *)p, &m32, (uint32_t)r, 0,
							      __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE));
			m = m32;
		}
		*old = m;
		return 0;
	}
	if (mem_rw(c, sp, va, &m, n, 0))
		return -1;
	*old = m;
	if ((rc = atomic_value(id, m, data, &r)))
		return rc;
	return mem_rw(c, sp, va, &r, n, 1);
}

/*
 * One lane's access of @bytes at @va: a load into VGPRs @reg.., a store
 * from them, or an atomic. @valid 0: out of a buffer's range (loads read
 * zeros, stores and atomics are dropped).
 */
static enum sh_step
lane_access(struct sh_ctx *c, const struct span *sp, struct sh_wave *w,
	    const struct sh_insn *i, unsigned int l, uint64_t va, int valid,
	    unsigned int reg, unsigned int data, int glc)
{
	const struct kfd_isa_fields *f = &i->in->f;
	int sign;
	unsigned int sub = access_size(i->id, &sign);
	unsigned int n = is_load(i->id) ? f->dst_dwords : f->src_dwords[0];
	uint32_t buf[4] = { 0 };

	if (is_load(i->id)) {
		if (valid && mem_rw(c, sp, va, buf, sub ? sub : n * 4u, 0))
			return sh_fault(c, w, va, "vector load");
		if (sub == 1)
			buf[0] = sign ? (uint32_t)(int32_t)(int8_t)buf[0] : buf[0] & 0xff;
		else if (sub == 2)
			buf[0] = sign ? (uint32_t)(int32_t)(int16_t)buf[0] : buf[0] & 0xffff;
		for (unsigned int k = 0; k < n; k++)
			w->v[(reg + k) % SH_VGPRS][l] = buf[k];
		return SH_NEXT;
	}
	for (unsigned int k = 0; k < n && k < 4; k++)
		buf[k] = w->v[(data + k) % SH_VGPRS][l];
	if (is_store(i->id)) {
		if (valid && mem_rw(c, sp, va, buf, sub ? sub : n * 4u, 1))
			return sh_fault_write(c, w, va, "vector store");
		return SH_NEXT;
	}
	if (i->id == SH_OP_GLOBAL_ATOMIC_CMPSWAP_X2) {
		uint64_t old = 0;

		if (valid && sh_cmpswap_x2(c, va, buf, &old))
			return sh_fault(c, w, va, "vector atomic");
		if (glc) {
			w->v[reg % SH_VGPRS][l] = (uint32_t)old;
			w->v[(reg + 1) % SH_VGPRS][l] = (uint32_t)(old >> 32);
		}
		return SH_NEXT;
	}
	if (i->id >= SH_OP_GLOBAL_ATOMIC_ADD && i->id <= SH_OP_GLOBAL_ATOMIC_ADD_F32) {
		uint64_t old = 0;
		int r = valid ? atomic(c, sp, i->id, va, buf, &old) : 0;

		if (r == -2)
			return sh_illegal(c, w, i, NULL);
		if (r)
			return sh_fault_write(c, w, va, "vector atomic");
		if (glc) {
			w->v[reg % SH_VGPRS][l] = (uint32_t)old;
			if (f->dst_dwords == 2)
				w->v[(reg + 1) % SH_VGPRS][l] = (uint32_t)(old >> 32);
		}
		return SH_NEXT;
	}
	return sh_illegal(c, w, i, NULL);
}

/* Bytes one lane's access moves. */
static unsigned int
lane_bytes(const struct sh_insn *i)
{
	int sign;
	unsigned int sub = access_size(i->id, &sign);

	if (sub)
		return sub;
	if (is_load(i->id))
		return i->in->f.dst_dwords * 4u;
	if (i->id == SH_OP_GLOBAL_ATOMIC_ADD_X2 || i->id == SH_OP_GLOBAL_ATOMIC_CMPSWAP_X2)
		return 8;
	return is_store(i->id) ? i->in->f.src_dwords[0] * 4u : 4u;
}

/*
 * A load or store of whole dwords whose lanes all lie in @sp's view: each
 * lane's dwords moved straight between the view and the VGPRs, without
 * the per-lane checks lane_access() makes. Return: 1 when done, else 0.
 */
static int
span_dwords(struct sh_ctx *c, struct sh_wave *w, const struct sh_insn *i,
	    const struct span *sp, const uint64_t *va, uint64_t exec, unsigned int vdst,
	    unsigned int data)
{
	int sign, load = is_load(i->id);
	const uint8_t *from = sp->p ? sp->p : sp->buffered ? sp->buf : NULL;
	unsigned int n = lane_bytes(i) / 4;

	if (!from || access_size(i->id, &sign) || (!load && !is_store(i->id)) ||
	    (!load && !sp->p))
		return 0;
	/* lane by lane, as lane_access(): of lanes whose stores overlap, the
	 * last lane's bytes stay */
	for (unsigned int l = 0; l < SH_LANES; l++) {
		if (!((exec >> l) & 1))
			continue;
		for (unsigned int k = 0; k < n; k++) {
			uint32_t *row = w->v[((load ? vdst : data) + k) % SH_VGPRS];

			if (load)
				memcpy(&row[l], from + (va[l] - sp->lo) + 4 * k, 4);
			else
				memcpy(sp->p + (va[l] - sp->lo) + 4 * k, &row[l], 4);
		}
	}
	c->lanes += (uint64_t)__builtin_popcountll(exec);
	return 1;
}

static enum sh_step
flat(struct sh_ctx *c, struct sh_wave *w, const struct sh_insn *i)
{
	const struct kfd_isa_fields *f = &i->in->f;
	uint32_t w0 = f->words[0], w1 = f->words[1];
	unsigned int seg = (w0 >> 14) & 3, saddr = (w1 >> 16) & 0x7f, addr = w1 & 0xff;
	unsigned int acc = ((w1 >> 23) & 1) * 256;
	unsigned int data = ((w1 >> 8) & 0xff) + acc, vdst = (w1 >> 24) + acc;
	int glc = (w0 >> 16) & 1;
	/* gfx10: 12-bit offsets (flat's bit 11 is 0); null is no SGPR base */
	int64_t off = sh_gen10(c) ? (int64_t)(w0 & 0xfff) - ((w0 & 0x800) ? 0x1000 : 0) :
		      seg == 0 ? (int64_t)(w0 & 0xfff) :
		      (int64_t)(w0 & 0x1fff) - ((w0 & 0x1000) ? 0x2000 : 0);
	unsigned int no_saddr = sh_gen10(c) ? SH_NULL : 0x7f;
	uint64_t exec = sh_exec(w), va[SH_LANES];
	struct span sp;
	enum sh_step s;

	/* private memory, and generic pointers into the apertures (the
	 * first active lane's address decides) */
	if ((seg == 1 || (seg == 0 && exec &&
			  sh_aperture(c, w->v[(addr + 1) % SH_VGPRS][__builtin_ctzll(exec)]))) &&
	    !sh_scratch_flat(c, w, i, &s))
		return s;
	if (i->id == SH_OP_GLOBAL_STORE_BYTE_D16_HI || i->id == SH_OP_GLOBAL_STORE_SHORT_D16_HI)
		return sh_store_d16_hi(c, w, i);
	for (unsigned int l = 0; l < SH_LANES; l++) {
		if (!((exec >> l) & 1))
			continue;
		if (seg == 2 && saddr != no_saddr)
			va[l] = sh_sreg64(w, saddr) + w->v[addr][l];
		else
			va[l] = (uint64_t)w->v[addr][l] |
				(uint64_t)w->v[(addr + 1) % SH_VGPRS][l] << 32;
		va[l] += (uint64_t)off;
	}
	if (c->lanewise) {
		/* no view: every lane through cp_mem_rw() */
		memset(&sp, 0, offsetof(struct span, buf));
	} else {
		span_open(c, &sp, va, exec, lane_bytes(i), !is_load(i->id));
	}
	if (span_dwords(c, w, i, &sp, va, exec, vdst, data))
		return SH_NEXT;
	if (!sp.p && sp.dense && is_store(i->id)) {
		unsigned int b = lane_bytes(i);

		for (unsigned int l = 0; l < SH_LANES; l++) {
			uint32_t d[4];

			if (!((exec >> l) & 1))
				continue;
			for (unsigned int k = 0; k < (b + 3) / 4; k++)
				d[k] = w->v[(data + k) % SH_VGPRS][l];
			memcpy(sp.buf + (va[l] - sp.lo), d, b);
		}
		if (!cp_mem_rw(c->cp, c->cq, sp.lo, sp.buf, sp.hi - sp.lo, 1)) {
			c->lanes += (uint64_t)__builtin_popcountll(exec);
			return SH_NEXT;
		}
	}
	for (unsigned int l = 0; l < SH_LANES; l++) {
		if (!((exec >> l) & 1))
			continue;
		s = lane_access(c, &sp, w, i, l, va[l], 1, vdst, data, glc);
		if (s != SH_NEXT)
			return s;
	}
	c->lanes += (uint64_t)__builtin_popcountll(exec);
	return SH_NEXT;
}

static enum sh_step
mubuf(struct sh_ctx *c, struct sh_wave *w, const struct sh_insn *i)
{
	const struct kfd_isa_fields *f = &i->in->f;
	uint32_t w0 = f->words[0], w1 = f->words[1];
	unsigned int offen = (w0 >> 12) & 1, idxen = (w0 >> 13) & 1;
	unsigned int vaddr = w1 & 0xff, acc = ((w1 >> 23) & 1) * 256;
	unsigned int vdata = ((w1 >> 8) & 0xff) + acc, r = ((w1 >> 16) & 0x1f) * 4;
	uint64_t base = sh_sreg64(w, r) & 0xffffffffffffull, exec = sh_exec(w);
	uint32_t stride = (w->s[r + 1] >> 16) & 0x3fff, records = w->s[r + 2];
	uint32_t soff, inst = w0 & 0xfff;
	enum sh_step s;

	/* ADD_TID_ENABLE: a swizzled resource, as the scratch one is */
	if ((w->s[r + 3] >> 23) & 1)
		return sh_scratch_mubuf(c, w, i);
	if (sh_src32(w, i, w1 >> 24, 0, &soff))
		return sh_illegal(c, w, i, "soffset");
	if ((w0 >> 16) & 1)
		return sh_illegal(c, w, i, "LDS-direct loads");
	for (unsigned int l = 0; l < SH_LANES; l++) {
		uint32_t index = 0, voff = 0;
		int valid;

		if (!((exec >> l) & 1))
			continue;
		if (idxen)
			index = w->v[vaddr][l];
		if (offen)
			voff = w->v[(vaddr + idxen) % SH_VGPRS][l];
		/* the range check of a raw (stride 0) or structured buffer */
		valid = stride ? index < records : (uint64_t)voff + inst < records;
		s = lane_access(c, NULL, w, i, l,
				base + soff + inst + voff + (uint64_t)index * stride,
				valid, vdata, vdata, (w0 >> 14) & 1);
		if (s != SH_NEXT)
			return s;
	}
	c->lanes += (uint64_t)__builtin_popcountll(exec);
	return SH_NEXT;
}

/* LDS bytes [a, a+n): in range, or NULL (reads zero, writes dropped). */
static uint8_t *
lds_at(struct sh_ctx *c, uint32_t a, unsigned int n)
{
	if ((uint64_t)a + n > c->lds_size)
		return NULL;
	return c->lds + a;
}

static void
lds_read(struct sh_ctx *c, struct sh_wave *w, unsigned int l, uint32_t a, unsigned int bytes,
	 unsigned int reg)
{
	uint32_t buf[4] = { 0 };
	uint8_t *p = lds_at(c, a, bytes);

	if (p)
		memcpy(buf, p, bytes);
	for (unsigned int k = 0; k < (bytes + 3) / 4; k++)
		w->v[(reg + k) % SH_VGPRS][l] = buf[k];
}

static void
lds_write(struct sh_ctx *c, struct sh_wave *w, unsigned int l, uint32_t a, unsigned int bytes,
	  unsigned int reg)
{
	uint32_t buf[4];
	uint8_t *p = lds_at(c, a, bytes);

	for (unsigned int k = 0; k < (bytes + 3) / 4; k++)
		buf[k] = w->v[(reg + k) % SH_VGPRS][l];
	if (p)
		memcpy(p, buf, bytes);
}

static enum sh_step
ds(struct sh_ctx *c, struct sh_wave *w, const struct sh_insn *i)
{
	const struct kfd_isa_fields *f = &i->in->f;
	uint32_t w0 = f->words[0], w1 = f->words[1];
	/* gfx10: bit 25 is the opcode's, gds is bit 17 */
	unsigned int off0 = w0 & 0xff, off1 = (w0 >> 8) & 0xff;
	unsigned int acc = sh_gen10(c) ? 0 : ((w0 >> 25) & 1) * 256;
	unsigned int addr = w1 & 0xff, d0 = ((w1 >> 8) & 0xff) + acc;
	unsigned int d1 = ((w1 >> 16) & 0xff) + acc, vdst = (w1 >> 24) + acc;
	uint32_t off = w0 & 0xffff;
	uint64_t exec = sh_exec(w);

	if (sh_gws_op(i->id))
		return sh_gws(c, w, i);
	if ((w0 >> (sh_gen10(c) ? 17 : 16)) & 1)
		return sh_illegal(c, w, i, "GDS");
	if (i->id == SH_OP_DS_NOP)
		return SH_NEXT;
	if (i->id >= SH_OP_XDS_FIRST && i->id <= SH_OP_XDS_LAST)
		return sh_ds_lane(c, w, i);
	if (sh_ds64_row(i->id))
		return sh_ds64(c, w, i);
	for (unsigned int l = 0; l < SH_LANES; l++) {
		uint32_t a = w->v[addr][l];

		if (!((exec >> l) & 1))
			continue;
		switch (i->id) {
		case SH_OP_DS_WRITE_B8: lds_write(c, w, l, a + off, 1, d0); break;
		case SH_OP_DS_WRITE_B16: lds_write(c, w, l, a + off, 2, d0); break;
		case SH_OP_DS_WRITE_B32: lds_write(c, w, l, a + off, 4, d0); break;
		case SH_OP_DS_WRITE_B64: lds_write(c, w, l, a + off, 8, d0); break;
		case SH_OP_DS_WRITE_B128: lds_write(c, w, l, a + off, 16, d0); break;
		case SH_OP_DS_WRITE2_B32:
			lds_write(c, w, l, a + off0 * 4, 4, d0);
			lds_write(c, w, l, a + off1 * 4, 4, d1);
			break;
		case SH_OP_DS_WRITE2_B64:
			lds_write(c, w, l, a + off0 * 8, 8, d0);
			lds_write(c, w, l, a + off1 * 8, 8, d1);
			break;
		case SH_OP_DS_READ_U8: lds_read(c, w, l, a + off, 1, vdst); break;
		case SH_OP_DS_READ_U16: lds_read(c, w, l, a + off, 2, vdst); break;
		case SH_OP_DS_READ_B32: lds_read(c, w, l, a + off, 4, vdst); break;
		case SH_OP_DS_READ_B64: lds_read(c, w, l, a + off, 8, vdst); break;
		case SH_OP_DS_READ_B128: lds_read(c, w, l, a + off, 16, vdst); break;
		case SH_OP_DS_READ2_B32:
			lds_read(c, w, l, a + off0 * 4, 4, vdst);
			lds_read(c, w, l, a + off1 * 4, 4, vdst + 1);
			break;
		case SH_OP_DS_READ2_B64:
			lds_read(c, w, l, a + off0 * 8, 8, vdst);
			lds_read(c, w, l, a + off1 * 8, 8, vdst + 2);
			break;
		case SH_OP_DS_ADD_U32: case SH_OP_DS_ADD_RTN_U32:
		case SH_OP_DS_ADD_F32: case SH_OP_DS_ADD_RTN_F32: {
			uint8_t *p = lds_at(c, a + off, 4);
			uint32_t m = 0, v = w->v[d0][l], r;
			float x, y;

			if (p)
				memcpy(&m, p, 4);
			if (i->id == SH_OP_DS_ADD_U32 || i->id == SH_OP_DS_ADD_RTN_U32) {
				r = m + v;
			} else {
				memcpy(&x, &m, 4);
				memcpy(&y, &v, 4);
				x += y;
				memcpy(&r, &x, 4);
			}
			if (p)
				memcpy(p, &r, 4);
			if (i->id == SH_OP_DS_ADD_RTN_U32 || i->id == SH_OP_DS_ADD_RTN_F32)
				w->v[vdst % SH_VGPRS][l] = m;
			break;
		}
		default:
			return sh_illegal(c, w, i, NULL);
		}
	}
	c->lanes += (uint64_t)__builtin_popcountll(exec);
	return SH_NEXT;
}

/*
 * Scalar stores (kfdtest's shaders report through them): sdata's SGPRs
 * to sbase + the offset, as a scalar load addresses memory.
 */
static enum sh_step
smem_store(struct sh_ctx *c, struct sh_wave *w, const struct sh_insn *i)
{
	const struct kfd_isa_fields *f = &i->in->f;
	uint32_t w0 = f->words[0], w1 = f->words[1], buf[4];
	unsigned int sbase = (w0 & 0x3f) * 2, sdata = (w0 >> 6) & 0x7f;
	unsigned int n = 1u << (i->id - SH_OP_S_STORE_DWORD);
	uint64_t va;

	va = sh_sreg64(w, sbase) + ((w0 >> 17) & 1 ? w1 & 0x1fffff : w->s[w1 & 0x7f]);
	for (unsigned int k = 0; k < n; k++)
		buf[k] = sdata + k < 128 ? w->s[sdata + k] : 0;
	if (cp_mem_rw(c->cp, c->cq, va & ~3ull, buf, n * 4ull, 1))
		return sh_fault_write(c, w, va, "scalar store");
	return SH_NEXT;
}

enum sh_step
sh_mem(struct sh_ctx *c, struct sh_wave *w, const struct sh_insn *i)
{
	if (sh_sys_op(i->id))
		return sh_sys(c, w, i);
	if (i->id >= SH_OP_S_STORE_DWORD && i->id <= SH_OP_S_STORE_DWORDX4)
		return smem_store(c, w, i);
	switch (i->in->f.enc) {
	case KFD_ISA_SMEM: return smem(c, w, i);
	case KFD_ISA_FLAT: return flat(c, w, i);
	case KFD_ISA_MUBUF: return mubuf(c, w, i);
	case KFD_ISA_DS: return ds(c, w, i);
	default: return sh_illegal(c, w, i, NULL);
	}
}

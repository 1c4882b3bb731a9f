/* SPDX-License-Identifier: MIT */
/*
 * Private memory (scratch). The runtime gives each queue its scratch
 * backing: ROCr writes its buffer resource, address and per-lane size
 * into amd_queue_t. A dispatch whose private segment is larger than the
 * per-lane size first makes the CP ask for more: error 1 in the
 * queue-inactive signal, with its interrupt (ROCr's DynamicScratchHandler
 * grows the scratch and writes the signal back to 0); the dispatch waits
 * until then.
 *
 * Each wave of a work-group has its own slot of 64 lanes times the
 * per-lane size; wave n's is at n slots (the system SGPR's wave offset,
 * which the kernel adds to its resource and flat-scratch base). Inside a
 * slot the hardware swizzles per lane: dword d of lane l is at
 * (d * 64 + l) * 4. The scratch resource says so (ADD_TID_ENABLE, index
 * stride 64, elements of 4 bytes); SCRATCH instructions and generic
 * pointers into the private aperture swizzle the same way from the
 * wave's flat-scratch base. Generic pointers into the LDS aperture reach
 * the work-group's LDS.
 *
 * gfx10 differs in three ways. A wave32 wave's slot holds 32 lanes, and
 * the swizzle is per 32 lanes: the CP fills the resource's index stride
 * from the wave size (ROCr leaves it 0). The flat-scratch base is a
 * hardware register the kernel writes with s_setreg (FLAT_SCR_LO/HI)
 * from its flat-scratch-init SGPRs plus its wave offset, not SGPRs 102
 * and 103. And a SCRATCH instruction's SGPR field 127 means no address
 * register at all, null (125) a VGPR address alone.
 */
#include <stdio.h>
#include <string.h>

#include "shader_priv.h"

/* amd_queue_t */
#define AQ_SCRATCH_SRD		144u
#define AQ_SCRATCH_BASE		160u
#define AQ_SCRATCH_SIZE		168u
#define AQ_SCRATCH_LANE		176u

/* buffer resource word 3 */
#define SRD_INDEX_STRIDE(w3)	(8u << (((w3) >> 21) & 3))
#define SRD_ADD_TID(w3)		(((w3) >> 23) & 1)

uint32_t
sh_mem_bases(const struct sh_ctx *c)
{
	const struct ksim_apertures *ap = &c->cp->dev->gpus[c->cq->gpu].g->apertures;

	/* PRIVATE_BASE 15:0 and SHARED_BASE 31:16: bits 63:48 of each */
	return (uint32_t)(ap->scratch_base >> 48) | (uint32_t)(ap->lds_base >> 48) << 16;
}

int
sh_scratch_setup(struct sh_ctx *c, uint64_t queue_va, uint32_t private_size,
		 unsigned int waves, unsigned int lanes)
{
	const struct ksim_apertures *ap = &c->cp->dev->gpus[c->cq->gpu].g->apertures;
	uint8_t aq[40];
	uint32_t lane;
	int r;

	c->private_hi = (uint32_t)(ap->scratch_base >> 32);
	c->shared_hi = (uint32_t)(ap->lds_base >> 32);
	c->aperture_hi[0] = c->shared_hi;
	c->aperture_hi[1] = (uint32_t)(ap->lds_limit >> 32);
	c->aperture_hi[2] = c->private_hi;
	c->aperture_hi[3] = (uint32_t)(ap->scratch_limit >> 32);
	c->scratch_base = 0;
	c->scratch_size = 0;
	c->scratch_wave = 0;
	memset(c->scratch_srd, 0, sizeof(c->scratch_srd));
	if (!private_size)
		return 0;
	if (cp_mem_rw(c->cp, c->cq, queue_va + AQ_SCRATCH_SRD, aq, sizeof(aq), 0)) {
		c->ec = KFD_ABI_EC_QUEUE_WAVE_MEMORY_VIOLATION;
		c->code = CP_ERR_MEMORY;
		c->detail = queue_va;
		strcpy(c->why, "the queue's scratch fields outside the VM");
		return -1;
	}
	memcpy(&lane, aq + AQ_SCRATCH_LANE - AQ_SCRATCH_SRD, 4);
	if (lane < private_size) {
		r = cp_aql_scratch_request(c->cp, c->cq, !c->scratch_asked);
		if (r > 0) {
			c->scratch_asked = 1;
			return 1;
		}
		c->ec = KFD_ABI_EC_QUEUE_WAVE_MEMORY_VIOLATION;
		c->code = CP_ERR_MEMORY;
		c->detail = private_size;
		strcpy(c->why, r ? "the dispatch needs scratch and the queue has no "
		       "queue-inactive signal to ask for it" :
		       "the runtime gave the queue less scratch than the dispatch needs");
		return -1;
	}
	c->scratch_asked = 0;
	memcpy(c->scratch_srd, aq, 16);
	memcpy(&c->scratch_size, aq + AQ_SCRATCH_SIZE - AQ_SCRATCH_SRD, 8);
	c->scratch_base = ((uint64_t)c->scratch_srd[1] << 32 | c->scratch_srd[0]) &
			  0xffffffffffffull;
	c->scratch_wave = lane * lanes;
	/* gfx10: the CP's index stride, 32 (2) or 64 (3) lanes */
	if (c->family == KFD_ISA_GFX1030)
		c->scratch_srd[3] = (c->scratch_srd[3] & ~(3u << 21)) |
				    (lanes == 32 ? 2u : 3u) << 21;
	/* a work-group's waves are resident together: a slot each */
	if ((uint64_t)c->scratch_wave * waves > c->scratch_size) {
		c->ec = KFD_ABI_EC_QUEUE_WAVE_MEMORY_VIOLATION;
		c->code = CP_ERR_MEMORY;
		c->detail = c->scratch_size;
		snprintf(c->why, sizeof(c->why), "the queue's scratch (%llu bytes) holds "
			 "fewer than a work-group's %u waves of %u bytes",
			 (unsigned long long)c->scratch_size, waves, c->scratch_wave);
		return -1;
	}
	return 0;
}

void
sh_scratch_wave(const struct sh_ctx *c, struct sh_wave *w, unsigned int n,
		uint32_t srd[4], uint64_t *flat_scratch, uint32_t *wave_offset)
{
	w->aperture_hi = c->aperture_hi;
	w->flat_scr = 0;
	memcpy(srd, c->scratch_srd, sizeof(c->scratch_srd));
	*flat_scratch = c->scratch_base;
	*wave_offset = n * c->scratch_wave;
	/* gfx942's flat scratch is architected: the CP sets FLAT_SCRATCH
	 * to the wave's own slot, and the kernel gets no offset SGPR */
	if (c->family == KFD_ISA_GFX942 && c->scratch_base)
		sh_set_sreg64(w, SH_FLAT_SCR, c->scratch_base + *wave_offset);
}

/* The bytes one lane moves and whether a load, for the rows handled. */
static int
shape(const struct sh_insn *i, unsigned int *bytes, int *sign)
{
	const struct kfd_isa_fields *f = &i->in->f;

	*sign = 0;
	switch (i->id) {
	case SH_OP_GLOBAL_LOAD_SBYTE: *sign = 1; /* fall through */
	case SH_OP_GLOBAL_LOAD_UBYTE: case SH_OP_BUFFER_LOAD_UBYTE:
		*bytes = 1;
		return 1;
	case SH_OP_GLOBAL_LOAD_SSHORT: *sign = 1; /* fall through */
	case SH_OP_GLOBAL_LOAD_USHORT: case SH_OP_BUFFER_LOAD_USHORT:
		*bytes = 2;
		return 1;
	case SH_OP_GLOBAL_STORE_BYTE: case SH_OP_BUFFER_STORE_BYTE:
		*bytes = 1;
		return 0;
	case SH_OP_GLOBAL_STORE_SHORT: case SH_OP_BUFFER_STORE_SHORT:
		*bytes = 2;
		return 0;
	}
	if (sh_gfx10_d16(i->id, bytes, sign))
		return 1;
	if ((i->id >= SH_OP_GLOBAL_LOAD_DWORD && i->id <= SH_OP_GLOBAL_LOAD_DWORDX4) ||
	    (i->id >= SH_OP_BUFFER_LOAD_DWORD && i->id <= SH_OP_BUFFER_LOAD_DWORDX4)) {
		*bytes = f->dst_dwords * 4;
		return 1;
	}
	if ((i->id >= SH_OP_GLOBAL_STORE_DWORD && i->id <= SH_OP_GLOBAL_STORE_DWORDX4) ||
	    (i->id >= SH_OP_BUFFER_STORE_DWORD && i->id <= SH_OP_BUFFER_STORE_DWORDX4)) {
		*bytes = f->src_dwords[0] * 4;
		return 0;
	}
	return -1;
}

/*
 * Where the private access of one lane lives: a swizzled address from
 * @base (dword d of the lane at (d * @stride + @lane) * 4), or the LDS.
 */
struct place {
	int lds;
	uint64_t base;
	uint32_t off;
	unsigned int lane, stride;
};

static uint64_t
place_va(const struct place *p, uint32_t off)
{
	return p->base + ((uint64_t)(off >> 2) * p->stride + p->lane) * 4 + (off & 3);
}

/* Move @n bytes of one lane between @buf and its place, dword by dword. */
static int
place_rw(struct sh_ctx *c, const struct place *p, void *buf, unsigned int n, int write,
	 uint64_t *bad)
{
	uint8_t *b = buf;

	for (unsigned int k = 0; k < n;) {
		uint32_t off = p->off + k;
		unsigned int len = 4 - (off & 3);

		if (len > n - k)
			len = n - k;
		if (p->lds) {
			if ((uint64_t)off + len <= c->lds_size) {
				if (write)
					memcpy(c->lds + off, b + k, len);
				else
					memcpy(b + k, c->lds + off, len);
			} else if (!write) {
				memset(b + k, 0, len);
			}
		} else if (cp_mem_rw(c->cp, c->cq, place_va(p, off), b + k, len, write)) {
			*bad = place_va(p, off);
			return -1;
		}
		k += len;
	}
	return 0;
}

/* One lane's load into VGPRs @reg.. or store from @data.. */
static enum sh_step
lane_move(struct sh_ctx *c, struct sh_wave *w, const struct sh_insn *i,
	  const struct place *p, unsigned int reg, unsigned int data)
{
	uint32_t buf[4] = { 0 };
	unsigned int bytes;
	uint64_t bad = 0;
	int sign, load = shape(i, &bytes, &sign);

	if (load < 0)
		return sh_illegal(c, w, i, "on private memory");
	if (load) {
		if (place_rw(c, p, buf, bytes, 0, &bad))
			return sh_fault(c, w, bad, "scratch load");
		/* a d16 load: one half of the VGPR, the other kept */
		if (sh_gfx10_d16(i->id, &bytes, &sign)) {
			w->v[reg % SH_VGPRS][p->lane] =
				sh_gfx10_d16_merge(i->id, w->v[reg % SH_VGPRS][p->lane], buf[0]);
			return SH_NEXT;
		}
		if (bytes == 1)
			buf[0] = sign ? (uint32_t)(int32_t)(int8_t)buf[0] : buf[0] & 0xff;
		else if (bytes == 2)
			buf[0] = sign ? (uint32_t)(int32_t)(int16_t)buf[0] : buf[0] & 0xffff;
		for (unsigned int k = 0; k < (bytes + 3) / 4; k++)
			w->v[(reg + k) % SH_VGPRS][p->lane] = buf[k];
		return SH_NEXT;
	}
	for (unsigned int k = 0; k < (bytes + 3) / 4; k++)
		buf[k] = w->v[(data + k) % SH_VGPRS][p->lane];
	if (place_rw(c, p, buf, bytes, 1, &bad))
		return sh_fault(c, w, bad, "scratch store");
	return SH_NEXT;
}

enum sh_step
sh_scratch_mubuf(struct sh_ctx *c, struct sh_wave *w, const struct sh_insn *i)
{
	const struct kfd_isa_fields *f = &i->in->f;
	uint32_t w0 = f->words[0], w1 = f->words[1];
	unsigned int offen = (w0 >> 12) & 1, idxen = (w0 >> 13) & 1;
	unsigned int vaddr = w1 & 0xff, acc = ((w1 >> 23) & 1) * 256;
	unsigned int vdata = ((w1 >> 8) & 0xff) + acc, r = ((w1 >> 16) & 0x1f) * 4;
	uint32_t stride = (w->s[r + 1] >> 16) & 0x3fff, records = w->s[r + 2];
	uint32_t istride = SRD_INDEX_STRIDE(w->s[r + 3]), soff;
	uint64_t base = sh_sreg64(w, r) & 0xffffffffffffull, exec = sh_exec(w);
	enum sh_step s;

	if (sh_src32(w, i, w1 >> 24, 0, &soff))
		return sh_illegal(c, w, i, "soffset");
	for (unsigned int l = 0; l < SH_LANES; l++) {
		uint32_t index = l, off = w0 & 0xfff;
		struct place p = { 0 };

		if (!((exec >> l) & 1))
			continue;
		if (idxen)
			index += w->v[vaddr][l];
		if (offen)
			off += w->v[(vaddr + idxen) % SH_VGPRS][l];
		/* a raw buffer's range check; out of range: dropped or zeros */
		if (!stride && off >= records) {
			unsigned int bytes;
			int sign;

			if (shape(i, &bytes, &sign) == 1)
				for (unsigned int k = 0; k < (bytes + 3) / 4; k++)
					w->v[(vdata + k) % SH_VGPRS][l] = 0;
			continue;
		}
		/* index_msb * stride, then the swizzle of index_lsb and offset */
		p.base = base + soff + (uint64_t)(index / istride) * stride * istride;
		p.lane = index % istride;
		p.stride = istride;
		p.off = off;
		s = lane_move(c, w, i, &p, vdata, vdata);
		if (s != SH_NEXT)
			return s;
	}
	c->lanes += (uint64_t)__builtin_popcountll(exec);
	return SH_NEXT;
}

int
sh_scratch_flat(struct sh_ctx *c, struct sh_wave *w, const struct sh_insn *i,
		enum sh_step *s)
{
	const struct ksim_apertures *ap = &c->cp->dev->gpus[c->cq->gpu].g->apertures;
	const struct kfd_isa_fields *f = &i->in->f;
	uint32_t w0 = f->words[0], w1 = f->words[1];
	unsigned int seg = (w0 >> 14) & 3, saddr = (w1 >> 16) & 0x7f, addr = w1 & 0xff;
	unsigned int acc = ((w1 >> 23) & 1) * 256;
	unsigned int data = ((w1 >> 8) & 0xff) + acc, vdst = (w1 >> 24) + acc;
	int gen10 = sh_gen10(c);
	int64_t ioff = gen10 ? (int64_t)(w0 & 0xfff) - ((w0 & 0x800) ? 0x1000 : 0) :
		       seg == 0 ? (int64_t)(w0 & 0xfff) :
		       (int64_t)(w0 & 0x1fff) - ((w0 & 0x1000) ? 0x2000 : 0);
	uint64_t exec = sh_exec(w), va[SH_LANES];
	uint64_t fs = gen10 ? w->flat_scr : sh_sreg64(w, SH_FLAT_SCR);
	int any = 0;

	for (unsigned int l = 0; l < SH_LANES; l++) {
		if (!((exec >> l) & 1))
			continue;
		if (seg == 1 && c->family == KFD_ISA_GFX942)
			/* SVE (bit 13) adds the VGPR; either, both or none */
			va[l] = (uint32_t)((((w0 >> 13) & 1) ? w->v[addr][l] : 0) +
					   (saddr != 0x7f ? w->s[saddr] : 0) + (uint32_t)ioff);
		else if (seg == 1 && gen10)
			va[l] = (uint64_t)(uint32_t)((saddr == 0x7f ? 0 : saddr == SH_NULL ?
						      w->v[addr][l] : w->s[saddr]) +
						     (uint32_t)ioff);
		else if (seg == 1)
			va[l] = (uint64_t)(uint32_t)((saddr != 0x7f ? w->s[saddr] : w->v[addr][l]) +
						     (uint32_t)ioff);
		else
			va[l] = ((uint64_t)w->v[addr][l] |
				 (uint64_t)w->v[(addr + 1) % SH_VGPRS][l] << 32) + (uint64_t)ioff;
		if (seg == 0 && (va[l] >> 32 == ap->scratch_base >> 32 ||
				 va[l] >> 32 == ap->lds_base >> 32))
			any = 1;
	}
	if (seg == 0 && !any)
		return -1;
	if (seg == 0 && i->id >= SH_OP_GLOBAL_ATOMIC_ADD && i->id <= SH_OP_GLOBAL_ATOMIC_ADD_F32) {
		*s = sh_illegal(c, w, i, "atomics through a generic pointer to private or LDS");
		return 0;
	}
	for (unsigned int l = 0; l < SH_LANES; l++) {
		struct place p = { 0 };

		if (!((exec >> l) & 1))
			continue;
		p.lane = l;
		p.stride = w->lanes;
		p.off = (uint32_t)va[l];
		if (seg == 1 || va[l] >> 32 == ap->scratch_base >> 32) {
			p.base = fs;
		} else if (va[l] >> 32 == ap->lds_base >> 32) {
			p.lds = 1;
		} else {
			/* a global lane among private ones: unswizzled */
			p.base = va[l] - (uint64_t)l * 4;
			p.off = 0;
			p.stride = 0;
			unsigned int bytes = 0;
			int sign;

			if (shape(i, &bytes, &sign) < 0 || bytes > 4) {
				*s = sh_illegal(c, w, i, "generic pointers of mixed apertures");
				return 0;
			}
		}
		*s = lane_move(c, w, i, &p, vdst, data);
		if (*s != SH_NEXT)
			return 0;
	}
	c->lanes += (uint64_t)__builtin_popcountll(exec);
	*s = SH_NEXT;
	return 0;
}

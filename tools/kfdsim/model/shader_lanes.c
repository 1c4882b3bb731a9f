/* SPDX-License-Identifier: MIT */
/*
 * The VALU's hot loops: an opcode picked once per instruction, then one
 * loop over the 64 lanes reading the rows sh_valu() resolved. A switch
 * per lane costs more than the arithmetic it selects; here the compiler
 * sees a straight loop it can unroll or vectorize. The results are those
 * of sh_valu()'s per-lane switch, which still runs every opcode not
 * listed here.
 */
#include <math.h>
#include <string.h>

#include "shader_priv.h"

static inline float f32(uint32_t v) { float f; memcpy(&f, &v, 4); return f; }
static inline uint32_t u32(float f) { uint32_t v; memcpy(&v, &f, 4); return v; }

/*
 * @expr of x, y, z (lane l of a, b, d) into each active lane of dst. A
 * full EXEC, the common case, takes the loop without a test per lane.
 */
#define SH_LANES_DO(expr) do {						\
	if (exec == ~0ull) {						\
		for (unsigned int l = 0; l < SH_LANES; l++) {		\
			uint32_t x = a[l], y = b[l], z = d[l];		\
			(void)x; (void)y; (void)z;			\
			dst[l] = (expr);				\
		}							\
	} else {							\
		for (unsigned int l = 0; l < SH_LANES; l++) {		\
			uint32_t x = a[l], y = b[l], z = d[l];		\
			(void)x; (void)y; (void)z;			\
			if ((exec >> l) & 1)				\
				dst[l] = (expr);			\
		}							\
	}								\
} while (0)

int
sh_lanes32(unsigned int id, uint64_t exec, const uint32_t *a, const uint32_t *b,
	   const uint32_t *d, uint32_t *dst)
{
	switch (id) {
	case SH_OP_V_MOV_B32: SH_LANES_DO(x); break;
	case SH_OP_V_NOT_B32: SH_LANES_DO(~x); break;
	case SH_OP_V_CVT_F32_I32: SH_LANES_DO(u32((float)(int32_t)x)); break;
	case SH_OP_V_CVT_F32_U32: SH_LANES_DO(u32((float)x)); break;
	case SH_OP_V_ADD_F32: SH_LANES_DO(sh_fnan_in(u32(f32(x) + f32(y)), x, y, 0)); break;
	case SH_OP_V_SUB_F32: SH_LANES_DO(sh_fnan_in(u32(f32(x) - f32(y)), x, y, 0)); break;
	case SH_OP_V_SUBREV_F32: SH_LANES_DO(sh_fnan_in(u32(f32(y) - f32(x)), x, y, 0)); break;
	case SH_OP_V_MUL_F32: SH_LANES_DO(sh_fnan_in(u32(f32(x) * f32(y)), x, y, 0)); break;
	case SH_OP_V_MIN_F32: SH_LANES_DO(sh_fmin32(x, y)); break;
	case SH_OP_V_MAX_F32: SH_LANES_DO(sh_fmax32(x, y)); break;
	case SH_OP_V_MAC_F32:
		SH_LANES_DO(sh_fnan_in(u32(f32(x) * f32(y) + f32(dst[l])), x, y, dst[l]));
		break;
	case SH_OP_V_FMAC_F32:
		SH_LANES_DO(sh_fnan_in(u32(fmaf(f32(x), f32(y), f32(dst[l]))), x, y, dst[l]));
		break;
	case SH_OP_V_MAD_F32: SH_LANES_DO(sh_fnan_in(u32(f32(x) * f32(y) + f32(z)), x, y, z)); break;
	case SH_OP_V_FMA_F32: SH_LANES_DO(sh_fnan_in(u32(fmaf(f32(x), f32(y), f32(z))), x, y, z)); break;
	case SH_OP_V_MUL_I32_I24:
		SH_LANES_DO((uint32_t)((int32_t)(x << 8) >> 8) *
			    (uint32_t)((int32_t)(y << 8) >> 8));
		break;
	case SH_OP_V_MUL_U32_U24: SH_LANES_DO((x & 0xffffff) * (y & 0xffffff)); break;
	case SH_OP_V_MAD_U32_U24: SH_LANES_DO((x & 0xffffff) * (y & 0xffffff) + z); break;
	case SH_OP_V_MIN_I32: SH_LANES_DO((int32_t)x < (int32_t)y ? x : y); break;
	case SH_OP_V_MAX_I32: SH_LANES_DO((int32_t)x > (int32_t)y ? x : y); break;
	case SH_OP_V_MIN_U32: SH_LANES_DO(x < y ? x : y); break;
	case SH_OP_V_MAX_U32: SH_LANES_DO(x > y ? x : y); break;
	case SH_OP_V_LSHRREV_B32: SH_LANES_DO(y >> (x & 31)); break;
	case SH_OP_V_ASHRREV_I32: SH_LANES_DO((uint32_t)((int32_t)y >> (x & 31))); break;
	case SH_OP_V_LSHLREV_B32: SH_LANES_DO(y << (x & 31)); break;
	case SH_OP_V_AND_B32: SH_LANES_DO(x & y); break;
	case SH_OP_V_OR_B32: SH_LANES_DO(x | y); break;
	case SH_OP_V_XOR_B32: SH_LANES_DO(x ^ y); break;
	case SH_OP_V_ADD_U32: SH_LANES_DO(x + y); break;
	case SH_OP_V_SUB_U32: SH_LANES_DO(x - y); break;
	case SH_OP_V_SUBREV_U32: SH_LANES_DO(y - x); break;
	case SH_OP_V_MUL_LO_U32: SH_LANES_DO(x * y); break;
	case SH_OP_V_MUL_HI_U32: SH_LANES_DO((uint32_t)(((uint64_t)x * y) >> 32)); break;
	case SH_OP_V_MUL_HI_I32:
		SH_LANES_DO((uint32_t)(((int64_t)(int32_t)x * (int32_t)y) >> 32));
		break;
	case SH_OP_V_BFI_B32: SH_LANES_DO((x & y) | (~x & z)); break;
	case SH_OP_V_ALIGNBIT_B32:
		SH_LANES_DO((uint32_t)((((uint64_t)x << 32) | y) >> (z & 31)));
		break;
	case SH_OP_V_LSHL_ADD_U32: SH_LANES_DO((x << (y & 31)) + z); break;
	case SH_OP_V_ADD_LSHL_U32: SH_LANES_DO((x + y) << (z & 31)); break;
	case SH_OP_V_ADD3_U32: SH_LANES_DO(x + y + z); break;
	case SH_OP_V_LSHL_OR_B32: SH_LANES_DO((x << (y & 31)) | z); break;
	case SH_OP_V_AND_OR_B32: SH_LANES_DO((x & y) | z); break;
	case SH_OP_V_OR3_B32: SH_LANES_DO(x | y | z); break;
	default:
		return 0;
	}
	return 1;
}

/*
 * @expr of x, y and k (lane l of a, b and of @cin) into each active lane
 * of dst, and @bit of each lane into co (the caller keeps the active
 * ones'). A full EXEC takes the loop without a test per lane.
 */
#define SH_CARRY_DO(expr, bit) do {					\
	for (unsigned int l = 0; l < SH_LANES; l++) {			\
		uint32_t x = a[l], y = b[l], k = (cin >> l) & 1;	\
		uint64_t s = (bit);					\
									\
		(void)k;						\
		co |= s << l;						\
		if (exec == ~0ull || ((exec >> l) & 1))			\
			dst[l] = (expr);				\
	}								\
} while (0)

int
sh_lanes32_carry(unsigned int id, uint64_t exec, const uint32_t *a, const uint32_t *b,
		 uint64_t cin, uint32_t *dst, uint64_t *carry)
{
	uint64_t co = 0;

	switch (id) {
	case SH_OP_V_ADD_CO_U32: SH_CARRY_DO(x + y, ((uint64_t)x + y) >> 32); break;
	case SH_OP_V_ADDC_CO_U32:
		SH_CARRY_DO(x + y + k, ((uint64_t)x + y + k) >> 32);
		break;
	case SH_OP_V_SUB_CO_U32: SH_CARRY_DO(x - y, y > x); break;
	case SH_OP_V_SUBREV_CO_U32: SH_CARRY_DO(y - x, x > y); break;
	case SH_OP_V_SUBB_CO_U32:
		SH_CARRY_DO((uint32_t)(x - ((uint64_t)y + k)), (uint64_t)y + k > x);
		break;
	case SH_OP_V_SUBBREV_CO_U32:
		SH_CARRY_DO((uint32_t)(y - ((uint64_t)x + k)), (uint64_t)x + k > y);
		break;
	case SH_OP_V_CNDMASK_B32: SH_CARRY_DO(k ? y : x, 0); break;
	default:
		return 0;
	}
	*carry = co & exec;
	return 1;
}

/* @expr of x, y (lane l of a, b) as lane l's bit of *mask. */
#define SH_CMP_DO(expr) do {						\
	for (unsigned int l = 0; l < SH_LANES; l++) {			\
		uint32_t x = a[l], y = b[l];				\
		uint64_t s = (expr);					\
									\
		m |= s << l;						\
	}								\
} while (0)

int
sh_cmp32(unsigned int id, uint64_t exec, const uint32_t *a, const uint32_t *b,
	 uint64_t *mask)
{
	uint64_t m = 0;

	switch (id) {
	case SH_OP_V_CMP_F_I32: case SH_OP_V_CMP_F_U32: break;
	case SH_OP_V_CMP_T_I32: case SH_OP_V_CMP_T_U32: m = ~0ull; break;
	case SH_OP_V_CMP_LT_I32: SH_CMP_DO((int32_t)x < (int32_t)y); break;
	case SH_OP_V_CMP_EQ_I32: case SH_OP_V_CMP_EQ_U32: SH_CMP_DO(x == y); break;
	case SH_OP_V_CMP_LE_I32: SH_CMP_DO((int32_t)x <= (int32_t)y); break;
	case SH_OP_V_CMP_GT_I32: SH_CMP_DO((int32_t)x > (int32_t)y); break;
	case SH_OP_V_CMP_NE_I32: case SH_OP_V_CMP_NE_U32: SH_CMP_DO(x != y); break;
	case SH_OP_V_CMP_GE_I32: SH_CMP_DO((int32_t)x >= (int32_t)y); break;
	case SH_OP_V_CMP_LT_U32: SH_CMP_DO(x < y); break;
	case SH_OP_V_CMP_LE_U32: SH_CMP_DO(x <= y); break;
	case SH_OP_V_CMP_GT_U32: SH_CMP_DO(x > y); break;
	case SH_OP_V_CMP_GE_U32: SH_CMP_DO(x >= y); break;
	case SH_OP_V_CMP_LT_F32: SH_CMP_DO(f32(x) < f32(y)); break;
	case SH_OP_V_CMP_EQ_F32: SH_CMP_DO(f32(x) == f32(y)); break;
	case SH_OP_V_CMP_LE_F32: SH_CMP_DO(f32(x) <= f32(y)); break;
	case SH_OP_V_CMP_GT_F32: SH_CMP_DO(f32(x) > f32(y)); break;
	case SH_OP_V_CMP_GE_F32: SH_CMP_DO(f32(x) >= f32(y)); break;
	case SH_OP_V_CMP_NEQ_F32: SH_CMP_DO(!(f32(x) == f32(y))); break;
	case SH_OP_V_CMP_NLT_F32: SH_CMP_DO(!(f32(x) < f32(y))); break;
	case SH_OP_V_CMP_NGT_F32: SH_CMP_DO(!(f32(x) > f32(y))); break;
	case SH_OP_V_CMP_LG_F32: SH_CMP_DO(f32(x) < f32(y) || f32(x) > f32(y)); break;
	case SH_OP_V_CMP_O_F32: SH_CMP_DO(!isnan(f32(x)) && !isnan(f32(y))); break;
	case SH_OP_V_CMP_U_F32: SH_CMP_DO(isnan(f32(x)) || isnan(f32(y))); break;
	default:
		return 0;
	}
	*mask = m & exec;
	return 1;
}

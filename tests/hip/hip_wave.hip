/* SPDX-License-Identifier: MIT */
/*
 * Wave-level operations the compilers and ROCm's libraries emit, each
 * result checked on the host:
 *
 *   wave      __ballot, __shfl, __shfl_xor, __shfl_down, __any, __all,
 *             __popcll (ds_bpermute, v_readlane, s_bcnt1)
 *   dpp       the DPP controls one by one (quad_perm, row_shl/shr/ror,
 *             row_mirror, row_half_mirror; gfx9's wave_shr/ror and
 *             row_bcast15/31, or gfx10's row_share and row_xmask) with
 *             row_mask, bank_mask and bound_ctrl
 *   scan      an inclusive wave scan in DPP, as rocPRIM writes it
 *   swizzle   ds_swizzle in its bit-mask and quad-permute modes
 *   bytes     byte and half-word arithmetic (SDWA), v_perm, v_alignbit,
 *             v_bfe, v_bfi
 *   atomics   atomicAdd on int and float, atomicCAS, atomicMax
 *   doubles   f64 add, mul, fma, div, sqrt and conversions
 *   halves    f16 mul, fma, add, sqrt, constants, mixed and packed fma,
 *             v_cmp_class_f16, the store of a high half
 *
 * The program is built for gfx90a (wave64) and gfx1030 (wave32), the two
 * architectures whose code kfdsim interprets; the host's model of each
 * lane holds for both.
 */
#include "hip_check.h"

#include <math.h>

/*
 * The wave size: a device pass knows its target, the host asks the
 * device (its warpSize) before the first check.
 */
static int wave_size = 64;
#if defined(__gfx1030__)
#define WAVE	32
#elif defined(__HIP_DEVICE_COMPILE__)
#define WAVE	64
#else
#define WAVE	wave_size
#endif
#define N	1024		/* 16 waves of 64, 32 of 32 */
#define WAVES_MAX	(N / 32)

static unsigned int
mix(unsigned int i)
{
	i ^= i >> 16;
	i *= 0x7feb352du;
	i ^= i >> 15;
	i *= 0x846ca68bu;
	i ^= i >> 16;
	return i;
}

/* ---- wave intrinsics ---- */

__global__ void
k_wave(const unsigned int *in, unsigned long long *ballot, unsigned int *out)
{
	unsigned int i = blockIdx.x * blockDim.x + threadIdx.x, lane = threadIdx.x % WAVE;
	unsigned int v = in[i];
	unsigned long long b = __ballot(v & 1);

	if (lane == 0)
		ballot[i / WAVE] = b;
	out[i * 6 + 0] = __shfl((int)v, (int)((lane * 7 + 3) % WAVE));
	out[i * 6 + 1] = __shfl_xor((int)v, 5);
	out[i * 6 + 2] = __shfl_down((int)v, 3);
	out[i * 6 + 3] = __any(v % 97 == 0);
	out[i * 6 + 4] = __all(v % 128 != (lane & 3));
	out[i * 6 + 5] = __popcll(b) + __popc(v);
}

/* ---- DPP, one control at a time ---- */

/*
 * The controls (AMD's DPP_CTRL), row_mask, bank_mask, bound_ctrl: gfx9's,
 * then gfx10's, which has no wave shifts or row broadcasts but shares a
 * row's lane (row_share) or xors the lane number (row_xmask).
 */
#define DPP_LIST9(X) \
	X(0x1b, 0xf, 0xf, false)	/* quad_perm:[3,2,1,0] */ \
	X(0x4e, 0xf, 0xf, false)	/* quad_perm:[2,3,0,1] */ \
	X(0x101, 0xf, 0xf, false)	/* row_shl:1 */ \
	X(0x10f, 0xf, 0xf, true)	/* row_shl:15 */ \
	X(0x111, 0xf, 0xf, false)	/* row_shr:1 */ \
	X(0x113, 0xf, 0xf, true)	/* row_shr:3 */ \
	X(0x118, 0xf, 0xc, false)	/* row_shr:8, banks 2, 3 */ \
	X(0x124, 0xf, 0xf, false)	/* row_ror:4 */ \
	X(0x12c, 0xa, 0xf, false)	/* row_ror:12, rows 1, 3 */ \
	X(0x130, 0xf, 0xf, false)	/* wave_shl:1 */ \
	X(0x134, 0xf, 0xf, false)	/* wave_rol:1 */ \
	X(0x138, 0xf, 0xf, true)	/* wave_shr:1 */ \
	X(0x13c, 0xf, 0xf, false)	/* wave_ror:1 */ \
	X(0x140, 0xf, 0xf, false)	/* row_mirror */ \
	X(0x141, 0xf, 0x5, false)	/* row_half_mirror, banks 0, 2 */ \
	X(0x142, 0xa, 0xf, false)	/* row_bcast:15 */ \
	X(0x143, 0xc, 0xf, false)	/* row_bcast:31 */
#define DPP_LIST10(X) \
	X(0x1b, 0xf, 0xf, false)	/* quad_perm:[3,2,1,0] */ \
	X(0x4e, 0xf, 0xf, false)	/* quad_perm:[2,3,0,1] */ \
	X(0x101, 0xf, 0xf, false)	/* row_shl:1 */ \
	X(0x10f, 0xf, 0xf, true)	/* row_shl:15 */ \
	X(0x111, 0xf, 0xf, false)	/* row_shr:1 */ \
	X(0x113, 0xf, 0xf, true)	/* row_shr:3 */ \
	X(0x118, 0xf, 0xc, false)	/* row_shr:8, banks 2, 3 */ \
	X(0x124, 0xf, 0xf, false)	/* row_ror:4 */ \
	X(0x12c, 0xa, 0xf, false)	/* row_ror:12, row 1 */ \
	X(0x150, 0xf, 0xf, false)	/* row_share:0 */ \
	X(0x153, 0xf, 0xf, false)	/* row_share:3 */ \
	X(0x15f, 0xf, 0x6, false)	/* row_share:15, banks 1, 2 */ \
	X(0x161, 0xf, 0xf, false)	/* row_xmask:1 */ \
	X(0x16a, 0xa, 0xf, false)	/* row_xmask:10, row 1 */ \
	X(0x16f, 0xf, 0xf, false)	/* row_xmask:15 */ \
	X(0x140, 0xf, 0xf, false)	/* row_mirror */ \
	X(0x141, 0xf, 0x5, false)	/* row_half_mirror, banks 0, 2 */

#if defined(__gfx1030__)
#define DPP_LIST DPP_LIST10
#else
#define DPP_LIST DPP_LIST9
#endif
#define DPP_N	17
#define DPP_OLD	0xdeadbeefu

__global__ void
k_dpp(const unsigned int *in, unsigned int *out)
{
	unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
	int v = (int)in[i], k = 0;

#define DPP_ONE(ctrl, rm, bm, bc) \
	out[(k++) * N + i] = (unsigned int)__builtin_amdgcn_update_dpp((int)DPP_OLD, v, \
			ctrl, rm, bm, bc);
	DPP_LIST(DPP_ONE)
#undef DPP_ONE
}

struct dpp_ctl {
	unsigned int ctrl, row_mask, bank_mask;
	bool bound;
};

#define DPP_ROW(ctrl, rm, bm, bc) { ctrl, rm, bm, bc },
static const struct dpp_ctl dpp_ctls9[DPP_N] = {
	DPP_LIST9(DPP_ROW)
};
static const struct dpp_ctl dpp_ctls10[DPP_N] = {
	DPP_LIST10(DPP_ROW)
};
#undef DPP_ROW

/* The source lane of @lane under @ctrl; -1: none (out of range). */
static int
dpp_src(unsigned int ctrl, int lane)
{
	int r = lane & ~15, x = lane & 15, n = (int)(ctrl & 15);

	if (ctrl < 0x100)
		return (lane & ~3) | ((ctrl >> ((lane & 3) * 2)) & 3);
	if (ctrl >= 0x101 && ctrl <= 0x10f)
		return x + n < 16 ? lane + n : -1;
	if (ctrl >= 0x111 && ctrl <= 0x11f)
		return x - n >= 0 ? lane - n : -1;
	if (ctrl >= 0x121 && ctrl <= 0x12f)
		return r | ((x - n) & 15);
	if (ctrl >= 0x150 && ctrl <= 0x15f)
		return r | n;
	if (ctrl >= 0x160 && ctrl <= 0x16f)
		return r | (x ^ n);
	switch (ctrl) {
	case 0x130: return lane + 1 < WAVE ? lane + 1 : -1;
	case 0x134: return (lane + 1) % WAVE;
	case 0x138: return lane - 1;
	case 0x13c: return (lane + WAVE - 1) % WAVE;
	case 0x140: return r | (15 - x);
	case 0x141: return (lane & ~7) | (7 - (lane & 7));
	case 0x142: return r ? r - 1 : -1;
	case 0x143: return lane >= 32 ? 31 : -1;
	}
	return -1;
}

static void
check_dpp(const unsigned int *in, const unsigned int *out)
{
	for (int k = 0; k < DPP_N; k++) {
		const struct dpp_ctl *d = WAVE == 32 ? &dpp_ctls10[k] : &dpp_ctls9[k];

		for (int i = 0; i < N; i++) {
			int lane = i % WAVE, s = dpp_src(d->ctrl, lane);
			unsigned int want;

			if (!((d->row_mask >> (lane / 16)) & 1) ||
			    !((d->bank_mask >> ((lane >> 2) & 3)) & 1))
				want = DPP_OLD;		/* not written */
			else if (s < 0)
				want = d->bound ? 0 : DPP_OLD;
			else
				want = in[i - lane + s];
			if (out[k * N + i] != want)
				HIP_FAIL("dpp control 0x%x lane %d: 0x%x, want 0x%x",
					 d->ctrl, i, out[k * N + i], want);
		}
	}
	printf("%d DPP controls equal\n", DPP_N);
}

/* ---- an inclusive wave scan in DPP ---- */

/*
 * rocPRIM's and LLVM's: row_shr 1, 2, 4, 8 (zero shifted in) scan each
 * row; row_bcast:15 and row_bcast:31 carry the rows' totals up. gfx10
 * has no row broadcast: its wave32 takes row 0's total from lane 15.
 */
__global__ void
k_scan(const unsigned int *in, unsigned int *out, unsigned int *sum)
{
	unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
	unsigned int v = in[i] & 0xffff;

	v += __builtin_amdgcn_update_dpp(0, v, 0x111, 0xf, 0xf, false);
	v += __builtin_amdgcn_update_dpp(0, v, 0x112, 0xf, 0xf, false);
	v += __builtin_amdgcn_update_dpp(0, v, 0x114, 0xf, 0xe, false);
	v += __builtin_amdgcn_update_dpp(0, v, 0x118, 0xf, 0xc, false);
#if defined(__gfx1030__)
	{
		unsigned int t = (unsigned int)__builtin_amdgcn_readlane((int)v, 15);

		v += threadIdx.x % WAVE >= 16 ? t : 0;
	}
#else
	v += __builtin_amdgcn_update_dpp(0, v, 0x142, 0xa, 0xf, false);
	v += __builtin_amdgcn_update_dpp(0, v, 0x143, 0xc, 0xf, false);
#endif
	out[N + i] = v;
	/* the wave's total: the last lane of the scan */
	if (threadIdx.x % WAVE == 0)
		sum[i / WAVE] = (unsigned int)__builtin_amdgcn_readlane((int)v, WAVE - 1);
}

static void
check_scan(const unsigned int *in, const unsigned int *out, const unsigned int *sum)
{
	for (int i = 0; i < N; i++) {
		int lane = i % WAVE, w0 = i - lane;
		unsigned int s = 0;

		for (int k = w0; k <= i; k++)
			s += in[k] & 0xffff;
		if (out[N + i] != s)
			HIP_FAIL("scan lane %d: %u, want %u", i, out[N + i], s);
		if (lane == WAVE - 1 && sum[i / WAVE] != s)
			HIP_FAIL("wave %d total %u, want %u", i / WAVE, sum[i / WAVE], s);
	}
	printf("DPP wave scan equal\n");
}

/* ---- ds_swizzle ---- */

__global__ void
k_swizzle(const unsigned int *in, unsigned int *out)
{
	unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
	int v = (int)in[i];

	/* bit mask: and 0x1f, or 0, xor 1 (swap neighbours in 32) */
	out[i] = (unsigned int)__builtin_amdgcn_ds_swizzle(v, 0x041f);
	/* bit mask: and 0x18, or 0x3 (lane 3 of each 8) */
	out[N + i] = (unsigned int)__builtin_amdgcn_ds_swizzle(v, 0x0078);
	/* quad permute [1,0,3,2] */
	out[2 * N + i] = (unsigned int)__builtin_amdgcn_ds_swizzle(v, 0x80b1);
}

static void
check_swizzle(const unsigned int *in, const unsigned int *out)
{
	for (int i = 0; i < N; i++) {
		int lane = i % WAVE, w0 = i - lane, g = lane & 32, t = lane & 31;
		unsigned int a = in[w0 + (g | (t ^ 1))];
		unsigned int b = in[w0 + (g | ((t & 0x18) | 3))];
		unsigned int q = in[w0 + ((lane & ~3) | (0xb1 >> ((lane & 3) * 2) & 3))];

		if (out[i] != a || out[N + i] != b || out[2 * N + i] != q)
			HIP_FAIL("swizzle lane %d: 0x%x 0x%x 0x%x, want 0x%x 0x%x 0x%x", i,
				 out[i], out[N + i], out[2 * N + i], a, b, q);
	}
	printf("ds_swizzle equal\n");
}

/* ---- bytes, half words, bit fields ---- */

__global__ void
k_bytes(const unsigned int *in, unsigned int *out)
{
	unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
	unsigned int a = in[i], b = in[(i + 1) % N];
	uchar4 x = *(const uchar4 *)&a, y = *(const uchar4 *)&b;
	short2 s = *(const short2 *)&a, t = *(const short2 *)&b;
	uchar4 r;
	short2 u;

	r.x = (unsigned char)(x.x + y.w);
	r.y = (unsigned char)(x.y * y.z);
	r.z = (unsigned char)(x.z ^ y.y);
	r.w = (unsigned char)(x.w > y.x ? x.w - y.x : y.x - x.w);
	out[i * 6 + 0] = *(unsigned int *)&r;
	u.x = (short)(s.x + t.y);
	u.y = (short)(s.y >> 3);
	out[i * 6 + 1] = *(unsigned int *)&u;
	out[i * 6 + 2] = __builtin_amdgcn_perm(a, b, 0x0c070105u);
	out[i * 6 + 3] = __builtin_amdgcn_alignbit(a, b, i & 31);
	out[i * 6 + 4] = __builtin_amdgcn_ubfe(a, i & 31, (b & 15) + 1) +
			 (unsigned int)__builtin_amdgcn_sbfe((int)b, 3, 9);
	out[i * 6 + 5] = (a & b) | (~a & (b * 3u));
}

static unsigned int
perm_byte(unsigned long long ab, unsigned int sel)
{
	if (sel < 8)
		return (ab >> (sel * 8)) & 0xff;
	if (sel == 12)
		return 0;
	if (sel >= 13)
		return 0xff;
	/* 8..11: the sign of byte 1, 3, 5, 7 */
	return ((ab >> ((sel - 8) * 16 + 15)) & 1) ? 0xff : 0;
}

static void
check_bytes(const unsigned int *in, const unsigned int *out)
{
	for (unsigned int i = 0; i < N; i++) {
		unsigned int a = in[i], b = in[(i + 1) % N], want[6], off, wid;
		unsigned char xa[4], yb[4], r[4];
		short s[2], t[2], u[2];
		unsigned long long ab = (unsigned long long)a << 32 | b;

		memcpy(xa, &a, 4);
		memcpy(yb, &b, 4);
		memcpy(s, &a, 4);
		memcpy(t, &b, 4);
		r[0] = (unsigned char)(xa[0] + yb[3]);
		r[1] = (unsigned char)(xa[1] * yb[2]);
		r[2] = (unsigned char)(xa[2] ^ yb[1]);
		r[3] = (unsigned char)(xa[3] > yb[0] ? xa[3] - yb[0] : yb[0] - xa[3]);
		memcpy(&want[0], r, 4);
		u[0] = (short)(s[0] + t[1]);
		u[1] = (short)(s[1] >> 3);
		memcpy(&want[1], u, 4);
		want[2] = 0;
		for (int k = 0; k < 4; k++)
			want[2] |= perm_byte(ab, (0x0c070105u >> (k * 8)) & 0xff) << (k * 8);
		want[3] = (unsigned int)(ab >> (i & 31));
		off = i & 31;
		wid = (b & 15) + 1;
		want[4] = (off + wid < 32 ? (a >> off) & ((1u << wid) - 1) : a >> off) +
			  (unsigned int)((int)(b << 20) >> 23);
		want[5] = (a & b) | (~a & (b * 3u));
		for (int k = 0; k < 6; k++)
			if (out[i * 6 + k] != want[k])
				HIP_FAIL("bytes %u.%d: 0x%x, want 0x%x", i, k, out[i * 6 + k],
					 want[k]);
	}
	printf("byte, half-word and bit-field results equal\n");
}

/* ---- atomics ---- */

__global__ void
k_atomics(const unsigned int *in, int *isum, float *fsum, unsigned int *cas,
	  int *imax, unsigned int *wsum)
{
	unsigned int i = blockIdx.x * blockDim.x + threadIdx.x, v = in[i];

	atomicAdd(isum, (int)(v & 0xfff) - 0x800);
	/* integers in floats: the sum is exact whatever the order */
	atomicAdd(fsum, (float)(v & 0xff));
	atomicMax(imax, (int)(v >> 1) * ((v & 1) ? -1 : 1));
	/* a lock-free increment by compare-and-swap */
	unsigned int old = *cas, seen;

	while ((seen = atomicCAS(cas, old, old + 1)) != old)
		old = seen;
	/* a uniform address: the compiler's wave reduction (DPP) */
	atomicAdd(&wsum[blockIdx.x], v & 0xffff);
}

/* ---- halves ---- */

typedef _Float16 half2_t __attribute__((ext_vector_type(2)));

/*
 * f16 mul, fma, add, sqrt, a constant (-2.0 as f16), mixed precision
 * (v_fma_mix_f32, v_fma_mixlo_f16), packed fma, v_cmp_class_f16 and the
 * store of a high half.
 */
__global__ void
k_halves(const float *in, float *out, _Float16 *hi, half2_t s)
{
	unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
	_Float16 a = (_Float16)in[i], b = (_Float16)in[i + N], c = (_Float16)in[i + 2 * N];
	half2_t p = { a, b }, q = { c, a };
	half2_t r = p * s + q;

	out[i * 10 + 0] = (float)(a * b);
	out[i * 10 + 1] = (float)__builtin_fmaf16(a, b, c);
	out[i * 10 + 2] = (float)__builtin_sqrtf16(b);
	out[i * 10 + 3] = (float)(a * (_Float16)-2.0f);
	out[i * 10 + 4] = __builtin_fmaf((float)a, in[i + N], (float)c);
	out[i * 10 + 5] = (float)(_Float16)__builtin_fmaf(in[i], in[i + N], in[i + 2 * N]);
	out[i * 10 + 6] = (float)(a + b);
	out[i * 10 + 7] = (float)r.x;
	out[i * 10 + 8] = __builtin_amdgcn_classh(a, 0x62) ? 1.0f : 0.0f;
	out[i * 10 + 9] = 0;
	hi[i] = r.y;
}

static void
check_halves(const float *in, const float *out, const _Float16 *hi, half2_t s)
{
	for (unsigned int i = 0; i < N; i++) {
		_Float16 a = (_Float16)in[i], b = (_Float16)in[i + N], c = (_Float16)in[i + 2 * N];
		float want[10] = {
			(float)(_Float16)((float)a * (float)b),
			(float)(_Float16)fma((double)a, (double)b, (double)c),
			(float)(_Float16)sqrt((double)b),
			(float)(_Float16)((float)a * -2.0f),
			fmaf((float)a, in[i + N], (float)c),
			(float)(_Float16)fmaf(in[i], in[i + N], in[i + 2 * N]),
			(float)(_Float16)((float)a + (float)b),
			(float)(_Float16)fma((double)a, (double)s.x, (double)c),
			/* quiet NaN, -0, +0 */
			isnan((float)a) || (float)a == 0.0f ? 1.0f : 0.0f,
			0,
		};
		float want_hi = (float)(_Float16)fma((double)b, (double)s.y, (double)a);

		for (int k = 0; k < 10; k++)
			if (memcmp(&out[i * 10 + k], &want[k], sizeof(float)) &&
			    !(isnan(out[i * 10 + k]) && isnan(want[k])))
				HIP_FAIL("half %u.%d: %g, want %g", i, k, out[i * 10 + k], want[k]);
		if ((float)hi[i] != want_hi && !(isnan((float)hi[i]) && isnan(want_hi)))
			HIP_FAIL("half %u: high half %g, want %g", i, (float)hi[i], want_hi);
	}
	printf("half results equal\n");
}

/* ---- doubles ---- */

__global__ void
k_doubles(const unsigned int *in, double *out, long long *iout)
{
	unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
	double a = (double)(int)in[i] / 1024.0, b = (double)in[(i + 7) % N] * 0x1p-20 + 0.5;
	float f = (float)(in[i] & 0xffffff) * 0x1p-12f;

	out[i * 8 + 0] = a + b;
	out[i * 8 + 1] = a * b;
	out[i * 8 + 2] = fma(a, b, -a);
	out[i * 8 + 3] = a / b;
	out[i * 8 + 4] = sqrt(b);
	out[i * 8 + 5] = (double)f + (double)(unsigned int)in[i];
	out[i * 8 + 6] = (double)(float)(a * 3.0);
	out[i * 8 + 7] = a < b ? floor(b - a) : ceil(b - a);
	iout[i * 2 + 0] = (long long)(a * 1e6);
	iout[i * 2 + 1] = (int)(b * 1000.0);
}

static void
check_doubles(const unsigned int *in, const double *out, const long long *iout)
{
	for (unsigned int i = 0; i < N; i++) {
		double a = (double)(int)in[i] / 1024.0, b = (double)in[(i + 7) % N] * 0x1p-20 + 0.5;
		float f = (float)(in[i] & 0xffffff) * 0x1p-12f;
		double want[8] = {
			a + b, a * b, fma(a, b, -a), a / b, sqrt(b),
			(double)f + (double)(unsigned int)in[i], (double)(float)(a * 3.0),
			a < b ? floor(b - a) : ceil(b - a),
		};
		long long iw[2] = { (long long)(a * 1e6), (int)(b * 1000.0) };

		/* IEEE results, correctly rounded: bit for bit */
		for (int k = 0; k < 8; k++)
			if (memcmp(&out[i * 8 + k], &want[k], sizeof(double)))
				HIP_FAIL("double %u.%d: %.17g, want %.17g", i, k, out[i * 8 + k],
					 want[k]);
		for (int k = 0; k < 2; k++)
			if (iout[i * 2 + k] != iw[k])
				HIP_FAIL("double conversion %u.%d: %lld, want %lld", i, k,
					 iout[i * 2 + k], iw[k]);
	}
	printf("double results equal\n");
}

int
main(void)
{
	static unsigned int hin[N], hout[DPP_N * N], hsum[WAVES_MAX];
	static unsigned long long hballot[WAVES_MAX];
	static double hd[N * 8];
	static long long hl[N * 2];
	unsigned int *in, *out, *sum, *cas, *wsum;
	unsigned long long *ballot;
	double *dout;
	long long *lout;
	int *isum, *imax, hisum, himax, wisum = 0, wimax = INT_MIN;
	float *fsum, hfsum, wfsum = 0;
	unsigned int hcas, hwsum[N / 256];

	hipDeviceProp_t prop;

	hip_start();
	HIP_CHECK(hipSetDevice(0));
	HIP_CHECK(hipGetDeviceProperties(&prop, 0));
	wave_size = prop.warpSize;
	for (unsigned int i = 0; i < N; i++)
		hin[i] = mix(i + 1);
	HIP_CHECK(hipMalloc(&in, sizeof(hin)));
	HIP_CHECK(hipMalloc(&out, sizeof(hout)));
	HIP_CHECK(hipMalloc(&sum, sizeof(hsum)));
	HIP_CHECK(hipMalloc(&ballot, sizeof(hballot)));
	HIP_CHECK(hipMalloc(&dout, sizeof(hd)));
	HIP_CHECK(hipMalloc(&lout, sizeof(hl)));
	HIP_CHECK(hipMalloc(&isum, sizeof(int) * 2));
	HIP_CHECK(hipMalloc(&imax, sizeof(int)));
	HIP_CHECK(hipMalloc(&fsum, sizeof(float)));
	HIP_CHECK(hipMalloc(&cas, sizeof(unsigned int)));
	HIP_CHECK(hipMalloc(&wsum, sizeof(hwsum)));
	HIP_CHECK(hipMemcpy(in, hin, sizeof(hin), hipMemcpyHostToDevice));

	/* wave intrinsics */
	hipLaunchKernelGGL(k_wave, dim3(N / 256), dim3(256), 0, 0, in, ballot, out);
	HIP_CHECK(hipGetLastError());
	HIP_CHECK(hipMemcpy(hballot, ballot, sizeof(hballot), hipMemcpyDeviceToHost));
	HIP_CHECK(hipMemcpy(hout, out, N * 6 * sizeof(int), hipMemcpyDeviceToHost));
	for (int w = 0; w < N / WAVE; w++) {
		unsigned long long b = 0;
		int any = 0, all = 1;

		for (int l = 0; l < WAVE; l++) {
			b |= (unsigned long long)(hin[w * WAVE + l] & 1) << l;
			any |= hin[w * WAVE + l] % 97 == 0;
			all &= hin[w * WAVE + l] % 128 != (unsigned int)(l & 3);
		}
		if (hballot[w] != b)
			HIP_FAIL("wave %d: ballot 0x%llx, want 0x%llx", w, hballot[w], b);
		for (int l = 0; l < WAVE; l++) {
			int i = w * WAVE + l;
			unsigned int want[6] = {
				hin[w * WAVE + (l * 7 + 3) % WAVE], hin[w * WAVE + (l ^ 5)],
				hin[w * WAVE + (l + 3 < WAVE ? l + 3 : l)], (unsigned int)any,
				(unsigned int)all,
				(unsigned int)(__builtin_popcountll(b) + __builtin_popcount(hin[i])),
			};

			for (int k = 0; k < 6; k++)
				if (hout[i * 6 + k] != want[k])
					HIP_FAIL("wave op %d lane %d: 0x%x, want 0x%x", k, i,
						 hout[i * 6 + k], want[k]);
		}
	}
	printf("ballot, shfl, shfl_xor, shfl_down, any, all, popcll equal\n");

	/* DPP controls */
	hipLaunchKernelGGL(k_dpp, dim3(N / 256), dim3(256), 0, 0, in, out);
	HIP_CHECK(hipGetLastError());
	HIP_CHECK(hipMemcpy(hout, out, sizeof(hout), hipMemcpyDeviceToHost));
	check_dpp(hin, hout);

	/* DPP scan */
	hipLaunchKernelGGL(k_scan, dim3(N / 256), dim3(256), 0, 0, in, out, sum);
	HIP_CHECK(hipGetLastError());
	HIP_CHECK(hipMemcpy(hout, out, 2 * N * sizeof(int), hipMemcpyDeviceToHost));
	HIP_CHECK(hipMemcpy(hsum, sum, sizeof(hsum), hipMemcpyDeviceToHost));
	check_scan(hin, hout, hsum);

	/* ds_swizzle */
	hipLaunchKernelGGL(k_swizzle, dim3(N / 256), dim3(256), 0, 0, in, out);
	HIP_CHECK(hipGetLastError());
	HIP_CHECK(hipMemcpy(hout, out, 3 * N * sizeof(int), hipMemcpyDeviceToHost));
	check_swizzle(hin, hout);

	/* bytes and bit fields */
	hipLaunchKernelGGL(k_bytes, dim3(N / 256), dim3(256), 0, 0, in, out);
	HIP_CHECK(hipGetLastError());
	HIP_CHECK(hipMemcpy(hout, out, 6 * N * sizeof(int), hipMemcpyDeviceToHost));
	check_bytes(hin, hout);

	/* atomics */
	HIP_CHECK(hipMemset(isum, 0, sizeof(int)));
	HIP_CHECK(hipMemset(fsum, 0, sizeof(float)));
	HIP_CHECK(hipMemset(cas, 0, sizeof(unsigned int)));
	HIP_CHECK(hipMemset(wsum, 0, sizeof(hwsum)));
	HIP_CHECK(hipMemcpy(imax, &wimax, sizeof(int), hipMemcpyHostToDevice));
	hipLaunchKernelGGL(k_atomics, dim3(N / 256), dim3(256), 0, 0, in, isum, fsum, cas,
			   imax, wsum);
	HIP_CHECK(hipGetLastError());
	HIP_CHECK(hipMemcpy(&hisum, isum, sizeof(int), hipMemcpyDeviceToHost));
	HIP_CHECK(hipMemcpy(&hfsum, fsum, sizeof(float), hipMemcpyDeviceToHost));
	HIP_CHECK(hipMemcpy(&himax, imax, sizeof(int), hipMemcpyDeviceToHost));
	HIP_CHECK(hipMemcpy(&hcas, cas, sizeof(unsigned int), hipMemcpyDeviceToHost));
	HIP_CHECK(hipMemcpy(hwsum, wsum, sizeof(hwsum), hipMemcpyDeviceToHost));
	for (unsigned int i = 0; i < N; i++) {
		int m = (int)(hin[i] >> 1) * ((hin[i] & 1) ? -1 : 1);

		wisum += (int)(hin[i] & 0xfff) - 0x800;
		wfsum += (float)(hin[i] & 0xff);
		wimax = m > wimax ? m : wimax;
	}
	if (hisum != wisum || hfsum != wfsum || himax != wimax || hcas != N)
		HIP_FAIL("atomics: add %d max %d float %g cas %u, want %d %d %g %u", hisum, himax,
			 hfsum, hcas, wisum, wimax, wfsum, N);
	for (unsigned int g = 0; g < N / 256; g++) {
		unsigned int s = 0;

		for (unsigned int k = 0; k < 256; k++)
			s += hin[g * 256 + k] & 0xffff;
		if (hwsum[g] != s)
			HIP_FAIL("work-group %u: atomic sum %u, want %u", g, hwsum[g], s);
	}
	printf("atomics equal\n");

	/* doubles */
	hipLaunchKernelGGL(k_doubles, dim3(N / 256), dim3(256), 0, 0, in, dout, lout);
	HIP_CHECK(hipGetLastError());
	HIP_CHECK(hipMemcpy(hd, dout, sizeof(hd), hipMemcpyDeviceToHost));
	HIP_CHECK(hipMemcpy(hl, lout, sizeof(hl), hipMemcpyDeviceToHost));
	check_doubles(hin, hd, hl);

	/* halves: inputs in [-1.5, 2] with zeros and a NaN among them */
	{
		static float hf[3 * N], hfo[10 * N];
		static _Float16 hh[N];
		half2_t s = { (_Float16)1.5f, (_Float16)-0.25f };
		float *fin, *fout;
		_Float16 *hio;

		for (unsigned int i = 0; i < 3 * N; i++)
			hf[i] = (float)(hin[i % N] % 29 + i / N) / 8.0f - 1.5f;
		hf[5] = 0.0f;
		hf[6] = -0.0f;
		hf[7] = NAN;
		HIP_CHECK(hipMalloc(&fin, sizeof(hf)));
		HIP_CHECK(hipMalloc(&fout, sizeof(hfo)));
		HIP_CHECK(hipMalloc(&hio, sizeof(hh)));
		HIP_CHECK(hipMemcpy(fin, hf, sizeof(hf), hipMemcpyHostToDevice));
		hipLaunchKernelGGL(k_halves, dim3(N / 256), dim3(256), 0, 0, fin, fout, hio, s);
		HIP_CHECK(hipGetLastError());
		HIP_CHECK(hipMemcpy(hfo, fout, sizeof(hfo), hipMemcpyDeviceToHost));
		HIP_CHECK(hipMemcpy(hh, hio, sizeof(hh), hipMemcpyDeviceToHost));
		check_halves(hf, hfo, hh, s);
		HIP_CHECK(hipFree(fin));
		HIP_CHECK(hipFree(fout));
		HIP_CHECK(hipFree(hio));
	}

	HIP_CHECK(hipFree(in));
	HIP_CHECK(hipFree(out));
	HIP_CHECK(hipFree(sum));
	HIP_CHECK(hipFree(ballot));
	HIP_CHECK(hipFree(dout));
	HIP_CHECK(hipFree(lout));
	HIP_CHECK(hipFree(isum));
	HIP_CHECK(hipFree(imax));
	HIP_CHECK(hipFree(fsum));
	HIP_CHECK(hipFree(cas));
	HIP_CHECK(hipFree(wsum));
	printf("PASS: hip_wave\n");
	return 0;
}

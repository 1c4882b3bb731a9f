/* SPDX-License-Identifier: MIT */
/*
 * rocRAND's host API (Debian's librocrand1 and librocrand-dev): 1M
 * uniform and 1M normal floats, and 1M uniform halves, from its own
 * kernels, checked
 * statistically on the host. The mean and the variance of each sample must
 * lie within 5 standard errors of the distribution's (uniform on (0, 1]:
 * 1/2 and 1/12; standard normal: 0 and 1), every uniform value in (0, 1],
 * and the generator seeded twice must give the same numbers. A kernel that
 * computed wrongly (a bad shift, carry or float conversion) moves these far
 * outside the bounds. The arguments name the generators: Philox4x32-10
 * (integer multiplies, no state set-up), MRG32k3a (its set-up and
 * generation compute in doubles), MTGP32 (LDS, bit fields), XORWOW (its
 * set-up kernel jumps each state ahead: minutes on the interpreter).
 */
#include "hip_check.h"

#include <math.h>
#include <vector>

#include <rocrand/rocrand.h>

#define N (1u << 20)

#define RR_CHECK(call)							\
	do {								\
		rocrand_status s_ = (call);				\
		if (s_ != ROCRAND_STATUS_SUCCESS)			\
			HIP_FAIL("%s: rocrand status %d", #call, (int)s_); \
	} while (0)

/* Mean and variance of @v, in double. */
static void
moments(const std::vector<float> &v, double *mean, double *var)
{
	double s = 0, q = 0;

	for (float x : v)
		s += x;
	*mean = s / (double)v.size();
	for (float x : v)
		q += (x - *mean) * (x - *mean);
	*var = q / (double)(v.size() - 1);
}

/*
 * Within 5 standard errors: the mean's is sqrt(var / n); the variance's
 * sqrt((mu4 - var^2) / n), with the distribution's fourth central moment.
 */
static void
check_moments(const char *what, const std::vector<float> &v, double want_mean,
	      double want_var, double mu4)
{
	double mean, var, n = (double)v.size();
	double se_mean = sqrt(want_var / n), se_var = sqrt((mu4 - want_var * want_var) / n);

	moments(v, &mean, &var);
	printf("%s: mean %.6f (want %.6f +- %.6f), variance %.6f (want %.6f +- %.6f)\n",
	       what, mean, want_mean, 5 * se_mean, var, want_var, 5 * se_var);
	if (fabs(mean - want_mean) > 5 * se_mean)
		HIP_FAIL("%s: mean %.6f, more than 5 sigma from %.6f", what, mean, want_mean);
	if (fabs(var - want_var) > 5 * se_var)
		HIP_FAIL("%s: variance %.6f, more than 5 sigma from %.6f", what, var, want_var);
}

/* An IEEE half's value (the host has no half arithmetic of its own). */
static float
half_value(uint16_t h)
{
	int e = (h >> 10) & 31;
	float m = (float)(h & 0x3ff), v;

	if (e == 31)
		v = (h & 0x3ff) ? NAN : INFINITY;
	else if (e)
		v = ldexpf(1024.0f + m, e - 25);
	else
		v = ldexpf(m, -24);
	return (h & 0x8000) ? -v : v;
}

/*
 * 1M uniform halves, the moments as for floats (f16 and mixed-precision
 * math). Not the normal halves: rocRAND 5.3.3's kernel, as Debian built
 * it, selects NaN for the sine of each Box-Muller pair wherever its input
 * is finite (docs/kfdsim.md, Shaders), as the code says to.
 */
static void
run_half(const char *name, rocrand_generator gen, half *d)
{
	std::vector<uint16_t> h(N);
	std::vector<float> v(N);
	char what[64];

	RR_CHECK(rocrand_generate_uniform_half(gen, d, N));
	HIP_CHECK(hipDeviceSynchronize());
	HIP_CHECK(hipMemcpy(h.data(), d, N * sizeof(uint16_t), hipMemcpyDeviceToHost));
	for (unsigned int i = 0; i < N; i++) {
		v[i] = half_value(h[i]);
		if (!(v[i] > 0.0f && v[i] <= 1.0f))
			HIP_FAIL("%s uniform half [%u]: %g outside (0, 1]", name, i, v[i]);
	}
	snprintf(what, sizeof(what), "%s uniform half", name);
	check_moments(what, v, 0.5, 1.0 / 12, 1.0 / 80);

}

/* The generators run, by the name the arguments give. */
static const struct {
	const char *name;
	rocrand_rng_type type;
} gens[] = {
	{ "philox", ROCRAND_RNG_PSEUDO_PHILOX4_32_10 },
	{ "mrg32k3a", ROCRAND_RNG_PSEUDO_MRG32K3A },
	{ "mtgp32", ROCRAND_RNG_PSEUDO_MTGP32 },
	{ "xorwow", ROCRAND_RNG_PSEUDO_XORWOW },
};

static void
run(const char *name, rocrand_rng_type type, float *d)
{
	std::vector<float> u(N), u2(N), g(N);
	rocrand_generator gen;
	char what[64];

	printf("%s:\n", name);
	RR_CHECK(rocrand_create_generator(&gen, type));
	RR_CHECK(rocrand_set_seed(gen, 0x5eedull));

	RR_CHECK(rocrand_generate_uniform(gen, d, N));
	HIP_CHECK(hipDeviceSynchronize());
	HIP_CHECK(hipMemcpy(u.data(), d, N * sizeof(float), hipMemcpyDeviceToHost));
	for (unsigned int i = 0; i < N; i++)
		if (!(u[i] > 0.0f && u[i] <= 1.0f))
			HIP_FAIL("%s uniform [%u]: %g outside (0, 1]", name, i, u[i]);
	/* uniform: mu4 = 1/80 */
	snprintf(what, sizeof(what), "%s uniform", name);
	check_moments(what, u, 0.5, 1.0 / 12, 1.0 / 80);

	/* the same seed again: the same numbers */
	RR_CHECK(rocrand_set_seed(gen, 0x5eedull));
	RR_CHECK(rocrand_generate_uniform(gen, d, N));
	HIP_CHECK(hipDeviceSynchronize());
	HIP_CHECK(hipMemcpy(u2.data(), d, N * sizeof(float), hipMemcpyDeviceToHost));
	if (memcmp(u.data(), u2.data(), N * sizeof(float)))
		HIP_FAIL("%s: the same seed gave other numbers", name);
	printf("%s: the same seed gives the same numbers\n", name);

	RR_CHECK(rocrand_generate_normal(gen, d, N, 0.0f, 1.0f));
	HIP_CHECK(hipDeviceSynchronize());
	HIP_CHECK(hipMemcpy(g.data(), d, N * sizeof(float), hipMemcpyDeviceToHost));
	for (unsigned int i = 0; i < N; i++)
		if (!isfinite(g[i]))
			HIP_FAIL("%s normal [%u]: %g", name, i, g[i]);
	/* standard normal: mu4 = 3 */
	snprintf(what, sizeof(what), "%s normal", name);
	check_moments(what, g, 0.0, 1.0, 3.0);
	/* half precision: rocRAND's f16 and mixed-precision kernels */
	run_half(name, gen, (half *)d);
	RR_CHECK(rocrand_destroy_generator(gen));
}

/* hip_rocrand [GENERATOR...]: philox, mrg32k3a, mtgp32, xorwow; default philox. */
int
main(int argc, char **argv)
{
	float *d;

	hip_start();
	HIP_CHECK(hipSetDevice(0));
	HIP_CHECK(hipMalloc(&d, N * sizeof(float)));
	for (int a = 1; a < (argc > 1 ? argc : 2); a++) {
		const char *name = argc > 1 ? argv[a] : "philox";
		size_t k;

		for (k = 0; k < sizeof(gens) / sizeof(gens[0]); k++)
			if (!strcmp(gens[k].name, name))
				break;
		if (k == sizeof(gens) / sizeof(gens[0]))
			HIP_FAIL("no generator %s", name);
		run(name, gens[k].type, d);
	}
	HIP_CHECK(hipFree(d));
	printf("PASS: hip_rocrand\n");
	return 0;
}

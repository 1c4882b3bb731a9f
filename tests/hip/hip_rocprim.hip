/* SPDX-License-Identifier: MIT */
/*
 * rocPRIM's device-wide algorithms (Debian's librocprim-dev, header only):
 * a reduction, an inclusive scan and a radix sort of 1M keys, each result
 * compared with the host's exactly. Their kernels are rocPRIM's own block
 * and warp primitives (DPP, ds_bpermute, LDS, lookback scan with atomics),
 * so the test fails if any instruction they use computes wrongly.
 * Debian 12 packages no hipCUB, whose device algorithms are rocPRIM's.
 */
#include "hip_check.h"

#include <algorithm>
#include <vector>

#include <rocprim/device/device_radix_sort.hpp>
#include <rocprim/device/device_reduce.hpp>
#include <rocprim/device/device_scan.hpp>

#define N (1u << 20)

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

int
main(void)
{
	std::vector<unsigned int> hin(N), hout(N), want(N);
	unsigned int *in, *out, *sum, hsum = 0, wsum = 0;
	size_t bytes = 0, need;
	void *tmp;

	hip_start();
	HIP_CHECK(hipSetDevice(0));
	for (unsigned int i = 0; i < N; i++) {
		hin[i] = mix(i + 1);
		wsum += hin[i];
	}
	HIP_CHECK(hipMalloc(&in, N * sizeof(unsigned int)));
	HIP_CHECK(hipMalloc(&out, N * sizeof(unsigned int)));
	HIP_CHECK(hipMalloc(&sum, sizeof(unsigned int)));
	HIP_CHECK(hipMemcpy(in, hin.data(), N * sizeof(unsigned int), hipMemcpyHostToDevice));

	/* the temporary storage of the largest of the three */
	HIP_CHECK(rocprim::reduce(nullptr, need, in, sum, 0u, N, rocprim::plus<unsigned int>()));
	bytes = std::max(bytes, need);
	HIP_CHECK(rocprim::inclusive_scan(nullptr, need, in, out, N,
					  rocprim::plus<unsigned int>()));
	bytes = std::max(bytes, need);
	HIP_CHECK(rocprim::radix_sort_keys(nullptr, need, in, out, N));
	bytes = std::max(bytes, need);
	HIP_CHECK(hipMalloc(&tmp, bytes));

	/* reduce (unsigned sums wrap: exact whatever the order) */
	need = bytes;
	HIP_CHECK(rocprim::reduce(tmp, need, in, sum, 0u, N, rocprim::plus<unsigned int>()));
	HIP_CHECK(hipDeviceSynchronize());
	HIP_CHECK(hipMemcpy(&hsum, sum, sizeof(hsum), hipMemcpyDeviceToHost));
	if (hsum != wsum)
		HIP_FAIL("reduce: %u, want %u", hsum, wsum);
	printf("reduce of %u keys equal\n", N);

	/* inclusive scan */
	need = bytes;
	HIP_CHECK(rocprim::inclusive_scan(tmp, need, in, out, N, rocprim::plus<unsigned int>()));
	HIP_CHECK(hipDeviceSynchronize());
	HIP_CHECK(hipMemcpy(hout.data(), out, N * sizeof(unsigned int), hipMemcpyDeviceToHost));
	for (unsigned int i = 0, s = 0; i < N; i++) {
		s += hin[i];
		if (hout[i] != s)
			HIP_FAIL("inclusive scan [%u]: %u, want %u", i, hout[i], s);
	}
	printf("inclusive scan of %u keys equal\n", N);

	/* radix sort */
	need = bytes;
	HIP_CHECK(rocprim::radix_sort_keys(tmp, need, in, out, N));
	HIP_CHECK(hipDeviceSynchronize());
	HIP_CHECK(hipMemcpy(hout.data(), out, N * sizeof(unsigned int), hipMemcpyDeviceToHost));
	want = hin;
	std::sort(want.begin(), want.end());
	for (unsigned int i = 0; i < N; i++)
		if (hout[i] != want[i])
			HIP_FAIL("radix sort [%u]: %u, want %u", i, hout[i], want[i]);
	printf("radix sort of %u keys equal\n", N);

	HIP_CHECK(hipFree(tmp));
	HIP_CHECK(hipFree(in));
	HIP_CHECK(hipFree(out));
	HIP_CHECK(hipFree(sum));
	printf("PASS: hip_rocprim\n");
	return 0;
}

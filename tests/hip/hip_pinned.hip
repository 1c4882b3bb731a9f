/* SPDX-License-Identifier: MIT */
/*
 * Pinned host memory (hipHostMalloc) host -> device -> host, 8 MiB and
 * the bytes checked; hipMemcpyAsync on a stream between pinned buffers;
 * a device-to-device copy and hipMemset complete (kfdsim does not run
 * their blit kernels, so only the SDMA-moved bytes are checked).
 */
#include "hip_check.h"

#define SIZE (8u << 20)

int
main(void)
{
	unsigned char *src, *dst;
	hipStream_t s;
	void *dev, *dev2;

	hip_start();
	HIP_CHECK(hipSetDevice(0));
	HIP_CHECK(hipHostMalloc((void **)&src, SIZE, hipHostMallocDefault));
	HIP_CHECK(hipHostMalloc((void **)&dst, SIZE, hipHostMallocDefault));
	for (size_t i = 0; i < SIZE; i++)
		src[i] = (unsigned char)(i * 2654435761u >> 11);
	memset(dst, 0, SIZE);
	HIP_CHECK(hipMalloc(&dev, SIZE));
	HIP_CHECK(hipMalloc(&dev2, SIZE));
	HIP_CHECK(hipStreamCreate(&s));
	HIP_CHECK(hipMemcpyAsync(dev, src, SIZE, hipMemcpyHostToDevice, s));
	HIP_CHECK(hipMemcpyAsync(dst, dev, SIZE, hipMemcpyDeviceToHost, s));
	HIP_CHECK(hipStreamSynchronize(s));
	for (size_t i = 0; i < SIZE; i++)
		if (dst[i] != src[i])
			HIP_FAIL("byte %zu: 0x%02x, want 0x%02x", i, dst[i], src[i]);
	printf("pinned round trip of %u MiB: bytes equal\n", SIZE >> 20);
	HIP_CHECK(hipMemcpy(dev2, dev, SIZE, hipMemcpyDeviceToDevice));
	HIP_CHECK(hipMemset(dev2, 0x5a, SIZE));
	HIP_CHECK(hipMemsetAsync(dev, 0, SIZE / 2, s));
	HIP_CHECK(hipStreamSynchronize(s));
	HIP_CHECK(hipDeviceSynchronize());
	printf("device copy and memsets completed\n");
	HIP_CHECK(hipStreamDestroy(s));
	HIP_CHECK(hipFree(dev2));
	HIP_CHECK(hipFree(dev));
	HIP_CHECK(hipHostFree(dst));
	HIP_CHECK(hipHostFree(src));
	printf("PASS: hip_pinned\n");
	return 0;
}

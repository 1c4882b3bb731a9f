/* SPDX-License-Identifier: MIT */
/*
 * Pinned host memory (hipHostMalloc) host -> device -> host, 8 MiB and
 * the bytes checked; hipMemcpyAsync on a stream between pinned buffers;
 * a device-to-device copy and hipMemset complete. With the argument
 * "check" (a profile whose shaders kfdsim runs: the copy and the fills
 * are blit kernels) their bytes are checked as well.
 */
#include "hip_check.h"

#define SIZE (8u << 20)

/* Copy @dev back into @host and compare with @want (NULL: every byte @v). */
static void
expect(unsigned char *host, const void *dev, size_t off, size_t n,
       const unsigned char *want, unsigned char v, const char *what)
{
	HIP_CHECK(hipMemcpy(host, (const unsigned char *)dev + off, n, hipMemcpyDeviceToHost));
	for (size_t i = 0; i < n; i++) {
		unsigned char w = want ? want[off + i] : v;

		if (host[i] != w)
			HIP_FAIL("%s: byte %zu: 0x%02x, want 0x%02x", what, off + i, host[i], w);
	}
	printf("%s: %zu bytes as expected\n", what, n);
}

int
main(int argc, char **argv)
{
	int check = argc > 1 && !strcmp(argv[1], "check");
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
	if (check)
		expect(dst, dev2, 0, SIZE, src, 0, "device-to-device copy");
	HIP_CHECK(hipMemset(dev2, 0x5a, SIZE));
	if (check)
		expect(dst, dev2, 0, SIZE, NULL, 0x5a, "hipMemset 0x5a");
	HIP_CHECK(hipMemsetAsync(dev, 0, SIZE / 2, s));
	HIP_CHECK(hipStreamSynchronize(s));
	HIP_CHECK(hipDeviceSynchronize());
	if (check) {
		expect(dst, dev, 0, SIZE / 2, NULL, 0, "hipMemsetAsync 0, first half");
		expect(dst, dev, SIZE / 2, SIZE / 2, src, 0, "second half untouched");
	}
	printf("device copy and memsets completed\n");
	HIP_CHECK(hipStreamDestroy(s));
	HIP_CHECK(hipFree(dev2));
	HIP_CHECK(hipFree(dev));
	HIP_CHECK(hipHostFree(dst));
	HIP_CHECK(hipHostFree(src));
	printf("PASS: hip_pinned\n");
	return 0;
}

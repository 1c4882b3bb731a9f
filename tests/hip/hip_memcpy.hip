/* SPDX-License-Identifier: MIT */
/*
 * hipMemcpy of 16 MiB host -> device -> host, every byte checked. Needs
 * the simulated SDMA engine (or ROCr's blit kernel) to move the bytes.
 */
#include "hip_check.h"

#define SIZE (16u << 20)

int
main(void)
{
	unsigned char *src = (unsigned char *)malloc(SIZE);
	unsigned char *dst = (unsigned char *)malloc(SIZE);
	void *dev;

	if (!src || !dst)
		HIP_FAIL("out of host memory");
	/* not a repeating byte pattern: a misplaced page shows */
	for (size_t i = 0; i < SIZE; i++)
		src[i] = (unsigned char)(i * 2654435761u >> 13);
	memset(dst, 0, SIZE);
	hip_start();
	HIP_CHECK(hipSetDevice(0));
	HIP_CHECK(hipMalloc(&dev, SIZE));
	HIP_CHECK(hipMemcpy(dev, src, SIZE, hipMemcpyHostToDevice));
	printf("copied %u MiB host -> device\n", SIZE >> 20);
	HIP_CHECK(hipMemcpy(dst, dev, SIZE, hipMemcpyDeviceToHost));
	printf("copied %u MiB device -> host\n", SIZE >> 20);
	for (size_t i = 0; i < SIZE; i++)
		if (dst[i] != src[i])
			HIP_FAIL("byte %zu: 0x%02x, want 0x%02x", i, dst[i], src[i]);
	HIP_CHECK(hipFree(dev));
	free(src);
	free(dst);
	printf("PASS: hip_memcpy (%u bytes checked)\n", SIZE);
	return 0;
}

/* SPDX-License-Identifier: MIT */
/*
 * Two devices (mi210x2): each sees the other as a peer, peer access is
 * enabled both ways, and hipMemcpyPeer moves 4 MiB from device 0 to
 * device 1; the bytes, staged in and out through host copies, are
 * checked.
 */
#include "hip_check.h"

#define SIZE (4u << 20)

int
main(void)
{
	unsigned char *src = (unsigned char *)malloc(SIZE);
	unsigned char *dst = (unsigned char *)malloc(SIZE);
	int n = 0, can01 = 0, can10 = 0;
	void *d0, *d1;

	if (!src || !dst)
		HIP_FAIL("out of host memory");
	for (size_t i = 0; i < SIZE; i++)
		src[i] = (unsigned char)(i * 40503u >> 7);
	memset(dst, 0, SIZE);
	hip_start();
	HIP_CHECK(hipGetDeviceCount(&n));
	if (n < 2)
		HIP_FAIL("%d device(s), want 2", n);
	HIP_CHECK(hipDeviceCanAccessPeer(&can01, 0, 1));
	HIP_CHECK(hipDeviceCanAccessPeer(&can10, 1, 0));
	printf("peer access: 0->1 %d, 1->0 %d\n", can01, can10);
	if (!can01 || !can10)
		HIP_FAIL("the two GPUs are not peers");
	HIP_CHECK(hipSetDevice(0));
	HIP_CHECK(hipDeviceEnablePeerAccess(1, 0));
	HIP_CHECK(hipMalloc(&d0, SIZE));
	HIP_CHECK(hipSetDevice(1));
	HIP_CHECK(hipDeviceEnablePeerAccess(0, 0));
	HIP_CHECK(hipMalloc(&d1, SIZE));
	HIP_CHECK(hipSetDevice(0));
	HIP_CHECK(hipMemcpy(d0, src, SIZE, hipMemcpyHostToDevice));
	HIP_CHECK(hipMemcpyPeer(d1, 1, d0, 0, SIZE));
	HIP_CHECK(hipDeviceSynchronize());
	HIP_CHECK(hipSetDevice(1));
	HIP_CHECK(hipMemcpy(dst, d1, SIZE, hipMemcpyDeviceToHost));
	printf("hipMemcpyPeer of %u MiB completed\n", SIZE >> 20);
	for (size_t i = 0; i < SIZE; i++)
		if (dst[i] != src[i])
			HIP_FAIL("byte %zu: 0x%02x, want 0x%02x", i, dst[i], src[i]);
	HIP_CHECK(hipFree(d1));
	HIP_CHECK(hipSetDevice(0));
	HIP_CHECK(hipFree(d0));
	free(src);
	free(dst);
	printf("PASS: hip_peer (%u bytes checked)\n", SIZE);
	return 0;
}

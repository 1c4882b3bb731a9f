/* SPDX-License-Identifier: MIT */
/*
 * Copies and fills that HIP makes with its blit kernels, read back with
 * SDMA copies, every byte checked:
 *
 *   a = the host's bytes (host to device: SDMA)
 *   b = a (device to device: __amd_rocclr_copyBuffer)
 *   c = 0x5a everywhere (hipMemset: __amd_rocclr_fillBufferAligned),
 *       then 5003 bytes of b from +100 at +4096 (a misaligned copy: its
 *       last bytes are the remainder the kernel copies one by one)
 *   b, then c, back to the host (device to host: SDMA)
 *
 * Byte i of a is (7 * i + 1) mod 256. tests/hip/run_compare.sh records
 * this with --submissions=full and replays it: the copies back compare
 * what the replayed blit kernels left.
 */
#include "hip_check.h"

#define SIZE (1u << 20)
#define C_AT 4096u
#define C_FROM 100u
#define C_LEN 5003u

static unsigned char
a_byte(size_t i)
{
	return (unsigned char)(7 * i + 1);
}

int
main(void)
{
	unsigned char *h = (unsigned char *)malloc(SIZE);
	unsigned char *g = (unsigned char *)malloc(SIZE);
	void *a, *b, *c;

	if (!h || !g)
		HIP_FAIL("out of host memory");
	for (size_t i = 0; i < SIZE; i++)
		h[i] = a_byte(i);
	hip_start();
	HIP_CHECK(hipMalloc(&a, SIZE));
	HIP_CHECK(hipMalloc(&b, SIZE));
	HIP_CHECK(hipMalloc(&c, SIZE));
	HIP_CHECK(hipMemcpy(a, h, SIZE, hipMemcpyHostToDevice));
	HIP_CHECK(hipMemcpy(b, a, SIZE, hipMemcpyDeviceToDevice));
	HIP_CHECK(hipMemset(c, 0x5a, SIZE));
	HIP_CHECK(hipMemcpy((char *)c + C_AT, (char *)b + C_FROM, C_LEN,
			    hipMemcpyDeviceToDevice));

	HIP_CHECK(hipMemcpy(g, b, SIZE, hipMemcpyDeviceToHost));
	for (size_t i = 0; i < SIZE; i++)
		if (g[i] != a_byte(i))
			HIP_FAIL("b[%zu]: 0x%02x, want 0x%02x", i, g[i], a_byte(i));
	HIP_CHECK(hipMemcpy(g, c, SIZE, hipMemcpyDeviceToHost));
	for (size_t i = 0; i < SIZE; i++) {
		unsigned char w = i >= C_AT && i < C_AT + C_LEN ?
				  a_byte(i - C_AT + C_FROM) : 0x5a;

		if (g[i] != w)
			HIP_FAIL("c[%zu]: 0x%02x, want 0x%02x", i, g[i], w);
	}
	HIP_CHECK(hipFree(a));
	HIP_CHECK(hipFree(b));
	HIP_CHECK(hipFree(c));
	free(h);
	free(g);
	printf("PASS: hip_blit (%u bytes checked)\n", 2 * SIZE);
	return 0;
}

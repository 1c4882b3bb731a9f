/* SPDX-License-Identifier: MIT */
/*
 * hipMalloc/hipFree loop: device allocations of 4 KiB to 64 MiB, several
 * live at once, freed in another order than made, 20 rounds. Free device
 * memory (hipMemGetInfo) must drop while they are live and come back when
 * they are freed.
 */
#include "hip_check.h"

#define NBUF 8
#define ROUNDS 20

int
main(void)
{
	void *buf[NBUF];
	size_t fr0, frl = 0, fr1, total, live = 0;
	unsigned long n = 0;

	hip_start();
	HIP_CHECK(hipSetDevice(0));
	HIP_CHECK(hipMemGetInfo(&fr0, &total));
	for (int r = 0; r < ROUNDS; r++) {
		for (int i = 0; i < NBUF; i++) {
			size_t sz = (size_t)4096 << (2 * i % 15);

			HIP_CHECK(hipMalloc(&buf[i], sz));
			if (!buf[i])
				HIP_FAIL("hipMalloc(%zu) returned NULL", sz);
			for (int j = 0; j < i; j++)
				if (buf[j] == buf[i])
					HIP_FAIL("hipMalloc returned %p twice", buf[i]);
			n++;
			if (r == 0)
				live += sz;
		}
		if (r == 0)
			HIP_CHECK(hipMemGetInfo(&frl, &total));
		/* odd ones first, then even */
		for (int i = 1; i < NBUF; i += 2)
			HIP_CHECK(hipFree(buf[i]));
		for (int i = 0; i < NBUF; i += 2)
			HIP_CHECK(hipFree(buf[i]));
	}
	HIP_CHECK(hipMemGetInfo(&fr1, &total));
	printf("allocated and freed %lu buffers; free %zu MiB, %zu with %zu MiB "
	       "live, %zu after, of %zu MiB\n", n, fr0 >> 20, frl >> 20,
	       live >> 20, fr1 >> 20, total >> 20);
	if (frl > fr0 || fr0 - frl < live)
		HIP_FAIL("free memory fell by %zu bytes for %zu live", fr0 - frl, live);
	if (fr1 != fr0)
		HIP_FAIL("free memory %zu after, %zu before", fr1, fr0);
	printf("PASS: hip_malloc\n");
	return 0;
}

/* SPDX-License-Identifier: MIT */
/*
 * Copies of 4 KiB and 16 MiB between the device and malloc'd (pageable)
 * or pinned (hipHostMalloc) memory, both ways, and hipMemset of both
 * sizes. HIP chooses the engine by size and runtime version; kfdsim's
 * SDMA engine moves bytes, but it runs no shaders, so a copy that goes
 * through a blit kernel completes without its bytes. Which path each copy
 * takes was found with `kfdtrace record --submissions` on mi210, mi100,
 * rx6900xt (HIP 5.2.3) and mi210, rx6900xt, mi300x (HIP 6.4):
 *
 *	copy			HIP 5.2.3		HIP 6.4
 *	16 MiB, either way	SDMA			SDMA
 *	4 KiB pinned		SDMA			blit kernel
 *	4 KiB pageable		SDMA or the CPU		blit kernel
 *	hipMemset		blit kernel		blit kernel
 *
 * (HIP 6.4 takes SDMA from 64 KiB up, a blit kernel up to 16 KiB.) The
 * bytes are checked where no kernel computes them; elsewhere only the
 * completion is.
 */
#include "hip_check.h"

#define SMALL (4u << 10)
#define LARGE (16u << 20)

static unsigned char
pattern(size_t i, unsigned int seed)
{
	return (unsigned char)((i + seed) * 2654435761u >> 9);
}

/*
 * Whether HIP copies @size bytes between the host and the device without
 * a kernel (see the table above): only then can kfdsim move the bytes.
 */
static int
copy_without_kernel(size_t size, int runtime)
{
	return size >= (64u << 10) || runtime < 60000000;
}

/*
 * @src to the device and back into @dst, @size bytes, synchronous or on
 * @s; the bytes are checked when the copies take no kernel.
 */
static void
round_trip(unsigned char *src, unsigned char *dst, void *dev, size_t size,
	   hipStream_t s, int runtime, const char *what)
{
	unsigned int seed = (unsigned int)size ^ (s ? 1 : 0);

	for (size_t i = 0; i < size; i++)
		src[i] = pattern(i, seed);
	memset(dst, 0, size);
	if (s) {
		HIP_CHECK(hipMemcpyAsync(dev, src, size, hipMemcpyHostToDevice, s));
		HIP_CHECK(hipMemcpyAsync(dst, dev, size, hipMemcpyDeviceToHost, s));
		HIP_CHECK(hipStreamSynchronize(s));
	} else {
		HIP_CHECK(hipMemcpy(dev, src, size, hipMemcpyHostToDevice));
		HIP_CHECK(hipMemcpy(dst, dev, size, hipMemcpyDeviceToHost));
	}
	if (!copy_without_kernel(size, runtime)) {
		printf("%s, %zu bytes%s: completed (a blit kernel)\n", what, size,
		       s ? ", async" : "");
		return;
	}
	for (size_t i = 0; i < size; i++)
		if (dst[i] != pattern(i, seed))
			HIP_FAIL("%s, %zu bytes: byte %zu: 0x%02x, want 0x%02x", what,
				 size, i, dst[i], pattern(i, seed));
	printf("%s, %zu bytes%s: bytes equal\n", what, size, s ? ", async" : "");
}

int
main(void)
{
	unsigned char *host_src = (unsigned char *)malloc(LARGE);
	unsigned char *host_dst = (unsigned char *)malloc(LARGE);
	unsigned char *pin_src, *pin_dst;
	size_t sizes[] = { SMALL, LARGE };
	int runtime = 0;
	hipStream_t s;
	void *dev;

	if (!host_src || !host_dst)
		HIP_FAIL("out of host memory");
	hip_start();
	HIP_CHECK(hipRuntimeGetVersion(&runtime));
	printf("HIP runtime %d\n", runtime);
	HIP_CHECK(hipSetDevice(0));
	HIP_CHECK(hipHostMalloc((void **)&pin_src, LARGE, hipHostMallocDefault));
	HIP_CHECK(hipHostMalloc((void **)&pin_dst, LARGE, hipHostMallocDefault));
	HIP_CHECK(hipMalloc(&dev, LARGE));
	HIP_CHECK(hipStreamCreate(&s));

	for (unsigned int i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		round_trip(host_src, host_dst, dev, sizes[i], NULL, runtime, "pageable");
		round_trip(pin_src, pin_dst, dev, sizes[i], NULL, runtime, "pinned");
		round_trip(host_src, host_dst, dev, sizes[i], s, runtime, "pageable");
		round_trip(pin_src, pin_dst, dev, sizes[i], s, runtime, "pinned");
	}

	/* memsets: a blit kernel on both runtimes, so completion only */
	HIP_CHECK(hipMemset(dev, 0x5a, SMALL));
	HIP_CHECK(hipMemset(dev, 0xa5, LARGE));
	HIP_CHECK(hipMemsetAsync(dev, 0, SMALL, s));
	HIP_CHECK(hipStreamSynchronize(s));
	HIP_CHECK(hipDeviceSynchronize());
	printf("memsets of %u and %u bytes completed\n", SMALL, LARGE);

	HIP_CHECK(hipStreamDestroy(s));
	HIP_CHECK(hipFree(dev));
	HIP_CHECK(hipHostFree(pin_dst));
	HIP_CHECK(hipHostFree(pin_src));
	free(host_dst);
	free(host_src);
	printf("PASS: hip_small_copies\n");
	return 0;
}

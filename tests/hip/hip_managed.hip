/* SPDX-License-Identifier: MIT */
/*
 * Managed memory (hipMallocManaged): the host writes a managed buffer,
 * hipMemcpy takes it to the device and back into a second managed
 * buffer, and from one managed buffer to another; hipMemAdvise and
 * hipMemPrefetchAsync where the device says it supports them; a kernel
 * on managed memory runs to completion; with the argument "check" (a
 * profile whose shaders kfdsim runs) it must have added 1 to every word.
 * kfdsim's SDMA engine moves bytes, also of the SVM ranges managed memory
 * lives in.
 * Every copy here moves its bytes without a kernel, so each is checked
 * (`kfdtrace record --submissions`, HIP 5.2.3 and 6.4): between managed
 * memory and the device SDMA copies from and to the managed addresses;
 * from managed to managed memory HIP copies on the CPU; prefetch and
 * advice only change the SVM ranges' attributes.
 */
#include "hip_check.h"

#define SIZE (4u << 20)

__global__ void
managed_add(unsigned int *p, unsigned int n)
{
	unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;

	if (i < n)
		p[i] += 1;
}

static unsigned char
pattern(size_t i)
{
	return (unsigned char)(i * 2654435761u >> 7);
}

/* Every byte of @p equal to the pattern; @what names the copy on failure. */
static void
check_bytes(const unsigned char *p, const char *what)
{
	for (size_t i = 0; i < SIZE; i++)
		if (p[i] != pattern(i))
			HIP_FAIL("%s: byte %zu: 0x%02x, want 0x%02x", what, i, p[i],
				 pattern(i));
	printf("%s: %u bytes equal\n", what, SIZE);
}

int
main(int argc, char **argv)
{
	int check = argc > 1 && !strcmp(argv[1], "check");
	unsigned int *before;
	unsigned char *a, *b, *c;
	int managed = 0, concurrent = 0;
	hipStream_t s;
	void *dev;

	hip_start();
	HIP_CHECK(hipSetDevice(0));
	HIP_CHECK(hipDeviceGetAttribute(&managed, hipDeviceAttributeManagedMemory, 0));
	HIP_CHECK(hipDeviceGetAttribute(&concurrent,
					hipDeviceAttributeConcurrentManagedAccess, 0));
	printf("managed memory %d, concurrent managed access %d\n", managed, concurrent);
	if (!managed)
		HIP_FAIL("the device reports no managed memory");

	HIP_CHECK(hipMallocManaged((void **)&a, SIZE, hipMemAttachGlobal));
	HIP_CHECK(hipMallocManaged((void **)&b, SIZE, hipMemAttachGlobal));
	HIP_CHECK(hipMallocManaged((void **)&c, SIZE, hipMemAttachGlobal));
	HIP_CHECK(hipMalloc(&dev, SIZE));
	HIP_CHECK(hipStreamCreate(&s));
	for (size_t i = 0; i < SIZE; i++)
		a[i] = pattern(i);
	memset(b, 0, SIZE);
	memset(c, 0, SIZE);

	/* managed -> device -> managed, through the device's VRAM */
	HIP_CHECK(hipMemcpy(dev, a, SIZE, hipMemcpyHostToDevice));
	HIP_CHECK(hipMemcpy(b, dev, SIZE, hipMemcpyDeviceToHost));
	check_bytes(b, "managed -> device -> managed");

	/* managed -> managed (HIP picks the engine: hipMemcpyDefault) */
	HIP_CHECK(hipMemcpy(c, a, SIZE, hipMemcpyDefault));
	check_bytes(c, "managed -> managed");

	/*
	 * Advice and prefetch need the device's concurrent managed access
	 * (HMM, XNACK); without it HIP refuses them, and a program asks
	 * first, as this one does.
	 */
	if (concurrent) {
		HIP_CHECK(hipMemAdvise(a, SIZE, hipMemAdviseSetReadMostly, 0));
		HIP_CHECK(hipMemAdvise(b, SIZE, hipMemAdviseSetPreferredLocation, 0));
		HIP_CHECK(hipMemAdvise(b, SIZE, hipMemAdviseSetAccessedBy, 0));
		HIP_CHECK(hipMemPrefetchAsync(b, SIZE, 0, s));
		HIP_CHECK(hipMemPrefetchAsync(c, SIZE, hipCpuDeviceId, s));
		HIP_CHECK(hipStreamSynchronize(s));
		check_bytes(b, "managed, prefetched to the device");
		check_bytes(c, "managed, prefetched to the host");
		HIP_CHECK(hipMemAdvise(a, SIZE, hipMemAdviseUnsetReadMostly, 0));
		printf("advice and prefetch completed\n");
	}

	/* async, on a stream: managed -> device, device -> managed */
	memset(b, 0, SIZE);
	HIP_CHECK(hipMemcpyAsync(dev, c, SIZE, hipMemcpyHostToDevice, s));
	HIP_CHECK(hipMemcpyAsync(b, dev, SIZE, hipMemcpyDeviceToHost, s));
	HIP_CHECK(hipStreamSynchronize(s));
	check_bytes(b, "async managed -> device -> managed");

	/* A kernel on managed memory: every word + 1 where shaders run. */
	before = (unsigned int *)malloc(SIZE);
	if (!before)
		HIP_FAIL("no memory");
	memcpy(before, c, SIZE);
	hipLaunchKernelGGL(managed_add, dim3(SIZE / 4 / 256), dim3(256), 0, s,
			   (unsigned int *)c, SIZE / 4);
	HIP_CHECK(hipGetLastError());
	HIP_CHECK(hipStreamSynchronize(s));
	HIP_CHECK(hipDeviceSynchronize());
	printf("kernel on managed memory completed\n");
	if (check) {
		const unsigned int *w = (const unsigned int *)c;

		for (size_t i = 0; i < SIZE / 4; i++)
			if (w[i] != before[i] + 1)
				HIP_FAIL("word %zu: 0x%x, want 0x%x", i, w[i], before[i] + 1);
		printf("the kernel added 1 to all %u words\n", SIZE / 4);
	}
	free(before);

	HIP_CHECK(hipStreamDestroy(s));
	HIP_CHECK(hipFree(dev));
	HIP_CHECK(hipFree(c));
	HIP_CHECK(hipFree(b));
	HIP_CHECK(hipFree(a));
	printf("PASS: hip_managed\n");
	return 0;
}

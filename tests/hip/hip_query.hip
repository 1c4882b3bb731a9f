/* SPDX-License-Identifier: MIT */
/*
 * Device query: hipGetDeviceCount and each device's properties, which HIP
 * builds from the KFD topology and ROCr's agent info. Needs no queue.
 *	hip_query [GFX [COUNT]]
 * GFX: the architecture every device must have; COUNT: how many devices.
 */
#include "hip_check.h"

int
main(int argc, char **argv)
{
	const char *want = argc > 1 ? argv[1] : NULL;
	int want_n = argc > 2 ? atoi(argv[2]) : 0;
	int n = 0, drv = 0, rt = 0;

	hip_start();
	HIP_CHECK(hipGetDeviceCount(&n));
	HIP_CHECK(hipDriverGetVersion(&drv));
	HIP_CHECK(hipRuntimeGetVersion(&rt));
	printf("devices: %d, driver %d, runtime %d\n", n, drv, rt);
	if (n < 1)
		HIP_FAIL("no HIP device");
	if (want_n && n != want_n)
		HIP_FAIL("%d devices, want %d", n, want_n);
	for (int i = 0; i < n; i++) {
		hipDeviceProp_t p;

		HIP_CHECK(hipGetDeviceProperties(&p, i));
		printf("device %d: %s (%s), %zu MiB, %d CUs, %d kHz, "
		       "pci %04x:%02x:%02x\n", i, p.name, p.gcnArchName,
		       p.totalGlobalMem >> 20, p.multiProcessorCount,
		       p.clockRate, p.pciDomainID, p.pciBusID, p.pciDeviceID);
		if (strncmp(p.gcnArchName, "gfx", 3))
			HIP_FAIL("device %d: architecture '%s'", i, p.gcnArchName);
		if (want && strncmp(p.gcnArchName, want, strlen(want)))
			HIP_FAIL("device %d is %s, want %s", i, p.gcnArchName, want);
		if (!p.totalGlobalMem || p.multiProcessorCount < 1)
			HIP_FAIL("device %d: no memory or no CUs", i);
	}
	printf("PASS: hip_query\n");
	return 0;
}

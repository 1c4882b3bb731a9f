/* SPDX-License-Identifier: MIT */
/*
 * A workload for `kfdtrace reduce` (test_reduce.c): noise that has nothing
 * to do with the failure (small host buffers mapped and freed, signal
 * events created, set, waited and destroyed) interleaved with 4 GiB VRAM
 * allocations kept until one fails, as the device runs out.
 *
 * Usage: rp_oom [MAPS [NOISE]]: with MAPS > 0, the same noise with 64 KiB
 * VRAM buffers allocated and mapped (not kept) instead, MAPS times, every
 * map's status ignored (KFDSIM_FAULTS makes one fail); without (or 0),
 * the allocations until the first failure. NOISE (default 1): rounds of
 * noise (7 ioctls each) between two allocations. It prints "oom: allocation N failed: STATUS" or
 * "maps: N done"; exit 0 unless the thunk fails elsewhere.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <hsakmt.h>

#include "rp_kmt.h"

static HSAuint32 gpu;

static void
noise(int i)
{
	HsaEventDescriptor desc = { .EventType = HSA_EVENTTYPE_SIGNAL };
	HsaMemFlags flags = { 0 };
	HsaEvent *ev = NULL;
	void *p;

	flags.ui32.NonPaged = 1;
	flags.ui32.HostAccess = 1;
	p = rp_kmt_alloc_mapped(0, gpu, 4096u << (i % 3), flags);
	rp_kmt_free_mapped(p, 4096u << (i % 3));
	rp_kmt_check(hsaKmtCreateEvent(&desc, false, false, &ev), "CreateEvent");
	rp_kmt_check(hsaKmtSetEvent(ev), "SetEvent");
	rp_kmt_check(hsaKmtWaitOnEvent(ev, 1000), "WaitOnEvent");
	rp_kmt_check(hsaKmtDestroyEvent(ev), "DestroyEvent");
}

int
main(int argc, char **argv)
{
	HsaMemFlags vram = { 0 };
	int maps = argc > 1 ? atoi(argv[1]) : 0;
	int rounds = argc > 2 ? atoi(argv[2]) : 1;

	setvbuf(stdout, NULL, _IOLBF, 0);
	rp_kmt_check(hsaKmtOpenKFD(), "OpenKFD");
	gpu = rp_kmt_first_gpu();
	if (!gpu)
		rp_kmt_fail("no GPU node");
	vram.ui32.NonPaged = 1;
	vram.ui32.HostAccess = 0;
	vram.ui32.NoSubstitute = 1;
	for (int i = 0; i < 4096; i++) {
		HSAuint64 size = maps ? 64u << 10 : 4ull << 30, va;
		HSAKMT_STATUS st;
		void *p = NULL;

		for (int k = 0; k < rounds; k++)
			noise(i + k);
		if (maps && i == maps) {
			printf("maps: %d done\n", maps);
			break;
		}
		st = hsaKmtAllocMemory(gpu, size, vram, &p);
		if (st != HSAKMT_STATUS_SUCCESS) {
			printf("oom: allocation %d failed: %d\n", i, st);
			break;
		}
		if (maps) {
			/* its status is the point: KFDSIM_FAULTS may fail it */
			hsaKmtMapMemoryToGPU(p, size, &va);
			hsaKmtUnmapMemoryToGPU(p);
			rp_kmt_check(hsaKmtFreeMemory(p, size), "FreeMemory");
		}
	}
	rp_kmt_print_thunk();
	return rp_kmt_failed();
}

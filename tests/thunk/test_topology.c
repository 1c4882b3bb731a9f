/* SPDX-License-Identifier: MIT */
/*
 * Topology through kfdtrace's libhsakmt on the simulated device, for the
 * profile in KFDSIM_PROFILE. The oracle is the sysfs tree itself, read
 * here with plain stdio (the simulator serves it to every reader): node,
 * bank, cache and link counts and key properties must match it, plus the
 * synthetic banks and the snapshot protocol's error statuses.
 */
#include <dirent.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "hsakmt/hsakmt.h"

#define ROOT "/sys/devices/virtual/kfd/kfd/topology"

/* One key of a sysfs properties file (-1 if absent). */
static long long
sysfs_key(const char *rel, const char *key)
{
	char path[256], name[128];
	unsigned long long v;
	long long found = -1;
	FILE *f;

	snprintf(path, sizeof(path), ROOT "/%s", rel);
	f = fopen(path, "r");
	if (!f)
		return -1;
	while (fscanf(f, "%127s %llu", name, &v) == 2)
		if (!strcmp(name, key))
			found = (long long)v;
	fclose(f);
	return found;
}

static int
count_dir(const char *rel)
{
	char path[256];
	struct dirent *de;
	int n = 0;
	DIR *d;

	snprintf(path, sizeof(path), ROOT "/%s", rel);
	d = opendir(path);
	if (!d)
		return 0;
	while ((de = readdir(d)))
		n += de->d_name[0] != '.';
	closedir(d);
	return n;
}

static void
test_snapshot_protocol(void **state)
{
	HsaSystemProperties sp;
	HsaNodeProperties np;
	HsaMemoryProperties mp;
	HsaCacheProperties cp;
	HsaIoLinkProperties lp;

	(void)state;
	assert_int_equal(hsaKmtOpenKFD(), HSAKMT_STATUS_SUCCESS);
	/* Before an acquire there is no snapshot to query. */
	assert_int_equal(hsaKmtGetNodeProperties(0, &np), HSAKMT_STATUS_INVALID_NODE_UNIT);
	assert_int_equal(hsaKmtAcquireSystemProperties(NULL), HSAKMT_STATUS_INVALID_PARAMETER);
	assert_int_equal(hsaKmtAcquireSystemProperties(&sp), HSAKMT_STATUS_SUCCESS);
	assert_int_equal(hsaKmtGetNodeProperties(0, &np), HSAKMT_STATUS_SUCCESS);
	assert_int_equal(hsaKmtGetNodeProperties(0, NULL), HSAKMT_STATUS_INVALID_PARAMETER);
	assert_int_equal(hsaKmtGetNodeProperties(sp.NumNodes, &np),
			 HSAKMT_STATUS_INVALID_NODE_UNIT);
	assert_int_equal(hsaKmtGetNodeMemoryProperties(sp.NumNodes, 1, &mp),
			 HSAKMT_STATUS_INVALID_NODE_UNIT);
	assert_int_equal(hsaKmtGetNodeMemoryProperties(0, 1, NULL),
			 HSAKMT_STATUS_INVALID_PARAMETER);
	/* Asking for more caches or links than the node has. */
	assert_int_equal(hsaKmtGetNodeCacheProperties(0, 0, np.NumCaches + 1, &cp),
			 HSAKMT_STATUS_INVALID_PARAMETER);
	assert_int_equal(hsaKmtGetNodeIoLinkProperties(0, np.NumIOLinks + 1, &lp),
			 HSAKMT_STATUS_INVALID_PARAMETER);
	assert_int_equal(hsaKmtGetNodeIoLinkProperties(sp.NumNodes, 0, &lp),
			 HSAKMT_STATUS_INVALID_NODE_UNIT);
	assert_int_equal(hsaKmtReleaseSystemProperties(), HSAKMT_STATUS_SUCCESS);
	assert_int_equal(hsaKmtGetNodeProperties(0, &np), HSAKMT_STATUS_INVALID_NODE_UNIT);
	assert_int_equal(hsaKmtCloseKFD(), HSAKMT_STATUS_SUCCESS);
}

static void
check_gpu_banks(HSAuint32 node, const HsaNodeProperties *np, int sysfs_banks)
{
	HsaMemoryProperties mp[32];
	bool lds = false, scratch = false, svm = false, mmio = false;
	HSAuint32 i;

	assert_true(np->NumMemoryBanks <= 32);
	assert_int_equal(hsaKmtGetNodeMemoryProperties(node, np->NumMemoryBanks, mp),
			 HSAKMT_STATUS_SUCCESS);
	/* The node's own banks first, then the synthetic ones. */
	for (i = 0; i < (HSAuint32)sysfs_banks; i++)
		assert_true(mp[i].HeapType <= HSA_HEAPTYPE_FRAME_BUFFER_PRIVATE);
	for (; i < np->NumMemoryBanks; i++) {
		switch (mp[i].HeapType) {
		case HSA_HEAPTYPE_GPU_LDS:
			lds = true;
			assert_int_equal(mp[i].SizeInBytes, (HSAuint64)np->LDSSizeInKB * 1024);
			assert_int_equal(mp[i].VirtualBaseAddress, 1ULL << 48);
			break;
		case HSA_HEAPTYPE_GPU_SCRATCH:
			scratch = true;
			assert_int_equal(mp[i].VirtualBaseAddress, 2ULL << 48);
			assert_int_equal(mp[i].SizeInBytes, 1ULL << 32);
			break;
		case HSA_HEAPTYPE_DEVICE_SVM:
			svm = true;
			assert_true(mp[i].SizeInBytes >= 4ULL << 30);
			break;
		case HSA_HEAPTYPE_MMIO_REMAP:
			mmio = true;
			assert_int_equal(mp[i].SizeInBytes, 4096);
			assert_int_not_equal(mp[i].VirtualBaseAddress, 0);
			break;
		default:
			fail_msg("unexpected heap type %d", mp[i].HeapType);
		}
	}
	assert_true(lds && scratch && svm && mmio);
}

static void
test_matches_sysfs(void **state)
{
	HsaSystemProperties sp;
	int n_sysfs = count_dir("nodes");
	HSAuint32 n;

	(void)state;
	assert_int_equal(hsaKmtOpenKFD(), HSAKMT_STATUS_SUCCESS);
	assert_int_equal(hsaKmtAcquireSystemProperties(&sp), HSAKMT_STATUS_SUCCESS);
	/* Every node is usable on the simulator: same count and order. */
	assert_int_equal(sp.NumNodes, n_sysfs);
	assert_int_equal(sp.PlatformOem, (HSAuint32)sysfs_key("system_properties", "platform_oem"));
	for (n = 0; n < sp.NumNodes; n++) {
		char rel[128], banks_rel[128], caches_rel[128], io_rel[128], p2p_rel[128];
		HsaNodeProperties np;
		HsaIoLinkProperties links[64];
		HsaCacheProperties *caches;
		int banks, n_links;
		HSAuint32 i;

		snprintf(rel, sizeof(rel), "nodes/%u/properties", n);
		snprintf(banks_rel, sizeof(banks_rel), "nodes/%u/mem_banks", n);
		snprintf(caches_rel, sizeof(caches_rel), "nodes/%u/caches", n);
		snprintf(io_rel, sizeof(io_rel), "nodes/%u/io_links", n);
		snprintf(p2p_rel, sizeof(p2p_rel), "nodes/%u/p2p_links", n);
		assert_int_equal(hsaKmtGetNodeProperties(n, &np), HSAKMT_STATUS_SUCCESS);
		assert_int_equal(np.NumCPUCores, sysfs_key(rel, "cpu_cores_count"));
		assert_int_equal(np.NumFComputeCores, sysfs_key(rel, "simd_count"));
		assert_int_equal(np.DeviceId, sysfs_key(rel, "device_id"));
		assert_int_equal(np.LocationId, sysfs_key(rel, "location_id"));
		banks = count_dir(banks_rel);
		n_links = count_dir(io_rel) + count_dir(p2p_rel);
		if (sysfs_key(rel, "p2p_links_count") >= 0)
			assert_int_equal(np.NumIOLinks, n_links);
		assert_true(np.NumIOLinks < 64);
		assert_int_equal(hsaKmtGetNodeIoLinkProperties(n, np.NumIOLinks, links),
				 HSAKMT_STATUS_SUCCESS);
		for (i = 0; i < np.NumIOLinks; i++) {
			assert_int_equal(links[i].NodeFrom, n);
			assert_true(links[i].NodeTo < sp.NumNodes);
			assert_true(links[i].IoLinkType != HSA_IOLINKTYPE_UNDEFINED);
		}
		caches = calloc(np.NumCaches + 1, sizeof(*caches));
		assert_non_null(caches);
		assert_int_equal(hsaKmtGetNodeCacheProperties(n, 0, np.NumCaches, caches),
				 HSAKMT_STATUS_SUCCESS);
		if (sysfs_key(rel, "simd_count") > 0) {
			char name[HSA_PUBLIC_NAME_SIZE] = {0};
			long long tv = sysfs_key(rel, "gfx_target_version");

			/* GPU: sysfs caches, gfx version, name from libdrm. */
			assert_int_equal(np.NumCaches, count_dir(caches_rel));
			if (np.NumCaches) {
				char c0[128];

				snprintf(c0, sizeof(c0), "nodes/%u/caches/0/properties", n);
				assert_int_equal(caches[0].CacheLevel, sysfs_key(c0, "level"));
				assert_int_equal(caches[0].CacheSize, sysfs_key(c0, "size"));
			}
			assert_int_equal(np.EngineId.ui32.Major, tv / 10000);
			assert_int_equal(np.EngineId.ui32.Minor, tv / 100 % 100);
			assert_int_equal(np.EngineId.ui32.Stepping, tv % 100);
			for (i = 0; i < HSA_PUBLIC_NAME_SIZE && np.MarketingName[i]; i++)
				name[i] = (char)np.MarketingName[i];
			assert_true(strlen(name) > 0);
			assert_true(np.AMDName[0] != 0);
			assert_int_equal(np.NumMemoryBanks, banks + 4);
			check_gpu_banks(n, &np, banks);
		} else {
			/* CPU: its banks only, caches from the CPU itself, a name. */
			assert_int_equal(np.NumMemoryBanks, banks);
			assert_true(np.MarketingName[0] != 0);
			for (i = 0; i < np.NumCaches; i++)
				assert_true(caches[i].CacheType.ui32.CPU);
		}
		free(caches);
	}
	assert_int_equal(hsaKmtReleaseSystemProperties(), HSAKMT_STATUS_SUCCESS);
	assert_int_equal(hsaKmtCloseKFD(), HSAKMT_STATUS_SUCCESS);
}

static void
test_wallclock(void **state)
{
	HsaSystemProperties sp;
	HsaNodeProperties np;
	uint64_t f = 0;
	HSAuint32 n;

	(void)state;
	assert_int_equal(hsaKmtOpenKFD(), HSAKMT_STATUS_SUCCESS);
	assert_int_equal(hsaKmtAcquireSystemProperties(&sp), HSAKMT_STATUS_SUCCESS);
	for (n = 0; n < sp.NumNodes; n++) {
		assert_int_equal(hsaKmtGetNodeProperties(n, &np), HSAKMT_STATUS_SUCCESS);
		if (!np.NumFComputeCores) {
			assert_int_equal(hsaKmtGetNodeWallclockFrequency(n, &f),
					 HSAKMT_STATUS_INVALID_NODE_UNIT);
			continue;
		}
		assert_int_equal(hsaKmtGetNodeWallclockFrequency(n, &f), HSAKMT_STATUS_SUCCESS);
		/* The GPU's 100 MHz reference counter (or similar): in range. */
		assert_true(f >= 1000000 && f <= 10000000000ULL);
	}
	assert_int_equal(hsaKmtGetNodeWallclockFrequency(0, NULL), HSAKMT_STATUS_INVALID_PARAMETER);
	assert_int_equal(hsaKmtCloseKFD(), HSAKMT_STATUS_SUCCESS);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_snapshot_protocol),
		cmocka_unit_test(test_matches_sysfs),
		cmocka_unit_test(test_wallclock),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

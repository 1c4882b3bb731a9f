/* SPDX-License-Identifier: MIT */
/* The replay workloads' shared helpers (rp_kmt.h). */
#include <link.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "rp_kmt.h"

const char *rp_kmt_prog = "rp";
const char *rp_kmt_who;
static int bad;
static pthread_mutex_t bad_lock = PTHREAD_MUTEX_INITIALIZER;

void
rp_kmt_fail(const char *what)
{
	pthread_mutex_lock(&bad_lock);
	if (what && rp_kmt_who)
		fprintf(stderr, "%s: %s: %s\n", rp_kmt_prog, rp_kmt_who, what);
	else if (what)
		fprintf(stderr, "%s: %s\n", rp_kmt_prog, what);
	bad = 1;
	pthread_mutex_unlock(&bad_lock);
}

void
rp_kmt_check(HSAKMT_STATUS st, const char *what)
{
	char msg[160];

	if (st == HSAKMT_STATUS_SUCCESS)
		return;
	snprintf(msg, sizeof(msg), "%s: status %d", what, st);
	rp_kmt_fail(msg);
}

int
rp_kmt_failed(void)
{
	int b;

	pthread_mutex_lock(&bad_lock);
	b = bad;
	pthread_mutex_unlock(&bad_lock);
	return b;
}

static int
print_one(struct dl_phdr_info *info, size_t size, void *data)
{
	(void)size;
	(void)data;
	if (info->dlpi_name && strstr(info->dlpi_name, "libhsakmt"))
		printf("thunk: %s\n", info->dlpi_name);
	return 0;
}

void
rp_kmt_print_thunk(void)
{
	dl_iterate_phdr(print_one, NULL);
	fflush(stdout);
}

void *
rp_kmt_alloc_mapped(HSAuint32 node, HSAuint32 gpu, HSAuint64 size,
		    HsaMemFlags flags)
{
	HSAuint64 va;
	void *p = NULL;

	rp_kmt_check(hsaKmtAllocMemory(node, size, flags, &p), "AllocMemory");
	if (p)
		rp_kmt_check(hsaKmtMapMemoryToGPUNodes(p, size, &va,
						       (HsaMemMapFlags){ 0 }, 1,
						       &gpu),
			     "MapMemoryToGPUNodes");
	return p;
}

void
rp_kmt_free_mapped(void *p, HSAuint64 size)
{
	if (!p)
		return;
	rp_kmt_check(hsaKmtUnmapMemoryToGPU(p), "UnmapMemoryToGPU");
	rp_kmt_check(hsaKmtFreeMemory(p, size), "FreeMemory");
}

HSAuint32
rp_kmt_first_gpu(void)
{
	HsaSystemProperties sys;
	HsaNodeProperties np;
	HSAuint32 n;

	rp_kmt_check(hsaKmtAcquireSystemProperties(&sys), "AcquireSystemProperties");
	for (n = 0; n < sys.NumNodes; n++)
		if (hsaKmtGetNodeProperties(n, &np) == HSAKMT_STATUS_SUCCESS &&
		    np.NumFComputeCores)
			return n;
	return 0;
}

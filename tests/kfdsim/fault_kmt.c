/* SPDX-License-Identifier: MIT */
/*
 * GPU memory faults through the thunk API, the way kfdtest's
 * KFDExceptionTest provokes them: each case runs in a forked child (a
 * fault evicts the process's queues for good), which opens KFD, creates
 * a HSA_EVENTTYPE_MEMORY event, makes an engine touch a bad address,
 * waits for the event and checks its data; the parent checks the
 * child's exit status. Built against our thunk and against AMD's, run on
 * kfdsim (`kfdtrace sim`):
 *
 *   sdma	an SDMA write to an address nothing maps: not present
 *   pm4	a PM4 WRITE_DATA to an address nothing maps: not present
 *   readonly	a PM4 WRITE_DATA into a buffer allocated ReadOnly
 *   copy	an SDMA copy from a mapped buffer to an unmapped address
 *   userptr-sdma, userptr-pm4
 *		an SDMA copy, a PM4 WRITE_DATA into host memory the program
 *		maps PROT_READ, registered and mapped on the GPU (kfdtest's
 *		PermissionFaultUserPointer): read-only
 *   shader	a shader a PM4 DISPATCH_DIRECT runs stores to an address
 *		nothing maps (kfdtest's AddressFault): not present
 *   shader-readonly
 *		the shader stores into a buffer allocated ReadOnly
 *		(kfdtest's PermissionFault): read-only
 *		(the shader cases: gfx90a only, the shader's code; skipped
 *		elsewhere)
 *
 * Prints "fault: NAME ok" (or "skipped") per case and "fault: all ok",
 * or fails (exit 1).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "kmt_kit.h"

#define PAGE_MASK	(~(HSAuint64)4095)
#define BAD_VA		0x12345678ULL	/* kfdtest's: below every aperture */
#define BAD_VA2		0x76543210ULL
/* A child's exit status: the case does not apply to this GPU. */
#define EXIT_SKIP	77

/* PM4 WRITE_DATA (the MEC's type-3 header). */
#define PM4_HDR(op, n)	(3u << 30 | ((n) & 0x3fffu) << 16 | (op) << 8)
#define PM4_WRITE_DATA	0x37u
/* SDMA packets (op in bits 0-7). */
#define SDMA_COPY	1u
#define SDMA_WRITE	2u

static HSAuint32 gpu;

/*
 * A PROT_READ page of the program's, registered and mapped on the GPU
 * (hsaKmtRegisterMemory: a userptr BO). Its GPU address in *@va.
 */
static uint32_t *
userptr_read_only(uint64_t *va)
{
	void *p = mmap(NULL, 4096, PROT_READ, MAP_ANONYMOUS | MAP_PRIVATE, -1, 0);
	HSAuint64 gva = 0;

	if (p == MAP_FAILED) {
		kit_fail("mmap");
		return NULL;
	}
	kit_check(hsaKmtRegisterMemory(p, 4096), "RegisterMemory");
	kit_check(hsaKmtMapMemoryToGPU(p, 4096, &gva), "MapMemoryToGPU(userptr)");
	*va = gva ? gva : (uintptr_t)p;
	return kit_failed ? NULL : p;
}

/* Append @n dwords and ring the doorbell (SDMA counts bytes, PM4 dwords). */
static void
submit(struct kit_queue *q, const uint32_t *d, unsigned int n)
{
	uint64_t wp;

	memcpy(q->ring + q->wr, d, n * 4);
	q->wr += n;
	wp = q->sdma ? q->wr * 4 : q->wr;
	__atomic_store_n(q->res.Queue_write_ptr_aql, wp, __ATOMIC_RELEASE);
	__atomic_store_n(q->res.Queue_DoorBell_aql, wp, __ATOMIC_RELEASE);
}

static void
pm4_write(struct kit_queue *q, uint64_t dst, uint32_t v)
{
	uint32_t d[5] = { PM4_HDR(PM4_WRITE_DATA, 3), 5u << 8 | 1u << 20,
			  (uint32_t)dst, (uint32_t)(dst >> 32), v };

	submit(q, d, 5);
}

static void
sdma_write(struct kit_queue *q, uint64_t dst, uint32_t v)
{
	uint32_t d[5] = { SDMA_WRITE, (uint32_t)dst, (uint32_t)(dst >> 32), 0, v };

	submit(q, d, 5);
}

static void
sdma_copy(struct kit_queue *q, uint64_t dst, uint64_t src, uint32_t len)
{
	uint32_t d[7] = { SDMA_COPY, len - 1, 0, (uint32_t)src, (uint32_t)(src >> 32),
			  (uint32_t)dst, (uint32_t)(dst >> 32) };

	submit(q, d, 7);
}

/*
 * The child's part: a MEMORY event, the engine's bad access (@sdma: on
 * an SDMA queue), the event's data checked against @page and the reason.
 */
static void
provoke(const char *name, int sdma, int ro, uint64_t page, int read_only)
{
	HsaEventDescriptor ed = { 0 };
	HsaMemoryAccessFault *f;
	HsaEvent *ev = NULL;
	uint32_t *buf = NULL;
	struct kit_queue q;

	if (kit_queue_new(&q, gpu, sdma ? HSA_QUEUE_SDMA : HSA_QUEUE_COMPUTE,
			  "CreateQueue"))
		return;
	ed.EventType = HSA_EVENTTYPE_MEMORY;
	ed.NodeId = gpu;
	kit_check(hsaKmtCreateEvent(&ed, true, false, &ev), "CreateEvent(MEMORY)");
	if (!ev)
		return;
	if (ro == 2) {
		buf = userptr_read_only(&page);
		if (!buf)
			return;
	} else if (ro) {
		buf = kit_alloc_mapped(4096, KIT_MEM_RO);
		if (!buf)
			return;
		page = (uintptr_t)buf;
	}
	if (!strcmp(name, "userptr-sdma")) {
		uint32_t *src = kit_alloc_mapped(4096, 0);

		if (!src)
			return;
		for (unsigned int i = 0; i < 1024; i++)
			src[i] = 0xaa55aa55;
		sdma_copy(&q, page, (uintptr_t)src, 4096);
	} else if (!strncmp(name, "shader", 6)) {
		uint32_t *code = kit_alloc_mapped(4096, KIT_MEM_EXEC);
		uint32_t *src = kit_alloc_mapped(4096, 0);
		uint32_t d[KIT_DISPATCH_DW];

		if (!code || !src)
			return;
		memcpy(code, kit_copy_shader, kit_copy_shader_dw * 4);
		submit(&q, d, kit_pm4_dispatch(d, code, (uintptr_t)src, page, 64, 1));
	} else if (!strcmp(name, "copy")) {
		buf = kit_alloc_mapped(4096, 0);
		sdma_copy(&q, page, (uintptr_t)buf, 64);
	} else if (sdma) {
		sdma_write(&q, page | 0x678, 0x02020202);
	} else {
		pm4_write(&q, page | 0x210, 0x02020202);
	}
	if (hsaKmtWaitOnEvent(ev, 5000) != HSAKMT_STATUS_SUCCESS) {
		kit_fail("no MEMORY event");
		return;
	}
	f = &ev->EventData.EventData.MemoryAccessFault;
	if (ev->EventData.EventType != HSA_EVENTTYPE_MEMORY)
		kit_fail("the event is not a MEMORY one");
	if (f->VirtualAddress != (page & PAGE_MASK)) {
		printf("fault: %s: address 0x%llx, not 0x%llx\n", name,
		       (unsigned long long)f->VirtualAddress,
		       (unsigned long long)(page & PAGE_MASK));
		kit_failed = 1;
	}
	if (f->NodeId != gpu)
		kit_fail("the fault names another node");
	if (f->Failure.NotPresent != !read_only || f->Failure.ReadOnly != !!read_only)
		kit_fail("the reason is not the page's");
	if (f->Failure.Imprecise)
		kit_fail("the fault is imprecise");
	if (ro && (buf[0] || buf[0x210 / 4]))
		kit_fail("the read-only buffer was written");
}

/* Run one case in a child; its exit status is the verdict. */
static void
run(const char *name, int sdma, int ro, uint64_t page, int read_only)
{
	int status;
	pid_t pid;

	fflush(stdout);
	pid = fork();
	if (pid < 0) {
		kit_fail("fork");
		return;
	}
	if (!pid) {
		HsaNodeProperties np;

		kit_check(hsaKmtOpenKFD(), "OpenKFD");
		gpu = kit_first_gpu(&np);
		if (!gpu)
			kit_fail("no GPU node");
		else if (!strncmp(name, "shader", 6) && !kit_is_gfx90a(&np))
			_exit(EXIT_SKIP);
		else if (!kit_failed)
			provoke(name, sdma, ro, page, read_only);
		hsaKmtCloseKFD();
		fflush(stdout);
		_exit(kit_failed);
	}
	if (waitpid(pid, &status, 0) != pid)
		status = -1;
	if (status != -1 && WIFEXITED(status) && WEXITSTATUS(status) == EXIT_SKIP) {
		printf("fault: %s skipped (not a gfx90a)\n", name);
		return;
	}
	if (status == -1 || !WIFEXITED(status) || WEXITSTATUS(status)) {
		printf("fault: %s: the child failed (status 0x%x)\n", name, status);
		kit_failed = 1;
		return;
	}
	printf("fault: %s ok\n", name);
}

int
main(int argc, char **argv)
{
	static const struct {
		const char *name;
		int sdma, ro;
		uint64_t page;
		int read_only;
	} cases[] = {
		{ "sdma", 1, 0, BAD_VA, 0 },
		{ "pm4", 0, 0, BAD_VA2, 0 },
		{ "readonly", 0, 1, 0, 1 },
		{ "copy", 1, 0, BAD_VA2, 0 },
		{ "userptr-sdma", 1, 2, 0, 1 },
		{ "userptr-pm4", 0, 2, 0, 1 },
		{ "shader", 0, 0, BAD_VA2, 0 },
		{ "shader-readonly", 0, 1, 0, 1 },
	};

	kit_name = "fault";
	setvbuf(stdout, NULL, _IOLBF, 0);
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		int want = argc < 2;

		for (int a = 1; a < argc; a++)
			want |= !strcmp(argv[a], cases[i].name);
		if (want)
			run(cases[i].name, cases[i].sdma, cases[i].ro,
			    cases[i].page, cases[i].read_only);
	}
	if (!kit_failed)
		printf("fault: all ok\n");
	return kit_failed;
}

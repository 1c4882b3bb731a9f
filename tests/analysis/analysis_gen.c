/* SPDX-License-Identifier: MIT */
/*
 * Traces for the analysis tests (stats, report, diff, Perfetto export),
 * written with the real writer:
 *
 *   analysis-gen rich OUT [base|remap|extra]
 *	A two-GPU, two-thread program: topology with PCIe and XGMI links,
 *	thread names, API spans around ioctls, VRAM/GTT/userptr BOs on both
 *	GPUs, queues, events, two failed calls, an allocation burst, and a
 *	VRAM BO, a queue and an event left alive at the end. The worker
 *	thread makes GET_CLOCK_COUNTERS calls whose latencies are exactly
 *	1..1000 us (shuffled), so percentiles are known.
 *	"remap" is the same program on a machine that hands out different
 *	gpu_ids, handles, queue and event ids, fds, offsets and addresses;
 *	"extra" inserts one GET_VERSION call on the main thread.
 *   analysis-gen threads OUT N [TID]
 *	N threads (tids GEN_THREAD_TID0 and on), each named "t<i>" and
 *	making two GET_VERSION calls, the second round after every
 *	thread's first, so that the threads interleave. With TID, that
 *	thread's second call fails with EINVAL (a copy that diff tells
 *	apart, naming TID).
 *   analysis-gen edit IN OUT SEQ FIELD VALUE
 *	Copy a trace, changing one value of ioctl record SEQ: FIELD is
 *	"ret", "errno", or "in.NAME" / "out.NAME" of its schema row.
 *   analysis-gen held OUT capture|replay|replay-v1
 *	Waits on one event, as captured (three that completed, calls
 *	between them) and as a serial replay with --record would have
 *	them when it holds the first two at once and the third completes
 *	meanwhile: the replay's tries, a try again, a set in the GPU's
 *	stead and the issues that end the holds, with the replay's marks;
 *	"replay-v1" as a replay before the marks had record numbers would
 *	have them (no mark at the end of a hold; one wait held at a time).
 *
 * The facts the tests check are listed in analysis_gen.h.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis_gen.h"
#include "kfdtrace/kfd_abi.h"
#include "kfdtrace/schema.h"
#include "kfdtrace/trace.h"
#include "tc_rec.h"

/* What differs between two runs of the same program. */
struct variant {
	uint32_t gpu[2];
	uint32_t idr;		/* first handle idr */
	uint32_t qid;		/* first queue id */
	uint32_t eid;		/* first event id */
	int fd_kfd, fd_render[2];
	uint64_t va;		/* base of the GPU virtual addresses */
	uint64_t cpu;		/* base of CPU addresses */
	int extra;		/* one more GET_VERSION */
};

static const struct variant base = {
	.gpu = { GEN_GPU0, GEN_GPU1 }, .idr = 0, .qid = 0, .eid = 1,
	.fd_kfd = 3, .fd_render = { 5, 6 }, .va = 0x7f0000000000,
	.cpu = 0x560000000000,
};

static const struct variant remap = {
	.gpu = { 0x5a5a, 0x7c7c }, .idr = 40, .qid = 7, .eid = 20,
	.fd_kfd = 4, .fd_render = { 9, 11 }, .va = 0x7e0000000000,
	.cpu = 0x55d000000000,
};

struct gen {
	struct kt_writer *w;
	uint64_t t0;		/* the header's start_monotonic */
	uint64_t ts;		/* next record time on the main thread */
	uint64_t next_seq;	/* the seq the next record gets */
	int failed;
};

static void
put(struct gen *g, struct kt_record *r, uint32_t tid, uint64_t ts)
{
	r->seq = kt_writer_next_seq(g->w);
	r->tid = tid;
	r->ts = ts;
	g->next_seq = r->seq + 1;
	if (kt_writer_append(g->w, r))
		g->failed = 1;
}

/* Open a trace at @path with @hdr; records start 1 ms into it. */
static int
gen_start(struct gen *g, const char *path, const struct kt_header *hdr)
{
	memset(g, 0, sizeof(*g));
	g->t0 = hdr->start_monotonic;
	g->ts = g->t0 + 1000000;
	return kt_writer_open(path, hdr, NULL, &g->w);
}

/* Close the trace: -EIO when an append failed. */
static int
gen_finish(struct gen *g)
{
	if (g->failed) {
		kt_writer_close(g->w);
		return -EIO;
	}
	return kt_writer_close(g->w);
}

/* An ioctl on the main thread taking @lat_us; returns its exit time. */
static uint64_t
ioctl_rec(struct gen *g, uint32_t tid, uint64_t ts, int fd, uint8_t kind,
	  uint32_t request, const void *in, const void *out, uint32_t size,
	  int err, uint64_t lat_ns, const struct kt_buf_image *bufs,
	  uint16_t nbufs)
{
	struct kt_record r = tc_rec_ioctl(fd, kind, request, in, out ? out : in,
					  size, err ? -1 : 0, err);

	r.u.ioctl.bufs = bufs;
	r.u.ioctl.nbufs = nbufs;
	r.u.ioctl.t_exit = ts + lat_ns;
	put(g, &r, tid, ts);
	return ts + lat_ns;
}

static void
main_ioctl(struct gen *g, const struct variant *v, uint32_t request,
	   const void *in, const void *out, uint32_t size, int err,
	   uint64_t lat_us)
{
	g->ts = ioctl_rec(g, GEN_MAIN_TID, g->ts, v->fd_kfd, KFD_FILE_KFD,
			  request, in, out, size, err, lat_us * 1000, NULL, 0) +
		5000;
}

static void
topology(struct gen *g, const struct variant *v)
{
#define TOPO "/sys/devices/virtual/kfd/kfd/topology/nodes/"
	static const char cpu[] = "cpu_cores_count 64\nsimd_count 0\n";
	static const char sysbank[] = "heap_type 0\nsize_in_bytes 549755813888\n";
	static const char vram[] = "heap_type 1\nsize_in_bytes 68719476736\n";
	static const char pcie0[] = "type 2\nnode_from 0\nnode_to 1\nweight 20\n"
				    "max_bandwidth 32000\n";
	static const char pcie1[] = "type 2\nnode_from 0\nnode_to 2\nweight 20\n"
				    "max_bandwidth 32000\n";
	static const char xgmi[] = "type 11\nnode_from 1\nnode_to 2\nweight 15\n"
				   "max_bandwidth 100000\n";
	char gpu0[16], gpu1[16], props0[256], props1[256];
	struct kt_topo_file f[] = {
		{ TOPO "0/gpu_id", (const uint8_t *)"0\n", 2 },
		{ TOPO "0/name", (const uint8_t *)"\n", 1 },
		{ TOPO "0/properties", (const uint8_t *)cpu, sizeof(cpu) - 1 },
		{ TOPO "0/mem_banks/0/properties", (const uint8_t *)sysbank,
		  sizeof(sysbank) - 1 },
		{ TOPO "0/io_links/0/properties", (const uint8_t *)pcie0,
		  sizeof(pcie0) - 1 },
		{ TOPO "0/io_links/1/properties", (const uint8_t *)pcie1,
		  sizeof(pcie1) - 1 },
		{ TOPO "1/gpu_id", (const uint8_t *)gpu0, 0 },
		{ TOPO "1/name", (const uint8_t *)"aldebaran\n", 10 },
		{ TOPO "1/properties", (const uint8_t *)props0, 0 },
		{ TOPO "1/mem_banks/0/properties", (const uint8_t *)vram,
		  sizeof(vram) - 1 },
		{ TOPO "1/io_links/0/properties", (const uint8_t *)xgmi,
		  sizeof(xgmi) - 1 },
		{ TOPO "2/gpu_id", (const uint8_t *)gpu1, 0 },
		{ TOPO "2/name", (const uint8_t *)"aldebaran\n", 10 },
		{ TOPO "2/properties", (const uint8_t *)props1, 0 },
		{ TOPO "2/mem_banks/0/properties", (const uint8_t *)vram,
		  sizeof(vram) - 1 },
	};
#undef TOPO
	struct kt_record r;

	f[6].len = (uint32_t)snprintf(gpu0, sizeof(gpu0), "%u\n", v->gpu[0]);
	f[11].len = (uint32_t)snprintf(gpu1, sizeof(gpu1), "%u\n", v->gpu[1]);
	f[8].len = (uint32_t)snprintf(props0, sizeof(props0),
		"cpu_cores_count 0\nsimd_count 416\nsimd_per_cu 4\n"
		"gfx_target_version 90010\ndrm_render_minor 128\n");
	f[13].len = (uint32_t)snprintf(props1, sizeof(props1),
		"cpu_cores_count 0\nsimd_count 416\nsimd_per_cu 4\n"
		"gfx_target_version 90010\ndrm_render_minor 129\n");
	memset(&r, 0, sizeof(r));
	r.type = KT_REC_TOPOLOGY;
	r.u.topology.nfiles = sizeof(f) / sizeof(f[0]);
	r.u.topology.files = f;
	put(g, &r, GEN_MAIN_TID, g->ts);
	g->ts += 2000;
}

static void
simple(struct gen *g, uint32_t tid, uint16_t type, const char *text)
{
	struct kt_record r;

	memset(&r, 0, sizeof(r));
	r.type = type;
	if (type == KT_REC_THREAD_NAME)
		r.u.thread_name.name = text;
	else
		r.u.annotation.text = text;
	put(g, &r, tid, g->ts);
	g->ts += 1000;
}

static void
open_rec(struct gen *g, const char *path, uint8_t kind, int fd)
{
	struct kt_record r = tc_rec_open(path, kind, fd);

	put(g, &r, GEN_MAIN_TID, g->ts);
	g->ts += 3000;
}

static uint64_t
handle(const struct variant *v, unsigned int gpu, uint32_t n)
{
	return (uint64_t)v->gpu[gpu] << 32 | (v->idr + n);
}

/* ALLOC_MEMORY_OF_GPU of BO number @n (its handle) on GPU @gpu. */
static void
alloc(struct gen *g, const struct variant *v, unsigned int gpu, uint32_t n,
      uint64_t size, uint32_t flags, int err, uint64_t lat_us)
{
	struct kfd_abi_alloc_memory_of_gpu_args in = {
		.va_addr = v->va + ((uint64_t)n << 30), .size = size,
		.gpu_id = v->gpu[gpu], .flags = flags,
	}, out;

	if (flags & KFD_ABI_ALLOC_MEM_FLAGS_USERPTR)
		in.mmap_offset = v->cpu + ((uint64_t)n << 24);
	out = in;
	if (!err) {
		out.handle = handle(v, gpu, n);
		out.mmap_offset = ((uint64_t)v->gpu[gpu] << 40) | (n << 12);
	}
	main_ioctl(g, v, KFD_ABI_IOC_ALLOC_MEMORY_OF_GPU, &in, &out,
		   sizeof(in), err, lat_us);
}

static void
free_bo(struct gen *g, const struct variant *v, uint64_t h, int err)
{
	struct kfd_abi_free_memory_of_gpu_args a = { .handle = h };

	main_ioctl(g, v, KFD_ABI_IOC_FREE_MEMORY_OF_GPU, &a, NULL, sizeof(a),
		   err, 4);
}

static void
map_bo(struct gen *g, const struct variant *v, uint64_t h, uint32_t ngpu)
{
	struct kfd_abi_map_memory_to_gpu_args in = {
		.handle = h, .device_ids_array_ptr = v->cpu + 0x1000,
		.n_devices = ngpu,
	}, out = in;
	uint32_t ids[2] = { v->gpu[0], v->gpu[1] };
	struct kt_buf_image img;

	/* A BO of GPU 1 maps to GPU 1 first, then to its XGMI peer. */
	if ((uint32_t)(h >> 32) == v->gpu[1]) {
		ids[0] = v->gpu[1];
		ids[1] = v->gpu[0];
	}
	out.n_success = ngpu;
	memset(&img, 0, sizeof(img));
	img.flags = KT_BUF_BEFORE;
	img.addr = in.device_ids_array_ptr;
	img.before = (const uint8_t *)ids;
	img.len_before = ngpu * sizeof(uint32_t);
	g->ts = ioctl_rec(g, GEN_MAIN_TID, g->ts, v->fd_kfd, KFD_FILE_KFD,
			  KFD_ABI_IOC_MAP_MEMORY_TO_GPU, &in, &out, sizeof(in),
			  0, 9000, &img, 1) + 5000;
}

static void
queue(struct gen *g, const struct variant *v, unsigned int gpu, uint32_t n)
{
	struct kfd_abi_create_queue_args in = {
		.ring_base_address = v->va + 0x100000000000ULL + (n << 20),
		.ring_size = 65536, .gpu_id = v->gpu[gpu],
		.queue_type = KFD_ABI_QUEUE_TYPE_COMPUTE_AQL,
		.queue_percentage = 100,
	}, out = in;

	out.queue_id = v->qid + n;
	out.doorbell_offset = KFD_ABI_MMAP_OFFSET(KFD_ABI_MMAP_TYPE_DOORBELL,
						  v->gpu[gpu], 0);
	main_ioctl(g, v, KFD_ABI_IOC_CREATE_QUEUE, &in, &out, sizeof(in), 0,
		   60);
}

static void
destroy_queue(struct gen *g, const struct variant *v, uint32_t n)
{
	struct kfd_abi_destroy_queue_args a = { .queue_id = v->qid + n };

	main_ioctl(g, v, KFD_ABI_IOC_DESTROY_QUEUE, &a, NULL, sizeof(a), 0,
		   30);
}

static void
event(struct gen *g, const struct variant *v, uint32_t n)
{
	struct kfd_abi_create_event_args in = {
		.event_type = KFD_ABI_EVENT_SIGNAL, .auto_reset = 1,
	}, out = in;

	out.event_id = v->eid + n;
	out.event_slot_index = n;
	main_ioctl(g, v, KFD_ABI_IOC_CREATE_EVENT, &in, &out, sizeof(in), 0,
		   3);
}

static void
destroy_event(struct gen *g, const struct variant *v, uint32_t n)
{
	struct kfd_abi_destroy_event_args a = { .event_id = v->eid + n };

	main_ioctl(g, v, KFD_ABI_IOC_DESTROY_EVENT, &a, NULL, sizeof(a), 0, 2);
}

/* An API span enclosing the main thread's next calls. */
static void
api(struct gen *g, const char *name, const char *args, uint64_t t0,
    uint64_t first_seq)
{
	struct kt_record r;

	memset(&r, 0, sizeof(r));
	r.type = KT_REC_API_CALL;
	r.u.api.name = name;
	r.u.api.args = args;
	r.u.api.t_exit = g->ts - 2000;
	r.u.api.first_seq = first_seq;
	/* The thunk writes the span when it returns, after its ioctls. */
	r.seq = kt_writer_next_seq(g->w);
	r.u.api.last_seq = r.seq - 1;
	g->next_seq = r.seq + 1;
	r.tid = GEN_MAIN_TID;
	r.ts = t0;
	if (kt_writer_append(g->w, &r))
		g->failed = 1;
}

static int
write_rich(const char *path, const struct variant *v)
{
	struct kfd_abi_get_version_args ver = { 1, 16 };
	struct kfd_abi_acquire_vm_args vm;
	struct kt_header hdr;
	struct gen g;
	uint64_t t0, first, wts;
	uint32_t i;
	int rc;

	kt_header_init(&hdr, "kfdtrace-test");
	hdr.pid = GEN_MAIN_TID;
	hdr.ppid = 1;
	snprintf(hdr.exe, sizeof(hdr.exe), "/opt/demo/bin/train");
	memcpy(hdr.cmdline, "train\0--epochs\0" "2", 17);
	hdr.cmdline_len = 17;
	/* Recorded as a shell command that ran train: the run's command and
	 * start, 3 ms before train opened its trace. */
	memcpy(hdr.run_cmdline, GEN_RUN_CMDLINE, sizeof(GEN_RUN_CMDLINE));
	hdr.run_cmdline_len = sizeof(GEN_RUN_CMDLINE);
	hdr.run_start = hdr.start_monotonic - 3000000;
	hdr.kfd_major = 1;
	hdr.kfd_minor = 16;
	rc = gen_start(&g, path, &hdr);
	if (rc)
		return rc;

	topology(&g, v);
	simple(&g, GEN_MAIN_TID, KT_REC_THREAD_NAME, "main");
	open_rec(&g, "/dev/kfd", KFD_FILE_KFD, v->fd_kfd);
	main_ioctl(&g, v, KFD_ABI_IOC_GET_VERSION, &ver, NULL, sizeof(ver), 0,
		   12);
	if (v->extra)
		main_ioctl(&g, v, KFD_ABI_IOC_GET_VERSION, &ver, NULL,
			   sizeof(ver), 0, 12);
	open_rec(&g, "/dev/dri/renderD128", KFD_FILE_RENDER, v->fd_render[0]);
	open_rec(&g, "/dev/dri/renderD129", KFD_FILE_RENDER, v->fd_render[1]);
	for (i = 0; i < 2; i++) {
		vm.drm_fd = (uint32_t)v->fd_render[i];
		vm.gpu_id = v->gpu[i];
		main_ioctl(&g, v, KFD_ABI_IOC_ACQUIRE_VM, &vm, NULL, sizeof(vm),
			   0, 25);
	}

	/* 64 MiB of VRAM on GPU 0, allocated inside an API span. */
	t0 = g.ts;
	first = g.next_seq;
	g.ts += 2000;
	alloc(&g, v, 0, 0, 64 << 20, KFD_ABI_ALLOC_MEM_FLAGS_VRAM |
	      KFD_ABI_ALLOC_MEM_FLAGS_WRITABLE, 0, 180);
	map_bo(&g, v, handle(v, 0, 0), 1);
	api(&g, "hsaKmtAllocMemory", "node=1 size=67108864", t0, first);
	alloc(&g, v, 0, 1, 2 << 20, KFD_ABI_ALLOC_MEM_FLAGS_GTT, 0, 40);
	alloc(&g, v, 1, 2, 256 << 20, KFD_ABI_ALLOC_MEM_FLAGS_VRAM, 0, 900);
	map_bo(&g, v, handle(v, 1, 2), 2);
	alloc(&g, v, 1, 3, 1 << 20, KFD_ABI_ALLOC_MEM_FLAGS_USERPTR, 0, 70);
	/* A terabyte of VRAM: ENOMEM. */
	alloc(&g, v, 0, 4, 1ULL << 40, KFD_ABI_ALLOC_MEM_FLAGS_VRAM, ENOMEM,
	      15);
	g.ts += 8000000;
	queue(&g, v, 0, 0);
	queue(&g, v, 1, 1);
	event(&g, v, 1);
	event(&g, v, 2);

	/* The worker: GET_CLOCK_COUNTERS taking exactly 1..1000 us. */
	simple(&g, GEN_WORKER_TID, KT_REC_THREAD_NAME, "worker");
	wts = g.ts;
	for (i = 0; i < GEN_WORKER_CALLS; i++) {
		struct kfd_abi_get_clock_counters_args in = {
			.gpu_id = v->gpu[i % 2],
		}, out = in;
		uint64_t lat = (uint64_t)((i * 7919u) % GEN_WORKER_CALLS + 1);

		out.gpu_clock_counter = wts / 10;
		out.cpu_clock_counter = wts;
		out.system_clock_counter = wts + 77;
		out.system_clock_freq = 1000000000;
		wts = ioctl_rec(&g, GEN_WORKER_TID, wts, v->fd_kfd,
				KFD_FILE_KFD, KFD_ABI_IOC_GET_CLOCK_COUNTERS,
				&in, &out, sizeof(in), 0, lat * 1000, NULL, 0) +
		      20000;
	}

	g.ts += 20000000;
	simple(&g, GEN_MAIN_TID, KT_REC_ANNOTATION, "phase two");
	destroy_queue(&g, v, 0);
	free_bo(&g, v, handle(v, 0, 1), 0);
	/* A handle this process never had: EINVAL. */
	free_bo(&g, v, handle(v, 0, 99), EINVAL);
	destroy_event(&g, v, 1);
	free_bo(&g, v, handle(v, 1, 3), 0);

	/* A burst: 8 MiB buffers, at most four alive at a time. */
	for (i = 0; i < GEN_BURST; i++) {
		alloc(&g, v, 0, 10 + i, 8 << 20, KFD_ABI_ALLOC_MEM_FLAGS_VRAM,
		      0, 50 + 10 * i);
		/* Spread over the worker's half second, as a real loop would. */
		g.ts += 30000000;
		if (i >= 3)
			free_bo(&g, v, handle(v, 0, 10 + i - 3), 0);
	}
	for (i = GEN_BURST - 3; i < GEN_BURST; i++)
		free_bo(&g, v, handle(v, 0, 10 + i), 0);
	t0 = g.ts;
	first = g.next_seq;
	g.ts += 2000;
	free_bo(&g, v, handle(v, 0, 0), 0);
	api(&g, "hsaKmtFreeMemory", "size=67108864", t0, first);
	/* Left alive: GPU 1's 256 MiB BO, queue 1, event 2. */
	return gen_finish(&g);
}

/* The marks of a replay's recording (kfdtrace/replay.h), as written. */
#define TRY_NOTE "kfdtrace-replay: the wait above is a try of record #%d, issued again"
#define DONE_NOTE "kfdtrace-replay: the wait above completes the try of record #%d"
#define GPU_NOTE "kfdtrace-replay: the set above stands in for the GPU"
#define TRY_NOTE_V1 "kfdtrace-replay: the wait above is a try, issued again"

/* A WAIT_EVENTS on event @id that completed, or a try that did not. */
static void
wait_rec(struct gen *g, const struct variant *v, uint32_t id, int done)
{
	struct kfd_abi_event_data ev = { .event_id = id };
	struct kfd_abi_wait_events_args in = {
		.events_ptr = v->cpu + 0x1000, .num_events = 1,
		.wait_for_all = 1, .timeout = done ? 10000 : 0,
	}, out = in;
	struct kt_buf_image b = {
		.flags = KT_BUF_BEFORE | KT_BUF_AFTER,
		.addr = in.events_ptr, .len_before = sizeof(ev),
		.len_after = sizeof(ev), .before = (const uint8_t *)&ev,
		.after = (const uint8_t *)&ev,
	};

	out.wait_result = done ? KFD_ABI_WAIT_RESULT_COMPLETE :
				 KFD_ABI_WAIT_RESULT_TIMEOUT;
	g->ts = ioctl_rec(g, GEN_MAIN_TID, g->ts, v->fd_kfd, KFD_FILE_KFD,
			  KFD_ABI_IOC_WAIT_EVENTS, &in, &out, sizeof(in), 0,
			  3000, &b, 1) + 5000;
}

/* A replay's mark @fmt, with the capture's record number for a wait's. */
static void __attribute__((format(printf, 2, 3)))
mark(struct gen *g, const char *fmt, ...)
{
	char text[128];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(text, sizeof(text), fmt, ap);
	va_end(ap);
	simple(g, GEN_MAIN_TID, KT_REC_ANNOTATION, text);
}

static int
write_held(const char *path, const char *kind)
{
	const struct variant *v = &base;
	struct kfd_abi_get_version_args ver = { 1, 16 };
	struct kfd_abi_set_event_args set = { .event_id = v->eid };
	int replay = !strcmp(kind, "replay"), v1 = !strcmp(kind, "replay-v1");
	struct kt_header hdr;
	struct gen g;
	int a, b, rc;

	if (!replay && !v1 && strcmp(kind, "capture"))
		return -EINVAL;
	kt_header_init(&hdr, "kfdtrace-test");
	hdr.pid = GEN_MAIN_TID;
	hdr.ppid = 1;
	rc = gen_start(&g, path, &hdr);
	if (rc)
		return rc;
	open_rec(&g, "/dev/kfd", KFD_FILE_KFD, v->fd_kfd);
	event(&g, v, 0);
	/* The capture's records: the waits a and b are #3 and #4. */
	a = (int)g.next_seq;
	b = a + 1;
	if (!replay && !v1) {
		wait_rec(&g, v, v->eid, 1);
		wait_rec(&g, v, v->eid, 1);
		main_ioctl(&g, v, KFD_ABI_IOC_GET_VERSION, &ver, NULL,
			   sizeof(ver), 0, 2);
		wait_rec(&g, v, v->eid, 1);
	} else if (replay) {
		wait_rec(&g, v, v->eid, 0);
		mark(&g, TRY_NOTE, a);
		wait_rec(&g, v, v->eid, 0);
		mark(&g, TRY_NOTE, b);
		main_ioctl(&g, v, KFD_ABI_IOC_GET_VERSION, &ver, NULL,
			   sizeof(ver), 0, 2);
		/* The third wait, unmarked: complete at once. */
		wait_rec(&g, v, v->eid, 1);
		/* b again, still held; then b's end before a's. */
		wait_rec(&g, v, v->eid, 0);
		mark(&g, TRY_NOTE, b);
		wait_rec(&g, v, v->eid, 1);
		mark(&g, DONE_NOTE, b);
		main_ioctl(&g, v, KFD_ABI_IOC_SET_EVENT, &set, NULL,
			   sizeof(set), 0, 2);
		mark(&g, GPU_NOTE);
		wait_rec(&g, v, v->eid, 1);
		mark(&g, DONE_NOTE, a);
	} else {
		/*
		 * Before the numbers: the next wait on the same events ends a
		 * hold, so only one could be held at a time; a's try, a again,
		 * a's end, then b and the third at once.
		 */
		wait_rec(&g, v, v->eid, 0);
		mark(&g, TRY_NOTE_V1);
		wait_rec(&g, v, v->eid, 0);
		mark(&g, TRY_NOTE_V1);
		wait_rec(&g, v, v->eid, 1);
		wait_rec(&g, v, v->eid, 1);
		main_ioctl(&g, v, KFD_ABI_IOC_GET_VERSION, &ver, NULL,
			   sizeof(ver), 0, 2);
		wait_rec(&g, v, v->eid, 1);
	}
	main_ioctl(&g, v, KFD_ABI_IOC_GET_VERSION, &ver, NULL, sizeof(ver), 0,
		   2);
	destroy_event(&g, v, 0);
	return gen_finish(&g);
}

/* N threads of two calls each (see the top of this file). */
static int
write_threads(const char *path, uint32_t n, uint32_t bad_tid)
{
	struct kfd_abi_get_version_args ver = { 1, 16 };
	struct kt_header hdr;
	struct gen g;
	uint32_t i, round;
	char name[16];
	int rc;

	kt_header_init(&hdr, "kfdtrace-test");
	hdr.kfd_major = 1;
	hdr.kfd_minor = 16;
	rc = gen_start(&g, path, &hdr);
	if (rc)
		return rc;
	for (round = 0; round < 2; round++) {
		for (i = 0; i < n && !g.failed; i++) {
			uint32_t tid = GEN_THREAD_TID0 + i;
			int err = round && tid == bad_tid ? EINVAL : 0;

			if (!round) {
				snprintf(name, sizeof(name), "t%u", i);
				simple(&g, tid, KT_REC_THREAD_NAME, name);
			}
			g.ts = ioctl_rec(&g, tid, g.ts, 3, KFD_FILE_KFD,
					 KFD_ABI_IOC_GET_VERSION, &ver, NULL,
					 sizeof(ver), err, 2000, NULL, 0) + 1000;
		}
	}
	return gen_finish(&g);
}

/* Copy a trace, changing one value of one ioctl record. */
static int
edit(const char *in, const char *out, uint64_t seq, const char *field,
     uint64_t value)
{
	struct kt_reader *r;
	struct kt_writer *w;
	struct kt_record rec;
	uint8_t img[KT_MAX_ARG_SIZE];
	int rc, done = 0;

	rc = kt_reader_open(in, &r);
	if (rc)
		return rc;
	rc = kt_writer_open(out, kt_reader_header(r), NULL, &w);
	if (rc) {
		kt_reader_close(r);
		return rc;
	}
	while ((rc = kt_reader_next(r, &rec)) == 1) {
		if (rec.type == KT_REC_END)
			continue;
		/* Keep the writer's counter in step with the copied seqs. */
		while (kt_writer_next_seq(w) < rec.seq)
			;
		if (rec.seq == seq && rec.type == KT_REC_IOCTL) {
			const struct kfd_ioctl_desc *d = kfd_schema_lookup(
				(enum kfd_file_kind)rec.u.ioctl.file_kind,
				rec.u.ioctl.request);
			int after = !strncmp(field, "out.", 4), i;
			const uint8_t *src = after ? rec.u.ioctl.arg_after :
					     rec.u.ioctl.arg_before;

			if (!strcmp(field, "ret")) {
				rec.u.ioctl.ret = (int64_t)value;
				done = 1;
			} else if (!strcmp(field, "errno")) {
				rec.u.ioctl.err = (int32_t)value;
				done = 1;
			} else if (d && src && (after ||
				   !strncmp(field, "in.", 3)) &&
				   (i = kfd_schema_field(d, strchr(field, '.') +
							 1)) >= 0) {
				memcpy(img, src, rec.u.ioctl.arg_size);
				if (!kfd_field_set(&d->args->fields[i], img,
						   rec.u.ioctl.arg_size, value)) {
					if (after)
						rec.u.ioctl.arg_after = img;
					else
						rec.u.ioctl.arg_before = img;
					done = 1;
				}
			}
		}
		if (kt_writer_append(w, &rec)) {
			rc = -EIO;
			break;
		}
	}
	kt_reader_close(r);
	if (kt_writer_close(w) && !rc)
		rc = -EIO;
	if (!rc && !done) {
		fprintf(stderr, "analysis-gen: no ioctl #%llu with field %s\n",
			(unsigned long long)seq, field);
		return -EINVAL;
	}
	return rc < 0 ? rc : 0;
}

int
main(int argc, char **argv)
{
	struct variant v = base;
	int rc;

	if (argc >= 3 && !strcmp(argv[1], "rich")) {
		if (argc > 3 && !strcmp(argv[3], "remap"))
			v = remap;
		else if (argc > 3 && !strcmp(argv[3], "extra"))
			v.extra = 1;
		rc = write_rich(argv[2], &v);
	} else if ((argc == 4 || argc == 5) && !strcmp(argv[1], "threads")) {
		rc = write_threads(argv[2], (uint32_t)strtoul(argv[3], NULL, 0),
				   argc == 5 ? (uint32_t)strtoul(argv[4], NULL, 0)
					     : 0);
	} else if (argc == 4 && !strcmp(argv[1], "held")) {
		rc = write_held(argv[2], argv[3]);
	} else if (argc == 7 && !strcmp(argv[1], "edit")) {
		rc = edit(argv[2], argv[3], strtoull(argv[4], NULL, 0), argv[5],
			  strtoull(argv[6], NULL, 0));
	} else {
		fprintf(stderr, "usage: analysis-gen rich OUT [base|remap|extra]\n"
			"       analysis-gen threads OUT N [TID]\n"
			"       analysis-gen edit IN OUT SEQ FIELD VALUE\n"
			"       analysis-gen held OUT capture|replay|replay-v1\n");
		return 2;
	}
	if (rc) {
		fprintf(stderr, "analysis-gen: %s\n", kt_strerror(rc));
		return 1;
	}
	return 0;
}

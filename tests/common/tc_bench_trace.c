/* SPDX-License-Identifier: MIT */
/* The benchmarks' generated trace (tc_bench_trace.h). */
#include <errno.h>
#include <string.h>

#include "kfdtrace/kfd_abi.h"
#include "kfdtrace/schema.h"
#include "tc_bench_trace.h"
#include "tc_rec.h"

#define GPU0 0x1234u
#define GPU1 0x5678u

struct bench_gen {
	struct kt_writer *w;
	uint64_t ts;
	uint32_t tid;
};

/* Append an ioctl taking @lat_ns, and step the clock past it. */
static int
put(struct bench_gen *g, uint32_t request, const void *before,
    const void *after, uint32_t size, int err, uint64_t lat_ns,
    const struct kt_buf_image *img)
{
	struct kt_record r = tc_rec_ioctl(3, KFD_FILE_KFD, request, before,
					  after, size, err ? -1 : 0, err);

	r.u.ioctl.bufs = img;
	r.u.ioctl.nbufs = img ? 1 : 0;
	r.seq = kt_writer_next_seq(g->w);
	r.tid = g->tid;
	r.ts = g->ts;
	r.u.ioctl.t_exit = g->ts + lat_ns;
	g->ts += 1000 + lat_ns;
	return kt_writer_append(g->w, &r);
}

static uint64_t
handle(uint32_t idr)
{
	return ((uint64_t)GPU0 << 32) | idr;
}

int
tc_bench_trace(const char *path, unsigned long n)
{
	struct kfd_abi_alloc_memory_of_gpu_args al = {
		.va_addr = 0x7f0000000000, .size = 2 << 20, .gpu_id = GPU0,
		.flags = KFD_ABI_ALLOC_MEM_FLAGS_VRAM |
			 KFD_ABI_ALLOC_MEM_FLAGS_WRITABLE |
			 KFD_ABI_ALLOC_MEM_FLAGS_EXECUTABLE,
	}, al_out;
	struct kfd_abi_free_memory_of_gpu_args fr;
	struct kfd_abi_map_memory_to_gpu_args map = {
		.device_ids_array_ptr = 0x7ffc00001000, .n_devices = 2,
	}, map_out;
	struct kfd_abi_wait_events_args we = {
		.events_ptr = 0x7ffc00002000, .num_events = 1, .timeout = 1000,
	}, we_out;
	struct kfd_abi_event_data ev;
	uint32_t ids[2] = { GPU0, GPU1 };
	uint8_t raw[24] = { 7 };
	struct kt_buf_image map_img, ev_img;
	struct bench_gen g = { .tid = 100 };
	struct kt_header hdr;
	unsigned long i;
	int rc;

	/*
	 * The header's start stays kt_header_init()'s, this host's clock:
	 * the END record the writer appends at close carries this host's
	 * time, which the reader refuses far before the start (a fixed
	 * start of 3 days made the trace corrupt on a host up less long).
	 */
	kt_header_init(&hdr, "kfdtrace-bench");
	hdr.kfd_major = 1;
	hdr.kfd_minor = 14;
	g.ts = hdr.start_monotonic + 1000;
	rc = kt_writer_open(path, &hdr, NULL, &g.w);
	if (rc)
		return rc;
	memset(&map_img, 0, sizeof(map_img));
	map_img.flags = KT_BUF_BEFORE;
	map_img.addr = map.device_ids_array_ptr;
	map_img.before = (const uint8_t *)ids;
	map_img.len_before = sizeof(ids);
	memset(&ev, 0, sizeof(ev));
	ev.event_id = 1;
	ev.signal_event_data.last_event_age = 1;
	memset(&ev_img, 0, sizeof(ev_img));
	ev_img.flags = KT_BUF_BEFORE | KT_BUF_AFTER;
	ev_img.addr = we.events_ptr;
	ev_img.before = ev_img.after = (const uint8_t *)&ev;
	ev_img.len_before = ev_img.len_after = sizeof(ev);

	for (i = 0; i < n && !rc; i++) {
		uint64_t cycle = i / 6;
		uint32_t idr = (uint32_t)(cycle % 4096);
		uint32_t old = (uint32_t)((cycle + 4096 - TC_BENCH_LIVE_BOS) %
					  4096);
		int none = cycle < TC_BENCH_LIVE_BOS;

		g.tid = 100 + (uint32_t)(cycle & 1);
		switch (i % 6) {
		case 0:
			al_out = al;
			al_out.va_addr += (uint64_t)idr << 21;
			al_out.handle = handle(idr);
			al_out.mmap_offset = 0x100000000ULL + idr * 4096ULL;
			rc = put(&g, KFD_ABI_IOC_ALLOC_MEMORY_OF_GPU, &al,
				 &al_out, sizeof(al), 0, 3000, NULL);
			break;
		case 1:
			map.handle = handle(idr);
			map_out = map;
			map_out.n_success = 2;
			rc = put(&g, KFD_ABI_IOC_MAP_MEMORY_TO_GPU, &map,
				 &map_out, sizeof(map), 0, 9000, &map_img);
			break;
		case 2:
			we_out = we;
			we_out.wait_result = KFD_ABI_WAIT_RESULT_COMPLETE;
			rc = put(&g, KFD_ABI_IOC_WAIT_EVENTS, &we, &we_out,
				 sizeof(we), 0, 20000, &ev_img);
			break;
		case 3:
			map.handle = handle(old);
			map_out = map;
			map_out.n_success = none ? 0 : 2;
			rc = put(&g, KFD_ABI_IOC_UNMAP_MEMORY_FROM_GPU, &map,
				 &map_out, sizeof(map), none ? EINVAL : 0, 5000,
				 &map_img);
			break;
		case 4:
			fr.handle = handle(old);
			rc = put(&g, KFD_ABI_IOC_FREE_MEMORY_OF_GPU, &fr, NULL,
				 sizeof(fr), none ? EINVAL : 0, 1000, NULL);
			break;
		default:
			rc = put(&g, 0xc0184b99, raw, raw, sizeof(raw), ENOTTY,
				 500, NULL);
			break;
		}
	}
	if (rc) {
		kt_writer_close(g.w);
		return rc;
	}
	return kt_writer_close(g.w);
}

/* SPDX-License-Identifier: MIT */
/*
 * Benchmark: `kfdtrace dump` text lines per second (target: at least one
 * million). Writes a trace of BENCH_RECORDS ioctl records with the real
 * writer (a mix of allocations, frees, maps with a device list, event
 * waits with event data, and unknown requests), then times the built
 * binary dumping it to /dev/null, as text and as JSON.
 *
 * Usage: bench-dump PATH-TO-KFDTRACE [RECORDS]
 * Exit status 1 when text dumping is below the target.
 */
#include "cli_gen.h"
#include "tc_run.h"
#include "tc_scratch.h"

#define BENCH_RECORDS 1000000
#define TARGET_LINES_PER_S 1000000.0

static int
write_trace(const char *path, unsigned long n)
{
	struct kfd_abi_alloc_memory_of_gpu_args al = {
		.va_addr = 0x7f0000000000, .size = 2 << 20, .gpu_id = 0x1234,
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
	uint32_t ids[2] = { 0x1234, 0x5678 };
	uint8_t raw[24] = { 7 };
	struct kt_buf_image map_img, ev_img;
	struct gen g;
	unsigned long i;
	int rc;

	rc = gen_open(&g, path, 1000000000ULL);
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
		uint32_t idr = (uint32_t)(i / 5 % 4096);

		switch (i % 5) {
		case 0:
			al_out = al;
			al_out.handle = (0x1234ULL << 32) | idr;
			al_out.mmap_offset = 0x100000000ULL + idr * 4096ULL;
			rc = gen_ioctl(&g, KFD_ABI_IOC_ALLOC_MEMORY_OF_GPU, &al,
				       &al_out, sizeof(al), 0, 0, 3000, NULL, 0);
			break;
		case 1:
			map.handle = (0x1234ULL << 32) | idr;
			map_out = map;
			map_out.n_success = 2;
			rc = gen_ioctl(&g, KFD_ABI_IOC_MAP_MEMORY_TO_GPU, &map,
				       &map_out, sizeof(map), 0, 0, 9000,
				       &map_img, 1);
			break;
		case 2:
			we_out = we;
			we_out.wait_result = KFD_ABI_WAIT_RESULT_COMPLETE;
			rc = gen_ioctl(&g, KFD_ABI_IOC_WAIT_EVENTS, &we, &we_out,
				       sizeof(we), 0, 0, 20000, &ev_img, 1);
			break;
		case 3:
			fr.handle = (0x1234ULL << 32) | idr;
			rc = gen_ioctl(&g, KFD_ABI_IOC_FREE_MEMORY_OF_GPU, &fr,
				       NULL, sizeof(fr), -1, EBUSY, 1000, NULL, 0);
			break;
		default:
			rc = gen_ioctl(&g, 0xc0184b99, raw, raw, sizeof(raw), -1,
				       ENOTTY, 500, NULL, 0);
			break;
		}
	}
	if (rc) {
		kt_writer_close(g.w);
		return rc;
	}
	return kt_writer_close(g.w);
}

/* Run kfdtrace with stdout on /dev/null; return seconds, or -1. */
static double
time_run(char *const argv[])
{
	struct tc_timing t;

	return tc_run_timed(argv, "/dev/null", &t) == 0 ? t.wall : -1;
}

int
main(int argc, char **argv)
{
	char dir[] = "/tmp/kfdtrace-bench-XXXXXX";
	char path[256];
	unsigned long n = BENCH_RECORDS;
	double gen_s, text_s, json_s, t;
	struct stat st;
	int rc = 1;

	if (argc < 2) {
		fprintf(stderr, "usage: %s PATH-TO-KFDTRACE [RECORDS]\n", argv[0]);
		return 2;
	}
	if (argc > 2)
		n = strtoul(argv[2], NULL, 10);
	if (!mkdtemp(dir)) {
		perror("mkdtemp");
		return 1;
	}
	snprintf(path, sizeof(path), "%s/bench.kft", dir);

	t = tc_now();
	if (write_trace(path, n) != 0 || stat(path, &st) != 0) {
		fprintf(stderr, "bench-dump: writing the trace failed\n");
		goto out;
	}
	gen_s = tc_now() - t;
	{
		char *text[] = { argv[1], "dump", path, NULL };
		char *json[] = { argv[1], "dump", "--json", path, NULL };

		text_s = time_run(text);
		json_s = time_run(json);
	}
	if (text_s <= 0 || json_s <= 0) {
		fprintf(stderr, "bench-dump: kfdtrace dump failed\n");
		goto out;
	}
	/* The writer must have kept every record, or the figure means little. */
	{
		char *end[] = { argv[1], "dump", "--filter", "end", path, NULL };
		char want[64];
		struct tc_run res;

		snprintf(want, sizeof(want), "records=%lu, lost=0)", n);
		if (tc_run(end, &res) || res.status != 0 ||
		    !strstr(res.out, want)) {
			fprintf(stderr, "bench-dump: trace incomplete: %s",
				res.out ? res.out : "?\n");
			tc_run_free(&res);
			goto out;
		}
		tc_run_free(&res);
	}
	/* n ioctl records plus the writer's END record. */
	printf("trace: %lu records, %lld bytes, written in %.2f s\n", n + 1,
	       (long long)st.st_size, gen_s);
	printf("dump text: %.2f s, %.0f lines/s\n", text_s,
	       (double)(n + 1) / text_s);
	printf("dump json: %.2f s, %.0f lines/s\n", json_s,
	       (double)(n + 1) / json_s);
	rc = (double)(n + 1) / text_s >= TARGET_LINES_PER_S ? 0 : 1;
	if (rc)
		printf("below the target of %.0f text lines/s\n",
		       TARGET_LINES_PER_S);
out:
	/* KFDTRACE_BENCH_KEEP=1 keeps the trace for profiling. */
	tc_scratch_remove(dir, "KFDTRACE_BENCH_KEEP");
	return rc;
}

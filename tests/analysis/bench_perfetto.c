/* SPDX-License-Identifier: MIT */
/*
 * Benchmark: `kfdtrace export --perfetto` of a trace of BENCH_IOCTLS
 * ioctls (default one million), as trace-event JSON and as Perfetto's
 * protobuf format: output bytes per ioctl and as a ratio to the trace
 * file's size, export time per ioctl and as a ratio to the host's system
 * call cost, and each run's peak memory. The trace is written with the
 * real writer: a program that allocates a BO, maps it, waits for an
 * event, unmaps it and frees it, over and over on two threads, keeping
 * 64 BOs alive (lifetimes, counters and arguments as a real one has).
 *
 * Usage: bench-perfetto PATH-TO-KFDTRACE [IOCTLS]
 * Exit status 1 when an export fails.
 */
#include "cli/cli_gen.h"
#include "tc_host.h"
#include "tc_run.h"
#include "tc_scratch.h"

#define BENCH_IOCTLS 1000000
#define LIVE_BOS 64

static int
write_trace(const char *path, unsigned long n)
{
	struct kfd_abi_alloc_memory_of_gpu_args al = {
		.va_addr = 0x7f0000000000, .size = 2 << 20, .gpu_id = 0x1234,
		.flags = KFD_ABI_ALLOC_MEM_FLAGS_VRAM |
			 KFD_ABI_ALLOC_MEM_FLAGS_WRITABLE,
	}, al_out;
	struct kfd_abi_free_memory_of_gpu_args fr;
	struct kfd_abi_map_memory_to_gpu_args map = {
		.device_ids_array_ptr = 0x7ffc00001000, .n_devices = 1,
	}, map_out;
	struct kfd_abi_wait_events_args we = {
		.events_ptr = 0x7ffc00002000, .num_events = 1, .timeout = 1000,
	}, we_out;
	uint32_t ids[1] = { 0x1234 };
	struct kt_buf_image map_img;
	struct gen g;
	unsigned long i;
	int rc;

	/* Three days after boot: timestamps as long as a real trace's. */
	rc = gen_open(&g, path, 259200ULL * 1000000000ULL);
	if (rc)
		return rc;
	memset(&map_img, 0, sizeof(map_img));
	map_img.flags = KT_BUF_BEFORE;
	map_img.addr = map.device_ids_array_ptr;
	map_img.before = (const uint8_t *)ids;
	map_img.len_before = sizeof(ids);

	/* Cycles of 5 calls: alloc BO k, map it, wait, unmap and free the
	 * BO allocated LIVE_BOS cycles ago. */
	for (i = 0; i < n && !rc; i++) {
		uint64_t cycle = i / 5;
		uint32_t idr = (uint32_t)(cycle % 4096);
		uint32_t old = (uint32_t)((cycle + 4096 - LIVE_BOS) % 4096);

		g.tid = 100 + (uint32_t)(cycle & 1);
		switch (i % 5) {
		case 0:
			al_out = al;
			al_out.va_addr += (uint64_t)idr << 21;
			al_out.handle = (0x1234ULL << 32) | idr;
			al_out.mmap_offset = 0x100000000ULL + idr * 4096ULL;
			rc = gen_ioctl(&g, KFD_ABI_IOC_ALLOC_MEMORY_OF_GPU, &al,
				       &al_out, sizeof(al), 0, 0, 3000, NULL, 0);
			break;
		case 1:
			map.handle = (0x1234ULL << 32) | idr;
			map_out = map;
			map_out.n_success = 1;
			rc = gen_ioctl(&g, KFD_ABI_IOC_MAP_MEMORY_TO_GPU, &map,
				       &map_out, sizeof(map), 0, 0, 9000,
				       &map_img, 1);
			break;
		case 2:
			we_out = we;
			we_out.wait_result = KFD_ABI_WAIT_RESULT_COMPLETE;
			rc = gen_ioctl(&g, KFD_ABI_IOC_WAIT_EVENTS, &we, &we_out,
				       sizeof(we), 0, 0, 20000, NULL, 0);
			break;
		case 3:
			map.handle = (0x1234ULL << 32) | old;
			map_out = map;
			map_out.n_success = 1;
			rc = gen_ioctl(&g, KFD_ABI_IOC_UNMAP_MEMORY_FROM_GPU, &map,
				       &map_out, sizeof(map), 0, 0, 5000,
				       &map_img, 1);
			break;
		default:
			fr.handle = (0x1234ULL << 32) | old;
			rc = gen_ioctl(&g, KFD_ABI_IOC_FREE_MEMORY_OF_GPU, &fr,
				       NULL, sizeof(fr), cycle < LIVE_BOS ? -1 : 0,
				       cycle < LIVE_BOS ? EINVAL : 0, 1000,
				       NULL, 0);
			break;
		}
	}
	if (rc) {
		kt_writer_close(g.w);
		return rc;
	}
	return kt_writer_close(g.w);
}

struct result {
	double wall, cpu;
	long rss_kib;
	long long bytes;
};

static int
export_one(const char *kfdtrace, const char *trace, const char *out,
	   struct result *res)
{
	char *argv[] = { (char *)kfdtrace, "export", "--perfetto", (char *)out,
			 (char *)trace, NULL };
	struct tc_timing t;
	struct stat st;

	if (tc_run_timed(argv, "/dev/null", &t) != 0 || stat(out, &st) != 0)
		return -1;
	res->wall = t.wall;
	res->cpu = t.cpu;
	res->rss_kib = t.max_rss_kib;
	res->bytes = (long long)st.st_size;
	return 0;
}

static void
print(const char *what, const struct result *r, unsigned long n,
      long long trace_bytes, double syscall_ns)
{
	double ns = r->wall * 1e9 / (double)n;

	printf("%s: %lld bytes, %.1f bytes/ioctl, %.2fx the trace; "
	       "%.2f s (%.0f ns/ioctl, %.1fx a syscall), peak %ld MiB\n",
	       what, r->bytes, (double)r->bytes / (double)n,
	       (double)r->bytes / (double)trace_bytes, r->wall, ns,
	       ns / syscall_ns, r->rss_kib / 1024);
}

int
main(int argc, char **argv)
{
	char dir[] = "/tmp/kfdtrace-bench-XXXXXX";
	char path[256], json[256], proto[256];
	unsigned long n = BENCH_IOCTLS;
	struct result rj, rp;
	double syscall_ns;
	struct stat st;
	int rc = 1;

	if (argc < 2) {
		fprintf(stderr, "usage: %s PATH-TO-KFDTRACE [IOCTLS]\n", argv[0]);
		return 2;
	}
	if (argc > 2)
		n = strtoul(argv[2], NULL, 10);
	if (n < 5 || !mkdtemp(dir)) {
		fprintf(stderr, "bench-perfetto: bad count or no scratch dir\n");
		return 1;
	}
	tc_host_costs();
	syscall_ns = tc_host_cost_ns(tc_host_syscalls, 200000, 5);
	snprintf(path, sizeof(path), "%s/bench.kft", dir);
	snprintf(json, sizeof(json), "%s/bench.json", dir);
	snprintf(proto, sizeof(proto), "%s/bench.pftrace", dir);
	if (write_trace(path, n) != 0 || stat(path, &st) != 0) {
		fprintf(stderr, "bench-perfetto: writing the trace failed\n");
		goto out;
	}
	printf("trace: %lu ioctls, %lld bytes (%.1f bytes/ioctl)\n", n,
	       (long long)st.st_size, (double)st.st_size / (double)n);
	if (export_one(argv[1], path, proto, &rp) ||
	    export_one(argv[1], path, json, &rj)) {
		fprintf(stderr, "bench-perfetto: the export failed\n");
		goto out;
	}
	print("proto", &rp, n, (long long)st.st_size, syscall_ns);
	print("json", &rj, n, (long long)st.st_size, syscall_ns);
	printf("proto/json: %.3f of the bytes, %.2f of the time\n",
	       (double)rp.bytes / (double)rj.bytes, rp.wall / rj.wall);
	rc = 0;
out:
	/* KFDTRACE_BENCH_KEEP=1 keeps the files for profiling. */
	tc_scratch_remove(dir, "KFDTRACE_BENCH_KEEP");
	return rc;
}

/* SPDX-License-Identifier: MIT */
/*
 * What the kfdtrace command-line tests share (test-cli, test-cli-dump):
 * the binaries under test, the scratch directory and the sample trace
 * every group starts with.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "cli_fixture.h"
#include "tc_scratch.h"

const char *kfdtrace_bin;
const char *fork_app_bin;	/* cli-fork-app */
static char tmpdir[] = "/tmp/kfdtrace-cli-XXXXXX";

char *
tmp_path(const char *name)
{
	return tc_scratch_path(tmpdir, name);
}

void
put_topology(struct gen *g)
{
	static const char props[] =
		"cpu_cores_count 0\nsimd_count 416\nsimd_per_cu 4\n"
		"gfx_target_version 90010\n";
	static const char cpu_props[] = "cpu_cores_count 32\nsimd_count 0\n";
	static const char bank[] = "heap_type 1\nsize_in_bytes 68719476736\n";
	static const char sysbank[] = "heap_type 0\nsize_in_bytes 34359738368\n";
#define TOPO "/sys/devices/virtual/kfd/kfd/topology/"
	struct kt_topo_file f[] = {
		{ TOPO "generation_id", (const uint8_t *)"2\n", 2 },
		{ TOPO "nodes/0/gpu_id", (const uint8_t *)"0\n", 2 },
		{ TOPO "nodes/0/name", (const uint8_t *)"\n", 1 },
		{ TOPO "nodes/0/properties", (const uint8_t *)cpu_props,
		  sizeof(cpu_props) - 1 },
		{ TOPO "nodes/0/mem_banks/0/properties",
		  (const uint8_t *)sysbank, sizeof(sysbank) - 1 },
		{ TOPO "nodes/1/gpu_id", (const uint8_t *)"4660\n", 5 },
		{ TOPO "nodes/1/name", (const uint8_t *)"aldebaran\n", 10 },
		{ TOPO "nodes/1/properties", (const uint8_t *)props,
		  sizeof(props) - 1 },
		{ TOPO "nodes/1/mem_banks/0/properties", (const uint8_t *)bank,
		  sizeof(bank) - 1 },
	};
#undef TOPO
	struct kt_record r;

	memset(&r, 0, sizeof(r));
	r.type = KT_REC_TOPOLOGY;
	r.u.topology.nfiles = sizeof(f) / sizeof(f[0]);
	r.u.topology.files = f;
	assert_int_equal(gen_put(g, &r), 0);
}

static void
put_open(struct gen *g, const char *path, uint8_t kind, int fd)
{
	struct kt_record r = tc_rec_open(path, kind, fd);

	assert_int_equal(gen_put(g, &r), 0);
}

static void
put_alloc(struct gen *g, uint64_t size, uint32_t flags, uint32_t idr,
	  int err, uint64_t lat)
{
	struct kfd_abi_alloc_memory_of_gpu_args in = {
		.va_addr = 0x7f0000000000 + ((uint64_t)idr << 24),
		.size = size, .gpu_id = GPU, .flags = flags,
	};
	struct kfd_abi_alloc_memory_of_gpu_args out = in;

	if (!err)
		out.handle = ((uint64_t)GPU << 32) | idr;
	assert_int_equal(gen_ioctl(g, KFD_ABI_IOC_ALLOC_MEMORY_OF_GPU, &in,
				   &out, sizeof(in), err ? -1 : 0, err, lat,
				   NULL, 0), 0);
}

static void
put_free(struct gen *g, uint32_t idr, int err)
{
	struct kfd_abi_free_memory_of_gpu_args a = {
		.handle = ((uint64_t)GPU << 32) | idr,
	};

	assert_int_equal(gen_ioctl(g, KFD_ABI_IOC_FREE_MEMORY_OF_GPU, &a, NULL,
				   sizeof(a), err ? -1 : 0, err, 3000, NULL, 0),
			 0);
}

/*
 * The sample trace: a short ROCm-like start-up with allocations, a failed
 * allocation, a bad free, a queue and events left alive, an unknown
 * request, and two records appended out of sequence order.
 */
void
write_sample(const char *path, const struct kt_writer_opts *opts)
{
	struct kfd_abi_get_version_args ver = { 1, 14 };
	struct kfd_abi_acquire_vm_args vm = { .drm_fd = 5, .gpu_id = GPU };
	struct kfd_abi_map_memory_to_gpu_args map = {
		.handle = (uint64_t)GPU << 32,
		.device_ids_array_ptr = 0x7ffc00001000, .n_devices = 1,
	}, map_out;
	struct kfd_abi_create_queue_args q = {
		.ring_base_address = 0x7f0010000000, .ring_size = 4096,
		.gpu_id = GPU, .queue_type = KFD_ABI_QUEUE_TYPE_COMPUTE_AQL,
	}, q_out;
	struct kfd_abi_create_event_args ev = {
		.event_type = KFD_ABI_EVENT_SIGNAL, .auto_reset = 1,
	}, ev_out;
	struct kfd_abi_destroy_event_args dev = { .event_id = 2 };
	uint32_t gpu = GPU;
	uint8_t raw[24] = { 0 };
	struct kt_buf_image img;
	struct kt_record r, late1, late2;
	struct kt_header hdr;
	struct gen g;

	/*
	 * Record times are fixed offsets from the header's clock reading,
	 * so the "+seconds" column is the same on every run; the writer's
	 * own END record gets the real time, shortly after.
	 */
	kt_header_init(&hdr, "kfdtrace-test");
	hdr.kfd_major = 1;
	hdr.kfd_minor = 14;
	assert_int_equal(gen_open_hdr(&g, path, &hdr, opts), 0);

	put_topology(&g);					/* 0 */
	put_open(&g, "/dev/kfd", KFD_FILE_KFD, 3);			/* 1 */
	assert_int_equal(gen_ioctl(&g, KFD_ABI_IOC_GET_VERSION, &ver, &ver,
				   sizeof(ver), 0, 0, 1000, NULL, 0), 0); /* 2 */
	put_open(&g, "/dev/dri/renderD128", KFD_FILE_RENDER, 5);	/* 3 */
	assert_int_equal(gen_ioctl(&g, KFD_ABI_IOC_ACQUIRE_VM, &vm, NULL,
				   sizeof(vm), 0, 0, 5000, NULL, 0), 0);	/* 4 */
	put_alloc(&g, 2 << 20, KFD_ABI_ALLOC_MEM_FLAGS_VRAM |
		  KFD_ABI_ALLOC_MEM_FLAGS_WRITABLE, 0, 0, 10000);	/* 5 */
	put_alloc(&g, 4096, KFD_ABI_ALLOC_MEM_FLAGS_GTT, 1, 0, 20000); /* 6 */
	put_alloc(&g, 1ULL << 40, KFD_ABI_ALLOC_MEM_FLAGS_VRAM, 2, ENOMEM,
		  30000);						/* 7 */
	map_out = map;
	map_out.n_success = 1;
	memset(&img, 0, sizeof(img));
	img.flags = KT_BUF_BEFORE;
	img.addr = map.device_ids_array_ptr;
	img.before = (const uint8_t *)&gpu;
	img.len_before = sizeof(gpu);
	assert_int_equal(gen_ioctl(&g, KFD_ABI_IOC_MAP_MEMORY_TO_GPU, &map,
				   &map_out, sizeof(map), 0, 0, 7000, &img, 1),
			 0);						/* 8 */
	put_free(&g, 0, 0);						/* 9 */
	put_free(&g, 7, EINVAL);					/* 10 */
	q_out = q;
	q_out.queue_id = 0;
	q_out.doorbell_offset = KFD_ABI_MMAP_OFFSET(KFD_ABI_MMAP_TYPE_DOORBELL,
						    GPU, 0);
	assert_int_equal(gen_ioctl(&g, KFD_ABI_IOC_CREATE_QUEUE, &q, &q_out,
				   sizeof(q), 0, 0, 40000, NULL, 0), 0); /* 11 */
	ev_out = ev;
	ev_out.event_id = 1;
	assert_int_equal(gen_ioctl(&g, KFD_ABI_IOC_CREATE_EVENT, &ev, &ev_out,
				   sizeof(ev), 0, 0, 2000, NULL, 0), 0);	/* 12 */
	ev_out.event_id = 2;
	assert_int_equal(gen_ioctl(&g, KFD_ABI_IOC_CREATE_EVENT, &ev, &ev_out,
				   sizeof(ev), 0, 0, 2000, NULL, 0), 0);	/* 13 */
	assert_int_equal(gen_ioctl(&g, KFD_ABI_IOC_DESTROY_EVENT, &dev, NULL,
				   sizeof(dev), 0, 0, 2000, NULL, 0), 0); /* 14 */
	memset(&r, 0, sizeof(r));
	r.type = KT_REC_MMAP;
	r.u.mmap.len = 8192;
	r.u.mmap.prot = 3;
	r.u.mmap.flags = 1;
	r.u.mmap.fd = 3;
	r.u.mmap.file_kind = KFD_FILE_KFD;
	r.u.mmap.offset = q_out.doorbell_offset;
	r.u.mmap.result = 0x7f2000000000;
	assert_int_equal(gen_put(&g, &r), 0);				/* 15 */
	assert_int_equal(gen_ioctl(&g, 0xc0184b99, raw, raw, sizeof(raw), -1,
				   ENOTTY, 500, NULL, 0), 0);		/* 16 */

	/*
	 * Two records of another thread, appended in reverse order; the
	 * first numbered is the later in time (it entered after the second,
	 * as a call that was numbered at entry but stamped later might), so
	 * sequence order and time order disagree.
	 */
	memset(&late1, 0, sizeof(late1));
	late1.type = KT_REC_ANNOTATION;
	late1.u.annotation.text = "first";
	late1.seq = kt_writer_next_seq(g.w);				/* 17 */
	late1.tid = 101;
	late2 = late1;
	late2.u.annotation.text = "second";
	late2.seq = kt_writer_next_seq(g.w);				/* 18 */
	late2.ts = g.ts + 500;
	late1.ts = g.ts + 1500;
	g.ts += 1000;
	assert_int_equal(kt_writer_append(g.w, &late2), 0);
	assert_int_equal(kt_writer_append(g.w, &late1), 0);

	put_alloc(&g, 8192, KFD_ABI_ALLOC_MEM_FLAGS_VRAM, 2, 0, 10000); /* 19 */
	memset(&r, 0, sizeof(r));
	r.type = KT_REC_CLOSE;
	r.u.close.fd = 3;
	assert_int_equal(gen_put(&g, &r), 0);				/* 20 */
	assert_int_equal(kt_writer_close(g.w), 0);			/* END 21 */
}

int
setup(void **state)
{
	assert_non_null(mkdtemp(tmpdir));
	write_sample(tmp_path("sample.kft"), NULL);
	return 0;
}

int
teardown(void **state)
{
	/* KFDTRACE_CLI_KEEP=1 keeps the traces for a look by hand. */
	return tc_scratch_remove(tmpdir, "KFDTRACE_CLI_KEEP");
}

int
cli_args(int argc, char **argv)
{
	if (argc < 3) {
		fprintf(stderr, "usage: %s PATH-TO-KFDTRACE PATH-TO-CLI-FORK-APP\n",
			argv[0]);
		return 2;
	}
	kfdtrace_bin = argv[1];
	fork_app_bin = argv[2];
	return 0;
}

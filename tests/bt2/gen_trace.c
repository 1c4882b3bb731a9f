/* SPDX-License-Identifier: MIT */
/*
 * gen-bt2-trace: writes traces for the babeltrace2/CTF tests with the real
 * writer.
 *
 *   gen-bt2-trace all PATH      every record type; ioctls with buffers (in,
 *                               out and in/out, element structs and integer
 *                               lists), a union arm, a union-arm buffer,
 *                               SVM's trailing attributes, a failed call, an
 *                               unknown request; two threads whose records
 *                               interleave out of time order in the file
 *   gen-bt2-trace rows PATH     one successful call of every schema row
 *                               (zeroed argument images), so an export
 *                               declares every row's event
 *   gen-bt2-trace bench PATH N  N ioctls of one thread (allocation, map with
 *                               a device list, wait with event data, free,
 *                               unknown request)
 *   gen-bt2-trace seek PATH N [PID [PHASE_NS]]
 *                               N records of two threads in small frames
 *                               (many index entries), the second thread's
 *                               written in late bursts; ioctl spans of up
 *                               to 50 us, failed calls (ENOMEM, EINVAL,
 *                               ENOTTY), multi-bit flags. PID (default
 *                               4242) is the process; another pid is a
 *                               child of 4242. PHASE_NS shifts every time,
 *                               so two such traces interleave.
 *
 * Prints "start_monotonic=N start_realtime=N records=N" on stdout.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kfdtrace/drm_abi.h"
#include "kfdtrace/kfd_abi.h"
#include "kfdtrace/schema.h"
#include "kfdtrace/trace.h"
#include "tc_rec.h"

#define START_MONO 5000000000ULL	/* 5 s after boot */
#define START_REAL 1700000000123456789ULL
/* The traced process: fixed, so tests can expect every event's pid. */
#define GEN_PID 4242
#define GEN_PPID 4000

struct gen {
	struct kt_writer *w;
	unsigned long records;
	int rc;
};

static void
put(struct gen *g, struct kt_record *r, uint32_t tid, uint64_t ts)
{
	int rc;

	if (g->rc)
		return;
	r->seq = kt_writer_next_seq(g->w);
	r->tid = tid;
	r->ts = ts;
	rc = kt_writer_append(g->w, r);
	if (rc) {
		fprintf(stderr, "gen-bt2-trace: append (type %u): %s\n",
			r->type, kt_strerror(rc));
		g->rc = rc;
	}
	g->records++;
}

static void
ioctl_rec(struct gen *g, uint32_t tid, uint64_t ts, uint64_t dur, int fd,
	  uint8_t kind, uint32_t request, const void *before,
	  const void *after, uint32_t size, int64_t ret, int32_t err,
	  const struct kt_buf_image *bufs, uint16_t nbufs)
{
	struct kt_record r = tc_rec_ioctl(fd, kind, request, before, after, size,
					  ret, err);

	r.u.ioctl.t_exit = ts + dur;
	r.u.ioctl.bufs = bufs;
	r.u.ioctl.nbufs = nbufs;
	put(g, &r, tid, ts);
}

/* Close the trace and print the line the tests read. Return: 0, or 1. */
static int
finish(struct gen *g)
{
	if (kt_writer_close(g->w) || g->rc)
		return 1;
	printf("start_monotonic=%llu start_realtime=%llu records=%lu\n",
	       (unsigned long long)START_MONO, (unsigned long long)START_REAL,
	       g->records + 1);
	return 0;
}

static int
open_writer_as(struct gen *g, const char *path, int32_t pid, int32_t ppid,
	       const struct kt_writer_opts *opts)
{
	struct kt_header hdr;
	int rc;

	memset(g, 0, sizeof(*g));
	kt_header_init(&hdr, "kfdtrace-test");
	hdr.start_monotonic = START_MONO;
	hdr.start_realtime = START_REAL;
	hdr.pid = pid;
	hdr.ppid = ppid;
	hdr.kfd_major = 1;
	hdr.kfd_minor = 17;
	rc = kt_writer_open(path, &hdr, opts, &g->w);
	if (rc)
		fprintf(stderr, "gen-bt2-trace: %s: %s\n", path, kt_strerror(rc));
	return rc;
}

static int
open_writer(struct gen *g, const char *path)
{
	return open_writer_as(g, path, GEN_PID, GEN_PPID, NULL);
}

/* The row index of a buffer by name and direction, for kt_buf_image.index. */
static uint16_t
buf_index(unsigned int kind, uint32_t request, const char *name, int nth)
{
	const struct kfd_ioctl_desc *d = kfd_schema_lookup(kind, request);
	unsigned int i;

	for (i = 0; d && i < d->nbufs; i++)
		if (strcmp(d->bufs[i].name, name) == 0 && nth-- == 0)
			return (uint16_t)i;
	fprintf(stderr, "gen-bt2-trace: no buffer %s\n", name);
	exit(1);
}

static void
topology(struct gen *g, uint32_t tid, uint64_t ts)
{
	static const char p0[] = "/sys/devices/virtual/kfd/kfd/topology/nodes/0/gpu_id";
	static const char p1[] = "/sys/devices/virtual/kfd/kfd/topology/nodes/1/gpu_id";
	static const char p2[] = "/sys/devices/virtual/kfd/kfd/topology/nodes/1/name";
	static const char p3[] = "/sys/devices/virtual/kfd/kfd/topology/generation_id";
	struct kt_topo_file f[4] = {
		{ p0, (const uint8_t *)"0\n", 2 },
		{ p1, (const uint8_t *)"4660\n", 5 },
		{ p2, (const uint8_t *)"gfx90a\n", 7 },
		{ p3, (const uint8_t *)"1\n", 2 },
	};
	struct kt_record r;

	memset(&r, 0, sizeof(r));
	r.type = KT_REC_TOPOLOGY;
	r.u.topology.nfiles = 4;
	r.u.topology.files = f;
	put(g, &r, tid, ts);
}

static int
gen_all(const char *path)
{
	const uint32_t T1 = 1000, T2 = 1001;
	const uint64_t t0 = START_MONO + 1000000;	/* 1 ms after start */
	struct gen g;
	struct kt_record r;
	uint64_t t = t0;

	if (open_writer(&g, path))
		return 1;

	/* ---- thread 1: set-up ---- */
	topology(&g, T1, t += 1000);
	memset(&r, 0, sizeof(r));
	r.type = KT_REC_THREAD_NAME;
	r.u.thread_name.name = "main \"thread\"";
	put(&g, &r, T1, t += 1000);
	memset(&r, 0, sizeof(r));
	r.type = KT_REC_OPEN;
	r.u.open.path = "/dev/kfd";
	r.u.open.flags = 02 | 02000000;
	r.u.open.file_kind = KFD_FILE_KFD;
	r.u.open.rdev = 0xeb00;
	r.u.open.ret = 3;
	put(&g, &r, T1, t += 1000);
	memset(&r, 0, sizeof(r));
	r.type = KT_REC_OPEN;
	r.u.open.path = "/dev/dri/renderD128";
	r.u.open.flags = 02;
	r.u.open.mode = 0644;
	r.u.open.file_kind = KFD_FILE_RENDER;
	r.u.open.ret = 5;
	put(&g, &r, T1, t += 1000);
	memset(&r, 0, sizeof(r));
	r.type = KT_REC_DUP;
	r.u.dup.kind = KT_FCNTL_DUPFD_CLOEXEC;
	r.u.dup.oldfd = 5;
	r.u.dup.newfd = 3;
	r.u.dup.ret = 7;
	put(&g, &r, T1, t += 1000);
	{
		struct kfd_abi_get_version_args v = { 0 }, vo = { 1, 17 };

		ioctl_rec(&g, T1, t += 1000, 900, 3, KFD_FILE_KFD,
			  KFD_ABI_IOC_GET_VERSION, &v, &vo, sizeof(v), 0, 0,
			  NULL, 0);
	}
	{
		/* Apertures: capacity 2 in, 1 filled out. */
		struct kfd_abi_get_process_apertures_new_args a = {
			.kfd_process_device_apertures_ptr = 0x7ffc00003000,
			.num_of_nodes = 2,
		}, ao = a;
		struct kfd_abi_process_device_apertures ap[2];
		struct kt_buf_image img;

		memset(ap, 0, sizeof(ap));
		ap[0].gpuvm_base = 0x10000;
		ap[0].gpuvm_limit = 0x7fffffffffff;
		ap[0].lds_base = 0x1000000000000;
		ap[0].gpu_id = 4660;
		ao.num_of_nodes = 1;
		memset(&img, 0, sizeof(img));
		img.index = buf_index(KFD_FILE_KFD,
				      KFD_ABI_IOC_GET_PROCESS_APERTURES_NEW,
				      "apertures", 0);
		img.flags = KT_BUF_AFTER;
		img.addr = a.kfd_process_device_apertures_ptr;
		img.after = (const uint8_t *)ap;
		img.len_after = sizeof(ap[0]);
		ioctl_rec(&g, T1, t += 1000, 2000, 3, KFD_FILE_KFD,
			  KFD_ABI_IOC_GET_PROCESS_APERTURES_NEW, &a, &ao,
			  sizeof(a), 0, 0, &img, 1);
	}
	{
		/* AMDGPU_INFO READ_MMR_REG: a union arm and an out buffer. */
		struct kfd_drm_amdgpu_info in;
		uint8_t result[4] = { 0x42, 0x40, 0x11, 0x2a };
		struct kt_buf_image img;

		memset(&in, 0, sizeof(in));
		in.return_pointer = 0x7ffc00004000;
		in.return_size = 4;
		in.query = 21;
		in.read_mmr_reg.dword_offset = 0x263e;
		in.read_mmr_reg.count = 1;
		in.read_mmr_reg.instance = 0xffffffff;
		memset(&img, 0, sizeof(img));
		img.index = buf_index(KFD_FILE_RENDER, KFD_DRM_IOCTL_AMDGPU_INFO,
				      "result", 0);
		img.flags = KT_BUF_AFTER;
		img.addr = in.return_pointer;
		img.after = result;
		img.len_after = sizeof(result);
		ioctl_rec(&g, T1, t += 1000, 1500, 7, KFD_FILE_RENDER,
			  KFD_DRM_IOCTL_AMDGPU_INFO, &in, &in, sizeof(in), 0, 0,
			  &img, 1);
	}

	/* ---- an API span around an allocation and its mapping ---- */
	{
		uint64_t api_t0 = t += 1000;
		struct kfd_abi_alloc_memory_of_gpu_args al = {
			.va_addr = 0x7f0000000000, .size = 2 << 20,
			.gpu_id = 4660,
			.flags = KFD_ABI_ALLOC_MEM_FLAGS_VRAM |
				 KFD_ABI_ALLOC_MEM_FLAGS_WRITABLE |
				 KFD_ABI_ALLOC_MEM_FLAGS_NO_SUBSTITUTE,
		}, alo = al;
		struct kfd_abi_map_memory_to_gpu_args mp = {
			.handle = (4660ULL << 32) | 1,
			.device_ids_array_ptr = 0x7ffc00001000, .n_devices = 2,
		}, mpo = mp;
		uint32_t ids[2] = { 4660, 22136 };
		struct kt_buf_image img;
		uint64_t first;

		alo.handle = (4660ULL << 32) | 1;
		alo.mmap_offset = 0x100000000ULL;
		first = g.records;
		ioctl_rec(&g, T1, t += 1000, 30000, 3, KFD_FILE_KFD,
			  KFD_ABI_IOC_ALLOC_MEMORY_OF_GPU, &al, &alo, sizeof(al),
			  0, 0, NULL, 0);
		mpo.n_success = 2;
		memset(&img, 0, sizeof(img));
		img.index = buf_index(KFD_FILE_KFD, KFD_ABI_IOC_MAP_MEMORY_TO_GPU,
				      "device_ids", 0);
		img.flags = KT_BUF_BEFORE;
		img.addr = mp.device_ids_array_ptr;
		img.before = (const uint8_t *)ids;
		img.len_before = sizeof(ids);
		t += 31000;
		ioctl_rec(&g, T1, t += 1000, 9000, 3, KFD_FILE_KFD,
			  KFD_ABI_IOC_MAP_MEMORY_TO_GPU, &mp, &mpo, sizeof(mp),
			  0, 0, &img, 1);
		t += 9000;
		memset(&r, 0, sizeof(r));
		r.type = KT_REC_API_CALL;
		r.u.api.name = "hsaKmtAllocMemory";
		r.u.api.args = "node=1 size=2097152 flags=vram";
		r.u.api.status = 0;
		r.u.api.t_exit = t += 1000;
		r.u.api.first_seq = first;
		r.u.api.last_seq = first + 1;
		/* Appended after the calls it caused, stamped with its start. */
		put(&g, &r, T1, api_t0);
	}
	{
		/* A GTT allocation, never freed; its mapping. */
		struct kfd_abi_alloc_memory_of_gpu_args al = {
			.va_addr = 0x7f0000400000, .size = 65536, .gpu_id = 4660,
			.flags = KFD_ABI_ALLOC_MEM_FLAGS_GTT |
				 KFD_ABI_ALLOC_MEM_FLAGS_COHERENT,
		}, alo = al;
		struct kt_record m;

		alo.handle = (4660ULL << 32) | 2;
		alo.mmap_offset = 0x200000000ULL;
		ioctl_rec(&g, T1, t += 1000, 5000, 3, KFD_FILE_KFD,
			  KFD_ABI_IOC_ALLOC_MEMORY_OF_GPU, &al, &alo, sizeof(al),
			  0, 0, NULL, 0);
		t += 5000;
		memset(&m, 0, sizeof(m));
		m.type = KT_REC_MMAP;
		m.u.mmap.addr = 0x7f0000400000;
		m.u.mmap.len = 65536;
		m.u.mmap.prot = 3;
		m.u.mmap.flags = 0x11;
		m.u.mmap.fd = 5;
		m.u.mmap.file_kind = KFD_FILE_RENDER;
		m.u.mmap.offset = 0x200000000ULL;
		m.u.mmap.result = 0x7f0000400000;
		put(&g, &m, T1, t += 1000);
	}
	{
		/* A compute queue. */
		struct kfd_abi_create_queue_args q = {
			.ring_base_address = 0x7f0000800000,
			.write_pointer_address = 0x7f0000900000,
			.read_pointer_address = 0x7f0000900080,
			.ring_size = 4096, .gpu_id = 4660,
			.queue_type = KFD_ABI_QUEUE_TYPE_COMPUTE_AQL,
			.queue_percentage = 100, .queue_priority = 7,
		}, qo = q;

		qo.queue_id = 3;
		qo.doorbell_offset = 0x4000000000000008ULL;
		ioctl_rec(&g, T1, t += 1000, 40000, 3, KFD_FILE_KFD,
			  KFD_ABI_IOC_CREATE_QUEUE, &q, &qo, sizeof(q), 0, 0,
			  NULL, 0);
		t += 40000;
	}

	/*
	 * ---- thread 2, appended now but earlier in time: its buffer was
	 * written after thread 1's in the file ----
	 */
	{
		uint64_t u = t0 + 40000;
		struct kfd_abi_create_event_args ev = { .event_type = 0,
							.auto_reset = 1 }, evo = ev;
		struct kfd_abi_wait_events_args we = {
			.events_ptr = 0x7ffc00002000, .num_events = 1,
			.timeout = 1000,
		}, weo = we;
		struct kfd_abi_event_data ed, edo;
		struct kt_buf_image img;

		memset(&r, 0, sizeof(r));
		r.type = KT_REC_THREAD_NAME;
		r.u.thread_name.name = "worker";
		put(&g, &r, T2, u += 1000);
		evo.event_id = 7;
		evo.event_slot_index = 7;
		evo.event_trigger_data = 7;
		ioctl_rec(&g, T2, u += 1000, 3000, 3, KFD_FILE_KFD,
			  KFD_ABI_IOC_CREATE_EVENT, &ev, &evo, sizeof(ev), 0, 0,
			  NULL, 0);
		u += 3000;
		memset(&ed, 0, sizeof(ed));
		ed.event_id = 7;
		edo = ed;
		edo.signal_event_data.last_event_age = 5;
		weo.wait_result = KFD_ABI_WAIT_RESULT_COMPLETE;
		memset(&img, 0, sizeof(img));
		img.index = buf_index(KFD_FILE_KFD, KFD_ABI_IOC_WAIT_EVENTS,
				      "events", 0);
		img.flags = KT_BUF_BEFORE | KT_BUF_AFTER;
		img.addr = we.events_ptr;
		img.before = (const uint8_t *)&ed;
		img.after = (const uint8_t *)&edo;
		img.len_before = img.len_after = sizeof(ed);
		ioctl_rec(&g, T2, u += 1000, 20000, 3, KFD_FILE_KFD,
			  KFD_ABI_IOC_WAIT_EVENTS, &we, &weo, sizeof(we), 0, 0,
			  &img, 1);
		u += 20000;
		{
			struct kfd_abi_destroy_event_args de = { .event_id = 7 };

			ioctl_rec(&g, T2, u += 1000, 1000, 3, KFD_FILE_KFD,
				  KFD_ABI_IOC_DESTROY_EVENT, &de, &de,
				  sizeof(de), 0, 0, NULL, 0);
		}
	}

	/* ---- thread 1 again ---- */
	{
		/* DBG_TRAP SUSPEND_QUEUES: a union arm with an in/out buffer. */
		struct kfd_abi_dbg_trap_args d, dout;
		uint32_t qin[2] = { 3, 4 }, qout[2] = { 3, 0x80000004 };
		struct kt_buf_image img;

		memset(&d, 0, sizeof(d));
		d.pid = 4242;
		d.op = KFD_ABI_DBG_TRAP_SUSPEND_QUEUES;
		d.suspend_queues.exception_mask = 1;
		d.suspend_queues.queue_array_ptr = 0x7ffc00005000;
		d.suspend_queues.num_queues = 2;
		d.suspend_queues.grace_period = 100;
		dout = d;
		memset(&img, 0, sizeof(img));
		img.index = buf_index(KFD_FILE_KFD, KFD_ABI_IOC_DBG_TRAP,
				      "queue_ids", 0);
		img.flags = KT_BUF_BEFORE | KT_BUF_AFTER;
		img.addr = d.suspend_queues.queue_array_ptr;
		img.before = (const uint8_t *)qin;
		img.after = (const uint8_t *)qout;
		img.len_before = img.len_after = sizeof(qin);
		ioctl_rec(&g, T1, t += 1000, 7000, 3, KFD_FILE_KFD,
			  KFD_ABI_IOC_DBG_TRAP, &d, &dout, sizeof(d), 1, 0,
			  &img, 1);
		t += 7000;
	}
	{
		/* SVM with two trailing attributes. */
		struct kfd_abi_svm_args a;
		struct kfd_abi_svm_attribute at[2];
		uint8_t s[sizeof(a) + sizeof(at)];

		memset(&a, 0, sizeof(a));
		a.start_addr = 0x7f1000000000;
		a.size = 1 << 21;
		a.op = KFD_ABI_SVM_OP_SET_ATTR;
		a.nattr = 2;
		at[0].type = KFD_ABI_SVM_ATTR_PREFERRED_LOC;
		at[0].value = 4660;
		at[1].type = KFD_ABI_SVM_ATTR_GRANULARITY;
		at[1].value = 9;
		memcpy(s, &a, sizeof(a));
		memcpy(s + sizeof(a), at, sizeof(at));
		ioctl_rec(&g, T1, t += 1000, 12000, 3, KFD_FILE_KFD,
			  KFD_ABI_IOC_SVM_NATTR(2), s, s, sizeof(s), 0, 0,
			  NULL, 0);
		t += 12000;
	}
	{
		/* A request the schema does not know. */
		uint8_t raw[24] = { 1, 2, 3, 4, 5, 6, 7, 8, 9 }, rawo[24];

		memcpy(rawo, raw, sizeof(raw));
		rawo[0] = 0xff;
		ioctl_rec(&g, T1, t += 1000, 500, 3, KFD_FILE_KFD, 0xc0184b99,
			  raw, rawo, sizeof(raw), -1, ENOTTY, NULL, 0);
		t += 500;
	}
	{
		/* Destroy the queue; free the VRAM buffer twice (2nd fails). */
		struct kfd_abi_destroy_queue_args dq = { .queue_id = 3 };
		struct kfd_abi_free_memory_of_gpu_args fr = {
			.handle = (4660ULL << 32) | 1,
		};
		struct kt_record m;

		ioctl_rec(&g, T1, t += 1000, 8000, 3, KFD_FILE_KFD,
			  KFD_ABI_IOC_DESTROY_QUEUE, &dq, &dq, sizeof(dq), 0, 0,
			  NULL, 0);
		t += 8000;
		memset(&m, 0, sizeof(m));
		m.type = KT_REC_MUNMAP;
		m.u.munmap.addr = 0x7f0000400000;
		m.u.munmap.len = 65536;
		put(&g, &m, T1, t += 1000);
		ioctl_rec(&g, T1, t += 1000, 4000, 3, KFD_FILE_KFD,
			  KFD_ABI_IOC_FREE_MEMORY_OF_GPU, &fr, &fr, sizeof(fr),
			  0, 0, NULL, 0);
		t += 4000;
		ioctl_rec(&g, T1, t += 1000, 700, 3, KFD_FILE_KFD,
			  KFD_ABI_IOC_FREE_MEMORY_OF_GPU, &fr, &fr, sizeof(fr),
			  -1, EINVAL, NULL, 0);
		t += 700;
	}
	memset(&r, 0, sizeof(r));
	r.type = KT_REC_ANNOTATION;
	r.u.annotation.text = "phase 2: \"teardown\"";
	put(&g, &r, T1, t += 1000);
	memset(&r, 0, sizeof(r));
	r.type = KT_REC_FORK;
	r.u.fork.parent_pid = GEN_PID;
	r.u.fork.child_pid = 4243;
	put(&g, &r, T1, t += 1000);
	memset(&r, 0, sizeof(r));
	r.type = KT_REC_EXEC;
	r.u.exec.path = "/usr/bin/rocminfo";
	r.u.exec.argv = "rocminfo\0--verbose\0";
	r.u.exec.argv_len = 19;
	put(&g, &r, T1, t += 1000);
	memset(&r, 0, sizeof(r));
	r.type = KT_REC_CLOSE;
	r.u.close.fd = 3;
	put(&g, &r, T1, t += 1000);

	if (g.rc) {
		kt_writer_close(g.w);
		return 1;
	}
	if (kt_writer_close(g.w)) {
		fprintf(stderr, "gen-bt2-trace: close failed\n");
		return 1;
	}
	/* The writer adds the END record. */
	printf("start_monotonic=%llu start_realtime=%llu records=%lu\n",
	       (unsigned long long)START_MONO, (unsigned long long)START_REAL,
	       g.records + 1);
	return 0;
}

static int
gen_bench(const char *path, unsigned long n)
{
	struct kfd_abi_alloc_memory_of_gpu_args al = {
		.va_addr = 0x7f0000000000, .size = 2 << 20, .gpu_id = 0x1234,
		.flags = KFD_ABI_ALLOC_MEM_FLAGS_VRAM |
			 KFD_ABI_ALLOC_MEM_FLAGS_WRITABLE,
	}, alo;
	struct kfd_abi_free_memory_of_gpu_args fr;
	struct kfd_abi_map_memory_to_gpu_args mp = {
		.device_ids_array_ptr = 0x7ffc00001000, .n_devices = 2,
	}, mpo;
	struct kfd_abi_wait_events_args we = {
		.events_ptr = 0x7ffc00002000, .num_events = 1, .timeout = 1000,
	}, weo;
	struct kfd_abi_event_data ev;
	uint32_t ids[2] = { 0x1234, 0x5678 };
	uint8_t raw[24] = { 7 };
	struct kt_buf_image mimg, eimg;
	uint64_t t = START_MONO + 1000;
	unsigned long i;
	struct gen g;

	if (open_writer(&g, path))
		return 1;
	memset(&mimg, 0, sizeof(mimg));
	mimg.index = buf_index(KFD_FILE_KFD, KFD_ABI_IOC_MAP_MEMORY_TO_GPU,
			       "device_ids", 0);
	mimg.flags = KT_BUF_BEFORE;
	mimg.before = (const uint8_t *)ids;
	mimg.len_before = sizeof(ids);
	memset(&ev, 0, sizeof(ev));
	ev.event_id = 1;
	memset(&eimg, 0, sizeof(eimg));
	eimg.index = buf_index(KFD_FILE_KFD, KFD_ABI_IOC_WAIT_EVENTS, "events", 0);
	eimg.flags = KT_BUF_BEFORE | KT_BUF_AFTER;
	eimg.before = eimg.after = (const uint8_t *)&ev;
	eimg.len_before = eimg.len_after = sizeof(ev);
	for (i = 0; i < n && !g.rc; i++, t += 2000) {
		uint32_t idr = (uint32_t)(i / 5 % 4096);

		switch (i % 5) {
		case 0:
			alo = al;
			alo.handle = (0x1234ULL << 32) | idr;
			ioctl_rec(&g, 100, t, 1000, 3, KFD_FILE_KFD,
				  KFD_ABI_IOC_ALLOC_MEMORY_OF_GPU, &al, &alo,
				  sizeof(al), 0, 0, NULL, 0);
			break;
		case 1:
			mp.handle = (0x1234ULL << 32) | idr;
			mpo = mp;
			mpo.n_success = 2;
			ioctl_rec(&g, 100, t, 1000, 3, KFD_FILE_KFD,
				  KFD_ABI_IOC_MAP_MEMORY_TO_GPU, &mp, &mpo,
				  sizeof(mp), 0, 0, &mimg, 1);
			break;
		case 2:
			weo = we;
			ioctl_rec(&g, 100, t, 1000, 3, KFD_FILE_KFD,
				  KFD_ABI_IOC_WAIT_EVENTS, &we, &weo, sizeof(we),
				  0, 0, &eimg, 1);
			break;
		case 3:
			fr.handle = (0x1234ULL << 32) | idr;
			ioctl_rec(&g, 100, t, 1000, 3, KFD_FILE_KFD,
				  KFD_ABI_IOC_FREE_MEMORY_OF_GPU, &fr, &fr,
				  sizeof(fr), 0, 0, NULL, 0);
			break;
		default:
			ioctl_rec(&g, 100, t, 500, 3, KFD_FILE_KFD, 0xc0184b99,
				  raw, raw, sizeof(raw), -1, ENOTTY, NULL, 0);
			break;
		}
	}
	return finish(&g);
}

/* One record of the "seek" trace: the @i-th of thread @tid at @t. */
static void
seek_rec(struct gen *g, unsigned long i, uint32_t tid, uint64_t t)
{
	struct kfd_abi_alloc_memory_of_gpu_args al = {
		.va_addr = 0x7f0000000000 + ((uint64_t)i << 21),
		.size = 2 << 20, .gpu_id = 0xbeef,
		.flags = KFD_ABI_ALLOC_MEM_FLAGS_VRAM |
			 KFD_ABI_ALLOC_MEM_FLAGS_WRITABLE |
			 KFD_ABI_ALLOC_MEM_FLAGS_EXECUTABLE,
	}, alo;
	struct kfd_abi_map_memory_to_gpu_args mp = {
		.device_ids_array_ptr = 0x7ffc00001000, .n_devices = 1,
	}, mpo;
	struct kfd_abi_get_version_args gv = { 0 }, gvo = { 1, 17 };
	uint8_t raw[24] = { 7 };
	/* Spans of 1 to 50 us, so some end after younger records start. */
	uint64_t dur = 1000 + (i * 7919) % 49000;

	switch (i % 6) {
	case 0:
		alo = al;
		alo.handle = (0xbeefULL << 32) | (uint32_t)i;
		alo.mmap_offset = 0x100000 + ((uint64_t)i << 12);
		ioctl_rec(g, tid, t, dur, 3, KFD_FILE_KFD,
			  KFD_ABI_IOC_ALLOC_MEMORY_OF_GPU, &al, &alo,
			  sizeof(al), 0, 0, NULL, 0);
		break;
	case 1:
		ioctl_rec(g, tid, t, dur, 3, KFD_FILE_KFD,
			  KFD_ABI_IOC_ALLOC_MEMORY_OF_GPU, &al, &al,
			  sizeof(al), -1, ENOMEM, NULL, 0);
		break;
	case 2:
		mp.handle = (0xbeefULL << 32) | (uint32_t)(i - 2);
		mpo = mp;
		mpo.n_success = 1;
		ioctl_rec(g, tid, t, dur, 3, KFD_FILE_KFD,
			  KFD_ABI_IOC_MAP_MEMORY_TO_GPU, &mp, &mpo, sizeof(mp),
			  0, 0, NULL, 0);
		break;
	case 3:
		ioctl_rec(g, tid, t, dur, 3, KFD_FILE_KFD,
			  KFD_ABI_IOC_MAP_MEMORY_TO_GPU, &mp, &mp, sizeof(mp),
			  -1, EINVAL, NULL, 0);
		break;
	case 4:
		ioctl_rec(g, tid, t, dur, 3, KFD_FILE_KFD,
			  KFD_ABI_IOC_GET_VERSION, &gv, &gvo, sizeof(gv), 0, 0,
			  NULL, 0);
		break;
	default:
		ioctl_rec(g, tid, t, 500, 3, KFD_FILE_KFD, 0xc0184b99, raw, raw,
			  sizeof(raw), -1, ENOTTY, NULL, 0);
		break;
	}
}

/*
 * Thread 1 (tid = pid) appends its records in time order, every 2 us;
 * thread 2's (tid = pid + 100), 1 us after each of thread 1's, are held and
 * appended in bursts of 16, after younger records of thread 1: the file is
 * out of time order as a real one is (docs/trace-format.md 4.1).
 */
static int
gen_seek(const char *path, unsigned long n, int32_t pid, uint64_t phase)
{
	struct kt_writer_opts opts = { .frame_raw_size = 4096,
				       .index_every = 4 };
	struct { unsigned long i; uint64_t t; } late[16];
	uint64_t t = START_MONO + 1000000 + phase;
	unsigned long i, nlate = 0, k;
	struct kt_record r;
	struct gen g;

	if (open_writer_as(&g, path, pid, pid == GEN_PID ? GEN_PPID : GEN_PID,
			   &opts))
		return 1;
	if (pid == GEN_PID) {
		memset(&r, 0, sizeof(r));
		r.type = KT_REC_FORK;
		r.u.fork.parent_pid = GEN_PID;
		r.u.fork.child_pid = GEN_PID + 1;
		put(&g, &r, (uint32_t)pid, t - 500);
	}
	for (i = 0; i < n && !g.rc; i += 2, t += 2000) {
		seek_rec(&g, i, (uint32_t)pid, t);
		if (i + 1 >= n)
			break;
		late[nlate].i = i + 1;
		late[nlate++].t = t + 1000;
		if (nlate == 16) {
			for (k = 0; k < nlate; k++)
				seek_rec(&g, late[k].i, (uint32_t)pid + 100,
					 late[k].t);
			nlate = 0;
		}
	}
	for (k = 0; k < nlate; k++)
		seek_rec(&g, late[k].i, (uint32_t)pid + 100, late[k].t);
	return finish(&g);
}

static int
gen_rows(const char *path)
{
	static const uint8_t zero[4096];
	const struct kfd_ioctl_desc *rows;
	unsigned int n, i;
	struct gen g;

	rows = kfd_schema_rows(&n);
	if (!rows || open_writer(&g, path))
		return 1;
	for (i = 0; i < n; i++) {
		uint32_t size = rows[i].args ? rows[i].args->size : 0;

		if (size > sizeof(zero))
			return 1;
		ioctl_rec(&g, 1000, START_MONO + 1000 * (i + 1), 10, 3,
			  rows[i].file_kind, rows[i].request, zero, zero, size,
			  0, 0, NULL, 0);
	}
	return finish(&g);
}

int
main(int argc, char **argv)
{
	if (argc == 3 && strcmp(argv[1], "all") == 0)
		return gen_all(argv[2]);
	if (argc == 3 && strcmp(argv[1], "rows") == 0)
		return gen_rows(argv[2]);
	if (argc == 4 && strcmp(argv[1], "bench") == 0)
		return gen_bench(argv[2], strtoul(argv[3], NULL, 10));
	if (argc >= 4 && argc <= 6 && strcmp(argv[1], "seek") == 0)
		return gen_seek(argv[2], strtoul(argv[3], NULL, 10),
				argc > 4 ? (int32_t)strtol(argv[4], NULL, 10) :
					   GEN_PID,
				argc > 5 ? strtoull(argv[5], NULL, 10) : 0);
	fprintf(stderr, "usage: gen-bt2-trace all PATH | rows PATH | bench PATH N | "
		"seek PATH N [PID [PHASE_NS]]\n");
	return 2;
}

/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zstd.h>

#include "kt_test_util.h"

static uint64_t
kt_mix(uint64_t x)
{
	/* splitmix64 */
	x += 0x9E3779B97F4A7C15ull;
	x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
	x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
	return x ^ (x >> 31);
}

static void
kt_fill(uint8_t *p, size_t n, uint64_t seed)
{
	for (size_t i = 0; i < n; i++) {
		if (i % 8 == 0)
			seed = kt_mix(seed);
		p[i] = (uint8_t)(seed >> (8 * (i % 8)));
	}
}

static void
kt_text(char *s, size_t n, uint64_t seed)
{
	for (size_t i = 0; i < n; i++) {
		seed = kt_mix(seed);
		s[i] = (char)('a' + seed % 26);
	}
	s[n] = '\0';
}

static void
kt_gen_ioctl(struct kt_test_rec *g, uint64_t h)
{
	struct kt_ioctl_rec *io = &g->rec.u.ioctl;
	unsigned int shape = (unsigned int)(h >> 8) % 4;

	io->fd = (int32_t)(h % 100) - 1;
	io->file_kind = (uint8_t)(h % 3);
	io->request = 0xC0004B00u | (uint32_t)(h >> 16 & 0xff);
	io->ret = (h & 1) ? -1 : (int64_t)(h >> 20 & 7);
	io->err = io->ret == -1 ? EINVAL : 0;
	io->t_exit = g->rec.ts + (h >> 24) % 100000;
	io->arg_size = (uint32_t)((h >> 32) % 200);
	kt_fill(g->arg_before, io->arg_size, h ^ 1);
	memcpy(g->arg_after, g->arg_before, io->arg_size);
	if (io->arg_size > 8)
		kt_fill(g->arg_after + 4, 4, h ^ 2);
	/* both, before only, after only, neither */
	io->arg_before = shape == 0 || shape == 1 ? g->arg_before : NULL;
	io->arg_after = shape == 0 || shape == 2 ? g->arg_after : NULL;
	io->nbufs = (uint16_t)((h >> 40) % 4);
	io->bufs = io->nbufs ? g->bufs : NULL;
	for (unsigned int i = 0; i < io->nbufs; i++) {
		struct kt_buf_image *b = &g->bufs[i];
		uint64_t hb = kt_mix(h + i);

		b->index = (uint16_t)i;
		b->flags = (uint16_t)(hb & 0x1f);
		b->addr = 0x7f0000000000ull + (hb >> 20);
		b->len_before = (uint32_t)((hb >> 8) % 300);
		b->len_after = (uint32_t)((hb >> 16) % 300);
		kt_fill(g->bufdata[i][0], b->len_before, hb ^ 3);
		kt_fill(g->bufdata[i][1], b->len_after, hb ^ 4);
		b->before = (b->flags & KT_BUF_BEFORE) ? g->bufdata[i][0] : NULL;
		b->after = (b->flags & KT_BUF_AFTER) ? g->bufdata[i][1] : NULL;
	}
}

void
kt_test_header_init(struct kt_header *hdr, const char *producer)
{
	kt_header_init(hdr, producer);
	hdr->start_monotonic = 1000000000ull;
}

void
kt_test_gen(struct kt_test_rec *g, unsigned int t, uint64_t i)
{
	uint64_t h = kt_mix((uint64_t)t << 40 ^ i);
	struct kt_record *r = &g->rec;
	size_t n;

	/* Every type a writer appends (END is the writer's own). */
	static const uint16_t types[] = {
		KT_REC_IOCTL, KT_REC_OPEN, KT_REC_CLOSE, KT_REC_DUP, KT_REC_MMAP,
		KT_REC_MUNMAP, KT_REC_FORK, KT_REC_EXEC, KT_REC_THREAD_NAME,
		KT_REC_TOPOLOGY, KT_REC_ANNOTATION, KT_REC_API_CALL, KT_REC_SUBMIT,
		KT_REC_MEMORY, KT_REC_FD_TRANSFER,
	};

	memset(r, 0, sizeof(*r));
	r->type = types[(i + t) % (sizeof(types) / sizeof(types[0]))];
	r->tid = 1000 + t;
	/* Mostly increasing, sometimes going back: signed deltas. */
	r->ts = 1000000000ull + i * 1000 + (h % 3000);
	switch (r->type) {
	case KT_REC_IOCTL:
		kt_gen_ioctl(g, h);
		break;
	case KT_REC_OPEN:
		snprintf(g->s1, sizeof(g->s1), "/dev/dri/renderD%u",
			 (unsigned int)(128 + h % 8));
		r->u.open.path = h & 1 ? g->s1 : "/dev/kfd";
		r->u.open.flags = (int32_t)(h >> 8);
		r->u.open.mode = (uint32_t)(h >> 16);
		r->u.open.file_kind = (uint8_t)(h % 3);
		r->u.open.rdev = h >> 4;
		r->u.open.ret = (h & 2) ? -1 : (int64_t)(h % 1000);
		r->u.open.err = (h & 2) ? ENOENT : 0;
		break;
	case KT_REC_CLOSE:
		r->u.close.fd = (int32_t)(h % 1000);
		r->u.close.ret = (h & 1) ? -1 : 0;
		r->u.close.err = (h & 1) ? EBADF : 0;
		break;
	case KT_REC_DUP:
		r->u.dup.kind = (uint8_t)(h % 5);
		r->u.dup.oldfd = (int32_t)(h >> 8 & 0xffff);
		r->u.dup.newfd = h & 4 ? INT32_MIN : INT32_MAX;
		r->u.dup.flags = (int32_t)(h >> 30);
		r->u.dup.ret = (int64_t)(h >> 1);
		r->u.dup.err = (int32_t)(h % 133);
		break;
	case KT_REC_MMAP:
		r->u.mmap.addr = h;
		r->u.mmap.len = h >> 3;
		r->u.mmap.prot = (int32_t)(h % 8);
		r->u.mmap.flags = (int32_t)(h >> 32);
		r->u.mmap.fd = (int32_t)(h % 50) - 1;
		r->u.mmap.file_kind = (uint8_t)(h % 3);
		r->u.mmap.offset = h << 12;
		r->u.mmap.result = (h & 1) ? UINT64_MAX : h & ~0xfffull;
		r->u.mmap.err = (h & 1) ? ENOMEM : 0;
		break;
	case KT_REC_MUNMAP:
		r->u.munmap.addr = h;
		r->u.munmap.len = h >> 50;
		r->u.munmap.ret = (h & 1) ? -1 : 0;
		r->u.munmap.err = (h & 1) ? EINVAL : 0;
		break;
	case KT_REC_FORK:
		r->u.fork.parent_pid = (int32_t)(h % 4000000);
		r->u.fork.child_pid = (h & 1) ? 0 : (int32_t)(h >> 40);
		break;
	case KT_REC_EXEC:
		snprintf(g->s1, sizeof(g->s1), "/usr/bin/prog%u",
			 (unsigned int)(h % 100));
		r->u.exec.path = g->s1;
		n = (size_t)(h % sizeof(g->argv));
		kt_fill(g->argv, n, h);
		for (size_t k = 0; k < n; k += 7)
			g->argv[k] = 0;
		r->u.exec.argv = (const char *)g->argv;
		r->u.exec.argv_len = (uint32_t)n;
		break;
	case KT_REC_THREAD_NAME:
		kt_text(g->s1, (size_t)(h % 16), h);
		r->u.thread_name.name = g->s1;
		break;
	case KT_REC_TOPOLOGY:
		r->u.topology.nfiles = (uint32_t)(h % 5);
		r->u.topology.files = r->u.topology.nfiles ? g->files : NULL;
		for (uint32_t k = 0; k < r->u.topology.nfiles; k++) {
			snprintf(g->paths[k], sizeof(g->paths[k]),
				 "/sys/devices/virtual/kfd/kfd/topology/nodes/%u/properties",
				 k);
			g->files[k].path = g->paths[k];
			g->files[k].len = (uint32_t)(kt_mix(h + k) % 128);
			kt_fill(g->fdata[k], g->files[k].len, h + k);
			g->files[k].data = g->fdata[k];
		}
		break;
	case KT_REC_ANNOTATION:
		kt_text(g->s2, (size_t)(h % 600), h);
		r->u.annotation.text = g->s2;
		break;
	case KT_REC_API_CALL:
		kt_text(g->s1, 5 + (size_t)(h % 20), h);
		kt_text(g->s2, (size_t)(h % 300), ~h);
		r->u.api.name = g->s1;
		r->u.api.args = g->s2;
		r->u.api.status = (int32_t)(h % 40);
		r->u.api.t_exit = r->ts + (h >> 30) % 1000000;
		r->u.api.first_seq = h >> 3;
		r->u.api.last_seq = (h & 1) ? (h >> 3) - 1 : (h >> 3) + 5;
		break;
	case KT_REC_SUBMIT:
		r->u.submit.queue_id = (uint32_t)(h % 1024);
		r->u.submit.gpu_id = (uint32_t)(h >> 40);
		r->u.submit.engine = (uint8_t)(h % 3);
		r->u.submit.flags = (uint8_t)(h >> 8 & 3);
		r->u.submit.first = h >> 4;
		/* The doorbell may go back: a signed delta. */
		r->u.submit.last = (h & 4) ? (h >> 4) - 3 : (h >> 4) + (h % 100);
		r->u.submit.ring = h << 12;
		r->u.submit.ring_size = (uint32_t)(4096u << (h % 9));
		r->u.submit.len = (uint32_t)(h % sizeof(g->packets));
		kt_fill(g->packets, r->u.submit.len, h);
		r->u.submit.data = r->u.submit.len ? g->packets : NULL;
		break;
	case KT_REC_MEMORY:
		r->u.memory.addr = h << 4;
		r->u.memory.full_len = (uint32_t)(h >> 20);
		r->u.memory.kind = (uint8_t)(1 + h % 4);
		r->u.memory.flags = (uint8_t)(h >> 8 & 7);
		r->u.memory.len = (uint32_t)(h % sizeof(g->packets));
		kt_fill(g->packets, r->u.memory.len, ~h);
		r->u.memory.data = r->u.memory.len ? g->packets : NULL;
		/* Format 1.4: some carry a content hash. */
		if (h & 16) {
			r->u.memory.hash_len = KT_MEM_HASH_LEN;
			kt_fill(r->u.memory.hash, KT_MEM_HASH_LEN, h * 3);
		}
		break;
	case KT_REC_FD_TRANSFER:
		r->u.xfer.dir = (uint8_t)(h & 1);
		r->u.xfer.flags = (uint8_t)(h >> 1 & 7);
		r->u.xfer.sock = (int32_t)(h % 1000) - 3;
		r->u.xfer.ret = (h & 8) ? -1 : (int64_t)(h % 4096);
		r->u.xfer.err = r->u.xfer.ret < 0 ? 22 : 0;
		r->u.xfer.t_exit = r->ts + h % 100000;
		r->u.xfer.ino = h >> 20;
		r->u.xfer.peer_ino = (h & 16) ? 0 : h >> 24;
		r->u.xfer.peer_pid = (int32_t)(h % 100000);
		snprintf(g->s1, sizeof(g->s1), "@sock-%llx", (unsigned long long)h);
		snprintf(g->s2, sizeof(g->s2), "%s", (h & 32) ? "/tmp/s" : "");
		r->u.xfer.name = g->s1;
		r->u.xfer.peer_name = g->s2;
		r->u.xfer.nfds = (uint16_t)(h % 9);
		r->u.xfer.nfds_total = r->u.xfer.nfds + (uint32_t)(h >> 5 & 3);
		for (unsigned int k = 0; k < r->u.xfer.nfds; k++) {
			g->xfds[k].fd = (int32_t)((h >> k) % 500) - 1;
			g->xfds[k].kind = (uint8_t)(k % KT_XFER_FD_KIND_MAX);
		}
		r->u.xfer.fds = r->u.xfer.nfds ? g->xfds : NULL;
		break;
	}
}

void
kt_test_gen_ioctl(struct kt_test_rec *g, uint64_t i, uint32_t arg_size)
{
	/* A few requests repeat, as in rocminfo; times advance by microseconds. */
	static const uint32_t reqs[] = {
		0xC0184B06, 0xC0284B16, 0xC0104B15, 0xC0184B18,
		0xC0104B17, 0xC0284B21, 0xC0104B19, 0xC0084B01,
	};
	struct kt_ioctl_rec *io = &g->rec.u.ioctl;
	uint64_t h = kt_mix(i);
	uint64_t va = 0x7ff000000000ull + (i % 512) * 0x200000ull;

	memset(&g->rec, 0, sizeof(g->rec));
	g->rec.type = KT_REC_IOCTL;
	g->rec.tid = 4242;
	g->rec.ts = 5000000000ull + i * 1800 + (h % 400);
	io->fd = 3;
	io->file_kind = 1;
	io->request = reqs[i % 8];
	io->ret = 0;
	io->t_exit = g->rec.ts + 900 + (h >> 8) % 300;
	io->arg_size = arg_size;
	memset(g->arg_before, 0, arg_size);
	/* va_addr, size, handle, mmap_offset, gpu_id, flags (roughly) */
	memcpy(g->arg_before, &va, arg_size < 8 ? arg_size : 8);
	if (arg_size >= 16) {
		uint64_t size = 4096ull << (i % 6);

		memcpy(g->arg_before + 8, &size, 8);
	}
	if (arg_size >= 40) {
		uint32_t gpu = 0x6d27, flags = 0xd0000004;

		memcpy(g->arg_before + 32, &gpu, 4);
		memcpy(g->arg_before + 36, &flags, 4);
	}
	memcpy(g->arg_after, g->arg_before, arg_size);
	if (arg_size >= 32) {
		uint64_t handle = 0x6d2700000000ull | (i & 0xfff);
		uint64_t moff = (i & 0xffff) << 12;

		memcpy(g->arg_after + 16, &handle, 8);
		memcpy(g->arg_after + 24, &moff, 8);
	}
	io->arg_before = g->arg_before;
	io->arg_after = g->arg_after;
}

static void
kt_put64(uint8_t *p, uint64_t v)
{
	memcpy(p, &v, 8);
}

static void
kt_put32(uint8_t *p, uint32_t v)
{
	memcpy(p, &v, 4);
}

void
kt_test_gen_rocm(struct kt_test_rec *g, uint64_t i)
{
	struct kt_ioctl_rec *io = &g->rec.u.ioctl;
	uint64_t h = kt_mix(i), kind = h % 10;
	uint64_t t = 7000000000ull + i * 9000 + (h >> 8) % 4000;
	uint32_t gpu = 0x6d27 + (uint32_t)((h >> 40) % 2) * 0x1111;

	memset(&g->rec, 0, sizeof(g->rec));
	g->rec.type = KT_REC_IOCTL;
	g->rec.tid = 31337;
	g->rec.ts = t;
	io->fd = 3;
	io->file_kind = 1;
	io->t_exit = t + 1500 + (h >> 16) % 3000;
	io->arg_before = g->arg_before;
	io->arg_after = g->arg_after;
	if (kind < 4) {
		/* ALLOC_MEMORY_OF_GPU: va, size, handle (out), mmap_offset, gpu, flags */
		static const uint64_t sizes[] = { 4096, 65536, 2 << 20, 4096 };
		uint64_t size = sizes[(h >> 20) % 4];

		io->request = 0xC0284B16;
		io->arg_size = 40;
		kt_put64(g->arg_before, 0x7fff00000000ull + (i / 2) * 0x200000ull);
		kt_put64(g->arg_before + 8, size);
		kt_put64(g->arg_before + 16, 0);
		kt_put64(g->arg_before + 24, 0);
		kt_put32(g->arg_before + 32, gpu);
		kt_put32(g->arg_before + 36, 0xd0000001u << (h % 2));
		memcpy(g->arg_after, g->arg_before, 40);
		kt_put64(g->arg_after + 16, (uint64_t)gpu << 32 | (i / 4));
		kt_put64(g->arg_after + 24, (i / 4) << 12);
	} else if (kind < 7) {
		/* MAP_MEMORY_TO_GPU: handle, device_ids_array_ptr, n_devices, n_success */
		io->request = 0xC0184B18;
		io->arg_size = 24;
		kt_put64(g->arg_before, (uint64_t)gpu << 32 | (i / 4));
		kt_put64(g->arg_before + 8, 0x55d5e0001000ull + (i % 16) * 64);
		kt_put32(g->arg_before + 16, 1);
		kt_put32(g->arg_before + 20, 0);
		memcpy(g->arg_after, g->arg_before, 24);
		kt_put32(g->arg_after + 20, 1);
		io->nbufs = 1;
		io->bufs = g->bufs;
		g->bufs[0] = (struct kt_buf_image){
			.index = 0, .flags = KT_BUF_BEFORE,
			.addr = 0x55d5e0001000ull + (i % 16) * 64,
			.len_before = 4, .len_after = 4,
			.before = g->bufdata[0][0],
		};
		kt_put32(g->bufdata[0][0], gpu);
	} else if (kind == 7) {
		/* GET_CLOCK_COUNTERS: outputs are clocks */
		io->request = 0xC0284B05;
		io->arg_size = 40;
		memset(g->arg_before, 0, 40);
		kt_put32(g->arg_before + 32, gpu);
		memcpy(g->arg_after, g->arg_before, 40);
		kt_put64(g->arg_after, t / 10);
		kt_put64(g->arg_after + 8, t * 3);
		kt_put64(g->arg_after + 16, t);
		kt_put64(g->arg_after + 24, 1000000000ull);
	} else if (kind == 8) {
		/* CREATE_EVENT: page offset, trigger data, type, manual, event id... */
		io->request = 0xC0204B08;
		io->arg_size = 32;
		memset(g->arg_before, 0, 32);
		kt_put32(g->arg_before + 16, 1);
		memcpy(g->arg_after, g->arg_before, 32);
		kt_put64(g->arg_after, 0x100000000ull);
		kt_put32(g->arg_after + 8, (uint32_t)(i % 4096));
		kt_put32(g->arg_after + 24, (uint32_t)(i % 4096));
	} else {
		/* GET_VERSION */
		io->request = 0xC0084B01;
		io->arg_size = 8;
		memset(g->arg_before, 0, 8);
		kt_put32(g->arg_after, 1);
		kt_put32(g->arg_after + 4, 17);
	}
}

static const char *
kt_mem_diff(const void *a, const void *b, size_t n, const char *what)
{
	if (!a != !b)
		return what;
	if (a && n && memcmp(a, b, n))
		return what;
	return NULL;
}

static const char *
kt_str_diff(const char *a, const char *b, const char *what)
{
	if (!a)
		a = "";
	if (!b)
		b = "";
	return strcmp(a, b) ? what : NULL;
}

#define KT_F(field) do { if (a->field != b->field) return #field; } while (0)
#define KT_M(x) do { const char *d_ = (x); if (d_) return d_; } while (0)

static const char *
kt_ioctl_diff(const struct kt_ioctl_rec *a, const struct kt_ioctl_rec *b)
{
	KT_F(fd);
	KT_F(file_kind);
	KT_F(request);
	KT_F(ret);
	KT_F(err);
	KT_F(t_exit);
	KT_F(arg_size);
	KT_M(kt_mem_diff(a->arg_before, b->arg_before, a->arg_size, "arg_before"));
	KT_M(kt_mem_diff(a->arg_after, b->arg_after, a->arg_size, "arg_after"));
	KT_F(nbufs);
	for (unsigned int i = 0; i < a->nbufs; i++) {
		const struct kt_buf_image *x = &a->bufs[i], *y = &b->bufs[i];

		if (x->index != y->index || x->flags != y->flags ||
		    x->addr != y->addr || x->len_before != y->len_before ||
		    x->len_after != y->len_after)
			return "buf header";
		KT_M(kt_mem_diff(x->before, y->before, x->len_before, "buf before"));
		KT_M(kt_mem_diff(x->after, y->after, x->len_after, "buf after"));
	}
	return NULL;
}

const char *
kt_test_rec_diff(const struct kt_record *a, const struct kt_record *b,
		 bool cmp_seq)
{
	KT_F(type);
	KT_F(tid);
	KT_F(ts);
	if (cmp_seq)
		KT_F(seq);
	switch (a->type) {
	case KT_REC_IOCTL:
		return kt_ioctl_diff(&a->u.ioctl, &b->u.ioctl);
	case KT_REC_OPEN:
		KT_M(kt_str_diff(a->u.open.path, b->u.open.path, "open.path"));
		KT_F(u.open.flags);
		KT_F(u.open.mode);
		KT_F(u.open.file_kind);
		KT_F(u.open.rdev);
		KT_F(u.open.ret);
		KT_F(u.open.err);
		return NULL;
	case KT_REC_CLOSE:
		KT_F(u.close.fd);
		KT_F(u.close.ret);
		KT_F(u.close.err);
		return NULL;
	case KT_REC_DUP:
		KT_F(u.dup.kind);
		KT_F(u.dup.oldfd);
		KT_F(u.dup.newfd);
		KT_F(u.dup.flags);
		KT_F(u.dup.ret);
		KT_F(u.dup.err);
		return NULL;
	case KT_REC_MMAP:
		KT_F(u.mmap.addr);
		KT_F(u.mmap.len);
		KT_F(u.mmap.prot);
		KT_F(u.mmap.flags);
		KT_F(u.mmap.fd);
		KT_F(u.mmap.file_kind);
		KT_F(u.mmap.offset);
		KT_F(u.mmap.result);
		KT_F(u.mmap.err);
		return NULL;
	case KT_REC_MUNMAP:
		KT_F(u.munmap.addr);
		KT_F(u.munmap.len);
		KT_F(u.munmap.ret);
		KT_F(u.munmap.err);
		return NULL;
	case KT_REC_FORK:
		KT_F(u.fork.parent_pid);
		KT_F(u.fork.child_pid);
		return NULL;
	case KT_REC_EXEC:
		KT_M(kt_str_diff(a->u.exec.path, b->u.exec.path, "exec.path"));
		KT_F(u.exec.argv_len);
		return kt_mem_diff(a->u.exec.argv_len ? a->u.exec.argv : NULL,
				   b->u.exec.argv_len ? b->u.exec.argv : NULL,
				   a->u.exec.argv_len, "exec.argv");
	case KT_REC_THREAD_NAME:
		return kt_str_diff(a->u.thread_name.name, b->u.thread_name.name,
				   "thread_name");
	case KT_REC_TOPOLOGY:
		KT_F(u.topology.nfiles);
		for (uint32_t i = 0; i < a->u.topology.nfiles; i++) {
			const struct kt_topo_file *x = &a->u.topology.files[i];
			const struct kt_topo_file *y = &b->u.topology.files[i];

			KT_M(kt_str_diff(x->path, y->path, "topology path"));
			if (x->len != y->len)
				return "topology len";
			KT_M(kt_mem_diff(x->len ? x->data : NULL,
					 y->len ? y->data : NULL, x->len,
					 "topology data"));
		}
		return NULL;
	case KT_REC_ANNOTATION:
		return kt_str_diff(a->u.annotation.text, b->u.annotation.text,
				   "annotation");
	case KT_REC_API_CALL:
		KT_M(kt_str_diff(a->u.api.name, b->u.api.name, "api.name"));
		KT_M(kt_str_diff(a->u.api.args, b->u.api.args, "api.args"));
		KT_F(u.api.status);
		KT_F(u.api.t_exit);
		KT_F(u.api.first_seq);
		KT_F(u.api.last_seq);
		return NULL;
	case KT_REC_END:
		KT_F(u.end.flags);
		KT_F(u.end.records);
		KT_F(u.end.lost);
		return NULL;
	case KT_REC_SUBMIT:
		KT_F(u.submit.queue_id);
		KT_F(u.submit.gpu_id);
		KT_F(u.submit.engine);
		KT_F(u.submit.flags);
		KT_F(u.submit.first);
		KT_F(u.submit.last);
		KT_F(u.submit.ring);
		KT_F(u.submit.ring_size);
		KT_F(u.submit.len);
		return kt_mem_diff(a->u.submit.len ? a->u.submit.data : NULL,
				   b->u.submit.len ? b->u.submit.data : NULL,
				   a->u.submit.len, "submit.packets");
	case KT_REC_FD_TRANSFER:
		KT_F(u.xfer.dir);
		KT_F(u.xfer.flags);
		KT_F(u.xfer.sock);
		KT_F(u.xfer.ret);
		KT_F(u.xfer.err);
		KT_F(u.xfer.t_exit);
		KT_F(u.xfer.ino);
		KT_F(u.xfer.peer_ino);
		KT_F(u.xfer.peer_pid);
		KT_F(u.xfer.nfds_total);
		KT_F(u.xfer.nfds);
		KT_M(kt_str_diff(a->u.xfer.name, b->u.xfer.name, "xfer.name"));
		KT_M(kt_str_diff(a->u.xfer.peer_name, b->u.xfer.peer_name,
				 "xfer.peer_name"));
		for (unsigned int k = 0; k < a->u.xfer.nfds; k++)
			if (a->u.xfer.fds[k].fd != b->u.xfer.fds[k].fd ||
			    a->u.xfer.fds[k].kind != b->u.xfer.fds[k].kind)
				return "xfer.fds";
		return NULL;
	case KT_REC_MEMORY:
		KT_F(u.memory.addr);
		KT_F(u.memory.full_len);
		KT_F(u.memory.kind);
		KT_F(u.memory.flags);
		KT_F(u.memory.len);
		KT_F(u.memory.hash_len);
		if (memcmp(a->u.memory.hash, b->u.memory.hash, a->u.memory.hash_len))
			return "memory.hash";
		return kt_mem_diff(a->u.memory.len ? a->u.memory.data : NULL,
				   b->u.memory.len ? b->u.memory.data : NULL,
				   a->u.memory.len, "memory.bytes");
	}
	return "unknown type";
}

static char kt_tmpdir[64];

static void
kt_rm_tmpdir(void)
{
	char cmd[128];

	if (!kt_tmpdir[0])
		return;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", kt_tmpdir);
	if (system(cmd))
		fprintf(stderr, "could not remove %s\n", kt_tmpdir);
}

const char *
kt_test_path(const char *name)
{
	static char path[192];
	static pid_t owner;

	if (!kt_tmpdir[0] || owner != getpid()) {
		snprintf(kt_tmpdir, sizeof(kt_tmpdir), "/tmp/kt-test-XXXXXX");
		if (!mkdtemp(kt_tmpdir))
			abort();
		owner = getpid();
		atexit(kt_rm_tmpdir);
	}
	snprintf(path, sizeof(path), "%s/%s", kt_tmpdir, name);
	unlink(path);
	return path;
}

double
kt_test_now_s(clockid_t clock)
{
	struct timespec ts;

	clock_gettime(clock, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

uint8_t *
kt_test_slurp(const char *path, size_t *len)
{
	struct stat sb;
	uint8_t *buf;
	FILE *f;

	f = fopen(path, "rb");
	if (!f || fstat(fileno(f), &sb))
		abort();
	buf = malloc((size_t)sb.st_size + 1);
	if (!buf || fread(buf, 1, (size_t)sb.st_size, f) != (size_t)sb.st_size)
		abort();
	fclose(f);
	*len = (size_t)sb.st_size;
	return buf;
}

static uint32_t
kt_le32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	       (uint32_t)p[3] << 24;
}

static uint64_t
kt_le64(const uint8_t *p)
{
	return kt_le32(p) | (uint64_t)kt_le32(p + 4) << 32;
}

int
kt_test_walk(const uint8_t *data, size_t len, struct kt_test_frame *out,
	     int max)
{
	size_t off = 0;
	int n = 0;

	while (off < len && n < max) {
		uint32_t magic;

		if (len - off < 8)
			return -1;
		magic = kt_le32(data + off);
		out[n].off = off;
		if ((magic & 0xFFFFFFF0u) == 0x184D2A50u) {
			out[n].size = 8 + (size_t)kt_le32(data + off + 4);
			out[n].data = false;
			out[n].tag = kt_le32(data + off + 8);
		} else if (magic == 0xFD2FB528u) {
			size_t cs = ZSTD_findFrameCompressedSize(data + off,
								 len - off);

			if (ZSTD_isError(cs))
				return -1;
			out[n].size = cs;
			out[n].data = true;
			out[n].tag = 0;
		} else {
			return -1;
		}
		if (out[n].size > len - off)
			return -1;
		off += out[n].size;
		n++;
	}
	return off == len ? n : -1;
}

void
kt_test_index_records(const uint8_t *data, const struct kt_test_frame *frames,
		      int nframes, long *records)
{
	for (int i = 0; i < nframes; i++)
		records[i] = -1;
	for (int i = 0; i < nframes; i++) {
		const uint8_t *pl = data + frames[i].off + 8;
		uint32_t esize, count;

		if (frames[i].data || memcmp(pl, "KFDTINDX", 8))
			continue;
		esize = kt_le32(pl + 8);
		count = kt_le32(pl + 12);
		for (uint32_t k = 0; k < count; k++) {
			const uint8_t *e = pl + 24 + (size_t)k * esize;
			uint64_t off = kt_le64(e);

			for (int j = 0; j < nframes; j++)
				if (frames[j].off == off)
					records[j] = kt_le32(e + 48);
		}
	}
}

static void
kt_bb_need(struct kt_bb *b, size_t n)
{
	if (b->len + n <= b->cap)
		return;
	b->cap = (b->len + n) * 2 + 64;
	b->p = realloc(b->p, b->cap);
	if (!b->p)
		abort();
}

void
kt_bb_u8(struct kt_bb *b, uint8_t v)
{
	kt_bb_need(b, 1);
	b->p[b->len++] = v;
}

void
kt_bb_le32(struct kt_bb *b, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		kt_bb_u8(b, (uint8_t)(v >> (8 * i)));
}

void
kt_bb_le64(struct kt_bb *b, uint64_t v)
{
	kt_bb_le32(b, (uint32_t)v);
	kt_bb_le32(b, (uint32_t)(v >> 32));
}

void
kt_bb_varint(struct kt_bb *b, uint64_t v)
{
	while (v >= 0x80) {
		kt_bb_u8(b, (uint8_t)(v | 0x80));
		v >>= 7;
	}
	kt_bb_u8(b, (uint8_t)v);
}

void
kt_bb_bytes(struct kt_bb *b, const void *p, size_t n)
{
	kt_bb_need(b, n);
	memcpy(b->p + b->len, p, n);
	b->len += n;
}

void
kt_bb_free(struct kt_bb *b)
{
	free(b->p);
	memset(b, 0, sizeof(*b));
}

uint32_t
kt_test_crc32(const void *p, size_t n)
{
	const uint8_t *s = p;
	uint32_t crc = 0xFFFFFFFFu;

	while (n--) {
		crc ^= *s++;
		for (int k = 0; k < 8; k++)
			crc = (crc >> 1) ^ (0xEDB88320u & -(crc & 1));
	}
	return ~crc;
}

void
kt_test_header_frame(struct kt_bb *out)
{
	struct kt_bb pl = { 0 };
	static const char *strs[6] = { "test", "1", "host", "6.1", "/bin/x", "x" };

	kt_bb_bytes(&pl, "KFDTRACE", 8);
	kt_bb_u8(&pl, 1);
	kt_bb_u8(&pl, 0);
	kt_bb_u8(&pl, 0);
	kt_bb_u8(&pl, 0);
	for (int i = 0; i < 5; i++)
		kt_bb_le32(&pl, 0);	/* flags, kfd major/minor, pid, ppid */
	for (int i = 0; i < 3; i++)
		kt_bb_le64(&pl, 0);	/* clocks */
	for (int i = 0; i < 6; i++) {
		size_t n = strlen(strs[i]);

		kt_bb_u8(&pl, (uint8_t)n);
		kt_bb_u8(&pl, 0);
		kt_bb_bytes(&pl, strs[i], n);
	}
	kt_bb_le32(&pl, kt_test_crc32(pl.p, pl.len));
	kt_bb_le32(out, 0x184D2A5Bu);
	kt_bb_le32(out, (uint32_t)pl.len);
	kt_bb_bytes(out, pl.p, pl.len);
	kt_bb_free(&pl);
}

void
kt_test_trace_with(struct kt_bb *out, const uint8_t *raw, size_t rawlen)
{
	size_t cap = ZSTD_compressBound(rawlen), n;
	ZSTD_CCtx *cc = ZSTD_createCCtx();

	kt_test_header_frame(out);
	kt_bb_need(out, cap);
	ZSTD_CCtx_setParameter(cc, ZSTD_c_checksumFlag, 1);
	n = ZSTD_compress2(cc, out->p + out->len, cap, raw, rawlen);
	if (ZSTD_isError(n))
		abort();
	out->len += n;
	ZSTD_freeCCtx(cc);
}

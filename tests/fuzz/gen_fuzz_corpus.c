/* SPDX-License-Identifier: MIT */
/*
 * Writes the seed corpora of the decode, topo_sysfs, profile, replay_plan
 * and emit_c fuzz targets (not the trace reader's: gen_trace_corpus;
 * corpus/bt2_source is a symbolic link to the trace reader's). The files in
 * tests/fuzz/corpus/<target>/ were made with
 *   gen_fuzz_corpus <target> tests/fuzz/corpus/<target>
 * except the crash_* and oom_* inputs the fuzzers found, kept so that the
 * regression drivers replay them in every test run.
 *
 *  decode:	one ioctl per schema row, with plausible argument bytes and
 *		indirect buffers sized by the schema, plus every other record
 *		kind (fuzz_record.h layout).
 *  topo_sysfs:	the sysfs tree kfdsim shows for each builtin profile (caches
 *		cut to a few per node), a cpuinfo and CPU cache files.
 *  profile:	the builtin profiles' text.
 *  replay_plan: a small capture-like session (open, VM, alloc, map,
 *		mmap, events, unmap, free, close), mixed generated records,
 *		and calls of 63 distinct threads.
 *  emit_c:	hostile text in every header string, the file name, paths,
 *		argv, thread names and annotations; and an argv bomb (exec
 *		records of 32 KiB of hostile argv each).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kfdtrace/schema.h"
#include "kfdtrace/trace.h"

#include <kfdtrace/kfd_abi.h>

#include "kt_test_util.h"
#include "ksim.h"

static const char *dir;

static void
save(const char *name, const void *p, size_t n)
{
	char path[4096];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "wb");
	if (!f || fwrite(p, 1, n, f) != n || fclose(f)) {
		perror(path);
		exit(1);
	}
}

static void
u16(struct kt_bb *b, uint16_t v)
{
	kt_bb_u8(b, (uint8_t)v);
	kt_bb_u8(b, (uint8_t)(v >> 8));
}

static void
str(struct kt_bb *b, const char *s)
{
	kt_bb_bytes(b, s ? s : "", strlen(s ? s : "") + 1);
}

/* ---- records in fuzz_record.h's layout ---- */

static void
enc_ioctl(struct kt_bb *b, const struct kt_ioctl_rec *io)
{
	uint8_t rk, nbufs = io->nbufs > 4 ? 4 : (uint8_t)io->nbufs;

	kt_bb_u8(b, 0);				/* sel: raw request */
	kt_bb_le32(b, io->request);
	kt_bb_u8(b, io->file_kind);
	kt_bb_le32(b, (uint32_t)io->fd);
	rk = io->ret == 0 ? 0 : io->ret == -1 ? 96 : 192;
	if ((uint32_t)io->err > 255)
		rk |= 1;
	kt_bb_u8(b, rk);
	if (rk >= 192)
		kt_bb_le64(b, (uint64_t)io->ret);
	if (rk & 1)
		kt_bb_le32(b, (uint32_t)io->err);
	else
		kt_bb_u8(b, (uint8_t)io->err);
	kt_bb_le64(b, io->t_exit);
	u16(b, (uint16_t)io->arg_size);
	kt_bb_u8(b, (io->arg_before ? 1 : 0) | (io->arg_after ? 2 : 0));
	if (io->arg_before)
		kt_bb_bytes(b, io->arg_before, io->arg_size);
	if (io->arg_after)
		kt_bb_bytes(b, io->arg_after, io->arg_size);
	kt_bb_u8(b, nbufs);
	for (unsigned int i = 0; i < nbufs; i++) {
		const struct kt_buf_image *bi = &io->bufs[i];
		uint32_t lb = bi->before ? bi->len_before : bi->len_before & 0x7fff;
		uint32_t la = bi->after ? bi->len_after : bi->len_after & 0x7fff;

		kt_bb_u8(b, (uint8_t)(bi->index % 4));
		kt_bb_u8(b, (uint8_t)((bi->flags & ~(KT_BUF_BEFORE | KT_BUF_AFTER)) |
				      (bi->before ? KT_BUF_BEFORE : 0) |
				      (bi->after ? KT_BUF_AFTER : 0)));
		kt_bb_le64(b, bi->addr);
		u16(b, (uint16_t)(lb > 4096 ? 4096 : lb));
		u16(b, (uint16_t)(la > 4096 ? 4096 : la));
		if (bi->before)
			kt_bb_bytes(b, bi->before, lb > 4096 ? 4096 : lb);
		if (bi->after)
			kt_bb_bytes(b, bi->after, la > 4096 ? 4096 : la);
	}
}

static void
enc_record(struct kt_bb *b, const struct kt_record *r)
{
	const struct kt_topology_rec *t = &r->u.topology;

	kt_bb_u8(b, r->type == KT_REC_IOCTL ? 0 : (uint8_t)(128 + r->type - KT_REC_OPEN));
	kt_bb_le64(b, r->seq);
	kt_bb_le32(b, r->tid);
	kt_bb_le64(b, r->ts);
	switch (r->type) {
	case KT_REC_IOCTL:
		enc_ioctl(b, &r->u.ioctl);
		break;
	case KT_REC_OPEN:
		str(b, r->u.open.path);
		kt_bb_le32(b, (uint32_t)r->u.open.flags);
		kt_bb_le32(b, r->u.open.mode);
		kt_bb_u8(b, r->u.open.file_kind);
		kt_bb_le64(b, r->u.open.rdev);
		kt_bb_le64(b, (uint64_t)r->u.open.ret);
		kt_bb_le32(b, (uint32_t)r->u.open.err);
		break;
	case KT_REC_CLOSE:
		kt_bb_le32(b, (uint32_t)r->u.close.fd);
		kt_bb_le64(b, (uint64_t)r->u.close.ret);
		kt_bb_le32(b, (uint32_t)r->u.close.err);
		break;
	case KT_REC_DUP:
		kt_bb_u8(b, r->u.dup.kind);
		kt_bb_le32(b, (uint32_t)r->u.dup.oldfd);
		kt_bb_le32(b, (uint32_t)r->u.dup.newfd);
		kt_bb_le32(b, (uint32_t)r->u.dup.flags);
		kt_bb_le64(b, (uint64_t)r->u.dup.ret);
		kt_bb_le32(b, (uint32_t)r->u.dup.err);
		break;
	case KT_REC_MMAP:
		kt_bb_le64(b, r->u.mmap.addr);
		kt_bb_le64(b, r->u.mmap.len);
		kt_bb_le32(b, (uint32_t)r->u.mmap.prot);
		kt_bb_le32(b, (uint32_t)r->u.mmap.flags);
		kt_bb_le32(b, (uint32_t)r->u.mmap.fd);
		kt_bb_u8(b, r->u.mmap.file_kind);
		kt_bb_le64(b, r->u.mmap.offset);
		kt_bb_le64(b, r->u.mmap.result);
		kt_bb_le32(b, (uint32_t)r->u.mmap.err);
		break;
	case KT_REC_MUNMAP:
		kt_bb_le64(b, r->u.munmap.addr);
		kt_bb_le64(b, r->u.munmap.len);
		kt_bb_le64(b, (uint64_t)r->u.munmap.ret);
		kt_bb_le32(b, (uint32_t)r->u.munmap.err);
		break;
	case KT_REC_FORK:
		kt_bb_le32(b, (uint32_t)r->u.fork.parent_pid);
		kt_bb_le32(b, (uint32_t)r->u.fork.child_pid);
		break;
	case KT_REC_EXEC:
		str(b, r->u.exec.path);
		u16(b, (uint16_t)r->u.exec.argv_len);
		kt_bb_bytes(b, r->u.exec.argv, (uint16_t)r->u.exec.argv_len);
		break;
	case KT_REC_THREAD_NAME:
		str(b, r->u.thread_name.name);
		break;
	case KT_REC_TOPOLOGY:
		kt_bb_u8(b, (uint8_t)(t->nfiles > 5 ? 5 : t->nfiles));
		for (unsigned int i = 0; i < t->nfiles && i < 5; i++) {
			uint16_t len = (uint16_t)(t->files[i].len > 4096 ? 4096 : t->files[i].len);

			str(b, t->files[i].path);
			u16(b, len);
			kt_bb_bytes(b, t->files[i].data, len);
		}
		break;
	case KT_REC_ANNOTATION:
		str(b, r->u.annotation.text);
		break;
	case KT_REC_API_CALL:
		str(b, r->u.api.name);
		str(b, r->u.api.args);
		kt_bb_le32(b, (uint32_t)r->u.api.status);
		kt_bb_le64(b, r->u.api.t_exit);
		kt_bb_le64(b, r->u.api.first_seq);
		kt_bb_le64(b, r->u.api.last_seq);
		break;
	case KT_REC_END:
		kt_bb_le32(b, r->u.end.flags);
		kt_bb_le64(b, r->u.end.records);
		kt_bb_le64(b, r->u.end.lost);
		break;
	}
}

/* The decode target's prefix: start_ns, max_elems, max_bytes, flags. */
static void
decode_prefix(struct kt_bb *b, uint8_t flags)
{
	kt_bb_le64(b, 1000);
	kt_bb_u8(b, 0);
	kt_bb_u8(b, 0);
	kt_bb_u8(b, flags);
}

/* Plausible argument bytes for a row: counts small, pointers set. */
static void
fill_args(const struct kfd_ioctl_desc *d, uint8_t *a, size_t n, int after)
{
	for (size_t i = 0; i < n; i++)
		a[i] = (uint8_t)(i * 7 + 1);
	if (!d->args)
		return;
	for (unsigned int i = 0; i < d->args->nfields; i++) {
		const struct kfd_field *f = &d->args->fields[i];
		uint64_t v;

		switch (f->role) {
		case KFD_ROLE_COUNT:
			v = 2;
			break;
		case KFD_ROLE_PTR:
			v = 0x7ffd00001000ull + i * 0x100;
			break;
		case KFD_ROLE_SIZE:
			v = 4096;
			break;
		case KFD_ROLE_GPU_ID:
			v = 0xab12;
			break;
		case KFD_ROLE_HANDLE:
			v = 0xab1200000000ull + i;
			break;
		case KFD_ROLE_PAD:
			v = 0;
			break;
		default:
			v = after && (f->dir & KFD_DIR_OUT) ? i + 100 : i + 1;
			break;
		}
		kfd_field_set(f, a, n, v);
	}
}

static void
gen_decode(void)
{
	unsigned int count;
	const struct kfd_ioctl_desc *rows = kfd_schema_rows(&count);

	for (unsigned int r = 0; r < count; r++) {
		const struct kfd_ioctl_desc *d = &rows[r];
		uint32_t asz = KFD_ABI_IOC_SIZE(d->request);
		uint8_t *before = calloc(1, asz + 1), *after = calloc(1, asz + 1);
		struct kt_buf_image bufs[4];
		uint8_t bufdata[4][2][512];
		struct kt_record rec;
		unsigned int nb = 0;
		struct kt_bb b = {0};
		char name[128];

		fill_args(d, before, asz, 0);
		fill_args(d, after, asz, 1);
		memset(&rec, 0, sizeof(rec));
		rec.type = KT_REC_IOCTL;
		rec.seq = r + 1;
		rec.tid = 4242;
		rec.ts = 5000 + r;
		rec.u.ioctl.fd = d->file_kind == KFD_FILE_KFD ? 3 : 4;
		rec.u.ioctl.file_kind = d->file_kind;
		rec.u.ioctl.request = d->request;
		rec.u.ioctl.ret = r % 5 ? 0 : -1;
		rec.u.ioctl.err = r % 5 ? 0 : 22;
		rec.u.ioctl.t_exit = rec.ts + 1500;
		rec.u.ioctl.arg_size = asz;
		rec.u.ioctl.arg_before = asz ? before : NULL;
		rec.u.ioctl.arg_after = asz ? after : NULL;
		for (unsigned int i = 0; i < d->nbufs && nb < 4; i++) {
			const struct kfd_indirect *bi = &d->bufs[i];
			size_t lb = 0, la = 0;
			int hb, ha;

			if (bi->len_kind == KFD_LEN_TRAILING)
				continue;
			hb = kfd_indirect_len(d, bi, before, asz, 0, 512, &lb);
			ha = kfd_indirect_len(d, bi, after, asz, 1, 512, &la);
			if (hb == 1 && ha == 1)
				continue;
			for (size_t k = 0; k < 512; k++) {
				bufdata[nb][0][k] = (uint8_t)(k + 1);
				bufdata[nb][1][k] = (uint8_t)(k * 3);
			}
			memset(&bufs[nb], 0, sizeof(bufs[nb]));
			bufs[nb].index = (uint16_t)i;
			bufs[nb].addr = kfd_indirect_ptr(d, bi, before, asz);
			if (hb != 1 && (bi->dir & KFD_DIR_IN)) {
				bufs[nb].before = bufdata[nb][0];
				bufs[nb].len_before = (uint32_t)lb;
			}
			if (ha != 1 && (bi->dir & KFD_DIR_OUT)) {
				bufs[nb].after = bufdata[nb][1];
				bufs[nb].len_after = (uint32_t)la;
			}
			nb++;
		}
		rec.u.ioctl.nbufs = (uint16_t)nb;
		rec.u.ioctl.bufs = nb ? bufs : NULL;
		decode_prefix(&b, r & 3);
		enc_record(&b, &rec);
		snprintf(name, sizeof(name), "ioctl_%s_%s", d->file_kind == KFD_FILE_KFD ? "kfd" : "drm",
			 d->name);
		save(name, b.p, b.len);
		kt_bb_free(&b);
		free(before);
		free(after);
	}

	/* Every other kind, eight records a file, from the trace tests' generator. */
	for (unsigned int f = 0; f < 3; f++) {
		struct kt_bb b = {0};
		char name[64];

		decode_prefix(&b, 3);
		for (unsigned int i = 0; i < 8; i++) {
			struct kt_test_rec g;

			kt_test_gen(&g, f, f * 8 + i);
			enc_record(&b, &g.rec);
		}
		snprintf(name, sizeof(name), "mixed_%u", f);
		save(name, b.p, b.len);
		kt_bb_free(&b);
	}
}

/* ---- topology trees ---- */

static void
file(struct kt_bb *b, const char *path, const char *text)
{
	kt_bb_bytes(b, "@@ ", 3);
	kt_bb_bytes(b, path, strlen(path));
	kt_bb_u8(b, '\n');
	kt_bb_bytes(b, text, strlen(text));
}

/* A node's properties with caches_count cut to @caches. */
static void
node_props(struct kt_bb *b, const char *path, const char *text, unsigned int caches)
{
	const char *p = strstr(text, "caches_count ");
	char head[64];

	if (!p) {
		file(b, path, text);
		return;
	}
	kt_bb_bytes(b, "@@ ", 3);
	kt_bb_bytes(b, path, strlen(path));
	kt_bb_u8(b, '\n');
	kt_bb_bytes(b, text, (size_t)(p - text));
	snprintf(head, sizeof(head), "caches_count %u\n", caches);
	kt_bb_bytes(b, head, strlen(head));
	p = strchr(p, '\n');
	if (p)
		kt_bb_bytes(b, p + 1, strlen(p + 1));
}

static void
gen_topo(void)
{
	unsigned int nnames;
	const char *const *names = ksim_profile_builtin_names(&nnames);
	char text[8192], path[256];

	for (unsigned int pi = 0; pi < nnames; pi++) {
		struct ksim_profile *p = ksim_profile_builtin(names[pi]);
		struct kt_bb b = {0};

		if (!p)
			exit(1);
		snprintf(text, sizeof(text), "%u\n", p->generation_id);
		file(&b, "topology/generation_id", text);
		ksim_format_system_properties(p, text, sizeof(text));
		file(&b, "topology/system_properties", text);
		for (unsigned int n = 0; n < p->n_nodes; n++) {
			const struct ksim_node *node = &p->nodes[n];
			unsigned int caches = node->n_caches < 3 ? node->n_caches : 3;

			snprintf(path, sizeof(path), "topology/nodes/%u/gpu_id", n);
			snprintf(text, sizeof(text), "%u\n", node->gpu_id);
			file(&b, path, text);
			snprintf(path, sizeof(path), "topology/nodes/%u/name", n);
			snprintf(text, sizeof(text), "%s\n", node->name);
			file(&b, path, text);
			snprintf(path, sizeof(path), "topology/nodes/%u/properties", n);
			ksim_format_node_properties(p, n, 0, text, sizeof(text));
			node_props(&b, path, text, caches);
			for (unsigned int i = 0; i < node->n_mem_banks; i++) {
				snprintf(path, sizeof(path), "topology/nodes/%u/mem_banks/%u/properties",
					 n, i);
				ksim_format_mem_bank(p, n, i, text, sizeof(text));
				file(&b, path, text);
			}
			for (unsigned int i = 0; i < caches; i++) {
				snprintf(path, sizeof(path), "topology/nodes/%u/caches/%u/properties",
					 n, i);
				ksim_format_cache(p, n, i, text, sizeof(text));
				file(&b, path, text);
			}
			for (unsigned int i = 0; i < node->n_io_links; i++) {
				snprintf(path, sizeof(path), "topology/nodes/%u/io_links/%u/properties",
					 n, i);
				ksim_format_io_link(p, n, i, 0, 0, text, sizeof(text));
				file(&b, path, text);
			}
			for (unsigned int i = 0; i < node->n_p2p_links; i++) {
				snprintf(path, sizeof(path), "topology/nodes/%u/p2p_links/%u/properties",
					 n, i);
				ksim_format_io_link(p, n, i, 1, 0, text, sizeof(text));
				file(&b, path, text);
			}
		}
		/* The CPU side: names and one CPU's caches. */
		file(&b, "cpuinfo", "processor\t: 0\nmodel name\t: AMD EPYC 7763 64-Core Processor\n"
			 "apicid\t\t: 0\n\nprocessor\t: 1\nmodel name\t: AMD EPYC 7763 64-Core "
			 "Processor\napicid\t\t: 1\n");
		file(&b, "sys/node/node0/cpu0/cache/index0/level", "1\n");
		file(&b, "sys/node/node0/cpu0/cache/index0/type", "Data\n");
		file(&b, "sys/node/node0/cpu0/cache/index0/size", "32K\n");
		file(&b, "sys/node/node0/cpu0/cache/index0/coherency_line_size", "64\n");
		file(&b, "sys/node/node0/cpu0/cache/index0/ways_of_associativity", "8\n");
		file(&b, "sys/node/node0/cpu0/cache/index0/physical_line_partition", "1\n");
		file(&b, "sys/node/node0/cpu0/cache/index0/shared_cpu_map", "00000003\n");
		file(&b, "sys/node/node0/cpu0/cache/index0/shared_cpu_list", "0-1\n");
		file(&b, "sys/node/node0/cpu0/cache/index2/level", "2\n");
		file(&b, "sys/node/node0/cpu0/cache/index2/type", "Unified\n");
		file(&b, "sys/node/node0/cpu0/cache/index2/size", "512K\n");
		file(&b, "sys/node/node0/cpu0/cache/index2/shared_cpu_list", "0\n");
		save(names[pi], b.p, b.len);
		kt_bb_free(&b);
		ksim_profile_free(p);
	}
}

/* ---- profiles ---- */

static void
gen_profile(void)
{
	unsigned int nnames;
	const char *const *names = ksim_profile_builtin_names(&nnames);

	for (unsigned int i = 0; i < nnames; i++) {
		const char *text = ksim_profile_builtin_text(names[i]);
		char name[96];

		snprintf(name, sizeof(name), "%s.profile", names[i]);
		save(name, text, strlen(text));
	}
}

/* ---- replay plans ---- */

struct session {
	struct kt_bb b;
	unsigned int n;
	uint64_t seq, ts;
	uint32_t tid;		/* 0: 4242 */
};

static void
add(struct session *s, struct kt_record *r)
{
	r->seq = ++s->seq;
	r->tid = s->tid ? s->tid : 4242;
	r->ts = s->ts += 1000;
	if (r->type == KT_REC_IOCTL)
		r->u.ioctl.t_exit = r->ts + 500;
	enc_record(&s->b, r);
	s->n++;
}

static void
add_open(struct session *s, const char *path, uint8_t kind, int fd)
{
	struct kt_record r = { .type = KT_REC_OPEN };

	r.u.open.path = path;
	r.u.open.flags = 02000002;
	r.u.open.file_kind = kind;
	r.u.open.ret = fd;
	add(s, &r);
}

static void
add_ioctl(struct session *s, int fd, uint32_t req, void *before, void *after,
	  struct kt_buf_image *bufs, uint16_t nbufs)
{
	struct kt_record r = { .type = KT_REC_IOCTL };

	r.u.ioctl.fd = fd;
	r.u.ioctl.file_kind = fd == 3 ? KFD_FILE_KFD : KFD_FILE_RENDER;
	r.u.ioctl.request = req;
	r.u.ioctl.arg_size = KFD_ABI_IOC_SIZE(req);
	r.u.ioctl.arg_before = before;
	r.u.ioctl.arg_after = after;
	r.u.ioctl.nbufs = nbufs;
	r.u.ioctl.bufs = bufs;
	add(s, &r);
}

static void
gen_replay(void)
{
	const uint32_t gpu = 0xab12;
	const uint64_t va = 0x7f0000000000ull, handle = (uint64_t)gpu << 32;
	struct session s = {0};
	struct kt_record r;
	uint32_t ids[1] = { gpu };
	struct kt_buf_image dev_ids = {
		.index = 0, .flags = KT_BUF_BEFORE | KT_BUF_AFTER, .addr = 0x7ffd00002000ull,
		.len_before = 4, .len_after = 4,
		.before = (const uint8_t *)ids, .after = (const uint8_t *)ids,
	};
	struct kfd_abi_get_version_args ver = { 1, 17 };
	struct kfd_abi_acquire_vm_args vm = { .drm_fd = 4, .gpu_id = gpu };
	struct kfd_abi_alloc_memory_of_gpu_args al = {
		.va_addr = va, .size = 2 << 20, .gpu_id = gpu,
		.flags = KFD_ABI_ALLOC_MEM_FLAGS_VRAM | KFD_ABI_ALLOC_MEM_FLAGS_WRITABLE,
	}, al_out = al;
	struct kfd_abi_map_memory_to_gpu_args mp = {
		.handle = handle, .device_ids_array_ptr = 0x7ffd00002000ull, .n_devices = 1,
	}, mp_out = mp;
	struct kfd_abi_create_event_args ev = { .event_type = 0, .auto_reset = 1 }, ev_out = ev;
	struct kfd_abi_destroy_event_args de = { .event_id = 1 };
	struct kfd_abi_free_memory_of_gpu_args fr = { .handle = handle };

	al_out.handle = handle;
	al_out.mmap_offset = 1ull << 32;
	mp_out.n_success = 1;
	ev_out.event_id = 1;
	ev_out.event_slot_index = 1;
	ev_out.event_page_offset = 1ull << 63;

	kt_bb_u8(&s.b, 1 | 17 << 1);	/* simulated, KFD 1.17 */
	kt_bb_u8(&s.b, 13);		/* records below */
	add_open(&s, "/dev/kfd", KFD_FILE_KFD, 3);
	add_open(&s, "/dev/dri/renderD128", KFD_FILE_RENDER, 4);
	add_ioctl(&s, 3, KFD_ABI_IOC_GET_VERSION, NULL, &ver, NULL, 0);
	add_ioctl(&s, 3, KFD_ABI_IOC_ACQUIRE_VM, &vm, &vm, NULL, 0);
	add_ioctl(&s, 3, KFD_ABI_IOC_ALLOC_MEMORY_OF_GPU, &al, &al_out, NULL, 0);
	add_ioctl(&s, 3, KFD_ABI_IOC_MAP_MEMORY_TO_GPU, &mp, &mp_out, &dev_ids, 1);
	memset(&r, 0, sizeof(r));
	r.type = KT_REC_MMAP;
	r.u.mmap.addr = va;
	r.u.mmap.len = 2 << 20;
	r.u.mmap.prot = 3;
	r.u.mmap.flags = 0x11;
	r.u.mmap.fd = 4;
	r.u.mmap.file_kind = KFD_FILE_RENDER;
	r.u.mmap.offset = 1ull << 32;
	r.u.mmap.result = va;
	add(&s, &r);
	add_ioctl(&s, 3, KFD_ABI_IOC_CREATE_EVENT, &ev, &ev_out, NULL, 0);
	add_ioctl(&s, 3, KFD_ABI_IOC_DESTROY_EVENT, &de, &de, NULL, 0);
	mp_out.n_success = 1;
	add_ioctl(&s, 3, KFD_ABI_IOC_UNMAP_MEMORY_FROM_GPU, &mp, &mp_out, &dev_ids, 1);
	add_ioctl(&s, 3, KFD_ABI_IOC_FREE_MEMORY_OF_GPU, &fr, &fr, NULL, 0);
	memset(&r, 0, sizeof(r));
	r.type = KT_REC_CLOSE;
	r.u.close.fd = 4;
	add(&s, &r);
	memset(&r, 0, sizeof(r));
	r.type = KT_REC_CLOSE;
	r.u.close.fd = 3;
	add(&s, &r);
	if (s.n != 13)
		exit(1);
	save("session", s.b.p, s.b.len);
	kt_bb_free(&s.b);

	/* The planner's threads: one open, then a call on each of 63. */
	memset(&s, 0, sizeof(s));
	kt_bb_u8(&s.b, 1 | 17 << 1);
	kt_bb_u8(&s.b, 64);
	add_open(&s, "/dev/kfd", KFD_FILE_KFD, 3);
	for (uint32_t t = 0; t < 63; t++) {
		s.tid = 5000 + t;
		add_ioctl(&s, 3, KFD_ABI_IOC_GET_VERSION, NULL, &ver, NULL, 0);
	}
	save("many_threads", s.b.p, s.b.len);
	kt_bb_free(&s.b);

	/* Generated records of every kind, and a rocminfo-like ioctl stream. */
	for (unsigned int f = 0; f < 2; f++) {
		struct kt_bb b = {0};

		kt_bb_u8(&b, 17 << 1);
		kt_bb_u8(&b, 24);
		for (unsigned int i = 0; i < 24; i++) {
			struct kt_test_rec g;

			if (f)
				kt_test_gen_rocm(&g, i);
			else
				kt_test_gen(&g, 0, i);
			g.rec.seq = i + 1;
			enc_record(&b, &g.rec);
		}
		save(f ? "rocm_stream" : "mixed", b.p, b.len);
		kt_bb_free(&b);
	}
}

/* ---- emit-c ---- */

/* What emit-c must keep inside comments and literals. */
static const char emit_bad[] = "*/\n\x1b[31m\"\\?\?/\xff\xfe\xc3(/*?\?=\x01";

/* The header strings and file name (emit_c_fuzz.c's layout). */
static void
emit_head(struct kt_bb *b, const char *exe)
{
	kt_bb_u8(b, 1);
	str(b, exe);
	str(b, emit_bad);
	str(b, emit_bad + 2);
	str(b, emit_bad + 1);
}

static void
gen_emit(void)
{
	static const char ctor[] = "*/ __attribute__((constructor)) static void "
				   "p(void) { system(\"touch /tmp/x\"); } /*";
	struct kfd_abi_get_version_args ver = { 1, 14 };
	struct session s = {0};
	struct kt_record r;
	char *argv = malloc(32768);
	size_t i;

	if (!argv)
		exit(1);
	emit_head(&s.b, ctor);
	kt_bb_u8(&s.b, 7);
	add_open(&s, "/dev/kfd", KFD_FILE_KFD, 3);
	add_open(&s, "/dev/dri/renderD128*/\"\\?\?/\x1b\n", KFD_FILE_RENDER, 4);
	add_open(&s, emit_bad, KFD_FILE_UNKNOWN, 5);
	add_ioctl(&s, 3, KFD_ABI_IOC_GET_VERSION, NULL, &ver, NULL, 0);
	memset(&r, 0, sizeof(r));
	r.type = KT_REC_EXEC;
	r.u.exec.path = emit_bad;
	r.u.exec.argv = ctor;
	r.u.exec.argv_len = sizeof(ctor);
	add(&s, &r);
	memset(&r, 0, sizeof(r));
	r.type = KT_REC_THREAD_NAME;
	r.u.thread_name.name = emit_bad;
	add(&s, &r);
	memset(&r, 0, sizeof(r));
	r.type = KT_REC_ANNOTATION;
	r.u.annotation.text = ctor;
	add(&s, &r);
	save("hostile", s.b.p, s.b.len);
	kt_bb_free(&s.b);

	/* An argv bomb: the hostile text over and over, NUL-separated. */
	for (i = 0; i < 32768; i++)
		argv[i] = i % 97 == 96 ? '\0' : emit_bad[i % (sizeof(emit_bad) - 1)];
	memset(&s, 0, sizeof(s));
	emit_head(&s.b, "bomb");
	kt_bb_u8(&s.b, 9);
	add_open(&s, "/dev/kfd", KFD_FILE_KFD, 3);
	for (i = 0; i < 8; i++) {
		memset(&r, 0, sizeof(r));
		r.type = KT_REC_EXEC;
		r.u.exec.path = "/bin/sh";
		r.u.exec.argv = argv;
		r.u.exec.argv_len = 32768;
		add(&s, &r);
	}
	save("argv_bomb", s.b.p, s.b.len);
	kt_bb_free(&s.b);
	free(argv);
}

int
main(int argc, char **argv)
{
	if (argc != 3) {
		fprintf(stderr, "usage: gen_fuzz_corpus decode|topo_sysfs|profile|replay_plan|emit_c DIR\n");
		return 2;
	}
	dir = argv[2];
	if (!strcmp(argv[1], "decode"))
		gen_decode();
	else if (!strcmp(argv[1], "topo_sysfs"))
		gen_topo();
	else if (!strcmp(argv[1], "profile"))
		gen_profile();
	else if (!strcmp(argv[1], "replay_plan"))
		gen_replay();
	else if (!strcmp(argv[1], "emit_c"))
		gen_emit();
	else
		return 2;
	return 0;
}

/* SPDX-License-Identifier: MIT */
/* Trace records built from fuzz input (fuzz_record.h). */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "kfdtrace/schema.h"

#include <kfdtrace/kfd_abi.h>

#include "fuzz_record.h"

/* A record type, with ioctls half of the time. */
static uint16_t
pick_type(uint8_t sel)
{
	if (sel < 128)
		return KT_REC_IOCTL;
	sel -= 128;
	if (sel < 120)
		return (uint16_t)(KT_REC_OPEN + sel % (KT_REC_TYPE_MAX - KT_REC_OPEN));
	return (uint16_t)(KT_REC_TYPE_MAX + sel);	/* unknown to this decoder */
}

static uint32_t
pick_request(struct fz *f, uint8_t sel, uint8_t *kind)
{
	unsigned int count;
	const struct kfd_ioctl_desc *rows = kfd_schema_rows(&count), *row;
	uint32_t req;

	if (!(sel & 1) || !count) {
		req = fz_u32(f);
		*kind = fz_u8(f) % (KFD_FILE_KIND_COUNT + 1);
		return req;
	}
	row = &rows[fz_u16(f) % count];
	req = row->request;
	*kind = row->file_kind;
	if ((sel & 2) && row->nvariants)
		req = row->variants[fz_u8(f) % row->nvariants].request;
	if (sel & 4)
		req = (uint32_t)KFD_ABI_IOC_WITH_SIZE(req, fz_u16(f));
	if (sel & 8)
		*kind = fz_u8(f) % (KFD_FILE_KIND_COUNT + 1);
	return req;
}

/* A length: mostly small, sometimes anything. */
static uint32_t
pick_len(struct fz *f, bool present)
{
	uint16_t v = fz_u16(f);

	if (present)
		return v % 4097;
	return v & 0x8000 ? fz_u32(f) : v;
}

static void
build_ioctl(struct fz *f, struct kt_ioctl_rec *io)
{
	uint8_t sel = fz_u8(f), af, rk, kind;
	struct kt_buf_image *bufs;
	unsigned int nbufs;

	io->request = pick_request(f, sel, &kind);
	io->file_kind = kind;
	io->fd = (int32_t)fz_u32(f);
	rk = fz_u8(f);
	/* Mostly 0 or -1 as system calls return; sometimes anything. */
	io->ret = rk < 96 ? 0 : rk < 192 ? -1 : (int64_t)fz_u64(f);
	io->err = (int32_t)(rk & 1 ? fz_u32(f) : fz_u8(f));
	io->t_exit = fz_u64(f);
	io->arg_size = sel & 16 ? KFD_ABI_IOC_SIZE(io->request) : fz_u16(f) % (KT_MAX_ARG_SIZE + 1);
	af = fz_u8(f);
	io->arg_before = af & 1 ? fz_bytes(f, io->arg_size) : NULL;
	io->arg_after = af & 2 ? fz_bytes(f, io->arg_size) : NULL;

	nbufs = fz_u8(f);
	nbufs = nbufs < 250 ? nbufs % 5 : KT_MAX_BUFS;
	bufs = fz_keep(f, calloc(nbufs ? nbufs : 1, sizeof(*bufs)));
	if (!bufs)
		nbufs = 0;
	for (unsigned int i = 0; i < nbufs; i++) {
		struct kt_buf_image *b = &bufs[i];
		uint8_t idx = fz_u8(f);

		/* Mostly a plausible index into the schema row's buffers. */
		b->index = idx < 200 ? idx % 4 : (uint16_t)(idx << 8 | fz_u8(f));
		b->flags = fz_u8(f);
		b->addr = fz_u64(f);
		b->len_before = pick_len(f, b->flags & KT_BUF_BEFORE);
		b->len_after = pick_len(f, b->flags & KT_BUF_AFTER);
		if (b->flags & KT_BUF_BEFORE)
			b->before = fz_bytes(f, b->len_before);
		if (b->flags & KT_BUF_AFTER)
			b->after = fz_bytes(f, b->len_after);
	}
	io->nbufs = (uint16_t)nbufs;
	io->bufs = nbufs ? bufs : NULL;
}

static void
build_other(struct fz *f, struct kt_record *r)
{
	switch (r->type) {
	case KT_REC_OPEN:
		r->u.open.path = fz_str(f, KT_MAX_PATH);
		r->u.open.flags = (int32_t)fz_u32(f);
		r->u.open.mode = fz_u32(f);
		r->u.open.file_kind = fz_u8(f);
		r->u.open.rdev = fz_u64(f);
		r->u.open.ret = (int64_t)fz_u64(f);
		r->u.open.err = (int32_t)fz_u32(f);
		break;
	case KT_REC_CLOSE:
		r->u.close.fd = (int32_t)fz_u32(f);
		r->u.close.ret = (int64_t)fz_u64(f);
		r->u.close.err = (int32_t)fz_u32(f);
		break;
	case KT_REC_DUP:
		r->u.dup.kind = fz_u8(f);
		r->u.dup.oldfd = (int32_t)fz_u32(f);
		r->u.dup.newfd = (int32_t)fz_u32(f);
		r->u.dup.flags = (int32_t)fz_u32(f);
		r->u.dup.ret = (int64_t)fz_u64(f);
		r->u.dup.err = (int32_t)fz_u32(f);
		break;
	case KT_REC_MMAP:
		r->u.mmap.addr = fz_u64(f);
		r->u.mmap.len = fz_u64(f);
		r->u.mmap.prot = (int32_t)fz_u32(f);
		r->u.mmap.flags = (int32_t)fz_u32(f);
		r->u.mmap.fd = (int32_t)fz_u32(f);
		r->u.mmap.file_kind = fz_u8(f);
		r->u.mmap.offset = fz_u64(f);
		r->u.mmap.result = fz_u64(f);
		r->u.mmap.err = (int32_t)fz_u32(f);
		break;
	case KT_REC_MUNMAP:
		r->u.munmap.addr = fz_u64(f);
		r->u.munmap.len = fz_u64(f);
		r->u.munmap.ret = (int64_t)fz_u64(f);
		r->u.munmap.err = (int32_t)fz_u32(f);
		break;
	case KT_REC_FORK:
		r->u.fork.parent_pid = (int32_t)fz_u32(f);
		r->u.fork.child_pid = (int32_t)fz_u32(f);
		break;
	case KT_REC_EXEC:
		r->u.exec.path = fz_str(f, KT_MAX_PATH);
		r->u.exec.argv_len = fz_u16(f);
		r->u.exec.argv = (const char *)fz_bytes(f, r->u.exec.argv_len);
		if (!r->u.exec.argv)
			r->u.exec.argv_len = 0;
		break;
	case KT_REC_THREAD_NAME:
		r->u.thread_name.name = fz_str(f, KT_MAX_NAME);
		break;
	case KT_REC_TOPOLOGY: {
		unsigned int n = fz_u8(f) % 6;
		struct kt_topo_file *files = fz_keep(f, calloc(n ? n : 1, sizeof(*files)));

		if (!files)
			n = 0;
		for (unsigned int i = 0; i < n; i++) {
			files[i].path = fz_str(f, KT_MAX_PATH);
			files[i].len = fz_u16(f) % 4097;
			files[i].data = fz_bytes(f, files[i].len);
			if (!files[i].data)
				files[i].len = 0;
		}
		r->u.topology.nfiles = n;
		r->u.topology.files = n ? files : NULL;
		break;
	}
	case KT_REC_ANNOTATION:
		r->u.annotation.text = fz_str(f, KT_MAX_TEXT);
		break;
	case KT_REC_API_CALL:
		r->u.api.name = fz_str(f, KT_MAX_NAME);
		r->u.api.args = fz_str(f, KT_MAX_TEXT);
		r->u.api.status = (int32_t)fz_u32(f);
		r->u.api.t_exit = fz_u64(f);
		r->u.api.first_seq = fz_u64(f);
		r->u.api.last_seq = fz_u64(f);
		break;
	case KT_REC_FD_TRANSFER: {
		struct kt_xfer_fd *fds;
		unsigned int n = fz_u8(f);

		r->u.xfer.dir = fz_u8(f);
		r->u.xfer.flags = fz_u8(f);
		r->u.xfer.sock = (int32_t)fz_u32(f);
		r->u.xfer.ret = (int64_t)fz_u64(f);
		r->u.xfer.err = (int32_t)fz_u32(f);
		r->u.xfer.t_exit = fz_u64(f);
		r->u.xfer.ino = fz_u64(f);
		r->u.xfer.peer_ino = fz_u64(f);
		r->u.xfer.peer_pid = (int32_t)fz_u32(f);
		r->u.xfer.name = fz_str(f, KT_MAX_SOCK_NAME);
		r->u.xfer.peer_name = fz_str(f, KT_MAX_SOCK_NAME);
		r->u.xfer.nfds_total = fz_u32(f);
		/* Mostly a few; sometimes the bound. */
		n = n < 250 ? n % 6 : KT_MAX_XFER_FDS;
		fds = fz_keep(f, calloc(n ? n : 1, sizeof(*fds)));
		if (!fds)
			n = 0;
		for (unsigned int i = 0; i < n; i++) {
			fds[i].fd = (int32_t)fz_u32(f);
			fds[i].kind = fz_u8(f);
		}
		r->u.xfer.nfds = (uint16_t)n;
		r->u.xfer.fds = n ? fds : NULL;
		break;
	}
	case KT_REC_END:
		r->u.end.flags = fz_u32(f);
		r->u.end.records = fz_u64(f);
		r->u.end.lost = fz_u64(f);
		break;
	default:
		break;
	}
}

void
fz_record(struct fz *f, struct kt_record *rec)
{
	memset(rec, 0, sizeof(*rec));
	rec->type = pick_type(fz_u8(f));
	rec->seq = fz_u64(f);
	rec->tid = fz_u32(f);
	rec->ts = fz_u64(f);
	if (rec->type == KT_REC_IOCTL)
		build_ioctl(f, &rec->u.ioctl);
	else
		build_other(f, rec);
}

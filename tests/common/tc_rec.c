/* SPDX-License-Identifier: MIT */
/*
 * Trace records built from their parts (tc_rec.h).
 */
#include <fcntl.h>
#include <string.h>

#include "tc_rec.h"

struct kt_record
tc_rec_ioctl(int fd, uint8_t file_kind, uint32_t request, const void *before,
	     const void *after, uint32_t size, int64_t ret, int32_t err)
{
	struct kt_record r;

	memset(&r, 0, sizeof(r));
	r.type = KT_REC_IOCTL;
	r.u.ioctl.fd = fd;
	r.u.ioctl.file_kind = file_kind;
	r.u.ioctl.request = request;
	r.u.ioctl.ret = ret;
	r.u.ioctl.err = err;
	r.u.ioctl.arg_size = size;
	r.u.ioctl.arg_before = before;
	r.u.ioctl.arg_after = after;
	return r;
}

struct kt_record
tc_rec_open(const char *path, uint8_t file_kind, int fd)
{
	struct kt_record r;

	memset(&r, 0, sizeof(r));
	r.type = KT_REC_OPEN;
	r.u.open.path = path;
	r.u.open.flags = O_RDWR | O_CLOEXEC;
	r.u.open.file_kind = file_kind;
	r.u.open.ret = fd;
	return r;
}

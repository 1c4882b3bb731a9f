/* SPDX-License-Identifier: MIT */
/* Names of errors and record types. */
#include <string.h>

#include "trace_internal.h"

const char *
kt_strerror(int err)
{
	const char *s;

	switch (-err) {
	case 0:
		return "success";
	case KT_ETRUNC:
		return "truncated trace (the file ends early)";
	case KT_ECORRUPT:
		return "corrupt trace";
	case KT_EVERSION:
		return "trace format version not supported";
	case KT_ETOOBIG:
		return "length beyond the trace format's bounds";
	case KT_ENOTTRACE:
		return "not a kfdtrace file";
	}
	if (err >= 0)
		return "unknown error";
	/* strerrordesc_np() is thread-safe, unlike strerror(). */
	s = strerrordesc_np(-err);
	return s ? s : "unknown error";
}

static const char *const kt_rec_names[KT_REC_TYPE_MAX] = {
	[KT_REC_IOCTL] = "ioctl",
	[KT_REC_OPEN] = "open",
	[KT_REC_CLOSE] = "close",
	[KT_REC_DUP] = "dup",
	[KT_REC_MMAP] = "mmap",
	[KT_REC_MUNMAP] = "munmap",
	[KT_REC_FORK] = "fork",
	[KT_REC_EXEC] = "exec",
	[KT_REC_THREAD_NAME] = "thread_name",
	[KT_REC_TOPOLOGY] = "topology",
	[KT_REC_ANNOTATION] = "annotation",
	[KT_REC_API_CALL] = "api_call",
	[KT_REC_END] = "end",
	[KT_REC_SUBMIT] = "submit",
	[KT_REC_MEMORY] = "memory",
	[KT_REC_FD_TRANSFER] = "fd_transfer",
};

const char *
kt_rec_type_name(unsigned int type)
{
	return type < KT_REC_TYPE_MAX ? kt_rec_names[type] : NULL;
}

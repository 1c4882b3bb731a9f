/* SPDX-License-Identifier: MIT */
/*
 * Names of values that are not in the ioctl schema: errno, open/mmap flags,
 * HSAKMT_STATUS codes and gfx target names.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>

#include <kfdtrace/common/errnames.h>

#include "decode_priv.h"

/* The one errno table is the common library's. */
const char *
kfd_errno_name(int err)
{
	return kc_errno_name(err);
}

const char *
kfd_errno_desc(int err)
{
	return kc_errno_desc(err);
}

/* Open flags other than the access mode, in the order strace prints them. */
static const struct kfd_name open_flag_names[] = {
	{ O_CREAT, "O_CREAT" },
	{ O_EXCL, "O_EXCL" },
	{ O_NOCTTY, "O_NOCTTY" },
	{ O_TRUNC, "O_TRUNC" },
	{ O_APPEND, "O_APPEND" },
	{ O_NONBLOCK, "O_NONBLOCK" },
	/* O_SYNC includes the O_DSYNC bit: test it first. */
	{ O_SYNC, "O_SYNC" },
	{ O_DSYNC, "O_DSYNC" },
	{ O_ASYNC, "O_ASYNC" },
	{ O_DIRECT, "O_DIRECT" },
	{ O_LARGEFILE, "O_LARGEFILE" },
	/* O_TMPFILE includes O_DIRECTORY. */
	{ O_TMPFILE, "O_TMPFILE" },
	{ O_DIRECTORY, "O_DIRECTORY" },
	{ O_NOFOLLOW, "O_NOFOLLOW" },
	{ O_NOATIME, "O_NOATIME" },
	{ O_CLOEXEC, "O_CLOEXEC" },
	{ O_PATH, "O_PATH" },
};

static const struct kfd_name prot_names[] = {
	{ PROT_READ, "PROT_READ" },
	{ PROT_WRITE, "PROT_WRITE" },
	{ PROT_EXEC, "PROT_EXEC" },
	{ PROT_GROWSDOWN, "PROT_GROWSDOWN" },
	{ PROT_GROWSUP, "PROT_GROWSUP" },
};

static const struct kfd_name map_flag_names[] = {
	{ MAP_FIXED, "MAP_FIXED" },
	{ MAP_ANONYMOUS, "MAP_ANONYMOUS" },
	{ MAP_32BIT, "MAP_32BIT" },
	{ MAP_GROWSDOWN, "MAP_GROWSDOWN" },
	{ MAP_DENYWRITE, "MAP_DENYWRITE" },
	{ MAP_EXECUTABLE, "MAP_EXECUTABLE" },
	{ MAP_LOCKED, "MAP_LOCKED" },
	{ MAP_NORESERVE, "MAP_NORESERVE" },
	{ MAP_POPULATE, "MAP_POPULATE" },
	{ MAP_NONBLOCK, "MAP_NONBLOCK" },
	{ MAP_STACK, "MAP_STACK" },
	{ MAP_HUGETLB, "MAP_HUGETLB" },
	{ MAP_SYNC, "MAP_SYNC" },
	{ MAP_FIXED_NOREPLACE, "MAP_FIXED_NOREPLACE" },
};

const struct kfd_name_table dec_open_flags = {
	"open_flags", open_flag_names,
	sizeof(open_flag_names) / sizeof(open_flag_names[0]),
};

const struct kfd_name_table dec_prot_flags = {
	"prot", prot_names, sizeof(prot_names) / sizeof(prot_names[0]),
};

const struct kfd_name_table dec_map_flags = {
	"map_flags", map_flag_names,
	sizeof(map_flag_names) / sizeof(map_flag_names[0]),
};

const char *
dec_open_accmode(int flags)
{
	switch (flags & O_ACCMODE) {
	case O_RDONLY:
		return "O_RDONLY";
	case O_WRONLY:
		return "O_WRONLY";
	case O_RDWR:
		return "O_RDWR";
	default:
		return "O_ACCMODE";
	}
}

const char *
dec_map_type(int flags)
{
	switch (flags & MAP_TYPE) {
	case MAP_SHARED:
		return "MAP_SHARED";
	case MAP_PRIVATE:
		return "MAP_PRIVATE";
	case MAP_SHARED_VALIDATE:
		return "MAP_SHARED_VALIDATE";
	default:
		return NULL;
	}
}

/* HSAKMT_STATUS values of the thunk API (hsakmttypes.h). */
static const struct kfd_name hsakmt_status_names[] = {
	{ 0, "SUCCESS" },
	{ 1, "ERROR" },
	{ 2, "DRIVER_MISMATCH" },
	{ 3, "INVALID_PARAMETER" },
	{ 4, "INVALID_HANDLE" },
	{ 5, "INVALID_NODE_UNIT" },
	{ 6, "NO_MEMORY" },
	{ 7, "BUFFER_TOO_SMALL" },
	{ 10, "NOT_IMPLEMENTED" },
	{ 11, "NOT_SUPPORTED" },
	{ 12, "UNAVAILABLE" },
	{ 13, "OUT_OF_RESOURCES" },
	{ 20, "KERNEL_IO_CHANNEL_NOT_OPENED" },
	{ 21, "KERNEL_COMMUNICATION_ERROR" },
	{ 22, "KERNEL_ALREADY_OPENED" },
	{ 23, "HSAMMU_UNAVAILABLE" },
	{ 30, "WAIT_FAILURE" },
	{ 31, "WAIT_TIMEOUT" },
	{ 35, "MEMORY_ALREADY_REGISTERED" },
	{ 36, "MEMORY_NOT_REGISTERED" },
	{ 37, "MEMORY_ALIGNMENT" },
};

const char *
dec_hsakmt_status_name(int32_t status)
{
	size_t i;

	for (i = 0; i < sizeof(hsakmt_status_names) /
			sizeof(hsakmt_status_names[0]); i++)
		if (hsakmt_status_names[i].value == (uint64_t)(int64_t)status)
			return hsakmt_status_names[i].name;
	return NULL;
}

char *
kfd_gfx_target_name(uint32_t version, char *buf, size_t size)
{
	unsigned int major = version / 10000;
	unsigned int minor = version / 100 % 100;
	unsigned int step = version % 100;

	if (!size)
		return buf;
	/* Minor and stepping print as one hex digit each: 90010 is gfx90a. */
	if (minor < 16 && step < 16)
		snprintf(buf, size, "gfx%u%x%x", major, minor, step);
	else
		snprintf(buf, size, "gfx%u.%u.%u", major, minor, step);
	return buf;
}

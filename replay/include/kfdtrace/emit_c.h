/* SPDX-License-Identifier: MIT */
/*
 * A capture as a standalone C program (`kfdtrace emit-c`, docs/emit-c.md).
 *
 * The program needs libc only: it holds its own definitions of the KFD and
 * amdgpu argument structs (from the schema), opens /dev/kfd and the render
 * nodes, reissues every call of the capture with the captured arguments,
 * takes the values the kernel chose (handles, ids, offsets, fds) from
 * earlier results the way the replayer maps them, performs the mmaps and
 * munmaps, fills indirect buffers, and checks every result: it prints the
 * first difference (record number, call, field) and exits 1, or exits 0
 * when everything matches, a captured failure included. Calls of several
 * captured threads run on threads of their own, one at a time, in the
 * order the replay issues them.
 */
#ifndef KFDTRACE_EMIT_C_H
#define KFDTRACE_EMIT_C_H

#include <stddef.h>
#include <stdint.h>

struct kfd_emit_result {
	uint64_t records;	/* records read */
	uint64_t calls;		/* calls the program makes (ioctls, opens, ...) */
	uint64_t ioctls;	/* of them ioctls */
	uint64_t skipped;	/* calls left out, each with a comment saying why */
	uint64_t stand_ins;	/* SET_EVENTs standing in for the GPU */
	uint32_t threads;	/* captured threads, each a thread of the program */
	uint64_t fd_transfers;	/* fd_transfer records: fds passed to or from
				 * another process, which a one-process
				 * program cannot pass (of skipped) */
};

/*
 * kfd_emit_c() - write the program for trace @in to @out (created or
 * replaced).
 * @res:	what was written (may be NULL)
 * @err:	a message when it fails (may be NULL)
 *
 * Return: 0, or a negative error: the reader's (-KT_E*, with the offset in
 * @err) for a damaged trace, -errno for an unwritable @out.
 */
int kfd_emit_c(const char *in, const char *out, struct kfd_emit_result *res,
	       char *err, size_t errlen);

#endif

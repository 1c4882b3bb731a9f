/* SPDX-License-Identifier: MIT */
/*
 * Trace records built from fuzz input, shaped the way the trace reader
 * hands them out (trace.h): an argument image is NULL or arg_size bytes,
 * a buffer image is present exactly when its flag says so and then holds
 * its stated length, strings are NUL-terminated, exec argv is raw bytes.
 * Everything else is the input's choice: the record type (unknown ones
 * too), the request (a schema row's, one of its size variants, with its
 * size bits changed, or any 32-bit value), file kind, arg_size unrelated
 * to the request, buffer indexes past the schema row's, hostile lengths
 * of absent images.
 *
 * Layout (little-endian; what runs out reads as zero):
 *   u8 type selector (< 128: ioctl; else 128 + type - KT_REC_OPEN, or an
 *   unknown type from 248 on), u64 seq, u32 tid, u64 ts, then
 *   ioctl: u8 sel; sel&1: u16 schema row, [sel&2: u8 size variant],
 *     [sel&4: u16 new size bits], [sel&8: u8 file kind]; else u32 request,
 *     u8 file kind. s32 fd; u8 result kind (< 96: 0, < 192: -1, else a
 *     u64 follows) and the errno (u8, or u32 when the kind is odd); u64
 *     t_exit; unless sel&16 (then _IOC_SIZE), u16 arg_size; u8 image flags
 *     (1 before, 2 after) and the images; u8 buffer count (< 250: n % 5,
 *     else 64); per buffer u8 index (< 200: n % 4, else a second byte),
 *     u8 flags, u64 addr, two lengths (u16, < 4097 when present; absent:
 *     u16, with a u32 after when its top bit is set) and the images.
 *   others: their fields in trace.h order; strings NUL-terminated; exec
 *   argv u16 length + bytes; topology u8 file count (% 6), per file path,
 *   u16 length (% 4097), bytes.
 */
#ifndef KT_FUZZ_RECORD_H
#define KT_FUZZ_RECORD_H

#include "kfdtrace/trace.h"

#include "fuzz_input.h"

/*
 * fz_record() - build the next record of @f into @rec. Its images and
 * strings are copies owned by @f (valid until fz_free()).
 */
void fz_record(struct fz *f, struct kt_record *rec);

#endif /* KT_FUZZ_RECORD_H */

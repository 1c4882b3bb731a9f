/* SPDX-License-Identifier: MIT */
/*
 * A trace's KFD ABI version: the header's, else the first successful
 * GET_VERSION's result. `kfdtrace info`, the report, the Perfetto export
 * and the babeltrace2 source's environment all ask here, so they agree.
 */
#include <string.h>

#include "decode_priv.h"

int
kt_ioctl_version(const struct kfd_ioctl_desc *desc,
		 const struct kt_ioctl_rec *io, uint32_t *major,
		 uint32_t *minor)
{
	uint64_t maj, min;
	int fmaj, fmin;

	if (!desc)
		desc = kt_ioctl_row(io);
	if (!desc || !desc->args || strcmp(desc->name, "GET_VERSION") ||
	    io->ret != 0 || !io->arg_after)
		return 0;
	fmaj = kfd_schema_field(desc, "major_version");
	fmin = kfd_schema_field(desc, "minor_version");
	if (fmaj < 0 || fmin < 0 ||
	    kfd_field_get(&desc->args->fields[fmaj], io->arg_after,
			  io->arg_size, &maj) ||
	    kfd_field_get(&desc->args->fields[fmin], io->arg_after,
			  io->arg_size, &min))
		return 0;
	*major = (uint32_t)maj;
	*minor = (uint32_t)min;
	return 1;
}

int
kt_trace_kfd_abi(const char *path, uint32_t *major, uint32_t *minor,
		 const char **from)
{
	const struct kt_header *h;
	struct kt_record rec;
	struct kt_reader *r;
	int found = 0;

	if (kt_reader_open(path, &r))
		return 0;
	h = kt_reader_header(r);
	if (h->kfd_major || h->kfd_minor) {
		*major = h->kfd_major;
		*minor = h->kfd_minor;
		if (from)
			*from = "header";
		found = 1;
	}
	/* Programs ask first thing: the scan ends at the first few records. */
	while (!found && kt_reader_next(r, &rec) == 1)
		if (rec.type == KT_REC_IOCTL &&
		    kt_ioctl_version(NULL, &rec.u.ioctl, major, minor)) {
			if (from)
				*from = "GET_VERSION";
			found = 1;
		}
	kt_reader_close(r);
	return found;
}

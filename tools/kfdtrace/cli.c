/* SPDX-License-Identifier: MIT */
/*
 * Helpers shared by the kfdtrace commands.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "commands.h"
#include "report_objects.h"

int
cli_open(const char *path, struct kt_reader **out)
{
	const char *why;
	int rc = kt_reader_open_why(path, out, &why);

	if (rc < 0) {
		fprintf(stderr, "kfdtrace: %s: %s%s%s\n", path, kt_strerror(rc),
			why ? ": " : "", why ? why : "");
		return -1;
	}
	return 0;
}

int
cli_finish(const char *path, struct kt_reader *r, int rc)
{
	struct kt_reader_status st;

	kt_reader_get_status(r, &st);
	if (rc == -KT_ETRUNC || st.integrity == KT_INTEGRITY_TRUNCATED) {
		fprintf(stderr,
			"kfdtrace: warning: %s: truncated: recovered %llu records%s%s\n",
			path, (unsigned long long)st.records,
			st.message[0] ? "; " : "", st.message);
		return KFDTRACE_EXIT_ERROR;
	}
	if (rc == -KT_ECORRUPT || st.integrity == KT_INTEGRITY_CORRUPT) {
		fprintf(stderr,
			"kfdtrace: warning: %s: corrupt at byte offset %llu after %llu records%s%s\n",
			path, (unsigned long long)st.corrupt_offset,
			(unsigned long long)st.records,
			st.message[0] ? "; " : "", st.message);
		return KFDTRACE_EXIT_ERROR;
	}
	if (rc < 0) {
		fprintf(stderr, "kfdtrace: %s: %s\n", path, kt_strerror(rc));
		return KFDTRACE_EXIT_ERROR;
	}
	if (st.integrity == KT_INTEGRITY_DAMAGED) {
		fprintf(stderr, "kfdtrace: warning: %s: damaged: %s\n", path,
			st.message);
		return KFDTRACE_EXIT_ERROR;
	}
	if (st.integrity == KT_INTEGRITY_INCOMPLETE) {
		fprintf(stderr, "kfdtrace: warning: %s: incomplete: the writer "
			"lost %llu records; %llu are in the file\n", path,
			(unsigned long long)st.lost,
			(unsigned long long)st.end_records);
		return KFDTRACE_EXIT_ERROR;
	}
	if (st.integrity == KT_INTEGRITY_NO_END)
		fprintf(stderr,
			"kfdtrace: warning: %s: no END record (the writer did not close the trace)\n",
			path);
	return KFDTRACE_EXIT_OK;
}

int
cli_get_version(const struct kfd_ioctl_desc *desc,
		const struct kt_ioctl_rec *io, uint32_t *major, uint32_t *minor)
{
	uint64_t maj, min;

	if (!desc || strcmp(desc->name, "GET_VERSION") || io->ret != 0 ||
	    obj_arg_get(desc, "major_version", io->arg_after, io->arg_size, &maj) ||
	    obj_arg_get(desc, "minor_version", io->arg_after, io->arg_size, &min))
		return 0;
	*major = (uint32_t)maj;
	*minor = (uint32_t)min;
	return 1;
}

int
cli_parse_u64(const char *s, uint64_t *out)
{
	unsigned long long v;
	char *end;

	if (!s || !*s || *s == '-')
		return -1;
	errno = 0;
	v = strtoull(s, &end, 0);
	if (errno || *end)
		return -1;
	*out = v;
	return 0;
}

int
cli_parse_window(const char *s, uint64_t *out)
{
	uint64_t v;

	if (cli_parse_u64(s, &v) || v == 0 || v > CLI_REORDER_WINDOW_MAX)
		return -1;
	*out = v;
	return 0;
}

int
cli_help_requested(int argc, char **argv)
{
	int i;

	for (i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--") == 0)
			return 0;
		if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0)
			return 1;
	}
	return 0;
}

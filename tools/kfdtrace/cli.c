/* SPDX-License-Identifier: MIT */
/*
 * Helpers shared by the kfdtrace commands.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "commands.h"

int
cli_open(const char *path, struct kt_reader **out)
{
	int rc = kt_reader_open(path, out);

	if (rc < 0) {
		fprintf(stderr, "kfdtrace: %s: %s\n", path, kt_strerror(rc));
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
	int fmaj, fmin;
	uint64_t maj, min;

	if (!desc || strcmp(desc->name, "GET_VERSION") || io->ret != 0 ||
	    !desc->args || !io->arg_after)
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

/* ------------------------------------------------------------------ */
/* Deep copies                                                          */

#define ALIGN8(x) (((x) + 7) & ~(size_t)7)

static size_t
str_size(const char *s)
{
	return s ? strlen(s) + 1 : 0;
}

/* Bump allocator over the clone's single block. */
struct carve {
	char *p;
};

static void *
carve_copy(struct carve *c, const void *src, size_t n)
{
	void *dst = c->p;

	if (!src)
		return NULL;
	memcpy(dst, src, n);
	c->p += n;
	return dst;
}

static const char *
carve_str(struct carve *c, const char *s)
{
	return carve_copy(c, s, str_size(s));
}

static size_t
clone_size(const struct kt_record *rec)
{
	size_t sz = 0;
	uint32_t i;

	switch (rec->type) {
	case KT_REC_IOCTL: {
		const struct kt_ioctl_rec *io = &rec->u.ioctl;

		if (io->bufs)
			sz += ALIGN8((size_t)io->nbufs *
				     sizeof(struct kt_buf_image));
		if (io->arg_before)
			sz += io->arg_size;
		if (io->arg_after)
			sz += io->arg_size;
		for (i = 0; io->bufs && i < io->nbufs; i++) {
			if (io->bufs[i].before)
				sz += io->bufs[i].len_before;
			if (io->bufs[i].after)
				sz += io->bufs[i].len_after;
		}
		break;
	}
	case KT_REC_OPEN:
		sz += str_size(rec->u.open.path);
		break;
	case KT_REC_EXEC:
		sz += str_size(rec->u.exec.path);
		if (rec->u.exec.argv)
			sz += rec->u.exec.argv_len;
		break;
	case KT_REC_THREAD_NAME:
		sz += str_size(rec->u.thread_name.name);
		break;
	case KT_REC_TOPOLOGY: {
		const struct kt_topology_rec *t = &rec->u.topology;

		if (t->files)
			sz += ALIGN8((size_t)t->nfiles *
				     sizeof(struct kt_topo_file));
		for (i = 0; t->files && i < t->nfiles; i++) {
			sz += str_size(t->files[i].path);
			if (t->files[i].data)
				sz += t->files[i].len;
		}
		break;
	}
	case KT_REC_ANNOTATION:
		sz += str_size(rec->u.annotation.text);
		break;
	case KT_REC_API_CALL:
		sz += str_size(rec->u.api.name) + str_size(rec->u.api.args);
		break;
	default:
		break;
	}
	return sz;
}

struct kt_record *
cli_record_clone(const struct kt_record *rec)
{
	size_t head = ALIGN8(sizeof(struct kt_record));
	struct kt_record *cp;
	struct carve c;
	uint32_t i;

	cp = malloc(head + clone_size(rec));
	if (!cp)
		return NULL;
	*cp = *rec;
	c.p = (char *)cp + head;

	switch (rec->type) {
	case KT_REC_IOCTL: {
		const struct kt_ioctl_rec *io = &rec->u.ioctl;
		struct kt_buf_image *bufs = NULL;

		if (io->bufs) {
			bufs = (struct kt_buf_image *)c.p;
			memcpy(bufs, io->bufs,
			       (size_t)io->nbufs * sizeof(*bufs));
			c.p += ALIGN8((size_t)io->nbufs * sizeof(*bufs));
		}
		cp->u.ioctl.bufs = bufs;
		cp->u.ioctl.arg_before = carve_copy(&c, io->arg_before,
						    io->arg_size);
		cp->u.ioctl.arg_after = carve_copy(&c, io->arg_after,
						   io->arg_size);
		for (i = 0; bufs && i < io->nbufs; i++) {
			bufs[i].before = carve_copy(&c, io->bufs[i].before,
						    io->bufs[i].len_before);
			bufs[i].after = carve_copy(&c, io->bufs[i].after,
						   io->bufs[i].len_after);
		}
		break;
	}
	case KT_REC_OPEN:
		cp->u.open.path = carve_str(&c, rec->u.open.path);
		break;
	case KT_REC_EXEC:
		cp->u.exec.path = carve_str(&c, rec->u.exec.path);
		cp->u.exec.argv = carve_copy(&c, rec->u.exec.argv,
					     rec->u.exec.argv_len);
		break;
	case KT_REC_THREAD_NAME:
		cp->u.thread_name.name = carve_str(&c,
						   rec->u.thread_name.name);
		break;
	case KT_REC_TOPOLOGY: {
		const struct kt_topology_rec *t = &rec->u.topology;
		struct kt_topo_file *files = NULL;

		if (t->files) {
			files = (struct kt_topo_file *)c.p;
			memcpy(files, t->files,
			       (size_t)t->nfiles * sizeof(*files));
			c.p += ALIGN8((size_t)t->nfiles * sizeof(*files));
		}
		cp->u.topology.files = files;
		for (i = 0; files && i < t->nfiles; i++) {
			files[i].path = carve_str(&c, t->files[i].path);
			files[i].data = carve_copy(&c, t->files[i].data,
						   t->files[i].len);
		}
		break;
	}
	case KT_REC_ANNOTATION:
		cp->u.annotation.text = carve_str(&c, rec->u.annotation.text);
		break;
	case KT_REC_API_CALL:
		cp->u.api.name = carve_str(&c, rec->u.api.name);
		cp->u.api.args = carve_str(&c, rec->u.api.args);
		break;
	default:
		break;
	}
	return cp;
}

/* SPDX-License-Identifier: MIT */
/*
 * kfdtrace record, the summary: each trace of the run read back, with its
 * records, ioctls, failures, size and compression, and the most frequent
 * ioctls.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <kfdtrace/decode.h>
#include <kfdtrace/schema.h>
#include <kfdtrace/trace.h>

#include "core/cli.h"
#include "record/record.h"

/* ---- the summary ---- */

struct kind_count {
	const char *name;
	unsigned long n, failed;
};

static void
count_ioctl(struct kind_count *kc, size_t *nkc, size_t max, const char *name,
	    int failed)
{
	size_t i;

	for (i = 0; i < *nkc; i++)
		if (kc[i].name == name || !strcmp(kc[i].name, name))
			break;
	if (i == *nkc) {
		if (*nkc == max)
			return;
		kc[i].name = name;
		kc[i].n = kc[i].failed = 0;
		(*nkc)++;
	}
	kc[i].n++;
	kc[i].failed += failed;
}

static int
cmp_kind(const void *a, const void *b)
{
	const struct kind_count *x = a, *y = b;

	return x->n < y->n ? 1 : x->n > y->n ? -1 : strcmp(x->name, y->name);
}

static void
human_size(uint64_t n, char *out, size_t size)
{
	if (n < 10 * 1024)
		snprintf(out, size, "%llu B", (unsigned long long)n);
	else if (n < 10 * 1024 * 1024)
		snprintf(out, size, "%.1f KiB", n / 1024.0);
	else
		snprintf(out, size, "%.1f MiB", n / (1024.0 * 1024.0));
}

/*
 * Read a trace back and print what it holds. The raw size is what the
 * records take once decoded (arguments, images, strings): an estimate of
 * the bytes the writer compressed, for the ratio.
 */
void
record_summarize(const char *path, int verbose, const char *no_end)
{
	struct kind_count kc[128];
	size_t nkc = 0;
	struct kt_reader *rd;
	struct kt_reader_status st;
	struct kt_record rec;
	unsigned long records = 0, ioctls = 0, failed = 0;
	uint64_t raw = 0;
	char size[32];
	int ret;

	ret = kt_reader_open(path, &rd);
	if (ret) {
		cli_err("cannot read %s: %s", path,
			kt_strerror(ret));
		return;
	}
	while ((ret = kt_reader_next(rd, &rec)) == 1) {
		records++;
		raw += 24;
		switch (rec.type) {
		case KT_REC_TOPOLOGY:
			for (uint32_t i = 0; i < rec.u.topology.nfiles; i++)
				raw += 8 + rec.u.topology.files[i].len +
				       strlen(rec.u.topology.files[i].path);
			break;
		case KT_REC_OPEN:
			raw += 32 + strlen(rec.u.open.path);
			break;
		case KT_REC_EXEC:
			raw += strlen(rec.u.exec.path) + rec.u.exec.argv_len;
			break;
		case KT_REC_THREAD_NAME:
			raw += strlen(rec.u.thread_name.name);
			break;
		default:
			raw += 32;
			break;
		}
		if (rec.type != KT_REC_IOCTL)
			continue;
		const struct kt_ioctl_rec *io = &rec.u.ioctl;
		const struct kfd_ioctl_desc *d = kt_ioctl_row(io);

		ioctls++;
		failed += io->ret == -1;
		raw += 40 + 2ull * io->arg_size;
		for (unsigned int i = 0; i < io->nbufs; i++)
			raw += 24 + io->bufs[i].len_before + io->bufs[i].len_after;
		count_ioctl(kc, &nkc, sizeof(kc) / sizeof(kc[0]),
			    d ? d->name : "unknown", io->ret == -1);
	}
	kt_reader_get_status(rd, &st);
	kt_reader_close(rd);

	human_size(st.file_size, size, sizeof(size));
	fprintf(stderr, "%s: %s: %lu records, %lu ioctls (%lu failed), ", cli_prefix,
		path, records, ioctls, failed);
	/* --only/--except: what went to the device unrecorded. */
	if (st.left_out)
		fprintf(stderr, "%llu left out, ",
			(unsigned long long)st.left_out);
	fprintf(stderr, "%s", size);
	if (st.file_size)
		fprintf(stderr, ", %.1fx compression", (double)raw / (double)st.file_size);
	fprintf(stderr, "\n");
	if (st.integrity == KT_INTEGRITY_NO_END)
		cli_err("  no END record: %s", no_end);
	else if (st.integrity == KT_INTEGRITY_TRUNCATED)
		cli_err("  truncated: the program died while writing (%s)",
			st.message);
	else if (st.integrity == KT_INTEGRITY_CORRUPT)
		cli_err("  corrupt at offset %llu: %s",
			(unsigned long long)st.corrupt_offset, st.message);
	else if (st.integrity == KT_INTEGRITY_INCOMPLETE)
		cli_warn("%s is incomplete: %llu records "
			"were lost (%s)", path, (unsigned long long)st.lost,
			st.message);
	else if (st.integrity == KT_INTEGRITY_DAMAGED)
		cli_warn("%s is damaged: %s", path,
			st.message);
	if (!verbose || !nkc)
		return;
	qsort(kc, nkc, sizeof(kc[0]), cmp_kind);
	fprintf(stderr, "%s:   ", cli_prefix);
	for (size_t i = 0; i < nkc; i++) {
		fprintf(stderr, "%s%s %lu", i ? ", " : "", kc[i].name, kc[i].n);
		if (kc[i].failed)
			fprintf(stderr, " (%lu failed)", kc[i].failed);
		if (i == 15 && nkc > 16) {
			fprintf(stderr, ", %zu more kinds", nkc - 16);
			break;
		}
	}
	fprintf(stderr, "\n");
}

/* A trace of this run other than the first (@ctx). record_prepare_output()
 * made sure that no earlier run's files are there. */
int
record_summarize_other(const char *path, void *ctx)
{
	if (strcmp(path, ctx))
		record_summarize(path, 0, "the process ended before its "
				 "trace was closed");
	return 0;
}

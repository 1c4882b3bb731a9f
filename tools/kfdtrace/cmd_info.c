/* SPDX-License-Identifier: MIT */
/*
 * kfdtrace info: what a trace holds and whether it is intact.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli.h"
#include "commands.h"
#include "kfdtrace/topology.h"
#include "kfdtrace/decode.h"
#include "kfdtrace/schema.h"

void
kfdtrace_help_info(FILE *out)
{
	fprintf(out,
		"Usage: kfdtrace info FILE\n"
		"\n"
		"Show the trace header (producer, host, process, KFD ABI), a summary\n"
		"of the captured topology (nodes, gpu_ids, names, gfx targets),\n"
		"record counts by type, the time span, and the file's integrity:\n"
		"  ok         a clean END record closes the trace\n"
		"  no-end     every frame is complete but the writer never closed it\n"
		"  truncated  the file ends inside a frame; the recovered count is\n"
		"             the number of records readable before that point\n"
		"  corrupt    bytes that no writer produced, at the byte offset shown\n"
		"\n"
		"Options:\n"
		"  -h, --help  this text\n"
		"\n"
		"Exit status: 0 for ok and no-end, 1 for truncated, corrupt or\n"
		"unreadable files, 2 for bad usage.\n");
}

static void
print_bytes_h(uint64_t b)
{
	static const char *const unit[] = { "B", "KiB", "MiB", "GiB", "TiB" };
	double v = (double)b;
	int u = 0;

	while (v >= 1024 && u < 4) {
		v /= 1024;
		u++;
	}
	if (u == 0)
		printf("%llu B", (unsigned long long)b);
	else
		printf("%.1f %s", v, unit[u]);
}

/* The NUL-separated command line, spaces between arguments. */
static void
print_cmdline(const struct kt_header *h)
{
	uint32_t len = h->cmdline_len < sizeof(h->cmdline) ?
		       h->cmdline_len : sizeof(h->cmdline);
	char buf[1024];
	uint32_t i;

	/* Arguments are NUL-separated; each is escaped on its own. */
	for (i = 0; i < len; i += (uint32_t)strnlen(h->cmdline + i, len - i) + 1) {
		if (i)
			putchar(' ');
		fputs(kfd_text_safe(buf, sizeof(buf), h->cmdline + i, len - i),
		      stdout);
	}
}

/* A header string: bounded by its field and escaped (a forged trace must
 * not be able to move the cursor or print a fake line). */
#define HSTR(buf, field) kfd_text_safe(buf, sizeof(buf), field, sizeof(field))

static void
print_topology(const struct kt_topo *s)
{
	unsigned int i;
	char gfx[16], name[256];

	printf("topology:   %u nodes, %u GPUs (%u files, %llu bytes)\n",
	       s->nnodes, s->ngpus, s->files, (unsigned long long)s->bytes);
	for (i = 0; i < s->nnodes; i++) {
		const struct kt_topo_node *n = &s->nodes[i];

		if (!n->present)
			continue;
		if (!n->gpu_id) {
			printf("  node %u: CPU, %" PRIu64 " cores", i,
			       n->cpu_cores);
			if (n->sys_bytes) {
				printf(", ");
				print_bytes_h(n->sys_bytes);
				printf(" RAM");
			}
			printf("\n");
			continue;
		}
		printf("  node %u: gpu_id 0x%x", i, n->gpu_id);
		if (n->name[0])
			printf(" \"%s\"", kfd_text_safe(name, sizeof(name), n->name,
							sizeof(n->name)));
		if (n->gfx_target_version)
			printf(" %s", kfd_gfx_target_name(n->gfx_target_version,
							  gfx, sizeof(gfx)));
		if (n->simd_per_cu)
			printf(", %" PRIu64 " CUs",
			       n->simd_count / n->simd_per_cu);
		if (n->vram_bytes) {
			printf(", ");
			print_bytes_h(n->vram_bytes);
			printf(" VRAM");
		}
		printf("\n");
	}
}

/*
 * The header's KFD ABI, else the one the first successful GET_VERSION
 * returned (@ver, NULL when there was none).
 */
static void
print_abi(const struct kt_header *h, const uint32_t *ver)
{
	if (h->kfd_major || h->kfd_minor)
		printf("kfd abi:    %u.%u\n", h->kfd_major, h->kfd_minor);
	else if (ver)
		printf("kfd abi:    %u.%u (from GET_VERSION)\n", ver[0], ver[1]);
	else
		printf("kfd abi:    unknown\n");
}

static void
print_header(const char *path, const struct kt_header *h, const uint32_t *ver)
{
	char when[64] = "", b1[1024], b2[1024];
	time_t secs = (time_t)(h->start_realtime / 1000000000ULL);
	struct tm tm;

	if (gmtime_r(&secs, &tm))
		strftime(when, sizeof(when), "%Y-%m-%d %H:%M:%S UTC", &tm);
	printf("file:       %s\n", path);
	printf("format:     %u.%u\n", h->format_major, h->format_minor);
	printf("producer:   %s %s\n", HSTR(b1, h->producer),
	       HSTR(b2, h->producer_version));
	printf("host:       %s, kernel %s\n", HSTR(b1, h->host),
	       HSTR(b2, h->kernel_release));
	printf("process:    pid %d, ppid %d, exe %s\n", h->pid, h->ppid,
	       HSTR(b1, h->exe));
	printf("cmdline:    ");
	print_cmdline(h);
	printf("\n");
	print_abi(h, ver);
	printf("started:    %s\n", when);
	if (h->flags) {
		printf("flags:     ");
		if (h->flags & KT_HDR_NO_BUFFERS)
			printf(" no-buffers");
		if (h->flags & KT_HDR_SIMULATED)
			printf(" simulated");
		if (h->flags & ~(uint32_t)(KT_HDR_NO_BUFFERS | KT_HDR_SIMULATED))
			printf(" 0x%x", h->flags & ~(uint32_t)(KT_HDR_NO_BUFFERS |
							       KT_HDR_SIMULATED));
		printf("\n");
	}
}

int
kfdtrace_cmd_info(int argc, char **argv)
{
	uint64_t counts[KT_REC_TYPE_MAX + 1] = { 0 };
	uint64_t total = 0, unknown_ioctls = 0, first_ts = 0, last_ts = 0;
	struct kt_topo *topo = NULL;
	struct kt_reader_status st;
	const struct kt_header *h;
	struct kt_reader *r;
	struct kt_record rec;
	const char *path;
	uint32_t ver[2];
	unsigned int t;
	int rc, status, have_ver = 0;

	if (cli_help_requested(argc, argv)) {
		kfdtrace_help_info(stdout);
		return KFDTRACE_EXIT_OK;
	}
	if (argc == 2 && argv[1][0] == '-' && argv[1][1]) {
		cli_err("unknown option '%s' (see 'kfdtrace "
			"info --help')", argv[1]);
		return KFDTRACE_EXIT_USAGE;
	}
	if (argc != 2) {
		cli_err("expected one trace file (see 'kfdtrace info --help')");
		return KFDTRACE_EXIT_USAGE;
	}
	path = argv[1];
	if (cli_open(path, &r))
		return KFDTRACE_EXIT_ERROR;
	h = kt_reader_header(r);

	while ((rc = kt_reader_next(r, &rec)) == 1) {
		if (total == 0 || rec.ts < first_ts)
			first_ts = rec.ts;
		if (rec.ts > last_ts)
			last_ts = rec.ts;
		total++;
		counts[rec.type < KT_REC_TYPE_MAX ? rec.type : KT_REC_TYPE_MAX]++;
		if (rec.type == KT_REC_IOCTL) {
			const struct kfd_ioctl_desc *d = kfd_schema_lookup(
				(enum kfd_file_kind)rec.u.ioctl.file_kind,
				rec.u.ioctl.request);

			if (!d)
				unknown_ioctls++;
			else if (!have_ver)
				have_ver = cli_get_version(d, &rec.u.ioctl,
							   &ver[0], &ver[1]);
		}
		if (rec.type == KT_REC_TOPOLOGY && !topo) {
			topo = malloc(sizeof(*topo));
			if (topo)
				kt_topo_parse(rec.u.topology.files,
					      rec.u.topology.nfiles, topo);
		}
	}
	kt_reader_get_status(r, &st);

	print_header(path, h, have_ver ? ver : NULL);
	if (topo)
		print_topology(topo);
	else
		printf("topology:   none recorded\n");
	printf("records:    %llu\n", (unsigned long long)total);
	for (t = 1; t <= KT_REC_TYPE_MAX; t++) {
		const char *name = t < KT_REC_TYPE_MAX ? kt_rec_type_name(t) :
				   "unknown-type";

		if (!counts[t])
			continue;
		printf("  %-12s %llu", name ? name : "?",
		       (unsigned long long)counts[t]);
		if (t == KT_REC_IOCTL && unknown_ioctls)
			printf(" (%llu unknown requests)",
			       (unsigned long long)unknown_ioctls);
		printf("\n");
	}
	if (total) {
		uint64_t span = last_ts - first_ts;
		int64_t off = (int64_t)(first_ts - h->start_monotonic);

		printf("time span:  %llu.%06llu s (first record at %+.6f s)\n",
		       (unsigned long long)(span / 1000000000ULL),
		       (unsigned long long)(span % 1000000000ULL / 1000),
		       (double)off / 1e9);
	}
	printf("file size:  %llu bytes, %llu frames\n",
	       (unsigned long long)st.file_size, (unsigned long long)st.frames);

	status = KFDTRACE_EXIT_OK;
	if (rc == -KT_ETRUNC || st.integrity == KT_INTEGRITY_TRUNCATED) {
		printf("integrity:  truncated: recovered %llu records\n",
		       (unsigned long long)st.records);
		status = KFDTRACE_EXIT_ERROR;
	} else if (rc == -KT_ECORRUPT || st.integrity == KT_INTEGRITY_CORRUPT) {
		printf("integrity:  corrupt at byte offset %llu (%llu records before it)\n",
		       (unsigned long long)st.corrupt_offset,
		       (unsigned long long)st.records);
		status = KFDTRACE_EXIT_ERROR;
	} else if (rc < 0) {
		printf("integrity:  unreadable: %s\n", kt_strerror(rc));
		status = KFDTRACE_EXIT_ERROR;
	} else if (st.integrity == KT_INTEGRITY_DAMAGED) {
		printf("integrity:  damaged: every frame reads, but records are "
		       "missing, repeated or added\n");
		status = KFDTRACE_EXIT_ERROR;
	} else if (st.integrity == KT_INTEGRITY_INCOMPLETE) {
		printf("integrity:  incomplete: the writer lost %llu records "
		       "(%llu written)\n", (unsigned long long)st.lost,
		       (unsigned long long)st.end_records);
		status = KFDTRACE_EXIT_ERROR;
	} else if (st.integrity == KT_INTEGRITY_NO_END) {
		printf("integrity:  no-end: all frames complete, no END record\n");
	} else {
		printf("integrity:  ok\n");
	}
	if (st.message[0] && status != KFDTRACE_EXIT_OK)
		printf("detail:     %.*s\n", (int)sizeof(st.message), st.message);

	free(topo);
	kt_reader_close(r);
	if (fflush(stdout) != 0)
		return KFDTRACE_EXIT_ERROR;
	return status;
}

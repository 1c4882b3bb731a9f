/* SPDX-License-Identifier: MIT */
/*
 * libFuzzer target: the babeltrace2 source component (source.kfdtrace.trace,
 * formats/bt2) on hostile trace files, driven the way `kfdtrace export
 * --ctf` drives it: kt_ctf_export() runs the source into babeltrace2's
 * sink.ctf.fs in this process. The input is the trace file; its seeds are
 * the trace reader's (corpus/bt2_source is a link to corpus/trace_reader).
 *
 * The plugin is a module babeltrace2 loads (from this build tree), built
 * without coverage instrumentation: the fuzzer is guided only by the
 * reader and this file, and a sanitizer sees memory errors only in the
 * instrumented parts. It is slow (a graph per input); run it long.
 *
 * Run e.g.: ./bt2_source_fuzz -max_len=65536 new_corpus/ tests/fuzz/corpus/bt2_source/
 */
#include <fcntl.h>
#include <ftw.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kt_ctf_export.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char dir[256], trace[300], out[300];

static int
rm_one(const char *path, const struct stat *sb, int flag, struct FTW *ftw)
{
	if (ftw->level > 0)
		remove(path);
	return 0;
}

static void __attribute__((destructor))
drop_dir(void)
{
	if (dir[0]) {
		nftw(dir, rm_one, 16, FTW_DEPTH | FTW_PHYS);
		rmdir(dir);
	}
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char msg[512];
	int fd;

	if (!dir[0]) {
		snprintf(dir, sizeof(dir), "%s/kt-bt2-fuzz-XXXXXX",
			 access("/dev/shm", W_OK) ? "/tmp" : "/dev/shm");
		if (!mkdtemp(dir)) {
			dir[0] = '\0';
			return 0;
		}
		snprintf(trace, sizeof(trace), "%s/in.kfdtrace", dir);
		snprintf(out, sizeof(out), "%s/ctf", dir);
	}
	nftw(dir, rm_one, 16, FTW_DEPTH | FTW_PHYS);
	fd = open(trace, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (fd < 0)
		return 0;
	if (size && write(fd, data, size) != (ssize_t)size) {
		close(fd);
		return 0;
	}
	close(fd);
	kt_ctf_export(trace, out, NULL, msg, sizeof(msg));
	return 0;
}

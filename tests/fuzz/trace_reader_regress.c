/* SPDX-License-Identifier: MIT */
/*
 * Regression driver for the trace reader fuzz target, built with the
 * normal compiler: every file of the corpus directories given on the
 * command line goes through the same function the fuzzer calls, plus every
 * prefix and a few flipped bytes of each. A crash fails the test.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "trace_reader_one.h"

static uint8_t *
slurp(const char *path, size_t *len)
{
	struct stat sb;
	uint8_t *buf;
	FILE *f;

	f = fopen(path, "rb");
	if (!f)
		return NULL;
	if (fstat(fileno(f), &sb) || !(buf = malloc((size_t)sb.st_size + 1))) {
		fclose(f);
		return NULL;
	}
	*len = fread(buf, 1, (size_t)sb.st_size, f);
	fclose(f);
	return buf;
}

static int
run_file(const char *path)
{
	uint8_t *data, *copy;
	size_t len;

	data = slurp(path, &len);
	if (!data) {
		fprintf(stderr, "cannot read %s\n", path);
		return 1;
	}
	kt_fuzz_trace_reader(data, len);
	/* Exact-size copies, so reads past the end hit the allocator's guard. */
	for (size_t cut = 0; cut < len; cut += 1 + cut / 16) {
		copy = malloc(cut ? cut : 1);
		memcpy(copy, data, cut);
		kt_fuzz_trace_reader(copy, cut);
		free(copy);
	}
	copy = malloc(len ? len : 1);
	for (size_t i = 0; i < len; i += 1 + len / 64) {
		memcpy(copy, data, len);
		copy[i] ^= 0x5a;
		kt_fuzz_trace_reader(copy, len);
	}
	free(copy);
	free(data);
	return 0;
}

int
main(int argc, char **argv)
{
	int files = 0, fails = 0;

	for (int a = 1; a < argc; a++) {
		struct dirent *de;
		DIR *d = opendir(argv[a]);

		if (!d) {
			fails += run_file(argv[a]);
			files++;
			continue;
		}
		while ((de = readdir(d))) {
			char path[4096];

			if (de->d_name[0] == '.')
				continue;
			snprintf(path, sizeof(path), "%s/%s", argv[a], de->d_name);
			fails += run_file(path);
			files++;
		}
		closedir(d);
	}
	printf("%d corpus files\n", files);
	return fails || !files ? 1 : 0;
}

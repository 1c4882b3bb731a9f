/* SPDX-License-Identifier: MIT */
/*
 * Regression driver shared by every fuzz target: built with the normal
 * compiler and linked with one target's LLVMFuzzerTestOneInput(), it runs
 * every file of the corpus directories (or files) named on the command
 * line through it, plus prefixes of each and copies with one byte
 * flipped, the cheap mutations most likely to reach an unchecked length,
 * and whatever mutants the target adds (kt_fuzz_regress_extra()).
 * Exact-size copies make reads past the end fault under the allocator's
 * guards. A crash or an abort() of a target's own consistency check fails
 * the test.
 */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerInitialize(int *argc, char ***argv) __attribute__((weak));
/* A target's own extra mutants of each seed (trace_reader: structural). */
int kt_fuzz_regress_extra(const uint8_t *data, size_t size)
	__attribute__((weak));

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

static void
run_copy(const uint8_t *data, size_t len)
{
	uint8_t *copy = malloc(len ? len : 1);

	if (!copy)
		return;
	memcpy(copy, data, len);
	LLVMFuzzerTestOneInput(copy, len);
	free(copy);
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
	run_copy(data, len);
	for (size_t cut = 0; cut < len; cut += 1 + cut / 8)
		run_copy(data, cut);
	copy = malloc(len ? len : 1);
	for (size_t i = 0; copy && i < len; i += 1 + len / 48) {
		memcpy(copy, data, len);
		copy[i] ^= 0x5a;
		LLVMFuzzerTestOneInput(copy, len);
		copy[i] = (uint8_t)~data[i];	/* and all bits flipped */
		LLVMFuzzerTestOneInput(copy, len);
	}
	free(copy);
	if (kt_fuzz_regress_extra && kt_fuzz_regress_extra(data, len)) {
		free(data);
		return 1;
	}
	free(data);
	return 0;
}

int
main(int argc, char **argv)
{
	int files = 0, fails = 0;

	if (LLVMFuzzerInitialize)
		LLVMFuzzerInitialize(&argc, &argv);
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

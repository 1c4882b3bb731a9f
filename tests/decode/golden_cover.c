/* SPDX-License-Identifier: MIT */
/*
 * Every schema row has a golden decode. Runs each golden program named on
 * the command line with KT_GOLDEN_ROWS set, so that each appends the rows
 * whose decoding it compared with an exact line (decode_test.h), then
 * fails, naming them, if any row of kfd_schema_rows() is not among them
 * or if a golden program failed. Adding a schema row without its golden
 * line fails here.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "kfdtrace/schema.h"

static int
run(const char *exe, const char *rows_file)
{
	pid_t pid = fork();
	int status;

	if (pid < 0) {
		perror("golden_cover: fork");
		return -1;
	}
	if (!pid) {
		/* The goldens' own output is not ours to show on success. */
		if (!freopen("/dev/null", "w", stdout))
			_exit(127);
		setenv("KT_GOLDEN_ROWS", rows_file, 1);
		execl(exe, exe, (char *)NULL);
		perror(exe);
		_exit(127);
	}
	if (waitpid(pid, &status, 0) < 0) {
		perror("golden_cover: waitpid");
		return -1;
	}
	if (!WIFEXITED(status) || WEXITSTATUS(status)) {
		fprintf(stderr, "golden_cover: %s failed (status %d)\n", exe,
			status);
		return -1;
	}
	return 0;
}

static int
covered(FILE *f, const char *kind, const char *name)
{
	char line[256], want[256];

	snprintf(want, sizeof(want), "%s %s\n", kind, name);
	rewind(f);
	while (fgets(line, sizeof(line), f))
		if (!strcmp(line, want))
			return 1;
	return 0;
}

int
main(int argc, char **argv)
{
	char rows_file[] = "/tmp/kt-golden-rows-XXXXXX";
	const struct kfd_ioctl_desc *rows;
	unsigned int n, i, missing = 0;
	int fd, i_arg, bad = 0;
	FILE *f;

	if (argc < 2) {
		fprintf(stderr, "usage: golden_cover GOLDEN-PROGRAM...\n");
		return 2;
	}
	fd = mkstemp(rows_file);
	if (fd < 0) {
		perror("golden_cover: mkstemp");
		return 1;
	}
	close(fd);
	for (i_arg = 1; i_arg < argc; i_arg++)
		if (run(argv[i_arg], rows_file) < 0)
			bad = 1;
	f = fopen(rows_file, "r");
	if (!f) {
		perror(rows_file);
		unlink(rows_file);
		return 1;
	}
	rows = kfd_schema_rows(&n);
	for (i = 0; i < n; i++) {
		const char *kind = kfd_file_kind_name(rows[i].file_kind);

		if (!covered(f, kind, rows[i].name)) {
			fprintf(stderr, "golden_cover: schema row %s (%s) has no "
				"golden decode in tests/decode/golden_*.c\n",
				rows[i].name, kind);
			missing++;
		}
	}
	fclose(f);
	unlink(rows_file);
	printf("%u of %u schema rows have a golden decode\n", n - missing, n);
	return bad || missing ? 1 : 0;
}

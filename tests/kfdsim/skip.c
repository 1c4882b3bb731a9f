/* SPDX-License-Identifier: MIT */
/* Stands in for a test whose prerequisites are missing: meson's "skipped". */
#include <stdio.h>

int
main(int argc, char **argv)
{
	printf("skipped: %s\n", argc > 1 ? argv[1] : "prerequisites missing");
	return 77;
}

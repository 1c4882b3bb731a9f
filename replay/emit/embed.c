/* SPDX-License-Identifier: MIT */
/*
 * A build tool: the text of a file as a C string.
 *	embed IN OUT NAME  ->  OUT defines "const char NAME[] = ...;"
 * emit-c writes the runtime's text (repro_rt.c) into every program; the
 * runtime stays an ordinary C file that the tests compile on its own.
 */
#include <stdio.h>

int
main(int argc, char **argv)
{
	FILE *in, *out;
	int c, bol = 1;

	if (argc != 4) {
		fprintf(stderr, "usage: embed IN OUT NAME\n");
		return 2;
	}
	in = fopen(argv[1], "r");
	out = fopen(argv[2], "w");
	if (!in || !out) {
		perror("embed");
		return 1;
	}
	fprintf(out, "/* Generated from %s: do not edit. */\nconst char %s[] =\n",
		argv[1], argv[3]);
	while ((c = fgetc(in)) != EOF) {
		if (bol)
			fputs("\t\"", out);
		bol = 0;
		switch (c) {
		case '\n':
			fputs("\\n\"\n", out);
			bol = 1;
			break;
		case '\\':
			fputs("\\\\", out);
			break;
		case '"':
			fputs("\\\"", out);
			break;
		case '\t':
			fputs("\\t", out);
			break;
		default:
			fputc(c, out);
		}
	}
	if (!bol)
		fputs("\"\n", out);
	fputs(";\n", out);
	if (ferror(in) || fclose(out)) {
		perror("embed");
		return 1;
	}
	fclose(in);
	return 0;
}

// SPDX-License-Identifier: MIT
/*
 * isa_dis: decode a byte range of a file with kfd_isa_decode(), one line
 * per instruction: address, length, text. tests/isa compares the lines
 * with llvm-objdump's.
 *
 * Usage: isa_dis FAMILY FILE OFFSET SIZE ADDRESS
 */
#include <stdio.h>
#include <stdlib.h>

#include "kfdtrace/isa.h"

int main(int argc, char **argv)
{
	enum kfd_isa_family family;
	struct kfd_isa_insn insn;
	unsigned long long off, size, addr, pos;
	unsigned char *code;
	FILE *f;

	if (argc != 6) {
		fprintf(stderr, "usage: isa_dis FAMILY FILE OFFSET SIZE ADDRESS\n");
		return 2;
	}
	if (kfd_isa_family_by_name(argv[1], &family)) {
		fprintf(stderr, "isa_dis: no table for %s\n", argv[1]);
		return 2;
	}
	off = strtoull(argv[3], NULL, 0);
	size = strtoull(argv[4], NULL, 0);
	addr = strtoull(argv[5], NULL, 0);
	code = malloc(size ? size : 1);
	f = fopen(argv[2], "rb");
	if (!code || !f || fseek(f, (long)off, SEEK_SET) || fread(code, 1, size, f) != size) {
		fprintf(stderr, "isa_dis: cannot read %s\n", argv[2]);
		return 2;
	}
	fclose(f);
	for (pos = 0; pos + 4 <= size; pos += insn.length) {
		kfd_isa_decode(family, code + pos, size - pos, &insn);
		printf("%llx\t%u\t%s\n", addr + pos, insn.length, insn.text);
	}
	free(code);
	return 0;
}

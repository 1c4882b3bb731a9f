// SPDX-License-Identifier: MIT
/*
 * isa_dis: decode a byte range of a file with kfd_isa_decode(), one line
 * per instruction: address, length, text. tests/isa compares the lines
 * with llvm-objdump's.
 *
 * Usage: isa_dis FAMILY FILE OFFSET SIZE ADDRESS
 *        isa_dis --rows FAMILY
 *
 * --rows prints, one line per form of every row of the table (its VOP3
 * form too, and the flat, scratch and global segments of FLAT), in hex:
 * the first dword with its operand fields zero, then the mask of its bits
 * that name the format and opcode (the others may vary), and the format.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kfdtrace/isa.h"

static void put_form(uint32_t w0, uint32_t fixed, const char *format)
{
	printf("%08x %08x %s\n", w0, fixed, format);
}

static int rows(const char *name)
{
	enum kfd_isa_family family;
	struct kfd_isa_row row;
	unsigned int i, seg;
	int r;

	if (kfd_isa_family_by_name(name, &family)) {
		fprintf(stderr, "isa_dis: no table for %s\n", name);
		return 2;
	}
	for (i = 0; (r = kfd_isa_row(family, i, &row)) >= 0; i++) {
		if (r)
			continue;
		if (!strcmp(row.format, "FLAT")) {
			for (seg = 0; seg < 3; seg++)
				put_form(row.word0 | seg << 14, row.word0_fixed | 3u << 14,
					 row.format);
			continue;
		}
		put_form(row.word0, row.word0_fixed, row.format);
		if (row.vop3_word0)
			put_form(row.vop3_word0, row.vop3_fixed, "VOP3");
	}
	return 0;
}

int main(int argc, char **argv)
{
	enum kfd_isa_family family;
	struct kfd_isa_insn insn;
	unsigned long long off, size, addr, pos;
	unsigned char *code;
	FILE *f;

	if (argc == 3 && !strcmp(argv[1], "--rows"))
		return rows(argv[2]);
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

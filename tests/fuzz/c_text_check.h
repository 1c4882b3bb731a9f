/* SPDX-License-Identifier: MIT */
/*
 * A lexical check of generated C source, the emit_c fuzz target's oracle:
 * kfd_emit_c() promises that no text from a trace can leave the comment
 * or string literal it was written into.
 */
#ifndef KT_FUZZ_C_TEXT_CHECK_H
#define KT_FUZZ_C_TEXT_CHECK_H

#include <stddef.h>

/*
 * c_text_check() - lex @s (@n bytes) as C: every byte is printable ASCII,
 * a tab or a newline; no "??" (a trigraph) anywhere; no comment opens
 * inside a comment, and every comment ends; every string and character
 * literal ends on its line. When @skel is not NULL, it receives (malloc'd,
 * NUL-terminated) the code outside comments, with every literal emptied:
 * text from a trace can change nothing in it.
 *
 * Return: NULL if so, else what is wrong (a static string); *@at is the
 * offset it was found at.
 */
const char *c_text_check(const char *s, size_t n, char **skel, size_t *at);

#endif /* KT_FUZZ_C_TEXT_CHECK_H */

/* SPDX-License-Identifier: MIT */
/*
 * Helpers of the tests that look at the shim's virtual tree directly,
 * without preloading (test_shim_tree, test_shim_cpu, test_shim_monitor):
 * a tree built from a profile, paths resolved in it, a file's rendered
 * text, and directory listings. The checks fail the running cmocka test
 * with the path in the message.
 */
#ifndef KFDTRACE_VFS_TEST_UTIL_H
#define KFDTRACE_VFS_TEST_UTIL_H

#include <stdbool.h>
#include <stddef.h>

struct ksim_profile;
struct ksim_vfs;
struct ksim_vnode;

/* vt_data_dir() - $KSIM_TEST_DATA, or tests/kfdsim/data from the source root. */
const char *vt_data_dir(void);

/*
 * vt_profile_parse() - a profile from @text (origin "test").
 * Return: the profile, or NULL after printing the parser's error.
 */
struct ksim_profile *vt_profile_parse(const char *text);

/*
 * vt_profile_load() - the profile file @name of vt_data_dir().
 * Return: the profile, or NULL after printing the loader's error.
 */
struct ksim_profile *vt_profile_load(const char *name);

/*
 * vt_tree_build() - the shim's whole tree for @prof at KFD ABI 1.@abi_minor,
 * with the shim's real libc entries resolved first (the tree reads through
 * them). @prof must outlive the tree; free it with ksim_vfs_free().
 * Return: the tree, or NULL when memory ran out.
 */
struct ksim_vfs *vt_tree_build(const struct ksim_profile *prof, unsigned int abi_minor);

/* A test group's machine: a profile and its trees. */
struct vt_fixture {
	struct ksim_profile *prof;
	struct ksim_vfs *vfs;		/* at KFD ABI 1.19, the newest */
	struct ksim_vfs *vfs11;		/* the same at 1.11, or NULL */
};

/*
 * vt_fixture_open() - cmocka setup body: a struct vt_fixture in *@state
 * holding @prof (NULL: the profile could not be made) and its trees; the
 * 1.11 one only when @abi11.
 * Return: 0, or -1 (nothing is left allocated).
 */
int vt_fixture_open(void **state, struct ksim_profile *prof, bool abi11);

/*
 * vt_fixture_close() - cmocka teardown: free the struct vt_fixture of
 * *@state with its trees and profile.
 * Return: 0.
 */
int vt_fixture_close(void **state);

/*
 * vt_must_find() - the node @path resolves to (links followed), failing the
 * test unless it is one of the tree's, without error or redirection.
 */
struct ksim_vnode *vt_must_find(struct ksim_vfs *vfs, const char *path);

/*
 * vt_render() - the contents of the virtual file @path as an open() of it
 * gives them; fails the test unless @path is a file of the tree that opens.
 * @len:	NULL, or set to the byte count (the data may hold NULs)
 *
 * Return: the bytes with a NUL after them; free() it.
 */
char *vt_render(struct ksim_vfs *vfs, const char *path, size_t *len);

/*
 * vt_read() - the text of the virtual file @path, or why it cannot be opened.
 * The path must be the tree's (it fails the test otherwise), and the text
 * must hold no NUL.
 * @err:	set to 0, or to the negative errno of the lookup or the open
 *
 * Return: the text (free() it), or NULL with *@err set.
 */
char *vt_read(struct ksim_vfs *vfs, const char *path, int *err);

/*
 * vt_expect_text() - fail the test unless the virtual file @path opens and
 * reads exactly the printf() result of @fmt.
 */
void vt_expect_text(struct ksim_vfs *vfs, const char *path, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/*
 * vt_expect_error() - fail the test unless looking @path up in the tree with
 * the KSIM_LOOKUP_* @flags gives the negative errno @err.
 */
void vt_expect_error(struct ksim_vfs *vfs, const char *path, int flags, int err);

/* vt_expect_absent() - vt_expect_error(@vfs, @path, 0, -ENOENT). */
void vt_expect_absent(struct ksim_vfs *vfs, const char *path);

/*
 * vt_listing() - the names the directory @path of the tree lists, in their
 * order, "." and ".." left out, separated by one space ("" when empty).
 * Return: the string; free() it.
 */
char *vt_listing(struct ksim_vfs *vfs, const char *path);

/* vt_expect_listing() - fail the test unless vt_listing() gives @want. */
void vt_expect_listing(struct ksim_vfs *vfs, const char *path, const char *want);

#endif /* KFDTRACE_VFS_TEST_UTIL_H */

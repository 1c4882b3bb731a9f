/* SPDX-License-Identifier: MIT */
/*
 * Helpers of the virtual-tree tests (vfs_test_util.h).
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "ksim_profile.h"
#include "shim.h"
#include "tc_text.h"
#include "tree.h"
#include "vdir.h"
#include "vfs_test_util.h"

const char *
vt_data_dir(void)
{
	const char *d = getenv("KSIM_TEST_DATA");

	return d ? d : "tests/kfdsim/data";
}

struct ksim_profile *
vt_profile_parse(const char *text)
{
	struct ksim_profile *prof;
	char *err = NULL;

	prof = ksim_profile_parse(text, strlen(text), "test", &err);
	if (!prof)
		fprintf(stderr, "profile: %s\n", err ? err : "?");
	free(err);
	return prof;
}

struct ksim_profile *
vt_profile_load(const char *name)
{
	struct ksim_profile *prof;
	char path[512], *err = NULL;

	snprintf(path, sizeof(path), "%s/%s", vt_data_dir(), name);
	prof = ksim_profile_load(path, &err);
	if (!prof)
		fprintf(stderr, "%s: %s\n", path, err ? err : "?");
	free(err);
	return prof;
}

struct ksim_vfs *
vt_tree_build(const struct ksim_profile *prof, unsigned int abi_minor)
{
	ksim_real_init();
	return ksim_tree_build(prof, abi_minor);
}

int
vt_fixture_open(void **state, struct ksim_profile *prof, bool abi11)
{
	struct vt_fixture *fx = calloc(1, sizeof(*fx));

	if (!fx || !prof)
		goto fail;
	fx->prof = prof;
	fx->vfs = vt_tree_build(prof, 19);
	if (!fx->vfs)
		goto fail;
	if (abi11) {
		fx->vfs11 = vt_tree_build(prof, 11);
		if (!fx->vfs11)
			goto fail;
	}
	*state = fx;
	return 0;
fail:
	if (fx) {
		ksim_vfs_free(fx->vfs);
		free(fx);
	}
	ksim_profile_free(prof);
	return -1;
}

int
vt_fixture_close(void **state)
{
	struct vt_fixture *fx = *state;

	ksim_vfs_free(fx->vfs);
	ksim_vfs_free(fx->vfs11);
	ksim_profile_free(fx->prof);
	free(fx);
	return 0;
}

struct ksim_vnode *
vt_must_find(struct ksim_vfs *vfs, const char *path)
{
	struct ksim_lookup res;

	if (!ksim_vfs_lookup(vfs, NULL, path, 0, &res))
		fail_msg("%s: not in the virtual tree", path);
	if (res.error || res.redirect || !res.node)
		fail_msg("%s: not a virtual node (error %d%s)", path, res.error,
			 res.redirect ? ", redirected" : "");
	return res.node;
}

char *
vt_render(struct ksim_vfs *vfs, const char *path, size_t *len)
{
	struct ksim_vnode *n = vt_must_find(vfs, path);
	char *text;
	int fd;

	assert_int_equal(n->type, KSIM_V_FILE);
	fd = ksim_vfs_materialize(n, 0);
	assert_true(fd >= 0);
	text = tc_read_fd(fd, len);
	close(fd);
	assert_non_null(text);
	return text;
}

char *
vt_read(struct ksim_vfs *vfs, const char *path, int *err)
{
	struct ksim_lookup res;
	size_t len = 0;
	char *text;
	int fd;

	*err = 0;
	assert_true(ksim_vfs_lookup(vfs, NULL, path, 0, &res));
	if (res.error) {
		*err = res.error;
		return NULL;
	}
	assert_non_null(res.node);
	fd = ksim_vfs_materialize(res.node, 0);
	if (fd < 0) {
		*err = fd;
		return NULL;
	}
	text = tc_read_fd(fd, &len);
	close(fd);
	assert_non_null(text);
	assert_int_equal(strlen(text), len);
	return text;
}

void
vt_expect_text(struct ksim_vfs *vfs, const char *path, const char *fmt, ...)
{
	char *want, *got;
	va_list ap;
	int err, n;

	va_start(ap, fmt);
	n = vasprintf(&want, fmt, ap);
	va_end(ap);
	assert_true(n >= 0);
	got = vt_read(vfs, path, &err);
	if (!got)
		fail_msg("%s: cannot open (%d)", path, err);
	if (strcmp(got, want))
		fail_msg("%s: got \"%s\", want \"%s\"", path, got, want);
	free(got);
	free(want);
}

void
vt_expect_error(struct ksim_vfs *vfs, const char *path, int flags, int err)
{
	struct ksim_lookup res;

	assert_true(ksim_vfs_lookup(vfs, NULL, path, flags, &res));
	if (res.error != err)
		fail_msg("%s: error %d, want %d", path, res.error, err);
}

void
vt_expect_absent(struct ksim_vfs *vfs, const char *path)
{
	vt_expect_error(vfs, path, 0, -ENOENT);
}

char *
vt_listing(struct ksim_vfs *vfs, const char *path)
{
	struct ksim_lookup res;
	struct dirent64 *e;
	struct ksim_dir *d;
	char *out = NULL;
	const char *sep = "";
	size_t len = 0;
	FILE *f;
	DIR *dir;

	assert_true(ksim_vfs_lookup(vfs, NULL, path, 0, &res));
	assert_int_equal(res.error, 0);
	dir = ksim_vdir_open(res.node, -1);
	assert_non_null(dir);
	d = ksim_vdir_find(dir);
	f = open_memstream(&out, &len);
	assert_non_null(f);
	while ((e = ksim_vdir_read(d)) != NULL) {
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		fprintf(f, "%s%s", sep, e->d_name);
		sep = " ";
	}
	ksim_vdir_close(d);
	assert_int_equal(fclose(f), 0);
	return out;
}

void
vt_expect_listing(struct ksim_vfs *vfs, const char *path, const char *want)
{
	char *got = vt_listing(vfs, path);

	if (strcmp(got, want))
		fail_msg("%s lists \"%s\", want \"%s\"", path, got, want);
	free(got);
}

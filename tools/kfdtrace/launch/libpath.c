/* SPDX-License-Identifier: MIT */
/*
 * Where kfdtrace's libraries are (libpath.h): the build tree next to the
 * running binary, an installed tree around it, or the configured install
 * directories; and LD_LIBRARY_PATH for --thunk.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/cli.h"
#include "launch/libpath.h"

/* Set by meson: the configured install directories. */
#ifndef KFDTRACE_PREFIX
#define KFDTRACE_PREFIX "/usr/local"
#endif
#ifndef KFDTRACE_BINDIR
#define KFDTRACE_BINDIR "bin"
#endif
#ifndef KFDTRACE_LIBDIR
#define KFDTRACE_LIBDIR "lib"
#endif
#ifndef KFDTRACE_THUNK_SUBDIR
#define KFDTRACE_THUNK_SUBDIR "kfdtrace"
#endif

const struct kfdtrace_lib kfdtrace_lib_sim = {
	"libkfdsim.so", "KFDTRACE_SIM_LIB", "../kfdsim", "",
};
const struct kfdtrace_lib kfdtrace_lib_capture = {
	"libkfdtrace-capture.so", "KFDTRACE_CAPTURE_LIB", "../../tracer", "",
};
/* Not in libdir itself, where it would be the system's libhsakmt. */
const struct kfdtrace_lib kfdtrace_lib_thunk = {
	"libhsakmt.so.1", NULL, "../../thunk", KFDTRACE_THUNK_SUBDIR,
};

/* The directory holding this executable. */
static int
self_dir(char *dir, size_t size)
{
	ssize_t n = readlink("/proc/self/exe", dir, size - 1);
	char *slash;

	if (n <= 0)
		return -1;
	dir[n] = '\0';
	slash = strrchr(dir, '/');
	if (!slash)
		return -1;
	*slash = '\0';
	return 0;
}

/* @dir/@sub/@name, when it is there: its real path in @out. */
static int
try_path(const char *dir, const char *sub, const char *name, char *out)
{
	char path[PATH_MAX];

	if ((size_t)snprintf(path, sizeof(path), "%s/%s%s%s", dir, sub,
			     *sub ? "/" : "", name) >= sizeof(path))
		return -1;
	if (access(path, R_OK) || !realpath(path, out))
		return -1;
	return 0;
}

/*
 * The root of the installed tree this binary is in: its directory without
 * the trailing <bindir> ("/tmp/d/usr/local/bin" -> "/tmp/d/usr/local").
 * Return: 0, or -1 when the binary is not in a <bindir> (the build tree).
 */
static int
install_root(const char *dir, char *root, size_t size)
{
	size_t n = strlen(dir), b = strlen(KFDTRACE_BINDIR);

	if (KFDTRACE_BINDIR[0] == '/' || KFDTRACE_LIBDIR[0] == '/' ||
	    n <= b || dir[n - b - 1] != '/' || strcmp(dir + n - b, KFDTRACE_BINDIR) ||
	    n - b >= size)
		return -1;
	memcpy(root, dir, n - b - 1);
	root[n - b - 1] = '\0';
	return 0;
}

int
kfdtrace_lib_find(const struct kfdtrace_lib *lib, char *out, size_t size,
		  int report)
{
	const char *v = lib->env ? getenv(lib->env) : NULL;
	char dir[PATH_MAX], root[PATH_MAX], found[PATH_MAX], libdir[PATH_MAX];

	if (v && *v) {
		if (access(v, R_OK) || !realpath(v, found)) {
			if (report)
				cli_err("%s=%s: %s", lib->env, v, strerror(errno));
			return -1;
		}
		goto done;
	}
	if (self_dir(dir, sizeof(dir)) == 0) {
		if (try_path(dir, lib->build_dir, lib->name, found) == 0)
			goto done;
		if (install_root(dir, root, sizeof(root)) == 0 &&
		    (size_t)snprintf(libdir, sizeof(libdir), "%s/%s", root,
				     KFDTRACE_LIBDIR) < sizeof(libdir) &&
		    try_path(libdir, lib->install_sub, lib->name, found) == 0)
			goto done;
	}
	if (KFDTRACE_LIBDIR[0] == '/')
		snprintf(libdir, sizeof(libdir), "%s", KFDTRACE_LIBDIR);
	else
		snprintf(libdir, sizeof(libdir), "%s/%s", KFDTRACE_PREFIX,
			 KFDTRACE_LIBDIR);
	if (try_path(libdir, lib->install_sub, lib->name, found) == 0)
		goto done;
	if (report)
		cli_err("cannot find %s (looked in the build tree and the "
			"installed tree around this program, then in %s/%s)%s%s",
			lib->name, libdir, lib->install_sub,
			lib->env ? "; set " : "", lib->env ? lib->env : "");
	return -1;
done:
	if ((size_t)snprintf(out, size, "%s", found) >= size) {
		if (report)
			cli_err("%s: path too long", found);
		return -1;
	}
	return 0;
}

int
kfdtrace_thunk_parse(const char *s, enum kfdtrace_thunk *out)
{
	if (!strcmp(s, "ours"))
		*out = KFDTRACE_THUNK_OURS;
	else if (!strcmp(s, "amd"))
		*out = KFDTRACE_THUNK_AMD;
	else {
		cli_err("--thunk %s: expected ours or amd", s);
		return -1;
	}
	return 0;
}

/* LD_LIBRARY_PATH without the entries that are the directory @dir. */
static char *
path_without(const char *path, const char *dir)
{
	char *copy = strdup(path), *out = calloc(1, strlen(path) + 1);
	char *next, *tok, real[PATH_MAX];
	int kept = 0;

	if (!copy || !out) {
		free(copy);
		free(out);
		return NULL;
	}
	/* The dynamic linker splits on both; an empty entry is the working
	 * directory, so it is kept as it was. */
	for (tok = copy; tok; tok = next) {
		size_t len = strcspn(tok, ":;");

		next = tok[len] ? tok + len + 1 : NULL;
		tok[len] = '\0';
		if (*tok && realpath(tok, real) && !strcmp(real, dir))
			continue;
		if (kept++)
			strcat(out, ":");
		strcat(out, tok);
	}
	free(copy);
	return out;
}

int
kfdtrace_thunk_setenv(enum kfdtrace_thunk thunk)
{
	const char *old = getenv("LD_LIBRARY_PATH");
	char lib[PATH_MAX], *slash, *path;
	int found, ret;

	if (thunk == KFDTRACE_THUNK_DEFAULT)
		return 0;
	found = !kfdtrace_lib_find(&kfdtrace_lib_thunk, lib, sizeof(lib),
				   thunk == KFDTRACE_THUNK_OURS);
	if (!found)
		return thunk == KFDTRACE_THUNK_OURS ? -1 : 0;
	slash = strrchr(lib, '/');
	*slash = '\0';
	if (thunk == KFDTRACE_THUNK_AMD) {
		if (!old)
			return 0;
		path = path_without(old, lib);
	} else {
		if (strpbrk(lib, ":;")) {
			cli_err("--thunk ours: %s: a directory with ':' or ';' "
				"in its path cannot be in LD_LIBRARY_PATH", lib);
			return -1;
		}
		if (asprintf(&path, "%s%s%s", lib, old && *old ? ":" : "",
			     old && *old ? old : "") < 0)
			path = NULL;
	}
	if (!path) {
		cli_err("out of memory");
		return -1;
	}
	ret = *path ? setenv("LD_LIBRARY_PATH", path, 1) :
		      unsetenv("LD_LIBRARY_PATH");
	free(path);
	if (ret)
		cli_err("LD_LIBRARY_PATH: %s", strerror(errno));
	return ret ? -1 : 0;
}

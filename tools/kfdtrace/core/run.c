/* SPDX-License-Identifier: MIT */
/*
 * A run: the trace files of one recording, opened together and ordered
 * as a process tree (run.h).
 */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "core/cli.h"
#include "core/run.h"

struct run_build {
	struct cli_run_proc *p;
	size_t n, cap;
	const char *cmd;
};

static int
run_add(struct run_build *b, const char *path, const char *host)
{
	struct cli_run_proc *p;
	struct stat st, st2;
	size_t i;

	/* The same file named twice (a file and its directory) counts once. */
	if (stat(path, &st) == 0) {
		for (i = 0; i < b->n; i++)
			if (stat(b->p[i].path, &st2) == 0 &&
			    st.st_dev == st2.st_dev && st.st_ino == st2.st_ino)
				return 0;
	}
	if (b->n == b->cap) {
		size_t cap = b->cap ? b->cap * 2 : 8;
		struct cli_run_proc *np = realloc(b->p, cap * sizeof(*np));

		if (!np)
			goto nomem;
		b->p = np;
		b->cap = cap;
	}
	p = &b->p[b->n];
	memset(p, 0, sizeof(*p));
	p->parent = -1;
	p->path = strdup(path);
	if (!p->path)
		goto nomem;
	if (cli_open(path, &p->r)) {
		free(p->path);
		return -1;
	}
	p->hdr = kt_reader_header(p->r);
	p->host = strdup(host ? host : p->hdr->host);
	if (!p->host) {
		kt_reader_close(p->r);
		free(p->path);
		goto nomem;
	}
	b->n++;
	return 0;
nomem:
	cli_err("out of memory");
	return -1;
}

static int
run_name_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Add the traces in @dir; with @depth 0, also its subdirectories' (one
 * per host). Return: traces added, or -1. */
static int
run_add_dir(struct run_build *b, const char *dir, const char *host, int depth)
{
	char **names = NULL;
	size_t n = 0, cap = 0, i;
	struct dirent *de;
	int added = 0, rc = 0;
	DIR *d = opendir(dir);

	if (!d) {
		cli_err("%s: %s", dir, strerror(errno));
		return -1;
	}
	while ((de = readdir(d))) {
		if (de->d_name[0] == '.')
			continue;
		if (n == cap) {
			char **nn = realloc(names, (cap = cap ? cap * 2 : 16) *
					    sizeof(*nn));

			if (!nn) {
				rc = -1;
				break;
			}
			names = nn;
		}
		if (!(names[n] = strdup(de->d_name))) {
			rc = -1;
			break;
		}
		n++;
	}
	closedir(d);
	if (rc)
		cli_err("out of memory");
	/* Sorted, so that the order never depends on the file system. */
	if (names)
		qsort(names, n, sizeof(*names), run_name_cmp);
	for (i = 0; i < n && !rc; i++) {
		char path[PATH_MAX];
		struct stat st;

		size_t dl = strlen(dir);

		/* "run/" and "run" name the same files. */
		while (dl > 1 && dir[dl - 1] == '/')
			dl--;
		if ((size_t)snprintf(path, sizeof(path), "%.*s/%s", (int)dl,
				     dir, names[i]) >= sizeof(path) ||
		    stat(path, &st) != 0)
			continue;
		if (S_ISDIR(st.st_mode) && depth == 0) {
			int k = run_add_dir(b, path, names[i], 1);

			if (k < 0)
				rc = -1;
			else
				added += k;
		} else if (S_ISREG(st.st_mode) && cli_is_trace_name(names[i])) {
			if (run_add(b, path, host))
				rc = -1;
			else
				added++;
		}
	}
	for (i = 0; i < n; i++)
		free(names[i]);
	free(names);
	return rc ? -1 : added;
}

static int
run_start_cmp(const struct cli_run_proc *a, const struct cli_run_proc *b)
{
	int c = strcmp(a->host, b->host);

	if (c)
		return c;
	if (a->hdr->start_monotonic != b->hdr->start_monotonic)
		return a->hdr->start_monotonic < b->hdr->start_monotonic ? -1 : 1;
	return a->hdr->pid < b->hdr->pid ? -1 : a->hdr->pid > b->hdr->pid;
}

static int
run_sort_cmp(const void *a, const void *b)
{
	return run_start_cmp(a, b);
}

/*
 * The parent of @i (@p in start order): a process of its host whose pid
 * is its ppid -- the latest such image started before it, else the first
 * (a child can open the device, and so start its trace, before its
 * parent does); failing that, the image it replaced (the same pid,
 * started earlier: an exec). -1 for a root.
 */
static int
run_find_parent(const struct cli_run_proc *p, size_t n, size_t i)
{
	int before = -1, after = -1;
	size_t j;

	for (j = 0; j < n; j++) {
		if (j == i || strcmp(p[j].host, p[i].host) ||
		    p[j].hdr->pid != p[i].hdr->ppid)
			continue;
		if (j < i)
			before = (int)j;
		else if (after < 0)
			after = (int)j;
	}
	if (before >= 0 || after >= 0)
		return before >= 0 ? before : after;
	for (j = 0; j < i; j++)
		if (!strcmp(p[j].host, p[i].host) &&
		    p[j].hdr->pid == p[i].hdr->pid)
			before = (int)j;
	return before;
}

/* Append @i and its subtree (children in start order) to @out. */
static void
run_preorder(struct cli_run_proc *p, const int *parent, size_t n, size_t i,
	     unsigned int depth, size_t *order, size_t *k, unsigned int *dep)
{
	size_t j;

	dep[i] = depth;
	order[(*k)++] = i;
	for (j = 0; j < n; j++)
		if (parent[j] == (int)i)
			run_preorder(p, parent, n, j, depth + 1, order, k, dep);
}

static int
run_order(struct cli_run *run)
{
	size_t n = run->n, i, k = 0, *order, *where;
	unsigned int *dep;
	int *parent;
	struct cli_run_proc *sorted;

	qsort(run->p, n, sizeof(*run->p), run_sort_cmp);
	parent = calloc(n, sizeof(*parent));
	order = calloc(n, sizeof(*order));
	where = calloc(n, sizeof(*where));
	dep = calloc(n, sizeof(*dep));
	sorted = calloc(n, sizeof(*sorted));
	if (!parent || !order || !where || !dep || !sorted) {
		free(parent);
		free(order);
		free(where);
		free(dep);
		free(sorted);
		return -1;
	}
	for (i = 0; i < n; i++)
		parent[i] = run_find_parent(run->p, n, i);
	for (i = 0; i < n; i++)
		if (parent[i] < 0)
			run_preorder(run->p, parent, n, i, 0, order, &k, dep);
	for (i = 0; i < n; i++)
		where[order[i]] = i;
	for (i = 0; i < n; i++) {
		sorted[i] = run->p[order[i]];
		sorted[i].depth = dep[order[i]];
		sorted[i].parent = parent[order[i]] < 0 ? -1 :
			(int)where[parent[order[i]]];
	}
	free(run->p);
	run->p = sorted;
	free(parent);
	free(order);
	free(where);
	free(dep);
	return 0;
}

static void
run_label(struct cli_run *run)
{
	size_t i, j;

	run->nhosts = 0;
	for (i = 0; i < run->n; i++) {
		for (j = 0; j < i; j++)
			if (!strcmp(run->p[j].host, run->p[i].host))
				break;
		if (j == i)
			run->nhosts++;
	}
	for (i = 0; i < run->n; i++) {
		struct cli_run_proc *p = &run->p[i];
		const char *exe = strrchr(p->hdr->exe, '/');

		exe = exe ? exe + 1 : p->hdr->exe;
		if (run->nhosts > 1)
			snprintf(p->label, sizeof(p->label), "%.32s:%.40s[%d]",
				 p->host, *exe ? exe : "?", (int)p->hdr->pid);
		else
			snprintf(p->label, sizeof(p->label), "%.64s[%d]",
				 *exe ? exe : "?", (int)p->hdr->pid);
	}
}

int
cli_run_open(struct cli_run *run, char *const *paths, size_t npaths,
	     const char *cmd)
{
	struct run_build b = { .cmd = cmd };
	size_t i;

	memset(run, 0, sizeof(*run));
	for (i = 0; i < npaths; i++) {
		struct stat st;

		if (stat(paths[i], &st) == 0 && S_ISDIR(st.st_mode)) {
			int k = run_add_dir(&b, paths[i], NULL, 0);

			if (k == 0)
				cli_err("%s: no traces in this directory "
					"(*.kfdtrace)", paths[i]);
			if (k <= 0)
				goto fail;
		} else if (run_add(&b, paths[i], NULL)) {
			goto fail;
		}
	}
	run->p = b.p;
	run->n = b.n;
	if (run->n == 0) {
		cli_err("no trace files given");
		return -1;
	}
	if (run_order(run)) {
		cli_err("out of memory");
		cli_run_close(run);
		return -1;
	}
	run_label(run);
	return 0;
fail:
	run->p = b.p;
	run->n = b.n;
	cli_run_close(run);
	return -1;
}

int
cli_run_finish(struct cli_run *run)
{
	int worst = KFDTRACE_EXIT_OK;
	size_t i;

	for (i = 0; i < run->n; i++) {
		int s = cli_finish(run->p[i].path, run->p[i].r,
				   run->p[i].read_rc);

		if (s > worst)
			worst = s;
	}
	return worst;
}

void
cli_run_close(struct cli_run *run)
{
	size_t i;

	for (i = 0; i < run->n; i++) {
		kt_reader_close(run->p[i].r);
		free(run->p[i].path);
		free(run->p[i].host);
	}
	free(run->p);
	memset(run, 0, sizeof(*run));
}

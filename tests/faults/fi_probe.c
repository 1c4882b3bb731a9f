/* SPDX-License-Identifier: MIT */
/* Snapshots of fds and mappings (fi_probe.h). */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fi_probe.h"

bool fi_probe_reservations = true;

/* "KIND WHAT", cut to FI_PROBE_LEN - 1 bytes. */
static void
add(struct fi_snapshot *s, const char *kind, const char *what)
{
	if (s->n < FI_PROBE_MAX &&
	    snprintf(s->item[s->n], FI_PROBE_LEN, "%s %s", kind, what) >= 0)
		s->n++;
}

static int
take_fds(struct fi_snapshot *s)
{
	DIR *d = opendir("/proc/self/fd");
	struct dirent *de;

	if (!d)
		return -errno;
	while ((de = readdir(d))) {
		char path[64], target[FI_PROBE_LEN];
		ssize_t n;

		if (de->d_name[0] == '.' || atoi(de->d_name) == dirfd(d))
			continue;
		snprintf(path, sizeof(path), "/proc/self/fd/%.20s", de->d_name);
		n = readlink(path, target, sizeof(target) - 1);
		if (n < 0)
			continue;
		target[n] = '\0';
		add(s, "fd", target);
	}
	closedir(d);
	return 0;
}

/* Mappings of a GPU library: device files, simulator memory, reservations. */
static bool
interesting(const char *perms, const char *path)
{
	if (strstr(path, "kfdsim") || !strncmp(path, "/dev/", 5))
		return true;
	return fi_probe_reservations && !*path && !strcmp(perms, "---p");
}

static int
take_maps(struct fi_snapshot *s)
{
	FILE *f = fopen("/proc/self/maps", "re");
	char line[512];

	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f)) {
		unsigned long start, end;
		char perms[8], path[256] = "", what[FI_PROBE_LEN];
		int off = 0;

		line[strcspn(line, "\n")] = '\0';
		if (sscanf(line, "%lx-%lx %7s %*s %*s %*s %n", &start, &end, perms, &off) < 3)
			continue;
		if (off > 0)
			snprintf(path, sizeof(path), "%s", line + off);
		if (!interesting(perms, path))
			continue;
		snprintf(what, sizeof(what), "%s %lu %.60s", perms, end - start, path);
		add(s, "map", what);
	}
	fclose(f);
	return 0;
}

int
fi_snapshot_take(struct fi_snapshot *s)
{
	int r;

	s->n = 0;
	r = take_fds(s);
	return r ? r : take_maps(s);
}

void
fi_snapshot_diff(const struct fi_snapshot *before, const struct fi_snapshot *after,
		 struct fi_snapshot *out)
{
	bool used[FI_PROBE_MAX] = { false };

	out->n = 0;
	for (unsigned int i = 0; i < after->n; i++) {
		bool found = false;

		for (unsigned int j = 0; j < before->n && !found; j++) {
			if (!used[j] && !strcmp(after->item[i], before->item[j])) {
				used[j] = true;
				found = true;
			}
		}
		if (!found && out->n < FI_PROBE_MAX)
			memcpy(out->item[out->n++], after->item[i], FI_PROBE_LEN);
	}
}

bool
fi_snapshot_extra(const struct fi_snapshot *s, const struct fi_snapshot *allowed,
		  char *what, size_t len)
{
	struct fi_snapshot *extra = malloc(sizeof(*extra));
	bool more;

	if (!extra) {
		snprintf(what, len, "out of memory");
		return true;
	}
	fi_snapshot_diff(allowed, s, extra);
	more = extra->n > 0;
	if (more)
		snprintf(what, len, "%s", extra->item[0]);
	free(extra);
	return more;
}

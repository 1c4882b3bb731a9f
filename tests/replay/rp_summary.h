/* SPDX-License-Identifier: MIT */
/*
 * What the replay benchmarks read of a `kfdtrace replay` report: the
 * summary's "replayed:", "cpu time:" and "result:" lines.
 */
#ifndef RP_SUMMARY_H
#define RP_SUMMARY_H

#include <stdio.h>
#include <string.h>

struct rp_summary {
	unsigned long long ioctls;
	double secs;		/* the replay pass, wall */
	double rate;		/* its ioctls/s */
	double cpu;		/* its CPU seconds */
	int match;		/* "result:      match" */
	char result[256];	/* the result line, without its indent */
};

/*
 * rp_summary_read() - parse the report in @path into @s (zeroed first).
 * Return: 0, or -1 when the file cannot be read.
 */
static inline int
rp_summary_read(const char *path, struct rp_summary *s)
{
	char line[512];
	FILE *f = fopen(path, "r");

	memset(s, 0, sizeof(*s));
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		const char *p = strstr(line, "replayed:");

		if (p)
			sscanf(p, "replayed: %*u records (%llu ioctls) in %lf s, %lf",
			       &s->ioctls, &s->secs, &s->rate);
		p = strstr(line, "cpu time:");
		if (p)
			sscanf(p, "cpu time: %lf s", &s->cpu);
		p = strstr(line, "result:");
		if (p) {
			snprintf(s->result, sizeof(s->result), "%s", p);
			s->match = !strncmp(p, "result:      match", 17);
		}
	}
	fclose(f);
	return 0;
}

#endif

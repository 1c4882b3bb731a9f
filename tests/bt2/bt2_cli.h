/* SPDX-License-Identifier: MIT */
/*
 * What the babeltrace2 end-to-end tests (test_bt2.c, test_bt2_begin.c)
 * share: the programs under test, a scratch directory holding the trace of
 * every record type (gen-bt2-trace all), and the steps that run them
 * (kfdtrace export --ctf and dump --json, babeltrace2's CTF source into
 * sink.text.details). The steps fail the running cmocka test.
 */
#ifndef BT2_CLI_H
#define BT2_CLI_H

#include <stddef.h>
#include <stdint.h>

#include "bt2_util.h"

/* Set by bt2_cli_args(); plugin_opt is "--plugin-path=PLUGIN-DIR". */
extern const char *kfdtrace, *gen, *plugin_dir, *bt2;
extern char plugin_opt[4200];
/* The scratch directory (bt2_cli_setup()) and its trace of every record. */
extern char work[];
extern char all_path[256];
/* The trace's clock readings and record count, as gen-bt2-trace says. */
extern uint64_t start_mono, start_real, all_records;

/*
 * bt2_cli_args() - take KFDTRACE GEN-BT2-TRACE PLUGIN-DIR BABELTRACE2 from
 * argv[1..4]. Return: 0, or -1 (usage printed) when @argc is not 5.
 */
int bt2_cli_args(int argc, char **argv);

/* bt2_cli_setup() - make the scratch directory and the trace. 0 or -1. */
int bt2_cli_setup(void);

/* wpath() - @name in the scratch directory, into @buf. */
void wpath(char *buf, size_t size, const char *name);

/* Every record of a dump --json. */
struct jrecs {
	struct jrec *v;
	size_t n;
};

void jrecs_free(struct jrecs *j);

/* dump_json() - `kfdtrace dump --json` of @path (exit @want_status). */
void dump_json(const char *path, struct jrecs *out, int want_status);

/* read_ctf() - babeltrace2's sink.text.details of CTF directory @dir. */
void read_ctf(const char *dir, struct devs *out);

/* ctf_events() - the record events of CTF directory @dir (no entries). */
size_t ctf_events(const char *dir);

/* contains() - @needle in @hay, runs of white space counting as one. */
int contains(const char *hay, const char *needle);

/*
 * export_ctf() - `kfdtrace export --ctf @dir @trace`, which must exit with
 * @want_status and, unless NULL, say @want_err on stderr.
 */
void export_ctf(const char *trace, const char *dir, int want_status,
		const char *want_err);

/* expected_name() - the event name of dump record @j: kfd:<event>. */
void expected_name(const struct jrec *j, char *buf, size_t size);

/* leaf_num(), leaf_str() - the value at @path of event @d; fail if none. */
uint64_t leaf_num(const struct dev *d, const char *path);
const char *leaf_str(const struct dev *d, const char *path);

/* devs_drop_begins() - take the export's kfd:call_begin events out of @d. */
size_t devs_drop_begins(struct devs *d);

#endif /* BT2_CLI_H */

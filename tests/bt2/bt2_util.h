/* SPDX-License-Identifier: MIT */
/*
 * Helpers for the babeltrace2 tests: a small JSON reader for `kfdtrace dump
 * --json` lines, and a reader of babeltrace2's sink.text.details output.
 * Running programs is tests/common's (tc_run.h).
 *
 * Both readers flatten a record into leaves with a "match key" that does
 * not depend on how each side names containers:
 *
 *   a scalar field          its name                    "gpu_id"
 *   a field of a union arm  the name after the arm      "dword_offset"
 *   an array element        its indices                 "[1]"
 *   a field of an element   indices and name            "[0]gpu_id"
 *
 * so `out.kfd_process_device_apertures_ptr[0].gpu_id` (JSON) and
 * `apertures_out[0].gpu_id` (babeltrace2) meet at "[0]gpu_id".
 */
#ifndef BT2_UTIL_H
#define BT2_UTIL_H

#include <stddef.h>
#include <stdint.h>

/* ---- leaves ---- */

enum leaf_type { LEAF_NUM, LEAF_STR };

struct leaf {
	char key[96];		/* match key, see above */
	char path[160];		/* the full path, for messages */
	uint8_t type;
	uint8_t in_side;	/* JSON: under "in" (the value passed in) */
	uint64_t num;		/* LEAF_NUM: the value's bit pattern */
	char *str;		/* LEAF_STR */
};

struct leaves {
	struct leaf *v;
	size_t n, cap;
};

void leaves_free(struct leaves *l);
const struct leaf *leaves_find(const struct leaves *l, const char *key);

/* parse_number() - decimal, 0x-hex (':' and ',' ignored), octal. 0 or -1. */
int parse_number(const char *s, uint64_t *out);

/* ---- kfdtrace dump --json ---- */

struct jrec {
	uint64_t seq, tid, ts, dur_ns;
	int has_dur;
	char type[32];
	char event[64];		/* ioctl event name, "" for unknown requests */
	char *in_hex, *out_hex;	/* unknown requests */
	struct leaves top;	/* top-level fields */
	struct leaves io;	/* fields under "in" and "out" */
};

/* json_record() - read one dump --json line. Return: 0, or -1. */
int json_record(const char *line, struct jrec *r);
void jrec_free(struct jrec *r);

/* ---- sink.text.details ---- */

struct dev {
	char name[64];		/* "kfd:alloc_memory_of_gpu" */
	uint64_t ns;		/* ns from origin */
	uint64_t stream;	/* stream ID */
	uint64_t seq, tid, pid;	/* the common context */
	struct leaves f;	/* payload leaves */
};

struct devs {
	struct dev *v;
	size_t n, cap;
};

/* details_parse() - the events of a sink.text.details output. 0 or -1. */
int details_parse(const char *text, struct devs *out);
void devs_free(struct devs *d);
const struct dev *devs_by_seq(const struct devs *d, uint64_t seq);

#endif /* BT2_UTIL_H */

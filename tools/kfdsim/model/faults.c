/* SPDX-License-Identifier: MIT */
/*
 * Fault mode: make chosen ioctls fail, or answer late, so that timing and
 * error-path bugs of a program can be reproduced on the simulator
 * (KFDSIM_FAULTS, docs/kfdsim.md). The spec is a comma-separated list of
 *
 *	NAME:WHICH:EFFECT[:EFFECT]
 *
 * NAME	a schema name, KFD or amdgpu ("ALLOC_MEMORY_OF_GPU",
 *	"wait_events", "AMDGPU_INFO"), or "*" for every /dev/kfd ioctl.
 * WHICH	N (the Nth matching call, from 1), N+C (C calls from the Nth),
 *	N+* (every call from the Nth) or * (every call). Calls are counted
 *	per rule, per process, over every file of the ioctl's kind.
 * EFFECT	an errno (ENOMEM, or a number such as 524): the call fails
 *	before the device sees it, its argument untouched; or delay=T
 *	(T in ns, us, ms or s): the call is answered as usual and returns T
 *	later. With both, the call waits T and then fails.
 *
 * With no spec the model never looks at this file's state: its answers
 * are exactly those of the plain model.
 */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include <kfdtrace/common/errnames.h>

#include "ksim_priv.h"

/* The spec grammar's limits. */
#define KSIM_FAULTS_MAX_RULES	64
#define KSIM_FAULTS_MAX_DELAY	(3600ull * 1000000000ull)	/* an hour */

struct ksim_fault_rule {
	const struct kfd_ioctl_desc *desc;	/* NULL: every /dev/kfd ioctl */
	uint64_t nth;				/* first call to hit, from 1 */
	uint64_t count;				/* calls from nth on; 0: all */
	int err;				/* 0: no failure */
	uint64_t delay_ns;
	uint64_t seen;				/* calls matched so far (atomic) */
};

struct ksim_faults {
	unsigned int n;
	struct ksim_fault_rule rules[];
};

static void __attribute__((format(printf, 3, 4)))
msg_set(char *msg, size_t len, const char *fmt, ...)
{
	va_list ap;

	if (!msg || !len)
		return;
	va_start(ap, fmt);
	vsnprintf(msg, len, fmt, ap);
	va_end(ap);
}

/* A decimal number of @len chars; false when it is not one or overflows. */
static bool
parse_u64(const char *s, size_t len, uint64_t *out)
{
	uint64_t v = 0;

	if (!len || len > 19)
		return false;
	for (size_t i = 0; i < len; i++) {
		if (!isdigit((unsigned char)s[i]))
			return false;
		v = v * 10 + (uint64_t)(s[i] - '0');
	}
	*out = v;
	return true;
}

static bool
parse_which(const char *s, size_t len, struct ksim_fault_rule *r)
{
	const char *plus = memchr(s, '+', len);
	size_t head;

	if (len == 1 && s[0] == '*') {
		r->nth = 1;
		r->count = 0;
		return true;
	}
	if (!plus) {
		r->count = 1;
		return parse_u64(s, len, &r->nth) && r->nth;
	}
	head = (size_t)(plus - s);
	if (!parse_u64(s, head, &r->nth) || !r->nth)
		return false;
	/* N+* and N+0: every call from the Nth on. */
	if (len - head - 1 == 1 && plus[1] == '*') {
		r->count = 0;
		return true;
	}
	return parse_u64(plus + 1, len - head - 1, &r->count);
}

static bool
parse_delay(const char *s, size_t len, uint64_t *ns)
{
	static const struct {
		const char *unit;
		uint64_t mult;
	} units[] = { { "ns", 1 }, { "us", 1000 }, { "ms", 1000000 }, { "s", 1000000000 } };
	size_t digits = 0;
	uint64_t v;

	while (digits < len && isdigit((unsigned char)s[digits]))
		digits++;
	if (!parse_u64(s, digits, &v))
		return false;
	for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++) {
		size_t ul = strlen(units[i].unit);

		if (len - digits == ul && !memcmp(s + digits, units[i].unit, ul)) {
			if (v > KSIM_FAULTS_MAX_DELAY / units[i].mult)
				return false;
			*ns = v * units[i].mult;
			return true;
		}
	}
	return false;
}

static bool
parse_errno(const char *s, size_t len, int *err)
{
	int v = kc_errno_parse(s, len);

	if (v < 0)
		return false;
	*err = v;
	return true;
}

/* One NAME:WHICH:EFFECT[:EFFECT] of @len chars. */
static bool
parse_rule(const char *s, size_t len, struct ksim_fault_rule *r, char *msg, size_t msglen)
{
	const char *field[5];
	size_t flen[5];
	unsigned int nf = 0;
	char name[64];

	memset(r, 0, sizeof(*r));
	for (const char *p = s, *end = s + len; nf < 5; nf++) {
		const char *colon = memchr(p, ':', (size_t)(end - p));

		field[nf] = p;
		flen[nf] = colon ? (size_t)(colon - p) : (size_t)(end - p);
		if (!colon) {
			nf++;
			break;
		}
		p = colon + 1;
	}
	if (nf < 3 || nf > 4) {
		msg_set(msg, msglen, "'%.*s': expected NAME:WHICH:EFFECT[:EFFECT]", (int)len, s);
		return false;
	}
	if (flen[0] == 1 && field[0][0] == '*') {
		r->desc = NULL;
	} else {
		if (!flen[0] || flen[0] >= sizeof(name)) {
			msg_set(msg, msglen, "'%.*s': unknown ioctl", (int)flen[0], field[0]);
			return false;
		}
		memcpy(name, field[0], flen[0]);
		name[flen[0]] = '\0';
		r->desc = kfd_schema_by_name(name);
		if (!r->desc) {
			msg_set(msg, msglen, "'%.*s': unknown ioctl", (int)flen[0], field[0]);
			return false;
		}
	}
	if (!parse_which(field[1], flen[1], r)) {
		msg_set(msg, msglen, "'%.*s': expected N, N+COUNT, N+* or *", (int)flen[1],
			field[1]);
		return false;
	}
	for (unsigned int i = 2; i < nf; i++) {
		if (flen[i] > 6 && !memcmp(field[i], "delay=", 6)) {
			if (r->delay_ns || !parse_delay(field[i] + 6, flen[i] - 6, &r->delay_ns) ||
			    !r->delay_ns) {
				msg_set(msg, msglen,
					"'%.*s': expected delay=N with ns, us, ms or s (up to 1h)",
					(int)flen[i], field[i]);
				return false;
			}
		} else if (r->err || !parse_errno(field[i], flen[i], &r->err)) {
			msg_set(msg, msglen,
				"'%.*s': expected an errno name or number, or delay=T",
				(int)flen[i], field[i]);
			return false;
		}
	}
	return true;
}

int
ksim_faults_parse(const char *spec, struct ksim_faults **out, char *msg, size_t msglen)
{
	struct ksim_faults *f;
	unsigned int n = 1;
	const char *p;

	*out = NULL;
	if (msg && msglen)
		msg[0] = '\0';
	if (!spec || !*spec)
		return 0;
	for (p = spec; *p; p++)
		n += *p == ',';
	if (n > KSIM_FAULTS_MAX_RULES) {
		if (msg && msglen)
			snprintf(msg, msglen, "more than %d rules", KSIM_FAULTS_MAX_RULES);
		return -EINVAL;
	}
	f = calloc(1, sizeof(*f) + n * sizeof(f->rules[0]));
	if (!f)
		return -ENOMEM;
	for (p = spec; f->n < n; f->n++) {
		const char *comma = strchr(p, ',');
		size_t len = comma ? (size_t)(comma - p) : strlen(p);

		if (!parse_rule(p, len, &f->rules[f->n], msg, msglen)) {
			free(f);
			return -EINVAL;
		}
		p += len + (comma ? 1 : 0);
	}
	*out = f;
	return 0;
}

void
ksim_faults_free(struct ksim_faults *f)
{
	free(f);
}

int
ksim_faults_check_spec(const char *spec, char *msg, size_t msglen)
{
	struct ksim_faults *f;
	int r = ksim_faults_parse(spec, &f, msg, msglen);

	ksim_faults_free(f);
	return r;
}

int
ksim_faults_check(struct ksim_faults *f, enum kfd_file_kind kind, unsigned long request,
		  uint64_t *delay_ns)
{
	/* Rows are unique per file kind: compare pointers, look up once. */
	const struct kfd_ioctl_desc *desc = kfd_schema_lookup(kind, request);
	int err = 0;

	*delay_ns = 0;
	for (unsigned int i = 0; i < f->n; i++) {
		struct ksim_fault_rule *r = &f->rules[i];
		uint64_t n;

		/* A named rule matches its row; "*" every /dev/kfd ioctl. */
		if (r->desc ? r->desc != desc : kind != KFD_FILE_KFD)
			continue;
		n = __atomic_add_fetch(&r->seen, 1, __ATOMIC_RELAXED);
		if (n < r->nth || (r->count && n - r->nth >= r->count))
			continue;
		*delay_ns += r->delay_ns;
		if (r->err && !err)
			err = r->err;
	}
	return -err;
}

void
ksim_faults_delay(uint64_t ns)
{
	struct timespec ts = {
		.tv_sec = (time_t)(ns / 1000000000ull),
		.tv_nsec = (long)(ns % 1000000000ull),
	};

	/* Sleep the whole time even when signals interrupt it. */
	while (clock_nanosleep(CLOCK_MONOTONIC, 0, &ts, &ts) == EINTR)
		;
}

/* SPDX-License-Identifier: MIT */
/*
 * The fault-spec grammar (kfdtrace/common/faultspec.h): text only; the
 * consumers resolve names and apply the rules.
 *
 * Numbers are plain decimal digits, checked for overflow: no sign, no
 * spaces, no saturation (strtoul() took "-1" as ULONG_MAX).
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include <kfdtrace/common/errnames.h>
#include <kfdtrace/common/faultspec.h>
#include <kfdtrace/common/parse.h>
#include <kfdtrace/common/text.h>

#define WHICH_WANT	"expected N, N+COUNT, N+* or * (N from 1)"
#define DELAY_WANT	"expected delay=N with ns, us, ms or s (1 ns to 1 h), at most one"
#define ERRNO_WANT	"expected an errno name or number, or delay=T, at most one of each"
#define RULE_WANT	"expected NAME:WHICH:EFFECT[:EFFECT]"

void
kc_faultspec_msg(char *msg, size_t msglen, const struct kc_fault_rule *r,
		 const struct kc_faultspec_span *at, const char *why)
{
	char text[128];
	int head;
	size_t room;

	if (!msg || !msglen)
		return;
	/* The reason whole, whatever the spec holds: the rule's text is
	 * what gives way (cut, with "..."), and it is escaped, since it is
	 * the user's bytes and goes to a terminal. */
	head = snprintf(NULL, 0, "rule %u, column %zu: '", r->index, at->off + 1);
	room = msglen > (size_t)head + strlen(why) + 4 ?
	       msglen - (size_t)head - strlen(why) - 4 : 0;
	if (room > sizeof(text))
		room = sizeof(text);
	if (room < 8)
		room = 8;
	if (kc_text_escape(text, room, r->spec + at->off, at->len) < at->len) {
		kc_text_escape(text, room - 3, r->spec + at->off, at->len);
		strcat(text, "...");
	}
	snprintf(msg, msglen, "rule %u, column %zu: '%s': %s", r->index,
		 at->off + 1, text, why);
}

static bool
parse_which(const char *s, size_t len, struct kc_fault_rule *r)
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
		return kc_parse_u64(s, len, &r->nth) && r->nth;
	}
	head = (size_t)(plus - s);
	if (!kc_parse_u64(s, head, &r->nth) || !r->nth)
		return false;
	if (len - head - 1 == 1 && plus[1] == '*') {
		r->count = 0;
		return true;
	}
	/* N+0 means every call too. */
	return kc_parse_u64(plus + 1, len - head - 1, &r->count);
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

	while (digits < len && s[digits] >= '0' && s[digits] <= '9')
		digits++;
	if (!kc_parse_u64(s, digits, &v) || !v)
		return false;
	for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++) {
		size_t ul = strlen(units[i].unit);

		if (len - digits == ul && !memcmp(s + digits, units[i].unit, ul)) {
			if (v > KC_FAULTSPEC_MAX_DELAY / units[i].mult)
				return false;
			*ns = v * units[i].mult;
			return true;
		}
	}
	return false;
}

static void
bad(char *msg, size_t msglen, const struct kc_fault_rule *r, size_t off,
    size_t len, const char *why)
{
	struct kc_faultspec_span at = { off, len };

	kc_faultspec_msg(msg, msglen, r, &at, why);
}

/* The rule at r->rule; fills in the rest of @r. */
static int
parse_rule(struct kc_fault_rule *r, char *msg, size_t msglen)
{
	const char *s = r->spec + r->rule.off, *end = s + r->rule.len;
	struct kc_faultspec_span f[5];
	unsigned int nf = 0;

	for (const char *p = s; nf < 5; nf++) {
		const char *colon = memchr(p, ':', (size_t)(end - p));

		f[nf].off = (size_t)(p - r->spec);
		f[nf].len = colon ? (size_t)(colon - p) : (size_t)(end - p);
		if (!colon) {
			nf++;
			break;
		}
		p = colon + 1;
	}
	if (nf < 3 || nf > 4) {
		bad(msg, msglen, r, r->rule.off, r->rule.len, RULE_WANT);
		return -EINVAL;
	}
	r->name_at = f[0];
	if (!f[0].len || f[0].len >= sizeof(r->name)) {
		bad(msg, msglen, r, f[0].off, f[0].len,
		    "expected an ioctl name of 1 to 63 chars, or *");
		return -EINVAL;
	}
	memcpy(r->name, r->spec + f[0].off, f[0].len);
	r->name[f[0].len] = '\0';

	r->which_at = f[1];
	if (!parse_which(r->spec + f[1].off, f[1].len, r)) {
		bad(msg, msglen, r, f[1].off, f[1].len, WHICH_WANT);
		return -EINVAL;
	}
	for (unsigned int i = 2; i < nf; i++) {
		const char *t = r->spec + f[i].off;

		if (f[i].len >= 6 && !memcmp(t, "delay=", 6)) {
			if (r->delay_ns ||
			    !parse_delay(t + 6, f[i].len - 6, &r->delay_ns)) {
				bad(msg, msglen, r, f[i].off, f[i].len, DELAY_WANT);
				return -EINVAL;
			}
			r->delay_at = f[i];
		} else {
			int e = kc_errno_parse(t, f[i].len);

			if (r->err || e < 0) {
				bad(msg, msglen, r, f[i].off, f[i].len, ERRNO_WANT);
				return -EINVAL;
			}
			r->err = e;
			r->err_at = f[i];
		}
	}
	return 0;
}

int
kc_faultspec_parse(const char *spec, kc_faultspec_fn fn, void *ctx,
		   char *msg, size_t msglen)
{
	size_t off = 0, total;
	unsigned int index = 0;

	if (msg && msglen)
		msg[0] = '\0';
	if (!spec || !*spec)
		return 0;
	total = strlen(spec);
	for (;;) {
		struct kc_fault_rule r;
		size_t len = strcspn(spec + off, ",;");
		int ret;

		memset(&r, 0, sizeof(r));
		r.index = ++index;
		r.spec = spec;
		r.rule.off = off;
		r.rule.len = len;
		ret = parse_rule(&r, msg, msglen);
		if (!ret && fn)
			ret = fn(ctx, &r, msg, msglen);
		if (ret)
			return ret;
		off += len;
		if (off == total)
			return 0;
		off++;	/* the separator; an empty rule after it is an error */
	}
}

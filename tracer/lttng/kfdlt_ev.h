/* SPDX-License-Identifier: MIT */
/*
 * Private to libkfdtrace-lttng.so: what the generated tracepoint
 * definitions (kfd_tp.h) and the generated emitter (kfd_tp_emit.c) share
 * with the hand-written provider.
 *
 * Every per-ioctl event takes one argument, a struct kfdlt_ev, and reads its
 * fields out of the argument images at offsets the generator took from the
 * schema. lttng-ust allows at most ten tracepoint arguments, fewer than
 * many argument structs have fields; one pointer also keeps the call into
 * the probe as cheap as it can be.
 */
#ifndef KFDLT_EV_H
#define KFDLT_EV_H

#include <stdint.h>
#include <string.h>

#include <kfdtrace/dispatch.h>

/* Bytes of raw argument data an event carries at most (union rows). */
#define KFDLT_RAW_MAX 1024

/* Flags fields per event, and the bytes of one's names ("VRAM|GTT"). */
#define KFDLT_NAMES_MAX 8
#define KFDLT_NAMES_LEN 256

/* One name of a flags table; a NULL name ends the table. */
struct kfdlt_flag {
	uint64_t value;
	const char *name;
};

struct kfdlt_ev {
	/*
	 * The before- and after-images, each at least as long as the row's
	 * struct (zero-filled when the request's size was smaller, as for
	 * CREATE_QUEUE before ABI 1.17).
	 */
	const unsigned char *in;
	const unsigned char *out;
	/* The argument bytes as the call left them, raw_len of them. */
	const unsigned char *raw;
	/* The names of the event's flags fields (kfdlt_flag_names()). */
	const char *names[KFDLT_NAMES_MAX];
	uint64_t dur_ns;
	uint32_t request;
	uint16_t raw_len;
	int fd;
	int ret;
	int err;
};

/* Loads at any alignment: argument structs are user memory. */
static inline uint8_t
kfdlt_u8(const unsigned char *p, unsigned int off)
{
	return p[off];
}

static inline uint16_t
kfdlt_u16(const unsigned char *p, unsigned int off)
{
	uint16_t v;

	memcpy(&v, p + off, sizeof(v));
	return v;
}

static inline uint32_t
kfdlt_u32(const unsigned char *p, unsigned int off)
{
	uint32_t v;

	memcpy(&v, p + off, sizeof(v));
	return v;
}

static inline uint64_t
kfdlt_u64(const unsigned char *p, unsigned int off)
{
	uint64_t v;

	memcpy(&v, p + off, sizeof(v));
	return v;
}

/*
 * kfdlt_ev_init() - fill @e from a finished call whose row's struct has
 * @size bytes. @tin and @tout (@size bytes each) hold zero-padded copies
 * when the request carried fewer bytes than that.
 *
 * Return: 0, or -1 when the argument bytes could not be read (then the
 * caller reports the call as kfd:ioctl_exit).
 */
static inline int
kfdlt_ev_init(struct kfdlt_ev *e, const struct kfd_dispatch_call *c,
	      uint32_t size, unsigned char *tin, unsigned char *tout)
{
	if (c->flags & KFD_CALL_ARG_UNREADABLE)
		return -1;
	if (c->arg_size && (!c->arg_before || !c->arg))
		return -1;
	e->fd = c->fd;
	e->request = (uint32_t)c->request;
	e->ret = c->ret;
	e->err = c->err;
	e->dur_ns = c->t_exit - c->t_enter;
	e->raw = c->arg;
	e->raw_len = (uint16_t)(c->arg_size < KFDLT_RAW_MAX ? c->arg_size :
				KFDLT_RAW_MAX);
	if (__builtin_expect(c->arg_size >= size, 1)) {
		e->in = c->arg_before;
		e->out = c->arg;
		return 0;
	}
	memset(tin, 0, size);
	memset(tout, 0, size);
	if (c->arg_size) {
		memcpy(tin, c->arg_before, c->arg_size);
		memcpy(tout, c->arg, c->arg_size);
	}
	e->in = tin;
	e->out = tout;
	return 0;
}

/*
 * kfdlt_flag_names() - the names of the bits of @v in table @t into @out
 * (KFDLT_NAMES_LEN bytes), as the decoder's kfd_decode_flag_names() and so
 * the babeltrace2 plugin spell them: "VRAM|WRITABLE", the bits no name
 * covers as one hex number at the end, "0" for no bits; a name for 0 only
 * for 0. A string that does not fit ends in "...".
 *
 * Return: @out.
 */
static inline const char *
kfdlt_flag_names(char *out, const struct kfdlt_flag *t, uint64_t v)
{
	static const char digits[] = "0123456789abcdef";
	size_t len = 0, n;
	uint64_t rem = v;
	char hex[20];
	int first = 1, i;

#define KFDLT_PUT(s, l)							\
	do {								\
		n = (l);						\
		if (len + n + 4 >= KFDLT_NAMES_LEN) {			\
			memcpy(out + len, "...", 4);			\
			return out;					\
		}							\
		memcpy(out + len, (s), n);				\
		len += n;						\
	} while (0)

	for (; t->name; t++) {
		if (t->value == 0 ? v != 0 || !first :
		    (rem & t->value) != t->value)
			continue;
		if (!first)
			KFDLT_PUT("|", 1);
		first = 0;
		KFDLT_PUT(t->name, strlen(t->name));
		rem &= ~t->value;
	}
	if (rem) {
		if (!first)
			KFDLT_PUT("|", 1);
		i = sizeof(hex);
		do {
			hex[--i] = digits[rem & 0xf];
			rem >>= 4;
		} while (rem);
		hex[--i] = 'x';
		hex[--i] = '0';
		KFDLT_PUT(hex + i, sizeof(hex) - (size_t)i);
	} else if (first) {
		KFDLT_PUT("0", 1);
	}
#undef KFDLT_PUT
	out[len] = '\0';
	return out;
}

/*
 * kfdlt_emit_row() - emit the event of @c's schema row (generated).
 *
 * Return: 1 when the row has an event (emitted, or disabled in every
 * session), 0 when the caller should report the call as kfd:ioctl_exit.
 */
int kfdlt_emit_row(const struct kfd_dispatch_call *c);

#endif /* KFDLT_EV_H */

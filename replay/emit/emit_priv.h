/* SPDX-License-Identifier: MIT */
/*
 * Internals of `kfdtrace emit-c` (replay/emit/): the records in the order
 * the program issues them, what is known about fds and scopes while
 * emitting, and the definitions the program needs (argument structs,
 * request codes, flag names), collected as the calls use them.
 */
#ifndef EM_PRIV_H
#define EM_PRIV_H

#include <stdio.h>

#include <kfdtrace/decode.h>
#include <kfdtrace/emit_c.h>

#include "replay_model.h"
#include "replay_stream.h"

#define EM_MAX_THREADS	64
/* Blocks per generated function: compilers take long over huge ones. */
#define EM_PART_BLOCKS	256
/* Bytes of `kfdtrace dump` text kept in a block's comment. */
#define EM_COMMENT_MAX	480
/* Buffers of this many bytes or more are data arrays (em_blob()). */
#define EM_BLOB_MIN	256
/*
 * How far (in records) a record moves in emit_order.c: the emitting pass
 * holds at most the records a move passes.
 */
#define EM_MOVE_WINDOW	4096
/* Elements of one buffer checked field by field after a call. */
#define EM_CHECK_ELEMS	4096

/* A captured thread: a thread of the program, its calls in @body. */
struct em_thread {
	uint32_t tid;
	FILE *body;		/* its functions, written as calls come */
	unsigned int parts;	/* functions started */
	unsigned int blocks;	/* blocks in the current one */
};

/* An open file description of the capture, as far as scopes go. */
struct em_ofd {
	uint8_t kind;		/* enum kfd_file_kind */
	int32_t proc;		/* KFD process (scope of its ids) */
};

/* One struct layout the program defines: a row's args, or a buffer's. */
struct em_layout {
	const struct kfd_struct_desc *sd;
	int16_t sel;		/* selector field, -1: the base layout */
	uint64_t arm;		/* its value */
	char name[96];		/* the C struct name */
};

/* A name table some value used: its names become constants. */
struct em_names {
	const struct kfd_name_table *t;
	uint8_t *used;		/* per entry */
};

/* A data array: where its bytes are in e->raw (emit_text.c). */
struct em_blob_ent {
	long off;
	size_t len;
};

struct em {
	const char *path;
	struct rp_model m;
	const struct rp_rows *rows;
	/* The event ids of the completed waits (struct em_item's ids). */
	struct rp_vec wait_ids;		/* uint32_t */
	struct rp_vec wait_ages;	/* struct em_age, beside wait_ids */
	struct em_thread th[EM_MAX_THREADS];
	unsigned int nthreads;
	int threaded;			/* more than one thread: turns */
	unsigned long turns;		/* calls numbered for rr_turn() */
	/* Files: captured fd -> ofd index + 1 (0: not a device fd). */
	int32_t *fd_ofd;
	int nfd;
	struct rp_vec ofds;		/* struct em_ofd */
	int nproc;
	/* Events: (scope, id) -> state (emit_ioctl.c). */
	struct kc_u64map events;
	/* Definitions, in first-use order. */
	struct rp_vec layouts;		/* struct em_layout * */
	uint8_t *req_used;		/* per schema row */
	uint8_t resize_used;
	struct rp_vec names;		/* struct em_names */
	struct kfd_emit_result res;
	struct kt_strbuf sb;		/* the block being made */
	struct kt_strbuf body;		/* its calls */
	/* Data arrays (emit_text.c): definitions, raw bytes, by hash. */
	FILE *data, *raw;
	struct rp_vec blobs;
	struct kc_u64map blob_map;
	int blob_err;			/* a negative errno */
	char *err;
	size_t errlen;
};

/* The open file description captured fd @fd is, or NULL (not a device's). */
static inline struct em_ofd *
em_fd_ofd(struct em *e, int32_t fd)
{
	if (fd < 0 || fd >= e->nfd || e->fd_ofd[fd] <= 0)
		return NULL;
	return RP_AT(&e->ofds, struct em_ofd, e->fd_ofd[fd] - 1);
}
/* The emitting state of thread @tid, started on first use (NULL: more
 * than EM_MAX_THREADS). */
struct em_thread *em_thread_of(struct em *e, uint32_t tid);
/* Record @rec as a block of its thread's function. Return: 0, or a
 * negative errno. */
int em_record(struct em *e, const struct kt_record *rec);

/* What a record's place in the order depends on (emit_order.c). */
enum em_item_kind {
	EM_I_OTHER,
	EM_I_SET,		/* a successful SET_EVENT */
	EM_I_WAIT,		/* a completed WAIT_EVENTS */
	EM_I_CREATE,		/* a successful CREATE_EVENT */
};

/*
 * A record in the program's order: what ordering needs of it, not the
 * record (emit.c reads the trace again to emit).
 */
/* The age a wait passed for one of its events and the age it got back. */
struct em_age {
	uint64_t in, out;
};

struct em_item {
	uint64_t seq;
	uint64_t major;		/* the seq it goes with (its own, or another's) */
	uint64_t ts, t_exit;	/* a set's or wait's entry and exit */
	size_t pos;		/* its place among the records read */
	uint32_t tid;
	uint32_t ev;		/* a set's or creation's event id; a wait's
				 * first in wait_ids */
	uint8_t kind;		/* enum em_item_kind */
	uint8_t nids;		/* a wait's event ids */
	uint8_t aged;		/* a wait that passed event ages (KFD 1.14) */
	int8_t moved;		/* -1: just before that record */
};

/* emit_order.c: sort the @n records @it into the order the serial replay
 * issues them (emit.c). */
void em_order(struct em *e, struct em_item *it, size_t n);
/*
 * emit_order.c: with event ages (KFD 1.14), how many SET_EVENTs the
 * program makes in the GPU's stead before the wait numbered @seq for its
 * element @idx (the interrupts its returned age shows), from the order.
 */
uint64_t em_age_stand_ins(const struct em *e, uint64_t seq, size_t idx);

/* emit_abi.c: definitions. */
/* The C struct of @sd for argument bytes @b (its union arm), defined once. */
const struct em_layout *em_layout(struct em *e, const struct kfd_struct_desc *sd,
				  const uint8_t *b, size_t len);
/* Whether field @i of the layout's struct is one of its members. */
int em_layout_has(const struct em_layout *l, unsigned int i);
/* The C member name of @f ("read_mmr_reg.count" -> read_mmr_reg_count). */
const char *em_member(const struct kfd_field *f, char *buf, size_t len);
/* The request expression of an ioctl record of row @d. */
void em_request(struct em *e, struct kt_strbuf *sb,
		const struct kfd_ioctl_desc *d, uint32_t request);
/* A number as C: decimal when small, else hex. */
void em_num(struct kt_strbuf *sb, uint64_t v);
/* A field's value as C, by its name table when it has one. */
void em_value(struct em *e, struct kt_strbuf *sb, const struct kfd_field *f,
	      uint64_t v);
/* An errno as its libc name (ENOMEM), or the number. */
void em_errno(struct kt_strbuf *sb, int err);
/* Bytes as a C initializer list ("{ 0x01, 0x02 }"). */
void em_bytes(struct kt_strbuf *sb, const uint8_t *p, size_t n);
/* Write every definition the blocks used. */
void em_write_defs(struct em *e, FILE *out);
void em_defs_free(struct em *e);

/* One block: where its struct lives and what its buffers are called. */
struct em_call {
	const struct kt_record *rec;
	const struct kt_ioctl_rec *io;
	const struct kfd_ioctl_desc *d;
	const struct rp_req_plan *plan;
	const struct em_layout *l;
	uint32_t size, clen;
	int scope, gem_scope;
	const char *acc;		/* "a." or "s.a." */
	/* Per buffer: its variable (bN), typed by its element layout. */
	int var[KT_MAX_BUFS];		/* index of the buffer owning it, -1 */
	size_t len[KT_MAX_BUFS];
	const struct em_layout *el[KT_MAX_BUFS];
	uint8_t guard[KT_MAX_BUFS];	/* unreadable at capture */
};

/* emit_ioctl.c: one ioctl record as a block of @sb. */
void em_ioctl(struct em *e, struct kt_strbuf *sb, const struct kt_record *rec);
/* emit_xlate.c: values by role. */
/* The runtime's kind of a learned role ("RR_HANDLE"). */
const char *em_kind_name(unsigned int role);
/* A captured input value @v of @role as the C expression of the live one. */
void em_xlate_expr(struct em *e, struct kt_strbuf *sb, const struct em_call *c,
		   unsigned int role, uint64_t v);
/* Whether an SVM attribute (@type, @value) names a GPU. */
int em_svm_attr_gpu(uint32_t type, uint32_t value);

/* emit_check.c: the checks of a call's outputs; the ids a destroy ends. */
void em_check_outputs(struct em *e, struct kt_strbuf *sb, struct em_call *c);
void em_forget(struct em *e, struct kt_strbuf *sb, const struct em_call *c);

/* emit_text.c: where escaped text goes. */
enum em_esc {
	EM_IN_COMMENT,		/* no comment ends or starts, no line ends */
	EM_IN_STRING,		/* inside "": quotes, \\, ?? and the rest escaped */
};

/*
 * Append @n bytes of @s (from the trace) escaped for @where: the only way
 * text a trace holds enters the program. Printable ASCII stays; in a
 * comment other bytes become \xXX text, "/" and "*" never meet, and the
 * dump's own comments become parentheses; in a string, octal escapes
 * that no following digit extends.
 */
void em_escape(struct kt_strbuf *sb, const char *s, size_t n, enum em_esc where);
/*
 * @n bytes at @p as a file-scope array dN (written to e->data, defined
 * once per distinct content). Return: N, or a negative errno.
 */
long em_blob(struct em *e, const uint8_t *p, size_t n);
/* Append the name of em_blob()'s array for @p (e->blob_err on failure). */
void em_blob_ref(struct em *e, struct kt_strbuf *sb, const uint8_t *p, size_t n);
void em_blobs_free(struct em *e);

/* emit_block.c: a block's leading comment, the call as dump prints it. */
void em_comment(struct em *e, struct kt_strbuf *sb, const struct kt_record *rec,
		const char *indent);

#endif

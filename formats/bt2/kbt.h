/* SPDX-License-Identifier: MIT */
/*
 * Private to the babeltrace2 plugin "kfdtrace" (source.kfdtrace.trace):
 * what the component, its trace IR classes and its message iterator share.
 *
 * One component reads one or more trace files ("inputs"); each file is one
 * babeltrace2 trace with its own clock class (CLOCK_MONOTONIC, offset to the
 * Unix epoch from the file header) and one output port. Every traced thread
 * is one stream, up to max-streams; the threads past it share one. Event classes of ioctls are built from the schema the first
 * time a row is seen, so a converted trace only declares what it uses.
 */
#ifndef KBT_H
#define KBT_H

#include <stdint.h>
#include <stdio.h>

#include <babeltrace2/babeltrace.h>

#include "kfdtrace/common/field_name.h"
#include "kfdtrace/decode.h"
#include "kfdtrace/kfd_abi.h"
#include "kfdtrace/reorder.h"
#include "kfdtrace/schema.h"
#include "kfdtrace/trace.h"

/* Events per packet: sink.ctf.fs writes one CTF packet per IR packet. */
#define KBT_PACKET_EVENTS 4096

/* The memory-domain ("heap") bits of ALLOC_MEMORY_OF_GPU's flags. */
#define KBT_HEAP_MASK (KFD_ABI_ALLOC_MEM_FLAGS_VRAM |			\
		       KFD_ABI_ALLOC_MEM_FLAGS_GTT |			\
		       KFD_ABI_ALLOC_MEM_FLAGS_USERPTR |		\
		       KFD_ABI_ALLOC_MEM_FLAGS_DOORBELL |		\
		       KFD_ABI_ALLOC_MEM_FLAGS_MMIO_REMAP)

/* Reorder defaults (see iter.c): trace time held back, memory bound. */
#define KBT_DEFAULT_SLACK_MS 2000
#define KBT_DEFAULT_WINDOW_MB 64

/*
 * Bounds of one event's fields (docs/trace-format.md, "Bounds"): a record
 * may hold 16 MiB, and every array element is a babeltrace2 field of its
 * own. exec argv keeps this many arguments and bytes, then one marker
 * argument stating the original size; an indirect buffer keeps this many
 * elements (the cut is counted and reported at the end).
 */
#define KBT_MAX_ARGS 1024
#define KBT_MAX_ARGV_BYTES (64u << 10)
#define KBT_MAX_BUF_ELEMS 16384

/* Event classes that do not come from a schema row. */
enum kbt_fixed_ec {
	KBT_EC_OPEN,
	KBT_EC_CLOSE,
	KBT_EC_DUP,
	KBT_EC_MMAP,
	KBT_EC_MUNMAP,
	KBT_EC_FORK,
	KBT_EC_EXEC,
	KBT_EC_THREAD_NAME,
	KBT_EC_TOPOLOGY,
	KBT_EC_ANNOTATION,
	KBT_EC_API_CALL,
	KBT_EC_END,
	KBT_EC_SUBMIT,
	KBT_EC_MEMORY,
	KBT_EC_UNKNOWN_IOCTL,
	KBT_EC_CALL_BEGIN,	/* a call's entry: only with begin-events */
	KBT_EC_COUNT
};

/* ---- ioctl event classes: a fill plan per schema row (ioctl_class.c) ---- */

enum kbt_op_kind {
	KBT_OP_INT,		/* integer or enumeration from an image */
	KBT_OP_STRING,		/* fixed char array -> string */
	KBT_OP_BYTES,		/* fixed opaque bytes -> static u8 array */
	KBT_OP_VARIANT,		/* union arms chosen by a selector field */
	KBT_OP_BUF,		/* indirect buffer -> length + dynamic array */
	KBT_OP_HEAP,		/* derived: heap of ALLOC_MEMORY_OF_GPU */
	KBT_OP_FREE,		/* derived: what FREE_MEMORY_OF_GPU freed */
	KBT_OP_FLAG_NAMES,	/* derived: a flags field's names, a string */
};

enum kbt_image { KBT_BEFORE = 0, KBT_AFTER = 1 };

/* How a buffer element is represented. */
enum kbt_elem_kind {
	KBT_ELEM_BYTES,		/* u8, hex */
	KBT_ELEM_UINT,		/* one unsigned integer of elem_size bytes */
	KBT_ELEM_FIELD,		/* one schema field (flattened single-field struct) */
	KBT_ELEM_STRUCT,	/* a structure of the element's fields */
};

struct kbt_plan;

struct kbt_arm {
	uint64_t value;			/* selector value choosing this arm */
	struct kbt_plan *plan;		/* members of the arm's structure */
};

struct kbt_op {
	uint8_t kind;			/* enum kbt_op_kind */
	uint8_t image;			/* enum kbt_image */
	uint8_t elem_kind;		/* KBT_OP_BUF: enum kbt_elem_kind */
	uint64_t member;		/* index in the enclosing structure */
	const struct kfd_field *f;	/* INT/STRING/BYTES; VARIANT: selector */
	/* KBT_OP_VARIANT */
	struct kbt_arm *arms;
	unsigned int narms;
	uint64_t none_index;		/* option index of the "none" arm */
	/* KBT_OP_BUF: the row's buffer, length member is member - 1 */
	int buf_index;
	const struct kfd_indirect *buf;
	struct kbt_plan *elem_plan;	/* KBT_ELEM_STRUCT / _FIELD */
	/* KBT_OP_HEAP: the handle (after the call) and size fields */
	const struct kfd_field *f_handle;
	const struct kfd_field *f_size;
};

struct kbt_plan {
	struct kbt_op *ops;
	unsigned int nops;
	unsigned int cap;
};

/* One schema row's event class. */
struct kbt_ioctl_class {
	bt_event_class *ec;		/* NULL until first used */
	const struct kfd_ioctl_desc *desc;
	struct kbt_plan plan;		/* payload members after request */
	uint64_t m_ret;			/* member indices of the fixed tail */
	int failed;			/* building failed: use unknown_ioctl */
};

/* ---- one input file ---- */

struct kbt_input {
	char *path;
	bt_trace_class *tc;
	bt_stream_class *sc;
	bt_clock_class *cc;
	bt_trace *trace;
	bt_event_class *fixed[KBT_EC_COUNT];
	struct kbt_ioctl_class *ioctl;	/* one per schema row */
	unsigned int nrows;
	const struct kfd_ioctl_desc *rows;
	struct kt_header hdr;
	int begin_events;		/* has the kfd:call_begin class */
};

/* The component. */
struct kbt_src {
	bt_self_component *self;
	bt_logging_level log_level;
	struct kbt_input *inputs;
	unsigned int ninputs;
	uint64_t slack_ns;		/* reorder: trace time held back */
	uint64_t window_bytes;		/* reorder: memory held at most */
	uint64_t max_streams;		/* streams per input; 0: no bound */
	int damage_is_error;		/* end with an error on damage */
	int begin_events;		/* a kfd:call_begin event per call */
};

/* ---- trace_ir.c ---- */

/*
 * kbt_input_build() - create the trace class, clock class, stream class,
 * fixed event classes and the trace of one input whose header is in
 * in->hdr.
 *
 * Return: 0, or -1 (an error cause is appended).
 */
int kbt_input_build(bt_self_component *self, struct kbt_input *in);

/* kbt_input_release() - drop the references of kbt_input_build(). */
void kbt_input_release(struct kbt_input *in);

/*
 * kbt_ioctl_ec() - the event class of schema row @row (built on first
 * use), or NULL when it could not be built.
 */
bt_event_class *kbt_ioctl_ec(struct kbt_input *in, unsigned int row);

/* ---- field class helpers (fc.c) ---- */

bt_field_class *kbt_fc_uint(bt_trace_class *tc, unsigned int bits, int hex);
bt_field_class *kbt_fc_sint(bt_trace_class *tc, unsigned int bits, int hex);
bt_field_class *kbt_fc_for_field(bt_trace_class *tc,
				 const struct kfd_field *f);
bt_field_class *kbt_fc_gpu_id(bt_trace_class *tc);
bt_field_class *kbt_fc_enum_table(bt_trace_class *tc,
				  const struct kfd_name_table *t,
				  unsigned int bits, int is_signed, int hex);
/*
 * The label of the values an enumeration's names leave out: every
 * enumeration of the plugin maps each value of its width to some label.
 */
#define KBT_ENUM_UNNAMED "unnamed"

/*
 * kbt_fc_enum_complete() - map every value enumeration @fc (@bits wide)
 * leaves out to KBT_ENUM_UNNAMED. Return: @fc, or NULL (its reference
 * dropped) on failure.
 */
bt_field_class *kbt_fc_enum_complete(bt_field_class *fc, unsigned int bits,
				     int is_signed);
bt_field_class *kbt_fc_enum_labels(bt_trace_class *tc, unsigned int bits,
				   const char *const *labels,
				   const uint64_t *values, unsigned int n);
int kbt_struct_add(bt_field_class *st, const char *name, bt_field_class *m);

/*
 * kbt_string_set() - set string field @f to @s (@n bytes, or up to its
 * NUL) with control bytes and invalid UTF-8 escaped (kfd_text_clean()):
 * what a trace holds must not reach babeltrace2's terminal raw.
 * Return: 0 or -1.
 */
int kbt_string_set(bt_field *f, const char *s, size_t n);

/* ---- fc_names.c: values named by the decoder's tables ---- */

/* kbt_fc_errno() - an err field: errno names, "OK" for 0; NULL. */
bt_field_class *kbt_fc_errno(bt_trace_class *tc);

struct kbt_plan;

/*
 * kbt_flag_names_add() - after member @name of @st, filled from @f in
 * @image, the string member "<name>_names" with the names of the bits set
 * when @f is a flags field with a name table (else nothing), and its op in
 * @p. Return: 0, or -1.
 */
int kbt_flag_names_add(bt_trace_class *tc, struct kbt_plan *p,
		       bt_field_class *st, const struct kfd_field *f,
		       const char *name, uint8_t image);

/* kbt_flag_names_set() - fill such a member for the value @v; 0 or -1. */
int kbt_flag_names_set(bt_field *m, const struct kfd_field *f, uint64_t v);

/*
 * kbt_sys_flag_names_set() - set string member @member of @payload to libc
 * flags @flags as dump names them (open flags, mmap prot and flags).
 * Return: 0, or -1.
 */
int kbt_sys_flag_names_set(bt_field *payload, uint64_t member,
			   enum kfd_sys_flags which, int flags);

/*
 * kbt_struct_add_unique() - append @m (its reference taken) to @st as
 * @name, or when that is taken as the first free kc_field_name_nth()
 * candidate ("_2", "_3", ...). Return: 0, or -1.
 */
int kbt_struct_add_unique(bt_field_class *st, const char *name,
			  bt_field_class *m);
/*
 * kbt_struct_add_field() - the same for a schema field in an event's
 * payload: the names of the call's own members (kc_field_name_reserved())
 * count as taken, as in the lttng provider.
 */
int kbt_struct_add_field(bt_field_class *st, const char *name,
			 bt_field_class *m);

/* ---- ioctl_class.c / ioctl_fill.c ---- */

/* kbt_plan_add() - a new zeroed op at the end of @p, or NULL. */
struct kbt_op *kbt_plan_add(struct kbt_plan *p);

/*
 * kbt_ioctl_class_build() - the event class of one schema row: its payload
 * field class and its fill plan.
 *
 * Return: 0, or -1.
 */
int kbt_ioctl_class_build(struct kbt_input *in, struct kbt_ioctl_class *ic);

void kbt_ioctl_class_release(struct kbt_ioctl_class *ic);

/* Fields cut to the bounds above, for the iterator's final report. */
struct kbt_cuts {
	uint64_t fields;	/* fields cut */
	uint64_t first_seq;	/* the record of the first */
	uint64_t max_len;	/* the largest original length, in bytes */
};

/* kbt_cut() - count one field of @rec cut from @len bytes. */
void kbt_cut(struct kbt_cuts *c, const struct kt_record *rec, uint64_t len);

/* Per-iterator memory of allocations, for derived fields. */
struct kbt_bo_map;

struct kbt_bo_map *kbt_bo_map_new(void);
void kbt_bo_map_free(struct kbt_bo_map *m);

/*
 * kbt_ioctl_fill() - fill the payload of an event of @ic from @rec;
 * buffers past KBT_MAX_BUF_ELEMS are cut (counted in @cuts).
 *
 * Return: 0, or -1 when memory ran out.
 */
int kbt_ioctl_fill(const struct kbt_ioctl_class *ic, bt_field *payload,
		   const struct kt_record *rec, struct kbt_bo_map *bos,
		   struct kbt_cuts *cuts);

/* ---- events.c: the fixed event classes and their payloads ---- */

/* kbt_fixed_class() - create event class @which in @sc, or NULL. */
bt_event_class *kbt_fixed_class(bt_stream_class *sc, enum kbt_fixed_ec which);

/* Fill a payload of class @which (or of kfd:unknown_ioctl); 0 or -1. */

int kbt_fill_fixed(enum kbt_fixed_ec which, bt_field *payload,
		   const struct kt_record *rec, struct kbt_cuts *cuts);
int kbt_fill_unknown_ioctl(bt_field *payload, const struct kt_record *rec);

/*
 * kbt_fill_call_begin() - the payload of kfd:call_begin for the call @rec
 * (an ioctl or an API call) named @name; @clock_off_ns is the clock class's
 * offset from its origin, so that begin_ns and end_ns are in the time base
 * of event timestamps (what Trace Compass's futureTime compares).
 * Return: 0, or -1.
 */
int kbt_fill_call_begin(bt_field *payload, const struct kt_record *rec,
			const char *name, int64_t clock_off_ns);

/* ---- reorder.c ---- */

/* A record copied out of the reader, ordered by (ts, seq, ordinal). */
struct kbt_held {
	uint64_t ts;			/* event time */
	uint64_t ord;			/* file order */
	size_t bytes;
	int begin;			/* the entry of call rec (kbt_begin_clone) */
	/* Last: its pointers reach into the rest of the same allocation
	 * (kt_record_clone_after()). */
	struct kt_record rec;
};

/*
 * Held records in time order: records that arrive in order (the common
 * case: one thread, or one thread's burst) queue in a FIFO; the others go
 * to a min-heap. The oldest is the older of the two heads.
 */
struct kbt_heap {
	struct kt_heap heap;	/* by ts, then ord: kfdtrace/reorder.h's */
	struct kbt_held **q;	/* FIFO ring */
	size_t qhead, qlen, qcap;
	size_t bytes;		/* held, both */
};

/* kbt_record_clone() - a deep copy of @rec in one allocation, or NULL. */
struct kbt_held *kbt_record_clone(const struct kt_record *rec);
/*
 * kbt_begin_clone() - the entry event of the call @rec (an ioctl or an API
 * call), stamped with its entry time: a copy of the record's scalar members
 * (buffers and argument strings are not kept) and of an API call's name.
 * Return: the copy, or NULL when out of memory.
 */
struct kbt_held *kbt_begin_clone(const struct kt_record *rec);
int kbt_heap_push(struct kbt_heap *h, struct kbt_held *x);
struct kbt_held *kbt_heap_pop(struct kbt_heap *h);
const struct kbt_held *kbt_heap_min(const struct kbt_heap *h);
void kbt_heap_free(struct kbt_heap *h);

/* kbt_event_time() - the time an event is stamped with (see iter.c). */
uint64_t kbt_event_time(const struct kt_record *rec);

/* ---- iter.c ---- */

bt_message_iterator_class_initialize_method_status
kbt_iter_init(bt_self_message_iterator *self,
	      bt_self_message_iterator_configuration *cfg,
	      bt_self_component_port_output *port);
void kbt_iter_finalize(bt_self_message_iterator *self);
bt_message_iterator_class_next_method_status
kbt_iter_next(bt_self_message_iterator *self, bt_message_array_const msgs,
	      uint64_t capacity, uint64_t *count);

/* ---- seek.c: the iterator's seek methods (a new message sequence) ---- */

bt_message_iterator_class_seek_beginning_method_status
kbt_iter_seek_beginning(bt_self_message_iterator *self);
bt_message_iterator_class_can_seek_beginning_method_status
kbt_iter_can_seek_beginning(bt_self_message_iterator *self, bt_bool *can);
bt_message_iterator_class_seek_ns_from_origin_method_status
kbt_iter_seek_ns_from_origin(bt_self_message_iterator *self,
			     int64_t ns_from_origin);
bt_message_iterator_class_can_seek_ns_from_origin_method_status
kbt_iter_can_seek_ns_from_origin(bt_self_message_iterator *self,
				 int64_t ns_from_origin, bt_bool *can);

/* Messages at or above the component's level go to stderr. */
#define kbt_log(src, lvl, ...)						\
	do {								\
		if ((src)->log_level <= (lvl)) {			\
			fprintf(stderr, "kfdtrace: " __VA_ARGS__);	\
			fputc('\n', stderr);				\
		}							\
	} while (0)

#endif /* KBT_H */

/* SPDX-License-Identifier: MIT */
/*
 * The ioctl schema: one table row per KFD (and amdgpu DRM) ioctl.
 *
 * This is the only place that knows what an ioctl's argument bytes mean.
 * The decoder, recorder, exporters, replayer and simulator all read it; none
 * of them hard-code field offsets. A row describes the argument struct
 * (fields with offset, width, direction and role), the indirect buffers the
 * struct points at and how their lengths follow from other fields, and the
 * ABI minor the ioctl appeared in.
 *
 * Lookups are per file kind: KFD's ioctl type byte 'K' is shared with
 * console ioctls, so a request code alone never identifies an ioctl.
 */
#ifndef KFDTRACE_SCHEMA_H
#define KFDTRACE_SCHEMA_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#ifdef __cplusplus
extern "C" {
#endif

/* What kind of device file an fd refers to. Values are stored in traces. */
enum kfd_file_kind {
	KFD_FILE_UNKNOWN = 0,
	KFD_FILE_KFD = 1,	/* /dev/kfd */
	KFD_FILE_RENDER = 2,	/* /dev/dri/renderD* (amdgpu) */
	KFD_FILE_KIND_COUNT
};

/* Data direction of a field or buffer, seen from user space. */
enum kfd_dir {
	KFD_DIR_NONE = 0,
	KFD_DIR_IN = 1,		/* user -> kernel */
	KFD_DIR_OUT = 2,	/* kernel -> user */
	KFD_DIR_INOUT = 3,
};

/*
 * What a value means. The replayer maps values by role (handles, gpu_ids,
 * ids, offsets, fds); the decoder prints them by role. Stored in no file:
 * numbers may change between versions.
 */
enum kfd_role {
	KFD_ROLE_NONE = 0,	/* plain number, printed in decimal */
	KFD_ROLE_HEX,		/* plain number, printed in hex */
	KFD_ROLE_PAD,		/* padding/reserved; printed only when non-zero */
	KFD_ROLE_HANDLE,	/* memory handle: gpu_id << 32 | idr */
	KFD_ROLE_GPU_ID,
	KFD_ROLE_QUEUE_ID,
	KFD_ROLE_EVENT_ID,
	KFD_ROLE_EVENT_SLOT,	/* slot index in the events page */
	KFD_ROLE_FD,
	KFD_ROLE_GPU_VA,
	KFD_ROLE_CPU_ADDR,	/* a user-space address the kernel keeps */
	KFD_ROLE_PTR,		/* user pointer to an indirect buffer */
	KFD_ROLE_MMAP_OFFSET,	/* offset for mmap() on /dev/kfd or render node */
	KFD_ROLE_DOORBELL_OFFSET,
	KFD_ROLE_SIZE,		/* a byte count */
	KFD_ROLE_COUNT,		/* an element count (sizes a buffer) */
	KFD_ROLE_FLAGS,		/* bit set; names from the field's name table */
	KFD_ROLE_ENUM,		/* one value; names from the field's name table */
	KFD_ROLE_VERSION,
	KFD_ROLE_TIMEOUT,	/* milliseconds */
	KFD_ROLE_CLOCK,		/* a clock counter or frequency */
	KFD_ROLE_GEM_HANDLE,	/* a DRM GEM handle on the render node */
	KFD_ROLE_PID,
	KFD_ROLE_STRING,	/* fixed-size inline char array (width bytes) */
	KFD_ROLE_BYTES,		/* fixed-size inline opaque bytes (width bytes) */
	KFD_ROLE_COUNT_MAX
};

/*
 * The objects calls create and end. A row that creates or ends one says
 * which (kfd_ioctl_desc.creates, .ends) and marks the field that names it
 * (KFD_ATTR_OBJ); the replayer, emit-c and the order checks read these
 * columns instead of knowing the calls by name. Stored in no file.
 */
enum kfd_obj {
	KFD_OBJ_NONE = 0,
	KFD_OBJ_BUFFER,		/* GPU memory, named by a memory handle */
	KFD_OBJ_QUEUE,		/* a user queue, by its queue id */
	KFD_OBJ_EVENT,		/* an event, by its event id */
	KFD_OBJ_GEM,		/* a GEM object, by a handle on its render node */
	KFD_OBJ_DMABUF,		/* a dma-buf, by a file descriptor */
	KFD_OBJ_SHARE,		/* an IPC share handle (ROCm kernels) */
	KFD_OBJ_FD,		/* another file an ioctl opens (SMI events) */
	KFD_OBJ_PROCESS,	/* the KFD process of the file (no field) */
	KFD_OBJ_COUNT
};

/*
 * What a field is of the object its row creates, ends or acts on: the
 * fields the replayer reads to model objects (kfd_field.attr). The role
 * says what kind of value a field holds; the attribute says which of the
 * object's values it is, where a row has several of one role (a queue's
 * ring, read and write pointers are all GPU_VA). Stored in no file.
 */
enum kfd_attr {
	KFD_ATTR_NONE = 0,
	KFD_ATTR_OBJ,		/* names the object the row creates, ends or acts on */
	KFD_ATTR_SOURCE,	/* names the object it is made from (kfd_ioctl_desc.source) */
	KFD_ATTR_GPU,		/* the GPU it lives on */
	KFD_ATTR_VA,		/* its address */
	KFD_ATTR_SIZE,		/* its size in bytes */
	KFD_ATTR_FLAGS,		/* its flags (memory domains) */
	KFD_ATTR_TYPE,		/* its type */
	KFD_ATTR_MMAP_OFFSET,	/* its mmap offset (in: a userptr's CPU address) */
	KFD_ATTR_DOORBELL,	/* a queue's doorbell offset */
	KFD_ATTR_RING,		/* a queue's ring */
	KFD_ATTR_RING_SIZE,
	KFD_ATTR_RPTR,		/* a queue's read pointer */
	KFD_ATTR_WPTR,		/* a queue's write pointer */
	KFD_ATTR_EOP,		/* a queue's end-of-pipe buffer */
	KFD_ATTR_EOP_SIZE,
	KFD_ATTR_CTX,		/* a queue's context save area */
	KFD_ATTR_CTX_SIZE,
	KFD_ATTR_EVENT_PAGE,	/* the events page an event's creation names */
	KFD_ATTR_TRIGGER,	/* an event's trigger data */
	KFD_ATTR_AUTO_RESET,	/* whether an event resets when a wait takes it */
	KFD_ATTR_SLOT,		/* an event's slot in the events page */
	KFD_ATTR_TIMEOUT,	/* how long a wait waits */
	KFD_ATTR_RESULT,	/* how a wait ended */
	KFD_ATTR_WAIT_ALL,	/* a wait for all of its events, not any */
	KFD_ATTR_OP,		/* the operation (or query) the call asks for */
	KFD_ATTR_COUNT,		/* how many elements follow (attributes, nodes) */
	KFD_ATTR_VALUE,		/* an attribute element's value */
	KFD_ATTR_VERSION,	/* the ABI minor version */
	KFD_ATTR_COUNT_MAX
};

/* One name in a flag or enum table. For flags, value is a bit mask. */
struct kfd_name {
	uint64_t value;
	const char *name;
};

struct kfd_name_table {
	const char *name;		/* table name, e.g. "alloc_flags" */
	const struct kfd_name *entries;
	unsigned int count;
};

/*
 * One field of an argument struct (or of a buffer element).
 *
 * A field may belong to one arm of a union that is chosen by another field
 * (e.g. DBG_TRAP's op, AMDGPU_INFO's query): when select >= 0, the field is
 * present only if the field at index 'select' equals select_value.
 */
struct kfd_field {
	const char *name;
	uint16_t offset;
	uint16_t width;			/* bytes: 1, 2, 4 or 8; any for STRING/BYTES */
	uint8_t dir;			/* enum kfd_dir */
	uint8_t role;			/* enum kfd_role */
	uint8_t is_signed;
	uint8_t since_minor;		/* 0, or the KFD ABI minor that added it */
	int16_t select;			/* index of the selector field, or -1 */
	uint8_t attr;			/* enum kfd_attr */
	uint64_t select_value;
	const struct kfd_name_table *names;	/* FLAGS/ENUM, else NULL */
};

/* The layout of a struct: an argument struct or a buffer element. */
struct kfd_struct_desc {
	const char *name;		/* C struct name without "struct " */
	uint32_t size;
	const struct kfd_field *fields;
	unsigned int nfields;
};

/* How an indirect buffer's length follows from the argument fields. */
enum kfd_len_kind {
	/* count_field elements of elem_size bytes */
	KFD_LEN_COUNT,
	/* count_field is a number of bits; (bits + 31) / 32 u32 words */
	KFD_LEN_BITS32,
	/*
	 * count_field is the capacity on input and the filled count on
	 * output: the before-image has capacity elements, the after-image
	 * the filled count (bounded by the capacity).
	 */
	KFD_LEN_CAPACITY,
	/* count_field is a byte size (elem_size is 1) */
	KFD_LEN_BYTES,
	/*
	 * An inline array trailing the fixed struct inside the argument
	 * bytes; its size rides in the request code's size bits (SVM).
	 * No pointer field.
	 */
	KFD_LEN_TRAILING,
	/* A fixed length of elem_size bytes */
	KFD_LEN_FIXED,
	/*
	 * As CAPACITY, but the elements stride by the value of the field
	 * stride_field (a size the caller negotiates, DBG_TRAP's snapshot
	 * entry_size); elem_size is the newest element's size.
	 */
	KFD_LEN_STRIDED,
};

/* An indirect buffer that a pointer field of the argument struct names. */
struct kfd_indirect {
	const char *name;
	int16_t ptr_field;		/* index in the row's fields, -1 if TRAILING */
	int16_t count_field;		/* index of the length field, -1 if FIXED */
	uint32_t elem_size;
	uint8_t len_kind;		/* enum kfd_len_kind */
	uint8_t dir;			/* enum kfd_dir */
	/* Present only when fields[select] == select_value (select >= 0). */
	int16_t select;
	uint64_t select_value;
	/* Element layout, decoded per element when set. */
	const struct kfd_struct_desc *elem;
	/* KFD_LEN_STRIDED only: index of the field holding the stride. */
	int16_t stride_field;
};

/* A request code/size variant: CREATE_QUEUE is 88 bytes before 1.17. */
struct kfd_size_variant {
	uint32_t request;
	uint16_t size;
	uint8_t since_minor;		/* first ABI minor using this size */
	uint8_t until_minor;		/* last ABI minor using it, 0xff: current */
};

/*
 * How a call relates to the device's free memory, which is shared by every
 * process on the device: a replay cannot compare an answer that another
 * thread's or process's allocation raced (replay.md).
 */
enum kfd_free_mem {
	KFD_FREE_MEM_NONE = 0,
	KFD_FREE_MEM_READS,	/* answers with it (AVAILABLE_MEMORY) */
	KFD_FREE_MEM_CHANGES,	/* changes it when it succeeds (allocations,
				 * frees, imports of memory) */
};

/* One ioctl. */
struct kfd_ioctl_desc {
	const char *name;		/* "ALLOC_MEMORY_OF_GPU" */
	const char *event_name;		/* "alloc_memory_of_gpu" (lttng, JSON) */
	uint8_t file_kind;		/* enum kfd_file_kind */
	uint8_t type;			/* ioctl type byte: 'K' or 'd' */
	uint16_t nr;
	uint32_t request;		/* the current request code */
	uint8_t dir;			/* _IOC direction as enum kfd_dir */
	uint8_t since_minor;		/* KFD ABI minor it appeared in (KFD only) */
	uint8_t rocm_only;		/* ROCm DKMS kernels only (0x80..0x87) */
	uint8_t deprecated;		/* kept for decoding, answers EPERM/EINVAL */
	/*
	 * The replayer never reissues it: the kernel would act on memory or
	 * state outside the replayed objects (copies between arbitrary
	 * address ranges or processes, checkpoint/restore of whole
	 * processes, file I/O into buffers). Counted as not replayed.
	 */
	uint8_t no_replay;
	uint8_t free_mem;		/* enum kfd_free_mem */
	/*
	 * The object a successful call creates or ends (enum kfd_obj), named
	 * by the argument field whose attr is KFD_ATTR_OBJ, and for a created
	 * one the object it is made from (imports, exports), named by the
	 * KFD_ATTR_SOURCE field. CREATE_PROCESS creates KFD_OBJ_PROCESS and
	 * has no field. A call whose op decides what it makes (CRIU_OP's
	 * restore) says none. Each (creates, source) pair and each ends
	 * value belongs to one row (tests/schema/test_schema_objects.c).
	 */
	uint8_t creates;
	uint8_t source;
	uint8_t ends;
	const struct kfd_struct_desc *args;
	const struct kfd_size_variant *variants;
	unsigned int nvariants;
	const struct kfd_indirect *bufs;
	unsigned int nbufs;
	/*
	 * 0, or the one _IOC_SIZE this row answers for: a second row of an
	 * nr whose other layout is told apart by size alone (the 40-byte
	 * PROFILER). Requests of other sizes resolve to the nr's first row.
	 */
	uint16_t only_size;
};

/* The KFD ABI major/minor this schema describes up to (1.23 + ROCm rows). */
#define KFD_SCHEMA_MAJOR 1
#define KFD_SCHEMA_MINOR 23

/*
 * kfd_schema_lookup() - find the row for a request on a file kind.
 * @kind:	the file the ioctl was issued on
 * @request:	the full request code (direction, size, type, nr)
 *
 * KFD rows match on type 'K' and nr; any size is accepted (the kernel copies
 * the caller's _IOC_SIZE), so old struct sizes and SVM's trailing attributes
 * resolve to the same row. A row with only_size set takes the requests of
 * exactly that size from the nr's first row. Render-node rows match type
 * and nr the same way.
 *
 * Return: the row, or NULL for an unknown request (decode it as raw bytes).
 */
const struct kfd_ioctl_desc *
kfd_schema_lookup(enum kfd_file_kind kind, unsigned long request);

/*
 * kfd_schema_by_name() - find a row by name ("ALLOC_MEMORY_OF_GPU") or
 * event name ("alloc_memory_of_gpu"), case-insensitively.
 *
 * Return: the row, or NULL.
 */
const struct kfd_ioctl_desc *kfd_schema_by_name(const char *name);

/*
 * kfd_schema_rows() - iterate the table.
 * @count:	set to the number of rows
 *
 * Return: the array of rows (KFD rows first, then render-node rows).
 */
const struct kfd_ioctl_desc *kfd_schema_rows(unsigned int *count);

/*
 * kfd_schema_field() - find a field of a row's argument struct by name.
 *
 * Return: its index in desc->args->fields, or -1.
 */
int kfd_schema_field(const struct kfd_ioctl_desc *desc, const char *name);

/*
 * kfd_schema_attr() - find the field of a struct description whose attr is
 * @attr (enum kfd_attr, not KFD_ATTR_NONE).
 *
 * Return: the first such field, or NULL (also for a NULL @sd).
 */
const struct kfd_field *kfd_schema_attr(const struct kfd_struct_desc *sd,
					unsigned int attr);

/* kfd_attr_name() - "obj", "gpu", "ring_size", ...; "?" for unknown ones. */
const char *kfd_attr_name(enum kfd_attr attr);

/* kfd_obj_name() - "buffer", "queue", ...; "none" or "?" otherwise. */
const char *kfd_obj_name(enum kfd_obj obj);

/*
 * kfd_obj_role() - the role of the field that names an object of @obj
 * (KFD_ROLE_HANDLE for a buffer, ...); KFD_ROLE_NONE for the process and
 * unknown kinds.
 */
enum kfd_role kfd_obj_role(enum kfd_obj obj);

/*
 * kfd_field_get() - read a field's value from argument bytes.
 * @f:		the field
 * @bytes:	argument bytes
 * @len:	how many argument bytes there are
 * @out:	the value, zero- or sign-extended to 64 bits
 *
 * Return: 0, or -1 when the field does not lie inside @len bytes.
 */
int kfd_field_get(const struct kfd_field *f, const void *bytes, size_t len,
		  uint64_t *out);

/*
 * kfd_field_load() - kfd_field_get() inline, for callers that read fields of
 * every record (the replayer), where the call costs more than the load.
 * Same arguments and answers; kfd_field_get() is this function.
 */
static inline int
kfd_field_load(const struct kfd_field *f, const void *bytes, size_t len,
	       uint64_t *out)
{
	const unsigned char *p;
	uint64_t v;

	if (!f || !bytes || !out || (size_t)f->offset + f->width > len)
		return -1;
	p = (const unsigned char *)bytes + f->offset;
	switch (f->width) {
	case 1: {
		uint8_t x;

		memcpy(&x, p, sizeof(x));
		v = f->is_signed ? (uint64_t)(int64_t)(int8_t)x : x;
		break;
	}
	case 2: {
		uint16_t x;

		memcpy(&x, p, sizeof(x));
		v = f->is_signed ? (uint64_t)(int64_t)(int16_t)x : x;
		break;
	}
	case 4: {
		uint32_t x;

		memcpy(&x, p, sizeof(x));
		v = f->is_signed ? (uint64_t)(int64_t)(int32_t)x : x;
		break;
	}
	case 8:
		memcpy(&v, p, sizeof(v));
		break;
	default:
		/* STRING/BYTES fields have no single value. */
		return -1;
	}
	*out = v;
	return 0;
}

/*
 * kfd_field_set() - write a field's value into argument bytes (replayer
 * remapping). Truncates @value to the field width.
 *
 * Return: 0, or -1 when the field does not lie inside @len bytes.
 */
int kfd_field_set(const struct kfd_field *f, void *bytes, size_t len,
		  uint64_t value);

/*
 * kfd_field_present() - whether a field applies, given its union selector.
 *
 * Return: 1 if the field has no selector or its selector matches, else 0.
 */
int kfd_field_present(const struct kfd_struct_desc *sd,
		      const struct kfd_field *f, const void *bytes, size_t len);

/*
 * kfd_indirect_len() - the byte length of an indirect buffer.
 * @desc:	the row
 * @buf:	one of desc->bufs
 * @args:	argument bytes (before the call for @after == 0, after it for 1)
 * @args_len:	their length (the request's _IOC_SIZE)
 * @after:	0 for the before-image, 1 for the after-image
 * @cap:	bound on the result; larger lengths are clamped and flagged
 * @len:	the length in bytes
 *
 * Return: 0 on success; 1 if the buffer is absent (NULL pointer, selector
 * not matching); -1 if the length exceeded @cap (then *len == @cap).
 */
int kfd_indirect_len(const struct kfd_ioctl_desc *desc,
		     const struct kfd_indirect *buf, const void *args,
		     size_t args_len, int after, size_t cap, size_t *len);

/*
 * kfd_indirect_stride() - the distance between a buffer's elements.
 * @desc:	the row
 * @buf:	one of desc->bufs
 * @args:	argument bytes; pass the before-image: a STRIDED buffer's
 *		stride is what the caller asked, the kernel may write back less
 * @args_len:	their length
 *
 * Return: the stride field's value for a KFD_LEN_STRIDED buffer whose
 * field is readable and non-zero, else buf->elem_size.
 */
size_t kfd_indirect_stride(const struct kfd_ioctl_desc *desc,
			   const struct kfd_indirect *buf, const void *args,
			   size_t args_len);

/*
 * kfd_indirect_ptr() - the user address of an indirect buffer.
 *
 * Return: the pointer field's value, or 0 for TRAILING/absent buffers.
 */
uint64_t kfd_indirect_ptr(const struct kfd_ioctl_desc *desc,
			  const struct kfd_indirect *buf, const void *args,
			  size_t args_len);

/* kfd_name_lookup() - the name of an enum value, or NULL. */
const char *kfd_name_lookup(const struct kfd_name_table *t, uint64_t value);

/* kfd_role_name() - a short name for a role ("handle", "gpu_id", ...). */
const char *kfd_role_name(enum kfd_role role);

/*
 * kfd_role_is_hex() - whether values of @role read best in hex
 * (addresses, offsets, ids that carry bits, flags, padding).
 */
int kfd_role_is_hex(enum kfd_role role);

/*
 * What a role's values are from one run to another: the one classification
 * that replay (translating captured values, verifying results) and
 * `kfdtrace diff` (corresponding two traces' values) both read.
 *
 * enum kfd_space - which values a value corresponds to in another run:
 * two runs' values of one space are bound to each other; a value of
 * KFD_SPACE_NONE means the same in every run.
 */
enum kfd_space {
	KFD_SPACE_NONE = 0,
	KFD_SPACE_HANDLE,	/* memory handles */
	KFD_SPACE_GPU,		/* gpu_ids */
	KFD_SPACE_QUEUE,	/* queue ids */
	KFD_SPACE_EVENT,	/* event ids */
	KFD_SPACE_SLOT,		/* event slots */
	KFD_SPACE_FD,		/* file descriptors */
	KFD_SPACE_OFFSET,	/* mmap and doorbell offsets */
	KFD_SPACE_ADDR,		/* GPU VAs and kept CPU addresses: one space with SVM */
	KFD_SPACE_GEM,		/* GEM handles */
	KFD_SPACE_PID,
	KFD_SPACE_COUNT
};

/* kfd_role_flags() bits. */
#define KFD_RC_ISSUED	0x01	/* the kernel picks the value and hands it out
				 * (handles, ids, slots, fds, offsets): learned
				 * from results */
#define KFD_RC_LOCAL	0x02	/* names the machine's or process's own thing
				 * (gpu_ids, CPU addresses, pids): another run
				 * has its own, known before the call */
#define KFD_RC_VOLATILE	0x04	/* differs every run and maps to nothing
				 * (clocks, timeouts) */
#define KFD_RC_POINTER	0x08	/* a user pointer: only whether it is NULL
				 * carries over */
#define KFD_RC_RESERVED	0x10	/* padding */

/* kfd_role_space() - the space of @role's values; KFD_SPACE_NONE if unknown. */
enum kfd_space kfd_role_space(enum kfd_role role);

/* kfd_role_flags() - @role's KFD_RC_* bits; 0 for an unknown role. */
unsigned int kfd_role_flags(enum kfd_role role);

/*
 * kfd_role_status_bits() - the bits of a value of @role that carry status,
 * not identity: the debugger's error and invalid bits on queue ids. Two
 * values name the same object when they agree outside these bits. 0 for
 * roles without status bits.
 */
uint32_t kfd_role_status_bits(enum kfd_role role);

/* kfd_file_kind_name() - "kfd", "render" or "unknown". */
const char *kfd_file_kind_name(enum kfd_file_kind kind);

#ifdef __cplusplus
}
#endif

#endif /* KFDTRACE_SCHEMA_H */

/* SPDX-License-Identifier: MIT */
/*
 * The schema API: one table assembled from the family files, O(1) lookup by
 * (file kind, ioctl nr), field access and indirect-buffer lengths.
 */
#include <pthread.h>
#include <string.h>
#include <strings.h>

#include "schema_priv.h"

/* Enough for every row; ks_init() refuses to overflow it. */
#define KS_MAX_ROWS	96

static struct kfd_ioctl_desc ks_rows[KS_MAX_ROWS];
static unsigned int ks_nrows;
/* Row index + 1 by ioctl nr, per file kind; 0 = no row. */
static uint8_t ks_kfd_index[256];
static uint8_t ks_drm_index[256];
/* KFD rows with only_size (row index + 1), and which nrs have one. */
#define KS_MAX_SIZED	4
static uint8_t ks_kfd_sized[KS_MAX_SIZED];
static unsigned int ks_nsized;
static uint8_t ks_kfd_has_sized[256];
static pthread_once_t ks_once = PTHREAD_ONCE_INIT;

static void
ks_append(const struct kfd_ioctl_desc *rows, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n && ks_nrows < KS_MAX_ROWS; i++) {
		const struct kfd_ioctl_desc *r = &rows[i];
		uint8_t *index = r->file_kind == KFD_FILE_KFD ? ks_kfd_index :
				 ks_drm_index;

		ks_rows[ks_nrows] = *r;
		if (r->only_size && r->file_kind == KFD_FILE_KFD) {
			/* Found by exact size only; the nr's index stays with
			 * its first row (tests prove there is one). */
			if (ks_nsized < KS_MAX_SIZED) {
				ks_kfd_sized[ks_nsized++] = (uint8_t)(ks_nrows + 1);
				ks_kfd_has_sized[r->nr & 0xff] = 1;
			}
			ks_nrows++;
			continue;
		}
		/* The first row for an nr wins; tests prove there are no twins. */
		if (!index[r->nr & 0xff])
			index[r->nr & 0xff] = (uint8_t)(ks_nrows + 1);
		ks_nrows++;
	}
}

static void
ks_build(void)
{
	/* KFD rows in nr order of their families, then the render node. */
	ks_append(ks_rows_misc, ks_nrows_misc);
	ks_append(ks_rows_queues, ks_nrows_queues);
	ks_append(ks_rows_events, ks_nrows_events);
	ks_append(ks_rows_memory, ks_nrows_memory);
	ks_append(ks_rows_svm, ks_nrows_svm);
	ks_append(ks_rows_debug, ks_nrows_debug);
	ks_append(ks_rows_profiler, ks_nrows_profiler);
	ks_append(ks_rows_rocm, ks_nrows_rocm);
	ks_append(ks_rows_drm, ks_nrows_drm);
}

static inline void
ks_init(void)
{
	pthread_once(&ks_once, ks_build);
}

const struct kfd_ioctl_desc *
kfd_schema_lookup(enum kfd_file_kind kind, unsigned long request)
{
	unsigned int type = (request >> _IOC_TYPESHIFT) & _IOC_TYPEMASK;
	unsigned int nr = (request >> _IOC_NRSHIFT) & _IOC_NRMASK;
	unsigned int i;

	ks_init();
	switch (kind) {
	case KFD_FILE_KFD:
		if (type != KFD_ABI_IOCTL_BASE)
			return NULL;
		if (ks_kfd_has_sized[nr]) {
			unsigned int size = KFD_ABI_IOC_SIZE(request), k;

			for (k = 0; k < ks_nsized; k++) {
				const struct kfd_ioctl_desc *r =
					&ks_rows[ks_kfd_sized[k] - 1];

				if (r->nr == nr && r->only_size == size)
					return r;
			}
		}
		i = ks_kfd_index[nr];
		break;
	case KFD_FILE_RENDER:
		if (type != KFD_DRM_IOCTL_BASE)
			return NULL;
		i = ks_drm_index[nr];
		break;
	default:
		return NULL;
	}
	return i ? &ks_rows[i - 1] : NULL;
}

const struct kfd_ioctl_desc *
kfd_schema_by_name(const char *name)
{
	unsigned int i;

	if (!name)
		return NULL;
	ks_init();
	for (i = 0; i < ks_nrows; i++) {
		if (!strcasecmp(ks_rows[i].name, name) ||
		    !strcasecmp(ks_rows[i].event_name, name))
			return &ks_rows[i];
	}
	return NULL;
}

const struct kfd_ioctl_desc *
kfd_schema_rows(unsigned int *count)
{
	ks_init();
	if (count)
		*count = ks_nrows;
	return ks_rows;
}

int
kfd_schema_field(const struct kfd_ioctl_desc *desc, const char *name)
{
	unsigned int i;

	if (!desc || !desc->args || !name)
		return -1;
	for (i = 0; i < desc->args->nfields; i++) {
		if (!strcmp(desc->args->fields[i].name, name))
			return (int)i;
	}
	return -1;
}

const struct kfd_field *
kfd_schema_attr(const struct kfd_struct_desc *sd, unsigned int attr)
{
	unsigned int i;

	for (i = 0; sd && attr != KFD_ATTR_NONE && i < sd->nfields; i++)
		if (sd->fields[i].attr == attr)
			return &sd->fields[i];
	return NULL;
}

static const char *const ks_attr_names[KFD_ATTR_COUNT_MAX] = {
	[KFD_ATTR_NONE] = "none",
	[KFD_ATTR_OBJ] = "obj",
	[KFD_ATTR_SOURCE] = "source",
	[KFD_ATTR_GPU] = "gpu",
	[KFD_ATTR_VA] = "va",
	[KFD_ATTR_SIZE] = "size",
	[KFD_ATTR_FLAGS] = "flags",
	[KFD_ATTR_TYPE] = "type",
	[KFD_ATTR_MMAP_OFFSET] = "mmap_offset",
	[KFD_ATTR_DOORBELL] = "doorbell",
	[KFD_ATTR_RING] = "ring",
	[KFD_ATTR_RING_SIZE] = "ring_size",
	[KFD_ATTR_RPTR] = "rptr",
	[KFD_ATTR_WPTR] = "wptr",
	[KFD_ATTR_EOP] = "eop",
	[KFD_ATTR_EOP_SIZE] = "eop_size",
	[KFD_ATTR_CTX] = "ctx",
	[KFD_ATTR_CTX_SIZE] = "ctx_size",
	[KFD_ATTR_EVENT_PAGE] = "event_page",
	[KFD_ATTR_TRIGGER] = "trigger",
	[KFD_ATTR_AUTO_RESET] = "auto_reset",
	[KFD_ATTR_SLOT] = "slot",
	[KFD_ATTR_TIMEOUT] = "timeout",
	[KFD_ATTR_RESULT] = "result",
	[KFD_ATTR_WAIT_ALL] = "wait_all",
	[KFD_ATTR_OP] = "op",
	[KFD_ATTR_COUNT] = "count",
	[KFD_ATTR_VALUE] = "value",
	[KFD_ATTR_VERSION] = "version",
};

const char *
kfd_attr_name(enum kfd_attr attr)
{
	if ((unsigned int)attr >= KFD_ATTR_COUNT_MAX || !ks_attr_names[attr])
		return "?";
	return ks_attr_names[attr];
}

/* An object kind's name and the role of the field that names one. */
static const struct {
	const char *name;
	uint8_t role;
} ks_objs[KFD_OBJ_COUNT] = {
	[KFD_OBJ_NONE] = { "none", KFD_ROLE_NONE },
	[KFD_OBJ_BUFFER] = { "buffer", KFD_ROLE_HANDLE },
	[KFD_OBJ_QUEUE] = { "queue", KFD_ROLE_QUEUE_ID },
	[KFD_OBJ_EVENT] = { "event", KFD_ROLE_EVENT_ID },
	[KFD_OBJ_GEM] = { "gem", KFD_ROLE_GEM_HANDLE },
	[KFD_OBJ_DMABUF] = { "dmabuf", KFD_ROLE_FD },
	/* 32 opaque bytes the exporter hands to the importer. */
	[KFD_OBJ_SHARE] = { "share", KFD_ROLE_BYTES },
	[KFD_OBJ_FD] = { "fd", KFD_ROLE_FD },
	[KFD_OBJ_PROCESS] = { "process", KFD_ROLE_NONE },
};

const char *
kfd_obj_name(enum kfd_obj obj)
{
	return (unsigned int)obj < KFD_OBJ_COUNT ? ks_objs[obj].name : "?";
}

enum kfd_role
kfd_obj_role(enum kfd_obj obj)
{
	return (unsigned int)obj < KFD_OBJ_COUNT ?
		(enum kfd_role)ks_objs[obj].role : KFD_ROLE_NONE;
}

static int
ks_field_fits(const struct kfd_field *f, size_t len)
{
	return (size_t)f->offset + f->width <= len;
}

int
kfd_field_get(const struct kfd_field *f, const void *bytes, size_t len,
	      uint64_t *out)
{
	return kfd_field_load(f, bytes, len, out);
}

int
kfd_field_set(const struct kfd_field *f, void *bytes, size_t len,
	      uint64_t value)
{
	unsigned char *p;

	if (!f || !bytes || !ks_field_fits(f, len))
		return -1;
	p = (unsigned char *)bytes + f->offset;
	switch (f->width) {
	case 1: {
		uint8_t x = (uint8_t)value;

		memcpy(p, &x, sizeof(x));
		return 0;
	}
	case 2: {
		uint16_t x = (uint16_t)value;

		memcpy(p, &x, sizeof(x));
		return 0;
	}
	case 4: {
		uint32_t x = (uint32_t)value;

		memcpy(p, &x, sizeof(x));
		return 0;
	}
	case 8:
		memcpy(p, &value, sizeof(value));
		return 0;
	default:
		return -1;
	}
}

/* Whether fields[sel] reads as val; -1 selectors always match. */
static int
ks_selected(const struct kfd_struct_desc *sd, int sel, uint64_t val,
	    const void *bytes, size_t len)
{
	uint64_t v;

	if (sel < 0)
		return 1;
	if (!sd || (unsigned int)sel >= sd->nfields)
		return 0;
	if (kfd_field_get(&sd->fields[sel], bytes, len, &v))
		return 0;
	return v == val;
}

int
kfd_field_present(const struct kfd_struct_desc *sd, const struct kfd_field *f,
		  const void *bytes, size_t len)
{
	if (!f)
		return 0;
	return ks_selected(sd, f->select, f->select_value, bytes, len);
}

/* The field at index i of the row's args, or NULL when i is out of range. */
static const struct kfd_field *
ks_arg_field(const struct kfd_ioctl_desc *desc, int i)
{
	if (i < 0 || !desc->args || (unsigned int)i >= desc->args->nfields)
		return NULL;
	return &desc->args->fields[i];
}

size_t
kfd_indirect_stride(const struct kfd_ioctl_desc *desc,
		    const struct kfd_indirect *buf, const void *args,
		    size_t args_len)
{
	const struct kfd_field *sf;
	uint64_t v;

	if (!buf)
		return 0;
	if (buf->len_kind != KFD_LEN_STRIDED || !desc)
		return buf->elem_size;
	sf = ks_arg_field(desc, buf->stride_field);
	if (!sf || kfd_field_get(sf, args, args_len, &v) || !v)
		return buf->elem_size;
	return (size_t)v;
}

uint64_t
kfd_indirect_ptr(const struct kfd_ioctl_desc *desc,
		 const struct kfd_indirect *buf, const void *args,
		 size_t args_len)
{
	const struct kfd_field *pf;
	uint64_t ptr;

	if (!desc || !buf || !args || buf->len_kind == KFD_LEN_TRAILING)
		return 0;
	if (!ks_selected(desc->args, buf->select, buf->select_value, args, args_len))
		return 0;
	pf = ks_arg_field(desc, buf->ptr_field);
	if (!pf || kfd_field_get(pf, args, args_len, &ptr))
		return 0;
	return ptr;
}

int
kfd_indirect_len(const struct kfd_ioctl_desc *desc,
		 const struct kfd_indirect *buf, const void *args,
		 size_t args_len, int after, size_t cap, size_t *len)
{
	const struct kfd_field *cf;
	uint64_t count = 0, n;

	(void)after;	/* the count is read from whichever image is given */
	if (len)
		*len = 0;
	if (!desc || !buf || !args || !len)
		return 1;
	if (!ks_selected(desc->args, buf->select, buf->select_value, args, args_len))
		return 1;
	if (buf->len_kind != KFD_LEN_TRAILING && !kfd_indirect_ptr(desc, buf, args, args_len))
		return 1;

	if (buf->len_kind != KFD_LEN_FIXED) {
		cf = ks_arg_field(desc, buf->count_field);
		if (cf && kfd_field_get(cf, args, args_len, &count))
			return 1;
		if (!cf && buf->len_kind != KFD_LEN_TRAILING)
			return 1;
	}

	switch (buf->len_kind) {
	case KFD_LEN_COUNT:
	case KFD_LEN_CAPACITY:
		if (__builtin_mul_overflow(count, (uint64_t)buf->elem_size, &n))
			n = UINT64_MAX;
		break;
	case KFD_LEN_STRIDED:
		if (__builtin_mul_overflow(count,
			(uint64_t)kfd_indirect_stride(desc, buf, args, args_len), &n))
			n = UINT64_MAX;
		break;
	case KFD_LEN_BITS32:
		n = count > UINT64_MAX - 31 ? UINT64_MAX : (count + 31) / 32 * 4;
		break;
	case KFD_LEN_BYTES:
		n = count;
		break;
	case KFD_LEN_TRAILING: {
		/* Only what the request's size bits actually carried. */
		uint64_t avail = desc->args && args_len > desc->args->size ?
				 args_len - desc->args->size : 0;

		if (buf->count_field < 0)
			n = avail;
		else if (__builtin_mul_overflow(count, (uint64_t)buf->elem_size, &n))
			n = UINT64_MAX;
		if (n > avail)
			n = avail;
		break;
	}
	case KFD_LEN_FIXED:
		n = buf->elem_size;
		break;
	default:
		return 1;
	}

	if (n > cap) {
		*len = cap;
		return -1;
	}
	*len = (size_t)n;
	return 0;
}

const char *
kfd_name_lookup(const struct kfd_name_table *t, uint64_t value)
{
	unsigned int i;

	if (!t)
		return NULL;
	for (i = 0; i < t->count; i++) {
		if (t->entries[i].value == value)
			return t->entries[i].name;
	}
	return NULL;
}

static const char *const ks_role_names[KFD_ROLE_COUNT_MAX] = {
	[KFD_ROLE_NONE] = "none",
	[KFD_ROLE_HEX] = "hex",
	[KFD_ROLE_PAD] = "pad",
	[KFD_ROLE_HANDLE] = "handle",
	[KFD_ROLE_GPU_ID] = "gpu_id",
	[KFD_ROLE_QUEUE_ID] = "queue_id",
	[KFD_ROLE_EVENT_ID] = "event_id",
	[KFD_ROLE_EVENT_SLOT] = "event_slot",
	[KFD_ROLE_FD] = "fd",
	[KFD_ROLE_GPU_VA] = "gpu_va",
	[KFD_ROLE_CPU_ADDR] = "cpu_addr",
	[KFD_ROLE_PTR] = "ptr",
	[KFD_ROLE_MMAP_OFFSET] = "mmap_offset",
	[KFD_ROLE_DOORBELL_OFFSET] = "doorbell_offset",
	[KFD_ROLE_SIZE] = "size",
	[KFD_ROLE_COUNT] = "count",
	[KFD_ROLE_FLAGS] = "flags",
	[KFD_ROLE_ENUM] = "enum",
	[KFD_ROLE_VERSION] = "version",
	[KFD_ROLE_TIMEOUT] = "timeout",
	[KFD_ROLE_CLOCK] = "clock",
	[KFD_ROLE_GEM_HANDLE] = "gem_handle",
	[KFD_ROLE_PID] = "pid",
	[KFD_ROLE_STRING] = "string",
	[KFD_ROLE_BYTES] = "bytes",
};

const char *
kfd_role_name(enum kfd_role role)
{
	if ((unsigned int)role >= KFD_ROLE_COUNT_MAX || !ks_role_names[role])
		return "unknown";
	return ks_role_names[role];
}

/*
 * The schema's one answer to "what is this value in another run", and
 * which bits of it are status, not identity (ids the kernel writes back
 * with flags set above them).
 */
static const struct {
	uint8_t space;
	uint8_t flags;
	uint32_t status;
} ks_role_class[KFD_ROLE_COUNT_MAX] = {
	[KFD_ROLE_PAD] = { KFD_SPACE_NONE, KFD_RC_RESERVED },
	[KFD_ROLE_HANDLE] = { KFD_SPACE_HANDLE, KFD_RC_ISSUED },
	[KFD_ROLE_GPU_ID] = { KFD_SPACE_GPU, KFD_RC_LOCAL },
	/* SUSPEND/RESUME_QUEUES write each queue's error and invalid bits
	 * back into its id. */
	[KFD_ROLE_QUEUE_ID] = { KFD_SPACE_QUEUE, KFD_RC_ISSUED,
				KFD_ABI_DBG_QUEUE_STATUS_MASK },
	[KFD_ROLE_EVENT_ID] = { KFD_SPACE_EVENT, KFD_RC_ISSUED },
	[KFD_ROLE_EVENT_SLOT] = { KFD_SPACE_SLOT, KFD_RC_ISSUED },
	[KFD_ROLE_FD] = { KFD_SPACE_FD, KFD_RC_ISSUED },
	/* The process places GPU VAs; a replay puts them where they were. */
	[KFD_ROLE_GPU_VA] = { KFD_SPACE_ADDR, 0 },
	[KFD_ROLE_CPU_ADDR] = { KFD_SPACE_ADDR, KFD_RC_LOCAL },
	[KFD_ROLE_PTR] = { KFD_SPACE_NONE, KFD_RC_POINTER },
	[KFD_ROLE_MMAP_OFFSET] = { KFD_SPACE_OFFSET, KFD_RC_ISSUED },
	[KFD_ROLE_DOORBELL_OFFSET] = { KFD_SPACE_OFFSET, KFD_RC_ISSUED },
	[KFD_ROLE_TIMEOUT] = { KFD_SPACE_NONE, KFD_RC_VOLATILE },
	[KFD_ROLE_CLOCK] = { KFD_SPACE_NONE, KFD_RC_VOLATILE },
	[KFD_ROLE_GEM_HANDLE] = { KFD_SPACE_GEM, KFD_RC_ISSUED },
	[KFD_ROLE_PID] = { KFD_SPACE_PID, KFD_RC_LOCAL },
};

enum kfd_space
kfd_role_space(enum kfd_role role)
{
	if ((unsigned int)role >= KFD_ROLE_COUNT_MAX)
		return KFD_SPACE_NONE;
	return (enum kfd_space)ks_role_class[role].space;
}

unsigned int
kfd_role_flags(enum kfd_role role)
{
	if ((unsigned int)role >= KFD_ROLE_COUNT_MAX)
		return 0;
	return ks_role_class[role].flags;
}

uint32_t
kfd_role_status_bits(enum kfd_role role)
{
	if ((unsigned int)role >= KFD_ROLE_COUNT_MAX)
		return 0;
	return ks_role_class[role].status;
}

int
kfd_role_is_hex(enum kfd_role role)
{
	switch (role) {
	case KFD_ROLE_HEX:
	case KFD_ROLE_PAD:
	case KFD_ROLE_HANDLE:
	case KFD_ROLE_GPU_ID:
	case KFD_ROLE_GPU_VA:
	case KFD_ROLE_CPU_ADDR:
	case KFD_ROLE_PTR:
	case KFD_ROLE_MMAP_OFFSET:
	case KFD_ROLE_DOORBELL_OFFSET:
	case KFD_ROLE_FLAGS:
		return 1;
	default:
		return 0;
	}
}

const char *
kfd_file_kind_name(enum kfd_file_kind kind)
{
	switch (kind) {
	case KFD_FILE_KFD:
		return "kfd";
	case KFD_FILE_RENDER:
		return "render";
	default:
		return "unknown";
	}
}

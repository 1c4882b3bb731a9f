/* SPDX-License-Identifier: MIT */
/*
 * What the schema rows say about a record, before anything is modelled
 * or replayed: waits that completed and the events they name, SET_EVENT's
 * event, the ages a wait got back, a call's buffer images, device paths,
 * AMDGPU_INFO queries that vary, and how --verify=strict treats an output
 * field or an input role. The model (order of events, ages), the run and
 * emit-c all ask these; they read nothing but the record and the rows.
 */
#include <stddef.h>
#include <string.h>

#include <kfdtrace/decode.h>
#include <kfdtrace/kfd_abi.h>

#include "replay_recs.h"

#define ELEM		sizeof(struct kfd_abi_event_data)
#define AGE_OFF		offsetof(struct kfd_abi_event_data, signal_event_data)
#define ID_OFF		offsetof(struct kfd_abi_event_data, event_id)

/* ------------------------------------------------------------------ */
/* Records                                                              */

const struct kt_buf_image *
rp_find_image(const struct kt_ioctl_rec *io, unsigned int index)
{
	uint16_t i;

	for (i = 0; i < io->nbufs; i++)
		if (io->bufs[i].index == index)
			return &io->bufs[i];
	return NULL;
}

int
rp_device_path(const char *path, uint8_t kind)
{
	if (kind == KFD_FILE_KFD)
		return strcmp(path, "/dev/kfd") == 0;
	if (kind == KFD_FILE_RENDER)
		return strncmp(path, "/dev/dri/renderD", 16) == 0 &&
		       !strstr(path, "..");
	return 0;
}

/* AMDGPU_INFO queries whose answers change by themselves. */
int
rp_info_query_varies(const struct rp_rows *r, const uint8_t *args, size_t len)
{
	static const char *const vary[] = {
		"TIMESTAMP", "NUM_BYTES_MOVED", "VRAM_USAGE", "GTT_USAGE",
		"VIS_VRAM_USAGE", "NUM_EVICTIONS", "SENSOR", "MEMORY",
		"NUM_VRAM_CPU_PAGE_FAULTS", "VRAM_LOST_COUNTER", "NUM_HANDLES",
	};
	const struct kfd_field *q = r->info_query;
	const char *name;
	unsigned int i;

	if (!q || !args)
		return 0;
	name = kfd_name_lookup(q->names, rp_fget(q, args, len));
	if (!name)
		return 0;
	for (i = 0; i < sizeof(vary) / sizeof(vary[0]); i++)
		if (strcmp(name, vary[i]) == 0)
			return 1;
	return 0;
}

/* ------------------------------------------------------------------ */
/* Waits and events                                                     */

/* A wait that completed in the capture, or 0. */
int
rp_wait_completed(const struct rp_rows *r, const struct kfd_ioctl_desc *d,
		  const struct kt_ioctl_rec *io)
{
	if (d != r->wait_events || io->ret != 0 || !io->arg_after ||
	    !rp_fhas(r->we_result, io->arg_size) ||
	    !rp_fhas(r->we_timeout, io->arg_size))
		return 0;
	return rp_fget(r->we_result, io->arg_after, io->arg_size) ==
	       KFD_ABI_WAIT_RESULT_COMPLETE;
}

int
rp_wait_ids(const struct rp_rows *r, const struct kt_record *rec,
	    uint32_t *ids, size_t max)
{
	const struct kt_ioctl_rec *io = &rec->u.ioctl;
	const struct kfd_struct_desc *el;
	const struct kfd_field *f = NULL;
	unsigned int i;
	uint16_t k;

	if (!r->wait_events->nbufs || !(el = r->wait_events->bufs[0].elem) ||
	    !el->size)
		return -1;
	for (i = 0; i < el->nfields; i++)
		if (!strcmp(el->fields[i].name, "event_id"))
			f = &el->fields[i];
	if (!f)
		return -1;
	for (k = 0; k < io->nbufs; k++) {
		const struct kt_buf_image *b = &io->bufs[k];
		size_t off;
		int n = 0;

		if (b->index != 0 || !b->before)
			continue;
		for (off = 0; off + el->size <= b->len_before; off += el->size) {
			uint64_t v;

			if (kfd_field_load(f, b->before + off, el->size, &v))
				continue;
			if ((size_t)n < max)
				ids[n] = (uint32_t)v;
			n++;
		}
		return n;
	}
	return -1;
}

int
rp_set_event_id(const struct rp_rows *r, const struct kt_record *rec,
		uint32_t *id)
{
	const struct kt_ioctl_rec *io = &rec->u.ioctl;

	if (rec->type != KT_REC_IOCTL || !io->arg_before ||
	    !rp_fhas(r->se_id, io->arg_size) ||
	    kt_ioctl_row(io) != r->set_event)
		return 0;
	*id = (uint32_t)rp_fget(r->se_id, io->arg_before, io->arg_size);
	return 1;
}

static uint64_t
ld64(const uint8_t *p)
{
	uint64_t v;

	memcpy(&v, p, sizeof(v));
	return v;
}

static uint32_t
ld32(const uint8_t *p)
{
	uint32_t v;

	memcpy(&v, p, sizeof(v));
	return v;
}

/*
 * Element @i of the captured events array @b: its input and returned age
 * and its event. Return: 0 past the end.
 */
int
rp_age_elem(const struct kt_buf_image *b, size_t i, uint64_t *in,
	    uint64_t *out, uint32_t *id)
{
	size_t off = i * ELEM;

	if (off + ELEM > b->len_before || off + ELEM > b->len_after)
		return 0;
	*in = ld64(b->before + off + AGE_OFF);
	*out = ld64(b->after + off + AGE_OFF);
	*id = ld32(b->before + off + ID_OFF);
	return 1;
}

/* The captured image of the events array of WAIT_EVENTS @io, or NULL. */
const struct kt_buf_image *
rp_wait_events_io(const struct rp_rows *r, const struct kt_ioctl_rec *io)
{
	const struct kt_buf_image *b = rp_find_image(io, 0);

	if (!b || !b->before || !b->after || !r->wait_events->nbufs ||
	    !r->wait_events->bufs[0].elem ||
	    r->wait_events->bufs[0].elem->size != ELEM)
		return NULL;
	return b;
}

/* rp_wait_events_io() of the ioctl record @rec, or NULL. */
const struct kt_buf_image *
rp_wait_events(const struct rp_rows *r, const struct kt_record *rec)
{
	return rec->type == KT_REC_IOCTL ? rp_wait_events_io(r, &rec->u.ioctl) :
	       NULL;
}

int
rp_wait_fired(const struct rp_rows *r, const struct kt_record *rec,
	      uint32_t *ids, int max)
{
	const struct kt_buf_image *b = rp_wait_events(r, rec);
	uint64_t in, out;
	uint32_t id;
	size_t i;
	int n = 0, aged = 0;

	for (i = 0; b && rp_age_elem(b, i, &in, &out, &id); i++) {
		/* Other kinds of events than signal ones pass none. */
		if (!in)
			continue;
		aged = 1;
		if (out != in && n < max)
			ids[n++] = id;
	}
	/* No ages: the capture does not say. */
	return aged ? n : -1;
}

/* ------------------------------------------------------------------ */
/* Outputs and inputs, by role                                          */

/* The role a field's output value has (some in-roles change meaning). */
unsigned int
rp_out_role(const struct rp_rows *r, const struct kfd_field *f)
{
	if (f == r->ce_page)
		return KFD_ROLE_MMAP_OFFSET;
	if (f == r->ce_trigger)
		return KFD_ROLE_EVENT_ID;
	return f->role;
}

/* Share handles an export returns: learned, not compared. */
int
rp_share_out(const struct rp_rows *r, const struct kfd_field *f)
{
	return f == r->ipce_share && f->width == 16;
}

/* How an output value is checked, from the schema's classification. */
enum rp_vclass
rp_out_classify(unsigned int role, uint64_t cap)
{
	unsigned int fl = kfd_role_flags((enum kfd_role)role);

	/* Padding, clocks, timeouts and the replayer's own pointers. */
	if (fl & (KFD_RC_RESERVED | KFD_RC_VOLATILE | KFD_RC_POINTER))
		return RP_V_IGNORE;
	if (kfd_role_space((enum kfd_role)role) == KFD_SPACE_FD)
		return RP_V_FD;
	/* An mmap offset that names a GPU is translated, a GEM one learned. */
	if (role == KFD_ROLE_MMAP_OFFSET)
		return (cap >> KFD_ABI_MMAP_GPU_ID_SHIFT) ? RP_V_XLATE : RP_V_LEARN;
	if (fl & KFD_RC_LOCAL)
		return RP_V_XLATE;
	/*
	 * What the kernel hands out is learned. That includes doorbell
	 * offsets: the kernel picks a queue's doorbell from the device's free
	 * ones (an SDMA queue's from the engine and slot it got), so another
	 * process's queues change it.
	 */
	if (fl & KFD_RC_ISSUED)
		return RP_V_LEARN;
	return RP_V_EXACT;
}

enum rp_vclass
rp_out_vclass(const struct rp_rows *r, const struct kfd_field *f, uint64_t cap,
	      unsigned int *role)
{
	*role = rp_out_role(r, f);
	return rp_out_classify(*role, cap);
}

enum rp_out_class
rp_out_class(const struct rp_rows *r, const struct kfd_field *f)
{
	/* Byte strings are compared whatever their role. */
	if (f->width > 8)
		return rp_share_out(r, f) ? RP_OUT_MAPPED : RP_OUT_EXACT;
	/* Offsets are learned or translated by value: mapped either way. */
	switch (rp_out_classify(rp_out_role(r, f), 0)) {
	case RP_V_IGNORE:
		return RP_OUT_IGNORE;
	case RP_V_EXACT:
		return RP_OUT_EXACT;
	default:
		return RP_OUT_MAPPED;
	}
}

/*
 * The roles rp_value_xlate() maps, by the schema's classification: what
 * the kernel hands out and what names the machine's or process's own
 * things; the rest (GPU VAs included) it keeps as captured.
 */
int
rp_role_translated(unsigned int role)
{
	return (kfd_role_flags((enum kfd_role)role) &
		(KFD_RC_ISSUED | KFD_RC_LOCAL)) != 0;
}

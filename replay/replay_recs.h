/* SPDX-License-Identifier: MIT */
/*
 * What the schema rows say about a record (recs.c), before anything is
 * modelled or replayed: the model, the run and emit-c all ask these.
 */
#ifndef RP_RECS_H
#define RP_RECS_H

#include "replay_rows.h"

/* The image of indirect buffer @index of @io, or NULL. */
const struct kt_buf_image *rp_find_image(const struct kt_ioctl_rec *io,
					 unsigned int index);
/*
 * Whether @path is a device file the replay opens for @kind: /dev/kfd, a
 * render node (no "..").
 */
int rp_device_path(const char *path, uint8_t kind);
/* Whether AMDGPU_INFO argument bytes ask for a value that varies by itself. */
int rp_info_query_varies(const struct rp_rows *r, const uint8_t *args,
			 size_t len);

/*
 * rp_wait_completed() - whether @io is a wait that completed in the
 * capture (the replay issues it with timeout 0).
 */
int rp_wait_completed(const struct rp_rows *r, const struct kfd_ioctl_desc *d,
		      const struct kt_ioctl_rec *io);
/*
 * rp_wait_ids() - the event ids the WAIT_EVENTS @rec names, as captured
 * (up to @max into @ids). Return: how many it names (maybe more than
 * @max), or -1 when the record does not tell.
 */
int rp_wait_ids(const struct rp_rows *r, const struct kt_record *rec,
		uint32_t *ids, size_t max);
/*
 * rp_set_event_id() - whether @rec is a SET_EVENT; its captured event id
 * in @id.
 */
int rp_set_event_id(const struct rp_rows *r, const struct kt_record *rec,
		    uint32_t *id);
/*
 * Event ages (KFD 1.14, ages.c). rp_wait_events_io() - the captured
 * image of the events array of WAIT_EVENTS @io, or NULL;
 * rp_wait_events() - the same of the record @rec (NULL: not an ioctl).
 * rp_age_elem() - element @i of such an image: its input and returned
 * age and its event (Return: 0 past the end). rp_wait_fired() - the
 * events (at most @max, into @ids) whose age the completed wait @rec got
 * back advanced in the capture, i.e. that released it. Return: their
 * number, or -1 when the wait passed no ages.
 */
const struct kt_buf_image *rp_wait_events_io(const struct rp_rows *r,
					     const struct kt_ioctl_rec *io);
const struct kt_buf_image *rp_wait_events(const struct rp_rows *r,
					  const struct kt_record *rec);
int rp_age_elem(const struct kt_buf_image *b, size_t i, uint64_t *in,
		uint64_t *out, uint32_t *id);
int rp_wait_fired(const struct rp_rows *r, const struct kt_record *rec,
		  uint32_t *ids, int max);

/*
 * What --verify=strict does with an output field, from its row and role
 * alone (plan.c lists the fields by it).
 */
enum rp_out_class {
	RP_OUT_IGNORE,		/* never compared (padding, clocks, ...) */
	RP_OUT_EXACT,		/* compared as is */
	RP_OUT_MAPPED,		/* learned, or translated before comparing */
};

enum rp_out_class rp_out_class(const struct rp_rows *r,
			       const struct kfd_field *f);
/*
 * rp_out_vclass() - what the comparison does with the output value @cap of
 * field @f: ignore it, compare it as is, learn it (a kernel-chosen id),
 * translate it and compare, or bind the fd it is. @role is set to the
 * role the value has on output (some fields change meaning).
 * rp_out_role() is that role, rp_out_classify() the class of @cap by it.
 */
enum rp_vclass { RP_V_EXACT, RP_V_IGNORE, RP_V_LEARN, RP_V_XLATE, RP_V_FD };
enum rp_vclass rp_out_vclass(const struct rp_rows *r, const struct kfd_field *f,
			     uint64_t cap, unsigned int *role);
unsigned int rp_out_role(const struct rp_rows *r, const struct kfd_field *f);
enum rp_vclass rp_out_classify(unsigned int role, uint64_t cap);
/* Whether @f is a share handle an export returns: learned, not compared. */
int rp_share_out(const struct rp_rows *r, const struct kfd_field *f);
/* Whether an input of @role names something the run translates. */
int rp_role_translated(unsigned int role);

#endif /* RP_RECS_H */

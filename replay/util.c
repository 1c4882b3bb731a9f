/* SPDX-License-Identifier: MIT */
/*
 * Containers of the replayer: bounded growable arrays. (Its maps are the
 * common u64 map, kfdtrace/common/u64map.h, behind replay_base.h.) And
 * what every part asks of a record: whether the replay acts on its type,
 * its name for messages; a sleep.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <kfdtrace/decode.h>

#include "replay_base.h"

void
rp_vec_init(struct rp_vec *v, size_t esz)
{
	v->data = NULL;
	v->n = 0;
	v->cap = 0;
	v->esz = esz;
}

void
rp_vec_free(struct rp_vec *v)
{
	free(v->data);
	v->data = NULL;
	v->n = 0;
	v->cap = 0;
}

void *
rp_vec_push(struct rp_vec *v)
{
	void *slot;

	if (v->n >= RP_MAX_OBJS)
		return NULL;
	if (v->n == v->cap) {
		size_t ncap = v->cap ? v->cap * 2 : 16;
		void *nd;

		if (ncap > RP_MAX_OBJS)
			ncap = RP_MAX_OBJS;
		nd = realloc(v->data, ncap * v->esz);
		if (!nd)
			return NULL;
		v->data = nd;
		v->cap = ncap;
	}
	slot = (char *)v->data + v->n * v->esz;
	memset(slot, 0, v->esz);
	v->n++;
	return slot;
}

int
rp_actionable(unsigned int type)
{
	switch (type) {
	case KT_REC_IOCTL:
	case KT_REC_OPEN:
	case KT_REC_CLOSE:
	case KT_REC_DUP:
	case KT_REC_MMAP:
	case KT_REC_MUNMAP:
	case KT_REC_SUBMIT:
	case KT_REC_MEMORY:
	case KT_REC_FD_TRANSFER:
		return 1;
	default:
		return 0;
	}
}

/* The name of @rec for messages: its ioctl's, or its type's. */
const char *
rp_rec_name(const struct kt_record *rec)
{
	const struct kfd_ioctl_desc *d;
	const char *n;

	if (rec->type == KT_REC_IOCTL) {
		d = kt_ioctl_row(&rec->u.ioctl);
		return d ? d->name : "unknown ioctl";
	}
	n = kt_rec_type_name(rec->type);
	return n ? n : "record";
}

void
rp_sleep_ns(uint64_t ns)
{
	struct timespec ts = {
		.tv_sec = (time_t)(ns / 1000000000ull),
		.tv_nsec = (long)(ns % 1000000000ull),
	};

	while (ns && nanosleep(&ts, &ts) < 0 && errno == EINTR)
		;
}

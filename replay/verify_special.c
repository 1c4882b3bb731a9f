/* SPDX-License-Identifier: MIT */
/*
 * Comparisons that need more than the schema's roles:
 *
 *  - GET_PROCESS_APERTURES(_NEW) list every GPU of the machine. Entries are
 *    matched by translated gpu_id; entries of live GPUs that no captured
 *    GPU maps to are set aside (a topology note, not a divergence);
 *  - AMDGPU_INFO queries of counters and sensors change by themselves;
 *  - SVM attributes ride in the argument bytes, and some carry gpu ids.
 */
#include <inttypes.h>
#include <stddef.h>
#include <string.h>

#include <kfdtrace/kfd_abi.h>

#include "replay_verify.h"

/* One entry of the aperture lists, and where its gpu_id sits. */
#define AP_ENTRY ((uint32_t)sizeof(struct kfd_abi_process_device_apertures))
#define AP_GPU ((uint32_t)offsetof(struct kfd_abi_process_device_apertures, gpu_id))

static void
check_apertures(struct rp_run *st, struct rp_call *c, const uint8_t *cap,
		uint32_t ncap, const uint8_t *live, uint32_t nlive,
		const char *what)
{
	const struct rp_match *mt = &st->r->match;
	uint32_t i, j, extra = 0;
	char name[96];

	for (i = 0; i < ncap; i++) {
		uint32_t cg, want;
		int found = 0;

		memcpy(&cg, cap + i * AP_ENTRY + AP_GPU, 4);
		want = rp_gpu_xlate(st, cg);
		for (j = 0; j < nlive; j++) {
			uint32_t lg;

			memcpy(&lg, live + j * AP_ENTRY + AP_GPU, 4);
			if (lg != want)
				continue;
			found = 1;
			if (memcmp(cap + i * AP_ENTRY, live + j * AP_ENTRY, AP_GPU)) {
				uint64_t cv, lv;
				unsigned int k;

				for (k = 0; k < 6; k++) {
					memcpy(&cv, cap + i * AP_ENTRY + k * 8, 8);
					memcpy(&lv, live + j * AP_ENTRY + k * 8, 8);
					if (cv != lv)
						break;
				}
				snprintf(name, sizeof(name), "%s[gpu 0x%x] word %u",
					 what, cg, k);
				rp_diverge(st, name, cv, cv, 0, lv, NULL);
			}
		}
		if (!found) {
			snprintf(name, sizeof(name), "%s[%u].gpu_id", what, i);
			rp_diverge(st, name, cg, want, 1, 0,
				   "the live list has no entry for this GPU");
		}
	}
	for (j = 0; j < nlive; j++) {
		uint32_t lg, k;
		int known = 0, is_extra = 0;

		memcpy(&lg, live + j * AP_ENTRY + AP_GPU, 4);
		for (i = 0; i < ncap; i++) {
			uint32_t cg;

			memcpy(&cg, cap + i * AP_ENTRY + AP_GPU, 4);
			if (rp_gpu_xlate(st, cg) == lg)
				known = 1;
		}
		if (known)
			continue;
		for (k = 0; k < mt->nextra; k++)
			if (mt->extra[k] == lg)
				is_extra = 1;
		if (is_extra) {
			extra++;
			continue;
		}
		snprintf(name, sizeof(name), "%s[%u].gpu_id", what, j);
		rp_diverge(st, name, 0, 0, 0, lg,
			   "the live list has a GPU the capture did not");
	}
	if (extra) {
		if (!st->sum.topology_notes)
			rp_note(st, "%u live GPU%s not in the capture listed as well "
				"(compared without %s)", extra, extra == 1 ? "" : "s",
				extra == 1 ? "it" : "them");
		st->sum.topology_notes++;
	}
	(void)c;
}

int
rp_check_special(struct rp_run *st, struct rp_call *c)
{
	const struct rp_rows *r = st->rows;
	const struct kt_ioctl_rec *io = c->io;

	if (c->d == r->apertures_new) {
		const uint8_t *cimg = NULL;
		uint32_t ncap = 0, nlive;
		uint16_t i;

		for (i = 0; i < io->nbufs; i++)
			if (io->bufs[i].after) {
				cimg = io->bufs[i].after;
				ncap = io->bufs[i].len_after / AP_ENTRY;
			}
		nlive = (uint32_t)rp_fget(r->apn_num, c->args, c->size);
		if (!c->nlb) {
			/* A size query: the count includes every live GPU. */
			uint32_t cn = (uint32_t)rp_fget(r->apn_num, io->arg_after,
							io->arg_size);

			if (cn + st->r->match.nextra != nlive && cn != nlive)
				rp_diverge(st, "num_of_nodes", cn, cn, 0, nlive, NULL);
			return 1;
		}
		if (nlive > c->lb[0].len / AP_ENTRY)
			nlive = (uint32_t)(c->lb[0].len / AP_ENTRY);
		if (cimg)
			check_apertures(st, c, cimg, ncap, c->lb[0].p, nlive,
					"apertures");
		return 1;
	}
	if (c->d == r->apertures && io->arg_after &&
	    c->clen >= sizeof(struct kfd_abi_get_process_apertures_args)) {
		const uint32_t max = KFD_ABI_NUM_OF_SUPPORTED_GPUS;
		uint32_t ncap = (uint32_t)rp_fget(r->ap_num, io->arg_after, c->clen);
		uint32_t nlive = (uint32_t)rp_fget(r->ap_num, c->args, c->size);

		check_apertures(st, c, io->arg_after, ncap > max ? max : ncap,
				c->args, nlive > max ? max : nlive,
				"process_apertures");
		return 1;
	}
	return 0;
}

int
rp_info_variable(const struct rp_run *st, const struct rp_call *c)
{
	if (c->d != st->rows->amdgpu_info)
		return 0;
	return rp_info_query_varies(st->rows, c->io->arg_before,
				    c->io->arg_size);
}

/*
 * SVM attributes ride in the argument bytes after the fixed struct, where
 * the schema's SVM row says (its trailing buffer and element fields).
 */
void
rp_check_svm_attrs(struct rp_run *st, struct rp_call *c)
{
	const struct rp_rows *r = st->rows;
	const uint8_t *cap = c->io->arg_after;
	uint32_t base = r->svm->args->size, esz = r->svm_attrs->elem_size, off;
	char name[64];

	for (off = base; esz && off + esz <= c->size && off + esz <= c->io->arg_size;
	     off += esz) {
		uint64_t ct64, cv64, lt64, lv64;
		uint32_t ct, cv, lt, lv, ev;

		if (kfd_field_load(r->svm_attr_type, cap + off, esz, &ct64) < 0 ||
		    kfd_field_load(r->svm_attr_value, cap + off, esz, &cv64) < 0 ||
		    kfd_field_load(r->svm_attr_type, c->args + off, esz, &lt64) < 0 ||
		    kfd_field_load(r->svm_attr_value, c->args + off, esz, &lv64) < 0)
			return;
		ct = (uint32_t)ct64;
		cv = (uint32_t)cv64;
		lt = (uint32_t)lt64;
		lv = (uint32_t)lv64;
		ev = cv;
		if (ct <= KFD_ABI_SVM_ATTR_NO_ACCESS &&
		    cv != KFD_ABI_SVM_LOCATION_SYSMEM &&
		    cv != KFD_ABI_SVM_LOCATION_UNDEFINED)
			ev = rp_gpu_xlate(st, cv);
		if (ct != lt || ev != lv) {
			snprintf(name, sizeof(name), "%s[%u]", r->svm_attrs->name,
				 (off - base) / esz);
			rp_diverge(st, name, (uint64_t)ct << 32 | cv,
				   (uint64_t)ct << 32 | ev, 1, (uint64_t)lt << 32 | lv,
				   "type << 32 | value");
			return;
		}
	}
}

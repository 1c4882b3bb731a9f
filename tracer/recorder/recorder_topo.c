/* SPDX-License-Identifier: MIT */
/*
 * The topology snapshot: every regular file under the KFD sysfs topology,
 * as this process sees it, read by kt_topo_snapshot() (formats/trace,
 * which owns the TOPOLOGY record) into one record.
 */
#include <errno.h>
#include <string.h>

#include "kfdtrace/topology.h"
#include "recorder_priv.h"

int
kfd_recorder_topology(struct kfd_recorder *r, const char *root)
{
	struct kt_topo_snap s;
	struct kt_record rec;
	int ret;

	if (!r)
		return -EINVAL;
	if (!root)
		root = r->topology_root ? r->topology_root : KFD_RECORDER_TOPOLOGY;
	/* A tree that cannot be opened gives a record with no files. */
	ret = kt_topo_snapshot(root, 0, &s);
	if (ret == -ENOMEM)
		return ret;

	memset(&rec, 0, sizeof(rec));
	rec.type = KT_REC_TOPOLOGY;
	rec.u.topology.nfiles = s.nfiles;
	rec.u.topology.files = s.files;
	ret = kfd_rec_append_raw(r, &rec);
	kt_topo_snap_free(&s);
	return ret;
}

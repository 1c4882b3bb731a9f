/* SPDX-License-Identifier: MIT */
/*
 * The KFD ABI 1.20-1.23 calls, issued through ioctl() on /dev/kfd as a
 * client would, for a run on kfdsim at the ABI given as argv[1] ("23" or
 * "19"): CREATE_QUEUE with a metadata ring size that is not a power of
 * two, PROFILER on 0x28 (VERSION, PMC lock states, PTL, an op out of
 * range, the 40-byte form), and device snapshots at 128, 120 and 4 bytes
 * an entry; and the SMI PROCESS_START record its ACQUIRE_VM sends to its
 * own subscriber. Each call's result must be what the kernel of that ABI
 * gives; the probe exits 1 naming the first that is not.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "kfdtrace/kfd_abi.h"

static int failed;

/* ioctl() as -errno or its return value. */
static int
kioctl(int fd, unsigned long req, void *arg)
{
	int r = ioctl(fd, req, arg);

	return r < 0 ? -errno : r;
}

static void
expect(const char *what, int got, int want)
{
	printf("%s: %d (want %d)\n", what, got, want);
	if (got != want && !failed) {
		fprintf(stderr, "probe_abi23: %s: got %d, want %d\n", what, got,
			want);
		failed = 1;
	}
}

/* The first GPU's gpu_id and render minor from the topology. */
static uint32_t
first_gpu_id(unsigned int *render_minor)
{
	char path[128], line[128];
	unsigned int id;

	for (int n = 0; n < 16; n++) {
		FILE *f;
		int ok;

		snprintf(path, sizeof(path),
			 "/sys/class/kfd/kfd/topology/nodes/%d/gpu_id", n);
		f = fopen(path, "r");
		if (!f)
			continue;
		ok = fscanf(f, "%u", &id) == 1;
		fclose(f);
		if (!ok || !id)
			continue;
		snprintf(path, sizeof(path),
			 "/sys/class/kfd/kfd/topology/nodes/%d/properties", n);
		f = fopen(path, "r");
		if (!f)
			return 0;
		while (fgets(line, sizeof(line), f))
			if (sscanf(line, "drm_render_minor %u", render_minor) == 1)
				break;
		fclose(f);
		return id;
	}
	return 0;
}

/* The GPU's VM announces the process on its SMI event fd. */
static void
smi_process_start(int kfd, uint32_t gpu, unsigned int render_minor)
{
	struct kfd_abi_smi_events_args s = { .gpuid = gpu };
	struct kfd_abi_acquire_vm_args vm = { .gpu_id = gpu };
	uint64_t mask = KFD_ABI_SMI_EVENT_MASK_FROM_INDEX(KFD_ABI_SMI_EVENT_PROCESS_START);
	char path[64], rec[KFD_ABI_SMI_EVENT_MSG_SIZE], want[KFD_ABI_SMI_EVENT_MSG_SIZE];
	int render;
	ssize_t n;

	expect("SMI_EVENTS", kioctl(kfd, KFD_ABI_IOC_SMI_EVENTS, &s), 0);
	expect("SMI mask", (int)write((int)s.anon_fd, &mask, sizeof(mask)),
	       (int)sizeof(mask));
	snprintf(path, sizeof(path), "/dev/dri/renderD%u", render_minor);
	render = open(path, O_RDWR | O_CLOEXEC);
	vm.drm_fd = (uint32_t)render;
	expect("ACQUIRE_VM", kioctl(kfd, KFD_ABI_IOC_ACQUIRE_VM, &vm), 0);
	fcntl((int)s.anon_fd, F_SETFL, O_NONBLOCK);
	n = read((int)s.anon_fd, rec, sizeof(rec) - 1);
	rec[n > 0 ? n : 0] = 0;
	snprintf(want, sizeof(want), "%x %x probe_abi23\n",
		 KFD_ABI_SMI_EVENT_PROCESS_START, (unsigned int)getpid());
	printf("SMI record: %s", rec);
	expect("SMI PROCESS_START record", strcmp(rec, want), 0);
	close((int)s.anon_fd);
}

static void
profiler_calls(int kfd, uint32_t gpu, int new_abi)
{
	struct kfd_abi_profiler_1_23_args p;
	struct kfd_abi_profiler_dlog_args dl;
	/* An older kernel's dispatcher has no 0x28. */
	int gone = new_abi ? 0 : -ENOTTY;

	memset(&p, 0, sizeof(p));
	p.op = KFD_ABI_PROFILER_VERSION;
	expect("PROFILER VERSION", kioctl(kfd, KFD_ABI_IOC_PROFILER, &p), gone);
	if (new_abi)
		expect("PROFILER version", (int)p.version, KFD_ABI_PROFILER_VERSION_NUM);

	memset(&p, 0, sizeof(p));
	p.op = KFD_ABI_PROFILER_PMC;
	p.pmc.gpu_id = gpu;
	p.pmc.lock = 1;
	p.pmc.perfcount_enable = 1;
	expect("PMC lock", kioctl(kfd, KFD_ABI_IOC_PROFILER, &p), gone);
	expect("PMC lock again", kioctl(kfd, KFD_ABI_IOC_PROFILER, &p),
	       new_abi ? -EALREADY : gone);
	p.pmc.lock = 0;
	p.pmc.perfcount_enable = 0;
	expect("PMC unlock", kioctl(kfd, KFD_ABI_IOC_PROFILER, &p), gone);
	expect("PMC unlock unheld", kioctl(kfd, KFD_ABI_IOC_PROFILER, &p),
	       new_abi ? -EINVAL : gone);
	p.pmc.gpu_id = 0;
	p.pmc.lock = 1;
	expect("PMC unknown gpu", kioctl(kfd, KFD_ABI_IOC_PROFILER, &p),
	       new_abi ? -EINVAL : gone);

	memset(&p, 0, sizeof(p));
	p.op = KFD_ABI_PROFILER_PTL_CONTROL;
	p.ptl.gpu_id = gpu;
	p.ptl.enable = 0;
	expect("PTL off", kioctl(kfd, KFD_ABI_IOC_PROFILER, &p),
	       new_abi ? -EOPNOTSUPP : gone);
	p.ptl.enable = 1;
	expect("PTL on", kioctl(kfd, KFD_ABI_IOC_PROFILER, &p), gone);

	memset(&p, 0, sizeof(p));
	p.op = 7;
	expect("PROFILER op 7", kioctl(kfd, KFD_ABI_IOC_PROFILER, &p),
	       new_abi ? -EINVAL : gone);

	/* The 40-byte form: upstream reads op 4 and knows no such op. */
	memset(&dl, 0, sizeof(dl));
	dl.op = 4;
	expect("PROFILER 40 bytes", kioctl(kfd, KFD_ABI_IOC_PROFILER_DLOG, &dl),
	       new_abi ? -EINVAL : gone);
}

/* CREATE_QUEUE whose metadata ring size is not a power of two. */
static void
metadata_ring(int kfd, uint32_t gpu, int new_abi)
{
	static uint64_t ring[512], rw[2];
	struct kfd_abi_create_queue_args q;

	memset(&q, 0, sizeof(q));
	q.ring_base_address = (uintptr_t)ring;
	q.ring_size = sizeof(ring);
	q.write_pointer_address = (uintptr_t)&rw[0];
	q.read_pointer_address = (uintptr_t)&rw[1];
	q.gpu_id = gpu;
	q.queue_type = KFD_ABI_QUEUE_TYPE_COMPUTE_AQL;
	q.queue_percentage = 100;
	q.metadata_ring_size = 3000;
	/*
	 * 1.22 refuses the size first; an older kernel ignores the word and
	 * refuses the queue later: its ring is no GPU mapping (no VM yet).
	 */
	expect("CREATE_QUEUE metadata 3000",
	       kioctl(kfd, KFD_ABI_IOC_CREATE_QUEUE, &q), new_abi ? -EINVAL : -ESRCH);
}

static void
snapshots(int kfd, int new_abi)
{
	static uint8_t rinfo[16], snap[2 * 128];
	struct kfd_abi_dbg_trap_args d;
	static const uint32_t sizes[] = { 128, 120, 4 };
	uint32_t kentry = new_abi ? 128 : 120;
	/* Any open fd does; one the trace holds (an open of /dev/kfd) is one
	 * a replay can give the same role. */
	int dbg_fd = open("/dev/kfd", O_RDWR | O_CLOEXEC);

	memset(&d, 0, sizeof(d));
	d.pid = (uint32_t)getpid();
	d.op = KFD_ABI_DBG_TRAP_ENABLE;
	d.enable.rinfo_ptr = (uintptr_t)rinfo;
	d.enable.rinfo_size = sizeof(rinfo);
	d.enable.dbg_fd = (uint32_t)dbg_fd;
	expect("DBG_TRAP ENABLE", kioctl(kfd, KFD_ABI_IOC_DBG_TRAP, &d), 0);
	for (unsigned int i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		char what[64];

		memset(&d, 0, sizeof(d));
		d.pid = (uint32_t)getpid();
		d.op = KFD_ABI_DBG_TRAP_GET_DEVICE_SNAPSHOT;
		d.device_snapshot.snapshot_buf_ptr = (uintptr_t)snap;
		d.device_snapshot.num_devices = 1;
		d.device_snapshot.entry_size = sizes[i];
		snprintf(what, sizeof(what), "DEVICE_SNAPSHOT entry_size %u", sizes[i]);
		expect(what, kioctl(kfd, KFD_ABI_IOC_DBG_TRAP, &d), 0);
		/* The kernel writes back the bytes it filled of each entry:
		 * its entry is 128 bytes from 1.23, 120 before. */
		expect(what, (int)d.device_snapshot.entry_size,
		       (int)(sizes[i] < kentry ? sizes[i] : kentry));
	}
	memset(&d, 0, sizeof(d));
	d.pid = (uint32_t)getpid();
	d.op = KFD_ABI_DBG_TRAP_DISABLE;
	expect("DBG_TRAP DISABLE", kioctl(kfd, KFD_ABI_IOC_DBG_TRAP, &d), 0);
	close(dbg_fd);
}

int
main(int argc, char **argv)
{
	struct kfd_abi_get_version_args v = { 0 };
	int minor = argc > 1 ? atoi(argv[1]) : 23;
	int kfd = open("/dev/kfd", O_RDWR | O_CLOEXEC);
	unsigned int render_minor = 0;
	uint32_t gpu;

	if (kfd < 0) {
		perror("probe_abi23: /dev/kfd");
		return 1;
	}
	expect("GET_VERSION", kioctl(kfd, KFD_ABI_IOC_GET_VERSION, &v), 0);
	expect("minor", (int)v.minor_version, minor);
	gpu = first_gpu_id(&render_minor);
	if (!gpu) {
		fprintf(stderr, "probe_abi23: no GPU in the topology\n");
		return 1;
	}
	metadata_ring(kfd, gpu, minor >= 22);
	profiler_calls(kfd, gpu, minor >= 23);
	snapshots(kfd, minor >= 23);
	smi_process_start(kfd, gpu, render_minor);
	close(kfd);
	return failed;
}

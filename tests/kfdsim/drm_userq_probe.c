/* SPDX-License-Identifier: MIT */
/*
 * A probe of the render node's newer requests, through raw ioctl() on
 * /dev/dri/renderD128 (kfdsim preloaded, or under `kfdtrace record --sim`):
 * USERQ, USERQ_SIGNAL, USERQ_WAIT, GEM_LIST_HANDLES, INFO GPUVM_FAULT and
 * UQ_FW_AREAS, with good and bad input. What each answers depends on the
 * DRM version the node reports: before 3.64 the requests do not exist.
 * Prints "PASS: ..." and exits 0 when every answer is the kernel's.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "kfdtrace/drm_abi.h"

#define ENOTSUPP_K	524

static int failures;

static void
expect(const char *what, int r, int want_errno)
{
	int got = r < 0 ? errno : 0;

	if (got != want_errno) {
		fprintf(stderr, "FAIL: %s: errno %d, want %d\n", what, got, want_errno);
		failures++;
	}
}

static void
check(const char *what, int ok)
{
	if (!ok) {
		fprintf(stderr, "FAIL: %s\n", what);
		failures++;
	}
}

static int
info(int fd, uint32_t query, uint32_t ip, void *out, uint32_t size)
{
	struct kfd_drm_amdgpu_info q;

	memset(&q, 0, sizeof(q));
	q.return_pointer = (uintptr_t)out;
	q.return_size = size;
	q.query = query;
	q.query_hw_ip.type = ip;
	return ioctl(fd, KFD_DRM_IOCTL_AMDGPU_INFO, &q);
}

static void
probe_userq(int fd, int have)
{
	union kfd_drm_amdgpu_userq q;
	struct kfd_drm_amdgpu_userq_signal s;
	struct kfd_drm_amdgpu_userq_wait w;
	uint32_t sync[2] = { 1, 2 };
	uint8_t mqd[16] = { 0 };
	int want = have ? ENOTSUPP_K : EINVAL;

	memset(&q, 0, sizeof(q));
	q.in.op = KFD_DRM_AMDGPU_USERQ_OP_CREATE;
	q.in.ip_type = KFD_DRM_AMDGPU_HW_IP_COMPUTE;
	q.in.queue_va = 0x100000;
	q.in.queue_size = 4096;
	q.in.rptr_va = 0x200000;
	q.in.wptr_va = 0x200008;
	q.in.mqd = (uintptr_t)mqd;
	q.in.mqd_size = sizeof(mqd);
	expect("USERQ CREATE", ioctl(fd, KFD_DRM_IOCTL_AMDGPU_USERQ, &q), want);
	memset(&q, 0, sizeof(q));
	q.in.op = KFD_DRM_AMDGPU_USERQ_OP_FREE;
	q.in.queue_id = 1;
	expect("USERQ FREE", ioctl(fd, KFD_DRM_IOCTL_AMDGPU_USERQ, &q), want);
	/* a short argument: drm_ioctl zero-fills the rest */
	expect("USERQ 8 bytes", ioctl(fd, _IOC(_IOC_READ | _IOC_WRITE, 'd',
					       0x40 + KFD_DRM_AMDGPU_USERQ, 8), &q), want);

	memset(&s, 0, sizeof(s));
	s.queue_id = 1;
	s.syncobj_handles = (uintptr_t)sync;
	s.num_syncobj_handles = 2;
	expect("USERQ_SIGNAL", ioctl(fd, KFD_DRM_IOCTL_AMDGPU_USERQ_SIGNAL, &s), want);
	/* a count with a NULL array, and far too many handles */
	s.syncobj_handles = 0;
	s.num_bo_write_handles = 1u << 20;
	expect("USERQ_SIGNAL NULL array", ioctl(fd, KFD_DRM_IOCTL_AMDGPU_USERQ_SIGNAL, &s),
	       want);

	memset(&w, 0, sizeof(w));
	w.waitq_id = 1;
	w.num_fences = 4;
	w.num_syncobj_handles = 2;
	w.syncobj_handles = (uintptr_t)sync;
	expect("USERQ_WAIT", ioctl(fd, KFD_DRM_IOCTL_AMDGPU_USERQ_WAIT, &w), want);
	check("USERQ_WAIT leaves num_fences", w.num_fences == 4);
	expect("USERQ_WAIT bad argument", ioctl(fd, KFD_DRM_IOCTL_AMDGPU_USERQ_WAIT,
						(void *)8), have ? EFAULT : EINVAL);
}

static void
probe_list_handles(int fd, int have)
{
	struct kfd_drm_amdgpu_gem_list_handles l;
	struct kfd_drm_amdgpu_gem_list_handles_entry e[4];
	union kfd_drm_amdgpu_gem_create c;
	int want = have ? 0 : EINVAL;

	for (int i = 0; i < 2; i++) {
		memset(&c, 0, sizeof(c));
		c.in.bo_size = 4096 << i;
		c.in.alignment = 4096;
		c.in.domains = i ? KFD_DRM_AMDGPU_GEM_DOMAIN_VRAM :
			       KFD_DRM_AMDGPU_GEM_DOMAIN_GTT;
		expect("GEM_CREATE", ioctl(fd, KFD_DRM_IOCTL_AMDGPU_GEM_CREATE, &c), 0);
	}
	memset(&l, 0, sizeof(l));
	expect("LIST_HANDLES count", ioctl(fd, KFD_DRM_IOCTL_AMDGPU_GEM_LIST_HANDLES, &l),
	       want);
	check("LIST_HANDLES count", l.num_entries == (have ? 2u : 0u));
	memset(e, 0, sizeof(e));
	l.entries = (uintptr_t)e;
	l.num_entries = 4;
	expect("LIST_HANDLES fill", ioctl(fd, KFD_DRM_IOCTL_AMDGPU_GEM_LIST_HANDLES, &l),
	       want);
	if (have)
		check("LIST_HANDLES entries", l.num_entries == 2 && e[0].gem_handle == 1 &&
		      e[1].gem_handle == 2 && e[1].size == 8192 &&
		      e[1].preferred_domains == KFD_DRM_AMDGPU_GEM_DOMAIN_VRAM &&
		      e[0].alignment == 1);
	l.entries = 8;
	expect("LIST_HANDLES bad array", ioctl(fd, KFD_DRM_IOCTL_AMDGPU_GEM_LIST_HANDLES,
					       &l), have ? EFAULT : EINVAL);
}

int
main(void)
{
	struct kfd_drm_amdgpu_info_gpuvm_fault vf;
	struct kfd_drm_version v;
	uint8_t raw[16];
	int fd = open("/dev/dri/renderD128", O_RDWR | O_CLOEXEC);

	if (fd < 0) {
		perror("FAIL: open /dev/dri/renderD128");
		return 1;
	}
	memset(&v, 0, sizeof(v));
	if (ioctl(fd, KFD_DRM_IOCTL_VERSION, &v)) {
		perror("FAIL: DRM_VERSION");
		return 1;
	}
	probe_userq(fd, v.version_minor >= 64);
	probe_list_handles(fd, v.version_minor >= 64);

	memset(&vf, 0xa5, sizeof(vf));
	expect("INFO GPUVM_FAULT", info(fd, KFD_DRM_AMDGPU_INFO_GPUVM_FAULT, 0, &vf,
					sizeof(vf)), v.version_minor >= 55 ? 0 : EINVAL);
	if (v.version_minor >= 55)
		check("GPUVM_FAULT zeros", !vf.addr && !vf.status && !vf.vmhub);
	expect("INFO UQ_FW_AREAS GFX", info(fd, KFD_DRM_AMDGPU_INFO_UQ_FW_AREAS,
					    KFD_DRM_AMDGPU_HW_IP_GFX, raw, sizeof(raw)),
	       v.version_minor >= 64 ? EOPNOTSUPP : EINVAL);
	expect("INFO UQ_FW_AREAS COMPUTE", info(fd, KFD_DRM_AMDGPU_INFO_UQ_FW_AREAS,
						KFD_DRM_AMDGPU_HW_IP_COMPUTE, raw,
						sizeof(raw)), EINVAL);
	/* the first number only proposals use */
	memset(raw, 0, sizeof(raw));
	expect("nr 0x5a", ioctl(fd, _IOC(_IOC_READ | _IOC_WRITE, 'd', 0x5a, 16), raw),
	       EINVAL);
	close(fd);
	if (failures)
		return 1;
	printf("PASS: drm_userq_probe (DRM 3.%d)\n", v.version_minor);
	return 0;
}

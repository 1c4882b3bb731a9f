/* SPDX-License-Identifier: MIT */
/*
 * The engines behind a render-node submission (drm_cs.c): an IB runs
 * against the render file's VM, PM4 on the GFX and compute rings, SDMA
 * packets on the DMA rings.
 *
 * The command processor of cp*.c serves KFD queues of a process; a CS
 * belongs to a render file, which may have no KFD process at all. So the
 * IB is interpreted here, for the packets that move memory the way a
 * client sees: PM4 NOP, WRITE_DATA and RELEASE_MEM (the state and cache
 * packets around them have no visible effect), SDMA NOP, linear WRITE,
 * FENCE and TRAP. A packet beyond those, or an IB the VM does not map,
 * stops the job as a hung one is stopped: its fence gets -ETIME.
 * Device lock held.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "kfdtrace/packet_abi.h"
#include "ksim_priv.h"

/* The largest IB a ring takes (amdgpu_ib_get's 1 MiB pool limit, dwords). */
#define IB_MAX_DW		(1u << 18)

/* A line on stderr: a job the model stopped, which the client only sees
 * as its fence's error. */
static void
cs_warn(const struct ksim_file *f, const char *fmt, ...)
{
	char buf[256];
	va_list ap;
	int n;

	n = snprintf(buf, sizeof(buf), "kfdsim: render%d: CS: ", f->gpu);
	va_start(ap, fmt);
	if (n > 0 && (size_t)n < sizeof(buf))
		n += vsnprintf(buf + n, sizeof(buf) - (size_t)n, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if ((size_t)n >= sizeof(buf) - 1)
		n = (int)sizeof(buf) - 2;
	buf[n++] = '\n';
	(void)syscall(SYS_write, 2, buf, (size_t)n);
}

int
ksim_drm_bo_write(struct ksim_device *dev, struct ksim_bo *bo, uint64_t off,
		  const void *buf, uint64_t len)
{
	int fd;

	(void)dev;
	switch (bo->domain) {
	case KSIM_DOM_USERPTR:
		return ksim_copy_to_user(bo->userptr + off, buf, len) ? -1 : 0;
	case KSIM_DOM_VRAM:
	case KSIM_DOM_GTT:
		fd = ksim_bo_backing(bo);
		if (fd < 0)
			return -1;
		return ksim_sys_pwrite(fd, buf, len, off) ? -1 : 0;
	default:
		return -1;
	}
}

/* Read or write [va, va+len) of @f's VM, across mappings. Return: 0 or -1. */
static int
vm_rw(struct ksim_file *f, uint64_t va, void *buf, uint64_t len, int write)
{
	uint8_t *b = buf;

	if (va + len < va)
		return -1;
	while (len) {
		struct ksim_mapping *m = ksim_vm_find(&f->vm, va);
		uint64_t off, n;
		int fd;

		if (!m || !m->bo)
			return -1;
		/* A GEM_VA mapping without WRITEABLE refuses stores;
		 * KFD's mappings are writable unless made read-only. */
		if (write && !m->kmem && !(m->flags & KFD_DRM_AMDGPU_VM_PAGE_WRITEABLE))
			return -1;
		n = m->start + m->size - va;
		if (n > len)
			n = len;
		off = m->offset + (va - m->start);
		switch (m->bo->domain) {
		case KSIM_DOM_USERPTR:
			if (write ? ksim_copy_to_user(m->bo->userptr + off, b, n) :
				    ksim_copy_from_user(b, m->bo->userptr + off, n))
				return -1;
			break;
		case KSIM_DOM_VRAM:
		case KSIM_DOM_GTT:
			if (!write && m->bo->memfd < 0) {
				memset(b, 0, n);	/* never written: zero pages */
				break;
			}
			fd = ksim_bo_backing(m->bo);
			if (fd < 0 || (write ? ksim_sys_pwrite(fd, b, n, off) :
					       ksim_sys_pread(fd, b, n, off)))
				return -1;
			break;
		default:
			return -1;
		}
		va += n;
		b += n;
		len -= n;
	}
	return 0;
}

static uint64_t
now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

/* RELEASE_MEM (gfx9 layout): the end-of-pipe write of data_lo/hi. */
static int
pm4_release_mem(struct ksim_file *f, const uint32_t *p)
{
	uint64_t addr = p[3] | (uint64_t)p[4] << 32;
	uint64_t v = p[5] | (uint64_t)p[6] << 32;

	switch (KFD_PM4_REL_DATA_SEL(p[2])) {
	case KFD_PM4_DATA_NONE:
		return 0;
	case KFD_PM4_DATA_32:
		return vm_rw(f, addr, &v, 4, 1);
	case KFD_PM4_DATA_64:
		return vm_rw(f, addr, &v, 8, 1);
	case KFD_PM4_DATA_GPU_CLOCK:
	case KFD_PM4_DATA_SYS_CLOCK:
		v = now_ns();
		return vm_rw(f, addr, &v, 8, 1);
	default:
		return -1;
	}
}

static int
pm4_run(struct ksim_file *f, const uint32_t *ib, uint32_t ndw)
{
	uint32_t i = 0;

	while (i < ndw) {
		uint32_t h = ib[i], len, op;

		if (KFD_PM4_IS_FILLER(h)) {
			i++;
			continue;
		}
		if (KFD_PM4_TYPE(h) != 3) {
			cs_warn(f, "PM4 packet type %u at dword %u: not executed; job stopped",
				KFD_PM4_TYPE(h), i);
			return -ETIME;
		}
		len = KFD_PM4_COUNT(h) + 2;
		op = KFD_PM4_OPCODE(h);
		if (len > ndw - i) {
			cs_warn(f, "PM4 packet 0x%x at dword %u runs past the IB; job stopped",
				op, i);
			return -ETIME;
		}
		switch (op) {
		case KFD_PM4_OP_NOP:
		case KFD_PM4_OP_EVENT_WRITE:
		case KFD_PM4_OP_ACQUIRE_MEM:
		case KFD_PM4_OP_SET_SH_REG:
		case KFD_PM4_OP_SET_UCONFIG_REG:
			break;
		case KFD_PM4_OP_WRITE_DATA: {
			uint32_t sel = KFD_PM4_WRITE_DST_SEL(ib[i + 1]);
			uint64_t addr = ib[i + 2] | (uint64_t)ib[i + 3] << 32;

			if (len < 5)
				goto bad;
			/* Registers are not modelled: nothing a client reads. */
			if (sel == KFD_PM4_DST_REG)
				break;
			if (sel != KFD_PM4_DST_MEM && sel != KFD_PM4_DST_TC_L2 &&
			    sel != KFD_PM4_DST_MEM_SYNC)
				goto bad;
			if (ib[i + 1] & KFD_PM4_WRITE_ONE_ADDR) {
				if (vm_rw(f, addr, (void *)&ib[i + len - 1], 4, 1))
					goto fault;
			} else if (vm_rw(f, addr, (void *)&ib[i + 4], (uint64_t)(len - 4) * 4, 1)) {
				goto fault;
			}
			break;
		}
		case KFD_PM4_OP_RELEASE_MEM:
			if (len < 7)
				goto bad;
			if (pm4_release_mem(f, &ib[i]))
				goto fault;
			break;
		default:
			goto bad;
		}
		i += len;
		continue;
bad:
		cs_warn(f, "PM4 opcode 0x%x at dword %u: not executed; job stopped", op, i);
		return -ETIME;
fault:
		cs_warn(f, "PM4 opcode 0x%x at dword %u: its memory is not mapped "
			"(writable); job stopped", op, i);
		return -ETIME;
	}
	return 0;
}

static int
sdma_run(struct ksim_file *f, const uint32_t *ib, uint32_t ndw)
{
	uint32_t i = 0;

	while (i < ndw) {
		uint32_t h = ib[i], op = h & 0xffu, sub = (h >> 8) & 0xffu, len;
		uint64_t addr;

		switch (op) {
		case KFD_SDMA_OP_NOP:
			len = 1 + ((h >> 16) & 0x3fffu);
			break;
		case KFD_SDMA_OP_WRITE:
			if (sub != 0 || ndw - i < 4)
				goto bad;
			len = 4 + ib[i + 3] + 1;
			if (len < 5 || len > ndw - i)
				goto bad;
			addr = ib[i + 1] | (uint64_t)ib[i + 2] << 32;
			if (vm_rw(f, addr, (void *)&ib[i + 4], (uint64_t)(len - 4) * 4, 1))
				goto fault;
			break;
		case KFD_SDMA_OP_FENCE:
			len = 4;
			if (len > ndw - i)
				goto bad;
			addr = ib[i + 1] | (uint64_t)ib[i + 2] << 32;
			if (vm_rw(f, addr, (void *)&ib[i + 3], 4, 1))
				goto fault;
			break;
		case KFD_SDMA_OP_TRAP:
			len = 2;
			break;
		default:
			goto bad;
		}
		i += len;
		continue;
bad:
		cs_warn(f, "SDMA op %u sub-op %u at dword %u: not executed; job stopped",
			op, sub, i);
		return -ETIME;
fault:
		cs_warn(f, "SDMA op %u at dword %u: its memory is not mapped (writable); "
			"job stopped", op, i);
		return -ETIME;
	}
	return 0;
}

int
ksim_drm_cs_exec(struct ksim_file *f, uint32_t ip, uint64_t va, uint32_t ndw)
{
	uint32_t *ib;
	int r;

	if (!ndw)
		return 0;
	if (ndw > IB_MAX_DW) {
		cs_warn(f, "IB of %u dwords: larger than a ring takes; job stopped", ndw);
		return -ETIME;
	}
	ib = malloc((size_t)ndw * 4);
	if (!ib)
		return -ENOMEM;
	if (vm_rw(f, va, ib, (uint64_t)ndw * 4, 0)) {
		cs_warn(f, "IB at 0x%llx (%u dwords) is not mapped; job stopped",
			(unsigned long long)va, ndw);
		free(ib);
		return -ETIME;
	}
	switch (ip) {
	case KFD_DRM_AMDGPU_HW_IP_GFX:
	case KFD_DRM_AMDGPU_HW_IP_COMPUTE:
		r = pm4_run(f, ib, ndw);
		break;
	case KFD_DRM_AMDGPU_HW_IP_DMA:
		r = sdma_run(f, ib, ndw);
		break;
	default:
		cs_warn(f, "IB on HW IP %u: no engine modelled; job stopped", ip);
		r = -ETIME;
		break;
	}
	free(ib);
	return r;
}

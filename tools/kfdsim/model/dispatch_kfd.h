/* SPDX-License-Identifier: MIT */
/*
 * The /dev/kfd dispatch table as the model resolved it: which nrs have a
 * handler, and the kernel command each answers as, taken from the schema
 * row of that nr (struct size and direction from its request code, the
 * ABI minor it appeared in). kfdsim types none of them itself.
 */
#ifndef KSIM_DISPATCH_KFD_H
#define KSIM_DISPATCH_KFD_H

#include <stdint.h>

/* Dispatch flags: the kernel's KFD_IOC_FLAG_CHECKPOINT_RESTORE, and
 * handlers that touch no mutable state (no device lock). */
#define KSIM_KFD_F_CRIU		0x1
#define KSIM_KFD_F_NOLOCK	0x2
/* The ROCm driver's KFD_IOC_FLAG_PERFMON: CAP_PERFMON or CAP_SYS_ADMIN. */
#define KSIM_KFD_F_PERFMON	0x4

struct ksim_kfd_row_info {
	uint16_t size;		/* kernel struct size: the schema request's _IOC_SIZE */
	uint8_t dir;		/* _IOC_READ / _IOC_WRITE of that request */
	uint8_t since;		/* ABI minor that added it (schema since_minor) */
	uint8_t flags;		/* KSIM_KFD_F_* */
	uint8_t rocm;		/* answered in the rocm kernel flavour only */
};

/*
 * ksim_kfd_row_info() - the dispatch row of ioctl @nr.
 * @nr:		the ioctl number (0x01..0x27 upstream, 0x80.. ROCm)
 * @out:	filled when the model has a handler for @nr
 *
 * Return: 1 with @out filled; 0 when the model has no handler for @nr;
 * -1 when it has one but the schema has no row for @nr (the model then
 * leaves the handler out, as if it had none: without the row it cannot
 * know the kernel's struct size).
 */
int ksim_kfd_row_info(unsigned int nr, struct ksim_kfd_row_info *out);

#endif /* KSIM_DISPATCH_KFD_H */

/* SPDX-License-Identifier: MIT */
/*
 * <linux/kfd_ioctl.h> includes <drm/drm.h>. Debian ships that header in
 * libdrm-dev as <libdrm/drm.h>; this file forwards to it so the kernel
 * header can be compiled for the ABI cross-check.
 */
#include <libdrm/drm.h>

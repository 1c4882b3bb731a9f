/* SPDX-License-Identifier: MIT */
/*
 * Marketing names come from libdrm_amdgpu's ids table, looked up through
 * an amdgpu device on the GPU's render node. A failure only leaves the
 * name empty.
 */
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>

#include "topology/topo.h"

#ifdef KMT_HAVE_LIBDRM_AMDGPU
#include <amdgpu.h>
#include <xf86drm.h>

void
kmt_topo_marketing_name(uint32_t minor, HSAuint16 *name)
{
	amdgpu_device_handle dev;
	uint32_t major_v, minor_v;
	const char *s;
	int fd, i;

	/*
	 * libdrm prints the node number into a buffer with room for three
	 * digits: a larger minor from a malformed properties file would
	 * overflow its stack. No render node has one.
	 */
	if (minor > 999) {
		kmt_info("render minor %u out of range: no marketing name\n", minor);
		return;
	}
	fd = drmOpenRender((int)minor);
	if (fd < 0) {
		kmt_info("render node %u: cannot open for the marketing name\n", minor);
		return;
	}
	if (amdgpu_device_initialize(fd, &major_v, &minor_v, &dev)) {
		kmt_info("render node %u: not an amdgpu device\n", minor);
		drmClose(fd);
		return;
	}
	s = amdgpu_get_marketing_name(dev);
	if (s) {
		for (i = 0; s[i] && i < HSA_PUBLIC_NAME_SIZE - 1; i++)
			name[i] = (unsigned char)s[i];
		name[i] = 0;
	}
	amdgpu_device_deinitialize(dev);
	drmClose(fd);
}
#else
void
kmt_topo_marketing_name(uint32_t minor, HSAuint16 *name)
{
	/* Built without libdrm_amdgpu: no name source. */
	(void)minor;
	name[0] = 0;
}
#endif

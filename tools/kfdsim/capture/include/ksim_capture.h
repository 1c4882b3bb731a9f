/* SPDX-License-Identifier: MIT */
/*
 * Describing the machine a process runs on as a kfdsim profile: the KFD
 * sysfs topology as it stands, and for every GPU node what its render node
 * (DRM version, AMDGPU_INFO) and /dev/kfd (apertures, tile config, XNACK,
 * available memory) answer. Facts no interface shows (doorbell layout, the
 * CWSR sizes of kernels that do not print them, the queue limit) are
 * derived from the GPU's gfx version with the kernel's formulas.
 *
 * Run under the simulator it reads the simulated machine, so a profile
 * survives the round trip load -> simulate -> capture.
 */
#ifndef KSIM_CAPTURE_H
#define KSIM_CAPTURE_H

#include "ksim_profile.h"

/* Where the KFD topology lives (the thunk's path). */
#define KSIM_CAPTURE_TOPOLOGY "/sys/devices/virtual/kfd/kfd/topology"

/*
 * ksim_capture_profile() - capture this machine.
 * @name:	the profile's name (its [machine] name)
 * @err:	on failure set to a malloc'd message (free() it); may be NULL
 *
 * Return: a new profile (ksim_profile_free()), or NULL when the machine has
 * no KFD topology, a GPU's files cannot be read, or the result does not
 * validate.
 */
struct ksim_profile *ksim_capture_profile(const char *name, char **err);

#endif

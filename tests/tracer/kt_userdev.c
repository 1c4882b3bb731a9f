/* SPDX-License-Identifier: MIT */
/*
 * A user-space KFD device that is nothing but its announcement
 * (kfdtrace/userdev.h), for test_userdev.c: preloaded next to the capture
 * library on a host where /dev/kfd answers no differently, it must be what
 * marks the trace KT_HDR_SIMULATED.
 */
#include <kfdtrace/userdev.h>

KFD_USERDEV_DEFINE("kt_userdev");

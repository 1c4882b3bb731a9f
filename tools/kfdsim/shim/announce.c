/* SPDX-License-Identifier: MIT */
/*
 * The simulator makes itself known the way any user-space KFD device does
 * (kfdtrace/userdev.h): a capture library in the same process marks its
 * traces as taken on a simulated device because this symbol is in the
 * process, not because it knows kfdsim's file name. Only libkfdsim.so has
 * it: a program that links the model itself is no device to anyone else.
 */
#include <kfdtrace/userdev.h>

KFD_USERDEV_DEFINE("kfdsim");

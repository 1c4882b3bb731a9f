/* SPDX-License-Identifier: MIT */
/*
 * How a user-space KFD device makes itself known.
 *
 * A library that answers /dev/kfd and the render nodes inside the process
 * instead of the kernel (a simulator, an emulator, a record-and-play-back
 * stub) defines the symbol KFD_USERDEV_SYM, a NUL-terminated string that
 * names the implementation, with default visibility, in a library of the
 * process's global scope (preloaded or linked):
 *
 *	KFD_USERDEV_DEFINE("kfdsim");
 *
 * The capture library looks the symbol up when it begins a trace and, when
 * it is there, marks the trace KT_HDR_SIMULATED (docs/trace-format.md). So
 * the flag follows what the process really runs on, whatever the device's
 * library is called or how it was loaded, and nothing outside the device
 * knows which device that is. A real /dev/kfd defines nothing.
 */
#ifndef KFDTRACE_USERDEV_H
#define KFDTRACE_USERDEV_H

#define KFD_USERDEV_SYM		kfd_userdev_name
#define KFD_USERDEV_STR_(x)	#x
#define KFD_USERDEV_STR(x)	KFD_USERDEV_STR_(x)
/* The symbol's name, for dlsym(). */
#define KFD_USERDEV_SYM_NAME	KFD_USERDEV_STR(KFD_USERDEV_SYM)

/*
 * KFD_USERDEV_DEFINE() - define the announcement in a device's library.
 * @name:	a string literal naming the implementation
 */
#define KFD_USERDEV_DEFINE(name)					\
	__attribute__((visibility("default"), used))			\
	const char KFD_USERDEV_SYM[] = name

#endif /* KFDTRACE_USERDEV_H */

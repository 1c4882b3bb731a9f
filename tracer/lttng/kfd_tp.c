/* SPDX-License-Identifier: MIT */
/*
 * The one translation unit that instantiates the "kfd" probes and the
 * tracepoint definitions (kfd_tp.h is generated from the schema). The
 * probes and every call site live in this library, so the library is the
 * provider in lttng-ust's static sense and needs no dynamic linkage.
 */
#define LTTNG_UST_TRACEPOINT_CREATE_PROBES
#define LTTNG_UST_TRACEPOINT_DEFINE
#include "kfd_tp.h"

/* SPDX-License-Identifier: MIT */
/* Private to kfd-lttng-gen: the fixed events (gen_tp_fixed.c). */
#ifndef GEN_TP_H
#define GEN_TP_H

#include <stddef.h>

/* The names of the fixed events, which no schema row may take. */
extern const char *const gen_fixed_events[];
extern const size_t gen_nfixed_events;

/* Their tracepoint definitions, the enumeration file_kind first. */
extern const char gen_fixed_text[];

#endif /* GEN_TP_H */

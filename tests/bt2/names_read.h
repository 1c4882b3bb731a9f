/* SPDX-License-Identifier: MIT */
/*
 * Readers of the two field-name sources the exporter tests compare: the
 * CTF metadata `kfdtrace export --ctf` writes (sink.ctf.fs) and the
 * lttng-ust provider header kfd-lttng-gen writes (kfd_tp.h).
 */
#ifndef BT2_NAMES_READ_H
#define BT2_NAMES_READ_H

#include <stddef.h>

/*
 * ctf_export_metadata() - write gen-bt2-trace's @mode trace ("all",
 * "rows") in @work, export it with `@kfdtrace export --ctf` and read the
 * CTF metadata (free()).
 *
 * Return: the metadata, or NULL (with a message) when a step failed.
 */
char *ctf_export_metadata(const char *kfdtrace, const char *gen,
			  const char *mode, const char *work);

/* ctf_event_block() - event @name's declaration in @meta (free()), or NULL. */
char *ctf_event_block(const char *meta, const char *name);

/*
 * ctf_has_field() - whether @block declares scalar member @field
 * (sink.ctf.fs writes it with a leading '_': "... _gpu_id;").
 */
int ctf_has_field(const char *block, const char *field);

/*
 * ctf_members() - the names of @block's top-level payload members in
 * order, without sink.ctf.fs's leading '_' (arrays without their length),
 * into @out (@max of them).
 *
 * Return: how many, or -1 when @block has no payload or more than @max.
 */
int ctf_members(const char *block, char (*out)[96], int max);

/* tp_event_block() - kfd:@name's LTTNG_UST_TRACEPOINT_EVENT (free()), or NULL. */
char *tp_event_block(const char *tp, const char *name);

/*
 * tp_field() - the name of the @i-th lttng_ust_field_*() of @block: the
 * second argument, or for lttng_ust_field_enum(provider, enum, type, NAME,
 * ...) the fourth.
 *
 * Return: 0, or -1 when @block has no @i-th field.
 */
int tp_field(const char *block, unsigned int i, char *out, size_t size);

/* tp_has_field() - whether @block has a field named @field. */
int tp_has_field(const char *block, const char *field);

#endif /* BT2_NAMES_READ_H */

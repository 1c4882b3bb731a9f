/* SPDX-License-Identifier: MIT */
/*
 * The provider's events that do not come from a schema row, as kfd-lttng-gen
 * writes them into kfd_tp.h (gen_tp.h). Their err is the errno enumeration
 * gen_tp.c declares first, so it is named "err_names".
 */
#include <stddef.h>

#include "gen_tp.h"

/* Events that do not come from a schema row. */
const char *const gen_fixed_events[] = {
	"ioctl_enter", "ioctl_exit", "mmap", "munmap", "submit",
};

const size_t gen_nfixed_events =
	sizeof(gen_fixed_events) / sizeof(gen_fixed_events[0]);

const char gen_fixed_text[] =
	"LTTNG_UST_TRACEPOINT_ENUM(kfd, file_kind,\n"
	"\tLTTNG_UST_TP_ENUM_VALUES(\n"
	"\t\tlttng_ust_field_enum_value(\"unknown\", 0)\n"
	"\t\tlttng_ust_field_enum_value(\"kfd\", 1)\n"
	"\t\tlttng_ust_field_enum_value(\"render\", 2)))\n"
	"\n"
	"/* A request the schema does not know, before the call. */\n"
	"LTTNG_UST_TRACEPOINT_EVENT(kfd, ioctl_enter,\n"
	"\tLTTNG_UST_TP_ARGS(const struct kfd_dispatch_call *, c),\n"
	"\tLTTNG_UST_TP_FIELDS(\n"
	"\t\tlttng_ust_field_integer(int, fd, c->fd)\n"
	"\t\tlttng_ust_field_enum(kfd, file_kind, uint8_t, kind, c->kind)\n"
	"\t\tlttng_ust_field_integer_hex(uint32_t, request, (uint32_t)c->request)\n"
	"\t\tlttng_ust_field_integer(uint32_t, size, c->arg_size)))\n"
	"\n"
	"/*\n"
	" * Its result; also the result of a known request whose argument bytes\n"
	" * could not be read.\n"
	" */\n"
	"LTTNG_UST_TRACEPOINT_EVENT(kfd, ioctl_exit,\n"
	"\tLTTNG_UST_TP_ARGS(const struct kfd_dispatch_call *, c),\n"
	"\tLTTNG_UST_TP_FIELDS(\n"
	"\t\tlttng_ust_field_integer(int, fd, c->fd)\n"
	"\t\tlttng_ust_field_enum(kfd, file_kind, uint8_t, kind, c->kind)\n"
	"\t\tlttng_ust_field_integer_hex(uint32_t, request, (uint32_t)c->request)\n"
	"\t\tlttng_ust_field_integer(uint32_t, size, c->arg_size)\n"
	"\t\tlttng_ust_field_integer(int, ret, c->ret)\n"
	"\t\tlttng_ust_field_enum(kfd, err_names, int, err, c->err)\n"
	"\t\tlttng_ust_field_integer(uint64_t, dur_ns, c->t_exit - c->t_enter)))\n"
	"\n"
	"/* A mapping of a device file (doorbells, events page, buffer objects). */\n"
	"LTTNG_UST_TRACEPOINT_EVENT(kfd, mmap,\n"
	"\tLTTNG_UST_TP_ARGS(uint64_t, addr, uint64_t, len, int, prot, int, flags,\n"
	"\t\t\t  int, fd, int, kind, uint64_t, offset, uint64_t, result,\n"
	"\t\t\t  int, err),\n"
	"\tLTTNG_UST_TP_FIELDS(\n"
	"\t\tlttng_ust_field_integer_hex(uint64_t, addr, addr)\n"
	"\t\tlttng_ust_field_integer(uint64_t, len, len)\n"
	"\t\tlttng_ust_field_integer_hex(int, prot, prot)\n"
	"\t\tlttng_ust_field_integer_hex(int, flags, flags)\n"
	"\t\tlttng_ust_field_integer(int, fd, fd)\n"
	"\t\tlttng_ust_field_enum(kfd, file_kind, uint8_t, kind, kind)\n"
	"\t\tlttng_ust_field_integer_hex(uint64_t, offset, offset)\n"
	"\t\tlttng_ust_field_integer_hex(uint64_t, result, result)\n"
	"\t\tlttng_ust_field_enum(kfd, err_names, int, err, err)))\n"
	"\n"
	"/* An unmap that touched a device mapping. */\n"
	"LTTNG_UST_TRACEPOINT_EVENT(kfd, munmap,\n"
	"\tLTTNG_UST_TP_ARGS(uint64_t, addr, uint64_t, len, int, ret, int, err),\n"
	"\tLTTNG_UST_TP_FIELDS(\n"
	"\t\tlttng_ust_field_integer_hex(uint64_t, addr, addr)\n"
	"\t\tlttng_ust_field_integer(uint64_t, len, len)\n"
	"\t\tlttng_ust_field_integer(int, ret, ret)\n"
	"\t\tlttng_ust_field_enum(kfd, err_names, int, err, err)))\n"
	"\n"
	"/* The packets a doorbell published (record --submissions). */\n"
	"LTTNG_UST_TRACEPOINT_EVENT(kfd, submit,\n"
	"\tLTTNG_UST_TP_ARGS(uint32_t, queue_id, uint32_t, gpu_id, int, engine,\n"
	"\t\t\t  uint64_t, first, uint64_t, last, const uint8_t *, data,\n"
	"\t\t\t  uint32_t, len),\n"
	"\tLTTNG_UST_TP_FIELDS(\n"
	"\t\tlttng_ust_field_integer(uint32_t, queue_id, queue_id)\n"
	"\t\tlttng_ust_field_integer_hex(uint32_t, gpu_id, gpu_id)\n"
	"\t\tlttng_ust_field_integer(int, engine, engine)\n"
	"\t\tlttng_ust_field_integer(uint64_t, first, first)\n"
	"\t\tlttng_ust_field_integer(uint64_t, last, last)\n"
	"\t\tlttng_ust_field_sequence_hex(uint8_t, packets, data, uint32_t, len)))\n";

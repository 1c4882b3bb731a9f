/* SPDX-License-Identifier: MIT */
/* KFD rows: events (create, destroy, set, reset, wait). */
#include "schema_priv.h"

/* 0x08 CREATE_EVENT */
#define T struct kfd_abi_create_event_args
static const struct kfd_field create_event_f[] = {
	/*
	 * On dGPUs the caller passes the handle of the BO it allocated for the
	 * events page; APUs get an EVENTS mmap offset back instead.
	 */
	KS_FA(T, event_page_offset, INOUT, HANDLE, EVENT_PAGE),
	KS_FA(T, event_trigger_data, OUT, HEX, TRIGGER),
	KS_FNA(T, event_type, IN, ENUM, ks_event_type, TYPE),
	KS_FA(T, auto_reset, IN, NONE, AUTO_RESET),
	KS_F(T, node_id, IN, NONE),
	KS_FA(T, event_id, OUT, EVENT_ID, OBJ),
	KS_FA(T, event_slot_index, OUT, EVENT_SLOT, SLOT),
};
KS_DESC(create_event_d, "kfd_abi_create_event_args", T, create_event_f);
#undef T

/* 0x09..0x0B DESTROY/SET/RESET_EVENT share one layout. */
#define T struct kfd_abi_destroy_event_args
static const struct kfd_field destroy_event_f[] = {
	KS_FA(T, event_id, IN, EVENT_ID, OBJ),
	KS_F(T, pad, NONE, PAD),
};
KS_DESC(destroy_event_d, "kfd_abi_destroy_event_args", T, destroy_event_f);
#undef T

#define T struct kfd_abi_set_event_args
static const struct kfd_field set_event_f[] = {
	KS_FA(T, event_id, IN, EVENT_ID, OBJ),
	KS_F(T, pad, NONE, PAD),
};
KS_DESC(set_event_d, "kfd_abi_set_event_args", T, set_event_f);
#undef T

#define T struct kfd_abi_reset_event_args
static const struct kfd_field reset_event_f[] = {
	KS_FA(T, event_id, IN, EVENT_ID, OBJ),
	KS_F(T, pad, NONE, PAD),
};
KS_DESC(reset_event_d, "kfd_abi_reset_event_args", T, reset_event_f);
#undef T

/*
 * One kfd_abi_event_data. The 32-byte union's arm depends on the event's
 * type, which the element does not carry (signal: last_event_age in/out;
 * memory or HW exception: data out), so it is kept as opaque bytes.
 */
#define T struct kfd_abi_event_data
static const struct kfd_field event_data_f[] = {
	KS_FNAMED("data", T, memory_exception_data, INOUT, BYTES),
	KS_F(T, kfd_event_data_ext, IN, PTR),
	KS_F(T, event_id, IN, EVENT_ID),
	KS_F(T, pad, NONE, PAD),
};
KS_DESC(event_data_d, "kfd_abi_event_data", T, event_data_f);
#undef T

/* 0x0C WAIT_EVENTS */
#define T struct kfd_abi_wait_events_args
static const struct kfd_field wait_events_f[] = {
	KS_F(T, events_ptr, IN, PTR),			/* 0 */
	KS_F(T, num_events, IN, COUNT),			/* 1 */
	KS_FA(T, wait_for_all, IN, NONE, WAIT_ALL),
	KS_FA(T, timeout, IN, TIMEOUT, TIMEOUT),
	KS_FNA(T, wait_result, OUT, ENUM, ks_wait_result, RESULT),
};
KS_DESC(wait_events_d, "kfd_abi_wait_events_args", T, wait_events_f);
#undef T
static const struct kfd_indirect wait_events_b[] = {
	KS_BUF("events", 0, 1, sizeof(struct kfd_abi_event_data), COUNT, INOUT,
	       -1, 0, &event_data_d),
};

const struct kfd_ioctl_desc ks_rows_events[] = {
	{
		KS_KFD_ROW("CREATE_EVENT", "create_event", 0x08,
			   KFD_ABI_IOC_CREATE_EVENT, 0),
		KS_CREATES(EVENT),
		KS_ARGS(create_event_d),
	},
	{
		KS_KFD_ROW("DESTROY_EVENT", "destroy_event", 0x09,
			   KFD_ABI_IOC_DESTROY_EVENT, 0),
		KS_ENDS(EVENT),
		KS_ARGS(destroy_event_d),
	},
	{
		KS_KFD_ROW("SET_EVENT", "set_event", 0x0A, KFD_ABI_IOC_SET_EVENT, 0),
		KS_ARGS(set_event_d),
	},
	{
		KS_KFD_ROW("RESET_EVENT", "reset_event", 0x0B,
			   KFD_ABI_IOC_RESET_EVENT, 0),
		KS_ARGS(reset_event_d),
	},
	{
		KS_KFD_ROW("WAIT_EVENTS", "wait_events", 0x0C,
			   KFD_ABI_IOC_WAIT_EVENTS, 0),
		KS_ARGS(wait_events_d),
		KS_BUFS(wait_events_b),
	},
};
KS_DEFINE_COUNT(events);

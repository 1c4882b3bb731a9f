/* SPDX-License-Identifier: MIT */
/*
 * A pass-through filter that counts the events going through it, built in
 * the calling process (no plugin): kt_ctf_export() puts it between the
 * source and sink.ctf.fs, so that its caller can show progress. The
 * source is in the plugin, a library of its own whose state the caller
 * cannot read; this counter is in the caller's memory.
 */
#include <stdlib.h>

#include "kbt_count.h"

struct count_iter {
	bt_message_iterator *up;
	struct kbt_count *c;
};

static bt_component_class_initialize_method_status
count_init(bt_self_component_filter *self,
	   bt_self_component_filter_configuration *config,
	   const bt_value *params, void *init_data)
{
	struct kbt_count *c = init_data;

	(void)config;
	(void)params;
	c->self = self;
	bt_self_component_set_data(
		bt_self_component_filter_as_self_component(self), c);
	if (bt_self_component_filter_add_input_port(self, "in", NULL, NULL) ||
	    bt_self_component_filter_add_output_port(self, "out", NULL, NULL))
		return BT_COMPONENT_CLASS_INITIALIZE_METHOD_STATUS_MEMORY_ERROR;
	return BT_COMPONENT_CLASS_INITIALIZE_METHOD_STATUS_OK;
}

static bt_message_iterator_class_initialize_method_status
count_iter_init(bt_self_message_iterator *self,
		bt_self_message_iterator_configuration *config,
		bt_self_component_port_output *port)
{
	struct kbt_count *c = bt_self_component_get_data(
		bt_self_message_iterator_borrow_component(self));
	struct count_iter *it = calloc(1, sizeof(*it));

	(void)config;
	(void)port;
	if (!it)
		return BT_MESSAGE_ITERATOR_CLASS_INITIALIZE_METHOD_STATUS_MEMORY_ERROR;
	it->c = c;
	if (bt_message_iterator_create_from_message_iterator(self,
		bt_self_component_filter_borrow_input_port_by_index(c->self, 0),
		&it->up) != BT_MESSAGE_ITERATOR_CREATE_FROM_MESSAGE_ITERATOR_STATUS_OK) {
		free(it);
		return BT_MESSAGE_ITERATOR_CLASS_INITIALIZE_METHOD_STATUS_ERROR;
	}
	bt_self_message_iterator_set_data(self, it);
	return BT_MESSAGE_ITERATOR_CLASS_INITIALIZE_METHOD_STATUS_OK;
}

static void
count_iter_fini(bt_self_message_iterator *self)
{
	struct count_iter *it = bt_self_message_iterator_get_data(self);

	bt_message_iterator_put_ref(it->up);
	free(it);
}

/* One batch from upstream, passed on as it is (the capacities are one). */
static bt_message_iterator_class_next_method_status
count_next(bt_self_message_iterator *self, bt_message_array_const msgs,
	   uint64_t capacity, uint64_t *count)
{
	struct count_iter *it = bt_self_message_iterator_get_data(self);
	bt_message_array_const up;
	uint64_t n, i;

	switch (bt_message_iterator_next(it->up, &up, &n)) {
	case BT_MESSAGE_ITERATOR_NEXT_STATUS_OK:
		break;
	case BT_MESSAGE_ITERATOR_NEXT_STATUS_END:
		return BT_MESSAGE_ITERATOR_CLASS_NEXT_METHOD_STATUS_END;
	case BT_MESSAGE_ITERATOR_NEXT_STATUS_AGAIN:
		return BT_MESSAGE_ITERATOR_CLASS_NEXT_METHOD_STATUS_AGAIN;
	case BT_MESSAGE_ITERATOR_NEXT_STATUS_MEMORY_ERROR:
		return BT_MESSAGE_ITERATOR_CLASS_NEXT_METHOD_STATUS_MEMORY_ERROR;
	default:
		return BT_MESSAGE_ITERATOR_CLASS_NEXT_METHOD_STATUS_ERROR;
	}
	if (n > capacity) {
		/* Not in babeltrace2 2.0: every array has one capacity. */
		for (i = 0; i < n; i++)
			bt_message_put_ref(up[i]);
		return BT_MESSAGE_ITERATOR_CLASS_NEXT_METHOD_STATUS_ERROR;
	}
	for (i = 0; i < n; i++) {
		msgs[i] = up[i];
		if (bt_message_get_type(up[i]) == BT_MESSAGE_TYPE_EVENT)
			it->c->events++;
	}
	*count = n;
	return BT_MESSAGE_ITERATOR_CLASS_NEXT_METHOD_STATUS_OK;
}

bt_component_class_filter *
kbt_count_class_create(void)
{
	bt_message_iterator_class *ic = bt_message_iterator_class_create(count_next);
	bt_component_class_filter *fc = NULL;

	if (!ic)
		return NULL;
	if (bt_message_iterator_class_set_initialize_method(ic, count_iter_init) ||
	    bt_message_iterator_class_set_finalize_method(ic, count_iter_fini))
		goto out;
	fc = bt_component_class_filter_create("kfdtrace-count", ic);
	if (fc && bt_component_class_filter_set_initialize_method(fc, count_init)) {
		bt_component_class_filter_put_ref(fc);
		fc = NULL;
	}
out:
	bt_message_iterator_class_put_ref(ic);
	return fc;
}

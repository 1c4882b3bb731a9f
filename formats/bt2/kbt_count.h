/* SPDX-License-Identifier: MIT */
/*
 * A pass-through filter counting events (count.c), for kt_ctf_export()'s
 * progress.
 */
#ifndef KBT_COUNT_H
#define KBT_COUNT_H

#include <stdint.h>

#include <babeltrace2/babeltrace.h>

/* The filter's state, in the caller's memory (its initialize data). */
struct kbt_count {
	uint64_t events;			/* event messages passed on */
	bt_self_component_filter *self;		/* set by the filter */
};

/*
 * kbt_count_class_create() - the filter's class ("in" -> "out"); add it
 * with bt_graph_add_filter_component_with_initialize_method_data() and a
 * struct kbt_count. Release it with bt_component_class_filter_put_ref().
 *
 * Return: the class, or NULL when memory ran out.
 */
bt_component_class_filter *kbt_count_class_create(void);

#endif

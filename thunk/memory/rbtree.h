/* SPDX-License-Identifier: MIT */
/*
 * An intrusive red-black tree with optional augmentation.
 *
 * The tree does not know keys: callers descend themselves and link a node
 * where it belongs (kmt_rb_insert), which keeps comparisons inline and
 * lets one node type sit in trees ordered differently. An augmented tree
 * keeps per-subtree data (a maximum, a sum) in the containing struct; its
 * update callback recomputes one node's data from its children and is
 * called bottom-up whenever the shape below a node changes, so queries
 * like "lowest free extent of at least n bytes" run in O(log n).
 */
#ifndef KMT_RBTREE_H
#define KMT_RBTREE_H

#include <stdbool.h>
#include <stddef.h>

struct kmt_rb_node {
	struct kmt_rb_node *parent;
	struct kmt_rb_node *left;
	struct kmt_rb_node *right;
	bool red;
};

struct kmt_rb_tree {
	struct kmt_rb_node *root;
	/* Recompute @n's augmented data from its children (NULL: none). */
	void (*update)(struct kmt_rb_node *n);
};

#define kmt_rb_entry(ptr, type, member)					\
	((type *)((char *)(ptr) - offsetof(type, member)))

/*
 * kmt_rb_insert() - link @node as the @left (or right) child of @parent
 * (NULL: as the root of an empty tree) and rebalance.
 */
void kmt_rb_insert(struct kmt_rb_tree *t, struct kmt_rb_node *node,
		   struct kmt_rb_node *parent, bool left);

/* kmt_rb_erase() - unlink @node and rebalance. */
void kmt_rb_erase(struct kmt_rb_tree *t, struct kmt_rb_node *node);

/* kmt_rb_update_path() - rerun the update callback from @n to the root. */
void kmt_rb_update_path(struct kmt_rb_tree *t, struct kmt_rb_node *n);

/* In-order neighbours and ends; NULL past the end. */
struct kmt_rb_node *kmt_rb_first(const struct kmt_rb_tree *t);
struct kmt_rb_node *kmt_rb_last(const struct kmt_rb_tree *t);
struct kmt_rb_node *kmt_rb_next(const struct kmt_rb_node *n);
struct kmt_rb_node *kmt_rb_prev(const struct kmt_rb_node *n);

#endif /* KMT_RBTREE_H */

/* SPDX-License-Identifier: MIT */
/*
 * Red-black tree (CLRS-style, parent pointers, no sentinel). Rules: every
 * red node has black children; every root-to-leaf path has the same
 * number of black nodes. Augmented data is kept right by updating each
 * rotated pair (lower node first) and the path above every splice.
 */
#include "memory/rbtree.h"

static void
rb_update(struct kmt_rb_tree *t, struct kmt_rb_node *n)
{
	if (t->update && n)
		t->update(n);
}

void
kmt_rb_update_path(struct kmt_rb_tree *t, struct kmt_rb_node *n)
{
	if (!t->update)
		return;
	for (; n; n = n->parent)
		t->update(n);
}

static void
rb_replace_child(struct kmt_rb_tree *t, struct kmt_rb_node *parent,
		 struct kmt_rb_node *old, struct kmt_rb_node *new)
{
	if (!parent)
		t->root = new;
	else if (parent->left == old)
		parent->left = new;
	else
		parent->right = new;
	if (new)
		new->parent = parent;
}

/* x's right child y takes x's place; x becomes y's left child. */
static void
rb_rotate_left(struct kmt_rb_tree *t, struct kmt_rb_node *x)
{
	struct kmt_rb_node *y = x->right;

	x->right = y->left;
	if (y->left)
		y->left->parent = x;
	rb_replace_child(t, x->parent, x, y);
	y->left = x;
	x->parent = y;
	rb_update(t, x);
	rb_update(t, y);
}

static void
rb_rotate_right(struct kmt_rb_tree *t, struct kmt_rb_node *x)
{
	struct kmt_rb_node *y = x->left;

	x->left = y->right;
	if (y->right)
		y->right->parent = x;
	rb_replace_child(t, x->parent, x, y);
	y->right = x;
	x->parent = y;
	rb_update(t, x);
	rb_update(t, y);
}

static bool
is_red(const struct kmt_rb_node *n)
{
	return n && n->red;
}

void
kmt_rb_insert(struct kmt_rb_tree *t, struct kmt_rb_node *z, struct kmt_rb_node *parent,
	      bool left)
{
	z->parent = parent;
	z->left = z->right = NULL;
	z->red = true;
	if (!parent)
		t->root = z;
	else if (left)
		parent->left = z;
	else
		parent->right = z;
	kmt_rb_update_path(t, z);

	while (is_red(z->parent)) {
		struct kmt_rb_node *p = z->parent, *g = p->parent, *u;

		if (p == g->left) {
			u = g->right;
			if (is_red(u)) {
				p->red = u->red = false;
				g->red = true;
				z = g;
				continue;
			}
			if (z == p->right) {
				z = p;
				rb_rotate_left(t, z);
				p = z->parent;
			}
			p->red = false;
			g->red = true;
			rb_rotate_right(t, g);
		} else {
			u = g->left;
			if (is_red(u)) {
				p->red = u->red = false;
				g->red = true;
				z = g;
				continue;
			}
			if (z == p->left) {
				z = p;
				rb_rotate_right(t, z);
				p = z->parent;
			}
			p->red = false;
			g->red = true;
			rb_rotate_left(t, g);
		}
	}
	t->root->red = false;
}

static struct kmt_rb_node *
rb_min(struct kmt_rb_node *n)
{
	while (n && n->left)
		n = n->left;
	return n;
}

static struct kmt_rb_node *
rb_max(struct kmt_rb_node *n)
{
	while (n && n->right)
		n = n->right;
	return n;
}

/* Restore the black heights after removing a black node above @x. */
static void
rb_erase_fixup(struct kmt_rb_tree *t, struct kmt_rb_node *x, struct kmt_rb_node *xp)
{
	while (x != t->root && !is_red(x)) {
		struct kmt_rb_node *w;

		if (x == xp->left) {
			w = xp->right;
			if (is_red(w)) {
				w->red = false;
				xp->red = true;
				rb_rotate_left(t, xp);
				w = xp->right;
			}
			if (!is_red(w->left) && !is_red(w->right)) {
				w->red = true;
				x = xp;
				xp = x->parent;
				continue;
			}
			if (!is_red(w->right)) {
				w->left->red = false;
				w->red = true;
				rb_rotate_right(t, w);
				w = xp->right;
			}
			w->red = xp->red;
			xp->red = false;
			if (w->right)
				w->right->red = false;
			rb_rotate_left(t, xp);
			x = t->root;
		} else {
			w = xp->left;
			if (is_red(w)) {
				w->red = false;
				xp->red = true;
				rb_rotate_right(t, xp);
				w = xp->left;
			}
			if (!is_red(w->left) && !is_red(w->right)) {
				w->red = true;
				x = xp;
				xp = x->parent;
				continue;
			}
			if (!is_red(w->left)) {
				w->right->red = false;
				w->red = true;
				rb_rotate_left(t, w);
				w = xp->left;
			}
			w->red = xp->red;
			xp->red = false;
			if (w->left)
				w->left->red = false;
			rb_rotate_right(t, xp);
			x = t->root;
		}
	}
	if (x)
		x->red = false;
}

void
kmt_rb_erase(struct kmt_rb_tree *t, struct kmt_rb_node *z)
{
	struct kmt_rb_node *x, *xp, *y = z;
	bool removed_red = z->red;

	if (!z->left) {
		x = z->right;
		xp = z->parent;
		rb_replace_child(t, z->parent, z, x);
	} else if (!z->right) {
		x = z->left;
		xp = z->parent;
		rb_replace_child(t, z->parent, z, x);
	} else {
		/* The successor y takes z's place and colour. */
		y = rb_min(z->right);
		removed_red = y->red;
		x = y->right;
		if (y->parent == z) {
			xp = y;
		} else {
			xp = y->parent;
			rb_replace_child(t, y->parent, y, x);
			y->right = z->right;
			y->right->parent = y;
		}
		rb_replace_child(t, z->parent, z, y);
		y->left = z->left;
		y->left->parent = y;
		y->red = z->red;
	}
	kmt_rb_update_path(t, xp);
	if (!removed_red)
		rb_erase_fixup(t, x, xp);
	z->parent = z->left = z->right = NULL;
}

struct kmt_rb_node *
kmt_rb_first(const struct kmt_rb_tree *t)
{
	return rb_min(t->root);
}

struct kmt_rb_node *
kmt_rb_last(const struct kmt_rb_tree *t)
{
	return rb_max(t->root);
}

struct kmt_rb_node *
kmt_rb_next(const struct kmt_rb_node *n)
{
	const struct kmt_rb_node *p;

	if (n->right)
		return rb_min(n->right);
	for (p = n->parent; p && n == p->right; n = p, p = p->parent)
		;
	return (struct kmt_rb_node *)p;
}

struct kmt_rb_node *
kmt_rb_prev(const struct kmt_rb_node *n)
{
	const struct kmt_rb_node *p;

	if (n->left)
		return rb_max(n->left);
	for (p = n->parent; p && n == p->left; n = p, p = p->parent)
		;
	return (struct kmt_rb_node *)p;
}

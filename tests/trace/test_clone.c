/* SPDX-License-Identifier: MIT */
/*
 * kt_record_clone() (and kt_record_clone_after()) on every record kind: the copy equals the original
 * after the original's storage is overwritten, and it is one allocation of
 * exactly the size its pieces take, packed 8-byte aligned after the record
 * (the size is counted and the pieces are laid out by separate passes, so
 * this checks that they agree). malloc is wrapped (see meson.build) to see
 * the size asked for and to make it fail.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "kt_test_util.h"

#define A8(x) (((x) + 7) & ~(size_t)7)

void *__real_malloc(size_t n);
void *__wrap_malloc(size_t n);

static size_t last_size;
static bool fail_next;

void *
__wrap_malloc(size_t n)
{
	if (fail_next) {
		fail_next = false;
		return NULL;
	}
	last_size = n;
	return __real_malloc(n);
}

struct piece {
	const void *p;
	size_t n;
};

#define MAX_PIECES 32

static void
add(struct piece *pc, unsigned int *np, const void *p, size_t n)
{
	if (!p)
		return;
	assert_true(*np < MAX_PIECES);
	pc[*np].p = p;
	pc[(*np)++].n = n;
}

/* The out-of-line pieces of @r, from the public record model. */
static unsigned int
pieces_of(const struct kt_record *r, struct piece *pc)
{
	unsigned int n = 0;

	switch (r->type) {
	case KT_REC_IOCTL:
		add(pc, &n, r->u.ioctl.arg_before, r->u.ioctl.arg_size);
		add(pc, &n, r->u.ioctl.arg_after, r->u.ioctl.arg_size);
		add(pc, &n, r->u.ioctl.bufs,
		    r->u.ioctl.nbufs * sizeof(struct kt_buf_image));
		for (unsigned int i = 0; r->u.ioctl.bufs && i < r->u.ioctl.nbufs;
		     i++) {
			const struct kt_buf_image *b = &r->u.ioctl.bufs[i];

			add(pc, &n, b->before, b->len_before);
			add(pc, &n, b->after, b->len_after);
		}
		break;
	case KT_REC_OPEN:
		add(pc, &n, r->u.open.path, strlen(r->u.open.path) + 1);
		break;
	case KT_REC_EXEC:
		add(pc, &n, r->u.exec.path, strlen(r->u.exec.path) + 1);
		add(pc, &n, r->u.exec.argv, r->u.exec.argv_len);
		break;
	case KT_REC_THREAD_NAME:
		add(pc, &n, r->u.thread_name.name,
		    strlen(r->u.thread_name.name) + 1);
		break;
	case KT_REC_ANNOTATION:
		add(pc, &n, r->u.annotation.text,
		    strlen(r->u.annotation.text) + 1);
		break;
	case KT_REC_API_CALL:
		add(pc, &n, r->u.api.name, strlen(r->u.api.name) + 1);
		add(pc, &n, r->u.api.args, strlen(r->u.api.args) + 1);
		break;
	case KT_REC_SUBMIT:
		add(pc, &n, r->u.submit.data, r->u.submit.len);
		break;
	case KT_REC_MEMORY:
		add(pc, &n, r->u.memory.data, r->u.memory.len);
		break;
	case KT_REC_FD_TRANSFER:
		add(pc, &n, r->u.xfer.name, strlen(r->u.xfer.name) + 1);
		add(pc, &n, r->u.xfer.peer_name, strlen(r->u.xfer.peer_name) + 1);
		add(pc, &n, r->u.xfer.fds,
		    r->u.xfer.nfds * sizeof(struct kt_xfer_fd));
		break;
	case KT_REC_TOPOLOGY:
		add(pc, &n, r->u.topology.files,
		    r->u.topology.nfiles * sizeof(struct kt_topo_file));
		for (unsigned int i = 0;
		     r->u.topology.files && i < r->u.topology.nfiles; i++) {
			const struct kt_topo_file *f = &r->u.topology.files[i];

			add(pc, &n, f->path, strlen(f->path) + 1);
			add(pc, &n, f->data, f->len);
		}
		break;
	default:
		break;
	}
	return n;
}

/*
 * Every piece of @c lies in its allocation, after the record, 8-byte
 * aligned and apart from the others, and together they fill it exactly.
 */
static void
check_layout(const struct kt_record *c, size_t size)
{
	const char *lo = (const char *)c + A8(sizeof(*c));
	const char *hi = (const char *)c + size;
	struct piece pc[MAX_PIECES];
	unsigned int n = pieces_of(c, pc);
	size_t sum = 0;

	assert_true(size >= A8(sizeof(*c)));
	for (unsigned int i = 0; i < n; i++) {
		const char *p = pc[i].p;

		assert_true(p >= lo && p + A8(pc[i].n) <= hi);
		assert_int_equal((uintptr_t)p & 7, 0);
		for (unsigned int j = 0; j < i; j++) {
			const char *q = pc[j].p;

			if (pc[i].n && pc[j].n)
				assert_true(p + pc[i].n <= q ||
					    q + pc[j].n <= p);
		}
		sum += A8(pc[i].n);
	}
	assert_int_equal(sum, (size_t)(hi - lo));
}

static void
test_every_kind(void **state)
{
	struct kt_test_rec *g = malloc(sizeof(*g));
	struct kt_test_rec *ref = malloc(sizeof(*ref));
	unsigned int seen[KT_REC_TYPE_MAX] = { 0 };

	(void)state;
	assert_non_null(g);
	assert_non_null(ref);
	for (uint64_t i = 0; i < 600; i++) {
		struct kt_record *c;
		const char *diff;

		kt_test_gen(g, 3, i);
		g->rec.seq = 7000 + i;
		c = kt_record_clone(&g->rec);
		assert_non_null(c);
		check_layout(c, last_size);
		/* The copy must not point into the original's storage. */
		memset(g, 0xa5, sizeof(*g));
		kt_test_gen(ref, 3, i);
		ref->rec.seq = 7000 + i;
		diff = kt_test_rec_diff(&ref->rec, c, true);
		if (diff)
			fail_msg("record %llu (type %u): %s differs",
				 (unsigned long long)i, ref->rec.type, diff);
		seen[c->type]++;
		free(c);
	}
	for (unsigned int t = 1; t < KT_REC_TYPE_MAX; t++)
		assert_true(t == KT_REC_END || seen[t] > 0);
	free(ref);
	free(g);
}

/* A record without pieces takes the record alone; NULL in, NULL out. */
static void
test_plain_and_null(void **state)
{
	struct kt_record rec, *c;

	(void)state;
	memset(&rec, 0, sizeof(rec));
	rec.type = KT_REC_CLOSE;
	rec.seq = 5;
	rec.u.close.fd = 9;
	c = kt_record_clone(&rec);
	assert_non_null(c);
	assert_int_equal(last_size, A8(sizeof(rec)));
	assert_int_equal(c->seq, 5);
	assert_int_equal(c->u.close.fd, 9);
	free(c);
	assert_null(kt_record_clone(NULL));
}

/*
 * kt_record_clone_after(): the same copy, @head bytes into a block whose
 * size it reports; a head that would misalign the record is refused.
 */
static void
test_after_head(void **state)
{
	struct kt_test_rec *g = malloc(sizeof(*g));
	struct kt_test_rec *ref = malloc(sizeof(*ref));

	(void)state;
	assert_non_null(g);
	assert_non_null(ref);
	for (uint64_t i = 0; i < 60; i++) {
		size_t head = 8 * (i % 5), bytes = 0;
		struct kt_record *c;
		char *blk;

		kt_test_gen(g, 4, i);
		blk = kt_record_clone_after(&g->rec, head, &bytes);
		assert_non_null(blk);
		assert_int_equal(bytes, last_size);
		c = (struct kt_record *)(blk + head);
		check_layout(c, bytes - head);
		memset(g, 0x5a, sizeof(*g));
		kt_test_gen(ref, 4, i);
		assert_null(kt_test_rec_diff(&ref->rec, c, true));
		free(blk);
	}
	kt_test_gen(g, 4, 0);
	assert_null(kt_record_clone_after(&g->rec, 12, NULL));
	assert_null(kt_record_clone_after(NULL, 8, NULL));
	free(ref);
	free(g);
}

/* Out of memory: NULL, not a crash. */
static void
test_no_memory(void **state)
{
	struct kt_test_rec *g = malloc(sizeof(*g));

	(void)state;
	assert_non_null(g);
	kt_test_gen(g, 0, 0);
	fail_next = true;
	assert_null(kt_record_clone(&g->rec));
	assert_false(fail_next);
	free(g);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_every_kind),
		cmocka_unit_test(test_plain_and_null),
		cmocka_unit_test(test_after_head),
		cmocka_unit_test(test_no_memory),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

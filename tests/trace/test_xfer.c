/* SPDX-License-Identifier: MIT */
/*
 * fd_transfer records (format 1.2): what the writer takes comes back from
 * the reader field by field (a message of two fds, one at the bound of
 * 253 that carried more, a receive cut short by MSG_CTRUNC, one with no
 * fd listed), and a copy (kt_record_clone) equals it; the writer refuses
 * more than 253 fds and an address longer than a sun_path; a reader calls
 * a record listing more than 253 fds, or fewer fds than it says, corrupt;
 * and kt_record_end() is the transfer's exit time.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "kt_test_util.h"

static struct kt_xfer_fd many[KT_MAX_XFER_FDS + 1];

static void
make(struct kt_record *r, uint8_t dir, uint16_t nfds, uint32_t total,
     uint8_t flags, const char *name, const char *peer)
{
	memset(r, 0, sizeof(*r));
	r->type = KT_REC_FD_TRANSFER;
	r->tid = 77;
	r->ts = 2000000000ull + nfds;
	r->u.xfer.dir = dir;
	r->u.xfer.flags = flags;
	r->u.xfer.sock = 5;
	r->u.xfer.ret = dir == KT_XFER_SEND ? 1 : -1;
	r->u.xfer.err = dir == KT_XFER_SEND ? 0 : 22;
	r->u.xfer.t_exit = r->ts + 12345;
	r->u.xfer.ino = 2361999;
	r->u.xfer.peer_ino = 2362000;
	r->u.xfer.peer_pid = 4242;
	r->u.xfer.name = name;
	r->u.xfer.peer_name = peer;
	r->u.xfer.nfds_total = total;
	r->u.xfer.nfds = nfds;
	r->u.xfer.fds = nfds ? many : NULL;
}

static void
check_same(const struct kt_record *a, const struct kt_record *b)
{
	const struct kt_fd_transfer_rec *x = &a->u.xfer, *y = &b->u.xfer;

	assert_int_equal(b->type, KT_REC_FD_TRANSFER);
	assert_int_equal(a->ts, b->ts);
	assert_int_equal(x->dir, y->dir);
	assert_int_equal(x->flags, y->flags);
	assert_int_equal(x->sock, y->sock);
	assert_int_equal(x->ret, y->ret);
	assert_int_equal(x->err, y->err);
	assert_int_equal(x->t_exit, y->t_exit);
	assert_int_equal(x->ino, y->ino);
	assert_int_equal(x->peer_ino, y->peer_ino);
	assert_int_equal(x->peer_pid, y->peer_pid);
	assert_string_equal(x->name ? x->name : "", y->name);
	assert_string_equal(x->peer_name ? x->peer_name : "", y->peer_name);
	assert_int_equal(x->nfds_total, y->nfds_total);
	assert_int_equal(x->nfds, y->nfds);
	for (unsigned int i = 0; i < x->nfds; i++) {
		assert_int_equal(x->fds[i].fd, y->fds[i].fd);
		assert_int_equal(x->fds[i].kind, y->fds[i].kind);
	}
	assert_int_equal(kt_record_end(b), x->t_exit);
}

static void
test_roundtrip(void **state)
{
	const char *path = kt_test_path("xfer.kfdt");
	struct kt_record in[4], out;
	struct kt_header hdr;
	struct kt_writer *w;
	struct kt_reader *r;
	int n = 0;

	(void)state;
	for (unsigned int i = 0; i < KT_MAX_XFER_FDS + 1; i++) {
		many[i].fd = (int32_t)(3 + i * 7) - (i == 1 ? 100 : 0);
		many[i].kind = (uint8_t)(i % KT_XFER_FD_KIND_MAX);
	}
	make(&in[0], KT_XFER_SEND, 2, 2, 0, "@rocm-ipc\x01", "");
	make(&in[1], KT_XFER_SEND, KT_MAX_XFER_FDS, 300, KT_XFER_CUT, "",
	     "/tmp/sock");
	make(&in[2], KT_XFER_RECV, 4, 4, KT_XFER_CTRUNC | KT_XFER_PEEK,
	     "@a", "@b");
	make(&in[3], KT_XFER_RECV, 0, 0, 0, NULL, NULL);
	kt_test_header_init(&hdr, "test");
	assert_int_equal(kt_writer_open(path, &hdr, NULL, &w), 0);
	for (int i = 0; i < 4; i++) {
		in[i].seq = kt_writer_next_seq(w);
		assert_int_equal(kt_writer_append(w, &in[i]), 0);
	}
	assert_int_equal(kt_writer_close(w), 0);
	assert_int_equal(kt_reader_open(path, &r), 0);
	assert_true(kt_reader_header(r)->format_minor >= 2);
	while (kt_reader_next(r, &out) == 1) {
		struct kt_record *c;

		if (out.type != KT_REC_FD_TRANSFER)
			continue;
		assert_true(n < 4);
		check_same(&in[n], &out);
		c = kt_record_clone(&out);
		assert_non_null(c);
		check_same(&in[n], c);
		free(c);
		n++;
	}
	assert_int_equal(n, 4);
	kt_reader_close(r);
}

static void
test_writer_bounds(void **state)
{
	const char *path = kt_test_path("xfer-bounds.kfdt");
	char name[KT_MAX_SOCK_NAME + 2];
	struct kt_header hdr;
	struct kt_writer *w;
	struct kt_record rec;

	(void)state;
	kt_test_header_init(&hdr, "test");
	assert_int_equal(kt_writer_open(path, &hdr, NULL, &w), 0);
	make(&rec, KT_XFER_SEND, KT_MAX_XFER_FDS + 1, 400, 0, "", "");
	rec.seq = kt_writer_next_seq(w);
	assert_int_equal(kt_writer_append(w, &rec), -KT_ETOOBIG);
	memset(name, 'x', sizeof(name) - 1);
	name[sizeof(name) - 1] = '\0';
	make(&rec, KT_XFER_SEND, 1, 1, 0, name, "");
	rec.seq = kt_writer_next_seq(w);
	assert_int_equal(kt_writer_append(w, &rec), -KT_ETOOBIG);
	make(&rec, KT_XFER_SEND, 1, 1, 0, "", "");
	rec.u.xfer.fds = NULL;
	rec.seq = kt_writer_next_seq(w);
	assert_int_equal(kt_writer_append(w, &rec), -EINVAL);
	kt_writer_close(w);
}

/* A base fd_transfer record by hand: @count fds claimed, @have given. */
static void
raw_record(struct kt_bb *raw, uint64_t count, unsigned int have)
{
	struct kt_bb body = { 0 };

	kt_bb_u8(&body, 1);		/* rflags: BASE */
	kt_bb_varint(&body, 1);		/* seq */
	kt_bb_varint(&body, 9);		/* tid */
	kt_bb_varint(&body, 5);		/* ts */
	kt_bb_u8(&body, KT_XFER_RECV);
	kt_bb_u8(&body, 0);
	kt_bb_varint(&body, 6);		/* sock 3 */
	kt_bb_varint(&body, 2);		/* dexit 1 */
	kt_bb_varint(&body, 2);		/* ret 1 */
	kt_bb_varint(&body, 0);		/* err */
	kt_bb_varint(&body, 10);	/* ino */
	kt_bb_varint(&body, 11);	/* peer ino */
	kt_bb_varint(&body, 0);		/* peer pid */
	kt_bb_varint(&body, 0);
	kt_bb_u8(&body, 0);		/* name "" */
	kt_bb_varint(&body, 0);
	kt_bb_u8(&body, 0);		/* peer name "" */
	kt_bb_varint(&body, count);	/* total */
	kt_bb_varint(&body, count);	/* listed */
	for (unsigned int i = 0; i < have; i++) {
		kt_bb_varint(&body, 2 * (7 + i));
		kt_bb_u8(&body, KT_XFER_FD_DMABUF);
	}
	kt_bb_u8(raw, KT_REC_FD_TRANSFER);
	kt_bb_varint(raw, body.len);
	kt_bb_bytes(raw, body.p, body.len);
	kt_bb_free(&body);
}

/* Read the trace of @raw; Return: kt_reader_next()'s first result. */
static int
read_raw(struct kt_bb *raw, struct kt_record *rec, struct kt_reader **rp)
{
	struct kt_bb t = { 0 };
	static uint8_t keep[1 << 16];
	int rc;

	kt_test_trace_with(&t, raw->p, raw->len);
	assert_true(t.len <= sizeof(keep));
	memcpy(keep, t.p, t.len);
	assert_int_equal(kt_reader_open_mem(keep, t.len, rp), 0);
	rc = kt_reader_next(*rp, rec);
	kt_bb_free(&t);
	return rc;
}

static void
test_reader_bounds(void **state)
{
	struct kt_reader_status st;
	struct kt_record rec;
	struct kt_reader *r;
	struct kt_bb raw = { 0 };

	(void)state;
	/* The bound itself reads. */
	raw_record(&raw, KT_MAX_XFER_FDS, KT_MAX_XFER_FDS);
	assert_int_equal(read_raw(&raw, &rec, &r), 1);
	assert_int_equal(rec.u.xfer.nfds, KT_MAX_XFER_FDS);
	assert_int_equal(rec.u.xfer.fds[KT_MAX_XFER_FDS - 1].fd,
			 7 + KT_MAX_XFER_FDS - 1);
	kt_reader_close(r);
	kt_bb_free(&raw);

	/* One more is corrupt, as is a list shorter than its count. */
	memset(&raw, 0, sizeof(raw));
	raw_record(&raw, KT_MAX_XFER_FDS + 1, KT_MAX_XFER_FDS + 1);
	assert_int_equal(read_raw(&raw, &rec, &r), -KT_ECORRUPT);
	kt_reader_get_status(r, &st);
	assert_non_null(strstr(st.message, "fd_transfer fd count"));
	kt_reader_close(r);
	kt_bb_free(&raw);
	memset(&raw, 0, sizeof(raw));
	raw_record(&raw, 3, 2);
	assert_int_equal(read_raw(&raw, &rec, &r), -KT_ECORRUPT);
	kt_reader_close(r);
	kt_bb_free(&raw);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_roundtrip),
		cmocka_unit_test(test_writer_bounds),
		cmocka_unit_test(test_reader_bounds),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

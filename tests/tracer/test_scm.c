/* SPDX-License-Identifier: MIT */
/*
 * fd_transfer records of the capture library: kt_scm (see there) passes
 * /dev/kfd's fd over a socket pair in every way the kernel allows and a
 * few it refuses. Each message that carried the KFD fd is one record,
 * on each side, with every fd of the message and what it is; a message of
 * a pipe's fd alone is none. 200 fds received with room for 4 are 4 fds
 * and MSG_CTRUNC; 300 fds sent are the first 253 listed, 300 counted and
 * EINVAL; a cmsg_len past its buffer is read as far as the buffer goes;
 * a msghdr or control data that is not mapped gives EFAULT to the program
 * and no record, never a crash. Both ends of the pair name each other's
 * inode.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "tt_capture.h"

#define MAX_X 16

struct xrec {
	struct kt_fd_transfer_rec x;
	struct kt_xfer_fd fds[KT_MAX_XFER_FDS];
};

/* The fd_transfer records of @path, sends into @s, receives into @r. */
static void
load(const char *path, struct xrec *s, int *ns, struct xrec *r, int *nr)
{
	struct kt_reader *rd;
	struct kt_record rec;
	int rc;

	*ns = *nr = 0;
	assert_int_equal(kt_reader_open(path, &rd), 0);
	while ((rc = kt_reader_next(rd, &rec)) == 1) {
		struct xrec *d;

		if (rec.type != KT_REC_FD_TRANSFER)
			continue;
		if (rec.u.xfer.dir == KT_XFER_SEND) {
			assert_true(*ns < MAX_X);
			d = &s[(*ns)++];
		} else {
			assert_true(*nr < MAX_X);
			d = &r[(*nr)++];
		}
		d->x = rec.u.xfer;
		memcpy(d->fds, rec.u.xfer.fds, rec.u.xfer.nfds * sizeof(d->fds[0]));
		d->x.fds = d->fds;
		d->x.name = d->x.peer_name = NULL;
	}
	assert_int_equal(rc, 0);
	assert_int_equal(kt_reader_verdict(rd, rc), KT_INTEGRITY_OK);
	kt_reader_close(rd);
}

static void
test_scm(void **state)
{
	struct tt_cx *cx = *state;
	const char *prog = tt_env_path("KT_SCM");
	const char *args[] = { prog, NULL };
	static struct xrec s[MAX_X], r[MAX_X];
	int ns, nr, status, kfd;
	FILE *f;
	char line[256];
	int done = 0;

	tt_need_tools();
	if (!prog)
		skip();
	status = tt_record(cx, NULL, NULL, args);
	f = fopen(cx->log, "r");
	while (f && fgets(line, sizeof(line), f))
		done |= !strcmp(line, "kt_scm: done\n");
	if (f)
		fclose(f);
	if (!tt_exited(status, 0) || !done) {
		tt_show_log(cx);
		fail_msg("kt_scm did not finish");
	}
	load(cx->out, s, &ns, r, &nr);
	/* Sends: 1, 3, 4, 5 and the two of 7; receives: 1, 3 and 7's. */
	assert_int_equal(ns, 6);
	assert_int_equal(nr, 4);
	kfd = s[0].fds[0].fd;

	assert_int_equal(s[0].x.nfds, 1);
	assert_int_equal(s[0].fds[0].kind, KT_XFER_FD_KFD);
	assert_int_equal(s[0].x.ret, 1);
	assert_true(s[0].x.ino && s[0].x.peer_ino);
	assert_int_equal(r[0].x.nfds, 1);
	assert_int_equal(r[0].fds[0].kind, KT_XFER_FD_KFD);
	assert_int_equal(r[0].x.ino, s[0].x.peer_ino);
	assert_int_equal(r[0].x.peer_ino, s[0].x.ino);

	assert_int_equal(s[1].x.nfds, 200);
	assert_int_equal(s[1].x.nfds_total, 200);
	assert_int_equal(s[1].fds[0].fd, kfd);
	assert_int_equal(s[1].fds[199].kind, KT_XFER_FD_OTHER);
	assert_int_equal(r[1].x.nfds, 4);
	assert_int_equal(r[1].x.nfds_total, 4);
	assert_true(r[1].x.flags & KT_XFER_CTRUNC);
	assert_int_equal(r[1].fds[0].kind, KT_XFER_FD_KFD);

	assert_int_equal(s[2].x.ret, -1);
	assert_int_equal(s[2].x.err, EINVAL);
	assert_int_equal(s[2].x.nfds, KT_MAX_XFER_FDS);
	assert_int_equal(s[2].x.nfds_total, 300);
	assert_true(s[2].x.flags & KT_XFER_CUT);

	assert_int_equal(s[3].x.ret, -1);
	assert_int_equal(s[3].x.err, EINVAL);
	assert_true(s[3].x.nfds >= 1);
	assert_int_equal(s[3].fds[0].fd, kfd);

	for (int i = 4; i < 6; i++) {
		assert_int_equal(s[i].x.ret, 1);
		assert_int_equal(s[i].x.nfds, 1);
		assert_int_equal(s[i].fds[0].kind, KT_XFER_FD_KFD);
	}
	for (int i = 2; i < 4; i++) {
		assert_int_equal(r[i].x.nfds, 1);
		assert_int_equal(r[i].fds[0].kind, KT_XFER_FD_KFD);
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_scm, tt_cx_setup,
						tt_cx_teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

/* SPDX-License-Identifier: MIT */
/*
 * kfdsim answers /dev/kfd ioctls with the struct sizes, directions and ABI
 * minors of the schema rows: every nr it has a handler for has a row, and
 * the resolved table is the one kfdsim used to type in by hand (the
 * expected values below), so taking them from the schema changed nothing.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <cmocka.h>
#include <linux/ioctl.h>

#include "kfdtrace/kfd_abi.h"
#include "kfdtrace/schema.h"
#include "ksim.h"
#include "dispatch_kfd.h"

#define R _IOC_READ
#define W _IOC_WRITE
#define RW (_IOC_READ | _IOC_WRITE)

struct want {
	uint16_t size;
	uint8_t dir;
	uint8_t since;
	uint8_t flags;
};

/* kfdsim's literal table before it read the schema (0: no handler). */
static const struct want want_kfd[0x29] = {
	[0x01] = { 8, R, 1, KSIM_KFD_F_NOLOCK },
	[0x02] = { 96, RW, 1, 0 },
	[0x03] = { 8, RW, 1, 0 },
	[0x04] = { 32, W, 1, 0 },
	[0x05] = { 40, RW, 1, KSIM_KFD_F_NOLOCK },
	[0x06] = { 400, R, 1, 0 },
	[0x07] = { 24, W, 1, 0 },
	[0x08] = { 32, RW, 1, 0 },
	[0x09] = { 8, W, 1, 0 },
	[0x0A] = { 8, W, 1, 0 },
	[0x0B] = { 8, W, 1, 0 },
	[0x0C] = { 24, RW, 1, 0 },
	[0x0D] = { 8, W, 1, KSIM_KFD_F_NOLOCK },
	[0x0E] = { 8, W, 1, KSIM_KFD_F_NOLOCK },
	[0x0F] = { 16, W, 1, KSIM_KFD_F_NOLOCK },
	[0x10] = { 16, W, 1, KSIM_KFD_F_NOLOCK },
	[0x11] = { 16, RW, 1, 0 },
	[0x12] = { 40, RW, 1, 0 },
	[0x13] = { 24, W, 1, 0 },
	[0x14] = { 16, RW, 1, 0 },
	[0x15] = { 8, W, 1, 0 },
	[0x16] = { 40, RW, 1, 0 },
	[0x17] = { 8, W, 1, 0 },
	[0x18] = { 24, RW, 1, 0 },
	[0x19] = { 24, RW, 1, 0 },
	[0x1A] = { 16, W, 1, 0 },
	[0x1B] = { 24, RW, 1, 0 },
	[0x1C] = { 32, RW, 1, 0 },
	[0x1D] = { 24, RW, 1, 0 },
	[0x1E] = { 16, RW, 1, 0 },
	[0x1F] = { 8, RW, 3, 0 },
	[0x20] = { 24, RW, 5, 0 },
	[0x21] = { 4, RW, 5, 0 },
	[0x22] = { 56, RW, 7, KSIM_KFD_F_CRIU },
	[0x23] = { 16, RW, 9, 0 },
	[0x24] = { 16, RW, 12, 0 },
	[0x25] = { 16, RW, 13, 0 },
	[0x26] = { 32, RW, 13, 0 },
	[0x27] = { 0, 0, 19, 0 },	/* an _IO: nothing copied */
	[0x28] = { 16, RW, 23, 0 },	/* upstream's PROFILER */
};

/*
 * The ROCm range kfdsim models (0x80, 0x81). The old table said minor 1
 * for these; the ROCm rows carry none (0), and the rocm range is outside
 * the ABI minor's nr range anyway.
 */
static const struct want want_rocm[4] = {
	{ 48, RW, 0, 0 },	/* IPC_IMPORT_HANDLE */
	{ 32, RW, 0, 0 },	/* IPC_EXPORT_HANDLE */
	{ 48, RW, 0, 0 },	/* CROSS_MEMORY_COPY */
	{ 32, RW, 0, KSIM_KFD_F_PERFMON },	/* PC_SAMPLE */
};

static void
check(unsigned int nr, const struct want *w, int rocm)
{
	struct ksim_kfd_row_info info;
	int r = ksim_kfd_row_info(nr, &info);
	/* The schema says 0 for the 1.0 ioctls; kfdsim emulates 1.1 up. */
	unsigned int since;

	if (!w->size && !w->dir && !w->since) {
		assert_int_equal(r, 0);
		return;
	}
	if (r != 1)
		fail_msg("nr %#x: kfdsim has no schema-bound row (%d)", nr, r);
	since = info.since < KSIM_ABI_MINOR_MIN && !rocm ? KSIM_ABI_MINOR_MIN :
		info.since;
	assert_int_equal(info.size, w->size);
	assert_int_equal(info.dir, w->dir);
	assert_int_equal(since, w->since);
	assert_int_equal(info.flags, w->flags);
	assert_int_equal(info.rocm, rocm);
}

static void
test_kfd_rows(void **state)
{
	unsigned int nr;

	(void)state;
	for (nr = 0; nr < 0x29; nr++)
		check(nr, &want_kfd[nr], 0);
	assert_int_equal(ksim_kfd_row_info(0x29, &(struct ksim_kfd_row_info){ 0 }), 0);
}

static void
test_rocm_rows(void **state)
{
	struct ksim_kfd_row_info info;
	unsigned int nr;

	(void)state;
	check(0x80, &want_rocm[0], 1);
	check(0x81, &want_rocm[1], 1);
	assert_int_equal(ksim_kfd_row_info(0x82, &info), 0);
	check(0x83, &want_rocm[2], 1);
	assert_int_equal(ksim_kfd_row_info(0x84, &info), 0);
	check(0x85, &want_rocm[3], 1);
	for (nr = 0x86; nr <= KFD_ABI_COMMAND_END_2; nr++)
		assert_int_equal(ksim_kfd_row_info(nr, &info), 0);
}

/* Every handler's row is the schema's: size and direction of its request. */
static void
test_rows_are_the_schema(void **state)
{
	unsigned int n, i, bound = 0;
	const struct kfd_ioctl_desc *rows = kfd_schema_rows(&n);

	(void)state;
	for (i = 0; i < n; i++) {
		struct ksim_kfd_row_info info;

		/* A row of one exact size is not the kernel's command. */
		if (rows[i].file_kind != KFD_FILE_KFD || rows[i].only_size ||
		    ksim_kfd_row_info(rows[i].nr, &info) != 1)
			continue;
		assert_int_equal(info.size, KFD_ABI_IOC_SIZE(rows[i].request));
		assert_int_equal(info.dir, KFD_ABI_IOC_DIR(rows[i].request));
		assert_int_equal(info.since, rows[i].since_minor);
		bound++;
	}
	/* 40 upstream nrs (0x01..0x28) and the four modelled ROCm ones. */
	assert_int_equal(bound, 40 + 4);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_kfd_rows),
		cmocka_unit_test(test_rocm_rows),
		cmocka_unit_test(test_rows_are_the_schema),
	};

	return cmocka_run_group_tests_name("schema_kfdsim", tests, NULL, NULL);
}

/* SPDX-License-Identifier: MIT */
/*
 * The schema's role classification (kfd_role_space(), kfd_role_flags(),
 * kfd_role_status_bits()), which replay's translation and verification
 * and diff's value mapping read: each role's class on real rows' fields,
 * every role covered, the rules the classes keep over the whole table,
 * and the status bits queue ids carry.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "kfdtrace/kfd_abi.h"
#include "kfdtrace/schema.h"

static const struct kfd_field *
field_of(const char *row, const char *name)
{
	const struct kfd_ioctl_desc *d = kfd_schema_by_name(row);

	if (!d)
		fail_msg("no row %s", row);
	for (unsigned int i = 0; i < d->args->nfields; i++)
		if (!strcmp(d->args->fields[i].name, name))
			return &d->args->fields[i];
	for (unsigned int b = 0; b < d->nbufs; b++) {
		const struct kfd_struct_desc *e = d->bufs[b].elem;

		for (unsigned int i = 0; e && i < e->nfields; i++)
			if (!strcmp(e->fields[i].name, name))
				return &e->fields[i];
	}
	fail_msg("no field %s.%s", row, name);
	return NULL;
}

/* One real field per role, and what its values are in another run. */
static const struct {
	const char *row, *field;
	enum kfd_role role;
	enum kfd_space space;
	unsigned int flags;
} real[] = {
	{ "ALLOC_MEMORY_OF_GPU", "handle", KFD_ROLE_HANDLE, KFD_SPACE_HANDLE, KFD_RC_ISSUED },
	{ "IMPORT_DMABUF", "handle", KFD_ROLE_HANDLE, KFD_SPACE_HANDLE, KFD_RC_ISSUED },
	{ "ALLOC_MEMORY_OF_GPU", "gpu_id", KFD_ROLE_GPU_ID, KFD_SPACE_GPU, KFD_RC_LOCAL },
	{ "CREATE_QUEUE", "queue_id", KFD_ROLE_QUEUE_ID, KFD_SPACE_QUEUE, KFD_RC_ISSUED },
	{ "DESTROY_QUEUE", "queue_id", KFD_ROLE_QUEUE_ID, KFD_SPACE_QUEUE, KFD_RC_ISSUED },
	{ "CREATE_EVENT", "event_id", KFD_ROLE_EVENT_ID, KFD_SPACE_EVENT, KFD_RC_ISSUED },
	{ "SET_EVENT", "event_id", KFD_ROLE_EVENT_ID, KFD_SPACE_EVENT, KFD_RC_ISSUED },
	{ "CREATE_EVENT", "event_slot_index", KFD_ROLE_EVENT_SLOT, KFD_SPACE_SLOT, KFD_RC_ISSUED },
	{ "IMPORT_DMABUF", "dmabuf_fd", KFD_ROLE_FD, KFD_SPACE_FD, KFD_RC_ISSUED },
	{ "SMI_EVENTS", "anon_fd", KFD_ROLE_FD, KFD_SPACE_FD, KFD_RC_ISSUED },
	{ "ALLOC_MEMORY_OF_GPU", "va_addr", KFD_ROLE_GPU_VA, KFD_SPACE_ADDR, 0 },
	{ "RUNTIME_ENABLE", "r_debug", KFD_ROLE_CPU_ADDR, KFD_SPACE_ADDR, KFD_RC_LOCAL },
	{ "WAIT_EVENTS", "events_ptr", KFD_ROLE_PTR, KFD_SPACE_NONE, KFD_RC_POINTER },
	{ "DRM_VERSION", "name", KFD_ROLE_PTR, KFD_SPACE_NONE, KFD_RC_POINTER },
	{ "ALLOC_MEMORY_OF_GPU", "mmap_offset", KFD_ROLE_MMAP_OFFSET, KFD_SPACE_OFFSET, KFD_RC_ISSUED },
	{ "AMDGPU_GEM_MMAP", "out.addr_ptr", KFD_ROLE_MMAP_OFFSET, KFD_SPACE_OFFSET, KFD_RC_ISSUED },
	{ "CREATE_QUEUE", "doorbell_offset", KFD_ROLE_DOORBELL_OFFSET, KFD_SPACE_OFFSET, KFD_RC_ISSUED },
	{ "WAIT_EVENTS", "timeout", KFD_ROLE_TIMEOUT, KFD_SPACE_NONE, KFD_RC_VOLATILE },
	{ "RLC_SPM", "timeout", KFD_ROLE_TIMEOUT, KFD_SPACE_NONE, KFD_RC_VOLATILE },
	{ "GET_CLOCK_COUNTERS", "gpu_clock_counter", KFD_ROLE_CLOCK, KFD_SPACE_NONE, KFD_RC_VOLATILE },
	{ "AMDGPU_GEM_MMAP", "in.handle", KFD_ROLE_GEM_HANDLE, KFD_SPACE_GEM, KFD_RC_ISSUED },
	{ "DRM_GEM_CLOSE", "handle", KFD_ROLE_GEM_HANDLE, KFD_SPACE_GEM, KFD_RC_ISSUED },
	{ "DBG_TRAP", "pid", KFD_ROLE_PID, KFD_SPACE_PID, KFD_RC_LOCAL },
	{ "SET_EVENT", "pad", KFD_ROLE_PAD, KFD_SPACE_NONE, KFD_RC_RESERVED },
	{ "GET_CLOCK_COUNTERS", "pad", KFD_ROLE_PAD, KFD_SPACE_NONE, KFD_RC_RESERVED },
	/* Plain values: the same in every run. */
	{ "WAIT_EVENTS", "wait_for_all", KFD_ROLE_NONE, KFD_SPACE_NONE, 0 },
	{ "CREATE_PROCESS", "flags", KFD_ROLE_HEX, KFD_SPACE_NONE, 0 },
	{ "ALLOC_MEMORY_OF_GPU", "size", KFD_ROLE_SIZE, KFD_SPACE_NONE, 0 },
	{ "WAIT_EVENTS", "num_events", KFD_ROLE_COUNT, KFD_SPACE_NONE, 0 },
	{ "ALLOC_MEMORY_OF_GPU", "flags", KFD_ROLE_FLAGS, KFD_SPACE_NONE, 0 },
	{ "WAIT_EVENTS", "wait_result", KFD_ROLE_ENUM, KFD_SPACE_NONE, 0 },
	{ "GET_VERSION", "minor_version", KFD_ROLE_VERSION, KFD_SPACE_NONE, 0 },
	{ "IPC_EXPORT_HANDLE", "share_handle", KFD_ROLE_BYTES, KFD_SPACE_NONE, 0 },
	{ "WAIT_EVENTS", "data", KFD_ROLE_BYTES, KFD_SPACE_NONE, 0 },
};

static void
test_real_fields(void **state)
{
	unsigned int covered[KFD_ROLE_COUNT_MAX] = { 0 };

	(void)state;
	for (size_t i = 0; i < sizeof(real) / sizeof(real[0]); i++) {
		const struct kfd_field *f = field_of(real[i].row, real[i].field);

		if (f->role != real[i].role)
			fail_msg("%s.%s is %s", real[i].row, real[i].field,
				 kfd_role_name(f->role));
		if (kfd_role_space(f->role) != real[i].space ||
		    kfd_role_flags(f->role) != real[i].flags)
			fail_msg("%s.%s (%s): space %d flags %#x", real[i].row,
				 real[i].field, kfd_role_name(f->role),
				 kfd_role_space(f->role), kfd_role_flags(f->role));
		covered[f->role]++;
	}
	/* Every role but STRING (no row has one) on a real field. */
	for (unsigned int r = 0; r < KFD_ROLE_COUNT_MAX; r++) {
		if (r == KFD_ROLE_STRING)
			continue;
		if (!covered[r])
			fail_msg("role %s on no real field above", kfd_role_name(r));
	}
	assert_int_equal(kfd_role_space(KFD_ROLE_STRING), KFD_SPACE_NONE);
	assert_int_equal(kfd_role_flags(KFD_ROLE_STRING), 0);
	/* Out of range: a plain value. */
	assert_int_equal(kfd_role_space(KFD_ROLE_COUNT_MAX), KFD_SPACE_NONE);
	assert_int_equal(kfd_role_flags(KFD_ROLE_COUNT_MAX), 0);
	assert_int_equal(kfd_role_space((enum kfd_role)255), KFD_SPACE_NONE);
}

/*
 * Over every field of every row: a value the kernel issues or the machine
 * owns has a space to be mapped in; one that is volatile, a pointer or
 * padding has none; and issued and local exclude each other.
 */
static void
check_field(const char *row, const struct kfd_field *f, unsigned int *seen)
{
	enum kfd_space s = kfd_role_space(f->role);
	unsigned int fl = kfd_role_flags(f->role);

	assert_true(s < KFD_SPACE_COUNT);
	if ((fl & (KFD_RC_ISSUED | KFD_RC_LOCAL)) && s == KFD_SPACE_NONE)
		fail_msg("%s.%s: mapped but no space", row, f->name);
	if ((fl & (KFD_RC_VOLATILE | KFD_RC_POINTER | KFD_RC_RESERVED)) &&
	    s != KFD_SPACE_NONE)
		fail_msg("%s.%s: unmapped but in a space", row, f->name);
	assert_false((fl & KFD_RC_ISSUED) && (fl & KFD_RC_LOCAL));
	seen[s]++;
}

static void
test_every_row(void **state)
{
	unsigned int n, seen[KFD_SPACE_COUNT] = { 0 };
	const struct kfd_ioctl_desc *r = kfd_schema_rows(&n);

	(void)state;
	assert_true(n > 0);
	for (unsigned int i = 0; i < n; i++) {
		for (unsigned int j = 0; j < r[i].args->nfields; j++)
			check_field(r[i].name, &r[i].args->fields[j], seen);
		for (unsigned int b = 0; b < r[i].nbufs; b++) {
			const struct kfd_struct_desc *e = r[i].bufs[b].elem;

			for (unsigned int j = 0; e && j < e->nfields; j++)
				check_field(r[i].name, &e->fields[j], seen);
		}
	}
	/* Every space has fields in it. */
	for (unsigned int s = 0; s < KFD_SPACE_COUNT; s++)
		if (!seen[s])
			fail_msg("space %u holds no field", s);
}

/*
 * Only queue ids carry status bits: the debugger's error and invalid bits,
 * which SUSPEND_QUEUES writes back into each id of its array.
 */
static void
test_status_bits(void **state)
{
	(void)state;
	assert_int_equal(kfd_role_status_bits(KFD_ROLE_QUEUE_ID),
			 KFD_ABI_DBG_QUEUE_ERROR_MASK | KFD_ABI_DBG_QUEUE_INVALID_MASK);
	assert_int_equal(kfd_role_status_bits(KFD_ROLE_QUEUE_ID), 0xc0000000u);
	for (unsigned int r = 0; r < KFD_ROLE_COUNT_MAX; r++)
		if (r != KFD_ROLE_QUEUE_ID)
			assert_int_equal(kfd_role_status_bits((enum kfd_role)r), 0);
	assert_int_equal(kfd_role_status_bits(KFD_ROLE_COUNT_MAX), 0);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_real_fields),
		cmocka_unit_test(test_every_row),
		cmocka_unit_test(test_status_bits),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

/* SPDX-License-Identifier: MIT */
/*
 * PC_SAMPLE (0x85) in the rocm kernel flavour: the formats each GFX IP
 * offers, CREATE's checks, the START/STOP/DESTROY state rules, one
 * sampler format per GPU across the processes of a machine, the release
 * of a process's sessions, the CAP_PERFMON check and the debugger check.
 * The upstream flavour refuses the ioctl.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/capability.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ktest.h"

#define CAP_PERFMON_BIT	38

static int
pcs(struct ksim_file *kfd, uint32_t op, uint32_t gpu_id, void *info,
    uint32_t n, uint32_t *trace_id, uint32_t flags,
    struct kfd_abi_pc_sample_args *out)
{
	struct kfd_abi_pc_sample_args a;
	int r;

	memset(&a, 0, sizeof(a));
	a.op = op;
	a.gpu_id = gpu_id;
	a.sample_info_ptr = (uintptr_t)info;
	a.num_sample_info = n;
	a.trace_id = trace_id ? *trace_id : 0;
	a.flags = flags;
	r = ksim_ioctl(kfd, KFD_ABI_IOC_PC_SAMPLE, &a);
	if (trace_id && op == KFD_ABI_PCS_OP_CREATE && !r)
		*trace_id = a.trace_id;
	if (out)
		*out = a;
	return r;
}

static int
op_id(struct kt *t, uint32_t op, uint32_t id)
{
	return pcs(t->kfd, op, t->gpu_id[0], NULL, 0, &id, 0, NULL);
}

static int
create(struct kt *t, struct kfd_abi_pc_sample_info *info, uint32_t *id)
{
	return pcs(t->kfd, KFD_ABI_PCS_OP_CREATE, t->gpu_id[0], info, 1, id, 0, NULL);
}

static int
open_kernel(struct kt *t, const char *profile, unsigned int kernel,
	    const char *machine)
{
	struct ksim_opts o = { .kernel = kernel };

	if (machine)
		o.machine = machine;
	else
		o.flags = KSIM_OPT_PRIVATE;
	return kt_open_opts(t, profile, &o);
}

/* Set or clear capability @cap in this process's effective set. */
static int
cap_effective(int cap, int on)
{
	struct __user_cap_header_struct hdr = { _LINUX_CAPABILITY_VERSION_3, 0 };
	struct __user_cap_data_struct d[2];

	memset(d, 0, sizeof(d));
	if (syscall(SYS_capget, &hdr, d))
		return -1;
	if (on)
		d[cap / 32].effective |= 1u << (cap % 32);
	else
		d[cap / 32].effective &= ~(1u << (cap % 32));
	return (int)syscall(SYS_capset, &hdr, d);
}

static int
have_perfmon(void)
{
	struct __user_cap_header_struct hdr = { _LINUX_CAPABILITY_VERSION_3, 0 };
	struct __user_cap_data_struct d[2];

	memset(d, 0, sizeof(d));
	if (syscall(SYS_capget, &hdr, d))
		return 0;
	return (d[1].effective >> (CAP_PERFMON_BIT - 32)) & 1 ||
	       (d[0].effective >> CAP_SYS_ADMIN) & 1;
}

static void
test_upstream_refuses(void **state)
{
	struct kt t;
	uint32_t id = 1;

	(void)state;
	assert_int_equal(open_kernel(&t, "mi210", KSIM_KERNEL_UPSTREAM, NULL), 0);
	assert_int_equal(pcs(t.kfd, KFD_ABI_PCS_OP_QUERY_CAPABILITIES, t.gpu_id[0],
			     NULL, 0, &id, 0, NULL), -EINVAL);
	kt_close(&t);
}

/* Per GFX IP: gfx90a host trap only, gfx942 host trap and stochastic,
 * gfx908 and gfx1030 none. */
static void
test_query(void **state)
{
	struct kfd_abi_pc_sample_info info[3];
	struct kfd_abi_pc_sample_args a;
	struct kt t;

	(void)state;
	assert_int_equal(open_kernel(&t, "mi210", KSIM_KERNEL_ROCM, NULL), 0);
	assert_int_equal(pcs(t.kfd, 0, 0x4242, NULL, 0, NULL, 0, &a), -EINVAL);
	/* the size: no pointer, or no room */
	assert_int_equal(pcs(t.kfd, 0, t.gpu_id[0], NULL, 0, NULL, 0, &a), 0);
	assert_int_equal(a.num_sample_info, 1);
	assert_int_equal(pcs(t.kfd, 0, t.gpu_id[0], info, 0, NULL, 0, &a), 0);
	assert_int_equal(a.num_sample_info, 1);
	memset(info, 0xee, sizeof(info));
	assert_int_equal(pcs(t.kfd, 0, t.gpu_id[0], info, 3, NULL, 0, &a), 0);
	assert_int_equal(a.num_sample_info, 1);
	assert_int_equal(info[0].method, KFD_ABI_PCS_METHOD_HOSTTRAP);
	assert_int_equal(info[0].type, KFD_ABI_PCS_TYPE_TIME_US);
	assert_int_equal(info[0].interval, 0);
	assert_int_equal(info[0].interval_min, 1);
	assert_true(info[0].interval_max == ~0ULL);
	assert_int_equal(info[0].flags, 0);
	assert_int_equal(info[1].method, 0xeeeeeeeeu);	/* untouched */
	assert_int_equal(pcs(t.kfd, 0, t.gpu_id[0], (void *)8, 1, NULL, 0, &a), -EFAULT);
	kt_close(&t);

	assert_int_equal(open_kernel(&t, "mi300x", KSIM_KERNEL_ROCM, NULL), 0);
	assert_int_equal(pcs(t.kfd, 0, t.gpu_id[0], info, 1, NULL, 0, &a), -ENOSPC);
	assert_int_equal(a.num_sample_info, 2);
	assert_int_equal(pcs(t.kfd, 0, t.gpu_id[0], info, 2, NULL, 0, &a), 0);
	assert_int_equal(info[0].method, KFD_ABI_PCS_METHOD_HOSTTRAP);
	assert_int_equal(info[1].method, KFD_ABI_PCS_METHOD_STOCHASTIC);
	assert_int_equal(info[1].type, KFD_ABI_PCS_TYPE_CLOCK_CYCLES);
	assert_int_equal(info[1].interval_min, 256);
	assert_true(info[1].interval_max == 1ULL << 31);
	assert_int_equal(info[1].flags, KFD_ABI_PCS_FLAG_POWER_OF_2);
	kt_close(&t);

	assert_int_equal(open_kernel(&t, "mi100", KSIM_KERNEL_ROCM, NULL), 0);
	assert_int_equal(pcs(t.kfd, 0, t.gpu_id[0], NULL, 0, NULL, 0, &a), -EOPNOTSUPP);
	kt_close(&t);
	assert_int_equal(open_kernel(&t, "rx6900xt", KSIM_KERNEL_ROCM, NULL), 0);
	assert_int_equal(pcs(t.kfd, 0, t.gpu_id[0], NULL, 0, NULL, 0, &a), -EOPNOTSUPP);
	kt_close(&t);
}

/* CREATE's checks, in the driver's order. */
static void
test_create_errors(void **state)
{
	struct kfd_abi_pc_sample_info info[2], u;
	struct kt t;
	uint32_t id = 0;

	(void)state;
	assert_int_equal(open_kernel(&t, "mi300x", KSIM_KERNEL_ROCM, NULL), 0);
	assert_int_equal(pcs(t.kfd, 0, t.gpu_id[0], info, 2, NULL, 0, NULL), 0);
	u = info[0];
	u.interval = 100;
	assert_int_equal(pcs(t.kfd, KFD_ABI_PCS_OP_CREATE, t.gpu_id[0], &u, 0, &id, 0,
			     NULL), -EINVAL);
	assert_int_equal(pcs(t.kfd, KFD_ABI_PCS_OP_CREATE, t.gpu_id[0], &u, 2, &id, 0,
			     NULL), -EINVAL);
	assert_int_equal(pcs(t.kfd, KFD_ABI_PCS_OP_CREATE, t.gpu_id[0], (void *)8, 1,
			     &id, 0, NULL), -EFAULT);
	u.method = 3;				/* no such method */
	assert_int_equal(create(&t, &u, &id), -EOPNOTSUPP);
	u.method = KFD_ABI_PCS_METHOD_HOSTTRAP;
	u.type = KFD_ABI_PCS_TYPE_CLOCK_CYCLES;	/* not host trap's */
	assert_int_equal(create(&t, &u, &id), -EOPNOTSUPP);
	u.type = KFD_ABI_PCS_TYPE_TIME_US;
	u.interval = 0;				/* below the minimum */
	assert_int_equal(create(&t, &u, &id), -EOPNOTSUPP);
	u = info[1];
	u.interval = 128;			/* stochastic: below 256 */
	assert_int_equal(create(&t, &u, &id), -EOPNOTSUPP);
	u.interval = (1ULL << 31) * 2;		/* above the maximum */
	assert_int_equal(create(&t, &u, &id), -EOPNOTSUPP);
	u.interval = 768;			/* not a power of 2 */
	assert_int_equal(create(&t, &u, &id), -EINVAL);
	assert_int_equal(id, 0);
	u.interval = 1024;
	assert_int_equal(create(&t, &u, &id), 0);
	assert_int_equal(id, 1);
	/* the methods have a sampler each */
	u = info[0];
	u.interval = 100;
	assert_int_equal(create(&t, &u, &id), 0);
	assert_int_equal(id, 2);
	assert_int_equal(op_id(&t, KFD_ABI_PCS_OP_DESTROY, 1), 0);
	assert_int_equal(op_id(&t, KFD_ABI_PCS_OP_DESTROY, 2), 0);
	kt_close(&t);
}

/* START/STOP/DESTROY's state rules, ids, the current-format query, the
 * bind for START, and no PC sampling while debugged. */
static void
test_states(void **state)
{
	struct kfd_abi_pc_sample_info info[2], u, got[2];
	struct kfd_abi_pc_sample_args a;
	struct kt t;
	uint32_t id = 0, id2 = 0;

	(void)state;
	assert_int_equal(open_kernel(&t, "mi300x", KSIM_KERNEL_ROCM, NULL), 0);
	assert_int_equal(pcs(t.kfd, 0, t.gpu_id[0], info, 2, NULL, 0, NULL), 0);
	u = info[0];
	u.interval = 0x100000;
	/* START binds first: without a VM that fails before the id is seen */
	assert_int_equal(op_id(&t, KFD_ABI_PCS_OP_START, 12345), -ESRCH);
	assert_int_equal(op_id(&t, KFD_ABI_PCS_OP_STOP, 12345), -EINVAL);
	assert_int_equal(op_id(&t, KFD_ABI_PCS_OP_DESTROY, 12345), -EINVAL);
	assert_int_equal(op_id(&t, KFD_ABI_PCS_OP_DESTROY, 0), -EINVAL);
	assert_int_equal(op_id(&t, 7, 0), -EINVAL);

	/* no VM yet: CREATE is fine, START cannot bind */
	assert_int_equal(create(&t, &u, &id), 0);
	assert_int_equal(op_id(&t, KFD_ABI_PCS_OP_START, id), -ESRCH);
	assert_int_equal(kt_acquire(&t, 0), 0);
	assert_int_equal(op_id(&t, KFD_ABI_PCS_OP_STOP, id), -EALREADY);
	assert_int_equal(op_id(&t, KFD_ABI_PCS_OP_START, 12345), -EINVAL);
	assert_int_equal(op_id(&t, KFD_ABI_PCS_OP_START, id), 0);
	assert_int_equal(op_id(&t, KFD_ABI_PCS_OP_START, id), -EALREADY);
	assert_int_equal(op_id(&t, KFD_ABI_PCS_OP_DESTROY, id), -EBUSY);

	/* a session: the query gives the current format, FULL all */
	memset(got, 0, sizeof(got));
	assert_int_equal(pcs(t.kfd, 0, t.gpu_id[0], got, 2, NULL, 0, &a), 0);
	assert_int_equal(a.num_sample_info, 1);
	assert_memory_equal(&got[0], &u, sizeof(u));
	assert_int_equal(pcs(t.kfd, 0, t.gpu_id[0], NULL, 0, NULL, 0, &a), 0);
	assert_int_equal(a.num_sample_info, 1);
	assert_int_equal(pcs(t.kfd, 0, t.gpu_id[0], got, 2, NULL,
			     KFD_ABI_PCS_QUERY_TYPE_FULL, &a), 0);
	assert_int_equal(a.num_sample_info, 2);
	assert_memory_equal(got, info, sizeof(got));

	/* a second session of the same format; another format is refused
	 * and told the current one */
	assert_int_equal(create(&t, &u, &id2), 0);
	assert_int_not_equal(id2, id);
	got[0] = u;
	got[0].interval = 5;
	assert_int_equal(create(&t, &got[0], NULL), -EEXIST);
	assert_memory_equal(&got[0], &u, sizeof(u));
	assert_int_equal(op_id(&t, KFD_ABI_PCS_OP_START, id2), 0);
	assert_int_equal(op_id(&t, KFD_ABI_PCS_OP_STOP, id), 0);
	assert_int_equal(op_id(&t, KFD_ABI_PCS_OP_STOP, id), -EALREADY);
	assert_int_equal(op_id(&t, KFD_ABI_PCS_OP_DESTROY, id), 0);
	assert_int_equal(op_id(&t, KFD_ABI_PCS_OP_DESTROY, id), -EINVAL);
	assert_int_equal(op_id(&t, KFD_ABI_PCS_OP_STOP, id2), 0);
	assert_int_equal(op_id(&t, KFD_ABI_PCS_OP_DESTROY, id2), 0);

	/* none left: any format again; ids go on (cyclic) */
	got[0] = u;
	got[0].interval = 5;
	assert_int_equal(create(&t, &got[0], &id), 0);
	assert_int_equal(id, id2 + 1);
	assert_int_equal(op_id(&t, KFD_ABI_PCS_OP_DESTROY, id), 0);
	assert_int_equal(pcs(t.kfd, 0, t.gpu_id[0], NULL, 0, NULL, 0, &a), 0);
	assert_int_equal(a.num_sample_info, 2);

	/* debugged: no QUERY or CREATE */
	{
		struct kfd_abi_runtime_enable_args re = { .mode_mask = 1 };
		struct kfd_abi_runtime_info ri;
		struct kfd_abi_dbg_trap_args d;
		int efd = open("/dev/null", O_RDONLY);

		assert_int_equal(ksim_ioctl(t.kfd, KFD_ABI_IOC_RUNTIME_ENABLE, &re), 0);
		memset(&d, 0, sizeof(d));
		d.pid = (uint32_t)getpid();
		d.op = KFD_ABI_DBG_TRAP_ENABLE;
		d.enable.dbg_fd = (uint32_t)efd;
		d.enable.rinfo_ptr = (uintptr_t)&ri;
		d.enable.rinfo_size = sizeof(ri);
		assert_int_equal(ksim_ioctl(t.kfd, KFD_ABI_IOC_DBG_TRAP, &d), 0);
		assert_int_equal(pcs(t.kfd, 0, t.gpu_id[0], NULL, 0, NULL, 0, &a), -EBUSY);
		assert_int_equal(create(&t, &u, &id), -EBUSY);
		d.op = KFD_ABI_DBG_TRAP_DISABLE;
		assert_int_equal(ksim_ioctl(t.kfd, KFD_ABI_IOC_DBG_TRAP, &d), 0);
		assert_int_equal(pcs(t.kfd, 0, t.gpu_id[0], NULL, 0, NULL, 0, &a), 0);
		close(efd);
	}
	kt_close(&t);
}

/* Without CAP_PERFMON and CAP_SYS_ADMIN: EACCES; either will do. */
static void
test_permission(void **state)
{
	pid_t pid;
	int status;

	(void)state;
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		struct kt t;
		int r;

		if (open_kernel(&t, "mi210", KSIM_KERNEL_ROCM, NULL))
			_exit(10);
		if (cap_effective(CAP_SYS_ADMIN, 0) || cap_effective(CAP_PERFMON_BIT, 1))
			_exit(11);
		if (pcs(t.kfd, 0, t.gpu_id[0], NULL, 0, NULL, 0, NULL))
			_exit(12);
		if (cap_effective(CAP_PERFMON_BIT, 0))
			_exit(13);
		r = pcs(t.kfd, 0, t.gpu_id[0], NULL, 0, NULL, 0, NULL);
		if (r != -EACCES)
			_exit(14);
		/* the check comes before the gpu_id's */
		if (pcs(t.kfd, 0, 0x4242, NULL, 0, NULL, 0, NULL) != -EACCES)
			_exit(15);
		if (cap_effective(CAP_SYS_ADMIN, 1) ||
		    pcs(t.kfd, 0, t.gpu_id[0], NULL, 0, NULL, 0, NULL))
			_exit(16);
		kt_close(&t);
		_exit(0);
	}
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), 0);
}

/*
 * One sampler format per GPU of the machine: another process's CREATE
 * must match it, cannot use the first one's trace id, and a process's
 * sessions go with it (closed or killed).
 */
static int
child(const char *machine, const struct kfd_abi_pc_sample_info *held,
      uint32_t parent_id, int leave)
{
	struct kfd_abi_pc_sample_info u = *held, q[2];
	struct kfd_abi_pc_sample_args a;
	struct kt t;
	uint32_t id = 0;

	if (open_kernel(&t, "mi210", KSIM_KERNEL_ROCM, machine) || kt_acquire(&t, 0))
		return 1;
	/* the current format, as another process sees it */
	if (pcs(t.kfd, 0, t.gpu_id[0], q, 2, NULL, 0, &a) || a.num_sample_info != 1 ||
	    memcmp(&q[0], held, sizeof(q[0])))
		return 2;
	u.interval = held->interval + 1;
	if (create(&t, &u, &id) != -EEXIST || memcmp(&u, held, sizeof(u)))
		return 3;
	if (op_id(&t, KFD_ABI_PCS_OP_STOP, parent_id) != -EINVAL ||
	    op_id(&t, KFD_ABI_PCS_OP_DESTROY, parent_id) != -EINVAL)
		return 4;
	if (create(&t, &u, &id) || id == parent_id ||
	    op_id(&t, KFD_ABI_PCS_OP_START, id))
		return 5;
	if (leave)
		_exit(0);	/* dies holding a started session */
	if (op_id(&t, KFD_ABI_PCS_OP_STOP, id) || op_id(&t, KFD_ABI_PCS_OP_DESTROY, id))
		return 6;
	kt_close(&t);
	return 0;
}

static void
test_cross_process(void **state)
{
	const char *machine = ksim_machine_id(*state);
	struct kfd_abi_pc_sample_info u;
	struct kfd_abi_pc_sample_args a;
	struct kt t;
	uint32_t id = 0, other = 0;
	pid_t pid;
	int status;

	assert_int_equal(open_kernel(&t, "mi210", KSIM_KERNEL_ROCM, machine), 0);
	assert_int_equal(kt_acquire(&t, 0), 0);
	assert_int_equal(pcs(t.kfd, 0, t.gpu_id[0], &u, 1, NULL, 0, NULL), 0);
	u.interval = 1000;
	assert_int_equal(create(&t, &u, &id), 0);
	assert_int_equal(op_id(&t, KFD_ABI_PCS_OP_START, id), 0);
	for (int leave = 0; leave < 2; leave++) {
		pid = fork();
		assert_true(pid >= 0);
		if (pid == 0)
			_exit(child(machine, &u, id, leave));
		assert_int_equal(waitpid(pid, &status, 0), pid);
		assert_true(WIFEXITED(status));
		assert_int_equal(WEXITSTATUS(status), 0);
	}
	assert_int_equal(op_id(&t, KFD_ABI_PCS_OP_STOP, id), 0);
	assert_int_equal(op_id(&t, KFD_ABI_PCS_OP_DESTROY, id), 0);
	/* the dead child's session went with it: any format again */
	u.interval = 77;
	assert_int_equal(create(&t, &u, &other), 0);
	assert_int_equal(op_id(&t, KFD_ABI_PCS_OP_START, other), 0);
	/* closing /dev/kfd releases a started session */
	kt_close(&t);
	assert_int_equal(open_kernel(&t, "mi210", KSIM_KERNEL_ROCM, machine), 0);
	assert_int_equal(pcs(t.kfd, 0, t.gpu_id[0], NULL, 0, NULL, 0, &a), 0);
	assert_int_equal(a.num_sample_info, 1);
	u.interval = 78;
	assert_int_equal(create(&t, &u, &id), 0);
	assert_int_equal(op_id(&t, KFD_ABI_PCS_OP_DESTROY, id), 0);
	kt_close(&t);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_upstream_refuses),
		cmocka_unit_test(test_query),
		cmocka_unit_test(test_create_errors),
		cmocka_unit_test(test_states),
		cmocka_unit_test(test_permission),
		cmocka_unit_test_setup_teardown(test_cross_process, kt_machine_setup,
						kt_machine_teardown),
	};

	const char *ci = getenv("CI");

	/* The ioctl needs CAP_PERFMON or CAP_SYS_ADMIN: raise CAP_PERFMON
	 * from the permitted set when it is not effective. */
	if (!have_perfmon())
		cap_effective(CAP_PERFMON_BIT, 1);
	if (!have_perfmon()) {
		fprintf(stderr, "test_pcs: skipped: neither CAP_PERFMON nor "
			"CAP_SYS_ADMIN can be had by this process\n");
		return ci && !strcmp(ci, "true") ? 1 : 77;
	}
	return cmocka_run_group_tests(tests, NULL, NULL);
}

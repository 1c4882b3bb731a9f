/* SPDX-License-Identifier: MIT */
/* Per-device settings and the rest: clocks, apertures, tiles, policy,
 * scratch/trap handler, SMI, CRIU, CREATE_PROCESS, runtime and debugger. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <time.h>
#include <unistd.h>

#include "ktest.h"

static void
test_clocks(void **state)
{
	struct kt *t = *state;
	struct kfd_abi_get_clock_counters_args a, b;
	struct timespec ts;
	uint64_t raw;

	memset(&a, 0, sizeof(a));
	a.gpu_id = t->gpu_id[0];
	assert_int_equal(ksim_ioctl(t->kfd, KFD_ABI_IOC_GET_CLOCK_COUNTERS, &a), 0);
	clock_gettime(CLOCK_MONOTONIC_RAW, &ts);
	raw = (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
	assert_true(a.cpu_clock_counter <= raw && raw - a.cpu_clock_counter < 1000000000ULL);
	assert_int_equal(a.system_clock_freq, 1000000000ULL);
	/* 100 MHz GPU counter: a tenth of the ns count */
	assert_true(a.gpu_clock_counter / 10 <= a.cpu_clock_counter / 100 + 1 &&
		    a.gpu_clock_counter >= a.cpu_clock_counter / 10 - 1);
	usleep(2000);
	b = a;
	assert_int_equal(ksim_ioctl(t->kfd, KFD_ABI_IOC_GET_CLOCK_COUNTERS, &b), 0);
	assert_true(b.gpu_clock_counter > a.gpu_clock_counter + 100000);
	assert_true(b.system_clock_counter > a.system_clock_counter);
	/* a node without GPU: counter 0, never an error */
	b.gpu_id = 0;
	assert_int_equal(ksim_ioctl(t->kfd, KFD_ABI_IOC_GET_CLOCK_COUNTERS, &b), 0);
	assert_int_equal(b.gpu_clock_counter, 0);
}

static void
test_apertures(void **state)
{
	struct kt x;
	struct kfd_abi_get_process_apertures_args old;
	struct kfd_abi_get_process_apertures_new_args nw;
	struct kfd_abi_process_device_apertures pa[4];

	(void)state;
	assert_int_equal(kt_open(&x, "mi210x2", 0), 0);
	memset(&old, 0xff, sizeof(old));
	assert_int_equal(ksim_ioctl(x.kfd, KFD_ABI_IOC_GET_PROCESS_APERTURES, &old), 0);
	assert_int_equal(old.num_of_nodes, 2);
	assert_int_equal(old.process_apertures[0].gpu_id, x.gpu_id[0]);
	assert_int_equal(old.process_apertures[1].gpu_id, x.gpu_id[1]);
	assert_int_equal(old.process_apertures[0].lds_base, 0x0001000000000000ULL);
	assert_int_equal(old.process_apertures[0].lds_limit, 0x00010000FFFFFFFFULL);
	assert_int_equal(old.process_apertures[0].scratch_base, 0x0002000000000000ULL);
	assert_int_equal(old.process_apertures[0].gpuvm_limit, 0x00007FFFFFFFFFFFULL);
	memset(&nw, 0, sizeof(nw));
	assert_int_equal(ksim_ioctl(x.kfd, KFD_ABI_IOC_GET_PROCESS_APERTURES_NEW, &nw), 0);
	assert_int_equal(nw.num_of_nodes, 2);
	memset(pa, 0, sizeof(pa));
	nw.kfd_process_device_apertures_ptr = (uintptr_t)pa;
	nw.num_of_nodes = 1;
	assert_int_equal(ksim_ioctl(x.kfd, KFD_ABI_IOC_GET_PROCESS_APERTURES_NEW, &nw), 0);
	assert_int_equal(nw.num_of_nodes, 1);
	assert_int_equal(pa[0].gpu_id, x.gpu_id[0]);
	assert_int_equal(pa[1].gpu_id, 0);
	nw.num_of_nodes = 4;	/* the thunk passes the sysfs node count */
	assert_int_equal(ksim_ioctl(x.kfd, KFD_ABI_IOC_GET_PROCESS_APERTURES_NEW, &nw), 0);
	assert_int_equal(nw.num_of_nodes, 2);
	assert_int_equal(pa[1].gpu_id, x.gpu_id[1]);
	assert_int_equal(pa[1].gpuvm_base, 0x10000);
	nw.num_of_nodes = 0x7fffffff;
	assert_int_equal(ksim_ioctl(x.kfd, KFD_ABI_IOC_GET_PROCESS_APERTURES_NEW, &nw), -ENOMEM);
	kt_close(&x);
}

static void
test_tile_config(void **state)
{
	struct kt *t = *state;
	struct kfd_abi_get_tile_config_args a;
	uint32_t tiles[64], macro[64];

	memset(&a, 0, sizeof(a));
	a.gpu_id = 0x55;
	assert_int_equal(ksim_ioctl(t->kfd, KFD_ABI_IOC_GET_TILE_CONFIG, &a), -EINVAL);
	a.gpu_id = t->gpu_id[0];
	assert_int_equal(ksim_ioctl(t->kfd, KFD_ABI_IOC_GET_TILE_CONFIG, &a), 0);
	assert_int_equal(a.gb_addr_config, 0x2a114042);
	memset(tiles, 0xff, sizeof(tiles));
	a.tile_config_ptr = (uintptr_t)tiles;
	a.macro_tile_config_ptr = (uintptr_t)macro;
	a.num_tile_configs = 64;
	a.num_macro_tile_configs = 64;
	assert_int_equal(ksim_ioctl(t->kfd, KFD_ABI_IOC_GET_TILE_CONFIG, &a), 0);
	assert_int_equal(a.num_tile_configs, 32);
	assert_int_equal(a.num_macro_tile_configs, 16);
	assert_int_equal(tiles[31], 0);
	assert_int_equal(tiles[32], 0xffffffff);
	a.tile_config_ptr = 8;
	assert_int_equal(ksim_ioctl(t->kfd, KFD_ABI_IOC_GET_TILE_CONFIG, &a), -EFAULT);
	assert_int_equal(a.num_tile_configs, 0);
}

static void
test_policy_scratch_trap(void **state)
{
	struct kt *t = *state;
	struct kfd_abi_set_memory_policy_args p;
	struct kfd_abi_set_scratch_backing_va_args s = { .va_addr = 0x1000,
							 .gpu_id = t->gpu_id[0] };
	struct kfd_abi_set_trap_handler_args th = { .tba_addr = 0x2000,
						    .gpu_id = t->gpu_id[0] };

	memset(&p, 0, sizeof(p));
	p.gpu_id = t->gpu_id[0];
	p.default_policy = 2;
	assert_int_equal(ksim_ioctl(t->kfd, KFD_ABI_IOC_SET_MEMORY_POLICY, &p), -EINVAL);
	p.default_policy = KFD_ABI_CACHE_POLICY_NONCOHERENT;
	p.alternate_policy = 7;
	assert_int_equal(ksim_ioctl(t->kfd, KFD_ABI_IOC_SET_MEMORY_POLICY, &p), -EINVAL);
	p.alternate_policy = KFD_ABI_CACHE_POLICY_COHERENT;
	p.gpu_id = 1;
	assert_int_equal(ksim_ioctl(t->kfd, KFD_ABI_IOC_SET_MEMORY_POLICY, &p), -EINVAL);
	p.gpu_id = t->gpu_id[0];
	/* before ACQUIRE_VM: ESRCH / ENODEV / ESRCH */
	assert_int_equal(ksim_ioctl(t->kfd, KFD_ABI_IOC_SET_MEMORY_POLICY, &p), -ESRCH);
	assert_int_equal(ksim_ioctl(t->kfd, KFD_ABI_IOC_SET_SCRATCH_BACKING_VA, &s), -ENODEV);
	assert_int_equal(ksim_ioctl(t->kfd, KFD_ABI_IOC_SET_TRAP_HANDLER, &th), -ESRCH);
	assert_int_equal(kt_acquire(t, 0), 0);
	assert_int_equal(ksim_ioctl(t->kfd, KFD_ABI_IOC_SET_MEMORY_POLICY, &p), 0);
	assert_int_equal(ksim_ioctl(t->kfd, KFD_ABI_IOC_SET_SCRATCH_BACKING_VA, &s), 0);
	assert_int_equal(ksim_ioctl(t->kfd, KFD_ABI_IOC_SET_TRAP_HANDLER, &th), 0);
	th.gpu_id = 3;
	assert_int_equal(ksim_ioctl(t->kfd, KFD_ABI_IOC_SET_TRAP_HANDLER, &th), -EINVAL);
}

static void
test_smi(void **state)
{
	struct kt *t = *state;
	struct kfd_abi_smi_events_args a = { .gpuid = 7 };
	uint64_t mask = KFD_ABI_SMI_EVENT_MASK_FROM_INDEX(KFD_ABI_SMI_EVENT_VMFAULT);
	char buf[96];

	assert_int_equal(ksim_ioctl(t->kfd, KFD_ABI_IOC_SMI_EVENTS, &a), -EINVAL);
	a.gpuid = t->gpu_id[0];
	assert_int_equal(ksim_ioctl(t->kfd, KFD_ABI_IOC_SMI_EVENTS, &a), 0);
	assert_true(a.anon_fd > 2);
	assert_int_equal(write((int)a.anon_fd, &mask, sizeof(mask)), 8);
	/* Nothing to read: EAGAIN at once, without O_NONBLOCK asked. */
	assert_int_equal(read((int)a.anon_fd, buf, sizeof(buf)), -1);
	assert_int_equal(errno, EAGAIN);
	close((int)a.anon_fd);
}

/*
 * PROCESS_START when the process acquires a GPU's VM, to its subscribers
 * of that GPU whose mask asks for it: "<event> <pid> <task name>", the
 * numbers in hex.
 */
static void
test_smi_process_start(void **state)
{
	struct kt *t = *state;
	struct kfd_abi_smi_events_args a = { .gpuid = t->gpu_id[0] };
	struct kfd_abi_smi_events_args none = { .gpuid = t->gpu_id[0] };
	uint64_t mask = KFD_ABI_SMI_EVENT_MASK_FROM_INDEX(KFD_ABI_SMI_EVENT_PROCESS_START) |
			KFD_ABI_SMI_EVENT_MASK_FROM_INDEX(KFD_ABI_SMI_EVENT_PROCESS_END);
	uint64_t other = KFD_ABI_SMI_EVENT_MASK_FROM_INDEX(KFD_ABI_SMI_EVENT_VMFAULT);
	char buf[96], want[96], comm[16] = "";
	ssize_t n;

	assert_int_equal(ksim_ioctl(t->kfd, KFD_ABI_IOC_SMI_EVENTS, &a), 0);
	assert_int_equal(ksim_ioctl(t->kfd, KFD_ABI_IOC_SMI_EVENTS, &none), 0);
	assert_int_equal(write((int)a.anon_fd, &mask, sizeof(mask)), 8);
	assert_int_equal(write((int)none.anon_fd, &other, sizeof(other)), 8);
	assert_int_equal(kt_acquire(t, 0), 0);
	fcntl((int)a.anon_fd, F_SETFL, O_NONBLOCK);
	fcntl((int)none.anon_fd, F_SETFL, O_NONBLOCK);
	n = read((int)a.anon_fd, buf, sizeof(buf) - 1);
	assert_true(n > 0);
	buf[n] = 0;
	(void)prctl(PR_GET_NAME, comm, 0, 0, 0);
	snprintf(want, sizeof(want), "c %x %s\n", (unsigned int)getpid(), comm);
	assert_string_equal(buf, want);
	/* A subscriber that did not ask gets nothing. */
	assert_int_equal(read((int)none.anon_fd, buf, sizeof(buf)), -1);
	assert_int_equal(errno, EAGAIN);
	close((int)a.anon_fd);
	close((int)none.anon_fd);
}

static void
test_criu(void **state)
{
	struct kt *t = *state;
	struct kfd_abi_criu_args c;
	struct kfd_abi_criu_device_bucket dev[2];
	struct kfd_abi_criu_bo_bucket bos[4];
	char *priv;
	uint64_t h;
	unsigned int g0 = 0;
	uint32_t ns;

	assert_int_equal(kt_alloc(t, 0, 0x10000000, 1 << 20, KFD_ABI_ALLOC_MEM_FLAGS_VRAM,
				  &h, NULL), 0);
	assert_int_equal(kt_map(t, h, &g0, 1, &ns), 0);
	memset(&c, 0, sizeof(c));
	c.op = KFD_ABI_CRIU_OP_CHECKPOINT;
	c.devices = (uintptr_t)dev;
	c.bos = (uintptr_t)bos;
	c.priv_data = 1;
	assert_int_equal(ksim_ioctl(t->kfd, KFD_ABI_IOC_CRIU_OP, &c), -EINVAL);	/* not paused */
	c.op = KFD_ABI_CRIU_OP_UNPAUSE;
	assert_int_equal(ksim_ioctl(t->kfd, KFD_ABI_IOC_CRIU_OP, &c), -EINVAL);
	memset(&c, 0, sizeof(c));
	c.op = KFD_ABI_CRIU_OP_PROCESS_INFO;
	assert_int_equal(ksim_ioctl(t->kfd, KFD_ABI_IOC_CRIU_OP, &c), 0);
	assert_int_equal(c.pid, (uint32_t)getpid());
	assert_int_equal(c.num_devices, 1);
	assert_int_equal(c.num_bos, 1);
	assert_int_equal(c.num_objects, 0);
	assert_true(c.priv_data_size > 0);
	priv = calloc(1, c.priv_data_size);
	c.op = KFD_ABI_CRIU_OP_CHECKPOINT;
	c.devices = (uintptr_t)dev;
	c.bos = (uintptr_t)bos;
	c.priv_data = (uintptr_t)priv;
	c.num_bos = 2;	/* mismatch */
	assert_int_equal(ksim_ioctl(t->kfd, KFD_ABI_IOC_CRIU_OP, &c), -EINVAL);
	c.num_bos = 1;
	assert_int_equal(ksim_ioctl(t->kfd, KFD_ABI_IOC_CRIU_OP, &c), 0);
	assert_int_equal(dev[0].actual_gpu_id, t->gpu_id[0]);
	assert_int_equal(bos[0].addr, 0x10000000);
	assert_int_equal(bos[0].size, 1 << 20);
	assert_true(bos[0].dmabuf_fd != KFD_ABI_INVALID_FD);
	close((int)bos[0].dmabuf_fd);
	c.op = KFD_ABI_CRIU_OP_UNPAUSE;
	assert_int_equal(ksim_ioctl(t->kfd, KFD_ABI_IOC_CRIU_OP, &c), 0);
	c.op = KFD_ABI_CRIU_OP_RESUME;
	c.pid = 1;
	assert_int_equal(ksim_ioctl(t->kfd, KFD_ABI_IOC_CRIU_OP, &c), -ESRCH);
	c.op = KFD_ABI_CRIU_OP_RESTORE;
	c.devices = 0;
	assert_int_equal(ksim_ioctl(t->kfd, KFD_ABI_IOC_CRIU_OP, &c), -EINVAL);
	c.op = 99;
	assert_int_equal(ksim_ioctl(t->kfd, KFD_ABI_IOC_CRIU_OP, &c), -EINVAL);
	free(priv);
}

static void
test_create_process(void **state)
{
	struct kt *t = *state;
	struct ksim_file *second;
	struct kfd_abi_alloc_memory_of_gpu_args a;
	int err;
	uint64_t h;

	/* the primary has a BO at idr 0 */
	assert_int_equal(kt_acquire(t, 0), 0);
	assert_int_equal(kt_alloc(t, 0, 0, 4096, KFD_ABI_ALLOC_MEM_FLAGS_GTT, &h, NULL), 0);
	second = ksim_open_kfd(t->dev, O_CLOEXEC, &err);
	assert_non_null(second);
	assert_int_equal(ksim_ioctl(second, KFD_ABI_IOC_CREATE_PROCESS, NULL), 0);
	assert_int_equal(ksim_ioctl(second, KFD_ABI_IOC_CREATE_PROCESS, NULL), -EINVAL);
	/* a fresh context: no VM yet, its own handle space */
	memset(&a, 0, sizeof(a));
	a.size = 4096;
	a.gpu_id = t->gpu_id[0];
	a.flags = KFD_ABI_ALLOC_MEM_FLAGS_GTT;
	assert_int_equal(ksim_ioctl(second, KFD_ABI_IOC_ALLOC_MEMORY_OF_GPU, &a), -ENODEV);
	{
		struct ksim_file *r = ksim_open_render(t->dev, 128, 0, &err);
		struct kfd_abi_acquire_vm_args av = {
			.drm_fd = (uint32_t)ksim_file_fd(r), .gpu_id = t->gpu_id[0],
		};

		assert_int_equal(ksim_ioctl(second, KFD_ABI_IOC_ACQUIRE_VM, &av), 0);
		assert_int_equal(ksim_ioctl(second, KFD_ABI_IOC_ALLOC_MEMORY_OF_GPU, &a), 0);
		assert_int_equal(a.handle, (uint64_t)t->gpu_id[0] << 32);
		close(ksim_file_fd(r));
		ksim_release(r);
	}
	/* the primary is untouched */
	assert_int_equal(kt_alloc(t, 0, 0, 4096, KFD_ABI_ALLOC_MEM_FLAGS_GTT, &h, NULL), 0);
	assert_int_equal(h & 0xffffffff, 1);
	close(ksim_file_fd(second));
	ksim_release(second);
}

static void
test_runtime_and_debugger(void **state)
{
	struct kt *t = *state;
	struct kfd_abi_runtime_enable_args re = { .r_debug = 0x1234, .mode_mask = 1 };
	struct kfd_abi_dbg_trap_args d;
	struct kfd_abi_runtime_info ri;
	int efd = open("/dev/null", O_RDONLY);
	uint8_t snap[2][128];

	memset(&d, 0, sizeof(d));
	d.pid = (uint32_t)getpid();
	d.op = KFD_ABI_DBG_TRAP_SET_FLAGS;
	assert_int_equal(ksim_ioctl(t->kfd, KFD_ABI_IOC_DBG_TRAP, &d), -EINVAL);
	d.pid = 0x7ffffff0;
	assert_int_equal(ksim_ioctl(t->kfd, KFD_ABI_IOC_DBG_TRAP, &d), -ESRCH);
	/* alive, not our ptrace child, no KFD process: none to find */
	d.pid = 1;
	d.op = KFD_ABI_DBG_TRAP_ENABLE;
	assert_int_equal(ksim_ioctl(t->kfd, KFD_ABI_IOC_DBG_TRAP, &d), -ESRCH);
	/* enable on ourselves */
	d.pid = (uint32_t)getpid();
	d.enable.dbg_fd = 4001;
	assert_int_equal(ksim_ioctl(t->kfd, KFD_ABI_IOC_DBG_TRAP, &d), -EBADF);
	assert_int_equal(ksim_ioctl(t->kfd, KFD_ABI_IOC_RUNTIME_ENABLE, &re), 0);
	assert_int_equal(ksim_ioctl(t->kfd, KFD_ABI_IOC_RUNTIME_ENABLE, &re), -EBUSY);
	d.enable.dbg_fd = (uint32_t)efd;
	d.enable.rinfo_ptr = (uintptr_t)&ri;
	d.enable.rinfo_size = sizeof(ri);
	assert_int_equal(ksim_ioctl(t->kfd, KFD_ABI_IOC_DBG_TRAP, &d), 0);
	assert_int_equal(ri.r_debug, 0x1234);
	assert_int_equal(ri.runtime_state, KFD_ABI_DEBUG_RUNTIME_STATE_ENABLED);
	assert_int_equal(d.enable.rinfo_size, sizeof(ri));
	assert_int_equal(ksim_ioctl(t->kfd, KFD_ABI_IOC_DBG_TRAP, &d), -EINVAL);
	memset(&d.query_debug_event, 0, sizeof(d.query_debug_event));
	d.op = KFD_ABI_DBG_TRAP_QUERY_DEBUG_EVENT;
	assert_int_equal(ksim_ioctl(t->kfd, KFD_ABI_IOC_DBG_TRAP, &d), -EAGAIN);
	d.op = KFD_ABI_DBG_TRAP_SET_WAVE_LAUNCH_MODE;
	d.launch_mode.launch_mode = 2;
	assert_int_equal(ksim_ioctl(t->kfd, KFD_ABI_IOC_DBG_TRAP, &d), -EINVAL);
	d.launch_mode.launch_mode = KFD_ABI_DBG_TRAP_WAVE_LAUNCH_MODE_HALT;
	assert_int_equal(ksim_ioctl(t->kfd, KFD_ABI_IOC_DBG_TRAP, &d), 0);
	/* precise memory ops: supported on gfx90a; returns old flags */
	d.op = KFD_ABI_DBG_TRAP_SET_FLAGS;
	d.set_flags.flags = KFD_ABI_DBG_TRAP_FLAG_SINGLE_MEM_OP;
	assert_int_equal(ksim_ioctl(t->kfd, KFD_ABI_IOC_DBG_TRAP, &d), 0);
	assert_int_equal(d.set_flags.flags, 0);
	d.set_flags.flags = KFD_ABI_DBG_TRAP_FLAG_SINGLE_ALU_OP;
	assert_int_equal(ksim_ioctl(t->kfd, KFD_ABI_IOC_DBG_TRAP, &d), -EACCES);
	/* watch points: 4 per device, unknown device -> ENODEV */
	memset(&d.set_node_address_watch, 0, sizeof(d.set_node_address_watch));
	d.op = KFD_ABI_DBG_TRAP_SET_NODE_ADDRESS_WATCH;
	d.set_node_address_watch.gpu_id = 9;
	assert_int_equal(ksim_ioctl(t->kfd, KFD_ABI_IOC_DBG_TRAP, &d), -ENODEV);
	d.set_node_address_watch.gpu_id = t->gpu_id[0];
	for (uint32_t i = 0; i < 4; i++) {
		assert_int_equal(ksim_ioctl(t->kfd, KFD_ABI_IOC_DBG_TRAP, &d), 0);
		assert_int_equal(d.set_node_address_watch.id, i);
	}
	assert_int_equal(ksim_ioctl(t->kfd, KFD_ABI_IOC_DBG_TRAP, &d), -ENOMEM);
	/* device snapshot: stride by the caller's entry size */
	memset(snap, 0, sizeof(snap));
	memset(&d.device_snapshot, 0, sizeof(d.device_snapshot));
	d.op = KFD_ABI_DBG_TRAP_GET_DEVICE_SNAPSHOT;
	d.device_snapshot.snapshot_buf_ptr = (uintptr_t)snap;
	d.device_snapshot.num_devices = 2;
	assert_int_equal(ksim_ioctl(t->kfd, KFD_ABI_IOC_DBG_TRAP, &d), -EINVAL);
	d.device_snapshot.entry_size = 128;
	assert_int_equal(ksim_ioctl(t->kfd, KFD_ABI_IOC_DBG_TRAP, &d), 0);
	assert_int_equal(d.device_snapshot.num_devices, 1);
	assert_int_equal(d.device_snapshot.entry_size,
			 sizeof(struct kfd_abi_dbg_device_info_entry));
	assert_int_equal(((struct kfd_abi_dbg_device_info_entry *)snap[0])->device_id, 0x740f);
	/* queue snapshot of no queues */
	memset(&d.queue_snapshot, 0, sizeof(d.queue_snapshot));
	d.op = KFD_ABI_DBG_TRAP_GET_QUEUE_SNAPSHOT;
	d.queue_snapshot.entry_size = 64;
	d.queue_snapshot.num_queues = 5;
	assert_int_equal(ksim_ioctl(t->kfd, KFD_ABI_IOC_DBG_TRAP, &d), 0);
	assert_int_equal(d.queue_snapshot.num_queues, 0);
	/* disable, then the runtime; HW ops need it ENABLED */
	d.op = KFD_ABI_DBG_TRAP_DISABLE;
	assert_int_equal(ksim_ioctl(t->kfd, KFD_ABI_IOC_DBG_TRAP, &d), 0);
	re.mode_mask = 0;
	assert_int_equal(ksim_ioctl(t->kfd, KFD_ABI_IOC_RUNTIME_ENABLE, &re), 0);
	d.op = KFD_ABI_DBG_TRAP_ENABLE;
	d.enable.dbg_fd = (uint32_t)efd;
	d.enable.rinfo_ptr = (uintptr_t)&ri;
	d.enable.rinfo_size = sizeof(ri);
	assert_int_equal(ksim_ioctl(t->kfd, KFD_ABI_IOC_DBG_TRAP, &d), 0);
	d.op = KFD_ABI_DBG_TRAP_SET_WAVE_LAUNCH_MODE;
	d.launch_mode.launch_mode = 0;
	assert_int_equal(ksim_ioctl(t->kfd, KFD_ABI_IOC_DBG_TRAP, &d), -EPERM);
	close(efd);
}

static void
test_proc_query(void **state)
{
	struct kt *t = *state;
	struct ksim_proc_info *pi = malloc(sizeof(*pi));
	uint64_t h;

	assert_int_equal(kt_alloc(t, 0, 0, 1 << 20, KFD_ABI_ALLOC_MEM_FLAGS_VRAM, &h, NULL), 0);
	assert_int_equal(ksim_proc_query(t->dev, pi), 0);
	assert_int_equal(pi->pid, getpid());
	assert_true(pi->pasid >= 0x8001);
	assert_int_equal(pi->n_gpus, 1);
	assert_int_equal(pi->gpus[0].gpu_id, t->gpu_id[0]);
	assert_int_equal(pi->gpus[0].vram_used, 1 << 20);
	assert_int_equal(pi->gpus[0].vm_acquired, 1);
	assert_int_equal(pi->n_queue_ids, 0);
	free(pi);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_clocks, kt_setup_mi210_novm, kt_teardown),
		cmocka_unit_test(test_apertures),
		cmocka_unit_test_setup_teardown(test_tile_config, kt_setup_mi210_novm, kt_teardown),
		cmocka_unit_test_setup_teardown(test_policy_scratch_trap, kt_setup_mi210_novm, kt_teardown),
		cmocka_unit_test_setup_teardown(test_smi_process_start, kt_setup_mi210_novm,
						kt_teardown),
		cmocka_unit_test_setup_teardown(test_smi, kt_setup_mi210_novm, kt_teardown),
		cmocka_unit_test_setup_teardown(test_criu, kt_setup_mi210, kt_teardown),
		cmocka_unit_test_setup_teardown(test_create_process, kt_setup_mi210_novm, kt_teardown),
		cmocka_unit_test_setup_teardown(test_runtime_and_debugger, kt_setup_mi210, kt_teardown),
		cmocka_unit_test_setup_teardown(test_proc_query, kt_setup_mi210, kt_teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

/* SPDX-License-Identifier: MIT */
/* Queue ioctls: ids, doorbell offsets, buffer validation, ordering rules,
 * update/CU mask/wave state/GWS, limits. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ktest.h"

#define RING_VA		0x10000000ULL
#define PTR_VA		0x20000000ULL
#define EOP_VA		0x30000000ULL
#define CWSR_VA		0x40000000ULL
#define RING_SIZE	65536u

struct qbufs {
	uint64_t ring, ptrs, eop, cwsr;
};

static void
map0(struct kt *t, uint64_t va, uint64_t size, uint32_t flags, uint64_t *h)
{
	unsigned int g0 = 0;
	uint32_t ns;

	assert_int_equal(kt_alloc(t, 0, va, size, flags, h, NULL), 0);
	assert_int_equal(kt_map(t, *h, &g0, 1, &ns), 0);
}

static void
make_buffers(struct kt *t, struct qbufs *b)
{
	const struct ksim_gpu *g = t->prof->nodes[1].gpu;
	uint64_t cwsr = ((uint64_t)g->cwsr_size + g->debug_memory_size + 4095) & ~4095ULL;

	map0(t, RING_VA, RING_SIZE, KFD_ABI_ALLOC_MEM_FLAGS_GTT, &b->ring);
	map0(t, PTR_VA, 4096, KFD_ABI_ALLOC_MEM_FLAGS_GTT, &b->ptrs);
	map0(t, EOP_VA, 4096, KFD_ABI_ALLOC_MEM_FLAGS_VRAM, &b->eop);
	map0(t, CWSR_VA, cwsr, KFD_ABI_ALLOC_MEM_FLAGS_VRAM, &b->cwsr);
}

static void
aql_args(struct kt *t, struct kfd_abi_create_queue_args *q)
{
	const struct ksim_gpu *g = t->prof->nodes[1].gpu;

	memset(q, 0, sizeof(*q));
	q->ring_base_address = RING_VA;
	q->ring_size = RING_SIZE;
	q->read_pointer_address = PTR_VA;
	q->write_pointer_address = PTR_VA + 8;
	q->gpu_id = t->gpu_id[0];
	q->queue_type = KFD_ABI_QUEUE_TYPE_COMPUTE_AQL;
	q->queue_percentage = 100;
	q->queue_priority = 7;
	q->eop_buffer_address = EOP_VA;
	q->eop_buffer_size = g->eop_buffer_size;
	q->ctx_save_restore_address = CWSR_VA;
	q->ctx_save_restore_size = g->cwsr_size;
	q->ctl_stack_size = g->ctl_stack_size;
}

static int
create(struct kt *t, struct kfd_abi_create_queue_args *q)
{
	return ksim_ioctl(t->kfd, KFD_ABI_IOC_CREATE_QUEUE, q);
}

static int
destroy(struct kt *t, uint32_t qid)
{
	struct kfd_abi_destroy_queue_args d = { .queue_id = qid };

	return ksim_ioctl(t->kfd, KFD_ABI_IOC_DESTROY_QUEUE, &d);
}

static int
setup_bufs(void **state)
{
	struct kt *t;
	struct qbufs *b = calloc(1, sizeof(*b));

	if (kt_setup_mi210(state))
		return -1;
	t = *state;
	make_buffers(t, b);
	free(b);
	return 0;
}

static void
test_ids_and_doorbells(void **state)
{
	struct kt *t = *state;
	struct kfd_abi_create_queue_args q;
	uint64_t base = KFD_ABI_MMAP_OFFSET(KFD_ABI_MMAP_TYPE_DOORBELL, t->gpu_id[0], 0);

	aql_args(t, &q);
	assert_int_equal(create(t, &q), 0);
	assert_int_equal(q.queue_id, 0);
	assert_int_equal(q.doorbell_offset, base);
	aql_args(t, &q);
	assert_int_equal(create(t, &q), 0);
	assert_int_equal(q.queue_id, 1);
	assert_int_equal(q.doorbell_offset, base | 8);
	aql_args(t, &q);
	assert_int_equal(create(t, &q), 0);
	assert_int_equal(q.queue_id, 2);
	assert_int_equal(q.doorbell_offset, base | 16);
	/* the lowest free id and doorbell come back */
	assert_int_equal(destroy(t, 0), 0);
	assert_int_equal(destroy(t, 0), -EINVAL);
	assert_int_equal(destroy(t, 5000), -EINVAL);
	aql_args(t, &q);
	assert_int_equal(create(t, &q), 0);
	assert_int_equal(q.queue_id, 0);
	assert_int_equal(q.doorbell_offset, base);
	/* the thunk's split of the offset into mmap base and in-page part */
	assert_int_equal(q.doorbell_offset & 0xffffffffULL, 0);
}

/*
 * 1.22: metadata_ring_size is 0 or a power of two for every queue type;
 * an AQL queue's ring mapping then covers its ring and the metadata ring
 * behind it, exactly; other queue types ignore the size.
 */
static void
test_metadata_ring(void **state)
{
	struct kt *t = *state;
	struct kfd_abi_create_queue_args q;

	aql_args(t, &q);
	q.metadata_ring_size = 3000;
	assert_int_equal(create(t, &q), -EINVAL);
	aql_args(t, &q);
	q.queue_type = KFD_ABI_QUEUE_TYPE_SDMA;
	q.metadata_ring_size = 3000;
	assert_int_equal(create(t, &q), -EINVAL);
	/* The 64 KiB mapping is the ring alone: 16 KiB more is missing. */
	aql_args(t, &q);
	q.metadata_ring_size = 16384;
	assert_int_equal(create(t, &q), -EINVAL);
	/* 32 KiB of ring and 32 KiB of metadata fill the mapping. */
	aql_args(t, &q);
	q.ring_size = RING_SIZE / 2;
	q.metadata_ring_size = RING_SIZE / 2;
	assert_int_equal(create(t, &q), 0);
	assert_int_equal(destroy(t, q.queue_id), 0);
	/* A PM4 compute queue never reads it. */
	aql_args(t, &q);
	q.queue_type = KFD_ABI_QUEUE_TYPE_COMPUTE;
	q.metadata_ring_size = 16384;
	assert_int_equal(create(t, &q), 0);
	assert_int_equal(destroy(t, q.queue_id), 0);
}

static void
test_create_errors(void **state)
{
	struct kt *t = *state;
	struct kfd_abi_create_queue_args q;

	aql_args(t, &q);
	q.queue_percentage = 101;
	assert_int_equal(create(t, &q), -EINVAL);
	aql_args(t, &q);
	q.queue_percentage = 0x1064;	/* xcc byte is not a percentage */
	assert_int_equal(create(t, &q), 0);
	assert_int_equal(destroy(t, q.queue_id), 0);
	aql_args(t, &q);
	q.queue_priority = 16;
	assert_int_equal(create(t, &q), -EINVAL);
	aql_args(t, &q);
	q.ring_base_address = 0xffff800000000000ULL;
	assert_int_equal(create(t, &q), -EFAULT);
	aql_args(t, &q);
	q.ring_size = 3000;
	assert_int_equal(create(t, &q), -EINVAL);
	aql_args(t, &q);
	q.read_pointer_address = 0xffffffffffff0000ULL;
	assert_int_equal(create(t, &q), -EFAULT);
	aql_args(t, &q);
	q.queue_type = 9;
	assert_int_equal(create(t, &q), -524);	/* ENOTSUPP */
	aql_args(t, &q);
	q.gpu_id = 0x99;
	assert_int_equal(create(t, &q), -EINVAL);
	/* buffers must be GPU mappings of the exact extent */
	aql_args(t, &q);
	q.ring_base_address = RING_VA + 0x100000;
	assert_int_equal(create(t, &q), -EINVAL);
	aql_args(t, &q);
	q.ring_size = RING_SIZE / 2;
	assert_int_equal(create(t, &q), -EINVAL);
	aql_args(t, &q);
	q.eop_buffer_size = 8192;
	assert_int_equal(create(t, &q), -EINVAL);
	aql_args(t, &q);
	q.ctl_stack_size += 4096;
	assert_int_equal(create(t, &q), -EINVAL);
	aql_args(t, &q);
	q.ctx_save_restore_size -= 4096;
	assert_int_equal(create(t, &q), -EINVAL);
	aql_args(t, &q);
	q.write_pointer_address = PTR_VA + 4096;
	assert_int_equal(create(t, &q), -EINVAL);
	aql_args(t, &q);
	q.queue_type = KFD_ABI_QUEUE_TYPE_SDMA_BY_ENG_ID;
	q.sdma_engine_id = 5;	/* 2 SDMA + 3 xGMI engines */
	assert_int_equal(create(t, &q), -EINVAL);
	/* none of the failures leaked a queue id */
	aql_args(t, &q);
	assert_int_equal(create(t, &q), 0);
	assert_int_equal(q.queue_id, 0);
}

static void
test_no_vm(void **state)
{
	struct kt t;
	struct kfd_abi_create_queue_args q;

	(void)state;
	assert_int_equal(kt_open(&t, "mi210", 0), 0);
	aql_args(&t, &q);
	assert_int_equal(create(&t, &q), -ESRCH);
	kt_close(&t);
}

static void
test_sdma_doorbells(void **state)
{
	struct kt *t = *state;
	struct kfd_abi_create_queue_args q;
	uint64_t base = KFD_ABI_MMAP_OFFSET(KFD_ABI_MMAP_TYPE_DOORBELL, t->gpu_id[0], 0);
	static const uint64_t want[] = {
		0x100 * 8,			/* engine 0, queue 0 */
		0x10a * 8,			/* engine 1, queue 0 */
		(0x100 + 512) * 8,		/* engine 0, queue 1 */
	};

	for (int i = 0; i < 3; i++) {
		aql_args(t, &q);
		q.queue_type = KFD_ABI_QUEUE_TYPE_SDMA;
		assert_int_equal(create(t, &q), 0);
		assert_int_equal(q.queue_id, (uint32_t)i);
		assert_int_equal(q.doorbell_offset, base | want[i]);
	}
	aql_args(t, &q);
	q.queue_type = KFD_ABI_QUEUE_TYPE_SDMA_XGMI;
	assert_int_equal(create(t, &q), 0);
	assert_int_equal(q.doorbell_offset, base | (0x100 + 2 * 0xa) * 8);
	aql_args(t, &q);
	q.queue_type = KFD_ABI_QUEUE_TYPE_SDMA_BY_ENG_ID;
	q.sdma_engine_id = 1;
	assert_int_equal(create(t, &q), 0);
	assert_int_equal(q.doorbell_offset, base | (0x10a + 512) * 8);
	/* a compute queue still starts at doorbell 0 */
	aql_args(t, &q);
	assert_int_equal(create(t, &q), 0);
	assert_int_equal(q.doorbell_offset, base);
}

static void
test_busy_rules(void **state)
{
	struct kt *t = *state;
	struct kfd_abi_create_queue_args q;
	struct kfd_abi_set_xnack_mode_args x = { .xnack_enabled = 1 };
	struct kfd_abi_runtime_enable_args re = { .mode_mask = 1 };
	unsigned int g0 = 0;
	uint32_t ns;
	uint64_t ring = 0;

	aql_args(t, &q);
	assert_int_equal(create(t, &q), 0);
	/* the ring BO is pinned by the queue (handle idr 0) */
	ring = (uint64_t)t->gpu_id[0] << 32;
	assert_int_equal(kt_unmap(t, ring, &g0, 1, &ns), -EBUSY);
	assert_int_equal(ksim_ioctl(t->kfd, KFD_ABI_IOC_SET_XNACK_MODE, &x), -EBUSY);
	assert_int_equal(ksim_ioctl(t->kfd, KFD_ABI_IOC_RUNTIME_ENABLE, &re), -EEXIST);
	assert_int_equal(destroy(t, q.queue_id), 0);
	assert_int_equal(kt_unmap(t, ring, &g0, 1, &ns), 0);
	assert_int_equal(ksim_ioctl(t->kfd, KFD_ABI_IOC_SET_XNACK_MODE, &x), 0);
	assert_int_equal(ksim_ioctl(t->kfd, KFD_ABI_IOC_RUNTIME_ENABLE, &re), 0);
	/* without the ring mapping no queue */
	aql_args(t, &q);
	assert_int_equal(create(t, &q), -EINVAL);
}

static void
test_update_and_wave_state(void **state)
{
	struct kt *t = *state;
	struct kfd_abi_create_queue_args q;
	struct kfd_abi_update_queue_args u;
	struct kfd_abi_get_queue_wave_state_args w;
	char *ctl = malloc(64 << 10);

	aql_args(t, &q);
	assert_int_equal(create(t, &q), 0);
	memset(&u, 0, sizeof(u));
	u.queue_id = 77;
	u.ring_base_address = RING_VA;
	u.ring_size = RING_SIZE;
	u.queue_percentage = 100;
	assert_int_equal(ksim_ioctl(t->kfd, KFD_ABI_IOC_UPDATE_QUEUE, &u), -EFAULT);
	u.queue_id = q.queue_id;
	u.queue_priority = 20;
	assert_int_equal(ksim_ioctl(t->kfd, KFD_ABI_IOC_UPDATE_QUEUE, &u), -EINVAL);
	u.queue_priority = 3;
	u.ring_base_address = RING_VA + 0x200000;
	assert_int_equal(ksim_ioctl(t->kfd, KFD_ABI_IOC_UPDATE_QUEUE, &u), -EFAULT);
	u.ring_base_address = RING_VA;
	assert_int_equal(ksim_ioctl(t->kfd, KFD_ABI_IOC_UPDATE_QUEUE, &u), 0);
	/* an active queue has no wave state to give */
	memset(&w, 0, sizeof(w));
	w.queue_id = q.queue_id;
	w.ctl_stack_address = (uintptr_t)ctl;
	assert_int_equal(ksim_ioctl(t->kfd, KFD_ABI_IOC_GET_QUEUE_WAVE_STATE, &w), -EINVAL);
	/* percentage 0 deactivates it */
	u.queue_percentage = 0;
	assert_int_equal(ksim_ioctl(t->kfd, KFD_ABI_IOC_UPDATE_QUEUE, &u), 0);
	memset(ctl, 0x5a, 64 << 10);
	assert_int_equal(ksim_ioctl(t->kfd, KFD_ABI_IOC_GET_QUEUE_WAVE_STATE, &w), 0);
	assert_int_equal(w.ctl_stack_used_size, 0);
	assert_int_equal(w.save_area_used_size, 0);
	assert_int_equal(ctl[0], 0);
	w.ctl_stack_address = 8;
	assert_int_equal(ksim_ioctl(t->kfd, KFD_ABI_IOC_GET_QUEUE_WAVE_STATE, &w), -EFAULT);
	w.queue_id = 1000;
	assert_int_equal(ksim_ioctl(t->kfd, KFD_ABI_IOC_GET_QUEUE_WAVE_STATE, &w), -EFAULT);
	free(ctl);
}

static void
test_cu_mask(void **state)
{
	struct kt *t = *state;
	struct kfd_abi_create_queue_args q;
	uint32_t mask[40];
	struct kfd_abi_set_cu_mask_args c;

	aql_args(t, &q);
	assert_int_equal(create(t, &q), 0);
	memset(mask, 0xff, sizeof(mask));
	c.queue_id = q.queue_id;
	c.cu_mask_ptr = (uintptr_t)mask;
	c.num_cu_mask = 0;
	assert_int_equal(ksim_ioctl(t->kfd, KFD_ABI_IOC_SET_CU_MASK, &c), -EINVAL);
	c.num_cu_mask = 33;
	assert_int_equal(ksim_ioctl(t->kfd, KFD_ABI_IOC_SET_CU_MASK, &c), -EINVAL);
	c.num_cu_mask = 128;
	c.cu_mask_ptr = 64;
	assert_int_equal(ksim_ioctl(t->kfd, KFD_ABI_IOC_SET_CU_MASK, &c), -EFAULT);
	c.cu_mask_ptr = (uintptr_t)mask;
	c.queue_id = 900;
	assert_int_equal(ksim_ioctl(t->kfd, KFD_ABI_IOC_SET_CU_MASK, &c), -EFAULT);
	c.queue_id = q.queue_id;
	assert_int_equal(ksim_ioctl(t->kfd, KFD_ABI_IOC_SET_CU_MASK, &c), 0);
	/* more than 1024 bits: the rest is dropped, not read */
	c.num_cu_mask = 1 << 20;
	assert_int_equal(ksim_ioctl(t->kfd, KFD_ABI_IOC_SET_CU_MASK, &c), 0);
	/* gfx9 has no WGP pairing rule */
	mask[0] = 0x1;
	c.num_cu_mask = 32;
	assert_int_equal(ksim_ioctl(t->kfd, KFD_ABI_IOC_SET_CU_MASK, &c), 0);
}

static void
test_gws(void **state)
{
	struct kt *t = *state;
	struct kfd_abi_create_queue_args q;
	struct kfd_abi_alloc_queue_gws_args g;
	uint32_t q0, q1;

	aql_args(t, &q);
	assert_int_equal(create(t, &q), 0);
	q0 = q.queue_id;
	aql_args(t, &q);
	assert_int_equal(create(t, &q), 0);
	q1 = q.queue_id;
	memset(&g, 0, sizeof(g));
	g.queue_id = 500;
	g.num_gws = 1;
	assert_int_equal(ksim_ioctl(t->kfd, KFD_ABI_IOC_ALLOC_QUEUE_GWS, &g), -EINVAL);
	g.queue_id = q0;
	g.first_gws = 9;
	assert_int_equal(ksim_ioctl(t->kfd, KFD_ABI_IOC_ALLOC_QUEUE_GWS, &g), 0);
	assert_int_equal(g.first_gws, 0);
	g.queue_id = q1;
	assert_int_equal(ksim_ioctl(t->kfd, KFD_ABI_IOC_ALLOC_QUEUE_GWS, &g), -EBUSY);
	g.queue_id = q0;
	g.num_gws = 0;
	assert_int_equal(ksim_ioctl(t->kfd, KFD_ABI_IOC_ALLOC_QUEUE_GWS, &g), 0);
	assert_int_equal(ksim_ioctl(t->kfd, KFD_ABI_IOC_ALLOC_QUEUE_GWS, &g), -EINVAL);
}

static void
test_queue_limit(void **state)
{
	struct kt *t = *state;
	struct kfd_abi_create_queue_args q;
	uint32_t max = t->prof->nodes[1].gpu->max_queues;

	for (uint32_t i = 0; i < max; i++) {
		aql_args(t, &q);
		assert_int_equal(create(t, &q), 0);
		assert_int_equal(q.queue_id, i);
	}
	aql_args(t, &q);
	assert_int_equal(create(t, &q), -ENOSPC);
	assert_int_equal(destroy(t, 3), 0);
	aql_args(t, &q);
	assert_int_equal(create(t, &q), 0);
	assert_int_equal(q.queue_id, 3);
}

static void
test_sdma_exhaustion(void **state)
{
	struct kt *t = *state;
	struct kfd_abi_create_queue_args q;

	for (int i = 0; i < 16; i++) {
		aql_args(t, &q);
		q.queue_type = KFD_ABI_QUEUE_TYPE_SDMA;
		assert_int_equal(create(t, &q), 0);
	}
	aql_args(t, &q);
	q.queue_type = KFD_ABI_QUEUE_TYPE_SDMA;
	assert_int_equal(create(t, &q), -ENOMEM);
	/* the failed attempt freed its id */
	aql_args(t, &q);
	assert_int_equal(create(t, &q), 0);
	assert_int_equal(q.queue_id, 16);
}

/* A process of the machine @machine creating one SDMA queue: 0 on
 * success, 1 on ENOMEM, 2+ on a setup error. Keeps the queue (exits). */
static int
sdma_in_child(const char *machine)
{
	struct ksim_opts o = { .machine = machine };
	struct kfd_abi_create_queue_args q;
	struct qbufs b;
	struct kt t;
	int r;

	if (kt_open_opts(&t, "mi210", &o) || kt_acquire(&t, 0))
		return 2;
	make_buffers(&t, &b);
	aql_args(&t, &q);
	q.queue_type = KFD_ABI_QUEUE_TYPE_SDMA;
	r = create(&t, &q);
	return r == 0 ? 0 : r == -ENOMEM ? 1 : 3;
}

static int
run_child(const char *machine)
{
	int status;
	pid_t pid = fork();

	if (pid == 0)
		_exit(sdma_in_child(machine));
	if (pid < 0 || waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
		return -1;
	return WEXITSTATUS(status);
}

/* SDMA queue slots belong to the device: all processes of a machine share
 * them, and a process that dies gives its slots back. */
static void
test_sdma_slots_machine_wide(void **state)
{
	struct ksim_opts o = { 0 };
	struct kfd_abi_create_queue_args q;
	struct qbufs b;
	const char *machine = ksim_machine_id(*state);
	struct kt t;
	uint32_t ids[16];

	o.machine = machine;
	assert_int_equal(kt_open_opts(&t, "mi210", &o), 0);
	assert_int_equal(kt_acquire(&t, 0), 0);
	make_buffers(&t, &b);
	/* another process takes a slot first ... */
	assert_int_equal(run_child(machine), 0);
	/* ... and died: its slot is free again, all 2 x 8 are ours */
	for (int i = 0; i < 16; i++) {
		aql_args(&t, &q);
		q.queue_type = KFD_ABI_QUEUE_TYPE_SDMA;
		assert_int_equal(create(&t, &q), 0);
		ids[i] = q.queue_id;
	}
	/* none left for another process of the machine */
	assert_int_equal(run_child(machine), 1);
	assert_int_equal(destroy(&t, ids[5]), 0);
	assert_int_equal(run_child(machine), 0);
	kt_close(&t);
}

/* ABI 1.11: no buffer validation yet and no ring-size clamp. */
static void
test_old_abi(void **state)
{
	struct kt t;
	struct kfd_abi_create_queue_args q;

	(void)state;
	assert_int_equal(kt_open(&t, "mi210", 11), 0);
	assert_int_equal(kt_acquire_all(&t), 0);
	aql_args(&t, &q);
	q.ring_size = 0;
	assert_int_equal(ksim_ioctl(t.kfd, KFD_ABI_IOC_CREATE_QUEUE_1_16, &q), 0);
	assert_int_equal(q.ring_size, 0);
	assert_int_equal(q.queue_id, 0);
	/* SDMA_BY_ENG_ID did not exist */
	aql_args(&t, &q);
	q.queue_type = KFD_ABI_QUEUE_TYPE_SDMA_BY_ENG_ID;
	assert_int_equal(create(&t, &q), -524);
	kt_close(&t);
}

static void
test_two_gpus_share_ids(void **state)
{
	struct kt t;
	struct kfd_abi_create_queue_args q;

	(void)state;
	assert_int_equal(kt_open(&t, "mi210x2", 15), 0);
	assert_int_equal(kt_acquire_all(&t), 0);
	aql_args(&t, &q);
	assert_int_equal(create(&t, &q), 0);
	assert_int_equal(q.queue_id, 0);
	aql_args(&t, &q);
	q.gpu_id = t.gpu_id[1];
	assert_int_equal(create(&t, &q), 0);
	assert_int_equal(q.queue_id, 1);	/* one id space per process */
	assert_int_equal(q.doorbell_offset,
			 KFD_ABI_MMAP_OFFSET(KFD_ABI_MMAP_TYPE_DOORBELL, t.gpu_id[1], 0));
	kt_close(&t);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_ids_and_doorbells, setup_bufs, kt_teardown),
		cmocka_unit_test_setup_teardown(test_create_errors, setup_bufs, kt_teardown),
		cmocka_unit_test_setup_teardown(test_metadata_ring, setup_bufs, kt_teardown),
		cmocka_unit_test(test_no_vm),
		cmocka_unit_test_setup_teardown(test_sdma_doorbells, setup_bufs, kt_teardown),
		cmocka_unit_test_setup_teardown(test_busy_rules, setup_bufs, kt_teardown),
		cmocka_unit_test_setup_teardown(test_update_and_wave_state, setup_bufs, kt_teardown),
		cmocka_unit_test_setup_teardown(test_cu_mask, setup_bufs, kt_teardown),
		cmocka_unit_test_setup_teardown(test_gws, setup_bufs, kt_teardown),
		cmocka_unit_test_setup_teardown(test_queue_limit, setup_bufs, kt_teardown),
		cmocka_unit_test_setup_teardown(test_sdma_exhaustion, setup_bufs, kt_teardown),
		cmocka_unit_test_setup_teardown(test_sdma_slots_machine_wide, kt_machine_setup,
						kt_machine_teardown),
		cmocka_unit_test(test_old_abi),
		cmocka_unit_test(test_two_gpus_share_ids),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

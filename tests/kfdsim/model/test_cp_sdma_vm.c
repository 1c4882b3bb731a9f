/* SPDX-License-Identifier: MIT */
/*
 * model-cp-sdma's virtual memory cases. Shared virtual memory is reached
 * as the kernel maps it: with XNACK off only inside ranges that grant the
 * GPU access, with XNACK on wherever the CPU has pages. A copy into or
 * out of a userptr whose CPU pages are gone is a VM fault, as is a copy
 * from an address nothing maps or a write to a read-only BO; the render
 * node's GPUVM_FAULT query keeps the last one. A WRITE to the doorbell
 * page mapped into the VM rings the queue behind the slot.
 */
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "test_cp_sdma.h"

/* SVM_NATTR with one attribute over [start, start+size). */
static int
svm_set(struct kt *t, uint64_t start, uint64_t size, uint32_t type,
	uint32_t value)
{
	union {
		struct kfd_abi_svm_args a;
		unsigned char room[sizeof(struct kfd_abi_svm_args) +
				   sizeof(struct kfd_abi_svm_attribute)];
	} r;

	memset(&r, 0, sizeof(r));
	r.a.start_addr = start;
	r.a.size = size;
	r.a.op = KFD_ABI_SVM_OP_SET_ATTR;
	r.a.nattr = 1;
	r.a.attrs[0].type = type;
	r.a.attrs[0].value = value;
	return ksim_ioctl(t->kfd, KFD_ABI_IOC_SVM_NATTR(1), &r);
}

static uint8_t *
host_pages(size_t size)
{
	uint8_t *p = mmap(NULL, size, PROT_READ | PROT_WRITE,
			  MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	assert_true(p != MAP_FAILED);
	return p;
}

/*
 * XNACK off (mi210's default): malloc'd memory is out of the GPU's reach
 * until an SVM range grants it ACCESS or ACCESS_IN_PLACE, as HIP 6.x
 * registers it for hipMemcpy; a range without access still faults.
 */
void
test_svm_copy(void **state)
{
	static const unsigned int g0 = 0;
	struct kt *t = *state;
	const uint64_t size = 1u << 20, vram_va = 0x300000000ULL;
	uint8_t *src = host_pages(size), *dst = host_pages(size);
	uint8_t *other = host_pages(size), *unreg = host_pages(size);
	uint32_t *word = (uint32_t *)kt_userptr_mapped(t, 0, 0x100000000ULL, 4096);
	uint32_t mem = kt_event_new(t, KFD_ABI_EVENT_MEMORY);
	struct kfd_abi_event_data ed;
	struct sq before, q, denied;

	for (uint64_t i = 0; i < size; i++)
		src[i] = unreg[i] = (uint8_t)(i * 31 + 7);
	kt_vram_mapped(t, 0, vram_va, size, &g0, 1);
	assert_int_equal(svm_set(t, (uintptr_t)src, size, KFD_ABI_SVM_ATTR_ACCESS,
				 t->gpu_id[0]), 0);
	assert_int_equal(svm_set(t, (uintptr_t)dst, size,
				 KFD_ABI_SVM_ATTR_ACCESS_IN_PLACE, t->gpu_id[0]), 0);
	assert_int_equal(svm_set(t, (uintptr_t)other, size,
				 KFD_ABI_SVM_ATTR_SET_FLAGS,
				 KFD_ABI_SVM_FLAG_COHERENT), 0);
	sq_new(t, &q, 0, 0x11000000ULL, KFD_ABI_QUEUE_TYPE_SDMA);
	sq_copy(&q, vram_va, (uintptr_t)src, (uint32_t)size);
	sq_copy(&q, (uintptr_t)dst, vram_va, (uint32_t)size);
	sq_fence(&q, 0x100000000ULL + 4, 2);
	sq_kick(&q);
	assert_true(sq_reaches(&q, q.wr));
	assert_memory_equal(dst, src, size);
	assert_int_equal(word[1], 2);

	/* Each fault evicts the process's queues: one process per fault. */
	sq_new(t, &denied, 0, 0x12000000ULL, KFD_ABI_QUEUE_TYPE_SDMA);
	sq_copy(&denied, (uintptr_t)other, (uintptr_t)src, 4096);
	sq_fence(&denied, 0x100000000ULL + 8, 3);
	sq_kick(&denied);
	assert_int_equal(kt_wait_event(t, mem, 5000, &ed), KFD_ABI_WAIT_RESULT_COMPLETE);
	assert_int_equal(ed.memory_exception_data.va, (uintptr_t)other);
	assert_int_equal(ed.memory_exception_data.failure.NotPresent, 1);
	assert_int_equal(sq_rptr(&denied), 0);	/* the range grants no access */
	assert_int_equal(word[2], 0);
	assert_int_equal(other[0], 0);
	{
		struct kt *u = kt_new("mi210");
		uint32_t umem = kt_event_new(u, KFD_ABI_EVENT_MEMORY);

		word = (uint32_t *)kt_userptr_mapped(u, 0, 0x100000000ULL, 4096);
		kt_vram_mapped(u, 0, vram_va, size, &g0, 1);
		sq_new(u, &before, 0, 0x10000000ULL, KFD_ABI_QUEUE_TYPE_SDMA);
		sq_copy(&before, vram_va, (uintptr_t)unreg + 8192, (uint32_t)size);
		sq_fence(&before, 0x100000000ULL, 1);
		sq_kick(&before);
		assert_int_equal(kt_wait_event(u, umem, 5000, &ed), KFD_ABI_WAIT_RESULT_COMPLETE);
		assert_int_equal(ed.memory_exception_data.va, (uintptr_t)unreg + 8192);
		assert_int_equal(sq_rptr(&before), 0);	/* in no SVM range */
		assert_int_equal(word[0], 0);
		kt_delete(u);
	}
	munmap(src, size);
	munmap(dst, size);
	munmap(other, size);
	munmap(unreg, size);
}

/* XNACK on: the kernel maps on fault, so any page the CPU has is reached. */
void
test_svm_xnack(void **state)
{
	struct kt *t = kt_new("mi210");
	struct kfd_abi_set_xnack_mode_args x = { .xnack_enabled = 1 };
	const uint64_t size = 64u << 10;
	uint8_t *src = host_pages(size), *dst = host_pages(size);
	struct sq q;

	(void)state;
	assert_int_equal(ksim_ioctl(t->kfd, KFD_ABI_IOC_SET_XNACK_MODE, &x), 0);
	for (uint64_t i = 0; i < size; i++)
		src[i] = (uint8_t)(i ^ 0x5a);
	sq_new(t, &q, 0, 0x10000000ULL, KFD_ABI_QUEUE_TYPE_SDMA);
	sq_copy(&q, (uintptr_t)dst, (uintptr_t)src, (uint32_t)size);
	sq_kick(&q);
	assert_true(sq_reaches(&q, q.wr));
	assert_memory_equal(dst, src, size);
	munmap(src, size);
	munmap(dst, size);
	kt_delete(t);
}

/*
 * Copies that the kernel makes in one go (cp_mem_copy.c) into or out of a
 * userptr whose CPU pages the program unmapped: the engine gets EFAULT,
 * not SIGSEGV, and the copy is a VM fault at the userptr's page, whether
 * it is the source (userptr to userptr) or the destination (VRAM to it).
 */
void
test_copy_gone_userptr(void **state)
{
	static const unsigned int g0 = 0;
	const uint64_t size = 1u << 20, a_va = 0x100000000ULL, b_va = 0x200000000ULL,
		       vram_va = 0x300000000ULL;

	(void)state;
	for (unsigned int k = 0; k < 2; k++) {
		struct kt *t = kt_new("mi210");
		uint32_t mem = kt_event_new(t, KFD_ABI_EVENT_MEMORY);
		uint8_t *a = kt_userptr_mapped(t, 0, a_va, size);
		uint8_t *b = kt_userptr_mapped(t, 0, b_va, size);
		struct kfd_abi_event_data ed;
		struct sq q;

		memset(a, 0x5a, size);
		kt_vram_mapped(t, 0, vram_va, size, &g0, 1);
		sq_new(t, &q, 0, 0x10000000ULL, KFD_ABI_QUEUE_TYPE_SDMA);
		/* the VRAM gets bytes, so it has a backing file to read */
		sq_copy(&q, vram_va, a_va, (uint32_t)size);
		sq_kick(&q);
		assert_true(sq_reaches(&q, q.wr));
		assert_int_equal(munmap(k ? b : a, size), 0);
		if (k)
			sq_copy(&q, b_va, vram_va, (uint32_t)size);
		else
			sq_copy(&q, b_va, a_va, (uint32_t)size);
		sq_kick(&q);
		assert_int_equal(kt_wait_event(t, mem, 5000, &ed), KFD_ABI_WAIT_RESULT_COMPLETE);
		assert_int_equal(ed.memory_exception_data.va, k ? b_va : a_va);
		assert_int_equal(ed.memory_exception_data.failure.NotPresent, 1);
		if (!k)
			assert_int_equal(b[0], 0);
		kt_delete(t);
	}
}

/* The render node's GPUVM_FAULT query on the VM of GPU 0's render file. */
static struct kfd_drm_amdgpu_info_gpuvm_fault
gpuvm_fault(struct kt *t)
{
	struct kfd_drm_amdgpu_info_gpuvm_fault vf;
	struct kfd_drm_amdgpu_info req;

	memset(&vf, 0xa5, sizeof(vf));
	memset(&req, 0, sizeof(req));
	req.return_pointer = (uintptr_t)&vf;
	req.return_size = sizeof(vf);
	req.query = KFD_DRM_AMDGPU_INFO_GPUVM_FAULT;
	assert_int_equal(ksim_ioctl(t->rnd[0], KFD_DRM_IOCTL_AMDGPU_INFO, &req), 0);
	return vf;
}

/*
 * VM faults, as kfdtest's KFDExceptionTest provokes them: a copy from an
 * address nothing maps, and a write to a BO allocated without WRITABLE.
 * The MEMORY event gets the faulting page, the GPU and the reason; every
 * queue of the process on the GPU is evicted, new ones included. The VM
 * keeps the fault for the render node's GPUVM_FAULT query: the page, the
 * gfxhub's status (PERMISSION_FAULTS: valid 0x10, write 0x40; RW 1 << 18).
 */
void
test_vm_fault(void **state)
{
	static const unsigned int g0 = 0;
	static const uint32_t wr[5] = { 2, 0x10, 0x2, 0, 0x02020202 };
	struct kfd_abi_event_data ed;
	struct kfd_drm_amdgpu_info_gpuvm_fault vf;
	struct sq q, other;
	uint32_t *word, mem, ns;
	uint64_t h;
	struct kt *t;

	(void)state;
	t = kt_new("mi210");
	mem = kt_event_new(t, KFD_ABI_EVENT_MEMORY);
	vf = gpuvm_fault(t);
	assert_int_equal(vf.addr, 0);
	assert_int_equal(vf.status, 0);
	assert_int_equal(vf.vmhub, 0);
	word = (uint32_t *)kt_userptr_mapped(t, 0, 0x100000000ULL, 4096);
	sq_new(t, &q, 0, 0x10000000ULL, KFD_ABI_QUEUE_TYPE_SDMA);
	sq_new(t, &other, 0, 0x11000000ULL, KFD_ABI_QUEUE_TYPE_SDMA);
	sq_copy(&q, 0x100000000ULL, WILD_VA + 0x2345, 64);
	sq_fence(&q, 0x100000000ULL, 1);
	sq_kick(&q);
	assert_int_equal(kt_wait_event(t, mem, 5000, &ed), KFD_ABI_WAIT_RESULT_COMPLETE);
	assert_int_equal(ed.memory_exception_data.va, WILD_VA + 0x2000);
	assert_int_equal(ed.memory_exception_data.gpu_id, t->gpu_id[0]);
	assert_int_equal(ed.memory_exception_data.failure.NotPresent, 1);
	assert_int_equal(ed.memory_exception_data.failure.ReadOnly, 0);
	assert_int_equal(ed.memory_exception_data.failure.imprecise, 0);
	vf = gpuvm_fault(t);
	assert_int_equal(vf.addr, WILD_VA + 0x2000);
	assert_int_equal(vf.status, 0x10);
	assert_int_equal(vf.vmhub, KFD_DRM_AMDGPU_VMHUB_TYPE_GFX);
	assert_int_equal(sq_rptr(&q), 0);
	sq_fence(&other, 0x100000000ULL + 4, 2);
	sq_kick(&other);
	usleep(20000);
	assert_int_equal(sq_rptr(&other), 0);
	assert_int_equal(word[0], 0);
	assert_int_equal(word[1], 0);
	kt_delete(t);

	t = kt_new("mi210");
	mem = kt_event_new(t, KFD_ABI_EVENT_MEMORY);
	assert_int_equal(kt_alloc(t, 0, 0x200000000ULL, 4096,
				  KFD_ABI_ALLOC_MEM_FLAGS_GTT, &h, NULL), 0);
	assert_int_equal(kt_map(t, h, &g0, 1, &ns), 0);
	sq_new(t, &q, 0, 0x10000000ULL, KFD_ABI_QUEUE_TYPE_SDMA);
	sq_emit(&q, wr, 5);	/* WRITE_LINEAR, one dword at 0x200000010 */
	sq_kick(&q);
	assert_int_equal(kt_wait_event(t, mem, 5000, &ed), KFD_ABI_WAIT_RESULT_COMPLETE);
	assert_int_equal(ed.memory_exception_data.va, 0x200000000ULL);
	assert_int_equal(ed.memory_exception_data.failure.NotPresent, 0);
	assert_int_equal(ed.memory_exception_data.failure.ReadOnly, 1);
	vf = gpuvm_fault(t);
	assert_int_equal(vf.addr, 0x200000000ULL);
	assert_int_equal(vf.status, 0x40 | 1u << 18);
	assert_int_equal(sq_rptr(&q), 0);
	kt_delete(t);
}

/*
 * A doorbell the GPU writes: the doorbell page mapped into the VM (a
 * DOORBELL BO, as the thunk maps it), one queue's WRITE of another
 * queue's doorbell slot there rings that queue as a CPU store would, as
 * kfdtest's GPUDoorbellWrite does with SDMA.
 */
static void
gpu_rings(const char *profile)
{
	static const unsigned int g0 = 0;
	const uint64_t db_va = 0x30000000ULL, word_va = 0x400000000ULL;
	struct kt *t = kt_new(profile);
	uint64_t h, slot;
	uint32_t *word, ns;
	struct sq a, b;

	word = (uint32_t *)kt_userptr_mapped(t, 0, word_va, 4096);
	sq_new(t, &a, 0, 0x10000000ULL, KFD_ABI_QUEUE_TYPE_SDMA);
	sq_new(t, &b, 0, 0x12000000ULL, KFD_ABI_QUEUE_TYPE_SDMA);
	assert_int_equal(kt_alloc(t, 0, db_va, 8192,
				  KFD_ABI_ALLOC_MEM_FLAGS_DOORBELL |
				  KFD_ABI_ALLOC_MEM_FLAGS_WRITABLE, &h, NULL), 0);
	assert_int_equal(kt_map(t, h, &g0, 1, &ns), 0);
	/* B's packet is placed and its write pointer published, unrung. */
	sq_fence(&b, word_va, 0x5a5a);
	__atomic_store_n(&b.ptrs[1], b.wr, __ATOMIC_RELEASE);
	usleep(20000);
	assert_int_equal(word[0], 0);
	/* A writes B's 64-bit doorbell: its slot in the mapped page. */
	slot = db_va + (uint64_t)((b.doorbell - b.doorbell_page) * 8);
	{
		uint32_t w[6] = { 2, (uint32_t)slot, (uint32_t)(slot >> 32), 1,
				  (uint32_t)b.wr, (uint32_t)(b.wr >> 32) };

		sq_emit(&a, w, 6);
	}
	sq_kick(&a);
	assert_true(sq_reaches(&a, a.wr));
	assert_true(sq_reaches(&b, b.wr));
	assert_int_equal(word[0], 0x5a5a);
	assert_int_equal(*b.doorbell, b.wr);	/* the CPU sees the store */
	kt_delete(t);
}

void
test_gpu_doorbell_write(void **state)
{
	(void)state;
	gpu_rings("mi210");
	gpu_rings("rx6900xt");
}

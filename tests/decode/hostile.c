/* SPDX-License-Identifier: MIT */
/*
 * Records that no honest recorder writes: short images, lengths that do
 * not divide into elements, buffer indexes past the schema, counts far
 * beyond the bytes present, and random bytes. Every image ends at a guard
 * page, so a read past a stated length crashes the test.
 */
#include "decode_test.h"
#include "json_check.h"
#include "kfdtrace/kfd_abi.h"

#define GPU 0x1234u
#define HANDLE3 (((uint64_t)GPU << 32) | 3)

/* Fields past the bytes recorded print as '?'. */
static void
test_short_image(void **state)
{
	struct kfd_abi_alloc_memory_of_gpu_args in = {
		.va_addr = 0x7f0000200000, .size = 2097152, .gpu_id = GPU,
	};
	struct kt_record r = mk_ioctl(KFD_ABI_IOC_ALLOC_MEMORY_OF_GPU, &in,
				      &in, 20, 0, 0);
	const char *s;

	assert_text(&r, "ALLOC_MEMORY_OF_GPU(va_addr=0x7f0000200000, "
		    "size=2097152, mmap_offset=?, gpu_id=?, flags=?) = 0 "
		    "{handle=?}");
	s = decode_json(&r);
	assert_non_null(strstr(s, "\"in\":{\"va_addr\":139637978824704,"
			       "\"size\":2097152,\"mmap_offset\":null,"
			       "\"gpu_id\":null,\"flags\":null}"));
	assert_true(json_valid(s));

	/* No images at all. */
	r = mk_ioctl(KFD_ABI_IOC_ALLOC_MEMORY_OF_GPU, NULL, NULL, 40, -1, 14);
	assert_text(&r, "ALLOC_MEMORY_OF_GPU(va_addr=?, size=?, mmap_offset=?, "
		    "gpu_id=?, flags=?) = -1 EFAULT (Bad address)");
}

static struct kt_record
map_rec(struct kt_buf_image *b, uint32_t n_devices)
{
	struct kfd_abi_map_memory_to_gpu_args in = {
		.handle = HANDLE3,
		.device_ids_array_ptr = 0x7ffc00001000,
		.n_devices = n_devices,
	};
	struct kt_record r = mk_ioctl(KFD_ABI_IOC_MAP_MEMORY_TO_GPU, &in, NULL,
				      sizeof(in), 0, 0);

	r.u.ioctl.nbufs = 1;
	r.u.ioctl.bufs = b;
	return r;
}

static void
test_buffer_lengths(void **state)
{
	uint8_t ids[7] = { 0x34, 0x12, 0, 0, 0x78, 0x56, 0 };
	uint32_t many[20];
	struct kfd_decode_opts o = { .start_ns = T0, .max_elems = 2 };
	struct kt_buf_image b;
	struct kt_record r;
	int i;

	/* A length that ends inside an element. */
	b = mk_buf(0, 0x7ffc00001000, ids, sizeof(ids), NULL, 0);
	r = map_rec(&b, 2);
	assert_text(&r, "MAP_MEMORY_TO_GPU(handle=0x1234_00000003, "
		    "device_ids_array_ptr=[0x1234, <785600>], n_devices=2, "
		    "n_success=0) = 0");

	/* Arrays are elided past the limit, with the count left. */
	for (i = 0; i < 20; i++)
		many[i] = (uint32_t)i + 1;
	b = mk_buf(0, 0x7ffc00001000, many, sizeof(many), NULL, 0);
	r = map_rec(&b, 20);
	assert_text(&r, "MAP_MEMORY_TO_GPU(handle=0x1234_00000003, "
		    "device_ids_array_ptr=[0x1, 0x2, 0x3, 0x4, 0x5, 0x6, 0x7, "
		    "0x8, 0x9, 0xa, 0xb, 0xc, 0xd, 0xe, 0xf, 0x10, ... +4], "
		    "n_devices=20, n_success=0) = 0");
	assert_string_equal(decode_text_opts(&r, &o),
			    PFX "MAP_MEMORY_TO_GPU(handle=0x1234_00000003, "
			    "device_ids_array_ptr=[0x1, 0x2, ... +18], "
			    "n_devices=20, n_success=0) = 0");

	/* The recorder hit its cap. */
	b = mk_buf(0, 0x7ffc00001000, many, 8, NULL, 0);
	b.flags |= KT_BUF_CLAMPED;
	r = map_rec(&b, 1000000);
	assert_text(&r, "MAP_MEMORY_TO_GPU(handle=0x1234_00000003, "
		    "device_ids_array_ptr=[0x1, 0x2, ...], n_devices=1000000, "
		    "n_success=0) = 0");

	/* Unreadable and omitted contents leave the pointer. */
	b = mk_buf(0, 0x7ffc00001000, NULL, 0, NULL, 0);
	b.flags = KT_BUF_UNREADABLE;
	r = map_rec(&b, 2);
	assert_text(&r, "MAP_MEMORY_TO_GPU(handle=0x1234_00000003, "
		    "device_ids_array_ptr=0x7ffc00001000 /* unreadable */, "
		    "n_devices=2, n_success=0) = 0");
	assert_true(json_valid(decode_json(&r)));
	b.flags = KT_BUF_OMITTED;
	r = map_rec(&b, 2);
	assert_text(&r, "MAP_MEMORY_TO_GPU(handle=0x1234_00000003, "
		    "device_ids_array_ptr=0x7ffc00001000, n_devices=2, "
		    "n_success=0) = 0");

	/* An image that says it is present but has no bytes. */
	b = mk_buf(0, 0x7ffc00001000, NULL, 0, NULL, 0);
	b.flags = KT_BUF_BEFORE;
	b.len_before = 64;
	r = map_rec(&b, 16);
	assert_text(&r, "MAP_MEMORY_TO_GPU(handle=0x1234_00000003, "
		    "device_ids_array_ptr=0x7ffc00001000, n_devices=16, "
		    "n_success=0) = 0");
}

/* A buffer index the schema row does not have is shown raw, not dropped. */
static void
test_buffer_index_out_of_range(void **state)
{
	uint8_t junk[3] = { 0xaa, 0xbb, 0xcc };
	struct kt_buf_image b = mk_buf(99, 0x1000, junk, sizeof(junk), NULL, 0);
	struct kt_record r = map_rec(&b, 2);

	assert_text(&r, "MAP_MEMORY_TO_GPU(handle=0x1234_00000003, "
		    "device_ids_array_ptr=0x7ffc00001000, n_devices=2, "
		    "n_success=0, buf99=<aabbcc>) = 0");
	assert_true(json_valid(decode_json(&r)));
}

/* SVM claiming more attributes than the argument bytes hold. */
static void
test_svm_count_beyond_image(void **state)
{
	uint64_t b[(sizeof(struct kfd_abi_svm_args) +
		    sizeof(struct kfd_abi_svm_attribute)) / 8];
	struct kfd_abi_svm_args *in = (struct kfd_abi_svm_args *)b;
	struct kt_record r;

	memset(b, 0, sizeof(b));
	in->start_addr = 0x1000;
	in->size = 0x1000;
	in->nattr = 1000;
	in->attrs[0].type = KFD_ABI_SVM_ATTR_GRANULARITY;
	in->attrs[0].value = 9;
	r = mk_ioctl(KFD_ABI_IOC_WITH_SIZE(KFD_ABI_IOC_SVM, sizeof(b)), b,
		     NULL, sizeof(b), -1, 22);
	assert_text(&r, "SVM(start_addr=0x1000, size=4096, op=SET_ATTR, "
		    "nattr=1000, attrs=[{type=GRANULARITY, value=0x9}, ...]) = "
		    "-1 EINVAL (Invalid argument)");
}

/* The request says more bytes than the image holds. */
static void
test_request_size_beyond_image(void **state)
{
	struct kfd_abi_free_memory_of_gpu_args a = { .handle = HANDLE3 };
	struct kt_record r = mk_ioctl(KFD_ABI_IOC_WITH_SIZE(
				KFD_ABI_IOC_FREE_MEMORY_OF_GPU, 4), &a, NULL, 4, 0, 0);

	/* A 4-byte request has no room for the 8-byte handle at all. */
	assert_text(&r, "FREE_MEMORY_OF_GPU() = 0");
	r = mk_ioctl(KFD_ABI_IOC_WITH_SIZE(KFD_ABI_IOC_FREE_MEMORY_OF_GPU,
					   0x3fff), &a, NULL, 4, 0, 0);
	assert_text(&r, "FREE_MEMORY_OF_GPU(handle=?) = 0");
}

static void
test_returns(void **state)
{
	struct kfd_abi_destroy_queue_args d = { .queue_id = 1 };
	struct kt_record r;

	r = mk_ioctl(KFD_ABI_IOC_DESTROY_QUEUE, &d, &d, sizeof(d), -1, 524);
	assert_text(&r, "DESTROY_QUEUE(queue_id=1) = "
		    "-1 ENOTSUPP (Operation is not supported)");
	r = mk_ioctl(KFD_ABI_IOC_DESTROY_QUEUE, &d, &d, sizeof(d), -1, 9999);
	assert_text(&r, "DESTROY_QUEUE(queue_id=1) = -1 errno 9999");
	r = mk_ioctl(KFD_ABI_IOC_DESTROY_QUEUE, &d, &d, sizeof(d), -1, 0);
	assert_text(&r, "DESTROY_QUEUE(queue_id=1) = -1");
}

static void
test_unknown_requests(void **state)
{
	uint8_t raw[24] = { 1 };
	uint8_t big[100];
	struct kt_record r;

	r = mk_ioctl(0xc0184b99, raw, raw, sizeof(raw), -1, ENOTTY);
	assert_text(&r, "ioctl(fd=3, 0xc0184b99 /* K nr=0x99 size=24 */, "
		    "{01000000, 20 zero bytes}) = -1 ENOTTY "
		    "(Inappropriate ioctl for device)");
	raw[8] = 0xff;
	r = mk_ioctl(0xc0184b99, raw, raw, sizeof(raw), 0, 0);
	r.u.ioctl.arg_after = tail_copy(raw + 1, 23);
	r.u.ioctl.arg_size = 23;
	r.u.ioctl.arg_before = tail_copy(raw, 23);
	assert_text(&r, "ioctl(fd=3, 0xc0184b99 /* K nr=0x99 size=24 */, "
		    "{0100000000000000ff000000, 11 zero bytes}) = 0 "
		    "{00000000000000ff, 15 zero bytes}");

	memset(big, 0x5a, sizeof(big));
	r = mk_ioctl(0x00640a01, big, NULL, sizeof(big), 0, 0);
	r.u.ioctl.file_kind = KFD_FILE_RENDER;
	assert_text(&r, "ioctl(fd=3, 0x640a01 /* type=0xa nr=0x1 size=100 */, "
		    "{5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a"
		    "5a5a5a5a... (100 bytes)}) = 0");
	r = mk_ioctl(0x00004b50, NULL, NULL, 0, 0, 0);
	assert_text(&r, "ioctl(fd=3, 0x4b50 /* K nr=0x50 size=0 */) = 0");
}

static uint64_t
xorshift(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

/*
 * Random records through both decoders: every request of the schema with
 * random sizes, images and buffer images, plus random request codes.
 * Nothing may crash and every JSON line must parse.
 */
static void
test_random_records(void **state)
{
	const struct kfd_ioctl_desc *rows;
	unsigned int nrows, iter;
	uint64_t seed = 0x9e3779b97f4a7c15ULL;

	rows = kfd_schema_rows(&nrows);
	assert_true(nrows > 0);
	for (iter = 0; iter < 3000; iter++) {
		uint8_t img[2][512], bufd[4][2][256];
		struct kt_buf_image bufs[4];
		struct kt_record r;
		const struct kfd_ioctl_desc *d;
		uint32_t size, req;
		unsigned int i, k, nb;

#define RND() xorshift(&seed)
		d = &rows[RND() % nrows];
		size = (uint32_t)(RND() % 400);
		req = RND() % 8 ? d->request : (uint32_t)RND();
		if (RND() % 2)
			req = KFD_ABI_IOC_WITH_SIZE(req, size);
		for (k = 0; k < 2; k++)
			for (i = 0; i < sizeof(img[k]); i++)
				img[k][i] = RND() % 3 ? (uint8_t)RND() : 0;
		r = mk_ioctl(req, RND() % 5 ? img[0] : NULL,
			     RND() % 5 ? img[1] : NULL, size,
			     RND() % 2 ? 0 : -1, (int32_t)(RND() % 600));
		r.u.ioctl.file_kind = d->file_kind;
		nb = (unsigned int)(RND() % 5);
		for (i = 0; i < nb; i++) {
			size_t lb = RND() % 256, la = RND() % 256;

			for (k = 0; k < 256; k++) {
				bufd[i][0][k] = (uint8_t)RND();
				bufd[i][1][k] = (uint8_t)RND();
			}
			bufs[i] = mk_buf((uint16_t)(RND() % (d->nbufs + 2)),
					 RND(), RND() % 4 ? bufd[i][0] : NULL, lb,
					 RND() % 4 ? bufd[i][1] : NULL, la);
			bufs[i].flags |= (uint16_t)(RND() % 32);
		}
		r.u.ioctl.nbufs = (uint16_t)nb;
		r.u.ioctl.bufs = nb ? bufs : NULL;
#undef RND
		assert_non_null(decode_text(&r));
		assert_true(json_valid(decode_json(&r)));
		tail_reset();
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_short_image),
		cmocka_unit_test(test_buffer_lengths),
		cmocka_unit_test(test_buffer_index_out_of_range),
		cmocka_unit_test(test_svm_count_beyond_image),
		cmocka_unit_test(test_request_size_beyond_image),
		cmocka_unit_test(test_returns),
		cmocka_unit_test(test_unknown_requests),
		cmocka_unit_test(test_random_records),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

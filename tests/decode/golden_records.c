/* SPDX-License-Identifier: MIT */
/*
 * Golden decoding of the non-ioctl records, the JSON form, and the helpers
 * (string buffer, errno and gfx names).
 */
#include <limits.h>
#include <sys/sysmacros.h>

#include "decode_test.h"
#include "json_check.h"
#include "kfdtrace/drm_abi.h"
#include "kfdtrace/kfd_abi.h"

static struct kt_record
mk(uint16_t type)
{
	struct kt_record r;

	memset(&r, 0, sizeof(r));
	r.type = type;
	r.seq = 7;
	r.tid = 4242;
	r.ts = TS;
	return r;
}

static void
test_open_close_dup(void **state)
{
	struct kt_record r = mk(KT_REC_OPEN);

	r.u.open.path = "/dev/kfd";
	r.u.open.flags = O_RDWR | O_CLOEXEC;
	r.u.open.file_kind = KFD_FILE_KFD;
	r.u.open.ret = 3;
	assert_text(&r, "open(\"/dev/kfd\", O_RDWR|O_CLOEXEC) = 3 /* kfd */");

	r.u.open.path = "/dev/dri/renderD128";
	r.u.open.flags = O_RDWR;
	r.u.open.file_kind = KFD_FILE_RENDER;
	r.u.open.rdev = makedev(226, 128);
	r.u.open.ret = 5;
	assert_text(&r, "open(\"/dev/dri/renderD128\", O_RDWR) = 5 "
		    "/* render 226:128 */");

	r.u.open.path = "/dev/dri/renderD129";
	r.u.open.ret = -1;
	r.u.open.err = ENOENT;
	assert_text(&r, "open(\"/dev/dri/renderD129\", O_RDWR) = -1 ENOENT "
		    "(No such file or directory)");

	r.u.open.path = "/tmp/x";
	r.u.open.flags = O_WRONLY | O_CREAT | O_TRUNC;
	r.u.open.mode = 0644;
	r.u.open.file_kind = KFD_FILE_UNKNOWN;
	r.u.open.rdev = 0;
	r.u.open.ret = 4;
	r.u.open.err = 0;
	assert_text(&r, "open(\"/tmp/x\", O_WRONLY|O_CREAT|O_TRUNC, 0644) = 4");

	r = mk(KT_REC_CLOSE);
	r.u.close.fd = 3;
	assert_text(&r, "close(3) = 0");
	r.u.close.ret = -1;
	r.u.close.err = EBADF;
	assert_text(&r, "close(3) = -1 EBADF (Bad file descriptor)");

	r = mk(KT_REC_DUP);
	r.u.dup.kind = KT_DUP;
	r.u.dup.oldfd = 3;
	r.u.dup.ret = 4;
	assert_text(&r, "dup(3) = 4");
	r.u.dup.kind = KT_DUP2;
	r.u.dup.newfd = 10;
	r.u.dup.ret = 10;
	assert_text(&r, "dup2(3, 10) = 10");
	r.u.dup.kind = KT_DUP3;
	r.u.dup.flags = O_CLOEXEC;
	assert_text(&r, "dup3(3, 10, O_CLOEXEC) = 10");
	r.u.dup.kind = KT_FCNTL_DUPFD_CLOEXEC;
	r.u.dup.newfd = 20;
	r.u.dup.ret = 20;
	assert_text(&r, "fcntl(3, F_DUPFD_CLOEXEC, 20) = 20");
}

static void
test_mmap_munmap(void **state)
{
	struct kt_record r = mk(KT_REC_MMAP);

	r.u.mmap.len = 8192;
	r.u.mmap.prot = PROT_READ | PROT_WRITE;
	r.u.mmap.flags = MAP_SHARED;
	r.u.mmap.fd = 3;
	r.u.mmap.file_kind = KFD_FILE_KFD;
	r.u.mmap.offset = KFD_ABI_MMAP_OFFSET(KFD_ABI_MMAP_TYPE_DOORBELL,
					      0x1234, 0);
	r.u.mmap.result = 0x7f1234560000;
	assert_text(&r, "mmap(NULL, 8192, PROT_READ|PROT_WRITE, MAP_SHARED, 3, "
		    "0xc48d000000000000) = 0x7f1234560000 /* kfd */");

	r.u.mmap.result = (uint64_t)-1;
	r.u.mmap.err = EINVAL;
	assert_text(&r, "mmap(NULL, 8192, PROT_READ|PROT_WRITE, MAP_SHARED, 3, "
		    "0xc48d000000000000) = -1 EINVAL (Invalid argument)");

	r.u.mmap.addr = 0x7f0000000000;
	r.u.mmap.len = 4096;
	r.u.mmap.prot = PROT_NONE;
	r.u.mmap.flags = MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE;
	r.u.mmap.fd = -1;
	r.u.mmap.file_kind = KFD_FILE_UNKNOWN;
	r.u.mmap.offset = 0;
	r.u.mmap.result = 0x7f0000000000;
	r.u.mmap.err = 0;
	assert_text(&r, "mmap(0x7f0000000000, 4096, PROT_NONE, "
		    "MAP_PRIVATE|MAP_ANONYMOUS|MAP_NORESERVE, -1, 0x0) = "
		    "0x7f0000000000");

	r = mk(KT_REC_MUNMAP);
	r.u.munmap.addr = 0x7f1234560000;
	r.u.munmap.len = 8192;
	assert_text(&r, "munmap(0x7f1234560000, 8192) = 0");
}

static void
test_process_records(void **state)
{
	static const char argv[] = "rocminfo\0--help";
	struct kt_record r = mk(KT_REC_FORK);

	r.u.fork.parent_pid = 4242;
	r.u.fork.child_pid = 4300;
	assert_text(&r, "fork() = 4300 /* parent 4242 */");
	r.u.fork.child_pid = 0;
	assert_text(&r, "fork() = 0 /* child of 4242 */");

	r = mk(KT_REC_EXEC);
	r.u.exec.path = "/usr/bin/rocminfo";
	r.u.exec.argv = argv;
	r.u.exec.argv_len = sizeof(argv);
	assert_text(&r, "execve(\"/usr/bin/rocminfo\", [\"rocminfo\", \"--help\"])");

	r = mk(KT_REC_THREAD_NAME);
	r.u.thread_name.name = "hsa\nworker";
	assert_text(&r, "thread_name(\"hsa\\nworker\")");
	/* Text stays ASCII: other bytes, UTF-8 too, as \xXX. */
	r.u.thread_name.name = "a\"b\\c\t\r\x01\x7f\xc3\xa9";
	assert_text(&r, "thread_name(\"a\\\"b\\\\c\\t\\r\\x01\\x7f"
		    "\\xc3\\xa9\")");
}

static void
test_topology_annotation_end(void **state)
{
	static const uint8_t d1[] = "1\n", d2[] = "aldebaran\n";
	struct kt_topo_file files[3] = {
		{ "/sys/devices/virtual/kfd/kfd/topology/generation_id", d1, 2 },
		{ "/sys/devices/virtual/kfd/kfd/topology/nodes/1/name", d2, 10 },
		{ "/sys/devices/virtual/kfd/kfd/topology/nodes/1/gpu_id", d1, 2 },
	};
	struct kt_record r = mk(KT_REC_TOPOLOGY);

	r.u.topology.nfiles = 3;
	r.u.topology.files = files;
	assert_text(&r, "topology(3 files, 14 bytes)");

	r = mk(KT_REC_ANNOTATION);
	r.u.annotation.text = "phase \"two\"\tstart";
	assert_text(&r, "annotation(\"phase \\\"two\\\"\\tstart\")");

	r = mk(KT_REC_END);
	r.u.end.records = 1234;
	assert_text(&r, "end(clean, records=1234, lost=0)");
	r.u.end.flags = KT_END_INCOMPLETE | KT_END_SIGNAL;
	r.u.end.records = 10;
	r.u.end.lost = 3;
	assert_text(&r, "end(INCOMPLETE|SIGNAL, records=10, lost=3)");

	r = mk(99);
	assert_text(&r, "record(type=99)");
}

static void
test_api_call(void **state)
{
	struct kfd_decode_opts o = { .start_ns = T0,
				     .flags = KFD_DECODE_DURATION };
	struct kt_record r = mk(KT_REC_API_CALL);

	r.u.api.name = "hsaKmtAllocMemory";
	r.u.api.args = "node=1 size=4096";
	r.u.api.t_exit = TS + 2000000;
	r.u.api.first_seq = 10;
	r.u.api.last_seq = 12;
	assert_text(&r, "hsaKmtAllocMemory(node=1 size=4096) = 0 SUCCESS "
		    "/* ioctls #10..#12 */");
	assert_string_equal(decode_text_opts(&r, &o),
			    PFX "hsaKmtAllocMemory(node=1 size=4096) = 0 SUCCESS "
			    "/* ioctls #10..#12 */ <0.002000>");
	r.u.api.status = 6;
	r.u.api.first_seq = 1;
	r.u.api.last_seq = 0;
	assert_text(&r, "hsaKmtAllocMemory(node=1 size=4096) = 6 NO_MEMORY");
	/* A name from the traced program cannot break the line. */
	r.u.api.name = "evil\nname";
	assert_text(&r, "evil\\x0aname(node=1 size=4096) = 6 NO_MEMORY");
}

static void
test_prefix_options(void **state)
{
	struct kfd_decode_opts o = { .start_ns = T0, .flags = KFD_DECODE_SEQ };
	struct kt_record r = mk(KT_REC_CLOSE);

	r.u.close.fd = 3;
	assert_string_equal(decode_text_opts(&r, &o),
			    "#7 [4242] +1.234567 close(3) = 0");
	/* Records from before the header's clock reading. */
	r.ts = T0 - 500000;
	assert_string_equal(decode_text(&r), "[4242] -0.000500 close(3) = 0");
	r.ts = T0 + 3600ULL * 1000000000ULL + 1999;
	assert_string_equal(decode_text(&r), "[4242] +3600.000001 close(3) = 0");
}

static void
test_json_ioctl(void **state)
{
	struct kfd_abi_alloc_memory_of_gpu_args in = {
		.va_addr = 0x7f0000200000,
		.size = 2097152,
		.gpu_id = 0x1234,
		.flags = KFD_ABI_ALLOC_MEM_FLAGS_VRAM |
			 KFD_ABI_ALLOC_MEM_FLAGS_WRITABLE |
			 KFD_ABI_ALLOC_MEM_FLAGS_EXECUTABLE | 0x40000,
	};
	struct kfd_abi_alloc_memory_of_gpu_args out = in;
	uint8_t raw[8] = { 1, 2, 3, 4, 5, 6, 7, 8 };
	struct kt_record r;
	const char *s;

	out.handle = (0x1234ULL << 32) | 3;
	out.mmap_offset = 0xc48d000000000000;
	r = mk_ioctl(KFD_ABI_IOC_ALLOC_MEMORY_OF_GPU, &in, &out, sizeof(in),
		     0, 0);
	s = decode_json(&r);
	assert_string_equal(s,
		"{\"seq\":7,\"tid\":4242,\"t\":1.234567,\"ts\":2234567000,"
		"\"type\":\"ioctl\",\"name\":\"ALLOC_MEMORY_OF_GPU\","
		"\"event\":\"alloc_memory_of_gpu\",\"fd\":3,\"file\":\"kfd\","
		"\"request\":3223866134,\"in\":{\"va_addr\":139637978824704,"
		"\"size\":2097152,\"mmap_offset\":0,\"gpu_id\":4660,"
		"\"flags\":{\"value\":3221487617,\"names\":[\"VRAM\","
		"\"EXECUTABLE\",\"WRITABLE\",\"0x40000\"]}},\"ret\":0,"
		"\"out\":{\"handle\":20014547599363,"
		"\"mmap_offset\":\"0xc48d000000000000\"},\"dur_ns\":15000}");
	assert_true(json_valid(s));

	r = mk_ioctl(KFD_ABI_IOC_ALLOC_MEMORY_OF_GPU, &in, &in, sizeof(in),
		     -1, ENOMEM);
	s = decode_json(&r);
	assert_non_null(strstr(s, "\"ret\":-1,\"err\":12,\"errno\":\"ENOMEM\","
			       "\"out\":{}"));
	assert_true(json_valid(s));

	r = mk_ioctl(0xc0084b99, raw, raw, sizeof(raw), -1, ENOTTY);
	s = decode_json(&r);
	assert_string_equal(s,
		"{\"seq\":7,\"tid\":4242,\"t\":1.234567,\"ts\":2234567000,"
		"\"type\":\"ioctl\",\"name\":null,\"fd\":3,\"file\":\"kfd\","
		"\"request\":3221769113,\"ioc_type\":\"K\",\"nr\":153,\"size\":8,"
		"\"in_hex\":\"0102030405060708\",\"ret\":-1,\"err\":25,"
		"\"errno\":\"ENOTTY\",\"out_hex\":\"0102030405060708\","
		"\"dur_ns\":15000}");
	assert_true(json_valid(s));
}

static void
test_json_records(void **state)
{
	struct kt_record r = mk(KT_REC_OPEN);
	const char *s;

	r.u.open.path = "/dev/kfd";
	r.u.open.flags = O_RDWR | O_CLOEXEC;
	r.u.open.file_kind = KFD_FILE_KFD;
	r.u.open.ret = 3;
	s = decode_json(&r);
	assert_string_equal(s,
		"{\"seq\":7,\"tid\":4242,\"t\":1.234567,\"ts\":2234567000,"
		"\"type\":\"open\",\"path\":\"/dev/kfd\",\"flags\":{\"value\":524290,"
		"\"names\":[\"O_RDWR\",\"O_CLOEXEC\"]},\"mode\":0,\"file\":\"kfd\","
		"\"rdev\":0,\"ret\":3}");
	assert_true(json_valid(s));

	/* Quotes, control bytes, invalid and valid UTF-8. */
	r = mk(KT_REC_ANNOTATION);
	r.u.annotation.text = "a\"b\\c\n\x01\xff \xc3\xa9";
	s = decode_json(&r);
	assert_string_equal(s,
		"{\"seq\":7,\"tid\":4242,\"t\":1.234567,\"ts\":2234567000,"
		"\"type\":\"annotation\",\"text\":\"a\\\"b\\\\c\\n\\u0001\\u00ff "
		"\xc3\xa9\"}");
	assert_true(json_valid(s));

	r = mk(KT_REC_MMAP);
	r.u.mmap.len = 8192;
	r.u.mmap.prot = PROT_READ;
	r.u.mmap.flags = MAP_SHARED;
	r.u.mmap.fd = 3;
	r.u.mmap.offset = 0xc48d000000000000;
	r.u.mmap.result = (uint64_t)-1;
	r.u.mmap.err = ENOMEM;
	s = decode_json(&r);
	assert_non_null(strstr(s, "\"offset\":\"0xc48d000000000000\","
			       "\"ret\":-1,\"err\":12,\"errno\":\"ENOMEM\"}"));
	assert_true(json_valid(s));
}

/* Every record kind, including an unknown one, yields valid JSON. */
static void
test_json_all_types_valid(void **state)
{
	static const char argv[] = "a\0b\0";
	struct kt_topo_file f = { "/x", (const uint8_t *)"1", 1 };
	unsigned int t;

	for (t = 0; t <= KT_REC_TYPE_MAX + 1; t++) {
		struct kt_record r = mk((uint16_t)t);

		switch (t) {
		case KT_REC_OPEN:
			r.u.open.path = "/dev/kfd";
			break;
		case KT_REC_EXEC:
			r.u.exec.path = "/bin/x";
			r.u.exec.argv = argv;
			r.u.exec.argv_len = sizeof(argv) - 1;
			break;
		case KT_REC_THREAD_NAME:
			r.u.thread_name.name = "t";
			break;
		case KT_REC_TOPOLOGY:
			r.u.topology.nfiles = 1;
			r.u.topology.files = &f;
			break;
		case KT_REC_ANNOTATION:
			r.u.annotation.text = "x";
			break;
		case KT_REC_API_CALL:
			r.u.api.name = "hsaKmtOpenKFD";
			r.u.api.args = "";
			break;
		case KT_REC_IOCTL:
			r.u.ioctl.request = KFD_ABI_IOC_GET_VERSION;
			r.u.ioctl.file_kind = KFD_FILE_KFD;
			break;
		default:
			break;
		}
		assert_true(json_valid(decode_json(&r)));
		assert_non_null(decode_text(&r));
	}
}

static void
test_strbuf(void **state)
{
	struct kt_strbuf sb;
	char big[1000];

	kt_strbuf_init(&sb);
	kt_strbuf_put_s64(&sb, INT64_MIN);
	kt_strbuf_putc(&sb, ' ');
	kt_strbuf_put_u64(&sb, UINT64_MAX);
	kt_strbuf_putc(&sb, ' ');
	kt_strbuf_put_hex(&sb, 0);
	kt_strbuf_putc(&sb, ' ');
	kt_strbuf_put_hex(&sb, UINT64_MAX);
	assert_string_equal(sb.data, "-9223372036854775808 "
			    "18446744073709551615 0x0 0xffffffffffffffff");
	kt_strbuf_clear(&sb);
	assert_string_equal(sb.data, "");
	memset(big, 'x', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	kt_strbuf_printf(&sb, "%s|%d", big, 42);
	assert_int_equal(sb.len, sizeof(big) - 1 + 3);
	assert_string_equal(sb.data + sizeof(big) - 1, "|42");
	assert_int_equal(sb.failed, 0);
	kt_strbuf_release(&sb);
	assert_null(sb.data);
}

static void
test_names(void **state)
{
	char buf[16];

	assert_string_equal(kfd_errno_name(ENOMEM), "ENOMEM");
	assert_string_equal(kfd_errno_desc(ENOMEM), "Cannot allocate memory");
	assert_string_equal(kfd_errno_name(524), "ENOTSUPP");
	assert_string_equal(kfd_errno_name(512), "ERESTARTSYS");
	assert_null(kfd_errno_name(0));
	assert_null(kfd_errno_name(9999));
	assert_null(kfd_errno_name(-5));

	assert_string_equal(kfd_gfx_target_name(90010, buf, sizeof(buf)),
			    "gfx90a");
	assert_string_equal(kfd_gfx_target_name(90402, buf, sizeof(buf)),
			    "gfx942");
	assert_string_equal(kfd_gfx_target_name(110000, buf, sizeof(buf)),
			    "gfx1100");
	assert_string_equal(kfd_gfx_target_name(100300, buf, sizeof(buf)),
			    "gfx1030");
	assert_string_equal(kfd_gfx_target_name(120001, buf, sizeof(buf)),
			    "gfx1201");
}

/*
 * kt_ioctl_row(): a record resolves to the row of its file kind and
 * request, whatever the size bits say; a file kind or request the schema
 * does not know has none.
 */
static void
test_ioctl_row(void **state)
{
	struct kt_record r = mk(KT_REC_IOCTL);
	const struct kfd_ioctl_desc *d;

	r.u.ioctl.file_kind = KFD_FILE_KFD;
	r.u.ioctl.request = KFD_ABI_IOC_ALLOC_MEMORY_OF_GPU;
	d = kt_ioctl_row(&r.u.ioctl);
	assert_non_null(d);
	assert_string_equal(d->name, "ALLOC_MEMORY_OF_GPU");
	assert_ptr_equal(d, kfd_schema_lookup(KFD_FILE_KFD,
					      KFD_ABI_IOC_ALLOC_MEMORY_OF_GPU));

	r.u.ioctl.file_kind = KFD_FILE_RENDER;
	assert_null(kt_ioctl_row(&r.u.ioctl));
	r.u.ioctl.request = KFD_DRM_IOCTL_AMDGPU_INFO;
	d = kt_ioctl_row(&r.u.ioctl);
	assert_non_null(d);
	assert_ptr_equal(d, kfd_schema_lookup(KFD_FILE_RENDER,
					      KFD_DRM_IOCTL_AMDGPU_INFO));

	r.u.ioctl.file_kind = KFD_FILE_UNKNOWN;
	assert_null(kt_ioctl_row(&r.u.ioctl));
	r.u.ioctl.file_kind = 77;
	r.u.ioctl.request = KFD_ABI_IOC_ALLOC_MEMORY_OF_GPU;
	assert_null(kt_ioctl_row(&r.u.ioctl));
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_open_close_dup),
		cmocka_unit_test(test_mmap_munmap),
		cmocka_unit_test(test_process_records),
		cmocka_unit_test(test_topology_annotation_end),
		cmocka_unit_test(test_api_call),
		cmocka_unit_test(test_prefix_options),
		cmocka_unit_test(test_json_ioctl),
		cmocka_unit_test(test_json_records),
		cmocka_unit_test(test_json_all_types_valid),
		cmocka_unit_test(test_strbuf),
		cmocka_unit_test(test_names),
		cmocka_unit_test(test_ioctl_row),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

/* SPDX-License-Identifier: MIT */
/*
 * Golden decoding of submit records: the packet schema's rows, each
 * decoded from a packet built from the packet ABI structs (every row has
 * a case; a row without one fails test_every_row), exact text for AQL,
 * SDMA and PM4 packets, JSON validity, and bad packets (unknown types, a
 * stream cut inside a packet).
 */
#include "decode_test.h"
#include "json_check.h"
#include "kfdtrace/packet_abi.h"
#include "kfdtrace/packets.h"

static struct kt_record
submit(uint8_t engine, uint64_t first, uint64_t last, const void *data,
       uint32_t len)
{
	struct kt_record r;

	memset(&r, 0, sizeof(r));
	r.type = KT_REC_SUBMIT;
	r.seq = 9;
	r.tid = 4242;
	r.ts = TS;
	r.u.submit.queue_id = 3;
	r.u.submit.fd = 5;
	r.u.submit.gpu_id = 0xab12;
	r.u.submit.engine = engine;
	r.u.submit.first = first;
	r.u.submit.last = last;
	r.u.submit.ring = 0x7f0000000000ull;
	r.u.submit.ring_size = 4096;
	r.u.submit.len = len;
	r.u.submit.data = tail_copy(data, len);
	return r;
}

static void
test_dispatch(void **state)
{
	struct kfd_aql_dispatch d;
	struct kt_record r;

	(void)state;
	memset(&d, 0, sizeof(d));
	d.header = KFD_AQL_TYPE_KERNEL_DISPATCH |
		   (KFD_AQL_FENCE_BARRIER | KFD_AQL_FENCE_ACQUIRE_SYSTEM |
		    KFD_AQL_FENCE_RELEASE_SYSTEM) << 8;
	d.setup = 1;
	d.workgroup_size_x = 256;
	d.workgroup_size_y = 1;
	d.workgroup_size_z = 1;
	d.grid_size_x = 65536;
	d.grid_size_y = 1;
	d.grid_size_z = 1;
	d.group_segment_size = 1024;
	d.kernel_object = 0x7f1000001000ull;
	d.kernarg_address = 0x7f2000000000ull;
	d.completion_signal = 0x7f3000000080ull;
	r = submit(KFD_ENGINE_AQL, 12, 12, &d, sizeof(d));
	assert_text(&r, "submit(queue=3, fd=5, gpu_id=0xab12, aql, #12..#12) {[12] "
		    "KERNEL_DISPATCH{fences=BARRIER|ACQUIRE_SYSTEM|RELEASE_SYSTEM, "
		    "setup=1, workgroup_size_x=256, workgroup_size_y=1, "
		    "workgroup_size_z=1, grid_size_x=65536, grid_size_y=1, "
		    "grid_size_z=1, private_segment_size=0, group_segment_size=1024, "
		    "kernel_object=0x7f1000001000, kernarg_address=0x7f2000000000, "
		    "completion_signal=0x7f3000000080}}");
	assert_true(json_valid(decode_json(&r)));
	tail_reset();
}

static void
test_barrier_and_vendor(void **state)
{
	struct kfd_aql_barrier b[2];
	struct kfd_aql_barrier_value *bv = (struct kfd_aql_barrier_value *)&b[1];
	struct kt_record r;

	(void)state;
	memset(b, 0, sizeof(b));
	b[0].header = KFD_AQL_TYPE_BARRIER_AND;
	b[0].dep_signal[0] = 0x7f3000000100ull;
	bv->header = KFD_AQL_TYPE_VENDOR;
	bv->format = KFD_AQL_VENDOR_BARRIER_VALUE;
	bv->signal = 0x7f3000000200ull;
	bv->value = -1;
	bv->mask = 0xffffffffull;
	bv->cond = 1;
	r = submit(KFD_ENGINE_AQL, 40, 41, b, sizeof(b));
	assert_text(&r, "submit(queue=3, fd=5, gpu_id=0xab12, aql, #40..#41) {[40] "
		    "BARRIER_AND{fences=0, dep_signal[0]=0x7f3000000100, "
		    "dep_signal[1]=0x0, dep_signal[2]=0x0, dep_signal[3]=0x0, "
		    "dep_signal[4]=0x0, completion_signal=0x0}, [41] BARRIER_VALUE"
		    "{fences=0, format=BARRIER_VALUE, signal=0x7f3000000200, "
		    "value=-1, mask=0xffffffff, cond=NE, completion_signal=0x0}}");
	assert_true(json_valid(decode_json(&r)));
	tail_reset();
}

static void
test_sdma(void **state)
{
	struct {
		struct kfd_sdma_copy_linear c;
		struct kfd_sdma_fence f;
		struct kfd_sdma_trap t;
	} __attribute__((packed)) s;
	struct kt_record r;

	(void)state;
	memset(&s, 0, sizeof(s));
	s.c.header = KFD_SDMA_OP_COPY | KFD_SDMA_SUBOP_COPY_LINEAR << 8;
	s.c.count = 4095;
	s.c.src = 0x7f4000000000ull;
	s.c.dst = 0x7f5000000000ull;
	s.f.header = KFD_SDMA_OP_FENCE;
	s.f.addr = 0x7f6000000000ull;
	s.f.data = 7;
	s.t.header = KFD_SDMA_OP_TRAP;
	s.t.int_ctx = 0x40000001;
	r = submit(KFD_ENGINE_SDMA, 4096, 4096 + sizeof(s), &s, sizeof(s));
	assert_text(&r, "submit(queue=3, fd=5, gpu_id=0xab12, sdma, bytes 4096..4148) "
		    "{[4096] COPY_LINEAR{bytes_minus_1=4095, parameter=0x0, "
		    "src=0x7f4000000000, dst=0x7f5000000000}, [4124] FENCE{"
		    "addr=0x7f6000000000, data=0x7}, [4140] TRAP{int_ctx=0x40000001}}");
	assert_true(json_valid(decode_json(&r)));
	tail_reset();
}

/* kfdtest's PM4: a filler, WRITE_DATA with its data, RELEASE_MEM, an IB. */
static void
test_pm4(void **state)
{
	struct {
		uint32_t filler;
		struct kfd_pm4_write_data w;
		uint32_t data[2];
		struct kfd_pm4_release_mem rm;
		struct kfd_pm4_indirect_buffer ib;
	} __attribute__((packed)) s;
	struct kt_record r;

	(void)state;
	memset(&s, 0, sizeof(s));
	s.filler = KFD_PM4_NOP_FILLER | 2;	/* compute shader type, as kfdtest */
	s.w.header = KFD_PM4_HDR(KFD_PM4_OP_WRITE_DATA, 4);
	s.w.control = KFD_PM4_DST_MEM << 8 | 1u << 20;
	s.w.dst = 0x7f6000000000ull;
	s.data[0] = 1;
	s.data[1] = 2;
	s.rm.header = KFD_PM4_HDR(KFD_PM4_OP_RELEASE_MEM, 6);
	s.rm.event = 0x14 | 5u << 8;
	s.rm.control = KFD_PM4_DATA_32 << 29 | KFD_PM4_INT_AFTER_WRITE << 24;
	s.rm.addr = 0x7f7000000010ull;
	s.rm.data = 2;
	s.rm.int_ctxid = 2;
	s.ib.header = KFD_PM4_HDR(KFD_PM4_OP_INDIRECT_BUFFER, 2);
	s.ib.ib_base = 0x7f8000000000ull;
	s.ib.control = 16 | KFD_PM4_IB_VALID;
	r = submit(KFD_ENGINE_PM4, 1020, 1020 + sizeof(s) / 4, &s, sizeof(s));
	assert_text(&r, "submit(queue=3, fd=5, gpu_id=0xab12, pm4, dwords 1020..1039) "
		    "{[1020] NOP{}, [1021] WRITE_DATA{control=0x100500, "
		    "dst=0x7f6000000000}, [1027] RELEASE_MEM{event=0x514, "
		    "control=0x22000000, addr=0x7f7000000010, data=0x2, "
		    "int_ctxid=2}, [1035] INDIRECT_BUFFER{ib_base=0x7f8000000000, "
		    "control=0x800010}}");
	assert_true(json_valid(decode_json(&r)));
	tail_reset();
}

/* An unknown AQL type, an unknown SDMA opcode, a stream cut short. */
static void
test_bad_packets(void **state)
{
	uint8_t pkt[64] = { 7 };
	uint32_t dw[3] = { 0xee, KFD_SDMA_OP_FENCE, 0x1234 };
	struct kt_record r;
	const char *t;

	(void)state;
	r = submit(KFD_ENGINE_AQL, 0, 0, pkt, sizeof(pkt));
	t = decode_text(&r);
	assert_non_null(strstr(t, "[0] UNKNOWN{bytes=<07"));
	assert_true(json_valid(decode_json(&r)));
	tail_reset();
	r = submit(KFD_ENGINE_SDMA, 0, sizeof(dw), dw, sizeof(dw));
	t = decode_text(&r);
	/* 0xee is no opcode: one dword; then a FENCE cut after 8 bytes. */
	assert_non_null(strstr(t, "[0] UNKNOWN{bytes=<ee000000>}, [4] FENCE{addr=?"));
	assert_true(json_valid(decode_json(&r)));
	tail_reset();
	/* PM4: a type-0 dword, an unknown opcode skipped whole, a cut
	 * WAIT_REG_MEM. */
	{
		uint32_t p[6] = { 0x12, KFD_PM4_HDR(0x01, 0), 0,
				  KFD_PM4_HDR(KFD_PM4_OP_WAIT_REG_MEM, 5), 0x13,
				  0x1000 };

		r = submit(KFD_ENGINE_PM4, 0, 6, p, sizeof(p));
		t = decode_text(&r);
		assert_non_null(strstr(t, "[0] UNKNOWN{bytes=<12000000>}, [1] UNKNOWN"
				       "{bytes=<000100c000000000>}, [3] "
				       "WAIT_REG_MEM{control=0x13, addr=?"));
		assert_true(json_valid(decode_json(&r)));
		tail_reset();
	}
	/* Damaged or cut records say so. */
	r = submit(KFD_ENGINE_AQL, 0, 0, pkt, sizeof(pkt));
	r.u.submit.flags = KT_SUBMIT_CLAMPED;
	assert_non_null(strstr(decode_text(&r), ", clamped) {"));
	tail_reset();
}

/*
 * Every row of the packet schema: a packet that matches it decodes under
 * its name with every field but the header bytes.
 */
static void
test_every_row(void **state)
{
	unsigned int n, i, k;
	const struct kfd_packet_desc *rows = kfd_packet_rows(&n);

	(void)state;
	assert_true(n > 10);
	for (i = 0; i < n; i++) {
		const struct kfd_packet_desc *row = &rows[i];
		uint8_t p[256];
		size_t len = row->engine == KFD_ENGINE_AQL ? KFD_AQL_PACKET_SIZE :
			     row->layout->size, size;
		char want[96];
		struct kt_record r;
		const char *t;

		memset(p, 0, sizeof(p));
		p[0] = row->match;
		if (row->sub >= 0)
			p[row->engine == KFD_ENGINE_AQL ? 2 : 1] = (uint8_t)row->sub;
		if (row->engine == KFD_ENGINE_PM4) {
			/* A NOP's layout is one dword: the filler. */
			uint32_t dw0 = row->layout->size == 4 ? KFD_PM4_NOP_FILLER :
				       KFD_PM4_HDR(row->match,
						   row->layout->size / 4 - 2);

			memcpy(p, &dw0, 4);
		}
		if (row->engine == KFD_ENGINE_AQL) {
			assert_int_equal(row->layout->size <= KFD_AQL_PACKET_SIZE, 1);
			assert_ptr_equal(kfd_aql_packet(p), row);
		} else if (row->engine == KFD_ENGINE_PM4) {
			assert_ptr_equal(kfd_pm4_packet(p, len, &size), row);
			assert_int_equal(size, row->layout->size);
		} else {
			assert_ptr_equal(kfd_sdma_packet(p, len, &size), row);
			assert_int_equal(size >= row->layout->size, 1);
			len = size;
		}
		r = submit(row->engine, 0, row->engine == KFD_ENGINE_AQL ? 0 :
			   row->engine == KFD_ENGINE_PM4 ? len / 4 : len,
			   p, (uint32_t)len);
		t = decode_text(&r);
		snprintf(want, sizeof(want), "[0] %s{", row->name);
		if (!strstr(t, want))
			fail_msg("row %s: %s", row->name, t);
		for (k = 0; k < row->layout->nfields; k++) {
			const char *f = row->layout->fields[k].name;

			if (!strcmp(f, "type") || !strcmp(f, "op") || !strcmp(f, "sub_op"))
				continue;
			snprintf(want, sizeof(want), "%s=", f);
			if (!strstr(t, want))
				fail_msg("row %s: no %s in %s", row->name, f, t);
		}
		assert_true(json_valid(decode_json(&r)));
		tail_reset();
	}
}

static void
put64(uint8_t *p, uint64_t v)
{
	memcpy(p, &v, 8);
}

/*
 * A minimal loaded AMDGPU code object at @e: ELF header, one PT_DYNAMIC
 * program header, the dynamic section, a hash table, three symbols (a
 * kernel descriptor "my_kernel.kd" at 0x1000 among them) and strings.
 */
static void
make_elf(uint8_t *e)
{
	static const char str[] = "\0my_kernel.kd\0other\0";
	uint32_t hash[5] = { 1, 3, 1, 0, 0 };
	uint16_t v16;

	memcpy(e, "\x7f" "ELF", 4);
	e[4] = 2;		/* 64-bit */
	e[5] = 1;		/* little-endian */
	e[6] = 1;
	v16 = 3;		/* ET_DYN */
	memcpy(e + 16, &v16, 2);
	v16 = 224;		/* EM_AMDGPU */
	memcpy(e + 18, &v16, 2);
	put64(e + 32, 64);	/* e_phoff */
	v16 = 56;
	memcpy(e + 54, &v16, 2);
	v16 = 1;
	memcpy(e + 56, &v16, 2);
	/* PT_DYNAMIC at 128, 80 bytes */
	e[64] = 2;
	put64(e + 64 + 8, 128);
	put64(e + 64 + 16, 128);
	put64(e + 64 + 32, 80);
	put64(e + 64 + 40, 80);
	put64(e + 128, 4);	/* DT_HASH */
	put64(e + 136, 256);
	put64(e + 144, 5);	/* DT_STRTAB */
	put64(e + 152, 400);
	put64(e + 160, 6);	/* DT_SYMTAB */
	put64(e + 168, 320);
	put64(e + 176, 10);	/* DT_STRSZ */
	put64(e + 184, sizeof(str));
	memcpy(e + 256, hash, sizeof(hash));
	/* symbol 1: my_kernel.kd = 0x1000; symbol 2: other = 0x2000 */
	e[320 + 24] = 1;
	put64(e + 320 + 24 + 8, 0x1000);
	e[320 + 48] = 14;
	put64(e + 320 + 48 + 8, 0x2000);
	memcpy(e + 400, str, sizeof(str));
}

/* Kernel names from a code object in captured memory, and forged ones. */
static void
test_kernel_names(void **state)
{
	uint8_t mem[8192];
	struct kfd_kernels *k = kfd_kernels_new();
	struct kfd_decode_opts o = { .start_ns = T0 };
	struct kfd_aql_dispatch d;
	struct kt_strbuf sb;
	struct kt_record r;
	uint16_t bad = 0xffff;

	(void)state;
	assert_non_null(k);
	memset(mem, 0, sizeof(mem));
	make_elf(mem + 512);
	assert_int_equal(kfd_kernels_add(k, 0x7f0000000000ull, mem, sizeof(mem)), 1);
	assert_string_equal(kfd_kernels_name(k, 0x7f0000000000ull + 512 + 0x1000),
			    "my_kernel");
	assert_null(kfd_kernels_name(k, 0x7f0000000000ull + 512 + 0x2000));
	/* A dispatch of it names it. */
	memset(&d, 0, sizeof(d));
	d.header = KFD_AQL_TYPE_KERNEL_DISPATCH;
	d.kernel_object = 0x7f0000000000ull + 512 + 0x1000;
	r = submit(KFD_ENGINE_AQL, 0, 0, &d, sizeof(d));
	o.kernels = k;
	kt_strbuf_init(&sb);
	assert_int_equal(kfd_decode_text(&sb, &r, &o), 0);
	assert_non_null(strstr(sb.data, ", kernel=\"my_kernel\"}"));
	kt_strbuf_release(&sb);
	tail_reset();
	/* Forged: program headers past the end, a symbol table out of it. */
	memcpy(mem + 512 + 56, &bad, 2);
	assert_int_equal(kfd_kernels_add(k, 0x7e0000000000ull, mem, sizeof(mem)), 0);
	make_elf(mem + 512);
	put64(mem + 512 + 168, 1u << 30);
	assert_int_equal(kfd_kernels_add(k, 0x7d0000000000ull, mem, sizeof(mem)), 0);
	assert_int_equal(kfd_kernels_add(k, 0, mem, 100), 0);
	kfd_kernels_free(k);
}

/* @n kernel-argument words of 8 bytes (a u32 pair is one word). */
static void
put_words(uint8_t *ka, const uint64_t *w, unsigned int n)
{
	for (unsigned int i = 0; i < n; i++)
		put64(ka + 8 * i, w[i]);
}

/* What HIP's blit kernels read and write, in HIP 5.2's and 6.x's layouts. */
static void
test_blit_args(void **state)
{
	const uint64_t a = 0x7f0000100000ull, b = 0x7f0000300000ull, p = 0x5600000080ull;
	uint8_t ka[120];
	struct kfd_blit x;

	(void)state;
	/* HIP 5.2 copyBuffer: offsets apart, 5003 bytes: 1250 dwords + 1, 3 */
	memset(ka, 0, sizeof(ka));
	put_words(ka, (const uint64_t[]){ a, b, 100, 4096, 1251, 3 }, 6);
	assert_int_equal(kfd_blit_args("__amd_rocclr_copyBuffer", ka, 104, &x), 0);
	assert_int_equal(x.kind, KFD_BLIT_COPY);
	assert_true(x.src == a + 100 && x.dst == b + 4096 && x.len == 5003);
	/* HIP 6.x copyBuffer: 5003 bytes, remainder 3 of 4, end = dst + 5000 */
	memset(ka, 0, sizeof(ka));
	put_words(ka, (const uint64_t[]){ a + 100, b + 4096, 5003, 3 | 4ull << 32,
					  b + 4096 + 5000, 1024 }, 6);
	assert_int_equal(kfd_blit_args("__amd_rocclr_copyBuffer", ka, 120, &x), 0);
	assert_true(x.src == a + 100 && x.dst == b + 4096 && x.len == 5003);
	/* HIP 5.2 fillBufferAligned: quadwords, a pattern of one, 0x20000 */
	memset(ka, 0, sizeof(ka));
	put_words(ka, (const uint64_t[]){ 0, 0, 0, b, p, 1, 2, 0x20000 }, 8);
	assert_int_equal(kfd_blit_args("__amd_rocclr_fillBufferAligned", ka, 120, &x), 0);
	assert_int_equal(x.kind, KFD_BLIT_FILL);
	assert_true(x.dst == b + 16 && x.len == 1u << 20 && x.pattern == p &&
		    x.pattern_len == 8);
	/* ... two buffers set: no layout */
	put64(ka, a);
	assert_int_equal(kfd_blit_args("__amd_rocclr_fillBufferAligned", ka, 120, &x), -1);
	/* HIP 6.x fillBufferAligned: 16-byte units, a pattern of one */
	memset(ka, 0, sizeof(ka));
	put_words(ka, (const uint64_t[]){ b, p, 1 | 16ull << 32, b + 4096, 256 }, 5);
	assert_int_equal(kfd_blit_args("__amd_rocclr_fillBufferAligned", ka, 48, &x), 0);
	assert_true(x.dst == b && x.len == 4096 && x.pattern == p && x.pattern_len == 16);
	/* Other kernels, no name, arguments too short */
	assert_int_equal(kfd_blit_args("vadd", ka, 48, &x), -1);
	assert_int_equal(kfd_blit_args(NULL, ka, 48, &x), -1);
	assert_int_equal(kfd_blit_args("__amd_rocclr_copyBuffer", ka, 40, &x), -1);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_dispatch),
		cmocka_unit_test(test_barrier_and_vendor),
		cmocka_unit_test(test_sdma),
		cmocka_unit_test(test_pm4),
		cmocka_unit_test(test_bad_packets),
		cmocka_unit_test(test_every_row),
		cmocka_unit_test(test_kernel_names),
		cmocka_unit_test(test_blit_args),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

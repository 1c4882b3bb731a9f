/* SPDX-License-Identifier: MIT */
/*
 * The replayer's pieces on their own: the value map, the address-space
 * plan (reservations, relocation, mapping and unmapping only our own
 * memory), the topology parser on good and hostile input, the record
 * stream's ordering (seq order, held waits), the option parsers, and the
 * pairing of fd_transfer records across the processes of a tree.
 */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include <kfdtrace/decode.h>
#include <kfdtrace/kfd_abi.h>

#include "replay_run.h"
#include "replay_stream.h"
#include "tc_scratch.h"

static void
test_map(void **state)
{
	struct kc_u64map m = { 0 };
	uint64_t *shadow, v;
	unsigned int i, round;

	(void)state;
	shadow = calloc(4096, sizeof(*shadow));
	assert_non_null(shadow);
	/* Insert, overwrite and delete in rounds: tombstones pile up. */
	for (round = 0; round < 20; round++) {
		for (i = 0; i < 4096; i++) {
			uint64_t key = (uint64_t)i << 32 | 0xab12;

			if ((i + round) % 3 == 0) {
				rp_map_del(&m, RP_K_HANDLE, 1, key);
				shadow[i] = 0;
			} else {
				assert_int_equal(rp_map_put(&m, RP_K_HANDLE, 1, key,
							    i * 7 + round + 1), 0);
				shadow[i] = i * 7 + round + 1;
			}
		}
		for (i = 0; i < 4096; i++) {
			uint64_t key = (uint64_t)i << 32 | 0xab12;
			int got = rp_map_get(&m, RP_K_HANDLE, 1, key, &v);

			assert_int_equal(got, shadow[i] != 0);
			if (got)
				assert_true(v == shadow[i]);
		}
	}
	/* Kinds and scopes are separate namespaces. */
	assert_int_equal(rp_map_put(&m, RP_K_QUEUE, 1, 5, 50), 0);
	assert_int_equal(rp_map_put(&m, RP_K_QUEUE, 2, 5, 60), 0);
	assert_int_equal(rp_map_get(&m, RP_K_EVENT, 1, 5, &v), 0);
	assert_int_equal(rp_map_get(&m, RP_K_QUEUE, 2, 5, &v), 1);
	assert_true(v == 60);
	rp_map_free(&m);
	free(shadow);
}

static void
test_vec_bounds(void **state)
{
	struct rp_vec v;
	size_t i;

	(void)state;
	rp_vec_init(&v, 8);
	for (i = 0; i < 100000; i++)
		assert_non_null(rp_vec_push(&v));
	assert_int_equal(v.n, 100000);
	rp_vec_free(&v);
}

/* A model holding just the given CPU ranges. */
static void
model_with_ranges(struct rp_model *m, const uint64_t *r, unsigned int n)
{
	unsigned int i;

	memset(m, 0, sizeof(*m));
	rp_vec_init(&m->ranges, sizeof(struct rp_m_range));
	for (i = 0; i < n; i++)
		rp_model_add_range(m, r[2 * i], r[2 * i + 1], RP_RANGE_USERPTR);
}

static void
test_address_space(void **state)
{
	struct rp_model m;
	struct rp_as as;
	uint64_t ranges[6], free_addr, taken_addr, live;
	void *taken, *probe;
	char *p;

	(void)state;
	/* An address nothing uses (found, then given back) ... */
	probe = mmap(NULL, 1 << 20, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	assert_true(probe != MAP_FAILED);
	free_addr = (uint64_t)(uintptr_t)probe;
	munmap(probe, 1 << 20);
	/* ... and one our own process holds, like a colliding capture. */
	taken = mmap(NULL, 65536, PROT_READ | PROT_WRITE,
		     MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	assert_true(taken != MAP_FAILED);
	memset(taken, 0x77, 65536);
	taken_addr = (uint64_t)(uintptr_t)taken;
	ranges[0] = free_addr;
	ranges[1] = 65536;
	ranges[2] = taken_addr + 4096;
	ranges[3] = 8192;
	ranges[4] = 0x1000;		/* below the lowest mappable address */
	ranges[5] = 4096;
	model_with_ranges(&m, ranges, 3);
	assert_int_equal(m.ranges.n, 2);

	assert_int_equal(rp_as_init(&as), 0);
	rp_as_plan(&as, &m, NULL);
	assert_true(as.relocations == 1);
	/* The free range stays where it was captured. */
	assert_true(rp_as_xlate(&as, free_addr + 100) == free_addr + 100);
	assert_false(rp_as_relocated(&as, free_addr));
	/* The taken one moved; addresses inside follow it. */
	live = rp_as_xlate(&as, taken_addr + 4096 + 10);
	assert_true(live != taken_addr + 4096 + 10);
	assert_true(rp_as_relocated(&as, taken_addr + 4096));
	/* Outside any range: unchanged. */
	assert_true(rp_as_xlate(&as, 0x1234000) == 0x1234000);

	/* User memory at the captured address, then a mapping over it. */
	assert_int_equal(rp_as_back(&as, free_addr, 8192, NULL), 0);
	p = (char *)(uintptr_t)free_addr;
	p[0] = 1;
	p[8191] = 2;
	assert_int_equal(rp_as_back(&as, taken_addr + 4096, 4096, NULL), 0);
	((char *)(uintptr_t)rp_as_xlate(&as, taken_addr + 4096))[0] = 3;
	/* Our own memory under the relocated range was never touched. */
	assert_int_equal(((unsigned char *)taken)[4096], 0x77);

	p = rp_as_mmap(&as, free_addr + 16384, 4096, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0, NULL);
	assert_true(p == (char *)(uintptr_t)(free_addr + 16384));
	p[0] = 4;
	/* Unmapping gives the reservation back (no hole) ... */
	assert_int_equal(rp_as_munmap(&as, free_addr + 16384, 4096), 0);
	p = mmap((void *)(uintptr_t)(free_addr + 16384), 4096, PROT_READ,
		 MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
	assert_true(p == MAP_FAILED && errno == EEXIST);
	/* ... and an unmap of memory that is not ours leaves it alone. */
	assert_int_equal(rp_as_munmap(&as, taken_addr, 4096), 0);
	assert_int_equal(((unsigned char *)taken)[0], 0x77);

	/* A mapping at an address someone else holds lands elsewhere. */
	p = rp_as_mmap(&as, taken_addr + 32768, 4096, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0, NULL);
	assert_true(p != MAP_FAILED);
	assert_true(p != (char *)(uintptr_t)(taken_addr + 32768));
	assert_true(rp_as_xlate(&as, taken_addr + 32768) == (uint64_t)(uintptr_t)p);
	assert_int_equal(((unsigned char *)taken)[32768], 0x77);

	rp_as_free(&as);
	rp_vec_free(&m.ranges);
	munmap(taken, 65536);
}

/*
 * User memory the plan did not reserve (a range the model missed, or one
 * past the bound on reservations) that lies on the replayer's own memory:
 * relocated when none of it is the replay's yet, refused when it is mixed;
 * the replayer's memory is never mapped over.
 */
static void
test_unplanned_ranges(void **state)
{
	struct rp_model m;
	struct rp_as as;
	uint64_t ranges[2], a, live;
	unsigned char *own, *two;
	char stack_buf[64];
	uint64_t stack_page = (uint64_t)(uintptr_t)stack_buf & ~4095ull;

	(void)state;
	memset(stack_buf, 0x5a, sizeof(stack_buf));
	own = mmap(NULL, 65536, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	assert_true(own != MAP_FAILED);
	memset(own, 0x77, 65536);
	a = (uint64_t)(uintptr_t)own;

	/* Nothing planned: a userptr range on our stack and on our heap. */
	model_with_ranges(&m, NULL, 0);
	assert_int_equal(rp_as_init(&as), 0);
	rp_as_plan(&as, &m, NULL);
	assert_int_equal(rp_as_back(&as, stack_page, 8192, NULL), 0);
	assert_true(rp_as_relocated(&as, stack_page));
	live = rp_as_xlate(&as, stack_page + 8);
	assert_true(live != stack_page + 8);
	memset((void *)(uintptr_t)live, 1, 16);
	assert_int_equal(rp_as_back(&as, a + 4096, 8192, NULL), 0);
	assert_true(rp_as_relocated(&as, a + 4096));
	memset((void *)(uintptr_t)rp_as_xlate(&as, a + 4096), 2, 8192);
	assert_true(as.relocations == 2);
	/* The stack and the heap kept their bytes. */
	assert_int_equal((unsigned char)stack_buf[8], 0x5a);
	assert_int_equal(own[4096], 0x77);
	assert_int_equal(own[4096 + 8191], 0x77);
	rp_as_free(&as);

	/*
	 * Mixed: the first page was reserved by the plan, the second is ours.
	 * Relocating only the part would split what the capture had in one
	 * piece, so the range is refused.
	 */
	assert_int_equal(rp_as_init(&as), 0);
	two = mmap(NULL, 8192, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	assert_true(two != MAP_FAILED);
	ranges[0] = (uint64_t)(uintptr_t)two;
	ranges[1] = 4096;
	rp_vec_free(&m.ranges);
	model_with_ranges(&m, ranges, 1);
	munmap(two, 4096);
	two[4096] = 0x33;
	rp_as_plan(&as, &m, NULL);
	assert_true(as.relocations == 0);
	assert_int_equal(rp_as_back(&as, ranges[0], 8192, NULL), -EEXIST);
	assert_int_equal(two[4096], 0x33);
	/* Its planned part alone is fine. */
	assert_int_equal(rp_as_back(&as, ranges[0], 4096, NULL), 0);
	two[0] = 1;
	rp_as_free(&as);
	rp_vec_free(&m.ranges);
	munmap(two + 4096, 4096);
	munmap(own, 65536);
}

/* kt_record_clone(): a deep copy that outlives the bytes it came from. */
static void
test_record_clone(void **state)
{
	uint8_t before[16], after[16], b0[8], a0[4];
	struct kt_buf_image bi[2];
	struct kt_record rec, *c;
	char path[32];

	(void)state;
	memset(&rec, 0, sizeof(rec));
	memset(before, 1, sizeof(before));
	memset(after, 2, sizeof(after));
	memset(b0, 3, sizeof(b0));
	memset(a0, 4, sizeof(a0));
	memset(bi, 0, sizeof(bi));
	bi[0].index = 1;
	bi[0].before = b0;
	bi[0].len_before = sizeof(b0);
	bi[0].after = a0;
	bi[0].len_after = sizeof(a0);
	bi[1].index = 2;
	bi[1].len_before = 1000;	/* absent: its length is not copied */
	rec.type = KT_REC_IOCTL;
	rec.seq = 42;
	rec.u.ioctl.arg_size = sizeof(before);
	rec.u.ioctl.arg_before = before;
	rec.u.ioctl.arg_after = after;
	rec.u.ioctl.nbufs = 2;
	rec.u.ioctl.bufs = bi;
	c = kt_record_clone(&rec);
	assert_non_null(c);
	memset(before, 9, sizeof(before));
	memset(b0, 9, sizeof(b0));
	memset(bi, 0, sizeof(bi));
	assert_true(c->seq == 42);
	assert_true(c->u.ioctl.arg_before != before);
	assert_int_equal(c->u.ioctl.arg_before[15], 1);
	assert_int_equal(c->u.ioctl.arg_after[0], 2);
	assert_int_equal(c->u.ioctl.nbufs, 2);
	assert_int_equal(c->u.ioctl.bufs[0].index, 1);
	assert_int_equal(c->u.ioctl.bufs[0].before[7], 3);
	assert_int_equal(c->u.ioctl.bufs[0].after[3], 4);
	assert_null(c->u.ioctl.bufs[1].before);
	assert_int_equal(c->u.ioctl.bufs[1].index, 2);
	assert_true(((uintptr_t)c->u.ioctl.bufs & 7) == 0);
	free(c);

	memset(&rec, 0, sizeof(rec));
	snprintf(path, sizeof(path), "/dev/kfd");
	rec.type = KT_REC_OPEN;
	rec.u.open.path = path;
	c = kt_record_clone(&rec);
	assert_non_null(c);
	path[5] = 'X';
	assert_string_equal(c->u.open.path, "/dev/kfd");
	free(c);
	assert_null(kt_record_clone(NULL));
}

/* Write @text to @root/@rel, making its directories. */
static void
put_file(const char *root, const char *rel, const char *text)
{
	char path[512];
	size_t at = (size_t)snprintf(path, sizeof(path), "%s/", root);
	FILE *f;

	snprintf(path + at, sizeof(path) - at, "%s", rel);
	for (char *p = path + at; *p; p++) {
		if (*p == '/') {
			*p = '\0';
			mkdir(path, 0700);
			*p = '/';
		}
	}
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

/*
 * --plan names each GPU of @t by its target as the decoder does, and a GPU
 * without a gfx_target_version (node 2, added here) "none".
 */
static void
plan_gfx_names(const struct kt_topo *t)
{
	struct rp_model *m = calloc(1, sizeof(*m));
	char *text = NULL;
	size_t len = 0;
	FILE *f;

	assert_non_null(m);
	m->have_topo = 1;
	m->topo = *t;
	m->topo.nodes[2].present = 1;
	m->topo.nodes[2].gpu_id = 0x42;
	snprintf(m->topo.nodes[2].name, sizeof(m->topo.nodes[2].name), "blank");
	m->topo.nnodes = 3;
	f = open_memstream(&text, &len);
	assert_non_null(f);
	rp_model_print(m, f);
	fclose(f);
	assert_non_null(strstr(text, "gpu_id 0x5d3c \"aldebaran\" gfx90a, "));
	assert_non_null(strstr(text, "gpu_id 0x42 \"blank\" none, "));
	free(text);
	rp_model_free(m);
	free(m);
}

/* The live tree is read through libc into kt_topo_parse()'s files. */
static void
test_topology(void **state)
{
	char root[] = "/tmp/rp-topo-XXXXXX";
	struct kt_topo *t = malloc(sizeof(*t));
	const struct kt_topo_node *n;
	char gfx[16];

	(void)state;
	assert_non_null(t);
	assert_non_null(mkdtemp(root));
	put_file(root, "nodes/0/gpu_id", "0\n");
	put_file(root, "nodes/0/properties", "cpu_cores_count 16\n");
	put_file(root, "nodes/0/mem_banks/0/properties",
		 "heap_type 0\nsize_in_bytes 4096\n");
	put_file(root, "nodes/1/gpu_id", "23868\n");
	put_file(root, "nodes/1/name", "aldebaran\n");
	put_file(root, "nodes/1/properties", "gfx_target_version 90010\n"
		 "device_id 29711\ndrm_render_minor 129\n");
	put_file(root, "nodes/1/mem_banks/0/properties",
		 "heap_type 1\nsize_in_bytes 1073741824\n");
	put_file(root, "nodes/1/io_links/0/properties",
		 "type 11\nnode_from 1\nnode_to 0\nweight 15\n");
	put_file(root, "nodes/x/gpu_id", "7\n");
	assert_int_equal(kt_topo_read_live(root, t), 0);
	assert_int_equal(t->nnodes, 2);
	assert_int_equal(t->ngpus, 1);
	n = kt_topo_gpu(t, 23868);
	assert_ptr_equal(n, &t->nodes[1]);
	assert_string_equal(n->name, "aldebaran");
	assert_true(n->gfx_target_version == 90010 && n->device_id == 29711);
	assert_true(n->drm_render_minor == 129);
	assert_true(n->vram_bytes == 1ull << 30);
	assert_true(t->nodes[0].sys_bytes == 4096 && t->nodes[0].cpu_cores == 16);
	assert_int_equal(t->nlinks, 1);
	assert_int_equal(t->links[0].type, 11);
	assert_int_equal(t->links[0].to, 0);
	plan_gfx_names(t);
	assert_int_equal(tc_scratch_remove(root, NULL), 0);
	assert_int_equal(kt_topo_read_live(root, t), -ENOENT);
	assert_int_equal(t->nnodes, 0);
	free(t);
	assert_string_equal(kfd_gfx_target_name(90010, gfx, sizeof(gfx)), "gfx90a");
	assert_string_equal(kfd_gfx_target_name(110000, gfx, sizeof(gfx)),
			    "gfx1100");
}

/*
 * Records written out of seq order, with a wait released by a later set:
 * sequence order, the wait before its releaser too (the replay issues it
 * without blocking and again after the set, wait.c; held back behind the
 * set, it could take the signal of another).
 */
static void
test_stream_order(void **state)
{
	char path[] = "/tmp/rp-units-XXXXXX";
	struct kfd_abi_wait_events_args wb = { .num_events = 1, .timeout = 1000 };
	struct kfd_abi_wait_events_args wa = wb;
	struct kfd_abi_set_event_args se = { .event_id = 1 };
	struct kt_header hdr;
	struct kt_writer *w;
	struct kt_record r;
	struct rp_stream s;
	const struct kt_record *out;
	uint64_t order[8];
	int n = 0, fd;

	(void)state;
	fd = mkstemp(path);
	assert_true(fd >= 0);
	kt_header_init(&hdr, "units");
	hdr.start_monotonic = 0;	/* the records' times count from 0 */
	assert_int_equal(kt_writer_fdopen(fd, &hdr, NULL, &w), 0);
	memset(&r, 0, sizeof(r));
	/* #0 open at t=10 */
	r.type = KT_REC_OPEN;
	r.seq = 0;
	r.ts = 10;
	r.u.open.path = "/dev/kfd";
	r.u.open.ret = 3;
	assert_int_equal(kt_writer_append(w, &r), 0);
	/* #1 a wait on thread 2: entered at 20, returned at 50 */
	wa.wait_result = KFD_ABI_WAIT_RESULT_COMPLETE;
	memset(&r, 0, sizeof(r));
	r.type = KT_REC_IOCTL;
	r.seq = 1;
	r.tid = 2;
	r.ts = 20;
	r.u.ioctl.fd = 3;
	r.u.ioctl.file_kind = KFD_FILE_KFD;
	r.u.ioctl.request = KFD_ABI_IOC_WAIT_EVENTS;
	r.u.ioctl.t_exit = 50;
	r.u.ioctl.arg_size = sizeof(wb);
	r.u.ioctl.arg_before = (const uint8_t *)&wb;
	r.u.ioctl.arg_after = (const uint8_t *)&wa;
	assert_int_equal(kt_writer_append(w, &r), 0);
	/* #3 before #2 in the file (another thread's buffer) */
	memset(&r, 0, sizeof(r));
	r.type = KT_REC_CLOSE;
	r.seq = 3;
	r.ts = 60;
	r.u.close.fd = 3;
	assert_int_equal(kt_writer_append(w, &r), 0);
	/* #2 the set that released the wait: entered at 40 */
	memset(&r, 0, sizeof(r));
	r.type = KT_REC_IOCTL;
	r.seq = 2;
	r.tid = 1;
	r.ts = 40;
	r.u.ioctl.fd = 3;
	r.u.ioctl.file_kind = KFD_FILE_KFD;
	r.u.ioctl.request = KFD_ABI_IOC_SET_EVENT;
	r.u.ioctl.t_exit = 45;
	r.u.ioctl.arg_size = sizeof(se);
	r.u.ioctl.arg_before = (const uint8_t *)&se;
	r.u.ioctl.arg_after = (const uint8_t *)&se;
	assert_int_equal(kt_writer_append(w, &r), 0);
	assert_int_equal(kt_writer_close(w), 0);

	assert_int_equal(rp_stream_open(&s, path, 0), 0);
	while (rp_stream_next(&s, &out) > 0 && n < 8)
		if (out->type != KT_REC_END)
			order[n++] = out->seq;
	rp_stream_close(&s);
	unlink(path);
	assert_int_equal(n, 4);
	assert_true(order[0] == 0);
	assert_true(order[1] == 1);
	assert_true(order[2] == 2);
	assert_true(order[3] == 3);
}

/*
 * write_closes() - a trace at @path (a mkstemp() template) of @n close
 * records, in file order: seq @seqs[i] on thread @tids[i], at time
 * 10 * (seq + 1).
 */
static void
write_closes(char *path, const uint64_t *seqs, const uint32_t *tids,
	     unsigned int n)
{
	struct kt_header hdr;
	struct kt_writer *w;
	struct kt_record r;
	unsigned int i;
	int fd = mkstemp(path);

	assert_true(fd >= 0);
	kt_header_init(&hdr, "units");
	hdr.start_monotonic = 0;	/* the records' times count from 0 */
	assert_int_equal(kt_writer_fdopen(fd, &hdr, NULL, &w), 0);
	for (i = 0; i < n; i++) {
		memset(&r, 0, sizeof(r));
		r.type = KT_REC_CLOSE;
		r.seq = seqs[i];
		r.tid = tids[i];
		r.ts = 10 * (seqs[i] + 1);
		r.u.close.fd = 100 + (int32_t)i;
		assert_int_equal(kt_writer_append(w, &r), 0);
	}
	assert_int_equal(kt_writer_close(w), 0);
}

/*
 * A worker's buffer reached the file before the main thread's: the
 * stream still starts at #0 (planning and running in sequence order).
 */
static void
test_stream_worker_first(void **state)
{
	char path[] = "/tmp/rp-units-XXXXXX";
	static const uint64_t file_order[] = { 5, 6, 7, 0, 1, 2, 3, 4 };
	uint32_t tids[8];
	struct rp_stream s;
	const struct kt_record *out;
	uint64_t want = 0;
	unsigned int i;

	(void)state;
	for (i = 0; i < 8; i++)
		tids[i] = file_order[i] >= 5 ? 2 : 1;
	write_closes(path, file_order, tids, 8);
	assert_int_equal(rp_stream_open(&s, path, 0), 0);
	while (rp_stream_next(&s, &out) > 0)
		if (out->type != KT_REC_END)
			assert_int_equal(out->seq, want++);
	assert_int_equal(s.early, 0);
	rp_stream_close(&s);
	unlink(path);
	assert_int_equal(want, 8);
}

/*
 * A swap of the model: creation #1 (thread 2) is held until its previous
 * life's end #2 (thread 1) has gone, then comes right after it. The end
 * is the first record to wait for nothing, so the hold goes back to an
 * input queue that was never used (a null queue copied from: UBSan's
 * report in CI).
 */
static void
test_stream_swap(void **state)
{
	char path[] = "/tmp/rp-units-XXXXXX";
	static const uint64_t seqs[] = { 0, 1, 2, 3 };
	static const uint32_t tids[] = { 1, 2, 1, 1 };
	static const uint64_t want[] = { 0, 2, 1, 3 };
	const struct rp_swap sw = { .c = 1, .e = 2 };
	struct rp_stream s;
	const struct kt_record *out;
	unsigned int n = 0;

	(void)state;
	write_closes(path, seqs, tids, 4);
	assert_int_equal(rp_stream_open(&s, path, 0), 0);
	rp_stream_swaps(&s, &sw, 1);
	while (rp_stream_next(&s, &out) > 0)
		if (out->type != KT_REC_END) {
			assert_true(n < 4);
			assert_int_equal(out->seq, want[n++]);
		}
	rp_stream_close(&s);
	unlink(path);
	assert_int_equal(n, 4);
}

static void
test_parsers(void **state)
{
	struct kfd_replay_gpu_pair p[4];
	char bad[32];

	(void)state;
	assert_int_equal(kfd_replay_parse_gpu_map("0xab12=0x5d3c", p, 4), 1);
	assert_true(p[0].captured == 0xab12 && p[0].live == 0x5d3c);
	assert_int_equal(kfd_replay_parse_gpu_map("1=2,3=4", p, 4), 2);
	assert_true(p[1].captured == 3 && p[1].live == 4);
	assert_int_equal(kfd_replay_parse_gpu_map("1=2,", p, 4), 1);
	assert_int_equal(kfd_replay_parse_gpu_map("", p, 4), -1);
	assert_int_equal(kfd_replay_parse_gpu_map("12", p, 4), -1);
	assert_int_equal(kfd_replay_parse_gpu_map("1=", p, 4), -1);
	assert_int_equal(kfd_replay_parse_gpu_map("1=2x", p, 4), -1);
	assert_int_equal(kfd_replay_parse_gpu_map("0x1ffffffff=1", p, 4), -1);
	assert_int_equal(kfd_replay_parse_gpu_map("1=2,3=4,5=6", p, 2), -1);
	assert_int_equal(kfd_replay_check_kinds("open,ALLOC_MEMORY_OF_GPU,"
						"alloc_memory_of_gpu,ioctl,mmap",
						bad, sizeof(bad)), 0);
	assert_int_equal(kfd_replay_check_kinds("open,,mmap", bad, sizeof(bad)), -1);
	assert_int_equal(kfd_replay_check_kinds("open,frobnicate", bad,
						sizeof(bad)), -1);
	assert_string_equal(bad, "frobnicate");
}

/* ------------------------------------------------------------------ */
/* fd_transfer pairing (xfer.c)                                         */

static void
xfer_add(struct kfd_replay *r, uint8_t dir, uint64_t seq, uint64_t ts,
	 uint64_t exit, uint64_t ino, uint64_t peer_ino, int32_t peer_pid,
	 const char *name, const char *peer_name)
{
	struct rp_m_xfer *x = rp_vec_push(&r->model.xfers);

	assert_non_null(x);
	x->dir = dir;
	x->seq = seq;
	x->ts = ts;
	x->exit = exit;
	x->ino = ino;
	x->peer_ino = peer_ino;
	x->peer_pid = peer_pid;
	x->ret = 1;
	x->nfds = 1;
	snprintf(x->name, sizeof(x->name), "%s", name);
	snprintf(x->peer_name, sizeof(x->peer_name), "%s", peer_name);
}

static void
expect_partner(const struct rp_xfer_plan *p, unsigned int node, uint64_t seq,
	       int paired, unsigned int want_node, uint64_t want_seq)
{
	unsigned int sn = 99;
	uint64_t ss = 0;

	assert_int_equal(rp_xfer_partner(p, node, seq, &sn, &ss), paired);
	if (paired) {
		assert_int_equal(sn, want_node);
		assert_int_equal(ss, want_seq);
	}
}

/*
 * Inodes decide when both records have them; without them addresses and
 * SO_PEERCRED pids must agree; among the sends that fit, the first that
 * entered before the receive returned; peeks, failed calls and sends
 * after the receive pair with nothing.
 */
static void
test_xfer_pairing(void **state)
{
	struct kfd_replay *rs[3];
	struct rp_xfer_plan *p;
	struct rp_m_xfer *x;

	(void)state;
	for (int i = 0; i < 3; i++) {
		rs[i] = calloc(1, sizeof(*rs[i]));
		assert_non_null(rs[i]);
		rp_vec_init(&rs[i]->model.xfers, sizeof(struct rp_m_xfer));
		rs[i]->model.hdr.pid = 100 + i;
		rs[i]->path = "unit";
	}
	/* A (100) sends twice on inode 10, whose peer is B's 11. */
	xfer_add(rs[0], KT_XFER_SEND, 5, 1000, 1010, 10, 11, 101, "", "");
	xfer_add(rs[0], KT_XFER_SEND, 6, 2000, 2010, 10, 11, 101, "", "");
	/* ... and once with no inode, to the abstract @srv (C's). */
	xfer_add(rs[0], KT_XFER_SEND, 7, 3000, 3010, 0, 0, 102, "", "@srv");
	/* A failed send fits B too, but pairs with nothing. */
	xfer_add(rs[0], KT_XFER_SEND, 8, 500, 510, 10, 11, 101, "", "");
	x = RP_AT(&rs[0]->model.xfers, struct rp_m_xfer, 3);
	x->ret = -1;
	/* B receives twice on 11, once peeking first. */
	xfer_add(rs[1], KT_XFER_RECV, 20, 900, 1500, 11, 10, 100, "", "");
	x = RP_AT(&rs[1]->model.xfers, struct rp_m_xfer, 0);
	x->flags = KT_XFER_PEEK;
	xfer_add(rs[1], KT_XFER_RECV, 21, 900, 1500, 11, 10, 100, "", "");
	xfer_add(rs[1], KT_XFER_RECV, 22, 1900, 2500, 11, 10, 100, "", "");
	/* B's receive on another socket fits no send of A by inode. */
	xfer_add(rs[1], KT_XFER_RECV, 23, 1900, 2600, 31, 30, 100, "", "");
	/* C: on @srv, from a pid that is not A's, then from A; and one
	 * that returned before A's send entered. */
	xfer_add(rs[2], KT_XFER_RECV, 40, 2900, 3100, 0, 0, 999, "@srv", "");
	xfer_add(rs[2], KT_XFER_RECV, 41, 2900, 3200, 0, 0, 100, "@srv", "");
	xfer_add(rs[2], KT_XFER_RECV, 42, 100, 200, 0, 0, 100, "@srv", "");
	p = rp_xfer_plan_build(rs, 3, stderr);
	assert_non_null(p);
	expect_partner(p, 1, 20, 0, 0, 0);
	expect_partner(p, 1, 21, 1, 0, 5);
	expect_partner(p, 1, 22, 1, 0, 6);
	expect_partner(p, 1, 23, 0, 0, 0);
	expect_partner(p, 2, 40, 0, 0, 0);
	expect_partner(p, 2, 41, 1, 0, 7);
	expect_partner(p, 2, 42, 0, 0, 0);
	rp_xfer_plan_free(p);
	for (int i = 0; i < 3; i++) {
		rp_vec_free(&rs[i]->model.xfers);
		free(rs[i]);
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_map),
		cmocka_unit_test(test_vec_bounds),
		cmocka_unit_test(test_address_space),
		cmocka_unit_test(test_unplanned_ranges),
		cmocka_unit_test(test_record_clone),
		cmocka_unit_test(test_topology),
		cmocka_unit_test(test_stream_order),
		cmocka_unit_test(test_stream_worker_first),
		cmocka_unit_test(test_stream_swap),
		cmocka_unit_test(test_parsers),
		cmocka_unit_test(test_xfer_pairing),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

/* SPDX-License-Identifier: MIT */
/*
 * The interpreter's whole-wave memory paths (shader_mem.c: one view of
 * the bytes all lanes touch, the dword copies, the buffered dense loads
 * and stores) against its per-lane accesses, on gfx90a's GLOBAL loads
 * and stores of bytes, shorts and 1 to 4 dwords. Each instruction runs
 * on the same seeded state twice: as the engine runs it, and with the
 * fast paths off (sh_ctx.lanewise). Lanes spread over one mapping (a
 * userptr BO the CPU sees, and VRAM it never mapped), dense, on the same
 * few addresses (stores: the last lane's bytes stay), and crossing into
 * an unmapped page (both fault alike, at the same address, having stored
 * the same bytes). Every VGPR and every byte of both mappings must agree.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ktest.h"
#include "lanes_util.h"

#define UPTR_VA		0x60000000ull	/* userptr BO; the page after is unmapped */
#define VRAM_VA		0x61000000ull	/* VRAM no CPU mapping reaches */
#define REGION		8192u
#define LM_TRIALS	40		/* per row, place kind and EXEC kind */
#define LM_REPORT	20

static const char *const rows[] = {
	"load_ubyte", "load_sshort", "load_dword", "load_dwordx2", "load_dwordx3",
	"load_dwordx4", "store_byte", "store_short", "store_dword", "store_dwordx2",
	"store_dwordx3", "store_dwordx4",
};

enum place { P_SPREAD, P_DENSE, P_SAME, P_CROSS, P_KINDS };

static const char *const place_name[P_KINDS] = {
	"spread", "dense", "same addresses", "crossing into an unmapped page",
};

struct lm {
	struct kt *t;
	struct ksim_cp *cp;
	struct ksim_cpq cq;
	struct sh_ctx *fast, *slow;
	struct sh_wave w0;
	uint32_t (*v0)[SH_LANES];
	uint8_t before[2][REGION], after[2][2][REGION];
	unsigned int mismatches, faults, runs;
};

static const uint64_t regions[2] = { UPTR_VA, VRAM_VA };

static void
mem_io(struct lm *m, uint8_t buf[2][REGION], int write)
{
	for (unsigned int k = 0; k < 2; k++)
		assert_int_equal(cp_mem_rw(m->cp, &m->cq, regions[k], buf[k], REGION, write), 0);
}

static void
copy_wave(struct sh_wave *to, const struct sh_wave *from)
{
	memcpy(to->s, from->s, sizeof(to->s));
	memcpy(to->v, from->v, sizeof(*to->v) * SH_VGPRS);
	to->scc = from->scc;
	to->lanes = from->lanes;
	to->state = from->state;
}

/* The addresses of one trial, in v0/v1 (or v0 and s[2:3]). */
static void
place(struct lm *m, enum place p, unsigned int bytes, int saddr, uint64_t *s)
{
	uint64_t base = regions[lt_rand(s) & 1], va;
	unsigned int slots = (REGION - 16) / 4;

	if (p == P_CROSS)
		base = UPTR_VA;
	for (unsigned int l = 0; l < SH_LANES; l++) {
		switch (p) {
		case P_SPREAD:
			va = base + 4 * (lt_rand(s) % slots);
			break;
		case P_DENSE:
			va = base + 64 + (uint64_t)l * bytes;
			break;
		case P_SAME:
			va = base + 4 * (lt_rand(s) % 3);
			break;
		default:
			/* the last lanes past the BO's end, one of them astride it */
			va = base + REGION - 40 * bytes + (uint64_t)l * bytes -
			     (l == 40 && bytes > 4 ? 4 : 0);
			break;
		}
		if (saddr) {
			m->w0.v[0][l] = (uint32_t)(va - base);
			m->w0.v[1][l] = (uint32_t)lt_rand(s);
		} else {
			m->w0.v[0][l] = (uint32_t)va;
			m->w0.v[1][l] = (uint32_t)(va >> 32);
		}
	}
	sh_set_sreg64(&m->w0, 2, base);
}

static void
report(struct lm *m, const struct kfd_isa_insn *in, enum place p, const char *what,
       unsigned int at, uint32_t fast, uint32_t slow)
{
	if (++m->mismatches > LM_REPORT)
		return;
	print_error("%s (%s, exec 0x%016llx): %s %u: fast path 0x%08x, per-lane 0x%08x\n",
		    in->text, place_name[p], (unsigned long long)sh_exec(&m->w0), what, at,
		    fast, slow);
}

static void
report_lane(struct lm *m, const struct kfd_isa_insn *in, enum place p, unsigned int v,
	    unsigned int l, uint32_t fast, uint32_t slow)
{
	char what[32];

	snprintf(what, sizeof(what), "v%u lane", v);
	report(m, in, p, what, l, fast, slow);
}

static void
trial(struct lm *m, const struct kfd_isa_insn *in, unsigned int id, enum place p)
{
	struct sh_insn i = { .in = in, .id = id };
	struct sh_ctx *c[2] = { m->fast, m->slow };
	enum sh_step r[2];

	mem_io(m, m->before, 0);
	for (unsigned int k = 0; k < 2; k++) {
		copy_wave(&c[k]->waves[0], &m->w0);
		c[k]->ec = 0;
		c[k]->detail = 0;
		c[k]->why[0] = 0;
		pthread_mutex_lock(&m->t->dev->lock);
		r[k] = sh_mem(c[k], &c[k]->waves[0], &i);
		pthread_mutex_unlock(&m->t->dev->lock);
		mem_io(m, m->after[k], 0);
		mem_io(m, m->before, 1);
	}
	m->runs++;
	if (r[0] != r[1] || c[0]->ec != c[1]->ec || c[0]->detail != c[1]->detail ||
	    strcmp(c[0]->why, c[1]->why)) {
		if (++m->mismatches <= LM_REPORT)
			print_error("%s (%s): fast path %d at 0x%llx (%s), per-lane %d at 0x%llx"
				    " (%s)\n", in->text, place_name[p], r[0],
				    (unsigned long long)c[0]->detail, c[0]->why, r[1],
				    (unsigned long long)c[1]->detail, c[1]->why);
		return;
	}
	if (r[0] == SH_FAIL)
		m->faults++;
	for (unsigned int v = 0; v < SH_VGPRS; v++)
		for (unsigned int l = 0; l < SH_LANES; l++)
			if (c[0]->waves[0].v[v][l] != c[1]->waves[0].v[v][l])
				report_lane(m, in, p, v, l, c[0]->waves[0].v[v][l],
					    c[1]->waves[0].v[v][l]);
	for (unsigned int k = 0; k < 2; k++)
		for (unsigned int b = 0; b < REGION; b++)
			if (m->after[0][k][b] != m->after[1][k][b])
				report(m, in, p, k ? "VRAM byte" : "userptr byte", b,
				       m->after[0][k][b], m->after[1][k][b]);
}

static void
test_memory_paths_agree(void **state)
{
	struct lm *m = calloc(1, sizeof(*m));
	const unsigned int gpus[1] = { 0 };
	uint64_t seed = 0x6c616e65736d656dull;
	const char *env = getenv("KFDSIM_LANES_SEED");
	struct kfd_isa_row row;
	int gap;

	assert_non_null(m);
	if (env && *env)
		seed = strtoull(env, NULL, 0);
	print_message("seed 0x%llx (KFDSIM_LANES_SEED)\n", (unsigned long long)seed);
	m->t = *state;
	kt_userptr_mapped(m->t, 0, UPTR_VA, REGION);
	kt_vram_mapped(m->t, 0, VRAM_VA, REGION, gpus, 1);
	m->cp = calloc(1, sizeof(*m->cp));
	assert_non_null(m->cp);
	m->cp->p = m->t->kfd->proc;
	m->cp->dev = m->t->dev;
	m->cq.gpu = 0;
	m->fast = lt_ctx_new(KFD_ISA_GFX90A, SH_LANES, 0);
	m->slow = lt_ctx_new(KFD_ISA_GFX90A, SH_LANES, 1);
	m->v0 = calloc(SH_VGPRS, sizeof(*m->v0));
	assert_non_null(m->fast);
	assert_non_null(m->slow);
	assert_non_null(m->v0);
	m->w0.v = m->v0;
	m->w0.lanes = SH_LANES;
	m->w0.state = SH_RUN;
	m->fast->cp = m->slow->cp = m->cp;
	m->fast->cq = m->slow->cq = &m->cq;
	for (unsigned int r = 0; (gap = kfd_isa_row(KFD_ISA_GFX90A, r, &row)) >= 0; r++) {
		unsigned int id, ok = 0;
		size_t k;

		if (gap || strcmp(row.format, "FLAT"))
			continue;
		for (k = 0; k < sizeof(rows) / sizeof(rows[0]); k++)
			if (!strcmp(row.mnemonic, rows[k]))
				break;
		if (k == sizeof(rows) / sizeof(rows[0]))
			continue;
		id = lt_op_of(KFD_ISA_GFX90A, &row);
		assert_int_not_equal(id, SH_OP_NONE);
		for (unsigned int p = 0; p < P_KINDS; p++)
			for (unsigned int ek = 0; ek < 3; ek++)
				for (unsigned int t = 0; t < LM_TRIALS; t++) {
					uint64_t s = seed ^ ((uint64_t)r << 32 | p << 16 | ek << 8 | t);
					int saddr = (int)((lt_rand(&s) >> 7) & 1);
					uint32_t code[2], bytes;
					struct kfd_isa_insn in;

					/* GLOBAL; v0 the address (pair), data v4.., vdst v8.. */
					code[0] = row.word0 | 2u << 14;
					code[1] = 0u | 4u << 8 | (saddr ? 2u : 0x7fu) << 16 | 8u << 24;
					if (kfd_isa_decode(KFD_ISA_GFX90A, (const uint8_t *)code, 8, &in))
						continue;
					bytes = in.f.dst_dwords ? in.f.dst_dwords * 4 :
						in.f.src_dwords[0] ? in.f.src_dwords[0] * 4 : 4;
					if (strstr(row.mnemonic, "byte"))
						bytes = 1;
					else if (strstr(row.mnemonic, "short"))
						bytes = 2;
					for (unsigned int v = 2; v < 16; v++)
						for (unsigned int l = 0; l < SH_LANES; l++)
							m->w0.v[v][l] = (uint32_t)lt_rand(&s);
					place(m, (enum place)p, bytes, saddr, &s);
					sh_set_exec(&m->w0, ek == 0 ? ~0ull : ek == 1 ? 0 : lt_rand(&s));
					trial(m, &in, id, (enum place)p);
					ok++;
				}
		print_message("%s: %u instructions compared\n", row.mnemonic, ok);
		assert_true(ok > 0);
	}
	print_message("%u runs, %u faulted alike, %u mismatches\n", m->runs, m->faults,
		      m->mismatches);
	assert_true(m->faults > 0);
	assert_int_equal(m->runs, P_KINDS * 3 * LM_TRIALS * sizeof(rows) / sizeof(rows[0]));
	assert_int_equal(m->mismatches, 0);
	lt_ctx_free(m->fast);
	lt_ctx_free(m->slow);
	free(m->v0);
	free(m->cp);
	free(m);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_memory_paths_agree, kt_setup_mi210,
						kt_teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

/* SPDX-License-Identifier: MIT */
/*
 * Kernel names from captured code objects (kfdtrace/decode.h).
 *
 * A loaded AMDGPU code object is an ELF shared object whose first segment
 * (ELF header, program headers, dynamic symbols and strings, kernel
 * descriptors) sits at its load address. The memory a capture recorded
 * may hold it anywhere a loader put it, so every 256-byte boundary is
 * looked at for an ELF header of machine AMDGPU; its dynamic section
 * gives the symbol and string tables, and each "NAME.kd" symbol is a
 * kernel descriptor at load address + st_value. Everything is read with
 * bounds: a forged image gives no names, never a fault.
 */
#include <stdlib.h>
#include <string.h>

#include "decode_priv.h"

#define KK_EM_AMDGPU	224
#define KK_PT_DYNAMIC	2
#define KK_DT_HASH	4
#define KK_DT_STRTAB	5
#define KK_DT_SYMTAB	6
#define KK_DT_STRSZ	10
#define KK_MAX_SYMS	65536u
#define KK_MAX_NAME	512u

struct kk_entry {
	uint64_t kd;
	char *name;
};

struct kfd_kernels {
	struct kk_entry *v;
	size_t n, cap;
};

struct kfd_kernels *
kfd_kernels_new(void)
{
	return calloc(1, sizeof(struct kfd_kernels));
}

void
kfd_kernels_free(struct kfd_kernels *k)
{
	size_t i;

	if (!k)
		return;
	for (i = 0; i < k->n; i++)
		free(k->v[i].name);
	free(k->v);
	free(k);
}

/* @n bytes at @off of @len, or NULL. */
static const uint8_t *
at(const uint8_t *p, size_t len, uint64_t off, size_t n)
{
	return off <= len && n <= len - off ? p + off : NULL;
}

static uint16_t
u16(const uint8_t *p)
{
	uint16_t v;

	memcpy(&v, p, 2);
	return v;
}

static int
put(struct kfd_kernels *k, uint64_t kd, const char *name, size_t n)
{
	size_t i;

	for (i = 0; i < k->n; i++)
		if (k->v[i].kd == kd)
			return 0;
	if (k->n == k->cap) {
		size_t cap = k->cap ? 2 * k->cap : 16;
		struct kk_entry *v = realloc(k->v, cap * sizeof(*v));

		if (!v)
			return -1;
		k->v = v;
		k->cap = cap;
	}
	k->v[k->n].name = strndup(name, n);
	if (!k->v[k->n].name)
		return -1;
	k->v[k->n++].kd = kd;
	return 1;
}

/* The kernels of the ELF image at @e (@elen bytes of it in memory). */
static int
image(struct kfd_kernels *k, uint64_t base, const uint8_t *e, size_t elen)
{
	const uint8_t *ph, *dyn = NULL, *d;
	uint64_t phoff, symtab = 0, strtab = 0, strsz = 0, hash = 0, nsyms, i;
	uint16_t phnum, phentsize;
	size_t dynlen = 0;
	int found = 0, r;

	if (!at(e, elen, 0, 64) || e[4] != 2 || e[5] != 1 ||
	    u16(e + 18) != KK_EM_AMDGPU)
		return 0;
	phoff = dec_get_u64(e + 32);
	phentsize = u16(e + 54);
	phnum = u16(e + 56);
	if (phentsize < 56)
		return 0;
	for (i = 0; i < phnum; i++) {
		ph = at(e, elen, phoff + i * phentsize, 56);
		if (!ph)
			return 0;
		if (dec_get_u32(ph) == KK_PT_DYNAMIC) {
			dyn = at(e, elen, dec_get_u64(ph + 16), (size_t)dec_get_u64(ph + 40));
			dynlen = dyn ? (size_t)dec_get_u64(ph + 40) : 0;
		}
	}
	for (i = 0; dyn && i + 16 <= dynlen; i += 16) {
		uint64_t tag = dec_get_u64(dyn + i), val = dec_get_u64(dyn + i + 8);

		if (!tag)
			break;
		if (tag == KK_DT_SYMTAB)
			symtab = val;
		else if (tag == KK_DT_STRTAB)
			strtab = val;
		else if (tag == KK_DT_STRSZ)
			strsz = val;
		else if (tag == KK_DT_HASH)
			hash = val;
	}
	if (!symtab || !strtab)
		return 0;
	/* The symbol count: the hash table's chain count, else up to the
	 * string table (lld puts .dynsym right before .dynstr). */
	if (hash && (d = at(e, elen, hash, 8)))
		nsyms = dec_get_u32(d + 4);
	else
		nsyms = strtab > symtab ? (strtab - symtab) / 24 : 0;
	if (nsyms > KK_MAX_SYMS)
		nsyms = KK_MAX_SYMS;
	for (i = 1; i < nsyms; i++) {
		const uint8_t *sym = at(e, elen, symtab + i * 24, 24);
		const uint8_t *name;
		uint32_t off;
		size_t n;

		if (!sym)
			break;
		off = dec_get_u32(sym);
		if (strsz && off >= strsz)
			continue;
		name = at(e, elen, strtab + off, 1);
		if (!name)
			continue;
		for (n = 0; n < KK_MAX_NAME && name + n < e + elen && name[n]; n++)
			;
		if (n < 4 || name + n >= e + elen || memcmp(name + n - 3, ".kd", 3))
			continue;
		r = put(k, base + dec_get_u64(sym + 8), (const char *)name, n - 3);
		if (r < 0)
			return -1;
		found += r;
	}
	return found;
}

int
kfd_kernels_add(struct kfd_kernels *k, uint64_t addr, const uint8_t *data,
		size_t len)
{
	size_t off;
	int found = 0, r;

	if (!k || !data)
		return 0;
	for (off = 0; off + 64 <= len; off += 256) {
		if (memcmp(data + off, "\x7f" "ELF", 4))
			continue;
		r = image(k, addr + off, data + off, len - off);
		if (r < 0)
			return -1;
		found += r;
	}
	return found;
}

const char *
kfd_kernels_name(const struct kfd_kernels *k, uint64_t kernel_object)
{
	size_t i;

	for (i = 0; k && i < k->n; i++)
		if (k->v[i].kd == kernel_object)
			return k->v[i].name;
	return NULL;
}

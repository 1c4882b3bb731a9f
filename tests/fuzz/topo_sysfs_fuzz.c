/* SPDX-License-Identifier: MIT */
/*
 * libFuzzer target: the thunk's reading of the kernel's topology
 * (thunk/topo*.c), the trace tools' (kt_topo_parse()) and the sysfs
 * properties parser both use (formats/common). The input is a
 * small file tree,
 *
 *	@@ topology/generation_id
 *	1
 *	@@ topology/nodes/1/properties
 *	cpu_cores_count 0
 *	...
 *
 * (each "@@ PATH" line starts a file; its contents run to the next line
 * starting with "@@ "), written under a private directory: topology/ is
 * the KFD sysfs tree, cpuinfo stands for /proc/cpuinfo and sys/ for
 * /sys/devices/system (CPU caches). Then:
 *  - the common sysfs properties parser (kc_sysfs_next() and
 *    kc_sysfs_props_lookup(), kfdtrace/common/sysfs_props.h) and the
 *    thunk's policy over it (kmt_sysfs_parse_props()) parse every file's
 *    text and the whole input;
 *  - kmt_topo_build() reads the tree into a snapshot, as hsaKmtOpenKFD()
 *    and hsaKmtAcquireSystemProperties() do, and every array of a
 *    snapshot it accepts is read to its stated length;
 *  - kt_topo_parse() reads the same files from memory, unterminated, as
 *    a TOPOLOGY record holds them.
 * Paths are checked before anything is written: plain names only, no
 * "..", nothing outside the directory.
 *
 * Run e.g.: ./topo_sysfs_fuzz -max_len=65536 new_corpus/ tests/fuzz/corpus/topo_sysfs/
 */
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "kfdtrace/common/sysfs_props.h"
#include "kfdtrace/topology.h"
#include "topology/topo.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define MAX_FILES	128
#define MAX_DEPTH	10
#define MAX_PATH_LEN	200

static char root[256];

static int
rm_one(const char *path, const struct stat *sb, int flag, struct FTW *ftw)
{
	if (ftw->level > 0)
		remove(path);
	return 0;
}

/* Empty the private directory (made on first use). */
static bool
reset_root(void)
{
	if (!root[0]) {
		/* tmpfs when there is one: each input writes a few dozen files. */
		snprintf(root, sizeof(root), "%s/kt-topo-fuzz-%d-XXXXXX",
			 access("/dev/shm", W_OK) ? "/tmp" : "/dev/shm", (int)getpid());
		if (!mkdtemp(root)) {
			root[0] = '\0';
			return false;
		}
	}
	nftw(root, rm_one, 16, FTW_DEPTH | FTW_PHYS);
	return true;
}

static void __attribute__((destructor))
drop_root(void)
{
	if (root[0]) {
		nftw(root, rm_one, 16, FTW_DEPTH | FTW_PHYS);
		rmdir(root);
	}
}

/* A relative path of plain components ([A-Za-z0-9_.-], not "." or ".."). */
static bool
path_ok(const char *p, size_t n)
{
	size_t comp = 0;
	unsigned int depth = 1;

	if (!n || n > MAX_PATH_LEN || p[0] == '/')
		return false;
	for (size_t i = 0; i <= n; i++) {
		char c = i < n ? p[i] : '/';

		if (c == '/') {
			if (!comp || (comp == 1 && p[i - 1] == '.') ||
			    (comp == 2 && p[i - 1] == '.' && p[i - 2] == '.'))
				return false;
			if (++depth > MAX_DEPTH)
				return false;
			comp = 0;
			continue;
		}
		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
		      c == '_' || c == '.' || c == '-'))
			return false;
		comp++;
	}
	return true;
}

static void
write_file(const char *rel, size_t rel_len, const uint8_t *data, size_t len)
{
	char path[512];
	size_t at;
	int fd;

	at = (size_t)snprintf(path, sizeof(path), "%s/", root);
	memcpy(path + at, rel, rel_len);
	path[at + rel_len] = '\0';
	/* mkdir -p of the parents */
	for (size_t i = at; i < at + rel_len; i++) {
		if (path[i] == '/') {
			path[i] = '\0';
			mkdir(path, 0700);
			path[i] = '/';
		}
	}
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (fd < 0)
		return;
	while (len) {
		ssize_t w = write(fd, data, len);

		if (w <= 0)
			break;
		data += w;
		len -= (size_t)w;
	}
	close(fd);
}

static uint64_t sink;

static void
count_prop(void *arg, const char *name, unsigned long long value)
{
	sink += value + (unsigned char)name[0];
}

static void
parse_text(const uint8_t *data, size_t len)
{
	char *text = malloc(len + 1);

	if (!text)
		return;
	memcpy(text, data, len);
	text[len] = '\0';
	kmt_sysfs_parse_props(text, count_prop, NULL, NULL);
	free(text);
	/* Unterminated, as a TOPOLOGY record holds it: every line's parts. */
	{
		static const char *const names[] = { "size_in_bytes", "simd_count" };
		struct kc_sysfs_iter it;
		struct kc_sysfs_prop prop;
		enum kc_sysfs_line l;
		uint64_t vals[2] = { 0, 0 };

		kc_sysfs_iter_init(&it, data, len);
		while ((l = kc_sysfs_next(&it, &prop)) != KC_SYSFS_END) {
			sink += prop.value + prop.line_len + prop.text_len;
			if (prop.name)
				sink += (unsigned char)prop.name[prop.name_len - 1];
			if (l == KC_SYSFS_PROP && kc_sysfs_name_is(&prop, "type"))
				sink++;
		}
		kc_sysfs_props_lookup(data, len, names, 2, vals);
		sink += vals[0] + vals[1];
	}
}

/* Read every byte of a snapshot the reader accepted. */
static void
walk(const struct kmt_topology *t)
{
	for (uint32_t i = 0; i < t->n_nodes; i++) {
		const struct kmt_topo_node *n = &t->nodes[i];

		sink += n->gpu_id + n->props.NumCPUCores + n->props.NumFComputeCores;
		for (uint32_t k = 0; k < n->props.NumMemoryBanks; k++)
			sink += n->banks[k].SizeInBytes;
		for (uint32_t k = 0; k < n->props.NumCaches; k++)
			sink += n->caches[k].CacheSize + n->caches[k].SiblingMap[0];
		for (uint32_t k = 0; k < n->props.NumIOLinks; k++)
			sink += n->links[k].NodeTo + n->links[k].Weight;
	}
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const uint8_t *p = data, *end = data + size;
	char topo[300], cpuinfo[300], sys[300];
	static char paths[MAX_FILES][MAX_PATH_LEN + 1];
	static struct kt_topo_file kfiles[MAX_FILES];
	static struct kt_topo kt;
	struct kmt_topology *t = NULL;
	unsigned int files = 0;

	parse_text(data, size);
	if (!reset_root())
		return 0;
	/* Files: "@@ PATH\n" then contents up to the next line starting "@@ ". */
	while (p + 3 <= end && !memcmp(p, "@@ ", 3) && files < MAX_FILES) {
		const uint8_t *name = p + 3, *nl, *body, *next;

		nl = memchr(name, '\n', (size_t)(end - name));
		if (!nl)
			break;
		body = nl + 1;
		next = body;
		while (next < end) {
			const uint8_t *q = memchr(next, '\n', (size_t)(end - next));

			if (!q) {
				next = end;
				break;
			}
			next = q + 1;
			if (end - next >= 3 && !memcmp(next, "@@ ", 3))
				break;
		}
		if (path_ok((const char *)name, (size_t)(nl - name))) {
			write_file((const char *)name, (size_t)(nl - name), body,
				   (size_t)(next - body));
			parse_text(body, (size_t)(next - body));
			memcpy(paths[files], name, (size_t)(nl - name));
			paths[files][nl - name] = '\0';
			kfiles[files].path = paths[files];
			kfiles[files].data = body;
			kfiles[files].len = (uint32_t)(next - body);
			files++;
		}
		p = next;
	}
	if (kt_topo_parse(kfiles, files, &kt) == 0)
		sink += kt.ngpus + kt.nlinks + kt.nodes[0].vram_bytes;
	snprintf(topo, sizeof(topo), "%s/topology", root);
	snprintf(cpuinfo, sizeof(cpuinfo), "%s/cpuinfo", root);
	snprintf(sys, sizeof(sys), "%s/sys", root);
	/* As the API snapshot (CPU caches required) and as the open's. */
	for (int need_caches = 0; need_caches < 2; need_caches++) {
		if (kmt_topo_build(topo, cpuinfo, sys, false, need_caches, &t) ==
		    HSAKMT_STATUS_SUCCESS && t) {
			walk(t);
			kmt_topo_free(t);
		}
		t = NULL;
	}
	return 0;
}

/* SPDX-License-Identifier: MIT */
/*
 * Capturing a machine: the sysfs half. The topology files are turned into
 * profile text section by section (known keys only; a newer kernel's extra
 * keys are reported and left out), the GPU facts are appended by
 * capture_gpu.c, and the whole text goes through the profile parser, which
 * validates it and gives the caller the same structure a file would.
 */
#include <dirent.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "capture_priv.h"
#include "kfdtrace/common/sysfs_props.h"

void
cap_printf(struct cap_text *t, const char *fmt, ...)
{
	va_list ap;
	size_t need;
	int n;

	if (t->failed)
		return;
	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0) {
		t->failed = true;
		return;
	}
	need = t->len + (size_t)n + 1;
	if (need > t->cap) {
		size_t cap = t->cap ? t->cap : 4096;
		char *p;

		while (cap < need)
			cap *= 2;
		p = realloc(t->data, cap);
		if (!p) {
			t->failed = true;
			return;
		}
		t->data = p;
		t->cap = cap;
	}
	va_start(ap, fmt);
	vsnprintf(t->data + t->len, (size_t)n + 1, fmt, ap);
	va_end(ap);
	t->len += (size_t)n;
}

void
cap_error(struct cap_ctx *c, const char *fmt, ...)
{
	va_list ap;

	if (c->err[0])
		return;	/* keep the first */
	va_start(ap, fmt);
	vsnprintf(c->err, sizeof(c->err), fmt, ap);
	va_end(ap);
}

char *
cap_read_file(const char *path, size_t *len)
{
	size_t cap = 4096, n = 0;
	char *buf = malloc(cap), *p;
	FILE *f;

	if (!buf)
		return NULL;
	f = fopen(path, "re");
	if (!f) {
		free(buf);
		return NULL;
	}
	for (;;) {
		size_t got = fread(buf + n, 1, cap - n - 1, f);

		n += got;
		if (got == 0 || n + 1 < cap)
			break;
		cap *= 2;
		p = realloc(buf, cap);
		if (!p) {
			fclose(f);
			free(buf);
			return NULL;
		}
		buf = p;
	}
	fclose(f);
	buf[n] = '\0';
	if (len)
		*len = n;
	return buf;
}

int
cap_read_u64(const char *path, uint64_t *out)
{
	char *text = cap_read_file(path, NULL), *end;

	if (!text)
		return -1;
	errno = 0;
	*out = strtoull(text, &end, 0);
	if (end == text || errno) {
		free(text);
		return -1;
	}
	free(text);
	return 0;
}

bool
cap_prop(const char *text, const char *key, uint64_t *out)
{
	return text && kc_sysfs_prop_get(text, strlen(text), key, out);
}

/*
 * Copy the "key value" lines of an attribute file whose key is in @known,
 * in the file's order, as they are (a cache's sibling_map is a list, not a
 * number: the profile parser reads it). Unknown keys are named on stderr:
 * the profile format cannot carry them. Lines without a key and a value
 * are left out.
 */
static void
copy_keys(struct cap_ctx *c, const char *path, const char *text,
	  const char *const *known)
{
	struct kc_sysfs_iter it;
	struct kc_sysfs_prop prop;

	kc_sysfs_iter_init(&it, text, strlen(text));
	while (kc_sysfs_next(&it, &prop) != KC_SYSFS_END) {
		bool ok = false;

		if (!prop.name)
			continue;
		for (const char *const *k = known; *k; k++) {
			if (kc_sysfs_name_is(&prop, *k)) {
				ok = true;
				break;
			}
		}
		if (ok)
			cap_printf(&c->text, "%.*s\n", (int)prop.line_len, prop.line);
		else
			fprintf(stderr, "kfdtrace: %s: key '%.*s' is not part of the "
				"profile format; left out\n", path, (int)prop.name_len,
				prop.name);
	}
}

static const char *const mem_bank_keys[] = {
	"heap_type", "size_in_bytes", "flags", "width", "mem_clk_max", NULL,
};

static const char *const cache_keys[] = {
	"processor_id_low", "level", "size", "cache_line_size", "cache_lines_per_tag",
	"association", "latency", "type", "sibling_map", NULL,
};

static const char *const link_keys[] = {
	"type", "version_major", "version_minor", "node_from", "node_to", "weight",
	"min_latency", "max_latency", "min_bandwidth", "max_bandwidth",
	"recommended_transfer_size", "recommended_sdma_engine_id_mask", "flags", NULL,
};

/* Count the numbered entries of a directory (0..N-1 in sysfs). */
static int
count_entries(const char *dir)
{
	struct dirent *de;
	int n = 0;
	DIR *d = opendir(dir);

	if (!d)
		return -1;
	while ((de = readdir(d)) != NULL)
		if (strcmp(de->d_name, ".") && strcmp(de->d_name, ".."))
			n++;
	closedir(d);
	return n;
}

static int
capture_sub(struct cap_ctx *c, unsigned int node, const char *kind, const char *section,
	    const char *const *keys)
{
	char dir[512], path[600];
	int n;

	snprintf(dir, sizeof(dir), "%s/nodes/%u/%s", c->root, node, kind);
	n = count_entries(dir);
	if (n < 0)
		return 0;	/* older kernels have no p2p_links directory */
	for (int i = 0; i < n; i++) {
		char *text;

		snprintf(path, sizeof(path), "%s/%d/properties", dir, i);
		text = cap_read_file(path, NULL);
		if (!text) {
			cap_error(c, "%s: %s", path, strerror(errno));
			return -1;
		}
		cap_printf(&c->text, "\n[node %u %s %d]\n", node, section, i);
		copy_keys(c, path, text, keys);
		free(text);
	}
	return 0;
}

static int
capture_node(struct cap_ctx *c, unsigned int node)
{
	const struct ksim_node_prop_desc *table = ksim_node_prop_table();
	char path[512], *props, *name;
	const char *known[KSIM_NP_COUNT + 1];
	uint64_t gpu_id;
	size_t len;

	snprintf(path, sizeof(path), "%s/nodes/%u/gpu_id", c->root, node);
	if (cap_read_u64(path, &gpu_id) < 0) {
		cap_error(c, "%s: cannot read", path);
		return -1;
	}
	snprintf(path, sizeof(path), "%s/nodes/%u/name", c->root, node);
	name = cap_read_file(path, &len);
	if (!name) {
		cap_error(c, "%s: %s", path, strerror(errno));
		return -1;
	}
	if (len && name[len - 1] == '\n')
		name[len - 1] = '\0';
	snprintf(path, sizeof(path), "%s/nodes/%u/properties", c->root, node);
	props = cap_read_file(path, NULL);
	if (!props) {
		cap_error(c, "%s: %s", path, strerror(errno));
		free(name);
		return -1;
	}
	cap_printf(&c->text, "\n[node %u]\ngpu_id %llu\nname \"%s\"\n", node,
		   (unsigned long long)gpu_id, name);
	free(name);
	for (int i = 0; i < KSIM_NP_COUNT; i++)
		known[i] = table[i].name;
	known[KSIM_NP_COUNT] = NULL;
	copy_keys(c, path, props, known);

	if (capture_sub(c, node, "mem_banks", "mem_bank", mem_bank_keys) < 0 ||
	    capture_sub(c, node, "caches", "cache", cache_keys) < 0 ||
	    capture_sub(c, node, "io_links", "io_link", link_keys) < 0 ||
	    capture_sub(c, node, "p2p_links", "p2p_link", link_keys) < 0) {
		free(props);
		return -1;
	}
	if (gpu_id && cap_gpu(c, node, (uint32_t)gpu_id, props) < 0) {
		free(props);
		return -1;
	}
	free(props);
	return 0;
}

static void
capture_machine(struct cap_ctx *c, const char *name)
{
	char path[512], host[256] = "this machine";
	uint64_t gen = 0;
	struct utsname u;
	char *sysprops;

	if (gethostname(host, sizeof(host) - 1) < 0)
		strcpy(host, "this machine");
	host[sizeof(host) - 1] = '\0';
	if (uname(&u) < 0)
		strcpy(u.release, "?");
	cap_printf(&c->text, "# captured by kfdtrace sim --save-profile\n[machine]\n"
		   "name \"%s\"\ndescription \"captured on %.60s (Linux %.40s)\"\n",
		   name, host, u.release);
	snprintf(path, sizeof(path), "%s/system_properties", c->root);
	sysprops = cap_read_file(path, NULL);
	if (sysprops) {
		static const char *const keys[] = {
			"platform_oem", "platform_id", "platform_rev", NULL,
		};

		copy_keys(c, path, sysprops, keys);
		free(sysprops);
	}
	snprintf(path, sizeof(path), "%s/generation_id", c->root);
	if (cap_read_u64(path, &gen) == 0)
		cap_printf(&c->text, "generation_id %llu\n", (unsigned long long)gen);
}

struct ksim_profile *
ksim_capture_profile(const char *name, char **err)
{
	struct ksim_profile *prof = NULL;
	struct cap_ctx c = { .root = KSIM_CAPTURE_TOPOLOGY, .kfd_fd = -1 };
	struct cap_text cpu = { 0 }, full = { 0 };
	char path[512], *perr = NULL;
	size_t machine_len;
	int nodes;

	snprintf(path, sizeof(path), "%s/nodes", c.root);
	nodes = count_entries(path);
	if (nodes <= 0) {
		cap_error(&c, "no KFD topology at %s (no amdgpu driver with KFD on this "
			  "machine?)", c.root);
		goto out;
	}
	capture_machine(&c, name);
	machine_len = c.text.len;
	for (int i = 0; i < nodes; i++)
		if (capture_node(&c, (unsigned int)i) < 0)
			goto out;
	if (c.text.failed) {
		cap_error(&c, "out of memory");
		goto out;
	}
	/* The CPU sections go after [machine]. */
	if (!c.text.failed && cap_cpu(&cpu, "") == 0 && !cpu.failed) {
		cap_printf(&full, "%.*s%s%s", (int)machine_len, c.text.data,
			   cpu.data, c.text.data + machine_len);
		if (!full.failed)
			prof = ksim_profile_parse(full.data, full.len, "<captured>", &perr);
		if (!prof && perr)
			/*
			 * Say why, and keep the rest: e.g. a host whose APIC IDs
			 * have gaps cannot be described by a [cpu] section.
			 */
			fprintf(stderr, "kfdtrace: the CPUs of this machine do not fit "
				"the profile format (%s); the profile derives them "
				"from its KFD CPU nodes\n", perr);
		free(perr);
		perr = NULL;
	}
	if (!prof)
		prof = ksim_profile_parse(c.text.data, c.text.len, "<captured>", &perr);
	if (!prof)
		cap_error(&c, "the captured machine does not form a valid profile: %s",
			  perr ? perr : "out of memory");
	free(perr);
out:
	cap_gpu_finish(&c);
	free(c.text.data);
	free(cpu.data);
	free(full.data);
	if (!prof && err)
		*err = strdup(c.err[0] ? c.err : "capture failed");
	return prof;
}

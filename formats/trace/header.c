/* SPDX-License-Identifier: MIT */
/*
 * The header frame (docs/trace-format.md section 3): filling it from the
 * running process, and its encoding.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "trace_internal.h"

#ifndef KT_PACKAGE_VERSION
#define KT_PACKAGE_VERSION "unknown"
#endif

static uint64_t
kt_clock_ns(clockid_t id)
{
	struct timespec ts;

	if (clock_gettime(id, &ts))
		return 0;
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static void
kt_strlcpy(char *dst, const char *src, size_t size)
{
	size_t n = strnlen(src, size - 1);

	memcpy(dst, src, n);
	dst[n] = '\0';
}

/* Read up to @cap bytes of a /proc file; the file may be longer. */
static size_t
kt_read_proc(const char *path, char *buf, size_t cap)
{
	size_t got = 0;
	int fd;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 0;
	while (got < cap) {
		ssize_t n = read(fd, buf + got, cap - got);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		got += (size_t)n;
	}
	close(fd);
	return got;
}

int
kt_run_cmdline_encode(char *buf, size_t size, char *const *argv)
{
	const size_t keep = sizeof(((struct kt_header *)0)->run_cmdline);
	size_t raw = 0, n = 0;
	const char *a;

	for (; *argv; argv++) {
		/* Whole arguments only, as many as the header keeps. */
		if (raw + strlen(*argv) + 1 > keep)
			break;
		for (a = *argv;; a++) {
			const char *esc = !*a ? "%00" : *a == '%' ? "%25" : NULL;
			size_t len = esc ? 3 : 1;

			if (n + len >= size)
				return -1;
			memcpy(buf + n, esc ? esc : a, len);
			n += len;
			raw++;
			if (!*a)
				break;
		}
	}
	if (n >= size)
		return -1;
	buf[n] = '\0';
	return 0;
}

uint32_t
kt_run_cmdline_decode(const char *env, char *out, size_t size)
{
	uint32_t n = 0;

	for (; *env && n < size; env++) {
		if (env[0] == '%' && env[1] == '0' && env[2] == '0') {
			out[n++] = '\0';
			env += 2;
		} else if (env[0] == '%' && env[1] == '2' && env[2] == '5') {
			out[n++] = '%';
			env += 2;
		} else {
			out[n++] = *env;
		}
	}
	return n;
}

/* The run's facts `kfdtrace record` left in the environment. */
static void
kt_header_run_env(struct kt_header *hdr)
{
	const char *cmd = getenv(KT_ENV_RUN_CMDLINE);
	const char *start = getenv(KT_ENV_RUN_START);

	if (cmd)
		hdr->run_cmdline_len = kt_run_cmdline_decode(cmd,
				hdr->run_cmdline, sizeof(hdr->run_cmdline));
	if (start)
		hdr->run_start = strtoull(start, NULL, 10);
}

void
kt_header_init(struct kt_header *hdr, const char *producer)
{
	struct utsname uts;
	ssize_t n;

	memset(hdr, 0, sizeof(*hdr));
	hdr->format_major = KT_FORMAT_MAJOR;
	hdr->format_minor = KT_FORMAT_MINOR;
	kt_strlcpy(hdr->producer, producer ? producer : "", sizeof(hdr->producer));
	kt_strlcpy(hdr->producer_version, KT_PACKAGE_VERSION,
		   sizeof(hdr->producer_version));
	if (uname(&uts) == 0) {
		kt_strlcpy(hdr->host, uts.nodename, sizeof(hdr->host));
		kt_strlcpy(hdr->kernel_release, uts.release,
			   sizeof(hdr->kernel_release));
	}
	hdr->pid = getpid();
	hdr->ppid = getppid();
	n = readlink("/proc/self/exe", hdr->exe, sizeof(hdr->exe) - 1);
	hdr->exe[n > 0 ? n : 0] = '\0';
	hdr->cmdline_len = (uint32_t)kt_read_proc("/proc/self/cmdline",
						  hdr->cmdline,
						  sizeof(hdr->cmdline));
	hdr->start_monotonic = kt_clock_ns(CLOCK_MONOTONIC);
	hdr->start_realtime = kt_clock_ns(CLOCK_REALTIME);
	hdr->start_boottime = kt_clock_ns(CLOCK_BOOTTIME);
	kt_header_run_env(hdr);
}

void
kt_header_ts_range(const struct kt_header *hdr, uint64_t *lo, uint64_t *hi)
{
	uint64_t s = hdr->start_monotonic, r = hdr->start_realtime;
	uint64_t top = INT64_MAX;

	if (r > (uint64_t)INT64_MAX) {
		*lo = 1;
		*hi = 0;
		return;
	}
	/* start_realtime 0 is "no wall-clock reading": no bound from it. */
	if (r > s)
		top -= r - s;
	*lo = s > KT_TS_EARLY ? s - KT_TS_EARLY : 0;
	*hi = s > top || top - s < KT_TS_SPAN ? top : s + KT_TS_SPAN;
}

static uint8_t *
kt_put_hstr(uint8_t *p, const char *s, size_t field_size)
{
	size_t n = strnlen(s, field_size - 1);

	kt_put_le16(p, (uint16_t)n);
	memcpy(p + 2, s, n);
	return p + 2 + n;
}

size_t
kt_header_encode(const struct kt_header *hdr, uint8_t *out, size_t cap)
{
	uint8_t *payload = out + 8, *p;
	uint32_t cmdline_len;
	size_t size;

	if (cap < KT_HDR_FRAME_MAX)
		return 0;
	memcpy(payload, KT_TAG_HEADER, KT_TAG_LEN);
	kt_put_le16(payload + 8, KT_FORMAT_MAJOR);
	kt_put_le16(payload + 10, KT_FORMAT_MINOR);
	kt_put_le32(payload + 12, hdr->flags);
	kt_put_le32(payload + 16, hdr->kfd_major);
	kt_put_le32(payload + 20, hdr->kfd_minor);
	kt_put_le32(payload + 24, (uint32_t)hdr->pid);
	kt_put_le32(payload + 28, (uint32_t)hdr->ppid);
	kt_put_le64(payload + 32, hdr->start_monotonic);
	kt_put_le64(payload + 40, hdr->start_realtime);
	kt_put_le64(payload + 48, hdr->start_boottime);
	p = payload + KT_HDR_FIXED_SIZE;
	p = kt_put_hstr(p, hdr->producer, sizeof(hdr->producer));
	p = kt_put_hstr(p, hdr->producer_version, sizeof(hdr->producer_version));
	p = kt_put_hstr(p, hdr->host, sizeof(hdr->host));
	p = kt_put_hstr(p, hdr->kernel_release, sizeof(hdr->kernel_release));
	p = kt_put_hstr(p, hdr->exe, sizeof(hdr->exe));
	cmdline_len = hdr->cmdline_len;
	if (cmdline_len > sizeof(hdr->cmdline))
		cmdline_len = sizeof(hdr->cmdline);
	kt_put_le16(p, (uint16_t)cmdline_len);
	memcpy(p + 2, hdr->cmdline, cmdline_len);
	p += 2 + cmdline_len;
	/* Minor 5: the run's command and start. */
	cmdline_len = hdr->run_cmdline_len;
	if (cmdline_len > sizeof(hdr->run_cmdline))
		cmdline_len = sizeof(hdr->run_cmdline);
	kt_put_le16(p, (uint16_t)cmdline_len);
	memcpy(p + 2, hdr->run_cmdline, cmdline_len);
	p += 2 + cmdline_len;
	kt_put_le64(p, hdr->run_start);
	p += 8;
	kt_put_le32(p, kt_crc32(payload, (size_t)(p - payload)));
	p += 4;
	size = (size_t)(p - out);
	kt_put_le32(out, KT_SKIP_MAGIC);
	kt_put_le32(out + 4, (uint32_t)(size - 8));
	return size;
}

/*
 * Copy a u16-length string into a fixed field, cutting it to the field:
 * later writers may store longer strings (section 3).
 */
static bool
kt_get_hstr(const uint8_t **pp, const uint8_t *end, char *dst, size_t size,
	    uint32_t *len_out)
{
	const uint8_t *p = *pp;
	size_t n, keep;

	if (end - p < 2)
		return false;
	n = kt_get_le16(p);
	p += 2;
	if ((size_t)(end - p) < n)
		return false;
	keep = n < size - 1 ? n : size - 1;
	if (len_out) {
		/* cmdline is binary (NUL-separated): keep the full field. */
		keep = n < size ? n : size;
		*len_out = (uint32_t)keep;
	}
	memcpy(dst, p, keep);
	if (keep < size)
		dst[keep] = '\0';
	*pp = p + n;
	return true;
}

int
kt_header_decode(const uint8_t *data, size_t size, struct kt_header *hdr,
		 size_t *data_start, const char **why)
{
	static const uint8_t magic[4] = { 0x5B, 0x2A, 0x4D, 0x18 };
	const uint8_t *payload, *p, *end;
	uint32_t psize;
	uint16_t major;

	memset(hdr, 0, sizeof(*hdr));
	if (size == 0) {
		*why = "empty file";
		return -KT_ETRUNC;
	}
	if (size < 4) {
		*why = "the file ends inside the header's magic";
		return memcmp(data, magic, size) ? -KT_ENOTTRACE : -KT_ETRUNC;
	}
	if (memcmp(data, magic, 4)) {
		*why = "no kfdtrace magic at offset 0";
		return -KT_ENOTTRACE;
	}
	if (size < 16) {
		size_t have = size > 8 ? size - 8 : 0;

		*why = "the file ends inside the header";
		if (have && memcmp(data + 8, KT_TAG_HEADER, have)) {
			*why = "no KFDTRACE tag at offset 8";
			return -KT_ENOTTRACE;
		}
		return -KT_ETRUNC;
	}
	if (memcmp(data + 8, KT_TAG_HEADER, KT_TAG_LEN)) {
		*why = "no KFDTRACE tag at offset 8";
		return -KT_ENOTTRACE;
	}
	psize = kt_get_le32(data + 4);
	if (psize > KT_MAX_HEADER_SIZE) {
		*why = "header size beyond 64 KiB";
		return -KT_ECORRUPT;
	}
	if (psize < KT_HDR_FIXED_SIZE + 4) {
		*why = "header shorter than its fixed fields";
		return -KT_ECORRUPT;
	}
	if (size - 8 < psize) {
		*why = "the file ends inside the header";
		return -KT_ETRUNC;
	}
	payload = data + 8;
	if (!kt_skip_check(payload, psize)) {
		*why = "header CRC mismatch";
		return -KT_ECORRUPT;
	}
	major = kt_get_le16(payload + 8);
	if (major == 0) {
		*why = "format major version 0";
		return -KT_ECORRUPT;
	}
	if (major != KT_FORMAT_MAJOR) {
		*why = "format major version newer than this reader";
		return -KT_EVERSION;
	}
	hdr->format_major = major;
	hdr->format_minor = kt_get_le16(payload + 10);
	hdr->flags = kt_get_le32(payload + 12);
	hdr->kfd_major = kt_get_le32(payload + 16);
	hdr->kfd_minor = kt_get_le32(payload + 20);
	hdr->pid = (int32_t)kt_get_le32(payload + 24);
	hdr->ppid = (int32_t)kt_get_le32(payload + 28);
	hdr->start_monotonic = kt_get_le64(payload + 32);
	hdr->start_realtime = kt_get_le64(payload + 40);
	hdr->start_boottime = kt_get_le64(payload + 48);
	p = payload + KT_HDR_FIXED_SIZE;
	end = payload + psize - 4;
	if (!kt_get_hstr(&p, end, hdr->producer, sizeof(hdr->producer), NULL) ||
	    !kt_get_hstr(&p, end, hdr->producer_version,
			 sizeof(hdr->producer_version), NULL) ||
	    !kt_get_hstr(&p, end, hdr->host, sizeof(hdr->host), NULL) ||
	    !kt_get_hstr(&p, end, hdr->kernel_release,
			 sizeof(hdr->kernel_release), NULL) ||
	    !kt_get_hstr(&p, end, hdr->exe, sizeof(hdr->exe), NULL) ||
	    !kt_get_hstr(&p, end, hdr->cmdline, sizeof(hdr->cmdline),
			 &hdr->cmdline_len)) {
		*why = "header string runs past the header";
		return -KT_ECORRUPT;
	}
	/* Fields of minor 5, when the writer was that new. */
	if (p < end && (!kt_get_hstr(&p, end, hdr->run_cmdline,
				     sizeof(hdr->run_cmdline),
				     &hdr->run_cmdline_len) ||
			end - p < 8)) {
		*why = "header run fields run past the header";
		return -KT_ECORRUPT;
	}
	if (end - p >= 8)
		hdr->run_start = kt_get_le64(p);
	if (hdr->flags & KT_HDR_REQUIRED_MASK) {
		*why = "header has required flags this reader does not know";
		return -KT_EVERSION;
	}
	*data_start = 8 + (size_t)psize;
	return 0;
}

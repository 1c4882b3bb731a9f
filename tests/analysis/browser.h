/* SPDX-License-Identifier: MIT */
/*
 * Headless Chromium for the report tests: load a page from a file offline
 * and dump its DOM or take a screenshot, then read the PNG back. Include
 * after analysis_util.h.
 */
#ifndef KFDTRACE_ANALYSIS_BROWSER_H
#define KFDTRACE_ANALYSIS_BROWSER_H

#include "png_decode.h"

/*
 * browse() - run @chromium on file @page with @what ("--dump-dom",
 * "--screenshot=PATH") and an optional @size ("--window-size=W,H"), with
 * a private profile and no network. It must exit 0.
 */
static inline void
browse(const char *chromium, const char *page, const char *what,
       const char *size, struct tc_run *res)
{
	static const char *const flags[] = {
		"--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
		"--no-first-run", "--disable-background-networking",
		"--disable-component-update", "--disable-sync",
		"--hide-scrollbars",
	};
	char profile[300], url[300], *argv[16];
	size_t i, n = 0;

	snprintf(profile, sizeof(profile), "--user-data-dir=%s",
		 tmp_path("chromium"));
	snprintf(url, sizeof(url), "file://%s", page);
	argv[n++] = (char *)chromium;
	for (i = 0; i < sizeof(flags) / sizeof(flags[0]); i++)
		argv[n++] = (char *)flags[i];
	argv[n++] = profile;
	argv[n++] = (char *)what;
	if (size)
		argv[n++] = (char *)size;
	argv[n++] = url;
	argv[n] = NULL;
	assert_int_equal(tc_run(argv, res), 0);
	if (res->status != 0)
		print_message("chromium: %s\n", res->err);
	assert_int_equal(res->status, 0);
}

/* read_png() - decode the PNG file @path into @img (it must be one). */
static inline void
read_png(const char *path, struct png_image *img)
{
	size_t len;
	uint8_t *data = (uint8_t *)tc_read_file(path, &len);

	assert_non_null(data);
	assert_int_equal(png_decode(data, len, img), 0);
	free(data);
}

/* has_color() - at least @min pixels of @img are exactly @rgb. */
static inline int
has_color(const struct png_image *img, uint32_t rgb, size_t min)
{
	size_t i, n = 0;

	for (i = 0; i < (size_t)img->w * img->h; i++) {
		const uint8_t *p = img->rgba + i * 4;

		if (((uint32_t)p[0] << 16 | (uint32_t)p[1] << 8 | p[2]) == rgb &&
		    ++n >= min)
			return 1;
	}
	return 0;
}

#endif

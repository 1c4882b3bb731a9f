/* SPDX-License-Identifier: MIT */
/*
 * Configuration and the one simulated device of the process.
 *
 * Everything is created on first need, not in a constructor: most processes
 * that inherit LD_PRELOAD (a shell, grep) never touch the device, and a
 * wrapper may run before our constructors anyway.
 *
 * Environment:
 *   KFDSIM_PROFILE	builtin profile name or profile file (default: the
 *			model's default builtin)
 *   KFDSIM_ABI		KFD ABI to emulate, "1.N" or "N"
 *   KFDSIM_MACHINE	the machine the process runs on (its state file
 *			/dev/shm/kfdsim-<ID>), read by the model itself;
 *			checked here so a bad name is reported clearly.
 *			`kfdtrace sim` sets it for every process of a run
 *   KFDSIM_KERNEL	kernel flavour, "upstream" or "rocm" (read by the
 *			model; checked here so a typo is reported clearly)
 *   KFDSIM_FAULTS	fault mode rules, read by the model itself (checked
 *			here so that a bad spec is reported once)
 *   KFDSIM_DEBUG	1: log virtual opens and device ioctls to stderr
 */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ksim.h"
#include "shim.h"

int ksim_debug_level;

static pthread_once_t state_once = PTHREAD_ONCE_INIT;
static pthread_once_t dev_once = PTHREAD_ONCE_INIT;
static struct ksim_profile *state_prof;
static unsigned int state_abi;
static struct ksim_opts state_opts;
static struct ksim_vfs *state_vfs;
static struct ksim_device *state_dev;
static bool state_ready, dev_ready;

void
ksim_log(const char *fmt, ...)
{
	char line[1024];
	va_list ap;
	int n, m;

	n = snprintf(line, sizeof(line), "kfdsim[%d]: ", (int)getpid());
	va_start(ap, fmt);
	m = vsnprintf(line + n, sizeof(line) - (size_t)n, fmt, ap);
	va_end(ap);
	if (m < 0)
		return;
	n += m;
	if ((size_t)n >= sizeof(line))
		n = sizeof(line) - 1;
	/* No stdio: the caller may hold stdio locks, and we may be mid-fork. */
	if (write(STDERR_FILENO, line, (size_t)n) < 0)
		return;
}

/* "1.11" or "11" -> 11; 0 when unset; -1 when malformed. */
static int
parse_abi(const char *s)
{
	char *end;
	unsigned long major = 1, minor;

	if (!s || !*s)
		return 0;
	minor = strtoul(s, &end, 10);
	if (end == s)
		return -1;
	if (*end == '.') {
		major = minor;
		s = end + 1;
		minor = strtoul(s, &end, 10);
		if (end == s)
			return -1;
	}
	if (*end || major != 1 || minor < KSIM_ABI_MINOR_MIN || minor > KSIM_ABI_MINOR_MAX)
		return -1;
	return (int)minor;
}

/*
 * The tree needs only the profile; the device (which may map a shared
 * registry and raises RLIMIT_NOFILE) is created at the first device open.
 */
static void
state_init(void)
{
	const char *prof_name = getenv("KFDSIM_PROFILE");
	const char *abi = getenv("KFDSIM_ABI");
	const char *dbg = getenv("KFDSIM_DEBUG");
	const char *kernel, *faults, *machine;
	char *err = NULL, msg[160];
	int minor;

	ksim_in_shim++;
	ksim_real_init();
	if (dbg && *dbg)
		ksim_debug_level = atoi(dbg) > 0 ? atoi(dbg) : 1;

	minor = parse_abi(abi);
	if (minor == 0)
		minor = parse_abi(getenv(KSIM_ENV_ABI_MINOR));
	if (minor < 0) {
		ksim_log("KFDSIM_ABI=%s: expected 1.%d .. 1.%d; no device\n", abi,
			 KSIM_ABI_MINOR_MIN, KSIM_ABI_MINOR_MAX);
		goto out;
	}
	state_abi = minor ? (unsigned int)minor : KSIM_ABI_MINOR_DEFAULT;
	state_opts.abi_minor = state_abi;
	kernel = getenv(KSIM_ENV_KERNEL);
	if (kernel && *kernel && ksim_kernel_parse(kernel) < 0) {
		ksim_log("KFDSIM_KERNEL=%s: expected upstream or rocm; no device\n",
			 kernel);
		goto out;
	}
	machine = getenv(KSIM_ENV_MACHINE);
	if (machine && *machine && ksim_machine_name_check(machine)) {
		ksim_log("KFDSIM_MACHINE=%s: expected 1 to %d of [A-Za-z0-9_.-], "
			 "not starting with '.'; no device\n", machine,
			 KSIM_MACHINE_ID_MAX);
		goto out;
	}
	faults = getenv(KSIM_ENV_FAULTS);
	if (ksim_faults_check_spec(faults, msg, sizeof(msg))) {
		/* The message quotes the bad part, escaped; the spec itself
		 * may be long and hold any byte. */
		ksim_log("KFDSIM_FAULTS: %s; no device\n", msg);
		goto out;
	}

	if (prof_name && *prof_name)
		state_prof = ksim_profile_load(prof_name, &err);
	else
		state_prof = ksim_profile_builtin(NULL);
	if (!state_prof) {
		ksim_log("cannot load profile %s: %s; no device\n",
			 prof_name && *prof_name ? prof_name : "(default)",
			 err ? err : "out of memory");
		free(err);
		goto out;
	}
	state_vfs = ksim_tree_build(state_prof, state_abi);
	if (!state_vfs) {
		ksim_log("out of memory building the device tree; no device\n");
		goto out;
	}
	ksim_dbg("profile %s, KFD ABI 1.%u\n", state_prof->name, state_abi);
	__atomic_store_n(&state_ready, true, __ATOMIC_RELEASE);
out:
	ksim_in_shim--;
}

static void
dev_init(void)
{
	int ret = 0;

	if (!ksim_state_vfs())
		return;
	ksim_in_shim++;
	state_dev = ksim_device_create(state_prof, &state_opts, &ret);
	if (!state_dev)
		ksim_log("cannot create the device: %s\n", strerror(-ret));
	else
		__atomic_store_n(&dev_ready, true, __ATOMIC_RELEASE);
	ksim_in_shim--;
}

struct ksim_vfs *
ksim_state_vfs(void)
{
	pthread_once(&state_once, state_init);
	return __atomic_load_n(&state_ready, __ATOMIC_ACQUIRE) ? state_vfs : NULL;
}

struct ksim_device *
ksim_state_device(void)
{
	pthread_once(&dev_once, dev_init);
	return __atomic_load_n(&dev_ready, __ATOMIC_ACQUIRE) ? state_dev : NULL;
}

struct ksim_device *
ksim_state_device_if_ready(void)
{
	return __atomic_load_n(&dev_ready, __ATOMIC_ACQUIRE) ? state_dev : NULL;
}

/* Whether path starts with the component comp ("dev" matches "dev" and "dev/x"). */
static bool
starts_with_component(const char *path, const char *comp, size_t len)
{
	return strncmp(path, comp, len) == 0 && (path[len] == '/' || path[len] == '\0');
}

bool
ksim_path_candidate(const char *path)
{
	if (!path || path[0] != '/')
		return false;
	while (*path == '/')
		path++;
	return starts_with_component(path, "dev", 3) || starts_with_component(path, "sys", 3) ||
	       starts_with_component(path, "proc", 4);
}

struct ksim_file *
ksim_state_open_device(const struct ksim_vnode *node, int oflags, int *err)
{
	struct ksim_device *dev = ksim_state_device();
	struct ksim_file *f;

	*err = 0;
	if (!dev) {
		*err = -ENODEV;
		return NULL;
	}
	ksim_in_shim++;
	if (node->devkind == KSIM_DEV_KFD)
		f = ksim_open_kfd(dev, oflags, err);
	else
		f = ksim_open_render(dev, node->dev_minor, oflags, err);
	ksim_in_shim--;
	if (!f && !*err)
		*err = -ENODEV;
	return f;
}

void
ksim_state_close_device(struct ksim_file *file)
{
	ksim_in_shim++;
	ksim_release(file);
	ksim_in_shim--;
}

/* SPDX-License-Identifier: MIT */
/*
 * The profile (profile.h): the file uaccess-tune writes, found in
 * $UACCESS_PROFILE, else $XDG_CONFIG_HOME/uaccess/profile or
 * ~/.config/uaccess/profile, else UA_SYSCONF_PROFILE; used only when its
 * cpu= line names this CPU.  Read when the dispatch table fills itself,
 * perhaps in a signal handler: no malloc, no stdio.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "config.h"
#include "cpu.h"
#include "profile.h"

static char ua_profile_path_buf[PATH_MAX];
static int ua_profile_used;

const char *
ua_profile_in_use(void)
{
	return ua_profile_used ? ua_profile_path_buf : NULL;
}

static int
ua_path_join(char *buf, size_t size, const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);

	if (la + lb + 1 > size) {
		/* What fits, to name it */
		la = la < size ? la : size - 1;
		memcpy(buf, a, la);
		buf[la] = 0;
		return -ENAMETOOLONG;
	}
	memcpy(buf, a, la);
	memcpy(buf + la, b, lb + 1);
	return 0;
}

const char ua_profile_system[] = UA_SYSCONF_PROFILE;

int
ua_profile_path(unsigned i, char *buf, size_t size)
{
	const char *env = secure_getenv("UACCESS_PROFILE");
	const char *xdg = secure_getenv("XDG_CONFIG_HOME");
	const char *home = secure_getenv("HOME");

	if (env)
		return i == 0 && *env ? ua_path_join(buf, size, env, "")
				      : -ENOENT;
	if (i == 0 && xdg && *xdg == '/')
		return ua_path_join(buf, size, xdg, "/uaccess/profile");
	if (i == 0 && home && *home == '/')
		return ua_path_join(buf, size, home,
				    "/.config/uaccess/profile");
	if (i == 0 || i == 1)
		return ua_path_join(buf, size, ua_profile_system, "");
	return -ENOENT;
}

/*
 * Read a whole small file: its length, or -errno; -EFBIG when it holds more
 * than size bytes (buf then holds the first size); -EISDIR for a directory
 * and -EINVAL for anything else that is not a regular file (a FIFO, a tty,
 * a device: reading one may block, or never end).
 */
static ssize_t
ua_read_file(const char *path, char *buf, size_t size)
{
	size_t got = 0;
	ssize_t r = 0;
	struct stat st;
	char more;
	int fd;

	/* Before the open, which blocks on a FIFO with no writer (an open
	 * waits only for a lease on a regular file to be given back) */
	if (stat(path, &st))
		return -errno;
	if (!S_ISREG(st.st_mode))
		return S_ISDIR(st.st_mode) ? -EISDIR : -EINVAL;
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY);
	if (fd < 0)
		return -errno;
	if (fstat(fd, &st) || !S_ISREG(st.st_mode)) { /* replaced since */
		close(fd);
		return -EINVAL;
	}
	while (got < size) {
		r = read(fd, buf + got, size - got);
		if (r <= 0)
			break;
		got += (size_t)r;
	}
	if (r > 0)
		r = read(fd, &more, 1) > 0 ? -EFBIG : 0;
	if (r < 0 && r != -EFBIG)
		r = -errno;
	close(fd);
	return r < 0 ? r : (ssize_t)got;
}

/*
 * The profile's "cpu=" line must name this CPU, or the profile was measured
 * elsewhere and is ignored.  Returns 1 if it does; 0 with the name it gives
 * in *ret_at, *ret_len if it does not; -1 without a cpu= line.
 */
static int
ua_profile_matches(const char *text, size_t len, size_t *ret_at,
		   size_t *ret_len)
{
	const struct ua_cpu *cpu = ua_cpu();
	char want[64];
	size_t i = 0, wl;

	wl = ua_cpu_id(want, sizeof(want), cpu);
	while (i < len) {
		struct ua_item it;

		/* split as every other line (tunables.c) */
		i = ua_item_next(text, len, i, '\n', &it);
		if (ua_item_is(text, &it, "cpu")) {
			*ret_at = it.value;
			*ret_len = it.value_len;
			return it.value_len == wl &&
			       !memcmp(text + it.value, want, wl);
		}
	}
	return -1;
}

/*
 * The first profile that can be read (ua_profile_path); what is in the way
 * of one is noted, but for a default place where there is no file.
 */
void
ua_profile_read(struct ua_policy *p, struct ua_ignored *ign)
{
	static char buf[UA_PROFILE_MAX];
	const char *env = secure_getenv("UACCESS_PROFILE");
	ssize_t len = -ENOENT;
	size_t at, l;
	unsigned i;
	int r;

	for (i = 0; len < 0 && len != -EFBIG; i++) {
		r = ua_profile_path(i, ua_profile_path_buf,
				    sizeof(ua_profile_path_buf));
		if (r == -ENOENT)
			return;
		len = r < 0
			  ? r
			  : ua_read_file(ua_profile_path_buf, buf, sizeof(buf));
		/* No file at a default place is no news */
		if (len < 0 && len != -EFBIG && (env || len != -ENOENT))
			ua_ignored_note(ign, UA_IN_PROFILE, UA_IGN_UNREADABLE,
					-1, 0, (int)-len, ua_profile_path_buf,
					strlen(ua_profile_path_buf));
	}
	ign->profile = ua_profile_path_buf;
	if (len == -EFBIG) {
		/* The lines that fit; the one cut short goes with the rest */
		unsigned line = 1;

		for (len = sizeof(buf); len > 0 && buf[len - 1] != '\n'; len--)
			;
		for (at = 0; at < (size_t)len; at++)
			line += buf[at] == '\n';
		ua_ignored_note(ign, UA_IN_PROFILE, UA_IGN_TOO_LONG, -1, line,
				0, buf + len, sizeof(buf) - (size_t)len);
	}
	r = ua_profile_matches(buf, (size_t)len, &at, &l);
	if (r <= 0) {
		ua_ignored_note(ign, UA_IN_PROFILE,
				r ? UA_IGN_NO_CPU : UA_IGN_OTHER_CPU, -1, 0, 0,
				buf + (r ? 0 : at), r ? 0 : l);
		return;
	}
	ua_profile_used = 1;
	ua_policy_parse(p, buf, (size_t)len, '\n', UA_FROM_PROFILE, ign);
}

/* SPDX-License-Identifier: MIT */
/*
 * The profile (profile.h): the file uaccess-tune writes, found in
 * $UACCESS_PROFILE, else $XDG_CONFIG_HOME/uaccess/profile or
 * ~/.config/uaccess/profile, else UA_SYSCONF_PROFILE; used only when its
 * cpu= line names this CPU.  Read when the dispatch table fills itself,
 * perhaps in a signal handler: no malloc, no stdio.
 */
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "config.h"
#include "cpu.h"
#include "profile.h"

static char ua_profile_path[PATH_MAX];
static int ua_profile_used;

const char *
ua_profile_in_use(void)
{
	return ua_profile_used ? ua_profile_path : NULL;
}

static int
ua_path_join(char *buf, size_t size, const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);

	if (la + lb + 1 > size)
		return -1;
	memcpy(buf, a, la);
	memcpy(buf + la, b, lb + 1);
	return 0;
}

/* Read a whole small file; -1 if it cannot be read */
static ssize_t
ua_read_file(const char *path, char *buf, size_t size)
{
	size_t got = 0;
	int fd;

	fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY);
	if (fd < 0)
		return -1;
	while (got < size) {
		ssize_t r = read(fd, buf + got, size - got);

		if (r < 0) {
			close(fd);
			return -1;
		}
		if (r == 0)
			break;
		got += (size_t)r;
	}
	close(fd);
	return (ssize_t)got;
}

/*
 * The profile's "cpu=" line must name this CPU, or the profile was measured
 * elsewhere and is ignored.
 */
static int
ua_profile_matches(const char *text, size_t len)
{
	const struct ua_cpu *cpu = ua_cpu();
	char want[64];
	size_t i = 0, wl;

	wl = ua_cpu_id(want, sizeof(want), cpu);
	while (i < len) {
		size_t end = i;

		while (end < len && text[end] != '\n')
			end++;
		if (end - i >= 4 && !memcmp(text + i, "cpu=", 4)) {
			size_t l = end - i - 4;

			while (l && (text[i + 4 + l - 1] == ' ' ||
				     text[i + 4 + l - 1] == '\r'))
				l--;
			return l == wl && !memcmp(text + i + 4, want, wl);
		}
		i = end + 1;
	}
	return 0;
}

void
ua_profile_read(struct ua_policy *p)
{
	static char buf[16384];
	const char *env = secure_getenv("UACCESS_PROFILE");
	const char *xdg = secure_getenv("XDG_CONFIG_HOME");
	const char *home = secure_getenv("HOME");
	ssize_t len = -1;

	if (env) {
		if (!*env || ua_path_join(ua_profile_path,
					  sizeof(ua_profile_path), env, ""))
			return;
		len = ua_read_file(ua_profile_path, buf, sizeof(buf));
	} else {
		if (xdg && *xdg == '/' &&
		    !ua_path_join(ua_profile_path, sizeof(ua_profile_path), xdg,
				  "/uaccess/profile"))
			len = ua_read_file(ua_profile_path, buf, sizeof(buf));
		else if (home && *home == '/' &&
			 !ua_path_join(ua_profile_path, sizeof(ua_profile_path),
				       home, "/.config/uaccess/profile"))
			len = ua_read_file(ua_profile_path, buf, sizeof(buf));
		if (len < 0) {
			ua_path_join(ua_profile_path, sizeof(ua_profile_path),
				     UA_SYSCONF_PROFILE, "");
			len = ua_read_file(ua_profile_path, buf, sizeof(buf));
		}
	}
	if (len < 0 || !ua_profile_matches(buf, (size_t)len))
		return;
	ua_profile_used = 1;
	ua_policy_parse(p, buf, (size_t)len, '\n', UA_FROM_PROFILE);
}

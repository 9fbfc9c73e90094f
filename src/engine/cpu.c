/* SPDX-License-Identifier: MIT */
/*
 * The CPU this process runs on, detected once by the architecture's hook;
 * the cache sizes it cannot tell come from sysfs.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdatomic.h>
#include <string.h>
#include <unistd.h>

#include "cpu.h"

static struct ua_cpu ua_cpu_info;
static atomic_int ua_cpu_done;

/* A small sysfs file of cpu0's cache index i into buf; its length or -1 */
static ssize_t
ua_cache_attr(unsigned i, const char *attr, char *buf, size_t size)
{
	static const char dir[] = "/sys/devices/system/cpu/cpu0/cache/index";
	char path[sizeof(dir) + 24];
	size_t dl = sizeof(dir) - 1, al = strlen(attr);
	ssize_t r;
	int fd;

	if (i > 9 || al + 3 > sizeof(path) - dl)
		return -1;
	memcpy(path, dir, dl);
	path[dl] = (char)('0' + i);
	path[dl + 1] = '/';
	memcpy(path + dl + 2, attr, al + 1);
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY);
	if (fd < 0)
		return -1;
	r = read(fd, buf, size - 1);
	close(fd);
	if (r >= 0)
		buf[r] = 0;
	return r;
}

/*
 * The data or unified caches of levels 1 to 3 that c has no size for: "48K"
 * in index<i>/size, the level in index<i>/level, "Data", "Unified" or
 * "Instruction" in index<i>/type.
 */
static void
ua_cpu_caches_sysfs(struct ua_cpu *c)
{
	size_t *level[4] = {NULL, &c->l1d, &c->l2, &c->l3};
	size_t was[4] = {0, c->l1d, c->l2, c->l3};
	char buf[32];
	unsigned i;

	for (i = 0; i < 10; i++) {
		size_t v = 0;
		const char *p;
		int lv;

		if (ua_cache_attr(i, "level", buf, sizeof(buf)) <= 0)
			break;
		lv = buf[0] - '0';
		if (lv < 1 || lv > 3 || was[lv] ||
		    ua_cache_attr(i, "type", buf, sizeof(buf)) <= 0 ||
		    !strncmp(buf, "Instruction", 11) ||
		    ua_cache_attr(i, "size", buf, sizeof(buf)) <= 0)
			continue;
		for (p = buf; *p >= '0' && *p <= '9'; p++)
			v = v * 10 + (size_t)(*p - '0');
		v <<= *p == 'M' ? 20 : *p == 'K' ? 10 : 0;
		if (v > *level[lv])
			*level[lv] = v;
	}
}

const struct ua_cpu *
ua_cpu(void)
{
	/* Detection is idempotent: a racing second caller fills the same
	 * values, so no lock is needed (init may run in a signal handler). */
	if (!atomic_load_explicit(&ua_cpu_done, memory_order_acquire)) {
		struct ua_cpu c = {0};

		ua_arch_cpu_detect(&c);
		if (!c.l1d || !c.l2 || !c.l3) {
			int saved_errno = errno; /* absent files are no error */

			ua_cpu_caches_sysfs(&c);
			errno = saved_errno;
		}
		ua_cpu_info = c;
		atomic_store_explicit(&ua_cpu_done, 1, memory_order_release);
	}
	return &ua_cpu_info;
}

size_t
ua_put_str(char *buf, size_t size, size_t at, const char *s)
{
	while (*s && at + 1 < size)
		buf[at++] = *s++;
	if (at < size)
		buf[at] = 0;
	return at;
}

size_t
ua_put_num(char *buf, size_t size, size_t at, size_t v)
{
	char tmp[24];
	int i = 0;

	do
		tmp[i++] = (char)('0' + v % 10);
	while ((v /= 10));
	while (i && at + 1 < size)
		buf[at++] = tmp[--i];
	if (at < size)
		buf[at] = 0;
	return at;
}

size_t
ua_cpu_id(char *buf, size_t size, const struct ua_cpu *cpu)
{
	size_t at = 0;

	if (!size)
		return 0;
	buf[0] = 0;
	at =
	    ua_put_str(buf, size, at, cpu->vendor[0] ? cpu->vendor : "unknown");
	at = ua_put_str(buf, size, at, " ");
	at = ua_put_num(buf, size, at, cpu->family);
	at = ua_put_str(buf, size, at, " ");
	return ua_put_num(buf, size, at, cpu->model);
}

size_t
ua_cpu_features(char *buf, size_t size, const struct ua_cpu *cpu)
{
	size_t at = 0;
	unsigned bit;

	if (!size)
		return 0;
	buf[0] = 0;
	for (bit = 0; bit < 64; bit++)
		if (ua_arch_feature_name(bit) && (cpu->features >> bit & 1)) {
			if (at)
				at = ua_put_str(buf, size, at, " ");
			at = ua_put_str(buf, size, at,
					ua_arch_feature_name(bit));
		}
	return at;
}

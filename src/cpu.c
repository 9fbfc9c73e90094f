/* SPDX-License-Identifier: MIT */
/* The CPU this process runs on, detected once by the architecture's hook. */
#include <stdatomic.h>

#include "cpu.h"

static struct ua_cpu ua_cpu_info;
static atomic_int ua_cpu_done;

const struct ua_cpu *
ua_cpu(void)
{
	/* Detection is idempotent: a racing second caller fills the same
	 * values, so no lock is needed (init may run in a signal handler). */
	if (!atomic_load_explicit(&ua_cpu_done, memory_order_acquire)) {
		struct ua_cpu c = {0};

		ua_arch_cpu_detect(&c);
		ua_cpu_info = c;
		atomic_store_explicit(&ua_cpu_done, 1, memory_order_release);
	}
	return &ua_cpu_info;
}

static size_t
ua_put(char *buf, size_t size, size_t at, const char *s)
{
	while (*s && at + 1 < size)
		buf[at++] = *s++;
	return at;
}

static size_t
ua_put_uint(char *buf, size_t size, size_t at, unsigned v)
{
	char tmp[12];
	int i = 0;

	do
		tmp[i++] = (char)('0' + v % 10);
	while ((v /= 10));
	while (i && at + 1 < size)
		buf[at++] = tmp[--i];
	return at;
}

size_t
ua_cpu_id(char *buf, size_t size, const struct ua_cpu *cpu)
{
	size_t at = 0;

	if (!size)
		return 0;
	at = ua_put(buf, size, at, cpu->vendor[0] ? cpu->vendor : "unknown");
	at = ua_put(buf, size, at, " ");
	at = ua_put_uint(buf, size, at, cpu->family);
	at = ua_put(buf, size, at, " ");
	at = ua_put_uint(buf, size, at, cpu->model);
	buf[at] = 0;
	return at;
}

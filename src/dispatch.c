/* SPDX-License-Identifier: MIT */
/* Which routine serves a copy of n bytes.  Filled once at init. */
#include "internal.h"

size_t ua_copy_erms(void *dst, const void *src, size_t n);
size_t ua_clear_erms(void *dst, size_t n);

struct ua_engine {
	ua_copy_fn copy;
	ua_clear_fn clear;
	ua_copy_fn nocache;
	const char *copy_name;
};

static struct ua_engine ua_engine = {
	.copy = ua_copy_erms,
	.clear = ua_clear_erms,
	.nocache = ua_copy_erms,
	.copy_name = "erms",
};

void
ua_dispatch_init(void)
{
}

ua_copy_fn
ua_copy_routine(size_t n)
{
	(void)n;
	return ua_engine.copy;
}

ua_clear_fn
ua_clear_routine(size_t n)
{
	(void)n;
	return ua_engine.clear;
}

ua_copy_fn
ua_nocache_routine(size_t n)
{
	(void)n;
	return ua_engine.nocache;
}

UA_EXPORT const char *
ua_copy_strategy(size_t n)
{
	(void)n;
	ua_lazy_init();
	return ua_engine.copy_name;
}

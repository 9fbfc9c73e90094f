/* SPDX-License-Identifier: MIT */
/* The per-thread user range and access_ok. */
#include <errno.h>
#include <sys/mman.h>
#include <unistd.h>

#include "internal.h"

/* Every canonical user address above the first page (set by ua_range_init) */
uintptr_t ua_default_lo = 4096;
uintptr_t ua_default_hi = ((uintptr_t)1 << 47) - 4096;

#if UINTPTR_MAX > 0xffffffffu
/*
 * Addresses above 47 bits are canonical only under 5-level paging, and the
 * kernel hands them out only to those who ask.  Ask once: if a mapping can
 * be placed there, the top is 56 bits.
 */
static uintptr_t
ua_task_size(void)
{
	void *hint = (void *)((uintptr_t)1 << 52);
	void *p = mmap(hint, ua_page_size, PROT_NONE,
	               MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
	if (p == MAP_FAILED)
		return (uintptr_t)1 << 47;
	munmap(p, ua_page_size);
	return p == hint ? (uintptr_t)1 << 56 : (uintptr_t)1 << 47;
}
#else
static uintptr_t
ua_task_size(void)
{
	return 0xc0000000u; /* the i386 3G/1G split; a 64-bit kernel allows 4G */
}
#endif

void
ua_range_init(void)
{
	ua_default_lo = ua_page_size;
	ua_default_hi = ua_task_size() - ua_page_size;
}

UA_EXPORT int
ua_access_ok(const void *uptr, size_t n)
{
	uintptr_t lo, hi;

	ua_lazy_init();
	return ua__access_ok((uintptr_t)uptr, n, &lo, &hi);
}

UA_EXPORT int
ua_set_user_range(const void *base, size_t len)
{
	uintptr_t b = (uintptr_t)base;

	ua_lazy_init();
	if (len == 0) {
		ua_self.range_lo = 0;
		ua_self.range_hi = 0;
		return 0;
	}
	if (b < ua_default_lo || b > ua_default_hi || len > ua_default_hi - b)
		return -EINVAL;
	ua_self.range_lo = b;
	ua_self.range_hi = b + len;
	return 0;
}

/* SPDX-License-Identifier: MIT */
/* The system's pages (page.h). */
#include <errno.h>
#include <sys/mman.h>
#include <unistd.h>

#include "page.h"

size_t ua_page_size = 4096;

void
ua_page_init(void)
{
	long ps = sysconf(_SC_PAGESIZE);

	if (ps > 0)
		ua_page_size = (size_t)ps;
}

int
ua_can_map_at(uintptr_t hint)
{
	int saved_errno = errno, r;
	void *p =
	    mmap((void *)hint, ua_page_size, PROT_NONE,
		 MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);

	if (p == MAP_FAILED) {
		r = errno == EEXIST;
		errno = saved_errno;
		return r;
	}
	munmap(p, ua_page_size);
	/* Kernels before 4.17 take MAP_FIXED_NOREPLACE as a mere hint */
	return p == (void *)hint;
}

/* SPDX-License-Identifier: MIT */
/*
 * Description: a copy longer than INT_MAX (a negative length cast to
 * size_t) is refused without touching either buffer, whether access_ok
 * refuses the range or not (the kernel's check_copy_size()); INT_MAX itself
 * is not refused.
 * uaccess-test: per-strategy
 */
#include <limits.h>
#include <stdint.h>

#include "test.h"

typedef size_t (*copy_fn)(void *, const void *, size_t);

int
main(void)
{
	static const struct {
		const char *name;
		copy_fn fn;
		int to_user;
	} fns[] = {
	    {"ua_copy_from_user", ua_copy_from_user, 0},
	    {"ua_copy_from_user_nocache", ua_copy_from_user_nocache, 0},
	    {"ua_copy_to_user", ua_copy_to_user, 1},
	};
	const size_t sizes[] = {(size_t)INT_MAX + 1, (size_t)(unsigned)-1,
				(size_t)(long)-1, (size_t)-256, SIZE_MAX};
	size_t pg = t_page(), i, j;
	unsigned char buf[256];
	unsigned char *page;

	t_require_forced_strategy();
	page = mmap(NULL, pg, PROT_READ | PROT_WRITE,
		    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	CHECK(page != MAP_FAILED, "mmap");
	for (i = 0; i < sizeof(fns) / sizeof(fns[0]); i++) {
		for (j = 0; j < sizeof(sizes) / sizeof(sizes[0]); j++) {
			size_t n = sizes[j];

			if (n <= INT_MAX)
				continue;
			/* A user pointer access_ok refuses, then one that is
			 * valid for a page */
			memset(buf, 0xa5, sizeof(buf));
			memset(page, 0x3c, pg);
			CHECK(fns[i].fn(buf, NULL, n) == n, "%s(NULL, %zu)",
			      fns[i].name, n);
			CHECK(t_all(buf, sizeof(buf), 0xa5),
			      "%s(%zu) wrote the buffer", fns[i].name, n);
			if (fns[i].to_user)
				CHECK(fns[i].fn(page, buf, n) == n, "%s(%zu)",
				      fns[i].name, n);
			else
				CHECK(fns[i].fn(buf, page, n) == n, "%s(%zu)",
				      fns[i].name, n);
			CHECK(t_all(buf, sizeof(buf), 0xa5) &&
				  t_all(page, pg, 0x3c),
			      "%s(%zu) touched a buffer", fns[i].name, n);
		}
	}
	/* INT_MAX is a length like any other: a copy to a page followed by
	 * a hole stops at the hole (copy_to_user: copy_from_user would
	 * zero-fill 2 GiB) */
	{
		unsigned char *src =
		    mmap(NULL, (size_t)INT_MAX + pg, PROT_READ,
			 MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
		unsigned char *dst = mmap(NULL, 2 * pg, PROT_READ | PROT_WRITE,
					  MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

		if (src != MAP_FAILED && dst != MAP_FAILED) {
			CHECK(!mprotect(dst + pg, pg, PROT_NONE), "mprotect");
			CHECK_EQ(ua_copy_to_user(dst, src, INT_MAX),
				 (size_t)INT_MAX - pg);
			munmap(src, (size_t)INT_MAX + pg);
			munmap(dst, 2 * pg);
		} else {
			printf("no room for INT_MAX bytes: not tried\n");
		}
	}
	munmap(page, pg);
	t_done("copy_size");
	return T_PASS;
}

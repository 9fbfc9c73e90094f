/* SPDX-License-Identifier: MIT */
/*
 * Description: a bad page in the middle of a large copy ([ok][bad][ok]):
 * the count stops at the hole, the data before it is exact, and for
 * copy_from_user the rest is zero; copy_to_user and clear_user leave the
 * pages after the hole untouched: nothing past the count is written.
 *
 * uaccess-test: per-strategy
 */
#include "test.h"

#define PAGES 24

static unsigned char ref[PAGES * 4096 * 4];

static void
run(int kind)
{
	size_t pg = t_page(), len = PAGES * pg, hole, start, n, k, j, left;
	static const size_t starts[] = {0, 1, 63, 64, 100, 4095};
	static const size_t lens[] = {2 * 4096, 5 * 4096 + 17, 65536, 70001,
				      PAGES * 4096 - 4096};
	unsigned char *buf = malloc(len + 128), *src;
	size_t si, li;

	CHECK(buf != NULL, "malloc");
	for (hole = 1; hole < PAGES - 1; hole += 3) {
		unsigned char *p = mmap(NULL, len, PROT_READ | PROT_WRITE,
					MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

		CHECK(p != MAP_FAILED, "mmap");
		t_fill(p, len, (unsigned)hole);
		memcpy(ref, p, len);
		if (kind == 0)
			CHECK(!mprotect(p + hole * pg, pg, PROT_NONE),
			      "mprotect");
		else
			CHECK(!munmap(p + hole * pg, pg), "munmap");
		for (si = 0; si < sizeof(starts) / sizeof(starts[0]); si++) {
			start = starts[si];
			if (start >= hole * pg)
				continue;
			for (li = 0; li < sizeof(lens) / sizeof(lens[0]);
			     li++) {
				n = lens[li] * pg / 4096;
				if (start + n > len)
					n = len - start;
				k = hole * pg - start;
				if (k > n)
					k = n;
				/* copy_from_user */
				src = p + start;
				memset(buf, 0xee, len + 128);
				left = ua_copy_from_user(buf + 64, src, n);
				CHECK_EQ(left, n - k);
				CHECK(!memcmp(buf + 64, ref + start, k),
				      "from_user data, hole %zu", hole);
				for (j = k; j < n; j++)
					CHECK(buf[64 + j] == 0, "tail at %zu",
					      j);
				CHECK(buf[63] == 0xee && buf[64 + n] == 0xee,
				      "wrote outside dst");
				/* copy_to_user: nothing after the hole */
				t_fill(buf, n, 99);
				left = ua_copy_to_user(p + start, buf, n);
				CHECK_EQ(left, n - k);
				CHECK(!memcmp(p + start, buf, k),
				      "to_user data");
				for (j = hole * pg + pg; j < len; j++)
					CHECK(p[j] == ref[j],
					      "to_user wrote %#x at %zu, past "
					      "the count",
					      p[j], j);
				for (j = 0; j < start; j++)
					CHECK(p[j] == ref[j],
					      "to_user before dst");
				/* clear_user */
				left = ua_clear_user(p + start, n);
				CHECK_EQ(left, n - k);
				for (j = 0; j < k; j++)
					CHECK(p[start + j] == 0, "clear data");
				for (j = hole * pg + pg; j < len; j++)
					CHECK(p[j] == ref[j],
					      "clear_user wrote %#x at %zu, "
					      "past the count",
					      p[j], j);
				/* restore the pages before the hole */
				memcpy(p, ref, hole * pg);
			}
		}
		munmap(p, len);
	}
	free(buf);
}

int
main(void)
{
	t_require_forced_strategy();
	run(0);
	run(1);
	t_done("holes");
	return T_PASS;
}

/* SPDX-License-Identifier: MIT */
/*
 * Description: a copy whose length, known only at run time, overflows the
 * buffer stops the process with a message naming the function
 * (fortify.sh).  Usage: runtime FUNCTION LENGTH [heap]; a 256-byte buffer,
 * on the stack or (heap, level 3) from malloc.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <uaccess.h>

/* Inlined: the buffer's size is known where the call is */
static inline __attribute__((always_inline)) size_t
run(const char *fn, char *buf, char *user, size_t n)
{
	if (!strcmp(fn, "ua_copy_from_user"))
		return ua_copy_from_user(buf, user, n);
	if (!strcmp(fn, "ua_copy_to_user"))
		return ua_copy_to_user(user, buf, n);
	if (!strcmp(fn, "ua_copy_from_user_nocache"))
		return ua_copy_from_user_nocache(buf, user, n);
	exit(2);
}

int
main(int argc, char **argv)
{
	static char user[4096];
	size_t n, r;

	if (argc < 3)
		return 2;
	n = strtoul(argv[2], NULL, 0);
	if (argc > 3) {
		char *heap = calloc((size_t)atoi("256"), 1);

		if (!heap)
			return 2;
		r = run(argv[1], heap, user, n);
		free(heap);
	} else {
		char stack[256] = {0};

		r = run(argv[1], stack, user, n);
	}
	printf("%s(%zu): %zu not copied\n", argv[1], n, r);
	return r != 0;
}

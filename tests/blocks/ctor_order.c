/* SPDX-License-Identifier: MIT */
/*
 * Description: a block of another file of the program, called from a
 * constructor and a destructor of this file, which is linked first and
 * does not include uaccess.h: its faults land on its label, the object's
 * table being registered before any other constructor runs and taken back
 * after every other destructor.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/mman.h>
#include <unistd.h>

/* ctor_order_block.c */
int block_ctor_order_read(const uint64_t *u, uint64_t *ret);

static void *bad = MAP_FAILED;
static int in_ctor = 1;

/* A read of a PROT_NONE page: -EFAULT, or the process dies of SIGSEGV */
static int
read_bad(void)
{
	uint64_t v;

	if (bad == MAP_FAILED)
		bad = mmap(NULL, 4096, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS,
			   -1, 0);
	return bad == MAP_FAILED ? -ENOMEM : block_ctor_order_read(bad, &v);
}

__attribute__((constructor)) static void
early(void)
{
	in_ctor = read_bad();
}

__attribute__((destructor)) static void
late(void)
{
	int r = read_bad();

	if (r != -EFAULT) {
		printf("FAIL: in a destructor: %d, expected %d\n", r, -EFAULT);
		fflush(stdout);
		_exit(1);
	}
}

int
main(void)
{
	if (in_ctor != -EFAULT) {
		printf("FAIL: in a constructor: %d, expected %d\n", in_ctor,
		       -EFAULT);
		return 1;
	}
	return 0;
}

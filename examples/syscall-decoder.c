/* SPDX-License-Identifier: MIT */
/*
 * A system-call argument decoder for a sandboxed guest, with inline
 * user-access blocks.
 *
 * The guest submits a ring of requests in its own memory, each a system
 * call number and six arguments, and gets each result written back into
 * the request; a uname-like call also gets a reply structure copied to a
 * guest pointer.  Decoding is the hot path of such an emulator: fields are
 * read one by one, each must not be trusted, and a function call per
 * field (ua_get_user) costs more than the load.  A block checks the
 * request's range once, then every field is one load whose fault goes to
 * the block's label, as the kernel's signal-frame and filldir code does.
 *
 * Build on its own:
 *   cc -o syscall-decoder syscall-decoder.c \
 *       $(pkg-config --cflags --libs uaccess)
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <uaccess.h>

/* The guest's request layout */
struct guest_req {
	uint32_t nr;
	uint32_t flags;
	uint64_t args[6];
	int64_t result; /* written back */
};

enum { G_GETPID = 1, G_ADD = 2, G_UNAME = 3 };

struct guest_uname {
	char sysname[16];
	char release[16];
};

struct req {
	uint32_t nr;
	uint64_t args[6];
};

/* Read one request: one range check, eight loads */
static int
decode(const struct guest_req *ureq, struct req *out)
{
	int i;

	if (!ua_user_access_begin(ureq, sizeof(*ureq)))
		return -EFAULT;
	ua_unsafe_get_user(out->nr, &ureq->nr, efault);
	for (i = 0; i < 6; i++)
		ua_unsafe_get_user(out->args[i], &ureq->args[i], efault);
	ua_user_access_end();
	return 0;
efault:
	ua_user_access_end();
	return -EFAULT;
}

static int64_t
do_uname(uint64_t uptr)
{
	static const struct guest_uname u = {"toykernel", "0.1"};
	struct guest_uname *ubuf = (struct guest_uname *)(uintptr_t)uptr;

	if (!ua_user_access_begin(ubuf, sizeof(*ubuf)))
		return -EFAULT;
	ua_unsafe_copy_to_user(ubuf, &u, sizeof(u), efault);
	ua_user_access_end();
	return 0;
efault:
	ua_user_access_end();
	return -EFAULT;
}

/* Serve one request; the result goes back into it (if it can) */
static int64_t
serve(struct guest_req *ureq)
{
	struct req r;
	int64_t res;

	if (decode(ureq, &r))
		return -EFAULT; /* nowhere to write the result either */
	switch (r.nr) {
	case G_GETPID:
		res = 42;
		break;
	case G_ADD:
		res = (int64_t)(r.args[0] + r.args[1]);
		break;
	case G_UNAME:
		res = do_uname(r.args[0]);
		break;
	default:
		res = -ENOSYS;
	}
	if (ua_put_user(res, &ureq->result))
		return -EFAULT;
	return res;
}

int
main(void)
{
	size_t pg = (size_t)sysconf(_SC_PAGESIZE);
	char *guest = mmap(NULL, 4 * pg, PROT_READ | PROT_WRITE,
			   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	struct guest_req *ring = (struct guest_req *)(void *)guest;
	struct guest_req *straddling;
	struct guest_uname *reply = (struct guest_uname *)(void *)(guest + pg);
	int failures = 0;

	if (guest == MAP_FAILED)
		return 1;
	/* Page 2 is a hole in the guest; the thread's user range is the guest
	 */
	munmap(guest + 2 * pg, pg);
	if (ua_set_user_range(guest, 4 * pg))
		return 1;

	ring[0] = (struct guest_req){.nr = G_GETPID};
	ring[1] = (struct guest_req){.nr = G_ADD, .args = {40, 2}};
	ring[2] = (struct guest_req){.nr = G_UNAME,
				     .args = {(uint64_t)(uintptr_t)reply}};
	/* A reply pointer into the hole, and one into the emulator */
	ring[3] = (struct guest_req){
	    .nr = G_UNAME, .args = {(uint64_t)(uintptr_t)(guest + 2 * pg)}};
	ring[4] = (struct guest_req){.nr = G_UNAME,
				     .args = {(uint64_t)(uintptr_t)&failures}};
	ring[5] = (struct guest_req){.nr = 99};
	/* A request that runs into the hole */
	straddling = (struct guest_req *)(void *)(guest + 2 * pg - 16);

#define EXPECT(call, want)                                                     \
	do {                                                                   \
		int64_t got = (call);                                          \
		printf("%-32s %lld\n", #call, (long long)got);                 \
		if (got != (want))                                             \
			failures++;                                            \
	} while (0)
	EXPECT(serve(&ring[0]), 42);
	EXPECT(serve(&ring[1]), 42);
	EXPECT(serve(&ring[2]), 0);
	EXPECT(serve(&ring[3]), -EFAULT);
	EXPECT(serve(&ring[4]), -EFAULT);
	EXPECT(serve(&ring[5]), -ENOSYS);
	EXPECT(serve(straddling), -EFAULT);
	EXPECT(serve((struct guest_req *)(void *)&failures), -EFAULT);
	EXPECT(ring[1].result, 42);
	EXPECT(ring[3].result, -EFAULT);
	EXPECT(strcmp(reply->sysname, "toykernel"), 0);
	printf("%s\n", failures ? "something went wrong" : "all as expected");
	ua_set_user_range(NULL, 0);
	munmap(guest, 2 * pg);
	munmap(guest + 3 * pg, pg);
	return failures != 0;
}

/* SPDX-License-Identifier: MIT */
/*
 * A toy userspace kernel serving read()/write()-like system calls for a
 * sandboxed guest.
 *
 * The guest's memory is one region.  Its "system calls" pass pointers that
 * the emulator must not trust: they may point at the emulator's own data,
 * or into a guest page that is not mapped.  The emulator confines this
 * thread's user range to the guest region with ua_set_user_range(), then
 * serves each call with ua_copy_from_user()/ua_copy_to_user(), exactly as
 * the kernel does: a pointer outside the region is -EFAULT and nothing is
 * touched; a buffer running into a hole gives a short count.
 *
 * Build on its own:
 *   cc -o syscall-emu syscall-emu.c $(pkg-config --cflags --libs uaccess)
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <uaccess.h>

enum { SYS_READ, SYS_WRITE };

/* The emulated file the guest reads and writes */
static char file_data[256];
static size_t file_len;

/* Something the guest must never see or change */
static char host_secret[] = "the emulator's own memory";

/*
 * The kernel's rule for both calls: the bytes transferred, or -EFAULT when
 * not even one byte could be.
 */
static long
sys_write(const void *ubuf, size_t count)
{
	size_t n = count < sizeof(file_data) ? count : sizeof(file_data);
	size_t done = n - ua_copy_from_user(file_data, ubuf, n);

	if (n && !done)
		return -EFAULT;
	file_len = done;
	return (long)done;
}

static long
sys_read(void *ubuf, size_t count)
{
	size_t n = count < file_len ? count : file_len;
	size_t done = n - ua_copy_to_user(ubuf, file_data, n);

	return n && !done ? -EFAULT : (long)done;
}

/* The dispatcher: arguments arrive as integers, as in registers */
static long
emulate_syscall(int nr, uintptr_t buf, size_t count)
{
	switch (nr) {
	case SYS_READ:
		return sys_read((void *)buf, count);
	case SYS_WRITE:
		return sys_write((const void *)buf, count);
	}
	return -ENOSYS;
}

static int failures;

static void
expect(const char *what, long got, long want)
{
	printf("%-44s -> %ld%s\n", what, got,
	       got == want ? "" : "  UNEXPECTED");
	failures += got != want;
}

int
main(void)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	size_t guest_len = 4 * page;
	char *guest;

	/* Guest memory: four pages, the third one a hole (PROT_NONE) */
	guest = mmap(NULL, guest_len, PROT_READ | PROT_WRITE,
		     MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (guest == MAP_FAILED || mprotect(guest + 2 * page, page, PROT_NONE))
		return 1;
	strcpy(guest, "hello from the guest");

	/* From here on, this thread's "user" memory is the guest, only */
	if (ua_set_user_range(guest, guest_len) < 0)
		return 1;

	expect("write(guest, 20)",
	       emulate_syscall(SYS_WRITE, (uintptr_t)guest, 20), 20);
	expect("read(guest + page, 100)",
	       emulate_syscall(SYS_READ, (uintptr_t)(guest + page), 100), 20);
	expect("  and the guest got the data back",
	       memcmp(guest + page, "hello from the guest", 20), 0);

	/* Pointers outside the sandbox: refused before any access */
	expect("write(host_secret, 10)",
	       emulate_syscall(SYS_WRITE, (uintptr_t)host_secret, 10), -EFAULT);
	expect("read(host_secret, 10)",
	       emulate_syscall(SYS_READ, (uintptr_t)host_secret, 10), -EFAULT);
	expect("  and the host's memory is untouched",
	       strcmp(host_secret, "the emulator's own memory"), 0);
	expect(
	    "write(guest end - 4, 8): leaves the sandbox",
	    emulate_syscall(SYS_WRITE, (uintptr_t)(guest + guest_len - 4), 8),
	    -EFAULT);

	/* Inside the sandbox but running into the hole: a short count */
	memset(guest + 2 * page - 10, 'x', 10);
	expect(
	    "write(hole - 10, 100): short",
	    emulate_syscall(SYS_WRITE, (uintptr_t)(guest + 2 * page - 10), 100),
	    10);
	expect("read(hole, 10): nothing transferable",
	       emulate_syscall(SYS_READ, (uintptr_t)(guest + 2 * page), 10),
	       -EFAULT);

	/* Back to the default range: every user address of the process */
	ua_set_user_range(NULL, 0);
	expect("write(host_secret, 10), default range",
	       emulate_syscall(SYS_WRITE, (uintptr_t)host_secret, 10), 10);

	munmap(guest, guest_len);
	return failures ? 1 : 0;
}

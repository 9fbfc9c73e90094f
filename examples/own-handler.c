/* SPDX-License-Identifier: MIT */
/*
 * A program that owns SIGSEGV and embeds uaccess.
 *
 * Runtimes that use faults themselves (a JVM's implicit null checks, a Wasm
 * runtime's guard pages, a garbage collector's write barrier) install their
 * own SIGSEGV handler and keep it first.  They embed uaccess by offering
 * every fault to ua_handle_fault() before looking at it: it returns 1 when
 * the fault happened inside a uaccess copy (it has already redirected the
 * copy to its fixup, so the handler just returns), 0 otherwise.
 *
 * Here the program's own use of faults is a lazily committed arena: pages
 * start PROT_NONE and the handler makes a page writable on first touch.
 *
 * Build on its own:
 *   cc -o own-handler own-handler.c $(pkg-config --cflags --libs uaccess)
 */
#define _GNU_SOURCE
#include <signal.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <uaccess.h>

#define ARENA_PAGES 16

static char *arena;
static size_t page;
static volatile sig_atomic_t uaccess_faults, own_faults;

static void
on_segv(int signo, siginfo_t *info, void *ucontext)
{
	uintptr_t addr = (uintptr_t)info->si_addr;
	uintptr_t base = (uintptr_t)arena;

	/* 1. A fault inside a uaccess copy: it is handled, just return */
	if (ua_handle_fault(signo, info, ucontext)) {
		uaccess_faults++;
		return;
	}
	/* 2. Our own fault: commit the arena page and retry the access */
	if (addr >= base && addr < base + ARENA_PAGES * page) {
		own_faults++;
		if (mprotect((void *)(addr & ~(uintptr_t)(page - 1)), page,
			     PROT_READ | PROT_WRITE) == 0)
			return;
	}
	/* 3. A real crash: die of it, with the default action */
	signal(signo, SIG_DFL);
}

int
main(void)
{
	struct sigaction sa, now;
	char src[64], *buf;
	size_t left;

	page = (size_t)sysconf(_SC_PAGESIZE);

	/*
	 * Initialise uaccess first, then install our handler on top of it.
	 * Linked with the shared library, uaccess keeps its handler in front
	 * and passes the faults that are not its own to ours; with its signal
	 * interposition off (UACCESS_SIGNALS=keep, a static link without
	 * --wrap, a raw rt_sigaction) ours replaces it, and ours calls
	 * ua_handle_fault().  Both ways work.
	 */
	if (ua_init() < 0)
		return 1;
	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = on_segv;
	sa.sa_flags = SA_SIGINFO | SA_NODEFER;
	sigemptyset(&sa.sa_mask);
	if (sigaction(SIGSEGV, &sa, NULL) < 0)
		return 1;

	/* The program's own faults: first touches of arena pages */
	arena = mmap(NULL, ARENA_PAGES * page, PROT_NONE,
		     MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (arena == MAP_FAILED)
		return 1;
	arena[5 * page] = 'a';
	arena[5 * page + 1] = 'b'; /* same page: no second fault */
	arena[9 * page] = 'c';
	/* The stores must happen before we read the handler's count */
	atomic_signal_fence(memory_order_seq_cst);
	printf("arena: 3 writes, %d own faults handled by the program\n",
	       (int)own_faults);

	/* uaccess's faults: a copy that runs into an unreadable page */
	buf = mmap(NULL, 2 * page, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (buf == MAP_FAILED || mprotect(buf + page, page, PROT_NONE))
		return 1;
	memset(buf, 'u', page);
	left = ua_copy_from_user(src, buf + page - 16, sizeof(src));
	printf("copy across a hole: %zu of %zu bytes copied (%d uaccess fault "
	       "seen by our handler)\n",
	       sizeof(src) - left, sizeof(src), (int)uaccess_faults);

	/* Our handler is still the one installed, as far as we can tell */
	sigaction(SIGSEGV, NULL, &now);

	return own_faults == 2 && uaccess_faults <= 1 && left == 48 &&
		       arena[5 * page + 1] == 'b' && src[15] == 'u' &&
		       src[16] == 0 && now.sa_sigaction == on_segv
		   ? 0
		   : 1;
}

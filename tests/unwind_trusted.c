/* SPDX-License-Identifier: MIT */
/*
 * Description: a crash reporter chained behind the library unwinds out of
 * the copy routines (issue 34): a fault on the trusted side of a copy (a
 * bad destination of copy_from_user or memcpy, a bad source of
 * copy_to_user), at sizes the entries copy themselves and sizes the
 * strategy's routine copies, reaches the program's handler, whose
 * backtrace() must reach the function that called the copy.
 *
 * uaccess-test: per-strategy
 * uaccess-test: static
 */
#include <execinfo.h>

#include "test.h"

#define CALLER_SECTION "ua_unwind_caller"
#define MAX_FRAMES 64

/* The bounds of CALLER_SECTION, from the linker */
extern const char __start_ua_unwind_caller[], __stop_ua_unwind_caller[];

enum op { FROM, FROM_NOCACHE, TO, MEMCPY, MEMCPY_NOCACHE, POKE, NOPS };
static const char *const op_names[] = {
    "copy_from_user", "copy_from_user_nocache", "copy_to_user",
    "memcpy",         "memcpy_nocache",         "a plain store"};

static sigjmp_buf jb;
static void *frames[MAX_FRAMES];
static volatile int nframes;
static void *volatile fault_addr;
static volatile int sink;

static void
reporter(int signo, siginfo_t *info, void *uc)
{
	(void)signo;
	(void)uc;
	fault_addr = info->si_addr;
	nframes = backtrace(frames, MAX_FRAMES);
	siglongjmp(jb, 1);
}

/* The control: a store in C, one call below the caller */
__attribute__((noinline)) static void
poke(char *p)
{
	*(volatile char *)p = 1;
	sink++;
}

/*
 * The caller whose frame the reporter must find: alone in its section,
 * and not ending in a tail call, so that its return address lies in it
 */
__attribute__((noinline, section(CALLER_SECTION))) static size_t
call_copy(enum op op, char *dst, char *src, size_t n)
{
	size_t r = 0;

	switch (op) {
	case FROM:
		r = ua_copy_from_user(dst, src, n);
		break;
	case FROM_NOCACHE:
		r = ua_copy_from_user_nocache(dst, src, n);
		break;
	case TO:
		r = ua_copy_to_user(dst, src, n);
		break;
	case MEMCPY:
		r = ua_memcpy(dst, src, n) != dst;
		break;
	case MEMCPY_NOCACHE:
		r = ua_memcpy_nocache(dst, src, n) != dst;
		break;
	default:
		poke(dst);
		break;
	}
	sink++;
	return r;
}

static int
caller_found(void)
{
	int i;

	for (i = 0; i < nframes; i++)
		if ((const char *)frames[i] >= __start_ua_unwind_caller &&
		    (const char *)frames[i] < __stop_ua_unwind_caller)
			return 1;
	return 0;
}

static void
show_frames(void)
{
	fprintf(stderr, "%d frames; the caller at [%p, %p):\n", nframes,
		(const void *)__start_ua_unwind_caller,
		(const void *)__stop_ua_unwind_caller);
	backtrace_symbols_fd(frames, nframes, 2);
}

/*
 * One copy of n bytes whose trusted side runs into a PROT_NONE page after
 * n / 2 bytes (at once for n = 1); 1 if the reporter's backtrace reached
 * the caller
 */
static int
unwinds(enum op op, size_t n)
{
	size_t pg = t_page(), good = (n / 2 + pg - 1) / pg;
	struct t_layout bad = t_layout_new(good, T_BAD_NONE);
	struct t_layout user = t_layout_new(n / pg + 1, T_BAD_NONE);
	char *trusted = bad.bad - n / 2;
	int found;

	nframes = 0;
	fault_addr = NULL;
	if (!sigsetjmp(jb, 1)) {
		if (op == TO)
			call_copy(op, user.base, trusted, n);
		else
			call_copy(op, trusted, user.base, n);
		CHECK(0, "%s of %zu bytes: no fault reached the handler",
		      op_names[op], n);
	}
	CHECK((char *)fault_addr >= bad.bad &&
		  (char *)fault_addr < bad.bad + pg,
	      "%s of %zu bytes: fault at %p, the bad page at %p", op_names[op],
	      n, fault_addr, (void *)bad.bad);
	found = caller_found();
	if (!found && op != POKE) {
		fprintf(stderr, "%s of %zu bytes (strategy %s): ", op_names[op],
			n, ua_copy_strategy(n));
		show_frames();
	}
	t_layout_free(&bad);
	t_layout_free(&user);
	return found;
}

int
main(void)
{
	/* the entries' own copies, then each class of the policy */
	static const size_t sizes[] = {
	    1, 8, 31, 64, 200, 600, 1000, 1500, 5000, 70000, 1 << 20, 3 << 20};
	struct sigaction sa;
	size_t i;
	int op, failed = 0;

	CHECK(ua_init() == 0, "ua_init");
	t_require_forced_strategy();
	/* backtrace loads what it needs at its first call, not in a handler */
	nframes = backtrace(frames, MAX_FRAMES);
	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = reporter;
	sa.sa_flags = SA_SIGINFO;
	sigemptyset(&sa.sa_mask);
	CHECK(!sigaction(SIGSEGV, &sa, NULL), "sigaction");

	if (!unwinds(POKE, 1)) {
		printf("backtrace() in a handler does not get out of the "
		       "signal frame here, even from C: nothing to test\n");
		show_frames();
		return T_SKIP;
	}
	for (op = 0; op < POKE; op++)
		for (i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
			t_checks++;
			failed += !unwinds((enum op)op, sizes[i]);
		}
	CHECK(!failed, "%d copies: the caller not in the backtrace", failed);
	t_done("unwind_trusted");
	return T_PASS;
}

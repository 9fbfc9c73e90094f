/* SPDX-License-Identifier: MIT */
/* The per-thread user range and access_ok. */
#include <errno.h>
#include <sys/mman.h>
#include <unistd.h>

#include "internal.h"

/* Every canonical user address above the first page (set by ua_range_init) */
uintptr_t ua_default_lo = 4096;
uintptr_t ua_default_hi = (uintptr_t)0xc0000000u - 4096;

/* Can a page be mapped at hint?  (It can if one is there already.) */
static int
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

#if defined(__x86_64__)
/*
 * Addresses above 47 bits are canonical only under 5-level paging, and the
 * kernel hands them out only to those who ask.  Ask once: if a mapping can
 * be placed there, the top is 56 bits.
 */
static uintptr_t
ua_task_size(void)
{
	return ua_can_map_at((uintptr_t)1 << 52) ? (uintptr_t)1 << 56
						 : (uintptr_t)1 << 47;
}
#elif defined(__aarch64__)
/*
 * 48-bit user addresses, 52 with FEAT_LVA when the kernel has it and one
 * asks for a high address.  Kernels with fewer VA bits (39, 42, 47) leave
 * the rest of the 48-bit range unmappable: an access there faults with its
 * address, like any hole.  Tagged pointers (top byte set) stay outside.
 */
static uintptr_t
ua_task_size(void)
{
	return ua_can_map_at((uintptr_t)1 << 50) ? (uintptr_t)1 << 52
						 : (uintptr_t)1 << 48;
}
#elif defined(__i386__)
/*
 * 3 GiB under an i386 kernel (the 3G/1G split); under an x86-64 kernel a
 * 32-bit process has all of 4 GiB but the top page (0xffffe000).
 */
static uintptr_t
ua_task_size(void)
{
	return ua_can_map_at(0xe0000000u) ? 0xffffe000u : 0xc0000000u;
}
#else
#error "uaccess: no user address range for this architecture (src/range.c)"
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
	if (len &&
	    (b < ua_default_lo || b > ua_default_hi || len > ua_default_hi - b))
		return -EINVAL;
	/* A handler that runs between the stores sees the default range */
	ua_self.range_hi = 0;
	atomic_signal_fence(memory_order_seq_cst);
	ua_self.range_lo = len ? b : 0;
	atomic_signal_fence(memory_order_seq_cst);
	ua_self.range_hi = len ? b + len : 0;
	return 0;
}

/*
 * ua_user_access_begin(): the range check of a block of inline accesses.
 * Returns the address masked as the bulk copies mask theirs (internal.h):
 * itself when accepted, UA_REFUSED when not, also under speculation.
 */
UA_EXPORT uintptr_t
ua__user_access_begin(const volatile void *uptr, size_t len)
{
	size_t cut;

	if (ua_user_gate(uptr, len, &cut)) {
		if (cut) /* a block is checked as a whole */
			ua_fail_record((uintptr_t)uptr);
		return UA_REFUSED;
	}
	return ua_user_addr(uptr, len);
}

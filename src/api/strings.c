/* SPDX-License-Identifier: MIT */
/*
 * strnlen_user and strncpy_from_user: aligned words where possible, never
 * past what is asked, nor past the end of the user range.
 */
#include <errno.h>
#include <string.h>

#include "init.h"
#include "range.h"
#include "routine.h"

#define UA_ONES ((uint64_t)0x0101010101010101ull)
#define UA_HIGHS ((uint64_t)0x8080808080808080ull)

/* Index of the first zero byte of a little-endian word, or 8 */
static inline unsigned
ua_zero_byte(uint64_t v)
{
	uint64_t z = (v - UA_ONES) & ~v & UA_HIGHS;

	return z ? (unsigned)__builtin_ctzll(z) / 8 : 8;
}

/* ua_scan_string's single bytes, [i, end): the NUL's index, end, or -EFAULT */
static long
ua_scan_bytes(char *dst, const char *s, size_t i, size_t end)
{
	uint64_t v;

	for (; i < end; i++) {
		if (ua_arch_get_1(&v, s + i))
			return -EFAULT;
		if (dst)
			dst[i] = (char)v;
		if (!v)
			return (long)i;
	}
	return (long)end;
}

/*
 * Scan [s, s + lim) for a NUL, copying what it reads to dst when dst is
 * not NULL.  Returns the NUL's index, lim if there is none, or -EFAULT.
 * Reads are single bytes up to an 8-byte boundary, then aligned words (which
 * never cross a page, so never fault past the NUL), then bytes.
 */
static long
ua_scan_string(char *dst, const char *s, size_t lim)
{
	size_t i = -(uintptr_t)s & 7;
	uint64_t v;
	long r;

	if (i > lim)
		i = lim;
	r = ua_scan_bytes(dst, s, 0, i);
	if (r != (long)i)
		return r;
	while (lim - i >= 8) {
		unsigned z;

		if (ua_arch_get_8(&v, s + i))
			return -EFAULT;
		z = ua_zero_byte(v);
		if (dst)
			memcpy(dst + i, &v, z < 8 ? z + 1 : 8);
		if (z < 8)
			return (long)(i + z);
		i += 8;
	}
	return ua_scan_bytes(dst, s, i, lim);
}

/*
 * Bytes the string may span: up to count, or to the end of the user range
 * (*ret_clipped 1), or to a fault injected there (*ret_clipped 2: reaching
 * it is a fault, ua_string_fault).  Returns 0 when s is outside the range.
 */
static size_t
ua_string_limit(const char **s, long count, int *ret_clipped)
{
	uintptr_t lo, hi, p = (uintptr_t)*s;
	size_t lim, cut = 0;
	int fail = ua_user_gate(*s, (size_t)count, &cut);

	ua_user_range(&lo, &hi);
	if (p < lo || p >= hi)
		return 0;
	lim = hi - p;
	*ret_clipped = lim < (size_t)count;
	if (!*ret_clipped)
		lim = (size_t)count;
	/* Inside the range: the pointer itself, masked under speculation */
	p = ua_user_addr(*s, lim);
	if (p == UA_REFUSED)
		return 0;
	*s = (const char *)p;
	if (ua_unlikely(fail) && cut < lim) {
		*ret_clipped = 2;
		lim = cut;
	}
	return lim;
}

/* The scan reached its limit without a NUL: a fault if it was injected */
static void
ua_string_fault(const char *s, size_t lim, int clipped)
{
	if (clipped == 2)
		ua_fail_record((uintptr_t)s + lim);
}

/*
 * Both calls (n > 0): the string's length, n if there is no NUL in its
 * first n bytes, or -EFAULT (outside the range, a fault, or the user range
 * ended first)
 */
static long
ua_string(char *dst, const char *ustr, long n)
{
	size_t lim;
	int clipped;
	long r;

	lim = ua_string_limit(&ustr, n, &clipped);
	if (!lim)
		return -EFAULT;
	r = ua_scan_string(dst, ustr, lim);
	if (r < 0 || (size_t)r < lim)
		return r;
	/* No NUL: too long for n, or the user range ended first */
	ua_string_fault(ustr, lim, clipped);
	return clipped ? -EFAULT : n;
}

UA_EXPORT long
ua_strnlen_user(const char *ustr, long n)
{
	long r;

	if (n <= 0)
		return 0;
	r = ua_string(NULL, ustr, n);
	return r < 0 ? 0 : r + 1;
}

UA_EXPORT long
ua_strncpy_from_user(char *dst, const char *usrc, long n)
{
	if (n <= 0)
		return 0;
	return ua_string(dst, usrc, n);
}

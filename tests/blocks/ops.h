/* SPDX-License-Identifier: MIT */
/*
 * Blocks of inline user accesses, compiled into each object under test (the
 * program, a shared library, a plugin): their exception-table entries live
 * in that object.  Each operation opens one block over [base, base + len)
 * and accesses the elements idx[0..n) in that order; it returns n, or the
 * position in idx of the access that faulted (its label was reached), or
 * -1 if the range was refused.
 */
#ifndef BLOCKS_OPS_H
#define BLOCKS_OPS_H

#include <stddef.h>
#include <stdint.h>

#include <uaccess.h>

struct block_ops {
	const char *where;
	long (*get1)(const uint8_t *base, size_t len, const long *idx, long n,
		     uint8_t *out);
	long (*get2)(const uint16_t *base, size_t len, const long *idx, long n,
		     uint16_t *out);
	long (*get4)(const uint32_t *base, size_t len, const long *idx, long n,
		     uint32_t *out);
	long (*get8)(const uint64_t *base, size_t len, const long *idx, long n,
		     uint64_t *out);
	long (*put1)(uint8_t *base, size_t len, const long *idx, long n,
		     const uint8_t *in);
	long (*put2)(uint16_t *base, size_t len, const long *idx, long n,
		     const uint16_t *in);
	long (*put4)(uint32_t *base, size_t len, const long *idx, long n,
		     const uint32_t *in);
	long (*put8)(uint64_t *base, size_t len, const long *idx, long n,
		     const uint64_t *in);
	/* ua_unsafe_copy_to_user of n bytes to base + off: 0, 1 on a fault */
	int (*copy)(char *base, size_t len, size_t off, const void *src,
		    size_t n);
};

#define BLOCK_GET(bits)                                                        \
	static long block_get##bits(const uint##bits##_t *base, size_t len,    \
				    const long *idx, long n,                   \
				    uint##bits##_t *out)                       \
	{                                                                      \
		long i = 0;                                                    \
                                                                               \
		if (!ua_user_access_begin(base, len))                          \
			return -1;                                             \
		for (; i < n; i++)                                             \
			ua_unsafe_get_user(out[i], &base[idx[i]], fault);      \
		ua_user_access_end();                                          \
		return n;                                                      \
	fault:                                                                 \
		ua_user_access_end();                                          \
		return i;                                                      \
	}

#define BLOCK_PUT(bits)                                                        \
	static long block_put##bits(uint##bits##_t *base, size_t len,          \
				    const long *idx, long n,                   \
				    const uint##bits##_t *in)                  \
	{                                                                      \
		long i = 0;                                                    \
                                                                               \
		if (!ua_user_access_begin(base, len))                          \
			return -1;                                             \
		for (; i < n; i++)                                             \
			ua_unsafe_put_user(in[i], &base[idx[i]], fault);       \
		ua_user_access_end();                                          \
		return n;                                                      \
	fault:                                                                 \
		ua_user_access_end();                                          \
		return i;                                                      \
	}

BLOCK_GET(8)
BLOCK_GET(16)
BLOCK_GET(32)
BLOCK_GET(64)
BLOCK_PUT(8)
BLOCK_PUT(16)
BLOCK_PUT(32)
BLOCK_PUT(64)

static int
block_copy(char *base, size_t len, size_t off, const void *src, size_t n)
{
	if (!ua_user_access_begin(base, len))
		return -1;
	ua_unsafe_copy_to_user(base + off, src, n, fault);
	ua_user_access_end();
	return 0;
fault:
	ua_user_access_end();
	return 1;
}

#define BLOCK_OPS(name)                                                        \
	{                                                                      \
		name, block_get8, block_get16, block_get32, block_get64,       \
		    block_put8, block_put16, block_put32, block_put64,         \
		    block_copy                                                 \
	}

#endif /* BLOCKS_OPS_H */

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
	/* The kernel's later shapes, the same contracts as above */
	long (*scoped_get4)(const uint32_t *base, size_t len, const long *idx,
			    long n, uint32_t *out);
	long (*scoped_put4)(uint32_t *base, size_t len, const long *idx, long n,
			    const uint32_t *in);
	/* no length: the masked pointer is not checked, a refused one faults
	 * at its first access (returns 0 then, never -1) */
	long (*masked_get8)(const uint64_t *base, size_t len, const long *idx,
			    long n, uint64_t *out);
	/* ua_unsafe_copy_from_user of n bytes from base + off: 0, 1 on a
	 * fault, -1 refused */
	int (*copy_from)(const char *base, size_t len, size_t off, void *dst,
			 size_t n);
	/* ua_get_user_inline / ua_put_user_inline: 0 or -EFAULT */
	int (*get_inline)(const uint16_t *uptr, uint16_t *out);
	int (*put_inline)(uint64_t *uptr, uint64_t v);
	/* an array and an expression as ua_user_access_begin's argument */
	int (*array)(void);
	/*
	 * The inline atomics on one word, in a block (4 bytes) or a scoped
	 * block (8 bytes): op BLOCK_CAS ua_unsafe_try_cmpxchg_user (*io the
	 * expected value in, *ok its result), BLOCK_XCHG ua_unsafe_xchg_user
	 * (*io the old value out), BLOCK_LOAD ua_unsafe_load_acquire_user
	 * (*io the value out), BLOCK_STORE ua_unsafe_store_release_user of
	 * val.  0, 1 when the label was reached (*io untouched), -1 refused.
	 */
	int (*atomic4)(uint32_t *uptr, int op, uint32_t *io, uint32_t val,
		       int *ok);
	int (*atomic8)(uint64_t *uptr, int op, uint64_t *io, uint64_t val,
		       int *ok);
};

enum { BLOCK_CAS, BLOCK_XCHG, BLOCK_LOAD, BLOCK_STORE };

/* The access of element i in the loops below: a read into out[i], a write
 * of in[i] */
#define BLOCK_READ ua_unsafe_get_user(out[i], &base[idx[i]], fault)
#define BLOCK_WRITE ua_unsafe_put_user(in[i], &base[idx[i]], fault)

/* An operation over idx[0..n) in one block opened by ua_user_access_begin */
#define BLOCK_EACH(name, elem, buf, access)                                    \
	static long name(elem *base, size_t len, const long *idx, long n, buf) \
	{                                                                      \
		long i = 0;                                                    \
                                                                               \
		if (!ua_user_access_begin(base, len))                          \
			return -1;                                             \
		for (; i < n; i++)                                             \
			access;                                                \
		ua_user_access_end();                                          \
		return n;                                                      \
	fault:                                                                 \
		ua_user_access_end();                                          \
		return i;                                                      \
	}

/* The same in a scoped block, scope(base, len, fault) */
#define BLOCK_SCOPED(name, elem, buf, scope, access)                           \
	static long name(elem *base, size_t len, const long *idx, long n, buf) \
	{                                                                      \
		long i = 0;                                                    \
                                                                               \
		scope(base, len, fault)                                        \
		{                                                              \
			for (; i < n; i++)                                     \
				access;                                        \
		}                                                              \
		return n;                                                      \
	fault:                                                                 \
		return i == 0 && !ua_access_ok(base, len) ? -1 : i;            \
	}

#define BLOCK_GET(bits)                                                        \
	BLOCK_EACH(block_get##bits, const uint##bits##_t, uint##bits##_t *out, \
		   BLOCK_READ)
#define BLOCK_PUT(bits)                                                        \
	BLOCK_EACH(block_put##bits, uint##bits##_t, const uint##bits##_t *in,  \
		   BLOCK_WRITE)

BLOCK_GET(8)
BLOCK_GET(16)
BLOCK_GET(32)
BLOCK_GET(64)
BLOCK_PUT(8)
BLOCK_PUT(16)
BLOCK_PUT(32)
BLOCK_PUT(64)
BLOCK_SCOPED(block_scoped_get4, const uint32_t, uint32_t *out,
	     ua_scoped_user_read_access_size, BLOCK_READ)
BLOCK_SCOPED(block_scoped_put4, uint32_t, const uint32_t *in,
	     ua_scoped_user_write_access_size, BLOCK_WRITE)

static long
block_masked_get8(const uint64_t *base, size_t len, const long *idx, long n,
		  uint64_t *out)
{
	long i = 0;

	(void)len;
	base = ua_masked_user_access_begin(base);
	for (; i < n; i++)
		BLOCK_READ;
	ua_user_access_end();
	return n;
fault:
	ua_user_access_end();
	return i;
}

/* One copy of n bytes at base + off in a block from begin(base, len) to
 * end(): 0, 1 on a fault, -1 refused */
#define BLOCK_COPY(name, ubuf, kbuf, begin, end, copy)                         \
	static int name(ubuf *base, size_t len, size_t off, kbuf, size_t n)    \
	{                                                                      \
		if (!begin(base, len))                                         \
			return -1;                                             \
		copy;                                                          \
		end();                                                         \
		return 0;                                                      \
	fault:                                                                 \
		end();                                                         \
		return 1;                                                      \
	}

BLOCK_COPY(block_copy, char, const void *src, ua_user_access_begin,
	   ua_user_access_end,
	   ua_unsafe_copy_to_user(base + off, src, n, fault))
BLOCK_COPY(block_copy_from, const char, void *dst, ua_user_read_access_begin,
	   ua_user_read_access_end,
	   ua_unsafe_copy_from_user(dst, base + off, n, fault))

static int
block_get_inline(const uint16_t *uptr, uint16_t *out)
{
	return ua_get_user_inline(*out, uptr);
}

static int
block_put_inline(uint64_t *uptr, uint64_t v)
{
	return ua_put_user_inline(v, uptr);
}

/* The argument is an array, then an expression: read back what was put */
static int
block_array(void)
{
	static uint32_t arr[4];
	uint32_t v = 0;

	if (!ua_user_write_access_begin(arr, sizeof(arr)))
		return -1;
	ua_unsafe_put_user(7u, &arr[3], fault);
	ua_user_write_access_end();
	if (!ua_user_access_begin(&arr[1] + 2, sizeof(arr[0])))
		return -1;
	ua_unsafe_get_user(v, &arr[3], fault);
	ua_user_access_end();
	return (int)v;
fault:
	ua_user_access_end();
	return -2;
}

/* The atomic op of block_atomic4/8 on *uptr, v in and out, in a block */
#define BLOCK_ATOMIC(op, uptr, v, val, ok)                                     \
	do {                                                                   \
		switch (op) {                                                  \
		case BLOCK_CAS:                                                \
			*(ok) = ua_unsafe_try_cmpxchg_user(uptr, &(v), val,    \
							   fault);             \
			break;                                                 \
		case BLOCK_XCHG:                                               \
			ua_unsafe_xchg_user(uptr, val, &(v), fault);           \
			break;                                                 \
		case BLOCK_LOAD:                                               \
			ua_unsafe_load_acquire_user(v, uptr, fault);           \
			break;                                                 \
		default:                                                       \
			ua_unsafe_store_release_user(val, uptr, fault);        \
			break;                                                 \
		}                                                              \
	} while (0)

static int
block_atomic4(uint32_t *uptr, int op, uint32_t *io, uint32_t val, int *ok)
{
	uint32_t v = *io;

	if (!ua_user_access_begin(uptr, sizeof(*uptr)))
		return -1;
	BLOCK_ATOMIC(op, uptr, v, val, ok);
	ua_user_access_end();
	*io = v;
	return 0;
fault:
	ua_user_access_end();
	return 1;
}

static int
block_atomic8(uint64_t *uptr, int op, uint64_t *io, uint64_t val, int *ok)
{
	uint64_t v = *io;

	ua_scoped_user_rw_access(uptr, fault)
	{
		BLOCK_ATOMIC(op, uptr, v, val, ok);
	}
	*io = v;
	return 0;
fault:
	return ua_access_ok(uptr, sizeof(*uptr)) ? 1 : -1;
}

#define BLOCK_OPS(name)                                                        \
	{                                                                      \
		name, block_get8, block_get16, block_get32, block_get64,       \
		    block_put8, block_put16, block_put32, block_put64,         \
		    block_copy, block_scoped_get4, block_scoped_put4,          \
		    block_masked_get8, block_copy_from, block_get_inline,      \
		    block_put_inline, block_array, block_atomic4,              \
		    block_atomic8                                              \
	}

#endif /* BLOCKS_OPS_H */

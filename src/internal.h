/* SPDX-License-Identifier: MIT */
/*
 * The types and macros every part of the library shares; not installed.
 * Each module's own declarations are in its own header (the README's
 * "Where things are" says which file holds what).
 */
#ifndef UA_INTERNAL_H
#define UA_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

/* The library defines the copies: no checking macros over them */
#define UA_NO_FORTIFY 1
#include "uaccess.h"

#define UA_EXPORT __attribute__((visibility("default")))
#define UA_TLS __thread __attribute__((tls_model("initial-exec")))
#define ua_likely(x) __builtin_expect(!!(x), 1)
#define ua_unlikely(x) __builtin_expect(!!(x), 0)

/* Which register tracks progress on the user side of a copy */
enum ua_side { UA_SIDE_SRC, UA_SIDE_DST };

/*
 * What a routine is running for.  The low bit is the side whose cursor the
 * handler reads (enum ua_side).
 */
enum ua_kind {
	UA_KIND_FROM = UA_SIDE_SRC, /* copy_from_user: zero-fill on a fault */
	UA_KIND_TO = UA_SIDE_DST,   /* copy_to_user */
	UA_KIND_CLEAR = 2 | UA_SIDE_DST, /* clear_user */
	UA_KIND_RAW = 4 | UA_SIDE_SRC,   /* from the user side, no zero-fill */
};

/*
 * The user side of a routine, as the handler reads it from the interrupted
 * registers (arch.h): [lo, hi), hi == 0 for none.
 */
struct ua_user {
	uintptr_t lo, hi;
	enum ua_kind kind;
};

/*
 * Routines: return 0, or, after a fault, what ua_copy_fault (routine.h)
 * returns: the bytes not done.  Every call passes the user side in the
 * three trailing arguments, UA_USER_ARGS(lo, hi, kind) (arch.h), which the
 * routines leave alone so that the handler can read them from the
 * interrupted registers; UA_NO_USER for ua_memcpy, which has no user side.
 * A clear routine takes the same arguments and ignores src.
 */
typedef size_t (*ua_copy_fn)(void *dst, const void *src, size_t n, uintptr_t a3,
			     uintptr_t a4, uintptr_t a5);
typedef ua_copy_fn ua_clear_fn;
#define UA_NO_USER 0, 0, 0
/* ua_memcpy's routines: no user side, return dst */
typedef void *(*ua_memcpy_fn)(void *dst, const void *src, size_t n);

#endif /* UA_INTERNAL_H */

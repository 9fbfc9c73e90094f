/* SPDX-License-Identifier: MIT */
/*
 * uaccess: the Linux kernel's user-copy subsystem in userspace.
 *
 * Copies to and from memory that may fault return the number of bytes not
 * copied instead of crashing.  See uaccess(7).
 */
#ifndef UACCESS_H
#define UACCESS_H

#include <signal.h>
#include <stddef.h>
#include <stdint.h>
/* siginfo_t is POSIX: strict ISO modes (-std=c99) hide it in <signal.h> */
#if defined(__GLIBC__) && !defined(__siginfo_t_defined)
#include <bits/types/siginfo_t.h>
#endif

#ifdef __cplusplus
/*
 * The macros' value type: *(ptr)'s without const/volatile (a C++ union
 * member, and the temporaries, take it).
 */
template <typename T> T ua__unqual(const volatile T &);
#define UA__VALUE_TYPE(ptr) __typeof__(ua__unqual(*(ptr)))
#else
/* the comma makes it an rvalue, whose type C leaves unqualified */
#define UA__VALUE_TYPE(ptr) __typeof__(((void)0, *(ptr)))
#endif

#ifdef __cplusplus
extern "C" {
#endif

#define UACCESS_VERSION_MAJOR 0
#define UACCESS_VERSION_MINOR 1
#define UACCESS_VERSION_PATCH 0

/* Handlers, faults, ranges */
int ua_init(void);
int ua_handle_fault(int signo, siginfo_t *info, void *ucontext);
int ua_keep_signals(void);

struct ua_fault {
	void *addr;
	int signo;
	int code;
};
const struct ua_fault *ua_last_fault(void);

int ua_set_user_range(const void *base, size_t len);
int ua_access_ok(const void *uptr, size_t n);

/* Bulk copies: return the number of bytes NOT copied */
size_t ua_copy_from_user(void *dst, const void *usrc, size_t n);
size_t ua_copy_to_user(void *udst, const void *src, size_t n);
size_t ua_clear_user(void *udst, size_t n);
size_t ua_copy_from_user_nocache(void *dst, const void *usrc, size_t n);

/* Strings */
long ua_strnlen_user(const char *ustr, long n);
long ua_strncpy_from_user(char *dst, const char *usrc, long n);

/* Single values: 0 or -EFAULT */
int ua_get_user_u8(uint8_t *ret, const void *uptr);
int ua_get_user_u16(uint16_t *ret, const void *uptr);
int ua_get_user_u32(uint32_t *ret, const void *uptr);
int ua_get_user_u64(uint64_t *ret, const void *uptr);
int ua_put_user_u8(uint8_t val, void *uptr);
int ua_put_user_u16(uint16_t val, void *uptr);
int ua_put_user_u32(uint32_t val, void *uptr);
int ua_put_user_u64(uint64_t val, void *uptr);

/*
 * ua_get_user(x, ptr) / ua_put_user(x, ptr): type-generic on sizeof(*(ptr)),
 * which must be 1, 2, 4 or 8.  Evaluate to 0 or -EFAULT.  On a fault
 * ua_get_user sets x to 0.
 */
#define UA__SIZE_CHECK(ptr)                                                    \
	((void)sizeof(char[(sizeof(*(ptr)) == 1 || sizeof(*(ptr)) == 2 ||      \
			    sizeof(*(ptr)) == 4 || sizeof(*(ptr)) == 8)        \
			       ? 1                                             \
			       : -1]))

#define ua_get_user(x, ptr)                                                    \
	__extension__({                                                        \
		union {                                                        \
			uint64_t v;                                            \
			UA__VALUE_TYPE(ptr) t;                                 \
		} ua__u;                                                       \
		int ua__r;                                                     \
		UA__SIZE_CHECK(ptr);                                           \
		ua__r = ua__get_user_n(&ua__u.v, (ptr), sizeof(*(ptr)));       \
		(x) = ua__u.t;                                                 \
		ua__r;                                                         \
	})

#define ua_put_user(x, ptr)                                                    \
	__extension__({                                                        \
		UA__VALUE_TYPE(ptr) ua__x = (x);                               \
		uint64_t ua__v = 0;                                            \
		UA__SIZE_CHECK(ptr);                                           \
		__builtin_memcpy(&ua__v, &ua__x, sizeof(ua__x));               \
		ua__put_user_n(ua__v, (ptr), sizeof(*(ptr)));                  \
	})

/* Helpers behind the macros: size is 1, 2, 4 or 8; -EINVAL otherwise. */
int ua__get_user_n(uint64_t *ret, const volatile void *uptr, size_t size);
int ua__put_user_n(uint64_t val, volatile void *uptr, size_t size);

/* Zero checks and extensible structs (kernel semantics) */
int ua_check_zeroed_user(const void *usrc, size_t n);
int ua_copy_struct_from_user(void *dst, size_t ksize, const void *usrc,
			     size_t usize);

/* The same engine, no checks */
void *ua_memcpy(void *dst, const void *src, size_t n);
void *ua_memcpy_nocache(void *dst, const void *src, size_t n);
const char *ua_copy_strategy(size_t n);

/* Exec argument block (the kernel's copy_strings()) */
struct ua_argblock;
#define UA_ARGBLOCK_WINDOWED 1u
#define UA_ARGBLOCK_NO_MAP_CACHE 2u
int ua_argblock_new(struct ua_argblock **ret, size_t max_bytes, unsigned flags);
void ua_argblock_free(struct ua_argblock *bp);
int ua_copy_strings(struct ua_argblock *bp, int argc, const char *const *uargv);
int ua_copy_strings_kernel(struct ua_argblock *bp, int argc,
			   const char *const *argv);
size_t ua_argblock_size(const struct ua_argblock *bp);
size_t ua_argblock_read(const struct ua_argblock *bp, void *out, size_t n);
unsigned long ua_argblock_maps(const struct ua_argblock *bp);

#ifdef __cplusplus
}
#endif

#endif /* UACCESS_H */

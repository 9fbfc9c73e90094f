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
#ifndef __cplusplus
#include <stdbool.h>
#endif
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

/*
 * Copy-size hardening (the kernel's check_copy_size()).  Under
 * _FORTIFY_SOURCE >= 1 with optimisation, a copy whose length is larger
 * than the trusted buffer (its __builtin_object_size, or at level 3 its
 * __builtin_dynamic_object_size) is a compile error when both are known,
 * and stops the process at run time otherwise (ua__copy_overflow: a
 * message naming the function, then abort).  The three are then macros
 * (the function itself remains: (ua_copy_from_user)(...) or its address).
 * Define UA_NO_FORTIFY to opt out.  Without fortify they are the plain
 * functions.
 */
void ua__copy_overflow(const char *fn, size_t n, size_t size)
    __attribute__((__noreturn__, __cold__));

#if defined(__OPTIMIZE__) && defined(_FORTIFY_SOURCE) && defined(__GNUC__) &&  \
    !defined(UA_NO_FORTIFY)
#if _FORTIFY_SOURCE > 0
#define UA__FORTIFY 1
#endif
#endif
#ifndef UA__FORTIFY
#define UA__FORTIFY 0
#endif

#if UA__FORTIFY
#define UA__OBJSIZE(p) __builtin_object_size((p), 0)
#if _FORTIFY_SOURCE > 2 && defined(__has_builtin)
#if __has_builtin(__builtin_dynamic_object_size)
#undef UA__OBJSIZE
#define UA__OBJSIZE(p) __builtin_dynamic_object_size((p), 0)
#endif
#endif

/* A call left after optimisation is a compile error (GCC, Clang >= 14) */
#if !defined(__clang__) || __clang_major__ >= 14
#define UA__COPY_ERROR(fn)                                                     \
	__attribute__((__error__(#fn                                           \
				 ": n is larger than the buffer it copies "    \
				 "to or from")))
#else
#define UA__COPY_ERROR(fn)
#endif
void ua__copy_from_user_overflow(void) UA__COPY_ERROR(ua_copy_from_user);
void ua__copy_to_user_overflow(void) UA__COPY_ERROR(ua_copy_to_user);
void ua__copy_from_user_nocache_overflow(void)
    UA__COPY_ERROR(ua_copy_from_user_nocache);

/*
 * The checked calls: the object size is taken where the call is written
 * (a macro), checked in an always-inline helper, then the function runs.
 */
#define UA__CHECKED_COPY(fn, T1, T2, a1, a2, buf)                              \
	static __inline __attribute__((__always_inline__, __artificial__))     \
	size_t ua__##fn##_chk(T1 a1, T2 a2, size_t n, size_t size)             \
	{                                                                      \
		if (__builtin_constant_p(n > size) && n > size)                \
			ua__##fn##_overflow();                                 \
		else if (n > size)                                             \
			ua__copy_overflow("ua_" #fn, n, size);                 \
		return ua_##fn(a1, a2, n);                                     \
	}
UA__CHECKED_COPY(copy_from_user, void *, const void *, dst, usrc, dst)
UA__CHECKED_COPY(copy_to_user, void *, const void *, udst, src, src)
UA__CHECKED_COPY(copy_from_user_nocache, void *, const void *, dst, usrc, dst)

#define ua_copy_from_user(dst, usrc, n)                                        \
	ua__copy_from_user_chk((dst), (usrc), (n), UA__OBJSIZE(dst))
#define ua_copy_to_user(udst, src, n)                                          \
	ua__copy_to_user_chk((udst), (src), (n), UA__OBJSIZE(src))
#define ua_copy_from_user_nocache(dst, usrc, n)                                \
	ua__copy_from_user_nocache_chk((dst), (usrc), (n), UA__OBJSIZE(dst))
#endif /* UA__FORTIFY */

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

/*
 * Inline user-access blocks (the kernel's user_access_begin()):
 *
 *	if (!ua_user_access_begin(uptr, sizeof(*uptr)))
 *		return -EFAULT;
 *	ua_unsafe_get_user(a, &uptr->a, efault);
 *	ua_unsafe_put_user(b, &uptr->b, efault);
 *	ua_user_access_end();
 *	return 0;
 * efault:
 *	ua_user_access_end();
 *	return -EFAULT;
 *
 * ua_user_access_begin checks [uptr, uptr + len) once against the thread's
 * user range and evaluates to true or false; uptr is left alone, as the
 * kernel's, and may be any pointer expression or an array.  Each unsafe
 * access is then one load or store whose fault jumps to the caller's label
 * (asm goto and an exception-table entry in the caller's own object).
 * See ua_user_access_begin(3).
 *
 * The guard under speculation: a speculation barrier on the accepted path
 * (the kernel's barrier_nospec: lfence, or dsb+isb on arm64), so that no
 * access of the block runs before the check has resolved.  The pointer is
 * the caller's, used as written, so it cannot carry a mask; masking each
 * access instead would need the block's bounds at every access, which a
 * begin that returns a truth value has nowhere to keep.  One barrier per
 * block costs about what one access does; a block that wants none takes
 * the masked pointer: ua_masked_user_access_begin or the scoped forms.
 * i386 code built without SSE2 has no lfence to use: there, as the kernel
 * on CPUs without it, the barrier is a compiler barrier only.
 */
uintptr_t ua__user_access_begin(const volatile void *uptr, size_t len);
uintptr_t ua__masked_user_access_begin(const volatile void *uptr);
int ua_can_do_masked_user_access(void);

#if defined(__x86_64__) || (defined(__i386__) && defined(__SSE2__))
#define UA__BARRIER_NOSPEC() __asm__ __volatile__("lfence" ::: "memory")
#elif defined(__aarch64__)
#define UA__BARRIER_NOSPEC() __asm__ __volatile__("dsb nsh\n\tisb" ::: "memory")
#else
#define UA__BARRIER_NOSPEC() __asm__ __volatile__("" ::: "memory")
#endif

#define ua_user_access_begin(uptr, len)                                        \
	__extension__({                                                        \
		bool ua__ok =                                                  \
		    ua__user_access_begin((uptr), (len)) != UINTPTR_MAX;       \
		if (ua__ok)                                                    \
			UA__BARRIER_NOSPEC();                                  \
		ua__ok;                                                        \
	})
#define ua_user_read_access_begin(uptr, len) ua_user_access_begin(uptr, len)
#define ua_user_write_access_begin(uptr, len) ua_user_access_begin(uptr, len)

#define ua_user_access_end() ((void)0)
#define ua_user_read_access_end() ((void)0)
#define ua_user_write_access_end() ((void)0)

/*
 * ua_masked_user_access_begin(uptr): uptr itself when it lies in the user
 * range, else the top of the default range, a page never mapped; computed
 * without a branch (kernel 6.12).  Nothing is checked: the block's first
 * access must lie within a page of uptr, where a refused pointer faults.
 * Only where ua_can_do_masked_user_access() (this thread is on the default
 * range, whose ends are unmapped): a thread's own range has no guard.
 */
#define ua_masked_user_access_begin(uptr)                                      \
	((__typeof__(uptr))ua__masked_user_access_begin(uptr))
#define ua_masked_user_read_access_begin(uptr) ua_masked_user_access_begin(uptr)
#define ua_masked_user_write_access_begin(uptr)                                \
	ua_masked_user_access_begin(uptr)

/*
 * Scoped blocks (Linux 6.19): the statement that follows is the block.
 *
 *	ua_scoped_user_rw_access(uptr, efault) {
 *		ua_unsafe_get_user(v, &uptr->a, efault);
 *		ua_unsafe_put_user(v + 1, &uptr->b, efault);
 *	}
 *	return 0;
 * efault:
 *	return -EFAULT;
 *
 * uptr must be a variable.  [uptr, uptr + size) (size: sizeof(*uptr), or
 * the _size forms' argument) is checked once, and inside the scope uptr
 * names a const copy holding the masked pointer (itself when accepted; an
 * address that cannot be mapped when refused, also under speculation, so
 * that no barrier is needed); outside, the variable is untouched.  A
 * refused range goes to label.  The scope is a one-pass for statement:
 * break, return and goto leave it, and the block ends with it
 * (ua_user_access_end() has nothing to undo in user space).  The copy
 * takes __typeof__(uptr), so a pointer to const stays one (the kernel's
 * first version went through void __user *, which dropped it).
 */
#define ua__scoped_user_access_begin(uptr, size, label)                        \
	__extension__({                                                        \
		__typeof__(uptr) ua__p =                                       \
		    (__typeof__(uptr))ua__user_access_begin((uptr), (size));   \
		if ((uintptr_t)ua__p == UINTPTR_MAX)                           \
			goto label;                                            \
		ua__p;                                                         \
	})
#define ua__scoped_user_access(uptr, size, label)                              \
	for (bool ua__done = false; !ua__done; ua__done = true)                \
		for (__typeof__(uptr) ua__sp =                                 \
			 ua__scoped_user_access_begin(uptr, size, label);      \
		     !ua__done; ua__done = true)                               \
			for (__typeof__(uptr) const uptr = ua__sp; !ua__done;  \
			     ua__done = true)

#define ua_scoped_user_read_access_size(uptr, size, label)                     \
	ua__scoped_user_access(uptr, size, label)
#define ua_scoped_user_write_access_size(uptr, size, label)                    \
	ua__scoped_user_access(uptr, size, label)
#define ua_scoped_user_rw_access_size(uptr, size, label)                       \
	ua__scoped_user_access(uptr, size, label)
#define ua_scoped_user_read_access(uptr, label)                                \
	ua__scoped_user_access(uptr, sizeof(*(uptr)), label)
#define ua_scoped_user_write_access(uptr, label)                               \
	ua__scoped_user_access(uptr, sizeof(*(uptr)), label)
#define ua_scoped_user_rw_access(uptr, label)                                  \
	ua__scoped_user_access(uptr, sizeof(*(uptr)), label)

/*
 * UA_ASM_GOTO_OUTPUT: asm goto may have outputs (GCC >= 11, Clang >= 11);
 * without, a load sets a flag in a fixup stub and a branch tests it, as the
 * kernel does.  A program may define it to 0 before the #include.
 */
#ifndef UA_ASM_GOTO_OUTPUT
#if defined(__clang__)
#if defined(__has_extension)
#if __has_extension(gnu_asm_goto_with_outputs)
#define UA_ASM_GOTO_OUTPUT 1
#endif
#endif
#elif defined(__GNUC__) && __GNUC__ >= 11
#define UA_ASM_GOTO_OUTPUT 1
#endif
#ifndef UA_ASM_GOTO_OUTPUT
#define UA_ASM_GOTO_OUTPUT 0
#endif
#endif

/* asm goto: GCC >= 4.5, Clang >= 9; else the accesses are function calls */
#if (defined(__x86_64__) || defined(__i386__) || defined(__aarch64__)) &&      \
    defined(__GNUC__) && !defined(UA_NO_INLINE_ACCESS) &&                      \
    (defined(__clang__) ? __clang_major__ >= 9                                 \
			: __GNUC__ * 100 + __GNUC_MINOR__ >= 405)
#define UA__INLINE_ACCESS 1
#else
#define UA__INLINE_ACCESS 0
#endif

#if UA__INLINE_ACCESS
/* clang-format off */
/* An entry of the library's exception table (src/extable.h: UA_EX_FIXUP) */
#define UA__EXTABLE(insn, fixup)                                               \
	".pushsection ua_extable_blocks,\"a\"\n\t.balign 4\n\t"                 \
	".long " insn " - .\n\t.long " fixup " - .\n\t.long 1\n\t"              \
	".popsection\n\t"
#define UA__FIXUP_BEGIN ".pushsection .text.ua_fixup,\"ax\"\n"
#define UA__FIXUP_END ".popsection\n\t"

#if defined(__aarch64__)
#define UA__LD1 "ldrb %w[ua_v], %[ua_m]"
#define UA__LD2 "ldrh %w[ua_v], %[ua_m]"
#define UA__LD4 "ldr %w[ua_v], %[ua_m]"
#define UA__LD8 "ldr %x[ua_v], %[ua_m]"
#define UA__ST1 "strb %w[ua_v], %[ua_m]"
#define UA__ST2 "strh %w[ua_v], %[ua_m]"
#define UA__ST4 "str %w[ua_v], %[ua_m]"
#define UA__ST8 "str %x[ua_v], %[ua_m]"
#define UA__GET_CONS1 "=r"
#define UA__PUT_CONS1 "rZ"
#define UA__PUT_CONS "rZ"
#define UA__PUT_CONS8 "rZ"
#define UA__SET_ERR "mov %w[ua_e], #1\n\tb 2b\n"
#else
#define UA__LD1 "movb %[ua_m], %[ua_v]"
#define UA__LD2 "movw %[ua_m], %[ua_v]"
#define UA__LD4 "movl %[ua_m], %[ua_v]"
#define UA__LD8 "movq %[ua_m], %[ua_v]"
#define UA__ST1 "movb %[ua_v], %[ua_m]"
#define UA__ST2 "movw %[ua_v], %[ua_m]"
#define UA__ST4 "movl %[ua_v], %[ua_m]"
#define UA__ST8 "movq %[ua_v], %[ua_m]"
#define UA__GET_CONS1 "=q"
#define UA__PUT_CONS1 "iq"
#define UA__PUT_CONS "ir"
#define UA__PUT_CONS8 "er"
#define UA__SET_ERR "movl $1, %[ua_e]\n\tjmp 2b\n"
#endif
/* clang-format on */

/*
 * The memory operand is *ptr itself, whatever its type: the instruction
 * gives the size (the cases of another size are dead code).  i386 reads and
 * writes a 64-bit value as two 32-bit halves through a register.
 */
#if UA_ASM_GOTO_OUTPUT
/* One load: its fault goes straight to the label */
#define UA__GET1(insn, vcons, out, ptr, label)                                 \
	__asm__ __volatile__ goto("1:\t" insn                                  \
				  "\n\t" UA__EXTABLE("1b", "%l[" #label "]")   \
				  : [ua_v] vcons(out)                          \
				  : [ua_m] "m"(*(ptr))                         \
				  :                                            \
				  : label)
#define UA__GET2X4(out, ptr, label)                                            \
	do {                                                                   \
		uint32_t ua__lo, ua__hi;                                       \
		__asm__ __volatile__ goto(                                     \
		    "1:\tmovl (%[ua_p]), %[ua_v0]\n"                           \
		    "2:\tmovl 4(%[ua_p]), %[ua_v1]\n\t" UA__EXTABLE(           \
			"1b", "%l[" #label "]")                                \
			UA__EXTABLE("2b", "%l[" #label "]")                    \
		    : [ua_v0] "=&r"(ua__lo), [ua_v1] "=r"(ua__hi)              \
		    : [ua_p] "r"(ptr), "m"(*(ptr))                             \
		    :                                                          \
		    : label);                                                  \
		(out) = ua__lo | (uint64_t)ua__hi << 32;                       \
	} while (0)
#define UA__STORE_OUT(ptr) [ua_m] "=m"(*(ptr))
#define UA__STORE_IN(ptr)
#define UA__STORE_CLOBBER
#else
/* One load; a fault runs a stub that sets ua__err, tested after it */
#define UA__GET1(insn, vcons, out, ptr, label)                                 \
	do {                                                                   \
		int ua__err = 0;                                               \
		__asm__ __volatile__(                                          \
		    "1:\t" insn "\n2:\n\t" UA__FIXUP_BEGIN                     \
		    "3:\t" UA__SET_ERR UA__FIXUP_END UA__EXTABLE("1b", "3b")   \
		    : [ua_v] vcons(out), [ua_e] "+r"(ua__err)                  \
		    : [ua_m] "m"(*(ptr)));                                     \
		if (__builtin_expect(ua__err, 0))                              \
			goto label;                                            \
	} while (0)
#define UA__GET2X4(out, ptr, label)                                            \
	do {                                                                   \
		uint32_t ua__lo, ua__hi;                                       \
		int ua__err = 0;                                               \
		__asm__ __volatile__(                                          \
		    "1:\tmovl (%[ua_p]), %[ua_v0]\n"                           \
		    "2:\tmovl 4(%[ua_p]), %[ua_v1]\n"                          \
		    "4:\n\t" UA__FIXUP_BEGIN                                   \
		    "3:\tmovl $1, %[ua_e]\n\tjmp 4b\n" UA__FIXUP_END           \
			UA__EXTABLE("1b", "3b") UA__EXTABLE("2b", "3b")        \
		    : [ua_v0] "=&r"(ua__lo), [ua_v1] "=&r"(ua__hi),            \
		      [ua_e] "+r"(ua__err)                                     \
		    : [ua_p] "r"(ptr), "m"(*(ptr)));                           \
		if (__builtin_expect(ua__err, 0))                              \
			goto label;                                            \
		(out) = ua__lo | (uint64_t)ua__hi << 32;                       \
	} while (0)
/* Stores have no output: the asm is told that it writes memory */
#define UA__STORE_OUT(ptr)
#define UA__STORE_IN(ptr) , [ua_m] "m"(*(ptr))
#define UA__STORE_CLOBBER "memory"
#endif

/* One store: its fault goes straight to the label */
#define UA__PUT1(insn, cons, T, val, ptr, label)                               \
	__asm__ __volatile__ goto("1:\t" insn                                  \
				  "\n\t" UA__EXTABLE("1b", "%l[" #label "]")   \
				  : UA__STORE_OUT(ptr)                         \
				  : [ua_v] cons((T)(val)) UA__STORE_IN(ptr)    \
				  : UA__STORE_CLOBBER                          \
				  : label)
/* i386: two 32-bit stores, the low-addressed first */
#define UA__PUT2X4(val, ptr, label)                                            \
	__asm__ __volatile__ goto(                                             \
	    "1:\tmovl %[ua_v0], (%[ua_p])\n"                                   \
	    "2:\tmovl %[ua_v1], 4(%[ua_p])\n\t" UA__EXTABLE(                   \
		"1b", "%l[" #label "]") UA__EXTABLE("2b", "%l[" #label "]")    \
	    : UA__STORE_OUT(ptr)                                               \
	    : [ua_v0] "ir"((uint32_t)(val)),                                   \
	      [ua_v1] "ir"((uint32_t)((val) >> 32)),                           \
	      [ua_p] "r"(ptr)UA__STORE_IN(ptr)                                 \
	    : UA__STORE_CLOBBER                                                \
	    : label)

#if defined(__i386__)
#define UA__GET8(out, ptr, label) UA__GET2X4(out, ptr, label)
#define UA__PUT8(val, ptr, label) UA__PUT2X4(val, ptr, label)
#else
#define UA__GET8(out, ptr, label)                                              \
	do {                                                                   \
		uint64_t ua__8;                                                \
		UA__GET1(UA__LD8, "=r", ua__8, ptr, label);                    \
		(out) = ua__8;                                                 \
	} while (0)
#define UA__PUT8(val, ptr, label)                                              \
	UA__PUT1(UA__ST8, UA__PUT_CONS8, uint64_t, val, ptr, label)
#endif

/* The value, zero-extended into 64 bits, by the size of *ptr */
#define UA__UNSAFE_GET(v, ptr, label)                                          \
	switch (sizeof(*(ptr))) {                                              \
	case 1: {                                                              \
		uint8_t ua__1;                                                 \
		UA__GET1(UA__LD1, UA__GET_CONS1, ua__1, ptr, label);           \
		(v) = ua__1;                                                   \
		break;                                                         \
	}                                                                      \
	case 2: {                                                              \
		uint16_t ua__2;                                                \
		UA__GET1(UA__LD2, "=r", ua__2, ptr, label);                    \
		(v) = ua__2;                                                   \
		break;                                                         \
	}                                                                      \
	case 4: {                                                              \
		uint32_t ua__4;                                                \
		UA__GET1(UA__LD4, "=r", ua__4, ptr, label);                    \
		(v) = ua__4;                                                   \
		break;                                                         \
	}                                                                      \
	default:                                                               \
		UA__GET8(v, ptr, label);                                       \
		break;                                                         \
	}

#define UA__UNSAFE_PUT(v, ptr, label)                                          \
	switch (sizeof(*(ptr))) {                                              \
	case 1:                                                                \
		UA__PUT1(UA__ST1, UA__PUT_CONS1, uint8_t, v, ptr, label);      \
		break;                                                         \
	case 2:                                                                \
		UA__PUT1(UA__ST2, UA__PUT_CONS, uint16_t, v, ptr, label);      \
		break;                                                         \
	case 4:                                                                \
		UA__PUT1(UA__ST4, UA__PUT_CONS, uint32_t, v, ptr, label);      \
		break;                                                         \
	default:                                                               \
		UA__PUT8(v, ptr, label);                                       \
		break;                                                         \
	}
#else
/* No asm goto here: each access is a call that checks the range again */
#define UA__UNSAFE_GET(v, ptr, label)                                          \
	if (ua__get_user_n(&(v), (ptr), sizeof(*(ptr))))                       \
		goto label;
#define UA__UNSAFE_PUT(v, ptr, label)                                          \
	if (ua__put_user_n((v), (ptr), sizeof(*(ptr))))                        \
		goto label;
#endif /* UA__INLINE_ACCESS */

/*
 * ua_unsafe_get_user(x, ptr, label) / ua_unsafe_put_user(x, ptr, label):
 * statements; type-generic on sizeof(*(ptr)) as ua_get_user.  On a fault,
 * control goes to label; x is then unspecified.
 */
#define ua_unsafe_get_user(x, ptr, label)                                      \
	do {                                                                   \
		union {                                                        \
			uint64_t v;                                            \
			UA__VALUE_TYPE(ptr) t;                                 \
		} ua__g;                                                       \
		UA__SIZE_CHECK(ptr);                                           \
		UA__UNSAFE_GET(ua__g.v, (ptr), label)                          \
		(x) = ua__g.t;                                                 \
	} while (0)

#define ua_unsafe_put_user(x, ptr, label)                                      \
	do {                                                                   \
		UA__VALUE_TYPE(ptr) ua__x = (x);                               \
		uint64_t ua__p = 0;                                            \
		UA__SIZE_CHECK(ptr);                                           \
		__builtin_memcpy(&ua__p, &ua__x, sizeof(ua__x));               \
		UA__UNSAFE_PUT(ua__p, (ptr), label)                            \
	} while (0)

/* len bytes from trusted src to udst: 8-byte stores, then 4, 2, 1 */
#define ua_unsafe_copy_to_user(udst, src, len, label)                          \
	do {                                                                   \
		char *ua__d = (char *)(udst);                                  \
		const char *ua__s = (const char *)(src);                       \
		size_t ua__n = (len);                                          \
		for (; ua__n >= 8; ua__d += 8, ua__s += 8, ua__n -= 8) {       \
			uint64_t ua__w;                                        \
			__builtin_memcpy(&ua__w, ua__s, 8);                    \
			ua_unsafe_put_user(ua__w, (uint64_t *)(void *)ua__d,   \
					   label);                             \
		}                                                              \
		if (ua__n & 4) {                                               \
			uint32_t ua__w;                                        \
			__builtin_memcpy(&ua__w, ua__s, 4);                    \
			ua_unsafe_put_user(ua__w, (uint32_t *)(void *)ua__d,   \
					   label);                             \
			ua__d += 4;                                            \
			ua__s += 4;                                            \
		}                                                              \
		if (ua__n & 2) {                                               \
			uint16_t ua__w;                                        \
			__builtin_memcpy(&ua__w, ua__s, 2);                    \
			ua_unsafe_put_user(ua__w, (uint16_t *)(void *)ua__d,   \
					   label);                             \
			ua__d += 2;                                            \
			ua__s += 2;                                            \
		}                                                              \
		if (ua__n & 1)                                                 \
			ua_unsafe_put_user(*ua__s, ua__d, label);              \
	} while (0)

/* len bytes from usrc to trusted dst: 8-byte loads, then 4, 2, 1 */
#define ua_unsafe_copy_from_user(dst, usrc, len, label)                        \
	do {                                                                   \
		char *ua__d = (char *)(dst);                                   \
		const char *ua__s = (const char *)(usrc);                      \
		size_t ua__n = (len);                                          \
		for (; ua__n >= 8; ua__d += 8, ua__s += 8, ua__n -= 8) {       \
			uint64_t ua__w;                                        \
			ua_unsafe_get_user(                                    \
			    ua__w, (const uint64_t *)(const void *)ua__s,      \
			    label);                                            \
			__builtin_memcpy(ua__d, &ua__w, 8);                    \
		}                                                              \
		if (ua__n & 4) {                                               \
			uint32_t ua__w;                                        \
			ua_unsafe_get_user(                                    \
			    ua__w, (const uint32_t *)(const void *)ua__s,      \
			    label);                                            \
			__builtin_memcpy(ua__d, &ua__w, 4);                    \
			ua__d += 4;                                            \
			ua__s += 4;                                            \
		}                                                              \
		if (ua__n & 2) {                                               \
			uint16_t ua__w;                                        \
			ua_unsafe_get_user(                                    \
			    ua__w, (const uint16_t *)(const void *)ua__s,      \
			    label);                                            \
			__builtin_memcpy(ua__d, &ua__w, 2);                    \
			ua__d += 2;                                            \
			ua__s += 2;                                            \
		}                                                              \
		if (ua__n & 1)                                                 \
			ua_unsafe_get_user(*ua__d, ua__s, label);              \
	} while (0)

/*
 * ua_get_user_inline(x, uptr) / ua_put_user_inline(x, uptr): one access
 * in its own scoped block, compiled inline; 0 or -EFAULT (14, as
 * <errno.h> has it).  On a fault ua_get_user_inline leaves x unspecified.
 * (Nothing before the local label is initialised where declared: clang++
 * takes every asm goto of a function to reach every label of one.)
 */
#define ua_get_user_inline(x, uptr)                                            \
	__extension__({                                                        \
		__label__ ua__efault;                                          \
		__typeof__(uptr) ua__gp;                                       \
		int ua__ret;                                                   \
                                                                               \
		ua__gp = (uptr);                                               \
		ua__ret = 0;                                                   \
		ua_scoped_user_read_access(ua__gp, ua__efault)                 \
		    ua_unsafe_get_user(x, ua__gp, ua__efault);                 \
		if (0) {                                                       \
		ua__efault:                                                    \
			ua__ret = -14;                                         \
		}                                                              \
		ua__ret;                                                       \
	})
#define ua_put_user_inline(x, uptr)                                            \
	__extension__({                                                        \
		__label__ ua__efault;                                          \
		__typeof__(uptr) ua__pp;                                       \
		int ua__ret;                                                   \
                                                                               \
		ua__pp = (uptr);                                               \
		ua__ret = 0;                                                   \
		ua_scoped_user_write_access(ua__pp, ua__efault)                \
		    ua_unsafe_put_user(x, ua__pp, ua__efault);                 \
		if (0) {                                                       \
		ua__efault:                                                    \
			ua__ret = -14;                                         \
		}                                                              \
		ua__ret;                                                       \
	})

/*
 * Atomics inside a block (the kernel's unsafe_try_cmpxchg_user), on a
 * word of 4 or 8 bytes aligned to its size; a fault goes to label, and
 * each access has its exception-table entry in the caller's object, as
 * ua_unsafe_get_user.  See ua_unsafe_try_cmpxchg_user(3).
 *
 * ua_unsafe_try_cmpxchg_user(ptr, oldp, new, label): true when *ptr held
 *	*oldp and now holds new; false with *oldp = the value found.
 * ua_unsafe_xchg_user(ptr, val, oldp, label): *oldp = *ptr, *ptr = val.
 * ua_unsafe_load_acquire_user(x, ptr, label): x = *ptr, an acquire.
 * ua_unsafe_store_release_user(x, ptr, label): *ptr = x, a release.
 *
 * cmpxchg and xchg are full barriers.  x86: lock cmpxchg (cmpxchg8b for
 * 8 bytes on i386), xchg, and plain moves with a compiler barrier
 * (acquire and release under TSO).  aarch64: ldaxr/stlxr loops (every
 * ARMv8 CPU has them; no LSE here), ldar and stlr; a failed compare
 * stores the value found back, so that read-only memory faults whatever
 * the compare finds, as on x86.  i386 has no 8-byte move that an asm may
 * use without SSE2 or the x87 stack: an 8-byte xchg or store there is a
 * cmpxchg8b loop, and an 8-byte load is a call to
 * ua_load_acquire_user_u64.
 */
#define UA__ATOMIC_SIZE_CHECK(ptr)                                             \
	((void)sizeof(                                                         \
	    char[(sizeof(*(ptr)) == 4 || sizeof(*(ptr)) == 8) ? 1 : -1]))
/* The word as an integer of its size, whatever *ptr's type */
typedef uint32_t ua__u32_alias __attribute__((may_alias));
typedef uint64_t ua__u64_alias __attribute__((may_alias));
#define UA__U32P(ptr) ((ua__u32_alias *)(uintptr_t)(ptr))
#define UA__U64P(ptr) ((ua__u64_alias *)(uintptr_t)(ptr))
#define UA__UNPAREN(...) __VA_ARGS__

#if UA__INLINE_ACCESS
/*
 * One asm whose accesses may fault: body names each faulting instruction
 * with UA__AFT(label) as its fixup; outs, ins and clob are parenthesised
 * operand lists.  Without asm goto outputs the fixup is a stub that sets
 * a flag and resumes after the body (local labels 8 and 9 are its).
 */
/* clang-format off */
#if defined(__aarch64__)
#define UA__ASET_ERR "mov %w[ua_e], #1\n\tb 9b\n"
#define UA__AERR_CONS "+r"
#else
/* a register or memory: i386's cmpxchg8b leaves few registers */
#define UA__ASET_ERR "movl $1, %[ua_e]\n\tjmp 9b\n"
#define UA__AERR_CONS "+rm"
#endif
/* clang-format on */
#if UA_ASM_GOTO_OUTPUT
#define UA__AFT(label) "%l[" #label "]"
#define UA__ATOMIC_ASM(label, body, outs, ins, clob)                           \
	__asm__ __volatile__ goto(body                                         \
				  : UA__UNPAREN outs                           \
				  : UA__UNPAREN ins                            \
				  : UA__UNPAREN clob                           \
				  : label)
#else
#define UA__AFT(label) "8f"
#define UA__ATOMIC_ASM(label, body, outs, ins, clob)                           \
	do {                                                                   \
		int ua__aerr = 0;                                              \
		__asm__ __volatile__(                                          \
		    body "\n9:\n\t" UA__FIXUP_BEGIN                            \
			 "8:\t" UA__ASET_ERR UA__FIXUP_END                     \
		    : UA__UNPAREN outs, [ua_e] UA__AERR_CONS(ua__aerr)         \
		    : UA__UNPAREN ins                                          \
		    : UA__UNPAREN clob);                                       \
		if (__builtin_expect(ua__aerr, 0))                             \
			goto label;                                            \
	} while (0)
#endif
#define UA__AXT(n, label) UA__EXTABLE(#n "b", UA__AFT(label))

/*
 * UA__CMPXCHG{4,8}(p, e, n, f, label): f = the value found at p, n stored
 * there if it was e.  UA__XCHG: f = old, v stored.  UA__LDACQ: v = *p.
 * UA__STREL: *p = v.  p is a uint32_t * or uint64_t *.
 */
#if defined(__aarch64__)
#define UA__CMPXCHG(W, p, e, n, f, label)                                      \
	do {                                                                   \
		__typeof__(f) ua__t;                                           \
		uint32_t ua__s;                                                \
		UA__ATOMIC_ASM(                                                \
		    label,                                                     \
		    "1:\tldaxr %" W "[ua_f], %[ua_m]\n\t"                      \
		    "cmp %" W "[ua_f], %" W "[ua_x]\n\t"                       \
		    "csel %" W "[ua_t], %" W "[ua_n], %" W "[ua_f], eq\n"      \
		    "2:\tstlxr %w[ua_s], %" W "[ua_t], %[ua_m]\n\t"            \
		    "cbnz %w[ua_s], 1b\n\t" UA__AXT(1, label)                  \
			UA__AXT(2, label),                                     \
		    ([ua_m] "+Q"(*(p)), [ua_f] "=&r"(f), [ua_t] "=&r"(ua__t),  \
		     [ua_s] "=&r"(ua__s)),                                     \
		    ([ua_x] "r"(e), [ua_n] "r"(n)), ("cc", "memory"));         \
	} while (0)
#define UA__CMPXCHG4(p, e, n, f, label) UA__CMPXCHG("w", p, e, n, f, label)
#define UA__CMPXCHG8(p, e, n, f, label) UA__CMPXCHG("x", p, e, n, f, label)
#define UA__XCHG(W, p, v, f, label)                                            \
	do {                                                                   \
		uint32_t ua__s;                                                \
		UA__ATOMIC_ASM(                                                \
		    label,                                                     \
		    "1:\tldaxr %" W "[ua_f], %[ua_m]\n"                        \
		    "2:\tstlxr %w[ua_s], %" W "[ua_v], %[ua_m]\n\t"            \
		    "cbnz %w[ua_s], 1b\n\t" UA__AXT(1, label)                  \
			UA__AXT(2, label),                                     \
		    ([ua_m] "+Q"(*(p)), [ua_f] "=&r"(f), [ua_s] "=&r"(ua__s)), \
		    ([ua_v] "r"(v)), ("memory"));                              \
	} while (0)
#define UA__XCHG4(p, v, f, label) UA__XCHG("w", p, v, f, label)
#define UA__XCHG8(p, v, f, label) UA__XCHG("x", p, v, f, label)
#define UA__LDACQ(W, p, v, label)                                              \
	UA__ATOMIC_ASM(label,                                                  \
		       "1:\tldar %" W "[ua_v], %[ua_m]\n\t" UA__AXT(1, label), \
		       ([ua_v] "=r"(v)), ([ua_m] "Q"(*(p))), ("memory"))
#define UA__LDACQ4(p, v, label) UA__LDACQ("w", p, v, label)
#define UA__LDACQ8(p, v, label) UA__LDACQ("x", p, v, label)
#define UA__STREL(W, p, v, label)                                              \
	UA__ATOMIC_ASM(label,                                                  \
		       "1:\tstlr %" W "[ua_v], %[ua_m]\n\t" UA__AXT(1, label), \
		       ([ua_m] "=Q"(*(p))), ([ua_v] "r"(v)), ("memory"))
#define UA__STREL4(p, v, label) UA__STREL("w", p, v, label)
#define UA__STREL8(p, v, label) UA__STREL("x", p, v, label)
#else /* x86 */
#define UA__CMPXCHG(S, R, p, e, n, f, label)                                   \
	do {                                                                   \
		(f) = (e);                                                     \
		UA__ATOMIC_ASM(label,                                          \
			       "1:\tlock cmpxchg" S                            \
			       " %[ua_n], %[ua_m]\n\t" UA__AXT(1, label),      \
			       ([ua_m] "+m"(*(p)), [ua_f] "+a"(f)),            \
			       ([ua_n] R(n)), ("memory"));                     \
	} while (0)
#define UA__CMPXCHG4(p, e, n, f, label) UA__CMPXCHG("l", "r", p, e, n, f, label)
#define UA__XCHG(S, p, v, f, label)                                            \
	do {                                                                   \
		(f) = (v);                                                     \
		UA__ATOMIC_ASM(                                                \
		    label,                                                     \
		    "1:\txchg" S " %[ua_f], %[ua_m]\n\t" UA__AXT(1, label),    \
		    ([ua_m] "+m"(*(p)), [ua_f] "+r"(f)), (), ("memory"));      \
	} while (0)
#define UA__XCHG4(p, v, f, label) UA__XCHG("l", p, v, f, label)
#define UA__LDACQ(S, p, v, label)                                              \
	UA__ATOMIC_ASM(label,                                                  \
		       "1:\tmov" S " %[ua_m], %[ua_v]\n\t" UA__AXT(1, label),  \
		       ([ua_v] "=r"(v)), ([ua_m] "m"(*(p))), ("memory"))
#define UA__LDACQ4(p, v, label) UA__LDACQ("l", p, v, label)
#define UA__STREL(S, R, p, v, label)                                           \
	UA__ATOMIC_ASM(label,                                                  \
		       "1:\tmov" S " %[ua_v], %[ua_m]\n\t" UA__AXT(1, label),  \
		       ([ua_m] "=m"(*(p))), ([ua_v] R(v)), ("memory"))
#define UA__STREL4(p, v, label) UA__STREL("l", "ir", p, v, label)
#if defined(__x86_64__)
#define UA__CMPXCHG8(p, e, n, f, label) UA__CMPXCHG("q", "r", p, e, n, f, label)
#define UA__XCHG8(p, v, f, label) UA__XCHG("q", p, v, f, label)
#define UA__LDACQ8(p, v, label) UA__LDACQ("q", p, v, label)
#define UA__STREL8(p, v, label) UA__STREL("q", "er", p, v, label)
#else /* i386 */
#define UA__CMPXCHG8(p, e, n, f, label)                                        \
	do {                                                                   \
		uint32_t ua__lo = (uint32_t)(e),                               \
			 ua__hi = (uint32_t)((e) >> 32);                       \
		UA__ATOMIC_ASM(                                                \
		    label, "1:\tlock cmpxchg8b %[ua_m]\n\t" UA__AXT(1, label), \
		    ([ua_m] "+m"(*(p)), [ua_lo] "+a"(ua__lo),                  \
		     [ua_hi] "+d"(ua__hi)),                                    \
		    ([ua_nl] "b"((uint32_t)(n)), [ua_nh] "c"(                  \
						     (uint32_t)((n) >> 32))),  \
		    ("memory"));                                               \
		(f) = ua__lo | (uint64_t)ua__hi << 32;                         \
	} while (0)
/* A guess read in two halves, then cmpxchg8b until it holds */
#define UA__XCHG8(p, v, f, label)                                              \
	do {                                                                   \
		uint64_t ua__xg, ua__xn = (v);                                 \
		UA__GET2X4(ua__xg, p, label);                                  \
		for (;;) {                                                     \
			UA__CMPXCHG8(p, ua__xg, ua__xn, f, label);             \
			if ((f) == ua__xg)                                     \
				break;                                         \
			ua__xg = (f);                                          \
		}                                                              \
	} while (0)
#define UA__LDACQ8(p, v, label)                                                \
	do {                                                                   \
		if (ua_load_acquire_user_u64(p, &(v)))                         \
			goto label;                                            \
	} while (0)
#define UA__STREL8(p, v, label)                                                \
	do {                                                                   \
		uint64_t ua__old;                                              \
		UA__XCHG8(p, v, ua__old, label);                               \
		(void)ua__old;                                                 \
	} while (0)
#endif
#endif /* x86 */
#else  /* !UA__INLINE_ACCESS: calls, which check the range again */
#define UA__ACALL(call, label)                                                 \
	do {                                                                   \
		if (call)                                                      \
			goto label;                                            \
	} while (0)
#define UA__CMPXCHG4(p, e, n, f, label)                                        \
	do {                                                                   \
		(f) = (e);                                                     \
		UA__ACALL(ua_cmpxchg_user_u32(p, &(f), n), label);             \
	} while (0)
#define UA__CMPXCHG8(p, e, n, f, label)                                        \
	do {                                                                   \
		(f) = (e);                                                     \
		UA__ACALL(ua_cmpxchg_user_u64(p, &(f), n), label);             \
	} while (0)
#define UA__XCHG4(p, v, f, label) UA__ACALL(ua_xchg_user_u32(p, v, &(f)), label)
#define UA__XCHG8(p, v, f, label) UA__ACALL(ua_xchg_user_u64(p, v, &(f)), label)
#define UA__LDACQ4(p, v, label)                                                \
	UA__ACALL(ua_load_acquire_user_u32(p, &(v)), label)
#define UA__LDACQ8(p, v, label)                                                \
	UA__ACALL(ua_load_acquire_user_u64(p, &(v)), label)
#define UA__STREL4(p, v, label)                                                \
	UA__ACALL(ua_store_release_user_u32(p, v), label)
#define UA__STREL8(p, v, label)                                                \
	UA__ACALL(ua_store_release_user_u64(p, v), label)
#endif /* UA__INLINE_ACCESS */

/* The value of *ptr's type in a union with a uint64_t, to take its bits */
#define UA__AVAL(ptr)                                                          \
	union {                                                                \
		uint64_t v;                                                    \
		UA__VALUE_TYPE(ptr) t;                                         \
	}

#define ua_unsafe_try_cmpxchg_user(ptr, oldp, new_, label)                     \
	__extension__({                                                        \
		UA__AVAL(ptr) ua__ce, ua__cn, ua__cf;                          \
		bool ua__cok;                                                  \
		UA__ATOMIC_SIZE_CHECK(ptr);                                    \
		ua__ce.v = 0;                                                  \
		ua__ce.t = *(oldp);                                            \
		ua__cn.v = 0;                                                  \
		ua__cn.t = (new_);                                             \
		ua__cf.v = 0;                                                  \
		if (sizeof(*(ptr)) == 4) {                                     \
			uint32_t ua__e4, ua__n4, ua__f4;                       \
			__builtin_memcpy(&ua__e4, &ua__ce, 4);                 \
			__builtin_memcpy(&ua__n4, &ua__cn, 4);                 \
			UA__CMPXCHG4(UA__U32P(ptr), ua__e4, ua__n4, ua__f4,    \
				     label);                                   \
			__builtin_memcpy(&ua__cf, &ua__f4, 4);                 \
			ua__cok = ua__f4 == ua__e4;                            \
		} else {                                                       \
			uint64_t ua__e8, ua__n8, ua__f8;                       \
			__builtin_memcpy(&ua__e8, &ua__ce, 8);                 \
			__builtin_memcpy(&ua__n8, &ua__cn, 8);                 \
			UA__CMPXCHG8(UA__U64P(ptr), ua__e8, ua__n8, ua__f8,    \
				     label);                                   \
			__builtin_memcpy(&ua__cf, &ua__f8, 8);                 \
			ua__cok = ua__f8 == ua__e8;                            \
		}                                                              \
		if (!ua__cok)                                                  \
			*(oldp) = ua__cf.t;                                    \
		ua__cok;                                                       \
	})

#define ua_unsafe_xchg_user(ptr, val, oldp, label)                             \
	do {                                                                   \
		UA__AVAL(ptr) ua__xv, ua__xf;                                  \
		UA__ATOMIC_SIZE_CHECK(ptr);                                    \
		ua__xv.v = 0;                                                  \
		ua__xv.t = (val);                                              \
		ua__xf.v = 0;                                                  \
		if (sizeof(*(ptr)) == 4) {                                     \
			uint32_t ua__v4, ua__f4;                               \
			__builtin_memcpy(&ua__v4, &ua__xv, 4);                 \
			UA__XCHG4(UA__U32P(ptr), ua__v4, ua__f4, label);       \
			__builtin_memcpy(&ua__xf, &ua__f4, 4);                 \
		} else {                                                       \
			uint64_t ua__v8, ua__f8;                               \
			__builtin_memcpy(&ua__v8, &ua__xv, 8);                 \
			UA__XCHG8(UA__U64P(ptr), ua__v8, ua__f8, label);       \
			__builtin_memcpy(&ua__xf, &ua__f8, 8);                 \
		}                                                              \
		*(oldp) = ua__xf.t;                                            \
	} while (0)

#define ua_unsafe_load_acquire_user(x, ptr, label)                             \
	do {                                                                   \
		UA__AVAL(ptr) ua__lv;                                          \
		UA__ATOMIC_SIZE_CHECK(ptr);                                    \
		ua__lv.v = 0;                                                  \
		if (sizeof(*(ptr)) == 4) {                                     \
			uint32_t ua__v4;                                       \
			UA__LDACQ4(UA__U32P(ptr), ua__v4, label);              \
			__builtin_memcpy(&ua__lv, &ua__v4, 4);                 \
		} else {                                                       \
			uint64_t ua__v8;                                       \
			UA__LDACQ8(UA__U64P(ptr), ua__v8, label);              \
			__builtin_memcpy(&ua__lv, &ua__v8, 8);                 \
		}                                                              \
		(x) = ua__lv.t;                                                \
	} while (0)

#define ua_unsafe_store_release_user(x, ptr, label)                            \
	do {                                                                   \
		UA__AVAL(ptr) ua__sv;                                          \
		UA__ATOMIC_SIZE_CHECK(ptr);                                    \
		ua__sv.v = 0;                                                  \
		ua__sv.t = (x);                                                \
		if (sizeof(*(ptr)) == 4) {                                     \
			uint32_t ua__v4;                                       \
			__builtin_memcpy(&ua__v4, &ua__sv, 4);                 \
			UA__STREL4(UA__U32P(ptr), ua__v4, label);              \
		} else {                                                       \
			uint64_t ua__v8;                                       \
			__builtin_memcpy(&ua__v8, &ua__sv, 8);                 \
			UA__STREL8(UA__U64P(ptr), ua__v8, label);              \
		}                                                              \
	} while (0)

/*
 * Every object (program, shared library, plugin) that holds unsafe accesses
 * registers its table with the library when it is loaded and takes it back
 * when it is unloaded: a constructor and a destructor in each file that
 * includes this header, which do nothing where the object has no table.
 * They have the first priority a program may give (101): the table is there
 * before the object's other constructors run, which may call its blocks
 * from a file linked before this one, and until its other destructors end.
 */
void ua__extable_register(const void *start, const void *stop);
void ua__extable_unregister(const void *start);

#if UA__INLINE_ACCESS && !defined(UA__NO_EXTABLE_REGISTRY)
extern const char __start_ua_extable_blocks[]
    __attribute__((weak, visibility("hidden")));
extern const char __stop_ua_extable_blocks[]
    __attribute__((weak, visibility("hidden")));

static void __attribute__((constructor(101), used)) ua__extable_ctor(void)
{
	const char *start = __start_ua_extable_blocks;
	const char *stop = __stop_ua_extable_blocks;

	if (start != stop)
		ua__extable_register(start, stop);
}

static void __attribute__((destructor(101), used)) ua__extable_dtor(void)
{
	const char *start = __start_ua_extable_blocks;
	const char *stop = __stop_ua_extable_blocks;

	if (start != stop)
		ua__extable_unregister(start);
}
#endif

/* Zero checks and extensible structs (kernel semantics) */
int ua_check_zeroed_user(const void *usrc, size_t n);
int ua_copy_struct_from_user(void *dst, size_t ksize, const void *usrc,
			     size_t usize);
int ua_copy_struct_to_user(void *udst, size_t usize, const void *src,
			   size_t ksize, bool *ignored_trailing);

/*
 * Atomic operations on user memory (the kernel's futex and cmpxchg
 * helpers): 0, or -EFAULT with nothing changed; -EINVAL if uptr is not
 * aligned to its size.  The pointers are volatile so that shared words
 * declared so pass as they are.
 */
#define UA_FUTEX_OP_SET 0  /* *uptr = oparg */
#define UA_FUTEX_OP_ADD 1  /* *uptr += oparg */
#define UA_FUTEX_OP_OR 2   /* *uptr |= oparg */
#define UA_FUTEX_OP_ANDN 3 /* *uptr &= ~oparg */
#define UA_FUTEX_OP_XOR 4  /* *uptr ^= oparg */
int ua_cmpxchg_user_u32(volatile uint32_t *uptr, uint32_t *old, uint32_t new_);
int ua_cmpxchg_user_u64(volatile uint64_t *uptr, uint64_t *old, uint64_t new_);
int ua_xchg_user_u32(volatile uint32_t *uptr, uint32_t val, uint32_t *oldp);
int ua_xchg_user_u64(volatile uint64_t *uptr, uint64_t val, uint64_t *oldp);
int ua_futex_atomic_op_user(int op, uint32_t oparg, int *oval,
			    volatile uint32_t *uptr);
int ua_load_acquire_user_u32(const volatile uint32_t *uptr, uint32_t *val);
int ua_load_acquire_user_u64(const volatile uint64_t *uptr, uint64_t *val);
int ua_store_release_user_u32(volatile uint32_t *uptr, uint32_t val);
int ua_store_release_user_u64(volatile uint64_t *uptr, uint64_t val);

/*
 * Usercopy fault injection (the kernel's fail_usercopy): the same
 * attributes as UACCESS_FAIL, "probability=P:interval=I:times=T:
 * mode=whole|partial[:seed=S]"; NULL or "" turns it off.  0 or -EINVAL.
 */
int ua_fail_usercopy(const char *spec);

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

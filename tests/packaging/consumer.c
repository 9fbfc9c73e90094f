/* SPDX-License-Identifier: MIT */
/*
 * Description: a user of the installed package.  It must compile as strict
 * C99, C11 and C++11 (pedantic, -Werror), with no feature-test macro, using
 * every public name including the ua_get_user/ua_put_user macros and the
 * inline user-access blocks, link, and
 * run, without any call changing errno.  Only ISO C besides <uaccess.h>:
 * the bad pointer is in the page at 0, which is never in the user range.
 */
#include <uaccess.h>

#include <errno.h>
#include <stdio.h>
#include <string.h>

static int failures;

/*
 * ua_get_user through a T, const T, volatile T and const volatile T
 * pointer, ua_put_user through T and volatile T: the kernel's callers
 * (futex words, for one) pass volatile pointers.  Neither may warn.
 */
#define ROUND_TRIP(T, buf, val)                                                \
	do {                                                                   \
		T ua_v = 0;                                                    \
		EXPECT(ua_put_user((T)(val), (T *)(void *)(buf)) == 0);        \
		EXPECT(ua_put_user((T)(val), (volatile T *)(void *)(buf)) ==   \
		       0);                                                     \
		EXPECT(ua_get_user(ua_v, (T *)(void *)(buf)) == 0 &&           \
		       ua_v == (T)(val));                                      \
		EXPECT(ua_get_user(ua_v, (const T *)(const void *)(buf)) ==    \
			   0 &&                                                \
		       ua_v == (T)(val));                                      \
		EXPECT(ua_get_user(ua_v, (volatile T *)(void *)(buf)) == 0 &&  \
		       ua_v == (T)(val));                                      \
		EXPECT(ua_get_user(ua_v,                                       \
				   (const volatile T *)(const void *)(buf)) == \
			   0 &&                                                \
		       ua_v == (T)(val));                                      \
	} while (0)

typedef volatile uint32_t futex_word; /* a qualified typedef */
typedef const volatile uint16_t ro_reg;
typedef int64_t s64;

#define EXPECT(cond)                                                           \
	do {                                                                   \
		if (!(cond)) {                                                 \
			fprintf(stderr, "consumer: %s failed (line %d)\n",     \
				#cond, __LINE__);                              \
			failures++;                                            \
		}                                                              \
	} while (0)

/* A handler an embedding program would install; only compiled here */
static void
embedding_handler(int signo, siginfo_t *info, void *ucontext)
{
	if (ua_handle_fault(signo, info, ucontext))
		return;
}

/*
 * A block of inline accesses (the pointer is left alone), through
 * plain pointers and through volatile ones (a futex word, a device
 * register)
 */
#define BLOCK(name, Q)                                                         \
	static int name(const Q uint32_t *uarg, Q uint32_t *uout)              \
	{                                                                      \
		uint32_t a = 0;                                                \
		char tmp[4] = {1, 2, 3, 4};                                    \
                                                                               \
		if (!ua_user_access_begin(uarg, sizeof(*uarg)))                \
			return -EFAULT;                                        \
		ua_unsafe_get_user(a, uarg, efault);                           \
		ua_user_access_end();                                          \
		if (!ua_user_access_begin(uout, sizeof(*uout)))                \
			return -EFAULT;                                        \
		ua_unsafe_put_user(a + 1, uout, efault);                       \
		ua_unsafe_copy_to_user(uout, tmp, sizeof(tmp), efault);        \
		ua_user_access_end();                                          \
		return 0;                                                      \
	efault:                                                                \
		ua_user_access_end();                                          \
		return -EFAULT;                                                \
	}
BLOCK(block, )
BLOCK(block_volatile, volatile)

/* The kernel's later shapes: scoped, masked, copy-from, inline, array */
#define SHAPES(name, Q)                                                        \
	static int name(const Q uint32_t *uarg, Q uint32_t *uout)              \
	{                                                                      \
		static uint32_t arr[2];                                        \
		uint32_t a = 0;                                                \
		char tmp[4];                                                   \
                                                                               \
		ua_scoped_user_read_access(uarg, efault)                       \
		{                                                              \
			ua_unsafe_get_user(a, uarg, efault);                   \
		}                                                              \
		ua_scoped_user_read_access_size(uarg, 4, efault)               \
		    ua_unsafe_copy_from_user(tmp, uarg, 4, efault);            \
		ua_scoped_user_write_access(uout, efault)                      \
		    ua_unsafe_put_user(a + 1, uout, efault);                   \
		ua_scoped_user_write_access_size(uout, 4, efault)              \
		    ua_unsafe_put_user(a + 1, uout, efault);                   \
		ua_scoped_user_rw_access(uout, efault)                         \
		{                                                              \
			ua_unsafe_get_user(a, uout, efault);                   \
			ua_unsafe_put_user(a, uout, efault);                   \
		}                                                              \
		ua_scoped_user_rw_access_size(uout, 4, efault)                 \
		    ua_unsafe_put_user(a, uout, efault);                       \
		if (ua_can_do_masked_user_access()) {                          \
			const Q uint32_t *m =                                  \
			    ua_masked_user_access_begin(uarg);                 \
                                                                               \
			m = ua_masked_user_read_access_begin(m);               \
			uout = ua_masked_user_write_access_begin(uout);        \
			ua_unsafe_get_user(a, m, efault);                      \
			ua_user_access_end();                                  \
		}                                                              \
		if (!ua_user_read_access_begin(uarg, sizeof(*uarg)))           \
			return -EFAULT;                                        \
		ua_unsafe_copy_from_user(tmp, uarg, sizeof(tmp), efault);      \
		ua_user_read_access_end();                                     \
		if (!ua_user_write_access_begin(arr, sizeof(arr)))             \
			return -EFAULT;                                        \
		ua_unsafe_put_user(a, &arr[1], efault);                        \
		ua_user_write_access_end();                                    \
		if (ua_get_user_inline(a, uarg) ||                             \
		    ua_put_user_inline(a, uout))                               \
			return -EFAULT;                                        \
		return tmp[0] == 0 ? 1 : 0;                                    \
	efault:                                                                \
		return -EFAULT;                                                \
	}
SHAPES(shapes, )
SHAPES(shapes_volatile, volatile)

/* The inline atomics of a block, 4 and 8 bytes, a signed type too */
#define ATOMICS(name, Q)                                                       \
	static int name(Q uint32_t *w, Q uint64_t *d)                          \
	{                                                                      \
		uint32_t o = 0;                                                \
		uint64_t o8 = 0;                                               \
		int ok = 0;                                                    \
                                                                               \
		ua_scoped_user_rw_access(w, efault)                            \
		{                                                              \
			ok = ua_unsafe_try_cmpxchg_user(w, &o, 1u, efault);    \
			ua_unsafe_xchg_user(w, 2u, &o, efault);                \
			ua_unsafe_load_acquire_user(o, w, efault);             \
			ua_unsafe_store_release_user(o + 1, w, efault);        \
			ua_unsafe_store_release_user(                          \
			    -1, (Q int32_t *)(Q void *)w, efault);             \
		}                                                              \
		if (!ua_user_access_begin(d, sizeof(*d)))                      \
			return -EFAULT;                                        \
		ok += ua_unsafe_try_cmpxchg_user(d, &o8, 1ull << 40, efault);  \
		ua_unsafe_xchg_user(d, o8, &o8, efault);                       \
		ua_unsafe_load_acquire_user(o8, d, efault);                    \
		ua_unsafe_store_release_user(o8 + 1, d, efault);               \
		ua_user_access_end();                                          \
		return ok;                                                     \
	efault:                                                                \
		ua_user_access_end();                                          \
		return -EFAULT;                                                \
	}
ATOMICS(atomics, )
ATOMICS(atomics_volatile, volatile)

int
main(void)
{
	static char src[64] = "uaccess consumer";
	char dst[64], str[32];
	const char *bad = (const char *)(uintptr_t)8;
	uint8_t u8 = 1;
	uint16_t u16 = 2;
	uint32_t u32 = 3;
	uint64_t u64 = 4;
	int i32 = -5;
	short s16 = 0;
	const struct ua_fault *f;
	struct ua_argblock *ab = NULL;
	const char *const argv[] = {"prog", "arg"};

	(void)embedding_handler;
	errno = 4242; /* no call may change it, not even the first */
	EXPECT(ua_init() == 0);
	EXPECT(ua_access_ok(src, sizeof(src)) == 1);
	EXPECT(ua_access_ok(bad, 1) == 0);
	EXPECT(ua_set_user_range(src, sizeof(src)) == 0);
	EXPECT(ua_access_ok(dst, 1) == 0);
	EXPECT(ua_set_user_range(NULL, 0) == 0);

	EXPECT(ua_copy_from_user(dst, src, sizeof(dst)) == 0);
	EXPECT(memcmp(dst, src, sizeof(dst)) == 0);
	EXPECT(ua_copy_from_user(dst, bad, 8) == 8 && dst[0] == 0);
	EXPECT(ua_copy_from_user_nocache(dst, src, sizeof(dst)) == 0);
	EXPECT(ua_copy_to_user(dst, src, 8) == 0);
	EXPECT(ua_clear_user(dst, 8) == 0 && dst[7] == 0);
	EXPECT(ua_strnlen_user(src, 64) == 17);
	EXPECT(ua_strnlen_user(bad, 64) == 0);
	EXPECT(ua_strncpy_from_user(str, src, sizeof(str)) == 16);
	EXPECT(ua_strncpy_from_user(str, bad, sizeof(str)) == -EFAULT);

	EXPECT(ua_put_user_u8(8, dst) == 0 && ua_get_user_u8(&u8, dst) == 0);
	EXPECT(u8 == 8);
	EXPECT(ua_put_user_u16(16, dst) == 0 &&
	       ua_get_user_u16(&u16, dst) == 0);
	EXPECT(u16 == 16);
	EXPECT(ua_put_user_u32(32, dst) == 0 &&
	       ua_get_user_u32(&u32, dst) == 0);
	EXPECT(u32 == 32);
	EXPECT(ua_put_user_u64(64, dst) == 0 &&
	       ua_get_user_u64(&u64, dst) == 0);
	EXPECT(u64 == 64);
	EXPECT(ua_get_user_u32(&u32, bad) == -EFAULT && u32 == 0);
	EXPECT(ua_put_user_u64(1, (void *)bad) == -EFAULT);

	/* The type-generic macros, as a C99 or C++ user writes them */
	EXPECT(ua_put_user(i32, (int *)(void *)dst) == 0);
	EXPECT(ua_get_user(i32, (const int *)(const void *)dst) == 0);
	EXPECT(i32 == -5);
	EXPECT(ua_get_user(s16, (const short *)(const void *)bad) == -EFAULT);
	EXPECT(s16 == 0);
	EXPECT(ua_put_user(7, (int64_t *)(void *)bad) == -EFAULT);
	u64 = 0;
	EXPECT(ua__put_user_n(9, dst, 4) == 0 &&
	       ua__get_user_n(&u64, dst, 4) == 0);
	EXPECT(u64 == 9);

	ROUND_TRIP(uint8_t, dst, 0xa5);
	ROUND_TRIP(int16_t, dst, -1234);
	ROUND_TRIP(uint32_t, dst, 0xdeadbeef);
	ROUND_TRIP(uint64_t, dst, 0x0123456789abcdefull);
	ROUND_TRIP(s64, dst, -42);
	ROUND_TRIP(float, dst, 1.5f);
	ROUND_TRIP(double, dst, -2.25);
	{
		futex_word *fw = (futex_word *)(void *)dst;
		ro_reg *rr = (ro_reg *)(const void *)dst;

		EXPECT(ua_put_user(7u, fw) == 0);
		u32 = 0;
		EXPECT(ua_get_user(u32, fw) == 0 && u32 == 7);
		u16 = 0;
		EXPECT(ua_get_user(u16, rr) == 0 && u16 == 7);
		EXPECT(ua_put_user(1u, (futex_word *)(void *)bad) == -EFAULT);
		EXPECT(ua_get_user(u16, (ro_reg *)(const void *)bad) ==
			   -EFAULT &&
		       u16 == 0);
	}

	memset(dst, 0, sizeof(dst));
	EXPECT(ua_check_zeroed_user(dst, sizeof(dst)) == 1);
	EXPECT(ua_check_zeroed_user(src, sizeof(src)) == 0);
	EXPECT(ua_copy_struct_from_user(str, sizeof(str), src, 16) == 0);
	EXPECT(ua_copy_struct_from_user(str, 8, src, 16) == -E2BIG);

	EXPECT(ua_memcpy(dst, src, sizeof(dst)) == dst);
	EXPECT(ua_memcpy_nocache(dst, src, sizeof(dst)) == dst);
	EXPECT(ua_copy_strategy(64) != NULL);

	f = ua_last_fault();
	EXPECT(f != NULL);

	u32 = 41;
	EXPECT(block(&u32, (uint32_t *)(void *)dst) == 0);
	EXPECT(memcmp(dst, "\1\2\3\4", 4) == 0);
	EXPECT(block((const uint32_t *)(const void *)bad, &u32) == -EFAULT);
	{
		volatile uint32_t word = 7, out = 0;

		EXPECT(block_volatile(&word, &out) == 0 &&
		       memcmp((const void *)&out, "\1\2\3\4", 4) == 0);
		EXPECT(
		    block_volatile((const volatile uint32_t *)(const void *)bad,
				   &out) == -EFAULT);
	}
	{
		uint32_t in = 0x01020304, out = 0;
		volatile uint32_t vin = 0x01020304, vout = 0;

		EXPECT(shapes(&in, &out) == 0 && out == in);
		EXPECT(shapes((const uint32_t *)(const void *)bad, &out) ==
		       -EFAULT);
		EXPECT(shapes_volatile(&vin, &vout) == 0 && vout == vin);
		EXPECT(shapes(&in, (uint32_t *)(uintptr_t)8) == -EFAULT);
	}
	{
		static uint32_t w;
		static uint64_t d;
		static volatile uint32_t vw;
		static volatile uint64_t vd;

		EXPECT(atomics(&w, &d) == 2 && w == 0xffffffffu && d == 1);
		EXPECT(atomics_volatile(&vw, &vd) == 2 && vd == 1);
		EXPECT(atomics((uint32_t *)(uintptr_t)8, &d) == -EFAULT);
	}
	EXPECT(ua_fail_usercopy("probability=100:times=1") == 0);
	EXPECT(ua_copy_to_user(dst, src, 8) == 8);
	EXPECT(ua_copy_to_user(dst, src, 8) == 0);
	EXPECT(ua_fail_usercopy("probability=1000") == -EINVAL);
	EXPECT(ua_fail_usercopy(NULL) == 0);
	(void)ua__user_access_begin;
	(void)ua__masked_user_access_begin;
	(void)ua__extable_register;
	(void)ua__extable_unregister;
	(void)ua__copy_overflow;

	EXPECT(ua_argblock_new(&ab, 1 << 16, UA_ARGBLOCK_WINDOWED) == 0);
	if (ab) {
		char out[16];

		EXPECT(ua_copy_strings_kernel(ab, 1, argv) == 0);
		EXPECT(ua_copy_strings(ab, 2, argv) == 0);
		EXPECT(ua_argblock_size(ab) == 14);
		EXPECT(ua_argblock_read(ab, out, sizeof(out)) == 14);
		EXPECT(memcmp(out, "prog\0arg\0prog", 14) == 0);
		EXPECT(ua_argblock_maps(ab) >= 1);
		ua_argblock_free(ab);
	}

	EXPECT(errno == 4242);
	if (!failures)
		printf("consumer: every call behaved\n");
	return failures ? 1 : 0;
}

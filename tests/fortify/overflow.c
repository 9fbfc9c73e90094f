/* SPDX-License-Identifier: MIT */
/*
 * Description: a copy whose constant length overflows a buffer of known
 * size must not compile under _FORTIFY_SOURCE (fortify.sh); with OK
 * defined the length fits and it must.  CALL picks the function.
 */
#include <uaccess.h>

#ifdef OK
#define LEN 64
#else
#define LEN 65
#endif

struct s {
	char small[64];
	int after;
};

int
copy(const void *uptr, void *udst, struct s *out)
{
	char buf[64] = {0};
	size_t r;

	(void)udst;
	(void)uptr;
#if CALL == 1
	r = ua_copy_from_user(buf, uptr, LEN);
#elif CALL == 2
	r = ua_copy_to_user(udst, buf, LEN);
#else
	r = ua_copy_from_user_nocache(buf, uptr, LEN);
#endif
	/* The whole struct is the object: a member may be filled past */
	r += ua_copy_from_user(out->small, uptr, sizeof(*out));
	return (int)r + buf[1];
}

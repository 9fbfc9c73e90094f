/* SPDX-License-Identifier: MIT */
/* check_zeroed_user, copy_struct_from_user and copy_struct_to_user, as in
 * the kernel. */
#include <errno.h>
#include <string.h>

#include "internal.h"
#include "page.h"

UA_EXPORT int
ua_check_zeroed_user(const void *usrc, size_t n)
{
	unsigned char buf[256];
	const unsigned char *p = usrc;

	if (!ua_access_ok(usrc, n))
		return -EFAULT;
	while (n) {
		/* Within one page: a non-zero byte answers before the next
		 * page is read, which could fault (and be recorded) */
		size_t room =
		    ua_page_size - ((uintptr_t)p & (ua_page_size - 1));
		size_t chunk = n < sizeof(buf) ? n : sizeof(buf), i, left;
		unsigned char acc = 0;

		chunk = chunk < room ? chunk : room;
		left = ua_copy_from_user(buf, p, chunk);

		/* The uncopied tail reads as zero: a non-zero byte before
		 * the fault answers first, as the kernel's word loop does */
		for (i = 0; i < chunk; i++)
			acc |= buf[i];
		if (acc)
			return 0;
		if (left)
			return -EFAULT;
		p += chunk;
		n -= chunk;
	}
	return 1;
}

UA_EXPORT int
ua_copy_struct_from_user(void *dst, size_t ksize, const void *usrc,
			 size_t usize)
{
	size_t size = ksize < usize ? ksize : usize;
	size_t rest = (ksize > usize ? ksize : usize) - size;

	if (usize < ksize) {
		memset((char *)dst + size, 0, rest);
	} else if (usize > ksize) {
		int r = ua_check_zeroed_user((const char *)usrc + size, rest);

		if (r <= 0)
			return r ? r : -E2BIG;
	}
	if (ua_copy_from_user(dst, usrc, size))
		return -EFAULT;
	return 0;
}

/*
 * The kernel's documented rule (include/linux/uaccess.h, 6.13): a larger
 * trusted struct's trailing bytes are reported when one is not zero.  Its
 * code tests ksize < usize there, which reads past src and is never true
 * when a byte is dropped; its callers pass NULL.  The rule is what this
 * does.
 */
UA_EXPORT int
ua_copy_struct_to_user(void *udst, size_t usize, const void *src, size_t ksize,
		       bool *ignored_trailing)
{
	size_t size = ksize < usize ? ksize : usize;
	size_t rest = (ksize > usize ? ksize : usize) - size;

	if (usize > ksize && ua_clear_user((char *)udst + size, rest))
		return -EFAULT;
	if (ignored_trailing) {
		const unsigned char *t = (const unsigned char *)src + size;
		size_t i;

		*ignored_trailing = false;
		for (i = 0; ksize > usize && i < rest; i++)
			if (t[i]) {
				*ignored_trailing = true;
				break;
			}
	}
	if (ua_copy_to_user(udst, src, size))
		return -EFAULT;
	return 0;
}

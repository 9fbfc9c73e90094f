/* SPDX-License-Identifier: MIT */
/*
 * Copy-size hardening: where a fortified copy (uaccess.h, _FORTIFY_SOURCE)
 * stops the process, as glibc's __chk_fail does.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "internal.h"

/* Decimal digits of v at the end of buf; returns where they start */
static char *
ua_utoa(char *end, size_t v)
{
	*--end = '\0';
	do
		*--end = (char)('0' + v % 10);
	while (v /= 10);
	return end;
}

static void
ua_put(const char *s)
{
	ssize_t r = write(STDERR_FILENO, s, strlen(s));

	(void)r;
}

UA_EXPORT void
ua__copy_overflow(const char *fn, size_t n, size_t size)
{
	char nbuf[24], sbuf[24];

	ua_put("uaccess: ");
	ua_put(fn ? fn : "a copy");
	ua_put(": ");
	ua_put(ua_utoa(nbuf + sizeof(nbuf), n));
	ua_put(" bytes, buffer of ");
	ua_put(ua_utoa(sbuf + sizeof(sbuf), size));
	ua_put("\n*** buffer overflow detected ***: terminated\n");
	abort();
}

/* SPDX-License-Identifier: MIT */
/*
 * The exec argument block: the kernel's copy_strings() (fs/exec.c), which
 * keeps the last page it mapped.  Strings go from the last to the first, each
 * just below the previous one: the top pointer p starts at max_bytes and only
 * decreases.  Pages are allocated on first use, like bprm->page[i].
 *
 * Backends: direct (one anonymous mapping, always addressable, like lowmem)
 * or windowed (pages live in a memfd and must be mapped to be touched, like
 * kmap of a highmem page).  The windowed backend keeps the page it mapped
 * last until another page is needed or the call ends; with
 * UA_ARGBLOCK_NO_MAP_CACHE it unmaps after every piece, as copy_strings()
 * did without that cache.
 * No mapping outlives a call.  A block, like a linux_binprm, belongs to one
 * thread at a time.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "init.h"
#include "page.h"

#define UA_ARGBLOCK_FLAGS (UA_ARGBLOCK_WINDOWED | UA_ARGBLOCK_NO_MAP_CACHE)
#define UA_NO_PAGE SIZE_MAX

struct ua_argblock {
	size_t max;    /* max_bytes: where the top pointer starts */
	size_t p;      /* the top pointer: the used bytes are [p, max) */
	size_t pg;     /* page size */
	size_t npages; /* pages covering [0, max) */
	size_t *page;  /* page[i]: 0 not allocated, else 1 + its memfd page */
	size_t nalloc; /* pages allocated so far */
	unsigned flags;
	unsigned long maps; /* page mappings made */
	char *mem;          /* direct: the whole block */
	int fd;             /* windowed: the memfd holding the pages, else -1 */
};

/* The mapping cache of one copy_strings() call: kmapped_page and kaddr */
struct ua_kmap {
	size_t page;
	char *addr;
};

/* Where the strings come from: user memory, or trusted (kernel) memory */
struct ua_strsrc {
	int (*get)(const char **ret, const char *const *argv);
	long (*strnlen)(const char *s, long n);
	int (*copy)(char *dst, const char *s, size_t n);
};

static int
ua_user_get(const char **ret, const char *const *uargv)
{
	return ua_get_user(*ret, uargv) ? -EFAULT : 0;
}

static int
ua_user_copy_str(char *dst, const char *s, size_t n)
{
	return ua_copy_from_user(dst, s, n) ? -EFAULT : 0;
}

static const struct ua_strsrc ua_src_user = {
    .get = ua_user_get,
    .strnlen = ua_strnlen_user,
    .copy = ua_user_copy_str,
};

/*
 * Trusted memory (copy_strings_kernel(): copy_strings() under KERNEL_DS).
 * NULL pointers fault there and give -EFAULT; here they are checked.
 */
static int
ua_kernel_get(const char **ret, const char *const *argv)
{
	*ret = *argv;
	return 0;
}

static long
ua_kernel_strnlen(const char *s, long n)
{
	size_t len;

	if (!s)
		return 0;
	len = strnlen(s, (size_t)n);
	return len < (size_t)n ? (long)len + 1 : n + 1;
}

static int
ua_kernel_copy(char *dst, const char *s, size_t n)
{
	memcpy(dst, s, n);
	return 0;
}

static const struct ua_strsrc ua_src_kernel = {
    .get = ua_kernel_get,
    .strnlen = ua_kernel_strnlen,
    .copy = ua_kernel_copy,
};

/* alloc_page(): a new page of the block; in the memfd, the next free page */
static int
ua_page_alloc(struct ua_argblock *bp, size_t i)
{
	if (bp->fd >= 0) {
		off_t off = (off_t)(bp->nalloc * bp->pg);
		int r;

		do
			r = fallocate(bp->fd, 0, off, (off_t)bp->pg);
		while (r && errno == EINTR);
		/* Where memfds cannot reserve pages, at least grow the file */
		if (r && (errno == EOPNOTSUPP || errno == ENOSYS))
			r = ftruncate(bp->fd, off + (off_t)bp->pg);
		if (r)
			return -ENOMEM;
	}
	bp->page[i] = ++bp->nalloc;
	return 0;
}

static void
ua_kunmap(struct ua_argblock *bp, struct ua_kmap *km)
{
	if (km->page == UA_NO_PAGE)
		return;
	if (bp->fd >= 0)
		munmap(km->addr, bp->pg);
	km->page = UA_NO_PAGE;
	km->addr = NULL;
}

/* kmap(): page i addressable at the returned address, or NULL */
static char *
ua_kmap(struct ua_argblock *bp, struct ua_kmap *km, size_t i)
{
	void *a;

	if (km->page == i)
		return km->addr;
	ua_kunmap(bp, km);
	if (bp->fd < 0) {
		a = bp->mem + i * bp->pg;
	} else {
		a = mmap(NULL, bp->pg, PROT_READ | PROT_WRITE, MAP_SHARED,
			 bp->fd, (off_t)((bp->page[i] - 1) * bp->pg));
		if (a == MAP_FAILED)
			return NULL;
		bp->maps++;
	}
	km->page = i;
	km->addr = a;
	return a;
}

/*
 * copy_strings(), keeping its last mapping.  On an error the top pointer is put
 * back where it was before the failing string (the kernel leaves it moved, and
 * gives up the exec): the block keeps the strings copied before it.
 */
static int
ua_copy_strings_from(struct ua_argblock *bp, int argc, const char *const *argv,
		     const struct ua_strsrc *src)
{
	struct ua_kmap km = {.page = UA_NO_PAGE, .addr = NULL};
	size_t top = bp->p;
	int ret;

	if (argc < 0)
		return -EINVAL;
	while (argc-- > 0) {
		const char *str;
		size_t len, pos;
		long n;

		if (src->get(&str, argv + argc)) {
			ret = -EFAULT;
			goto out;
		}
		/*
		 * No room at all.  The kernel's strnlen_user(str, 0)
		 * returns 1 ("longer than 0") without reading: -E2BIG
		 * below.
		 */
		n = bp->p ? src->strnlen(str, (long)bp->p) : 1;
		if (!n) {
			ret = -EFAULT;
			goto out;
		}
		len = (size_t)n;
		if (bp->p < len) {
			ret = -E2BIG;
			goto out;
		}
		top = bp->p;
		bp->p -= len;
		pos = bp->p;

		while (len > 0) {
			size_t i = pos / bp->pg, offset = pos % bp->pg;
			size_t bytes_to_copy;
			int new = 0;
			char *kaddr;

			if (!bp->page[i]) {
				ret = ua_page_alloc(bp, i);
				if (ret)
					goto undo;
				new = 1;
			}
			kaddr = ua_kmap(bp, &km, i);
			if (!kaddr) {
				ret = -ENOMEM;
				goto undo;
			}
			if (new &&offset)
				memset(kaddr, 0, offset);
			bytes_to_copy = bp->pg - offset;
			if (bytes_to_copy > len) {
				bytes_to_copy = len;
				if (new)
					memset(kaddr + offset + len, 0,
					       bp->pg - offset - len);
			}
			if (src->copy(kaddr + offset, str, bytes_to_copy)) {
				ret = -EFAULT;
				goto undo;
			}
			if (bp->flags & UA_ARGBLOCK_NO_MAP_CACHE)
				ua_kunmap(bp, &km);
			pos += bytes_to_copy;
			str += bytes_to_copy;
			len -= bytes_to_copy;
		}
	}
	ret = 0;
	goto out;
undo:
	bp->p = top;
out:
	ua_kunmap(bp, &km);
	return ret;
}

/* The system calls of the windowed backend must not leak into errno */
static int
ua_copy_strings_keep_errno(struct ua_argblock *bp, int argc,
			   const char *const *argv, const struct ua_strsrc *src)
{
	int saved_errno = errno, r;

	if (!bp)
		return -EINVAL;
	r = ua_copy_strings_from(bp, argc, argv, src);
	errno = saved_errno;
	return r;
}

UA_EXPORT int
ua_copy_strings(struct ua_argblock *bp, int argc, const char *const *uargv)
{
	return ua_copy_strings_keep_errno(bp, argc, uargv, &ua_src_user);
}

UA_EXPORT int
ua_copy_strings_kernel(struct ua_argblock *bp, int argc,
		       const char *const *argv)
{
	if (argc > 0 && !argv)
		return bp ? -EFAULT : -EINVAL;
	return ua_copy_strings_keep_errno(bp, argc, argv, &ua_src_kernel);
}

static int
ua_argblock_alloc(struct ua_argblock **ret, size_t max_bytes, unsigned flags)
{
	struct ua_argblock *bp;
	int r = -ENOMEM;

	if (!ret || max_bytes == 0 || max_bytes > LONG_MAX ||
	    (flags & ~UA_ARGBLOCK_FLAGS))
		return -EINVAL;
	/* Without a window every page is always mapped: nothing to cache */
	if ((flags & UA_ARGBLOCK_NO_MAP_CACHE) &&
	    !(flags & UA_ARGBLOCK_WINDOWED))
		return -EINVAL;
	ua_lazy_init();

	bp = calloc(1, sizeof(*bp));
	if (!bp)
		return -ENOMEM;
	bp->max = bp->p = max_bytes;
	bp->pg = ua_page_size;
	bp->npages = max_bytes / bp->pg + !!(max_bytes % bp->pg);
	bp->flags = flags;
	bp->fd = -1;
	bp->page = calloc(bp->npages, sizeof(*bp->page));
	if (!bp->page)
		goto fail;
	if (flags & UA_ARGBLOCK_WINDOWED) {
		bp->fd = memfd_create("ua-argblock", MFD_CLOEXEC);
		if (bp->fd < 0) {
			r = -errno;
			goto fail;
		}
	} else {
		void *m =
		    mmap(NULL, bp->npages * bp->pg, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (m == MAP_FAILED)
			goto fail;
		bp->mem = m;
	}
	*ret = bp;
	return 0;
fail:
	free(bp->page);
	free(bp);
	return r;
}

UA_EXPORT int
ua_argblock_new(struct ua_argblock **ret, size_t max_bytes, unsigned flags)
{
	int saved_errno = errno, r;

	r = ua_argblock_alloc(ret, max_bytes, flags);
	errno = saved_errno;
	return r;
}

UA_EXPORT void
ua_argblock_free(struct ua_argblock *bp)
{
	int saved_errno = errno;

	if (!bp)
		return;
	if (bp->mem)
		munmap(bp->mem, bp->npages * bp->pg);
	if (bp->fd >= 0)
		close(bp->fd);
	free(bp->page);
	free(bp);
	errno = saved_errno;
}

UA_EXPORT size_t
ua_argblock_size(const struct ua_argblock *bp)
{
	return bp ? bp->max - bp->p : 0;
}

UA_EXPORT unsigned long
ua_argblock_maps(const struct ua_argblock *bp)
{
	return bp ? bp->maps : 0;
}

/* Reading needs no mapping: the pages are read from the memfd */
static size_t
ua_read_page(const struct ua_argblock *bp, char *out, size_t pos, size_t n)
{
	off_t off =
	    (off_t)((bp->page[pos / bp->pg] - 1) * bp->pg + pos % bp->pg);
	size_t done = 0;

	while (done < n) {
		ssize_t r =
		    pread(bp->fd, out + done, n - done, off + (off_t)done);

		if (r <= 0) {
			if (r < 0 && errno == EINTR)
				continue;
			break;
		}
		done += (size_t)r;
	}
	return done;
}

UA_EXPORT size_t
ua_argblock_read(const struct ua_argblock *bp, void *out, size_t n)
{
	size_t pos, done = 0;
	int saved_errno;

	if (!bp || !out)
		return 0;
	if (n > bp->max - bp->p)
		n = bp->max - bp->p;
	if (bp->fd < 0) {
		memcpy(out, bp->mem + bp->p, n);
		return n;
	}
	saved_errno = errno;
	for (pos = bp->p; done < n;) {
		size_t chunk = bp->pg - pos % bp->pg, r;

		if (chunk > n - done)
			chunk = n - done;
		r = ua_read_page(bp, (char *)out + done, pos, chunk);
		done += r;
		pos += r;
		if (r < chunk)
			break;
	}
	errno = saved_errno;
	return done;
}

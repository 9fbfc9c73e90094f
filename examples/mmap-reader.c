/* SPDX-License-Identifier: MIT */
/*
 * Read a file through mmap() while another process truncates it.
 *
 * Touching a mapped page that lies wholly past the end of the file raises
 * SIGBUS: a plain memcpy() from the mapping would kill the process (SQLite,
 * LMDB and Java's MappedByteBuffer all have to deal with this).  With
 * ua_copy_from_user() the copy stops at the first page that is gone, the
 * call returns how many bytes it could not copy, and ua_last_fault() says
 * why: SIGBUS means the file is shorter than the mapping.
 *
 * Build on its own:
 *   cc -o mmap-reader mmap-reader.c $(pkg-config --cflags --libs uaccess)
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include <uaccess.h>

#define FILE_PAGES 8
#define KEEP_PAGES 3   /* the other process keeps 3 pages ... */
#define KEEP_EXTRA 100 /* ... and 100 bytes of the fourth */

/* The other process: opens the file by name and cuts it short. */
static int
truncate_in_child(const char *path, off_t len)
{
	int status;
	pid_t pid = fork();

	if (pid < 0)
		return -1;
	if (pid == 0) {
		int fd = open(path, O_WRONLY);

		_exit(fd >= 0 && ftruncate(fd, len) == 0 ? 0 : 1);
	}
	if (waitpid(pid, &status, 0) < 0 || !WIFEXITED(status) ||
	    WEXITSTATUS(status) != 0)
		return -1;
	return 0;
}

int
main(void)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	size_t len = FILE_PAGES * page, kept = KEEP_PAGES * page + KEEP_EXTRA;
	const char *tmpdir = getenv("TMPDIR");
	char path[4096];
	unsigned char *map, *buf;
	const struct ua_fault *f;
	size_t left, got, i;
	int fd, ok = 1;

	/* A file of FILE_PAGES pages, every byte non-zero */
	snprintf(path, sizeof(path), "%s/mmap-reader-XXXXXX",
		 tmpdir && *tmpdir ? tmpdir : "/tmp");
	fd = mkstemp(path);
	if (fd < 0) {
		perror("mkstemp");
		return 1;
	}
	map = MAP_FAILED;
	buf = mmap(NULL, len, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (buf == MAP_FAILED) {
		perror("mmap");
		close(fd);
		unlink(path);
		return 1;
	}
	for (i = 0; i < len; i++)
		buf[i] = (unsigned char)(i % 251 + 1);
	if (write(fd, buf, len) != (ssize_t)len) {
		perror("write");
		ok = 0;
		goto out;
	}
	map = mmap(NULL, len, PROT_READ, MAP_SHARED, fd, 0);
	if (map == MAP_FAILED) {
		perror("mmap");
		ok = 0;
		goto out;
	}

	/* While the file is whole, the copy is complete */
	left = ua_copy_from_user(buf, map, len);
	printf("before truncation: read %zu of %zu bytes\n", len - left, len);
	ok &= left == 0;

	/* Another process truncates the file under our mapping */
	if (truncate_in_child(path, (off_t)kept) < 0) {
		fprintf(stderr, "the truncating child failed\n");
		ok = 0;
		goto out;
	}

	/*
	 * The same copy again.  Pages 0..3 still hold file data (the part of
	 * page 3 past the new end reads as zeros, as the kernel guarantees);
	 * page 4 onwards raises SIGBUS.  The copy stops there: a short read.
	 */
	left = ua_copy_from_user(buf, map, len);
	got = len - left;
	f = ua_last_fault();
	printf("after truncation to %zu bytes: read %zu of %zu bytes", kept,
	       got, len);
	if (left)
		printf(", stopped by %s at offset %td",
		       f->signo == SIGBUS ? "SIGBUS" : strsignal(f->signo),
		       (unsigned char *)f->addr - map);
	printf("\n");

	ok &= got == (KEEP_PAGES + 1) * page;
	ok &= f->signo == SIGBUS;
	ok &= (unsigned char *)f->addr >= map + got &&
	      (unsigned char *)f->addr < map + got + page;
	for (i = 0; i < kept; i++)
		ok &= buf[i] == (unsigned char)(i % 251 + 1);
	for (; i < len; i++) /* past the end: the page's zeros, then our fill */
		ok &= buf[i] == 0;

out:
	if (map != MAP_FAILED)
		munmap(map, len);
	close(fd);
	unlink(path);
	munmap(buf, len);
	if (!ok)
		fprintf(stderr, "mmap-reader: unexpected result\n");
	return ok ? 0 : 1;
}

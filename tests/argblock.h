/* SPDX-License-Identifier: MIT */
/*
 * Shared by the argblock tests: the three backends, a compiler-like command
 * line, the expected block, and counters for leaked fds and mappings.
 */
#ifndef UA_TEST_ARGBLOCK_H
#define UA_TEST_ARGBLOCK_H

#include <dirent.h>
#include <fcntl.h>

#include "test.h"

static const unsigned t_backends[] = {
    0,
    UA_ARGBLOCK_WINDOWED,
    UA_ARGBLOCK_WINDOWED | UA_ARGBLOCK_NO_MAP_CACHE,
};
static const char *const t_backend_names[] = {"direct", "windowed",
					      "windowed-nocache"};
#define T_NBACKENDS 3

/* argv and envp of a compiler run: NULL-terminated, strings in one buffer */
struct t_cmdline {
	char **argv, **envp;
	int argc, envc;
	char *text;
};

static inline unsigned
t_rand(unsigned *s)
{
	*s = *s * 1103515245u + 12345u;
	return (*s >> 8) & 0xffffff;
}

static inline char *
t_word(char *w, unsigned *s, size_t len, const char *prefix)
{
	static const char chars[] = "abcdefghijklmnopqrstuvwxyz0123456789/_.-=";
	size_t i = strlen(prefix);

	memcpy(w, prefix, i);
	for (; i < len; i++)
		w[i] = chars[t_rand(s) % (sizeof(chars) - 1)];
	w[len] = '\0';
	return w + len + 1;
}

/* argc arguments of 2..50 bytes, envc variables of 8..80 bytes */
static inline struct t_cmdline
t_cmdline_new(int argc, int envc, unsigned seed)
{
	struct t_cmdline c = {0};
	char *w;
	int i;

	c.argc = argc;
	c.envc = envc;
	c.argv = calloc((size_t)argc + 1, sizeof(char *));
	c.envp = calloc((size_t)envc + 1, sizeof(char *));
	c.text = malloc((size_t)(argc * 51 + envc * 81) + 1);
	CHECK(c.argv && c.envp && c.text, "out of memory");
	w = c.text;
	for (i = 0; i < argc; i++) {
		c.argv[i] = w;
		w = t_word(w, &seed, 2 + t_rand(&seed) % 49, i ? "-" : "cc");
	}
	for (i = 0; i < envc; i++) {
		c.envp[i] = w;
		w = t_word(w, &seed, 8 + t_rand(&seed) % 73, "V=");
		c.envp[i][1] = (char)('A' + i % 26); /* NAME=..., well formed */
		c.envp[i][2] = '=';
	}
	return c;
}

static inline void
t_cmdline_free(struct t_cmdline *c)
{
	free(c->argv);
	free(c->envp);
	free(c->text);
}

/*
 * What a block holds after the calls, lowest address first: the strings of
 * the last call first, each call's strings in order, each with its NUL.
 */
static inline size_t
t_expect(char *out, const char *const *const *calls, const int *counts,
	 int ncalls)
{
	size_t n = 0;
	int c, i;

	for (c = ncalls - 1; c >= 0; c--)
		for (i = 0; i < counts[c]; i++) {
			size_t len = strlen(calls[c][i]) + 1;

			memcpy(out + n, calls[c][i], len);
			n += len;
		}
	return n;
}

/* Open file descriptors (the directory's own fd is always counted) */
static inline int
t_count_fds(void)
{
	DIR *d = opendir("/proc/self/fd");
	struct dirent *e;
	int n = 0;

	CHECK(d, "opendir /proc/self/fd: %s", strerror(errno));
	while ((e = readdir(d)))
		if (e->d_name[0] != '.')
			n++;
	closedir(d);
	return n;
}

/*
 * Lines of /proc/self/maps, and of those the ones that contain needle
 * (NULL: none).  No allocation, so counting does not change the count.
 */
static inline int
t_count_maps(const char *needle, int *ret_matching)
{
	static char buf[1 << 16];
	size_t have = 0, nl = strlen(needle ? needle : "");
	int fd = open("/proc/self/maps", O_RDONLY | O_CLOEXEC);
	int lines = 0, matching = 0;
	ssize_t r;

	CHECK(fd >= 0, "open /proc/self/maps: %s", strerror(errno));
	for (;;) {
		char *line, *end;

		r = read(fd, buf + have, sizeof(buf) - 1 - have);
		CHECK(r >= 0, "read /proc/self/maps: %s", strerror(errno));
		have += (size_t)r;
		buf[have] = '\0';
		line = buf;
		while ((end = strchr(line, '\n'))) {
			*end = '\0';
			lines++;
			if (nl && strstr(line, needle))
				matching++;
			line = end + 1;
		}
		have = strlen(line);
		memmove(buf, line, have);
		if (r == 0)
			break;
	}
	close(fd);
	if (ret_matching)
		*ret_matching = matching;
	return lines;
}

/* Everything a call may leak: fds, mappings, mappings of the block's memfd */
struct t_leaks {
	int fds, maps, blockmaps;
};

static inline struct t_leaks
t_leaks_now(void)
{
	struct t_leaks l;

	l.fds = t_count_fds();
	l.maps = t_count_maps("memfd:ua-argblock", &l.blockmaps);
	return l;
}

#define CHECK_NO_LEAK(before)                                                  \
	do {                                                                   \
		struct t_leaks t_after = t_leaks_now();                        \
		CHECK_EQ(t_after.fds, (before).fds);                           \
		CHECK_EQ(t_after.maps, (before).maps);                         \
		CHECK_EQ(t_after.blockmaps, 0);                                \
	} while (0)

#endif /* UA_TEST_ARGBLOCK_H */

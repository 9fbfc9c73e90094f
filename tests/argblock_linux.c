/* SPDX-License-Identifier: MIT */
/*
 * Description: a block built as execve builds it (filename, envp, argv) holds
 * exactly the bytes the running kernel gives a new process.
 */
#include <inttypes.h>
#include <libgen.h>
#include <sys/utsname.h>
#include <sys/wait.h>

#include "argblock.h"

/*
 * The test execs itself with this as argv[1] and a pipe's fd as argv[2]:
 * the new process sends what the kernel put at the top of its stack.
 */
#define T_CHILD "--argblock-linux-child"

/* The fields of /proc/self/stat, the end of the stack mapping, and the size
 * of the kernel's pointers as the exec'd process finds them */
enum {
	T_ARG_START,
	T_ARG_END,
	T_ENV_START,
	T_ENV_END,
	T_STACK_END,
	T_KERNEL_PTR,
	T_NF
};

/* A 32-bit process under a 64-bit kernel: the kernel's pointers are 8 bytes.
 * Asked in the exec'd process, which the kernel runs: a test run under
 * qemu-i386 is told the machine qemu emulates. */
static size_t
t_kernel_ptr_size(void)
{
	struct utsname u;

	if (sizeof(void *) < 8 && !uname(&u) && strstr(u.machine, "64"))
		return 8;
	return sizeof(void *);
}

static int
t_write_all(int fd, const void *p, size_t n)
{
	while (n) {
		ssize_t r = write(fd, p, n);

		if (r <= 0)
			return -1;
		p = (const char *)p + r;
		n -= (size_t)r;
	}
	return 0;
}

/* In the exec'd process: send the fields, then [arg_start, stack end) */
static int
t_child(int fd)
{
	static char buf[1 << 16];
	uint64_t f[T_NF] = {0};
	char *s;
	FILE *fp;
	int i;

	fp = fopen("/proc/self/stat", "r");
	if (!fp || !fgets(buf, sizeof(buf), fp))
		return 2;
	fclose(fp);
	/* Fields 48..51 (arg_start arg_end env_start env_end); comm may hold
	 * spaces and parentheses, so count from the last ')' (field 2) */
	s = strrchr(buf, ')');
	if (!s)
		return 3;
	for (i = 3; i <= 51 && s; i++) {
		s = strchr(s + 1, ' ');
		if (s && i >= 48)
			f[i - 48] = strtoull(s + 1, NULL, 10);
	}
	if (!s)
		return 4;
	/* The mapping holding the strings ends where the kernel's p started */
	fp = fopen("/proc/self/maps", "r");
	if (!fp)
		return 5;
	while (fgets(buf, sizeof(buf), fp)) {
		uint64_t lo, hi;

		if (sscanf(buf, "%" SCNx64 "-%" SCNx64, &lo, &hi) == 2 &&
		    lo <= f[T_ENV_END] && f[T_ENV_END] < hi)
			f[T_STACK_END] = hi;
	}
	fclose(fp);
	if (!f[T_STACK_END])
		return 6;
	f[T_KERNEL_PTR] = t_kernel_ptr_size();
	if (t_write_all(fd, f, sizeof(f)) ||
	    t_write_all(fd, (const void *)(uintptr_t)f[T_ARG_START],
			f[T_STACK_END] - f[T_ARG_START]))
		return 7;
	return 0;
}

/* execve(path, argv, envp) in a child; returns what it sent */
static char *
t_exec(const char *dir, const char *path, char *const *argv, char *const *envp,
       uint64_t *f, size_t *ret_n)
{
	size_t cap = 1 << 20, n = 0;
	char *buf = malloc(cap);
	int fds[2], status;
	pid_t pid;

	CHECK(buf, "out of memory");
	CHECK(!pipe2(fds, O_CLOEXEC), "pipe2");
	pid = fork();
	CHECK(pid >= 0, "fork");
	if (pid == 0) {
		/* argv[2] names the fd to write to */
		if (dup2(fds[1], atoi(argv[2])) >= 0 && chdir(dir) == 0)
			execve(path, argv, envp);
		_exit(errno == ENOEXEC ? 126 : 127);
	}
	close(fds[1]);
	for (;;) {
		ssize_t r = read(fds[0], buf + n, cap - n);

		CHECK(r >= 0, "read: %s", strerror(errno));
		if (r == 0)
			break;
		n += (size_t)r;
		CHECK(n < cap, "child sent too much");
	}
	close(fds[0]);
	CHECK(waitpid(pid, &status, 0) == pid, "waitpid");
	if (WIFEXITED(status) && WEXITSTATUS(status) == 126) {
		/* qemu-user without binfmt_misc: Linux cannot run us */
		printf("the kernel cannot exec this program (ENOEXEC: an "
		       "emulated build?): no layout to compare with\n");
		exit(T_SKIP);
	}
	CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0, "child status %#x",
	      status);
	CHECK(n > sizeof(uint64_t) * T_NF, "child sent %zu bytes", n);
	memcpy(f, buf, sizeof(uint64_t) * T_NF);
	*ret_n = n - sizeof(uint64_t) * T_NF;
	memmove(buf, buf + sizeof(uint64_t) * T_NF, *ret_n);
	return buf;
}

static size_t
t_strings_len(char *const *v)
{
	size_t n = 0;

	for (; *v; v++)
		n += strlen(*v) + 1;
	return n;
}

static int
t_count(char *const *v)
{
	int n = 0;

	while (v[n])
		n++;
	return n;
}

/*
 * Exec with (path, argv, envp); check the layout, then that every backend
 * builds, as execve does (filename, envp, argv), the same bytes.
 */
static void
t_compare(const char *dir, const char *path, char **argv, char **envp)
{
	uint64_t f[T_NF];
	size_t n, alen = t_strings_len(argv), elen = t_strings_len(envp);
	size_t flen = strlen(path) + 1, used, i;
	char *got = t_exec(dir, path, argv, envp, f, &n);
	char *mine = malloc(n + 1);
	int b;

	CHECK(mine, "out of memory");
	/*
	 * The layout on this kernel (fs/exec.c: bprm->p starts one pointer
	 * below the end of the stack; copy_string_kernel(filename), then
	 * copy_strings(envp), then copy_strings(argv); create_elf_tables()
	 * sets arg_start..arg_end and env_start..env_end by walking the
	 * strings up from p):
	 *   arg_start: argv strings | env_start = arg_end: envp strings |
	 *   env_end: the filename given to execve, NUL | a kernel pointer of
	 * zero bytes | end of the stack mapping So the block's used bytes are
	 * [arg_start, env_end) and the filename.
	 */
	CHECK_EQ(f[T_ARG_END] - f[T_ARG_START], alen);
	CHECK_EQ(f[T_ENV_START], f[T_ARG_END]);
	CHECK_EQ(f[T_ENV_END] - f[T_ENV_START], elen);
	used = alen + elen + flen;
	CHECK_EQ(n, used + f[T_KERNEL_PTR]);
	CHECK(!memcmp(got + alen + elen, path, flen), "no filename at env_end");
	for (i = used; i < n; i++)
		CHECK_EQ(got[i], 0);

	for (b = 0; b < T_NBACKENDS; b++) {
		struct ua_argblock *bp = NULL;
		const char *fn[] = {path};

		CHECK_EQ(ua_argblock_new(&bp, 1 << 20, t_backends[b]), 0);
		CHECK_EQ(ua_copy_strings_kernel(bp, 1, fn), 0);
		CHECK_EQ(ua_copy_strings(bp, t_count(envp),
					 (const char *const *)envp),
			 0);
		CHECK_EQ(ua_copy_strings(bp, t_count(argv),
					 (const char *const *)argv),
			 0);
		CHECK_EQ(ua_argblock_size(bp), used);
		CHECK_EQ(ua_argblock_read(bp, mine, n + 1), used);
		for (i = 0; i < used && mine[i] == got[i]; i++)
			;
		CHECK(i == used, "%s: byte %zu of %zu differs from Linux",
		      t_backend_names[b], i, used);
		ua_argblock_free(bp);
	}
	printf("%s: %zu bytes (argv %d, envp %d) identical to Linux\n", path,
	       used, t_count(argv), t_count(envp));
	free(got);
	free(mine);
}

int
main(int argc, char **argv)
{
	char exe[4096], tmp[4096], dir[4096], rel[4200], *big, *bigenv;
	struct t_cmdline c;
	char **av, **ev, *noenv[] = {NULL};
	ssize_t r;
	int i, k;

	if (argc >= 3 && !strcmp(argv[1], T_CHILD))
		return t_child(atoi(argv[2]));

	r = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	CHECK(r > 0, "readlink /proc/self/exe");
	exe[r] = '\0';
	strcpy(tmp, exe);
	snprintf(rel, sizeof(rel), "./%s", basename(tmp));
	strcpy(tmp, exe);
	strcpy(dir, dirname(tmp));

	/* A compiler command line, one argument and one variable over a page */
	c = t_cmdline_new(300, 40, 0x5eed);
	big = malloc(3 * t_page());
	bigenv = malloc(2 * t_page());
	CHECK(big && bigenv, "out of memory");
	memset(big, 'b', 3 * t_page() - 1);
	big[3 * t_page() - 1] = '\0';
	memset(bigenv, 'e', 2 * t_page() - 1);
	memcpy(bigenv, "LONG=", 5);
	bigenv[2 * t_page() - 1] = '\0';
	av = calloc((size_t)c.argc + 6, sizeof(char *));
	ev = calloc((size_t)c.envc + 3, sizeof(char *));
	CHECK(av && ev, "out of memory");
	k = 0;
	av[k++] = c.argv[0];
	av[k++] = T_CHILD;
	av[k++] = "9"; /* the fd the child writes to */
	for (i = 1; i < c.argc; i++)
		av[k++] = c.argv[i];
	av[k++] = big;
	av[k++] = "";
	for (i = 0, k = 0; i < c.envc; i++) {
		ev[k++] = c.envp[i];
		if (i == c.envc / 2)
			ev[k++] = bigenv;
	}

	t_compare(dir, exe, av, ev);
	t_compare(dir, rel, av, ev);
	av[3] = NULL;
	t_compare(dir, exe, av, noenv);

	free(av);
	free(ev);
	free(big);
	free(bigenv);
	t_cmdline_free(&c);
	t_done("argblock_linux");
	return T_PASS;
}

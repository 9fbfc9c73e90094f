/* SPDX-License-Identifier: MIT */
/*
 * The programs of uaccess-bench apps, their inputs, and running them with
 * and without the preload (programs.h).
 */
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "programs.h"

const struct app apps[] = {
    {"zstd",
     "zstd",
     "zstd",
     "compress, level 3",
     {"-q", "-3", "-T1", "-c", "@IN", NULL},
     NULL},
    {"unzstd",
     "zstd",
     "zstd",
     "decompress",
     {"-q", "-d", "-c", "@ZST", NULL},
     NULL},
    {"xz",
     "xz",
     "xz-utils",
     "compress, level 0",
     {"-q", "-0", "-T1", "-c", "@IN", NULL},
     NULL},
    {"unxz",
     "xz",
     "xz-utils",
     "decompress",
     {"-q", "-d", "-c", "@XZ", NULL},
     NULL},
    {"gzip",
     "gzip",
     "gzip",
     "compress, level 6",
     {"-q", "-6", "-n", "-c", "@IN", NULL},
     NULL},
    {"gunzip",
     "gzip",
     "gzip",
     "decompress",
     {"-q", "-d", "-c", "@GZ", NULL},
     NULL},
    {"sqlite3",
     "sqlite3",
     "sqlite3",
     "in-memory table, index, queries",
     {"-batch", ":memory:", NULL},
     "@SQL"},
    {"python3",
     "python3",
     "python3",
     "bytes, str, json and sorting on the corpus",
     {"-I", "-S", "@PY", "@IN", NULL},
     NULL},
    {"perl",
     "perl",
     "perl-base",
     "regex rewrite of every line",
     {"@PL", "@IN", NULL},
     NULL},
};
const int napps = (int)(sizeof(apps) / sizeof(apps[0]));

const char sanitized_why[] =
    "a sanitizer build: its preload needs the sanitizer runtime, which "
    "the programs do not load";

static char dir[64];
static char preload[4096];
/* ------------------------------------------------------------------ */
/* Inputs, generated: the same bytes on every machine */

static const char sql_script[] =
    "PRAGMA cache_size = -65536;\n"
    "CREATE TABLE t (id INTEGER PRIMARY KEY, k TEXT, v TEXT, n INTEGER);\n"
    "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE "
    "x < %d)\n"
    "INSERT INTO t SELECT x, printf('key-%%08d', (x * 2654435761) %% "
    "1000003),\n"
    "  printf('%%s/%%s/%%s', hex(x * 40503), hex(x * 2246822519), "
    "substr('the quick brown fox jumps over the lazy dog', 1 + x %% 40)),\n"
    "  (x * 7919) %% 10007 FROM c;\n"
    "CREATE INDEX t_k ON t (k);\n"
    "CREATE INDEX t_n ON t (n, v);\n"
    "SELECT count(*), sum(length(v)), max(k), min(v) FROM t;\n"
    "SELECT n %% 97 AS g, count(*), sum(length(k || v)) FROM t GROUP BY g "
    "ORDER BY g;\n"
    "SELECT k, v FROM t WHERE n BETWEEN 100 AND 103 ORDER BY k LIMIT 50;\n"
    "UPDATE t SET v = v || v WHERE id %% 3 = 0;\n"
    "SELECT sum(length(v)), count(DISTINCT substr(v, 1, 6)) FROM t;\n"
    "DELETE FROM t WHERE n %% 5 = 1;\n"
    "VACUUM;\n"
    "SELECT count(*), total(n) FROM t;\n";

static const char py_script[] =
    "import hashlib, json, sys\n"
    "data = open(sys.argv[1], 'rb').read()\n"
    "lines = data.split(b'\\n')\n"
    "h = hashlib.sha256()\n"
    "for rnd in range(3):\n"
    "    s = sorted(lines, key=lambda l: l[rnd:])\n"
    "    joined = b'\\n'.join(s)\n"
    "    h.update(joined[::7])\n"
    "    text = joined.decode('ascii').upper()\n"
    "    recs = [{'n': i, 'w': l.split(' ')[:4]} for i, l in\n"
    "            enumerate(text.split('\\n')[:20000])]\n"
    "    back = json.loads(json.dumps(recs))\n"
    "    h.update(repr(back[-1]).encode())\n"
    "    h.update(bytes(bytearray(data)[rnd::3]))\n"
    "print(len(lines), h.hexdigest())\n";

static const char pl_script[] =
    "while (<>) {\n"
    "    chomp;\n"
    "    my @w = split / /;\n"
    "    s/(\\w+)/\\u$1/g;\n"
    "    my $r = join(',', reverse @w);\n"
    "    print length($r), \" \", substr($_ . $r, 0, 120), \"\\n\";\n"
    "}\n";

static const char *const words[] = {
    "copy",   "user",   "kernel", "fault",   "table",     "page",  "cache",
    "vector", "memory", "string", "buffer",  "offset",    "align", "store",
    "load",   "stream", "signal", "handler", "return",    "bytes", "size",
    "the",    "of",     "and",    "a",       "to",        "in",    "is",
    "that",   "for",    "it",     "with",    "as",        "was",   "on",
    "zen",    "engine", "glibc",  "memcpy",  "threshold", "rep",   "movsb"};
#define NWORDS (sizeof(words) / sizeof(words[0]))

static uint64_t
rnd(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

static int
write_file(const char *name, const void *p, size_t n)
{
	char path[128];
	const char *c = p;
	int fd;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (fd < 0)
		return -errno;
	while (n) {
		ssize_t k = write(fd, c, n);

		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0) {
			int e = k < 0 ? errno : EIO;

			close(fd);
			return -e;
		}
		c += k;
		n -= (size_t)k;
	}
	return close(fd) ? -errno : 0;
}

/* Text that compresses about 3:1, with numbers, like a log */
static int
make_corpus(size_t size)
{
	char *buf = malloc(size + 256);
	uint64_t s = 0x9e3779b97f4a7c15u;
	size_t n = 0;
	int r;

	if (!buf)
		return -ENOMEM;
	while (n < size) {
		int k, nw = 4 + (int)(rnd(&s) % 12);

		n += (size_t)sprintf(buf + n, "%08llu ",
				     (unsigned long long)(rnd(&s) % 100000000));
		for (k = 0; k < nw; k++)
			n += (size_t)sprintf(buf + n, "%s%s", k ? " " : "",
					     words[rnd(&s) % NWORDS]);
		buf[n++] = '\n';
	}
	r = write_file("corpus.txt", buf, size);
	free(buf);
	return r;
}

static const char *
input_path(const char *tag, char *buf, size_t n)
{
	static const struct {
		const char *tag, *file;
	} map[] = {{"@IN", "corpus.txt"},    {"@ZST", "corpus.txt.zst"},
		   {"@XZ", "corpus.txt.xz"}, {"@GZ", "corpus.txt.gz"},
		   {"@SQL", "script.sql"},   {"@PY", "script.py"},
		   {"@PL", "script.pl"}};
	size_t i;

	for (i = 0; i < sizeof(map) / sizeof(map[0]); i++)
		if (!strcmp(tag, map[i].tag)) {
			snprintf(buf, n, "%s/%s", dir, map[i].file);
			return buf;
		}
	return tag;
}

/* ------------------------------------------------------------------ */
/* Running a program */

int
find_program(const char *name, char *ret, size_t n)
{
	const char *path = getenv("PATH");
	char list[4096];
	char *save = NULL, *d;

	snprintf(list, sizeof(list), "/usr/bin:/bin:%s", path ? path : "");
	for (d = strtok_r(list, ":", &save); d;
	     d = strtok_r(NULL, ":", &save)) {
		snprintf(ret, n, "%s/%s", *d ? d : ".", name);
		if (!access(ret, X_OK))
			return 0;
	}
	return -ENOENT;
}

/* What the dynamic loader matches a preload against: an object of another
 * class or machine is skipped with a warning, and nothing is preloaded */
struct elf_kind {
	unsigned cls, machine;
};

/* 0, or -ENOEXEC when path is not an ELF file, or -errno */
static int
elf_kind(const char *path, struct elf_kind *ret)
{
	unsigned char h[EI_NIDENT + 4];
	int fd = open(path, O_RDONLY | O_CLOEXEC), r = 0;

	if (fd < 0)
		return -errno;
	/* e_ident, e_type, e_machine: the same offsets in both classes */
	if (read(fd, h, sizeof(h)) != (ssize_t)sizeof(h) ||
	    memcmp(h, ELFMAG, SELFMAG) ||
	    (h[EI_CLASS] != ELFCLASS32 && h[EI_CLASS] != ELFCLASS64) ||
	    (h[EI_DATA] != ELFDATA2LSB && h[EI_DATA] != ELFDATA2MSB))
		r = -ENOEXEC;
	close(fd);
	if (r)
		return r;
	ret->cls = h[EI_CLASS];
	ret->machine = h[EI_DATA] == ELFDATA2LSB
			   ? h[EI_NIDENT + 2] | h[EI_NIDENT + 3] << 8
			   : h[EI_NIDENT + 3] | h[EI_NIDENT + 2] << 8;
	return 0;
}

static const char *
elf_kind_name(const struct elf_kind *k, char *buf, size_t n)
{
	const char *m = k->machine == EM_386       ? "i386"
			: k->machine == EM_X86_64  ? "x86-64"
			: k->machine == EM_AARCH64 ? "aarch64"
						   : NULL;
	int bits = k->cls == ELFCLASS64 ? 64 : 32;

	if (m)
		snprintf(buf, n, "ELF%d %s", bits, m);
	else
		snprintf(buf, n, "ELF%d machine %u", bits, k->machine);
	return buf;
}

/* The preload's kind, found by preload_set */
static struct elf_kind preload_kind;

/*
 * Can the preload load into prog?  0 if so; else why not, in why.  A
 * program that is not ELF (a script) is run by an interpreter this cannot
 * see: refused too, as no program in the table is one.
 */
int
preload_fits(const char *prog, char *why, size_t n)
{
	struct elf_kind k = {0, 0};
	char a[48], b[48];
	int r = elf_kind(prog, &k);

	if (r < 0) {
		snprintf(why, n, "%s: %s", prog,
			 r == -ENOEXEC ? "not an ELF program" : strerror(-r));
		return -1;
	}
	if (k.cls != preload_kind.cls || k.machine != preload_kind.machine) {
		snprintf(why, n, "%s is %s, the preload %s", prog,
			 elf_kind_name(&k, a, sizeof(a)),
			 elf_kind_name(&preload_kind, b, sizeof(b)));
		return -1;
	}
	return 0;
}

/* The environment less LD_PRELOAD and UACCESS_PRELOAD_STATS, plus ours */
static char **
child_env(enum preload_mode mode)
{
	extern char **environ;
	static char ld[4200], *env[1024];
	const char *old = getenv("LD_PRELOAD");
	int n = 0, i;

	for (i = 0; environ[i] && n < 1020; i++)
		if (strncmp(environ[i], "LD_PRELOAD=", 11) &&
		    strncmp(environ[i], "UACCESS_PRELOAD_STATS=", 22))
			env[n++] = environ[i];
	if (mode != WITHOUT) {
		snprintf(ld, sizeof(ld), "LD_PRELOAD=%s%s%s", preload,
			 old ? " " : "", old ? old : "");
		env[n++] = ld;
		if (mode == WITH_STATS)
			env[n++] = "UACCESS_PRELOAD_STATS=1";
	} else if (old) {
		snprintf(ld, sizeof(ld), "LD_PRELOAD=%s", old);
		env[n++] = ld;
	}
	env[n] = NULL;
	return env;
}

int
run_app(const struct app *a, const char *prog, enum preload_mode mode,
	const char *out_name, const char *err_name, struct run *ret)
{
	char args_buf[12][128], in[128], out[128], err[128];
	char *argv[14];
	char **envp = child_env(mode);
	struct rusage ru;
	struct timespec t0, t1;
	pid_t pid;
	int i, fds[3];

	argv[0] = (char *)a->program;
	for (i = 0; a->args[i]; i++)
		argv[i + 1] = (char *)input_path(a->args[i], args_buf[i],
						 sizeof(args_buf[i]));
	argv[i + 1] = NULL;
	if (a->stdin_file)
		input_path(a->stdin_file, in, sizeof(in));
	else
		snprintf(in, sizeof(in), "/dev/null");
	snprintf(out, sizeof(out), "%s/%s", dir, out_name);
	if (err_name)
		snprintf(err, sizeof(err), "%s/%s", dir, err_name);
	else
		snprintf(err, sizeof(err), "/dev/null");
	fds[0] = open(in, O_RDONLY | O_CLOEXEC);
	fds[1] = open(out, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	fds[2] = open(err, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (fds[0] < 0 || fds[1] < 0 || fds[2] < 0) {
		int e = errno;

		for (i = 0; i < 3; i++)
			if (fds[i] >= 0)
				close(fds[i]);
		return -e;
	}
	fflush(NULL);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	pid = fork();
	if (pid == 0) {
		for (i = 0; i < 3; i++)
			if (dup2(fds[i], i) < 0)
				_exit(126);
		execve(prog, argv, envp);
		_exit(127);
	}
	for (i = 0; i < 3; i++)
		close(fds[i]);
	if (pid < 0)
		return -errno;
	while (wait4(pid, &ret->status, 0, &ru) < 0)
		if (errno != EINTR)
			return -errno;
	clock_gettime(CLOCK_MONOTONIC, &t1);
	ret->wall_s = (double)(t1.tv_sec - t0.tv_sec) +
		      (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
	ret->cpu_s = (double)ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6 +
		     (double)ru.ru_stime.tv_sec + ru.ru_stime.tv_usec / 1e6;
	return 0;
}

int
same_files(const char *a, const char *b)
{
	char pa[128], pb[128], ba[65536], bb[65536];
	int fa, fb, r = 1;

	snprintf(pa, sizeof(pa), "%s/%s", dir, a);
	snprintf(pb, sizeof(pb), "%s/%s", dir, b);
	fa = open(pa, O_RDONLY | O_CLOEXEC);
	fb = open(pb, O_RDONLY | O_CLOEXEC);
	if (fa < 0 || fb < 0) {
		r = -errno;
		goto out;
	}
	for (;;) {
		ssize_t ka = read(fa, ba, sizeof(ba)), kb, got = 0;

		if (ka < 0) {
			r = -errno;
			break;
		}
		/* read b to the same length (a short read is not a difference)
		 */
		while (got < ka &&
		       (kb = read(fb, bb + got, (size_t)(ka - got))) > 0)
			got += kb;
		if (ka == 0) {
			r = read(fb, bb, 1) == 0;
			break;
		}
		if (got != ka || memcmp(ba, bb, (size_t)ka)) {
			r = 0;
			break;
		}
	}
out:
	if (fa >= 0)
		close(fa);
	if (fb >= 0)
		close(fb);
	return r;
}

const char *
status_text(int status, char *buf, size_t n)
{
	if (WIFEXITED(status))
		snprintf(buf, n, "exit %d", WEXITSTATUS(status));
	else if (WIFSIGNALED(status))
		snprintf(buf, n, "killed by %s", strsignal(WTERMSIG(status)));
	else
		snprintf(buf, n, "status %#x", status);
	return buf;
}

void
read_stats(const char *err_name, double *ret_calls, double *ret_bytes,
	   double *ret_overlaps)
{
	char path[128], line[1024];
	FILE *f;

	*ret_calls = *ret_bytes = *ret_overlaps = 0;
	snprintf(path, sizeof(path), "%s/%s", dir, err_name);
	f = fopen(path, "r");
	if (!f) {
		*ret_calls = *ret_bytes = *ret_overlaps = NAN;
		return;
	}
	while (fgets(line, sizeof(line), f)) {
		char *save = NULL, *tok, *p;

		if (strncmp(line, "uaccess-preload: pid ", 21) ||
		    !strstr(line, " calls=") || !(p = strchr(line + 21, ':')))
			continue;
		for (tok = strtok_r(p + 1, ";", &save); tok;
		     tok = strtok_r(NULL, ";", &save)) {
			char *c = strstr(tok, " calls="),
			     *b = strstr(tok, " bytes=");

			if (!c || !b)
				continue;
			if (strstr(tok, "overlapping")) {
				*ret_overlaps += strtod(c + 7, NULL);
			} else {
				*ret_calls += strtod(c + 7, NULL);
				*ret_bytes += strtod(b + 7, NULL);
			}
		}
	}
	fclose(f);
}

/* ------------------------------------------------------------------ */

int
programs_setup(size_t corpus)
{
	const char *tmp = getenv("TMPDIR");
	char sql[sizeof(sql_script) + 32];
	static const struct {
		const char *program, *args, *out;
	} pre[] = {{"zstd", "-q -3 -c", "corpus.txt.zst"},
		   {"xz", "-q -0 -c", "corpus.txt.xz"},
		   {"gzip", "-q -6 -n -c", "corpus.txt.gz"}};
	size_t i;
	int r;

	snprintf(dir, sizeof(dir), "%s/uaccess-bench-apps-XXXXXX",
		 tmp && *tmp && strlen(tmp) < 32 ? tmp : "/tmp");
	if (!mkdtemp(dir))
		return -errno;
	r = make_corpus(corpus);
	if (!r) {
		snprintf(sql, sizeof(sql), sql_script,
			 (int)(corpus / 64 > 400000 ? 400000 : corpus / 64));
		r = write_file("script.sql", sql, strlen(sql));
	}
	if (!r)
		r = write_file("script.py", py_script, strlen(py_script));
	if (!r)
		r = write_file("script.pl", pl_script, strlen(pl_script));
	/* The compressed inputs, made without the preload */
	for (i = 0; !r && i < sizeof(pre) / sizeof(pre[0]); i++) {
		char prog[4096], cmd[8400];

		if (find_program(pre[i].program, prog, sizeof(prog)))
			continue;
		snprintf(cmd, sizeof(cmd),
			 "env -u LD_PRELOAD '%s' %s '%s/corpus.txt' > "
			 "'%s/%s'",
			 prog, pre[i].args, dir, dir, pre[i].out);
		if (strchr(prog, '\'') || system(cmd) != 0)
			r = -EIO;
	}
	return r;
}

int
programs_ready(void)
{
	return dir[0] != 0;
}

const char *
programs_dir(void)
{
	return dir;
}

int
programs_cleanup(void)
{
	char cmd[128];
	int r = 0;

	if (!dir[0] || strchr(dir, '\''))
		return 0;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	if (system(cmd) != 0)
		r = -1;
	else
		dir[0] = 0;
	return r;
}

int
preload_set(const char *path)
{
	snprintf(preload, sizeof(preload), "%s", path);
	if (access(preload, R_OK))
		return -errno;
	return elf_kind(preload, &preload_kind);
}

const char *
preload_path(void)
{
	return preload;
}

const char *
preload_error(int r)
{
	return r == -ENOEXEC ? "not an ELF object" : strerror(-r);
}

int
app_selected(const struct app *a, const char *list)
{
	const char *p = list;
	size_t len = strlen(a->name);

	if (!p)
		return 1;
	while (*p) {
		size_t k = strcspn(p, ",");

		if (k == len && !strncmp(p, a->name, len))
			return 1;
		p += k + (p[k] == ',');
	}
	return 0;
}

int
apps_validate(const char *list)
{
	const char *p = list;

	while (*p) {
		size_t k = strcspn(p, ",");
		int i;

		if (!k || (p[k] == ',' && !p[k + 1]))
			return -1; /* an empty name */
		for (i = 0; i < napps; i++)
			if (strlen(apps[i].name) == k &&
			    !strncmp(p, apps[i].name, k))
				break;
		if (i == napps)
			return -1;
		p += k + (p[k] == ',');
	}
	return *list ? 0 : -1;
}

const char *
apps_names(void)
{
	static char buf[256];
	size_t len = 0;
	int i;

	for (i = 0; i < napps; i++)
		len += (size_t)snprintf(buf + len, sizeof(buf) - len, "%s%s",
					i ? "," : "", apps[i].name);
	return buf;
}

/* SPDX-License-Identifier: MIT */
/*
 * The programs uaccess-bench apps times with and without
 * libuaccess-preload.so, their generated inputs, and running one each way:
 * shared by the benchmark (apps.c) and the test that only compares the
 * outputs (tests/preload/apps_check.c).  The C library only.
 */
#ifndef UA_BENCH_PROGRAMS_H
#define UA_BENCH_PROGRAMS_H

#include <stddef.h>

struct app {
	const char *name;    /* for --apps and the table */
	const char *program; /* looked up in /usr/bin, /bin, then PATH */
	const char *package; /* Debian's */
	const char *what;
	/* argv after the program; "@IN" is the corpus, "@ZST", "@XZ", "@GZ"
	 * its compressed forms, "@SQL" the SQL script, "@PY" / "@PL" the
	 * scripts; NULL-terminated */
	const char *args[12];
	const char *stdin_file; /* same names; NULL: /dev/null */
};

extern const struct app apps[];
extern const int napps;

/* A list of names for --apps: valid (0) or not (-1); every name */
int apps_validate(const char *list);
const char *apps_names(void);
/* a is in list (comma-separated; NULL: every program) */
int app_selected(const struct app *a, const char *list);

/* The object to preload, and its ELF kind: 0, -ENOEXEC if it is not an
 * ELF object, or -errno; preload_error(r) says which */
int preload_set(const char *path);
const char *preload_path(void);
const char *preload_error(int r);
/* name's path in /usr/bin, /bin, then PATH: 0 or -ENOENT */
int find_program(const char *name, char *ret, size_t n);
/* Can the preload load into prog?  0 if so; else why not, in why */
int preload_fits(const char *prog, char *why, size_t n);

/* The inputs, in a new temporary folder: corpus bytes of text; 0 or
 * -errno.  programs_cleanup() removes the folder: 0, or -1 if it could
 * not (programs_dir() names it) */
int programs_setup(size_t corpus);
int programs_ready(void);
const char *programs_dir(void);
int programs_cleanup(void);

struct run {
	double cpu_s, wall_s;
	int status; /* as from waitpid */
};

enum preload_mode { WITHOUT, WITH, WITH_STATS };

/* prog run as a, its output and stderr (NULL: /dev/null) into files of
 * those names in the folder; 0 or -errno */
int run_app(const struct app *a, const char *prog, enum preload_mode mode,
	    const char *out_name, const char *err_name, struct run *ret);
/* 1 the two files hold the same bytes, 0 not, -errno */
int same_files(const char *a, const char *b);
const char *status_text(int status, char *buf, size_t n);
/* The counts the preload printed at exit, summed over its processes:
 * "uaccess-preload: pid N: memcpy calls=C bytes=B; mempcpy ...; ..." */
void read_stats(const char *err_name, double *ret_calls, double *ret_bytes,
		double *ret_overlaps);

/* A sanitizer build's preload needs the sanitizer runtime, which the
 * programs do not load */
#if defined(__SANITIZE_ADDRESS__)
#define SANITIZED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define SANITIZED 1
#endif
#endif
#ifndef SANITIZED
#define SANITIZED 0
#endif
extern const char sanitized_why[];

#endif /* UA_BENCH_PROGRAMS_H */

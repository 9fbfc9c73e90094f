/* SPDX-License-Identifier: MIT */
/* Description: UACCESS_TUNABLES, UACCESS_DISABLE and the profile: precedence,
 * sources, bad input ignored */
/*
 * uaccess-test: internal
 */
#include <stdint.h>
#include <sys/wait.h>

#include "cpu.h"
#include "dispatch.h"
#include "policy.h"
#include "profile.h"
#include "test.h"

/*
 * Strategy names of this architecture: S_FIRST runs on every CPU (it cannot
 * be disabled), S_OTHER is another, S_OPT1 and S_OPT2 can be disabled.
 */
#if defined(__x86_64__)
#define S_FIRST "sse2"
#define S_OTHER "unrolled"
#define S_OPT1 "avx2"
#define S_OPT2 "avx512"
#elif defined(__i386__)
#define S_FIRST "movsl"
#define S_OTHER "intel"
#define S_OPT1 "sse2"
#define S_OPT2 "erms"
#elif defined(__aarch64__)
#define S_FIRST "ldp"
#define S_OTHER "ldpq"
#define S_OPT1 "ldpq"
#define S_OPT2 "nt"
#endif

/* The kernel could not exec this program (qemu-user without binfmt_misc) */
static int exec_impossible;

static void
check_sizes(void)
{
	static const struct {
		const char *s;
		int ok;
		size_t v;
	} cases[] = {
	    {"4096", 1, 4096},
	    {"4K", 1, 4096},
	    {"4k", 1, 4096},
	    {"0x1000", 1, 4096},
	    {"2M", 1, 2u << 20},
	    {"1G", 1, 1u << 30},
	    {"0", 1, 0},
	    {"", 0, 0},
	    {"K", 0, 0},
	    {"12Q", 0, 0},
	    {"0x", 0, 0},
	    {"4KK", 0, 0},
	    {"99999999999999999999", 0, 0},
	    {"0xK", 0, 0},
	    {"-1", 0, 0},
	    {"max", 1, SIZE_MAX},
	    {"maxi", 0, 0},
	};
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		size_t v = 12345;
		int r = ua_parse_size(cases[i].s, strlen(cases[i].s), &v);

		CHECK(cases[i].ok ? r == 0 && v == cases[i].v : r < 0,
		      "parse_size(\"%s\") = %d, %zu", cases[i].s, r, v);
	}
}

static void
check_parse(void)
{
	static const char text[] =
	    "small=" S_FIRST ": medium_min = 8K # comment:bogus=1:large=nosuch:"
	    "huge_min=1M:=3:medium_min:clear_small=" S_FIRST ":nocache_min=abc";
	struct ua_policy p;
	const struct ua_strategy *opt2 = ua_strategy_find(S_OPT2);

	ua_policy_defaults(&p);
	CHECK_EQ(ua_policy_parse(&p, text, strlen(text), ':', UA_FROM_ENV), 4);
	CHECK(!strcmp(p.t[UA_T_SMALL].strategy->name, S_FIRST), "small");
	CHECK_EQ(p.t[UA_T_SMALL].source, UA_FROM_ENV);
	CHECK_EQ(p.t[UA_T_MEDIUM_MIN].num, 8192);
	CHECK_EQ(p.t[UA_T_HUGE_MIN].num, 1 << 20);
	CHECK_EQ(p.t[UA_T_LARGE].source, UA_FROM_DEFAULT);
	CHECK_EQ(p.t[UA_T_NOCACHE_MIN].source, UA_FROM_DEFAULT);
	/* A strategy the CPU cannot run is refused */
	if (opt2 && !ua_strategy_supported(opt2)) {
		static const char t2[] = "small=" S_OPT2;

		CHECK_EQ(ua_policy_parse(&p, t2, strlen(t2), ':', UA_FROM_ENV),
			 0);
	}
	/* Seed 001: one page by default, or never where the CPU's defaults
	 * found streaming slower than the cached copy (AMD Zen 5) */
	ua_policy_defaults(&p);
	CHECK(p.t[UA_T_NOCACHE_MIN].num == t_page() ||
		  p.t[UA_T_NOCACHE_MIN].num == SIZE_MAX,
	      "nocache_min %zu: neither a page nor never",
	      p.t[UA_T_NOCACHE_MIN].num);
	CHECK(p.t[UA_T_NOCACHE].strategy->nontemporal,
	      "nocache default streams");
}

/* ---- In a child, with a given environment ---- */

static int
child(const char *what)
{
	const struct ua_policy *p = ua_policy();

	if (!strcmp(what, "profile")) {
		CHECK(ua_profile_in_use() != NULL, "profile not read");
		CHECK_EQ(p->t[UA_T_LARGE_MIN].num, 12345);
		CHECK_EQ(p->t[UA_T_LARGE_MIN].source, UA_FROM_PROFILE);
		/* the environment wins over the profile */
		CHECK_EQ(p->t[UA_T_HUGE_MIN].num, 7 << 20);
		CHECK_EQ(p->t[UA_T_HUGE_MIN].source, UA_FROM_ENV);
		CHECK(!strcmp(ua_copy_strategy(7 << 20), S_OTHER),
		      "huge=" S_OTHER);
	} else if (!strcmp(what, "mismatch")) {
		CHECK(ua_profile_in_use() == NULL,
		      "profile for another CPU read");
		CHECK_EQ(p->t[UA_T_LARGE_MIN].source, UA_FROM_DEFAULT);
	} else if (!strcmp(what, "disable")) {
		const struct ua_strategy *s = ua_strategy_find(S_OPT1);

		CHECK(!ua_strategy_usable(s), S_OPT1 " still usable");
		CHECK(!ua_strategy_usable(ua_strategy_find(S_OPT2)), S_OPT2);
		CHECK(ua_strategy_usable(ua_strategy_find(S_FIRST)),
		      S_FIRST " cannot go");
		CHECK(strcmp(ua_copy_strategy(64), S_OPT1) &&
			  strcmp(ua_copy_strategy(64), S_OPT2),
		      "disabled strategy in force: %s", ua_copy_strategy(64));
		/* and a tunable naming it is refused */
		CHECK_EQ(p->t[UA_T_MEDIUM].source, UA_FROM_DEFAULT);
	} else if (!strcmp(what, "force")) {
		CHECK(!strcmp(ua_copy_strategy(0), S_OTHER) &&
			  !strcmp(ua_copy_strategy(1 << 30), S_OTHER),
		      "strategy=" S_OTHER);
	} else if (!strcmp(what, "garbage")) {
		struct ua_policy d;

		ua_policy_defaults(&d);
		CHECK(!memcmp(&d, p, sizeof(d)), "garbage changed the policy");
	}
	return T_PASS;
}

static void
run_child(const char *argv0, const char *what, const char *const *env)
{
	pid_t pid = fork();
	int status;

	CHECK(pid >= 0, "fork");
	if (pid == 0) {
		const char *args[] = {argv0, what, NULL};

		t_exec_self(args, env);
	}
	CHECK(waitpid(pid, &status, 0) == pid, "waitpid");
	if (WIFEXITED(status) && WEXITSTATUS(status) == 126) {
		exec_impossible = 1;
		return;
	}
	CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0,
	      "child %s: status %d", what, status);
}

static void
write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	CHECK(f != NULL, "fopen %s", path);
	fputs(text, f);
	fclose(f);
}

int
main(int argc, char **argv)
{
	char good[] = "/tmp/uaccess-profile-XXXXXX",
	     other[] = "/tmp/uaccess-profile-XXXXXX";
	char text[512], id[64], envp[600], envo[600];
	int fd;

	if (argc > 1)
		return child(argv[1]);
	check_sizes();
	check_parse();

	ua_cpu_id(id, sizeof(id), ua_cpu());
	fd = mkstemp(good);
	CHECK(fd >= 0, "mkstemp");
	close(fd);
	fd = mkstemp(other);
	CHECK(fd >= 0, "mkstemp");
	close(fd);
	snprintf(text, sizeof(text),
		 "# test profile\ncpu=%s\nlarge_min=12345\nhuge_min=1M\n"
		 "huge=" S_OTHER "\nnot a line\n=\nsmall=\n",
		 id);
	write_file(good, text);
	write_file(other, "cpu=NoSuchVendor 99 99\nlarge_min=12345\n");
	snprintf(envp, sizeof(envp), "UACCESS_PROFILE=%s", good);
	snprintf(envo, sizeof(envo), "UACCESS_PROFILE=%s", other);
	{
		const char *e1[] = {envp, "UACCESS_TUNABLES=huge_min=7M", NULL};
		const char *e2[] = {envo, NULL};
		const char *e3[] = {"UACCESS_PROFILE=",
				    "UACCESS_DISABLE=" S_OPT1 "," S_OPT2
				    "," S_FIRST ",nosuch,",
				    "UACCESS_TUNABLES=medium=" S_OPT1, NULL};
		const char *e4[] = {"UACCESS_PROFILE=",
				    "UACCESS_TUNABLES=strategy=" S_OTHER, NULL};
		const char *e5[] = {"UACCESS_PROFILE=", "UACCESS_DISABLE=,,,:",
				    "UACCESS_TUNABLES=::=:small:=x:medium_min="
				    "abc:strategy=:huge=",
				    NULL};

		run_child(argv[0], "profile", e1);
		run_child(argv[0], "mismatch", e2);
		run_child(argv[0], "disable", e3);
		run_child(argv[0], "force", e4);
		run_child(argv[0], "garbage", e5);
	}
	unlink(good);
	unlink(other);
	t_done("tunables");
	if (exec_impossible) {
		printf("the kernel cannot exec this program, and no emulator "
		       "is named (UA_TEST_EMULATOR): environment and profile "
		       "not tested\n");
		return T_SKIP;
	}
	return T_PASS;
}

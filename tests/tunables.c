/* SPDX-License-Identifier: MIT */
/* Description: UACCESS_TUNABLES, UACCESS_DISABLE and the profile: precedence,
 * sources, bad input ignored and recorded with the reason */
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

/* Item i of the record: origin, reason, text (and line in the profile) */
static void
check_item(const struct ua_ignored *ign, unsigned i, int origin, int reason,
	   unsigned line, const char *text)
{
	const struct ua_ignored_item *it = &ign->item[i];

	CHECK(i < ign->count && i < UA_IGNORED_MAX, "no item %u (%u noted)", i,
	      ign->count);
	CHECK(it->origin == origin && it->reason == reason &&
		  it->line == line && !strcmp(it->text, text),
	      "item %u: origin %d reason %d line %u \"%s\", expected %d %d %u "
	      "\"%s\"",
	      i, it->origin, it->reason, it->line, it->text, origin, reason,
	      line, text);
}

static void
check_parse(void)
{
	static const char text[] =
	    "small=" S_FIRST ": medium_min = 8K # comment:bogus=1:large=nosuch:"
	    "huge_min=1M:=3:medium_min:clear_small=" S_FIRST ":nocache_min=abc"
	    ":inline_wide=7:inline_wide=0";
	struct ua_policy p;
	struct ua_ignored ign;
	const struct ua_strategy *opt2 = ua_strategy_find(S_OPT2), *all;
	size_t n, i;

	ua_policy_defaults(&p);
	memset(&ign, 0, sizeof(ign));
	CHECK_EQ(
	    ua_policy_parse(&p, text, strlen(text), ':', UA_FROM_ENV, &ign), 5);
	CHECK(!strcmp(p.t[UA_T_SMALL].strategy->name, S_FIRST), "small");
	CHECK_EQ(p.t[UA_T_SMALL].source, UA_FROM_ENV);
	CHECK_EQ(p.t[UA_T_MEDIUM_MIN].num, 8192);
	CHECK_EQ(p.t[UA_T_HUGE_MIN].num, 1 << 20);
	CHECK_EQ(p.t[UA_T_LARGE].source, UA_FROM_DEFAULT);
	CHECK_EQ(p.t[UA_T_NOCACHE_MIN].source, UA_FROM_DEFAULT);
	/* Every item that did not take, with why, in order */
	CHECK_EQ(ign.count, 6);
	check_item(&ign, 0, UA_IN_TUNABLES, UA_IGN_NAME, 0, "bogus=1");
	check_item(&ign, 1, UA_IN_TUNABLES, UA_IGN_VALUE, 0, "large=nosuch");
	CHECK_EQ(ign.item[1].tunable, UA_T_LARGE);
	check_item(&ign, 2, UA_IN_TUNABLES, UA_IGN_SYNTAX, 0, "=3");
	check_item(&ign, 3, UA_IN_TUNABLES, UA_IGN_SYNTAX, 0, "medium_min");
	check_item(&ign, 4, UA_IN_TUNABLES, UA_IGN_VALUE, 0, "nocache_min=abc");
	CHECK_EQ(ign.item[4].tunable, UA_T_NOCACHE_MIN);
	/* inline_wide is 0 or 1 */
	check_item(&ign, 5, UA_IN_TUNABLES, UA_IGN_VALUE, 0, "inline_wide=7");
	CHECK_EQ(p.t[UA_T_INLINE_WIDE].num, 0);
	CHECK_EQ(p.t[UA_T_INLINE_WIDE].source, UA_FROM_ENV);
	/* A profile's items carry their line; its cpu= line is no tunable */
	{
		static const char prof[] =
		    "cpu=x\n\n# c\nsmall=" S_FIRST "\nhuge_min=-5\r\nwhat\n";

		memset(&ign, 0, sizeof(ign));
		CHECK_EQ(ua_policy_parse(&p, prof, strlen(prof), '\n',
					 UA_FROM_PROFILE, &ign),
			 1);
		CHECK_EQ(ign.count, 2);
		check_item(&ign, 0, UA_IN_PROFILE, UA_IGN_VALUE, 5,
			   "huge_min=-5");
		check_item(&ign, 1, UA_IN_PROFILE, UA_IGN_SYNTAX, 6, "what");
	}
	/* A strategy the CPU cannot run is refused: as on a CPU without what
	 * S_OPT2 needs, its feature bits cleared for the time of the call */
	if (opt2 && opt2->needs) {
		static const char t2[] = "small=" S_OPT2;
		struct ua_cpu *cpu = (struct ua_cpu *)ua_cpu();
		uint64_t had = cpu->features;

		cpu->features &= ~opt2->needs;
		memset(&ign, 0, sizeof(ign));
		CHECK_EQ(
		    ua_policy_parse(&p, t2, strlen(t2), ':', UA_FROM_ENV, &ign),
		    0);
		cpu->features = had;
		check_item(&ign, 0, UA_IN_TUNABLES, UA_IGN_UNSUPPORTED, 0, t2);
	}
	/* clear_*: a strategy with no clearing routine, where there is one */
	all = ua_strategies(&n);
	for (i = 0; i < n; i++) {
		static const char *const clears[] = {
		    "clear_small", "clear_large", "clear_huge"};
		size_t k;

		if (all[i].clear || !ua_strategy_usable(&all[i]))
			continue;
		for (k = 0; k < sizeof(clears) / sizeof(clears[0]); k++) {
			char t3[64];

			snprintf(t3, sizeof(t3), "%s=%s", clears[k],
				 all[i].name);
			memset(&ign, 0, sizeof(ign));
			CHECK_EQ(ua_policy_parse(&p, t3, strlen(t3), ':',
						 UA_FROM_ENV, &ign),
				 0);
			check_item(&ign, 0, UA_IN_TUNABLES, UA_IGN_NO_CLEAR, 0,
				   t3);
		}
	}
	/* Beyond the record's room only the count grows; a long item is cut */
	{
		char many[UA_IGNORED_MAX * 8 + 200];
		size_t len = 0;
		unsigned k;

		for (k = 0; k < UA_IGNORED_MAX + 4; k++)
			len += (size_t)snprintf(many + len, sizeof(many) - len,
						"x%u=1:", k);
		memset(&ign, 0, sizeof(ign));
		ua_policy_parse(&p, many, len, ':', UA_FROM_ENV, &ign);
		CHECK_EQ(ign.count, UA_IGNORED_MAX + 4);
		check_item(&ign, UA_IGNORED_MAX - 1, UA_IN_TUNABLES,
			   UA_IGN_NAME, 0, "x15=1");
		memset(many, 'y', 150);
		memcpy(many + 150, "=1", 3);
		memset(&ign, 0, sizeof(ign));
		ua_policy_parse(&p, many, strlen(many), ':', UA_FROM_ENV, &ign);
		CHECK(ign.count == 1 && ign.item[0].cut &&
			  strlen(ign.item[0].text) == UA_IGNORED_TEXT - 1,
		      "a long item is not cut: %u items, cut %d, %zu bytes",
		      ign.count, ign.item[0].cut, strlen(ign.item[0].text));
	}
	/* A record is optional */
	CHECK_EQ(
	    ua_policy_parse(&p, text, strlen(text), ':', UA_FROM_ENV, NULL), 5);
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
child(const char *what, const char *path)
{
	const struct ua_policy *p = ua_policy();
	const struct ua_ignored *ign = ua_ignored();

	if (!strcmp(what, "profile")) {
		CHECK(ua_profile_in_use() != NULL, "profile not read");
		CHECK_EQ(p->t[UA_T_LARGE_MIN].num, 12345);
		CHECK_EQ(p->t[UA_T_LARGE_MIN].source, UA_FROM_PROFILE);
		/* the environment wins over the profile */
		CHECK_EQ(p->t[UA_T_HUGE_MIN].num, 7 << 20);
		CHECK_EQ(p->t[UA_T_HUGE_MIN].source, UA_FROM_ENV);
		CHECK(!strcmp(ua_copy_strategy(7 << 20), S_OTHER),
		      "huge=" S_OTHER);
		/* its bad lines, by number */
		CHECK(ign->profile && !strcmp(ign->profile, path),
		      "profile named %s", ign->profile ? ign->profile : "");
		CHECK_EQ(ign->count, 3);
		check_item(ign, 0, UA_IN_PROFILE, UA_IGN_SYNTAX, 6,
			   "not a line");
		check_item(ign, 1, UA_IN_PROFILE, UA_IGN_SYNTAX, 7, "=");
		check_item(ign, 2, UA_IN_PROFILE, UA_IGN_VALUE, 8, "small=");
	} else if (!strcmp(what, "mismatch")) {
		CHECK(ua_profile_in_use() == NULL,
		      "profile for another CPU read");
		CHECK_EQ(p->t[UA_T_LARGE_MIN].source, UA_FROM_DEFAULT);
		CHECK(ign->profile && !strcmp(ign->profile, path),
		      "profile named %s", ign->profile ? ign->profile : "");
		CHECK_EQ(ign->count, 1);
		check_item(ign, 0, UA_IN_PROFILE, UA_IGN_OTHER_CPU, 0,
			   "NoSuchVendor 99 99");
	} else if (!strcmp(what, "nocpu")) {
		CHECK(ua_profile_in_use() == NULL, "profile without cpu= read");
		CHECK_EQ(p->t[UA_T_LARGE_MIN].source, UA_FROM_DEFAULT);
		CHECK_EQ(ign->count, 1);
		check_item(ign, 0, UA_IN_PROFILE, UA_IGN_NO_CPU, 0, "");
	} else if (!strcmp(what, "unreadable")) {
		CHECK(ua_profile_in_use() == NULL, "profile read");
		CHECK_EQ(ign->count, 1);
		check_item(ign, 0, UA_IN_PROFILE, UA_IGN_UNREADABLE, 0, path);
		CHECK(ign->item[0].err == ENOENT || ign->item[0].err == EISDIR,
		      "errno %d", ign->item[0].err);
	} else if (!strcmp(what, "long")) {
		/* The lines that fit are read, the rest noted */
		CHECK(ua_profile_in_use() != NULL, "long profile not read");
		CHECK_EQ(p->t[UA_T_LARGE_MIN].num, 12345);
		CHECK_EQ(ign->count, 1);
		CHECK_EQ(ign->item[0].reason, UA_IGN_TOO_LONG);
		CHECK(ign->item[0].line > 100, "from line %u",
		      ign->item[0].line);
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
		CHECK_EQ(ign->count, 3);
		check_item(ign, 0, UA_IN_DISABLE, UA_IGN_BASELINE, 0, S_FIRST);
		check_item(ign, 1, UA_IN_DISABLE, UA_IGN_NO_STRATEGY, 0,
			   "nosuch");
		check_item(ign, 2, UA_IN_TUNABLES,
			   ua_strategy_supported(s) ? UA_IGN_DISABLED
						    : UA_IGN_UNSUPPORTED,
			   0, "medium=" S_OPT1);
	} else if (!strcmp(what, "force")) {
		CHECK(!strcmp(ua_copy_strategy(0), S_OTHER) &&
			  !strcmp(ua_copy_strategy(1 << 30), S_OTHER),
		      "strategy=" S_OTHER);
		CHECK_EQ(ign->count, 0);
	} else if (!strcmp(what, "garbage")) {
		struct ua_policy d;

		ua_policy_defaults(&d);
		CHECK(!memcmp(&d, p, sizeof(d)), "garbage changed the policy");
		CHECK_EQ(ign->count, 6);
		check_item(ign, 0, UA_IN_TUNABLES, UA_IGN_SYNTAX, 0, "=");
		check_item(ign, 1, UA_IN_TUNABLES, UA_IGN_SYNTAX, 0, "small");
		check_item(ign, 2, UA_IN_TUNABLES, UA_IGN_SYNTAX, 0, "=x");
		check_item(ign, 3, UA_IN_TUNABLES, UA_IGN_VALUE, 0,
			   "medium_min=abc");
		check_item(ign, 4, UA_IN_TUNABLES, UA_IGN_VALUE, 0,
			   "strategy=");
		check_item(ign, 5, UA_IN_TUNABLES, UA_IGN_VALUE, 0, "huge=");
	}
	return T_PASS;
}

static void
run_child(const char *argv0, const char *what, const char *path,
	  const char *const *env)
{
	pid_t pid = fork();
	int status;

	CHECK(pid >= 0, "fork");
	if (pid == 0) {
		const char *args[] = {argv0, what, path, NULL};

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
	     other[] = "/tmp/uaccess-profile-XXXXXX",
	     nocpu[] = "/tmp/uaccess-profile-XXXXXX",
	     big[] = "/tmp/uaccess-profile-XXXXXX";
	char *paths[] = {good, other, nocpu, big};
	char text[512], id[64], envp[600], envo[600], envn[600], envb[600];
	static char lines[20000];
	size_t len;
	unsigned i;
	int fd;

	if (argc > 2)
		return child(argv[1], argv[2]);
	check_sizes();
	check_parse();

	ua_cpu_id(id, sizeof(id), ua_cpu());
	for (i = 0; i < 4; i++) {
		fd = mkstemp(paths[i]);
		CHECK(fd >= 0, "mkstemp");
		close(fd);
	}
	snprintf(text, sizeof(text),
		 "# test profile\ncpu=%s\nlarge_min=12345\nhuge_min=1M\n"
		 "huge=" S_OTHER "\nnot a line\n=\nsmall=\n",
		 id);
	write_file(good, text);
	write_file(other, "cpu=NoSuchVendor 99 99\nlarge_min=12345\n");
	write_file(nocpu, "large_min=12345\nhello\n");
	len = (size_t)snprintf(lines, sizeof(lines), "cpu=%s\n", id);
	while (len + 17 < sizeof(lines))
		len += (size_t)snprintf(lines + len, sizeof(lines) - len,
					"large_min=12345\n");
	write_file(big, lines);
	snprintf(envp, sizeof(envp), "UACCESS_PROFILE=%s", good);
	snprintf(envo, sizeof(envo), "UACCESS_PROFILE=%s", other);
	snprintf(envn, sizeof(envn), "UACCESS_PROFILE=%s", nocpu);
	snprintf(envb, sizeof(envb), "UACCESS_PROFILE=%s", big);
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
		const char *e6[] = {envn, NULL};
		const char *e7[] = {"UACCESS_PROFILE=/nonexistent/profile",
				    NULL};
		const char *e8[] = {"UACCESS_PROFILE=/", NULL};
		const char *e9[] = {envb, NULL};

		run_child(argv[0], "profile", good, e1);
		run_child(argv[0], "mismatch", other, e2);
		run_child(argv[0], "disable", "", e3);
		run_child(argv[0], "force", "", e4);
		run_child(argv[0], "garbage", "", e5);
		run_child(argv[0], "nocpu", nocpu, e6);
		run_child(argv[0], "unreadable", "/nonexistent/profile", e7);
		run_child(argv[0], "unreadable", "/", e8);
		run_child(argv[0], "long", big, e9);
	}
	for (i = 0; i < 4; i++)
		unlink(paths[i]);
	t_done("tunables");
	if (exec_impossible) {
		printf("the kernel cannot exec this program, and no emulator "
		       "is named (UA_TEST_EMULATOR): environment and profile "
		       "not tested\n");
		return T_SKIP;
	}
	return T_PASS;
}

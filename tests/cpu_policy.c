/* SPDX-License-Identifier: MIT */
/*
 * Description: the built-in x86-64 policy for CPUs other than this one:
 * Intel parts with AVX-512 keep 32-byte vectors (glibc's choice there, so
 * that the copy does not lower the core's clock), Zen 5 gets the 64-byte
 * entries, the shifted loop and rep movsb at any alignment with nocache
 * never streaming, Zen 3 rep movsb only for equally aligned pointers from
 * half its L2.  Strategies are picked among those this CPU can run.
 *
 * uaccess-test: internal arch=x86_64
 */
#include "cpu_detect.h"
#include "default_policy.h"
#include "page.h"
#include "strategy.h"
#include "test.h"
#include "x86/cpu_features.h"

#define ALL_X86                                                                \
	(UA_F(ERMS) | UA_F(FSRM) | UA_F(AVX2) | UA_F(AVX512) | UA_F(SSE2) |    \
	 UA_F(AVX512VBMI))

static struct ua_policy
policy_for(const char *vendor, unsigned family, unsigned model,
	   uint64_t features, size_t l2, size_t l3)
{
	struct ua_cpu c = {.family = family,
			   .model = model,
			   .features = features,
			   .l1d = 48 << 10,
			   .l2 = l2,
			   .l3 = l3};
	struct ua_policy p;

	snprintf(c.vendor, sizeof(c.vendor), "%s", vendor);
	memset(&p, 0, sizeof(p));
	ua_arch_default_policy(&p, &c);
	return p;
}

static const char *
name(const struct ua_policy *p, int t)
{
	return p->t[t].strategy ? p->t[t].strategy->name : "(unset)";
}

/* The first of names that this CPU can run */
static const char *
first_usable(const char *const *names)
{
	const struct ua_strategy *s = ua_policy_pick(names);

	return s ? s->name : "(none)";
}

static void
check_intel_avx512(void)
{
	static const char *const want[] = {"avx2", "avx512", "sse2", NULL};
	/* Ice Lake server: AVX-512, ERMS, FSRM */
	struct ua_policy p = policy_for("GenuineIntel", 6, 0x6a, ALL_X86,
					(size_t)2 << 20, (size_t)48 << 20);
	const char *v = first_usable(want);
	int t;

	for (t = UA_T_SMALL; t <= UA_T_MEDIUM; t++)
		CHECK(!strcmp(name(&p, t), v), "Intel %s: %s, not %s",
		      ua_tunables[t].name, name(&p, t), v);
	CHECK(!strcmp(name(&p, UA_T_REP_MISALIGNED), v), "rep_misaligned %s",
	      name(&p, UA_T_REP_MISALIGNED));
	CHECK(!strcmp(name(&p, UA_T_CLEAR_SMALL), v), "clear_small %s",
	      name(&p, UA_T_CLEAR_SMALL));
	CHECK_EQ(p.t[UA_T_INLINE_WIDE].num, 0);
	CHECK_EQ(p.t[UA_T_LARGE_MIN].num, 4096);
	CHECK(!strcmp(name(&p, UA_T_LARGE), "erms"), "large %s",
	      name(&p, UA_T_LARGE));
	CHECK_EQ(p.t[UA_T_REP_ALIGN_MASK].num, 63);
}

static void
check_zen5(void)
{
	static const char *const want[] = {"avx512vbmi", "avx512", "avx2",
					   "sse2", NULL};
	struct ua_policy p = policy_for("AuthenticAMD", 0x1a, 2, ALL_X86,
					(size_t)1 << 20, (size_t)32 << 20);

	CHECK(!strcmp(name(&p, UA_T_SMALL), first_usable(want)), "small %s",
	      name(&p, UA_T_SMALL));
	CHECK_EQ(p.t[UA_T_INLINE_WIDE].num, 1);
	CHECK_EQ(p.t[UA_T_LARGE_MIN].num, 32 << 10);
	CHECK(!strcmp(name(&p, UA_T_LARGE), "erms") &&
		  !strcmp(name(&p, UA_T_HUGE), "erms") &&
		  !strcmp(name(&p, UA_T_LARGE_MISALIGNED), "erms"),
	      "large %s, huge %s, large misaligned %s", name(&p, UA_T_LARGE),
	      name(&p, UA_T_HUGE), name(&p, UA_T_LARGE_MISALIGNED));
	CHECK(!strcmp(name(&p, UA_T_HUGE_MISALIGNED), "nt"),
	      "huge misaligned %s", name(&p, UA_T_HUGE_MISALIGNED));
	CHECK_EQ(p.t[UA_T_HUGE_MIN].num, (size_t)24 << 20);
	CHECK_EQ(p.t[UA_T_NOCACHE_MIN].num, SIZE_MAX);
}

static void
check_zen3(void)
{
	struct ua_policy p =
	    policy_for("AuthenticAMD", 0x19, 1,
		       ALL_X86 & ~(UA_F(AVX512) | UA_F(AVX512VBMI)),
		       (size_t)512 << 10, (size_t)32 << 20);

	CHECK_EQ(p.t[UA_T_INLINE_WIDE].num, 0);
	CHECK(!strcmp(name(&p, UA_T_LARGE), "erms"), "large %s",
	      name(&p, UA_T_LARGE));
	CHECK_EQ(p.t[UA_T_LARGE_MIN].num, 256 << 10);
	CHECK(!p.t[UA_T_LARGE_MISALIGNED].strategy, "large misaligned %s",
	      name(&p, UA_T_LARGE_MISALIGNED));
	CHECK_EQ(p.t[UA_T_NOCACHE_MIN].num, ua_page_size);
	CHECK(!strcmp(name(&p, UA_T_NOCACHE), "nt"), "nocache %s",
	      name(&p, UA_T_NOCACHE));
}

int
main(void)
{
	CHECK_EQ(ua_init(), 0);
	check_intel_avx512();
	check_zen5();
	check_zen3();
	t_done("cpu_policy");
	return T_PASS;
}

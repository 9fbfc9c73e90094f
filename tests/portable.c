/* SPDX-License-Identifier: MIT */
/*
 * Description: the portable versions that every port of this tree replaces
 * (src/task_size.c, src/engine/cpu_detect.c, src/policy/default_policy.c),
 * built here under other names, work: the end of the user address space found
 * by bisection is where pages stop being mappable; the CPU is what the C
 * library says; the default policy names a usable strategy for every
 * setting, and the library runs on it (copies exact, faults included).
 *
 * uaccess-test: internal
 */
#define ua_task_size ua_portable_task_size
#define ua_arch_cpu_detect ua_portable_cpu_detect
#define ua_arch_feature_name ua_portable_feature_name
#define ua_arch_default_policy ua_portable_default_policy
#define ua_arch_default_policy_basis ua_portable_default_policy_basis
#include "../src/engine/cpu_detect.c"
#include "../src/policy/default_policy.c"
#include "../src/task_size.c"
#undef ua_task_size
#undef ua_arch_cpu_detect
#undef ua_arch_feature_name
#undef ua_arch_default_policy
#undef ua_arch_default_policy_basis

#include "cpu.h"
#include "dispatch.h"
#include "test.h"

static void
check_task_size(void)
{
	uintptr_t end = ua_portable_task_size(), pg = ua_page_size;
	uintptr_t stack = (uintptr_t)&end;

	CHECK(end % pg == 0 && end > stack, "task size %#lx, stack at %#lx",
	      (unsigned long)end, (unsigned long)stack);
	CHECK(ua_can_map_at(end - pg), "no page below the end %#lx",
	      (unsigned long)end);
	CHECK(!ua_can_map_at(end), "a page at the end %#lx",
	      (unsigned long)end);
	printf("portable: the user address space ends at %#lx\n",
	       (unsigned long)end);
}

static void
check_cpu(void)
{
	struct ua_cpu c = {0};
	long l1d = sysconf(_SC_LEVEL1_DCACHE_SIZE);
	unsigned bit;

	ua_portable_cpu_detect(&c);
	CHECK(!c.vendor[0] && !c.family && !c.model && !c.features,
	      "nothing but the caches is known");
	CHECK_EQ(c.l1d, l1d > 0 ? (size_t)l1d : 0);
	for (bit = 0; bit < 64; bit++)
		CHECK(!ua_portable_feature_name(bit), "feature %u named", bit);
}

/* Every size goes through the first strategy; the copies stay exact */
static void
check_policy(void)
{
	const struct ua_strategy *all, *first;
	struct t_layout l = t_layout_new(2, T_BAD_NONE);
	struct ua_policy p, saved = *ua_policy();
	static char buf[2 * 65536];
	char basis[128];
	size_t n, i, pg = t_page();
	int t;

	all = ua_strategies(&n);
	first = &all[0];
	memset(&p, 0, sizeof(p));
	ua_portable_default_policy(&p, ua_cpu());
	n = ua_portable_default_policy_basis(basis, sizeof(basis), ua_cpu());
	CHECK(n > 0 && n == strlen(basis) && strstr(basis, "first strategy"),
	      "the basis says \"%s\"", basis);
	all = ua_strategies(&n);
	for (t = UA_T_SMALL; t <= UA_T_HUGE; t++)
		CHECK(p.t[t].strategy == first, "%s: not the first strategy",
		      ua_tunables[t].name);
	for (t = UA_T_STRATEGY + 1; t < UA_T_FIRST_NUMBER; t++) {
		const struct ua_strategy *s = p.t[t].strategy;

		/* Unset: the misaligned classes, and the huge clears */
		if ((t >= UA_T_SMALL_MISALIGNED && t <= UA_T_HUGE_MISALIGNED) ||
		    t == UA_T_CLEAR_HUGE) {
			CHECK(!s, "%s set", ua_tunables[t].name);
			continue;
		}
		CHECK(s && ua_strategy_usable(s), "%s: no usable strategy",
		      ua_tunables[t].name);
		if (t == UA_T_CLEAR_SMALL || t == UA_T_CLEAR_LARGE)
			CHECK(s->clear, "%s: no clear routine",
			      ua_tunables[t].name);
	}
	CHECK(p.t[UA_T_CLEAR_HUGE_MIN].num == SIZE_MAX,
	      "clear_huge_min %zu: not max", p.t[UA_T_CLEAR_HUGE_MIN].num);
	CHECK(!p.t[UA_T_NOCACHE].strategy->nontemporal ||
		  p.t[UA_T_NOCACHE_MIN].num == ua_page_size,
	      "nocache_min");
	for (i = 0; i < n; i++)
		if (all[i].nontemporal && ua_strategy_usable(&all[i]))
			CHECK(p.t[UA_T_NOCACHE].strategy->nontemporal,
			      "a streaming strategy exists, nocache does not "
			      "use it");

	ua_dispatch_apply(&p);
	CHECK(!strcmp(ua_copy_strategy(1), first->name) &&
		  !strcmp(ua_copy_strategy((size_t)1 << 30), first->name),
	      "ua_copy_strategy: %s", ua_copy_strategy(1));
	for (n = 0; n <= 2 * pg; n += n < 80 ? 1 : 61) {
		memset(buf, 0x11, n);
		CHECK_EQ(ua_copy_from_user(buf, l.bad - n, n), 0);
		CHECK(!memcmp(buf, l.base, n), "from_user %zu: data", n);
		CHECK_EQ(ua_copy_to_user(l.bad - n, buf, n), 0);
		CHECK_EQ(ua_clear_user(l.bad - n, n), 0);
		memset(l.base, 0x5a, 2 * pg);
		CHECK(ua_memcpy(buf, l.base, n) == buf &&
			  !memcmp(buf, l.base, n),
		      "ua_memcpy %zu", n);
	}
	/* Faults: exact counts, the rest of copy_from_user's dst zeroed */
	memset(buf, 0x11, 300);
	CHECK_EQ(ua_copy_from_user(buf, l.bad - 100, 300), 200);
	for (i = 0; i < 300; i++)
		CHECK(buf[i] == (i < 100 ? 0x5a : 0), "from_user: byte %zu", i);
	CHECK_EQ(ua_copy_to_user(l.bad - 7, buf, 300), 300 - 7);
	CHECK_EQ(ua_clear_user(l.bad - 7, 4096), 4096 - 7);
	t_layout_free(&l);
	ua_dispatch_apply(&saved);
}

int
main(void)
{
	CHECK_EQ(ua_init(), 0);
	check_task_size();
	check_cpu();
	check_policy();
	t_done("portable");
	return T_PASS;
}

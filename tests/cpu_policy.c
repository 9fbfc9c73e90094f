/* SPDX-License-Identifier: MIT */
/*
 * Description: the floor of the x86 default policies on CPUs other than
 * this one: for each CPU of the table, described as cpuid reports it,
 * glibc 2.44's choices (x86/glibc_floor.h: vector width, rep movsb range,
 * non-temporal and rep stosb thresholds, memset's streaming) and every
 * tunable of the policy,
 * which is glibc's but for the deviations measured on Zen 3, Zen 4, Zen 5 and
 * the Emerald Rapids guests (docs/measurements/, x86-64 only: i386 keeps
 * the floor there, with sse2
 * for every vector width, and rep movsl without SSE2).  Strategies are
 * expected among those this CPU can run.
 *
 * uaccess-test: internal arch=x86_64,i386
 */
#include "cpu_detect.h"
#include "default_policy.h"
#include "page.h"
#include "test.h"
#include "usable.h"
#include "x86/cpu_features.h"
#include "x86/glibc_floor.h"

#define K ((size_t)1 << 10)
#define M ((size_t)1 << 20)

/* Feature sets as cpuid and XCR0 give them (cpu_detect.c) */
#define SSE2 UA_F(SSE2)
#define AVX2 (SSE2 | UA_F(AVX2))
#define AVX512 (AVX2 | UA_F(AVX512) | UA_F(AVX512F) | UA_F(AVX512VBMI))
#define ERMS UA_F(ERMS)
#define FSRM UA_F(FSRM)
#define VNNI UA_F(AVX_VNNI)
#define RTM UA_F(RTM)

/* Expected strategies: the first of a list that this CPU runs */
static const char *const vec64[] = {"avx512", "avx2", "sse2", NULL};
static const char *const vec32[] = {"avx2", "sse2", NULL};
static const char *const vec16[] = {"sse2", NULL};
static const char *const vbmi[] = {"avx512vbmi", "avx512", "avx2", "sse2",
				   NULL};
static const char *const erms[] = {"erms", NULL};
static const char *const nt[] = {"nt", NULL};

struct row {
	const char *name;
	struct ua_cpu cpu; /* vendor, family, model, features, caches */
	/* glibc 2.44, each with its reason beside it in the table (and
	 * memset_nt below) */
	unsigned vec;
	int no_avx512, short_distance;
	size_t nt, movsb, stosb;
	/* The policy: small (= medium, clear_small, rep_misaligned), large
	 * from large_min (= medium_min), huge from huge_min, clear_large from
	 * clear_large_min, rep_align_mask; misaligned classes NULL: unset */
	const char *const *small,
	    *const *large, *const *huge, *const *clear_large, *const *large_mis,
								  *const
								      *huge_mis;
	size_t large_min, huge_min, clear_large_min, mask;
	size_t nocache_min; /* 0: a page */
	int wide;           /* inline_wide: 1, or 2 where small has it */
	size_t medium_min;  /* 0: large_min */
	int loop;           /* inline_loop */
	int fwd;            /* 1: alias_forward_min 0; 0: max, glibc's */
	/* glibc 2.44: memset streams from here (SIZE_MAX: never) */
	size_t memset_nt;
	/* The policy: clear_huge from memset_nt where glibc streams there;
	 * NULL: nt (unset on i386, whose nt has no clear routine) */
	const char *const *clear_huge;
};

/* The Zen 5 guest's 3/4 of 508M, above the largest threshold glibc takes
 * with a 32-bit size_t (SIZE_MAX >> 4: 256M less a byte) */
#define GUEST_NT (sizeof(size_t) == 4 ? SIZE_MAX >> 4 : 381 * M)

/* clang-format off */
static const struct row table[] = {
{"Intel Broadwell-EP (Xeon E5-2699 v4, 22 cores)",
 {"GenuineIntel", 6, 0x4f, 1, AVX2 | ERMS | RTM, 32 * K, 256 * K, 55 * M,
  0, 44, 0, ""},
 32,	/* AVX2 with RTM -> avx_unaligned_erms_rtm */
 1, 0,	/* no AVX-VNNI -> Prefer_No_AVX512 (moot: no AVX-512); no FSRM */
 6 * M + 896 * K, /* Broadwell: divisor 8; 55M / 8 (inclusive L3) */
 8192,	/* 4096 * (32 / 16) */
 2048,
 vec32, erms, nt, erms, NULL, NULL,
 8192, 6 * M + 896 * K, 2048,
 0, 0, 0, 0, 0, 0,
 6 * M + 896 * K, NULL,	/* memset streams where memcpy does (Intel) */
},
{"Intel Skylake-SP (Xeon Platinum 8180, 28 cores)",
 {"GenuineIntel", 6, 0x55, 4, AVX512 | ERMS | RTM, 32 * K, 1 * M,
  38 * M + 512 * K, 2, 56, 1, ""},
 32,	/* no AVX-VNNI -> Prefer_No_AVX512 -> evex_unaligned_erms */
 1, 0,	/* no FSRM -> rep movsb at any distance */
 19 * M + 768 * K, /* SKX: divisor 2; (38.5M L3 + 1M L2, non-inclusive) / 2 */
 8192,	/* 4096 * (32 / 16): AVX_Fast_Unaligned_Load, no FSRM */
 2048,	/* the default with ERMS */
 vec32, erms, nt, erms, NULL, NULL,
 8192, 19 * M + 768 * K, 2048,
 0, 0, 0, 0, 0, 0,	/* rep movsb at any alignment, as glibc */
 SIZE_MAX, NULL,	/* SKX: Avoid_Non_Temporal_Memset ("not necessarily
		   profitable on SKX"): rep stosb at every size from 2K */
},
{"Intel Ice Lake-SP (Xeon Platinum 8380, 40 cores)",
 {"GenuineIntel", 6, 0x6a, 6, AVX512 | ERMS | FSRM | RTM, 48 * K,
  1280 * K, 60 * M, 2, 80, 1, ""},
 32,	/* AVX512-VNNI but no AVX-VNNI -> Prefer_No_AVX512 -> evex */
 1, 1,	/* FSRM -> Avoid_Short_Distance_REP_MOVSB -> mask 63 */
 30 * M + 640 * K, /* ICX: divisor 2; (60M + 1.25M) / 2 */
 2112,	/* FSRM */
 2048,
 vec32, erms, nt, erms, NULL, NULL,
 2112, 30 * M + 640 * K, 2048,
 63, 0, 0, 0, 0, 0,
 30 * M + 640 * K, NULL,	/* memset streams where memcpy does */
},
{"Intel Sapphire Rapids (Xeon Platinum 8480+, 56 cores)",
 {"GenuineIntel", 6, 0x8f, 8, AVX512 | VNNI | ERMS | FSRM | RTM, 48 * K,
  2 * M, 105 * M, 2, 112, 1, ""},
 64,	/* AVX-VNNI -> no Prefer_No_AVX512 -> avx512_unaligned_erms */
 0, 1,	/* FSRM -> short distances avoided */
 53 * M + 512 * K, /* SPR: divisor 2; (105M + 2M) / 2 */
 2112, 2048,
 vec64, erms, nt, erms, NULL, NULL,
 2112, 53 * M + 512 * K, 2048,
 63, 0, 2, 0, 0, 0,	/* zmm for small sizes too */
 53 * M + 512 * K, NULL,
},
{"Intel Emerald Rapids (a 2-vCPU guest), departs: docs/measurements/intel-emr.md",
 {"GenuineIntel", 6, 0xcf, 2, AVX512 | VNNI | ERMS | FSRM | RTM, 48 * K,
  2 * M, 260 * M, 1, 2, 1, ""},
 64,	/* AVX-VNNI; ld.so there: Prefer_No_AVX512=0 */
 0, 1,	/* ld.so there: Avoid_Short_Distance_REP_MOVSB=1 */
 131 * M, /* EMR: divisor 2; (260M + 2M) / 2 (2.36 there: 99M, 3/4 of
	     260M / 2 threads + 2M) */
 2112,	/* ld.so there: rep_movsb_threshold=0x840 */
 2048,	/* ld.so there: rep_stosb_threshold=0x800 */
 vec64, erms, nt, erms, NULL, NULL,
 /* the measured deviation (intel-emr.md): rep movsb from 16K (2, the zmm
  * loop is faster in L1 below), streaming from 32M (3) */
 16 * K, 32 * M, 2048,
 63, 0, 2,
 8 * K, 1, 0,	/* the entries' four-vector loop up to 8K (1) */
 131 * M, NULL,	/* memset: the floor's (not measured there) */
},
{"Intel Emerald Rapids as a guest reports it (model 0xa7, 480M of L3), "
 "departs: docs/measurements/intel-emr.md",
 {"GenuineIntel", 6, 0xa7, 1, AVX512 | VNNI | ERMS | FSRM | RTM, 48 * K,
  2 * M, 480 * M, 1, 2, 1, ""},
 64, 0, 1,	/* as the row above */
 241 * M, /* divisor 2 for every Intel model glibc does not list; (480M +
	     2M) / 2 (2.36 here: 181.5M) */
 2112, 2048,
 vec64, erms, nt, erms, NULL, NULL,
 16 * K, 32 * M, 2048,	/* the deviation of the row above: measured on */
 63, 0, 2,		/* this guest (intel-emr.md) */
 8 * K, 1, 0,
 241 * M, NULL,
},
{"Intel Granite Rapids (Xeon 6980P, 128 cores)",
 {"GenuineIntel", 6, 0xad, 1, AVX512 | VNNI | ERMS | FSRM | RTM, 48 * K,
  2 * M, 504 * M, 2, 256, 1, ""},
 64, 0, 1,	/* AVX-VNNI; FSRM */
 253 * M,	/* GNR: divisor 2; (504M + 2M) / 2 */
 2112, 2048,
 vec64, erms, nt, erms, NULL, NULL,
 2112, 253 * M, 2048,
 63, 0, 2, 0, 0, 0,
 253 * M, NULL,
},
{"Intel Alder Lake P-core (Core i9-12900K)",
 {"GenuineIntel", 6, 0x97, 2, AVX2 | VNNI | ERMS | FSRM, 48 * K,
  1280 * K, 30 * M, 2, 24, 1, ""},
 32,	/* no AVX-512; AVX2 without RTM -> avx_unaligned_erms */
 0, 1,
 15 * M + 640 * K, /* ADL: divisor 2; (30M + 1.25M) / 2 */
 2112, 2048,
 vec32, erms, nt, erms, NULL, NULL,
 2112, 15 * M + 640 * K, 2048,
 63, 0, 0, 0, 0, 0,
 15 * M + 640 * K, NULL,
},
{"Intel Gracemont E-cores (Alder Lake-N, Core i3-N305)",
 {"GenuineIntel", 6, 0xbe, 0, AVX2 | VNNI | ERMS | FSRM, 32 * K,
  2 * M, 6 * M, 4, 8, 1, ""},
 32,	/* no AVX-512 -> avx_unaligned_erms */
 0, 1,
 4 * M,	/* Alder Lake: divisor 2; (6M + 2M) / 2, above 3/4 of the
	   per-thread 6M / 8 + 2M / 4 */
 2112, 2048,
 vec32, erms, nt, erms, NULL, NULL,
 2112, 4 * M, 2048,
 63, 0, 0, 0, 0, 0,
 4 * M, NULL,
},
{"Intel Wildcat Lake (model 0xd5; caches illustrative)",
 {"GenuineIntel", 6, 0xd5, 0, AVX2 | VNNI | ERMS | FSRM, 48 * K, 3 * M,
  12 * M, 1, 6, 1, ""},
 32, 0, 1,	/* no AVX-512 -> avx_unaligned_erms; FSRM */
 7 * M + 512 * K, /* 2.43 lists it with Panther Lake: divisor 2;
		     (12M + 3M) / 2 (2.42, divisor 4: 3.75M) */
 2112, 2048,
 vec32, erms, nt, erms, NULL, NULL,
 2112, 7 * M + 512 * K, 2048,
 63, 0, 0, 0, 0, 0,
 7 * M + 512 * K, NULL,
},
{"Intel Nova Lake (family 18 model 1; caches illustrative)",
 {"GenuineIntel", 18, 0x01, 0, AVX2 | VNNI | ERMS | FSRM, 48 * K, 3 * M,
  36 * M, 1, 16, 1, ""},
 32, 0, 1,
 19 * M + 512 * K, /* 2.43: family 18 models 1 and 3, tuned as Panther
		      Lake: divisor 2; (36M + 3M) / 2 (2.42: 9.75M) */
 2112, 2048,
 vec32, erms, nt, erms, NULL, NULL,
 2112, 19 * M + 512 * K, 2048,
 63, 0, 0, 0, 0, 0,
 19 * M + 512 * K, NULL,
},
{"Intel Sierra Forest (Xeon 6780E, 144 Crestmont E-cores)",
 {"GenuineIntel", 6, 0xaf, 3, AVX2 | VNNI | ERMS | FSRM, 32 * K, 4 * M,
  108 * M, 4, 144, 1, ""},
 32, 0, 1,
 28 * M,	/* an Atom: the default divisor 4; (108M + 4M) / 4 */
 2112, 2048,
 vec32, erms, nt, erms, NULL, NULL,
 2112, 28 * M, 2048,
 63, 0, 0, 0, 0, 0,
 28 * M, NULL,
},
{"AMD Zen 2 (EPYC 7742)",
 {"AuthenticAMD", 0x17, 0x31, 0, AVX2, 32 * K, 512 * K, 16 * M, 0, 0,
  0, ""},
 32,	/* AMD never prefers against AVX: avx_unaligned */
 0, 0,	/* the preferred bits are Intel's */
 12 * M,	/* no ERMS: 3/4 of the 16M L3 (a CCX's, no per-thread cut) */
 12 * M,	/* AMD: rep_movsb_threshold = non_temporal_threshold */
 12 * M,	/* no ERMS: Avoid_STOSB -> memset's non-temporal threshold */
 vec32, vec32, nt, vec32, NULL, NULL,
 12 * M, 12 * M, SIZE_MAX,	/* no ERMS: no string instructions */
 0, 0, 0, 0, 0, 0,
 12 * M, NULL,	/* memset streams where memcpy does (AMD) */
},
{"AMD Zen 3 (EPYC 7763), departs: docs/measurements/zen3.md",
 {"AuthenticAMD", 0x19, 0x01, 1, AVX2 | ERMS | FSRM, 32 * K, 512 * K,
  32 * M, 0, 0, 0, ""},
 32, 0, 0,
 24 * M,	/* max(32M / 4, 3/4 of 32M) */
 24 * M,	/* AMD: from the non-temporal threshold, i.e. never */
 24 * M,	/* AMD: "the vectorized loop is slightly better", and
		   2.44 starts it where memset streams: never (2.43: max) */
 vec32,
 erms,		/* zen3.md: aligned rep movsb from half the L2, */
 nt, erms, NULL, NULL,
 256 * K, 24 * M,
 512 * K,	/* zen3.md: rep stosb from the L2 size */
 63,		/* zen3.md: rep movsb 30% slower misaligned */
 0, 0, 0, 0, 0,
 24 * M, NULL,	/* zen3.md measured no clear that large: the floor's */
},
{"AMD Zen 4 (EPYC 9654), departs: docs/measurements/zen4.md",
 {"AuthenticAMD", 0x19, 0x11, 1, AVX512 | ERMS | FSRM, 32 * K, 1 * M,
  32 * M, 0, 0, 0, ""},
 64,	/* AVX-512 on AMD: avx512_unaligned_erms */
 0, 0,
 24 * M, 24 * M, 24 * M,	/* as Zen 3: no rep movsb, no rep stosb */
 /* The policy before the floor, pinned (zen4.md): */
 vec64,	/* up to 512 B, glibc's: the entries' 64-byte moves */
 vec32,	/* from 513 B: level aligned, 1.5x misaligned at 1 KiB */
 nt,	/* from half the LLC: 1.9x a cached 16 MiB copy */
 vec64, NULL, NULL,	/* clears and the misaligned classes: the floor */
 513, 16 * M, SIZE_MAX,
 0, 0, 2, 0, 0,
 1,	/* ua_memcpy forward at 4K-alias distances: 1.1-2.5x beyond
	   the L2, 0.92-1.10x in L1 */
 24 * M, NULL,
},
{"AMD Zen 5 (EPYC 9005), departs: docs/measurements/zen5.md",
 {"AuthenticAMD", 0x1a, 0x02, 0, AVX512 | ERMS | FSRM, 48 * K, 1 * M,
  32 * M, 0, 0, 0, ""},
 64, 0, 0,
 24 * M, 24 * M, 24 * M,	/* as Zen 3 */
 /* The policy before the floor, pinned (zen5.md): */
 vbmi,	/* the shifted loads keep the aligned speed misaligned */
 erms,	/* from 32 KiB at any relative alignment */
 erms,	/* from 3/4 of the LLC for aligned pairs: level with nt */
 erms,	/* rep stosb from the L2 size */
 erms,	/* large_misaligned */
 nt,	/* huge_misaligned: 1.0-1.46x rep movsb beyond the L3 */
 32 * K, 24 * M, 1 * M,
 63, SIZE_MAX,	/* nocache copies never stream: 0.70-0.77x */
 1,		/* 64-byte moves in the entries: 0.97x glibc at 512 B */
 0, 0, 0,
 24 * M, vbmi,	/* zen5.md: the vector clear, 1.2-1.3x rep stosb at
		   512 MiB-1 GiB, which ran 1.08-1.17x streaming stores */
},
{"AMD Zen 5 as the project's guest reports it (508M of L3), departs: "
 "docs/measurements/zen5.md",
 {"AuthenticAMD", 0x1a, 0x02, 1, AVX512 | VNNI | ERMS | FSRM, 48 * K, 1 * M,
  508 * M, 0, 0, 0, ""},
 64, 0, 0,	/* ld.so of Debian's 2.44-3 there (zen5.md): */
 GUEST_NT,	/* non_temporal_threshold=0x17d00000: 3/4 of 508M */
 GUEST_NT,	/* rep_movsb_threshold=0x17d00000 */
 GUEST_NT,	/* rep_stosb_threshold=0x17d00000 (2.43-7: max) */
 vbmi, erms, erms, erms, erms, nt,	/* the Zen 5 rule, as above */
 32 * K, 381 * M, 1 * M,	/* huge_min: 3/4 of the LLC */
 63, SIZE_MAX, 1, 0, 0, 0,
 GUEST_NT, vbmi,	/* memset_non_temporal_threshold=0x17d00000 */
},
{"AMD Zen 5 mobile (Ryzen AI 9 HX 370, Strix Point: 512-bit work in "
 "256-bit halves)",
 {"AuthenticAMD", 0x1a, 0x24, 0, AVX512 | ERMS | FSRM, 48 * K, 1 * M,
  16 * M, 0, 0, 0, ""},
 64, 0, 0,
 12 * M,	/* max(16M / 4, 3/4 of 16M) */
 12 * M, 12 * M,	/* AMD: no rep movsb, no rep stosb */
 /* glibc's floor: the Zen 5 rule was measured on the full-width core
  * only (default_policy.c, ua_amd_zen5_full_width) */
 vec64, vec64, nt, vec64, NULL, NULL,
 12 * M, 12 * M, SIZE_MAX,
 0, 0, 2, 0, 0, 0,
 12 * M, NULL,
},
{"AMD Zen 4 with AVX-512 hidden (an EPYC 9654 guest), departs: "
 "docs/measurements/zen4.md",
 {"AuthenticAMD", 0x19, 0x11, 1, AVX2 | ERMS | FSRM, 32 * K, 1 * M,
  32 * M, 0, 0, 0, ""},
 32,	/* AVX2 on AMD: avx_unaligned_erms */
 0, 0,
 24 * M, 24 * M, 24 * M,
 /* a Zen 4 model (Linux's ranges), not Zen 3's rule: Zen 4's, whose
  * loop from 513 B is avx2 */
 vec32, vec32, nt, vec32, NULL, NULL,
 513, 16 * M, SIZE_MAX,
 0, 0, 0, 0, 0, 1,
 24 * M, NULL,
},
{"AMD Zen 3+ (Ryzen 7 6800U, model 0x44), departs: "
 "docs/measurements/zen3.md",
 {"AuthenticAMD", 0x19, 0x44, 1, AVX2 | ERMS | FSRM, 32 * K, 512 * K,
  16 * M, 0, 0, 0, ""},
 32, 0, 0,
 12 * M, 12 * M, 12 * M,
 vec32, erms, nt, erms, NULL, NULL,	/* Zen 3's rule, as the EPYC 7763 */
 256 * K, 12 * M, 512 * K,
 63, 0, 0, 0, 0, 0,
 12 * M, NULL,
},
{"Hygon Dhyana (C86 7185)",
 {"HygonGenuine", 0x18, 0x00, 1, AVX2, 32 * K, 512 * K, 8 * M, 0, 0,
  0, ""},
 16,	/* 2.43, Hygon models below 4: "Unaligned AVX loads are slower":
	   no AVX_Fast_Unaligned_Load -> sse2 (2.42: avx_unaligned) */
 0, 0,
 3 * M,	/* 2.44, Hygon's memcpy: 3/8 of the L3 (2.43: 3/4, no ERMS) */
 2048,	/* not AMD's rule: 2048 for 16-byte vectors, but no ERMS: never */
 6 * M,	/* no ERMS: memset's non-temporal threshold, 3/4 of the L3 */
 vec16, vec16, nt, vec16, NULL, NULL,
 3 * M, 3 * M, SIZE_MAX,
 0, 0, 0, 0, 0, 0,
 6 * M, NULL,	/* memset's: the shared threshold, before Hygon's own */
},
{"Hygon family 0x18 model 4 (the first model past the cut; caches as "
 "the Dhyana's)",
 {"HygonGenuine", 0x18, 0x04, 1, AVX2, 32 * K, 512 * K, 8 * M, 0, 0,
  0, ""},
 32,	/* model 4: AVX_Fast_Unaligned_Load stays -> avx_unaligned */
 0, 0,
 3 * M,	/* as the Dhyana: 3/8 of the L3 */
 8192,	/* 4096 * (32 / 16), but no ERMS: never */
 6 * M,
 vec32, vec32, nt, vec32, NULL, NULL,
 3 * M, 3 * M, SIZE_MAX,
 0, 0, 0, 0, 0, 0,
 6 * M, NULL,
},
{"Hygon family 0x18 model 7 with AVX-512, ERMS and FSRM (features and "
 "caches assumed; glibc names the model alone)",
 {"HygonGenuine", 0x18, 0x07, 1, AVX512 | ERMS | FSRM, 32 * K, 1 * M,
  32 * M, 0, 0, 0, ""},
 32,	/* 2.43, Hygon model 7: Prefer_No_AVX512 ("evex can be more
	   profitable") -> evex_unaligned_erms (2.42: avx512) */
 1, 0,	/* Avoid_Short_Distance_REP_MOVSB is Intel's */
 12 * M, /* 2.44, Hygon's memcpy: 3/8 of the L3 alone, no per-thread
	    cut (2.43: max(32M / 4, 3/4 of 32M)) */
 2112,	/* FSRM; not AMD's rule, so rep movsb runs, up to 12M */
 2048,	/* not AMD's rule either: rep stosb from 2 KiB */
 vec32, erms, nt, erms, NULL, NULL,
 2112, 12 * M, 2048,
 0, 0, 0, 0, 0, 0,
 24 * M, NULL,	/* memset's: the shared threshold, above memcpy's */
},
{"Hygon family 0x18 model 8 (features and caches as model 7's)",
 {"HygonGenuine", 0x18, 0x08, 1, AVX512 | ERMS | FSRM, 32 * K, 1 * M,
  32 * M, 0, 0, 0, ""},
 32,	/* 2.44: model 8 takes model 7's rule (2.43: avx512) */
 1, 0,
 12 * M, 2112, 2048,	/* as model 7 */
 vec32, erms, nt, erms, NULL, NULL,
 2112, 12 * M, 2048,
 0, 0, 0, 0, 0, 0,
 24 * M, NULL,
},
{"AMD Zen 2 guest whose hypervisor leaves leaf 0x8000001D empty (16M of "
 "L3 from 0x80000006, 4 logical processors)",
 {"AuthenticAMD", 0x17, 0x31, 0, AVX2, 32 * K, 512 * K, 16 * M, 0, 4,
  0, ""},
 32, 0, 0,
 3 * M,	/* 2.44's handle_amd: 16M / 4 processors, no ERMS: 3/4 of
	   that (2.43 read the empty leaf as a 1-byte L3: 64M) */
 3 * M, 3 * M,	/* AMD; no ERMS */
 vec32, vec32, nt, vec32, NULL, NULL,
 3 * M, 3 * M, SIZE_MAX,
 0, 0, 0, 0, 0, 0,
 3 * M, NULL,
},
{"AMD Phenom II X4 (family 0x10: no leaf 0x8000001D; 6M of L3 from "
 "0x80000006 for 4 processors)",
 {"AuthenticAMD", 0x10, 0x04, 2, SSE2, 64 * K, 512 * K, 6 * M, 0, 4, 0,
  ""},
 16,	/* no AVX2: sse2_unaligned */
 0, 0,
 1536 * K,	/* 6M / 4 + the 512K L2 (before family 0x17 the two
		   add up) = 2M; no ERMS: 3/4 of it */
 1536 * K, 1536 * K,	/* AMD; no ERMS */
 vec16, vec16, nt, vec16, NULL, NULL,
 1536 * K, 1536 * K, SIZE_MAX,
 0, 0, 0, 0, 0, 0,
 1536 * K, NULL,
},
{"x86-64 with nothing beyond SSE2 (AMD Opteron 248, K8)",
 {"AuthenticAMD", 0x0f, 0x05, 1, SSE2, 64 * K, 1 * M, 0, 0, 0, 0, ""},
 16,	/* no AVX2: sse2_unaligned */
 0, 0,
 768 * K,	/* no L3: the 1M L2; no ERMS: 3/4 of it */
 768 * K,	/* AMD */
 768 * K,	/* no ERMS */
 vec16, vec16, nt, vec16, NULL, NULL,
 768 * K, 768 * K, SIZE_MAX,
 0, 0, 0, 0, 0, 0,
 768 * K, NULL,
},
{"x86-64 of an unknown vendor (a hypervisor's), AVX2 and ERMS",
 {"VirtualCPUxx", 6, 0x01, 0, AVX2 | ERMS, 32 * K, 1 * M, 16 * M, 0, 0, 0,
  ""},
 32, 0, 0,	/* glibc's preferred bits are per vendor: none */
 SIZE_MAX >> 4,	/* no cache information for another vendor: its
		   shared size is -1, taken unsigned, cut to the maximum */
 8192, 2048,
 vec32, erms, nt, erms, NULL, NULL,
 8192, SIZE_MAX >> 4, 2048,
 0, 0, 0, 0, 0, 0,
 SIZE_MAX, NULL,	/* Avoid_Non_Temporal_Memset but on Intel, AMD and
		   Hygon */
},
};
/* clang-format on */

#ifdef __i386__
#define UA_I386 1
#else
#define UA_I386 0
#endif

/* The first of names that this CPU can run */
static const char *
first_usable(const char *const *names)
{
	const struct ua_strategy *s = ua_policy_pick(names);

	return s ? s->name : "(none)";
}

static const char *
name(const struct ua_policy *p, int t)
{
	return p->t[t].strategy ? p->t[t].strategy->name : "(unset)";
}

static void
check_strategy(const struct row *r, const struct ua_policy *p, int t,
	       const char *const *want)
{
	const char *w = want ? first_usable(want) : "(unset)";

	CHECK(!strcmp(name(p, t), w), "%s: %s=%s, expected %s", r->name,
	      ua_tunables[t].name, name(p, t), w);
}

static void
check_num(const struct row *r, const struct ua_policy *p, int t, size_t want)
{
	CHECK(p->t[t].num == want, "%s: %s=%zu, expected %zu", r->name,
	      ua_tunables[t].name, p->t[t].num, want);
}

static void
check_glibc(const struct row *r)
{
	struct ua_glibc_floor f;

	ua_glibc_floor(&r->cpu, &f);
	CHECK(f.vec_size == r->vec, "%s: glibc's vectors %u, expected %u",
	      r->name, f.vec_size, r->vec);
	CHECK(f.prefer_no_avx512 == (unsigned)r->no_avx512 &&
		  f.avoid_short_distance_rep_movsb ==
		      (unsigned)r->short_distance,
	      "%s: Prefer_No_AVX512 %u, Avoid_Short_Distance_REP_MOVSB %u",
	      r->name, f.prefer_no_avx512, f.avoid_short_distance_rep_movsb);
	CHECK(f.non_temporal_threshold == r->nt &&
		  f.rep_movsb_stop_threshold == r->nt,
	      "%s: non_temporal_threshold %zu, rep_movsb_stop_threshold "
	      "%zu, expected %zu",
	      r->name, f.non_temporal_threshold, f.rep_movsb_stop_threshold,
	      r->nt);
	CHECK(f.rep_movsb_threshold == r->movsb,
	      "%s: rep_movsb_threshold %zu, expected %zu", r->name,
	      f.rep_movsb_threshold, r->movsb);
	CHECK(f.rep_stosb_threshold == r->stosb,
	      "%s: rep_stosb_threshold %zu, expected %zu", r->name,
	      f.rep_stosb_threshold, r->stosb);
	CHECK(f.memset_non_temporal_threshold == r->memset_nt,
	      "%s: memset_non_temporal_threshold %zu, expected %zu", r->name,
	      f.memset_non_temporal_threshold, r->memset_nt);
}

/* On i386 a CPU whose x86-64 policy departs keeps glibc's floor */
static void
check_floor(const struct row *r)
{
	struct ua_policy p, want;
	struct ua_glibc_floor f;
	int t;

	memset(&p, 0, sizeof(p));
	memset(&want, 0, sizeof(want));
	ua_arch_default_policy(&p, &r->cpu);
	ua_glibc_floor(&r->cpu, &f);
	ua_x86_floor_policy(&want, &f);
	for (t = 0; t < UA_NTUNABLES; t++)
		CHECK(p.t[t].strategy == want.t[t].strategy &&
			  p.t[t].num == want.t[t].num,
		      "%s: %s is not glibc's floor", r->name,
		      ua_tunables[t].name);
}

static void
check_policy(const struct row *r)
{
	struct ua_policy p;
	const struct ua_strategy *small = ua_policy_pick(r->small);
	/* Streaming clears where memset streams and nt clears */
	const struct ua_strategy *stream = ua_policy_pick(nt);
	int clears_stream = r->memset_nt != SIZE_MAX && stream && stream->clear;
	/* Every strategy tunable (NULL: unset), then every number */
	const char *const *want[UA_T_FIRST_NUMBER] = {
	    [UA_T_SMALL] = r->small,
	    [UA_T_MEDIUM] = r->small,
	    [UA_T_LARGE] = r->large,
	    [UA_T_HUGE] = r->huge,
	    [UA_T_CLEAR_SMALL] = r->small,
	    [UA_T_CLEAR_LARGE] = r->clear_large,
	    [UA_T_CLEAR_HUGE] = !clears_stream  ? NULL
				: r->clear_huge ? r->clear_huge
						: nt,
	    [UA_T_NOCACHE] = nt,
	    [UA_T_REP_MISALIGNED] = r->small,
	    [UA_T_LARGE_MISALIGNED] = r->large_mis,
	    [UA_T_HUGE_MISALIGNED] = r->huge_mis,
	};
	size_t num[UA_NTUNABLES] = {
	    [UA_T_MEDIUM_MIN] = r->medium_min ? r->medium_min : r->large_min,
	    [UA_T_LARGE_MIN] = r->large_min,
	    [UA_T_HUGE_MIN] = r->huge_min,
	    [UA_T_CLEAR_LARGE_MIN] = r->clear_large_min,
	    [UA_T_CLEAR_HUGE_MIN] = clears_stream ? r->memset_nt : SIZE_MAX,
	    [UA_T_NOCACHE_MIN] = r->nocache_min ? r->nocache_min : ua_page_size,
	    [UA_T_REP_ALIGN_MASK] = r->mask,
	    /* 2: glibc's zmm for the small sizes, where this CPU has them */
	    [UA_T_INLINE_WIDE] =
		r->wide == 2 ? small->memcpy_inline_wide != 0 : (size_t)r->wide,
	    [UA_T_INLINE_LOOP] = (size_t)r->loop,
	    [UA_T_ALIAS_FORWARD_MIN] = r->fwd ? 0 : SIZE_MAX,
	};
	int t;

	memset(&p, 0, sizeof(p));
	ua_arch_default_policy(&p, &r->cpu);
	for (t = 0; t < UA_T_FIRST_NUMBER; t++)
		check_strategy(r, &p, t, want[t]);
	for (t = UA_T_FIRST_NUMBER; t < UA_NTUNABLES; t++)
		check_num(r, &p, t, num[t]);
}

/*
 * AMD family 0x1a model by model: the Zen 5 rule on the dies of the core
 * measured, the EPYC 9005 and the Ryzen 9000 (default_policy.c,
 * ua_amd_zen5_full_width); glibc's floor on the APUs (Strix Point, Krackan
 * Point, Strix Halo), on Zen 6 (Linux's model ranges) and on the models
 * nobody lists.  On i386 every one keeps the floor.
 */
static void
check_amd_family_1a(void)
{
	static const unsigned zen5[] = {0x00, 0x02, 0x0f, 0x10, 0x11,
					0x1f, 0x40, 0x44, 0x4f};
	static const unsigned others[] = {0x20, 0x24, 0x2f, 0x30, 0x3f, 0x50,
					  0x5f, 0x60, 0x6f, 0x70, 0x7f, 0x80,
					  0xaf, 0xc0, 0xef, 0xff};
	struct row r = {.cpu = {"AuthenticAMD", 0x1a, 0, 0,
				AVX512 | ERMS | FSRM, 48 * K, 1 * M, 32 * M, 0,
				0, 0, ""}};
	char name[64];
	size_t i;

	r.name = name;
	for (i = 0; i < sizeof(others) / sizeof(others[0]); i++) {
		r.cpu.model = others[i];
		snprintf(name, sizeof(name), "AMD family 0x1a model 0x%x",
			 others[i]);
		check_floor(&r);
	}
	for (i = 0; i < sizeof(zen5) / sizeof(zen5[0]); i++) {
		struct ua_policy p;

		r.cpu.model = zen5[i];
		snprintf(name, sizeof(name), "AMD family 0x1a model 0x%x",
			 zen5[i]);
		if (UA_I386) {
			check_floor(&r);
			continue;
		}
		memset(&p, 0, sizeof(p));
		ua_arch_default_policy(&p, &r.cpu);
		check_num(&r, &p, UA_T_MEDIUM_MIN, 32 * K);
		check_num(&r, &p, UA_T_INLINE_WIDE, 1);
		check_strategy(&r, &p, UA_T_SMALL, vbmi);
	}
}

/*
 * Intel family 18 model by model: glibc (2.43 on) tunes models 1 and 3 (Nova
 * Lake) as Panther Lake, with the non-temporal divisor 2, and the others
 * it does not list with the default 4
 */
static void
check_intel_family_18(void)
{
	struct row r = {.cpu = {"GenuineIntel", 18, 0, 0,
				AVX2 | VNNI | ERMS | FSRM, 48 * K, 3 * M,
				36 * M, 1, 16, 1, ""}};
	char name[64];
	unsigned model;

	r.name = name;
	for (model = 0; model < 0x10; model++) {
		struct ua_glibc_floor f;
		/* (36M + 3M non-inclusive) / divisor, above 3/4 of the
		 * per-thread 36M / 16 + 3M */
		size_t want = (39 * M) / (model == 1 || model == 3 ? 2 : 4);

		r.cpu.model = model;
		snprintf(name, sizeof(name), "Intel family 18 model 0x%x",
			 model);
		ua_glibc_floor(&r.cpu, &f);
		CHECK(f.non_temporal_threshold == want,
		      "%s: non_temporal_threshold %zu, expected %zu", name,
		      f.non_temporal_threshold, want);
		check_floor(&r);
	}
}

/*
 * i386 without SSE2 (386 to Pentium III): rep movsl at every size; on a
 * Pentium III (Intel family 6) the unrolled copy when (src ^ dst) & 7 (the
 * kernel's movsl_mask); without cpuid, movsl alone
 */
static void
check_before_sse2(void)
{
	static const char *const movsl[] = {"movsl", NULL};
	static const char *const intel[] = {"intel", "movsl", NULL};
	const struct {
		struct ua_cpu cpu;
		const char *const *alt;
		size_t mask;
	} cpus[] = {
	    {{"GenuineIntel", 6, 8, 3, 0, 16 * K, 256 * K, 0, 0, 0, 0, ""},
	     intel,
	     7},
	    {{"", 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, ""}, movsl, 0},
	};
	size_t i;
	int t;

	for (i = 0; i < sizeof(cpus) / sizeof(cpus[0]); i++) {
		struct ua_policy p;
		struct row r = {.name = cpus[i].cpu.vendor[0] ? "Pentium III"
							      : "no cpuid"};

		memset(&p, 0, sizeof(p));
		ua_arch_default_policy(&p, &cpus[i].cpu);
		for (t = UA_T_SMALL; t <= UA_T_CLEAR_LARGE; t++)
			check_strategy(&r, &p, t, movsl);
		check_strategy(&r, &p, UA_T_REP_MISALIGNED, cpus[i].alt);
		check_num(&r, &p, UA_T_REP_ALIGN_MASK,
			  !strcmp(first_usable(cpus[i].alt), "intel")
			      ? cpus[i].mask
			      : 0);
	}
}

int
main(void)
{
	size_t i;

	CHECK_EQ(ua_init(), 0);
	for (i = 0; i < sizeof(table) / sizeof(table[0]); i++) {
		check_glibc(&table[i]);
		if (UA_I386 && strstr(table[i].name, "departs:"))
			check_floor(&table[i]);
		else
			check_policy(&table[i]);
	}
	check_amd_family_1a();
	check_intel_family_18();
	if (UA_I386)
		check_before_sse2();
	t_done("cpu_policy");
	return T_PASS;
}

/* SPDX-License-Identifier: MIT */
/*
 * glibc 2.44's memcpy and memset choices for a CPU (glibc_floor.h), rule by
 * rule from its sysdeps/x86/cpu-features.c, dl-cacheinfo.h and
 * x86_64/multiarch/ifunc-memmove.h.  2.43 added to 2.42's rules Wildcat
 * Lake and Nova Lake among the big cores, and two for Hygon.  2.44 added
 * Hygon model 8 to model 7's rule, a non-temporal threshold of its own for
 * Hygon's memcpy, and memset's streaming where rep stosb is off (AMD: BZ
 * #34129); its Prefer_EVEX512 on Zen 5 picks the string functions, not
 * memmove.  On this project's Zen 5 guest, ld.so --list-diagnostics of
 * Debian's 2.43-7 and 2.44-3 print the thresholds this file computes for
 * it (docs/measurements/zen5.md, "glibc 2.41 to 2.44 on this guest").
 * Where glibc 2.36 (Debian 12) differs:
 * its non_temporal_threshold is 3/4 of the per-thread share of the cache
 * on every CPU, and on AMD rep movsb runs from rep_movsb_threshold up to
 * the L2 size and rep stosb from 2 KiB.
 */
#include <stdint.h>
#include <string.h>

#include "x86/cpu_features.h"
#include "x86/glibc_floor.h"

enum ua_glibc_kind {
	UA_KIND_OTHER,
	UA_KIND_INTEL,
	UA_KIND_AMD,
	UA_KIND_HYGON,
	UA_KIND_ZHAOXIN
};

static enum ua_glibc_kind
ua_glibc_kind(const char *vendor)
{
	if (!strcmp(vendor, "GenuineIntel"))
		return UA_KIND_INTEL;
	if (!strcmp(vendor, "AuthenticAMD"))
		return UA_KIND_AMD;
	if (!strcmp(vendor, "HygonGenuine"))
		return UA_KIND_HYGON;
	if (!strcmp(vendor, "CentaurHauls") || !strcmp(vendor, "  Shanghai  "))
		return UA_KIND_ZHAOXIN;
	return UA_KIND_OTHER;
}

/*
 * cachesize_non_temporal_divisor for an Intel part (intel_get_fam6_microarch
 * and the switch after it): 8 for Nehalem to Broadwell, 2 for the big
 * cores from Skylake (SKX, Ice Lake, Sapphire, Emerald, Granite and
 * Diamond Rapids, the client parts to Nova Lake) and Alder Lake (its
 * E-cores too), 4 for the rest (Atoms, Xeon Phi, the unknown)
 */
static unsigned
ua_glibc_intel_divisor(unsigned family, unsigned model)
{
	if (family == 18)
		return model == 0x01 || model == 0x03 ? 2 : 4; /* Nova Lake */
	if (family == 19)
		return model == 0x01 ? 2 : 4; /* Diamond Rapids */
	if (family != 6)
		return 4;
	/* clang-format off */
	switch (model) {
	case 0x1a: case 0x1e: case 0x1f: case 0x2e: /* Nehalem */
	case 0x25: case 0x2c: case 0x2f:            /* Westmere */
	case 0x2a: case 0x2d:                       /* Sandy Bridge */
	case 0x3a: case 0x3e:                       /* Ivy Bridge */
	case 0x3c: case 0x3f: case 0x45: case 0x46: /* Haswell */
	case 0x3d: case 0x47: case 0x4f: case 0x56: /* Broadwell */
		return 8;
	case 0x4e: case 0x5e:                       /* Skylake */
	case 0x8e: case 0x9e:                       /* Kaby Lake */
	case 0xa5: case 0xa6:                       /* Comet Lake */
	case 0x55:                                  /* Skylake-SP */
	case 0x66:                                  /* Cannon Lake */
	case 0x6a: case 0x6c: case 0x7d: case 0x7e: case 0x9d: /* Ice Lake */
	case 0x8c: case 0x8d:                       /* Tiger Lake */
	case 0xa7:                                  /* Rocket Lake */
	case 0x8f:                                  /* Sapphire Rapids */
	case 0xb7: case 0xba: case 0xbf:            /* Raptor Lake */
	case 0xcf:                                  /* Emerald Rapids */
	case 0xaa: case 0xac:                       /* Meteor Lake */
	case 0xbd:                                  /* Lunar Lake */
	case 0xb5: case 0xc5: case 0xc6:            /* Arrow Lake */
	case 0xcc:                                  /* Panther Lake */
	case 0xd5:                                  /* Wildcat Lake */
	case 0xad: case 0xae:                       /* Granite Rapids */
	case 0x8a:                                  /* Lakefield */
	case 0x97: case 0x9a: case 0xbe:            /* Alder Lake */
		return 2;
	default:
		return 4;
	}
	/* clang-format on */
}

/* The preferred bits and the memmove's vector width */
static void
ua_glibc_preferred(const struct ua_cpu *cpu, enum ua_glibc_kind kind,
		   struct ua_glibc_floor *f)
{
	uint64_t x = cpu->features;

	/* "Unaligned load with 256-bit AVX registers are faster on
	 * Intel/AMD processors with AVX2" */
	f->avx_fast_unaligned_load = (x & UA_F(AVX2)) != 0;
	if (kind == UA_KIND_INTEL) {
		/* Xeon Phi keeps zmm; any other part without AVX-VNNI (before
		 * Alder Lake and Sapphire Rapids) prefers no AVX-512 "to avoid
		 * lower CPU frequency" */
		if (x & UA_F(AVX512ER)) {
			f->prefer_no_vzeroupper = 1;
		} else {
			f->prefer_no_avx512 = !(x & UA_F(AVX_VNNI));
			f->prefer_no_vzeroupper = (x & UA_F(RTM)) != 0;
		}
		f->avoid_short_distance_rep_movsb = (x & UA_F(FSRM)) != 0;
	} else if (kind == UA_KIND_AMD && cpu->family == 0x15 &&
		   cpu->model >= 0x60 && cpu->model <= 0x7f) {
		f->avx_fast_unaligned_load = 0; /* Excavator */
	} else if (kind == UA_KIND_HYGON) {
		/* 2.43: models 0-3 "Unaligned AVX loads are slower"; model 7
		 * (2.44: and 8) prefers evex ("can be more profitable on
		 * Hygon hardware than AVX512") */
		if (cpu->model < 0x4)
			f->avx_fast_unaligned_load = 0;
		else if (cpu->model == 0x7 || cpu->model == 0x8)
			f->prefer_no_avx512 = 1;
	} else if (kind == UA_KIND_ZHAOXIN) {
		unsigned m = cpu->model;

		/* AVX off or its unaligned loads slow; Yongfeng and
		 * Shijidadao: no vzeroupper */
		if ((cpu->family == 6 && (m == 0x0f || m == 0x19)) ||
		    (cpu->family == 7 && (m == 0x1b || m == 0x3b)))
			f->avx_fast_unaligned_load = 0;
		if (cpu->family == 7 && (m == 0x5b || m == 0x6b)) {
			f->avx_fast_unaligned_load = 0;
			f->prefer_no_vzeroupper = 1;
		}
	}
	/* ifunc-memmove.h: avx512_* (with VL or not), else evex_* (VL) or
	 * avx_* (with RTM, or without Prefer_No_VZEROUPPER), else sse2_* */
	if ((x & UA_F(AVX512F)) && !f->prefer_no_avx512)
		f->vec_size = 64;
	else if (f->avx_fast_unaligned_load &&
		 ((x & (UA_F(AVX512) | UA_F(RTM))) || !f->prefer_no_vzeroupper))
		f->vec_size = 32;
	else
		f->vec_size = 16;
	f->erms = (x & UA_F(ERMS)) != 0;
}

/*
 * dl_init_cacheinfo's "shared" (the cache a copy may fill) and
 * "shared_per_thread", from get_common_cache_info for Intel and Zhaoxin;
 * -1 where glibc finds none (another vendor)
 */
static void
ua_glibc_shared(const struct ua_cpu *cpu, enum ua_glibc_kind kind,
		long *ret_shared, long *ret_per_thread)
{
	long shared = (long)cpu->l3, per = (long)cpu->l3, l2 = (long)cpu->l2;
	unsigned threads = cpu->l3_threads;

	switch (kind) {
	case UA_KIND_INTEL:
	case UA_KIND_ZHAOXIN:
		if (shared <= 0) {
			shared = per = l2;
			threads = cpu->l2_threads;
			/* Silvermont: its L2 is shared by 2 cores */
			if (kind == UA_KIND_INTEL && threads > 2 &&
			    cpu->family == 6 &&
			    (cpu->model == 0x37 || cpu->model == 0x4a ||
			     cpu->model == 0x4d || cpu->model == 0x5a ||
			     cpu->model == 0x5d))
				threads = 2;
		}
		if (threads)
			per /= (long)threads;
		if (cpu->l3 && cpu->l3_noninclusive) {
			per +=
			    cpu->l2_threads ? l2 / (long)cpu->l2_threads : l2;
			shared += l2;
		}
		break;
	case UA_KIND_AMD:
		/* 2.44: an L3 read from leaf 0x80000006 (cpu_detect.h's
		 * l3_threads) is one logical processor's share of it */
		if (threads)
			shared /= (long)threads;
		if (shared <= 0)
			shared = l2;
		else if (cpu->family < 0x17)
			shared += l2; /* exclusive L2 and L3 */
		per = shared;
		break;
	case UA_KIND_HYGON:
		break;
	default:
		shared = per = -1;
		break;
	}
	*ret_shared = shared;
	*ret_per_thread = per;
}

void
ua_glibc_floor(const struct ua_cpu *cpu, struct ua_glibc_floor *ret)
{
	enum ua_glibc_kind kind = ua_glibc_kind(cpu->vendor);
	unsigned divisor = 4;
	const size_t nt_max = SIZE_MAX >> 4, nt_min = 0x4040;
	size_t nt, low, movsb, stosb, memset_nt;
	long shared, per;

	memset(ret, 0, sizeof(*ret));
	ua_glibc_preferred(cpu, kind, ret);
	if (kind == UA_KIND_INTEL)
		divisor = ua_glibc_intel_divisor(cpu->family, cpu->model);
	else if (kind == UA_KIND_ZHAOXIN && cpu->family == 7 &&
		 cpu->model == 0x5b)
		divisor = 2;
	ua_glibc_shared(cpu, kind, &shared, &per);
	/* A share of the whole cache, at least 3/4 of a thread's share;
	 * without ERMS that (but on Zhaoxin); 64 MiB where that is below the
	 * minimum (no cache found).  Unknown sizes are -1 there: unsigned,
	 * the largest. */
	nt = (size_t)(unsigned long)shared / divisor;
	low = (size_t)(per * 3 / 4);
	if (nt < low)
		nt = low;
	if (!ret->erms && kind != UA_KIND_ZHAOXIN)
		nt = low;
	if (nt < nt_min)
		nt = (size_t)64 << 20;
	else if (nt > nt_max)
		nt = nt_max;
	/* memset streams from there too on Intel, AMD and Hygon, never on
	 * the others or on Skylake-SP and Cannon Lake
	 * (Avoid_Non_Temporal_Memset) */
	memset_nt = kind == UA_KIND_OTHER || kind == UA_KIND_ZHAOXIN ||
			    (kind == UA_KIND_INTEL && cpu->family == 6 &&
			     (cpu->model == 0x55 || cpu->model == 0x66))
			? SIZE_MAX
			: nt;
	/* 2.44: Hygon's memcpy streams from 3/8 of its L3, unbounded (not
	 * taken where the L3 is unknown: 0 would stream every copy) */
	if (kind == UA_KIND_HYGON && per > 0)
		nt = (size_t)per * 3 / 8;
	/* rep movsb from 4 KiB per 16 bytes of vector (2 KiB with 16-byte
	 * ones), 2112 with FSRM; on AMD from the non-temporal threshold,
	 * that is never (BZ #30994) */
	movsb = ret->vec_size == 64            ? 16384
		: ret->avx_fast_unaligned_load ? 8192
					       : 2048;
	if (cpu->features & UA_F(FSRM))
		movsb = 2112;
	if (kind == UA_KIND_AMD)
		movsb = nt;
	/* rep stosb from 2 KiB, never on AMD ("the vectorized loop is
	 * slightly better"); without ERMS (Avoid_STOSB), or where that start
	 * lies beyond memset's streaming (2.44: AMD), memset's non-temporal
	 * threshold, where the vectors stop and the streaming starts */
	stosb = kind == UA_KIND_AMD ? SIZE_MAX : 2048;
	if (!ret->erms || stosb > memset_nt)
		stosb = memset_nt;
	ret->non_temporal_threshold = nt;
	ret->rep_movsb_threshold = movsb;
	ret->rep_movsb_stop_threshold = nt;
	ret->rep_stosb_threshold = stosb;
	ret->memset_non_temporal_threshold = memset_nt;
}

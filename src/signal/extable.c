/* SPDX-License-Identifier: MIT */
/*
 * The handler -> the table: which exception-table entry, in which loaded
 * object, covers an interrupted instruction.
 *
 * The library's own routines have their entries in its section ua_extable.
 * The inline accesses of ua_unsafe_get_user() and its siblings have theirs
 * in the section ua_extable_blocks of the object that holds them (the
 * program, a shared library, a plugin): every file that includes uaccess.h
 * has a constructor that registers its object's section here when the
 * object is loaded, and a destructor that takes it back when it is unloaded
 * (dlclose, exit).  Several files of one object register the same section:
 * it is counted, and goes when the last one takes it back.
 *
 * The fault handler reads the registry without a lock and without a
 * syscall (dl_iterate_phdr takes the loader's lock: a fault while another
 * thread holds it would wait forever).  Each slot has a sequence number,
 * odd while a writer changes it; a reader that sees it odd, or changed
 * after it read the slot, skips the slot.  Slots are never freed (the
 * first block is static, more are mapped and kept), so a reader never
 * reads freed memory; a table itself is scanned only when the instruction
 * lies between its first and last entry's, that is in code of its object
 * that is running, which therefore is not being unloaded.  Writers
 * (constructors and destructors, never signal handlers) take a mutex.
 */
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "extable.h"
#include "internal.h"

extern const struct ua_extable_entry __start_ua_extable[]
    __attribute__((weak, visibility("hidden")));
extern const struct ua_extable_entry __stop_ua_extable[]
    __attribute__((weak, visibility("hidden")));

struct ua_extable_slot {
	atomic_uint seq;      /* odd while a writer changes the slot */
	atomic_uintptr_t lo;  /* the first entry, 0: a free slot */
	atomic_uintptr_t hi;  /* one past the last entry */
	atomic_uintptr_t min; /* lowest and highest instruction covered */
	atomic_uintptr_t max;
	unsigned refs; /* writers only */
};

#define UA_SLOTS_PER_BLOCK 64

struct ua_extable_block {
	struct ua_extable_slot slot[UA_SLOTS_PER_BLOCK];
	_Atomic(struct ua_extable_block *) next;
};

static struct ua_extable_block ua_extable_first;
static pthread_mutex_t ua_extable_lock = PTHREAD_MUTEX_INITIALIZER;

static const struct ua_extable_entry *
ua_extable_scan(const struct ua_extable_entry *e,
		const struct ua_extable_entry *end, uintptr_t pc)
{
	for (; e < end; e++)
		if (ua_extable_insn(e) == pc)
			return e;
	return NULL;
}

/* A consistent copy of a slot in use, or 0 */
static int
ua_slot_read(struct ua_extable_slot *s, uintptr_t *ret_lo, uintptr_t *ret_hi,
	     uintptr_t *ret_min, uintptr_t *ret_max)
{
	unsigned seq = atomic_load_explicit(&s->seq, memory_order_acquire);

	if (seq & 1)
		return 0;
	*ret_lo = atomic_load_explicit(&s->lo, memory_order_relaxed);
	*ret_hi = atomic_load_explicit(&s->hi, memory_order_relaxed);
	*ret_min = atomic_load_explicit(&s->min, memory_order_relaxed);
	*ret_max = atomic_load_explicit(&s->max, memory_order_relaxed);
	atomic_thread_fence(memory_order_acquire);
	return *ret_lo &&
	       atomic_load_explicit(&s->seq, memory_order_relaxed) == seq;
}

const struct ua_extable_entry *
ua_extable_find(uintptr_t pc)
{
	const struct ua_extable_entry *e;
	struct ua_extable_block *b;
	int i;

	e = ua_extable_scan(__start_ua_extable, __stop_ua_extable, pc);
	if (e)
		return e;
	for (b = &ua_extable_first; b;
	     b = atomic_load_explicit(&b->next, memory_order_acquire)) {
		for (i = 0; i < UA_SLOTS_PER_BLOCK; i++) {
			uintptr_t lo, hi, min, max;

			if (!ua_slot_read(&b->slot[i], &lo, &hi, &min, &max) ||
			    pc < min || pc > max)
				continue;
			e = ua_extable_scan((const struct ua_extable_entry *)lo,
					    (const struct ua_extable_entry *)hi,
					    pc);
			if (e && e->type == UA_EX_FIXUP)
				return e;
		}
	}
	return NULL;
}

/* Writers: under ua_extable_lock */
static void
ua_slot_write(struct ua_extable_slot *s, uintptr_t lo, uintptr_t hi,
	      uintptr_t min, uintptr_t max)
{
	unsigned seq = atomic_load_explicit(&s->seq, memory_order_relaxed);

	atomic_store_explicit(&s->seq, seq + 1, memory_order_relaxed);
	atomic_thread_fence(memory_order_release);
	atomic_store_explicit(&s->lo, lo, memory_order_relaxed);
	atomic_store_explicit(&s->hi, hi, memory_order_relaxed);
	atomic_store_explicit(&s->min, min, memory_order_relaxed);
	atomic_store_explicit(&s->max, max, memory_order_relaxed);
	atomic_store_explicit(&s->seq, seq + 2, memory_order_release);
}

/* The slot holding the table at lo, or with lo 0 a free one (may map one) */
static struct ua_extable_slot *
ua_slot_find(uintptr_t lo)
{
	struct ua_extable_block *b, *last = NULL;
	int i;

	for (b = &ua_extable_first; b; last = b, b = atomic_load(&b->next))
		for (i = 0; i < UA_SLOTS_PER_BLOCK; i++)
			if (atomic_load(&b->slot[i].lo) == lo)
				return &b->slot[i];
	if (lo)
		return NULL;
	b = mmap(NULL, sizeof(*b), PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (b == MAP_FAILED)
		return NULL;
	atomic_store_explicit(&last->next, b, memory_order_release);
	return &b->slot[0];
}

static void
ua_extable_complain(const char *what)
{
	static const char head[] = "uaccess: ";
	int saved_errno = errno;
	ssize_t r;

	r = write(STDERR_FILENO, head, sizeof(head) - 1);
	r = write(STDERR_FILENO, what, strlen(what));
	(void)r;
	errno = saved_errno;
}

UA_EXPORT void
ua__extable_register(const void *start, const void *stop)
{
	const struct ua_extable_entry *e = start, *end = stop;
	uintptr_t lo = (uintptr_t)start, hi = (uintptr_t)stop;
	uintptr_t min = UINTPTR_MAX, max = 0;
	struct ua_extable_slot *s;

	if (!lo || hi <= lo || (hi - lo) % sizeof(*e) ||
	    lo % _Alignof(struct ua_extable_entry)) {
		ua_extable_complain("ua__extable_register: not an exception "
				    "table; its faults will not be handled\n");
		return;
	}
	for (; e < end; e++) {
		uintptr_t pc = ua_extable_insn(e);

		min = pc < min ? pc : min;
		max = pc > max ? pc : max;
	}
	pthread_mutex_lock(&ua_extable_lock);
	s = ua_slot_find(lo);
	if (s) {
		s->refs++;
	} else if ((s = ua_slot_find(0))) {
		s->refs = 1;
		ua_slot_write(s, lo, hi, min, max);
	} else {
		ua_extable_complain("ua__extable_register: out of memory; "
				    "an object's faults will not be "
				    "handled\n");
	}
	pthread_mutex_unlock(&ua_extable_lock);
}

UA_EXPORT void
ua__extable_unregister(const void *start)
{
	struct ua_extable_slot *s;

	if (!start)
		return;
	pthread_mutex_lock(&ua_extable_lock);
	s = ua_slot_find((uintptr_t)start);
	if (s && !--s->refs)
		ua_slot_write(s, 0, 0, 0, 0);
	pthread_mutex_unlock(&ua_extable_lock);
}

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sim/host/coro.c - coroutine stacks, the asm backend's set-up, and the
 * backend chosen at build time.
 *
 * Stage: machine (lowest level).  Called by sim/machine/machine.c (a coroutine
 * per task), by sim/report/failure.c (saved contexts for its report) and
 * sim/report/failure_signal.c (guard regions), by bench/bench.c and
 * tests/test_coro.c.  Calls mmap(2) and mprotect(2), the x86-64 switch in
 * sim/host/coro_x86_64.S and the ucontext backend in
 * sim/host/coro_ucontext.c; in ASan builds, ASan's fiber API.
 *
 * Backend selection: the Makefile passes -DSIM_CORO_asm or
 * -DSIM_CORO_ucontext.  With asm, sim_coro_switch is an assembler alias
 * of sim_coro_switch_asm (sim/host/coro_x86_64.S), so a switch costs one
 * direct call; with ucontext it is the wrapper at the end of this file.
 *
 * ASan builds (SIM_CORO_ASAN, make asan): ASan keeps the bounds of the
 * stack that runs, to tell a stack address from a heap one and to clean
 * up at noreturn calls; a switch it is not told about makes it report
 * false stack overflows.  So sim_coro_switch_asm() (and with it
 * sim_coro_switch()) becomes a C wrapper: __sanitizer_start_switch_fiber()
 * with the stack of @to, the switch, __sanitizer_finish_switch_fiber()
 * once back; a fresh coroutine finishes the switch first thing
 * (sim__coro_asan_start(), sim__coro_uc_start()).  A main context has no
 * stack of its own here: ASan names it on its first switch away, and
 * sim__coro_asan_arrive() keeps it for the switches back.  A destroyed
 * coroutine's stack is unpoisoned: frames that never returned leave
 * their redzones' poison behind, and the stack is reused.  Each stack is
 * a root region of the leak checker (it scans thread stacks, not these):
 * pointers on a blocked task's stack are not leaks.  Nothing here
 * changes an address or an order: reports are the same as without ASan.
 *
 * Stack layout, from low to high addresses:
 *
 *	guard  SIM_CORO_GUARD_SIZE bytes PROT_NONE (address space, no
 *	       memory): an overflow faults here (SIGSEGV) even when one
 *	       frame is far larger than a page, and
 *	       sim/report/failure_signal.c asks sim_coro_guard_hit() whose
 *	       region it was
 *	stack  stack_size bytes, MAP_NORESERVE: only touched pages cost
 *	       memory, so thousands of tasks can have 256 KiB each, and a
 *	       few up to SIM_CORO_STACK_MAX
 *
 * Stacks are mapped at fixed addresses (SIM_CORO_STACK_BASE upwards, in
 * the order they are mapped), not where ASLR would put them: a user
 * program's futex word may be a local variable (the kernel's futex
 * selftests have several), and the kernel hashes its address, so the
 * address must be the same in every run of the same program.
 */
#define _GNU_SOURCE		/* REG_* indices of mcontext_t */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "sim/host/coro.h"

#ifdef SIM_CORO_ASAN
#include <sanitizer/asan_interface.h>
#include <sanitizer/common_interface_defs.h>
#include <sanitizer/lsan_interface.h>
#endif

/* The Makefile defines one; static checkers may define none. */
#if defined(SIM_CORO_asm) && defined(SIM_CORO_ucontext)
#error "build with one of -DSIM_CORO_asm and -DSIM_CORO_ucontext, not both"
#elif !defined(SIM_CORO_asm) && !defined(SIM_CORO_ucontext)
#ifdef __x86_64__
#define SIM_CORO_asm		/* as sim/host/coro_x86_64.S assumes then */
#else
#define SIM_CORO_ucontext
#endif
#endif
#if defined(SIM_CORO_asm) && !defined(__x86_64__)
#error "CORO=asm exists for x86-64 only: build with CORO=ucontext"
#endif

static size_t coro_page_size;

static uintptr_t coro_next_stack = SIM_CORO_STACK_BASE;

int sim_coro_on_a_stack(uintptr_t addr)
{
	return addr >= SIM_CORO_STACK_BASE && addr < coro_next_stack;
}

static size_t coro_page(void)
{
	if (!coro_page_size)
		coro_page_size = (size_t)sysconf(_SC_PAGESIZE);
	return coro_page_size;
}

/*
 * @len bytes at the next free fixed address (a range taken by someone
 * else is skipped); anywhere if the kernel ignores the fixed hint.
 */
static char *coro_map_fixed(size_t len)
{
	const int flags = MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE |
			  MAP_STACK;
	char *base;

	for (int tries = 0; tries < 64; tries++) {
		char *want = (char *)coro_next_stack;

		coro_next_stack += len;
		base = mmap(want, len, PROT_READ | PROT_WRITE,
			    flags | MAP_FIXED_NOREPLACE, -1, 0);
		if (base == want)
			return base;
		if (base != MAP_FAILED) {	/* hint ignored: old kernel */
			munmap(base, len);
			break;
		}
		if (errno != EEXIST)
			break;
	}
	return mmap(NULL, len, PROT_READ | PROT_WRITE, flags, -1, 0);
}

/*
 * Stacks of destroyed coroutines, kept mapped (guard region included) for
 * the next ones of the same size, lowest address first: explore mode
 * builds a machine per run, and its tasks then get, in creation order,
 * the same stacks (the same addresses) as the tasks of a fresh process,
 * with no mmap() and no page faults.
 */
#define CORO_STACK_CACHE	64

static struct {
	void *guard;
	size_t size;
} stack_cache[CORO_STACK_CACHE];	/* by address */
static int cache_nr;

static int cache_take(struct sim_coro *co, size_t size)
{
	for (int i = 0; i < cache_nr; i++) {
		if (stack_cache[i].size != size)
			continue;
		co->guard = stack_cache[i].guard;
		co->stack = (char *)co->guard + SIM_CORO_GUARD_SIZE;
		co->stack_size = size;
		memmove(&stack_cache[i], &stack_cache[i + 1],
			(size_t)(cache_nr - i - 1) * sizeof(stack_cache[0]));
		cache_nr--;
		return 1;
	}
	return 0;
}

int sim__coro_map_stack(struct sim_coro *co, size_t stack_size)
{
	size_t page = coro_page();
	size_t size = (stack_size + page - 1) & ~(page - 1);
	char *base;
	int err;

	if (!size)
		size = page;
	if (cache_take(co, size))
		return 0;
	base = coro_map_fixed(size + SIM_CORO_GUARD_SIZE);
	if (base == MAP_FAILED)
		return -1;
	if (mprotect(base, SIM_CORO_GUARD_SIZE, PROT_NONE)) {
		err = errno;
		munmap(base, size + SIM_CORO_GUARD_SIZE);
		errno = err;
		return -1;
	}
	co->guard = base;
	co->stack = base + SIM_CORO_GUARD_SIZE;
	co->stack_size = size;
#ifdef SIM_CORO_ASAN
	__lsan_register_root_region(co->stack, size);
#endif
	return 0;
}

void sim_coro_init_main(struct sim_coro *co)
{
	memset(co, 0, sizeof(*co));
}

/* Also fine on a main context: it may own a ucontext_t (see
 * sim_coro_switch_ucontext()) but no stack. */
void sim_coro_destroy(struct sim_coro *co)
{
#ifdef SIM_CORO_ASAN
	if (co->guard)
		__asan_unpoison_memory_region(co->stack, co->stack_size);
#endif
	if (co->guard && cache_nr < CORO_STACK_CACHE) {
		int i = cache_nr++;

		/* insertion by address: compare the mappings as numbers */
		for (; i > 0 && (uintptr_t)stack_cache[i - 1].guard >
				(uintptr_t)co->guard; i--)
			stack_cache[i] = stack_cache[i - 1];
		stack_cache[i].guard = co->guard;
		stack_cache[i].size = co->stack_size;
	} else if (co->guard) {
#ifdef SIM_CORO_ASAN
		__lsan_unregister_root_region(co->stack, co->stack_size);
#endif
		munmap(co->guard, co->stack_size + SIM_CORO_GUARD_SIZE);
	}
	free(co->uc);
	memset(co, 0, sizeof(*co));
}

/* Called from the SIGSEGV handler: no allocation, no locks. */
int sim_coro_guard_hit(const struct sim_coro *co, const void *addr)
{
	uintptr_t a = (uintptr_t)addr, g = (uintptr_t)co->guard;

	return co->guard && a >= g && a - g < SIM_CORO_GUARD_SIZE;
}

const char *sim_coro_backend(void)
{
#ifdef SIM_CORO_asm
	return "asm";
#else
	return "ucontext";
#endif
}

int sim_coro_init(struct sim_coro *co, size_t stack_size,
		  void (*entry)(void *), void *arg)
{
#ifdef SIM_CORO_asm
	return sim_coro_init_asm(co, stack_size, entry, arg);
#else
	return sim_coro_init_ucontext(co, stack_size, entry, arg);
#endif
}

#if defined(SIM_CORO_ucontext) || defined(SIM_CORO_ASAN)
void sim_coro_switch(struct sim_coro *from, struct sim_coro *to)
{
#ifdef SIM_CORO_asm
	sim_coro_switch_asm(from, to);
#else
	sim_coro_switch_ucontext(from, to);
#endif
}
#endif

#ifdef SIM_CORO_ASAN
static struct sim_coro *asan_leaving;	/* the coroutine switched away from */

void sim__coro_asan_leave(struct sim_coro *from, struct sim_coro *to,
			  void **fake)
{
	asan_leaving = from;
	if (to->stack)
		__sanitizer_start_switch_fiber(fake, to->stack, to->stack_size);
	else
		__sanitizer_start_switch_fiber(fake, to->asan_bottom,
					       to->asan_size);
}

/*
 * The thread's own stack is a root region of the leak checker too: it
 * scans the stack ASan knows as the running one, which after a switch is
 * a coroutine's, and a failure report exits from there.
 */
static void coro_asan_main_root(const void *bottom, size_t size)
{
	static const void *root;
	static size_t root_size;

	if (bottom == root && size == root_size)
		return;
	if (root)
		__lsan_unregister_root_region(root, root_size);
	__lsan_register_root_region(bottom, size);
	root = bottom;
	root_size = size;
}

void sim__coro_asan_arrive(void *fake)
{
	const void *bottom;
	size_t size;

	__sanitizer_finish_switch_fiber(fake, &bottom, &size);
	if (asan_leaving && !asan_leaving->stack) {
		asan_leaving->asan_bottom = bottom;
		asan_leaving->asan_size = size;
		coro_asan_main_root(bottom, size);
	}
	asan_leaving = NULL;
}
#endif

#ifdef __x86_64__
/* The frame sim/host/coro_x86_64.S pushes, from the saved stack pointer up. */
enum coro_frame {
	CORO_R15, CORO_R14, CORO_R13, CORO_R12, CORO_RBX, CORO_RBP,
	CORO_RET,		/* where the switch returns to		*/
	CORO_FRAME_WORDS
};

void sim__coro_start(void);			/* sim/host/coro_x86_64.S	 */
void sim__coro_uc_start(int hi, int lo);	/* sim/host/coro_ucontext.c	 */

#ifdef SIM_CORO_ASAN
/* A fresh coroutine's first code in an ASan build (sim__coro_start()
 * calls it instead of the entry): finish the switch that started it. */
void sim__coro_asan_start(void *arg);
void sim__coro_asan_start(void *arg)
{
	struct sim_coro *co = arg;

	sim__coro_asan_arrive(NULL);
	co->entry(co->arg);
}

void sim_coro_switch_asm(struct sim_coro *from, struct sim_coro *to)
{
	void *fake = NULL;

	sim__coro_asan_leave(from, to, &fake);
	sim__coro_switch_asm(from, to);
	sim__coro_asan_arrive(fake);
}
#endif

/*
 * The first switch to @co pops the frame built here and "returns" into
 * sim__coro_start with r12 = entry, r13 = arg and rsp = top - 16, which
 * is 16-byte aligned as the call there needs.  rbp = 0 ends frame-pointer
 * chains.
 */
int sim_coro_init_asm(struct sim_coro *co, size_t stack_size,
		      void (*entry)(void *), void *arg)
{
	uint64_t *f;

	memset(co, 0, sizeof(*co));
	if (sim__coro_map_stack(co, stack_size))
		return -1;
	co->entry = entry;
	co->arg = arg;
	f = (uint64_t *)((char *)co->stack + co->stack_size) - 2;
	f[0] = f[1] = 0;
	f -= CORO_FRAME_WORDS;
	memset(f, 0, CORO_FRAME_WORDS * sizeof(*f));
#ifdef SIM_CORO_ASAN
	f[CORO_R12] = (uintptr_t)sim__coro_asan_start;
	f[CORO_R13] = (uintptr_t)co;
#else
	f[CORO_R12] = (uintptr_t)entry;
	f[CORO_R13] = (uintptr_t)arg;
#endif
	f[CORO_RET] = (uintptr_t)sim__coro_start;
	co->sp = f;
	return 0;
}

/* The registers as they are just after the suspending switch returned. */
static int coro_asm_context(const struct sim_coro *co, ucontext_t *uc)
{
	const uint64_t *f = co->sp;
	greg_t *g = uc->uc_mcontext.gregs;

	if (f[CORO_RET] == (uintptr_t)sim__coro_start)
		return 1;
	memset(uc, 0, sizeof(*uc));
	g[REG_R15] = (greg_t)f[CORO_R15];
	g[REG_R14] = (greg_t)f[CORO_R14];
	g[REG_R13] = (greg_t)f[CORO_R13];
	g[REG_R12] = (greg_t)f[CORO_R12];
	g[REG_RBX] = (greg_t)f[CORO_RBX];
	g[REG_RBP] = (greg_t)f[CORO_RBP];
	g[REG_RIP] = (greg_t)f[CORO_RET];
	g[REG_RSP] = (greg_t)(uintptr_t)(f + CORO_FRAME_WORDS);
	return 0;
}

static bool coro_uc_fresh(const ucontext_t *uc)
{
	return uc->uc_mcontext.gregs[REG_RIP] == (greg_t)(uintptr_t)sim__coro_uc_start;
}
#else
/* No asm backend on this host: report it unavailable, never switch. */
int sim_coro_init_asm(struct sim_coro *co, size_t stack_size,
		      void (*entry)(void *), void *arg)
{
	memset(co, 0, sizeof(*co));
	errno = ENOSYS;
	return -1;
}

void sim_coro_switch_asm(struct sim_coro *from, struct sim_coro *to)
{
	abort();
}

static int coro_asm_context(const struct sim_coro *co, ucontext_t *uc)
{
	return -1;
}

static bool coro_uc_fresh(const ucontext_t *uc)
{
	return false;		/* not told apart: failure.c does not unwind */
}
#endif

int sim_coro_context(const struct sim_coro *co, ucontext_t *uc)
{
	if (co->uc) {
		if (co->stack && coro_uc_fresh(co->uc))
			return 1;
		*uc = *co->uc;
		return 0;
	}
	if (!co->sp || !co->stack)
		return -1;
	return coro_asm_context(co, uc);
}

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sim/host/coro_ucontext.c - the portable coroutine backend: getcontext(3),
 * makecontext(3), swapcontext(3).
 *
 * Stage: machine (lowest level).  Called through sim_coro_init() and
 * sim_coro_switch() (sim/host/coro.c) when built with CORO=ucontext, and
 * directly by bench/bench.c and tests/test_coro.c on every build.  Calls
 * libc only; stacks come from sim__coro_map_stack() (sim/host/coro.c), and in
 * ASan builds each switch tells ASan (sim__coro_asan_leave(), arrive()).
 *
 * Correct on any host glibc supports, but slow: swapcontext() saves and
 * restores the signal mask, one sigprocmask(2) system call per switch, so
 * a switch costs some hundreds of nanoseconds against a few for the asm
 * backend.
 *
 * makecontext() passes only int arguments to the new context, so the
 * sim_coro pointer travels as two 32-bit halves and is put back together
 * in sim__coro_uc_start().  (Passing a pointer as one argument works on
 * x86-64 glibc but is not what the interface promises.)
 *
 * ASan builds call libc's swapcontext() itself, not ASan's interceptor:
 * the switches are annotated here (sim/host/coro.c), and the interceptor
 * would add a warning on stderr, where the failure reports are compared,
 * and clear the shadow of the whole stack switched to at every switch
 * (sim_coro_destroy() unpoisons a stack before it is reused instead).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <ucontext.h>

#include "sim/host/coro.h"

#ifdef SIM_CORO_ASAN
#include <dlfcn.h>

/* libc's swapcontext(), looked up in libc itself: past the interceptor. */
static int coro_swapcontext(ucontext_t *from, const ucontext_t *to)
{
	static int (*libc_swapcontext)(ucontext_t *, const ucontext_t *);

	if (!libc_swapcontext) {
		void *libc = dlopen("libc.so.6", RTLD_NOW | RTLD_NOLOAD);

		if (libc)
			libc_swapcontext = (int (*)(ucontext_t *,
						    const ucontext_t *))
				dlsym(libc, "swapcontext");
		if (!libc_swapcontext)
			abort();
	}
	return libc_swapcontext(from, to);
}
#else
#define coro_swapcontext	swapcontext
#endif

/*
 * sim__coro_uc_start - first code of a fresh coroutine.  Non-static and
 * named sim__coro_* on purpose: the failure report stops a stack there.
 */
void sim__coro_uc_start(int hi, int lo);
void sim__coro_uc_start(int hi, int lo)
{
	uint64_t p = (uint64_t)(uint32_t)hi << 32 | (uint32_t)lo;
	struct sim_coro *co = (struct sim_coro *)(uintptr_t)p;

#ifdef SIM_CORO_ASAN
	sim__coro_asan_arrive(NULL);
#endif
	co->entry(co->arg);
	abort();		/* entry must switch away for good */
}

int sim_coro_init_ucontext(struct sim_coro *co, size_t stack_size,
			   void (*entry)(void *), void *arg)
{
	uint64_t p = (uint64_t)(uintptr_t)co;

	memset(co, 0, sizeof(*co));
	if (sim__coro_map_stack(co, stack_size))
		return -1;
	co->entry = entry;
	co->arg = arg;
	co->uc = malloc(sizeof(*co->uc));
	if (!co->uc || getcontext(co->uc)) {
		sim_coro_destroy(co);
		return -1;
	}
	co->uc->uc_stack.ss_sp = co->stack;
	co->uc->uc_stack.ss_size = co->stack_size;
	co->uc->uc_link = NULL;
	makecontext(co->uc, (void (*)(void))sim__coro_uc_start, 2,
		    (int)(uint32_t)(p >> 32), (int)(uint32_t)p);
	return 0;
}

/*
 * A main context (sim_coro_init_main()) gets its ucontext_t on its first
 * switch away; sim_coro_destroy() frees it.
 */
void sim_coro_switch_ucontext(struct sim_coro *from, struct sim_coro *to)
{
#ifdef SIM_CORO_ASAN
	void *fake = NULL;
#endif

	if (!from->uc) {
		from->uc = malloc(sizeof(*from->uc));
		if (!from->uc)
			abort();
	}
#ifdef SIM_CORO_ASAN
	sim__coro_asan_leave(from, to, &fake);
#endif
	if (coro_swapcontext(from->uc, to->uc))
		abort();
#ifdef SIM_CORO_ASAN
	sim__coro_asan_arrive(fake);
#endif
}

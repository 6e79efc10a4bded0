/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sim/host/coro.h - coroutines: the execution context of a simulated task.
 *
 * Stage: machine (lowest level).  Called by sim/machine/machine.c only; the
 * benchmark and the tests call it directly too.
 *
 * Two backends with the same contract, chosen at build time
 * (CORO=asm|ucontext, see the Makefile): a hand-written x86-64 switch
 * (sim/host/coro_x86_64.S, callee-saved registers and the stack pointer only)
 * and a portable ucontext fallback (sim/host/coro_ucontext.c, one sigprocmask
 * syscall per switch).  Both are always compiled so that the benchmark can
 * compare them in one run; sim_coro_switch() is the selected one.  A
 * coroutine is switched only by the backend that set it up (a main
 * context, by either).
 *
 * Stacks are mmap()ed with a PROT_NONE guard region of SIM_CORO_GUARD_SIZE
 * below them; a stack overflow faults in it, whatever the size of the
 * frame that overflowed (any frame or alloca() smaller than the region),
 * and sim_coro_guard_hit() names the task (the SIGSEGV handler of
 * sim/report/failure_signal.c asks it).
 *
 * Built with AddressSanitizer (make asan), every switch tells ASan the
 * stack it goes to (__sanitizer_start_switch_fiber() and
 * __sanitizer_finish_switch_fiber(), sim/host/coro.c) and a stack is
 * unpoisoned when its coroutine is destroyed, so ASan checks the
 * coroutine stacks as it checks a thread's.  The part of this header
 * above the C declarations is read by sim/host/coro_x86_64.S too.
 */
#ifndef SIM_CORO_H
#define SIM_CORO_H

/* SIM_CORO_ASAN - built with AddressSanitizer (gcc says so with
 * __SANITIZE_ADDRESS__, clang 14 only with __has_feature). */
#if defined(__SANITIZE_ADDRESS__)
#define SIM_CORO_ASAN	1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define SIM_CORO_ASAN	1
#endif
#endif

#define SIM_CORO_STACK_SIZE	(256 * 1024)	/* a task's default stack  */
#define SIM_CORO_STACK_MAX	(8UL << 20)	/* the largest: glibc's default */
/* The PROT_NONE region below every stack: reserved address space only. */
#define SIM_CORO_GUARD_SIZE	(16UL << 20)
/* Stacks are mapped from this fixed address upwards (sim/host/coro.c); one
 * below it was mapped wherever the kernel put it (no fixed address).
 * ASan's shadow memory on x86-64 ends at 0x10007fff7fff and its heap is
 * at 0x600000000000: every build maps the stacks here. */
#define SIM_CORO_STACK_BASE	0x300000000000UL

#ifndef __ASSEMBLER__
#include <stddef.h>
#include <stdint.h>
#include <ucontext.h>

struct sim_coro {
	void *sp;		/* asm backend: saved stack pointer	*/
	ucontext_t *uc;		/* ucontext backend: saved context	*/
	void *stack;		/* lowest usable byte (above the guard)	*/
	size_t stack_size;
	void *guard;		/* the guard region's lowest byte	*/
	void (*entry)(void *arg);
	void *arg;
	/* ASan builds: a main context's stack, as ASan told on its first
	 * switch away (a coroutine's own is @stack); unused otherwise */
	const void *asan_bottom;
	size_t asan_size;
};

/*
 * sim_coro_init - prepare @co to run @entry(@arg) on a fresh stack of
 * @stack_size bytes the first time it is switched to.  @entry must never
 * return (a task's last act is to switch away for good).
 * Return: 0, or -1 if the stack could not be mapped.
 */
int sim_coro_init(struct sim_coro *co, size_t stack_size,
		  void (*entry)(void *), void *arg);
/* sim_coro_init_main - make @co stand for the calling (main) context. */
void sim_coro_init_main(struct sim_coro *co);
/* sim_coro_switch - save the caller into @from, resume @to. Returns when
 * something switches back to @from. */
void sim_coro_switch(struct sim_coro *from, struct sim_coro *to);
/* sim_coro_destroy - release the stack of a coroutine that will not run
 * (kept mapped, up to 64 of them, for the next sim_coro_init() of the
 * same stack size; unmapped beyond that). */
void sim_coro_destroy(struct sim_coro *co);
/* sim_coro_guard_hit - is @addr inside @co's guard region? */
int sim_coro_guard_hit(const struct sim_coro *co, const void *addr);
/* sim_coro_on_a_stack - is @addr in a coroutine stack mapped at its fixed
 * address (SIM_CORO_STACK_BASE upwards), a guard region included? */
int sim_coro_on_a_stack(uintptr_t addr);

/* The two backends, for the benchmark and the fallback test. */
int sim_coro_init_asm(struct sim_coro *co, size_t stack_size,
		      void (*entry)(void *), void *arg);
void sim_coro_switch_asm(struct sim_coro *from, struct sim_coro *to);
int sim_coro_init_ucontext(struct sim_coro *co, size_t stack_size,
			   void (*entry)(void *), void *arg);
void sim_coro_switch_ucontext(struct sim_coro *from, struct sim_coro *to);
/* sim_coro_backend - "asm" or "ucontext": what sim_coro_switch() is. */
const char *sim_coro_backend(void);

/*
 * sim_coro_context - the registers suspended @co resumes with, as a
 * ucontext_t, for the failure report's unwinder (sim/report/failure.c).  For the
 * asm backend only the program counter, stack pointer and callee-saved
 * registers are filled in (the state just after the switch that suspended
 * it returns); for the ucontext backend it is a copy of the saved context.
 * Return: 0; 1 if @co is set up but has never run (no frames yet, @uc
 * untouched); -1 if it has no saved context (never set up, or the calling
 * main context).
 */
int sim_coro_context(const struct sim_coro *co, ucontext_t *uc);

/* Internal to sim/host/coro*.c: map @stack_size bytes (rounded up to pages)
 * plus the guard region below into @co.  Return: 0, or -1 (errno set). */
int sim__coro_map_stack(struct sim_coro *co, size_t stack_size);

/* Internal to sim/host/coro*.c, ASan builds: sim__coro_asan_leave() just
 * before a switch from @from to @to (@fake: ASan's fake stack of @from,
 * kept for its return), sim__coro_asan_arrive(@fake) first thing once a
 * coroutine runs again (NULL: a fresh coroutine's first run). */
void sim__coro_asan_leave(struct sim_coro *from, struct sim_coro *to,
			  void **fake);
void sim__coro_asan_arrive(void *fake);
/* ASan builds: the x86-64 switch itself (sim/host/coro_x86_64.S), which
 * sim_coro_switch_asm() wraps between the two calls above. */
void sim__coro_switch_asm(struct sim_coro *from, struct sim_coro *to);

#endif /* !__ASSEMBLER__ */
#endif /* SIM_CORO_H */

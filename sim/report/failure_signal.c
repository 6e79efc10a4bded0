/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sim/report/failure_signal.c - failures caught by a signal: a task's stack
 * overflow, a crash (SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGTRAP) of a task,
 * and the watchdog that stops a task stuck with no scheduling point.
 *
 * Stage: report.  sim_failure_install() is called by sim_machine_init()
 * (sim/machine/machine.c) at every machine; the handlers are entered by the
 * host kernel.  Calls the coroutine layer's guard regions (sim/host/coro.h),
 * reads the machine's tasks and counters (sim/machine/machine.h) and hands
 * the failure to sim__failure_from_signal() (sim/report/failure.c).
 *
 * A handler decides, from the signal's context alone, whether a simulated
 * task was running: its stack pointer lies on a task's stack (or guard
 * region).  If not, the fault is the simulator's own and keeps the default
 * action (a core dump, the CLI's "died of signal" line).  If so, the
 * handler copies the context, points it at sig_resume() on a stack of its
 * own and returns: the kernel then restores the signal mask and leaves
 * the alternate stack as after any handler, and sig_resume() reports the
 * failure from the copy (the task's stack from the faulting instruction)
 * out of signal context, or, when sim_fail_hook is set (explore runs),
 * ends the run through it and the process goes on with the next run.
 *
 * In ASan builds the handler tells ASan of the move to sig_stack as a
 * coroutine switch does (sim/host/coro.c), so that it checks that stack.
 *
 * The headline names the task and what happened, never a host address:
 * a faulting data address is shown only inside the simulation's fixed
 * memory (the arena, task stacks) or the NULL page.
 *
 *	futexsim: CRASH: task 101 "thread1" got SIGSEGV: write to address 0x0 (NULL pointer)
 *	futexsim: STACK OVERFLOW: task 101 "thread1" overflowed its 262144-byte stack
 *	futexsim: STUCK TASK: task 100 "main" ran 5 s of host CPU time without
 *	a scheduling point (... one line)
 *
 * The watchdog is ITIMER_PROF (the process's CPU time), ticking every
 * fifth of the stuck bound: when WD_TICKS ticks in a row find a task's
 * stack running and neither sim_hook() nor a coroutine switch counted
 * since, that task is stuck.  The report says the bound, not a measured
 * time, so only the fact that it fired depends on the host.
 */
#define _GNU_SOURCE		/* REG_* indices of mcontext_t */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/time.h>
#include <ucontext.h>
#include <unistd.h>

#include "sim/host/arena.h"
#include "sim/host/coro.h"
#include "sim/machine/machine.h"
#include "sim/report/failure.h"

#ifdef SIM_CORO_ASAN
#include <sanitizer/common_interface_defs.h>
#endif

#define SIG_ALTSTACK_SIZE	(128 * 1024)
#define SIG_RESUME_STACK_SIZE	(256 * 1024)
#define WD_TICKS		5	/* quiet ticks that make a bound */

static uint64_t stuck_ms = 5000;	/* sim_failure_set_stuck_ms()	*/

/* What sig_resume() reports: set by a handler, just before it returns. */
static struct {
	ucontext_t uc;			/* the signal's context, copied	*/
	const struct sim_task *task;
	enum sim_failure kind;
	char what[320];
} sig;

static char sig_stack[SIG_RESUME_STACK_SIZE] __attribute__((aligned(64)));

/* The watchdog: its tick, the counters at the last tick, quiet ticks. */
static struct {
	uint64_t armed_ms;		/* the bound it ticks for; 0: off */
	bool armed;			/* armed_ms holds; a fork()'s child
					 * has no timer (wd_forked())	*/
	uint64_t mark;
	int quiet;
} wd;

static void __attribute__((noreturn)) sig_resume(void)
{
#ifdef SIM_CORO_ASAN
	__sanitizer_finish_switch_fiber(NULL, NULL, NULL);
#endif
	sim__failure_from_signal(sig.kind, sig.what, &sig.uc, sig.task);
}

/* The interrupted stack pointer; 0 where it is not read (not x86-64):
 * there only a fault in a guard region is told from the simulator's. */
static uintptr_t sig_sp(const ucontext_t *uc)
{
#ifdef __x86_64__
	return (uintptr_t)uc->uc_mcontext.gregs[REG_RSP];
#else
	return 0;
#endif
}

/*
 * Leave the handler into sig_resume(): the context the kernel restores
 * is made a call of it on sig_stack.  Elsewhere than x86-64 the failure
 * is reported from the handler itself.
 */
static void sig_leave(ucontext_t *uc, enum sim_failure kind,
		      const struct sim_task *t)
{
	sig.uc = *uc;
	sig.task = t;
	sig.kind = kind;
#ifdef __x86_64__
	{
		uint64_t *top = (uint64_t *)(sig_stack + sizeof(sig_stack)) - 1;
		greg_t *g = uc->uc_mcontext.gregs;

		sig.uc.uc_mcontext.fpregs = NULL; /* on the signal frame */
		*top = 0;		/* sig_resume()'s return address: none */
		g[REG_RSP] = (greg_t)(uintptr_t)top;
		g[REG_RBP] = 0;
		g[REG_RIP] = (greg_t)(uintptr_t)sig_resume;
	}
#ifdef SIM_CORO_ASAN
	/* ASan is told, as at a coroutine switch: the task does not return */
	__sanitizer_start_switch_fiber(NULL, sig_stack, sizeof(sig_stack));
#endif
#else
	sig_resume();
#endif
}

/* A data address as the report may show it (see the head comment). */
static void sig_address(char *out, size_t len, uintptr_t a)
{
	if (a < 4096)
		snprintf(out, len, "address 0x%lx (NULL pointer)",
			 (unsigned long)a);
	else if (a < 65536)
		snprintf(out, len, "address 0x%lx (the NULL page: a member of a NULL pointer?)",
			 (unsigned long)a);
	else if (a >= SIM_ARENA_BASE && a - SIM_ARENA_BASE < SIM_ARENA_SIZE)
		snprintf(out, len, "address 0x%lx (the arena)",
			 (unsigned long)a);
	else if (sim__failure_task_of(a))
		snprintf(out, len, "address 0x%lx (a task's stack)",
			 (unsigned long)a);
	else
		snprintf(out, len, "an address outside the simulation's fixed memory");
}

/* "SIGSEGV: write to address 0x0 (NULL pointer)" and the like. */
static void sig_describe(char *out, size_t len, int sig_nr,
			 const siginfo_t *si, const ucontext_t *uc)
{
	const char *access = "access to";
	char addr[160];

	switch (sig_nr) {
	case SIGSEGV:
	case SIGBUS:
		if (si->si_code == SI_KERNEL) {
			snprintf(out, len, "%s: a general-protection fault (a non-canonical pointer?)",
				 sig_nr == SIGSEGV ? "SIGSEGV" : "SIGBUS");
			return;
		}
#ifdef __x86_64__
		/* the page fault's error code: bit 1 write, bit 4 fetch */
		access = uc->uc_mcontext.gregs[REG_ERR] & 16 ? "jump to" :
			 uc->uc_mcontext.gregs[REG_ERR] & 2 ? "write to" :
			 "read of";
#endif
		sig_address(addr, sizeof(addr), (uintptr_t)si->si_addr);
		snprintf(out, len, "%s: %s %s",
			 sig_nr == SIGSEGV ? "SIGSEGV" : "SIGBUS", access, addr);
		return;
	case SIGFPE:
		snprintf(out, len, "SIGFPE: %s",
			 si->si_code == FPE_INTDIV ? "integer divide by zero" :
			 si->si_code == FPE_INTOVF ? "integer overflow" :
			 si->si_code == FPE_FLTDIV ? "floating-point divide by zero" :
			 "arithmetic exception");
		return;
	case SIGILL:
		snprintf(out, len, "SIGILL: illegal instruction (__builtin_trap() emits one)");
		return;
	default:
		snprintf(out, len, "SIGTRAP: breakpoint trap");
		return;
	}
}

static const struct sim_task *sig_guard_owner(const void *addr)
{
	for (int i = 0; i < sim.nr_tasks && i < SIM_MAX_TASKS; i++)
		if (sim.tasks[i] && sim_coro_guard_hit(&sim.tasks[i]->coro, addr))
			return sim.tasks[i];
	return NULL;
}

/*
 * A call through a bad function pointer faults at the target, where
 * nothing can be unwound: the report starts at the call instead, inside
 * the call instruction just below the return address it pushed.
 */
static void sig_called_nowhere(const siginfo_t *si)
{
#ifdef __x86_64__
	greg_t *g = sig.uc.uc_mcontext.gregs;
	uintptr_t sp = (uintptr_t)g[REG_RSP];

	if (si->si_signo != SIGSEGV || si->si_code == SI_KERNEL ||
	    (uintptr_t)g[REG_RIP] != (uintptr_t)si->si_addr ||
	    !(g[REG_ERR] & 16) || sim__failure_task_of(sp) != sig.task ||
	    sim__failure_task_of(sp + 7) != sig.task)
		return;
	g[REG_RIP] = (greg_t)(*(const uint64_t *)sp - 1);
	g[REG_RSP] = (greg_t)(sp + 8);
#endif
}

/*
 * Not async-signal-safe in general (snprintf), but it only formats into
 * static buffers; the report itself runs after the handler returned.
 */
static void sig_fault(int sig_nr, siginfo_t *si, void *ucv)
{
	ucontext_t *uc = ucv;
	const struct sim_task *t = sim__failure_task_of(sig_sp(uc)), *g = NULL;
	char what[200];

	if (sig_nr == SIGSEGV || sig_nr == SIGBUS)
		g = sig_guard_owner(si->si_addr);
	if (g && !sig_sp(uc))
		t = g;
	if (!t) {		/* the simulator's own fault */
		signal(sig_nr, SIG_DFL);
		raise(sig_nr);	/* delivered with the default action on return */
		return;
	}
	if (g == t) {
		snprintf(sig.what, sizeof(sig.what),
			 "task %d \"%.16s\" overflowed its %zu-byte stack",
			 t->tid, t->name, t->coro.stack_size);
		sig_leave(uc, SIM_FAIL_STACK, t);
		return;
	}
	sig_describe(what, sizeof(what), sig_nr, si, uc);
	snprintf(sig.what, sizeof(sig.what), "task %d \"%.16s\" got %s",
		 t->tid, t->name, what);
	sig_leave(uc, SIM_FAIL_CRASH, t);
	sig_called_nowhere(si);
}

static void sig_prof(int sig_nr, siginfo_t *si, void *ucv)
{
	ucontext_t *uc = ucv;
	uint64_t mark = sim.counters.hooks + sim.counters.switches;
	const struct sim_task *t = sim__failure_task_of(sig_sp(uc));
	int err = errno;

	if (!t || sim__failure_active || mark != wd.mark) {
		wd.mark = mark;
		wd.quiet = 0;
		return;
	}
	if (++wd.quiet < WD_TICKS)
		return;
	wd.quiet = 0;
	if (wd.armed_ms % 1000)
		snprintf(sig.what, sizeof(sig.what), "task %d \"%.16s\" ran %llu ms",
			 t->tid, t->name, (unsigned long long)wd.armed_ms);
	else
		snprintf(sig.what, sizeof(sig.what), "task %d \"%.16s\" ran %llu s",
			 t->tid, t->name, (unsigned long long)wd.armed_ms / 1000);
	strncat(sig.what, " of host CPU time without a scheduling point (a busy-wait on a plain or volatile variable? use an atomic builtin, or build with --instrument)",
		sizeof(sig.what) - strlen(sig.what) - 1);
	errno = err;
	sig_leave(uc, SIM_FAIL_STUCK, t);
}

void sim_failure_set_stuck_ms(uint64_t ms)
{
	stuck_ms = ms;
}

/* Arm ITIMER_PROF for the bound, or stop it; nothing if already so. */
static void wd_arm(void)
{
	uint64_t us = stuck_ms * 1000 / WD_TICKS;
	struct itimerval it = {
		.it_interval = { (time_t)(us / 1000000), (suseconds_t)(us % 1000000) },
	};

	if (wd.armed && wd.armed_ms == stuck_ms)
		return;
	it.it_value = it.it_interval;
	if (stuck_ms && !us)
		it.it_value.tv_usec = it.it_interval.tv_usec = 1;
	if (setitimer(ITIMER_PROF, &it, NULL))
		perror("futexsim: setitimer");
	wd.armed_ms = stuck_ms;
	wd.armed = true;
	wd.quiet = 0;
}

/* A fork()'s child keeps the handlers and the alternate stack, not the
 * timer (pthread_atfork()). */
static void wd_forked(void)
{
	wd.armed = false;
}

void sim_failure_install(void)
{
	static char altstack[SIG_ALTSTACK_SIZE];
	static const int faults[] = { SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGTRAP };
	stack_t ss = { .ss_sp = altstack, .ss_size = sizeof(altstack) };
	static bool installed;		/* for the process and its forks */
	struct sigaction sa;

	/* a machine per explore run: a system call each would cost more
	 * than a short run */
	if (installed) {
		wd_arm();
		return;
	}
	installed = true;
	pthread_atfork(NULL, NULL, wd_forked);
	if (sigaltstack(&ss, NULL))
		perror("futexsim: sigaltstack");
	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = sig_fault;
	sa.sa_flags = SA_SIGINFO | SA_ONSTACK;
	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < sizeof(faults) / sizeof(faults[0]); i++)
		sigaction(faults[i], &sa, NULL);
	sa.sa_sigaction = sig_prof;
	sa.sa_flags = SA_SIGINFO | SA_ONSTACK | SA_RESTART;
	sigaction(SIGPROF, &sa, NULL);
	wd_arm();
}

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sim/report/failure.c - the report of a simulated failure, and exit status 3.
 *
 * Stage: report.  Called by sim/machine/machine.c (deadlock, livelock, invariant
 * failures), by the arch shim through sim_bug()/sim_warn() (kernel BUG()
 * and WARN()), by the CLI (sim_failure_set_replay(), sim_failure_install())
 * and, for a stack overflow, by the kernel through the SIGSEGV handler
 * installed here.  Calls libunwind (the only file that does), the
 * coroutine layer for saved contexts and guard pages (sim/host/coro.h),
 * sim/report/failure_lines.c for the file:line of frames, sim_trace_last_events()
 * for the end of the narration (sim/trace/trace.h), sim_oracle_lost_wakeup()
 * (sim/explore/oracle.c) to name a deadlock that is a lost wakeup,
 * sim_record_end() (sim/replay/replay.h) to put the replay file in place
 * before the report names it, and reads the machine's tasks and clocks
 * (sim/machine/machine.h).
 *
 * Report (stderr):
 *
 *	futexsim: DEADLOCK: every task is blocked and no timer is pending
 *	seed: 42
 *	time: 1200345 ns (CPU 2 at 1199870 ns)
 *	last events:
 *	    0.049757 ms  worker5 (cpu 2): FUTEX_WAKE returned 1: woke 1 waiter
 *	    ...
 *	task 100 "worker0" SLEEPING on CPU 0
 *	    futex_wait_queue (kernel/futex/waitwake.c:355)
 *	    ulock_futex_wait (workloads/ulock/futex.h:27, inlined)
 *	    busted_lock (workloads/ulock/busted.c:35)
 *	    ...
 *	replay: futexsim run --seed=42 ...
 *
 * A deadlock whose lock word reads 0 (free) is a lost wakeup, and its
 * headline says what was seen instead:
 *
 *	futexsim: DEADLOCK (lost wakeup): task 101 "worker1" sleeps in
 *	FUTEX_WAIT on 0x200000049180, whose word reads 0, free
 *
 * (one line).  "time" is the largest CPU clock; the parenthesis names
 * the CPU that was executing when the failure was found ("main loop" if
 * none was).  "last events" are the last SIM_NARRATE_LAST lines of
 * --narrate (only a narrated run keeps them; else one line says so),
 * taken before the headline so that the narration's own output ends
 * before the report.
 * Stacks are function names, with file:line (and the functions inlined
 * into a frame) when sim/report/failure_lines.c resolves them, never addresses
 * or offsets, so a report is byte-identical between runs of one binary:
 * the frames of all tasks are collected first, resolved at once, then
 * printed (each stack is unwound twice).  The task executing here is
 * unwound from here (this file's own frames skipped); a suspended task
 * from the context its coroutine saved (sim_coro_context()); the task that
 * overflowed its stack, crashed or was stuck from the signal's context,
 * from the faulting (or interrupted) instruction.  A stack is printed
 * innermost first, from below the switch that suspended the task (leading
 * sim_coro_switch* frames are skipped) down to, not including, the
 * coroutine's start (frames named sim__coro_*), so both coroutine backends
 * give the same report, and without the simulator's machinery at either
 * end (the machine's dispatch above the kernel's or the program's code,
 * the task's start below it: sim_lines_machinery(), as the page of an
 * HTML trace leaves them out); at most FAILURE_MAX_FRAMES frames, then "... N
 * more frames".  A compiler's suffix for a clone or a split part of a
 * function (".isra.0", ".constprop.0", ".cold") is dropped.
 */
#define _GNU_SOURCE
#define UNW_LOCAL_ONLY
#include <libunwind.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sim/report/failure.h"
#include "sim/report/lines.h"
#include "sim/report/symbols.h"
#include "sim/report/waitfor.h"
#include "sim/machine/machine.h"
#include "sim/machine/memmodel.h"
#include "sim/explore/oracle.h"
#include "sim/explore/race.h"
#include "sim/report/progress.h"
#include "sim/replay/replay.h"
#include "sim/trace/trace.h"

#define FAILURE_MAX_FRAMES	32	/* frames printed per stack	  */
#define FAILURE_MAX_COUNT	100000	/* frames counted beyond those	  */

static const struct {
	const char *name;
	const char *dflt;	/* headline detail when the caller gave none */
} failure_kinds[] = {
	[SIM_FAIL_DEADLOCK]  = { "DEADLOCK",
		"every task is blocked and no timer is pending" },
	[SIM_FAIL_LIVELOCK]  = { "LIVELOCK",
		"no operation completed within the livelock bound" },
	[SIM_FAIL_BUG]       = { "BUG", "kernel BUG()" },
	[SIM_FAIL_WARN]      = { "WARN", "kernel WARN()" },
	[SIM_FAIL_STACK]     = { "STACK OVERFLOW", "a task overflowed its stack" },
	[SIM_FAIL_INVARIANT] = { "INVARIANT", "a simulator invariant failed" },
	[SIM_FAIL_STARVATION] = { "STARVATION", "a starvation oracle fired" },
	[SIM_FAIL_CRASH]     = { "CRASH", "a task got a fatal signal" },
	[SIM_FAIL_STUCK]     = { "STUCK TASK",
		"a task ran too long without a scheduling point" },
	[SIM_FAIL_RACE]      = { "DATA RACE", "two accesses met" },
	[SIM_FAIL_INFEASIBLE] = { "INFEASIBLE",
		"a promise of memory=arm64 was not kept" },
};

static const char *const failure_states[] = {
	[SIM_TASK_NEW]		= "NEW",
	[SIM_TASK_RUNNING]	= "RUNNING",
	[SIM_TASK_QUEUED]	= "QUEUED",
	[SIM_TASK_SLEEPING]	= "SLEEPING",
	[SIM_TASK_DEAD]		= "DEAD",
};

static char *failure_replay;
volatile sig_atomic_t sim__failure_active;

/* ---- output: one buffer, written with write(2) ------------------------ */

static struct {
	char buf[8192];
	size_t len;
} failure_out;

static void failure_flush(void)
{
	size_t done = 0;
	ssize_t n;

	while (done < failure_out.len) {
		n = write(STDERR_FILENO, failure_out.buf + done,
			  failure_out.len - done);
		if (n <= 0)
			break;
		done += (size_t)n;
	}
	failure_out.len = 0;
}

static void failure_printf(const char *fmt, ...)
	__attribute__((format(printf, 1, 2)));
static void failure_printf(const char *fmt, ...)
{
	char line[1024];
	va_list ap;
	size_t len;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(line, sizeof(line), fmt, ap); /* NOLINT(clang-analyzer-valist.Uninitialized): va_start above */
	va_end(ap);
	if (n <= 0)
		return;
	len = (size_t)n < sizeof(line) ? (size_t)n : sizeof(line) - 1;
	if (len > sizeof(failure_out.buf) - failure_out.len)
		failure_flush();
	memcpy(failure_out.buf + failure_out.len, line, len);
	failure_out.len += len;
}

/* ---- stacks -------------------------------------------------------------- */

/* A frame above the interesting part: this file's, the switch's, or the
 * instrumentation's with the race oracle's wait (the program's access
 * is the frame below them). */
static bool failure_skipped_frame(const char *name)
{
	return !strncmp(name, "failure_", 8) ||
	       !strncmp(name, "sim_race_", 9) ||
	       !strncmp(name, "sim__race_", 10) ||
	       !strncmp(name, "__tsan_", 7) ||
	       !strcmp(name, "sim_delay_ps") ||
	       !strncmp(name, "sim_failure_", 12) ||
	       !strncmp(name, "sim_coro_switch", 15) ||
	       !strcmp(name, "sim_fail") ||
	       !strcmp(name, "sim_bug") ||
	       !strcmp(name, "sim_warn");
}

/* The frames of one stack, innermost first. */
static struct failure_frames {
	int nr;			/* frames kept			*/
	int more;		/* frames beyond those		*/
	struct {
		char name[128];
		uintptr_t pc;	/* inside the call (or the fault)	*/
	} f[FAILURE_MAX_FRAMES];
} failure_st;

/*
 * failure_walk - unwind from @ctx (@flags: 0, or UNW_INIT_SIGNAL_FRAME for
 * a signal's context) into @st.
 */
static void failure_walk(unw_context_t *ctx, int flags,
			 struct failure_frames *st)
{
	unw_cursor_t cur;
	unw_word_t off, ip;
	char name[128];
	bool top = true, first = true;

	st->nr = st->more = 0;
	if (unw_init_local2(&cur, ctx, flags) < 0)
		return;
	do {
		name[0] = 0;
		if (unw_get_proc_name(&cur, name, sizeof(name), &off) < 0 &&
		    !name[0])
			snprintf(name, sizeof(name), "??");
		if (unw_get_reg(&cur, UNW_REG_IP, &ip) < 0)
			ip = 0;
		/* a return address: the call is the byte before it */
		if (ip && !(first && flags))
			ip--;
		first = false;
		/* "f.isra.0", "f.constprop.0", "f.cold": a part of f */
		name[strcspn(name, ".")] = 0;
		if (!strncmp(name, "sim__coro_", 10))
			break;		/* the coroutine's start: the end */
		if (top && failure_skipped_frame(name))
			continue;
		top = false;
		if (st->nr >= FAILURE_MAX_FRAMES) {
			if (++st->more >= FAILURE_MAX_COUNT)
				break;
			continue;
		}
		memcpy(st->f[st->nr].name, name, sizeof(name));
		st->f[st->nr++].pc = (uintptr_t)ip;
	} while (unw_step(&cur) > 0);
}

void sim_failure_stack_here(char *out, int len)
{
	unw_context_t ctx;
	size_t used = 0;
	int i, n;

	if (len <= 0)
		return;
	out[0] = 0;
	unw_getcontext(&ctx);
	failure_walk(&ctx, 0, &failure_st);
	for (i = 0; i < failure_st.nr; i++) {
		n = snprintf(out + used, (size_t)len - used, "%s\n",
			     failure_st.f[i].name);
		if (n < 0 || (size_t)n >= (size_t)len - used)
			return;
		used += (size_t)n;
	}
	if (failure_st.more)
		snprintf(out + used, (size_t)len - used, "... %d more frames\n",
			 failure_st.more);
}

/* ---- the report ------------------------------------------------------- */

/* The task whose stack holds @addr (guard region included), if any. */
static const struct sim_task *failure_stack_owner(const void *addr)
{
	uintptr_t a = (uintptr_t)addr, lo, hi;
	const struct sim_task *t;
	int i;

	for (i = 0; i < sim.nr_tasks && i < SIM_MAX_TASKS; i++) {
		t = sim.tasks[i];
		if (!t || !t->coro.guard)
			continue;
		lo = (uintptr_t)t->coro.guard;
		hi = (uintptr_t)t->coro.stack + t->coro.stack_size;
		if (a >= lo && a < hi)
			return t;
	}
	return NULL;
}

/*
 * failure_stack - the stack of task @t into failure_st.  @here
 * (@here_flags for unw_init_local2()) is the context of the code
 * executing now, on the stack of @here_task (NULL: on no task's stack);
 * NULL if that context cannot be unwound.
 * Return: NULL, or the line to print instead of frames.
 */
static const char *failure_stack(const struct sim_task *t, unw_context_t *here,
				 int here_flags, const struct sim_task *here_task)
{
	ucontext_t saved;
	int rc;

	failure_st.nr = failure_st.more = 0;
	if (t == here_task && here)
		failure_walk(here, here_flags, &failure_st);
	else if (t == here_task)
		return "(a signal context is not unwound on this host)";
	else if (t->state == SIM_TASK_NEW || t->state == SIM_TASK_DEAD)
		return t->state == SIM_TASK_NEW ? "(not started)" : "(exited)";
	else if ((rc = sim_coro_context(&t->coro, &saved)) != 0)
		return rc > 0 ? "(not started)" : "(no saved context)";
	else
#ifdef __x86_64__
		/* libunwind's context on x86-64 is the ucontext_t itself */
		failure_walk(&saved, 0, &failure_st);
#else
		return "(suspended stacks are not unwound on this host)";
#endif
	return failure_st.nr ? NULL : "(no frames)";
}

/* One line of a stack as printed: a function, its location ("file:line",
 * or empty), and whether it is inlined into the line after it. */
struct frame_line {
	const char *fn, *loc;
	int fn_len, loc_len;
	bool inlined;
};

/* The line of sim__failure_lines_of()'s text at @p into @l.  Return:
 * the text after it, or NULL when there is none. */
static const char *frame_line_next(const char *p, struct frame_line *l)
{
	const char *tab, *nl;

	if (!p || !(tab = strchr(p, '\t')) || !(nl = strchr(tab, '\n')))
		return NULL;
	*l = (struct frame_line){ p, tab + 1, (int)(tab - p),
				  (int)(nl - tab - 1), false };
	return nl + 1;
}

/* The lines of one stack, innermost first (failure_lines_of_stack()). */
#define FAILURE_MAX_LINES	(FAILURE_MAX_FRAMES * 8)
static struct frame_line failure_ln[FAILURE_MAX_LINES];

/* Frame @name at @pc as lines onto failure_ln from @nr, the functions
 * inlined into it first.  Return: the new count. */
static int frame_lines(const char *name, uintptr_t pc, int nr)
{
	const char *p = sim__failure_lines_of(pc);
	struct frame_line l;

	if (!p && nr < FAILURE_MAX_LINES)
		failure_ln[nr++] = (struct frame_line){ name, "",
			(int)strlen(name), 0, false };
	while ((p = frame_line_next(p, &l)) && nr < FAILURE_MAX_LINES) {
		l.inlined = *p;		/* not the frame's own function */
		if (!l.inlined) {	/* libunwind's name, suffix dropped */
			l.fn = name;
			l.fn_len = (int)strlen(name);
		}
		failure_ln[nr++] = l;
	}
	return nr;
}

static bool line_machinery(const struct frame_line *l)
{
	return sim_lines_machinery(l->fn, l->fn_len, l->loc, l->loc_len);
}

/*
 * The stack of failure_st as lines, without the simulator's machinery at
 * either end (sim_lines_machinery(): the machine's dispatch and switch
 * above where the task is, its start below), as the page of an HTML
 * trace shows it.  A stack that is machinery only is kept whole.
 * Return: the first line in *@lo, and the end.
 */
static int failure_lines_of_stack(int *lo)
{
	int nr = 0, hi;

	for (int i = 0; i < failure_st.nr; i++)
		nr = frame_lines(failure_st.f[i].name, failure_st.f[i].pc, nr);
	*lo = 0;
	hi = nr;
	while (*lo < hi && line_machinery(&failure_ln[*lo]))
		(*lo)++;
	while (hi > *lo && line_machinery(&failure_ln[hi - 1]))
		hi--;
	if (*lo == hi) {	/* machinery only: all of it */
		*lo = 0;
		hi = nr;
	}
	return hi;
}

/* One line: "name (file:line)", ", inlined" when it is. */
static void failure_line(const struct frame_line *l)
{
	if (!l->loc_len)	/* no location */
		failure_printf("    %.*s%s\n", l->fn_len, l->fn,
			       l->inlined ? " (inlined)" : "");
	else
		failure_printf("    %.*s (%.*s%s)\n", l->fn_len, l->fn,
			       l->loc_len, l->loc, l->inlined ? ", inlined" : "");
}

/* One task's line and stack (failure_stack() for the arguments). */
static void failure_task(const struct sim_task *t, unw_context_t *here,
			 int here_flags, const struct sim_task *here_task)
{
	const char *state = "?", *msg;
	int i, lo, hi;

	if ((unsigned int)t->state < sizeof(failure_states) / sizeof(char *))
		state = failure_states[t->state];
	failure_printf("task %d \"%.16s\" %s on CPU %d\n",
		       t->tid, t->name, state, t->cpu);
	msg = failure_stack(t, here, here_flags, here_task);
	if (msg) {
		failure_printf("    %s\n", msg);
		return;
	}
	hi = failure_lines_of_stack(&lo);
	for (i = lo; i < hi; i++)
		failure_line(&failure_ln[i]);
	if (failure_st.more)
		failure_printf("    ... %d more frames\n", failure_st.more);
}

/* Every frame of every task's stack, to resolve file:line at once. */
static void failure_collect(unw_context_t *here, int here_flags,
			    const struct sim_task *here_task)
{
	int i, j;

	for (i = 0; i < sim.nr_tasks && i < SIM_MAX_TASKS; i++) {
		if (!sim.tasks[i] ||
		    failure_stack(sim.tasks[i], here, here_flags, here_task))
			continue;
		for (j = 0; j < failure_st.nr; j++)
			sim__failure_lines_add(failure_st.f[j].pc);
	}
	for (int k = 0; sim_sb_reorder(k); k++)	/* the reorderings' loads */
		if (sim_sb_reorder(k)->pc)
			sim__failure_lines_add(sim_sb_reorder(k)->pc);
	for (int k = 0; sim_race_met() && k < 2; k++)	/* the race's two */
		sim__failure_lines_add(sim_race_met()[k].pc);
	sim__failure_lines_resolve();
}

/* sim_failure_defer(): report nothing, the CLI runs it again */
static int failure_defer;

/* The last narrated lines, taken before the report starts. */
static struct {
	char line[SIM_NARRATE_LAST][256];
	int nr;			/* -1: no narration kept	*/
} failure_ev;

static void failure_event(const char *line, void *arg)
{
	if (failure_ev.nr < SIM_NARRATE_LAST)
		snprintf(failure_ev.line[failure_ev.nr++],
			 sizeof(failure_ev.line[0]), "%s", line);
}

static char failure_waitfor[8192];

/* The report's first line, without its newline, into @buf. */
static void failure_headline(enum sim_failure kind, const char *what,
			     char *buf, size_t len)
{
	char lost[200];

	if ((unsigned int)kind >= sizeof(failure_kinds) / sizeof(failure_kinds[0]))
		kind = SIM_FAIL_INVARIANT;
	if (kind == SIM_FAIL_DEADLOCK &&
	    sim_oracle_lost_wakeup(lost, sizeof(lost)))
		snprintf(buf, len, "futexsim: %s (lost wakeup): %s",
			 failure_kinds[kind].name, lost);
	else
		snprintf(buf, len, "futexsim: %s: %s", failure_kinds[kind].name,
			 what && *what ? what : failure_kinds[kind].dflt);
}

/* " in FN (FILE:LINE) < CALLER (FILE:LINE)", the innermost frame of @pc
 * outside the simulator's own code (sim/, workloads/libsim/) and the
 * generic headers (include/), with its caller; "" if none. */
static const char *failure_code_of(uintptr_t pc, char *buf, size_t len)
{
	const char *p = pc ? sim__failure_lines_of(pc) : NULL;
	struct frame_line l;
	size_t at = 0;
	int n = 0;

	buf[0] = '\0';
	while (n < 2 && at < len && (p = frame_line_next(p, &l))) {
		if (!n && (!l.loc_len || !strncmp(l.loc, "sim/", 4) ||
			   !strncmp(l.loc, "include/", 8) ||
			   !strncmp(l.loc, "workloads/libsim/", 17)))
			continue;
		at += (size_t)snprintf(buf + at, len - at, "%s%.*s (%.*s)",
				       n++ ? " < " : " in ", l.fn_len, l.fn,
				       l.loc_len, l.loc);
	}
	return buf;
}

/* sim_failure_name_data()'s regions */
#define DATA_NAMES 4
static struct {
	uint64_t addr, size;
	const char *name;
} data_names[DATA_NAMES];
static int nr_data_names;

void sim_failure_name_data(int n, const void *const *addr,
			   const unsigned int *size, const char *const *name)
{
	nr_data_names = n < DATA_NAMES ? n : DATA_NAMES;
	for (int i = 0; i < nr_data_names; i++) {
		data_names[i].addr = (uintptr_t)addr[i];
		data_names[i].size = size[i];
		data_names[i].name = name[i];
	}
}

/* @addr named by a symbol, or by sim_failure_name_data(), or its hex. */
static const char *data_sym_name(uint64_t addr, char *buf, size_t len)
{
	sim_sym_name(addr, buf, len);
	if (strncmp(buf, "0x", 2))
		return buf;
	for (int i = 0; i < nr_data_names; i++) {
		uint64_t off = addr - data_names[i].addr;

		if (addr < data_names[i].addr || off >= data_names[i].size)
			continue;
		if (off)
			snprintf(buf, len, "%s +%llu", data_names[i].name,
				 (unsigned long long)off);
		else
			snprintf(buf, len, "%s", data_names[i].name);
		break;
	}
	return buf;
}

const char *sim_failure_data_name(uint64_t addr, char *buf, size_t len)
{
	const struct sim_task *on;

	data_sym_name(addr, buf, len);
	on = strncmp(buf, "0x", 2) ? NULL :
		failure_stack_owner((const void *)(uintptr_t)addr);
	if (on)
		snprintf(buf + strlen(buf), len - strlen(buf),
			 " (on the stack of task %d \"%.16s\")", on->tid, on->name);
	return buf;
}

/* memory=tso|arm64: the latest accesses that passed an older store of
 * their CPU, oldest first. */
static void failure_reorders(void)
{
	const struct sim_sb_reorder *r;
	char a[256], b[256], where[300];
	int n = 0;

	while (sim_sb_reorder(n))
		n++;
	failure_printf("reorderings (the latest %d pairs, the latest last, each at its CPU's clock: an access performed before an older store of its CPU was visible, or a load that read bytes as they were before another CPU's visible store):\n",
		       n);
	if (!n)
		failure_printf("    (none)\n");
	while (n-- > 0) {
		r = sim_sb_reorder(n);
		sim_failure_data_name(r->first, a, sizeof(a));
		sim_failure_data_name(r->passed, b, sizeof(b));
		if (r->kind == SIM_REORDER_LOAD)
			failure_printf("    %llu ns CPU %d \"%.16s\": load of %s%s before its store to %s was visible",
				       (unsigned long long)(r->time_ps / 1000),
				       r->cpu, r->task, a,
				       failure_code_of(r->pc, where, sizeof(where)),
				       b);
		else if (r->kind == SIM_REORDER_PROMISE)
			failure_printf("    %llu ns CPU %d \"%.16s\": store to %s visible before its older load of %s%s (a promise)",
				       (unsigned long long)(r->time_ps / 1000),
				       r->cpu, r->task, a, b,
				       failure_code_of(r->pc, where, sizeof(where)));
		else if (r->kind == SIM_REORDER_STALE)
			failure_printf("    %llu ns CPU %d \"%.16s\": load of %s%s read it as before CPU %d's store to %s, which was visible (satisfied early, before its older loads)",
				       (unsigned long long)(r->time_ps / 1000),
				       r->cpu, r->task, a,
				       failure_code_of(r->pc, where, sizeof(where)),
				       r->by, b);
		else
			failure_printf("    %llu ns CPU %d \"%.16s\": store to %s visible before its older store to %s",
				       (unsigned long long)(r->time_ps / 1000),
				       r->cpu, r->task, a, b);
		if (r->times > 1)
			failure_printf(" (%u times)", r->times);
		failure_printf("\n");
	}
}

/* memory=tso|arm64: the stores not yet visible to the other CPUs, each
 * CPU's oldest first: what the program's order of accesses was not. */
static void failure_store_buffers(void)
{
	uint64_t addr, val;
	unsigned int size;
	char name[256];
	int any = 0, rel;

	failure_printf("store buffers (memory=%s; stores the other CPUs do not see yet, oldest first):\n",
		       sim_memory_name());
	for (int c = 0; c < sim.nr_cpus && c < SIM_MAX_CPUS; c++) {
		const struct sim_task *t = sim.cpus[c].curr;

		for (int i = 0; sim_sb_entry(c, i, &addr, &size, &val, &rel); i++) {
			if (!i)
				failure_printf("    CPU %d%s%.16s%s:\n", c,
					       t ? " (task \"" : "",
					       t ? t->name : "", t ? "\")" : "");
			failure_printf("        %s = %llu (%u bytes%s)\n",
				       data_sym_name(addr, name, sizeof(name)),
				       (unsigned long long)val, size,
				       rel ? ", release" : "");
			any = 1;
		}
	}
	if (!any)
		failure_printf("    (empty)\n");
	failure_reorders();
}

/* The race oracle's two accesses, with their code. */
static void failure_race(void)
{
	const struct sim_race_side *m = sim_race_met();
	char name[256], where[300];

	failure_printf("accesses (the one being made, then the watched one it met):\n");
	for (int k = 0; k < 2; k++) {
		if (!m[k].tid) {
			failure_printf("    code that is not instrumented\n");
			continue;
		}
		sim_failure_data_name(m[k].addr, name, sizeof(name));
		failure_printf("    task %d \"%.16s\": %s of %s (%u bytes)%s\n",
			       m[k].tid, m[k].task, sim_race_how(m[k].how), name,
			       m[k].size,
			       failure_code_of(m[k].pc, where, sizeof(where)));
	}
}

static void failure_report(enum sim_failure kind, const char *what,
			   unw_context_t *here, int here_flags,
			   const struct sim_task *here_task)
{
	uint64_t max_ps = 0;
	char head[1024];
	int i;

	if ((unsigned int)kind >= sizeof(failure_kinds) / sizeof(failure_kinds[0]))
		kind = SIM_FAIL_INVARIANT;
	sim_progress_bar_stop();	/* the progress line, if shown, cleared */
	/* the narration's end goes out first: the report stays in one piece */
	if (sim_trace_last_events(failure_event, NULL) < 0)
		failure_ev.nr = -1;
	failure_headline(kind, what, head, sizeof(head));
	failure_printf("%s\n", head);
	failure_flush();	/* the headline first, whatever happens next */

	for (i = 0; i < sim.nr_cpus && i < SIM_MAX_CPUS; i++)
		if (sim.cpus[i].now_ps > max_ps)
			max_ps = sim.cpus[i].now_ps;
	failure_printf("seed: %llu\n", (unsigned long long)sim.seed);
	if (sim_cur)
		failure_printf("time: %llu ns (CPU %d at %llu ns)\n",
			       (unsigned long long)(max_ps / 1000),
			       sim_cur->k.cpu,
			       (unsigned long long)(sim_cur->now_ps / 1000));
	else
		failure_printf("time: %llu ns (main loop)\n",
			       (unsigned long long)(max_ps / 1000));
	failure_printf("last events:\n");
	if (failure_ev.nr < 0)
		failure_printf("    (not kept: the run was not narrated)\n");
	else if (!failure_ev.nr)
		failure_printf("    (none)\n");
	for (i = 0; i < failure_ev.nr; i++)
		failure_printf("    %s\n", failure_ev.line[i]);
	failure_collect(here, here_flags, here_task);
	if (sim__sb_on)
		failure_store_buffers();
	if (kind == SIM_FAIL_RACE && sim_race_met())
		failure_race();
	for (i = 0; i < sim.nr_tasks && i < SIM_MAX_TASKS; i++)
		if (sim.tasks[i])
			failure_task(sim.tasks[i], here, here_flags, here_task);
	if (kind == SIM_FAIL_DEADLOCK)	/* sim/report/waitfor.h */
		failure_printf("%s", sim_waitfor_text(failure_waitfor,
						       sizeof(failure_waitfor)));
	failure_flush();
	/* the record is put in place first: named only once written */
	if (sim_record_end() && failure_replay)
		failure_printf("replay: %.*s\nreplay file: none (it could not be written)\n",
			       (int)strcspn(failure_replay, "\n"), failure_replay);
	else
		failure_printf("replay: %s\n",
			       failure_replay ? failure_replay : "(not recorded)");
	failure_flush();
}

void (*sim_fail_hook)(enum sim_failure kind, const char *what);

/*
 * What every failure does before its report: explore's hook (which ends
 * the run and does not return), a stop if the failure comes from inside
 * a report, the deferred re-run's exit.  Returns only when the report is
 * to be written now.
 */
static void failure_begin(enum sim_failure kind, const char *what)
{
	char head[1024];

	if (sim_fail_hook)
		sim_fail_hook(kind, what);	/* explore mode: does not return */
	if (sim__failure_active) {	/* failed while reporting: just stop */
		failure_printf("futexsim: failure inside the failure report\n");
		failure_flush();
		_exit(SIM_EXIT_FAILURE);
	}
	sim__failure_active = 1;
	fflush(stdout);
	/* an HTML trace marks its last event as the failure, whether this
	 * process reports it or exits for a re-run that will */
	failure_headline(kind, what, head, sizeof(head));
	sim_trace_failure(head);
	if (failure_defer) {
		sim_record_discard();	/* the re-run records it again */
		exit(SIM_EXIT_REPORT_AGAIN);
	}
}

void sim_fail(enum sim_failure kind, const char *what)
{
	unw_context_t here;

	failure_begin(kind, what);
	unw_getcontext(&here);
	failure_report(kind, what, &here, 0, failure_stack_owner(&here));
	exit(SIM_EXIT_FAILURE);
}

void sim_bug(const char *what, const char *file, int line)
{
	static char buf[512];

	snprintf(buf, sizeof(buf), "%s at %s:%d", what ? what : "BUG",
		 file, line);
	sim_fail(SIM_FAIL_BUG, buf);
}

void sim_warn(const char *what, const char *file, int line)
{
	static char buf[512];

	snprintf(buf, sizeof(buf), "%s at %s:%d", what ? what : "WARN",
		 file, line);
	sim_fail(SIM_FAIL_WARN, buf);
}

void sim_failure_defer(int on)
{
	failure_defer = on;
}

void sim_failure_set_replay(const char *cmd)
{
	free(failure_replay);
	failure_replay = cmd ? strdup(cmd) : NULL;
}

/* ---- failures caught by a signal (sim/report/failure_signal.c) -------- */

void sim__failure_from_signal(enum sim_failure kind, const char *what,
			      void *uc, const struct sim_task *t)
{
	failure_begin(kind, what);
#ifdef __x86_64__
	/* libunwind's context on x86-64 is the ucontext_t itself */
	failure_report(kind, what, (unw_context_t *)uc, UNW_INIT_SIGNAL_FRAME,
		       t);
#else
	failure_report(kind, what, NULL, 0, t);
#endif
	exit(SIM_EXIT_FAILURE);
}

const struct sim_task *sim__failure_task_of(uintptr_t addr)
{
	return failure_stack_owner((const void *)addr);
}

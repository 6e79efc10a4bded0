/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sim/trace/trace.h - --trace: one stream of typed events from every layer,
 * written as ftrace text (FILE.txt), Chrome trace-event JSON (FILE.json)
 * or a self-contained HTML page that steps through the run (FILE.html).
 *
 * Stage: trace/report, beside the flow.  The layers call the emitters
 * below (the scheduler: switches and wakeups; the futex(2) boundary:
 * syscall entry and exit; the cache-line model: misses) or, from kernel TUs, the sim_trace_*() hooks of
 * sim/machine/hooks.h (the kernel's lock:contention_begin/end tracepoints and the
 * shim's qspinlock word transitions).  The CLI opens one trace per lock
 * run (sim/cli/cli.c) and the scenario keys select it (sim/scenario/scenario.c).
 * Implemented in sim/trace/trace.c (records, ordering, window, event names),
 * sim/trace/trace_text.c, sim/trace/trace_json.c and sim/trace/trace_html.c
 * (the three writers); the same
 * stream feeds --narrate (sim/trace/trace_narrate.c) and --lock-stat
 * (sim/trace/lockstat.c).
 *
 * Contract:
 *  - Tracing never changes the simulation: emitters read the machine's
 *    state and simulated memory with plain loads; they make no hook, no
 *    charge and no PRNG draw.  With no trace open each emitter is one
 *    load and one predictable branch (sim_trace_mask is 0).
 *  - The trace is a pure function of scenario and seed: timestamps are
 *    simulated time, addresses are fixed ones (the arena, task stacks and
 *    the -no-pie executable's globals; anything else, the host heap for
 *    instance, is printed as 0), and equal timestamps keep emission order.
 *  - Timestamps are per-CPU clocks, so records arrive slightly out of
 *    global order; a fixed-size reorder buffer (SIM_TRACE_REORDER records)
 *    writes them sorted.  A record later than that window would allow is
 *    written with the last timestamp written (never backwards).
 *  - Memory is fixed: the reorder buffer, a write buffer and per-task,
 *    per-CPU and per-lock state of bounded size; nothing grows with the
 *    length of the run.
 */
#ifndef SIM_TRACE_H
#define SIM_TRACE_H

#include <stddef.h>
#include <stdint.h>

#include "sim/machine/hooks.h"

struct sim_task;
struct sim_scenario;

#define SIM_TRACE_REORDER	8192	/* records held for ordering	*/
/* "all": every event but cache and atomic_other, which only name them
 * (a run has millions) */
#define SIM_TRACE_ALL		(((1U << SIM_TEV_NR) - 1) & \
				 ~SIM_TRACE_BIT(SIM_TEV_CACHE) & \
				 ~SIM_TRACE_BIT(SIM_TEV_UATOMIC_OTHER))

/* What the trace file is, from its name. */
enum sim_trace_format {
	SIM_TRACE_NONE,
	SIM_TRACE_TEXT,		/* *.txt: ftrace text		*/
	SIM_TRACE_JSON,		/* *.json: Chrome trace events	*/
	SIM_TRACE_HTML,		/* *.html: the page of docs/view.md	*/
};

/* sim_trace_format_of - the format @path asks for by its extension.
 * Return: SIM_TRACE_TEXT, SIM_TRACE_JSON, SIM_TRACE_HTML, or
 * SIM_TRACE_NONE if none of them. */
enum sim_trace_format sim_trace_format_of(const char *path);

/*
 * sim_trace_lock_path - the trace file of lock @lock: @path itself when
 * @nr_locks is 1, else @path with ".LOCK" before its extension
 * (out.txt -> out.ww.txt).  Return: 0, or -1 if it does not fit in @len.
 */
int sim_trace_lock_path(const char *path, const char *lock, int nr_locks,
			char *out, size_t len);

/*
 * sim_trace_parse_events - @list is a comma-separated list of event names
 * and groups (sim_trace_event_help() lists them); sets *@mask.
 * Return: 0, or -1 if a name is unknown or the list is empty or malformed.
 */
int sim_trace_parse_events(const char *list, unsigned int *mask);
/* sim_trace_format_events - @mask as the shortest list that
 * sim_trace_parse_events() reads back ("all", "sched,futex_exit").
 * Return: @buf. */
const char *sim_trace_format_events(unsigned int mask, char *buf, size_t len);
/* sim_trace_event_help - the names and groups, for --help. */
const char *sim_trace_event_help(void);

/*
 * sim_trace_open - start the event stream of the run of scenario @s
 * (one lock: s->locks[0]): the trace file @path (NULL: none) in the
 * format of its extension, with events s->trace_events; the narration
 * on stderr if s->narrate (sim/trace/trace_narrate.c); the --lock-stat table
 * if s->lock_stat[0] (sim/trace/lockstat.h; the whole run).  The file and the
 * narration keep to the window [s->trace_from_ps, s->trace_to_ps] (to 0:
 * to the end).  Call after sim_machine_init(), before the workload runs.
 * Return: 0, or -1 with errno if the file cannot be created.
 */
int sim_trace_open(const char *path, const struct sim_scenario *s);
/*
 * sim_trace_close - write what is buffered, end the file and close it,
 * end the narration, stop the lock-stat collection (its table stays for
 * sim_lockstat_write()); nothing if no stream is open.
 * Also run at exit(), so a simulated failure (exit 3) leaves a complete
 * trace up to the failure.  The file is written through
 * sim/host/outfile.h: it appears, whole, here, or (a write error) is
 * left as it was, with one line on stderr.  In a process forked from
 * the one that opened it, forgets the stream and writes nothing.
 * Return: 0, or -1 with errno on a write error (its line printed).
 */
int sim_trace_close(void);

/*
 * sim_trace_last_events - for a failure report (sim/report/failure.c): write out
 * what the reorder buffer still holds, so that the narration is complete
 * up to now, then call @fn with each of the last SIM_NARRATE_LAST lines
 * of the narration (oldest first, without the newline).  Only a run with
 * --narrate=yes keeps them: keeping them always would cost the stream of
 * events that tracing off avoids.  Lines are those of the narration:
 * inside the --trace-from/--trace-to window.
 * Return: the number of lines, or -1 if no narration is on.
 */
#define SIM_NARRATE_LAST	16
int sim_trace_last_events(void (*fn)(const char *line, void *arg), void *arg);

/*
 * sim_trace_failure - the headline @line of a failure report
 * (sim/report/failure.c), for an HTML trace: its page marks the run's last
 * event as the failure and shows @line.  Nothing for other formats.
 */
void sim_trace_failure(const char *line);

/*
 * sim_trace_picture - an SVG document @svg (sim/report/plot_run.h) for
 * the page of an HTML trace, drawn below its charts: copied; nothing for
 * other formats or without a trace.  Call before sim_trace_close().
 * Return: 1 if an HTML page takes it, else 0.
 */
int sim_trace_picture(const char *svg);
/* sim_trace_is_page - the open trace is an HTML page. */
int sim_trace_is_page(void);

/*
 * sim_trace_lock_words - the built-in lock of the run has, at @obj, the
 * 32-bit words @names[i] at @obj + 4 i (a NULL-terminated list; "" for
 * a word not shown; struct ulock_ops' words): an HTML page shows their
 * values at every event.  Called by the workload once the lock is set
 * up; the next sim_trace_open() forgets them.  At most
 * SIM_TRACE_LOCK_WORDS are shown.
 */
#define SIM_TRACE_LOCK_WORDS	8
void sim_trace_lock_words(const void *obj, const char *const *names);

/* ---- emitters (the layers call these; each is one branch when off) ---- */

void sim__trace_switch(int cpu, uint64_t ts_ps, const struct sim_task *prev,
		       const struct sim_task *next);
void sim__trace_wake(enum sim_trace_event ev, const struct sim_task *t,
		     int target_cpu);
void sim__trace_pi_setprio(const struct sim_task *t, int old, int new);
void sim__trace_futex_enter(const uint32_t *uaddr, int op, uint32_t val,
			    int64_t utime_ns);
void sim__trace_futex_exit(const uint32_t *uaddr, int op, long ret);
void sim__trace_nanosleep(enum sim_trace_event ev, int64_t arg);
void sim__trace_cache(int cpu, uint64_t ts_ps, const volatile void *addr,
		      unsigned int kind, int owner, unsigned int tier,
		      unsigned int invalidated, uint64_t wait_ps,
		      uint64_t cost_ps);
void sim__trace_uatomic(enum sim_trace_event ev, const void *p,
			unsigned int size, unsigned int op, int ok,
			uint64_t before, uint64_t after);

#define sim_tracing(ev)	__builtin_expect(!!(sim_trace_mask & SIM_TRACE_BIT(ev)), 0)

/* sim_trace_sched_switch - @cpu switches from @prev to @next (NULL: the
 * idle task) at @ts_ps; @prev's state (S, R+ preempted, X dead) is read
 * from the task now. */
static inline void sim_trace_sched_switch(int cpu, uint64_t ts_ps,
					  const struct sim_task *prev,
					  const struct sim_task *next)
{
	if (sim_tracing(SIM_TEV_SCHED_SWITCH))
		sim__trace_switch(cpu, ts_ps, prev, next);
}

/* sim_trace_waking, _wakeup, _wakeup_new - @t is being woken (its last
 * CPU), was made runnable on @target_cpu, or started there. */
static inline void sim_trace_waking(const struct sim_task *t, int target_cpu)
{
	if (sim_tracing(SIM_TEV_SCHED_WAKING))
		sim__trace_wake(SIM_TEV_SCHED_WAKING, t, target_cpu);
}

static inline void sim_trace_wakeup(const struct sim_task *t, int target_cpu)
{
	if (sim_tracing(SIM_TEV_SCHED_WAKEUP))
		sim__trace_wake(SIM_TEV_SCHED_WAKEUP, t, target_cpu);
}

static inline void sim_trace_wakeup_new(const struct sim_task *t,
					int target_cpu)
{
	if (sim_tracing(SIM_TEV_SCHED_WAKEUP_NEW))
		sim__trace_wake(SIM_TEV_SCHED_WAKEUP_NEW, t, target_cpu);
}

/* sim_trace_pi_setprio - rt_mutex_setprio() moved @t from @old to @new
 * (Linux's sched:sched_pi_setprio). */
static inline void sim_trace_pi_setprio(const struct sim_task *t, int old,
					int new)
{
	if (sim_tracing(SIM_TEV_SCHED_PI_SETPRIO))
		sim__trace_pi_setprio(t, old, new);
}

/* sim_trace_futex_enter/exit - the current task enters futex(2) with
 * (@uaddr, @op, @val, utime: @utime_ns, -1 for none; relative or absolute
 * as the op takes it), and leaves it with @ret. */
static inline void sim_trace_futex_enter(const uint32_t *uaddr, int op,
					 uint32_t val, int64_t utime_ns)
{
	if (sim_tracing(SIM_TEV_FUTEX_ENTER))
		sim__trace_futex_enter(uaddr, op, val, utime_ns);
}

static inline void sim_trace_futex_exit(const uint32_t *uaddr, int op,
					long ret)
{
	if (sim_tracing(SIM_TEV_FUTEX_EXIT))
		sim__trace_futex_exit(uaddr, op, ret);
}

/* sim_trace_nanosleep_enter/exit - nanosleep(2) of @ns; its result. */
static inline void sim_trace_nanosleep_enter(uint64_t ns)
{
	if (sim_tracing(SIM_TEV_NANOSLEEP_ENTER))
		sim__trace_nanosleep(SIM_TEV_NANOSLEEP_ENTER, (int64_t)ns);
}

static inline void sim_trace_nanosleep_exit(long ret)
{
	if (sim_tracing(SIM_TEV_NANOSLEEP_EXIT))
		sim__trace_nanosleep(SIM_TEV_NANOSLEEP_EXIT, ret);
}

/*
 * sim_trace_cache - CPU @cpu's access @kind (SIM_LOAD, SIM_STORE: one that
 * retired into the store buffer, its miss in the background; SIM_RMW) of
 * the line of @addr missed at @ts_ps (sim/cache/cache.c): served by @owner
 * (the CPU that had it Modified or Exclusive; -1: its sharers or L3) at
 * distance @tier (enum sim_cache_tier of sim/cache/cache.h; SIM_TIER_NR: L3,
 * nobody held it), taking @invalidated other copies; it waited @wait_ps
 * behind a miss in flight, then took @cost_ps to complete.  Only when
 * trace-events names cache: "all" does not.
 */
static inline void sim_trace_cache(int cpu, uint64_t ts_ps,
				   const volatile void *addr, unsigned int kind,
				   int owner, unsigned int tier,
				   unsigned int invalidated, uint64_t wait_ps,
				   uint64_t cost_ps)
{
	if (sim_tracing(SIM_TEV_CACHE))
		sim__trace_cache(cpu, ts_ps, addr, kind, owner, tier,
				 invalidated, wait_ps, cost_ps);
}

/*
 * sim_trace_uatomic - the current task's atomic @op (FUTEXSIM_OP_* of
 * workloads/libsim/futexsim_atomic.h; a cmpxchg swapped iff @ok) of
 * @size bytes at @p took it from @before to @after (sim/trace/uword.c);
 * event atomic if @futex_word, else atomic_other (not in "all").
 */
static inline void sim_trace_uatomic(int futex_word, const void *p,
				     unsigned int size, unsigned int op,
				     int ok, uint64_t before, uint64_t after)
{
	enum sim_trace_event ev = futex_word ? SIM_TEV_UATOMIC :
					       SIM_TEV_UATOMIC_OTHER;

	if (sim_tracing(ev))
		sim__trace_uatomic(ev, p, size, op, ok, before, after);
}

#endif /* SIM_TRACE_H */

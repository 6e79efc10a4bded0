/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sim/machine/machine.c - the simulated machine and its main loop.
 *
 * Stage: machine.  sim_run() (called by the workload driver) starts the
 * tasks; from then on the loop is distributed over the hooks: every
 * sim_hook() charges its access to the running CPU's clock, and when that
 * clock reaches the horizon it enters sim__dispatch(), the body of the
 * main loop:
 *
 *   1. dispatch_fire_due(): fire every event due before the earliest
 *      running CPU (ticks, idle exits, timers);
 *   2. dispatch_pick(): the running CPU with the smallest clock (PRNG
 *      among equals; sim/machine/runheap.c keeps them ordered), or the
 *      explore strategy's choice;
 *   3. dispatch_check(): the livelock watchdog and the layers' state
 *      checkers (SIM_STATE_CHECKER(), sim/machine/hooks.h);
 *   4. resume(): switch to that CPU's current task (nothing to do if it
 *      is us);
 *   5. preempt_point(), back on our own CPU: preempt if a tick asked for
 *      it and preempt_count is 0.
 *
 * With no running CPU and no event left, the run is over (every task
 * returned) or deadlocked (some did not).  Calls the scheduler (sched/)
 * for ticks and idle exits, sim/report/failure.c for failures, and sim/cache/cache.c
 * for the price of each access (the cache-line model; with the preset's
 * cache-model = off, the flat per-kind costs instead).  Every decision
 * (the task a dispatch switches to, each PRNG draw) goes through
 * sim_decision()/sim_draw() (sim/replay/replay.h), so replay files see it.
 * Creating tasks and charging their time is sim/machine/task.c.
 */
#include <errno.h>
#include <setjmp.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sched/sched.h"
#include "sim/host/arena.h"
#include "sim/cache/cache.h"
#include "sim/machine/event.h"
#include "sim/explore/explore.h"
#include "sim/report/failure.h"
#include "sim/machine/machine.h"
#include "sim/machine/memmodel.h"
#include "sim/explore/oracle.h"
#include "sim/machine/prng.h"
#include "sim/replay/replay.h"
#include "sim/machine/runheap.h"

#define likely(x)	__builtin_expect(!!(x), 1)
#define unlikely(x)	__builtin_expect(!!(x), 0)

struct sim_machine sim;
struct sim_cpu *sim_cur;
int sim__hooks_live;
struct sim_cpu_kstate *sim_this_cpu;
int sim_nr_cpus;
void *sim_current_kt;
unsigned long sim__stack_lo, sim__stack_hi;
unsigned long sim_percpu_offset[SIM_MAX_CPUS];

static struct sim_coro main_coro;
static struct sim_coro *running_coro;	/* the coroutine executing now	*/
static uint64_t horizon_ps;		/* the running CPU may run below it */
static uint64_t cost_ps[SIM_NR_ACCESS];	/* flat costs; RELAX, LOAD: parking */
static bool cache_on;			/* sim/cache/cache.c prices the accesses */
static unsigned long cache_epoch;	/* sim_cache_epoch at the boot	*/
static int in_event;			/* an event callback is running	*/
static uint64_t event_now_ps;		/* its deadline			*/
static uint64_t last_progress_ps;	/* livelock watchdog		*/
/* Events fired past the livelock deadline without a dispatch between
 * them before the watchdog gives up (dispatch_fire_due()). */
#define SIM_LATE_EVENTS_MAX	100000
static uint64_t livelock_ps = 10ULL * 1000 * 1000 * 1000 * 1000;
/* livelock_deadline()'s value, kept by set_progress_ps() and
 * sim_set_livelock_ps(): every dispatch reads it twice */
static uint64_t livelock_at_ps;
static int check_state;			/* FUTEXSIM_CHECK_STATE=1	*/
static int nr_parked;			/* CPUs parked in a spin-wait	*/
/*
 * The CPUs waiting on each line, by sim_cache_line_id() (dense from 1):
 * park_first[line] is the CPU number + 1 of the first (0: nobody), the
 * others follow through park_next/park_prev (CPU numbers, -1 at the
 * ends).  A store to a line nobody waits on reads one word; a store to
 * a waited-on line visits its waiters only, not every parked CPU.  The
 * order of a line's list does not matter: unpark() of one CPU touches
 * no other's clock, and the run heap orders by (clock, CPU number).
 */
static int32_t *park_first;
static size_t park_cap;
/* the waiters changed since the last check: the check runs in full (only
 * this file writes them: park(), unpark(), sim_machine_init()) */
static bool park_changed;
/* A spin-wait's reload made by the dispatcher (spin_reload_run()): its
 * CPU's state, and whether it may be (not in explore, under a store
 * buffer, recording or replaying; FUTEXSIM_SPIN_RELOAD_RUN=0). */
enum sim_spin_reload { SPIN_RELOAD_NONE, SPIN_RELOAD_DUE, SPIN_RELOAD_MADE };
/* the bits of sim_cpu.spin_until that ask the dispatcher for the test */
#define SPIN_UNTIL_TEST	(SIM_SPIN_UNTIL_EQ | SIM_SPIN_UNTIL_NE)
static bool spin_reload_on;
struct sim_spin_reload_stats sim_spin_reload_stats;
int sim__spin_reload_test;
static jmp_buf abort_jb;		/* sim_run_abort() from main	*/

/* The watchdog's deadline after progress at @ps (or a new bound), never
 * past the clocks' limit (SIM_CLOCK_MAX_PS): a bound near 2^64 ps means
 * the limit only. */
static void set_progress_ps(uint64_t ps)
{
	uint64_t d;

	last_progress_ps = ps;
	if (__builtin_add_overflow(ps, livelock_ps, &d) || d > SIM_CLOCK_MAX_PS)
		d = SIM_CLOCK_MAX_PS;
	livelock_at_ps = d;
}

/* sim_hook()'s gate: a task runs (not the boot, not an event).  Set
 * wherever sim_cur or in_event change. */
static inline void hooks_live_update(void)
{
	sim__hooks_live = sim_cur && !in_event;
}

/*
 * The CPUs whose clock may have moved since sim_clocks_moved_take(): a
 * clock moves only while its CPU executes (it is marked when it starts
 * to) or when an event or a write moves it from outside (tick_fire(),
 * kick_fire(), unpark(), which mark it).
 */
static uint64_t clock_moved[SIM_MAX_CPUS / 64];

static inline void mark_moved(const struct sim_cpu *c)
{
	unsigned int cpu = (unsigned int)c->k.cpu;

	clock_moved[cpu / 64] |= 1ULL << (cpu % 64);
}

void sim_clocks_moved_take(uint64_t moved[SIM_MAX_CPUS / 64])
{
	memcpy(moved, clock_moved, sizeof(clock_moved));
	memset(clock_moved, 0, sizeof(clock_moved));
	if (sim_cur)		/* it goes on executing */
		mark_moved(sim_cur);
}

/* @c executes now (NULL: none): the gate, and under memory=tso|arm64 the
 * store-buffer overlay that memory shows (sim/machine/memmodel.h). */
static inline void set_cur(struct sim_cpu *c)
{
	sim_cur = c;
	if (c)
		mark_moved(c);
	hooks_live_update();
	if (__builtin_expect(sim__sb_on, 0))
		sim_sb_switch(c);
}

/* The layers' state checkers (SIM_STATE_CHECKER() of sim/machine/hooks.h),
 * in calling order: (order, name) ascending, whatever the link order. */
#define SIM_MAX_CHECKERS 8
static struct checker {
	const char *name;
	void (*check)(void);
	int order;
} checkers[SIM_MAX_CHECKERS];
static int nr_checkers;

void sim_state_checker_add(const char *name, void (*check)(void), int order)
{
	int i;

	if (nr_checkers == SIM_MAX_CHECKERS)
		abort();	/* a build with more layers: raise the bound */
	for (i = nr_checkers; i > 0; i--) {
		const struct checker *p = &checkers[i - 1];

		if (p->order < order ||
		    (p->order == order && strcmp(p->name, name) < 0))
			break;
		checkers[i] = *p;
	}
	checkers[i] = (struct checker){ name, check, order };
	nr_checkers++;
}

const char *sim_state_checker_name(int i)
{
	return i >= 0 && i < nr_checkers ? checkers[i].name : NULL;
}

/* Per-CPU template section of the kernel side (sim/arch percpu.h). */
extern char __start_sim_percpu[] __attribute__((weak));
extern char __stop_sim_percpu[] __attribute__((weak));

static void percpu_init(void)
{
	/* two linker symbols delimit one section: compare them as numbers */
	size_t size = (uintptr_t)__stop_sim_percpu - (uintptr_t)__start_sim_percpu;

	for (int cpu = 0; cpu < sim.nr_cpus; cpu++) {
		char *copy = sim_arena_alloc(size ? size : 16, 64);

		if (size)
			memcpy(copy, __start_sim_percpu, size);
		sim_percpu_offset[cpu] = (unsigned long)copy -
					 (unsigned long)__start_sim_percpu;
	}
}

static void tick_fire(struct sim_event *ev);
static void kick_fire(struct sim_event *ev);
static struct sim_cpu *sim__explore_next(struct sim_cpu *held);

/* struct sim_machine past its two arrays, which sim_machine_init() clears
 * only as far as they were used */
#define MACHINE_TAIL	(offsetof(struct sim_machine, tasks) + sizeof(sim.tasks))
_Static_assert(offsetof(struct sim_machine, tasks) ==
	       offsetof(struct sim_machine, cpus) + sizeof(sim.cpus),
	       "sim_machine_init() clears what lies around cpus[] and tasks[]");

/* The host thread's errno: every task runs on that one thread, so its
 * address never changes; taken once, not through __errno_location() at
 * every switch. */
static int *host_errno;

void sim_machine_init(const struct sim_preset *preset, int nr_cpus,
		      uint64_t seed)
{
	const char *cs = getenv("FUTEXSIM_CHECK_STATE");

	host_errno = &errno;
	/* explore mode runs many machines in one process: free the last */
	for (int i = 0; i < sim.nr_tasks; i++) {
		sim_coro_destroy(&sim.tasks[i]->coro);
		free(sim.tasks[i]);
	}
	/* an aborted run's spinners: their lines' ids come again */
	for (int i = 0; nr_parked && i < sim.nr_cpus; i++)
		if (sim.cpus[i].parked) {
			park_first[sim.cpus[i].park_line] = 0;
			nr_parked--;
		}
	park_changed = true;
	/*
	 * Back to all zeros, as at the start of the process; only what the
	 * last machine used can be other than zero (a machine per explore
	 * run: clearing all SIM_MAX_CPUS CPUs and SIM_MAX_TASKS slots would
	 * cost as much as the run).
	 */
	memset(sim.cpus, 0, (size_t)sim.nr_cpus * sizeof(sim.cpus[0]));
	memset(sim.tasks, 0, (size_t)sim.nr_tasks * sizeof(sim.tasks[0]));
	memset(&sim, 0, offsetof(struct sim_machine, cpus));
	memset((char *)&sim + MACHINE_TAIL, 0, sizeof(sim) - MACHINE_TAIL);
	in_event = 0;
	set_cur(NULL);
	memset(clock_moved, 0, sizeof(clock_moved));
	running_coro = NULL;
	horizon_ps = 0;
	event_now_ps = 0;
	set_progress_ps(0);
	sim_runheap_reset();
	sim_oracle_watch(NULL);		/* the workload names its lock word */
	sim.preset = preset;
	sim.nr_cpus = nr_cpus;
	sim.seed = seed;
	sim_nr_cpus = nr_cpus;
	sim_prng_seed(&sim_rng, seed);
	sim_arena_init();
	sim_events_reset();
	memcpy(cost_ps, preset->access_ps, sizeof(cost_ps));
	check_state = cs && *cs == '1';

	for (int i = 0; i < nr_cpus; i++) {
		struct sim_cpu *c = &sim.cpus[i];

		c->k.cpu = i;
		c->run_idx = -1;
		sim_preset_topology(preset, i, &c->socket, &c->core, &c->thread);
		sim_event_init(&c->tick, tick_fire);
		sim_event_init(&c->kick, kick_fire);
		c->tick.cpu = c->kick.cpu = i;
	}
	sim_cache_init(preset);
	cache_epoch = sim_cache_epoch;
	sim_sb_reset();
	cache_on = preset->cache_model;
	percpu_init();
	sched_init();
	sim_this_cpu = &sim.cpus[0].k;	/* the boot CPU runs the initcalls */
	ksim_boot();
	sim_failure_install();
}

/* The arena's reset runs before sim_cache_init() and cache_on's new
 * value: the model still holds the lines of the last machine, if no one
 * else reset it since its boot. */
int sim_lines_touched(unsigned long lo, unsigned long hi,
		      void (*fn)(unsigned long line, void *arg), void *arg)
{
	if (!cache_on || cache_epoch != sim_cache_epoch)
		return 0;
	sim_cache_each_line(lo, hi, fn, arg);
	return 1;
}

void sim_set_check_state(int on)
{
	check_state = on;
}

int sim_check_state(void)
{
	return check_state;
}

void sim_set_livelock_ps(uint64_t ps)
{
	livelock_ps = ps;
	set_progress_ps(last_progress_ps);
}

/* ---- clock -------------------------------------------------------------- */

uint64_t sim_now_ps(void)
{
	if (in_event || !sim_cur)
		return event_now_ps;
	return sim_cur->now_ps;
}

unsigned long long sim_now_ns(void)
{
	return sim_now_ps() / 1000;
}

void sim_charge_ps(uint64_t ps)
{
	if (sim_cur && !in_event)
		sim_cur->now_ps += ps;
}

uint64_t sim_jitter_ps(uint64_t ps)
{
	uint64_t span = ps / 4;		/* +-12.5% */

	if (!span)
		return ps;
	return ps - span / 2 + sim_draw(SIM_DEC_JITTER, span + 1);
}

void sim_progress(void)
{
	set_progress_ps(sim_now_ps());
	sim.counters.progress++;
}

void *sim_task_kt(const struct sim_task *t)
{
	return t->kt;
}

struct sim_task *sim_current(void)
{
	return sim_cur ? sim_cur->curr : NULL;
}

/* ---- events -------------------------------------------------------------- */

void sim_event_start(struct sim_event *ev, uint64_t when_ps, int cpu)
{
	ev->cpu = cpu;
	sim_events_add(ev, when_ps);
	if (when_ps < horizon_ps)
		horizon_ps = when_ps;
}

void sim_timer_start_ns(struct sim_event *ev, unsigned long long expires_ns,
			unsigned long long range_ns)
{
	uint64_t slack_ps = 0;

	if (range_ns)
		slack_ps = sim_draw(SIM_DEC_SLACK, range_ns * 1000 + 1);
	sim_event_start(ev, expires_ns * 1000 + slack_ps,
			sim_cur ? sim_cur->k.cpu : 0);
}

int sim_timer_cancel(struct sim_event *ev)
{
	return sim_events_del(ev);
}

static void arm_tick(struct sim_cpu *c, uint64_t now_ps)
{
	uint64_t period = sim.preset->tick_ps;

	if (c->tick.heap_idx < 0)
		sim_event_start(&c->tick, (now_ps / period + 1) * period, c->k.cpu);
}

/*
 * unpark - a write may end @c's spin-wait.  The loop it stands for reloads
 * every iter = RELAX + LOAD after park_start (each reload an L1 hit, LOAD:
 * with the cache model the spinner holds the line until a write
 * invalidates it, and that write is what unparks it); the first reload
 * that completes strictly after @after_ps sees the write.  The clock stops
 * just before that reload, which the caller then performs and is charged
 * for (with the cache model, the miss).
 */
static void unpark(struct sim_cpu *c, uint64_t after_ps)
{
	uint64_t iter = cost_ps[SIM_RELAX] + cost_ps[SIM_LOAD];
	uint64_t k = 1;

	if (after_ps >= c->park_start_ps && iter)
		k = (after_ps - c->park_start_ps) / iter + 1;
	c->now_ps = c->park_start_ps + k * iter - cost_ps[SIM_LOAD];
	mark_moved(c);
	c->parked = false;
	park_changed = true;
	if (c->park_prev >= 0)
		sim.cpus[c->park_prev].park_next = c->park_next;
	else
		park_first[c->park_line] = c->park_next + 1;
	if (c->park_next >= 0)
		sim.cpus[c->park_next].park_prev = c->park_prev;
	nr_parked--;
	sim_runheap_add(c);
	if (c->now_ps < horizon_ps)
		horizon_ps = c->now_ps;
}

/*
 * The machine's own invariants, in a checked run: nr_parked counts the
 * CPUs flagged parked; a parked CPU is out of the run heap and on the
 * list of its line; every CPU on such a list is parked on that line, its
 * back link the CPU before it (-1 at the head).  Each list is walked
 * once, from its head.  A CPU of another
 * machine left on a list (a run aborted with a spinner, then a new
 * machine) shows as a listed CPU that is not parked, or as a broken
 * link.  dispatch_check() runs it first, before the layers' checkers, at
 * the first dispatch after a change of the waiters (park_changed); at
 * the others the same state would pass again.
 */
static void machine_check(int ok, const char *what)
{
	if (!ok)
		sim_fail(SIM_FAIL_INVARIANT, what);
}

static void machine_assert_state(void)
{
	uint64_t listed[SIM_MAX_CPUS / 64] = { 0 };
	int flagged = 0;

	/* each list whose head is parked, once, head to tail */
	for (int i = 0; i < sim.nr_cpus; i++) {
		const struct sim_cpu *c = &sim.cpus[i];
		int prev = -1, n = 0;

		if (!c->parked || c->park_line >= park_cap ||
		    park_first[c->park_line] - 1 != i)
			continue;
		for (int cpu = i; cpu >= 0; cpu = sim.cpus[cpu].park_next) {
			const struct sim_cpu *w = &sim.cpus[cpu];

			machine_check(cpu < sim.nr_cpus && ++n <= sim.nr_cpus,
				      "a line's waiter list leaves the CPUs or loops");
			machine_check(w->parked && w->park_line == c->park_line,
				      "a CPU on a line's waiter list is not parked on that line");
			machine_check(w->park_prev == prev,
				      "a line's waiter list has a wrong back link");
			listed[cpu / 64] |= 1ULL << (cpu % 64);
			prev = cpu;
		}
	}
	for (int i = 0; i < sim.nr_cpus; i++) {
		const struct sim_cpu *c = &sim.cpus[i];

		if (!c->parked)
			continue;
		flagged++;
		machine_check(!sim_runheap_contains(c),
			      "a parked CPU is in the run heap");
		machine_check(c->park_line < park_cap,
			      "a parked CPU's line has no waiter list");
		machine_check(listed[i / 64] >> (i % 64) & 1,
			      "a parked CPU is not on its line's waiter list");
	}
	machine_check(flagged == nr_parked,
		      "nr_parked is not the number of parked CPUs");
	park_changed = false;
}

/* Every CPU parked on @line resumes its spin to see a write at @after_ps. */
static void unpark_line(uint64_t line, uint64_t after_ps)
{
	int32_t first;

	while ((first = park_first[line]))
		unpark(&sim.cpus[first - 1], after_ps);	/* unlinks it */
}

/*
 * sim__wake_spinners - a store or RMW by the running CPU to @addr, issued
 * at @issue_ps (its hook's clock before the charge; ~0 if the task was
 * preempted in its hook) and performed now, at @now_ps, ends the
 * spin-waits on its line.  Which reload sees it:
 *   flat costs   the first one that completes after now_ps (the writer's
 *                hook runs before its store, so timed mode runs the store
 *                first only for a reload after the writer's clock);
 *   cache model  the first one issued at or after issue_ps: the write
 *                invalidated the spinner's copy when its hook ran, so
 *                that reload misses, waits for the write (the line is
 *                busy until now_ps) and pays the transfer, as the loop
 *                would have.  With line-handover = arrival, hook_arrive()
 *                passes arrival - LOAD: reloads that complete before the
 *                arrival are hits under the line's grace (sim/cache/cache.h).
 */
static void sim__wake_spinners(const volatile void *addr, uint64_t issue_ps,
			       uint64_t now_ps)
{
	uint64_t line = sim_cache_line_id(addr);
	uint64_t after = now_ps;

	if (line >= park_cap || !park_first[line])
		return;
	if (cache_on && issue_ps <= now_ps) {
		/* a reload issued at p >= issue_ps completes at p + LOAD */
		after = issue_ps + cost_ps[SIM_LOAD];
		if (after)
			after--;
	}
	unpark_line(line, after);
}

void sim__spin_store_visible(const volatile void *addr, uint64_t when_ps)
{
	uint64_t line;

	if (!nr_parked)
		return;
	line = sim_cache_line_id(addr);
	if (line >= park_cap || !park_first[line])
		return;
	unpark_line(line, when_ps);
}

static void tick_fire(struct sim_event *ev)
{
	struct sim_cpu *c = &sim.cpus[ev->cpu];

	if (!c->curr)
		return;		/* idle: the tick stops (NO_HZ idle) */
	if (c->parked)
		unpark(c, ev->when_ps);	/* let the spinner see need_resched */
	/*
	 * The tick interrupt's handler runs on this busy CPU: its task
	 * resumes tick-cost later.  Every CPU is at or past when_ps here (the
	 * event fired before the earliest running CPU), so the time is
	 * taken at the task's next instruction, wherever it is: no
	 * IRQs-off region is modelled.  It is also what stirs lock
	 * hand-over cycles that an exactly timed machine would otherwise
	 * repeat for ever (docs/model.md, "Tick cost").  The
	 * run heap is ordered by the clocks: out and back in.
	 */
	if (sim.preset->tick_cost_ps) {
		bool queued = sim_runheap_contains(c);

		if (queued)
			sim_runheap_remove(c);
		c->now_ps += sim.preset->tick_cost_ps;
		mark_moved(c);
		if (queued)
			sim_runheap_add(c);
	}
	sched_tick(c);
	arm_tick(c, ev->when_ps);
}

void sim_cpu_kick(int cpu, uint64_t at_ps)
{
	struct sim_cpu *c = &sim.cpus[cpu];

	if (c->curr)
		return;
	if (c->kick.heap_idx >= 0) {
		if (c->kick.when_ps <= at_ps)
			return;
		sim_events_del(&c->kick);
	}
	sim_event_start(&c->kick, at_ps, cpu);
}

static void kick_fire(struct sim_event *ev)
{
	struct sim_cpu *c = &sim.cpus[ev->cpu];

	if (c->curr)
		return;
	if (c->now_ps < ev->when_ps)
		c->now_ps = ev->when_ps;
	mark_moved(c);
	sched_cpu_wakeup(c);
	if (c->curr) {
		arm_tick(c, c->now_ps);
		sim_runheap_add(c);
	}
}

static void fire(struct sim_event *ev)
{
	struct sim_cpu_kstate *saved = sim_this_cpu;

	sim_events_del(ev);
	sim.counters.events++;
	in_event = 1;
	hooks_live_update();
	event_now_ps = ev->when_ps;
	sim_this_cpu = &sim.cpus[ev->cpu].k;
	ev->fire(ev);
	sim_this_cpu = saved;
	in_event = 0;
	hooks_live_update();
}

/* ---- dispatch ---------------------------------------------------------- */

/* The livelock watchdog's deadline (set_progress_ps()). */
static inline uint64_t livelock_deadline(void)
{
	return livelock_at_ps;
}

/* What the CPU picked to run may run up to: the next CPU's clock, the
 * next event, and the livelock deadline. */
static uint64_t compute_horizon(void)
{
	uint64_t h = livelock_deadline();
	struct sim_event *ev = sim_events_peek();

	if (ev && ev->when_ps < h)
		h = ev->when_ps;
	if (sim_runheap_min_ps() < h)
		h = sim_runheap_min_ps();
	return h;
}

static void run_over(void)
{
	struct sim_coro *from = running_coro;

	if (sim_explore_on && sim_explore_solo_on())
		sim_sb_certify_end();	/* a promise's window: the end */
	if (sim.nr_live)
		sim_fail(SIM_FAIL_DEADLOCK,
			 "every task is blocked and no timer is pending");
	set_cur(NULL);
	sim_current_kt = NULL;
	sim__stack_lo = sim__stack_hi = 0;
	running_coro = &main_coro;
	sim.counters.switches++;
	sim_coro_switch(from, &main_coro);
	sim_fail(SIM_FAIL_INVARIANT, "a finished run was resumed");
}

/* Make @c the executing CPU: the globals the hooks and the kernel side
 * read (its task's, which it runs or whose rounds ospin_run() makes). */
static inline __attribute__((always_inline)) void
make_current(struct sim_cpu *c)
{
	struct sim_task *t = c->curr;

	set_cur(c);
	sim_this_cpu = &c->k;
	sim_current_kt = t->kt;
	sim__stack_lo = (unsigned long)t->coro.stack;
	sim__stack_hi = sim__stack_lo + t->coro.stack_size;
}

/* Make @c the executing CPU and switch to its current task. */
static void resume(struct sim_cpu *c)
{
	struct sim_task *t = c->curr;
	struct sim_coro *from = running_coro;
	int e;

	make_current(c);
	if (&t->coro == from)
		return;
	sim_decision(SIM_DEC_SWITCH, c->now_ps, c->k.cpu, t->tid);
	running_coro = &t->coro;
	sim.counters.switches++;
	e = *host_errno;	/* each task keeps its own errno */
	sim_coro_switch(from, &t->coro);
	*host_errno = e;
	/* resumed: whoever switched back to us set the globals */
}

/* Phase 1: fire every event due before the earliest CPU that may run
 * (the CPU that dispatches is put back among them first); with no CPU
 * and no event left, the run is over. */
static void dispatch_fire_due(void)
{
	struct sim_cpu *c = sim_cur;
	unsigned int late = 0;

	if (c && c->curr && !c->parked && !sim_runheap_contains(c))
		sim_runheap_add(c);
	for (;;) {
		struct sim_event *ev = sim_events_peek();
		uint64_t earliest_ps = sim_runheap_min_ps();

		if (ev && ev->when_ps <= earliest_ps) {
			/*
			 * The watchdog of dispatch_check() sees the clocks
			 * of the CPUs it dispatches; events that keep firing
			 * past the deadline with no CPU ever dispatched (a
			 * tick handler that eats the whole period, which a
			 * machine file cannot give: sim/scenario/preset.c)
			 * would never reach it.
			 */
			if (ev->when_ps >= livelock_deadline() &&
			    ++late > SIM_LATE_EVENTS_MAX)
				sim_fail(SIM_FAIL_LIVELOCK,
					 "events kept firing past the livelock bound and no CPU could run a task");
			fire(ev);
			continue;
		}
		if (earliest_ps == UINT64_MAX)
			run_over();
		return;
	}
}

/* Phase 2: the CPU that runs next: the smallest clock (timed mode), or
 * the strategy's choice (explore mode). */
static struct sim_cpu *dispatch_pick(void)
{
	return sim_explore_on ? sim__explore_next(NULL) :
		sim_runheap_pop_earliest();
}

/* hook_charge()'s @asked_ps when nobody asked the hit rule yet */
#define HOOK_UNPRICED	(SIM_CACHE_NOT_HIT - 1)

static inline uint64_t hook_charge(struct sim_cpu *c, enum sim_access kind,
				   const volatile void *addr, unsigned int size,
				   uint64_t asked_ps);

/* The charge of a made round's hook @h: its hit rule asked with the line
 * the round keeps (no memo lookup). */
static inline uint64_t ospin_charge(struct sim_cpu *c,
				    const struct sim_ospin_hook *h)
{
	return hook_charge(c, h->kind, h->addr, h->size, likely(cache_on) ?
			   sim_cache_hit_line_ps(c, h->kind, h->line, c->now_ps) :
			   HOOK_UNPRICED);
}

/*
 * ospin_run - @c, in (RUN) (sim/machine/ospin.h), is the CPU to run: make
 * its owner-spin rounds as the hooks would, each access compared with
 * the round's and each next hook charged through the cost model, with no
 * code and no switch, until its clock reaches the horizon.
 * Return: 1 there (dispatch again, from @c), 0 if an access or a charge
 * is not the round's (resume @c's task, which replays to that hook).
 */
static int ospin_run(struct sim_cpu *c)
{
	unsigned int p = c->os.pos;

	make_current(c);
	for (;;) {
		const struct sim_ospin_hook *h;
		uint64_t issue_ps, post_ps;
		/* R reads nothing: with no need_resched, it is the round's */
		int cause = p == OSPIN_R && !c->k.need_resched ? -1 :
			    sim_ospin_access_same(c, p);

		if (cause >= 0) {
			sim_ospin_leave(c, p, cause, 0);
			return 0;
		}
		p = p == OSPIN_HOOKS - 1 ? 0 : p + 1;
		h = &c->os.round[p];
		sim.counters.hooks++;
		issue_ps = c->now_ps;
		post_ps = ospin_charge(c, h);
		if (post_ps || c->now_ps - issue_ps != h->cost_ps) {
			sim_ospin_leave(c, p, OSPIN_CHARGE, post_ps);
			return 0;
		}
		if (c->now_ps >= horizon_ps) {
			c->os.pos = p;
			return 1;
		}
	}
}

/*
 * spin_reload_run - @c, whose task waits in sim_spin_wait_reload() and was
 * unparked, is the CPU to run: make its next steps, sim_spin_reload()
 * (unless its loop makes none) and the hooked load of the word, as the
 * task would (sim__hook(), then hook_all() up to its dispatch), with no
 * switch; for a wait for a value, also its test (spin_reload_settle()).
 * Return: 1 if the load's charge reached the horizon (dispatch again,
 * from @c; the task pays the arrival's rest when it resumes), 0 to resume
 * the task now.
 */
static uint64_t hook_arrive(struct sim_cpu *c, uint64_t *post_ps);
static void park(struct sim_cpu *c, const volatile void *addr);

/* The word @c's spin-wait reloads, as an unsigned integer. */
static uint64_t park_word(const struct sim_cpu *c)
{
	switch (c->park_size) {
	case 1:
		return *(const volatile uint8_t *)c->park_addr;
	case 2:
		return *(const volatile uint16_t *)c->park_addr;
	case 4:
		return *(const volatile uint32_t *)c->park_addr;
	default:
		return *(const volatile uint64_t *)c->park_addr;
	}
}

/*
 * spin_reload_settle - @c's reload is made and paid for; its task would
 * now read the word and test it.  For a wait for a value
 * (sim_spin_wait_reload_until()) the test is made here: while the wait
 * goes on, the loop's next step is its park, so @c parks again, its
 * reload due, as sim_spin_wait_reload_until() would have.
 * Return: 1 if @c parked again (dispatch on), 0 to resume its task.
 */
static int spin_reload_settle(struct sim_cpu *c)
{
	uint64_t v;

	if (likely(!(c->spin_until & SPIN_UNTIL_TEST)))
		return 0;
	v = park_word(c);
	if ((v == c->spin_value) == !!(c->spin_until & SIM_SPIN_UNTIL_EQ))
		return 0;
	if (v != c->spin_first &&
	    likely(!(sim__spin_reload_test & SPIN_RELOAD_TEST_NO_CHANGED)))
		c->spin_changed = true;
	sim_spin_reload_stats.reparked++;
	park(c, c->park_addr);
	c->spin_reload = SPIN_RELOAD_DUE;
	return 1;
}

static int spin_reload_run(struct sim_cpu *c)
{
	uint64_t ps, post_ps;

	make_current(c);
	if (c->k.need_resched || c->ospin) {
		c->spin_reload = SPIN_RELOAD_NONE;	/* the task makes it */
		sim_spin_reload_stats.left++;
		return 0;
	}
	c->spin_reload = SPIN_RELOAD_MADE;
	sim_spin_reload_stats.made++;
	if (likely(cache_on) &&
	    likely(!(c->spin_until & SIM_SPIN_UNANNOUNCED)) &&
	    likely(!(sim__spin_reload_test & SPIN_RELOAD_TEST_NO_ANNOUNCE)))
		sim_cache_spin_reload(c, c->now_ps);
	ps = likely(cache_on) ?
		sim_cache_hit_ps(c, SIM_LOAD, c->park_addr, c->now_ps) :
		cost_ps[SIM_LOAD];
	sim.counters.hooks++;
	if (ps != SIM_CACHE_NOT_HIT && c->now_ps + ps < horizon_ps) {
		c->now_ps += ps;
		return spin_reload_settle(c);
	}
	post_ps = hook_charge(c, SIM_LOAD, c->park_addr, c->park_size, ps);
	if (unlikely(sim__spin_reload_test & SPIN_RELOAD_TEST_NO_ARRIVAL))
		post_ps = 0;
	if (c->now_ps >= horizon_ps) {
		c->spin_post_ps = post_ps;
		sim_spin_reload_stats.past_horizon++;
		return 1;
	}
	if (post_ps)
		hook_arrive(c, &post_ps);
	return spin_reload_settle(c);
}

/*
 * spin_reload_late - @c's reload, made by spin_reload_run(), reached the
 * horizon, and @c is the CPU to run again: for a wait for a value, pay the
 * arrival's rest and test the word here, as the task would when it
 * resumes (unless a preemption is due: the task then does both).
 * Return: as spin_reload_settle().
 */
static int spin_reload_late(struct sim_cpu *c)
{
	uint64_t post_ps;

	if (likely(!(c->spin_until & SPIN_UNTIL_TEST)))
		return 0;
	make_current(c);
	if (c->k.need_resched || c->ospin)
		return 0;
	post_ps = c->spin_post_ps;
	c->spin_post_ps = 0;
	if (post_ps)
		hook_arrive(c, &post_ps);
	if (!spin_reload_settle(c))
		return 0;
	sim_spin_reload_stats.reparked_late++;
	return 1;
}

/* Phase 1 has nothing to do but put the dispatching CPU @c back in the
 * run heap: @c may run on (a task, not parked, not in the heap) and no
 * event is due before the earliest clock, @c's included. */
static inline bool dispatch_only_put_back(const struct sim_cpu *c)
{
	struct sim_event *ev = sim_events_peek();
	uint64_t earliest_ps = sim_runheap_min_ps();

	if (!c || !c->curr || c->parked || sim_runheap_contains(c))
		return false;
	if (c->now_ps < earliest_ps)
		earliest_ps = c->now_ps;
	return !ev || ev->when_ps > earliest_ps;
}

/* Phases 1 and 2 in one when phase 1 only puts back (timed mode):
 * sim_runheap_push_pop().  NULL: the two phases as they are. */
static inline struct sim_cpu *dispatch_fast(void)
{
	return dispatch_only_put_back(sim_cur) ?
		sim_runheap_push_pop(sim_cur) : NULL;
}

/* The same in explore mode, where every hook dispatches: the dispatching
 * CPU is not put back to be taken out again if the strategy keeps it
 * running; it is a candidate as if it were in the heap
 * (sim_explore_pick()).  NULL: the two phases as they are. */
static struct sim_cpu *dispatch_explore_fast(void)
{
	return dispatch_only_put_back(sim_cur) ?
		sim__explore_next(sim_cur) : NULL;
}

/* Phase 3: the checks of every dispatch: the livelock watchdog, then,
 * when asked for, the machine's own (its waiter lists) and every layer's
 * state checker. */
static void dispatch_check(const struct sim_cpu *next)
{
	if (next->now_ps >= livelock_deadline())
		sim_fail(SIM_FAIL_LIVELOCK, next->now_ps >= SIM_CLOCK_MAX_PS ?
			 "the simulated clock reached its limit (2^62 ps, 53 days)" :
			 "no task completed an operation within the livelock bound");
	if (!check_state)
		return;
	if (park_changed)
		machine_assert_state();		/* the machine's own, first */
	for (int i = 0; i < nr_checkers; i++)
		checkers[i].check();
}

/* The body of the main loop: fire, pick, check, switch (phase 4,
 * resume()); the preemption phase runs back on the dispatching CPU
 * (preempt_point()). */
static void sim__dispatch(void)
{
	struct sim_cpu *next;

	for (;;) {
		next = sim_explore_on ? dispatch_explore_fast() :
			dispatch_fast();
		if (!next) {
			dispatch_fire_due();
			next = dispatch_pick();
		}
		dispatch_check(next);
		/* explore mode: every hook is a scheduling point */
		horizon_ps = sim_explore_on ? 0 : compute_horizon();
		/* a spin-wait's reload made here, and its test for a value */
		if (unlikely(next->spin_reload != SPIN_RELOAD_NONE)) {
			if (next->spin_reload == SPIN_RELOAD_DUE ?
			    spin_reload_run(next) : spin_reload_late(next))
				continue;
			break;
		}
		/* owner-spin rounds made here, to the horizon (ospin.h) */
		if (likely(next->ospin != OSPIN_RUN) || !ospin_run(next))
			break;
	}
	resume(next);
}

/* Back on our CPU after a dispatch: honour a pending preemption. */
static void preempt_point(struct sim_cpu *c)
{
	if (likely(!c->k.need_resched))
		return;
	if (c->k.preempt_count == 0) {
		sched_preempt();
		return;
	}
	horizon_ps = 0;		/* look again at every hook until possible */
}

/*
 * hook_arrive - line-handover = arrival (sim/cache/cache.h): @c's clock is at
 * its miss's arrival, every CPU with an earlier clock has run; the access
 * is performed when the hook returns, and @c pays the rest, *@post_ps.
 * Return: for sim__wake_spinners(), the issue of the first reload that
 * sees the access, the first that completes at or after the arrival
 * (earlier ones are hits under the line's grace).
 */
static uint64_t hook_arrive(struct sim_cpu *c, uint64_t *post_ps)
{
	uint64_t arrive_ps = c->now_ps;

	sim_cache_arrive(c);
	c->now_ps += *post_ps;
	*post_ps = 0;
	return arrive_ps > cost_ps[SIM_LOAD] ? arrive_ps - cost_ps[SIM_LOAD] : 0;
}

/* The charge of one access to @c's clock: the cache-line model's price,
 * or the flat one.  @asked_ps: what the caller already knows, the price
 * (a hit's, or the flat one), SIM_CACHE_NOT_HIT (the hit rule was asked
 * for this access now: the miss's price, with no second look at the
 * memo) or HOOK_UNPRICED.  Return: the part paid after the dispatch
 * (arrival mode), else 0. */
static inline uint64_t hook_charge(struct sim_cpu *c, enum sim_access kind,
				   const volatile void *addr, unsigned int size,
				   uint64_t asked_ps)
{
	uint64_t post_ps = 0;

	if (asked_ps < HOOK_UNPRICED) {
		c->now_ps += asked_ps;
	} else if (likely(cache_on)) {
		c->now_ps += asked_ps == SIM_CACHE_NOT_HIT ?
			sim__cache_miss(c, kind, addr, c->now_ps) :
			sim_cache_access(c, kind, addr, size, c->now_ps);
		if (unlikely(sim__cache_post_ps)) {	/* arrival mode */
			post_ps = sim__cache_post_ps;
			sim__cache_post_ps = 0;
		}
	} else {
		c->now_ps += cost_ps[kind];
	}
	return post_ps;
}

/* memory=tso|arm64 at a hook of @c, before its scheduling point (out of
 * line: the hook's own path stays short): stores drain as the model has
 * it; a locked RMW, a fence, or a store that is not buffered (the
 * kernel's) drains the CPU's stores first, unless the caller orders
 * them (sim__sb_keep; sim/machine/memmodel.h). */
static void __attribute__((noinline, cold))
sb_hook(struct sim_cpu *c, enum sim_access kind, int keep)
{
	sim_sb_hook(c);
	if ((kind == SIM_RMW || kind == SIM_FENCE || kind == SIM_STORE) &&
	    !keep)
		sim_sb_drain_stores(c);	/* the view: sb_settle() */
}

/* The same after the scheduling point, right before the access, when
 * the other CPUs may have made stores visible: the lagging view settles
 * (arm64), an RMW reads the latest and a fence refreshes the view, and
 * a load of the code at @pc may pass the CPU's buffered stores or read
 * bytes its view lags over. */
static void __attribute__((noinline, cold))
sb_settle(struct sim_cpu *c, enum sim_access kind, const volatile void *addr,
	  unsigned int size, uintptr_t pc, int keep)
{
	if ((kind == SIM_RMW || kind == SIM_FENCE) && !keep) {
		sim_sb_refresh(c);	/* nothing left to settle */
	} else {
		sim_sb_settle(c);
		if (kind == SIM_RMW)	/* ordered by its caller: its bytes */
			sim_sb_rmw(c, addr, size);
		else if (kind == SIM_LOAD && sim_sb_busy(c->k.cpu))
			sim_sb_load(c, addr, size, pc);
	}
}

/* Every hook of a task (sim_hook(), sim/machine/hooks.h, calls it only
 * when sim__hooks_live: never at boot or in an event): charge the
 * access; past the horizon, dispatch, then the preemption point; last,
 * the access may end other CPUs' spin-waits.  hook_all() is all of it;
 * sim__hook() first takes the common case with no frame: an access that
 * changes no line (sim_cache_hit_ps()) and leaves the clock below the
 * horizon, by a CPU with no owner-spin rounds and no store buffer, and
 * no spinner to end; what it does then is what hook_all() would.  What
 * it asked goes to hook_all() as @asked_ps (hook_charge()): a hit's
 * price when the hit reaches the horizon, SIM_CACHE_NOT_HIT for a miss,
 * so that neither asks the memo again; HOOK_UNPRICED when it did not
 * ask. */
static void __attribute__((noinline))
hook_all(enum sim_access kind, const volatile void *addr, unsigned int size,
	 uint64_t asked_ps);

void sim__hook(enum sim_access kind, const volatile void *addr, unsigned int size)
{
	struct sim_cpu *c = sim_cur;
	uint64_t ps = HOOK_UNPRICED;

	if (likely(!c->ospin && !sim__sb_on) &&
	    !(nr_parked && (kind == SIM_STORE || kind == SIM_RMW))) {
		ps = likely(cache_on) ? sim_cache_hit_ps(c, kind, addr, c->now_ps) :
			cost_ps[kind];
		if (ps != SIM_CACHE_NOT_HIT && c->now_ps + ps < horizon_ps) {
			sim.counters.hooks++;
			c->now_ps += ps;
			return;
		}
	}
	hook_all(kind, addr, size, ps);
}

static void hook_all(enum sim_access kind, const volatile void *addr,
		     unsigned int size, uint64_t asked_ps)
{
	struct sim_cpu *c = sim_cur;
	uint64_t issue_ps, post_ps, sb_cost_ps = 0;
	int sb = 0;	/* memory=tso|arm64: 1, 2 if the caller orders it */

	if (unlikely(c->ospin == OSPIN_REPLAY)) {
		/* the owner-spin rounds the dispatcher made (ospin.h) */
		switch (sim_ospin_replay(c, kind, addr, size, &post_ps)) {
		case OSPIN_PAST:
			return;
		case OSPIN_MADE:
			preempt_point(c);
			return;
		case OSPIN_CHARGED:
			issue_ps = ~0ULL;
			goto charged;
		}
	}
	sim.counters.hooks++;
	if (unlikely(sim__sb_on)) {
		/* the caller's flag is this hook's: other CPUs' hooks run
		 * in its dispatch */
		sb = 1 + sim__sb_keep;
		sim__sb_keep = 0;
		sb_hook(c, kind, sb == 2);
	}
	issue_ps = c->now_ps;
	post_ps = hook_charge(c, kind, addr, size, asked_ps);
	if (sb)
		sb_cost_ps = c->now_ps - issue_ps + post_ps;
	if (unlikely(c->ospin == OSPIN_REC))
		sim_ospin_charged(c, kind, addr, size, c->now_ps - issue_ps,
				  post_ps, c->now_ps >= horizon_ps);
charged:
	if (unlikely(c->now_ps >= horizon_ps)) {
		struct sim_cpu *was = c;
		uint64_t done_ps = c->now_ps + post_ps;

		if (sim_explore_on)
			sim_explore_note(c, kind, addr);
		sim__dispatch();
		c = sim_cur;
		if (post_ps)
			issue_ps = hook_arrive(c, &post_ps);
		preempt_point(c);
		c = sim_cur;
		if (c != was || c->now_ps != done_ps)
			issue_ps = ~0ULL;	/* preempted in the hook */
	}
	if (unlikely(post_ps))
		issue_ps = hook_arrive(c, &post_ps);
	if (sb) {
		sb_settle(c, kind, addr, size,
			  (uintptr_t)__builtin_return_address(0), sb == 2);
		sim__sb_cost_ps = sb_cost_ps;	/* for sim_sb_store(), next */
	}
	/*
	 * The access happens when we return, with no scheduling point in
	 * between: only now may a write end other CPUs' spin-waits (a
	 * spinner that read the old value while we were switched out has
	 * parked by now, and must see this write).
	 */
	if (unlikely(nr_parked) && (kind == SIM_STORE || kind == SIM_RMW))
		sim__wake_spinners(addr, issue_ps, c->now_ps);
}

void sim_spin_reload(void)
{
	if (likely(sim_cur && !in_event && cache_on))
		sim_cache_spin_reload(sim_cur, sim_cur->now_ps);
}

void sim_spin_done(int first_change)
{
	if (likely(sim_cur && !in_event && cache_on))
		sim_cache_spin_done(sim_cur, first_change);
}

/* Room in park_first[] for line id @line. */
static void park_first_grow(uint64_t line)
{
	size_t cap = park_cap ? park_cap : 1024;
	int32_t *p;

	while (cap <= line)
		cap *= 2;
	p = realloc(park_first, cap * sizeof(*p));
	if (!p) {
		fprintf(stderr, "futexsim: out of memory for the spin-wait table\n");
		exit(SIM_EXIT_HOST);
	}
	memset(p + park_cap, 0, (cap - park_cap) * sizeof(*p));
	park_first = p;
	park_cap = cap;
}

/* @c parks on @addr's line (sim_spin_wait_reload()). */
static void park(struct sim_cpu *c, const volatile void *addr)
{
	sim.counters.hooks++;
	c->now_ps += cost_ps[SIM_RELAX];
	c->parked = true;
	park_changed = true;
	c->park_line = sim_cache_line_id(addr);
	c->park_start_ps = c->now_ps - cost_ps[SIM_RELAX];
	nr_parked++;
	if (c->park_line >= park_cap)
		park_first_grow(c->park_line);
	c->park_prev = -1;
	c->park_next = park_first[c->park_line] - 1;
	if (c->park_next >= 0)
		sim.cpus[c->park_next].park_prev = c->k.cpu;
	park_first[c->park_line] = c->k.cpu + 1;
}

/* The body of sim_spin_wait_reload{,_until}(): park @c, dispatch, and
 * finish what the dispatcher left of the reload. */
static int spin_wait_reload(struct sim_cpu *c, const volatile void *addr,
			    unsigned int size)
{
	uint64_t post_ps;
	int ret = 0;

	park(c, addr);
	c->park_addr = addr;
	c->park_size = size;
	c->spin_reload = spin_reload_on ? SPIN_RELOAD_DUE : SPIN_RELOAD_NONE;
	sim__dispatch();
	c = sim_cur;
	if (c->spin_until && c->spin_changed)
		ret = SIM_SPIN_CHANGED;
	c->spin_until = 0;
	if (c->spin_reload != SPIN_RELOAD_MADE) {
		c->spin_reload = SPIN_RELOAD_NONE;
		preempt_point(c);
		return ret;
	}
	/* as hook_all() after the dispatch in its hook */
	c->spin_reload = SPIN_RELOAD_NONE;
	post_ps = c->spin_post_ps;
	c->spin_post_ps = 0;
	if (post_ps)
		hook_arrive(c, &post_ps);
	preempt_point(c);
	return ret | SIM_SPIN_MADE;
}

int sim_spin_wait_reload(const volatile void *addr, unsigned int size)
{
	struct sim_cpu *c = sim_cur;

	if (unlikely(!c || in_event))
		return 0;
	return spin_wait_reload(c, addr, size);
}

int sim_spin_wait_reload_until(const volatile void *addr, unsigned int size,
			       int until, unsigned long long value,
			       unsigned long long first)
{
	struct sim_cpu *c = sim_cur;
	uint64_t mask = size >= 8 ? ~0ULL : (1ULL << (8 * size)) - 1;

	if (unlikely(!c || in_event))
		return 0;
	c->spin_until = spin_reload_on ? until : 0;
	c->spin_changed = false;
	c->spin_value = value & mask;
	c->spin_first = first & mask;
	return spin_wait_reload(c, addr, size);
}

void sim_delay_ps(uint64_t ps)
{
	struct sim_cpu *c = sim_cur;

	c->now_ps += ps;
	if (c->now_ps < horizon_ps)
		return;
	sim__dispatch();
	preempt_point(sim_cur);
}

void sim_switch_to(struct sim_task *next)
{
	if (sim__sb_on)	/* a context switch drains the buffer */
		sim_sb_drain(sim_cur);
	sim_cur->curr = next;
	sim__dispatch();
}

/*
 * sim__explore_next - explore mode: the strategy (sim/explore/explore.c) takes a
 * CPU out of the run heap; then the events due by that CPU's clock fire,
 * so that timers and ticks keep up with a CPU the strategy runs ahead of
 * the others.
 */
static struct sim_cpu *sim__explore_next(struct sim_cpu *held)
{
	struct sim_cpu *next = sim_explore_pick(held);
	struct sim_event *ev;

	while ((ev = sim_events_peek()) && ev->when_ps <= next->now_ps)
		fire(ev);
	return next;
}

void sim_run_abort(void)
{
	struct sim_coro *from = running_coro;

	if (sim_explore_on && sim_explore_solo_on())
		sim_sb_certify_end();	/* a promise's window: the end */
	in_event = 0;
	set_cur(NULL);
	sim_current_kt = NULL;
	sim__stack_lo = sim__stack_hi = 0;
	if (from == &main_coro)
		longjmp(abort_jb, 1);
	running_coro = &main_coro;
	sim.counters.switches++;
	sim_coro_switch(from, &main_coro);
	sim_fail(SIM_FAIL_INVARIANT, "an aborted run was resumed");
}

/* Whether this run's dispatcher makes spin-wait reloads. */
static void spin_reload_setup(void)
{
	const char *e = getenv("FUTEXSIM_SPIN_RELOAD_RUN");

	spin_reload_on = !(e && strcmp(e, "0") == 0) && !sim_explore_on &&
			 !sim__sb_on && !sim_replay_active;
	memset(&sim_spin_reload_stats, 0, sizeof(sim_spin_reload_stats));
}

void sim_run(void)
{
	sim_ospin_setup();
	spin_reload_setup();
	sim_coro_init_main(&main_coro);
	running_coro = &main_coro;
	set_progress_ps(0);
	if (setjmp(abort_jb))
		return;		/* sim_run_abort() from the main context */
	sim__dispatch();
	/* every task has returned */
}

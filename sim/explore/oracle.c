/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sim/explore/oracle.c - the oracles of a run and its starvation figures (see
 * sim/explore/oracle.h).
 *
 * Stage: trace/report, beside the flow.  Called by the workload drivers
 * at each wait, acquisition and worker end, by the CLI's child and
 * sim/explore/explore_run.c to set the oracles and name failures.  Calls the
 * machine's clock and sim_fail() (sim/report/failure.c) when a starvation
 * oracle fires.  The failure report (sim/report/failure.c) and explore's
 * classification share one lost-wakeup diagnosis,
 * sim_oracle_lost_wakeup(), which reads the machine's tasks (the futex
 * word each sleeps on, set by sim/syscall/syscall.c) and names the op with
 * sim__trace_futex_op() (sim/trace/trace.c).
 *
 * Overtaking: while worker j waits, an acquisition by another worker
 * overtakes it if j sleeps, or if j's CPU has run since the last one that
 * did: an explore strategy that does not run j at all (PCT gives it the
 * lowest priority) starves j itself, and that is no fault of the lock.
 * Likewise a wait is measured on the waiter's own CPU clock, which only
 * moves when that CPU runs or idles.  In timed mode both are the plain
 * count and the plain wait.  The figure is the largest count one wait
 * reached.
 */
#include <linux/futex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sched/sched.h"
#include "sim/scenario/config.h"
#include "sim/machine/machine.h"
#include "sim/explore/oracle.h"
#include "sim/trace/trace_writer.h"
#include "sim/report/exit.h"

#define SHARE_WINDOW	10	/* x threads acquisitions		*/

struct sim_oracles sim_oracles;

struct waiter {
	const struct sim_task *task;	/* the waiter			*/
	uint64_t seen_ps;		/* its CPU's clock at the last overtake */
	uint64_t since_ps;		/* waiting since, if waiting	*/
	uint64_t overtaken;		/* in the current wait		*/
	uint64_t window_ops;		/* acquisitions this window	*/
	uint64_t base;			/* lazy: gen[cpu] or acq_seq then */
	int cpu;			/* lazy: the CPU it is counted on */
	int tix;			/* the task's index (TID - first)	*/
	char mode;			/* W_VISIT, W_CPU, W_SLEEP	*/
	char waiting, done, done_in_window;
};

/*
 * How a waiting worker is counted (see "Lazy counting" below):
 *   W_VISIT   visited at each acquisition: overtakes() (eager)
 *   W_CPU     awake on ->cpu: overtaken at each acquisition that finds
 *             that CPU's clock moved since the one before (gen[cpu])
 *   W_SLEEP   asleep on ->cpu: overtaken at each acquisition (acq_seq)
 */
enum { W_VISIT, W_CPU, W_SLEEP };

static struct {
	int n;
	struct waiter *w;
	uint64_t *waitmap;		/* bit j: w[j] waits in W_VISIT	*/
	bool lazy;			/* W_CPU and W_SLEEP are used	*/
	uint64_t acq_seq;		/* acquisitions so far		*/
	/* per CPU: its clock at the last acquisition, how many found it
	 * moved, its waiters counted lazily; the CPUs with some */
	uint64_t snap[SIM_MAX_CPUS], gen[SIM_MAX_CPUS];
	int lazy_on[SIM_MAX_CPUS];	/* lazy waiters counted on a CPU */
	short task_waiter[SIM_MAX_TASKS]; /* by task index: worker + 1, or 0 */
	const void *word;
	uint64_t overtaken_max;
	uint64_t window_left;		/* acquisitions to the window's end */
} run;

static const struct {
	const char *name;
	unsigned int bit;
} names[] = {
	{ "mutex", SIM_ORACLE_MUTEX }, { "deadlock", SIM_ORACLE_DEADLOCK },
	{ "state", SIM_ORACLE_STATE }, { "bug", SIM_ORACLE_BUG },
	{ "crash", SIM_ORACLE_CRASH }, { "race", SIM_ORACLE_RACE },
};

static int parse_one(const char *item, struct sim_oracles *o)
{
	const char *eq = strchr(item, '=');
	size_t n = eq ? (size_t)(eq - item) : strlen(item);
	char *end;

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		if (!eq && !strcmp(item, names[i].name)) {
			o->mask |= names[i].bit;
			return 0;
		}
	}
	if (!eq)
		return -1;
	if (n == 6 && !strncmp(item, "starve", 6)) {
		o->mask |= SIM_ORACLE_STARVE;
		return sim_parse_duration_ps(eq + 1, &o->starve_ps) ||
		       !o->starve_ps ? -1 : 0;
	}
	if (n == 8 && !strncmp(item, "overtake", 8)) {
		o->mask |= SIM_ORACLE_OVERTAKE;
		return sim_parse_u64(eq + 1, &o->overtake) || !o->overtake ? -1 : 0;
	}
	if (n == 5 && !strncmp(item, "share", 5)) {
		o->mask |= SIM_ORACLE_SHARE;
		o->share = strtod(eq + 1, &end);
		return *end || end == eq + 1 || o->share <= 0 || o->share >= 1 ?
		       -1 : 0;
	}
	return -1;
}

int sim_oracle_parse(const char *text, struct sim_oracles *o, char *err,
		     size_t len)
{
	char buf[256], *save = NULL;

	memset(o, 0, sizeof(*o));
	if (strlen(text) >= sizeof(buf) || !*text)
		goto bad;
	memcpy(buf, text, strlen(text) + 1);
	for (char *it = strtok_r(buf, ",", &save); it;
	     it = strtok_r(NULL, ",", &save))
		if (parse_one(it, o))
			goto bad;
	return 0;
bad:
	snprintf(err, len, "a comma-separated list of mutex, deadlock, state, bug, crash, race, starve=DURATION, overtake=N, share=F (0<F<1)");
	return -1;
}

const char *sim_oracle_classify(enum sim_failure kind, const char *what,
				unsigned int *bit)
{
	*bit = SIM_ORACLE_BUG;
	switch (kind) {
	case SIM_FAIL_DEADLOCK:
		*bit = SIM_ORACLE_DEADLOCK;
		return sim_oracle_lost_wakeup(NULL, 0) ? "lost-wakeup" : "deadlock";
	case SIM_FAIL_LIVELOCK:
		*bit = SIM_ORACLE_DEADLOCK;
		return "livelock";
	case SIM_FAIL_CRASH:
	case SIM_FAIL_STUCK:
		*bit = SIM_ORACLE_CRASH;
		return kind == SIM_FAIL_CRASH ? "crash" : "stuck";
	case SIM_FAIL_STARVATION:
		*bit = what && strstr(what, "overtaken") ? SIM_ORACLE_OVERTAKE :
		       what && strstr(what, "share") ? SIM_ORACLE_SHARE :
		       SIM_ORACLE_STARVE;
		return *bit == SIM_ORACLE_OVERTAKE ? "overtake" :
		       *bit == SIM_ORACLE_SHARE ? "share" : "starve";
	case SIM_FAIL_RACE:
		*bit = SIM_ORACLE_RACE;
		return "race";
	case SIM_FAIL_INFEASIBLE:	/* no execution: no oracle's */
		*bit = 0;
		return "infeasible";
	case SIM_FAIL_INVARIANT:
		if (what && strstr(what, "mutual exclusion")) {
			*bit = SIM_ORACLE_MUTEX;
			return "mutex";
		}
		*bit = SIM_ORACLE_STATE;
		return "state";
	default:
		return "bug";
	}
}

int sim_oracle_lock_free(void)
{
	if (!run.word)
		return -1;
	return *(const volatile uint32_t *)run.word == 0;
}

/* The first sleeping task in a futex(2) call on @word; *@more: how many
 * others. */
static const struct sim_task *word_sleeper(const void *word, int *more)
{
	const struct sim_task *first = NULL;

	*more = 0;
	for (int i = 0; i < sim.nr_tasks && i < SIM_MAX_TASKS; i++) {
		const struct sim_task *t = sim.tasks[i];

		if (!t || t->state != SIM_TASK_SLEEPING || t->futex_uaddr != word)
			continue;
		if (first)
			(*more)++;
		else
			first = t;
	}
	return first;
}

int sim_oracle_lost_wakeup(char *buf, size_t len)
{
	unsigned long addr = (unsigned long)(uintptr_t)run.word;
	const struct sim_task *t;
	char op[48], others[32] = "";
	int more;

	if (sim_oracle_lock_free() != 1)
		return 0;
	if (!buf || !len)
		return 1;
	t = word_sleeper(run.word, &more);
	if (!t) {	/* they wait elsewhere: the word is still free */
		snprintf(buf, len, "every task is blocked while the lock word at %#lx reads 0, free",
			 addr);
		return 1;
	}
	if (more)
		snprintf(others, sizeof(others), " (and %d more)", more);
	snprintf(buf, len, "task %d \"%.16s\"%s sleeps in %s on %#lx, whose word reads 0, free",
		 t->tid, t->name, others,
		 sim__trace_futex_op(t->futex_op & FUTEX_CMD_MASK, op, sizeof(op)),
		 addr);
	return 1;
}

/* ---- the drivers' side ------------------------------------------------------ */

void sim_oracle_watch(const void *word)
{
	run.word = word;
}

const void *sim_oracle_watched(void)
{
	return run.word;
}

static void waiter_moves(const struct sim_task *t, enum sched_watch what);

void sim_oracle_run_begin(int threads)
{
	for (int j = 0; j < run.n; j++)	/* its tasks are freed by now */
		if (run.w[j].task)
			run.task_waiter[run.w[j].tix] = 0;
	memset(run.lazy_on, 0, sizeof(run.lazy_on));
	run.acq_seq = 0;
	/* counts are looked at as they grow by overtake= and starve= */
	run.lazy = !(sim_oracles.mask & (SIM_ORACLE_OVERTAKE | SIM_ORACLE_STARVE));
	sched_task_watch = run.lazy ? waiter_moves : NULL;
	free(run.w);
	free(run.waitmap);
	run.w = calloc((size_t)threads, sizeof(*run.w));
	run.waitmap = calloc((size_t)threads / 64 + 1, sizeof(*run.waitmap));
	if (!run.w || !run.waitmap) {
		fprintf(stderr, "futexsim: out of memory for %d workers\n", threads);
		exit(SIM_EXIT_INPUT);
	}
	run.n = threads;
	run.word = NULL;
	run.overtaken_max = 0;
	run.window_left = (uint64_t)SHARE_WINDOW * (uint64_t)threads;
}

void sim_oracle_wait(int idx)
{
	if (idx >= run.n)
		return;
	run.w[idx].waiting = 1;
	run.w[idx].mode = W_VISIT;
	run.waitmap[idx / 64] |= 1ULL << (idx % 64);
	run.w[idx].task = sim_current();
	if (run.w[idx].task) {
		run.w[idx].tix = run.w[idx].task->tid - SIM_TID_BASE;
		run.task_waiter[run.w[idx].tix] = (short)(idx + 1);
	}
	run.w[idx].since_ps = sim_now_ps();
	run.w[idx].seen_ps = run.w[idx].since_ps;
	run.w[idx].overtaken = 0;
}

void sim_oracle_done(int idx)
{
	if (idx < run.n) {
		run.w[idx].done = 1;
		run.w[idx].done_in_window = 1;
	}
}

/* A starvation failure: @fmt takes worker @idx, then counts @a and @b. */
static void __attribute__((format(printf, 1, 0)))
starved_count(const char *fmt, int idx, uint64_t a, uint64_t b)
{
	char what[200];

	snprintf(what, sizeof(what), fmt, idx, (unsigned long long)a,
		 (unsigned long long)b);
	sim_fail(SIM_FAIL_STARVATION, what);
}

/* The same with durations @a_ps and @b_ps, each a string for @fmt. */
static void __attribute__((format(printf, 1, 0)))
starved_time(const char *fmt, int idx, uint64_t a_ps, uint64_t b_ps)
{
	char what[200], t1[32], t2[32];

	snprintf(what, sizeof(what), fmt, idx,
		 sim_format_duration_ps(a_ps, t1, sizeof(t1)),
		 sim_format_duration_ps(b_ps, t2, sizeof(t2)));
	sim_fail(SIM_FAIL_STARVATION, what);
}

/* share=F: at the end of each window, every worker that worked through it
 * got at least F of its fair share. */
static void window_end(void)
{
	uint64_t total = (uint64_t)SHARE_WINDOW * (uint64_t)run.n;
	int active = 0;

	for (int i = 0; i < run.n; i++)
		active += !run.w[i].done_in_window;
	for (int i = 0; i < run.n && active > 1; i++) {
		double fair = (double)total / active;

		if (!run.w[i].done_in_window &&
		    run.w[i].window_ops < sim_oracles.share * fair)
			starved_count("share: worker%d got %llu of %llu acquisitions in a window, below share= of its fair share",
				i, run.w[i].window_ops, total);
	}
	for (int i = 0; i < run.n; i++) {
		run.w[i].window_ops = 0;
		run.w[i].done_in_window = run.w[i].done;
	}
	run.window_left = total;
}

/* The clock of @o's CPU (the machine's clock if it is not a task). */
static uint64_t waiter_now(const struct waiter *o)
{
	return o->task ? sim.cpus[o->task->cpu].now_ps : sim_now_ps();
}

/* How long @o has waited (a migration may land it on a CPU behind). */
static uint64_t waited(const struct waiter *o)
{
	uint64_t t = waiter_now(o);

	return t > o->since_ps ? t - o->since_ps : 0;
}

/* Does this acquisition overtake @o (see the head comment)? */
static int overtakes(struct waiter *o)
{
	uint64_t t = waiter_now(o);

	if (o->task && o->task->state != SIM_TASK_SLEEPING && t == o->seen_ps)
		return 0;
	o->seen_ps = t;
	return 1;
}

/* The first waiting worker at or after @j, or -1: the workers an
 * acquisition may overtake, in index order, without looking at the
 * others (hundreds of threads, few of them waiting). */
static int next_waiting(int j)
{
	while (j < run.n) {
		uint64_t bits = run.waitmap[j / 64] >> (j % 64);

		if (bits)
			return j + __builtin_ctzll(bits);
		j = (j / 64 + 1) * 64;
	}
	return -1;
}

/*
 * Lazy counting.  With hundreds of threads most of them wait, and a
 * visit per waiter per acquisition (overtakes()) is most of a run's host
 * time.  Without overtake= and starve=, which look at a count while it
 * grows, a waiter is visited only until the next acquisition after it
 * started waiting, woke or moved to another CPU; then it is counted
 * per CPU:
 *   awake on CPU c (W_CPU): overtakes() counts an acquisition iff c's
 *     clock moved since the waiter's last count; and between counts its
 *     reference is the clock at the acquisition before (equal, or it
 *     would have been counted).  So it is counted by every acquisition
 *     that finds c's clock moved since the previous acquisition: gen[c]
 *     counts those, from the clocks kept in snap[c];
 *   asleep (W_SLEEP): by every acquisition (acq_seq), its reference the
 *     clock of its CPU at the last one (snap[c]).
 * sched_task_watch() tells of each sleep, wakeup and move while no
 * acquisition can happen: the count is brought up to date then
 * (settle()), and the waiter goes to the next mode.  The counts are
 * those of the visits, exactly: tests/test_mutex.c and
 * mk/same-results.sh compare the reports.
 */
static void track(int c)
{
	if (!run.lazy_on[c]++)
		run.snap[c] = sim.cpus[c].now_ps;
}

static void untrack(int c)
{
	run.lazy_on[c]--;
}

/* Bring @o's count up to the last acquisition; it leaves its lazy mode
 * (for W_VISIT, or another). */
static void settle(struct waiter *o)
{
	int c = o->cpu;

	if (o->mode == W_CPU) {
		o->overtaken += run.gen[c] - o->base;
		o->seen_ps = run.snap[c];
	} else if (o->mode == W_SLEEP && run.acq_seq != o->base) {
		o->overtaken += run.acq_seq - o->base;
		o->seen_ps = run.snap[c];
	}
	if (o->mode != W_VISIT)
		untrack(c);
	o->mode = W_VISIT;
}

static void lazy_mode(struct waiter *o, int j, char mode)
{
	o->mode = mode;
	o->cpu = o->task->cpu;
	track(o->cpu);
	o->base = mode == W_CPU ? run.gen[o->cpu] : run.acq_seq;
	run.waitmap[j / 64] &= ~(1ULL << (j % 64));
}

/* sched_task_watch: @t sleeps, wakes or moves (its ->cpu still the old) */
static void waiter_moves(const struct sim_task *t, enum sched_watch what)
{
	int i = t->tid - SIM_TID_BASE, j;
	struct waiter *o;

	if (i < 0 || i >= SIM_MAX_TASKS || !run.task_waiter[i])
		return;
	j = run.task_waiter[i] - 1;
	o = &run.w[j];
	if (!o->waiting)
		return;
	settle(o);
	if (what == SCHED_WATCH_SLEEP)
		lazy_mode(o, j, W_SLEEP);
	else
		run.waitmap[j / 64] |= 1ULL << (j % 64);
}

/* At each acquisition, before the visits: the clocks the lazy ones see.
 * Only a clock that may have moved is looked at: the others are still
 * their snap[] (sim_clocks_moved_take()). */
static void lazy_acquisition(void)
{
	uint64_t moved[SIM_MAX_CPUS / 64];

	sim_clocks_moved_take(moved);
	for (int w = 0; w < SIM_MAX_CPUS / 64; w++) {
		for (uint64_t bits = moved[w]; bits; bits &= bits - 1) {
			int c = w * 64 + __builtin_ctzll(bits);
			uint64_t now;

			if (!run.lazy_on[c])
				continue;
			now = sim.cpus[c].now_ps;
			if (now != run.snap[c]) {
				run.gen[c]++;
				run.snap[c] = now;
			}
		}
	}
	run.acq_seq++;
}

void sim_oracle_acquired(int idx)
{
	unsigned int m = sim_oracles.mask;
	struct waiter *me;

	if (idx >= run.n)
		return;
	me = &run.w[idx];
	if (run.lazy) {
		settle(me);	/* up to the last one: not this one */
		lazy_acquisition();
	}
	for (int j = next_waiting(0); j >= 0; j = next_waiting(j + 1)) {
		struct waiter *o = &run.w[j];
		int counted;

		if (j == idx)
			continue;
		counted = overtakes(o);
		if (run.lazy && o->task)	/* its reference is snap[] now */
			lazy_mode(o, j, o->task->state == SIM_TASK_SLEEPING ?
				  W_SLEEP : W_CPU);
		if (!counted)
			continue;
		o->overtaken++;
		if ((m & SIM_ORACLE_OVERTAKE) && o->overtaken >= sim_oracles.overtake)
			starved_count("worker%d was overtaken %llu times while waiting for the lock (overtake=%llu)",
				j, o->overtaken, sim_oracles.overtake);
		if ((m & SIM_ORACLE_STARVE) && waited(o) > sim_oracles.starve_ps)
			starved_time("worker%d has waited %s for one acquisition (starve=%s)",
				j, waited(o), sim_oracles.starve_ps);
	}
	if ((m & SIM_ORACLE_STARVE) && waited(me) > sim_oracles.starve_ps)
		starved_time("worker%d waited %s for one acquisition (starve=%s)",
			idx, waited(me), sim_oracles.starve_ps);
	if (me->overtaken > run.overtaken_max)
		run.overtaken_max = me->overtaken;
	me->waiting = 0;
	run.waitmap[idx / 64] &= ~(1ULL << (idx % 64));
	me->window_ops++;
	if ((m & SIM_ORACLE_SHARE) && !--run.window_left)
		window_end();
}

void sim_oracle_collect(struct sim_result *r)
{
	r->overtaken_max = run.overtaken_max;
}

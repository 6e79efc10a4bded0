/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sim/trace/trace.c - the event stream of --trace: records, their order, the
 * time window; the file.
 *
 * Stage: trace/report, beside the flow.  Called by the emitters of
 * sim/trace/trace.h (sched/core.c, sim/syscall/syscall.c, sim/cache/cache.c) and the
 * sim_trace_*() hooks of sim/machine/hooks.h (the shim's trace/events/lock.h and
 * linux/spinlock.h);
 * opened and closed by the CLI (sim/cli/cli.c).  Calls the writer of the
 * file's format: sim/trace/trace_text.c, sim/trace/trace_json.c or
 * sim/trace/trace_html.c; and the narration
 * (sim/trace/trace_narrate.c) and sim/trace/lockstat.c.  The names of the events and
 * ops, and their parsing, are in sim/trace/trace_names.c.
 *
 * Every emitter fills a fixed-size record from the machine's state (the
 * time and CPU of the context that runs, the task current there) and
 * inserts it into a sorted ring of SIM_TRACE_REORDER records keyed by
 * (time, emission order).  Records arrive nearly sorted: each CPU's clock
 * only moves forward, but the running CPU may be a little ahead of the
 * others (a wakeup's cost is charged without a scheduling point), and an
 * event callback runs at its deadline on a CPU whose clock is later; in
 * the scenarios of the tests no record is more than ~1 us late.  When the
 * ring is full its earliest record is written, so the file is sorted as
 * long as no record is late by more than the ring's span.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/host/arena.h"
#include "sim/host/outfile.h"
#include "futex/hb_view.h"
#include "sim/trace/lockstat.h"
#include "sim/machine/machine.h"
#include "sim/scenario/scenario.h"
#include "sim/trace/trace_writer.h"
#include "workloads/workload.h"
#include "version.h"

unsigned int sim_trace_mask;

static struct {
	struct sim_trace_ctx c;
	struct sim_outfile out;	/* the file (c.f = out.f), sim/host/outfile.h */
	int open;
	int file;		/* a trace file is written (c.f)	*/
	int narrate;		/* --narrate: sim/trace/trace_narrate.c	*/
	int lockstat;		/* --lock-stat: sim/trace/lockstat.c		*/
	int done;		/* window over, or closed: nothing more	*/
	int page;		/* an HTML page: records carry stacks,
				 * bucket lists and lock words	*/
	unsigned int head;	/* the ring's earliest record		*/
	unsigned int nr;	/* records in the ring			*/
	uint64_t seq;
	uint64_t last_ps;	/* time of the last record written	*/
} tr;
static struct sim_trace_rec ring[SIM_TRACE_REORDER];
static char iobuf[1 << 20];

/* ---- ordering ------------------------------------------------------------ */

/*
 * The reorder buffer: a ring of records kept sorted by (time, emission
 * order).  A record is inserted from the tail: almost always it goes last
 * (O(1)); a late one moves back past the few records it is late for.
 * When the ring is full its head, the earliest record, is written.
 */
#define RING_MASK	(SIM_TRACE_REORDER - 1)
_Static_assert((SIM_TRACE_REORDER & RING_MASK) == 0,
	       "SIM_TRACE_REORDER is a power of two");

static int rec_before(const struct sim_trace_rec *a,
		      const struct sim_trace_rec *b)
{
	return a->ts_ps < b->ts_ps || (a->ts_ps == b->ts_ps && a->seq < b->seq);
}

static void ring_insert(const struct sim_trace_rec *r)
{
	unsigned int i = tr.head + tr.nr;

	while (i != tr.head && rec_before(r, &ring[(i - 1) & RING_MASK])) {
		ring[i & RING_MASK] = ring[(i - 1) & RING_MASK];
		i--;
	}
	ring[i & RING_MASK] = *r;
	tr.nr++;
}

/* The window is over at @end_ps: close what the writer has open.  Only
 * --lock-stat, which counts the whole run, still takes events. */
static void finish(uint64_t end_ps)
{
	if (tr.file && tr.c.format == SIM_TRACE_JSON)
		sim__trace_json_end(&tr.c, end_ps);
	if (tr.file && tr.c.format == SIM_TRACE_HTML)
		sim__trace_html_end(&tr.c);
	tr.done = 1;
	tr.nr = 0;
	sim_trace_mask = tr.lockstat ? SIM_LOCKSTAT_MASK : 0;
}

/* Write the earliest record; never backwards in time. */
static void write_one(void)
{
	struct sim_trace_rec r = ring[tr.head & RING_MASK];

	tr.head++;
	tr.nr--;
	if (r.ts_ps < tr.last_ps)
		r.ts_ps = tr.last_ps;
	if (r.ts_ps > tr.c.to_ps) {
		finish(tr.c.to_ps);
		return;
	}
	tr.last_ps = r.ts_ps;
	if (tr.narrate)
		sim__narrate_rec(&r);	/* tells only what is in the window */
	if (!tr.file || !(tr.c.mask & SIM_TRACE_BIT(r.type)))
		return;
	if (tr.c.format == SIM_TRACE_JSON)
		sim__trace_json_rec(&tr.c, &r);
	else if (tr.c.format == SIM_TRACE_HTML)
		sim__trace_html_rec(&tr.c, &r);
	else if (r.ts_ps >= tr.c.from_ps)
		sim__trace_text_rec(&tr.c, &r);
}

static uint64_t shown_addr(const void *p);

/* The built-in lock's words the page shows (sim_trace_lock_words()). */
static struct {
	int nr;
	const uint32_t *p[SIM_TRACE_LOCK_WORDS];
	const char *name[SIM_TRACE_LOCK_WORDS];
} lw;

void sim_trace_lock_words(const void *obj, const char *const *names)
{
	const uint32_t *w = obj;

	lw.nr = 0;
	for (int i = 0; names && names[i] && lw.nr < SIM_TRACE_LOCK_WORDS; i++)
		if (names[i][0]) {
			lw.p[lw.nr] = w + i;
			lw.name[lw.nr++] = names[i];
		}
}

int sim__trace_lock_words(uint64_t *addr, const char **name, int max)
{
	int i;

	for (i = 0; i < lw.nr && i < max; i++) {
		addr[i] = shown_addr(lw.p[i]);
		name[i] = lw.name[i];
	}
	return i;
}

/* The values of the lock's words now (plain loads), kept once. */
static uint32_t words_now(void)
{
	uint32_t v[SIM_TRACE_LOCK_WORDS];

	for (int i = 0; i < lw.nr; i++)
		v[i] = *lw.p[i];
	return sim__tlist_keep(SIM_TLIST_WORDS, v, lw.nr, 0);
}

/* The waiters of the futex hash bucket of spinlock @lock (its plist). */
static uint32_t chain_of(const void *lock)
{
	int t[SIM_TLIST_MAX];
	int n = ksim_hb_waiters(lock, t, SIM_TLIST_MAX);
	int kept = n < SIM_TLIST_MAX ? n : SIM_TLIST_MAX;

	return sim__tlist_keep(SIM_TLIST_CHAIN, (const uint32_t *)t, kept,
			       n - kept);
}

/* A record goes to --lock-stat as it comes, and through the ring, in
 * order, to the trace file and the narration; a page's records carry
 * the lock words' values as they are now. */
static void emit(struct sim_trace_rec *r)
{
	if (tr.lockstat && r->type == SIM_TEV_QSPINLOCK)
		sim__lockstat_rec(r);
	if (tr.done)
		return;
	if (tr.page && lw.nr)
		r->words = words_now();
	r->seq = tr.seq++;
	if (tr.nr == SIM_TRACE_REORDER)
		write_one();
	if (!tr.done)
		ring_insert(r);
}

/* ---- emitters -------------------------------------------------------------- */

/* The executable's image: its globals are at fixed addresses (-no-pie). */
extern const char __executable_start[], _end[];

static bool on_fixed_stack(const struct sim_task *t, uintptr_t a)
{
	uintptr_t lo = (uintptr_t)t->coro.stack;

	return lo >= SIM_CORO_STACK_BASE && a >= lo &&
	       a - lo < t->coro.stack_size;
}

/*
 * @p as the trace shows it: its address where that is the same in every
 * run of the binary (the arena; a task's stack, mapped at its fixed
 * address by sim/host/coro.c; the -no-pie executable's data and bss: a user
 * program's globals), else 0, printed 0x0: host heap and other host
 * memory stay out of the trace.
 */
static uint64_t shown_addr(const void *p)
{
	uintptr_t a = (uintptr_t)p;
	const struct sim_task *cur = sim_current();

	if (sim_arena_contains(p))
		return a;
#ifndef __PIE__
	if (a >= (uintptr_t)__executable_start && a < (uintptr_t)_end)
		return a;
#endif
	if (cur && on_fixed_stack(cur, a))
		return a;
	for (int i = 0; i < sim.nr_tasks; i++)
		if (on_fixed_stack(sim.tasks[i], a))
			return a;
	return 0;
}

/* A record of @ev in the context that runs now: a task on its CPU, or an
 * event callback on the event's CPU (the task current there, or idle). */
static void rec_here(struct sim_trace_rec *r, enum sim_trace_event ev)
{
	int cpu = sim_this_cpu ? sim_this_cpu->cpu : 0;
	const struct sim_task *cur = sim.cpus[cpu].curr;

	memset(r, 0, sizeof(*r));
	r->ts_ps = sim_now_ps();
	r->cpu = (int16_t)cpu;
	r->tid = cur ? cur->tid : 0;
	r->type = (uint8_t)ev;
}

/* The current task's stack, for the page of an HTML trace
 * (sim/trace/trace_where.c): its index + 1, or 0. */
static uint32_t where_here(void)
{
	return tr.page && !tr.done ? sim__where_here() : 0;
}

void sim__trace_switch(int cpu, uint64_t ts_ps, const struct sim_task *prev,
		       const struct sim_task *next)
{
	struct sim_trace_rec r = {
		.ts_ps = ts_ps, .cpu = (int16_t)cpu,
		.type = SIM_TEV_SCHED_SWITCH,
		.tid = prev ? prev->tid : 0, .tid2 = next ? next->tid : 0,
		.op = 'R',
		/* priorities less 120: 0 for SCHED_NORMAL nice 0, the idle task */
		.a = prev ? (uint32_t)(prev->prio - 120) : 0,
		.b = next ? (uint32_t)(next->prio - 120) : 0,
	};

	if (prev && prev->state == SIM_TASK_SLEEPING)
		r.op = 'S';
	else if (prev && prev->state == SIM_TASK_QUEUED)
		r.op = '+';
	else if (prev && prev->state == SIM_TASK_DEAD)
		r.op = 'X';
	/* switch_away() runs on the stack of the task it switches from */
	if (tr.page && prev && r.op != 'X' &&
	    on_fixed_stack(prev, (uintptr_t)&r))
		r.where = where_here();
	emit(&r);
}

void sim__trace_wake(enum sim_trace_event ev, const struct sim_task *t,
		     int target_cpu)
{
	struct sim_trace_rec r;

	rec_here(&r, ev);
	r.tid2 = t->tid;
	r.a = (uint32_t)target_cpu;
	r.b = (uint32_t)(t->prio - 120);
	emit(&r);
}

void sim__trace_pi_setprio(const struct sim_task *t, int old, int new)
{
	struct sim_trace_rec r;

	rec_here(&r, SIM_TEV_SCHED_PI_SETPRIO);
	r.tid2 = t->tid;
	r.a = (uint32_t)old;
	r.b = (uint32_t)new;
	emit(&r);
}

void sim__trace_futex_enter(const uint32_t *uaddr, int op, uint32_t val,
			    int64_t utime_ns)
{
	struct sim_trace_rec r;

	rec_here(&r, SIM_TEV_FUTEX_ENTER);
	r.addr = shown_addr(uaddr);
	r.word = r.addr ? *uaddr : 0;
	r.a = (uint32_t)op;
	r.b = val;
	r.arg = utime_ns;
	r.where = where_here();
	emit(&r);
}

void sim__trace_futex_exit(const uint32_t *uaddr, int op, long ret)
{
	struct sim_trace_rec r;

	rec_here(&r, SIM_TEV_FUTEX_EXIT);
	r.addr = shown_addr(uaddr);
	r.word = r.addr ? *uaddr : 0;
	r.a = (uint32_t)op;
	r.arg = ret;
	emit(&r);
}

void sim__trace_nanosleep(enum sim_trace_event ev, int64_t arg)
{
	struct sim_trace_rec r;

	rec_here(&r, ev);
	r.arg = arg;
	if (ev == SIM_TEV_NANOSLEEP_ENTER)
		r.where = where_here();
	emit(&r);
}

void sim_trace_contention_begin(const void *lock, unsigned int flags)
{
	struct sim_trace_rec r;

	rec_here(&r, SIM_TEV_CONTENTION_BEGIN);
	r.addr = shown_addr(lock);
	r.a = flags;
	emit(&r);
}

void sim_trace_contention_end(const void *lock, int ret)
{
	struct sim_trace_rec r;

	rec_here(&r, SIM_TEV_CONTENTION_END);
	r.addr = shown_addr(lock);
	r.arg = ret;
	emit(&r);
}

void sim_trace_qspinlock(const void *lock, enum sim_qspin_op op,
			 unsigned int old, unsigned int new)
{
	struct sim_trace_rec r;

	rec_here(&r, SIM_TEV_QSPINLOCK);
	r.addr = shown_addr(lock);
	r.op = (uint8_t)op;
	r.a = old;
	r.b = new;
	/* a bucket's list, as its unlock leaves it, for the page */
	if (op == SIM_QS_UNLOCK && tr.page && !tr.done &&
	    sim_lockstat_bucket_offset(r.addr) == (long)ksim_hb_lock_offset())
		r.chain = chain_of(lock);
	emit(&r);
}

void sim_trace_tp(const void *uaddr, enum sim_tp_op op, unsigned int word,
		  long long arg)
{
	struct sim_trace_rec r;

	rec_here(&r, SIM_TEV_TP);
	r.addr = shown_addr(uaddr);
	r.op = (uint8_t)op;
	r.a = word;
	r.arg = arg;
	emit(&r);
}

void sim__trace_cache(int cpu, uint64_t ts_ps, const volatile void *addr,
		      unsigned int kind, int owner, unsigned int tier,
		      unsigned int invalidated, uint64_t wait_ps,
		      uint64_t cost_ps)
{
	const struct sim_task *cur = sim.cpus[cpu].curr;
	struct sim_trace_rec r = {
		.ts_ps = ts_ps, .cpu = (int16_t)cpu, .type = SIM_TEV_CACHE,
		.tid = cur ? cur->tid : 0, .tid2 = owner + 1,
		.op = (uint8_t)kind, .a = tier, .b = invalidated,
		.word = wait_ps > UINT32_MAX ? UINT32_MAX : (uint32_t)wait_ps,
		.arg = (int64_t)cost_ps,
	};

	r.addr = shown_addr((const void *)addr) & ~(uint64_t)63;
	emit(&r);
}

void sim__trace_uatomic(enum sim_trace_event ev, const void *p,
			unsigned int size, unsigned int op, int ok,
			uint64_t before, uint64_t after)
{
	struct sim_trace_rec r;

	rec_here(&r, ev);
	r.addr = shown_addr(p);
	if (!r.addr)
		before = after = 0;	/* host memory: nothing of it shown */
	r.op = (uint8_t)op;
	r.tid2 = (int32_t)(size | (ok ? SIM_TRACE_UATOMIC_OK : 0));
	r.arg = (int64_t)before;
	r.a = (uint32_t)after;
	r.b = (uint32_t)(after >> 32);
	r.word = (uint32_t)after;
	emit(&r);
}

/* ---- open and close ------------------------------------------------------------ */

static void close_at_exit(void)
{
	sim_trace_close();
}

/* The trace file @path, if any: its format and buffering.  It is written
 * into a temporary and renamed into place by sim_trace_close(). */
static int open_file(const char *path)
{
	FILE *f;

	if (!path)
		return 0;
	if (sim_outfile_open(&tr.out, path))
		return -1;
	f = tr.out.f;
	tr.file = 1;
	tr.c.f = f;
	tr.c.format = sim_trace_format_of(path);
	/* the text writer buffers whole blocks itself */
	if (tr.c.format == SIM_TRACE_TEXT)
		setvbuf(f, NULL, _IONBF, 0);
	else
		setvbuf(f, iobuf, _IOFBF, sizeof(iobuf));
	return 0;
}

int sim_trace_open(const char *path, const struct sim_scenario *s)
{
	static int registered;

	memset(&tr, 0, sizeof(tr));
	if (open_file(path))
		return -1;
	tr.narrate = s->narrate;
	tr.c.narrate_quiet = s->narrate == SIM_NARRATE_QUIET;
	tr.lockstat = !!s->lock_stat[0];
	tr.c.from_ps = s->trace_from_ps;
	tr.c.to_ps = s->trace_to_ps ? s->trace_to_ps : UINT64_MAX;
	tr.c.mask = s->trace_events;
	tr.c.nr_cpus = sim.nr_cpus;
	if (s->wl == &wl_program)	/* threads= is the program's business */
		snprintf(tr.c.title, sizeof(tr.c.title),
			 "futexsim %s (kernel %s): machine=%s cpus=%d workload=program program=%.160s lock=%.31s seed=%llu",
			 FUTEXSIM_VERSION, FUTEXSIM_KERNEL, s->machine, s->cpus,
			 s->program, s->locks[0], (unsigned long long)s->seed);
	else
		snprintf(tr.c.title, sizeof(tr.c.title),
			 "futexsim %s (kernel %s): machine=%s cpus=%d threads=%d workload=%s lock=%s seed=%llu",
			 FUTEXSIM_VERSION, FUTEXSIM_KERNEL, s->machine, s->cpus,
			 s->threads, s->workload, s->locks[0],
			 (unsigned long long)s->seed);
	tr.open = 1;
	if (!registered && !atexit(close_at_exit))
		registered = 1;
	if (tr.file && tr.c.format == SIM_TRACE_JSON)
		sim__trace_json_begin(&tr.c);
	else if (tr.file && tr.c.format == SIM_TRACE_HTML)
		sim__trace_html_begin(&tr.c);
	else if (tr.file)
		sim__trace_text_begin(&tr.c);
	/* a page: stacks, bucket lists and lock words beside the records */
	tr.page = tr.file && tr.c.format == SIM_TRACE_HTML;
	if (tr.page) {
		sim__where_reset();
		sim__tlist_reset();
	}
	lw.nr = 0;
	if (tr.narrate)
		sim__narrate_begin(&tr.c);
	if (tr.lockstat)
		sim_lockstat_start();
	/* no file, no narration: only --lock-stat takes events */
	tr.done = !tr.file && !tr.narrate;
	sim_trace_mask = (tr.file ? s->trace_events : 0) |
			 (tr.narrate ? SIM_NARRATE_MASK : 0) |
			 (tr.lockstat ? SIM_LOCKSTAT_MASK : 0);
	return 0;
}

int sim_trace_last_events(void (*fn)(const char *line, void *arg), void *arg)
{
	if (!tr.open || !tr.narrate)
		return -1;
	while (tr.nr && !tr.done)
		write_one();
	return sim__narrate_last(fn, arg);
}

void sim_trace_failure(const char *line)
{
	if (!sim_trace_is_page())
		return;
	while (tr.nr && !tr.done)	/* the page's last event: this one */
		write_one();
	sim__trace_html_failure(line);
}

int sim_trace_is_page(void)
{
	return tr.open && tr.page;
}

int sim_trace_picture(const char *svg)
{
	if (!sim_trace_is_page())
		return 0;
	return sim__trace_html_picture(svg) == 0;
}

int sim_trace_close(void)
{
	if (!tr.open)
		return 0;
	if (tr.file && !sim_outfile_mine(&tr.out)) {
		tr.open = 0;	/* a forked child's exit: the file is not ours */
		sim_trace_mask = 0;
		sim_outfile_discard(&tr.out);
		return 0;
	}
	while (tr.nr && !tr.done)
		write_one();
	if (!tr.done)
		finish(tr.last_ps);
	sim_trace_mask = 0;
	tr.open = 0;
	if (tr.lockstat)
		sim_lockstat_stop();
	if (tr.narrate)
		sim__narrate_end();
	if (!tr.file)
		return 0;
	if (tr.c.format == SIM_TRACE_TEXT)
		sim__trace_text_end(&tr.c);
	tr.c.f = NULL;
	return sim_outfile_commit(&tr.out);
}

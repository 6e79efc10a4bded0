/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sim/trace.c - the event stream of --trace: records, their order, the
 * time window, the event names; the file.
 *
 * Stage: trace/report, beside the flow.  Called by the emitters of
 * sim/trace.h (sched/core.c, sim/syscall.c) and the sim_trace_*() hooks
 * of sim/hooks.h (the shim's trace/events/lock.h and linux/spinlock.h);
 * opened and closed by the CLI (sim/cli.c), its names parsed for
 * sim/scenario.c.  Calls the writer of the file's format:
 * sim/trace_text.c or sim/trace_json.c.
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
#include <linux/futex.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "futex/tp_abi.h"
#include "sim/arena.h"
#include "sim/lockstat.h"
#include "sim/machine.h"
#include "sim/scenario.h"
#include "sim/trace_writer.h"
#include "version.h"

unsigned int sim_trace_mask;

static const char *const event_names[SIM_TEV_NR] = {
	[SIM_TEV_SCHED_SWITCH]		= "sched_switch",
	[SIM_TEV_SCHED_WAKING]		= "sched_waking",
	[SIM_TEV_SCHED_WAKEUP]		= "sched_wakeup",
	[SIM_TEV_SCHED_WAKEUP_NEW]	= "sched_wakeup_new",
	[SIM_TEV_FUTEX_ENTER]		= "futex_enter",
	[SIM_TEV_FUTEX_EXIT]		= "futex_exit",
	[SIM_TEV_NANOSLEEP_ENTER]	= "nanosleep_enter",
	[SIM_TEV_NANOSLEEP_EXIT]	= "nanosleep_exit",
	[SIM_TEV_CONTENTION_BEGIN]	= "contention_begin",
	[SIM_TEV_CONTENTION_END]	= "contention_end",
	[SIM_TEV_QSPINLOCK]		= "qspinlock",
	[SIM_TEV_TP]			= "tp",
};

#define B(ev)	SIM_TRACE_BIT(SIM_TEV_##ev)
static const struct {
	const char *name;
	unsigned int mask;
} groups[] = {
	{ "sched", B(SCHED_SWITCH) | B(SCHED_WAKING) | B(SCHED_WAKEUP) |
		   B(SCHED_WAKEUP_NEW) },
	{ "futex", B(FUTEX_ENTER) | B(FUTEX_EXIT) },
	{ "nanosleep", B(NANOSLEEP_ENTER) | B(NANOSLEEP_EXIT) },
	{ "lock", B(CONTENTION_BEGIN) | B(CONTENTION_END) },
};
#undef B
#define NR_GROUPS	(sizeof(groups) / sizeof(groups[0]))

static struct {
	struct sim_trace_ctx c;
	int open;
	int file;		/* a trace file is written (c.f)	*/
	int narrate;		/* --narrate: sim/trace_narrate.c	*/
	int lockstat;		/* --lock-stat: sim/lockstat.c		*/
	int done;		/* window over, or closed: nothing more	*/
	unsigned int head;	/* the ring's earliest record		*/
	unsigned int nr;	/* records in the ring			*/
	uint64_t seq;
	uint64_t last_ps;	/* time of the last record written	*/
} tr;
static struct sim_trace_rec ring[SIM_TRACE_REORDER];
static char iobuf[1 << 20];

/* ---- names ------------------------------------------------------------- */

const char *sim__trace_event_name(enum sim_trace_event ev)
{
	return event_names[ev];
}

const char *sim_trace_event_help(void)
{
	return "all, sched, futex, nanosleep, lock, qspinlock, sched_switch, "
	       "sched_waking, sched_wakeup, sched_wakeup_new, futex_enter, "
	       "futex_exit, nanosleep_enter, nanosleep_exit, contention_begin, "
	       "contention_end, tp";
}

static int name_mask(const char *name, size_t len, unsigned int *mask)
{
	size_t i;

	if (len == 3 && !strncmp(name, "all", 3)) {
		*mask |= SIM_TRACE_ALL;
		return 0;
	}
	for (i = 0; i < NR_GROUPS; i++)
		if (strlen(groups[i].name) == len &&
		    !strncmp(name, groups[i].name, len)) {
			*mask |= groups[i].mask;
			return 0;
		}
	for (i = 0; i < SIM_TEV_NR; i++)
		if (strlen(event_names[i]) == len &&
		    !strncmp(name, event_names[i], len)) {
			*mask |= SIM_TRACE_BIT(i);
			return 0;
		}
	return -1;
}

int sim_trace_parse_events(const char *list, unsigned int *mask)
{
	unsigned int m = 0;
	const char *p = list, *comma;

	do {
		comma = strchr(p, ',');
		if (name_mask(p, comma ? (size_t)(comma - p) : strlen(p), &m))
			return -1;
		p = comma + 1;
	} while (comma);
	*mask = m;
	return 0;
}

static void append(char *buf, size_t len, const char *name)
{
	size_t n = strlen(buf);

	snprintf(buf + n, len - n, "%s%s", n ? "," : "", name);
}

const char *sim_trace_format_events(unsigned int mask, char *buf, size_t len)
{
	size_t i;

	buf[0] = '\0';
	if (mask == SIM_TRACE_ALL) {
		snprintf(buf, len, "all");
		return buf;
	}
	for (i = 0; i < NR_GROUPS; i++)
		if ((mask & groups[i].mask) == groups[i].mask) {
			append(buf, len, groups[i].name);
			mask &= ~groups[i].mask;
		}
	for (i = 0; i < SIM_TEV_NR; i++)
		if (mask & SIM_TRACE_BIT(i))
			append(buf, len, event_names[i]);
	return buf;
}

const char *sim__trace_comm(int tid)
{
	int i = tid - SIM_TID_BASE;

	if (!tid)
		return "<idle>";
	if (i < 0 || i >= sim.nr_tasks)
		return "<...>";
	return sim.tasks[i]->name;
}

const char *sim__trace_tp_op(unsigned int op)
{
	static const char *const names[SIM_TP_NR_OPS] = {
		[SIM_TP_STEAL] = "steal", [SIM_TP_TOP_WAITER] = "top-waiter",
		[SIM_TP_SPIN_START] = "spin-start", [SIM_TP_SPIN_STOP] = "spin-stop",
		[SIM_TP_SLEEP] = "sleep",
		[SIM_TP_HANDOFF_REQUEST] = "handoff-request",
		[SIM_TP_HANDOFF_GRANT] = "handoff-grant",
		[SIM_TP_ACQUIRE] = "acquire", [SIM_TP_UNLOCK] = "unlock",
		[SIM_TP_STATE_ALLOC] = "state-alloc",
		[SIM_TP_STATE_FREE] = "state-free",
	};

	return op < SIM_TP_NR_OPS ? names[op] : "?";
}

const char *sim__trace_qspin_op(unsigned int op)
{
	static const char *const names[SIM_QS_NR_OPS] = {
		[SIM_QS_SLOWPATH] = "slowpath", [SIM_QS_LOCK] = "lock",
		[SIM_QS_TRYLOCK] = "trylock", [SIM_QS_TRYFAIL] = "trylock-fail",
		[SIM_QS_UNLOCK] = "unlock",
	};

	return op < SIM_QS_NR_OPS ? names[op] : "?";
}

static const char *futex_op_name(unsigned int op, char *buf, size_t len)
{
	/* the TP futex's private ops (futex/tp_abi.h) */
	static const char *const tp_cmds[] = { "TP_LOCK", "TP_UNLOCK" };
	static const char *const cmds[] = {
		"WAIT", "WAKE", "FD", "REQUEUE", "CMP_REQUEUE", "WAKE_OP",
		"LOCK_PI", "UNLOCK_PI", "TRYLOCK_PI", "WAIT_BITSET",
		"WAKE_BITSET", "WAIT_REQUEUE_PI", "CMP_REQUEUE_PI", "LOCK_PI2",
	};
	unsigned int cmd = op & FUTEX_CMD_MASK;

	if (cmd == FUTEX_TP_LOCK || cmd == FUTEX_TP_UNLOCK)
		snprintf(buf, len, "FUTEX_%s%s", tp_cmds[cmd - FUTEX_TP_LOCK],
			 op & FUTEX_PRIVATE_FLAG ? "_PRIVATE" : "");
	else if (cmd >= sizeof(cmds) / sizeof(cmds[0]))
		snprintf(buf, len, "0x%x", op);
	else
		snprintf(buf, len, "FUTEX_%s%s%s", cmds[cmd],
			 op & FUTEX_PRIVATE_FLAG ? "_PRIVATE" : "",
			 op & FUTEX_CLOCK_REALTIME ? "|FUTEX_CLOCK_REALTIME" : "");
	return buf;
}

/* The names of the usual ops are made once. */
const char *sim__trace_futex_op(unsigned int op, char *buf, size_t len)
{
	static char names[512][40];

	if (op >= 512)
		return futex_op_name(op, buf, len);
	if (!names[op][0])
		futex_op_name(op, names[op], sizeof(names[op]));
	return names[op];
}

const char *sim__trace_errno(long ret)
{
	switch (-ret) {
	case EAGAIN:		return "EAGAIN";
	case ETIMEDOUT:		return "ETIMEDOUT";
	case EINTR:		return "EINTR";
	case EINVAL:		return "EINVAL";
	case EPERM:		return "EPERM";
	case ESRCH:		return "ESRCH";
	case EDEADLK:		return "EDEADLK";
	case EFAULT:		return "EFAULT";
	case ENOMEM:		return "ENOMEM";
	case ENOSYS:		return "ENOSYS";
	case EBUSY:		return "EBUSY";
	case EOWNERDEAD:	return "EOWNERDEAD";
	case ENOTRECOVERABLE:	return "ENOTRECOVERABLE";
	case 512:		return "ERESTARTSYS";
	case 513:		return "ERESTARTNOINTR";
	case 514:		return "ERESTARTNOHAND";
	case 516:		return "ERESTART_RESTARTBLOCK";
	}
	return NULL;
}

/* ---- files ------------------------------------------------------------- */

static int ends_with(const char *path, const char *ext)
{
	size_t n = strlen(path), e = strlen(ext);

	return n > e && path[n - e - 1] != '/' && !strcmp(path + n - e, ext);
}

enum sim_trace_format sim_trace_format_of(const char *path)
{
	if (ends_with(path, ".txt"))
		return SIM_TRACE_TEXT;
	if (ends_with(path, ".json"))
		return SIM_TRACE_JSON;
	return SIM_TRACE_NONE;
}

int sim_trace_lock_path(const char *path, const char *lock, int nr_locks,
			char *out, size_t len)
{
	const char *dot = strrchr(path, '.');
	int n;

	if (nr_locks == 1 || !dot)
		n = snprintf(out, len, "%s", path);
	else
		n = snprintf(out, len, "%.*s.%s%s", (int)(dot - path), path,
			     lock, dot);
	return n < 0 || (size_t)n >= len ? -1 : 0;
}

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
	else if (r.ts_ps >= tr.c.from_ps)
		sim__trace_text_rec(&tr.c, &r);
}

/* A record goes to --lock-stat as it comes, and through the ring, in
 * order, to the trace file and the narration. */
static void emit(struct sim_trace_rec *r)
{
	if (tr.lockstat && r->type == SIM_TEV_QSPINLOCK)
		sim__lockstat_rec(r);
	if (tr.done)
		return;
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
 * address by sim/coro.c; the -no-pie executable's data and bss: a user
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

void sim__trace_switch(int cpu, uint64_t ts_ps, const struct sim_task *prev,
		       const struct sim_task *next)
{
	struct sim_trace_rec r = {
		.ts_ps = ts_ps, .cpu = (int16_t)cpu,
		.type = SIM_TEV_SCHED_SWITCH,
		.tid = prev ? prev->tid : 0, .tid2 = next ? next->tid : 0,
		.op = 'R',
	};

	if (prev && prev->state == SIM_TASK_SLEEPING)
		r.op = 'S';
	else if (prev && prev->state == SIM_TASK_QUEUED)
		r.op = '+';
	else if (prev && prev->state == SIM_TASK_DEAD)
		r.op = 'X';
	emit(&r);
}

void sim__trace_wake(enum sim_trace_event ev, const struct sim_task *t,
		     int target_cpu)
{
	struct sim_trace_rec r;

	rec_here(&r, ev);
	r.tid2 = t->tid;
	r.a = (uint32_t)target_cpu;
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

/* ---- open and close ------------------------------------------------------------ */

static void close_at_exit(void)
{
	sim_trace_close();
}

/* The trace file @path, if any: its format and buffering. */
static int open_file(const char *path)
{
	FILE *f;

	if (!path)
		return 0;
	f = fopen(path, "w");
	if (!f)
		return -1;
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
	else if (tr.file)
		sim__trace_text_begin(&tr.c);
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

int sim_trace_close(void)
{
	int err;

	if (!tr.open)
		return 0;
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
	err = ferror(tr.c.f);
	if (fclose(tr.c.f) || err) {
		if (!errno)
			errno = EIO;
		return -1;
	}
	return 0;
}

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sim/trace/trace_narrate.c - --narrate: one plain-English line per interesting
 * event of the trace stream, for teaching and for bug reports.
 *
 * Stage: trace/report, beside the flow.  Called by sim/trace/trace.c with each
 * record in time order up to the end of the --trace-from/--trace-to
 * window (the third consumer of the stream, beside the trace file and
 * --lock-stat); it keeps state from the start and tells what happens
 * inside the window;
 * names locks with sim/trace/lockstat.c; writes to stderr, and keeps the last
 * SIM_NARRATE_LAST lines in a ring for the failure report
 * (sim__narrate_last(), through sim_trace_last_events(); sim/report/failure.c).
 * A second, separate narrator gives the HTML page (sim/trace/trace_html.c)
 * the sentence of each of its events (sim__narrate_text()).
 *
 *   0.012345 ms  worker3 (cpu 2): FUTEX_WAIT returned EAGAIN: the futex
 *   word changed between its user-space read and the bucket lock
 *
 * Each line: the simulated time in milliseconds with 6 decimals (ns), the
 * task (<idle>: an event callback, a timer, on an idle CPU), its CPU, and
 * what happened.  Told: futex(2) calls and their results with the reason
 * of each error, sleeps (in which call) and preemptions, wakeups and
 * where the woken task was placed, the qspinlock slow path (what word the
 * CPU found, in (tail,pending,locked), and what it does about it), the
 * acquisitions that took it and the releases that had waiters, the
 * program's atomics on futex words (the value before and after; "takes
 * it", "frees it" by the rule of sim/trace/uword.h).  Not told:
 * uncontended lock and unlock, scheduling of a woken task (its wakeup
 * says where it goes).  The state kept (the futex call each task is in,
 * each CPU's running task and slow-path entry) has a fixed size.
 */
#include <inttypes.h>
#include <linux/futex.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "futex/tp_abi.h"
#include "sim/trace/lockstat.h"
#include "sim/machine/machine.h"
#include "sim/trace/trace_writer.h"
#include "sim/trace/uword.h"
#define FUTEXSIM_NO_RENAME	/* the op codes only */
#include "workloads/libsim/futexsim_atomic.h"

#define MAX_TASKS	4096
#define MAX_CPUS	1024

struct narrator {
	FILE *f;
	uint64_t from_ps;		/* lines from this time on	*/
	int cpu_curr[MAX_CPUS];		/* tid running; 0: idle		*/
	uint64_t slow_ps[MAX_CPUS];	/* qspinlock slow path entry	*/
	uint64_t slow_addr[MAX_CPUS];	/* ... of this lock; 0: none	*/
	int in_futex[MAX_TASKS];	/* futex cmd + 1; 0: not in one	*/
	uint32_t val[MAX_TASKS];	/* ... its val argument		*/
	char in_sleep[MAX_TASKS];	/* in nanosleep()		*/
	/* the last lines told, for a failure report: a ring */
	char last[SIM_NARRATE_LAST][SIM_NARRATE_LINE];
	unsigned long nr_last;		/* lines told so far		*/
	int on;				/* begun, not ended		*/
	char *out;			/* sim__narrate_text(): the line
					 * goes here, without its head	*/
	size_t out_len;
};

/* The narration of --narrate, and the one of sim__narrate_text() (the
 * HTML page's sentences), each with its own state; nr is the one a
 * record goes through. */
static struct narrator nr_main, nr_view;
static struct narrator *nr = &nr_main;
static char nbuf[64 * 1024];

static int task_idx(int tid)
{
	int i = tid - SIM_TID_BASE;

	return tid && i >= 0 && i < MAX_TASKS ? i : -1;
}

static int cpu_idx(int cpu)
{
	return cpu >= 0 && cpu < MAX_CPUS ? cpu : MAX_CPUS - 1;
}

/* "FUTEX_WAIT" for FUTEX_WAIT_PRIVATE and the like. */
static const char *cmd_name(unsigned int op, char *buf, size_t len)
{
	char tmp[48];
	const char *p = sim__trace_futex_op(op & FUTEX_CMD_MASK, tmp,
					    sizeof(tmp));

	snprintf(buf, len, "%s", p);
	return buf;
}

static void say(const struct sim_trace_rec *r, int tid, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void say(const struct sim_trace_rec *r, int tid, const char *fmt, ...)
{
	uint64_t ns = r->ts_ps / 1000;
	char *line;
	va_list ap;
	int n;

	if (r->ts_ps < nr->from_ps)
		return;		/* before the window: state only */
	if (nr->out) {		/* sim__narrate_text(): the sentence only */
		va_start(ap, fmt);
		vsnprintf(nr->out, nr->out_len, fmt, ap); /* NOLINT(clang-analyzer-valist.Uninitialized): va_start above */
		va_end(ap);
		return;
	}
	line = nr->last[nr->nr_last++ % SIM_NARRATE_LAST];
	n = snprintf(line, SIM_NARRATE_LINE, "%" PRIu64 ".%06" PRIu64 " ms  %s (cpu %d): ",
		     ns / 1000000, ns % 1000000, sim__trace_comm(tid), r->cpu);
	if (n < 0 || n >= SIM_NARRATE_LINE)
		n = 0;
	va_start(ap, fmt);
	vsnprintf(line + n, SIM_NARRATE_LINE - (size_t)n, fmt, ap); /* NOLINT(clang-analyzer-valist.Uninitialized): va_start above */
	va_end(ap);
	if (nr->f) {
		fputs(line, nr->f);
		fputc('\n', nr->f);
	}
}

/* The word in (tail,pending,locked), as sim/trace/trace_text.c prints it. */
static const char *tpl(uint32_t w, char *buf, size_t len)
{
	uint32_t tail = w >> 16;

	if (!tail)
		snprintf(buf, len, "(0,%u,%u)", (w >> 8) & 0xff, w & 0xff);
	else if (tail & 3)
		snprintf(buf, len, "(c%u.%u,%u,%u)", (tail >> 2) - 1, tail & 3,
			 (w >> 8) & 0xff, w & 0xff);
	else
		snprintf(buf, len, "(c%u,%u,%u)", (tail >> 2) - 1,
			 (w >> 8) & 0xff, w & 0xff);
	return buf;
}

static void futex_enter(const struct sim_trace_rec *r)
{
	unsigned int cmd = r->a & FUTEX_CMD_MASK;
	int t = task_idx(r->tid);
	char op[48], name[160];

	if (t >= 0) {
		nr->in_futex[t] = (int)cmd + 1;
		nr->val[t] = r->b;
	}
	cmd_name(r->a, op, sizeof(op));
	sim__trace_addr_name(r->addr, name, sizeof(name));
	if (cmd == FUTEX_WAIT || cmd == FUTEX_WAIT_BITSET)
		say(r, r->tid, "calls %s on %s, to sleep if the word is still %u (it is %u now)",
		    op, name, r->b, r->word);
	else if (cmd == FUTEX_WAKE || cmd == FUTEX_WAKE_BITSET)
		say(r, r->tid, "calls %s on %s to wake up to %u waiter%s",
		    op, name, r->b, r->b == 1 ? "" : "s");
	else
		say(r, r->tid, "calls %s on %s (the word is %u)",
		    op, name, r->word);
}

static const char *wait_error(long ret)
{
	switch (-ret) {
	case 11:	/* EAGAIN */
		return "the futex word changed between its user-space read and the bucket lock";
	case 110:	/* ETIMEDOUT */
		return "the timeout expired before a wakeup came";
	case 4:		/* EINTR */
		return "interrupted before a wakeup came";
	}
	return "an error";
}

static void futex_exit(const struct sim_trace_rec *r)
{
	unsigned int cmd = r->a & FUTEX_CMD_MASK;
	const char *e = r->arg < 0 ? sim__trace_errno((long)r->arg) : NULL;
	int t = task_idx(r->tid);
	char op[48];

	if (t >= 0)
		nr->in_futex[t] = 0;
	cmd_name(r->a, op, sizeof(op));
	if ((cmd == FUTEX_WAIT || cmd == FUTEX_WAIT_BITSET) && r->arg == -11 &&
	    t >= 0 && nr->val[t] == r->word)
		/* the kernel read another value: the word came back since */
		say(r, r->tid, "%s returned %s: %s (expected %u; it was another value when the kernel read it, and is %u again now)",
		    op, e ? e : "an error", wait_error((long)r->arg),
		    nr->val[t], r->word);
	else if ((cmd == FUTEX_WAIT || cmd == FUTEX_WAIT_BITSET) && r->arg < 0)
		say(r, r->tid, "%s returned %s: %s (expected %u, the word is %u now)",
		    op, e ? e : "an error", wait_error((long)r->arg),
		    t >= 0 ? nr->val[t] : 0, r->word);
	else if (cmd == FUTEX_WAIT || cmd == FUTEX_WAIT_BITSET)
		say(r, r->tid, "%s returned 0: woken by a FUTEX_WAKE (the word is %u now)",
		    op, r->word);
	else if ((cmd == FUTEX_WAKE || cmd == FUTEX_WAKE_BITSET) && r->arg == 0)
		say(r, r->tid, "%s returned 0: no task was waiting", op);
	else if (cmd == FUTEX_WAKE || cmd == FUTEX_WAKE_BITSET)
		say(r, r->tid, "%s returned %" PRId64 ": woke %" PRId64 " waiter%s",
		    op, r->arg, r->arg, r->arg == 1 ? "" : "s");
	else if (e)
		say(r, r->tid, "%s returned %s", op, e);
	else
		say(r, r->tid, "%s returned %" PRId64 " (the word is %u now)",
		    op, r->arg, r->word);
}

/* Where @prev went, when the switch took it off the CPU. */
static void sched_switch(const struct sim_trace_rec *r)
{
	int t = task_idx(r->tid), c = cpu_idx(r->cpu);
	char in[64] = "", op[48], next[40];

	nr->cpu_curr[c] = r->tid2;
	if (!r->tid)
		return;
	if (r->tid2)
		snprintf(next, sizeof(next), "cpu %d runs %s", r->cpu,
			 sim__trace_comm(r->tid2));
	else
		snprintf(next, sizeof(next), "cpu %d goes idle", r->cpu);
	if (t >= 0 && nr->in_futex[t])
		snprintf(in, sizeof(in), " in %s",
			 cmd_name((unsigned int)nr->in_futex[t] - 1, op, sizeof(op)));
	else if (t >= 0 && nr->in_sleep[t])
		snprintf(in, sizeof(in), " in nanosleep");
	switch (r->op) {
	case 'S':
		say(r, r->tid, "slept%s; %s", in, next);
		break;
	case '+':
		say(r, r->tid, "was preempted%s; %s", in, next);
		break;
	case 'X':
		say(r, r->tid, "exited; %s", next);
		break;
	default:
		say(r, r->tid, "gave up the cpu%s; %s", in, next);
	}
}

static void wakeup(const struct sim_trace_rec *r)
{
	int c = cpu_idx((int)r->a);
	char where[64];

	if (r->type == SIM_TEV_SCHED_WAKEUP_NEW) {
		say(r, r->tid, "started %s on cpu %u", sim__trace_comm(r->tid2),
		    r->a);
		return;
	}
	if (!nr->cpu_curr[c])
		snprintf(where, sizeof(where), "placed on idle cpu %u", r->a);
	else
		snprintf(where, sizeof(where), "placed on cpu %u, which runs %s",
			 r->a, sim__trace_comm(nr->cpu_curr[c]));
	say(r, r->tid, "woke %s (%s)", sim__trace_comm(r->tid2), where);
}

static void slowpath(const struct sim_trace_rec *r, const char *lock)
{
	uint32_t w = r->a;
	char t[32];
	int c = cpu_idx(r->cpu);

	nr->slow_ps[c] = r->ts_ps;
	nr->slow_addr[c] = r->addr;
	tpl(w, t, sizeof(t));
	if (!w)
		say(r, r->tid, "found the qspinlock %s free at %s after its cmpxchg failed, and retries in the slow path",
		    lock, t);
	else if (w >> 8)
		say(r, r->tid, "found the qspinlock %s at %s and queued", lock,
		    t);
	else
		say(r, r->tid, "found the qspinlock %s held at %s: sets pending and spins until the owner releases it",
		    lock, t);
}

static void qspinlock(const struct sim_trace_rec *r)
{
	int c = cpu_idx(r->cpu);
	char lock[64], t1[32], t2[32];
	uint64_t ns;

	sim_lockstat_name(r->addr, lock, sizeof(lock));
	switch (r->op) {
	case SIM_QS_SLOWPATH:
		slowpath(r, lock);
		break;
	case SIM_QS_LOCK:
		if (nr->slow_addr[c] != r->addr)
			break;
		nr->slow_addr[c] = 0;
		ns = (r->ts_ps - nr->slow_ps[c]) / 1000;
		say(r, r->tid, "acquired the qspinlock %s after %" PRIu64 ".%03" PRIu64 " us in the slow path; the word is %s",
		    lock, ns / 1000, ns % 1000, tpl(r->b, t1, sizeof(t1)));
		break;
	case SIM_QS_TRYFAIL:
		say(r, r->tid, "trylock of the qspinlock %s failed: found %s",
		    lock, tpl(r->a, t1, sizeof(t1)));
		break;
	case SIM_QS_UNLOCK:
		if (!(r->a >> 8))
			break;
		say(r, r->tid, "released the qspinlock %s with waiters: %s -> %s",
		    lock, tpl(r->a, t1, sizeof(t1)), tpl(r->b, t2, sizeof(t2)));
		break;
	}
}

/* The steps of a TP futex (futex/tp.c) in words. */
static void tp_step(const struct sim_trace_rec *r)
{
	static const char *const how[] = {
		"stole it in the kernel", "took it as the spinning top waiter",
		"was handed it by the unlocker",
	};
	uint64_t a = r->addr;

	switch (r->op) {
	case SIM_TP_STEAL:
		say(r, r->tid, "stole the TP futex 0x%" PRIx64 " in its one kernel attempt", a);
		break;
	case SIM_TP_TOP_WAITER:
		say(r, r->tid, "holds the serialization mutex of 0x%" PRIx64 ": it is the top waiter", a);
		break;
	case SIM_TP_SPIN_START:
		say(r, r->tid, "spins on 0x%" PRIx64 ": its owner %s runs on a CPU",
		    a, sim__trace_comm((int)(r->a & FUTEX_TP_TID_MASK)));
		break;
	case SIM_TP_SPIN_STOP:
		say(r, r->tid, "stops spinning on 0x%" PRIx64 ": its owner is off CPU", a);
		break;
	case SIM_TP_SLEEP:
		say(r, r->tid, "set FUTEX_WAITERS on 0x%" PRIx64 " and sleeps until the owner's unlock", a);
		break;
	case SIM_TP_HANDOFF_REQUEST:
		say(r, r->tid, "asks for a handoff of 0x%" PRIx64 " (budget or ns waited: %lld)",
		    a, (long long)r->arg);
		break;
	case SIM_TP_HANDOFF_GRANT:
		say(r, r->tid, "hands 0x%" PRIx64 " to %s: its TID goes into the word",
		    a, sim__trace_comm((int)r->a));
		break;
	case SIM_TP_ACQUIRE:
		say(r, r->tid, "leaves FUTEX_LOCK owning 0x%" PRIx64 ": %s, after %lld sleeps",
		    a, (r->arg & 0xff) < 3 ? how[r->arg & 0xff] : "?",
		    (long long)((r->arg >> 16) & 0x7fff));
		break;
	case SIM_TP_UNLOCK:
		say(r, r->tid, "unlocked 0x%" PRIx64 " in the kernel (word now 0x%x)%s",
		    a, r->a, r->arg > 0 ? ", waking the sleeping top waiter" : "");
		break;
	case SIM_TP_MUTEX_ENQUEUE:
		say(r, r->tid, "queues on the serialization mutex of 0x%" PRIx64, a);
		break;
	case SIM_TP_TIMEOUT:
		say(r, r->tid, "gives up FUTEX_LOCK on 0x%" PRIx64 ": its timeout passed", a);
		break;
	case SIM_TP_OWNER_DIED:
		say(r, r->tid, "takes 0x%" PRIx64 " over: its owner %s died holding it",
		    a, sim__trace_comm((int)(r->a & FUTEX_TP_TID_MASK)));
		break;
	}
}

/* A program's atomic on a futex word, with the rule of sim/trace/uword.h:
 * 0 -> non-zero takes the word, non-zero -> 0 frees it. */
static void uatomic(const struct sim_trace_rec *r)
{
	uint64_t before = (uint64_t)r->arg, after = r->a | (uint64_t)r->b << 32;
	const char *what = "";
	char name[160];

	if (!before && after)
		what = " (takes it)";
	else if (before && !after)
		what = " (frees it)";
	sim__trace_addr_name(r->addr, name, sizeof(name));
	if (r->op == FUTEXSIM_OP_LOAD)
		say(r, r->tid, "load of %s: %" PRIu64, name, after);
	else
		say(r, r->tid, "%s on %s: %" PRIu64 " -> %" PRIu64 "%s",
		    sim_uword_op_name(r->op, !!(r->tid2 & SIM_TRACE_UATOMIC_OK)),
		    name, before, after, what);
}

static void narrate_one(const struct sim_trace_rec *r)
{
	int t = task_idx(r->tid);

	switch (r->type) {
	case SIM_TEV_FUTEX_ENTER:
		futex_enter(r);
		break;
	case SIM_TEV_FUTEX_EXIT:
		futex_exit(r);
		break;
	case SIM_TEV_NANOSLEEP_ENTER:
	case SIM_TEV_NANOSLEEP_EXIT:
		if (t >= 0)
			nr->in_sleep[t] = r->type == SIM_TEV_NANOSLEEP_ENTER;
		break;
	case SIM_TEV_SCHED_SWITCH:
		sched_switch(r);
		break;
	case SIM_TEV_SCHED_WAKEUP:
	case SIM_TEV_SCHED_WAKEUP_NEW:
		wakeup(r);
		break;
	case SIM_TEV_QSPINLOCK:
		qspinlock(r);
		break;
	case SIM_TEV_TP:
		tp_step(r);
		break;
	case SIM_TEV_UATOMIC:
		uatomic(r);
		break;
	case SIM_TEV_SCHED_PI_SETPRIO:
		if ((int32_t)r->b < (int32_t)r->a)
			say(r, r->tid, "boosted %s from prio %d to %d "
			    "(priority inheritance: a better task waits on "
			    "a lock it owns)", sim__trace_comm(r->tid2),
			    (int)r->a, (int)r->b);
		else
			say(r, r->tid, "returned %s from prio %d to %d "
			    "(its booster no longer waits on it)",
			    sim__trace_comm(r->tid2), (int)r->a, (int)r->b);
		break;
	}
}

void sim__narrate_rec(const struct sim_trace_rec *r)
{
	nr = &nr_main;
	narrate_one(r);
}

void sim__narrate_text_begin(const struct sim_trace_ctx *c)
{
	memset(&nr_view, 0, sizeof(nr_view));
	nr_view.from_ps = c->from_ps;
	nr_view.on = 1;
}

int sim__narrate_text(const struct sim_trace_rec *r, char *buf, size_t len)
{
	buf[0] = '\0';
	if (!nr_view.on || !len)
		return 0;
	nr = &nr_view;
	nr->out = buf;
	nr->out_len = len;
	narrate_one(r);
	nr->out = NULL;
	nr = &nr_main;
	return buf[0] != '\0';
}

void sim__narrate_begin(const struct sim_trace_ctx *c)
{
	int fd;

	nr = &nr_main;
	memset(nr, 0, sizeof(*nr));
	nr->from_ps = c->from_ps;
	nr->on = 1;
	if (c->narrate_quiet)
		return;			/* the ring only: nr->f stays NULL */
	fd = dup(STDERR_FILENO);
	nr->f = fd < 0 ? NULL : fdopen(fd, "w");
	if (!nr->f)
		nr->f = stderr;
	else
		setvbuf(nr->f, nbuf, _IOFBF, sizeof(nbuf));
	fprintf(nr->f, "# narration: %s\n", c->title);
}

int sim__narrate_last(void (*fn)(const char *line, void *arg), void *arg)
{
	unsigned long i = 0;

	nr = &nr_main;
	if (!nr->on)
		return -1;
	if (nr->f)
		fflush(nr->f);
	if (nr->nr_last > SIM_NARRATE_LAST)
		i = nr->nr_last - SIM_NARRATE_LAST;
	for (; i < nr->nr_last; i++)
		fn(nr->last[i % SIM_NARRATE_LAST], arg);
	return (int)(nr->nr_last < SIM_NARRATE_LAST ? nr->nr_last :
		     SIM_NARRATE_LAST);
}

void sim__narrate_end(void)
{
	nr = &nr_main;
	if (nr->f && nr->f != stderr)
		fclose(nr->f);
	else if (nr->f)
		fflush(nr->f);
	nr->f = NULL;
	nr->on = 0;
}

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sim/trace/trace_json.c - the Chrome trace-event JSON writer of --trace
 * FILE.json, the format Perfetto (ui.perfetto.dev) and chrome://tracing
 * open.
 *
 * Stage: trace/report.  Called by sim/trace/trace.c with every record in time
 * order up to the window's end (the records before the window only update
 * the state below); writes to the trace's FILE.
 *
 * The document is {"displayTimeUnit":"ns","otherData":{...},
 * "traceEvents":[...]}, one event per line, timestamps in simulated
 * microseconds with 6 decimals (picoseconds).  Three "processes":
 *
 *   pid 1 "CPUs"   one thread track per CPU (tid 10000 + CPU, named
 *                  "CPU N"): "X" slices named after the task that runs
 *                  ("worker3 (103)") or "idle"; from sched_switch.
 *   pid 2 "tasks"  one thread track per task (tid = the task's TID), with
 *                  nested "X" slices:
 *                    depth 0  "user", or the system call: the futex op
 *                             ("FUTEX_WAIT_PRIVATE", args uaddr, val,
 *                             ret, errno; ret null if the call had not
 *                             returned when the trace ended) or
 *                             "nanosleep";
 *                    depth 1  "running", "runnable" (woken or preempted,
 *                             waiting for a CPU), "sleeping";
 *                    depth 2  "spinning" on a kernel spinlock (qspinlock
 *                             events: from entering the slow path to the
 *                             acquisition), and inside it "contention"
 *                             (the kernel's contention_begin/end);
 *                  and "i" instants "waking" (args: by whom) and
 *                  "tp OP" (TP futex steps: uaddr, word, arg), and
 *                  "atomic OP" (the program's atomics: uaddr, size,
 *                  old, new).
 *                  The CPU tracks get "i" instants "load miss", "store
 *                  miss", "rmw miss" when trace-events names cache (args:
 *                  line, from: the owner CPU or -1, dist, inval, wait_us,
 *                  cost_us).
 *   pid 3 "locks"  "C" counters: "futex 0x..." per futex word (waiters:
 *                  tasks inside a waiting futex op on it; word: its value
 *                  at the last futex event or atomic on it), "qspinlock 0x..." per kernel
 *                  spinlock seen by the qspinlock events (waiters: tasks
 *                  spinning; holder: TID of the owner, 0 when free).
 *
 * Slices are clipped to the window; at the window's start every known
 * counter is written once with its value then.  A state nobody's events
 * reveal (e.g. CPU tracks without the sched events) is not drawn.  State
 * is fixed-size: per task, per CPU, and per lock for the first
 * JSON_MAX_LOCKS locks (later locks get no counters).
 */
#include <linux/futex.h>
#include <string.h>

#include "sim/machine/machine.h"
#include "sim/report/report.h"
#include "sim/report/symbols.h"
#include "sim/trace/trace_writer.h"
#include "sim/trace/uword.h"

#define PID_CPUS	1
#define PID_TASKS	2
#define PID_LOCKS	3
#define CPU_TID_BASE	10000
#define JSON_MAX_LOCKS	1024
#define LOCK_HASH	2048		/* power of two, > JSON_MAX_LOCKS */

enum { MODE_NONE, MODE_USER, MODE_FUTEX, MODE_SLEEP };
enum { RUN_NONE, RUN_RUNNING, RUN_RUNNABLE, RUN_SLEEPING, RUN_DEAD };

struct jtask {
	uint8_t named;		/* its thread_name is written		*/
	uint8_t mode, run;	/* depth 0 and depth 1 states		*/
	uint8_t spinning, contending;
	uint64_t mode_ps, run_ps, spin_ps, cont_ps;
	uint64_t spin_lock, cont_lock;
	uint32_t spin_word;
	uint32_t f_op, f_val;	/* the futex call of MODE_FUTEX		*/
	uint64_t f_addr;
};

struct jlock {
	uint64_t addr;
	int futex;		/* a futex word, else a kernel spinlock	*/
	int waiters;
	int holder;
	uint32_t word;
};

static struct {
	struct jtask tasks[SIM_MAX_TASKS];
	struct { int tid; uint64_t since_ps; } cpus[SIM_MAX_CPUS];
	struct jlock locks[JSON_MAX_LOCKS];
	int nr_locks;
	short hash[LOCK_HASH];	/* lock index + 1, 0: empty		*/
	int nr_events;
	int started;		/* the window has begun			*/
} js;

static const char *const run_names[] = {
	[RUN_RUNNING] = "running", [RUN_RUNNABLE] = "runnable",
	[RUN_SLEEPING] = "sleeping",
};

/* ---- output ---------------------------------------------------------- */

static FILE *out;

static void ev_start(void)
{
	fputs(js.nr_events++ ? ",\n{" : "{", out);
}

static void put_ts(const char *key, uint64_t ps)
{
	fprintf(out, ",\"%s\":%llu.%06llu", key,
		(unsigned long long)(ps / 1000000),
		(unsigned long long)(ps % 1000000));
}

static void put_str(const char *v)
{
	sim_json_string(out, v, (size_t)-1);	/* sim/report/report.h */
}

static void meta(int pid, int tid, const char *what, const char *name,
		 int sort)
{
	ev_start();
	fprintf(out, "\"ph\":\"M\",\"pid\":%d,\"tid\":%d,\"name\":\"%s\",\"args\":{\"name\":",
		pid, tid, what);
	put_str(name);
	fputs("}}", out);
	ev_start();
	fprintf(out, "\"ph\":\"M\",\"pid\":%d,\"tid\":%d,\"name\":\"%s_sort_index\",\"args\":{\"sort_index\":%d}}",
		pid, tid, what[0] == 'p' ? "process" : "thread", sort);
}

/* An "X" slice [@b, @e] clipped to the window, unless empty; @args: JSON
 * members or NULL. */
static void slice(const struct sim_trace_ctx *c, int pid, int tid,
		  const char *name, uint64_t b, uint64_t e, const char *args)
{
	if (e < c->from_ps || b > c->to_ps)
		return;
	if (b < c->from_ps)
		b = c->from_ps;
	if (e > c->to_ps)
		e = c->to_ps;
	if (e == b)
		return;		/* nothing to draw, and it would not nest */
	ev_start();
	fprintf(out, "\"ph\":\"X\",\"pid\":%d,\"tid\":%d", pid, tid);
	put_ts("ts", b);
	put_ts("dur", e - b);
	fputs(",\"name\":", out);
	put_str(name);
	if (args)
		fprintf(out, ",\"args\":{%s}", args);
	fputc('}', out);
}

static void task_label(int tid, char *buf, size_t len)
{
	snprintf(buf, len, "%s (%d)", sim__trace_comm(tid), tid);
}

/* ---- locks ------------------------------------------------------------- */

static struct jlock *lock_get(uint64_t addr, int futex)
{
	unsigned int h = (unsigned int)((addr >> 2) * 2654435761u) & (LOCK_HASH - 1);
	struct jlock *l;

	if (!addr)
		return NULL;
	for (; js.hash[h]; h = (h + 1) & (LOCK_HASH - 1))
		if (js.locks[js.hash[h] - 1].addr == addr)
			return &js.locks[js.hash[h] - 1];
	if (js.nr_locks == JSON_MAX_LOCKS)
		return NULL;
	l = &js.locks[js.nr_locks++];
	*l = (struct jlock){ .addr = addr, .futex = futex };
	js.hash[h] = (short)js.nr_locks;
	return l;
}

static void counter(const struct sim_trace_ctx *c, const struct jlock *l,
		    uint64_t ts_ps)
{
	char name[160];

	if (!l || ts_ps < c->from_ps || ts_ps > c->to_ps)
		return;
	ev_start();
	fprintf(out, "\"ph\":\"C\",\"pid\":%d,\"name\":\"%s 0x%llx", PID_LOCKS,
		l->futex ? "futex" : "qspinlock", (unsigned long long)l->addr);
	if (l->futex && sim_sym_known(l->addr)) {	/* inside the string */
		sim_sym_name(l->addr, name, sizeof(name));
		fputc(' ', out);
		for (const char *p = name; *p; p++)
			if (*p != '"' && *p != '\\' && (unsigned char)*p >= ' ')
				fputc(*p, out);
	}
	fputs("\"", out);
	put_ts("ts", ts_ps);
	if (l->futex)
		fprintf(out, ",\"args\":{\"waiters\":%d,\"word\":%u}}",
			l->waiters, l->word);
	else
		fprintf(out, ",\"args\":{\"waiters\":%d,\"holder\":%d}}",
			l->waiters, l->holder);
}

/* ---- tasks ------------------------------------------------------------- */

static struct jtask *task_get(int tid)
{
	int i = tid - SIM_TID_BASE;
	struct jtask *t;
	char label[48];

	if (!tid || i < 0 || i >= SIM_MAX_TASKS)
		return NULL;
	t = &js.tasks[i];
	if (!t->named) {
		t->named = 1;
		task_label(tid, label, sizeof(label));
		meta(PID_TASKS, tid, "thread_name", label, i);
	}
	return t;
}

/* The return value of a system call still in progress at the end. */
#define RET_NONE	INT64_MIN

/* Depth 0 ends at @ts: its slice, with the system call's args. */
static void mode_slice(const struct sim_trace_ctx *c, struct jtask *t,
		       int tid, uint64_t ts, int64_t ret)
{
	char name[48], args[160], rets[24] = "null";
	const char *e;

	switch (t->mode) {
	case MODE_USER:
		slice(c, PID_TASKS, tid, "user", t->mode_ps, ts, NULL);
		break;
	case MODE_SLEEP:
		slice(c, PID_TASKS, tid, "nanosleep", t->mode_ps, ts, NULL);
		break;
	case MODE_FUTEX:
		e = ret < 0 && ret != RET_NONE ? sim__trace_errno((long)ret) : NULL;
		if (ret != RET_NONE)
			snprintf(rets, sizeof(rets), "%lld", (long long)ret);
		snprintf(args, sizeof(args),
			 "\"uaddr\":\"0x%llx\",\"val\":%u,\"ret\":%s,\"errno\":%s%s%s",
			 (unsigned long long)t->f_addr, t->f_val, rets,
			 e ? "\"" : "", e ? e : "null", e ? "\"" : "");
		slice(c, PID_TASKS, tid,
		      sim__trace_futex_op(t->f_op, name, sizeof(name)),
		      t->mode_ps, ts, args);
		break;
	}
}

static void run_slice(const struct sim_trace_ctx *c, struct jtask *t,
		      int tid, uint64_t ts)
{
	if (t->run >= RUN_RUNNING && t->run <= RUN_SLEEPING)
		slice(c, PID_TASKS, tid, run_names[t->run], t->run_ps, ts, NULL);
}

static void run_set(const struct sim_trace_ctx *c, struct jtask *t, int tid,
		    int run, uint64_t ts)
{
	run_slice(c, t, tid, ts);
	t->run = (uint8_t)run;
	t->run_ps = ts;
}

/* A new depth-0 state at @ts: the depth-1 slice is cut there too, so
 * that it nests (the parent is written first). */
static void mode_set(const struct sim_trace_ctx *c, struct jtask *t, int tid,
		     int mode, uint64_t ts, int64_t ret)
{
	mode_slice(c, t, tid, ts, ret);
	run_slice(c, t, tid, ts);
	t->run_ps = ts;
	t->mode = (uint8_t)mode;
	t->mode_ps = ts;
}

/* ---- records ------------------------------------------------------------- */

static void on_switch(const struct sim_trace_ctx *c,
		      const struct sim_trace_rec *r)
{
	struct jtask *prev = task_get(r->tid), *next = task_get(r->tid2);
	char label[48] = "idle";
	int cpu = r->cpu;

	if (js.cpus[cpu].tid)
		task_label(js.cpus[cpu].tid, label, sizeof(label));
	slice(c, PID_CPUS, CPU_TID_BASE + cpu, label, js.cpus[cpu].since_ps,
	      r->ts_ps, NULL);
	js.cpus[cpu].tid = r->tid2;
	js.cpus[cpu].since_ps = r->ts_ps;
	if (prev && r->op == 'X') {
		mode_slice(c, prev, r->tid, r->ts_ps, 0);
		run_set(c, prev, r->tid, RUN_DEAD, r->ts_ps);
		prev->mode = MODE_NONE;
	} else if (prev) {
		run_set(c, prev, r->tid,
			r->op == 'S' ? RUN_SLEEPING : RUN_RUNNABLE, r->ts_ps);
	}
	if (next)
		run_set(c, next, r->tid2, RUN_RUNNING, r->ts_ps);
}

static void on_wake(const struct sim_trace_ctx *c,
		    const struct sim_trace_rec *r)
{
	struct jtask *t = task_get(r->tid2);
	char label[48];

	if (!t)
		return;
	if (r->type == SIM_TEV_SCHED_WAKEUP_NEW) {
		t->mode = MODE_USER;
		t->mode_ps = r->ts_ps;
		run_set(c, t, r->tid2, RUN_RUNNABLE, r->ts_ps);
		return;
	}
	if (r->type != SIM_TEV_SCHED_WAKING)
		return;
	if (t->run == RUN_SLEEPING)
		run_set(c, t, r->tid2, RUN_RUNNABLE, r->ts_ps);
	if (r->ts_ps < c->from_ps)
		return;
	task_label(r->tid, label, sizeof(label));
	ev_start();
	fprintf(out, "\"ph\":\"i\",\"s\":\"t\",\"pid\":%d,\"tid\":%d", PID_TASKS,
		r->tid2);
	put_ts("ts", r->ts_ps);
	fputs(",\"name\":\"waking\",\"args\":{\"by\":", out);
	put_str(label);
	fprintf(out, ",\"target_cpu\":%u}}", r->a);
}

/* A TP futex step: an instant on the task's track, named by its op. */
static void on_tp(const struct sim_trace_ctx *c, const struct sim_trace_rec *r)
{
	if (r->ts_ps < c->from_ps || !task_get(r->tid))
		return;
	ev_start();
	fprintf(out, "\"ph\":\"i\",\"s\":\"t\",\"pid\":%d,\"tid\":%d", PID_TASKS,
		r->tid);
	put_ts("ts", r->ts_ps);
	fprintf(out, ",\"name\":\"tp %s\",\"args\":{\"uaddr\":\"0x%llx\","
		"\"word\":%u,\"arg\":%lld}}", sim__trace_tp_op(r->op),
		(unsigned long long)r->addr, r->a, (long long)r->arg);
}

/* A cache miss: an "i" instant on the CPU's track (sim/trace/trace_writer.h). */
static void on_cache(const struct sim_trace_ctx *c,
		     const struct sim_trace_rec *r)
{
	if (r->ts_ps < c->from_ps)
		return;
	ev_start();
	fprintf(out, "\"ph\":\"i\",\"s\":\"t\",\"pid\":%d,\"tid\":%d",
		PID_CPUS, CPU_TID_BASE + r->cpu);
	put_ts("ts", r->ts_ps);
	fprintf(out, ",\"name\":\"%s miss\",\"args\":{\"line\":\"0x%llx\","
		"\"from\":%d,\"dist\":\"%s\",\"inval\":%u",
		sim__trace_access(r->op), (unsigned long long)r->addr,
		r->tid2 - 1, sim__trace_tier(r->a), r->b);
	put_ts("wait_us", r->word);
	put_ts("cost_us", (uint64_t)r->arg);
	fputs("}}", out);
}

/* A program's atomic: an instant on the task's track; on a futex word,
 * the word's counter takes the value it left. */
static void on_uatomic(const struct sim_trace_ctx *c,
		       const struct sim_trace_rec *r)
{
	struct jlock *l = r->type == SIM_TEV_UATOMIC ?
			  lock_get(r->addr, 1) : NULL;

	if (l && l->word != r->word) {
		l->word = r->word;
		counter(c, l, r->ts_ps);
	}
	if (r->ts_ps < c->from_ps || !task_get(r->tid))
		return;
	ev_start();
	fprintf(out, "\"ph\":\"i\",\"s\":\"t\",\"pid\":%d,\"tid\":%d", PID_TASKS,
		r->tid);
	put_ts("ts", r->ts_ps);
	fprintf(out, ",\"name\":\"atomic %s\",\"args\":{\"uaddr\":\"0x%llx\","
		"\"size\":%d,\"old\":%llu,\"new\":%llu}}",
		sim_uword_op_name(r->op, !!(r->tid2 & SIM_TRACE_UATOMIC_OK)),
		(unsigned long long)r->addr, r->tid2 & 0xff,
		(unsigned long long)r->arg,
		(unsigned long long)(r->a | (uint64_t)r->b << 32));
}

static void on_futex(const struct sim_trace_ctx *c,
		     const struct sim_trace_rec *r)
{
	struct jtask *t = task_get(r->tid);
	struct jlock *l = lock_get(r->addr, 1);
	int enter = r->type == SIM_TEV_FUTEX_ENTER;

	if (l) {
		if (sim__trace_futex_waits(r->a))
			l->waiters += enter ? 1 : -1;
		l->word = r->word;
		counter(c, l, r->ts_ps);
	}
	if (!t)
		return;
	mode_set(c, t, r->tid, enter ? MODE_FUTEX : MODE_USER, r->ts_ps,
		 enter ? 0 : r->arg);
	if (enter) {
		t->f_op = r->a;
		t->f_val = r->b;
		t->f_addr = r->addr;
	}
}

static void on_qspin(const struct sim_trace_ctx *c,
		     const struct sim_trace_rec *r)
{
	struct jtask *t = task_get(r->tid);
	struct jlock *l = lock_get(r->addr, 0);
	char args[96];

	if (r->op == SIM_QS_TRYFAIL)
		return;
	if (r->op == SIM_QS_SLOWPATH) {
		if (t) {
			t->spinning = 1;
			t->spin_ps = r->ts_ps;
			t->spin_lock = r->addr;
			t->spin_word = r->a;
		}
		if (l)
			l->waiters++;
	} else if (r->op == SIM_QS_UNLOCK) {
		if (l)
			l->holder = 0;
	} else {
		if (t && t->spinning && t->spin_lock == r->addr) {
			snprintf(args, sizeof(args),
				 "\"lock\":\"0x%llx\",\"slowpath_found\":%u",
				 (unsigned long long)r->addr, t->spin_word);
			slice(c, PID_TASKS, r->tid, "spinning", t->spin_ps,
			      r->ts_ps, args);
			t->spinning = 0;
			if (l && l->waiters > 0)
				l->waiters--;
		}
		if (l)
			l->holder = r->tid;
	}
	counter(c, l, r->ts_ps);
}

static void on_contention(const struct sim_trace_ctx *c,
			  const struct sim_trace_rec *r)
{
	struct jtask *t = task_get(r->tid);
	char args[96];

	if (!t)
		return;
	if (r->type == SIM_TEV_CONTENTION_BEGIN) {
		t->contending = 1;
		t->cont_ps = r->ts_ps;
		t->cont_lock = r->addr;
		return;
	}
	if (!t->contending || t->cont_lock != r->addr)
		return;
	snprintf(args, sizeof(args), "\"lock\":\"0x%llx\",\"ret\":%lld",
		 (unsigned long long)r->addr, (long long)r->arg);
	slice(c, PID_TASKS, r->tid, "contention", t->cont_ps, r->ts_ps, args);
	t->contending = 0;
}

/* The window opens: every counter's value now. */
static void window_start(const struct sim_trace_ctx *c)
{
	js.started = 1;
	for (int i = 0; i < js.nr_locks; i++)
		counter(c, &js.locks[i], c->from_ps);
}

void sim__trace_json_rec(const struct sim_trace_ctx *c,
			 const struct sim_trace_rec *r)
{
	if (!js.started && r->ts_ps >= c->from_ps)
		window_start(c);
	switch (r->type) {
	case SIM_TEV_SCHED_SWITCH:
		on_switch(c, r);
		break;
	case SIM_TEV_SCHED_WAKING:
	case SIM_TEV_SCHED_WAKEUP:
	case SIM_TEV_SCHED_WAKEUP_NEW:
		on_wake(c, r);
		break;
	case SIM_TEV_FUTEX_ENTER:
	case SIM_TEV_FUTEX_EXIT:
		on_futex(c, r);
		break;
	case SIM_TEV_NANOSLEEP_ENTER:
	case SIM_TEV_NANOSLEEP_EXIT: {
		struct jtask *t = task_get(r->tid);

		if (t)
			mode_set(c, t, r->tid,
				 r->type == SIM_TEV_NANOSLEEP_ENTER ?
				 MODE_SLEEP : MODE_USER, r->ts_ps, 0);
		break;
	}
	case SIM_TEV_CONTENTION_BEGIN:
	case SIM_TEV_CONTENTION_END:
		on_contention(c, r);
		break;
	case SIM_TEV_QSPINLOCK:
		on_qspin(c, r);
		break;
	case SIM_TEV_TP:
		on_tp(c, r);
		break;
	case SIM_TEV_CACHE:
		on_cache(c, r);
		break;
	case SIM_TEV_UATOMIC:
	case SIM_TEV_UATOMIC_OTHER:
		on_uatomic(c, r);
		break;
	}
}

void sim__trace_json_begin(const struct sim_trace_ctx *c)
{
	char name[32];

	memset(&js, 0, sizeof(js));
	out = c->f;
	fputs("{\"displayTimeUnit\":\"ns\",\"otherData\":{\"title\":", out);
	put_str(c->title);
	fputs(",\"clock\":\"simulated time, microseconds\"},\n\"traceEvents\":[\n",
	      out);
	meta(PID_CPUS, 0, "process_name", "CPUs", 1);
	meta(PID_TASKS, 0, "process_name", "tasks", 2);
	meta(PID_LOCKS, 0, "process_name", "locks", 3);
	for (int i = 0; i < c->nr_cpus; i++) {
		snprintf(name, sizeof(name), "CPU %d", i);
		meta(PID_CPUS, CPU_TID_BASE + i, "thread_name", name, i);
	}
}

void sim__trace_json_end(const struct sim_trace_ctx *c, uint64_t end_ps)
{
	char label[48];

	if (!js.started)
		window_start(c);
	for (int i = 0; c->mask & SIM_TRACE_BIT(SIM_TEV_SCHED_SWITCH) &&
			i < c->nr_cpus; i++) {
		strcpy(label, "idle");
		if (js.cpus[i].tid)
			task_label(js.cpus[i].tid, label, sizeof(label));
		slice(c, PID_CPUS, CPU_TID_BASE + i, label, js.cpus[i].since_ps,
		      end_ps, NULL);
	}
	for (int i = 0; i < SIM_MAX_TASKS; i++) {
		struct jtask *t = &js.tasks[i];

		if (!t->named)
			continue;
		if (t->spinning)
			slice(c, PID_TASKS, SIM_TID_BASE + i, "spinning",
			      t->spin_ps, end_ps, NULL);
		mode_slice(c, t, SIM_TID_BASE + i, end_ps, RET_NONE);
		run_slice(c, t, SIM_TID_BASE + i, end_ps);
	}
	fputs("\n]}\n", out);
}

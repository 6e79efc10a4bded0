/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sim/trace/trace_text.c - the ftrace text writer of --trace FILE.txt: the
 * format `trace-cmd report` prints and Perfetto (ui.perfetto.dev) and
 * catapult import.
 *
 * Stage: trace/report.  Called by sim/trace/trace.c with each record in time
 * order, inside the window; writes to the trace's FILE.
 *
 *   # tracer: nop
 *   #
 *   # futexsim ... lock=ww seed=1
 *   ...
 *         worker3-103   [002]     0.000123456: sched_switch: prev_comm=...
 *
 * Each line: the comm right-aligned in 16 columns, '-', the pid (0: the
 * idle task, "<idle>"), the CPU in brackets, the simulated time in seconds
 * with 9 decimals (nanoseconds; the clock runs in picoseconds, which are
 * dropped), the event and its fields.  The fields of sched_switch,
 * sched_waking, sched_wakeup(_new) and lock:contention_begin/end are the
 * kernel's own TP_printk() layouts (include/trace/events/sched.h and
 * lock.h; lock addresses print as 0x...).  futex_enter/futex_exit,
 * nanosleep_enter/exit and qspinlock are futexsim's events:
 *
 *   futex_enter: uaddr=0x200000001000 op=FUTEX_WAIT_PRIVATE val=2
 *                [utime=50000ns when a timeout is given]
 *   futex_exit: uaddr=0x200000001000 op=FUTEX_WAIT_PRIVATE ret=-11 (EAGAIN)
 *   qspinlock: lock=0x... op=slowpath (t,p,l) (0,0,1)
 *   qspinlock: lock=0x... op=lock (t,p,l) (0,0,1) -> (c2,0,1)
 *   cache: line=0x... op=rmw from=cpu1 dist=socket inval=1 wait=0.000ns
 *          cost=53.000ns
 *
 * The qspinlock tuple is the word in the kernel's (tail,pending,locked)
 * notation: tail 0 when no CPU is queued, else cN (the queue's tail is
 * CPU N's MCS node; cN.I for its nesting index I > 0).  slowpath: the fast
 * path's cmpxchg failed, having found this word, and the CPU enters
 * queued_spin_lock_slowpath(); lock: what the cmpxchg found -> the word
 * just after the acquisition; unlock and trylock: the word before ->
 * after.  cache (only when trace-events names it) is one miss of the
 * cache-line model: the access, who served it (cpuN, the owner; sharers;
 * l3), the distance, the other copies it invalidated, the wait behind a
 * miss in flight and the time to completion after it (a store in the
 * store buffer: in the background).
 *
 * The last line says that the writer finished, and how many event lines
 * it wrote:
 *
 *   # end of trace: 123456 events
 *
 * A reader that does not find it reads a truncated trace (the file is
 * renamed into place only when whole, sim/host/outfile.h, but a copy may
 * be cut).  A failed run's trace ends with it too, at the failure.
 *
 * Formatting is done by hand, not printf: a full trace has millions of
 * lines, and `make bench` holds its cost (trace_on_slowdown) to 3x.
 */
#include <inttypes.h>
#include <string.h>

#include "sim/cache/cache.h"
#include "sim/report/symbols.h"
#include "sim/scenario/config.h"
#include "sim/trace/trace_writer.h"
#include "sim/trace/uword.h"

/* Lines are formatted straight into this buffer, written when full. */
#define OUT_SIZE	(256 * 1024)
#define LINE_MAX	512		/* longer than any line		*/

struct line {
	char *p;
};

static char obuf[OUT_SIZE];
static size_t olen;
static uint64_t nr_lines;	/* event lines written			*/

/* Write out what obuf holds. */
static void flush_out(const struct sim_trace_ctx *c)
{
	fwrite(obuf, 1, olen, c->f);
	olen = 0;
}

static void put_n(struct line *l, const char *s, size_t n)
{
	memcpy(l->p, s, n);
	l->p += n;
}

static void put(struct line *l, const char *s)
{
	put_n(l, s, strlen(s));
}

/* a string literal: its length is known */
#define PUT(l, lit)	put_n((l), lit, sizeof(lit) - 1)

static const char digit_pairs[] =
	"00010203040506070809101112131415161718192021222324252627282930313233"
	"34353637383940414243444546474849505152535455565758596061626364656667"
	"6869707172737475767778798081828384858687888990919293949596979899";

static int nr_digits(uint64_t v)
{
	static const uint64_t pow10[] = {
		1ULL, 10ULL, 100ULL, 1000ULL, 10000ULL, 100000ULL, 1000000ULL,
		10000000ULL, 100000000ULL, 1000000000ULL, 10000000000ULL,
		100000000000ULL, 1000000000000ULL, 10000000000000ULL,
		100000000000000ULL, 1000000000000000ULL, 10000000000000000ULL,
		100000000000000000ULL, 1000000000000000000ULL,
		10000000000000000000ULL,
	};
	int n = 1;

	while (n < 20 && v >= pow10[n])
		n++;
	return n;
}

/* The last @n digits of @v, zero-padded, written backwards from @end. */
static void put_digits(char *end, uint64_t v, int n)
{
	for (; n >= 2; n -= 2) {
		end -= 2;
		memcpy(end, digit_pairs + 2 * (v % 100), 2);
		v /= 100;
	}
	if (n)
		end[-1] = (char)('0' + v % 10);
}

/* @v in decimal, right-aligned in @width columns padded with @pad (width
 * 0: as many as it takes). */
static void put_u64_w(struct line *l, uint64_t v, int width, char pad)
{
	int n = nr_digits(v);

	if (pad == '0' && width > n)
		n = width;
	while (width-- > n)
		*l->p++ = pad;
	put_digits(l->p + n, v, n);
	l->p += n;
}

static void put_u64(struct line *l, uint64_t v)
{
	put_u64_w(l, v, 0, ' ');
}

static void put_i64(struct line *l, int64_t v)
{
	if (v < 0) {
		*l->p++ = '-';
		put_u64(l, -(uint64_t)v);
	} else {
		put_u64(l, (uint64_t)v);
	}
}

static void put_hex(struct line *l, uint64_t v)
{
	static const char digits[] = "0123456789abcdef";
	int n = v ? (67 - __builtin_clzll(v)) / 4 : 1;
	char *p = l->p + 2 + n;

	l->p[0] = '0';
	l->p[1] = 'x';
	l->p = p;
	do
		*--p = digits[v & 15];
	while (v >>= 4);
}

/* "comm=worker3 pid=103 prio=120" (prefix "prev_" or "next_"); tid 0 is
 * the idle task of @cpu, swapper/N as on Linux.  @prio_120: the prio
 * less 120, as records hold it. */
static void put_task(struct line *l, const char *prefix, int tid, int cpu,
		     uint32_t prio_120)
{
	put(l, prefix);
	PUT(l, "comm=");
	if (tid) {
		put(l, sim__trace_comm(tid));
	} else {
		PUT(l, "swapper/");
		put_u64(l, (uint64_t)cpu);
	}
	PUT(l, " ");
	put(l, prefix);
	PUT(l, "pid=");
	put_u64(l, (uint64_t)tid);
	PUT(l, " ");
	put(l, prefix);
	PUT(l, "prio=");
	put_i64(l, 120 + (int32_t)prio_120);
}

static void put_switch(struct line *l, const struct sim_trace_rec *r)
{
	put_task(l, "prev_", r->tid, r->cpu, r->a);
	PUT(l, " prev_state=");
	put(l, r->op == 'S' ? "S" : r->op == '+' ? "R+" :
	       r->op == 'X' ? "X" : "R");
	PUT(l, " ==> ");
	put_task(l, "next_", r->tid2, r->cpu, r->b);
}

static void put_wake(struct line *l, const struct sim_trace_rec *r)
{
	put_task(l, "", r->tid2, r->cpu, r->b);
	PUT(l, " target_cpu=");
	put_u64_w(l, r->a, 3, '0');
}

/* " (mtx.word (prog.c:14))" after an address the program names. */
static void put_name(struct line *l, uint64_t addr)
{
	char name[160];

	if (!addr || !sim_sym_known(addr))
		return;
	PUT(l, " (");
	put(l, sim_sym_name(addr, name, sizeof(name)));
	PUT(l, ")");
}

static void put_futex(struct line *l, const struct sim_trace_rec *r)
{
	char op[48];
	const char *e;

	PUT(l, "uaddr=");
	put_hex(l, r->addr);
	put_name(l, r->addr);
	PUT(l, " op=");
	put(l, sim__trace_futex_op(r->a, op, sizeof(op)));
	if (r->type == SIM_TEV_FUTEX_ENTER) {
		PUT(l, " val=");
		put_u64(l, r->b);
		if (r->arg >= 0) {
			PUT(l, " utime=");
			put_i64(l, r->arg);
			PUT(l, "ns");
		}
		return;
	}
	PUT(l, " ret=");
	put_i64(l, r->arg);
	e = r->arg < 0 ? sim__trace_errno((long)r->arg) : NULL;
	if (e) {
		PUT(l, " (");
		put(l, e);
		PUT(l, ")");
	}
}

/* The word in (tail,pending,locked), the layout of CONFIG_NR_CPUS < 16K:
 * locked byte 0, pending byte 1, tail index bits 16-17, tail CPU + 1 in
 * bits 18-31 (checked at build time by the shim's linux/spinlock.h). */
static void put_tpl(struct line *l, uint32_t w)
{
	uint32_t tail = w >> 16;

	PUT(l, "(");
	if (!tail) {
		PUT(l, "0");
	} else {
		PUT(l, "c");
		put_u64(l, (tail >> 2) - 1);
		if (tail & 3) {
			PUT(l, ".");
			put_u64(l, tail & 3);
		}
	}
	PUT(l, ",");
	put_u64(l, (w >> 8) & 0xff);
	PUT(l, ",");
	put_u64(l, w & 0xff);
	PUT(l, ")");
}

static void put_qspin(struct line *l, const struct sim_trace_rec *r)
{
	PUT(l, "lock=");
	put_hex(l, r->addr);
	PUT(l, " op=");
	put(l, sim__trace_qspin_op(r->op));
	PUT(l, " (t,p,l) ");
	put_tpl(l, r->a);
	if (r->op == SIM_QS_SLOWPATH)
		return;
	PUT(l, " -> ");
	put_tpl(l, r->b);
}

/* @ps picoseconds as nanoseconds with 3 decimals: "53.000ns" */
static void put_ns(struct line *l, uint64_t ps)
{
	put_u64(l, ps / 1000);
	*l->p++ = '.';
	put_u64_w(l, ps % 1000, 3, '0');
	PUT(l, "ns");
}

/* cache: "line=0x... op=load from=cpu1 dist=socket inval=0 wait=... cost=..." */
static void put_cache(struct line *l, const struct sim_trace_rec *r)
{
	PUT(l, "line=");
	put_hex(l, r->addr);
	PUT(l, " op=");
	put(l, sim__trace_access(r->op));
	PUT(l, " from=");
	if (r->tid2) {
		PUT(l, "cpu");
		put_u64(l, (uint64_t)(r->tid2 - 1));
	} else {
		put(l, r->a == SIM_TIER_NR ? "l3" : "sharers");
	}
	PUT(l, " dist=");
	put(l, sim__trace_tier(r->a));
	PUT(l, " inval=");
	put_u64(l, r->b);
	PUT(l, " wait=");
	put_ns(l, r->word);
	PUT(l, " cost=");
	put_ns(l, (uint64_t)r->arg);
}

/* tp: "uaddr=0x... op=steal word=0x... arg=N" (sim/trace/trace_writer.h) */
static void put_tp(struct line *l, const struct sim_trace_rec *r)
{
	PUT(l, "uaddr=");
	put_hex(l, r->addr);
	PUT(l, " op=");
	put(l, sim__trace_tp_op(r->op));
	PUT(l, " word=");
	put_hex(l, r->a);
	PUT(l, " arg=");
	put_i64(l, r->arg);
}

/* atomic: "uaddr=0x... op=cmpxchg-ok size=4 old=0x0 new=0x1" */
static void put_uatomic(struct line *l, const struct sim_trace_rec *r)
{
	PUT(l, "uaddr=");
	put_hex(l, r->addr);
	put_name(l, r->addr);
	PUT(l, " op=");
	put(l, sim_uword_op_name(r->op, !!(r->tid2 & SIM_TRACE_UATOMIC_OK)));
	PUT(l, " size=");
	put_u64(l, (uint64_t)(r->tid2 & 0xff));
	PUT(l, " old=");
	put_hex(l, (uint64_t)r->arg);
	PUT(l, " new=");
	put_hex(l, r->a | (uint64_t)r->b << 32);
}

static void put_contention(struct line *l, const struct sim_trace_rec *r)
{
	static const char *const flags[] = {
		"SPIN", "READ", "WRITE", "RT", "PERCPU", "MUTEX",
	};
	int first = 1;

	put_hex(l, r->addr);
	if (r->type == SIM_TEV_CONTENTION_END) {
		PUT(l, " (ret=");
		put_i64(l, r->arg);
		PUT(l, ")");
		return;
	}
	PUT(l, " (flags=");
	for (unsigned int i = 0; i < 6; i++) {
		if (!(r->a & (1U << i)))
			continue;
		if (!first)
			PUT(l, "|");
		put(l, flags[i]);
		first = 0;
	}
	PUT(l, ")");
}

static void put_head(struct line *l, const struct sim_trace_rec *r)
{
	const char *comm = sim__trace_comm(r->tid);
	size_t n = strlen(comm);
	uint64_t ns = r->ts_ps / 1000;

	for (; n < 16; n++)
		*l->p++ = ' ';
	put(l, comm);
	*l->p++ = '-';
	put_u64(l, (uint64_t)r->tid);
	for (n = (size_t)nr_digits((uint64_t)r->tid); n < 5; n++)
		*l->p++ = ' ';
	PUT(l, " [");
	put_u64_w(l, (uint64_t)r->cpu, 3, '0');
	PUT(l, "] ");
	put_u64_w(l, ns / 1000000000, 5, ' ');
	*l->p++ = '.';
	put_u64_w(l, ns % 1000000000, 9, '0');
	PUT(l, ": ");
	put(l, sim__trace_event_name(r->type));
	PUT(l, ": ");
}

void sim__trace_text_rec(const struct sim_trace_ctx *c,
			 const struct sim_trace_rec *r)
{
	struct line l;

	if (olen > OUT_SIZE - LINE_MAX)
		flush_out(c);
	nr_lines++;
	l.p = obuf + olen;
	put_head(&l, r);
	switch (r->type) {
	case SIM_TEV_SCHED_SWITCH:
		put_switch(&l, r);
		break;
	case SIM_TEV_SCHED_WAKING:
	case SIM_TEV_SCHED_WAKEUP:
	case SIM_TEV_SCHED_WAKEUP_NEW:
		put_wake(&l, r);
		break;
	case SIM_TEV_FUTEX_ENTER:
	case SIM_TEV_FUTEX_EXIT:
		put_futex(&l, r);
		break;
	case SIM_TEV_NANOSLEEP_ENTER:
		PUT(&l, "ns=");
		put_i64(&l, r->arg);
		break;
	case SIM_TEV_NANOSLEEP_EXIT:
		PUT(&l, "ret=");
		put_i64(&l, r->arg);
		break;
	case SIM_TEV_CONTENTION_BEGIN:
	case SIM_TEV_CONTENTION_END:
		put_contention(&l, r);
		break;
	case SIM_TEV_QSPINLOCK:
		put_qspin(&l, r);
		break;
	case SIM_TEV_TP:
		put_tp(&l, r);
		break;
	case SIM_TEV_CACHE:
		put_cache(&l, r);
		break;
	case SIM_TEV_UATOMIC:
	case SIM_TEV_UATOMIC_OTHER:
		put_uatomic(&l, r);
		break;
	case SIM_TEV_SCHED_PI_SETPRIO:
		PUT(&l, "comm=");
		put(&l, sim__trace_comm(r->tid2));
		PUT(&l, " pid=");
		put_u64(&l, (uint64_t)r->tid2);
		PUT(&l, " oldprio=");
		put_i64(&l, (int32_t)r->a);
		PUT(&l, " newprio=");
		put_i64(&l, (int32_t)r->b);
		break;
	}
	*l.p++ = '\n';
	olen = (size_t)(l.p - obuf);
}

/* Hand what is formatted to the file (also before it is closed). */
void sim__trace_text_end(const struct sim_trace_ctx *c)
{
	flush_out(c);
	fprintf(c->f, "%s %" PRIu64 " events\n", SIM_TRACE_TEXT_END, nr_lines);
}

void sim__trace_text_begin(const struct sim_trace_ctx *c)
{
	char events[256], from[40], to[40];

	olen = 0;
	nr_lines = 0;
	sim_format_duration_ps(c->from_ps, from, sizeof(from));
	if (c->to_ps == UINT64_MAX)
		strcpy(to, "the end");
	else
		sim_format_duration_ps(c->to_ps, to, sizeof(to));
	fprintf(c->f,
		"# tracer: nop\n"
		"#\n"
		"# %s\n"
		"# timestamps: simulated time in seconds, 9 decimals (ns)\n"
		"# events: %s; window: %s to %s\n",
		c->title, sim_trace_format_events(c->mask, events, sizeof(events)),
		from, to);
	fputs("#\n"
	      "#           TASK-PID     CPU#     TIMESTAMP  FUNCTION\n"
	      "#              | |         |         |         |\n", c->f);
}

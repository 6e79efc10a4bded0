/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sim/trace/trace_writer.h - private to sim/trace/: the trace record and the
 * interface of the three writers.
 *
 * Stage: trace/report.  sim/trace/trace.c builds a record per event, orders
 * the records by simulated time and hands each one, in order, to the
 * writer of the trace's format: sim/trace/trace_text.c (ftrace text),
 * sim/trace/trace_json.c (Chrome trace events) or sim/trace/trace_html.c
 * (the self-contained page of `futexsim view`).
 */
#ifndef SIM_TRACE_WRITER_H
#define SIM_TRACE_WRITER_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "sim/trace/trace.h"

/*
 * struct sim_trace_rec - one event.  Which fields mean what:
 *
 *   event		tid2	a		b	addr	arg	op
 *   sched_switch	next	prev prio-120	next's	-	-	prev state
 *   sched_wak*		wakee	target CPU	prio-120 -	-	-
 *   sched_pi_setprio	task	old prio	new	-	-	-
 *   futex_enter	-	op		val	uaddr	utime	-
 *   futex_exit		-	op		-	uaddr	ret	-
 *   nanosleep_enter	-	-		-	-	ns	-
 *   nanosleep_exit	-	-		-	-	ret	-
 *   contention_begin	-	flags		-	lock	-	-
 *   contention_end	-	-		-	lock	ret	-
 *   qspinlock		-	old word	new	lock	-	qspin op
 *   tp			-	word or TID	-	uaddr	see op	tp op
 *   cache		owner+1	tier		inval.	line	cost	access
 *   atomic*		size	after		after>>32 word	before	FUTEXSIM_OP_*
 *
 * atomic, atomic_other: tid2 is the size in bytes, with
 * SIM_TRACE_UATOMIC_OK set for a compare-and-swap that swapped; word is
 * the value after (low 32 bits).
 * cache: word is the wait in ps (at most UINT32_MAX); owner+1 is 0 when
 * no CPU owned the line; tier is enum sim_cache_tier (SIM_TIER_NR: L3).
 *
 * tid is the task in whose context the event happened (0: the idle task
 * of @cpu); tids of the idle task are 0.  word is the futex word at the
 * event (plain read), for the JSON's lock counters.  prev state is 'S'
 * (asleep), '+' (preempted: "R+"), 'X' (dead).
 */
struct sim_trace_rec {
	uint64_t ts_ps;		/* simulated time				*/
	uint64_t seq;		/* emission order: ties keep it		*/
	uint64_t addr;		/* fixed address (sim/trace/trace.c), or 0	*/
	int64_t arg;
	int32_t tid;
	int32_t tid2;
	uint32_t a, b;
	uint32_t word;
	uint32_t where;		/* an HTML page's stack of the task: index
				 * + 1 (sim/trace/trace_where.c); 0 none */
	uint32_t chain;		/* an HTML page's waiters of the bucket
				 * unlocked (SIM_TLIST_CHAIN) ...	*/
	uint32_t words;		/* ... and values of the built-in lock's
				 * words, if changed (SIM_TLIST_WORDS):
				 * index + 1 (sim/trace/trace_lists.c);
				 * 0 none				*/
	int16_t cpu;
	uint8_t type;		/* enum sim_trace_event			*/
	uint8_t op;
};

#define SIM_TRACE_UATOMIC_OK	0x100

/* What the writers know of the run. */
struct sim_trace_ctx {
	FILE *f;
	enum sim_trace_format format;
	uint64_t from_ps, to_ps;	/* window; to_ps UINT64_MAX: none	*/
	unsigned int mask;		/* events written			*/
	int nr_cpus;
	char title[600];		/* version, machine, lock, seed	*/
	int narrate_quiet;		/* narration kept for the failure
					 * report only, not printed	*/
};

/* The text writer (sim/trace/trace_text.c).  sim__trace_text_end() writes
 * what is buffered and the last line, SIM_TRACE_TEXT_END " N events". */
#define SIM_TRACE_TEXT_END	"# end of trace:"
void sim__trace_text_begin(const struct sim_trace_ctx *c);
void sim__trace_text_rec(const struct sim_trace_ctx *c,
			 const struct sim_trace_rec *r);
void sim__trace_text_end(const struct sim_trace_ctx *c);

/* The JSON writer (sim/trace/trace_json.c): it sees every record up to the
 * window's end, so as to know each task's and CPU's state when the window
 * opens; @end_ps closes what is still open. */
void sim__trace_json_begin(const struct sim_trace_ctx *c);
void sim__trace_json_rec(const struct sim_trace_ctx *c,
			 const struct sim_trace_rec *r);
void sim__trace_json_end(const struct sim_trace_ctx *c, uint64_t end_ps);

/* The HTML writer (sim/trace/trace_html.c): like the JSON one it sees
 * every record up to the window's end (those before it build the page's
 * starting state, and are not numbered); sim__trace_html_end() writes the
 * page whole.  sim__trace_html_failure() gives it the headline of a
 * failure report. */
#define SIM_TRACE_HTML_MAX	200000	/* records kept in one page	*/
void sim__trace_html_begin(const struct sim_trace_ctx *c);
void sim__trace_html_rec(const struct sim_trace_ctx *c,
			 const struct sim_trace_rec *r);
void sim__trace_html_end(const struct sim_trace_ctx *c);
void sim__trace_html_failure(const char *line);
/* sim__trace_html_picture - copy @svg into the page's meta.svg.
 * Return: 0, or -1 if out of memory (the page has no picture). */
int sim__trace_html_picture(const char *svg);

/* Where a task is (sim/trace/trace_where.c), for the HTML writer: the
 * stack of the task running now is taken by sim__where_here() (the index
 * + 1 of the stack, kept once, in a record's where; 0 if none could be
 * kept) for sched_switch away from it, futex_enter and nanosleep_enter;
 * sim__where_write() resolves the names and writes the page's "frames"
 * and "where" tables with @put_str for strings.  sim__where_reset()
 * forgets every stack (a trace opens). */
void sim__where_reset(void);
uint32_t sim__where_here(void);
void sim__where_write(FILE *f, void (*put_str)(FILE *, const char *));

/* Short lists kept once (sim/trace/trace_lists.c), for the HTML writer:
 * a futex hash bucket's waiters, the TIDs of its plist as the unlock of
 * its lock leaves it (a record's chain); the values of the built-in
 * lock's words (a record's words).  sim__tlist_keep() keeps the @n
 * values @v (at most SIM_TLIST_MAX) and a count of @more left out, and
 * returns the list's index + 1 (0 if it could not be kept);
 * sim__tlist_write() writes table @which as the page's @key, each list
 * an array, ended by -@more if @more; sim__tlist_reset() forgets all. */
enum sim_tlist { SIM_TLIST_CHAIN, SIM_TLIST_WORDS, SIM_TLIST_NR };
#define SIM_TLIST_MAX	64
void sim__tlist_reset(void);
uint32_t sim__tlist_keep(enum sim_tlist which, const uint32_t *v, int n,
			 int more);
void sim__tlist_write(FILE *f, enum sim_tlist which, const char *key);
/* sim__trace_lock_words - the built-in lock's words the page shows
 * (sim_trace_lock_words()): their addresses into @addr and names into
 * @name, at most @max.  Return: how many. */
int sim__trace_lock_words(uint64_t *addr, const char **name, int max);

/* The narration (sim/trace/trace_narrate.c, --narrate): each record in time
 * order up to the window's end (it keeps state from before the window,
 * and tells only what is inside it); lines go to stderr. */
#define SIM_NARRATE_MASK						\
	(SIM_TRACE_BIT(SIM_TEV_SCHED_SWITCH) |				\
	 SIM_TRACE_BIT(SIM_TEV_SCHED_WAKEUP) |				\
	 SIM_TRACE_BIT(SIM_TEV_SCHED_WAKEUP_NEW) |			\
	 SIM_TRACE_BIT(SIM_TEV_SCHED_PI_SETPRIO) |			\
	 SIM_TRACE_BIT(SIM_TEV_FUTEX_ENTER) |				\
	 SIM_TRACE_BIT(SIM_TEV_FUTEX_EXIT) |				\
	 SIM_TRACE_BIT(SIM_TEV_NANOSLEEP_ENTER) |			\
	 SIM_TRACE_BIT(SIM_TEV_NANOSLEEP_EXIT) |			\
	 SIM_TRACE_BIT(SIM_TEV_QSPINLOCK) |				\
	 SIM_TRACE_BIT(SIM_TEV_TP) |					\
	 SIM_TRACE_BIT(SIM_TEV_UATOMIC))
void sim__narrate_begin(const struct sim_trace_ctx *c);
/* sim__narrate_text_begin, sim__narrate_text - a second narrator, with
 * its own state, for the HTML writer: each record in time order goes
 * through sim__narrate_text(), which puts the sentence --narrate would
 * tell for it, without the time and task head, into @buf (cut at
 * @len - 1), or "" if it tells nothing of it (or it is before the
 * window).  Return: 1 if a sentence was written, else 0. */
void sim__narrate_text_begin(const struct sim_trace_ctx *c);
int sim__narrate_text(const struct sim_trace_rec *r, char *buf, size_t len);
void sim__narrate_rec(const struct sim_trace_rec *r);
void sim__narrate_end(void);
/* sim__narrate_last - flush the narration, then call @fn with each of the
 * last SIM_NARRATE_LAST lines told (oldest first, no newline; a line is
 * cut at SIM_NARRATE_LINE - 1 characters).
 * Return: the number of lines, or -1 if no narration is on. */
#define SIM_NARRATE_LINE	256
int sim__narrate_last(void (*fn)(const char *line, void *arg), void *arg);

/* Shared helpers of sim/trace/trace.c. */
/* sim__trace_comm - the comm of task @tid ("<idle>" for 0). */
const char *sim__trace_comm(int tid);
/* sim__trace_event_name - "sched_switch" ... */
const char *sim__trace_event_name(enum sim_trace_event ev);
/* sim__trace_futex_op - "FUTEX_WAIT_PRIVATE" ... ("0x..." for an op
 * futex(2) does not have).  Return: the name, in @buf or a static
 * table. */
const char *sim__trace_futex_op(unsigned int op, char *buf, size_t len);
/* sim__trace_futex_waits - futex(2) op @op makes its caller wait (WAIT,
 * WAIT_BITSET, LOCK_PI, LOCK_PI2, WAIT_REQUEUE_PI).  Return: 1 or 0. */
int sim__trace_futex_waits(unsigned int op);
/* sim__trace_errno - "EAGAIN" ... for -@ret, or NULL. */
const char *sim__trace_errno(long ret);
/* sim__trace_qspin_op - "slowpath", "lock", "trylock", "trylock-fail",
 * "unlock". */
const char *sim__trace_qspin_op(unsigned int op);
/* sim__trace_tp_op - "steal", "top-waiter", "spin-start", ... (enum
 * sim_tp_op of sim/machine/hooks.h). */
const char *sim__trace_tp_op(unsigned int op);
/* sim__trace_access, sim__trace_tier - a cache record's access ("load",
 * "store", "rmw") and distance ("smt", "socket", "remote", "2hop", "l3"). */
const char *sim__trace_access(unsigned int kind);
const char *sim__trace_tier(unsigned int tier);
/* sim__trace_addr_name - the name of fixed address @addr for the
 * writers: the program's variable and member, a heap block
 * (sim/program/symbols.h), else "0x..."; @buf. */
const char *sim__trace_addr_name(uint64_t addr, char *buf, size_t len);

#endif /* SIM_TRACE_WRITER_H */

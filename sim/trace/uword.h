/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sim/trace/uword.h - the futex words of a user program: which words are
 * futex words, what the program's atomics and futex(2) calls did to
 * each, who holds each (for the report's "futex words" section, the
 * trace's atomic events and a deadlock's wait-for cycle).
 *
 * Stage: trace/report, beside the flow.  Filled by the futex(2) boundary
 * (sim/syscall/syscall.c: every uaddr and uaddr2, and each call's
 * result), by the program's atomics (workloads/libsim/atomic.c) and by
 * the pthread layer (workloads/libsim/mutex.c: a mutex's holder); read by
 * the report (workloads/program.c, sim/report/report.c), --lock-stat
 * and the wait-for cycle (sim/report/waitfor.c).  Calls the trace's
 * emitter of atomic events (sim/trace/trace.c) and sim/report/stats.c.
 *
 * Contract:
 *  - A futex word is one of at most SIM_UWORD_MAX addresses: one passed
 *    to futex(2), one preloaded (sim_uword_preload()), or a pthread
 *    mutex's word.  An atomic on a word before it is known is not on a
 *    futex word at that time: it is neither counted nor traced as one.
 *  - Acquisition, the rule for a word the program's own atomics touch
 *    (a "raw" word): an atomic that changes it from 0 to non-zero (a
 *    store, an exchange, a successful compare-and-swap, a fetch-op) is
 *    an acquisition by the task that did it; one that changes it from
 *    non-zero to 0 is a release.  The acquire latency runs from the
 *    task's first atomic on the word since its last acquisition or
 *    release of it (the moment it was announced, before its scheduling
 *    point) to the acquisition.  The holder of a raw word is the
 *    task of its last acquisition, until a release.  A pthread mutex's
 *    word is acquired when sim_uword_owner() names a holder.
 *  - Nothing here changes the simulation: plain reads, no hook, no
 *    charge, no draw; memory is fixed (the per-word latency histograms
 *    are allocated on a word's first acquisition, for the first
 *    SIM_UWORD_HISTS words).
 */
#ifndef SIM_UWORD_H
#define SIM_UWORD_H

#include <stdint.h>

#define SIM_UWORD_MAX		512	/* futex words told apart	*/
#define SIM_UWORD_TASKS		64	/* tasks counted per word	*/
#define SIM_UWORD_HISTS		64	/* words with a latency histogram */

struct sim_hist;

/* The figures of one futex word. */
struct sim_uword {
	uintptr_t addr;
	int raw;		/* the program's atomics touched it	*/
	int layer;		/* a pthread mutex's word		*/
	int owner;		/* TID of the holder; 0: free		*/
	uint64_t acquires, releases;
	uint64_t waits, eagain;	/* FUTEX_WAIT-like calls; -EAGAIN	*/
	uint64_t wake_calls, woken;	/* FUTEX_WAKE-like calls; their sum */
	uint64_t per_task[SIM_UWORD_TASKS];	/* acquisitions by task index */
	uint64_t start_ps[SIM_UWORD_TASKS];	/* latency start; 0: none */
	struct sim_hist *lat_ns;	/* acquire latency; NULL: none	*/
};

/* sim_uword_reset - forget every word and figure, then add the preloaded
 * words (a program's run begins: workloads/program.c). */
void sim_uword_reset(void);
/*
 * sim_uword_preload - the words @addrs[0..@n) are futex words from the
 * start of every later run (until the next call; @n 0: none), e.g. those
 * sim_uword_list() gave in an earlier identical run, so that atomics
 * before a word's first futex(2) call count too.  Beyond SIM_UWORD_MAX
 * words the rest are ignored.
 */
void sim_uword_preload(const uintptr_t *addrs, int n);
/* sim_uword_add - @p is a futex word (futex(2)'s uaddr or uaddr2). */
void sim_uword_add(const void *p);
/* sim_uword_is - @p is a known futex word. */
int sim_uword_is(const void *p);
/* sim_uword_woken - the waiters the FUTEX_WAKE calls on word @p woke so
 * far (the sum of their returns), 0 for no known word. */
uint64_t sim_uword_woken(const void *p);
/*
 * sim_uword_atomic - the current task's atomic @op (FUTEXSIM_OP_* of
 * workloads/libsim/futexsim_atomic.h; cmpxchg swapped iff @ok) of @size
 * bytes at @p, announced at @start_ps (before its scheduling point),
 * changed it from @before to @after; traced (on a futex word or not, the
 * trace's two events) and counted by the rule above.
 */
void sim_uword_atomic(const void *p, unsigned int size, unsigned int op,
		      int ok, uint64_t start_ps, uint64_t before,
		      uint64_t after);
/* sim_uword_futex - the current task's futex(2) call @op on @uaddr
 * returned @ret. */
void sim_uword_futex(const uint32_t *uaddr, int op, long ret);
/* sim_uword_owner - the pthread layer: task @tid (0: nobody) now holds the
 * mutex whose word is @p. */
void sim_uword_owner(const void *p, int tid);
/* sim_uword_holder - the holder of futex word @p (0: free or unknown). */
int sim_uword_holder(const void *p);
/* sim_uword_nr, sim_uword_get - the words, in the order they became
 * known (preloaded first); @i in [0, sim_uword_nr()). */
int sim_uword_nr(void);
const struct sim_uword *sim_uword_get(int i);
/* sim_uword_list - up to @max known words into @out, in that order.
 * Return: how many. */
int sim_uword_list(uintptr_t *out, int max);
/* sim_uword_task_acquires - raw-word acquisitions by task @tid. */
uint64_t sim_uword_task_acquires(int tid);
/* sim_uword_op_name - "load", "store", "xchg", "cmpxchg-ok",
 * "cmpxchg-fail", "fetch_add" ... of @op and @ok. */
const char *sim_uword_op_name(unsigned int op, int ok);

#endif /* SIM_UWORD_H */

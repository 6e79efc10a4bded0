/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sim/trace/lockstat.h - --lock-stat: a /proc/lock_stat table of one lock's run,
 * built from the event stream of sim/trace/trace.h (its third consumer, beside
 * the trace file and the narration).
 *
 * Stage: trace/report, beside the flow.  sim/trace/trace.c hands it every
 * qspinlock event as it is emitted (unordered: each lock is acquired and
 * released by one CPU at a time, whose clock only moves forward); the
 * mutex workload (workloads/mutex.c) reports its user lock's acquisitions
 * and releases; the shim's alloc_large_system_hash() (sim/arch/alloc.c)
 * names the futex hash table through sim_lockstat_hash_table() of
 * sim/machine/hooks.h.  The CLI's child writes the table into its result pipe
 * (sim_lockstat_send()); the parent reads it (sim_lockstat_recv()) and
 * prints it after the report.
 *
 * What is counted, per lock:
 *  - kernel qspinlocks (the futex hash-bucket locks, named
 *    "futex_hash_bucket[N].lock"; any other by its arena address):
 *    contentions = acquisitions through queued_spin_lock_slowpath(), wait
 *    time = slow path entry to acquisition, hold time = acquisition
 *    (lock or successful trylock) to unlock;
 *  - the user lock word: contentions = lock calls that did not take the
 *    fast path (the word was not free when lock() was called, or lock()
 *    made a futex(2) call), wait time = the call's acquisition latency,
 *    hold time = lock() returned to unlock() called;
 *  - a user program's raw futex words (its hand-written locks, by the
 *    rule of sim/trace/uword.h): contentions = acquisitions that took
 *    more than the one atomic, wait time = the acquire latency, hold
 *    time = acquisition to release.
 *  - con-bounces: contentions whose previous acquisition was on another
 *    CPU; acq-bounces: acquisitions whose previous one was on another CPU.
 * Times are simulated; the table prints them in microseconds with two
 * decimals, as the kernel does.  Memory is fixed (SIM_LOCKSTAT_LOCKS
 * locks; beyond that, a lock is counted in one "<other locks>" line).
 */
#ifndef SIM_LOCKSTAT_H
#define SIM_LOCKSTAT_H

#include <stdint.h>
#include <stdio.h>

#include "sim/trace/trace_writer.h"

#define SIM_LOCKSTAT_LOCKS	8192	/* locks told apart		*/
#define SIM_LOCKSTAT_TOP	16	/* kernel locks listed		*/

/* The events the table needs (sim_trace_mask bits). */
#define SIM_LOCKSTAT_MASK	SIM_TRACE_BIT(SIM_TEV_QSPINLOCK)

/* Non-zero while a table is being collected: the workload tests it. */
extern int sim_lockstat_on;

/* sim_lockstat_start - forget everything and start collecting (the CLI's
 * child, after sim_machine_init()). */
void sim_lockstat_start(void);
/* sim_lockstat_stop - stop collecting; the table stays for the writer. */
void sim_lockstat_stop(void);

/* sim__lockstat_rec - one qspinlock record, as emitted (sim/trace/trace.c). */
void sim__lockstat_rec(const struct sim_trace_rec *r);

/*
 * sim_lockstat_user_acquired - the current task's lock() of the user lock
 * @word (@name: its lock= name) returned; it was called at @call_ps and
 * was @contended (see above).
 */
void sim_lockstat_user_acquired(const void *word, const char *name,
				uint64_t call_ps, int contended);
/*
 * sim_lockstat_word_acquired - the current task acquired the program's
 * raw futex word @word (sim/trace/uword.h's rule), its attempt begun at
 * @call_ps, @contended if that was not the acquiring atomic itself;
 * listed like the user lock, by its name (sim/report/symbols.h).  Its
 * release is sim_lockstat_user_release().
 */
void sim_lockstat_word_acquired(const void *word, uint64_t call_ps,
				int contended);
/* sim_lockstat_user_release - the holder of @word is calling unlock(). */
void sim_lockstat_user_release(const void *word);

/* sim_lockstat_bucket_offset - Return: the offset of @addr inside its
 * bucket of the futex hash table, -1 if it is outside the table. */
long sim_lockstat_bucket_offset(uint64_t addr);
/*
 * sim_lockstat_name - the class name of the lock at arena address @addr:
 * "futex_hash_bucket[N].lock", the user lock's name, or "lock@0x...".
 * Return: @buf.
 */
const char *sim_lockstat_name(uint64_t addr, char *buf, size_t len);

/*
 * sim_lockstat_write - the table, in /proc/lock_stat's layout: the
 * header "lock_stat version 0.4", the column names, then the user lock
 * and the SIM_LOCKSTAT_TOP kernel locks with the most contentions (ties:
 * most acquisitions, then lowest address) and one line summing every
 * futex hash-bucket lock.  @title heads it ("# lock ww, seed 1").
 * Return: 0, or -1 on a write error.
 */
int sim_lockstat_write(FILE *f, const char *title);

/*
 * sim_lockstat_send - the child: write the table of lock @lock, run with
 * @seed, to the pipe @fd (after its result).  Return: 0, or -1 with errno.
 */
int sim_lockstat_send(int fd, const char *lock, uint64_t seed);
/*
 * sim_lockstat_recv - the parent: read what follows the result in pipe
 * @fd, to its end.  Return: the text, NUL-terminated, for the caller to
 * free(); NULL if there was none.
 */
char *sim_lockstat_recv(int fd);

#endif /* SIM_LOCKSTAT_H */

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sched/sched.h - the scheduler: per-CPU runqueues, blocking and wakeup,
 * the tick and timeslice preemption, idle CPUs, wakeup placement.
 *
 * Stage: scheduler, between the kernel (which calls schedule(),
 * try_to_wake_up() and need_resched() through sched/kapi.c and the
 * sched_*() services of sim/machine/hooks.h) and the machine (sim/machine/machine.h),
 * which it asks to switch coroutines and to wake idle CPUs.
 *
 * Classes (docs/model.md, "Classes and priorities"): SCHED_FIFO and
 * SCHED_RR tasks (prio 0..99, Linux's numbers, in sim_task::prio) run
 * before SCHED_NORMAL ones (100..139, 120 + nice), the best prio first
 * and FIFO among equals; a better woken, boosted or re-prioritized task
 * preempts at the next hook; SCHED_RR shares its timeslice with its
 * equals at the tick.  rt_mutex_setprio() (sched/kapi.c) changes the
 * effective prio through sched_pi_setprio().  Until some task leaves
 * SCHED_NORMAL nice 0, all of that is one untaken branch per path.
 *
 * Policy of SCHED_NORMAL: CFS-like.  Each task's vruntime is the CPU
 * time it ran; a CPU runs the queued task with the least vruntime (its own
 * queue, else the longest other one's: newly-idle balancing), vruntimes
 * being kept relative to each runqueue's min_vruntime.  A woken task is
 * placed no lower than min_vruntime - sched_latency/2 (the sleeper credit
 * of 6.1's place_entity() with GENTLE_FAIR_SLEEPERS) and preempts the
 * running task whose vruntime is more than sched_wakeup_granularity ahead
 * of it (check_preempt_wakeup()); both tunables scale as 6.1's do, with
 * 1 + ilog2(min(CPUs, 8)): 12 ms credit and 4 ms granularity from 8 CPUs
 * up.  The periodic tick (every preset tick_ps on a busy CPU) sets
 * need_resched once the running task has used its timeslice and another
 * task waits on that CPU.  A set need_resched preempts at the next hook
 * point where preempt_count is 0 (spinlock holders are never preempted).
 * Weights: vruntime grows by run time x 1024 / weight (nice).
 * Not modelled: group scheduling, periodic load balancing, the
 * tick's vruntime check (check_preempt_tick() beyond the slice).
 * Wakeup placement: the task's previous CPU if idle, else an idle CPU on
 * the same socket, else any idle CPU, else the CPU with the shortest
 * runqueue (previous CPU on ties).  A CPU with nothing to run goes idle;
 * waking it costs the preset's idle exit.
 *
 * Task states, in the kernel's tuple style (state, on_cpu, queued):
 *
 *   NEW (0,0,0) --sched_task_start--> QUEUED (R,0,1) or RUNNING (R,1,0)
 *   RUNNING  --sched_block---------> SLEEPING (S,0,0)
 *   RUNNING  --preempt/cond_resched> QUEUED
 *   QUEUED   --pick_next-----------> RUNNING
 *   SLEEPING --sched_wake----------> QUEUED  (or RUNNING on an idle CPU)
 *   RUNNING  --sched_exit----------> DEAD
 *
 * sched_assert_state() checks these invariants at every dispatch of the
 * machine when FUTEXSIM_CHECK_STATE=1 is set in the environment (the
 * scenario tests set it): in full at the first dispatch after a change
 * of what it reads, at once at the others (sched/core.c).
 */
#ifndef SCHED_SCHED_H
#define SCHED_SCHED_H

#include <stdint.h>

#include "sim/machine/machine.h"

/* sched_init - one runqueue per CPU of the machine. */
void sched_init(void);
/* sched_task_start - put a new task on @cpu's runqueue (-1: placement).
 * Wakes the CPU if it is idle. */
void sched_task_start(struct sim_task *t, int cpu);
/* sched_exit - the current task is dead: switch away for good. */
void sched_exit(void) __attribute__((noreturn));
/* sched_tick - the tick of @cpu fired (event context). */
void sched_tick(struct sim_cpu *cpu);
/* sched_cpu_wakeup - idle @cpu was kicked (event context): pick its next
 * task and make it the CPU's current task, or leave it idle. */
void sched_cpu_wakeup(struct sim_cpu *cpu);
/* sched_preempt - the current task, still runnable, yields its CPU
 * because need_resched was set (called by the machine at a hook). */
void sched_preempt(void);
/* sched_nr_queued - tasks waiting on @cpu's runqueue (not counting curr). */
int sched_nr_queued(const struct sim_cpu *cpu);
/*
 * sched_task_watch - when set, called as a task goes to sleep (in
 * sched_block()), as it is woken (in sched_wake(), before it is placed)
 * and as a runnable task moves to another CPU (newly-idle balancing); in
 * each case its ->cpu is still the old one.  None is a scheduling point.
 * Set by sim/explore/oracle.c (its lazy overtake counting), else NULL.
 */
enum sched_watch { SCHED_WATCH_SLEEP, SCHED_WATCH_WAKE, SCHED_WATCH_MOVE };
extern void (*sched_task_watch)(const struct sim_task *t, enum sched_watch what);
/* sched_assert_state - check the invariants of every task and runqueue;
 * a violation is a simulator BUG (report, exit 3). */
void sched_assert_state(void);

#endif /* SCHED_SCHED_H */

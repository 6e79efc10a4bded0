/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sim/explore/promise.h - the certification of an arm64 promise: which
 * stores a CPU would make whatever the other CPUs do (the memory model's
 * promises, sim/machine/memmodel.h).
 *
 * Stage: explore, beside the machine.  Called by sim/machine/memmodel.c
 * at a promise point; calls fork(), the explore strategy's solo mode
 * (sim_explore_solo()) and the memory model's window (sim_sb_certify()).
 */
#ifndef SIM_EXPLORE_PROMISE_H
#define SIM_EXPLORE_PROMISE_H

struct sim_cpu;
struct sim_sb_window;

/* Dispatches the certified CPU may take before its window ends. */
#define SIM_PROMISE_STEPS	64

/*
 * sim_promise_certify - fork the world (or, for a run that can be made
 * again, certify in the run itself, below); in the child, executing CPU
 * @c's task runs alone (no other CPU is dispatched) from here until its
 * window ends (a barrier, an acquire, an RMW, a release store, a full
 * buffer, SIM_PROMISE_STEPS dispatches, or it cannot run on), and the
 * child sends its window's stores and exits.  The child makes no output,
 * records nothing and ends on any failure of its own.
 * Return: in the parent, 1 with *@w filled, or 0 if the child gave no
 * window (it failed, or a host error); in the child, -1: go on, alone
 * (made again: -1 the first time, the run then abandoned at the window's
 * end; 1 or 0 as the window was the next times).
 */
int sim_promise_certify(struct sim_cpu *c, struct sim_sb_window *w);

/*
 * Certification by making the run again (sim_xrun(), an explore run in
 * this process: sim/explore/promise.c).  sim_promise_redo_begin - a run
 * starts; @on: it may be made again (its world is put back after each
 * making, nothing records it or keeps its narration, and
 * FUTEXSIM_PROMISE_FORK=1 is not set: sim_xrun() decides).
 * sim_promise_redo_attempt - before each making of it.
 * sim_promise_redo_pending - after one: did it stop to certify (make it
 * again), rather than end?  sim_promise_redo_end - the run is over.
 * Otherwise sim_promise_certify() forks.
 */
void sim_promise_redo_begin(int on);
void sim_promise_redo_attempt(void);
int sim_promise_redo_pending(void);
void sim_promise_redo_end(void);

#endif /* SIM_EXPLORE_PROMISE_H */

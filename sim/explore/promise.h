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
 * sim_promise_certify - fork the world; in the child, executing CPU
 * @c's task runs alone (no other CPU is dispatched) from here until its
 * window ends (a barrier, an acquire, an RMW, a release store, a full
 * buffer, SIM_PROMISE_STEPS dispatches, or it cannot run on), and the
 * child sends its window's stores and exits.  The child makes no output,
 * records nothing and ends on any failure of its own.
 * Return: in the parent, 1 with *@w filled, or 0 if the child gave no
 * window (it failed, or a host error); in the child, -1: go on, alone.
 */
int sim_promise_certify(struct sim_cpu *c, struct sim_sb_window *w);

#endif /* SIM_EXPLORE_PROMISE_H */

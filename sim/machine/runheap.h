/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sim/machine/runheap.h - the CPUs that may run, ordered by their clocks.
 *
 * Stage: machine.  Used by sim/machine/machine.c only: timed mode runs the CPU
 * with the smallest clock, and the running CPU may go on until the next
 * one's clock (the horizon).  The heap holds every CPU that has a task
 * and is not parked in a spin-wait, except the one executing now (its
 * clock moves at every hook without touching the heap).
 *
 * Order: (now_ps, CPU number), a total order; CPUs with equal clocks are
 * then told apart by the PRNG in sim_runheap_pop_earliest(), never by the
 * heap's internal layout.
 */
#ifndef SIM_RUNHEAP_H
#define SIM_RUNHEAP_H

#include <stdint.h>

struct sim_cpu;

/* sim_runheap_reset - empty the heap (machine init). */
void sim_runheap_reset(void);
/* sim_runheap_add - @c may run (it must not be in the heap). */
void sim_runheap_add(struct sim_cpu *c);
/* sim_runheap_min_ps - the smallest clock in the heap, UINT64_MAX if empty. */
extern uint64_t sim__runheap_min_ps;	/* sim/machine/runheap.c keeps it */
static inline uint64_t sim_runheap_min_ps(void)
{
	return sim__runheap_min_ps;
}
/* sim_runheap_pop_earliest - remove and return a CPU with the smallest
 * clock, chosen uniformly by the PRNG among equals; NULL if empty. */
struct sim_cpu *sim_runheap_pop_earliest(void);
/* sim_runheap_push_pop - sim_runheap_add(@c), then
 * sim_runheap_pop_earliest(): the same CPU, the same draws, the same
 * heap, with fewer moves (while it is a sorted array, ties or not). */
struct sim_cpu *sim_runheap_push_pop(struct sim_cpu *c);
/* sim_runheap_contains - is @c in the heap? (its position, run_idx, is
 * -1 when not: sim/machine/machine.h) */
#define sim_runheap_contains(c)	((c)->run_idx >= 0)
/* For explore mode (sim/explore/explore.c), which may run any CPU of the heap:
 * sim_runheap_nr - how many CPUs are in it; sim_runheap_at - the one at
 * heap position @i (0 <= i < nr; the order carries no meaning);
 * sim_runheap_remove - take @c (in the heap) out.  Inline: explore asks
 * them at every dispatch. */
extern struct sim_cpu *sim__runheap[];	/* sim/machine/runheap.c's */
extern int sim__runheap_nr;
static inline int sim_runheap_nr(void)
{
	return sim__runheap_nr;
}
static inline struct sim_cpu *sim_runheap_at(int i)
{
	return sim__runheap[i];
}
void sim_runheap_remove(struct sim_cpu *c);

#endif /* SIM_RUNHEAP_H */

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sim/machine/memmodel.h - the memory model of an instrumented program's
 * stores (scenario key memory=): sc, every store visible to all at once,
 * or tso, x86-TSO's per-CPU FIFO store buffers (Owens, Sarkar and Sewell,
 * "A better x86 memory model: x86-TSO", TPHOLs 2009).
 *
 * Stage: machine.  Called by sim/machine/machine.c (every hook, every
 * change of the executing CPU), the program's instrumentation
 * (workloads/libsim/instrument.c: each plain or volatile store, each
 * atomic store that is not sequentially consistent) and the syscall
 * layer (sim/syscall/syscall.c: a system call drains).
 *
 * Under tso a store of the program goes into its CPU's buffer instead of
 * memory: the CPU's own loads see it (they read memory, and memory shows
 * the executing CPU's buffered stores over the values all CPUs see: an
 * "overlay" put on and taken off as CPUs take turns), the others do not
 * until it drains, oldest first.  It drains when its CPU makes a locked
 * read-modify-write or a fence (any RMW or FENCE hook: the program's
 * atomics, the user locks', the kernel's), enters the kernel (a system
 * call) or switches tasks; in timed mode also when the clock of the CPU
 * that runs passes the store's completion (its issue plus the store's
 * cost, the machine's `store` time, at least one nanosecond); under
 * explore, at each hook a draw of the run's PRNG (a decision of replay
 * files, "D") drains the oldest store of one CPU or none.  A full buffer
 * (SIM_SB_ENTRIES) drains its oldest.
 *
 * Left out: the stores of code that is not instrumented (the library's,
 * the kernel's plain ones) are not buffered, and are not ordered after
 * the buffered ones; loads are never reordered with loads nor stores
 * with stores (TSO allows neither).  arm64 is not modelled.
 */
#ifndef SIM_MACHINE_MEMMODEL_H
#define SIM_MACHINE_MEMMODEL_H

#include <stdint.h>

struct sim_cpu;

#define SIM_SB_ENTRIES	32	/* a store buffer's size (Skylake: 56)	*/

extern int sim__tso_on;		/* memory=tso in this run		*/

/* sim_memory_set - the run's model: 0 sc, 1 tso.  After
 * sim_machine_init(), which resets it to sc. */
void sim_memory_set(int tso);

/* sim_tso_store - CPU @c, executing, is about to store @size bytes (at
 * most 16) at @p; the store goes into its buffer.  Call right before
 * the store, after its scheduling point. */
void sim_tso_store(struct sim_cpu *c, const volatile void *p, unsigned int size);

/* sim_tso_drain - every store of executing CPU @c becomes visible. */
void sim_tso_drain(struct sim_cpu *c);

/* sim_tso_hook - a hook of executing CPU @c, before its access: stores
 * that completed drain (timed), or one chosen by a draw (explore). */
void sim_tso_hook(struct sim_cpu *c);

/* sim_tso_switch - @to starts executing (NULL: none): the overlay of the
 * CPU that did comes off memory, @to's goes on. */
void sim_tso_switch(struct sim_cpu *to);

/* sim_tso_entry - the @i-th oldest store in CPU @cpu's buffer: its
 * address, size and value (the bytes as a little-endian number, 0 for a
 * 16-byte store).  Return: 1, or 0 if there is no such store.  For the
 * failure report (sim/report/failure.c). */
int sim_tso_entry(int cpu, int i, uint64_t *addr, unsigned int *size,
		  uint64_t *val);

/* sim_tso_reset - empty every buffer (machine init). */
void sim_tso_reset(void);

#endif /* SIM_MACHINE_MEMMODEL_H */

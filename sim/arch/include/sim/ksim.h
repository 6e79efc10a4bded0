/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sim/ksim.h - interfaces between the arch shim's own kernel TUs
 * (the .c files of sim/arch/ and sched/kapi.c); the private header of the shim.
 *
 * Stage: kernel.  Nothing outside those files includes it: the real
 * kernel files see only the Linux API of the shadow headers, the machine
 * only sim/machine/hooks.h.
 */
#ifndef _SIM_KSIM_H
#define _SIM_KSIM_H

#include <linux/types.h>

struct mm_struct;
struct signal_struct;

/**
 * ksim_process_mm() - the mm_struct of the one simulated process
 *
 * Created at boot (an early initcall of sim/arch/mm.c), before any task.
 * Return: the mm; a simulator bug if called before ksim_boot().
 */
struct mm_struct *ksim_process_mm(void);

/**
 * ksim_process_signal() - the signal_struct of the one simulated process
 *
 * Return: as ksim_process_mm().
 */
struct signal_struct *ksim_process_signal(void);

/**
 * ksim_alloc_lines() - a permanent, cache-line aligned kernel allocation
 * @size:	bytes wanted
 *
 * For objects that live for the whole run and whose cache-line placement
 * the cost model must see as on Linux (task_structs, the futex hash).
 * Zeroed, from the machine's arena (sim/arch/alloc.c).  Never freed.
 *
 * Return: the memory; running out of arena is a machine failure.
 */
void *ksim_alloc_lines(size_t size);

/**
 * ksim_futex_hash_keep() - keep the futex hash table for the next boot
 *
 * Call right after futex_init().  The table it set up stays in the
 * arena across the reset, which puts back what a run changed in it
 * (sim/arch/alloc.c says how, and why that is what futex_init() sets).
 *
 * Return: true if kept; false if the table is not as that needs.
 */
bool ksim_futex_hash_keep(void);

/**
 * ksim_futex_hash_take_back() - the kept table instead of futex_init()
 *
 * Call where futex_init() would run.  True: the table is back where
 * futex_init() would allocate it (same CPUs, same allocations before it)
 * with the bytes it would write, and its variables hold what it would
 * set: do not call futex_init().  False: call it, then
 * ksim_futex_hash_keep().
 */
bool ksim_futex_hash_take_back(void);

/**
 * ksim_kcsan_access() - an instrumented kernel access, to the race oracle
 * @p, @size: the bytes
 * @how: SIM_RACE_* (sim/explore/race_abi.h)
 * @pc: the access's code
 *
 * The task's KCSAN state first (sim/arch/kcsan.c): nothing inside
 * data_race(), marked inside an atomic region.  Call only when
 * sim__race_live.
 */
void ksim_kcsan_access(const volatile void *p, unsigned int size,
		       unsigned int how, unsigned long pc);

#endif /* _SIM_KSIM_H */

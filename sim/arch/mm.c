/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sim/arch/mm.c - the address space of the simulated process.
 *
 * Stage: kernel (mm).  Called by the futex code (get_futex_key(),
 * fault_in_user_writeable()) and by sched/kapi.c, which gives every new
 * task the process's mm_struct and signal_struct.  Calls the allocator
 * (sim/arch/alloc.c) once, at boot.
 *
 * All simulated tasks are threads of one process: one mm_struct, one
 * signal_struct.  User memory is host memory (linux/uaccess.h), so there
 * are no pages to look up: shared (non-PRIVATE) futexes, which need
 * them, are unsupported and fail with EFAULT.
 *
 * Contracts: linux/mm.h, sim/ksim.h.
 */
#include <linux/kernel.h>
#include <linux/mm.h>
#include <linux/slab.h>
#include <linux/rwsem.h>
#include <linux/sched/signal.h>
#include <sim/hooks.h>
#include <sim/ksim.h>

static struct mm_struct *process_mm;
static struct signal_struct *process_signal;

/*
 * Runs at every boot (a test may boot several machines in one host
 * process; each boot starts with an empty arena).
 */
static int __init process_init(void)
{
	process_mm = kzalloc(sizeof(*process_mm), GFP_KERNEL);
	process_signal = kzalloc(sizeof(*process_signal), GFP_KERNEL);
	atomic64_set(&process_mm->futex_unique_id, 1);
	init_rwsem(&process_signal->exec_update_lock);
	return 0;
}
early_initcall(process_init);

struct mm_struct *ksim_process_mm(void)
{
	if (!process_mm)
		sim_bug("ksim_process_mm() before ksim_boot()", __FILE__, __LINE__);
	return process_mm;
}

struct signal_struct *ksim_process_signal(void)
{
	if (!process_signal)
		sim_bug("ksim_process_signal() before ksim_boot()",
			__FILE__, __LINE__);
	return process_signal;
}

int get_user_pages_fast(unsigned long start, int nr_pages,
			unsigned int gup_flags, struct page **pages)
{
	return -EFAULT;
}

int fixup_user_fault(struct mm_struct *mm, unsigned long address,
		     unsigned int fault_flags, bool *unlocked)
{
	return -EFAULT;
}

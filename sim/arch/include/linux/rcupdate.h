/* SPDX-License-Identifier: GPL-2.0 */
/*
 * linux/rcupdate.h (shadow) - RCU read side.
 *
 * Stage: kernel (synchronisation).  Used by the futex code (task lookup,
 * shared keys) and by the real linux/rbtree.h (RCU-safe links).
 *
 * Contract: nothing simulated is ever freed through RCU (task_structs
 * live for the whole run; pi_state is freed with kfree() under the
 * kernel's own refcounting), so a read-side critical section needs no
 * grace-period machinery: rcu_read_lock()/unlock() are compiler barriers
 * and do not disable preemption (as with CONFIG_PREEMPT_RCU).
 * rcu_assign_pointer() is a hooked store-release, rcu_dereference() a
 * hooked READ_ONCE(), as in the kernel.  guard(rcu) and scoped_guard(rcu)
 * work (linux/cleanup.h).
 */
#ifndef _SIM_LINUX_RCUPDATE_H
#define _SIM_LINUX_RCUPDATE_H

#include <linux/compiler.h>
#include <linux/cleanup.h>
#include <asm/barrier.h>

#define rcu_read_lock()			barrier()
#define rcu_read_unlock()		barrier()

#define rcu_assign_pointer(p, v)	smp_store_release(&(p), (v))
#define RCU_INIT_POINTER(p, v)		WRITE_ONCE(p, v)
#define rcu_dereference(p)		READ_ONCE(p)
#define rcu_dereference_raw(p)		READ_ONCE(p)
#define rcu_access_pointer(p)		READ_ONCE(p)

DEFINE_LOCK_GUARD_0(rcu, rcu_read_lock(), rcu_read_unlock())

#endif /* _SIM_LINUX_RCUPDATE_H */

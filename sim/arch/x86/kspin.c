/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sim/arch/x86/kspin.c - kernel-side glue of the qspinlock-x86 lock of
 * workload=spin.
 *
 * Stage: workload -> kernel.  Called by workloads/spin.c and the tests
 * through futex/kspin.h.  Built like the x86 copy of the real
 * kernel/locking/qspinlock.c (Makefile, KX86FLAGS): the x86 shadow
 * sim/arch/x86/include/asm/qspinlock.h comes first on the include path and
 * queued_spin_lock_slowpath is renamed queued_spin_lock_slowpath_x86, so
 * the real asm-generic/qspinlock.h fast path inlined here by spin_lock()
 * falls into the x86 build's slow path.  The code is the same as the
 * generic glue in futex/kspin.c; only the build differs.
 */
#include <linux/kernel.h>
#include <linux/build_bug.h>
#include <linux/spinlock.h>

#include "futex/kspin.h"

static_assert(_Q_PENDING_LOOPS == 512, "built with the x86 settings");
static_assert(sizeof(spinlock_t) == KSIM_SPIN_BYTES, "qspinlock is one word");

void ksim_spin_qx86_lock(void *lock)
{
	spin_lock(lock);
}

void ksim_spin_qx86_unlock(void *lock)
{
	spin_unlock(lock);
}

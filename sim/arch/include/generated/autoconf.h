/* SPDX-License-Identifier: GPL-2.0 */
/*
 * generated/autoconf.h - the kernel .config of "arch sim".
 *
 * Stage: kernel (build configuration).  The real include/linux/kconfig.h
 * includes this file, which is force-included into every kernel TU, so
 * IS_ENABLED() and #ifdef CONFIG_* in the unmodified kernel sources see
 * exactly these options.  Nothing calls anything here.
 *
 * Contract: an option is either defined to its Kconfig value here or absent
 * (= "not set").  Options that are deliberately not set, and why, are
 * listed at the end; turning one on needs the shim to grow accordingly.
 */
#ifndef _SIM_GENERATED_AUTOCONF_H
#define _SIM_GENERATED_AUTOCONF_H

/* A 64-bit little-endian SMP machine with an MMU. */
#define CONFIG_64BIT 1
#define CONFIG_SMP 1
#define CONFIG_MMU 1
/* Must cover SIM_MAX_CPUS (sim/machine/machine.h); qspinlock then encodes the tail
 * CPU in 14 bits with an 8-bit pending byte (NR_CPUS < 16K). */
#define CONFIG_NR_CPUS 256
/* Not a small system: futex_init() sizes the hash as 256 * possible CPUs. */
#define CONFIG_BASE_SMALL 0
#define CONFIG_HZ 1000
/* BUG()/WARN() are live checks (asm/bug.h routes them to the machine). */
#define CONFIG_BUG 1

/* Locking: the generic queued spinlock, no paravirt. */
#define CONFIG_ARCH_USE_QUEUED_SPINLOCKS 1
#define CONFIG_QUEUED_SPINLOCKS 1
#define CONFIG_RT_MUTEXES 1
/* Sleeping locks spin while the owner runs: struct mutex gets its OSQ
 * (kernel/locking/osq_lock.c) and mutex.c its optimistic spinning. */
#define CONFIG_MUTEX_SPIN_ON_OWNER 1
/* The real lock_events.h counts qspinlock.c's lockevent_inc() calls
 * (lock_pending, lock_slowpath ...) in the per-CPU array lockevents,
 * defined by futex/kspin.c (lock_events.c, with its debugfs files, is not
 * compiled); workload=spin reports where each acquisition went. */
#define CONFIG_LOCK_EVENT_COUNTS 1

/* Futexes, with PI: kernel/futex/pi.c over the real rtmutex. */
#define CONFIG_FUTEX 1
#define CONFIG_FUTEX_PI 1

/*
 * Deliberately NOT set:
 *   CONFIG_PARAVIRT_SPINLOCKS  no hypervisor; qspinlock's native path only
 *   CONFIG_LOCKDEP, CONFIG_DEBUG_SPINLOCK, CONFIG_DEBUG_MUTEXES,
 *   CONFIG_DEBUG_PLIST, CONFIG_DEBUG_RT_MUTEXES
 *                              debug state would change struct layouts and
 *                              add accesses that the cost model would price
 *   CONFIG_KASAN, CONFIG_KCSAN, CONFIG_KMSAN
 *                              the arch hooks play that role (asm/atomic.h)
 *   CONFIG_COMPAT              no 32-bit tasks (no compat_robust_list)
 *   CONFIG_PREEMPT_RT          spinlock_t is a queued spinlock, not rtmutex
 *   CONFIG_PREEMPTION          preemption is the machine's business: it
 *                              preempts at hook points while preempt_count
 *                              is 0 (linux/preempt.h, ours)
 *   CONFIG_FAIL_FUTEX          no fault injection
 *   CONFIG_TRACING             tracepoints come from trace/events/lock.h
 *   CONFIG_PRINTK              kernel log output is discarded (printk() is
 *                              an empty inline of the real linux/printk.h)
 *   CONFIG_TIME_NS             one time namespace (linux/time_namespace.h)
 */

#endif /* _SIM_GENERATED_AUTOCONF_H */

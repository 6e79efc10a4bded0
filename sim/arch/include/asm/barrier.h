/* SPDX-License-Identifier: GPL-2.0 */
/*
 * asm/barrier.h - memory barriers of "arch sim".
 *
 * Stage: kernel -> machine.  Included through linux/compiler.h users and
 * linux/atomic.h; calls sim_hook() (sim/machine/hooks.h).  The real
 * asm-generic/barrier.h, included at the end, derives the rest of the API
 * (smp_mb(), smp_store_mb(), smp_cond_load_{relaxed,acquire}() ...) from
 * the primitives below.
 *
 * The kernel's own stores are never buffered (under memory=tso|arm64 a
 * store hook drains the CPU's buffered stores first, sim/machine/
 * memmodel.h), so barriers change what a load returns only under
 * memory=arm64, where the program's and the libraries' stores may
 * become visible late to a CPU: there the acquires (smp_load_acquire(),
 * smp_rmb() and smp_acquire__after_ctrl_dep(), so smp_cond_load_acquire())
 * call sim_acquire(), as LDAR and DMB ISHLD order an arm64 CPU's later
 * loads.  Barriers are kept as scheduling points and priced where the
 * modelled hardware (x86-TSO, with fully ordered atomics) pays for them:
 *
 *   mb(), smp_mb()             sim_hook(SIM_FENCE, NULL, 0) + host fence
 *   smp_store_mb(v, x)         one atomic exchange: sim_hook(SIM_RMW) (as on
 *                              x86, which uses xchg) - set_current_state()
 *   smp_store_release(p, v)    sim_hook(SIM_STORE, p, size), release store
 *   smp_load_acquire(p)        sim_hook(SIM_LOAD, p, size), acquire load
 *                              (and sim_acquire())
 *   rmb(), smp_rmb(), smp_acquire__after_ctrl_dep()
 *                              compiler barrier and sim_acquire(), no hook:
 *                              free on x86 (TSO)
 *   wmb(), smp_wmb(), smp_mb__before_atomic(), smp_mb__after_atomic()
 *                              compiler barrier only, no hook: free on
 *                              x86 (TSO; atomics are already full barriers)
 *   smp_cond_load_relaxed/acquire(p, c)
 *                              READ_ONCE (SIM_LOAD hook) and test; after
 *                              a few cpu_relax() rounds, sim_spin_wait_reload(p):
 *                              the CPU parks until p's line is written and
 *                              is charged exactly the rounds the loop would
 *                              have made (this is also how arm64 waits,
 *                              with WFE)
 *
 * The host fences keep the code correct should a kernel TU ever run on
 * several host threads; the machine itself runs one CPU at a time.
 */
#ifndef _SIM_ASM_BARRIER_H
#define _SIM_ASM_BARRIER_H

#include <linux/compiler.h>
#include <sim/machine/hooks.h>
#include <asm/processor.h>	/* cpu_relax() for smp_cond_load_*() */
#include <asm/cmpxchg.h>	/* arch_xchg() for __smp_store_mb() */

#define __mb()								\
do {									\
	sim_hook(SIM_FENCE, NULL, 0);					\
	__atomic_thread_fence(__ATOMIC_SEQ_CST);			\
} while (0)
#define __rmb()								\
do {									\
	__atomic_thread_fence(__ATOMIC_ACQUIRE);			\
	sim_acquire();							\
} while (0)
#define __wmb()		__atomic_thread_fence(__ATOMIC_RELEASE)

#define __smp_mb()	__mb()
#define __smp_rmb()	do { barrier(); sim_acquire(); } while (0)
#define __smp_wmb()	barrier()

#define __smp_mb__before_atomic()	barrier()
#define __smp_mb__after_atomic()	barrier()

#define __smp_store_mb(var, value)	do { (void)arch_xchg(&(var), value); } while (0)

#define __smp_store_release(p, v)					\
do {									\
	typeof(p) __sr_p = (p);						\
	__unqual_scalar_typeof(*__sr_p) __sr_v = (v);			\
	compiletime_assert_atomic_type(*__sr_p);			\
	sim_hook(SIM_STORE, __sr_p, sizeof(*__sr_p));			\
	__atomic_store_n(__sr_p, __sr_v, __ATOMIC_RELEASE);		\
} while (0)

#define __smp_load_acquire(p)						\
({									\
	typeof(p) __la_p = (p);						\
	compiletime_assert_atomic_type(*__la_p);			\
	sim_hook(SIM_LOAD, __la_p, sizeof(*__la_p));			\
	sim_acquire();							\
	(typeof(*__la_p))__atomic_load_n(__la_p, __ATOMIC_ACQUIRE);	\
})

/*
 * Our own spin-wait: the loop of asm-generic/barrier.h, except that after
 * SIM_SPIN_EXACT_ROUNDS ordinary rounds (cpu_relax() and reload) the CPU
 * parks in sim_spin_wait_reload() until the line is written; the reload
 * that follows (its announcement and its hooked load) may then be made by
 * the dispatcher, without a switch into this loop, which then reads the
 * word with no hook (__made; sim/machine/hooks.h).  Parking is exact
 * for a condition that depends only on the value read (and on
 * need_resched(), which the tick re-checks); the first rounds are run one
 * by one for the conditions that also count rounds: the qspinlock pending
 * wait, (VAL != _Q_PENDING_VAL) || !cnt--, ends after _Q_PENDING_LOOPS
 * (1 in the generic build) rounds whatever the value.  Each reload is
 * announced (sim_spin_reload()), and the end of a wait that took rounds
 * says whether it ended at the first change of the word (sim_spin_done():
 * the preset's spin-exit-overlap, sim/cache/cache.h).  The acquire variant
 * and everything built on it (atomic_cond_read_*(), the MCS waits) come
 * from the generic header.
 *
 * __sim_cond_load_relaxed(ptr, cond_expr, until, value) is that loop;
 * with @until SIM_SPIN_UNTIL_EQ (NE), a constant, @cond_expr must be
 * VAL == @value (VAL != @value), and the loop parks in
 * sim_spin_wait_reload_until(), whose dispatcher also tests the reloads
 * it makes and parks the CPU again while the condition is false: a wait
 * for a value, sim_cond_load_acquire_eq() and _ne() below (the ticket
 * lock's wait for its turn, the MCS wait of asm/mcs_spinlock.h), then
 * switches back into the loop once per wait, not once per write of the
 * line.  The kernel's other conditions are not known to depend on VAL
 * alone (the pending wait counts its rounds), so smp_cond_load_relaxed()
 * passes 0: the task tests every reload.
 */
#define SIM_SPIN_EXACT_ROUNDS	2

#define __sim_cond_load_relaxed(ptr, cond_expr, until, value) ({	\
	typeof(ptr) __PTR = (ptr);					\
	__unqual_scalar_typeof(*ptr) VAL, __first = 0;			\
	unsigned int __rounds = 0;					\
	int __changed = 0, __made = 0, __ret;				\
	for (;;) {							\
		if (__made) {						\
			VAL = *(const volatile				\
				__unqual_scalar_typeof(*ptr) *)__PTR;	\
		} else {						\
			sim_spin_reload();				\
			VAL = READ_ONCE(*__PTR);			\
		}							\
		if (cond_expr) {					\
			if (__rounds)					\
				sim_spin_done(!__changed &&		\
					      VAL != __first);		\
			break;						\
		}							\
		if (!__rounds)						\
			__first = VAL;					\
		else if (VAL != __first)				\
			__changed = 1;					\
		if (__rounds++ < SIM_SPIN_EXACT_ROUNDS) {		\
			cpu_relax();					\
			continue;					\
		}							\
		__ret = (until) ?					\
			sim_spin_wait_reload_until(__PTR, sizeof(*__PTR), \
				(until), (unsigned long long)(value),	\
				(unsigned long long)__first) :		\
			sim_spin_wait_reload(__PTR, sizeof(*__PTR));	\
		__made = __ret & SIM_SPIN_MADE;				\
		if (__ret & SIM_SPIN_CHANGED)				\
			__changed = 1;					\
	}								\
	(typeof(*ptr))VAL;						\
})

#define smp_cond_load_relaxed(ptr, cond_expr)				\
	__sim_cond_load_relaxed(ptr, cond_expr, 0, 0)

/*
 * sim_cond_load_acquire_eq - smp_cond_load_acquire(@ptr, VAL == @value),
 * and sim_cond_load_acquire_ne(), VAL != @value: the same loop, whose
 * test the dispatcher may make (above).  @value is converted to the
 * word's type once.
 */
#define __sim_cond_load_acquire_until(ptr, until, op, value) ({		\
	__unqual_scalar_typeof(*ptr) __value = (value), __val;		\
	__val = __sim_cond_load_relaxed(ptr, VAL op __value, until,	\
					__value);			\
	smp_acquire__after_ctrl_dep();					\
	__val;								\
})
#define sim_cond_load_acquire_eq(ptr, value)				\
	__sim_cond_load_acquire_until(ptr, SIM_SPIN_UNTIL_EQ, ==, value)
#define sim_cond_load_acquire_ne(ptr, value)				\
	__sim_cond_load_acquire_until(ptr, SIM_SPIN_UNTIL_NE, !=, value)

#include <asm-generic/barrier.h>

#endif /* _SIM_ASM_BARRIER_H */

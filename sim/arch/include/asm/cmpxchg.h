/* SPDX-License-Identifier: GPL-2.0 */
/*
 * asm/cmpxchg.h - xchg and cmpxchg of "arch sim".
 *
 * Stage: kernel -> machine.  The real linux/atomic/atomic-instrumented.h
 * turns these into xchg(), cmpxchg(), try_cmpxchg() and their _acquire,
 * _release and _relaxed variants (linux/atomic/atomic-arch-fallback.h maps
 * every ordering onto the fully ordered primitive, as on x86).  Each
 * primitive calls sim_hook(SIM_RMW, ptr, sizeof(*ptr)) once, right before
 * the access; the access itself is a sequentially consistent GCC/Clang
 * __atomic builtin.
 *
 * Why the hook is here and not in linux/instrumented.h: the instrumented
 * wrappers report xchg()/cmpxchg() as plain atomic *writes* and, for
 * try_cmpxchg(), also report the caller's "old" variable on the stack.
 * Here the kind (read-modify-write) and the one shared address are exact.
 *
 * Contract (sizes 1, 2, 4 and 8; ptr and the values are evaluated once):
 *  - arch_xchg(ptr, v)            stores v, returns the previous value.
 *  - arch_cmpxchg(ptr, o, n)      stores n if *ptr == o; returns the value
 *                                 *ptr had (== o on success).
 *  - arch_try_cmpxchg(ptr, po, n) stores n if *ptr == *po; returns true on
 *                                 success, else writes the value seen to
 *                                 *po and returns false.
 */
#ifndef _SIM_ASM_CMPXCHG_H
#define _SIM_ASM_CMPXCHG_H

#include <linux/compiler.h>
#include <sim/machine/hooks.h>

#define arch_xchg(ptr, v)						\
({									\
	typeof(ptr) __x_p = (ptr);					\
	__unqual_scalar_typeof(*__x_p) __x_v = (v);			\
	sim_hook(SIM_RMW, __x_p, sizeof(*__x_p));			\
	__atomic_exchange_n(__x_p, __x_v, __ATOMIC_SEQ_CST);		\
})

#define arch_cmpxchg(ptr, o, n)						\
({									\
	typeof(ptr) __c_p = (ptr);					\
	__unqual_scalar_typeof(*__c_p) __c_o = (o);			\
	__unqual_scalar_typeof(*__c_p) __c_n = (n);			\
	sim_hook(SIM_RMW, __c_p, sizeof(*__c_p));			\
	__atomic_compare_exchange_n(__c_p, &__c_o, __c_n, 0,		\
				    __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST); \
	__c_o;								\
})

#define arch_try_cmpxchg(ptr, po, n)					\
({									\
	typeof(ptr) __t_p = (ptr);					\
	typeof(*__t_p) *__t_po = (po);					\
	__unqual_scalar_typeof(*__t_p) __t_n = (n);			\
	sim_hook(SIM_RMW, __t_p, sizeof(*__t_p));			\
	__atomic_compare_exchange_n(__t_p, __t_po, __t_n, 0,		\
				    __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST); \
})

/* 64-bit and CPU-local forms: the same instructions on a 64-bit machine. */
#define arch_cmpxchg64(ptr, o, n)		arch_cmpxchg(ptr, o, n)
#define arch_try_cmpxchg64(ptr, po, n)		arch_try_cmpxchg(ptr, po, n)
#define arch_cmpxchg_local(ptr, o, n)		arch_cmpxchg(ptr, o, n)
#define arch_cmpxchg64_local(ptr, o, n)		arch_cmpxchg(ptr, o, n)

#endif /* _SIM_ASM_CMPXCHG_H */

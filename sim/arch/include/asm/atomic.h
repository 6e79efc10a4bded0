/* SPDX-License-Identifier: GPL-2.0 */
/*
 * asm/atomic.h - atomic_t and atomic64_t primitives of "arch sim".
 *
 * Stage: kernel -> machine.  Included by the real linux/atomic.h, whose
 * generated headers (atomic-arch-fallback.h, atomic-long.h,
 * atomic-instrumented.h) build the whole atomic API on these few
 * primitives: the _acquire/_release/_relaxed variants map onto the fully
 * ordered ones (as on x86); inc, dec, andnot, the _and_test and _unless
 * forms and the rest are composed from them; atomic_long_t is atomic64_t.
 *
 * Each primitive is one access and calls sim_hook() once, right before
 * it, with the counter's address and size and the real kind:
 *   arch_atomic{,64}_read, _read_acquire          SIM_LOAD (_acquire:
 *                                                 and sim_acquire())
 *   arch_atomic{,64}_set, _set_release            SIM_STORE
 *   every other primitive (add, fetch_or, xchg, cmpxchg, try_cmpxchg ...)
 *                                                 SIM_RMW
 * so a composed operation (say atomic_fetch_add_unless(), a read and a
 * try_cmpxchg loop) reports each of its accesses.  linux/instrumented.h is
 * the real one, a no-op without KASAN/KCSAN: see asm/cmpxchg.h for why
 * the hooks are here.
 */
#ifndef _SIM_ASM_ATOMIC_H
#define _SIM_ASM_ATOMIC_H

#include <linux/compiler.h>
#include <linux/types.h>
#include <sim/machine/hooks.h>
#include <asm/cmpxchg.h>
#include <asm/barrier.h>

#define __SIM_ATOMIC_HOOK(kind, v)					\
	sim_hook(kind, &(v)->counter, sizeof((v)->counter))

/* Loads and stores. */
#define SIM_ATOMIC_LDST(pfx, T, V)					\
static __always_inline T arch_##pfx##_read(const V *v)			\
{									\
	__SIM_ATOMIC_HOOK(SIM_LOAD, v);					\
	return __atomic_load_n(&v->counter, __ATOMIC_RELAXED);		\
}									\
static __always_inline T arch_##pfx##_read_acquire(const V *v)		\
{									\
	__SIM_ATOMIC_HOOK(SIM_LOAD, v);					\
	sim_acquire();							\
	return __atomic_load_n(&v->counter, __ATOMIC_ACQUIRE);		\
}									\
static __always_inline void arch_##pfx##_set(V *v, T i)		\
{									\
	__SIM_ATOMIC_HOOK(SIM_STORE, v);				\
	__atomic_store_n(&v->counter, i, __ATOMIC_RELAXED);		\
}									\
static __always_inline void arch_##pfx##_set_release(V *v, T i)	\
{									\
	__SIM_ATOMIC_HOOK(SIM_STORE, v);				\
	__atomic_store_n(&v->counter, i, __ATOMIC_RELEASE);		\
}

/* op: add, sub, and, or, xor - without result, fetch_op and op_return. */
#define SIM_ATOMIC_OP(pfx, T, V, op)					\
static __always_inline void arch_##pfx##_##op(T i, V *v)		\
{									\
	__SIM_ATOMIC_HOOK(SIM_RMW, v);					\
	(void)__atomic_fetch_##op(&v->counter, i, __ATOMIC_SEQ_CST);	\
}									\
static __always_inline T arch_##pfx##_fetch_##op(T i, V *v)		\
{									\
	__SIM_ATOMIC_HOOK(SIM_RMW, v);					\
	return __atomic_fetch_##op(&v->counter, i, __ATOMIC_SEQ_CST);	\
}

#define SIM_ATOMIC_OP_RETURN(pfx, T, V, op)				\
static __always_inline T arch_##pfx##_##op##_return(T i, V *v)		\
{									\
	__SIM_ATOMIC_HOOK(SIM_RMW, v);					\
	return __atomic_##op##_fetch(&v->counter, i, __ATOMIC_SEQ_CST);	\
}

/* xchg/cmpxchg on the counter: asm/cmpxchg.h hooks them. */
#define SIM_ATOMIC_XCHG(pfx, T, V)					\
static __always_inline T arch_##pfx##_xchg(V *v, T n)			\
{									\
	return arch_xchg(&v->counter, n);				\
}									\
static __always_inline T arch_##pfx##_cmpxchg(V *v, T o, T n)		\
{									\
	return arch_cmpxchg(&v->counter, o, n);				\
}									\
static __always_inline bool arch_##pfx##_try_cmpxchg(V *v, T *o, T n)	\
{									\
	return arch_try_cmpxchg(&v->counter, o, n);			\
}

#define SIM_ATOMIC_ALL(pfx, T, V)					\
	SIM_ATOMIC_LDST(pfx, T, V)					\
	SIM_ATOMIC_OP(pfx, T, V, add)					\
	SIM_ATOMIC_OP(pfx, T, V, sub)					\
	SIM_ATOMIC_OP(pfx, T, V, and)					\
	SIM_ATOMIC_OP(pfx, T, V, or)					\
	SIM_ATOMIC_OP(pfx, T, V, xor)					\
	SIM_ATOMIC_OP_RETURN(pfx, T, V, add)				\
	SIM_ATOMIC_OP_RETURN(pfx, T, V, sub)				\
	SIM_ATOMIC_XCHG(pfx, T, V)

SIM_ATOMIC_ALL(atomic, int, atomic_t)
SIM_ATOMIC_ALL(atomic64, s64, atomic64_t)

#undef SIM_ATOMIC_ALL
#undef SIM_ATOMIC_XCHG
#undef SIM_ATOMIC_OP_RETURN
#undef SIM_ATOMIC_OP
#undef SIM_ATOMIC_LDST

/* Tell linux/atomic/atomic-arch-fallback.h what exists (x86's set). */
#define arch_atomic_read_acquire	arch_atomic_read_acquire
#define arch_atomic_set_release		arch_atomic_set_release
#define arch_atomic_add_return		arch_atomic_add_return
#define arch_atomic_sub_return		arch_atomic_sub_return
#define arch_atomic_fetch_add		arch_atomic_fetch_add
#define arch_atomic_fetch_sub		arch_atomic_fetch_sub
#define arch_atomic_fetch_and		arch_atomic_fetch_and
#define arch_atomic_fetch_or		arch_atomic_fetch_or
#define arch_atomic_fetch_xor		arch_atomic_fetch_xor
#define arch_atomic_xchg		arch_atomic_xchg
#define arch_atomic_cmpxchg		arch_atomic_cmpxchg
#define arch_atomic_try_cmpxchg		arch_atomic_try_cmpxchg
#define arch_atomic64_read_acquire	arch_atomic64_read_acquire
#define arch_atomic64_set_release	arch_atomic64_set_release
#define arch_atomic64_add_return	arch_atomic64_add_return
#define arch_atomic64_sub_return	arch_atomic64_sub_return
#define arch_atomic64_fetch_add		arch_atomic64_fetch_add
#define arch_atomic64_fetch_sub		arch_atomic64_fetch_sub
#define arch_atomic64_fetch_and		arch_atomic64_fetch_and
#define arch_atomic64_fetch_or		arch_atomic64_fetch_or
#define arch_atomic64_fetch_xor		arch_atomic64_fetch_xor
#define arch_atomic64_xchg		arch_atomic64_xchg
#define arch_atomic64_cmpxchg		arch_atomic64_cmpxchg
#define arch_atomic64_try_cmpxchg	arch_atomic64_try_cmpxchg

#endif /* _SIM_ASM_ATOMIC_H */

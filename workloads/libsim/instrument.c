/* SPDX-License-Identifier: GPL-2.0 */
/*
 * workloads/libsim/instrument.c - the runtime of an instrumented program
 * (`futexsim build --instrument`): every plain and volatile access and
 * every atomic of its code a scheduling point of the simulated machine.
 *
 * Stage: user program -> machine (sim_hook()).  `futexsim build
 * --instrument` compiles the program with the compiler's thread-sanitizer
 * instrumentation (gcc and clang -fsanitize=thread, volatile accesses
 * told apart, no function entry/exit calls) and links it without the
 * sanitizer's own runtime: the calls the compiler inserts before each
 * access come here.  The compiler performs the access itself when the
 * call returns, so a call is what sim_hook() is everywhere: a scheduling
 * point before the access, with its cache-line cost.
 *
 *   __tsan_readN/writeN, unaligned, volatile   sim_hook(LOAD/STORE); a
 *       store then goes into its CPU's buffer under memory=tso
 *       (sim/machine/memmodel.h)
 *   __tsan_read_range/write_range              the first byte's line
 *   __tsan_atomicN_OP, N = 8..64 (the compiler turns every atomic
 *   builtin and every operator on an _Atomic object into one)
 *                                              performs the OP, as
 *       sequentially consistent; a scheduling point, unless
 *       futexsim_atomic() of the futexsim_atomic.h macros has just been
 *       one for it (wl_prog_atomic_announced)
 *   __tsan_atomic_thread_fence                 sim_hook(FENCE)
 *   __tsan_init, __tsan_func_entry/exit        nothing
 *
 * Outside a simulated task (static constructors, before the machine
 * runs) a call does nothing: sim_hook() is gated there.  The library
 * itself is not instrumented: its accesses are the machine's, not the
 * program's.
 */
#include <stdint.h>

#include "sim/machine/machine.h"
#include "sim/machine/memmodel.h"
#define FUTEXSIM_NO_RENAME
#include "workloads/libsim/futexsim.h"
#include "workloads/libsim/libsim.h"

/* A plain or volatile access by the program: a scheduling point. */
static inline void prog_access(enum sim_access kind, const volatile void *p,
			  unsigned int size)
{
	int e;

	if (!sim__hooks_live)
		return;
	e = wl_prog_errno_save();
	sim__hook(kind, p, size);	/* sim_hook() past its gate */
	wl_prog_errno_restore(e);
}

/* A plain or volatile store: a scheduling point, then, under memory=tso,
 * into its CPU's store buffer (the compiled code stores when we return). */
static inline void prog_store(const volatile void *p, unsigned int size)
{
	prog_access(SIM_STORE, p, size);
	if (__builtin_expect(sim__tso_on, 0) && sim__hooks_live)
		sim_tso_store(sim_cur, p, size);
}

#define PLAIN(n)							\
void __tsan_read##n(void *p) { prog_access(SIM_LOAD, p, n); }		\
void __tsan_write##n(void *p) { prog_store(p, n); }			\
void __tsan_unaligned_read##n(void *p) { prog_access(SIM_LOAD, p, n); }	\
void __tsan_unaligned_write##n(void *p) { prog_store(p, n); }		\
void __tsan_volatile_read##n(void *p) { prog_access(SIM_LOAD, p, n); }	\
void __tsan_volatile_write##n(void *p) { prog_store(p, n); }		\
void __tsan_unaligned_volatile_read##n(void *p) { prog_access(SIM_LOAD, p, n); } \
void __tsan_unaligned_volatile_write##n(void *p) { prog_store(p, n); }

PLAIN(1)
PLAIN(2)
PLAIN(4)
PLAIN(8)
PLAIN(16)

void __tsan_read_range(void *p, unsigned long size)
{
	prog_access(SIM_LOAD, p, (unsigned int)size);
}

void __tsan_write_range(void *p, unsigned long size)
{
	prog_access(SIM_STORE, p, (unsigned int)size);
}

void __tsan_init(void)
{
}

void __tsan_func_entry(void *pc)
{
}

void __tsan_func_exit(void)
{
}

/*
 * An atomic of the program.  Through the futexsim_atomic.h macros the
 * builtin comes here right after futexsim_atomic(), with no scheduling
 * point in between: that was its scheduling point (and its trace).  An
 * atomic the macros do not see (an operator on an _Atomic object) is
 * one here.
 */
static inline void atomic_access(enum sim_access kind, const volatile void *p,
				 unsigned int size)
{
	const volatile void *was = wl_prog_atomic_announced;

	wl_prog_atomic_announced = NULL;
	if (was != (p ? p : WL_PROG_ATOMIC_FENCE))
		prog_access(kind, p, size);
}

/*
 * Under memory=tso an atomic store is what x86 compilers make of it: a
 * sequentially consistent one an xchg (drains the buffer: the store is
 * then visible at once), any weaker one a plain mov (buffered).  Every
 * other order (@mo, @fmo) is not looked at: loads and read-modify-writes
 * are the same instructions whatever the order.
 */
static inline void atomic_store_order(const volatile void *a, unsigned int size,
				      int mo)
{
	if (!__builtin_expect(sim__tso_on, 0) || !sim__hooks_live)
		return;
	if (mo == __ATOMIC_SEQ_CST)
		sim_tso_drain(sim_cur);
	else
		sim_tso_store(sim_cur, a, size);
}

/* A fetch-and-OP of @n bits. */
#define FETCH(n, T, op)							\
T __tsan_atomic##n##_fetch_##op(volatile T *a, T v, int mo)		\
{									\
	atomic_access(SIM_RMW, a, n / 8);				\
	return __atomic_fetch_##op(a, v, __ATOMIC_SEQ_CST);		\
}

#define ATOMICS(n, T)							\
T __tsan_atomic##n##_load(const volatile T *a, int mo)			\
{									\
	atomic_access(SIM_LOAD, a, n / 8);				\
	return __atomic_load_n(a, __ATOMIC_SEQ_CST);			\
}									\
void __tsan_atomic##n##_store(volatile T *a, T v, int mo)		\
{									\
	atomic_access(SIM_STORE, a, n / 8);				\
	atomic_store_order(a, n / 8, mo);				\
	__atomic_store_n(a, v, __ATOMIC_SEQ_CST);			\
}									\
T __tsan_atomic##n##_exchange(volatile T *a, T v, int mo)		\
{									\
	atomic_access(SIM_RMW, a, n / 8);				\
	return __atomic_exchange_n(a, v, __ATOMIC_SEQ_CST);		\
}									\
FETCH(n, T, add)							\
FETCH(n, T, sub)							\
FETCH(n, T, and)							\
FETCH(n, T, or)								\
FETCH(n, T, xor)							\
FETCH(n, T, nand)							\
int __tsan_atomic##n##_compare_exchange_strong(volatile T *a, T *c,	\
					       T v, int mo, int fmo)	\
{									\
	atomic_access(SIM_RMW, a, n / 8);				\
	return __atomic_compare_exchange_n(a, c, v, 0, __ATOMIC_SEQ_CST, \
					   __ATOMIC_SEQ_CST);		\
}									\
int __tsan_atomic##n##_compare_exchange_weak(volatile T *a, T *c,	\
					     T v, int mo, int fmo)	\
{									\
	return __tsan_atomic##n##_compare_exchange_strong(a, c, v, mo, fmo); \
}									\
T __tsan_atomic##n##_compare_exchange_val(volatile T *a, T c, T v,	\
					  int mo, int fmo)		\
{									\
	atomic_access(SIM_RMW, a, n / 8);				\
	__atomic_compare_exchange_n(a, &c, v, 0, __ATOMIC_SEQ_CST,	\
				    __ATOMIC_SEQ_CST);			\
	return c;							\
}

ATOMICS(8, uint8_t)
ATOMICS(16, uint16_t)
ATOMICS(32, uint32_t)
ATOMICS(64, uint64_t)

void __tsan_atomic_thread_fence(int mo)
{
	atomic_access(SIM_FENCE, NULL, 0);
}

void __tsan_atomic_signal_fence(int mo)
{
}

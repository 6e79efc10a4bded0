/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sim/machine/tsan_abi.h - the atomic operations of the compilers'
 * thread-sanitizer ABI (the __tsan_atomicN_* calls that gcc and clang
 * -fsanitize=thread put in place of each atomic builtin), generated
 * once for the two runtimes that serve them: a user program's
 * (workloads/libsim/instrument.c, names __tsan_*) and an instrumented
 * kernel's (sim/arch/instrument.c, names __ksim_tsan_*, renamed in its
 * objects by mk/kinstr-rename.sh).
 *
 * Stage: machine (the hook ABI of instrumented code).  No includes: the
 * header serves a host TU and a kernel TU alike.
 *
 * TSAN_ATOMICS(P, n, T, LOAD, STORE, RMW) defines, for @n bits of type
 * @T, P##_tsan_atomic##n##_{load, store, exchange, fetch_{add, sub, and,
 * or, xor, nand}, compare_exchange_{strong, weak, val}}: each runs the
 * runtime's LOAD(a, n, mo), STORE(a, n, mo) or RMW(a, n, mo) (the
 * address, the size in bits, the memory order asked for), then performs
 * the operation sequentially consistent (the simulated machine runs one
 * CPU at a time; the memory order is the runtime's to model).  A weak
 * compare-exchange is the strong one.
 */
#ifndef SIM_MACHINE_TSAN_ABI_H
#define SIM_MACHINE_TSAN_ABI_H

#define TSAN_FETCH(P, n, T, op, RMW)					\
T P##_tsan_atomic##n##_fetch_##op(volatile T *a, T v, int mo);		\
T P##_tsan_atomic##n##_fetch_##op(volatile T *a, T v, int mo)		\
{									\
	RMW(a, n, mo);							\
	return __atomic_fetch_##op(a, v, __ATOMIC_SEQ_CST);		\
}

#define TSAN_ATOMICS(P, n, T, LOAD, STORE, RMW)				\
T P##_tsan_atomic##n##_load(const volatile T *a, int mo);		\
T P##_tsan_atomic##n##_load(const volatile T *a, int mo)		\
{									\
	LOAD(a, n, mo);							\
	return __atomic_load_n(a, __ATOMIC_SEQ_CST);			\
}									\
void P##_tsan_atomic##n##_store(volatile T *a, T v, int mo);		\
void P##_tsan_atomic##n##_store(volatile T *a, T v, int mo)		\
{									\
	STORE(a, n, mo);						\
	__atomic_store_n(a, v, __ATOMIC_SEQ_CST);			\
}									\
T P##_tsan_atomic##n##_exchange(volatile T *a, T v, int mo);		\
T P##_tsan_atomic##n##_exchange(volatile T *a, T v, int mo)		\
{									\
	RMW(a, n, mo);							\
	return __atomic_exchange_n(a, v, __ATOMIC_SEQ_CST);		\
}									\
TSAN_FETCH(P, n, T, add, RMW)						\
TSAN_FETCH(P, n, T, sub, RMW)						\
TSAN_FETCH(P, n, T, and, RMW)						\
TSAN_FETCH(P, n, T, or, RMW)						\
TSAN_FETCH(P, n, T, xor, RMW)						\
TSAN_FETCH(P, n, T, nand, RMW)						\
int P##_tsan_atomic##n##_compare_exchange_strong(volatile T *a, T *c,	\
						 T v, int mo, int fmo);	\
int P##_tsan_atomic##n##_compare_exchange_strong(volatile T *a, T *c,	\
						 T v, int mo, int fmo)	\
{									\
	RMW(a, n, mo);							\
	return __atomic_compare_exchange_n(a, c, v, 0, __ATOMIC_SEQ_CST, \
					   __ATOMIC_SEQ_CST);		\
}									\
int P##_tsan_atomic##n##_compare_exchange_weak(volatile T *a, T *c,	\
					       T v, int mo, int fmo);	\
int P##_tsan_atomic##n##_compare_exchange_weak(volatile T *a, T *c,	\
					       T v, int mo, int fmo)	\
{									\
	return P##_tsan_atomic##n##_compare_exchange_strong(a, c, v, mo, fmo); \
}									\
T P##_tsan_atomic##n##_compare_exchange_val(volatile T *a, T c, T v,	\
					    int mo, int fmo);		\
T P##_tsan_atomic##n##_compare_exchange_val(volatile T *a, T c, T v,	\
					    int mo, int fmo)		\
{									\
	RMW(a, n, mo);							\
	__atomic_compare_exchange_n(a, &c, v, 0, __ATOMIC_SEQ_CST,	\
				    __ATOMIC_SEQ_CST);			\
	return c;							\
}

/* All four sizes. */
#define TSAN_ATOMICS_ALL(P, LOAD, STORE, RMW)				\
	TSAN_ATOMICS(P, 8, __UINT8_TYPE__, LOAD, STORE, RMW)		\
	TSAN_ATOMICS(P, 16, __UINT16_TYPE__, LOAD, STORE, RMW)		\
	TSAN_ATOMICS(P, 32, __UINT32_TYPE__, LOAD, STORE, RMW)		\
	TSAN_ATOMICS(P, 64, __UINT64_TYPE__, LOAD, STORE, RMW)

#endif /* SIM_MACHINE_TSAN_ABI_H */

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * workloads/ulock/uatomic.h - user-space atomics of simulated tasks.
 *
 * Stage: user-space lock.  Each operation reports itself to the machine
 * (sim_hook(): a scheduling point that charges the access) and then does
 * the access with a GCC __atomic builtin, sequentially consistent like
 * the simulation itself.  The names follow C11 and glibc's atomic.h.
 * Under memory=tso|arm64 (sim/machine/memmodel.h) uatomic_store() is
 * buffered as a program's store is (a release store, STLR, on arm64) and
 * uatomic_load() is, on arm64, an acquire load (LDAR): the executing
 * CPU's later loads come after it; the RMWs drain the store buffer as
 * every RMW hook of code that is not the program's does.
 */
#ifndef ULOCK_UATOMIC_H
#define ULOCK_UATOMIC_H

#include <stdint.h>

#include "sim/machine/hooks.h"
#include "sim/machine/memmodel.h"

static inline uint32_t uatomic_load(uint32_t *p)
{
	sim_hook(SIM_LOAD, p, 4);
	if (__builtin_expect(sim__sb_arm64, 0))
		sim_sb_acquire();	/* an LDAR of the library's */
	return __atomic_load_n(p, __ATOMIC_ACQUIRE);
}

/* The hook of a store of the libraries: buffered under memory=tso|arm64
 * (a release store, STLR, if @release), a plain store hook otherwise. */
static inline void uatomic__store_hook(uint32_t *p, int release)
{
	if (__builtin_expect(sim__sb_on, 0) && sim__hooks_live)
		sim_sb_store_hooked(p, 4, release);
	else
		sim_hook(SIM_STORE, p, 4);
}

/* uatomic_store - a release store: under memory=tso|arm64 it goes into
 * the CPU's store buffer (STLR on arm64), after the program's own. */
static inline void uatomic_store(uint32_t *p, uint32_t v)
{
	uatomic__store_hook(p, 1);
	__atomic_store_n(p, v, __ATOMIC_RELEASE);
}

/* uatomic_load_relaxed, uatomic_store_relaxed - a relaxed load (LDR on
 * arm64: it may read what the CPU's view lags over) and a relaxed store
 * (STR: it may become visible after later stores): the built-in
 * workloads' protected data, whose order only the lock gives. */
static inline uint32_t uatomic_load_relaxed(uint32_t *p)
{
	sim_hook(SIM_LOAD, p, 4);
	return __atomic_load_n(p, __ATOMIC_RELAXED);
}

static inline void uatomic_store_relaxed(uint32_t *p, uint32_t v)
{
	uatomic__store_hook(p, 0);
	__atomic_store_n(p, v, __ATOMIC_RELAXED);
}

/* uatomic_cmpxchg - Return: the value found (== @old on success). */
static inline uint32_t uatomic_cmpxchg(uint32_t *p, uint32_t old, uint32_t new)
{
	sim_hook(SIM_RMW, p, 4);
	__atomic_compare_exchange_n(p, &old, new, 0, __ATOMIC_SEQ_CST,
				    __ATOMIC_SEQ_CST);
	return old;
}

static inline uint32_t uatomic_xchg(uint32_t *p, uint32_t v)
{
	sim_hook(SIM_RMW, p, 4);
	return __atomic_exchange_n(p, v, __ATOMIC_SEQ_CST);
}

static inline uint32_t uatomic_fetch_add(uint32_t *p, uint32_t v)
{
	sim_hook(SIM_RMW, p, 4);
	return __atomic_fetch_add(p, v, __ATOMIC_SEQ_CST);
}

static inline uint32_t uatomic_fetch_sub(uint32_t *p, uint32_t v)
{
	sim_hook(SIM_RMW, p, 4);
	return __atomic_fetch_sub(p, v, __ATOMIC_SEQ_CST);
}

/* uatomic_pause - the PAUSE instruction (x86 cpu_relax()). */
static inline void uatomic_pause(void)
{
	sim_hook(SIM_RELAX, 0, 0);
}

#endif /* ULOCK_UATOMIC_H */

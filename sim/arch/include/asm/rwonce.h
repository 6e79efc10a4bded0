/* SPDX-License-Identifier: GPL-2.0 */
/*
 * asm/rwonce.h - READ_ONCE()/WRITE_ONCE() of "arch sim": marked accesses
 * are scheduling points.
 *
 * Stage: kernel -> machine.  Included by linux/compiler.h, so by every
 * kernel TU; calls sim_hook() (sim/machine/hooks.h) before each access.
 *
 * Contract:
 *  - READ_ONCE(x) calls sim_hook(SIM_LOAD, &x, sizeof(x)), then performs
 *    one volatile load of x.  WRITE_ONCE(x, v) evaluates v first, then
 *    calls sim_hook(SIM_STORE, &x, sizeof(x)) and performs one volatile
 *    store.  The hook comes right before the access, so another CPU may
 *    run between the two marked accesses of a sequence, never inside one.
 *  - x is evaluated once (the kernel's own macros have the same rule).
 *  - Everything else (READ_ONCE_NOCHECK, the size check) is the real
 *    asm-generic/rwonce.h.
 */
#ifndef _SIM_ASM_RWONCE_H
#define _SIM_ASM_RWONCE_H

#include <sim/machine/hooks.h>

#define __READ_ONCE(x)							\
({									\
	const volatile __unqual_scalar_typeof(x) *__ro_p =		\
		(const volatile __unqual_scalar_typeof(x) *)&(x);	\
	sim_hook(SIM_LOAD, __ro_p, sizeof(*__ro_p));			\
	*__ro_p;							\
})

#include <asm-generic/rwonce.h>

/* asm-generic/rwonce.h defines __WRITE_ONCE unconditionally: replace it. */
#undef __WRITE_ONCE
#define __WRITE_ONCE(x, val)						\
do {									\
	volatile typeof(x) *__wo_p = &(x);				\
	__unqual_scalar_typeof(x) __wo_v = (val);			\
	sim_hook(SIM_STORE, __wo_p, sizeof(*__wo_p));			\
	*__wo_p = __wo_v;						\
} while (0)

#endif /* _SIM_ASM_RWONCE_H */

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sim/arch/instrument.c - the runtime of an instrumented kernel build
 * (make INSTR=1): every plain access of the kernel files and the
 * project's kernel TUs of futex/ a hook, as their atomics, READ_ONCE()s
 * and barriers always are.
 *
 * Stage: kernel -> machine.  With INSTR=1 the Makefile compiles those
 * files with the compiler's thread-sanitizer instrumentation (volatile
 * accesses told apart, no function entry/exit calls) and renames the
 * calls it inserts in their objects from __tsan_* to __ksim_tsan_*
 * (objcopy --redefine-syms), so that they come here and not to a user
 * program's runtime (workloads/libsim/instrument.c), whose accesses are
 * the program's.  A call comes right before its access, which the
 * compiled code makes when the call returns.
 *
 *   __ksim_tsan_readN/writeN, unaligned, _range   sim_hook(LOAD/STORE):
 *                                  cost, scheduling point
 *   __ksim_tsan_volatile_*         nothing: the shim's READ_ONCE() and
 *                                  WRITE_ONCE() hook already (asm/rwonce.h)
 *   __ksim_tsan_atomicN_*          the operation, sequentially consistent,
 *                                  no hook: the shim's atomics
 *                                  (asm/atomic.h, asm/cmpxchg.h) hook
 *                                  before they reach the builtin
 *   fences, init, func entry/exit  nothing
 *
 * Kernel accesses are never buffered by memory=tso|arm64 (the model is
 * the program's) and the race oracle does not watch them (the kernel
 * marks its intended races with data_race(), which this build does not
 * see).  In a normal build nothing calls these functions.
 */
#include <linux/types.h>
#include <sim/machine/hooks.h>
#include <sim/machine/tsan_abi.h>

#define KPLAIN(n)							\
void __ksim_tsan_read##n(void *p);					\
void __ksim_tsan_read##n(void *p) { sim_hook(SIM_LOAD, p, n); }	\
void __ksim_tsan_write##n(void *p);					\
void __ksim_tsan_write##n(void *p) { sim_hook(SIM_STORE, p, n); }	\
void __ksim_tsan_unaligned_read##n(void *p);				\
void __ksim_tsan_unaligned_read##n(void *p) { sim_hook(SIM_LOAD, p, n); } \
void __ksim_tsan_unaligned_write##n(void *p);				\
void __ksim_tsan_unaligned_write##n(void *p) { sim_hook(SIM_STORE, p, n); } \
void __ksim_tsan_volatile_read##n(void *p);				\
void __ksim_tsan_volatile_read##n(void *p) { }				\
void __ksim_tsan_volatile_write##n(void *p);				\
void __ksim_tsan_volatile_write##n(void *p) { }				\
void __ksim_tsan_unaligned_volatile_read##n(void *p);			\
void __ksim_tsan_unaligned_volatile_read##n(void *p) { }		\
void __ksim_tsan_unaligned_volatile_write##n(void *p);			\
void __ksim_tsan_unaligned_volatile_write##n(void *p) { }

KPLAIN(1)
KPLAIN(2)
KPLAIN(4)
KPLAIN(8)
KPLAIN(16)

void __ksim_tsan_read_range(void *p, unsigned long size);
void __ksim_tsan_read_range(void *p, unsigned long size)
{
	sim_hook(SIM_LOAD, p, (unsigned int)size);
}

void __ksim_tsan_write_range(void *p, unsigned long size);
void __ksim_tsan_write_range(void *p, unsigned long size)
{
	sim_hook(SIM_STORE, p, (unsigned int)size);
}

void __ksim_tsan_init(void);
void __ksim_tsan_init(void)
{
}

void __ksim_tsan_func_entry(void *pc);
void __ksim_tsan_func_entry(void *pc)
{
}

void __ksim_tsan_func_exit(void);
void __ksim_tsan_func_exit(void)
{
}

/* the shim's atomics hooked before they reach the builtin */
#define KATOMIC_NONE(a, n, mo) ((void)0)

TSAN_ATOMICS_ALL(__ksim, KATOMIC_NONE, KATOMIC_NONE, KATOMIC_NONE)

void __ksim_tsan_atomic_thread_fence(int mo);
void __ksim_tsan_atomic_thread_fence(int mo)
{
}

void __ksim_tsan_atomic_signal_fence(int mo);
void __ksim_tsan_atomic_signal_fence(int mo)
{
}

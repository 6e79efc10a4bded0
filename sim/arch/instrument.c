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
 *                                  cost, scheduling point; with oracle
 *                                  race, a plain access's watchpoint
 *   __ksim_tsan_volatile_*         no hook: the shim's READ_ONCE() and
 *                                  WRITE_ONCE() hook already
 *                                  (asm/rwonce.h); a marked access for
 *                                  the race oracle
 *   __ksim_tsan_atomicN_*          the operation, sequentially consistent,
 *                                  no hook: the shim's atomics
 *                                  (asm/atomic.h, asm/cmpxchg.h) hook
 *                                  before they reach the builtin; a
 *                                  marked access for the race oracle
 *   fences, init, func entry/exit  nothing
 *
 * Kernel accesses are never buffered by memory=tso|arm64 (the model is
 * the program's).  The race oracle watches them through KCSAN's
 * interface (sim/arch/kcsan.c: data_race() and the assertions, which
 * these files see with CONFIG_KCSAN set).  In a normal build nothing
 * calls these functions.
 */
#include <linux/compiler.h>
#include <linux/types.h>
#include <sim/explore/race_abi.h>
#include <sim/ksim.h>
#include <sim/machine/hooks.h>
#include <sim/machine/tsan_abi.h>

/* Inlined into each __ksim_tsan_* function, so that the return address
 * is the kernel code's. */
#define KACCESS_PC	((unsigned long)__builtin_return_address(0))

/*
 * An access to the running task's own stack: its locals, and the spills
 * the compiler makes.  Not a hook: the normal build does not see them
 * either, and their addresses depend on the calls below the frame that
 * holds them (a traced spin_lock() is one more frame than an untraced
 * one, sim/arch/include/linux/spinlock.h), so charging them would make a
 * narrated run differ from the same run unnarrated.  A local another
 * task reaches by pointer (a futex_q) is hooked when that task accesses
 * it.
 */
static __always_inline int own_stack(const void *p)
{
	return (unsigned long)p - sim__stack_lo < sim__stack_hi - sim__stack_lo;
}

/*
 * An access to the binary's own image (its .data, .bss, .rodata): the
 * machine's state that the shim's inline code reads for the kernel
 * (current, smp_processor_id(), the hooks' gate: sim_current_kt,
 * sim_this_cpu, sim__hooks_live, sim_trace_mask, sim), which a kernel
 * reads from registers or per-CPU data, and the kernel's few static
 * variables, set at boot and read after (__futex_data, futex_q_init).
 * Neither a hook nor watched: where the link puts them moves with any
 * change of the simulator, and a cache line they shared would make an
 * instrumented run's timing follow the link's layout.
 */
extern char __executable_start[], _end[];

static __always_inline int in_image(const volatile void *p)
{
	return (unsigned long)p - (unsigned long)__executable_start <
	       (unsigned long)_end - (unsigned long)__executable_start;
}

/* A plain access: a hook, then the race oracle's look; on the task's own
 * stack the look only; in the binary's image nothing. */
#define KPLAIN_ACCESS(kind, p, n, how)					\
do {									\
	int __own = own_stack(p);					\
									\
	if (unlikely(in_image(p)))					\
		break;							\
	if (!__own)							\
		sim_hook(kind, p, n);					\
	if (unlikely(sim__race_live))					\
		ksim_kcsan_access(p, n, (how) |				\
				  (__own ? SIM_RACE_NOWAIT : 0), KACCESS_PC); \
} while (0)

/* A marked access (volatile: READ_ONCE(), WRITE_ONCE(); an atomic): the
 * shim hooked it already; only the race oracle looks (not in the
 * binary's image). */
#define KMARKED_ACCESS(p, n, how)					\
do {									\
	if (unlikely(sim__race_live) && !in_image(p))			\
		ksim_kcsan_access(p, n, (how) | SIM_RACE_MARKED, KACCESS_PC); \
} while (0)

#define KPLAIN(n)							\
void __ksim_tsan_read##n(void *p);					\
void __ksim_tsan_read##n(void *p) { KPLAIN_ACCESS(SIM_LOAD, p, n, 0); } \
void __ksim_tsan_write##n(void *p);					\
void __ksim_tsan_write##n(void *p)					\
{ KPLAIN_ACCESS(SIM_STORE, p, n, SIM_RACE_WRITE); }			\
void __ksim_tsan_unaligned_read##n(void *p);				\
void __ksim_tsan_unaligned_read##n(void *p)				\
{ KPLAIN_ACCESS(SIM_LOAD, p, n, 0); }					\
void __ksim_tsan_unaligned_write##n(void *p);				\
void __ksim_tsan_unaligned_write##n(void *p)				\
{ KPLAIN_ACCESS(SIM_STORE, p, n, SIM_RACE_WRITE); }			\
void __ksim_tsan_volatile_read##n(void *p);				\
void __ksim_tsan_volatile_read##n(void *p) { KMARKED_ACCESS(p, n, 0); } \
void __ksim_tsan_volatile_write##n(void *p);				\
void __ksim_tsan_volatile_write##n(void *p)				\
{ KMARKED_ACCESS(p, n, SIM_RACE_WRITE); }				\
void __ksim_tsan_unaligned_volatile_read##n(void *p);			\
void __ksim_tsan_unaligned_volatile_read##n(void *p)			\
{ KMARKED_ACCESS(p, n, 0); }						\
void __ksim_tsan_unaligned_volatile_write##n(void *p);			\
void __ksim_tsan_unaligned_volatile_write##n(void *p)			\
{ KMARKED_ACCESS(p, n, SIM_RACE_WRITE); }

KPLAIN(1)
KPLAIN(2)
KPLAIN(4)
KPLAIN(8)
KPLAIN(16)

void __ksim_tsan_read_range(void *p, unsigned long size);
void __ksim_tsan_read_range(void *p, unsigned long size)
{
	KPLAIN_ACCESS(SIM_LOAD, p, (unsigned int)size, 0);
}

void __ksim_tsan_write_range(void *p, unsigned long size);
void __ksim_tsan_write_range(void *p, unsigned long size)
{
	KPLAIN_ACCESS(SIM_STORE, p, (unsigned int)size, SIM_RACE_WRITE);
}

/* linux/spinlock.h: a read for the trace only, from this uninstrumented
 * file */
u32 ksim_trace_peek32(const void *p)
{
	return *(const u32 *)p;
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

/* the shim's atomics hooked before they reach the builtin: the race
 * oracle's look only */
#define KATOMIC_LOAD(a, n, mo)	KMARKED_ACCESS(a, n / 8, 0)
#define KATOMIC_STORE(a, n, mo)	KMARKED_ACCESS(a, n / 8, SIM_RACE_WRITE)

TSAN_ATOMICS_ALL(__ksim, KATOMIC_LOAD, KATOMIC_STORE, KATOMIC_STORE)

void __ksim_tsan_atomic_thread_fence(int mo);
void __ksim_tsan_atomic_thread_fence(int mo)
{
}

void __ksim_tsan_atomic_signal_fence(int mo);
void __ksim_tsan_atomic_signal_fence(int mo)
{
}

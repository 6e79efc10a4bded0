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
 *       store then goes into its CPU's buffer under memory=tso|arm64
 *       (sim/machine/memmodel.h); with oracle race, a plain access sets
 *       a watchpoint and waits (sim/explore/race.h), a volatile one
 *       (marked) only looks at the others'
 *   __tsan_read_range/write_range              the first byte's line
 *   __tsan_atomicN_OP, N = 8..64 (the compiler turns every atomic
 *   builtin and every operator on an _Atomic object into one)
 *                                              performs the OP, as
 *       sequentially consistent; a scheduling point, unless
 *       futexsim_atomic() of the futexsim_atomic.h macros has just been
 *       one for it (wl_prog_atomic_announced); under memory=tso|arm64
 *       the store buffer as the OP's memory order has it (below)
 *   __tsan_atomic_thread_fence                 sim_hook(FENCE); the
 *       buffer drains for the fences that are instructions (below)
 *   __tsan_init, __tsan_func_entry/exit        nothing
 *
 * Outside a simulated task (static constructors, before the machine
 * runs) a call does nothing: sim_hook() is gated there.  The library
 * itself is not instrumented: its accesses are the machine's, not the
 * program's.
 */
#include <stdint.h>

#include "sim/explore/race.h"
#include "sim/machine/machine.h"
#include "sim/machine/memmodel.h"
#include "sim/machine/tsan_abi.h"
#define FUTEXSIM_NO_RENAME
#include "workloads/libsim/futexsim.h"
#include "workloads/libsim/libsim.h"

/* Inlined into each __tsan_* function, so that its return address is in
 * the program: the access's code, for the race oracle's report. */
#define PROG_INLINE	static inline __attribute__((always_inline))

/* A plain or volatile (@marked) access by the program: a scheduling
 * point, then the race oracle's look (sim/explore/race.h).  errno needs
 * no saving here: the machine keeps each task's across a switch
 * (resume(), sim/machine/machine.c), and the hook's own path sets none. */
PROG_INLINE void prog_access_at(enum sim_access kind, const volatile void *p,
				  unsigned int size, int marked, uintptr_t pc)
{
	if (!sim__hooks_live)
		return;
	sim__hook(kind, p, size);	/* sim_hook() past its gate */
	if (__builtin_expect(sim_race_on(), 0))
		sim_race_access(p, size, kind != SIM_LOAD, marked, pc);
}

/* The same, for the code the __tsan_* function returns to. */
#define PROG_PC		((uintptr_t)__builtin_return_address(0))
#define prog_access(kind, p, size, marked)				\
	prog_access_at(kind, p, size, marked, PROG_PC)

/* Do the store buffers apply to this access: memory=tso|arm64, in a task? */
static inline int sb_live(void)
{
	return __builtin_expect(sim__sb_on, 0) && sim__hooks_live;
}

/* A plain or volatile store: a scheduling point, then, under
 * memory=tso|arm64, into its CPU's store buffer (the compiled code stores
 * when we return). */
PROG_INLINE void prog_store(const volatile void *p, unsigned int size,
			      int marked)
{
	if (sb_live()) {
		sim__sb_keep = 1;	/* buffered: its hook drains nothing */
		prog_access(SIM_STORE, p, size, marked);
		sim__sb_keep = 0;	/* (the hook may not have been made) */
		sim_sb_store(sim_cur, p, size, 0);
		return;
	}
	prog_access(SIM_STORE, p, size, marked);
}

/* A load that later stores may pass (plain, volatile, relaxed), under
 * memory=arm64 in explore: first a promise point (sim/machine/memmodel.h),
 * before its hook, so that the other CPUs may see the promise before the
 * load is made. */
PROG_INLINE void prog_promise_point_at(const volatile void *p, uintptr_t pc)
{
	if (__builtin_expect(sim__sb_arm64, 0) && sim__hooks_live)
		sim_sb_promise_point(sim_cur, p, pc);
}
#define prog_promise_point(p)	prog_promise_point_at(p, PROG_PC)

/* A load under memory=arm64 or the race oracle: the promise point, the
 * hook and the race oracle's look, for the program's code at @pc. */
static void __attribute__((noinline))
prog_load_slow(const volatile void *p, unsigned int size, int marked,
	       uintptr_t pc)
{
	prog_promise_point_at(p, pc);
	prog_access_at(SIM_LOAD, p, size, marked, pc);
}

/* A plain or volatile load.  One test first: with neither arm64 nor the
 * race oracle it is the hook alone, a tail call (the path of bench's
 * instrumented_hook_ns). */
PROG_INLINE void prog_load(const volatile void *p, unsigned int size,
			     int marked)
{
	if (__builtin_expect(sim__sb_arm64 | sim__race_live, 0))
		prog_load_slow(p, size, marked, PROG_PC);
	else if (sim__hooks_live)
		sim__hook(SIM_LOAD, p, size);
}

#define PLAIN(n)							\
void __tsan_read##n(void *p) { prog_load(p, n, 0); }			\
void __tsan_write##n(void *p) { prog_store(p, n, 0); }			\
void __tsan_unaligned_read##n(void *p) { prog_load(p, n, 0); }		\
void __tsan_unaligned_write##n(void *p) { prog_store(p, n, 0); }	\
void __tsan_volatile_read##n(void *p) { prog_load(p, n, 1); }		\
void __tsan_volatile_write##n(void *p) { prog_store(p, n, 1); }		\
void __tsan_unaligned_volatile_read##n(void *p) { prog_load(p, n, 1); } \
void __tsan_unaligned_volatile_write##n(void *p) { prog_store(p, n, 1); }

PLAIN(1)
PLAIN(2)
PLAIN(4)
PLAIN(8)
PLAIN(16)

void __tsan_read_range(void *p, unsigned long size)
{
	prog_access(SIM_LOAD, p, (unsigned int)size, 0);
}

void __tsan_write_range(void *p, unsigned long size)
{
	prog_access(SIM_STORE, p, (unsigned int)size, 0);
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
 * point in between: that was its scheduling point (and its trace; under
 * tso|arm64 it left the store buffer to the order this call passes, but
 * for tso's locked RMWs, which it drained).  An atomic the macros do
 * not see (an operator on an _Atomic object) is one here.  @keep: the
 * caller orders the store buffer itself (sim__sb_keep).
 */
PROG_INLINE void atomic_access(enum sim_access kind, const volatile void *p,
				unsigned int size, int keep)
{
	const volatile void *was = wl_prog_atomic_announced;

	wl_prog_atomic_announced = NULL;
	if (was == (p ? p : WL_PROG_ATOMIC_FENCE))
		return;
	sim__sb_keep = keep;
	prog_access(kind, p, size, 1);
	sim__sb_keep = 0;
}

static inline int has_acquire(int mo)
{
	return mo == __ATOMIC_ACQUIRE || mo == __ATOMIC_CONSUME ||
		mo == __ATOMIC_ACQ_REL || mo == __ATOMIC_SEQ_CST;
}

static inline int has_release(int mo)
{
	return mo == __ATOMIC_RELEASE || mo == __ATOMIC_ACQ_REL ||
		mo == __ATOMIC_SEQ_CST;
}

/*
 * The store buffer around an atomic of order @mo, as compilers make it:
 *
 *          store                    load          RMW
 *   tso    seq_cst: xchg (drains),  mov           lock-prefixed (the
 *          else mov (buffered)                    hook drained)
 *   arm64  relaxed: STR, else STLR  acquire or    first the CPU's stores
 *          (both buffered)          seq_cst:      to its bytes; acquire:
 *                                   LDAR (waits   the release stores,
 *                                   for STLRs;    the view refreshed;
 *                                   the view      release: all
 *                                   refreshed)
 */
static inline void atomic_store_order(const volatile void *a, unsigned int size,
				      int mo)
{
	if (!sb_live())
		return;
	if (!sim__sb_arm64 && mo == __ATOMIC_SEQ_CST)
		sim_sb_drain(sim_cur);
	else
		sim_sb_store(sim_cur, a, size, mo != __ATOMIC_RELAXED);
}

static inline void atomic_load_order(int mo)
{
	if (sb_live() && sim__sb_arm64 && has_acquire(mo)) {
		sim_sb_drain_release(sim_cur);
		sim_sb_refresh(sim_cur);	/* later loads after it */
	}
}

/* After an RMW's scheduling point (its own, or futexsim_atomic()'s,
 * which left the order to this), under arm64. */
static inline void atomic_rmw_order(const volatile void *a, unsigned int size,
				    int mo)
{
	if (!sb_live() || !sim__sb_arm64)
		return;
	if (has_release(mo)) {
		sim_sb_drain(sim_cur);
		return;
	}
	if (has_acquire(mo)) {
		sim_sb_drain_release(sim_cur);
		sim_sb_refresh(sim_cur);
	}
	sim_sb_drain_over(sim_cur, a, size);
}

/* The hooks of the tsan ABI's atomics (sim/machine/tsan_abi.h): @n bits
 * at @a, order @mo. */
#define ATOMIC_LOAD(a, n, mo)						\
	((mo) == __ATOMIC_RELAXED ? prog_promise_point(a) : (void)0,	\
	 atomic_access(SIM_LOAD, a, n / 8, 0), atomic_load_order(mo))
#define ATOMIC_STORE(a, n, mo)						\
	(atomic_access(SIM_STORE, a, n / 8, 1), atomic_store_order(a, n / 8, mo))
#define ATOMIC_RMW(a, n, mo)						\
	(atomic_access(SIM_RMW, a, n / 8, sim__sb_arm64),		\
	 atomic_rmw_order(a, n / 8, mo))

TSAN_ATOMICS_ALL(_, ATOMIC_LOAD, ATOMIC_STORE, ATOMIC_RMW)

/* A fence: tso, only a seq_cst one is an instruction (MFENCE); arm64,
 * an acquire one is DMB ISHLD (the view refreshed: later loads after
 * the earlier ones), the others DMB ISH (drain, refresh). */
void __tsan_atomic_thread_fence(int mo)
{
	atomic_access(SIM_FENCE, NULL, 0, 1);
	if (!sb_live() || mo == __ATOMIC_RELAXED)
		return;
	if (sim__sb_arm64 && (mo == __ATOMIC_ACQUIRE || mo == __ATOMIC_CONSUME))
		sim_sb_refresh(sim_cur);
	else if (sim__sb_arm64 || mo == __ATOMIC_SEQ_CST)
		sim_sb_drain(sim_cur);
}

void __tsan_atomic_signal_fence(int mo)
{
}

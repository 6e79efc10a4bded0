/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sim/machine/hooks.h - the one interface between kernel translation units and the
 * simulated machine.
 *
 * Stage: kernel <-> machine boundary.  Kernel TUs (the real kernel files,
 * the arch shim's out-of-line services, sched/kapi.c) are compiled with
 * -nostdinc against the kernel headers; host TUs (sim/, sched/, workloads/,
 * tests/) are ordinary C11 with libc.  Both include this header, so it uses
 * only plain C types and declares nothing from either world.
 *
 * Kernel side -> machine:
 *   sim_hook()       every atomic, READ_ONCE/WRITE_ONCE, barrier and
 *                    cpu_relax() of kernel code (through the arch shim) and
 *                    every user-space atomic of workloads/ulock;
 *   sched_*()        the scheduler services behind schedule(),
 *                    try_to_wake_up() and need_resched();
 *   sim_timer_*()    hrtimers on the virtual clock;
 *   sim_kzalloc()    kernel allocations from the fixed-address arena;
 *   sim_bug/warn()   BUG()/WARN(): a failure report and exit status 3;
 *   sim_trace_*()    the kernel's lock tracepoints, the shim's
 *                    spinlock word transitions and the TP futex's
 *                    steps (futex/tp.c), for --trace.
 *
 * Machine -> kernel side: the globals below, kept current by the machine
 * at every switch, and the few ksim_*() entry points declared at the end.
 */
#ifndef SIM_HOOKS_H
#define SIM_HOOKS_H

/* Kinds of access a hook reports.  The cost model prices each kind. */
enum sim_access {
	SIM_LOAD,	/* READ_ONCE, atomic_read, smp_load_acquire	*/
	SIM_STORE,	/* WRITE_ONCE, atomic_set, smp_store_release	*/
	SIM_RMW,	/* atomic read-modify-write, xchg, cmpxchg	*/
	SIM_RELAX,	/* cpu_relax(): a spin-loop iteration (PAUSE)	*/
	SIM_FENCE,	/* smp_mb() and friends				*/
	SIM_NR_ACCESS
};

/*
 * sim_hook - a scheduling point, called *before* a shared-memory access.
 * @kind:	what the access is
 * @addr:	the simulated address accessed (NULL for RELAX and FENCE)
 * @size:	access size in bytes (0 for RELAX and FENCE)
 *
 * Charges the access to the current CPU's clock.  It may switch to another
 * simulated CPU (timed mode: whichever CPU has the smallest clock runs) and
 * may preempt the current task if a tick asked for it and the current CPU's
 * preempt_count is 0.  Returns when this CPU is the one to run again.
 * Outside a task (the boot's initcalls, event callbacks) it does nothing,
 * inline: a machine boots with thousands of hooks, and explore boots one
 * per run.
 */
extern int sim__hooks_live;	/* a task runs: sim/machine/machine.c keeps it */
void sim__hook(enum sim_access kind, const volatile void *addr, unsigned int size);
static inline void sim_hook(enum sim_access kind, const volatile void *addr,
			    unsigned int size)
{
	if (__builtin_expect(sim__hooks_live, 1))
		sim__hook(kind, addr, size);
}

/*
 * sim_acquire - an acquire of the kernel's (smp_load_acquire(), the
 * _acquire atomic loads, smp_rmb(), smp_acquire__after_ctrl_dep()), as
 * arm64 makes it (LDAR, DMB ISHLD): under memory=arm64
 * (sim/machine/memmodel.h) the executing CPU's release stores become
 * visible and its view is refreshed, so that its later loads read what
 * is visible now; nothing otherwise (x86, and the sc and tso models).
 */
extern int sim__sb_arm64;
void sim_sb_acquire(void);
static inline void sim_acquire(void)
{
	if (__builtin_expect(sim__sb_arm64, 0))
		sim_sb_acquire();
}

/*
 * sim_spin_wait_reload - the caller spins on @addr: it read the word,
 * found the condition false, and would now loop cpu_relax() + reload
 * until it holds (smp_cond_load_*(), atomic_cond_read_*()).  Instead of
 * iterating, the CPU parks until another CPU writes to @addr's cache line
 * (or its tick fires) and its clock is advanced exactly as far as the loop
 * would have run: to just before the first reload that can see the write.
 * The caller's next steps are then sim_spin_reload() and one hooked load
 * of @size bytes at @addr, and the dispatcher may make that reload itself
 * when the CPU is to run again (not in explore, under a store buffer,
 * recording or replaying, or with FUTEXSIM_SPIN_RELOAD_RUN=0).
 * Return: SIM_SPIN_MADE if it did (the caller then reads the word without
 * a hook, with nothing else before), 0 if the caller makes it.
 */
int sim_spin_wait_reload(const volatile void *addr, unsigned int size);

/*
 * sim_spin_wait_reload_until - sim_spin_wait_reload() for a wait that
 * ends when the word, read as an unsigned integer of @size bytes, equals
 * @value (@until SIM_SPIN_UNTIL_EQ) or differs from it
 * (SIM_SPIN_UNTIL_NE), and tests nothing else: the dispatcher may also
 * test each reload it makes and, while the wait goes on, park the CPU
 * again, as the loop would (it has no step between its test and its next
 * park), with no switch.  @first: the word at the wait's first round; a
 * reload parked again with another value sets SIM_SPIN_CHANGED in the
 * return value (the caller's sim_spin_done() needs it), beside
 * SIM_SPIN_MADE as above.  SIM_SPIN_UNANNOUNCED, or-ed into @until: the
 * caller's loop does not announce its reloads (a library's spin, with no
 * sim_spin_reload()), so neither does the dispatcher.
 */
#define SIM_SPIN_UNTIL_EQ	1
#define SIM_SPIN_UNTIL_NE	2
#define SIM_SPIN_UNANNOUNCED	4
int sim_spin_wait_reload_until(const volatile void *addr, unsigned int size,
			       int until, unsigned long long value,
			       unsigned long long first);
#define SIM_SPIN_MADE		1
#define SIM_SPIN_CHANGED	2

/*
 * sim_spin_reload - a spin-wait is about to reload the word it watches.
 * sim_spin_done - the reload just made ended the wait, after at least
 * one round; @first_change: every earlier round read the value the wait
 * began with (the wait ended at the first change of the word).
 *
 * With the preset's spin-exit-overlap on, a wait that ends at the first
 * change lets the CPU's next miss, if it is a load, start with that last
 * reload (sim/cache/cache.h, "spin-exit overlap").  Both are no-ops otherwise.
 */
void sim_spin_reload(void);
void sim_spin_done(int first_change);

/*
 * Per-CPU state the kernel side reads and writes directly.  The machine
 * points sim_this_cpu at the running CPU's copy at every switch.
 */
struct sim_cpu_kstate {
	int preempt_count;	/* preempt_disable() depth (spinlocks too)	*/
	int need_resched;	/* set by the tick, cleared by the scheduler	*/
	int cpu;		/* smp_processor_id()				*/
};
extern struct sim_cpu_kstate *sim_this_cpu;
extern int sim_nr_cpus;			/* CPUs of the simulated machine	*/
extern void *sim_current_kt;		/* struct task_struct * running now	*/
/* the running task's stack, [sim__stack_lo, sim__stack_hi); 0 and 0
 * outside a task (resume(), sim/machine/machine.c) */
extern unsigned long sim__stack_lo, sim__stack_hi;
extern unsigned long sim_percpu_offset[];	/* per CPU: copy - template	*/

/* ---- scheduler services (sched/core.c) ---- */
struct sim_task;			/* the machine's side of a task	*/

/*
 * sched_block - the current task sleeps: give the CPU to the next runnable
 * task (or idle it).  Returns once the task was woken and runs again.
 * The caller (schedule()) has checked, with no scheduling point in
 * between, that the task's state is not TASK_RUNNING: that is the
 * atomicity rq->lock gives the real kernel.
 */
void sched_block(void);
/* sched_wake - make @t runnable (wakeup placement, idle exit). Return: 1 if
 * @t was asleep, 0 if it was already runnable or running. */
int sched_wake(struct sim_task *t);
/* sched_task_on_cpu - task_struct::on_cpu: @t is executing on a CPU now. */
int sched_task_on_cpu(const struct sim_task *t);
/* sim_owner_on_cpu - sched_task_on_cpu(@t) for owner_on_cpu() called in
 * function @fn (__func__), as sim/machine/ospin.h has it. */
int sim_owner_on_cpu(const struct sim_task *t, const char *fn);
/* sched_task_cpu - the CPU @t last ran on (task_cpu()). */
int sched_task_cpu(const struct sim_task *t);
/* sched_cond_resched - let another runnable task have this CPU. */
void sched_cond_resched(void);
/*
 * sched_setprio - @t's effective priority is now @prio (Linux numbers:
 * 0..99 real-time, 100..139 normal), its own policy @policy (SIM_SCHED_*)
 * and nice @nice; the runqueue re-sorts and a CPU whose running task is
 * now outranked is asked to reschedule.  sched_pi_setprio - the same for
 * a boost or its end by rt_mutex_setprio(), policy and nice kept (traced
 * as sched_pi_setprio).  sched_task_nice - @t's nice.
 */
void sched_setprio(struct sim_task *t, int prio, int policy, int nice);
void sched_pi_setprio(struct sim_task *t, int prio);
int sched_task_nice(const struct sim_task *t);
/* sched_find_task - TID to task, NULL if no live task has it. */
struct sim_task *sched_find_task(int tid);
/* sim_task_kt - the task_struct of @t (what ksim_task_new() returned). */
void *sim_task_kt(const struct sim_task *t);

/* ---- time and timers (sim/machine/machine.c, sim/machine/event.c) ---- */
unsigned long long sim_now_ns(void);	/* this CPU's clock: ktime_get()	*/

/*
 * A timer or any other timed event on the virtual clock.  Ordered by
 * (expires_ps, seq); seq is assigned when armed, so equal deadlines fire
 * in arming order.  The callback runs in event context: it must not call
 * sim_hook() (hooks are ignored there) and must not block.
 */
struct sim_event {
	unsigned long long when_ps;	/* deadline, virtual picoseconds	*/
	unsigned long long seq;		/* arming order, tie-break		*/
	int heap_idx;			/* -1 when not queued			*/
	int cpu;			/* CPU the event is delivered to	*/
	void (*fire)(struct sim_event *ev);
};
/* sim_timer_start_ns - arm @ev to fire at @expires_ns + slack, where the
 * slack is drawn by the machine in [0, @range_ns] (timer slack). */
void sim_timer_start_ns(struct sim_event *ev, unsigned long long expires_ns,
			unsigned long long range_ns);
/* sim_timer_cancel - disarm. Return: 1 if it was queued, 0 if not. */
int sim_timer_cancel(struct sim_event *ev);

/* ---- memory (sim/host/arena.c): fixed addresses, so runs are reproducible ---- */
void *sim_kzalloc(unsigned long size);
void sim_kfree(const void *p);
/* sim_kzalloc_owner_clears - @p, from sim_kzalloc() and kept for the run,
 * is zeroed by @clear(@p) at the next boot, not by the arena (a big table
 * of which a run writes a few entries): sim/host/arena.h,
 * sim_arena_owner_clears(). */
void sim_kzalloc_owner_clears(void *p, void (*clear)(void *block));
/* sim_kzalloc_keep - @p, from sim_kzalloc(@bytes) and kept for the run,
 * keeps what its owner set up across the next reset, @restore(@p) there
 * bringing it back; sim_kzalloc_take_back(@p, @bytes) at the next boot
 * returns it if sim_kzalloc(@bytes) would give it then, else NULL:
 * sim/host/arena.h, sim_arena_keep() and sim_arena_take_back(). */
void sim_kzalloc_keep(void *p, unsigned long bytes,
		      void (*restore)(void *block));
void *sim_kzalloc_take_back(const void *p, unsigned long bytes);
/*
 * sim_lines_touched - the machine before this one (call it only from the
 * arena's reset, in sim_machine_init()): @fn(@line, @arg) for every
 * 64-byte line overlapping [@lo, @hi) that a hook of its tasks met (a
 * load, store or RMW the cache-line model priced), @line its address,
 * and 1.  0, and no call, when it cannot tell (no cache-line model): any
 * line may have been met.  Plain accesses are no hooks: a caller must
 * know that every write it cares about comes with a hook on its line.
 */
int sim_lines_touched(unsigned long lo, unsigned long hi,
		      void (*fn)(unsigned long line, void *arg), void *arg);

/* ---- failures (sim/report/failure.c): report and exit status 3 ---- */
void sim_bug(const char *what, const char *file, int line)
	__attribute__((noreturn));
void sim_warn(const char *what, const char *file, int line)
	__attribute__((noreturn));

/* ---- tracing (sim/trace/trace.c; sim/trace/trace.h has the host side) ---- */

/*
 * The events of --trace.  sim_trace_mask has bit SIM_TRACE_BIT(ev) set for
 * every event being written and is 0 when no trace is open, so that an
 * emission point costs one load and one predictable branch when tracing is
 * off.  Emitting never changes the simulation: no hook, no charge, no
 * PRNG draw.
 */
enum sim_trace_event {
	SIM_TEV_SCHED_SWITCH,		/* sched/core.c			*/
	SIM_TEV_SCHED_WAKING,
	SIM_TEV_SCHED_WAKEUP,
	SIM_TEV_SCHED_WAKEUP_NEW,
	SIM_TEV_FUTEX_ENTER,		/* sim/syscall/syscall.c		*/
	SIM_TEV_FUTEX_EXIT,
	SIM_TEV_NANOSLEEP_ENTER,
	SIM_TEV_NANOSLEEP_EXIT,
	SIM_TEV_CONTENTION_BEGIN,	/* trace/events/lock.h (shim)	*/
	SIM_TEV_CONTENTION_END,
	SIM_TEV_QSPINLOCK,		/* linux/spinlock.h (shim)	*/
	SIM_TEV_TP,			/* futex/tp.c: TP futex steps	*/
	SIM_TEV_CACHE,			/* sim/cache/cache.c: a line's miss	*/
	SIM_TEV_UATOMIC,		/* a user program's atomic on a futex
					 * word (sim/trace/uword.c)	*/
	SIM_TEV_UATOMIC_OTHER,		/* ... on any other word		*/
	SIM_TEV_SCHED_PI_SETPRIO,	/* sched/core.c: rt_mutex_setprio()
					 * changed a task's priority	*/
	SIM_TEV_NR
};
#define SIM_TRACE_BIT(ev)	(1U << (ev))
extern unsigned int sim_trace_mask;

/* What a qspinlock event reports (linux/spinlock.h of the shim). */
enum sim_qspin_op {
	SIM_QS_SLOWPATH,	/* the fast path's cmpxchg found @old: waits	*/
	SIM_QS_LOCK,		/* acquired (old: what the cmpxchg found)	*/
	SIM_QS_TRYLOCK,		/* trylock succeeded				*/
	SIM_QS_TRYFAIL,		/* trylock failed				*/
	SIM_QS_UNLOCK,		/* released (old: the word before)		*/
	SIM_QS_NR_OPS
};

/* sim_trace_contention_begin/end - the kernel's lock:contention_begin
 * (@flags: LCB_F_*) and lock:contention_end (@ret: 0 acquired). */
void sim_trace_contention_begin(const void *lock, unsigned int flags);
void sim_trace_contention_end(const void *lock, int ret);
/* sim_trace_qspinlock - @op on the qspinlock at @lock moved its word from
 * @old to @new (read without a hook: plain values of simulated memory). */
void sim_trace_qspinlock(const void *lock, enum sim_qspin_op op,
			 unsigned int old, unsigned int new);
/* What a TP futex event reports (futex/tp.c; docs/studies/to-futex-2016.md). */
enum sim_tp_op {
	SIM_TP_STEAL,		/* the kernel's one steal attempt won	*/
	SIM_TP_TOP_WAITER,	/* got the serialization mutex		*/
	SIM_TP_SPIN_START,	/* the owner runs: spinning on it	*/
	SIM_TP_SPIN_STOP,	/* owner off CPU (arg: v2 budget left)	*/
	SIM_TP_SLEEP,		/* set FUTEX_WAITERS, into schedule()	*/
	SIM_TP_HANDOFF_REQUEST,	/* arg: budget (v2) or ns waited (v6)	*/
	SIM_TP_HANDOFF_GRANT,	/* the unlocker wrote arg's TID		*/
	SIM_TP_ACQUIRE,		/* FUTEX_LOCK done (arg: status word)	*/
	SIM_TP_UNLOCK,		/* FUTEX_UNLOCK done (arg: woken)	*/
	SIM_TP_STATE_ALLOC,	/* a futex_state attached		*/
	SIM_TP_STATE_FREE,	/* ... detached (last reference)	*/
	SIM_TP_MUTEX_ENQUEUE,	/* steal failed: to the mutex queue	*/
	SIM_TP_TIMEOUT,		/* FUTEX_LOCK timed out (arg: sleeps)	*/
	SIM_TP_OWNER_DIED,	/* took over a dead owner's word	*/
	SIM_TP_USER_ACQUIRE,	/* user space: cmpxchg 0 -> TID won	*/
	SIM_TP_USER_RELEASE,	/* user space: cmpxchg TID -> 0 won	*/
	SIM_TP_NR_OPS
};
/* sim_trace_tp - TP futex step @op on the word @uaddr; @word: the word
 * value it concerns (a TID for steal/grant/acquire), @arg as above. */
void sim_trace_tp(const void *uaddr, enum sim_tp_op op, unsigned int word,
		  long long arg);
/* sim_lockstat_hash_table - the kernel allocated hash table @name ("futex":
 * futex_queues) at @base: @nr buckets of @bucketsize bytes; --lock-stat
 * and --narrate name its locks by bucket index (sim/trace/lockstat.c). */
void sim_lockstat_hash_table(const char *name, const void *base,
			     unsigned long bucketsize, unsigned long nr);

/* ---- kernel side entry points the machine calls (sched/kapi.c) ---- */
/* ksim_task_new - allocate and initialise a task_struct for @t with TID
 * @tid; returns it as an opaque pointer. */
void *ksim_task_new(struct sim_task *t, int tid);
/* ksim_task_set_slack - set the hrtimer slack of task_struct @kt (50 us
 * by default, as in Linux): futex timeouts and nanosleep fire up to @ns
 * late. */
void ksim_task_set_slack(void *kt, unsigned long long ns);
/* ksim_sched_setattr - set task_struct @kt's policy (SCHED_*), real-time
 * priority (1..99; 0 for SCHED_NORMAL) and nice, as
 * sched_setscheduler(2) does, PI boosts and chains included. */
void ksim_sched_setattr(void *kt, int policy, int rt_prio, int nice);
/* ksim_signal_cancel - mark task_struct @kt's cancel signal pending and
 * end its interruptible sleep; ksim_signal_taken - its syscall returns:
 * the signal is delivered (workloads/libsim/cancel.c). */
void ksim_signal_cancel(void *kt);
void ksim_signal_taken(void *kt);
/* ksim_signal_send - a program's signal is pending on task_struct @kt
 * and not blocked: signal_pending() is true and an interruptible sleep
 * ends; ksim_signal_clear - none is any more
 * (workloads/libsim/signal.c); ksim_signal_cancelled - a cancel is
 * pending on @kt. */
void ksim_signal_send(void *kt);
void ksim_signal_clear(void *kt);
int ksim_signal_cancelled(void *kt);
/* ksim_sched_setattr_new - the same for a task that has not run yet,
 * without a lock or a scheduling point (pthread_create()). */
void ksim_sched_setattr_new(void *kt, int policy, int rt_prio, int nice);
/* ksim_shm_add - [@start, @start + @size) of user memory (page-aligned)
 * is a SysV shared memory segment: shmem with an inode of its own, so a
 * shared futex in it has the kernel's inode key (sim/arch/mm.c).
 * Return: 0, or -EINVAL / -ENOMEM. */
int ksim_shm_add(void *start, unsigned long size);
/* ksim_futex_exit_release - the current task is exiting: if it has a
 * robust list (set_robust_list(2)), the kernel's futex_exit_release():
 * its robust futexes get FUTEX_OWNER_DIED and a waiter is woken
 * (exit_robust_list()), its PI futexes are released
 * (exit_pi_state_list()).  Nothing for a task without one. */
void ksim_futex_exit_release(void);
/* ksim_futex_tp_exit - the current task is exiting (its function
 * returned): wake the TP top waiters sleeping on words it still owns,
 * which take them over (futex/tp_state.c). */
void ksim_futex_tp_exit(void);
/* ---- state checkers ---- */
/*
 * SIM_STATE_CHECKER(fn, order) - register void fn(void), a layer's check
 * of its own invariants: with FUTEXSIM_CHECK_STATE=1 or oracle=state the
 * machine calls every registered checker at each dispatch, in ascending
 * @order (then by name), and a checker that finds a broken invariant
 * calls sim_fail(SIM_FAIL_INVARIANT, ...).  The machine knows no layer
 * by name: the scheduler (sched/core.c) and the TP futex
 * (futex/tp_state.c) register themselves, from a constructor, before
 * main().  Orders: SIM_CHECK_ORDER_SCHED, then SIM_CHECK_ORDER_FUTEX.
 */
#define SIM_CHECK_ORDER_SCHED	10
#define SIM_CHECK_ORDER_FUTEX	20
void sim_state_checker_add(const char *name, void (*check)(void), int order);
/* sim_state_checker_name - the name of checker @i in calling order, or
 * NULL past the last (for the tests). */
const char *sim_state_checker_name(int i);
#define SIM_STATE_CHECKER(fn, order)					\
	static void __attribute__((constructor)) sim__checker_##fn(void) \
	{								\
		sim_state_checker_add(#fn, fn, order);			\
	}

/* ksim_boot - run the kernel's initcalls (futex_init() ...). */
void ksim_boot(void);
/* ksim_nanosleep - nanosleep(2) of the current task: sleep @ns on the
 * virtual clock with the task's timer slack. Return: 0. */
long ksim_nanosleep(unsigned long long ns);

/*
 * ksim_kernel_series() - the kernel series the simulator is built over
 * ("6.1", "6.12"; a function: kernel objects hold no global data), and the
 * futex2 system calls of Linux 6.7 (sim/arch/series/SERIES.c): each takes
 * the system call's arguments (@timeout a struct __kernel_timespec,
 * absolute on @clockid, or NULL; @waiters two struct futex_waitv) and
 * returns the kernel's >= 0 or -errno: -ENOSYS on a series without them.
 */
const char *ksim_kernel_series(void);
long ksim_futex2_wake(void *uaddr, unsigned long mask, int nr,
		      unsigned int flags);
long ksim_futex2_wait(void *uaddr, unsigned long val, unsigned long mask,
		      unsigned int flags, void *timeout, int clockid);
long ksim_futex2_requeue(void *waiters, unsigned int flags, int nr_wake,
			 int nr_requeue);

#endif /* SIM_HOOKS_H */

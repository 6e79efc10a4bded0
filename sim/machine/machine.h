/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sim/machine/machine.h - the simulated machine: CPUs, their clocks, tasks as
 * coroutines, and the main loop.
 *
 * Stage: machine.  Called by the CLI (sim_run()), by the scheduler
 * (sim_switch_to(), sim_cpu_kick()) and, through sim/machine/hooks.h, by every hook
 * of kernel and user code.  Calls the scheduler for ticks and idle exits.
 *
 * Timed mode: every CPU has its own clock.  The CPU with the smallest clock
 * runs; ties are broken by the PRNG; the running CPU keeps running, with no
 * switch, while its clock stays below every other running CPU's clock and
 * the next event's deadline (the "horizon").  Idle CPUs have no clock
 * pressure: an idle CPU is woken by an event (sim_cpu_kick()).
 *
 * All times are virtual picoseconds (_ps) inside the machine; the kernel
 * and reports see nanoseconds.
 */
#ifndef SIM_MACHINE_H
#define SIM_MACHINE_H

#include <stdbool.h>
#include <stdint.h>

#include "sim/host/coro.h"
#include "sim/machine/hooks.h"
#include "sim/machine/ospin.h"
#include "sim/scenario/preset.h"

#define SIM_MAX_CPUS	256
/* A clock at or past this ends the run as a livelock: with every step
 * bounded (machine costs at most 1 s, sim/scenario/preset.h), no clock
 * can wrap around 2^64 ps. */
#define SIM_CLOCK_MAX_PS	(1ULL << 62)
#define SIM_MAX_TASKS	4096
#define SIM_TID_BASE	100	/* TID of the first task; then in order */

enum sim_task_state {
	SIM_TASK_NEW,		/* created, not yet run				*/
	SIM_TASK_RUNNING,	/* current on its CPU				*/
	SIM_TASK_QUEUED,	/* runnable, on a runqueue			*/
	SIM_TASK_SLEEPING,	/* blocked in sched_block()			*/
	SIM_TASK_DEAD,		/* its function returned			*/
};

/* Per-task accounting kept by the machine. */
struct sim_task_stats {
	uint64_t user_ps;	/* time charged while in user mode		*/
	uint64_t sys_ps;	/* time charged while in kernel mode		*/
	uint64_t switches;	/* times switched out				*/
};

/* sim_task::policy: the kernel's SCHED_NORMAL, SCHED_FIFO, SCHED_RR. */
enum { SIM_SCHED_NORMAL = 0, SIM_SCHED_FIFO = 1, SIM_SCHED_RR = 2 };

/*
 * struct sim_task - the machine's side of a simulated task.  The kernel's
 * side is the task_struct at ->kt (opaque here).  Owned by the machine;
 * the scheduler owns ->state, ->cpu and ->rq_node.
 */
struct sim_task {
	int tid;			/* TID, also task_struct::pid		*/
	char name[16];			/* comm					*/
	enum sim_task_state state;
	int cpu;			/* CPU it runs or last ran on		*/
	bool in_kernel;			/* in a syscall: time counts as sys	*/
	int uerrno;			/* its errno (sim/syscall/syscall.h)		*/
	const void *futex_uaddr;	/* the word of the futex(2) call it is
					 * in (sim/syscall/syscall.c), else NULL	*/
	unsigned int futex_op;		/* that call's op			*/
	uint32_t futex_val;		/* that call's value: a wait's expected word */
	uint64_t futex_woken;		/* a wait's: the waiters woken on its
					 * word before it (sim_uword_woken()) */
	bool futex_called;		/* it made a futex(2) call; its last: */
	unsigned int futex_last_op;	/* ... op (sim/syscall/syscall.c)	*/
	long futex_last_ret;		/* ... and result (>= 0 or -errno)	*/
	void *kt;			/* struct task_struct *			*/
	struct sim_coro coro;		/* its coroutine and stack		*/
	void (*fn)(void *arg);		/* body, run on the coroutine		*/
	void *arg;
	struct sim_task *rq_next;	/* scheduler's runqueue link		*/
	struct sim_task *rq_prev;
	uint64_t slice_start_ps;	/* when it last got its CPU		*/
	uint64_t ready_ps;		/* when it was last made runnable	*/
	int64_t vruntime_ps;		/* sched/core.c: CPU time, placed	*/
	int prio;			/* effective priority, Linux numbers:
					 * 0..99 real-time (0 best), 100..139
					 * normal (120 nice 0); sched/core.c */
	int policy;			/* its own SCHED_* (0 NORMAL, 1 FIFO,
					 * 2 RR), whatever ->prio is	*/
	int nice;			/* -20..19				*/
	int rt_priority;		/* SCHED_FIFO/RR 1..99, else 0	*/
	uint32_t weight;		/* CFS load weight of its nice	*/
	uint64_t mode_start_ps;		/* start of the current user/sys span	*/
	struct sim_task_stats stats;
	void *wl;			/* the workload's per-task data		*/
};

/* struct sim_cpu - one simulated hardware thread. */
struct sim_cpu {
	struct sim_cpu_kstate k;	/* what the kernel side sees; first	*/
	uint64_t now_ps;		/* local clock				*/
	struct sim_task *curr;		/* running task, NULL when idle		*/
	uint8_t ospin;			/* enum sim_ospin_mode (ospin.h)	*/
	bool kick_pending;		/* an idle exit is already queued	*/
	struct sim_event kick;		/* idle exit				*/
	struct sim_event tick;		/* periodic scheduler tick		*/
	int socket, core, thread;	/* topology				*/
	void *rq;			/* the scheduler's runqueue		*/
	/* spin-wait parking (sim_spin_wait_reload()) */
	bool parked;			/* waits for a write to park_line	*/
	int park_next, park_prev;	/* the line's other waiters, or -1	*/
	int run_idx;			/* its place in sim/machine/runheap.c, or -1	*/
	uint64_t park_line;		/* sim_cache_line_id() of the address	*/
	uint64_t park_start_ps;		/* clock when it parked			*/
	const volatile void *park_addr;	/* the word it reloads (made reload)	*/
	unsigned int park_size;
	uint8_t spin_reload;		/* enum sim_spin_reload (machine.c)	*/
	uint64_t spin_post_ps;		/* a made reload's arrival rest		*/
	uint8_t spin_until;		/* SIM_SPIN_UNTIL_*, SIM_SPIN_UNANNOUNCED */
	bool spin_changed;		/* a reload parked again saw != spin_first */
	uint64_t spin_value, spin_first; /* (sim_spin_wait_reload_until())	*/
	struct sim_ospin os;		/* owner-spin rounds (ospin.h)		*/
};

/* Counters of the machine itself (host-side effort, for "host" in JSON). */
struct sim_counters {
	uint64_t hooks;		/* sim_hook() calls			*/
	uint64_t switches;	/* coroutine switches			*/
	uint64_t events;	/* events fired				*/
	uint64_t progress;	/* sim_progress() calls: operations done */
};

struct sim_machine {
	const struct sim_preset *preset;
	int nr_cpus;
	struct sim_cpu cpus[SIM_MAX_CPUS];
	struct sim_task *tasks[SIM_MAX_TASKS];	/* by creation order	*/
	int nr_tasks;
	int nr_live;			/* tasks not yet dead			*/
	struct sim_counters counters;
	uint64_t seed;
};

extern struct sim_machine sim;		/* the one machine of this process */
extern struct sim_cpu *sim_cur;	/* CPU executing now (NULL in main)  */

/*
 * The spin-wait reloads the dispatcher made since sim_run() began
 * (sim_spin_wait_reload() of sim/machine/hooks.h): made, of which the
 * charge reached the horizon (the task resumed later, paying the
 * arrival's rest then), and those it left to the task (need_resched was
 * set, or owner-spin rounds were recorded), and the made reloads of a wait
 * for a value (sim_spin_wait_reload_until()) that found it not yet there
 * and parked the CPU again, with no switch (reparked_late of them when it
 * ran again after its charge reached the horizon).  Off (none made) in explore,
 * under memory=tso|arm64, while recording or replaying, and with
 * FUTEXSIM_SPIN_RELOAD_RUN=0.
 */
struct sim_spin_reload_stats {
	uint64_t made, past_horizon, left, reparked, reparked_late;
};
extern struct sim_spin_reload_stats sim_spin_reload_stats;
/* For the tests only, the negative controls (inexact runs), bits:
 * SPIN_RELOAD_TEST_NO_ANNOUNCE makes the reload without telling the
 * spin-exit overlap (sim_spin_reload()), SPIN_RELOAD_TEST_NO_ARRIVAL
 * forgets the arrival's rest, SPIN_RELOAD_TEST_NO_CHANGED forgets that a
 * reload parked again saw the word changed. */
#define SPIN_RELOAD_TEST_NO_ANNOUNCE	1
#define SPIN_RELOAD_TEST_NO_ARRIVAL	2
#define SPIN_RELOAD_TEST_NO_CHANGED	4
extern int sim__spin_reload_test;

/*
 * sim_machine_init - build the machine from @preset with @nr_cpus CPUs
 * (<= the preset's), seed the PRNG and map the arena.  Runs the kernel's
 * initcalls.  May be called again (explore mode, tests): it first frees
 * the tasks of the previous machine.
 */
void sim_machine_init(const struct sim_preset *preset, int nr_cpus,
		      uint64_t seed);

/*
 * sim_task_create - create a task that will run @fn(@arg) on its own
 * coroutine, first placed on @cpu (-1: let the scheduler choose).
 * Return: the task; exits with status 2 if SIM_MAX_TASKS is exceeded.
 */
struct sim_task *sim_task_create(const char *name, void (*fn)(void *),
				 void *arg, int cpu);
/* sim_task_create_stack - sim_task_create() with a stack of @stack_size
 * bytes (at most SIM_CORO_STACK_MAX, sim/host/coro.h) instead of the
 * default SIM_CORO_STACK_SIZE. */
struct sim_task *sim_task_create_stack(const char *name, void (*fn)(void *),
				       void *arg, int cpu, size_t stack_size);

/*
 * sim_run - the main loop.  Starts every CPU that has work and dispatches
 * until every task has returned.  A deadlock, livelock or kernel BUG ends
 * the process through sim/report/failure.c (exit 3) instead of returning.
 */
void sim_run(void);

/* ---- for the scheduler ---- */
/* sim_switch_to - make @next the running task of the current CPU (NULL:
 * the CPU goes idle) and switch to whatever should run next.  Returns
 * when the calling task runs again (never, if it is dead). */
void sim_switch_to(struct sim_task *next);
/* sim_cpu_kick - wake idle @cpu at @at_ps; the scheduler's
 * sched_cpu_wakeup() then picks its task. */
void sim_cpu_kick(int cpu, uint64_t at_ps);
/* sim_charge_ps - advance the current CPU's clock (no scheduling point). */
void sim_charge_ps(uint64_t ps);
/*
 * sim_clocks_moved_take - into @moved (a bit per CPU), the CPUs whose
 * clock may have changed since the last call or the machine's start, a
 * superset of those whose clock did; the record starts again, the
 * executing CPU in it.  For a figure that compares every CPU's clock at
 * each of many moments (sim/explore/oracle.c, the overtake count).
 */
void sim_clocks_moved_take(uint64_t moved[SIM_MAX_CPUS / 64]);
/* sim_account - close the current user/sys span of the running task. */
void sim_account(struct sim_task *t, uint64_t now_ps);

/* ---- for the memory model (sim/machine/memmodel.c) ---- */
/* sim__spin_store_visible - a buffered store to @addr became visible to
 * all at @when_ps: the spin-waits on its line end (the store's own hook
 * ended them before it was visible; they read the old value and parked
 * again). */
void sim__spin_store_visible(const volatile void *addr, uint64_t when_ps);

/* ---- for the workloads ---- */
uint64_t sim_now_ps(void);
struct sim_task *sim_current(void);
/* sim_event_start - arm a host event at absolute @when_ps on @cpu. */
void sim_event_start(struct sim_event *ev, uint64_t when_ps, int cpu);
/* sim_delay_ps - the running task spends @ps on its CPU: a scheduling
 * point like a hook (syscall entry and exit, modelled work). */
void sim_delay_ps(uint64_t ps);
/* sim_jitter_ps - @ps varied by up to +-12.5% from the PRNG.  Applied to
 * the kernel-path costs (syscall entry/exit, context switch, wakeup
 * latency) so that different seeds explore different timings; the
 * per-access costs of hooks stay exact. */
uint64_t sim_jitter_ps(uint64_t ps);
/* sim_set_livelock_ps - the watchdog bound (default 10 s): a run in which
 * no task completes an operation for that long is a livelock. */
void sim_set_livelock_ps(uint64_t ps);
/* sim_set_check_state - check the *_assert_state() invariants at every
 * dispatch (as FUTEXSIM_CHECK_STATE=1 does; the oracle "state").  Call
 * after sim_machine_init(), which reads the environment again. */
void sim_set_check_state(int on);
/* sim_check_state - are the invariants checked (the above)?  For the
 * checks that run at each step of a lock rather than at each dispatch
 * (workloads/ulock/rwlock.c).  Return: 1 or 0. */
int sim_check_state(void);
/* sim_progress - a task completed an operation: resets the livelock
 * watchdog. */
void sim_progress(void);
/*
 * sim_run_abort - end the run now, from a task or the main loop: sim_run()
 * returns to its caller with the tasks left as they are (the next
 * sim_machine_init() frees them).  Explore mode (sim/explore/explore_run.c) calls
 * it from its sim_fail_hook, to go on with the next run in the same
 * process.  Never returns.
 */
void sim_run_abort(void) __attribute__((noreturn));

#endif /* SIM_MACHINE_H */

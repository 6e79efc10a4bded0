/* SPDX-License-Identifier: GPL-2.0 */
/*
 * linux/sched.h (shadow) - struct task_struct and the scheduler API, as the
 * simulated kernel code sees them.
 *
 * Stage: kernel -> sched.  Included by the futex code (through
 * linux/futex.h), lib/plist.c and the shim's own kernel TUs.  The functions
 * declared here are implemented in sched/kapi.c on top of the sched_*()
 * services of sim/machine/hooks.h; the task_struct is allocated there by
 * ksim_task_new() when the machine creates a task.
 *
 * A task_struct carries exactly the fields the simulated kernel code uses
 * (kernel/futex/, kernel/locking/mutex.c and the rtmutex), with the
 * kernel's names and types, plus ->sim, the machine's side of the task.
 * What the machine owns (which CPU a task runs on, whether it is running)
 * is asked of the machine, not mirrored here.
 *
 * Scheduling classes: every task is SCHED_NORMAL at nice 0 (prio 120) and
 * stays so; there is no sched_setscheduler().  The PI fields (pi_waiters,
 * pi_blocked_on, pi_top_task, prio) are maintained by the real rtmutex and
 * rt_mutex_setprio() (sched/kapi.c), but with equal priorities no task is
 * ever boosted, and the machine's scheduler ignores ->prio anyway.
 *
 * Contract of the state protocol (the kernel's):
 *  - set_current_state(s) stores s into current->__state with a full
 *    barrier (smp_store_mb(): one hooked atomic exchange, as on x86);
 *    __set_current_state(s) is a hooked WRITE_ONCE without the barrier.
 *  - schedule() blocks the caller if its state is not TASK_RUNNING when it
 *    looks; a wakeup in between makes it return at once, after yielding
 *    the CPU if the tick asked for it (sched/kapi.c).
 *  - wake_up_process(p) / wake_up_state(p, s) make p TASK_RUNNING and
 *    runnable if p's state matches TASK_NORMAL / s. Return: 1 if p was
 *    woken, 0 if it was not in a matching state.
 */
#ifndef _SIM_LINUX_SCHED_H
#define _SIM_LINUX_SCHED_H

#include <linux/compiler.h>
#include <linux/types.h>
#include <linux/kernel.h>
#include <linux/errno.h>
#include <linux/string.h>
#include <linux/list.h>
#include <linux/plist.h>
#include <linux/rbtree.h>
#include <linux/rcupdate.h>
#include <linux/hrtimer.h>
#include <linux/refcount.h>
#include <linux/spinlock.h>
#include <linux/mutex.h>
#include <linux/restart_block.h>
#include <linux/sched/prio.h>
#include <linux/preempt.h>
#include <linux/smp.h>
#include <asm/current.h>
#include <asm/processor.h>
#include <uapi/linux/sched.h>
#include <sim/machine/hooks.h>

/* Task states (->__state), the kernel's values. */
#define TASK_RUNNING		0x00000000
#define TASK_INTERRUPTIBLE	0x00000001
#define TASK_UNINTERRUPTIBLE	0x00000002
#define TASK_WAKEKILL		0x00000100
#define TASK_RTLOCK_WAIT	0x00001000
#define TASK_FREEZABLE		0x00002000
#define TASK_KILLABLE		(TASK_WAKEKILL | TASK_UNINTERRUPTIBLE)
#define TASK_NORMAL		(TASK_INTERRUPTIBLE | TASK_UNINTERRUPTIBLE)

/* Task flags (->flags), the kernel's values. */
#define PF_EXITING		0x00000004	/* in do_exit(): never set here	*/
#define PF_KTHREAD		0x00200000	/* kernel thread: none exist	*/

#define TASK_COMM_LEN		16

struct mm_struct;
struct signal_struct;
struct futex_pi_state;
struct robust_list_head;
struct sim_task;

/* A task's link in a wake_q (linux/sched/wake_q.h; sched/kapi.c). */
struct wake_q_node {
	struct wake_q_node *next;
};

struct rt_mutex_waiter;

/**
 * struct sched_dl_entity - SCHED_DEADLINE parameters; no task has them
 * @deadline:	absolute deadline, compared by the rtmutex's waiter order
 *		only between two deadline tasks (dl_prio()), so never here
 */
struct sched_dl_entity {
	u64				deadline;
};

/**
 * struct task_struct - a simulated task, kernel side
 * @__state:		TASK_* state; see the protocol above
 * @flags:		PF_* flags (always 0 here)
 * @usage:		reference count: get/put_task_struct() (never freed
 *			during a run)
 * @prio:		effective priority, 0..99 rt, 100..139 normal (120: nice 0)
 * @normal_prio:	priority without PI boosting
 * @pid:		TID, as the machine numbers tasks (task_pid_vnr())
 * @comm:		name, "task<tid>"
 * @mm:			the simulated process's one mm_struct (sim/arch/mm.c)
 * @signal:		the process's one signal_struct (sim/arch/mm.c)
 * @timer_slack_ns:	slack added to the task's hrtimers (futex timeouts,
 *			nanosleep); 50 us by default, as in Linux
 * @restart_block:	syscall restart data (futex_wait_restart())
 * @wake_q:		link in one wake_q at a time (sched/kapi.c)
 * @policy:		scheduling policy: SCHED_NORMAL, SCHED_FIFO, SCHED_RR
 * @dl:			deadline entity; only ->dl.deadline exists (0: the
 *			rtmutex reads it for SCHED_DEADLINE waiters only)
 * @pi_lock:		protects the PI state of the task
 * @pi_waiters:		rtmutex waiters blocked on locks this task owns,
 *			by priority (the real rtmutex keeps it)
 * @pi_top_task:	top waiter boosting this task (rt_mutex_setprio())
 * @pi_blocked_on:	the rtmutex waiter this task is blocked in, if any
 * @robust_list:	user address of the robust futex list head
 * @pi_state_list:	PI states owned by the task
 * @pi_state_cache:	one preallocated PI state (refill_pi_state_cache())
 * @futex_exit_mutex:	serialises futex exit cleanup against PI attach
 * @futex_state:	FUTEX_STATE_* (linux/futex.h)
 * @on_cpu:		placeholder that gives owner_on_cpu() the kernel's
 *			access address; the answer comes from the machine
 * @sched_rt_mutex:	1 between rt_mutex_pre_schedule() and
 *			rt_mutex_post_schedule() (6.12's rtmutex; sched/kapi.c)
 * @sim_sigpending:	bit 0: end an interruptible sleep as a signal would
 *			(a TP futex timeout, futex/tp.c, which clears it
 *			again); SIM_SIGPENDING_CANCEL: a pthread_cancel()
 *			sent, as glibc's SIGCANCEL, until the syscall it
 *			interrupts returns (sched/kapi.c);
 *			SIM_SIGPENDING_SIGNAL: a program's signal it does
 *			not block is pending (workloads/libsim/signal.c); what
 *			signal_pending() and signal_pending_state() read
 * @kcsan:		what KCSAN's calls of an instrumented kernel set for
 *			this task: data_race() and the atomic regions
 *			(sim/arch/kcsan.c); zero in a normal build
 * @sim:		the machine's side of this task
 */
/* The task's state of the KCSAN interface (sim/arch/kcsan.c). */
struct ksim_kcsan_ctx {
	int disable_count;	/* kcsan_disable_current() depth	*/
	int atomic_next;	/* kcsan_atomic_next(): accesses left	*/
	int atomic_nest;	/* kcsan_nestable_atomic_begin() depth	*/
	int flat_atomic;	/* between kcsan_flat_atomic_begin/end	*/
};

struct task_struct {
	unsigned int			__state;
	unsigned int			flags;
	refcount_t			usage;
	int				prio;
	int				normal_prio;
	unsigned int			policy;
	struct sched_dl_entity		dl;
	pid_t				pid;
	char				comm[TASK_COMM_LEN];
	struct mm_struct		*mm;
	struct signal_struct		*signal;
	u64				timer_slack_ns;
	struct restart_block		restart_block;
	struct wake_q_node		wake_q;
	raw_spinlock_t			pi_lock;
	struct rb_root_cached		pi_waiters;
	struct task_struct		*pi_top_task;
	struct rt_mutex_waiter		*pi_blocked_on;
	struct robust_list_head __user	*robust_list;
	struct list_head		pi_state_list;
	struct futex_pi_state		*pi_state_cache;
	struct mutex			futex_exit_mutex;
	unsigned int			futex_state;
	int				on_cpu;
	unsigned int			sched_rt_mutex;
	unsigned int			sim_sigpending;
	struct ksim_kcsan_ctx		kcsan;
	struct sim_task			*sim;
};

#define __set_current_state(state_value)				\
	WRITE_ONCE(current->__state, (state_value))
#define set_current_state(state_value)					\
	smp_store_mb(current->__state, (state_value))

/* Scheduler entry points (sched/kapi.c). */
void schedule(void);
/* schedule_preempt_disabled - schedule() from a preempt_disable()d region
 * (preempt_count 1): drop to 0 around it, as the kernel does. */
void schedule_preempt_disabled(void);
int wake_up_process(struct task_struct *p);
int wake_up_state(struct task_struct *p, unsigned int state);
int try_to_wake_up(struct task_struct *p, unsigned int state, int wake_flags);
int _cond_resched(void);
#define cond_resched()		_cond_resched()

/*
 * io_schedule_prepare/finish - bracket a sleep that counts as iowait
 * (mutex_lock_io()).  The machine keeps no iowait statistics: no-ops.
 */
static inline int io_schedule_prepare(void)
{
	return 0;
}

static inline void io_schedule_finish(int token)
{
}

/* TID lookup (sched/kapi.c): NULL if no live task has @nr. */
struct task_struct *find_task_by_vpid(pid_t nr);
/* As find_task_by_vpid(), with a reference taken (put_task_struct()). */
struct task_struct *find_get_task_by_vpid(pid_t nr);

static inline pid_t task_pid_vnr(struct task_struct *tsk)
{
	return tsk->pid;
}

static inline pid_t task_pid_nr(struct task_struct *tsk)
{
	return tsk->pid;
}

/* need_resched - the tick asked the current CPU to reschedule. */
static __always_inline bool need_resched(void)
{
	return unlikely(sim_this_cpu->need_resched != 0);
}

/* task_cpu - the CPU @p runs on, or last ran on. */
static inline unsigned int task_cpu(const struct task_struct *p)
{
	return sched_task_cpu(p->sim);
}

/* vcpu_is_preempted - never: the simulated CPUs are not virtual CPUs. */
static inline bool vcpu_is_preempted(int cpu)
{
	return false;
}

/*
 * owner_on_cpu - @owner is executing on a CPU right now (lock owner
 * spinning).  The kernel reads owner->on_cpu; the hook reports that load,
 * the machine supplies the value, told which function spins (__func__:
 * the rounds of mutex_spin_on_owner() may be made without their code,
 * sim/machine/ospin.h).  No vCPU is ever preempted.
 */
static inline bool __owner_on_cpu(struct task_struct *owner, const char *fn)
{
	sim_hook(SIM_LOAD, &owner->on_cpu, sizeof(owner->on_cpu));
	return sim_owner_on_cpu(owner->sim, fn);
}
#define owner_on_cpu(owner)	__owner_on_cpu(owner, __func__)

#define get_task_comm(buf, tsk)						\
({									\
	BUILD_BUG_ON(sizeof(buf) != TASK_COMM_LEN);			\
	__builtin_memcpy(buf, (tsk)->comm, TASK_COMM_LEN);		\
	buf;								\
})

/*
 * set_restart_fn - arm the restart of an interrupted syscall.  Only
 * reached after a signal, which never comes (linux/sched/signal.h).
 */
static inline long set_restart_fn(struct restart_block *restart,
				  long (*fn)(struct restart_block *))
{
	restart->fn = fn;
	return -ERESTART_RESTARTBLOCK;
}

#endif /* _SIM_LINUX_SCHED_H */

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sched/kapi.c - the kernel's scheduler API on top of the machine's
 * scheduler.
 *
 * Stage: kernel -> sched.  A kernel TU (compiled like the real kernel
 * files, against the arch shim).  Called by the futex code, the real
 * mutex and rtmutex, and the shim: schedule() and
 * schedule_preempt_disabled(), the rtmutex's rt_mutex_*_schedule(),
 * try_to_wake_up() and its wrappers, the wake_q, rt_mutex_setprio(), task_struct references and TID lookup; and
 * by the machine through
 * sim/machine/hooks.h: ksim_task_new(), ksim_task_set_slack(), ksim_boot().
 * Calls the sched_*() services of sim/machine/hooks.h (sched/core.c), which own
 * runqueues, CPUs and switching.
 *
 * The sleep/wakeup handshake, the one invariant this file must keep:
 *
 *   sleeper                              waker
 *   set_current_state(S)   (A)           <make the condition true>
 *   <check the condition>                try_to_wake_up(p, S):
 *   schedule():                            look at p->__state  (B)
 *     look at ->__state    (C)             if it matches S:
 *     if not RUNNING:                        ->__state = RUNNING
 *       sched_block()                        sched_wake(p)
 *
 * In the kernel, rq->lock and p->pi_lock make (C) + block and (B) + set +
 * enqueue atomic.  Here the machine switches CPUs only at hooks, so each
 * side puts its hook *before* its look and none until it is done: either
 * the waker runs first (the sleeper then sees RUNNING at (C) and does not
 * block) or the sleeper has blocked (sched_wake() then wakes it).  No
 * wakeup is lost.
 */
#include <linux/kernel.h>
#include <linux/string.h>
#include <linux/sched.h>
#include <linux/sched/signal.h>
#include <linux/sched/rt.h>
#include <linux/sched/task.h>
#include <linux/sched/wake_q.h>
#include <linux/futex.h>
#include <sim/machine/hooks.h>
#include <sim/ksim.h>

/* ---- sleeping and waking ---- */

void schedule(void)
{
	struct task_struct *tsk = current;

	unsigned int state;

	/* (C): the hook is inside READ_ONCE(), before the load. */
	state = READ_ONCE(tsk->__state);
	if (state != TASK_RUNNING) {
		/* __schedule(): a pending signal keeps an interruptible
		 * task running (only the cancel: bit 0 never did) */
		if ((tsk->sim_sigpending &
		     (SIM_SIGPENDING_CANCEL | SIM_SIGPENDING_SIGNAL)) &&
		    (state & TASK_INTERRUPTIBLE)) {
			tsk->__state = TASK_RUNNING;
			return;
		}
		sched_block();
		return;
	}
	sched_cond_resched();
}

/*
 * The kernel's own definition: the caller (mutex_optimistic_spin(), the
 * mutex wait loop) holds preempt_count at 1 and sleeps with it at 0.
 */
void schedule_preempt_disabled(void)
{
	preempt_enable_no_resched();
	schedule();
	preempt_disable();
}

/*
 * The rtmutex's own ways into the scheduler (Linux 6.6 and later, so the
 * real rtmutex.c and rtmutex_api.c of 6.12 call them; 6.1's call
 * schedule() directly).  On Linux, pre_schedule() submits the task's
 * pending block-layer and workqueue work before the task blocks on an
 * rtmutex, so that blocking cannot recurse into another rtmutex;
 * post_schedule() undoes what sched_submit_work() did.  The simulated
 * kernel has no such work: what is left is the pairing, checked as
 * Linux's lockdep_assert() checks it, through task_struct::sched_rt_mutex.
 * The futex forms bracket rt_mutex_wait_proxy_lock() the same way.
 */
void rt_mutex_pre_schedule(void)
{
	if (current->sched_rt_mutex)
		sim_bug("rt_mutex_pre_schedule() twice without a post_schedule()",
			__FILE__, __LINE__);
	current->sched_rt_mutex = 1;
}

void rt_mutex_schedule(void)
{
	if (!current->sched_rt_mutex)
		sim_bug("rt_mutex_schedule() outside rt_mutex_pre_schedule()",
			__FILE__, __LINE__);
	schedule();
}

void rt_mutex_post_schedule(void)
{
	if (!current->sched_rt_mutex)
		sim_bug("rt_mutex_post_schedule() without a pre_schedule()",
			__FILE__, __LINE__);
	current->sched_rt_mutex = 0;
}

void rt_mutex_futex_pre_schedule(void)
{
	rt_mutex_pre_schedule();
}

void rt_mutex_futex_post_schedule(void)
{
	rt_mutex_post_schedule();
}

/**
 * try_to_wake_up() - wake @p if it is in one of the @state sleeps
 * @p:		the task
 * @state:	mask of TASK_* states to wake from
 * @wake_flags:	WF_* flags of the kernel (ignored)
 *
 * One hooked read-modify-write of p->__state stands for the kernel's
 * pi_lock-protected check-and-set (B).  May be called from event context
 * (hrtimer callbacks), where the hook is ignored.
 *
 * Return: 1 if @p's state matched and is now TASK_RUNNING, else 0.
 */
int try_to_wake_up(struct task_struct *p, unsigned int state, int wake_flags)
{
	sim_hook(SIM_RMW, &p->__state, sizeof(p->__state));
	if (!(p->__state & state))
		return 0;
	p->__state = TASK_RUNNING;
	sched_wake(p->sim);
	return 1;
}

int wake_up_process(struct task_struct *p)
{
	return try_to_wake_up(p, TASK_NORMAL, 0);
}

int wake_up_state(struct task_struct *p, unsigned int state)
{
	return try_to_wake_up(p, state, 0);
}

/* Return: 1 if the CPU was given to another task, 0 if not needed. */
int _cond_resched(void)
{
	if (!need_resched())
		return 0;
	sched_cond_resched();
	return 1;
}

/* ---- wake_q: deferred wakeups (contract: linux/sched/wake_q.h) ---- */

/*
 * Link @task at the tail of @head unless it is already in some wake_q.
 * Claiming the node with a cmpxchg from NULL makes "at most one queue"
 * hold against concurrent wakers; WAKE_Q_TAIL doubles as the "queued,
 * last in its list" mark.  Return: true if linked.
 */
static bool wake_q_link(struct wake_q_head *head, struct task_struct *task)
{
	struct wake_q_node *node = &task->wake_q;

	if (cmpxchg_relaxed(&node->next, NULL, WAKE_Q_TAIL) != NULL)
		return false;
	*head->lastp = node;
	head->lastp = &node->next;
	return true;
}

/* The queue holds its own reference to each task it links. */
void wake_q_add(struct wake_q_head *head, struct task_struct *task)
{
	if (wake_q_link(head, task))
		get_task_struct(task);
}

/* The caller's reference passes to the queue, or is dropped if the task
 * was queued already. */
void wake_q_add_safe(struct wake_q_head *head, struct task_struct *task)
{
	if (!wake_q_link(head, task))
		put_task_struct(task);
}

void wake_up_q(struct wake_q_head *head)
{
	struct wake_q_node *node = head->first;

	while (node != WAKE_Q_TAIL) {
		struct task_struct *task =
			container_of(node, struct task_struct, wake_q);

		node = node->next;
		/*
		 * Unlink before waking: once awake the task may sleep again
		 * and be queued by another waker, which must then find its
		 * node free (pairs with the cmpxchg in wake_q_link()).
		 */
		WRITE_ONCE(task->wake_q.next, NULL);
		wake_up_process(task);
		put_task_struct(task);
	}
}

/* ---- priority inheritance (rtmutex) ---- */

/* The sim_task policy (SIM_SCHED_*, the kernel's numbers). */
static int sim_policy(int policy)
{
	return policy == SCHED_FIFO || policy == SCHED_RR ? policy : 0;
}

/**
 * rt_mutex_setprio() - set @p's effective priority from its top PI waiter
 * @p:		a task owning rtmutexes; the caller holds p->pi_lock and the
 *		lock's wait_lock (rt_mutex_adjust_prio() of the rtmutex)
 * @pi_task:	the task of @p's top PI waiter, or NULL when none is left
 *
 * The kernel's rule: the effective priority is the better (lower) of
 * @p's normal_prio and @pi_task's prio, and ->pi_top_task records the
 * booster (a hooked store: the kernel makes it under rq->lock).  A
 * changed priority goes to the machine's scheduler (sched_setprio()),
 * which re-sorts the runqueue and preempts as the kernel's
 * check_class_changed() would; a task whose effective priority is
 * real-time runs in the real-time class (FIFO unless it is SCHED_RR
 * itself), as a boosted SCHED_NORMAL task does on Linux.
 */
void rt_mutex_setprio(struct task_struct *p, struct task_struct *pi_task)
{
	int prio = p->normal_prio;

	if (pi_task && pi_task->prio < prio)
		prio = pi_task->prio;
	if (p->pi_top_task != pi_task)
		WRITE_ONCE(p->pi_top_task, pi_task);
	if (prio == p->prio)
		return;
	p->prio = prio;
	sched_pi_setprio(p->sim, prio);
}

/*
 * ksim_sched_setattr - sched_setscheduler(2) and setpriority(2) for @kt:
 * policy @policy (SCHED_*), real-time priority @rt_prio (1..99, 0 for
 * SCHED_NORMAL), nice @nice (-20..19).  The caller checked the values.
 * As __sched_setscheduler() does: the normal priority follows the new
 * attributes, the effective one stays boosted if a PI waiter is better,
 * and a task blocked on an rtmutex has its chain walked again
 * (rt_mutex_adjust_pi()) so that its owner's boost follows.
 */
/* The attributes into @p; the caller holds p->pi_lock or @p is new. */
static void set_attr(struct task_struct *p, int policy, int rt_prio, int nice)
{
	int prio;

	p->policy = policy;
	p->normal_prio = policy == SCHED_FIFO || policy == SCHED_RR ?
			 MAX_RT_PRIO - 1 - rt_prio : NICE_TO_PRIO(nice);
	prio = p->normal_prio;
	if (p->pi_top_task && p->pi_top_task->prio < prio)
		prio = p->pi_top_task->prio;
	p->prio = prio;
	sched_setprio(p->sim, prio, sim_policy(policy), nice);
}

void ksim_sched_setattr(void *kt, int policy, int rt_prio, int nice)
{
	struct task_struct *p = kt;
	unsigned long flags;

	raw_spin_lock_irqsave(&p->pi_lock, flags);
	set_attr(p, policy, rt_prio, nice);
	raw_spin_unlock_irqrestore(&p->pi_lock, flags);
	if (p->pi_blocked_on)
		rt_mutex_adjust_pi(p);
}

/* clone(2)'s part: a task that has not run yet has no PI state and no
 * other task can reach it, so no lock (and no scheduling point). */
void ksim_sched_setattr_new(void *kt, int policy, int rt_prio, int nice)
{
	set_attr(kt, policy, rt_prio, nice);
}

/* ---- task_struct references and lookup ---- */

void __put_task_struct(struct task_struct *t)
{
	sim_bug("put_task_struct() dropped a task's last reference",
		__FILE__, __LINE__);
}

struct task_struct *find_task_by_vpid(pid_t nr)
{
	struct sim_task *t = sched_find_task(nr);

	return t ? sim_task_kt(t) : NULL;
}

struct task_struct *find_get_task_by_vpid(pid_t nr)
{
	struct task_struct *p = find_task_by_vpid(nr);

	if (p)
		get_task_struct(p);
	return p;
}

/* ---- task creation and boot: entry points of the machine ---- */

/* comm = "task<tid>" */
static void task_set_comm(struct task_struct *p, int tid)
{
	static const char prefix[] = "task";
	char digits[12];
	int n = 0, i = 0;
	unsigned int v = tid < 0 ? 0 : tid;

	do {
		digits[n++] = '0' + v % 10;
		v /= 10;
	} while (v && n < (int)sizeof(digits));

	memcpy(p->comm, prefix, sizeof(prefix) - 1);
	i = sizeof(prefix) - 1;
	while (n && i < TASK_COMM_LEN - 1)
		p->comm[i++] = digits[--n];
	p->comm[i] = '\0';
}

void *ksim_task_new(struct sim_task *t, int tid)
{
	struct task_struct *p = ksim_alloc_lines(sizeof(*p));

	p->__state = TASK_RUNNING;
	refcount_set(&p->usage, 1);		/* the task's own reference */
	p->prio = NICE_TO_PRIO(0);
	p->normal_prio = p->prio;
	p->policy = SCHED_NORMAL;
	p->pid = tid;
	task_set_comm(p, tid);
	p->mm = ksim_process_mm();
	p->signal = ksim_process_signal();
	p->timer_slack_ns = 50000;		/* Linux's default: 50 us */
	raw_spin_lock_init(&p->pi_lock);
	p->pi_waiters = RB_ROOT_CACHED;
	futex_init_task(p);
	p->sim = t;
	return p;
}

void ksim_task_set_slack(void *kt, unsigned long long ns)
{
	struct task_struct *p = kt;

	p->timer_slack_ns = ns;
}

/* Linker-made bounds of section "sim_initcall" (sim/prelude.h). */
extern const struct sim_initcall __start_sim_initcall[] __weak;
extern const struct sim_initcall __stop_sim_initcall[] __weak;

/*
 * One initcall.  futex_init() sets up the futex hash table, the same at
 * every boot with as many CPUs: the table of the boot before, put back
 * by the arena's reset, replaces the call when it can (sim/arch/alloc.c).
 */
static void initcall(const struct sim_initcall *ic)
{
	bool futex = !strcmp(ic->name, "futex_init");

	if (futex && ksim_futex_hash_take_back())
		return;
	if (ic->fn())
		sim_bug("an initcall failed", __FILE__, __LINE__);
	if (futex)
		ksim_futex_hash_keep();
}

void ksim_boot(void)
{
	const struct sim_initcall *ic;
	int level;

	for (level = 0; level < SIM_INITCALL_NR_LEVELS; level++)
		for (ic = __start_sim_initcall; ic < __stop_sim_initcall; ic++)
			if (ic->level == level)
				initcall(ic);
}

/*
 * ksim_signal_cancel - a pthread_cancel() reaches @kt as glibc's SIGCANCEL
 * would: the signal is pending (signal_pending()) and an interruptible
 * sleep ends, as signal_wake_up() ends it.  The futex wait then returns
 * -ERESTARTSYS (or its restart block's return), nanosleep -EINTR.
 */
void ksim_signal_cancel(void *kt)
{
	struct task_struct *p = kt;

	p->sim_sigpending |= SIM_SIGPENDING_CANCEL;
	wake_up_state(p, TASK_INTERRUPTIBLE);
}

/* ksim_signal_send - a program's signal that @kt does not block is
 * pending: as signal_wake_up(), its interruptible sleep ends. */
void ksim_signal_send(void *kt)
{
	struct task_struct *p = kt;

	p->sim_sigpending |= SIM_SIGPENDING_SIGNAL;
	wake_up_state(p, TASK_INTERRUPTIBLE);
}

/* ksim_signal_clear - @kt has no deliverable signal left. */
void ksim_signal_clear(void *kt)
{
	struct task_struct *p = kt;

	p->sim_sigpending &= ~SIM_SIGPENDING_SIGNAL;
}

/* ksim_signal_cancelled - a cancel is pending on @kt. */
int ksim_signal_cancelled(void *kt)
{
	const struct task_struct *p = kt;

	return !!(p->sim_sigpending & SIM_SIGPENDING_CANCEL);
}

/* ksim_signal_taken - the syscall of @kt returns to user space: the
 * pending cancel signal is delivered (the layer acts on the cancel). */
void ksim_signal_taken(void *kt)
{
	struct task_struct *p = kt;

	p->sim_sigpending &= ~SIM_SIGPENDING_CANCEL;
}

void ksim_futex_exit_release(void)
{
	if (current->robust_list)
		futex_exit_release(current);
}

/*
 * do_no_restart_syscall - the restart function of a syscall that must not
 * be restarted.  futex_wait_restart() installs it; it is only reached
 * after a signal interrupted a timed FUTEX_WAIT and the syscall is
 * restarted, which the layer never does (a cancel ends the thread).
 */
long do_no_restart_syscall(struct restart_block *parm)
{
	return -EINTR;
}

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sim/syscall/syscall.c - the system-call boundary of simulated user tasks.
 *
 * Stage: futex(2) boundary.  Called by workloads/ulock (and the
 * workloads' sleeps); calls ksim_sys_futex() of futex/tp_unlock.c (the TP
 * futex's ops; every other op goes on to the real sys_futex() of
 * kernel/futex/syscalls.c) and the shim's ksim_nanosleep().  Half of the preset's
 * syscall cost (with the machine's seeded jitter) is charged on entry and
 * half on exit, both as system time;
 * each is a scheduling point, as a real entry is a preemption point.
 * futex(2) and nanosleep(2) emit their trace events (sim/trace/trace.h) at
 * entry, before the entry cost, and at exit, after the exit cost: the
 * span the task's time counts as system time.
 */
#include "futex/tp.h"
#include <errno.h>
#include <linux/futex.h>

#include "sched/sched.h"
#include "sim/machine/machine.h"
#include "sim/machine/memmodel.h"
#include "sim/syscall/syscall.h"
#include "sim/trace/trace.h"
#include "sim/trace/uword.h"

/* The real kernel/futex/syscalls.c entry point (a kernel TU; declared
 * here with ABI-compatible types: struct __kernel_timespec is two 64-bit
 * fields like struct timespec on the 64-bit hosts futexsim supports).
 * ksim_nanosleep() comes from sim/machine/hooks.h. */
long sys_futex(uint32_t *uaddr, int op, uint32_t val,
	       const struct timespec *utime, uint32_t *uaddr2, uint32_t val3);
long sys_set_robust_list(void *head, size_t len);
long sys_futex_waitv(void *waiters, unsigned int nr_futexes,
		     unsigned int flags, const struct timespec *timeout,
		     int clockid);

_Static_assert(sizeof(struct timespec) == 16 && sizeof(long) == 8,
	       "struct timespec must match struct __kernel_timespec");

struct sim_syscall_counters sim_syscalls;

/* Entering the kernel drains the store buffer (sim/machine/memmodel.h)
 * under tso, where the kernel's locked instructions would; under arm64
 * a system call is no barrier: the futex calls (@futex), whose real
 * code has its own barriers, run with the program's stores buffered;
 * the others, simulated, drain. */
static void syscall_enter_as(bool futex)
{
	struct sim_task *t = sim_current();

	sim_account(t, sim_now_ps());
	t->in_kernel = true;
	sim_syscalls.calls++;
	if (sim__sb_on && !(futex && sim__sb_arm64))
		sim_sb_drain(sim_cur);
	sim_delay_ps(sim_jitter_ps(sim.preset->syscall_ps / 2));
}

static void syscall_enter(void)
{
	syscall_enter_as(false);
}

static void syscall_exit(void)
{
	struct sim_task *t;

	sim_delay_ps(sim_jitter_ps(sim.preset->syscall_ps - sim.preset->syscall_ps / 2));
	t = sim_current();
	sim_account(t, sim_now_ps());
	t->in_kernel = false;
	ksim_signal_taken(t->kt);	/* a pending cancel is delivered */
}

int (*sim_signal_hook)(void);

/* The program's handlers, run in user mode: the time is the task's own,
 * not system time.  Return: sim_signal_hook()'s, -1 without a hook. */
static int run_handlers(struct sim_task *t)
{
	int r;

	if (!sim_signal_hook)
		return -1;
	sim_account(t, sim_now_ps());
	t->in_kernel = false;
	r = sim_signal_hook();
	sim_account(t, sim_now_ps());
	t->in_kernel = true;
	return r;
}

/*
 * The kernel's "restart" returns of a call a signal interrupted, as the
 * kernel's signal delivery treats them (arch/x86/kernel/signal.c): the
 * program's handlers run first (run_handlers()), then
 *   -ERESTARTNOINTR (FUTEX_LOCK_PI, the requeue-PI wait): restarted;
 *   -ERESTARTSYS: restarted if no handler ran or each had SA_RESTART;
 *   -ERESTARTNOHAND, -ERESTART_RESTARTBLOCK: restarted if no handler
 *   ran (the restart block's call is made as the first: a timed wait's
 *   relative timeout starts again);
 * else the call returns -EINTR.  A pthread_cancel() is SIGCANCEL: its
 * -ERESTARTNOINTR is restarted, any other return is -EINTR, which the
 * layer's cancellation points act on and a lock's wait loop retries.
 */
#define SIM_ERESTARTSYS		512
#define SIM_ERESTARTNOINTR	513
#define SIM_ERESTARTNOHAND	514
#define SIM_ERESTART_RESTARTBLOCK 516

static long futex_restarting(uint32_t *uaddr, int op, uint32_t val,
			     const struct timespec *timeout, uint32_t *uaddr2,
			     uint32_t val3)
{
	struct sim_task *t = sim_current();
	long ret;
	int ran;

	for (;;) {
		ret = ksim_sys_futex(uaddr, op, val, timeout, uaddr2, val3);
		if (ret > -SIM_ERESTARTSYS || ret < -SIM_ERESTART_RESTARTBLOCK)
			return ret;
		if (ksim_signal_cancelled(t->kt)) {
			if (ret != -SIM_ERESTARTNOINTR)
				return -EINTR;
			ksim_signal_taken(t->kt);
			continue;
		}
		ran = run_handlers(t);
		if (ret == -SIM_ERESTARTNOINTR ||
		    (ret == -SIM_ERESTARTSYS && ran != 0) || ran == -1)
			continue;
		return -EINTR;
	}
}

/* The counters of a futex(2) call's exit (struct sim_syscall_counters)
 * and the task's last call, for `futexsim play`'s state screen. */
static void futex_count(struct sim_task *t, int op, long ret)
{
	int cmd = op & FUTEX_CMD_MASK;

	t->futex_called = true;
	t->futex_last_op = (unsigned int)op;
	t->futex_last_ret = ret;
	if ((cmd == FUTEX_WAIT || cmd == FUTEX_WAIT_BITSET) && ret == -EAGAIN)
		sim_syscalls.wait_eagain++;
	if (cmd == FUTEX_TP_LOCK && ret >= 0 &&
	    TP_STATUS_CODE(ret) == TP_STATUS_STOLEN)
		sim_syscalls.tp_steals++;
}

/* Does @op's fourth argument point to a timeout?  Not for the requeue
 * and wake-op commands: there it is a number, val2. */
static int futex_has_timeout(int op)
{
	switch (op & FUTEX_CMD_MASK) {
	case FUTEX_REQUEUE:
	case FUTEX_CMP_REQUEUE:
	case FUTEX_CMP_REQUEUE_PI:
	case FUTEX_WAKE_OP:
		return 0;
	}
	return 1;
}

/* The ops whose uaddr2 is a futex word. */
static int futex_has_uaddr2(int op)
{
	switch (op & FUTEX_CMD_MASK) {
	case FUTEX_REQUEUE:
	case FUTEX_CMP_REQUEUE:
	case FUTEX_WAKE_OP:
	case FUTEX_WAIT_REQUEUE_PI:
	case FUTEX_CMP_REQUEUE_PI:
		return 1;
	}
	return 0;
}

long sim_sys_futex(uint32_t *uaddr, int op, uint32_t val,
		   const struct timespec *timeout, uint32_t *uaddr2,
		   uint32_t val3)
{
	struct sim_task *t = sim_current();
	long ret;

	sim_trace_futex_enter(uaddr, op, val, timeout && futex_has_timeout(op) ?
			      timeout->tv_sec * 1000000000LL + timeout->tv_nsec : -1);
	sim_uword_add(uaddr);		/* the futex words (sim/trace/uword.h) */
	if (futex_has_uaddr2(op))
		sim_uword_add(uaddr2);
	syscall_enter_as(true);
	t->futex_uaddr = uaddr;		/* for a deadlock's report */
	t->futex_op = (unsigned int)op;
	t->futex_val = val;		/* a wait's value (sim/report/waitfor.c) */
	if ((op & FUTEX_CMD_MASK) == FUTEX_WAIT ||
	    (op & FUTEX_CMD_MASK) == FUTEX_WAIT_BITSET)	/* ... its wakeups */
		t->futex_woken = sim_uword_woken(uaddr);
	/* the TP futex's ops first (futex/tp.c), then the real sys_futex() */
	ret = futex_restarting(uaddr, op, val, timeout, uaddr2, val3);
	t->futex_uaddr = NULL;
	syscall_exit();
	futex_count(t, op, ret);
	sim_uword_futex(uaddr, op, ret);
	sim_trace_futex_exit(uaddr, op, ret);
	return ret;
}

long sim_sys_set_robust_list(void *head, size_t len)
{
	long ret;

	syscall_enter();
	ret = sys_set_robust_list(head, len);
	syscall_exit();
	return ret;
}

void sim_sys_exit_futex(void)
{
	syscall_enter();
	ksim_futex_exit_release();
	syscall_exit();
}

long sim_sys_nanosleep(uint64_t ns)
{
	long ret;

	sim_trace_nanosleep_enter(ns);
	syscall_enter();
	ret = ksim_nanosleep(ns);
	syscall_exit();
	sim_trace_nanosleep_exit(ret);
	return ret;
}

long sim_sys_gettid(void)
{
	long tid;

	syscall_enter();
	tid = sim_current()->tid;
	syscall_exit();
	return tid;
}

long sim_sys_futex_waitv(void *waiters, unsigned int nr, unsigned int flags,
			 const struct timespec *timeout, int clockid)
{
	long ret;

	syscall_enter_as(true);
	ret = sys_futex_waitv(waiters, nr, flags, timeout, clockid);
	syscall_exit();
	return ret;
}

long sim_sys_futex_wake(void *uaddr, unsigned long mask, int nr,
			unsigned int flags)
{
	long ret;

	sim_uword_add(uaddr);
	syscall_enter_as(true);
	ret = ksim_futex2_wake(uaddr, mask, nr, flags);
	syscall_exit();
	return ret;
}

long sim_sys_futex_wait(void *uaddr, unsigned long val, unsigned long mask,
			unsigned int flags, const struct timespec *timeout,
			int clockid)
{
	struct sim_task *t = sim_current();
	long ret;

	sim_uword_add(uaddr);
	syscall_enter_as(true);
	t->futex_uaddr = uaddr;		/* for a deadlock's report */
	t->futex_op = FUTEX_WAIT_BITSET;
	t->futex_val = (uint32_t)val;	/* only U32 words sleep (futex2) */
	t->futex_woken = sim_uword_woken(uaddr);
	ret = ksim_futex2_wait(uaddr, val, mask, flags, (void *)timeout,
			       clockid);
	t->futex_uaddr = NULL;
	syscall_exit();
	futex_count(t, FUTEX_WAIT_BITSET, ret);
	return ret;
}

long sim_sys_futex_requeue(void *waiters, unsigned int flags, int nr_wake,
			   int nr_requeue)
{
	long ret;

	syscall_enter_as(true);
	ret = ksim_futex2_requeue(waiters, flags, nr_wake, nr_requeue);
	syscall_exit();
	return ret;
}

long sim_sys_sched_yield(void)
{
	syscall_enter();
	sim_cur->k.need_resched = 1;
	sched_preempt();
	syscall_exit();
	return 0;
}

long sim_sys_sched_setattr(int tid, int policy, int rt_prio, int nice)
{
	struct sim_task *t = tid ? sched_find_task(tid) : sim_current();

	if (tid < 0 || policy < SIM_SCHED_NORMAL || policy > SIM_SCHED_RR)
		return -EINVAL;
	if (!t)
		return -ESRCH;
	if (policy == SIM_SCHED_NORMAL ? rt_prio != 0 :
	    rt_prio < 1 || rt_prio > 99)
		return -EINVAL;
	nice = nice < -20 ? -20 : nice > 19 ? 19 : nice;
	syscall_enter();
	t->rt_priority = rt_prio;
	ksim_sched_setattr(t->kt, policy, rt_prio, nice);
	syscall_exit();
	sched_cond_resched();	/* return to user space: preempted if outranked */
	return 0;
}

long sim_sys_sched_getattr(int tid, int *policy, int *rt_prio, int *nice)
{
	struct sim_task *t = tid ? sched_find_task(tid) : sim_current();

	if (tid < 0)
		return -EINVAL;
	if (!t)
		return -ESRCH;
	*policy = t->policy;
	*rt_prio = t->rt_priority;
	*nice = t->nice;
	return 0;
}

long sim_syscall_errno(long ret)
{
	if (ret >= 0)
		return ret;
	sim_current()->uerrno = (int)-ret;
	return -1;
}

int sim_errno(void)
{
	return sim_current()->uerrno;
}

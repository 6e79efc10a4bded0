/* SPDX-License-Identifier: GPL-2.0 */
/*
 * workloads/libsim/sched.c - a program's scheduling calls: policies and
 * real-time priorities (sched_setscheduler() and kin, the pthread forms),
 * nice values (nice(), setpriority()), their limits.
 *
 * Stage: user program -> system call -> scheduler.  Called by the program
 * through workloads/libsim/futexsim.h and by pthread_create()
 * (workloads/libsim/thread.c: wl_prog_sched_inherit()); calls
 * sim_sys_sched_setattr() and sim_sys_sched_getattr()
 * (sim/syscall/syscall.h), which reach the kernel's task_struct and the
 * machine's scheduler (sched/sched.h).
 *
 * A simulated program runs as if it had CAP_SYS_NICE: every policy and
 * priority may be set (no EPERM).  As on Linux, the process ID argument
 * of the sched_*() calls and of setpriority(PRIO_PROCESS) names one
 * thread by its TID (0: the caller); PRIO_PGRP and PRIO_USER name every
 * thread of the program.  glibc's pthread_*() forms return the error
 * number, the others -1 with errno.
 */
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "sim/machine/machine.h"
#include "sim/machine/hooks.h"
#include "sim/syscall/syscall.h"
#define FUTEXSIM_NO_RENAME
#include "workloads/libsim/futexsim.h"
#include "workloads/libsim/libsim.h"

static int policy_ok(int policy)
{
	return policy == SCHED_OTHER || policy == SCHED_FIFO ||
	       policy == SCHED_RR;
}

/* The real-time priority @policy admits: 1..99, or 0 for SCHED_OTHER. */
static int prio_ok(int policy, int prio)
{
	return policy == SCHED_OTHER ? prio == 0 : prio >= 1 && prio <= 99;
}

static int tid_of(pthread_t th)
{
	const struct wl_prog_thread *t = (const struct wl_prog_thread *)th;

	return t && t->task ? t->task->tid : -1;
}

/* Set @tid's policy and priority, its nice kept.  Return: 0 or errno. */
static int set_sched(int tid, int policy, int prio)
{
	int pol, rt, nice, e = wl_prog_errno_save();
	long r;

	if (!policy_ok(policy) || !prio_ok(policy, prio))
		return EINVAL;
	r = sim_sys_sched_getattr(tid, &pol, &rt, &nice);
	if (!r)
		r = sim_sys_sched_setattr(tid, policy, prio, nice);
	wl_prog_errno_restore(e);
	return (int)-r;
}

static int get_sched(int tid, int *policy, int *prio)
{
	int nice;

	return (int)-sim_sys_sched_getattr(tid, policy, prio, &nice);
}

static int ret_errno(int err)
{
	if (!err)
		return 0;
	errno = err;
	return -1;
}

/*
 * PTHREAD_PRIO_PROTECT (glibc's tpp): a thread holding priority-ceiling
 * mutexes runs at the highest of their ceilings and its own priority,
 * set with sched_setscheduler() as glibc sets it (its own policy: a
 * SCHED_OTHER thread gets EINVAL from the kernel for a ceiling, as with
 * glibc); pthread_getschedparam() reports its own priority, the kernel
 * (sched_getparam()) the raised one.  Host memory by thread index: the
 * arena's layout does not change.
 */
struct pp_state {
	int held;			/* ceiling mutexes it holds	*/
	int base_policy, base_prio;	/* its own, while held > 0	*/
	unsigned short map[100];	/* holds per ceiling		*/
};
static struct pp_state *pp;
static int pp_cap;

static struct pp_state *pp_of(const struct wl_prog_thread *t)
{
	if (t->idx >= pp_cap) {
		int cap = t->idx + 16;

		pp = realloc(pp, cap * sizeof(*pp));
		if (!pp)
			wl_prog_fail("out of memory for PTHREAD_PRIO_PROTECT");
		memset(pp + pp_cap, 0, (cap - pp_cap) * sizeof(*pp));
		pp_cap = cap;
	}
	return &pp[t->idx];
}

static int pp_target(const struct pp_state *s)
{
	int c = 99;

	while (c > 0 && !s->map[c])
		c--;
	return c > s->base_prio ? c : s->base_prio;
}

int futexsim_pthread_setschedparam(pthread_t th, int policy,
				   const struct sched_param *p)
{
	const struct wl_prog_thread *t = (const struct wl_prog_thread *)th;
	int tid = tid_of(th);
	struct pp_state *s;

	if (tid < 0)
		return ESRCH;
	if (t->idx >= pp_cap || !pp[t->idx].held)
		return set_sched(tid, policy, p->sched_priority);
	/* a ceiling held: the new priority is its own, raised as needed */
	if (!policy_ok(policy) || !prio_ok(policy, p->sched_priority))
		return EINVAL;
	s = &pp[t->idx];
	s->base_policy = policy;
	s->base_prio = p->sched_priority;
	return set_sched(tid, policy, pp_target(s));
}

int wl_prog_pp_raise(int ceiling)
{
	struct pp_state *s = pp_of(wl_prog_self());
	int policy, rt, nice, err;

	sim_sys_sched_getattr(0, &policy, &rt, &nice);
	if (!s->held) {
		s->base_policy = policy;
		s->base_prio = rt;
	}
	if (s->base_prio > ceiling)
		return EINVAL;	/* glibc: the caller's own priority is above */
	s->map[ceiling]++;
	s->held++;
	if (pp_target(s) == rt)
		return 0;
	err = set_sched(0, s->base_policy, pp_target(s));
	if (err) {
		s->map[ceiling]--;
		s->held--;
	}
	return err;
}

void wl_prog_pp_drop(int ceiling)
{
	struct pp_state *s = pp_of(wl_prog_self());
	int policy, rt, nice;

	if (!s->held || !s->map[ceiling])
		return;
	s->map[ceiling]--;
	s->held--;
	sim_sys_sched_getattr(0, &policy, &rt, &nice);
	if (pp_target(s) != rt)
		set_sched(0, s->base_policy, pp_target(s));
}

int futexsim_pthread_getschedparam(pthread_t th, int *policy,
				   struct sched_param *p)
{
	const struct wl_prog_thread *t = (const struct wl_prog_thread *)th;
	int tid = tid_of(th), prio = 0, err;

	if (tid < 0)
		return ESRCH;
	err = get_sched(tid, policy, &prio);
	if (!err && t->idx < pp_cap && pp[t->idx].held) {
		*policy = pp[t->idx].base_policy;
		prio = pp[t->idx].base_prio;
	}
	if (!err)
		p->sched_priority = prio;
	return err;
}

int futexsim_pthread_setschedprio(pthread_t th, int prio)
{
	int tid = tid_of(th), policy, old, err;

	if (tid < 0)
		return ESRCH;
	err = get_sched(tid, &policy, &old);
	return err ? err : set_sched(tid, policy, prio);
}

int futexsim_sched_setscheduler(pid_t pid, int policy,
				const struct sched_param *p)
{
	if (pid < 0 || !p)
		return ret_errno(EINVAL);
	return ret_errno(set_sched(pid, policy, p->sched_priority));
}

int futexsim_sched_getscheduler(pid_t pid)
{
	int policy, prio, err = pid < 0 ? EINVAL : get_sched(pid, &policy, &prio);

	return err ? ret_errno(err) : policy;
}

int futexsim_sched_setparam(pid_t pid, const struct sched_param *p)
{
	int policy, prio, err;

	if (pid < 0 || !p)
		return ret_errno(EINVAL);
	err = get_sched(pid, &policy, &prio);
	return ret_errno(err ? err : set_sched(pid, policy, p->sched_priority));
}

int futexsim_sched_getparam(pid_t pid, struct sched_param *p)
{
	int policy, prio, err;

	if (pid < 0 || !p)
		return ret_errno(EINVAL);
	err = get_sched(pid, &policy, &prio);
	if (!err)
		p->sched_priority = prio;
	return ret_errno(err);
}

int futexsim_sched_get_priority_min(int policy)
{
	if (!policy_ok(policy))
		return ret_errno(EINVAL);
	return policy == SCHED_OTHER ? 0 : 1;
}

int futexsim_sched_get_priority_max(int policy)
{
	if (!policy_ok(policy))
		return ret_errno(EINVAL);
	return policy == SCHED_OTHER ? 0 : 99;
}

/* @tid's nice to @nice (clamped), its policy kept.  Return: 0 or errno. */
static int set_nice(int tid, int nice)
{
	int policy, rt, old, e = wl_prog_errno_save();
	long r = sim_sys_sched_getattr(tid, &policy, &rt, &old);

	if (!r)
		r = sim_sys_sched_setattr(tid, policy, rt, nice);
	wl_prog_errno_restore(e);
	return (int)-r;
}

int futexsim_setpriority(int which, id_t who, int prio)
{
	int err = 0;

	if (which == PRIO_PROCESS)
		return ret_errno(set_nice((int)who, prio));
	if (which != PRIO_PGRP && which != PRIO_USER)
		return ret_errno(EINVAL);
	for (int i = 0; i < wl_prog.nr_threads; i++) {
		int tid = wl_prog.threads[i]->task->tid;

		if (sched_find_task(tid))
			err = set_nice(tid, prio);
	}
	return ret_errno(err);
}

int futexsim_getpriority(int which, id_t who)
{
	int policy, rt, nice, best = 20;

	if (which == PRIO_PROCESS) {
		int err = (int)-sim_sys_sched_getattr((int)who, &policy, &rt,
						      &nice);

		return err ? ret_errno(err) : nice;
	}
	if (which != PRIO_PGRP && which != PRIO_USER)
		return ret_errno(EINVAL);
	for (int i = 0; i < wl_prog.nr_threads; i++)
		if (!sim_sys_sched_getattr(wl_prog.threads[i]->task->tid,
					   &policy, &rt, &nice) && nice < best)
			best = nice;
	return best;
}

/* nice(3): the caller's nice plus @inc; the new value (errno 0: -1 is a
 * valid result). */
int futexsim_nice(int inc)
{
	int policy, rt, nice;

	sim_sys_sched_getattr(0, &policy, &rt, &nice);
	nice += inc;
	nice = nice < -20 ? -20 : nice > 19 ? 19 : nice;
	set_nice(0, nice);
	errno = 0;
	return nice;
}

/*
 * wl_prog_sched_inherit - the scheduling of a new thread @t created by
 * the current one: with PTHREAD_INHERIT_SCHED (@explicit_ 0) the
 * creator's policy, priority and nice, as clone(2) gives; with
 * PTHREAD_EXPLICIT_SCHED, @policy and @prio and the creator's nice.
 * Part of the clone's cost: no system call of its own, and no scheduling
 * point (@t cannot have run yet, even on an idle CPU).  Nothing is done
 * for a default thread of a default creator.
 */
void wl_prog_sched_inherit(struct sim_task *t, int explicit_, int policy,
			   int prio)
{
	struct sim_task *self = sim_current();

	if (!explicit_) {
		policy = self->policy;
		prio = self->rt_priority;
	}
	if (policy == SCHED_OTHER && !prio && !self->nice)
		return;
	t->rt_priority = prio;
	ksim_sched_setattr_new(t->kt, policy, prio, self->nice);
}

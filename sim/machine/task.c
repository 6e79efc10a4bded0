/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sim/machine/task.c - simulated tasks: creating one (its coroutine, TID,
 * task_struct and first placement), what runs when its function returns,
 * and the user/system time it is charged.
 *
 * Stage: machine.  Called by the workloads (sim_task_create(), a program's
 * threads with their stack size sim_task_create_stack()), by
 * sched/ and sim/machine/machine.c at every mode switch (sim_account()); calls the
 * coroutines (sim/host/coro.h), the kernel side (ksim_task_new(), the TP
 * futex's owner-death exit) and the scheduler (sched_task_start(),
 * sched_exit()).
 */
#include <stdio.h>
#include <stdlib.h>

#include "sched/sched.h"
#include "sim/host/coro.h"
#include "sim/machine/hooks.h"
#include "sim/machine/machine.h"
#include "sim/machine/memmodel.h"
#include "sim/report/exit.h"

static void task_entry(void *arg)
{
	struct sim_task *t = arg;

	t->fn(t->arg);
	ksim_futex_tp_exit();	/* owner death of TP futexes */
	sched_exit();
}

struct sim_task *sim_task_create(const char *name, void (*fn)(void *),
				 void *arg, int cpu)
{
	return sim_task_create_stack(name, fn, arg, cpu, SIM_CORO_STACK_SIZE);
}

struct sim_task *sim_task_create_stack(const char *name, void (*fn)(void *),
				       void *arg, int cpu, size_t stack_size)
{
	struct sim_task *t;

	if (sim.nr_tasks >= SIM_MAX_TASKS) {
		fprintf(stderr, "futexsim: too many tasks (at most %d)\n",
			SIM_MAX_TASKS);
		exit(SIM_EXIT_INPUT);
	}
	/* clone(2) is a system call: the creator's stores are visible to
	 * the new task */
	if (sim__sb_on && sim_cur)
		sim_sb_drain(sim_cur);
	t = calloc(1, sizeof(*t));
	if (stack_size > SIM_CORO_STACK_MAX)
		abort();	/* the callers check it */
	if (!t || sim_coro_init(&t->coro, stack_size, task_entry, t)) {
		fprintf(stderr, "futexsim: out of memory for task %s\n", name);
		exit(SIM_EXIT_INPUT);
	}
	t->tid = SIM_TID_BASE + sim.nr_tasks;
	snprintf(t->name, sizeof(t->name), "%s", name);
	t->fn = fn;
	t->arg = arg;
	t->cpu = cpu >= 0 ? cpu % sim.nr_cpus : 0;
	t->prio = 120;			/* SCHED_NORMAL, nice 0 */
	t->weight = 1024;
	t->kt = ksim_task_new(t, t->tid);
	ksim_task_set_slack(t->kt, sim.preset->timer_slack_ps / 1000);
	sim.tasks[sim.nr_tasks++] = t;
	sim.nr_live++;
	sched_task_start(t, cpu);
	return t;
}

void sim_account(struct sim_task *t, uint64_t now_ps)
{
	uint64_t delta = now_ps > t->mode_start_ps ? now_ps - t->mode_start_ps : 0;

	if (t->in_kernel)
		t->stats.sys_ps += delta;
	else
		t->stats.user_ps += delta;
	t->mode_start_ps = now_ps;
}

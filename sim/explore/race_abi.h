/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sim/explore/race_abi.h - what an instrumented access tells the race
 * oracle (sim/explore/race.h): the calls of a user program's runtime
 * (workloads/libsim/instrument.c) and of an instrumented kernel's
 * (sim/arch/instrument.c, sim/arch/kcsan.c).
 *
 * Stage: trace/report, beside the flow.  No includes: the header serves
 * a host TU and a kernel TU alike.
 *
 * An access is a plain one unless SIM_RACE_MARKED (volatile, atomic,
 * READ_ONCE()/WRITE_ONCE(), inside data_race() or kcsan_atomic_next()):
 * a plain access sets a watchpoint and waits; a marked one only looks at
 * the others' watchpoints.  SIM_RACE_ASSERT is an assertion of KCSAN's
 * ASSERT_EXCLUSIVE_WRITER() (a read: no other task may write the bytes
 * meanwhile, marked or not) or ASSERT_EXCLUSIVE_ACCESS() (with
 * SIM_RACE_WRITE: no other task may access them at all); it makes no
 * access of its own and so conflicts with no other watchpoint.
 * SIM_RACE_NOWAIT: a plain access that only looks, as a marked one, but
 * is reported as plain: an instrumented kernel's access to its task's
 * own stack (sim/arch/instrument.c).
 */
#ifndef SIM_EXPLORE_RACE_ABI_H
#define SIM_EXPLORE_RACE_ABI_H

#define SIM_RACE_WRITE	1u	/* a write or a read-modify-write	*/
#define SIM_RACE_MARKED	2u	/* an access the code marks as racy	*/
#define SIM_RACE_ASSERT	4u	/* ASSERT_EXCLUSIVE_*(), no access	*/
#define SIM_RACE_NOWAIT	8u	/* look only: set no watchpoint	*/

/* sim__race_live - is the race oracle on in this run (set when a run
 * begins, sim_race_reset())? */
extern int sim__race_live;

/*
 * sim_race_check - the running task is about to make an access of @size
 * bytes at @p, as @how says (SIM_RACE_*), from code address @pc (the
 * instrumentation call's return address: in the access's function).
 * Call after the access's hook, before the access, only when
 * sim__race_live.  A conflict ends the run (sim_fail(SIM_FAIL_RACE)).
 */
void sim_race_check(const volatile void *p, unsigned int size,
		    unsigned int how, unsigned long pc);

/*
 * sim_race_scope_begin - a scoped assertion (ASSERT_EXCLUSIVE_*_SCOPED()):
 * from now until sim_race_scope_end(@id), every access of another task
 * that conflicts with it (see above) ends the run.  No wait: the scope is
 * the window.  Return: @id (>= 0), or -1 when there is no room (the
 * assertion then checks nothing).
 */
int sim_race_scope_begin(const volatile void *p, unsigned int size,
			 unsigned int how, unsigned long pc);
void sim_race_scope_end(int id);

#endif /* SIM_EXPLORE_RACE_ABI_H */

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tests/same_run.h - what the tests of the dispatcher's shortcuts share
 * (tests/test_ospin.c: owner-spin rounds; tests/test_spin_reload.c:
 * spin-wait reloads): each runs one workload twice, with the shortcut and
 * without, on the same small machines, and compares the two runs by a
 * digest.
 *
 * Stage: tests.  The workload draws from its own generator, not the
 * machine's PRNG, so that the two runs draw the same whatever the
 * machine does; the digest is an FNV-1a hash of what the test mixes in
 * (each acquisition's task and simulated time, same_run_enter()), ended
 * by every CPU's final clock and the hook count.  Static functions and
 * data: each test file gets its own copy.
 */
#ifndef TESTS_SAME_RUN_H
#define TESTS_SAME_RUN_H

#include <check.h>
#include <stdint.h>
#include <string.h>

#include "sim/machine/hooks.h"
#include "sim/machine/machine.h"
#include "sim/report/failure.h"
#include "sim/scenario/preset.h"
#include "workloads/ulock/uatomic.h"

/* One run's record (a test's own fields beside it, in its own struct). */
static struct {
	int failed;		/* the machine failed (same_run_failed())	*/
	uint32_t *neighbour;	/* a word of the lock's line		*/
	uint64_t digest;	/* FNV-1a				*/
	int inside, violations;	/* tasks in the critical section; two at once */
	uint64_t seed;
} same_run;

/* One FNV-1a step of @v into the digest. */
static inline void same_run_mix(uint64_t v)
{
	same_run.digest = (same_run.digest ^ v) * 0x100000001b3ULL;
}

/* A new run on @seed: an empty record, the digest's start. */
static inline void same_run_begin(uint64_t seed)
{
	memset(&same_run, 0, sizeof(same_run));
	same_run.seed = seed;
	same_run.digest = 0xcbf29ce484222325ULL;
}

/* sim_fail_hook for the runs: the failure is noted, and the run ends. */
static void same_run_failed(enum sim_failure kind, const char *what)
{
	(void)kind;
	(void)what;
	same_run.failed = 1;
	sim_run_abort();
}

/* Task @task took the lock: count a second holder, mix in who and when. */
static inline void same_run_enter(uintptr_t task)
{
	if (same_run.inside++)
		same_run.violations++;
	same_run_mix(task);
	same_run_mix(sim_now_ps());
}

static inline void same_run_leave(void)
{
	same_run.inside--;
}

/* The run is over: its digest, ended by every CPU's final clock and the
 * hook count, or 0 if it failed. */
static inline uint64_t same_run_end(int cpus)
{
	if (same_run.failed)
		return 0;
	ck_assert_int_eq(same_run.violations, 0);
	for (int i = 0; i < cpus; i++)
		same_run_mix(sim.cpus[i].now_ps);
	same_run_mix(sim.counters.hooks);
	return same_run.digest;
}

/* The workload's own draw from state *@s (a 64-bit LCG's high bits). */
static inline uint32_t same_run_draw(uint64_t *s)
{
	*s = *s * 6364136223846793005ULL + 1442695040888963407ULL;
	return (uint32_t)(*s >> 33);
}

/* @n PAUSEs: simulated time that no other CPU sees. */
static inline void same_run_pauses(uint32_t n)
{
	while (n--)
		uatomic_pause();
}

/*
 * The machines, by number: the default (cache-line model, handover at
 * arrival); handover at issue; flat costs; flat costs with a load of 2 us
 * (long windows between a load's charge and its access); the default
 * with the spin-exit overlap (a test that wants the cost jitter too sets
 * it after the boot: sim_cache_set_jitter()).
 */
enum same_run_machine {
	SAME_RUN_DEFAULT,
	SAME_RUN_HANDOVER_ISSUE,
	SAME_RUN_FLAT,
	SAME_RUN_FLAT_SLOW_LOAD,
	SAME_RUN_SPIN_EXIT_OVERLAP,
};

/* @p: one socket of @cpus cores, one thread each, a tick every 10 us (many
 * ticks, many preemptions) and 20 us slices, as machine @v. */
static inline void same_run_preset(struct sim_preset *p, int cpus,
				   enum same_run_machine v)
{
	sim_preset_defaults(p);
	p->sockets = 1;
	p->threads_per_core = 1;
	p->cores_per_socket = cpus;
	p->tick_ps = 10000000;
	p->timeslice_ps = 20000000;
	switch (v) {
	case SAME_RUN_DEFAULT:
		break;
	case SAME_RUN_HANDOVER_ISSUE:
		p->line_handover = SIM_HANDOVER_ISSUE;
		break;
	case SAME_RUN_FLAT:
		p->cache_model = false;
		break;
	case SAME_RUN_FLAT_SLOW_LOAD:
		p->cache_model = false;
		p->access_ps[SIM_LOAD] = 2000000;
		break;
	case SAME_RUN_SPIN_EXIT_OVERLAP:
		p->spin_exit_overlap = true;
		break;
	}
}

#endif /* TESTS_SAME_RUN_H */

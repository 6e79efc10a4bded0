/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tests/test_mutex.c - scenario tests of the mutex workload on the real
 * futex code: every user lock through one harness (the ops table), the
 * broken ones included, which must fail.
 *
 * Each test boots a small machine in its own process (Check forks per
 * test) and runs the workload driver in-process; the failure cases run
 * the futexsim binary ($FUTEXSIM) and assert on its exit status and
 * report.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "sim/explore/oracle.h"
#include "sim/machine/machine.h"
#include "sim/scenario/preset.h"
#include "sim/scenario/scenario.h"
#include "workloads/workload.h"
#include "tests/run_child.h"

static struct sim_preset preset;
static struct sim_scenario scn;
static struct sim_result res;

/* Boot a machine of @cpus CPUs (one socket) and run @lock with @threads
 * threads for @ops operations, with the critical section already in scn. */
static void run_mutex_cs(const char *lock, int cpus, int threads, uint64_t ops,
			 uint64_t seed)
{
	sim_preset_defaults(&preset);
	preset.sockets = 1;
	preset.threads_per_core = 1;
	preset.cores_per_socket = cpus;
	scn.threads = threads;
	scn.cpus = cpus;
	scn.ops = ops;
	scn.seed = seed;
	setenv("FUTEXSIM_CHECK_STATE", "1", 1);	/* sched_assert_state() */
	sim_machine_init(&preset, cpus, seed);
	wl_mutex.run(&scn, ulock_find(lock), &res);
}

/* The same with the default critical section. */
static void run_mutex(const char *lock, int cpus, int threads, uint64_t ops,
		      uint64_t seed)
{
	sim_scenario_defaults(&scn);
	run_mutex_cs(lock, cpus, threads, ops, seed);
}

START_TEST(test_ww_256_tasks_on_8_cpus_complete_every_operation)
{
	run_mutex("ww", 8, 256, 25600, 1);
	ck_assert_uint_eq(res.ops, 25600);
	ck_assert_uint_eq(res.ops_thread_min, 100);
	ck_assert_uint_eq(res.ops_thread_max, 100);
	/* oversubscribed: some lockers must have slept in the kernel */
	ck_assert_uint_gt(res.lock_syscalls, 0);
	ck_assert_uint_gt(res.wakeups, 0);
	ck_assert_uint_gt(res.sys_ns, 0);
	ck_assert_uint_gt(res.user_ns, 0);
	ck_assert_uint_le(res.thread_min_ns, res.thread_avg_ns);
	ck_assert_uint_le(res.thread_avg_ns, res.thread_max_ns);
}
END_TEST

START_TEST(test_ww_contended_futex_wait_returns_eagain)
{
	run_mutex("ww", 4, 4, 20000, 3);
	ck_assert_uint_eq(res.ops, 20000);
	ck_assert_uint_gt(res.lock_syscalls, 0);
	ck_assert_uint_gt(res.eagain, 0);
	ck_assert_uint_lt(res.eagain, res.lock_syscalls);
}
END_TEST

START_TEST(test_ww_timed_futex_wait_times_out_and_still_completes)
{
	/* the holder sleeps 100 us (+ slack) in the critical section, so a
	 * waiter's 50 us FUTEX_WAIT timeout must expire */
	sim_scenario_defaults(&scn);
	scn.cs = (struct sim_work){ .kind = SIM_WORK_SLEEP, .sleep_ps = 100000000 };
	run_mutex_cs("ww-timed", 4, 8, 400, 5);
	ck_assert_uint_eq(res.ops, 400);
	ck_assert_uint_gt(res.timeouts, 0);
	ck_assert_uint_le(res.timeouts, res.lock_syscalls);
}
END_TEST

START_TEST(test_same_seed_gives_same_results_in_process)
{
	struct sim_result a;

	run_mutex("ww", 4, 16, 4000, 11);
	a = res;
	/* a second machine in a child: same seed, same figures */
	pid_t pid = fork();

	if (pid == 0) {
		run_mutex("ww", 4, 16, 4000, 11);
		_exit(res.elapsed_ns == a.elapsed_ns && res.eagain == a.eagain &&
		      res.lock_syscalls == a.lock_syscalls &&
		      res.acquire_p99_ns == a.acquire_p99_ns ? 0 : 1);
	}
	int st;

	waitpid(pid, &st, 0);
	ck_assert(WIFEXITED(st));
	ck_assert_int_eq(WEXITSTATUS(st), 0);
}
END_TEST

static struct child_out co;

/* Run the futexsim binary with @args (split on blanks) into co. */
static int futexsim(char *args)
{
	const char *bin = getenv("FUTEXSIM");
	char *argv[32];
	int n = 0;

	ck_assert_msg(bin != NULL, "FUTEXSIM must name the binary (make check sets it)");
	argv[n++] = "futexsim";
	for (char *tok = strtok(args, " "); tok && n < 31; tok = strtok(NULL, " "))
		argv[n++] = tok;
	argv[n] = NULL;
	run_program(bin, argv, &co);
	return co.status;
}

START_TEST(test_lost_wakeup_lock_is_reported_as_deadlock)
{
	char args[256];
	int found = 0;

	for (int seed = 1; seed <= 50 && !found; seed++) {
		snprintf(args, sizeof(args),
			 "run --machine=tiny4 --threads=6 --ops=3000 --cs=pause:5 "
			 "--lock=ww-busted --seed=%d", seed);
		int rc = futexsim(args);

		if (rc == 0)
			continue;
		ck_assert_int_eq(rc, 3);
		ck_assert_ptr_nonnull(strstr(co.err, "DEADLOCK"));
		ck_assert_ptr_nonnull(strstr(co.err, "seed"));
		ck_assert_ptr_nonnull(strstr(co.err, "--lock=ww-busted"));
		ck_assert_ptr_nonnull(strstr(co.err, "futex_wait"));
		found = seed;
	}
	ck_assert_msg(found, "ww-busted never lost a wakeup in 50 seeds");
}
END_TEST

/* The frame line "    @fn (@file:NN)" or "    @fn (@file:NN, inlined)"
 * is in @rep. */
static void assert_frame(const char *rep, const char *fn, const char *file)
{
	char want[128];
	const char *p;
	int line = 0, n = 0;

	snprintf(want, sizeof(want), "\n    %s (%s:", fn, file);
	p = strstr(rep, want);
	ck_assert_msg(p != NULL, "no frame \"%s\" in:\n%s", want + 1, rep);
	ck_assert_int_eq(sscanf(p + strlen(want), "%d%n", &line, &n), 1);
	ck_assert_int_gt(line, 0);
	ck_assert_msg(p[strlen(want) + n] == ')' || p[strlen(want) + n] == ',',
		      "bad location after \"%s\"", want + 1);
}

START_TEST(test_deadlock_report_narrates_the_last_events_with_file_lines)
{
	static char first[CHILD_OUT_MAX];
	const char *rep, *p, *nl, *task;
	char args[256], line[300];
	unsigned long ms, frac;
	int nr = 0, tid, cpu;

	for (int run = 0; run < 2; run++) {
		snprintf(args, sizeof(args),
			 "run --machine=tiny4 --threads=6 --ops=3000 --cs=pause:5 "
			 "--lock=ww-busted --seed=6 --narrate=yes");
		ck_assert_int_eq(futexsim(args), 3);
		if (!run)
			memcpy(first, co.err, sizeof(first));
	}
	ck_assert_str_eq(co.err, first);	/* byte-identical */
	rep = strstr(co.err, "futexsim: DEADLOCK");
	ck_assert_ptr_nonnull(rep);
	p = strstr(rep, "\nlast events:\n");
	task = strstr(rep, "\ntask ");
	ck_assert_ptr_nonnull(p);
	ck_assert_ptr_nonnull(task);
	ck_assert(p < task);
	/* each line is narrated, and told by the narration just before the
	 * report: the last one ends it */
	for (p = strchr(p + 1, '\n') + 1; p < task; p = nl + 1, nr++) {
		nl = strchr(p, '\n');
		ck_assert_int_eq(sscanf(p, "    %lu.%lu ms  worker%d (cpu %d): ",
					&ms, &frac, &tid, &cpu), 4);
		snprintf(line, sizeof(line), "%.*s", (int)(nl - p - 4), p + 4);
		ck_assert_msg(strstr(co.err, line) < rep, "not narrated: %s", line);
	}
	ck_assert_int_eq(nr, 16);
	ck_assert_int_eq(strncmp(rep - strlen(line) - 1, line, strlen(line)), 0);
	/* stacks: function names with file:line of kernel and project files */
	assert_frame(task, "futex_wait_queue", "kernel/futex/waitwake.c");
	assert_frame(task, "sim_sys_futex", "sim/syscall/syscall.c");
	assert_frame(task, "busted_lock", "workloads/ulock/busted.c");
	assert_frame(task, "worker", "workloads/mutex.c");
	ck_assert_ptr_null(strstr(task, "0x"));		/* no addresses */
	ck_assert_ptr_null(strstr(task, " (/"));	/* relative paths */
	ck_assert_ptr_nonnull(strstr(task, "\nreplay: "));
}
END_TEST

/* A run without --narrate reports the same last events: the CLI runs it
 * again with the narration kept in memory (sim_failure_defer()), and prints
 * no narration of its own. */
START_TEST(test_unnarrated_deadlock_report_equals_the_narrated_one)
{
	static char narrated[CHILD_OUT_MAX];
	const char *rep;
	static const char base[] = "run --machine=tiny4 --threads=6 "
				   "--ops=3000 --cs=pause:5 --lock=ww-busted --seed=6";
	char args[256], with[256];

	snprintf(args, sizeof(args), "%s", base);
	snprintf(with, sizeof(with), "%s --narrate=yes", base);
	ck_assert_int_eq(futexsim(with), 3);
	rep = strstr(co.err, "futexsim: DEADLOCK");
	ck_assert_ptr_nonnull(rep);
	snprintf(narrated, sizeof(narrated), "%s", rep);
	snprintf(args, sizeof(args), "%s", base);	/* futexsim() cuts it */
	ck_assert_int_eq(futexsim(args), 3);
	ck_assert_ptr_null(strstr(co.err, "# narration"));
	ck_assert_int_eq(strncmp(co.err, "futexsim: DEADLOCK", 18), 0);
	ck_assert_ptr_null(strstr(co.err, "not kept"));
	/* the same report but for the replay command's --narrate=yes */
	ck_assert_int_eq(strncmp(co.err, narrated,
				 strstr(narrated, "\nreplay: ") - narrated), 0);
}
END_TEST

/* The headline says a deadlock is a lost wakeup, names a task that sleeps
 * on the free word and its address: the task is in the report, asleep, and
 * the address is the one the narration's last FUTEX_WAIT was called on. */
START_TEST(test_lost_wakeup_deadlock_headline_names_the_sleeper)
{
	char args[] = "run --machine=tiny4 --threads=6 --ops=3000 --cs=pause:5 "
		      "--lock=ww-busted --seed=6";
	char name[17], want[64], call[64];
	unsigned long addr;
	int tid, more = 0, n = 0, sleeping = 0;
	const char *p, *last = NULL;

	ck_assert_int_eq(futexsim(args), 3);
	ck_assert_msg(sscanf(co.err, "futexsim: DEADLOCK (lost wakeup): task %d \"%16[^\"]\"%n",
			     &tid, name, &n) == 2 && n > 0, "headline: %.300s", co.err);
	p = co.err + n;
	if (sscanf(p, " (and %d more)%n", &more, &n) == 1)
		p += n;
	ck_assert_int_eq(sscanf(p, " sleeps in FUTEX_WAIT on 0x%lx, whose word reads 0, free\n%n",
				&addr, &n), 1);
	ck_assert_int_gt(n, 0);
	ck_assert_ptr_eq(strchr(co.err, '\n'), p + n - 1);	/* one line */
	snprintf(want, sizeof(want), "\ntask %d \"%s\" SLEEPING on CPU ", tid, name);
	ck_assert_msg(strstr(co.err, want), "%s not asleep in: %.2000s", want + 1, co.err);
	for (p = co.err; (p = strstr(p, " SLEEPING on CPU ")); p++)
		sleeping++;
	ck_assert_int_eq(more + 1, sleeping);	/* all sleep on that word */
	snprintf(call, sizeof(call), "calls FUTEX_WAIT on 0x%lx,", addr);
	for (p = co.err; (p = strstr(p, "calls FUTEX_WAIT on 0x")); p++)
		last = p;
	ck_assert_ptr_nonnull(last);
	ck_assert_int_eq(strncmp(last, call, strlen(call)), 0);
}
END_TEST

START_TEST(test_racy_lock_violates_mutual_exclusion)
{
	char args[] = "run --machine=tiny4 --threads=4 --ops=4000 --lock=racy";

	ck_assert_int_eq(futexsim(args), 3);
	ck_assert_ptr_nonnull(strstr(co.err, "mutual exclusion"));
}
END_TEST

START_TEST(test_spinning_forever_is_reported_as_livelock)
{
	/* the bound is "no operation completed for that long": a 2 ms
	 * critical section under a 1 us bound must trip it */
	char args[] = "run --machine=tiny4 --threads=2 --ops=10 --lock=ww "
		      "--cs=sleep:2ms --livelock=1us";

	ck_assert_int_eq(futexsim(args), 3);
	ck_assert_ptr_nonnull(strstr(co.err, "LIVELOCK"));
}
END_TEST

/*
 * The overtake figure (results[].overtaken_max): counted lazily, as a
 * run without overtake= and starve= does (sim/explore/oracle.c), it is
 * the count of a visit to every waiter at every acquisition, as with
 * overtake= set (here to a bound no run reaches).  Oversubscribed runs
 * (sleepers, queued waiters, newly-idle pulls to other CPUs) and one CPU
 * per thread; the negative control: another seed gives another figure,
 * so the comparison can tell.
 */
static uint64_t overtaken(const char *lock, int cpus, int threads,
			  uint64_t ops, uint64_t seed, int visit)
{
	sim_oracles = (struct sim_oracles){ 0 };
	if (visit) {
		sim_oracles.mask = SIM_ORACLE_OVERTAKE;
		sim_oracles.overtake = UINT64_MAX;
	}
	run_mutex(lock, cpus, threads, ops, seed);
	ck_assert_uint_eq(res.ops, ops);
	return res.overtaken_max;
}

START_TEST(test_lazy_overtake_count_equals_visiting_every_waiter)
{
	static const struct {
		const char *lock;
		int cpus, threads;
		uint64_t ops;
	} c[] = {
		{ "ww", 8, 64, 6400 }, { "pi", 8, 64, 3200 },
		{ "tp", 8, 64, 3200 }, { "ww", 4, 4, 4000 },
		{ "adaptive", 4, 12, 3000 },
	};

	unsetenv("FUTEXSIM_CHECK_STATE");
	for (size_t i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		uint64_t lazy = overtaken(c[i].lock, c[i].cpus, c[i].threads,
					  c[i].ops, 3, 0);
		uint64_t visit = overtaken(c[i].lock, c[i].cpus, c[i].threads,
					   c[i].ops, 3, 1);

		ck_assert_msg(lazy == visit, "%s, %d threads: lazy %llu, visits %llu",
			      c[i].lock, c[i].threads, (unsigned long long)lazy,
			      (unsigned long long)visit);
		ck_assert_uint_gt(lazy, 0);
	}
	ck_assert_uint_ne(overtaken("ww", 8, 64, 6400, 3, 0),
			  overtaken("ww", 8, 64, 6400, 4, 1));
}
END_TEST

Suite *mutex_suite(void)
{
	return one_case_suite("mutex", 300, (const TTest *const[]){
		test_ww_256_tasks_on_8_cpus_complete_every_operation,
		test_ww_contended_futex_wait_returns_eagain,
		test_ww_timed_futex_wait_times_out_and_still_completes,
		test_same_seed_gives_same_results_in_process,
		test_lost_wakeup_lock_is_reported_as_deadlock,
		test_deadlock_report_narrates_the_last_events_with_file_lines,
		test_unnarrated_deadlock_report_equals_the_narrated_one,
		test_lost_wakeup_deadlock_headline_names_the_sleeper,
		test_racy_lock_violates_mutual_exclusion,
		test_spinning_forever_is_reported_as_livelock,
		test_lazy_overtake_count_equals_visiting_every_waiter,
		NULL });
}

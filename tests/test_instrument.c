/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tests/test_instrument.c - instrumented programs (`futexsim build
 * --instrument`, workloads/libsim/instrument.c): every plain and volatile
 * access a scheduling point.  A busy-wait on a volatile or a plain
 * variable lets the writer run and ends; explore finds a lost update
 * between two plain read-modify-writes, and its replay file fails again;
 * and the controls: the same program built without --instrument spins
 * for ever (the stuck-task watchdog ends it) and passes every explore
 * run, since no plain access is a scheduling point there.  memory=tso:
 * Peterson's algorithm without a fence is found broken, with one it
 * passes, and under memory=sc it passes.
 *
 * Stage: tests.  Builds tests/programs/plain.c with $FUTEXSIM twice (into
 * ./in-plain and ./un-plain) and runs the programs.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/run_child.h"
#include "version.h"

/* Build tests/programs/plain.c into ./@out, with --instrument if @instr;
 * 0: no $FUTEXSIM (skipped). */
static int build_plain(const char *out, int instr)
{
	const char *src = FUTEXSIM_SOURCE_DIR "/tests/programs/plain.c";
	const char *with[] = { "futexsim", "build", "--instrument", src, "-o", out, NULL };
	const char *without[] = { "futexsim", "build", src, "-o", out, NULL };
	struct child_out *o = malloc(sizeof(*o));
	int ok;

	ck_assert_ptr_nonnull(o);
	ok = run_futexsim(o, instr ? with : without);
	if (ok)
		ck_assert_msg(o->status == 0, "build of %s failed: %s", out, o->err);
	free(o);
	return ok;
}

/* ./@prog with @a1 .. @a5 (the first NULL ends them), into @o. */
static void run_plain5(struct child_out *o, const char *prog, const char *a1,
		       const char *a2, const char *a3, const char *a4,
		       const char *a5)
{
	char path[64];
	const char *argv[] = { path, a1, a2, a3, a4, a5, NULL };

	snprintf(path, sizeof(path), "./%s", prog);
	run_program(path, (char *const *)argv, o);
}

#define run_plain(o, prog, a1, a2, a3, a4) \
	run_plain5(o, prog, a1, a2, a3, a4, NULL)

/* Build workloads/examples/@example with --instrument into ./@out.
 * Return: 0 if there is no $FUTEXSIM (skipped). */
static int build_example(struct child_out *o, const char *example,
			 const char *out)
{
	char src[512];
	const char *argv[] = { "futexsim", "build", "--instrument", src, "-o",
			       out, NULL };

	snprintf(src, sizeof(src), "%s/workloads/examples/%s",
		 FUTEXSIM_SOURCE_DIR, example);
	if (!run_futexsim(o, argv))
		return 0;
	ck_assert_msg(o->status == 0, "build of %s: %s", example, o->err);
	return 1;
}

/* explore of ./@prog under @memory with @args must fail (exit 3) within
 * 2000 random runs, saying @what, and its replay file fail again alike:
 * the replay's output is left in @o. */
static void explore_fails_and_replays(struct child_out *o, const char *prog,
				      const char *memory, const char *args,
				      const char *what)
{
	char file[256];

	run_plain5(o, prog, "explore", memory, args, "--strategy=random",
		   "--runs=2000");
	ck_assert_msg(o->status == 3, "%s %s: status %d: %.2000s", memory, args,
		      o->status, o->out);
	ck_assert_ptr_nonnull(strstr(o->err, what));
	replay_file_of(o->out, file, sizeof(file));
	run_plain(o, prog, "replay", file, NULL, NULL);
	ck_assert_msg(o->status == 3, "replay: status %d: %.2000s", o->status,
		      o->err);
	ck_assert_ptr_nonnull(strstr(o->err, what));
}

START_TEST(test_instrumented_busy_wait_lets_the_writer_run)
{
	static const char *const modes[] = { "--args=spin", "--args=spin-plain" };
	struct child_out *o = malloc(sizeof(*o));

	ck_assert_ptr_nonnull(o);
	if (!build_plain("in-plain", 1)) {
		free(o);
		return;
	}
	for (int i = 0; i < 2; i++) {
		run_plain(o, "in-plain", "run", "--machine=tiny4", modes[i], NULL);
		ck_assert_msg(o->status == 0, "%s: status %d: %.2000s", modes[i],
			      o->status, o->err);
		ck_assert_msg(strstr(o->out, "flag seen"), "%s: %.2000s", modes[i],
			      o->out);
	}
	free(o);
}
END_TEST

/* The control: not instrumented, the spinner never lets the main thread
 * set the flag. */
START_TEST(test_uninstrumented_busy_wait_is_stuck)
{
	struct child_out *o = malloc(sizeof(*o));

	ck_assert_ptr_nonnull(o);
	if (!build_plain("un-plain", 0)) {
		free(o);
		return;
	}
	run_plain(o, "un-plain", "run", "--machine=tiny4", "--args=spin",
		  "--stuck=100ms");
	ck_assert_msg(o->status == 3, "status %d: %.2000s", o->status, o->err);
	ck_assert_ptr_nonnull(strstr(o->err, "STUCK TASK"));
	ck_assert_ptr_null(strstr(o->out, "flag seen"));
	free(o);
}
END_TEST

START_TEST(test_explore_finds_a_lost_update_between_plain_accesses)
{
	struct child_out *o = malloc(sizeof(*o));
	char file[256];

	ck_assert_ptr_nonnull(o);
	if (!build_plain("in-plain", 1) || !build_plain("un-plain", 0)) {
		free(o);
		return;
	}
	run_plain5(o, "in-plain", "explore", "--machine=tiny4",
		   "--args=count 2 5", "--strategy=random", "--runs=2000");
	ck_assert_msg(o->status == 3, "status %d: %.2000s", o->status, o->out);
	ck_assert_ptr_nonnull(strstr(o->out, "explore: crash fired in run "));
	ck_assert_ptr_nonnull(strstr(o->err, "lost update"));
	replay_file_of(o->out, file, sizeof(file));
	run_plain(o, "in-plain", "replay", file, NULL, NULL);
	ck_assert_msg(o->status == 3, "replay: status %d: %.2000s", o->status,
		      o->err);
	ck_assert_ptr_nonnull(strstr(o->err, "lost update"));
	/* the control: the same schedules, no plain access a point */
	run_plain5(o, "un-plain", "explore", "--machine=tiny4",
		   "--args=count 2 5", "--strategy=random", "--runs=2000");
	ck_assert_msg(o->status == 0, "status %d: %.2000s", o->status, o->out);
	ck_assert_ptr_nonnull(strstr(o->out, "explore: no oracle fired in 2000 runs"));
	free(o);
}
END_TEST

/* An operator on an _Atomic object is a scheduling point of its own in
 * an instrumented program, and stays atomic: the total is exact. */
START_TEST(test_instrumented_atomic_operators_stay_atomic)
{
	struct child_out *o = malloc(sizeof(*o));

	ck_assert_ptr_nonnull(o);
	if (!build_plain("in-plain", 1)) {
		free(o);
		return;
	}
	run_plain5(o, "in-plain", "explore", "--machine=tiny4",
		   "--args=atomic-count 3 4", "--strategy=random", "--runs=500");
	ck_assert_msg(o->status == 0, "status %d: %.2000s", o->status, o->out);
	ck_assert_ptr_nonnull(strstr(o->out, "explore: no oracle fired in 500 runs"));
	run_plain(o, "in-plain", "run", "--machine=tiny4",
		  "--args=atomic-count 3 4", NULL);
	ck_assert_ptr_nonnull(strstr(o->out, "total 12"));
	free(o);
}
END_TEST

/*
 * Peterson's algorithm (workloads/examples/peterson.c) on plain
 * variables: correct under memory=sc, broken by x86-TSO's store buffers
 * without a fence, correct again with one.  The failure's replay fails
 * again, and its report lists the stores still in the buffers by name.
 */
START_TEST(test_tso_breaks_peterson_without_a_fence)
{
	struct child_out *o = malloc(sizeof(*o));

	ck_assert_ptr_nonnull(o);
	if (!build_example(o, "peterson.c", "in-peterson")) {
		free(o);
		return;
	}
	run_plain5(o, "in-peterson", "explore", "--memory=sc",
		   "--args=nofence 3", "--strategy=random", "--runs=2000");
	ck_assert_msg(o->status == 0, "sc: status %d: %.2000s", o->status, o->out);
	run_plain5(o, "in-peterson", "explore", "--memory=tso",
		   "--args=fence 3", "--strategy=random", "--runs=2000");
	ck_assert_msg(o->status == 0, "tso, fence: status %d: %.2000s %.2000s",
		      o->status, o->out, o->err);
	explore_fails_and_replays(o, "in-peterson", "--memory=tso",
				  "--args=nofence 3", "mutual exclusion violated");
	ck_assert_ptr_nonnull(strstr(o->err, "store buffers (memory=tso"));
	ck_assert_msg(strstr(o->err, "        want[") || strstr(o->err, "        turn ") ||
		      strstr(o->err, "        inside "), "%.3000s", o->err);
	free(o);
}
END_TEST

/*
 * A spinlock whose unlock is a relaxed store
 * (workloads/examples/spinlock_release.c): correct under memory=sc and
 * tso, where stores leave in order; under arm64 the store that frees the
 * lock may become visible before the critical section's store, or, a
 * promise, before its load, and a count goes missing.  A release store
 * passes.  The replay's report names the reordering: the lock word's
 * store before the count's store or load.
 */
START_TEST(test_arm64_breaks_a_spinlock_without_release)
{
	static const char *const pass[][2] = {
		{ "--memory=sc", "--args=relaxed" },
		{ "--memory=tso", "--args=relaxed" },
		{ "--memory=arm64", "--args=release" },
	};
	struct child_out *o = malloc(sizeof(*o));

	ck_assert_ptr_nonnull(o);
	if (!build_example(o, "spinlock_release.c", "in-spinrel")) {
		free(o);
		return;
	}
	for (size_t i = 0; i < sizeof(pass) / sizeof(pass[0]); i++) {
		run_plain5(o, "in-spinrel", "explore", pass[i][0], pass[i][1],
			   "--strategy=random", "--runs=2000");
		ck_assert_msg(o->status == 0, "%s %s: status %d: %.2000s",
			      pass[i][0], pass[i][1], o->status, o->out);
	}
	explore_fails_and_replays(o, "in-spinrel", "--memory=arm64",
				  "--args=relaxed", "lost update");
	ck_assert_ptr_nonnull(strstr(o->err, "store buffers (memory=arm64"));
	ck_assert_msg(strstr(o->err, "store to lock_word (spinlock_release.c:") &&
		      (strstr(o->err, "visible before its older store to count (spinlock_release.c:") ||
		       strstr(o->err, "visible before its older load of count (spinlock_release.c:")),
		      "%.4000s", o->err);
	free(o);
}
END_TEST

/*
 * The same spinlock with a relaxed compare-and-swap for its lock (no
 * acquire): correct under memory=sc and tso; under arm64 the critical
 * section's load of the count may be satisfied before the lock is taken
 * and read the count as the previous owner's store left it before (a
 * view that lags), and a count goes missing.  The report names that
 * load.  Stores alone cannot show it: the lock's unlock is a release.
 */
START_TEST(test_arm64_breaks_a_spinlock_without_acquire)
{
	static const char *const pass[] = { "--memory=sc", "--memory=tso" };
	struct child_out *o = malloc(sizeof(*o));

	ck_assert_ptr_nonnull(o);
	if (!build_example(o, "spinlock_release.c", "in-spinacq")) {
		free(o);
		return;
	}
	for (size_t i = 0; i < sizeof(pass) / sizeof(pass[0]); i++) {
		run_plain5(o, "in-spinacq", "explore", pass[i], "--args=relaxed-lock",
			   "--strategy=random", "--runs=2000");
		ck_assert_msg(o->status == 0, "%s: status %d: %.2000s", pass[i],
			      o->status, o->out);
	}
	explore_fails_and_replays(o, "in-spinacq", "--memory=arm64",
				  "--args=relaxed-lock", "lost update");
	ck_assert_msg(strstr(o->err, "load of count (spinlock_release.c:") &&
		      strstr(o->err, "'s store to count (spinlock_release.c:") &&
		      strstr(o->err, "which was visible"), "%.4000s", o->err);
	free(o);
}
END_TEST

/*
 * memory=arm64's promises (sim/machine/memmodel.h) on the LB litmus test
 * (workloads/examples/litmus.c): explore finds LB's 1 1, each thread's
 * store made visible before its older load, and the report says so; the
 * replay file and its shrunk one give it again (the certification runs
 * again in a replay).  The controls: with a seq_cst fence between each
 * thread's load and store (LB+fence) no run gives 1 1, and the runs whose
 * promise a fence broke are counted as infeasible, not as failures.
 */
START_TEST(test_arm64_promises_give_load_buffering)
{
	struct child_out *o = malloc(sizeof(*o));
	char file[256], min[300];

	ck_assert_ptr_nonnull(o);
	if (!build_example(o, "litmus.c", "in-litmus")) {
		free(o);
		return;
	}
	explore_fails_and_replays(o, "in-litmus", "--memory=arm64",
				  "--args=LB 1 1", "litmus: LB gave 1 1");
	ck_assert_msg(strstr(o->err, "store to y (litmus.c:") &&
		      strstr(o->err, "visible before its older load of") &&
		      strstr(o->err, "(a promise)"), "%.4000s", o->err);
	run_plain5(o, "in-litmus", "explore", "--memory=arm64", "--args=LB 1 1",
		   "--strategy=random", "--runs=2000");
	replay_file_of(o->out, file, sizeof(file));
	run_plain(o, "in-litmus", "shrink", file, NULL, NULL);
	ck_assert_msg(o->status == 0, "shrink: status %d: %.2000s", o->status,
		      o->err);
	snprintf(min, sizeof(min), "%.*s.min.replay",
		 (int)(strlen(file) - strlen(".replay")), file);
	run_plain(o, "in-litmus", "replay", min, NULL, NULL);
	ck_assert_msg(o->status == 3 && strstr(o->err, "litmus: LB gave 1 1"),
		      "replay of %s: status %d: %.2000s", min, o->status, o->err);
	run_plain5(o, "in-litmus", "explore", "--memory=arm64",
		   "--args=LB+fence 1 1", "--strategy=random", "--runs=2000");
	ck_assert_msg(o->status == 0 && strstr(o->out, "no oracle fired in 2000 runs") &&
		      strstr(o->out, ", other failures 0, infeasible "),
		      "LB+fence: status %d: %.2000s", o->status, o->out);
	free(o);
}
END_TEST

/*
 * explore of ./@prog under memory=arm64 with @args and @runs random runs,
 * its promises certified in the run itself (the run then made again,
 * sim/explore/promise.c) and in a child process
 * (FUTEXSIM_PROMISE_FORK=1): the same status, output and replay file,
 * byte for byte.  @shared: FUTEXSIM_EXPLORE_SAME_PROCESS=1 for both, the
 * program's globals not put back between runs nor between the makings
 * of one: the two searches must then differ (the negative control).
 */
static void same_certified_both_ways(const char *prog, const char *args,
				     const char *runs, int shared)
{
	struct child_out *o[2];
	char file[256], *bytes[2] = { NULL, NULL };
	size_t len[2] = { 0, 0 };

	for (int i = 0; i < 2; i++) {
		o[i] = malloc(sizeof(*o[i]));
		ck_assert_ptr_nonnull(o[i]);
		if (i == 0)
			setenv("FUTEXSIM_PROMISE_FORK", "1", 1);
		if (shared)
			setenv("FUTEXSIM_EXPLORE_SAME_PROCESS", "1", 1);
		run_plain5(o[i], prog, "explore", "--memory=arm64", args,
			   "--strategy=random", runs);
		unsetenv("FUTEXSIM_PROMISE_FORK");
		unsetenv("FUTEXSIM_EXPLORE_SAME_PROCESS");
		if (o[i]->status == 3) {
			replay_file_of(o[i]->out, file, sizeof(file));
			bytes[i] = slurp(file, &len[i]);
			ck_assert_ptr_nonnull(bytes[i]);
			remove(file);
		}
	}
	if (shared) {
		ck_assert_msg(strcmp(o[0]->out, o[1]->out),
			      "%s %s: sharing one world, the two ways gave the same search: %.1000s",
			      prog, args, o[0]->out);
	} else {
		ck_assert_msg(o[0]->status == o[1]->status,
			      "%s %s: status %d in a child, %d in the run", prog,
			      args, o[0]->status, o[1]->status);
		ck_assert_str_eq(o[0]->out, o[1]->out);
		ck_assert_msg(len[0] == len[1] &&
			      (!len[0] || !memcmp(bytes[0], bytes[1], len[0])),
			      "%s %s: the replay files differ", prog, args);
	}
	for (int i = 0; i < 2; i++)
		free(o[i]);
	free(bytes[0]);
	free(bytes[1]);
}

/*
 * A promise certified in the run, the run made again up to it, gives the
 * search a forked child's certification gives: on litmus tests whose
 * outcome is found (LB, MP+rel), and on ones never given, whose searches
 * count the infeasible runs (LB+fence, SB 2 2).  The control: a counter
 * whose globals a second making of the run would see, when they are not
 * put back, is found sooner that way than with a child.
 */
START_TEST(test_arm64_certification_in_the_run_gives_what_a_child_gives)
{
	struct child_out *o = malloc(sizeof(*o));
	const char *src = FUTEXSIM_SOURCE_DIR "/tests/programs/counter.c";
	const char *counter[] = { "futexsim", "build", "--instrument", src,
				  "-o", "in-counter", NULL };

	ck_assert_ptr_nonnull(o);
	if (!build_example(o, "litmus.c", "in-litmus") ||
	    !run_futexsim(o, counter)) {
		free(o);
		return;
	}
	ck_assert_msg(o->status == 0, "build of counter.c: %s", o->err);
	same_certified_both_ways("in-litmus", "--args=LB 1 1", "--runs=2000", 0);
	same_certified_both_ways("in-litmus", "--args=MP+rel 1 0", "--runs=2000", 0);
	same_certified_both_ways("in-litmus", "--args=LB+fence 1 1", "--runs=300", 0);
	same_certified_both_ways("in-litmus", "--args=SB 2 2", "--runs=300", 0);
	same_certified_both_ways("in-counter", "--args=racy 2 5", "--runs=2000", 0);
	same_certified_both_ways("in-counter", "--args=atomic 2 5", "--runs=200", 1);
	free(o);
}
END_TEST

#define RACE_ORACLE "--oracle=mutex,deadlock,state,bug,crash,race"

/*
 * The race oracle (sim/explore/race.h) on tests/programs/plain.c: the
 * unlocked count is a data race, named by both accesses, and its replay
 * fails again; the count under a mutex and the _Atomic one are none; a
 * plain read whose bytes memset() (not instrumented) changes is one.
 * The control: without race in oracle= the same search reports no race.
 */
START_TEST(test_race_oracle_finds_plain_accesses_that_meet)
{
	static const char *const clean[] = {
		"--args=locked-count 2 5", "--args=atomic-count 2 5",
	};
	struct child_out *o = malloc(sizeof(*o));
	char file[256];

	ck_assert_ptr_nonnull(o);
	if (!build_plain("in-plain", 1)) {
		free(o);
		return;
	}
	run_plain5(o, "in-plain", "explore", "--args=count 2 5", RACE_ORACLE,
		   "--strategy=random", "--runs=1000");
	ck_assert_msg(o->status == 3, "status %d: %.2000s", o->status, o->out);
	ck_assert_msg(strstr(o->out, "explore: race fired in run "), "%.2000s", o->out);
	replay_file_of(o->out, file, sizeof(file));
	run_plain(o, "in-plain", "replay", file, NULL, NULL);
	ck_assert_msg(o->status == 3, "replay: status %d: %.2000s", o->status,
		      o->err);
	ck_assert_msg(strstr(o->err, "futexsim: DATA RACE: task ") &&
		      strstr(o->err, "of counter (plain.c:") &&
		      strstr(o->err, "plain write") && strstr(o->err, "plain read") &&
		      strstr(o->err, "    adder (tests/programs/plain.c:"),
		      "%.3000s", o->err);
	for (size_t i = 0; i < sizeof(clean) / sizeof(clean[0]); i++) {
		run_plain5(o, "in-plain", "explore", clean[i], RACE_ORACLE,
			   "--strategy=random", "--runs=1000");
		ck_assert_msg(o->status == 0, "%s: status %d: %.2000s", clean[i],
			      o->status, o->out);
	}
	run_plain5(o, "in-plain", "explore", "--args=memset-race 2 20",
		   RACE_ORACLE, "--strategy=random", "--runs=1000");
	ck_assert_msg(o->status == 3, "memset: status %d: %.2000s", o->status, o->out);
	ck_assert_msg(strstr(o->err, "plain read of shared_word (plain.c:") &&
		      strstr(o->err, "written by code that is not instrumented"),
		      "%.3000s", o->err);
	run_plain5(o, "in-plain", "explore", "--args=count 2 5",
		   "--strategy=random", "--runs=1000", NULL);
	ck_assert_ptr_null(strstr(o->out, "race fired"));
	ck_assert_ptr_null(strstr(o->err, "DATA RACE"));
	free(o);
}
END_TEST

/* memory=tso|arm64 and the race oracle need the instrumentation: on a
 * program built without it they are bad input, one line, exit 2 (its
 * own stores would stay in order while its library's are buffered).
 * The built-in workloads run under tso and arm64:
 * tests/test_weak_builtin.c. */
START_TEST(test_weak_memory_without_instrumentation_is_bad_input)
{
	struct child_out *o = malloc(sizeof(*o));

	ck_assert_ptr_nonnull(o);
	if (!build_plain("un-plain", 0)) {
		free(o);
		return;
	}
	run_plain(o, "un-plain", "run", "--memory=tso", "--args=count 2 5", NULL);
	ck_assert_msg(o->status == 2, "status %d: %.2000s", o->status, o->err);
	ck_assert_str_eq(o->err, "futexsim: command line: --memory: expected sc: this program is not instrumented (build it with 'futexsim build --instrument'), got 'tso'\n");
	run_plain(o, "un-plain", "explore", "--oracle=crash,race", "--args=count 2 5", NULL);
	ck_assert_msg(o->status == 2, "status %d: %.2000s", o->status, o->err);
	ck_assert_ptr_nonnull(strstr(o->err, "--oracle: expected no race: this program is not instrumented"));
	free(o);
}
END_TEST

Suite *instrument_suite(void)
{
	return one_case_suite("instrument", 300, (const TTest *const[]){
		test_instrumented_busy_wait_lets_the_writer_run,
		test_uninstrumented_busy_wait_is_stuck,
		test_explore_finds_a_lost_update_between_plain_accesses,
		test_instrumented_atomic_operators_stay_atomic,
		test_tso_breaks_peterson_without_a_fence,
		test_arm64_breaks_a_spinlock_without_release,
		test_arm64_breaks_a_spinlock_without_acquire,
		test_arm64_promises_give_load_buffering,
		test_arm64_certification_in_the_run_gives_what_a_child_gives,
		test_race_oracle_finds_plain_accesses_that_meet,
		test_weak_memory_without_instrumentation_is_bad_input,
		NULL });
}

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tests/test_explore_program.c - explore, shrink and replay of user
 * programs (workload program) through the futexsim binary of $FUTEXSIM:
 * every run starts from a fresh world, hits replay with the same
 * failure, a stream the program kept before its runs is still its
 * stdout, correct programs pass many runs while their buggy twins are
 * found, shrink works on a program's schedule and its marked arguments,
 * a program's report lists the keys that apply to it, and a search
 * sharded by GNU parallel merges to the unsharded one.
 *
 * Stage: tests.  The programs: workloads/examples/ (lostwake.c,
 * condvar_if.c, abba.c), tests/programs/counter.c and stdout_kept.c.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tests/run_child.h"
#include "version.h"

/* Build @src (relative to the source tree) into ./xp-@name; 0: skipped. */
static int build(const char *src, const char *name)
{
	char path[512], out[128];
	const char *argv[] = { "futexsim", "build", path, "-o", out, NULL };
	struct child_out *o = malloc(sizeof(*o));
	int ok;

	ck_assert_ptr_nonnull(o);
	snprintf(path, sizeof(path), "%s/%s", FUTEXSIM_SOURCE_DIR, src);
	snprintf(out, sizeof(out), "xp-%s", name);
	ok = run_futexsim(o, argv);
	if (ok)
		ck_assert_msg(o->status == 0, "build of %s failed: %s", src, o->err);
	free(o);
	return ok;
}

/* Run ./xp-@name with @argv (NULL-terminated, argv[0] ignored). */
static void run_prog(struct child_out *o, const char *name, const char **argv)
{
	char path[128];

	snprintf(path, sizeof(path), "./xp-%s", name);
	argv[0] = path;
	run_program(path, (char *const *)argv, o);
}

/* The failure's headline: the first line of @err starting "futexsim: ". */
static void headline(const char *err, char *line, size_t len)
{
	const char *p = strstr(err, "futexsim: ");

	ck_assert_msg(p != NULL, "no failure headline in: %.2000s", err);
	snprintf(line, len, "%.*s", (int)strcspn(p, "\n"), p);
}

/* futexsim replay @file: exit 3 with the headline @want. */
static void assert_replays(const char *file, const char *want)
{
	const char *argv[] = { "futexsim", "replay", file, NULL };
	struct child_out *o = malloc(sizeof(*o));
	char got[512];

	ck_assert_ptr_nonnull(o);
	run_futexsim(o, argv);
	ck_assert_msg(o->status == 3, "replay of %s: status %d: %.2000s", file,
		      o->status, o->err);
	headline(o->err, got, sizeof(got));
	ck_assert_str_eq(got, want);
	free(o);
}

/* ./xp-@name explore --args=@args --strategy=@strategy --runs=@runs. */
static void explore_prog(struct child_out *o, const char *name,
			 const char *args, const char *strategy,
			 const char *runs)
{
	char a[128], st[64], r[64];
	const char *argv[] = { NULL, "explore", a, st, r, NULL };

	snprintf(a, sizeof(a), "--args=%s", args);
	snprintf(st, sizeof(st), "--strategy=%s", strategy);
	snprintf(r, sizeof(r), "--runs=%s", runs);
	run_prog(o, name, argv);
}

/* Explore @name's program: a hit of @oracle (exit 3), the commands that
 * replay and shrink it named as the program, and its replay file fails
 * again with the same headline. */
static void assert_found(const char *name, const char *args,
			 const char *strategy, const char *runs,
			 const char *oracle)
{
	char file[256], line[512], fired[128], cmds[1200];
	struct child_out *o = malloc(sizeof(*o));

	ck_assert_ptr_nonnull(o);
	explore_prog(o, name, args, strategy, runs);
	ck_assert_msg(o->status == 3, "%s %s: status %d: %.2000s", name, args,
		      o->status, o->out);
	snprintf(fired, sizeof(fired), "explore: %s fired in run ", oracle);
	ck_assert_msg(strstr(o->out, fired) != NULL, "%s: %.1000s", name, o->out);
	ck_assert_ptr_null(strstr(o->err, "did not fail again"));
	ck_assert_ptr_null(strstr(o->err, "diverged"));
	replay_file_of(o->out, file, sizeof(file));
	/* the commands are the program's own, not the futexsim on the PATH */
	snprintf(cmds, sizeof(cmds), "\n  ./xp-%s replay %s\n  ./xp-%s shrink %s\n",
		 name, file, name, file);
	ck_assert_msg(strstr(o->out, cmds) != NULL, "%s: %.1000s", name, o->out);
	headline(o->err, line, sizeof(line));
	assert_replays(file, line);
	free(o);
}

/* Explore @name with @args for @runs runs: no hit, exit 0. */
static void assert_passes(const char *name, const char *args,
			  const char *strategy, const char *runs)
{
	char want[128];
	struct child_out *o = malloc(sizeof(*o));

	ck_assert_ptr_nonnull(o);
	explore_prog(o, name, args, strategy, runs);
	ck_assert_msg(o->status == 0, "%s %s: status %d: %.2000s %.2000s", name,
		      args, o->status, o->out, o->err);
	snprintf(want, sizeof(want), "explore: no oracle fired in %s runs", runs);
	ck_assert_ptr_nonnull(strstr(o->out, want));
	free(o);
}

START_TEST(test_every_explore_run_of_a_program_starts_from_a_fresh_world)
{
	struct child_out *o = malloc(sizeof(*o));
	const char *argv[] = { NULL, "explore", "--args=atomic 2 5",
			       "--strategy=random", "--runs=200", NULL };

	ck_assert_ptr_nonnull(o);
	if (!build("tests/programs/counter.c", "counter"))
		return;
	/* its globals are checked at the start of main(): 10,000 fresh worlds */
	assert_passes("counter", "atomic 2 5", "random", "10000");
	/* negative control: runs that share one process see the leftovers */
	setenv("FUTEXSIM_EXPLORE_SAME_PROCESS", "1", 1);
	run_prog(o, "counter", argv);
	unsetenv("FUTEXSIM_EXPLORE_SAME_PROCESS");
	ck_assert_int_eq(o->status, 3);
	ck_assert_ptr_nonnull(strstr(o->out, "fired in run 1 "));
	ck_assert_ptr_nonnull(strstr(o->err, "leftover world: started 2"));
	free(o);
}
END_TEST

/*
 * Explore @name with @args twice, a process per run
 * (FUTEXSIM_EXPLORE_FORK=1) and the runs in one process with the
 * program's data put back after each: the same output and replay file,
 * byte for byte, and the rewound search is not the same as one whose
 * runs share their leftovers (@leaky: the program notices them).
 */
static void assert_same_both_ways(const char *name, const char *args,
				  const char *strategy, const char *runs,
				  int leaky)
{
	struct child_out *o[3];
	char file[256], *bytes[2] = { NULL, NULL };
	size_t len[2] = { 0, 0 };

	for (int i = 0; i < 3; i++) {
		o[i] = malloc(sizeof(*o[i]));
		ck_assert_ptr_nonnull(o[i]);
		if (i == 0)
			setenv("FUTEXSIM_EXPLORE_FORK", "1", 1);
		if (i == 2)
			setenv("FUTEXSIM_EXPLORE_SAME_PROCESS", "1", 1);
		explore_prog(o[i], name, args, strategy, runs);
		unsetenv("FUTEXSIM_EXPLORE_FORK");
		unsetenv("FUTEXSIM_EXPLORE_SAME_PROCESS");
		if (i < 2 && o[i]->status == 3) {
			replay_file_of(o[i]->out, file, sizeof(file));
			bytes[i] = slurp(file, &len[i]);
			ck_assert_ptr_nonnull(bytes[i]);
		}
	}
	ck_assert_msg(o[0]->status == o[1]->status, "%s %s: status %d forked, %d rewound",
		      name, args, o[0]->status, o[1]->status);
	ck_assert_str_eq(o[0]->out, o[1]->out);
	ck_assert_msg(len[0] == len[1] && (!len[0] || !memcmp(bytes[0], bytes[1], len[0])),
		      "%s %s: the replay files differ", name, args);
	if (leaky)
		ck_assert_msg(strcmp(o[0]->out, o[2]->out),
			      "%s %s: the runs sharing one world gave the same search",
			      name, args);
	for (int i = 0; i < 3; i++)
		free(o[i]);
	free(bytes[0]);
	free(bytes[1]);
}

START_TEST(test_rewound_runs_give_the_search_a_process_per_run_gives)
{
	if (!build("tests/programs/counter.c", "counter") ||
	    !build("workloads/examples/lostwake.c", "lostwake") ||
	    !build("workloads/examples/abba.c", "abba"))
		return;
	assert_same_both_ways("counter", "racy 2 5", "random", "3000", 1);
	assert_same_both_ways("counter", "atomic 2 5", "random", "300", 1);
	assert_same_both_ways("lostwake", "buggy 3 20 50", "pct:3", "2000", 0);
	assert_same_both_ways("lostwake", "fixed 3 20 50", "random", "300", 0);
	assert_same_both_ways("abba", "abba 10", "timed", "2000", 0);
}
END_TEST

/*
 * A program that kept stdout in a constructor checks that its copy is
 * stdout, then writes, flushes and sets the buffering of that copy in
 * every run: in one process (whose runs' stdout goes to /dev/null) as in
 * a process per run, the copy is the program's stdout, not a file the
 * simulation refuses.
 */
START_TEST(test_a_stream_kept_before_the_runs_is_still_stdout)
{
	if (!build("tests/programs/stdout_kept.c", "stdout_kept"))
		return;
	assert_passes("stdout_kept", "3", "random", "300");
	assert_same_both_ways("stdout_kept", "3", "random", "300", 0);
}
END_TEST

START_TEST(test_explore_finds_the_buggy_twins_and_every_hit_replays)
{
	if (!build("tests/programs/counter.c", "counter") ||
	    !build("workloads/examples/lostwake.c", "lostwake") ||
	    !build("workloads/examples/condvar_if.c", "condvar") ||
	    !build("workloads/examples/abba.c", "abba") ||
	    !build("workloads/examples/nowake.c", "nowake"))
		return;
	assert_found("counter", "racy 2 5", "random", "10000", "crash");
	assert_found("nowake", "forget 2 5", "random", "2000", "deadlock");
	assert_found("lostwake", "buggy 3 20 50", "random", "2000", "deadlock");
	assert_found("lostwake", "buggy 3 20 50", "pct:3", "2000", "deadlock");
	assert_found("condvar", "if 2 20", "random", "2000", "crash");
	assert_found("abba", "abba 10", "random", "2000", "deadlock");
	assert_found("abba", "abba 10", "timed", "2000", "deadlock");
	/* their correct twins pass */
	assert_passes("lostwake", "fixed 3 20 50", "random", "2000");
	assert_passes("condvar", "while 2 20", "random", "2000");
	assert_passes("abba", "ordered 10", "random", "2000");
	assert_passes("nowake", "wake 2 5", "random", "2000");
}
END_TEST

START_TEST(test_futexsim_explore_with_program_runs_the_program_not_a_builtin)
{
	static struct child_out a, b, c;
	const char *pa[] = { NULL, "explore", "--args=buggy 3 20 50",
			     "--strategy=pct:3", "--runs=500", NULL };
	const char *fa[] = { "futexsim", "explore", "--program=./xp-lostwake",
			     "--args=buggy 3 20 50", "--strategy=pct:3",
			     "--runs=500", NULL };
	const char *plain[] = { "futexsim", "explore", "--strategy=pct:3",
				"--runs=500", NULL };

	if (!build("workloads/examples/lostwake.c", "lostwake"))
		return;
	run_prog(&a, "lostwake", pa);
	run_futexsim(&b, fa);
	ck_assert_int_eq(a.status, 3);
	ck_assert_int_eq(b.status, 3);
	ck_assert_str_eq(a.out, b.out);		/* the same search */
	/* PCT's calibration run, in the replay too, is a world of its own:
	 * the deadlocked program never prints its counter */
	{
		char file[256];
		const char *rp[] = { "futexsim", "replay", file, NULL };

		replay_file_of(a.out, file, sizeof(file));
		/* named after the program, not after its lock key (ww) */
		ck_assert_msg(!strncmp(file, "futexsim-explore-xp-lostwake-", 29),
			      "replay file %s", file);
		run_futexsim(&c, rp);
		ck_assert_int_eq(c.status, 3);
		ck_assert_ptr_null(strstr(c.out, "counter"));
	}
	/* the hit's narration (stderr) names the program */
	ck_assert_ptr_nonnull(strstr(a.err, "workload=program program=./xp-lostwake"));
	/* negative control: without a program, the built-in workload */
	run_futexsim(&c, plain);
	ck_assert_ptr_null(strstr(c.err, "workload=program"));
	ck_assert_str_ne(a.out, c.out);
}
END_TEST

START_TEST(test_shrink_minimises_a_programs_schedule_and_marked_arguments)
{
	static struct child_out o;
	const char *ex[] = { NULL, "explore", "--args=buggy 3 20 50",
			     "--strategy=random", "--runs=2000",
			     "--out=xp-lw.replay", NULL };
	const char *sh[] = { "futexsim", "shrink", "xp-lw.replay",
			     "--shrink-args=2,3,4", NULL };
	const char *bad[] = { "futexsim", "shrink", "xp-lw.replay",
			      "--shrink-args=1", NULL };
	const char *rec[] = { NULL, "run", "--args=buggy 3 20 50",
			      "--seed=2", "--record=xp-run.replay", NULL };
	const char *sh2[] = { "futexsim", "shrink", "xp-run.replay", NULL };
	int before, after;
	const char *p;
	char line[512];

	if (!build("workloads/examples/lostwake.c", "lostwake"))
		return;
	run_prog(&o, "lostwake", ex);
	ck_assert_int_eq(o.status, 3);
	headline(o.err, line, sizeof(line));
	run_futexsim(&o, sh);
	ck_assert_msg(o.status == 0, "shrink: %d %.2000s", o.status, o.err);
	ck_assert_ptr_null(strstr(o.out, " threads, "));	/* no such keys */
	p = strstr(o.out, "shrink: before: args \"buggy 3 20 50\", ");
	ck_assert_ptr_nonnull(p);
	before = atoi(p + strlen("shrink: before: args \"buggy 3 20 50\", "));
	p = strstr(o.out, "shrink: after: args \"");
	ck_assert_ptr_nonnull(p);
	p = strstr(p, "\", ");
	after = atoi(p + 3);
	ck_assert_int_le(after, before);
	ck_assert_int_lt(after, 10);
	ck_assert_ptr_null(strstr(o.out, "strategy timed"));	/* it has choices */
	assert_replays("xp-lw.min.replay", line);
	/* a word that is not a number cannot be marked: bad input */
	run_futexsim(&o, bad);
	ck_assert_int_eq(o.status, 2);
	ck_assert_ptr_nonnull(strstr(o.err, "shrink-args"));
	/* a failure recorded by `run` (strategy timed) shrinks too */
	run_prog(&o, "lostwake", rec);
	ck_assert_int_eq(o.status, 3);
	run_futexsim(&o, sh2);
	ck_assert_msg(o.status == 0, "shrink of a run's file: %d %.2000s",
		      o.status, o.err);
	ck_assert_ptr_nonnull(strstr(o.out, "shrink: xp-run.replay: oracle deadlock"));
	/* ... but it has no branching points: the output says why nothing
	 * shrank, and how to get a schedule that does */
	ck_assert_ptr_nonnull(strstr(o.out, "shrink: before: 0 preemptions, 0 non-zero choices, 0 branching points\nshrink: strategy timed: the run has no branching points (its seed and clocks are its schedule), so nothing here can shrink (mark arguments with --shrink-args); a search with --strategy=random finds schedules that shrink\n"));
}
END_TEST

START_TEST(test_a_programs_report_lists_only_the_keys_that_apply)
{
	static struct child_out o;
	const char *run[] = { NULL, "run", "--args=pthread 3 20",
			      "--json=xp-report.json", NULL };
	char *json;

	if (!build("workloads/examples/lostwake.c", "lostwake"))
		return;
	run_prog(&o, "lostwake", run);
	ck_assert_int_eq(o.status, 0);
	ck_assert_ptr_nonnull(strstr(o.out, "\nworkload = program\n"));
	ck_assert_ptr_nonnull(strstr(o.out, "\nargs = pthread 3 20\n"));
	ck_assert_ptr_null(strstr(o.out, "\nthreads = "));
	ck_assert_ptr_null(strstr(o.out, "\nops = "));
	ck_assert_ptr_null(strstr(o.out, "\ncs = "));
	ck_assert_ptr_null(strstr(o.out, "\nbetween = "));
	json = slurp("xp-report.json", NULL);
	ck_assert_ptr_nonnull(strstr(json, "\"cs\":null,\"between\":null"));
	free(json);
	/* a built-in workload's key, or another workload: bad input */
	{
		const char *th[] = { NULL, "run", "--threads=4", NULL };
		const char *wl[] = { NULL, "explore", "--workload=mutex", NULL };

		run_prog(&o, "lostwake", th);
		ck_assert_int_eq(o.status, 2);
		ck_assert_ptr_nonnull(strstr(o.err, "--threads: expected a key that applies to a program"));
		run_prog(&o, "lostwake", wl);
		ck_assert_int_eq(o.status, 2);
		ck_assert_ptr_nonnull(strstr(o.err, "--workload: expected program"));
	}
}
END_TEST

/* Arguments with no program to take them (a forgotten --program) are
 * bad input, on the command line or in a scenario file; with the
 * program they run it (test_a_programs_report_lists_only_the_keys_that_apply). */
START_TEST(test_args_without_a_program_are_bad_input)
{
	static struct child_out o;
	const char *run[] = { "futexsim", "run", "--args=pthread 3 20", NULL };
	const char *explore[] = { "futexsim", "explore", "--runs=2",
				  "--args=pthread 3 20", NULL };
	const char *file[] = { "futexsim", "run", "xp-args.scn", NULL };
	FILE *f;

	if (!run_futexsim(&o, run))
		return;
	assert_one_line_error(&o, "--args", "a program to pass them to", "pthread 3 20");
	run_futexsim(&o, explore);
	assert_one_line_error(&o, "--args", "a program to pass them to", "pthread 3 20");
	f = fopen("xp-args.scn", "w");
	ck_assert_ptr_nonnull(f);
	fputs("ops = 10\nargs = 4 5\n", f);
	fclose(f);
	run_futexsim(&o, file);
	assert_one_line_error(&o, "xp-args.scn:2", "args", "a program to pass them to");
}
END_TEST

/* @text without its "shard ..." line. */
static void drop_shard_line(char *text)
{
	char *p = strstr(text, "\nshard "), *eol;

	ck_assert_ptr_nonnull(p);
	eol = strchr(p + 1, '\n');
	memmove(p, eol, strlen(eol) + 1);
}

/* The search @args over 4 shards run by GNU parallel, merged, against
 * the unsharded search: the same summary but for the shard line. */
static void assert_sharded_is_unsharded(const char *args, const char *runs)
{
	static struct child_out o, m;
	char a[128], r[64], sh[1024];
	const char *one[] = { NULL, "explore", a, "--strategy=random", r,
			      "--summary=xp-all.sum", NULL };
	const char *par[] = { "/bin/sh", "-c", sh, NULL };
	const char *merge[] = { "futexsim", "merge", "xp-s0.sum", "xp-s1.sum",
				"xp-s2.sum", "xp-s3.sum", NULL };
	char *all;

	snprintf(a, sizeof(a), "--args=%s", args);
	snprintf(r, sizeof(r), "--runs=%s", runs);
	run_prog(&o, "counter", one);
	snprintf(sh, sizeof(sh),
		 "parallel -q -j 2 ./xp-counter explore '--args=%s' --strategy=random --runs=%s --shard={}/4 --summary=xp-s{}.sum ::: 0 1 2 3 >/dev/null 2>&1",
		 args, runs);
	run_program("/bin/sh", (char *const *)par, &m);
	/* its status: how many shards exited non-zero (a hit exits 3) */
	ck_assert_msg(m.status >= 0 && m.status <= 4, "parallel: %d %s",
		      m.status, m.err);
	run_futexsim(&m, merge);
	ck_assert_msg(m.status == 0, "merge: %s", m.err);
	all = slurp("xp-all.sum", NULL);
	drop_shard_line(all);
	drop_shard_line(m.out);
	if (strstr(all, "hit none")) {	/* no hit: every total agrees */
		ck_assert_str_eq(m.out, all);
	} else {			/* a hit: the same first hit */
		const char *h1 = strstr(all, "\nhit "), *h2 = strstr(m.out, "\nhit ");

		ck_assert_ptr_nonnull(h2);
		ck_assert_int_eq((int)strcspn(h1 + 1, "\n"), (int)strcspn(h2 + 1, "\n"));
		ck_assert_int_eq(strncmp(h1, h2, strcspn(h1 + 1, "\n") + 1), 0);
	}
	free(all);
}

START_TEST(test_a_search_sharded_by_gnu_parallel_merges_to_the_unsharded_one)
{
	if (access("/usr/bin/parallel", X_OK)) {
		/* make check installs it (mk/deps.sh): a missing one is a failure */
		ck_abort_msg("GNU parallel is not installed: apt-get install -y parallel");
	}
	if (!build("tests/programs/counter.c", "counter"))
		return;
	assert_sharded_is_unsharded("atomic 2 5", "400");	/* totals */
	assert_sharded_is_unsharded("racy 2 1", "400");		/* first hit, run 117 */
}
END_TEST

/*
 * The replay of a shrunk file (forced choices) narrates the atomics on a
 * futex word from the first one: the pre-pass that learns the futex
 * words follows the file's choices too (with the strategy's own choices
 * it made another run, in which nowake's word never reached futex(2)).
 */
START_TEST(test_a_shrunk_programs_replay_narrates_the_first_acquisition)
{
	static struct child_out o;
	const char *ex[] = { NULL, "explore", "--args=forget 2 5",
			     "--strategy=random", "--out=xp-nw.replay", NULL };
	const char *sh[] = { "futexsim", "shrink", "xp-nw.replay",
			     "--shrink-args=2,3", NULL };
	const char *rp[] = { "futexsim", "replay", "xp-nw.min.replay",
			     "--narrate=yes", NULL };
	const char *take, *wait;

	if (!build("workloads/examples/nowake.c", "nowake"))
		return;
	run_prog(&o, "nowake", ex);
	ck_assert_int_eq(o.status, 3);
	run_futexsim(&o, sh);
	ck_assert_msg(o.status == 0, "shrink: %.2000s", o.err);
	run_futexsim(&o, rp);
	ck_assert_int_eq(o.status, 3);
	take = strstr(o.err, ": cmpxchg-ok on word (nowake.c:");
	wait = strstr(o.err, ": calls FUTEX_WAIT on word (nowake.c:");
	ck_assert_msg(take && wait && take < wait, "%.3000s", o.err);
	ck_assert_ptr_nonnull(strstr(o.err, ": xchg on word (nowake.c:"));
}
END_TEST

Suite *explore_program_suite(void)
{
	Suite *s = suite_create("explore_program");
	TCase *tc = tcase_create("core");

	tcase_set_timeout(tc, 600);
	tcase_add_test(tc, test_every_explore_run_of_a_program_starts_from_a_fresh_world);
	tcase_add_test(tc, test_explore_finds_the_buggy_twins_and_every_hit_replays);
	tcase_add_test(tc, test_rewound_runs_give_the_search_a_process_per_run_gives);
	tcase_add_test(tc, test_a_stream_kept_before_the_runs_is_still_stdout);
	tcase_add_test(tc, test_futexsim_explore_with_program_runs_the_program_not_a_builtin);
	tcase_add_test(tc, test_shrink_minimises_a_programs_schedule_and_marked_arguments);
	tcase_add_test(tc, test_a_programs_report_lists_only_the_keys_that_apply);
	tcase_add_test(tc, test_args_without_a_program_are_bad_input);
	tcase_add_test(tc, test_a_shrunk_programs_replay_narrates_the_first_acquisition);
	tcase_add_test(tc, test_a_search_sharded_by_gnu_parallel_merges_to_the_unsharded_one);
	suite_add_tcase(s, tc);
	return s;
}

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tests/test_weak_builtin.c - the built-in workloads under memory=tso and
 * arm64 (sim/machine/memmodel.h): the user locks' stores
 * (workloads/ulock/uatomic.h) go through the store buffers, the
 * critical sections update the protected word with a relaxed load and
 * store, and the driver checks every value a section reads
 * (workloads/driver.h, wl_data_write()).  Every user lock, a reader-writer
 * lock and a kernel spinlock pass, timed (twice, the same bytes) and
 * under explore; the
 * negative control, tas-relaxed (workloads/ulock/busted.c: released by a
 * relaxed store), passes under sc and tso, where stores leave in order,
 * and loses an update under arm64, found by explore, shrunk, replayed.
 *
 * Stage: tests.  Runs $FUTEXSIM.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/run_child.h"
#include "version.h"

/* The built-in runs of the check: workload and lock. */
static const char *const runs[][2] = {
	{ "mutex", "ww" },	   { "mutex", "pi" },
	{ "mutex", "tp" },	   { "mutex", "adaptive" },
	{ "rwlock", "rw-prefer-reader" }, { "rwlock", "rw-tp" },
	{ "spin", "qspinlock-x86" },
};

/* futexsim @cmd of @workload/@lock under @memory on tiny4, 3 threads,
 * with @ops; explore: --strategy=random and @runs.  Must exit 0. */
static void passes(struct child_out *o, const char *cmd, const char *memory,
		   const char *workload, const char *lock, const char *ops,
		   const char *runs)
{
	char w[64], l[64], m[64];
	const char *argv[] = { "futexsim", cmd, "--machine=tiny4",
			       "--threads=3", w, l, m, ops,
			       runs ? "--strategy=random" : NULL, runs, NULL };

	snprintf(w, sizeof(w), "--workload=%s", workload);
	snprintf(l, sizeof(l), "--lock=%s", lock);
	snprintf(m, sizeof(m), "--memory=%s", memory);
	ck_assert_msg(run_futexsim(o, argv), "FUTEXSIM must name the binary (make check sets it)");
	ck_assert_msg(o->status == 0, "%s %s %s %s: status %d: %.2000s %.2000s",
		      cmd, memory, workload, lock, o->status, o->out, o->err);
}

START_TEST(test_builtin_locks_pass_under_tso_and_arm64)
{
	static const char *const models[] = { "tso", "arm64" };
	struct child_out *o = malloc(sizeof(*o));
	struct child_out *again = malloc(sizeof(*again));

	ck_assert_ptr_nonnull(o);
	ck_assert_ptr_nonnull(again);
	for (size_t m = 0; m < 2; m++) {
		for (size_t i = 0; i < sizeof(runs) / sizeof(runs[0]); i++) {
			passes(o, "run", models[m], runs[i][0], runs[i][1],
			       "--ops=3000", NULL);
			ck_assert_ptr_nonnull(strstr(o->out, "3,000"));
			/* the same run, the same bytes */
			passes(again, "run", models[m], runs[i][0], runs[i][1],
			       "--ops=3000", NULL);
			ck_assert_msg(!strcmp(o->out, again->out),
				      "%s %s: two runs differ", models[m],
				      runs[i][1]);
			passes(o, "explore", models[m], runs[i][0], runs[i][1],
			       "--ops=6", "--runs=300");
			ck_assert_ptr_nonnull(strstr(o->out, "no oracle fired in 300 runs"));
		}
	}
	free(again);
	free(o);
}
END_TEST

START_TEST(test_relaxed_unlock_loses_an_update_under_arm64_only)
{
	struct child_out *o = malloc(sizeof(*o));
	char file[256], min[300];
	const char *explore[] = { "futexsim", "explore", "--machine=tiny4",
				  "--threads=3", "--ops=6", "--lock=tas-relaxed",
				  "--memory=arm64", "--strategy=random",
				  "--runs=2000", NULL };
	const char *shrink[] = { "futexsim", "shrink", file, NULL };
	const char *replay[] = { "futexsim", "replay", min, NULL };

	ck_assert_ptr_nonnull(o);
	passes(o, "explore", "sc", "mutex", "tas-relaxed", "--ops=6", "--runs=2000");
	passes(o, "explore", "tso", "mutex", "tas-relaxed", "--ops=6", "--runs=2000");
	ck_assert_ptr_nonnull(strstr(o->out, "no oracle fired in 2000 runs"));
	ck_assert(run_futexsim(o, explore));
	ck_assert_msg(o->status == 3, "arm64: status %d: %.2000s", o->status, o->out);
	ck_assert_ptr_nonnull(strstr(o->out, "explore: mutex fired in run"));
	replay_file_of(o->out, file, sizeof(file));
	run_futexsim(o, shrink);
	ck_assert_msg(o->status == 0, "shrink: status %d: %.2000s %.2000s",
		      o->status, o->out, o->err);
	snprintf(min, sizeof(min), "%.*s.min.replay",
		 (int)(strlen(file) - strlen(".replay")), file);
	run_futexsim(o, replay);
	ck_assert_msg(o->status == 3, "replay: status %d: %.2000s", o->status,
		      o->err);
	ck_assert_ptr_nonnull(strstr(o->err, "an update of the data was lost"));
	ck_assert_ptr_nonnull(strstr(o->err, "memory=arm64"));
	/* the report shows the reordering: the unlock's store went first */
	ck_assert_msg(strstr(o->err, "store to lock word (lock=tas-relaxed) visible before its older store to protected data"),
		      "%.3000s", o->err);
	free(o);
}
END_TEST

/* The bug catalogue (workloads/bugs/) under tso and arm64: each correct
 * twin passes 300 explore runs, and two bugs are still found. */
START_TEST(test_bug_catalogue_under_tso_and_arm64)
{
	static const char *const ok[] = {
		"lost-wakeup-ok", "qspin-noundo-ok", "rw-writer-starved-ok",
		"tp-nohandoff-starve-ok",
	};
	static const char *const bug[][2] = {
		{ "lost-wakeup", "lost-wakeup fired" },
		{ "racy-mutex", "mutex fired" },
	};
	static const char *const models[] = { "--memory=tso", "--memory=arm64" };
	struct child_out *o = malloc(sizeof(*o));
	char scn[512];
	const char *argv[] = { "futexsim", "explore", scn, NULL,
			       "--strategy=random", "--runs=300", NULL };

	ck_assert_ptr_nonnull(o);
	for (size_t m = 0; m < 2; m++) {
		argv[3] = models[m];
		for (size_t i = 0; i < sizeof(ok) / sizeof(ok[0]); i++) {
			snprintf(scn, sizeof(scn), "%s/workloads/bugs/%s.scn",
				 FUTEXSIM_SOURCE_DIR, ok[i]);
			ck_assert(run_futexsim(o, argv));
			ck_assert_msg(o->status == 0, "%s %s: status %d: %.2000s",
				      ok[i], models[m], o->status, o->out);
		}
		for (size_t i = 0; i < sizeof(bug) / sizeof(bug[0]); i++) {
			snprintf(scn, sizeof(scn), "%s/workloads/bugs/%s.scn",
				 FUTEXSIM_SOURCE_DIR, bug[i][0]);
			run_futexsim(o, argv);
			ck_assert_msg(o->status == 3 && strstr(o->out, bug[i][1]),
				      "%s %s: status %d: %.2000s", bug[i][0],
				      models[m], o->status, o->out);
		}
	}
	free(o);
}
END_TEST

Suite *weak_builtin_suite(void)
{
	return one_case_suite("weak_builtin", 600, (const TTest *const[]){
		test_builtin_locks_pass_under_tso_and_arm64,
		test_relaxed_unlock_loses_an_update_under_arm64_only,
		test_bug_catalogue_under_tso_and_arm64,
		NULL });
}

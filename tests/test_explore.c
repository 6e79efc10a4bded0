/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tests/test_explore.c - explore mode, its oracles, shrinking, sharding
 * and the bug catalogue (workloads/bugs/).
 *
 * Stage: tests.  Runs scenarios in this process through sim/explore/explore_run.h
 * (as `futexsim explore` does) and the futexsim binary named by $FUTEXSIM
 * (tests/run_child.h) for the commands' files: replay files, shrinking,
 * summaries and their merge.
 */
#include <check.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/explore/explore_run.h"
#include "tests/run_child.h"
#include "version.h"

#define BUGS	FUTEXSIM_SOURCE_DIR "/workloads/bugs/"

static const struct sim_origin here = { .file = "test" };

/* A context for @file (NULL: defaults) with "key=value" overrides. */
static struct sim_xctx *ctx(const char *file, const char *const *kv)
{
	struct sim_xctx *x = calloc(1, sizeof(*x));
	struct sim_scenario s;
	char key[64];

	ck_assert_ptr_nonnull(x);
	sim_scenario_defaults(&s);
	if (file)
		sim_scenario_load(&s, file);
	for (; kv && *kv; kv++) {
		const char *eq = strchr(*kv, '=');

		ck_assert_ptr_nonnull(eq);
		snprintf(key, sizeof(key), "%.*s", (int)(eq - *kv), *kv);
		sim_scenario_set(&s, key, eq + 1, &here);
	}
	sim_xctx_init(x, &s);
	return x;
}

/* Runs of seeds SEED, SEED+1 ... until a hit; Return: runs made
 * (@max + 1 if none hit), the oracle of the hit in *@oracle. */
static int runs_to_hit(struct sim_xctx *x, int max, const char **oracle)
{
	struct sim_xres *res = calloc(1, sizeof(*res));
	int k;

	for (k = 0; k < max; k++) {
		sim_xrun(x, x->s.seed + (uint64_t)k, NULL, 0, NULL, res);
		ck_assert_msg(!res->failed || res->hit,
			      "run %d failed outside the oracles: %s", k, res->what);
		if (res->hit) {
			*oracle = res->oracle;
			break;
		}
	}
	free(res);
	return k + 1;
}

START_TEST(test_parse)
{
	struct sim_strategy st;
	struct sim_oracles o;
	char err[200];

	ck_assert_int_eq(sim_strategy_parse("pct:3", &st), 0);
	ck_assert_int_eq(st.kind, SIM_STRAT_PCT);
	ck_assert_uint_eq(st.param, 3);
	ck_assert_int_eq(sim_strategy_parse("dfs:0", &st), 0);
	ck_assert_int_eq(st.kind, SIM_STRAT_DFS);
	ck_assert_int_ne(sim_strategy_parse("pct:0", &st), 0);
	ck_assert_int_ne(sim_strategy_parse("dfs:2x", &st), 0);
	ck_assert_int_ne(sim_strategy_parse("bfs", &st), 0);
	ck_assert_int_eq(sim_oracle_parse("mutex,starve=2ms,overtake=5,share=0.5",
					  &o, err, sizeof(err)), 0);
	ck_assert_uint_eq(o.mask, SIM_ORACLE_MUTEX | SIM_ORACLE_STARVE |
			  SIM_ORACLE_OVERTAKE | SIM_ORACLE_SHARE);
	ck_assert_uint_eq(o.starve_ps, 2000000000ULL);
	ck_assert_uint_eq(o.overtake, 5);
	ck_assert_int_ne(sim_oracle_parse("share=1.5", &o, err, sizeof(err)), 0);
	ck_assert_int_ne(sim_oracle_parse("deadlok", &o, err, sizeof(err)), 0);
	ck_assert_int_ne(sim_oracle_parse("overtake=0", &o, err, sizeof(err)), 0);
}
END_TEST

/*
 * dfs on 2 tasks of 2 operations each, with cs=none and between=none, is
 * countable by hand.  An uncontended ww operation makes 3 hooks (cmpxchg
 * to lock, fetch_add on the data, xchg to unlock), each a branching point
 * while the other task's CPU may run.  dfs:0 has one free choice, which
 * task starts (2 schedules): that task runs its 6 hooks, then the other
 * runs alone.  dfs:1 adds, for each of the 2 first tasks, one preemption
 * before any of its 6 hooks (12 more); after it nothing is free again:
 * when a task blocks or exits the other is the only candidate.  2 + 12 =
 * 14 schedules, all distinct.
 */
static int dfs_count(unsigned int bound)
{
	static const char *const kv[] = { "threads=2", "ops=4", "cs=none",
					  "between=none", "strategy=dfs:0", NULL };
	struct sim_xctx *x = ctx(NULL, kv);
	struct sim_xres *res = calloc(1, sizeof(*res));
	struct sim_choice c[256];
	uint64_t seen[64];
	int len = 0, n = 0;

	x->st.param = bound;
	do {
		const struct sim_explore_log *l;

		sim_xrun(x, x->s.seed, c, len, NULL, res);
		ck_assert(!res->failed);
		l = sim_explore_log();
		ck_assert_int_le(l->len, 256);
		ck_assert_int_le(l->preemptions, (int)bound);
		memcpy(c, l->c, (size_t)l->len * sizeof(*c));
		len = l->len;
		for (int i = 0; i < n; i++)
			ck_assert_msg(seen[i] != res->fingerprint,
				      "schedule %d repeats schedule %d", n, i);
		ck_assert_int_lt(n, 64);
		seen[n++] = res->fingerprint;
	} while (sim_explore_dfs_next(c, &len, bound));
	free(res);
	free(x);
	return n;
}

START_TEST(test_dfs_exhaustive)
{
	ck_assert_int_eq(dfs_count(0), 2);
	ck_assert_int_eq(dfs_count(1), 14);
}
END_TEST

/* A run is a function of its seed, whatever ran before it here. */
START_TEST(test_inprocess_determinism)
{
	static const char *const kv[] = { "threads=3", "ops=12",
					  "strategy=random", NULL };
	struct sim_xctx *x = ctx(NULL, kv);
	struct sim_xres *res = calloc(1, sizeof(*res));
	uint64_t first, again;

	sim_xrun(x, 7, NULL, 0, NULL, res);
	first = res->fingerprint;
	for (uint64_t k = 0; k < 20; k++)
		sim_xrun(x, k, NULL, 0, NULL, res);
	sim_xrun(x, 7, NULL, 0, NULL, res);
	again = res->fingerprint;
	ck_assert_uint_eq(first, again);
	sim_xrun(x, 8, NULL, 0, NULL, res);
	ck_assert_uint_ne(first, res->fingerprint);
	free(res);
	free(x);
}
END_TEST

/* The catalogue: each bug found within a bound, its counterpart not. */
START_TEST(test_catalogue)
{
	static const char *const random_kv[] = { "strategy=random", NULL };
	static const char *const timed_kv[] = { "strategy=timed", NULL };
	static const struct {
		const char *bug, *ok, *oracle;
		const char *const *kv;
		int bound, ok_runs;
	} cat[] = {
		{ "lost-wakeup", "lost-wakeup-ok", "lost-wakeup", random_kv, 100, 300 },
		{ "racy-mutex", "lost-wakeup-ok", "mutex", random_kv, 50, 300 },
		{ "rw-writer-starved", "rw-writer-starved-ok", "overtake", random_kv, 5, 20 },
		{ "rw-writer-starved", "rw-writer-starved-ok", "overtake", timed_kv, 5, 20 },
		{ "qspin-noundo", "qspin-noundo-ok", "livelock", random_kv, 200, 300 },
		{ "tp-nohandoff-starve", "tp-nohandoff-starve-ok", "starve", timed_kv, 3, 10 },
	};
	char path[PATH_MAX];

	for (size_t i = 0; i < sizeof(cat) / sizeof(cat[0]); i++) {
		const char *oracle = NULL;
		struct sim_xctx *x;
		int n;

		snprintf(path, sizeof(path), BUGS "%s.scn", cat[i].bug);
		x = ctx(path, cat[i].kv);
		n = runs_to_hit(x, cat[i].bound, &oracle);
		ck_assert_msg(n <= cat[i].bound, "%s: no hit in %d runs",
			      cat[i].bug, cat[i].bound);
		ck_assert_str_eq(oracle, cat[i].oracle);
		free(x);
		snprintf(path, sizeof(path), BUGS "%s.scn", cat[i].ok);
		x = ctx(path, cat[i].kv);
		n = runs_to_hit(x, cat[i].ok_runs, &oracle);
		ck_assert_msg(n == cat[i].ok_runs + 1, "%s: %s fired in run %d",
			      cat[i].ok, oracle, n);
		free(x);
	}
}
END_TEST

/* No false livelock: user spin loops (the adaptive mutex spins in user
 * space) and kernel ones (qspinlock) under PCT, which would run a spinner
 * forever if the spin rule did not stop it.  And no false starvation:
 * timed TP rwlock waiters spin on a mutex owner (reading its owner word,
 * then the owner's on_cpu) and on readers for a time-bounded window;
 * when every CPU spins, the earliest clock runs.  A spin rule that
 * parked a CPU on its last load only, with the highest priority running
 * on, would leave a waiter parked on a handed-off mutex for as long as
 * the livelock bound (the rwtp scenario below would starve: waits of
 * some 150 ms under livelock=200ms, and no end with the default 10 s).
 * A loop that re-reads a line with no relax and no write is a spin too. */
START_TEST(test_spin_rule)
{
	static const char *const adaptive[] = { "threads=3", "ops=30",
		"lock=adaptive", "strategy=pct:3", "livelock=1ms", NULL };
	static const char *const kspin[] = { "workload=spin", "threads=3",
		"ops=30", "lock=qspinlock-generic", "strategy=pct:3",
		"livelock=1ms", NULL };
	static const char *const glibc[] = { "machine=tiny4",
		"workload=rwlock", "lock=rw-prefer-reader", "readers=3",
		"writers=2", "ops=100", "cs=pause:50", "strategy=pct:3",
		"seed=17", NULL };
	static const char *const rwtp[] = { "machine=tiny4",
		"workload=rwlock", "lock=rw-tp-timed", "readers=3",
		"writers=3", "ops=300", "cs=pause:200", "strategy=pct:3",
		"livelock=200ms", "oracle=mutex,deadlock,state,starve=1ms",
		NULL };
	const char *oracle = NULL;
	struct sim_xctx *x = ctx(NULL, adaptive);

	ck_assert_int_eq(runs_to_hit(x, 30, &oracle), 31);
	free(x);
	x = ctx(NULL, kspin);
	ck_assert_int_eq(runs_to_hit(x, 30, &oracle), 31);
	free(x);
	x = ctx(NULL, rwtp);
	ck_assert_msg(runs_to_hit(x, 5, &oracle) == 6, "%s fired", oracle);
	free(x);
	/* glibc's wrlock re-reads __readers and __writers_futex with no
	 * relax until the primary writer stores 1: a PCT run that let the
	 * looping writer run on would be cut at 2^25 choices (exit 2) */
	x = ctx(NULL, glibc);
	ck_assert_msg(runs_to_hit(x, 20, &oracle) == 21, "%s fired", oracle);
	free(x);
}
END_TEST

/* ---- the commands ---------------------------------------------------------- */

static char dir[PATH_MAX];

static int mkdir_tmp(void)
{
	const char *bin = getenv("FUTEXSIM");

	if (!bin || !*bin) {
		fprintf(stderr, "explore: FUTEXSIM is not set: test skipped\n");
		return 0;
	}
	strcpy(dir, "/tmp/futexsim-explore-XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(dir));
	return 1;
}

/* run_futexsim() with "futexsim" and @argv (NULL-terminated), copied to
 * static storage: the child's argv must outlive the caller's literal. */
static void fx(struct child_out *o, const char *const *argv)
{
	static const char *args[16];
	int n = 0;

	args[n++] = "futexsim";
	while (n < 15 && (args[n] = *argv++))
		n++;
	args[n] = NULL;
	run_futexsim(o, args);
}

static void rm_tmp(const char *const *names)
{
	char p[PATH_MAX + 64];

	for (; *names; names++) {
		snprintf(p, sizeof(p), "%s/%s", dir, *names);
		unlink(p);
	}
	rmdir(dir);
}

/* "shrink: WHAT: T threads, O ops, P preemptions, Z non-zero choices, L
 * branching points" into v[5]. */
static void shrink_size(const char *out, const char *what, long v[5])
{
	char pat[64];
	const char *p;

	snprintf(pat, sizeof(pat), "shrink: %s: ", what);
	p = strstr(out, pat);
	ck_assert_msg(p != NULL, "no '%s' line in: %s", pat, out);
	ck_assert_int_eq(sscanf(p + strlen(pat),
				"%ld threads, %ld ops, %ld preemptions, %ld non-zero choices, %ld branching",
				&v[0], &v[1], &v[2], &v[3], &v[4]), 5);
}

START_TEST(test_hit_replay_shrink)
{
	static struct child_out o;
	char file[PATH_MAX + 32], min[PATH_MAX + 32], out[PATH_MAX + 40];
	const char *scn = BUGS "lost-wakeup.scn";
	long before[5], after[5];
	int i;

	if (!mkdir_tmp())
		return;
	snprintf(file, sizeof(file), "%s/hit.replay", dir);
	snprintf(min, sizeof(min), "%s/min.replay", dir);
	snprintf(out, sizeof(out), "--out=%s", file);
	fx(&o, (const char *const[]){ "explore",
		scn, "--strategy=random", "--runs=200",
		out, NULL });
	ck_assert_msg(o.status == 3, "explore exited %d: %s", o.status, o.err);
	ck_assert_ptr_nonnull(strstr(o.out, "lost-wakeup fired in run"));
	/* the report's headline and the oracle agree (one diagnosis) */
	ck_assert_ptr_nonnull(strstr(o.err, "futexsim: DEADLOCK (lost wakeup): "));
	fx(&o, (const char *const[]){ "replay", file, NULL });
	ck_assert_int_eq(o.status, 3);
	ck_assert_ptr_null(strstr(o.err, "diverged"));

	snprintf(out, sizeof(out), "--out=%s", min);
	fx(&o, (const char *const[]){ "shrink", file, out, NULL });
	ck_assert_msg(o.status == 0, "shrink exited %d: %s", o.status, o.err);
	shrink_size(o.out, "before", before);
	shrink_size(o.out, "after", after);
	/* smaller in the order of the fields, the first that differs */
	for (i = 0; i < 5 && after[i] == before[i]; i++)
		;
	ck_assert_msg(i < 5 && after[i] < before[i], "shrink: %s", o.out);
	/* and no more preemptions than before, whatever the order */
	ck_assert_int_le(after[2], before[2]);
	fx(&o, (const char *const[]){ "replay", min, NULL });
	ck_assert_int_eq(o.status, 3);
	ck_assert_msg(strstr(o.err, "DEADLOCK (lost wakeup): ") != NULL,
		      "replay: %s", o.err);
	ck_assert_ptr_null(strstr(o.err, "diverged"));
	rm_tmp((const char *const[]){ "hit.replay", "min.replay", NULL });
}
END_TEST

/* One lock per search: the locks given, or the workload's default list,
 * in one line, exit 2. */
START_TEST(test_one_lock_per_search)
{
	static struct child_out o;

	if (!mkdir_tmp())
		return;
	fx(&o, (const char *const[]){ "explore", "--workload=spin", NULL });
	assert_one_line_error(&o, "--lock: expected one lock",
			      "got 'ticket,qspinlock-generic,qspinlock-x86 (workload spin's default)'");
	fx(&o, (const char *const[]){ "explore", "--lock=ww,tp", NULL });
	assert_one_line_error(&o, "--lock: expected one lock", "got 'ww,tp'");
	rmdir(dir);
}
END_TEST

/* A per-run output (trace, plot, lock-stat, record) is refused in one
 * line, exit 2, and writes nothing; the run without it explores. */
START_TEST(test_per_run_outputs_refused)
{
	static const char *const keys[] = { "trace", "plot", "lock-stat",
					    "record" };
	static const char *const names[] = { "out.txt", "out.svg", "out",
					     "out.replay" };
	static struct child_out o;
	static char arg[PATH_MAX + 32];

	if (!mkdir_tmp())
		return;
	for (int i = 0; i < 4; i++) {
		snprintf(arg, sizeof(arg), "--%s=%s/%s", keys[i], dir, names[i]);
		fx(&o, (const char *const[]){ "explore", "--runs=2", arg, NULL });
		assert_one_line_error(&o, "expected no per-run output in explore",
				      strchr(arg, '=') + 1);
		snprintf(arg, sizeof(arg), "%s/%s", dir, names[i]);
		ck_assert_int_ne(access(arg, F_OK), 0);
	}
	fx(&o, (const char *const[]){ "explore", "--runs=2", NULL });
	ck_assert_int_eq(o.status, 0);
	rmdir(dir);
}
END_TEST

/* Shards 0/3, 1/3, 2/3 merged cover exactly the runs of one search. */
START_TEST(test_shards)
{
	static struct child_out o;
	static const char *const names[] = { "all", "s0", "s1", "s2", NULL };
	char sum[4][PATH_MAX + 16], path[4][PATH_MAX], shard[16];
	char *one, *merged;
	const char *p, *q;

	if (!mkdir_tmp())
		return;
	for (int i = 0; i < 4; i++) {
		snprintf(path[i], sizeof(path[i]), "%.4000s/%s", dir, names[i]);
		snprintf(sum[i], sizeof(sum[i]), "--summary=%.4000s", path[i]);
		snprintf(shard, sizeof(shard), "--shard=%d/3", i - 1);
		fx(&o, (const char *const[]){ "explore",
			"--threads=3", "--ops=12", "--strategy=random",
			"--runs=40", sum[i], i ? shard : "--shard=0/1", NULL });
		ck_assert_msg(o.status == 0, "explore: %s", o.err);
	}
	fx(&o, (const char *const[]){ "merge", path[1],
						path[2], path[3], NULL });
	ck_assert_msg(o.status == 0, "merge: %s", o.err);
	one = slurp(path[0], NULL);
	merged = o.out;
	ck_assert_ptr_nonnull(strstr(one, "done 40\n"));
	ck_assert_ptr_nonnull(strstr(merged, "done 40\n"));
	ck_assert_ptr_nonnull(strstr(merged, "shard all/3\n"));
	/* everything from "done" on is the same */
	p = strstr(one, "done ");
	q = strstr(merged, "done ");
	ck_assert_str_eq(p, q);
	free(one);
	/* a shard given twice is bad input */
	fx(&o, (const char *const[]){ "merge", path[1],
						path[1], NULL });
	ck_assert_int_eq(o.status, 2);
	rm_tmp((const char *const[]){ "all", "s0", "s1", "s2", NULL });
}
END_TEST

Suite *explore_suite(void)
{
	return one_case_suite("explore", 300, (const TTest *const[]){
		test_parse, test_dfs_exhaustive, test_inprocess_determinism,
		test_catalogue, test_spin_rule, test_hit_replay_shrink,
		test_one_lock_per_search, test_per_run_outputs_refused, test_shards, NULL });
}

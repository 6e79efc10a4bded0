/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tests/test_glibc.c - the glibc locks (workloads/ulock/adaptive.c,
 * rwlock.c) and workload=rwlock: exclusion over many seeds, each rwlock
 * kind's preference in small crafted scenarios, the adaptive mutex's spin
 * budget and __spins average against docs/studies/adaptive-2018.md, the TP rwlock's
 * handoff trigger (futex/tp_shared.c: tp-handoff=off, 5 ms whatever
 * tp-policy) and its two groups' progress in the 2017 RFC's run (3), and
 * the negative controls (a broken rwlock, the recursive-read deadlock)
 * through the futexsim binary.
 *
 * Stage: tests.  Each START_TEST runs in its own process (Check forks), so
 * each boots its own machine; the crafted scenarios create their tasks
 * themselves and call the locks' ops tables directly.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "futex/tp.h"
#include "sim/host/arena.h"
#include "sim/machine/machine.h"
#include "sim/scenario/preset.h"
#include "sim/scenario/scenario.h"
#include "tests/run_child.h"
#include "workloads/ulock/adaptive.h"
#include "workloads/ulock/rwlock.h"
#include "workloads/workload.h"

static struct sim_preset preset;
static struct sim_scenario scn;
static struct sim_result res;

static void boot(int cpus, uint64_t seed)
{
	sim_preset_defaults(&preset);
	preset.sockets = 1;
	preset.threads_per_core = 1;
	preset.cores_per_socket = cpus;
	setenv("FUTEXSIM_CHECK_STATE", "1", 1);	/* and the rwlock's check */
	sim_machine_init(&preset, cpus, seed);
}

/* ---- exclusion over many seeds, 16 CPUs ------------------------------- */

#define SEEDS	10

static const struct {
	const char *workload, *lock;
	int adaptive;
} excl[] = {
	{ "rwlock", "rw-prefer-reader", 0 },
	{ "rwlock", "rw-prefer-writer", 0 },
	{ "rwlock", "rw-prefer-writer-nr", 0 },
	{ "mutex", "adaptive", ULOCK_ADAPTIVE_PRE2018 },
	{ "mutex", "adaptive", ULOCK_ADAPTIVE_SEED2018 },
	{ "mutex", "adaptive", ULOCK_ADAPTIVE_GLIBC235 },
	{ "mutex", "adaptive", ULOCK_ADAPTIVE_GLIBC236 },
	{ "mutex", "rw-prefer-writer-nr", 0 },	/* its write side alone */
};

/* _i: lock (excl[]) x seed.  Odd seeds: 8 readers + 8 writers; even
 * seeds: 24 threads mixing 70% reads; the mutexes: 24 threads. */
START_TEST(test_every_glibc_lock_excludes_over_many_seeds_on_16_cpus)
{
	int k = _i / SEEDS, seed = _i % SEEDS + 1;
	const struct wl_workload *w = wl_find(excl[k].workload);

	sim_scenario_defaults(&scn);
	scn.threads = 24;
	scn.read_ratio = 70;
	if (w->rwlocks && seed % 2) {
		scn.readers = scn.writers = 8;
		scn.readers_at = scn.writers_at = (struct sim_origin){ "test", 1 };
		scn.threads = 16;
	}
	scn.cpus = 16;
	scn.ops = 4800;
	scn.seed = seed;
	scn.cs = (struct sim_work){ .kind = SIM_WORK_PAUSE, .n = 20 };
	scn.adaptive = excl[k].adaptive;
	scn.spin_count = seed % 3 ? 100 : 1000;
	boot(16, seed);
	w->run(&scn, ulock_find(excl[k].lock), &res);
	ck_assert_uint_eq(res.ops, 4800);
	if (!w->rwlocks)
		return;
	ck_assert_int_eq(res.groups_counted, 1);
	ck_assert_uint_eq(res.ops_readers + res.ops_writers, 4800);
	ck_assert_uint_eq(res.ops_readers, seed % 2 ? 2400 : 4800 * 70 / 100);
	ck_assert_msg(res.readers_max >= 2, "%s seed %d: readers never shared",
		      excl[k].lock, seed);
}
END_TEST

/* ---- crafted preference scenarios ---------------------------------------- */

static const struct ulock_ops *rwl;
static void *word;
static uint64_t when_ps[3];	/* when each task got the lock		*/

#define US(n)	((uint64_t)(n) * 1000000)

static void rd_task(void *arg)
{
	struct ulock_stats st = { 0 };
	int i = (int)(long)arg;
	uint64_t start[3] = { 0, US(5), US(10) }, hold[3] = { US(20), 0, 0 };

	sim_delay_ps(start[i] + 1);
	rwl->rw->rdlock(word, &st);
	when_ps[i] = sim_now_ps();
	sim_delay_ps(hold[i] + 1);
	rwl->rw->rdunlock(word, &st);
}

static void wr_task(void *arg)
{
	struct ulock_stats st = { 0 };
	int i = (int)(long)arg;
	uint64_t start[3] = { 0, US(5), US(10) }, hold[3] = { US(20), 0, 0 };

	sim_delay_ps(start[i] + 1);
	rwl->lock(word, &st);
	when_ps[i] = sim_now_ps();
	sim_delay_ps(hold[i] + 1);
	rwl->unlock(word, &st);
}

static const char *const kinds[] = {
	"rw-prefer-reader", "rw-prefer-writer", "rw-prefer-writer-nr",
};

static void start_rw(int kind)
{
	boot(4, 1);
	rwl = ulock_find(kinds[kind]);
	word = sim_arena_alloc(rwl->size, 64);
	rwl->init(word);
	memset(when_ps, 0, sizeof(when_ps));
}

/*
 * Reader A holds the lock 0-20 us; writer W asks at 5 us; reader B asks at
 * 10 us.  A reader passes the waiting writer (B before W) unless the kind
 * is nonrecursive, which stops new readers while a writer waits (#4a).
 */
START_TEST(test_rwlock_kinds_let_a_new_reader_pass_a_waiting_writer_or_not)
{
	const struct ulock_rwlock *rw;

	start_rw(_i);
	sim_task_create("A", rd_task, (void *)0L, 0);
	sim_task_create("W", wr_task, (void *)1L, 1);
	sim_task_create("B", rd_task, (void *)2L, 2);
	sim_run();
	ck_assert_uint_lt(when_ps[0], US(1));
	ck_assert_uint_gt(when_ps[1], US(20));	/* W waited for A */
	if (_i == 2)
		ck_assert_uint_gt(when_ps[2], when_ps[1]);	/* B after W */
	else
		ck_assert_uint_lt(when_ps[2], US(11));	/* B at once */
	rw = word;
	ck_assert_uint_eq(rw->readers & ~ULOCK_RW_WRPHASE, 0);	/* idle */
	ck_assert_uint_eq(rw->writers, 0);
	ck_assert_int_eq(rw->held_readers + rw->held_writer, 0);
}
END_TEST

/*
 * Writer W0 holds the lock 0-20 us; reader R asks at 5 us (waits in #8);
 * writer W2 asks at 10 us.  prefer-reader hands the phase to the reader
 * (R before W2); both prefer-writer kinds hand WL to the waiting writer
 * (W2 before R).
 */
START_TEST(test_rwlock_kinds_hand_a_write_unlock_to_a_writer_or_to_readers)
{
	start_rw(_i);
	sim_task_create("W0", wr_task, (void *)0L, 0);
	sim_task_create("R", rd_task, (void *)1L, 1);
	sim_task_create("W2", wr_task, (void *)2L, 2);
	sim_run();
	ck_assert_uint_gt(when_ps[1], US(20));
	ck_assert_uint_gt(when_ps[2], US(20));
	if (_i == 0)
		ck_assert_uint_lt(when_ps[1], when_ps[2]);
	else
		ck_assert_uint_lt(when_ps[2], when_ps[1]);
}
END_TEST

/* ---- the TP rwlock's handoff trigger (futex/tp_shared.c) ---------------- */

static struct ulock_stats tst[2];	/* the writer's, the reader's	*/

/* The writer: write lock at once, hold it @arg ps on its CPU. */
static void tp_writer(void *arg)
{
	sim_delay_ps(1);
	rwl->lock(word, &tst[0]);
	sim_delay_ps((uint64_t)(long)arg);
	rwl->unlock(word, &tst[0]);
}

/* The reader: at 1 us, FUTEX_TP_LOCK_SHARED; it is the top waiter. */
static void tp_reader(void *arg)
{
	(void)arg;
	sim_delay_ps(US(1));
	rwl->rw->rdlock(word, &tst[1]);
	when_ps[1] = sim_now_ps();
	rwl->rw->rdunlock(word, &tst[1]);
}

static const struct {
	int policy, handoff;
	uint64_t hold;
	int handed;		/* the reader is handed the word */
} trig[] = {
	{ TP_POLICY_V2, 1, US(8000), 1 },	/* 5 ms as top waiter	*/
	{ TP_POLICY_V6, 1, US(8000), 1 },
	{ TP_POLICY_V2, 0, US(8000), 0 },	/* tp-handoff=off	*/
	{ TP_POLICY_V6, 0, US(8000), 0 },
	{ TP_POLICY_V2, 1, US(3000), 0 },	/* v2's 8192 spins do not
						 * apply to a reader	*/
	{ TP_POLICY_V6, 1, US(3000), 0 },
};

/*
 * A writer holds rw-tp for 8 ms (or 3 ms) and runs; a reader waits as the
 * top waiter, spinning.  It asks for a handoff 5 ms after it became the
 * top waiter under either tp-policy, so the writer's unlock enters the
 * kernel and writes the reader's TID; with tp-handoff=off, or a hold
 * shorter than 5 ms, the unlock stays in user space and the reader takes
 * the free word.
 */
START_TEST(test_rw_tp_reader_handoff_follows_tp_handoff_and_waits_5ms)
{
	boot(4, 1);
	ksim_futex_tp_configure(trig[_i].policy, trig[_i].handoff, TP_MUTEX_61);
	rwl = ulock_find("rw-tp");
	word = sim_arena_alloc(rwl->size, 64);
	rwl->init(word);
	memset(tst, 0, sizeof(tst));
	when_ps[1] = 0;
	sim_task_create("W", tp_writer, (void *)(long)trig[_i].hold, 0);
	sim_task_create("R", tp_reader, NULL, 1);
	sim_run();
	ck_assert_uint_eq(tst[0].lock_syscalls, 0);
	ck_assert_uint_eq(tst[1].lock_syscalls, 1);
	ck_assert_uint_eq(tst[1].handoffs, trig[_i].handed);
	ck_assert_uint_eq(tst[1].top_waiter, !trig[_i].handed);
	ck_assert_uint_eq(tst[0].unlock_syscalls, trig[_i].handed);
	ck_assert_uint_ge(when_ps[1], trig[_i].hold);
	ck_assert_uint_lt(when_ps[1], trig[_i].hold + US(20));
	ck_assert_uint_eq(*(uint32_t *)word, 0);
}
END_TEST

/* ---- the adaptive mutex's counters --------------------------------------- */

#define ROUNDS	4
static struct ulock_stats cst[ROUNDS];	/* the contender's, per round	*/
static uint32_t spins_after[ROUNDS];	/* __spins after each round	*/

/* Round k: lock at 1 ms * k, hold 500 us (the contender spins out). */
static void holder(void *arg)
{
	struct ulock_stats st = { 0 };

	for (int k = 0; k < ROUNDS; k++) {
		sim_delay_ps(US(1000) * k + 1 > sim_now_ps() ?
			     US(1000) * k + 1 - sim_now_ps() : 1);
		ulock_adaptive_ops.lock(word, &st);
		sim_delay_ps(US(500));
		ulock_adaptive_ops.unlock(word, &st);
	}
}

/* Round k: try at 1 ms * k + 10 us, while the holder holds it. */
static void contender(void *arg)
{
	for (int k = 0; k < ROUNDS; k++) {
		sim_delay_ps(US(1000) * k + US(10) - sim_now_ps());
		ulock_adaptive_ops.lock(word, &cst[k]);
		spins_after[k] = ((struct ulock_adaptive_mutex *)word)->spins;
		ulock_adaptive_ops.unlock(word, &cst[k]);
	}
}

static void run_adaptive(int variant, unsigned int spin_count)
{
	boot(4, 3);
	ulock_tunables.adaptive = variant;
	ulock_tunables.spin_count = spin_count;
	word = sim_arena_alloc(ulock_adaptive_ops.size, 64);
	ulock_adaptive_ops.init(word);
	memset(cst, 0, sizeof(cst));
	sim_task_create("holder", holder, NULL, 0);
	sim_task_create("contender", contender, NULL, 1);
	sim_run();
}

/* pre2018 and glibc235: PAUSE max_cnt times, give up at cnt = max_cnt + 1,
 * max_cnt = MIN(spin_count, 2 * spins + 10); spins += (cnt - spins) / 8. */
START_TEST(test_adaptive_cas_loops_spin_their_budget_and_average_it)
{
	int variant = _i ? ULOCK_ADAPTIVE_GLIBC235 : ULOCK_ADAPTIVE_PRE2018;
	int spins = 0, max_cnt;

	run_adaptive(variant, 100);
	for (int k = 0; k < ROUNDS; k++) {
		max_cnt = 2 * spins + 10 < 100 ? 2 * spins + 10 : 100;
		ck_assert_int_eq(ulock_adaptive_max_cnt(variant, 100, spins), max_cnt);
		ck_assert_uint_eq(cst[k].spins, max_cnt);
		ck_assert_uint_eq(cst[k].spin_giveups, 1);
		ck_assert_uint_ge(cst[k].lock_syscalls, 1);	/* it slept */
		spins += (max_cnt + 1 - spins) / 8;
		ck_assert_uint_eq(spins_after[k], spins);
	}
	ck_assert_int_eq(spins, 4);	/* 0 -> 1 -> 2 -> 3 -> 4 */
}
END_TEST

/* seed2018: max_cnt = MIN(spin_count, 2 * spins + 100); the read-only
 * loop ends at cnt = max_cnt; the capped case with spin-count 10 too. */
START_TEST(test_adaptive_seed2018_spins_read_only_then_sleeps)
{
	unsigned int cap = _i ? 10 : 1000;
	int spins = 0, max_cnt;

	run_adaptive(ULOCK_ADAPTIVE_SEED2018, cap);
	for (int k = 0; k < ROUNDS; k++) {
		max_cnt = 2 * spins + 100 < (int)cap ? 2 * spins + 100 : (int)cap;
		ck_assert_uint_eq(cst[k].spins, max_cnt);
		ck_assert_uint_eq(cst[k].spin_giveups, 1);
		spins += (max_cnt - spins) / 8;
		ck_assert_uint_eq(spins_after[k], spins);
	}
	ck_assert_int_eq(spins, cap == 10 ? 3 : 58);	/* 12, 26, 41, 58 */
}
END_TEST

/* glibc236: rounds of backoff + (jitter & (backoff - 1)) PAUSEs, backoff
 * 1, 2, 4, ...; with max_cnt 10 the third round (cnt 7 to 11) or the
 * fourth gives up: 3 to 9 PAUSEs, and cnt / 8 = 1 or 2 into __spins. */
START_TEST(test_adaptive_glibc236_backs_off_with_jitter)
{
	run_adaptive(ULOCK_ADAPTIVE_GLIBC236, 100);
	ck_assert_uint_ge(cst[0].spins, 3);
	ck_assert_uint_le(cst[0].spins, 9);
	ck_assert_uint_eq(cst[0].spin_giveups, 1);
	ck_assert_uint_ge(spins_after[0], 1);
	ck_assert_uint_le(spins_after[0], 2);
}
END_TEST

START_TEST(test_adaptive_uncontended_never_spins)
{
	sim_scenario_defaults(&scn);
	scn.threads = 1;
	scn.cpus = 4;
	scn.ops = 1000;
	scn.adaptive = _i;
	boot(4, 1);
	wl_mutex.run(&scn, &ulock_adaptive_ops, &res);
	ck_assert_uint_eq(res.ops, 1000);
	ck_assert_uint_eq(res.spins, 0);
	ck_assert_uint_eq(res.spin_giveups, 0);
	ck_assert_uint_eq(res.lock_syscalls, 0);
}
END_TEST

/* ---- through the binary ------------------------------------------------- */

static struct child_out co;

START_TEST(test_recursive_read_deadlocks_only_the_nonrecursive_kind)
{
	const char *argv[] = { "futexsim", "run", "--machine=tiny4",
		"--workload=rwlock", "--readers=3", "--writers=1", "--ops=4000",
		"--read-depth=2", "--lock=rw-prefer-writer-nr", NULL };

	if (!run_futexsim(&co, argv))
		return;
	ck_assert_int_eq(co.status, 3);
	ck_assert_ptr_nonnull(strstr(co.err, "DEADLOCK"));
	ck_assert_ptr_nonnull(strstr(co.err, "rw_rdlock"));
	argv[8] = "--lock=rw-prefer-reader,rw-prefer-writer";
	run_futexsim(&co, argv);
	ck_assert_msg(co.status == 0, "status %d: %s", co.status, co.err);
}
END_TEST

/* Same scenario and seed, same report: the rwlock workload and the
 * jittered backoff of glibc236 (its PRNG draws) included. */
START_TEST(test_glibc_runs_are_deterministic)
{
	static char first[CHILD_OUT_MAX];
	const char *rw[] = { "futexsim", "run", "--machine=tiny4",
		"--workload=rwlock", "--threads=6", "--ops=3000", "--seed=9", NULL };
	const char *ad[] = { "futexsim", "run", "--machine=tiny4",
		"--lock=adaptive", "--adaptive=glibc236", "--threads=6",
		"--ops=3000", "--seed=9", NULL };
	const char *const *argv[] = { rw, ad };

	for (int k = 0; k < 2; k++) {
		if (!run_futexsim(&co, argv[k]))
			return;
		ck_assert_int_eq(co.status, 0);
		memcpy(first, co.out, sizeof(first));
		run_futexsim(&co, argv[k]);
		ck_assert_int_eq(co.status, 0);
		ck_assert_str_eq(co.out, first);
	}
	ck_assert_ptr_nonnull(strstr(co.out, "adaptive = glibc236"));
}
END_TEST

START_TEST(test_broken_rwlock_fails_the_harness)
{
	const char *argv[] = { "futexsim", "run", "--machine=tiny4",
		"--workload=rwlock", "--threads=4", "--ops=4000",
		"--lock=rw-busted", NULL };

	if (!run_futexsim(&co, argv))
		return;
	ck_assert_int_eq(co.status, 3);
	ck_assert_ptr_nonnull(strstr(co.err, "mutual exclusion violated"));
}
END_TEST

/*
 * Run futexsim with @argv, whose --json names the file @json (json_arg());
 * it must succeed.  The first ops_by_group of the JSON into @rd, @wr; the
 * file is removed.  Return: 0 if there is no futexsim to run (skipped).
 */
static int run_groups(const char *const *argv, const char *json,
		      unsigned long *rd, unsigned long *wr)
{
	char *doc, *p;

	if (!run_futexsim(&co, argv)) {
		unlink(json);
		return 0;
	}
	ck_assert_msg(co.status == 0, "%s", co.err);
	doc = slurp(json, NULL);
	unlink(json);
	p = strstr(doc, "\"ops_by_group\":");
	ck_assert_ptr_nonnull(p);
	ck_assert_int_eq(sscanf(p, "\"ops_by_group\":{\"readers\":%lu,"
				"\"writers\":%lu}", rd, wr), 2);
	free(doc);
	return 1;
}

/*
 * json_arg - create the temporary file named by the template @json
 * ("...XXXXXX", rewritten) and put "--json=FILE" in @arg.
 */
static void json_arg(char *json, char *arg, size_t len)
{
	int fd = mkstemp(json);

	ck_assert_int_ge(fd, 0);
	close(fd);
	snprintf(arg, len, "--json=%s", json);
}

/*
 * rw-tp with N readers + N writers and nothing between operations (the
 * 2017 RFC's run (3)), N = 2 and 4, in a timing where a top waiter loses
 * the race for the free word at every look (gold6148-2s with issue-time
 * line handover, free ticks, 10% cost jitter): both groups progress.  A
 * reader top waiter that went back to a fresh load after each lost race
 * would never reach its handoff check and keep the readers out (a few
 * reads in 20 ms); a writer waiting on a relocking reader would do the
 * same the other way.
 */
START_TEST(test_rw_tp_top_waiter_losing_races_still_gets_a_handoff)
{
	char json[] = "/tmp/futexsim-rwtp-XXXXXX", arg[64];
	/* a machine in which the race happens at every look: issue-time
	 * hand-over, free ticks */
	const char *argv[] = { "futexsim", "run", "--machine=gold6148-2s",
		"--machine-set=line-handover=issue,tick-cost=0ns",
		"--workload=rwlock", "--lock=rw-tp",
		_i ? "--readers=4" : "--readers=2",
		_i ? "--writers=4" : "--writers=2", "--cs=loop:10",
		"--between=none", "--duration=20ms", "--cost-jitter=10",
		"--tp-policy=v6", arg, NULL };
	unsigned long rd, wr;

	json_arg(json, arg, sizeof(arg));
	if (!run_groups(argv, json, &rd, &wr))
		return;
	ck_assert_uint_ge(rd, 10000);
	ck_assert_uint_ge(wr, 10000);
}
END_TEST

/*
 * Why prefer-writer-nr starves its readers completely with nothing
 * between operations (the 2017 tables at every N): a write unlock hands
 * WL to a registered writer (WRHANDOVER), and with three writers one is
 * always registered, so the write phase never ends and the readers keep
 * only the operations of the first read phase.  One writer leaves
 * __writers at 0 at its unlocks: the readers get read phases.
 */
START_TEST(test_prefer_writer_nr_write_phase_never_ends_with_writers_queued)
{
	char json[] = "/tmp/futexsim-pwnr-XXXXXX", arg[64];
	const char *argv[] = { "futexsim", "run", "--machine=tiny4",
		"--workload=rwlock", "--lock=rw-prefer-writer-nr",
		"--readers=3", _i ? "--writers=3" : "--writers=1",
		"--cs=loop:10", "--between=none", "--duration=2ms", arg, NULL };
	unsigned long rd, wr;

	json_arg(json, arg, sizeof(arg));
	if (!run_groups(argv, json, &rd, &wr))
		return;
	ck_assert_uint_ge(wr, 1000);
	if (_i)
		ck_assert_uint_le(rd, 2 * 3);	/* the first phase only */
	else
		ck_assert_uint_ge(rd, 1000);
}
END_TEST

START_TEST(test_rwlock_json_has_ops_by_group_and_keys_are_checked)
{
	char json[] = "/tmp/futexsim-glibc-XXXXXX", arg[64], *doc;
	const char *argv[] = { "futexsim", "run", "--workload=rwlock",
		"--readers=2", "--writers=1", "--ops=900", "--cs=loop:30", arg,
		NULL };
	const char *bad[] = { "futexsim", "run", "--workload=mutex",
		"--readers=2", NULL };
	const char *bad_roles[] = { "futexsim", "run", "--workload=rwlock",
		"--roles=split", NULL };

	json_arg(json, arg, sizeof(arg));
	if (!run_futexsim(&co, argv))
		return;
	ck_assert_msg(co.status == 0, "%s", co.err);
	ck_assert_ptr_nonnull(strstr(co.out, "cs = loop:30"));
	doc = slurp(json, NULL);
	unlink(json);
	ck_assert_ptr_nonnull(strstr(doc, "\"readers\":2,\"writers\":1,\"roles\":\"alternate\""));
	ck_assert_ptr_nonnull(strstr(doc, "\"ops_by_group\":{\"readers\":600,\"writers\":300}"));
	free(doc);
	run_futexsim(&co, bad);
	assert_one_line_error(&co, "--readers", "workload rwlock");
	run_futexsim(&co, bad_roles);
	assert_one_line_error(&co, "--roles", "readers and writers keys");
	bad_roles[3] = "--roles=readers-first";
	run_futexsim(&co, bad_roles);
	assert_one_line_error(&co, "--roles", "alternate or split", "readers-first");
}
END_TEST

/*
 * roles=split lays the readers out first (perf bench futex rwlock -x:
 * thread ids below the reader count read), roles=alternate deals reader,
 * writer, reader ...  Seen in a futex trace of rw-tp: only readers call
 * FUTEX_TP_(UN)LOCK_SHARED, only writers FUTEX_TP_(UN)LOCK.  _i: 0
 * alternate (readers rw0, rw2), 1 split (readers rw0, rw1).
 */
START_TEST(test_rwlock_roles_put_the_readers_where_asked)
{
	char trace[] = "/tmp/futexsim-roles-XXXXXX.txt", arg[64], *doc, *line;
	const char *argv[] = { "futexsim", "run", "--workload=rwlock",
		"--lock=rw-tp", "--readers=2", "--writers=2", "--ops=4000",
		"--cs=pause:20", "--between=none", "--trace-events=futex",
		_i ? "--roles=split" : "--roles=alternate", arg, NULL };
	const char *readers = _i ? "01" : "02";
	int seen[2] = { 0, 0 };	/* shared ops, exclusive ops */
	int fd = mkstemps(trace, 4), ran;

	ck_assert_int_ge(fd, 0);
	close(fd);
	snprintf(arg, sizeof(arg), "--trace=%s", trace);
	ran = run_futexsim(&co, argv);
	doc = ran && co.status == 0 ? slurp(trace, NULL) : NULL;
	unlink(trace);
	if (!ran)
		return;
	ck_assert_msg(co.status == 0, "%s", co.err);
	for (line = strtok(doc, "\n"); line; line = strtok(NULL, "\n")) {
		const char *task = strstr(line, " rw"), *op = strstr(line, "op=FUTEX_TP_");
		int shared;

		if (line[0] == '#' || !task || !op)
			continue;
		shared = strstr(op, "SHARED") != NULL;
		ck_assert_msg(!strchr(readers, task[3]) == !shared,
			      "%s: a %s op by a %s", line, shared ? "shared" : "exclusive",
			      shared ? "writer" : "reader");
		seen[!shared]++;
	}
	free(doc);
	ck_assert_int_gt(seen[0], 0);
	ck_assert_int_gt(seen[1], 0);
	if (_i)
		ck_assert_ptr_nonnull(strstr(co.out, "roles = split"));
	else
		ck_assert_ptr_null(strstr(co.out, "roles ="));	/* the default */
}
END_TEST

Suite *glibc_suite(void)
{
	Suite *s = suite_create("glibc");
	TCase *tc = tcase_create("glibc");
	int nr_excl = (int)(sizeof(excl) / sizeof(excl[0]));

	tcase_set_timeout(tc, 300);
	tcase_add_loop_test(tc, test_every_glibc_lock_excludes_over_many_seeds_on_16_cpus,
			    0, nr_excl * SEEDS);
	tcase_add_loop_test(tc, test_rwlock_kinds_let_a_new_reader_pass_a_waiting_writer_or_not, 0, 3);
	tcase_add_loop_test(tc, test_rwlock_kinds_hand_a_write_unlock_to_a_writer_or_to_readers, 0, 3);
	tcase_add_loop_test(tc, test_adaptive_cas_loops_spin_their_budget_and_average_it, 0, 2);
	tcase_add_loop_test(tc, test_adaptive_seed2018_spins_read_only_then_sleeps, 0, 2);
	tcase_add_test(tc, test_adaptive_glibc236_backs_off_with_jitter);
	tcase_add_loop_test(tc, test_adaptive_uncontended_never_spins, 0, 4);
	tcase_add_loop_test(tc, test_rw_tp_reader_handoff_follows_tp_handoff_and_waits_5ms,
			    0, (int)(sizeof(trig) / sizeof(trig[0])));
	tcase_add_test(tc, test_recursive_read_deadlocks_only_the_nonrecursive_kind);
	tcase_add_test(tc, test_glibc_runs_are_deterministic);
	tcase_add_test(tc, test_broken_rwlock_fails_the_harness);
	tcase_add_test(tc, test_rwlock_json_has_ops_by_group_and_keys_are_checked);
	tcase_add_loop_test(tc, test_rwlock_roles_put_the_readers_where_asked, 0, 2);
	suite_add_tcase(s, tc);
	/* what one timing shows (a top waiter that loses every race, a
	 * write phase that never ends): the normal build's; an instrumented
	 * kernel's timing is another (mk/check-instr.sh leaves them out) */
	tc = tcase_create("glibc-timing");
	tcase_set_tags(tc, "timing");
	tcase_set_timeout(tc, 300);
	tcase_add_loop_test(tc, test_rw_tp_top_waiter_losing_races_still_gets_a_handoff, 0, 2);
	tcase_add_loop_test(tc, test_prefer_writer_nr_write_phase_never_ends_with_writers_queued, 0, 2);
	suite_add_tcase(s, tc);
	return s;
}

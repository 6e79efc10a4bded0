/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tests/test_pi.c - PI futexes: the pi user lock (workloads/ulock/pi.c)
 * through the mutex workload, and FUTEX_LOCK_PI, FUTEX_TRYLOCK_PI and
 * FUTEX_UNLOCK_PI called directly, all on the real kernel/futex/pi.c and
 * the real rtmutex (kernel/locking/rtmutex_api.c).
 *
 * Stage: tests.  Boots a small machine per test (Check forks per test)
 * and runs the workload driver in-process, or its own tasks that call
 * futex(2) (sim/syscall/syscall.h); the report test runs the futexsim binary.
 *
 * The pi lock is driven through a checking wrapper: after every lock it
 * reads the word with a plain load (no scheduling point, so nothing can
 * have changed it since the lock's last hooked access) and checks that
 * the word names the caller, and it classifies the acquisition as fast
 * (no FUTEX_LOCK_PI made) or kernel (FUTEX_LOCK_PI made).  A fast
 * acquisition must have left exactly the caller's TID: the uncontended
 * cmpxchg 0 -> TID.  A kernel acquisition must have made exactly one
 * FUTEX_LOCK_PI (no error, no retry).
 */
#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/futex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "sim/host/arena.h"
#include "sim/machine/machine.h"
#include "sim/scenario/preset.h"
#include "sim/scenario/scenario.h"
#include "sim/syscall/syscall.h"
#include "workloads/ulock/uatomic.h"
#include "workloads/workload.h"
#include "tests/checked_lock.h"
#include "tests/run_child.h"

static struct sim_scenario scn;
static struct sim_result res;

/* The mutex workload with the checked pi lock. */
static void run_pi(int cpus, int threads, uint64_t ops, uint64_t seed)
{
	sim_scenario_defaults(&scn);
	checked_run(&ulock_pi_ops, FUTEX_TID_MASK, &scn, cpus, threads, ops,
		    seed, &res);
}

START_TEST(test_pi_32_threads_on_8_cpus_complete_every_operation)
{
	run_pi(8, 32, 6400, (uint64_t)_i + 1);
	ck_assert_uint_eq(res.ops, 6400);
	ck_assert_uint_eq(res.ops_thread_min, 200);
	ck_assert_uint_eq(res.ops_thread_max, 200);
	ck_assert_uint_eq(chk.fast + chk.kernel, 6400);
	ck_assert_uint_eq(chk.errors, 0);
	ck_assert_uint_eq(chk.bad_word, 0);
	/* every contended acquisition: exactly one FUTEX_LOCK_PI */
	ck_assert_uint_eq(chk.bad_calls, 0);
	ck_assert_uint_eq(res.lock_syscalls, chk.kernel);
	/* contended: the rtmutex handed the lock over, so each kernel
	 * acquisition but the first ones was paired with an unlock call */
	ck_assert_uint_gt(chk.kernel, 6400 * 9 / 10);
	ck_assert_uint_gt(res.unlock_syscalls, 6400 * 9 / 10);
	ck_assert_uint_le(res.unlock_syscalls, res.lock_syscalls + 1);
	ck_assert_uint_gt(res.sys_ns, 0);
	ck_assert_ptr_nonnull(chk.word);
	ck_assert_uint_eq(*chk.word, 0);	/* the word ends 0 */
}
END_TEST

START_TEST(test_pi_same_seed_gives_same_figures)
{
	checked_same_figures(run_pi, &res);
}
END_TEST

/* ---- the PI futex ops, called directly ---- */

static struct {
	uint32_t *word;			/* simulated memory		*/
	uint32_t *phase;		/* simulated memory		*/
	long lock_ret, relock_ret, trylock_busy, trylock_free;
	long unlock_by_other, unlock_by_owner, final_unlock;
	uint32_t word_after_busy, word_after_unlock, word_after_trylock;
	uint32_t owner_tid, other_tid;
} d;

static long futex(int op)
{
	return sim_sys_futex(d.word, op, 0, NULL, NULL, 0);
}

/* A takes the word in the kernel, B fails to trylock it (which sets
 * FUTEX_WAITERS and attaches a pi_state) and may not unlock it; A's
 * unlock then goes through the kernel and frees the word, which B's
 * trylock now takes. */
static void task_a(void *arg)
{
	d.owner_tid = my_tid();
	d.lock_ret = futex(FUTEX_LOCK_PI_PRIVATE);	/* word 0: taken */
	d.relock_ret = futex(FUTEX_LOCK_PI_PRIVATE);	/* own: EDEADLK  */
	uatomic_store(d.phase, 1);
	wait_phase_is(d.phase, 2);
	d.unlock_by_owner = futex(FUTEX_UNLOCK_PI_PRIVATE);
	d.word_after_unlock = uatomic_load(d.word);
	uatomic_store(d.phase, 3);
}

static void task_b(void *arg)
{
	d.other_tid = my_tid();
	wait_phase_is(d.phase, 1);
	d.trylock_busy = futex(FUTEX_TRYLOCK_PI_PRIVATE);
	d.word_after_busy = uatomic_load(d.word);
	d.unlock_by_other = futex(FUTEX_UNLOCK_PI_PRIVATE);
	uatomic_store(d.phase, 2);
	wait_phase_is(d.phase, 3);
	d.trylock_free = futex(FUTEX_TRYLOCK_PI_PRIVATE);
	d.word_after_trylock = uatomic_load(d.word);
	d.final_unlock = futex(FUTEX_UNLOCK_PI_PRIVATE);
}

START_TEST(test_futex_lock_trylock_unlock_pi_semantics)
{
	boot_word_and_phase(2, &d.word, &d.phase);
	sim_task_create("a", task_a, NULL, 0);
	sim_task_create("b", task_b, NULL, 1);
	sim_run();
	ck_assert_int_eq(d.lock_ret, 0);
	ck_assert_int_eq(d.relock_ret, -EDEADLK);
	ck_assert_int_eq(d.trylock_busy, -EWOULDBLOCK);
	ck_assert_uint_eq(d.word_after_busy, d.owner_tid | FUTEX_WAITERS);
	ck_assert_int_eq(d.unlock_by_other, -EPERM);
	ck_assert_int_eq(d.unlock_by_owner, 0);
	ck_assert_uint_eq(d.word_after_unlock, 0);
	ck_assert_int_eq(d.trylock_free, 0);
	ck_assert_uint_eq(d.word_after_trylock, d.other_tid);
	ck_assert_int_eq(d.final_unlock, 0);
	ck_assert_uint_eq(*d.word, 0);
}
END_TEST

/* ---- the report of a run with lock=pi ---- */

static struct child_out co;
static char json[8192];

/* The number after @key in the JSON report. */
static unsigned long long json_num(const char *key)
{
	const char *p = strstr(json, key);

	ck_assert_msg(p != NULL, "%s missing from: %s", key, json);
	return strtoull(p + strlen(key), NULL, 10);
}

START_TEST(test_pi_report_counts_a_lock_syscall_per_contended_op)
{
	const char *bin = getenv("FUTEXSIM");
	char path[] = "/tmp/futexsim-pi-XXXXXX", arg[64];
	char *argv[] = { "futexsim", "run", "--machine=tiny4", "--threads=16",
			 "--lock=pi", "--ops=8000", arg, NULL };
	unsigned long long lock, unlock, ops;
	int fd = mkstemp(path);
	ssize_t n;

	ck_assert_msg(bin != NULL, "FUTEXSIM must name the binary (make check sets it)");
	ck_assert_int_ge(fd, 0);
	snprintf(arg, sizeof(arg), "--json=%s", path);
	run_program(bin, argv, &co);
	ck_assert_int_eq(co.status, 0);
	close(fd);
	fd = open(path, O_RDONLY);	/* the report renamed over it */
	ck_assert_int_ge(fd, 0);
	n = read(fd, json, sizeof(json) - 1);
	close(fd);
	unlink(path);
	ck_assert_int_gt(n, 0);
	json[n] = '\0';
	ops = json_num("\"ops\":");
	lock = json_num("\"syscalls\":{\"lock\":");
	unlock = json_num("\"unlock\":");
	ck_assert_uint_eq(ops, 8000);
	/* 16 threads on 4 CPUs: all but the first few operations are
	 * contended, and PI hands every one over in the kernel.  The first
	 * lock is a fast-path cmpxchg whose unlock may find waiters already
	 * (an unlock syscall without its lock syscall); the last unlock
	 * finds none (a lock syscall without its unlock syscall). */
	ck_assert_uint_ge(lock * 100, ops * 90);
	ck_assert_uint_le(lock, ops);
	ck_assert_uint_ge(unlock + 1, lock);
	ck_assert_uint_le(unlock, lock + 1);
}
END_TEST

Suite *pi_suite(void)
{
	Suite *s = suite_create("pi");
	TCase *tc = tcase_create("pi");

	tcase_set_timeout(tc, 300);
	tcase_add_loop_test(tc, test_pi_32_threads_on_8_cpus_complete_every_operation, 0, 3);
	tcase_add_test(tc, test_pi_same_seed_gives_same_figures);
	tcase_add_test(tc, test_futex_lock_trylock_unlock_pi_semantics);
	tcase_add_test(tc, test_pi_report_counts_a_lock_syscall_per_contended_op);
	suite_add_tcase(s, tc);
	return s;
}

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tests/test_nptl.c - the pthread error returns that glibc's nptl tests
 * check (make check-glibc runs those tests themselves), cancellation and
 * the exit handlers: the programs tests/programs/nptl_errors.c and
 * cancel.c, built with $FUTEXSIM build and run over seeds, print "ok"
 * for each check, and their negative controls (every check expecting a
 * wrong value) fail every one of them; tests/programs/at_exit.c.
 *
 * Stage: tests.  Everything is built in a scratch directory
 * (tests/build_scratch.h).
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/build_scratch.h"
#include "tests/run_child.h"
#include "version.h"

static const char *const error_checks[] = {
	"rwlock-rdlock-by-writer", "rwlock-wrlock-by-writer",
	"cond-wait-unowned-errorcheck", "cond-timedwait-nsec-negative",
	"cond-timedwait-nsec-2e9", "mutex-errorcheck-timedlock-relock",
	"sem-post-at-max", "sem-value-stays-at-max", "pi-timedlock-free",
	"pi-timedlock-held", "rwlock-initializer-kind-busy",
	"rwlock-initializer-writer-times-out", "spin-lock-after-a-sleeping-owner",
	NULL
};

static const char *const cancel_checks[] = {
	"cancel-returns-0", "cancel-cond-joined-canceled",
	"cancel-cond-handler-holds-mutex", "cancel-disabled-deferred",
	"cancel-at-testcancel", "cancel-disabled-joined-canceled",
	"cancel-sem-wait-joined-canceled", "pthread-exit-runs-handlers",
	"pthread-exit-value", "setcancelstate-bad", "cancel-pi-lock-not-a-point",
	"cancel-pi-joined-canceled", "cancel-async-spinner-joined-canceled",
	NULL
};

static const char *const robust_checks[] = {
	"robust-word-owner-died", "robust-lock-eownerdead", "robust-consistent",
	"robust-unlock", "robust-relock-after-consistent",
	"robust-consistent-when-consistent", "robust-unlock-again",
	"robust-unlock-unowned-eperm", "robust-waiter-woken-eownerdead",
	"robust-after-waiter", "robust-trylock-eownerdead",
	"robust-notrecoverable", "robust-pi-lock-eownerdead",
	"robust-pi-word-cleared", "robust-pi-consistent", "robust-pi-unlock",
	"robust-pi-waiter-eownerdead", "plain-owner-died-stays-locked", NULL
};

static const char *const signal_checks[] = {
	"raise-returns-0", "raise-handled-before-return", "futex-wait-eintr",
	"futex-wait-handler-in-the-waiter", "sa-restart-still-waiting",
	"sa-restart-handler-ran", "sa-restart-woken-returns-0",
	"blocked-is-pending", "unblock-delivers-before-return",
	"sigwait-takes-kill", "sigwait-no-handler", "pause-eintr",
	"pause-handler-ran", "nanosleep-eintr", "ignored-raise-returns-0",
	"ignored-not-handled", "cond-wait-goes-on", "cond-wait-handler-ran",
	"cond-wait-ends-at-signal", "alarm-first-returns-0",
	"alarm-cancel-returns-left", "setitimer-periodic-3", "setitimer-disarmed",
	"timer-create", "timer-settime", "timer-gettime-armed",
	"timer-sigwait-takes-its-signal", "timer-delete",
	"timer-delete-again-einval", "kill-bad-signal", "pthread-kill-0", NULL
};

static const char *const shm_checks[] = {
	"shmget-private", "shmat-page-aligned", "shm-zeroed",
	"private-wake-misses-shared-waiter", "shared-wake-wakes",
	"shared-wait-returns-0", "shmget-named", "shmget-named-again",
	"shmget-excl-eexist", "shmget-missing-enoent", "shmctl-stat-size",
	"shmdt", "shmctl-rmid", "file-open-creat", "file-ftruncate",
	"file-mmap-shared", "file-two-maps-one-memory", "file-shared-wake-wakes",
	"file-open-existing", "file-open-excl-eexist", "file-munmap",
	"file-unlink", "file-remove-enoent", "file-close", "file-close-ebadf",
	NULL
};

static void run_prog(struct child_out *o, const char *exe, const char *args,
		     int seed)
{
	char p[64], a[64], s[32];
	const char *argv[] = { "futexsim", "run", p, a, s, NULL };

	snprintf(p, sizeof(p), "--program=./%s", exe);
	snprintf(a, sizeof(a), "--args=%s", args);
	snprintf(s, sizeof(s), "--seed=%d", seed);
	run_futexsim(o, argv);
}

/*
 * Build tests/programs/@src as @exe in a fresh scratch folder (entered).
 * Return: the output buffer to run it with, or NULL (nothing to free, the
 * folder left) if futexsim could not be run at all.
 */
static struct child_out *build_in_scratch(const char *src, const char *exe)
{
	struct child_out *o = malloc(sizeof(*o));
	char path[512];
	const char *argv[] = { "futexsim", "build", path, "-o", exe, NULL };

	ck_assert_ptr_nonnull(o);
	snprintf(path, sizeof(path), "%s/tests/programs/%s",
		 FUTEXSIM_SOURCE_DIR, src);
	scratch_enter();
	if (!run_futexsim(o, argv)) {
		scratch_leave();
		free(o);
		return NULL;
	}
	ck_assert_msg(o->status == 0, "%s: build failed: %s", src, o->err);
	return o;
}

/*
 * Build tests/programs/@src as @exe, run it over seeds 1 to 3: every
 * check of @checks prints "ok"; its control run fails each of them
 * (exit status 10 or more: futexsim's 6).
 */
static void checks_hold(const char *src, const char *exe,
			const char *const *checks)
{
	struct child_out *o = build_in_scratch(src, exe);
	char line[96];

	if (!o)
		return;
	for (int seed = 1; seed <= 3; seed++) {
		run_prog(o, exe, "", seed);
		ck_assert_msg(o->status == 0, "%s seed %d: exit %d: %s%s", src,
			      seed, o->status, o->out, o->err);
		for (int i = 0; checks[i]; i++) {
			snprintf(line, sizeof(line), "ok %s\n", checks[i]);
			ck_assert_msg(strstr(o->out, line), "%s seed %d: no %s",
				      src, seed, line);
		}
	}
	run_prog(o, exe, "control", 1);
	/* a program's exit status other than 0 is futexsim's 6 */
	ck_assert_int_eq(o->status, 6);
	for (int i = 0; checks[i]; i++) {
		snprintf(line, sizeof(line), "FAIL %s:", checks[i]);
		ck_assert_msg(strstr(o->out, line), "%s control: no %s", src,
			      line);
	}
	scratch_leave();
	free(o);
}

/* The test programs that print a line per check (check_value.h), each
 * run over seeds 1-3, and its control run made to fail every check:
 *   nptl_errors.c  glibc's "shall fail" returns;
 *   cancel.c       cancellation in a condition wait, disabled then
 *                  enabled, in sem_wait(), asynchronous; pthread_exit()'s
 *                  handlers;
 *   robust.c       robust mutexes whose owner dies, through the kernel's
 *                  exit_robust_list() and exit_pi_state_list(): EOWNERDEAD
 *                  to the next locker and to a sleeping waiter,
 *                  consistent, ENOTRECOVERABLE, the PI ones too; a plain
 *                  mutex stays locked;
 *   signals.c      handlers where the kernel delivers, a FUTEX_WAIT
 *                  interrupted (EINTR) or restarted (SA_RESTART), masks,
 *                  sigwait(), pause(), nanosleep(), SIG_IGN, a condition
 *                  wait that goes on, the timers;
 *   shm.c          SysV shared memory and created files, and a shared
 *                  futex in them (the kernel's inode key: a private wake
 *                  misses its waiter). */
static const struct {
	const char *src, *exe;
	const char *const *checks;
} check_programs[] = {
	{ "nptl_errors.c", "nptl-errors", error_checks },
	{ "cancel.c", "cancel", cancel_checks },
	{ "robust.c", "robust", robust_checks },
	{ "signals.c", "signals", signal_checks },
	{ "shm.c", "shm", shm_checks },
};

START_TEST(test_check_programs_hold_over_seeds_and_their_controls_fail_each)
{
	checks_hold(check_programs[_i].src, check_programs[_i].exe,
		    check_programs[_i].checks);
}
END_TEST

/* The futex calls of trace file @path with op @op followed by a space
 * (FUTEX_WAIT, not FUTEX_WAIT_PRIVATE nor FUTEX_WAIT_BITSET). */
static int count_op(const char *path, const char *op)
{
	char line[512], want[64];
	int n = 0;
	FILE *f = fopen(path, "r");

	ck_assert_ptr_nonnull(f);
	snprintf(want, sizeof(want), "op=%s ", op);
	while (fgets(line, sizeof(line), f))
		n += strstr(line, "futex_enter:") && strstr(line, want);
	fclose(f);
	return n;
}

/* tests/programs/pshared.c: process-shared objects in shared memory
 * work and make the shared futex calls; the same objects made private
 * make none (the control). */
START_TEST(test_process_shared_objects_make_shared_futex_calls)
{
	static const char *const checks[] = {
		"pshared-mutex-counts", "pshared-rwlock-reads",
		"pshared-sem-posts", NULL
	};
	struct child_out *o = build_in_scratch("pshared.c", "pshared");
	const char *shared[] = { "futexsim", "run", "--program=./pshared",
				 "--trace=shared.txt", NULL };
	const char *private[] = { "futexsim", "run", "--program=./pshared",
				  "--args=private", "--trace=private.txt", NULL };
	char line[96];

	if (!o)
		return;
	run_futexsim(o, shared);
	ck_assert_msg(o->status == 0, "shared: exit %d: %s", o->status, o->err);
	for (int i = 0; checks[i]; i++) {
		snprintf(line, sizeof(line), "ok %s\n", checks[i]);
		ck_assert_msg(strstr(o->out, line), "shared: no %s", line);
	}
	ck_assert_int_gt(count_op("shared.txt", "FUTEX_WAIT"), 0);
	ck_assert_int_gt(count_op("shared.txt", "FUTEX_WAKE"), 0);
	run_futexsim(o, private);
	ck_assert_msg(o->status == 0, "private: exit %d: %s", o->status, o->err);
	ck_assert_int_eq(count_op("private.txt", "FUTEX_WAIT"), 0);
	ck_assert_int_eq(count_op("private.txt", "FUTEX_WAKE"), 0);
	ck_assert_int_gt(count_op("private.txt", "FUTEX_WAIT_PRIVATE"), 0);
	scratch_leave();
	free(o);
}
END_TEST

/* tests/programs/at_exit.c: the handlers run newest first with exit()'s
 * status at return from main(), exit() in a thread and the last
 * thread's end after main()'s pthread_exit(); _exit() runs none (the
 * control: the same check of handler lines fails there). */
START_TEST(test_exit_handlers_run_at_the_simulated_exit)
{
	static const struct {
		const char *how;
		int status;		/* futexsim's: 6 for a non-zero exit	*/
		const char *tail;	/* the program's last lines		*/
	} runs[] = {
		{ "return", 6, "main returns\natexit third\non_exit second status=3 arg=two\natexit first\n" },
		{ "exit", 6, "atexit third\non_exit second status=4 arg=two\natexit first\n" },
		{ "pthread_exit", 0, "thread done\natexit third\non_exit second status=0 arg=two\natexit first\n" },
		{ "_exit", 6, NULL },
	};
	struct child_out *o = build_in_scratch("at_exit.c", "at-exit");

	if (!o)
		return;
	for (size_t i = 0; i < sizeof(runs) / sizeof(runs[0]); i++) {
		char a[64];
		const char *argv[] = { "futexsim", "run", "--program=./at-exit",
				       a, NULL };

		snprintf(a, sizeof(a), "--args=%s", runs[i].how);
		run_futexsim(o, argv);
		ck_assert_msg(o->status == runs[i].status, "%s: exit %d: %s%s",
			      runs[i].how, o->status, o->out, o->err);
		if (runs[i].tail)
			ck_assert_msg(strstr(o->out, runs[i].tail), "%s: no\n%s\nin\n%s",
				      runs[i].how, runs[i].tail, o->out);
		else
			ck_assert_msg(!strstr(o->out, "atexit") &&
				      !strstr(o->out, "on_exit"),
				      "_exit ran a handler: %s", o->out);
	}
	scratch_leave();
	free(o);
}
END_TEST

Suite *nptl_suite(void)
{
	Suite *s = one_case_suite("nptl", 120, (const TTest *const[]){
		test_exit_handlers_run_at_the_simulated_exit,
		test_process_shared_objects_make_shared_futex_calls,
		NULL });
	TCase *tc = tcase_create("programs");

	/* one test per check program: each its own timeout and result */
	tcase_set_timeout(tc, 120);
	tcase_add_loop_test(tc,
		test_check_programs_hold_over_seeds_and_their_controls_fail_each,
		0, (int)(sizeof(check_programs) / sizeof(check_programs[0])));
	suite_add_tcase(s, tc);
	return s;
}

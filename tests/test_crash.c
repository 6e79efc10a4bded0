/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tests/test_crash.c - a user program's crashes through the futexsim binary
 * of $FUTEXSIM (set by make check): a NULL pointer and a division by zero
 * in a worker are CRASH reports naming the worker, its function and the
 * program's file:line, with a replay file that fails again, as are
 * __builtin_trap() and a call through a bad function pointer; recursion
 * with 4 KiB and 64 KiB frames is a STACK OVERFLOW; an 8 MiB thread stack
 * works and 16 MiB is refused; a busy-wait on a volatile flag is a STUCK
 * TASK at the loop's line while one on an atomic load ends; explore
 * counts a crash as the crash oracle and goes on when it is left out;
 * absurd ops and durations are refused or warned about before a run, and
 * the progress line is on stderr only.
 *
 * Stage: tests.  The handlers are sim/report/failure_signal.c; the
 * programs are built with `futexsim build` as tests/test_build.c does.
 */
#include <check.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tests/run_child.h"

#define PROG	"crash-prog"

/* One program, one mode per argv[1]; the comments mark the lines the
 * reports must name. */
static const char prog_src[] =
	"#include <pthread.h>\n"
	"#include <stdio.h>\n"
	"#include <stdlib.h>\n"
	"#include <string.h>\n"
	"static int *nowhere;\n"
	"static volatile int zero, flag, frame;\n"
	"static volatile long limit = 1L << 40;\n"
	"static long deep(long n)\n"
	"{\n"
	"	volatile char buf[frame];\n"
	"	buf[0] = (char)n; /* DEEP */\n"
	"	buf[frame - 1] = (char)n;\n"
	"	return n >= limit ? buf[0] : deep(n + 1) + buf[0];\n"
	"}\n"
	"static void *null_worker(void *a)\n"
	"{\n"
	"	*nowhere = 1; /* NULL */\n"
	"	return a;\n"
	"}\n"
	"static void *fpe_worker(void *a)\n"
	"{\n"
	"	return (void *)(long)(10 / zero); /* FPE */\n"
	"}\n"
	"static void *deep_worker(void *a)\n"
	"{\n"
	"	return (void *)deep(0);\n"
	"}\n"
	"static void *trap_worker(void *a)\n"
	"{\n"
	"	__builtin_trap(); /* TRAP */\n"
	"	return a;\n"
	"}\n"
	"static void *call_worker(void *a)\n"
	"{\n"
	"	((void (*)(void))16)(); /* CALL */\n"
	"	return a;\n"
	"}\n"
	"static void *big_worker(void *a)\n"
	"{\n"
	"	volatile char buf[7 << 20];\n"
	"	memset((char *)buf, 1, sizeof(buf));\n"
	"	return (void *)(long)buf[12345];\n"
	"}\n"
	"static void *setter(void *a)\n"
	"{\n"
	"	__atomic_store_n(&flag, 1, __ATOMIC_RELEASE);\n"
	"	return a;\n"
	"}\n"
	"int main(int argc, char **argv)\n"
	"{\n"
	"	const char *m = argc > 1 ? argv[1] : \"ok\";\n"
	"	void *(*fn)(void *) = setter;\n"
	"	pthread_attr_t at;\n"
	"	pthread_t t;\n"
	"	void *r;\n"
	"	pthread_attr_init(&at);\n"
	"	if (!strcmp(m, \"null\")) fn = null_worker;\n"
	"	if (!strcmp(m, \"fpe\")) fn = fpe_worker;\n"
	"	if (!strcmp(m, \"deep\")) fn = deep_worker;\n"
	"	if (!strcmp(m, \"big\")) fn = big_worker;\n"
	"	if (!strcmp(m, \"trap\")) fn = trap_worker;\n"
	"	if (!strcmp(m, \"call\")) fn = call_worker;\n"
	"	frame = argc > 2 ? atoi(argv[2]) : 256;\n"
	"	if (argc > 2 && fn == big_worker)\n"
	"		pthread_attr_setstacksize(&at, (size_t)atoi(argv[2]) << 20);\n"
	"	pthread_create(&t, &at, fn, NULL);\n"
	"	if (!strcmp(m, \"spin\"))\n"
	"		while (!flag) /* SPIN */\n"
	"			;\n"
	"	if (!strcmp(m, \"spin-atomic\"))\n"
	"		while (!__atomic_load_n(&flag, __ATOMIC_ACQUIRE))\n"
	"			;\n"
	"	pthread_join(t, &r);\n"
	"	printf(\"%s: %ld\\n\", m, (long)r);\n"
	"	return 0;\n"
	"}\n";

static int built;	/* 1 built, -1 skipped ($FUTEXSIM unset) */

static int build_prog(void)
{
	const char *argv[] = { "futexsim", "build", PROG ".c", "-o", PROG,
			       NULL };
	static struct child_out o;
	FILE *f;

	if (built)
		return built > 0;
	f = fopen(PROG ".c", "w");
	ck_assert_ptr_nonnull(f);
	fputs(prog_src, f);
	fclose(f);
	if (!run_futexsim(&o, argv)) {
		built = -1;
		return 0;
	}
	ck_assert_msg(o.status == 0, "build failed: %s", o.err);
	built = 1;
	return 1;
}

/* "crash-prog.c:N" of the line that holds @mark in prog_src. */
static const char *line_of(const char *mark)
{
	static char buf[64];
	const char *at = strstr(prog_src, mark);
	int line = 1;

	ck_assert_ptr_nonnull(at);
	for (const char *p = prog_src; p < at; p++)
		line += *p == '\n';
	snprintf(buf, sizeof(buf), PROG ".c:%d)", line);
	return buf;
}

/* `futexsim CMD --program=./crash-prog --args=ARGS [EXTRA]` */
static void run_prog(struct child_out *o, const char *cmd, const char *args,
		     const char *extra)
{
	char a[128];
	const char *argv[] = { "futexsim", cmd, "--program=./" PROG, a,
			       extra, NULL };

	snprintf(a, sizeof(a), "--args=%s", args);
	run_futexsim(o, argv);
}

#define assert_has(o, s) \
	ck_assert_msg(strstr((o)->err, (s)) || strstr((o)->out, (s)), \
		      "no \"%s\" in:\n%s%s", (s), (o)->out, (o)->err)

START_TEST(test_a_null_pointer_in_a_worker_is_a_crash_report_that_replays)
{
	static struct child_out a, b;
	char file[128], *p;
	const char *argv[] = { "futexsim", "replay", file, NULL };

	if (!build_prog())
		return;
	run_prog(&a, "run", "null", NULL);
	ck_assert_msg(a.status == 3, "status %d:\n%s", a.status, a.err);
	ck_assert_msg(!strncmp(a.err, "futexsim: CRASH: task 101 \"thread1\" got SIGSEGV: write to address 0x0 (NULL pointer)\n",
			       strlen("futexsim: CRASH: task 101 \"thread1\" got SIGSEGV: write to address 0x0 (NULL pointer)\n")),
		      "got:\n%s", a.err);
	assert_has(&a, "task 101 \"thread1\" RUNNING on CPU ");
	assert_has(&a, "    null_worker (");
	assert_has(&a, line_of("/* NULL */"));
	/* byte for byte the same report on a second run */
	run_prog(&b, "run", "null", NULL);
	ck_assert_str_eq(a.err, b.err);
	/* the replay file fails the same way */
	p = strstr(a.err, "replay file: ");
	ck_assert_ptr_nonnull(p);
	ck_assert_int_eq(sscanf(p, "replay file: %127s", file), 1);
	run_futexsim(&b, argv);
	ck_assert_msg(b.status == 3, "replay status %d:\n%s", b.status, b.err);
	assert_has(&b, "futexsim: CRASH: task 101 \"thread1\" got SIGSEGV");
	assert_has(&b, line_of("/* NULL */"));
	unlink(file);
}
END_TEST

START_TEST(test_a_division_by_zero_is_a_sigfpe_crash)
{
	static struct child_out o;

	if (!build_prog())
		return;
	run_prog(&o, "run", "fpe", NULL);
	ck_assert_msg(o.status == 3, "status %d:\n%s", o.status, o.err);
	assert_has(&o, "futexsim: CRASH: task 101 \"thread1\" got SIGFPE: integer divide by zero\n");
	assert_has(&o, "    fpe_worker (");
	assert_has(&o, line_of("/* FPE */"));
}
END_TEST

START_TEST(test_a_trap_and_a_call_through_a_bad_pointer_are_crashes)
{
	static struct child_out o;

	if (!build_prog())
		return;
	run_prog(&o, "run", "trap", NULL);
	ck_assert_msg(o.status == 3, "status %d:\n%s", o.status, o.err);
	assert_has(&o, "futexsim: CRASH: task 101 \"thread1\" got SIGILL: illegal instruction (__builtin_trap() emits one)\n");
	assert_has(&o, line_of("/* TRAP */"));
	/* the stack starts at the call, not at the address called */
	run_prog(&o, "run", "call", NULL);
	ck_assert_msg(o.status == 3, "status %d:\n%s", o.status, o.err);
	assert_has(&o, "futexsim: CRASH: task 101 \"thread1\" got SIGSEGV: jump to address 0x10 (NULL pointer)\n");
	assert_has(&o, "task 101 \"thread1\" RUNNING on CPU 1\n    call_worker (");
	assert_has(&o, line_of("/* CALL */"));
}
END_TEST

START_TEST(test_recursion_with_large_frames_is_a_stack_overflow)
{
	static const char *const frames[] = { "deep 4096", "deep 65536",
					      "deep 256", "deep 1048576" };
	static struct child_out o;

	if (!build_prog())
		return;
	for (size_t i = 0; i < sizeof(frames) / sizeof(frames[0]); i++) {
		run_prog(&o, "run", frames[i], NULL);
		ck_assert_msg(o.status == 3, "%s: status %d:\n%s", frames[i],
			      o.status, o.err);
		assert_has(&o, "futexsim: STACK OVERFLOW: task 101 \"thread1\" overflowed its 8388608-byte stack\n");
		assert_has(&o, "    deep (");
	}
}
END_TEST

START_TEST(test_an_8_mib_stack_works_and_16_mib_is_refused)
{
	static struct child_out o;

	if (!build_prog())
		return;
	run_prog(&o, "run", "big 8", NULL);
	ck_assert_msg(o.status == 0, "status %d:\n%s", o.status, o.err);
	assert_has(&o, "big: 1\n");
	/* the same 7 MiB frame overflows a 4 MiB stack */
	run_prog(&o, "run", "big 4", NULL);
	ck_assert_int_eq(o.status, 3);
	assert_has(&o, "STACK OVERFLOW: task 101 \"thread1\" overflowed its 4194304-byte stack");
	run_prog(&o, "run", "big 16", NULL);
	ck_assert_int_eq(o.status, 3);
	assert_has(&o, "pthread_attr_setstacksize() over 8 MiB (8388608 bytes)");
}
END_TEST

START_TEST(test_a_busy_wait_on_a_volatile_flag_is_a_stuck_task)
{
	static struct child_out o;

	if (!build_prog())
		return;
	run_prog(&o, "run", "spin", "--stuck=500ms");
	ck_assert_msg(o.status == 3, "status %d:\n%s", o.status, o.err);
	assert_has(&o, "futexsim: STUCK TASK: task 100 \"main\" ran 500 ms of host CPU time without a scheduling point (a busy-wait on a plain or volatile variable? use an atomic builtin, or build with --instrument)\n");
	assert_has(&o, "task 100 \"main\" RUNNING on CPU 0\n    futexsim_user_main (");
	assert_has(&o, line_of("/* SPIN */"));
	assert_has(&o, "--stuck=500ms");
	/* negative control: an atomic load is a scheduling point */
	run_prog(&o, "run", "spin-atomic", "--stuck=500ms");
	ck_assert_msg(o.status == 0, "status %d:\n%s", o.status, o.err);
	assert_has(&o, "spin-atomic: 0\n");
	ck_assert_ptr_null(strstr(o.err, "futexsim:"));
	/* a bad bound: one line, exit 2 */
	run_prog(&o, "run", "ok", "--stuck=1us");
	ck_assert_int_eq(o.status, 2);
	assert_has(&o, "stuck");
	assert_has(&o, "whole milliseconds");
}
END_TEST

START_TEST(test_a_correct_program_exits_0_with_no_report)
{
	static struct child_out o;

	if (!build_prog())
		return;
	run_prog(&o, "run", "ok", NULL);
	ck_assert_msg(o.status == 0, "status %d:\n%s", o.status, o.err);
	assert_has(&o, "ok: 0\n");
	ck_assert_ptr_null(strstr(o.err, "futexsim:"));
}
END_TEST

START_TEST(test_explore_fires_the_crash_oracle_and_goes_on_without_it)
{
	static struct child_out o;
	/* explore runs in the program's own binary (a futexsim with it) */
	char *const fire[] = { "./" PROG, "explore", "--program=./" PROG,
			       "--args=null", "--runs=4", NULL };
	char *const on[] = { "./" PROG, "explore", "--program=./" PROG,
			     "--args=null", "--runs=4", "--oracle=mutex", NULL };

	if (!build_prog())
		return;
	run_program("./" PROG, fire, &o);
	ck_assert_msg(o.status == 3, "status %d:\n%s", o.status, o.err);
	assert_has(&o, "explore: crash fired in run 0");
	/* left out: every run crashes, the process goes on to the end */
	run_program("./" PROG, on, &o);
	ck_assert_msg(o.status == 0, "status %d:\n%s", o.status, o.err);
	assert_has(&o, "no oracle fired in 4 runs");
	assert_has(&o, "other failures 4");
}
END_TEST

START_TEST(test_absurd_sizes_are_refused_or_warned_about_before_the_run)
{
	const char *ops[] = { "futexsim", "run", "--ops=1000000000000000",
			      NULL };
	const char *dur[] = { "futexsim", "run", "--duration=100000s", NULL };
	/* warned about, then stopped by a later input error: no long run */
	const char *warn[] = { "futexsim", "run", "--duration=1000s",
			       "--json=/nonexistent/dir/x.json", NULL };
	const char *fine[] = { "futexsim", "run", "--ops=1000",
			       "--json=/nonexistent/dir/x.json", NULL };
	static struct child_out o;

	if (!run_futexsim(&o, ops))
		return;
	ck_assert_int_eq(o.status, 2);
	ck_assert_str_eq(o.err, "futexsim: command line: --ops: expected at most 1000000000000 operations (at about 1 us of host time each, that many take 11 days), got '1000000000000000'\n");
	run_futexsim(&o, dur);
	ck_assert_int_eq(o.status, 2);
	assert_has(&o, "--duration: expected at most 86400s (a day) of simulated time, got '100000s'\n");
	run_futexsim(&o, warn);
	ck_assert_int_eq(o.status, 2);
	ck_assert_msg(!strncmp(o.err, "futexsim: warning: duration=1000s: this run takes at least about ", 65),
		      "got:\n%s", o.err);
	/* negative control: a small run gets no warning */
	run_futexsim(&o, fine);
	ck_assert_int_eq(o.status, 2);
	ck_assert_ptr_null(strstr(o.err, "warning"));
}
END_TEST

START_TEST(test_the_progress_line_is_on_stderr_only)
{
	const char *with[] = { "futexsim", "run", "--ops=5000000", "--progress",
			       NULL };
	const char *without[] = { "futexsim", "run", "--ops=5000000", NULL };
	static struct child_out a, b;
	bool ran;

	/* the line from the first second: the run takes about 3 s on the
	 * development machine, too close to the default third one */
	setenv("FUTEXSIM_PROGRESS_FIRST_S", "1", 1);
	ran = run_futexsim(&a, with);
	unsetenv("FUTEXSIM_PROGRESS_FIRST_S");
	if (!ran)
		return;
	ck_assert_int_eq(a.status, 0);
	assert_has(&a, "futexsim: lock ww: ");
	ck_assert_ptr_nonnull(strstr(a.err, " of 5000000 ops), 1 s, about "));
	run_futexsim(&b, without);
	ck_assert_int_eq(b.status, 0);
	ck_assert_str_eq(a.out, b.out);
	ck_assert_str_eq(b.err, "");	/* not a terminal: no line */
}
END_TEST

Suite *crash_suite(void)
{
	return one_case_suite("crash", 300, (const TTest *const[]){
		test_a_null_pointer_in_a_worker_is_a_crash_report_that_replays,
		test_a_division_by_zero_is_a_sigfpe_crash,
		test_a_trap_and_a_call_through_a_bad_pointer_are_crashes,
		test_recursion_with_large_frames_is_a_stack_overflow,
		test_an_8_mib_stack_works_and_16_mib_is_refused,
		test_a_busy_wait_on_a_volatile_flag_is_a_stuck_task,
		test_a_correct_program_exits_0_with_no_report,
		test_explore_fires_the_crash_oracle_and_goes_on_without_it,
		test_absurd_sizes_are_refused_or_warned_about_before_the_run,
		test_the_progress_line_is_on_stderr_only,
		NULL });
}

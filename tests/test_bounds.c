/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tests/test_bounds.c - suite "bounds": input that once hung the
 * simulator, ran the wrong thing or broke a round trip, each now one line
 * and exit 2 or a run to its end: a tick handler longer than the tick,
 * costs that could overflow a clock, endless or binary scenario files,
 * control characters and newlines in keys and values, values that did not
 * re-read, runs far too big to finish, replay decisions out of range.
 * And the watchdogs behind the refusals: an event storm and a clock at
 * its limit end as a livelock even when no input check stops them.
 *
 * Stage: the driver end to end (the binary named by $FUTEXSIM, through
 * tests/run_child.h), and the machine at unit level (sim/machine).
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sim/machine/machine.h"
#include "sim/scenario/preset.h"
#include "tests/run_child.h"

static struct child_out co, co2;

#define futexsim(o, ...) \
	run_futexsim((o), (const char *const[]){ "futexsim", __VA_ARGS__, NULL })

#define NS	1000ULL
#define MS	(1000 * 1000 * NS)

static void write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	ck_assert_ptr_nonnull(f);
	fputs(text, f);
	ck_assert_int_eq(fclose(f), 0);
}

/* The resolved scenario at the top of a report: up to its blank line. */
static void echo_of(const char *report, char *out, size_t len)
{
	const char *end = strstr(report, "\n\n");

	ck_assert_ptr_nonnull(end);
	snprintf(out, len, "%.*s", (int)(end - report + 1), report);
}

/* ---- the machine: refused costs, watchdogs -------------------------------- */

START_TEST(test_tick_cost_at_least_the_tick_is_refused)
{
	char path[] = "/tmp/futexsim-bounds-tick.machine";

	if (!futexsim(&co, "run", "--machine-set=tick-cost=2ms", "--ops=100"))
		return;
	assert_one_line_error(&co, "command line: --machine-set",
			      "a tick-cost below the tick (1ms)", "'2ms'");
	futexsim(&co, "run", "--machine-set=tick=1ms,tick-cost=1ms", "--ops=10");
	assert_one_line_error(&co, "tick-cost below the tick");
	write_file(path, "tick = 1ms\ntick-cost = 1ms\n");
	futexsim(&co, "run", "--machine=/tmp/futexsim-bounds-tick.machine",
		 "--ops=10");
	unlink(path);
	assert_one_line_error(&co, path, "tick-cost: expected a tick-cost below");
	/* just below the tick: slow, but it runs to its end */
	futexsim(&co, "run", "--machine-set=tick-cost=999us", "--ops=200");
	ck_assert_int_eq(co.status, 0);
}
END_TEST

START_TEST(test_machine_durations_are_bounded_at_one_second)
{
	if (!futexsim(&co, "run", "--machine-set=syscall=18446744.073709551615s",
		      "--ops=100"))
		return;
	assert_one_line_error(&co, "--machine-set: syscall", "at most 1s");
	futexsim(&co, "list", "machine", "tiny4",
		 "--machine-set=wake=1.000000000001s");
	assert_one_line_error(&co, "wake", "at most 1s");
	futexsim(&co, "list", "machine", "tiny4", "--machine-set=wake=1s");
	ck_assert_int_eq(co.status, 0);
	ck_assert_ptr_nonnull(strstr(co.out, "\nwake = 1s\n"));
}
END_TEST

/* A task that only ever spends time; a tick handler eats every period. */
static void spender(void *arg)
{
	for (;;)
		sim_delay_ps(100 * NS);
}

static void storm(void *arg)
{
	struct sim_preset p;

	sim_preset_defaults(&p);
	p.tick_cost_ps = 2 * MS;	/* what no machine file may say */
	sim_machine_init(&p, 1, 1);
	sim_set_livelock_ps(50 * MS);
	sim_task_create("spender", spender, NULL, 0);
	sim_run();
}

START_TEST(test_an_event_storm_ends_as_a_livelock)
{
	run_child(storm, NULL, &co);
	ck_assert_int_eq(co.status, 3);
	ck_assert_ptr_nonnull(strstr(co.err, "LIVELOCK"));
	ck_assert_ptr_nonnull(strstr(co.err, "events kept firing past the livelock bound"));
}
END_TEST

/* A task whose clock leaps (on a machine no file may describe: a tick of
 * 2^58 ps): without the limit its clock would wrap around. */
static void leaper(void *arg)
{
	for (;;) {
		sim_delay_ps(1ULL << 59);
		sim_progress();
	}
}

static void leap(void *arg)
{
	struct sim_preset p;

	sim_preset_defaults(&p);
	p.tick_ps = 1ULL << 58;		/* a tick per leap, not billions */
	sim_machine_init(&p, 1, 1);
	sim_set_livelock_ps(UINT64_MAX);	/* saturates: no bound */
	sim_task_create("leaper", leaper, NULL, 0);
	sim_run();
}

START_TEST(test_a_clock_at_its_limit_ends_the_run)
{
	run_child(leap, NULL, &co);
	ck_assert_msg(co.status == 3, "exit %d: %s", co.status, co.err);
	ck_assert_msg(strstr(co.err, "the simulated clock reached its limit") != NULL, "%s", co.err);
	ck_assert_ptr_nonnull(strstr(co.err, "the simulated clock reached its limit"));
}
END_TEST

/* ---- scenario input: bounded, escaped, re-read to itself ------------------ */

START_TEST(test_dev_zero_and_binary_files_are_bad_input)
{
	if (!futexsim(&co, "run", "/dev/zero", "--ops=200"))
		return;
	assert_one_line_error(&co, "/dev/zero:1: expected a text file");
	ck_assert_str_eq(co.out, "");
}
END_TEST

START_TEST(test_control_characters_never_reach_the_terminal)
{
	const char *path = "/tmp/futexsim-bounds-ctl.scn";

	write_file(path, "lo\033[2Jck = ww\n");
	if (!futexsim(&co, "run", path))
		return;
	unlink(path);
	assert_one_line_error(&co, "lo\\x1b[2Jck");
	ck_assert_ptr_null(strchr(co.err, '\033'));

	futexsim(&co, "run", "--machine-set=ti\033[31mck=1ms");
	ck_assert_int_eq(co.status, 2);
	ck_assert_ptr_null(strchr(co.err, '\033'));
}
END_TEST

START_TEST(test_newlines_in_command_line_values_are_refused)
{
	if (!futexsim(&co, "run", "--machine-set=tick\n=1ms", "--ops=10"))
		return;
	assert_one_line_error(&co, "--machine-set", "without control characters",
			      "tick\\x0a=1ms");
	futexsim(&co, "run", "--args=x\nseed = 9", "--ops=10");
	assert_one_line_error(&co, "--args", "without control characters");
	futexsim(&co, "list", "machine", "tiny4", "--machine-set=tick=2ms\n,x=1");
	assert_one_line_error(&co, "machine-set", "without control characters");
}
END_TEST

/*
 * Values with '#', blanks and backslashes: the echo re-reads to the same
 * echo, and the values reach the run (the JSON report goes to the file
 * named "#r.json", not to a comment; the record file is the one named).
 */
START_TEST(test_the_echo_re_reads_to_itself)
{
	static char echo1[8192], echo2[8192];
	const char *scn = "/tmp/futexsim-bounds-echo.scn";
	const char *json = "/tmp/futexsim-bounds-#r.json";
	const char *rec = "/tmp/futexsim-bounds-a #b \\#c\\\\# d\\e.replay";

	unlink(json);
	unlink(rec);
	if (!futexsim(&co, "run", "--ops=20", "--json=/tmp/futexsim-bounds-#r.json",
		      "--record=/tmp/futexsim-bounds-a #b \\#c\\\\# d\\e.replay"))
		return;
	ck_assert_msg(co.status == 0, "exit %d: %s", co.status, co.err);
	ck_assert_int_eq(access(json, F_OK), 0);
	ck_assert_int_eq(access(rec, F_OK), 0);
	echo_of(co.out, echo1, sizeof(echo1));
	ck_assert_ptr_nonnull(strstr(echo1, "json = /tmp/futexsim-bounds-\\#r.json\n"));
	write_file(scn, echo1);
	unlink(json);
	unlink(rec);
	futexsim(&co2, "run", scn);
	unlink(scn);
	ck_assert_msg(co2.status == 0, "exit %d: %s", co2.status, co2.err);
	ck_assert_int_eq(access(json, F_OK), 0);
	ck_assert_int_eq(access(rec, F_OK), 0);
	unlink(json);
	unlink(rec);
	echo_of(co2.out, echo2, sizeof(echo2));
	ck_assert_str_eq(echo1, echo2);
	/* the negative control: the same text without the escape is a
	 * comment, which leaves json empty */
	write_file(scn, "ops = 20\njson = #r.json\n");
	futexsim(&co2, "run", scn);
	unlink(scn);
	assert_one_line_error(&co2, "json: expected a PATH", "got ''");
}
END_TEST

START_TEST(test_list_machine_prints_a_file_that_loads_to_itself)
{
	const char *path = "/tmp/futexsim-bounds-list.machine";
	const char *body1, *body2;

	if (!futexsim(&co, "list", "machine", "haswell-ex-4s",
		      "--machine-set=tick=2ms,tick-cost=1ms,wake=1.7ns"))
		return;
	ck_assert_int_eq(co.status, 0);
	write_file(path, co.out);
	futexsim(&co2, "list", "machine", path);
	unlink(path);
	ck_assert_int_eq(co2.status, 0);
	body1 = strchr(co.out, '\n');	/* past the "# NAME" comment */
	body2 = strchr(co2.out, '\n');
	ck_assert_ptr_nonnull(body1);
	ck_assert_ptr_nonnull(body2);
	ck_assert_str_eq(body1, body2);
	ck_assert_ptr_nonnull(strstr(body1, "\ndescription = "));
}
END_TEST

/* ---- runs too big to finish ------------------------------------------------ */

START_TEST(test_a_run_estimated_over_an_hour_needs_force)
{
	if (!futexsim(&co, "run", "--ops=10000000000"))
		return;
	assert_one_line_error(&co, "--ops", "at most about 1 h of host time",
			      "2.8 h", "--force");
	futexsim(&co, "run", "--machine=haswell-ex-4s", "--duration=2000s");
	assert_one_line_error(&co, "--duration", "1 h of host time", "--force");
	futexsim(&co, "run", "--ops=1000000000001", "--force");
	assert_one_line_error(&co, "--ops", "at most 1000000000000 operations");
	/* --force lifts the estimate's refusal only: a small run still runs */
	futexsim(&co, "run", "--ops=50", "--force");
	ck_assert_int_eq(co.status, 0);
}
END_TEST

/* ---- replay files ----------------------------------------------------------- */

START_TEST(test_a_replay_pick_beyond_its_count_is_bad_input)
{
	const char *rec = "/tmp/futexsim-bounds.replay";
	const char *bad = "/tmp/futexsim-bounds-bad.replay";
	char *text, *x, *eol;
	FILE *f;

	if (!futexsim(&co, "run", "--ops=20", "--strategy=random",
		      "--record=/tmp/futexsim-bounds.replay"))
		return;
	ck_assert_int_eq(co.status, 0);
	text = slurp(rec, NULL);
	ck_assert_ptr_nonnull(text);
	x = strstr(text, "\nX ");
	ck_assert_ptr_nonnull(x);
	eol = strchr(x + 1, '\n');
	f = fopen(bad, "w");
	ck_assert_ptr_nonnull(f);
	fprintf(f, "%.*s\nX 2 7%s", (int)(x - text), text, eol);
	fclose(f);
	futexsim(&co, "replay", bad);
	assert_one_line_error(&co, bad, "X N K", "got 'X 2 7'");
	/* the file as recorded replays */
	futexsim(&co, "replay", rec);
	ck_assert_int_eq(co.status, 0);
	unlink(rec);
	unlink(bad);
	free(text);
}
END_TEST

Suite *bounds_suite(void)
{
	return one_case_suite("bounds", 120, (const TTest *const[]){
		test_tick_cost_at_least_the_tick_is_refused,
		test_machine_durations_are_bounded_at_one_second,
		test_an_event_storm_ends_as_a_livelock,
		test_a_clock_at_its_limit_ends_the_run,
		test_dev_zero_and_binary_files_are_bad_input,
		test_control_characters_never_reach_the_terminal,
		test_newlines_in_command_line_values_are_refused,
		test_the_echo_re_reads_to_itself,
		test_list_machine_prints_a_file_that_loads_to_itself,
		test_a_run_estimated_over_an_hour_needs_force,
		test_a_replay_pick_beyond_its_count_is_bad_input,
		NULL });
}

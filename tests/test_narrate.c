/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tests/test_narrate.c - suite "narrate": --narrate (sim/trace/trace_narrate.c,
 * fed by the trace stream of sim/trace/trace.c) through the binary: every line
 * has the documented layout and the times never go back, a contended ww
 * run tells the FUTEX_WAIT EAGAIN race, sleeps, wakeups and the qspinlock
 * slow path, --trace-from/--trace-to bound it, it is byte-identical for
 * one seed and does not change the run; a bad value exits 2.
 *
 * Stage: trace/report, end to end.  Run by tests/check_main.c; runs
 * $FUTEXSIM (`make check` sets it) through tests/run_child.h.  Without
 * $FUTEXSIM each test says so and passes.
 */
#include <check.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/run_child.h"

static struct child_out co, co2;

#define futexsim(o, ...) \
	run_futexsim((o), (const char *const[]){ "futexsim", "run", __VA_ARGS__, NULL })

/* Contended ww on 4 CPUs; a window that keeps stderr small. */
#define SMALL	"--threads=8", "--ops=2000", "--seed=3"

/*
 * Check every line of @text: the "# narration:" header, then
 * "MS ms  COMM (cpu N): TEXT" with times in [@from_ms, @to_ms] that never
 * go back.  Return: the number of lines.
 */
static int check_lines(char *text, double from_ms, double to_ms)
{
	char *line, *save = NULL;
	double last = 0;
	regex_t re;
	int n = 0;

	ck_assert_msg(!strncmp(text, "# narration: futexsim ", 22),
		      "no narration header: %.200s", text);
	ck_assert_int_eq(regcomp(&re, "^[0-9]+\\.[0-9]{6} ms  [^ ]+ \\(cpu [0-9]+\\): [a-zA-Z_]+ .+$",
				 REG_EXTENDED | REG_NOSUB), 0);
	for (line = strtok_r(text, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		double t;

		if (line[0] == '#')
			continue;
		ck_assert_msg(!regexec(&re, line, 0, NULL, 0), "bad line: %s", line);
		t = strtod(line, NULL);
		ck_assert_msg(t >= last, "time goes back at: %s", line);
		ck_assert_msg(t >= from_ms && t <= to_ms,
			      "outside [%f, %f] ms: %s", from_ms, to_ms, line);
		last = t;
		n++;
	}
	regfree(&re);
	return n;
}

START_TEST(test_contended_ww_run_is_told_in_sentences)
{
	static const char *const sentences[] = {
		"FUTEX_WAIT returned EAGAIN: the futex word changed between its user-space read and the bucket lock",
		": slept in FUTEX_WAIT; cpu ",
		": woke worker",
		": calls FUTEX_WAKE on 0x",
		": found the qspinlock futex_hash_bucket[",
		": acquired the qspinlock futex_hash_bucket[",
	};
	char *copy;

	if (!futexsim(&co, SMALL, "--narrate=yes", "--trace-to=20us"))
		return;
	ck_assert_msg(co.status == 0, "status %d: %s", co.status, co.err);
	for (size_t i = 0; i < sizeof(sentences) / sizeof(sentences[0]); i++)
		ck_assert_msg(strstr(co.err, sentences[i]), "'%s' not told in: %s",
			      sentences[i], co.err);
	ck_assert_msg(strstr(co.err, "(placed on idle cpu ") ||
		      strstr(co.err, ", which runs worker"),
		      "no placement in the wakeups: %s", co.err);
	ck_assert_uint_lt(strlen(co.err), sizeof(co.err) - 1);
	copy = strdup(co.err);
	ck_assert_int_gt(check_lines(copy, 0, 0.020), 50);
	free(copy);
}
END_TEST

START_TEST(test_window_bounds_the_narration)
{
	if (!futexsim(&co, SMALL, "--narrate=yes", "--trace-from=10us",
		      "--trace-to=15us"))
		return;
	ck_assert_msg(co.status == 0, "status %d: %s", co.status, co.err);
	ck_assert_int_gt(check_lines(co.err, 0.010, 0.015), 10);
}
END_TEST

START_TEST(test_same_seed_same_narration_and_the_run_is_unchanged)
{
	const char *a, *b;

	if (!futexsim(&co, SMALL, "--narrate=yes", "--trace-to=20us"))
		return;
	futexsim(&co2, SMALL, "--narrate=yes", "--trace-to=20us");
	ck_assert_int_eq(co.status, 0);
	ck_assert_str_eq(co.err, co2.err);
	ck_assert_str_eq(co.out, co2.out);
	futexsim(&co2, SMALL);
	ck_assert_int_eq(co2.status, 0);
	ck_assert_str_eq(co2.err, "");
	a = strstr(co.out, "\nelapsed ");
	b = strstr(co2.out, "\nelapsed ");
	ck_assert_ptr_nonnull(a);
	ck_assert_ptr_nonnull(b);
	ck_assert_str_eq(a, b);
}
END_TEST

/*
 * An EAGAIN from FUTEX_WAIT means the kernel read a value other than the
 * expected one; when the word is back at that value by the return, the
 * line says so rather than "expected 2, the word is 2 now".  The window
 * of this run has both kinds (asserted, so the check is not empty).
 */
START_TEST(test_eagain_with_the_word_back_at_the_expected_value_says_so)
{
	int back = 0, changed = 0;
	char *line, *save = NULL;

	if (!futexsim(&co, SMALL, "--narrate=yes", "--trace-to=20us"))
		return;
	ck_assert_int_eq(co.status, 0);
	for (line = strtok_r(co.err, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		const char *p = strstr(line, "returned EAGAIN: ");
		unsigned int want, now;

		if (!p)
			continue;
		if (sscanf(strchr(p, '('), "(expected %u, the word is %u now)",
			   &want, &now) == 2) {
			ck_assert_msg(want != now, "EAGAIN told as no change: %s", line);
			changed++;
		} else {
			ck_assert_msg(sscanf(strchr(p, '('),
					     "(expected %u; it was another value when the kernel read it, and is %u again now)",
					     &want, &now) == 2 && want == now,
				      "EAGAIN without the values: %s", line);
			back++;
		}
	}
	ck_assert_int_gt(back, 0);
	ck_assert_int_gt(changed, 0);
}
END_TEST

START_TEST(test_bad_narrate_value_gets_one_line_and_status_2)
{
	if (!futexsim(&co, "--narrate=maybe"))
		return;
	assert_one_line_error(&co, "narrate", "yes or no");
}
END_TEST

Suite *narrate_suite(void)
{
	return one_case_suite("narrate", 120, (const TTest *const[]){
		test_contended_ww_run_is_told_in_sentences,
		test_window_bounds_the_narration,
		test_same_seed_same_narration_and_the_run_is_unchanged,
		test_eagain_with_the_word_back_at_the_expected_value_says_so,
		test_bad_narrate_value_gets_one_line_and_status_2,
		NULL });
}

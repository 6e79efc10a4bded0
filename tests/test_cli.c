/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tests/test_cli.c - suite "cli": the futexsim binary's command line
 * (sim/cli/cli.c): --version, --help, list, bad command lines (one line on
 * stderr, exit 2) and whole runs (same bytes twice, locks in order).
 *
 * Stage: the driver, end to end.  Run by tests/check_main.c; runs the
 * binary named by $FUTEXSIM (`make check` sets it to $(B)/futexsim) through
 * tests/run_child.h.  Without $FUTEXSIM each test says so and passes.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tests/run_child.h"
#include "version.h"
#include "workloads/workload.h"
#include "sim/report/exit.h"

static struct child_out co, co2;

/* Run futexsim with the NULL-terminated arguments; 0 if it is unknown. */
#define futexsim(o, ...) \
	run_futexsim((o), (const char *const[]){ "futexsim", __VA_ARGS__, NULL })
#define futexsim0(o) run_futexsim((o), (const char *const[]){ "futexsim", NULL })

START_TEST(test_version_prints_the_version_and_the_kernel)
{
	if (!futexsim(&co, "--version"))
		return;
	ck_assert_int_eq(co.status, 0);
	ck_assert_str_eq(co.out, "futexsim " FUTEXSIM_VERSION " (kernel "
			 FUTEXSIM_KERNEL ")\n");
	ck_assert_str_eq(co.err, "");
	ck_assert_ptr_nonnull(strstr(co.out, "(kernel " FUTEXSIM_KERNEL_SERIES "."));
}
END_TEST

START_TEST(test_help_lists_the_commands_and_every_key)
{
	static const char *const want[] = {
		"futexsim run [SCENARIO] [--key=value ...]", "futexsim list",
		"--version", "--machine=", "--cpus=", "--threads=",
		"--workload=", "--lock=", "--ops=", "--duration=", "--cs=",
		"--between=", "--seed=", "--json=", "--livelock=", "Exit status",
	};

	if (!futexsim(&co, "--help"))
		return;
	ck_assert_int_eq(co.status, 0);
	ck_assert_str_eq(co.err, "");
	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++)
		ck_assert_msg(strstr(co.out, want[i]), "--help lacks %s", want[i]);
	/* every exit status of sim/report/exit.h, each with its line */
	for (int i = 0; i < SIM_EXIT_NR; i++) {
		char line[16];

		snprintf(line, sizeof(line), "\n  %d  ", i);
		ck_assert_msg(strstr(co.out, line), "--help lacks exit status %d", i);
	}
	ck_assert_msg(!strstr(co.out, "(null)"), "an exit status without its line");
	futexsim(&co2, "help");
	ck_assert_int_eq(co2.status, 0);
	ck_assert_str_eq(co.out, co2.out);
}
END_TEST

START_TEST(test_list_shows_machines_visible_locks_and_workloads)
{
	char name[64];

	if (!futexsim(&co, "list", "machines"))
		return;
	ck_assert_int_eq(co.status, 0);
	ck_assert_ptr_nonnull(strstr(co.out, "tiny4 "));
	ck_assert_ptr_nonnull(strstr(co.out, "1 x 4 x 1 =   4 CPUs"));
	ck_assert_ptr_nonnull(strstr(co.out, "haswell-ex-4s "));
	ck_assert_ptr_nonnull(strstr(co.out, "4 x 18 x 2 = 144 CPUs"));

	futexsim(&co, "list", "locks");
	ck_assert_int_eq(co.status, 0);
	for (int i = 0; ulock_registry[i]; i++) {
		snprintf(name, sizeof(name), "  %s ", ulock_registry[i]->name);
		if (ulock_registry[i]->broken)
			ck_assert_msg(!strstr(co.out, name), "broken %s listed",
				      name);
		else
			ck_assert_msg(strstr(co.out, name), "%s not listed", name);
	}

	futexsim(&co, "list", "workloads");
	ck_assert_int_eq(co.status, 0);
	for (int i = 0; wl_registry[i]; i++) {
		snprintf(name, sizeof(name), "  %s ", wl_registry[i]->name);
		ck_assert_msg(strstr(co.out, name), "%s not listed", name);
	}

	futexsim(&co, "list");
	ck_assert_int_eq(co.status, 0);
	ck_assert_ptr_nonnull(strstr(co.out, "machines"));
	ck_assert_ptr_nonnull(strstr(co.out, "locks:"));
	ck_assert_ptr_nonnull(strstr(co.out, "workloads:"));
}
END_TEST

/* Each bad command line: exit 2, nothing on stdout, one line on stderr. */
static void expect_bad(const char *const *argv, const char *part)
{
	ck_assert(run_futexsim(&co, argv));
	assert_one_line_error(&co, part);
	ck_assert_msg(co.out[0] == '\0', "stdout not empty: %s", co.out);
}

#define BAD(part, ...) \
	expect_bad((const char *const[]){ "futexsim", __VA_ARGS__, NULL }, part)

START_TEST(test_bad_command_lines_get_one_line_and_status_2)
{
	if (!futexsim0(&co))
		return;
	assert_one_line_error(&co, "expected a command");
	BAD("got 'bogus'", "bogus");
	BAD("got '--bogus'", "--bogus");
	BAD("got 'bogus'", "list", "bogus");
	BAD("command line: --threads: expected an integer from 1 to 4095, got 'abc'",
	    "run", "--threads=abc");
	BAD("command line: --nope: expected a known key", "run", "--nope=1");
	BAD("--threads: expected --threads=VALUE", "run", "--threads");
	BAD("got '-t'", "run", "-t");
	BAD("at most one scenario file", "run", "/dev/null", "/dev/null");
	BAD("'/nonexistent/x.scn'", "run", "/nonexistent/x.scn");
	BAD("--machine: expected a machine among", "run", "--machine=nope");
	BAD("--cpus: expected at most 4", "run", "--cpus=5");
	BAD("--lock:", "run", "--lock=nope");
	BAD("--lock: expected each lock once", "run", "--lock=ww,tp,ww");
	BAD("--workload:", "run", "--workload=nope");
	BAD("--duration: expected a positive duration with a unit", "run",
	    "--duration=5");
	BAD("--duration: expected either ops or duration", "run", "--ops=5",
	    "--duration=1s");
	BAD("--json: expected a writable file", "run",
	    "--json=/nonexistent/dir/out.json");
}
END_TEST

START_TEST(test_scenario_file_errors_name_the_file_line_and_key)
{
	char path[] = "/tmp/futexsim-cli-XXXXXX", want[80];
	FILE *f;

	if (!futexsim0(&co))
		return;
	f = fdopen(mkstemp(path), "w");
	ck_assert_ptr_nonnull(f);
	fputs("# test\nthreads = 2\ncs = pause:x\n", f);
	fclose(f);
	snprintf(want, sizeof(want), "futexsim: %s:3: cs: expected pause:N", path);
	BAD(want, "run", path);
	/* Options are applied after the file, wherever the file is named. */
	f = fopen(path, "w");
	ck_assert_ptr_nonnull(f);
	fputs("threads = 2\ncpus = 2\n", f);
	fclose(f);
	BAD("command line: --cpus: expected at most 4 (the CPUs of machine tiny4), got '9'",
	    "run", "--cpus=9", path);
	f = fopen(path, "w");
	ck_assert_ptr_nonnull(f);
	fputs("\nops = 5\n", f);
	fclose(f);
	BAD("command line: --duration: expected either ops or duration, not both "
	    "(ops is given at line 2 of the scenario file)",
	    "run", path, "--duration=1s");
	unlink(path);
}
END_TEST

/* Needs the whole simulator: same scenario and seed, same report bytes;
 * one column per lock in the order given. */
START_TEST(test_key_space_value_equals_key_equals_value)
{
	if (!futexsim(&co, "run", "--threads", "3", "--ops=300", "--seed", "9"))
		return;
	futexsim(&co2, "run", "--threads=3", "--ops", "300", "--seed=9");
	ck_assert_int_eq(co.status, 0);
	ck_assert_int_eq(co2.status, 0);
	ck_assert_ptr_nonnull(strstr(co.out, "threads = 3\n"));
	ck_assert_ptr_nonnull(strstr(co.out, "seed = 9\n"));
	ck_assert_str_eq(co.out, co2.out);
}
END_TEST

START_TEST(test_run_is_deterministic_and_keeps_lock_order)
{
	char json[] = "/tmp/futexsim-cli-json-XXXXXX", opt[64], *doc;
	char lock[80], pat[2][64];
	const char *first = NULL, *second = NULL;
	FILE *f;
	long n;

	if (!futexsim(&co, "run", "--ops=2000", "--threads=3"))
		return;
	ck_assert_msg(co.status == 0, "status %d: %s", co.status, co.err);
	ck_assert_str_eq(co.err, "");
	ck_assert_ptr_nonnull(strstr(co.out, "seed 1"));
	ck_assert_ptr_nonnull(strstr(co.out, "\nthreads = 3\n"));
	futexsim(&co2, "run", "--threads=3", "--ops=2000");
	ck_assert_str_eq(co.out, co2.out);

	/* The last two visible locks of the registry, in reverse order. */
	for (int i = 0; ulock_registry[i]; i++) {
		if (ulock_registry[i]->broken)
			continue;
		second = first;
		first = ulock_registry[i]->name;
	}
	if (!second)
		second = first;
	snprintf(lock, sizeof(lock), "--lock=%s,%s", first, second);
	snprintf(pat[0], sizeof(pat[0]), "\"lock\":\"%s\"", first);
	snprintf(pat[1], sizeof(pat[1]), "\"lock\":\"%s\"", second);
	close(mkstemp(json));
	snprintf(opt, sizeof(opt), "--json=%s", json);
	futexsim(&co, "run", "--ops=500", lock, opt);
	ck_assert_msg(co.status == 0, "status %d: %s", co.status, co.err);
	f = fopen(json, "r");
	ck_assert_ptr_nonnull(f);
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	rewind(f);
	doc = calloc(1, (size_t)n + 1);
	ck_assert_int_eq(fread(doc, 1, (size_t)n, f), n);
	fclose(f);
	unlink(json);
	first = strstr(doc, pat[0]);
	second = strstr(first ? first + 1 : doc, pat[1]);
	ck_assert_msg(first && second, "lock order (%s): %s", lock, doc);
	free(doc);
}
END_TEST

Suite *cli_suite(void)
{
	return one_case_suite("cli", 120, (const TTest *const[]){
		test_version_prints_the_version_and_the_kernel,
		test_help_lists_the_commands_and_every_key,
		test_list_shows_machines_visible_locks_and_workloads,
		test_bad_command_lines_get_one_line_and_status_2,
		test_scenario_file_errors_name_the_file_line_and_key,
		test_key_space_value_equals_key_equals_value,
		test_run_is_deterministic_and_keeps_lock_order,
		NULL });
}

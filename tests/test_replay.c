/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tests/test_replay.c - suite "replay": replay files (sim/replay/replay.h).  A
 * recorded run replays to the same report bytes; a changed scenario, a
 * changed seed and a file cut short are reported as a divergence with its
 * decision number (exit 4); a broken header is one line and exit 2; a
 * failed run leaves a replay file that reproduces its failure report.
 *
 * Stage: the driver, end to end.  Run by tests/check_main.c; runs the
 * binary named by $FUTEXSIM (`make check` sets it) through
 * tests/run_child.h, each test in a temporary directory of its own (the
 * failure file is written to the current directory).  Also calls
 * sim_record_lock_path() and sim_replay_failure_path() directly.
 */
#include <check.h>
#include <dirent.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sim/replay/replay.h"
#include "sim/scenario/scenario.h"
#include "tests/run_child.h"

#define SCN	"--threads=6", "--ops=3000", "--seed=5"

static struct child_out co, co2, co3;
static char dir[] = "/tmp/futexsim-replay-XXXXXX";
static char bin[PATH_MAX];

struct exec_in {
	const char *const *argv;
};

static void exec_in_dir(void *arg)
{
	const struct exec_in *e = arg;

	if (chdir(dir)) {
		perror(dir);
		_exit(126);
	}
	execv(bin, (char *const *)e->argv);
	fprintf(stderr, "exec %s failed\n", bin);
	_exit(127);
}

/* Run futexsim with the arguments in the test's directory. */
#define fx(o, ...) \
	run_in((o), (const char *const[]){ "futexsim", __VA_ARGS__, NULL })

static void run_in(struct child_out *o, const char *const *argv)
{
	struct exec_in e = { .argv = argv };

	run_child(exec_in_dir, &e, o);
}

/* Each test: a fresh directory; without $FUTEXSIM: skipped (Return: 0). */
static int setup_dir(void)
{
	const char *b = getenv("FUTEXSIM");

	if (!b || !*b) {
		fprintf(stderr, "replay: FUTEXSIM is not set (make check sets it to "
			"the built binary): test skipped\n");
		return 0;
	}
	ck_assert_ptr_nonnull(realpath(b, bin));
	strcpy(dir, "/tmp/futexsim-replay-XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(dir));
	return 1;
}

static void remove_dir(void)
{
	char p[PATH_MAX];
	struct dirent *d;
	DIR *dp = opendir(dir);

	ck_assert_ptr_nonnull(dp);
	while ((d = readdir(dp)))
		if (strcmp(d->d_name, ".") != 0 && strcmp(d->d_name, "..") != 0) {
			snprintf(p, sizeof(p), "%s/%s", dir, d->d_name);
			unlink(p);
		}
	closedir(dp);
	rmdir(dir);
}

/* The file @name of the test's directory, NUL-terminated (free it). */
static char *slurp_in(const char *name, size_t *len)
{
	char p[PATH_MAX];

	snprintf(p, sizeof(p), "%s/%s", dir, name);
	return slurp(p, len);
}

static void spill(const char *name, const char *text, size_t len)
{
	char p[PATH_MAX];
	FILE *f;

	snprintf(p, sizeof(p), "%s/%s", dir, name);
	f = fopen(p, "w");
	ck_assert_ptr_nonnull(f);
	ck_assert_int_eq(fwrite(text, 1, len, f), len);
	fclose(f);
}

/* @name is a copy of @text with line @old replaced by @new ("" drops it). */
static void spill_edited(const char *name, const char *text, const char *old,
			 const char *new)
{
	const char *at = strstr(text, old);
	char *buf;
	size_t n;

	ck_assert_msg(at != NULL, "'%s' not in the file", old);
	n = strlen(text) - strlen(old) + strlen(new);
	buf = malloc(n + 1);
	ck_assert_ptr_nonnull(buf);
	snprintf(buf, n + 1, "%.*s%s%s", (int)(at - text), text, new,
		 at + strlen(old));
	spill(name, buf, n);
	free(buf);
}

/* The line number of "decisions" in @text: decision k is on line this+k. */
static int decisions_line(const char *text)
{
	const char *at = strstr(text, "\ndecisions\n");
	int line = 1;

	ck_assert_ptr_nonnull(at);
	for (const char *p = text; p <= at; p++)
		line += *p == '\n';
	return line;
}

/* Record a.replay; Return: its text. */
static char *record(void)
{
	fx(&co, "run", SCN, "--record=a.replay");
	ck_assert_msg(co.status == 0, "status %d: %s", co.status, co.err);
	return slurp_in("a.replay", NULL);
}

START_TEST(test_recorded_run_replays_byte_identically)
{
	char *text, *report;
	unsigned long long end;

	if (!setup_dir())
		return;
	text = record();
	ck_assert(!strncmp(text, SIM_REPLAY_FORMAT "\n", strlen(SIM_REPLAY_FORMAT) + 1));
	ck_assert_ptr_nonnull(strstr(text, "\nthreads = 6\n"));
	ck_assert_ptr_nonnull(strstr(text, "\nseed = 5\n"));
	ck_assert_ptr_null(strstr(text, "\nrecord = "));	/* an output key */
	ck_assert_int_eq(sscanf(strrchr(text, 'e'), "end %llu", &end), 1);
	ck_assert_uint_gt(end, 1000);
	ck_assert_ptr_nonnull(strstr(text, "\nS "));

	/* the report of `run` without --record, byte for byte */
	fx(&co2, "run", SCN);
	fx(&co3, "replay", "a.replay");
	ck_assert_msg(co3.status == 0, "status %d: %s", co3.status, co3.err);
	ck_assert_str_eq(co3.err, "");
	ck_assert_str_eq(co3.out, co2.out);
	/* and the recording run's report is that plus its record key */
	report = strstr(co.out, "record = a.replay\n");
	ck_assert_ptr_nonnull(report);
	memmove(report, report + strlen("record = a.replay\n"),
		strlen(report + strlen("record = a.replay\n")) + 1);
	ck_assert_str_eq(co.out, co2.out);

	/* another futexsim version: a note, and the same run */
	spill_edited("o.replay", text, "\nfutexsim = ", "\nfutexsim = 0.0.0-old\nx-");
	fx(&co3, "replay", "o.replay");
	ck_assert_int_eq(co3.status, 2);	/* x-futexsim is no key */
	spill_edited("o.replay", text, "\nfutexsim = ", "\nfutexsim = 0.0.0-old\n#");
	fx(&co3, "replay", "o.replay");
	ck_assert_msg(co3.status == 0, "status %d: %s", co3.status, co3.err);
	ck_assert_str_eq(co3.out, co2.out);
	ck_assert_ptr_nonnull(strstr(co3.err, "o.replay was recorded by futexsim 0.0.0-old (kernel "));
	ck_assert_ptr_nonnull(strstr(co3.err, "the run may diverge\n"));
	ck_assert_ptr_eq(strchr(co3.err, '\n') + 1, co3.err + strlen(co3.err));

	/* recording a replay gives the same file */
	fx(&co3, "replay", "a.replay", "--record=b.replay");
	ck_assert_int_eq(co3.status, 0);
	report = slurp_in("b.replay", NULL);
	ck_assert_str_eq(report, text);
	free(report);
	free(text);
	remove_dir();
}
END_TEST

/* stderr holds exactly one divergence line: Return: its decision number,
 * checked against the file line it names. */
static unsigned long long divergence(const struct child_out *o,
				     const char *text, const char *part)
{
	const char *d = strstr(o->err, "futexsim: replay: diverged at decision ");
	unsigned long long n;
	int line;

	ck_assert_msg(o->status == SIM_EXIT_DIVERGED, "status %d: %s",
		      o->status, o->err);
	ck_assert_msg(d != NULL, "no divergence in: %s", o->err);
	ck_assert_msg(strchr(d, '\n')[1] == '\0', "more than one line: %s",
		      o->err);
	ck_assert_msg(strstr(d, part), "'%s' missing from %s", part, d);
	ck_assert_ptr_nonnull(strstr(d, " (t="));
	ck_assert_int_eq(sscanf(d, "futexsim: replay: diverged at decision %llu", &n), 1);
	ck_assert(sscanf(strstr(d, ".replay:") + 8, "%d", &line) == 1);
	ck_assert_int_eq(line, decisions_line(text) + (int)n);
	ck_assert_ptr_nonnull(strstr(o->out, "Jain's fairness index"));
	return n;
}

START_TEST(test_changed_scenario_or_seed_reports_the_divergence)
{
	unsigned long long n;
	char *text;

	if (!setup_dir())
		return;
	text = record();
	spill_edited("c.replay", text, "\nthreads = 6\n", "\nthreads = 5\n");
	fx(&co, "replay", "c.replay");
	n = divergence(&co, text, "c.replay:");
	ck_assert_uint_gt(n, 1);	/* the first decisions are the same */
	ck_assert_ptr_nonnull(strstr(co.err, ": recorded switch to cpu "));
	ck_assert_ptr_nonnull(strstr(co.err, ", got switch to cpu "));
	ck_assert_ptr_nonnull(strstr(co.out, "threads = 5\n"));

	/* a command-line key overrides the file's: a tie-break among the
	 * idle CPUs of the first dispatches differs */
	fx(&co, "replay", "a.replay", "--seed=6");
	n = divergence(&co, text, "a.replay:");
	ck_assert_uint_lt(n, 10);
	ck_assert_ptr_nonnull(strstr(co.err, ": recorded tie-break "));
	ck_assert_ptr_nonnull(strstr(co.err, ", got tie-break "));

	/* a costlier critical section: same switches, later */
	spill_edited("d.replay", text, "\ncs = pause:5\n", "\ncs = pause:9\n");
	fx(&co, "replay", "d.replay");
	divergence(&co, text, " at ");
	free(text);
	remove_dir();
}
END_TEST

START_TEST(test_truncated_file_is_one_line_and_status_2)
{
	char *text, *cut;
	int head;

	if (!setup_dir())
		return;
	text = record();
	head = decisions_line(text);
	/* 500 whole decision lines, no "end" line */
	cut = text;
	for (int i = 0; i < head + 500; i++)
		cut = strchr(cut, '\n') + 1;
	spill("t.replay", text, (size_t)(cut - text));
	fx(&co, "replay", "t.replay");
	assert_one_line_error(&co, "t.replay", "truncated");
	/* cut inside a line */
	spill("u.replay", text, (size_t)(cut - text) + 3);
	fx(&co, "replay", "u.replay");
	assert_one_line_error(&co, "u.replay", "truncated");
	/* a complete file whose run ends before its decisions: a divergence */
	spill_edited("v.replay", text, "\nend ", "\nJ 5 1\nend ");
	fx(&co, "replay", "v.replay");
	divergence(&co, text, "recorded jitter draw 1 below 5, got the end of the run");
	free(text);
	remove_dir();
}
END_TEST

START_TEST(test_broken_header_is_one_line_and_status_2)
{
	char *text, want[PATH_MAX + 64];
	const char *fmt = SIM_REPLAY_FORMAT "\n";

	if (!setup_dir())
		return;
	text = record();
	spill("x.replay", "", 0);
	fx(&co, "replay", "x.replay");
	assert_one_line_error(&co, "x.replay:1: expected a futexsim replay file",
			      "the file is empty");
	spill_edited("x.replay", text, fmt, "futexsim-replay 9\n");
	fx(&co, "replay", "x.replay");
	assert_one_line_error(&co, "x.replay:1: expected format version 1",
			      "got 'futexsim-replay 9'");
	spill_edited("x.replay", text, "\nthreads = 6\n", "\nthraeds = 6\n");
	fx(&co, "replay", "x.replay");
	assert_one_line_error(&co, "x.replay:", ": thraeds: expected a known key");
	spill_edited("x.replay", text, "\nfutexsim = ", "\nnot-futexsim = ");
	fx(&co, "replay", "x.replay");
	assert_one_line_error(&co, "x.replay:", ": not-futexsim: expected a known key");
	spill_edited("x.replay", text, "\nseed = 5\n", "\n");
	snprintf(want, sizeof(want), "x.replay:%d: seed: expected a line 'seed = ...'",
		 decisions_line(text) - 1);
	fx(&co, "replay", "x.replay");
	assert_one_line_error(&co, want);
	spill_edited("x.replay", text, "\nseed = 5\n", "\njson = out.json\n");
	fx(&co, "replay", "x.replay");
	assert_one_line_error(&co, "json: expected no output key");
	spill("x.replay", text, strstr(text, "\nlock = ") - text + 5);
	fx(&co, "replay", "x.replay");
	assert_one_line_error(&co, "x.replay:", "the file ends inside this line");
	spill("x.replay", text, strstr(text, "\nlock = ") - text + 1);
	fx(&co, "replay", "x.replay");
	assert_one_line_error(&co, "x.replay:", "then the line 'decisions' (the file ends here)");
	/* a complete decision line that is none: corrupt, not cut short */
	spill_edited("x.replay", text, "\ndecisions\n", "\ndecisions\nS 12 x\n");
	snprintf(want, sizeof(want), "x.replay:%d: expected a decision line",
		 decisions_line(text) + 1);
	fx(&co, "replay", "x.replay");
	assert_one_line_error(&co, want, "got 'S 12 x'");
	fx(&co, "replay", "missing.replay");
	assert_one_line_error(&co, "expected a readable replay file", "missing.replay");
	fx(&co, "replay", "a.replay", "--record=a.replay");
	assert_one_line_error(&co, "--record: expected a file other than the replay file");
	fx(&co, "replay", "a.replay", "--lock=ww,ww-timed");
	assert_one_line_error(&co, "--lock: expected one lock");
	free(text);
	remove_dir();
}
END_TEST

START_TEST(test_failed_run_saves_a_replay_file_that_fails_alike)
{
	char seed[32], name[96], want[256], *text;
	int found = 0;

	if (!setup_dir())
		return;
	for (int s = 1; s <= 50 && !found; s++) {
		snprintf(seed, sizeof(seed), "--seed=%d", s);
		fx(&co, "run", "--machine=tiny4", "--threads=6", "--ops=3000",
		   "--cs=pause:5", "--lock=ww-busted", seed);
		if (co.status == 0)
			continue;
		ck_assert_int_eq(co.status, 3);
		found = s;
	}
	ck_assert_msg(found, "ww-busted never failed in 50 seeds");
	snprintf(name, sizeof(name), "futexsim-failure-ww-busted-%d.replay", found);
	snprintf(want, sizeof(want), "\nreplay file: %s (%s replay %s)\n", name,
		 "futexsim", name);
	ck_assert_msg(strstr(co.err, want), "'%s' missing from %s", want, co.err);
	text = slurp_in(name, NULL);
	ck_assert(!strncmp(text, SIM_REPLAY_FORMAT "\n", strlen(SIM_REPLAY_FORMAT) + 1));
	ck_assert_ptr_nonnull(strstr(text, "\nlock = ww-busted\n"));
	ck_assert_ptr_nonnull(strstr(text, "\nend "));
	free(text);
	fx(&co2, "replay", name);
	ck_assert_int_eq(co2.status, 3);
	ck_assert_str_eq(co2.err, co.err);	/* the same report, byte for byte */
	remove_dir();
}
END_TEST

START_TEST(test_several_locks_record_one_file_each)
{
	char *a, *b;

	if (!setup_dir())
		return;
	fx(&co, "run", "--threads=3", "--ops=300", "--lock=ww,ww-timed",
	   "--record=m.replay");
	ck_assert_msg(co.status == 0, "status %d: %s", co.status, co.err);
	a = slurp_in("m.ww.replay", NULL);
	b = slurp_in("m.ww-timed.replay", NULL);
	ck_assert_ptr_nonnull(strstr(a, "\nlock = ww\n"));
	ck_assert_ptr_nonnull(strstr(b, "\nlock = ww-timed\n"));
	fx(&co2, "replay", "m.ww-timed.replay");
	ck_assert_int_eq(co2.status, 0);
	ck_assert_ptr_nonnull(strstr(co2.out, "lock = ww-timed\n"));
	free(a);
	free(b);
	remove_dir();
}
END_TEST

START_TEST(test_help_tells_replay_and_record)
{
	if (!setup_dir())
		return;
	fx(&co, "--help");
	ck_assert_int_eq(co.status, 0);
	ck_assert_ptr_nonnull(strstr(co.out, "futexsim replay FILE [--key=value ...]"));
	ck_assert_ptr_nonnull(strstr(co.out, "--record=PATH|none"));
	ck_assert_ptr_nonnull(strstr(co.out, "  4  replay: the run diverged"));
	remove_dir();
}
END_TEST

START_TEST(test_file_names)
{
	struct sim_scenario one;
	char out[64];

	ck_assert_int_eq(sim_record_lock_path("r.replay", "ww", 1, out, sizeof(out)), 0);
	ck_assert_str_eq(out, "r.replay");
	ck_assert_int_eq(sim_record_lock_path("d.x/r.replay", "ww", 2, out, sizeof(out)), 0);
	ck_assert_str_eq(out, "d.x/r.ww.replay");
	ck_assert_int_eq(sim_record_lock_path("d.x/r", "ww", 2, out, sizeof(out)), 0);
	ck_assert_str_eq(out, "d.x/r.ww");
	ck_assert_int_eq(sim_record_lock_path("r.replay", "a-very-long-lock-name",
					      2, out, 16), -1);
	sim_scenario_defaults(&one);
	one.seed = 18446744073709551615ULL;
	sim_replay_failure_path(&one, out, sizeof(out));
	ck_assert_str_eq(out, "futexsim-failure-ww-18446744073709551615.replay");
	/* a user program's run is named after the program, not its lock */
	strcpy(one.workload, "program");
	strcpy(one.program, "./dir.d/my prog.out");
	one.seed = 2;
	sim_replay_failure_path(&one, out, sizeof(out));
	ck_assert_str_eq(out, "futexsim-failure-my_prog-2.replay");
	strcpy(one.program, "/tmp/.hidden");
	sim_replay_run_name(&one, out, sizeof(out));
	ck_assert_str_eq(out, "_hidden");
	strcpy(one.program, "lostwake");
	sim_replay_run_name(&one, out, 5);
	ck_assert_str_eq(out, "lost");
}
END_TEST

Suite *replay_suite(void)
{
	return one_case_suite("replay", 300, (const TTest *const[]){
		test_recorded_run_replays_byte_identically,
		test_changed_scenario_or_seed_reports_the_divergence,
		test_truncated_file_is_one_line_and_status_2,
		test_broken_header_is_one_line_and_status_2,
		test_failed_run_saves_a_replay_file_that_fails_alike,
		test_several_locks_record_one_file_each,
		test_help_tells_replay_and_record,
		test_file_names,
		NULL });
}

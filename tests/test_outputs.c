/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tests/test_outputs.c - suite "outputs": output files never destroy
 * data (sim/host/outfile.c, sim/cli/cli_files.c) through the binary.
 * Two outputs that are one file, and an output that is an input of the
 * run (the scenario, the machine file, the replay file), are bad input
 * and leave every file as it was, for `run`, `replay` and `explore`,
 * while distinct files are accepted; a
 * full disk (a file size limit, EFBIG) leaves the previous files, and
 * no temporary, under the final names, says which file could not be
 * written, and exits 1 (a normal run) or 3 (a failing run, whose report
 * then names no replay file); an output that is a symlink is replaced,
 * its target untouched; a text trace ends with its end line.
 *
 * Stage: CLI, end to end.  Run by tests/check_main.c; runs $FUTEXSIM
 * (`make check` sets it) through tests/run_child.h, in a temporary
 * directory, under setrlimit(RLIMIT_FSIZE) for the full disk (SIGXFSZ at
 * its default, as `ulimit -f` leaves it: futexsim ignores it itself).  Without $FUTEXSIM each test says so and passes.
 */
#include <check.h>
#include <dirent.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tests/run_child.h"
#include "version.h"

static struct child_out co;
static char bin[PATH_MAX];	/* $FUTEXSIM, absolute			*/
static char dir[64];		/* this test's temporary directory	*/

/* What the child runs: futexsim with @argv in dir, under @fsize bytes
 * of file size (0: no limit), stdout to /dev/null if @no_stdout. */
static struct {
	const char *const *argv;
	rlim_t fsize;
	int no_stdout;
} job;

static void job_exec(void *arg)
{
	struct rlimit rl;

	(void)arg;
	if (chdir(dir))
		_exit(126);
	if (job.no_stdout && !freopen("/dev/null", "w", stdout))
		_exit(126);
	if (job.fsize) {
		/* SIGXFSZ left as a shell leaves it after `ulimit -f`:
		 * futexsim ignores it itself, so writes fail with EFBIG */
		rl.rlim_cur = rl.rlim_max = job.fsize;
		if (setrlimit(RLIMIT_FSIZE, &rl))
			_exit(126);
	}
	execv(bin, (char *const *)job.argv);
	_exit(127);
}

static void run_job(const char *const *argv, rlim_t fsize, int no_stdout)
{
	job.argv = argv;
	job.fsize = fsize;
	job.no_stdout = no_stdout;
	run_child(job_exec, NULL, &co);
}

#define fx(...) \
	run_job((const char *const[]){ "futexsim", __VA_ARGS__, NULL }, 0, 0)
#define fx_full(fsize, ...) \
	run_job((const char *const[]){ "futexsim", __VA_ARGS__, NULL }, (fsize), 1)

static int setup_dir(void)
{
	const char *b = getenv("FUTEXSIM");

	if (!b || !*b) {
		fprintf(stderr, "outputs: FUTEXSIM is not set (make check sets it to "
			"the built binary): test skipped\n");
		return 0;
	}
	ck_assert_ptr_nonnull(realpath(b, bin));
	strcpy(dir, "/tmp/futexsim-outputs-XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(dir));
	return 1;
}

static void remove_dir(void)
{
	char p[PATH_MAX];
	struct dirent *de;
	DIR *d = opendir(dir);

	while (d && (de = readdir(d)))
		if (strcmp(de->d_name, ".") && strcmp(de->d_name, "..")) {
			snprintf(p, sizeof(p), "%s/%s", dir, de->d_name);
			unlink(p);
		}
	if (d)
		closedir(d);
	rmdir(dir);
}

static const char *in_dir(const char *name)
{
	static char p[PATH_MAX];

	snprintf(p, sizeof(p), "%s/%s", dir, name);
	return p;
}

static void spill(const char *name, const char *text)
{
	FILE *f = fopen(in_dir(name), "w");

	ck_assert_ptr_nonnull(f);
	fputs(text, f);
	ck_assert_int_eq(fclose(f), 0);
}

/* The file @name holds @text exactly. */
static void assert_holds(const char *name, const char *text)
{
	char *got = slurp(in_dir(name), NULL);

	ck_assert_msg(!strcmp(got, text), "%s changed: [%.200s]", name, got);
	free(got);
}

/* The directory holds exactly the NULL-terminated @names: no temporary
 * file, no partial output under another name. */
static void assert_dir_is(const char *const *names)
{
	struct dirent *de;
	DIR *d = opendir(dir);
	int n = 0, want = 0;

	ck_assert_ptr_nonnull(d);
	while ((de = readdir(d))) {
		int known = 0;

		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		for (int i = 0; names[i]; i++)
			known |= !strcmp(names[i], de->d_name);
		ck_assert_msg(known, "unexpected file %s", de->d_name);
		n++;
	}
	closedir(d);
	while (names[want])
		want++;
	ck_assert_int_eq(n, want);
}

#define SMALL	"--threads=3", "--ops=200", "--seed=2"

/* ---- two outputs, one file; an output that is an input ------------------ */

START_TEST(test_two_outputs_that_are_one_file_are_refused)
{
	if (!setup_dir())
		return;
	spill("same.json", "keep\n");
	fx("run", SMALL, "--trace=same.json", "--json=same.json");
	assert_one_line_error(&co, "--json", "--trace file", "same.json");
	fx("run", SMALL, "--record=same.json", "--json=./same.json");
	assert_one_line_error(&co, "--json", "--record file", "same.json");
	/* with several locks, each lock's record is compared too */
	fx("run", SMALL, "--lock=ww,tp", "--record=x.txt", "--trace=x.txt");
	assert_one_line_error(&co, "--trace", "--record file", "x.ww.txt");
	fx("run", SMALL, "--lock-stat=same.json", "--json=same.json");
	assert_one_line_error(&co, "--json", "--lock-stat file", "same.json");
	assert_holds("same.json", "keep\n");
	assert_dir_is((const char *const[]){ "same.json", NULL });
	remove_dir();
}
END_TEST

START_TEST(test_an_output_that_is_an_input_of_the_run_is_refused)
{
	char *machine, *rec;

	if (!setup_dir())
		return;
	spill("input.scn", "threads = 3\nops = 200\n");
	fx("run", "input.scn", "--json=input.scn");
	assert_one_line_error(&co, "--json", "the scenario file being read",
			      "input.scn");
	machine = slurp(FUTEXSIM_MACHINES_DIR "/tiny4.machine", NULL);
	spill("my.machine", machine);
	fx("run", SMALL, "--machine=my.machine", "--record=my.machine");
	assert_one_line_error(&co, "--record", "the machine file being read",
			      "my.machine");
	fx("run", SMALL, "--record=r.replay");
	ck_assert_msg(co.status == 0, "status %d: %s", co.status, co.err);
	rec = slurp(in_dir("r.replay"), NULL);
	fx("replay", "r.replay", "--json=r.replay");
	assert_one_line_error(&co, "--json", "the replay file being read",
			      "r.replay");
	fx("replay", "r.replay", "--lock-stat=./r.replay");
	assert_one_line_error(&co, "--lock-stat", "the replay file being read");
	fx("shrink", "r.replay", "--out=./r.replay");
	assert_one_line_error(&co, "--out", "the replay file being shrunk",
			      "./r.replay");
	fx("run", SMALL, "--json", bin);
	assert_one_line_error(&co, "--json", "the futexsim executable");
	assert_holds("input.scn", "threads = 3\nops = 200\n");
	assert_holds("my.machine", machine);
	assert_holds("r.replay", rec);
	free(machine);
	free(rec);
	remove_dir();
}
END_TEST

START_TEST(test_explore_refuses_a_summary_that_is_its_out_or_its_scenario)
{
	if (!setup_dir())
		return;
	spill("in.scn", "threads = 3\nops = 100\n");
	fx("explore", "in.scn", "--runs=2", "--summary=s.txt", "--out=./s.txt");
	assert_one_line_error(&co, "--out", "--summary file", "s.txt");
	fx("explore", "in.scn", "--runs=2", "--summary=in.scn");
	assert_one_line_error(&co, "--summary", "the scenario file being read");
	assert_holds("in.scn", "threads = 3\nops = 100\n");
	/* the control: two files */
	fx("explore", "in.scn", "--runs=2", "--summary=s.txt", "--out=o.replay");
	ck_assert_msg(co.status == 0, "status %d: %s", co.status, co.err);
	free(slurp(in_dir("s.txt"), NULL));
	remove_dir();
}
END_TEST

/* The negative control: distinct files, and a link to an input, pass. */
START_TEST(test_distinct_outputs_are_accepted_and_a_symlink_is_replaced)
{
	char *json;

	if (!setup_dir())
		return;
	spill("input.scn", "threads = 3\nops = 200\n");
	ck_assert_int_eq(symlink("input.scn", in_dir("link.json")), 0);
	fx("run", "input.scn", "--json=link.json", "--trace=t.json",
	   "--record=r.replay", "--lock-stat=ls.txt");
	ck_assert_msg(co.status == 0, "status %d: %s", co.status, co.err);
	assert_holds("input.scn", "threads = 3\nops = 200\n");
	json = slurp(in_dir("link.json"), NULL);
	ck_assert(!strncmp(json, "{\"scenario\":", 12));
	free(json);
	/* the link itself was replaced by the file */
	{
		struct stat st;

		ck_assert_int_eq(lstat(in_dir("link.json"), &st), 0);
		ck_assert(S_ISREG(st.st_mode));
	}
	assert_dir_is((const char *const[]){ "input.scn", "link.json",
		"t.json", "r.replay", "ls.txt", NULL });
	remove_dir();
}
END_TEST

/* ---- a full disk -------------------------------------------------------- */

#define OLD	"the previous file\n"

START_TEST(test_full_disk_leaves_the_previous_files_and_exits_1)
{
	char *json;
	size_t len;

	if (!setup_dir())
		return;
	spill("t.txt", OLD);
	spill("r.replay", OLD);
	spill("r.json", OLD);
	/* 16 KiB: the trace and the record do not fit */
	fx_full(16384, "run", "--threads=6", "--ops=3000", "--trace=t.txt",
		"--record=r.replay", "--json=r.json");
	ck_assert_msg(co.status == 1, "status %d: %s", co.status, co.err);
	ck_assert_msg(strstr(co.err, "futexsim: writing t.txt: File too large\n"),
		      "no error line for the trace: %s", co.err);
	ck_assert_msg(strstr(co.err, "futexsim: writing r.replay: File too large\n"),
		      "no error line for the record: %s", co.err);
	assert_holds("t.txt", OLD);
	assert_holds("r.replay", OLD);
	assert_holds("r.json", OLD);
	assert_dir_is((const char *const[]){ "t.txt", "r.replay", "r.json",
		NULL });

	/* the JSON alone: 256 bytes do not hold it */
	fx_full(256, "run", SMALL, "--json=r.json");
	ck_assert_msg(co.status == 1, "status %d: %s", co.status, co.err);
	ck_assert_str_eq(co.err, "futexsim: writing r.json: File too large\n");
	assert_holds("r.json", OLD);
	assert_dir_is((const char *const[]){ "t.txt", "r.replay", "r.json",
		NULL });

	/* the control: without the limit, every file is written */
	fx("run", "--threads=6", "--ops=3000", "--trace=t.txt",
	   "--record=r.replay", "--json=r.json");
	ck_assert_msg(co.status == 0, "status %d: %s", co.status, co.err);
	ck_assert_ptr_null(strstr(co.err, "writing"));
	json = slurp(in_dir("r.replay"), &len);
	ck_assert_uint_gt(len, 16384);
	free(json);
	json = slurp(in_dir("t.txt"), &len);
	ck_assert_uint_gt(len, 16384);
	free(json);
	remove_dir();
}
END_TEST

/* A seed for which ww-busted fails (exit 3), found as the replay tests do. */
#define BUSTED	"--machine=tiny4", "--threads=6", "--ops=3000", "--cs=pause:5", \
		"--lock=ww-busted"

static int busted_seed(char *opt, size_t len)
{
	for (int s = 1; s <= 50; s++) {
		snprintf(opt, len, "--seed=%d", s);
		fx("run", BUSTED, opt, "--record=probe.replay");
		unlink(in_dir("probe.replay"));
		if (co.status == 3)
			return s;
		ck_assert_msg(co.status == 0, "status %d: %s", co.status, co.err);
	}
	ck_abort_msg("ww-busted never failed in 50 seeds");
	return 0;
}

START_TEST(test_full_disk_in_a_failing_run_keeps_3_and_names_no_replay_file)
{
	char seed[32], saved[96], *text;
	int s;

	if (!setup_dir())
		return;
	s = busted_seed(seed, sizeof(seed));
	spill("r.replay", OLD);
	/* the report is ~5 KiB on stderr: 24 KiB hold it, not the record */
	fx_full(24576, "run", BUSTED, seed, "--record=r.replay");
	ck_assert_msg(co.status == 3, "status %d: %s", co.status, co.err);
	ck_assert_msg(strstr(co.err, "\nfutexsim: writing r.replay: File too large\n"),
		      "no error line: %s", co.err);
	ck_assert_ptr_nonnull(strstr(co.err, "\nreplay file: none (it could not be written)\n"));
	ck_assert_ptr_null(strstr(co.err, "replay file: r.replay"));
	assert_holds("r.replay", OLD);
	assert_dir_is((const char *const[]){ "r.replay", NULL });

	/* the failure saved without --record: not saved, and not named */
	snprintf(saved, sizeof(saved), "futexsim-failure-ww-busted-%d.replay", s);
	spill(saved, OLD);
	fx_full(24576, "run", BUSTED, seed);
	ck_assert_msg(co.status == 3, "status %d: %s", co.status, co.err);
	ck_assert_msg(strstr(co.err, "File too large\n") &&
		      strstr(co.err, saved), "no error line: %s", co.err);
	ck_assert_ptr_null(strstr(co.err, "replay file: futexsim-failure"));
	assert_holds(saved, OLD);
	assert_dir_is((const char *const[]){ "r.replay", saved, NULL });

	/* the control: without the limit, the failure's file is saved */
	fx("run", BUSTED, seed);
	ck_assert_int_eq(co.status, 3);
	ck_assert_ptr_nonnull(strstr(co.err, "\nreplay file: futexsim-failure"));
	text = slurp(in_dir(saved), NULL);
	ck_assert_ptr_nonnull(strstr(text, "\nend "));
	free(text);
	remove_dir();
}
END_TEST

/* ---- the text trace's end line ------------------------------------------ */

/*
 * What a reader of a text trace checks: @text ends with "# end of trace:
 * N events", N its event lines.  Return: NULL, or what is wrong, starting
 * with "truncated".
 */
static const char *trace_problem(const char *text)
{
	const char *end, *p;
	unsigned long n = 0, lines = 0;
	size_t len = strlen(text);

	if (!len || text[len - 1] != '\n')
		return "truncated: inside a line";
	for (end = text + len - 1; end > text && end[-1] != '\n'; end--)
		;
	if (sscanf(end, "# end of trace: %lu events\n", &n) != 1)
		return "truncated: no end line";
	for (p = text; p < end; p = strchr(p, '\n') + 1)
		lines += p[0] != '#';
	return n == lines && n ? NULL : "truncated: the end line's count is not the trace's";
}

START_TEST(test_text_trace_ends_with_its_end_line_even_when_the_run_fails)
{
	char seed[32], *text, *cut;
	const char *why;

	if (!setup_dir())
		return;
	fx("run", SMALL, "--trace=t.txt");
	ck_assert_msg(co.status == 0, "status %d: %s", co.status, co.err);
	text = slurp(in_dir("t.txt"), NULL);
	why = trace_problem(text);
	ck_assert_msg(!why, "%s", why);
	/* the negative controls: cut at a line boundary, or inside a line */
	cut = strstr(text, "# end of trace");
	ck_assert_ptr_nonnull(cut);
	*cut = '\0';
	why = trace_problem(text);
	ck_assert_msg(why && !strncmp(why, "truncated", 9), "a cut trace passes");
	cut[-3] = '\0';
	why = trace_problem(text);
	ck_assert_msg(why && !strncmp(why, "truncated", 9), "a cut line passes");
	free(text);

	busted_seed(seed, sizeof(seed));
	fx("run", BUSTED, seed, "--trace=f.txt", "--record=f.replay");
	ck_assert_int_eq(co.status, 3);
	text = slurp(in_dir("f.txt"), NULL);
	why = trace_problem(text);
	ck_assert_msg(!why, "a failed run's trace: %s", why);
	free(text);
	remove_dir();
}
END_TEST

Suite *outputs_suite(void)
{
	return one_case_suite("outputs", 600, (const TTest *const[]){
		test_two_outputs_that_are_one_file_are_refused,
		test_an_output_that_is_an_input_of_the_run_is_refused,
		test_explore_refuses_a_summary_that_is_its_out_or_its_scenario,
		test_distinct_outputs_are_accepted_and_a_symlink_is_replaced,
		test_full_disk_leaves_the_previous_files_and_exits_1,
		test_full_disk_in_a_failing_run_keeps_3_and_names_no_replay_file,
		test_text_trace_ends_with_its_end_line_even_when_the_run_fails,
		NULL });
}

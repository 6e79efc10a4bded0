/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sim/cli/cli.c - main(): the futexsim command line.
 *
 *   futexsim run [SCENARIO] [--key=value ...]
 *   futexsim replay FILE [--key=value ...]
 *   futexsim view FILE.replay [-o OUT.html] [--key=value ...]
 *   futexsim compare [SCENARIO] --seeds=N (--against=OTHER | --b-set=KEY=VALUE,...)
 *   futexsim plot-table TABLE -o FILE.svg
 *   futexsim list [machines|locks|workloads]
 *   futexsim --version | --help
 *
 * Stage: the driver of the whole flow.  `run` resolves the scenario
 * (sim/scenario/scenario.c: defaults, then the SCENARIO file, then the command
 * line), loads the machine preset (sim/scenario/preset.c), then for each lock of
 * the lock list forks a process that builds the machine
 * (sim_machine_init()), runs the workload (workload -> ulock -> futex(2)
 * -> kernel -> sched -> machine) and sends its struct sim_result back
 * through a pipe.  Last, the report (sim/report/report.c).  With --trace, each
 * child writes its own trace file (sim/trace/trace.h): FILE itself for one
 * lock, FILE with ".LOCK" before the extension for several.  With
 * --lock-stat, each child sends its table after its result and the parent
 * prints the tables after the report (sim/trace/lockstat.h); with
 * --plot, each child sends its threads' operations and its latency
 * histogram right after its result (sim/report/detail.h) and the parent
 * draws the SVG once every lock's are in (sim/report/plot_run.h); --narrate goes
 * from each child to stderr (sim/trace/trace.h).
 *
 * Every output file is written through sim/host/outfile.h (a temporary,
 * renamed into place when whole) by the process that opens it: a child
 * its trace and its record, the parent the JSON and lock-stat files; the
 * checks before the run (sim_cli_check_files(), sim/cli/cli_files.c)
 * refuse two outputs that are one file and an output that is an input.
 *
 * `replay` takes the scenario from a replay file's header
 * (sim_replay_load()), then the command line, and runs its one lock while
 * the child checks every decision against the file (sim/replay/replay.h); a run
 * that diverged still prints its report, and exits SIM_EXIT_DIVERGED.
 * --record makes the child write one.  A run that fails (exit 3) without
 * --record is run once more, recording, into
 * futexsim-failure-NAME-SEED.replay in the current directory (NAME: the
 * lock, or a user program's name: sim_replay_run_name()), and the
 * failure report names that file and the command that replays it.
 *
 * One process per lock: every lock starts from a fresh machine, arena and
 * kernel state, exactly as its replay command would, and a simulated
 * failure (exit 3, report already on stderr) ends that process alone; the
 * parent then exits with the same status.  Bad input: one line, exit 2.
 *
 * The usage text (--help) and `list` are sim/cli/cli_list.c (sim/cli/cli.h);
 * `explore` and `merge` are sim/explore/explore_cmd.c, `shrink` sim/explore/shrink.c,
 * `play` sim/explore/play.c,
 * `compare` sim/compare/compare.c, `build` sim/program/build.c; a program's pre-pass sim/program/prepass.c.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "sim/cache/cache.h"
#include "sim/cli/cli.h"
#include "sim/compare/compare.h"
#include "sim/host/fdio.h"
#include "sim/host/outfile.h"
#include "sim/explore/explore_run.h"
#include "sim/explore/play.h"
#include "sim/report/detail.h"
#include "sim/report/failure.h"
#include "sim/report/plot_run.h"
#include "sim/report/plot_table.h"
#include "sim/report/progress.h"
#include "sim/trace/lockstat.h"
#include "sim/machine/machine.h"
#include "sim/machine/memmodel.h"
#include "sim/scenario/preset.h"
#include "sim/program/program.h"
#include "sim/replay/replay.h"
#include "sim/report/report.h"
#include "sim/scenario/scenario.h"
#include "sim/trace/trace.h"
#include "workloads/workload.h"
#include "version.h"

static const struct sim_origin cmdline = { .file = "command line" };

/* A host-side failure that is neither bad input nor a simulated one. */
static void __attribute__((noreturn)) die_errno(const char *what)
{
	fprintf(stderr, "futexsim: %s: %s\n", what, strerror(errno));
	exit(SIM_EXIT_HOST);
}

/* ---- one lock, one process --------------------------------------------- */

static void write_full(int fd, const void *p, size_t n)
{
	if (sim_write_full(fd, p, n))
		die_errno("writing a result to the parent");
}

/* The run's plot (sim/report/plot_run.h), for the page of an HTML trace:
 * drawn in memory and handed to the trace; without memory, no picture. */
static void page_picture(const struct sim_scenario *one,
			 const struct sim_result *r)
{
	char *svg = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&svg, &len);
	int bad;

	if (!m)
		return;
	bad = sim_plot_run_svg(m, one, r, sim_detail_kept(), 1);
	if (!fclose(m) && !bad)
		sim_trace_picture(svg);
	free(svg);
}

/* The child: build the machine, run the workload with lock @one; write
 * its trace to @trace and its decisions to @rec if not NULL (kept only if
 * the run fails when @failed_only), check them against @src if not NULL.
 * Exit status SIM_EXIT_DIVERGED after sending the result if the replay
 * diverged.  The child writes, and renames into place, its own files
 * (sim/host/outfile.h); the parent only the report's. */
static void __attribute__((noreturn))
child_run(const struct sim_scenario *one, const struct sim_preset *preset,
	  const char *replay, const char *trace, const char *rec,
	  int failed_only, const struct sim_replay_src *src, int fd)
{
	const struct wl_workload *wl = one->wl;
	/* NULL for a workload with kernel locks: it takes one->klock[0] */
	const struct ulock_ops *lock = one->ulock[0];
	struct sim_result r;

	int status;

	sim_failure_set_replay(replay);
	/* a failure of a run that does not narrate is reported by its
	 * re-run with the narration kept (report_again()) */
	sim_failure_defer(!one->narrate);
	sim_explore_child_setup(one, preset);	/* strategy=pct: calibrate */
	sim_program_prepass(one, preset, src);	/* a program: its futex words */
	if (rec && sim_record_start(rec, one))
		die_errno(rec);
	if (rec && failed_only)
		sim_record_failed_only();
	if (src)
		sim_replay_start(src);
	sim_failure_set_stuck_ms(one->stuck_ms);
	sim_machine_init(preset, one->cpus, one->seed);
	sim_cache_set_jitter(one->cost_jitter_pct);
	sim_memory_set((enum sim_memory)one->memory);
	sim_set_livelock_ps(one->livelock_ps);
	sim_explore_child_start(one);		/* strategy=, oracle= */
	/* the event stream: --trace, --narrate, --lock-stat */
	if ((trace || one->narrate || one->lock_stat[0]) &&
	    sim_trace_open(trace, one))
		die_errno(trace);
	memset(&r, 0, sizeof(r));
	/* plot=, and an HTML trace's page: the threads' figures */
	sim_detail_want(one->plot[0] != '\0' || sim_trace_is_page());
	sim_progress_bar_start(one);
	wl->run(one, lock, &r);
	sim_progress_bar_stop();
	if (!r.lock[0])
		memcpy(r.lock, one->locks[0],
		       strnlen(one->locks[0], sizeof(r.lock) - 1));
	if (sim_trace_is_page())
		page_picture(one, &r);
	if (sim_trace_close())
		exit(SIM_EXIT_HOST);	/* its line is printed */
	status = sim_replay_finish();
	write_full(fd, &r, sizeof(r));
	if (one->plot[0] && sim_detail_send(fd))
		die_errno("sending the figures of the plot");
	if (one->lock_stat[0] &&
	    sim_lockstat_send(fd, one->locks[0], one->seed))
		die_errno("sending the lock-stat table");
	fflush(NULL);
	_exit(status);
}

/*
 * Run @one again in a child with its output (and its stderr too if
 * @silent, but for the line of a file it could not write) sent to
 * /dev/null, recording into @rec if not NULL (kept only if the run fails
 * when @failed_only) and checking the decisions of @src if not NULL.
 * Return: its exit status, 3 for a failure, -1 if it died of a signal.
 */
static int rerun(const struct sim_scenario *one,
		 const struct sim_preset *preset, const char *replay,
		 const char *rec, int failed_only,
		 const struct sim_replay_src *src, int silent)
{
	int quiet, status, err;
	pid_t pid;

	quiet = open("/dev/null", O_RDWR);
	if (quiet < 0)
		die_errno("/dev/null");
	fflush(NULL);
	pid = fork();
	if (pid < 0)
		die_errno("fork");
	if (pid == 0) {
		dup2(quiet, STDOUT_FILENO);
		if (silent && (err = dup(STDERR_FILENO)) >= 0)
			sim_outfile_errors_to(err);
		if (silent)
			dup2(quiet, STDERR_FILENO);
		child_run(one, preset, replay, NULL, rec, failed_only, src,
			  quiet);
	}
	close(quiet);
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			die_errno("waitpid");
	if (WIFSIGNALED(status) && rec)
		sim_outfile_remove_orphans(rec, pid);
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/* The identity of file @path, 0 if there is none. */
static ino_t inode_of(const char *path)
{
	struct stat st;

	return stat(path, &st) ? 0 : st.st_ino;
}

/*
 * A narrated run failed (exit 3, report on stderr, up to its "replay:"
 * line) and was not recorded: run it again, silently, recording into
 * @path, and name the file (the report's last line, @file_line) once it
 * is written.  The record is renamed into place whole (a new inode), or
 * not at all, its line printed by the re-run.
 */
static void save_failure(const struct sim_scenario *one,
			 const struct sim_preset *preset, const char *replay,
			 const char *path, const char *file_line)
{
	ino_t before = inode_of(path);
	int status = rerun(one, preset, replay, path, 1, NULL, 1);
	ino_t after = inode_of(path);

	if (status != SIM_EXIT_FAILURE)
		fprintf(stderr, "futexsim: %s was not saved: the run did not fail again when recorded\n",
			path);
	else if (after && after != before)
		fprintf(stderr, "%s\n", file_line);
}

/*
 * A run that did not narrate failed (SIM_EXIT_REPORT_AGAIN, nothing
 * printed): run it again with the narration kept in memory only, so that
 * its report (on stderr) shows the last events, recording into @rec, or
 * into @failed (kept if the run fails) if not NULL, and checking the
 * decisions of @src again if not NULL.  The run is a pure function of
 * scenario and seed, so it fails again, the same way; its report names
 * the replay file once written (sim_record_end()).
 * Return: the re-run's exit status (3), 1 if it did not fail.
 */
static int report_again(const struct sim_scenario *one,
			const struct sim_preset *preset, const char *replay,
			const char *rec, const char *failed,
			const struct sim_replay_src *src)
{
	struct sim_scenario again = *one;
	int status;

	again.narrate = SIM_NARRATE_QUIET;
	status = rerun(&again, preset, replay, rec ? rec : failed, !rec, src,
		       0);
	if (status == SIM_EXIT_FAILURE)
		return SIM_EXIT_FAILURE;
	fprintf(stderr, "futexsim: lock %s failed, but not when run again for its report: the simulation is not deterministic (a futexsim bug: please report it with the command below)\nreplay: %.*s\n",
		one->locks[0], (int)strcspn(replay, "\n"), replay);
	return SIM_EXIT_HOST;
}

static double seconds_since(const struct timespec *t0)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)(t.tv_sec - t0->tv_sec) +
	       (double)(t.tv_nsec - t0->tv_nsec) / 1e9;
}

/*
 * Run lock @idx of @s in a child (checking the decisions of @src if not
 * NULL); fill @r (and @detail with plot=, @lockstat with lock-stat=), or
 * exit as the child did.  Return: the child's status,
 * 0 or SIM_EXIT_DIVERGED.
 */
static int run_lock(const char *self, const struct sim_scenario *s, int idx,
		    const struct sim_preset *preset,
		    const struct sim_replay_src *src, struct sim_result *r,
		    struct sim_detail *detail, char **lockstat)
{
	struct sim_scenario one = *s;	/* the scenario with this lock only */
	struct timespec t0;
	char replay[8192], trace[sizeof(s->trace) + sizeof(s->locks[0]) + 1];
	char shown[8192];	/* the command the child's report shows	*/
	char rec[sizeof(s->record) + sizeof(s->locks[0]) + 1], failed[320];
	const char *file = NULL;	/* the replay file of this run	*/
	int fd[2], status;
	size_t got;
	pid_t pid;

	sim_scenario_pick_lock(&one, s, idx);
	if (s->record[0])
		sim_record_lock_path(s->record, one.locks[0], s->nr_locks, rec,
				     sizeof(rec));
	sim_replay_failure_path(&one, failed, sizeof(failed));
	if (src)
		file = src->path;
	else if (s->record[0])
		file = rec;
	else if (!access(".", W_OK))
		file = failed;	/* saved if the run fails */
	sim_replay_command(self, &one, file, replay, sizeof(replay));
	/* a narrated run reports as it fails, before its failure is saved:
	 * its report names the file once saved (save_failure()) */
	if (file == failed && one.narrate)
		sim_replay_command(self, &one, NULL, shown, sizeof(shown));
	else
		memcpy(shown, replay, sizeof(shown));
	if (s->trace[0])
		sim_trace_lock_path(s->trace, one.locks[0], s->nr_locks, trace,
				    sizeof(trace));
	if (pipe(fd))
		die_errno("pipe");
	fflush(NULL);		/* the child must not print our buffers again */
	clock_gettime(CLOCK_MONOTONIC, &t0);
	pid = fork();
	if (pid < 0)
		die_errno("fork");
	if (pid == 0) {
		close(fd[0]);
		child_run(&one, preset, shown, s->trace[0] ? trace : NULL,
			  s->record[0] ? rec : NULL, 0, src, fd[1]);
	}
	close(fd[1]);
	got = sim_read_full(fd[0], r, sizeof(*r));
	if (got == sizeof(*r) && s->plot[0] && sim_detail_recv(fd[0], detail))
		got = 0;	/* a result without its figures: none */
	*lockstat = got == sizeof(*r) ? sim_lockstat_recv(fd[0]) : NULL;
	close(fd[0]);
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			die_errno("waitpid");
	/* A crash of the simulation is a failure of the simulated run too
	 * (a task's stack overflow, a kernel oops): status 3, with the
	 * command that reproduces it. */
	if (WIFSIGNALED(status)) {
		if (s->trace[0])
			sim_outfile_remove_orphans(trace, pid);
		if (s->record[0])
			sim_outfile_remove_orphans(rec, pid);
		fprintf(stderr, "futexsim: lock %s: the simulation died of signal %d (%s); replay: %.*s\n",
			one.locks[0], WTERMSIG(status),
			strsignal(WTERMSIG(status)), (int)strcspn(replay, "\n"),
			replay);
		exit(SIM_EXIT_FAILURE);
	}
	if (WEXITSTATUS(status) == SIM_EXIT_REPORT_AGAIN)
		exit(report_again(&one, preset, replay,
				  s->record[0] ? rec : NULL,
				  file == failed ? failed : NULL, src));
	if (WEXITSTATUS(status) == SIM_EXIT_FAILURE && file == failed)
		save_failure(&one, preset, replay, failed,
			     replay + strcspn(replay, "\n") + 1);
	if (WEXITSTATUS(status) && WEXITSTATUS(status) != SIM_EXIT_DIVERGED)
		exit(WEXITSTATUS(status));	/* its report is on stderr */
	if (got != sizeof(*r)) {
		fprintf(stderr, "futexsim: lock %s: the simulation sent no result\n",
			one.locks[0]);
		exit(SIM_EXIT_HOST);
	}
	if (r->host_seconds == 0)
		r->host_seconds = seconds_since(&t0);
	return WEXITSTATUS(status);
}

/* ---- commands ---------------------------------------------------------- */

/*
 * Apply "--key=value" (or "--key value": @next is the following argument,
 * NULL if none) from the command line.  Return: arguments consumed.
 */
static int apply_option(struct sim_scenario *s, const char *arg,
			const char *next)
{
	const char *eq = strchr(arg, '=');
	char key[64], expected[160];
	size_t n = eq ? (size_t)(eq - arg - 2) : strlen(arg + 2);

	if (!n || n >= sizeof(key))
		sim_config_fail(&cmdline, NULL, "options of the form --key=value",
				arg);
	memcpy(key, arg + 2, n);
	key[n] = '\0';
	if (eq) {
		sim_scenario_set(s, key, eq + 1, &cmdline);
		return 1;
	}
	if (!strcmp(key, "force")) {		/* --force: no size refusal */
		sim_progress_force = 1;
		return 1;
	}
	if (!strcmp(key, "progress")) {		/* --progress: yes */
		sim_scenario_set(s, key, "yes", &cmdline);
		return 1;
	}
	if (!next || next[0] == '-') {
		snprintf(expected, sizeof(expected), "--%s=VALUE or --%s VALUE",
			 key, key);
		sim_config_fail(&cmdline, key, expected, arg);
	}
	sim_scenario_set(s, key, next, &cmdline);
	return 2;
}

/* Does argv[i] take the next argument as its value ("--key value")? */
static int takes_value(char **argv, int argc, int i)
{
	return argv[i][0] == '-' && argv[i][1] == '-' &&
	       !strchr(argv[i], '=') && strcmp(argv[i], "--help") &&
	       strcmp(argv[i], "--progress") &&
	       i + 1 < argc && argv[i + 1][0] != '-';
}

/* The trace file of lock @idx must be writable: bad input, said before
 * the run.  The file itself is not touched (sim_outfile_check()). */
static void check_trace_file(const struct sim_scenario *s, int idx)
{
	char path[sizeof(s->trace) + sizeof(s->locks[0]) + 1], expected[320];

	sim_trace_lock_path(s->trace, s->locks[idx], s->nr_locks, path,
			    sizeof(path));
	if (sim_outfile_check(path)) {
		snprintf(expected, sizeof(expected), "a writable file (%s: %s)",
			 path, strerror(errno));
		sim_config_fail(&s->trace_at, "trace", expected, s->trace);
	}
}

/*
 * Check the arguments of run or replay: --help (Return: 1), well-formed
 * options, and at most one file (*@file, NULL if none; @what: "a scenario
 * file" or "a replay file").
 */
static int scan_args(int argc, char **argv, const char **file,
		     const char *what)
{
	char expected[96];

	*file = NULL;
	for (int i = 0; i < argc; i++) {
		if (!strcmp(argv[i], "--help"))
			return 1;
		if (argv[i][0] == '-' && argv[i][1] != '-') {
			snprintf(expected, sizeof(expected),
				 "%s or --key=value options", what);
			sim_config_fail(&cmdline, NULL, expected, argv[i]);
		}
		if (takes_value(argv, argc, i)) {
			i++;
			continue;
		}
		if (argv[i][0] != '-') {
			if (*file) {
				snprintf(expected, sizeof(expected),
					 "at most one %s", what + 2);
				sim_config_fail(&cmdline, NULL, expected, argv[i]);
			}
			*file = argv[i];
		}
	}
	return 0;
}

/* The command line's keys, after the file's, whatever the order. */
static void apply_options(struct sim_scenario *s, int argc, char **argv)
{
	for (int i = 0; i < argc; )
		if (argv[i][0] == '-')
			i += apply_option(s, argv[i], i + 1 < argc ? argv[i + 1] : NULL);
		else
			i++;
}

struct lockstats {
	int nr;
	char **text;
	int to_stdout;
};

static int put_lockstats(FILE *f, void *arg)
{
	const struct lockstats *l = arg;

	for (int i = 0; i < l->nr; i++) {
		if (l->to_stdout || i)
			fputc('\n', f);
		if (l->text[i])
			fputs(l->text[i], f);
	}
	return ferror(f) ? -1 : 0;
}

/* --lock-stat: the tables of the locks, on stdout after the report or in
 * the file given (whole or not at all: sim/host/outfile.h). */
static void write_lockstats(const struct sim_scenario *s, char **text)
{
	struct lockstats l = { .nr = s->nr_locks, .text = text,
			       .to_stdout = !strcmp(s->lock_stat, "-") };
	int err = l.to_stdout ? put_lockstats(stdout, &l) :
		  sim_outfile_write(s->lock_stat, put_lockstats, &l);

	for (int i = 0; i < s->nr_locks; i++)
		free(text[i]);
	if (err)
		exit(SIM_EXIT_HOST);	/* its line is printed */
}

/* A file that cannot be written is bad input: say so before a long run,
 * not after it.  The file itself is not touched. */
static void check_writable(const char *path, const struct sim_origin *at,
			   const char *key)
{
	char expected[320];

	if (sim_outfile_check(path)) {
		snprintf(expected, sizeof(expected), "a writable file (%s)",
			 strerror(errno));
		sim_config_fail(at, key, expected, path);
	}
}

/* Resolve @s (read from the scenario file @scn, NULL if none), run each
 * lock (checked against @src in a replay) and print the report.
 * Return: the exit status, 0 or SIM_EXIT_DIVERGED. */
static int run_scenario(const char *self, struct sim_scenario *s,
			const char *scn, const struct sim_replay_src *src)
{
	struct sim_result r[SIM_MAX_LOCKS];
	struct sim_detail detail[SIM_MAX_LOCKS];
	char *lockstat[SIM_MAX_LOCKS];
	struct sim_preset preset;
	int i, status = 0;

	sim_program_select(s);	/* --program: exec the program's binary */
	sim_preset_load_at(&preset, s->machine, &s->machine_at);
	sim_preset_apply_set(&preset, s->machine_set, &s->machine_set_at);
	sim_scenario_resolve(s, sim_preset_nr_cpus(&preset));
	sim_progress_check_size(s, s->threads < s->cpus ? s->threads : s->cpus);

	if (s->json[0])
		check_writable(s->json, &s->json_at, "json");
	if (s->plot[0])
		check_writable(s->plot, &s->plot_at, "plot");
	for (i = 0; s->trace[0] && i < s->nr_locks; i++)
		check_trace_file(s, i);
	if (s->lock_stat[0] && strcmp(s->lock_stat, "-") != 0)
		check_writable(s->lock_stat, &s->lock_stat_at, "lock-stat");
	sim_replay_check(s, src);
	sim_cli_check_files(s, scn, src);

	memset(r, 0, sizeof(r));
	memset(detail, 0, sizeof(detail));
	for (i = 0; i < s->nr_locks; i++)
		if (run_lock(self, s, i, &preset, src, &r[i], &detail[i],
			     &lockstat[i]))
			status = SIM_EXIT_DIVERGED;

	sim_report_text(stdout, s, r, s->nr_locks);
	sim_program_report(stdout, s, r, s->nr_locks);
	if (!status)
		status = sim_program_status(r, s->nr_locks);
	if (s->lock_stat[0])
		write_lockstats(s, lockstat);
	if (s->json[0] && sim_report_json(s->json, s, r, s->nr_locks))
		exit(SIM_EXIT_HOST);	/* its line is printed */
	if (s->plot[0] && sim_plot_run_write(s, r, detail, s->nr_locks))
		exit(SIM_EXIT_HOST);	/* its line is printed */
	for (i = 0; i < s->nr_locks; i++)
		sim_detail_free(&detail[i]);
	if (fflush(stdout))
		die_errno("writing the report");
	return status;
}

static int cmd_run(const char *self, int argc, char **argv)
{
	struct sim_scenario s;
	const char *file;

	if (scan_args(argc, argv, &file, "a scenario file")) {
		sim_cli_usage(stdout);
		return 0;
	}
	/* Defaults, then the file, then the command line. */
	sim_scenario_defaults(&s);
	if (file)
		sim_scenario_load(&s, file);
	apply_options(&s, argc, argv);
	return run_scenario(self, &s, file, NULL);
}

static int cmd_replay(const char *self, int argc, char **argv)
{
	struct sim_replay_src src;
	struct sim_scenario s;
	const char *file;

	if (scan_args(argc, argv, &file, "a replay file")) {
		sim_cli_usage(stdout);
		return 0;
	}
	if (!file)
		sim_config_fail(&cmdline, NULL,
				"a replay file: futexsim replay FILE [--key=value ...]",
				NULL);
	/* Defaults, then the file's header, then the command line. */
	sim_scenario_defaults(&s);
	sim_replay_load(file, &s, &src);
	apply_options(&s, argc, argv);
	return run_scenario(self, &s, NULL, &src);
}

/*
 * `futexsim view FILE.replay [-o OUT.html] [--key=value ...]`: the replay
 * of FILE with --trace=OUT.html (default: FILE without ".replay", plus
 * ".html"), the page of docs/view.md.  -o and its value are taken out of
 * the arguments and --trace=OUT goes last, so it wins over another.
 */
static int cmd_view(const char *self, int argc, char **argv)
{
	static char trace_opt[PATH_MAX + 16];
	char **args = calloc((size_t)argc + 1, sizeof(*args));
	const char *out = NULL, *file = NULL;
	char path[PATH_MAX];
	size_t n;
	int nr = 0, status;

	if (!args)
		die_errno("allocating the arguments");
	for (int i = 0; i < argc; i++) {
		if (!strcmp(argv[i], "-o")) {
			if (i + 1 >= argc)
				sim_config_fail(&cmdline, NULL,
						"-o OUT.html: the page to write", NULL);
			out = argv[++i];
			continue;
		}
		if (argv[i][0] != '-' && !file)
			file = argv[i];
		args[nr++] = argv[i];
	}
	if (!file && !out)
		sim_config_fail(&cmdline, NULL,
				"a replay file: futexsim view FILE.replay [-o OUT.html] [--key=value ...]",
				NULL);
	if (!out && file) {
		n = strlen(file);
		if (n > 7 && !strcmp(file + n - 7, ".replay"))
			n -= 7;
		if (snprintf(path, sizeof(path), "%.*s.html", (int)n, file) >=
		    (int)sizeof(path))
			sim_config_fail(&cmdline, NULL, "a shorter file name",
					file);
		out = path;
	}
	if (sim_trace_format_of(out) != SIM_TRACE_HTML)
		sim_config_fail(&cmdline, NULL, "-o OUT.html: a file name ending in .html",
				out);
	snprintf(trace_opt, sizeof(trace_opt), "--trace=%s", out);
	args[nr++] = trace_opt;
	status = cmd_replay(self, nr, args);
	free(args);
	return status;
}

int main(int argc, char **argv)
{
	static const char commands[] = "a command: run, replay, view, compare, explore, shrink, merge, play, build, plot-table, list, help or --version";
	const char *cmd = argc > 1 ? argv[1] : NULL;

	/* A file size limit (ulimit -f) is a failed write, EFBIG, reported
	 * with the file's name like a full disk (sim/host/outfile.h), not a
	 * signal that kills a lock's child in the middle of its run. */
	signal(SIGXFSZ, SIG_IGN);
	sim_program_args(argc, argv);
	/* a program's binary alone runs the program once: `./OUT run` */
	if (!cmd && sim_program_linked())
		return cmd_run(argv[0], 0, argv + 1);
	if (!cmd)
		sim_config_fail(&cmdline, NULL, commands, NULL);
	if (!strcmp(cmd, "build"))
		return sim_program_build(argc - 2, argv + 2);
	if (!strcmp(cmd, "run"))
		return cmd_run(argv[0], argc - 2, argv + 2);
	if (!strcmp(cmd, "replay"))
		return cmd_replay(argv[0], argc - 2, argv + 2);
	if (!strcmp(cmd, "view"))
		return cmd_view(argv[0], argc - 2, argv + 2);
	if (!strcmp(cmd, "list"))
		return sim_cmd_list(argc - 2, argv + 2);
	if (!strcmp(cmd, "explore"))
		return sim_cmd_explore(argv[0], argc - 2, argv + 2);
	if (!strcmp(cmd, "shrink"))
		return sim_cmd_shrink(argv[0], argc - 2, argv + 2);
	if (!strcmp(cmd, "merge"))
		return sim_cmd_merge(argc - 2, argv + 2);
	if (!strcmp(cmd, "play"))
		return sim_cmd_play(argv[0], argc - 2, argv + 2);
	if (!strcmp(cmd, "compare"))
		return sim_cmd_compare(argv[0], argc - 2, argv + 2);
	if (!strcmp(cmd, "plot-table"))
		return sim_cmd_plot_table(argc - 2, argv + 2);
	if (!strcmp(cmd, "--help") || !strcmp(cmd, "-h") ||
	    !strcmp(cmd, "help")) {
		sim_cli_usage(stdout);
		return 0;
	}
	if (!strcmp(cmd, "--version") || !strcmp(cmd, "version")) {
		printf("futexsim %s (kernel %s)\n", FUTEXSIM_VERSION,
		       FUTEXSIM_KERNEL);
		return 0;
	}
	sim_config_fail(&cmdline, NULL, commands, cmd);
}

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sim/cli/cli_list.c - the help side of the command line (see sim/cli/cli.h):
 * the usage text of `futexsim --help` and `futexsim list` (with `list
 * machine`, one preset's every key).
 *
 * Stage: the driver of the whole flow, before any simulation: it only
 * reads tables.  Called by main() and the `run`/`replay` commands of
 * sim/cli/cli.c.  Calls sim_scenario_usage() (sim/scenario/scenario.c) for the
 * scenario keys, sim_preset_dir() and sim_preset_list() (sim/scenario/preset.c)
 * for the machines, and reads the registries of the user locks
 * (ulock_registry, workloads/ulock/registry.c) and of the workloads with
 * their kernel locks (wl_registry, workloads/registry.c).  Locks marked
 * broken are accepted by `run` but not listed.
 */
#include <stdio.h>
#include <string.h>

#include "sim/cli/cli.h"
#include "sim/scenario/config.h"
#include "sim/scenario/preset.h"
#include "sim/scenario/scenario.h"
#include "workloads/ulock/ulock.h"
#include "workloads/workload.h"
#include "sim/report/exit.h"
#include "version.h"

/* One line per exit status of sim/report/exit.h, in its order. */
static const char *const exit_help[] = {
	[SIM_EXIT_OK]		= "the run completed",
	[SIM_EXIT_HOST]		= "a host error (a file not written, no memory, a fork refused), or\n"
				  "     a hit that did not fail again when re-run (a determinism bug)",
	[SIM_EXIT_INPUT]	= "bad input: one line on stderr names the file, line, key and\n"
				  "     what was expected",
	[SIM_EXIT_FAILURE]	= "a simulated failure (deadlock, livelock, kernel BUG/WARN, broken\n"
				  "     mutual exclusion, stack overflow, an oracle): the report on\n"
				  "     stderr gives the seed, the replay command and the replay file",
	[SIM_EXIT_DIVERGED]	= "replay: the run diverged from the replay file",
	[SIM_EXIT_REPORT_AGAIN]	= "never seen: between futexsim and its child process only",
	[SIM_EXIT_PROGRAM]	= "--program: the user program exited with a non-zero status",
	[SIM_EXIT_GOAL_MISSED]	= "play: the run ended, or the player quit, before the --goal",
};
_Static_assert(sizeof(exit_help) / sizeof(exit_help[0]) == SIM_EXIT_NR,
	       "every exit status has its --help line");

static const struct sim_origin cmdline = { .file = "command line" };

void sim_cli_usage(FILE *out)
{
	fputs("usage: futexsim run [SCENARIO] [--key=value ...]\n"
	      "       futexsim replay FILE [--key=value ...]\n"
	      "       futexsim view FILE.replay [-o OUT.html] [--key=value ...]\n"
	      "       futexsim compare [SCENARIO] --seeds=N (--against=OTHER_FUTEXSIM |\n"
	      "                --b-set=KEY=VALUE,...) [--json=PATH] [--plot=PATH.svg]\n"
	      "                [--key=value ...]\n"
	      "       futexsim list [machines|locks|workloads]\n"
	      "       futexsim list machine NAME|PATH [--machine-set=KEY=VALUE,...]\n"
	      "       futexsim explore [SCENARIO] [--strategy=S] [--runs=N] [--oracle=LIST]\n"
	      "                [--shard=I/N] [--summary=PATH] [--out=PATH] [--key=value ...]\n"
	      "       futexsim shrink FILE [--out=PATH] [--budget=N] [--shrink-args=POS,...]\n"
	      "       futexsim merge SUMMARY...\n"
	      "       futexsim play [SCENARIO | FILE.replay] [--goal=GOAL] [--out=PATH] [--key=value ...]\n"
	      "       futexsim build [--instrument] PROGRAM.c... [-o OUT] [CC-OPTION...]\n"
	      "       futexsim plot-table TABLE -o FILE.svg\n"
	      "       futexsim --version\n"
	      "       futexsim --help\n"
	      "\n"
	      "build   compile a C program (pthreads, futex(2)) against futexsim's\n"
	      "        user-space layer; 'run --program=OUT [--args=\"...\"]' runs it,\n"
	      "        as do './OUT run [--args=...]' and './OUT' alone.\n"
	      "        --instrument: every plain and volatile access a scheduling point.\n"
	      "run     simulate the scenario once per lock of its lock list and\n"
	      "        print the report.  SCENARIO is a file of 'key = value' lines\n"
	      "        with the keys below; --key=value options override its keys.\n"
	      "replay  re-run the run of one lock recorded in FILE (by --record, or\n"
	      "        saved by a failed run) and check every scheduling decision\n"
	      "        against it; the first that differs is reported on stderr\n"
	      "        (decision number, simulated time, recorded and actual), then\n"
	      "        the run goes on.  --key=value options override FILE's keys.\n"
	      "view    replay FILE with --trace=OUT.html (default: FILE's name with\n"
	      "        .html for .replay): one page that steps through the run, its\n"
	      "        tasks, futex words and hash buckets at each event (docs/view.md).\n"
	      "compare run seeds 1..N of the scenario with this binary (A) and with\n"
	      "        OTHER_FUTEXSIM or these keys changed (B), alternating; print per\n"
	      "        metric each side's mean and 95% confidence interval, the change\n"
	      "        and whether it is significant (Welch's t-test, alpha 0.05).\n"
	      "explore run schedules of the scenario (strategy timed, random, pct:D or\n"
	      "        dfs:P) until an oracle fires or N runs pass; on a hit, save the\n"
	      "        replay file and print the narrated failure report (exit 3).\n"
	      "shrink  minimise a failing replay file while the same oracle fires.\n"
	      "merge   combine the --summary files of sharded explore runs.\n"
	      "play    you are the scheduler: at each scheduling choice, see the CPUs,\n"
	      "        tasks, futex words and last events, and type which CPU runs\n"
	      "        next (? for the commands).  GOAL: lost-wakeup, deadlock, mutex,\n"
	      "        eagain or steal; the schedule is saved as a replay file\n"
	      "        (futexsim-play-LOCK.replay, or --out) (docs/play.md).\n"
	      "plot-table  draw a table file (docs/output.md \"Plots\") as an SVG.\n"
	      "list    the machine presets, user locks and workloads; 'list machine'\n"
	      "        prints one preset's every key as a machine file.\n"
	      "\n"
	      "Scenario keys:\n", out);
	sim_scenario_usage(out);
	fputs("\n"
	      "DURATION is a number with a unit: ns, us, ms or s (20ms, 1.5us).\n"
	      "N takes the suffixes k, M and G (10M = 10000000).\n"
	      "Machines are looked up in $FUTEXSIM_MACHINES, else in\n"
	      "  " FUTEXSIM_MACHINES_DIR "\n"
	      "\n"
	      "Exit status:\n", out);
	for (int i = 0; i < SIM_EXIT_NR; i++)
		fprintf(out, "  %d  %s\n", i, exit_help[i]);
}

/* Two namespaces: the user locks (workload mutex), then each workload's
 * kernel locks. */
static void list_locks(void)
{
	int i, j;

	for (int rw = 0; rw < 2; rw++) {
		printf(rw ? " reader-writer locks (workload=rwlock; "
			    "workload=mutex runs their write side):\n" :
			    " user locks (workload=mutex):\n");
		for (i = 0; ulock_registry[i]; i++)
			if (!ulock_registry[i]->broken &&
			    !!ulock_registry[i]->rw == rw)
				printf("  %-19s %s\n", ulock_registry[i]->name,
				       ulock_registry[i]->description);
	}
	for (i = 0; wl_registry[i]; i++) {
		const struct wl_workload *w = wl_registry[i];

		if (!w->klocks)
			continue;
		printf(" kernel locks (workload=%s):\n", w->name);
		for (j = 0; w->klocks[j]; j++)
			if (!w->klocks[j]->broken)
				printf("  %-19s %s\n", w->klocks[j]->name,
				       w->klocks[j]->description);
	}
}

static void list_workloads(void)
{
	for (int i = 0; wl_registry[i]; i++)
		printf("  %-16s %s\n", wl_registry[i]->name,
		       wl_registry[i]->description);
}

/* `list machine NAME|PATH [--machine-set=LIST]`: the preset, with @LIST
 * applied, as a machine file (a start for a preset of one's own). */
static int list_machine(int argc, char **argv)
{
	static const char form[] =
		"list machine NAME|PATH [--machine-set=KEY=VALUE,...]";
	static const char opt[] = "--machine-set=";
	struct sim_preset p;
	const char *set = "";

	if (argc < 1 || argc > 2)
		sim_config_fail(&cmdline, NULL, form, argc > 2 ? argv[2] : NULL);
	if (argc == 2) {
		if (strncmp(argv[1], opt, sizeof(opt) - 1) != 0)
			sim_config_fail(&cmdline, NULL, form, argv[1]);
		set = argv[1] + sizeof(opt) - 1;
		sim_preset_check_set(set, &cmdline);
	}
	sim_preset_load_at(&p, argv[0], &cmdline);
	sim_preset_apply_set(&p, set, &cmdline);
	/* a comment line: the name of a file may hold anything */
	fputs("# ", stdout);
	sim_config_put_clean(stdout, p.name, sizeof(p.name));
	printf("%s%s\n", *set ? ", machine-set " : "", set);
	sim_preset_print(&p, stdout);
	return 0;
}

int sim_cmd_list(int argc, char **argv)
{
	static const char expected[] =
		"one of machines, machine NAME, locks, workloads";
	const char *what = argc ? argv[0] : NULL;

	if (what && !strcmp(what, "machine"))
		return list_machine(argc - 1, argv + 1);

	if (argc > 1)
		sim_config_fail(&cmdline, NULL, expected, argv[1]);
	if (what && strcmp(what, "machines") != 0 &&
	    strcmp(what, "locks") != 0 && strcmp(what, "workloads") != 0)
		sim_config_fail(&cmdline, NULL, expected, what);
	if (!what || !strcmp(what, "machines")) {
		if (!what)
			printf("machines (%s):\n", sim_preset_dir());
		sim_preset_list();
	}
	if (!what || !strcmp(what, "locks")) {
		if (!what)
			printf("locks:\n");
		list_locks();
	}
	if (!what || !strcmp(what, "workloads")) {
		if (!what)
			printf("workloads:\n");
		list_workloads();
	}
	return 0;
}

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sim/explore/play.c - `futexsim play`: the player chooses, at every
 * branching point, which CPU runs next (see sim/explore/play.h).
 *
 * Stage: the driver of the whole flow, called by sim/cli/cli.c.  Calls
 * sim/explore/explore_run.c for the runs (sim_xrun(): one in this
 * process, the machine built again each time), sets the explore hook
 * sim_explore_chooser (sim/explore/explore.c), reads the machine's CPUs
 * and tasks and the oracle's lock word for the state screen, and the
 * narration's last lines through sim_trace_last_events().
 *
 * One game is a sequence of runs of the same scenario and seed.  A run
 * asks the player at each branching point past its forced prefix; undo
 * ends it (sim_run_abort()) and the next run forces every choice but the
 * last one, so that the question undone is asked again.  Every run is a
 * function of its forced choices and of the answers, so the same input
 * gives the same output, byte for byte.  When the game is over, a last
 * run with every choice forced records the replay file.  A user
 * program's runs are made in this process too, its world put back
 * between them (sim/explore/explore_fork.c), with stdout kept for the
 * screen (sim_xctx.interactive) and the program's own lines dropped.
 */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <linux/futex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sim/cli/cli.h"
#include "sim/explore/explore_run.h"
#include "sim/explore/play.h"
#include "sim/machine/machine.h"
#include "sim/machine/prng.h"
#include "sim/program/program.h"
#include "sim/replay/replay.h"
#include "sim/scenario/config.h"
#include "sim/syscall/syscall.h"
#include "sim/trace/trace.h"
#include "workloads/workload.h"

#define LINE_MAX_IN	256	/* one line of input			*/

static const struct sim_origin cmdline = { .file = "command line" };

enum play_goal {
	GOAL_NONE,
	GOAL_LOST_WAKEUP,	/* the deadlock oracle's lost-wakeup verdict */
	GOAL_DEADLOCK,		/* deadlock or lost-wakeup		*/
	GOAL_MUTEX,		/* the mutex oracle			*/
	GOAL_EAGAIN,		/* a FUTEX_WAIT returned EAGAIN		*/
	GOAL_STEAL,		/* a TP FUTEX_LOCK stole the lock	*/
	GOAL_NR
};

static const struct {
	const char *name;
	unsigned int oracle;	/* the oracle that must be on, or 0	*/
} goals[GOAL_NR] = {
	[GOAL_NONE]		= { "none", 0 },
	[GOAL_LOST_WAKEUP]	= { "lost-wakeup", SIM_ORACLE_DEADLOCK },
	[GOAL_DEADLOCK]		= { "deadlock", SIM_ORACLE_DEADLOCK },
	[GOAL_MUTEX]		= { "mutex", SIM_ORACLE_MUTEX },
	[GOAL_EAGAIN]		= { "eagain", 0 },
	[GOAL_STEAL]		= { "steal", 0 },
};

/* How a run ended, besides a simulated failure. */
enum play_end {
	END_RUN,		/* the run returned, or failed		*/
	END_UNDO,		/* undo: run again, one choice fewer	*/
	END_QUIT,		/* q					*/
	END_GOAL,		/* eagain or steal counted		*/
};

static struct {
	struct sim_xctx *x;
	enum play_goal goal;
	int echo;			/* stdin is not: echo the input	*/
	struct sim_prng rng;		/* the seeded scheduler's	*/
	int auto_left;			/* decisions it still makes	*/
	int auto_all;			/* ... to the end (c, EOF)	*/
	enum play_end end;
	struct sim_choice *undo_to;	/* the prefix of the next run	*/
	int nr_undo_to, cap_undo_to;
	struct sim_play_view view;	/* the screen's state	*/
	const char *from;		/* FILE.replay continued, or NULL */
} pl;

/* ---- the questions ---------------------------------------------------- */

static void help(void)
{
	printf("commands:\n"
	       "  N      run choice N (Enter alone: choice 0)\n"
	       "  s N    the seeded scheduler makes the next N decisions (n N: the same; N: 1)\n"
	       "  c      the seeded scheduler finishes the run\n"
	       "  u      undo the last decision\n"
	       "  q      quit: save the choices made (choice 0 after them)\n"
	       "  ?      this help\n");
}

/* One line of input into @buf; Return: 0, or -1 at the end of input. */
static int read_line(char *buf, size_t len)
{
	size_t n;

	printf("play> ");
	fflush(stdout);
	if (!fgets(buf, (int)len, stdin)) {
		printf("\n");
		return -1;
	}
	n = strlen(buf);
	if (n && buf[n - 1] != '\n' && !feof(stdin)) {	/* too long: drop it */
		int ch;

		while ((ch = getchar()) != EOF && ch != '\n')
			;
		snprintf(buf, len, "(a line too long)");
	}
	buf[strcspn(buf, "\r\n")] = '\0';
	for (n = strlen(buf); n && isspace((unsigned char)buf[n - 1]); n--)
		buf[n - 1] = '\0';	/* "1 " is 1 */
	if (pl.echo)
		printf("%s\n", buf);
	return 0;
}

/* "s N", "n N", "s": N (>= 1) or -1 if malformed. */
static int count_arg(const char *p)
{
	char *end;
	long v;

	while (isspace((unsigned char)*p))
		p++;
	if (!*p)
		return 1;
	errno = 0;
	v = strtol(p, &end, 10);
	while (isspace((unsigned char)*end))
		end++;
	if (errno || *end || v < 1 || v > 1000000)
		return -1;
	return (int)v;
}

/* Ask until a choice (Return: its index) or a command that ends the run
 * (undo, quit: does not return). */
static int ask(struct sim_cpu *const *cand, int n, bool cur)
{
	const struct sim_explore_log *l = sim_explore_log();
	char line[LINE_MAX_IN], *end;
	long v;
	int cnt;

	sim__play_screen(&pl.view, cand, n, cur);
	for (;;) {
		if (read_line(line, sizeof(line))) {
			printf("play: end of input: the seeded scheduler finishes the run\n");
			pl.auto_all = 1;
			return -1;
		}
		if (!line[0])
			return 0;
		v = strtol(line, &end, 10);
		if (isdigit((unsigned char)line[0]) && !*end) {
			if (v >= 0 && v < n)
				return (int)v;
			printf("play: no choice %s: choose 0 to %d\n", line, n - 1);
			continue;
		}
		if ((line[0] == 's' || line[0] == 'n') &&
		    (!line[1] || line[1] == ' ')) {
			cnt = count_arg(line + 1);
			if (cnt > 0) {
				pl.auto_left = cnt - 1;
				return -1;
			}
			printf("play: '%s': s N wants a count N from 1 to 1000000\n", line);
			continue;
		}
		if (!strcmp(line, "c")) {
			pl.auto_all = 1;
			return -1;
		}
		if (!strcmp(line, "u")) {
			if (!l->len) {
				printf("play: nothing to undo: this is the first decision\n");
				continue;
			}
			pl.nr_undo_to = sim__explore_take_log(&pl.undo_to,
							      &pl.cap_undo_to) - 1;
			pl.end = END_UNDO;
			sim_run_abort();
		}
		if (!strcmp(line, "q")) {
			pl.end = END_QUIT;
			sim_run_abort();
		}
		if (!strcmp(line, "?") || !strcmp(line, "h") || !strcmp(line, "help")) {
			help();
			continue;
		}
		printf("play: '%s' is not a command: a choice 0 to %d, s N, c, u, q or ? for help\n",
		       line, n - 1);
	}
}

static int goal_counted(void)
{
	if (pl.goal == GOAL_EAGAIN)
		return sim_syscalls.wait_eagain > 0;
	if (pl.goal == GOAL_STEAL)
		return sim_syscalls.tp_steals > 0;
	return 0;
}

/* sim_explore_chooser: the player's choice, or the seeded scheduler's. */
static int play_choose(struct sim_cpu *const *cand, int n, bool cur)
{
	int k = -1;

	if (goal_counted()) {
		pl.end = END_GOAL;
		sim_run_abort();
	}
	if (!pl.auto_all && pl.auto_left > 0)
		pl.auto_left--;
	else if (!pl.auto_all)
		k = ask(cand, n, cur);
	if (k < 0)
		k = (int)sim_prng_below(&pl.rng, (uint64_t)n);
	return k;
}

/* ---- the game ---------------------------------------------------------- */

/* One run of the game, asking past the @nr forced choices @forced. */
static void play_run(const struct sim_choice *forced, int nr,
		     struct sim_xres *res)
{
	memset(&sim_syscalls, 0, sizeof(sim_syscalls));
	pl.end = END_RUN;
	pl.auto_left = 0;
	pl.x->narrate = 1;
	sim_explore_chooser = play_choose;
	sim_xrun(pl.x, pl.x->s.seed, forced, nr, NULL, res);
	sim_explore_chooser = NULL;
	pl.x->narrate = 0;
}

/* Does the failed run @res reach the goal? */
static int goal_failure(const struct sim_xres *res)
{
	if (!res->failed)
		return 0;
	switch (pl.goal) {
	case GOAL_LOST_WAKEUP:
		return !strcmp(res->oracle, "lost-wakeup");
	case GOAL_DEADLOCK:
		return !strcmp(res->oracle, "deadlock") ||
		       !strcmp(res->oracle, "lost-wakeup");
	case GOAL_MUTEX:
		return !strcmp(res->oracle, "mutex");
	default:
		return 0;
	}
}

static const char *counted_what(void)
{
	return pl.goal == GOAL_EAGAIN ?
		"a FUTEX_WAIT returned EAGAIN: the word changed between the task's read and the kernel's" :
		"a TP FUTEX_LOCK stole the lock in the kernel";
}

/*
 * The verdict of the game's last run @res, @n choices made.
 * Return: the exit status, before the record.
 */
static int verdict(const struct sim_xres *res, int n)
{
	char why[300];

	/* a count seen at a question, or after the last one */
	if (pl.end == END_RUN && goal_counted())
		pl.end = END_GOAL;
	if (pl.end == END_GOAL) {
		printf("goal reached: %s: %s (after %d decisions)\n",
		       goals[pl.goal].name, counted_what(), n);
		return SIM_EXIT_OK;
	}
	if (goal_failure(res)) {
		/* the tasks are as the failure left them: the diagnosis */
		if (!strcmp(res->oracle, "lost-wakeup") &&
		    sim_oracle_lost_wakeup(why, sizeof(why)))
			printf("goal reached: %s: %s%s\n", goals[pl.goal].name,
			       pl.goal == GOAL_DEADLOCK ? "a lost wakeup: " : "",
			       why);
		else
			printf("goal reached: %s: %s\n", goals[pl.goal].name,
			       res->what);
		return SIM_EXIT_OK;
	}
	if (res->failed) {
		printf("play: the run failed: %s: %s%s%s\n", res->oracle, res->what,
		       pl.goal ? "; not the goal " : "",
		       pl.goal ? goals[pl.goal].name : "");
		return SIM_EXIT_FAILURE;
	}
	if (pl.end == END_QUIT)
		printf("play: quit after %d decisions\n", n);
	else
		printf("play: the run ended after %d decisions, %" PRIu64 " operations\n",
		       n, res->r.ops);
	if (!pl.goal)
		return SIM_EXIT_OK;
	printf("play: goal %s not reached\n", goals[pl.goal].name);
	return SIM_EXIT_GOAL_MISSED;
}

/* Record @c[0..@n) into @path: every choice forced, choice 0 after them
 * (strategy dfs:0), and show how @self replays it.  Return: 0, or 1 if
 * it ended otherwise than the game (a determinism bug: one line
 * printed). */
static int record(const char *self, const struct sim_choice *c, int n,
		  const char *path, const struct sim_xres *game, int status)
{
	struct sim_xres *res = sim__explore_alloc(sizeof(*res));
	int same;

	memset(&sim_syscalls, 0, sizeof(sim_syscalls));
	sim_xrun(pl.x, pl.x->s.seed, c, n, path, res);
	if (pl.end == END_GOAL)
		same = goal_counted();
	else if (pl.end == END_QUIT || status == SIM_EXIT_GOAL_MISSED)
		same = 1;	/* the rest of the run is choice 0 */
	else
		same = res->failed == game->failed &&
		       (!res->failed || !strcmp(res->oracle, game->oracle));
	free(res);
	if (!same) {
		fprintf(stderr, "futexsim: play: the recorded run %s did not end as the game did (a determinism bug)\n",
			path);
		return 1;
	}
	printf("play: replay file %s\n  %s replay %s --narrate=yes\n",
	       path, self, path);
	return 0;
}

/* ---- the command line ------------------------------------------------- */

static enum play_goal goal_parse(const char *v)
{
	char expected[200];
	size_t n = 0;

	for (int g = 1; g < GOAL_NR; g++)
		if (!strcmp(v, goals[g].name))
			return (enum play_goal)g;
	n += (size_t)snprintf(expected, sizeof(expected), "a goal:");
	for (int g = 1; g < GOAL_NR; g++)
		n += (size_t)snprintf(expected + n, sizeof(expected) - n, "%s %s",
				      g > 1 ? "," : "", goals[g].name);
	sim_config_fail(&cmdline, "goal", expected, v);
}

/* Does @path name a replay file (by its extension)? */
static int is_replay(const char *path)
{
	size_t n = strlen(path);

	return n > 7 && !strcmp(path + n - 7, ".replay");
}

/*
 * The choices (X lines) of the replay file @src into *@c (*@cap
 * entries).  `futexsim play FILE.replay` makes them again up to the
 * file's last switch (its last non-zero choice, after which a recorded
 * game has only choice 0) and asks that one: the player makes the last
 * switch, or another.  A malformed X line: one line, exit 2.
 * Return: the choices made again.
 */
static int replay_prefix(const struct sim_replay_src *src,
			 struct sim_choice **c, int *cap)
{
	struct sim_origin at = { .file = src->path, .line = src->line };
	FILE *f = fopen(src->path, "r");
	char line[128];
	unsigned int n, k;
	int len = 0, keep = 0;

	if (!f || fseek(f, src->offset, SEEK_SET))
		sim_config_fail(&cmdline, NULL, "a readable replay file", src->path);
	for (; fgets(line, sizeof(line), f); at.line++) {
		if (line[0] != 'X')
			continue;
		if (sscanf(line, "X %u %u", &n, &k) != 2 || k >= n || n > 0xffff)
			sim_config_fail(&at, NULL, "a decision 'X N K' with K < N", line);
		if (len == *cap) {
			*cap = *cap ? 2 * *cap : 256;
			*c = realloc(*c, (size_t)*cap * sizeof(**c));
			if (!*c) {
				fprintf(stderr, "futexsim: out of memory\n");
				exit(SIM_EXIT_HOST);
			}
		}
		(*c)[len++] = (struct sim_choice){ (uint16_t)n, (uint16_t)k, 0 };
		if (k)
			keep = len - 1;
	}
	fclose(f);
	return keep;
}

/* Defaults, then SCENARIO (or FILE.replay's header), then the options,
 * as `futexsim run` (`futexsim replay`) does. */
static void parse(int argc, char **argv, struct sim_scenario *s,
		  const char **out)
{
	struct sim_replay_src src;
	const char *file = NULL;
	char key[64];

	sim_scenario_defaults(s);
	for (int i = 0; i < argc; i++)
		if (argv[i][0] != '-') {
			if (file)
				sim_config_fail(&cmdline, NULL, "one scenario file", argv[i]);
			file = argv[i];
		}
	if (file && is_replay(file)) {
		sim_replay_load(file, s, &src);
		pl.from = file;
		pl.nr_undo_to = replay_prefix(&src, &pl.undo_to, &pl.cap_undo_to);
	} else if (file) {
		sim_scenario_load(s, file);
	}
	pl.view.scenario = !file ? "defaults" :
			   strrchr(file, '/') ? strrchr(file, '/') + 1 : file;
	for (int i = 0; i < argc; i++) {
		const char *a = argv[i], *eq = strchr(a, '=');
		size_t n;

		if (a[0] != '-')
			continue;
		if (!strcmp(a, "--help")) {
			sim_cli_usage(stdout);
			exit(SIM_EXIT_OK);
		}
		n = eq ? (size_t)(eq - a - 2) : 0;
		if (a[1] != '-' || !eq || !n || n >= sizeof(key))
			sim_config_fail(&cmdline, NULL, "--key=value options", a);
		memcpy(key, a + 2, n);
		key[n] = '\0';
		if (!strcmp(key, "goal"))
			pl.goal = goal_parse(eq + 1);
		else if (!strcmp(key, "out"))
			*out = eq + 1;
		else
			sim_scenario_set(s, key, eq + 1, &cmdline);
	}
	/* a replay file is read whole before the game: it may be the --out */
	if (*out && file && !pl.from && sim_cli_same_file(*out, file, 1))
		sim_config_fail(&cmdline, "out",
				"a file other than the scenario file being read", *out);
	sim_program_select(s);	/* --program, or this binary's program */
	/* a program's runs are made in this process, its data put back
	 * between them (sim/explore/explore_fork.c): a process per run would
	 * ask its questions in a child */
	if (s->wl == &wl_program && !sim__xrun_rewinds())
		sim_config_fail(&cmdline, "workload",
				"a built-in workload, or a program built by `futexsim build` (play makes its runs in one process; this binary cannot put the program's data back between them)",
				"program");
	/* the player's schedule: choice 0 after the choices recorded */
	sim_scenario_set(s, "strategy", "dfs:0", &cmdline);
}

int sim_cmd_play(const char *self, int argc, char **argv)
{
	struct sim_scenario s;
	struct sim_xres *res = sim__explore_alloc(sizeof(*res));
	struct sim_choice *c = NULL;
	const char *out = NULL;
	char path[400];
	int n, cap = 0, status;

	memset(&pl, 0, sizeof(pl));
	parse(argc, argv, &s, &out);
	pl.x = sim__explore_alloc(sizeof(*pl.x));
	sim_xctx_init(pl.x, &s);
	if (goals[pl.goal].oracle && !(pl.x->oracles.mask & goals[pl.goal].oracle))
		sim_config_fail(&cmdline, "oracle", "an oracle list with the goal's oracle",
				pl.x->s.oracle);
	if (pl.goal == GOAL_STEAL && strcmp(pl.x->s.locks[0], "tp") != 0)
		sim_config_fail(&cmdline, "lock", "lock=tp for --goal=steal",
				pl.x->s.locks[0]);
	pl.x->interactive = 1;
	if (out) {
		snprintf(path, sizeof(path), "%s", out);
	} else {
		char name[64];

		/* the lock, or the program's name (as explore's files) */
		sim_replay_run_name(&pl.x->s, name, sizeof(name));
		snprintf(path, sizeof(path), "futexsim-play-%s.replay", name);
	}
	pl.view.tty = isatty(STDOUT_FILENO);
	pl.view.lock = pl.x->s.locks[0];
	if (pl.x->s.wl == &wl_program)
		pl.view.program = pl.x->s.program;
	pl.view.threads = pl.x->s.threads;
	pl.view.seed = pl.x->s.seed;
	pl.view.goal = goals[pl.goal].name;
	pl.echo = !isatty(STDIN_FILENO);
	sim_prng_seed(&pl.rng, pl.x->s.seed ^ 0x706c617921ULL);	/* "play!" */
	printf("futexsim play: you are the scheduler (? for help)\n");
	if (pl.from)
		printf("play: %s: its first %d choices are made again, up to its last switch (u takes them back)\n",
		       pl.from, pl.nr_undo_to);
	for (;;) {
		play_run(pl.undo_to, pl.nr_undo_to, res);
		if (pl.end != END_UNDO)
			break;
		sim_trace_close();
		printf("play: undone: back to decision %d\n", pl.nr_undo_to + 1);
		pl.view.last_shown[0] = '\0';
	}
	n = sim__explore_take_log(&c, &cap);
	sim__play_end_events();
	sim_trace_close();
	status = verdict(res, n);
	fflush(stdout);
	if (record(self, c, n, path, res, status))
		status = SIM_EXIT_HOST;
	fflush(stdout);
	free(c);
	free(pl.undo_to);
	free(pl.x);
	free(res);
	return status;
}

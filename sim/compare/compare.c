/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sim/compare/compare.c - `futexsim compare`: is the difference between
 * two builds, or two configurations, larger than the noise of the seeds?
 *
 *   futexsim compare [SCENARIO] --seeds=N
 *                    (--against=OTHER_FUTEXSIM | --b-set=KEY=VALUE,...)
 *                    [--json=PATH] [--plot=PATH.svg] [--key=value ...]
 *
 * Stage: the driver of the whole flow, one level above `run`.  Called by
 * main() (sim/cli/cli.c).  Checks the scenario as `run` would
 * (sim/scenario/), then for each seed i = 1..N runs A, then B, each as a
 * child process
 *
 *	SIDE run [SCENARIO] --seed=i --json=DIR/SIDE.json [--key=value ...]
 *
 * with its stdout thrown away and its stderr kept in DIR/err; reads the
 * JSON file back (sim/compare/report_read.h) and keeps its figures; at the
 * end, sim/compare/compare_out.c tests every metric of every lock
 * (sim/compare/welch.h) and prints the table (and the JSON file, and
 * the SVG of sim/compare/compare_plot.c).
 *
 * A is this binary; B is OTHER (--against) or this binary, with the keys
 * of --b-set after the others when given.  The runs alternate A, B per
 * seed, so that a host that slows down during the comparison slows both
 * sides alike (the simulated figures do not depend on it anyway).
 *
 * DIR is a private directory, $TMPDIR/futexsim-compare.PID (".N" after it
 * if taken), mode 0700, made by mkdir(2) so that no other user's file or
 * link can stand in its place.  It is removed at every exit of this
 * process, and on SIGINT, SIGTERM and SIGHUP.  Nothing of its name reaches
 * the output.
 *
 * A run that fails stops the comparison: one line names the side, the
 * seed, the child's exit status and its last stderr line, and the command
 * that reproduces the run; compare exits with the child's status (3 for a
 * simulated failure, 2 for bad input).  The run itself left its report
 * and, as `run` does, its replay file in the current directory.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "sim/compare/compare.h"
#include "sim/compare/compare_int.h"
#include "sim/compare/report_read.h"
#include "sim/compare/welch.h"
#include "sim/cli/cli.h"
#include "sim/host/outfile.h"
#include "sim/report/exit.h"
#include "sim/scenario/config.h"
#include "sim/scenario/preset.h"
#include "sim/scenario/scenario.h"

#define SEEDS_MAX	100000

static const struct sim_origin cmdline = { .file = "command line" };
static const struct sim_origin bset_at = { .file = "--b-set" };

static struct compare *cleanup_c;	/* its directory, for the exits	*/
static pid_t cleanup_pid;

void sim__compare_die_errno(const char *what)
{
	fprintf(stderr, "futexsim: compare: %s: %s\n", what, strerror(errno));
	exit(SIM_EXIT_HOST);
}

void *sim__compare_xcalloc(size_t n, size_t size)
{
	void *p = calloc(n, size);

	if (!p)
		sim__compare_die_errno("memory");
	return p;
}

/* ---- the private directory ---------------------------------------------- */

/* Async-signal-safe: unlink(2) and rmdir(2) of names made beforehand. */
static void remove_dir(void)
{
	struct compare *c = cleanup_c;

	if (!c || getpid() != cleanup_pid)
		return;
	unlink(c->out[SIDE_A]);
	unlink(c->out[SIDE_B]);
	unlink(c->err);
	rmdir(c->dir);
}

static void on_signal(int sig)
{
	remove_dir();
	signal(sig, SIG_DFL);
	raise(sig);
}

static void make_dir(struct compare *c)
{
	const char *tmp = getenv("TMPDIR");
	static const int sigs[] = { SIGINT, SIGTERM, SIGHUP };

	if (!tmp || !*tmp)
		tmp = "/tmp";
	for (int n = 0;; n++) {
		if (n)
			snprintf(c->dir, sizeof(c->dir), "%s/futexsim-compare.%d.%d",
				 tmp, (int)getpid(), n);
		else
			snprintf(c->dir, sizeof(c->dir), "%s/futexsim-compare.%d",
				 tmp, (int)getpid());
		if (!mkdir(c->dir, 0700))
			break;
		if (errno != EEXIST || n >= 100)
			sim__compare_die_errno(c->dir);
	}
	snprintf(c->out[SIDE_A], sizeof(c->out[0]), "%s/a.json", c->dir);
	snprintf(c->out[SIDE_B], sizeof(c->out[0]), "%s/b.json", c->dir);
	snprintf(c->err, sizeof(c->err), "%s/err", c->dir);
	cleanup_c = c;
	cleanup_pid = getpid();
	atexit(remove_dir);
	for (size_t i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		signal(sigs[i], on_signal);
}

/* ---- the command line ----------------------------------------------------- */

/* Keys no run of a comparison may have: compare sets the seed and the
 * JSON file of every run, and N runs would overwrite one output file. */
static void refuse_key(const struct sim_origin *at, const char *key,
		       const char *value)
{
	static const char *const outputs[] = { "trace", "record", "lock-stat",
					       "plot" };

	if (!strcmp(key, "seed"))
		sim_config_fail(at, key,
				"no seed: compare runs seeds 1 to N (--seeds=N)",
				value);
	if (at == &bset_at && !strcmp(key, "json"))
		sim_config_fail(at, key,
				"no json in --b-set: compare writes every run's JSON file itself",
				value);
	for (size_t i = 0; i < sizeof(outputs) / sizeof(outputs[0]); i++)
		if (!strcmp(key, outputs[i]))
			sim_config_fail(at, key,
					"no per-run output file (every run of the comparison would write it)",
					value);
}

/* Apply "--key=value" @arg (or a bare "--force"/"--progress") to @s. */
static void apply_key(struct sim_scenario *s, const char *arg,
		      const struct sim_origin *at)
{
	const char *eq = strchr(arg, '=');
	char key[64];
	size_t n = eq ? (size_t)(eq - arg - 2) : strlen(arg + 2);

	if (!eq && (!strcmp(arg, "--force") || !strcmp(arg, "--progress")))
		return;
	if (!eq || !n || n >= sizeof(key))
		sim_config_fail(at, NULL, "options of the form --key=value", arg);
	memcpy(key, arg + 2, n);
	key[n] = '\0';
	refuse_key(at, key, eq + 1);
	sim_scenario_set(s, key, eq + 1, at);
}

/* Split --b-set's "KEY=VALUE,..." into "--KEY=VALUE" arguments.  A part
 * without '=' continues the previous value: "lock=ww,tp,cs=pause:40" sets
 * lock to "ww,tp" and cs to "pause:40". */
static void split_bset(struct compare *c)
{
	const char *p = c->bset;

	c->nr_bkeys = 0;
	c->bkeys = sim__compare_xcalloc(strlen(p) + 1, sizeof(char *));
	while (*p) {
		size_t n = strcspn(p, ",");
		const char *eq = memchr(p, '=', n);
		char *prev, *arg;

		if (!eq && c->nr_bkeys) {
			prev = c->bkeys[c->nr_bkeys - 1];
			arg = sim__compare_xcalloc(strlen(prev) + n + 2, 1);
			sprintf(arg, "%s,%.*s", prev, (int)n, p);
			free(prev);
			c->bkeys[c->nr_bkeys - 1] = arg;
		} else if (!eq || eq == p) {
			sim_config_fail(&bset_at, NULL,
					"KEY=VALUE[,KEY=VALUE...] (scenario keys for B)",
					c->bset);
		} else {
			arg = sim__compare_xcalloc(n + 3, 1);
			sprintf(arg, "--%.*s", (int)n, p);
			c->bkeys[c->nr_bkeys++] = arg;
		}
		p += n + (p[n] == ',');
	}
	if (!c->nr_bkeys)
		sim_config_fail(&bset_at, NULL,
				"KEY=VALUE[,KEY=VALUE...] (scenario keys for B)",
				c->bset);
}

/* One of compare's own options (--seeds, --against, --b-set, --json,
 * --plot):
 * Return: 1 with *@val set, 0 if @arg is not one. */
static int own_option(const char *arg, const char **val)
{
	static const char *const own[] = { "seeds", "against", "b-set", "json",
					   "plot" };

	for (size_t i = 0; i < sizeof(own) / sizeof(own[0]); i++) {
		size_t n = strlen(own[i]);

		if (!strncmp(arg + 2, own[i], n) &&
		    (arg[2 + n] == '=' || !arg[2 + n])) {
			*val = arg[2 + n] ? arg + 3 + n : NULL;
			return 1;
		}
	}
	return 0;
}

static void set_own(struct compare *c, const char *arg, const char *val)
{
	uint64_t n;
	char key[16];

	snprintf(key, sizeof(key), "%.*s", (int)strcspn(arg + 2, "="), arg + 2);
	if (!val || !*val)
		sim_config_fail(&cmdline, key, "a value (--KEY=VALUE)", arg);
	if (!strcmp(key, "seeds")) {
		if (sim_parse_u64(val, &n) || n < 2 || n > SEEDS_MAX)
			sim_config_fail(&cmdline, key,
					"a number of seeds from 2 to 100000 (a confidence interval needs two runs a side)",
					val);
		c->seeds = n;
	} else if (!strcmp(key, "against")) {
		c->against = val;
	} else if (!strcmp(key, "b-set")) {
		c->bset = val;
	} else if (!strcmp(key, "plot")) {
		n = strlen(val);
		if (n <= 4 || strcmp(val + n - 4, ".svg") || val[n - 5] == '/')
			sim_config_fail(&cmdline, key, "a file name ending in .svg",
					val);
		c->plot = val;
	} else {
		c->json = val;
	}
}

/* Does argv[i] take the next argument as its value ("--key value")? */
static int takes_value(char **argv, int argc, int i)
{
	return argv[i][0] == '-' && argv[i][1] == '-' &&
	       !strchr(argv[i], '=') && strcmp(argv[i], "--force") != 0 &&
	       strcmp(argv[i], "--progress") != 0 && i + 1 < argc &&
	       argv[i + 1][0] != '-';
}

/* Return: 1 for --help. */
static int parse_args(struct compare *c, int argc, char **argv)
{
	const char *val;
	size_t size;
	char *arg;

	c->keys = sim__compare_xcalloc((size_t)argc + 1, sizeof(char *));
	c->held = sim__compare_xcalloc((size_t)argc + 1, sizeof(char *));
	for (int i = 0; i < argc; i++) {
		if (!strcmp(argv[i], "--help"))
			return 1;
		if (argv[i][0] != '-') {
			if (c->scenario)
				sim_config_fail(&cmdline, NULL,
						"at most one scenario file", argv[i]);
			c->scenario = argv[i];
			continue;
		}
		if (argv[i][1] != '-')
			sim_config_fail(&cmdline, NULL,
					"a scenario file or --key=value options",
					argv[i]);
		/* "--key value" is "--key=value" */
		if (takes_value(argv, argc, i)) {
			size = strlen(argv[i]) + strlen(argv[i + 1]) + 2;
			arg = sim__compare_xcalloc(size, 1);
			snprintf(arg, size, "%s=%s", argv[i], argv[i + 1]);
			i++;
		} else {
			size = strlen(argv[i]) + 1;
			arg = sim__compare_xcalloc(size, 1);
			memcpy(arg, argv[i], size);
		}
		if (own_option(arg, &val)) {
			set_own(c, arg, val);	/* @val points into @arg */
			c->held[c->nr_held++] = arg;
		} else {
			c->keys[c->nr_keys++] = arg;
		}
	}
	return 0;
}

/* ---- checks before the runs ----------------------------------------------- */

/* The scenario one side runs, resolved as `run` resolves it: its errors
 * are said before any run, with the file, the key, or --b-set.
 * Return: its number of locks; 0 for a program (its binary checks its
 * own keys). */
static int check_side(const struct compare *c, int side, int *progress)
{
	struct sim_scenario s;
	struct sim_preset preset;

	sim_scenario_defaults(&s);
	if (c->scenario)
		sim_scenario_load(&s, c->scenario);
	for (int i = 0; i < c->nr_keys; i++)
		apply_key(&s, c->keys[i], &cmdline);
	for (int i = 0; side == SIDE_B && i < c->nr_bkeys; i++)
		apply_key(&s, c->bkeys[i], &bset_at);
	/* a file's output keys: N runs would write them (its json and
	 * seed are overridden by each run's own) */
	if (s.trace[0])
		refuse_key(&s.trace_at, "trace", s.trace);
	if (s.record[0])
		refuse_key(&s.record_at, "record", s.record);
	if (s.lock_stat[0])
		refuse_key(&s.lock_stat_at, "lock-stat", s.lock_stat);
	if (s.plot[0])
		refuse_key(&s.plot_at, "plot", s.plot);
	*progress = s.progress;
	if (s.program[0])
		return 0;
	sim_preset_load_at(&preset, s.machine, &s.machine_at);
	sim_preset_apply_set(&preset, s.machine_set, &s.machine_set_at);
	sim_scenario_resolve(&s, sim_preset_nr_cpus(&preset));
	return s.nr_locks;
}

/* OTHER must be an executable file: bad input, said before any run. */
static void check_against(const char *path)
{
	struct stat st;
	char expected[256];
	const char *why = NULL;

	if (stat(path, &st))
		why = strerror(errno);
	else if (!S_ISREG(st.st_mode))
		why = "not a regular file";
	else if (access(path, X_OK))
		why = "not executable";
	if (!why)
		return;
	snprintf(expected, sizeof(expected), "an executable futexsim binary (%s)",
		 why);
	sim_config_fail(&cmdline, "against", expected, path);
}

/* ---- one run -------------------------------------------------------------- */

/* The arguments of @side's run of @seed: NULL-terminated, into @av (room
 * for c->nr_keys + c->nr_bkeys + 6), argv[0] the binary as it was
 * named; with @json 0, the command shown to reproduce the run. */
static void run_argv(const struct compare *c, int side, uint64_t seed,
		     int json, char **av, char *seed_arg, char *json_arg)
{
	int n = 0;

	av[n++] = (char *)(side == SIDE_B && c->against ? c->against : c->self);
	av[n++] = "run";
	if (c->scenario)
		av[n++] = (char *)c->scenario;
	sprintf(seed_arg, "--seed=%" PRIu64, seed);
	av[n++] = seed_arg;
	if (json) {
		sprintf(json_arg, "--json=%s", c->out[side]);
		av[n++] = json_arg;
	}
	for (int i = 0; i < c->nr_keys; i++)
		av[n++] = c->keys[i];
	for (int i = 0; side == SIDE_B && i < c->nr_bkeys; i++)
		av[n++] = c->bkeys[i];
	av[n] = NULL;
}

/* @s quoted for a POSIX shell when it needs to be. */
static void put_shell_word(FILE *out, const char *s)
{
	if (*s && strspn(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
			    "0123456789_./=:,+-@%") == strlen(s)) {
		fputs(s, out);
		return;
	}
	fputc('\'', out);
	for (; *s; s++)
		if (*s == '\'')
			fputs("'\\''", out);
		else
			fputc(*s, out);
	fputc('\'', out);
}

/* The last non-empty line of the child's stderr into @buf. */
static void last_line(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "r");
	char line[1024];

	snprintf(buf, len, "(nothing on stderr)");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = '\0';
		if (line[strspn(line, " \t\r")])
			snprintf(buf, len, "%s", line);
	}
	fclose(f);
}

void sim__compare_progress_clear(const struct compare *c)
{
	if (c->progress)
		fputs("\r\033[K", stderr);
}

/* A run ended with @status (waitpid()'s): one line, then exit. */
static void __attribute__((noreturn))
run_failed(const struct compare *c, int side, uint64_t seed, int status)
{
	char *msg = NULL, last[1024], seed_arg[32], json_arg[PATH_MAX + 32];
	char **av = sim__compare_xcalloc((size_t)c->nr_keys +
					 (size_t)c->nr_bkeys + 6,
					 sizeof(char *));
	size_t len = 0;
	FILE *out = open_memstream(&msg, &len);
	int code = WIFEXITED(status) ? WEXITSTATUS(status) : SIM_EXIT_FAILURE;

	if (!out)
		sim__compare_die_errno("memory");
	last_line(c->err, last, sizeof(last));
	fprintf(out, "futexsim: compare: %s, seed %" PRIu64 ": ",
		side == SIDE_A ? "A" : "B", seed);
	if (WIFEXITED(status))
		fprintf(out, "the run exited with status %d", code);
	else
		fprintf(out, "the run died of signal %d (%s)",
			WTERMSIG(status), strsignal(WTERMSIG(status)));
	fputs(" (its last stderr line: ", out);
	sim_config_put_clean(out, last, 300);
	fputs("); reproduce:", out);
	run_argv(c, side, seed, 0, av, seed_arg, json_arg);
	for (int i = 0; av[i]; i++) {
		fputc(' ', out);
		put_shell_word(out, av[i]);
	}
	fputc('\n', out);
	fclose(out);
	sim__compare_progress_clear(c);
	fflush(stdout);
	fwrite(msg, 1, len, stderr);
	exit(code ? code : SIM_EXIT_HOST);
}

/* The child: stdout to /dev/null, stderr to c->err, then exec @path. */
static void __attribute__((noreturn))
run_child(const struct compare *c, const char *path, char **av)
{
	int null = open("/dev/null", O_RDWR);
	int err = open(c->err, O_WRONLY | O_CREAT | O_TRUNC, 0600);

	if (null < 0 || err < 0)
		_exit(SIM_EXIT_HOST);
	dup2(null, STDIN_FILENO);
	dup2(null, STDOUT_FILENO);
	dup2(err, STDERR_FILENO);
	close(null);
	close(err);
	signal(SIGINT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
	signal(SIGHUP, SIG_DFL);
	execv(path, av);
	fprintf(stderr, "futexsim: compare: cannot run %s: %s\n", path,
		strerror(errno));
	_exit(SIM_EXIT_HOST);
}

/* A run that completed: its JSON file into @r, or bad input (a B that
 * is not futexsim) or a host error. */
static void read_report(const struct compare *c, int side, uint64_t seed,
			struct sim_rr_report *r)
{
	FILE *f = fopen(c->out[side], "r");
	char *text = NULL, why[160];
	size_t len = 0;
	int bad, wrote;

	if (f) {
		FILE *m = open_memstream(&text, &len);
		char buf[8192];
		size_t n;

		if (!m)
			sim__compare_die_errno("memory");
		while ((n = fread(buf, 1, sizeof(buf), f)) > 0)
			fwrite(buf, 1, n, m);
		fclose(m);
		fclose(f);
		unlink(c->out[side]);
	}
	wrote = text != NULL;
	bad = !wrote ? (snprintf(why, sizeof(why), "wrote no JSON file%s",
				 side == SIDE_B && c->against ?
				 " (is --against a futexsim binary?)" : ""), 1) :
	      sim_rr_parse(text, r, why, sizeof(why)) ? 1 : 0;
	free(text);
	if (!bad)
		return;
	sim__compare_progress_clear(c);
	fprintf(stderr, "futexsim: compare: %s, seed %" PRIu64 ": the run %s%s\n",
		side == SIDE_A ? "A" : "B", seed,
		wrote ? "wrote a JSON file that is not a futexsim report: " : "",
		why);
	exit(side == SIDE_B && c->against ? SIM_EXIT_INPUT : SIM_EXIT_HOST);
}

/* Run @side with @seed; its report into @r, or exit. */
static void run_one(const struct compare *c, int side, uint64_t seed,
		    struct sim_rr_report *r)
{
	char seed_arg[32], json_arg[PATH_MAX + 32];
	char **av = sim__compare_xcalloc((size_t)c->nr_keys +
					 (size_t)c->nr_bkeys + 6,
					 sizeof(char *));
	int status;
	pid_t pid;

	if (c->progress)
		fprintf(stderr, "\rfutexsim: compare: seed %" PRIu64 " of %" PRIu64 ", %s\033[K",
			seed, c->seeds, side == SIDE_A ? "A" : "B");
	run_argv(c, side, seed, 1, av, seed_arg, json_arg);
	fflush(NULL);
	pid = fork();
	if (pid < 0)
		sim__compare_die_errno("fork");
	if (pid == 0)
		run_child(c, side == SIDE_B && c->against ? c->against : c->exe,
			  av);
	free(av);
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			sim__compare_die_errno("waitpid");
	if (!WIFEXITED(status) || WEXITSTATUS(status))
		run_failed(c, side, seed, status);
	read_report(c, side, seed, r);
}

/* ---- the command ---------------------------------------------------------- */

/* --json's or --plot's file @path (@key) must be writable and not the
 * scenario file: bad input, said before any run. */
static void check_out(const struct compare *c, const char *key,
		      const char *path)
{
	char expected[320];

	if (sim_outfile_check(path)) {
		snprintf(expected, sizeof(expected), "a writable file (%s)",
			 strerror(errno));
		sim_config_fail(&cmdline, key, expected, path);
	}
	if (c->scenario && sim_cli_same_file(path, c->scenario, 1))
		sim_config_fail(&cmdline, key,
				"a file other than the scenario file", path);
}

static void check_all(struct compare *c)
{
	int progress, ignored, nr_a, nr_b;
	char expected[96];

	if (!c->seeds)
		sim_config_fail(&cmdline, "seeds",
				"the number of seeds to run each side with (--seeds=N)",
				NULL);
	if (!c->against && !c->bset)
		sim_config_fail(&cmdline, NULL,
				"what B is: --against=OTHER_FUTEXSIM, --b-set=KEY=VALUE,... or both",
				NULL);
	if (c->against)
		check_against(c->against);
	if (c->bset)
		split_bset(c);
	nr_a = check_side(c, SIDE_A, &progress);
	nr_b = check_side(c, SIDE_B, &ignored);
	/* the rows pair the locks of A and B by position */
	if (nr_a && nr_b && nr_a != nr_b) {
		snprintf(expected, sizeof(expected),
			 "keys that leave B as many locks as A (%d, not %d)",
			 nr_a, nr_b);
		sim_config_fail(&bset_at, NULL, expected, c->bset);
	}
	c->progress = progress != SIM_PROGRESS_NO && isatty(STDERR_FILENO);
	if (c->json)
		check_out(c, "json", c->json);
	if (c->plot)
		check_out(c, "plot", c->plot);
	if (c->json && c->plot && sim_cli_same_file(c->plot, c->json, 0))
		sim_config_fail(&cmdline, "plot", "a file other than the --json file",
				c->plot);
}

static void free_compare(struct compare *c)
{
	for (int i = 0; i < c->nr_keys; i++)
		free(c->keys[i]);
	for (int i = 0; i < c->nr_bkeys; i++)
		free(c->bkeys[i]);
	for (int i = 0; i < c->nr_held; i++)
		free(c->held[i]);
	free(c->keys);
	free(c->bkeys);
	free(c->held);
	for (int s = SIDE_A; s <= SIDE_B; s++)
		for (int l = 0; l < SIM_MAX_LOCKS; l++)
			for (int m = 0; m < NR_METRICS; m++)
				free(c->v[s][l][m]);
	free(c);
}

int sim_cmd_compare(const char *self, int argc, char **argv)
{
	struct compare *c = sim__compare_xcalloc(1, sizeof(*c));
	struct sim_rr_report *r = sim__compare_xcalloc(1, sizeof(*r));
	ssize_t len;

	if (parse_args(c, argc, argv)) {
		sim_cli_usage(stdout);
		free(r);
		free_compare(c);
		return 0;
	}
	c->self = self;
	len = readlink("/proc/self/exe", c->exe, sizeof(c->exe) - 1);
	if (len <= 0 || len >= (ssize_t)sizeof(c->exe) - 1)
		snprintf(c->exe, sizeof(c->exe), "%s", self);
	check_all(c);
	make_dir(c);
	for (uint64_t seed = 1; seed <= c->seeds; seed++)
		for (int side = SIDE_A; side <= SIDE_B; side++) {
			run_one(c, side, seed, r);
			sim__compare_collect(c, side, seed, r);
		}
	sim__compare_progress_clear(c);
	sim__compare_output(c);
	remove_dir();
	cleanup_c = NULL;
	free(r);
	free_compare(c);
	return 0;
}

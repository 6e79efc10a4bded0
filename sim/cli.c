/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sim/cli.c - main(): the futexsim command line.
 *
 *   futexsim run [SCENARIO] [--key=value ...]
 *   futexsim list [machines|locks|workloads]
 *   futexsim --version | --help
 *
 * Stage: the driver of the whole flow.  `run` resolves the scenario
 * (sim/scenario.c: defaults, then the SCENARIO file, then the command
 * line), loads the machine preset (sim/preset.c), then for each lock of
 * the lock list forks a process that builds the machine
 * (sim_machine_init()), runs the workload (workload -> ulock -> futex(2)
 * -> kernel -> sched -> machine) and sends its struct sim_result back
 * through a pipe.  Last, the report (sim/report.c).
 *
 * One process per lock: every lock starts from a fresh machine, arena and
 * kernel state, exactly as its replay command would, and a simulated
 * failure (exit 3, report already on stderr) ends that process alone; the
 * parent then exits with the same status.  Bad input: one line, exit 2.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "sim/failure.h"
#include "sim/machine.h"
#include "sim/preset.h"
#include "sim/report.h"
#include "sim/scenario.h"
#include "workloads/workload.h"
#include "version.h"

static const struct sim_origin cmdline = { .file = "command line" };

static void usage(FILE *out)
{
	fputs("usage: futexsim run [SCENARIO] [--key=value ...]\n"
	      "       futexsim list [machines|locks|workloads]\n"
	      "       futexsim --version\n"
	      "       futexsim --help\n"
	      "\n"
	      "run   simulate the scenario once per lock of its lock list and print\n"
	      "      the report.  SCENARIO is a file of 'key = value' lines with the\n"
	      "      keys below; --key=value options override the file's keys.\n"
	      "list  the machine presets, user locks and workloads.\n"
	      "\n"
	      "Scenario keys:\n", out);
	sim_scenario_usage(out);
	fputs("\n"
	      "DURATION is a number with a unit: ns, us, ms or s (20ms, 1.5us).\n"
	      "N takes the suffixes k, M and G (10M = 10000000).\n"
	      "Machines are looked up in $FUTEXSIM_MACHINES, else in\n"
	      "  " FUTEXSIM_MACHINES_DIR "\n"
	      "\n"
	      "Exit status: 0 success; 2 bad input (one line on stderr);\n"
	      "3 simulated failure (deadlock, livelock, kernel BUG/WARN): the report\n"
	      "on stderr gives the seed and the command that replays it.\n", out);
}

/* A host-side failure that is neither bad input nor a simulated one. */
static void __attribute__((noreturn)) die_errno(const char *what)
{
	fprintf(stderr, "futexsim: %s: %s\n", what, strerror(errno));
	exit(1);
}

/* ---- the replay command of one lock's run ------------------------------ */

struct cmdbuf {
	char *buf;
	size_t len, size;
};

static void cmd_add(struct cmdbuf *c, const char *s)
{
	size_t n = strlen(s);

	if (c->len + n + 1 > c->size)
		return;		/* cannot happen: keys are bounded */
	memcpy(c->buf + c->len, s, n + 1);
	c->len += n;
}

/* Append " WORD", single-quoted for the shell when it needs to be. */
static void cmd_word(struct cmdbuf *c, const char *w)
{
	const char *safe = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
			   "0123456789_./:,=@%+-";
	char one[2] = { 0 };

	cmd_add(c, " ");
	if (*w && strspn(w, safe) == strlen(w)) {
		cmd_add(c, w);
		return;
	}
	cmd_add(c, "'");
	for (; *w; w++) {
		one[0] = *w;
		cmd_add(c, *w == '\'' ? "'\\''" : one);
	}
	cmd_add(c, "'");
}

static void cmd_key(void *ctx, const char *key, const char *value)
{
	char opt[512];

	if (!strcmp(key, "json"))
		return;		/* output only: the replay writes no file */
	snprintf(opt, sizeof(opt), "--%s=%s", key, value);
	cmd_word(ctx, opt);
}

/* "SELF run --machine=... --lock=LOCK ...": every resolved key. */
static void replay_command(const char *self, const struct sim_scenario *one,
			   char *buf, size_t size)
{
	struct cmdbuf c = { .buf = buf, .size = size };

	buf[0] = '\0';
	cmd_add(&c, self);
	cmd_add(&c, " run");
	sim_scenario_each(one, cmd_key, &c);
}

/* ---- one lock, one process --------------------------------------------- */

static void write_full(int fd, const void *p, size_t n)
{
	while (n) {
		ssize_t w = write(fd, p, n);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			die_errno("writing a result to the parent");
		p = (const char *)p + w;
		n -= (size_t)w;
	}
}

static size_t read_full(int fd, void *p, size_t n)
{
	size_t got = 0;

	while (got < n) {
		ssize_t r = read(fd, (char *)p + got, n - got);

		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		got += (size_t)r;
	}
	return got;
}

/* The child: build the machine, run the workload with lock @one. */
static void __attribute__((noreturn))
child_run(const struct sim_scenario *one, const struct sim_preset *preset,
	  const char *replay, int fd)
{
	const struct wl_workload *wl = wl_find(one->workload);
	/* NULL for a workload with kernel locks: it finds its own */
	const struct ulock_ops *lock = wl->klocks ? NULL : ulock_find(one->locks[0]);
	struct sim_result r;

	sim_failure_set_replay(replay);
	sim_machine_init(preset, one->cpus, one->seed);
	sim_set_livelock_ps(one->livelock_ps);
	memset(&r, 0, sizeof(r));
	wl->run(one, lock, &r);
	if (!r.lock[0])
		memcpy(r.lock, one->locks[0],
		       strnlen(one->locks[0], sizeof(r.lock) - 1));
	write_full(fd, &r, sizeof(r));
	fflush(NULL);
	_exit(0);
}

static double seconds_since(const struct timespec *t0)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)(t.tv_sec - t0->tv_sec) +
	       (double)(t.tv_nsec - t0->tv_nsec) / 1e9;
}

/* Run lock @idx of @s in a child; fill @r, or exit as the child did. */
static void run_lock(const char *self, const struct sim_scenario *s, int idx,
		     const struct sim_preset *preset, struct sim_result *r)
{
	struct sim_scenario one = *s;	/* the scenario with this lock only */
	struct timespec t0;
	char replay[8192];
	int fd[2], status;
	size_t got;
	pid_t pid;

	one.nr_locks = 1;
	memcpy(one.locks[0], s->locks[idx], sizeof(one.locks[0]));
	replay_command(self, &one, replay, sizeof(replay));
	if (pipe(fd))
		die_errno("pipe");
	fflush(NULL);		/* the child must not print our buffers again */
	clock_gettime(CLOCK_MONOTONIC, &t0);
	pid = fork();
	if (pid < 0)
		die_errno("fork");
	if (pid == 0) {
		close(fd[0]);
		child_run(&one, preset, replay, fd[1]);
	}
	close(fd[1]);
	got = read_full(fd[0], r, sizeof(*r));
	close(fd[0]);
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			die_errno("waitpid");
	/* A crash of the simulation is a failure of the simulated run too
	 * (a task's stack overflow, a kernel oops): status 3, with the
	 * command that reproduces it. */
	if (WIFSIGNALED(status)) {
		fprintf(stderr, "futexsim: lock %s: the simulation died of signal %d (%s); replay: %s\n",
			one.locks[0], WTERMSIG(status),
			strsignal(WTERMSIG(status)), replay);
		exit(3);
	}
	if (WEXITSTATUS(status))
		exit(WEXITSTATUS(status));	/* its report is on stderr */
	if (got != sizeof(*r)) {
		fprintf(stderr, "futexsim: lock %s: the simulation sent no result\n",
			one.locks[0]);
		exit(1);
	}
	if (r->host_seconds == 0)
		r->host_seconds = seconds_since(&t0);
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
	       i + 1 < argc && argv[i + 1][0] != '-';
}

static int cmd_run(const char *self, int argc, char **argv)
{
	struct sim_result r[SIM_MAX_LOCKS];
	struct sim_preset preset;
	struct sim_scenario s;
	const char *file = NULL;
	char expected[320];
	FILE *f;
	int i;

	for (i = 0; i < argc; i++) {
		if (!strcmp(argv[i], "--help")) {
			usage(stdout);
			return 0;
		}
		if (argv[i][0] == '-' && argv[i][1] != '-')
			sim_config_fail(&cmdline, NULL,
					"a scenario file or --key=value options",
					argv[i]);
		if (takes_value(argv, argc, i)) {
			i++;
			continue;
		}
		if (argv[i][0] != '-') {
			if (file)
				sim_config_fail(&cmdline, NULL,
						"at most one scenario file", argv[i]);
			file = argv[i];
		}
	}
	/* Defaults, then the file, then the command line, whatever the
	 * order of the arguments. */
	sim_scenario_defaults(&s);
	if (file)
		sim_scenario_load(&s, file);
	for (i = 0; i < argc; )
		if (argv[i][0] == '-')
			i += apply_option(&s, argv[i], i + 1 < argc ? argv[i + 1] : NULL);
		else
			i++;
	sim_preset_load_at(&preset, s.machine, &s.machine_at);
	sim_scenario_resolve(&s, sim_preset_nr_cpus(&preset));

	/* A JSON file that cannot be written is bad input: say so before a
	 * long run, not after it. */
	if (s.json[0]) {
		f = fopen(s.json, "a");
		if (!f) {
			snprintf(expected, sizeof(expected),
				 "a writable file (%s)", strerror(errno));
			sim_config_fail(&s.json_at, "json", expected, s.json);
		}
		fclose(f);
	}

	memset(r, 0, sizeof(r));
	for (i = 0; i < s.nr_locks; i++)
		run_lock(self, &s, i, &preset, &r[i]);

	sim_report_text(stdout, &s, r, s.nr_locks);
	if (s.json[0] && sim_report_json(s.json, &s, r, s.nr_locks))
		die_errno(s.json);
	if (fflush(stdout))
		die_errno("writing the report");
	return 0;
}

/* Two namespaces: the user locks (workload mutex), then each workload's
 * kernel locks. */
static void list_locks(void)
{
	int i, j;

	printf(" user locks (workload=mutex):\n");
	for (i = 0; ulock_registry[i]; i++)
		if (!ulock_registry[i]->broken)
			printf("  %-18s %s\n", ulock_registry[i]->name,
			       ulock_registry[i]->description);
	for (i = 0; wl_registry[i]; i++) {
		const struct wl_workload *w = wl_registry[i];

		if (!w->klocks)
			continue;
		printf(" kernel locks (workload=%s):\n", w->name);
		for (j = 0; w->klocks[j]; j++)
			if (!w->klocks[j]->broken)
				printf("  %-18s %s\n", w->klocks[j]->name,
				       w->klocks[j]->description);
	}
}

static void list_workloads(void)
{
	for (int i = 0; wl_registry[i]; i++)
		printf("  %-16s %s\n", wl_registry[i]->name,
		       wl_registry[i]->description);
}

static int cmd_list(int argc, char **argv)
{
	static const char expected[] = "one of machines, locks, workloads";
	const char *what = argc ? argv[0] : NULL;

	if (argc > 1)
		sim_config_fail(&cmdline, NULL, expected, argv[1]);
	if (what && strcmp(what, "machines") && strcmp(what, "locks") &&
	    strcmp(what, "workloads"))
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

int main(int argc, char **argv)
{
	static const char commands[] = "a command: run, list, help or --version";
	const char *cmd = argc > 1 ? argv[1] : NULL;

	if (!cmd)
		sim_config_fail(&cmdline, NULL, commands, NULL);
	if (!strcmp(cmd, "run"))
		return cmd_run(argv[0], argc - 2, argv + 2);
	if (!strcmp(cmd, "list"))
		return cmd_list(argc - 2, argv + 2);
	if (!strcmp(cmd, "--help") || !strcmp(cmd, "-h") ||
	    !strcmp(cmd, "help")) {
		usage(stdout);
		return 0;
	}
	if (!strcmp(cmd, "--version") || !strcmp(cmd, "version")) {
		printf("futexsim %s (kernel %s)\n", FUTEXSIM_VERSION,
		       FUTEXSIM_KERNEL);
		return 0;
	}
	sim_config_fail(&cmdline, NULL, commands, cmd);
}

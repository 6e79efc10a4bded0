/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sim/cli/cli_files.c - the files of one run, checked before it: no two
 * outputs are one file, and no output is a file the run reads.
 *
 * Stage: the driver of the whole flow, after the scenario is resolved and
 * before any simulation.  Called by `run` and `replay` (sim/cli/cli.c);
 * calls sim/scenario/config.c for the one-line error (exit 2), the file
 * names of sim/trace/trace.h and sim/replay/replay.h, and realpath(3).
 * `explore` (sim/explore/explore_cmd.c) compares its files with
 * sim_cli_same_file().
 *
 * The outputs are --json, --plot, --lock-stat (but "-"), and per lock --trace and
 * --record (their names with ".LOCK" for several locks); the inputs are
 * the scenario file, the machine file, the replay file being replayed and
 * the executable that runs (futexsim, or the program).  Every output is
 * written into a temporary and renamed over its name (sim/host/outfile.h),
 * so what it replaces is a directory entry: an output's identity is the
 * real path of its directory and its own name, or the file that entry is
 * (lstat(2)) when it exists.  An input's is the file read, every link
 * followed (realpath(3), stat(2)).  An output that is a link to an input
 * replaces the link and leaves the input alone: it is not refused.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "sim/cli/cli.h"
#include "sim/replay/replay.h"
#include "sim/scenario/config.h"
#include "sim/scenario/preset.h"
#include "sim/scenario/scenario.h"
#include "sim/trace/trace.h"
#include "workloads/workload.h"

#define MAX_FILES	(2 * SIM_MAX_LOCKS + 6)

struct run_file {
	const char *key;		/* "json", ...; an input: what it is */
	const struct sim_origin *at;	/* where an output was named	*/
	char path[PATH_MAX];		/* as given (the executable: real) */
	char real[2 * PATH_MAX + 2];	/* the identity by name		*/
	dev_t dev;
	ino_t ino;
	int exists;
};

struct run_files {
	int nr;
	struct run_file f[MAX_FILES];
};

static struct run_file *add(struct run_files *rf, const char *key,
			    const char *path)
{
	struct run_file *f = &rf->f[rf->nr++];

	memset(f, 0, sizeof(*f));
	f->key = key;
	snprintf(f->path, sizeof(f->path), "%s", path);
	return f;
}

/* Output @path of key @key (named at @at): the entry rename(2) replaces. */
static void add_output(struct run_files *rf, const char *key,
		       const struct sim_origin *at, const char *path)
{
	struct run_file *f = add(rf, key, path);
	const char *slash = strrchr(path, '/');
	char dir[PATH_MAX], real[PATH_MAX];
	struct stat st;

	f->at = at;
	snprintf(dir, sizeof(dir), "%.*s", slash ? (int)(slash - path) + 1 : 1,
		 slash ? path : ".");
	if (realpath(dir, real))
		snprintf(f->real, sizeof(f->real), "%s/%s", real,
			 slash ? slash + 1 : path);
	else
		snprintf(f->real, sizeof(f->real), "%s", path);
	if (!lstat(path, &st)) {
		f->exists = 1;
		f->dev = st.st_dev;
		f->ino = st.st_ino;
	}
}

/* Input @path, @what it is: the file read, through every link. */
static void add_input(struct run_files *rf, const char *what,
		      const char *path)
{
	struct run_file *f;
	struct stat st;

	if (!path || !*path || stat(path, &st))
		return;		/* not read, or its reader said why */
	f = add(rf, what, path);
	f->exists = 1;
	f->dev = st.st_dev;
	f->ino = st.st_ino;
	if (!realpath(path, f->real))
		snprintf(f->real, sizeof(f->real), "%s", path);
	else if (!strncmp(path, "/proc/", 6))	/* the executable: its name */
		memcpy(f->path, f->real, strnlen(f->real, sizeof(f->path) - 1) + 1);
}

static int same(const struct run_file *out, const struct run_file *b)
{
	return !strcmp(out->real, b->real) ||
	       (out->exists && b->exists && out->dev == b->dev &&
		out->ino == b->ino);
}

/* The machine file the run reads, if the machine is one (a name is
 * NAME.machine in the presets' directory). */
static void add_machine(struct run_files *rf, const struct sim_scenario *s)
{
	char path[PATH_MAX];
	size_t n = strlen(s->machine);

	if (strchr(s->machine, '/') ||
	    (n >= 8 && !strcmp(s->machine + n - 8, ".machine")))
		snprintf(path, sizeof(path), "%s", s->machine);
	else
		snprintf(path, sizeof(path), "%s/%s.machine", sim_preset_dir(),
			 s->machine);
	add_input(rf, "the machine file", path);
}

static void add_outputs(struct run_files *rf, const struct sim_scenario *s)
{
	char path[PATH_MAX];

	if (s->json[0])
		add_output(rf, "json", &s->json_at, s->json);
	if (s->plot[0])
		add_output(rf, "plot", &s->plot_at, s->plot);
	if (s->lock_stat[0] && strcmp(s->lock_stat, "-") != 0)
		add_output(rf, "lock-stat", &s->lock_stat_at, s->lock_stat);
	for (int i = 0; s->trace[0] && i < s->nr_locks; i++) {
		sim_trace_lock_path(s->trace, s->locks[i], s->nr_locks, path,
				    sizeof(path));
		add_output(rf, "trace", &s->trace_at, path);
	}
	for (int i = 0; s->record[0] && i < s->nr_locks; i++)
		if (!sim_record_lock_path(s->record, s->locks[i], s->nr_locks,
					  path, sizeof(path)))
			add_output(rf, "record", &s->record_at, path);
}

int sim_cli_same_file(const char *out, const char *other, int input)
{
	struct run_files *rf = calloc(1, sizeof(*rf));
	int r;

	if (!rf)
		exit(1);
	add_output(rf, "", NULL, out);
	if (input)
		add_input(rf, "", other);
	else
		add_output(rf, "", NULL, other);
	r = rf->nr == 2 && same(&rf->f[0], &rf->f[1]);
	free(rf);
	return r;
}

void sim_cli_check_files(const struct sim_scenario *s, const char *scenario,
			 const struct sim_replay_src *src)
{
	struct run_files *rf = calloc(1, sizeof(*rf));
	char expected[PATH_MAX + 128];
	int nr_out;

	if (!rf)
		exit(1);
	add_outputs(rf, s);
	nr_out = rf->nr;
	add_input(rf, "the scenario file", scenario);
	add_machine(rf, s);
	add_input(rf, "the replay file", src ? src->path : NULL);
	add_input(rf, s->wl == &wl_program ? "the program" : "the futexsim executable",
		  "/proc/self/exe");
	for (int i = 0; i < nr_out; i++) {
		const struct run_file *o = &rf->f[i];

		for (int j = 0; j < rf->nr; j++) {
			const struct run_file *b = &rf->f[j];

			if (j == i || !same(o, b) || (j < nr_out && j < i))
				continue;
			if (j < nr_out && !strcmp(b->key, o->key))
				snprintf(expected, sizeof(expected),
					 "one file per lock: --%s names one file for two locks (%s)",
					 o->key, o->path);
			else if (j < nr_out)
				snprintf(expected, sizeof(expected),
					 "a file other than the --%s file (%s)",
					 b->key, b->path);
			else
				snprintf(expected, sizeof(expected),
					 "a file other than %s being read (%s)",
					 b->key, b->path);
			sim_config_fail(o->at, o->key, expected, o->path);
		}
	}
	free(rf);
}

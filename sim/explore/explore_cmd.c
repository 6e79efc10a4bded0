/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sim/explore/explore_cmd.c - `futexsim explore` and `futexsim merge`.
 *
 *   futexsim explore [SCENARIO] [--strategy=S] [--runs=N] [--oracle=LIST]
 *                    [--shard=I/N] [--summary=PATH] [--out=PATH]
 *                    [--key=value ...]
 *   futexsim merge SUMMARY...
 *
 * Stage: the driver of the whole flow, called by sim/cli/cli.c.  Calls
 * sim/explore/explore_run.c for each run (in this process), and on a hit records
 * the run into a replay file and has `futexsim replay FILE --narrate=yes`
 * print its narrated failure report.
 *
 * Runs: run k (0 <= k < N) has seed SEED + k, SEED being the scenario's
 * seed; --shard=I/N runs the k with k mod N = I only, so N processes (GNU
 * parallel, a Slurm array job) share one search.  dfs:P numbers the
 * schedules of its depth-first enumeration instead (all with the seed
 * SEED) and stops when they are exhausted; it cannot be sharded.
 *
 * Summary file (--summary=PATH; `futexsim merge` reads and writes it),
 * text, one "key value" per line after the first:
 *
 *	futexsim-explore-summary 1
 *	scenario 9f3a...        hash of the resolved scenario, seed left out
 *	strategy random
 *	oracle mutex,deadlock,state,bug,crash
 *	seed 1                  SEED
 *	runs 1000               N
 *	shard 0/4               I/N ("all/N" once merged, "0/1" unsharded)
 *	done 250                runs made (fewer than planned after a hit)
 *	other 0                 runs ended by a failure of an unselected oracle
 *	hit none                or: hit RUN SEED ORACLE (the first one)
 *	wait-max-ns 1234        the longest single wait of any run
 *	overtaken-max 3         the most overtakes of one wait in any run
 *	coverage 5e1c...        sum over the runs made of hash(k)
 *	fingerprint 77ab...     sum over the runs made of hash(k, outcome)
 *
 * Merged shards that cover the same runs as an unsharded search have the
 * same coverage and fingerprint as its summary.
 */
#include <errno.h>
#include <inttypes.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "sim/cli/cli.h"
#include "sim/host/outfile.h"
#include "sim/scenario/config.h"
#include "sim/explore/explore_run.h"
#include "sim/program/program.h"
#include "sim/replay/replay.h"

#define SUMMARY_FORMAT	"futexsim-explore-summary 1"

static const struct sim_origin cmdline = { .file = "command line" };

struct summary {
	uint64_t scenario;
	char strategy[32], oracle[128];
	uint64_t seed, runs;
	int shard, shards;		/* shard -1: all		*/
	uint64_t done, other;
	uint64_t infeasible;		/* memory=arm64: promises not kept */
	int hit;
	uint64_t hit_run, hit_seed;
	char hit_oracle[32];
	uint64_t wait_max_ns, overtaken_max, coverage, fingerprint;
	int exhausted;			/* dfs: no schedule left (not saved) */
};

struct opts {
	uint64_t runs;
	int shard, shards;
	const char *summary, *out;
};

static uint64_t mix(uint64_t x)
{
	x += 0x9e3779b97f4a7c15ULL;
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
	return x ^ (x >> 31);
}

/* The scenario without its seed, hashed: shards of one search agree. */
static uint64_t scenario_hash(const struct sim_scenario *s)
{
	struct sim_scenario t = *s;
	uint64_t h = 1469598103934665603ULL;
	char *buf = NULL;
	size_t len = 0;
	FILE *f;

	t.seed = 0;
	f = open_memstream(&buf, &len);
	if (!f)
		return 0;
	sim_scenario_print(&t, f);
	fclose(f);
	for (size_t i = 0; i < len; i++)
		h = (h ^ (unsigned char)buf[i]) * 1099511628211ULL;
	free(buf);
	return h;
}

static uint64_t get_n(const char *key, const char *v, uint64_t lo)
{
	uint64_t n;

	if (sim_parse_u64(v, &n) || n < lo)
		sim_config_fail(&cmdline, key, "a count", v);
	return n;
}

/* One explore option (Return: 1) or a scenario key (0). */
static int explore_opt(struct opts *o, const char *key, const char *v)
{
	if (!strcmp(key, "runs")) {
		o->runs = get_n(key, v, 1);
	} else if (!strcmp(key, "shard")) {
		if (sscanf(v, "%d/%d", &o->shard, &o->shards) != 2 ||
		    o->shards < 1 || o->shard < 0 || o->shard >= o->shards)
			sim_config_fail(&cmdline, key, "I/N with 0 <= I < N", v);
	} else if (!strcmp(key, "summary")) {
		o->summary = v;
	} else if (!strcmp(key, "out")) {
		o->out = v;
	} else {
		return 0;
	}
	return 1;
}

/* --summary and --out are two files, neither the scenario file @file
 * (NULL if none): bad input, said before the search. */
static void check_files(const char *file, const struct opts *o)
{
	char expected[400];

	if (o->summary && o->out && sim_cli_same_file(o->out, o->summary, 0)) {
		snprintf(expected, sizeof(expected),
			 "a file other than the --summary file (%.300s)", o->summary);
		sim_config_fail(&cmdline, "out", expected, o->out);
	}
	for (int i = 0; file && i < 2; i++) {
		const char *out = i ? o->out : o->summary;

		if (!out || !sim_cli_same_file(out, file, 1))
			continue;
		snprintf(expected, sizeof(expected),
			 "a file other than the scenario file being read (%.300s)",
			 file);
		sim_config_fail(&cmdline, i ? "out" : "summary", expected, out);
	}
}

/*
 * One run's output files would be written by every run of the
 * exploration: refused, naming the way to get them (replay the run that
 * failed, which --out writes, with the key).
 */
static void refuse_outputs(const struct sim_scenario *s)
{
	static const char why[] =
		"no per-run output in explore: replay the failing run's file (--out) with it";

	if (s->trace[0])
		sim_config_fail(&s->trace_at, "trace", why, s->trace);
	if (s->plot[0])
		sim_config_fail(&s->plot_at, "plot", why, s->plot);
	if (s->lock_stat[0])
		sim_config_fail(&s->lock_stat_at, "lock-stat", why, s->lock_stat);
	if (s->record[0])
		sim_config_fail(&s->record_at, "record", why, s->record);
}

/* Defaults, then SCENARIO, then the options, as `futexsim run` does. */
static void parse(int argc, char **argv, struct sim_scenario *s, struct opts *o)
{
	const char *file = NULL;
	char key[64];

	memset(o, 0, sizeof(*o));
	o->runs = 1000;
	o->shards = 1;
	sim_scenario_defaults(s);
	for (int i = 0; i < argc; i++)
		if (argv[i][0] != '-' && !(i && argv[i - 1][0] == '-' &&
					   !strchr(argv[i - 1], '=')))
			file = argv[i];
	if (file)
		sim_scenario_load(s, file);
	for (int i = 0; i < argc; i++) {
		const char *a = argv[i], *eq = strchr(a, '='), *v;
		size_t n;

		if (a[0] != '-')
			continue;
		if (a[1] != '-')
			sim_config_fail(&cmdline, NULL, "--key=value options", a);
		n = eq ? (size_t)(eq - a - 2) : strlen(a + 2);
		if (!n || n >= sizeof(key))
			sim_config_fail(&cmdline, NULL, "--key=value options", a);
		memcpy(key, a + 2, n);
		key[n] = '\0';
		v = eq ? eq + 1 : i + 1 < argc ? argv[++i] : NULL;
		if (!v)
			sim_config_fail(&cmdline, key, "--key=value", a);
		if (!explore_opt(o, key, v))
			sim_scenario_set(s, key, v, &cmdline);
	}
	refuse_outputs(s);
	check_files(file, o);
	sim_program_select(s);	/* --program, or this binary's program */
}

static void summary_write(const struct summary *m, FILE *f)
{
	fprintf(f, SUMMARY_FORMAT "\nscenario %016" PRIx64 "\nstrategy %s\n"
		"oracle %s\nseed %" PRIu64 "\nruns %" PRIu64 "\n",
		m->scenario, m->strategy, m->oracle, m->seed, m->runs);
	if (m->shard < 0)
		fprintf(f, "shard all/%d\n", m->shards);
	else
		fprintf(f, "shard %d/%d\n", m->shard, m->shards);
	fprintf(f, "done %" PRIu64 "\nother %" PRIu64 "\n", m->done, m->other);
	if (m->infeasible)
		fprintf(f, "infeasible %" PRIu64 "\n", m->infeasible);
	if (m->hit)
		fprintf(f, "hit %" PRIu64 " %" PRIu64 " %s\n", m->hit_run,
			m->hit_seed, m->hit_oracle);
	else
		fputs("hit none\n", f);
	fprintf(f, "wait-max-ns %" PRIu64 "\novertaken-max %" PRIu64
		"\ncoverage %016" PRIx64 "\nfingerprint %016" PRIx64 "\n",
		m->wait_max_ns, m->overtaken_max, m->coverage, m->fingerprint);
}

/* ---- the search ---------------------------------------------------------------- */

static double host_now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);	/* progress line only */
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static void progress(const struct summary *m, double t0, int final)
{
	static double last;
	double now = host_now();
	char w[32];

	if (!final && now - last < 0.25)
		return;
	last = now;
	fprintf(stderr, "\rexplore: %" PRIu64 "/%" PRIu64 " runs  %.0f runs/s  worst wait %s  most overtaken %" PRIu64 "   %s",
		m->done, m->runs, m->done / (now - t0 > 0 ? now - t0 : 1e-9),
		sim_format_duration_ps(m->wait_max_ns * 1000, w, sizeof(w)),
		m->overtaken_max, final ? "\n" : "");
}

static void note_run(struct summary *m, uint64_t k, const struct sim_xres *res)
{
	m->done++;
	m->coverage += mix(k);
	m->fingerprint += mix(k ^ mix(res->fingerprint));
	if (res->r.acquire_max_ns > m->wait_max_ns)
		m->wait_max_ns = res->r.acquire_max_ns;
	if (res->r.overtaken_max > m->overtaken_max)
		m->overtaken_max = res->r.overtaken_max;
	if (res->failed && res->kind == SIM_FAIL_INFEASIBLE)
		m->infeasible++;	/* no execution: no failure either */
	else if (res->failed && !res->hit)
		m->other++;
}

/*
 * explore_search - the runs of @o over @x into @m; on a hit, the
 * choices of the hit run into *@hit_c (*@hit_n of them).
 * Return: 1 on a hit, 0 if none.
 */
static int explore_search(struct sim_xctx *x, const struct opts *o,
			  struct summary *m, struct sim_choice **hit_c, int *hit_n)
{
	struct sim_xres *res = sim__explore_alloc(sizeof(*res));
	struct sim_choice *sched = NULL;
	int len = 0, cap = 0, hcap = 0, dfs = x->st.kind == SIM_STRAT_DFS, tty = isatty(2);
	double t0 = host_now();
	uint64_t k;

	for (k = dfs ? 0 : (uint64_t)o->shard; k < o->runs;
	     k += dfs ? 1 : (uint64_t)o->shards) {
		uint64_t seed = x->s.seed + (dfs ? 0 : k);

		sim_xrun(x, seed, sched, len, NULL, res);
		note_run(m, k, res);
		if (tty)
			progress(m, t0, 0);
		if (res->hit) {
			m->hit = 1;
			m->hit_run = k;
			m->hit_seed = seed;
			snprintf(m->hit_oracle, sizeof(m->hit_oracle), "%s", res->oracle);
			*hit_n = sim__explore_take_log(hit_c, &hcap);
			break;
		}
		if (dfs) {
			len = sim__explore_take_log(&sched, &cap);
			if (!sim_explore_dfs_next(sched, &len, x->st.param)) {
				m->exhausted = 1;
				break;
			}
		}
	}
	if (tty)
		progress(m, t0, 1);
	free(sched);
	free(res);
	return m->hit;
}

/* Record the hit into @path (choices @c, seed @seed) and show it. */
static int show_hit(const char *self, struct sim_xctx *x, uint64_t seed,
		    const struct sim_choice *c, int n, const char *path)
{
	struct sim_xres *res = sim__explore_alloc(sizeof(*res));
	int status, again;

	sim_xrun(x, seed, c, n, path, res);
	again = res->hit;
	free(res);
	if (!again) {
		fprintf(stderr, "futexsim: explore: the hit did not fail again when recorded (a determinism bug)\n");
		return SIM_EXIT_HOST;
	}
	/* the commands as this binary: a program's own, or a patched
	 * kernel's futexsim, not whichever futexsim is on the PATH */
	printf("explore: replay file %s\n  %s replay %s\n  %s shrink %s\n",
	       path, self, path, self, path);
	status = sim__explore_replay_show(self, path);
	if (status != SIM_EXIT_FAILURE)
		fprintf(stderr, "futexsim: explore: the replay of %s exited with %d, not 3\n",
			path, status);
	return SIM_EXIT_FAILURE;
}

static int fill_summary(FILE *f, void *m)
{
	summary_write(m, f);
	return ferror(f) ? -1 : 0;
}

/* The summary file, whole or not at all (sim/host/outfile.h). */
static void write_summary(const char *path, const struct summary *m)
{
	if (sim_outfile_write(path, fill_summary, (void *)m))
		exit(SIM_EXIT_HOST);	/* its line is printed */
}

int sim_cmd_explore(const char *self, int argc, char **argv)
{
	struct sim_scenario s;
	struct sim_xctx *x = sim__explore_alloc(sizeof(*x));
	struct summary m;
	struct sim_choice *hit_c = NULL;
	int hit_n = 0, status = 0;
	char path[400], w[32];
	struct opts o;

	parse(argc, argv, &s, &o);
	sim_xctx_init(x, &s);
	if (x->st.kind == SIM_STRAT_DFS && o.shards > 1)
		sim_config_fail(&cmdline, "shard", "no --shard with dfs (one enumeration)", NULL);
	memset(&m, 0, sizeof(m));
	m.scenario = scenario_hash(&x->s);
	sim_strategy_format(&x->st, m.strategy, sizeof(m.strategy));
	snprintf(m.oracle, sizeof(m.oracle), "%s",
		 x->s.oracle[0] ? x->s.oracle : SIM_ORACLE_DEFAULT);
	m.seed = x->s.seed;
	m.runs = o.runs;
	m.shard = o.shard;
	m.shards = o.shards;
	if (o.summary)
		write_summary(o.summary, &m);	/* writable: say so now */
	if (explore_search(x, &o, &m, &hit_c, &hit_n)) {
		printf("explore: %s fired in run %" PRIu64 " (seed %" PRIu64 ") after %" PRIu64 " runs, strategy %s\n",
		       m.hit_oracle, m.hit_run, m.hit_seed, m.done, m.strategy);
		if (o.out)
			snprintf(path, sizeof(path), "%s", o.out);
		else {
			char name[64];

			sim_replay_run_name(&x->s, name, sizeof(name));
			snprintf(path, sizeof(path), "futexsim-explore-%s-%" PRIu64 ".replay",
				 name, m.hit_run);
		}
		status = show_hit(self, x, m.hit_seed, hit_c, hit_n, path);
	} else {
		printf("explore: no oracle fired in %" PRIu64 " runs (strategy %s, oracle %s)%s; worst wait %s, most overtaken %" PRIu64 ", other failures %" PRIu64,
		       m.done, m.strategy, m.oracle,
		       m.exhausted ? ", every schedule within the preemption bound" : "",
		       sim_format_duration_ps(m.wait_max_ns * 1000, w, sizeof(w)),
		       m.overtaken_max, m.other);
		if (m.infeasible)
			printf(", infeasible %" PRIu64 " (memory=arm64 promises not kept: no executions)",
			       m.infeasible);
		printf("\n");
	}
	if (o.summary)
		write_summary(o.summary, &m);
	fflush(stdout);
	free(hit_c);
	free(x);
	return status;
}

/* ---- merge ------------------------------------------------------------------------ */

static void merge_fail(const char *path, int line, const char *expected,
		       const char *got)
{
	struct sim_origin at = { .file = path, .line = line };

	sim_config_fail(&at, NULL, expected, got);
}

/* One "key value" line of a summary into @m.  Return: 0, or -1 if the
 * key is unknown or its value malformed. */
static int summary_key(struct summary *m, const char *key, const char *val)
{
	static const struct {
		const char *key;
		size_t off;
		int base;
	} nums[] = {
		{ "scenario", offsetof(struct summary, scenario), 16 },
		{ "seed", offsetof(struct summary, seed), 10 },
		{ "runs", offsetof(struct summary, runs), 10 },
		{ "done", offsetof(struct summary, done), 10 },
		{ "other", offsetof(struct summary, other), 10 },
		{ "infeasible", offsetof(struct summary, infeasible), 10 },
		{ "wait-max-ns", offsetof(struct summary, wait_max_ns), 10 },
		{ "overtaken-max", offsetof(struct summary, overtaken_max), 10 },
		{ "coverage", offsetof(struct summary, coverage), 16 },
		{ "fingerprint", offsetof(struct summary, fingerprint), 16 },
	};
	char *end;

	for (size_t i = 0; i < sizeof(nums) / sizeof(nums[0]); i++) {
		if (strcmp(key, nums[i].key) != 0)
			continue;
		*(uint64_t *)((char *)m + nums[i].off) = strtoull(val, &end, nums[i].base);
		return *end ? -1 : 0;
	}
	if (!strcmp(key, "strategy"))
		snprintf(m->strategy, sizeof(m->strategy), "%.31s", val);
	else if (!strcmp(key, "oracle"))
		snprintf(m->oracle, sizeof(m->oracle), "%.127s", val);
	else if (!strcmp(key, "shard"))
		return sscanf(val, "%d/%d", &m->shard, &m->shards) == 2 ? 0 : -1;
	else if (!strcmp(key, "hit") && !strcmp(val, "none"))
		m->hit = 0;
	else if (!strcmp(key, "hit"))
		return (m->hit = sscanf(val, "%" SCNu64 " %" SCNu64 " %31s",
					&m->hit_run, &m->hit_seed,
					m->hit_oracle) == 3) ? 0 : -1;
	else
		return -1;
	return 0;
}

static void summary_read(const char *path, struct summary *m)
{
	char line[512], key[32], val[400];
	FILE *f = fopen(path, "r");
	int n = 0;

	if (!f)
		sim_config_fail(&cmdline, NULL, "a readable summary file", path);
	memset(m, 0, sizeof(*m));
	while (fgets(line, sizeof(line), f)) {
		n++;
		line[strcspn(line, "\n")] = '\0';
		if (n == 1 && strcmp(line, SUMMARY_FORMAT) != 0)
			merge_fail(path, n, "the line '" SUMMARY_FORMAT "'", line);
		if (n == 1)
			continue;
		if (sscanf(line, "%31s %399[^\n]", key, val) != 2 ||
		    summary_key(m, key, val))
			merge_fail(path, n, "a summary line of one shard (futexsim explore --summary)", line);
	}
	fclose(f);
	if (n < 2)
		merge_fail(path, n, "a summary file (futexsim explore --summary)", NULL);
}

static void merge_one(struct summary *all, const struct summary *m,
		      const char *path, unsigned char *seen)
{
	if (m->scenario != all->scenario ||
	    strcmp(m->strategy, all->strategy) != 0 ||
	    strcmp(m->oracle, all->oracle) != 0 || m->seed != all->seed ||
	    m->runs != all->runs || m->shards != all->shards)
		merge_fail(path, 0, "a shard of the same search (scenario, strategy, oracle, seed, runs, N)", NULL);
	if (m->shard < 0 || m->shard >= all->shards || seen[m->shard]++)
		merge_fail(path, 0, "each shard once", NULL);
	all->done += m->done;
	all->other += m->other;
	all->infeasible += m->infeasible;
	all->coverage += m->coverage;
	all->fingerprint += m->fingerprint;
	if (m->wait_max_ns > all->wait_max_ns)
		all->wait_max_ns = m->wait_max_ns;
	if (m->overtaken_max > all->overtaken_max)
		all->overtaken_max = m->overtaken_max;
	if (m->hit && (!all->hit || m->hit_run < all->hit_run)) {
		all->hit = 1;
		all->hit_run = m->hit_run;
		all->hit_seed = m->hit_seed;
		memcpy(all->hit_oracle, m->hit_oracle, sizeof(all->hit_oracle));
	}
}

int sim_cmd_merge(int argc, char **argv)
{
	struct summary all, m;
	unsigned char *seen;
	int nr = 0;

	if (argc < 1)
		sim_config_fail(&cmdline, NULL, "summary files: futexsim merge SUMMARY...", NULL);
	summary_read(argv[0], &all);
	seen = sim__explore_alloc((size_t)all.shards + 1);
	all.done = all.other = all.infeasible = 0;
	all.coverage = all.fingerprint = 0;
	all.wait_max_ns = all.overtaken_max = 0;
	all.hit = 0;
	for (int i = 0; i < argc; i++) {
		if (argv[i][0] == '-')
			sim_config_fail(&cmdline, NULL, "summary files", argv[i]);
		summary_read(argv[i], &m);
		merge_one(&all, &m, argv[i], seen);
		nr++;
	}
	all.shard = -1;
	summary_write(&all, stdout);
	if (nr != all.shards)
		printf("# %d of %d shards merged\n", nr, all.shards);
	free(seen);
	return 0;
}

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sim/explore/shrink.c - `futexsim shrink FILE [--out=PATH] [--budget=N]`:
 * minimise a failing replay file while the same oracle still fires.
 *
 * Stage: the driver of the whole flow, called by sim/cli/cli.c.  Reads the
 * file's header (sim_replay_load()) and its explore choices (the "X N K"
 * decisions, sim/replay/replay.h), re-runs the scenario in this process
 * (sim/explore/explore_run.c) with candidate schedules, records the smallest
 * failing one into PATH (default: FILE with ".min" before ".replay") and
 * has `futexsim replay PATH --narrate=yes` tell what happens in it.
 *
 * Size of a schedule, compared in this order (the first field that
 * differs decides): threads, operations, preemptions, choices other than
 * index 0, branching points up to the failure.  A user program
 * (workload program) has no threads or operations keys: its size starts
 * at the sum of the words of its arguments the user marked with
 * --shrink-args=POS,... (numbers the shrink may lower, to 1 at least),
 * 0 if none is marked; its runs are made in fresh worlds
 * (sim/explore/explore_fork.c).  A candidate is kept only
 * if it fails with the same oracle and is smaller, so shrinking never
 * grows a schedule (a schedule with fewer preemptions may have more
 * branching points).
 * Passes, repeated until none helps or the budget of runs (default 2000)
 * is spent: a shorter forced prefix (index 0, no preemption, after it);
 * halve the operations, then take off ops/4, ops/8 ... 1 of them while
 * that works; drop a thread; set chunks of the non-zero choices to 0
 * (delta debugging: halves, then quarters... then single choices, then
 * pairs); a program's marked arguments instead of the operations and
 * threads.  A kept candidate's own choices (its run's log, cut at the
 * failure) replace the schedule: a shorter prefix.  Last, a depth-first
 * search of the shrunk scenario's schedules with fewer preemptions than
 * the best one (bounded by the budget too).
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/cli/cli.h"
#include "sim/explore/explore_run.h"
#include "sim/program/program.h"
#include "sim/replay/replay.h"
#include "workloads/workload.h"

static const struct sim_origin cmdline = { .file = "command line" };

struct size {
	uint64_t threads, ops;
	int preempt, nonzero, len;
};

struct cand {
	struct sim_choice *c;
	int len;
	struct size sz;
};

#define SHRINK_ARGS_MAX	16		/* --shrink-args positions	*/
#define SHRINK_WORD	128		/* one word of --args		*/

static struct {
	struct sim_xctx *x;
	const char *oracle;		/* the one that must fire	*/
	long budget;
	long runs;
	struct sim_xres *res;
	int prog;			/* workload program		*/
	int marked[SHRINK_ARGS_MAX];	/* --shrink-args, 1-based	*/
	int nr_marked;
} sh;

/* The X decisions of @src's file, in order. */
static struct sim_choice *read_choices(const struct sim_replay_src *src,
				       int *n)
{
	FILE *f = fopen(src->path, "r");
	struct sim_choice *c = NULL;
	char line[128];
	int cap = 0;
	unsigned int a, b;

	*n = 0;
	if (!f || fseek(f, src->offset, SEEK_SET))
		sim_config_fail(&cmdline, NULL, "a readable replay file", src->path);
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "X %u %u", &a, &b) != 2)
			continue;
		if (*n == cap) {
			cap = cap ? 2 * cap : 256;
			c = realloc(c, (size_t)cap * sizeof(*c));
			if (!c)
				exit(SIM_EXIT_HOST);
		}
		c[(*n)++] = (struct sim_choice){ (uint16_t)a, (uint16_t)b, 0 };
	}
	fclose(f);
	return c;
}

/* Is @a smaller than @b, field by field in the order of struct size? */
static int smaller(const struct size *a, const struct size *b)
{
	const int64_t x[5] = { (int64_t)a->threads, (int64_t)a->ops, a->preempt,
			       a->nonzero, a->len };
	const int64_t y[5] = { (int64_t)b->threads, (int64_t)b->ops, b->preempt,
			       b->nonzero, b->len };

	for (int i = 0; i < 5; i++)
		if (x[i] != y[i])
			return x[i] < y[i];
	return 0;
}

/* ---- a program's marked arguments (--shrink-args) ---------------------- */

/* The words of --args as sim/program splits them (blanks; '...' and
 * "..." group), each kept with its quotes.  Return: how many (at most
 * @max; the rest are lost, which --shrink-args refuses up front). */
static int arg_words(const char *a, char w[][SHRINK_WORD], int max)
{
	int n = 0;

	while (*a && n < max) {
		char q = 0;
		size_t len = 0;

		while (*a == ' ' || *a == '\t')
			a++;
		if (!*a)
			break;
		for (; *a && (q || (*a != ' ' && *a != '\t')); a++) {
			if (q ? *a == q : (*a == '\'' || *a == '"'))
				q = q ? 0 : *a;
			if (len < SHRINK_WORD - 1)
				w[n][len++] = *a;
		}
		w[n++][len] = '\0';
	}
	return n;
}

/* The integer value of marked word @pos (1-based) of --args. */
static uint64_t arg_value(int pos)
{
	char w[SHRINK_ARGS_MAX * 4][SHRINK_WORD];
	int n = arg_words(sh.x->s.args, w, SHRINK_ARGS_MAX * 4);

	return pos <= n ? strtoull(w[pos - 1], NULL, 10) : 0;
}

static uint64_t marked_sum(void)
{
	uint64_t sum = 0;

	for (int i = 0; i < sh.nr_marked; i++)
		sum += arg_value(sh.marked[i]);
	return sum;
}

/* Word @pos (1-based) of --args becomes @v. */
static void arg_set(int pos, uint64_t v)
{
	char w[SHRINK_ARGS_MAX * 4][SHRINK_WORD], *a = sh.x->s.args;
	size_t cap = sizeof(sh.x->s.args), len = 0;
	int n = arg_words(a, w, SHRINK_ARGS_MAX * 4);

	snprintf(w[pos - 1], SHRINK_WORD, "%" PRIu64, v);
	a[0] = '\0';
	for (int i = 0; i < n; i++)
		len += (size_t)snprintf(a + len, len < cap ? cap - len : 0,
					"%s%s", i ? " " : "", w[i]);
}

/* --shrink-args=LIST: positions of numeric words of --args that shrink
 * may lower (to 1 at least); checked against the file's --args. */
static void parse_marked(const char *list)
{
	char w[SHRINK_ARGS_MAX * 4][SHRINK_WORD], *end;
	int n = arg_words(sh.x->s.args, w, SHRINK_ARGS_MAX * 4);
	const char *p = list;

	while (*p) {
		long pos = strtol(p, &end, 10);

		if (end == p || pos < 1 || pos > n || sh.nr_marked == SHRINK_ARGS_MAX ||
		    strspn(w[pos - 1], "0123456789") != strlen(w[pos - 1]) ||
		    !w[pos - 1][0])
			sim_config_fail(&cmdline, "shrink-args",
					"positions of numeric words of the replay file's args (1 = the first word), comma-separated",
					list);
		sh.marked[sh.nr_marked++] = (int)pos;
		p = *end == ',' ? end + 1 : end;
		if (*end && *end != ',')
			sim_config_fail(&cmdline, "shrink-args",
					"positions separated by commas", list);
	}
}

/* Lower each marked argument: halve it, then take off v/4, v/8 ... 1
 * while the oracle still fires.  Return: 1 if one got smaller. */
static int pass_args(struct cand *best);

/* Run @c under the context's scenario; if the oracle fires, fill @out
 * (its own choices and size).  Return: 1 if it fired. */
static int attempt(const struct sim_choice *c, int len, struct cand *out)
{
	const struct sim_explore_log *l;

	if (sh.runs >= sh.budget)
		return 0;
	sh.runs++;
	sim_xrun(sh.x, sh.x->s.seed, c, len, NULL, sh.res);
	if (!sh.res->hit || strcmp(sh.res->oracle, sh.oracle) != 0)
		return 0;
	l = sim_explore_log();
	out->c = sim__explore_alloc((size_t)l->len * sizeof(*out->c));
	if (l->len)
		memcpy(out->c, l->c, (size_t)l->len * sizeof(*out->c));
	out->len = l->len;
	if (sh.prog)	/* threads and ops are the program's own */
		out->sz = (struct size){ 0, marked_sum(), l->preemptions,
					 sh.res->nonzero, l->len };
	else
		out->sz = (struct size){ (uint64_t)sh.x->s.threads, sh.x->s.ops,
					 l->preemptions, sh.res->nonzero, l->len };
	return 1;
}

/* Keep @t if it is smaller than @best (Return: 1), else drop it. */
static int keep(struct cand *best, struct cand *t)
{
	if (!smaller(&t->sz, &best->sz)) {
		free(t->c);
		return 0;
	}
	free(best->c);
	*best = *t;
	return 1;
}

/* A scenario change (@field to @v): keep it if the oracle still fires. */
static int try_scenario(struct cand *best, uint64_t *field, uint64_t v)
{
	uint64_t old = *field;
	struct cand t;

	*field = v;
	if (attempt(best->c, best->len, &t) && keep(best, &t))
		return 1;
	*field = old;
	return 0;
}

/* One thread fewer; a rwlock's readers= or writers= (@group, NULL for
 * neither) loses it too, as threads = readers + writers. */
static int drop_thread(struct cand *best, int *group)
{
	struct sim_scenario *s = &sh.x->s;
	struct cand t;

	if (group && *group <= 1)
		return 0;	/* keep each kind: not given, or the last one */
	s->threads--;
	if (group)
		(*group)--;
	if (attempt(best->c, best->len, &t) && keep(best, &t))
		return 1;
	s->threads++;
	if (group)
		(*group)++;
	return 0;
}

static int try_arg(struct cand *best, int pos, uint64_t v)
{
	char keep_args[sizeof(sh.x->s.args)];
	struct cand t;

	memcpy(keep_args, sh.x->s.args, sizeof(keep_args));
	arg_set(pos, v);
	/* the old schedule, then none: other arguments shift the choices */
	if (attempt(best->c, best->len, &t) && keep(best, &t))
		return 1;
	if (attempt(NULL, 0, &t) && keep(best, &t))
		return 1;
	memcpy(sh.x->s.args, keep_args, sizeof(keep_args));
	return 0;
}

static int pass_args(struct cand *best)
{
	int got = 0;

	for (int i = 0; i < sh.nr_marked; i++) {
		int pos = sh.marked[i];
		uint64_t v;

		while ((v = arg_value(pos)) > 1 &&
		       try_arg(best, pos, v / 2 > 1 ? v / 2 : 1))
			got = 1;
		for (uint64_t step = arg_value(pos) / 4 ? arg_value(pos) / 4 : 1;
		     step; step /= 2)
			while ((v = arg_value(pos)) > step &&
			       try_arg(best, pos, v - step))
				got = 1;
	}
	return got;
}

static int pass_scenario(struct cand *best)
{
	struct sim_scenario *s = &sh.x->s;
	uint64_t threads = (uint64_t)s->threads;
	int got = 0;

	if (sh.prog)
		return pass_args(best);

	while (s->ops > threads && try_scenario(best, &s->ops, s->ops / 2 > threads ? s->ops / 2 : threads))
		got = 1;
	for (uint64_t step = s->ops / 4 ? s->ops / 4 : 1; step; step /= 2)
		while (s->ops > step && try_scenario(best, &s->ops, s->ops - step))
			got = 1;
	if (threads > 1) {
		got |= drop_thread(best, &s->readers);
		got |= drop_thread(best, &s->writers);
		if (!s->readers && !s->writers)
			got |= drop_thread(best, NULL);
	}
	return got;
}

/* A shorter forced prefix: the choices after it all take index 0 (no
 * preemption); the shortest of 0, len/16, len/8, len/4, len/2, 3len/4
 * that still fails. */
static int pass_prefix(struct cand *best)
{
	static const int num[] = { 0, 1, 1, 1, 1, 3 }, den[] = { 1, 16, 8, 4, 2, 4 };

	for (size_t i = 0; i < sizeof(num) / sizeof(num[0]); i++) {
		int cut = best->len * num[i] / den[i];
		struct cand t;

		if (cut >= best->len)
			break;
		if (attempt(best->c, cut, &t) && keep(best, &t))
			return 1;
	}
	return 0;
}

/* Zero @chunk non-zero choices in a row, at every @stride-th one. */
static int zero_chunks(struct cand *best, int chunk, int stride)
{
	int got = 0;

	for (int start = 0; start < best->sz.nonzero && sh.runs < sh.budget;
	     start += stride) {
		struct sim_choice *c = sim__explore_alloc((size_t)best->len * sizeof(*c) + 1);
		struct cand t;
		int seen = 0;

		memcpy(c, best->c, (size_t)best->len * sizeof(*c));
		for (int i = 0; i < best->len; i++) {
			if (!c[i].k)
				continue;
			if (seen >= start && seen < start + chunk)
				c[i].k = 0;
			seen++;
		}
		if (attempt(c, best->len, &t) && keep(best, &t)) {
			got = 1;
			start -= stride;	/* the same place again */
		}
		free(c);
	}
	return got;
}

/* Zero chunks of the non-zero choices: halves, quarters ... single ones
 * (delta debugging), then pairs at every offset: a preemption and the
 * switch back, which cuts one task's slice out of another's. */
static int pass_choices(struct cand *best)
{
	int got = 0;

	for (int chunk = best->sz.nonzero / 2; chunk >= 1; chunk /= 2)
		got |= zero_chunks(best, chunk, chunk);
	got |= zero_chunks(best, 2, 1);
	return got;
}

/* Last: a bounded search near the minimum.  With the scenario shrunk,
 * enumerate its schedules depth-first with 0, 1 ... (preemptions - 1)
 * preemptions (sim_explore_dfs_next()) while the budget lasts; the first
 * that fails the same way is smaller. */
static int pass_dfs(struct cand *best)
{
	struct sim_choice *c = NULL;
	int len, cap = 0;

	for (int bound = 0; bound < best->sz.preempt; bound++) {
		len = 0;
		do {
			struct cand t;

			if (sh.runs >= sh.budget)
				goto out;
			if (attempt(c, len, &t)) {
				if (keep(best, &t)) {
					free(c);
					return 1;
				}
			}
			len = sim__explore_take_log(&c, &cap);
		} while (sim_explore_dfs_next(c, &len, (unsigned int)bound));
	}
out:
	free(c);
	return 0;
}

static void print_size(const char *what, const struct size *z)
{
	if (!sh.prog)
		printf("shrink: %s: %" PRIu64 " threads, %" PRIu64 " ops, ",
		       what, z->threads, z->ops);
	else if (sh.nr_marked)
		printf("shrink: %s: args \"%s\", ", what, sh.x->s.args);
	else
		printf("shrink: %s: ", what);
	printf("%d preemptions, %d non-zero choices, %d branching points\n",
	       z->preempt, z->nonzero, z->len);
}

static const char *out_path(const char *file, const char *out, char *buf,
			    size_t len)
{
	size_t n = strlen(file);

	if (out)
		return out;
	if (n > 7 && !strcmp(file + n - 7, ".replay"))
		snprintf(buf, len, "%.*s.min.replay", (int)(n - 7), file);
	else
		snprintf(buf, len, "%s.min", file);
	return buf;
}

int sim_cmd_shrink(const char *self, int argc, char **argv)
{
	struct sim_replay_src src;
	struct sim_scenario s;
	struct cand best, start;
	const char *file = NULL, *out = NULL, *marked = NULL;
	char buf[400];
	int nf, round = 0;
	unsigned int jitter;
	struct sim_choice *forced;

	sh.budget = 2000;
	for (int i = 0; i < argc; i++) {
		if (!strncmp(argv[i], "--out=", 6))
			out = argv[i] + 6;
		else if (!strncmp(argv[i], "--shrink-args=", 14))
			marked = argv[i] + 14;
		else if (!strncmp(argv[i], "--budget=", 9))
			sh.budget = atol(argv[i] + 9) > 0 ? atol(argv[i] + 9) : 1;
		else if (argv[i][0] == '-' || file)
			sim_config_fail(&cmdline, NULL, "futexsim shrink FILE [--out=PATH] [--budget=N] [--shrink-args=POS,...]", argv[i]);
		else
			file = argv[i];
	}
	if (!file)
		sim_config_fail(&cmdline, NULL, "a replay file: futexsim shrink FILE", NULL);
	/* the minimal file never replaces the file it is shrunk from */
	if (out && sim_cli_same_file(out, file, 1)) {
		snprintf(buf, sizeof(buf),
			 "a file other than the replay file being shrunk (%s)",
			 file);
		sim_config_fail(&cmdline, "out", buf, out);
	}
	sim_scenario_defaults(&s);
	sim_replay_load(file, &s, &src);
	sim_program_select(&s);	/* the file's program, or this binary's */
	forced = read_choices(&src, &nf);
	sh.x = sim__explore_alloc(sizeof(*sh.x));
	sh.res = sim__explore_alloc(sizeof(*sh.res));
	jitter = s.cost_jitter_pct;
	sim_xctx_init(sh.x, &s);
	/* the file's runs as recorded: no default jitter of strategy timed */
	sh.x->s.cost_jitter_pct = jitter;
	sh.x->s.ops_per_thread = 0;	/* ops and threads vary apart */
	sh.prog = sh.x->s.wl == &wl_program;
	sh.nr_marked = 0;
	if (marked && !sh.prog)
		sim_config_fail(&cmdline, "shrink-args",
				"a replay file of a program (workload program)", file);
	if (marked)
		parse_marked(marked);
	/* past the forced choices: index 0, whatever the file's strategy */
	if (sh.x->st.kind != SIM_STRAT_TIMED)
		sh.x->st = (struct sim_strategy){ SIM_STRAT_DFS, 0 };
	sh.oracle = "";
	sh.runs = 0;
	sim_xrun(sh.x, sh.x->s.seed, forced, nf, NULL, sh.res);
	if (!sh.res->hit)
		sim_config_fail(&cmdline, NULL, "a replay file of a run that fails (an oracle fires)", file);
	sh.oracle = sh.res->oracle;
	sh.budget++;
	if (!attempt(forced, nf, &start))
		sim_config_fail(&cmdline, NULL, "a replay file whose failure reproduces", file);
	best = start;
	best.c = sim__explore_alloc((size_t)start.len * sizeof(*best.c) + 1);
	memcpy(best.c, start.c, (size_t)start.len * sizeof(*best.c));
	printf("shrink: %s: oracle %s\n", file, sh.oracle);
	print_size("before", &start.sz);
	if (sh.x->st.kind == SIM_STRAT_TIMED && !start.sz.len)
		/* no choices to drop: say what can shrink, and how to get
		 * a schedule that can */
		printf("shrink: strategy timed: the run has no branching points (its seed and clocks are its schedule), so %s; a search with --strategy=random finds schedules that shrink\n",
		       !sh.prog ? "only threads and operations can shrink" :
		       sh.nr_marked ? "only the marked arguments can shrink" :
		       "nothing here can shrink (mark arguments with --shrink-args)");
	while (sh.runs < sh.budget && round++ < 20)
		if (!(pass_prefix(&best) | pass_scenario(&best) |
		      pass_choices(&best)))
			break;
	while (sh.runs < sh.budget && pass_dfs(&best))
		pass_scenario(&best);
	out = out_path(file, out, buf, sizeof(buf));
	sim_xrun(sh.x, sh.x->s.seed, best.c, best.len, out, sh.res);
	print_size("after", &best.sz);
	printf("shrink: %ld run%s; minimal replay file %s\n  %s replay %s --narrate=yes\n",
	       sh.runs, sh.runs == 1 ? "" : "s", out, self, out);
	fflush(stdout);
	free(forced);
	free(start.c);
	if (!sh.res->hit || strcmp(sh.res->oracle, sh.oracle) != 0) {
		fprintf(stderr, "futexsim: shrink: the minimal schedule did not fail again when recorded\n");
		free(best.c);
		return 1;
	}
	sim__explore_replay_show(self, out);
	free(best.c);
	return 0;
}

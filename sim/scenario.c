/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sim/scenario.c - the scenario keys: defaults, parsing and checking of
 * each value, cross-key resolution, and the echo as a scenario file and as
 * JSON.
 *
 * Stage: CLI input.  Called by the CLI (sim/cli.c) for the scenario file
 * and every --key=value, and by sim/report.c for the echo; calls
 * sim/config.c for parsing and errors, ulock_find() and wl_find() to check
 * the names of locks and workloads.  The machine key is checked later, by
 * loading the preset (sim_preset_load_at(), in the CLI).
 *
 * One table below holds every key with its setter and its help text, so
 * the parser, `futexsim --help` and the echo cannot disagree.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "sim/machine.h"
#include "sim/scenario.h"
#include "workloads/workload.h"

struct key {
	const char *name;
	const char *form;	/* for --help				*/
	const char *doc;	/* meaning and default, for --help	*/
	void (*set)(struct sim_scenario *s, const struct key *k,
		    const char *v, const struct sim_origin *at);
};

/* Copy @v into @dst of @size bytes, or fail: an empty or too long value. */
static void set_str(char *dst, size_t size, const struct key *k,
		    const char *v, const struct sim_origin *at)
{
	char expected[64];

	if (!*v || strlen(v) >= size) {
		snprintf(expected, sizeof(expected), "a %s of 1 to %zu characters",
			 k->form, size - 1);
		sim_config_fail(at, k->name, expected, v);
	}
	memcpy(dst, v, strlen(v) + 1);
}

/* A count in [@lo, @hi]; suffixes k, M, G allowed. */
static uint64_t get_count(const struct key *k, const char *v, uint64_t lo,
			  uint64_t hi, const struct sim_origin *at)
{
	char expected[96];
	uint64_t n;

	if (sim_parse_u64(v, &n) || n < lo || n > hi) {
		snprintf(expected, sizeof(expected), "an integer from %" PRIu64
			 " to %" PRIu64, lo, hi);
		sim_config_fail(at, k->name, expected, v);
	}
	return n;
}

static uint64_t get_duration(const struct key *k, const char *v,
			     const struct sim_origin *at)
{
	uint64_t ps;

	if (sim_parse_duration_ps(v, &ps) || !ps)
		sim_config_fail(at, k->name,
				"a positive duration with a unit (ns, us, ms or s), like 20ms or 1.5us",
				v);
	return ps;
}

static void set_machine(struct sim_scenario *s, const struct key *k,
			const char *v, const struct sim_origin *at)
{
	set_str(s->machine, sizeof(s->machine), k, v, at);
	s->machine_at = *at;
}

static void set_cpus(struct sim_scenario *s, const struct key *k,
		     const char *v, const struct sim_origin *at)
{
	char expected[64];
	uint64_t n;

	if (!strcmp(v, "all")) {
		s->cpus = 0;
	} else if (sim_parse_u64(v, &n) || n < 1 || n > SIM_MAX_CPUS) {
		snprintf(expected, sizeof(expected),
			 "'all' or an integer from 1 to %d", SIM_MAX_CPUS);
		sim_config_fail(at, k->name, expected, v);
	} else {
		s->cpus = (int)n;
	}
	s->cpus_at = *at;
}

static void set_threads(struct sim_scenario *s, const struct key *k,
			const char *v, const struct sim_origin *at)
{
	/* One task slot stays for the workload's own use. */
	s->threads = (int)get_count(k, v, 1, SIM_MAX_TASKS - 1, at);
}

static void set_workload(struct sim_scenario *s, const struct key *k,
			 const char *v, const struct sim_origin *at)
{
	char expected[512] = "a workload among";
	int i;

	if (!wl_find(v)) {
		for (i = 0; wl_registry[i]; i++)
			snprintf(expected + strlen(expected),
				 sizeof(expected) - strlen(expected), "%s %s",
				 i ? "," : "", wl_registry[i]->name);
		sim_config_fail(at, k->name, expected, v);
	}
	set_str(s->workload, sizeof(s->workload), k, v, at);
}

/* The locks one may name; the broken ones (negative controls) work but
 * are not advertised. */
static void fail_lock(const struct key *k, const char *v,
		      const struct sim_origin *at)
{
	char expected[512];
	int i, n = 0;

	snprintf(expected, sizeof(expected),
		 "a comma-separated list of up to %d locks among", SIM_MAX_LOCKS);
	for (i = 0; ulock_registry[i]; i++) {
		if (ulock_registry[i]->broken)
			continue;
		snprintf(expected + strlen(expected),
			 sizeof(expected) - strlen(expected), "%s %s",
			 n++ ? "," : "", ulock_registry[i]->name);
	}
	sim_config_fail(at, k->name, expected, v);
}

static void set_lock(struct sim_scenario *s, const struct key *k,
		     const char *v, const struct sim_origin *at)
{
	const char *p = v, *comma;
	char name[sizeof(s->locks[0])];
	int n = 0;
	size_t len;

	do {
		comma = strchr(p, ',');
		len = comma ? (size_t)(comma - p) : strlen(p);
		if (n == SIM_MAX_LOCKS || !len || len >= sizeof(name))
			fail_lock(k, v, at);
		memcpy(name, p, len);
		name[len] = '\0';
		if (!ulock_find(name))
			fail_lock(k, v, at);
		memcpy(s->locks[n++], name, len + 1);
		p = comma + 1;
	} while (comma);
	s->nr_locks = n;
}

static void set_ops(struct sim_scenario *s, const struct key *k,
		    const char *v, const struct sim_origin *at)
{
	s->ops = get_count(k, v, 1, UINT64_MAX, at);
	s->ops_at = *at;
}

static void set_duration(struct sim_scenario *s, const struct key *k,
			 const char *v, const struct sim_origin *at)
{
	/* "none" takes a file's duration back, for fixed-ops mode. */
	if (!strcmp(v, "none")) {
		s->duration_ps = 0;
		s->duration_at = (struct sim_origin){ 0 };
		return;
	}
	s->duration_ps = get_duration(k, v, at);
	s->duration_at = *at;
}

/* pause:N | sleep:DURATION | none */
static void set_work(struct sim_work *w, const struct key *k, const char *v,
		     const struct sim_origin *at)
{
	static const char expected[] =
		"pause:N, sleep:DURATION (like sleep:1us) or none";

	*w = (struct sim_work){ .kind = SIM_WORK_NONE };
	if (!strcmp(v, "none"))
		return;
	if (!strncmp(v, "pause:", 6)) {
		w->kind = SIM_WORK_PAUSE;
		if (sim_parse_u64(v + 6, &w->n))
			sim_config_fail(at, k->name, expected, v);
		return;
	}
	if (!strncmp(v, "sleep:", 6)) {
		w->kind = SIM_WORK_SLEEP;
		if (sim_parse_duration_ps(v + 6, &w->sleep_ps) || !w->sleep_ps)
			sim_config_fail(at, k->name, expected, v);
		return;
	}
	sim_config_fail(at, k->name, expected, v);
}

static void set_cs(struct sim_scenario *s, const struct key *k,
		   const char *v, const struct sim_origin *at)
{
	set_work(&s->cs, k, v, at);
}

static void set_between(struct sim_scenario *s, const struct key *k,
			const char *v, const struct sim_origin *at)
{
	set_work(&s->between, k, v, at);
}

static void set_seed(struct sim_scenario *s, const struct key *k,
		     const char *v, const struct sim_origin *at)
{
	s->seed = get_count(k, v, 0, UINT64_MAX, at);
}

static void set_json(struct sim_scenario *s, const struct key *k,
		     const char *v, const struct sim_origin *at)
{
	if (!strcmp(v, "none")) {
		s->json[0] = '\0';
		s->json_at = (struct sim_origin){ 0 };
		return;
	}
	set_str(s->json, sizeof(s->json), k, v, at);
	s->json_at = *at;
}

static void set_livelock(struct sim_scenario *s, const struct key *k,
			 const char *v, const struct sim_origin *at)
{
	s->livelock_ps = get_duration(k, v, at);
}

static const struct key keys[] = {
	{ "machine", "NAME|PATH", "machine preset ('futexsim list machines'); default tiny4", set_machine },
	{ "cpus", "N|all", "CPUs used, at most the machine's; default all", set_cpus },
	{ "threads", "N", "worker tasks; default = cpus", set_threads },
	{ "workload", "NAME", "benchmark driver ('futexsim list workloads'); default mutex", set_workload },
	{ "lock", "LOCK[,LOCK...]", "user locks, each run alike ('futexsim list locks'); default ww", set_lock },
	{ "ops", "N", "total operations (fixed-ops mode); default 100000", set_ops },
	{ "duration", "DURATION|none", "simulated run time (fixed-time mode); excludes ops", set_duration },
	{ "cs", "pause:N|sleep:DURATION|none", "critical section; default pause:5", set_cs },
	{ "between", "pause:N|sleep:DURATION|none", "work between operations; default pause:1", set_between },
	{ "seed", "N", "PRNG seed; default 1", set_seed },
	{ "json", "PATH|none", "also write the results as JSON to PATH; default none", set_json },
	{ "livelock", "DURATION", "virtual time without progress that is a livelock; default 10s", set_livelock },
};
static const int nr_keys = sizeof(keys) / sizeof(keys[0]);

void sim_scenario_defaults(struct sim_scenario *s)
{
	memset(s, 0, sizeof(*s));
	strcpy(s->machine, "tiny4");
	strcpy(s->workload, "mutex");
	strcpy(s->locks[0], "ww");
	s->nr_locks = 1;
	s->ops = 100000;
	s->cs = (struct sim_work){ .kind = SIM_WORK_PAUSE, .n = 5 };
	s->between = (struct sim_work){ .kind = SIM_WORK_PAUSE, .n = 1 };
	s->seed = 1;
	s->livelock_ps = 10 * 1000000000000ULL;
}

void sim_scenario_set(struct sim_scenario *s, const char *key,
		      const char *value, const struct sim_origin *at)
{
	char expected[256] = "a known key:";
	int i;

	for (i = 0; i < nr_keys; i++) {
		if (!strcmp(keys[i].name, key)) {
			keys[i].set(s, &keys[i], value, at);
			return;
		}
	}
	for (i = 0; i < nr_keys; i++)
		snprintf(expected + strlen(expected),
			 sizeof(expected) - strlen(expected), "%s %s",
			 i ? "," : "", keys[i].name);
	sim_config_fail(at, key, expected, NULL);
}

static void load_one(void *ctx, const char *key, const char *value,
		     const struct sim_origin *at)
{
	sim_scenario_set(ctx, key, value, at);
}

void sim_scenario_load(struct sim_scenario *s, const char *path)
{
	snprintf(s->file, sizeof(s->file), "%s", path);
	sim_config_each(path, load_one, s);
}

/* Was @a given after @b?  The command line comes after every file line;
 * two command-line keys count as @a later. */
static int later(const struct sim_origin *a, const struct sim_origin *b)
{
	if (!a->line || !b->line)
		return !a->line;
	return a->line > b->line;
}

void sim_scenario_resolve(struct sim_scenario *s, int machine_cpus)
{
	char expected[320], got[48];
	const struct sim_origin *at;

	if (s->cpus > machine_cpus) {
		snprintf(expected, sizeof(expected),
			 "at most %d (the CPUs of machine %s)", machine_cpus,
			 s->machine);
		snprintf(got, sizeof(got), "%d", s->cpus);
		sim_config_fail(&s->cpus_at, "cpus", expected, got);
	}
	if (!s->cpus)
		s->cpus = machine_cpus;
	if (!s->threads)
		s->threads = s->cpus;
	if (s->ops_at.file && s->duration_at.file) {
		int dur_later = later(&s->duration_at, &s->ops_at);
		const struct sim_origin *other;

		at = dur_later ? &s->duration_at : &s->ops_at;
		other = dur_later ? &s->ops_at : &s->duration_at;
		/* @other is in the one scenario file, or on the command
		 * line (then @at is too: the command line comes later). */
		if (other->line)
			snprintf(got, sizeof(got), "at line %d%s", other->line,
				 at->line ? "" : " of the scenario file");
		else
			snprintf(got, sizeof(got), "on the command line");
		snprintf(expected, sizeof(expected),
			 "either ops or duration, not both (%s is given %s)",
			 dur_later ? "ops" : "duration", got);
		sim_config_fail(at, dur_later ? "duration" : "ops", expected,
				NULL);
	}
	if (s->duration_ps)
		s->ops = 0;
}

const char *sim_work_format(const struct sim_work *w, char *buf, int len)
{
	char d[40];

	switch (w->kind) {
	case SIM_WORK_PAUSE:
		snprintf(buf, len, "pause:%" PRIu64, w->n);
		break;
	case SIM_WORK_SLEEP:
		snprintf(buf, len, "sleep:%s",
			 sim_format_duration_ps(w->sleep_ps, d, sizeof(d)));
		break;
	default:
		snprintf(buf, len, "none");
	}
	return buf;
}

void sim_scenario_each(const struct sim_scenario *s,
		       void (*fn)(void *ctx, const char *key, const char *value),
		       void *ctx)
{
	char v[SIM_MAX_LOCKS * 33 + 1];
	int i;

	fn(ctx, "machine", s->machine);
	snprintf(v, sizeof(v), "%d", s->cpus);
	fn(ctx, "cpus", s->cpus ? v : "all");
	snprintf(v, sizeof(v), "%d", s->threads);
	if (s->threads)
		fn(ctx, "threads", v);
	fn(ctx, "workload", s->workload);
	for (v[0] = '\0', i = 0; i < s->nr_locks; i++)
		snprintf(v + strlen(v), sizeof(v) - strlen(v), "%s%s",
			 i ? "," : "", s->locks[i]);
	fn(ctx, "lock", v);
	if (s->duration_ps) {
		fn(ctx, "duration",
		   sim_format_duration_ps(s->duration_ps, v, sizeof(v)));
	} else {
		snprintf(v, sizeof(v), "%" PRIu64, s->ops);
		fn(ctx, "ops", v);
	}
	fn(ctx, "cs", sim_work_format(&s->cs, v, sizeof(v)));
	fn(ctx, "between", sim_work_format(&s->between, v, sizeof(v)));
	snprintf(v, sizeof(v), "%" PRIu64, s->seed);
	fn(ctx, "seed", v);
	fn(ctx, "livelock", sim_format_duration_ps(s->livelock_ps, v, sizeof(v)));
	if (s->json[0])
		fn(ctx, "json", s->json);
}

static void print_one(void *ctx, const char *key, const char *value)
{
	fprintf(ctx, "%s = %s\n", key, value);
}

void sim_scenario_print(const struct sim_scenario *s, FILE *out)
{
	sim_scenario_each(s, print_one, out);
}

void sim_scenario_usage(FILE *out)
{
	for (int i = 0; i < nr_keys; i++)
		fprintf(out, "  --%s=%s\n      %s\n", keys[i].name, keys[i].form,
			keys[i].doc);
}

/* A JSON string: quote, backslash and control characters escaped. */
static void json_str(FILE *out, const char *v)
{
	fputc('"', out);
	for (; *v; v++) {
		unsigned char c = (unsigned char)*v;

		if (c == '"' || c == '\\')
			fprintf(out, "\\%c", c);
		else if (c < 0x20)
			fprintf(out, "\\u%04x", c);
		else
			fputc(c, out);
	}
	fputc('"', out);
}

/*
 * The same keys and values as the scenario file: numbers for counts, a
 * list for lock, strings in file syntax for durations and work, null for
 * what is unset (threads before resolve, ops in fixed-time mode, json).
 */
void sim_scenario_json(const struct sim_scenario *s, FILE *out)
{
	char v[64];
	int i;

	fputs("{\"machine\":", out);
	json_str(out, s->machine);
	if (s->cpus)
		fprintf(out, ",\"cpus\":%d", s->cpus);
	else
		fputs(",\"cpus\":\"all\"", out);
	if (s->threads)
		fprintf(out, ",\"threads\":%d", s->threads);
	else
		fputs(",\"threads\":null", out);
	fputs(",\"workload\":", out);
	json_str(out, s->workload);
	fputs(",\"lock\":[", out);
	for (i = 0; i < s->nr_locks; i++) {
		if (i)
			fputc(',', out);
		json_str(out, s->locks[i]);
	}
	fputc(']', out);
	if (s->duration_ps)
		fprintf(out, ",\"ops\":null,\"duration\":\"%s\"",
			sim_format_duration_ps(s->duration_ps, v, sizeof(v)));
	else
		fprintf(out, ",\"ops\":%" PRIu64 ",\"duration\":null", s->ops);
	fprintf(out, ",\"cs\":\"%s\"", sim_work_format(&s->cs, v, sizeof(v)));
	fprintf(out, ",\"between\":\"%s\"",
		sim_work_format(&s->between, v, sizeof(v)));
	fprintf(out, ",\"seed\":%" PRIu64, s->seed);
	fprintf(out, ",\"livelock\":\"%s\"",
		sim_format_duration_ps(s->livelock_ps, v, sizeof(v)));
	fputs(",\"json\":", out);
	if (s->json[0])
		json_str(out, s->json);
	else
		fputs("null", out);
	fputc('}', out);
}

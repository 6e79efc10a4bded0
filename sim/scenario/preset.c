/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sim/scenario/preset.c - machine presets: find a machines/NAME.machine file, read
 * its topology and costs, list the known machines.
 *
 * Stage: CLI input -> machine.  Called by the CLI (sim/cli/cli.c: the machine
 * key, `futexsim list machines`) and by tests; the machine
 * (sim_machine_init()) then reads the struct sim_preset.  Calls
 * sim/scenario/config.c for the file syntax, the duration parser and errors.
 *
 * The keys and their defaults are documented in machines/README.md; the
 * defaults below are those of machines/tiny4.machine, where each figure's
 * source is given.
 */
#include <dirent.h>
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sim/cache/cache.h"
#include "sim/machine/machine.h"
#include "sim/scenario/preset.h"
#include "version.h"

#define NS	1000ULL			/* picoseconds per unit */
#define US	(1000 * NS)
#define MS	(1000 * US)

#define MAX_PRESETS	64

enum pkind { P_TEXT, P_COUNT, P_DURATION, P_PERIOD, P_BOOL, P_HANDOVER };

struct pkey {
	const char *name;
	enum pkind kind;
	size_t off;
};

#define F(field)	offsetof(struct sim_preset, field)

static const struct pkey pkeys[] = {
	{ "description",	P_TEXT,		F(description) },
	{ "sockets",		P_COUNT,	F(sockets) },
	{ "cores-per-socket",	P_COUNT,	F(cores_per_socket) },
	{ "threads-per-core",	P_COUNT,	F(threads_per_core) },
	{ "load",		P_DURATION,	F(access_ps[SIM_LOAD]) },
	{ "store",		P_DURATION,	F(access_ps[SIM_STORE]) },
	{ "rmw",		P_DURATION,	F(access_ps[SIM_RMW]) },
	{ "relax",		P_DURATION,	F(access_ps[SIM_RELAX]) },
	{ "fence",		P_DURATION,	F(access_ps[SIM_FENCE]) },
	{ "xfer-smt",		P_DURATION,	F(xfer_smt_ps) },
	{ "xfer-socket",	P_DURATION,	F(xfer_socket_ps) },
	{ "xfer-remote",	P_DURATION,	F(xfer_remote_ps) },
	{ "xfer-2hop",		P_DURATION,	F(xfer_2hop_ps) },
	{ "shared-read",	P_DURATION,	F(shared_read_ps) },
	{ "sharer-penalty",	P_DURATION,	F(sharer_penalty_ps) },
	{ "cache-model",	P_BOOL,		F(cache_model) },
	{ "store-buffer",	P_BOOL,		F(store_buffer) },
	{ "spin-exit-overlap",	P_BOOL,		F(spin_exit_overlap) },
	{ "line-handover",	P_HANDOVER,	F(line_handover) },
	{ "lock-call",		P_DURATION,	F(lock_call_ps) },
	{ "syscall",		P_DURATION,	F(syscall_ps) },
	{ "ctxsw",		P_DURATION,	F(ctxsw_ps) },
	{ "wake",		P_DURATION,	F(wake_ps) },
	{ "wakeup-to-run",	P_DURATION,	F(wakeup_to_run_ps) },
	{ "idle-exit",		P_DURATION,	F(idle_exit_ps) },
	{ "idle-enter",		P_DURATION,	F(idle_enter_ps) },
	{ "timer-slack",	P_DURATION,	F(timer_slack_ps) },
	{ "tick",		P_PERIOD,	F(tick_ps) },
	{ "tick-cost",		P_DURATION,	F(tick_cost_ps) },
	{ "timeslice",		P_PERIOD,	F(timeslice_ps) },
};
#define NR_PKEYS	(int)(sizeof(pkeys) / sizeof(pkeys[0]))

/* Keep in step with machines/tiny4.machine and machines/README.md. */
void sim_preset_defaults(struct sim_preset *p)
{
	memset(p, 0, sizeof(*p));
	strcpy(p->name, "tiny4");
	strcpy(p->description, "4-CPU teaching machine, Haswell-EX costs");
	p->sockets = 1;
	p->cores_per_socket = 4;
	p->threads_per_core = 1;
	p->access_ps[SIM_LOAD] = 1600;
	p->access_ps[SIM_STORE] = 1600;
	p->access_ps[SIM_RMW] = 8 * NS;
	p->access_ps[SIM_RELAX] = 4 * NS;
	p->access_ps[SIM_FENCE] = 8 * NS;
	p->xfer_smt_ps = 7500;
	p->xfer_socket_ps = 50 * NS;
	p->xfer_remote_ps = 125 * NS;
	p->cache_model = true;
	p->xfer_2hop_ps = 0;
	p->shared_read_ps = 20 * NS;
	p->sharer_penalty_ps = 12 * NS;
	p->store_buffer = true;
	p->spin_exit_overlap = false;
	p->line_handover = SIM_HANDOVER_ARRIVAL;
	p->lock_call_ps = 3 * NS;
	p->syscall_ps = 90 * NS;
	p->ctxsw_ps = 1200 * NS;
	p->wake_ps = 800 * NS;
	p->wakeup_to_run_ps = 2 * US;
	p->idle_exit_ps = 5 * US;
	p->idle_enter_ps = 500 * NS;
	p->timer_slack_ps = 50 * US;
	p->tick_ps = 1 * MS;
	p->tick_cost_ps = 2 * US;
	p->timeslice_ps = 2250 * US;
}

/* line-handover's values: enum sim_handover, in its order. */
static const char *const handover_names[3] = {
	"issue", "arrival", "arrival-overlap"
};

/* The unknown-key error, with every key; @label names the key given. */
static void fail_key(const struct sim_origin *at, const char *label)
{
	char expected[512] = "a machine key:";

	for (int i = 0; i < NR_PKEYS; i++)
		snprintf(expected + strlen(expected),
			 sizeof(expected) - strlen(expected), "%s %s",
			 i ? "," : "", pkeys[i].name);
	sim_config_fail(at, label, expected, NULL);
}

/* Set machine key @key of @p to @value; a bad one fails naming @label. */
static void preset_set_as(struct sim_preset *p, const char *key,
			  const char *label, const char *value,
			  const struct sim_origin *at)
{
	const struct pkey *k = NULL;
	char expected[96];
	uint64_t v;

	for (int i = 0; i < NR_PKEYS && !k; i++)
		if (!strcmp(pkeys[i].name, key))
			k = &pkeys[i];
	if (!k)
		fail_key(at, label);
	if (!sim_config_clean(value))
		sim_config_fail(at, label,
				"a value without control characters", value);

	switch (k->kind) {
	case P_TEXT:
		if (strlen(value) >= sizeof(p->description)) {
			snprintf(expected, sizeof(expected),
				 "at most %zu characters",
				 sizeof(p->description) - 1);
			sim_config_fail(at, label, expected, value);
		}
		memcpy((char *)p + k->off, value, strlen(value) + 1);
		break;
	case P_COUNT:
		if (sim_parse_u64(value, &v) || v < 1 || v > SIM_MAX_CPUS) {
			snprintf(expected, sizeof(expected),
				 "an integer from 1 to %d", SIM_MAX_CPUS);
			sim_config_fail(at, label, expected, value);
		}
		*(int *)((char *)p + k->off) = (int)v;
		break;
	case P_BOOL: {
		int b;

		if (sim_parse_bool(value, &b))
			sim_config_fail(at, label, "on or off", value);
		*(bool *)((char *)p + k->off) = b;
		break;
	}
	case P_HANDOVER: {
		int i = 0;

		while (i < 3 && strcmp(value, handover_names[i]) != 0)
			i++;
		if (i == 3)
			sim_config_fail(at, label,
					"issue, arrival or arrival-overlap", value);
		*(int *)((char *)p + k->off) = i;
		break;
	}
	case P_DURATION:
	case P_PERIOD:
		if (sim_parse_duration_ps(value, &v) ||
		    (k->kind == P_PERIOD && !v) || v > SIM_PRESET_DURATION_MAX)
			sim_config_fail(at, label, k->kind == P_PERIOD ?
					"a positive duration with a unit (ns, us, ms or s), at most 1s" :
					"a duration with a unit (ns, us, ms or s), like 45ns or 1.7ns, at most 1s",
					value);
		*(uint64_t *)((char *)p + k->off) = v;
		break;
	}
}

static void preset_set(void *ctx, const char *key, const char *value,
		       const struct sim_origin *at)
{
	preset_set_as(ctx, key, key, value, at);
}

const char *sim_preset_dir(void)
{
	const char *d = getenv("FUTEXSIM_MACHINES");

	return d && *d ? d : FUTEXSIM_MACHINES_DIR;
}

static int is_path(const char *s)
{
	size_t n = strlen(s);

	return strchr(s, '/') || (n >= 8 && !strcmp(s + n - 8, ".machine"));
}

static int cmp_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The names of the presets in sim_preset_dir(), sorted; Return: count. */
static int preset_names(char *names[MAX_PRESETS])
{
	DIR *d = opendir(sim_preset_dir());
	struct dirent *e;
	int n = 0;

	if (!d)
		return 0;
	while ((e = readdir(d)) != NULL && n < MAX_PRESETS) {
		size_t len = strlen(e->d_name);

		if (len <= 8 || strcmp(e->d_name + len - 8, ".machine") != 0 ||
		    e->d_name[0] == '.')
			continue;
		names[n] = strndup(e->d_name, len - 8);
		if (names[n])
			n++;
	}
	closedir(d);
	qsort(names, n, sizeof(names[0]), cmp_name);
	return n;
}

static void fail_unknown(const struct sim_origin *at, const char *name)
{
	char expected[1024], *names[MAX_PRESETS];
	int i, n = preset_names(names);

	snprintf(expected, sizeof(expected), "a machine among");
	for (i = 0; i < n; i++)
		snprintf(expected + strlen(expected),
			 sizeof(expected) - strlen(expected), "%s %s",
			 i ? "," : "", names[i]);
	if (!n)
		snprintf(expected, sizeof(expected), "a machine name (none found");
	snprintf(expected + strlen(expected), sizeof(expected) - strlen(expected),
		 "%s%s) or a path to a .machine file", n ? " (in " : " in ",
		 sim_preset_dir());
	for (i = 0; i < n; i++)
		free(names[i]);
	sim_config_fail(at, "machine", expected, name);
}

/* Check what no single key can: the CPU count fits the machine, and a
 * busy CPU's tick handler leaves it time to run (with tick-cost >= tick,
 * the clock would only ever advance in the handler).  A failure names
 * @key (the CPU count) or tick-cost at @at. */
static void preset_check(const struct sim_preset *p,
			 const struct sim_origin *at, const char *key)
{
	char expected[96], got[64], a[32], b[32];
	long n = (long)p->sockets * p->cores_per_socket * p->threads_per_core;

	if (p->tick_cost_ps >= p->tick_ps) {
		snprintf(expected, sizeof(expected),
			 "a tick-cost below the tick (%s)",
			 sim_format_duration_ps(p->tick_ps, a, sizeof(a)));
		sim_config_fail(at, strcmp(key, "sockets") ? key : "tick-cost",
				expected,
				sim_format_duration_ps(p->tick_cost_ps, b,
						       sizeof(b)));
	}
	if (n <= SIM_MAX_CPUS)
		return;
	snprintf(expected, sizeof(expected),
		 "sockets x cores-per-socket x threads-per-core <= %d CPUs",
		 SIM_MAX_CPUS);
	snprintf(got, sizeof(got), "%d x %d x %d", p->sockets,
		 p->cores_per_socket, p->threads_per_core);
	sim_config_fail(at, key, expected, got);
}

void sim_preset_load_at(struct sim_preset *p, const char *name_or_path,
			const struct sim_origin *at)
{
	static const struct sim_origin cmdline = { .file = "command line" };
	const char *base, *path = name_or_path;
	char buf[4096];
	size_t len;

	if (!at || !at->file)
		at = &cmdline;
	if (!*name_or_path)
		fail_unknown(at, name_or_path);
	if (!is_path(name_or_path)) {
		snprintf(buf, sizeof(buf), "%s/%s.machine", sim_preset_dir(),
			 name_or_path);
		if (access(buf, F_OK))
			fail_unknown(at, name_or_path);
		path = buf;
	}
	sim_preset_defaults(p);
	base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
	len = strlen(base);
	if (len > 8 && !strcmp(base + len - 8, ".machine"))
		len -= 8;
	snprintf(p->name, sizeof(p->name), "%.*s", (int)len, base);
	p->description[0] = '\0';
	sim_config_read(path, at, "machine", preset_set, p);
	preset_check(p, &(struct sim_origin){ .file = path }, "sockets");
}

/*
 * Each KEY=VALUE of @list, in order: a bad pair fails as the scenario's
 * machine-set at @at, naming "machine-set: KEY".
 */
static void set_list(struct sim_preset *p, const char *list,
		     const struct sim_origin *at)
{
	char buf[SIM_MACHINE_SET_MAX], label[64], *save = NULL, *pair;

	if (strlen(list) >= sizeof(buf)) {
		snprintf(label, sizeof(label), "at most %zu characters",
			 sizeof(buf) - 1);
		sim_config_fail(at, "machine-set", label, list);
	}
	if (!sim_config_clean(list))
		sim_config_fail(at, "machine-set",
				"KEY=VALUE pairs without control characters",
				list);
	memcpy(buf, list, strlen(list) + 1);
	for (pair = strtok_r(buf, ",", &save); pair;
	     pair = strtok_r(NULL, ",", &save)) {
		char *eq = strchr(pair, '='), *key, *value;

		if (eq)
			*eq = '\0';
		key = sim_config_trim(pair);
		value = eq ? sim_config_trim(eq + 1) : NULL;
		if (!value || !*key || !*value)
			sim_config_fail(at, "machine-set",
					"KEY=VALUE pairs of machine keys, comma-separated, like tick-cost=0ns",
					list);
		snprintf(label, sizeof(label), "machine-set: %s", key);
		preset_set_as(p, key, label, value, at);
	}
}

void sim_preset_print(const struct sim_preset *p, FILE *out)
{
	char buf[64];

	for (int i = 0; i < NR_PKEYS; i++) {
		const struct pkey *k = &pkeys[i];
		const char *v = (const char *)p + k->off;

		switch (k->kind) {
		case P_TEXT:
			if (!*v)
				continue;
			fprintf(out, "%s = ", k->name);
			sim_config_put_value(out, v);
			fputc('\n', out);
			continue;
		case P_COUNT:
			snprintf(buf, sizeof(buf), "%d", *(const int *)v);
			v = buf;
			break;
		case P_BOOL:
			v = *(const bool *)v ? "on" : "off";
			break;
		case P_HANDOVER:
			v = handover_names[*(const int *)v];
			break;
		case P_DURATION:
		case P_PERIOD:
			v = sim_format_duration_ps(*(const uint64_t *)v, buf,
						   sizeof(buf));
			break;
		}
		fprintf(out, "%s = %s\n", k->name, v);
	}
}

void sim_preset_check_set(const char *list, const struct sim_origin *at)
{
	struct sim_preset scratch;

	sim_preset_defaults(&scratch);
	set_list(&scratch, list, at);
}

void sim_preset_apply_set(struct sim_preset *p, const char *list,
			  const struct sim_origin *at)
{
	if (!*list)
		return;
	set_list(p, list, at);
	preset_check(p, at, "machine-set");
}

void sim_preset_load(struct sim_preset *p, const char *name_or_path)
{
	sim_preset_load_at(p, name_or_path, NULL);
}

int sim_preset_nr_cpus(const struct sim_preset *p)
{
	return p->sockets * p->cores_per_socket * p->threads_per_core;
}

void sim_preset_topology(const struct sim_preset *p, int cpu,
			 int *socket, int *core, int *thread)
{
	int cores = p->sockets * p->cores_per_socket;	/* all first threads */

	*thread = cpu / cores;
	*socket = cpu % cores / p->cores_per_socket;
	*core = cpu % p->cores_per_socket;
}

void sim_preset_list(void)
{
	char *names[MAX_PRESETS];
	struct sim_preset p;
	int i, n = preset_names(names);

	for (i = 0; i < n; i++) {
		sim_preset_load(&p, names[i]);
		printf("  %-16s %d x %d x %d = %3d CPUs  %s\n", p.name,
		       p.sockets, p.cores_per_socket, p.threads_per_core,
		       sim_preset_nr_cpus(&p), p.description);
		free(names[i]);
	}
	if (!n)
		printf("  (no machines in %s)\n", sim_preset_dir());
}

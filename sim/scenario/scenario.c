/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sim/scenario/scenario.c - the scenario keys: defaults, parsing and checking of
 * each value, the key table and the value helpers (the setters of the
 * keys of one workload or one lock are sim/scenario/scenario_keys.c, cross-key
 * resolution is sim/scenario/scenario_resolve.c, the echo as a scenario file and
 * as JSON sim/scenario/scenario_echo.c).
 *
 * Stage: CLI input.  Called by the CLI (sim/cli/cli.c) for the scenario file
 * and every --key=value; calls the setters of sim/scenario/scenario_keys.c through
 * keys[], sim/scenario/config.c for parsing and errors, ulock_find(), wl_find() and
 * wl_klock_find() to check the names of locks and workloads: user locks
 * (workloads/ulock) and kernel locks (a workload's ->klocks) are separate
 * namespaces, and sim_scenario_resolve() holds the lock list to the
 * chosen workload's.  The machine key is checked later, by
 * loading the preset (sim_preset_load_at(), in the CLI); machine-set's
 * keys and values here (sim_preset_check_set()), the CPU count it may
 * change when the CLI applies it to the loaded preset.  The trace keys'
 * values (file extension, event names) are checked with sim/trace/trace.c.
 *
 * One table below holds every key with its setter and its help text, so
 * the parser and `futexsim --help` cannot disagree; the echo follows the
 * same key names.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "futex/tp_abi.h"
#include "sim/cache/cache.h"
#include "sim/explore/explore.h"
#include "sim/machine/machine.h"
#include "sim/explore/oracle.h"
#include "sim/scenario/preset.h"
#include "sim/scenario/scenario.h"
#include "sim/scenario/scenario_keys.h"
#include "sim/trace/trace.h"
#include "workloads/workload.h"

/* Copy @v into @dst of @size bytes, or fail: an empty or too long value. */
void sim__scenario_set_str(char *dst, size_t size, const struct key *k,
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
uint64_t sim__scenario_get_count(const struct key *k, const char *v,
				 uint64_t lo, uint64_t hi,
				 const struct sim_origin *at)
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

int sim__scenario_get_choice(const struct key *k, const char *v,
			     const char *no, const char *yes,
			     const struct sim_origin *at)
{
	char expected[64];

	if (!strcmp(v, no))
		return 0;
	if (!strcmp(v, yes))
		return 1;
	snprintf(expected, sizeof(expected), "%s or %s", no, yes);
	sim_config_fail(at, k->name, expected, v);
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
	sim__scenario_set_str(s->machine, sizeof(s->machine), k, v, at);
	s->machine_at = *at;
}

static void set_machine_set(struct sim_scenario *s, const struct key *k,
			    const char *v, const struct sim_origin *at)
{
	_Static_assert(sizeof(s->machine_set) == SIM_MACHINE_SET_MAX,
		       "machine-set is sim_preset_apply_set()'s list");
	if (!strcmp(v, "none")) {
		s->machine_set[0] = '\0';
		return;
	}
	sim__scenario_set_str(s->machine_set, sizeof(s->machine_set), k, v, at);
	sim_preset_check_set(v, at);
	s->machine_set_at = *at;
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
	s->threads = (int)sim__scenario_get_count(k, v, 1, SIM_MAX_TASKS - 1, at);
	s->threads_at = *at;
}

static void set_workload(struct sim_scenario *s, const struct key *k,
			 const char *v, const struct sim_origin *at)
{
	char expected[512] = "a workload among";
	int i;

	const struct wl_workload *w = wl_find(v);

	if (!w) {
		for (i = 0; wl_registry[i]; i++)
			snprintf(expected + strlen(expected),
				 sizeof(expected) - strlen(expected), "%s %s",
				 i ? "," : "", wl_registry[i]->name);
		sim_config_fail(at, k->name, expected, v);
	}
	sim__scenario_set_str(s->workload, sizeof(s->workload), k, v, at);
	s->wl = w;
	s->workload_at = *at;
}

/* Append to @buf the lock names of @w's namespace (its kernel locks, or
 * the user locks), ", "-separated after a blank; the broken ones
 * (negative controls) work but are not advertised. */
void sim__scenario_lock_names(const struct wl_workload *w, char *buf,
			       size_t size)
{
	int i, n = 0;

	for (i = 0; w && w->klocks && w->klocks[i]; i++)
		if (!w->klocks[i]->broken)
			snprintf(buf + strlen(buf), size - strlen(buf), "%s %s",
				 n++ ? "," : "", w->klocks[i]->name);
	for (i = 0; !(w && w->klocks) && ulock_registry[i]; i++)
		if (!ulock_registry[i]->broken &&
		    (!(w && w->rwlocks) || ulock_registry[i]->rw))
			snprintf(buf + strlen(buf), size - strlen(buf), "%s %s",
				 n++ ? "," : "", ulock_registry[i]->name);
}

/* The locks one may name: those of the workload chosen so far. */
static void fail_lock(const struct sim_scenario *s, const struct key *k,
		      const char *v, const struct sim_origin *at)
{
	char expected[512];

	snprintf(expected, sizeof(expected),
		 "a comma-separated list of up to %d locks among", SIM_MAX_LOCKS);
	sim__scenario_lock_names(s->wl, expected,
				 sizeof(expected));
	sim_config_fail(at, k->name, expected, v);
}

/* A lock of any namespace: the workload may be given after the lock. */
static int known_lock(const char *name)
{
	if (ulock_find(name))
		return 1;
	for (int i = 0; wl_registry[i]; i++)
		if (wl_klock_find(wl_registry[i], name))
			return 1;
	return 0;
}

static void set_lock(struct sim_scenario *s, const struct key *k,
		     const char *v, const struct sim_origin *at)
{
	const char *p = v, *comma;
	char name[sizeof(s->locks[0])];
	int n = 0;
	size_t len;

	for (;;) {
		comma = strchr(p, ',');
		len = comma ? (size_t)(comma - p) : strlen(p);
		if (n == SIM_MAX_LOCKS || !len || len >= sizeof(name))
			fail_lock(s, k, v, at);
		memcpy(name, p, len);
		name[len] = '\0';
		if (!known_lock(name))
			fail_lock(s, k, v, at);
		/* each lock once: its trace, record and column are named by it */
		for (int i = 0; i < n; i++)
			if (!strcmp(s->locks[i], name))
				sim_config_fail(at, k->name,
						"each lock once (a lock's trace and replay files are named by it)",
						v);
		memcpy(s->locks[n++], name, len + 1);
		if (!comma)
			break;
		p = comma + 1;		/* never NULL + 1: undefined */
	}
	s->nr_locks = n;
	s->lock_at = *at;
}

static void set_ops(struct sim_scenario *s, const struct key *k,
		    const char *v, const struct sim_origin *at)
{
	s->ops = sim__scenario_get_count(k, v, 1, UINT64_MAX, at);
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

/* pause:N | loop:N | sleep:DURATION | none */
static void set_work(struct sim_work *w, const struct key *k, const char *v,
		     const struct sim_origin *at)
{
	static const char expected[] =
		"pause:N, sleep:DURATION (like sleep:1us), loop:N or none";

	*w = (struct sim_work){ .kind = SIM_WORK_NONE };
	if (!strcmp(v, "none"))
		return;
	if (!strncmp(v, "pause:", 6)) {
		w->kind = SIM_WORK_PAUSE;
		if (sim_parse_u64(v + 6, &w->n))
			sim_config_fail(at, k->name, expected, v);
		return;
	}
	if (!strncmp(v, "loop:", 5)) {
		w->kind = SIM_WORK_LOOP;
		if (sim_parse_u64(v + 5, &w->n))
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
	s->cs_at = *at;
}

static void set_between(struct sim_scenario *s, const struct key *k,
			const char *v, const struct sim_origin *at)
{
	set_work(&s->between, k, v, at);
	s->between_at = *at;
}

static void set_seed(struct sim_scenario *s, const struct key *k,
		     const char *v, const struct sim_origin *at)
{
	s->seed = sim__scenario_get_count(k, v, 0, UINT64_MAX, at);
}

static void set_json(struct sim_scenario *s, const struct key *k,
		     const char *v, const struct sim_origin *at)
{
	if (!strcmp(v, "none")) {
		s->json[0] = '\0';
		s->json_at = (struct sim_origin){ 0 };
		return;
	}
	sim__scenario_set_str(s->json, sizeof(s->json), k, v, at);
	s->json_at = *at;
}

/* plot=FILE.svg: the run's charts (sim/report/plot_run.h) */
static void set_plot(struct sim_scenario *s, const struct key *k,
		     const char *v, const struct sim_origin *at)
{
	size_t n = strlen(v);

	if (!strcmp(v, "none")) {
		s->plot[0] = '\0';
		s->plot_at = (struct sim_origin){ 0 };
		return;
	}
	if (n <= 4 || strcmp(v + n - 4, ".svg") || v[n - 5] == '/')
		sim_config_fail(at, k->name, "a file name ending in .svg, or none",
				v);
	sim__scenario_set_str(s->plot, sizeof(s->plot), k, v, at);
	s->plot_at = *at;
}

static void set_livelock(struct sim_scenario *s, const struct key *k,
			 const char *v, const struct sim_origin *at)
{
	s->livelock_ps = get_duration(k, v, at);
}

static void set_cost_jitter(struct sim_scenario *s, const struct key *k,
			    const char *v, const struct sim_origin *at)
{
	s->cost_jitter_pct = (unsigned int)sim__scenario_get_count(k, v, 0,
						SIM_CACHE_JITTER_MAX, at);
}

/* strategy=, oracle=: explore mode (sim/explore/explore.h, sim/explore/oracle.h) */
static void set_strategy(struct sim_scenario *s, const struct key *k,
			 const char *v, const struct sim_origin *at)
{
	struct sim_strategy st;

	if (sim_strategy_parse(v, &st))
		sim_config_fail(at, k->name, "timed, random, pct:D (1-64) or dfs:P (0-64)", v);
	sim__scenario_set_str(s->strategy, sizeof(s->strategy), k, v, at);
	s->strategy_st = st;
	if (st.kind == SIM_STRAT_TIMED)
		s->strategy[0] = '\0';
}

static void set_oracle(struct sim_scenario *s, const struct key *k,
		       const char *v, const struct sim_origin *at)
{
	struct sim_oracles o;
	char expected[200];

	if (sim_oracle_parse(v, &o, expected, sizeof(expected)))
		sim_config_fail(at, k->name, expected, v);
	sim__scenario_set_str(s->oracle, sizeof(s->oracle), k, v, at);
	s->oracles = o;
	s->oracle_at = *at;
}

static void set_ops_per_thread(struct sim_scenario *s, const struct key *k,
			       const char *v, const struct sim_origin *at)
{
	/* "none" takes a file's ops-per-thread back, for ops= or duration= */
	if (!strcmp(v, "none")) {
		s->ops_per_thread = 0;
		s->ops_per_thread_at = (struct sim_origin){ 0 };
		return;
	}
	s->ops_per_thread = sim__scenario_get_count(k, v, 1,
				UINT64_MAX / SIM_MAX_TASKS, at);
	s->ops_per_thread_at = *at;
}

static void set_trace(struct sim_scenario *s, const struct key *k,
		      const char *v, const struct sim_origin *at)
{
	if (!strcmp(v, "none")) {
		s->trace[0] = '\0';
		s->trace_at = (struct sim_origin){ 0 };
		return;
	}
	if (sim_trace_format_of(v) == SIM_TRACE_NONE)
		sim_config_fail(at, k->name,
				"a file name ending in .txt (ftrace text), .json (Chrome trace events) or .html (a page to step through), or none",
				v);
	sim__scenario_set_str(s->trace, sizeof(s->trace), k, v, at);
	s->trace_at = *at;
}

/* A window bound: a duration (0 allowed for trace-from); "none" for
 * trace-to means the end of the run. */
static void set_trace_window(struct sim_scenario *s, const struct key *k,
			     const char *v, const struct sim_origin *at)
{
	int to = !strcmp(k->name, "trace-to");
	uint64_t ps = 0;

	if (!(to && !strcmp(v, "none")) &&
	    (sim_parse_duration_ps(v, &ps) || (to && !ps)))
		sim_config_fail(at, k->name, to ?
				"a positive duration with a unit (ns, us, ms or s), or none" :
				"a duration with a unit (ns, us, ms or s), like 0ns or 20us",
				v);
	*(to ? &s->trace_to_ps : &s->trace_from_ps) = ps;
	*(to ? &s->trace_to_at : &s->trace_from_at) = *at;
}

static void set_trace_events(struct sim_scenario *s, const struct key *k,
			     const char *v, const struct sim_origin *at)
{
	char expected[400];

	if (sim_trace_parse_events(v, &s->trace_events)) {
		snprintf(expected, sizeof(expected),
			 "a comma-separated list of trace events and groups among %s",
			 sim_trace_event_help());
		sim_config_fail(at, k->name, expected, v);
	}
}

static void set_narrate(struct sim_scenario *s, const struct key *k,
			const char *v, const struct sim_origin *at)
{
	s->narrate = !sim__scenario_get_choice(k, v, "yes", "no", at);
}

/* yes: stdout ("-"); no or none: off; anything else: a file. */
static void set_lock_stat(struct sim_scenario *s, const struct key *k,
			  const char *v, const struct sim_origin *at)
{
	if (!strcmp(v, "no") || !strcmp(v, "none")) {
		s->lock_stat[0] = '\0';
		s->lock_stat_at = (struct sim_origin){ 0 };
		return;
	}
	if (!*v || !strcmp(v, "-"))
		sim_config_fail(at, k->name, "yes, no or a file name", v);
	sim__scenario_set_str(s->lock_stat, sizeof(s->lock_stat), k,
			      strcmp(v, "yes") ? v : "-", at);
	s->lock_stat_at = *at;
}

static void set_record(struct sim_scenario *s, const struct key *k,
		       const char *v, const struct sim_origin *at)
{
	if (!strcmp(v, "none")) {
		s->record[0] = '\0';
		s->record_at = (struct sim_origin){ 0 };
		return;
	}
	sim__scenario_set_str(s->record, sizeof(s->record), k, v, at);
	s->record_at = *at;
}

static const struct key keys[] = {
	{ "machine", "NAME|PATH", "machine preset ('futexsim list machines'); default tiny4", set_machine },
	{ "machine-set", "KEY=VALUE[,KEY=VALUE...]|none", "change machine keys of the preset for this run (machines/README.md), e.g. tick-cost=0ns,xfer-remote=200ns; default none", set_machine_set },
	{ "cpus", "N|all", "CPUs used, at most the machine's; default all", set_cpus },
	{ "threads", "N", "worker tasks; default = cpus", set_threads },
	{ "workload", "NAME", "benchmark driver ('futexsim list workloads'); default mutex", set_workload },
	{ "lock", "LOCK[,LOCK...]", "locks of the workload, each run alike ('futexsim list locks'); default ww (mutex), every kernel lock but the 2014 variants (spin)", set_lock },
	{ "ops", "N", "total operations (fixed-ops mode); default 100000", set_ops },
	{ "duration", "DURATION|none", "simulated run time (fixed-time mode); excludes ops", set_duration },
	{ "cs", "pause:N|loop:N|sleep:DURATION|none", "critical section (loop:N: N plain loop iterations of 1 ns); default pause:5", set_cs },
	{ "between", "pause:N|loop:N|sleep:DURATION|none", "work between operations; default pause:1", set_between },
	{ "seed", "N", "PRNG seed; default 1", set_seed },
	{ "json", "PATH|none", "also write the results as JSON to PATH; default none", set_json },
	{ "livelock", "DURATION", "virtual time without progress that is a livelock; default 10s", set_livelock },
	{ "stuck", "DURATION|none", "host CPU time a task may run without a scheduling point before it is reported stuck (exit 3); default 5s", sim__scenario_set_stuck },
	{ "progress", "auto|yes|no", "a progress line with an ETA on stderr for a run longer than a few seconds: on a terminal (auto), always, or never; default auto", sim__scenario_set_stuck },
	{ "cost-jitter", "PCT", "every cache-miss cost varies over PCT% of itself (0-50), centred, from the seeded PRNG: breaks lockstep, lets seeds explore timings; default 0", set_cost_jitter },
	{ "memory", "sc|tso|arm64", "the memory model of an instrumented program's stores (futexsim build --instrument): sequentially consistent, x86-TSO's FIFO store buffers, or ARMv8's store reorderings; default sc", sim__scenario_set_memory },
	{ "strategy", "timed|random|pct:D|dfs:P", "who runs next at each scheduling point: timed mode, or an explore strategy (docs/explore.md); default timed", set_strategy },
	{ "oracle", "LIST", "what fails a run: mutex, deadlock, state, bug, crash, race, starve=DURATION, overtake=N, share=F; default " SIM_ORACLE_DEFAULT, set_oracle },
	{ "ops-per-thread", "N|none", "operations of each thread (ops = N x threads); excludes ops and duration", set_ops_per_thread },
	{ "data", "standalone|embedded", "spin: the data in its own cache line or in the lock's; default standalone", sim__scenario_set_data },
	{ "placement", "pack|nodes", "spin: fill one socket, or one task per socket in turn; default pack", sim__scenario_set_placement },
	{ "data-access", "read-write|write", "spin: the section loads the data and stores it + 1, or only stores; default read-write", sim__scenario_set_access },
	{ "readers", "N", "rwlock: N reader threads (threads = readers + writers); excludes read-ratio", sim__scenario_set_rwlock_key },
	{ "writers", "N", "rwlock: N writer threads (threads = readers + writers); excludes read-ratio", sim__scenario_set_rwlock_key },
	{ "read-ratio", "PCT", "rwlock without readers/writers: % of each thread's operations that read; default 50", sim__scenario_set_rwlock_key },
	{ "read-depth", "N", "rwlock: read locks each read nests (1-8; 2 deadlocks rw-prefer-writer-nr); default 1", sim__scenario_set_rwlock_key },
	{ "roles", "alternate|split", "rwlock with readers/writers: readers and writers alternate over the tasks (so over the CPUs), or the readers come first (perf bench futex rwlock -x); default alternate", sim__scenario_set_roles },
	{ "adaptive", "pre2018|seed2018|glibc235|glibc236", "lock=adaptive: the spin loop (docs/studies/adaptive-2018.md); default pre2018", sim__scenario_set_adaptive },
	{ "spin-count", "N", "lock=adaptive: glibc.pthread.mutex_spin_count, 0-32767; default 100", sim__scenario_set_adaptive },
	{ "plot", "PATH.svg|none", "also draw the run as an SVG: operations per thread (fairness) and the acquire-latency CDF of each lock; default none", set_plot },
	{ "trace", "PATH.txt|PATH.json|PATH.html|none", "write a trace of each lock's run: ftrace text (.txt), Chrome trace-event JSON (.json) or a page that steps through it (.html); PATH.LOCK.txt with several locks; default none", set_trace },
	{ "trace-from", "DURATION", "trace from this simulated time on; default 0ns", set_trace_window },
	{ "trace-to", "DURATION|none", "trace up to this simulated time; default the end", set_trace_window },
	{ "trace-events", "LIST", "comma-separated trace events or groups (sched, futex, nanosleep, lock, qspinlock, tp, all; cache, every cache-line miss, only when named); default all", set_trace_events },
	{ "narrate", "yes|no", "one plain-English line per interesting event of each lock's run, on stderr (within trace-from/trace-to); default no", set_narrate },
	{ "lock-stat", "yes|no|PATH", "a /proc/lock_stat table of each lock's run (futex hash-bucket spinlocks, the user lock word): on stdout after the report, or in PATH; default no", set_lock_stat },
	{ "tp-policy", "v2|v6", "lock=tp: when the top waiter asks for a handoff: v2 after 1<<13 spins (a sleep costs 1/32), v6 after 5 ms; default v2", sim__scenario_set_tp_policy },
	{ "tp-handoff", "on|off", "lock=tp: off never hands the lock off (stealing unbounded); default on", sim__scenario_set_tp_handoff },
	{ "tp-mutex", "6.1|4.8", "lock=tp and rw-tp: the serialization mutex, the real 6.1 one (handoff, spinning waiters) or futex/mutex48.c, the 4.8 era's (neither; the 2016 patches ran on it); default 6.1", sim__scenario_set_tp_mutex },
	{ "record", "PATH|none", "write each lock's run as a replay file ('futexsim replay PATH' re-runs it); PATH.LOCK.replay with several locks; default none", set_record },
	{ "program", "PATH|none", "run the C program PATH built by 'futexsim build' (workload program); its pthread mutexes are the lock; default none", sim__scenario_set_program },
	{ "args", "\"ARG ...\"", "the program's arguments; default none", sim__scenario_set_args },
};
static const int nr_keys = sizeof(keys) / sizeof(keys[0]);

void sim_scenario_defaults(struct sim_scenario *s)
{
	char err[200];

	memset(s, 0, sizeof(*s));
	strcpy(s->machine, "tiny4");
	strcpy(s->workload, "mutex");
	s->wl = &wl_mutex;
	strcpy(s->locks[0], "ww");
	s->nr_locks = 1;
	s->ops = 100000;
	s->cs = (struct sim_work){ .kind = SIM_WORK_PAUSE, .n = 5 };
	s->between = (struct sim_work){ .kind = SIM_WORK_PAUSE, .n = 1 };
	s->seed = 1;
	s->livelock_ps = 10 * 1000000000000ULL;
	s->stuck_ms = SIM_STUCK_MS_DEFAULT;
	s->trace_events = SIM_TRACE_ALL;
	s->read_ratio = 50;
	s->read_depth = 1;
	s->spin_count = 100;
	s->tp_policy = TP_POLICY_V2;
	s->tp_handoff = 1;
	s->strategy_st = (struct sim_strategy){ SIM_STRAT_TIMED, 0 };
	if (sim_oracle_parse(SIM_ORACLE_DEFAULT, &s->oracles, err, sizeof(err)))
		abort();	/* the default list is a valid one */
}

void sim_scenario_pick_lock(struct sim_scenario *one,
			    const struct sim_scenario *s, int idx)
{
	memcpy(one->locks[0], s->locks[idx], sizeof(one->locks[0]));
	one->ulock[0] = s->ulock[idx];
	one->klock[0] = s->klock[idx];
	one->nr_locks = 1;
}

void sim_scenario_set(struct sim_scenario *s, const char *key,
		      const char *value, const struct sim_origin *at)
{
	static char trimmed[SIM_CONFIG_LINE_MAX + 1];
	char expected[1024] = "a known key:", *v;
	int i;

	for (i = 0; i < nr_keys; i++) {
		if (strcmp(keys[i].name, key) != 0)
			continue;
		if (!sim_config_clean(value))
			sim_config_fail(at, key,
					"a value without control characters (a newline or an escape could not be written back to a scenario file)",
					value);
		/* A command-line value is trimmed like a file's (a copy:
		 * nothing to free when a setter fails), and no longer. */
		if (strlen(value) > SIM_CONFIG_LINE_MAX)
			sim_config_fail(at, key,
					"a value of at most 65536 bytes", value);
		strcpy(trimmed, value);
		v = sim_config_trim(trimmed);
		keys[i].set(s, &keys[i], v, at);
		return;
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

const char *sim_scenario_key_name(int i)
{
	return i >= 0 && i < nr_keys ? keys[i].name : NULL;
}

void sim_scenario_usage(FILE *out)
{
	for (int i = 0; i < nr_keys; i++)
		fprintf(out, "  --%s=%s\n      %s\n", keys[i].name, keys[i].form,
			keys[i].doc);
}

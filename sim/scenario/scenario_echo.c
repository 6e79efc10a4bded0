/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sim/scenario/scenario_echo.c - the resolved scenario written back: as "key =
 * value" lines (a valid scenario file, also the replay command line's
 * options) and as the JSON "scenario" object; and the key values' names.
 *
 * Stage: CLI input -> report.  Called by sim/report/report.c (the echo at the
 * top of the report and in the JSON file) and by the CLI (the replay
 * command of a failed run, through sim_scenario_each()); calls
 * sim/scenario/config.c for durations; the workload's own keys follow its
 * resolved entry, s->wl.
 * The parsing side is sim/scenario/scenario.c: the two must agree on every key's
 * spelling.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "futex/tp_abi.h"
#include "sim/report/report.h"
#include "sim/scenario/config.h"
#include "sim/machine/memmodel.h"
#include "sim/scenario/scenario.h"
#include "sim/trace/trace.h"
#include "workloads/ulock/adaptive.h"
#include "workloads/workload.h"

const char *sim_data_name(enum sim_spin_data d)
{
	return d == SIM_DATA_EMBEDDED ? "embedded" : "standalone";
}

const char *sim_placement_name(enum sim_placement p)
{
	return p == SIM_PLACE_NODES ? "nodes" : "pack";
}

const char *sim_roles_name(enum sim_rw_roles r)
{
	return r == SIM_ROLES_SPLIT ? "split" : "alternate";
}

const char *sim_access_name(enum sim_spin_access a)
{
	return a == SIM_ACCESS_WRITE ? "write" : "read-write";
}

const char *sim_work_format(const struct sim_work *w, char *buf, int len)
{
	char d[40];

	switch (w->kind) {
	case SIM_WORK_PAUSE:
		snprintf(buf, len, "pause:%" PRIu64, w->n);
		break;
	case SIM_WORK_LOOP:
		snprintf(buf, len, "loop:%" PRIu64, w->n);
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

/* lock=adaptive is among the locks: its tunables are part of the run. */
static int has_adaptive(const struct sim_scenario *s)
{
	for (int i = 0; i < s->nr_locks; i++)
		if (!strcmp(s->locks[i], "adaptive"))
			return 1;
	return 0;
}

/* The keys of workload=rwlock and of lock=adaptive, where they apply. */
static void each_glibc(const struct sim_scenario *s,
		       void (*fn)(void *ctx, const char *key, const char *value),
		       void *ctx)
{
	char v[24];

	if (s->wl->rwlocks) {
		if (s->readers_at.file || s->writers_at.file) {
			snprintf(v, sizeof(v), "%d", s->readers);
			fn(ctx, "readers", v);
			snprintf(v, sizeof(v), "%d", s->writers);
			fn(ctx, "writers", v);
			if (s->roles != SIM_ROLES_ALTERNATE)
				fn(ctx, "roles", sim_roles_name(s->roles));
		} else {
			snprintf(v, sizeof(v), "%u", s->read_ratio);
			fn(ctx, "read-ratio", v);
		}
		snprintf(v, sizeof(v), "%u", s->read_depth);
		if (s->read_depth != 1)
			fn(ctx, "read-depth", v);
	}
	if (has_adaptive(s)) {
		fn(ctx, "adaptive", ulock_adaptive_name(s->adaptive));
		snprintf(v, sizeof(v), "%u", s->spin_count);
		fn(ctx, "spin-count", v);
	}
}

/* JSON members of the same keys, only where they apply (as above). */
static void json_glibc(const struct sim_scenario *s, FILE *out)
{
	if (s->wl->rwlocks) {
		if (s->readers_at.file || s->writers_at.file)
			fprintf(out, ",\"readers\":%d,\"writers\":%d,\"roles\":\"%s\"",
				s->readers, s->writers, sim_roles_name(s->roles));
		else
			fprintf(out, ",\"read-ratio\":%u", s->read_ratio);
		fprintf(out, ",\"read-depth\":%u", s->read_depth);
	}
	if (has_adaptive(s))
		fprintf(out, ",\"adaptive\":\"%s\",\"spin-count\":%u",
			ulock_adaptive_name(s->adaptive), s->spin_count);
}

void sim_scenario_each(const struct sim_scenario *s,
		       void (*fn)(void *ctx, const char *key, const char *value),
		       void *ctx)
{
	char v[SIM_MAX_LOCKS * 33 + 1];
	int prog = s->wl == &wl_program, i;

	fn(ctx, "machine", s->machine);
	if (s->machine_set[0])
		fn(ctx, "machine-set", s->machine_set);
	snprintf(v, sizeof(v), "%d", s->cpus);
	fn(ctx, "cpus", s->cpus ? v : "all");
	snprintf(v, sizeof(v), "%d", s->threads);
	if (s->threads && !prog)
		fn(ctx, "threads", v);
	fn(ctx, "workload", s->workload);
	for (v[0] = '\0', i = 0; i < s->nr_locks; i++)
		snprintf(v + strlen(v), sizeof(v) - strlen(v), "%s%s",
			 i ? "," : "", s->locks[i]);
	fn(ctx, "lock", v);
	if (prog) {
		/* threads, ops, cs, between: the program's own business */
	} else if (s->duration_ps) {
		fn(ctx, "duration",
		   sim_format_duration_ps(s->duration_ps, v, sizeof(v)));
	} else if (s->ops_per_thread) {
		snprintf(v, sizeof(v), "%" PRIu64, s->ops_per_thread);
		fn(ctx, "ops-per-thread", v);
	} else {
		snprintf(v, sizeof(v), "%" PRIu64, s->ops);
		fn(ctx, "ops", v);
	}
	if (s->wl == &wl_spin) {
		fn(ctx, "data", sim_data_name(s->data));
		fn(ctx, "placement", sim_placement_name(s->placement));
		if (s->access != SIM_ACCESS_READ_WRITE)
			fn(ctx, "data-access", sim_access_name(s->access));
	}
	each_glibc(s, fn, ctx);
	if (!prog) {
		fn(ctx, "cs", sim_work_format(&s->cs, v, sizeof(v)));
		fn(ctx, "between", sim_work_format(&s->between, v, sizeof(v)));
	}
	snprintf(v, sizeof(v), "%" PRIu64, s->seed);
	fn(ctx, "seed", v);
	fn(ctx, "livelock", sim_format_duration_ps(s->livelock_ps, v, sizeof(v)));
	if (s->stuck_ms != SIM_STUCK_MS_DEFAULT)
		fn(ctx, "stuck", !s->stuck_ms ? "none" :
		   sim_format_duration_ps(s->stuck_ms * 1000000000ULL, v,
					  sizeof(v)));
	if (s->cost_jitter_pct) {
		snprintf(v, sizeof(v), "%u", s->cost_jitter_pct);
		fn(ctx, "cost-jitter", v);
	}
	if (s->memory)
		fn(ctx, "memory", s->memory == SIM_MEMORY_ARM64 ? "arm64" : "tso");
	if (s->strategy[0])
		fn(ctx, "strategy", s->strategy);
	if (s->oracle[0])
		fn(ctx, "oracle", s->oracle);
	if (s->json[0])
		fn(ctx, "json", s->json);
	if (s->plot[0])
		fn(ctx, "plot", s->plot);
	if (s->trace[0])
		fn(ctx, "trace", s->trace);
	if (s->trace_from_ps)
		fn(ctx, "trace-from",
		   sim_format_duration_ps(s->trace_from_ps, v, sizeof(v)));
	if (s->trace_to_ps)
		fn(ctx, "trace-to",
		   sim_format_duration_ps(s->trace_to_ps, v, sizeof(v)));
	if (s->trace_events != SIM_TRACE_ALL)
		fn(ctx, "trace-events",
		   sim_trace_format_events(s->trace_events, v, sizeof(v)));
	if (s->narrate)
		fn(ctx, "narrate", "yes");
	if (s->lock_stat[0])
		fn(ctx, "lock-stat",
		   strcmp(s->lock_stat, "-") != 0 ? s->lock_stat : "yes");
	if (s->record[0])
		fn(ctx, "record", s->record);
	if (s->program[0])
		fn(ctx, "program", s->program);
	if (s->args[0])
		fn(ctx, "args", s->args);
	/* lock=tp's keys, when not at their defaults */
	if (s->tp_policy != TP_POLICY_V2)
		fn(ctx, "tp-policy", "v6");
	if (!s->tp_handoff)
		fn(ctx, "tp-handoff", "off");
	if (s->tp_mutex != TP_MUTEX_61)
		fn(ctx, "tp-mutex", "4.8");
}

static void print_one(void *ctx, const char *key, const char *value)
{
	fprintf(ctx, "%s = ", key);
	sim_config_put_value(ctx, value);
	fputc('\n', ctx);
}

void sim_scenario_print(const struct sim_scenario *s, FILE *out)
{
	sim_scenario_each(s, print_one, out);
}

/* Does the scenario run lock=tp, or set one of its keys? */
static int has_tp(const struct sim_scenario *s)
{
	for (int i = 0; i < s->nr_locks; i++)
		if (!strcmp(s->locks[i], "tp"))
			return 1;
	return s->tp_policy != TP_POLICY_V2 || !s->tp_handoff ||
	       s->tp_mutex != TP_MUTEX_61;
}

/* A JSON string (sim/report/report.h). */
static void json_str(FILE *out, const char *v)
{
	sim_json_string(out, v, (size_t)-1);
}

/*
 * The same keys and values as the scenario file: numbers for counts, a
 * list for lock, strings in file syntax for durations and work, null for
 * what is unset (machine-set and threads when not given, ops in
 * fixed-time mode, json, ops-per-thread when not given, data, placement
 * and data-access outside workload spin; threads, ops, duration, cs and
 * between for workload program, which does not use them; trace and trace-to when not
 * given).
 */
void sim_scenario_json(const struct sim_scenario *s, FILE *out)
{
	char v[256];
	int i;

	fputs("{\"machine\":", out);
	json_str(out, s->machine);
	fputs(",\"machine-set\":", out);
	if (s->machine_set[0])
		json_str(out, s->machine_set);
	else
		fputs("null", out);
	if (s->cpus)
		fprintf(out, ",\"cpus\":%d", s->cpus);
	else
		fputs(",\"cpus\":\"all\"", out);
	if (s->threads && s->wl != &wl_program)
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
	if (s->wl == &wl_program)
		fputs(",\"ops\":null,\"duration\":null", out);
	else if (s->duration_ps)
		fprintf(out, ",\"ops\":null,\"duration\":\"%s\"",
			sim_format_duration_ps(s->duration_ps, v, sizeof(v)));
	else
		fprintf(out, ",\"ops\":%" PRIu64 ",\"duration\":null", s->ops);
	if (s->ops_per_thread && s->wl != &wl_program)
		fprintf(out, ",\"ops-per-thread\":%" PRIu64, s->ops_per_thread);
	else
		fputs(",\"ops-per-thread\":null", out);
	if (s->wl == &wl_spin)
		fprintf(out, ",\"data\":\"%s\",\"placement\":\"%s\",\"data-access\":\"%s\"",
			sim_data_name(s->data), sim_placement_name(s->placement),
			sim_access_name(s->access));
	else
		fputs(",\"data\":null,\"placement\":null,\"data-access\":null", out);
	json_glibc(s, out);
	if (s->wl == &wl_program) {
		fputs(",\"cs\":null,\"between\":null", out);
	} else {
		fprintf(out, ",\"cs\":\"%s\"",
			sim_work_format(&s->cs, v, sizeof(v)));
		fprintf(out, ",\"between\":\"%s\"",
			sim_work_format(&s->between, v, sizeof(v)));
	}
	fprintf(out, ",\"seed\":%" PRIu64, s->seed);
	fprintf(out, ",\"livelock\":\"%s\"",
		sim_format_duration_ps(s->livelock_ps, v, sizeof(v)));
	fprintf(out, ",\"cost_jitter\":%u", s->cost_jitter_pct);
	if (s->memory)
		fprintf(out, ",\"memory\":\"%s\"",
			s->memory == SIM_MEMORY_ARM64 ? "arm64" : "tso");
	fputs(",\"json\":", out);
	if (s->json[0])
		json_str(out, s->json);
	else
		fputs("null", out);
	fputs(",\"trace\":", out);
	if (s->trace[0])
		json_str(out, s->trace);
	else
		fputs("null", out);
	fprintf(out, ",\"trace-from\":\"%s\"",
		sim_format_duration_ps(s->trace_from_ps, v, sizeof(v)));
	if (s->trace_to_ps)
		fprintf(out, ",\"trace-to\":\"%s\"",
			sim_format_duration_ps(s->trace_to_ps, v, sizeof(v)));
	else
		fputs(",\"trace-to\":null", out);
	fprintf(out, ",\"trace-events\":\"%s\"",
		sim_trace_format_events(s->trace_events, v, sizeof(v)));
	fputs(",\"record\":", out);
	if (s->record[0])
		json_str(out, s->record);
	else
		fputs("null", out);
	if (has_tp(s))
		fprintf(out, ",\"tp-policy\":\"%s\",\"tp-handoff\":\"%s\",\"tp-mutex\":\"%s\"",
			s->tp_policy == TP_POLICY_V6 ? "v6" : "v2",
			s->tp_handoff ? "on" : "off",
			s->tp_mutex == TP_MUTEX_48 ? "4.8" : "6.1");
	if (s->program[0]) {
		fputs(",\"program\":", out);
		json_str(out, s->program);
		fputs(",\"args\":", out);
		json_str(out, s->args);
	}
	fputc('}', out);
}

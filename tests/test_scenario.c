/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tests/test_scenario.c - suite "scenario": the scenario keys
 * (sim/scenario/scenario*.c), the machine and machine-set keys with the presets
 * they load (sim/scenario/preset.c): defaults, every key's parsing, command line
 * over file, resolution, the echo that reads back as the same scenario,
 * and every class of bad input (one line naming file, line and key; exit
 * status 2).  The preset loader's own cases are tests/test_preset_load.c.
 *
 * Stage: CLI input, unit level.  Run by tests/check_main.c; failing calls
 * run in a child (tests/run_child.h).  Uses the real lock and workload
 * registries and the shipped machines/ presets.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sim/scenario/preset.h"
#include "sim/scenario/scenario.h"
#include "tests/run_child.h"
#include "workloads/workload.h"

static const struct sim_origin cmd = { .file = "command line" };
static struct child_out co;
static struct sim_scenario scn;
static char path[64];		/* the scenario file of a test */

static void write_scn(const char *text)
{
	int fd;

	strcpy(path, "/tmp/futexsim-scn-XXXXXX");
	fd = mkstemp(path);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	close(fd);
}

/* "PATH:LINE: KEY:" of the current scenario file ("PATH:LINE: " if @key
 * is NULL: a malformed line has no key). */
static const char *at_line(int line, const char *key)
{
	static char buf[128];

	if (key)
		snprintf(buf, sizeof(buf), "%s:%d: %s:", path, line, key);
	else
		snprintf(buf, sizeof(buf), "%s:%d: ", path, line);
	return buf;
}

/* The first lock of the registry that is (not) a negative control. */
static const char *a_lock(int broken)
{
	for (int i = 0; ulock_registry[i]; i++)
		if (ulock_registry[i]->broken == broken)
			return ulock_registry[i]->name;
	return NULL;
}

/* ---- what the CLI does, in a child ------------------------------------- */

/* Load the scenario file, then resolve against its machine. */
static void load_and_resolve(void *arg)
{
	struct sim_preset p;

	sim_scenario_defaults(&scn);
	sim_scenario_load(&scn, path);
	sim_preset_load_at(&p, scn.machine, &scn.machine_at);
	sim_preset_apply_set(&p, scn.machine_set, &scn.machine_set_at);
	sim_scenario_resolve(&scn, sim_preset_nr_cpus(&p));
	sim_scenario_print(&scn, stdout);
}

/* A file that fails at @line on @key; the message names both. */
static void expect_file_error(const char *text, int line, const char *key,
			      const char *part)
{
	write_scn(text);
	run_child(load_and_resolve, NULL, &co);
	unlink(path);
	assert_one_line_error(&co, at_line(line, key), part);
	ck_assert_str_eq(co.out, "");
}

static void set_on_command_line(void *arg)
{
	const char **kv = arg;

	sim_scenario_defaults(&scn);
	sim_scenario_set(&scn, kv[0], kv[1], &cmd);
}

/* ---- defaults, parsing, round trip ------------------------------------- */

START_TEST(test_defaults_are_the_documented_ones)
{
	sim_scenario_defaults(&scn);
	ck_assert_str_eq(scn.machine, "tiny4");
	ck_assert_int_eq(scn.cpus, 0);
	ck_assert_int_eq(scn.threads, 0);
	ck_assert_str_eq(scn.workload, "mutex");
	ck_assert_int_eq(scn.nr_locks, 1);
	ck_assert_str_eq(scn.locks[0], "ww");
	ck_assert_uint_eq(scn.ops, 100000);
	ck_assert_uint_eq(scn.duration_ps, 0);
	ck_assert_int_eq(scn.cs.kind, SIM_WORK_PAUSE);
	ck_assert_uint_eq(scn.cs.n, 5);
	ck_assert_int_eq(scn.between.kind, SIM_WORK_PAUSE);
	ck_assert_uint_eq(scn.between.n, 1);
	ck_assert_uint_eq(scn.seed, 1);
	ck_assert_str_eq(scn.json, "");
	ck_assert_uint_eq(scn.livelock_ps, 10000000000000ULL);
	sim_scenario_resolve(&scn, 4);
	ck_assert_int_eq(scn.cpus, 4);
	ck_assert_int_eq(scn.threads, 4);
	ck_assert_uint_eq(scn.ops, 100000);
}
END_TEST

START_TEST(test_file_keys_are_parsed_and_command_line_overrides_them)
{
	write_scn("machine = haswell-ex-4s\ncpus = 8\nthreads = 256\n"
		  "lock = ww,tp\nduration = 1.5ms\ncs = sleep:1us\n"
		  "between = none\nseed = 18446744073709551615\n"
		  "livelock = 2s\njson = out.json\n");
	sim_scenario_defaults(&scn);
	sim_scenario_load(&scn, path);
	unlink(path);
	ck_assert_str_eq(scn.file, path);
	ck_assert_str_eq(scn.machine, "haswell-ex-4s");
	ck_assert_int_eq(scn.machine_at.line, 1);
	ck_assert_int_eq(scn.cpus, 8);
	ck_assert_int_eq(scn.threads, 256);
	ck_assert_int_eq(scn.nr_locks, 2);
	ck_assert_uint_eq(scn.duration_ps, 1500000000ULL);
	ck_assert_int_eq(scn.cs.kind, SIM_WORK_SLEEP);
	ck_assert_uint_eq(scn.cs.sleep_ps, 1000000);
	ck_assert_int_eq(scn.between.kind, SIM_WORK_NONE);
	ck_assert_uint_eq(scn.seed, UINT64_MAX);
	ck_assert_uint_eq(scn.livelock_ps, 2000000000000ULL);
	ck_assert_str_eq(scn.json, "out.json");

	sim_scenario_set(&scn, "threads", "3", &cmd);
	sim_scenario_set(&scn, "cpus", "all", &cmd);
	sim_scenario_set(&scn, "duration", "none", &cmd);
	sim_scenario_set(&scn, "ops", "2k", &cmd);
	sim_scenario_set(&scn, "json", "none", &cmd);
	sim_scenario_resolve(&scn, 144);
	ck_assert_int_eq(scn.threads, 3);
	ck_assert_int_eq(scn.cpus, 144);
	ck_assert_uint_eq(scn.duration_ps, 0);
	ck_assert_uint_eq(scn.ops, 2000);
	ck_assert_str_eq(scn.json, "");
}
END_TEST

START_TEST(test_fixed_time_mode_clears_ops_on_resolve)
{
	sim_scenario_defaults(&scn);
	sim_scenario_set(&scn, "duration", "20ms", &cmd);
	sim_scenario_resolve(&scn, 4);
	ck_assert_uint_eq(scn.ops, 0);
	ck_assert_uint_eq(scn.duration_ps, 20000000000ULL);
}
END_TEST

START_TEST(test_broken_locks_are_accepted_though_not_listed)
{
	const char *broken = a_lock(1);
	const char *kv[2] = { "lock", "no-such-lock" };

	ck_assert_ptr_nonnull(broken);
	sim_scenario_defaults(&scn);
	sim_scenario_set(&scn, "lock", broken, &cmd);
	ck_assert_str_eq(scn.locks[0], broken);

	run_child(set_on_command_line, kv, &co);
	assert_one_line_error(&co, "command line: --lock:", "'no-such-lock'");
	for (int i = 0; ulock_registry[i]; i++) {
		char name[40];

		snprintf(name, sizeof(name), " %s", ulock_registry[i]->name);
		if (ulock_registry[i]->broken)
			ck_assert_msg(!strstr(co.err, name), "%s listed: %s",
				      name, co.err);
		else
			ck_assert_msg(strstr(co.err, name), "%s not listed: %s",
				      name, co.err);
	}
}
END_TEST

/* Two scenarios give the same echo. */
static void assert_same_echo(const struct sim_scenario *a,
			     const struct sim_scenario *b)
{
	char *ta = NULL, *tb = NULL;
	size_t la = 0, lb = 0;
	FILE *fa = open_memstream(&ta, &la), *fb = open_memstream(&tb, &lb);

	sim_scenario_print(a, fa);
	sim_scenario_print(b, fb);
	fclose(fa);
	fclose(fb);
	ck_assert_str_eq(ta, tb);
	free(ta);
	free(tb);
}

/* print -> load -> resolve gives back every simulated field. */
static void round_trip(const char *text, int machine_cpus)
{
	struct sim_scenario a, b;
	FILE *f;

	write_scn(text);
	sim_scenario_defaults(&a);
	sim_scenario_load(&a, path);
	unlink(path);
	sim_scenario_resolve(&a, machine_cpus);

	strcpy(path, "/tmp/futexsim-echo-XXXXXX");
	f = fdopen(mkstemp(path), "w");
	ck_assert_ptr_nonnull(f);
	sim_scenario_print(&a, f);
	fclose(f);
	sim_scenario_defaults(&b);
	sim_scenario_load(&b, path);
	sim_scenario_resolve(&b, machine_cpus);
	unlink(path);

	ck_assert_str_eq(a.machine, b.machine);
	ck_assert_int_eq(a.cpus, b.cpus);
	ck_assert_int_eq(a.threads, b.threads);
	ck_assert_str_eq(a.workload, b.workload);
	ck_assert_int_eq(a.nr_locks, b.nr_locks);
	ck_assert_int_eq(memcmp(a.locks, b.locks, sizeof(a.locks)), 0);
	ck_assert_uint_eq(a.ops, b.ops);
	ck_assert_uint_eq(a.duration_ps, b.duration_ps);
	ck_assert_int_eq(memcmp(&a.cs, &b.cs, sizeof(a.cs)), 0);
	ck_assert_int_eq(memcmp(&a.between, &b.between, sizeof(a.between)), 0);
	ck_assert_uint_eq(a.seed, b.seed);
	ck_assert_str_eq(a.json, b.json);
	ck_assert_uint_eq(a.livelock_ps, b.livelock_ps);
	ck_assert_str_eq(a.trace, b.trace);
	ck_assert_uint_eq(a.trace_from_ps, b.trace_from_ps);
	ck_assert_uint_eq(a.trace_to_ps, b.trace_to_ps);
	ck_assert_uint_eq(a.trace_events, b.trace_events);
	ck_assert_str_eq(a.record, b.record);
	assert_same_echo(&a, &b);
}

START_TEST(test_print_reads_back_as_the_same_scenario)
{
	char locks[80];

	snprintf(locks, sizeof(locks), "lock = %s,%s\n", a_lock(0), a_lock(1));
	round_trip("", 4);
	round_trip("machine = haswell-ex-4s\nthreads = 256\nops = 10M\n"
		   "cs = pause:50\nbetween = pause:0\nseed = 42\n", 144);
	round_trip("cpus = 3\nduration = 1.7us\ncs = sleep:1us\n"
		   "between = sleep:0.5ns\nlivelock = 1.25s\njson = /tmp/x y.json\n"
		   "seed = 18446744073709551615\n", 4);
	round_trip("trace = /tmp/t.json\ntrace-from = 1.5us\ntrace-to = 2ms\n"
		   "trace-events = qspinlock,sched,futex_exit\n", 4);
	round_trip("record = /tmp/r.replay\n", 4);
	round_trip("cost-jitter = 12\n", 4);
	write_scn(locks);
	sim_scenario_defaults(&scn);
	sim_scenario_load(&scn, path);
	unlink(path);
	ck_assert_int_eq(scn.nr_locks, 2);
}
END_TEST

START_TEST(test_echo_is_key_value_lines_in_documented_order)
{
	char *t = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&t, &len);

	sim_scenario_defaults(&scn);
	sim_scenario_resolve(&scn, 4);
	sim_scenario_print(&scn, f);
	fclose(f);
	ck_assert_str_eq(t, "machine = tiny4\ncpus = 4\nthreads = 4\n"
			 "workload = mutex\nlock = ww\nops = 100000\n"
			 "cs = pause:5\nbetween = pause:1\nseed = 1\n"
			 "livelock = 10s\n");
	free(t);
}
END_TEST

START_TEST(test_json_holds_every_key)
{
	static const char *const keys[] = {
		"{\"machine\":\"tiny4\"", "\"machine-set\":null", "\"cpus\":4",
		"\"threads\":2",
		"\"workload\":\"mutex\"", "\"lock\":[\"ww\"]", "\"ops\":null",
		"\"duration\":\"5ms\"", "\"cs\":\"sleep:1us\"",
		"\"between\":\"none\"", "\"seed\":9", "\"livelock\":\"10s\"",
		"\"json\":\"a\\\"b\\\\c\"", "\"trace\":null",
		"\"trace-from\":\"0ns\"", "\"trace-to\":null",
		"\"trace-events\":\"all\"", "\"record\":null",
	};
	char *t = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&t, &len);

	sim_scenario_defaults(&scn);
	sim_scenario_set(&scn, "threads", "2", &cmd);
	sim_scenario_set(&scn, "duration", "5ms", &cmd);
	sim_scenario_set(&scn, "cs", "sleep:1us", &cmd);
	sim_scenario_set(&scn, "between", "none", &cmd);
	sim_scenario_set(&scn, "seed", "9", &cmd);
	sim_scenario_set(&scn, "json", "a\"b\\c", &cmd);
	sim_scenario_resolve(&scn, 4);
	sim_scenario_json(&scn, f);
	fclose(f);
	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
		ck_assert_msg(strstr(t, keys[i]), "%s missing from %s", keys[i], t);
	ck_assert_int_eq(t[len - 1], '}');	/* no newline: it is embedded */
	free(t);
}
END_TEST

/* ---- bad input: one line naming file, line and key, exit 2 ------------- */

START_TEST(test_unknown_key_lists_the_valid_keys)
{
	expect_file_error("seed = 1\nthraeds = 4\n", 2, "thraeds",
			  "machine, machine-set, cpus, threads, workload, lock, ops, duration, "
			  "cs, between, seed, json, livelock");
}
END_TEST

START_TEST(test_bad_values_name_file_line_and_key)
{
	expect_file_error("threads = abc\n", 1, "threads", "'abc'");
	expect_file_error("\nthreads = 0\n", 2, "threads", "'0'");
	expect_file_error("threads = 4096\n", 1, "threads", "from 1 to 4095");
	expect_file_error("cpus = -1\n", 1, "cpus", "'-1'");
	expect_file_error("ops = 1.5\n", 1, "ops", "'1.5'");
	expect_file_error("ops = 0\n", 1, "ops", "'0'");
	expect_file_error("seed = 0x10\n", 1, "seed", "'0x10'");
	expect_file_error("# x\n# y\ncs = pause:x\n", 3, "cs",
			  "expected pause:N, sleep:DURATION");
	expect_file_error("between = spin:4\n", 1, "between", "'spin:4'");
	expect_file_error("cs = sleep:0ns\n", 1, "cs", "'sleep:0ns'");
	expect_file_error("machine =\n", 1, "machine", "characters");
	expect_file_error("cost-jitter = 51\n", 1, "cost-jitter", "from 0 to 50");
}
END_TEST

START_TEST(test_bad_units_name_file_line_and_key)
{
	expect_file_error("duration = 5\n", 1, "duration", "with a unit");
	expect_file_error("duration = 5parsecs\n", 1, "duration", "'5parsecs'");
	expect_file_error("livelock = -1s\n", 1, "livelock", "'-1s'");
	expect_file_error("cs = sleep:3\n", 1, "cs", "'sleep:3'");
	expect_file_error("duration = 0ms\n", 1, "duration", "positive");
}
END_TEST

START_TEST(test_unknown_lock_workload_machine_are_refused)
{
	expect_file_error("lock = ww,nope\n", 1, "lock", "'ww,nope'");
	expect_file_error("lock = ww,,ww\n", 1, "lock", "'ww,,ww'");
	expect_file_error("lock = ww,ww-timed,pi,tp,tp-timed,adaptive,"
			  "rw-prefer-reader,rw-prefer-writer,rw-prefer-writer-nr\n",
			  1, "lock", "up to 8 locks");
	expect_file_error("lock = ww,pi,ww\n", 1, "lock",
			  "each lock once (a lock's trace and replay files are named by it), got 'ww,pi,ww'");
	expect_file_error("workload = nope\n", 1, "workload", " mutex");
	expect_file_error("seed = 1\nmachine = nope\n", 2, "machine",
			  "tiny4");
	expect_file_error("machine = nope\n", 1, "machine", "haswell-ex-4s");
	expect_file_error("machine = /nonexistent/x.machine\n", 1, "machine",
			  "'/nonexistent/x.machine'");
}
END_TEST

static void load_missing(void *arg)
{
	sim_scenario_defaults(&scn);
	sim_scenario_load(&scn, "/nonexistent/missing.scn");
}

START_TEST(test_missing_file_and_malformed_line_are_refused)
{
	run_child(load_missing, NULL, &co);
	assert_one_line_error(&co, "'/nonexistent/missing.scn'", "readable");
	expect_file_error("seed = 1\n\njust words\n", 3, NULL,
			  "expected a 'key = value' line, got 'just words'");
}
END_TEST

START_TEST(test_ops_and_duration_together_are_refused)
{
	expect_file_error("ops = 5\nduration = 1s\n", 2, "duration",
			  "not both (ops is given at line 1)");
	expect_file_error("duration = 1s\n#\nops = 5\n", 3, "ops",
			  "(duration is given at line 1)");
	/* Given twice, the later one still counts as given. */
	expect_file_error("ops = 5\nduration = 1s\nduration = 2s\n", 3,
			  "duration", "not both");
	/* "none" takes duration back. */
	write_scn("ops = 5\nduration = 1s\nduration = none\n");
	run_child(load_and_resolve, NULL, &co);
	unlink(path);
	ck_assert_msg(co.status == 0, "%s", co.err);
	ck_assert_ptr_nonnull(strstr(co.out, "ops = 5\n"));
}
END_TEST

START_TEST(test_more_cpus_than_the_machine_are_refused)
{
	expect_file_error("\ncpus = 5\n", 2, "cpus",
			  "at most 4 (the CPUs of machine tiny4), got '5'");
	write_scn("machine = haswell-ex-4s\ncpus = 144\n");
	run_child(load_and_resolve, NULL, &co);
	unlink(path);
	ck_assert_msg(co.status == 0, "%s", co.err);
	expect_file_error("machine = haswell-ex-4s\ncpus = 145\n", 2, "cpus",
			  "at most 144");
}
END_TEST

START_TEST(test_command_line_errors_name_the_option)
{
	const char *kv[2] = { "threads", "abc" };

	run_child(set_on_command_line, kv, &co);
	ck_assert_int_eq(co.status, 2);
	ck_assert_str_eq(co.err, "futexsim: command line: --threads: expected "
			 "an integer from 1 to 4095, got 'abc'\n");
	kv[0] = "nope";
	run_child(set_on_command_line, kv, &co);
	assert_one_line_error(&co, "command line: --nope: expected a known key");
}
END_TEST

/*
 * machine-set changes keys of the loaded preset, in order, for this run
 * only; the echo carries it (so replay files and the replay command do)
 * and reads back; none clears it.
 */
START_TEST(test_machine_set_changes_the_preset_and_is_echoed)
{
	struct sim_preset p, plain;
	char *t = NULL;
	size_t len = 0;
	FILE *f;

	write_scn("machine = haswell-ex-4s\n"
		  "machine-set = tick-cost=0ns, xfer-remote=200ns,tick-cost=7us\n");
	sim_scenario_defaults(&scn);
	sim_scenario_load(&scn, path);
	unlink(path);
	ck_assert_int_eq(scn.machine_set_at.line, 2);
	sim_preset_load(&plain, "haswell-ex-4s");
	sim_preset_load_at(&p, scn.machine, &scn.machine_at);
	sim_preset_apply_set(&p, scn.machine_set, &scn.machine_set_at);
	ck_assert_uint_eq(p.xfer_remote_ps, 200000);
	ck_assert_uint_eq(p.tick_cost_ps, 7000000);	/* the last one wins */
	ck_assert_uint_ne(plain.xfer_remote_ps, 200000);
	/* nothing else moved */
	plain.xfer_remote_ps = p.xfer_remote_ps;
	plain.tick_cost_ps = p.tick_cost_ps;
	ck_assert_int_eq(memcmp(&p, &plain, sizeof(p)), 0);

	f = open_memstream(&t, &len);
	sim_scenario_resolve(&scn, sim_preset_nr_cpus(&p));
	sim_scenario_print(&scn, f);
	fclose(f);
	ck_assert_ptr_nonnull(strstr(t, "machine = haswell-ex-4s\n"
		"machine-set = tick-cost=0ns, xfer-remote=200ns,tick-cost=7us\n"));
	free(t);

	sim_scenario_set(&scn, "machine-set", "none", &cmd);
	ck_assert_str_eq(scn.machine_set, "");
	sim_preset_apply_set(&p, scn.machine_set, &scn.machine_set_at);
	ck_assert_uint_eq(p.tick_cost_ps, 7000000);	/* "" changes nothing */
}
END_TEST

START_TEST(test_machine_set_errors_name_the_machine_key)
{
	expect_file_error("machine-set = nope=1\n", 1, "machine-set: nope",
			  "expected a machine key: description, sockets");
	expect_file_error("seed = 2\nmachine-set = tick-cost=5\n", 2,
			  "machine-set: tick-cost", "a duration with a unit");
	expect_file_error("machine-set = tick-cost\n", 1, "machine-set",
			  "KEY=VALUE pairs of machine keys");
	expect_file_error("machine-set = =0ns\n", 1, "machine-set",
			  "KEY=VALUE pairs");
	/* the CPU count is checked once the preset is loaded */
	expect_file_error("machine = haswell-ex-4s\nmachine-set = sockets=4,cores-per-socket=64\n",
			  2, "machine-set", "<= 256 CPUs, got '4 x 64 x 2'");
}
END_TEST

Suite *scenario_suite(void)
{
	return one_case_suite("scenario", 0, (const TTest *const[]){
		test_defaults_are_the_documented_ones,
		test_file_keys_are_parsed_and_command_line_overrides_them,
		test_fixed_time_mode_clears_ops_on_resolve,
		test_broken_locks_are_accepted_though_not_listed,
		test_print_reads_back_as_the_same_scenario,
		test_echo_is_key_value_lines_in_documented_order,
		test_json_holds_every_key,
		test_machine_set_changes_the_preset_and_is_echoed,
		test_unknown_key_lists_the_valid_keys,
		test_machine_set_errors_name_the_machine_key,
		test_bad_values_name_file_line_and_key,
		test_bad_units_name_file_line_and_key,
		test_unknown_lock_workload_machine_are_refused,
		test_missing_file_and_malformed_line_are_refused,
		test_ops_and_duration_together_are_refused,
		test_more_cpus_than_the_machine_are_refused,
		test_command_line_errors_name_the_option,
		NULL });
}

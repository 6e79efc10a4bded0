/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tests/test_preset_load.c - suite "preset_load": the machine-preset
 * loader (sim/scenario/preset.c): machines/tiny4.machine equals the built-in
 * defaults, haswell-ex-4s has the TO-futex machine's topology, costs and CPU
 * numbering, and presets are looked up in $FUTEXSIM_MACHINES and checked
 * (unknown name or key, missing unit, too many CPUs: one line naming
 * file, line and key; exit status 2).
 *
 * Stage: CLI input -> machine, unit level.  Run by tests/check_main.c;
 * failing loads run in a child (tests/run_child.h).  The shipped presets'
 * own checks are tests/test_presets.c; the machine and machine-set
 * scenario keys tests/test_scenario.c.
 */
#include <check.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sim/machine/machine.h"
#include "sim/scenario/preset.h"
#include "tests/run_child.h"

static struct child_out co;

START_TEST(test_tiny4_file_equals_the_builtin_defaults)
{
	struct sim_preset file, builtin;

	sim_preset_load(&file, "tiny4");
	sim_preset_defaults(&builtin);
	ck_assert_str_eq(file.name, builtin.name);
	ck_assert_str_eq(file.description, builtin.description);
	/* Every field after the strings, padding included (both memset). */
	ck_assert_int_eq(memcmp(&file.sockets, &builtin.sockets,
				sizeof(file) - offsetof(struct sim_preset, sockets)), 0);
	ck_assert_int_eq(sim_preset_nr_cpus(&file), 4);
}
END_TEST

START_TEST(test_haswell_preset_has_the_seed_topology_and_costs)
{
	struct sim_preset p;
	int so, co_, th;

	sim_preset_load(&p, "haswell-ex-4s");
	ck_assert_str_eq(p.name, "haswell-ex-4s");
	ck_assert_int_eq(sim_preset_nr_cpus(&p), 144);
	ck_assert_uint_eq(p.access_ps[SIM_LOAD], 1600);
	ck_assert_uint_eq(p.access_ps[SIM_RMW], 8000);
	ck_assert_uint_eq(p.access_ps[SIM_RELAX], 4000);
	ck_assert_uint_eq(p.xfer_remote_ps, 125000);
	ck_assert_uint_eq(p.timer_slack_ps, 50000000);
	ck_assert_uint_eq(p.tick_ps, 1000000000);
	ck_assert_uint_eq(p.timeslice_ps, 3000000000ULL);
	sim_preset_topology(&p, 0, &so, &co_, &th);
	ck_assert(so == 0 && co_ == 0 && th == 0);
	sim_preset_topology(&p, 19, &so, &co_, &th);
	ck_assert(so == 1 && co_ == 1 && th == 0);
	sim_preset_topology(&p, 72, &so, &co_, &th);
	ck_assert(so == 0 && co_ == 0 && th == 1);
	sim_preset_topology(&p, 143, &so, &co_, &th);
	ck_assert(so == 3 && co_ == 17 && th == 1);
}
END_TEST

static char mdir[64];

static void write_machine(const char *name, const char *text)
{
	char p[128];
	FILE *f;

	snprintf(p, sizeof(p), "%s/%s.machine", mdir, name);
	f = fopen(p, "w");
	ck_assert_ptr_nonnull(f);
	fputs(text, f);
	fclose(f);
}

static void load_named(void *arg)
{
	struct sim_preset p;

	setenv("FUTEXSIM_MACHINES", mdir, 1);
	sim_preset_load(&p, arg);
	printf("%s %d %llu\n", p.name, sim_preset_nr_cpus(&p),
	       (unsigned long long)p.access_ps[SIM_RELAX]);
}

START_TEST(test_presets_are_found_in_FUTEXSIM_MACHINES_and_checked)
{
	char want[128];

	strcpy(mdir, "/tmp/futexsim-machines-XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(mdir));
	write_machine("two", "# two sockets\nsockets = 2\nrelax = 58ns\n");
	write_machine("huge", "sockets = 8\ncores-per-socket = 32\n"
		      "threads-per-core = 2\n");
	write_machine("odd", "description = x\ncolour = red\n");
	write_machine("unit", "relax = 4\n");

	run_child(load_named, "two", &co);
	ck_assert_msg(co.status == 0, "%s", co.err);
	ck_assert_str_eq(co.out, "two 8 58000\n");	/* other keys: defaults */

	run_child(load_named, "tiny4", &co);		/* not in this dir */
	assert_one_line_error(&co, "command line: --machine:", "huge, odd, two, unit",
			      mdir, "'tiny4'");
	snprintf(want, sizeof(want), "%s/huge.machine: sockets:", mdir);
	run_child(load_named, "huge", &co);
	assert_one_line_error(&co, want, "<= 256 CPUs", "'8 x 32 x 2'");
	snprintf(want, sizeof(want), "%s/odd.machine:2: colour:", mdir);
	run_child(load_named, "odd", &co);
	assert_one_line_error(&co, want, "relax", "timeslice");
	snprintf(want, sizeof(want), "%s/unit.machine:1: relax:", mdir);
	run_child(load_named, "unit", &co);
	assert_one_line_error(&co, want, "with a unit", "'4'");

	for (const char *const *n = (const char *const[]){ "two", "huge", "odd", "unit", NULL }; *n; n++) {
		snprintf(want, sizeof(want), "%s/%s.machine", mdir, *n);
		unlink(want);
	}
	rmdir(mdir);
}
END_TEST
Suite *preset_load_suite(void)
{
	return one_case_suite("preset_load", 0, (const TTest *const[]){
		test_tiny4_file_equals_the_builtin_defaults,
		test_haswell_preset_has_the_seed_topology_and_costs,
		test_presets_are_found_in_FUTEXSIM_MACHINES_and_checked,
		NULL });
}

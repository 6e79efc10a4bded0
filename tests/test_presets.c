/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tests/test_presets.c - suite "presets": the shipped machine presets of
 * machines/ (topology, sane costs, every key set and commented, listed by
 * `futexsim list machines` and in machines/README.md) and bad preset
 * files given by path (one line naming file, line and key; exit 2); a
 * preset printed as a file (`futexsim list machine`) reads back the same.
 *
 * Stage: CLI input -> machine, unit level and end to end.  Run by
 * tests/check_main.c; loads presets with sim/scenario/preset.c, runs failing loads
 * in a child and the binary named by $FUTEXSIM (tests/run_child.h).  The
 * loader's own cases (lookup in $FUTEXSIM_MACHINES, unknown name or key,
 * missing unit, too many CPUs, tiny4 = built-in defaults, the haswell-ex-4s
 * CPU numbering) are in tests/test_preset_load.c.
 */
#include <check.h>
#include <dirent.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sim/machine/machine.h"
#include "sim/scenario/preset.h"
#include "tests/run_child.h"
#include "version.h"

/* The documented topology of every shipped preset (machines/README.md). */
static const struct shipped {
	const char *name;
	int sockets, cores, threads, cpus;
} shipped[] = {
	{ "aarch64-64",		1, 64, 1, 64 },
	{ "gold6148-2s",	2, 20, 2, 80 },
	{ "haswell-ex-4s",	4, 18, 2, 144 },
	{ "tiny4",		1, 4, 1, 4 },
	{ "westmere-ex",	1, 10, 1, 10 },
	{ "westmere-ex-4s",	4, 10, 1, 40 },
	{ "x86-2s-112",		2, 28, 2, 112 },
};
#define NR_SHIPPED	(int)(sizeof(shipped) / sizeof(shipped[0]))

static struct child_out co;
static char tmpdir[64];

/* Presets are looked up in the source tree, whatever the caller's env. */
static void use_shipped_dir(void)
{
	unsetenv("FUTEXSIM_MACHINES");
}

static char *machines_file(const char *name)
{
	static char path[512];

	snprintf(path, sizeof(path), "%s/%s", FUTEXSIM_MACHINES_DIR, name);
	return path;
}

/* ---- the shipped presets ---------------------------------------------- */

START_TEST(test_every_shipped_preset_has_its_documented_topology)
{
	for (int i = 0; i < NR_SHIPPED; i++) {
		const struct shipped *m = &shipped[i];
		struct sim_preset p;
		int so, core, th, last;

		sim_preset_load(&p, m->name);
		ck_assert_str_eq(p.name, m->name);
		ck_assert_msg(p.description[0], "%s: no description", m->name);
		ck_assert_int_eq(p.sockets, m->sockets);
		ck_assert_int_eq(p.cores_per_socket, m->cores);
		ck_assert_int_eq(p.threads_per_core, m->threads);
		ck_assert_int_eq(sim_preset_nr_cpus(&p), m->cpus);
		last = m->cpus - 1;
		sim_preset_topology(&p, last, &so, &core, &th);
		ck_assert_msg(so == m->sockets - 1 && core == m->cores - 1 &&
			      th == m->threads - 1, "%s: CPU %d is %d/%d/%d",
			      m->name, last, so, core, th);
		/* CPU "cores" is the first sibling (Linux numbering on Intel). */
		if (m->threads > 1) {
			sim_preset_topology(&p, m->sockets * m->cores, &so,
					    &core, &th);
			ck_assert(so == 0 && core == 0 && th == 1);
		}
	}
}
END_TEST

/* Costs every preset must keep whatever its values. */
static void assert_sane_costs(const struct sim_preset *p)
{
	const uint64_t *a = p->access_ps;

	for (int k = 0; k < SIM_NR_ACCESS; k++)
		ck_assert_msg(a[k] > 0, "%s: access cost %d is 0", p->name, k);
	ck_assert_msg(p->cache_model, "%s: cache model off", p->name);
	ck_assert_msg(a[SIM_LOAD] < p->shared_read_ps &&
		      p->shared_read_ps < p->xfer_socket_ps,
		      "%s: not L1 < shared read < transfer", p->name);
	ck_assert_msg(a[SIM_RMW] < p->xfer_socket_ps, "%s: rmw", p->name);
	ck_assert_msg(p->sharer_penalty_ps > 0 &&
		      p->sharer_penalty_ps < p->xfer_socket_ps,
		      "%s: sharer penalty", p->name);
	if (p->threads_per_core > 1)
		ck_assert_msg(p->xfer_smt_ps < p->xfer_socket_ps,
			      "%s: xfer-smt >= xfer-socket", p->name);
	if (p->sockets > 1)
		ck_assert_msg(p->xfer_socket_ps < p->xfer_remote_ps,
			      "%s: xfer-socket >= xfer-remote", p->name);
	ck_assert_msg(!p->xfer_2hop_ps || p->xfer_2hop_ps > p->xfer_remote_ps,
		      "%s: xfer-2hop <= xfer-remote", p->name);
	ck_assert_msg(p->syscall_ps < p->wake_ps && p->wake_ps < p->ctxsw_ps &&
		      p->ctxsw_ps < p->idle_exit_ps,
		      "%s: not syscall < wake < ctxsw < idle-exit", p->name);
	ck_assert_msg(p->idle_enter_ps > 0 && p->wakeup_to_run_ps > 0 &&
		      p->timer_slack_ps > 0, "%s: a kernel path is 0", p->name);
	ck_assert_msg(p->tick_ps >= 1000000000ULL && p->tick_ps <= 10000000000ULL,
		      "%s: tick not 1-10 ms (HZ 100..1000)", p->name);
}

START_TEST(test_every_shipped_preset_has_sane_costs)
{
	struct sim_preset p;

	for (int i = 0; i < NR_SHIPPED; i++) {
		sim_preset_load(&p, shipped[i].name);
		assert_sane_costs(&p);
	}
}
END_TEST

START_TEST(test_presets_differ_where_the_hardware_does)
{
	struct sim_preset hsx, skx, arm, wsm, wsm4;
	const size_t from = offsetof(struct sim_preset, access_ps);

	sim_preset_load(&hsx, "haswell-ex-4s");
	sim_preset_load(&skx, "gold6148-2s");
	sim_preset_load(&arm, "aarch64-64");
	sim_preset_load(&wsm, "westmere-ex");
	sim_preset_load(&wsm4, "westmere-ex-4s");

	/* Skylake PAUSE: "as many as 140 cycles" against about 10 before it
	 * (Intel Optimization Reference Manual; docs/model.md). */
	ck_assert_uint_ge(skx.access_ps[SIM_RELAX],
			  10 * hsx.access_ps[SIM_RELAX]);
	ck_assert_uint_eq(wsm.access_ps[SIM_RELAX], hsx.access_ps[SIM_RELAX]);
	/* arm64 cpu_relax() is YIELD, a NOP: under a nanosecond. */
	ck_assert_uint_lt(arm.access_ps[SIM_RELAX], 1000);
	/* One flat mesh: every transfer the same. */
	ck_assert_uint_eq(arm.xfer_smt_ps, arm.xfer_socket_ps);
	ck_assert_uint_eq(arm.xfer_remote_ps, arm.xfer_socket_ps);
	/* Across sockets at least twice within: 2x on Westmere-EP, ~2.8x on
	 * 2-socket Skylake-SP (github.com/nviennot/core-to-core-latency). */
	ck_assert_uint_ge(skx.xfer_remote_ps, 2 * skx.xfer_socket_ps);
	ck_assert_uint_ge(wsm4.xfer_remote_ps, 2 * wsm4.xfer_socket_ps);
	/* The 4-socket Westmere box is four of the 1-socket one. */
	ck_assert_int_eq(wsm4.sockets, 4 * wsm.sockets);
	ck_assert_int_eq(memcmp((char *)&wsm + from, (char *)&wsm4 + from,
				sizeof(wsm) - from), 0);
}
END_TEST

/* The keys of the "## Keys" table of machines/README.md, one per line. */
static char *readme_keys(void)
{
	char *readme = slurp(machines_file("README.md"), NULL);
	char *s = strstr(readme, "\n## Keys"), *end, *keys, *out;

	ck_assert_ptr_nonnull(s);
	end = strstr(s + 1, "\n## ");
	if (end)
		*end = '\0';
	keys = out = calloc(1, strlen(s) + 1);
	ck_assert_ptr_nonnull(keys);
	for (char *row = strstr(s, "\n| `"); row; row = strstr(row + 1, "\n| `")) {
		size_t n = strcspn(row + 4, "`");

		out += sprintf(out, "%.*s\n", (int)n, row + 4);
	}
	free(readme);
	ck_assert_msg(strstr(keys, "xfer-socket\n"), "README keys: %s", keys);
	return keys;
}

/* Check one preset file: every documented key set once, each commented. */
static void check_preset_text(const char *name, const char *keys)
{
	char file[128], *text, *line, *next;
	int commented = 0, nr = 0;

	snprintf(file, sizeof(file), "%s.machine", name);
	text = slurp(machines_file(file), NULL);
	ck_assert_msg(text[0] == '#', "%s: no head comment", file);
	for (const char *k = keys; *k; k = strchr(k, '\n') + 1) {
		char want[64];
		int len = (int)strcspn(k, "\n"), count = 0;

		snprintf(want, sizeof(want), "\n%.*s = ", len, k);
		for (const char *h = strstr(text, want); h; h = strstr(h + 1, want))
			count++;
		ck_assert_msg(count == 1, "%s: key %.*s set %d times", file,
			      len, k, count);
	}
	/* A key line follows a comment, or a key line that does; a blank
	 * line ends a comment's reach. */
	for (line = text; *line; line = next, nr++) {
		next = strchr(line, '\n');
		next = next ? next + 1 : line + strlen(line);
		if (line[0] == '#')
			commented = 1;
		else if (line[0] == '\n')
			commented = 0;
		else
			ck_assert_msg(commented || !strncmp(line, "description", 11),
				      "%s:%d: a key without a comment naming its "
				      "source", file, nr + 1);
	}
	ck_assert_int_gt(nr, 10);
	free(text);
}

START_TEST(test_every_preset_sets_every_documented_key_with_a_comment)
{
	char *keys = readme_keys();

	for (int i = 0; i < NR_SHIPPED; i++)
		check_preset_text(shipped[i].name, keys);
	free(keys);
}
END_TEST

/* Every *.machine of machines/ is a shipped preset of the table above and
 * has a row "| `NAME` | S x C x T = N CPUs |" in machines/README.md. */
START_TEST(test_readme_lists_every_preset_with_its_topology)
{
	char *readme = slurp(machines_file("README.md"), NULL), row[128];
	DIR *d = opendir(FUTEXSIM_MACHINES_DIR);
	struct dirent *e;
	int files = 0;

	ck_assert_ptr_nonnull(d);
	while ((e = readdir(d)) != NULL) {
		size_t len = strlen(e->d_name);
		int i;

		if (len <= 8 || strcmp(e->d_name + len - 8, ".machine") != 0)
			continue;
		for (i = 0; i < NR_SHIPPED; i++)
			if (strlen(shipped[i].name) == len - 8 &&
			    !strncmp(shipped[i].name, e->d_name, len - 8))
				break;
		ck_assert_msg(i < NR_SHIPPED, "%s is not in this test", e->d_name);
		snprintf(row, sizeof(row), "| `%s` | %d x %d x %d = %d CPUs |",
			 shipped[i].name, shipped[i].sockets, shipped[i].cores,
			 shipped[i].threads, shipped[i].cpus);
		ck_assert_msg(strstr(readme, row), "README lacks %s", row);
		files++;
	}
	closedir(d);
	ck_assert_int_eq(files, NR_SHIPPED);
	free(readme);
}
END_TEST

/* ---- the binary ------------------------------------------------------- */

#define futexsim(o, ...) \
	run_futexsim((o), (const char *const[]){ "futexsim", __VA_ARGS__, NULL })

START_TEST(test_list_machines_shows_every_preset_with_its_topology)
{
	const char *prev = co.out;
	int lines = 0;

	if (!futexsim(&co, "list", "machines"))
		return;
	ck_assert_int_eq(co.status, 0);
	ck_assert_str_eq(co.err, "");
	for (const char *c = co.out; (c = strchr(c, '\n')); c++)
		lines++;
	ck_assert_msg(lines == NR_SHIPPED, "%d lines: %s", lines, co.out);
	/* One line each, in name order (the table is sorted). */
	for (int i = 0; i < NR_SHIPPED; i++) {
		const struct shipped *m = &shipped[i];
		char want[128];
		const char *line;

		snprintf(want, sizeof(want), "  %s ", m->name);
		line = strstr(co.out, want);
		ck_assert_msg(line, "%s not listed: %s", m->name, co.out);
		ck_assert_msg(line >= prev, "%s out of order: %s", m->name,
			      co.out);
		prev = line;
		snprintf(want, sizeof(want), " %d x %d x %d = %*d CPUs  ",
			 m->sockets, m->cores, m->threads, 3, m->cpus);
		ck_assert_msg(strstr(line, want) &&
			      strstr(line, want) < strchr(line, '\n'),
			      "'%s' missing from %.80s", want, line);
	}
}
END_TEST

START_TEST(test_every_preset_runs_a_small_scenario)
{
	char machine[64];

	for (int i = 0; i < NR_SHIPPED; i++) {
		snprintf(machine, sizeof(machine), "--machine=%s",
			 shipped[i].name);
		if (!futexsim(&co, "run", machine, "--ops=2000"))
			return;
		ck_assert_msg(co.status == 0, "%s: exit %d: %s", machine,
			      co.status, co.err);
		snprintf(machine, sizeof(machine), "\ncpus = %d\n",
			 shipped[i].cpus);
		ck_assert_msg(strstr(co.out, machine), "%s not resolved: %s",
			      shipped[i].name, co.out);
	}
}
END_TEST

/* ---- a user's preset file, good and bad -------------------------------- */

static char upath[128];		/* the user's file of a test */

static void write_user(const char *name, const char *text)
{
	FILE *f;

	if (!tmpdir[0]) {
		strcpy(tmpdir, "/tmp/futexsim-presets-XXXXXX");
		ck_assert_ptr_nonnull(mkdtemp(tmpdir));
	}
	snprintf(upath, sizeof(upath), "%s/%s.machine", tmpdir, name);
	f = fopen(upath, "w");
	ck_assert_ptr_nonnull(f);
	fputs(text, f);
	fclose(f);
}

static void remove_tmpdir(void)
{
	DIR *d;
	struct dirent *e;
	char p[sizeof(tmpdir) + sizeof(e->d_name) + 1];

	if (!tmpdir[0])
		return;
	d = opendir(tmpdir);
	while (d && (e = readdir(d)) != NULL) {
		if (e->d_name[0] == '.')
			continue;
		snprintf(p, sizeof(p), "%s/%s", tmpdir, e->d_name);
		unlink(p);
	}
	if (d)
		closedir(d);
	rmdir(tmpdir);
	tmpdir[0] = '\0';
}

START_TEST(test_an_edited_copy_loads_by_path)
{
	char *text = slurp(machines_file("westmere-ex-4s.machine"), NULL);
	char *s = strstr(text, "\nsockets = 4\n");
	struct sim_preset copy, orig;
	const size_t from = offsetof(struct sim_preset, access_ps);

	ck_assert_ptr_nonnull(s);
	s[11] = '2';			/* "sockets = 2" */
	write_user("my-box", text);
	free(text);
	sim_preset_load(&copy, upath);
	sim_preset_load(&orig, "westmere-ex-4s");
	ck_assert_str_eq(copy.name, "my-box");
	ck_assert_str_eq(copy.description, orig.description);
	ck_assert_int_eq(sim_preset_nr_cpus(&copy), 20);
	ck_assert_int_eq(memcmp((char *)&copy + from, (char *)&orig + from,
				sizeof(copy) - from), 0);
	remove_tmpdir();
}
END_TEST

/*
 * sim_preset_print() of every shipped preset, read back as a file, is the
 * same machine; `futexsim list machine` prints it, with machine-set
 * applied, and refuses bad arguments with one line.
 */
START_TEST(test_a_printed_preset_reads_back_as_the_same_machine)
{
	for (int i = 0; i < NR_SHIPPED; i++) {
		struct sim_preset orig, back;
		char *text = NULL;
		size_t len = 0;
		FILE *f = open_memstream(&text, &len);

		sim_preset_load(&orig, shipped[i].name);
		sim_preset_print(&orig, f);
		fclose(f);
		write_user(shipped[i].name, text);
		free(text);
		sim_preset_load(&back, upath);
		ck_assert_str_eq(back.name, orig.name);
		ck_assert_msg(!memcmp(&back, &orig, sizeof(back)),
			      "%s does not read back", orig.name);
	}
	remove_tmpdir();
}
END_TEST

START_TEST(test_list_machine_prints_every_key_with_machine_set)
{
	if (!futexsim(&co, "list", "machine", "gold6148-2s",
		      "--machine-set=tick-cost=0ns,xfer-remote=200ns"))
		return;
	ck_assert_msg(co.status == 0, "%s", co.err);
	ck_assert_ptr_nonnull(strstr(co.out, "# gold6148-2s, machine-set "
				     "tick-cost=0ns,xfer-remote=200ns\n"));
	ck_assert_ptr_nonnull(strstr(co.out, "\ntick-cost = 0ns\n"));
	ck_assert_ptr_nonnull(strstr(co.out, "\nxfer-remote = 200ns\n"));
	ck_assert_ptr_nonnull(strstr(co.out, "\nsockets = 2\n"));
	ck_assert_ptr_nonnull(strstr(co.out, "\nrelax = 58ns\n"));
	futexsim(&co, "list", "machine", "gold6148-2s", "--machine-set=bogus=1");
	assert_one_line_error(&co, "--machine-set: bogus: expected a machine key");
	futexsim(&co, "list", "machine", "tiny4", "--cpus=2");
	assert_one_line_error(&co, "expected list machine NAME|PATH", "'--cpus=2'");
	futexsim(&co, "list", "machine");
	assert_one_line_error(&co, "expected list machine NAME|PATH");
}
END_TEST

static void load_user(void *arg)
{
	struct sim_preset p;

	sim_preset_load(&p, arg);
}

/* A user file with @text fails at @line on @key (NULL: a malformed line,
 * no key), with @part in the message. */
static void expect_bad(const char *text, int line, const char *key,
		       const char *part)
{
	char want[256];

	write_user("bad", text);
	if (key)
		snprintf(want, sizeof(want), "%s:%d: %s: expected ", upath,
			 line, key);
	else
		snprintf(want, sizeof(want), "%s:%d: expected ", upath, line);
	run_child(load_user, upath, &co);
	assert_one_line_error(&co, want, part);
	ck_assert_str_eq(co.out, "");
}

START_TEST(test_bad_values_in_a_preset_file_are_refused)
{
	expect_bad("sockets = 0\n", 1, "sockets", "from 1 to 256, got '0'");
	expect_bad("# x\n\ncores-per-socket = 2.5\n", 3, "cores-per-socket",
		   "got '2.5'");
	expect_bad("threads-per-core = -1\n", 1, "threads-per-core",
		   "got '-1'");
	expect_bad("sockets = 2\nthreads-per-core = 257\n", 2,
		   "threads-per-core", "got '257'");
	expect_bad("xfer-socket = -45ns\n", 1, "xfer-socket", "got '-45ns'");
	expect_bad("relax = fast\n", 1, "relax", "got 'fast'");
	expect_bad("load = 1.6 ns\n", 1, "load", "got '1.6 ns'");
	expect_bad("rmw = 8ps\n", 1, "rmw", "got '8ps'");
	expect_bad("load = 1.6004ns\n", 1, "load", "got '1.6004ns'");
	expect_bad("shared-read =\n", 1, "shared-read", "with a unit");
	expect_bad("tick = 0ms\n", 1, "tick", "a positive duration");
	expect_bad("timeslice = 0ns\n", 1, "timeslice", "a positive duration");
	expect_bad("cache-model = maybe\n", 1, "cache-model",
		   "on or off, got 'maybe'");
	expect_bad("description = ok\nsharer-penalty = 12 # per sharer\n", 2,
		   "sharer-penalty", "got '12'");
	remove_tmpdir();
}
END_TEST

START_TEST(test_malformed_lines_in_a_preset_file_are_refused)
{
	char longdesc[200];

	expect_bad("sockets = 1\nrelax 4ns\n", 2, NULL,
		   "a 'key = value' line, got 'relax 4ns'");
	expect_bad("Relax = 4ns\n", 1, "Relax", "lowercase letters");
	expect_bad("= 4ns\n", 1, NULL, "lowercase letters");
	memset(longdesc, 'x', sizeof(longdesc));
	memcpy(longdesc, "description = ", 14);
	longdesc[sizeof(longdesc) - 1] = '\0';
	expect_bad(longdesc, 1, "description", "at most 159 characters");
	remove_tmpdir();
}
END_TEST

/* The CLI path: --machine=PATH, and a scenario's machine = PATH. */
START_TEST(test_the_cli_names_the_preset_file_line_and_key)
{
	char opt[160], want[200], scn[160];
	FILE *f;

	write_user("cli", "# mine\nsockets = 2\nxfer-remote = 130\n");
	snprintf(opt, sizeof(opt), "--machine=%s", upath);
	if (!futexsim(&co, "run", opt, "--ops=100"))
		return;
	snprintf(want, sizeof(want), "%s:3: xfer-remote: expected ", upath);
	assert_one_line_error(&co, want, "with a unit", "got '130'");
	ck_assert_str_eq(co.out, "");

	write_user("cli", "sockets = 2\ncolour = red\n");
	futexsim(&co, "run", opt, "--ops=100");
	snprintf(want, sizeof(want), "%s:2: colour: expected a machine key",
		 upath);
	assert_one_line_error(&co, want, "xfer-2hop", "cache-model");
	ck_assert_str_eq(co.out, "");

	/* Named from a scenario file: the error is the preset's own line. */
	write_user("zero", "sockets = 0\n");
	snprintf(scn, sizeof(scn), "%s/s.scn", tmpdir);
	f = fopen(scn, "w");
	ck_assert_ptr_nonnull(f);
	fprintf(f, "ops = 100\nmachine = %s\n", upath);
	fclose(f);
	futexsim(&co, "run", scn);
	snprintf(want, sizeof(want), "%s:1: sockets: expected ", upath);
	assert_one_line_error(&co, want, "got '0'");
	remove_tmpdir();
}
END_TEST

Suite *presets_suite(void)
{
	Suite *s = suite_create("presets");
	TCase *tc = tcase_create("presets");

	tcase_add_checked_fixture(tc, use_shipped_dir, remove_tmpdir);
	tcase_add_test(tc, test_every_shipped_preset_has_its_documented_topology);
	tcase_add_test(tc, test_every_shipped_preset_has_sane_costs);
	tcase_add_test(tc, test_presets_differ_where_the_hardware_does);
	tcase_add_test(tc, test_every_preset_sets_every_documented_key_with_a_comment);
	tcase_add_test(tc, test_readme_lists_every_preset_with_its_topology);
	tcase_add_test(tc, test_list_machines_shows_every_preset_with_its_topology);
	tcase_add_test(tc, test_every_preset_runs_a_small_scenario);
	tcase_add_test(tc, test_an_edited_copy_loads_by_path);
	tcase_add_test(tc, test_a_printed_preset_reads_back_as_the_same_machine);
	tcase_add_test(tc, test_list_machine_prints_every_key_with_machine_set);
	tcase_add_test(tc, test_bad_values_in_a_preset_file_are_refused);
	tcase_add_test(tc, test_malformed_lines_in_a_preset_file_are_refused);
	tcase_add_test(tc, test_the_cli_names_the_preset_file_line_and_key);
	suite_add_tcase(s, tc);
	return s;
}

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tests/fuzz/fuzz_scenario.c - libFuzzer target: a scenario file, read and
 * resolved the way `futexsim run FILE` does before it runs anything, then
 * its echo (the "key = value" lines the report starts with) read again.
 *
 * Stage: tests (fuzzing); `make fuzz` (tests/fuzz/README.md).  Calls
 * sim/scenario/ (defaults, the file, resolution against the machine
 * preset and its machine-set), sim/report/progress.c's size check, and
 * the echoes of sim/scenario/scenario_echo.c.  Nothing that creates an
 * output file (json, trace, record, lock-stat), and no exec: where
 * futexsim would exec the program key's binary (sim_program_select(),
 * sim/program/program.c), the target takes the exec'd program's view
 * instead, the checks of sim_program_refuse_builtin_keys() there (a built-in
 * workload, or a key of one, is bad input), and goes on with the
 * workload program; the program's path itself is not looked at.
 *
 * Property: bad input is one line (tests/fuzz/fuzz.h); a scenario that
 * resolves echoes as a valid scenario file, and that file, resolved,
 * echoes to the same bytes.  FUTEXSIM_FUZZ_SELFTEST=1 breaks the second
 * echo on purpose (mk/fuzz-smoke.sh expects the abort).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "sim/report/progress.h"
#include "sim/scenario/preset.h"
#include "sim/scenario/scenario.h"
#include "sim/program/program.h"
#include "tests/fuzz/fuzz.h"

struct job {
	const char *path;
	struct sim_scenario s;
	char *echo, *json;
	size_t echo_len, json_len;
};

/* What `futexsim run PATH` does up to the run: cmd_run(), run_scenario()
 * of sim/cli/cli.c; then the echoes. */
static void resolve_and_echo(void *ctx)
{
	struct job *j = ctx;
	struct sim_scenario *s = &j->s;
	struct sim_preset preset;
	FILE *f;

	sim_scenario_defaults(s);
	sim_scenario_load(s, j->path);
	if (s->program[0])
		sim_program_refuse_builtin_keys(s);	/* the exec'd program's view */
	sim_preset_load_at(&preset, s->machine, &s->machine_at);
	sim_preset_apply_set(&preset, s->machine_set, &s->machine_set_at);
	sim_scenario_resolve(s, sim_preset_nr_cpus(&preset));
	sim_progress_check_size(s, s->threads < s->cpus ? s->threads : s->cpus);
	f = fuzz_mem(&j->echo, &j->echo_len);
	sim_scenario_print(s, f);
	fclose(f);
	f = fuzz_mem(&j->json, &j->json_len);
	sim_scenario_json(s, f);
	fclose(f);
}

static void job_free(struct job *j)
{
	free(j->echo);
	free(j->json);
	j->echo = j->json = NULL;
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	fuzz_init();
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct job one, two;
	int failed;

	fuzz_input(data, size);

	one.path = fuzz_file("in.scn", data, size);
	failed = fuzz_call(resolve_and_echo, &one);
	if (failed) {
		job_free(&one);
		return 0;
	}
	two.path = fuzz_file("echo.scn", one.echo, one.echo_len);
	if (fuzz_call(resolve_and_echo, &two)) {
		fuzz_finding("reread",
			     "the echo of a resolved scenario does not read back",
			     fuzz_message());
		job_free(&one);
		job_free(&two);
		return 0;
	}
	if (fuzz_selftest() && two.echo_len)
		two.echo[0] ^= 0x20;
	fuzz_mem_compare("echo", "the echo of the echo differs", one.echo,
			 one.echo_len, two.echo, two.echo_len);
	fuzz_mem_compare("echo", "the JSON echo of the echo differs", one.json,
			 one.json_len, two.json, two.json_len);
	job_free(&one);
	job_free(&two);
	return 0;
}

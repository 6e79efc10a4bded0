/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tests/fuzz/fuzz_machine.c - libFuzzer target: a machine preset file and a
 * machine-set list, through `futexsim list machine FILE
 * --machine-set=LIST` (sim_cmd_list(), sim/cli/cli_list.c), whose output
 * is then listed again as a machine file.
 *
 * Stage: tests (fuzzing); `make fuzz` (tests/fuzz/README.md).  Calls
 * sim/cli/cli_list.c, which calls sim/scenario/preset.c.
 *
 * Input: the preset file's bytes, then optionally a NUL and the
 * machine-set list (no NUL: no --machine-set option).
 *
 * Property: bad input is one line (tests/fuzz/fuzz.h); what `list
 * machine` prints is a machine file that lists again as the same keys
 * and values (every line after the first, the "# NAME..." comment).
 * FUTEXSIM_FUZZ_SELFTEST=1 breaks the second listing on purpose.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "sim/cli/cli.h"
#include "tests/fuzz/fuzz.h"

struct job {
	int argc;
	char *argv[4];
	char *out;
	size_t out_len;
};

/* `futexsim list machine ...`, its stdout in @j->out. */
static void list_machine(void *ctx)
{
	struct job *j = ctx;
	FILE *saved = stdout;

	fflush(stdout);
	stdout = fuzz_mem(&j->out, &j->out_len);
	sim_cmd_list(j->argc, j->argv);
	fclose(stdout);
	stdout = saved;
}

/* A failure longjmp()s past the restore of stdout in list_machine(). */
static int call(struct job *j)
{
	FILE *saved = stdout;
	int failed = fuzz_call(list_machine, j);

	if (stdout != saved) {
		fclose(stdout);
		stdout = saved;
	}
	return failed;
}

/* The text after the first line. */
static const char *body(const char *s, size_t len, size_t *n)
{
	const char *nl = memchr(s, '\n', len);

	nl = nl ? nl + 1 : s + len;
	*n = len - (size_t)(nl - s);
	return nl;
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	fuzz_init();
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static char machine[] = "machine";
	struct job one = { .argc = 2, .argv = { machine } };
	struct job two = { .argc = 2, .argv = { machine } };
	const uint8_t *nul = memchr(data, '\0', size);
	size_t file_len = nul ? (size_t)(nul - data) : size, n1, n2;
	char *set = NULL;
	const char *b1, *b2;

	fuzz_input(data, size);

	one.argv[1] = (char *)fuzz_file("in.machine", data, file_len);
	if (nul) {
		size_t n = size - file_len - 1;

		set = malloc(sizeof("--machine-set=") + n);
		memcpy(set, "--machine-set=", sizeof("--machine-set=") - 1);
		memcpy(set + sizeof("--machine-set=") - 1, nul + 1, n);
		set[sizeof("--machine-set=") - 1 + n] = '\0';
		one.argv[one.argc++] = set;
	}
	if (call(&one)) {
		free(one.out);
		free(set);
		return 0;
	}
	two.argv[1] = (char *)fuzz_file("again.machine", one.out, one.out_len);
	if (call(&two)) {
		fuzz_finding("reread",
			     "what 'list machine' prints does not list again",
			     fuzz_message());
		goto out;
	}
	if (fuzz_selftest() && two.out_len)
		two.out[two.out_len - 1] ^= 0x20;
	b1 = body(one.out, one.out_len, &n1);
	b2 = body(two.out, two.out_len, &n2);
	fuzz_mem_compare("echo", "'list machine' of its own output differs",
			 b1, n1, b2, n2);
out:
	free(one.out);
	free(two.out);
	free(set);
	return 0;
}

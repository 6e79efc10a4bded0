/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tests/fuzz/fuzz_build.c - libFuzzer target: the option parser of
 * `futexsim build` (parse_build() of sim/program/build.c), never the
 * compiler.
 *
 * Stage: tests (fuzzing); `make fuzz` (tests/fuzz/README.md).  This file
 * includes sim/program/build.c, so that it can call parse_build() (static
 * there): the target links without build.o (the Makefile's
 * FUZZ_OWN_build).
 *
 * Input: the arguments after "futexsim build", separated by NUL or
 * newline bytes (an empty one between two separators is an argument).
 *
 * Property: bad input is one line (tests/fuzz/fuzz.h); every argument
 * lands in at most one of the lists of struct build, each list within
 * its array, and OUT is an argument, the tail of one (-oOUT), or the
 * default made from the first source.  FUTEXSIM_FUZZ_SELFTEST=1 counts
 * one argument twice on purpose.
 */
#include "sim/program/build.c"

#include <stdint.h>

#include "tests/fuzz/fuzz.h"

struct job {
	int argc;
	char **argv;
	char *words, *end;		/* the arguments' bytes		*/
	struct build *b;
};

static void parse(void *ctx)
{
	struct job *j = ctx;

	parse_build(j->b, j->argc, j->argv);
}

static int is_word(const struct job *j, const char *p)
{
	return p >= j->words && p < j->end;
}

/* Each list's entries are arguments, and no argument is in two. */
static void check(const struct job *j)
{
	const struct build *b = j->b;
	const char *const *lists[] = { b->src, (const char *const *)b->cflags,
				       (const char *const *)b->link };
	const int counts[] = { b->nsrc, b->ncflags, b->nlink };
	int total = 0, i, k, n;

	for (k = 0; k < 3; k++) {
		if (counts[k] < 0 || counts[k] > BUILD_MAX_ARGS)
			fuzz_die("a list of struct build past its array", NULL);
		total += counts[k];
		for (i = 0; i < counts[k]; i++)
			if (!is_word(j, lists[k][i]))
				fuzz_die("a list entry that is no argument", NULL);
	}
	if (fuzz_selftest())
		total++;
	if (total > j->argc)
		fuzz_die("more list entries than arguments", NULL);
	for (i = 0; i < b->nlobj; i++)
		if (!is_word(j, b->lobj[i]))
			fuzz_die("an object that is no argument", NULL);
	if (!b->out || !*b->out)
		fuzz_finding("empty-out", "an empty OUT after a successful parse",
			     NULL);
	/* every argument at most once over the three lists */
	for (k = 0; k < 3; k++)
		for (i = 0; i < counts[k]; i++)
			for (int k2 = k; k2 < 3; k2++)
				for (n = (k2 == k ? i + 1 : 0); n < counts[k2]; n++)
					if (lists[k][i] == lists[k2][n])
						fuzz_die("an argument in two lists",
							 lists[k][i]);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	fuzz_init();
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct job j = { 0 };
	size_t i, n = 1;

	fuzz_input(data, size);

	if (size > 64 * 1024)
		return 0;
	for (i = 0; i < size; i++)
		n += data[i] == '\0' || data[i] == '\n';
	j.words = malloc(size + 1);
	j.end = j.words + size + 1;
	j.argv = calloc(n + 1, sizeof(*j.argv));
	j.b = calloc(1, sizeof(*j.b));
	if (!j.words || !j.argv || !j.b)
		fuzz_die("out of memory", NULL);
	memcpy(j.words, data, size);
	j.words[size] = '\0';
	j.argv[j.argc++] = j.words;
	for (i = 0; i < size; i++)
		if (j.words[i] == '\0' || j.words[i] == '\n') {
			j.words[i] = '\0';
			j.argv[j.argc++] = j.words + i + 1;
		}
	if (!fuzz_call(parse, &j)) {
		check(&j);
		if (!is_word(&j, j.b->out))
			free((char *)j.b->out);	/* default_out()'s copy */
	}
	free(j.b);
	free(j.argv);
	free(j.words);
	return 0;
}

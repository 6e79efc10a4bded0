/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tests/fuzz/fuzz.h - what the libFuzzer targets of tests/fuzz/ share: bad
 * input that gives control back, the parsers' stderr captured and held to
 * the one-line rule, scratch files, and the findings' abort().
 *
 * Stage: tests (fuzzing).  Implemented in tests/fuzz/fuzz.c; used by each
 * tests/fuzz/fuzz_*.c.  Built only by `make fuzz` (clang-14,
 * -fsanitize=fuzzer,address,undefined, in build/fuzz), linked with
 * -Wl,--wrap=fopen,--wrap=fclose,--wrap=getline,--wrap=malloc,--wrap=free
 * so that the streams a parser leaves open when bad input cuts it short
 * are closed, and its line buffers freed, before the next input.
 *
 * The contract of a target: bad input is fine (the parsers' exit-2 path,
 * here a longjmp() through sim_config_fail_hook, sim/scenario/config.h);
 * a crash, a sanitizer report, a bad-input message that is not one clean
 * line, or a broken round trip is a finding: fuzz_finding() prints it and
 * abort()s, which libFuzzer saves as a crash-* file.
 */
#ifndef TESTS_FUZZ_H
#define TESTS_FUZZ_H

#include <stddef.h>
#include <stdio.h>

/* fuzz_init - once, from LLVMFuzzerInitialize(): the scratch directory
 * (in /dev/shm, else $TMPDIR or /tmp; removed at exit), the fail hook, FUTEXSIM_MACHINES unset (presets are
 * those of the source tree).  FUTEXSIM_FUZZ_VERBOSE set in the
 * environment: each bad-input line is printed too (to see why a seed
 * does not get past the parser). */
void fuzz_init(void);

/* fuzz_file - write @n bytes of @data to the scratch file @name.
 * Return: its path (static storage, one per name until the next call). */
const char *fuzz_file(const char *name, const void *data, size_t n);

/* fuzz_call - run @fn(@ctx) with stderr captured and bad input caught.
 * Return: 0 if @fn returned; -1 if it failed through sim_config_fail()
 * (its message is fuzz_message()).  Either way, streams @fn opened and
 * left open are closed.  A failure message that is not exactly one line
 * "futexsim: ...\n" is a finding "lines", one with control characters
 * in it a finding "ctrl". */
int fuzz_call(void (*fn)(void *ctx), void *ctx);
/* fuzz_message - what the last fuzz_call() printed on stderr. */
const char *fuzz_message(void);

/* fuzz_die - print "fuzz: TARGET: WHAT" and @detail (may be NULL) on the
 * real stderr, then abort(). */
void fuzz_die(const char *what, const char *detail) __attribute__((noreturn));
/* fuzz_input - the input being run (each target's first call). */
void fuzz_input(const void *data, size_t n);
/* fuzz_finding - a finding of class @tag (one word: "ctrl", "lines",
 * "echo", "reread", ...): fuzz_die(), unless @tag is in the
 * comma-separated FUTEXSIM_FUZZ_IGNORE of the environment (a known
 * finding, so that a long run looks past it): then it returns, and the
 * first input of each such @tag is reported on stderr and saved as
 * ./known-TAG. */
void fuzz_finding(const char *tag, const char *what, const char *detail);

/* fuzz_selftest - FUTEXSIM_FUZZ_SELFTEST=1 in the environment: the
 * targets break their own round-trip comparison (the negative control
 * of mk/fuzz-smoke.sh). */
int fuzz_selftest(void);

/* fuzz_mem - an in-memory stream, its text in *@buf, *@len after
 * fclose(); fuzz_mem_compare - two such texts must be the same bytes, or
 * it is finding @tag, @what, shown with both. */
FILE *fuzz_mem(char **buf, size_t *len);
void fuzz_mem_compare(const char *tag, const char *what, const char *a,
		      size_t alen, const char *b, size_t blen);

#endif /* TESTS_FUZZ_H */

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tests/build_scratch.h - a scratch directory for the tests that write
 * and build user programs (tests/test_build.c, tests/test_hostcalls.c):
 * the sources, the binaries and any replay file of a failed run go
 * there, in /tmp, and are removed with it, so no test leaves a file in
 * the tree or in the directory the tests run in.
 *
 * Stage: tests.  Calls libc and Check only.  Static functions: each test
 * file gets its own copy.
 */
#ifndef TESTS_BUILD_SCRATCH_H
#define TESTS_BUILD_SCRATCH_H

#include <check.h>
#include <dirent.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static char scratch__dir[64], scratch__back[PATH_MAX];

/* scratch_enter - make a fresh directory in /tmp and chdir() into it. */
static __attribute__((unused)) void scratch_enter(void)
{
	snprintf(scratch__dir, sizeof(scratch__dir), "/tmp/futexsim-test-XXXXXX");
	ck_assert_ptr_nonnull(getcwd(scratch__back, sizeof(scratch__back)));
	ck_assert_ptr_nonnull(mkdtemp(scratch__dir));
	ck_assert_int_eq(chdir(scratch__dir), 0);
}

/* scratch_write - the file @name (in the scratch directory) holds @text. */
static __attribute__((unused)) void scratch_write(const char *name,
						  const char *text)
{
	FILE *f = fopen(name, "w");

	ck_assert_ptr_nonnull(f);
	fputs(text, f);
	ck_assert_int_eq(fclose(f), 0);
}

/* scratch_leave - chdir() back and remove the directory and its files
 * (a test that made a subdirectory removes it itself). */
static __attribute__((unused)) void scratch_leave(void)
{
	DIR *d = opendir(".");
	struct dirent *e;

	ck_assert_ptr_nonnull(d);
	while ((e = readdir(d)))
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
			unlink(e->d_name);
	closedir(d);
	ck_assert_int_eq(chdir(scratch__back), 0);
	ck_assert_int_eq(rmdir(scratch__dir), 0);
}

#endif /* TESTS_BUILD_SCRATCH_H */

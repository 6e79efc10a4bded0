/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tests/test_series.c - the kernel series a build is over (6.1 or 6.12):
 * `futexsim --version` names the one the kernel TUs were compiled from,
 * and a program's futex2 system calls (tests/programs/futex2.c) work on
 * 6.12 and are ENOSYS on 6.1, as the two kernels answer.  make check runs
 * this suite on both builds.
 *
 * Stage: tests.  The program is built in a scratch directory
 * (tests/build_scratch.h).
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/machine/hooks.h"
#include "tests/build_scratch.h"
#include "tests/run_child.h"
#include "version.h"

START_TEST(test_version_names_the_series_the_kernel_was_compiled_from)
{
	struct child_out *o = malloc(sizeof(*o));
	const char *argv[] = { "futexsim", "--version", NULL };
	char want[64];

	ck_assert_ptr_nonnull(o);
	/* the Makefile's series and the one the kernel TUs carry agree */
	ck_assert_str_eq(FUTEXSIM_KERNEL_SERIES, ksim_kernel_series());
	if (run_futexsim(o, argv)) {
		ck_assert_int_eq(o->status, 0);
		snprintf(want, sizeof(want), "(kernel %s.", ksim_kernel_series());
		ck_assert_msg(strstr(o->out, want), "%s: no %s", o->out, want);
		snprintf(want, sizeof(want), "linux-source-%s ",
			 ksim_kernel_series());
		ck_assert_msg(strstr(o->out, want) || strstr(o->out, "(tree "),
			      "%s: neither %s nor a tree", o->out, want);
	}
	free(o);
}
END_TEST

START_TEST(test_futex2_calls_work_on_6_12_and_are_enosys_on_6_1)
{
	static const char *const on_612[] = {
		"futex_wait on a changed word: -1 Resource temporarily unavailable\n",
		"futex_requeue: 1\n", "futex_wake on the old word: 0\n",
		"futex_wait: 0 \n", "futex_wake on the new word: 1\n", NULL
	};
	const char *build[] = { "futexsim", "build",
		FUTEXSIM_SOURCE_DIR "/tests/programs/futex2.c", "-o", "futex2",
		NULL };
	const char *run[] = { "futexsim", "run", "--program=./futex2",
			      "--seed=2", NULL };
	struct child_out *o = malloc(sizeof(*o));
	int is_612 = !strcmp(ksim_kernel_series(), "6.12");

	ck_assert_ptr_nonnull(o);
	scratch_enter();
	if (!run_futexsim(o, build))
		goto out;
	ck_assert_msg(o->status == 0, "build failed: %s", o->err);
	run_futexsim(o, run);
	ck_assert_msg(o->status == 0, "exit %d: %s%s", o->status, o->out,
		      o->err);
	if (is_612) {
		for (int i = 0; on_612[i]; i++)
			ck_assert_msg(strstr(o->out, on_612[i]), "no %s in %s",
				      on_612[i], o->out);
		ck_assert_ptr_null(strstr(o->out, "not implemented"));
	} else {
		ck_assert_msg(strstr(o->out, "futex_wait on a changed word: -1 "
				     "Function not implemented\n"), "%s", o->out);
		ck_assert_ptr_null(strstr(o->out, "futex_requeue"));
	}
out:
	scratch_leave();
	free(o);
}
END_TEST

Suite *series_suite(void)
{
	return one_case_suite("series", 120, (const TTest *const[]){
		test_version_names_the_series_the_kernel_was_compiled_from,
		test_futex2_calls_work_on_6_12_and_are_enosys_on_6_1,
		NULL });
}

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tests/test_build.c - whole user programs through the futexsim binary of
 * $FUTEXSIM (set by make check): `futexsim build` compiles
 * workloads/examples/lostwake.c, `futexsim run --program` runs it (a seed
 * that hangs, the same bytes on a second run), and a call the user-space
 * layer does not simulate stops the build with one line.
 *
 * Stage: tests.  The layer's functions one at a time are tests/test_uapi.c.
 */
#include <check.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "tests/run_child.h"
#include "version.h"

static int build_example(char *out, size_t len)
{
	const char *argv[] = { "futexsim", "build",
		FUTEXSIM_SOURCE_DIR "/workloads/examples/lostwake.c", "-o", out,
		NULL };
	struct child_out o;

	snprintf(out, len, "uapi-lostwake");
	if (!run_futexsim(&o, argv))
		return 0;
	ck_assert_msg(o.status == 0, "build failed: %s", o.err);
	return 1;
}

static void run_example(struct child_out *o, const char *prog,
			const char *args, const char *seed)
{
	char a[128], p[128], s[64];
	const char *argv[] = { "futexsim", "run", p, a, s, NULL };

	snprintf(p, sizeof(p), "--program=./%s", prog);
	snprintf(a, sizeof(a), "--args=%s", args);
	snprintf(s, sizeof(s), "--seed=%s", seed);
	run_futexsim(o, argv);
}

START_TEST(test_the_example_hangs_on_a_seed_and_the_run_repeats_byte_for_byte)
{
	static struct child_out a, b;
	char prog[64];

	char seed[16];
	int s;

	if (!build_example(prog, sizeof(prog)))
		return;
	/* over seeds until it hangs (docs/programs.md: seed 2) */
	for (s = 1; s <= 300; s++) {
		snprintf(seed, sizeof(seed), "%d", s);
		run_example(&a, prog, "buggy 3 20 50", seed);
		if (a.status)
			break;
		ck_assert_ptr_nonnull(strstr(a.out, "counter 60\n"));
	}
	ck_assert_int_eq(a.status, 3);
	ck_assert_ptr_nonnull(strstr(a.err, "DEADLOCK"));
	ck_assert_ptr_nonnull(strstr(a.err, "mutex_lock ("));
	ck_assert_ptr_nonnull(strstr(a.err, "examples/lostwake.c:"));
	run_example(&b, prog, "buggy 3 20 50", seed);
	ck_assert_str_eq(a.out, b.out);
	ck_assert_str_eq(a.err, b.err);
	run_example(&a, prog, "fixed 3 20 50", seed);
	ck_assert_int_eq(a.status, 0);
	ck_assert_ptr_nonnull(strstr(a.out, "fixed: 3 threads x 20 iterations, counter 60\n"));
	ck_assert_ptr_nonnull(strstr(a.out, "exit status 0, 4 threads"));
	run_example(&b, prog, "fixed 3 20 50", seed);
	ck_assert_str_eq(a.out, b.out);
	/* a non-zero exit status of the program: in the report, status 6 */
	run_example(&a, prog, "nonsense", "1");
	ck_assert_int_eq(a.status, 6);
	ck_assert_ptr_nonnull(strstr(a.err, "usage: ./uapi-lostwake [buggy|fixed|pthread]"));
	ck_assert_ptr_nonnull(strstr(a.out, "exit status 2, 1 thread\n"));
}
END_TEST

START_TEST(test_build_refuses_a_call_the_layer_does_not_simulate)
{
	const char *argv[] = { "futexsim", "build", "uapi-rw.c", "-o",
			       "uapi-rw", NULL };
	struct child_out o;
	FILE *f = fopen("uapi-rw.c", "w");

	ck_assert_ptr_nonnull(f);
	fputs("#include <pthread.h>\n"
	      "static pthread_rwlock_t rw = PTHREAD_RWLOCK_INITIALIZER;\n"
	      "int main(void) { return pthread_rwlock_timedrdlock(&rw, 0); }\n", f);
	fclose(f);
	if (!run_futexsim(&o, argv)) {
		unlink("uapi-rw.c");
		return;
	}
	unlink("uapi-rw.c");
	ck_assert_int_eq(o.status, 2);
	ck_assert_ptr_nonnull(strstr(o.err, "futexsim build: uapi-rw.c calls pthread_rwlock_timedrdlock(), which futexsim does not simulate"));
	ck_assert_int_ne(access("uapi-rw", F_OK), 0);
}
END_TEST

Suite *build_suite(void)
{
	return one_case_suite("build", 120, (const TTest *const[]){
		test_the_example_hangs_on_a_seed_and_the_run_repeats_byte_for_byte,
		test_build_refuses_a_call_the_layer_does_not_simulate,
		NULL });
}

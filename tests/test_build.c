/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tests/test_build.c - whole user programs through the futexsim binary of
 * $FUTEXSIM (set by make check): `futexsim build` compiles
 * workloads/examples/lostwake.c, `futexsim run --program` runs it (a seed
 * that hangs, the same bytes on a second run), and a call the user-space
 * layer does not simulate stops the build with one line; the compiler's
 * options, separated or joined, reach the compiler or the link, and one
 * missing its argument is bad input.  Everything is built in a scratch
 * directory (tests/build_scratch.h).
 *
 * Stage: tests.  The layer's functions one at a time are tests/test_uapi.c.
 */
#include <check.h>
#include <stdio.h>
#include <string.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tests/build_scratch.h"
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

	scratch_enter();
	if (!build_example(prog, sizeof(prog))) {
		scratch_leave();
		return;
	}
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
	/* each sleeper's stack starts where it sleeps, in the kernel, not in
	 * the machine's dispatch, and ends in the program's thread */
	ck_assert_msg(!strstr(a.err, "(sim/machine/"), "%s", a.err);
	for (const char *p = a.err; (p = strstr(p, " SLEEPING on CPU ")); p++)
		ck_assert_msg(!strncmp(strchr(p, '\n'), "\n    futex_wait_queue (", 23),
			      "%s", a.err);
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
	scratch_leave();
}
END_TEST

START_TEST(test_build_refuses_a_call_the_layer_does_not_simulate)
{
	const char *argv[] = { "futexsim", "build", "uapi-rw.c", "-o",
			       "uapi-rw", NULL };
	struct child_out o;

	scratch_enter();
	scratch_write("uapi-rw.c", "#include <pthread.h>\n"
		      "int main(void) { return pthread_setname_np(pthread_self(), \"x\"); }\n");
	if (run_futexsim(&o, argv)) {
		ck_assert_int_eq(o.status, 2);
		ck_assert_ptr_nonnull(strstr(o.err, "futexsim build: uapi-rw.c calls pthread_setname_np(), which futexsim does not simulate"));
		ck_assert_int_ne(access("uapi-rw", F_OK), 0);
	}
	scratch_leave();
}
END_TEST

/* A program that prints what its options made of it: a macro of -D
 * (separated and joined), headers found through -I, -isystem, -iquote
 * and -idirafter, a file of -include and one of -imacros, a macro -U
 * removes, the -x language; sqrt() from the -l library. */
static const char opts_prog[] =
	"#include <math.h>\n"
	"#include \"q.h\"\n"
	"#include <s.h>\n"
	"#include <a.h>\n"
	"#include <i.h>\n"
	"#ifdef GONE\n#error -U did not reach the compiler\n#endif\n"
	"volatile double two = 4.0;\n"
	"int main(void) { printf(\"%d %d %d %d %d %d %d %d %.0f\\n\", X, Y, Q, S, A, I, INC, MAC,"
	" sqrt(two)); return 0; }\n";

static void opts_files(void)
{
	ck_assert_int_eq(mkdir("i", 0755) | mkdir("s", 0755) |
			 mkdir("q", 0755) | mkdir("a", 0755), 0);
	scratch_write("i/i.h", "#define I 4\n");
	scratch_write("s/s.h", "#define S 5\n");
	scratch_write("q/q.h", "#define Q 6\n");
	scratch_write("a/a.h", "#define A 7\n");
	scratch_write("inc.h", "#define INC 8\n");
	scratch_write("mac.h", "#define MAC 9\n");
	scratch_write("prog.c", opts_prog);
}

static void opts_rmdirs(void)
{
	static const char *const files[] = { "i/i.h", "s/s.h", "q/q.h", "a/a.h" };

	for (int k = 0; k < 4; k++)
		unlink(files[k]);
	rmdir("i");
	rmdir("s");
	rmdir("q");
	rmdir("a");
}

/* Build with @opts (NULL-ended), run the result: its first line. */
static void build_and_run(const char *const *opts, const char *out,
			  const char *want)
{
	const char *argv[40] = { "futexsim", "build", "prog.c" };
	const char *run[] = { "futexsim", "run", NULL, NULL };
	char prog[64];
	static struct child_out o;
	int n = 3;

	while (*opts)
		argv[n++] = *opts++;
	argv[n] = NULL;
	ck_assert(run_futexsim(&o, argv));
	ck_assert_msg(o.status == 0, "build failed (%d): %s", o.status, o.err);
	snprintf(prog, sizeof(prog), "--program=./%s", out);
	run[2] = prog;
	run_futexsim(&o, run);
	ck_assert_msg(o.status == 0, "run failed (%d): %s", o.status, o.err);
	ck_assert_msg(!strncmp(o.out, want, strlen(want)), "got [%.80s], not [%s]",
		      o.out, want);
}

START_TEST(test_build_takes_the_compilers_options_separated_and_joined)
{
	static const char *const separated[] = {
		"-D", "X=1", "-D", "Y=2", "-D", "GONE", "-U", "GONE",
		"-I", "i", "-isystem", "s", "-iquote", "q", "-idirafter", "a",
		"-include", "inc.h", "-imacros", "mac.h", "-x", "c",
		"-MD", "-MF", "deps", "-MT", "target", "-MQ", "other",
		"-L", ".", "-l", "m", "-Xlinker", "--no-undefined",
		"-Wl,-z,now", "-o", "sep", NULL };
	static const char *const joined[] = {
		"-DX=3", "-DY=4", "-DGONE", "-UGONE", "-Ii", "-isystems",
		"-iquoteq", "-idiraftera", "-include", "inc.h", "-imacros",
		"mac.h", "-xc", "-MD", "-MFdeps", "-MTtarget", "-MQother",
		"-L.", "-lm", "-ojoined", NULL };
	char *deps;

	if (!getenv("FUTEXSIM"))
		return;
	scratch_enter();
	opts_files();
	build_and_run(separated, "sep", "1 2 6 5 7 4 8 9 2\n");
	deps = slurp("deps", NULL);
	ck_assert_msg(strstr(deps, "target other:"), "-MT/-MQ missing from: %s", deps);
	free(deps);
	build_and_run(joined, "joined", "3 4 6 5 7 4 8 9 2\n");
	opts_rmdirs();
	scratch_leave();
}
END_TEST

/* Negative control: each option that takes an argument, last on the
 * command line without it, is bad input naming it. */
START_TEST(test_build_refuses_an_option_missing_its_argument)
{
	static const char *const opts[] = { "-o", "-I", "-D", "-U", "-include",
		"-imacros", "-isystem", "-iquote", "-idirafter", "-x", "-MF",
		"-MT", "-MQ", "-L", "-l", "-Xlinker", NULL };
	static struct child_out o;
	char want[64];

	for (int k = 0; opts[k]; k++) {
		const char *argv[] = { "futexsim", "build", "prog.c", opts[k], NULL };

		if (!run_futexsim(&o, argv))
			return;
		snprintf(want, sizeof(want), "expected %s ", opts[k]);
		assert_one_line_error(&o, want, "(the option's argument)");
	}
	/* an empty OUT, separated or joined */
	{
		const char *argv[] = { "futexsim", "build", "prog.c", "-o", "", NULL };

		run_futexsim(&o, argv);
		assert_one_line_error(&o, "-o OUT with a file name");
	}
	/* a C++ source is named as one, not taken for an object */
	{
		const char *argv[] = { "futexsim", "build", "prog.c", "pool.cpp", NULL };

		run_futexsim(&o, argv);
		assert_one_line_error(&o, "expected C sources (SOURCE.c): C++ is not simulated",
				      "got 'pool.cpp'");
	}
}
END_TEST

/* `futexsim build` @argv in the scratch directory: it must succeed; its
 * output in *@o (stderr: the build's notes). */
static void build_ok(struct child_out *o, const char **argv)
{
	ck_assert(run_futexsim(o, argv));
	ck_assert_msg(o->status == 0, "build failed (%d): %s", o->status, o->err);
}

/* A header with gcc attributes that name renamed functions, struct
 * members named like them (read is refused, write simulated), and the
 * address of malloc: the renaming leaves the names alone, and every way
 * in reaches the layer. */
static const char attr_h[] =
	"#include <stdarg.h>\n#include <stddef.h>\n"
	"int logf_(const char *, ...) __attribute__((format(printf, 1, 2)));\n"
	"void *mk(size_t) __attribute__((malloc));\n"
	"struct sink { int (*write)(int); int (*read)(void); long time; };\n";
static const char attr_c[] =
	"#include <stdio.h>\n#include <stdlib.h>\n#include \"attr.h\"\n"
	"int logf_(const char *f, ...)\n{\n\tva_list ap;\n\tint r;\n\n"
	"\tva_start(ap, f);\n\tr = vprintf(f, ap);\n\tva_end(ap);\n\treturn r;\n}\n"
	"void *mk(size_t n) { return malloc(n); }\n"
	"static int put(int c) { return putchar(c); }\n"
	"int main(void)\n{\n\tvoid *(*pm)(size_t) = &malloc;\n"
	"\tstruct sink s = { put, 0, 5 };\n\n"
	"\tprintf(\"hello\\n\");\n"
	"\tlogf_(\"%d %p %p\\n\", (int)s.time, mk(8), pm(8));\n"
	"\tif (s.read)\n\t\treturn s.read();\n\ts.write('!');\n\tfprintf(stdout, \"\\n\");\n\texit(4);\n}\n";

START_TEST(test_attributes_naming_printf_and_malloc_build_and_reach_the_layer)
{
	const char *build[] = { "futexsim", "build", "attr.c", "-Werror",
				"-Wall", "-o", "attr", NULL };
	const char *run[] = { "futexsim", "run", "--program=./attr", NULL };
	static struct child_out o;

	if (!getenv("FUTEXSIM"))
		return;
	scratch_enter();
	scratch_write("attr.h", attr_h);
	scratch_write("attr.c", attr_c);
	build_ok(&o, build);
	run_futexsim(&o, run);
	/* the output is captured (hello through puts()), both blocks are
	 * in the arena (0x2000...), exit() is the program's end */
	ck_assert_int_eq(o.status, 6);
	ck_assert_msg(!strncmp(o.out, "hello\n5 0x2000", 14), "got: %.200s", o.out);
	ck_assert_ptr_nonnull(strstr(o.out, " 0x2000"));
	ck_assert_ptr_nonnull(strstr(o.out, "!\n# resolved scenario"));
	ck_assert_ptr_nonnull(strstr(o.out, "exit status 4, 1 thread"));
	scratch_leave();
}
END_TEST

static int starts(const char *s, const char *prefix)
{
	return !strncmp(s, prefix, strlen(prefix));
}

/* A program that moves its streams: a constructor points stderr at
 * stdout, main() puts it back and points stdout at stderr. */
static const char streams_c[] =
	"#include <stdio.h>\n"
	"static FILE *err;\n"
	"static void __attribute__((constructor)) keep(void)\n"
	"{\n\terr = stderr;\n\tstderr = stdout;\n}\n"
	"int main(void)\n{\n"
	"\tfprintf(stderr, \"A: to stderr, which is stdout\\n\");\n"
	"\tstderr = err;\n\tstdout = stderr;\n"
	"\tprintf(\"B: printf to stdout, which is stderr\\n\");\n"
	"\tputs(\"C: puts too\");\n\treturn 0;\n}\n";

/* The program's stdout and stderr are its own: its lines go where it
 * pointed them, in every run from its start (the constructor's A on
 * stdout, B and C on stderr), and the simulator's report and explore's
 * summary stay on stdout. */
START_TEST(test_a_program_that_assigns_stdout_moves_its_lines_not_the_report)
{
	const char *build[] = { "futexsim", "build", "streams.c", "-o",
				"streams", NULL };
	const char *run[] = { "futexsim", "run", "--program=./streams", NULL };
	const char *explore[] = { "futexsim", "explore", "--program=./streams",
				  "--runs=3", NULL };
	static struct child_out o;

	if (!getenv("FUTEXSIM"))
		return;
	scratch_enter();
	scratch_write("streams.c", streams_c);
	build_ok(&o, build);
	run_futexsim(&o, run);
	ck_assert_msg(o.status == 0, "run: status %d: %.2000s", o.status, o.err);
	ck_assert_msg(starts(o.out, "A: to stderr, which is stdout\n# resolved scenario"),
		      "stdout: %.300s", o.out);
	ck_assert_ptr_nonnull(strstr(o.out, "exit status 0, 1 thread"));
	ck_assert_str_eq(o.err, "B: printf to stdout, which is stderr\nC: puts too\n");
	run_futexsim(&o, explore);
	ck_assert_msg(o.status == 0, "explore: status %d: %.2000s", o.status, o.err);
	ck_assert_msg(starts(o.out, "explore: no oracle fired in 3 runs"),
		      "stdout: %.300s", o.out);
	ck_assert_str_eq(o.err, "");
	scratch_leave();
}
END_TEST

/* __thread variables: the build names each one the program defines,
 * since the simulation's threads share it, and the run's report notes
 * it; an extern one (defined elsewhere) and a program without any get
 * no line. */
static const char tls_c[] =
	"extern __thread int elsewhere;\n"
	"__thread int counter;\nstatic __thread long seen;\n"
	"int main(void)\n{\n\treturn counter + (int)seen++;\n}\n";
static const char no_tls_c[] =
	"static int counter;\nint main(void)\n{\n\treturn counter;\n}\n";

START_TEST(test_build_names_each_thread_local_variable)
{
	const char *build_tls[] = { "futexsim", "build", "tls.c", "-o", "tls", NULL };
	const char *build_none[] = { "futexsim", "build", "none.c", "-o", "none", NULL };
	const char *line = "futexsim build: tls.c: __thread variable %s is one variable shared by all the program's threads in the simulation, not one each (docs/programs.md)\n";
	static struct child_out o;
	char want[256];

	if (!getenv("FUTEXSIM"))
		return;
	scratch_enter();
	scratch_write("tls.c", tls_c);
	scratch_write("none.c", no_tls_c);
	build_ok(&o, build_tls);
	snprintf(want, sizeof(want), line, "counter");
	ck_assert_msg(strstr(o.err, want), "stderr: %s", o.err);
	snprintf(want, sizeof(want), line, "seen");
	ck_assert_msg(strstr(o.err, want), "stderr: %s", o.err);
	ck_assert_ptr_null(strstr(o.err, "elsewhere"));
	/* the run's report says it again, under the program's line */
	run_program("./tls", (char *const[]){ "./tls", "run", NULL }, &o);
	ck_assert_msg(o.status == 0, "status %d: %s", o.status, o.err);
	ck_assert_ptr_nonnull(strstr(o.out, "exit status 0, 1 thread\nnote: the program's __thread variables are one variable shared by all its threads in the simulation, not one each"));
	build_ok(&o, build_none);
	ck_assert_ptr_null(strstr(o.err, "__thread"));
	run_program("./none", (char *const[]){ "./none", "run", NULL }, &o);
	ck_assert_msg(o.status == 0, "status %d: %s", o.status, o.err);
	ck_assert_ptr_nonnull(strstr(o.out, "exit status 0, 1 thread\n"));
	ck_assert_ptr_null(strstr(o.out, "__thread"));
	scratch_leave();
}
END_TEST

/* A program's binary alone runs the program once, as `./OUT run` does;
 * futexsim's own binary alone still asks for a command (test_cli.c). */
START_TEST(test_a_programs_binary_alone_runs_the_program)
{
	const char *build[] = { "futexsim", "build", "none.c", "-o", "none", NULL };
	static struct child_out run, alone;

	if (!getenv("FUTEXSIM"))
		return;
	scratch_enter();
	scratch_write("none.c", no_tls_c);
	build_ok(&run, build);
	run_program("./none", (char *const[]){ "./none", "run", NULL }, &run);
	ck_assert_msg(run.status == 0, "status %d: %s", run.status, run.err);
	run_program("./none", (char *const[]){ "./none", NULL }, &alone);
	ck_assert_msg(alone.status == 0, "status %d: %s", alone.status, alone.err);
	ck_assert_ptr_nonnull(strstr(alone.out, "exit status 0, 1 thread\n"));
	ck_assert_str_eq(alone.out, run.out);
	ck_assert_str_eq(alone.err, run.err);
	scratch_leave();
}
END_TEST

Suite *build_suite(void)
{
	return one_case_suite("build", 120, (const TTest *const[]){
		test_the_example_hangs_on_a_seed_and_the_run_repeats_byte_for_byte,
		test_build_refuses_a_call_the_layer_does_not_simulate,
		test_build_takes_the_compilers_options_separated_and_joined,
		test_build_refuses_an_option_missing_its_argument,
		test_attributes_naming_printf_and_malloc_build_and_reach_the_layer,
		test_a_program_that_assigns_stdout_moves_its_lines_not_the_report,
		test_build_names_each_thread_local_variable,
		test_a_programs_binary_alone_runs_the_program,
		NULL });
}

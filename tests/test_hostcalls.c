/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tests/test_hostcalls.c - suite "hostcalls": no call of a user program
 * reaches the host.  A table of host calls, each written into a small
 * program and put through `futexsim build` and `futexsim run` (the binary
 * of $FUTEXSIM): each is refused at build time naming it (exit 2), or
 * builds and ends the run with a failure report naming it (exit 3), or
 * is simulated: the same seed gives the same output twice and, for the
 * random numbers, another seed another output.  The negative control is
 * a program of allowed calls only, which builds and runs; a program the
 * table says is refused that built would fail its row.  The table is
 * printed, and docs/programs.md ("What is refused") must hold each of
 * its rows, word for word.
 *
 * Stage: tests, whole programs.  Everything is built in a scratch
 * directory (tests/build_scratch.h).
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/build_scratch.h"
#include "tests/run_child.h"
#include "version.h"

#define PROGRAMS_MD	FUTEXSIM_SOURCE_DIR "/docs/programs.md"

enum outcome { REFUSED, RUNTIME, FAILURE, SIMULATED };

static const struct hostcall {
	const char *call;	/* as docs/programs.md names it		*/
	const char *body;	/* main()'s statements			*/
	enum outcome outcome;
	const char *needle;	/* REFUSED: the name in "calls NAME()" or
				 * "executes NAME"; RUNTIME: the report's
				 * "unsupported call in the program: ..."
				 * start; FAILURE: in the report;
				 * SIMULATED: in the output		*/
	int by_seed;		/* SIMULATED: another seed, another output */
	const char *what;	/* SIMULATED: from what			*/
} calls[] = {
	{ "mkstemp()", "char n[] = \"/tmp/xXXXXXX\"; return mkstemp(n);", REFUSED, "mkstemp" },
	{ "tmpfile()", "return tmpfile() != 0;", REFUSED, "tmpfile" },
	{ "rename()", "return rename(\"/tmp/x\", \"/tmp/y\");", REFUSED, "rename" },
	{ "remove(), unlink()", "int fd = open(\"f\", O_CREAT | O_RDWR, 0600); close(fd); int a = unlink(\"f\"); int b = remove(\"f\"); printf(\"r %d %d\\n\", a, b);", SIMULATED, "r 0 -1\n", 0, "a name in the run's table of the files the program created" },
	{ "close()", "int e = close(3) == -1 && errno == EBADF; printf(\"c %d %d\\n\", e, close(open(\"f\", O_CREAT | O_RDWR, 0600)));", SIMULATED, "c 1 0\n", 0, "the descriptors of the files the program created (EBADF for any other)" },
	{ "fclose()", "return fclose(stdout);", REFUSED, "fclose" },
	{ "fread()", "char b[4]; return (int)fread(b, 1, 4, stdin);", REFUSED, "fread" },
	{ "dlopen()", "return dlopen(\"libm.so.6\", RTLD_NOW) != 0;", REFUSED, "dlopen" },
	{ "setenv()", "return setenv(\"A\", \"b\", 1);", REFUSED, "setenv" },
	{ "chdir()", "return chdir(\"/\");", REFUSED, "chdir" },
	{ "localtime()", "time_t t = 0; return localtime(&t) != 0;", REFUSED, "localtime" },
	{ "times()", "struct tms t; return (int)times(&t);", REFUSED, "times" },
	{ "getrusage()", "struct rusage u; return getrusage(RUSAGE_SELF, &u);", REFUSED, "getrusage" },
	{ "asm(\"rdtsc\")", "unsigned int lo, hi; __asm__ volatile(\"rdtsc\" : \"=a\"(lo), \"=d\"(hi)); return (int)(lo ^ hi);", REFUSED, "rdtsc" },
	{ "asm(\"syscall\")", "long r; __asm__ volatile(\"syscall\" : \"=a\"(r) : \"a\"(39L) : \"rcx\", \"r11\", \"memory\"); return (int)r;", REFUSED, "syscall" },
	{ "asm(\"cpuid\")", "unsigned int a = 0, b, c = 0, d; __asm__ volatile(\"cpuid\" : \"+a\"(a), \"=b\"(b), \"+c\"(c), \"=d\"(d)); return (int)(a ^ b ^ c ^ d);", REFUSED, "cpuid" },
	{ "open()", "return open(\"/tmp/x\", O_RDONLY);", RUNTIME, "open()" },
	{ "fopen()", "return fopen(\"/tmp/x\", \"r\") != 0;", RUNTIME, "fopen()" },
	{ "read()", "char b[4]; return (int)read(0, b, 4);", RUNTIME, "read()" },
	{ "socket()", "return socket(AF_INET, SOCK_STREAM, 0);", RUNTIME, "socket()" },
	{ "fork()", "return fork();", RUNTIME, "fork()" },
	{ "fork through its address", "pid_t (*f)(void) = fork; return f();", RUNTIME, "fork()" },
	{ "signal(), raise()", "sigset_t s; sigemptyset(&s); sigaddset(&s, SIGUSR1); sigprocmask(SIG_BLOCK, &s, 0); signal(SIGUSR1, SIG_DFL); raise(SIGUSR1); sigemptyset(&s); sigpending(&s); printf(\"s %d\\n\", sigismember(&s, SIGUSR1));", SIMULATED, "s 1\n", 0, "the simulated process's signals, delivered by the layer" },
	{ "sigaltstack()", "stack_t s = { 0 }; return sigaltstack(&s, 0);", REFUSED, "sigaltstack" },
	{ "mmap() of a file it created", "int fd = open(\"f\", O_RDWR | O_CREAT, 0600); ftruncate(fd, 4096); int *p = mmap(0, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0); int *q = mmap(0, 4096, PROT_READ, MAP_SHARED, fd, 0); *p = 7; printf(\"m %d\\n\", *q);", SIMULATED, "m 7\n", 0, "the file in simulated memory, every mapping of it one memory" },
	{ "mmap() of a file", "return mmap(0, 4096, PROT_READ, MAP_SHARED, 3, 0) == MAP_FAILED;", RUNTIME, "mmap()" },
	{ "assert()", "assert(argc > 5);", FAILURE, "CRASH: task 100 \"main\": assertion failed in the program: argc > 5 (prog.c:18, main())" },
	{ "getrandom()", "unsigned int v[2]; getrandom(v, sizeof(v), 0); printf(\"r %08x%08x\\n\", v[0], v[1]);", SIMULATED, "r ", 1, "the run's PRNG" },
	{ "getentropy()", "unsigned int v[2]; getentropy(v, sizeof(v)); printf(\"r %08x%08x\\n\", v[0], v[1]);", SIMULATED, "r ", 1, "the run's PRNG" },
	{ "arc4random()", "printf(\"r %08x %u\\n\", arc4random(), arc4random_uniform(1000));", SIMULATED, "r ", 1, "the run's PRNG" },
	{ "rand()", "int a = rand(); printf(\"r %d %d\\n\", a, rand());", SIMULATED, "r ", 1, "the program's stream, seeded from the run's seed" },
	{ "srand()", "srand(7); int a = rand(); srand(7); printf(\"r %d\\n\", a == rand());", SIMULATED, "r 1\n", 0, "the program's stream, reseeded from the run's seed and the argument" },
	{ "random(), drand48()", "printf(\"r %ld %.6f\\n\", random(), drand48());", SIMULATED, "r ", 1, "the program's stream" },
	{ "clock()", "static int x; clock_t a = clock(); for (int i = 0; i < 2000; i++) __atomic_fetch_add(&x, 1, __ATOMIC_SEQ_CST); printf(\"c %d\\n\", clock() > a);", SIMULATED, "c 1\n", 0, "the program's CPU time on the virtual clock" },
	{ "__rdtsc(), __rdtscp()", "unsigned int aux = 9; unsigned long long a = __rdtsc(), b = __rdtscp(&aux); printf(\"t %d %u\\n\", b > a, aux);", SIMULATED, "t 1 0\n", 0, "the CPU's virtual clock in ns" },
	{ "clock_gettime(CLOCK_REALTIME)", "struct timespec ts; clock_gettime(CLOCK_REALTIME, &ts); printf(\"s %ld\\n\", (long)ts.tv_sec);", SIMULATED, "s 0\n", 0, "the virtual clock, 0 at the start" },
};

#define NR_CALLS	(int)(sizeof(calls) / sizeof(calls[0]))

static const char prog_head[] =
	"#include <dlfcn.h>\n#include <fcntl.h>\n#include <signal.h>\n"
	"#include <stdio.h>\n#include <stdlib.h>\n#include <string.h>\n"
	"#include <time.h>\n#include <unistd.h>\n#include <x86intrin.h>\n"
	"#include <sys/mman.h>\n#include <sys/random.h>\n"
	"#include <sys/resource.h>\n#include <sys/socket.h>\n"
	"#include <sys/times.h>\n#include <assert.h>\n"
	"int main(int argc, char **argv)\n{\n\t";

/* The row's outcome in docs/programs.md's words. */
static void outcome_text(const struct hostcall *h, char *out, size_t len)
{
	switch (h->outcome) {
	case REFUSED:
		snprintf(out, len, "| `%s` | refused by `futexsim build` (exit 2) |", h->call);
		break;
	case RUNTIME:
		snprintf(out, len, "| `%s` | builds; the call ends the run with a failure report naming it (exit 3) |", h->call);
		break;
	case FAILURE:
		snprintf(out, len, "| `%s` | simulated: a failed assertion ends the run with a failure report naming it and its `file:line` (exit 3) |", h->call);
		break;
	case SIMULATED:
		snprintf(out, len, "| `%s` | simulated: %s%s |", h->call, h->what,
			 h->by_seed ? "; another seed, other numbers" : "");
		break;
	}
}

static int build(struct child_out *o, const char *body)
{
	static char src[4096];
	const char *argv[] = { "futexsim", "build", "prog.c", "-o", "prog", NULL };

	snprintf(src, sizeof(src), "%s%s\n\treturn 0;\n}\n", prog_head, body);
	scratch_write("prog.c", src);
	unlink("prog");
	return run_futexsim(o, argv);
}

static void run(struct child_out *o, const char *seed)
{
	char s[32];
	const char *argv[] = { "futexsim", "run", "--program=./prog", s, NULL };

	snprintf(s, sizeof(s), "--seed=%s", seed);
	run_futexsim(o, argv);
}

static void check_row(const struct hostcall *h)
{
	static struct child_out o, a, b;
	char want[160];

	ck_assert(build(&o, h->body));
	if (h->outcome == REFUSED) {
		snprintf(want, sizeof(want), h->needle[0] && strstr("rdtsc syscall cpuid", h->needle) ?
			 "executes %s, which futexsim does not simulate" :
			 "prog.c calls %s(), which futexsim does not simulate (docs/programs.md)",
			 h->needle);
		ck_assert_msg(o.status == 2, "%s: build status %d: %s", h->call, o.status, o.err);
		ck_assert_msg(strstr(o.err, want), "%s: [%s] missing from: %s", h->call, want, o.err);
		ck_assert_msg(access("prog", F_OK) != 0, "%s: a binary was made", h->call);
		return;
	}
	ck_assert_msg(o.status == 0, "%s: build status %d: %s", h->call, o.status, o.err);
	run(&a, "1");
	if (h->outcome == RUNTIME) {
		snprintf(want, sizeof(want), "unsupported call in the program: %s", h->needle);
		ck_assert_msg(a.status == 3, "%s: run status %d", h->call, a.status);
		ck_assert_msg(strstr(a.err, want), "%s: [%s] missing from: %.300s", h->call, want, a.err);
		return;
	}
	if (h->outcome == FAILURE) {
		ck_assert_msg(a.status == 3, "%s: run status %d", h->call, a.status);
		ck_assert_msg(strstr(a.err, h->needle), "%s: [%s] missing from: %.300s", h->call, h->needle, a.err);
		return;
	}
	ck_assert_msg(a.status == 0, "%s: run status %d: %.300s", h->call, a.status, a.err);
	ck_assert_msg(!strncmp(a.out, h->needle, strlen(h->needle)), "%s: got %.80s", h->call, a.out);
	run(&b, "1");
	ck_assert_msg(!strcmp(a.out, b.out), "%s: two runs of seed 1 differ", h->call);
	if (h->by_seed) {
		run(&b, "2");
		ck_assert_msg(strncmp(a.out, b.out, strcspn(a.out, "\n")),
			      "%s: seeds 1 and 2 print the same: %.80s", h->call, a.out);
	}
}

START_TEST(test_every_host_call_of_the_table_is_refused_or_simulated)
{
	char row[256];

	if (!getenv("FUTEXSIM"))
		return;
	scratch_enter();
	for (int i = 0; i < NR_CALLS; i++) {
		check_row(&calls[i]);
		outcome_text(&calls[i], row, sizeof(row));
		printf("hostcalls: %s\n", row);
	}
	scratch_leave();
}
END_TEST

/* Negative control: allowed calls only (string, conversion, math, ctype,
 * snprintf, qsort, getopt) build and run, with the output they compute. */
START_TEST(test_a_program_of_allowed_calls_builds_and_runs)
{
	static struct child_out o;
	const char *body =
		"char b[32]; int v[] = { 3, 1, 2 }; int c;\n"
		"\tint cmp(const void *x, const void *y) { return *(const int *)x - *(const int *)y; }\n"
		"\twhile ((c = getopt(argc, argv, \"x\")) != -1) ;\n"
		"\tqsort(v, 3, sizeof(int), cmp);\n"
		"\tsnprintf(b, sizeof(b), \"%ld %d\", strtol(\"42\", 0, 10), toupper('a'));\n"
		"\tprintf(\"%s %d%d%d %.1f %zu %s\\n\", b, v[0], v[1], v[2], sqrt(2.25), strlen(b), strerror(0) ? \"e\" : \"\");";

	if (!getenv("FUTEXSIM"))
		return;
	scratch_enter();
	scratch_write("prog.c", "");
	{
		static char src[4096];
		const char *argv[] = { "futexsim", "build", "prog.c", "-o", "prog", "-lm", NULL };

		snprintf(src, sizeof(src), "#include <ctype.h>\n#include <math.h>\n%s%s\n\treturn 0;\n}\n",
			 prog_head, body);
		scratch_write("prog.c", src);
		ck_assert(run_futexsim(&o, argv));
	}
	ck_assert_msg(o.status == 0, "build status %d: %s", o.status, o.err);
	run(&o, "1");
	ck_assert_msg(o.status == 0, "run status %d: %.300s", o.status, o.err);
	ck_assert_msg(!strncmp(o.out, "42 65 123 1.5 5 e\n", 18), "got %.80s", o.out);
	scratch_leave();
}
END_TEST

/* docs/programs.md holds every row of the table, word for word. */
START_TEST(test_the_docs_table_of_host_calls_is_the_tests)
{
	char *md = slurp(PROGRAMS_MD, NULL), row[256];

	for (int i = 0; i < NR_CALLS; i++) {
		outcome_text(&calls[i], row, sizeof(row));
		ck_assert_msg(strstr(md, row), "docs/programs.md lacks the row: %s", row);
	}
	/* the checker finds a row that is not there */
	ck_assert_ptr_null(strstr(md, "| `mkstemp()` | simulated"));
	free(md);
}
END_TEST

Suite *hostcalls_suite(void)
{
	return one_case_suite("hostcalls", 300, (const TTest *const[]){
		test_every_host_call_of_the_table_is_refused_or_simulated,
		test_a_program_of_allowed_calls_builds_and_runs,
		test_the_docs_table_of_host_calls_is_the_tests,
		NULL });
}
